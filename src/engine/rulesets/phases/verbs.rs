//! `phases`' Battle-Phase actions beyond attacking and using items — Defend (P-27),
//! Delay (P-26) and Disengage (P-28) — as the verbs it declares, and the typed
//! [`PhasesAction`] a [`Command::Act`] becomes at its boundary (the rules match on
//! the typed action; everything outside this folder sees verbs).

use bevy_ecs::world::World;

use super::pools::BATTLE_ACTION;
use crate::engine::battle::{Map, cell_of, name, occupancy_for};
use crate::engine::board::Cell;
use crate::engine::command::{Command, CommandError};
use crate::engine::units::UnitId;
use crate::engine::verb::{ArgKind, ArgSpec, ArgValue, Args, Cost, VerbSpec, find};

/// One battle action (the `phases` pool that Defend and Disengage spend).
const ONE_ACTION: Option<Cost> = Some(Cost::new(BATTLE_ACTION, 1));

/// The verbs `phases` declares, one per [`PhasesAction`], in the order of its
/// legal commands.
pub const VERBS: &[VerbSpec] = &[
    VerbSpec {
        key: Some('f'),
        cost: ONE_ACTION,
        ..VerbSpec::new(
            "Defend",
            "attacks against the unit are at a disadvantage until its next turn (P-27)",
            &["Defend"],
        )
    },
    VerbSpec {
        key: Some('l'),
        ..VerbSpec::new(
            "Delay",
            "hold the unit's turn; it may act before a later unit's turn (P-26)",
            &["Delay"],
        )
    },
    VerbSpec {
        key: Some('g'),
        cost: ONE_ACTION,
        args: &[ArgSpec::required("to", ArgKind::Cell)],
        ..VerbSpec::new(
            "Disengage",
            "move by the shortest way to `to`, up to 2 squares, without provoking \
             opportunity attacks (P-28)",
            &["Disengage to {to}", "Disengage"],
        )
    },
];

/// A `phases` verb as the rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhasesAction {
    /// Attacks against the unit are at a disadvantage until its next turn (P-27).
    Defend,
    /// The unit is held and may act before a later unit's turn (P-26).
    Delay,
    /// Shift to `to` by the shortest way without provoking (P-28).
    Disengage {
        /// The destination.
        to: Cell,
    },
}

impl PhasesAction {
    /// The verb it is declared as.
    pub fn verb(&self) -> &'static str {
        match self {
            PhasesAction::Defend => "Defend",
            PhasesAction::Delay => "Delay",
            PhasesAction::Disengage { .. } => "Disengage",
        }
    }

    /// Its arguments, in declared order.
    pub fn args(&self) -> Args {
        match self {
            PhasesAction::Defend | PhasesAction::Delay => Args::new(),
            PhasesAction::Disengage { to } => Args::new().with("to", ArgValue::Cell(*to)),
        }
    }

    /// The command of `unit` taking this action.
    pub fn by(self, unit: UnitId) -> Command {
        Command::Act {
            unit,
            verb: self.verb().into(),
            args: self.args(),
        }
    }

    /// The action a command takes, if it is a `phases` `Act` that fits its verb's
    /// declaration.
    pub fn of(command: &Command) -> Option<PhasesAction> {
        let Command::Act { verb, args, .. } = command else {
            return None;
        };
        find(VERBS, verb)?.check(args).ok()?;
        match verb.as_str() {
            "Defend" => Some(PhasesAction::Defend),
            "Delay" => Some(PhasesAction::Delay),
            "Disengage" => args.cell("to").map(|to| PhasesAction::Disengage { to }),
            _ => None,
        }
    }
}

/// The way `unit` disengages to `to`: the shortest path over the board as the unit
/// may pass (allies, not enemies), start excluded; a refusal naming the cells when
/// there is none.
pub fn disengage_path(world: &World, unit: UnitId, to: Cell) -> Result<Vec<Cell>, CommandError> {
    let board = &world.resource::<Map>().0;
    let from = cell_of(world, unit);
    if from == to {
        return Err(CommandError::PathBlocked(format!(
            "{} is already at {to}",
            name(world, unit)
        )));
    }
    if !board.contains(to) {
        return Err(CommandError::PathBlocked(format!("{to} is off the map")));
    }
    board
        .path(from, to, &occupancy_for(world, unit))
        .map(|(p, _)| p)
        .ok_or_else(|| CommandError::PathBlocked(format!("no way from {from} to {to}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_is_a_declared_verb_and_reads_back() {
        // P-26, P-27, P-28: each action goes out as an `Act` that fits its
        // declaration and comes back as the same action.
        let actions = [
            PhasesAction::Defend,
            PhasesAction::Delay,
            PhasesAction::Disengage {
                to: Cell::new(3, 4),
            },
        ];
        for action in actions {
            let command = action.by(UnitId(2));
            let spec = find(VERBS, action.verb()).expect("declared");
            assert_eq!(spec.normalize(action.args()).unwrap(), action.args());
            assert_eq!(PhasesAction::of(&command), Some(action));
        }
        assert_eq!(VERBS.len(), 3, "one verb per action");
        // A Disengage without its destination is no action.
        let bare = Command::Act {
            unit: UnitId(2),
            verb: "Disengage".into(),
            args: Args::new(),
        };
        assert_eq!(PhasesAction::of(&bare), None);
    }

    #[test]
    fn defend_and_disengage_cost_a_battle_action_and_delay_is_free() {
        // P-22, P-26: Defend and Disengage are the unit's battle action; Delay is not.
        let cost = |v: &str| find(VERBS, v).unwrap().cost;
        assert_eq!(cost("Defend"), ONE_ACTION);
        assert_eq!(cost("Disengage"), ONE_ACTION);
        assert_eq!(cost("Delay"), None);
        assert_eq!(ONE_ACTION.unwrap().to_string(), "1 battle action");
    }
}
