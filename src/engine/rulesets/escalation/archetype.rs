//! How `escalation` realizes a portable archetype ([`crate::engine::archetype`]):
//! the table in `docs/archetypes.md`, from the shipped `escalation` units
//! (`assets/units/escalation_*.ron`: fighter, ranger, wizard, goblin, orc).
//!
//! - Tier: Level 1, 3 or 5 (tier 1, 2, 3: E-GAP-17's tiers span Levels 1–4, 5–7,
//!   8–10, and the shipped levels play Levels 1–4), Volition 2 + tier.
//! - Role: HP per Level + 6 (line infantry and leader 10, archer 8, skirmisher 7,
//!   brute 12, caster 6); PD +1 for archers, skirmishers and brutes, MD +3 for
//!   casters and +2 for leaders (both 12 / 10 at tier 1 otherwise, +1 per tier
//!   above 1); line infantry and leaders deal their Level on a miss; skirmishers are
//!   `Fast`; archers and casters take the `Ranged` stance.
//! - Armour: AC 12 + 0, 1, 2 or 4 (none, light, medium, heavy) + (tier − 1).
//! - Weapon: the stance's die — dagger and staff d6, sword and spear d8, great
//!   weapon d10 (`MeleeDie`), bow d8 (`RangedDie`); a staff adds an `Arcane Bolt`
//!   (Force, 10 squares, Level d6 + Volition).

use crate::engine::archetype::{Archetype, ArmourKind, Role, WeaponKind, ranged_power, stats};
use crate::engine::spec::UnitDef;

/// The unit `escalation` makes of `archetype` at `tier`.
pub fn realize(archetype: &Archetype, tier: u32) -> Result<UnitDef, String> {
    let t = i32::try_from(tier).map_err(|_| format!("tier {tier} is out of range"))?;
    let level = 2 * t - 1;
    let volition = 2 + t;
    let (hp_per_level, pd, md) = match archetype.role {
        Role::LineInfantry => (10, 0, 0),
        Role::Archer => (8, 1, 0),
        Role::Skirmisher => (7, 1, 0),
        Role::Brute => (12, 1, 0),
        Role::Caster => (6, 0, 3),
        Role::Leader => (10, 0, 2),
    };
    let ac = match archetype.armour {
        ArmourKind::None => 0,
        ArmourKind::Light => 1,
        ArmourKind::Medium => 2,
        ArmourKind::Heavy => 4,
    };
    let mut unit = UnitDef {
        stats: stats([
            ("Level", level),
            ("Volition", volition),
            ("HP", hp_per_level * level + 6),
            ("AC", 12 + ac + t - 1),
            ("PD", 12 + pd + t - 1),
            ("MD", 10 + md + t - 1),
        ]),
        ..UnitDef::default()
    };
    if matches!(archetype.role, Role::LineInfantry | Role::Leader) {
        unit.stats.insert("MissDamage".into(), level);
    }
    match archetype.weapon {
        WeaponKind::Bow => {
            unit.stats.insert("RangedDie".into(), 8);
        }
        WeaponKind::Staff => {
            unit.stats.insert("MeleeDie".into(), 6);
            let mut bolt = ranged_power("Arcane Bolt", 10, &format!("{level}d6+{volition}"));
            bolt.damage_type = Some("Force".into());
            unit.powers = vec![bolt];
        }
        WeaponKind::Dagger => {
            unit.stats.insert("MeleeDie".into(), 6);
        }
        WeaponKind::Sword | WeaponKind::Spear => {
            unit.stats.insert("MeleeDie".into(), 8);
        }
        WeaponKind::GreatWeapon => {
            unit.stats.insert("MeleeDie".into(), 10);
        }
    }
    if archetype.role == Role::Skirmisher {
        unit.traits.push("Fast".into());
    }
    if matches!(archetype.role, Role::Archer | Role::Caster) {
        unit.traits.push("Ranged".into());
    }
    Ok(unit)
}
