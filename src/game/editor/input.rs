//! The editor's input actions and their bindings, read from
//! `assets/settings/editor_input.ron` like the battle's (see
//! [`crate::game::settings`]). Every action has a key; chords with Ctrl and Shift
//! are written `Ctrl(KeyS)`, `Shift(ArrowUp)`, `CtrlShift(KeyZ)`. When two
//! bindings share keys (Ctrl+Z and Ctrl+Shift+Z), only the longer one fires.

use std::collections::BTreeMap;

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

use crate::game::screen::Screen;

/// The bindings file, relative to the assets directory.
pub const BINDINGS_FILE: &str = "settings/editor_input.ron";

/// The compiled-in copy of the default bindings.
pub const DEFAULT_BINDINGS: &str = include_str!("../../../assets/settings/editor_input.ron");

/// Everything the editor does from the keyboard or mouse (typed text aside).
#[derive(
    Actionlike,
    PartialEq,
    Eq,
    Clone,
    Copy,
    Hash,
    Debug,
    Reflect,
    serde::Deserialize,
    PartialOrd,
    Ord,
)]
pub enum EditorAction {
    /// Use the active tool on the cell under the pointer or cursor (hold and move
    /// to drag).
    Apply,
    /// Close a dialog, stop typing, clear the selection.
    Cancel,
    /// Brush tool.
    ToolBrush,
    /// Rectangle fill tool.
    ToolRect,
    /// Flood fill tool.
    ToolFill,
    /// Place-unit tool.
    ToolUnit,
    /// Select/move tool.
    ToolSelect,
    /// Next terrain kind.
    NextTerrain,
    /// Smaller brush.
    BrushSmaller,
    /// Bigger brush.
    BrushBigger,
    /// Previous unit template.
    PrevTemplate,
    /// Next unit template.
    NextTemplate,
    /// Delete the selected unit.
    DeleteUnit,
    /// Keyboard cursor up.
    CursorUp,
    /// Keyboard cursor down.
    CursorDown,
    /// Keyboard cursor left.
    CursorLeft,
    /// Keyboard cursor right.
    CursorRight,
    /// Camera pan up.
    PanUp,
    /// Camera pan down.
    PanDown,
    /// Camera pan left.
    PanLeft,
    /// Camera pan right.
    PanRight,
    /// Zoom in.
    ZoomIn,
    /// Zoom out.
    ZoomOut,
    /// Fit the map in the window.
    FitMap,
    /// Previous row of the unit form.
    PrevField,
    /// Next row of the unit form.
    NextField,
    /// Increase the selected stat (or next side).
    Increase,
    /// Decrease the selected stat (or previous side).
    Decrease,
    /// Type into the selected form row.
    EditField,
    /// Select the next side.
    NextSide,
    /// Add a side.
    AddSide,
    /// Remove the selected side and its units.
    RemoveSide,
    /// Rename the selected side.
    RenameSide,
    /// Next controller of the selected side.
    CycleController,
    /// Next decision policy of the selected side.
    CycleDecisions,
    /// Type the traits of the selected side (a ruleset that reads side traits).
    EditSideTraits,
    /// Jump to the next problem.
    NextProblem,
    /// Undo.
    Undo,
    /// Redo.
    Redo,
    /// Save.
    Save,
    /// Save as.
    SaveAs,
    /// Open a level.
    Open,
    /// New level.
    New,
    /// Playtest the level.
    Playtest,
    /// Quit.
    Quit,
}

impl EditorAction {
    /// Whether the camera system handles the action (pan, zoom, fit).
    pub fn is_camera(self) -> bool {
        use EditorAction::*;
        matches!(
            self,
            PanUp | PanDown | PanLeft | PanRight | ZoomIn | ZoomOut | FitMap
        )
    }

    /// Every action, in declaration order.
    pub const ALL: [EditorAction; 45] = {
        use EditorAction::*;
        [
            Apply,
            Cancel,
            ToolBrush,
            ToolRect,
            ToolFill,
            ToolUnit,
            ToolSelect,
            NextTerrain,
            BrushSmaller,
            BrushBigger,
            PrevTemplate,
            NextTemplate,
            DeleteUnit,
            CursorUp,
            CursorDown,
            CursorLeft,
            CursorRight,
            PanUp,
            PanDown,
            PanLeft,
            PanRight,
            ZoomIn,
            ZoomOut,
            FitMap,
            PrevField,
            NextField,
            Increase,
            Decrease,
            EditField,
            NextSide,
            AddSide,
            RemoveSide,
            RenameSide,
            CycleController,
            CycleDecisions,
            EditSideTraits,
            NextProblem,
            Undo,
            Redo,
            Save,
            SaveAs,
            Open,
            New,
            Playtest,
            Quit,
        ]
    };
}

pub use crate::game::settings::Binding;

/// The bindings as written, by action; errors read `line:col: message`.
pub fn parse_binding_table(text: &str) -> Result<BTreeMap<EditorAction, Vec<Binding>>, String> {
    crate::game::settings::parse_binding_table(text)
}

/// Parses bindings into an input map; errors read `line:col: message`.
pub fn parse_bindings(text: &str) -> Result<InputMap<EditorAction>, String> {
    crate::game::settings::parse_input_map(text)
}

/// Loads `assets/settings/editor_input.ron` (or `$SKIRMISH_ASSETS/...`), falling
/// back to the defaults with a warning if it is missing or broken.
pub fn load_bindings() -> InputMap<EditorAction> {
    crate::game::settings::load_bindings_file(
        BINDINGS_FILE,
        DEFAULT_BINDINGS,
        parse_bindings,
        "the default editor bindings",
    )
}

/// The entity whose `ActionState` holds the editor's actions.
#[derive(Component)]
pub struct EditorInput;

/// The editor's bindings, kept on [`EditorInput`]'s entity: they are its input map
/// only while the editor is open, so the input manager doesn't check the
/// editor's keys (and their clashes) on every frame of the other screens.
#[derive(Component)]
struct EditorBindings(InputMap<EditorAction>);

/// Registers the input manager for the editor and spawns its input entity.
pub fn plugin(app: &mut App) {
    crate::game::settings::input_manager::<EditorAction>(app);
    app.add_systems(
        Startup,
        |mut commands: Commands, screen: Option<Res<State<Screen>>>| {
            let bindings = load_bindings();
            let mut input = commands.spawn((
                EditorInput,
                ActionState::<EditorAction>::default(),
                EditorBindings(bindings.clone()),
            ));
            // Opening on the editor: its `OnEnter` ran before this.
            if screen.is_some_and(|s| *s.get() == Screen::Editor) {
                input.insert(bindings);
            }
        },
    );
    app.add_systems(
        OnEnter(Screen::Editor),
        |mut commands: Commands, input: Query<(Entity, &EditorBindings)>| {
            for (entity, bindings) in &input {
                commands.entity(entity).insert(bindings.0.clone());
            }
        },
    );
    app.add_systems(
        OnExit(Screen::Editor),
        |mut commands: Commands, input: Query<Entity, With<EditorInput>>| {
            for entity in &input {
                commands.entity(entity).remove::<InputMap<EditorAction>>();
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_bindings_parse_and_cover_every_action_by_keyboard() {
        let table = parse_binding_table(DEFAULT_BINDINGS).unwrap();
        for action in EditorAction::ALL {
            let keys = table
                .get(&action)
                .map_or(0, |b| b.iter().filter(|b| b.is_keyboard()).count());
            assert!(keys > 0, "{action:?} has no keyboard binding");
        }
        assert_eq!(table.len(), EditorAction::ALL.len());
        assert!(parse_bindings(DEFAULT_BINDINGS).is_ok());
    }

    #[test]
    fn broken_bindings_say_where() {
        let err = parse_bindings("{ Save: [Ctrl(Kye)] }").unwrap_err();
        assert!(err.starts_with("1:"), "{err}");
    }
}
