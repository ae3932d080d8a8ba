//! Items and healing, the same in every ruleset: using an item spends one use and is
//! logged; a healing item rolls its dice and restores that many hit points, never
//! above the maximum. What an item's other effects do (an attack, a cleanse) is the
//! ruleset's business.

use bevy_ecs::world::World;

use crate::engine::battle::{emit, entity};
use crate::engine::command::CommandError;
use crate::engine::dice::Dice;
use crate::engine::event::Event;
use crate::engine::odds::DiceExpr;
use crate::engine::spec::ItemDef;
use crate::engine::units::{Health, Items, UnitId};

/// Uses `unit`'s item called `name`: logs it with the uses left and returns the item,
/// or `None` when the unit carries no such item.
pub fn use_item(world: &mut World, unit: UnitId, name: &str) -> Option<ItemDef> {
    let item = world
        .get::<Items>(entity(world, unit))
        .and_then(|i| i.0.iter().find(|i| i.name == name).cloned())?;
    emit(
        world,
        Event::ItemUsed {
            unit,
            item: item.name.clone(),
            uses_left: item.uses.saturating_sub(1),
        },
    );
    Some(item)
}

/// Heals `unit` by a roll of `dice` (from the item or power called `source`, for the
/// message if the dice are bad), up to its maximum hit points; returns the hit
/// points restored.
pub fn heal(
    world: &mut World,
    unit: UnitId,
    dice: &str,
    source: &str,
) -> Result<i32, CommandError> {
    let expr: DiceExpr = dice
        .parse()
        .map_err(|e| CommandError::Forbidden(format!("item {source}: {e}")))?;
    let roll = expr.roll(&mut world.resource_mut::<Dice>())?;
    let h = world
        .get::<Health>(entity(world, unit))
        .copied()
        .unwrap_or(Health { hp: 0, max: 0 });
    let hp = (h.hp + roll.total.max(0) as i32).min(h.max);
    let amount = hp - h.hp;
    emit(
        world,
        Event::Healed {
            unit,
            faces: roll.faces.iter().map(|&(_, f)| f).collect(),
            amount,
            hp,
            // Items are used by the unit they heal.
            source: Some(unit),
        },
    );
    Ok(amount)
}
