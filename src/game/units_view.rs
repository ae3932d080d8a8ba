//! Unit markers: a side-coloured shape (each side also has its own shape, so sides
//! stay distinguishable without colour) with an icon of what the unit is (a Game
//! Icons glyph chosen by [`crate::level::icons::icon_for`]; Large units are drawn
//! larger), an HP bar and condition badges, and a name plate shown only for the
//! hovered unit, the unit whose turn it is and the one selected (and for every unit
//! while the show-names key, Alt, is held), so names never run into each other on a
//! crowded map. A dying unit still on the board is drawn greyed, its state in
//! words on its badge line; units that left play are not drawn. Rebuilt whenever
//! the battle changes.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

use super::Game;
use super::board_view::MapGeometry;
use super::screen::Screen;
use crate::engine::board::Cell;
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

/// A unit's name plate (its backing and its text), shown by [`show_names`].
#[derive(Component)]
pub struct NamePlate(pub UnitId);

/// The system that rebuilds the markers (motion places them after it).
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SyncUnits;

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

fn setup(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    let handles = (0..4).map(|i| images.add(shape_image(i))).collect();
    commands.insert_resource(ShapeTextures(handles));
    let mut icons = IconTextures::default();
    for &(name, png) in ICON_PNGS {
        match icon_image(png) {
            Some(img) => {
                icons.0.insert(name, images.add(img));
            }
            None => warn!("icon {name}.png does not decode; its units show no icon"),
        }
    }
    commands.insert_resource(icons);
}

/// Short badge text for a condition: the ruleset's own
/// ([`crate::engine::ruleset::Ruleset::condition_badge`]), else its name's first
/// four letters, upper-case.
pub fn badge(battle: &crate::engine::Battle, condition: &str) -> String {
    battle
        .rules()
        .condition_badge(condition)
        .unwrap_or_else(|| condition.chars().take(4).collect::<String>().to_uppercase())
}

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
fn sync_units(
    mut commands: Commands,
    game: Res<Game>,
    geo: Option<Res<MapGeometry>>,
    shapes: Res<ShapeTextures>,
    icons: Res<IconTextures>,
    markers: Query<Entity, With<UnitMarker>>,
    mut shown: Local<Option<(u64, u32)>>,
) {
    let Some(geo) = geo else { return };
    // Redrawn after each command, and when the palette changes.
    let key = (game.version, super::comfort::palette_generation());
    if *shown == Some(key) {
        return;
    }
    *shown = Some(key);
    for e in &markers {
        commands.entity(e).despawn();
    }
    let battle = &game.battle;
    let cell = geo.cell_size().min_element();
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
        // Large units (flow's ogre, F-01) are drawn larger.
        let scale = if def.is_some_and(|d| d.size >= crate::engine::spec::Size::Large) {
            1.3
        } else {
            1.0
        };
        let mut badges: Vec<String> = u.conditions.iter().map(|c| badge(battle, c)).collect();
        if faded {
            badges.insert(0, u.state.word().to_uppercase());
        }
        commands
            .spawn((
                UnitMarker,
                super::motion::MarkerOf(u.id),
                DespawnOnExit(Screen::Battle),
                Transform::from_xyz(pos.x, pos.y, 5.0),
                Visibility::default(),
            ))
            .with_children(|p| {
                p.spawn((
                    Sprite {
                        image: shapes.0[side % shapes.0.len()].clone(),
                        color: shape_color,
                        custom_size: Some(Vec2::splat(cell * 0.62 * scale)),
                        ..default()
                    },
                    Transform::from_xyz(0.0, 2.0, 0.0),
                ));
                match icon {
                    Some(image) => {
                        let ink = ICON_INK.with_alpha(if faded { 0.4 } else { 1.0 });
                        p.spawn((
                            Sprite {
                                image,
                                color: ink,
                                custom_size: Some(Vec2::splat(cell * 0.46 * scale)),
                                ..default()
                            },
                            Transform::from_xyz(0.0, 2.0, 0.2),
                        ));
                    }
                    None => {
                        let initial: String = u.name.chars().take(2).collect();
                        p.spawn((
                            text(initial, 16.0, Color::WHITE),
                            Transform::from_xyz(0.0, 2.0, 0.2),
                        ));
                    }
                }
                // Name plate under the marker, above the neighbours' markers, sized
                // to the name (shown by `show_names`).
                let plate_w = u.name.chars().count() as f32 * 6.8 + 8.0;
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
                    p.spawn((
                        Sprite::from_color(
                            Color::srgba(0.35, 0.05, 0.4, 0.9),
                            Vec2::new(cell * 0.98, 12.0),
                        ),
                        Transform::from_xyz(0.0, cell * 0.36 + 10.0, 0.5),
                    ));
                    p.spawn((
                        text(badges.join(" "), 10.0, Color::WHITE),
                        Transform::from_xyz(0.0, cell * 0.36 + 10.0, 0.6),
                    ));
                }
            });
    }
}

/// Name plate text size on screen, in pixels, whatever the zoom.
const PLATE_FONT: f32 = 13.0;

/// Shows the name plates of the hovered unit, the unit whose turn it is and the
/// selected one, or of every unit while the show-names key is held; and keeps them
/// the same size on screen at any zoom (readable on a big map fitted to the window),
/// just under their marker.
#[allow(clippy::too_many_arguments)]
pub fn show_names(
    game: Res<Game>,
    ui: Res<super::control::UiState>,
    choices: Res<super::control::Choices>,
    geo: Option<Res<MapGeometry>>,
    camera: Single<&Projection, With<super::control::MainCamera>>,
    actions: Single<
        &leafwing_input_manager::prelude::ActionState<super::settings::BattleAction>,
        With<super::settings::Player>,
    >,
    mut plates: Query<(
        &NamePlate,
        &mut Visibility,
        &mut Transform,
        Option<&mut TextFont>,
    )>,
    new_plates: Query<(), Added<NamePlate>>,
    mut shown: Local<Option<PlateKey>>,
) {
    let Some(geo) = geo else { return };
    let all = actions.pressed(&super::settings::BattleAction::ShowNames);
    let zoom = match *camera {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    // Which plates show changes only with the battle, the pointer, the selection,
    // the key, and when plates were (re)built; their size with the zoom.
    let key = PlateKey {
        version: game.version,
        hovered: ui.hovered,
        selected: choices.unit,
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
    let cell = geo.cell_size().min_element();
    let scale = (PLATE_FONT / 11.0) * zoom;
    for (plate, mut visibility, mut transform, font) in &mut plates {
        let id = Some(plate.0);
        let show = all || id == hovered || id == acting || id == choices.unit;
        let want = if show {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        visibility.set_if_neq(want);
        if show {
            // Just under the marker and the ring of the unit to act, clear of both.
            // The text is laid out at its size on screen (crisp), the backing scaled.
            transform.translation.y = -(cell * 0.47 + 7.0 * scale);
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
}

/// What decides which name plates show and how big (see [`show_names`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlateKey {
    version: u64,
    hovered: Option<Cell>,
    selected: Option<UnitId>,
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
    ui: Res<super::control::UiState>,
    choices: Res<super::control::Choices>,
    geo: Option<Res<MapGeometry>>,
    markers: Query<(Entity, &super::motion::MarkerOf), With<UnitMarker>>,
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
    app.add_systems(
        Update,
        (
            sync_units.in_set(SyncUnits),
            show_names.after(SyncUnits),
            damage_ghost.after(SyncUnits),
        )
            .run_if(in_state(Screen::Battle)),
    );
}
