//! End-to-end (issue 16): save, quit, continue and finish a battle by real input, in
//! two processes sharing one saves folder.
//!
//! Process 1 starts The Ford from the pre-battle menu (Enter), plays a few of Blue's
//! commands by the keyboard cursor (WASD, Enter, Space), lets the start of a turn be
//! autosaved, presses F5 (the quicksave), plays one more command, and presses the
//! quit key (Q): the leave prompt comes up (a command is in no save); Esc stays, Q
//! again and 1 saves and leaves to the menu, where Q ends the program. Process 2
//! starts on the menu,
//! presses C ("Continue"), checks the battle is where process 1 left it (the same
//! commands, the round and the last log line on screen), screenshots it, and plays
//! it to the result screen by mouse clicks and keys, then quits by Q, Q.

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use skirmish::engine::battle::{Awaiting, Map, cell_of, side_of};
use skirmish::engine::board::Cell;
use skirmish::engine::{Battle, Command};
use skirmish::game::board_view::MapGeometry;
use skirmish::game::choices::{Choices, UiState, human_turn};
use skirmish::game::handoff::Seat;
use skirmish::game::hud::ResultScreen;
use skirmish::game::layout::MainCamera;
use skirmish::game::leave::LeavePrompt;
use skirmish::game::log_view::LogRow;
use skirmish::game::saves::SaveState;
use skirmish::game::screen::Screen;
use skirmish::game::theme::HudText;
use skirmish::game::{Game, GameOptions};
use skirmish::replay::BattleFile;

/// The level both processes play.
const LEVEL: &str = "levels/ford.ron";
/// The side the keys play.
const SIDE: &str = "Blue";
/// Commands process 1 makes by keys before it saves and quits.
const FIRST_COMMANDS: usize = 3;
/// Frames after which a process gives up.
const GIVE_UP: u32 = 20_000;

fn dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_TARGET_TMPDIR"), "/e2e-resume"))
}

fn saves() -> PathBuf {
    dir().join("saves")
}

/// What process 1 left: the battle as it was when it quit (written by the test, not
/// the game, for process 2 to compare with).
fn expected() -> PathBuf {
    dir().join("expected.battle.ron")
}

fn shot(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_TARGET_TMPDIR"))).join(format!("e2e-resume-{name}.png"))
}

/// Which process this is.
#[derive(Resource, Clone, Copy, PartialEq, Eq, Debug)]
enum Part {
    /// Play, save, quit.
    First,
    /// Continue, check, finish, quit.
    Second,
}

/// Where the driver is.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
enum Step {
    /// The menu: start (process 1) or continue (process 2).
    #[default]
    Menu,
    /// Process 1: Blue's first commands by keys.
    Play,
    /// Process 1: wait for a turn start's autosave that holds every command, then F5.
    Save,
    /// Process 1: F5 was pressed; wait for the game to say it saved.
    Saving,
    /// Process 1: play on by keys until a command of ours is in no save, then Q.
    Unsaved,
    /// Process 1: Q was pressed; the leave prompt must come up (`stayed`: the
    /// second time, after Esc closed it once).
    Prompt { stayed: bool, since: u32 },
    /// Process 1: Esc was pressed; the prompt must close and the battle stay.
    Stayed,
    /// Process 2: check the continued battle.
    Check,
    /// Process 2: play to the end.
    Finish,
    /// The battle is over (process 2): Q to the menu.
    Leave,
    /// Back on the menu: Q ends the program.
    Quit,
}

/// One input the driver gives, like a player would.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Input {
    /// Press (and next frame release) a key.
    Key(KeyCode),
    /// Put the pointer over a cell.
    Point(Cell),
    /// Click the left mouse button where the pointer is.
    Click,
}

/// What the driver has done and seen.
#[derive(Resource, Default)]
struct Drive {
    frame: u32,
    step: Step,
    /// Input to release next frame.
    held: Option<Input>,
    cooldown: u32,
    /// Commands in the battle when the keys took over.
    start_commands: usize,
    /// What was tried this turn: (round, stage, unit, what), so a refused input is
    /// not tried forever.
    tried: std::collections::BTreeSet<(u32, String, u32, &'static str)>,
    /// Frame the last screenshot was asked for.
    shot_at: Option<u32>,
    /// The saved battle checked (process 1) / the continued one (process 2).
    checked: bool,
}

fn key(code: KeyCode) -> Key {
    match code {
        KeyCode::Enter => Key::Enter,
        KeyCode::Space => Key::Space,
        KeyCode::Tab => Key::Tab,
        KeyCode::F5 => Key::F5,
        KeyCode::Escape => Key::Escape,
        _ => Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
    }
}

fn press(
    writer: &mut MessageWriter<KeyboardInput>,
    window: Entity,
    code: KeyCode,
    state: ButtonState,
) {
    writer.write(KeyboardInput {
        key_code: code,
        logical_key: key(code),
        state,
        text: None,
        repeat: false,
        window,
    });
}

/// Where cells are on screen: the battle camera and the map's geometry.
#[derive(bevy::ecs::system::SystemParam)]
struct Pointer<'w, 's> {
    camera: Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<MainCamera>>,
    geo: Option<Res<'w, MapGeometry>>,
}

impl Pointer<'_, '_> {
    /// The window position (logical pixels) of a cell's center.
    fn viewport_of(&self, cell: Cell) -> Option<Vec2> {
        let (camera, transform) = self.camera.single().ok()?;
        let world = self.geo.as_ref()?.center(cell).extend(0.0);
        camera.world_to_viewport(transform, world).ok()
    }
}

/// Saves a screenshot of the window to `path` (without ending the run).
fn screenshot(commands: &mut Commands, path: PathBuf) {
    commands
        .spawn(bevy::render::view::screenshot::Screenshot::primary_window())
        .observe(
            move |shot: On<bevy::render::view::screenshot::ScreenshotCaptured>| {
                if let Ok(img) = shot.image.clone().try_into_dynamic() {
                    let _ = img.to_rgb8().save(&path);
                }
            },
        );
}

/// The side to act's name, if a unit of ours or a decision of ours is awaited.
fn ours(battle: &Battle) -> bool {
    let Some(us) = battle.side_id(SIDE) else {
        return false;
    };
    match battle.awaiting() {
        Awaiting::Unit(u, _) => side_of(battle.world(), u) == us,
        Awaiting::Decision(d) => d.side == us,
        Awaiting::Over(_) => false,
    }
}

/// Those of `commands` that Blue made (a unit of Blue's, or Blue's answer).
fn by_us<'a>(battle: &'a Battle, commands: &'a [Command]) -> impl Iterator<Item = &'a Command> {
    let world = battle.world();
    let us = battle.side_id(SIDE);
    commands.iter().filter(move |c| {
        let side = match c.unit() {
            Some(u) => Some(side_of(world, u)),
            None => match c {
                Command::Seize { side, .. }
                | Command::ActNow { side, .. }
                | Command::React { side, .. }
                | Command::Pass { side } => Some(*side),
                _ => None,
            },
        };
        side.is_some() && side == us
    })
}

/// The next input of a player who, on each unit's turn, attacks a ringed enemy once,
/// else moves once toward the nearest enemy, else ends the turn; answers a decision
/// with its first option; fast-forwards the AI. `mouse`: point and click cells, else
/// the keyboard cursor and Enter.
fn next_input(
    game: &Game,
    choices: &Choices,
    ui: &UiState,
    drive: &mut Drive,
    mouse: bool,
) -> Input {
    let battle = &game.battle;
    if !human_turn(battle) {
        return Input::Key(KeyCode::KeyX);
    }
    let unit = match battle.awaiting() {
        Awaiting::Decision(_) => return Input::Key(KeyCode::Digit1),
        Awaiting::Unit(u, _) => u,
        Awaiting::Over(_) => return Input::Key(KeyCode::Space),
    };
    let board = &battle.world().resource::<Map>().0;
    let me = side_of(battle.world(), unit);
    let enemies: Vec<Cell> = battle
        .units()
        .into_iter()
        .filter(|v| !v.defeated && battle.side_id(&v.side) != Some(me))
        .map(|v| v.cell)
        .collect();
    let turn = battle.turn();
    let key = |what| (turn.round, format!("{:?}", turn.stage), unit.0, what);
    let target = choices
        .targets
        .iter()
        .find(|(_, c)| matches!(c, Command::Attack { .. }))
        .map(|(cell, _)| *cell);
    let mv = choices
        .moves
        .keys()
        .min_by_key(|c| enemies.iter().map(|e| board.distance(**c, *e)).min())
        .copied();
    let goal = match (target, mv) {
        (Some(t), _) if !drive.tried.contains(&key("attack")) => Some((t, "attack")),
        (_, Some(m)) if !drive.tried.contains(&key("move")) => Some((m, "move")),
        _ => None,
    };
    let Some((goal, what)) = goal else {
        return Input::Key(KeyCode::Space);
    };
    if mouse {
        if ui.hovered == Some(goal) {
            drive.tried.insert(key(what));
            return Input::Click;
        }
        return Input::Point(goal);
    }
    let at = ui.cursor.unwrap_or_else(|| cell_of(battle.world(), unit));
    if ui.cursor.is_none() {
        // The first cursor key starts the cursor at the unit.
        return Input::Key(if goal.x >= at.x {
            KeyCode::KeyD
        } else {
            KeyCode::KeyA
        });
    }
    Input::Key(if at.x < goal.x {
        KeyCode::KeyD
    } else if at.x > goal.x {
        KeyCode::KeyA
    } else if at.y < goal.y {
        KeyCode::KeyS
    } else if at.y > goal.y {
        KeyCode::KeyW
    } else {
        drive.tried.insert(key(what));
        KeyCode::Enter
    })
}

/// What the battle screen shows.
#[derive(bevy::ecs::system::SystemParam)]
struct Shown<'w, 's> {
    hud: Query<'w, 's, (&'static HudText, &'static Text)>,
    log: Query<'w, 's, (&'static LogRow, &'static Text)>,
    result: Query<'w, 's, (&'static Visibility, &'static Children), With<ResultScreen>>,
    texts: Query<'w, 's, &'static Text>,
}

impl Shown<'_, '_> {
    /// Whether the result screen is up, with its title ("... wins!" or "Draw").
    fn result(&self) -> bool {
        self.result.iter().next().is_some_and(|(v, children)| {
            *v == Visibility::Visible
                && children.iter().any(|c| {
                    self.texts
                        .get(c)
                        .is_ok_and(|t| t.0.contains("wins!") || t.0 == "Draw")
                })
        })
    }
}

/// The top bar's text and the log's last line on screen.
fn hud_texts(shown: &Shown) -> (String, String) {
    let (hud, log) = (&shown.hud, &shown.log);
    let top = hud
        .iter()
        .find(|(k, _)| **k == HudText::Top)
        .map(|(_, t)| t.0.clone())
        .unwrap_or_default();
    // The last row with a line (rows past the newest line are empty).
    let last = log
        .iter()
        .filter(|(_, t)| !t.0.is_empty())
        .max_by_key(|(row, _)| row.0)
        .map(|(_, t)| t.0.clone())
        .unwrap_or_default();
    (top, last)
}

/// Fails the run with `why`.
fn fail(exit: &mut MessageWriter<AppExit>, why: String) {
    eprintln!("e2e resume: {why}");
    exit.write(AppExit::error());
}

#[allow(clippy::too_many_arguments)]
fn driver(
    part: Res<Part>,
    mut drive: ResMut<Drive>,
    screen: Res<State<Screen>>,
    game: Option<Res<Game>>,
    choices: Res<Choices>,
    ui: Res<UiState>,
    seat: Res<Seat>,
    saving: (Res<SaveState>, Res<LeavePrompt>),
    mut window: Single<(Entity, &mut Window), With<PrimaryWindow>>,
    pointer: Pointer,
    shown: Shown,
    mut keys: MessageWriter<KeyboardInput>,
    mut mouse: MessageWriter<MouseButtonInput>,
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
) {
    drive.frame += 1;
    let window_id = window.0;
    match drive.held.take() {
        Some(Input::Key(k)) => {
            press(&mut keys, window_id, k, ButtonState::Released);
            drive.cooldown = 2;
            return;
        }
        Some(Input::Click) => {
            mouse.write(MouseButtonInput {
                button: MouseButton::Left,
                state: ButtonState::Released,
                window: window_id,
            });
            drive.cooldown = 2;
            return;
        }
        _ => {}
    }
    if drive.cooldown > 0 {
        drive.cooldown -= 1;
        return;
    }
    if drive.frame > GIVE_UP {
        let at = game.as_ref().map_or(String::new(), |g| {
            format!(
                " (round {}, {} commands)",
                g.battle.turn().round,
                g.battle.commands().len()
            )
        });
        return fail(
            &mut exit,
            format!(
                "gave up after {} frames at {:?}{at}",
                drive.frame, drive.step
            ),
        );
    }
    if drive.frame < 20 {
        return;
    }
    let mut input = None;
    let on_menu = *screen.get() == Screen::Setup;
    match drive.step {
        Step::Menu => {
            if !on_menu {
                let Some(game) = &game else {
                    return fail(&mut exit, "the battle started without a game".into());
                };
                drive.start_commands = game.battle.commands().len();
                drive.step = if *part == Part::First {
                    Step::Play
                } else {
                    Step::Check
                };
                drive.cooldown = 10;
                return;
            }
            // Enter starts a new battle; C continues the latest save.
            input = Some(Input::Key(if *part == Part::First {
                KeyCode::Enter
            } else {
                KeyCode::KeyC
            }));
        }
        Step::Quit => {
            if !on_menu {
                return;
            }
            // Process 1 left by Save and leave: the latest autosave is the battle
            // as it was left.
            if *part == Part::First && !drive.checked {
                drive.checked = true;
                let want = BattleFile::load(&expected()).map(|f| f.commands);
                let got = skirmish::game::saves::latest(&saves()).map(|(_, f)| f.commands);
                if want.as_ref().ok() != got.as_ref() {
                    return fail(
                        &mut exit,
                        "Save and leave did not leave the battle in the latest autosave".into(),
                    );
                }
            }
            input = Some(Input::Key(KeyCode::KeyQ));
        }
        _ if on_menu => {
            return fail(
                &mut exit,
                format!("back on the menu too early, at {:?}", drive.step),
            );
        }
        _ => {}
    }
    if let Some(game) = game.as_ref().filter(|_| input.is_none()) {
        let battle = &game.battle;
        match drive.step {
            Step::Play => {
                if !seat.seat.map_visible() {
                    input = Some(Input::Key(KeyCode::Enter));
                } else if by_us(battle, &battle.commands()[drive.start_commands..])
                    .filter(|c| matches!(c, Command::Move { .. }))
                    .count()
                    >= 1
                    && by_us(battle, &battle.commands()[drive.start_commands..]).count()
                        >= FIRST_COMMANDS
                {
                    drive.step = Step::Save;
                    return;
                } else {
                    input = Some(next_input(game, &choices, &ui, &mut drive, false));
                }
            }
            Step::Save => {
                // A turn of ours has just started and its autosave holds every
                // command: save by F5 and leave.
                let autosaved = skirmish::game::saves::latest(&saves())
                    .is_some_and(|(_, f)| f.commands.as_slice() == battle.commands());
                if ours(battle) && autosaved && matches!(battle.awaiting(), Awaiting::Unit(..)) {
                    input = Some(Input::Key(KeyCode::F5));
                    drive.step = Step::Saving;
                } else {
                    input = Some(next_input(game, &choices, &ui, &mut drive, false));
                }
            }
            Step::Saving => {
                let Some((message, error)) = &ui.message else {
                    return;
                };
                if *error || !message.starts_with("Saved to") {
                    return fail(&mut exit, format!("F5 did not save: {message}"));
                }
                let quick = saves().join(skirmish::game::saves::QUICKSAVE);
                match BattleFile::load(&quick) {
                    Ok(f) if f.commands.as_slice() == battle.commands() => {}
                    Ok(f) => {
                        return fail(
                            &mut exit,
                            format!(
                                "the quicksave has {} commands, the battle {}",
                                f.commands.len(),
                                battle.commands().len()
                            ),
                        );
                    }
                    Err(e) => return fail(&mut exit, e),
                }
                screenshot(&mut commands, shot("saved"));
                drive.step = Step::Unsaved;
                drive.cooldown = 10;
                return;
            }
            Step::Unsaved => {
                if saving.0.unsaved(game).is_some()
                    && ours(battle)
                    && matches!(battle.awaiting(), Awaiting::Unit(..))
                {
                    input = Some(Input::Key(KeyCode::KeyQ));
                    drive.step = Step::Prompt {
                        stayed: false,
                        since: drive.frame,
                    };
                } else {
                    input = Some(next_input(game, &choices, &ui, &mut drive, false));
                }
            }
            Step::Prompt { stayed, since } => {
                let up = saving.1.open.is_some()
                    && shown
                        .texts
                        .iter()
                        .any(|t| t.0.starts_with("Leave the battle?"));
                if !up {
                    if drive.frame > since + 120 {
                        return fail(&mut exit, "Q opened no leave prompt".into());
                    }
                    return;
                }
                if !stayed {
                    // Look at it, then Esc: stay.
                    screenshot(&mut commands, shot("prompt"));
                    drive.cooldown = 10;
                    input = Some(Input::Key(KeyCode::Escape));
                    drive.step = Step::Stayed;
                } else {
                    // What Save and leave must save, for process 2 to compare with.
                    if let Err(e) = game.battle_file().save(&expected()) {
                        return fail(&mut exit, e);
                    }
                    input = Some(Input::Key(KeyCode::Digit1));
                    drive.step = Step::Quit;
                }
            }
            Step::Stayed => {
                if saving.1.open.is_some() {
                    return;
                }
                if saving.0.unsaved(game).is_none() {
                    return fail(&mut exit, "Stay saved or lost the battle".into());
                }
                input = Some(Input::Key(KeyCode::KeyQ));
                drive.step = Step::Prompt {
                    stayed: true,
                    since: drive.frame,
                };
            }
            Step::Check => {
                // The continued battle: where process 1 left it.
                let want = match BattleFile::load(&expected()) {
                    Ok(f) => f,
                    Err(e) => return fail(&mut exit, e),
                };
                if battle.commands() != want.commands.as_slice() {
                    return fail(
                        &mut exit,
                        format!(
                            "continued with {} commands, process 1 left {}",
                            battle.commands().len(),
                            want.commands.len()
                        ),
                    );
                }
                let quick = BattleFile::load(&saves().join(skirmish::game::saves::QUICKSAVE));
                if quick.is_ok_and(|q| q.commands.len() >= want.commands.len()) {
                    return fail(
                        &mut exit,
                        "process 1 made no command after F5: Save and leave went untested".into(),
                    );
                }
                let Ok(replayed) = want.replay() else {
                    return fail(&mut exit, "the expected battle does not replay".into());
                };
                let round = format!("Round {}", replayed.turn().round);
                // The log panel's last line, as the HUD writes it.
                let last_line = replayed
                    .events()
                    .iter()
                    .filter(|e| !matches!(e, skirmish::engine::event::Event::TurnEnded { .. }))
                    .filter_map(|e| skirmish::engine::log::line(replayed.world(), e))
                    .last()
                    .map(|l| skirmish::game::theme::ascii(&l).into_owned())
                    .unwrap_or_default();
                let (top, last) = hud_texts(&shown);
                if !drive.checked {
                    // Give the HUD a few frames to draw the continued battle.
                    drive.checked = true;
                    drive.cooldown = 10;
                    return;
                }
                if !top.contains(&round) || !top.contains("The Ford") {
                    return fail(
                        &mut exit,
                        format!("the top bar says {top:?}, not {round:?}"),
                    );
                }
                if last != last_line || last.is_empty() {
                    return fail(
                        &mut exit,
                        format!(
                            "the log's last line is {last:?}, the saved battle's {last_line:?}"
                        ),
                    );
                }
                println!(
                    "e2e resume: continued at {round} with {} commands; log ends {last:?}",
                    want.commands.len()
                );
                screenshot(&mut commands, shot("continued"));
                drive.step = Step::Finish;
                drive.cooldown = 10;
                return;
            }
            Step::Finish => {
                if let Awaiting::Over(_) = battle.awaiting() {
                    if !shown.result() {
                        return;
                    }
                    let frame = drive.frame;
                    let at = *drive.shot_at.get_or_insert(frame);
                    if drive.frame == at {
                        screenshot(&mut commands, shot("result"));
                        println!(
                            "e2e resume: finished after {} commands, round {}",
                            battle.commands().len(),
                            battle.turn().round
                        );
                    }
                    if drive.frame >= at + 10 {
                        drive.step = Step::Leave;
                    }
                    return;
                }
                input = Some(if seat.seat.map_visible() {
                    next_input(game, &choices, &ui, &mut drive, true)
                } else {
                    Input::Key(KeyCode::Enter)
                });
            }
            Step::Leave => {
                input = Some(Input::Key(KeyCode::KeyQ));
                drive.step = Step::Quit;
            }
            Step::Menu | Step::Quit => {}
        }
    }
    let Some(input) = input else { return };
    match input {
        Input::Key(k) => {
            press(&mut keys, window_id, k, ButtonState::Pressed);
            drive.held = Some(input);
        }
        Input::Point(cell) => {
            let Some(at) = pointer.viewport_of(cell) else {
                return fail(&mut exit, format!("cell {cell} is not on screen"));
            };
            window.1.set_cursor_position(Some(at));
            drive.cooldown = 3;
        }
        Input::Click => {
            mouse.write(MouseButtonInput {
                button: MouseButton::Left,
                state: ButtonState::Pressed,
                window: window_id,
            });
            drive.held = Some(input);
        }
    }
}

/// Runs one part in this process.
fn run_part(part: Part) -> Result<(), String> {
    let mut app = skirmish::game::build_app(GameOptions {
        level_path: LEVEL.into(),
        size: (1280, 720),
        seed: Some(7),
        start: Screen::Setup,
        saves: Some(saves()),
        ..Default::default()
    })?;
    app.insert_resource(part);
    app.init_resource::<Drive>();
    app.add_systems(Update, driver);
    let result = app.run();
    if !matches!(result, AppExit::Success) {
        return Err(format!("{part:?}: the drive did not complete: {result:?}"));
    }
    Ok(())
}

/// Runs part `n` (1 or 2) in this process (a child of [`run_child`]).
pub fn run_part_child(n: usize) {
    let part = if n == 1 { Part::First } else { Part::Second };
    if let Err(e) = run_part(part) {
        eprintln!("window e2e test: resume: {e}");
        std::process::exit(1);
    }
}

fn check_shot(path: &Path) -> Result<(), String> {
    let img = image::open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?
        .to_rgb8();
    let distinct: std::collections::BTreeSet<[u8; 3]> =
        img.pixels().step_by(7).map(|p| p.0).collect();
    if img.dimensions() != (1280, 720) || distinct.len() < 50 {
        return Err(format!("{} is blank or the wrong size", path.display()));
    }
    Ok(())
}

/// The whole case: process 1 then process 2, each a child of this one (one event
/// loop per process), sharing a fresh saves folder.
pub fn run_child() {
    let _ = std::fs::remove_dir_all(dir());
    std::fs::create_dir_all(saves()).expect("the saves folder");
    for name in ["saved", "prompt", "continued", "result"] {
        let _ = std::fs::remove_file(shot(name));
    }
    let exe = std::env::current_exe().expect("the test binary");
    for n in ["1", "2"] {
        let status = Process::new(&exe)
            .args(["--resume-part", n])
            .status()
            .expect("run a part");
        if !status.success() {
            eprintln!("window e2e test: resume: process {n} failed");
            std::process::exit(1);
        }
    }
    for name in ["saved", "prompt", "continued", "result"] {
        if let Err(e) = check_shot(&shot(name)) {
            eprintln!("window e2e test: resume: {e}");
            std::process::exit(1);
        }
    }
    println!(
        "window e2e test: resume ok (screenshots {})",
        shot("continued").display()
    );
}
