//! The level editor window (`skirmish edit [LEVEL]`): the [`Screen::Editor`] screen
//! built on the headless editor core ([`crate::editor`]).
//!
//! - [`state`]: what tools, fields and dialogs do to the [`crate::editor::EditorDoc`]
//!   (no Bevy systems; tested headless).
//! - [`input`]: the [`input::EditorAction`]s and their bindings
//!   (`assets/settings/editor_input.ron`).
//! - [`control`]: input and panel buttons to [`state::Editor`] operations, text
//!   fields, playtest (F5) and quit.
//! - [`view`]: the tilemap, unit markers, overlays and camera, in the battle's look.
//! - [`panels`]: tool palette, terrain picker, templates, sides, unit form,
//!   problems, status line and dialogs.
//!
//! Everything spawned here despawns on leaving the editor; the [`state::Editor`]
//! resource (the document and its history) lives on, so a playtest returns to the
//! level as it was.

pub mod control;
pub mod input;
pub mod panels;
pub mod state;
pub mod view;

use std::path::Path;

use bevy::prelude::*;

use super::screen::Screen;
use super::{GameOptions, Options};
use crate::editor::{EditorDoc, load_default_templates};
use state::{Editor, Modal, NewLevel};

/// The editor as it starts for `options`: the level at `options.level_path` if it
/// opens (a level with problems opens too, listing them), otherwise the new-level
/// dialog (a path that does not exist yet becomes the new level's file).
pub fn initial_editor(options: &GameOptions) -> Editor {
    let mut messages = Vec::new();
    let templates = load_default_templates().unwrap_or_else(|problems| {
        let first = problems.first().map_or_else(String::new, |p| p.to_string());
        messages.push(format!("Unit templates not loaded: {first}"));
        Vec::new()
    });
    let defaults = &options.new_level;
    let blank = EditorDoc::new_level("New level", defaults.grid, defaults.size, &defaults.ruleset)
        .or_else(|_| {
            let d = NewLevel::default();
            EditorDoc::new_level("New level", d.grid, d.size, &d.ruleset)
        })
        .expect("the default new level is valid");
    let mut ed = Editor::new(blank, templates);
    let path: &Path = &options.level_path;
    if path.as_os_str().is_empty() {
        ed.modal = Some(Modal::NewLevel(defaults.clone()));
        ed.ok("New level: pick grid, size and ruleset, then Enter");
    } else if path.exists() {
        ed.open(path);
        if ed.generation == 0 {
            // It could not be read or parsed: the status line says why.
            ed.modal = Some(Modal::NewLevel(NewLevel {
                path: None,
                ..defaults.clone()
            }));
        }
    } else {
        ed.modal = Some(Modal::NewLevel(NewLevel {
            path: Some(path.to_path_buf()),
            ..defaults.clone()
        }));
        ed.ok(format!("New file {}", path.display()));
    }
    if let Some(m) = messages.pop() {
        ed.err(m);
    }
    ed
}

fn ensure_editor(mut commands: Commands, existing: Option<Res<Editor>>, options: Res<Options>) {
    if existing.is_none() {
        commands.insert_resource(initial_editor(&options.0));
    }
}

/// Registers the editor screen.
pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Editor), ensure_editor);
    app.add_plugins((input::plugin, view::plugin, panels::plugin, control::plugin));
}
