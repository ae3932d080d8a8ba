//! How `wounds` realizes a portable archetype ([`crate::engine::archetype`]): the
//! table in `docs/archetypes.md`, from the shipped `wounds` units
//! (`assets/units/wounds_*.ron`: swordsman, spearman, bowman, brute, mage).
//!
//! - Role: Agility, Accuracy and Strength at tier 1 (line infantry 1, 2, 2; archer
//!   3, 3, 0; skirmisher 3, 2, 0; brute 0, 2, 3; caster 1, 2, 0 with 8 MP; leader
//!   2, 3, 2 with Weapon focus in its weapon) and HP at tier 1 (20, 16, 12, 20, 14,
//!   18).
//! - Tier: Accuracy + (tier − 1), HP + 4 per tier above 1.
//! - Armour: the `Light armor`, `Medium armor` or `Heavy armor` trait (−1, −2, −3
//!   damage taken, W-GAP-03); none without.
//! - Weapon: from the ruleset's weapon table — sword `Longsword`, dagger `Dagger`,
//!   bow `Shortbow` and a `Dagger`, great weapon `Greataxe`; a spear is a `Spear`
//!   1d8 with the `Reach` trait; a staff casts `Firebolt` (2d6 at 10 squares, 2
//!   actions and 2 MP) and strikes with a `Staff` 1d6.

use crate::engine::archetype::{
    Archetype, ArmourKind, Role, WeaponKind, melee_power, ranged_power, stats,
};
use crate::engine::spec::{PowerDef, UnitDef};

/// A weapon of the ruleset's table (W-GAP-01), by name, with the table's damage
/// and range written out (the rules take them from the table anyway).
fn table_weapon(name: &str) -> Result<PowerDef, String> {
    let weapon = super::config::defaults()?
        .weapon(name)
        .ok_or_else(|| format!("the weapon table has no `{name}`"))?;
    let mut power = melee_power(name, &weapon.damage);
    if !weapon.melee {
        power.range = weapon.range;
        power.ranged = true;
    }
    Ok(power)
}

/// The unit `wounds` makes of `archetype` at `tier`.
pub fn realize(archetype: &Archetype, tier: u32) -> Result<UnitDef, String> {
    let t = i32::try_from(tier).map_err(|_| format!("tier {tier} is out of range"))?;
    let (agility, accuracy, strength, hp) = match archetype.role {
        Role::LineInfantry => (1, 2, 2, 20),
        Role::Archer => (3, 3, 0, 16),
        Role::Skirmisher => (3, 2, 0, 12),
        Role::Brute => (0, 2, 3, 20),
        Role::Caster => (1, 2, 0, 14),
        Role::Leader => (2, 3, 2, 18),
    };
    let mut unit = UnitDef {
        stats: stats([
            ("Agility", agility),
            ("Accuracy", accuracy + t - 1),
            ("Strength", strength),
            ("HP", hp + 4 * (t - 1)),
        ]),
        ..UnitDef::default()
    };
    unit.powers = match archetype.weapon {
        WeaponKind::Sword => vec![table_weapon("Longsword")?],
        WeaponKind::Spear => {
            unit.traits.push("Reach".into());
            vec![melee_power("Spear", "1d8")]
        }
        WeaponKind::Dagger => vec![table_weapon("Dagger")?],
        WeaponKind::Bow => vec![table_weapon("Shortbow")?, table_weapon("Dagger")?],
        WeaponKind::Staff => {
            let mut firebolt = ranged_power("Firebolt", 10, "2d6");
            // `wounds` reads a power's range alone: a ranged power is one that
            // reaches beyond 1 (as the shipped mage writes it).
            firebolt.ranged = false;
            firebolt.traits = vec!["Cast 2".into(), "MP 2".into()];
            vec![firebolt, melee_power("Staff", "1d6")]
        }
        WeaponKind::GreatWeapon => vec![table_weapon("Greataxe")?],
    };
    if archetype.role == Role::Caster {
        unit.stats.insert("MP".into(), 8);
    }
    if archetype.role == Role::Leader
        && let Some(weapon) = unit.powers.first()
    {
        let focus = format!("Weapon focus {}", weapon.name);
        unit.traits.push(focus);
    }
    match archetype.armour {
        ArmourKind::None => {}
        ArmourKind::Light => unit.traits.push("Light armor".into()),
        ArmourKind::Medium => unit.traits.push("Medium armor".into()),
        ArmourKind::Heavy => unit.traits.push("Heavy armor".into()),
    }
    Ok(unit)
}
