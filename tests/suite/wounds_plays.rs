//! `wounds` rules that only unit tests or level data used to check, played through
//! [`Battle::submit`] with scripted dice: damage by weapon and spell, standing up
//! off-turn until the next turn has nothing left, and the Ravine Road played to its
//! end by the normal AI. Each test names the rule ids it plays and asserts their
//! effect.

use std::path::Path;

use rand::SeedableRng;
use skirmish::ai::AiPolicy;
use skirmish::engine::dice::Dice;
use skirmish::engine::event::Event;
use skirmish::engine::rulesets::new_battle;
use skirmish::engine::{Awaiting, Battle, Command};
use skirmish::level::schema::*;

use crate::common::{hp, id};
use crate::wounds::{
    actions, all_dice_used, armed, attack, battle, damage_to, end, has, level, mv, paid, refusal,
    run, spell, weapon, weapon_on_hit, wu,
};

/// W-14 / W-GAP-01: damage varies with the weapon or spell: against the same Ogre,
/// with the same d20, Unarmed rolls a d3, the Dagger a d4, the Greataxe a d12 and a
/// spell its own dice (1d10); each highest face is the damage (Strength 0, no
/// armor). A face above the die's sides would stop the battle, so each is the die
/// the weapon names.
#[test]
fn w_14_w_gap_01_damage_varies_with_the_weapon_or_spell() {
    let l = level(
        (6, 5),
        &[],
        vec![
            armed(
                wu("Axer", "Heroes", (1, 1), 4, 0, 20),
                vec![weapon("Greataxe")],
            ),
            armed(
                wu("Knifer", "Heroes", (2, 1), 3, 0, 20),
                vec![weapon("Dagger")],
            ),
            wu("Brawler", "Heroes", (3, 1), 2, 0, 20),
            armed(
                wu("Mage", "Heroes", (0, 4), 1, 0, 20),
                vec![spell("Spark", "1d10", &[])],
            ),
            wu("Ogre", "Foes", (2, 2), 0, 0, 80),
        ],
    );
    // Each: d20 15 hits defense 10; then the damage die's highest face.
    let mut b = battle(&l, &[15, 12, 15, 4, 15, 3, 15, 10]);
    let ogre = id(&b, "Ogre");
    let mut dealt = Vec::new();
    for unit in ["Axer", "Knifer", "Brawler", "Mage"] {
        let events = run(&mut b, |b| attack(b, unit, "Ogre"));
        dealt.push((unit, damage_to(&events, ogre)));
        end(&mut b, unit);
    }
    assert_eq!(
        dealt,
        [
            ("Axer", vec![12]),
            ("Knifer", vec![4]),
            ("Brawler", vec![3]),
            ("Mage", vec![10])
        ]
    );
    assert_eq!(hp(&b, "Ogre"), 80 - 29);
    all_dice_used(&b);
}

/// W-30 / W-GAP-19: a unit knocked prone off its turn may stand up at once with an
/// action of its next turn, and only with one that turn still has: after two
/// Bonus Actions the offer leaves them out, after all four actions there is no
/// offer, it stays prone, and on its turn it has nothing to stand up with.
#[test]
fn w_30_no_action_left_on_the_next_turn_means_no_standing_up() {
    let archer = |name: &str, y: i32, agility: i32| {
        armed(
            wu(name, "Foes", (8, y), agility, 0, 20),
            vec![weapon_on_hit("Shortbow", "Prone", EffectDuration::SaveEnds)],
        )
    };
    let mut l = level(
        (10, 4),
        &[],
        vec![
            wu("Hero", "Heroes", (0, 1), 0, 0, 60),
            archer("A1", 0, 4),
            archer("A2", 1, 3),
            archer("A3", 2, 2),
        ],
    );
    l.sides[0].decisions = DecisionPolicy::Ask;
    // Five shots, each d20 15 and d6 1 (no wound).
    let mut b = battle(&l, &[15, 1, 15, 1, 15, 1, 15, 1, 15, 1]);
    let offered = |b: &Battle| -> Vec<String> {
        match b.awaiting() {
            Awaiting::Decision(d) => d.options.iter().map(|o| o.label.clone()).collect(),
            _ => Vec::new(),
        }
    };
    let mut offers = Vec::new();
    for (archer, pays) in [("A1", ["BA", "BA"]), ("A2", ["MA", "AA"])] {
        // The attack, then the extra attack (MA + 2 BA of the archer's turn).
        for pay in pays {
            run(&mut b, |b| attack(b, archer, "Hero"));
            offers.push(offered(&b));
            run(&mut b, |b| paid(b, "Hero", "Stand", pay));
            assert!(!has(&b, "Hero", "Prone"));
        }
        end(&mut b, archer);
    }
    let sizes: Vec<usize> = offers.iter().map(Vec::len).collect();
    assert_eq!(
        sizes,
        [3, 3, 2, 1],
        "BA, MA, AA; then what is left: {offers:?}"
    );
    assert!(offers[2].iter().all(|o| !o.contains("BA")), "{offers:?}");
    assert!(offers[3][0].ends_with("next turn's 1 AA"), "{offers:?}");
    run(&mut b, |b| attack(b, "A3", "Hero"));
    assert!(offered(&b).is_empty(), "nothing left to stand up with");
    assert!(has(&b, "Hero", "Prone"));
    end(&mut b, "A3");
    assert_eq!(actions(&b, "Hero"), (0, 0, 0));
    let err = refusal(&b, &paid(&b, "Hero", "Stand", "BA"));
    assert!(err.contains("Hero has not 1 BA left for Stand"), "{err}");
    assert!(has(&b, "Hero", "Prone"));
    assert_eq!(hp(&b, "Hero"), 55);
    all_dice_used(&b);
}

/// W-03: on the Ravine Road the Warband started the fight: all its units act after
/// all the Caravan's in round 1, whatever their Agility (the Cutthroat, +3, after
/// the Mage, +1). The level then plays to its
/// end with the normal AI on both sides, every command legal, until a side wins.
#[test]
fn w_03_the_ravine_road_plays_to_its_end_with_the_normal_ai() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/wounds_ravine.ron");
    let level = skirmish::level::load_file(&path).expect("the level loads");
    let mut b = new_battle(&level, Dice::seeded(3)).expect("it sets up");
    let order: Vec<String> = b
        .events()
        .iter()
        .find_map(|e| match e {
            Event::OrderSet { order, .. } => Some(order.iter().map(|&u| b.unit_name(u)).collect()),
            _ => None,
        })
        .expect("round 1's order");
    let side_of = |name: &String| {
        level
            .units
            .iter()
            .find(|u| &u.name == name)
            .map(|u| u.side.clone())
            .unwrap()
    };
    let sides: Vec<String> = order.iter().map(side_of).collect();
    let caravan = sides.iter().filter(|s| *s == "Caravan").count();
    assert_eq!(caravan, 4);
    assert!(
        sides[..caravan].iter().all(|s| s == "Caravan"),
        "W-03: {order:?}"
    );
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(7);
    for _ in 0..20_000 {
        let Some(command) = skirmish::ai::choose(&b, AiPolicy::Normal, &mut rng) else {
            break;
        };
        b.submit(command).expect("the AI's command is legal");
    }
    assert!(
        matches!(b.awaiting(), Awaiting::Over(Some(_))),
        "{:?}",
        b.awaiting()
    );
}

/// Configuration belongs to the battle: two `wounds` battles under different
/// constants (crits from a natural 20, and from 15), asked for the same attack's
/// odds one after the other in one thread, each get their own numbers — the ones a
/// fresh thread computes for it alone — however the odds cache is warmed.
#[test]
fn two_configurations_in_one_thread_never_share_odds() {
    use skirmish::engine::ruleset::Assume;
    fn make(crit_at: i32) -> Level {
        let mut l = crate::wounds::level(
            (5, 3),
            &[],
            vec![
                crate::wounds::armed(
                    crate::wounds::wu("Hero", "Heroes", (1, 1), 1, 2, 20),
                    vec![crate::wounds::weapon("Longsword")],
                ),
                crate::wounds::wu("Orc", "Foes", (2, 1), 1, 1, 20),
            ],
        );
        l.rules
            .insert("crit_at".into(), ron::Value::Number(crit_at.into()));
        l
    }
    fn odds(crit_at: i32) -> (f64, f64, f64) {
        let b = new_battle(&make(crit_at), Dice::seeded(1)).expect("level sets up");
        let (hero, orc) = (id(&b, "Hero"), id(&b, "Orc"));
        let o = b
            .attack_odds(hero, orc, Some("Longsword"), Assume::default())
            .expect("the Orc is in reach");
        (o.chance, o.expected_damage, o.kill_chance)
    }
    let alone = |crit_at: i32| std::thread::spawn(move || odds(crit_at)).join().unwrap();
    let (at_20, at_15) = (alone(20), alone(15));
    assert_ne!(at_20, at_15, "crits from 15 change the odds");
    // Alternate in this thread: each battle's odds are its own.
    for _ in 0..3 {
        assert_eq!(odds(20), at_20);
        assert_eq!(odds(15), at_15);
    }
}

/// W-09 / W-GAP-13 played by the AI: `normal` spends the Bonus Actions its turn has
/// no other use for on boosts before its attack, and keeps them when they still buy
/// something.
///
/// The Hero walks next to the Orc with its Move Action (spent: W-GAP-15), so
/// neither the extra attack (W-10: Move Action + 2 Bonus Actions) nor a longer move
/// needs its two Bonus Actions: `normal` spends each on +1 to hit or +1 melee
/// damage, and then attacks with both boosts on it. `easy`, in the same place,
/// attacks at once. The Orc, already next to the Hero on its own turn with its Move
/// Action unspent, attacks without a boost and keeps both Bonus Actions for the
/// extra attack after it (W-10).
#[test]
fn w_09_normal_boosts_with_spare_bonus_actions_before_its_attack() {
    let l = level(
        (7, 3),
        &[],
        vec![
            armed(
                wu("Hero", "Heroes", (1, 1), 3, 2, 30),
                vec![weapon("Longsword")],
            ),
            armed(
                wu("Orc", "Foes", (4, 1), 0, 2, 30),
                vec![weapon("Longsword")],
            ),
        ],
    );
    let mut b = battle(&l, &[]);
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
    run(&mut b, |b| mv(b, "Hero", &[(2, 1), (3, 1)]));
    assert_eq!(actions(&b, "Hero").2, 2, "both BAs left");
    let easy = skirmish::ai::choose(&b, AiPolicy::Easy, &mut rng).expect("a command");
    assert!(matches!(easy, Command::Attack { .. }), "easy: {easy:?}");
    let mut boosts = Vec::new();
    let attack = loop {
        let c = skirmish::ai::choose(&b, AiPolicy::Normal, &mut rng).expect("a command");
        match &c {
            Command::Act { verb, .. } => {
                assert!(verb == "HitBoost" || verb == "DamageBoost", "{c:?}");
                boosts.push(verb.clone());
            }
            Command::Attack { .. } => break c,
            other => panic!("normal should boost, then attack: {other:?}"),
        }
        b.submit(c).expect("the boost is legal");
        assert!(boosts.len() <= 2, "two Bonus Actions: {boosts:?}");
    };
    assert_eq!(boosts.len(), 2, "W-09: both spare BAs boost: {boosts:?}");
    assert_eq!(actions(&b, "Hero").2, 0);
    assert!(has(&b, "Hero", "Hit boost") || has(&b, "Hero", "Damage boost"));
    let Command::Attack { target, .. } = attack else {
        unreachable!()
    };
    assert_eq!(target, id(&b, "Orc"));

    // The Orc's turn: next to the Hero, Move Action unspent.
    end(&mut b, "Hero");
    let first = skirmish::ai::choose(&b, AiPolicy::Normal, &mut rng).expect("a command");
    assert!(
        matches!(first, Command::Attack { .. }),
        "W-10: with the Move Action unspent no Bonus Action is spent first: {first:?}"
    );
    assert_eq!(actions(&b, "Orc").2, 2);
}
