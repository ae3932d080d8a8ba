//! The combat log on the right panel, one row per line, and "explain a roll": hover
//! a log line that rolled dice (drawn in the roll colour) — or click it to keep it
//! open, or press `/` to open the newest roll and again for older ones — and a panel
//! shows the roll in full ([`crate::engine::explain`]): each die, dropped dice
//! dimmed, every modifier and source of advantage with the rule it comes from, the
//! total, what it was measured against and the outcome.

use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;

use super::Game;
use super::choices::UiState;
use super::layout::{ChoiceBar, LogRows, LogTitle, Prompt, panels};
use super::screen::Screen;
use super::settings::{BattleAction, Player};
use super::theme::ascii;
use crate::engine::event::Event;
use crate::engine::explain::{Explained, explain, term_text};

/// Log lines shown at most (older ones are reached with PgUp).
pub const ROWS: usize = 34;

/// One row of the combat log: its position from the top of the shown lines.
#[derive(Component, Clone, Copy)]
pub struct LogRow(pub usize);

/// The explanation panel.
#[derive(Component)]
pub struct ExplainPanel;

/// Which event each row shows, and which roll is explained.
#[derive(Resource, Default)]
pub struct LogView {
    /// For each row, the index in the battle's events of the line it shows.
    pub rows: Vec<Option<usize>>,
    /// The roll line under the pointer (an event index).
    pub hovered: Option<usize>,
    /// The roll line clicked or picked with the key (an event index): stays open
    /// until clicked again, Esc, or the next command.
    pub selected: Option<usize>,
}

impl LogView {
    /// The event whose roll is explained: the hovered one, else the selected one.
    pub fn shown(&self) -> Option<usize> {
        self.hovered.or(self.selected)
    }
}

/// Colour of a log line that can be explained.
const ROLL: Color = Color::srgb(0.62, 0.85, 1.0);
const TEXT: Color = Color::srgb(0.92, 0.92, 0.9);
const DIM: Color = Color::srgb(0.65, 0.67, 0.7);
const HOVER_BG: Color = Color::srgba(0.3, 0.45, 0.7, 0.35);
const SELECTED_BG: Color = Color::srgba(0.95, 0.8, 0.3, 0.25);
const DIE_KEPT: Color = Color::srgb(0.97, 0.95, 0.88);
const DIE_DROPPED: Color = Color::srgb(0.35, 0.36, 0.4);

/// Fills the HUD's [`LogRows`] column with its rows when it appears.
fn spawn_rows(mut commands: Commands, columns: Query<Entity, Added<LogRows>>) {
    for column in &columns {
        commands.entity(column).with_children(|rows| {
            for i in 0..ROWS {
                rows.spawn((
                    LogRow(i),
                    Text::new(""),
                    TextFont::from_font_size(13.0),
                    TextColor(TEXT),
                    Interaction::default(),
                    BackgroundColor(Color::NONE),
                    Node {
                        display: Display::None,
                        padding: UiRect::horizontal(px(2)),
                        ..default()
                    },
                ));
            }
        });
    }
}

/// The events shown as log lines: index and text, oldest first.
pub fn log_lines(game: &Game) -> Vec<(usize, String)> {
    let world = game.battle.world();
    game.battle
        .events()
        .iter()
        .enumerate()
        .filter(|(_, e)| !matches!(e, Event::TurnEnded { .. }))
        .filter_map(|(i, e)| crate::engine::log::line(world, e).map(|l| (i, l)))
        .collect()
}

/// Fills the rows with the newest lines that fit, scrolled back on request.
fn update_log(
    game: Res<Game>,
    ui: Res<UiState>,
    mut view: ResMut<LogView>,
    mut rows: Query<(&LogRow, &mut Text, &mut TextColor, &mut Node)>,
    mut shown: Local<Option<(u64, usize)>>,
) {
    if *shown == Some((game.version, ui.log_scroll)) {
        return;
    }
    *shown = Some((game.version, ui.log_scroll));
    let lines = log_lines(&game);
    let end = lines.len().saturating_sub(ui.log_scroll);
    let start = end.saturating_sub(ROWS);
    let lines = &lines[start..end];
    let world = game.battle.world();
    view.rows = vec![None; ROWS];
    for (row, mut text, mut color, mut node) in &mut rows {
        match lines.get(row.0) {
            Some((event, line)) => {
                view.rows[row.0] = Some(*event);
                text.0 = ascii(line).into_owned();
                let rolled = explain(world, &game.battle.events()[*event]).is_some();
                color.0 = if rolled { ROLL } else { TEXT };
                node.display = Display::Flex;
            }
            None => {
                text.0.clear();
                node.display = Display::None;
            }
        }
    }
}

/// The rows the player cannot see are not drawn (hidden, their layout kept, so the
/// rows in view stay where they are): the log's column keeps its newest line at the
/// bottom and clips the older ones above its top, and the decision prompt covers the
/// top of the column (see [`super::hud`]). Of the [`ROWS`] rows of a long log only
/// the few under the prompt show while it is up; drawing the others cost a software
/// renderer more than the rest of the log (`examples/frame_time`). The prompt draws
/// no background of its own (the panels' colour is the map camera's clear colour):
/// whatever of the right panel it overlaps at all — rows, the log's title, the
/// attack options' chooser — is hidden instead. Hovering and clicking work on the
/// rows drawn.
#[allow(clippy::type_complexity)]
fn hide_unseen(
    prompt: Query<(&ComputedNode, &UiGlobalTransform, &Visibility), With<Prompt>>,
    mut rows: Query<
        (
            &ComputedNode,
            &UiGlobalTransform,
            Option<&CalculatedClip>,
            &mut Visibility,
        ),
        (
            Or<(With<LogRow>, With<LogTitle>, With<ChoiceBar>)>,
            Without<Prompt>,
        ),
    >,
) {
    let rect = |node: &ComputedNode, at: &UiGlobalTransform| {
        Rect::from_center_size(at.translation, node.size())
    };
    let covered: Option<Rect> = prompt
        .iter()
        .find(|(_, _, v)| **v != Visibility::Hidden)
        .map(|(node, at, _)| rect(node, at));
    for (node, at, clip, mut visibility) in &mut rows {
        let row = rect(node, at);
        let in_view = clip.is_none_or(|c| !c.clip.intersect(row).is_empty());
        let under = covered.is_some_and(|p| !p.intersect(row).is_empty());
        visibility.set_if_neq(if in_view && !under {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        });
    }
}

/// Pointer over / clicks on the rows; `/` picks the newest roll, then older ones;
/// Esc closes.
fn pick(
    game: Res<Game>,
    mut view: ResMut<LogView>,
    rows: Query<(&LogRow, &Interaction), Changed<Interaction>>,
    actions: Option<Single<&ActionState<BattleAction>, With<Player>>>,
) {
    let world = game.battle.world();
    let rolled = |event: usize| {
        game.battle
            .events()
            .get(event)
            .is_some_and(|e| explain(world, e).is_some())
    };
    for (row, interaction) in &rows {
        let event = view.rows.get(row.0).copied().flatten();
        match interaction {
            Interaction::Hovered => view.hovered = event.filter(|&e| rolled(e)),
            Interaction::Pressed => {
                if let Some(e) = event.filter(|&e| rolled(e)) {
                    view.selected = if view.selected == Some(e) {
                        None
                    } else {
                        Some(e)
                    };
                }
            }
            Interaction::None => {
                if view.hovered == event {
                    view.hovered = None;
                }
            }
        }
    }
    let Some(actions) = actions else { return };
    if actions.just_pressed(&BattleAction::Cancel) {
        view.selected = None;
    }
    if actions.just_pressed(&BattleAction::ExplainRoll) {
        // The roll before the selected one (or the newest), among the log's lines.
        let before = view.selected.unwrap_or(usize::MAX);
        view.selected = log_lines(&game)
            .iter()
            .rev()
            .map(|(i, _)| *i)
            .find(|&i| i < before && rolled(i));
    }
}

/// Rows under the pointer or selected are highlighted.
fn highlight(view: Res<LogView>, mut rows: Query<(&LogRow, &mut BackgroundColor)>) {
    if !view.is_changed() {
        return;
    }
    for (row, mut bg) in &mut rows {
        let event = view.rows.get(row.0).copied().flatten();
        bg.0 = if event.is_some() && event == view.selected {
            SELECTED_BG
        } else if event.is_some() && event == view.hovered {
            HOVER_BG
        } else {
            Color::NONE
        };
    }
}

fn spawn_panel(mut commands: Commands) {
    let (_, r, t, _) = panels(1280.0);
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        ExplainPanel,
        Node {
            position_type: PositionType::Absolute,
            right: px(r + 8.0),
            top: px(t + 8.0),
            width: px(360),
            padding: UiRect::all(px(12)),
            flex_direction: FlexDirection::Column,
            row_gap: px(6),
            border: UiRect::all(px(2)),
            ..default()
        },
        BackgroundColor(Color::srgba(0.06, 0.07, 0.1, 0.96)),
        BorderColor::all(ROLL),
        Visibility::Hidden,
        GlobalZIndex(15),
    ));
}

/// Shows the explained roll, or hides the panel.
fn update_panel(
    mut commands: Commands,
    game: Res<Game>,
    view: Res<LogView>,
    scale: Res<UiScale>,
    window: Single<&Window>,
    panel: Single<(Entity, &mut Visibility, &mut Node), With<ExplainPanel>>,
    mut shown: Local<Option<(Option<usize>, u64)>>,
) {
    let key = (view.shown(), game.version);
    if *shown == Some(key) {
        return;
    }
    *shown = Some(key);
    let (entity, mut visibility, mut node) = panel.into_inner();
    commands.entity(entity).despawn_related::<Children>();
    let world = game.battle.world();
    let explained = view
        .shown()
        .and_then(|i| game.battle.events().get(i))
        .and_then(|e| explain(world, e));
    let Some(x) = explained else {
        *visibility = Visibility::Hidden;
        return;
    };
    let (_, r, t, _) = panels(window.width() / scale.0.max(0.5));
    node.right = px(r + 8.0);
    node.top = px(t + 8.0);
    *visibility = Visibility::Inherited;
    commands
        .entity(entity)
        .with_children(|p| explanation(p, &x));
}

/// The panel's content: title, rules, the dice drawn as boxes, the terms and the
/// result.
fn explanation(p: &mut ChildSpawnerCommands, x: &Explained) {
    let text = |s: &str, size: f32, color: Color| {
        (
            Text::new(ascii(s).into_owned()),
            TextFont::from_font_size(size),
            TextColor(color),
        )
    };
    p.spawn(text(&x.title, 16.0, TEXT));
    if !x.rules.is_empty() {
        p.spawn(text(&format!("Rules {}", x.rules.join(", ")), 13.0, DIM));
    }
    p.spawn(text(&x.dice, 14.0, ROLL));
    p.spawn(Node {
        flex_direction: FlexDirection::Row,
        flex_wrap: FlexWrap::Wrap,
        column_gap: px(6),
        row_gap: px(4),
        ..default()
    })
    .with_children(|dice| {
        for f in &x.faces {
            let (bg, ink) = if f.kept {
                (DIE_KEPT, Color::srgb(0.08, 0.08, 0.1))
            } else {
                (DIE_DROPPED, Color::srgb(0.7, 0.7, 0.72))
            };
            dice.spawn((
                Node {
                    min_width: px(30),
                    height: px(30),
                    padding: UiRect::horizontal(px(4)),
                    justify_content: JustifyContent::Center,
                    align_items: AlignItems::Center,
                    border: UiRect::all(px(2)),
                    border_radius: BorderRadius::all(px(5)),
                    ..default()
                },
                BackgroundColor(bg),
                BorderColor::all(if f.kept { ROLL } else { DIM }),
            ))
            .with_child(text(&f.value.to_string(), 16.0, ink));
        }
    });
    if x.faces.iter().any(|f| !f.kept) {
        p.spawn(text("grey dice are rolled but not counted", 12.0, DIM));
    }
    for t in &x.terms {
        let color = match t.advantage {
            Some(true) => Color::srgb(0.55, 0.9, 0.6),
            Some(false) => Color::srgb(1.0, 0.6, 0.5),
            None => TEXT,
        };
        p.spawn(text(&term_text(t), 14.0, color));
    }
    let mut result = String::new();
    if let Some(total) = x.total {
        result = format!("Total {total}");
    }
    if let Some(target) = &x.target {
        result = format!("{result}  vs {target}").trim().to_string();
    }
    if !result.is_empty() {
        result += "  ->  ";
    }
    result += &x.outcome;
    p.spawn(text(&result, 16.0, Color::srgb(1.0, 0.92, 0.45)));
    p.spawn(text(
        "hover a blue log line, click to keep it, / older rolls, Esc close",
        11.0,
        DIM,
    ));
}

/// A restart or a take-back (fewer events than before) drops the selection, which
/// would point at another roll or past the end.
fn forget_on_restart(game: Res<Game>, mut view: ResMut<LogView>, mut last: Local<usize>) {
    let count = game.battle.events().len();
    if count < *last {
        view.selected = None;
        view.hovered = None;
    }
    *last = count;
}

/// Registers the log and the roll explanations.
pub fn plugin(app: &mut App) {
    app.init_resource::<LogView>();
    app.add_systems(OnEnter(Screen::Battle), spawn_panel);
    app.add_systems(
        Update,
        (
            spawn_rows,
            forget_on_restart,
            update_log,
            pick,
            highlight,
            update_panel,
        )
            .chain()
            .run_if(in_state(Screen::Battle)),
    );
    // After the layout of this frame, before visibility is worked out from it.
    app.add_systems(
        PostUpdate,
        hide_unseen
            .after(bevy::ui::UiSystems::Layout)
            .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate)
            .run_if(in_state(Screen::Battle)),
    );
}
