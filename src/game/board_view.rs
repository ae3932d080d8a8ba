//! The board: a bevy_ecs_tilemap of the level's terrain with procedurally drawn tiles
//! (no image files needed), and [`MapGeometry`], the one place that converts between
//! engine cells and world positions (tilemap rows count upwards, level rows downwards).

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy_ecs_tilemap::prelude::*;

use super::Game;
use super::screen::Screen;
use crate::engine::battle::Map;
use crate::engine::board::{Cell, GridKind, Terrain};

/// Square tile size in pixels.
pub const SQUARE: f32 = 64.0;
/// Pointy-top hex: width and height in pixels.
pub const HEX: Vec2 = Vec2::new(56.0, 64.0);

/// Converts between cells and world positions, using the tilemap's own projection.
#[derive(Resource, Clone, Debug)]
pub struct MapGeometry {
    /// Map size in tiles.
    pub size: TilemapSize,
    /// Grid size.
    pub grid: TilemapGridSize,
    /// Tile size.
    pub tile: TilemapTileSize,
    /// Square or hex layout.
    pub map_type: TilemapType,
    /// Anchor (the map's center is the world origin).
    pub anchor: TilemapAnchor,
    /// Grid kind.
    pub kind: GridKind,
}

impl MapGeometry {
    /// The geometry for a board of `kind` and size.
    pub fn new(kind: GridKind, width: u32, height: u32) -> Self {
        let (tile, map_type) = match kind {
            GridKind::Square => (Vec2::splat(SQUARE), TilemapType::Square),
            GridKind::Hex => {
                // Level rows count down, tilemap rows up: odd level rows shift right, so
                // the tilemap's shifted rows are odd or even depending on the height.
                let coords = if (height - 1).is_multiple_of(2) {
                    HexCoordSystem::RowOdd
                } else {
                    HexCoordSystem::RowEven
                };
                (HEX, TilemapType::Hexagon(coords))
            }
        };
        Self {
            size: TilemapSize {
                x: width,
                y: height,
            },
            grid: TilemapGridSize {
                x: tile.x,
                y: tile.y,
            },
            tile: TilemapTileSize {
                x: tile.x,
                y: tile.y,
            },
            map_type,
            anchor: TilemapAnchor::Center,
            kind,
        }
    }

    /// The tile of a cell.
    pub fn tile_pos(&self, cell: Cell) -> TilePos {
        TilePos {
            x: cell.x as u32,
            y: self.size.y - 1 - cell.y as u32,
        }
    }

    /// World position of a cell's center.
    pub fn center(&self, cell: Cell) -> Vec2 {
        self.tile_pos(cell).center_in_world(
            &self.size,
            &self.grid,
            &self.tile,
            &self.map_type,
            &self.anchor,
        )
    }

    /// The cell under a world position, if on the map.
    pub fn cell_at(&self, world: Vec2) -> Option<Cell> {
        let t = TilePos::from_world_pos(
            &world,
            &self.size,
            &self.grid,
            &self.tile,
            &self.map_type,
            &self.anchor,
        )?;
        Some(Cell::new(t.x as i32, (self.size.y - 1 - t.y) as i32))
    }

    /// Size of a cell on screen (for overlays and unit markers).
    pub fn cell_size(&self) -> Vec2 {
        Vec2::new(self.tile.x, self.tile.y)
    }

    /// The world-space rectangle the map covers (for fitting the camera).
    pub fn bounds(&self) -> Rect {
        let a = self.center(Cell::new(0, 0));
        let b = self.center(Cell::new(self.size.x as i32 - 1, self.size.y as i32 - 1));
        Rect::from_corners(a, b).inflate(self.tile.x.max(self.tile.y) * 0.75)
    }

    /// The outline of a cell (4 or 6 corners), for drawing borders.
    pub fn outline(&self, cell: Cell) -> Vec<Vec2> {
        self.corners(cell, 2.0)
    }

    /// Whether a world point is inside `cell` (on its edge counts).
    pub fn contains(&self, cell: Cell, world: Vec2) -> bool {
        let corners = self.corners(cell, 0.0);
        // The corners go counter-clockwise: inside is left of every edge.
        corners
            .iter()
            .zip(corners.iter().cycle().skip(1))
            .all(|(a, b)| (*b - *a).perp_dot(world - *a) >= -1e-3)
    }

    /// A cell's corners counter-clockwise, `inset` world units in from its edge.
    fn corners(&self, cell: Cell, inset: f32) -> Vec<Vec2> {
        let c = self.center(cell);
        match self.kind {
            GridKind::Square => {
                let h = self.tile.x / 2.0 - inset;
                vec![
                    c + Vec2::new(-h, -h),
                    c + Vec2::new(h, -h),
                    c + Vec2::new(h, h),
                    c + Vec2::new(-h, h),
                ]
            }
            GridKind::Hex => (0..6)
                .map(|i| {
                    let a = std::f32::consts::PI / 180.0 * (60.0 * i as f32 + 30.0);
                    c + Vec2::new(
                        a.cos() * (self.tile.x / 3f32.sqrt() - inset),
                        a.sin() * (self.tile.y / 2.0 - inset),
                    )
                })
                .collect(),
        }
    }
}

/// Marks the terrain tilemap.
#[derive(Component)]
pub struct TerrainMap;

/// Index of each terrain in the tile texture strip.
pub fn terrain_index(t: Terrain) -> u32 {
    match t {
        Terrain::Open => 0,
        Terrain::Difficult => 1,
        Terrain::Impassable => 2,
        Terrain::Water => 3,
        Terrain::Climb => 4,
    }
}

/// A deterministic hash of a pixel, for the terrain tiles' grain (the same picture
/// every run).
fn grain(x: u32, y: u32, salt: u32) -> u32 {
    let mut h = x.wrapping_mul(0x9E37_79B1) ^ y.wrapping_mul(0x85EB_CA77) ^ salt;
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^= h >> 12;
    h
}

/// `rgb` lightened or darkened by `d` per channel.
fn shade(rgb: [u8; 3], d: i32) -> [u8; 4] {
    let c = |v: u8| (i32::from(v) + d).clamp(0, 255) as u8;
    [c(rgb[0]), c(rgb[1]), c(rgb[2]), 255]
}

/// The colour of pixel (`x`, `y`) of terrain tile `tile` in a `w`×`h` tile:
/// - open ground: grass, light, with a fine grain and a few darker tufts;
/// - difficult ground: brown scrub, hatched (the pattern reads without colour),
///   strewn with pebbles;
/// - impassable ground: a dark stone wall of bricks, crossed out;
/// - water: blue with light wave crests;
/// - climbing: a grey rock face banded with pale ledges.
///
/// The kinds differ in pattern and brightness, not just hue, so they stay apart
/// under the reach and danger overlays and for colour-blind players.
fn terrain_pixel(tile: u32, x: u32, y: u32, w: u32, h: u32) -> [u8; 4] {
    let g = grain(x, y, tile);
    match tile {
        0 => {
            let tuft = g.is_multiple_of(97) || (y > 0 && grain(x, y - 1, tile).is_multiple_of(97));
            if tuft {
                shade([116, 128, 104], -28)
            } else {
                shade([116, 128, 104], (g % 9) as i32 - 4)
            }
        }
        1 => {
            let pebble = g.is_multiple_of(53);
            if pebble {
                shade([196, 176, 140], 0)
            } else if (x + y) % 10 < 3 {
                shade([88, 70, 44], (g % 7) as i32 - 3)
            } else {
                shade([150, 120, 76], (g % 11) as i32 - 5)
            }
        }
        3 => {
            // Water: blue, with light wave crests every few rows.
            let crest = (y + (x / 6) % 3).is_multiple_of(8) && !(x / 3).is_multiple_of(3);
            if crest {
                shade([170, 200, 225], (g % 7) as i32 - 3)
            } else {
                shade([52, 96, 150], (g % 9) as i32 - 4)
            }
        }
        4 => {
            // Climbing: grey rock face with ledges (horizontal bands) to hold on to.
            let ledge = y % (h / 3).max(4) < 2;
            if ledge {
                shade([200, 196, 180], (g % 5) as i32 - 2)
            } else {
                shade([124, 118, 108], (g % 13) as i32 - 6)
            }
        }
        _ => {
            let d1 = (x as i32 - y as i32 * w as i32 / h as i32).abs() < 3;
            let d2 = (x as i32 + y as i32 * w as i32 / h as i32 - w as i32).abs() < 3;
            // Bricks: rows of h/4, joints offset every other row.
            let row_h = (h / 4).max(4);
            let row = y / row_h;
            let brick_w = (w / 2).max(8);
            let offset = if row.is_multiple_of(2) {
                0
            } else {
                brick_w / 2
            };
            let mortar = y % row_h < 2 || (x + offset) % brick_w < 2;
            if d1 || d2 {
                [20, 20, 24, 255]
            } else if mortar {
                [36, 36, 42, 255]
            } else {
                shade(
                    [66, 66, 76],
                    (grain(row, (x + offset) / brick_w, 7) % 13) as i32 - 6,
                )
            }
        }
    }
}

/// Draws the terrain tiles side by side, one per kind in [`terrain_index`] order
/// (see [`terrain_pixel`]).
pub fn terrain_texture(kind: GridKind) -> Image {
    let (w, h) = match kind {
        GridKind::Square => (SQUARE as u32, SQUARE as u32),
        GridKind::Hex => (HEX.x as u32, HEX.y as u32),
    };
    let tiles = Terrain::ALL.len() as u32;
    let mut data = vec![0u8; (w * tiles * h * 4) as usize];
    for tile in 0..tiles {
        for y in 0..h {
            for x in 0..w {
                let inside = match kind {
                    GridKind::Square => true,
                    GridKind::Hex => in_hex(x as f32 + 0.5, y as f32 + 0.5, w as f32, h as f32),
                };
                let edge = match kind {
                    GridKind::Square => x < 2 || y < 2 || x >= w - 2 || y >= h - 2,
                    GridKind::Hex => {
                        !in_hex_inset(x as f32 + 0.5, y as f32 + 0.5, w as f32, h as f32, 2.0)
                    }
                };
                let rgba: [u8; 4] = if !inside {
                    [0, 0, 0, 0]
                } else if edge {
                    [30, 33, 38, 255]
                } else {
                    terrain_pixel(tile, x, y, w, h)
                };
                let i = ((y * w * tiles + tile * w + x) * 4) as usize;
                data[i..i + 4].copy_from_slice(&rgba);
            }
        }
    }
    Image::new(
        Extent3d {
            width: w * tiles,
            height: h,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD | RenderAssetUsages::MAIN_WORLD,
    )
}

fn in_hex(x: f32, y: f32, w: f32, h: f32) -> bool {
    in_hex_inset(x, y, w, h, 0.0)
}

/// Whether a pixel lies inside a pointy-top hexagon filling a w×h box, inset by `d`:
/// within the vertical sides, and under the slanted edges that fall from the top and
/// bottom vertices (h/2 from the center) to the side corners (h/4 from the center).
fn in_hex_inset(x: f32, y: f32, w: f32, h: f32, d: f32) -> bool {
    let (cx, cy) = (w / 2.0, h / 2.0);
    let (dx, dy) = ((x - cx).abs(), (y - cy).abs());
    dx <= cx - d && dy <= (h / 2.0 - d) - dx * (h / 4.0) / cx
}

/// Spawns the terrain tilemap and the map geometry when a battle starts, and again
/// when a different level is loaded into it (hot reload).
fn spawn_board(
    mut commands: Commands,
    game: Res<Game>,
    mut images: ResMut<Assets<Image>>,
    old: Query<Entity, With<TerrainTile>>,
    clear: Res<ClearColor>,
    mut shown: Local<Option<u64>>,
) {
    if *shown == Some(game.generation()) && !old.is_empty() {
        return;
    }
    *shown = Some(game.generation());
    for e in &old {
        commands.entity(e).despawn();
    }
    let board = &game.battle.world().resource::<Map>().0;
    let geo = MapGeometry::new(board.kind(), board.width(), board.height());
    let texture = images.add(terrain_texture(board.kind()));
    let map = commands
        .spawn((
            TerrainMap,
            TerrainTile,
            Name::new("Terrain"),
            DespawnOnExit(Screen::Battle),
        ))
        .id();
    let mut storage = TileStorage::empty(geo.size);
    for cell in board.cells() {
        let position = geo.tile_pos(cell);
        let tile = commands
            .spawn((
                TileBundle {
                    position,
                    tilemap_id: TilemapId(map),
                    texture_index: TileTextureIndex(terrain_index(board.terrain(cell))),
                    ..default()
                },
                TerrainTile,
                DespawnOnExit(Screen::Battle),
            ))
            .id();
        storage.set(&position, tile);
    }
    commands.entity(map).insert(TilemapBundle {
        grid_size: geo.grid,
        size: geo.size,
        storage,
        texture: TilemapTexture::Single(texture),
        tile_size: geo.tile,
        map_type: geo.map_type,
        anchor: geo.anchor,
        ..default()
    });
    spawn_backdrop(&mut commands, &geo, clear.0);
    commands.insert_resource(geo);
}

/// Four sprites around the map's tiles in the window's clear colour, out to far
/// beyond any view: the battle screen's camera clears its view in the panels'
/// colour ([`super::control`]), and these give the space around the map the colour
/// it has on the other screens. They leave the rectangle through the outer tiles'
/// centres free (the tiles cover it whole), so next to nothing is drawn twice.
fn spawn_backdrop(commands: &mut Commands, geo: &MapGeometry, color: Color) {
    const FAR: f32 = 1.0e5;
    let inner = Rect::from_corners(
        geo.center(Cell::new(0, 0)),
        geo.center(Cell::new(geo.size.x as i32 - 1, geo.size.y as i32 - 1)),
    );
    let strips = [
        Rect::new(-FAR, -FAR, inner.min.x, FAR),
        Rect::new(inner.max.x, -FAR, FAR, FAR),
        Rect::new(inner.min.x, -FAR, inner.max.x, inner.min.y),
        Rect::new(inner.min.x, inner.max.y, inner.max.x, FAR),
    ];
    for strip in strips {
        commands.spawn((
            Sprite::from_color(color, strip.size()),
            Transform::from_translation(strip.center().extend(BACKDROP_Z)),
            TerrainTile,
            DespawnOnExit(Screen::Battle),
        ));
    }
}

/// The backdrop's depth: under the tilemap and everything on it.
const BACKDROP_Z: f32 = -10.0;

/// The tilemap, its tiles and its backdrop (despawned together when the board is
/// rebuilt).
#[derive(Component)]
pub struct TerrainTile;

/// Registers the board view.
pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        spawn_board
            .run_if(in_state(Screen::Battle))
            .run_if(resource_exists::<Game>),
    );
    app.add_systems(OnExit(Screen::Battle), |mut commands: Commands| {
        commands.remove_resource::<MapGeometry>();
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip_through_world_positions_on_both_grids() {
        for kind in [GridKind::Square, GridKind::Hex] {
            for (w, h) in [(8, 5), (11, 9), (12, 10)] {
                let geo = MapGeometry::new(kind, w, h);
                for y in 0..h as i32 {
                    for x in 0..w as i32 {
                        let c = Cell::new(x, y);
                        assert_eq!(geo.cell_at(geo.center(c)), Some(c), "{kind:?} {w}x{h} {c}");
                    }
                }
            }
        }
    }

    #[test]
    fn level_rows_go_down_and_odd_hex_rows_shift_right() {
        for h in [9, 10] {
            let geo = MapGeometry::new(GridKind::Hex, 6, h);
            let (r0, r1) = (geo.center(Cell::new(0, 0)), geo.center(Cell::new(0, 1)));
            assert!(r1.y < r0.y, "row 1 is below row 0");
            assert!(r1.x > r0.x, "odd rows are shifted right (h = {h})");
        }
        let geo = MapGeometry::new(GridKind::Square, 6, 4);
        assert!(geo.center(Cell::new(0, 1)).y < geo.center(Cell::new(0, 0)).y);
    }
}
