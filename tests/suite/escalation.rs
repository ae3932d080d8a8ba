//! `escalation` (RULES.md §2) played through the engine with scripted dice: the turn
//! structure, actions, movement, opportunity attacks, Ready, dying, fleeing, and the
//! typed refusals of illegal commands. Each test names the rule ids it checks.

use skirmish::engine::command::CommandError;
use skirmish::engine::dice::Dice;
use skirmish::engine::event::Event;
use skirmish::engine::rulesets::new_battle;
use skirmish::engine::units::{PlayState, UnitId};
use skirmish::engine::verb::{ArgValue, Args};
use skirmish::engine::{Awaiting, Battle, Command};
use skirmish::level::schema::*;

use crate::common::{c, cell, hp, id};

/// An escalation unit: Level 2, Volition 3, AC 15 by default.
pub(crate) fn eu(name: &str, side: &str, pos: (i32, i32), hp: i32) -> UnitDef {
    UnitDef {
        name: name.into(),
        side: side.into(),
        pos,
        stats: [
            ("Level", 2),
            ("Volition", 3),
            ("HP", hp),
            ("AC", 15),
            ("PD", 13),
            ("MD", 12),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect(),
        ..Default::default()
    }
}

pub(crate) fn with(mut u: UnitDef, traits: &[&str]) -> UnitDef {
    u.traits = traits.iter().map(|t| t.to_string()).collect();
    u
}

pub(crate) fn stat(mut u: UnitDef, k: &str, v: i32) -> UnitDef {
    u.stats.insert(k.into(), v);
    u
}

/// Heroes (PCs) against Foes on an open square map; nobody is asked anything.
pub(crate) fn level(size: (u32, u32), terrain: &[&str], units: Vec<UnitDef>) -> Level {
    let mut l = crate::common::level(size, terrain, units);
    l.ruleset = "escalation".into();
    for (side, name) in l.sides.iter_mut().zip(["Heroes", "Foes"]) {
        side.name = name.into();
    }
    l
}

pub(crate) fn battle(level: &Level, faces: &[u32]) -> Battle {
    new_battle(level, Dice::scripted(faces.iter().copied())).expect("level sets up")
}

pub(crate) fn mv(b: &Battle, unit: &str, path: &[(i32, i32)]) -> Command {
    Command::move_along(
        id(b, unit),
        "Move",
        path.iter().map(|&(x, y)| c(x, y)).collect(),
    )
}

pub(crate) fn attack(b: &Battle, unit: &str, target: &str) -> Command {
    Command::attack(id(b, unit), id(b, target), None)
}

pub(crate) fn act(b: &Battle, unit: &str, verb: &str, args: &[(&str, ArgValue)]) -> Command {
    Command::Act {
        unit: id(b, unit),
        verb: verb.into(),
        args: args
            .iter()
            .fold(Args::new(), |a, (n, v)| a.with(n, v.clone())),
    }
}

pub(crate) fn end(b: &mut Battle, unit: &str) {
    let u = id(b, unit);
    b.submit(Command::EndTurn { unit: u }).expect("end turn");
}

pub(crate) fn active(b: &Battle) -> Option<UnitId> {
    match b.awaiting() {
        Awaiting::Unit(u, _) => Some(u),
        _ => None,
    }
}

pub(crate) fn state(b: &Battle, name: &str) -> PlayState {
    b.units()
        .into_iter()
        .find(|u| u.name == name)
        .map(|u| u.state)
        .expect("unit")
}

pub(crate) fn rolls(events: &[Event]) -> Vec<(String, i32, Option<i32>, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Rolled {
                purpose,
                total,
                target,
                outcome,
                ..
            } => Some((purpose.clone(), *total, *target, outcome.clone())),
            _ => None,
        })
        .collect()
}

/// E-16 / E-GAP-09: bands act in order and PCs before enemies within a band; with
/// several of one side's units in a group, that side picks who goes next (a pending
/// decision whose options are its units, roster order first).
#[test]
fn e_16_e_gap_09_bands_pcs_first_and_the_side_picks() {
    let mut l = level(
        (12, 4),
        &[],
        vec![
            eu("Slowpoke", "Heroes", (0, 0), 20),
            with(eu("Quick", "Heroes", (0, 1), 20), &["Fast"]),
            eu("Steady", "Heroes", (0, 2), 20),
            with(eu("Orc", "Foes", (11, 0), 20), &["Fast"]),
        ],
    );
    l.units[0] = with(l.units[0].clone(), &["Slow"]);
    l.sides[0].decisions = DecisionPolicy::Ask;
    let mut b = battle(&l, &[]);
    // Fast: the PC Quick before the enemy Orc.
    assert_eq!(active(&b), Some(id(&b, "Quick")));
    end(&mut b, "Quick");
    assert_eq!(active(&b), Some(id(&b, "Orc")));
    end(&mut b, "Orc");
    // Medium has one PC (Steady); then Slow (Slowpoke).
    assert_eq!(active(&b), Some(id(&b, "Steady")));
    end(&mut b, "Steady");
    assert_eq!(active(&b), Some(id(&b, "Slowpoke")));
    // Two Medium heroes in one group: the Heroes pick.
    let mut l2 = level(
        (12, 4),
        &[],
        vec![
            eu("A", "Heroes", (0, 0), 20),
            eu("B", "Heroes", (0, 2), 20),
            eu("Orc", "Foes", (11, 0), 20),
        ],
    );
    l2.sides[0].decisions = DecisionPolicy::Ask;
    let mut b = battle(&l2, &[]);
    let Awaiting::Decision(d) = b.awaiting() else {
        panic!("expected the band decision, got {:?}", b.awaiting());
    };
    assert_eq!(d.options.len(), 2);
    assert!(
        d.options[0].value > d.options[1].value,
        "roster order first"
    );
    let pick_b = d.options[1].command.clone();
    b.submit(pick_b).unwrap();
    assert_eq!(active(&b), Some(id(&b, "B")));
    end(&mut b, "B");
    assert_eq!(
        active(&b),
        Some(id(&b, "A")),
        "the last of the group needs no pick"
    );
}

/// E-21 / E-22 / E-GAP-20: a Move, then a second Move paid with the Standard
/// action; then no attack is left, and the refusal says so.
#[test]
fn e_21_e_22_standard_as_move_then_no_attack() {
    let l = level(
        (20, 3),
        &[],
        vec![
            eu("Hero", "Heroes", (0, 1), 20),
            eu("Orc", "Foes", (19, 1), 20),
        ],
    );
    let mut b = battle(&l, &[]);
    let steps: Vec<(i32, i32)> = (1..=6).map(|x| (x, 1)).collect();
    b.submit(mv(&b, "Hero", &steps)).unwrap();
    let more: Vec<(i32, i32)> = (7..=12).map(|x| (x, 1)).collect();
    b.submit(mv(&b, "Hero", &more)).unwrap();
    assert_eq!(cell(&b, "Hero"), c(12, 1));
    let err = b.check(&mv(&b, "Hero", &[(13, 1)])).unwrap_err();
    assert!(err.to_string().contains("no Move action left"), "{err}");
    let err = b.check(&attack(&b, "Hero", "Orc")).unwrap_err();
    assert!(err.to_string().contains("no Standard action left"), "{err}");
}

/// E-33 / E-34 / E-GAP-01: an enemy Nearby (7 squares) can be engaged with one Move
/// action (6 squares); one Far away (10) needs two.
#[test]
fn e_33_e_34_nearby_takes_one_move_far_takes_two() {
    let l = level(
        (20, 3),
        &[],
        vec![
            eu("Hero", "Heroes", (0, 1), 20),
            eu("Near", "Foes", (7, 0), 20),
            eu("Far", "Foes", (10, 2), 20),
        ],
    );
    let b = battle(&l, &[]);
    // Next to Near (6, 0)..(6, 1): 6 squares.
    let to_near: Vec<(i32, i32)> = (1..=6).map(|x| (x, 1)).collect();
    assert!(b.check(&mv(&b, "Hero", &to_near)).is_ok(), "E-33");
    // Next to Far at (9, 2) is 9 squares: more than one Move.
    let to_far: Vec<(i32, i32)> = (1..=9).map(|x| (x, 1)).collect();
    let err = b.check(&mv(&b, "Hero", &to_far)).unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::NotEnoughMovement {
                cost: 9,
                budget: 6,
                ..
            }
        ),
        "E-34: {err}"
    );
    // A melee attack on the Far enemy is refused with its band in words.
    let err = b.check(&attack(&b, "Hero", "Far")).unwrap_err();
    assert!(err.to_string().contains("Far (10 squares away)"), "{err}");
}

/// E-GAP-14: difficult terrain costs 2 squares of movement per square.
#[test]
fn e_gap_14_difficult_terrain_costs_two() {
    let l = level(
        (10, 1),
        &[".~~~~....."],
        vec![
            eu("Hero", "Heroes", (0, 0), 20),
            eu("Orc", "Foes", (9, 0), 20),
        ],
    );
    let b = battle(&l, &[]);
    assert!(b.check(&mv(&b, "Hero", &[(1, 0), (2, 0), (3, 0)])).is_ok());
    let err = b
        .check(&mv(&b, "Hero", &[(1, 0), (2, 0), (3, 0), (4, 0)]))
        .unwrap_err();
    assert!(
        matches!(err, CommandError::NotEnoughMovement { cost: 8, .. }),
        "{err}"
    );
}

/// E-08 / E-36 / E-38 / E-GAP-08 / E-GAP-12 / E-25: a Ranged-stance PC shoots an
/// enemy 12 squares away; engaged, its ranged attack first provokes a free
/// opportunity attack from the engaged enemy in Melee stance (no action of its own).
#[test]
fn e_08_e_36_ranged_attack_far_and_provoking_when_engaged() {
    let l = level(
        (14, 3),
        &[],
        vec![
            with(eu("Archer", "Heroes", (0, 1), 20), &["Ranged"]),
            eu("Orc", "Foes", (12, 1), 20),
            eu("Brute", "Foes", (1, 1), 20),
        ],
    );
    // The Brute's opportunity attack: 3d6 [6, 6, 5] = 17, a crit; damage 2d8 [1, 1].
    // The Archer's shot: [5, 5, 5] + 5 = 20 vs AC 15, hit; damage 2d6 [3, 4] + 3.
    let mut b = battle(&l, &[6, 6, 5, 1, 1, 5, 5, 5, 3, 4]);
    let events = b.submit(attack(&b, "Archer", "Orc")).unwrap().to_vec();
    let r = rolls(&events);
    assert!(r[0].0.starts_with("an opportunity attack"), "{r:?}");
    assert_eq!(r[0].3, "crit");
    // Crit damage doubled (E-GAP-07): (1 + 1 + 3) × 2 = 10.
    assert_eq!(hp(&b, "Archer"), 10);
    assert_eq!(
        r[1].0, "Basic Ranged Attack vs AC",
        "E-02: the roll names its defense"
    );
    assert_eq!((r[1].1, r[1].3.as_str()), (20, "hit"));
    assert_eq!(hp(&b, "Orc"), 20 - 10);
}

/// E-38 / E-GAP-12: moving away from an engaged enemy in Melee stance provokes one
/// opportunity attack before the first step; one in Ranged stance does not.
#[test]
fn e_38_moving_away_provokes_only_melee_stance_enemies() {
    let l = level(
        (10, 3),
        &[],
        vec![
            eu("Hero", "Heroes", (1, 1), 20),
            eu("Orc", "Foes", (0, 1), 20),
            with(eu("Slinger", "Foes", (2, 1), 20), &["Ranged"]),
        ],
    );
    // Orc's opportunity attack misses: [1, 2, 2] + 5 = 10 vs 15.
    let mut b = battle(&l, &[1, 2, 2]);
    let events = b.submit(mv(&b, "Hero", &[(1, 2), (1, 3 - 1)])).err();
    assert!(events.is_some(), "a path must be adjacent steps");
    let events = b
        .submit(mv(&b, "Hero", &[(2, 2), (3, 2)]))
        .unwrap()
        .to_vec();
    let r = rolls(&events);
    assert_eq!(r.len(), 1, "only the Orc: {r:?}");
    let first_move = events
        .iter()
        .position(|e| matches!(e, Event::Moved { .. }))
        .unwrap();
    let roll = events
        .iter()
        .position(|e| matches!(e, Event::Rolled { .. }))
        .unwrap();
    assert!(roll < first_move, "resolved before the first step");
    assert_eq!(cell(&b, "Hero"), c(3, 2));
}

/// E-37 / E-GAP-11: Disengage when not engaged is refused, and so is an attack
/// out of reach, each in words. (Rally with no Recoveries is allowed, halved, E-47:
/// `escalation_seed.rs::e_47_rally_with_no_recoveries_heals_half_and_weakens`.)
#[test]
fn e_37_refusals_in_words() {
    let l = level(
        (10, 3),
        &[],
        vec![
            stat(eu("Hero", "Heroes", (0, 1), 20), "Recoveries", 0),
            eu("Orc", "Foes", (9, 1), 20),
        ],
    );
    let b = battle(&l, &[]);
    let err = b
        .check(&act(
            &b,
            "Hero",
            "Disengage",
            &[("to", ArgValue::Cell(c(1, 1)))],
        ))
        .unwrap_err();
    assert!(err.to_string().contains("not engaged"), "{err}");
    let err = b.check(&attack(&b, "Hero", "Orc")).unwrap_err();
    assert!(
        err.to_string().contains("Nearby (9 squares away)") || err.to_string().contains("Far"),
        "{err}"
    );
}

/// E-46 / E-49 / E-GAP-15 / E-51 / E-GAP-23: an enemy at 0 HP dies; a PC at 0 is
/// Dying and keeps its cell; an ally next to it stabilizes it, and then a failed
/// death save does not count toward death.
#[test]
fn e_46_e_51_dying_pc_is_stabilized() {
    let l = level(
        (10, 3),
        &[],
        vec![
            with(eu("Hero", "Heroes", (1, 1), 11), &["Fast"]),
            eu("Friend", "Heroes", (1, 2), 20),
            eu("Orc", "Foes", (2, 1), 6),
        ],
    );
    // Hero (Fast) hits the Orc: [6, 5, 4] + 5 = 20; 2d8 [1, 1] + 3 = 5 of 6 HP.
    // Friend ends. Orc hits Hero: [5, 5, 5] + 5; 2d8 [4, 4] + 3 = 11: Hero at 0.
    // Round 2: Hero is Fast and saves first: [1, 2, 3] = 6 < 13, failure 1. Friend
    // stabilizes it. Orc ends. Round 3: Hero's save [1, 1, 1] fails, not counted.
    let faces = [6, 5, 4, 1, 1, 5, 5, 5, 4, 4, 1, 2, 3, 1, 1, 1];
    let mut b = battle(&l, &faces);
    b.submit(attack(&b, "Hero", "Orc")).unwrap();
    assert_eq!(hp(&b, "Orc"), 1);
    end(&mut b, "Hero");
    end(&mut b, "Friend");
    b.submit(attack(&b, "Orc", "Hero")).unwrap();
    assert_eq!(state(&b, "Hero"), PlayState::Dying, "E-46: a PC is Dying");
    assert_eq!(cell(&b, "Hero"), c(1, 1));
    end(&mut b, "Orc");
    // Round 2: the death save at the start of Hero's turn fails; its turn ends.
    assert_eq!(active(&b), Some(id(&b, "Friend")));
    let pools = b.pools(id(&b, "Hero"));
    assert!(
        pools.contains(&("Death saves failed".to_string(), 1)),
        "{pools:?}"
    );
    b.submit(act(
        &b,
        "Friend",
        "Stabilize",
        &[("target", ArgValue::Unit(id(&b, "Hero")))],
    ))
    .unwrap();
    end(&mut b, "Friend");
    end(&mut b, "Orc");
    let pools = b.pools(id(&b, "Hero"));
    assert!(
        pools.contains(&("Death saves failed".to_string(), 1)),
        "E-51: {pools:?}"
    );
    assert_eq!(state(&b, "Hero"), PlayState::Dying);
}

/// E-42 / E-GAP-22: fleeing ends the battle as a loss for the side that flees.
#[test]
fn e_42_e_gap_22_flee_loses_the_battle() {
    let l = level(
        (10, 3),
        &[],
        vec![
            eu("Hero", "Heroes", (0, 1), 20),
            eu("Orc", "Foes", (9, 1), 20),
        ],
    );
    let mut b = battle(&l, &[]);
    b.submit(act(&b, "Hero", "Flee", &[])).unwrap();
    assert_eq!(b.awaiting(), Awaiting::Over(b.side_id("Foes")));
    assert_eq!(state(&b, "Hero"), PlayState::Fled);
}

/// E-20: a readied attack goes off just before an enemy steps into its reach; it
/// fired in the round it was readied, so the readier's band becomes the trigger's
/// (Slow: from round 2 it acts after the Medium scout).
#[test]
fn e_20_ready_goes_off_before_the_step_and_takes_the_triggers_band() {
    let l = level(
        (12, 3),
        &[],
        vec![
            with(eu("Guard", "Heroes", (0, 1), 20), &["Fast"]),
            eu("Scout", "Foes", (11, 0), 20),
            with(eu("Orc", "Foes", (5, 1), 20), &["Slow"]),
        ],
    );
    // The readied attack: [6, 6, 4] + 5 = 21 hit, 2d8 [2, 2] + 3 = 7.
    let mut b = battle(&l, &[6, 6, 4, 2, 2]);
    b.submit(act(&b, "Guard", "Ready", &[])).unwrap();
    end(&mut b, "Guard");
    end(&mut b, "Scout");
    let events = b
        .submit(mv(&b, "Orc", &[(4, 1), (3, 1), (2, 1), (1, 1)]))
        .unwrap()
        .to_vec();
    let moved_before: usize = events
        .iter()
        .take_while(|e| !matches!(e, Event::Rolled { .. }))
        .filter(|e| matches!(e, Event::Moved { .. }))
        .count();
    assert_eq!(
        moved_before, 4,
        "it fires when the Orc enters (1, 1), next to the Guard"
    );
    assert_eq!(hp(&b, "Orc"), 13);
    end(&mut b, "Orc");
    assert_eq!(active(&b), Some(id(&b, "Scout")), "the Guard is Slow now");
    end(&mut b, "Scout");
    assert_eq!(
        active(&b),
        Some(id(&b, "Guard")),
        "Slow PCs before Slow enemies"
    );
}

/// E-53 / E-GAP-15: each battle starts rested: full Recoveries (8 for a PC by
/// default, E-47) and no failed death saves.
#[test]
fn e_53_each_battle_starts_rested() {
    let l = level(
        (10, 3),
        &[],
        vec![
            eu("Hero", "Heroes", (0, 1), 20),
            eu("Orc", "Foes", (9, 1), 20),
        ],
    );
    let b = battle(&l, &[]);
    let pools = b.pools(id(&b, "Hero"));
    assert!(pools.contains(&("Recoveries".to_string(), 8)), "{pools:?}");
    assert!(
        !pools.iter().any(|(k, _)| k == "Death saves failed"),
        "{pools:?}"
    );
}

/// E-44 / E-GAP-06 / E-GAP-15: a Coup de Grace needs a helpless target (a Dying PC
/// is one); it is a natural crit: it hits whatever the dice and deals double damage.
/// (A second PC stands away: with every PC Dying, the PCs have lost.)
#[test]
fn e_44_coup_de_grace_crits_on_a_dying_pc() {
    let l = level(
        (10, 3),
        &[],
        vec![
            with(eu("Hero", "Heroes", (0, 1), 5), &["Fast"]),
            eu("Friend", "Heroes", (9, 2), 20),
            eu("Orc", "Foes", (1, 1), 40),
        ],
    );
    // Round 1: the Orc hits: [5, 5, 5]; 2d8 [1, 1] + 3 = 5: Hero at 0, Dying.
    // Round 2: Hero's death save [1, 1, 2] fails. The Orc's Coup de Grace: [1, 1, 1]
    // (a crit all the same), 2d8 [2, 2] + 3 = 7, doubled: 14.
    let mut b = battle(&l, &[5, 5, 5, 1, 1, 1, 1, 2, 1, 1, 1, 2, 2]);
    let cdg = |b: &Battle, t: &str| {
        act(
            b,
            "Orc",
            "CoupDeGrace",
            &[("target", ArgValue::Unit(id(b, t)))],
        )
    };
    end(&mut b, "Hero");
    end(&mut b, "Friend");
    let err = b.check(&cdg(&b, "Hero")).unwrap_err();
    assert!(err.to_string().contains("not a helpless enemy"), "{err}");
    b.submit(attack(&b, "Orc", "Hero")).unwrap();
    assert_eq!(state(&b, "Hero"), PlayState::Dying);
    end(&mut b, "Orc");
    end(&mut b, "Friend");
    let events = b.submit(cdg(&b, "Hero")).unwrap().to_vec();
    let r = rolls(&events);
    assert_eq!(r[0].3, "crit", "{r:?}");
    assert_eq!(hp(&b, "Hero"), -14);
    let err = b.check(&act(&b, "Orc", "Stance", &[])).unwrap_err();
    assert!(
        err.to_string().contains("no Quick action left"),
        "every action spent: {err}"
    );
}

/// E-GAP-24: the Move action is read as halfway between a Standard and a Quick
/// action: a Move stands in for a Quick, a Quick never for a Move.
#[test]
fn e_gap_24_move_is_between_standard_and_quick() {
    let l = level(
        (10, 3),
        &[],
        vec![
            eu("Hero", "Heroes", (0, 1), 20),
            eu("Orc", "Foes", (9, 1), 20),
        ],
    );
    let mut b = battle(&l, &[]);
    b.submit(act(&b, "Hero", "Stance", &[])).unwrap();
    let events = b.submit(act(&b, "Hero", "Stance", &[])).unwrap().to_vec();
    let spent = format!("{events:?}");
    assert!(
        spent.contains("spent: Move"),
        "a Move as the second Quick: {spent}"
    );
}

pub(crate) fn power(name: &str, traits: &[&str]) -> PowerDef {
    PowerDef {
        name: name.into(),
        range: 1,
        ranged: false,
        damage: "1d6".into(),
        add_tier: false,
        on_hit: Vec::new(),
        damage_type: None,
        traits: traits.iter().map(|t| t.to_string()).collect(),
    }
}

/// E-26 / E-27 / E-28 / E-30: an Encounter power is used once a battle; an
/// `Escalation 2+` power waits for the die; `Spend 1 Power` needs the Power; a
/// `Provokes` power draws opportunity attacks from engaged enemies first.
#[test]
fn e_26_e_27_e_28_e_30_power_headers_in_play() {
    let mut hero = stat(eu("Hero", "Heroes", (1, 1), 30), "Power", 1);
    hero.powers = vec![
        power("Smite", &["Encounter", "Provokes"]),
        power("Surge", &["Escalation 2+"]),
        power("Blast", &["Spend 2 Power"]),
    ];
    let l = level(
        (10, 3),
        &[],
        vec![
            with(hero, &["Fast"]),
            eu("Friend", "Heroes", (9, 2), 20),
            eu("Orc", "Foes", (2, 1), 40),
        ],
    );
    // Smite provokes first: the Orc's opportunity attack [1, 1, 2] is a miss; then
    // Smite [4, 4, 4] + 5 = 17 hits for 1d6 [3].
    let mut b = battle(&l, &[1, 1, 2, 4, 4, 4, 3]);
    let with_power =
        |b: &Battle, p: &str| Command::attack(id(b, "Hero"), id(b, "Orc"), Some(p.into()));
    let err = b.check(&with_power(&b, "Surge")).unwrap_err();
    assert!(
        err.to_string()
            .contains("Escalation die at 2 or more; it is 0"),
        "{err}"
    );
    let err = b.check(&with_power(&b, "Blast")).unwrap_err();
    assert!(
        err.to_string().contains("costs 2 Power; Hero has 1"),
        "{err}"
    );
    let events = b.submit(with_power(&b, "Smite")).unwrap().to_vec();
    let r = rolls(&events);
    assert!(r[0].0.starts_with("an opportunity attack"), "E-28: {r:?}");
    assert_eq!(hp(&b, "Orc"), 40 - 3);
    end(&mut b, "Hero");
    end(&mut b, "Friend");
    end(&mut b, "Orc");
    let err = b.check(&with_power(&b, "Smite")).unwrap_err();
    assert!(
        err.to_string().contains("comes back only at a rest"),
        "E-27: {err}"
    );
}

/// E-31: an attack may target an ally (a unit one means harm); the AI's and the
/// random player's command lists leave allies out.
#[test]
fn e_31_allies_may_be_attacked() {
    let l = level(
        (10, 3),
        &[],
        vec![
            eu("Hero", "Heroes", (1, 1), 20),
            eu("Traitor", "Heroes", (2, 1), 20),
            eu("Orc", "Foes", (9, 1), 20),
        ],
    );
    let b = battle(&l, &[]);
    assert!(b.check(&attack(&b, "Hero", "Traitor")).is_ok());
    let traitor = id(&b, "Traitor");
    assert!(
        !b.legal_commands()
            .iter()
            .any(|c| matches!(c, Command::Attack { target, .. } if *target == traitor))
    );
}

/// E-43 / E-48 / E-EX-9 (in play): Rally heals with a Recovery (Level d8 +
/// Volition) and saves against a save-ends condition with the Escalation die added.
#[test]
fn e_43_rally_heals_with_a_recovery() {
    let l = level(
        (10, 3),
        &[],
        vec![
            eu("Hero", "Heroes", (1, 1), 30),
            eu("Orc", "Foes", (2, 1), 40),
        ],
    );
    // Round 1: Hero ends; the Orc hits [6, 6, 5] (a crit): (2d8 [4, 4] + 3) × 2 = 22.
    // Round 2: Hero Rallies: 2d8 [5, 6] + 3 = 14 → 22 HP.
    let mut b = battle(&l, &[6, 6, 5, 4, 4, 5, 6]);
    end(&mut b, "Hero");
    b.submit(attack(&b, "Orc", "Hero")).unwrap();
    assert_eq!(hp(&b, "Hero"), 8);
    end(&mut b, "Orc");
    b.submit(act(&b, "Hero", "Rally", &[])).unwrap();
    assert_eq!(hp(&b, "Hero"), 22);
    let pools = b.pools(id(&b, "Hero"));
    assert!(pools.contains(&("Recoveries".to_string(), 7)), "{pools:?}");
}

/// E-40 / E-GAP-19: a Dicey Move rolls 3d6 + Volition against 11/13/15; its Edge
/// reward gives 1 Advantage on the unit's next attack (used up by it), and a
/// failure gives nothing but costs the Move action.
#[test]
fn e_40_e_gap_19_dicey_move_edge() {
    let l = level(
        (10, 3),
        &[],
        vec![
            eu("Hero", "Heroes", (1, 1), 30),
            eu("Orc", "Foes", (2, 1), 40),
        ],
    );
    // Dicey Move (Hard, 13): [4, 3, 3] + 3 = 13, success. Attack with 1 Advantage:
    // 4d6 [1, 6, 5, 4] keeps [4, 5, 6] = 15 + 5 = 20, hit; 2d8 [1, 1] + 3.
    let mut b = battle(&l, &[4, 3, 3, 1, 6, 5, 4, 1, 1]);
    let dicey = act(
        &b,
        "Hero",
        "DiceyMove",
        &[
            ("difficulty", ArgValue::Choice("Hard".into())),
            ("reward", ArgValue::Choice("Edge".into())),
        ],
    );
    let events = b.submit(dicey).unwrap().to_vec();
    assert_eq!(rolls(&events)[0].3, "success");
    let events = b.submit(attack(&b, "Hero", "Orc")).unwrap().to_vec();
    let r = rolls(&events);
    assert!(r[0].0.contains("1 Advantage: Dicey Edge"), "{r:?}");
    assert_eq!(r[0].1, 20);
    assert_eq!(hp(&b, "Orc"), 35);
    assert!(
        !crate::common::conditions(&b, "Hero")
            .iter()
            .any(|c| c.contains("Dicey"))
    );
}

/// E-06: a power that strikes every engaged enemy rolls once per target, every
/// attack roll before any damage roll.
#[test]
fn e_06_one_roll_per_target_all_rolls_first() {
    let mut hero = eu("Hero", "Heroes", (1, 1), 30);
    hero.powers = vec![power("Cleave", &["All engaged"])];
    let l = level(
        (10, 3),
        &[],
        vec![
            hero,
            eu("Orc", "Foes", (2, 1), 40),
            eu("Gob", "Foes", (0, 1), 40),
        ],
    );
    // Rolls: Orc [5, 5, 5] hit, Gob [1, 1, 2] miss; then the Orc's 1d6 [4].
    let mut b = battle(&l, &[5, 5, 5, 1, 1, 2, 4]);
    let events = b
        .submit(Command::attack(
            id(&b, "Hero"),
            id(&b, "Orc"),
            Some("Cleave".into()),
        ))
        .unwrap()
        .to_vec();
    let kinds: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Rolled { .. } => Some("roll"),
            Event::Damaged { .. } => Some("damage"),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, ["roll", "roll", "damage"]);
    assert_eq!((hp(&b, "Orc"), hp(&b, "Gob")), (36, 40));
}

/// E-41: a PC dead for good keeps its turn in its band, where it may only Fight in
/// Spirit: its ally gets, for one round, 1 Advantage on attacks.
#[test]
fn e_41_fight_in_spirit() {
    let l = level(
        (10, 3),
        &[],
        vec![
            with(
                stat(eu("Ghost", "Heroes", (0, 0), 1), "Recoveries", 0),
                &["Fast"],
            ),
            eu("Hero", "Heroes", (1, 1), 30),
            eu("Orc", "Foes", (2, 1), 40),
            with(eu("Gob", "Foes", (1, 0), 40), &["Fast"]),
        ],
    );
    // Round 1: Ghost ends; Gob hits Ghost [5, 5, 5], 2d8 [1, 1] + 3: Dying at -4.
    // Rounds 2-5: its death saves [1, 1, 1] (2 Disadvantage on the first: 5 faces).
    let mut faces = vec![5, 5, 5, 1, 1, 1, 1, 1, 1, 1];
    faces.extend([1, 1, 1, 1, 1, 1, 1, 1, 1]);
    // Then the Hero's attack with 1 Advantage: 4d6 [1, 2, 3, 4] keeps [2, 3, 4].
    faces.extend([1, 2, 3, 4, 1, 1]);
    let mut b = battle(&l, &faces);
    end(&mut b, "Ghost");
    b.submit(attack(&b, "Gob", "Ghost")).unwrap();
    assert_eq!(state(&b, "Ghost"), PlayState::Dying);
    for _ in 0..6 {
        while active(&b) != Some(id(&b, "Hero")) {
            let u = active(&b).expect("a turn");
            b.submit(Command::EndTurn { unit: u }).unwrap();
        }
        if state(&b, "Ghost") == PlayState::Dead {
            break;
        }
        end(&mut b, "Hero");
    }
    assert_eq!(
        state(&b, "Ghost"),
        PlayState::Dead,
        "4 failed death saves (E-50)"
    );
    end(&mut b, "Hero");
    // Next round: the Ghost's turn comes (it is Fast), and it Fights in Spirit.
    while active(&b) != Some(id(&b, "Ghost")) {
        let u = active(&b).expect("a turn");
        b.submit(Command::EndTurn { unit: u }).unwrap();
    }
    let err = b.check(&attack(&b, "Ghost", "Orc")).unwrap_err();
    assert!(err.to_string().contains("only Fight in Spirit"), "{err}");
    b.submit(act(
        &b,
        "Ghost",
        "FightInSpirit",
        &[
            ("ally", ArgValue::Unit(id(&b, "Hero"))),
            ("boon", ArgValue::Choice("Attacks".into())),
            ("reason", ArgValue::Name("for the village".into())),
        ],
    ))
    .unwrap();
    while active(&b) != Some(id(&b, "Hero")) {
        let u = active(&b).expect("a turn");
        b.submit(Command::EndTurn { unit: u }).unwrap();
    }
    let events = b.submit(attack(&b, "Hero", "Orc")).unwrap().to_vec();
    let r = rolls(&events);
    assert!(r[0].0.contains("Spirit: attacks"), "{r:?}");
}

/// E-29 / E-65: a sustained effect (Stuck) lasts through the turn it began; the
/// next turn it needs its Sustain roll (3d6 ≥ 11, with the power's action), and
/// without one it ends with the sustainer's turn. E-62 / E-23: ongoing damage comes
/// at the end of the victim's turn, before its save.
#[test]
fn e_29_e_62_sustain_and_ongoing_damage() {
    let mut hero = eu("Hero", "Heroes", (1, 1), 30);
    hero.powers = vec![
        PowerDef {
            on_hit: vec![EffectDef {
                condition: "Stuck".into(),
                lasts: EffectDuration::Sustained,
            }],
            ..power("Hold", &["Sustain 11+", "Quick"])
        },
        PowerDef {
            on_hit: vec![EffectDef {
                condition: "Ongoing 5".into(),
                lasts: EffectDuration::SaveEnds,
            }],
            ..power("Burn", &[])
        },
    ];
    let l = level(
        (10, 3),
        &[],
        vec![with(hero, &["Fast"]), eu("Orc", "Foes", (2, 1), 40)],
    );
    // Round 1: Hold hits [5, 5, 5], 1d6 [1]; Burn hits [5, 5, 5], 1d6 [1].
    // The Orc ends: ongoing 5, then its save [1, 2, 3] fails.
    // Round 2: the Hero sustains Hold [6, 3, 2] = 11. The Orc ends: 5 more, save
    // [6, 6, 6] ends the burning. Round 3: no Sustain: Stuck ends with the turn.
    let mut b = battle(&l, &[5, 5, 5, 1, 5, 5, 5, 1, 1, 2, 3, 6, 3, 2, 6, 6, 6]);
    let with_power =
        |b: &Battle, p: &str| Command::attack(id(b, "Hero"), id(b, "Orc"), Some(p.into()));
    b.submit(with_power(&b, "Hold")).unwrap();
    b.submit(with_power(&b, "Burn")).unwrap();
    end(&mut b, "Hero");
    let stuck = |b: &Battle| {
        crate::common::conditions(b, "Orc")
            .iter()
            .any(|c| c.starts_with("Stuck"))
    };
    assert!(stuck(&b));
    let err = b.check(&mv(&b, "Orc", &[(3, 1)])).unwrap_err();
    assert!(err.to_string().contains("Stuck"), "E-65: {err}");
    end(&mut b, "Orc");
    assert_eq!(
        hp(&b, "Orc"),
        40 - 1 - 1 - 5,
        "a power deals its own dice: 1d6 each"
    );
    let sustain = act(
        &b,
        "Hero",
        "Sustain",
        &[("power", ArgValue::Name("Hold".into()))],
    );
    b.submit(sustain).unwrap();
    end(&mut b, "Hero");
    assert!(stuck(&b), "sustained");
    end(&mut b, "Orc");
    assert_eq!(hp(&b, "Orc"), 40 - 1 - 1 - 10);
    assert!(
        !crate::common::conditions(&b, "Orc")
            .iter()
            .any(|c| c.starts_with("Ongoing"))
    );
    end(&mut b, "Hero");
    assert!(!stuck(&b), "not sustained: it ends with the Hero's turn");
}

/// E-52: a Last Gasp effect on a PC (Stunned by a gaze) is fought off with death
/// saves at the start of its turns (13+); an ally's Standard action grants an extra
/// save whose failure does not count; a success ends it.
#[test]
fn e_52_last_gasp_saves() {
    let mut gorgon = eu("Gorgon", "Foes", (2, 1), 40);
    gorgon.powers = vec![PowerDef {
        on_hit: vec![EffectDef {
            condition: "Stunned".into(),
            lasts: EffectDuration::SaveEnds,
        }],
        ..power("Gaze", &["Last Gasp"])
    }];
    let l = level(
        (10, 3),
        &[],
        vec![
            eu("Hero", "Heroes", (1, 1), 30),
            eu("Friend", "Heroes", (1, 2), 30),
            with(gorgon, &["Fast"]),
        ],
    );
    // Round 1: the Gaze hits [5, 5, 5], 1d6 [2]. Round 2: Hero's Last Gasp save
    // [1, 1, 1] fails (1 of 4); Friend grants a save [1, 1, 2]: a failure that does
    // not count. Round 3: Hero's save [6, 5, 2] = 13 ends it.
    let mut b = battle(&l, &[5, 5, 5, 2, 1, 1, 1, 1, 1, 2, 6, 5, 2]);
    let gaze = Command::attack(id(&b, "Gorgon"), id(&b, "Hero"), Some("Gaze".into()));
    b.submit(gaze).unwrap();
    let stunned = |b: &Battle| {
        crate::common::conditions(b, "Hero")
            .iter()
            .any(|c| c.starts_with("Stunned"))
    };
    assert!(stunned(&b));
    end(&mut b, "Gorgon");
    end(&mut b, "Hero");
    end(&mut b, "Friend");
    end(&mut b, "Gorgon");
    // Round 2: the save at the start of the Hero's turn failed.
    assert_eq!(active(&b), Some(id(&b, "Hero")));
    assert!(stunned(&b));
    end(&mut b, "Hero");
    let grant = act(
        &b,
        "Friend",
        "GrantSave",
        &[("target", ArgValue::Unit(id(&b, "Hero")))],
    );
    let events = b.submit(grant).unwrap().to_vec();
    assert!(
        !events
            .iter()
            .any(|e| format!("{e:?}").contains("DeathSaveFailed")),
        "a granted save's failure does not count"
    );
    end(&mut b, "Friend");
    end(&mut b, "Gorgon");
    assert!(!stunned(&b), "the round-3 save ended it");
    assert_eq!(hp(&b, "Hero"), 28);
}

/// E-EX-4 / E-37 / E-GAP-11: engaged with three enemies, a PC disengages from two
/// of them (Difficulty 12): faces 5, 4, 3 = 12 succeed; the third, left out, gets
/// its opportunity attack as the PC moves away. From all three (13) the same faces
/// would fail.
#[test]
fn e_ex_4_disengage_from_two_of_three() {
    let l = level(
        (10, 5),
        &[],
        vec![
            eu("Hero", "Heroes", (1, 2), 30),
            eu("A", "Foes", (0, 2), 30),
            eu("B", "Foes", (2, 2), 30),
            eu("C", "Foes", (1, 1), 30),
        ],
    );
    // Disengage [5, 4, 3] = 12 vs 12; C's opportunity attack [1, 1, 2] misses.
    let mut b = battle(&l, &[5, 4, 3, 1, 1, 2]);
    let all = act(&b, "Hero", "Disengage", &[("to", ArgValue::Cell(c(1, 4)))]);
    let chance = |c: &Command| {
        b.rules()
            .action_chance(b.world(), c)
            .map(|p| (p * 216.0).round())
    };
    assert_eq!(chance(&all), Some(56.0), "3d6 >= 13");
    let two = act(
        &b,
        "Hero",
        "Disengage",
        &[
            ("to", ArgValue::Cell(c(1, 4))),
            ("except", ArgValue::Unit(id(&b, "C"))),
        ],
    );
    assert_eq!(chance(&two), Some(81.0), "3d6 >= 12");
    let events = b.submit(two).unwrap().to_vec();
    let r = rolls(&events);
    assert_eq!((r[0].1, r[0].2, r[0].3.as_str()), (12, Some(12), "success"));
    assert!(r[1].0.starts_with("an opportunity attack"), "{r:?}");
    assert_eq!(r.len(), 2, "only C attacks: {r:?}");
    assert_eq!(cell(&b, "Hero"), c(1, 4));
}

/// E-32 / E-33 / E-34 / E-GAP-01: the window's hover line names the range band
/// between the acting unit and any other: Engaged (an enemy) or Next To (an ally)
/// when adjacent, Nearby up to 7, Far up to 13, out of range beyond.
#[test]
fn e_gap_01_bands_in_words() {
    let l = level(
        (20, 3),
        &[],
        vec![
            eu("Hero", "Heroes", (0, 1), 20),
            eu("Pal", "Heroes", (1, 1), 20),
            eu("Near", "Foes", (7, 1), 20),
            eu("Far", "Foes", (13, 1), 20),
            eu("Gone", "Foes", (19, 1), 20),
            eu("Close", "Foes", (1, 0), 20),
        ],
    );
    let b = battle(&l, &[]);
    let rel = |o: &str| {
        b.rules()
            .relation(b.world(), id(&b, "Hero"), id(&b, o))
            .unwrap()
    };
    assert_eq!(rel("Pal"), "Next To from Hero (1 square)");
    assert_eq!(rel("Close"), "Engaged from Hero (1 square)");
    assert_eq!(rel("Near"), "Nearby from Hero (7 squares)");
    assert_eq!(rel("Far"), "Far from Hero (13 squares)");
    assert_eq!(rel("Gone"), "out of range from Hero (19 squares)");
}

// ------------------------------------------------------------------ issue 29

/// A 1d6 melee power whose hit puts `condition` (save ends) on the target.
fn afflicting(name: &str, condition: &str) -> PowerDef {
    PowerDef {
        on_hit: vec![EffectDef {
            condition: condition.into(),
            lasts: EffectDuration::SaveEnds,
        }],
        ..power(name, &[])
    }
}

fn use_power(b: &Battle, unit: &str, target: &str, p: &str) -> Command {
    Command::attack(id(b, unit), id(b, target), Some(p.into()))
}

/// The battle's log, one line per event.
fn log_lines(b: &Battle) -> Vec<String> {
    b.events()
        .iter()
        .map(|e| skirmish::engine::log::describe(b.world(), e))
        .collect()
}

fn has_condition(b: &Battle, unit: &str, condition: &str) -> bool {
    crate::common::conditions(b, unit)
        .iter()
        .any(|c| c == condition)
}

/// E-30 / E-18: an `Escalation X+` power reads the die the battle shows, also for
/// an enemy that doesn't add the die to its attacks: refused in round 1 (die 0),
/// used in round 2 (die 1), its roll still without the die.
#[test]
fn e_30_escalation_power_reads_the_battles_die_for_an_enemy() {
    let mut orc = eu("Orc", "Foes", (2, 1), 30);
    orc.powers = vec![power("Rampage", &["Escalation 1+"])];
    let l = level(
        (10, 3),
        &[],
        vec![with(eu("Hero", "Heroes", (1, 1), 30), &["Fast"]), orc],
    );
    // Round 2: Rampage [5, 5, 5] + 2 + 3 = 20 (no Escalation) vs AC 15, 1d6 [4].
    let mut b = battle(&l, &[5, 5, 5, 4]);
    end(&mut b, "Hero");
    let err = b
        .check(&use_power(&b, "Orc", "Hero", "Rampage"))
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("Escalation die at 1 or more; it is 0 (E-30)"),
        "{err}"
    );
    end(&mut b, "Orc");
    end(&mut b, "Hero");
    let events = b
        .submit(use_power(&b, "Orc", "Hero", "Rampage"))
        .expect("the die shows 1 in round 2")
        .to_vec();
    let r = rolls(&events);
    assert_eq!(
        (r[0].0.as_str(), r[0].1, r[0].3.as_str()),
        ("Rampage vs AC", 20, "hit")
    );
    assert_eq!(hp(&b, "Hero"), 26);
}

/// E-43 / E-63 / E-30: a Shaken PC counts the Escalation die as 0 for everything
/// it feeds: its `Escalation 1+` power is refused while the battle shows 1, and
/// its Rally save in round 3 (die 2) adds nothing: 9 fails the 11 it would have
/// made with the die.
#[test]
fn e_43_e_63_shaken_rally_save_counts_the_die_as_0() {
    let mut hero = with(eu("Hero", "Heroes", (1, 1), 40), &["Fast"]);
    hero.powers = vec![power("Surge", &["Escalation 1+"])];
    let mut orc = eu("Orc", "Foes", (2, 1), 30);
    orc.powers = vec![afflicting("Dread", "Shaken")];
    let l = level((10, 3), &[], vec![hero, orc]);
    // Round 1: Dread [5, 5, 5] + 5 = 20 hits, 1d6 [1]: Hero 39, Shaken.
    // Round 2: Hero's end-of-turn save [1, 1, 2] fails.
    // Round 3: Rally heals 2d8 [1, 1] + 3 (to 40); its save [4, 3, 2] = 9 + 0.
    let mut b = battle(&l, &[5, 5, 5, 1, 1, 1, 2, 1, 1, 4, 3, 2]);
    end(&mut b, "Hero");
    b.submit(use_power(&b, "Orc", "Hero", "Dread")).unwrap();
    assert!(has_condition(&b, "Hero", "Shaken"));
    end(&mut b, "Orc");
    let err = b.check(&use_power(&b, "Hero", "Orc", "Surge")).unwrap_err();
    assert!(
        err.to_string()
            .contains("it is 1, but Hero is Shaken and counts it as 0 (E-63)"),
        "{err}"
    );
    end(&mut b, "Hero");
    end(&mut b, "Orc");
    let events = b.submit(act(&b, "Hero", "Rally", &[])).unwrap().to_vec();
    let r = rolls(&events);
    assert_eq!(
        r.last().unwrap(),
        &(
            "a save against Shaken".to_string(),
            9,
            Some(11),
            "failure".to_string()
        ),
        "no Escalation bonus while Shaken: {r:?}"
    );
    assert!(has_condition(&b, "Hero", "Shaken"));
}

/// E-58: a Grabbed unit disengages from its grabber with 1 Disadvantage, unless
/// it hit the grabber with an attack this round: after a hit the Disengage is a
/// plain 3d6 (11: success); after a miss it is 4d6 keep the lowest 3 (8: failure).
#[test]
fn e_58_grabbed_disengage_without_disadvantage_after_hitting_the_grabber() {
    let mut orc = eu("Orc", "Foes", (2, 1), 40);
    orc.powers = vec![afflicting("Grab", "Grabbed")];
    let l = level(
        (10, 3),
        &[],
        vec![with(eu("Hero", "Heroes", (1, 1), 40), &["Fast"]), orc],
    );
    let play = |attack_faces: &[u32], disengage_faces: &[u32]| {
        // Round 1: Grab [5, 5, 5] hits, 1d6 [1]. Round 2: the Hero's attack, then
        // its Disengage to (0, 1).
        let mut faces = vec![5, 5, 5, 1];
        faces.extend_from_slice(attack_faces);
        faces.extend_from_slice(disengage_faces);
        let mut b = battle(&l, &faces);
        end(&mut b, "Hero");
        b.submit(use_power(&b, "Orc", "Hero", "Grab")).unwrap();
        end(&mut b, "Orc");
        assert!(has_condition(&b, "Hero", "Grabbed"));
        b.submit(attack(&b, "Hero", "Orc")).unwrap();
        let events = b
            .submit(act(
                &b,
                "Hero",
                "Disengage",
                &[("to", ArgValue::Cell(c(0, 1)))],
            ))
            .unwrap()
            .to_vec();
        (b, rolls(&events))
    };
    // A hit: [5, 5, 5] + 6 = 21; 2d8 [1, 1] + 3. Disengage [4, 4, 3] = 11.
    let (b, r) = play(&[5, 5, 5, 1, 1], &[4, 4, 3]);
    assert_eq!(hp(&b, "Orc"), 35);
    assert_eq!(
        r[0],
        ("Disengage".to_string(), 11, Some(11), "success".to_string())
    );
    assert_eq!(cell(&b, "Hero"), c(0, 1));
    // A miss: [1, 1, 2] + 6 = 10. Disengage [4, 4, 3, 1] keeps [1, 3, 4] = 8.
    let (b, r) = play(&[1, 1, 2], &[4, 4, 3, 1]);
    assert_eq!(
        r[0],
        (
            "Disengage (1 Disadvantage: Grabbed)".to_string(),
            8,
            Some(11),
            "failure".to_string()
        )
    );
    assert_eq!(cell(&b, "Hero"), c(1, 1));
}

/// E-61 / E-56: attacking an Invisible unit needs an 11+ save first, and an
/// Enervated attacker makes it with 1 Disadvantage: 4d6 [6, 5, 1, 1] keeps 7, the
/// attack has no effect (with 3d6 the same faces would have found it).
#[test]
fn e_61_e_56_enervated_attacker_saves_with_disadvantage_to_find_an_invisible_target() {
    let mut orc = with(eu("Orc", "Foes", (2, 1), 40), &["Fast"]);
    orc.powers = vec![afflicting("Sap", "Enervated")];
    let mut shade = with(eu("Shade", "Foes", (3, 1), 40), &["Fast"]);
    shade.powers = vec![afflicting("Veil", "Invisible")];
    let l = level(
        (10, 3),
        &[],
        vec![eu("Hero", "Heroes", (1, 1), 40), orc, shade],
    );
    // Sap on the Hero [5, 5, 5], 1d6 [1]; Veil on the Orc (its ally) [5, 5, 5], [1].
    let mut b = battle(&l, &[5, 5, 5, 1, 5, 5, 5, 1, 6, 5, 1, 1]);
    b.submit(use_power(&b, "Orc", "Hero", "Sap")).unwrap();
    end(&mut b, "Orc");
    b.submit(use_power(&b, "Shade", "Orc", "Veil")).unwrap();
    end(&mut b, "Shade");
    assert!(has_condition(&b, "Hero", "Enervated"));
    assert!(has_condition(&b, "Orc", "Invisible"));
    let events = b.submit(attack(&b, "Hero", "Orc")).unwrap().to_vec();
    let r = rolls(&events);
    assert_eq!(
        r,
        [(
            "a save to find an Invisible target (1 Disadvantage: Enervated)".to_string(),
            7,
            Some(11),
            "no effect".to_string()
        )]
    );
    assert_eq!(hp(&b, "Orc"), 39, "only Veil's 1");
}

/// E-44 / E-GAP-06 / E-GAP-07 / E-12: a Coup de Grace is a crit whatever its
/// natural roll, and that roll still meets the target's resistance: natural 6 <
/// Resist Weapon 14+, so (2d8 [2, 2] + 3) × 2 = 14 is halved to 7.
#[test]
fn e_44_e_gap_07_coup_de_grace_crit_is_doubled_then_halved_by_resistance() {
    let l = level(
        (10, 3),
        &[],
        vec![
            with(
                eu("Hero", "Heroes", (0, 1), 5),
                &["Fast", "Resist Weapon 14+"],
            ),
            eu("Friend", "Heroes", (9, 2), 20),
            eu("Orc", "Foes", (1, 1), 40),
        ],
    );
    // Round 1: the Orc hits [5, 5, 5] (15: no halving), 2d8 [1, 1] + 3 = 5: Dying.
    // Round 2: death save [1, 1, 2] fails; Coup de Grace [2, 2, 2], 2d8 [2, 2].
    let mut b = battle(&l, &[5, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
    end(&mut b, "Hero");
    end(&mut b, "Friend");
    b.submit(attack(&b, "Orc", "Hero")).unwrap();
    assert_eq!(state(&b, "Hero"), PlayState::Dying);
    end(&mut b, "Orc");
    end(&mut b, "Friend");
    let cdg = act(
        &b,
        "Orc",
        "CoupDeGrace",
        &[("target", ArgValue::Unit(id(&b, "Hero")))],
    );
    let events = b.submit(cdg).unwrap().to_vec();
    let r = rolls(&events);
    assert_eq!(r[0].3, "crit", "{r:?}");
    assert_eq!(hp(&b, "Hero"), -7);
}

/// E-02: a power says which defense it attacks: `vs MD` rolls against the
/// target's MD (12, where its AC is 15), and the roll, the log line and the odds
/// preview name it; a basic attack stays against AC.
#[test]
fn e_02_powers_attack_pd_or_md() {
    let mut hero = with(eu("Hero", "Heroes", (1, 1), 30), &["Fast"]);
    hero.powers = vec![
        power("Mind Spike", &["vs MD"]),
        power("Trip", &["vs PD", "Quick"]),
    ];
    let l = level((10, 3), &[], vec![hero, eu("Orc", "Foes", (2, 1), 40)]);
    // Mind Spike [3, 3, 3] + 5 = 14 vs MD 12: hit, 1d6 [2]. Trip [3, 3, 2] + 5 = 13
    // vs PD 13: hit, 1d6 [1].
    let mut b = battle(&l, &[3, 3, 3, 2, 3, 3, 2, 1]);
    let preview = b
        .preview_attack(id(&b, "Hero"), id(&b, "Orc"), Some("Mind Spike"))
        .unwrap();
    assert!(preview.roll.contains("vs MD 12"), "{}", preview.roll);
    let basic = b
        .preview_attack(id(&b, "Hero"), id(&b, "Orc"), None)
        .unwrap();
    assert!(basic.roll.contains("vs AC 15"), "{}", basic.roll);
    let events = b
        .submit(use_power(&b, "Hero", "Orc", "Mind Spike"))
        .unwrap()
        .to_vec();
    assert_eq!(
        rolls(&events)[0],
        (
            "Mind Spike vs MD".to_string(),
            14,
            Some(12),
            "hit".to_string()
        )
    );
    assert!(
        log_lines(&b)
            .iter()
            .any(|l| l.contains("rolls Mind Spike vs MD against Orc") && l.contains("= 14 vs 12")),
        "{:?}",
        log_lines(&b)
    );
    let events = b
        .submit(use_power(&b, "Hero", "Orc", "Trip"))
        .unwrap()
        .to_vec();
    assert_eq!(
        rolls(&events)[0],
        ("Trip vs PD".to_string(), 13, Some(13), "hit".to_string())
    );
    assert_eq!(hp(&b, "Orc"), 37);
}

/// E-02 / E-26: a defense a power can't name is refused at FILE:LINE:COL, naming
/// the valid ones.
#[test]
fn e_02_an_unknown_defense_is_refused_in_place() {
    let text = r#"(
    name: "Defenses",
    ruleset: "escalation",
    grid: Square,
    size: (4, 4),
    sides: [(name: "Heroes"), (name: "Foes")],
    units: [
        (name: "Hero", side: "Heroes", pos: (0, 0),
         stats: {"Level": 1, "Volition": 1, "HP": 20, "AC": 14, "PD": 12, "MD": 12},
         powers: [(name: "Psi", traits: ["vs Will"])]),
        (name: "Orc", side: "Foes", pos: (3, 3),
         stats: {"Level": 1, "Volition": 1, "HP": 20, "AC": 14, "PD": 12, "MD": 12}),
    ],
)"#;
    let problems = skirmish::level::load_str(text, "defenses.ron").unwrap_err();
    assert_eq!(problems.len(), 1, "{problems:?}");
    let p = &problems[0];
    assert_eq!((p.line, p.file.as_str()), (10, "defenses.ron"));
    assert!(
        p.message.contains("`Will` is not a defense")
            && p.message.contains("`vs AC`, `vs PD` or `vs MD`"),
        "{}",
        p.message
    );
}

/// E-45 / E-GAP-16: at or below half its HP (and above 0) a unit is Staggered: the
/// condition appears with a log line when it drops there, a `Staggered target`
/// power may only be used on it then, and it goes when the unit is healed above
/// half.
#[test]
fn e_45_e_gap_16_staggered_comes_and_goes_with_hp() {
    let mut orc = eu("Orc", "Foes", (2, 1), 40);
    orc.powers = vec![power("Finisher", &["Staggered target", "Quick"])];
    let l = level(
        (10, 3),
        &[],
        vec![with(eu("Hero", "Heroes", (1, 1), 20), &["Fast"]), orc],
    );
    // The Orc's Basic Melee Attack [5, 5, 5] hits, 2d8 [4, 3] + 3 = 10: Hero 10/20.
    // Finisher [5, 5, 5], 1d6 [2]: 8. Round 2: Rally 2d8 [6, 6] + 3: back to 20.
    let mut b = battle(&l, &[5, 5, 5, 4, 3, 5, 5, 5, 2, 6, 6]);
    end(&mut b, "Hero");
    let err = b
        .check(&use_power(&b, "Orc", "Hero", "Finisher"))
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("needs a Staggered target (at or below half its HP); Hero is not (E-45)"),
        "{err}"
    );
    assert!(!has_condition(&b, "Hero", "Staggered"));
    b.submit(attack(&b, "Orc", "Hero")).unwrap();
    assert_eq!(hp(&b, "Hero"), 10);
    assert!(has_condition(&b, "Hero", "Staggered"));
    assert!(
        log_lines(&b).iter().any(|l| l == "Hero is now Staggered"),
        "{:?}",
        log_lines(&b)
    );
    b.submit(use_power(&b, "Orc", "Hero", "Finisher")).unwrap();
    assert_eq!(hp(&b, "Hero"), 8);
    end(&mut b, "Orc");
    b.submit(act(&b, "Hero", "Rally", &[])).unwrap();
    assert_eq!(hp(&b, "Hero"), 20);
    assert!(!has_condition(&b, "Hero", "Staggered"));
    assert!(
        log_lines(&b)
            .iter()
            .any(|l| l == "Hero is no longer Staggered: healed above half its HP"),
        "{:?}",
        log_lines(&b)
    );
}

/// E-54 (second half): a Confused unit that uses a non-attack ability (a `Heal`
/// power) or an attack that deals no damage makes an 11+ save, and on a failure
/// deals damage equal to its tier (1 at Level 2) to itself.
#[test]
fn e_54_confused_non_attack_ability_saves_or_hurts_itself() {
    let mut hero = with(eu("Hero", "Heroes", (1, 1), 30), &["Fast"]);
    let mut taunt = power("Taunt", &["Quick"]);
    taunt.damage = "0".into();
    hero.powers = vec![power("Second Wind", &["Heal", "Quick"]), taunt];
    let mut orc = eu("Orc", "Foes", (2, 1), 40);
    orc.powers = vec![afflicting("Befuddle", "Confused")];
    let l = level((10, 3), &[], vec![hero, orc]);
    // Round 1: Befuddle [5, 5, 5] hits, 1d6 [6]: Hero 24, Confused.
    // Round 2: Second Wind heals 2d8 [1, 2] + 3 = 6 (30); the Confused save
    // [1, 1, 2] = 4 fails: 1 damage (29). Taunt [5, 5, 5] hits for 0; its save
    // [6, 5, 4] = 15 succeeds: nothing more.
    let mut b = battle(&l, &[5, 5, 5, 6, 1, 2, 1, 1, 2, 5, 5, 5, 6, 5, 4]);
    end(&mut b, "Hero");
    b.submit(use_power(&b, "Orc", "Hero", "Befuddle")).unwrap();
    end(&mut b, "Orc");
    assert!(has_condition(&b, "Hero", "Confused"));
    let events = b
        .submit(use_power(&b, "Hero", "Hero", "Second Wind"))
        .unwrap()
        .to_vec();
    let r = rolls(&events);
    assert_eq!(
        r,
        [(
            "a save against Confused (an ability that deals no damage)".to_string(),
            4,
            Some(11),
            "failure".to_string()
        )]
    );
    assert_eq!(hp(&b, "Hero"), 29, "healed to 30, then 1 (its tier)");
    let events = b
        .submit(use_power(&b, "Hero", "Orc", "Taunt"))
        .unwrap()
        .to_vec();
    let r = rolls(&events);
    assert_eq!(r.len(), 2, "{r:?}");
    assert_eq!(r[1].3, "success");
    assert_eq!((hp(&b, "Hero"), hp(&b, "Orc")), (29, 40));
}

/// E-20: a Move can be readied with a cell: it spends the Move action, and goes
/// off (before the step) when an enemy Nearby moves; a readied non-attack power
/// (a Quick `Heal`) goes off the same way, before an enemy's attack.
#[test]
fn e_20_ready_a_move_and_a_non_attack_power() {
    let mut medic = with(eu("Medic", "Heroes", (17, 1), 30), &["Fast"]);
    medic.powers = vec![power("Second Wind", &["Heal", "Quick"])];
    let l = level(
        (20, 3),
        &[],
        vec![
            with(eu("Scout", "Heroes", (0, 1), 20), &["Fast"]),
            medic,
            eu("Orc", "Foes", (9, 1), 40),
            eu("Brute", "Foes", (18, 1), 40),
        ],
    );
    // Round 1: the Brute hits the Medic [5, 5, 5], 2d8 [4, 4] + 3 = 11 (19).
    // Round 2: the Scout readies a Move to (0, 2), the Medic Second Wind. The Orc
    // steps to (8, 1), 8 squares from the Scout (Far), then to (7, 1), Nearby: the
    // Scout's Move goes off before the Orc's next step. The Brute's attack sets off
    // Second Wind: 2d8 [2, 2] + 3 = 7 (26), then [1, 1, 2] misses.
    let mut b = battle(&l, &[5, 5, 5, 4, 4, 2, 2, 1, 1, 2]);
    end(&mut b, "Scout");
    end(&mut b, "Medic");
    end(&mut b, "Orc");
    b.submit(attack(&b, "Brute", "Medic")).unwrap();
    end(&mut b, "Brute");
    assert_eq!(hp(&b, "Medic"), 19);
    let events = b
        .submit(act(
            &b,
            "Scout",
            "Ready",
            &[("to", ArgValue::Cell(c(0, 2)))],
        ))
        .unwrap()
        .to_vec();
    assert!(
        format!("{events:?}").contains("spent: Move"),
        "a readied Move takes the Move action: {events:?}"
    );
    let pools = b.pools(id(&b, "Scout"));
    assert!(
        pools.contains(&("Move".to_string(), 0)) && pools.contains(&("Standard".to_string(), 1)),
        "{pools:?}"
    );
    end(&mut b, "Scout");
    let events = b
        .submit(act(
            &b,
            "Medic",
            "Ready",
            &[("power", ArgValue::Name("Second Wind".into()))],
        ))
        .unwrap()
        .to_vec();
    assert!(format!("{events:?}").contains("spent: Quick"), "{events:?}");
    end(&mut b, "Medic");
    let events = b
        .submit(mv(&b, "Orc", &[(8, 1), (7, 1), (6, 1)]))
        .unwrap()
        .to_vec();
    let scout = id(&b, "Scout");
    let orc = id(&b, "Orc");
    let moves: Vec<(UnitId, skirmish::engine::board::Cell)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Moved { unit, to, .. } => Some((*unit, *to)),
            _ => None,
        })
        .collect();
    assert_eq!(
        moves,
        [
            (orc, c(8, 1)),
            (orc, c(7, 1)),
            (scout, c(0, 2)),
            (orc, c(6, 1))
        ],
        "the Scout moves when the Orc, now Nearby (7 squares), acts again"
    );
    end(&mut b, "Orc");
    let events = b.submit(attack(&b, "Brute", "Medic")).unwrap().to_vec();
    let healed = events
        .iter()
        .position(|e| matches!(e, Event::Healed { .. }))
        .expect("Second Wind heals");
    let rolled = events
        .iter()
        .position(|e| matches!(e, Event::Rolled { .. }))
        .expect("the Brute's attack");
    assert!(healed < rolled, "before the attack: {events:?}");
    assert_eq!(hp(&b, "Medic"), 26);
}

/// E-24 / E-21: an `Interrupt: hit` power is offered to its side when an enemy's
/// attack hits the unit, off its turn (a decision: the power, or none); it is used
/// on the attacker, once a round: a second hit that round offers nothing, the next
/// round offers it again (and declining is an answer).
#[test]
fn e_24_interrupt_when_hit_once_a_round() {
    let mut hero = with(eu("Hero", "Heroes", (1, 1), 30), &["Fast"]);
    hero.powers = vec![power("Retort", &["Interrupt: hit"])];
    let mut orc = eu("Orc", "Foes", (2, 1), 40);
    orc.powers = vec![power("Jab", &["Quick"])];
    let mut l = level((10, 3), &[], vec![hero, orc]);
    l.sides[0].decisions = DecisionPolicy::Ask;
    // Round 1: the Orc hits [5, 5, 5], 2d8 [1, 1] + 3 = 5 (Hero 25). Retort [5, 5,
    // 5] + 5 = 20 hits, 1d6 [4] (Orc 36). Jab [5, 5, 5], 1d6 [2] (Hero 23): no
    // second interrupt. Round 2: the Orc hits [5, 5, 5], [1, 1] (Hero 18): offered
    // again, declined.
    let mut b = battle(&l, &[5, 5, 5, 1, 1, 5, 5, 5, 4, 5, 5, 5, 2, 5, 5, 5, 1, 1]);
    let err = b
        .check(&use_power(&b, "Hero", "Orc", "Retort"))
        .unwrap_err();
    assert!(
        err.to_string().contains("uses it off its turn"),
        "not on its own turn: {err}"
    );
    end(&mut b, "Hero");
    b.submit(attack(&b, "Orc", "Hero")).unwrap();
    let Awaiting::Decision(d) = b.awaiting() else {
        panic!("expected the interrupt decision, got {:?}", b.awaiting());
    };
    assert_eq!(d.prompt, "Orc hit Hero. Interrupt?");
    assert_eq!(d.options.len(), 1);
    let take = d.options[0].command.clone();
    let events = b.submit(take).unwrap().to_vec();
    assert_eq!(
        rolls(&events)[0],
        ("Retort vs AC".to_string(), 20, Some(15), "hit".to_string())
    );
    assert_eq!((hp(&b, "Hero"), hp(&b, "Orc")), (25, 36));
    assert_eq!(active(&b), Some(id(&b, "Orc")), "the Orc's turn goes on");
    b.submit(use_power(&b, "Orc", "Hero", "Jab")).unwrap();
    assert_eq!(hp(&b, "Hero"), 23);
    assert_eq!(
        active(&b),
        Some(id(&b, "Orc")),
        "no second Interrupt this round"
    );
    end(&mut b, "Orc");
    end(&mut b, "Hero");
    b.submit(attack(&b, "Orc", "Hero")).unwrap();
    let Awaiting::Decision(d) = b.awaiting() else {
        panic!("a new round, a new Interrupt: {:?}", b.awaiting());
    };
    let decline = d.decline.clone().expect("it may be declined").command;
    b.submit(decline).unwrap();
    assert_eq!((hp(&b, "Hero"), hp(&b, "Orc")), (18, 36));
    assert_eq!(active(&b), Some(id(&b, "Orc")));
}

/// E-24: an `Interrupt: enemy engages` power of a side that answers by itself
/// (Auto) goes off when an enemy ends a move engaged with the unit; on the unit's
/// own turn the power is refused, naming its trigger.
#[test]
fn e_24_interrupt_when_an_enemy_engages_answered_automatically() {
    let mut orc = with(eu("Orc", "Foes", (5, 1), 40), &["Slow"]);
    orc.powers = vec![power("Ambush", &["Interrupt: enemy engages"])];
    let mut l = level(
        (10, 3),
        &[],
        vec![with(eu("Hero", "Heroes", (1, 1), 30), &["Fast"]), orc],
    );
    l.sides[1].decisions = DecisionPolicy::Auto;
    // The Hero walks to (4, 1): Ambush [5, 5, 5] + 5 = 20 hits, 1d6 [3].
    let mut b = battle(&l, &[5, 5, 5, 3]);
    let events = b
        .submit(mv(&b, "Hero", &[(2, 1), (3, 1), (4, 1)]))
        .unwrap()
        .to_vec();
    assert_eq!(cell(&b, "Hero"), c(4, 1));
    assert_eq!(
        rolls(&events)[0],
        ("Ambush vs AC".to_string(), 20, Some(15), "hit".to_string())
    );
    assert_eq!(hp(&b, "Hero"), 27);
    end(&mut b, "Hero");
    let err = b
        .check(&use_power(&b, "Orc", "Hero", "Ambush"))
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("Ambush is an Interrupt power: Orc uses it off its turn, when `Interrupt: enemy engages` happens (E-24)"),
        "{err}"
    );
}

/// E-21 / E-25: a `Free` power is used on the unit's turn without spending an
/// action (its Standard is still there for an attack), once a turn.
#[test]
fn e_21_free_power_spends_no_action_once_a_turn() {
    let mut hero = with(eu("Hero", "Heroes", (1, 1), 30), &["Fast"]);
    hero.powers = vec![power("Elbow", &["Free"])];
    let l = level((10, 3), &[], vec![hero, eu("Orc", "Foes", (2, 1), 40)]);
    // Elbow [5, 5, 5] hits, 1d6 [2]; the basic attack [5, 5, 5], 2d8 [1, 1] + 3.
    let mut b = battle(&l, &[5, 5, 5, 2, 5, 5, 5, 1, 1]);
    let events = b
        .submit(use_power(&b, "Hero", "Orc", "Elbow"))
        .unwrap()
        .to_vec();
    assert!(
        !format!("{events:?}").contains("ActionSpent"),
        "no action spent: {events:?}"
    );
    let err = b.check(&use_power(&b, "Hero", "Orc", "Elbow")).unwrap_err();
    assert!(
        err.to_string()
            .contains("used its Free power Elbow this turn (E-21)"),
        "{err}"
    );
    b.submit(attack(&b, "Hero", "Orc")).unwrap();
    assert_eq!(hp(&b, "Orc"), 40 - 2 - 5);
}

/// E-24 / E-26: a trigger an Interrupt power can't name, or none, is refused at
/// FILE:LINE:COL, naming the valid ones.
#[test]
fn e_24_an_unknown_trigger_is_refused_in_place() {
    let text = r#"(
    name: "Triggers",
    ruleset: "escalation",
    grid: Square,
    size: (4, 4),
    sides: [(name: "Heroes"), (name: "Foes")],
    units: [
        (name: "Hero", side: "Heroes", pos: (0, 0),
         stats: {"Level": 1, "Volition": 1, "HP": 20, "AC": 14, "PD": 12, "MD": 12},
         powers: [(name: "Snap", traits: ["Interrupt: sneezes"])]),
        (name: "Orc", side: "Foes", pos: (3, 3),
         stats: {"Level": 1, "Volition": 1, "HP": 20, "AC": 14, "PD": 12, "MD": 12},
         powers: [(name: "Snarl", traits: ["Interrupt"])]),
    ],
)"#;
    let problems = skirmish::level::load_str(text, "triggers.ron").unwrap_err();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert_eq!(problems[0].line, 10);
    assert!(
        problems[0].message.contains("`sneezes` is not a trigger")
            && problems[0].message.contains(
                "`Interrupt: enemy engages`, `Interrupt: attacked`, `Interrupt: hit`, \
                 `Interrupt: ally hit`"
            ),
        "{}",
        problems[0].message
    );
    assert_eq!(problems[1].line, 13);
    assert!(
        problems[1]
            .message
            .contains("names its trigger after a colon"),
        "{}",
        problems[1].message
    );
}

/// E-20: a readied Move that goes off in the next round, before the unit's turn,
/// costs that turn its Move action (the action type it readied).
#[test]
fn e_20_a_readied_move_fired_next_round_costs_that_turns_move() {
    let l = level(
        (20, 3),
        &[],
        vec![
            with(eu("Scout", "Heroes", (0, 1), 20), &["Fast"]),
            with(eu("Orc", "Foes", (9, 1), 40), &["Very Fast"]),
        ],
    );
    let mut b = battle(&l, &[]);
    end(&mut b, "Orc");
    b.submit(act(
        &b,
        "Scout",
        "Ready",
        &[("to", ArgValue::Cell(c(0, 2)))],
    ))
    .unwrap();
    end(&mut b, "Scout");
    b.submit(mv(&b, "Orc", &[(8, 1), (7, 1)])).unwrap();
    assert_eq!(
        cell(&b, "Scout"),
        c(0, 2),
        "it went off when the Orc came Nearby"
    );
    end(&mut b, "Orc");
    assert_eq!(active(&b), Some(id(&b, "Scout")));
    let pools = b.pools(id(&b, "Scout"));
    assert!(
        pools.contains(&("Move".to_string(), 0)) && pools.contains(&("Standard".to_string(), 1)),
        "{pools:?}"
    );
    assert!(
        log_lines(&b)
            .iter()
            .any(|l| l.contains("its readied Move action went off before this turn")),
        "{:?}",
        log_lines(&b)
    );
}
