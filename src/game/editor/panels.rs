//! The editor's panels, laid out like the battle HUD around the map
//! ([`crate::game::layout::panels`]): a top bar (file, dirty marker `*`, level,
//! ruleset, status), the left panel (tools, terrain, brush, unit templates,
//! sides), the right panel (the unit form generated from the ruleset's stats, the
//! live problems list), a bottom bar (what is under the pointer, the keys) and
//! dialogs (new level, save as, open, unsaved changes). Every button has a key;
//! panel contents are rebuilt only when what they show changes.

use std::path::PathBuf;

use bevy::ecs::hierarchy::ChildSpawnerCommands;
use bevy::prelude::*;

use super::state::{
    Editor, FormRow, Guarded, Modal, TextTarget, Tool, controller_label, decisions_label,
    terrain_name,
};
use crate::editor::terrain::{on_map, terrain_at};
use crate::editor::traits_text;
use crate::engine::board::Terrain;
use crate::engine::ruleset::TraitOf;
use crate::engine::rulesets::RULESETS;
use crate::game::layout::panels;
use crate::game::screen::Screen;
use crate::game::units_view::side_color;

const PANEL_BG: Color = Color::srgba(0.05, 0.06, 0.08, 0.95);
const TEXT: Color = Color::srgb(0.92, 0.92, 0.9);
const DIM: Color = Color::srgb(0.62, 0.65, 0.7);
const HEAD: Color = Color::srgb(0.75, 0.85, 1.0);
const GOOD: Color = Color::srgb(0.55, 0.9, 0.6);
const BAD: Color = Color::srgb(1.0, 0.45, 0.4);
const BUTTON: Color = Color::srgb(0.16, 0.18, 0.23);
const ACTIVE: Color = Color::srgb(0.2, 0.38, 0.62);

/// What a panel button does (the same as its key).
#[derive(Component, Clone, Debug, PartialEq)]
pub enum ButtonAct {
    /// Pick a tool.
    Tool(Tool),
    /// Pick a terrain kind.
    Terrain(Terrain),
    /// Brush size up or down.
    Brush(i32),
    /// Pick a template (0 is Blank).
    Template(usize),
    /// Select a side (clicking the selected one renames it).
    Side(usize),
    /// Next controller of a side.
    Controller(usize),
    /// Next decision policy of a side.
    Decisions(usize),
    /// Rename a side.
    RenameSide(usize),
    /// Type a side's traits.
    SideTraits(usize),
    /// Add a side.
    AddSide,
    /// Remove the selected side.
    RemoveSide,
    /// Select a row of the unit form and type into it.
    Field(usize),
    /// Delete the selected unit.
    DeleteUnit,
    /// Jump to a problem.
    Problem(usize),
    /// Undo.
    Undo,
    /// Redo.
    Redo,
    /// Save.
    Save,
    /// Save as.
    SaveAs,
    /// Open.
    Open,
    /// New level.
    New,
    /// Playtest.
    Playtest,
    /// Open this file (Open dialog).
    OpenFile(PathBuf),
    /// Confirm the dialog (discard changes / create the level).
    Yes,
    /// Cancel the dialog.
    No,
    /// New-level dialog: toggle the grid kind.
    NewGrid,
    /// New-level dialog: next ruleset.
    NewRuleset,
    /// New-level dialog: change the size.
    NewSize(i32, i32),
}

/// Which panel body an entity is (its children are rebuilt).
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum Body {
    /// Tools, terrain, brush, templates, sides.
    Left,
    /// Unit form and problems.
    Right,
    /// The open dialog.
    Modal,
}

/// Texts updated every frame.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum EdText {
    /// Top bar: file and level.
    Title,
    /// Top bar: the last action or error.
    Status,
    /// Bottom bar: under the pointer and the keys.
    Bottom,
}

fn font(size: f32) -> TextFont {
    TextFont::from_font_size(size)
}

fn spawn_panels(mut commands: Commands, window: Single<&Window>) {
    let (l, r, t, b) = panels(window.width() / crate::game::comfort::ui_scale());
    commands.spawn((
        DespawnOnExit(Screen::Editor),
        Node {
            position_type: PositionType::Absolute,
            left: px(0),
            right: px(0),
            top: px(0),
            height: px(t),
            padding: UiRect::axes(px(10), px(9)),
            column_gap: px(20),
            justify_content: JustifyContent::SpaceBetween,
            overflow: Overflow::clip(),
            ..default()
        },
        BackgroundColor(PANEL_BG),
        children![
            (
                Text::new(""),
                font(16.0),
                TextColor(TEXT),
                TextLayout::no_wrap(),
                Node {
                    flex_shrink: 0.0,
                    ..default()
                },
                EdText::Title
            ),
            (
                Text::new(""),
                font(15.0),
                TextColor(GOOD),
                TextLayout::no_wrap(),
                EdText::Status
            ),
        ],
    ));
    let side_panel = |left: bool, width: f32| Node {
        position_type: PositionType::Absolute,
        left: if left { px(0) } else { auto() },
        right: if left { auto() } else { px(0) },
        top: px(t),
        bottom: px(b),
        width: px(width),
        padding: UiRect::all(px(8)),
        flex_direction: FlexDirection::Column,
        row_gap: px(4),
        overflow: Overflow::clip(),
        ..default()
    };
    commands.spawn((
        DespawnOnExit(Screen::Editor),
        Body::Left,
        side_panel(true, l),
        BackgroundColor(PANEL_BG),
    ));
    commands.spawn((
        DespawnOnExit(Screen::Editor),
        Body::Right,
        side_panel(false, r),
        BackgroundColor(PANEL_BG),
    ));
    commands.spawn((
        DespawnOnExit(Screen::Editor),
        Node {
            position_type: PositionType::Absolute,
            left: px(0),
            right: px(0),
            bottom: px(0),
            height: px(b),
            padding: UiRect::axes(px(10), px(6)),
            overflow: Overflow::clip(),
            ..default()
        },
        BackgroundColor(PANEL_BG),
        children![(Text::new(""), font(13.0), TextColor(TEXT), EdText::Bottom)],
    ));
    commands.spawn((
        DespawnOnExit(Screen::Editor),
        Body::Modal,
        Node {
            position_type: PositionType::Absolute,
            left: percent(22),
            right: percent(22),
            top: percent(16),
            padding: UiRect::all(px(16)),
            flex_direction: FlexDirection::Column,
            row_gap: px(8),
            border: UiRect::all(px(2)),
            ..default()
        },
        BackgroundColor(Color::srgba(0.07, 0.08, 0.12, 0.98)),
        BorderColor::all(Color::srgb(1.0, 0.95, 0.3)),
        Visibility::Hidden,
        GlobalZIndex(30),
    ));
}

/// Keeps the side panels as wide as the battle's for the window's width.
fn layout(
    window: Single<&Window>,
    scale: Res<UiScale>,
    mut bodies: Query<(&Body, &mut Node)>,
    mut laid_out: Local<Option<(f32, f32, usize)>>,
) {
    // Again when the window or the UI scale changes, or panels appear.
    let key = (window.width(), scale.0, bodies.iter().len());
    if *laid_out == Some(key) {
        return;
    }
    *laid_out = Some(key);
    let (l, r, _, _) = panels(window.width() / scale.0);
    for (body, mut node) in &mut bodies {
        match body {
            Body::Left => node.width = px(l),
            Body::Right => node.width = px(r),
            Body::Modal => {}
        }
    }
}

fn label(p: &mut ChildSpawnerCommands, text: impl Into<String>, size: f32, color: Color) {
    p.spawn((Text::new(text), font(size), TextColor(color)));
}

fn heading(p: &mut ChildSpawnerCommands, text: &str, keys: &str) {
    p.spawn(Node {
        margin: UiRect::top(px(4)),
        column_gap: px(8),
        ..default()
    })
    .with_children(|r| {
        label(r, text, 14.0, HEAD);
        label(r, keys, 12.0, DIM);
    });
}

fn button(
    p: &mut ChildSpawnerCommands,
    text: impl Into<String>,
    act: ButtonAct,
    active: bool,
    color: Color,
) {
    p.spawn((
        Button,
        act,
        Node {
            padding: UiRect::axes(px(5), px(2)),
            ..default()
        },
        BackgroundColor(if active { ACTIVE } else { BUTTON }),
        children![(Text::new(text), font(12.0), TextColor(color))],
    ));
}

fn wrap_row(p: &mut ChildSpawnerCommands, f: impl FnOnce(&mut ChildSpawnerCommands)) {
    p.spawn(Node {
        flex_wrap: FlexWrap::Wrap,
        column_gap: px(4),
        row_gap: px(4),
        align_items: AlignItems::Center,
        ..default()
    })
    .with_children(f);
}

/// What the rebuilt panels depend on; they are rebuilt when it changes.
fn signature(ed: &Editor, width: f32) -> String {
    format!(
        "{} {} {} {:?} {:?} {} {} {} {:?} {} {:?} {:?} {} {} {}",
        ed.generation,
        ed.doc.revision(),
        ed.doc.is_dirty(),
        ed.tool,
        ed.terrain,
        ed.brush,
        ed.template,
        ed.side,
        ed.selected,
        ed.field,
        ed.typing,
        ed.modal,
        ed.problems.len(),
        ed.problem_index,
        width
    )
}

fn typed(ed: &Editor, target: &TextTarget) -> Option<String> {
    ed.typing
        .as_ref()
        .filter(|t| &t.target == target)
        .map(|t| format!("{}_", t.buffer))
}

fn left_panel(p: &mut ChildSpawnerCommands, ed: &Editor) {
    heading(p, "TOOLS", "B R F U V");
    wrap_row(p, |r| {
        for tool in Tool::ALL {
            let key = match tool {
                Tool::Brush => "B",
                Tool::Rect => "R",
                Tool::Fill => "F",
                Tool::Unit => "U",
                Tool::Select => "V",
            };
            button(
                r,
                format!("{key} {}", tool.label()),
                ButtonAct::Tool(tool),
                ed.tool == tool,
                TEXT,
            );
        }
    });
    heading(p, "TERRAIN", "T next");
    wrap_row(p, |r| {
        for t in Terrain::ALL {
            button(
                r,
                format!("{} {}", t.symbol(), terrain_name(t)),
                ButtonAct::Terrain(t),
                ed.terrain == t,
                TEXT,
            );
        }
    });
    heading(p, "BRUSH", "[ ]");
    wrap_row(p, |r| {
        button(r, " - ", ButtonAct::Brush(-1), false, TEXT);
        label(r, format!("size {}", ed.brush), 13.0, TEXT);
        button(r, " + ", ButtonAct::Brush(1), false, TEXT);
    });
    heading(p, "TEMPLATE", ", .");
    wrap_row(p, |r| {
        button(r, "Blank", ButtonAct::Template(0), ed.template == 0, TEXT);
        for (i, t) in ed.placeable().iter().enumerate() {
            button(
                r,
                t.name.clone(),
                ButtonAct::Template(i + 1),
                ed.template == i + 1,
                TEXT,
            );
        }
    });
    let side_traits = (0..ed.doc.level().sides.len()).any(|i| ed.side_traits_shown(i));
    heading(
        p,
        "SIDES",
        if side_traits {
            "Tab C D F2 F3 Ins"
        } else {
            "Tab C D F2 Ins"
        },
    );
    for (i, side) in ed.doc.level().sides.iter().enumerate() {
        wrap_row(p, |r| {
            let name = typed(ed, &TextTarget::SideName(i)).unwrap_or_else(|| side.name.clone());
            button(
                r,
                name,
                ButtonAct::Side(i),
                ed.side == i,
                side_color(i).lighter(0.2),
            );
            button(
                r,
                controller_label(side.controller),
                ButtonAct::Controller(i),
                false,
                TEXT,
            );
            button(
                r,
                decisions_label(side.decisions),
                ButtonAct::Decisions(i),
                false,
                TEXT,
            );
            if ed.side_traits_shown(i) {
                let traits = typed(ed, &TextTarget::SideTraits(i)).unwrap_or_else(|| {
                    match traits_text(&side.traits) {
                        t if t.is_empty() => "traits -".to_string(),
                        t => t,
                    }
                });
                button(r, traits, ButtonAct::SideTraits(i), false, TEXT);
            }
        });
        if ed.typing.as_ref().map(|t| &t.target) == Some(&TextTarget::SideTraits(i)) {
            label(p, format!("  {}", ed.traits_tip(TraitOf::Side)), 11.0, DIM);
        }
    }
    wrap_row(p, |r| {
        button(r, "+ Add side", ButtonAct::AddSide, false, TEXT);
        button(r, "Remove selected", ButtonAct::RemoveSide, false, TEXT);
    });
}

fn right_panel(p: &mut ChildSpawnerCommands, ed: &Editor) {
    heading(p, "UNIT", "J K  + -  Enter");
    let level = ed.doc.level();
    match ed.selected.and_then(|i| level.units.get(i)) {
        Some(unit) => {
            for (i, row) in ed.form().into_iter().enumerate() {
                let (name, target, tip) = match row {
                    FormRow::Name => ("Name".to_string(), TextTarget::UnitName(0), String::new()),
                    FormRow::Side => ("Side".to_string(), TextTarget::SavePath, String::new()),
                    FormRow::Stat(f) => (
                        if f.required {
                            f.name.to_string()
                        } else {
                            format!("{} (opt)", f.name)
                        },
                        TextTarget::Stat(ed.selected.unwrap_or(0), f.name),
                        f.about.to_string(),
                    ),
                    FormRow::Skill(s) => (
                        s.to_string(),
                        TextTarget::Skill(ed.selected.unwrap_or(0), s),
                        "percentile skill, 0-100; empty = untrained".to_string(),
                    ),
                    FormRow::Size => (
                        "Size".to_string(),
                        TextTarget::SavePath,
                        "+/- cycles Small .. Gargantuan (sets Reach)".to_string(),
                    ),
                    FormRow::Weapons => (
                        "Weapons".to_string(),
                        TextTarget::SavePath,
                        "+/- cycles the primary weapon through the template weapons".to_string(),
                    ),
                    FormRow::Traits => (
                        "Traits".to_string(),
                        TextTarget::UnitTraits(ed.selected.unwrap_or(0)),
                        ed.traits_tip(TraitOf::Unit),
                    ),
                };
                let target = match (row, ed.selected) {
                    (FormRow::Name, Some(u)) => TextTarget::UnitName(u),
                    _ => target,
                };
                let value = typed(ed, &target).unwrap_or_else(|| {
                    let v = ed.row_value(row);
                    if v.is_empty() { "-".into() } else { v }
                });
                let color = if matches!(row, FormRow::Side) {
                    let side = level.sides.iter().position(|s| s.name == unit.side);
                    side.map_or(BAD, |s| side_color(s).lighter(0.2))
                } else {
                    TEXT
                };
                p.spawn((
                    Button,
                    ButtonAct::Field(i),
                    Node {
                        padding: UiRect::axes(px(6), px(2)),
                        column_gap: px(8),
                        ..default()
                    },
                    BackgroundColor(if ed.field == i { ACTIVE } else { BUTTON }),
                ))
                .with_children(|r| {
                    r.spawn((
                        Node {
                            width: px(92),
                            ..default()
                        },
                        children![(Text::new(name), font(13.0), TextColor(DIM))],
                    ));
                    label(r, value, 13.0, color);
                });
                if ed.field == i && !tip.is_empty() {
                    label(p, format!("  {tip}"), 11.0, DIM);
                }
            }
            wrap_row(p, |r| {
                label(r, format!("at {}", unit.cell()), 12.0, DIM);
                button(r, "Del delete", ButtonAct::DeleteUnit, false, TEXT);
            });
        }
        None => {
            let side = level
                .sides
                .get(ed.side)
                .map_or("(no side)".to_string(), |s| s.name.clone());
            label(
                p,
                format!(
                    "No unit selected.\nU then click: place a {} of {side}.\nV then click a unit: select; drag: move.",
                    ed.template_name()
                ),
                13.0,
                DIM,
            );
        }
    }
    heading(p, &format!("PROBLEMS ({})", ed.problems.len()), "P, click");
    if ed.problems.is_empty() {
        label(
            p,
            "None: the level passes `skirmish check`.\nF5 playtests it.",
            13.0,
            GOOD,
        );
    }
    for (i, problem) in ed.problems.iter().enumerate().take(14) {
        let mut text = problem.message.clone();
        if let Some(c) = problem.cell {
            text = format!("{c} {text}");
        }
        if text.chars().count() > 120 {
            text = text.chars().take(117).collect::<String>() + "...";
        }
        p.spawn((
            Button,
            ButtonAct::Problem(i),
            Node {
                padding: UiRect::axes(px(6), px(2)),
                ..default()
            },
            BackgroundColor(if ed.problem_index == i {
                Color::srgb(0.35, 0.12, 0.12)
            } else {
                BUTTON
            }),
            children![(
                Text::new(text),
                font(12.0),
                TextColor(if ed.problem_index == i { TEXT } else { BAD })
            )],
        ));
    }
    if ed.problems.len() > 14 {
        label(
            p,
            format!("... and {} more", ed.problems.len() - 14),
            12.0,
            BAD,
        );
    }
}

fn modal_body(p: &mut ChildSpawnerCommands, ed: &Editor, modal: &Modal) {
    match modal {
        Modal::NewLevel(new) => {
            label(p, "New level", 22.0, Color::WHITE);
            wrap_row(p, |r| {
                button(
                    r,
                    format!("[G] Grid: {}", crate::engine::log::grid_name(new.grid)),
                    ButtonAct::NewGrid,
                    false,
                    TEXT,
                );
                if !new.grid_choice() {
                    label(
                        r,
                        format!("({} is played on this grid only)", new.ruleset),
                        13.0,
                        DIM,
                    );
                }
            });
            wrap_row(p, |r| {
                button(r, " - ", ButtonAct::NewSize(-1, 0), false, TEXT);
                label(r, format!("Width {}  (Left/Right)", new.size.0), 15.0, TEXT);
                button(r, " + ", ButtonAct::NewSize(1, 0), false, TEXT);
            });
            wrap_row(p, |r| {
                button(r, " - ", ButtonAct::NewSize(0, -1), false, TEXT);
                label(r, format!("Height {}  (Down/Up)", new.size.1), 15.0, TEXT);
                button(r, " + ", ButtonAct::NewSize(0, 1), false, TEXT);
            });
            wrap_row(p, |r| {
                button(
                    r,
                    format!("[R] Ruleset: {}", new.ruleset),
                    ButtonAct::NewRuleset,
                    false,
                    TEXT,
                );
                label(r, format!("(known: {})", RULESETS.join(", ")), 13.0, DIM);
            });
            let file = new
                .path
                .as_ref()
                .map_or("chosen when saving".into(), |p| p.display().to_string());
            label(p, format!("File: {file}"), 14.0, DIM);
            wrap_row(p, |r| {
                button(r, "[Enter] Create", ButtonAct::Yes, true, TEXT);
                button(r, "[Esc] Cancel", ButtonAct::No, false, TEXT);
            });
        }
        Modal::SaveAs => {
            label(p, "Save as", 22.0, Color::WHITE);
            let field = typed(ed, &TextTarget::SavePath).unwrap_or_default();
            text_field(p, field);
            label(
                p,
                "Type a path (.ron is added if missing). Enter saves, Esc cancels.",
                13.0,
                DIM,
            );
        }
        Modal::Open(list) => {
            label(p, "Open a level", 22.0, Color::WHITE);
            let field = typed(ed, &TextTarget::OpenPath).unwrap_or_default();
            text_field(p, field);
            label(
                p,
                "Type a path and press Enter, or click a level:",
                13.0,
                DIM,
            );
            wrap_row(p, |r| {
                for path in list {
                    button(
                        r,
                        path.display().to_string(),
                        ButtonAct::OpenFile(path.clone()),
                        false,
                        TEXT,
                    );
                }
            });
            label(p, "Esc cancels.", 13.0, DIM);
        }
        Modal::Confirm(action) => {
            label(p, "Unsaved changes", 22.0, Color::WHITE);
            let what = match action {
                Guarded::Open(path) => format!("open {}", path.display()),
                Guarded::New => "start a new level".into(),
                Guarded::Quit => "quit".into(),
            };
            label(
                p,
                format!(
                    "{} has changes that are not saved. Discard them and {what}?",
                    ed.file_label()
                ),
                15.0,
                TEXT,
            );
            wrap_row(p, |r| {
                button(r, "[Y] Discard and continue", ButtonAct::Yes, false, BAD);
                button(
                    r,
                    "[N] Cancel (then Ctrl+S saves)",
                    ButtonAct::No,
                    true,
                    TEXT,
                );
            });
        }
    }
}

fn text_field(p: &mut ChildSpawnerCommands, text: String) {
    p.spawn((
        Node {
            padding: UiRect::axes(px(8), px(5)),
            border: UiRect::all(px(1)),
            ..default()
        },
        BackgroundColor(Color::srgb(0.02, 0.02, 0.03)),
        BorderColor::all(Color::srgb(0.5, 0.55, 0.65)),
        children![(Text::new(text), font(16.0), TextColor(Color::WHITE))],
    ));
}

/// Rebuilds the panel bodies and the dialog when what they show changed.
fn rebuild(
    mut commands: Commands,
    ed: Res<Editor>,
    window: Single<&Window>,
    mut bodies: Query<(Entity, &Body, &mut Visibility)>,
    mut shown: Local<String>,
) {
    // The body entities are part of the key: re-entering the editor spawns new ones.
    let entities: Vec<Entity> = bodies.iter().map(|(e, _, _)| e).collect();
    let key = format!("{entities:?} {}", signature(&ed, window.width()));
    if *shown == key {
        return;
    }
    *shown = key;
    for (entity, body, mut vis) in &mut bodies {
        commands.entity(entity).despawn_children();
        match body {
            Body::Left => {
                commands
                    .entity(entity)
                    .with_children(|p| left_panel(p, &ed));
            }
            Body::Right => {
                commands
                    .entity(entity)
                    .with_children(|p| right_panel(p, &ed));
            }
            Body::Modal => match &ed.modal {
                Some(modal) => {
                    *vis = Visibility::Visible;
                    commands
                        .entity(entity)
                        .with_children(|p| modal_body(p, &ed, modal));
                }
                None => *vis = Visibility::Hidden,
            },
        }
    }
}

/// The top and bottom bars.
fn update_texts(ed: Res<Editor>, mut texts: Query<(&EdText, &mut Text, &mut TextColor)>) {
    let level = ed.doc.level();
    let problems = match ed.problems.len() {
        0 => "no problems".to_string(),
        1 => "1 problem".to_string(),
        n => format!("{n} problems"),
    };
    let title = format!(
        "{}  |  {}  |  {}  |  {} {}x{}  |  {problems}",
        ed.file_label(),
        level.name,
        level.ruleset,
        crate::engine::log::grid_name(level.grid),
        level.size.0,
        level.size.1
    );
    let (status, color) = match &ed.status {
        Some((m, true)) => (m.clone(), BAD),
        Some((m, false)) => (m.clone(), GOOD),
        None => ("Ready".to_string(), GOOD),
    };
    let mut under = String::new();
    if let Some(cell) = ed.hovered.filter(|c| on_map(level, *c)) {
        let ground = terrain_at(level, cell).map_or("unknown terrain", terrain_name);
        under = format!("{cell} {ground}");
        if let Some(u) = ed.doc.unit_at(cell).and_then(|i| level.units.get(i)) {
            under += &format!("  |  {} ({})", u.name, u.side);
        }
    }
    let tool = match ed.tool {
        Tool::Brush => format!("Brush {} {}", ed.brush, terrain_name(ed.terrain)),
        Tool::Rect => format!("Rect {}", terrain_name(ed.terrain)),
        Tool::Fill => format!("Fill {}", terrain_name(ed.terrain)),
        Tool::Unit => format!("Place {}", ed.template_name()),
        Tool::Select => "Select/move".to_string(),
    };
    let bottom = format!(
        "{tool}  |  {under}\n\
         Click/Space apply (drag to paint)   Arrows cursor   Shift+Arrows pan   PgUp/PgDn zoom   Home fit   Esc cancel\n\
         Ctrl+Z undo   Ctrl+Y redo   Ctrl+S save   Ctrl+Shift+S save as   Ctrl+O open   Ctrl+N new   F5 playtest   Ctrl+Q quit"
    );
    for (which, mut text, mut tc) in &mut texts {
        let value = match which {
            EdText::Title => &title,
            EdText::Status => &status,
            EdText::Bottom => &bottom,
        };
        if &text.0 != value {
            text.0 = value.clone();
        }
        if *which == EdText::Status {
            tc.0 = color;
        }
    }
}

/// Registers the panels.
pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Editor), spawn_panels);
    app.add_systems(
        Update,
        (layout, rebuild, update_texts)
            .run_if(in_state(Screen::Editor))
            .run_if(resource_exists::<Editor>),
    );
}
