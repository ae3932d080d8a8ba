//! The shipped `wounds` scenarios (levels/scenarios/wounds_*.ron) played through
//! `skirmish::script` with their chosen dice: every roll, defense number, damage,
//! wound, square and Free Hit Slot is the one RULES.md §3 says, each test naming
//! the rules, gaps and worked examples it checks. Also the shape of the level The
//! Ravine Road and the `wounds` unit templates.

use std::path::Path;

use skirmish::engine::board::Cell;
use skirmish::engine::command::{Command, CommandError};
use skirmish::engine::dice::Dice;
use skirmish::engine::event::Event;
use skirmish::engine::rulesets::new_battle;
use skirmish::engine::rulesets::wounds::attack;
use skirmish::engine::rulesets::wounds::events::WoundsEvent;
use skirmish::engine::rulesets::wounds::state;
use skirmish::engine::units::{PlayState, UnitId};
use skirmish::engine::verb::{ArgValue, Args};
use skirmish::engine::{Awaiting, Battle};

use crate::common::{c, cell, conditions, hp};
use crate::common::{run, run_first};

// ------------------------------------------------------------------ helpers

/// One `Rolled` event, with names instead of ids.
#[derive(Clone, Debug, PartialEq)]
struct Roll {
    unit: String,
    purpose: String,
    dice: String,
    faces: Vec<u32>,
    /// The named modifiers, e.g. `("Accuracy", 3)`.
    modifiers: Vec<(String, i32)>,
    total: i32,
    target: Option<i32>,
    against: Option<String>,
    outcome: String,
}

fn rolls(b: &Battle) -> Vec<Roll> {
    b.events()
        .iter()
        .filter_map(|e| match e {
            Event::Rolled {
                unit,
                purpose,
                dice,
                faces,
                modifiers,
                total,
                target,
                against,
                outcome,
                ..
            } => Some(Roll {
                unit: b.unit_name(*unit),
                purpose: purpose.clone(),
                dice: dice.clone(),
                faces: faces.clone(),
                modifiers: modifiers
                    .iter()
                    .map(|m| (m.name.clone(), m.value))
                    .collect(),
                total: *total,
                target: *target,
                against: against.map(|a| b.unit_name(a)),
                outcome: outcome.clone(),
            }),
            _ => None,
        })
        .collect()
}

/// The d20 attack rolls (not the chain dice): (attacker, target, natural, total,
/// defense, outcome).
fn attacks(b: &Battle) -> Vec<(String, String, u32, i32, i32, String)> {
    rolls(b)
        .into_iter()
        .filter(|r| r.dice == "d20" && r.against.is_some())
        .map(|r| {
            (
                r.unit,
                r.against.unwrap_or_default(),
                r.faces[0],
                r.total,
                r.target.unwrap_or_default(),
                r.outcome,
            )
        })
        .collect()
}

/// The d20 attack rolls of one attacker.
fn attack_rolls(b: &Battle, unit: &str) -> Vec<Roll> {
    rolls(b)
        .into_iter()
        .filter(|r| r.unit == unit && r.dice == "d20" && r.against.is_some())
        .collect()
}

/// Every `Damaged` event: (unit, amount, HP after).
fn damage(b: &Battle) -> Vec<(String, i32, i32)> {
    b.events()
        .iter()
        .filter_map(|e| match e {
            Event::Damaged {
                unit, amount, hp, ..
            } => Some((b.unit_name(*unit), *amount, *hp)),
            _ => None,
        })
        .collect()
}

fn dmg(list: &[(&str, i32, i32)]) -> Vec<(String, i32, i32)> {
    list.iter()
        .map(|&(u, a, h)| (u.to_string(), a, h))
        .collect()
}

fn w_events(b: &Battle) -> Vec<WoundsEvent> {
    b.events()
        .iter()
        .filter_map(|e| e.narration::<WoundsEvent>().cloned())
        .collect()
}

/// The wounds dealt: (unit, aim).
fn wounds_dealt(b: &Battle) -> Vec<(String, String)> {
    w_events(b)
        .into_iter()
        .filter_map(|e| match e {
            WoundsEvent::Wounded { unit, aim, .. } => Some((b.unit_name(unit), aim)),
            _ => None,
        })
        .collect()
}

/// The free hits drawn: (hitter, mover, slots left after it).
fn free_hits(b: &Battle) -> Vec<(String, String, u32)> {
    w_events(b)
        .into_iter()
        .filter_map(|e| match e {
            WoundsEvent::FreeHit {
                attacker,
                mover,
                slots_left,
                ..
            } => Some((b.unit_name(attacker), b.unit_name(mover), slots_left)),
            _ => None,
        })
        .collect()
}

/// The free hits refused for want of a slot: (unit, mover).
fn no_slots(b: &Battle) -> Vec<(String, String)> {
    w_events(b)
        .into_iter()
        .filter_map(|e| match e {
            WoundsEvent::NoSlot { unit, mover } => Some((b.unit_name(unit), b.unit_name(mover))),
            _ => None,
        })
        .collect()
}

/// One unit's Free Hit Slots at the start of each round so far.
fn slots_by_round(b: &Battle, name: &str) -> Vec<u32> {
    let me = id(b, name);
    w_events(b)
        .into_iter()
        .filter_map(|e| match e {
            WoundsEvent::Slots { slots } => slots.iter().find(|(u, _)| *u == me).map(|&(_, s)| s),
            _ => None,
        })
        .collect()
}

/// The units whose turns started, in order.
fn turns(b: &Battle) -> Vec<String> {
    b.events()
        .iter()
        .filter_map(|e| match e {
            Event::TurnStarted { unit, .. } => Some(b.unit_name(*unit)),
            _ => None,
        })
        .collect()
}

/// The squares a unit stepped through, in order.
fn steps(b: &Battle, name: &str) -> Vec<(Cell, u32)> {
    let me = id(b, name);
    b.events()
        .iter()
        .filter_map(|e| match e {
            Event::Moved { unit, to, cost, .. } if *unit == me => Some((*to, *cost)),
            _ => None,
        })
        .collect()
}

/// What a unit spent its actions on: (what, actions).
fn spent(b: &Battle, name: &str) -> Vec<(String, String)> {
    let me = id(b, name);
    w_events(b)
        .into_iter()
        .filter_map(|e| match e {
            WoundsEvent::Spent {
                unit,
                what,
                actions,
            } if unit == me => Some((what, actions)),
            _ => None,
        })
        .collect()
}

fn id(b: &Battle, name: &str) -> UnitId {
    b.unit_id(name).unwrap_or_else(|| panic!("no unit {name}"))
}

fn state(b: &Battle, name: &str) -> PlayState {
    b.units()
        .into_iter()
        .find(|u| u.name == name)
        .map(|u| u.state)
        .expect("unit")
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn mv(b: &Battle, name: &str, power: &str, path: &[(i32, i32)]) -> Command {
    Command::move_along(
        id(b, name),
        power,
        path.iter().map(|&(x, y)| c(x, y)).collect(),
    )
}

fn delay(b: &Battle, name: &str, after: &str) -> Command {
    Command::Act {
        unit: id(b, name),
        verb: "Delay".into(),
        args: Args::new().with("after", ArgValue::Unit(id(b, after))),
    }
}

// ------------------------------------------------------------------ attacks

/// W-EX-1 / W-13 / W-17 / W-18 / W-27 / W-GAP-04 / W-GAP-16: Accuracy +3 aimed
/// Slowing, d20 9 → 12 against Agility +2's 12: a hit; Longsword d8 5 + 2 − 1
/// armor = 6 net: a Slowing wound; the target's Agility is +1 (defense 11, the
/// archer's 11 hits), its movement 4 and its Free Hit Slots 2 next round (3 in
/// round 1). The variant d8 4 → 5 net: 5 damage, no wound. W-GAP-10: the two
/// bandits tied at Agility +2 rolled a d20 each before round 1. W-28 / W-GAP-25:
/// the disengaged bandit walks out of the swordsman's zone with no free hit.
#[test]
fn w_ex_1_slowing_wound() {
    let path = "levels/scenarios/wounds_ex1_wound.ron";
    let b = run(path);
    let ties: Vec<(String, u32)> = b
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::TieBreakRolled { unit, face } => Some((b.unit_name(*unit), *face)),
            _ => None,
        })
        .collect();
    assert_eq!(ties, [("Bandit".to_string(), 15), ("Twin".to_string(), 7)]);
    assert_eq!(
        turns(&b)[..5],
        strings(&["Swordsman", "Knight", "Bandit", "Twin", "Archer"])
    );

    let hit = &attack_rolls(&b, "Swordsman")[0];
    assert_eq!(hit.purpose, "an attack with Longsword, aimed Slowing");
    assert_eq!(hit.modifiers, [("Accuracy".to_string(), 3)]);
    assert_eq!((hit.faces[0], hit.total, hit.target), (9, 12, Some(12)));
    assert_eq!(hit.outcome, "hit");
    let variant = &attack_rolls(&b, "Knight")[0];
    assert_eq!((variant.total, variant.target), (12, Some(12)));
    let shot = &attack_rolls(&b, "Archer")[0];
    assert_eq!(
        (
            shot.faces[0],
            shot.total,
            shot.target,
            shot.outcome.as_str()
        ),
        (8, 11, Some(11), "hit"),
        "the wounded bandit's defense is 11"
    );
    assert_eq!(
        damage(&b),
        dmg(&[("Bandit", 6, 14), ("Twin", 5, 15), ("Bandit", 2, 12)])
    );
    assert_eq!(
        wounds_dealt(&b),
        [("Bandit".to_string(), "Slowing".to_string())]
    );
    assert_eq!(conditions(&b, "Bandit"), ["Wounded (Slowing)"]);
    assert!(conditions(&b, "Twin").is_empty());

    let bandit = id(&b, "Bandit");
    let w = b.world();
    assert_eq!(state::agility(w, bandit), 1);
    let m = state::mods(w, bandit);
    assert_eq!((m.agility, m.movement), (-1, -2));
    assert_eq!(slots_by_round(&b, "Bandit"), [3, 2]);
    assert_eq!(slots_by_round(&b, "Twin"), [3, 3]);

    // Its 4 spaces, walked out of the Swordsman's zone after Disengage: no free hit.
    assert_eq!(cell(&b, "Bandit"), c(9, 1));
    assert!(free_hits(&b).is_empty() && no_slots(&b).is_empty());
    let mut b = run_first(path, 5);
    let err = b
        .submit(mv(
            &b,
            "Bandit",
            "Move",
            &[(6, 1), (7, 1), (8, 1), (9, 1), (10, 1)],
        ))
        .unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::NotEnoughMovement {
                cost: 5,
                budget: 4,
                ..
            }
        ),
        "{err:?}"
    );
}

/// W-EX-2 / W-13 / W-17 / W-GAP-07: Accuracy +3 against defense 12 with d20 8:
/// Center Mass (no aim) adds +1: 12 hits (d8 2 + 2 = 4); aimed Slowing: 11
/// misses. W-15 / W-GAP-17: with an ally on the square opposite the attacker
/// across the target, +1 "from behind": the aimed 8 hits 12 (d8 1 + 2 = 3); no
/// ally there, no bonus.
#[test]
fn w_ex_2_center_mass_hits_where_an_aimed_attack_misses() {
    let b = run("levels/scenarios/wounds_center_mass.ron");
    let hale = &attack_rolls(&b, "Hale")[0];
    assert_eq!(hale.purpose, "an attack with Longsword, aimed Center Mass");
    assert_eq!(
        hale.modifiers,
        [("Accuracy".to_string(), 3), ("Center Mass".to_string(), 1)]
    );
    let ivo = &attack_rolls(&b, "Ivo")[0];
    assert_eq!(ivo.modifiers, [("Accuracy".to_string(), 3)]);
    let jory = &attack_rolls(&b, "Jory")[0];
    assert_eq!(
        jory.modifiers,
        [("Accuracy".to_string(), 3), ("from behind".to_string(), 1)]
    );
    assert_eq!(
        attacks(&b),
        [
            ("Hale", "Raider", 8, 12, 12, "hit"),
            ("Ivo", "Raider", 8, 11, 12, "miss"),
            ("Jory", "Lookout", 8, 12, 12, "hit"),
        ]
        .map(|(a, t, n, tot, d, o)| (a.into(), t.into(), n, tot, d, o.into()))
    );
    assert_eq!(damage(&b), dmg(&[("Raider", 4, 16), ("Lookout", 3, 17)]));
    assert!(wounds_dealt(&b).is_empty());
}

/// W-EX-3 / W-20 / W-21 / W-17 / W-GAP-04 / W-GAP-05 / W-GAP-06: aimed Fatal, d20 20
/// (crit), d4 4 (super critical, ×4), d6 2 (stop), d8 3: (3 + 2) × 4 − 1 = 19 net,
/// a wound, the Fatal d4 4 adds 16 after armor: 35. A d6 of 6 defeats the target
/// instantly with no damage dice. A d4 of 3 stops the chain at ×2 with no d6:
/// (4 + 2) × 2 − 1 = 11, and the natural 20 hits a defense of 35.
#[test]
fn w_ex_3_crit_chain_to_35_and_to_an_instant_defeat() {
    let b = run("levels/scenarios/wounds_crits.ron");
    let dice: Vec<(String, String, Vec<u32>, String)> = rolls(&b)
        .into_iter()
        .map(|r| (r.unit, r.dice, r.faces, r.outcome))
        .collect();
    let expect = [
        ("Ash", "d20", 20, "natural 20: critical hit"),
        ("Ash", "d4", 4, "it escalates"),
        ("Ash", "d6", 2, "it stops"),
        ("Ash", "d4", 4, "+16 damage"),
        ("Brand", "d20", 20, "natural 20: critical hit"),
        ("Brand", "d4", 4, "it escalates"),
        ("Brand", "d6", 6, "it escalates"),
        ("Cinder", "d20", 20, "natural 20: critical hit"),
        ("Cinder", "d4", 3, "it stops"),
    ];
    assert_eq!(
        dice,
        expect
            .iter()
            .map(|&(u, d, f, o)| (u.to_string(), d.to_string(), vec![f], o.to_string()))
            .collect::<Vec<_>>()
    );
    let cinder = &attack_rolls(&b, "Cinder")[0];
    assert_eq!((cinder.total, cinder.target), (23, Some(35)));

    let damaged: Vec<(String, Vec<u32>, i32, i32)> = b
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Damaged {
                unit,
                faces,
                amount,
                hp,
                ..
            } => Some((b.unit_name(*unit), faces.clone(), *amount, *hp)),
            _ => None,
        })
        .collect();
    assert_eq!(
        damaged,
        [
            ("Post A".to_string(), vec![3], 35, 5),
            ("Post B".to_string(), vec![], 40, 0),
            ("Post C".to_string(), vec![4], 11, 29),
        ],
        "Post B: no damage dice"
    );
    let slain: Vec<(String, String)> = w_events(&b)
        .into_iter()
        .filter_map(|e| match e {
            WoundsEvent::Slain { unit, by, .. } => Some((b.unit_name(unit), b.unit_name(by))),
            _ => None,
        })
        .collect();
    assert_eq!(slain, [("Post B".to_string(), "Brand".to_string())]);
    assert_eq!(state(&b, "Post B"), PlayState::Dead);
    assert_eq!(
        wounds_dealt(&b),
        [
            ("Post A".to_string(), "Fatal".to_string()),
            ("Post C".to_string(), "Weakening".to_string()),
        ]
    );
    let post_c = state::mods(b.world(), id(&b, "Post C"));
    assert_eq!((post_c.strength, post_c.bonus_actions), (-1, -1));
}

/// W-EX-4 / W-22 / W-23 / W-24 / W-27 / W-GAP-18: natural 1s inside the melee zone
/// of a unit with Agility −1 (no Free Hit Slots): (a) d4 3, no tragedy, no slot:
/// nothing; (b) d4 4, d6 3: a tragedy, and a free critical hit without a slot:
/// d6 4 → (4 + 1) × 2 = 10 (a wound, aimed where its value is best); (c) d4 4,
/// d6 6: a fatal blow kills the attacker. W-24 / W-GAP-14: a plain natural 1 next
/// to a unit with a slot draws a free hit that uses it. W-GAP-18: out of the melee
/// zone, a tragedy escalated to 6 is only a miss.
#[test]
fn w_ex_4_natural_1_tragedy_and_fatal_blow() {
    let b = run("levels/scenarios/wounds_tragedy.ron");
    assert_eq!(slots_by_round(&b, "Brute"), [0]);
    let fumbles: Vec<(String, String)> = attacks(&b)
        .into_iter()
        .filter(|a| a.2 == 1)
        .map(|a| (a.0, a.5))
        .collect();
    assert_eq!(
        fumbles,
        ["Squire A", "Squire B", "Squire C", "Squire D", "Archer"]
            .map(|u| (u.to_string(), "natural 1: it fails".to_string()))
    );
    let chains: Vec<(String, Vec<u32>)> = rolls(&b)
        .into_iter()
        .filter(|r| r.purpose.starts_with("the tragedy chain"))
        .map(|r| (r.unit, r.faces))
        .collect();
    assert_eq!(
        chains,
        [
            ("Squire A", 3),
            ("Squire B", 4),
            ("Squire B", 3),
            ("Squire C", 4),
            ("Squire C", 6),
            ("Squire D", 2),
            ("Archer", 4),
            ("Archer", 6),
        ]
        .map(|(u, f)| (u.to_string(), vec![f]))
    );
    // (a) no slot: no free hit.
    assert_eq!(
        no_slots(&b),
        [("Brute".to_string(), "Squire A".to_string())]
    );
    // (b) the free critical hit: no d20, ×2.
    let brute: Vec<Roll> = rolls(&b)
        .into_iter()
        .filter(|r| r.unit == "Brute")
        .collect();
    assert!(
        brute.iter().all(|r| r.dice != "d20"),
        "the free crit hits without a roll: {brute:#?}"
    );
    assert!(w_events(&b).iter().any(|e| matches!(
        e,
        WoundsEvent::Chain { unit, became } if *unit == id(&b, "Brute")
            && became.starts_with("a free critical hit on Squire B")
    )));
    assert_eq!(hp(&b, "Squire B"), 10);
    assert_eq!(wounds_dealt(&b).len(), 1);
    assert_eq!(
        wounds_dealt(&b)[0],
        ("Squire B".to_string(), "Weakening".to_string()),
        "W-GAP-07: aimed where the Brutes answered"
    );
    // (c) the fatal blow.
    assert_eq!(state(&b, "Squire C"), PlayState::Dead);
    assert!(w_events(&b).iter().any(|e| matches!(
        e,
        WoundsEvent::Slain { unit, by, .. }
            if *unit == id(&b, "Squire C") && *by == id(&b, "Brute")
    )));
    // A plain natural 1 and a slot: the Sentry's free hit, d20 2, a miss.
    assert_eq!(
        free_hits(&b),
        [("Sentry".to_string(), "Squire D".to_string(), 0)]
    );
    let sentry = &attack_rolls(&b, "Sentry")[0];
    assert!(sentry.purpose.starts_with("a free hit with Shortsword"));
    assert_eq!((sentry.faces[0], sentry.outcome.as_str()), (2, "miss"));
    // Out of the zone: the Archer's fatal-blow chain does nothing.
    assert_eq!(hp(&b, "Archer"), 20);
    assert_eq!(state(&b, "Archer"), PlayState::Active);
    assert_eq!(
        damage(&b),
        dmg(&[("Squire B", 10, 10), ("Squire C", 20, 0)])
    );
}

/// W-GAP-07 "Free hits may aim" / W-24: in the tavern brawl the Brutes are asked
/// where the Brute's free critical hit on Squire B aims: every aim, each sure to
/// hit (a free critical hit needs no roll), no decline; the scenario answers
/// Weakening and the Sentry's plain free hit Center Mass.
#[test]
fn w_gap_07_the_brutes_aim_their_free_critical_hit() {
    let path = "levels/scenarios/wounds_tragedy.ron";
    let b = run_first(path, 3);
    let Awaiting::Decision(d) = b.awaiting() else {
        panic!("{:?}", b.awaiting());
    };
    assert_eq!(b.side_name(d.side), "Brutes");
    assert!(
        d.about.contains("free critical hit on Squire B"),
        "{}",
        d.about
    );
    assert!(d.decline.is_none());
    assert_eq!(d.options.len(), 5);
    assert!(d.options.iter().all(|o| o.chance == Some(1.0)), "{d:?}");
    assert_eq!(
        skirmish::script::describe_awaiting(&b),
        "Brutes to aim Brute's free critical hit on Squire B: \
         Attack(unit: \"Brute\", target: \"Squire B\", aim: \"Fatal\") 100.0%, \
         Attack(unit: \"Brute\", target: \"Squire B\", aim: \"Slowing\") 100.0%, \
         Attack(unit: \"Brute\", target: \"Squire B\", aim: \"Weakening\") 100.0%, \
         Attack(unit: \"Brute\", target: \"Squire B\", aim: \"Disrupting\") 100.0%, \
         Attack(unit: \"Brute\", target: \"Squire B\", aim: \"Center Mass\") 100.0%"
    );
    let b = run(path);
    let sentry = &attack_rolls(&b, "Sentry")[0];
    assert!(
        sentry
            .purpose
            .starts_with("a free hit with Shortsword, aimed Center Mass"),
        "{sentry:?}"
    );
    assert!(w_events(&b).iter().any(|e| matches!(
        e,
        WoundsEvent::Chain { became, .. }
            if became == "a free critical hit on Squire B, aimed Weakening (x2, W-24)"
    )));
}

// ------------------------------------------------------------------ free hits

/// W-EX-5 / W-25 / W-26 / W-27 / W-GAP-14 / W-GAP-16: Agility +1 is 2 Free Hit
/// Slots; three raiders leave the defender's zone in round 1: two free hits
/// (2 → 1 → 0), resolved before the step (the hit one is wounded on its square),
/// the third none. Round 2: 2 slots again. W-GAP-15: a raider entering the zone and
/// walking round the defender draws a free hit before its 3rd step that starts and
/// ends inside the zone, not before the entering step. W-GAP-07: the defender's
/// side aims each free hit.
#[test]
fn w_ex_5_free_hits_limited_by_free_hit_slots() {
    let path = "levels/scenarios/wounds_free_hits.ron";
    let b = run_first(path, 7);
    assert_eq!(
        free_hits(&b),
        [
            ("Defender".to_string(), "Ximen".to_string(), 1),
            ("Defender".to_string(), "Yara".to_string(), 0),
        ]
    );
    assert_eq!(no_slots(&b), [("Defender".to_string(), "Zane".to_string())]);
    assert_eq!(
        attacks(&b)
            .into_iter()
            .map(|a| (a.1, a.2, a.5))
            .collect::<Vec<_>>(),
        [
            ("Ximen".to_string(), 3, "miss".to_string()),
            ("Yara".to_string(), 15, "hit".to_string()),
        ]
    );
    // Yara's free hit comes before its step: it is hit on (5, 2).
    let events = b.events();
    let yara = id(&b, "Yara");
    let hit_at = events
        .iter()
        .position(|e| matches!(e, Event::Damaged { unit, .. } if *unit == yara))
        .unwrap();
    let step_at = events
        .iter()
        .position(|e| matches!(e, Event::Moved { unit, .. } if *unit == yara))
        .unwrap();
    assert!(hit_at < step_at);
    assert_eq!(damage(&b), dmg(&[("Yara", 4, 6)]));
    assert_eq!(
        [cell(&b, "Ximen"), cell(&b, "Yara"), cell(&b, "Zane")],
        [c(3, 3), c(5, 1), c(7, 3)]
    );

    let b = run(path);
    assert_eq!(slots_by_round(&b, "Defender"), [2, 2]);
    let round2 = free_hits(&b)[2..].to_vec();
    assert_eq!(round2, [("Defender".to_string(), "Ximen".to_string(), 1)]);
    // The free hit comes after Ximen's 3rd step ((4, 4)) and before its 4th.
    let ximen = id(&b, "Ximen");
    let events = b.events();
    let second = events
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            matches!(e.narration::<WoundsEvent>(), Some(WoundsEvent::FreeHit { mover, .. }) if *mover == ximen)
        })
        .map(|(i, _)| i)
        .nth(1)
        .unwrap();
    let before: Vec<Cell> = events[..second]
        .iter()
        .filter_map(|e| match e {
            Event::Moved { unit, to, .. } if *unit == ximen => Some(*to),
            _ => None,
        })
        .collect();
    assert_eq!(before, [c(3, 3), c(4, 2), c(4, 3), c(4, 4)]);
    assert_eq!(cell(&b, "Ximen"), c(5, 4));
    assert_eq!(hp(&b, "Ximen"), 10);
    // W-GAP-07: the Garrison aimed each free hit as the scenario answers; Ximen's
    // move went on after the answer.
    let aims: Vec<String> = attack_rolls(&b, "Defender")
        .into_iter()
        .map(|r| r.purpose)
        .collect();
    assert_eq!(
        aims,
        ["Slowing", "Center Mass", "Fatal"]
            .map(|a| format!("a free hit with Shortsword, aimed {a}"))
    );
}

// ------------------------------------------------------------------ defense

/// W-EX-6 / W-13 / W-29 / W-30: against Agility +3 the defense is 13; flat-footed
/// (attacked by a Hidden unit, W-16) it is 5; prone (an on_hit Prone) 5 + 3 = 8;
/// Agility −2 prone: 3. W-16: the hidden attack adds the sneak d4 and the Sneak
/// attack feat's d4 (2 + 3 + 1 = 6), then the attacker is seen. W-10 / W-GAP-22:
/// its extra attack (Move Action + 2 Bonus Actions) is against 13 again, without
/// feats (no sneak dice) or Strength.
#[test]
fn w_ex_6_defense_numbers() {
    let b = run("levels/scenarios/wounds_defense.ron");
    assert_eq!(
        attacks(&b)
            .into_iter()
            .map(|a| (a.0, a.1, a.3, a.4))
            .collect::<Vec<_>>(),
        [
            ("Guard", "Duelist", 13, 13),
            ("Cutthroat", "Duelist", 6, 5),
            ("Cutthroat", "Duelist", 13, 13),
            ("Tripper", "Duelist", 18, 13),
            ("Tripper", "Lout", 15, 8),
            ("Guard 2", "Duelist", 8, 8),
            ("Guard 2", "Lout", 5, 3),
        ]
        .map(|(a, t, tot, d)| (a.to_string(), t.to_string(), tot, d))
    );
    assert!(attacks(&b).iter().all(|a| a.5 == "hit"));
    let sneak: Vec<(String, Vec<u32>)> = b
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Damaged { unit, faces, .. } => Some((b.unit_name(*unit), faces.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(sneak[1], ("Duelist".to_string(), vec![2, 3, 1]));
    assert_eq!(sneak[2], ("Duelist".to_string(), vec![1]));
    let extra = &attack_rolls(&b, "Cutthroat")[1];
    assert!(
        extra
            .purpose
            .starts_with("the extra attack (no Strength, no feats)"),
        "{extra:?}"
    );
    assert_eq!(
        spent(&b, "Cutthroat"),
        [
            ("attack".to_string(), "1 AA".to_string()),
            ("the extra attack".to_string(), "1 MA + 2 BA".to_string()),
        ]
    );
    assert!(!conditions(&b, "Cutthroat").contains(&"Hidden".to_string()));
    assert_eq!(
        damage(&b),
        dmg(&[
            ("Duelist", 3, 27),
            ("Duelist", 6, 21),
            ("Duelist", 1, 20),
            ("Duelist", 1, 19),
            ("Lout", 1, 29),
            ("Duelist", 2, 17),
            ("Lout", 3, 26),
        ]),
        "Guard 2's extra attack adds no Strength: d6 3 → 3"
    );
    // The sneak attack's 6 is a Center Mass wound: no effect, but kept as the
    // Duelist's most recent wound for healing (W-GAP-07, W-GAP-08, the default
    // `heal_center_mass`).
    assert_eq!(
        conditions(&b, "Duelist"),
        ["Wounded (Center Mass)", "Prone"]
    );
    assert_eq!(conditions(&b, "Lout"), ["Prone"]);
}

/// W-EX-7 / W-17 / W-GAP-09: Accuracy +4 with a Disrupting wound dealt in round 2
/// is +1 (−3) for the rest of round 2 and +3 (−1) from round 3. W-19 / W-GAP-08: a
/// healing instance of 3 HP leaves the wound; one of 8 HP (round 4) removes it:
/// +4 again.
#[test]
fn w_ex_7_disrupting_wound_and_its_healing() {
    let b = run("levels/scenarios/wounds_disrupting.ron");
    let marks: Vec<(i32, Vec<(String, i32)>)> = attack_rolls(&b, "Marksman")
        .into_iter()
        .map(|r| (r.total - r.faces[0] as i32, r.modifiers))
        .collect();
    let acc = |n| ("Accuracy".to_string(), n);
    let wounds = |n| ("wounds".to_string(), n);
    assert_eq!(
        marks,
        [
            (4, vec![acc(4)]),
            (1, vec![acc(4), wounds(-3)]),
            (3, vec![acc(4), wounds(-1)]),
            (4, vec![acc(4)]),
        ]
    );
    assert_eq!(
        wounds_dealt(&b),
        [("Marksman".to_string(), "Disrupting".to_string())]
    );
    let healed: Vec<(Vec<u32>, i32, i32)> = b
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Healed {
                faces, amount, hp, ..
            } => Some((faces.clone(), *amount, *hp)),
            _ => None,
        })
        .collect();
    assert_eq!(healed, [(vec![3], 3, 12), (vec![3, 3], 8, 20)]);
    let heals: Vec<String> = w_events(&b)
        .into_iter()
        .filter_map(|e| match e {
            WoundsEvent::WoundHealed { aim, .. } => Some(aim),
            _ => None,
        })
        .collect();
    assert_eq!(heals, ["Disrupting"], "only the 8 HP potion heals it");
    assert!(conditions(&b, "Marksman").is_empty());
    assert_eq!(state::mods(b.world(), id(&b, "Marksman")).accuracy, 0);
    assert_eq!(
        spent(&b, "Marksman")
            .into_iter()
            .filter(|(what, _)| what.starts_with("use"))
            .collect::<Vec<_>>(),
        [
            ("use Bandage".to_string(), "1 MA".to_string()),
            ("use Potion".to_string(), "1 MA".to_string()),
        ]
    );
}

// ------------------------------------------------------------------ movement

/// W-EX-8 / W-07 / W-09: the Move Action's 6 spaces and 2 Bonus Actions of 2 more
/// each: a 10-square Dash. W-GAP-20: 3 difficult squares cost 6. W-30 / W-GAP-19:
/// prone, floor(6 / 3) = 2 squares (3 are refused), then standing with a Bonus
/// Action. W-GAP-15: the 2 crawled steps inside the Tripper's zone draw no free
/// hit. W-17 / W-GAP-08 / W-10 / W-GAP-22: two Slowing wounds (the second from the
/// extra attack, no Strength: d8 6 = 6) leave the Move Action 2 spaces (3 refused),
/// Bonus Actions still +2 each. W-28 / W-GAP-25: disengaged, it leaves the Hacker's
/// zone with no free hit.
#[test]
fn w_ex_8_movement_with_bonus_actions_prone_and_slowing_wounds() {
    let path = "levels/scenarios/wounds_movement.ron";
    let b = run(path);
    assert_eq!(cell(&b, "Runner"), c(10, 0));
    assert_eq!(steps(&b, "Runner").len(), 10);
    assert_eq!(
        spent(&b, "Runner"),
        [
            ("move".to_string(), "1 MA".to_string()),
            ("2 more spaces".to_string(), "1 BA".to_string()),
            ("2 more spaces".to_string(), "1 BA".to_string()),
        ]
    );
    assert_eq!(
        steps(&b, "Wader"),
        [(c(1, 2), 2), (c(2, 2), 2), (c(3, 2), 2)]
    );
    assert_eq!(cell(&b, "Crawler"), c(1, 5));
    assert!(conditions(&b, "Crawler").is_empty(), "it stood up");
    assert_eq!(
        spent(&b, "Crawler"),
        [
            ("move".to_string(), "1 MA".to_string()),
            ("stand up".to_string(), "1 BA".to_string()),
        ]
    );
    assert_eq!(
        wounds_dealt(&b),
        [
            ("Limper".to_string(), "Slowing".to_string()),
            ("Limper".to_string(), "Slowing".to_string()),
        ]
    );
    assert_eq!(damage(&b)[1..], dmg(&[("Limper", 6, 14), ("Limper", 6, 8)]));
    assert_eq!(state::mods(b.world(), id(&b, "Limper")).movement, -4);
    assert_eq!(cell(&b, "Limper"), c(13, 5));
    assert_eq!(steps(&b, "Limper").len(), 6);
    assert_eq!(
        spent(&b, "Limper"),
        [
            ("Disengage".to_string(), "1 AA".to_string()),
            ("move".to_string(), "1 MA".to_string()),
            ("2 more spaces".to_string(), "1 BA".to_string()),
            ("2 more spaces".to_string(), "1 BA".to_string()),
        ]
    );
    assert!(free_hits(&b).is_empty() && no_slots(&b).is_empty());

    // The Wader has spent its 6: one more square (even open ground) is refused.
    let mut b = run_first(path, 8);
    let err = b.submit(mv(&b, "Wader", "Move", &[(4, 2)])).unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::NotEnoughMovement {
                cost: 1,
                budget: 0,
                ..
            }
        ),
        "{err:?}"
    );
    // Prone: 2 squares, not 3.
    b.submit(Command::EndTurn {
        unit: id(&b, "Wader"),
    })
    .unwrap();
    let err = b
        .submit(mv(&b, "Crawler", "Move", &[(2, 5), (1, 5), (0, 5)]))
        .unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::NotEnoughMovement {
                cost: 3,
                budget: 2,
                ..
            }
        ),
        "{err:?}"
    );
    // Two Slowing wounds: the Move Action gives 2, not 3.
    let mut b = run_first(path, 13);
    let err = b
        .submit(mv(&b, "Limper", "Move", &[(9, 4), (10, 4), (11, 4)]))
        .unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::NotEnoughMovement {
                cost: 3,
                budget: 2,
                ..
            }
        ),
        "{err:?}"
    );
}

/// W-GAP-24: no moving through enemies; an ally's square may be passed but not
/// ended on.
#[test]
fn w_gap_24_allies_are_passable_enemies_are_not() {
    let b = run_first("levels/scenarios/wounds_delay.ron", 0);
    assert_eq!(cell(&b, "Bo"), c(1, 2));
    b.check(&mv(&b, "Ada", "Move", &[(1, 2), (2, 3)]))
        .expect("through Bo, an ally");
    let err = b.check(&mv(&b, "Ada", "Move", &[(1, 2)])).unwrap_err();
    assert!(
        matches!(&err, CommandError::PathBlocked(why) if why.contains("can't end on (1, 2)")),
        "{err:?}"
    );
    let through: Vec<(i32, i32)> = (2..=9).map(|x| (x, 1)).collect();
    let err = b.check(&mv(&b, "Ada", "Dash", &through)).unwrap_err();
    assert!(
        matches!(&err, CommandError::PathBlocked(why) if why.contains("an enemy stands on (8, 1)")),
        "{err:?}"
    );
}

/// W-08: a Hidden unit sneaks at half speed: 3 of its 6 spaces. W-11 /
/// W-28: Disengage paid with 2 Bonus Actions. W-09 / W-GAP-13: a Bonus Action of
/// dodge adds +1 to the defense (the wounded bandit's 11 becomes 12) until the
/// unit's next turn; +1 to hit and +1 melee damage show in the attack's numbers.
#[test]
fn w_08_w_11_w_gap_13_sneaking_disengage_with_bonus_actions_and_boosts() {
    let b = run_first("levels/scenarios/wounds_defense.ron", 2);
    assert_eq!(conditions(&b, "Cutthroat"), ["Hidden"]);
    let far = [(3, 0), (4, 0), (5, 0), (6, 0)];
    let err = b.check(&mv(&b, "Cutthroat", "Move", &far)).unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::NotEnoughMovement {
                cost: 4,
                budget: 3,
                ..
            }
        ),
        "{err:?}"
    );
    b.check(&mv(&b, "Cutthroat", "Move", &far[..3]))
        .expect("3 squares sneaking");

    let mut b = run_first("levels/scenarios/wounds_ex1_wound.ron", 4);
    let bandit = id(&b, "Bandit");
    let act = |verb: &str, args: Args| Command::Act {
        unit: bandit,
        verb: verb.into(),
        args,
    };
    b.submit(act(
        "Disengage",
        Args::new().with("pay", ArgValue::Choice("BA".into())),
    ))
    .unwrap();
    assert_eq!(
        spent(&b, "Bandit"),
        [("Disengage".to_string(), "2 BA".to_string())]
    );
    let err = b.submit(act("Dodge", Args::new())).unwrap_err();
    assert!(
        matches!(&err, CommandError::Forbidden(why) if why.contains("no Bonus Action left")),
        "{err:?}"
    );
    let defense = |b: &Battle| {
        attack::swing(
            b.world(),
            id(b, "Swordsman"),
            bandit,
            None,
            Some("Slowing"),
            attack::Kind::Normal,
        )
        .unwrap()
        .defense
    };
    assert_eq!(defense(&b), 11);

    let mut b = run_first("levels/scenarios/wounds_ex1_wound.ron", 4);
    b.submit(act("Dodge", Args::new())).unwrap();
    assert_eq!(defense(&b), 12, "dodging: 11 + 1");
    b.submit(act("HitBoost", Args::new())).unwrap();
    let s = attack::swing(
        b.world(),
        bandit,
        id(&b, "Swordsman"),
        None,
        Some("Slowing"),
        attack::Kind::Normal,
    )
    .unwrap();
    assert!(
        s.parts
            .iter()
            .any(|p| p.name == "Bonus Action" && p.value == 1),
        "{:?}",
        s.parts
    );
    assert_eq!(
        spent(&b, "Bandit"),
        [
            ("+1 dodge".to_string(), "1 BA".to_string()),
            ("+1 to hit".to_string(), "1 BA".to_string()),
        ]
    );
}

// ------------------------------------------------------------------ turn order

/// W-02 / W-03 / W-GAP-10 / W-GAP-11: the order is fixed by Agility, highest
/// first; Cy and Dot tie at +1 and roll a d20 each in roster order (6, 14: Dot
/// first); the Initiator side acts last whatever its Agility, its units by
/// Agility. W-04 / W-GAP-12: Ada delays until after Cy in round 1 and is back in
/// its place in round 2. Delay is refused after acting and after a unit that does
/// not act later this round.
#[test]
fn w_04_delay_and_initiators_last() {
    let path = "levels/scenarios/wounds_delay.ron";
    let b = run(path);
    let order = w_events(&b)
        .into_iter()
        .find_map(|e| match e {
            WoundsEvent::OrderFixed { order } => Some(order),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        order.iter().map(|&u| b.unit_name(u)).collect::<Vec<_>>(),
        ["Ada", "Bo", "Dot", "Cy", "Ambusher", "Lurker"]
    );
    assert_eq!(
        turns(&b),
        [
            "Ada", "Bo", "Dot", "Cy", "Ada", "Ambusher", "Lurker", // round 1
            "Ada", "Bo", "Dot", "Cy", "Ambusher", "Lurker", // round 2
            "Ada",    // round 3
        ]
    );
    assert!(w_events(&b).iter().any(|e| matches!(
        e,
        WoundsEvent::Delayed { unit, after } if *unit == id(&b, "Ada") && *after == id(&b, "Cy")
    )));

    // Round 2, Ada's turn: after a move, no Delay.
    let mut b = run_first(path, 7);
    b.submit(mv(&b, "Ada", "Move", &[(2, 1)])).unwrap();
    let err = b.submit(delay(&b, "Ada", "Cy")).unwrap_err();
    assert!(
        matches!(&err, CommandError::Forbidden(why) if why.contains("before any action")),
        "{err:?}"
    );
    // Bo can't wait for Ada, who has acted this round.
    b.submit(Command::EndTurn {
        unit: id(&b, "Ada"),
    })
    .unwrap();
    let err = b.submit(delay(&b, "Bo", "Ada")).unwrap_err();
    assert!(
        matches!(&err, CommandError::NoSuchTarget(why) if why.contains("does not act later")),
        "{err:?}"
    );
}

/// W-GAP-23 / W-32: a unit Summoned as the battle starts can't act in round 1
/// (its turn passes by itself), is flat-footed (hit on 5 despite Agility +3) and
/// makes no free hit when an enemy leaves its zone; in round 2 it acts and its
/// defense is 13. W-12 / W-33: a Cast 3 spell paid with the Attack and Move Actions
/// is channeled (Channeling, flat-footed: 5 instead of 11), costs its MP at once,
/// and goes off at the start of the caster's next turn with the last action: a
/// spell rolls with no aim and no Center Mass bonus.
#[test]
fn w_gap_23_summoning_sickness_and_a_channeled_spell() {
    let path = "levels/scenarios/wounds_summoned.ron";
    let b = run_first(path, 5);
    assert!(w_events(&b).iter().any(|e| matches!(
        e,
        WoundsEvent::CannotAct { unit, .. } if *unit == id(&b, "Wolf")
    )));
    assert!(free_hits(&b).is_empty() && no_slots(&b).is_empty());
    assert_eq!(cell(&b, "Goblin"), c(5, 2));
    assert_eq!(conditions(&b, "Conjurer"), ["Channeling"]);
    assert_eq!(state::wu(b.world(), id(&b, "Conjurer")).mp, 4);
    assert_eq!(
        spent(&b, "Conjurer"),
        [
            ("cast time of Firebolt".to_string(), "1 AA".to_string()),
            ("cast time of Firebolt".to_string(), "1 MA".to_string()),
        ]
    );

    let b = run(path);
    assert_eq!(
        attacks(&b)
            .into_iter()
            .map(|a| (a.0, a.1, a.3, a.4, a.5))
            .collect::<Vec<_>>(),
        [
            ("Goblin", "Wolf", 6, 5, "hit"),
            ("Slinger", "Conjurer", 5, 5, "hit"),
            ("Wolf", "Goblin", 12, 12, "hit"),
            ("Goblin", "Wolf", 12, 13, "miss"),
            ("Conjurer", "Goblin", 12, 12, "hit"),
            ("Slinger", "Conjurer", 5, 11, "miss"),
        ]
        .map(|(a, t, tot, d, o)| (a.to_string(), t.to_string(), tot, d, o.to_string()))
    );
    let bolt = &attack_rolls(&b, "Conjurer")[0];
    assert_eq!(bolt.purpose, "an attack with Firebolt");
    assert_eq!(bolt.modifiers, [("Accuracy".to_string(), 2)]);
    assert_eq!(
        damage(&b),
        dmg(&[
            ("Wolf", 3, 17),
            ("Conjurer", 2, 18),
            ("Goblin", 4, 16),
            ("Goblin", 7, 9),
        ])
    );
    assert!(conditions(&b, "Conjurer").is_empty());
    assert_eq!(
        spent(&b, "Conjurer")[2..],
        [("cast time of Firebolt".to_string(), "1 AA".to_string())]
    );
}

/// W-33 / W-12: while a unit channels a spell its Attack and Move Actions go to the
/// spell, and the rules refuse its moves; the legal commands offered to the AI must
/// not include them.
#[test]
fn w_33_a_channeling_unit_is_offered_no_move() {
    let b = run_first("levels/scenarios/wounds_summoned.ron", 4);
    assert_eq!(conditions(&b, "Conjurer"), ["Channeling"]);
    let refused: Vec<(Command, CommandError)> = b
        .legal_commands()
        .into_iter()
        .filter_map(|cmd| b.check(&cmd).err().map(|e| (cmd, e)))
        .collect();
    assert!(refused.is_empty(), "{refused:#?}");
}

// ------------------------------------------------------------------ content

/// The Ravine Road: a 22×15 square map with difficult ground and walls, 4 PCs
/// against 6 enemies that started the fight (the side trait `Initiator`), with the
/// weapons and feats of §3: Reach, a Longbow and a Shortbow, a Greataxe in Heavy
/// armor, a Hidden cutthroat with Sneak attack and spells. It sets up with them
/// read (level data; `wounds_plays.rs` plays it to its end with the AI).
#[test]
fn the_ravine_road_has_the_promised_shape() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/wounds_ravine.ron");
    let level = skirmish::level::load_file(&path).expect("the level loads");
    assert_eq!((level.ruleset.as_str(), level.size), ("wounds", (22, 15)));
    let text: String = level.terrain.concat();
    assert!(text.contains('~') && text.contains('#'));
    let on = |side: &str| level.units.iter().filter(|u| u.side == side).count();
    assert_eq!((on("Caravan"), on("Warband")), (4, 6));
    assert!(level.sides[1].traits.contains(&"Initiator".to_string()));
    let warband = |what: &dyn Fn(&skirmish::level::schema::UnitDef) -> bool| {
        level.units.iter().any(|u| u.side == "Warband" && what(u))
    };
    let has_power = |name: &'static str| {
        move |u: &skirmish::level::schema::UnitDef| u.powers.iter().any(|p| p.name == name)
    };
    let has_trait = |name: &'static str| {
        move |u: &skirmish::level::schema::UnitDef| u.traits.iter().any(|t| t == name)
    };
    assert!(warband(&|u| has_trait("Reach")(u)));
    assert!(warband(&|u| has_power("Longbow")(u)));
    assert!(warband(&|u| has_power("Shortbow")(u)));
    assert!(warband(
        &|u| has_power("Greataxe")(u) && has_trait("Heavy armor")(u)
    ));
    assert!(warband(
        &|u| has_trait("Hidden")(u) && has_trait("Sneak attack")(u)
    ));
    assert!(warband(&|u| u
        .powers
        .iter()
        .any(|p| p.traits.iter().any(|t| t.starts_with("Cast")))));

    let b = new_battle(&level, Dice::seeded(3)).expect("it sets up");
    let pike = state::wu(b.world(), id(&b, "Pikeman"));
    assert_eq!(pike.zone, 2);
    let brute = state::wu(b.world(), id(&b, "Brute"));
    assert_eq!(brute.armor, 3);
    assert_eq!(conditions(&b, "Cutthroat"), ["Hidden"]);
}

/// The `wounds` unit templates (assets/units/wounds_*.ron): a swordsman, a Reach
/// spearman, a bowman, a Greataxe brute in heavy armor, a Hidden cutthroat with
/// Sneak attack and a caster with a Cast 2 spell: they load and check, and placed
/// in a level they set up with those feats (level data only).
#[test]
fn wounds_templates_place_and_set_up() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/units");
    let templates = skirmish::editor::templates::load_templates(&dir).expect("templates load");
    let mine: Vec<_> = templates.iter().filter(|t| t.ruleset == "wounds").collect();
    let mut names: Vec<&str> = mine.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "Axe Brute",
            "Bowman",
            "Cutthroat",
            "Hedge Mage",
            "Spearman",
            "Swordsman"
        ]
    );
    assert!(mine.iter().all(|t| !t.about.is_empty()));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/wounds_ravine.ron");
    let mut level = skirmish::level::load_file(&path).expect("the level loads");
    level.units.clear();
    for (i, t) in mine.iter().enumerate() {
        let side = if i % 2 == 0 { "Caravan" } else { "Warband" };
        let x = if side == "Caravan" { 0 } else { 21 };
        level
            .units
            .push(t.unit(&t.name, side, Cell::new(x, i as i32)));
    }
    let b = new_battle(&level, Dice::seeded(1))
        .unwrap_or_else(|e| panic!("the templates' units set up: {e}"));
    let w = |name: &str| state::wu(b.world(), id(&b, name)).clone();
    assert_eq!(w("Spearman").zone, 2);
    assert_eq!(w("Axe Brute").armor, 3);
    assert_eq!(w("Swordsman").armor, 2);
    assert_eq!(w("Swordsman").feats.weapon_focus, ["Longsword"]);
    assert!(w("Cutthroat").hidden && w("Cutthroat").feats.sneak_attack);
    assert_eq!(w("Hedge Mage").mp, 8);
    assert!(matches!(b.awaiting(), Awaiting::Unit(..)));
}

// ------------------------------------------------------------------ bad scripted dice

/// A `wounds` scenario file with two Agility +1 units tied for the turn order
/// (W-GAP-10: a d20 roll-off), the Guard next to the Thief, with these `dice` and
/// `commands`; `skirmish script` run on it: (exit code, stdout, stderr).
fn script_tied_duel(name: &str, dice: &str, commands: &str) -> (Option<i32>, String, String) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("wounds-dice-{name}"));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join("s.ron");
    std::fs::write(
        &path,
        format!(
            r#"Scenario(
    level: Inline((
        name: "Tied",
        ruleset: "wounds",
        grid: Square,
        size: (6, 3),
        sides: [(name: "Watch", traits: ["PCs"]), (name: "Gang", traits: ["Enemies"])],
        units: [
            (name: "Guard", side: "Watch", pos: (2, 1),
             stats: {{"Agility": 1, "Accuracy": 2, "Strength": 0}}, powers: [(name: "Shortsword")]),
            (name: "Thief", side: "Gang", pos: (3, 1),
             stats: {{"Agility": 1, "Accuracy": 1, "Strength": 0}}, powers: [(name: "Dagger")]),
        ],
    )),
    decisions: {{"Watch": Never, "Gang": Never}},
    dice: {dice},
    commands: [{commands}],
)
"#
        ),
    )
    .expect("write scenario");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .arg("script")
        .arg(&path)
        .output()
        .expect("run skirmish script");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// W-GAP-10 bad input: a `wounds` scenario whose scripted dice are empty is refused
/// like every other ruleset's ("the scripted dice ran out"), exit code 1, no crash
/// (the tie roll-off used to recurse for ever and overflow the stack).
#[test]
fn w_gap_10_empty_scripted_dice_are_refused_not_a_crash() {
    let (code, _, err) = script_tied_duel("empty", "Faces([])", "");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("the scripted dice ran out: a d20 was asked for after all 0 faces were used"),
        "{err}"
    );
    assert!(
        !err.contains("overflow") && !err.contains("panicked"),
        "{err}"
    );
}

/// W-GAP-10 / W-21 bad input: a scripted face the die can't roll is refused with
/// its place in the script: a 25 for the tie-break d20, and a 7 for the crit
/// chain's d4 after a natural 20 (W-20, W-21).
#[test]
fn w_gap_10_w_21_an_impossible_scripted_face_is_refused() {
    let (code, _, err) = script_tied_duel("face-d20", "Faces([25])", "");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("scripted face #1 is 25, which a d20 cannot roll"),
        "{err}"
    );
    // The tie: Guard 9, Thief 4, so the Guard acts first; its d20 20 is a crit and
    // the chain's d4 shows 7.
    let (code, out, err) = script_tied_duel(
        "face-d4",
        "Faces([9, 4, 20, 7])",
        r#"Attack(unit: "Guard", target: "Thief")"#,
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("command #1"), "{err}");
    assert!(
        err.contains("scripted face #4 is 7, which a d4 cannot roll"),
        "{err}"
    );
    assert!(out.contains("natural 20: critical hit"), "{out}");
}

/// W-GAP-10 bad input: a long run of sixes keeps the two tied units tied. 50 sixes
/// run out in the roll-off: refused as dice that ran out. 201 sixes: after
/// MAX_ROLL_OFF_ROUNDS (100) rounds of equal faces the units keep their roster order
/// (Guard, then Thief) and the battle goes on with the faces left: the Guard's
/// d20 6 + 2 misses the Thief's 11.
#[test]
fn w_gap_10_a_long_run_of_sixes_ends_the_roll_off() {
    let sixes = |n: usize| format!("Faces([{}])", vec!["6"; n].join(", "));
    let (code, _, err) = script_tied_duel("sixes-50", &sixes(50), "");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("the scripted dice ran out: a d20 was asked for after all 50 faces were used"),
        "{err}"
    );
    let rounds = skirmish::engine::initiative::MAX_ROLL_OFF_ROUNDS as usize;
    let (code, out, err) = script_tied_duel(
        "sixes-201",
        &sixes(2 * rounds + 1),
        r#"Attack(unit: "Guard", target: "Thief")"#,
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out.matches("rolls 6 to break a tie").count(),
        2 * rounds,
        "{out}"
    );
    assert!(
        out.contains("Turn order for the battle: Guard, Thief"),
        "{out}"
    );
    assert!(
        out.contains("against Thief: d20 [6] +2 Accuracy +1 Center Mass = 9 vs 11: miss"),
        "{out}"
    );
}
