//! Unit markers: a side-coloured shape (each side also has its own shape, so sides
//! stay distinguishable without colour) with an icon of what the unit is (a Game
//! Icons glyph chosen by [`crate::level::icons::icon_for`]; Large and Huge units'
//! tokens fill more of their one cell, see [`token_fraction`]), an HP bar and
//! condition badges, and a name plate shown only for the hovered unit, the unit
//! whose turn it is and the one selected (and for every unit while the show-names
//! key, Alt, is held), each beside its unit where it covers no other plate, no
//! other unit and no `!n` count ([`place_plates`]; shortened or left out in a
//! crowd), so names never run into each other on a crowded map. A dying unit still
//! on the board is drawn greyed, a skull badge first in its badge column; units
//! that left play are not drawn. Rebuilt whenever the battle changes. A badge's
//! tooltip (`badge_tooltip`) lies wholly over the map ([`tooltip_corner`]).

use bevy::asset::RenderAssetUsages;
use bevy::ecs::hierarchy::ChildSpawnerCommands;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

use super::board_view::MapGeometry;
use super::screen::Screen;
use super::{BattleSystems, Game};
use crate::engine::board::Cell;
use crate::engine::ruleset::ConditionBadge;
use crate::engine::spec::Size;
use crate::engine::units::UnitId;

/// Colour-blind-safe side colours (Okabe–Ito).
pub const SIDE_COLORS: [Color; 4] = [
    Color::srgb(0.0, 0.447, 0.698),
    Color::srgb(0.902, 0.624, 0.0),
    Color::srgb(0.0, 0.62, 0.451),
    Color::srgb(0.8, 0.475, 0.655),
];

/// High-contrast side colours: saturated, and far apart in lightness so they stay
/// apart for every kind of colour blindness (blue, yellow, white, magenta).
pub const HIGH_CONTRAST_SIDE_COLORS: [Color; 4] = [
    Color::srgb(0.05, 0.3, 1.0),
    Color::srgb(1.0, 0.86, 0.0),
    Color::srgb(0.97, 0.97, 0.97),
    Color::srgb(0.95, 0.0, 0.75),
];

/// The colour of side `i` in the palette in use ([`super::comfort`]).
pub fn side_color(i: usize) -> Color {
    let colors = match super::comfort::palette() {
        super::comfort::Palette::Standard => &SIDE_COLORS,
        super::comfort::Palette::HighContrast => &HIGH_CONTRAST_SIDE_COLORS,
    };
    colors[i % colors.len()]
}

/// The shape names of sides, in the order of [`SIDE_COLORS`].
pub const SIDE_SHAPES: [&str; 4] = ["circle", "diamond", "square", "triangle"];

/// Root of one unit's marker.
#[derive(Component)]
pub struct UnitMarker;

/// The marker of a unit (on [`UnitMarker`] roots), so [`super::motion`] can place it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarkerOf(pub UnitId);

/// A unit's name plate (its backing and its text), shown by [`show_names`].
#[derive(Component)]
pub struct NamePlate(pub UnitId);

/// A marker's token: the side-coloured shape (its icon is drawn over it).
#[derive(Component)]
pub struct Token(pub UnitId);

/// How much of its cell a unit's token covers, by the unit's size: the token's side
/// as a fraction of the cell's width. Every unit occupies exactly one cell in every
/// ruleset (RULES.md: no seed defines multi-cell footprints, F-GAP-11), so a Large
/// or Huge unit fills its one cell: its token is visibly bigger than a Medium's
/// (a fifth wider when Large, a third when Huge) yet, whatever its side's
/// shape, stays inside the cell on squares and hexes (checked by the tests), clear
/// of its neighbours'. Small units keep the Medium size, the smallest that stays
/// readable on a big map fitted to the window.
pub fn token_fraction(size: Size) -> f32 {
    match size {
        Size::Small | Size::Medium => 0.62,
        Size::Large => 0.76,
        Size::Huge | Size::Gargantuan => 0.84,
    }
}

/// The first drawn (not transparent) pixel of a token image, drawn `side` world units
/// wide centred at `at`, that falls outside `cell`; `None` when the token is inside
/// its cell.
pub fn token_outside_cell(
    geo: &MapGeometry,
    cell: Cell,
    image: &Image,
    side: f32,
    at: Vec2,
) -> Option<Vec2> {
    let (w, h) = (image.width(), image.height());
    let data = image.data.as_ref()?;
    (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .find_map(|(x, y)| {
            let alpha = data[((y * w + x) * 4 + 3) as usize];
            // Pixel centres, image rows downward, world y upward.
            let p = at
                + Vec2::new(
                    (x as f32 + 0.5) / w as f32 - 0.5,
                    0.5 - (y as f32 + 0.5) / h as f32,
                ) * side;
            (alpha > 0 && !geo.contains(cell, p)).then_some(p)
        })
}

/// The generated shape textures, one per side shape.
#[derive(Resource)]
pub struct ShapeTextures(pub Vec<Handle<Image>>);

/// The colour icons are drawn in on their side's shape: a deep navy, dark on every
/// side colour and apart from the map's own dark greys (the window test finds icons
/// by it).
pub const ICON_INK: Color = Color::srgb(0.04, 0.04, 0.18);

/// The unit icons (`assets/icons/*.png`, compiled in), by name.
#[derive(Resource, Default)]
pub struct IconTextures(pub std::collections::BTreeMap<&'static str, Handle<Image>>);

/// The PNG of each icon of [`crate::level::icons::ICONS`], compiled in so the game
/// draws them from any working directory.
const ICON_PNGS: &[(&str, &[u8])] = &[
    (
        "broadsword",
        include_bytes!("../../assets/icons/broadsword.png"),
    ),
    (
        "sword-brandish",
        include_bytes!("../../assets/icons/sword-brandish.png"),
    ),
    (
        "plain-dagger",
        include_bytes!("../../assets/icons/plain-dagger.png"),
    ),
    ("spears", include_bytes!("../../assets/icons/spears.png")),
    (
        "battle-axe",
        include_bytes!("../../assets/icons/battle-axe.png"),
    ),
    (
        "mace-head",
        include_bytes!("../../assets/icons/mace-head.png"),
    ),
    (
        "bow-arrow",
        include_bytes!("../../assets/icons/bow-arrow.png"),
    ),
    (
        "crossbow",
        include_bytes!("../../assets/icons/crossbow.png"),
    ),
    ("sling", include_bytes!("../../assets/icons/sling.png")),
    (
        "wizard-staff",
        include_bytes!("../../assets/icons/wizard-staff.png"),
    ),
    (
        "fire-ray",
        include_bytes!("../../assets/icons/fire-ray.png"),
    ),
    (
        "claw-slashes",
        include_bytes!("../../assets/icons/claw-slashes.png"),
    ),
    ("fist", include_bytes!("../../assets/icons/fist.png")),
    ("ogre", include_bytes!("../../assets/icons/ogre.png")),
    (
        "skeleton",
        include_bytes!("../../assets/icons/skeleton.png"),
    ),
    ("shield", include_bytes!("../../assets/icons/shield.png")),
];

/// The PNGs of the condition badges' icons (each ruleset's
/// [`crate::engine::ruleset::ConditionBadge::icon`], and the window's own
/// [`UNKNOWN_ICON`] and [`DYING_ICON`]), compiled in like the unit icons; every
/// icon of `tools/icons/icons.txt` is here or in [`ICON_PNGS`].
macro_rules! icon_pngs {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_bytes!(concat!("../../assets/icons/", $name, ".png")) as &[u8])),*]
    };
}
const CONDITION_PNGS: &[(&str, &[u8])] = icon_pngs![
    "angel-wings",
    "arm-sling",
    "bleeding-heart",
    "bleeding-wound",
    "blindfold",
    "broken-bone",
    "charging-bull",
    "cracked-shield",
    "despair",
    "dice-target",
    "divided-spiral",
    "dodging",
    "drop-weapon",
    "exit-door",
    "eye-target",
    "falling",
    "fencer",
    "flame",
    "foot-trip",
    "frozen-body",
    "ghost",
    "grab",
    "half-body-crawling",
    "half-heart",
    "hand-grip",
    "handcuffed",
    "hood",
    "hourglass",
    "invisible",
    "knee-bandage",
    "knocked-out-stars",
    "magic-swirl",
    "manacles",
    "meditation",
    "muscle-up",
    "on-target",
    "poison-bottle",
    "rolling-dices",
    "run",
    "screaming",
    "shield-reflect",
    "sleepy",
    "snail",
    "spectre",
    "sprint",
    "star-swirl",
    "sticky-boot",
    "stopwatch",
    "target-arrows",
    "terror",
    "tired-eye",
    "uncertainty",
    "death-skull",
];

/// The icon of a condition no ruleset words (a level's own name).
pub const UNKNOWN_ICON: &str = "uncertainty";
/// The icon of a unit out of the fight but still on the board (dying).
pub const DYING_ICON: &str = "death-skull";

/// Decodes one compiled-in icon.
fn icon_image(png: &[u8]) -> Option<Image> {
    Image::from_buffer(
        png,
        bevy::image::ImageType::Extension("png"),
        bevy::image::CompressedImageFormats::NONE,
        true,
        bevy::image::ImageSampler::linear(),
        RenderAssetUsages::RENDER_WORLD | RenderAssetUsages::MAIN_WORLD,
    )
    .ok()
}

/// Draws a white shape with a dark outline on a transparent 64×64 image.
pub fn shape_image(shape: usize) -> Image {
    let n = 64u32;
    let mut data = vec![0u8; (n * n * 4) as usize];
    let inside = |x: f32, y: f32, inset: f32| -> bool {
        let (dx, dy) = (x - 32.0, y - 32.0);
        let r = 30.0 - inset;
        match shape % 4 {
            0 => dx * dx + dy * dy <= r * r,
            1 => dx.abs() + dy.abs() <= r * 1.15,
            2 => dx.abs() <= r * 0.85 && dy.abs() <= r * 0.85,
            _ => dy <= r * 0.75 && dy >= -r + 2.0 * dx.abs() * 0.9 - 0.0,
        }
    };
    for y in 0..n {
        for x in 0..n {
            let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
            let px = if inside(fx, fy, 3.5) {
                [255, 255, 255, 255]
            } else if inside(fx, fy, 0.0) {
                [15, 15, 20, 255]
            } else {
                [0, 0, 0, 0]
            };
            let i = ((y * n + x) * 4) as usize;
            data[i..i + 4].copy_from_slice(&px);
        }
    }
    square_image(n, data)
}

/// An `n`×`n` sRGB image of RGBA `data`.
pub(super) fn square_image(n: u32, data: Vec<u8>) -> Image {
    Image::new(
        Extent3d {
            width: n,
            height: n,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD | RenderAssetUsages::MAIN_WORLD,
    )
}

/// A white disc with a soft edge on a transparent 64×64 image: the badges'
/// backing and ring.
fn disc_image() -> Image {
    let n = 64u32;
    let mut data = vec![0u8; (n * n * 4) as usize];
    for y in 0..n {
        for x in 0..n {
            let (dx, dy) = (x as f32 + 0.5 - 32.0, y as f32 + 0.5 - 32.0);
            // Coverage of the pixel by a disc of radius 31, over about a pixel.
            let alpha = (31.0 - (dx * dx + dy * dy).sqrt() + 0.5).clamp(0.0, 1.0);
            let i = ((y * n + x) * 4) as usize;
            data[i..i + 4].copy_from_slice(&[255, 255, 255, (alpha * 255.0) as u8]);
        }
    }
    square_image(n, data)
}

/// The badges' disc ([`disc_image`]).
#[derive(Resource)]
pub struct BadgeDisc(pub Handle<Image>);

fn setup(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    let handles = (0..4).map(|i| images.add(shape_image(i))).collect();
    commands.insert_resource(ShapeTextures(handles));
    commands.insert_resource(BadgeDisc(images.add(disc_image())));
    let mut icons = IconTextures::default();
    for &(name, png) in ICON_PNGS.iter().chain(CONDITION_PNGS) {
        match icon_image(png) {
            Some(img) => {
                icons.0.insert(name, images.add(img));
            }
            None => warn!("icon {name}.png does not decode; its units show no icon"),
        }
    }
    commands.insert_resource(icons);
}

/// One badge of a unit: a condition (each name once) or its state when dying.
#[derive(Clone, Debug, PartialEq)]
pub struct ShownBadge {
    /// The condition's name ("Dazed"), or the state's ("Dying").
    pub name: String,
    /// How the ruleset shows it (the window's own for a state or an unworded name).
    pub badge: ConditionBadge,
    /// The small number on it ([`crate::engine::ruleset::badge_number`]).
    pub number: Option<u32>,
    /// Each instance in the engine's words, with magnitude and how long it lasts
    /// ("Hit boost +2 (until end of round 3)").
    pub instances: Vec<String>,
}

impl ShownBadge {
    /// The tooltip's lines: name and rule, what it does, how long it lasts, and
    /// the instances when they say more than the name.
    pub fn tooltip(&self) -> String {
        let mut s = self.name.clone();
        if !self.badge.rule.is_empty() {
            s += &format!("  [{}]", self.badge.rule);
        }
        s += &format!("\n{}", self.badge.effect);
        if !self.badge.duration.is_empty() {
            s += &format!("\nLasts: {}", self.badge.duration);
        }
        let more: Vec<&str> = self
            .instances
            .iter()
            .map(String::as_str)
            .filter(|i| *i != self.name)
            .collect();
        if !more.is_empty() {
            s += &format!("\nNow: {}", more.join("; "));
        }
        s
    }

    /// The icon's tint.
    pub fn color(&self) -> Color {
        let [r, g, b] = self.badge.colour;
        Color::srgb_u8(r, g, b)
    }
}

/// The badges of unit `u`: its state first when it is out of the fight (dying),
/// then each condition once, in the order it first got them, with the ruleset's
/// badge (a plain one for a name the ruleset doesn't word).
pub fn unit_badges(
    battle: &crate::engine::Battle,
    u: &crate::engine::units::UnitView,
) -> Vec<ShownBadge> {
    let mut out = Vec::new();
    if !u.state.is_active() {
        out.push(ShownBadge {
            name: capitalized(u.state.word()),
            badge: ConditionBadge {
                icon: DYING_ICON,
                colour: crate::engine::ruleset::badge_colour::NOTE,
                short: "",
                effect: "out of the fight",
                duration: "",
                rule: "",
            },
            number: None,
            instances: Vec::new(),
        });
    }
    let world = battle.world();
    let all: Vec<&crate::engine::conditions::Condition> = crate::engine::battle::find(world, u.id)
        .and_then(|e| world.get::<crate::engine::units::Conditions>(e))
        .map(|c| c.0.iter().collect())
        .unwrap_or_default();
    let mut names: Vec<&str> = Vec::new();
    for c in &u.conditions {
        if !names.contains(&c.as_str()) {
            names.push(c);
        }
    }
    let round = battle.turn().round;
    for name in names {
        let instances: Vec<&crate::engine::conditions::Condition> =
            all.iter().copied().filter(|c| c.name == name).collect();
        let badge = battle
            .rules()
            .condition_badge(name)
            .unwrap_or(ConditionBadge {
                icon: UNKNOWN_ICON,
                colour: crate::engine::ruleset::badge_colour::NOTE,
                short: "",
                effect: "a condition of this level's own",
                duration: "",
                rule: "",
            });
        out.push(ShownBadge {
            name: name.to_string(),
            badge,
            number: crate::engine::ruleset::badge_number(&instances, round),
            instances: instances.iter().map(|c| c.to_string()).collect(),
        });
    }
    out
}

fn capitalized(word: &str) -> String {
    let mut c = word.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// One badge on a unit's marker, for the tooltip ([`badge_tooltip`]) and tests: a
/// condition, or (when a small cell has no room for them all) the ones that didn't
/// fit, as a "+n" badge.
#[derive(Component, Clone, Debug)]
pub struct Badge {
    /// Whose.
    pub unit: UnitId,
    /// What it stands for: one condition, or the several of a "+n" badge.
    pub shown: Vec<ShownBadge>,
    /// Its side in world units.
    pub size: f32,
}

/// How far above its cell's centre a token is drawn (world units), leaving room for
/// the name plate under it.
pub const TOKEN_RAISE: f32 = 2.0;

/// The icon's side as a fraction of its token's.
const ICON_IN_TOKEN: f32 = 0.74;

/// The smallest a badge is drawn on screen, in pixels, however far out the zoom.
const BADGE_MIN_PX: f32 = 15.0;

/// A health bar's colour at `frac` of full health: green over half, amber over a
/// quarter, red below.
pub fn hp_color(frac: f32) -> Color {
    if frac > 0.5 {
        Color::srgb(0.35, 0.85, 0.45)
    } else if frac > 0.25 {
        Color::srgb(0.95, 0.8, 0.25)
    } else {
        Color::srgb(0.95, 0.3, 0.25)
    }
}

fn text(value: impl Into<String>, size: f32, color: Color) -> impl Bundle {
    (
        Text2d::new(value),
        TextFont::from_font_size(size),
        TextColor(color),
    )
}

/// Rebuilds every unit marker when the battle changed.
#[allow(clippy::too_many_arguments)]
fn sync_units(
    mut commands: Commands,
    game: Res<Game>,
    geo: Option<Res<MapGeometry>>,
    shapes: Res<ShapeTextures>,
    disc: Res<BadgeDisc>,
    icons: Res<IconTextures>,
    markers: Query<Entity, With<UnitMarker>>,
    camera: Single<&Projection, With<super::layout::MainCamera>>,
    mut shown: Local<Option<(u64, u32, i64)>>,
) {
    let Some(geo) = geo else { return };
    let zoom = match *camera {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    // Redrawn after each command, when the palette changes, and when the zoom
    // does by a tenth (badges keep a size on screen).
    let key = (
        game.version,
        super::comfort::palette_generation(),
        (zoom * 10.0).round() as i64,
    );
    if *shown == Some(key) {
        return;
    }
    *shown = Some(key);
    for e in &markers {
        commands.entity(e).despawn();
    }
    let battle = &game.battle;
    let cell = geo.cell_size().min_element();
    let places = badge_places(&geo, zoom);
    for u in battle.units().into_iter().filter(|u| u.state.on_board()) {
        let side = battle.side_id(&u.side).map_or(0, |s| s.0 as usize);
        // Out of the fight but on its cell (dying): greyed, its state on the badges.
        let faded = !u.state.is_active();
        let shape_color = if faded {
            side_color(side).with_alpha(0.35)
        } else {
            side_color(side)
        };
        let pos = geo.center(u.cell);
        let frac = (u.hp.max(0) as f32 / u.max_hp.max(1) as f32).clamp(0.0, 1.0);
        let bar_w = cell * 0.8;
        let hp_color = hp_color(frac);
        let def = game.level.units.get(u.id.0 as usize);
        let icon = def
            .map(crate::level::icons::icon_for)
            .and_then(|i| icons.0.get(i).cloned());
        // Large units (flow's ogre, F-01) fill more of their cell.
        let token = cell * token_fraction(def.map_or(Size::Medium, |d| d.size));
        let badges = unit_badges(battle, &u);
        commands
            .spawn((
                UnitMarker,
                MarkerOf(u.id),
                DespawnOnExit(Screen::Battle),
                Transform::from_xyz(pos.x, pos.y, 5.0),
                Visibility::default(),
            ))
            .with_children(|p| {
                p.spawn((
                    Token(u.id),
                    Sprite {
                        image: shapes.0[side % shapes.0.len()].clone(),
                        color: shape_color,
                        custom_size: Some(Vec2::splat(token)),
                        ..default()
                    },
                    Transform::from_xyz(0.0, TOKEN_RAISE, 0.0),
                ));
                match icon {
                    Some(image) => {
                        let ink = ICON_INK.with_alpha(if faded { 0.4 } else { 1.0 });
                        p.spawn((
                            Sprite {
                                image,
                                color: ink,
                                custom_size: Some(Vec2::splat(token * ICON_IN_TOKEN)),
                                ..default()
                            },
                            Transform::from_xyz(0.0, TOKEN_RAISE, 0.2),
                        ));
                    }
                    None => {
                        let initial: String = u.name.chars().take(2).collect();
                        p.spawn((
                            text(initial, 16.0, Color::WHITE),
                            Transform::from_xyz(0.0, TOKEN_RAISE, 0.2),
                        ));
                    }
                }
                // Name plate under the marker, above the neighbours' markers, sized
                // to the name (shown by `show_names`).
                let plate_w = plate_width(&u.name);
                p.spawn((
                    NamePlate(u.id),
                    Visibility::Hidden,
                    Sprite::from_color(Color::srgba(0.0, 0.0, 0.0, 0.8), Vec2::new(plate_w, 14.0)),
                    Transform::from_xyz(0.0, -cell * 0.36, 3.0),
                ));
                p.spawn((
                    NamePlate(u.id),
                    Visibility::Hidden,
                    text(u.name.clone(), 11.0, Color::WHITE),
                    Transform::from_xyz(0.0, -cell * 0.36, 3.1),
                ));
                // HP bar over the marker.
                p.spawn((
                    Sprite::from_color(Color::srgb(0.1, 0.1, 0.1), Vec2::new(bar_w + 2.0, 7.0)),
                    Transform::from_xyz(0.0, cell * 0.36, 0.3),
                ));
                p.spawn((
                    Sprite::from_color(hp_color, Vec2::new(bar_w * frac, 5.0)),
                    Transform::from_xyz(-bar_w * (1.0 - frac) / 2.0, cell * 0.36, 0.4),
                ));
                if !badges.is_empty() {
                    spawn_badges(p, &disc.0, &icons, u.id, badges, &places);
                }
            });
    }
}

/// The gap kept between a badge and its cell's edge, as a fraction of the cell's
/// width: the visible gap between a badge and the neighbours' markers.
const BADGE_GAP: f32 = 0.05;

/// Where a marker's badges go, relative to its cell's centre, and their side
/// (world units) at `zoom`: a column down the right side of the cell, from just
/// under its HP bar, each disc (with [`BADGE_GAP`] around it) inside the cell —
/// overlapping its own token's edge, never a neighbour's. A badge is
/// [`BADGE_MIN_PX`] on screen when the cell has room for one that big, else as big
/// as fits; at most three places.
pub fn badge_places(geo: &MapGeometry, zoom: f32) -> (f32, Vec<Vec2>) {
    let cell = geo.cell_size().min_element();
    let at = Cell::new(0, 0);
    let centre = geo.center(at);
    let fits = |p: Vec2, r: f32| {
        (0..24).all(|i| {
            let a = std::f32::consts::TAU * i as f32 / 24.0;
            geo.contains(at, centre + p + Vec2::new(a.cos(), a.sin()) * r)
        })
    };
    let mut size = (cell * 0.3).max(BADGE_MIN_PX * zoom).min(cell * 0.4);
    loop {
        let r = size / 2.0 + cell * BADGE_GAP;
        let x = cell / 2.0 - r;
        // The highest place under the HP bar that fits, then down while they fit.
        let first = (0..)
            .map(|i| cell * 0.36 - 4.0 - size / 2.0 - i as f32)
            .take_while(|y| *y > -cell / 2.0)
            .map(|y| Vec2::new(x, y))
            .find(|p| fits(*p, r));
        if let Some(first) = first {
            let places = (0..3)
                .map(|i| first - Vec2::new(0.0, size * i as f32))
                .take_while(|p| fits(*p, r))
                .collect();
            return (size, places);
        }
        size *= 0.9;
    }
}

/// A marker's badges at [`badge_places`], each an icon in its colour on a dark
/// disc ringed by that colour, its number (a count, a magnitude, rounds left) at
/// the upper right; when the cell has no room for them all, the last place shows
/// "+n" for the rest.
fn spawn_badges(
    p: &mut ChildSpawnerCommands,
    disc: &Handle<Image>,
    icons: &IconTextures,
    unit: UnitId,
    mut badges: Vec<ShownBadge>,
    places: &(f32, Vec<Vec2>),
) {
    let (size, ref spots) = *places;
    let room = spots.len();
    let rest = if badges.len() > room {
        badges.split_off(room - 1)
    } else {
        Vec::new()
    };
    let mut places: Vec<Vec<ShownBadge>> = badges.into_iter().map(|b| vec![b]).collect();
    if !rest.is_empty() {
        places.push(rest);
    }
    for (i, shown) in places.into_iter().enumerate() {
        let at = spots[i];
        let many = shown.len() > 1;
        let (color, number, icon) = match shown.as_slice() {
            [one] => (
                one.color(),
                one.number.map(|n| n.to_string()),
                icons
                    .0
                    .get(one.badge.icon)
                    .or_else(|| icons.0.get(UNKNOWN_ICON))
                    .cloned(),
            ),
            _ => (Color::WHITE, None, None),
        };
        let more = format!("+{}", shown.len());
        p.spawn((
            Badge { unit, shown, size },
            Sprite {
                image: disc.clone(),
                color,
                custom_size: Some(Vec2::splat(size)),
                ..default()
            },
            Transform::from_xyz(at.x, at.y, 0.6),
        ))
        .with_children(|b| {
            b.spawn((
                Sprite {
                    image: disc.clone(),
                    color: Color::srgb(0.07, 0.07, 0.09),
                    custom_size: Some(Vec2::splat(size * 0.88)),
                    ..default()
                },
                Transform::from_xyz(0.0, 0.0, 0.05),
            ));
            if many {
                b.spawn((
                    text(more, size * 0.5, Color::WHITE),
                    Transform::from_xyz(0.0, 0.0, 0.1),
                ));
            }
            if let Some(image) = icon {
                b.spawn((
                    Sprite {
                        image,
                        color,
                        custom_size: Some(Vec2::splat(size * 0.74)),
                        ..default()
                    },
                    Transform::from_xyz(0.0, 0.0, 0.1),
                ));
            }
            // The number, white on black at the badge's upper right.
            if let Some(digits) = number {
                let h = size * 0.5;
                let w = h * 0.62 * digits.len() as f32 + h * 0.3;
                let at = Vec2::new(size * 0.38, size * 0.32);
                b.spawn((
                    Sprite::from_color(Color::BLACK, Vec2::new(w, h)),
                    Transform::from_xyz(at.x, at.y, 0.2),
                ));
                b.spawn((
                    text(digits, h, Color::WHITE),
                    Transform::from_xyz(at.x, at.y, 0.3),
                ));
            }
        });
    }
}

/// The badge tooltip: a panel near the pointer with the icon and the badge's
/// [`ShownBadge::tooltip`] text.
#[derive(Component)]
pub struct BadgeTooltip;

/// The badge tooltip's icon.
#[derive(Component)]
struct BadgeTooltipIcon;

/// The badge tooltip's text (the window test reads it).
#[derive(Component)]
pub struct BadgeTooltipText;

/// The badge tooltip's widest, in UI pixels.
const TOOLTIP_MAX_W: f32 = 380.0;

fn spawn_tooltip(mut commands: Commands) {
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        BadgeTooltip,
        Node {
            position_type: PositionType::Absolute,
            padding: UiRect::all(px(8)),
            column_gap: px(8),
            align_items: AlignItems::Center,
            border: UiRect::all(px(2)),
            max_width: px(TOOLTIP_MAX_W),
            ..default()
        },
        BackgroundColor(Color::srgba(0.05, 0.06, 0.08, 0.96)),
        BorderColor::all(Color::WHITE),
        Visibility::Hidden,
        GlobalZIndex(15),
        children![
            (
                BadgeTooltipIcon,
                ImageNode::default(),
                Node {
                    width: px(32),
                    height: px(32),
                    flex_shrink: 0.0,
                    ..default()
                },
            ),
            (
                BadgeTooltipText,
                Text::new(""),
                TextFont::from_font_size(14.0),
                TextColor(Color::srgb(0.92, 0.92, 0.9)),
            ),
        ],
    ));
}

/// What the badge tooltip shows (see [`badge_tooltip`]): the battle's version, the
/// hovered cell, the pointer (whole pixels), how many badges there are and the
/// selected choice.
type TooltipKey = (u64, Option<Cell>, Option<(i32, i32)>, usize, usize);

/// The tooltip of the badge under the pointer, beside the pointer; or, when the
/// pointer (or the keyboard cursor) is on a unit with conditions and the cell is no
/// move or target of the unit to act, the tooltip of all its badges, beside the
/// cell. Always wholly inside the map's area ([`tooltip_corner`]) at the size of
/// the text it shows: a new text is laid out hidden, the tooltip shown the next
/// frame where its measured size fits.
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn badge_tooltip(
    game: Res<Game>,
    ui: Res<super::choices::UiState>,
    choices: Res<super::choices::Choices>,
    geo: Option<Res<MapGeometry>>,
    window: Single<&Window>,
    camera: Single<(&Camera, &GlobalTransform), With<super::layout::MainCamera>>,
    icons: Res<IconTextures>,
    badges: Query<(&Badge, &GlobalTransform)>,
    mut tooltip: Single<
        (&mut Node, &ComputedNode, &mut Visibility, &mut BorderColor),
        With<BadgeTooltip>,
    >,
    mut icon: Single<&mut ImageNode, With<BadgeTooltipIcon>>,
    mut text: Single<&mut Text, With<BadgeTooltipText>>,
    mut shown: Local<Option<TooltipKey>>,
    mut anchor: Local<Option<Vec2>>,
) {
    let (camera, transform) = *camera;
    let pointer = window.cursor_position();
    let key = (
        game.version,
        ui.hovered,
        pointer.map(|p| (p.x.round() as i32, p.y.round() as i32)),
        badges.iter().len(),
        choices.selected,
    );
    let (node, size, visibility, border) = &mut *tooltip;
    // UI nodes are in scaled pixels, the window's in logical ones; the tooltip is
    // never wider than the map's area.
    let s = super::comfort::ui_scale();
    let area = super::layout::map_area(&window);
    let widest = px(TOOLTIP_MAX_W.min(area.width() / s));
    if *shown != Some(key) {
        *shown = Some(key);
        let hit = pointer
            .and_then(|pos| camera.viewport_to_world_2d(transform, pos).ok())
            .and_then(|at| {
                badges.iter().find(|(b, gt)| {
                    let (scale, _, center) = gt.to_scale_rotation_translation();
                    let half = b.size * scale.x / 2.0;
                    (at - center.truncate())
                        .abs()
                        .cmple(Vec2::splat(half))
                        .all()
                })
            });
        // A badge under the pointer, else the hovered unit's badges.
        let found = match (hit, pointer) {
            (Some((badge, _)), Some(pos)) => Some((badge.shown.clone(), None, pos)),
            _ => ui
                .hovered
                .filter(|c| !choices.targets.contains_key(c) && !choices.moves.contains_key(c))
                .and_then(|cell| {
                    let battle = &game.battle;
                    let v = battle
                        .units()
                        .into_iter()
                        .find(|v| v.state.on_board() && v.cell == cell)?;
                    let all = unit_badges(battle, &v);
                    let at = geo.as_ref()?.center(cell)
                        + Vec2::splat(geo.as_ref()?.cell_size().min_element() / 2.0);
                    let pos = camera.world_to_viewport(transform, at.extend(0.0)).ok()?;
                    (!all.is_empty()).then_some((all, Some(v.name), pos))
                }),
        };
        let Some((all, unit, pos)) = found.filter(|(all, _, _)| !all.is_empty()) else {
            *anchor = None;
            visibility.set_if_neq(Visibility::Hidden);
            return;
        };
        let first = &all[0];
        let tips: Vec<String> = all.iter().map(ShownBadge::tooltip).collect();
        let mut words = tips.join("\n\n");
        if let Some(name) = unit {
            words = format!("{name}:\n{words}");
        }
        let words = super::theme::ascii(&words).into_owned();
        let color = first.color();
        icon.color = color;
        if let Some(image) = icons.0.get(first.badge.icon) {
            icon.image = image.clone();
        }
        **border = BorderColor::all(color);
        // Beside the pointer, or the hovered cell's corner.
        *anchor = Some(pos);
        if text.0 != words {
            // Laid out hidden at the window's corner (all the width it may take
            // free) after this frame's systems, placed and shown next frame.
            text.0 = words;
            visibility.set_if_neq(Visibility::Hidden);
            place_node(node, px(0), px(0), widest);
            return;
        }
    }
    let Some(anchor) = *anchor else {
        return;
    };
    // Its size in logical pixels (the layout's is in physical ones).
    let laid_out = size.size() / window.scale_factor();
    if laid_out.x <= 0.0 {
        return;
    }
    let corner = tooltip_corner(anchor, laid_out, area);
    place_node(node, px(corner.x / s), px(corner.y / s), widest);
    visibility.set_if_neq(Visibility::Inherited);
}

/// Moves the tooltip's `node` to `left`, `top` (no right or bottom) and caps its
/// width at `max_width`, writing only what differs: a node written every frame is
/// laid out again every frame.
fn place_node(node: &mut Mut<Node>, left: Val, top: Val, max_width: Val) {
    if node.left != left {
        node.left = left;
    }
    if node.top != top {
        node.top = top;
    }
    if node.right != Val::Auto {
        node.right = Val::Auto;
    }
    if node.bottom != Val::Auto {
        node.bottom = Val::Auto;
    }
    if node.max_width != max_width {
        node.max_width = max_width;
    }
}

/// The top-left corner (logical window pixels, y down) of a tooltip `size` large
/// beside `anchor`, wholly inside `area` (the map's area, clear of the side panels,
/// the turn strip and the log) when it fits there: right of the anchor, or left of
/// it when there is no room on the right; under it in the area's upper half, over
/// it in the lower half; then pushed inside the area's edges.
pub fn tooltip_corner(anchor: Vec2, size: Vec2, area: Rect) -> Vec2 {
    const GAP: Vec2 = Vec2::new(16.0, 18.0);
    let x = if anchor.x + GAP.x + size.x <= area.max.x {
        anchor.x + GAP.x
    } else {
        anchor.x - GAP.x - size.x
    };
    let y = if anchor.y < area.center().y {
        anchor.y + GAP.y
    } else {
        anchor.y - GAP.y - size.y
    };
    let fit = |v: f32, lo: f32, hi: f32, len: f32| v.min(hi - len).max(lo);
    Vec2::new(
        fit(x, area.min.x, area.max.x, size.x),
        fit(y, area.min.y, area.max.y, size.y),
    )
}

/// Name plate text size on screen, in pixels, whatever the zoom.
const PLATE_FONT: f32 = 13.0;

/// A name plate's backing width for `name`, at its unscaled text size (11).
fn plate_width(name: &str) -> f32 {
    name.chars().count() as f32 * 6.8 + 8.0
}

/// A name plate's size in world units for `name`, at plate scale `scale`.
fn plate_size(name: &str, scale: f32) -> Vec2 {
    Vec2::new(plate_width(name), 14.0) * scale
}

/// The short form of a unit's name, for a plate with no room for the whole name
/// (while every name shows): "Goblin Archer" is "G. Archer", "High Priest Vess"
/// "H.P. Vess", "Odo the Alchemist" "O. Alche." (lower-case words dropped, a long
/// last word cut), "Skeleton 3" "Skel. 3" (a number kept whole); one long word is
/// cut ("Swordswoman", "Sword.").
pub fn short_name(name: &str) -> String {
    let cut = |word: &str, keep: usize| -> String {
        if word.chars().count() > keep + 1 {
            word.chars().take(keep).collect::<String>() + "."
        } else {
            word.to_string()
        }
    };
    let words: Vec<&str> = name.split_whitespace().collect();
    let short = match words.as_slice() {
        [] => String::new(),
        [one] => cut(one, 5),
        [first, .., last] if last.chars().all(|c| c.is_ascii_digit()) => {
            format!("{} {last}", cut(first, 4))
        }
        [lead @ .., last] => {
            let initials: String = lead
                .iter()
                .filter_map(|w| w.chars().next())
                .filter(|c| !c.is_lowercase())
                .map(|c| format!("{c}."))
                .collect();
            format!("{initials} {}", cut(last, 5)).trim().to_string()
        }
    };
    if short.chars().count() < name.chars().count() {
        short
    } else {
        name.to_string()
    }
}

/// One name plate to place ([`place_plates`]).
#[derive(Clone, Copy, Debug)]
pub struct PlateAsk {
    /// Its unit's cell.
    pub cell: Cell,
    /// Its size (world units) with the whole name.
    pub full: Vec2,
    /// Its size with the [`short_name`].
    pub short: Vec2,
    /// Shown even when it cannot be kept clear of the plates placed before it (the
    /// hovered, selected and acting units' plates); the others are then hidden.
    pub must: bool,
}

/// Where [`place_plates`] put a plate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlatePlace {
    /// From its unit's cell centre.
    pub offset: Vec2,
    /// Whether it shows the [`short_name`].
    pub short: bool,
}

/// The places a plate `size` (world units) may take around its unit's cell
/// centre, the better first: under the marker (just clear of the ring of the unit
/// to act), over its HP bar, beside it right, left; then under and over again but
/// reaching out to one side from the marker's middle (room between two
/// neighbours' plates).
fn plate_candidates(geo: &MapGeometry, size: Vec2) -> [Vec2; 8] {
    let cell = geo.cell_size().min_element();
    let half = size / 2.0;
    let under = -(cell * 0.47 + half.y);
    let over = cell * 0.36 + 5.0 + half.y;
    let aside = (half.x - cell * 0.2).max(0.0);
    [
        Vec2::new(0.0, under),
        Vec2::new(0.0, over),
        Vec2::new(cell * 0.53 + half.x, TOKEN_RAISE),
        Vec2::new(-(cell * 0.53 + half.x), TOKEN_RAISE),
        Vec2::new(aside, under),
        Vec2::new(-aside, under),
        Vec2::new(aside, over),
        Vec2::new(-aside, over),
    ]
}

/// The area `a` and `b` share.
fn overlap(a: Rect, b: Rect) -> f32 {
    let both = a.intersect(b);
    if both.is_empty() {
        0.0
    } else {
        both.width() * both.height()
    }
}

/// One place a plate may take, and what it would cover there.
#[derive(Clone, Copy)]
struct PlateOption {
    place: PlatePlace,
    rect: Rect,
    /// The area of other plates it covers, of other units' markers, of labels.
    plates: f32,
    markers: f32,
    labels: f32,
}

/// What a plate must keep clear of ([`place_plates`]).
struct PlateRoom<'a> {
    geo: &'a MapGeometry,
    half_marker: Vec2,
    markers: &'a [Cell],
    labels: &'a [Rect],
}

impl PlateRoom<'_> {
    /// Each of the [`plate_candidates`] of `ask` with each of `sizes` (short or
    /// not, the size), and what it covers, `placed` being the other plates.
    fn options(&self, ask: &PlateAsk, sizes: &[(bool, Vec2)], placed: &[Rect]) -> Vec<PlateOption> {
        let centre = self.geo.center(ask.cell);
        sizes
            .iter()
            .flat_map(|&(short, size)| {
                plate_candidates(self.geo, size).map(move |offset| (short, size, offset))
            })
            .map(|(short, size, offset)| {
                let rect = Rect::from_center_size(centre + offset, size);
                let marker =
                    |c: &Cell| Rect::from_center_half_size(self.geo.center(*c), self.half_marker);
                PlateOption {
                    place: PlatePlace { offset, short },
                    rect,
                    plates: placed.iter().map(|p| overlap(rect, *p)).sum(),
                    markers: self
                        .markers
                        .iter()
                        .filter(|c| **c != ask.cell)
                        .map(|c| overlap(rect, marker(c)))
                        .sum(),
                    labels: self.labels.iter().map(|l| overlap(rect, *l)).sum(),
                }
            })
            .collect()
    }
}

/// The first of `options` with the least `cost`, of those it gives one.
fn least(
    options: &[PlateOption],
    cost: impl Fn(&PlateOption) -> Option<f32>,
) -> Option<PlateOption> {
    options
        .iter()
        .filter_map(|o| cost(o).map(|c| (o, c)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(o, _)| *o)
}

/// Places name plates, each where it covers nothing: no other unit's marker
/// (`markers`, the cells of every unit on the board), no label on the map
/// (`labels`, world rectangles: a path's `!n` provocation counts) and no other
/// plate. In the order given (the plates that matter most first), a `must` plate
/// takes the first of its [`plate_candidates`] covering nothing with its whole
/// name, else with its [`short_name`]; any other plate with its short name (so as
/// many names as possible show in a crowd). Where all cover something, a plate
/// takes, clear of the markers and the plates, the one covering the least of the
/// labels (a crowd of `!n` counts leaves no room); else a `must` plate the one
/// covering least (a marker counting four times a label) and any other none: it is
/// hidden rather than laid over a unit or another name. Then, in the same order,
/// each short plate takes its whole name where that covers nothing more.
pub fn place_plates(
    geo: &MapGeometry,
    asks: &[PlateAsk],
    markers: &[Cell],
    labels: &[Rect],
) -> Vec<Option<PlatePlace>> {
    let room = PlateRoom {
        geo,
        half_marker: Vec2::splat(marker_half(geo.cell_size().min_element())),
        markers,
        labels,
    };
    let mut placed: Vec<Option<PlateOption>> = Vec::new();
    for ask in asks {
        let sizes: &[(bool, Vec2)] = if ask.must {
            &[(false, ask.full), (true, ask.short)]
        } else {
            &[(true, ask.short)]
        };
        let rects: Vec<Rect> = placed.iter().flatten().map(|o| o.rect).collect();
        let options = room.options(ask, sizes, &rects);
        let chosen = least(&options, |o| {
            (o.plates + o.markers + o.labels == 0.0).then_some(0.0)
        })
        .or_else(|| {
            least(&options, |o| {
                (o.plates + o.markers == 0.0).then_some(o.labels)
            })
        })
        .or_else(|| {
            ask.must
                .then(|| least(&options, |o| Some(o.plates + o.markers * 4.0 + o.labels)))
                .flatten()
        });
        placed.push(chosen);
    }
    for (i, ask) in asks.iter().enumerate() {
        let Some(now) = placed[i].filter(|o| o.place.short) else {
            continue;
        };
        let others: Vec<Rect> = placed
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .filter_map(|(_, o)| o.map(|o| o.rect))
            .collect();
        let whole = room.options(ask, &[(false, ask.full)], &others);
        let clear = |o: &PlateOption| o.plates + o.markers == 0.0 && o.labels <= now.labels;
        if let Some(whole) = least(&whole, |o| clear(o).then_some(o.labels)) {
            placed[i] = Some(whole);
        }
    }
    placed.into_iter().map(|o| o.map(|o| o.place)).collect()
}

/// Half the side of the square a marker (token, HP bar) covers, for a cell `cell`
/// wide.
fn marker_half(cell: f32) -> f32 {
    cell * 0.42
}

/// A name plate's parts, as [`show_names`] places and sizes them.
type PlateParts<'a> = (
    &'a NamePlate,
    &'a mut Visibility,
    &'a mut Transform,
    Option<&'a mut TextFont>,
    Option<&'a mut Text2d>,
    Option<&'a mut Sprite>,
);

/// Shows the name plates of the hovered unit, the unit whose turn it is and the
/// selected one, or of every unit while the show-names key is held; and keeps them
/// the same size on screen at any zoom (readable on a big map fitted to the window),
/// where they cover no neighbour's marker, no `!n` count of the path preview and no
/// other plate ([`place_plates`]: those three first, then the rest in the units'
/// order, shortened or hidden when there is no room).
#[allow(clippy::too_many_arguments)]
pub fn show_names(
    game: Res<Game>,
    ui: Res<super::choices::UiState>,
    choices: Res<super::choices::Choices>,
    geo: Option<Res<MapGeometry>>,
    camera: Single<&Projection, With<super::layout::MainCamera>>,
    actions: Single<
        &leafwing_input_manager::prelude::ActionState<super::settings::BattleAction>,
        With<super::settings::Player>,
    >,
    mut plates: Query<PlateParts>,
    new_plates: Query<(), Added<NamePlate>>,
    mut shown: Local<Option<PlateKey>>,
) {
    let Some(geo) = geo else { return };
    let all = actions.pressed(&super::settings::BattleAction::ShowNames);
    let zoom = match *camera {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    // Which plates show changes only with the battle, the pointer, the selection and
    // the choices (their `!n` counts), the key, and when plates were (re)built;
    // their size with the zoom.
    let key = PlateKey {
        version: game.version,
        hovered: ui.hovered,
        selected: choices.unit,
        choices: choices.key,
        all,
        zoom_milli: (zoom * 1000.0).round() as i64,
    };
    if shown.as_ref() == Some(&key) && new_plates.is_empty() {
        return;
    }
    *shown = Some(key);
    let battle = &game.battle;
    let hovered = ui.hovered.and_then(|cell| {
        battle
            .units()
            .into_iter()
            .find(|u| u.cell == cell && u.state.on_board())
            .map(|u| u.id)
    });
    let acting = match battle.awaiting() {
        crate::engine::battle::Awaiting::Unit(u, _) => Some(u),
        _ => None,
    };
    let scale = (PLATE_FONT / 11.0) * zoom;
    let on_board: Vec<_> = battle
        .units()
        .into_iter()
        .filter(|u| u.state.on_board())
        .collect();
    let first =
        |u: &&crate::engine::units::UnitView| [acting, choices.unit, hovered].contains(&Some(u.id));
    // The plates that matter most placed first, then (the key held) the rest.
    let wanted: Vec<&crate::engine::units::UnitView> = on_board
        .iter()
        .filter(first)
        .chain(on_board.iter().filter(|u| all && !first(u)))
        .collect();
    let asks: Vec<PlateAsk> = wanted
        .iter()
        .map(|u| PlateAsk {
            cell: u.cell,
            full: plate_size(&u.name, scale),
            short: plate_size(&short_name(&u.name), scale),
            must: first(u),
        })
        .collect();
    let markers: Vec<Cell> = on_board.iter().map(|u| u.cell).collect();
    let labels = if choices.human {
        super::overlays::provocation_labels(&geo, &choices, zoom)
    } else {
        Vec::new()
    };
    let places: std::collections::BTreeMap<UnitId, (PlatePlace, &str)> = wanted
        .iter()
        .zip(place_plates(&geo, &asks, &markers, &labels))
        .filter_map(|(u, place)| Some((u.id, (place?, u.name.as_str()))))
        .collect();
    for (plate, mut visibility, mut transform, font, words, backing) in &mut plates {
        let place = places.get(&plate.0);
        visibility.set_if_neq(match place {
            Some(_) => Visibility::Inherited,
            None => Visibility::Hidden,
        });
        let Some(&(place, name)) = place else {
            continue;
        };
        let name = if place.short {
            short_name(name)
        } else {
            name.to_string()
        };
        transform.translation.x = place.offset.x;
        transform.translation.y = place.offset.y;
        // The text is laid out at its size on screen (crisp), the backing scaled.
        if let Some(mut words) = words
            && words.0 != name
        {
            words.0 = name.clone();
        }
        if let Some(mut backing) = backing {
            let size = Some(Vec2::new(plate_width(&name), 14.0));
            if backing.custom_size != size {
                backing.custom_size = size;
            }
        }
        match font {
            Some(mut font) => {
                // Whole pixels: each size is a font atlas of its own.
                let size = (PLATE_FONT * zoom).round().max(1.0);
                if !matches!(font.font_size, FontSize::Px(px) if px == size) {
                    font.font_size = FontSize::Px(size);
                }
            }
            None => transform.scale = Vec3::new(scale, scale, 1.0),
        }
    }
}

/// What decides which name plates show, how big and where (see [`show_names`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlateKey {
    version: u64,
    hovered: Option<Cell>,
    selected: Option<UnitId>,
    choices: (u64, usize),
    all: bool,
    zoom_milli: i64,
}

/// The ghost segment of a target's health bar (see [`damage_ghost`]).
#[derive(Component)]
pub struct DamageGhost;

/// While an attack's target is under the pointer, its health bar shows the damage
/// the attack can expect to deal as a pale segment at the bar's end (the hover line
/// gives the exact figures and the chance to defeat).
#[allow(clippy::too_many_arguments)]
pub fn damage_ghost(
    mut commands: Commands,
    game: Res<Game>,
    ui: Res<super::choices::UiState>,
    choices: Res<super::choices::Choices>,
    geo: Option<Res<MapGeometry>>,
    markers: Query<(Entity, &MarkerOf), With<UnitMarker>>,
    ghosts: Query<Entity, With<DamageGhost>>,
    mut shown: Local<Option<(u64, Option<Cell>, usize)>>,
) {
    let Some(geo) = geo else { return };
    let key = (game.version, ui.hovered, choices.selected);
    if *shown == Some(key) {
        return;
    }
    *shown = Some(key);
    for e in &ghosts {
        commands.entity(e).despawn();
    }
    let Some(crate::engine::Command::Attack {
        unit,
        target,
        power,
        ..
    }) = ui.hovered.and_then(|c| choices.targets.get(&c))
    else {
        return;
    };
    let battle = &game.battle;
    let Some(preview) = battle.preview_attack(*unit, *target, power.as_deref()) else {
        return;
    };
    let Some(view) = battle.units().into_iter().find(|u| u.id == *target) else {
        return;
    };
    let Some((marker, _)) = markers.iter().find(|(_, m)| m.0 == *target) else {
        return;
    };
    let max = view.max_hp.max(1) as f32;
    let now = (view.hp.max(0) as f32 / max).clamp(0.0, 1.0);
    let after = ((view.hp as f32 - preview.expected_damage as f32).max(0.0) / max).min(now);
    let cell = geo.cell_size().min_element();
    let bar_w = cell * 0.8;
    if now - after <= 0.0 {
        return;
    }
    commands.entity(marker).with_children(|p| {
        p.spawn((
            DamageGhost,
            Sprite::from_color(
                Color::srgba(1.0, 1.0, 1.0, 0.8),
                Vec2::new(bar_w * (now - after), 5.0),
            ),
            Transform::from_xyz(
                -bar_w / 2.0 + bar_w * (now + after) / 2.0,
                cell * 0.36,
                0.45,
            ),
        ));
    });
}

/// Registers the unit view.
pub fn plugin(app: &mut App) {
    app.add_systems(Startup, setup);
    app.add_systems(OnEnter(Screen::Battle), spawn_tooltip);
    app.add_systems(
        Update,
        (
            sync_units.in_set(BattleSystems::SyncUnits),
            (show_names, damage_ghost, badge_tooltip).in_set(BattleSystems::FollowUnits),
        )
            .run_if(in_state(Screen::Battle)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::GridKind;

    #[test]
    fn large_and_huge_tokens_are_bigger_yet_inside_their_cell_whatever_the_shape() {
        for kind in [GridKind::Square, GridKind::Hex] {
            let geo = MapGeometry::new(kind, 5, 5);
            let cell = Cell::new(2, 3);
            let width = geo.cell_size().min_element();
            let at = geo.center(cell) + Vec2::new(0.0, TOKEN_RAISE);
            for size in [
                Size::Small,
                Size::Medium,
                Size::Large,
                Size::Huge,
                Size::Gargantuan,
            ] {
                for (shape, name) in SIDE_SHAPES.iter().enumerate() {
                    let side = width * token_fraction(size);
                    let out = token_outside_cell(&geo, cell, &shape_image(shape), side, at);
                    assert_eq!(out, None, "{kind:?} {size:?} {name}");
                }
            }
            let medium = token_fraction(Size::Medium);
            assert!(token_fraction(Size::Large) >= medium * 1.2);
            assert!(token_fraction(Size::Huge) >= token_fraction(Size::Large) * 1.1);
        }
    }

    #[test]
    fn badges_stay_inside_their_cell_with_a_gap_to_the_neighbours() {
        for kind in [GridKind::Square, GridKind::Hex] {
            let geo = MapGeometry::new(kind, 24, 16);
            let cell = Cell::new(7, 5);
            let width = geo.cell_size().min_element();
            for zoom in [0.25, 1.0, 2.0, 4.0, 8.0] {
                let (size, places) = badge_places(&geo, zoom);
                assert!(!places.is_empty(), "{kind:?} at zoom {zoom}: no badge fits");
                if zoom <= 1.0 {
                    // Readable, and room for two before a "+n".
                    assert!(size >= BADGE_MIN_PX * zoom, "{kind:?} {size}");
                    assert!(places.len() >= 2, "{kind:?} {places:?}");
                }
                for (i, p) in places.iter().enumerate() {
                    // Every point of the disc and of a ring a few hundredths of the
                    // cell around it is inside the cell (so clear of the neighbours').
                    for step in 0..64 {
                        let a = std::f32::consts::TAU * step as f32 / 64.0;
                        let dir = Vec2::new(a.cos(), a.sin());
                        let edge = geo.center(cell) + *p + dir * (size / 2.0 + width * 0.03);
                        assert!(geo.contains(cell, edge), "{kind:?} zoom {zoom} badge {i}");
                    }
                    // Under the HP bar, and apart from the other badges.
                    assert!(p.y + size / 2.0 <= width * 0.36, "{kind:?} badge {i}");
                    for q in &places[..i] {
                        assert!(p.distance(*q) >= size * 0.99, "{kind:?} {p} {q}");
                    }
                }
            }
        }
    }

    /// Where [`place_plates`] puts one plate `size` of the unit at `at`, all units
    /// at `markers`, around `labels`.
    fn one_plate(
        geo: &MapGeometry,
        at: Cell,
        size: Vec2,
        markers: &[Cell],
        labels: &[Rect],
    ) -> PlatePlace {
        let ask = PlateAsk {
            cell: at,
            full: size,
            short: size,
            must: true,
        };
        place_plates(geo, &[ask], markers, labels)[0].expect("a must plate is placed")
    }

    /// The cells of a `w`×`h` map.
    fn cells(w: i32, h: i32) -> impl Iterator<Item = Cell> {
        (0..w).flat_map(move |x| (0..h).map(move |y| Cell::new(x, y)))
    }

    #[test]
    fn a_name_plate_covers_no_neighbour_when_some_side_is_free() {
        for kind in [GridKind::Square, GridKind::Hex] {
            let geo = MapGeometry::new(kind, 24, 16);
            let at = Cell::new(8, 8);
            let width = geo.cell_size().min_element();
            let centre = geo.center(at);
            // A long name at the fitted zoom of a big map: wider than two cells.
            let size = Vec2::new(width * 2.6, width * 0.45);
            let near = |dy: fn(f32) -> bool| -> Vec<Cell> {
                cells(24, 16)
                    .filter(|c| *c != at)
                    .filter(|c| {
                        let d = geo.center(*c) - centre;
                        d.length() < width * 2.5 && dy(d.y)
                    })
                    .collect()
            };
            let covers = |offset: Vec2, others: &[Cell]| {
                let plate = Rect::from_center_half_size(centre + offset, size / 2.0);
                others.iter().any(|c| {
                    let marker =
                        Rect::from_center_half_size(geo.center(*c), Vec2::splat(width * 0.4));
                    !plate.intersect(marker).is_empty()
                })
            };
            // Alone: just under its marker.
            let alone = one_plate(&geo, at, size, &[at], &[]).offset;
            assert!(alone.x == 0.0 && alone.y < -width * 0.4, "{kind:?} {alone}");
            // Neighbours in the rows below (Harpy Crag's lines): over it instead.
            let below = near(|dy| dy < -1.0);
            let offset = one_plate(&geo, at, size, &below, &[]).offset;
            assert!(!covers(offset, &below), "{kind:?} {offset}");
            assert!(offset.y > width * 0.4, "{kind:?} {offset}");
            // Rows above and below full, its own row free: beside it.
            let rows = near(|dy| dy.abs() > 1.0);
            let offset = one_plate(&geo, at, size, &rows, &[]).offset;
            assert!(!covers(offset, &rows), "{kind:?} {offset}");
            assert!(offset.x.abs() > width * 0.4, "{kind:?} {offset}");
        }
    }

    #[test]
    fn a_name_plate_keeps_clear_of_the_paths_provocation_counts() {
        for kind in [GridKind::Square, GridKind::Hex] {
            let geo = MapGeometry::new(kind, 24, 16);
            let at = Cell::new(8, 8);
            let width = geo.cell_size().min_element();
            let centre = geo.center(at);
            let size = Vec2::new(width * 1.8, width * 0.45);
            // A "!2" in every empty cell around the unit but those to its right,
            // as big as the overlay draws it at the fitted zoom.
            let label = Vec2::new(width * 0.45 * 1.5, width * 0.45 * 1.2);
            let labels: Vec<Rect> = cells(24, 16)
                .filter(|c| *c != at)
                .map(|c| geo.center(c))
                .filter(|p| (*p - centre).length() < width * 3.0 && p.x <= centre.x + 1.0)
                .map(|p| Rect::from_center_size(p, label))
                .collect();
            let place = one_plate(&geo, at, size, &[at], &labels);
            let plate = Rect::from_center_size(centre + place.offset, size);
            for l in &labels {
                assert!(
                    plate.intersect(*l).is_empty(),
                    "{kind:?} {place:?} over {l:?}"
                );
            }
            assert!(place.offset.x > width * 0.4, "{kind:?} {place:?}");
            // Without the counts, under its marker as usual.
            assert!(one_plate(&geo, at, size, &[at], &[]).offset.x == 0.0);
        }
    }

    #[test]
    fn all_names_shown_at_once_never_overlap_and_shorten_before_hiding() {
        for kind in [GridKind::Square, GridKind::Hex] {
            let geo = MapGeometry::new(kind, 24, 16);
            let width = geo.cell_size().min_element();
            // Harpy Crag's kind of crowd: two full lines of units, long names.
            let units: Vec<Cell> = (4..14)
                .flat_map(|x| [Cell::new(x, 6), Cell::new(x, 7)])
                .collect();
            let name = "Goblin Slinger";
            // The plates' scale at the zoom fitting 24 cells into a 1280-pixel
            // window's map area (about 717 pixels between the panels).
            let scale = PLATE_FONT / 11.0 * (24.0 * width / 717.0);
            let asks: Vec<PlateAsk> = units
                .iter()
                .enumerate()
                .map(|(i, &cell)| PlateAsk {
                    cell,
                    full: plate_size(name, scale),
                    short: plate_size(&short_name(name), scale),
                    // The plate placed first (the unit to act's).
                    must: i == 0,
                })
                .collect();
            let places = place_plates(&geo, &asks, &units, &[]);
            let rects: Vec<Rect> = places
                .iter()
                .zip(&asks)
                .filter_map(|(p, ask)| {
                    let p = (*p)?;
                    let size = if p.short { ask.short } else { ask.full };
                    Some(Rect::from_center_size(
                        geo.center(ask.cell) + p.offset,
                        size,
                    ))
                })
                .collect();
            for (i, a) in rects.iter().enumerate() {
                for b in &rects[..i] {
                    assert!(a.intersect(*b).is_empty(), "{kind:?}: {a:?} over {b:?}");
                }
            }
            // No plate over another unit's marker.
            for (place, ask) in places.iter().zip(&asks) {
                let Some(place) = place else { continue };
                let size = if place.short { ask.short } else { ask.full };
                let plate = Rect::from_center_size(geo.center(ask.cell) + place.offset, size);
                for c in units.iter().filter(|c| **c != ask.cell) {
                    let marker = Rect::from_center_half_size(
                        geo.center(*c),
                        Vec2::splat(marker_half(width)),
                    );
                    assert!(
                        plate.intersect(marker).is_empty(),
                        "{kind:?} {ask:?} over {c}"
                    );
                }
            }
            // Some shorten rather than hide; not all fit.
            assert!(
                places.iter().flatten().any(|p| p.short),
                "{kind:?} {places:?}"
            );
            let shown = places.iter().flatten().count();
            assert!(shown >= 8 && shown < units.len(), "{kind:?} {shown}");
            // Spread out, every name shows whole under its unit.
            let apart: Vec<Cell> = (0..5).map(|i| Cell::new(2 + 5 * i, 8)).collect();
            let asks: Vec<PlateAsk> = apart
                .iter()
                .map(|&cell| PlateAsk {
                    cell,
                    full: plate_size(name, scale),
                    short: plate_size(&short_name(name), scale),
                    must: false,
                })
                .collect();
            for p in place_plates(&geo, &asks, &apart, &[]) {
                let p = p.expect("room for every plate");
                assert!(!p.short && p.offset.x == 0.0 && p.offset.y < 0.0, "{p:?}");
            }
        }
    }

    #[test]
    fn a_tooltip_lies_wholly_in_the_map_area_beside_its_anchor() {
        // The map's area of a 1280×720 window between the panels, the strip and
        // the hover line.
        let area = Rect::new(243.0, 84.0, 960.0, 634.0);
        let inside = |corner: Vec2, size: Vec2| {
            corner.x >= area.min.x
                && corner.y >= area.min.y
                && corner.x + size.x <= area.max.x
                && corner.y + size.y <= area.max.y
        };
        let size = Vec2::new(380.0, 121.0);
        // Room right of and under the pointer: there, off the pointer.
        let c = tooltip_corner(Vec2::new(300.0, 200.0), size, area);
        assert_eq!(c, Vec2::new(316.0, 218.0));
        // Near the log: left of the pointer; in the lower half: over it.
        let anchor = Vec2::new(819.0, 500.0);
        let c = tooltip_corner(anchor, size, area);
        assert!(inside(c, size), "{c}");
        assert!(c.x + size.x <= anchor.x && c.y + size.y <= anchor.y, "{c}");
        // No room either side (a wide text in the middle): pushed inside all the
        // same, whatever the anchor, even right at a corner of the area or past it.
        let wide = Vec2::new(600.0, 200.0);
        for anchor in [
            Vec2::new(600.0, 360.0),
            area.min,
            area.max,
            Vec2::new(1200.0, 700.0),
            Vec2::new(0.0, 0.0),
        ] {
            for size in [size, wide] {
                let c = tooltip_corner(anchor, size, area);
                assert!(inside(c, size), "{anchor} {size}: {c}");
            }
        }
    }

    #[test]
    fn short_names_stay_apart_and_shorter() {
        for (name, short) in [
            ("Goblin Archer", "G. Archer"),
            ("Goblin Spear", "G. Spear"),
            ("High Priest Vess", "H.P. Vess"),
            ("Odo the Alchemist", "O. Alche."),
            ("Skeleton 3", "Skel. 3"),
            ("Skeleton 4", "Skel. 4"),
            ("Swordswoman", "Sword."),
            ("Harpy", "Harpy"),
            ("Ash", "Ash"),
        ] {
            assert_eq!(short_name(name), short, "{name}");
        }
    }

    #[test]
    fn a_token_past_its_cell_is_caught() {
        for kind in [GridKind::Square, GridKind::Hex] {
            let geo = MapGeometry::new(kind, 5, 5);
            let cell = Cell::new(1, 1);
            let at = geo.center(cell);
            // A circle a tenth wider than the cell crosses a square's edges and a
            // hex's flats.
            let side = geo.cell_size().min_element() * 1.1;
            assert!(token_outside_cell(&geo, cell, &shape_image(0), side, at).is_some());
            // Beside the cell, nothing is inside.
            let off = at + Vec2::new(geo.cell_size().x, 0.0);
            assert!(token_outside_cell(&geo, cell, &shape_image(0), side * 0.5, off).is_some());
        }
    }
}
