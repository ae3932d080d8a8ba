//! The turn strip along the top of the battle screen (issue 33), under the top bar
//! and above the map, between the left panel and the log's column: one icon per
//! unit in turn order, grouped under labels as the ruleset declares its orders
//! ([`crate::engine::Battle::turn_order`]: `phases`' movement and battle orders,
//! `escalation`'s bands, `actfast`'s steps, `flow`'s initiative), each entry the
//! unit's map marker in small (its side's colour and shape, its Game Icons glyph).
//! The unit to act is raised and outlined in the map ring's yellow; a unit out of
//! the fight is greyed and crossed (those no order lists any more close the strip
//! under "Out"). On a crowded level the entries shrink, then the labels are cut to
//! their entries' width; if even that is too wide, the orders before the one being
//! played, then the last entries, give way to "+N" counts.
//!
//! Hovering an entry rings its unit on the map ([`UnitHighlight`], white) and names
//! it under the entry; hovering a unit on the map outlines its entries. While a
//! decision prompt is up, the units its options name are ringed in cyan on the map
//! and outlined in the strip, and hovering an option rings its own units white.

use bevy::color::Mix;
use bevy::prelude::*;
use bevy::ui::FocusPolicy;

use super::choices::{Choices, UiState};
use super::layout::STRIP_HEIGHT;
use super::screen::Screen;
use super::theme::{PromptOption, ascii};
use super::units_view::{ICON_INK, IconTextures, MarkerOf, ShapeTextures, UnitMarker, side_color};
use super::{BattleSystems, Game};
use crate::engine::Command;
use crate::engine::battle::Awaiting;
use crate::engine::ruleset::TurnOrder;
use crate::engine::units::UnitId;

/// How far the unit to act's entry is raised.
const RAISE: f32 = 3.0;
/// Padding at the strip's ends.
const PAD: f32 = 8.0;
/// Space between two entries and between two groups.
const GAP: f32 = 3.0;
const GROUP_GAP: f32 = 12.0;
/// Entries' side, largest and smallest.
const MAX_SIZE: f32 = 28.0;
const MIN_SIZE: f32 = 16.0;
/// The labels' font (the HUD's font is monospaced: 0.6 em a character), and the
/// space between a label and its entries.
const LABEL_FONT: f32 = 10.0;
const LABEL_GAP: f32 = 2.0;
const CHAR_W: f32 = LABEL_FONT * 0.6;

/// The font of the line naming a hovered entry's unit.
const TIP_FONT: f32 = 13.0;

/// A ring's size on the map, in cells: around the marker, its health bar and the
/// map's own rings (the unit to act's, the targets').
const RING: f32 = 1.2;

/// The unit to act: the map ring's yellow.
pub const ACTIVE: Color = Color::srgb(1.0, 0.95, 0.3);
/// A unit hovered (in the strip or on the map): its ring on the map and its entries'
/// outline.
pub const HOVERED: Color = Color::srgb(1.0, 1.0, 1.0);
/// A unit the pending decision asks about: its ring on the map and its entries'
/// outline.
pub const ASKED: Color = Color::srgb(0.2, 0.95, 1.0);
const ENTRY_BG: Color = Color::srgba(0.16, 0.18, 0.23, 0.9);
const ENTRY_BG_LIT: Color = Color::srgba(0.38, 0.41, 0.5, 0.95);
const LABEL: Color = Color::srgb(0.65, 0.67, 0.7);

/// The strip's root node.
#[derive(Component)]
pub struct TurnStrip;

/// One entry of the strip: a unit at a place in the turn order.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct StripEntry {
    /// The unit.
    pub unit: UnitId,
    /// The group (turn order) it is listed in, in the strip's order.
    pub group: usize,
    /// Its place in the strip, from the left.
    pub place: usize,
    /// The unit is out of the fight (greyed and crossed).
    pub out: bool,
}

/// A group's label in the strip (the ruleset's name for the order, shortened when
/// room is short).
#[derive(Component)]
pub struct StripLabel;

/// The name line under a hovered entry.
#[derive(Component)]
pub struct StripTooltip;

/// A ring under a unit's marker on the map, there because the unit is hovered in
/// the strip or in a prompt ([`HOVERED`]) or asked about by the pending decision
/// ([`ASKED`]).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitHighlight {
    /// The unit ringed.
    pub unit: UnitId,
    /// Why: hovered, or asked about.
    pub kind: Highlight,
}

/// Why a unit is ringed on the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Highlight {
    /// Its strip entry or a prompt option naming it is under the pointer.
    Hovered,
    /// The pending decision's options name it.
    Asked,
}

impl Highlight {
    /// The ring's colour.
    pub fn color(self) -> Color {
        match self {
            Highlight::Hovered => HOVERED,
            Highlight::Asked => ASKED,
        }
    }
}

/// Which units the strip and the map light up, worked out each frame.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct Lit {
    /// The unit whose strip entry is under the pointer.
    pub strip: Option<UnitId>,
    /// Units hovered elsewhere: the strip's, a hovered prompt option's units.
    pub hovered: Vec<UnitId>,
    /// The unit on the map cell under the pointer or the keyboard cursor.
    pub on_map: Option<UnitId>,
    /// The units the pending decision asks about, while its prompt is up.
    pub asked: Vec<UnitId>,
}

/// The generated ring and cross images.
#[derive(Resource)]
struct StripImages {
    ring: Handle<Image>,
    cross: Handle<Image>,
}

/// An `n`×`n` image, each pixel `pixel(x, y)` (pixel centres, 0..n).
fn drawn_image(n: u32, pixel: impl Fn(f32, f32) -> [u8; 4]) -> Image {
    let mut data = vec![0u8; (n * n * 4) as usize];
    for y in 0..n {
        for x in 0..n {
            let i = ((y * n + x) * 4) as usize;
            data[i..i + 4].copy_from_slice(&pixel(x as f32 + 0.5, y as f32 + 0.5));
        }
    }
    super::units_view::square_image(n, data)
}

/// Opacity 0..1 as a byte.
fn alpha(a: f32) -> u8 {
    (a.clamp(0.0, 1.0) * 255.0) as u8
}

fn setup(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    // A white ring (tinted when drawn), 7/64 of its size thick, with a dark edge so
    // it stands out on light ground too.
    let ring = drawn_image(64, |x, y| {
        let d = (((x - 32.0).powi(2) + (y - 32.0).powi(2)).sqrt() - 27.0).abs();
        if d <= 3.5 {
            [255, 255, 255, 255]
        } else {
            [10, 10, 15, alpha(5.0 - d)]
        }
    });
    // A red cross corner to corner with a dark edge, readable on every side colour.
    let cross = drawn_image(64, |x, y| {
        let d = (x - y).abs().min((x + y - 64.0).abs()) / std::f32::consts::SQRT_2;
        let inside = (9.0..=55.0).contains(&x) && (9.0..=55.0).contains(&y);
        match (inside, d) {
            (true, d) if d <= 2.2 => [235, 40, 40, 255],
            (true, d) => [15, 10, 10, alpha(4.6 - d)],
            _ => [0, 0, 0, 0],
        }
    });
    commands.insert_resource(StripImages {
        ring: images.add(ring),
        cross: images.add(cross),
    });
}

/// The strip's pictures (the side shapes, the unit icons and the cross) copied into
/// one texture. The UI draws consecutive pictures of one texture in one batch, and
/// a software renderer pays for every batch: with a texture for each, the bench
/// level's 32 entries (shape, icon, shape, icon…) took 65 of the battle screen's 73
/// draw batches (`examples/frame_time`); from the one texture they take one.
#[derive(Resource)]
struct StripAtlas {
    image: Handle<Image>,
    layout: Handle<TextureAtlasLayout>,
    /// The atlas cell of each picture, by the image it was copied from.
    cells: std::collections::HashMap<AssetId<Image>, usize>,
}

impl StripAtlas {
    /// The picture `of` as a UI image from the atlas (`None`: not in it).
    fn node(&self, of: &Handle<Image>) -> Option<ImageNode> {
        let index = *self.cells.get(&of.id())?;
        Some(ImageNode::from_atlas_image(
            self.image.clone(),
            TextureAtlas {
                layout: self.layout.clone(),
                index,
            },
        ))
    }
}

/// The side of the atlas's pictures, and the transparent pixels between two (so
/// linear sampling at a picture's edge takes nothing of its neighbour).
const PICTURE: u32 = 64;
const PICTURE_GAP: u32 = 2;

/// Builds the [`StripAtlas`] once the shapes and icons exist.
fn build_atlas(
    mut commands: Commands,
    shapes: Res<ShapeTextures>,
    icons: Res<IconTextures>,
    strip_images: Res<StripImages>,
    mut images: ResMut<Assets<Image>>,
    mut layouts: ResMut<Assets<TextureAtlasLayout>>,
) {
    // Only 64×64 RGBA pictures fit a cell (every shape, icon and the cross is);
    // any other keeps its own texture.
    let pictures: Vec<(AssetId<Image>, Vec<u8>)> = shapes
        .0
        .iter()
        .chain(icons.0.values())
        .chain([&strip_images.cross])
        .filter_map(|h| {
            let image = images.get(h)?;
            let fits = image.size() == UVec2::splat(PICTURE)
                && image.texture_descriptor.format
                    == bevy::render::render_resource::TextureFormat::Rgba8UnormSrgb;
            Some((h.id(), image.data.clone().filter(|_| fits)?))
        })
        .collect();
    let cell = PICTURE + PICTURE_GAP;
    let columns = (pictures.len() as f32).sqrt().ceil().max(1.0) as u32;
    let rows = (pictures.len() as u32).div_ceil(columns).max(1);
    let size = UVec2::new(columns * cell, rows * cell);
    let mut data = vec![0u8; (size.x * size.y * 4) as usize];
    let mut layout = TextureAtlasLayout::new_empty(size);
    let mut cells = std::collections::HashMap::new();
    for (i, (id, picture)) in pictures.iter().enumerate() {
        let at = UVec2::new(i as u32 % columns, i as u32 / columns) * cell + PICTURE_GAP / 2;
        for y in 0..PICTURE {
            let row = (y * PICTURE * 4) as usize..((y + 1) * PICTURE * 4) as usize;
            let to = (((at.y + y) * size.x + at.x) * 4) as usize;
            data[to..to + row.len()].copy_from_slice(&picture[row]);
        }
        cells.insert(
            *id,
            layout.add_texture(URect::from_corners(at, at + PICTURE)),
        );
    }
    let mut image = Image::new(
        bevy::render::render_resource::Extent3d {
            width: size.x,
            height: size.y,
            depth_or_array_layers: 1,
        },
        bevy::render::render_resource::TextureDimension::D2,
        data,
        bevy::render::render_resource::TextureFormat::Rgba8UnormSrgb,
        bevy::asset::RenderAssetUsages::RENDER_WORLD,
    );
    // Smooth as the icons are (the shapes' own textures are sampled nearest).
    image.sampler = bevy::image::ImageSampler::linear();
    commands.insert_resource(StripAtlas {
        image: images.add(image),
        layout: layouts.add(layout),
        cells,
    });
}

/// The strip's root, with no background of its own (the panels' colour around the
/// map's area, as [`super::hud`]'s bars).
fn spawn_strip(mut commands: Commands) {
    let (l, r, t, _) = super::layout::panels(1280.0);
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        TurnStrip,
        Node {
            position_type: PositionType::Absolute,
            left: px(l),
            right: px(r),
            top: px(t),
            height: px(STRIP_HEIGHT),
            padding: UiRect::horizontal(px(PAD)),
            align_items: AlignItems::Center,
            column_gap: px(GROUP_GAP),
            ..default()
        },
        FocusPolicy::Pass,
    ));
}

/// How the strip's entries fit its width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Entries' side in UI pixels.
    pub size: f32,
    /// Whether each label is cut to its group's entries' width ("Escal...").
    pub cut_labels: bool,
    /// How many entries show; the rest are counted ("+N") at the end.
    pub shown: usize,
}

impl Fit {
    /// The most characters a label over `entries` entries may have.
    pub fn label_chars(&self, entries: usize) -> usize {
        if self.cut_labels {
            ((row_width(entries, self.size) / CHAR_W) as usize).max(4)
        } else {
            usize::MAX
        }
    }
}

/// The width of a row of `n` entries of side `size`.
fn row_width(n: usize, size: f32) -> f32 {
    n as f32 * (size + GAP) - GAP
}

/// A label cut to `chars` characters, ending in "..." when cut.
pub fn cut(label: &str, chars: usize) -> String {
    if label.chars().count() <= chars {
        return label.to_string();
    }
    let keep: String = label.chars().take(chars.saturating_sub(3)).collect();
    format!("{}...", keep.trim_end())
}

/// Fits groups of `counts` entries, each labelled (above its entries) with
/// `labels` characters, into `width` UI pixels: a group is as wide as its entries or
/// its label, whichever is wider. The entries shrink from [`MAX_SIZE`] to
/// [`MIN_SIZE`]; then the labels are cut to their entries' width; when even that is
/// too wide only the first entries that fit show.
pub fn fit(labels: &[usize], counts: &[usize], width: f32) -> Fit {
    let groups: Vec<(usize, usize)> = labels
        .iter()
        .zip(counts)
        .filter(|(_, c)| **c > 0)
        .map(|(&l, &c)| (l, c))
        .collect();
    let total: usize = counts.iter().sum();
    let gaps = GROUP_GAP * groups.len().saturating_sub(1) as f32 + 2.0 * PAD;
    let needed = |size: f32, cut_labels: bool| -> f32 {
        groups
            .iter()
            .map(|&(l, c)| {
                let row = row_width(c, size);
                if cut_labels {
                    row
                } else {
                    row.max(l as f32 * CHAR_W)
                }
            })
            .sum::<f32>()
            + gaps
    };
    for cut_labels in [false, true] {
        let mut size = MAX_SIZE;
        while size >= MIN_SIZE {
            if needed(size, cut_labels) <= width {
                return Fit {
                    size,
                    cut_labels,
                    shown: total,
                };
            }
            size -= 2.0;
        }
    }
    // Too many even at the smallest: as many as fit, with room for the count.
    let size = MIN_SIZE;
    let mut room = width - 2.0 * PAD - 5.0 * CHAR_W;
    let mut shown = 0;
    for &(_, c) in &groups {
        room -= GROUP_GAP;
        for _ in 0..c {
            room -= size + GAP;
            if room < 0.0 {
                return Fit {
                    size,
                    cut_labels: true,
                    shown,
                };
            }
            shown += 1;
        }
    }
    Fit {
        size,
        cut_labels: true,
        shown,
    }
}

/// The strip's groups: the ruleset's turn orders (ASCII labels, empty orders left
/// out), then "Out": the units out of the fight that no order lists.
pub fn groups(battle: &crate::engine::Battle) -> Vec<TurnOrder> {
    let mut groups: Vec<TurnOrder> = battle
        .turn_order()
        .into_iter()
        .filter(|(_, units)| !units.is_empty())
        .map(|(label, units)| (ascii(&label).into_owned(), units))
        .collect();
    let listed: std::collections::BTreeSet<UnitId> =
        groups.iter().flat_map(|(_, u)| u.iter().copied()).collect();
    let out: Vec<UnitId> = battle
        .units()
        .into_iter()
        .filter(|u| !u.state.is_active() && !listed.contains(&u.id))
        .map(|u| u.id)
        .collect();
    if !out.is_empty() {
        groups.push(("Out".into(), out));
    }
    groups
}

/// Where the unit to act is raised: its entry in the group of the stage being
/// played (the order whose label starts with the stage's first word, `phases`'
/// "Battle order" in the "Battle Phase"), else in the first group listing it.
pub fn active_place(
    battle: &crate::engine::Battle,
    groups: &[TurnOrder],
) -> Option<(usize, usize)> {
    let active = battle.turn().active?;
    let stage = battle.stage_name(battle.turn().stage);
    let word = stage.split(' ').next().unwrap_or(stage);
    let find = |g: usize| groups[g].1.iter().position(|&u| u == active);
    let by_stage = (0..groups.len())
        .filter(|&g| groups[g].0.split(' ').next() == Some(word))
        .find_map(|g| find(g).map(|i| (g, i)));
    by_stage.or_else(|| (0..groups.len()).find_map(|g| find(g).map(|i| (g, i))))
}

/// The units a decision option's command names: who reacts, seizes, acts or is
/// acted on.
pub fn units_named(cmd: &Command) -> Vec<UnitId> {
    let mut units: Vec<UnitId> = cmd.unit().into_iter().collect();
    match cmd {
        Command::Attack { target, .. } => units.push(*target),
        Command::ActivateItem {
            target: Some(t), ..
        } => units.push(*t),
        Command::Act { args, .. } | Command::Answer { args, .. } => units.extend(args.units()),
        _ => {}
    }
    units
}

/// What the strip shows: the battle's version, the palette, the width it fits.
type StripKey = (u64, u32, u32);

/// Rebuilds the strip's entries when the battle, the palette or the width changes.
#[allow(clippy::too_many_arguments)]
fn rebuild(
    mut commands: Commands,
    game: Res<Game>,
    window: Single<&Window>,
    scale: Res<UiScale>,
    shapes: Res<ShapeTextures>,
    icons: Res<IconTextures>,
    images: Res<StripImages>,
    atlas: Option<Res<StripAtlas>>,
    strip: Single<(Entity, &mut Node), With<TurnStrip>>,
    mut shown: Local<Option<StripKey>>,
) {
    // The atlas is built on the first frame of the first battle.
    let Some(atlas) = atlas else { return };
    let window_width = window.width() / scale.0.max(0.5);
    let key = (
        game.version,
        super::comfort::palette_generation(),
        window_width.to_bits(),
    );
    if *shown == Some(key) {
        return;
    }
    *shown = Some(key);
    // Between the left panel and the log's column.
    let (strip, mut node) = strip.into_inner();
    let (l, r, _, _) = super::layout::panels(window_width);
    node.left = px(l);
    node.right = px(r);
    let width = window_width - l - r;
    let battle = &game.battle;
    let groups = groups(battle);
    let labels: Vec<usize> = groups.iter().map(|(l, _)| l.chars().count()).collect();
    let counts: Vec<usize> = groups.iter().map(|(_, u)| u.len()).collect();
    let total: usize = counts.iter().sum();
    let mut fitted = fit(&labels, &counts, width);
    // Too many: the orders before the one being played give way first (counted at
    // the start: `phases`' Movement order in the Battle Phase), then the last
    // entries (counted at the end).
    let mut first = 0;
    if fitted.shown < total
        && let Some((g, _)) = active_place(battle, &groups)
        && g > 0
    {
        let before: usize = counts[..g].iter().sum();
        let room = width - format!("+{before}").len() as f32 * CHAR_W - GROUP_GAP;
        first = g;
        fitted = fit(&labels[g..], &counts[g..], room);
    }
    let before: usize = counts[..first].iter().sum();
    let after = total - before - fitted.shown;
    let world = battle.world();
    let mut place = 0;
    let count = |p: &mut ChildSpawnerCommands, n: usize| {
        p.spawn((
            StripLabel,
            Text::new(format!("+{n}")),
            TextFont::from_font_size(LABEL_FONT),
            TextColor(LABEL),
            FocusPolicy::Pass,
        ));
    };
    commands.entity(strip).despawn_children();
    commands.entity(strip).with_children(|p| {
        if before > 0 {
            count(p, before);
        }
        for (g, (label, units)) in groups.iter().enumerate().skip(first) {
            if place >= fitted.shown {
                break;
            }
            // The label over the group's entries.
            let shown_here = units.len().min(fitted.shown - place);
            p.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    row_gap: px(LABEL_GAP),
                    ..default()
                },
                FocusPolicy::Pass,
            ))
            .with_children(|group| {
                group.spawn((
                    StripLabel,
                    Text::new(cut(label, fitted.label_chars(shown_here))),
                    TextFont::from_font_size(LABEL_FONT),
                    TextColor(LABEL),
                    TextLayout::no_wrap(),
                    FocusPolicy::Pass,
                ));
                group
                    .spawn((
                        Node {
                            column_gap: px(GAP),
                            ..default()
                        },
                        FocusPolicy::Pass,
                    ))
                    .with_children(|row| {
                        for &unit in units {
                            if place >= fitted.shown {
                                break;
                            }
                            let side = crate::engine::battle::side_of(world, unit).0 as usize;
                            let out = !crate::engine::battle::play_state(world, unit).is_active();
                            let icon = game
                                .level
                                .units
                                .get(unit.0 as usize)
                                .map(crate::level::icons::icon_for)
                                .and_then(|i| icons.0.get(i).cloned());
                            let entry = StripEntry {
                                unit,
                                group: g,
                                place,
                                out,
                            };
                            let pictures = Pictures {
                                shape: &shapes.0[side % shapes.0.len()],
                                icon: icon.as_ref(),
                                cross: &images.cross,
                                atlas: &atlas,
                            };
                            spawn_entry(row, entry, fitted.size, side, pictures);
                            place += 1;
                        }
                    });
            });
        }
        if after > 0 {
            count(p, after);
        }
    });
}

/// The pictures of an entry, and the atlas they are drawn from.
struct Pictures<'a> {
    shape: &'a Handle<Image>,
    icon: Option<&'a Handle<Image>>,
    cross: &'a Handle<Image>,
    atlas: &'a StripAtlas,
}

impl Pictures<'_> {
    /// `picture` as a UI image, from the atlas when it is there.
    fn node(&self, picture: &Handle<Image>) -> ImageNode {
        self.atlas
            .node(picture)
            .unwrap_or_else(|| ImageNode::new(picture.clone()))
    }
}

/// One entry: the unit's marker in small, greyed and crossed when it is out.
fn spawn_entry(
    row: &mut ChildSpawnerCommands,
    entry: StripEntry,
    size: f32,
    side: usize,
    pictures: Pictures,
) {
    // Out of the fight: the side's colour greyed (the shape still tells the side),
    // the icon kept, a cross over both.
    let shape_color = if entry.out {
        Color::from(side_color(side).to_srgba().mix(&Srgba::gray(0.45), 0.65))
    } else {
        side_color(side)
    };
    let fill = |left: f32, width: f32| Node {
        position_type: PositionType::Absolute,
        left: percent(left),
        top: percent(left),
        width: percent(width),
        height: percent(width),
        ..default()
    };
    // The side's shape is the entry's own image (drawn inside its border, over its
    // backing): a node less for each entry to lay out and draw.
    row.spawn((
        entry,
        Interaction::default(),
        Node {
            width: px(size),
            height: px(size),
            border: UiRect::all(px(2)),
            border_radius: BorderRadius::all(px(4)),
            ..default()
        },
        BackgroundColor(ENTRY_BG),
        BorderColor::all(Color::NONE),
        pictures.node(pictures.shape).with_color(shape_color),
    ))
    .with_children(|e| {
        if let Some(icon) = pictures.icon {
            e.spawn((
                pictures.node(icon).with_color(ICON_INK),
                fill(13.0, 74.0),
                FocusPolicy::Pass,
            ));
        }
        if entry.out {
            e.spawn((
                pictures.node(pictures.cross),
                fill(0.0, 100.0),
                FocusPolicy::Pass,
            ));
        }
    });
}

/// The unit on the hovered cell as of a battle version: (version, cell, unit).
type OnMap = (u64, Option<crate::engine::board::Cell>, Option<UnitId>);

/// Works out which units are lit: the strip entry or prompt option under the
/// pointer, the unit on the hovered map cell, the units the decision asks about.
fn light(
    game: Res<Game>,
    ui: Res<UiState>,
    choices: Res<Choices>,
    entries: Query<(&StripEntry, &Interaction)>,
    options: Query<(&PromptOption, &Interaction)>,
    mut lit: ResMut<Lit>,
    mut cache: Local<Option<OnMap>>,
) {
    let battle = &game.battle;
    let strip = entries
        .iter()
        .find(|(_, i)| **i != Interaction::None)
        .map(|(e, _)| e.unit);
    let mut hovered: Vec<UnitId> = strip.into_iter().collect();
    if let Some((o, _)) = options.iter().find(|(_, i)| **i != Interaction::None)
        && let Some(cmd) = choices.other.get(o.0)
    {
        hovered.extend(units_named(cmd));
    }
    // The unit on the hovered cell, looked up again only when either changes.
    let on_map = match *cache {
        Some((version, cell, unit)) if version == game.version && cell == ui.hovered => unit,
        _ => {
            let unit = ui.hovered.and_then(|cell| {
                battle
                    .units()
                    .into_iter()
                    .find(|u| u.cell == cell && u.state.on_board())
                    .map(|u| u.id)
            });
            *cache = Some((game.version, ui.hovered, unit));
            unit
        }
    };
    let mut asked: Vec<UnitId> = match battle.awaiting() {
        Awaiting::Decision(d) if choices.human => d
            .options
            .iter()
            .flat_map(|o| units_named(&o.command))
            .collect(),
        _ => Vec::new(),
    };
    asked.sort();
    asked.dedup();
    let now = Lit {
        strip,
        hovered,
        on_map,
        asked,
    };
    if *lit != now {
        *lit = now;
    }
}

/// Outlines the entries: the hovered unit's white on a lighter backing, the unit to
/// act yellow and raised (in the group of the stage being played), the units the
/// decision asks about cyan.
fn style_entries(
    game: Res<Game>,
    lit: Res<Lit>,
    mut entries: Query<(
        &StripEntry,
        &mut Node,
        &mut BorderColor,
        &mut BackgroundColor,
    )>,
    new_entries: Query<(), Added<StripEntry>>,
    mut shown: Local<Option<(u64, Lit)>>,
) {
    let key = (game.version, lit.clone());
    if shown.as_ref() == Some(&key) && new_entries.is_empty() {
        return;
    }
    *shown = Some(key);
    let groups = groups(&game.battle);
    let active = active_place(&game.battle, &groups).map(|(g, i)| (g, groups[g].1[i]));
    for (entry, mut node, mut border, mut bg) in &mut entries {
        let hovered = lit.hovered.contains(&entry.unit) || lit.on_map == Some(entry.unit);
        let is_active = active == Some((entry.group, entry.unit));
        let color = if hovered {
            HOVERED
        } else if is_active {
            ACTIVE
        } else if lit.asked.contains(&entry.unit) {
            ASKED
        } else {
            Color::NONE
        };
        border.set_if_neq(BorderColor::all(color));
        bg.set_if_neq(BackgroundColor(if hovered {
            ENTRY_BG_LIT
        } else {
            ENTRY_BG
        }));
        // Raised: lifted out of the row.
        let top = if is_active { px(-RAISE) } else { px(0) };
        if node.top != top {
            node.top = top;
        }
    }
}

/// Names the unit under the pointer in a line under its entry: name, side, health,
/// state and the group it is listed in.
fn tooltip(
    mut commands: Commands,
    game: Res<Game>,
    window: Single<&Window>,
    entries: Query<(
        Entity,
        &StripEntry,
        &Interaction,
        &UiGlobalTransform,
        &ComputedNode,
    )>,
    tips: Query<Entity, With<StripTooltip>>,
    mut shown: Local<Option<(u64, Option<Entity>)>>,
) {
    let hovered = entries
        .iter()
        .find(|(_, _, i, _, _)| **i != Interaction::None);
    let key = (game.version, hovered.map(|(e, ..)| e));
    if *shown == Some(key) {
        return;
    }
    *shown = Some(key);
    for t in &tips {
        commands.entity(t).despawn();
    }
    let Some((entity, entry, _, at, node)) = hovered else {
        return;
    };
    let battle = &game.battle;
    let Some(v) = battle.units().into_iter().find(|u| u.id == entry.unit) else {
        return;
    };
    let groups = groups(battle);
    let mut line = format!("{} ({})  HP {}/{}", v.name, v.side, v.hp, v.max_hp);
    if !v.state.is_active() {
        line += &format!("  [{}]", v.state);
    }
    if let Some((label, _)) = groups.get(entry.group) {
        line += &format!("  |  {label}");
    }
    // Under its entry, shifted to stay over the map, clear of the left panel and the
    // log's column when it can (window pixels: the HUD font is monospaced).
    let line = ascii(&line).into_owned();
    let scale = super::comfort::ui_scale();
    let width = (line.chars().count() as f32 * TIP_FONT * 0.6 + 16.0) * scale;
    let entry_left = (at.translation.x - node.size().x / 2.0) / window.scale_factor();
    let (l, r, _, _) = super::layout::panels_px(window.width());
    let left = entry_left.min(window.width() - r - width).max(l);
    let shift = (left - entry_left) / scale;
    commands.entity(entity).with_children(|e| {
        e.spawn((
            StripTooltip,
            Node {
                position_type: PositionType::Absolute,
                top: percent(112),
                left: px(shift - 2.0),
                padding: UiRect::axes(px(6), px(3)),
                ..default()
            },
            BackgroundColor(Color::srgba(0.02, 0.02, 0.03, 0.95)),
            GlobalZIndex(30),
            FocusPolicy::Pass,
            children![(
                Text::new(line),
                TextFont::from_font_size(TIP_FONT),
                TextColor(Color::WHITE),
                TextLayout::no_wrap(),
                FocusPolicy::Pass,
            )],
        ));
    });
}

/// Rings the lit units on the map, under their markers: white for the hovered ones,
/// cyan (gently pulsing) for those the decision asks about. Rebuilt when the lit
/// units change or the markers were rebuilt.
#[allow(clippy::too_many_arguments)]
fn ring_units(
    mut commands: Commands,
    lit: Res<Lit>,
    geo: Option<Res<super::board_view::MapGeometry>>,
    images: Res<StripImages>,
    markers: Query<(Entity, &MarkerOf), With<UnitMarker>>,
    new_markers: Query<(), Added<UnitMarker>>,
    rings: Query<Entity, With<UnitHighlight>>,
    mut shown: Local<Option<(Vec<UnitId>, Vec<UnitId>)>>,
) {
    let Some(geo) = geo else { return };
    let key = (lit.hovered.clone(), lit.asked.clone());
    if shown.as_ref() == Some(&key) && new_markers.is_empty() {
        return;
    }
    *shown = Some(key);
    for r in &rings {
        commands.entity(r).despawn();
    }
    let cell = geo.cell_size().min_element();
    let wanted = lit.hovered.iter().map(|&u| (u, Highlight::Hovered)).chain(
        lit.asked
            .iter()
            .filter(|u| !lit.hovered.contains(u))
            .map(|&u| (u, Highlight::Asked)),
    );
    for (unit, kind) in wanted {
        let Some((marker, _)) = markers.iter().find(|(_, m)| m.0 == unit) else {
            continue;
        };
        commands.entity(marker).with_children(|p| {
            p.spawn((
                UnitHighlight { unit, kind },
                Sprite {
                    image: images.ring.clone(),
                    color: kind.color(),
                    custom_size: Some(Vec2::splat(cell * RING)),
                    ..default()
                },
                Transform::from_xyz(0.0, 2.0, -0.1),
            ));
        });
    }
}

/// The rings of units asked about breathe, so they catch the eye.
fn pulse(time: Res<Time>, mut rings: Query<(&UnitHighlight, &mut Transform)>) {
    let s = 1.0 + 0.06 * (time.elapsed_secs() * 4.0).sin();
    for (ring, mut t) in &mut rings {
        if ring.kind == Highlight::Asked {
            t.scale = Vec3::new(s, s, 1.0);
        }
    }
}

/// Registers the turn strip.
pub fn plugin(app: &mut App) {
    app.init_resource::<Lit>();
    app.add_systems(Startup, setup);
    app.add_systems(OnEnter(Screen::Battle), spawn_strip);
    app.add_systems(
        Update,
        (
            build_atlas.run_if(not(resource_exists::<StripAtlas>)),
            rebuild,
            light,
            style_entries,
            tooltip,
            ring_units.in_set(BattleSystems::FollowUnits),
            pulse,
        )
            .chain()
            .run_if(in_state(Screen::Battle)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The map's column of a 1280-pixel window.
    const COLUMN: f32 = 717.0;

    #[test]
    fn a_few_entries_keep_full_size_and_labels() {
        // Hex Ruins' two orders of 8; Harpy Crag's five bands, a label wider than
        // its one entry.
        for (labels, counts) in [
            (vec![14, 12], vec![8, 8]),
            (vec![21, 12, 11, 14, 12], vec![1, 1, 3, 3, 3]),
        ] {
            let f = fit(&labels, &counts, COLUMN);
            assert_eq!(f.size, MAX_SIZE);
            assert!(!f.cut_labels);
            assert_eq!(f.shown, counts.iter().sum::<usize>());
            assert_eq!(f.label_chars(1), usize::MAX);
        }
    }

    #[test]
    fn many_entries_shrink_then_cut_labels_then_count_the_rest() {
        // The bench level's 16 units in both of phases' orders, and 31 units in four
        // labelled steps (actfast's Barrow Gate), fit whole, the entries smaller.
        for (labels, counts) in [
            (vec![14, 12], vec![16, 16]),
            (vec![11, 12, 11, 7], vec![8, 12, 6, 5]),
        ] {
            let f = fit(&labels, &counts, COLUMN);
            assert_eq!(f.shown, counts.iter().sum::<usize>());
            assert!(f.size < MAX_SIZE && f.size >= MIN_SIZE, "{f:?}");
            assert!(!f.cut_labels, "{f:?}");
        }
        // Long labels over single entries in a narrow strip are cut to their entry.
        let f = fit(&[30, 30], &[1, 1], 200.0);
        assert!(f.cut_labels, "{f:?}");
        assert_eq!(f.shown, 2);
        assert!(f.label_chars(1) < 30);
        // Far too many: as many as fit, the rest counted.
        let f = fit(&[10], &[200], COLUMN);
        assert_eq!(f.size, MIN_SIZE);
        assert!(f.shown > 20 && f.shown < 200, "{f:?}");
    }

    #[test]
    fn cut_labels_end_in_dots() {
        assert_eq!(cut("Movement order", 12), "Movement...");
        assert_eq!(cut("Initiative", 12), "Initiative");
        assert_eq!(cut("Escalation die 0, now", 6), "Esc...");
    }
}
