//! Overlays on the map: reachable cells for the selected movement power (marked with
//! how many attacks the path there provokes), attackable enemies, the path preview
//! under the pointer, the active unit's ring and the keyboard cursor.

use bevy::prelude::*;

use super::Game;
use super::board_view::MapGeometry;
use super::control::{Choices, UiState};
use super::screen::Screen;
use crate::engine::battle::{Awaiting, cell_of};
use crate::engine::board::GridKind;

/// One overlay tile (rebuilt when the choices change).
#[derive(Component)]
pub struct OverlayTile;

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

fn sync_overlays(
    mut commands: Commands,
    choices: Res<Choices>,
    geo: Option<Res<MapGeometry>>,
    tiles: Query<Entity, With<OverlayTile>>,
    mut shown: Local<Option<((u64, usize), u32)>>,
) {
    let Some(geo) = geo else { return };
    let key = (choices.key, super::comfort::palette_generation());
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
                    TextFont::from_font_size(15.0),
                    TextColor(Color::BLACK),
                    Transform::from_xyz(0.0, 0.0, 0.1),
                ));
            });
        }
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
            && let Some(path) = super::control::move_path(&game.battle, cmd)
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
    app.add_systems(
        Update,
        (sync_overlays, draw).run_if(in_state(Screen::Battle)),
    );
}
