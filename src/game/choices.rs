//! What the player can do and means to do on the battle screen: [`UiState`] (the
//! pointer, the keyboard cursor, the selected mode, the message line, the choices
//! made for the ruleset's attack options) and
//! [`Choices`] (what the side that must act can do now, derived from the engine's
//! own legal-command list, so the window can never offer an illegal move), with the
//! pure helpers that group, label and submit commands.
//!
//! Data and helpers only: [`super::control`] keeps them up to date from input; the
//! overlays, the HUD, the unit card and the turn strip read them.

use std::collections::BTreeMap;

use bevy::prelude::*;

use super::Game;
use crate::engine::battle::{Awaiting, Sides};
use crate::engine::board::Cell;
use crate::engine::event::Stage;
use crate::engine::options::Chosen;
use crate::engine::ruleset::MovePreview;
use crate::engine::units::UnitId;
use crate::engine::{Battle, Command};
use crate::level::schema::Controller;

/// The player's current intent and pointer.
#[derive(Resource, Default, Debug)]
pub struct UiState {
    /// Cell under the mouse, or the keyboard cursor when it moved last.
    pub hovered: Option<Cell>,
    /// The keyboard cursor.
    pub cursor: Option<Cell>,
    /// Index of the selected mode (see [`Choices`]).
    pub power: usize,
    /// Feedback line: text and whether it is an error.
    pub message: Option<(String, bool)>,
    /// Log lines scrolled back from the newest.
    pub log_scroll: usize,
    /// Time until the AI's next command.
    pub ai_wait: f32,
    /// The choices made for the attack options the player chooses among (the C
    /// key and the chooser bar; see [`crate::engine::options`]).
    pub chosen: Chosen,
}

/// `cmd` with the choices the player has made, if it is an attack that can take
/// them ([`Chosen::apply`]).
pub fn with_choices(battle: &Battle, cmd: Command, ui: &UiState) -> Command {
    ui.chosen.apply(battle.rules(), battle.world(), cmd)
}

/// What the active unit can do now, derived from the engine's legal commands, so
/// it works the same for every ruleset.
///
/// Commands that go somewhere (moves, verbs with a destination such as `phases`'
/// Disengage) or at someone (attacks, targeted
/// special actions such as `flow`'s Feint or Shove, items used on an enemy) are
/// grouped into *modes*, one per movement power, weapon or action; Tab cycles them.
/// The selected mode decides what a click on the map does: a move mode shows its
/// reachable cells (plus the first weapon's targets), a target mode rings its
/// targets (plus the first movement power's cells). Everything else (Defend,
/// Delay, items, `flow`'s Total Defense, Draw, Ready ...) is a numbered action.
#[derive(Resource, Default, Debug)]
pub struct Choices {
    /// The battle version and selected mode these were computed for.
    pub key: (u64, usize),
    /// The unit whose turn it is.
    pub unit: Option<UnitId>,
    /// The stage of its turn.
    pub stage: Option<Stage>,
    /// Every mode, in the order the engine lists their commands.
    pub powers: Vec<Mode>,
    /// Index of the selected mode in `powers`.
    pub selected: usize,
    /// Destination → move command and its preview, for the shown move mode.
    pub moves: BTreeMap<Cell, (Command, MovePreview)>,
    /// Target cell → command, for the shown target mode.
    pub targets: BTreeMap<Cell, Command>,
    /// Numbered actions: decision answers, or a unit's untargeted commands
    /// (End turn last).
    pub other: Vec<Command>,
    /// Whether a person plays the side that must act.
    pub human: bool,
}

/// A group of commands picked on the map: one movement power, weapon or targeted
/// action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mode {
    /// What the HUD shows: `Walk`, `Rapier`, `Feint`, `Use Bomb` ...
    pub label: String,
    /// Whether its commands go to a cell (moves) rather than at a unit.
    pub moves: bool,
    /// The ruleset verb whose commands these are, if any (for its cost and key).
    pub verb: Option<&'static str>,
}

impl Choices {
    /// Index of the mode with this label.
    pub fn mode(&self, label: &str) -> Option<usize> {
        self.powers.iter().position(|m| m.label == label)
    }

    /// The selected mode's label.
    pub fn selected_label(&self) -> Option<&str> {
        self.powers.get(self.selected).map(|m| m.label.as_str())
    }
}

/// Whether the side that must act now is played by a person.
pub fn human_turn(battle: &Battle) -> bool {
    let side = match battle.awaiting() {
        Awaiting::Unit(u, _) => crate::engine::battle::side_of(battle.world(), u),
        Awaiting::Decision(d) => d.side,
        Awaiting::Over(_) => return true,
    };
    battle
        .world()
        .resource::<Sides>()
        .0
        .get(side.0 as usize)
        .is_none_or(|s| s.controller == Controller::Human)
}

/// The mode a unit's command belongs to, with the cell it is picked on; `None` for
/// numbered actions.
pub fn mode_of(battle: &Battle, cmd: &Command) -> Option<(Mode, Cell)> {
    let at = |label: String, verb: Option<&'static str>, target: UnitId| {
        Some((
            Mode {
                label,
                moves: false,
                verb,
            },
            crate::engine::battle::cell_of(battle.world(), target),
        ))
    };
    let to = |label: &str, path: &[Cell], verb: Option<&'static str>| {
        path.last().map(|&c| {
            (
                Mode {
                    label: label.to_string(),
                    moves: true,
                    verb,
                },
                c,
            )
        })
    };
    match cmd {
        Command::Move { power, path, .. } => to(power, path, None),
        Command::Attack { target, power, .. } => at(
            power.clone().unwrap_or_else(|| "Attack".into()),
            None,
            *target,
        ),
        Command::ActivateItem {
            item,
            target: Some(t),
            ..
        } => at(format!("Use {item}"), None, *t),
        Command::Act { verb, args, .. } => {
            // A verb with a clicked target is a mode, one per value of its choice; a
            // verb that goes to a cell (`phases`' Disengage) is a move mode.
            let spec = crate::engine::verb::find(battle.rules().verbs(), verb)?;
            match verb_destination(spec, args) {
                Some(cell) => to(
                    &spec.label_for(&crate::engine::verb::Args::new(), battle),
                    &[cell],
                    Some(spec.name),
                ),
                None => at(
                    spec.mode_label(args, battle),
                    Some(spec.name),
                    spec.target_of(args)?,
                ),
            }
        }
        _ => None,
    }
}

/// Where a verb goes, if it is one that goes to a cell rather than at a unit: a
/// verb without a clicked target whose first cell argument is required (`phases`'
/// Disengage `to`).
fn verb_destination(
    spec: &crate::engine::verb::VerbSpec,
    args: &crate::engine::verb::Args,
) -> Option<Cell> {
    if spec.target.is_some() {
        return None;
    }
    let arg = spec
        .args
        .iter()
        .find(|a| a.kind == crate::engine::verb::ArgKind::Cell && !a.optional)?;
    args.cell(arg.name)
}

/// The way a move mode's command goes, start excluded: a `Move`'s path, or for a
/// verb that goes to a cell the shortest way there (the way the ruleset takes it,
/// as a scenario's does, [`crate::script::route`]).
pub fn move_path(battle: &Battle, cmd: &Command) -> Option<Vec<Cell>> {
    match cmd {
        Command::Move { path, .. } => Some(path.clone()),
        Command::Act {
            unit, verb, args, ..
        } => {
            let spec = crate::engine::verb::find(battle.rules().verbs(), verb)?;
            let to = verb_destination(spec, args)?;
            crate::script::route(battle, *unit, to).ok()
        }
        _ => None,
    }
}

/// Whether a command is a verb its ruleset declares rarely wanted (`flow`'s Drop):
/// menus list those after the other actions.
pub fn rarely_wanted(battle: &Battle, cmd: &Command) -> bool {
    match cmd {
        Command::Act { verb, .. } => {
            crate::engine::verb::find(battle.rules().verbs(), verb).is_some_and(|v| v.rare)
        }
        _ => false,
    }
}

/// What a verb costs in this battle and the key that picks it, as menus show them
/// after its label: `" (1 AP, key N)"`; empty for a command that is no verb or a
/// verb with neither.
pub fn verb_hint(battle: &Battle, verb: &str) -> String {
    let words = verb_cost_words(battle, verb);
    if words.is_empty() {
        String::new()
    } else {
        format!(" ({words})")
    }
}

/// [`verb_hint`]'s words without the brackets: `"1 AP, key N"` (empty likewise).
pub fn verb_cost_words(battle: &Battle, verb: &str) -> String {
    let Some(spec) = crate::engine::verb::find(battle.rules().verbs(), verb) else {
        return String::new();
    };
    let mut parts = Vec::new();
    if let Some(cost) = battle.rules().verb_cost(battle.world(), spec) {
        parts.push(cost.to_string());
    }
    if let Some(k) = spec.key {
        parts.push(format!("key {}", k.to_ascii_uppercase()));
    }
    parts.join(", ")
}

/// What pressing a verb's key does (see [`verb_key`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerbKey {
    /// Select this mode (an index into [`Choices::powers`]).
    Mode(usize),
    /// Submit this command (the verb's one numbered action).
    Do(Command),
    /// Nothing to do; tell the player why.
    Say(String),
}

/// What the key `key` does now, for every verb alike ([`VerbSpec::key`]): a verb
/// with a target selects its mode — pressed again, its next mode (`flow`'s Shove:
/// "Shove back", then "Knock prone"); a verb without one does its numbered action
/// when there is exactly one, and names the number keys when there are several
/// (Draw which weapon?); otherwise it says the verb is not possible now.
///
/// [`VerbSpec::key`]: crate::engine::verb::VerbSpec::key
pub fn verb_key(battle: &Battle, choices: &Choices, key: char) -> VerbKey {
    let Some(spec) = battle.rules().verbs().iter().find(|v| v.key == Some(key)) else {
        return VerbKey::Say(format!(
            "No action has the key {}",
            key.to_ascii_uppercase()
        ));
    };
    let what = spec.label_for(&crate::engine::verb::Args::new(), battle);
    let modes: Vec<usize> = (0..choices.powers.len())
        .filter(|&i| choices.powers[i].verb == Some(spec.name))
        .collect();
    if let Some(&first) = modes.first() {
        let next = modes
            .iter()
            .position(|&i| i == choices.selected)
            .and_then(|at| modes.get(at + 1))
            .copied();
        return VerbKey::Mode(next.unwrap_or(first));
    }
    let numbered: Vec<usize> = (0..choices.other.len())
        .filter(|&i| matches!(&choices.other[i], Command::Act { verb, .. } if verb == spec.name))
        .collect();
    match numbered.as_slice() {
        [] => VerbKey::Say(format!("{what} is not possible now")),
        [i] => VerbKey::Do(choices.other[*i].clone()),
        several => {
            let keys: Vec<String> = several.iter().map(|i| (i + 1).to_string()).collect();
            VerbKey::Say(format!("{what}: press {}", keys.join(" or ")))
        }
    }
}

/// What the side that must act can do now in `battle` (at `version`), with the
/// mode numbered `power` selected: see [`Choices`]. For a pending decision, the
/// numbered actions are its options in the ruleset's order, each answering alone,
/// and its decline ("No reaction", "Nobody seizes") last.
pub fn choices_for(battle: &Battle, version: u64, power: usize) -> Choices {
    let mut c = Choices {
        key: (version, power),
        human: human_turn(battle),
        ..default()
    };
    let legal = battle.legal_commands();
    let Awaiting::Unit(u, stage) = battle.awaiting() else {
        if let Awaiting::Decision(d) = battle.awaiting() {
            c.other = d
                .options
                .iter()
                .chain(&d.decline)
                .map(|o| o.command.clone())
                .filter(|cmd| legal.contains(cmd))
                .collect();
        }
        return c;
    };
    c.unit = Some(u);
    c.stage = Some(stage);
    let mut grouped: Vec<(Mode, Cell, Command)> = Vec::new();
    let mut end = None;
    for cmd in legal {
        match mode_of(battle, &cmd) {
            Some((mode, cell)) => {
                if !c.powers.contains(&mode) {
                    c.powers.push(mode.clone());
                }
                grouped.push((mode, cell, cmd));
            }
            None if matches!(cmd, Command::EndTurn { .. }) => end = Some(cmd),
            None => c.other.push(cmd),
        }
    }
    // Rarely wanted actions last; End turn (Space) closes the list.
    c.other.sort_by_key(|cmd| rarely_wanted(battle, cmd));
    c.other.extend(end);
    c.selected = power % c.powers.len().max(1);
    let selected = c.powers.get(c.selected).cloned();
    let shown_move = match &selected {
        Some(m) if m.moves => Some(m.label.clone()),
        _ => c
            .powers
            .iter()
            .find(|m| m.moves && m.verb.is_none())
            .map(|m| m.label.clone()),
    };
    let shown_target = match &selected {
        Some(m) if !m.moves => Some(m.label.clone()),
        // A verb's move mode (Disengage) shows no targets.
        Some(m) if m.moves && m.verb.is_some() => None,
        // A weapon's targets first: a targeted verb (`wounds`' Delay rings allies)
        // only when the unit has no attack.
        _ => c
            .powers
            .iter()
            .find(|m| !m.moves && m.verb.is_none())
            .or_else(|| c.powers.iter().find(|m| !m.moves))
            .map(|m| m.label.clone()),
    };
    for (mode, cell, cmd) in grouped {
        if mode.moves && Some(&mode.label) == shown_move.as_ref() {
            if let std::collections::btree_map::Entry::Vacant(slot) = c.moves.entry(cell) {
                let preview = match &cmd {
                    Command::Move { power, path, .. } => battle.preview_move(u, power, path),
                    // A verb's move (Disengage) provokes nothing.
                    Command::Act { .. } => match move_path(battle, &cmd) {
                        Some(path) => MovePreview {
                            cost: path.len() as u32,
                            ..MovePreview::default()
                        },
                        None => continue,
                    },
                    _ => continue,
                };
                slot.insert((cmd, preview));
            }
        } else if !mode.moves && Some(&mode.label) == shown_target.as_ref() {
            c.targets.entry(cell).or_insert(cmd);
        }
    }
    c
}

/// A short label for a command offered in a menu or prompt. An answer to the
/// pending decision is its option's caption, with its exact chance and cost
/// ("Duelist Parry: 45% (1 RP)", "Knight seizes").
pub fn command_label(battle: &Battle, cmd: &Command) -> String {
    if let Awaiting::Decision(d) = battle.awaiting()
        && let Some(o) = d.option_for(cmd)
    {
        return o.caption();
    }
    match cmd {
        Command::Answer { .. } | Command::Pass { .. } => cmd.display(battle),
        Command::EndTurn { .. } => "End turn".into(),
        Command::Act { verb, args, .. } => match mode_of(battle, cmd) {
            // A verb going to a cell: "Disengage to (3, 4)".
            Some((mode, _)) if mode.moves => {
                crate::engine::verb::find(battle.rules().verbs(), verb)
                    .map_or(mode.label, |spec| spec.label_for(args, battle))
            }
            Some((mode, _)) => mode.label,
            None => match crate::engine::verb::find(battle.rules().verbs(), verb) {
                Some(spec) => spec.label_for(args, battle),
                None => cmd.display(battle),
            },
        },
        Command::ActivateItem {
            item, target: None, ..
        } => format!("Use {item}"),
        Command::ActivateItem {
            item,
            target: Some(t),
            ..
        } => format!("Use {item} on {}", battle.unit_name(*t)),
        Command::Attack { target, power, .. } => {
            format!(
                "{} {}",
                power.clone().unwrap_or_else(|| "Attack".into()),
                battle.unit_name(*target)
            )
        }
        Command::Move { power, path, .. } => match path.last() {
            Some(c) => format!("{power} to {c}"),
            None => power.clone(),
        },
    }
}

/// Submits a command and reports the outcome on the message line.
pub fn submit(game: &mut Game, ui: &mut UiState, cmd: Command) {
    let label = command_label(&game.battle, &cmd);
    match game.battle.submit(cmd) {
        Ok(_) => {
            game.version += 1;
            ui.power = 0;
            ui.message = None;
            ui.log_scroll = 0;
        }
        Err(e) => ui.message = Some((format!("{label}: {e}"), true)),
    }
}
