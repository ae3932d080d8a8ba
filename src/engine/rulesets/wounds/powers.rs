//! What a `wounds` power's `traits` say (W-12, W-33, W-GAP-07): `Spell` (not a
//! physical attack: it can't aim and adds no Strength), `Cast N` (a spell whose cast
//! time is N actions, paid with Attack and Move Actions; more than the turn has left
//! is channeled over the next turns), `MP N` (magic points it costs), and
//! `Sheathed` (a weapon that starts the battle in its sheath: Draw it first, W-06),
//! and `Summon` (a spell that summons a `Summonable` creature of its side during the
//! battle instead of attacking, W-32).

/// A power's header, parsed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// A spell: no aim, no Strength (W-GAP-07).
    pub spell: bool,
    /// Cast time in actions (W-12); 0 for a weapon (it costs the Attack Action).
    pub cast: u32,
    /// MP it costs.
    pub mp: i64,
    /// A weapon that starts the battle sheathed (W-06, W-07, W-09).
    pub sheathed: bool,
    /// A summoning spell: it brings a creature into the battle, it attacks nobody
    /// (W-32).
    pub summon: bool,
}

/// The forms a power trait takes, for messages and the editor.
pub const POWER_TRAITS: &[&str] = &["Spell", "Cast 3", "MP 2", "Sheathed", "Summon"];

/// Reads a power's traits; the error names the bad phrase and the valid forms.
pub fn parse_header(traits: &[String]) -> Result<Header, String> {
    // A spell or ability that helps: `Removes a wound`, `Grants disengage`, `Upkeep
    // N` (W-19, W-28, W-33), read in [`super::magic`].
    super::magic::help(traits)?;
    let mut h = Header::default();
    for t in traits {
        if super::magic::read(t, &mut Default::default()).is_some() {
            h.spell = true;
            continue;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        let number = |n: &str, what: &str| {
            n.parse::<u32>()
                .ok()
                .filter(|n| (1..=20).contains(n))
                .ok_or_else(|| format!("`{t}`: {what} must be a whole number from 1 to 20"))
        };
        match words.as_slice() {
            [w] if w.eq_ignore_ascii_case("spell") => h.spell = true,
            [w] if w.eq_ignore_ascii_case("sheathed") => h.sheathed = true,
            [w] if w.eq_ignore_ascii_case("summon") => {
                h.summon = true;
                h.spell = true;
            }
            [w, n] if w.eq_ignore_ascii_case("cast") => {
                h.cast = number(n, "the cast time")?;
                h.spell = true;
            }
            [w, n] if w.eq_ignore_ascii_case("mp") => h.mp = i64::from(number(n, "the MP cost")?),
            _ => {
                return Err(format!(
                    "`{t}` is not a `wounds` power trait; expected `Spell`, `Cast <actions>`, \
                     `MP <points>`, `Sheathed`, `Summon`, `{}`, `{}` or `Upkeep <MP>`",
                    super::magic::REMOVES_A_WOUND,
                    super::magic::GRANTS_DISENGAGE
                ));
            }
        }
    }
    if h.spell && h.sheathed {
        return Err("a spell is not a weapon: it can't be `Sheathed` (W-06)".into());
    }
    if h.spell && h.cast == 0 {
        h.cast = 1;
    }
    Ok(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// W-12: a spell's cast time in actions; a spell with none takes one; W-GAP-07:
    /// spells are not physical.
    #[test]
    fn w_12_spell_headers() {
        assert_eq!(parse_header(&[]), Ok(Header::default()));
        assert_eq!(
            parse_header(&t(&["Cast 3", "MP 2"])),
            Ok(Header {
                spell: true,
                cast: 3,
                mp: 2,
                sheathed: false,
                summon: false
            })
        );
        assert_eq!(parse_header(&t(&["spell"])).unwrap().cast, 1);
        assert!(
            parse_header(&t(&["Cast zero"]))
                .unwrap_err()
                .contains("cast time")
        );
        assert!(
            parse_header(&t(&["Cantrip"]))
                .unwrap_err()
                .contains("`Spell`")
        );
    }
}
