//! End-to-end: the level editor in a real window (Xvfb + software Vulkan), driven
//! by real input messages (keyboard, mouse buttons, cursor moves): picks a terrain,
//! paints a stroke with the mouse, places a unit from a template, saves with
//! Ctrl+S, saves a copy with Ctrl+Shift+S and a typed path, playtests with F5 and
//! comes back with Q. Then the saved files must load, pass `skirmish check` and
//! contain the painted terrain and the unit.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::process::Command as Process;

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput, NativeKey, NativeKeyCode};
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::window::{CursorMoved, PrimaryWindow};
use skirmish::engine::board::{Cell, Terrain};
use skirmish::game::GameOptions;
use skirmish::game::editor::state::Editor;
use skirmish::game::editor::view::EditorMap;
use skirmish::game::layout::MainCamera;
use skirmish::game::screen::Screen;

/// What the driver can see to decide whether to go on.
struct View<'a> {
    ed: &'a Editor,
    screen: Screen,
}

/// One thing the driver does in a frame.
enum Step {
    /// Do nothing for a frame.
    Idle,
    /// Press or release a key.
    Key(KeyCode, ButtonState),
    /// Type one character.
    Char(char),
    /// Press or release the left mouse button.
    Mouse(ButtonState),
    /// Move the pointer to a cell's center.
    MoveTo(Cell),
    /// Wait until the condition holds (fails the test after many frames).
    Until(&'static str, fn(&View) -> bool),
}

fn tap(steps: &mut VecDeque<Step>, code: KeyCode) {
    steps.push_back(Step::Key(code, ButtonState::Pressed));
    steps.push_back(Step::Key(code, ButtonState::Released));
    steps.push_back(Step::Idle);
}

fn chord(steps: &mut VecDeque<Step>, modifiers: &[KeyCode], code: KeyCode) {
    for m in modifiers {
        steps.push_back(Step::Key(*m, ButtonState::Pressed));
    }
    tap(steps, code);
    for m in modifiers.iter().rev() {
        steps.push_back(Step::Key(*m, ButtonState::Released));
    }
    steps.push_back(Step::Idle);
}

fn until(steps: &mut VecDeque<Step>, what: &'static str, f: fn(&View) -> bool) {
    steps.push_back(Step::Until(what, f));
}

/// The drive: a queue of steps and where it is.
#[derive(Resource)]
struct Drive {
    steps: VecDeque<Step>,
    frame: u32,
    waited: u32,
}

fn saved_as() -> PathBuf {
    work_dir().join("saved-as.ron")
}

fn work_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("editor-e2e")
}

fn script() -> VecDeque<Step> {
    let mut s = VecDeque::new();
    until(&mut s, "the editor shows the level", |v| {
        v.screen == Screen::Editor && v.ed.generation > 0 && v.ed.modal.is_none()
    });
    for _ in 0..20 {
        s.push_back(Step::Idle);
    }
    // Terrain picker: Impassable (the default) -> Water -> Climb -> Open ->
    // Difficult.
    for _ in 0..4 {
        tap(&mut s, KeyCode::KeyT);
    }
    until(&mut s, "Difficult is picked", |v| {
        v.ed.terrain == Terrain::Difficult
    });
    // One drag stroke with the brush over (0,0) .. (2,0).
    s.push_back(Step::MoveTo(Cell::new(0, 0)));
    s.push_back(Step::Idle);
    s.push_back(Step::Mouse(ButtonState::Pressed));
    s.push_back(Step::Idle);
    s.push_back(Step::MoveTo(Cell::new(1, 0)));
    s.push_back(Step::Idle);
    s.push_back(Step::MoveTo(Cell::new(2, 0)));
    s.push_back(Step::Idle);
    s.push_back(Step::Mouse(ButtonState::Released));
    s.push_back(Step::Idle);
    until(&mut s, "the stroke is painted", |v| {
        v.ed.doc.level().terrain[0].starts_with("~~~.") && v.ed.doc.can_undo()
    });
    // Place an Archer (the first template) for Blue on (5, 3).
    tap(&mut s, KeyCode::KeyU);
    tap(&mut s, KeyCode::Period);
    until(&mut s, "the Archer template is picked", |v| {
        v.ed.template_name() == "Archer"
    });
    s.push_back(Step::MoveTo(Cell::new(5, 3)));
    s.push_back(Step::Idle);
    s.push_back(Step::Mouse(ButtonState::Pressed));
    s.push_back(Step::Idle);
    s.push_back(Step::Mouse(ButtonState::Released));
    until(&mut s, "the unit is placed", |v| {
        v.ed.doc.unit_at(Cell::new(5, 3)).is_some()
    });
    // Raise its Tier with + (the form's rows: Name, Side, INT, AGI, ATK, DEF, Tier).
    for _ in 0..6 {
        tap(&mut s, KeyCode::KeyJ);
    }
    tap(&mut s, KeyCode::Equal);
    until(&mut s, "Tier went up", |v| {
        let ed = v.ed;
        ed.doc
            .unit_at(Cell::new(5, 3))
            .and_then(|i| ed.doc.level().units[i].stats.get("Tier").copied())
            == Some(2)
    });
    // Save (Ctrl+S).
    chord(&mut s, &[KeyCode::ControlLeft], KeyCode::KeyS);
    until(&mut s, "saved", |v| {
        !v.ed.doc.is_dirty()
            && v.ed
                .status
                .as_ref()
                .is_some_and(|(m, err)| !err && m.starts_with("Saved"))
    });
    // Save as (Ctrl+Shift+S), clearing the field and typing a new path.
    chord(
        &mut s,
        &[KeyCode::ControlLeft, KeyCode::ShiftLeft],
        KeyCode::KeyS,
    );
    until(&mut s, "the save-as field is open", |v| {
        v.ed.typing.is_some()
    });
    for _ in 0..300 {
        s.push_back(Step::Key(KeyCode::Backspace, ButtonState::Pressed));
        s.push_back(Step::Key(KeyCode::Backspace, ButtonState::Released));
    }
    for c in saved_as().display().to_string().chars() {
        s.push_back(Step::Char(c));
    }
    tap(&mut s, KeyCode::Enter);
    until(&mut s, "saved as", |v| {
        v.ed.doc.path() == Some(saved_as().as_path()) && v.ed.modal.is_none()
    });
    // Playtest and come back.
    tap(&mut s, KeyCode::F5);
    until(&mut s, "the playtest battle runs", |v| {
        v.screen == Screen::Battle
    });
    for _ in 0..30 {
        s.push_back(Step::Idle);
    }
    tap(&mut s, KeyCode::KeyQ);
    until(&mut s, "back in the editor with the level intact", |v| {
        v.screen == Screen::Editor
            && v.ed.doc.unit_at(Cell::new(5, 3)).is_some()
            && v.ed.doc.level().terrain[0].starts_with("~~~.")
    });
    for _ in 0..10 {
        s.push_back(Step::Idle);
    }
    s
}

#[allow(clippy::too_many_arguments)]
fn driver(
    mut drive: ResMut<Drive>,
    ed: Option<Res<Editor>>,
    screen: Res<State<Screen>>,
    map: Option<Res<EditorMap>>,
    camera: Single<(&Camera, &GlobalTransform), With<MainCamera>>,
    window: Single<Entity, With<PrimaryWindow>>,
    mut keys: MessageWriter<KeyboardInput>,
    mut mouse: MessageWriter<MouseButtonInput>,
    mut cursor: MessageWriter<CursorMoved>,
    mut exit: MessageWriter<AppExit>,
) {
    drive.frame += 1;
    if drive.frame < 10 {
        return;
    }
    let Some(ed) = ed else { return };
    let view = View {
        ed: &ed,
        screen: *screen.get(),
    };
    let window = *window;
    let Some(step) = drive.steps.pop_front() else {
        exit.write(AppExit::Success);
        return;
    };
    match step {
        Step::Idle => {}
        Step::Key(code, state) => {
            keys.write(KeyboardInput {
                key_code: code,
                logical_key: match code {
                    KeyCode::Enter => Key::Enter,
                    KeyCode::Backspace => Key::Backspace,
                    _ => Key::Unidentified(NativeKey::Unidentified),
                },
                state,
                text: None,
                repeat: false,
                window,
            });
        }
        Step::Char(c) => {
            let code = KeyCode::Unidentified(NativeKeyCode::Unidentified);
            for state in [ButtonState::Pressed, ButtonState::Released] {
                keys.write(KeyboardInput {
                    key_code: code,
                    logical_key: Key::Character(c.to_string().into()),
                    state,
                    text: (state == ButtonState::Pressed).then(|| c.to_string().into()),
                    repeat: false,
                    window,
                });
            }
        }
        Step::Mouse(state) => {
            mouse.write(MouseButtonInput {
                button: MouseButton::Left,
                state,
                window,
            });
        }
        Step::MoveTo(cell) => {
            let Some(map) = map else {
                drive.steps.push_front(Step::MoveTo(cell));
                return;
            };
            let (camera, transform) = *camera;
            let world = map.geo.center(cell).extend(0.0);
            let position = camera
                .world_to_viewport(transform, world)
                .expect("cell on screen");
            cursor.write(CursorMoved {
                window,
                position,
                delta: None,
            });
        }
        Step::Until(what, f) => {
            if !f(&view) {
                drive.waited += 1;
                if drive.waited > 1200 {
                    eprintln!(
                        "editor e2e: gave up waiting for: {what} (status {:?})",
                        ed.status
                    );
                    exit.write(AppExit::error());
                    return;
                }
                drive.steps.push_front(Step::Until(what, f));
            } else {
                println!("editor e2e: {what} (frame {})", drive.frame);
                drive.waited = 0;
            }
        }
    }
}

/// Runs `skirmish check` on `path`; returns its output on failure.
fn check(path: &Path) -> Result<(), String> {
    let out = Process::new(env!("CARGO_BIN_EXE_skirmish"))
        .arg("check")
        .arg(path)
        .output()
        .map_err(|e| format!("cannot run skirmish check: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "skirmish check {} failed:\n{}{}",
            path.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

fn verify(path: &Path) -> Result<(), String> {
    check(path)?;
    let level = skirmish::level::load_file(path).map_err(|p| format!("{p:?}"))?;
    let row = level.terrain.first().cloned().unwrap_or_default();
    if !row.starts_with("~~~.") {
        return Err(format!("{}: row 0 is `{row}`, not painted", path.display()));
    }
    let archer = level
        .units
        .iter()
        .find(|u| u.pos == (5, 3))
        .ok_or_else(|| format!("{}: no unit on (5, 3)", path.display()))?;
    if archer.name != "Archer" || archer.side != "Blue" || archer.stats.get("Tier") != Some(&2) {
        return Err(format!("{}: unexpected unit {archer:?}", path.display()));
    }
    if level.units.len() != 5 {
        return Err(format!("{}: {} units", path.display(), level.units.len()));
    }
    Ok(())
}

/// Runs the editor drive in this process (a child of [`crate::main`]).
pub fn run_child() {
    let dir = work_dir();
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let level = dir.join("level.ron");
    std::fs::copy("levels/ford.ron", &level).expect("copy the level");
    let mut app = skirmish::game::build_app(GameOptions {
        level_path: level.clone(),
        size: (1280, 720),
        start: Screen::Editor,
        ..Default::default()
    })
    .expect("the editor builds");
    app.insert_resource(Drive {
        steps: script(),
        frame: 0,
        waited: 0,
    });
    app.add_systems(Update, driver);
    let result = app.run();
    if !matches!(result, AppExit::Success) {
        eprintln!("editor e2e test: the drive did not complete: {result:?}");
        std::process::exit(1);
    }
    for path in [&level, &saved_as()] {
        if let Err(e) = verify(path) {
            eprintln!("editor e2e test: {e}");
            std::process::exit(1);
        }
    }
    if !dir.join("level.ron.bak").exists() {
        eprintln!("editor e2e test: saving kept no backup of the old file");
        std::process::exit(1);
    }
    println!("editor e2e test: ok");
}
