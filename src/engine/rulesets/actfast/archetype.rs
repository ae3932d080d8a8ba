//! How `actfast` realizes a portable archetype ([`crate::engine::archetype`]): the
//! table in `docs/archetypes.md`, from the shipped `actfast` units
//! (`assets/units/actfast_*.ron`: fighter, archer, mage, brigand, chief).
//!
//! - Tier: the Class bonus (1, 2, 3) and HP + 2 per tier above 1.
//! - Role: STR and DEX (line infantry 2, 0; archer 1, 3; skirmisher 1, 2; brute
//!   2, 0; caster 0, 2; leader 2, 1) and HP at tier 1 (10, 8, 8, 12, 8, 10); a
//!   leader is the side's `Leader` with Leadership 2 and Morale 9.
//! - Armour: Armor 0, 0, 1 or 2 (none, light, medium, heavy): each damage die is
//!   taken that much lower.
//! - Weapon: from the ruleset's weapon table — sword and spear `One-handed` 1d6,
//!   great weapon `Two-handed` 2d6, bow `Bow` 1d6 and a `Dagger` 1d4; daggers are
//!   `Daggers` 1d4; a staff casts `Firebolt` (1d6, ranged, sets its target
//!   Burning) and strikes with a `Staff` 1d4.

use crate::engine::archetype::{
    Archetype, ArmourKind, Role, WeaponKind, melee_power, ranged_power, stats,
};
use crate::engine::spec::{EffectDef, EffectDuration, PowerDef, UnitDef};

/// A weapon of the ruleset's table (A-GAP-05), by name, with the table's damage
/// written out (the rules take it from the table anyway).
fn table_weapon(name: &str) -> Result<PowerDef, String> {
    let weapon = super::config::defaults()?
        .weapon(name)
        .ok_or_else(|| format!("the weapon table has no `{name}`"))?;
    let mut power = melee_power(name, &weapon.damage);
    power.ranged = !weapon.melee;
    Ok(power)
}

/// The unit `actfast` makes of `archetype` at `tier`.
pub fn realize(archetype: &Archetype, tier: u32) -> Result<UnitDef, String> {
    let t = i32::try_from(tier).map_err(|_| format!("tier {tier} is out of range"))?;
    let (strength, dex, hp) = match archetype.role {
        Role::LineInfantry => (2, 0, 10),
        Role::Archer => (1, 3, 8),
        Role::Skirmisher => (1, 2, 8),
        Role::Brute => (2, 0, 12),
        Role::Caster => (0, 2, 8),
        Role::Leader => (2, 1, 10),
    };
    let armor = match archetype.armour {
        ArmourKind::None | ArmourKind::Light => 0,
        ArmourKind::Medium => 1,
        ArmourKind::Heavy => 2,
    };
    let mut unit = UnitDef {
        stats: stats([
            ("Class", t),
            ("STR", strength),
            ("DEX", dex),
            ("HP", hp + 2 * (t - 1)),
        ]),
        ..UnitDef::default()
    };
    if armor > 0 {
        unit.stats.insert("Armor".into(), armor);
    }
    if archetype.role == Role::Leader {
        unit.stats.insert("Leadership".into(), 2);
        unit.stats.insert("Morale".into(), 9);
        unit.traits.push("Leader".into());
    }
    unit.powers = match archetype.weapon {
        WeaponKind::Sword | WeaponKind::Spear => vec![table_weapon("One-handed")?],
        WeaponKind::GreatWeapon => vec![table_weapon("Two-handed")?],
        WeaponKind::Bow => vec![table_weapon("Bow")?, melee_power("Dagger", "1d4")],
        WeaponKind::Dagger => vec![melee_power("Daggers", "1d4")],
        WeaponKind::Staff => {
            let mut firebolt = ranged_power("Firebolt", 1, "1d6");
            firebolt.on_hit = vec![EffectDef {
                condition: "Burning".into(),
                lasts: EffectDuration::SaveEnds,
            }];
            vec![firebolt, melee_power("Staff", "1d4")]
        }
    };
    Ok(unit)
}
