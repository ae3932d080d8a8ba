//! End-to-end: the game in a real window (Xvfb + software Vulkan), driven by real
//! input through leafwing-input-manager — keyboard events, or the pointer (the X
//! pointer warped onto a cell) and mouse clicks — the pre-battle menu (a side's
//! decision policy changed, then Enter), a move and an attack — then a screenshot
//! checked for the map and both sides' units. The `escalation` case also checks what
//! the HUD says while an enemy is hovered: the attack preview (hit, expected
//! damage, the range band, crits), the Escalation die, the band-labelled turn order
//! and the special actions' keys. After the move and the attack, each case opens
//! the settings (F2), then turns the threat overlay on and off by its key (F3),
//! checking the shaded cells and the saved setting.

use std::path::PathBuf;

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::{MouseButtonInput, MouseScrollUnit, MouseWheel};
use bevy::input::touch::TouchPhase;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use skirmish::engine::battle::{Awaiting, Map, Sides, cell_of, side_of};
use skirmish::engine::board::Cell;
use skirmish::engine::event::Event;
use skirmish::engine::rulesets::actfast::events::ActfastEvent;
use skirmish::engine::rulesets::flow::events::FlowEvent;
use skirmish::engine::rulesets::phases::events::PhasesEvent;
use skirmish::engine::spec::Size;
use skirmish::engine::units::UnitId;
use skirmish::game::board_view::MapGeometry;
use skirmish::game::choices::{Choices, UiState, human_turn};
use skirmish::game::comfort::{Comfort, ComfortPanel};
use skirmish::game::hud::ChoiceButton;
use skirmish::game::layout::MainCamera;
use skirmish::game::log_view::{ExplainPanel, LogView};
use skirmish::game::overlays::ThreatTile;
use skirmish::game::screen::Screen;
use skirmish::game::theme::{HudText, PromptOption, ascii};
use skirmish::game::turn_strip::{
    ACTIVE, ASKED, HOVERED, Highlight, Lit, StripEntry, StripLabel, UnitHighlight,
};
use skirmish::game::unit_card::{Effect, EffectLine, ModeButton, MoreBelow, UnitCard};
use skirmish::game::units_view::{DamageGhost, TOKEN_RAISE, Token, token_outside_cell};
use skirmish::game::{Game, GameOptions};
use skirmish::level::schema::{Controller, DecisionPolicy};

/// Frames between the two screenshots of our first move's glide: the glide is timed
/// in seconds, so on a quick frame rate three frames saw the mover barely start.
const GLIDE_FRAMES: u32 = 10;

/// One end-to-end run: a level played by keys through the menu.
#[derive(Resource, Clone, Copy)]
struct Case {
    /// The level file.
    level: &'static str,
    /// The side the keys play.
    side: &'static str,
    /// Press Tab in the menu (the first side's decisions: ask → automatic) and check
    /// the battle got it.
    tab_in_menu: bool,
    /// Also wait for a reaction prompt and answer it by key.
    react: bool,
    /// Point at cells with the mouse and click them (else the keyboard cursor and
    /// Enter).
    mouse: bool,
    /// Before the first attack, with its target hovered: screenshot the screen
    /// (`-hover.png`) and check that the HUD shows each of these texts.
    hover_texts: &'static [&'static str],
    /// Where the screenshot goes.
    shot: &'static str,
    /// Make this choice of the ruleset's attack option by key (C) before the first
    /// attack, and check the attack roll says so (`wounds`' aim, W-17).
    choice: Option<Chosen>,
    /// While the first attack's target is hovered, the chooser of attack options
    /// shows one button per choice, starting with these labels, each with its odds
    /// against the target; none at all (no bar) when empty.
    chooser: &'static [&'static str],
    /// On our first turn, check the turn strip (one entry per unit of the turn
    /// orders, in order, side by side above the map), then hover an entry with the
    /// pointer (its unit is ringed on the map) and that unit on the map (its entry
    /// is outlined).
    strip: bool,
    /// On our first turn, with the pointer on the unit card (more actions than the
    /// panel holds), turn the wheel until the last action button is in view; the
    /// "more below" tag goes away there and the map's zoom stays.
    scroll_card: bool,
}

const CASES: [Case; 5] = [
    Case {
        level: "levels/ford.ron",
        side: "Blue",
        tab_in_menu: true,
        react: false,
        mouse: false,
        hover_texts: &[],
        shot: concat!(env!("CARGO_TARGET_TMPDIR"), "/e2e-window.png"),
        choice: None,
        chooser: &[],
        strip: true,
        scroll_card: false,
    },
    Case {
        level: "levels/flow_ogre_ford.ron",
        side: "Wardens",
        tab_in_menu: false,
        react: true,
        mouse: false,
        hover_texts: &[],
        shot: concat!(env!("CARGO_TARGET_TMPDIR"), "/e2e-window-flow.png"),
        choice: None,
        chooser: &[],
        strip: true,
        scroll_card: false,
    },
    // The Ranger (Fast) acts first; its Ranged stance reaches the goblins, so it
    // attacks by a click on one, then moves by a click on a cell.
    Case {
        level: "levels/escalation_crossroads.ron",
        side: "Heroes",
        tab_in_menu: false,
        react: false,
        mouse: true,
        hover_texts: &[
            // The attack preview: the basic ranged attack (E-08), its odds, crits
            // (E-04) and the target's range band (E-33, E-34).
            "Attack -> Goblin",
            "hit ",
            "expected damage",
            "crit on a natural 17+",
            " squares)",
            // The Escalation die (E-18) and the turn order by band (E-16).
            "Escalation die",
            "Medium PCs",
            "Medium enemies",
            // The action pools (E-21) and the special actions' keys: Stance (E-09),
            // Delay (E-19).
            "Standard: 1",
            "Move: 1",
            "Quick: 1",
            "key I",
            "key L",
        ],
        shot: concat!(env!("CARGO_TARGET_TMPDIR"), "/e2e-window-escalation.png"),
        choice: None,
        chooser: &[],
        strip: true,
        scroll_card: false,
    },
    // The Archer (Agility 3) acts first; its Shortbow reaches the bandits. It aims
    // at the legs by key (C, C: Slowing), then shoots by a click, then moves.
    Case {
        level: "levels/wounds_mill.ron",
        side: "Mercenaries",
        tab_in_menu: false,
        react: false,
        mouse: true,
        hover_texts: &[
            // The chosen aim's preview (W-17).
            "aim Slowing",
            "hit ",
            "expected damage",
            "wound: movement -2, Agility -1",
            "C: change aim",
            // The action pools (W-01) and Free Hit Slots (W-27).
            "AA: 1",
            "Free Hit Slots: 4",
            "Round 1",
        ],
        shot: concat!(env!("CARGO_TARGET_TMPDIR"), "/e2e-window-wounds.png"),
        choice: Some(Chosen {
            option: "aim",
            label: "Slowing",
            rolled: "aimed Slowing",
        }),
        // The places to aim at, each with its hit, damage and wound chances.
        chooser: &[
            "Fatal ",
            "Slowing ",
            "Weakening ",
            "Disrupting ",
            "Center Mass ",
        ],
        strip: false,
        scroll_card: true,
    },
    // Each round the Travellers choose by key how each acts (1: Act Fast, A-02);
    // the Sellsword, first to act, attacks the Thug 6 squares off by a click (the
    // attack moves in as part of it, A-13), then a traveller moves.
    Case {
        level: "levels/actfast_ambush.ron",
        side: "Travellers",
        tab_in_menu: false,
        react: true,
        mouse: true,
        hover_texts: &[
            // The preview: the exact distribution of the highest die and each
            // outcome's chance (A-08, A-GAP-03), expected damage after armor.
            "highest die: 1:",
            "miss ",
            "critical",
            "expected damage",
            // The round's steps and the turn's actions (A-GAP-02).
            "1. Act Fast",
            "2. Opponents",
            "Actions: 1",
            "Reactions: 1",
        ],
        shot: concat!(env!("CARGO_TARGET_TMPDIR"), "/e2e-window-actfast.png"),
        choice: None,
        chooser: &[],
        strip: false,
        scroll_card: false,
    },
];

/// A choice of an attack option made by key before the first attack.
#[derive(Clone, Copy)]
struct Chosen {
    /// The option (`aim`).
    option: &'static str,
    /// The choice's label (`Slowing`).
    label: &'static str,
    /// What the attack's roll says made with it (`aimed Slowing`).
    rolled: &'static str,
}

/// Whether the player has made `chosen` (the choice of its option is lit).
fn has_chosen(game: &Game, ui: &UiState, chosen: &Chosen) -> bool {
    skirmish::engine::options::choosable(game.battle.rules())
        .into_iter()
        .find(|o| o.name == chosen.option)
        .and_then(|o| o.choices().get(ui.chosen.index(o)).cloned())
        .is_some_and(|c| c.label == chosen.label)
}

/// What the driver has done and seen.
#[derive(Resource, Default)]
struct Drive {
    frame: u32,
    /// Key or button to release next frame.
    held: Option<Input>,
    cooldown: u32,
    moved: bool,
    attacked: bool,
    shot_at: Option<u32>,
    log_seen: usize,
    menu_keys: u32,
    checked_menu: bool,
    reacted: bool,
    /// A reaction prompt was on screen (screenshot it).
    prompt_shot: bool,
    /// The hovered attack was checked and screenshot.
    hover_checked: bool,
    /// Our first move: the frame it was seen and the cell it left (the glide is
    /// screenshot then and [`GLIDE_FRAMES`] frames later).
    glide: Option<(u32, Cell)>,
    /// Events already looked at for our first move.
    glide_seen: usize,
    /// The turn strip's check: 0 not yet, 1 an entry hovered, 2 its unit hovered on
    /// the map, 3 done; and the unit hovered.
    strip: u8,
    strip_unit: Option<UnitId>,
    /// The unit card's check (after the strip's): 0 not yet, 1 the pointer on a
    /// mode button, 2 clicked, 3 the pointer on an action button, 4 done; and the
    /// mode and the action's effect.
    card: u8,
    card_mode: Option<usize>,
    card_effect: String,
    /// Frames the first prompt has been up (its units' rings are checked after a few).
    prompt_frames: u32,
    /// Every token was seen inside its cell, bigger units' bigger.
    tokens_checked: bool,
    /// The card's wheel check: 0 not yet, 1 the pointer on the card and the wheel
    /// turning, 2 the last action in view, 3 done; the wheel's notches so far (at
    /// first, frames waited for the card) and the map's zoom before.
    scroll: u8,
    notches: u32,
    zoom: f32,
    /// Explaining a roll: 0 not yet, 1 `/` pressed, 2 checked and screenshot, 3
    /// closed; then the settings: 4 opened, 5 UI scale raised, 6 lowered, 7 closed.
    explain: u8,
}

/// One input the driver gives, like a player would.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Input {
    /// Press (and next frame release) a key.
    Key(KeyCode),
    /// Put the pointer over a cell.
    Point(Cell),
    /// Click the left mouse button where the pointer is.
    Click,
}

fn key(code: KeyCode) -> Key {
    match code {
        KeyCode::Enter => Key::Enter,
        KeyCode::Space => Key::Space,
        KeyCode::Tab => Key::Tab,
        _ => Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
    }
}

/// Sends `window` a press or release (`state`) of key `code`.
pub(crate) fn press(
    writer: &mut MessageWriter<KeyboardInput>,
    window: Entity,
    code: KeyCode,
    state: ButtonState,
) {
    writer.write(KeyboardInput {
        key_code: code,
        logical_key: key(code),
        state,
        text: None,
        repeat: false,
        window,
    });
}

/// Decides the next input from what is on screen, like a player would.
fn next_input(
    case: &Case,
    game: &Game,
    choices: &Choices,
    ui: &UiState,
    drive: &Drive,
) -> Option<Input> {
    let battle = &game.battle;
    if !human_turn(battle) {
        return Some(Input::Key(KeyCode::KeyX)); // fast-forward the AI
    }
    match battle.awaiting() {
        // The first reaction or choice.
        Awaiting::Decision(_) => Some(Input::Key(KeyCode::Digit1)),
        Awaiting::Unit(u, _) => {
            // Attack when an enemy is ringed, else move once (toward the enemy: the
            // reachable cell nearest to the first enemy), else end the turn.
            let board = &battle.world().resource::<Map>().0;
            let me = side_of(battle.world(), u);
            let enemy = battle
                .units()
                .into_iter()
                .find(|v| !v.defeated && battle.side_id(&v.side) != Some(me))
                .map(|v| v.cell);
            // An attack's target (not a targeted verb's: `wounds`' Delay rings
            // allies when no enemy is in reach).
            let target = choices
                .targets
                .iter()
                .find(|(_, c)| matches!(c, skirmish::engine::Command::Attack { .. }))
                .map(|(cell, _)| *cell);
            let goal: Option<Cell> = if !drive.attacked && target.is_some() {
                target
            } else if !drive.moved {
                choices
                    .moves
                    .keys()
                    .min_by_key(|c| enemy.map_or(0, |e| board.distance(**c, e)))
                    .copied()
            } else {
                None
            };
            let Some(goal) = goal else {
                return Some(Input::Key(KeyCode::Space));
            };
            // Make the choice before the attack, by key.
            if let Some(chosen) = &case.choice
                && !drive.attacked
                && choices.targets.contains_key(&goal)
                && !has_chosen(game, ui, chosen)
            {
                return Some(Input::Key(KeyCode::KeyC));
            }
            if case.mouse {
                return Some(if ui.hovered == Some(goal) {
                    Input::Click
                } else {
                    Input::Point(goal)
                });
            }
            let at = ui.cursor.unwrap_or_else(|| cell_of(battle.world(), u));
            if ui.cursor.is_none() {
                // The first cursor key starts the cursor at the unit.
                return Some(Input::Key(if goal.x >= at.x {
                    KeyCode::KeyD
                } else {
                    KeyCode::KeyA
                }));
            }
            Some(Input::Key(if at.x < goal.x {
                KeyCode::KeyD
            } else if at.x > goal.x {
                KeyCode::KeyA
            } else if at.y < goal.y {
                KeyCode::KeyS
            } else if at.y > goal.y {
                KeyCode::KeyW
            } else {
                KeyCode::Enter
            }))
        }
        Awaiting::Over(_) => None,
    }
}

/// Saves a screenshot of the window to `path` (without ending the run).
fn screenshot(commands: &mut Commands, path: PathBuf) {
    commands
        .spawn(bevy::render::view::screenshot::Screenshot::primary_window())
        .observe(
            move |shot: On<bevy::render::view::screenshot::ScreenshotCaptured>| {
                if let Ok(img) = shot.image.clone().try_into_dynamic() {
                    let _ = img.to_rgb8().save(&path);
                }
            },
        );
}

/// The HUD's texts and the turn strip's labels.
type HudTexts<'w, 's> = Query<'w, 's, &'static Text, Or<(With<HudText>, With<StripLabel>)>>;

/// The texts of `wanted` that no HUD text or strip label shows, and any character the HUD's
/// font (ASCII only) would draw as an empty box.
fn missing_texts(hud: &HudTexts, wanted: &[&str]) -> Vec<String> {
    let all: String = hud.iter().map(|t| format!("{}\n", t.0)).collect();
    wanted
        .iter()
        .filter(|w| !all.contains(**w))
        .map(|w| w.to_string())
        .chain(
            all.chars()
                .filter(|c| !c.is_ascii())
                .map(|c| format!("no glyph for {c:?}")),
        )
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn driver(
    case: Res<Case>,
    mut drive: ResMut<Drive>,
    screen: Res<State<Screen>>,
    game: Option<Res<Game>>,
    choices: Res<Choices>,
    ui: Res<UiState>,
    mut window: Single<(Entity, &mut Window), With<PrimaryWindow>>,
    pointer: Pointer,
    hud: HudTexts,
    mut keys: MessageWriter<KeyboardInput>,
    (mut mouse, mut wheel): (MessageWriter<MouseButtonInput>, MessageWriter<MouseWheel>),
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
    explained: Explained,
    strip: Strip,
    (card, tokens): (Card, Tokens),
) {
    drive.frame += 1;
    // Our first move, seen the frame it is made (before any input pacing below):
    // its glide is screenshot now and `GLIDE_FRAMES` frames later.
    if drive.glide.is_none()
        && let Some(game) = &game
    {
        let us = game.battle.side_id(case.side);
        let first = game.battle.events()[drive.glide_seen.min(game.battle.events().len())..]
            .iter()
            .find_map(|e| match e {
                Event::Moved { unit, from, .. }
                    if Some(side_of(game.battle.world(), *unit)) == us =>
                {
                    Some(*from)
                }
                _ => None,
            });
        drive.glide_seen = game.battle.events().len();
        if let Some(from) = first {
            drive.glide = Some((drive.frame, from));
            *GLIDE_FROM.lock().unwrap() = pointer.viewport_of(from);
            screenshot(&mut commands, glide_shot(&case, 1));
        }
    }
    if let Some((at, _)) = drive.glide
        && drive.frame == at + GLIDE_FRAMES
    {
        screenshot(&mut commands, glide_shot(&case, 2));
    }
    let window_id = window.0;
    match drive.held.take() {
        Some(Input::Key(k)) => {
            press(&mut keys, window_id, k, ButtonState::Released);
            drive.cooldown = 2;
            return;
        }
        Some(Input::Click) => {
            mouse.write(MouseButtonInput {
                button: MouseButton::Left,
                state: ButtonState::Released,
                window: window_id,
            });
            drive.cooldown = 2;
            return;
        }
        _ => {}
    }
    if drive.cooldown > 0 {
        drive.cooldown -= 1;
        return;
    }
    // The pre-battle menu: Tab makes Blue's decisions automatic, Enter starts.
    if *screen.get() == Screen::Setup {
        if drive.frame >= 20 {
            let k = if drive.menu_keys == 0 && case.tab_in_menu {
                KeyCode::Tab
            } else {
                KeyCode::Enter
            };
            drive.menu_keys += 1;
            press(&mut keys, window_id, k, ButtonState::Pressed);
            drive.held = Some(Input::Key(k));
        }
        return;
    }
    let Some(game) = game else {
        eprintln!("e2e: the battle started without a game");
        exit.write(AppExit::error());
        return;
    };
    if !drive.checked_menu && case.tab_in_menu {
        drive.checked_menu = true;
        let sides = &game.battle.world().resource::<Sides>().0;
        if sides[0].decisions != DecisionPolicy::Auto || sides[0].controller != Controller::Human {
            eprintln!(
                "e2e: the menu's choice did not reach the battle: {:?}",
                sides[0]
            );
            exit.write(AppExit::error());
            return;
        }
    }
    // Watch the log for a move, an attack and (if asked) a reaction of our side made
    // by our key presses.
    let world = game.battle.world();
    let us = game.battle.side_id(case.side).expect("the played side");
    for e in &game.battle.events()[drive.log_seen.min(game.battle.events().len())..] {
        if let Event::Moved { unit, .. } = e
            && side_of(world, *unit) == us
        {
            drive.moved = true;
        }
        if let Some(PhasesEvent::AttackRolled { attacker, .. }) = e.narration()
            && side_of(world, *attacker) == us
        {
            drive.attacked = true;
        }
        // `escalation` tells its attack rolls generically: a roll against a unit
        // (opportunity attacks are not ours to make by input).
        if let Event::Rolled {
            unit,
            against: Some(_),
            purpose,
            ..
        } = e
            && side_of(world, *unit) == us
            && !purpose.contains("opportunity attack")
            && !purpose.contains("free hit")
            && !purpose.contains("riposte")
        {
            if let Some(chosen) = &case.choice
                && !purpose.contains(chosen.rolled)
            {
                eprintln!(
                    "e2e: the attack was not made with {} {}: {purpose}",
                    chosen.option, chosen.label
                );
                exit.write(AppExit::error());
                return;
            }
            drive.attacked = true;
        }
        match e.narration() {
            Some(FlowEvent::SkillChecked { unit, purpose, .. })
                if side_of(world, *unit) == us && purpose.starts_with("attack") =>
            {
                drive.attacked = true
            }
            Some(FlowEvent::Reacted { unit, .. }) if side_of(world, *unit) == us => {
                drive.reacted = true
            }
            _ => {}
        }
        // `actfast`: the round's choice, answered by key.
        if let Some(ActfastEvent::PaceChosen { unit, .. }) = e.narration()
            && side_of(world, *unit) == us
        {
            drive.reacted = true;
        }
    }
    drive.log_seen = game.battle.events().len();
    // Keep a picture of the first reaction prompt, once the units it asks about are
    // ringed on the map.
    if case.react
        && !drive.prompt_shot
        && human_turn(&game.battle)
        && let Awaiting::Decision(d) = game.battle.awaiting()
    {
        drive.prompt_frames += 1;
        if drive.prompt_frames < 5 {
            return;
        }
        if let Err(e) = strip.asked_ringed(&d) {
            eprintln!("e2e: prompt {:?}: {e}", d.prompt);
            exit.write(AppExit::error());
            return;
        }
        drive.prompt_shot = true;
        screenshot(
            &mut commands,
            PathBuf::from(case.shot.replace(".png", "-prompt.png")),
        );
        drive.cooldown = 10;
        return;
    }
    // Every marker's token inside its cell, a Large unit's bigger than a Medium's
    // (checked once the markers stand still on our first turn).
    if !drive.tokens_checked
        && drive.frame >= 20
        && human_turn(&game.battle)
        && matches!(game.battle.awaiting(), Awaiting::Unit(..))
        && !drive.moved
    {
        match tokens.fill_their_cells(&game) {
            Ok(true) => drive.tokens_checked = true,
            Ok(false) => return,
            Err(e) => {
                eprintln!("e2e: unit tokens on {}: {e}", case.level);
                exit.write(AppExit::error());
                return;
            }
        }
    }
    // The turn strip, on our first turn before we act: its entries, then an entry
    // hovered by the pointer, then its unit hovered on the map.
    if case.strip
        && drive.strip < 3
        && drive.frame >= 20
        && human_turn(&game.battle)
        && matches!(game.battle.awaiting(), Awaiting::Unit(..))
        && !drive.moved
        && !drive.attacked
    {
        let win = Vec2::new(window.1.width(), window.1.height());
        let scale = window.1.scale_factor();
        let step = match drive.strip {
            0 => strip.entries_in_order(&game, win, scale).map(|(unit, at)| {
                drive.strip_unit = Some(unit);
                Some(at)
            }),
            1 => strip
                .entry_hovered(drive.strip_unit.expect("the hovered entry's unit"))
                .and_then(|u| {
                    pointer
                        .viewport_of(cell_of(game.battle.world(), u))
                        .ok_or_else(|| format!("unit {u:?} is not on screen"))
                        .map(Some)
                }),
            // Then the pointer leaves for the top bar (the keys play on).
            _ => strip
                .unit_hovered(drive.strip_unit.expect("the hovered unit"), scale)
                .map(|()| Some(Vec2::new(win.x / 2.0, 8.0))),
        };
        if drive.strip == 1 {
            // The hovered entry named under it, its unit ringed.
            screenshot(
                &mut commands,
                PathBuf::from(case.shot.replace(".png", "-strip.png")),
            );
        }
        match step {
            Ok(at) => {
                window.1.set_cursor_position(at);
                drive.strip += 1;
                drive.cooldown = 5;
            }
            Err(e) => {
                eprintln!("e2e: turn strip on {}: {e}", case.level);
                exit.write(AppExit::error());
            }
        }
        return;
    }
    // The unit card, on our first turn once the strip is checked: a click on a mode
    // button selects that mode; the pointer on an action button shows its effect
    // over the card's top; every action button fits in the left panel.
    if case.strip
        && drive.card < 4
        && drive.strip >= 3
        && human_turn(&game.battle)
        && matches!(game.battle.awaiting(), Awaiting::Unit(..))
        && !drive.moved
        && !drive.attacked
    {
        let scale = window.1.scale_factor();
        let step: Result<Option<Vec2>, String> = match drive.card {
            0 => card
                .modes
                .iter()
                .find(|(m, _, _)| m.0 != choices.selected)
                .map(|(m, _, at)| {
                    drive.card_mode = Some(m.0);
                    Some(at.translation / scale)
                })
                .ok_or_else(|| {
                    format!(
                        "the card shows no mode button besides the selected {} (modes {:?})",
                        choices.selected,
                        choices.powers.iter().map(|m| &m.label).collect::<Vec<_>>()
                    )
                }),
            1 => {
                mouse.write(MouseButtonInput {
                    button: MouseButton::Left,
                    state: ButtonState::Pressed,
                    window: window_id,
                });
                drive.held = Some(Input::Click);
                drive.card = 2;
                return;
            }
            2 if Some(choices.selected) != drive.card_mode => Err(format!(
                "a click on mode button {:?} left mode {} selected",
                drive.card_mode, choices.selected
            )),
            2 if let Some(e) =
                card.cut_off(Vec2::new(window.1.width(), window.1.height()), scale) =>
            {
                Err(e)
            }
            2 => card
                .actions
                .iter()
                .next()
                .map(|(effect, _, at)| {
                    drive.card_effect = effect.0.clone();
                    Some(at.translation / scale)
                })
                .ok_or_else(|| "the card shows no action button".to_string()),
            _ => {
                let line = card
                    .effect_line
                    .iter()
                    .next()
                    .filter(|(_, v)| **v != Visibility::Hidden)
                    .map(|(t, _)| t.0.clone());
                if drive.card_effect.is_empty()
                    || line.as_deref() != Some(ascii(&drive.card_effect).as_ref())
                {
                    Err(format!(
                        "with the pointer on an action button the card's effect line says {line:?}, want {:?}",
                        drive.card_effect
                    ))
                } else {
                    screenshot(
                        &mut commands,
                        PathBuf::from(case.shot.replace(".png", "-card.png")),
                    );
                    let win = window.1.width();
                    Ok(Some(Vec2::new(win / 2.0, 8.0)))
                }
            }
        };
        match step {
            Ok(at) => {
                if at.is_some() {
                    window.1.set_cursor_position(at);
                }
                drive.card += 1;
                drive.cooldown = 5;
            }
            Err(e) => {
                eprintln!("e2e: unit card on {}: {e}", case.level);
                exit.write(AppExit::error());
            }
        }
        return;
    }
    // The card's wheel: with the pointer on the card, each notch scrolls it until
    // its last action button is in view.
    if case.scroll_card
        && drive.scroll < 3
        && drive.frame >= 20
        && human_turn(&game.battle)
        && matches!(game.battle.awaiting(), Awaiting::Unit(..))
        && !drive.moved
        && !drive.attacked
    {
        let scale = window.1.scale_factor();
        let step: Result<(), String> = card.scrolled(scale).and_then(|(view, last, more)| {
            let in_view = last.min.y >= view.min.y - 0.5 && last.max.y <= view.max.y + 0.5;
            match drive.scroll {
                0 if in_view => Err(format!(
                    "the card shows its last action at {last:?} inside its view {view:?}: \
                     nothing to scroll"
                )),
                // The card was just built: give the tag a few frames to show.
                0 if !more && drive.notches < 10 => {
                    drive.notches += 1;
                    Ok(())
                }
                0 if !more => Err(format!(
                    "the card has more below (its last action at {last:?}, its view \
                     {view:?}) but no tag says so"
                )),
                0 => {
                    drive.zoom = card.zoom();
                    window.1.set_cursor_position(Some(view.center()));
                    drive.scroll = 1;
                    drive.notches = 0;
                    Ok(())
                }
                1 if in_view => {
                    drive.scroll = 2;
                    Ok(())
                }
                1 if drive.notches >= 40 => Err(format!(
                    "40 notches of the wheel over the card left its last action at \
                     {last:?}, outside its view {view:?}"
                )),
                1 => {
                    wheel.write(MouseWheel {
                        unit: MouseScrollUnit::Line,
                        x: 0.0,
                        y: -1.0,
                        window: window_id,
                        phase: TouchPhase::Moved,
                    });
                    drive.notches += 1;
                    Ok(())
                }
                _ if more => Err(format!(
                    "at the card's foot (last action at {last:?}, view {view:?}) the \
                     \"more below\" tag still shows"
                )),
                _ if card.zoom() != drive.zoom => Err(format!(
                    "the wheel over the card zoomed the map ({} -> {})",
                    drive.zoom,
                    card.zoom()
                )),
                _ => {
                    eprintln!(
                        "e2e: the card scrolled to its last action in {} notches",
                        drive.notches
                    );
                    screenshot(
                        &mut commands,
                        PathBuf::from(case.shot.replace(".png", "-scroll.png")),
                    );
                    let win = window.1.width();
                    window
                        .1
                        .set_cursor_position(Some(Vec2::new(win / 2.0, 8.0)));
                    drive.scroll = 3;
                    Ok(())
                }
            }
        });
        if let Err(e) = step {
            eprintln!("e2e: the card's wheel on {}: {e}", case.level);
            exit.write(AppExit::error());
        }
        drive.cooldown = 3;
        return;
    }
    if drive.moved && drive.attacked && (drive.reacted || !case.react) {
        // Explain a roll (issue 17): `/` opens the newest roll of the log in the
        // panel, with its dice; screenshot it, then Esc closes it.
        match drive.explain {
            0 | 2 => {
                let k = if drive.explain == 0 {
                    KeyCode::Slash
                } else {
                    KeyCode::Escape
                };
                press(&mut keys, window_id, k, ButtonState::Pressed);
                drive.held = Some(Input::Key(k));
                drive.explain += 1;
                drive.cooldown = 8;
                return;
            }
            1 => {
                if let Err(e) = explained.check() {
                    eprintln!("e2e: explain a roll: {e}");
                    exit.write(AppExit::error());
                    return;
                }
                screenshot(
                    &mut commands,
                    PathBuf::from(case.shot.replace(".png", "-explain.png")),
                );
                drive.explain = 2;
                drive.cooldown = 4;
                return;
            }
            3 if explained.panel_shown() => {
                eprintln!("e2e: Esc did not close the roll's explanation");
                exit.write(AppExit::error());
                return;
            }
            // The settings (issue 17): F2 opens them; D raises the UI scale, which is
            // saved at once; A lowers it back; F2 closes.
            3..=6 => {
                let step = drive.explain;
                let check = match step {
                    4 => explained.settings_shown(),
                    5 => explained.saved_scale(1.25),
                    6 => explained.saved_scale(1.0),
                    _ => Ok(()),
                };
                if let Err(e) = check {
                    eprintln!("e2e: settings: {e}");
                    exit.write(AppExit::error());
                    return;
                }
                if step == 4 {
                    screenshot(
                        &mut commands,
                        PathBuf::from(case.shot.replace(".png", "-settings.png")),
                    );
                }
                let k = match step {
                    4 => KeyCode::KeyD,
                    5 => KeyCode::KeyA,
                    _ => KeyCode::F2,
                };
                press(&mut keys, window_id, k, ButtonState::Pressed);
                drive.held = Some(Input::Key(k));
                drive.explain += 1;
                drive.cooldown = 8;
                return;
            }
            // The threat overlay (issue 33): F3 shades the cells the enemies can
            // attack next turn, the setting follows (and is saved); F3 again clears it.
            7..=9 => {
                let step = drive.explain;
                let check = match step {
                    7 if explained.comfort_panel.open => {
                        Err("F2 did not close the settings".into())
                    }
                    8 => explained.threat_shown(true),
                    9 => explained.threat_shown(false),
                    _ => Ok(()),
                };
                if let Err(e) = check {
                    eprintln!("e2e: {e}");
                    exit.write(AppExit::error());
                    return;
                }
                if step == 9 {
                    drive.explain += 1;
                    return;
                }
                if step == 8 {
                    screenshot(
                        &mut commands,
                        PathBuf::from(case.shot.replace(".png", "-threat.png")),
                    );
                }
                press(&mut keys, window_id, KeyCode::F3, ButtonState::Pressed);
                drive.held = Some(Input::Key(KeyCode::F3));
                drive.explain += 1;
                drive.cooldown = 8;
                return;
            }
            _ => {}
        }
        let frame = drive.frame;
        let at = *drive.shot_at.get_or_insert(frame);
        if drive.frame == at + 5 {
            let path = PathBuf::from(case.shot);
            commands
                .spawn(bevy::render::view::screenshot::Screenshot::primary_window())
                .observe(
                    move |shot: On<bevy::render::view::screenshot::ScreenshotCaptured>,
                          mut exit: MessageWriter<AppExit>| {
                        let img = shot
                            .image
                            .clone()
                            .try_into_dynamic()
                            .expect("screenshot image");
                        img.to_rgb8().save(&path).expect("save screenshot");
                        exit.write(AppExit::Success);
                    },
                );
        }
        return;
    }
    if drive.frame > 6000 {
        eprintln!(
            "e2e: gave up after {} frames on {} (moved {}, attacked {}, reacted {})",
            drive.frame, case.level, drive.moved, drive.attacked, drive.reacted
        );
        exit.write(AppExit::error());
        return;
    }
    if drive.frame < 20 {
        return;
    }
    let Some(input) = next_input(&case, &game, &choices, &ui, &drive) else {
        return;
    };
    match input {
        Input::Key(k) => {
            press(&mut keys, window_id, k, ButtonState::Pressed);
            drive.held = Some(input);
        }
        Input::Point(cell) => {
            // Warp the X pointer onto the cell: the window learns of it as of a
            // hand on the mouse.
            let Some(at) = pointer.viewport_of(cell) else {
                eprintln!("e2e: cell {cell} is not on screen");
                exit.write(AppExit::error());
                return;
            };
            window.1.set_cursor_position(Some(at));
            drive.cooldown = 3;
        }
        Input::Click => {
            // A click on an attack target: first check what the HUD says about it.
            if !drive.hover_checked
                && !case.hover_texts.is_empty()
                && ui.hovered.is_some_and(|c| choices.targets.contains_key(&c))
            {
                drive.hover_checked = true;
                let missing = missing_texts(&hud, case.hover_texts);
                if !missing.is_empty() {
                    let shown: Vec<String> = hud.iter().map(|t| t.0.clone()).collect();
                    eprintln!(
                        "e2e: the HUD does not show {missing:?} while an enemy is hovered; it shows:\n{}",
                        shown.join("\n---\n")
                    );
                    exit.write(AppExit::error());
                    return;
                }
                // The chooser: a button per choice with its odds, or no bar.
                if let Err(e) = explained.chooser_shows(case.chooser) {
                    eprintln!("e2e: the attack options' chooser: {e}");
                    exit.write(AppExit::error());
                    return;
                }
                // The target's health bar shows the attack's expected damage.
                if explained.ghost.is_empty() {
                    eprintln!("e2e: the hovered target's health bar shows no damage ghost");
                    exit.write(AppExit::error());
                    return;
                }
                screenshot(
                    &mut commands,
                    PathBuf::from(case.shot.replace(".png", "-hover.png")),
                );
                drive.cooldown = 10;
                return;
            }
            mouse.write(MouseButtonInput {
                button: MouseButton::Left,
                state: ButtonState::Pressed,
                window: window_id,
            });
            drive.held = Some(input);
        }
    }
}

/// The roll explanation panel and what it explains.
#[derive(bevy::ecs::system::SystemParam)]
struct Explained<'w, 's> {
    view: Res<'w, LogView>,
    panel: Query<'w, 's, (&'static Visibility, Option<&'static Children>), With<ExplainPanel>>,
    texts: Query<'w, 's, &'static Text>,
    children: Query<'w, 's, &'static Children>,
    comfort_panel: Res<'w, ComfortPanel>,
    comfort: Res<'w, Comfort>,
    threat: Query<'w, 's, (), With<ThreatTile>>,
    ghost: Query<'w, 's, (), With<DamageGhost>>,
    chooser: Query<'w, 's, (&'static ChoiceButton, &'static Children)>,
}

impl Explained<'_, '_> {
    /// The chooser of attack options shows a button per choice, labelled in order
    /// with `labels` and the choice's odds ("Slowing  41% hit, 2.6 dmg, 12%
    /// Slowing wound"); none when `labels` is empty.
    fn chooser_shows(&self, labels: &[&str]) -> Result<(), String> {
        let mut buttons: Vec<(usize, usize, String)> = self
            .chooser
            .iter()
            .map(|(b, children)| {
                let text = children
                    .iter()
                    .filter_map(|c| self.texts.get(c).ok())
                    .map(|t| t.0.clone())
                    .collect::<String>();
                (b.option, b.choice, text)
            })
            .collect();
        buttons.sort();
        let shown: Vec<&str> = buttons.iter().map(|(_, _, t)| t.as_str()).collect();
        let fits = shown.len() == labels.len()
            && shown
                .iter()
                .zip(labels)
                .all(|(t, l)| t.starts_with(l) && t.contains("% hit"));
        if fits {
            Ok(())
        } else {
            Err(format!(
                "it shows {shown:?}; want {labels:?}, each with its odds"
            ))
        }
    }

    /// The threat overlay is on (tiles on the map, the setting saved) or off.
    fn threat_shown(&self, on: bool) -> Result<(), String> {
        if self.comfort.threat_overlay != on {
            return Err(format!(
                "F3 did not turn the threat overlay {}",
                if on { "on" } else { "off" }
            ));
        }
        if on && self.threat.is_empty() {
            return Err("the threat overlay is on but shades no cell".into());
        }
        let path = skirmish::game::comfort::path().ok_or("no settings path")?;
        let saved = skirmish::game::comfort::load(&path)?;
        if saved.threat_overlay != on {
            return Err(format!(
                "{} says threat overlay {}",
                path.display(),
                saved.threat_overlay
            ));
        }
        Ok(())
    }

    /// The settings panel is open and lists its rows.
    fn settings_shown(&self) -> Result<(), String> {
        let shown: Vec<&str> = self.texts.iter().map(|t| t.0.as_str()).collect();
        for wanted in ["Settings", "UI scale", "Colour palette", "< 100% >"] {
            if !shown.iter().any(|t| t.contains(wanted)) {
                return Err(format!("the panel does not show {wanted:?}"));
            }
        }
        if self.comfort_panel.open {
            Ok(())
        } else {
            Err("F2 did not open the settings".into())
        }
    }

    /// The UI scale is `scale` and the settings file says so.
    fn saved_scale(&self, scale: f32) -> Result<(), String> {
        if self.comfort.ui_scale != scale {
            return Err(format!(
                "UI scale {} instead of {scale}",
                self.comfort.ui_scale
            ));
        }
        let path = skirmish::game::comfort::path().ok_or("no settings path")?;
        let saved = skirmish::game::comfort::load(&path)?;
        if saved.ui_scale != scale {
            return Err(format!(
                "{} says UI scale {}",
                path.display(),
                saved.ui_scale
            ));
        }
        Ok(())
    }

    fn panel_shown(&self) -> bool {
        self.panel.iter().any(|(v, _)| *v != Visibility::Hidden)
    }

    /// A roll is selected and the panel shows its title, dice and result.
    fn check(&self) -> Result<(), String> {
        if self.view.selected.is_none() {
            return Err("`/` selected no roll".into());
        }
        let (visibility, children) = self.panel.single().map_err(|e| e.to_string())?;
        if *visibility == Visibility::Hidden {
            return Err("the panel is hidden".into());
        }
        // Every text under the panel, depth first.
        let mut texts = Vec::new();
        let mut stack: Vec<Entity> = children.map(|c| c.to_vec()).unwrap_or_default();
        while let Some(e) = stack.pop() {
            if let Ok(t) = self.texts.get(e) {
                texts.push(t.0.clone());
            }
            if let Ok(c) = self.children.get(e) {
                stack.extend(c.iter());
            }
        }
        let dice = texts.iter().filter(|t| t.parse::<u32>().is_ok()).count();
        if dice == 0
            || !texts
                .iter()
                .any(|t| t.contains("->") || t.starts_with("Rules"))
        {
            return Err(format!("the panel shows no dice or result: {texts:?}"));
        }
        eprintln!(
            "e2e: explained a roll with {dice} dice: {}",
            texts.join(" | ")
        );
        Ok(())
    }
}

/// The unit card's buttons (their centres in physical pixels) and its foot line.
#[derive(bevy::ecs::system::SystemParam)]
struct Card<'w, 's> {
    modes: Query<
        'w,
        's,
        (
            &'static ModeButton,
            &'static ComputedNode,
            &'static UiGlobalTransform,
        ),
    >,
    actions: Query<
        'w,
        's,
        (
            &'static Effect,
            &'static ComputedNode,
            &'static UiGlobalTransform,
        ),
        With<PromptOption>,
    >,
    effect_line: Query<'w, 's, (&'static Text, &'static Visibility), With<EffectLine>>,
    view: Query<'w, 's, (&'static ComputedNode, &'static UiGlobalTransform), With<UnitCard>>,
    more: Query<'w, 's, &'static InheritedVisibility, With<MoreBelow>>,
    projection: Query<'w, 's, &'static Projection, With<MainCamera>>,
}

impl Card<'_, '_> {
    /// The card's view (the part of the panel it shows), its last action button
    /// (lowest on screen; both in logical pixels) and whether the "more below" tag
    /// shows.
    fn scrolled(&self, scale: f32) -> Result<(Rect, Rect, bool), String> {
        let rect = |node: &ComputedNode, at: &UiGlobalTransform| {
            Rect::from_center_size(at.translation / scale, node.size() / scale)
        };
        let view = self
            .view
            .single()
            .map(|(node, at)| rect(node, at))
            .map_err(|e| format!("no unit card: {e}"))?;
        let last = self
            .actions
            .iter()
            .map(|(_, node, at)| rect(node, at))
            .max_by(|a, b| a.max.y.total_cmp(&b.max.y))
            .ok_or("the card shows no action button")?;
        let more = self.more.iter().any(|v| v.get());
        Ok((view, last, more))
    }

    /// The battle camera's zoom.
    fn zoom(&self) -> f32 {
        match self.projection.single() {
            Ok(Projection::Orthographic(o)) => o.scale,
            _ => 0.0,
        }
    }

    /// An action button the left panel cuts off (below the panel's foot, over the
    /// bottom bar), if any.
    fn cut_off(&self, win: Vec2, scale: f32) -> Option<String> {
        let (_, _, _, bottom) = skirmish::game::layout::battle_panels_px(win.x);
        self.actions.iter().find_map(|(effect, node, at)| {
            let foot = (at.translation.y + node.size().y / 2.0) / scale;
            (foot > win.y - bottom).then(|| {
                format!(
                    "the action button of {:?} ends at y {foot}, below the left panel (foot {})",
                    effect.0,
                    win.y - bottom
                )
            })
        })
    }
}

/// The turn strip's entries and labels, and the rings on the map.
#[derive(bevy::ecs::system::SystemParam)]
struct Strip<'w, 's> {
    entries: Query<
        'w,
        's,
        (
            &'static StripEntry,
            &'static ComputedNode,
            &'static UiGlobalTransform,
            &'static BorderColor,
        ),
    >,
    labels: Query<'w, 's, &'static Text, With<StripLabel>>,
    rings: Query<'w, 's, (&'static UnitHighlight, &'static Sprite, &'static ChildOf)>,
    markers: Query<'w, 's, &'static skirmish::game::units_view::MarkerOf>,
    lit: Res<'w, Lit>,
}

impl Strip<'_, '_> {
    /// The entries in their order on screen, with their rectangles in logical pixels
    /// (`scale`: the window's scale factor).
    fn placed(&self, scale: f32) -> Vec<(StripEntry, Rect, Color)> {
        let mut placed: Vec<(StripEntry, Rect, Color)> = self
            .entries
            .iter()
            .map(|(e, node, at, border)| {
                let rect = Rect::from_center_size(at.translation / scale, node.size() / scale);
                (*e, rect, border.top)
            })
            .collect();
        placed.sort_by_key(|(e, _, _)| e.place);
        placed
    }

    /// The strip lists the ruleset's turn orders entry by entry in order (every unit
    /// in play at least once), side by side from left to right above the map,
    /// under their labels, the unit to act outlined; returns an entry to hover (an
    /// enemy's, not the unit to act) and where it is.
    fn entries_in_order(
        &self,
        game: &Game,
        win: Vec2,
        scale: f32,
    ) -> Result<(UnitId, Vec2), String> {
        let battle = &game.battle;
        let orders = battle.turn_order();
        let mut expected: Vec<UnitId> = orders.iter().flat_map(|(_, u)| u.clone()).collect();
        let views = battle.units();
        let out: Vec<UnitId> = views
            .iter()
            .filter(|v| v.defeated && !expected.contains(&v.id))
            .map(|v| v.id)
            .collect();
        expected.extend(out);
        let placed = self.placed(scale);
        let shown: Vec<UnitId> = placed.iter().map(|(e, _, _)| e.unit).collect();
        if shown != expected {
            return Err(format!(
                "entries {shown:?}, the turn orders {orders:?} (then the units out of the fight)"
            ));
        }
        for v in views.iter().filter(|v| !v.defeated) {
            if !shown.contains(&v.id) {
                return Err(format!("{} is in play but has no entry", v.name));
            }
        }
        // Above the map, between the left panel and the log's column.
        let (left, right, top, _) = skirmish::game::layout::battle_panels_px(win.x);
        for pair in placed.windows(2) {
            let ((a, ra, _), (b, rb, _)) = (&pair[0], &pair[1]);
            if rb.min.x < ra.max.x - 0.5 {
                return Err(format!(
                    "entry {b:?} at {rb:?} overlaps or precedes {a:?} at {ra:?}"
                ));
            }
        }
        for (e, r, _) in &placed {
            if r.min.x < left || r.max.x > win.x - right || r.min.y < 0.0 || r.max.y > top {
                return Err(format!(
                    "entry {e:?} at {r:?} is outside the strip ({left}..{}, 0..{top})",
                    win.x - right
                ));
            }
        }
        let labels: Vec<&str> = self.labels.iter().map(|t| t.0.as_str()).collect();
        for (label, units) in &orders {
            if !units.is_empty() && !labels.contains(&label.as_str()) {
                return Err(format!("no label {label:?} among {labels:?}"));
            }
        }
        let active = battle.turn().active.ok_or("nobody to act")?;
        if !placed
            .iter()
            .any(|(e, _, c)| e.unit == active && *c == ACTIVE)
        {
            return Err(format!("the unit to act, {active:?}, is not outlined"));
        }
        let us = side_of(battle.world(), active);
        let (e, r, _) = placed
            .iter()
            .find(|(e, _, _)| !e.out && e.unit != active && side_of(battle.world(), e.unit) != us)
            .ok_or("no enemy entry to hover")?;
        eprintln!(
            "e2e: turn strip: {} entries under {labels:?}; hovering {:?} at {:?}",
            placed.len(),
            e.unit,
            r.center()
        );
        Ok((e.unit, r.center()))
    }

    /// With the pointer on `unit`'s entry, that unit (and only it) is ringed white
    /// on the map, under its marker.
    fn entry_hovered(&self, unit: UnitId) -> Result<UnitId, String> {
        if self.lit.strip != Some(unit) {
            return Err(format!(
                "the pointer is on {unit:?}'s entry, the strip says {:?}",
                self.lit.strip
            ));
        }
        let hovered: Vec<(UnitHighlight, Color, Option<UnitId>)> = self
            .rings
            .iter()
            .filter(|(h, _, _)| h.kind == Highlight::Hovered)
            .map(|(h, s, parent)| {
                (
                    *h,
                    s.color,
                    self.markers.get(parent.parent()).ok().map(|m| m.0),
                )
            })
            .collect();
        match hovered.as_slice() {
            [(h, color, marker)]
                if h.unit == unit && *color == HOVERED && *marker == Some(unit) =>
            {
                Ok(unit)
            }
            _ => Err(format!(
                "hovering {unit:?}'s entry rings {hovered:?} on the map (want one {HOVERED:?} ring under its marker)"
            )),
        }
    }

    /// With the pointer on `unit` on the map, its entries are outlined white, and
    /// the ring of the strip's hover is gone.
    fn unit_hovered(&self, unit: UnitId, scale: f32) -> Result<(), String> {
        let placed = self.placed(scale);
        let outlines: Vec<Color> = placed
            .iter()
            .filter(|(e, _, _)| e.unit == unit)
            .map(|(_, _, c)| *c)
            .collect();
        if outlines.is_empty() || outlines.iter().any(|c| *c != HOVERED) {
            return Err(format!(
                "with {unit:?} hovered on the map its entries are outlined {outlines:?}"
            ));
        }
        if self
            .rings
            .iter()
            .any(|(h, _, _)| h.kind == Highlight::Hovered)
        {
            return Err("the pointer left the strip but a unit is still ringed as hovered".into());
        }
        Ok(())
    }

    /// Every unit the decision's options name is ringed cyan on the map.
    fn asked_ringed(&self, d: &skirmish::engine::decision::PendingDecision) -> Result<(), String> {
        use skirmish::engine::Command;
        let mut asked: Vec<UnitId> = d
            .options
            .iter()
            .flat_map(|o| match &o.command {
                Command::Answer { args, .. } => args.units().collect(),
                c => c.unit().into_iter().collect::<Vec<_>>(),
            })
            .collect();
        asked.sort();
        asked.dedup();
        if asked.is_empty() {
            return Err("the options name no unit".into());
        }
        let rings: Vec<(UnitId, Color)> = self
            .rings
            .iter()
            .filter(|(h, _, _)| h.kind == Highlight::Asked)
            .map(|(h, s, _)| (h.unit, s.color))
            .collect();
        for u in &asked {
            if !rings.contains(&(*u, ASKED)) {
                return Err(format!(
                    "{u:?}, named by an option, is not ringed {ASKED:?}: rings {rings:?}"
                ));
            }
        }
        eprintln!("e2e: the prompt rings {asked:?}");
        Ok(())
    }
}

/// The units' tokens on the map, as drawn.
#[derive(bevy::ecs::system::SystemParam)]
struct Tokens<'w, 's> {
    tokens: Query<'w, 's, (&'static Token, &'static Sprite, &'static GlobalTransform)>,
    images: Res<'w, Assets<Image>>,
    geo: Option<Res<'w, MapGeometry>>,
}

impl Tokens<'_, '_> {
    /// Every unit's token, as drawn (its image at its size and place), lies inside
    /// its cell, and a bigger unit's is drawn at least a tenth wider than a smaller
    /// one's; a Large or Huge unit's spans three quarters of its cell or more (it
    /// fills its one-cell footprint). `Ok(false)` while a marker is still gliding.
    fn fill_their_cells(&self, game: &Game) -> Result<bool, String> {
        let geo = self.geo.as_ref().ok_or("no map geometry")?;
        let width = geo.cell_size().min_element();
        let views = game.battle.units();
        let mut drawn: Vec<(Size, f32, String)> = Vec::new();
        for (token, sprite, at) in &self.tokens {
            let v = views
                .iter()
                .find(|v| v.id == token.0)
                .ok_or_else(|| format!("a token of unit {:?}, not in the battle", token.0))?;
            let centre = at.translation().truncate();
            if centre.distance(geo.center(v.cell) + Vec2::Y * TOKEN_RAISE) > 0.5 {
                return Ok(false);
            }
            let side = sprite.custom_size.ok_or("a token without a size")?.x * at.scale().x;
            let image = self
                .images
                .get(&sprite.image)
                .ok_or("a token's image is not loaded")?;
            if let Some(p) = token_outside_cell(geo, v.cell, image, side, centre) {
                return Err(format!(
                    "{}'s token ({side} wide) is drawn at {p}, outside its cell {}",
                    v.name, v.cell
                ));
            }
            let size = game
                .level
                .units
                .get(v.id.0 as usize)
                .map_or(Size::Medium, |d| d.size);
            if size >= Size::Large && side < width * 0.75 {
                return Err(format!(
                    "the {size:?} {}'s token is {side} wide in a cell {width} wide",
                    v.name
                ));
            }
            drawn.push((size, side, v.name.clone()));
        }
        if drawn.is_empty() {
            return Err("no unit token on the map".into());
        }
        for (big, big_side, big_name) in &drawn {
            for (small, small_side, small_name) in &drawn {
                if big > small && *big_side < small_side * 1.1 {
                    return Err(format!(
                        "the {big:?} {big_name}'s token ({big_side}) is not clearly bigger \
                         than the {small:?} {small_name}'s ({small_side})"
                    ));
                }
            }
        }
        let sizes: std::collections::BTreeMap<String, f32> = drawn
            .iter()
            .map(|(size, side, _)| (format!("{size:?}"), *side))
            .collect();
        eprintln!("e2e: every token inside its cell ({width} wide); by size {sizes:?}");
        Ok(true)
    }
}

/// Where cells are on screen: the battle camera and the map's geometry.
#[derive(bevy::ecs::system::SystemParam)]
struct Pointer<'w, 's> {
    camera: Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<MainCamera>>,
    geo: Option<Res<'w, MapGeometry>>,
}

impl Pointer<'_, '_> {
    /// The window position (logical pixels) of a cell's center.
    fn viewport_of(&self, cell: Cell) -> Option<Vec2> {
        let (camera, transform) = self.camera.single().ok()?;
        let world = self.geo.as_ref()?.center(cell).extend(0.0);
        camera.world_to_viewport(transform, world).ok()
    }
}

fn check_screenshot(shot: &str) -> Result<(), String> {
    let img = image::open(shot)
        .map_err(|e| format!("cannot open {shot}: {e}"))?
        .to_rgb8();
    let (w, h) = img.dimensions();
    if (w, h) != (1280, 720) {
        return Err(format!("screenshot is {w}x{h}"));
    }
    let count = |f: &dyn Fn([u8; 3]) -> bool| img.pixels().filter(|p| f(p.0)).count();
    let near = |p: [u8; 3], c: [u8; 3], tol: i32| {
        p.iter()
            .zip(c)
            .all(|(a, b)| (*a as i32 - b as i32).abs() <= tol)
    };
    let open_ground = count(&|p| near(p, [116, 128, 104], 12));
    let blue = count(&|p| near(p, [0, 114, 178], 25));
    let orange = count(&|p| near(p, [230, 159, 0], 25));
    // The units' icons, drawn in deep navy on their markers.
    let ink = count(&|p| near(p, [10, 10, 46], 10));
    let distinct: std::collections::BTreeSet<[u8; 3]> =
        img.pixels().step_by(7).map(|p| p.0).collect();
    println!(
        "e2e screenshot: open ground {open_ground} px, blue {blue} px, orange {orange} px, \
         icons {ink} px, {} colours",
        distinct.len()
    );
    if distinct.len() < 50 {
        return Err("the screenshot is nearly blank".into());
    }
    if open_ground < 20_000 {
        return Err(format!(
            "the map is missing ({open_ground} px of open ground)"
        ));
    }
    if blue < 300 || orange < 300 {
        return Err(format!(
            "units are missing (blue {blue} px, orange {orange} px)"
        ));
    }
    if ink < 200 {
        return Err(format!(
            "the units' icons are missing ({ink} px of icon ink)"
        ));
    }
    Ok(())
}

/// Runs one case in this process (the window's event loop can run once per process).
fn run_case(case: Case) -> Result<(), String> {
    let _ = std::fs::remove_file(case.shot);
    let mut app = skirmish::game::build_app(GameOptions {
        level_path: case.level.into(),
        screenshot: None,
        size: (1280, 720),
        seed: Some(7),
        any_thread: false,
        start: Screen::Setup,
        ..Default::default()
    })?;
    app.insert_resource(case);
    app.init_resource::<Drive>();
    app.add_systems(Update, driver);
    // A frame advances the game's clock by at most 40 ms, however long it took: on
    // a loaded machine a software-rendered frame can take longer than a glide
    // across a cell, and the glide's screenshots would miss it.
    app.add_systems(Startup, |mut time: ResMut<Time<Virtual>>| {
        time.set_max_delta(std::time::Duration::from_millis(40));
    });
    // `run` hands the app to the event loop; the driver exits with success only after
    // the moves, attacks and reactions made by its key presses, then the screenshot.
    let result = app.run();
    if !matches!(result, AppExit::Success) {
        return Err(format!("the drive did not complete: {result:?}"));
    }
    check_screenshot(case.shot)?;
    check_glide(&case)
}

/// Where on screen (logical pixels) the cell our first move left is.
static GLIDE_FROM: std::sync::Mutex<Option<Vec2>> = std::sync::Mutex::new(None);

/// Where the glide's screenshot number `n` (1 or 2) goes.
fn glide_shot(case: &Case, n: u32) -> PathBuf {
    PathBuf::from(case.shot.replace(".png", &format!("-glide{n}.png")))
}

/// The unit glides (issue 17): in the screenshot taken as our first move began,
/// the mover (our side's colour) still stands on or near the cell it left; three
/// frames later it has moved on. Without the glide it is gone from there in both.
fn check_glide(case: &Case) -> Result<(), String> {
    let open = |n| {
        image::open(glide_shot(case, n))
            .map(|i| i.to_rgb8())
            .map_err(|e| format!("glide screenshot {n}: {e}"))
    };
    let (a, b) = (open(1)?, open(2)?);
    let Some(at) = *GLIDE_FROM.lock().unwrap() else {
        return Err("the cell our move left is not on screen".into());
    };
    // Our side is the first: its colour, around the cell left.
    let ours = |img: &image::RgbImage| {
        let (cx, cy) = (at.x as i64, at.y as i64);
        let mut n = 0;
        for y in (cy - 24).max(0)..(cy + 24).min(i64::from(img.height())) {
            for x in (cx - 24).max(0)..(cx + 24).min(i64::from(img.width())) {
                let p = img.get_pixel(x as u32, y as u32).0;
                if i32::from(p[0]) <= 25
                    && (i32::from(p[1]) - 114).abs() <= 25
                    && (i32::from(p[2]) - 178).abs() <= 25
                {
                    n += 1;
                }
            }
        }
        n
    };
    let (before, after) = (ours(&a), ours(&b));
    println!("e2e glide: mover's colour at the cell it left: {before} px, then {after} px");
    if before < 100 || before < after + 30 {
        return Err(format!(
            "the mover did not glide off its cell ({before} px of its colour there as the \
             move began, {after} px {GLIDE_FRAMES} frames later)"
        ));
    }
    Ok(())
}

/// Runs battle case `n` in this process (a child of [`crate::main`]).
pub fn run_child(n: usize) {
    match run_case(CASES[n]) {
        Ok(()) => println!(
            "window e2e test: {} ok (screenshot {})",
            CASES[n].level, CASES[n].shot
        ),
        Err(e) => {
            eprintln!("window e2e test: {}: {e}", CASES[n].level);
            std::process::exit(1);
        }
    }
}

/// How many battle cases there are.
pub fn cases() -> usize {
    CASES.len()
}
