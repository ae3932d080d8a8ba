//! Issue 11, items 1–5: whatever `skirmish check` accepts, the engine plays to the
//! end. Each class of level the fuzzer found to crash, hang or quietly misplay the
//! engine is either refused by `check` at its place in the file (`FILE:LINE:COL`),
//! or played to the end.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use skirmish::engine::dice::Dice;
use skirmish::engine::event::{Event, Stage};
use skirmish::engine::initiative::MAX_ROLL_OFF_ROUNDS;
use skirmish::engine::rulesets::new_battle;
use skirmish::engine::rulesets::phases::round;
use skirmish::level::{Level, Problem, load_str};

/// A `phases` duel; `RULES` is replaced by the level's overrides.
const PHASES: &str = r#"// A phases duel.
(
    name: "Duel",
    ruleset: "phases",
    grid: Square,
    size: (6, 3),
    sides: [(name: "Blue", controller: Ai(Normal)), (name: "Red", controller: Ai(Normal))],
    units: [
        (name: "Knight", side: "Blue", pos: (0, 1), stats: {"INT": 0, "AGI": 0, "ATK": 3, "DEF": 11, "Tier": 1}),
        (name: "Goblin", side: "Red", pos: (5, 1), stats: {"INT": 0, "AGI": 0, "ATK": 2, "DEF": 11, "Tier": 1}),
    ],
    rules: {RULES},
)
"#;

/// A `flow` duel on hexes; `RULES` is replaced by the level's overrides.
const FLOW: &str = r#"// A flow duel.
(
    name: "Ford",
    ruleset: "flow",
    grid: Hex,
    size: (6, 3),
    sides: [(name: "Blue", controller: Ai(Normal)), (name: "Red", controller: Ai(Normal))],
    units: [
        (
            name: "Captain",
            side: "Blue",
            pos: (0, 1),
            stats: {"AgiMod": 1, "HP": 20},
            skills: {"Melee": 60, "Agility": 45},
            weapons: [(name: "Sword", damage: "1d8", on_hit: ["Bleeding"])],
        ),
        (
            name: "Ogre",
            side: "Red",
            pos: (5, 1),
            stats: {"AgiMod": 0, "HP": 24},
            skills: {"Melee": 55, "Agility": 25},
            weapons: [(name: "Club", damage: "1d10")],
        ),
    ],
    rules: {RULES},
)
"#;

fn with_rules(base: &str, rules: &str) -> String {
    base.replace("RULES", rules)
}

/// `text` with `from` (which must occur exactly once) replaced by `to`.
fn edited(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "`{from}` must occur once");
    text.replace(from, to)
}

fn problems(text: &str) -> Vec<Problem> {
    match load_str(text, "test.ron") {
        Ok(_) => panic!("`check` accepted:\n{text}"),
        Err(p) => p,
    }
}

/// 1-based line and column of the first occurrence of `needle` in `text`.
fn position(text: &str, needle: &str) -> (usize, usize) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` not in the text"));
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .chars()
        .count()
        + 1;
    (line, col)
}

/// Asserts that `check` refuses `text` with a problem at the first occurrence of
/// `at` whose message contains every one of `needles`.
fn refused_at(text: &str, at: &str, needles: &[&str]) {
    let (line, col) = position(text, at);
    let found = problems(text);
    let listing: Vec<String> = found.iter().map(Problem::to_string).collect();
    assert!(
        found.iter().any(|p| p.line == line
            && p.col == col
            && needles.iter().all(|n| p.message.contains(n))),
        "expected test.ron:{line}:{col}: …{needles:?}…, got:\n{}",
        listing.join("\n")
    );
    for p in &found {
        assert!(
            !p.message.contains("Some(") && !p.message.contains("Value::"),
            "Rust debug output in: {p}"
        );
    }
}

fn accepted(text: &str) -> Level {
    load_str(text, "test.ron").unwrap_or_else(|p| {
        let lines: Vec<String> = p.iter().map(Problem::to_string).collect();
        panic!("`check` refused:\n{}\n{text}", lines.join("\n"))
    })
}

/// Plays one AI battle of `text` with `skirmish sim` and asserts it ran to the end
/// (a win or the round limit) without an error.
fn sim_plays_to_the_end(name: &str, text: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("reliability_engine");
    fs::create_dir_all(&dir).expect("scratch dir");
    let file: PathBuf = dir.join(format!("{name}.ron"));
    fs::write(&file, text).expect("write level");
    let out = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["sim", "--battles", "1", "--seed", "3", "--json"])
        .arg(&file)
        .output()
        .expect("run skirmish sim");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "sim {name} failed:\n{stdout}\n{stderr}"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("sim --json prints JSON");
    assert_eq!(json["battles"], 1, "{stdout}");
}

// ------------------------------------------------------------------ 1. tie die

/// Bad input: a d0 or d1 tie die (`tie_die`, `initiative_die`) can never break a tie
/// (the roll-off recursed until the stack overflowed); `check` refuses it at the
/// key, in both rulesets.
#[test]
fn tie_die_below_two_sides_is_refused_at_its_key() {
    for base in [PHASES, FLOW] {
        for bad in ["0", "1"] {
            let text = with_rules(base, &format!("\"tie_die\": {bad}"));
            refused_at(&text, "\"tie_die\"", &["`tie_die`", "2 to 10000 sides"]);
        }
        accepted(&with_rules(base, "\"tie_die\": 2"));
    }
    let text = with_rules(FLOW, "\"initiative_die\": 1");
    refused_at(&text, "\"initiative_die\"", &["`initiative_die`", "d1"]);
}

/// P-14: 100,000 identical scripted faces (every unit ties on initiative and keeps
/// tying) used to overflow the stack; the shared roll-off stops after
/// MAX_ROLL_OFF_ROUNDS rounds and the units keep their roster order.
#[test]
fn p_14_endless_scripted_ties_are_bounded_and_keep_roster_order() {
    let level = accepted(&with_rules(PHASES, ""));
    let battle = new_battle(&level, Dice::scripted(std::iter::repeat_n(1, 100_000)))
        .expect("the duel sets up");
    let events = battle.events();
    let tie_breaks = events
        .iter()
        .filter(|e| matches!(e, Event::TieBreakRolled { .. }))
        .count();
    assert_eq!(tie_breaks, 2 * MAX_ROLL_OFF_ROUNDS as usize);
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::StageStarted {
                stage: Stage::Movement
            }
        )),
        "the round goes on to the Movement Phase"
    );
    // The tie stands: Knight then Goblin, in roster order.
    let knight = battle.unit_id("Knight").unwrap();
    let goblin = battle.unit_id("Goblin").unwrap();
    let descending = &round(battle.world()).descending;
    assert_eq!(descending, &[knight, goblin]);
}

// ------------------------------------------------------------------ 2. check die

/// Bad input: a d0 check die panicked in the skill checks, and a d20000 one is
/// absurd; `check` refuses both at `checks`.
#[test]
fn check_die_out_of_range_is_refused_at_checks() {
    let checks = |die: u32| {
        format!(
            "\"checks\": (die: {die}, always_critical: 1, fumble_from: 96, critical_divisor: 10, \
             major_divisor: 5, hard_divisor: 2)"
        )
    };
    for die in [0, 1, 20_000] {
        let text = with_rules(FLOW, &checks(die));
        refused_at(
            &text,
            "\"checks\"",
            &[&format!("`die` is {die}"), "2 to 1000"],
        );
    }
    let text = with_rules(
        FLOW,
        "\"checks\": (die: 100, always_critical: 1, fumble_from: 96, critical_divisor: 0, \
         major_divisor: 5, hard_divisor: 2)",
    );
    refused_at(&text, "\"checks\"", &["`critical_divisor` is 0"]);
}

/// The smallest and largest check dice `check` accepts play a battle to the end.
#[test]
fn extreme_accepted_check_dice_play_to_the_end() {
    for die in [2, 1000] {
        let text = with_rules(
            FLOW,
            &format!(
                "\"checks\": (die: {die}, always_critical: 1, fumble_from: {die}, \
                 critical_divisor: 10, major_divisor: 5, hard_divisor: 2)"
            ),
        );
        accepted(&text);
        sim_plays_to_the_end(&format!("check_die_{die}"), &text);
    }
}

// ------------------------------------------------------------------ 3. big dice

/// Bad input: damage dice spanning more totals than the documented bound
/// (MAX_DICE_SPAN) are refused at the weapon's `damage`; `1000d1000` used to hang
/// a battle forever.
#[test]
fn damage_dice_beyond_the_bound_are_refused_at_the_weapon() {
    for dice in ["1000d1000", "50d1000", "20d1000"] {
        let text = edited(&with_rules(FLOW, ""), "\"1d10\"", &format!("\"{dice}\""));
        refused_at(
            &text,
            &format!("damage: \"{dice}\""),
            &["weapon `Club`", "different totals", "at most 10000"],
        );
    }
    // phases powers and healing items too.
    let text = edited(
        &with_rules(PHASES, ""),
        "\"Tier\": 1}),\n        (name: \"Goblin\"",
        "\"Tier\": 1}, powers: [(name: \"Maul\", damage: \"20d1000\")]),\n        (name: \"Goblin\"",
    );
    refused_at(
        &text,
        "damage: \"20d1000\"",
        &["power `Maul`", "different totals"],
    );
}

/// The worst damage dice `check` accepts play a battle to the end.
#[test]
fn largest_accepted_damage_dice_play_to_the_end() {
    // 100d101: 10,001 totals (100 to 10,100), the most allowed.
    let text = edited(&with_rules(FLOW, ""), "\"1d10\"", "\"100d101\"");
    let text = edited(&text, "\"1d8\"", "\"100d101\"");
    accepted(&text);
    sim_plays_to_the_end("flow_big_damage", &text);
    let text = edited(
        &with_rules(PHASES, ""),
        "\"Tier\": 1}),\n        (name: \"Goblin\"",
        "\"Tier\": 1}, powers: [(name: \"Maul\", damage: \"100d101\")]),\n        (name: \"Goblin\"",
    );
    accepted(&text);
    sim_plays_to_the_end("phases_big_damage", &text);
}

// ------------------------------------------------------------------ 4. accepted, then failed

/// Bad input: dice expressions of the rules (`initiative_dice`, `save_dice`, …) are
/// parsed by `check` (they used to fail when the battle started or at the first
/// save).
#[test]
fn bad_rules_dice_are_refused_at_their_key() {
    for (key, value) in [
        ("initiative_dice", "\"junk\""),
        ("initiative_dice", "\"\""),
        ("save_dice", "\"junk\""),
        ("attack_dice", "\"junk\""),
    ] {
        let text = with_rules(PHASES, &format!("\"{key}\": {value}"));
        refused_at(
            &text,
            &format!("\"{key}\""),
            &[&format!("`{key}`"), "not a dice expression"],
        );
    }
    let text = with_rules(FLOW, "\"ongoing\": {\"Bleeding\": \"1d\"}");
    refused_at(
        &text,
        "\"ongoing\"",
        &["`ongoing`", "`1d` is not a dice expression"],
    );
    let text = with_rules(FLOW, "\"unarmed_damage\": \"2d6*2\"");
    refused_at(&text, "\"unarmed_damage\"", &["not a dice expression"]);
}

/// Bad input: `surprisers` must name sides of the level (the battle failed to set
/// up).
#[test]
fn surprisers_must_name_sides() {
    let text = with_rules(FLOW, "\"surprisers\": [\"Nobody\"]");
    refused_at(
        &text,
        "\"surprisers\"",
        &["`Nobody`", "not a side", "Blue, Red"],
    );
    // Side names match ignoring case, as in the engine.
    let text = with_rules(FLOW, "\"surprisers\": [\"red\"]");
    accepted(&text);
    sim_plays_to_the_end("surprise", &text);
}

// ------------------------------------------------------------------ 5. silently wrong

/// Bad input: `attack_dice` that an extra die can't join used to fall back to 2d6
/// while the log still named the extra die; `check` refuses them.
#[test]
fn attack_dice_an_extra_die_cannot_join_are_refused() {
    for (bad, why) in [
        ("1d20-1d4", "subtracts dice"),
        ("7", "rolls no dice"),
        ("3d6kh2", "keeps only some dice"),
    ] {
        let text = with_rules(PHASES, &format!("\"attack_dice\": \"{bad}\""));
        refused_at(
            &text,
            "\"attack_dice\"",
            &[&format!("`attack_dice` `{bad}` {why}"), "can't join"],
        );
        assert_eq!(
            problems(&text).len(),
            1,
            "one problem, not one per extra die"
        );
    }
    // Dice that can take one play, with the extra die kept among all of them.
    let text = with_rules(PHASES, "\"attack_dice\": \"1d20+1d4\"");
    accepted(&text);
    sim_plays_to_the_end("d20_attacks", &text);
}

/// Bad input: the extra dice (`advantage_dice`, `disadvantage_dice`) must be real
/// dice.
#[test]
fn extra_dice_of_zero_or_one_side_are_refused() {
    for key in ["advantage_dice", "disadvantage_dice"] {
        for bad in ["[0]", "[6, 1]"] {
            let text = with_rules(PHASES, &format!("\"{key}\": {bad}"));
            refused_at(
                &text,
                &format!("\"{key}\""),
                &[&format!("`{key}`"), "2 to 10000"],
            );
        }
    }
}

/// Bad input: a `flow` unit with HP -5 used to fight normally; stats are checked
/// against the ruleset's ranges in both rulesets.
#[test]
fn stats_out_of_range_are_refused_at_the_stat() {
    for hp in ["-5", "0"] {
        let text = edited(
            &with_rules(FLOW, ""),
            "\"HP\": 24",
            &format!("\"HP\": {hp}"),
        );
        refused_at(
            &text,
            &format!("\"HP\": {hp}"),
            &[&format!("unit `Ogre` has HP {hp}"), "expected 1 to 1000000"],
        );
    }
    let text = edited(
        &with_rules(FLOW, ""),
        "\"AgiMod\": 0",
        "\"AgiMod\": 0, \"PC\": 2",
    );
    refused_at(&text, "\"PC\"", &["PC 2; expected 0 or 1"]);
    let text = edited(&with_rules(PHASES, ""), "\"ATK\": 2", "\"ATK\": 2147483647");
    refused_at(&text, "\"ATK\": 2147483647", &["ATK 2147483647"]);
}

/// Bad input: a weapon's `on_hit` must name an ongoing condition of the
/// configuration (`Stunned` used to pass and do nothing).
#[test]
fn on_hit_must_name_an_ongoing_condition() {
    let text = edited(&with_rules(FLOW, ""), "[\"Bleeding\"]", "[\"Stunned\"]");
    refused_at(
        &text,
        "on_hit",
        &["unknown condition `Stunned`", "Bleeding, Poisoned"],
    );
    // A level that adds an ongoing condition may use it.
    let text = edited(
        &with_rules(FLOW, "\"ongoing\": {\"Stunned\": \"1d2\"}"),
        "[\"Bleeding\"]",
        "[\"Stunned\"]",
    );
    accepted(&text);
}

/// Other constants with values no ruleset can play: each refused at its key.
#[test]
fn constants_out_of_range_are_refused_at_their_key() {
    for (base, key, value, needle) in [
        (
            PHASES,
            "speed",
            "1001",
            "`speed` is 1001; expected 0 to 1000",
        ),
        (PHASES, "hp_per_tier", "-3", "`hp_per_tier` is -3"),
        (FLOW, "speed", "0", "`speed` is 0"),
        (FLOW, "ap", "0", "`ap` is 0"),
        (
            FLOW,
            "crit_multiplier",
            "-2",
            "`crit_multiplier` is -2; expected 1 to 10",
        ),
        (FLOW, "hp_npc", "-1", "`hp_npc` is -1"),
        (FLOW, "ongoing_rounds", "0", "`ongoing_rounds` is 0"),
        (FLOW, "untrained_skill", "500", "`untrained_skill` is 500"),
    ] {
        let text = with_rules(base, &format!("\"{key}\": {value}"));
        refused_at(&text, &format!("\"{key}\""), &[needle]);
    }
    let costs = "\"costs\": (move_action: 1, attack: 0, draw: 1, sheathe: 1, potion: 2, \
                 item: 2, disarm: 2, feint: 1, flow_state: 1, grapple: 2, grapple_upkeep: 2, \
                 shove: 1, step: 1, total_defense: 3, tumble: 1, stand_up: 1, pick_up: 1)";
    refused_at(
        &with_rules(FLOW, costs),
        "\"costs\"",
        &["`costs.attack` is 0; expected 1 to 100"],
    );
}

fn setup_error(level: &Level) -> String {
    match new_battle(level, Dice::seeded(1)) {
        Ok(_) => panic!("the engine set up a level `check` refuses"),
        Err(e) => e,
    }
}

/// What `check` refuses, the engine refuses too when a level is built in code:
/// the rulesets' setup applies the same checks (no silent misplay).
#[test]
fn the_engine_refuses_what_check_refuses() {
    let mut level: Level =
        ron::from_str(&with_rules(FLOW, "")).expect("the template parses as a level");
    level.units[1].stats.insert("HP".into(), -5);
    let err = setup_error(&level);
    assert!(err.contains("`HP` is -5"), "{err}");
    let mut level: Level = ron::from_str(&with_rules(FLOW, "")).unwrap();
    level.units[0].weapons[0].on_hit = vec!["Stunned".into()];
    let err = setup_error(&level);
    assert!(err.contains("`Stunned`"), "{err}");
    let mut level: Level = ron::from_str(&with_rules(PHASES, "")).unwrap();
    level
        .rules
        .insert("tie_die".into(), ron::Value::Number(1u32.into()));
    let err = setup_error(&level);
    assert!(err.contains("`tie_die`"), "{err}");
}

/// A ruleset's setup, overrides and trait checks refuse with a typed error
/// (`RulesetError`) that says where and what — the unit, the stat, the power, the
/// rules key — and shows as the message `sim` prints. Set up here straight through
/// the ruleset, past `check`, as a level built in code would be.
#[test]
fn setup_errors_are_typed_and_say_where_and_what() {
    use bevy_ecs::world::World;
    use skirmish::engine::ruleset::{BadDice, BadStat, RulesetError, TraitOf, UnitProblem};
    use skirmish::engine::rulesets::registry;
    use skirmish::level::schema::PowerDef;

    let parse = |text: &str| -> Level { ron::from_str(text).expect("the level parses") };
    let setup = |level: &Level| {
        let ruleset = registry::get(&level.ruleset).expect("a built-in ruleset");
        ruleset.setup(&mut World::new(), level).unwrap_err()
    };

    let mut level = parse(&with_rules(PHASES, ""));
    level.units[1].side = "Green".into();
    let e = setup(&level);
    let side = ("Goblin".to_string(), "Green".to_string());
    assert!(
        matches!(&e, RulesetError::UnknownSide { unit, side: s } if (unit, s) == (&side.0, &side.1)),
        "{e:?}"
    );
    assert_eq!(e.to_string(), "unit Goblin has unknown side Green");

    let mut level = parse(&with_rules(PHASES, ""));
    level.units[1].stats.insert("ATK".into(), 5000);
    let e = setup(&level);
    let RulesetError::Unit {
        unit,
        problem: UnitProblem::Stat(BadStat {
            name, value, max, ..
        }),
    } = &e
    else {
        panic!("{e:?}")
    };
    assert_eq!(
        (unit.as_str(), name.as_str(), *value),
        ("Goblin", "ATK", 5000)
    );
    assert!(
        e.to_string()
            .starts_with("unit Goblin: `ATK` is 5000; expected ")
            && e.to_string().ends_with(&format!(" to {max}")),
        "{e}"
    );

    let mut level = parse(&with_rules(PHASES, ""));
    level.units[0].powers.push(PowerDef {
        name: "Axe".into(),
        range: 1,
        ranged: false,
        damage: "2d".into(),
        add_tier: false,
        on_hit: Vec::new(),
        damage_type: None,
        traits: Vec::new(),
    });
    let e = setup(&level);
    assert!(
        matches!(&e, RulesetError::Unit { unit, problem: UnitProblem::Damage { of: "power", name, dice, .. } }
            if unit == "Knight" && name == "Axe" && dice == "2d"),
        "{e:?}"
    );
    assert!(
        e.to_string().starts_with(
            "unit Knight: power Axe: damage `2d` is not a dice expression (at character"
        ),
        "{e}"
    );
    assert!(matches!(
        skirmish::engine::ruleset::parse_dice("2d"),
        Err(BadDice::Syntax(_))
    ));

    // A rules key the configuration lacks: the same error from setup and from
    // `check_overrides`, at that key.
    let level = parse(&with_rules(PHASES, r#""sped": 4"#));
    let e = setup(&level);
    let RulesetError::Overrides(problems) = &e else {
        panic!("{e:?}")
    };
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].key, "sped");
    assert!(
        e.to_string()
            .starts_with("unknown rule constant `sped` for phases; known: "),
        "{e}"
    );
    let phases = registry::get("phases").expect("phases");
    assert_eq!(phases.check_overrides(&level.rules), Err(e));

    // A constant naming a side the level lacks (`flow`'s surprisers).
    let level = parse(&with_rules(FLOW, r#""surprisers": ["Green"]"#));
    let e = setup(&level);
    assert_eq!(
        e,
        RulesetError::NoSuchSide {
            key: "surprisers",
            side: "Green".into()
        }
    );
    assert_eq!(e.to_string(), "surprisers: no side named `Green`");

    // A ruleset that reads no traits says so, by its id.
    let e = phases.check_trait(TraitOf::Unit, "Fast").unwrap_err();
    assert_eq!(
        e,
        RulesetError::NoTraits {
            ruleset: "phases",
            of: TraitOf::Unit
        }
    );
    assert_eq!(e.to_string(), "`phases` reads no unit traits");
}
