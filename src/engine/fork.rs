//! Forking a battle: an independent copy of a [`crate::engine::battle::Battle`]'s
//! state with other dice, for look-ahead (the `hard` AI plays candidate commands out
//! in forks).
//!
//! A Bevy `World` can't be cloned (its schedules hold systems), so a fork is a fresh
//! battle world with the same ruleset's schedule into which the state is copied, type
//! by type: the engine's own components and resources, and the ruleset's own state,
//! which a ruleset keeps in one cloneable value the battle holds
//! ([`crate::engine::ruleset::state::RulesetData`]) — so the core copies every
//! ruleset's state without knowing its type, and a ruleset has nothing to list.
//! [`restore`] does the copy into an existing battle of the same ruleset (insert
//! what the source has, remove what it hasn't), so a searcher can reuse one scratch
//! battle for many play-outs instead of building a schedule each time.
//!
//! A ruleset storing its own component or resource type outside its state would
//! not be copied; the suite's fork tests check that a fork holds the same component
//! and resource types as its source on every shipped level, and that a fork and its
//! source, given the same dice and commands, write the same log.

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_ecs::resource::Resource;
use bevy_ecs::world::World;

use crate::engine::battle::{
    ActiveRuleset, EventLog, Fault, Incoming, Map, Pending, Progress, Roster, Sides, TurnState,
    VictoryRule,
};
use crate::engine::conditions::{ConditionWords, StackingRules};
use crate::engine::ruleset::state::RulesetData;
use crate::engine::units::*;

/// Copies resource `T` from `from` to `to`: inserted (overwriting) when `from` has
/// it, removed from `to` when it hasn't.
pub fn copy_resource<T: Resource + Clone>(from: &World, to: &mut World) {
    match from.get_resource::<T>() {
        Some(r) => to.insert_resource(r.clone()),
        None => {
            to.remove_resource::<T>();
        }
    }
}

/// Copies component `T` of each unit from its entity in `from` to its entity in `to`
/// (`units`: pairs of source and target entities, in roster order): inserted when the
/// source has it, removed from the target when it hasn't.
pub fn copy_component<T: Component + Clone>(
    from: &World,
    to: &mut World,
    units: &[(Entity, Entity)],
) {
    for &(src, dst) in units {
        match from.get::<T>(src) {
            Some(c) => {
                to.entity_mut(dst).insert(c.clone());
            }
            None => {
                to.entity_mut(dst).remove::<T>();
            }
        }
    }
}

/// Makes `to` (a battle world of the same ruleset as `from`) hold `from`'s state:
/// units (matched by roster index; `to`'s roster is respawned if its length
/// differs), the engine's components and resources, then the ruleset's own. The dice
/// are not copied: the caller gives the copy its own.
pub fn restore(from: &World, to: &mut World) {
    let src: Vec<Entity> = from.resource::<Roster>().0.clone();
    let mut dst: Vec<Entity> = to
        .get_resource::<Roster>()
        .map(|r| r.0.clone())
        .unwrap_or_default();
    if dst.len() != src.len() {
        for e in dst.drain(..) {
            to.despawn(e);
        }
        dst = src.iter().map(|_| to.spawn_empty().id()).collect();
    }
    let units: Vec<(Entity, Entity)> = src.iter().copied().zip(dst.iter().copied()).collect();
    to.insert_resource(Roster(dst));
    copy_resource::<Sides>(from, to);
    copy_resource::<Map>(from, to);
    copy_resource::<EventLog>(from, to);
    copy_resource::<TurnState>(from, to);
    copy_resource::<Pending>(from, to);
    copy_resource::<Incoming>(from, to);
    copy_resource::<Progress>(from, to);
    copy_resource::<Fault>(from, to);
    copy_resource::<VictoryRule>(from, to);
    copy_resource::<ActiveRuleset>(from, to);
    copy_resource::<StackingRules>(from, to);
    copy_resource::<ConditionWords>(from, to);
    copy_resource::<DyingCountsForVictory>(from, to);
    copy_resource::<GroundItems>(from, to);
    copy_component::<UnitId>(from, to, &units);
    copy_component::<Unit>(from, to, &units);
    copy_component::<Position>(from, to, &units);
    copy_component::<Stats>(from, to, &units);
    copy_component::<Health>(from, to, &units);
    copy_component::<PlayState>(from, to, &units);
    copy_component::<Conditions>(from, to, &units);
    copy_component::<Reach>(from, to, &units);
    copy_component::<ActionPool>(from, to, &units);
    copy_component::<Skills>(from, to, &units);
    copy_component::<BodySize>(from, to, &units);
    copy_component::<Armor>(from, to, &units);
    copy_component::<Equipment>(from, to, &units);
    copy_component::<Powers>(from, to, &units);
    copy_component::<MovementPowers>(from, to, &units);
    copy_component::<Items>(from, to, &units);
    copy_component::<Initiative>(from, to, &units);
    match (
        from.get_resource::<RulesetData>(),
        to.get_resource_mut::<RulesetData>(),
    ) {
        (Some(src), Some(mut dst)) => dst.clone_from(src),
        _ => copy_resource::<RulesetData>(from, to),
    }
}

/// The names of the component types on `world`'s units and of its resources, sorted
/// (for the fork tests: a fork must hold the same ones as its source).
pub fn type_names(world: &World) -> (Vec<String>, Vec<String>) {
    let mut components: Vec<String> = world
        .resource::<Roster>()
        .0
        .iter()
        .filter_map(|&e| world.get_entity(e).ok())
        .flat_map(|e| {
            e.archetype()
                .components()
                .iter()
                .filter_map(|&id| world.components().get_info(id))
                .map(|i| i.name().to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    components.sort();
    components.dedup();
    let mut resources: Vec<String> = world
        .iter_resources()
        .map(|(i, _)| i.name().to_string())
        .collect();
    resources.sort();
    resources.dedup();
    (components, resources)
}
