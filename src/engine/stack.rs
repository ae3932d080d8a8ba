//! Suspended work (RULES.md X-05, X-07 "a reaction interrupts the active slot"): when
//! the rules must stop in the middle of something — a move waiting for Reaction
//! Attacks, an attack waiting for a Dodge — the ruleset pushes a frame saying what is
//! left to do, raises the decision and returns; the battle runs again when the answer
//! comes and the ruleset advances the frame on top. Frames nest: a Reaction Attack
//! interrupts a move, a reaction to it interrupts the Reaction Attack.
//!
//! A frame is the ruleset's own type (`flow`'s `Frame`: a move holding its
//! [`crate::engine::walk::Walk`], a provocation, an attack, deferred work); the stack
//! is a resource any ruleset inserts at setup.
//!
//! ```
//! use bevy_ecs::world::World;
//! use skirmish::engine::stack::Stack;
//!
//! #[derive(Clone, Debug, PartialEq)]
//! enum Frame { Move(u32), Attack }
//!
//! let mut world = World::new();
//! world.insert_resource(Stack::<Frame>::default());
//! Stack::push(&mut world, Frame::Move(3));
//! Stack::push(&mut world, Frame::Attack); // an interrupt
//! assert_eq!(Stack::<Frame>::top(&world), Some(Frame::Attack));
//! Stack::<Frame>::pop(&mut world);
//! if let Some(Frame::Move(left)) = Stack::<Frame>::top_mut(&mut world).as_deref_mut() {
//!     *left -= 1;
//! }
//! assert_eq!(Stack::<Frame>::top(&world), Some(Frame::Move(2)));
//! ```

use bevy_ecs::prelude::*;

/// The frames of suspended work, innermost last.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct Stack<F: Send + Sync + 'static>(pub Vec<F>);

impl<F: Send + Sync + 'static> Default for Stack<F> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<F: Clone + Send + Sync + 'static> Stack<F> {
    /// Suspends `frame` on top of the others.
    pub fn push(world: &mut World, frame: F) {
        world.resource_mut::<Self>().0.push(frame);
    }

    /// Drops the innermost frame and returns it.
    pub fn pop(world: &mut World) -> Option<F> {
        world.resource_mut::<Self>().0.pop()
    }

    /// A copy of the innermost frame, to advance it.
    pub fn top(world: &World) -> Option<F> {
        world.resource::<Self>().0.last().cloned()
    }

    /// The innermost frame, to update it in place.
    pub fn top_mut(world: &mut World) -> Option<Mut<'_, F>> {
        let stack = world.resource_mut::<Self>();
        if stack.0.is_empty() {
            return None;
        }
        Some(stack.map_unchanged(|s| s.0.last_mut().expect("checked non-empty")))
    }

    /// Whether nothing is suspended.
    pub fn is_empty(world: &World) -> bool {
        world.resource::<Self>().0.is_empty()
    }
}
