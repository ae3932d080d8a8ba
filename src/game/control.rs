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
use crate::engine::battle::{Awaiting, MovePreview, Sides};
use crate::engine::board::Cell;
use crate::engine::event::Stage;
use crate::engine::units::{Items, MovementPowers, Powers, UnitId};
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

/// The player's current intent and pointer.
#[derive(Resource, Default, Debug)]
pub struct UiState {
    /// Cell under the mouse, or the keyboard cursor when it moved last.
    pub hovered: Option<Cell>,
    /// The keyboard cursor.
    pub cursor: Option<Cell>,
    /// Index of the selected movement or attack power.
    pub power: usize,
    /// Disengage mode in the Battle Phase.
    pub disengage: bool,
    /// Feedback line: text and whether it is an error.
    pub message: Option<(String, bool)>,
    /// Log lines scrolled back from the newest.
    pub log_scroll: usize,
    /// Time until the AI's next command.
    pub ai_wait: f32,
}

/// What the active unit can do now, derived from the engine's legal commands.
#[derive(Resource, Default, Debug)]
pub struct Choices {
    /// The battle version and selection these were computed for.
    pub key: (u64, usize, bool),
    /// The unit whose turn it is, if a human plays it.
    pub unit: Option<UnitId>,
    /// The stage of its turn.
    pub stage: Option<Stage>,
    /// Names of the powers the selector cycles through (movement or attack powers).
    pub powers: Vec<String>,
    /// Destination → move command and its preview, for the selected power.
    pub moves: BTreeMap<Cell, (Command, MovePreview)>,
    /// Target cell → attack command, for the selected power.
    pub targets: BTreeMap<Cell, Command>,
    /// Other legal commands (Defend, Delay, items, EndTurn, decision answers).
    pub other: Vec<Command>,
    /// Whether a person plays the side that must act.
    pub human: bool,
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

fn compute_choices(game: &Game, ui: &UiState) -> Choices {
    let battle = &game.battle;
    let mut c = Choices {
        key: (game.version, ui.power, ui.disengage),
        human: human_turn(battle),
        ..default()
    };
    let legal = battle.legal_commands();
    let world = battle.world();
    match battle.awaiting() {
        Awaiting::Unit(u, stage) => {
            c.unit = Some(u);
            c.stage = Some(stage);
            let e = crate::engine::battle::entity(world, u);
            c.powers = if stage == Stage::Movement {
                world
                    .get::<MovementPowers>(e)
                    .map(|m| m.0.clone())
                    .unwrap_or_default()
            } else {
                world
                    .get::<Powers>(e)
                    .map(|p| p.0.iter().map(|p| p.name.clone()).collect())
                    .unwrap_or_default()
            };
            let power = c
                .powers
                .get(ui.power % c.powers.len().max(1))
                .cloned()
                .unwrap_or_default();
            for cmd in legal {
                match &cmd {
                    Command::Move { power: p, path, .. }
                        if stage == Stage::Movement && *p == power =>
                    {
                        if let Some(&dest) = path.last() {
                            let preview = battle.preview_move(u, p, path);
                            c.moves.entry(dest).or_insert((cmd.clone(), preview));
                        }
                    }
                    Command::Disengage { path, .. } if ui.disengage => {
                        if let Some(&dest) = path.last() {
                            c.moves.entry(dest).or_insert((
                                cmd.clone(),
                                MovePreview {
                                    cost: path.len() as u32,
                                    provocations: 0,
                                },
                            ));
                        }
                    }
                    Command::Attack {
                        target,
                        power: Some(p),
                        ..
                    } if !ui.disengage && *p == power => {
                        let cell = crate::engine::battle::cell_of(world, *target);
                        c.targets.insert(cell, cmd.clone());
                    }
                    Command::Move { .. } | Command::Disengage { .. } | Command::Attack { .. } => {}
                    _ => c.other.push(cmd),
                }
            }
        }
        Awaiting::Decision(_) => c.other = legal,
        Awaiting::Over(_) => {}
    }
    c
}

/// Recomputes [`Choices`] when the battle or the selection changed.
fn update_choices(game: Res<Game>, ui: Res<UiState>, mut choices: ResMut<Choices>) {
    let key = (game.version, ui.power, ui.disengage);
    if choices.key != key {
        *choices = compute_choices(&game, &ui);
    }
}

/// A short label for a command offered in a menu or prompt.
pub fn command_label(battle: &Battle, cmd: &Command) -> String {
    let names = |us: &[UnitId]| {
        us.iter()
            .map(|u| battle.unit_name(*u))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match cmd {
        Command::Seize { units, .. } if units.is_empty() => "Nobody seizes".into(),
        Command::Seize { units, .. } => format!("{} seizes", names(units)),
        Command::ActNow { units, .. } if units.is_empty() => "Keep waiting".into(),
        Command::ActNow { units, .. } => format!("{} acts now", names(units)),
        Command::EndTurn { .. } => "End turn".into(),
        Command::Defend { .. } => "Defend".into(),
        Command::Delay { .. } => "Delay".into(),
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
        other => format!("{other:?}"),
    }
}

/// Submits a command and reports the outcome on the message line.
pub fn submit(game: &mut Game, ui: &mut UiState, cmd: Command) {
    let label = command_label(&game.battle, &cmd);
    match game.battle.submit(cmd) {
        Ok(_) => {
            game.version += 1;
            ui.power = 0;
            ui.disengage = false;
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
fn drive_ai(
    mut game: ResMut<Game>,
    mut ui: ResMut<UiState>,
    mut rng: ResMut<AiRng>,
    time: Res<Time>,
    actions: Single<&ActionState<BattleAction>, With<Player>>,
) {
    if human_turn(&game.battle) || matches!(game.battle.awaiting(), Awaiting::Over(_)) {
        ui.ai_wait = 0.6;
        return;
    }
    let fast = actions.pressed(&BattleAction::FastForward);
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
    let (l, r, t, b) = panels(window.width());
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
fn handle_actions(
    actions: Single<&ActionState<BattleAction>, With<Player>>,
    mut game: ResMut<Game>,
    mut ui: ResMut<UiState>,
    choices: Res<Choices>,
    geo: Option<Res<MapGeometry>>,
    mut leave: Leave,
) {
    use BattleAction as A;
    let a = *actions;
    if a.just_pressed(&A::Quit) {
        leave.leave();
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
    // Decisions: number keys pick an option.
    if let Awaiting::Decision(_) = game.battle.awaiting() {
        for (i, key) in A::OPTIONS.iter().enumerate() {
            if a.just_pressed(key)
                && let Some(cmd) = choices.other.get(i).cloned()
            {
                submit(&mut game, &mut ui, cmd);
                return;
            }
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
        ui.disengage = false;
        ui.cursor = None;
        ui.message = None;
    }
    if a.just_pressed(&A::NextPower) && !choices.powers.is_empty() {
        ui.power = (ui.power + 1) % choices.powers.len();
        ui.disengage = false;
    }
    let find = |f: &dyn Fn(&Command) -> bool| choices.other.iter().find(|c| f(c)).cloned();
    let pick = if a.just_pressed(&A::EndTurn) {
        find(&|c| matches!(c, Command::EndTurn { .. }))
    } else if a.just_pressed(&A::Defend) {
        find(&|c| matches!(c, Command::Defend { .. })).or_else(|| {
            ui.message = Some(("Defend is a Battle-Phase action".into(), true));
            None
        })
    } else if a.just_pressed(&A::Delay) {
        find(&|c| matches!(c, Command::Delay { .. })).or_else(|| {
            ui.message = Some(("Delay is not possible now".into(), true));
            None
        })
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
    if a.just_pressed(&A::Disengage) {
        if choices.stage == Some(Stage::Attack) {
            ui.disengage = !ui.disengage;
        } else {
            ui.message = Some(("Disengage as a battle action is for the Battle Phase; in the Movement Phase pick it with Tab".into(), true));
        }
    }
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
            let cmd = cmd.clone();
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
    match (choices.stage, occupant) {
        (Some(Stage::Attack), Some(t)) if t != unit => {
            let power = choices.powers.first().cloned();
            let cmd = Command::Attack { unit, target: t, power };
            match battle.check(&cmd) {
                Err(e) => format!("Can't attack {}: {e}", battle.unit_name(t)),
                Ok(()) => "Select that power with Tab first".into(),
            }
        }
        (Some(Stage::Movement), _) => {
            let p = choices.powers.first().cloned().unwrap_or_default();
            match crate::script::route(battle, unit, cell) {
                Err(e) => format!("Can't move there: {e}"),
                Ok(path) => match battle.check(&Command::Move { unit, power: p.clone(), path, target: None }) {
                    Err(e) => format!("Can't move there: {e}"),
                    Ok(()) => format!("Out of reach for the selected power (Tab changes it; {p} is the first)"),
                },
            }
        }
        (Some(Stage::Attack), _) => "Nothing to do there: pick an enemy in reach, or F Defend, G Disengage, L Delay, Space end turn".into(),
        _ => "Nothing to do there".into(),
    }
}

/// The 2D camera.
#[derive(Component)]
pub struct MainCamera;

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Camera2d, MainCamera));
}

/// Fits the map between the HUD panels.
pub fn fit(geo: &MapGeometry, window: &Window) -> (Vec2, f32) {
    let (l, r, t, b) = panels(window.width());
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
    mut camera: Single<(&mut Transform, &mut Projection), With<MainCamera>>,
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
    let (transform, projection) = &mut *camera;
    let Projection::Orthographic(ortho) = &mut **projection else {
        return;
    };
    let size = Vec2::new(window.width(), window.height());
    if *fitted != Some(size) || actions.just_pressed(&A::FitMap) {
        let (center, scale) = fit(&geo, &window);
        transform.translation = center.extend(transform.translation.z);
        ortho.scale = scale;
        *fitted = Some(size);
    }
    let speed = 600.0 * ortho.scale * time.delta_secs();
    let mut pan = Vec2::ZERO;
    for (action, dir) in [
        (A::PanUp, Vec2::Y),
        (A::PanDown, -Vec2::Y),
        (A::PanLeft, -Vec2::X),
        (A::PanRight, Vec2::X),
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
    let over_map = window
        .cursor_position()
        .is_some_and(|p| p.x < size.x - panels(size.x).1);
    if over_map && scroll.delta.y != 0.0 {
        zoom *= (1.0 - 0.1 * scroll.delta.y.signum()).clamp(0.5, 1.5);
    }
    if actions.just_pressed(&A::ZoomIn) {
        zoom *= 0.8;
    }
    if actions.just_pressed(&A::ZoomOut) {
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
            hover,
            update_choices,
            handle_actions,
            drive_ai,
            update_choices,
            camera_control,
        )
            .chain()
            .run_if(in_state(Screen::Battle)),
    );
    app.add_systems(Update, screenshot);
}
