//! The editor's input: actions and panel buttons become [`Editor`] operations;
//! typed text goes to the active text field; dialogs take their own keys. It also
//! starts playtests (a battle on the level being edited that returns here) and
//! quits.

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

use super::input::{EditorAction, EditorInput};
use super::panels::ButtonAct;
use super::state::{Editor, Guarded, Modal, Outcome, Tool};
use crate::game::screen::{ReturnTo, Screen};
use crate::game::{Game, Options};

/// The directory the Open dialog lists.
pub const LEVELS_DIR: &str = "levels";

/// A key press for text fields and dialogs: the key and the text it types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Typed {
    /// The physical key.
    pub code: KeyCode,
    /// The text typed, if any.
    pub text: Option<String>,
}

/// Feeds one key press to the text field being typed into.
pub fn type_key(ed: &mut Editor, key: &Typed) -> Outcome {
    match key.code {
        KeyCode::Enter | KeyCode::NumpadEnter => return ed.commit_text(),
        KeyCode::Escape => ed.cancel(),
        KeyCode::Backspace => {
            if let Some(t) = &mut ed.typing {
                t.buffer.pop();
            }
        }
        _ => {
            if let (Some(t), Some(text)) = (&mut ed.typing, &key.text) {
                t.buffer.extend(text.chars().filter(|c| !c.is_control()));
            }
        }
    }
    Outcome::None
}

/// Feeds one key press to a dialog without a text field (new level, confirm).
pub fn dialog_key(ed: &mut Editor, code: KeyCode) -> Outcome {
    match ed.modal.clone() {
        Some(Modal::Confirm(action)) => match code {
            KeyCode::KeyY => return ed.perform(action),
            KeyCode::KeyN | KeyCode::Escape => ed.cancel(),
            _ => {}
        },
        Some(Modal::NewLevel(mut new)) => {
            match code {
                KeyCode::KeyG => new.toggle_grid(),
                KeyCode::KeyR => new.next_ruleset(),
                KeyCode::ArrowLeft => new.resize(-1, 0),
                KeyCode::ArrowRight => new.resize(1, 0),
                KeyCode::ArrowDown => new.resize(0, -1),
                KeyCode::ArrowUp => new.resize(0, 1),
                KeyCode::Enter | KeyCode::NumpadEnter => {
                    ed.create(&new);
                    return Outcome::None;
                }
                KeyCode::Escape => {
                    ed.cancel();
                    return Outcome::None;
                }
                _ => return Outcome::None,
            }
            ed.modal = Some(Modal::NewLevel(new));
        }
        _ => {}
    }
    Outcome::None
}

/// Does what a panel button does.
pub fn press_button(ed: &mut Editor, act: &ButtonAct) -> Outcome {
    match act.clone() {
        ButtonAct::Tool(t) => ed.set_tool(t),
        ButtonAct::Terrain(t) => ed.set_terrain(t),
        ButtonAct::Brush(d) => ed.resize_brush(d),
        ButtonAct::Template(i) => {
            ed.template = i;
            ed.cycle_template(0);
            ed.tool = Tool::Unit;
        }
        ButtonAct::Side(i) if ed.side == i => ed.edit_side_name(),
        ButtonAct::Side(i) => {
            ed.side = i;
            let name = ed.doc.level().sides.get(i).map(|s| s.name.clone());
            ed.ok(format!("Side: {}", name.unwrap_or_default()));
        }
        ButtonAct::Controller(i) => {
            ed.side = i;
            ed.cycle_controller();
        }
        ButtonAct::Decisions(i) => {
            ed.side = i;
            ed.cycle_decisions();
        }
        ButtonAct::RenameSide(i) => {
            ed.side = i;
            ed.edit_side_name();
        }
        ButtonAct::SideTraits(i) => {
            ed.side = i;
            ed.edit_side_traits();
        }
        ButtonAct::AddSide => ed.add_side(),
        ButtonAct::RemoveSide => ed.remove_side(),
        ButtonAct::Field(i) => {
            ed.field = i;
            ed.edit_field();
        }
        ButtonAct::DeleteUnit => ed.delete_selected(),
        ButtonAct::Problem(i) => ed.jump_to_problem(i),
        ButtonAct::Undo => ed.undo(),
        ButtonAct::Redo => ed.redo(),
        ButtonAct::Save => ed.save(),
        ButtonAct::SaveAs => ed.open_save_as(),
        ButtonAct::Open => ed.open_dialog(std::path::Path::new(LEVELS_DIR)),
        ButtonAct::New => return ed.request(Guarded::New),
        ButtonAct::Playtest => return ed.playtest(),
        ButtonAct::OpenFile(path) => {
            ed.modal = None;
            ed.typing = None;
            return ed.request(Guarded::Open(path));
        }
        ButtonAct::Yes => {
            return match ed.modal.clone() {
                Some(Modal::Confirm(_)) => dialog_key(ed, KeyCode::KeyY),
                Some(Modal::NewLevel(_)) => dialog_key(ed, KeyCode::Enter),
                _ => Outcome::None,
            };
        }
        ButtonAct::No => ed.cancel(),
        ButtonAct::NewGrid => return dialog_key(ed, KeyCode::KeyG),
        ButtonAct::NewRuleset => return dialog_key(ed, KeyCode::KeyR),
        ButtonAct::NewSize(dw, dh) => {
            if let Some(Modal::NewLevel(new)) = &mut ed.modal {
                new.resize(dw, dh);
            }
        }
    }
    Outcome::None
}

/// Does what an action does (outside text fields and dialogs). `cell` is the cell
/// under the pointer or the cursor.
pub fn act(ed: &mut Editor, action: EditorAction) -> Outcome {
    use EditorAction as A;
    match action {
        A::Apply => {
            if let Some(cell) = ed.hovered {
                ed.press(cell);
            }
        }
        A::Cancel => ed.cancel(),
        A::ToolBrush => ed.set_tool(Tool::Brush),
        A::ToolRect => ed.set_tool(Tool::Rect),
        A::ToolFill => ed.set_tool(Tool::Fill),
        A::ToolUnit => ed.set_tool(Tool::Unit),
        A::ToolSelect => ed.set_tool(Tool::Select),
        A::NextTerrain => ed.cycle_terrain(),
        A::BrushSmaller => ed.resize_brush(-1),
        A::BrushBigger => ed.resize_brush(1),
        A::PrevTemplate => ed.cycle_template(-1),
        A::NextTemplate => ed.cycle_template(1),
        A::DeleteUnit => ed.delete_selected(),
        A::CursorUp => ed.move_cursor(0, -1),
        A::CursorDown => ed.move_cursor(0, 1),
        A::CursorLeft => ed.move_cursor(-1, 0),
        A::CursorRight => ed.move_cursor(1, 0),
        A::PrevField => ed.move_field(-1),
        A::NextField => ed.move_field(1),
        A::Increase => ed.adjust(1),
        A::Decrease => ed.adjust(-1),
        A::EditField => ed.edit_field(),
        A::NextSide => ed.cycle_side(),
        A::AddSide => ed.add_side(),
        A::RemoveSide => ed.remove_side(),
        A::RenameSide => ed.edit_side_name(),
        A::CycleController => ed.cycle_controller(),
        A::CycleDecisions => ed.cycle_decisions(),
        A::EditSideTraits => ed.edit_side_traits(),
        A::NextProblem => ed.next_problem(),
        A::Undo => ed.undo(),
        A::Redo => ed.redo(),
        A::Save => ed.save(),
        A::SaveAs => ed.open_save_as(),
        A::Open => ed.open_dialog(std::path::Path::new(LEVELS_DIR)),
        A::New => return ed.request(Guarded::New),
        A::Playtest => return ed.playtest(),
        A::Quit => return ed.request(Guarded::Quit),
        // The camera handles these (`EditorAction::is_camera`).
        A::PanUp | A::PanDown | A::PanLeft | A::PanRight | A::ZoomIn | A::ZoomOut | A::FitMap => {}
    }
    Outcome::None
}

/// The actions handled by [`act`] on a fresh press: every action but the camera's
/// (the camera system reads those), with Apply last so a tool or template picked in
/// the same frame applies (Apply's hold and release are handled separately).
fn on_press() -> impl Iterator<Item = EditorAction> {
    EditorAction::ALL
        .into_iter()
        .filter(|a| !a.is_camera() && *a != EditorAction::Apply)
        .chain([EditorAction::Apply])
}

/// Reads keys, actions and button clicks and applies them.
#[allow(clippy::too_many_arguments)]
fn handle_input(
    actions: Single<&ActionState<EditorAction>, With<EditorInput>>,
    mut keys: MessageReader<KeyboardInput>,
    buttons: Query<(&Interaction, &ButtonAct), Changed<Interaction>>,
    mut ed: ResMut<Editor>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut return_to: ResMut<ReturnTo>,
    mut exit: MessageWriter<AppExit>,
    options: Res<Options>,
    held: Res<ButtonInput<KeyCode>>,
    mut settle: Local<bool>,
) {
    // Always drain the key messages, so a key that opens a text field is not typed
    // into it next frame.
    let typed: Vec<Typed> = keys
        .read()
        .filter(|k| k.state == ButtonState::Pressed)
        .map(|k| Typed {
            code: k.key_code,
            text: k
                .text
                .as_ref()
                .map(|t| t.to_string())
                .or(match &k.logical_key {
                    Key::Character(c) => Some(c.to_string()),
                    Key::Space => Some(" ".into()),
                    _ => None,
                }),
        })
        .collect();
    let mut outcomes = Vec::new();
    for (interaction, act) in &buttons {
        if *interaction == Interaction::Pressed {
            outcomes.push(press_button(&mut ed, act));
        }
    }
    // After a text field or dialog took keys, actions wait until every key is up,
    // so the Enter that closed a field does not also act on the editor.
    if ed.typing.is_some() || ed.modal.is_some() || !outcomes.is_empty() {
        *settle = true;
    } else if *settle && held.get_pressed().next().is_none() {
        *settle = false;
    }
    if outcomes.is_empty() {
        if ed.typing.is_some() {
            for key in &typed {
                if ed.typing.is_none() {
                    break;
                }
                outcomes.push(type_key(&mut ed, key));
            }
        } else if ed.modal.is_some() {
            for key in &typed {
                outcomes.push(dialog_key(&mut ed, key.code));
            }
        } else if !*settle {
            let a = *actions;
            for action in on_press() {
                if a.just_pressed(&action) {
                    outcomes.push(act(&mut ed, action));
                }
            }
            if a.pressed(&EditorAction::Apply)
                && !a.just_pressed(&EditorAction::Apply)
                && let Some(cell) = ed.hovered
            {
                ed.drag_to(cell);
            }
            if a.just_released(&EditorAction::Apply) && ed.drag.is_some() {
                let cell = ed.hovered;
                ed.release(cell);
            }
        }
    }
    for outcome in outcomes {
        match outcome {
            Outcome::None => {}
            Outcome::Quit => {
                exit.write(AppExit::Success);
            }
            Outcome::Playtest(level) => {
                let seed = options.0.seed.or(level.seed).unwrap_or(1);
                match Game::new(*level, seed) {
                    Ok(game) => {
                        commands.insert_resource(game);
                        *return_to = ReturnTo::Editor;
                        next.set(Screen::Battle);
                        ed.ok("Playtest: Q (or Quit on the result screen) returns here");
                    }
                    Err(e) => ed.err(format!("Can't playtest: {e}")),
                }
            }
        }
    }
    ed.refresh();
}

/// The window's close button: with unsaved editor changes (also during a playtest)
/// it asks first, like Ctrl+Q, back in the editor; in a battle with commands no save
/// holds it opens the leave prompt (`crate::game::leave`); otherwise the program
/// ends.
pub fn close_requested(
    mut requests: MessageReader<bevy::window::WindowCloseRequested>,
    ed: Option<ResMut<Editor>>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    game: Option<Res<crate::game::Game>>,
    mut guard: crate::game::leave::LeaveGuard,
) {
    if requests.read().count() == 0 {
        return;
    }
    match ed {
        Some(mut ed) if ed.doc.is_dirty() => {
            if *screen.get() != Screen::Editor {
                next.set(Screen::Editor);
            }
            if let Outcome::Quit = ed.request(Guarded::Quit) {
                exit.write(AppExit::Success);
            }
        }
        _ => {
            let asked = *screen.get() == Screen::Battle
                && (guard.is_open() || game.is_some_and(|g| guard.ask(&g)));
            if !asked {
                exit.write(AppExit::Success);
            }
        }
    }
}

/// Registers the input handling.
pub fn plugin(app: &mut App) {
    app.add_systems(Update, close_requested);
    app.add_systems(
        Update,
        handle_input
            .run_if(in_state(Screen::Editor))
            .run_if(resource_exists::<Editor>),
    );
}
