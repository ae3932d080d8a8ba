//! What an `actfast` unit is beyond its numbers: the unit traits a level
//! writes (`Leader`, and any condition it starts with: `Prone`, `Burning` …), the
//! side traits (`PCs`, `NPCs`, `Surprised`), and the [`AUnit`] component the rules
//! read: pool stats, armor, morale, its choice for the round and its reaction.

use bevy_ecs::prelude::*;

use super::config::ActfastConfig;
use super::order::Pace;
use super::stats::{CONDITIONS, Condition, default_stat};
use crate::engine::spec::{Level, UnitDef};

/// One unit trait, parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trait {
    /// The side's leader: its defeat makes the side roll morale (A-GAP-13).
    Leader,
    /// A condition the unit starts the battle with (A-18 … A-25).
    Starts(Condition),
}

/// The unit-trait forms, for messages and the editor's hint.
pub const UNIT_TRAIT_EXAMPLES: &[&str] = &["Leader", "Prone", "Burning", "Slow", "Fear"];

/// The side traits: `PCs` (the players' characters: they choose Act Fast or Act Well
/// each round, 10 HP by default) or `NPCs` (the opponents: 2 actions in step 2,
/// morale, 6 HP by default), and `Surprised` (caught by surprise: acts as if Slow
/// in the first round, A-04, A-GAP-15). Without either, the first side is the PCs.
pub const SIDE_TRAITS: &[&str] = &["PCs", "NPCs", "Surprised"];

/// Reads one unit trait; the error names the valid forms.
pub fn parse_trait(phrase: &str) -> Result<Trait, String> {
    let p = phrase.trim();
    if p.eq_ignore_ascii_case("leader") {
        return Ok(Trait::Leader);
    }
    CONDITIONS
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(p))
        .map(|c| Trait::Starts(c.condition))
        .ok_or_else(|| {
            format!(
                "unknown trait `{p}`; expected `Leader` or a condition the unit starts with: {}",
                CONDITIONS
                    .iter()
                    .map(|c| c.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

/// One side trait, parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideTrait {
    /// `PCs` (true) or `NPCs` (false).
    Pcs(bool),
    /// Caught by surprise.
    Surprised,
}

/// Reads one side trait; the error names the valid ones.
pub fn parse_side_trait(phrase: &str) -> Result<SideTrait, String> {
    match phrase.trim().to_ascii_lowercase().as_str() {
        "pcs" => Ok(SideTrait::Pcs(true)),
        "npcs" => Ok(SideTrait::Pcs(false)),
        "surprised" => Ok(SideTrait::Surprised),
        _ => Err(format!(
            "unknown side trait `{}`; expected one of: {}",
            phrase.trim(),
            SIDE_TRAITS.join(", ")
        )),
    }
}

/// Whether the side with this index is the players' characters: its `PCs` or `NPCs`
/// trait, else the first side.
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

/// Whether the side with this index is caught by surprise.
pub fn side_surprised(level: &Level, side: usize) -> bool {
    level.sides[side]
        .traits
        .iter()
        .any(|t| parse_side_trait(t) == Ok(SideTrait::Surprised))
}

/// An `actfast` unit's data and bookkeeping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AUnit {
    /// A player's character (chooses its pace; Down at 0 HP) or an NPC (morale; dead
    /// at 0 HP).
    pub pc: bool,
    /// Class bonus: dice of every attack pool.
    pub class: i32,
    /// Strength: melee and escape pools.
    pub strength: i32,
    /// Dexterity: ranged pools.
    pub dexterity: i32,
    /// Taken from every damage die.
    pub armor: i32,
    /// NPCs: Leadership, in the morale roll.
    pub leadership: i32,
    /// NPCs: the morale save.
    pub morale: i32,
    /// Squares per Move action (A-GAP-01).
    pub moves: u32,
    /// The side's leader (A-GAP-13).
    pub leader: bool,
    /// Its choice this round (PCs, A-02); `None` before it chose or when it does not.
    pub pace: Option<Pace>,
    /// Reactions left this round (A-05, A-GAP-08).
    pub reactions: u32,
    /// Its turns so far (for durations "until the end of its next turn").
    pub turns: u32,
    /// Broken by morale: it flees to the nearest edge (A-GAP-13).
    pub fleeing: bool,
}

impl AUnit {
    /// The data of a level's unit, its optional stats defaulted (A-GAP-06,
    /// A-GAP-13); the error names a bad trait.
    pub fn from_def(cfg: &ActfastConfig, def: &UnitDef, pc: bool) -> Result<AUnit, String> {
        let stat = |name: &str| {
            def.stats
                .get(name)
                .copied()
                .or_else(|| default_stat(cfg, name, pc))
                .unwrap_or(0)
        };
        let mut leader = false;
        for t in &def.traits {
            if parse_trait(t)? == Trait::Leader {
                leader = true;
            }
        }
        Ok(AUnit {
            pc,
            class: stat("Class"),
            strength: stat("STR"),
            dexterity: stat("DEX"),
            armor: stat("Armor"),
            leadership: stat("Leadership"),
            morale: stat("Morale"),
            moves: u32::try_from(stat("Move")).unwrap_or(0),
            leader,
            pace: None,
            reactions: 0,
            turns: 0,
            fleeing: false,
        })
    }

    /// The conditions its traits start it with.
    pub fn starting_conditions(def: &UnitDef) -> Vec<Condition> {
        def.traits
            .iter()
            .filter_map(|t| match parse_trait(t) {
                Ok(Trait::Starts(c)) => Some(c),
                _ => None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// traits name the leader and starting conditions; anything else is
    /// refused with the valid forms.
    #[test]
    fn a_01_traits_parse_or_name_the_valid_ones() {
        assert_eq!(parse_trait("leader"), Ok(Trait::Leader));
        assert_eq!(parse_trait(" Prone "), Ok(Trait::Starts(Condition::Prone)));
        let e = parse_trait("Berserk").unwrap_err();
        assert!(e.contains("`Berserk`") && e.contains("Leader") && e.contains("Burning"));
        assert_eq!(parse_side_trait("NPCs"), Ok(SideTrait::Pcs(false)));
        assert!(
            parse_side_trait("Heroes")
                .unwrap_err()
                .contains("PCs, NPCs")
        );
    }
}
