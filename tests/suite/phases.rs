//! Scenario tests of the `phases` ruleset (RULES.md §1): every P- rule, gap
//! resolution and golden example, with scripted dice in the order the engine asks.
//!
//! Initiative: every unit rolls 2d6 (+ INT + AGI) in roster order at the start of
//! each round, so most tests begin with two faces per unit.

use crate::common;

use common::*;
use skirmish::engine::event::{Event, Stage};
use skirmish::engine::rulesets::phases::events::PhasesEvent;
use skirmish::engine::rulesets::phases::verbs::PhasesAction;
use skirmish::engine::units::UnitId;
use skirmish::engine::{Awaiting, Command, CommandError};
use skirmish::level::schema::*;

fn power(name: &str, range: u32, ranged: bool, damage: &str, add_tier: bool) -> PowerDef {
    PowerDef {
        name: name.into(),
        range,
        ranged,
        damage: damage.into(),
        add_tier,
        on_hit: vec![],
        damage_type: None,
        traits: Vec::new(),
    }
}

fn slowing_power() -> PowerDef {
    PowerDef {
        on_hit: vec![EffectDef {
            condition: "Slowed".into(),
            lasts: EffectDuration::SaveEnds,
        }],
        ..power("Hamstring", 1, false, "1d4", false)
    }
}

/// Attacker A (acts first) next to target T; both end their movement turns.
fn duel(a: UnitDef, t: UnitDef, faces: &[u32]) -> skirmish::engine::Battle {
    let mut all = vec![1, 1, 1, 1];
    all.extend_from_slice(faces);
    // The next round's initiative rolls as soon as this one ends.
    all.extend_from_slice(&[1; 8]);
    let mut b = battle(&level((6, 3), &[], vec![a, t]), &all);
    skip_movement(&mut b);
    b
}

fn attack(b: &mut skirmish::engine::Battle, a: &str, t: &str) -> Result<Vec<Event>, CommandError> {
    let (a, t) = (id(b, a), id(b, t));
    b.submit(Command::Attack {
        unit: a,
        target: t,
        power: None,
        aim: None,
        approach: Vec::new(),
    })
    .map(|e| e.to_vec())
}

// ---------------------------------------------------------------- P-EX-1 … P-EX-3

#[test]
fn p_ex_1_two_tier_advantage_rolls_d8_keeps_two_highest() {
    // P-EX-1, P-03, P-04, P-07, P-24: Tier 3 vs Tier 1 = 2 sources → d8, keep highest two.
    let mut b = duel(
        unit("A", "Blue", (1, 1), 10, 3, 2, 10),
        unit("T", "Red", (2, 1), 0, 1, 0, 12),
        &[1, 4, 7, 2],
    );
    let ev = attack(&mut b, "A", "T").unwrap();
    let (hit, kept, total, die) = attack_summary(&attacks(&ev)[0]);
    assert_eq!((hit, kept, total, die), (true, vec![7, 4], 13, Some(8)));
    // P-GAP-06: damage 1d6 + Tier = 2 + 3.
    assert_eq!(hp(&b, "T"), 10 - 5);

    let mut b = duel(
        unit("A", "Blue", (1, 1), 10, 3, 2, 10),
        unit("T", "Red", (2, 1), 0, 1, 0, 12),
        &[1, 4, 2],
    );
    let ev = attack(&mut b, "A", "T").unwrap();
    assert_eq!(
        attack_summary(&attacks(&ev)[0]),
        (false, vec![4, 2], 8, Some(8))
    );
    assert_eq!(hp(&b, "T"), 10, "P-GAP-06: a miss deals nothing");
}

#[test]
fn p_ex_2_disadvantage_sizes_and_defend_stacking() {
    // P-EX-2, P-05, P-06, P-07, P-27: Tier 1 vs Tier 2 Defending → 2 sources → d10, keep lowest two.
    let a = || unit("A", "Blue", (1, 1), 0, 1, 3, 10);
    let t = || unit("T", "Red", (2, 1), 10, 2, 0, 11);
    // T acts first in battle (higher initiative) and Defends; A then attacks.
    let mut b = duel(a(), t(), &[6, 5, 2]);
    b.submit(PhasesAction::Defend.by(id(&b, "T"))).unwrap();
    let ev = attack(&mut b, "A", "T").unwrap();
    let (hit, kept, total, die) = attack_summary(&attacks(&ev)[0]);
    assert_eq!((hit, kept, total, die), (false, vec![5, 2], 10, Some(10)));
    // Not Defending: 1 source → d12; 6, 5, 9 keeps 5 + 6 = 11 → 14 ≥ 11.
    let mut b = duel(a(), t(), &[6, 5, 9, 1]);
    b.submit(Command::EndTurn { unit: id(&b, "T") }).unwrap();
    let ev = attack(&mut b, "A", "T").unwrap();
    let (hit, kept, total, die) = attack_summary(&attacks(&ev)[0]);
    assert_eq!((hit, kept, total, die), (true, vec![6, 5], 14, Some(12)));
}

#[test]
fn p_ex_3_advantage_and_disadvantage_net_out() {
    // P-EX-3, P-GAP-03, P-15, P-27: tier (+1) and seized (+1) against Defending (−1) → net 1 → d6.
    let mut lvl = level(
        (6, 3),
        &[],
        vec![
            unit("A", "Blue", (1, 1), 0, 2, 1, 10),
            unit("T", "Red", (2, 1), 10, 1, 0, 9),
        ],
    );
    lvl.sides[1].decisions = DecisionPolicy::Ask;
    let mut b = battle(
        &lvl,
        &[
            1, 1, 1, 1, /* round 2 */ 1, 1, 1, 1, /* attack */ 3, 3, 5,
            /* damage */ 1,
        ],
    );
    let red = b.side_id("Red").unwrap();
    // Round 1: Red declines to seize; T Defends in the Battle Phase (it acts first).
    assert!(
        matches!(b.awaiting(), Awaiting::Decision(_)),
        "Red is asked whether to seize"
    );
    b.submit(Command::Seize {
        side: red,
        units: vec![],
    })
    .unwrap();
    skip_movement(&mut b);
    assert_eq!(active(&b), "T", "P-13: high initiative battles first");
    b.submit(PhasesAction::Defend.by(id(&b, "T"))).unwrap();
    b.submit(Command::EndTurn { unit: id(&b, "A") }).unwrap();
    // Round 2: T seizes; it moves first and battles last (P-15), still Defending (P-GAP-10).
    b.submit(Command::Seize {
        side: red,
        units: vec![id(&b, "T")],
    })
    .unwrap();
    assert_eq!(active(&b), "T", "P-15: the seizer moves first");
    skip_movement(&mut b);
    assert_eq!(active(&b), "A", "P-15: the seizer battles last");
    let ev = attack(&mut b, "A", "T").unwrap();
    let (hit, kept, total, die) = attack_summary(&attacks(&ev)[0]);
    assert_eq!((hit, kept, total, die), (true, vec![5, 3], 9, Some(6)));
    let PhasesEvent::AttackRolled {
        advantage,
        disadvantage,
        ..
    } = &attacks(&ev)[0]
    else {
        unreachable!()
    };
    assert_eq!(advantage.len(), 2);
    assert_eq!(disadvantage, &vec!["target is defending".to_string()]);
}

// ---------------------------------------------------------------- P-EX-4: initiative order

fn four(lvl_decisions: DecisionPolicy) -> skirmish::level::schema::Level {
    // Roster: Knight, Rogue, Goblin, Ogre; INT chosen so 2d6 of 1s give 11, 8, 8, 5.
    let mut l = level(
        (10, 10),
        &[],
        vec![
            unit("Knight", "Blue", (0, 0), 9, 1, 0, 10),
            unit("Rogue", "Blue", (0, 2), 6, 1, 0, 10),
            unit("Goblin", "Red", (9, 9), 6, 1, 0, 10),
            unit("Ogre", "Red", (9, 7), 3, 1, 0, 10),
        ],
    );
    l.sides[0].decisions = lvl_decisions;
    l
}

fn order_events(events: &[Event], stage: Stage) -> Vec<UnitId> {
    events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::OrderSet { stage: s, order } if *s == stage => Some(order.clone()),
            _ => None,
        })
        .expect("order set")
}

#[test]
fn p_ex_4_tie_break_and_orders() {
    // P-EX-4, P-11, P-12, P-13, P-14, P-GAP-01, P-GAP-02: Rogue and Goblin tie at 8;
    // they roll 4/4 (still tied), then 2/6: the Goblin ranks higher.
    let faces = [1, 1, 1, 1, 1, 1, 1, 1, 4, 4, 2, 6];
    let mut b = battle(&four(DecisionPolicy::Never), &faces);
    let totals: Vec<i32> = b
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::InitiativeRolled {
                total,
                modifier,
                faces,
                ..
            } => {
                assert_eq!(faces.len(), 2, "P-GAP-01: initiative is 2d6 + INT + AGI");
                assert_eq!(*total, faces.iter().sum::<u32>() as i32 + modifier);
                Some(*total)
            }
            _ => None,
        })
        .collect();
    assert_eq!(totals, [11, 8, 8, 5]);
    let ties: Vec<u32> = b
        .events()
        .iter()
        .filter_map(|e| {
            if let Event::TieBreakRolled { face, .. } = e {
                Some(*face)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(
        ties,
        [4, 4, 2, 6],
        "P-14: only the tied units roll, again while tied"
    );
    let names = |b: &skirmish::engine::Battle, ids: Vec<UnitId>| {
        ids.into_iter().map(|u| b.unit_name(u)).collect::<Vec<_>>()
    };
    assert_eq!(
        names(&b, order_events(b.events(), Stage::Movement)),
        ["Ogre", "Rogue", "Goblin", "Knight"]
    );
    skip_movement(&mut b);
    assert_eq!(
        names(&b, order_events(b.events(), Stage::Attack)),
        ["Knight", "Goblin", "Rogue", "Ogre"]
    );
    // P-GAP-02: the roll-off only orders; the totals stay 8.
    assert!(b.events().iter().all(|e| !matches!(e, Event::InitiativeRolled { total: 9.., unit, .. } if b.unit_name(*unit) == "Goblin")));
}

#[test]
fn p_ex_4_knight_seizes() {
    // P-EX-4 (seize variant), P-15, P-GAP-12.
    let faces = [1, 1, 1, 1, 1, 1, 1, 1, 4, 4, 2, 6];
    let mut b = battle(&four(DecisionPolicy::Ask), &faces);
    let blue = b.side_id("Blue").unwrap();
    let Awaiting::Decision(d) = b.awaiting() else {
        panic!("Blue is asked")
    };
    let eligible: Vec<Command> = d.options.iter().map(|o| o.command.clone()).collect();
    let seize = |u: &str| Command::Seize {
        side: blue,
        units: vec![id(&b, u)],
    };
    assert_eq!(
        eligible,
        vec![seize("Rogue"), seize("Knight")],
        "P-GAP-12: one option per unit, in ascending initiative"
    );
    assert_eq!(
        d.decline.map(|o| o.command),
        Some(Command::Seize {
            side: blue,
            units: vec![]
        }),
        "P-15: seizing is optional"
    );
    b.submit(Command::Seize {
        side: blue,
        units: vec![id(&b, "Knight")],
    })
    .unwrap();
    let names = |b: &skirmish::engine::Battle, ids: Vec<UnitId>| {
        ids.into_iter().map(|u| b.unit_name(u)).collect::<Vec<_>>()
    };
    assert_eq!(
        names(&b, order_events(b.events(), Stage::Movement)),
        ["Knight", "Ogre", "Rogue", "Goblin"]
    );
    skip_movement(&mut b);
    assert_eq!(
        names(&b, order_events(b.events(), Stage::Attack)),
        ["Goblin", "Rogue", "Ogre", "Knight"]
    );
    assert!(conditions(&b, "Knight").contains(&"Seized".to_string()));
}

#[test]
fn p_15_seizing_is_worth_the_kill_it_enables_and_only_normal_ai_seizes() {
    // P-15: the Knight could move first, reach the 1-HP Goblin 3 squares away and
    // likely defeat it before it walks off: seizing is worth that kill chance. The
    // Rogue, far from every enemy, gains nothing by it. INT 2, 1, 0: no ties (P-14).
    use rand::SeedableRng;
    use skirmish::ai::{AiPolicy, choose};
    let mut goblin = unit("Goblin", "Red", (3, 1), 0, 1, 0, 8);
    goblin.stats.insert("HP".into(), 1);
    let mut l = level(
        (16, 3),
        &[],
        vec![
            unit("Knight", "Blue", (0, 1), 2, 3, 8, 10),
            unit("Rogue", "Blue", (15, 2), 1, 1, 0, 10),
            goblin,
        ],
    );
    l.sides[0].decisions = DecisionPolicy::Ask;
    let b = battle(&l, &[1; 6]);
    let Awaiting::Decision(d) = b.awaiting() else {
        panic!("P-15: Blue is asked whether to seize")
    };
    let value = |name: &str| {
        let label = format!("{name} seizes");
        d.options.iter().find(|o| o.label == label).unwrap().value
    };
    assert!(value("Knight") >= 0.5, "P-15: {}", value("Knight"));
    assert_eq!(value("Rogue"), 0.0, "P-15: no kill within reach");
    assert!(d.lookahead, "a seize pays off only later");
    let blue = b.side_id("Blue").unwrap();
    let seize = |units: Vec<UnitId>| Command::Seize { side: blue, units };
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
    assert_eq!(
        choose(&b, AiPolicy::Normal, &mut rng),
        Some(seize(vec![id(&b, "Knight")])),
        "P-15: Normal seizes with the unit a kill is worth it for"
    );
    assert_eq!(
        choose(&b, AiPolicy::Easy, &mut rng),
        Some(seize(vec![])),
        "P-15: Easy never seizes"
    );
    // Normal's choice played: the Knight (highest initiative) moves first instead of
    // last, is Seized, and battles after every other unit.
    let mut b = b;
    b.submit(seize(vec![id(&b, "Knight")])).unwrap();
    assert_eq!(active(&b), "Knight", "P-15: the seizer moves first");
    assert!(conditions(&b, "Knight").contains(&"Seized".to_string()));
    skip_movement(&mut b);
    let names: Vec<String> = order_events(b.events(), Stage::Attack)
        .into_iter()
        .map(|u| b.unit_name(u))
        .collect();
    assert_eq!(
        names,
        ["Rogue", "Goblin", "Knight"],
        "P-15: the seizer battles last"
    );
}

#[test]
fn p_gap_12_several_seizers_keep_initiative_order_among_themselves() {
    // P-GAP-12: Rogue (8) and Knight (11) both seize.
    let faces = [1, 1, 1, 1, 1, 1, 1, 1, 4, 4, 2, 6];
    let mut b = battle(&four(DecisionPolicy::Ask), &faces);
    let blue = b.side_id("Blue").unwrap();
    b.submit(Command::Seize {
        side: blue,
        units: vec![id(&b, "Rogue"), id(&b, "Knight")],
    })
    .unwrap();
    let names = |b: &skirmish::engine::Battle, ids: Vec<UnitId>| {
        ids.into_iter().map(|u| b.unit_name(u)).collect::<Vec<_>>()
    };
    assert_eq!(
        names(&b, order_events(b.events(), Stage::Movement)),
        ["Rogue", "Knight", "Ogre", "Goblin"]
    );
    skip_movement(&mut b);
    assert_eq!(
        names(&b, order_events(b.events(), Stage::Attack)),
        ["Goblin", "Ogre", "Knight", "Rogue"]
    );
}

#[test]
fn p_10_p_11_round_structure_and_initiative_every_round() {
    // P-10: Initiative → Movement → Battle → End; P-11: initiative is re-rolled each round.
    let lvl = level(
        (6, 3),
        &[],
        vec![
            unit("A", "Blue", (0, 0), 5, 1, 0, 10),
            unit("B", "Red", (5, 2), 0, 1, 0, 10),
        ],
    );
    let mut b = battle(&lvl, &[1; 8]);
    skip_to(&mut b, 2, Stage::Movement);
    let stages: Vec<Stage> = b
        .events()
        .iter()
        .filter_map(|e| {
            if let Event::StageStarted { stage } = e {
                Some(*stage)
            } else {
                None
            }
        })
        .collect();
    use Stage::*;
    assert_eq!(
        stages,
        [
            Initiative, Movement, Attack, EndOfTurn, Initiative, Movement
        ]
    );
    let rolls = b
        .events()
        .iter()
        .filter(|e| matches!(e, Event::InitiativeRolled { .. }))
        .count();
    assert_eq!(rolls, 4, "two units, two rounds");
}

// ---------------------------------------------------------------- movement

fn corridor() -> Vec<&'static str> {
    // P-EX-5 on a corridor: M at (5,1), E at (6,1); (2,1) and (1,1) difficult.
    vec!["##########", ".~~.......", "##########"]
}

#[test]
fn p_ex_5_walk_through_difficult_terrain_provokes_once() {
    // P-EX-5, P-17, P-19, P-20, P-GAP-08: leaving (5,1) provokes E once; costs 1+1+2+2 = 6.
    let lvl = level(
        (10, 3),
        &corridor(),
        vec![
            unit("M", "Blue", (5, 1), 0, 1, 0, 10),
            unit("E", "Red", (6, 1), 5, 1, 0, 30),
        ],
    );
    // Initiative 1s; M moves first (lower). E's OA misses: 1, 1.
    let mut b = battle(&lvl, &[1, 1, 1, 1, 1, 1]);
    assert_eq!(active(&b), "M");
    let m = id(&b, "M");
    let path = vec![c(4, 1), c(3, 1), c(2, 1), c(1, 1)];
    let ev = b
        .submit(Command::Move {
            unit: m,
            power: "Walk".into(),
            path,
            target: None,
        })
        .unwrap()
        .to_vec();
    let oas: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e.narration(), Some(PhasesEvent::OpportunityAttack { .. })))
        .collect();
    assert_eq!(oas.len(), 1, "exactly one OA, from E, leaving (5,1)");
    assert!(
        matches!(oas[0].narration(), Some(PhasesEvent::OpportunityAttack { cell, .. }) if *cell == c(5, 1))
    );
    // The OA comes before M leaves the square.
    let oa_at = ev
        .iter()
        .position(|e| matches!(e.narration(), Some(PhasesEvent::OpportunityAttack { .. })))
        .unwrap();
    let first_step = ev
        .iter()
        .position(|e| matches!(e, Event::Moved { .. }))
        .unwrap();
    assert!(oa_at < first_step);
    let costs: Vec<u32> = ev
        .iter()
        .filter_map(|e| {
            if let Event::Moved { cost, .. } = e {
                Some(*cost)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(costs, [1, 1, 2, 2]);
    assert_eq!(cell(&b, "M"), c(1, 1));
}

#[test]
fn p_ex_5_variant_slowing_opportunity_attack_stops_the_move() {
    // P-EX-5 variant, P-18, P-GAP-08: E's OA hits and applies Slowed → M stays at (5,1).
    let mut e = unit("E", "Red", (6, 1), 5, 1, 10, 30);
    e.powers = vec![slowing_power()];
    let lvl = level(
        (10, 3),
        &corridor(),
        vec![unit("M", "Blue", (5, 1), 0, 1, 0, 10), e],
    );
    // OA: 6, 6 + 10 hits; damage 1d4 = 1.
    let mut b = battle(&lvl, &[1, 1, 1, 1, 6, 6, 1]);
    let m = id(&b, "M");
    let path = vec![c(4, 1), c(3, 1), c(2, 1), c(1, 1)];
    let ev = b
        .submit(Command::Move {
            unit: m,
            power: "Walk".into(),
            path,
            target: None,
        })
        .unwrap()
        .to_vec();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::MovementStopped { .. }))
    );
    assert_eq!(cell(&b, "M"), c(5, 1));
    assert!(conditions(&b, "M").contains(&"Slowed".to_string()));
}

#[test]
fn p_gap_09_slowed_at_start_cannot_move_and_saves_end_it() {
    // P-GAP-09, P-18, P-29: Slowed in round 1's battle; round 2 movement is lost; End-Phase saves.
    let mut e = unit("E", "Red", (2, 1), 10, 1, 10, 30);
    e.powers = vec![slowing_power()];
    let lvl = level((6, 3), &[], vec![unit("M", "Blue", (1, 1), 0, 1, 0, 10), e]);
    let mut b = battle(
        &lvl,
        &[
            1, 1, 1, 1, /* E hits */ 6, 6, 1, /* End: M's save fails */ 1, 2,
            /* round 2 */ 1, 1, 1, 1, /* save */ 4, 3, /* round 3 */ 1, 1, 1, 1,
        ],
    );
    skip_movement(&mut b);
    attack(&mut b, "E", "M").unwrap();
    b.submit(Command::EndTurn { unit: id(&b, "M") }).unwrap();
    assert!(
        conditions(&b, "M").contains(&"Slowed".to_string()),
        "P-29: 3 < 7 keeps it"
    );
    // Round 2: M is Slowed when its movement turn starts: its turn ends at once.
    assert_eq!(b.turn().round, 2);
    assert_ne!(active(&b), "M", "M's movement turn was skipped");
    let err = b.check(&Command::Move {
        unit: id(&b, "M"),
        power: "Walk".into(),
        path: vec![c(0, 1)],
        target: None,
    });
    assert!(err.is_err());
    skip_to(&mut b, 3, Stage::Movement);
    // The save of 4 + 3 = 7 ended it at the end of round 2.
    assert!(!conditions(&b, "M").contains(&"Slowed".to_string()));
}

#[test]
fn p_ex_6_saves_end_and_sustain_effects() {
    // P-EX-6, P-29, P-GAP-14: effect A saved (3+4), effect B not (1+5), a sustained one kept (6+6).
    let mut e = unit("E", "Red", (2, 1), 10, 1, 10, 30);
    let mut sustain = slowing_power();
    sustain.name = "Bind".into();
    sustain.on_hit = vec![
        EffectDef {
            condition: "Slowed".into(),
            lasts: EffectDuration::SaveEnds,
        },
        EffectDef {
            condition: "Dazed".into(),
            lasts: EffectDuration::SaveEnds,
        },
        EffectDef {
            condition: "Bound".into(),
            lasts: EffectDuration::Sustained,
        },
    ];
    e.powers = vec![sustain];
    let lvl = level((6, 3), &[], vec![unit("M", "Blue", (1, 1), 0, 1, 0, 10), e]);
    let mut b = battle(
        &lvl,
        &[
            1, 1, 1, 1, 6, 6, 1, /* saves */ 3, 4, 1, 5, 6, 6, /* round 2 */ 1, 1, 1, 1,
        ],
    );
    skip_movement(&mut b);
    attack(&mut b, "E", "M").unwrap();
    let ev = b
        .submit(Command::EndTurn { unit: id(&b, "M") })
        .unwrap()
        .to_vec();
    let saves: Vec<(String, i32, bool)> = ev
        .iter()
        .filter_map(|e| match e.narration() {
            Some(PhasesEvent::SaveRolled {
                condition,
                total,
                success,
                ..
            }) => Some((condition.clone(), *total, *success)),
            _ => None,
        })
        .collect();
    assert_eq!(
        saves,
        [
            ("Slowed".into(), 7, true),
            ("Dazed".into(), 6, false),
            ("Bound".into(), 12, true)
        ]
    );
    let sustained_by_e = ev.iter().any(|x| matches!(x.narration(), Some(PhasesEvent::SaveRolled { unit, condition, .. }) if condition == "Bound" && b.unit_name(*unit) == "E"));
    assert!(
        sustained_by_e,
        "P-GAP-14: the maintainer rolls the sustain save"
    );
    assert_eq!(conditions(&b, "M"), ["Dazed", "Bound"]);
}

#[test]
fn p_16_p_gap_07_one_movement_power_per_phase() {
    // P-16, P-GAP-07: after one movement power the unit's movement turn is over.
    let lvl = level(
        (8, 3),
        &[],
        vec![
            unit("A", "Blue", (0, 0), 0, 1, 0, 10),
            unit("B", "Red", (7, 2), 5, 1, 0, 10),
        ],
    );
    let mut b = battle(&lvl, &[1; 4]);
    let a = id(&b, "A");
    b.submit(Command::Move {
        unit: a,
        power: "Shift".into(),
        path: vec![c(1, 0)],
        target: None,
    })
    .unwrap();
    let again = b.submit(Command::Move {
        unit: a,
        power: "Shift".into(),
        path: vec![c(2, 0)],
        target: None,
    });
    assert!(
        matches!(again, Err(CommandError::NotYourTurn { .. })),
        "{again:?}"
    );
    // Moving does not block a Battle action.
    skip_movement(&mut b);
    assert!(b.legal_commands().iter().any(|c| is_verb(c, "Defend")));
}

#[test]
fn p_02_p_gap_04_movement_power_budgets() {
    // P-02, P-GAP-04: Shift 1, Walk 6, Hustle 9, Run 12, Disengage 2; an unknown power is refused.
    let lvl = level(
        (20, 3),
        &[],
        vec![
            unit("A", "Blue", (0, 1), 0, 1, 0, 10),
            unit("B", "Red", (19, 0), 5, 1, 0, 10),
        ],
    );
    let b = battle(&lvl, &[1; 4]);
    let a = id(&b, "A");
    let row = |n: i32| (1..=n).map(|x| c(x, 1)).collect::<Vec<_>>();
    for (power, budget) in [
        ("Shift", 1),
        ("Walk", 6),
        ("Hustle", 9),
        ("Run", 12),
        ("Disengage", 2),
    ] {
        let ok = b.check(&Command::Move {
            unit: a,
            power: power.into(),
            path: row(budget),
            target: None,
        });
        assert!(ok.is_ok(), "{power} {budget}: {ok:?}");
        let too_far = b.check(&Command::Move {
            unit: a,
            power: power.into(),
            path: row(budget + 1),
            target: None,
        });
        assert!(
            matches!(too_far, Err(CommandError::NotEnoughMovement { .. })),
            "{power}: {too_far:?}"
        );
    }
    let unknown = b.check(&Command::Move {
        unit: a,
        power: "Teleport".into(),
        path: row(1),
        target: None,
    });
    assert!(matches!(unknown, Err(CommandError::Unknown { .. })));
}

#[test]
fn p_gap_04_hustle_and_run_side_effects() {
    // P-GAP-04: Hustle gives own attacks disadvantage this round; Run forbids Attack and
    // gives attackers advantage.
    let hustle = level(
        (12, 3),
        &[],
        vec![
            unit("A", "Blue", (0, 1), 0, 1, 0, 10),
            unit("B", "Red", (9, 1), 5, 1, 0, 10),
        ],
    );
    let mut b = battle(
        &hustle,
        &[
            1, 1, 1, 1, /* B attacks A: plain 2d6 */ 1, 1, /* A attacks B */ 6, 5, 2,
            /* round 2 */ 1, 1, 1, 1, /* A attacks B */ 1, 2, 1, 1, 1, 1,
        ],
    );
    let a = id(&b, "A");
    // Hustle reaches 9 squares: 8 here, next to B.
    b.submit(Command::Move {
        unit: a,
        power: "Hustle".into(),
        path: (1..=8).map(|x| c(x, 1)).collect(),
        target: None,
    })
    .unwrap();
    assert_eq!(cell(&b, "A"), c(8, 1));
    b.submit(Command::EndTurn { unit: id(&b, "B") }).unwrap();
    // B attacks the hustler without advantage: Hustle costs only the hustler.
    let ev = attack(&mut b, "B", "A").unwrap();
    assert_eq!(attack_summary(&attacks(&ev)[0]).3, None);
    // A's own attack this round: 1 disadvantage source → d12, the two lowest kept.
    let ev = attack(&mut b, "A", "B").unwrap();
    let PhasesEvent::AttackRolled { disadvantage, .. } = &attacks(&ev)[0] else {
        unreachable!()
    };
    assert_eq!(disadvantage, &vec!["attacker hustled".to_string()]);
    assert_eq!(
        attack_summary(&attacks(&ev)[0]),
        (false, vec![5, 2], 7, Some(12))
    );
    // Next round the penalty is gone: plain 2d6.
    skip_to(&mut b, 2, Stage::Attack);
    b.submit(Command::EndTurn { unit: id(&b, "B") }).unwrap();
    let ev = attack(&mut b, "A", "B").unwrap();
    assert_eq!(
        attack_summary(&attacks(&ev)[0]),
        (false, vec![2, 1], 3, None)
    );

    let lvl = level(
        (12, 3),
        &[],
        vec![
            unit("A", "Blue", (0, 1), 0, 1, 0, 10),
            unit("B", "Red", (9, 1), 5, 1, 0, 10),
        ],
    );
    let mut b = battle(&lvl, &[1, 1, 1, 1, /* B attacks A: 1 1 + d6 */ 1, 1, 1]);
    let a = id(&b, "A");
    b.submit(Command::Move {
        unit: a,
        power: "Run".into(),
        path: (1..=8).map(|x| c(x, 1)).collect(),
        target: None,
    })
    .unwrap();
    b.submit(Command::EndTurn { unit: id(&b, "B") }).unwrap();
    // B battles first and attacks the runner with advantage (1 source → d6).
    let ev = attack(&mut b, "B", "A").unwrap();
    assert_eq!(attack_summary(&attacks(&ev)[0]).3, Some(6));
    let refused = b.check(&Command::Attack {
        unit: a,
        target: id(&b, "B"),
        power: None,
        aim: None,
        approach: Vec::new(),
    });
    assert!(
        matches!(refused, Err(CommandError::Forbidden(_))),
        "{refused:?}"
    );
}

#[test]
fn p_gap_04_charge_needs_closer_steps_and_grants_advantage() {
    // P-GAP-04 Charge: each step closer, end adjacent, +1 advantage on the first attack.
    let lvl = level(
        (10, 3),
        &[],
        vec![
            unit("A", "Blue", (0, 1), 10, 1, 0, 10),
            unit("B", "Red", (6, 1), 0, 1, 0, 10),
        ],
    );
    let mut b = battle(&lvl, &[1, 1, 1, 1, /* attack */ 2, 2, 6, /* dmg */ 1]);
    b.submit(Command::EndTurn { unit: id(&b, "B") }).unwrap();
    let a = id(&b, "A");
    let t = Some(id(&b, "B"));
    let sideways = b.check(&Command::Move {
        unit: a,
        power: "Charge".into(),
        path: vec![c(0, 0)],
        target: t,
    });
    assert!(
        matches!(sideways, Err(CommandError::PathBlocked(_))),
        "{sideways:?}"
    );
    let short = b.check(&Command::Move {
        unit: a,
        power: "Charge".into(),
        path: vec![c(1, 1)],
        target: t,
    });
    assert!(
        matches!(short, Err(CommandError::OutOfReach(_))),
        "{short:?}"
    );
    b.submit(Command::Move {
        unit: a,
        power: "Charge".into(),
        path: (1..=5).map(|x| c(x, 1)).collect(),
        target: t,
    })
    .unwrap();
    let ev = attack(&mut b, "A", "B").unwrap();
    let PhasesEvent::AttackRolled {
        advantage,
        extra_die,
        ..
    } = &attacks(&ev)[0]
    else {
        unreachable!()
    };
    assert_eq!(advantage, &vec!["charge".to_string()]);
    assert_eq!(extra_die.map(|x| x.sides), Some(6));
}

#[test]
fn p_19_p_20_every_threatening_enemy_attacks_allies_never() {
    // P-19, P-20: leaving a square threatened by two enemies provokes two OAs; an ally
    // next to the mover provokes nothing.
    let lvl = level(
        (8, 4),
        &[],
        vec![
            unit("M", "Blue", (3, 1), 0, 1, 0, 30),
            unit("Pal", "Blue", (3, 2), 0, 1, 0, 10),
            unit("E1", "Red", (4, 1), 5, 1, 0, 10),
            unit("E2", "Red", (4, 0), 5, 1, 0, 10),
        ],
    );
    let mut b = battle(
        &lvl,
        &[
            1, 1, 1, 1, 1, 1, 1, 1, /* tie M,Pal */ 1, 2, /* tie E1,E2 */ 1, 2, 1, 1, 1,
            1,
        ],
    );
    if active(&b) == "Pal" {
        b.submit(Command::EndTurn {
            unit: id(&b, "Pal"),
        })
        .unwrap();
    }
    assert_eq!(active(&b), "M");
    let ev = b
        .submit(Command::Move {
            unit: id(&b, "M"),
            power: "Walk".into(),
            path: vec![c(2, 1), c(1, 1)],
            target: None,
        })
        .unwrap()
        .to_vec();
    let oas = ev
        .iter()
        .filter(|e| matches!(e.narration(), Some(PhasesEvent::OpportunityAttack { .. })))
        .count();
    assert_eq!(oas, 2);
}

#[test]
fn p_21_p_28_p_ex_7_disengage_shifts_without_provoking_and_penalises_attacks() {
    // P-21, P-28, P-EX-7, P-GAP-11: Disengage (battle action, round 1 here) → no OA;
    // attacks at disadvantage for the rest of round 1 and all of round 2; none in round 3.
    let lvl = level(
        (8, 3),
        &[],
        vec![
            unit("A", "Blue", (1, 1), 10, 1, 0, 10),
            unit("E", "Red", (2, 1), 0, 1, 0, 10),
        ],
    );
    let mut b = battle(
        &lvl,
        &[
            1, 1, 1, 1, /* round 2 */ 1, 1, 1, 1, /* A attacks */ 6, 5, 2,
            /* round 3 */ 1, 1, 1, 1, /* A attacks */ 1, 2, 1, 1, 1, 1,
        ],
    );
    skip_movement(&mut b);
    let a = id(&b, "A");
    // Past E by the shortest way: more than Disengage's 2 squares.
    let too_far = b.check(&PhasesAction::Disengage { to: c(5, 1) }.by(a));
    assert!(matches!(
        too_far,
        Err(CommandError::NotEnoughMovement { .. })
    ));
    let ev = b
        .submit(PhasesAction::Disengage { to: c(0, 0) }.by(a))
        .unwrap()
        .to_vec();
    assert!(
        !ev.iter()
            .any(|e| matches!(e.narration(), Some(PhasesEvent::OpportunityAttack { .. })))
    );
    assert_eq!(cell(&b, "A"), c(0, 0));
    let e = id(&b, "E");
    let round_of = |b: &skirmish::engine::Battle| b.turn().round;
    assert_eq!(round_of(&b), 1);
    assert!(conditions(&b, "A").contains(&"Disengaged".to_string()));
    // Round 2: E moves first and stays; A walks back next to E and attacks it.
    skip_to(&mut b, 2, Stage::Movement);
    b.submit(Command::EndTurn { unit: e }).unwrap();
    b.submit(Command::Move {
        unit: a,
        power: "Walk".into(),
        path: vec![c(1, 1)],
        target: None,
    })
    .unwrap();
    assert!(
        conditions(&b, "A").contains(&"Disengaged".to_string()),
        "lasts through round 2"
    );
    let ev = attack(&mut b, "A", "E").unwrap();
    let PhasesEvent::AttackRolled { disadvantage, .. } = &attacks(&ev)[0] else {
        unreachable!()
    };
    assert_eq!(disadvantage, &vec!["attacker disengaged".to_string()]);
    assert_eq!(
        attack_summary(&attacks(&ev)[0]),
        (false, vec![5, 2], 7, Some(12)),
        "d12, the two lowest kept"
    );
    skip_to(&mut b, 3, Stage::Movement);
    assert!(
        !conditions(&b, "A").contains(&"Disengaged".to_string()),
        "gone in round 3"
    );
    skip_movement(&mut b);
    let ev = attack(&mut b, "A", "E").unwrap();
    assert_eq!(
        attack_summary(&attacks(&ev)[0]),
        (false, vec![2, 1], 3, None),
        "round 3: plain 2d6"
    );
}

#[test]
fn p_21_p_28_a_movement_phase_disengage_provokes_nothing() {
    // P-21, P-28: Disengage used as the movement power shifts 2 squares out of E's
    // threatened square without an opportunity attack; a Walk along the same path
    // provokes one (P-20).
    let lvl = level(
        (8, 3),
        &[],
        vec![
            unit("A", "Blue", (1, 1), 0, 1, 0, 10),
            unit("E", "Red", (2, 1), 10, 1, 0, 10),
        ],
    );
    let path = vec![c(0, 1), c(0, 0)];
    let mut b = battle(&lvl, &[1; 4]);
    assert_eq!(active(&b), "A", "A moves first");
    let ev = b
        .submit(Command::Move {
            unit: id(&b, "A"),
            power: "Disengage".into(),
            path: path.clone(),
            target: None,
        })
        .unwrap()
        .to_vec();
    assert!(attacks(&ev).is_empty(), "no opportunity attack");
    assert_eq!(cell(&b, "A"), c(0, 0));
    assert!(conditions(&b, "A").contains(&"Disengaged".to_string()));
    // Walking out instead: E's opportunity attack (2d6, it misses) comes first.
    let mut b = battle(&lvl, &[1, 1, 1, 1, 1, 1]);
    let ev = b
        .submit(Command::Move {
            unit: id(&b, "A"),
            power: "Walk".into(),
            path,
            target: None,
        })
        .unwrap()
        .to_vec();
    assert_eq!(attacks(&ev).len(), 1);
    assert_eq!(cell(&b, "A"), c(0, 0));
}

#[test]
fn p_gap_04_shift_leaves_a_threatened_square_without_provoking() {
    // P-GAP-04 Shift: one careful step; leaving E's threatened square provokes nothing.
    let lvl = level(
        (8, 3),
        &[],
        vec![
            unit("A", "Blue", (1, 1), 0, 1, 0, 10),
            unit("E", "Red", (2, 1), 10, 1, 0, 10),
        ],
    );
    let mut b = battle(&lvl, &[1; 4]);
    let ev = b
        .submit(Command::Move {
            unit: id(&b, "A"),
            power: "Shift".into(),
            path: vec![c(0, 1)],
            target: None,
        })
        .unwrap()
        .to_vec();
    assert!(
        !ev.iter()
            .any(|e| matches!(e.narration(), Some(PhasesEvent::OpportunityAttack { .. })))
    );
    assert!(attacks(&ev).is_empty());
    assert_eq!(cell(&b, "A"), c(0, 1));
    assert!(conditions(&b, "A").is_empty(), "no penalty either");
}

#[test]
fn p_02_extra_movement_powers_come_from_the_units_list() {
    // P-02: units may have movement powers "from their calling or role": A lists Slip
    // (3 squares, provokes nothing) and Bound (Speed + 2); B lists none and may use
    // neither.
    let mut a = unit("A", "Blue", (1, 1), 0, 1, 0, 10);
    a.movement = vec!["Slip".into(), "Bound".into()];
    let lvl = level(
        (12, 3),
        &[],
        vec![
            a,
            unit("E", "Red", (2, 1), 10, 1, 0, 10),
            unit("B", "Blue", (1, 0), 1, 1, 0, 10),
        ],
    );
    let mut b = battle(&lvl, &[1; 6]);
    assert_eq!(active(&b), "A");
    let (a, bb) = (id(&b, "A"), id(&b, "B"));
    let slip = |unit, path: Vec<skirmish::engine::board::Cell>| Command::Move {
        unit,
        power: "Slip".into(),
        path,
        target: None,
    };
    // Bound: Speed 6 + 2 = 8 squares, where a Walk stops at 6.
    let row = |power: &str, n: i32| Command::Move {
        unit: a,
        power: power.into(),
        path: (1..=n).map(|x| c(1 + x, 2)).collect(),
        target: None,
    };
    assert!(b.check(&row("Bound", 8)).is_ok());
    for (power, n) in [("Bound", 9), ("Walk", 7)] {
        let far = b.check(&row(power, n));
        assert!(
            matches!(far, Err(CommandError::NotEnoughMovement { .. })),
            "{power} {n}: {far:?}"
        );
    }
    let too_far = b.check(&slip(a, vec![c(0, 2), c(1, 2), c(2, 2), c(3, 2)]));
    assert!(
        matches!(too_far, Err(CommandError::NotEnoughMovement { .. })),
        "{too_far:?}"
    );
    let ev = b
        .submit(slip(a, vec![c(0, 2), c(1, 2), c(2, 2)]))
        .unwrap()
        .to_vec();
    assert!(attacks(&ev).is_empty(), "Slip provokes nothing");
    assert_eq!(cell(&b, "A"), c(2, 2));
    // B's turn: it did not list Slip.
    assert_eq!(active(&b), "B");
    let refused = b.check(&slip(bb, vec![c(0, 0)]));
    assert!(
        matches!(refused, Err(CommandError::Unknown { .. })),
        "{refused:?}"
    );
}

#[test]
fn p_22_battle_actions_offered() {
    // P-22: Attack, Activate Item, Delay, Defend, Disengage.
    let mut a = unit("A", "Blue", (1, 1), 10, 1, 0, 10);
    a.items = vec![ItemDef {
        name: "Draught".into(),
        uses: 1,
        effect: ItemEffect::Heal("2d4".into()),
        ap: None,
    }];
    let lvl = level((6, 3), &[], vec![a, unit("E", "Red", (2, 1), 0, 1, 0, 10)]);
    let mut b = battle(&lvl, &[1; 4]);
    skip_movement(&mut b);
    let legal = b.legal_commands();
    assert!(legal.iter().any(|c| matches!(c, Command::Attack { .. })));
    assert!(
        legal
            .iter()
            .any(|c| matches!(c, Command::ActivateItem { .. }))
    );
    assert!(legal.iter().any(|c| is_verb(c, "Delay")));
    assert!(legal.iter().any(|c| is_verb(c, "Defend")));
    assert!(legal.iter().any(|c| is_verb(c, "Disengage")));
}

#[test]
fn p_23_total_equal_to_def_succeeds() {
    // P-23: 2d6 + ATK ≥ DEF — equal succeeds, one less fails.
    let mut b = duel(
        unit("A", "Blue", (1, 1), 10, 1, 2, 10),
        unit("T", "Red", (2, 1), 0, 1, 0, 10),
        &[4, 4, 1],
    );
    assert!(attack_summary(&attacks(&attack(&mut b, "A", "T").unwrap())[0]).0);
    let mut b = duel(
        unit("A", "Blue", (1, 1), 10, 1, 2, 10),
        unit("T", "Red", (2, 1), 0, 1, 0, 10),
        &[4, 3],
    );
    assert!(!attack_summary(&attacks(&attack(&mut b, "A", "T").unwrap())[0]).0);
}

#[test]
fn p_24_p_04_p_06_p_08_tier_table_and_caps() {
    // P-24 table: T1vT1 none; T1vT2 1 dis (d12); T1vT3 2 dis (d10); T2vT1 1 adv (d6); T3vT1 2 adv (d8).
    let cases = [
        (1, 1, None),
        (1, 2, Some((12, false))),
        (1, 3, Some((10, false))),
        (2, 1, Some((6, true))),
        (3, 1, Some((8, true))),
        (2, 3, Some((12, false))),
    ];
    for (ta, tt, want) in cases {
        // DEF 10 against 1 + 1: every attack misses, so no damage die follows.
        let mut b = duel(
            unit("A", "Blue", (1, 1), 10, ta, 0, 10),
            unit("T", "Red", (2, 1), 0, tt, 0, 10),
            &[1, 1, 1],
        );
        let ev = attack(&mut b, "A", "T").unwrap();
        let PhasesEvent::AttackRolled {
            extra_die, faces, ..
        } = &attacks(&ev)[0]
        else {
            unreachable!()
        };
        assert_eq!(
            extra_die.map(|x| (x.sides, x.advantage)),
            want,
            "T{ta} vs T{tt}"
        );
        assert_eq!(
            faces.len(),
            2 + usize::from(want.is_some()),
            "T{ta} vs T{tt}"
        );
    }
    // P-06, P-08: five disadvantage sources — two tiers (T1 against T3), a Defending
    // target, and an attacker that Disengaged last round and Hustled this round —
    // stop at the cap: one d6, the two lowest kept.
    let lvl = level(
        (6, 3),
        &[],
        vec![
            unit("A", "Blue", (1, 1), 10, 1, 0, 10),
            unit("T", "Red", (2, 1), 0, 3, 0, 10),
        ],
    );
    let mut b = battle(
        &lvl,
        &[
            1, 1, 1, 1, /* round 2 */ 1, 1, 1, 1, /* A attacks */ 6, 5, 1, 1, 1, 1, 1,
        ],
    );
    skip_movement(&mut b);
    let a = id(&b, "A");
    b.submit(PhasesAction::Disengage { to: c(0, 1) }.by(a))
        .unwrap();
    b.submit(PhasesAction::Defend.by(id(&b, "T"))).unwrap();
    assert_eq!(b.turn().round, 2);
    b.submit(Command::EndTurn { unit: id(&b, "T") }).unwrap();
    b.submit(Command::Move {
        unit: a,
        power: "Hustle".into(),
        path: vec![c(1, 1)],
        target: None,
    })
    .unwrap();
    let ev = attack(&mut b, "A", "T").unwrap();
    let PhasesEvent::AttackRolled {
        disadvantage,
        extra_die,
        faces,
        ..
    } = &attacks(&ev)[0]
    else {
        unreachable!()
    };
    assert_eq!(disadvantage.len(), 5, "{disadvantage:?}");
    assert_eq!(extra_die.map(|x| (x.sides, x.advantage)), Some((6, false)));
    assert_eq!(faces.len(), 3, "only one extra die is rolled");
    assert_eq!(
        attack_summary(&attacks(&ev)[0]),
        (false, vec![5, 1], 6, Some(6))
    );
}

#[test]
fn p_08_p_09_five_sources_cap_at_d12() {
    // P-08, P-09: tier ×2 + seized + ran + charge = 5 advantage sources → still one d12.
    let mut lvl = level(
        (10, 3),
        &[],
        vec![
            unit("A", "Blue", (1, 1), 10, 3, 0, 10),
            unit("T", "Red", (9, 1), 0, 1, 0, 10),
        ],
    );
    lvl.sides[1].decisions = DecisionPolicy::Ask;
    let mut b = battle(&lvl, &[1, 1, 1, 1, 1, 1, 12, 1]);
    let red = b.side_id("Red").unwrap();
    b.submit(Command::Seize {
        side: red,
        units: vec![id(&b, "T")],
    })
    .unwrap();
    let t = id(&b, "T");
    b.submit(Command::Move {
        unit: t,
        power: "Run".into(),
        path: vec![c(8, 1)],
        target: None,
    })
    .unwrap();
    let a = id(&b, "A");
    b.submit(Command::Move {
        unit: a,
        power: "Charge".into(),
        path: (2..=7).map(|x| c(x, 1)).collect(),
        target: Some(t),
    })
    .unwrap();
    let ev = attack(&mut b, "A", "T").unwrap();
    let PhasesEvent::AttackRolled {
        advantage,
        extra_die,
        faces,
        kept,
        ..
    } = &attacks(&ev)[0]
    else {
        unreachable!()
    };
    assert_eq!(advantage.len(), 5, "{advantage:?}");
    assert_eq!(extra_die.map(|x| x.sides), Some(12));
    assert_eq!(faces.len(), 3, "only one extra die is rolled");
    let mut kept = kept.clone();
    kept.sort_unstable();
    assert_eq!(kept, vec![1, 12]);
}

#[test]
fn p_25_activate_item_heals_and_uses_up() {
    // P-25: Activate Item: a healing draught (2d4) never heals above max HP.
    let mut a = unit("A", "Blue", (1, 1), 10, 1, 0, 10);
    a.items = vec![ItemDef {
        name: "Draught".into(),
        uses: 1,
        effect: ItemEffect::Heal("2d4".into()),
        ap: None,
    }];
    let mut e = unit("E", "Red", (2, 1), 0, 1, 10, 10);
    e.powers = vec![power("Club", 1, false, "1d6", false)];
    let lvl = level((6, 3), &[], vec![a, e]);
    // Round 1: E misses nothing — A acts first: pass; E hits A for 5. Round 2: A drinks (3+4).
    let mut b = battle(&lvl, &[1, 1, 1, 1, 6, 6, 5, 1, 1, 1, 1, 3, 4, 1, 1, 1, 1]);
    skip_movement(&mut b);
    b.submit(Command::EndTurn { unit: id(&b, "A") }).unwrap();
    attack(&mut b, "E", "A").unwrap();
    assert_eq!(hp(&b, "A"), 5);
    skip_to(&mut b, 2, Stage::Attack);
    let a = id(&b, "A");
    b.submit(Command::ActivateItem {
        unit: a,
        item: "Draught".into(),
        target: None,
    })
    .unwrap();
    assert_eq!(hp(&b, "A"), 10, "capped at max HP");
    skip_to(&mut b, 3, Stage::Attack);
    let again = b.check(&Command::ActivateItem {
        unit: a,
        item: "Draught".into(),
        target: None,
    });
    assert!(
        matches!(again, Err(CommandError::Forbidden(_))),
        "{again:?}"
    );
}

#[test]
fn p_26_p_gap_13_delay_then_act_before_a_later_unit() {
    // P-26, P-GAP-13: A delays; before C's turn, Blue declares A acts — A goes before C.
    let mut lvl = level(
        (8, 3),
        &[],
        vec![
            unit("A", "Blue", (0, 0), 10, 1, 0, 10),
            unit("B", "Red", (7, 0), 6, 1, 0, 10),
            unit("C", "Red", (7, 2), 3, 1, 0, 10),
        ],
    );
    lvl.sides[0].decisions = DecisionPolicy::Ask;
    let mut b = battle(&lvl, &[1; 6]);
    let blue = b.side_id("Blue").unwrap();
    b.submit(Command::Seize {
        side: blue,
        units: vec![],
    })
    .unwrap();
    skip_movement(&mut b);
    let a = id(&b, "A");
    b.submit(PhasesAction::Delay.by(a)).unwrap();
    // Window before B: Blue keeps waiting.
    assert!(matches!(b.awaiting(), Awaiting::Decision(_)));
    b.submit(Command::ActNow {
        side: blue,
        units: vec![],
    })
    .unwrap();
    assert_eq!(active(&b), "B");
    b.submit(Command::EndTurn { unit: id(&b, "B") }).unwrap();
    // Window before C: A acts now.
    b.submit(Command::ActNow {
        side: blue,
        units: vec![a],
    })
    .unwrap();
    assert_eq!(active(&b), "A");
    let twice = b.check(&PhasesAction::Delay.by(a));
    assert!(matches!(twice, Err(CommandError::AlreadyUsed { .. })));
    b.submit(PhasesAction::Defend.by(a)).unwrap();
    assert_eq!(active(&b), "C");
}

#[test]
fn p_gap_13_held_unit_acts_at_end_of_phase() {
    // P-GAP-13: a held unit that never declares acts at the end of the Battle Phase.
    let lvl = level(
        (8, 3),
        &[],
        vec![
            unit("A", "Blue", (0, 0), 10, 1, 0, 10),
            unit("B", "Red", (7, 0), 0, 1, 0, 10),
        ],
    );
    let mut b = battle(&lvl, &[1; 4]);
    skip_movement(&mut b);
    b.submit(PhasesAction::Delay.by(id(&b, "A"))).unwrap();
    assert_eq!(active(&b), "B", "Blue never declares (policy Never)");
    b.submit(Command::EndTurn { unit: id(&b, "B") }).unwrap();
    assert_eq!(active(&b), "A", "held unit acts at the end");
    assert_eq!(b.turn().stage, Stage::Attack);
}

#[test]
fn p_27_p_gap_10_defend_lasts_until_own_next_battle_turn_covering_oas() {
    // P-27, P-GAP-10: Defend in round 1 still protects against an OA in round 2's movement.
    let lvl = level(
        (8, 3),
        &[],
        vec![
            unit("D", "Blue", (1, 1), 10, 1, 0, 10),
            unit("E", "Red", (2, 1), 0, 1, 0, 30),
        ],
    );
    let mut b = battle(
        &lvl,
        &[
            1, 1, 1, 1, /* round 2 */ 1, 1, 1, 1, /* OA by E */ 1, 1, 12,
        ],
    );
    skip_movement(&mut b);
    b.submit(PhasesAction::Defend.by(id(&b, "D"))).unwrap();
    b.submit(Command::EndTurn { unit: id(&b, "E") }).unwrap();
    assert_eq!(b.turn().round, 2);
    // Round 2 movement: E (lower) moves first, away from D: D threatens E — that is E's OA
    // on... instead D moves away and E's OA has disadvantage (D is Defending).
    b.submit(Command::EndTurn { unit: id(&b, "E") }).unwrap();
    let ev = b
        .submit(Command::Move {
            unit: id(&b, "D"),
            power: "Walk".into(),
            path: vec![c(0, 1)],
            target: None,
        })
        .unwrap()
        .to_vec();
    let (_, kept, _, die) = attack_summary(&attacks(&ev)[0]);
    assert_eq!(
        die,
        Some(12),
        "OA against a Defending unit: 1 disadvantage source"
    );
    assert_eq!(kept, vec![1, 1]);
    skip_movement(&mut b);
    assert!(
        !conditions(&b, "D").contains(&"Defending".to_string()),
        "ends when D's battle turn starts"
    );
}

#[test]
fn p_15_seized_unit_grants_advantage_to_opportunity_attacks() {
    // P-15: "every attack against the Knight until the end of the round (OAs included)".
    let mut lvl = level(
        (8, 3),
        &[],
        vec![
            unit("K", "Blue", (1, 1), 0, 1, 0, 10),
            unit("E", "Red", (2, 1), 10, 1, 0, 30),
        ],
    );
    lvl.sides[0].decisions = DecisionPolicy::Ask;
    let mut b = battle(&lvl, &[1, 1, 1, 1, /* OA */ 1, 1, 6, 1]);
    let blue = b.side_id("Blue").unwrap();
    b.submit(Command::Seize {
        side: blue,
        units: vec![id(&b, "K")],
    })
    .unwrap();
    let ev = b
        .submit(Command::Move {
            unit: id(&b, "K"),
            power: "Walk".into(),
            path: vec![c(0, 1)],
            target: None,
        })
        .unwrap()
        .to_vec();
    let PhasesEvent::AttackRolled {
        advantage,
        extra_die,
        ..
    } = &attacks(&ev)[0]
    else {
        panic!("OA expected")
    };
    assert_eq!(advantage, &vec!["target seized the initiative".to_string()]);
    assert_eq!(extra_die.map(|x| x.sides), Some(6));
}

#[test]
fn p_gap_05_defeat_at_zero_hp_ends_the_battle() {
    // P-GAP-05: HP 10 × Tier; at 0 the unit is removed; one side left → battle over.
    let mut a = unit("A", "Blue", (1, 1), 10, 1, 5, 10);
    a.powers = vec![power("Maul", 1, false, "10", false)];
    let mut b = duel(a, unit("T", "Red", (2, 1), 0, 1, 0, 10), &[6, 6]);
    assert_eq!(hp(&b, "T"), 10);
    let ev = attack(&mut b, "A", "T").unwrap();
    assert!(ev.iter().any(|e| matches!(e, Event::Defeated { .. })));
    assert!(matches!(b.awaiting(), Awaiting::Over(Some(_))));
    assert!(matches!(
        b.submit(Command::EndTurn { unit: id(&b, "A") }),
        Err(CommandError::BattleOver)
    ));
}

#[test]
fn p_gap_06_natural_twelve_is_not_special() {
    // P-GAP-06: no criticals — 6+6 against an unreachable DEF still misses.
    let mut b = duel(
        unit("A", "Blue", (1, 1), 10, 1, 0, 10),
        unit("T", "Red", (2, 1), 0, 1, 0, 20),
        &[6, 6],
    );
    assert!(!attack_summary(&attacks(&attack(&mut b, "A", "T").unwrap())[0]).0);
}

#[test]
fn p_gap_16_ranged_power_needs_range_and_line_of_sight() {
    // P-GAP-16: melee reach 1; ranged 10 squares with line of sight.
    let mut a = unit("A", "Blue", (0, 1), 10, 1, 0, 10);
    a.powers = vec![
        power("Bow", 10, true, "1d8", false),
        power("Dagger", 1, false, "1d4", false),
    ];
    let lvl = level(
        (12, 3),
        &["............", "....#.......", "............"],
        vec![
            a,
            unit("T", "Red", (8, 1), 0, 1, 0, 10),
            unit("U", "Red", (11, 0), 1, 1, 0, 10),
        ],
    );
    let mut b = battle(&lvl, &[1; 6]);
    skip_movement(&mut b);
    let (a, t, u) = (id(&b, "A"), id(&b, "T"), id(&b, "U"));
    let blocked = b.check(&Command::Attack {
        unit: a,
        target: t,
        power: Some("Bow".into()),
        aim: None,
        approach: Vec::new(),
    });
    assert!(
        matches!(blocked, Err(CommandError::OutOfReach(_))),
        "wall at (4,1): {blocked:?}"
    );
    let far = b.check(&Command::Attack {
        unit: a,
        target: u,
        power: Some("Bow".into()),
        aim: None,
        approach: Vec::new(),
    });
    assert!(
        matches!(far, Err(CommandError::OutOfReach(_))),
        "11 squares: {far:?}"
    );
    let melee = b.check(&Command::Attack {
        unit: a,
        target: t,
        power: Some("Dagger".into()),
        aim: None,
        approach: Vec::new(),
    });
    assert!(matches!(melee, Err(CommandError::OutOfReach(_))));
}

#[test]
fn p_01_units_need_their_stats() {
    // P-01: a unit without ATK is refused by the level checks.
    let mut lvl = level(
        (6, 3),
        &[],
        vec![
            unit("A", "Blue", (0, 0), 0, 1, 0, 10),
            unit("B", "Red", (5, 2), 0, 1, 0, 10),
        ],
    );
    lvl.units[0].stats.remove("ATK");
    let text = skirmish::level::to_ron_string(&lvl);
    let problems = skirmish::level::load_str(&text, "x.ron").unwrap_err();
    assert!(
        problems.iter().any(|p| p.message.contains("ATK")),
        "{problems:?}"
    );
}

#[test]
fn illegal_commands_say_why() {
    let lvl = level(
        (8, 3),
        &[],
        vec![
            unit("A", "Blue", (0, 0), 10, 1, 0, 10),
            unit("B", "Red", (7, 2), 0, 1, 0, 10),
        ],
    );
    let mut b = battle(&lvl, &[1; 4]);
    let (a, bb) = (id(&b, "A"), id(&b, "B"));
    // B moves first (lower initiative).
    let not_turn = b.submit(Command::EndTurn { unit: a });
    assert!(matches!(not_turn, Err(CommandError::NotYourTurn { .. })));
    let wrong_stage = b.check(&Command::Attack {
        unit: bb,
        target: a,
        power: None,
        aim: None,
        approach: Vec::new(),
    });
    assert!(matches!(wrong_stage, Err(CommandError::WrongStage(_))));
    let wall = b.check(&Command::Move {
        unit: bb,
        power: "Walk".into(),
        path: vec![c(5, 2)],
        target: None,
    });
    assert!(
        matches!(wall, Err(CommandError::PathBlocked(_))),
        "not adjacent: {wall:?}"
    );
    let no_unit = b.submit(Command::EndTurn { unit: UnitId(99) });
    assert!(matches!(no_unit, Err(CommandError::NoSuchUnit(99))));
}

#[test]
fn dice_running_out_is_an_error_not_a_panic() {
    let lvl = level(
        (6, 3),
        &[],
        vec![
            unit("A", "Blue", (1, 1), 10, 1, 0, 10),
            unit("T", "Red", (2, 1), 0, 1, 0, 10),
        ],
    );
    let mut b = battle(&lvl, &[1, 1, 1, 1]);
    skip_movement(&mut b);
    let r = attack(&mut b, "A", "T");
    assert!(matches!(r, Err(CommandError::Dice(_))), "{r:?}");
}

#[test]
fn p_18_p_gap_08_slowed_on_an_allys_square_steps_back() {
    // P-18, P-GAP-08: a mover Slowed while passing through an ally cannot stop on the
    // ally's square; it ends on the last square it could have stopped on.
    let mut e = unit("E", "Red", (3, 0), 5, 1, 10, 30);
    e.powers = vec![slowing_power()];
    let lvl = level(
        (10, 3),
        &[],
        vec![
            unit("M", "Blue", (5, 1), 0, 1, 0, 10),
            unit("P", "Blue", (4, 1), 6, 1, 0, 10),
            e,
        ],
    );
    let mut b = battle(&lvl, &[1, 1, 1, 1, 1, 1, /* OA hits */ 6, 6, 1]);
    assert_eq!(active(&b), "M");
    let m = id(&b, "M");
    b.submit(Command::Move {
        unit: m,
        power: "Walk".into(),
        path: vec![c(4, 1), c(3, 1)],
        target: None,
    })
    .unwrap();
    assert_eq!(cell(&b, "M"), c(5, 1));
    assert_eq!(cell(&b, "P"), c(4, 1));
}

// ---------------------------------------------------------------- pools through events

/// P-GAP-07, X-06: one movement power and one battle action a round, spent and
/// refilled through quiet `PointsChanged` events that the human log leaves out.
#[test]
fn p_gap_07_x_06_pools_change_through_quiet_events() {
    use skirmish::engine::rulesets::phases::pools::{BATTLE_ACTION, MOVEMENT_POWER};
    let mut b = duel(
        unit("A", "Blue", (1, 1), 10, 1, 2, 10),
        unit("T", "Red", (2, 1), 0, 1, 0, 12),
        &[6, 6, 1],
    );
    let a = id(&b, "A");
    let pool_events = |events: &[Event]| -> Vec<(UnitId, String, i32, i32, bool)> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::PointsChanged {
                    unit,
                    pool,
                    delta,
                    now,
                    quiet,
                    ..
                } => Some((*unit, format!("{pool:?}"), *delta, *now, *quiet)),
                _ => None,
            })
            .collect()
    };
    // Round 1 filled both pools of both units (from 0); skipping movement spent none.
    let filled = pool_events(b.events());
    assert_eq!(filled.len(), 4, "{filled:?}");
    assert!(filled.iter().all(|p| p.2 == 1 && p.3 == 1 && p.4));
    let ev = attack(&mut b, "A", "T").unwrap();
    assert_eq!(
        pool_events(&ev),
        [(a, "BattleAction".to_string(), -1, 0, true)],
        "P-GAP-07: the attack spends the battle action"
    );
    assert_eq!(
        b.pools(a),
        [
            ("Movement power".to_string(), 1),
            ("Battle action".to_string(), 0)
        ]
    );
    assert!(
        !skirmish::script::log_lines(&b)
            .iter()
            .any(|l| l.contains("battle action")),
        "quiet: no line in the human log"
    );
    // The next round refills only what was spent: A's battle action; the unused
    // movement powers and T's battle action (it only ended its turn) hold 1.
    let ev = b
        .submit(Command::EndTurn { unit: id(&b, "T") })
        .unwrap()
        .to_vec();
    assert_eq!(b.turn().round, 2);
    let next: Vec<_> = pool_events(&ev).into_iter().filter(|p| p.2 > 0).collect();
    assert_eq!(
        next,
        [(a, format!("{BATTLE_ACTION:?}"), 1, 1, true)],
        "{MOVEMENT_POWER:?} is still 1"
    );
}

/// Whether `c` is the `phases` verb `verb` (P-26 … P-28 are declared verbs).
fn is_verb(c: &Command, verb: &str) -> bool {
    matches!(c, Command::Act { verb: v, .. } if v == verb)
}

#[test]
fn p_26_p_27_p_28_are_declared_verbs_that_scripts_play_and_show_as_written() {
    // P-26 Delay, P-27 Defend, P-28 Disengage: phases declares them as verbs; a
    // scenario's `Defend(unit: "A")` etc. reads as that verb, is legal in A's Battle
    // turn, shows exactly as written, and plays with the rule's effect.
    use skirmish::script::{ScriptCommand, resolve};
    let lvl = level(
        (8, 3),
        &[],
        vec![
            unit("A", "Blue", (1, 1), 10, 1, 0, 10),
            unit("E", "Red", (2, 1), 0, 1, 0, 10),
        ],
    );
    let mut b = battle(
        &lvl,
        &[
            1, 1, 1, 1, /* round 2 */ 1, 1, 1, 1, /* E's OA on A */ 1, 1, 12, 1, 1, 1, 1,
        ],
    );
    let names: Vec<&str> = b.rules().verbs().iter().map(|v| v.name).collect();
    assert_eq!(names, ["Defend", "Delay", "Disengage"]);
    skip_movement(&mut b);
    let legal = b.legal_commands();
    let read = |b: &skirmish::engine::Battle, text: &str| {
        let script: ScriptCommand = ron::from_str(text).expect("parses");
        resolve(b, &script).expect("resolves")
    };
    for text in [
        r#"Defend(unit: "A")"#,
        r#"Delay(unit: "A")"#,
        r#"Disengage(unit: "A", to: (0, 0))"#,
    ] {
        let command = read(&b, text);
        assert!(matches!(command, Command::Act { .. }), "{text}");
        assert_eq!(command.display(&b), text);
        assert!(
            legal.contains(&command),
            "{text} is among the legal commands"
        );
        b.check(&command).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    // Off the map: refused in the user's words.
    let err = b.check(&read(&b, r#"Disengage(unit: "A", to: (9, 9))"#));
    assert_eq!(
        err.unwrap_err().to_string(),
        "path blocked: (9, 9) is off the map"
    );
    // P-26: A delays; E (lower initiative) acts before it; A acts at the phase's end.
    b.submit(read(&b, r#"Delay(unit: "A")"#)).unwrap();
    assert_eq!(active(&b), "E");
    b.submit(Command::EndTurn { unit: id(&b, "E") }).unwrap();
    assert_eq!(active(&b), "A");
    assert_eq!(b.turn().stage, Stage::Attack);
    // P-27: A defends; attacks against it have 1 disadvantage source until its next
    // Battle turn — E's opportunity attack in round 2's Movement Phase rolls 2d6 + d12
    // and keeps the two lowest.
    b.submit(read(&b, r#"Defend(unit: "A")"#)).unwrap();
    assert_eq!(b.turn().round, 2);
    b.submit(Command::EndTurn { unit: id(&b, "E") }).unwrap();
    let ev = b
        .submit(Command::Move {
            unit: id(&b, "A"),
            power: "Walk".into(),
            path: vec![c(1, 2)],
            target: None,
        })
        .unwrap()
        .to_vec();
    let PhasesEvent::AttackRolled { disadvantage, .. } = &attacks(&ev)[0] else {
        panic!("E's opportunity attack")
    };
    assert_eq!(disadvantage, &vec!["target is defending".to_string()]);
    assert_eq!(
        attack_summary(&attacks(&ev)[0]),
        (false, vec![1, 1], 2, Some(12))
    );
    // P-28: in round 2's Battle Phase A disengages from next to E: no opportunity
    // attack, and it is Disengaged.
    assert_eq!(active(&b), "A");
    let ev = b
        .submit(read(&b, r#"Disengage(unit: "A", to: (0, 0))"#))
        .unwrap()
        .to_vec();
    assert!(attacks(&ev).is_empty(), "no opportunity attack");
    assert_eq!(cell(&b, "A"), c(0, 0));
    assert!(conditions(&b, "A").contains(&"Disengaged".to_string()));
}

#[cfg(feature = "render")]
#[test]
fn the_window_offers_phases_verbs_by_their_keys() {
    // Defend (key F) and Delay (key L) are numbered actions; Disengage (key G) is a
    // move mode with a path preview that shows no provocation.
    use skirmish::game::choices::{VerbKey, choices_for, command_label, move_path, verb_key};
    let lvl = level(
        (8, 3),
        &[],
        vec![
            unit("A", "Blue", (1, 1), 10, 1, 0, 10),
            unit("E", "Red", (2, 1), 0, 1, 0, 10),
        ],
    );
    let mut b = battle(&lvl, &[1; 12]);
    // In the Movement Phase none of them is possible.
    let moving = choices_for(&b, 0, 0);
    assert_eq!(
        verb_key(&b, &moving, 'f'),
        VerbKey::Say("Defend is not possible now".into())
    );
    skip_movement(&mut b);
    let a = id(&b, "A");
    let choices = choices_for(&b, 1, 0);
    let i = choices.mode("Disengage").expect("a Disengage mode");
    assert!(choices.powers[i].moves);
    assert_eq!(verb_key(&b, &choices, 'g'), VerbKey::Mode(i));
    assert_eq!(
        verb_key(&b, &choices, 'f'),
        VerbKey::Do(PhasesAction::Defend.by(a))
    );
    assert_eq!(
        verb_key(&b, &choices, 'l'),
        VerbKey::Do(PhasesAction::Delay.by(a))
    );
    let shown = choices_for(&b, 1, i);
    assert!(
        shown.targets.is_empty(),
        "the Disengage mode rings no targets"
    );
    let (cmd, preview) = shown.moves.get(&c(0, 0)).expect("(0, 0) is in reach");
    assert_eq!(cmd, &PhasesAction::Disengage { to: c(0, 0) }.by(a));
    assert_eq!(preview.provocations, 0);
    let path = move_path(&b, cmd).expect("a path");
    assert_eq!(path.last(), Some(&c(0, 0)));
    assert_eq!(preview.cost, path.len() as u32);
    assert_eq!(command_label(&b, cmd), "Disengage to (0, 0)");
    assert!(
        !shown.moves.contains_key(&c(5, 1)),
        "beyond Disengage's 2 squares"
    );
    // The default bindings leave F, G and L to the verbs (they were Defend,
    // Disengage and Delay's own actions before).
    use skirmish::game::settings::{
        BattleAction, DEFAULT_BINDINGS, bind_verb_keys, parse_bindings,
    };
    let mut map = parse_bindings(DEFAULT_BINDINGS).unwrap();
    assert_eq!(
        bind_verb_keys(&mut map, b.rules().verbs()),
        Vec::<String>::new()
    );
    for k in ['f', 'g', 'l'] {
        assert!(map.get_buttonlike(&BattleAction::Verb(k)).is_some(), "{k}");
    }
}
