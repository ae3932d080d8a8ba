//! `escalation` rules that only unit tests or level data used to check, played
//! through [`Battle::submit`] with scripted dice: the Surprise Round, a readied
//! attack that fires in the next round, opportunity attacks without a limit, the
//! conditions Dazed, Enervated, Softened, Stunned, Helpless and Weakened, an enemy's
//! healing, a Dicey Move's Aid, Fight in Spirit's other boons, switching stance and
//! attacking oneself. Each test names the rule ids it plays and asserts their effect.

use skirmish::engine::command::CommandError;
use skirmish::engine::event::Event;
use skirmish::engine::rulesets::escalation::events::EscalationEvent;
use skirmish::engine::units::PlayState;
use skirmish::engine::verb::ArgValue;
use skirmish::engine::{Awaiting, Battle, Command};
use skirmish::level::schema::*;

use crate::common::{c, cell, conditions, hp, id};
use crate::escalation::{
    act, active, attack, battle, end, eu, level, mv, power, rolls, stat, state, with,
};

/// The last roll in `events`: what for, the kept faces (sorted), the outcome.
fn last_roll(events: &[Event]) -> (String, Vec<u32>, String) {
    events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Rolled {
                purpose,
                kept,
                outcome,
                ..
            } => {
                let mut kept = kept.clone();
                kept.sort_unstable();
                Some((purpose.clone(), kept, outcome.clone()))
            }
            _ => None,
        })
        .expect("a roll")
}

/// The escalation narration in these events.
fn told(events: &[Event]) -> Vec<EscalationEvent> {
    events
        .iter()
        .filter_map(|e| e.narration::<EscalationEvent>())
        .cloned()
        .collect()
}

/// An attack of `unit` on `target` with its power `name`.
fn strike(b: &Battle, unit: &str, target: &str, name: &str) -> Command {
    Command::attack(id(b, unit), id(b, target), Some(name.into()))
}

/// Submits the command `make` builds (it is legal) and returns its events.
fn play(b: &mut Battle, make: impl FnOnce(&Battle) -> Command) -> Vec<Event> {
    let command = make(b);
    b.submit(command).expect("legal command").to_vec()
}

/// A power whose hits put `condition` on the target until it saves.
fn hex_power(name: &str, condition: &str) -> PowerDef {
    PowerDef {
        on_hit: vec![EffectDef {
            condition: condition.into(),
            lasts: EffectDuration::SaveEnds,
        }],
        ..power(name, &[])
    }
}

/// A battle on an open square map of `size` (Heroes against Foes) with these
/// faces.
fn on_open_ground(size: (u32, u32), units: Vec<UnitDef>, faces: &[u32]) -> Battle {
    battle(&level(size, &[], units), faces)
}

/// Asserts that `roll` names `source` (an Advantage or Disadvantage) and kept
/// `kept`; returns its outcome.
fn edged(roll: (String, Vec<u32>, String), source: &str, kept: &[u32]) -> String {
    let (purpose, faces, outcome) = roll;
    assert!(purpose.contains(source), "{purpose} names {source}");
    assert_eq!(faces, kept, "{purpose}");
    outcome
}

/// The order of the last `OrderSet`, by name.
fn last_order(b: &Battle) -> Vec<String> {
    b.events()
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::OrderSet { order, .. } => Some(order.iter().map(|&u| b.unit_name(u)).collect()),
            _ => None,
        })
        .expect("an order")
}

// ------------------------------------------------------------------ turns

/// E-17 / E-GAP-10: a level's `surprise` names two ambushers; before round 1 they
/// each take one full turn in band order (the Fast Orc before the Slow Gob, though
/// the level lists the Gob first), nobody else acts, and the Escalation die stays
/// 0 (the Orc's attack adds none). Then round 1 starts with everyone, the
/// ambushers again in their bands.
#[test]
fn e_17_e_gap_10_the_surprise_round() {
    let mut l = level(
        (10, 4),
        &[],
        vec![
            eu("Hero", "Heroes", (1, 1), 30),
            eu("Friend", "Heroes", (0, 3), 30),
            with(eu("Orc", "Foes", (2, 1), 30), &["Fast"]),
            with(eu("Gob", "Foes", (9, 3), 30), &["Slow"]),
            eu("Wolf", "Foes", (9, 0), 30),
        ],
    );
    l.rules.insert(
        "surprise".into(),
        ron::from_str(r#"["Gob", "Orc"]"#).unwrap(),
    );
    // The Orc's surprise attack: [5, 5, 5] + 5 = 20 vs AC 15; 2d8 [2, 2] + 3 = 7.
    let mut b = battle(&l, &[5, 5, 5, 2, 2]);
    let ambushers = told(b.events()).into_iter().find_map(|e| match e {
        EscalationEvent::SurpriseRound { units } => Some(units),
        _ => None,
    });
    let mut ambushers: Vec<String> = ambushers
        .expect("a Surprise Round")
        .iter()
        .map(|&u| b.unit_name(u))
        .collect();
    ambushers.sort();
    assert_eq!(ambushers, ["Gob", "Orc"]);
    assert_eq!(b.turn().round, 0, "before round 1");
    assert_eq!(active(&b), Some(id(&b, "Orc")), "the Fast ambusher first");
    let events = play(&mut b, |b| attack(b, "Orc", "Hero"));
    assert_eq!(rolls(&events)[0].1, 20, "no Escalation die: 15 + 5");
    assert_eq!(hp(&b, "Hero"), 23);
    end(&mut b, "Orc");
    assert_eq!(active(&b), Some(id(&b, "Gob")), "the Slow ambusher next");
    assert_eq!(b.turn().round, 0);
    end(&mut b, "Gob");
    assert_eq!(b.turn().round, 1);
    assert_eq!(
        last_order(&b),
        ["Orc", "Hero", "Friend", "Wolf", "Gob"],
        "round 1: everyone, in bands"
    );
    assert!(
        !told(b.events())
            .iter()
            .any(|e| matches!(e, EscalationEvent::EscalationDie { .. })),
        "the Escalation die stays 0"
    );
    assert_eq!(active(&b), Some(id(&b, "Orc")));
}

/// E-20: an attack readied in round 1 that fires in round 2, before its unit's
/// turn, costs that turn its Standard action (no attack that turn), and the unit
/// keeps its own band: in round 3 it still acts after the Medium scout.
#[test]
fn e_20_a_readied_attack_fired_next_round_costs_that_turns_standard_action() {
    // Round 2: the readied attack: [6, 6, 4] + 5 = 21 hits; 2d8 [2, 2] + 3 = 7.
    let mut b = on_open_ground(
        (12, 3),
        vec![
            with(eu("Guard", "Heroes", (0, 1), 20), &["Slow"]),
            with(eu("Orc", "Foes", (5, 1), 20), &["Fast"]),
            eu("Scout", "Foes", (11, 0), 20),
        ],
        &[6, 6, 4, 2, 2],
    );
    end(&mut b, "Orc");
    end(&mut b, "Scout");
    play(&mut b, |b| act(b, "Guard", "Ready", &[]));
    end(&mut b, "Guard");
    let events = play(&mut b, |b| mv(b, "Orc", &[(4, 1), (3, 1), (2, 1), (1, 1)]));
    assert!(
        told(&events)
            .iter()
            .any(|e| matches!(e, EscalationEvent::ReadiedFires { .. })),
        "{events:?}"
    );
    assert_eq!(hp(&b, "Orc"), 13);
    end(&mut b, "Orc");
    end(&mut b, "Scout");
    assert_eq!(active(&b), Some(id(&b, "Guard")));
    let err = b.check(&attack(&b, "Guard", "Orc")).unwrap_err();
    assert!(err.to_string().contains("no Standard action left"), "{err}");
    assert!(
        b.check(&mv(&b, "Guard", &[(0, 0)])).is_ok(),
        "only the Standard action is gone"
    );
    end(&mut b, "Guard");
    assert_eq!(active(&b), Some(id(&b, "Orc")));
    end(&mut b, "Orc");
    assert_eq!(
        active(&b),
        Some(id(&b, "Scout")),
        "the Guard kept its Slow band"
    );
}

/// E-34 / E-33: an enemy Far away (10 squares) is Nearby after one Move action
/// (4 squares: a melee attack is still refused) and engaged after a second (the
/// Standard action spent as a Move, E-22): the enemy then attacks in melee
/// without a step.
#[test]
fn e_34_far_takes_two_moves_to_engage() {
    let mut b = on_open_ground(
        (12, 3),
        vec![
            eu("Hero", "Heroes", (0, 1), 20),
            eu("Orc", "Foes", (10, 1), 20),
        ],
        &[],
    );
    let err = b.check(&attack(&b, "Hero", "Orc")).unwrap_err();
    assert!(err.to_string().contains("Far (10 squares away)"), "{err}");
    let first: Vec<(i32, i32)> = (1..=6).map(|x| (x, 1)).collect();
    play(&mut b, |b| mv(b, "Hero", &first));
    let err = b.check(&attack(&b, "Hero", "Orc")).unwrap_err();
    assert!(err.to_string().contains("Nearby (4 squares away)"), "{err}");
    play(&mut b, |b| mv(b, "Hero", &[(7, 1), (8, 1), (9, 1)]));
    end(&mut b, "Hero");
    assert!(b.check(&attack(&b, "Orc", "Hero")).is_ok(), "engaged");
}

/// E-38: any number of opportunity attacks in a round: an Orc engaged with two
/// heroes hits each of them as it walks away, in the same round, without spending
/// an action of its own.
#[test]
fn e_38_any_number_of_opportunity_attacks_in_a_round() {
    // Each opportunity attack: [5, 5, 5] + 5 = 20 hits; 2d8 [1, 1] + 3 = 5.
    let mut b = on_open_ground(
        (10, 5),
        vec![
            eu("A", "Heroes", (1, 2), 30),
            eu("B", "Heroes", (3, 2), 30),
            with(eu("Orc", "Foes", (2, 2), 30), &["Fast"]),
        ],
        &[5, 5, 5, 1, 1, 5, 5, 5, 1, 1],
    );
    end(&mut b, "Orc");
    let mut provoked = 0;
    for (hero, to) in [("A", (0, 2)), ("B", (4, 2))] {
        assert_eq!(b.turn().round, 1);
        let events = play(&mut b, |b| mv(b, hero, &[to]));
        let r = rolls(&events);
        assert!(r[0].0.starts_with("an opportunity attack"), "{r:?}");
        assert_eq!(hp(&b, hero), 25);
        provoked += r.len();
        end(&mut b, hero);
    }
    assert_eq!(provoked, 2, "one each, both in round 1");
}

// ------------------------------------------------------------------ conditions

/// A battle in which the Fast Hexer has just hit the Hero with `condition` (save
/// ends), then ended its turn: it is the Hero's turn. Its dice: the hex [5, 5, 5]
/// hits, 1d6 [1]; then `faces`.
fn hexed(condition: &str, faces: &[u32]) -> Battle {
    let mut hexer = eu("Hexer", "Foes", (2, 1), 40);
    hexer.powers = vec![hex_power("Hex", condition)];
    let mut all = vec![5, 5, 5, 1];
    all.extend_from_slice(faces);
    let mut b = on_open_ground(
        (10, 3),
        vec![eu("Hero", "Heroes", (1, 1), 30), with(hexer, &["Fast"])],
        &all,
    );
    play(&mut b, |b| strike(b, "Hexer", "Hero", "Hex"));
    assert!(conditions(&b, "Hero").iter().any(|c| c == condition));
    end(&mut b, "Hexer");
    assert_eq!(active(&b), Some(id(&b, "Hero")));
    b
}

/// Submits the attack `make` builds; its attack roll (the last before any damage).
fn roll_of(b: &mut Battle, make: impl FnOnce(&Battle) -> Command) -> (String, Vec<u32>, String) {
    let events = play(b, make);
    last_roll(&events[..first_damage(&events)])
}

/// The Hero's basic attack on the Hexer; its roll.
fn hero_attacks(b: &mut Battle) -> (String, Vec<u32>, String) {
    roll_of(b, |b| attack(b, "Hero", "Hexer"))
}

/// The Hexer's next attack on the Hero (round 2), after the Hero's turn ends; its
/// roll.
fn hexer_attacks(b: &mut Battle) -> (String, Vec<u32>, String) {
    end(b, "Hero");
    roll_of(b, |b| strike(b, "Hexer", "Hero", "Hex"))
}

/// Where the first damage is (the events of an attack roll come before it).
fn first_damage(events: &[Event]) -> usize {
    events
        .iter()
        .position(|e| matches!(e, Event::Damaged { .. }))
        .unwrap_or(events.len())
}

/// E-55: a Dazed attacker rolls with 1 Disadvantage: 4d6 [6, 6, 6, 1] keeps the
/// lowest three, 1 + 6 + 6 (+ 5 = 18, a hit). Attacks on it get no Advantage. Its
/// save (3d6 [6, 6, 6]) ends it.
#[test]
fn e_55_dazed_attacks_with_disadvantage() {
    // Hero: [6, 6, 6, 1], 2d8 [1, 1]; its save [6, 6, 6].
    let mut b = hexed("Dazed", &[6, 6, 6, 1, 1, 1, 6, 6, 6]);
    assert_eq!(
        edged(hero_attacks(&mut b), "1 Disadvantage: Dazed", &[1, 6, 6]),
        "hit"
    );
    assert_eq!(hp(&b, "Hexer"), 35);
    end(&mut b, "Hero");
    assert!(conditions(&b, "Hero").is_empty(), "saved");
}

/// E-68: Weakened: 1 Disadvantage on its own attacks ([6, 6, 6, 1] keeps 1, 6, 6)
/// and 1 Advantage to attacks on it: the Hexer's [1, 4, 4, 6] keeps 4, 4, 6 = 14
/// (+ 5 = 19, a hit where 1, 4, 4 would miss).
#[test]
fn e_68_weakened_attacks_worse_and_is_hit_more_easily() {
    // Hero: [6, 6, 6, 1], 2d8 [1, 1]; its save [1, 1, 1] fails. Round 2: the
    // Hexer [1, 4, 4, 6], 1d6 [2].
    let mut b = hexed("Weakened", &[6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 4, 4, 6, 2]);
    edged(hero_attacks(&mut b), "1 Disadvantage: Weakened", &[1, 6, 6]);
    assert_eq!(
        edged(
            hexer_attacks(&mut b),
            "1 Advantage: target Weakened",
            &[4, 4, 6]
        ),
        "hit"
    );
    assert_eq!(hp(&b, "Hero"), 30 - 1 - 2);
}

/// E-64: Softened: attacks on it get 1 Advantage ([1, 4, 4, 6] keeps 4, 4, 6, a
/// hit); its own attacks roll plain 3d6.
#[test]
fn e_64_softened_is_hit_with_advantage() {
    // Hero: [5, 5, 5], 2d8 [1, 1]; its save [1, 1, 1] fails. Round 2: the Hexer
    // [1, 4, 4, 6], 1d6 [2].
    let mut b = hexed("Softened", &[5, 5, 5, 1, 1, 1, 1, 1, 1, 4, 4, 6, 2]);
    let (purpose, kept, _) = hero_attacks(&mut b);
    assert!(!purpose.contains("Disadvantage"), "{purpose}");
    assert_eq!(kept, [5, 5, 5]);
    let roll = hexer_attacks(&mut b);
    assert_eq!(
        edged(roll, "1 Advantage: target Softened", &[4, 4, 6]),
        "hit"
    );
    assert_eq!(hp(&b, "Hero"), 27);
}

/// E-66: Stunned: the unit loses its Move action at the start of its turn (its
/// Move counter shows 0), attacks with 1 Disadvantage and is attacked with 1
/// Advantage. It is not helpless: no Coup de Grace on it (E-44).
#[test]
fn e_66_stunned_loses_its_move_and_fights_worse() {
    // Hero: [6, 6, 6, 1], 2d8 [1, 1]; its save [1, 1, 1] fails. Round 2: the
    // Hexer [1, 4, 4, 6], 1d6 [2].
    let mut b = hexed("Stunned", &[6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 4, 4, 6, 2]);
    assert!(
        told(b.events()).iter().any(|e| matches!(
            e,
            EscalationEvent::ActionSpent { what, .. } if what == "lost to Stunned"
        )),
        "the Move action is lost"
    );
    assert!(b.pools(id(&b, "Hero")).contains(&("Move".to_string(), 0)));
    edged(hero_attacks(&mut b), "1 Disadvantage: Stunned", &[1, 6, 6]);
    end(&mut b, "Hero");
    let cdg = act(
        &b,
        "Hexer",
        "CoupDeGrace",
        &[("target", ArgValue::Unit(id(&b, "Hero")))],
    );
    let err = b.check(&cdg).unwrap_err();
    assert!(err.to_string().contains("not a helpless enemy"), "{err}");
    edged(
        roll_of(&mut b, |b| strike(b, "Hexer", "Hero", "Hex")),
        "1 Advantage: target Stunned",
        &[4, 4, 6],
    );
}

/// E-60: Helpless is Stunned (its Move action lost at the start of its turn,
/// attacks on it with 1 Advantage) and opens it to a Coup de Grace (E-44), which
/// crits whatever the dice.
#[test]
fn e_60_helpless_is_stunned_and_open_to_a_coup_de_grace() {
    // Hero: its save [1, 1, 1] fails. Round 2: the Hexer's attack [1, 4, 4, 6],
    // 1d6 [2]; then (round 3) its Coup de Grace, a Basic Melee Attack: [1, 1, 1, 1]
    // crits anyway; 2d8 [3, 3] + 3 = 9, doubled: 18. Its save [1, 1, 1] in between.
    let mut b = hexed(
        "Helpless",
        &[1, 1, 1, 1, 4, 4, 6, 2, 1, 1, 1, 1, 1, 1, 1, 3, 3],
    );
    assert!(b.pools(id(&b, "Hero")).contains(&("Move".to_string(), 0)));
    edged(
        hexer_attacks(&mut b),
        "1 Advantage: target Stunned",
        &[4, 4, 6],
    );
    assert_eq!(hp(&b, "Hero"), 27);
    end(&mut b, "Hexer");
    end(&mut b, "Hero");
    let cdg = act(
        &b,
        "Hexer",
        "CoupDeGrace",
        &[("target", ArgValue::Unit(id(&b, "Hero")))],
    );
    let (_, _, outcome) = roll_of(&mut b, |_| cdg);
    assert_eq!(outcome, "crit");
    assert_eq!(hp(&b, "Hero"), 27 - 18);
}

/// E-56: Enervated: 1 Disadvantage on saves: the save at the end of its turn rolls
/// 4d6 [6, 6, 2, 1] and keeps 1, 2, 6 = 9, a failure (11+) where 2, 6, 6 would
/// pass; the condition stays.
#[test]
fn e_56_enervated_saves_with_disadvantage() {
    let mut b = hexed("Enervated", &[6, 6, 2, 1]);
    let events = b
        .submit(Command::EndTurn {
            unit: id(&b, "Hero"),
        })
        .unwrap()
        .to_vec();
    assert_eq!(
        edged(last_roll(&events), "Enervated", &[1, 2, 6]),
        "failure"
    );
    assert_eq!(conditions(&b, "Hero"), ["Enervated"]);
}

// ------------------------------------------------------------------ actions

/// E-48: an enemy (NPC) heals 1d6 per Level with a Recovery, with no Volition
/// added: a Level 2 Orc with one Recovery Rallies for 2d6 [3, 4] = 7.
#[test]
fn e_48_an_npc_heals_1d6_per_level() {
    // The Hero hits: [5, 5, 5] + 5; 2d8 [4, 4] + 3 = 11. The Orc's Recovery: [3, 4].
    let mut b = on_open_ground(
        (10, 3),
        vec![
            with(eu("Hero", "Heroes", (1, 1), 30), &["Fast"]),
            stat(eu("Orc", "Foes", (2, 1), 40), "Recoveries", 1),
        ],
        &[5, 5, 5, 4, 4, 3, 4],
    );
    play(&mut b, |b| attack(b, "Hero", "Orc"));
    assert_eq!(hp(&b, "Orc"), 29);
    end(&mut b, "Hero");
    let events = play(&mut b, |b| act(b, "Orc", "Rally", &[]));
    let healed: Vec<(usize, i32)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Healed { faces, amount, .. } => Some((faces.len(), *amount)),
            _ => None,
        })
        .collect();
    assert_eq!(healed, [(2, 7)], "2d6, no Volition");
    assert_eq!(hp(&b, "Orc"), 36);
    end(&mut b, "Orc");
    end(&mut b, "Hero");
    // Its one Recovery is spent; it may still Rally, for half (E-47, played in
    // escalation_seed.rs).
    b.check(&act(&b, "Orc", "Rally", &[]))
        .expect("a Rally with no Recoveries left is allowed (E-47)");
}

/// E-40 / E-GAP-19: a Dicey Move's Aid reward gives the ally next to the mover 1
/// Advantage on its next Disengage: 4d6 [1, 2, 3, 6] keeps 2, 3, 6 = 11 against 11
/// (one engaged enemy) and it pops free, where 1, 2, 3 would fail.
#[test]
fn e_40_e_gap_19_dicey_move_aid_helps_an_allys_disengage() {
    // The Dicey Move (Easy, 11): [4, 4, 3] + 3 = 14. The Disengage: [1, 2, 3, 6].
    let mut b = on_open_ground(
        (10, 5),
        vec![
            eu("Hero", "Heroes", (1, 1), 30),
            eu("Friend", "Heroes", (1, 2), 30),
            eu("Orc", "Foes", (2, 3), 30),
        ],
        &[4, 4, 3, 1, 2, 3, 6],
    );
    let dicey = act(
        &b,
        "Hero",
        "DiceyMove",
        &[
            ("difficulty", ArgValue::Choice("Easy".into())),
            ("reward", ArgValue::Choice("Aid".into())),
            ("ally", ArgValue::Unit(id(&b, "Friend"))),
        ],
    );
    let events = play(&mut b, |_| dicey);
    assert_eq!(last_roll(&events).2, "success");
    end(&mut b, "Hero");
    let events = play(&mut b, |b| {
        act(b, "Friend", "Disengage", &[("to", ArgValue::Cell(c(0, 1)))])
    });
    assert_eq!(
        edged(last_roll(&events), "Dicey Aid", &[2, 3, 6]),
        "success"
    );
    assert_eq!(cell(&b, "Friend"), c(0, 1));
    assert!(
        !conditions(&b, "Friend").iter().any(|c| c.contains("Dicey")),
        "used up"
    );
}

/// A battle in which the Ghost (a PC, 1 HP) has died for good (with
/// `death_save_failures` 1, its first failed death save) and, in round 3, Fights in
/// Spirit for the Hero with `boon`; it is the Gob's turn (Fast, engaged with the
/// Hero). Its dice: round 1 the Gob's Claw on the Ghost [5, 5, 5], 1d6 [1]; round
/// 2 the death save [1, 1, 1]; then `faces`.
fn spirit(boon: &str, faces: &[u32]) -> Battle {
    let mut gob = eu("Gob", "Foes", (1, 0), 40);
    gob.powers = vec![power("Claw", &[]), hex_power("Daze", "Dazed")];
    let mut l = level(
        (10, 3),
        &[],
        vec![
            with(
                stat(eu("Ghost", "Heroes", (0, 0), 1), "Recoveries", 0),
                &["Fast"],
            ),
            eu("Hero", "Heroes", (1, 1), 30),
            eu("Orc", "Foes", (9, 2), 40),
            with(gob, &["Fast"]),
        ],
    );
    l.rules
        .insert("death_save_failures".into(), ron::from_str("1").unwrap());
    let mut all = vec![5, 5, 5, 1, 1, 1, 1];
    all.extend_from_slice(faces);
    let mut b = battle(&l, &all);
    end(&mut b, "Ghost");
    play(&mut b, |b| strike(b, "Gob", "Ghost", "Claw"));
    assert_eq!(state(&b, "Ghost"), PlayState::Dying);
    while b.turn().round < 3 {
        let u = active(&b).expect("a turn");
        b.submit(Command::EndTurn { unit: u }).unwrap();
    }
    assert_eq!(state(&b, "Ghost"), PlayState::Dead);
    assert_eq!(active(&b), Some(id(&b, "Ghost")));
    play(&mut b, |b| {
        act(
            b,
            "Ghost",
            "FightInSpirit",
            &[
                ("ally", ArgValue::Unit(id(b, "Hero"))),
                ("boon", ArgValue::Choice(boon.into())),
                ("reason", ArgValue::Name("for the village".into())),
            ],
        )
    });
    assert_eq!(active(&b), Some(id(&b, "Gob")));
    b
}

/// E-41: Fight in Spirit's Guard boon: attacks on the ally get 1 Disadvantage for
/// the round: the Gob's [6, 6, 6, 1] keeps 1, 6, 6.
#[test]
fn e_41_fight_in_spirit_guards_the_ally() {
    let mut b = spirit("Guard", &[6, 6, 6, 1, 2]);
    edged(
        roll_of(&mut b, |b| strike(b, "Gob", "Hero", "Claw")),
        "1 Disadvantage: target Spirit: guard",
        &[1, 6, 6],
    );
}

/// E-41: Fight in Spirit's Saves boon: the ally saves with 1 Advantage for the
/// round: Dazed by the Gob, its save at the end of its turn rolls 4d6 [1, 2, 4, 5]
/// and keeps 2, 4, 5 = 11, a success (11+) where 1, 2, 4 would fail.
#[test]
fn e_41_fight_in_spirit_helps_the_allys_saves() {
    // The Gob's Daze [5, 5, 5], 1d6 [1]; the Hero's save [1, 2, 4, 5].
    let mut b = spirit("Saves", &[5, 5, 5, 1, 1, 2, 4, 5]);
    play(&mut b, |b| strike(b, "Gob", "Hero", "Daze"));
    assert!(conditions(&b, "Hero").iter().any(|c| c == "Dazed"));
    end(&mut b, "Gob");
    let events = play(&mut b, |b| Command::EndTurn {
        unit: id(b, "Hero"),
    });
    let (purpose, kept, outcome) = last_roll(&events);
    assert_eq!(purpose, "a save against Dazed");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Rolled { dice, .. } if dice == "4d6kh3")),
        "1 Advantage: {events:?}"
    );
    assert_eq!((kept, outcome.as_str()), (vec![2, 4, 5], "success"));
    assert!(!conditions(&b, "Hero").iter().any(|c| c == "Dazed"));
}

/// E-09: which basic attack a unit makes follows its stance: in Melee stance an
/// enemy 9 squares off is out of reach; after a stance switch (a Quick action) the
/// same attack command is a Basic Ranged Attack with the ranged die (2d6).
#[test]
fn e_09_a_stance_switch_changes_the_basic_attack() {
    // The shot: [5, 5, 5] + 5 = 20 hits; 2d6 [6, 6] + 3 = 15.
    let mut b = on_open_ground(
        (12, 3),
        vec![
            eu("Hero", "Heroes", (0, 1), 20),
            eu("Orc", "Foes", (9, 1), 20),
        ],
        &[5, 5, 5, 6, 6],
    );
    assert!(b.check(&attack(&b, "Hero", "Orc")).is_err(), "melee stance");
    play(&mut b, |b| act(b, "Hero", "Stance", &[]));
    let events = play(&mut b, |b| attack(b, "Hero", "Orc"));
    assert_eq!(rolls(&events)[0].0, "Basic Ranged Attack vs AC");
    assert_eq!(hp(&b, "Orc"), 5);
}

/// E-31: an attack may target any other unit in play, but not the attacker itself:
/// the refusal is typed and names it.
#[test]
fn e_31_a_unit_may_not_attack_itself() {
    let b = on_open_ground(
        (10, 3),
        vec![
            eu("Hero", "Heroes", (1, 1), 20),
            eu("Orc", "Foes", (2, 1), 20),
        ],
        &[],
    );
    let err = b.check(&attack(&b, "Hero", "Hero")).unwrap_err();
    assert!(
        matches!(&err, CommandError::NoSuchTarget(why) if why.contains("Hero")),
        "{err:?}"
    );
    assert!(b.check(&attack(&b, "Hero", "Orc")).is_ok());
    assert!(matches!(b.awaiting(), Awaiting::Unit(..)));
}
