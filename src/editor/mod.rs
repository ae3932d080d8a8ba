//! The level editor's headless core: everything the editor does to a level, with
//! no window.
//!
//! [`EditorDoc`] is the level being edited: its path, whether it has unsaved
//! changes, and undo/redo. Every change is an [`Edit`] whose application returns
//! its inverse, so undo and redo are exact and cheap (a brush stroke stores only the
//! cells it changed); a whole drag stroke is one undo step between
//! [`EditorDoc::begin_stroke`] and [`EditorDoc::end_stroke`]. The operations (paint,
//! fill, place, move, stats, sides...) check their arguments and say why not with
//! an [`EditError`]; what they allow but the rules of the format do not is reported
//! live by [`EditorDoc::problems`], the same checks as `skirmish check`, each with
//! the cell to jump to.
//!
//! [`stat_form`] is the unit form of a ruleset (it comes from the ruleset's stat
//! declarations, never from a list here); [`skill_form`], [`unit_extras`] and
//! [`weapon_choices`] add the skills, size and weapons of a ruleset that has them, and
//! [`trait_hint`] the traits fields of one that reads traits. [`templates`] is the library of units in
//! `assets/units/*.ron` to place quickly. [`LevelWatcher`] notices when a level file
//! changes on disk, for hot reload while playing.
//!
//! The window (tilemap, panels, input) is built on this API in `game/`; nothing here
//! depends on rendering.

pub mod doc;
pub mod form;
pub mod problems;
pub mod skeleton;
pub mod templates;
pub mod terrain;
pub mod watch;

pub use doc::{Edit, EditError, EditorDoc, SaveError, UnitSource};
pub use form::{
    SIZES, SKILL_RANGE, StatField, parse_traits, skill_form, stat_form, trait_hint, trait_hint_of,
    traits_text, unit_extras, weapon_choices,
};
pub use problems::DocProblem;
pub use templates::{Template, load_default_templates, load_templates, templates_dir};
pub use terrain::MAX_BRUSH;
pub use watch::LevelWatcher;
