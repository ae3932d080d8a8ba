//! What a `wounds` unit is beyond its numbers (W-01): the feats and states a level
//! writes as traits (`Reach`, `Sneak attack`, `Weapon focus Longsword`, `Athlete`,
//! `Battle caster`, `Legion leader`, `Maneuverer`, `Extra attack`, `Initiator`,
//! `Hidden`, `Summoned`, `Summonable`, `Burdened`, `Medium armor`), the side traits (`PCs`, `Enemies`, `Initiator`),
//! and the [`WUnit`] component the rules read: modifiers, armor, melee zone, feats,
//! wounds and Free Hit Slots.

use bevy_ecs::prelude::*;

use super::aim::Wounds;
use super::config::WoundsConfig;
use super::economy::Slots;
use super::stats::default_stat;
use crate::engine::spec::{Level, UnitDef};

/// The feats that change rules (RULES.md §3.B "Feats named").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Feats {
    /// Melee zone 2 spaces around the unit (W-25).
    pub reach: bool,
    /// One more d4 of sneak damage (W-16).
    pub sneak_attack: bool,
    /// Weapons (up to 3) that deal one more damage die (W-GAP-01).
    pub weapon_focus: Vec<String>,
    /// +2 movement spaces.
    pub athlete: bool,
    /// Dodges normally while channeling (W-33).
    pub battle_caster: bool,
    /// +2 summoning slots (W-32).
    pub legion_leader: bool,
    /// Moves normally while sneaking and swimming (W-08).
    pub maneuverer: bool,
    /// Grants an additional attack: a free hit once a turn (W-26).
    pub extra_attack: bool,
}

/// One unit trait, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trait {
    /// Reach (W-25).
    Reach,
    /// Sneak attack (W-16).
    SneakAttack,
    /// Weapon focus with one weapon.
    WeaponFocus(String),
    /// Athlete.
    Athlete,
    /// Battle caster (W-33).
    BattleCaster,
    /// Legion leader (W-32).
    LegionLeader,
    /// Maneuverer (W-08).
    Maneuverer,
    /// A feat that grants an additional attack: a free hit once a turn (W-26).
    ExtraAttack,
    /// Carrying its maximum capacity: half movement (W-08).
    Burdened,
    /// A creature its side may summon during the battle: off the board until then
    /// (W-32).
    Summonable,
    /// Started the fight by attacking: acts last (W-03).
    Initiator,
    /// Undetected when the battle starts: its first attack is a sneak attack (W-16).
    Hidden,
    /// Summoned as the battle starts: summoning sickness in round 1 (W-32, W-GAP-23).
    Summoned,
    /// Worn armor, by the configuration's armor names (W-GAP-03).
    Armor(i64),
}

/// The unit-trait forms, for messages and the editor's hint.
pub const UNIT_TRAIT_EXAMPLES: &[&str] = &[
    "Resist 1",
    "Reach",
    "Sneak attack",
    "Weapon focus Longsword",
    "Athlete",
    "Battle caster",
    "Legion leader",
    "Maneuverer",
    "Extra attack",
    "Initiator",
    "Hidden",
    "Summoned",
    "Summonable",
    "Burdened",
    "Medium armor",
];

/// The side traits: `PCs` (20 HP by default, W-GAP-02) or `Enemies` (10), and
/// `Initiator` (every unit of the side started the fight, W-03).
pub const SIDE_TRAITS: &[&str] = &["PCs", "Enemies", "Initiator"];

/// Reads one unit trait; the error names what is wrong and the valid forms.
pub fn parse_trait(config: &WoundsConfig, phrase: &str) -> Result<Trait, String> {
    let p = phrase.split_whitespace().collect::<Vec<_>>().join(" ");
    let lower = p.to_ascii_lowercase();
    let plain = match lower.as_str() {
        "reach" => Some(Trait::Reach),
        "sneak attack" => Some(Trait::SneakAttack),
        "athlete" => Some(Trait::Athlete),
        "battle caster" => Some(Trait::BattleCaster),
        "legion leader" => Some(Trait::LegionLeader),
        "maneuverer" => Some(Trait::Maneuverer),
        "extra attack" => Some(Trait::ExtraAttack),
        "burdened" => Some(Trait::Burdened),
        "summonable" => Some(Trait::Summonable),
        "initiator" => Some(Trait::Initiator),
        "hidden" => Some(Trait::Hidden),
        "summoned" => Some(Trait::Summoned),
        _ => None,
    };
    if let Some(t) = plain {
        return Ok(t);
    }
    if let Some(weapon) = lower.strip_prefix("weapon focus ") {
        return config
            .weapons
            .iter()
            .find(|w| w.name.eq_ignore_ascii_case(weapon.trim()))
            .map(|w| Trait::WeaponFocus(w.name.clone()))
            .ok_or_else(|| {
                format!(
                    "`{}` is not a weapon of the table; expected one of {}",
                    &p["weapon focus ".len()..],
                    config
                        .weapons
                        .iter()
                        .map(|w| w.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            });
    }
    // A resistance or guarding feat: a flat reduction of every hit, added to the
    // armor's (W-18, W-GAP-03).
    if let Some(n) = lower.strip_prefix("resist ") {
        return n
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|n| (1..=20).contains(n))
            .map(Trait::Armor)
            .ok_or_else(|| format!("`{p}`: the resistance must be a whole number from 1 to 20"));
    }
    if let Some(kind) = lower.strip_suffix(" armor") {
        return config
            .armor
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(kind.trim()))
            .map(|(_, &n)| Trait::Armor(n))
            .ok_or_else(|| {
                format!(
                    "`{p}`: no armor of that name; expected one of {}",
                    config
                        .armor
                        .keys()
                        .map(|k| format!("`{} armor`", capitalized(k)))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            });
    }
    Err(format!(
        "`{p}` is not a `wounds` unit trait; expected one of {}",
        UNIT_TRAIT_EXAMPLES
            .iter()
            .map(|t| match *t {
                "Weapon focus Longsword" => "Weapon focus <weapon>",
                "Medium armor" => "<Light|Medium|Heavy> armor",
                "Resist 1" => "Resist <points>",
                t => t,
            })
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// One side trait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideTrait {
    /// Player characters (W-GAP-02: 20 HP by default).
    Pcs(bool),
    /// Every unit of the side started the fight (W-03).
    Initiator,
}

/// Reads one side trait.
pub fn parse_side_trait(phrase: &str) -> Result<SideTrait, String> {
    match phrase.trim().to_ascii_lowercase().as_str() {
        "pcs" | "pc" => Ok(SideTrait::Pcs(true)),
        "enemies" => Ok(SideTrait::Pcs(false)),
        "initiator" | "initiators" => Ok(SideTrait::Initiator),
        _ => Err(format!(
            "`{}` is not a `wounds` side trait; expected one of {}",
            phrase.trim(),
            SIDE_TRAITS.join(", ")
        )),
    }
}

/// Whether the side with this index plays PCs: its `PCs` / `Enemies` trait, else
/// the first side does (W-GAP-02).
pub fn side_is_pc(level: &Level, side: usize) -> bool {
    level.sides[side]
        .traits
        .iter()
        .find_map(|t| match parse_side_trait(t) {
            Ok(SideTrait::Pcs(pc)) => Some(pc),
            _ => None,
        })
        .unwrap_or(side == 0)
}

/// Whether the side with this index started the fight (W-03).
pub fn side_initiates(level: &Level, side: usize) -> bool {
    level.sides[side]
        .traits
        .iter()
        .any(|t| parse_side_trait(t) == Ok(SideTrait::Initiator))
}

/// A `wounds` unit's data and bookkeeping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WUnit {
    /// A player character (20 HP by default).
    pub pc: bool,
    /// Agility modifier, before wounds.
    pub agility: i64,
    /// Accuracy modifier, before wounds.
    pub accuracy: i64,
    /// Strength modifier, before wounds.
    pub strength: i64,
    /// Flat reduction of every damage instance (W-GAP-03).
    pub armor: i64,
    /// Spaces per Move action, Athlete included (W-07).
    pub movement: i64,
    /// Bonus Actions per turn before Weakening wounds (W-01).
    pub bonus_actions: u32,
    /// Melee zone radius (W-25).
    pub zone: u32,
    /// Level: summoning slots (W-32).
    pub level: i64,
    /// Magic points left (W-01, W-05).
    pub mp: i64,
    /// Magic points at full (the `MP` stat): the winners' MP is refilled (W-05).
    pub max_mp: i64,
    /// Actions of its next turn already spent standing up off-turn (W-30,
    /// W-GAP-19).
    pub owed: Vec<super::economy::Action>,
    /// Feats.
    pub feats: Feats,
    /// Started the fight: acts last (W-03).
    pub initiator: bool,
    /// Summoned as the battle starts (W-GAP-23).
    pub summoned: bool,
    /// Undetected when the battle starts (W-16).
    pub hidden: bool,
    /// Carrying its maximum capacity: half movement (W-08).
    pub burdened: bool,
    /// Waits off the board to be summoned during the battle (W-32).
    pub summonable: bool,
    /// Its wounds with their rounds (W-17, W-GAP-08).
    pub wounds: Wounds,
    /// Free Hit Slots left this round (W-27).
    pub slots: Slots,
    /// Turns it has started.
    pub turns: u32,
    /// A spell being channeled (W-33).
    pub channel: Option<Channel>,
}

/// A spell whose cast time runs over more than one turn (W-12, W-33).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Channel {
    /// The power.
    pub power: String,
    /// Its target.
    pub target: crate::engine::units::UnitId,
    /// Actions of cast time still to pay.
    pub left: u32,
}

impl WUnit {
    /// The data of a level's unit, with the defaults of §3.C for what it leaves out.
    pub fn from_def(
        config: &WoundsConfig,
        def: &UnitDef,
        pc: bool,
        initiator: bool,
    ) -> Result<WUnit, String> {
        let stat = |name: &str| -> i64 {
            def.stats
                .get(name)
                .copied()
                .or_else(|| default_stat(config, name, pc))
                .map_or(0, i64::from)
        };
        let mut me = WUnit {
            pc,
            agility: stat("Agility"),
            accuracy: stat("Accuracy"),
            strength: stat("Strength"),
            armor: stat("Armor"),
            movement: stat("Movement"),
            bonus_actions: u32::try_from(stat("BonusActions")).unwrap_or(0),
            zone: u32::try_from(stat("Reach")).unwrap_or(1).max(1),
            level: stat("Level"),
            mp: stat("MP"),
            max_mp: stat("MP"),
            owed: Vec::new(),
            feats: Feats::default(),
            initiator,
            summoned: false,
            hidden: false,
            burdened: false,
            summonable: false,
            wounds: Wounds::new(),
            slots: Slots::default(),
            turns: 0,
            channel: None,
        };
        for phrase in &def.traits {
            match parse_trait(config, phrase)? {
                Trait::Reach => {
                    me.feats.reach = true;
                    me.zone = me.zone.max(2);
                }
                Trait::SneakAttack => me.feats.sneak_attack = true,
                Trait::WeaponFocus(w) => {
                    if !me.feats.weapon_focus.contains(&w) {
                        me.feats.weapon_focus.push(w);
                    }
                    if me.feats.weapon_focus.len() > 3 {
                        return Err(format!(
                            "Weapon focus names {} weapons; the feat chooses at most 3",
                            me.feats.weapon_focus.len()
                        ));
                    }
                }
                Trait::Athlete => {
                    me.feats.athlete = true;
                    me.movement += 2;
                }
                Trait::BattleCaster => me.feats.battle_caster = true,
                Trait::LegionLeader => me.feats.legion_leader = true,
                Trait::Maneuverer => me.feats.maneuverer = true,
                Trait::ExtraAttack => me.feats.extra_attack = true,
                Trait::Burdened => me.burdened = true,
                Trait::Summonable => me.summonable = true,
                Trait::Initiator => me.initiator = true,
                Trait::Hidden => me.hidden = true,
                Trait::Summoned => me.summoned = true,
                Trait::Armor(n) => me.armor += n,
            }
        }
        Ok(me)
    }

    /// Summoning slots (W-32): Level, +2 with Legion leader.
    pub fn summoning_slots(&self) -> i64 {
        self.level + if self.feats.legion_leader { 2 } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::config::load_default;

    fn cfg() -> WoundsConfig {
        load_default().unwrap()
    }

    /// W-25, W-16, W-03, W-GAP-03: feats and states read from traits; a bad phrase
    /// is named with the valid forms.
    #[test]
    fn w_25_traits_read_feats_and_armor() {
        let c = cfg();
        assert_eq!(parse_trait(&c, "reach"), Ok(Trait::Reach));
        assert_eq!(parse_trait(&c, "Sneak  attack"), Ok(Trait::SneakAttack));
        assert_eq!(
            parse_trait(&c, "Weapon focus longsword"),
            Ok(Trait::WeaponFocus("Longsword".into()))
        );
        assert_eq!(parse_trait(&c, "Heavy armor"), Ok(Trait::Armor(3)));
        let e = parse_trait(&c, "Weapon focus Spoon").unwrap_err();
        assert!(
            e.contains("`Spoon` is not a weapon") && e.contains("Longsword"),
            "{e}"
        );
        let e = parse_trait(&c, "Paper armor").unwrap_err();
        assert!(e.contains("`Light armor`"), "{e}");
        let e = parse_trait(&c, "Flying").unwrap_err();
        assert!(
            e.contains("`Flying` is not a `wounds` unit trait") && e.contains("Reach"),
            "{e}"
        );
        let mut def = UnitDef {
            name: "Spear".into(),
            traits: vec!["Reach".into(), "Athlete".into(), "Light armor".into()],
            ..Default::default()
        };
        def.stats.insert("Armor".into(), 1);
        let u = WUnit::from_def(&c, &def, true, false).unwrap();
        assert_eq!((u.zone, u.movement, u.armor), (2, 8, 2));
        assert_eq!(parse_side_trait("Initiator"), Ok(SideTrait::Initiator));
        assert!(
            parse_side_trait("Heroes")
                .unwrap_err()
                .contains("PCs, Enemies, Initiator")
        );
    }
}
