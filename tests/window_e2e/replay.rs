//! End-to-end: the replay viewer (issue 16) in a real window, driven by real key
//! presses. A simulated battle of The Ford is saved as a battle file (what `skirmish
//! sim --save-battle` writes) and opened with `skirmish replay`'s options; `.` steps
//! three commands forward, `,` one back, Shift+`.` to the next turn, End to the
//! end; after each key the battle shown must be the file's battle after that many
//! commands (its log and units), and nothing may be played by the AI or the keys
//! in between. Screenshots: `e2e-replay.png` (mid-battle) and `-end.png`.

use std::path::PathBuf;

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use skirmish::game::replay_view::Replay;
use skirmish::game::{Game, GameOptions};

const SHOT: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/e2e-replay.png");

/// The keys pressed, in order, and how many commands each must leave shown (`None`:
/// the timeline's answer, worked out from the file).
#[derive(Resource, Default)]
struct Drive {
    frame: u32,
    step: usize,
    held: Option<(KeyCode, bool)>,
    wait: u32,
    expected: Vec<usize>,
    shot: bool,
}

fn press(w: &mut MessageWriter<KeyboardInput>, window: Entity, code: KeyCode, state: ButtonState) {
    w.write(KeyboardInput {
        key_code: code,
        logical_key: Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
        state,
        text: None,
        repeat: false,
        window,
    });
}

/// (key, with Shift)
const KEYS: [(KeyCode, bool); 6] = [
    (KeyCode::Period, false),
    (KeyCode::Period, false),
    (KeyCode::Period, false),
    (KeyCode::Comma, false),
    (KeyCode::Period, true),
    (KeyCode::End, false),
];

#[allow(clippy::too_many_arguments)]
fn driver(
    mut drive: ResMut<Drive>,
    replay: Res<Replay>,
    game: Res<Game>,
    window: Single<Entity, With<PrimaryWindow>>,
    mut keys: MessageWriter<KeyboardInput>,
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
) {
    drive.frame += 1;
    if drive.frame > 3000 {
        eprintln!("e2e replay: gave up at key {}", drive.step);
        exit.write(AppExit::error());
        return;
    }
    if let Some((k, shift)) = drive.held.take() {
        press(&mut keys, *window, k, ButtonState::Released);
        if shift {
            press(
                &mut keys,
                *window,
                KeyCode::ShiftLeft,
                ButtonState::Released,
            );
        }
        drive.wait = 4;
        return;
    }
    if drive.wait > 0 {
        drive.wait -= 1;
        return;
    }
    if drive.frame < 30 {
        return;
    }
    // Check what the last key left on screen.
    if drive.step > 0 && drive.step <= KEYS.len() {
        let want = drive.expected[drive.step - 1];
        let shown = game.battle.commands().len();
        if replay.at != want || shown != want {
            eprintln!(
                "e2e replay: after key {} the viewer shows {} commands ({} in the battle); \
                 expected {want}",
                drive.step, replay.at, shown
            );
            exit.write(AppExit::error());
            return;
        }
        let file_battle = replay.file.battle_at(want).expect("the file replays");
        let log = |b: &skirmish::engine::Battle| skirmish::script::log_lines(b);
        if log(&game.battle) != log(&file_battle) {
            eprintln!(
                "e2e replay: the log shown after key {} is not the file's",
                drive.step
            );
            exit.write(AppExit::error());
            return;
        }
        if drive.step == 4 && !drive.shot {
            drive.shot = true;
            screenshot(&mut commands, PathBuf::from(SHOT));
            drive.wait = 10;
            return;
        }
    }
    if drive.step == KEYS.len() {
        let path = PathBuf::from(SHOT.replace(".png", "-end.png"));
        commands
            .spawn(bevy::render::view::screenshot::Screenshot::primary_window())
            .observe(
                move |shot: On<bevy::render::view::screenshot::ScreenshotCaptured>,
                      mut exit: MessageWriter<AppExit>| {
                    if let Ok(img) = shot.image.clone().try_into_dynamic() {
                        let _ = img.to_rgb8().save(&path);
                    }
                    exit.write(AppExit::Success);
                },
            );
        drive.step += 1;
        return;
    }
    if drive.step > KEYS.len() {
        return;
    }
    let (k, shift) = KEYS[drive.step];
    if shift {
        press(&mut keys, *window, KeyCode::ShiftLeft, ButtonState::Pressed);
    }
    press(&mut keys, *window, k, ButtonState::Pressed);
    drive.held = Some((k, shift));
    drive.step += 1;
}

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

fn run() -> Result<(), String> {
    let level = skirmish::level::load_file(std::path::Path::new("levels/ford.ron"))
        .map_err(|p| format!("{p:?}"))?;
    let policies = [
        skirmish::level::schema::AiPolicy::Normal,
        skirmish::level::schema::AiPolicy::Normal,
    ];
    let (_, file) = skirmish::ai::sim::play_recorded(&level, 7, &policies, 2000, None)?;
    let path = std::env::temp_dir().join(format!("skirmish-e2e-{}.battle.ron", std::process::id()));
    file.save(&path)?;
    // What each key must leave shown.
    let timeline = file.timeline().map_err(|e| e.to_string())?;
    let n = timeline.commands();
    let mut at = 0usize;
    let mut expected = Vec::new();
    for (k, shift) in KEYS {
        at = match (k, shift) {
            (KeyCode::Period, false) => (at + 1).min(n),
            (KeyCode::Comma, false) => at.saturating_sub(1),
            (KeyCode::Period, true) => timeline.next_turn(at),
            _ => n,
        };
        expected.push(at);
    }
    println!("e2e replay: {n} commands; the keys must show {expected:?}");
    let mut app = skirmish::game::build_app(GameOptions {
        size: (1280, 720),
        any_thread: true,
        start: skirmish::game::screen::Screen::Battle,
        replay: Some(path.clone()),
        ..Default::default()
    })?;
    app.insert_resource(Drive {
        expected,
        ..default()
    });
    app.add_systems(Update, driver);
    let result = app.run();
    let _ = std::fs::remove_file(&path);
    if !matches!(result, AppExit::Success) {
        return Err(format!("the drive did not complete: {result:?}"));
    }
    Ok(())
}

/// Runs the replay case in this process (a child of [`crate::main`]).
pub fn run_child() {
    match run() {
        Ok(()) => println!("window e2e test: replay viewer ok (screenshot {SHOT})"),
        Err(e) => {
            eprintln!("window e2e test: replay viewer: {e}");
            std::process::exit(1);
        }
    }
}
