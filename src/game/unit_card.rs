//! The unit card: the left panel's picture of the unit whose turn it is (issue 33,
//! item 3). From the top: its portrait (its side's shape and its icon, as on the
//! map), name and side; a health bar with the numbers; its conditions as badges;
//! the ruleset's pools with pips; and what it can do as buttons: the modes Tab
//! cycles (the selected one outlined) and the numbered actions with their key and
//! cost. Hovering a button shows its one-line effect over the card's top.
//!
//! Every button has a key, so the card pictures the keyboard's choices rather than
//! adding a way in only the mouse has: a mode button does what Tab (or the verb's
//! key) does, an action button what its number key does (the same
//! [`PromptOption`] the decision prompt's buttons are).
//!
//! The card is rebuilt only when what it shows changes (a command, another mode,
//! another palette), not every frame. A unit with more actions than the panel's
//! height holds (a `wounds` archer) scrolls its card with the wheel; a tag at the
//! panel's foot says so.

use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::ui::RelativeCursorPosition;

use super::Game;
use super::choices::{Choices, UiState, command_label, verb_cost_words};
use super::screen::Screen;
use super::theme::{DIM, HudText, Panel, PromptOption, TEXT, ascii, font};
use super::units_view::{
    ICON_INK, IconTextures, ShapeTextures, UNKNOWN_ICON, hp_color, side_color, unit_badges,
};
use crate::engine::Command;
use crate::engine::units::UnitId;

const BUTTON: Color = Color::srgb(0.14, 0.16, 0.21);
const BUTTON_HOVER: Color = Color::srgb(0.22, 0.26, 0.34);
const SELECTED: Color = Color::srgb(1.0, 0.95, 0.3);
const KEY_BG: Color = Color::srgb(0.3, 0.33, 0.4);
const BAR_BG: Color = Color::srgb(0.2, 0.2, 0.24);
const PIP: Color = Color::srgb(0.45, 0.75, 1.0);
const BADGE_BG: Color = Color::srgb(0.32, 0.2, 0.36);

/// Most pips a pool shows; a larger pool shows its number only.
const MAX_PIPS: i32 = 8;

/// The card's root, the lower part of the left panel.
#[derive(Component)]
pub struct UnitCard;

/// One of the card's condition rows (its icon and name).
#[derive(Component)]
pub struct CardBadge;

/// A button selecting a mode (an index into [`Choices::powers`]), as Tab does.
#[derive(Component)]
pub struct ModeButton(pub usize);

/// What a card button does, shown over the card's top while it is hovered.
#[derive(Component)]
pub struct Effect(pub String);

/// The hovered button's effect, floating over the card's top (hidden when none).
#[derive(Component)]
pub struct EffectLine;

/// The tag at the panel's foot saying the card scrolls on (hidden when it doesn't).
#[derive(Component)]
pub struct MoreBelow;

/// One numbered action as the card lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Numbered {
    /// Its index in [`Choices::other`] (its number key is one more, up to 9).
    pub index: usize,
    /// The verb it is an instance of, if any.
    pub verb: Option<String>,
    /// Its label ("Delay to Slow").
    pub label: String,
    /// Its cost and key ("1 Standard, key H"), or empty.
    pub hint: String,
}

impl Numbered {
    /// The number key that does it ("3"), if it has one.
    pub fn key(&self) -> Option<String> {
        (self.index < 9).then(|| (self.index + 1).to_string())
    }
}

/// Numbered actions shown together: one action, or a run of one verb listed once
/// per choice whose labels share their first words ("Delay to Medium", "Delay to
/// Slow"), which shows those words once as its title and each choice by the rest
/// of its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The shared first words ("Delay to"), if the group is such a run.
    pub title: Option<String>,
    /// The actions, each with the label the card gives it.
    pub items: Vec<(Numbered, String)>,
}

/// The numbered actions in [`Group`]s, in order.
pub fn groups(items: &[Numbered]) -> Vec<Group> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < items.len() {
        let first = &items[i];
        let run = items[i..]
            .iter()
            .take_while(|n| n.verb.is_some() && n.verb == first.verb && n.key().is_some())
            .count()
            .max(1);
        let words: Vec<Vec<&str>> = items[i..i + run]
            .iter()
            .map(|n| n.label.split(' ').collect())
            .collect();
        // The leading words all labels share, leaving each at least one of its own.
        let shared = (0..)
            .take_while(|&w| words.iter().all(|l| w + 1 < l.len() && l[w] == words[0][w]))
            .count();
        if run > 1 && shared > 0 {
            out.push(Group {
                title: Some(words[0][..shared].join(" ")),
                items: items[i..i + run]
                    .iter()
                    .zip(&words)
                    .map(|(n, l)| (n.clone(), l[shared..].join(" ")))
                    .collect(),
            });
        } else {
            out.extend(items[i..i + run].iter().map(|n| Group {
                title: None,
                items: vec![(n.clone(), n.label.clone())],
            }));
        }
        i += run;
    }
    out
}

/// The active unit's numbered actions (its untargeted commands, End turn last).
fn numbered(game: &Game, choices: &Choices) -> Vec<Numbered> {
    choices
        .other
        .iter()
        .enumerate()
        .map(|(index, cmd)| {
            let verb = match cmd {
                Command::Act { verb, .. } => Some(verb.clone()),
                _ => None,
            };
            Numbered {
                index,
                hint: verb
                    .as_deref()
                    .map_or(String::new(), |v| verb_cost_words(&game.battle, v)),
                verb,
                label: command_label(&game.battle, cmd),
            }
        })
        .collect()
}

/// What a verb does, in the ruleset's words ([`crate::engine::verb::VerbSpec::about`]).
fn about(battle: &crate::engine::Battle, verb: Option<&str>) -> Option<String> {
    let spec = crate::engine::verb::find(battle.rules().verbs(), verb?)?;
    (!spec.about.is_empty()).then(|| spec.about.to_string())
}

/// A row of buttons that wraps.
fn button_row() -> Node {
    Node {
        flex_wrap: FlexWrap::Wrap,
        column_gap: px(4),
        row_gap: px(4),
        ..default()
    }
}

/// An effect with the cost and key after it in brackets, when there are any.
fn with_cost(effect: String, cost: &str) -> String {
    if cost.is_empty() {
        effect
    } else {
        format!("{effect} ({cost})")
    }
}

/// What the card shows was computed for: battle version, selected mode, whose
/// choice it is, the unit, the palette.
type Shown = (u64, usize, bool, Option<UnitId>, u32);

/// Puts the card in the left panel once, then rebuilds it when what it shows
/// changed.
#[allow(clippy::too_many_arguments)]
fn update_card(
    mut commands: Commands,
    game: Res<Game>,
    choices: Res<Choices>,
    shapes: Res<ShapeTextures>,
    icons: Res<IconTextures>,
    card: Query<Entity, With<UnitCard>>,
    panels: Query<(Entity, &Panel)>,
    mut shown: Local<Option<Shown>>,
) {
    let Ok(card) = card.single() else {
        if let Some((left, _)) = panels.iter().find(|(_, p)| matches!(p, Panel::Left)) {
            // The card takes the panel's height left under the orders and scrolls
            // (the wheel over it) when a unit has more actions than fit.
            commands.entity(left).with_children(|panel| {
                panel.spawn((
                    UnitCard,
                    Node {
                        flex_direction: FlexDirection::Column,
                        flex_shrink: 1.0,
                        min_height: px(0),
                        row_gap: px(4),
                        overflow: Overflow::scroll_y(),
                        ..default()
                    },
                    ScrollPosition::default(),
                    RelativeCursorPosition::default(),
                ));
                // Across the panel's foot while the card has more below (over
                // the card's cut-off line, not beside it).
                panel.spawn((
                    MoreBelow,
                    Text::new("v  more below: scroll here  v"),
                    font(12.0),
                    TextColor(TEXT),
                    TextLayout::justify(Justify::Center),
                    Node {
                        position_type: PositionType::Absolute,
                        left: px(10),
                        right: px(10),
                        bottom: px(2),
                        padding: UiRect::axes(px(4), px(1)),
                        ..default()
                    },
                    BackgroundColor(KEY_BG),
                    Visibility::Hidden,
                    GlobalZIndex(5),
                ));
                // The hovered button's effect floats over the panel's top (the
                // portrait), where a long card never clips it and it never hides
                // the button.
                panel.spawn((
                    EffectLine,
                    Text::new(""),
                    font(13.0),
                    TextColor(TEXT),
                    Node {
                        position_type: PositionType::Absolute,
                        left: px(6),
                        right: px(6),
                        top: px(6),
                        padding: UiRect::all(px(6)),
                        border: UiRect::all(px(1)),
                        border_radius: BorderRadius::all(px(4)),
                        ..default()
                    },
                    BackgroundColor(Color::srgb(0.1, 0.11, 0.15)),
                    BorderColor::all(DIM),
                    Visibility::Hidden,
                    GlobalZIndex(5),
                ));
            });
        }
        *shown = None;
        return;
    };
    let battle = &game.battle;
    let unit = choices.unit.or(battle.turn().active);
    let key = (
        choices.key.0,
        choices.key.1,
        choices.human,
        unit,
        super::comfort::palette_generation(),
    );
    if *shown == Some(key) {
        return;
    }
    *shown = Some(key);
    commands
        .entity(card)
        .despawn_children()
        .insert(ScrollPosition::default());
    let Some(v) = unit.and_then(|u| battle.units().into_iter().find(|v| v.id == u)) else {
        return;
    };
    let side = battle.side_id(&v.side).map_or(0, |s| s.0 as usize);
    let icon = game
        .level
        .units
        .get(v.id.0 as usize)
        .map(crate::level::icons::icon_for)
        .and_then(|i| icons.0.get(i).cloned());
    let shape = shapes.0[side % shapes.0.len()].clone();
    commands.entity(card).with_children(|c| {
        // Portrait, name and side.
        c.spawn(Node {
            column_gap: px(8),
            align_items: AlignItems::Center,
            ..default()
        })
        .with_children(|row| {
            row.spawn((
                Node {
                    width: px(44),
                    height: px(44),
                    flex_shrink: 0.0,
                    ..default()
                },
                ImageNode::new(shape).with_color(side_color(side)),
            ))
            .with_children(|p| {
                if let Some(image) = icon {
                    p.spawn((
                        Node {
                            position_type: PositionType::Absolute,
                            left: px(9),
                            top: px(8),
                            width: px(26),
                            height: px(26),
                            ..default()
                        },
                        ImageNode::new(image).with_color(ICON_INK),
                    ));
                }
            });
            row.spawn(Node {
                flex_direction: FlexDirection::Column,
                ..default()
            })
            .with_children(|n| {
                n.spawn((
                    Text::new(ascii(&v.name)),
                    font(16.0),
                    TextColor(TEXT),
                    HudText::Card,
                ));
                let state = if v.state.is_active() {
                    String::new()
                } else {
                    format!(" ({})", v.state)
                };
                n.spawn((
                    Text::new(ascii(&format!("{}{state}", v.side))),
                    font(13.0),
                    TextColor(side_color(side).lighter(0.2)),
                ));
            });
        });
        // Health: the numbers over a bar.
        let frac = (v.hp.max(0) as f32 / v.max_hp.max(1) as f32).clamp(0.0, 1.0);
        c.spawn((
            Text::new(format!("HP {}/{}", v.hp, v.max_hp)),
            font(14.0),
            TextColor(TEXT),
            HudText::Card,
        ));
        c.spawn((
            Node {
                width: percent(100),
                height: px(8),
                ..default()
            },
            BackgroundColor(BAR_BG),
        ))
        .with_child((
            Node {
                width: percent(frac * 100.0),
                height: percent(100),
                ..default()
            },
            BackgroundColor(hp_color(frac)),
        ));
        // Conditions: each one's icon in its colour, the name (and number) beside
        // it; the badge's tooltip on the map has the rest.
        for shown in unit_badges(battle, &v) {
            let mut words = shown.name.clone();
            if let Some(n) = shown.number {
                words += &format!(" ({n})");
            }
            let image = icons
                .0
                .get(shown.badge.icon)
                .or_else(|| icons.0.get(UNKNOWN_ICON))
                .cloned()
                .unwrap_or_default();
            c.spawn((
                CardBadge,
                Node {
                    column_gap: px(6),
                    align_items: AlignItems::Center,
                    ..default()
                },
            ))
            .with_children(|row| {
                row.spawn((
                    Node {
                        padding: UiRect::all(px(2)),
                        border_radius: BorderRadius::all(px(10)),
                        ..default()
                    },
                    BackgroundColor(BADGE_BG),
                ))
                .with_child((
                    ImageNode::new(image).with_color(shown.color()),
                    Node {
                        width: px(16),
                        height: px(16),
                        ..default()
                    },
                ));
                row.spawn((
                    Text::new(ascii(&words)),
                    font(13.0),
                    TextColor(TEXT),
                    HudText::Card,
                ));
            });
        }
        // The ruleset's pools, two to a line: "Standard: 1" and a pip for each
        // point left.
        c.spawn(Node {
            flex_wrap: FlexWrap::Wrap,
            row_gap: px(2),
            ..default()
        })
        .with_children(|pools| {
            for (name, left) in battle.pools(v.id) {
                pools
                    .spawn(Node {
                        min_width: percent(50),
                        column_gap: px(4),
                        align_items: AlignItems::Center,
                        ..default()
                    })
                    .with_children(|row| {
                        row.spawn((
                            Text::new(ascii(&format!("{name}: {left}"))),
                            font(14.0),
                            TextColor(TEXT),
                            HudText::Card,
                        ));
                        if (1..=MAX_PIPS).contains(&left) {
                            for _ in 0..left {
                                row.spawn((
                                    Node {
                                        width: px(8),
                                        height: px(8),
                                        border_radius: BorderRadius::all(px(4)),
                                        ..default()
                                    },
                                    BackgroundColor(PIP),
                                ));
                            }
                        }
                    });
            }
        });
        if !(choices.human && choices.unit.is_some()) {
            return;
        }
        // What a click on the map does, then the modes and the numbered actions.
        let mut clicks = Vec::new();
        if !choices.moves.is_empty() {
            clicks.push("click a blue cell to move");
        }
        if !choices.targets.is_empty() {
            clicks.push("a ringed enemy to attack");
        }
        if !clicks.is_empty() {
            c.spawn((
                Text::new(format!(
                    "Click {}",
                    clicks.join(", ").trim_start_matches("click ")
                )),
                font(13.0),
                TextColor(DIM),
                Node {
                    margin: UiRect::top(px(4)),
                    ..default()
                },
            ));
        }
        if !choices.powers.is_empty() {
            c.spawn((
                Text::new(if choices.powers.len() > 1 {
                    "Modes (Tab)"
                } else {
                    "Mode"
                }),
                font(13.0),
                TextColor(DIM),
            ));
        }
        c.spawn(button_row()).with_children(|row| {
            for (i, m) in choices.powers.iter().enumerate() {
                let hint = m
                    .verb
                    .map(|v| verb_cost_words(battle, v))
                    .unwrap_or_default();
                let effect = about(battle, m.verb).unwrap_or_else(|| {
                    if m.moves {
                        format!("{}: click a blue cell", m.label)
                    } else {
                        format!("{}: click a ringed enemy", m.label)
                    }
                });
                let effect = with_cost(effect, &hint);
                let selected = i == choices.selected;
                row.spawn((
                    Button,
                    ModeButton(i),
                    Effect(effect),
                    Node {
                        padding: UiRect::axes(px(6), px(3)),
                        border: UiRect::all(px(2)),
                        border_radius: BorderRadius::all(px(4)),
                        ..default()
                    },
                    BackgroundColor(BUTTON),
                    BorderColor::all(if selected { SELECTED } else { BUTTON }),
                ))
                .with_child((
                    Text::new(ascii(&m.label)),
                    font(14.0),
                    TextColor(TEXT),
                    HudText::Card,
                ));
            }
        });
        for group in groups(&numbered(&game, &choices)) {
            let first = &group.items[0].0;
            if let Some(title) = &group.title {
                let hint = if first.hint.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", first.hint)
                };
                c.spawn((
                    Text::new(ascii(&format!("{title}{hint}"))),
                    font(13.0),
                    TextColor(DIM),
                    HudText::Card,
                ));
            }
            c.spawn(button_row()).with_children(|row| {
                for (n, label) in &group.items {
                    let effect =
                        about(battle, n.verb.as_deref()).unwrap_or_else(|| n.label.clone());
                    // A group's title already names the cost.
                    let effect = if group.title.is_some() {
                        effect
                    } else {
                        with_cost(effect, &n.hint)
                    };
                    // A lone action takes the card's width, its cost after its name
                    // (under it when there is no room); a group's choices sit side by
                    // side.
                    let alone = group.title.is_none();
                    row.spawn((
                        Button,
                        PromptOption(n.index),
                        Effect(effect),
                        Node {
                            width: if alone { percent(100) } else { Val::Auto },
                            padding: UiRect::axes(px(6), px(2)),
                            column_gap: px(6),
                            align_items: AlignItems::Center,
                            border_radius: BorderRadius::all(px(4)),
                            ..default()
                        },
                        BackgroundColor(BUTTON),
                    ))
                    .with_children(|b| {
                        if let Some(key) = n.key() {
                            b.spawn((
                                Node {
                                    padding: UiRect::axes(px(4), px(0)),
                                    border_radius: BorderRadius::all(px(3)),
                                    ..default()
                                },
                                BackgroundColor(KEY_BG),
                            ))
                            .with_child((
                                Text::new(key),
                                font(13.0),
                                TextColor(TEXT),
                            ));
                        }
                        b.spawn(Node {
                            flex_wrap: FlexWrap::Wrap,
                            column_gap: px(6),
                            align_items: AlignItems::Baseline,
                            ..default()
                        })
                        .with_children(|words| {
                            words.spawn((
                                Text::new(ascii(label)),
                                font(14.0),
                                TextColor(TEXT),
                                HudText::Card,
                            ));
                            if !n.hint.is_empty() && alone {
                                words.spawn((
                                    Text::new(ascii(&n.hint)),
                                    font(12.0),
                                    TextColor(DIM),
                                    HudText::Card,
                                ));
                            }
                        });
                    });
                }
            });
        }
    });
}

/// The wheel over the card scrolls it; the "more" tag shows while the card has
/// more below than its panel shows.
fn scroll_card(
    scroll: Res<AccumulatedMouseScroll>,
    mut card: Query<(&RelativeCursorPosition, &ComputedNode, &mut ScrollPosition), With<UnitCard>>,
    mut more: Query<&mut Visibility, With<MoreBelow>>,
) {
    let Ok((cursor, node, mut at)) = card.single_mut() else {
        return;
    };
    // How far the card can scroll, in UI pixels.
    let room = ((node.content_size.y - node.size.y) * node.inverse_scale_factor).max(0.0);
    if scroll.delta.y != 0.0 && cursor.cursor_over() {
        let step = match scroll.unit {
            MouseScrollUnit::Line => 28.0,
            MouseScrollUnit::Pixel => 1.0,
        };
        let y = (at.0.y - scroll.delta.y * step).clamp(0.0, room);
        if at.0.y != y {
            at.0.y = y;
        }
    }
    let want = if at.0.y + 1.0 < room {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    };
    for mut shown in &mut more {
        shown.set_if_neq(want);
    }
}

/// Mode buttons select their mode; hovering any card button lights it and shows
/// its effect over the card's top.
#[allow(clippy::type_complexity)]
fn card_buttons(
    mut ui: ResMut<UiState>,
    modes: Query<(&Interaction, &ModeButton), Changed<Interaction>>,
    mut looks: Query<(&Interaction, &Effect, &mut BackgroundColor), With<Button>>,
    mut line: Query<(&mut Text, &mut Visibility), With<EffectLine>>,
) {
    for (interaction, mode) in &modes {
        if *interaction == Interaction::Pressed {
            ui.power = mode.0;
        }
    }
    let mut tip = String::new();
    for (interaction, effect, mut bg) in &mut looks {
        let hovered = *interaction != Interaction::None;
        let want = if hovered { BUTTON_HOVER } else { BUTTON };
        if bg.0 != want {
            bg.0 = want;
        }
        if hovered {
            tip = ascii(&effect.0).into_owned();
        }
    }
    for (mut text, mut shown) in &mut line {
        if text.0 != tip {
            text.0 = tip.clone();
        }
        let want = if tip.is_empty() {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        };
        if *shown != want {
            *shown = want;
        }
    }
}

/// Registers the unit card.
pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (update_card, card_buttons, scroll_card).run_if(in_state(Screen::Battle)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(index: usize, verb: Option<&str>, label: &str, hint: &str) -> Numbered {
        Numbered {
            index,
            verb: verb.map(str::to_string),
            label: label.into(),
            hint: hint.into(),
        }
    }

    /// The card's groups as text: a title line, then each action as "key label".
    fn shown(groups: &[Group]) -> Vec<String> {
        groups
            .iter()
            .map(|g| {
                let items: Vec<String> = g
                    .items
                    .iter()
                    .map(|(n, l)| format!("{} {l}", n.key().unwrap_or_default()))
                    .collect();
                match &g.title {
                    Some(t) => format!("{t}: {}", items.join(", ")),
                    None => items.join(", "),
                }
            })
            .collect()
    }

    #[test]
    fn a_verb_listed_once_per_choice_shares_one_title() {
        // E-19: Delay, once per lower band; the other actions keep their own buttons.
        let items = [
            numbered(0, Some("Rally"), "Rally", "1 Standard, key H"),
            numbered(1, Some("Delay"), "Delay to Medium", "key L"),
            numbered(2, Some("Delay"), "Delay to Slow", "key L"),
            numbered(3, Some("Delay"), "Delay to Very Slow", "key L"),
            numbered(4, None, "End turn", ""),
        ];
        assert_eq!(
            shown(&groups(&items)),
            [
                "1 Rally",
                "Delay to: 2 Medium, 3 Slow, 4 Very Slow",
                "5 End turn"
            ]
        );
        // Labels with no first word in common stay one a button.
        let draws = [
            numbered(0, Some("Draw"), "Sword", "1 AP"),
            numbered(1, Some("Draw"), "Bow", "1 AP"),
        ];
        assert_eq!(shown(&groups(&draws)), ["1 Sword", "2 Bow"]);
        // Past the ninth, an action has no number key and stays alone.
        assert_eq!(numbered(9, None, "Tenth", "").key(), None);
    }
}
