//! Queries kept from one call to the next in a world read through `&World`.
//!
//! The rules read every unit at once in a few hot places (who stands where at each
//! step of a move, the enemies a move preview weighs). `World::try_query` builds a
//! new [`QueryState`] each time, matching it against every archetype of the world,
//! which cost more than the reading itself. A battle world holds one
//! [`CachedQuery`] resource per such query instead: the state is built on first use
//! and then only brought up to date with the archetypes created since
//! ([`QueryState::update_archetypes`]), so it finds the same entities in the same
//! order as a fresh one would.

use std::sync::{Mutex, PoisonError};

use bevy_ecs::query::{QueryState, ReadOnlyQueryData};
use bevy_ecs::resource::Resource;
use bevy_ecs::system::Query;
use bevy_ecs::world::{World, WorldId};

/// The remembered state of query `D` in the world that holds this resource (with
/// that world's id, so a state is never used on another world). Empty until the
/// first use finds `D`'s components registered.
#[derive(Resource)]
pub struct CachedQuery<D: ReadOnlyQueryData + 'static>(Mutex<Option<(WorldId, QueryState<D>)>>);

impl<D: ReadOnlyQueryData + 'static> Default for CachedQuery<D> {
    fn default() -> Self {
        CachedQuery(Mutex::new(None))
    }
}

/// Runs `read` on query `D` over `world`: with the world's [`CachedQuery<D>`] when it
/// has one, else with a query built for this call. `None` when some component of
/// `D` is not registered in the world yet (as `World::try_query`).
pub fn read<D, R>(world: &World, read: impl FnOnce(Query<'_, '_, D>) -> R) -> Option<R>
where
    D: ReadOnlyQueryData<ReadOnly = D> + 'static,
{
    let Some(cache) = world.get_resource::<CachedQuery<D>>() else {
        let state = QueryState::<D>::try_new(world)?;
        return Some(read(state.query_manual(world)));
    };
    let mut slot = cache.0.lock().unwrap_or_else(PoisonError::into_inner);
    match &mut *slot {
        Some((id, state)) if *id == world.id() => state.update_archetypes(world),
        _ => *slot = Some((world.id(), QueryState::<D>::try_new(world)?)),
    }
    let (_, state) = slot.as_ref()?;
    Some(read(state.query_manual(world)))
}
