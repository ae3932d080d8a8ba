//! A ruleset's own state, held by the battle as one cloneable value.
//!
//! Besides the engine's components and resources (units, positions, health,
//! conditions, the log, whose turn it is …), each ruleset keeps bookkeeping of its
//! own: where its round is, what each unit has spent this turn, its configuration.
//! It keeps all of it in one value of its own type — any `Clone + Debug + Send +
//! Sync + 'static` type, per-unit data indexed by [`crate::engine::units::UnitId`]
//! (not by `Entity`: a battle and its fork have different entities) — which the
//! battle holds, type-erased, in the [`RulesetData`] resource. The ruleset puts it
//! there at setup ([`insert`]) and reads and changes it through [`state`] and
//! [`state_mut`].
//!
//! So the core copies a ruleset's state without knowing its type:
//! [`crate::engine::fork::restore`] clones this one resource along with the
//! engine's own types, and a fork plays on from exactly its source's state.
//!
//! ```
//! use bevy_ecs::world::World;
//! use skirmish::engine::ruleset::state::{RulesetData, insert, state, state_mut};
//!
//! #[derive(Clone, Debug, Default)]
//! struct Mine { round: u32, spent: Vec<bool> }
//!
//! let mut world = World::new();
//! insert(&mut world, Mine { round: 1, spent: vec![false; 3] });
//! state_mut::<Mine>(&mut world).spent[2] = true;
//! let copy = world.resource::<RulesetData>().clone();
//! state_mut::<Mine>(&mut world).round = 2;
//! let mut other = World::new();
//! other.insert_resource(copy);
//! assert_eq!(state::<Mine>(&other).round, 1);
//! assert!(state::<Mine>(&other).spent[2]);
//! ```

use std::any::{Any, type_name};
use std::fmt::Debug;

use bevy_ecs::resource::Resource;
use bevy_ecs::world::World;

/// A ruleset's state as the core sees it: something it can clone and hand back to
/// the ruleset as its own type. Implemented for every `Clone + Debug + Send + Sync
/// + 'static` type.
pub trait RulesetState: Any + Debug + Send + Sync {
    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn RulesetState>;
    /// Makes `to` a copy of this state, reusing its allocations when it holds the
    /// same type.
    fn clone_into_box(&self, to: &mut Box<dyn RulesetState>);
    /// As [`Any`], to downcast to the ruleset's type.
    fn as_any(&self) -> &dyn Any;
    /// As mutable [`Any`], to downcast to the ruleset's type.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Any + Clone + Debug + Send + Sync> RulesetState for T {
    fn clone_box(&self) -> Box<dyn RulesetState> {
        Box::new(self.clone())
    }

    fn clone_into_box(&self, to: &mut Box<dyn RulesetState>) {
        match to.as_any_mut().downcast_mut::<T>() {
            Some(t) => t.clone_from(self),
            None => *to = self.clone_box(),
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// The resource holding the battle's ruleset state (see the [module](self)).
#[derive(Resource, Debug)]
pub struct RulesetData(Box<dyn RulesetState>);

impl RulesetData {
    /// Holds `state`.
    pub fn new<S: RulesetState>(state: S) -> Self {
        RulesetData(Box::new(state))
    }

    /// The state as type `S`, or `None` if it is of another type.
    pub fn get<S: 'static>(&self) -> Option<&S> {
        (*self.0).as_any().downcast_ref::<S>()
    }

    /// The state as mutable type `S`, or `None` if it is of another type.
    pub fn get_mut<S: 'static>(&mut self) -> Option<&mut S> {
        (*self.0).as_any_mut().downcast_mut::<S>()
    }
}

impl Clone for RulesetData {
    fn clone(&self) -> Self {
        RulesetData((*self.0).clone_box())
    }

    fn clone_from(&mut self, source: &Self) {
        (*source.0).clone_into_box(&mut self.0);
    }
}

/// Makes `state` the battle's ruleset state (a ruleset's setup calls this).
pub fn insert<S: RulesetState>(world: &mut World, state: S) {
    world.insert_resource(RulesetData::new(state));
}

/// The battle's ruleset state as type `S`, if it holds one of that type.
pub fn try_state<S: 'static>(world: &World) -> Option<&S> {
    world.get_resource::<RulesetData>()?.get::<S>()
}

/// The battle's ruleset state as type `S`.
///
/// # Panics
/// If the battle holds none of type `S`: a ruleset reading a state its setup did
/// not insert is a programming error, as reading a missing resource is.
pub fn state<S: 'static>(world: &World) -> &S {
    try_state::<S>(world).unwrap_or_else(|| missing::<S>())
}

/// The battle's ruleset state as mutable type `S`.
///
/// # Panics
/// As [`state`].
pub fn state_mut<S: 'static>(world: &mut World) -> &mut S {
    world
        .get_resource_mut::<RulesetData>()
        .and_then(|d| d.into_inner().get_mut::<S>())
        .unwrap_or_else(|| missing::<S>())
}

fn missing<S>() -> ! {
    panic!(
        "the battle holds no ruleset state of type {} (its ruleset's setup inserts it)",
        type_name::<S>()
    )
}
