//! How `flow` realizes a portable archetype ([`crate::engine::archetype`]): the
//! table in `docs/archetypes.md`, from the shipped `flow` units (`assets/units/`:
//! sellsword, halberdier, scout; The Ogre Ford's captain, ogre and cutthroat).
//!
//! - Role: AgiMod, HP and percentile skills at tier 1 — line infantry AgiMod 1,
//!   HP 18, Melee 55, Agility 40, Athletics 50, Endurance 50; archer 2, 14, Ranged
//!   60, Melee 40, Agility 50, Athletics 45; skirmisher 3, 14, Melee 50, Agility 60,
//!   Athletics 50, Deception 50; brute −1, 26, Melee 55, Agility 25, Athletics 65,
//!   Endurance 60; caster 1, 12, Ranged 60, Melee 30, Agility 40, Knowledge 60;
//!   leader 2, 20, Melee 60, Agility 45, Athletics 50, Endurance 55, Deception 30.
//! - Tier: every skill + 5 and HP + 4 per tier above 1.
//! - Armour: `armor` 0, 0, 1 or 2 (none, light, medium, heavy); a sword in medium or
//!   heavy armour comes with a shield in the off hand (to Block).
//! - Weapon: sword `Sword` 1d8; spear `Spear` 1d10, Reach 2, a two-handed polearm;
//!   daggers a `Knife` and a `Dirk` in the off hand (1d4, Finesse); bow `Shortbow`
//!   1d6, Range 6, two-handed, with a stowed `Dagger`; staff the spell `Firebolt`
//!   1d6 at 6 with a stowed `Dagger`; great weapon `Greataxe` 1d10, two-handed.

use std::collections::BTreeMap;

use crate::engine::archetype::{Archetype, ArmourKind, Role, WeaponKind, stats, weapon};
use crate::engine::spec::{Hand, UnitDef, WeaponCategory, WeaponDef};

/// A 1d4 finesse dagger, held in `hand`.
fn dagger(name: &str, hand: Hand) -> WeaponDef {
    WeaponDef {
        category: WeaponCategory::Finesse,
        held: hand,
        ..weapon(name, "1d4")
    }
}

/// The unit `flow` makes of `archetype` at `tier`.
pub fn realize(archetype: &Archetype, tier: u32) -> Result<UnitDef, String> {
    let t = i32::try_from(tier).map_err(|_| format!("tier {tier} is out of range"))?;
    let (agi, hp, skills): (i32, i32, &[(&str, i32)]) = match archetype.role {
        Role::LineInfantry => (
            1,
            18,
            &[
                ("Melee", 55),
                ("Agility", 40),
                ("Athletics", 50),
                ("Endurance", 50),
            ],
        ),
        Role::Archer => (
            2,
            14,
            &[
                ("Ranged", 60),
                ("Melee", 40),
                ("Agility", 50),
                ("Athletics", 45),
            ],
        ),
        Role::Skirmisher => (
            3,
            14,
            &[
                ("Melee", 50),
                ("Agility", 60),
                ("Athletics", 50),
                ("Deception", 50),
            ],
        ),
        Role::Brute => (
            -1,
            26,
            &[
                ("Melee", 55),
                ("Agility", 25),
                ("Athletics", 65),
                ("Endurance", 60),
            ],
        ),
        Role::Caster => (
            1,
            12,
            &[
                ("Ranged", 60),
                ("Melee", 30),
                ("Agility", 40),
                ("Knowledge", 60),
            ],
        ),
        Role::Leader => (
            2,
            20,
            &[
                ("Melee", 60),
                ("Agility", 45),
                ("Athletics", 50),
                ("Endurance", 55),
                ("Deception", 30),
            ],
        ),
    };
    let skills: BTreeMap<String, i32> = skills
        .iter()
        .map(|&(name, v)| (name.to_string(), v + 5 * (t - 1)))
        .collect();
    let armored = archetype.armour >= ArmourKind::Medium;
    let weapons = match archetype.weapon {
        WeaponKind::Sword if armored => vec![
            weapon("Sword", "1d8"),
            WeaponDef {
                category: WeaponCategory::Shield,
                held: Hand::Off,
                ..weapon("Shield", "1d6")
            },
        ],
        WeaponKind::Sword => vec![weapon("Sword", "1d8")],
        WeaponKind::Spear => vec![WeaponDef {
            reach: 2,
            category: WeaponCategory::Polearm,
            two_handed: true,
            ..weapon("Spear", "1d10")
        }],
        WeaponKind::Dagger => vec![dagger("Knife", Hand::Main), dagger("Dirk", Hand::Off)],
        WeaponKind::Bow => vec![
            WeaponDef {
                range: 6,
                two_handed: true,
                ..weapon("Shortbow", "1d6")
            },
            dagger("Dagger", Hand::Stowed),
        ],
        WeaponKind::Staff => vec![
            WeaponDef {
                range: 6,
                category: WeaponCategory::Spell,
                ..weapon("Firebolt", "1d6")
            },
            dagger("Dagger", Hand::Stowed),
        ],
        WeaponKind::GreatWeapon => vec![WeaponDef {
            two_handed: true,
            ..weapon("Greataxe", "1d10")
        }],
    };
    Ok(UnitDef {
        stats: stats([("AgiMod", agi), ("HP", hp + 4 * (t - 1))]),
        skills,
        weapons,
        armor: match archetype.armour {
            ArmourKind::None | ArmourKind::Light => 0,
            ArmourKind::Medium => 1,
            ArmourKind::Heavy => 2,
        },
        ..UnitDef::default()
    })
}
