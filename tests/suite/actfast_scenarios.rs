//! The shipped `actfast` scenarios (levels/scenarios/actfast_*.ron) played through
//! `skirmish::script` with their chosen dice: the round's order and its surprise
//! variant, armor per die, attack pools, burning, ripostes and morale, each outcome
//! the one RULES.md §4 says, each test naming the rules and worked examples it
//! checks; and every level they embed passes `skirmish check`.

use std::path::Path;

use skirmish::engine::Awaiting;
use skirmish::level::schema::DecisionPolicy;
use skirmish::script::ScriptCommand;

use crate::actfast::turns;
use crate::actfast::{all_dice_used, assert_none, assert_seq, has, lines_with, log, pool, state};
use crate::common::{c, cell, hp, run, run_first, run_patched};

const ORDER: &str = "levels/scenarios/actfast_order.ron";
const SURPRISE: &str = "levels/scenarios/actfast_surprise.ron";
const ARMOR: &str = "levels/scenarios/actfast_armor.ron";
const POOLS: &str = "levels/scenarios/actfast_pools.ron";
const BURNING: &str = "levels/scenarios/actfast_burning.ron";
const RIPOSTE: &str = "levels/scenarios/actfast_riposte.ron";
const MORALE: &str = "levels/scenarios/actfast_morale.ron";

/// Every `actfast` scenario loads (its commands are checked against the ruleset's
/// verbs) and the level it embeds passes the checks of `skirmish check` (written
/// out and loaded as a level file is) and the level validation, without a problem.
#[test]
fn every_actfast_scenario_level_passes_the_check() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/scenarios");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the scenarios folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("actfast_") && n.ends_with(".ron"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "actfast_armor.ron",
            "actfast_burning.ron",
            "actfast_morale.ron",
            "actfast_order.ron",
            "actfast_pools.ron",
            "actfast_riposte.ron",
            "actfast_surprise.ron",
        ]
    );
    for name in names {
        let (_, level) =
            skirmish::script::load(&dir.join(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(level.ruleset, "actfast", "{name}");
        let text = skirmish::level::to_ron_string(&level);
        if let Err(problems) = skirmish::level::load_str(&text, &name) {
            panic!("{name}: {problems:?}");
        }
        let issues = skirmish::level::validate::validate(&level);
        assert!(issues.is_empty(), "{name}: {issues:?}");
        // Every command is accepted (`run` asserts it).
        run(&format!("levels/scenarios/{name}"));
    }
}

/// A-EX-1 / A-02 / A-03 / A-22 / A-GAP-07 / A-GAP-10 / A-13: Ann (Act Fast) → Orc1
/// (2 actions) → Bo (Act Well) → Cy (Slow, not asked) → Orc2 (Slow NPC); Orc1
/// charges Bo from Close range; round 2 with the choices swapped: Bo → Orc1 → Ann →
/// Cy → Orc2.
#[test]
fn a_ex_1_order_scenario() {
    let b = run(ORDER);
    let said = log(&b, 0);
    assert_eq!(
        turns(&said),
        [
            "Ann", "Orc1", "Bo", "Cy", "Orc2", "Bo", "Orc1", "Ann", "Cy", "Orc2"
        ]
    );
    assert_seq(
        &said,
        &[
            "This round: 1. Act Fast: Ann (1 action); 2. Opponents: Orc1 (2 actions); 3. Act \
             Well: Bo (2 actions); 4. Slow: Cy (1 action), Orc2 (1 action)",
            "Ann spends an action: move (0 left)",
            "Orc1 spends an action: attack (1 left)",
            "Orc1 moves (4, 3) -> (3, 3) (cost 1)",
            "Orc1 rolls a melee attack with One-handed (Class 1 + STR 1 = 2d6) against Bo: 2d6 \
             [4, 2] keeps [4] = 4: Partial: a hit for half damage",
            "Orc1 rolls damage with One-handed against Bo: 1d6 [5] = 2: Armor 1 on each die: 4, \
             halved (Partial, rounded down): 2",
            "Bo rolls a melee attack with Two-handed (Class 1 + STR 2 = 3d6) against Orc1: 3d6 \
             [6, 3, 1] keeps [6] = 6: Success: a hit",
            "Bo rolls damage with Two-handed against Orc1: 2d6 [3, 4] = 7",
            "Bo rolls damage with Two-handed against Orc1: 2d6 [2, 2] = 2: halved (Partial, \
             rounded down): 2",
            "Cy spends an action: attack (0 left)",
            "Cy rolls a ranged attack with Bow (Class 1 + DEX 1 = 2d6) against Orc1: 2d6 [3, 1] \
             keeps [3] = 3: Failure: a miss",
            "Orc2 spends an action: move (0 left)",
            "This round: 1. Act Fast: Bo (1 action); 2. Opponents: Orc1 (2 actions); 3. Act \
             Well: Ann (2 actions); 4. Slow: Cy (1 action), Orc2 (1 action)",
        ],
    );
    assert_eq!((hp(&b, "Bo"), hp(&b, "Orc1")), (8, 3));
    assert_eq!(
        (cell(&b, "Ann"), cell(&b, "Orc1"), cell(&b, "Orc2")),
        (c(5, 1), c(3, 3), c(7, 1))
    );
    all_dice_used(&b);

    // Before Ann's move: her one action is waiting (A-02).
    let b = run_first(ORDER, 2);
    assert_eq!(pool(&b, "Ann", "Actions"), Some(1));
    // A-22: the Slow Orc2 may not attack with an approach (a move and an attack).
    let run = run_patched(ORDER, |s, _| {
        s.commands.truncate(8);
        s.commands.push(
            ron::from_str::<ScriptCommand>(
                r#"Attack(unit: "Orc2", target: "Ann", approach: [(9, 1), (8, 1), (7, 1), (6, 1)])"#,
            )
            .expect("an attack parses"),
        );
    });
    let error = run.error.expect("refused").to_string();
    assert!(
        error.contains("Orc2 is a Slow NPC: it moves or attacks, not both (A-22)"),
        "{error}"
    );
}

/// A-EX-1 (surprise variant) / A-04 / A-GAP-15: the ambushed Heroes are not asked in
/// round 1 and act after Orc1, with 2 actions each (Slow Cy 1), before the Slow
/// Orc2; in round 2 they choose and the normal order is back.
#[test]
fn a_ex_1_a_04_a_gap_15_surprise_scenario() {
    let b = run_first(SURPRISE, 0);
    assert_eq!(
        b.awaiting(),
        Awaiting::Unit(b.unit_id("Orc1").expect("unit"), b.turn().stage),
        "nobody is asked in round 1"
    );
    let b = run(SURPRISE);
    let said = log(&b, 0);
    assert_eq!(
        turns(&said),
        [
            "Orc1", "Ann", "Bo", "Cy", "Orc2", "Ann", "Orc1", "Bo", "Cy", "Orc2"
        ]
    );
    assert_seq(
        &said,
        &[
            "This round: 2. Opponents: Orc1 (2 actions); 4. Slow: Ann (2 actions), Bo (2 \
             actions), Cy (1 action), Orc2 (1 action)",
            "Ann spends an action: attack (1 left)",
            "Ann moves (2, 1) -> (3, 2) (cost 1)",
            "Ann rolls a melee attack with One-handed (Class 1 + STR 2 = 3d6) against Orc1: 3d6 \
             [5, 5, 1] keeps [5] = 5: Partial: a hit for half damage",
            "Ann spends an action: move (0 left)",
            "Bo spends an action: attack (0 left)",
            "Ann will Act Fast: 24% to drop Orc1 before it acts, 2.4 expected damage",
            "This round: 1. Act Fast: Ann (1 action); 2. Opponents: Orc1 (2 actions); 3. Act \
             Well: Bo (2 actions); 4. Slow: Cy (1 action), Orc2 (1 action)",
        ],
    );
    let round_2 = said.iter().position(|l| l == "=== Round 2 ===");
    assert_none(&said[..round_2.expect("round 2")], "will Act");
    assert_eq!((hp(&b, "Bo"), hp(&b, "Orc1")), (8, 4));
    all_dice_used(&b);
}

/// A-15 / A-EX-3 / A-GAP-05: 2d6 [4, 1] against Armor 0, 1, 2, 4 deals 5, 3 + 0,
/// 2 + 0 and 0; with Armor 3 it would deal 1 + 0 (each die floored at 0, not 5 − 3).
#[test]
fn a_15_a_ex_3_armor_scenario() {
    let b = run(ARMOR);
    let said = log(&b, 0);
    assert_eq!(
        lines_with(&said, "rolls damage"),
        [
            "Reaver rolls damage with Two-handed against Bare: 2d6 [4, 1] = 5",
            "Reaver rolls damage with Two-handed against Leather: 2d6 [4, 1] = 3: Armor 1 on \
             each die: 3 + 0 = 3",
            "Reaver rolls damage with Two-handed against Mail: 2d6 [4, 1] = 2: Armor 2 on each \
             die: 2 + 0 = 2",
            "Reaver rolls damage with Two-handed against Plate: 2d6 [4, 1] = 0: Armor 4 on each \
             die: 0 + 0 = 0",
        ]
    );
    let left: Vec<i32> = ["Bare", "Leather", "Mail", "Plate"]
        .iter()
        .map(|n| hp(&b, n))
        .collect();
    assert_eq!(left, [1, 3, 4, 6]);
    all_dice_used(&b);

    let run = run_patched(ARMOR, |_, level| {
        let plate = level.units.iter_mut().find(|u| u.name == "Plate");
        plate.expect("Plate").stats.insert("Armor".into(), 3);
    });
    assert!(run.error.is_none(), "{:?}", run.error);
    assert_seq(
        &log(&run.battle, 0),
        &[
            "Reaver rolls damage with Two-handed against Plate: 2d6 [4, 1] = 1: Armor 3 on each \
           die: 1 + 0 = 1",
        ],
    );
    assert_eq!(hp(&run.battle, "Plate"), 5);
}

/// A-07 / A-08 / A-09 / A-EX-2 / A-GAP-04 / A-GAP-11: melee vs Prone 5d6, vs
/// Grappled and Fearful 5d6, a Restrained attacker vs Prone 3d6, ranged vs Prone 0
/// dice (2d6 read lowest).
#[test]
fn a_ex_2_pools_scenario() {
    let b = run(POOLS);
    let said = log(&b, 0);
    let pools: Vec<String> = lines_with(&said, "attack with")
        .into_iter()
        .map(|l| l.split(" against ").next().unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        pools,
        [
            "Tam rolls a melee attack with One-handed (Class 1 + STR 2 - 2d (Tam: Restrained) + \
             2d (Sprawled: Prone) = 3d6)",
            "Ann rolls a melee attack with One-handed (Class 1 + STR 2 + 2d (Sprawled: Prone) = \
             5d6)",
            "Ann rolls a melee attack with One-handed (Class 1 + STR 2 + 1d (Held: Grappled) + \
             1d (Held: Fear) = 5d6)",
            "Ann rolls a ranged attack with Bow (Class 1 + DEX 1 - 2d (Sprawled: Prone) = 0 \
             dice: roll 2d6 and read the lowest (A-GAP-04))",
        ]
    );
    for outcome in [
        "Sprawled: 5d6 [1, 3, 2, 5, 4] keeps [5] = 5: Partial: a hit for half damage",
        "Held: 5d6 [2, 2, 2, 2, 2] keeps [2] = 2: Failure: a miss",
        "Sprawled: 2d6 [6, 2] keeps [2] = 2: Failure: a miss",
    ] {
        assert!(
            said.iter().any(|l| l.ends_with(outcome)),
            "{outcome}: {said:?}"
        );
    }
    assert_eq!(hp(&b, "Sprawled"), 3, "6 - 1 - 2");
    assert!(has(&b, "Sprawled", "Prone"), "it never stood up");
    all_dice_used(&b);
}

/// A-25 / A-EX-5 / A-GAP-05 / A-GAP-11: the flames burn 1d6 less armor at the start
/// of each turn until put out with an action: the Act-Well Warden has 1 action left
/// after it, the Act-Fast Scout none; the Squire, who leaves them, burns again.
#[test]
fn a_25_a_ex_5_burning_scenario() {
    let b = run(BURNING);
    let said = log(&b, 0);
    assert_eq!(
        lines_with(&said, "rolls the flames"),
        [
            "Scout rolls the flames (Burning, A-25): 1d6 [5] -1 Armor = 4: 4 damage",
            "Squire rolls the flames (Burning, A-25): 1d6 [2] = 2: 2 damage",
            "Warden rolls the flames (Burning, A-25): 1d6 [5] -1 Armor = 4: 4 damage",
            "Squire rolls the flames (Burning, A-25): 1d6 [3] = 3: 3 damage",
        ]
    );
    assert_seq(
        &said,
        &[
            "Scout spends an action: put out the flames (0 left)",
            "Scout ends its turn",
            "Warden spends an action: put out the flames (1 left)",
            "Warden spends an action: use Healing draught (0 left)",
            "Warden heals 3 [3] -> 9 HP",
        ],
    );
    assert_eq!(
        (hp(&b, "Scout"), hp(&b, "Warden"), hp(&b, "Squire")),
        (6, 9, 5)
    );
    assert!(has(&b, "Squire", "Burning") && !has(&b, "Scout", "Burning"));
    all_dice_used(&b);

    // A-EX-5: the flames out, the Warden has 1 action left.
    let b = run_first(BURNING, 7);
    assert_eq!(pool(&b, "Warden", "Actions"), Some(1));
}

/// A-05 / A-06 / A-GAP-08 / A-GAP-09: a failed melee attack is riposted with the
/// round's one reaction (the Heroes are asked; the Brigands answer by themselves);
/// no riposte to a ranged attack, to a riposte, or with the reaction spent; the
/// reaction is back next round, and the Heroes may pass.
#[test]
fn a_05_a_06_a_gap_09_riposte_scenario() {
    let b = run_first(RIPOSTE, 4);
    match b.awaiting() {
        Awaiting::Decision(d) => {
            assert_eq!(d.about, "decide whether Duelist ripostes Cutthroat");
        }
        other => panic!("{other:?}"),
    }
    let b = run(RIPOSTE);
    let said = log(&b, 0);
    assert_eq!(
        lines_with(&said, " ripostes "),
        [
            "Duelist ripostes Cutthroat's failed attack (its reaction this round)",
            "Thug ripostes Duelist's failed attack (its reaction this round)",
            "Duelist ripostes Thug's failed attack (its reaction this round)",
        ]
    );
    assert_seq(
        &said,
        &[
            "Bowman rolls a ranged attack with Bow (Class 1 + DEX 1 = 2d6) against Duelist: 2d6 \
             [1, 3] keeps [3] = 3: Failure: a miss",
            "Duelist rolls a riposte with One-handed (Class 2 + STR 1 = 3d6) against Cutthroat: \
             3d6 [6, 4, 1] keeps [6] = 6: Success: a hit",
            "Cutthroat takes 4 damage [4] -> 2 HP",
            "Thug rolls a melee attack with One-handed (Class 1 + STR 1 = 2d6) against Duelist: \
             2d6 [3, 1] keeps [3] = 3: Failure: a miss",
            "Thug ends its turn",
            "Duelist rolls a melee attack with One-handed (Class 2 + STR 1 = 3d6) against Thug: \
             3d6 [2, 1, 3] keeps [3] = 3: Failure: a miss",
            "Thug rolls a riposte with One-handed (Class 1 + STR 1 = 2d6) against Duelist: 2d6 \
             [6, 2] keeps [6] = 6: Success: a hit",
            "Duelist rolls a melee attack with One-handed (Class 2 + STR 1 = 3d6) against Thug: \
             3d6 [1, 1, 1] keeps [1] = 1: Failure: a miss",
            "Duelist ends its turn",
            "=== Round 2 ===",
            "Duelist rolls a riposte with One-handed (Class 2 + STR 1 = 3d6) against Thug: 3d6 \
             [6, 5, 2] keeps [6] = 6: Success: a hit",
            "Thug takes 5 damage [5] -> 1 HP",
        ],
    );
    assert_eq!(
        (hp(&b, "Duelist"), hp(&b, "Cutthroat"), hp(&b, "Thug")),
        (7, 2, 1)
    );
    all_dice_used(&b);

    // A side that never reacts lets the Duelist's miss pass.
    let run = run_patched(RIPOSTE, |s, level| {
        s.commands.truncate(9);
        level.sides[1].decisions = DecisionPolicy::Never;
    });
    assert!(run.error.is_none(), "{:?}", run.error);
    assert_none(&log(&run.battle, 0), "Thug ripostes");
    assert_eq!(hp(&run.battle, "Duelist"), 10);
}

/// A-16 / A-17 / A-GAP-13 / A-EX-4: the first brigand killed shakes the band; at the
/// Chief's turn each rolls 2d6 − Leadership against its Morale: the Chief holds, the
/// Thug (next to the Sellsword) surrenders, the Lookout flees to the edge and leaves;
/// with three of five lost the band rolls again at its next step, and the Archer
/// flees. With the seed's literal sign the Chief (Leadership 2) breaks on [5, 5].
#[test]
fn a_16_a_17_a_gap_13_a_ex_4_morale_scenario() {
    let b = run(MORALE);
    let said = log(&b, 0);
    assert_eq!(
        lines_with(&said, "rolls morale (A-16)"),
        [
            "Chief rolls morale (A-16): 2d6 [5, 5] -2 Leadership = 8 vs 9: not above 9: it holds",
            "Thug rolls morale (A-16): 2d6 [5, 4] = 9 vs 8: above 8: it breaks",
            "Archer rolls morale (A-16): 2d6 [2, 2] = 4 vs 8: not above 8: it holds",
            "Lookout rolls morale (A-16): 2d6 [6, 5] = 11 vs 8: above 8: it breaks",
            "Chief rolls morale (A-16): 2d6 [3, 3] -2 Leadership = 4 vs 9: not above 9: it holds",
            "Archer rolls morale (A-16): 2d6 [6, 6] = 12 vs 8: above 8: it breaks",
        ]
    );
    assert_eq!(
        lines_with(&said, "Morale shaken"),
        [
            "Morale shaken on side Brigands (its first NPC was killed): each of its NPCs rolls \
             morale at its next step (A-17)",
            "Morale shaken on side Brigands (it has lost half its number): each of its NPCs \
             rolls morale at its next step (A-17)",
        ]
    );
    assert_seq(
        &said,
        &[
            "Runt is killed!",
            "Thug's morale breaks: next to Sellsword, it throws down its arms",
            "Thug surrenders!",
            "Lookout's morale breaks: it runs for the edge of the field",
            "Lookout spends an action: flee (1 left)",
            "Lookout spends an action: flee (0 left)",
            "Lookout moves (7, 8) -> (6, 9) (cost 1)",
            "Lookout flees the battle!",
            "=== Round 2 ===",
            "Archer's morale breaks: it runs for the edge of the field",
            "Archer moves (8, 6) -> (9, 5) (cost 1)",
            "Archer flees the battle!",
        ],
    );
    use skirmish::engine::units::PlayState;
    let states: Vec<PlayState> = ["Chief", "Runt", "Thug", "Archer", "Lookout"]
        .iter()
        .map(|n| state(&b, n))
        .collect();
    assert_eq!(
        states,
        [
            PlayState::Active,
            PlayState::Dead,
            PlayState::Surrendered,
            PlayState::Fled,
            PlayState::Fled
        ]
    );
    all_dice_used(&b);

    // The seed's literal "+ Leadership" (A-EX-4): the Chief's 5 + 5 + 2 = 12 breaks.
    let run = run_patched(MORALE, |s, level| {
        s.commands.truncate(4);
        level.rules.insert(
            "morale_leadership_sign".into(),
            ron::Value::Number(1i32.into()),
        );
    });
    assert!(run.error.is_none(), "{:?}", run.error);
    assert_seq(
        &log(&run.battle, 0),
        &[
            "Chief rolls morale (A-16): 2d6 [5, 5] +2 Leadership = 12 vs 9: above 9: it breaks",
            "Chief's morale breaks: it runs for the edge of the field",
            "Chief flees the battle!",
            "Morale shaken on side Brigands (it has lost half its number, its leader is down): \
             each of its NPCs rolls morale at its next step (A-17)",
        ],
    );
}
