//! `actfast`'s own narration events ([`ActfastEvent`]): each PC's choice for the
//! round and why, the round's steps, actions spent, ripostes, morale (what set it
//! off, who breaks, who flees or surrenders) and units that can't act. Pools and
//! damage dice are told by the core's [`crate::engine::event::Event::Rolled`];
//! state changes go through core events.

use serde::Serialize;

use crate::engine::event::Narration;
use crate::engine::log::Names;
use crate::engine::units::{SideId, UnitId};

/// Something only `actfast` narrates; its JSON is `{"Variant": {...}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ActfastEvent {
    /// A PC chose how it acts this round, with the case for that choice.
    PaceChosen {
        /// The PC.
        unit: UnitId,
        /// "Act Fast" or "Act Well".
        pace: String,
        /// Why it is a good choice now, in words.
        why: String,
    },
    /// The round's order, step by step: each step's name and its units with
    /// their actions.
    Steps {
        /// `("1. Act Fast", [(Ann, 1)])` …
        steps: Vec<(String, Vec<(UnitId, u32)>)>,
    },
    /// A unit spent an action (A-GAP-02).
    Spent {
        /// The unit.
        unit: UnitId,
        /// What for ("attack", "move", "stand up").
        what: String,
        /// Actions left this turn.
        left: u32,
    },
    /// A unit ripostes a failed melee attack with its reaction (A-06, A-GAP-09).
    Riposte {
        /// Who ripostes.
        unit: UnitId,
        /// At whom.
        against: UnitId,
    },
    /// A unit asked whether it ripostes keeps its reaction (A-06, A-GAP-09).
    NoRiposte {
        /// Who could have riposted.
        unit: UnitId,
        /// Whose failed attack it lets pass.
        against: UnitId,
    },
    /// A PC lets the next PC of its step act first (A-GAP-10).
    Waited {
        /// Who waits.
        unit: UnitId,
        /// Who goes first.
        after: UnitId,
    },
    /// A side must roll morale at its next step (A-17, A-GAP-13).
    MoraleShaken {
        /// The side.
        side: SideId,
        /// Why: "its first NPC was killed" …
        why: String,
    },
    /// An NPC's morale broke: it flees or surrenders.
    Broke {
        /// The NPC.
        unit: UnitId,
        /// What it does, in words: "it runs for the edge of the field".
        how: String,
    },
    /// A unit made Slow after the round's order was set acts last: its turn moves
    /// to step 4.
    ActsLast {
        /// The unit.
        unit: UnitId,
    },
    /// A unit can't act this turn, and why (Stunned, A-23).
    CannotAct {
        /// The unit.
        unit: UnitId,
        /// Why.
        why: String,
    },
}

impl Narration for ActfastEvent {
    fn text(&self, names: &Names<'_>) -> String {
        let n = |u: &UnitId| names.unit(*u);
        match self {
            ActfastEvent::PaceChosen { unit, pace, why } => {
                format!("{} will {pace}: {why}", n(unit))
            }
            ActfastEvent::Steps { steps } => {
                let parts: Vec<String> = steps
                    .iter()
                    .filter(|(_, units)| !units.is_empty())
                    .map(|(step, units)| {
                        let who: Vec<String> = units
                            .iter()
                            .map(|(u, a)| {
                                format!("{} ({a} action{})", n(u), if *a == 1 { "" } else { "s" })
                            })
                            .collect();
                        format!("{step}: {}", who.join(", "))
                    })
                    .collect();
                format!("This round: {}", parts.join("; "))
            }
            ActfastEvent::Spent { unit, what, left } => {
                format!("{} spends an action: {what} ({left} left)", n(unit))
            }
            ActfastEvent::Riposte { unit, against } => {
                format!(
                    "{} ripostes {}'s failed attack (its reaction this round)",
                    n(unit),
                    n(against)
                )
            }
            ActfastEvent::NoRiposte { unit, against } => format!(
                "{} lets {}'s failed attack pass and keeps its reaction",
                n(unit),
                n(against)
            ),
            ActfastEvent::Waited { unit, after } => {
                format!("{} waits: {} acts first", n(unit), n(after))
            }
            ActfastEvent::MoraleShaken { side, why } => format!(
                "Morale shaken on side {} ({why}): each of its NPCs rolls morale at its next \
                 step (A-17)",
                names.side(*side)
            ),
            ActfastEvent::Broke { unit, how } => format!("{}'s morale breaks: {how}", n(unit)),
            ActfastEvent::CannotAct { unit, why } => format!("{} can't act: {why}", n(unit)),
            ActfastEvent::ActsLast { unit } => format!(
                "{} is Slow: it acts last this round, in step 4 (A-22)",
                n(unit)
            ),
        }
    }

    fn units(&self) -> Vec<UnitId> {
        match self {
            ActfastEvent::Steps { steps } => steps
                .iter()
                .flat_map(|(_, us)| us.iter().map(|&(u, _)| u))
                .collect(),
            ActfastEvent::MoraleShaken { .. } => Vec::new(),
            ActfastEvent::PaceChosen { unit, .. }
            | ActfastEvent::Spent { unit, .. }
            | ActfastEvent::Broke { unit, .. }
            | ActfastEvent::CannotAct { unit, .. }
            | ActfastEvent::ActsLast { unit } => vec![*unit],
            ActfastEvent::Riposte { unit, against } => vec![*unit, *against],
            ActfastEvent::Waited { unit, after } => vec![*unit, *after],
            ActfastEvent::NoRiposte { unit, against } => vec![*unit, *against],
        }
    }
}
