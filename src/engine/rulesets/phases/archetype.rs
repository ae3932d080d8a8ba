//! How `phases` realizes a portable archetype ([`crate::engine::archetype`]): the
//! table in `docs/archetypes.md`, from the shipped `phases` units (`assets/units/`:
//! the knight, archer, goblin, ogre and shaman).
//!
//! - Role: INT and AGI (initiative), ATK at tier 1, and a DEF adjustment:
//!   line infantry INT 1 AGI 1 ATK 2; archer 1, 3, 2; skirmisher 1, 3, 2 (DEF +1,
//!   Speed 7, the `Slip` movement power); brute −1, 0, 3 (DEF −1, HP 12 × Tier,
//!   Speed 5); caster 3, 0, 1; leader 2, 1, 3.
//! - Tier: the `Tier` stat (HP is 10 × Tier unless the role says otherwise) and
//!   ATK + (Tier − 1).
//! - Armour: DEF 10 + 0, 1, 2 or 3 (none, light, medium, heavy).
//! - Weapon: sword `Sword` 1d8; spear `Spear` 1d6 that leaves its target Slowed;
//!   dagger `Daggers` 1d4; bow `Bow` 1d8 at 10 squares and a `Dagger` 1d4; staff
//!   `Bolt` 1d6 at 6 squares (no Tier added) and a `Staff` 1d4; great weapon
//!   `Great Weapon` 1d10.

use crate::engine::archetype::{Archetype, Role, WeaponKind, melee_power, ranged_power, stats};
use crate::engine::spec::{EffectDef, EffectDuration, UnitDef};

/// The unit `phases` makes of `archetype` at `tier`.
pub fn realize(archetype: &Archetype, tier: u32) -> Result<UnitDef, String> {
    let t = i32::try_from(tier).map_err(|_| format!("tier {tier} is out of range"))?;
    let (int, agi, atk, def) = match archetype.role {
        Role::LineInfantry => (1, 1, 2, 0),
        Role::Archer => (1, 3, 2, 0),
        Role::Skirmisher => (1, 3, 2, 1),
        Role::Brute => (-1, 0, 3, -1),
        Role::Caster => (3, 0, 1, 0),
        Role::Leader => (2, 1, 3, 0),
    };
    let mut unit = UnitDef {
        stats: stats([
            ("INT", int),
            ("AGI", agi),
            ("ATK", atk + t - 1),
            ("DEF", 10 + archetype.armour.weight() + def),
            ("Tier", t),
        ]),
        ..UnitDef::default()
    };
    match archetype.role {
        Role::Skirmisher => {
            unit.stats.insert("Speed".into(), 7);
            unit.movement = vec!["Slip".into()];
        }
        Role::Brute => {
            unit.stats.insert("HP".into(), 12 * t);
            unit.stats.insert("Speed".into(), 5);
        }
        _ => {}
    }
    unit.powers = match archetype.weapon {
        WeaponKind::Sword => vec![melee_power("Sword", "1d8")],
        WeaponKind::Spear => {
            let mut spear = melee_power("Spear", "1d6");
            spear.on_hit = vec![EffectDef {
                condition: "Slowed".into(),
                lasts: EffectDuration::SaveEnds,
            }];
            vec![spear]
        }
        WeaponKind::Dagger => vec![melee_power("Daggers", "1d4")],
        WeaponKind::Bow => vec![ranged_power("Bow", 10, "1d8"), melee_power("Dagger", "1d4")],
        WeaponKind::Staff => {
            let mut bolt = ranged_power("Bolt", 6, "1d6");
            bolt.add_tier = false;
            vec![bolt, melee_power("Staff", "1d4")]
        }
        WeaponKind::GreatWeapon => vec![melee_power("Great Weapon", "1d10")],
    };
    Ok(unit)
}
