//! Overlays on the map: reachable cells for the selected movement power (marked with
//! how many attacks the path there provokes), attackable enemies, the path preview
//! under the pointer, the active unit's ring and the keyboard cursor; and the threat
//! overlay ([`crate::ai::threat`]): with the comfort setting on (F3 toggles it), every
//! cell an enemy can attack on its next turn, deeper red the more damage the
//! enemies there can expect to deal the unit about to move (the hover line gives
//! the figures), and, with an enemy under the pointer, that enemy's own move range
//! and reach instead.

use bevy::prelude::*;

use super::Game;
use super::board_view::MapGeometry;
use super::choices::{Choices, UiState};
use super::screen::Screen;
use super::settings::{BattleAction, Player};
use crate::engine::battle::{Awaiting, cell_of, side_of};
use crate::engine::board::{Cell, GridKind};
use leafwing_input_manager::prelude::ActionState;
use std::collections::BTreeMap;

use crate::ai::threat::Threat;
use crate::engine::units::{SideId, UnitId};
use crate::level::schema::Controller;

/// One overlay tile (rebuilt when the choices change).
#[derive(Component)]
pub struct OverlayTile;

/// A threat overlay tile (rebuilt when the battle, the setting or the hovered enemy
/// changes).
#[derive(Component)]
pub struct ThreatTile;

/// Threatened cells: red, from faint (one enemy, little damage) to deep.
const THREAT: Color = Color::srgb(0.85, 0.08, 0.12);
/// A hovered enemy's move range: violet; the cells it can strike beyond: orange.
const ENEMY_MOVES: Color = Color::srgba(0.5, 0.3, 1.0, 0.4);
const ENEMY_STRIKES: Color = Color::srgba(1.0, 0.5, 0.1, 0.42);

/// Reachable: a cool blue; provoking: amber with a count; target: a red ring.
const REACH: Color = Color::srgba(0.35, 0.75, 1.0, 0.33);
const PROVOKE: Color = Color::srgba(1.0, 0.6, 0.1, 0.45);
/// The high-contrast palette's reach and provoking-path tints: stronger.
const REACH_HIGH: Color = Color::srgba(0.0, 0.85, 1.0, 0.55);
const PROVOKE_HIGH: Color = Color::srgba(1.0, 0.45, 0.0, 0.7);
const TARGET: Color = Color::srgb(1.0, 0.25, 0.3);

fn tile_sprite(geo: &MapGeometry, color: Color) -> Sprite {
    let size = geo.cell_size()
        * match geo.kind {
            GridKind::Square => 0.92,
            GridKind::Hex => 0.8,
        };
    Sprite::from_color(color, size)
}

/// The provocation count's size on screen, in pixels, at the least (on a big map
/// fitted to the window the cells are small).
const PROVOKE_MIN_PX: f32 = 11.0;

/// The provocation count's text size (world units) at `zoom`: readable on screen,
/// within the cell.
fn provocation_font(geo: &MapGeometry, zoom: f32) -> f32 {
    (PROVOKE_MIN_PX * zoom).clamp(15.0, geo.cell_size().min_element() * 0.45)
}

/// Where the reachable cells' `!n` provocation counts are drawn (world
/// rectangles, a little larger than the text), for the name plates to keep clear
/// of ([`super::units_view::place_plates`]).
pub fn provocation_labels(geo: &MapGeometry, choices: &Choices, zoom: f32) -> Vec<Rect> {
    let font = provocation_font(geo, zoom);
    choices
        .moves
        .iter()
        .filter(|(_, (_, preview))| preview.provocations > 0)
        .map(|(&cell, (_, preview))| {
            // A monospace digit is about 0.6 of the size wide.
            let chars = format!("!{}", preview.provocations).chars().count() as f32;
            Rect::from_center_size(
                geo.center(cell),
                Vec2::new(font * (0.6 * chars + 0.3), font * 1.2),
            )
        })
        .collect()
}

/// What the overlay tiles were last drawn for: the choices, the palette and the
/// zoom (in tenths).
type OverlayKey = ((u64, usize), u32, i64);

fn sync_overlays(
    mut commands: Commands,
    choices: Res<Choices>,
    geo: Option<Res<MapGeometry>>,
    tiles: Query<Entity, With<OverlayTile>>,
    camera: Single<&Projection, With<super::layout::MainCamera>>,
    mut shown: Local<Option<OverlayKey>>,
) {
    let Some(geo) = geo else { return };
    let zoom = match *camera {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    // Redrawn when the choices or the palette change, and when the zoom does by a
    // tenth (the counts keep a readable size on screen).
    let key = (
        choices.key,
        super::comfort::palette_generation(),
        (zoom * 10.0).round() as i64,
    );
    if *shown == Some(key) {
        return;
    }
    *shown = Some(key);
    let high = super::comfort::palette() == super::comfort::Palette::HighContrast;
    for e in &tiles {
        commands.entity(e).despawn();
    }
    if !choices.human {
        return;
    }
    for (&cell, (_, preview)) in &choices.moves {
        let p = geo.center(cell);
        let color = match (preview.provocations > 0, high) {
            (true, false) => PROVOKE,
            (false, false) => REACH,
            (true, true) => PROVOKE_HIGH,
            (false, true) => REACH_HIGH,
        };
        let mut e = commands.spawn((
            OverlayTile,
            DespawnOnExit(Screen::Battle),
            tile_sprite(&geo, color),
            Transform::from_xyz(p.x, p.y, 1.0),
        ));
        if preview.provocations > 0 {
            e.with_children(|c| {
                c.spawn((
                    Text2d::new(format!("!{}", preview.provocations)),
                    // Within the cell, however far out the zoom.
                    TextFont::from_font_size(provocation_font(&geo, zoom)),
                    TextColor(Color::BLACK),
                    Transform::from_xyz(0.0, 0.0, 0.1),
                ));
            });
        }
    }
}

/// The side the threat overlay is drawn for and the unit whose danger it weighs:
/// the unit a person is moving, else the first side a person plays (no unit), else
/// (AI against AI) the side that acts.
fn threat_view(game: &super::Game, choices: &Choices) -> Option<(SideId, Option<UnitId>)> {
    let battle = &game.battle;
    if choices.human
        && let Some(u) = choices.unit
    {
        return Some((side_of(battle.world(), u), Some(u)));
    }
    let human = game
        .level
        .sides
        .iter()
        .position(|s| s.controller == Controller::Human);
    match (human, battle.awaiting()) {
        (Some(i), _) => Some((SideId(i as u32), None)),
        (None, Awaiting::Unit(u, _)) => Some((side_of(battle.world(), u), None)),
        (None, Awaiting::Decision(d)) => Some((d.side, None)),
        (None, Awaiting::Over(_)) => None,
    }
}

/// What the threat overlay shows now, for the hover line: by cell, how many enemies
/// can strike there and what they can expect to deal the weighed unit (named).
#[derive(Resource, Default)]
pub struct ThreatShown {
    /// Threatened cells.
    pub cells: BTreeMap<Cell, Threat>,
    /// The unit whose danger is weighed, if any.
    pub victim: Option<String>,
    /// The hovered enemy whose own reach is shown instead, if any.
    pub enemy: Option<String>,
}

/// What the threat overlay was last drawn for: the battle's version, the setting,
/// the hovered enemy and the weighed unit.
type ThreatKey = (u64, bool, Option<UnitId>, Option<UnitId>);

/// Rebuilds the threat overlay when the battle, the setting or the hovered enemy
/// changed: with an enemy under the pointer, its own move range and reach; else
/// every cell the enemies can strike.
#[allow(clippy::too_many_arguments)]
fn sync_threat(
    mut commands: Commands,
    game: Res<super::Game>,
    choices: Res<Choices>,
    ui: Res<UiState>,
    comfort: Res<super::comfort::Comfort>,
    geo: Option<Res<MapGeometry>>,
    tiles: Query<Entity, With<ThreatTile>>,
    mut shown: ResMut<ThreatShown>,
    mut key_shown: Local<Option<ThreatKey>>,
) {
    let Some(geo) = geo else { return };
    let battle = &game.battle;
    let view = threat_view(&game, &choices);
    let hovered_enemy = ui
        .hovered
        .filter(|_| comfort.threat_overlay)
        .and_then(|cell| {
            battle
                .units()
                .into_iter()
                .find(|u| u.cell == cell && u.state.is_active())
                .filter(|u| view.is_some_and(|(side, _)| battle.side_id(&u.side) != Some(side)))
        });
    let key = (
        game.version,
        comfort.threat_overlay,
        hovered_enemy.as_ref().map(|u| u.id),
        view.and_then(|v| v.1),
    );
    if *key_shown == Some(key) {
        return;
    }
    *key_shown = Some(key);
    for e in &tiles {
        commands.entity(e).despawn();
    }
    *shown = ThreatShown::default();
    let Some((side, victim)) = view.filter(|_| comfort.threat_overlay) else {
        return;
    };
    let mut tile = |cell: Cell, color: Color, z: f32| {
        let p = geo.center(cell);
        commands.spawn((
            ThreatTile,
            DespawnOnExit(Screen::Battle),
            tile_sprite(&geo, color),
            Transform::from_xyz(p.x, p.y, z),
        ));
    };
    if let Some(enemy) = hovered_enemy {
        let reach = crate::ai::threat::reach(battle, enemy.id);
        for &cell in &reach.strikes {
            tile(cell, ENEMY_STRIKES, 0.85);
        }
        for &cell in &reach.moves {
            tile(cell, ENEMY_MOVES, 0.86);
        }
        shown.enemy = Some(enemy.name);
        return;
    }
    let victim_view = victim.and_then(|v| battle.units().into_iter().find(|u| u.id == v));
    let hp = victim_view.as_ref().map_or(1, |u| u.hp.max(1));
    let cells = crate::ai::threat::map(battle, side, victim);
    for (&cell, threat) in &cells {
        // Deeper with the share of the unit's hit points the enemies there can expect
        // to take, or with their number when no unit is weighed.
        let weight = if victim.is_some() {
            (threat.expected / f64::from(hp)) as f32
        } else {
            0.25 * threat.enemies as f32
        };
        let alpha = 0.12 + 0.43 * weight.clamp(0.0, 1.0);
        tile(cell, THREAT.with_alpha(alpha), 0.8);
    }
    shown.cells = cells;
    shown.victim = victim_view.map(|u| u.name);
}

/// The hover line's words on the threat at `cell`, when the overlay is on.
pub fn threat_words(shown: &ThreatShown, cell: Cell) -> Option<String> {
    if let Some(enemy) = &shown.enemy {
        return Some(format!(
            "threat: {enemy}'s move range (violet) and what it can strike beyond (orange) next turn"
        ));
    }
    let t = shown.cells.get(&cell)?;
    let who = if t.enemies == 1 { "enemy" } else { "enemies" };
    Some(match &shown.victim {
        Some(v) => format!(
            "threat: {} {who} can strike here next turn, {:.1} expected damage to {v}",
            t.enemies, t.expected
        ),
        None => format!("threat: {} {who} can strike here next turn", t.enemies),
    })
}

/// The threat overlay's key flips the comfort setting (so it is saved, and the
/// settings panel shows it).
fn toggle_threat(
    actions: Single<&ActionState<BattleAction>, With<Player>>,
    mut comfort: ResMut<super::comfort::Comfort>,
) {
    if actions.just_pressed(&BattleAction::ToggleThreat) {
        comfort.threat_overlay = !comfort.threat_overlay;
    }
}

/// Draws the per-frame overlays with gizmos.
fn draw(
    mut gizmos: Gizmos,
    game: Res<Game>,
    choices: Res<Choices>,
    ui: Res<UiState>,
    geo: Option<Res<MapGeometry>>,
) {
    let Some(geo) = geo else { return };
    let r = geo.cell_size().min_element() * 0.45;
    let world = game.battle.world();
    if let Awaiting::Unit(u, _) = game.battle.awaiting() {
        let c = geo.center(cell_of(world, u));
        gizmos
            .circle_2d(
                Isometry2d::from_translation(c),
                r,
                Color::srgb(1.0, 0.95, 0.3),
            )
            .resolution(48);
        gizmos
            .circle_2d(
                Isometry2d::from_translation(c),
                r - 2.0,
                Color::srgb(1.0, 0.95, 0.3),
            )
            .resolution(48);
    }
    if choices.human {
        for &cell in choices.targets.keys() {
            let c = geo.center(cell);
            gizmos
                .circle_2d(Isometry2d::from_translation(c), r + 2.0, TARGET)
                .resolution(48);
            gizmos
                .circle_2d(Isometry2d::from_translation(c), r + 4.0, TARGET)
                .resolution(48);
        }
    }
    if let Some(cell) = ui.hovered {
        let outline = geo.outline(cell);
        gizmos.linestrip_2d(
            outline.iter().copied().chain(outline.first().copied()),
            Color::WHITE,
        );
        if let Some((cmd, _)) = choices.moves.get(&cell)
            && let Some(path) = super::choices::move_path(&game.battle, cmd)
            && let Some(u) = choices.unit
        {
            let start = geo.center(cell_of(world, u));
            let points: Vec<Vec2> = std::iter::once(start)
                .chain(path.iter().map(|&c| geo.center(c)))
                .collect();
            gizmos.linestrip_2d(points.clone(), Color::srgb(1.0, 1.0, 1.0));
            for p in points.iter().skip(1) {
                gizmos.circle_2d(Isometry2d::from_translation(*p), 4.0, Color::WHITE);
            }
        }
    }
    if let Some(cell) = ui.cursor {
        let outline = geo.outline(cell);
        gizmos.linestrip_2d(
            outline.iter().copied().chain(outline.first().copied()),
            Color::srgb(1.0, 0.95, 0.3),
        );
    }
}

/// Registers the overlays.
pub fn plugin(app: &mut App) {
    app.init_resource::<ThreatShown>();
    app.add_systems(
        Update,
        (sync_overlays, toggle_threat, sync_threat, draw).run_if(in_state(Screen::Battle)),
    );
}
