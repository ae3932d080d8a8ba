//! `escalation` seed sentences the audit (docs/rules/escalation.md) found unplayed,
//! played through `Battle::submit` with scripted dice: powers keyed to the
//! Escalation die's parity (E-18), `Pop off` (E-37), `As a basic attack` (E-09),
//! averaged recoveries (E-48), Rally with no Recoveries left (E-47), a Hampered
//! enemy's first listed attack (E-59). Each test names the rule ids it checks.

use skirmish::engine::dice::Dice;
use skirmish::engine::event::Event;
use skirmish::engine::rulesets::escalation::events::EscalationEvent;
use skirmish::engine::rulesets::new_battle;
use skirmish::engine::units::PlayState;
use skirmish::engine::verb::{ArgValue, Args};
use skirmish::engine::{Battle, Command};
use skirmish::level::schema::*;
use skirmish::level::{load_str, to_ron_string};

use crate::common::{conditions, hp, id};

/// A unit of Level 2, Volition 3, AC 15 with `hp`, these extra stats and powers.
fn fighter(
    name: &str,
    side: &str,
    pos: (i32, i32),
    hp: i32,
    extra: &[(&str, i32)],
    powers: Vec<PowerDef>,
) -> UnitDef {
    let base = [("Level", 2), ("Volition", 3), ("HP", hp), ("AC", 15)];
    UnitDef {
        name: name.into(),
        side: side.into(),
        pos,
        stats: base
            .iter()
            .chain(extra)
            .map(|&(k, v)| (k.to_string(), v))
            .collect(),
        powers,
        ..Default::default()
    }
}

/// A melee power: range 1, `damage`, these header phrases and on-hit conditions
/// (save ends).
fn melee(name: &str, damage: &str, traits: &[&str], on_hit: &[&str]) -> PowerDef {
    PowerDef {
        name: name.into(),
        range: 1,
        ranged: false,
        damage: damage.into(),
        add_tier: false,
        on_hit: on_hit
            .iter()
            .map(|c| EffectDef {
                condition: c.to_string(),
                lasts: EffectDuration::SaveEnds,
            })
            .collect(),
        damage_type: None,
        traits: traits.iter().map(|t| t.to_string()).collect(),
    }
}

/// Heroes (the first side, PCs) against Foes on an open 10 × 5 map.
fn arena(units: Vec<UnitDef>) -> Level {
    wide_arena((10, 5), units)
}

/// Heroes against Foes on an open map of this size.
fn wide_arena(size: (u32, u32), units: Vec<UnitDef>) -> Level {
    let mut l = crate::common::level(size, &[], units);
    l.ruleset = "escalation".into();
    l.sides[0].name = "Heroes".into();
    l.sides[1].name = "Foes".into();
    l
}

fn start(level: &Level, faces: &[u32]) -> Battle {
    new_battle(level, Dice::scripted(faces.iter().copied())).expect("level sets up")
}

fn strike(b: &Battle, unit: &str, target: &str, power: Option<&str>) -> Command {
    Command::attack(id(b, unit), id(b, target), power.map(str::to_string))
}

fn pass(b: &mut Battle, unit: &str) {
    let unit = id(b, unit);
    b.submit(Command::EndTurn { unit }).expect("end turn");
}

fn rally(b: &Battle, unit: &str) -> Command {
    Command::Act {
        unit: id(b, unit),
        verb: "Rally".into(),
        args: Args::new(),
    }
}

/// The (total, target) of each roll in `events`.
fn totals(events: &[Event]) -> Vec<(i32, Option<i32>)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Rolled { total, target, .. } => Some((*total, *target)),
            _ => None,
        })
        .collect()
}

/// E-18: "some abilities key off the escalation die being even or odd; when the
/// escalation die is 0, it counts as neither". `Escalation even` is refused at 0
/// (round 1) and at 1 (round 2), where `Escalation odd` is allowed; at 2 (round 3)
/// the even power strikes. A misspelt parity is a level problem at its
/// FILE:LINE:COL that names the valid headers.
#[test]
fn e_18_powers_keyed_to_the_dies_parity() {
    let powers = vec![
        melee("Even Cut", "1d6", &["Escalation even"], &[]),
        melee("Odd Cut", "1d6", &["Escalation odd"], &[]),
    ];
    let l = arena(vec![
        fighter("Hero", "Heroes", (2, 2), 30, &[], powers),
        fighter("Orc", "Foes", (3, 2), 40, &[], vec![]),
    ]);
    // Round 3: Even Cut [6, 5, 4] + 2 + 3 + 2 = 22 vs AC 15, hits; 1d6 [4].
    let mut b = start(&l, &[6, 5, 4, 4]);
    for (round, die) in [(1, 0), (2, 1)] {
        let err = b
            .check(&strike(&b, "Hero", "Orc", Some("Even Cut")))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("needs the Escalation die even")
                && err.contains(&format!("it is {die}"))
                && err.contains("E-18"),
            "round {round}: {err}"
        );
        let odd = b.check(&strike(&b, "Hero", "Orc", Some("Odd Cut")));
        assert_eq!(odd.is_ok(), die == 1, "round {round}: {odd:?}");
        pass(&mut b, "Hero");
        pass(&mut b, "Orc");
    }
    assert!(
        b.check(&strike(&b, "Hero", "Orc", Some("Odd Cut")))
            .is_err()
    );
    let events = b
        .submit(strike(&b, "Hero", "Orc", Some("Even Cut")))
        .expect("the die is 2: even")
        .to_vec();
    assert_eq!(totals(&events)[0], (22, Some(15)), "escalation 2 added");
    assert_eq!(hp(&b, "Orc"), 36);

    let mut bad = l.clone();
    bad.units[0].powers[0].traits = vec!["Escalation evens".into()];
    let text = to_ron_string(&bad);
    let line = 1 + text
        .lines()
        .position(|l| l.contains("Escalation evens"))
        .expect("written");
    let problems = load_str(&text, "bad.ron").expect_err("refused");
    let p = problems
        .iter()
        .find(|p| p.message.contains("Escalation evens"))
        .unwrap_or_else(|| panic!("{problems:?}"));
    assert_eq!((p.file.as_str(), p.line), ("bad.ron", line), "{p}");
    assert!(p.col > 0, "{p}");
    assert!(
        p.message.contains("`Escalation even`") && p.message.contains("`Escalation odd`"),
        "{p}"
    );
}

/// E-37: "some abilities allow you to Pop Off of some enemies, skipping the
/// Disengage check entirely". After a `Pop off` power on the Orc (a miss still
/// pops off), the Hero walks away: no Disengage roll, no opportunity attack from
/// the Orc; the Goblin, engaged but not attacked, still gets its attack (E-38).
#[test]
fn e_37_pop_off_skips_the_disengage_check() {
    let l = arena(vec![
        fighter(
            "Hero",
            "Heroes",
            (2, 2),
            30,
            &[],
            vec![melee("Tumbling Cut", "1d6", &["Pop off"], &[])],
        ),
        fighter("Orc", "Foes", (3, 2), 40, &[], vec![]),
        fighter("Goblin", "Foes", (1, 2), 40, &[], vec![]),
    ]);
    // Tumbling Cut [1, 1, 2] misses; the Goblin's opportunity attack [1, 1, 1] is a
    // natural 3: a crit fail.
    let mut b = start(&l, &[1, 1, 2, 1, 1, 1]);
    b.submit(strike(&b, "Hero", "Orc", Some("Tumbling Cut")))
        .unwrap();
    assert!(
        conditions(&b, "Hero")
            .iter()
            .any(|c| c.contains("Popped off"))
    );
    let path = vec![crate::common::c(2, 1), crate::common::c(2, 0)];
    let events = b
        .submit(Command::move_along(id(&b, "Hero"), "Move", path))
        .expect("moves")
        .to_vec();
    let provoked: Vec<String> = events
        .iter()
        .filter_map(|e| match e.narration::<EscalationEvent>() {
            Some(EscalationEvent::Provoked { attacker, .. }) => Some(b.unit_name(*attacker)),
            _ => None,
        })
        .collect();
    assert_eq!(provoked, ["Goblin"]);
    assert_eq!(totals(&events).len(), 1, "one roll: the Goblin's attack");
    assert_eq!(crate::common::cell(&b, "Hero"), crate::common::c(2, 0));
    pass(&mut b, "Hero");
    assert!(
        !conditions(&b, "Hero")
            .iter()
            .any(|c| c.contains("Popped off")),
        "lasts the turn"
    );
}

/// E-09: "'as a Basic Melee/Ranged Attack' refers to the hit and miss damage of
/// your basic attack". A power with `As a basic attack` deals Level dice of the
/// stance die + Volition (2d8 + 3), not its own 1d4, and keeps its own effects.
#[test]
fn e_09_as_a_basic_attack_deals_the_basic_attacks_damage() {
    let l = arena(vec![
        fighter(
            "Hero",
            "Heroes",
            (2, 2),
            30,
            &[],
            vec![melee(
                "Shield Bash",
                "1d4",
                &["As a basic attack"],
                &["Dazed"],
            )],
        ),
        fighter("Orc", "Foes", (3, 2), 40, &[], vec![]),
    ]);
    // [6, 5, 4] = 15 + 5 = 20 hits; 2d8 [4, 4] + 3 = 11.
    let mut b = start(&l, &[6, 5, 4, 4, 4]);
    let events = b
        .submit(strike(&b, "Hero", "Orc", Some("Shield Bash")))
        .unwrap()
        .to_vec();
    let hurt: Vec<&Vec<u32>> = events
        .iter()
        .filter_map(|e| match e {
            Event::Damaged { faces, .. } => Some(faces),
            _ => None,
        })
        .collect();
    assert_eq!(hurt, [&vec![4, 4]], "two d8s, not a d4");
    assert_eq!(hp(&b, "Orc"), 29);
    assert!(conditions(&b, "Orc").iter().any(|c| c.contains("Dazed")));
}

/// The Orc (enemy) hits the Hero with its basic attack: [6, 5, 4] = 20 vs AC 15,
/// 2d8 [8, 8] + 3 = 19. Then the Hero's turn comes.
fn hero_hit_for_19(l: &Level, more: &[u32]) -> Battle {
    let mut faces = vec![6, 5, 4, 8, 8];
    faces.extend(more);
    let mut b = start(l, &faces);
    pass(&mut b, "Hero");
    b.submit(strike(&b, "Orc", "Hero", None)).unwrap();
    pass(&mut b, "Orc");
    b
}

fn healed(events: &[Event]) -> Vec<(Vec<u32>, i32)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Healed { faces, amount, .. } => Some((faces.clone(), *amount)),
            _ => None,
        })
        .collect()
}

/// E-48: "either roll their recovery dice as-is or take average … round each die
/// down". With the level's `average_recovery`, Rally heals 2 × 4 (2d8 averaged)
/// + 3 = 11 and rolls no die.
#[test]
fn e_48_recoveries_averaged_when_the_table_says_so() {
    let mut l = arena(vec![
        fighter("Hero", "Heroes", (2, 2), 50, &[], vec![]),
        fighter("Orc", "Foes", (3, 2), 40, &[], vec![]),
    ]);
    l.rules
        .insert("average_recovery".into(), ron::Value::Bool(true));
    let mut b = hero_hit_for_19(&l, &[]);
    assert_eq!(hp(&b, "Hero"), 31);
    let events = b.submit(rally(&b, "Hero")).unwrap().to_vec();
    assert_eq!(healed(&events), [(vec![], 11)]);
    assert_eq!(hp(&b, "Hero"), 42);
    // Rolled by default: the same Rally rolls 2d8 [1, 2] + 3 = 6.
    l.rules.clear();
    let mut b = hero_hit_for_19(&l, &[1, 2]);
    let events = b.submit(rally(&b, "Hero")).unwrap().to_vec();
    assert_eq!(healed(&events), [(vec![1, 2], 6)]);
}

/// E-47: "if you would be healed but have no recoveries left, you can still be
/// healed, but the amount is halved … -1 to Volition and all Defenses". A Hero
/// with no Recoveries Rallies: 2d8 [5, 5] + 3 = 13, halved to 6; then the Orc's
/// attack is against AC 14, and the Hero's own attack adds Volition 2.
#[test]
fn e_47_rally_with_no_recoveries_heals_half_and_weakens() {
    let l = arena(vec![
        fighter("Hero", "Heroes", (2, 2), 50, &[("Recoveries", 0)], vec![]),
        fighter("Orc", "Foes", (3, 2), 40, &[], vec![]),
    ]);
    // Round 2: Rally [5, 5]; the Orc's attack [1, 1, 2] = 4 + 5 = 9 misses AC 14.
    // Round 3: the Hero's attack [1, 1, 2] = 4 + 2 + 2 + 2 = 10 misses.
    let mut b = hero_hit_for_19(&l, &[5, 5, 1, 1, 2, 1, 1, 2]);
    let events = b.submit(rally(&b, "Hero")).expect("E-47: allowed").to_vec();
    assert_eq!(healed(&events), [(vec![5, 5], 6)]);
    assert_eq!(hp(&b, "Hero"), 37);
    let exhausted: Vec<i32> = events
        .iter()
        .filter_map(|e| match e.narration::<EscalationEvent>() {
            Some(EscalationEvent::Exhausted { penalty, .. }) => Some(*penalty),
            _ => None,
        })
        .collect();
    assert_eq!(exhausted, [1]);
    pass(&mut b, "Hero");
    let events = b.submit(strike(&b, "Orc", "Hero", None)).unwrap().to_vec();
    assert_eq!(totals(&events)[0], (9, Some(14)), "AC 15 - 1");
    pass(&mut b, "Orc");
    let events = b.submit(strike(&b, "Hero", "Orc", None)).unwrap().to_vec();
    assert_eq!(
        totals(&events)[0],
        (10, Some(15)),
        "Level 2 + Volition 2 + die 2"
    );
}

/// E-59: Hampered: "you can only use basic attacks (for enemies, this is the first
/// listed attack with any non-damage effects stripped away)". The Hampered Orc may
/// not use its stance's basic attack nor its second power; its first listed one,
/// Claw, hits without its Dazed but with its ongoing damage.
#[test]
fn e_59_hampered_enemy_uses_its_first_listed_attack_stripped() {
    let claw = PowerDef {
        on_hit: vec![
            EffectDef {
                condition: "Dazed".into(),
                lasts: EffectDuration::SaveEnds,
            },
            EffectDef {
                condition: "Ongoing 3".into(),
                lasts: EffectDuration::SaveEnds,
            },
        ],
        ..melee("Claw", "1d6", &[], &[])
    };
    let l = arena(vec![
        fighter(
            "Hero",
            "Heroes",
            (2, 2),
            30,
            &[],
            vec![melee("Net", "1d4", &[], &["Hampered"])],
        ),
        fighter(
            "Orc",
            "Foes",
            (3, 2),
            40,
            &[],
            vec![claw, melee("Bite", "1d8", &[], &[])],
        ),
    ]);
    // Net [6, 5, 4] hits, 1d4 [1]; Claw [6, 5, 4] hits, 1d6 [2].
    let mut b = start(&l, &[6, 5, 4, 1, 6, 5, 4, 2]);
    b.submit(strike(&b, "Hero", "Orc", Some("Net"))).unwrap();
    assert!(conditions(&b, "Orc").iter().any(|c| c.contains("Hampered")));
    pass(&mut b, "Hero");
    for refused in [None, Some("Bite")] {
        let err = b
            .check(&strike(&b, "Orc", "Hero", refused))
            .unwrap_err()
            .to_string();
        assert!(err.contains("Claw") && err.contains("E-59"), "{err}");
    }
    b.submit(strike(&b, "Orc", "Hero", Some("Claw"))).unwrap();
    assert_eq!(hp(&b, "Hero"), 28);
    let hero = conditions(&b, "Hero");
    assert!(!hero.iter().any(|c| c.contains("Dazed")), "{hero:?}");
    assert!(hero.iter().any(|c| c.contains("Ongoing")), "{hero:?}");
}

fn dicey(b: &Battle, unit: &str, reward: &str, more: &[(&str, ArgValue)]) -> Command {
    let args = [
        ("difficulty", ArgValue::Choice("Easy".into())),
        ("reward", ArgValue::Choice(reward.into())),
    ]
    .into_iter()
    .chain(more.iter().map(|(k, v)| (*k, v.clone())))
    .fold(Args::new(), |a, (k, v)| a.with(k, v));
    Command::Act {
        unit: id(b, unit),
        verb: "DiceyMove".into(),
        args,
    }
}

/// E-40 / E-GAP-19: a Dicey Move "might … deal some environmental damage, add a
/// condition for a round, or give an ally 1 Advantage on Disengagement". Hazard:
/// Level d6 [3, 4] = 7 to the Orc 5 squares away; Hinder: the Orc is Stuck until
/// the end of the Hero's next turn; Aid: the ally next to the Hero gets Dicey Aid.
/// The mover itself as the target, or a Hinder without its condition, is refused in
/// words.
#[test]
fn e_40_dicey_move_hazard_hinder_and_aid() {
    let l = arena(vec![
        fighter("Hero", "Heroes", (1, 2), 30, &[], vec![]),
        fighter("Ally", "Heroes", (1, 3), 30, &[], vec![]),
        fighter("Orc", "Foes", (6, 2), 40, &[], vec![]),
    ]);
    // Hazard: [5, 4, 3] + 3 = 15 >= 11, then 2d6 [3, 4]. Round 2: Hinder [5, 4, 3];
    // the Ally's Aid [5, 4, 3].
    let mut b = start(&l, &[5, 4, 3, 3, 4, 5, 4, 3, 5, 4, 3]);
    let itself = dicey(
        &b,
        "Hero",
        "Hazard",
        &[("target", ArgValue::Unit(id(&b, "Hero")))],
    );
    let err = b.check(&itself).unwrap_err().to_string();
    assert!(err.contains("E-40"), "{err}");
    let orc = ArgValue::Unit(id(&b, "Orc"));
    b.submit(dicey(&b, "Hero", "Hazard", &[("target", orc.clone())]))
        .unwrap();
    assert_eq!(hp(&b, "Orc"), 33);
    pass(&mut b, "Hero");
    pass(&mut b, "Ally");
    pass(&mut b, "Orc");
    let err = b
        .check(&dicey(&b, "Hero", "Hinder", &[("target", orc.clone())]))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("`condition`") && err.contains("Stuck"),
        "{err}"
    );
    let hinder = [
        ("target", orc.clone()),
        ("condition", ArgValue::Choice("Stuck".into())),
    ];
    b.submit(dicey(&b, "Hero", "Hinder", &hinder)).unwrap();
    assert!(conditions(&b, "Orc").iter().any(|c| c.contains("Stuck")));
    pass(&mut b, "Hero");
    let aid = [("ally", ArgValue::Unit(id(&b, "Hero")))];
    b.submit(dicey(&b, "Ally", "Aid", &aid)).unwrap();
    assert!(
        conditions(&b, "Hero")
            .iter()
            .any(|c| c.contains("Dicey Aid"))
    );
    pass(&mut b, "Ally");
    let step = Command::move_along(id(&b, "Orc"), "Move", vec![crate::common::c(5, 2)]);
    assert!(b.check(&step).is_err(), "E-65: the Orc is Stuck this round");
    pass(&mut b, "Orc");
    pass(&mut b, "Hero");
    assert!(
        !conditions(&b, "Orc").iter().any(|c| c.contains("Stuck")),
        "gone at the end of the Hero's next turn"
    );
}

fn walk(b: &Battle, unit: &str, path: &[(i32, i32)]) -> Command {
    Command::move_along(
        id(b, unit),
        "Move",
        path.iter().map(|&(x, y)| crate::common::c(x, y)).collect(),
    )
}

fn provokers(b: &Battle, events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e.narration::<EscalationEvent>() {
            Some(EscalationEvent::Provoked { attacker, .. }) => Some(b.unit_name(*attacker)),
            _ => None,
        })
        .collect()
}

/// E-34 / E-22 / E-GAP-01: "Far: … engaged with two move actions or Nearby each
/// other with one move action". From 13 squares (Far) one Move of 6 brings the
/// Hero Nearby (7), where its melee attack is still out of reach; a second Move,
/// paid with the Standard action, engages the Orc. A 7-square Move is refused.
#[test]
fn e_34_far_takes_two_moves_to_engage() {
    let l = wide_arena(
        (16, 3),
        vec![
            fighter("Hero", "Heroes", (0, 1), 30, &[], vec![]),
            fighter("Orc", "Foes", (13, 1), 40, &[], vec![]),
        ],
    );
    let mut b = start(&l, &[]);
    let seven: Vec<(i32, i32)> = (1..=7).map(|x| (x, 1)).collect();
    assert!(b.check(&walk(&b, "Hero", &seven)).is_err(), "one Move is 6");
    let first: Vec<(i32, i32)> = (1..=6).map(|x| (x, 1)).collect();
    b.submit(walk(&b, "Hero", &first)).unwrap();
    let err = b.check(&strike(&b, "Hero", "Orc", None)).unwrap_err();
    assert!(err.to_string().contains("Nearby (7 squares away)"), "{err}");
    let second: Vec<(i32, i32)> = (7..=12).map(|x| (x, 1)).collect();
    b.submit(walk(&b, "Hero", &second))
        .expect("E-22: the Standard pays for a second Move");
    assert_eq!(crate::common::cell(&b, "Hero"), crate::common::c(12, 1));
    let pools = b.pools(id(&b, "Hero"));
    assert!(pools.contains(&("Standard".to_string(), 0)), "{pools:?}");
}

/// E-38: "you can make any number of Opportunity Attacks in a round". The Orc,
/// engaged with both heroes, attacks each as it walks off, in the same round.
#[test]
fn e_38_any_number_of_opportunity_attacks_in_a_round() {
    let l = arena(vec![
        fighter("Hero", "Heroes", (2, 1), 30, &[], vec![]),
        fighter("Ally", "Heroes", (2, 3), 30, &[], vec![]),
        fighter("Orc", "Foes", (3, 2), 40, &[], vec![]),
    ]);
    // Two misses: [1, 1, 2] each.
    let mut b = start(&l, &[1, 1, 2, 1, 1, 2]);
    let events = b
        .submit(walk(&b, "Hero", &[(1, 1), (0, 1)]))
        .unwrap()
        .to_vec();
    assert_eq!(provokers(&b, &events), ["Orc"]);
    pass(&mut b, "Hero");
    let events = b
        .submit(walk(&b, "Ally", &[(1, 3), (0, 3)]))
        .unwrap()
        .to_vec();
    assert_eq!(provokers(&b, &events), ["Orc"], "a second one, same round");
    assert_eq!(b.turn().round, 1);
}

/// E-17 / E-GAP-10: "two characters of the ambushing party's choice may act in the
/// Surprise Round. After this round, initiative proceeds as normal." With the
/// level's `surprise: ["Orc"]` only the Orc acts before round 1 (though PCs go
/// first in a band); then round 1 runs Hero, Ally, Orc, and the die comes at 1 in
/// round 2 as usual.
#[test]
fn e_17_surprise_round_before_round_1() {
    let mut l = arena(vec![
        fighter("Hero", "Heroes", (1, 1), 30, &[], vec![]),
        fighter("Ally", "Heroes", (1, 3), 30, &[], vec![]),
        fighter("Orc", "Foes", (8, 2), 40, &[], vec![]),
    ]);
    l.rules
        .insert("surprise".into(), ron::from_str(r#"["Orc"]"#).unwrap());
    let mut b = start(&l, &[]);
    let mut order = Vec::new();
    for _ in 0..4 {
        let who = crate::common::active(&b);
        order.push((who.clone(), b.turn().round));
        pass(&mut b, &who);
    }
    assert_eq!(
        order[..1],
        [("Orc".to_string(), 0)],
        "the surprise turn comes before round 1: {order:?}"
    );
    let names: Vec<&str> = order.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Orc", "Hero", "Ally", "Orc"]);
    assert_eq!(order[1].1, 1);
    // The surprise turn is no round: the die is first placed in round 2, at 1.
    assert_eq!(crate::common::active(&b), "Hero");
    assert_eq!(b.turn().round, 2);
    let pools = b.pools(id(&b, "Hero"));
    assert!(
        pools.contains(&("Escalation die".to_string(), 1)),
        "{pools:?}"
    );
}

/// E-51: "any healing brings a character back from dying (recover from 0 hp) as if
/// they had succeeded at a Death Save". The Orc crits the Hero to -2 (Dying); the
/// Medic's `Heal` power, next to it, heals it with its Recovery from 0: 2d8 [4, 4]
/// + 3 = 11, and the Hero is back in the fight.
#[test]
fn e_51_healing_brings_a_dying_pc_back() {
    let l = arena(vec![
        fighter(
            "Medic",
            "Heroes",
            (2, 1),
            30,
            &[],
            vec![melee("Second Wind", "0", &["Heal", "Quick"], &[])],
        ),
        fighter("Hero", "Heroes", (2, 2), 20, &[], vec![]),
        fighter("Orc", "Foes", (3, 2), 40, &[], vec![]),
    ]);
    // Round 1: the Orc's [6, 6, 5] crits: (2d8 [4, 4] + 3) × 2 = 22. Round 2: the
    // Medic heals the Hero: 2d8 [4, 4] + 3.
    let mut b = start(&l, &[6, 6, 5, 4, 4, 4, 4]);
    pass(&mut b, "Medic");
    pass(&mut b, "Hero");
    b.submit(strike(&b, "Orc", "Hero", None)).unwrap();
    assert_eq!(state(&b, "Hero"), PlayState::Dying);
    pass(&mut b, "Orc");
    b.submit(strike(&b, "Medic", "Hero", Some("Second Wind")))
        .unwrap();
    assert_eq!(state(&b, "Hero"), PlayState::Active);
    assert_eq!(hp(&b, "Hero"), 11);
}

fn state(b: &Battle, name: &str) -> PlayState {
    b.units()
        .into_iter()
        .find(|u| u.name == name)
        .map(|u| u.state)
        .expect("unit")
}

/// E-17 / E-GAP-04: "if this is an explicit ambush performed by PCs, it might be
/// appropriate to start the Escalation die at 1 in the first real combat round":
/// with the table's switch `ambush` on, the die shows 1 in round 1 and 2 in round
/// 2; off (the default), 0 and then 1. The Hero's attack in round 1 adds it.
#[test]
fn e_17_e_gap_04_an_ambush_starts_the_die_at_1() {
    let units = || {
        vec![
            fighter("Hero", "Heroes", (1, 1), 30, &[], vec![]),
            fighter("Orc", "Foes", (8, 2), 40, &[], vec![]),
        ]
    };
    let die = |b: &Battle| {
        b.pools(id(b, "Hero"))
            .into_iter()
            .find(|(k, _)| k == "Escalation die")
            .map(|(_, v)| v)
    };
    for (ambush, first, second) in [(true, 1, 2), (false, 0, 1)] {
        let mut l = arena(units());
        l.rules.insert("ambush".into(), ron::Value::Bool(ambush));
        let mut b = start(&l, &[]);
        assert_eq!(b.turn().round, 1);
        assert_eq!(die(&b), Some(first), "ambush {ambush}, round 1");
        pass(&mut b, "Hero");
        pass(&mut b, "Orc");
        assert_eq!(b.turn().round, 2);
        assert_eq!(die(&b), Some(second), "ambush {ambush}, round 2");
    }
}

/// E-47: "some magical healing can surpass this using a Free Recovery". The
/// Medic's `Free recovery` power heals the Dying Hero, who has no Recoveries left,
/// as with one — 2d8 [4, 4] + 3 = 11, not halved to 5 — and spends none: no
/// Exhausted penalty, its Recoveries stay at 0.
#[test]
fn e_47_a_free_recovery_spends_none_and_is_not_halved() {
    let l = arena(vec![
        fighter(
            "Medic",
            "Heroes",
            (2, 1),
            30,
            &[],
            vec![melee("Mending Word", "0", &["Free recovery", "Quick"], &[])],
        ),
        fighter("Hero", "Heroes", (2, 2), 20, &[("Recoveries", 0)], vec![]),
        fighter("Orc", "Foes", (3, 2), 40, &[], vec![]),
    ]);
    let mut b = start(&l, &[6, 6, 5, 4, 4, 4, 4]);
    pass(&mut b, "Medic");
    pass(&mut b, "Hero");
    b.submit(strike(&b, "Orc", "Hero", None)).unwrap();
    assert_eq!(state(&b, "Hero"), PlayState::Dying);
    pass(&mut b, "Orc");
    let events = b
        .submit(strike(&b, "Medic", "Hero", Some("Mending Word")))
        .unwrap()
        .to_vec();
    assert_eq!(state(&b, "Hero"), PlayState::Active);
    assert_eq!(hp(&b, "Hero"), 11, "not halved");
    assert!(
        !events.iter().any(|e| matches!(
            e,
            Event::Ruleset(r) if format!("{r:?}").contains("Exhausted")
                || format!("{r:?}").contains("RecoverySpent")
        )),
        "no Recovery spent, no penalty: {events:?}"
    );
    let recoveries = b
        .pools(id(&b, "Hero"))
        .into_iter()
        .find(|(k, _)| k == "Recoveries")
        .map(|(_, v)| v);
    assert_eq!(recoveries, Some(0));
}
