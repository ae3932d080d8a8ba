//! `escalation`'s action economy (E-21, E-22, E-24, E-GAP-20): each turn a unit has
//! one Quick, one Move and one Standard action; a better action may stand in for a
//! lesser one (Standard for Move or Quick, Move for Quick); off its turn it has one
//! Interrupt a round. Spending takes the action itself when it is left, else the
//! least better one that can stand in, so nothing better is spent than needed.

use serde::{Deserialize, Serialize};

/// The kinds of action, lesser first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ActionKind {
    /// A Quick action (stance switch, E-09).
    Quick,
    /// A Move action (moving, Disengage, E-37).
    Move,
    /// A Standard action (an attack, Rally, E-43).
    Standard,
}

impl ActionKind {
    /// The kinds that may pay for this one, the action itself first (E-22, E-GAP-20).
    pub fn payers(self) -> &'static [ActionKind] {
        match self {
            ActionKind::Quick => &[ActionKind::Quick, ActionKind::Move, ActionKind::Standard],
            ActionKind::Move => &[ActionKind::Move, ActionKind::Standard],
            ActionKind::Standard => &[ActionKind::Standard],
        }
    }

    /// The name players know it by.
    pub fn name(self) -> &'static str {
        match self {
            ActionKind::Quick => "Quick",
            ActionKind::Move => "Move",
            ActionKind::Standard => "Standard",
        }
    }
}

/// The actions a unit has left this turn, and whether its Interrupt is spent this
/// round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Actions {
    /// Quick action left.
    pub quick: bool,
    /// Move action left.
    pub moves: bool,
    /// Standard action left.
    pub standard: bool,
    /// Interrupt left this round (E-24).
    pub interrupt: bool,
}

impl Default for Actions {
    fn default() -> Self {
        Self::fresh()
    }
}

impl Actions {
    /// A turn's actions, all left (E-21), with the Interrupt.
    pub fn fresh() -> Self {
        Self {
            quick: true,
            moves: true,
            standard: true,
            interrupt: true,
        }
    }

    fn slot(&mut self, kind: ActionKind) -> &mut bool {
        match kind {
            ActionKind::Quick => &mut self.quick,
            ActionKind::Move => &mut self.moves,
            ActionKind::Standard => &mut self.standard,
        }
    }

    /// The action that would pay for `kind` now, if any.
    pub fn payer(&self, kind: ActionKind) -> Option<ActionKind> {
        let mut me = *self;
        kind.payers().iter().copied().find(|&p| *me.slot(p))
    }

    /// Spends what pays for `kind`; returns which action paid, or `None` (nothing
    /// spent) when none can.
    pub fn spend(&mut self, kind: ActionKind) -> Option<ActionKind> {
        let payer = self.payer(kind)?;
        *self.slot(payer) = false;
        Some(payer)
    }

    /// A new turn: the three actions back; the Interrupt is the round's (E-24).
    pub fn new_turn(&mut self) {
        self.quick = true;
        self.moves = true;
        self.standard = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ActionKind::*;

    /// E-21 / E-22 / E-GAP-20: a turn has one of each; a Standard stands in for a
    /// Move or a Quick, a Move for a Quick, never the other way; the lesser payer
    /// goes first.
    #[test]
    fn e_21_e_22_e_gap_20_substitution() {
        let mut a = Actions::fresh();
        assert_eq!(a.spend(Move), Some(Move));
        assert_eq!(a.spend(Move), Some(Standard), "E-22: Standard as Move");
        assert_eq!(a.spend(Standard), None, "nothing better than Standard");
        assert_eq!(a.spend(Quick), Some(Quick));
        assert_eq!(a.spend(Quick), None);

        let mut b = Actions::fresh();
        b.spend(Quick);
        assert_eq!(b.spend(Quick), Some(Move), "E-22: Move as Quick");
        assert_eq!(
            b.spend(Quick),
            Some(Standard),
            "E-GAP-20: Standard as Quick"
        );
    }

    /// E-24: the Interrupt is once a round, not refreshed by a new turn.
    #[test]
    fn e_24_interrupt_once_a_round() {
        let mut a = Actions::fresh();
        a.interrupt = false;
        a.spend(Standard);
        a.new_turn();
        assert!(a.standard && !a.interrupt);
    }
}
