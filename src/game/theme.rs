//! The battle HUD's theme (bevy_new_2d's `theme`): its font and text colours,
//! [`ascii`] (text in the glyphs the font draws), and the marker components the
//! panels share ([`Panel`] sizes, [`HudText`], [`PromptOption`] buttons, which the
//! unit card and the turn strip use as the HUD does).
//!
//! Data and pure helpers only: [`super::hud`] spawns and lays out the panels; the
//! unit card, the log, the replay viewer and the unit markers draw in this look.

use bevy::prelude::*;

/// The HUD's text colour.
pub const TEXT: Color = Color::srgb(0.92, 0.92, 0.9);
/// The HUD's colour for secondary text.
pub const DIM: Color = Color::srgb(0.65, 0.67, 0.7);

/// The battle screen's panels (the bars, the side panels, the turn strip): not
/// drawn as UI nodes but left around the map's area when the map's camera clears
/// the window ([`super::control`]), the colour the translucent panels had over the
/// clear colour.
pub const PANEL_BG: Color = Color::srgb(0.052, 0.062, 0.082);

/// A HUD element whose size follows the window: which edge panel it is.
#[derive(Component, Clone, Copy)]
pub enum Panel {
    /// Left panel.
    Left,
    /// Right panel.
    Right,
    /// Bottom bar.
    Bottom,
    /// The decision prompt (over the hover line at the bottom, so it hides as
    /// little of the map as it can).
    Prompt,
}

/// Which HUD text an entity is.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum HudText {
    /// Top bar: level, ruleset, round, stage, whose turn.
    Top,
    /// Feedback line (errors in red).
    Message,
    /// Left panel, top: the turn orders. When the panel is short of room this is
    /// what gets cut, so the active unit's actions stay whole.
    Order,
    /// The unit card's texts (name, health, conditions, pools, actions:
    /// [`super::unit_card`]).
    Card,
    /// Bottom bar: what the pointer is over (odds, move cost).
    Hover,
}

/// A prompt option button (index into the decision's options).
#[derive(Component)]
pub struct PromptOption(pub usize);

/// The HUD's font at `size`.
pub fn font(size: f32) -> TextFont {
    TextFont::from_font_size(size)
}

/// `text` in the characters the HUD's font draws: the bundled Fira Mono subset has
/// ASCII glyphs only, so common symbols rulesets write (`·`, `≥`, `→`, `—`, `−`,
/// `×` ...) become their ASCII spelling instead of empty boxes. Other characters
/// are kept.
pub fn ascii(text: &str) -> std::borrow::Cow<'_, str> {
    if text.is_ascii() {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    // A separating dot between words reads as a comma.
    for c in text.replace(" \u{b7} ", ", ").chars() {
        match c {
            '\u{b7}' | '\u{2022}' => out.push('-'),
            '\u{2265}' => out.push_str(">="),
            '\u{2264}' => out.push_str("<="),
            '\u{2260}' => out.push_str("!="),
            '\u{2192}' => out.push_str("->"),
            '\u{2190}' => out.push_str("<-"),
            '\u{2014}' => out.push_str("--"),
            '\u{2013}' | '\u{2212}' | '\u{2010}' | '\u{2011}' => out.push('-'),
            '\u{d7}' => out.push('x'),
            '\u{2248}' => out.push('~'),
            '\u{b1}' => out.push_str("+/-"),
            '\u{bd}' => out.push_str("1/2"),
            '\u{2026}' => out.push_str("..."),
            '\u{2018}' | '\u{2019}' => out.push('\''),
            '\u{201c}' | '\u{201d}' => out.push('"'),
            '\u{a0}' | '\u{202f}' | '\u{2009}' => out.push(' '),
            c => out.push(c),
        }
    }
    out.into()
}

/// Draws a frame `width` pixels wide over its parent's border (the parent's
/// `Node::border`, with no `BorderColor`) as four thin nodes along its edges: a
/// border colour would be drawn as a quad over the whole node, which on a software
/// renderer shades a large panel twice.
pub fn spawn_frame(parent: &mut ChildSpawnerCommands, width: f32, color: Color) {
    // Absolute children sit inside the parent's border: reach out over it.
    let (w, out) = (px(width), px(-width));
    for (left, right, top, bottom, size) in [
        (out, out, out, Val::Auto, (Val::Auto, w)),
        (out, out, Val::Auto, out, (Val::Auto, w)),
        (out, Val::Auto, out, out, (w, Val::Auto)),
        (Val::Auto, out, out, out, (w, Val::Auto)),
    ] {
        parent.spawn((
            Node {
                position_type: PositionType::Absolute,
                left,
                right,
                top,
                bottom,
                width: size.0,
                height: size.1,
                ..default()
            },
            BackgroundColor(color),
            bevy::ui::FocusPolicy::Pass,
        ));
    }
}
