//! What an `escalation` unit is beyond its numbers (E-01): the traits a level
//! writes (`Fast`, `Ranged`, `Resist Fire 14+`, `Weak Cold`, `Vulnerable`,
//! `Flying`), the side traits `PCs` / `Enemies`, and the [`EscUnit`] component the
//! rules read: band, stance, stance dice, resistances, Recoveries and the death-save
//! track.

use bevy_ecs::prelude::*;

use super::config::EscalationConfig;
use super::harm::{DAMAGE_TYPES, damage_type};
use super::saves::DeathSaves;
use super::stats::default_tier;
use crate::engine::spec::{Level, UnitDef};

/// The two stances (E-09): which basic attack a unit makes, and whether it makes
/// opportunity attacks (only in Melee, E-38).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub enum Stance {
    /// Basic Melee Attack; makes opportunity attacks.
    #[default]
    Melee,
    /// Basic Ranged Attack.
    Ranged,
}

impl Stance {
    /// The other stance.
    pub fn other(self) -> Stance {
        match self {
            Stance::Melee => Stance::Ranged,
            Stance::Ranged => Stance::Melee,
        }
    }

    /// Its name as levels write it.
    pub fn name(self) -> &'static str {
        match self {
            Stance::Melee => "Melee",
            Stance::Ranged => "Ranged",
        }
    }
}

/// One unit trait, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trait {
    /// Its initiative band, by index in the configuration's `initiative_bands`.
    Band(usize),
    /// Its starting stance.
    Stance(Stance),
    /// `Resist <type> X+` (E-12).
    Resist(&'static str, i64),
    /// `Weak <type>` (E-13).
    Weak(&'static str),
    /// Vulnerable for the whole battle (E-14).
    Vulnerable,
    /// Flying (E-57).
    Flying,
}

/// The unit-trait forms, for messages and the editor's hint.
pub const UNIT_TRAIT_EXAMPLES: &[&str] = &[
    "Fast",
    "Ranged",
    "Resist Fire 14+",
    "Weak Cold",
    "Vulnerable",
    "Flying",
];

/// The side traits (E-16: PCs act before enemies in a band).
pub const SIDE_TRAITS: &[&str] = &["PCs", "Enemies"];

/// Reads one unit trait; the error names what is wrong and the valid forms.
pub fn parse_trait(config: &EscalationConfig, phrase: &str) -> Result<Trait, String> {
    let p = phrase.trim();
    if let Some(i) = config
        .initiative_bands
        .iter()
        .position(|b| b.eq_ignore_ascii_case(p))
    {
        return Ok(Trait::Band(i));
    }
    let lower = p.to_ascii_lowercase();
    match lower.as_str() {
        "melee" => return Ok(Trait::Stance(Stance::Melee)),
        "ranged" => return Ok(Trait::Stance(Stance::Ranged)),
        "vulnerable" => return Ok(Trait::Vulnerable),
        "flying" => return Ok(Trait::Flying),
        _ => {}
    }
    let words: Vec<&str> = p.split_whitespace().collect();
    let kind = |name: &str| {
        damage_type(name).ok_or_else(|| {
            format!(
                "`{name}` is not a damage type; expected one of {}",
                DAMAGE_TYPES.join(", ")
            )
        })
    };
    match words.as_slice() {
        [w, t, x] if w.eq_ignore_ascii_case("resist") => {
            let t = kind(t)?;
            let n = x
                .strip_suffix('+')
                .and_then(|n| n.parse::<i64>().ok())
                .filter(|n| (3..=18).contains(n))
                .ok_or_else(|| {
                    format!("`{x}` is not a natural roll to beat; expected 3+ to 18+, e.g. `14+`")
                })?;
            Ok(Trait::Resist(t, n))
        }
        [w, t] if w.eq_ignore_ascii_case("weak") => Ok(Trait::Weak(kind(t)?)),
        [w, ..] if w.eq_ignore_ascii_case("resist") => Err(format!(
            "`{p}`: write a resistance as `Resist <type> <X>+`, e.g. `Resist Fire 14+`"
        )),
        _ => Err(format!(
            "`{p}` is not an `escalation` unit trait; expected an initiative band ({}), a \
             stance (Melee, Ranged), `Resist <type> <X>+`, `Weak <type>`, Vulnerable or Flying",
            config.initiative_bands.join(", ")
        )),
    }
}

/// Reads one side trait.
pub fn parse_side_trait(phrase: &str) -> Result<bool, String> {
    match phrase.trim().to_ascii_lowercase().as_str() {
        "pcs" | "pc" => Ok(true),
        "enemies" | "npcs" => Ok(false),
        _ => Err(format!(
            "`{}` is not an `escalation` side trait; expected one of {}",
            phrase.trim(),
            SIDE_TRAITS.join(", ")
        )),
    }
}

/// Whether a level's side `side` (index) plays PCs: its `PCs`/`Enemies` trait; a
/// side with neither is the PCs when it is listed first.
pub fn side_is_pc(level: &Level, side: usize) -> bool {
    level.sides[side]
        .traits
        .iter()
        .find_map(|t| parse_side_trait(t).ok())
        .unwrap_or(side == 0)
}

/// An `escalation` unit's data and bookkeeping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EscUnit {
    /// A player character: Dying at 0 HP, Recoveries, first in its band.
    pub pc: bool,
    /// Whether the Escalation die adds to its attacks (E-GAP-05).
    pub uses_escalation: bool,
    /// Level (E-01).
    pub level: i32,
    /// Volition.
    pub volition: i32,
    /// Initiative band, as an index into the configured bands.
    pub band: usize,
    /// Current stance.
    pub stance: Stance,
    /// Melee stance damage die.
    pub melee_die: u32,
    /// Ranged stance damage die.
    pub ranged_die: u32,
    /// Ranged stance reach.
    pub ranged_reach: u32,
    /// Damage on a miss.
    pub miss_damage: i32,
    /// Tier (Confused).
    pub tier: i32,
    /// Resistances: type and the natural roll that beats them.
    pub resist: Vec<(&'static str, i64)>,
    /// Types it is weak to.
    pub weak: Vec<&'static str>,
    /// Vulnerable by nature.
    pub vulnerable: bool,
    /// Flies.
    pub flying: bool,
    /// Recoveries left.
    pub recoveries: u32,
    /// Death saves this encounter.
    pub death: DeathSaves,
    /// Disadvantage on its next death save (2 on the first when dropped by a crit
    /// or deep below 0, E-49).
    pub death_save_disadvantage: i32,
    /// Whether it has made a death save since it last dropped.
    pub saved_since_drop: bool,
    /// The round its one Interrupt was used (E-24): none more that round.
    pub interrupt_round: Option<u32>,
    /// Whether a crit dropped it (E-49).
    pub dropped_by_crit: bool,
    /// Turns it has started this battle (one-round effects it applies last to the
    /// end of its next one, E-GAP-18).
    pub turns: u32,
    /// Size of its recovery dice (E-48).
    pub recovery_die: u32,
    /// Times it was healed with no Recoveries left: −1 each to Volition and every
    /// defense for the rest of the battle (E-47).
    pub exhausted: i32,
    /// Power points left (E-30, a PC's Power pool).
    pub power_points: i32,
    /// Encounter, Daily and Recharge powers it has used this battle (E-27).
    pub used: Vec<String>,
    /// A Last Gasp effect on it (E-52), if any.
    pub last_gasp: Option<LastGasp>,
    /// Effects of its powers it keeps up by sustaining them (E-29).
    pub sustaining: Vec<Sustained>,
    /// Its readied attack, waiting for a trigger (E-20).
    pub ready: Option<Readied>,
    /// Whether it has any Interrupt power (E-24), read once at set-up: only these
    /// units are asked when something triggers interrupts.
    pub interrupts: bool,
    /// The Free powers it used, each with its turn (once a turn each, E-21).
    pub free_used: Vec<(String, u32)>,
    /// The units its attacks hit, each with the round (E-58: a Grabbed unit that
    /// hit its grabber this round disengages from it without the Disadvantage).
    pub hits: Vec<(crate::engine::units::UnitId, u32)>,
    /// An action type its next turn lacks: a readied one fired in the round of
    /// that turn before it came (E-20).
    pub lost: Option<super::actions::ActionKind>,
}

/// A Last Gasp effect (E-52): the condition, the HP the PC had when it began, and
/// the failed saves so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastGasp {
    /// The condition.
    pub condition: String,
    /// HP when it began (kept on a success).
    pub hp: i32,
    /// Failed saves that count.
    pub failures: u32,
}

/// A sustained effect (E-29): the power, the unit and condition it holds, the turn
/// it began and the last turn it was sustained in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sustained {
    /// The power.
    pub power: String,
    /// The unit under the effect.
    pub target: crate::engine::units::UnitId,
    /// The condition.
    pub condition: String,
    /// The sustainer's turn it began in.
    pub since: u32,
    /// The sustainer's last turn it was sustained in.
    pub kept: u32,
}

/// A readied action (E-20): an attack (the power, `None`: the stance's basic
/// attack), a non-attack power (a `Heal` power, on the unit itself), or a Move (to
/// a cell); the action type it took and the round it was readied in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Readied {
    /// The power.
    pub power: Option<String>,
    /// A readied Move: where to.
    pub to: Option<crate::engine::board::Cell>,
    /// The action type it is (what a later round's turn lacks when it fired).
    pub kind: super::actions::ActionKind,
    /// The round it was readied in.
    pub round: u32,
}

impl EscUnit {
    /// The unit data of a level's unit, with the configuration's defaults.
    pub fn from_def(
        config: &EscalationConfig,
        def: &UnitDef,
        pc_side: bool,
    ) -> Result<Self, String> {
        let stat = |n: &str| def.stats.get(n).copied();
        let pc = stat("PC").map_or(pc_side, |v| v != 0);
        let level = stat("Level").unwrap_or(1);
        let band = config
            .initiative_bands
            .iter()
            .position(|b| *b == config.default_band)
            .unwrap_or(0);
        let mut unit = EscUnit {
            pc,
            uses_escalation: stat("Escalation").map_or(pc, |v| v != 0),
            level,
            volition: stat("Volition").unwrap_or(0),
            band,
            stance: Stance::Melee,
            melee_die: stat("MeleeDie").map_or(config.melee_die, |v| v.max(1) as u32),
            ranged_die: stat("RangedDie").map_or(config.ranged_die, |v| v.max(1) as u32),
            ranged_reach: config.ranged_reach,
            miss_damage: stat("MissDamage").unwrap_or(0),
            tier: stat("Tier").unwrap_or_else(|| default_tier(level)),
            resist: Vec::new(),
            weak: Vec::new(),
            vulnerable: false,
            flying: stat("Flying").is_some_and(|v| v != 0),
            recoveries: stat("Recoveries")
                .map_or(if pc { config.recoveries } else { 0 }, |v| v.max(0) as u32),
            death: DeathSaves::default(),
            death_save_disadvantage: 0,
            saved_since_drop: false,
            interrupt_round: None,
            dropped_by_crit: false,
            turns: 0,
            recovery_die: stat("RecoveryDie").map_or(8, |v| v.max(1) as u32),
            exhausted: 0,
            power_points: stat("Power").unwrap_or(0),
            sustaining: Vec::new(),
            last_gasp: None,
            used: Vec::new(),
            ready: None,
            lost: None,
            hits: Vec::new(),
            free_used: Vec::new(),
            interrupts: def.powers.iter().any(|p| {
                super::powers::parse_header(&p.traits)
                    .is_ok_and(|h| matches!(h.timing, super::powers::Timing::Interrupt(_)))
            }),
        };
        for phrase in &def.traits {
            match parse_trait(config, phrase).map_err(|e| format!("trait {e}"))? {
                Trait::Band(b) => unit.band = b,
                Trait::Stance(s) => unit.stance = s,
                Trait::Resist(t, x) => unit.resist.push((t, x)),
                Trait::Weak(t) => unit.weak.push(t),
                Trait::Vulnerable => unit.vulnerable = true,
                Trait::Flying => unit.flying = true,
            }
        }
        Ok(unit)
    }

    /// The damage die of its current stance.
    pub fn stance_die(&self) -> u32 {
        match self.stance {
            Stance::Melee => self.melee_die,
            Stance::Ranged => self.ranged_die,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::config::load_default;

    /// E-01 / E-12 / E-13 / E-GAP-09: traits read bands, stances, resistances and
    /// weaknesses; a bad one names the valid forms.
    #[test]
    fn e_01_traits_parse_and_refuse_in_words() {
        let c: EscalationConfig = load_default().unwrap();
        assert_eq!(parse_trait(&c, "Very Fast"), Ok(Trait::Band(0)));
        assert_eq!(parse_trait(&c, "slow"), Ok(Trait::Band(3)));
        assert_eq!(parse_trait(&c, "Ranged"), Ok(Trait::Stance(Stance::Ranged)));
        assert_eq!(
            parse_trait(&c, "Resist fire 14+"),
            Ok(Trait::Resist("Fire", 14))
        );
        assert_eq!(parse_trait(&c, "Weak Cold"), Ok(Trait::Weak("Cold")));
        let e = parse_trait(&c, "Resist Frost 14+").unwrap_err();
        assert!(
            e.contains("`Frost` is not a damage type") && e.contains("Thunder"),
            "{e}"
        );
        let e = parse_trait(&c, "Speedy").unwrap_err();
        assert!(
            e.contains("Very Fast, Fast, Medium") && e.contains("Melee, Ranged"),
            "{e}"
        );
        let e = parse_trait(&c, "Resist Fire 14").unwrap_err();
        assert!(e.contains("`14` is not a natural roll"), "{e}");
        assert_eq!(parse_side_trait("PCs"), Ok(true));
        assert!(
            parse_side_trait("Heroes")
                .unwrap_err()
                .contains("PCs, Enemies")
        );
    }
}
