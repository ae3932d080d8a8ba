//! Movement step by step (RULES.md X-05): a [`Walk`] hands out one step of a checked
//! path at a time and, before the mover leaves a cell, asks the ruleset who that
//! triggers. The ruleset resolves what it triggers its own way — `phases` rolls its
//! opportunity attacks at once, `flow` asks each threatener for a Reaction Attack and
//! waits for the answer — and then asks the walk for the next step.
//!
//! A walk is plain data, so a ruleset can keep it on its own stack while a decision
//! is pending and resume it later: nothing is lost between two calls.
//!
//! ```
//! use skirmish::engine::board::Cell;
//! use skirmish::engine::units::UnitId;
//! use skirmish::engine::walk::{Step, Walk};
//!
//! let (a, b) = (Cell::new(0, 0), Cell::new(1, 0));
//! let mut walk = Walk::new(vec![b], true);
//! // Leaving `a` is watched by unit 7: the ruleset resolves that first...
//! assert_eq!(
//!     walk.next(a, |_| vec![UnitId(7)]),
//!     Step::Triggered { from: a, to: b, by: vec![UnitId(7)] }
//! );
//! // ...then the mover steps. A threatener is asked once per move.
//! assert_eq!(walk.next(a, |_| vec![UnitId(7)]), Step::Enter { from: a, to: b });
//! assert_eq!(walk.next(b, |_| vec![UnitId(7)]), Step::Done);
//! ```

use std::collections::VecDeque;

use crate::engine::board::Cell;
use crate::engine::units::UnitId;

/// A move in progress along a checked path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walk {
    /// Cells still to enter, in order.
    pub path: VecDeque<Cell>,
    /// Whether leaving a watched cell triggers anything (false for a shift, a
    /// disengage or a forced move).
    pub provokes: bool,
    /// Units already triggered during this move: each is asked once per move.
    pub triggered: Vec<UnitId>,
    /// Whether the cell the mover is about to leave has been dealt with.
    pub asked_here: bool,
}

/// What the mover does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Leaving `from` for `to` triggers these units (not triggered before during this
    /// move), in the order the ruleset gave them. Resolve them, then call
    /// [`Walk::next`] again: the mover then steps.
    Triggered {
        /// The cell being left.
        from: Cell,
        /// The cell the mover is about to enter.
        to: Cell,
        /// The units it triggers.
        by: Vec<UnitId>,
    },
    /// The mover enters `to`; the ruleset emits the move.
    Enter {
        /// The cell left.
        from: Cell,
        /// The cell entered.
        to: Cell,
    },
    /// The path is walked.
    Done,
}

impl Walk {
    /// A walk along `path` (start excluded); `provokes` says whether leaving a watched
    /// cell triggers anything.
    pub fn new(path: impl Into<VecDeque<Cell>>, provokes: bool) -> Self {
        Self {
            path: path.into(),
            provokes,
            triggered: Vec::new(),
            asked_here: false,
        }
    }

    /// Whether no step is left.
    pub fn is_done(&self) -> bool {
        self.path.is_empty()
    }

    /// The next step for a mover standing on `from`. `watchers(from)` names the units
    /// that leaving `from` would trigger (the ruleset's threat: reach, free-hit zone,
    /// readied action); it is asked once per cell, and only units not triggered
    /// earlier in this move are returned.
    pub fn next(&mut self, from: Cell, watchers: impl FnOnce(Cell) -> Vec<UnitId>) -> Step {
        let Some(&to) = self.path.front() else {
            return Step::Done;
        };
        if self.provokes && !self.asked_here {
            self.asked_here = true;
            let fresh: Vec<UnitId> = watchers(from)
                .into_iter()
                .filter(|u| !self.triggered.contains(u))
                .collect();
            self.triggered.extend(fresh.iter().copied());
            if !fresh.is_empty() {
                return Step::Triggered {
                    from,
                    to,
                    by: fresh,
                };
            }
        }
        self.path.pop_front();
        self.asked_here = false;
        Step::Enter { from, to }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(x: i32) -> Cell {
        Cell::new(x, 0)
    }

    /// X-05: each watcher is triggered once per move, before the mover leaves the
    /// cell it watches, and a walk that does not provoke triggers nobody.
    #[test]
    fn x05_triggers_once_per_move_before_leaving() {
        let mut walk = Walk::new(vec![c(1), c(2), c(3)], true);
        let watch = |cell: Cell| match cell.x {
            0 => vec![UnitId(1)],
            1 => vec![UnitId(1), UnitId(2)],
            _ => vec![],
        };
        let mut seen = Vec::new();
        let mut at = c(0);
        loop {
            match walk.next(at, watch) {
                Step::Triggered { from, by, .. } => seen.push((from.x, by)),
                Step::Enter { from, to } => {
                    assert_eq!(from, at);
                    at = to;
                }
                Step::Done => break,
            }
        }
        assert_eq!(at, c(3));
        assert_eq!(seen, vec![(0, vec![UnitId(1)]), (1, vec![UnitId(2)])]);

        let mut quiet = Walk::new(vec![c(1)], false);
        assert_eq!(
            quiet.next(c(0), watch),
            Step::Enter {
                from: c(0),
                to: c(1)
            }
        );
        assert!(quiet.is_done());
        assert_eq!(quiet.next(c(1), watch), Step::Done);
    }

    /// X-05: a walk is resumable data: a copy taken while a reaction is pending goes on
    /// exactly where the original would.
    #[test]
    fn x05_walk_resumes_from_a_copy() {
        let mut walk = Walk::new(vec![c(1), c(2)], true);
        let watch = |_: Cell| vec![UnitId(4)];
        assert!(matches!(walk.next(c(0), watch), Step::Triggered { .. }));
        let mut copy = walk.clone();
        assert_eq!(copy.next(c(0), watch), walk.next(c(0), watch));
        assert_eq!(copy, walk);
    }
}
