//! The HUD: turn state (round, stage, whose turn, the turn orders in the ruleset's
//! terms; the active unit's card is [`super::unit_card`]), the combat log, hover
//! odds, decision prompts and the result screen. Panels sit around the map (see
//! [`super::layout::panels`]); everything on them is reachable by keyboard.

use bevy::prelude::*;

use super::Game;
use super::choices::{Choices, UiState, command_label, submit};
use super::layout::{ChoiceBar, LogRows, LogTitle, Prompt, panels};
use super::screen::{Leave, ReturnTo, Screen};
use super::theme::{DIM, HudText, Panel, PromptOption, TEXT, ascii, font, spawn_frame};
use super::units_view::{SIDE_SHAPES, side_color};
use crate::engine::Command;
use crate::engine::battle::{Awaiting, Sides};

/// The decision prompt's frame: the map ring's yellow.
const PROMPT_FRAME: Color = Color::srgb(1.0, 0.95, 0.3);
const GOOD: Color = Color::srgb(0.55, 0.9, 0.6);
const BAD: Color = Color::srgb(1.0, 0.45, 0.4);

/// The result screen.
#[derive(Component)]
pub struct ResultScreen;
/// A choice's button: the option's place among the choosable ones and the
/// choice's among its choices.
#[derive(Component)]
pub struct ChoiceButton {
    /// The option (index into [`crate::engine::options::choosable`]).
    pub option: usize,
    /// The choice (index into its [`crate::engine::verb::ArgSpec::choices`]).
    pub choice: usize,
}
/// Result screen buttons.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
pub enum ResultButton {
    /// Play again.
    Restart,
    /// Leave.
    Quit,
}

/// The bottom bar's line of keys that work on every turn, with the C key when the
/// ruleset's attacks offer choices (it cycles the first option's; the bar's
/// buttons choose any).
pub fn keys_help(battle: &crate::engine::Battle) -> String {
    let choose = match crate::engine::options::choosable(battle.rules()).as_slice() {
        [] => String::new(),
        [one] => format!(", C {}", one.name),
        [first, ..] => format!(", C {} (click the bar for the others)", first.name),
    };
    format!(
        "Click / Enter: act  |  WASD cursor, T next target  |  Tab next mode{choose}  |  Space \
         end turn  |  PgUp/PgDn log  |  X (hold) fast AI  |  F3 threat, Alt names"
    )
}

/// The bars and side panels. They draw no background: the map's camera draws into
/// the map's area only and clears the rest of the window in their colour
/// ([`super::theme::PANEL_BG`], see [`super::control`]), which costs a software
/// renderer far less than large translucent nodes over the map.
fn spawn_hud(mut commands: Commands, game: Option<Res<Game>>) {
    let help = game.map(|g| keys_help(&g.battle)).unwrap_or_default();
    let (l, r, t, b) = panels(1280.0);
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        Node {
            position_type: PositionType::Absolute,
            left: px(0),
            right: px(0),
            top: px(0),
            height: px(t),
            padding: UiRect::axes(px(10), px(8)),
            justify_content: JustifyContent::SpaceBetween,
            // One line: a long title is cut at the window's edge rather than
            // wrapping over the panels under the bar.
            overflow: Overflow::clip(),
            ..default()
        },
        children![
            (
                Text::new(""),
                font(17.0),
                TextColor(TEXT),
                TextLayout::no_wrap(),
                HudText::Top
            ),
            (Text::new(""), font(15.0), TextColor(BAD), HudText::Message),
        ],
    ));
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        Panel::Left,
        Node {
            position_type: PositionType::Absolute,
            left: px(0),
            top: px(t),
            bottom: px(b),
            width: px(l),
            padding: UiRect::all(px(10)),
            flex_direction: FlexDirection::Column,
            overflow: Overflow::clip(),
            ..default()
        },
        children![
            // The turn orders give way (clipped at their end) before the unit card
            // ([`super::unit_card`], added below them).
            (
                Node {
                    flex_shrink: 1.0,
                    min_height: px(0),
                    overflow: Overflow::clip(),
                    ..default()
                },
                children![(Text::new(""), font(14.0), TextColor(TEXT), HudText::Order)],
            ),
        ],
    ));
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        Panel::Right,
        Node {
            position_type: PositionType::Absolute,
            right: px(0),
            top: px(t),
            bottom: px(b),
            width: px(r),
            padding: UiRect::all(px(10)),
            flex_direction: FlexDirection::Column,
            // Room between the title and the clipped top line of the log.
            row_gap: px(10),
            overflow: Overflow::clip(),
            ..default()
        },
        children![
            // The attack options' chooser (rulesets whose attacks offer choices),
            // above the log.
            (
                ChoiceBar,
                Node {
                    flex_shrink: 0.0,
                    flex_direction: FlexDirection::Column,
                    row_gap: px(3),
                    display: Display::None,
                    ..default()
                },
            ),
            (
                Text::new("Combat log  (PgUp/PgDn, / explain a roll)"),
                font(15.0),
                TextColor(DIM),
                LogTitle,
            ),
            // The newest line sits at the bottom; older lines are clipped at the top.
            (
                Node {
                    flex_grow: 1.0,
                    overflow: Overflow::clip(),
                    ..default()
                },
                children![(
                    Node {
                        position_type: PositionType::Absolute,
                        left: px(0),
                        right: px(0),
                        bottom: px(0),
                        flex_direction: FlexDirection::Column,
                        ..default()
                    },
                    LogRows,
                )]
            ),
        ],
    ));
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        Node {
            position_type: PositionType::Absolute,
            left: px(0),
            right: px(0),
            bottom: px(0),
            height: px(b),
            padding: UiRect::axes(px(10), px(6)),
            ..default()
        },
        children![
            (Text::new(""), font(15.0), TextColor(TEXT), HudText::Hover),
            // The keys that work on every turn, on the bar's last line (not in the
            // left panel, which needs its height for the orders and actions).
            (
                Text::new(help),
                font(13.0),
                TextColor(DIM),
                Node {
                    position_type: PositionType::Absolute,
                    left: px(10),
                    right: px(10),
                    bottom: px(5),
                    ..default()
                },
            ),
        ],
    ));
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        Prompt,
        Panel::Prompt,
        // Beside the board, over the top of the log's column (its newest lines, what
        // the decision is about, stay in view below it), never over the map.
        Node {
            position_type: PositionType::Absolute,
            right: px(6.0),
            width: px(r - 12.0),
            top: px(t + 4.0),
            padding: UiRect::all(px(12)),
            flex_direction: FlexDirection::Column,
            row_gap: px(8),
            border: UiRect::all(px(2)),
            ..default()
        },
        // No background: what of the right panel it overlaps is hidden instead
        // (`log_view::hide_unseen`), so the panels' colour shows, and the software
        // renderer is spared a large node. Its border is drawn by `update_prompt`
        // (`spawn_frame`).
        Visibility::Hidden,
        GlobalZIndex(10),
    ));
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        ResultScreen,
        Node {
            position_type: PositionType::Absolute,
            left: percent(25),
            right: percent(25),
            top: percent(25),
            padding: UiRect::all(px(20)),
            flex_direction: FlexDirection::Column,
            row_gap: px(10),
            border: UiRect::all(px(2)),
            ..default()
        },
        BackgroundColor(Color::srgba(0.06, 0.07, 0.1, 0.97)),
        BorderColor::all(Color::WHITE),
        Visibility::Hidden,
        GlobalZIndex(20),
    ));
}

fn side_label(game: &Game, side: usize) -> String {
    let sides = &game.battle.world().resource::<Sides>().0;
    let name = sides.get(side).map_or("?", |s| s.name.as_str());
    format!("{name} ({})", SIDE_SHAPES[side % SIDE_SHAPES.len()])
}

/// How many units the left panel names after the one to act.
const NEXT_NAMED: usize = 2;

/// The left panel's turn order in brief (the strip along the top,
/// [`super::turn_strip`], shows it whole and names each unit on hover; the top bar
/// names the unit to act): the next units in play after the one to act, "Next:
/// Cleric, Goblin Spear, +3"; with nobody to act yet (a decision first), the
/// first order's first units under its label, "Movement order: Knight, Ranger, ...".
fn orders_text(game: &Game) -> String {
    let battle = &game.battle;
    let world = battle.world();
    let groups = super::turn_strip::groups(battle);
    let Some(first) = groups.first() else {
        return String::new();
    };
    let (lead, rest): (String, Vec<crate::engine::units::UnitId>) =
        match super::turn_strip::active_place(battle, &groups) {
            Some((g, i)) => (
                "Next".into(),
                groups[g].1[i + 1..]
                    .iter()
                    .chain(groups[g + 1..].iter().flat_map(|(_, u)| u))
                    .copied()
                    .filter(|&u| Some(u) != battle.turn().active)
                    .collect(),
            ),
            None => (first.0.clone(), first.1.clone()),
        };
    let mut next: Vec<crate::engine::units::UnitId> = Vec::new();
    for u in rest {
        if crate::engine::battle::play_state(world, u).is_active() && !next.contains(&u) {
            next.push(u);
        }
    }
    if next.is_empty() {
        return String::new();
    }
    let mut names: Vec<String> = next
        .iter()
        .take(NEXT_NAMED)
        .map(|&u| battle.unit_name(u))
        .collect();
    if next.len() > NEXT_NAMED {
        names.push(format!("+{}", next.len() - NEXT_NAMED));
    }
    // The closing newline draws the blank line before the active unit.
    format!("{lead}: {}\n", names.join(", "))
}

/// Top bar, left panel and hover text.
#[allow(clippy::too_many_arguments)]
fn update_texts(
    game: Res<Game>,
    ui: Res<UiState>,
    choices: Res<Choices>,
    replay: Option<Res<super::replay_view::Replay>>,
    threat: Res<super::overlays::ThreatShown>,
    mut texts: Query<(&HudText, &mut Text, &mut TextColor)>,
    new_texts: Query<(), Added<HudText>>,
    mut had_replay: Local<bool>,
) {
    // The texts say only what these hold: rebuilt when one of them changed (not
    // every frame), or when the texts were (re)spawned.
    let replay_changed =
        replay.as_ref().is_some_and(|r| r.is_changed()) || *had_replay != replay.is_some();
    *had_replay = replay.is_some();
    if !(game.is_changed()
        || ui.is_changed()
        || choices.is_changed()
        || threat.is_changed()
        || replay_changed
        || !new_texts.is_empty())
    {
        return;
    }
    let mut set = |which: HudText, value: String, color: Option<Color>| {
        let value = ascii(&value).into_owned();
        for (kind, mut text, mut tc) in &mut texts {
            if *kind == which {
                if text.0 != value {
                    text.0 = value.clone();
                }
                if let Some(c) = color
                    && tc.0 != c
                {
                    tc.0 = c;
                }
            }
        }
    };
    let battle = &game.battle;
    let world = battle.world();
    let turn = battle.turn();
    let who = match battle.awaiting() {
        Awaiting::Unit(u, _) => {
            let side = crate::engine::battle::side_of(world, u).0 as usize;
            format!(
                "{} of {} to act",
                battle.unit_name(u),
                side_label(&game, side)
            )
        }
        Awaiting::Decision(d) => format!("{} to decide", side_label(&game, d.side.0 as usize)),
        Awaiting::Over(_) => "battle over".into(),
    };
    let ai = if replay.is_some() {
        "  |  replay"
    } else if choices.human {
        ""
    } else {
        "  |  AI thinking (hold X)"
    };
    let t = format!(
        "{}  |  {}  |  Round {}  |  {}  |  {}{ai}",
        game.level.name,
        battle.ruleset(),
        turn.round,
        battle.stage_name(turn.stage),
        who
    );
    set(HudText::Top, t, None);
    let (msg, color) = match &ui.message {
        Some((m, true)) => (m.clone(), BAD),
        Some((m, false)) => (m.clone(), GOOD),
        None => (String::new(), BAD),
    };
    set(HudText::Message, msg, Some(color));

    // Left panel: the orders (the unit card below them draws itself).
    set(HudText::Order, orders_text(&game), None);

    // Hover: move preview or exact attack odds.
    let mut h = String::new();
    if let (Some(cell), Some(u)) = (ui.hovered, choices.unit) {
        if let Some((cmd, preview)) = choices.moves.get(&cell) {
            let power = match cmd {
                Command::Move { power, .. } => power.clone(),
                // A verb that goes to a cell (`phases`' Disengage): its mode's label.
                _ => super::choices::mode_of(&game.battle, cmd)
                    .map_or_else(|| "Move".into(), |(mode, _)| mode.label),
            };
            h = format!("{power} to {cell}: cost {}", preview.cost);
            h += &match preview.provocations {
                // The ruleset's own words (wounds: each free hit and the slots left).
                _ if !preview.notes.is_empty() => format!("  |  {}", preview.notes.join("; ")),
                0 => "  |  provokes nothing".to_string(),
                n => format!(
                    "  |  provokes {n} opportunity attack{}",
                    if n > 1 { "s" } else { "" }
                ),
            };
        } else if let Some(Command::Attack { target, power, .. }) = choices.targets.get(&cell) {
            // The choices made for the attack (`wounds`' aim, W-17): their odds
            // and effects.
            let cmd = choices.targets.get(&cell).cloned();
            let made = match cmd.map(|c| super::choices::with_choices(battle, c, &ui)) {
                Some(Command::Attack { options, .. }) => {
                    let labels = crate::engine::options::choice_labels(battle.rules(), &options);
                    Some((options, labels)).filter(|(_, l)| !l.is_empty())
                }
                _ => None,
            };
            let preview = made.as_ref().and_then(|(options, labels)| {
                let p = battle.preview_attack_with(u, *target, power.as_deref(), options)?;
                Some((p, labels))
            });
            if let Some((p, chosen)) = preview {
                let what = power.clone().unwrap_or_else(|| "Attack".into());
                let made: Vec<String> = chosen.iter().map(|(o, c)| format!("{o} {c}")).collect();
                let mut extra = p.attack.modifiers.clone();
                extra.extend(
                    p.effects
                        .iter()
                        .map(|(e, chance)| format!("{:.0}% {e}", chance * 100.0)),
                );
                h = format!(
                    "{what} -> {}, {} (C: change {}): hit {:.1}%  |  expected damage {:.1}  |  defeat {:.1}%\n{}  |  {}",
                    battle.unit_name(*target),
                    made.join(", "),
                    chosen[0].0,
                    p.attack.chance * 100.0,
                    p.attack.expected_damage,
                    p.attack.kill_chance * 100.0,
                    p.attack.roll,
                    extra.join("; ")
                );
            } else if let Some(p) = battle.preview_attack(u, *target, power.as_deref()) {
                // The attack's name, or its mode's ("Attack") when it has none.
                let what = power.clone().unwrap_or_else(|| {
                    choices
                        .targets
                        .get(&cell)
                        .and_then(|cmd| super::choices::mode_of(battle, cmd))
                        .map_or_else(|| "Attack".into(), |(mode, _)| mode.label)
                });
                h = format!(
                    "{} -> {}: hit {:.1}%  |  expected damage {:.1}  |  defeat {:.1}%\n{}  |  {}",
                    what,
                    battle.unit_name(*target),
                    p.chance * 100.0,
                    p.expected_damage,
                    p.kill_chance * 100.0,
                    p.roll,
                    if p.modifiers.is_empty() {
                        "no advantage or disadvantage".into()
                    } else {
                        p.modifiers.join("; ")
                    }
                );
            }
        } else if let Some(cmd) = choices.targets.get(&cell) {
            h = command_label(battle, cmd);
        } else if let Some(v) = battle
            .units()
            .into_iter()
            .find(|v| v.state.on_board() && v.cell == cell)
        {
            // Each condition with the rule that says what it does (the unit's
            // tooltip has the effects and durations).
            let conditions: Vec<String> = super::units_view::unit_badges(battle, &v)
                .iter()
                .filter(|b| !b.badge.rule.is_empty())
                .map(|b| format!("{} [{}]", b.name, b.badge.rule))
                .collect();
            h = format!(
                "{} ({}) at {cell}: HP {}/{}  {}",
                v.name,
                v.side,
                v.hp,
                v.max_hp,
                conditions.join(", ")
            );
            if !v.state.is_active() {
                h += &format!("  [{}]", v.state);
            }
            if let Some(r) = battle.rules().relation(battle.world(), u, v.id) {
                h += &format!("  |  {r}");
            }
        } else {
            let board = &world.resource::<crate::engine::battle::Map>().0;
            h = format!(
                "{cell}: {}",
                crate::engine::log::terrain_name(board.terrain(cell))
            );
        }
    }
    if let Some(words) = ui
        .hovered
        .and_then(|cell| super::overlays::threat_words(&threat, cell))
    {
        h += if h.is_empty() { "" } else { "  |  " };
        h += &words;
    }
    set(HudText::Hover, h, None);
}

/// What the chooser shows: the battle's version, the choices made, the hovered
/// target's cell, and whether it is shown at all.
type ChoiceBarKey = (
    u64,
    crate::engine::options::Chosen,
    Option<crate::engine::board::Cell>,
    bool,
);

/// The chooser of attack options: for each option the ruleset lets the player
/// choose, one button per choice, the chosen one lit, with the exact hit and
/// damage chances (and the first effect's) against the target under the pointer.
fn update_choice_bar(
    mut commands: Commands,
    game: Res<Game>,
    ui: Res<UiState>,
    choices: Res<Choices>,
    bar: Single<(Entity, &mut Node), With<ChoiceBar>>,
    mut shown: Local<Option<ChoiceBarKey>>,
) {
    let options = crate::engine::options::choosable(game.battle.rules());
    let visible = !options.is_empty() && choices.human && !choices.targets.is_empty();
    let hovered = ui.hovered.filter(|c| choices.targets.contains_key(c));
    let key = (game.version, ui.chosen.clone(), hovered, visible);
    if shown.as_ref() == Some(&key) {
        return;
    }
    *shown = Some(key);
    let (entity, mut node) = bar.into_inner();
    node.display = if visible {
        Display::Flex
    } else {
        Display::None
    };
    commands.entity(entity).despawn_children();
    if !visible {
        return;
    }
    let previews = match hovered.and_then(|c| choices.targets.get(&c)) {
        Some(Command::Attack {
            unit,
            target,
            power,
            ..
        }) => game
            .battle
            .choice_previews(*unit, *target, power.as_deref()),
        _ => Vec::new(),
    };
    commands.entity(entity).with_children(|p| {
        for (o, option) in options.iter().enumerate() {
            let how = if o == 0 { "[C] or click" } else { "click" };
            p.spawn((
                Text::new(format!("{}  {how}:", option.name)),
                font(14.0),
                TextColor(DIM),
            ));
            let lit = ui.chosen.index(option);
            for (i, choice) in option.choices().iter().enumerate() {
                let numbers = previews
                    .iter()
                    .find(|p| p.option == option.name && p.index == i)
                    .map(|p| {
                        let a = &p.preview.attack;
                        // The first effect by its name, less the choice's own label
                        // ("Slowing wound: ..." of Slowing: "13% wound").
                        let effect = p.preview.effects.first().map_or(String::new(), |(e, c)| {
                            let name = e.split(':').next().unwrap_or(e);
                            let name = name.strip_prefix(choice.label.as_str()).unwrap_or(name);
                            format!(", {:.0}% {}", c * 100.0, name.trim())
                        });
                        format!(
                            "  {:.0}% hit, {:.1} dmg{effect}",
                            a.chance * 100.0,
                            a.expected_damage
                        )
                    })
                    .unwrap_or_default();
                p.spawn((
                    Button,
                    ChoiceButton {
                        option: o,
                        choice: i,
                    },
                    Node {
                        padding: UiRect::axes(px(6), px(2)),
                        ..default()
                    },
                    BackgroundColor(if i == lit {
                        Color::srgb(0.55, 0.45, 0.12)
                    } else {
                        Color::srgb(0.16, 0.18, 0.23)
                    }),
                    children![(
                        Text::new(ascii(&format!("{}{numbers}", choice.label)).into_owned()),
                        font(12.0),
                        TextColor(TEXT)
                    )],
                ));
            }
        }
    });
}

/// Shows the decision prompt with one button per option.
fn update_prompt(
    mut commands: Commands,
    game: Res<Game>,
    choices: Res<Choices>,
    prompt: Single<(Entity, &mut Visibility), With<Prompt>>,
    mut shown: Local<u64>,
) {
    let (entity, mut vis) = prompt.into_inner();
    let decision = match game.battle.awaiting() {
        Awaiting::Decision(d) if choices.human => Some(d),
        _ => None,
    };
    vis.set_if_neq(if decision.is_some() {
        Visibility::Visible
    } else {
        Visibility::Hidden
    });
    if *shown == choices.key.0 {
        return;
    }
    *shown = choices.key.0;
    commands.entity(entity).despawn_children();
    let Some(d) = decision else { return };
    let title = &d.prompt;
    let side = d.side.0 as usize;
    commands.entity(entity).with_children(|p| {
        spawn_frame(p, 2.0, PROMPT_FRAME);
        p.spawn((
            Text::new(ascii(&format!("{}: {title}", side_label(&game, side)))),
            font(17.0),
            TextColor(side_color(side).lighter(0.25)),
        ));
        // The options side by side, wrapping: the prompt stays low and the map
        // (where the enemies stand) stays visible while deciding.
        p.spawn(Node {
            flex_direction: FlexDirection::Row,
            flex_wrap: FlexWrap::Wrap,
            column_gap: px(8),
            row_gap: px(8),
            ..default()
        })
        .with_children(|row| {
            for (i, cmd) in choices.other.iter().enumerate() {
                let key = if i < 9 {
                    format!("[{}] ", i + 1)
                } else {
                    String::new()
                };
                row.spawn((
                    Button,
                    PromptOption(i),
                    Node {
                        padding: UiRect::axes(px(10), px(6)),
                        ..default()
                    },
                    BackgroundColor(Color::srgb(0.18, 0.2, 0.26)),
                    children![(
                        Text::new(ascii(&format!("{key}{}", command_label(&game.battle, cmd)))),
                        font(15.0),
                        TextColor(TEXT)
                    )],
                ));
            }
        });
    });
}

/// Clicks on prompt and result buttons.
fn buttons(
    mut game: ResMut<Game>,
    mut ui: ResMut<UiState>,
    choices: Res<Choices>,
    options: Query<(&Interaction, &PromptOption), Changed<Interaction>>,
    results: Query<(&Interaction, &ResultButton), Changed<Interaction>>,
    chooser: Query<(&Interaction, &ChoiceButton), Changed<Interaction>>,
    mut leave: Leave,
) {
    for (interaction, b) in &chooser {
        if *interaction == Interaction::Pressed
            && let Some(option) = crate::engine::options::choosable(game.battle.rules())
                .get(b.option)
                .copied()
        {
            ui.chosen.choose(option, b.choice);
        }
    }
    for (interaction, opt) in &options {
        if *interaction == Interaction::Pressed
            && let Some(cmd) = choices.other.get(opt.0).cloned()
        {
            submit(&mut game, &mut ui, cmd);
            return;
        }
    }
    for (interaction, b) in &results {
        if *interaction == Interaction::Pressed {
            match b {
                ResultButton::Restart => {
                    let r = game.restart();
                    *ui = UiState::default();
                    if let Err(e) = r {
                        ui.message = Some((e, true));
                    }
                }
                ResultButton::Quit => leave.leave(),
            }
        }
    }
}

/// The result screen: winner, rounds, losses; restart and quit.
fn update_result(
    mut commands: Commands,
    game: Res<Game>,
    screen: Single<(Entity, &mut Visibility), With<ResultScreen>>,
    return_to: Res<ReturnTo>,
    mut shown: Local<u64>,
) {
    let (entity, mut vis) = screen.into_inner();
    let Awaiting::Over(winner) = game.battle.awaiting() else {
        vis.set_if_neq(Visibility::Hidden);
        return;
    };
    vis.set_if_neq(Visibility::Visible);
    if *shown == game.version {
        return;
    }
    *shown = game.version;
    commands.entity(entity).despawn_children();
    let battle = &game.battle;
    let title = match winner {
        Some(s) => format!("{} wins!", side_label(&game, s.0 as usize)),
        None => "Draw".to_string(),
    };
    let sides = &battle.world().resource::<Sides>().0;
    let units = battle.units();
    let mut lines = format!("After {} round(s)\n\nLosses:\n", battle.turn().round);
    for s in sides {
        let lost: Vec<String> = units
            .iter()
            .filter(|u| u.side == s.name && u.defeated)
            .map(|u| format!("{} {}", u.name, u.state))
            .collect();
        let total = units.iter().filter(|u| u.side == s.name).count();
        lines += &format!(
            "  {}: {}/{} {}\n",
            s.name,
            lost.len(),
            total,
            if lost.is_empty() {
                String::new()
            } else {
                format!("({})", lost.join(", "))
            }
        );
    }
    commands.entity(entity).with_children(|p| {
        p.spawn((Text::new(title), font(28.0), TextColor(Color::WHITE)));
        p.spawn((Text::new(ascii(&lines)), font(16.0), TextColor(TEXT)));
        for (label, b) in [
            ("[R] Restart", ResultButton::Restart),
            (
                match *return_to {
                    ReturnTo::Exit => "[Q] Quit",
                    ReturnTo::Setup => "[Q] Menu",
                    ReturnTo::Editor => "[Q] Back to the editor",
                },
                ResultButton::Quit,
            ),
        ] {
            p.spawn((
                Button,
                b,
                Node {
                    padding: UiRect::axes(px(12), px(8)),
                    ..default()
                },
                BackgroundColor(Color::srgb(0.18, 0.2, 0.26)),
                children![(Text::new(label), font(16.0), TextColor(TEXT))],
            ));
        }
    });
}

/// Keeps the panels' sizes in step with the window.
fn layout(
    window: Single<&Window>,
    scale: Res<UiScale>,
    mut nodes: Query<(&Panel, &mut Node)>,
    mut laid_out: Local<Option<(f32, f32, usize)>>,
) {
    // Again when the window or the UI scale changes, or panels appear.
    let key = (window.width(), scale.0, nodes.iter().len());
    if *laid_out == Some(key) {
        return;
    }
    *laid_out = Some(key);
    let (l, r, t, b) = panels(window.width() / scale.0);
    for (panel, mut node) in &mut nodes {
        match panel {
            Panel::Left => node.width = px(l),
            Panel::Right => node.width = px(r),
            Panel::Bottom => node.height = px(b),
            Panel::Prompt => {
                node.right = px(6.0);
                node.width = px(r - 12.0);
                node.top = px(t + 4.0);
            }
        }
    }
}

/// Registers the HUD.
pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Battle), spawn_hud);
    app.add_systems(
        Update,
        (
            layout,
            update_texts,
            update_prompt,
            update_choice_bar,
            update_result,
            buttons,
        )
            .run_if(in_state(Screen::Battle)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::load::load_file;

    fn game(level: &str) -> Game {
        let level = load_file(std::path::Path::new(level)).expect("a shipped level");
        Game::new(level, 7).expect("the battle starts")
    }

    #[test]
    fn symbols_the_font_lacks_are_spelled_in_ascii() {
        assert_eq!(ascii("plain text"), "plain text");
        assert_eq!(
            ascii("Escalation die 2 \u{b7} now"),
            "Escalation die 2, now"
        );
        assert_eq!(
            ascii("3d6 +5 vs AC 14 \u{b7} damage 2d8+3"),
            "3d6 +5 vs AC 14, damage 2d8+3"
        );
        assert_eq!(
            ascii("Dazed (save ends: 3d6 \u{2265} 11)"),
            "Dazed (save ends: 3d6 >= 11)"
        );
        assert_eq!(ascii("6 \u{2212} 4 \u{2192} 2"), "6 - 4 -> 2");
        assert!(ascii("a \u{2014} b \u{d7}2 \u{2026}").is_ascii());
    }

    /// The names of the units after the first `skip` of `battle`'s turn orders.
    fn names_after(battle: &crate::engine::Battle, skip: usize) -> Vec<String> {
        let orders = battle.turn_order();
        orders
            .iter()
            .flat_map(|(_, u)| u)
            .skip(skip)
            .map(|&u| battle.unit_name(u))
            .collect()
    }

    #[test]
    fn the_panel_names_the_next_units() {
        // E-16: after the unit to act (the Ranger, alone in the first group), the
        // next units of the bands (the strip shows them all).
        let g = game("levels/escalation_crossroads.ron");
        let text = orders_text(&g);
        let next = names_after(&g.battle, 1);
        assert!(next.len() > NEXT_NAMED, "{next:?}");
        assert!(!next.contains(&"Ranger".to_string()), "{next:?}");
        assert_eq!(
            text,
            format!(
                "Next: {}, +{}\n",
                next[..NEXT_NAMED].join(", "),
                next.len() - NEXT_NAMED
            )
        );
    }

    #[test]
    fn the_initiative_order_in_brief() {
        // F-02: the first of the initiative acts (the top bar names it); the next
        // two are named, the rest counted.
        let g = game("levels/flow_ogre_ford.ron");
        let text = orders_text(&g);
        let all = names_after(&g.battle, 0);
        assert_eq!(all.len(), 6, "{all:?}");
        assert_eq!(text, format!("Next: {}, +3\n", all[1..3].join(", ")));
    }
}
