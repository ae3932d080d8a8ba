//! Turn order within a round (RULES.md X-07): a [`TurnQueue`] is the round's order of
//! activation slots and how far the round has got. The schedulers of the five
//! rulesets differ in how they build the order — rolled and sorted (`flow`), two
//! passes in opposite directions (`phases`), bands with the players first
//! (`escalation`), fixed with the initiator last (`wounds`), side steps (`actfast`)
//! — but all of them then walk it the same way, skip units out of play, and let a
//! Ready or a Delay move a unit's slot. That part lives here.
//!
//! ```
//! use skirmish::engine::schedule::TurnQueue;
//! use skirmish::engine::units::UnitId;
//!
//! let [a, b, c] = [UnitId(0), UnitId(1), UnitId(2)];
//! let mut q = TurnQueue::new(vec![a, b, c]);
//! assert_eq!(q.next_where(|_| true), Some(a));
//! // `c` readied against `b`: it acts just before it (F-37, E-20).
//! q.move_before(c, b);
//! assert_eq!(q.order(), &[a, c, b]);
//! assert_eq!(q.next_where(|u| u != c), Some(b)); // `c` is out of play: skipped
//! assert_eq!(q.next_where(|_| true), None); // the round is over
//! ```

use serde::Serialize;

use crate::engine::units::UnitId;

/// A round's order of activation and the slot it has reached.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TurnQueue {
    order: Vec<UnitId>,
    next: usize,
}

impl TurnQueue {
    /// A round that starts with the first unit of `order`.
    pub fn new(order: Vec<UnitId>) -> Self {
        Self { order, next: 0 }
    }

    /// The whole order, the units that already acted included.
    pub fn order(&self) -> &[UnitId] {
        &self.order
    }

    /// Starts the order over for a new round, every slot still to come.
    pub fn restart(&mut self) {
        self.next = 0;
    }

    /// The units still to act, in order.
    pub fn remaining(&self) -> &[UnitId] {
        &self.order[self.next.min(self.order.len())..]
    }

    /// Takes the next slot whose unit passes `eligible` (active, not surprised …),
    /// passing over the others for this round; `None` when the round is over.
    pub fn next_where(&mut self, mut eligible: impl FnMut(UnitId) -> bool) -> Option<UnitId> {
        while let Some(&u) = self.order.get(self.next) {
            self.next += 1;
            if eligible(u) {
                return Some(u);
            }
        }
        None
    }

    /// Moves `unit` to just before `before` (a Ready that fires, F-37, E-20); to the
    /// end when `before` is not in the order. A unit moved in front of the current
    /// slot has had its turn for this round.
    pub fn move_before(&mut self, unit: UnitId, before: UnitId) {
        self.relocate(unit, |order| {
            order
                .iter()
                .position(|&u| u == before)
                .unwrap_or(order.len())
        });
    }

    /// Moves `unit`, which has not acted yet, to just after `after` (a Delay to a
    /// later slot, P-26, E-19, W- per-round Delay).
    pub fn move_after(&mut self, unit: UnitId, after: UnitId) {
        self.relocate(unit, |order| {
            order
                .iter()
                .position(|&u| u == after)
                .map_or(order.len(), |i| i + 1)
        });
    }

    /// Takes `unit` out of the order and puts it back at the index `at` gives for
    /// the order without it, keeping the current slot on the same unit.
    fn relocate(&mut self, unit: UnitId, at: impl FnOnce(&[UnitId]) -> usize) {
        let Some(from) = self.order.iter().position(|&u| u == unit) else {
            return;
        };
        self.order.remove(from);
        if from < self.next {
            self.next -= 1;
        }
        let at = at(&self.order);
        self.order.insert(at, unit);
        if at < self.next {
            self.next += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: u32) -> Vec<UnitId> {
        (0..n).map(UnitId).collect()
    }

    fn drain(q: &mut TurnQueue) -> Vec<u32> {
        std::iter::from_fn(|| q.next_where(|_| true))
            .map(|u| u.0)
            .collect()
    }

    /// X-07: the queue hands out every slot once, in order, skipping units that
    /// cannot act.
    #[test]
    fn x07_walks_the_order_once() {
        let mut q = TurnQueue::new(ids(4));
        assert_eq!(q.next_where(|u| u.0 != 0), Some(UnitId(1)));
        assert_eq!(q.remaining(), &[UnitId(2), UnitId(3)]);
        assert_eq!(drain(&mut q), vec![2, 3]);
        assert!(q.remaining().is_empty());
    }

    /// F-37 / E-20: a readied unit moved before a unit still to act acts first; moved
    /// before one that already acted, it has had its turn.
    #[test]
    fn f37_e20_ready_moves_the_slot() {
        let mut q = TurnQueue::new(ids(4));
        assert_eq!(q.next_where(|_| true), Some(UnitId(0)));
        q.move_before(UnitId(3), UnitId(2));
        assert_eq!(q.order(), &[UnitId(0), UnitId(1), UnitId(3), UnitId(2)]);
        assert_eq!(drain(&mut q), vec![1, 3, 2]);

        let mut q = TurnQueue::new(ids(3));
        q.next_where(|_| true);
        q.next_where(|_| true);
        q.move_before(UnitId(2), UnitId(0));
        assert_eq!(q.order(), &[UnitId(2), UnitId(0), UnitId(1)]);
        assert_eq!(drain(&mut q), Vec::<u32>::new());
    }

    /// P-26 / E-19: a delaying unit acts after the unit it waits for.
    #[test]
    fn p26_e19_delay_moves_later() {
        let mut q = TurnQueue::new(ids(4));
        assert_eq!(q.next_where(|_| true), Some(UnitId(0)));
        q.move_after(UnitId(1), UnitId(3));
        assert_eq!(drain(&mut q), vec![2, 3, 1]);
    }
}
