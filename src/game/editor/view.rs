//! The editor's map: the level's terrain as the battle's tilemap
//! ([`board_view::terrain_texture`], [`MapGeometry`]), unit markers in the battle's
//! look (side colour and shape, initials, name plate), gizmo overlays (brush
//! footprint, rectangle preview, selection, problem cells) and the camera (fitted
//! with [`crate::game::layout::fit`], panned, zoomed, centred on jumps).

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use bevy::window::CursorMoved;
use bevy_ecs_tilemap::prelude::*;
use leafwing_input_manager::prelude::*;

use super::input::{EditorAction, EditorInput};
use super::state::{Drag, Editor, Tool};
use crate::editor::terrain::{brush_cells, on_map, rect_cells, terrain_at};
use crate::engine::board::{Cell, GridKind, Terrain};
use crate::game::board_view::{self, MapGeometry, terrain_index};
use crate::game::layout::{MainCamera, fit, pan_and_zoom, panels_px};
use crate::game::screen::Screen;
use crate::game::units_view::{ShapeTextures, side_color};

/// The map geometry of the level being edited (the editor's own, so it never
/// mixes with the battle's [`MapGeometry`] resource).
#[derive(Resource, Clone, Debug)]
pub struct EditorMap {
    /// Cell ↔ world conversions.
    pub geo: MapGeometry,
    /// What the tilemap was built for: document generation, grid, size.
    key: (u64, GridKind, (u32, u32)),
}

/// The editor tilemap and its tiles.
#[derive(Component)]
pub struct EditorTile;

/// One unit marker of the editor.
#[derive(Component)]
pub struct EditorMarker;

/// Camera bookkeeping: fit on entering, on a new map and on window resizes.
#[derive(Resource, Default)]
pub struct EditorCamera {
    /// Fit at the next frame.
    pub needs_fit: bool,
    fitted_for: Option<(u64, GridKind, (u32, u32), Vec2)>,
}

/// Builds the tilemap when the map's shape changes, and updates tile textures when
/// the terrain changes.
#[allow(clippy::too_many_arguments)]
fn sync_map(
    mut commands: Commands,
    ed: Res<Editor>,
    map: Option<Res<EditorMap>>,
    mut images: ResMut<Assets<Image>>,
    old: Query<Entity, With<EditorTile>>,
    storages: Query<&TileStorage, With<EditorTile>>,
    mut tiles: Query<&mut TileTextureIndex, With<EditorTile>>,
    mut shown: Local<Option<(u64, u64)>>,
) {
    let level = ed.doc.level();
    let (w, h) = level.size;
    if w == 0 || h == 0 {
        return;
    }
    let key = (ed.generation, level.grid, level.size);
    let index_of = |cell: Cell| terrain_index(terrain_at(level, cell).unwrap_or(Terrain::Open));
    if map.as_ref().is_none_or(|m| m.key != key) || old.is_empty() {
        for e in &old {
            commands.entity(e).despawn();
        }
        let geo = MapGeometry::new(level.grid, w, h);
        let texture = images.add(board_view::terrain_texture(level.grid));
        let tilemap = commands
            .spawn((
                EditorTile,
                Name::new("Editor terrain"),
                DespawnOnExit(Screen::Editor),
            ))
            .id();
        let mut storage = TileStorage::empty(geo.size);
        for y in 0..h as i32 {
            for x in 0..w as i32 {
                let cell = Cell::new(x, y);
                let position = geo.tile_pos(cell);
                let tile = commands
                    .spawn((
                        TileBundle {
                            position,
                            tilemap_id: TilemapId(tilemap),
                            texture_index: TileTextureIndex(index_of(cell)),
                            ..default()
                        },
                        EditorTile,
                        DespawnOnExit(Screen::Editor),
                    ))
                    .id();
                storage.set(&position, tile);
            }
        }
        commands.entity(tilemap).insert(TilemapBundle {
            grid_size: geo.grid,
            size: geo.size,
            storage,
            texture: TilemapTexture::Single(texture),
            tile_size: geo.tile,
            map_type: geo.map_type,
            anchor: geo.anchor,
            ..default()
        });
        commands.insert_resource(EditorMap { geo, key });
        *shown = Some((ed.generation, ed.doc.revision()));
        return;
    }
    let now = (ed.generation, ed.doc.revision());
    if *shown == Some(now) {
        return;
    }
    *shown = Some(now);
    let Some(map) = map else { return };
    for storage in &storages {
        for y in 0..h as i32 {
            for x in 0..w as i32 {
                let cell = Cell::new(x, y);
                if let Some(e) = storage.get(&map.geo.tile_pos(cell))
                    && let Ok(mut index) = tiles.get_mut(e)
                {
                    let want = TileTextureIndex(index_of(cell));
                    if *index != want {
                        *index = want;
                    }
                }
            }
        }
    }
}

fn text2d(value: impl Into<String>, size: f32) -> impl Bundle {
    (
        Text2d::new(value),
        TextFont::from_font_size(size),
        TextColor(Color::WHITE),
    )
}

/// Rebuilds the unit markers when the level changed.
fn sync_units(
    mut commands: Commands,
    ed: Res<Editor>,
    map: Option<Res<EditorMap>>,
    shapes: Res<ShapeTextures>,
    markers: Query<Entity, With<EditorMarker>>,
    mut shown: Local<Option<(u64, u64, Option<usize>)>>,
) {
    let Some(map) = map else { return };
    let level = ed.doc.level();
    let now = (ed.generation, ed.doc.revision(), ed.selected);
    let missing = markers.is_empty() && !level.units.is_empty();
    if *shown == Some(now) && !missing {
        return;
    }
    *shown = Some(now);
    for e in &markers {
        commands.entity(e).despawn();
    }
    let geo = &map.geo;
    let cell = geo.cell_size().min_element();
    for (i, u) in level.units.iter().enumerate() {
        if !on_map(level, u.cell()) {
            continue;
        }
        let side = level
            .sides
            .iter()
            .position(|s| s.name == u.side)
            .unwrap_or(0);
        let pos = geo.center(u.cell());
        let selected = ed.selected == Some(i);
        commands
            .spawn((
                EditorMarker,
                DespawnOnExit(Screen::Editor),
                Transform::from_xyz(pos.x, pos.y, 5.0),
                Visibility::default(),
            ))
            .with_children(|p| {
                p.spawn((
                    Sprite {
                        image: shapes.0[side % shapes.0.len()].clone(),
                        color: side_color(side),
                        custom_size: Some(Vec2::splat(cell * if selected { 0.7 } else { 0.62 })),
                        ..default()
                    },
                    Transform::from_xyz(0.0, 2.0, 0.0),
                ));
                let initial: String = u.name.chars().take(2).collect();
                p.spawn((text2d(initial, 16.0), Transform::from_xyz(0.0, 2.0, 0.2)));
                p.spawn((
                    Sprite::from_color(
                        Color::srgba(0.0, 0.0, 0.0, 0.7),
                        Vec2::new(cell * 0.98, 13.0),
                    ),
                    Transform::from_xyz(0.0, -cell * 0.36, 0.3),
                ));
                p.spawn((
                    text2d(u.name.clone(), 11.0),
                    Transform::from_xyz(0.0, -cell * 0.36, 0.4),
                ));
            });
    }
}

/// Whether a window position is over the map area (not a panel or a dialog).
pub fn over_map(window: &Window, pos: Vec2, modal: bool) -> bool {
    let (l, r, t, b) = panels_px(window.width());
    !modal
        && pos.x >= l
        && pos.x <= window.width() - r
        && pos.y >= t
        && pos.y <= window.height() - b
}

/// Tracks the cell under the pointer from cursor-moved messages.
fn hover(
    mut moved: MessageReader<CursorMoved>,
    window: Single<&Window>,
    camera: Single<(&Camera, &GlobalTransform), With<MainCamera>>,
    map: Option<Res<EditorMap>>,
    mut ed: ResMut<Editor>,
) {
    let Some(pos) = moved.read().last().map(|m| m.position) else {
        return;
    };
    let Some(map) = map else { return };
    if !over_map(&window, pos, ed.modal.is_some()) {
        if ed.hovered.is_some() && ed.drag.is_none() {
            ed.hovered = None;
        }
        return;
    }
    let (camera, transform) = *camera;
    let cell = camera
        .viewport_to_world_2d(transform, pos)
        .ok()
        .and_then(|w| map.geo.cell_at(w));
    if cell.is_some() || ed.drag.is_none() {
        ed.hovered = cell;
        ed.cursor = None;
    }
}

/// Fits, pans and zooms the camera; centres it on jump targets.
#[allow(clippy::too_many_arguments)]
fn camera_control(
    actions: Single<&ActionState<EditorAction>, With<EditorInput>>,
    mut camera: Single<(&mut Transform, &mut Projection), With<MainCamera>>,
    window: Single<&Window>,
    map: Option<Res<EditorMap>>,
    mut ed: ResMut<Editor>,
    mut state: ResMut<EditorCamera>,
    scroll: Res<AccumulatedMouseScroll>,
    motion: Res<AccumulatedMouseMotion>,
    buttons: Res<ButtonInput<MouseButton>>,
    time: Res<Time>,
) {
    use EditorAction as A;
    let Some(map) = map else { return };
    let (transform, projection) = &mut *camera;
    let Projection::Orthographic(ortho) = &mut **projection else {
        return;
    };
    let size = Vec2::new(window.width(), window.height());
    let key = (map.key.0, map.key.1, map.key.2, size);
    let typing = ed.typing.is_some() || ed.modal.is_some();
    if state.needs_fit
        || state.fitted_for != Some(key)
        || (!typing && actions.just_pressed(&A::FitMap))
    {
        let (center, scale) = fit(map.geo.bounds(), size, panels_px(window.width()));
        transform.translation = center.extend(transform.translation.z);
        ortho.scale = scale;
        state.fitted_for = Some(key);
        state.needs_fit = false;
    }
    if let Some(cell) = ed.jump.take() {
        let (l, r, t, b) = panels_px(size.x);
        let offset = Vec2::new((r - l) / 2.0, (t - b) / 2.0) * ortho.scale;
        let c = map.geo.center(cell) + offset;
        transform.translation = c.extend(transform.translation.z);
    }
    if typing {
        return;
    }
    let pointer_over_map = window
        .cursor_position()
        .is_some_and(|p| over_map(&window, p, false));
    pan_and_zoom(
        *actions,
        [
            A::PanUp,
            A::PanDown,
            A::PanLeft,
            A::PanRight,
            A::ZoomIn,
            A::ZoomOut,
        ],
        (transform, ortho),
        pointer_over_map,
        (&scroll, &motion, &buttons),
        time.delta_secs(),
    );
}

const HOVER: Color = Color::srgb(1.0, 1.0, 1.0);
const SELECT: Color = Color::srgb(1.0, 0.9, 0.2);
const PROBLEM: Color = Color::srgb(1.0, 0.3, 0.3);

/// Draws the overlays: problem cells, the selection, the tool's footprint under the
/// pointer and the rectangle being dragged.
fn draw(mut gizmos: Gizmos, ed: Res<Editor>, map: Option<Res<EditorMap>>) {
    let Some(map) = map else { return };
    let geo = &map.geo;
    let level = ed.doc.level();
    let outline = |gizmos: &mut Gizmos, cell: Cell, color: Color| {
        let mut pts = geo.outline(cell);
        if let Some(first) = pts.first().copied() {
            pts.push(first);
        }
        gizmos.linestrip_2d(pts, color);
    };
    for p in &ed.problems {
        if let Some(cell) = p.cell.filter(|c| on_map(level, *c)) {
            outline(&mut gizmos, cell, PROBLEM);
        }
    }
    if let Some(u) = ed.selected.and_then(|i| level.units.get(i)) {
        let c = geo.center(u.cell());
        gizmos.circle_2d(
            Isometry2d::from_translation(c),
            geo.cell_size().min_element() * 0.45,
            SELECT,
        );
    }
    let Some(hovered) = ed.hovered.filter(|c| on_map(level, *c)) else {
        return;
    };
    let cells = match (ed.tool, ed.drag) {
        (Tool::Brush, _) => brush_cells(level, hovered, ed.brush),
        (Tool::Rect, Some(Drag::Rect(a))) => rect_cells(level, a, hovered),
        _ => vec![hovered],
    };
    for c in cells {
        outline(&mut gizmos, c, HOVER);
    }
    if let Some(Drag::Move(i)) = ed.drag
        && let Some(u) = level.units.get(i)
    {
        gizmos.line_2d(geo.center(u.cell()), geo.center(hovered), SELECT);
    }
}

/// Registers the map view.
pub fn plugin(app: &mut App) {
    app.init_resource::<EditorCamera>();
    app.add_systems(OnEnter(Screen::Editor), |mut cam: ResMut<EditorCamera>| {
        cam.needs_fit = true
    });
    app.add_systems(OnExit(Screen::Editor), |mut commands: Commands| {
        commands.remove_resource::<EditorMap>();
    });
    app.add_systems(
        Update,
        (sync_map, sync_units, hover, camera_control, draw)
            .chain()
            .run_if(in_state(Screen::Editor))
            .run_if(resource_exists::<Editor>),
    );
}
