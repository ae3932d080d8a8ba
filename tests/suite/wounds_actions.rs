//! `wounds`' actions from the seed beyond attacking and moving, played with scripted
//! dice: drawing and sheathing a weapon and picking up what lies on the ground (W-06,
//! W-07, W-09), swimming, climbing and carrying at half speed (W-08), fleeing the
//! battle (W-05) and the free hit of a feat's extra attack (W-26). Each test names
//! the rule ids it checks and ends with every scripted die drawn.

use skirmish::engine::Command;
use skirmish::engine::event::Event;
use skirmish::engine::rulesets::wounds::events::WoundsEvent;
use skirmish::engine::spec::{AiPolicy, Controller, Hand};
use skirmish::engine::units::PlayState;
use skirmish::engine::verb::ArgValue;

use crate::common::{c, cell, hp, id};
use crate::wounds::{
    act, actions, active, all_dice_used, armed, attack, battle, damage_to, end, level, mv, paid,
    pool, potion, refusal, rolls, run, state, told, weapon, with, with_power, wu,
};

/// `Draw`/`Sheathe` `weapon` paid with `with`.
fn gear(b: &skirmish::engine::Battle, unit: &str, verb: &str, weapon: &str, with: &str) -> Command {
    act(
        b,
        unit,
        verb,
        &[
            ("weapon", ArgValue::Name(weapon.into())),
            ("pay", ArgValue::Choice(with.into())),
        ],
    )
}

/// `PickUp` of `item`, paid with `with`.
fn pick_up(b: &skirmish::engine::Battle, unit: &str, item: &str, with: &str) -> Command {
    act(
        b,
        unit,
        "PickUp",
        &[
            ("item", ArgValue::Name(item.into())),
            ("pay", ArgValue::Choice(with.into())),
        ],
    )
}

fn held(events: &[Event]) -> Vec<(String, Hand)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::HeldChanged { item, hand, .. } => Some((item.clone(), *hand)),
            _ => None,
        })
        .collect()
}

/// W-06, W-07, W-09: a `Sheathed` weapon can't attack until drawn; Draw costs one
/// action of the turn (here a Bonus Action), then the sword hits with its d8; Sheathe
/// (here the Move Action) puts it away, and a free hit is then made with the fists.
#[test]
fn w_06_draw_and_sheathe_a_weapon() {
    let mut sword = weapon("Longsword");
    sword.traits = vec!["Sheathed".into()];
    let l = level(
        (8, 6),
        &[],
        vec![
            armed(wu("Hero", "Heroes", (2, 2), 3, 0, 20), vec![sword]),
            wu("Foe", "Foes", (3, 2), 0, 0, 20),
        ],
    );
    // The attack: d20 15 vs 10, d8 4. Foe's free hit drawn by leaving: d20 12, d3 2.
    let mut b = battle(&l, &[15, 4, 12, 2]);
    assert_eq!(active(&b).as_deref(), Some("Hero"));
    let e = refusal(&b, &with_power(&b, "Hero", "Foe", "Longsword", None));
    assert!(
        e.contains("Longsword is sheathed") && e.contains("W-06"),
        "{e}"
    );
    let events = run(&mut b, |b| gear(b, "Hero", "Draw", "Longsword", "BA"));
    assert_eq!(held(&events), [("Longsword".to_string(), Hand::Main)]);
    assert_eq!(actions(&b, "Hero"), (1, 1, 1), "Draw took a Bonus Action");
    let e = refusal(&b, &gear(&b, "Hero", "Draw", "Longsword", "MA"));
    assert!(e.contains("already in hand"), "{e}");
    let events = run(&mut b, |b| with_power(b, "Hero", "Foe", "Longsword", None));
    assert_eq!(
        damage_to(&events, id(&b, "Foe")),
        [4],
        "the d8 4 of the sword"
    );
    let events = run(&mut b, |b| gear(b, "Hero", "Sheathe", "Longsword", "MA"));
    assert_eq!(held(&events), [("Longsword".to_string(), Hand::Stowed)]);
    assert_eq!(
        actions(&b, "Hero"),
        (0, 0, 1),
        "Sheathe took the Move Action"
    );
    end(&mut b, "Hero");
    // Foe leaves Hero's melee zone: Hero's free hit is with its fists now.
    let events = run(&mut b, |b| mv(b, "Foe", &[(4, 2)]));
    let free = rolls(&events);
    assert!(
        free[0].purpose.starts_with("a free hit with Unarmed"),
        "{:?}",
        free[0].purpose
    );
    assert_eq!(damage_to(&events, id(&b, "Foe")), [2]);
    assert_eq!(hp(&b, "Foe"), 20 - 4 - 2);
    all_dice_used(&b);
}

/// W-06, W-07, W-09: a unit that goes down drops its weapon and its potion on its
/// square; a neighbour picks both up with a Bonus Action each, then fights with the
/// dagger (its d4) and drinks the potion (its Move Action). What isn't there can't be
/// picked up.
#[test]
fn w_06_pick_up_what_a_fallen_unit_dropped() {
    let mut carrier = armed(
        wu("Carrier", "Foes", (3, 2), 1, 0, 1),
        vec![weapon("Dagger")],
    );
    carrier.items = vec![potion(1)];
    let l = level(
        (8, 6),
        &[],
        vec![
            wu("Hero", "Heroes", (2, 2), 3, 0, 20),
            carrier,
            wu("Brute", "Foes", (2, 3), 0, 0, 20),
        ],
    );
    // Hero's fists: d20 15 vs 11, d3 1 (Carrier has 1 HP). Round 2, the dagger:
    // d20 15 vs 10, d4 3. The potion: d6 5.
    let mut b = battle(&l, &[15, 1, 15, 3, 5]);
    let events = run(&mut b, |b| attack(b, "Hero", "Carrier"));
    assert_eq!(state(&b, "Carrier"), PlayState::Down);
    let dropped: Vec<(String, skirmish::engine::board::Cell)> = events
        .iter()
        .filter_map(|e| match e {
            Event::ItemDropped { item, cell, .. } => Some((item.clone(), *cell)),
            _ => None,
        })
        .collect();
    assert_eq!(
        dropped,
        [
            ("Dagger".to_string(), c(3, 2)),
            ("Potion".to_string(), c(3, 2))
        ]
    );
    let e = refusal(&b, &with_power(&b, "Hero", "Brute", "Dagger", None));
    assert!(e.contains("no weapon or spell named `Dagger`"), "{e}");
    for item in ["Dagger", "Potion"] {
        let events = run(&mut b, |b| pick_up(b, "Hero", item, "BA"));
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::ItemPickedUp { item: i, cell, .. } if i == item && *cell == c(3, 2))),
            "{events:?}"
        );
    }
    assert_eq!(actions(&b, "Hero"), (0, 1, 0), "two Bonus Actions spent");
    let e = refusal(&b, &pick_up(&b, "Hero", "Potion", "MA"));
    assert!(
        e.contains("no `Potion` lies on or next to Hero's square; there: none")
            && e.contains("W-06"),
        "{e}"
    );
    end(&mut b, "Hero");
    end(&mut b, "Brute");
    let events = run(&mut b, |b| with_power(b, "Hero", "Brute", "Dagger", None));
    assert!(rolls(&events)[0].purpose.contains("with Dagger"));
    assert_eq!(
        damage_to(&events, id(&b, "Brute")),
        [3],
        "the dagger's d4 3"
    );
    let events = run(&mut b, |b| crate::wounds::use_potion(b, "Hero"));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::ItemUsed { item, uses_left: 0, .. } if item == "Potion")),
        "{events:?}"
    );
    assert_eq!(
        actions(&b, "Hero"),
        (0, 0, 2),
        "the dagger took the Attack Action, the potion the Move Action"
    );
    all_dice_used(&b);
}

/// The Moved costs of these events.
fn step_costs(events: &[Event]) -> Vec<u32> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Moved { cost, .. } => Some(*cost),
            _ => None,
        })
        .collect()
}

/// W-08, W-EX-8, W-GAP-19: swimming (`w`) and climbing (`^`) squares cost 2 spaces
/// each (half speed); a Maneuverer swims at full speed but still climbs at half; a
/// `Burdened` unit (carrying its maximum capacity) has half its movement.
#[test]
fn w_08_swimming_climbing_and_carrying_move_half_spaces() {
    let l = level(
        (8, 4),
        &[".www^^..", ".www^^..", "........", "........"],
        vec![
            wu("Hero", "Heroes", (0, 0), 3, 0, 20),
            with(wu("Mia", "Heroes", (0, 1), 2, 0, 20), &["Maneuverer"]),
            with(wu("Bo", "Heroes", (0, 2), 1, 0, 20), &["Burdened"]),
            wu("Foe", "Foes", (7, 3), 0, 0, 20),
        ],
    );
    let mut b = battle(&l, &[]);
    // Three water squares and a climb: 2 + 2 + 2 + 2 = 8 > 6.
    let e = refusal(&b, &mv(&b, "Hero", &[(1, 0), (2, 0), (3, 0), (4, 0)]));
    assert!(e.contains("the path costs 8 but"), "{e}");
    let events = run(&mut b, |b| mv(b, "Hero", &[(1, 0), (2, 0), (3, 0)]));
    assert_eq!(
        step_costs(&events),
        [2, 2, 2],
        "swimming: 6 spaces, 3 squares"
    );
    assert_eq!(cell(&b, "Hero"), c(3, 0));
    end(&mut b, "Hero");
    // Mia swims at full speed and climbs at half: 1 + 1 + 1 + 2 = 5.
    let events = run(&mut b, |b| mv(b, "Mia", &[(1, 1), (2, 1), (3, 1), (4, 1)]));
    assert_eq!(step_costs(&events), [1, 1, 1, 2]);
    end(&mut b, "Mia");
    // Bo carries its maximum: 6 / 2 = 3 spaces.
    assert_eq!(pool(&b, "Bo", "Spaces left"), Some(3));
    let e = refusal(&b, &mv(&b, "Bo", &[(1, 2), (2, 2), (3, 2), (4, 2)]));
    assert!(
        e.contains("the path costs 4 but") && e.contains("allows 3"),
        "{e}"
    );
    run(&mut b, |b| mv(b, "Bo", &[(1, 2), (2, 2), (3, 2)]));
    assert_eq!(cell(&b, "Bo"), c(3, 2));
    all_dice_used(&b);
}

/// W-08: water and climbing squares are written `w` and `^`; a level file with them
/// loads, and a character that is no terrain is refused at its FILE:LINE:COL with
/// every valid kind named.
#[test]
fn w_08_terrain_kinds_in_level_files() {
    let l = level(
        (4, 2),
        &[".w^~", "#..."],
        vec![
            wu("Hero", "Heroes", (0, 0), 3, 0, 20),
            wu("Foe", "Foes", (3, 1), 0, 0, 20),
        ],
    );
    let text = skirmish::level::to_ron_string(&l);
    let back = skirmish::level::load_str(&text, "pond.ron").expect("water and climbing load");
    assert_eq!(back.terrain, [".w^~", "#..."]);
    let bad = text.replace("\".w^~\"", "\".w^%\"");
    let problems = skirmish::level::load_str(&bad, "pond.ron").expect_err("`%` is no terrain");
    let line = bad.lines().position(|l| l.contains("\".w^%\"")).unwrap() + 1;
    let col = bad.lines().nth(line - 1).unwrap().find('%').unwrap() + 1;
    let shown = problems
        .iter()
        .map(ToString::to_string)
        .find(|p| p.contains("bad terrain character"))
        .expect("the bad character is reported");
    assert!(
        shown.starts_with(&format!(
            "pond.ron:{line}:{col}: bad terrain character '%' at (3, 0)"
        )),
        "{shown}"
    );
    for kind in [
        "`.` (open)",
        "`~` (difficult)",
        "`#` (impassable)",
        "`w` (water)",
        "`^` (climbing)",
    ] {
        assert!(shown.contains(kind), "{shown} names {kind}");
    }
}

/// W-05: a unit flees the battle from an edge square with its Move Action: not from
/// an enemy's melee zone until it disengages (W-28), not from the middle of the map;
/// a side whose last unit flees loses. Only a side a person plays has it among its
/// listed commands.
#[test]
fn w_05_flee_the_battle_from_the_edge() {
    let l = level(
        (8, 6),
        &[],
        vec![
            wu("Hero", "Heroes", (0, 2), 3, 0, 20),
            wu("Hal", "Heroes", (3, 3), 2, 0, 20),
            wu("Foe", "Foes", (1, 2), 0, 0, 20),
        ],
    );
    let mut b = battle(&l, &[]);
    let flee = |b: &skirmish::engine::Battle, unit: &str| act(b, unit, "Flee", &[]);
    let e = refusal(&b, &flee(&b, "Hero"));
    assert!(e.contains("melee zone of Foe") && e.contains("W-28"), "{e}");
    run(&mut b, |b| paid(b, "Hero", "Disengage", "AA"));
    // The window lists it for a side a person plays; an AI side never flees.
    assert!(b.legal_commands().contains(&flee(&b, "Hero")));
    let mut ai = l.clone();
    ai.sides[0].controller = Controller::Ai(AiPolicy::Random);
    let mut by_ai = battle(&ai, &[]);
    run(&mut by_ai, |b| paid(b, "Hero", "Disengage", "AA"));
    assert!(by_ai.check(&flee(&by_ai, "Hero")).is_ok());
    assert!(!by_ai.legal_commands().contains(&flee(&by_ai, "Hero")));
    let events = run(&mut b, |b| flee(b, "Hero"));
    assert_eq!(state(&b, "Hero"), PlayState::Fled);
    assert!(events.contains(&Event::Defeated {
        unit: id(&b, "Hero"),
        state: PlayState::Fled,
        cause: Some(skirmish::engine::event::LeaveCause::Fled),
        by: None,
    }));
    assert_eq!(active(&b).as_deref(), Some("Hal"), "its turn is over");
    let e = refusal(&b, &flee(&b, "Hal"));
    assert!(
        e.contains("not on the map's edge") && e.contains("W-05"),
        "{e}"
    );
    run(&mut b, |b| mv(b, "Hal", &[(3, 4), (3, 5)]));
    let e = refusal(&b, &flee(&b, "Hal"));
    assert!(e.contains("has not 1 MA left"), "{e}");
    end(&mut b, "Hal");
    end(&mut b, "Foe");
    let events = run(&mut b, |b| flee(b, "Hal"));
    assert_eq!(state(&b, "Hal"), PlayState::Fled);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::BattleEnded { winner: Some(s), .. } if s.0 == 1)),
        "the Foes hold the field: {events:?}"
    );
    all_dice_used(&b);
}

/// W-26, W-27, W-GAP-14: a unit with the feat `Extra attack` makes, besides its
/// attack, one free hit a turn on an enemy in reach: no action spent, one Free Hit
/// Slot used, aimed as it says. A second one that turn, one without a slot left and
/// one from a unit without the feat are refused.
#[test]
fn w_26_a_feats_extra_attack_is_a_free_hit() {
    let l = level(
        (8, 6),
        &[],
        vec![
            armed(
                with(wu("Hero", "Heroes", (2, 2), 1, 0, 20), &["Extra attack"]),
                vec![weapon("Longsword")],
            ),
            wu("Foe", "Foes", (3, 2), 0, 0, 30),
            with(wu("Kid", "Heroes", (3, 3), -1, 0, 20), &["Extra attack"]),
        ],
    );
    // Hero's attack: d20 15 vs 10, d8 3. The extra attack, aimed Slowing: d20 14, d8 5.
    let mut b = battle(&l, &[15, 3, 14, 5]);
    let extra = |b: &skirmish::engine::Battle, unit: &str, aim: &str| {
        act(
            b,
            unit,
            "ExtraAttack",
            &[
                ("target", ArgValue::Unit(id(b, "Foe"))),
                ("aim", ArgValue::Choice(aim.into())),
            ],
        )
    };
    run(&mut b, |b| attack(b, "Hero", "Foe"));
    assert_eq!(pool(&b, "Hero", "Free Hit Slots"), Some(2));
    let events = run(&mut b, |b| extra(b, "Hero", "Slowing"));
    let free = told(&events);
    assert!(
        matches!(&free[0], WoundsEvent::FreeHit { why, slots_left: 1, .. } if why.contains("feat")),
        "{free:?}"
    );
    let r = rolls(&events);
    assert!(
        r[0].purpose
            .contains("a free hit with Longsword, aimed Slowing"),
        "{:?}",
        r[0].purpose
    );
    assert_eq!(damage_to(&events, id(&b, "Foe")), [5]);
    assert_eq!(hp(&b, "Foe"), 30 - 3 - 5);
    assert_eq!(actions(&b, "Hero"), (0, 1, 2), "no action spent");
    assert_eq!(pool(&b, "Hero", "Free Hit Slots"), Some(1));
    let e = refusal(&b, &extra(&b, "Hero", "Fatal"));
    assert!(
        e.contains("already made its feat's extra attack this turn"),
        "{e}"
    );
    end(&mut b, "Hero");
    let e = refusal(&b, &extra(&b, "Foe", "Fatal"));
    assert!(
        e.contains("no feat that grants an extra attack (W-26)"),
        "{e}"
    );
    end(&mut b, "Foe");
    // Kid's Agility -1 gives it no Free Hit Slot (W-27).
    let e = refusal(&b, &extra(&b, "Kid", "Fatal"));
    assert!(
        e.contains("no Free Hit Slot left") && e.contains("W-27"),
        "{e}"
    );
    all_dice_used(&b);
}

/// W-32, W-GAP-23, W-12: a Mage (Level 1) casts its `Summon` spell with its Attack
/// Action: the `Summonable` Wolf appears next to it and takes its place in the order
/// by Agility. Its one summoning slot is then in use. The Wolf is sick until the end
/// of the next round: its round-2 turn passes and it is hit on a 5 (it can't dodge);
/// in round 3 it acts.
#[test]
fn w_32_summoning_during_the_battle() {
    let mut call = weapon("Call Wolf");
    call.traits = vec!["Summon".into()];
    let l = level(
        (8, 6),
        &[],
        vec![
            armed(wu("Mage", "Heroes", (2, 2), 3, 0, 20), vec![call]),
            with(wu("Wolf", "Heroes", (7, 5), 2, 0, 10), &["Summonable"]),
            with(wu("Bear", "Heroes", (6, 5), 1, 0, 10), &["Summonable"]),
            wu("Foe", "Foes", (4, 3), 0, 0, 20),
        ],
    );
    // Round 2: Foe at the sick Wolf, d20 5 vs 5, d3 1. Round 3: the Wolf, d20 15, d3 2.
    let mut b = battle(&l, &[5, 1, 15, 2]);
    let summon = |b: &skirmish::engine::Battle, creature: &str, to: (i32, i32)| {
        act(
            b,
            "Mage",
            "Summon",
            &[
                ("creature", ArgValue::Name(creature.into())),
                ("to", ArgValue::Cell(c(to.0, to.1))),
            ],
        )
    };
    assert_eq!(
        state(&b, "Wolf"),
        PlayState::Down,
        "off the board until summoned"
    );
    let e = refusal(&b, &attack(&b, "Mage", "Foe"));
    assert!(e.contains("use Summon (W-32)"), "{e}");
    let e = refusal(&b, &summon(&b, "Wolf", (5, 5)));
    assert!(e.contains("not a free square next to Mage"), "{e}");
    run(&mut b, |b| summon(b, "Wolf", (3, 2)));
    assert_eq!(state(&b, "Wolf"), PlayState::Active);
    assert_eq!(cell(&b, "Wolf"), c(3, 2));
    assert!(crate::wounds::has(&b, "Wolf", "Summoning sickness"));
    assert_eq!(
        actions(&b, "Mage"),
        (0, 1, 2),
        "the cast time took the Attack Action"
    );
    let e = refusal(&b, &summon(&b, "Bear", (1, 2)));
    assert!(
        e.contains("1 summoned units in play and 1 summoning slots"),
        "{e}"
    );
    end(&mut b, "Mage");
    end(&mut b, "Foe");
    // Round 2: Mage, then the Wolf (Agility 2) whose turn passes, then Foe.
    end(&mut b, "Mage");
    assert_eq!(
        active(&b).as_deref(),
        Some("Foe"),
        "the sick Wolf's turn passed"
    );
    let events = run(&mut b, |b| attack(b, "Foe", "Wolf"));
    let r = rolls(&events);
    // d20 5 + 1 Center Mass = 6 reaches 5; against Agility 2 it would need 12.
    assert_eq!(
        (r[0].total, r[0].target),
        (6, Some(5)),
        "flat-footed: hit on a 5"
    );
    assert_eq!(hp(&b, "Wolf"), 9);
    end(&mut b, "Foe");
    end(&mut b, "Mage");
    assert_eq!(active(&b).as_deref(), Some("Wolf"));
    assert!(!crate::wounds::has(&b, "Wolf", "Summoning sickness"));
    let events = run(&mut b, |b| attack(b, "Wolf", "Foe"));
    assert_eq!(damage_to(&events, id(&b, "Foe")), [2]);
    all_dice_used(&b);
}

/// W-06, W-26, W-32: the new level words are checked at their FILE:LINE:COL with the
/// valid forms named: a power trait (`Sheathed`, `Summon`) and a unit trait (`Extra
/// attack`, `Summonable`, `Burdened`); a `Summonable` creature whose side has no
/// summoning spell is reported at its traits.
#[test]
fn w_06_new_level_words_are_checked_where_they_are_written() {
    let mut sword = weapon("Longsword");
    sword.traits = vec!["Sheath".into()];
    let l = level(
        (4, 2),
        &[],
        vec![
            with(
                armed(wu("Hero", "Heroes", (0, 0), 3, 0, 20), vec![sword]),
                &["Burdend"],
            ),
            wu("Foe", "Foes", (3, 1), 0, 0, 20),
            with(wu("Imp", "Foes", (2, 1), 0, 0, 5), &["Summonable"]),
        ],
    );
    let text = skirmish::level::to_ron_string(&l);
    let problems: Vec<String> = skirmish::level::load_str(&text, "words.ron")
        .expect_err("two bad words")
        .iter()
        .map(ToString::to_string)
        .collect();
    let at = |word: &str| {
        let line = text.lines().position(|l| l.contains(word)).unwrap() + 1;
        let col = text.lines().nth(line - 1).unwrap().find(word).unwrap() + 1;
        format!("words.ron:{line}:{col}: ")
    };
    let power = problems
        .iter()
        .find(|p| p.contains("`Sheath` is not a `wounds` power trait"))
        .unwrap_or_else(|| panic!("{problems:?}"));
    assert!(
        power.starts_with(&at("traits: [\"Sheath\"")),
        "{power}\n{text}"
    );
    assert!(power.contains("`Sheathed`, `Summon`"), "{power}");
    let unit = problems
        .iter()
        .find(|p| p.contains("`Burdend` is not a `wounds` unit trait"))
        .unwrap_or_else(|| panic!("{problems:?}"));
    assert!(unit.starts_with(&at("\"Burdend\"")), "{unit}");
    for form in ["Extra attack", "Summonable", "Burdened"] {
        assert!(unit.contains(form), "{unit} names {form}");
    }
    // A creature nobody of its side can summon (W-32).
    let imp = problems
        .iter()
        .find(|p| p.contains("unit `Imp` is `Summonable` but no unit of side `Foes`"))
        .unwrap_or_else(|| panic!("{problems:?}"));
    assert!(
        imp.starts_with(&at("traits: [\"Summonable\"")),
        "{imp}\n{text}"
    );
}

/// The AIs with the new actions on the board: water and climbing squares, a sheathed
/// sword, potions that fall when their carriers go down, a summoner and its creature,
/// a feat's extra attack, a burdened porter. `random` picks among every legal command
/// (each must be accepted) and `normal` plays as usual, drawing the sheathed sword
/// first; no battle stalls until the command limit.
#[test]
fn ais_play_with_the_new_wounds_actions() {
    let mut sword = weapon("Longsword");
    sword.traits = vec!["Sheathed".into()];
    let mut call = weapon("Call Wolf");
    call.traits = vec!["Summon".into()];
    let mut porter = with(wu("Porter", "Heroes", (1, 5), 0, 1, 12), &["Burdened"]);
    porter.items = vec![potion(2)];
    let mut bandit = armed(
        wu("Bandit", "Foes", (8, 2), 1, 1, 10),
        vec![weapon("Dagger")],
    );
    bandit.items = vec![potion(1)];
    let l = level(
        (10, 8),
        &[
            "..........",
            "...ww.....",
            "...ww..^^.",
            "...ww..^^.",
            "..........",
            "....~~....",
            "..........",
            "..........",
        ],
        vec![
            armed(wu("Mage", "Heroes", (1, 1), 2, 1, 14), vec![call]),
            with(wu("Wolf", "Heroes", (0, 7), 2, 2, 8), &["Summonable"]),
            armed(
                with(wu("Knight", "Heroes", (1, 3), 1, 2, 16), &["Extra attack"]),
                vec![sword],
            ),
            porter,
            bandit,
            with(
                armed(
                    wu("Swimmer", "Foes", (8, 5), 2, 1, 10),
                    vec![weapon("Shortsword")],
                ),
                &["Maneuverer"],
            ),
            armed(
                wu("Brute", "Foes", (9, 6), 0, 2, 14),
                vec![weapon("Greataxe")],
            ),
        ],
    );
    use skirmish::engine::spec::AiPolicy::Normal;
    let mut lines = Vec::new();
    for (seed, policies, log) in every_pairing(&l, 6) {
        if policies[0] == Normal {
            // `normal` draws the Knight's only weapon before fighting (W-06).
            let first = log
                .iter()
                .position(|l| l.starts_with("Knight's turn"))
                .unwrap();
            assert!(
                log[first..first + 3]
                    .iter()
                    .any(|l| l == "Knight draws Longsword (Main hand)"),
                "seed {seed} {policies:?}: {:?}",
                &log[first..first + 3]
            );
        }
        lines.extend(log);
    }
    // The random side did use the new actions.
    for said in [
        "summons Wolf",
        "draws Longsword",
        "sheathes",
        "picks up",
        "granted by a feat",
    ] {
        assert!(
            lines.iter().any(|l| l.contains(said)),
            "no `{said}` in any battle"
        );
    }
}

/// Plays `l` with every pairing of `random` and `normal` on seeds `0..seeds`, and
/// checks that no battle stalls at the command limit: each battle's seed, policies
/// and log.
pub(crate) fn every_pairing(
    l: &skirmish::level::schema::Level,
    seeds: u64,
) -> Vec<(u64, [AiPolicy; 2], Vec<String>)> {
    use skirmish::ai::sim::{command_limit, play_logged};
    use skirmish::engine::spec::AiPolicy::{Normal, Random};
    let limit = command_limit(&skirmish::ai::sim::ai_level(l, &[Random, Random]));
    let mut out = Vec::new();
    for seed in 0..seeds {
        for policies in [
            [Random, Random],
            [Normal, Random],
            [Random, Normal],
            [Normal, Normal],
        ] {
            let (r, log) = play_logged(l, seed, &policies, limit)
                .unwrap_or_else(|e| panic!("seed {seed} {policies:?}: {e}"));
            assert!(
                !r.cut_off_by_commands,
                "seed {seed} {policies:?} stalled: {r:?}"
            );
            out.push((seed, policies, log));
        }
    }
    out
}
