//! Suspended work (RULES.md X-05, X-07 "a reaction interrupts the active slot"): when
//! the rules must stop in the middle of something — a move waiting for Reaction
//! Attacks, an attack waiting for a Dodge — the ruleset pushes a frame saying what is
//! left to do, raises the decision and returns; the battle runs again when the answer
//! comes and the ruleset advances the frame on top. Frames nest: a Reaction Attack
//! interrupts a move, a reaction to it interrupts the Reaction Attack.
//!
//! A frame is the ruleset's own type (`flow`'s `Frame`: a move holding its
//! [`crate::engine::walk::Walk`], a provocation, an attack, deferred work); the stack
//! is a field of the ruleset's state ([`crate::engine::ruleset::state`]), so a fork
//! copies it with the rest.
//!
//! ```
//! use skirmish::engine::stack::Stack;
//!
//! #[derive(Clone, Debug, PartialEq)]
//! enum Frame { Move(u32), Attack }
//!
//! let mut stack = Stack::<Frame>::default();
//! stack.push(Frame::Move(3));
//! stack.push(Frame::Attack); // an interrupt
//! assert_eq!(stack.top(), Some(Frame::Attack));
//! stack.pop();
//! if let Some(Frame::Move(left)) = stack.top_mut() {
//!     *left -= 1;
//! }
//! assert_eq!(stack.top(), Some(Frame::Move(2)));
//! ```

/// The frames of suspended work, innermost last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stack<F>(pub Vec<F>);

impl<F> Default for Stack<F> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<F: Clone> Stack<F> {
    /// Suspends `frame` on top of the others.
    pub fn push(&mut self, frame: F) {
        self.0.push(frame);
    }

    /// Drops the innermost frame and returns it.
    pub fn pop(&mut self) -> Option<F> {
        self.0.pop()
    }

    /// A copy of the innermost frame, to advance it.
    pub fn top(&self) -> Option<F> {
        self.0.last().cloned()
    }

    /// The innermost frame, to update it in place.
    pub fn top_mut(&mut self) -> Option<&mut F> {
        self.0.last_mut()
    }

    /// Whether nothing is suspended.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
