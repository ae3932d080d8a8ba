//! Input and control: turns pointer, keys and AI choices into engine commands, keeps
//! the camera, and works out what the active unit can do ([`Choices`]) for the
//! overlays and the HUD. Choices come from the engine's own legal-command list, so
//! the window can never offer an illegal move.

use std::collections::BTreeMap;

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use leafwing_input_manager::prelude::*;

use super::board_view::MapGeometry;
use super::screen::{ReturnTo, Screen};
use super::settings::{BattleAction, Player};
use super::{Game, Options};
use crate::engine::battle::{Awaiting, Sides};
use crate::engine::board::Cell;
use crate::engine::event::Stage;
use crate::engine::ruleset::MovePreview;
use crate::engine::units::{Items, UnitId};
use crate::engine::{Battle, Command};
use crate::level::schema::Controller;

/// Pixels reserved by the HUD panels around the map (left, right, top, bottom) in a
/// window `width` pixels wide: the side panels shrink in small windows so the map
/// keeps most of the space.
pub fn panels(width: f32) -> (f32, f32, f32, f32) {
    (
        (width * 0.19).clamp(150.0, 250.0),
        (width * 0.25).clamp(190.0, 330.0),
        40.0,
        86.0,
    )
}

/// [`panels`] in window pixels at the UI scale in use ([`super::comfort`]): what the
/// map must leave free. UI nodes take [`panels`] of the width divided by the scale.
pub fn panels_px(width: f32) -> (f32, f32, f32, f32) {
    scaled(panels, width)
}

/// What the battle screen's map leaves free: the [`panels`], and the turn strip
/// ([`super::turn_strip`]) under the top bar, between the side panels.
pub fn battle_panels(width: f32) -> (f32, f32, f32, f32) {
    let (l, r, t, b) = panels(width);
    (l, r, t + super::turn_strip::HEIGHT, b)
}

/// [`battle_panels`] in window pixels at the UI scale in use.
pub fn battle_panels_px(width: f32) -> (f32, f32, f32, f32) {
    scaled(battle_panels, width)
}

/// `panels` of a window `width` pixels wide, in window pixels at the UI scale in use.
fn scaled(panels: fn(f32) -> (f32, f32, f32, f32), width: f32) -> (f32, f32, f32, f32) {
    let s = super::comfort::ui_scale();
    let (l, r, t, b) = panels(width / s);
    (l * s, r * s, t * s, b * s)
}

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
    /// Where attacks aim, for rulesets whose attacks aim (`None`: unaimed, the
    /// ruleset's default, `wounds`' Center Mass).
    pub aim: Option<String>,
}

/// The aim after `current` in the ruleset's list, wrapping; the list's last entry
/// (the unaimed default) is `None`.
pub fn next_aim(aims: &[&str], current: Option<&str>) -> Option<String> {
    let i = current
        .and_then(|c| aims.iter().position(|a| *a == c))
        .map_or(0, |i| i + 1);
    aims.get(i)
        .filter(|_| i + 1 < aims.len())
        .map(|a| a.to_string())
}

/// `cmd` aimed where the player aims, if it is an attack that can aim there (a
/// spell can't: it goes unaimed).
pub fn aimed(battle: &Battle, cmd: Command, aim: Option<&str>) -> Command {
    match cmd {
        Command::Attack {
            unit,
            target,
            power,
            approach,
            ..
        } => {
            let aim = aim
                .filter(|a| {
                    battle
                        .aim_previews(unit, target, power.as_deref())
                        .iter()
                        .any(|p| p.aim == *a)
                })
                .map(str::to_string);
            Command::Attack {
                unit,
                target,
                power,
                aim,
                approach,
            }
        }
        other => other,
    }
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

/// Binds the battle's ruleset's verb keys ([`super::settings::bind_verb_keys`])
/// when the battle's ruleset changes, warning about keys it cannot bind.
fn bind_verb_keys(
    game: Res<Game>,
    mut map: Single<&mut InputMap<BattleAction>, With<Player>>,
    mut bound: Local<Option<&'static str>>,
) {
    let rules = game.battle.rules();
    if *bound == Some(rules.id()) {
        return;
    }
    *bound = Some(rules.id());
    for problem in super::settings::bind_verb_keys(&mut map, rules.verbs()) {
        warn!("{problem}");
    }
}

fn compute_choices(game: &Game, ui: &UiState) -> Choices {
    choices_for(&game.battle, game.version, ui.power)
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

/// Recomputes [`Choices`] when the battle or the selection changed.
fn update_choices(game: Res<Game>, ui: Res<UiState>, mut choices: ResMut<Choices>) {
    let key = (game.version, ui.power);
    if choices.key != key {
        *choices = compute_choices(&game, &ui);
    }
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
        Command::Seize { .. }
        | Command::ActNow { .. }
        | Command::React { .. }
        | Command::Pass { .. } => cmd.display(battle),
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

/// The AI's command for the side that must act, with the side's policy.
pub fn ai_command(battle: &Battle, rng: &mut rand::rngs::ChaCha8Rng) -> Option<Command> {
    let side = match battle.awaiting() {
        Awaiting::Unit(u, _) => crate::engine::battle::side_of(battle.world(), u),
        Awaiting::Decision(d) => d.side,
        Awaiting::Over(_) => return None,
    };
    let policy = match battle
        .world()
        .resource::<Sides>()
        .0
        .get(side.0 as usize)
        .map(|s| s.controller)
    {
        Some(Controller::Ai(p)) => p,
        _ => crate::level::schema::AiPolicy::Normal,
    };
    crate::ai::choose(battle, policy, rng)
}

/// The AI's own dice for its choices (never the battle's dice).
#[derive(Resource)]
pub struct AiRng(pub rand::rngs::ChaCha8Rng);

/// Plays AI sides at a readable pace (hold the fast-forward key to speed up).
#[allow(clippy::too_many_arguments)]
fn drive_ai(
    mut game: ResMut<Game>,
    mut ui: ResMut<UiState>,
    mut rng: ResMut<AiRng>,
    time: Res<Time>,
    actions: Single<&ActionState<BattleAction>, With<Player>>,
    motion: Option<Res<super::motion::Motion>>,
    prompt: Option<Res<super::leave::LeavePrompt>>,
    comfort: Res<super::comfort::Comfort>,
) {
    // The AI waits while the player is asked whether to leave.
    if prompt.is_some_and(|p| p.open.is_some()) {
        return;
    }
    if human_turn(&game.battle) || matches!(game.battle.awaiting(), Awaiting::Over(_)) {
        // Compared first: writing marks the state changed, and the HUD redraws its
        // texts only when it changed.
        if ui.ai_wait != 0.6 {
            ui.ai_wait = 0.6;
        }
        return;
    }
    // X flips the pace the settings choose (readable by default).
    let fast = actions.pressed(&BattleAction::FastForward) != comfort.fast_forward;
    // The AI's last move or blow plays out before its next command.
    if !fast && motion.is_some_and(|m| m.busy()) {
        return;
    }
    ui.ai_wait -= time.delta_secs() * if fast { 12.0 } else { 1.0 };
    if ui.ai_wait > 0.0 {
        return;
    }
    ui.ai_wait = 0.6;
    if let Some(cmd) = ai_command(&game.battle, &mut rng.0) {
        submit(&mut game, &mut ui, cmd);
    }
}

/// Tracks the cell under the mouse pointer (ignoring the HUD panels).
fn hover(
    window: Single<&Window>,
    camera: Single<(&Camera, &GlobalTransform)>,
    geo: Option<Res<MapGeometry>>,
    mut ui: ResMut<UiState>,
    mut last: Local<Option<Vec2>>,
) {
    let Some(geo) = geo else { return };
    let Some(pos) = window.cursor_position() else {
        return;
    };
    if *last == Some(pos) {
        return;
    }
    *last = Some(pos);
    let (l, r, t, b) = battle_panels_px(window.width());
    if pos.x < l || pos.x > window.width() - r || pos.y < t || pos.y > window.height() - b {
        ui.hovered = None;
        return;
    }
    let (camera, transform) = *camera;
    ui.hovered = camera
        .viewport_to_world_2d(transform, pos)
        .ok()
        .and_then(|w| geo.cell_at(w));
}

/// Turns actions into commands and UI changes.
#[allow(clippy::too_many_arguments)]
pub fn handle_actions(
    actions: Single<&ActionState<BattleAction>, With<Player>>,
    mut game: ResMut<Game>,
    mut ui: ResMut<UiState>,
    choices: Res<Choices>,
    geo: Option<Res<MapGeometry>>,
    mut leave: Leave,
    seat: Res<super::handoff::Seat>,
    mut guard: super::leave::LeaveGuard,
    comfort: Res<super::comfort::ComfortPanel>,
) {
    use BattleAction as A;
    let a = *actions;
    // While the leave prompt or the settings are up only their keys count.
    if guard.is_open() || comfort.open {
        return;
    }
    if a.just_pressed(&A::Quit) {
        // Commands no save holds: ask first.
        if !guard.ask(&game) {
            leave.leave();
        }
        return;
    }
    // During a hot-seat hand-off only its confirmation counts.
    if !seat.seat.map_visible() {
        return;
    }
    if a.just_pressed(&A::LogOlder) {
        ui.log_scroll += 10;
    }
    if a.just_pressed(&A::LogNewer) {
        ui.log_scroll = ui.log_scroll.saturating_sub(10);
    }
    if let Awaiting::Over(_) = game.battle.awaiting() {
        if a.just_pressed(&A::Restart) {
            if let Err(e) = game.restart() {
                ui.message = Some((e, true));
            }
            *ui = UiState {
                message: Some(("Battle restarted".into(), false)),
                ..default()
            };
        }
        return;
    }
    if !choices.human {
        return;
    }
    // Number keys pick a decision's option or a numbered action.
    for (i, key) in A::OPTIONS.iter().enumerate() {
        if a.just_pressed(key) {
            match choices.other.get(i).cloned() {
                Some(cmd) => submit(&mut game, &mut ui, cmd),
                None => ui.message = Some((format!("There is no option {}", i + 1), true)),
            }
            return;
        }
    }
    if let Awaiting::Decision(_) = game.battle.awaiting() {
        return;
    }
    // Verb keys: every verb the same way, from its declaration.
    let keys: Vec<char> = game
        .battle
        .rules()
        .verbs()
        .iter()
        .filter_map(|v| v.key)
        .collect();
    if let Some(&key) = keys.iter().find(|&&k| a.just_pressed(&A::Verb(k))) {
        match verb_key(&game.battle, &choices, key) {
            VerbKey::Mode(i) => ui.power = i,
            VerbKey::Do(cmd) => submit(&mut game, &mut ui, cmd),
            VerbKey::Say(why) => ui.message = Some((why, true)),
        }
        return;
    }
    let Some(unit) = choices.unit else { return };
    // Keyboard cursor.
    let Some(geo) = geo else { return };
    let moves = [
        (A::CursorUp, 0, -1),
        (A::CursorDown, 0, 1),
        (A::CursorLeft, -1, 0),
        (A::CursorRight, 1, 0),
    ];
    for (action, dx, dy) in moves {
        if a.just_pressed(&action) {
            let start = ui
                .cursor
                .or(ui.hovered)
                .unwrap_or_else(|| crate::engine::battle::cell_of(game.battle.world(), unit));
            let next = Cell::new(
                (start.x + dx).clamp(0, geo.size.x as i32 - 1),
                (start.y + dy).clamp(0, geo.size.y as i32 - 1),
            );
            ui.cursor = Some(next);
            ui.hovered = Some(next);
        }
    }
    if a.just_pressed(&A::NextTarget) {
        let cells: Vec<Cell> = if choices.targets.is_empty() {
            choices.moves.keys().copied().collect()
        } else {
            choices.targets.keys().copied().collect()
        };
        if !cells.is_empty() {
            let i = ui
                .hovered
                .and_then(|h| cells.iter().position(|&c| c == h))
                .map_or(0, |i| (i + 1) % cells.len());
            ui.cursor = Some(cells[i]);
            ui.hovered = Some(cells[i]);
        }
    }
    if a.just_pressed(&A::Cancel) {
        ui.power = 0;
        ui.cursor = None;
        ui.message = None;
    }
    if a.just_pressed(&A::NextPower) && !choices.powers.is_empty() {
        ui.power = (choices.selected + 1) % choices.powers.len();
    }
    if a.just_pressed(&A::TakeBack) {
        ui.message = Some(match game.take_back() {
            Ok(what) => (format!("Taken back: {what}"), false),
            Err(why) => (why, true),
        });
        return;
    }
    if a.just_pressed(&A::NextAim) {
        let aims = game.battle.rules().aims();
        if aims.is_empty() {
            ui.message = Some((
                format!("attacks in `{}` don't aim", game.battle.ruleset()),
                true,
            ));
        } else {
            ui.aim = next_aim(aims, ui.aim.as_deref());
            let now = ui
                .aim
                .clone()
                .unwrap_or_else(|| aims[aims.len() - 1].into());
            ui.message = Some((format!("Aim: {now}"), false));
        }
    }
    let find = |f: &dyn Fn(&Command) -> bool| choices.other.iter().find(|c| f(c)).cloned();
    let pick = if a.just_pressed(&A::EndTurn) {
        find(&|c| matches!(c, Command::EndTurn { .. }))
    } else if a.just_pressed(&A::UseItem) {
        let items = game
            .battle
            .world()
            .get::<Items>(crate::engine::battle::entity(game.battle.world(), unit))
            .map(|i| i.0.len())
            .unwrap_or(0);
        find(&|c| matches!(c, Command::ActivateItem { target: None, .. })).or_else(|| {
            let why = if items == 0 {
                "no items"
            } else {
                "no item can be used now"
            };
            ui.message = Some((why.into(), true));
            None
        })
    } else {
        None
    };
    if let Some(cmd) = pick {
        submit(&mut game, &mut ui, cmd);
        return;
    }
    // Confirm on a cell: keyboard Enter uses the cursor; a click uses the pointer,
    // but clicks on the HUD panels are not map clicks.
    if a.just_pressed(&A::Confirm) {
        let Some(cell) = ui.hovered else { return };
        if let Some((cmd, _)) = choices.moves.get(&cell) {
            let cmd = cmd.clone();
            submit(&mut game, &mut ui, cmd);
        } else if let Some(cmd) = choices.targets.get(&cell) {
            let cmd = aimed(&game.battle, cmd.clone(), ui.aim.as_deref());
            submit(&mut game, &mut ui, cmd);
        } else {
            ui.message = Some((explain_illegal(&game.battle, &choices, unit, cell), true));
        }
    }
}

/// Leaving the battle: out of the program, or back where it was started from.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Leave<'w> {
    return_to: Res<'w, ReturnTo>,
    next: ResMut<'w, NextState<Screen>>,
    exit: MessageWriter<'w, AppExit>,
}

impl Leave<'_> {
    /// Leaves the battle.
    pub fn leave(&mut self) {
        match *self.return_to {
            ReturnTo::Exit => {
                self.exit.write(AppExit::Success);
            }
            ReturnTo::Setup => self.next.set(Screen::Setup),
            ReturnTo::Editor => self.next.set(Screen::Editor),
        }
    }
}

/// Why clicking `cell` does nothing, in the engine's words where possible.
fn explain_illegal(battle: &Battle, choices: &Choices, unit: UnitId, cell: Cell) -> String {
    let world = battle.world();
    let occupant = crate::engine::battle::active_units(world)
        .into_iter()
        .find(|&u| crate::engine::battle::cell_of(world, u) == cell);
    let attack_power = choices
        .targets
        .values()
        .find_map(|c| match c {
            Command::Attack { power, .. } => Some(power.clone()),
            _ => None,
        })
        .flatten();
    let move_power = choices.moves.values().find_map(|(c, _)| match c {
        Command::Move { power, .. } => Some(power.clone()),
        _ => None,
    });
    match occupant {
        Some(t) if t == unit => "That is the unit whose turn it is".into(),
        Some(t) if choices.stage == Some(Stage::Movement) && move_power.is_some() => {
            format!("{} stands there", battle.unit_name(t))
        }
        Some(t) => {
            let cmd = Command::Attack {
                unit,
                target: t,
                power: attack_power,
                aim: None,
                approach: Vec::new(),
            };
            match battle.check(&cmd) {
                Err(e) => format!("Can't attack {}: {e}", battle.unit_name(t)),
                Ok(()) => "Select that weapon or action with Tab first".into(),
            }
        }
        None => match move_power {
            None => "Nothing to do there: pick a ringed enemy, a numbered action, or Space to end the turn".into(),
            Some(p) => match crate::script::route(battle, unit, cell) {
                Err(e) => format!("Can't move there: {e}"),
                Ok(path) => match battle.check(&Command::Move {
                    unit,
                    power: p.clone(),
                    path,
                    target: None,
                }) {
                    Err(e) => format!("Can't move there: {e}"),
                    Ok(()) => format!("Out of reach for {p} (Tab changes the mode)"),
                },
            },
        },
    }
}

/// The 2D camera.
#[derive(Component)]
pub struct MainCamera;

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Camera2d, MainCamera));
}

/// Fits the map between the HUD panels (`(left, right, top, bottom)` in window
/// pixels: [`panels_px`] or [`battle_panels_px`]).
pub fn fit(geo: &MapGeometry, window: &Window, panels: (f32, f32, f32, f32)) -> (Vec2, f32) {
    let (l, r, t, b) = panels;
    let free = Vec2::new(
        (window.width() - l - r).max(120.0),
        (window.height() - t - b).max(120.0),
    );
    let bounds = geo.bounds();
    let scale = (bounds.width() / free.x)
        .max(bounds.height() / free.y)
        .max(0.2);
    // Shift the camera so the map's center lands in the middle of the free area.
    let offset = Vec2::new((r - l) / 2.0, (t - b) / 2.0) * scale;
    (bounds.center() + offset, scale)
}

#[allow(clippy::too_many_arguments)]
fn camera_control(
    actions: Single<&ActionState<BattleAction>, With<Player>>,
    camera: Single<(&mut Transform, &mut Projection), With<MainCamera>>,
    window: Single<&Window>,
    geo: Option<Res<MapGeometry>>,
    scroll: Res<AccumulatedMouseScroll>,
    motion: Res<AccumulatedMouseMotion>,
    buttons: Res<ButtonInput<MouseButton>>,
    time: Res<Time>,
    mut fitted: Local<Option<Vec2>>,
) {
    use BattleAction as A;
    let Some(geo) = geo else { return };
    // Work on copies and write back only what moved: a camera marked changed every
    // frame re-propagates its transform and recomputes its projection each frame.
    let (mut camera_transform, mut camera_projection) = camera.into_inner();
    let Projection::Orthographic(ortho) = &*camera_projection else {
        return;
    };
    let (mut moved, mut zoomed) = (*camera_transform, ortho.clone());
    let (transform, ortho) = (&mut moved, &mut zoomed);
    let size = Vec2::new(window.width(), window.height());
    if *fitted != Some(size) || actions.just_pressed(&A::FitMap) {
        let (center, scale) = fit(&geo, &window, battle_panels_px(window.width()));
        transform.translation = center.extend(transform.translation.z);
        ortho.scale = scale;
        *fitted = Some(size);
    }
    // The wheel zooms over the map only: over the unit card it scrolls the card.
    let (l, r, t, b) = battle_panels_px(size.x);
    let over_map = window
        .cursor_position()
        .is_some_and(|p| p.x > l && p.x < size.x - r && p.y > t && p.y < size.y - b);
    pan_and_zoom(
        *actions,
        [
            A::PanUp,
            A::PanDown,
            A::PanLeft,
            A::PanRight,
            A::ZoomIn,
            A::ZoomOut,
        ],
        (transform, ortho),
        over_map,
        (&scroll, &motion, &buttons),
        time.delta_secs(),
    );
    camera_transform.set_if_neq(moved);
    if let Projection::Orthographic(ortho) = &*camera_projection
        && ortho.scale != zoomed.scale
    {
        *camera_projection = Projection::Orthographic(zoomed);
    }
}

/// Pans a 2-D camera with the pan actions (`[up, down, left, right, zoom in, zoom
/// out]` of either screen's action set) or a right/middle drag, and zooms it with the
/// zoom actions or the wheel while the pointer is over the map.
pub(crate) fn pan_and_zoom<A: Actionlike>(
    actions: &ActionState<A>,
    [up, down, left, right, zoom_in, zoom_out]: [A; 6],
    (transform, ortho): (&mut Transform, &mut OrthographicProjection),
    pointer_over_map: bool,
    (scroll, motion, buttons): (
        &AccumulatedMouseScroll,
        &AccumulatedMouseMotion,
        &ButtonInput<MouseButton>,
    ),
    dt: f32,
) {
    let speed = 600.0 * ortho.scale * dt;
    let mut pan = Vec2::ZERO;
    for (action, dir) in [
        (up, Vec2::Y),
        (down, -Vec2::Y),
        (left, -Vec2::X),
        (right, Vec2::X),
    ] {
        if actions.pressed(&action) {
            pan += dir;
        }
    }
    transform.translation += (pan * speed).extend(0.0);
    if buttons.pressed(MouseButton::Middle) || buttons.pressed(MouseButton::Right) {
        let d = motion.delta * ortho.scale;
        transform.translation += Vec3::new(-d.x, d.y, 0.0);
    }
    let mut zoom = 1.0;
    if pointer_over_map && scroll.delta.y != 0.0 {
        zoom *= (1.0 - 0.1 * scroll.delta.y.signum()).clamp(0.5, 1.5);
    }
    if actions.just_pressed(&zoom_in) {
        zoom *= 0.8;
    }
    if actions.just_pressed(&zoom_out) {
        zoom *= 1.25;
    }
    ortho.scale = (ortho.scale * zoom).clamp(0.15, 8.0);
}

/// Counts frames for `--screenshot` and exits after saving.
#[derive(Resource, Default)]
struct ScreenshotState {
    frames: u32,
    requested: bool,
}

fn screenshot(mut commands: Commands, options: Res<Options>, mut state: ResMut<ScreenshotState>) {
    let Some(path) = options.0.screenshot.clone() else {
        return;
    };
    state.frames += 1;
    // Let the tilemap, fonts and UI settle for a few frames before capturing.
    if state.requested || state.frames < 30 {
        return;
    }
    state.requested = true;
    commands.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
            let saved = captured
                .image
                .clone()
                .try_into_dynamic()
                .map_err(|e| e.to_string())
                .and_then(|img| img.to_rgb8().save(&path).map_err(|e| e.to_string()));
            match saved {
                Ok(()) => {
                    info!("screenshot saved to {}", path.display());
                    exit.write(AppExit::Success);
                }
                Err(e) => {
                    error!("cannot save screenshot {}: {e}", path.display());
                    exit.write(AppExit::error());
                }
            }
        },
    );
}

/// Registers input handling, the camera, AI pacing and screenshots.
pub fn plugin(app: &mut App) {
    app.init_resource::<UiState>();
    app.insert_resource(AiRng(rand::SeedableRng::seed_from_u64(0x5EED)));
    app.init_resource::<Choices>();
    app.init_resource::<ScreenshotState>();
    app.add_systems(Startup, spawn_camera);
    app.add_systems(
        Update,
        (
            bind_verb_keys,
            hover,
            update_choices,
            handle_actions.run_if(super::replay_view::playing),
            drive_ai.run_if(super::replay_view::playing),
            update_choices,
            camera_control,
        )
            .chain()
            .run_if(in_state(Screen::Battle)),
    );
    app.add_systems(Update, screenshot);
}
