//! Input and control: turns pointer, keys and AI choices into engine commands,
//! keeps the camera, and keeps [`Choices`] (what the active unit can do, see
//! [`super::choices`]) up to date for the overlays and the HUD.

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use leafwing_input_manager::prelude::*;

use super::board_view::MapGeometry;
use super::choices::{
    Choices, UiState, VerbKey, choices_for, human_turn, submit, verb_key, with_choices,
};
use super::layout::{MainCamera, UiCamera, battle_panels_px, fit, map_area, pan_and_zoom};
use super::screen::{Leave, Screen};
use super::settings::{BattleAction, Player};
use super::{BattleSystems, Game, Options};
use crate::engine::battle::{Awaiting, Sides};
use crate::engine::board::Cell;
use crate::engine::event::Stage;
use crate::engine::units::{Items, UnitId};
use crate::engine::{Battle, Command};
use crate::level::schema::Controller;

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

/// Recomputes [`Choices`] when the battle or the selection changed.
fn update_choices(game: Res<Game>, ui: Res<UiState>, mut choices: ResMut<Choices>) {
    let key = (game.version, ui.power);
    if choices.key != key {
        *choices = compute_choices(&game, &ui);
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
    camera: Single<(&Camera, &GlobalTransform), With<MainCamera>>,
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
    if a.just_pressed(&A::NextChoice) {
        // The first option the ruleset lets the player choose (the others by a
        // click on the chooser bar).
        ui.message = Some(
            match crate::engine::options::choosable(game.battle.rules())
                .first()
                .copied()
            {
                Some(option) => {
                    let now = ui.chosen.next(option);
                    (format!("{}: {now}", option.name), false)
                }
                None => (
                    format!(
                        "attacks in `{}` offer no choice to make",
                        game.battle.ruleset()
                    ),
                    true,
                ),
            },
        );
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
            let cmd = with_choices(&game.battle, cmd.clone(), &ui);
            submit(&mut game, &mut ui, cmd);
        } else {
            ui.message = Some((explain_illegal(&game.battle, &choices, unit, cell), true));
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
            let cmd = Command::attack(unit, t, attack_power);
            match battle.check(&cmd) {
                Err(e) => format!("Can't attack {}: {e}", battle.unit_name(t)),
                Ok(()) => "Select that weapon or action with Tab first".into(),
            }
        }
        None => match move_power {
            None => "Nothing to do there: pick a ringed enemy, a numbered action, or Space to end the turn".into(),
            Some(p) => match crate::script::route(battle, unit, cell) {
                Err(e) => format!("Can't move there: {e}"),
                Ok(path) => match battle.check(&Command::move_along(unit, p.clone(), path)) {
                    Err(e) => format!("Can't move there: {e}"),
                    Ok(()) => format!("Out of reach for {p} (Tab changes the mode)"),
                },
            },
        },
    }
}

/// The cameras, without multisampling: the board is axis-aligned tiles and
/// sprites (nearest-sampled, nothing to smooth), while 4x MSAA on a software
/// renderer (llvmpipe) more than halved the frame rate of the battle screen
/// (`examples/frame_time`).
///
/// The map's camera ([`MainCamera`]) draws the world; on the battle screen only into
/// the map's area ([`map_viewport`]), so neither the map under the panels nor the
/// panels' large translucent backgrounds are drawn (they cost a software renderer
/// much of the frame): it clears the window in the panels' colour, and the map's
/// backdrop ([`super::board_view`]) restores the colour around the map. The UI's camera ([`UiCamera`]) draws the UI over the
/// whole window after it, and nothing of the world; it alone writes the frame out.
fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        MainCamera,
        Msaa::Off,
        Camera {
            output_mode: bevy::camera::CameraOutputMode::Skip,
            ..default()
        },
    ));
    commands.spawn((
        Camera2d,
        UiCamera,
        IsDefaultUiCamera,
        Msaa::Off,
        bevy::camera::visibility::RenderLayers::none(),
        Camera {
            order: 1,
            clear_color: ClearColorConfig::None,
            output_mode: bevy::camera::CameraOutputMode::Write {
                blend_state: Some(bevy::render::render_resource::BlendState::REPLACE),
                clear_color: ClearColorConfig::None,
            },
            ..default()
        },
    ));
}

/// On the battle screen, keeps the map's camera drawing into the map's area
/// ([`map_area`]), clearing the window in the panels' colour (written only when the
/// window changed).
fn map_viewport(window: Single<&Window>, mut camera: Single<&mut Camera, With<MainCamera>>) {
    let area = map_area(&window);
    let s = window.scale_factor();
    let (min, max) = ((area.min * s).round(), (area.max * s).round());
    let physical = window.physical_size();
    let position = min.as_uvec2().min(physical.saturating_sub(UVec2::ONE));
    let size = (max - min)
        .as_uvec2()
        .max(UVec2::ONE)
        .min(physical.saturating_sub(position));
    let unchanged = camera
        .viewport
        .as_ref()
        .is_some_and(|v| (v.physical_position, v.physical_size) == (position, size))
        && matches!(camera.clear_color, ClearColorConfig::Custom(c) if c == super::theme::PANEL_BG);
    if !unchanged {
        camera.viewport = Some(bevy::camera::Viewport {
            physical_position: position,
            physical_size: size,
            ..default()
        });
        camera.clear_color = ClearColorConfig::Custom(super::theme::PANEL_BG);
    }
}

/// Off the battle screen the map's camera draws into the whole window again.
fn whole_window(mut camera: Single<&mut Camera, With<MainCamera>>) {
    camera.viewport = None;
    camera.clear_color = ClearColorConfig::Default;
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
        // The camera draws into the map's area alone: nothing over it to leave free.
        let (center, scale) = fit(geo.bounds(), map_area(&window).size(), (0.0, 0.0, 0.0, 0.0));
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
            handle_actions
                .run_if(super::replay_view::playing)
                .in_set(BattleSystems::Input),
            drive_ai.run_if(super::replay_view::playing),
            update_choices,
            map_viewport,
            camera_control,
        )
            .chain()
            .run_if(in_state(Screen::Battle)),
    );
    app.add_systems(OnExit(Screen::Battle), whole_window);
    app.add_systems(Update, screenshot);
    if let Some(render) = app.get_sub_app_mut(bevy::render::RenderApp) {
        render.add_systems(
            bevy::render::ExtractSchedule,
            ui_camera_draws_no_world
                .after(bevy::core_pipeline::core_2d::extract_core_2d_camera_phases),
        );
    }
}

/// Takes the UI camera's ([`UiCamera`]) world phases away in the render world each
/// frame: it draws nothing of the world (`RenderLayers::none`), yet as a `Camera2d`
/// it would still run an empty main pass that clears a full-window depth buffer,
/// which a software renderer pays for. Without the phases its camera gets no depth
/// texture and its opaque and transparent passes are skipped; the UI's own pass and
/// the write to the window are unchanged.
fn ui_camera_draws_no_world(
    cameras: bevy::render::Extract<Query<Entity, With<UiCamera>>>,
    mut transparent: ResMut<
        bevy::render::render_phase::ViewSortedRenderPhases<
            bevy::core_pipeline::core_2d::Transparent2d,
        >,
    >,
    mut opaque: ResMut<
        bevy::render::render_phase::ViewBinnedRenderPhases<bevy::core_pipeline::core_2d::Opaque2d>,
    >,
    mut alpha_mask: ResMut<
        bevy::render::render_phase::ViewBinnedRenderPhases<
            bevy::core_pipeline::core_2d::AlphaMask2d,
        >,
    >,
) {
    for camera in &cameras {
        // The retained view of a camera's own (first) view, as Bevy's
        // `extract_core_2d_camera_phases` names it.
        let view = bevy::render::view::RetainedViewEntity::new(camera.into(), None, 0);
        transparent.remove(&view);
        opaque.remove(&view);
        alpha_mask.remove(&view);
    }
}
