//! Where the battle's parts sit in the window: the HUD panels around the map
//! ([`panels`], the turn strip's band under the top bar), and the 2D camera that
//! shows the map in the space they leave ([`MainCamera`], [`fit`], [`pan_and_zoom`]).
//! Data and pure helpers only: the plugins that draw the panels and move the camera
//! ([`super::hud`], [`super::turn_strip`], [`super::control`], the editor) read them.

use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

use super::comfort::ui_scale;

/// The turn strip's height in UI pixels: it lies under the top bar, between the left
/// panel and the log's column, and the map's area starts under it (see
/// [`battle_panels`]; the strip is [`super::turn_strip`]).
pub const STRIP_HEIGHT: f32 = 44.0;

/// Pixels reserved by the HUD panels around the map (left, right, top, bottom) in a
/// window `width` pixels wide: the side panels shrink in small windows so the map
/// keeps most of the space.
pub fn panels(width: f32) -> (f32, f32, f32, f32) {
    (
        (width * 0.19).clamp(150.0, 250.0),
        (width * 0.25).clamp(190.0, 330.0),
        40.0,
        86.0,
    )
}

/// [`panels`] in window pixels at the UI scale in use ([`super::comfort`]): what the
/// map must leave free. UI nodes take [`panels`] of the width divided by the scale.
pub fn panels_px(width: f32) -> (f32, f32, f32, f32) {
    scaled(panels, width)
}

/// What the battle screen's map leaves free: the [`panels`], and the turn strip
/// ([`super::turn_strip`]) under the top bar, between the side panels.
pub fn battle_panels(width: f32) -> (f32, f32, f32, f32) {
    let (l, r, t, b) = panels(width);
    (l, r, t + STRIP_HEIGHT, b)
}

/// [`battle_panels`] in window pixels at the UI scale in use.
pub fn battle_panels_px(width: f32) -> (f32, f32, f32, f32) {
    scaled(battle_panels, width)
}

/// `panels` of a window `width` pixels wide, in window pixels at the UI scale in use.
fn scaled(panels: fn(f32) -> (f32, f32, f32, f32), width: f32) -> (f32, f32, f32, f32) {
    let s = ui_scale();
    let (l, r, t, b) = panels(width / s);
    (l * s, r * s, t * s, b * s)
}

/// The 2D camera that draws the map (on the battle screen only into the map's
/// area, [`map_area`]; on the other screens into the whole window).
#[derive(Component)]
pub struct MainCamera;

/// The camera that draws the UI over the whole window, after the map's camera (and
/// nothing of the world).
#[derive(Component)]
pub struct UiCamera;

/// The battle screen's map area in logical window pixels: the window less the
/// [`battle_panels_px`] (at least a pixel each way).
pub fn map_area(window: &Window) -> Rect {
    let (w, h) = (window.width(), window.height());
    let (l, r, t, b) = battle_panels_px(w);
    let min = Vec2::new(l.min(w - 1.0), t.min(h - 1.0)).max(Vec2::ZERO);
    let max = Vec2::new(w - r, h - b).max(min + Vec2::ONE);
    Rect::from_corners(min, max)
}

/// Fits the map (its world `bounds`,
/// [`MapGeometry::bounds`](super::board_view::MapGeometry::bounds)) into a view
/// `size` logical pixels large, between the HUD panels over it (`(left, right, top,
/// bottom)` in window pixels: [`panels_px`], or none when the view is the map's
/// area alone).
pub fn fit(bounds: Rect, size: Vec2, panels: (f32, f32, f32, f32)) -> (Vec2, f32) {
    let (l, r, t, b) = panels;
    let free = Vec2::new((size.x - l - r).max(120.0), (size.y - t - b).max(120.0));
    let scale = (bounds.width() / free.x)
        .max(bounds.height() / free.y)
        .max(0.2);
    // Shift the camera so the map's center lands in the middle of the free area.
    let offset = Vec2::new((r - l) / 2.0, (t - b) / 2.0) * scale;
    (bounds.center() + offset, scale)
}

/// Pans a 2-D camera with the pan actions (`[up, down, left, right, zoom in, zoom
/// out]` of either screen's action set) or a right/middle drag, and zooms it with the
/// zoom actions or the wheel while the pointer is over the map.
pub(crate) fn pan_and_zoom<A: Actionlike>(
    actions: &ActionState<A>,
    [up, down, left, right, zoom_in, zoom_out]: [A; 6],
    (transform, ortho): (&mut Transform, &mut OrthographicProjection),
    pointer_over_map: bool,
    (scroll, motion, buttons): (
        &AccumulatedMouseScroll,
        &AccumulatedMouseMotion,
        &ButtonInput<MouseButton>,
    ),
    dt: f32,
) {
    let speed = 600.0 * ortho.scale * dt;
    let mut pan = Vec2::ZERO;
    for (action, dir) in [
        (up, Vec2::Y),
        (down, -Vec2::Y),
        (left, -Vec2::X),
        (right, Vec2::X),
    ] {
        if actions.pressed(&action) {
            pan += dir;
        }
    }
    transform.translation += (pan * speed).extend(0.0);
    if buttons.pressed(MouseButton::Middle) || buttons.pressed(MouseButton::Right) {
        let d = motion.delta * ortho.scale;
        transform.translation += Vec3::new(-d.x, d.y, 0.0);
    }
    let mut zoom = 1.0;
    if pointer_over_map && scroll.delta.y != 0.0 {
        zoom *= (1.0 - 0.1 * scroll.delta.y.signum()).clamp(0.5, 1.5);
    }
    if actions.just_pressed(&zoom_in) {
        zoom *= 0.8;
    }
    if actions.just_pressed(&zoom_out) {
        zoom *= 1.25;
    }
    ortho.scale = (ortho.scale * zoom).clamp(0.15, 8.0);
}

/// The decision prompt panel (spawned by the HUD, [`super::hud`]; the log's rows
/// under it are hidden while it shows, [`super::log_view`]).
#[derive(Component)]
pub struct Prompt;

/// The chooser of attack options above the combat log: the choices of each
/// option the ruleset lets the player choose (`wounds`' aim, W-17; none: no bar).
#[derive(Component)]
pub struct ChoiceBar;

/// The column that holds the combat log's rows (spawned by the HUD, filled by
/// [`super::log_view`]).
#[derive(Component)]
pub struct LogRows;

/// The combat log's title over its rows (spawned by the HUD): like the rows, not
/// drawn while the decision prompt covers it.
#[derive(Component)]
pub struct LogTitle;
