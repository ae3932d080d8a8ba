//! A power's header (E-26): how often it may be used (E-27: At-Will, Encounter,
//! Daily, Recharge X+), whether it provokes (E-28), what it costs (E-30: Spend X
//! Power), from which Escalation die it may be used (E-30: Escalation X+), and the
//! action it takes (Standard by default; Quick or Move; Free, or an Interrupt with
//! its trigger, E-24), the defense it is rolled
//! against (E-02: `vs AC` by default, `vs PD`, `vs MD`), and whether it strikes
//! every engaged enemy (E-06). A level writes these as
//! the power's `traits`.

use super::actions::ActionKind;

/// How often a power may be used (E-27). In a single battle an Encounter, Daily or
/// Recharge power is used once: each comes back only at a rest, between battles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Frequency {
    /// Every turn.
    #[default]
    AtWill,
    /// Once a battle (back at a Quick or Full Rest).
    Encounter,
    /// Once a battle (back at a Full Rest).
    Daily,
    /// Once a battle; at a Quick Rest it comes back on this roll or more.
    Recharge(i64),
}

/// The defense an attack is rolled against, as the power names it (E-02): `vs AC`
/// (the default, and every basic attack's), `vs PD` or `vs MD`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Defense {
    /// Armor Class.
    #[default]
    Ac,
    /// Physical Defense.
    Pd,
    /// Mental Defense.
    Md,
}

impl Defense {
    /// The stat it reads, as levels write it.
    pub fn stat(self) -> &'static str {
        match self {
            Defense::Ac => "AC",
            Defense::Pd => "PD",
            Defense::Md => "MD",
        }
    }
}

/// What sets off an Interrupt power (E-24), as its header names it after
/// `Interrupt:`. The unit uses it off its own turn, once a round, on the enemy
/// whose action set it off, after that action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Trigger {
    /// `enemy engages`: an enemy ends a move engaged with the unit (adjacent), not
    /// having started there.
    EnemyEngages,
    /// `attacked`: an enemy attacks the unit, hit or miss.
    Attacked,
    /// `hit`: an enemy's attack hits the unit.
    Hit,
    /// `ally hit`: an enemy's attack hits one of the unit's allies.
    AllyHit,
}

/// The triggers as headers write them, after `Interrupt:`.
pub const TRIGGERS: &[(&str, Trigger)] = &[
    ("enemy engages", Trigger::EnemyEngages),
    ("attacked", Trigger::Attacked),
    ("hit", Trigger::Hit),
    ("ally hit", Trigger::AllyHit),
];

impl Trigger {
    /// Its header words.
    pub fn words(self) -> &'static str {
        TRIGGERS
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("", |(w, _)| w)
    }
}

/// When a power is used (E-21, E-24, E-25).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Timing {
    /// On the unit's turn, with the header's action (Standard, Move or Quick).
    #[default]
    Action,
    /// `Free`: on the unit's turn without spending an action, each Free power at
    /// most once a turn (a "handful" of free actions, E-21).
    Free,
    /// `Interrupt: <trigger>`: off the unit's turn, when the trigger happens, once a
    /// round (E-24).
    Interrupt(Trigger),
}

/// A power's header, parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// How often (E-27).
    pub frequency: Frequency,
    /// Using it provokes opportunity attacks from engaged enemies (E-28).
    pub provokes: bool,
    /// Usable only when the Escalation die is even (`Some(true)`, `Escalation
    /// even`) or odd (`Some(false)`, `Escalation odd`); a die at 0 is neither
    /// (E-18).
    pub parity: Option<bool>,
    /// `Pop off`: using it pops its user off its targets without a Disengage
    /// check, so the user's moves this turn provoke no opportunity attack from them
    /// (E-37).
    pub pop_off: bool,
    /// `As a basic attack`: it deals the hit and miss damage of its user's basic
    /// attack (Level dice of the stance die + Volition), not its own (E-09).
    pub as_basic: bool,
    /// Usable only when the Escalation die is at least this (E-30).
    pub escalation: Option<i32>,
    /// Power points it costs (E-30).
    pub spend: i32,
    /// The action it takes (E-26).
    pub action: ActionKind,
    /// On its turn with that action, Free, or an Interrupt (E-24, E-26).
    pub timing: Timing,
    /// It attacks every engaged enemy, one roll each, all rolls before any damage
    /// (E-06).
    pub all_engaged: bool,
    /// Its on-hit effects on a PC are Last Gasp effects (E-52): death saves each
    /// turn until one succeeds, or the effect takes hold at 4 failures.
    pub last_gasp: bool,
    /// The defense it is rolled against (E-02).
    pub defense: Defense,
    /// It may only target a Staggered unit (E-45, E-GAP-16: abilities key off it).
    pub staggered_target: bool,
    /// A non-attack power: no attack roll; its target (the unit itself or an ally
    /// within its range) heals using one of its Recoveries (E-47, E-48, E-51).
    pub heal: bool,
    /// `Free recovery`: a `Heal` power whose healing uses no Recovery — the
    /// target heals as with one, never halved, and keeps its Recoveries (E-47: "some
    /// magical healing can surpass this using a Free Recovery").
    pub free_recovery: bool,
    /// What a Sustain roll needs to keep its sustained effects (E-29; 0 when the
    /// header names none: sustaining then only takes the action).
    pub sustain: i64,
}

impl Default for Header {
    fn default() -> Self {
        Self {
            frequency: Frequency::AtWill,
            provokes: false,
            parity: None,
            pop_off: false,
            as_basic: false,
            escalation: None,
            spend: 0,
            action: ActionKind::Standard,
            timing: Timing::Action,
            all_engaged: false,
            sustain: 0,
            last_gasp: false,
            defense: Defense::Ac,
            staggered_target: false,
            heal: false,
            free_recovery: false,
        }
    }
}

/// The header phrases, for messages.
pub const FORMS: &str = "At-Will, Encounter, Daily, `Recharge <X>+`, Provokes, \
                         `Escalation <X>+`, `Spend <X> Power`, Quick, Move, Standard, `All engaged`, \
                         `Sustain <X>+`, `Last Gasp`, `vs AC`, `vs PD`, `vs MD`, `Staggered target`, `Heal`, Free, \
                         `Interrupt: <trigger>` (triggers: enemy engages, attacked, hit, ally hit)";

/// The header phrases the seed asks for beyond the ability entry's fields: the
/// die's parity (E-18), popping off without a check (E-37), a power dealing its
/// user's basic attack damage (E-09).
pub const SEED_FORMS: &str =
    "`Escalation even`, `Escalation odd`, `Pop off`, `As a basic attack`, `Free recovery`";

/// Reads a power's traits; the error names the phrase and the valid forms.
pub fn parse_header(traits: &[String]) -> Result<Header, String> {
    let mut h = Header::default();
    for phrase in traits {
        let p = phrase.trim();
        let words: Vec<String> = p.split_whitespace().map(str::to_ascii_lowercase).collect();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let number = |w: &str, plus: bool| -> Result<i64, String> {
            let n = if plus { w.strip_suffix('+') } else { Some(w) };
            n.and_then(|n| n.parse::<i64>().ok())
                .filter(|n| (0..=100).contains(n))
                .ok_or_else(|| {
                    format!(
                        "`{p}`: `{w}` is not a number{}",
                        if plus { " with a +, e.g. `11+`" } else { "" }
                    )
                })
        };
        let lower = p.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("interrupt") {
            h.timing = Timing::Interrupt(trigger(p, rest)?);
            continue;
        }
        match words.as_slice() {
            ["free"] => h.timing = Timing::Free,
            ["at-will"] => h.frequency = Frequency::AtWill,
            ["encounter"] => h.frequency = Frequency::Encounter,
            ["daily"] => h.frequency = Frequency::Daily,
            ["recharge", x] => h.frequency = Frequency::Recharge(number(x, true)?),
            ["provokes"] => h.provokes = true,
            ["escalation", "even"] => h.parity = Some(true),
            ["escalation", "odd"] => h.parity = Some(false),
            ["escalation", x] => {
                let x = number(x, true)
                    .map_err(|e| format!("{e}, or `Escalation even` / `Escalation odd`"))?;
                h.escalation = Some(x as i32);
            }
            ["pop", "off"] => h.pop_off = true,
            ["as", "a", "basic", "attack"] => h.as_basic = true,
            ["spend", x, "power"] => h.spend = number(x, false)? as i32,
            ["quick"] => h.action = ActionKind::Quick,
            ["move"] => h.action = ActionKind::Move,
            ["standard"] => h.action = ActionKind::Standard,
            ["all", "engaged"] => h.all_engaged = true,
            ["sustain", x] => h.sustain = number(x, true)?,
            ["last", "gasp"] => h.last_gasp = true,
            ["staggered", "target"] => h.staggered_target = true,
            ["heal"] => h.heal = true,
            ["free", "recovery"] => {
                h.heal = true;
                h.free_recovery = true;
            }
            ["vs", d] => {
                h.defense = match *d {
                    "ac" => Defense::Ac,
                    "pd" => Defense::Pd,
                    "md" => Defense::Md,
                    _ => {
                        return Err(format!(
                            "`{p}`: `{}` is not a defense; expected `vs AC`, `vs PD` or \
                             `vs MD` (E-02)",
                            p.split_whitespace().nth(1).unwrap_or_default()
                        ));
                    }
                }
            }
            _ => {
                return Err(format!(
                    "`{p}` is not an `escalation` power header; expected {FORMS}, {SEED_FORMS}"
                ));
            }
        }
    }
    Ok(h)
}

/// The trigger of `Interrupt: <trigger>` (`rest`: what follows `interrupt`).
fn trigger(phrase: &str, rest: &str) -> Result<Trigger, String> {
    let valid = TRIGGERS
        .iter()
        .map(|(w, _)| format!("`Interrupt: {w}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let Some(words) = rest.trim_start().strip_prefix(':') else {
        return Err(format!(
            "`{phrase}`: an Interrupt power names its trigger after a colon; expected one \
             of {valid} (E-24)"
        ));
    };
    let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
    TRIGGERS
        .iter()
        .find(|(w, _)| *w == words)
        .map(|&(_, t)| t)
        .ok_or_else(|| {
            format!("`{phrase}`: `{words}` is not a trigger; expected one of {valid} (E-24)")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    /// E-26 / E-27 / E-28 / E-30: the header phrases; a bad one names the forms.
    #[test]
    fn e_26_e_27_e_28_e_30_headers() {
        assert_eq!(parse_header(&[]).unwrap(), Header::default());
        let h = parse_header(&t(&[
            "Encounter",
            "Provokes",
            "Escalation 3+",
            "Spend 1 Power",
            "Quick",
        ]))
        .unwrap();
        assert_eq!(h.frequency, Frequency::Encounter);
        assert!(h.provokes);
        assert_eq!(
            (h.escalation, h.spend, h.action),
            (Some(3), 1, ActionKind::Quick)
        );
        assert_eq!(
            parse_header(&t(&["Recharge 11+"])).unwrap().frequency,
            Frequency::Recharge(11)
        );
        let e = parse_header(&t(&["Weekly"])).unwrap_err();
        assert!(e.contains("`Weekly`") && e.contains("Recharge <X>+"), "{e}");
        assert_eq!(
            parse_header(&t(&["vs PD"])).unwrap().defense,
            Defense::Pd,
            "E-02"
        );
        let e = parse_header(&t(&["vs Reflex"])).unwrap_err();
        assert!(
            e.contains("`Reflex` is not a defense") && e.contains("`vs MD`"),
            "{e}"
        );
        assert_eq!(
            parse_header(&t(&["Interrupt: ally hit"])).unwrap().timing,
            Timing::Interrupt(Trigger::AllyHit),
            "E-24"
        );
        assert_eq!(parse_header(&t(&["Free"])).unwrap().timing, Timing::Free);
        let e = parse_header(&t(&["Interrupt: sneezes"])).unwrap_err();
        assert!(
            e.contains("`sneezes` is not a trigger") && e.contains("`Interrupt: enemy engages`"),
            "{e}"
        );
        let e = parse_header(&t(&["Interrupt"])).unwrap_err();
        assert!(e.contains("names its trigger"), "{e}");
        assert!(
            parse_header(&t(&["Recharge 11"]))
                .unwrap_err()
                .contains("`11`")
        );
    }
}
