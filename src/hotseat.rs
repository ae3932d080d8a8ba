//! Hot-seat play: several people taking turns at one computer.
//!
//! [`HotSeat`] watches whose input the battle waits for. When it is a person other
//! than the one at the keys — the next side's turn, or a reaction decision that
//! interrupts another player's turn — it holds a [`Handoff`]: the window hides the
//! map and shows "pass the keys to …" until that player confirms. AI sides never
//! cause a hand-off, and with a single human side there is nobody to hand off to.
//!
//! Reactions are what could flood a hot-seat game with hand-offs; each side's
//! decision policy ([`DecisionPolicy`](crate::level::schema::DecisionPolicy): ask,
//! automatic or never, chosen in the pre-battle menu) decides whether the engine
//! asks that player at all.
//!
//! Nothing here renders, so hand-offs are tested headless.

use crate::engine::battle::{Awaiting, Battle, Sides, side_of};
use crate::engine::units::SideId;
use crate::level::schema::Controller;

/// Why the keys must change hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandoffReason {
    /// It is the side's turn.
    Turn,
    /// The side must answer a decision (a reaction, seizing the initiative, acting
    /// from a delay) during someone else's turn.
    Decision,
}

/// A pending hand-off: the map stays hidden until `side`'s player confirms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handoff {
    /// The side whose player must take the keys.
    pub side: SideId,
    /// Why.
    pub reason: HandoffReason,
}

/// Who is at the keys, and whether the keys must change hands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HotSeat {
    at_keys: Option<SideId>,
    pending: Option<Handoff>,
}

impl HotSeat {
    /// Nobody at the keys yet: the first human side to act gets a hand-off screen
    /// (in a hot-seat game).
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the battle has two or more human sides.
    pub fn is_hot_seat(battle: &Battle) -> bool {
        human_sides(battle) >= 2
    }

    /// Looks at what the battle waits for; call after every change. Opens a
    /// hand-off when a human side other than the one at the keys must act.
    pub fn update(&mut self, battle: &Battle) {
        if self.pending.is_some() {
            return;
        }
        let Some((side, reason)) = human_to_act(battle) else {
            return;
        };
        if human_sides(battle) < 2 {
            self.at_keys = Some(side);
            return;
        }
        if self.at_keys != Some(side) {
            self.pending = Some(Handoff { side, reason });
        }
    }

    /// The hand-off waiting for confirmation, if any.
    pub fn pending(&self) -> Option<Handoff> {
        self.pending
    }

    /// Whether the map may be shown (no hand-off is pending).
    pub fn map_visible(&self) -> bool {
        self.pending.is_none()
    }

    /// The side whose player is at the keys.
    pub fn at_keys(&self) -> Option<SideId> {
        self.at_keys
    }

    /// The player taking the keys confirms: the map shows again.
    pub fn confirm(&mut self) {
        if let Some(h) = self.pending.take() {
            self.at_keys = Some(h.side);
        }
    }
}

/// The human side the battle waits for, and why; `None` for AI sides and when the
/// battle is over.
fn human_to_act(battle: &Battle) -> Option<(SideId, HandoffReason)> {
    let (side, reason) = match battle.awaiting() {
        Awaiting::Unit(u, _) => (side_of(battle.world(), u), HandoffReason::Turn),
        Awaiting::Decision(d) => (d.side, HandoffReason::Decision),
        Awaiting::Over(_) => return None,
    };
    let sides = &battle.world().resource::<Sides>().0;
    (sides.get(side.0 as usize)?.controller == Controller::Human).then_some((side, reason))
}

fn human_sides(battle: &Battle) -> usize {
    battle
        .world()
        .resource::<Sides>()
        .0
        .iter()
        .filter(|s| s.controller == Controller::Human)
        .count()
}
