//! Issue 11, items 6 and 8: `check` stays linear in the size of a file, and what the
//! command line says uses the user's words: names and scenario syntax, places in the
//! user's own file, never Rust debug output or `ron` internals.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use skirmish::engine::battle::Battle;
use skirmish::engine::board::Cell;
use skirmish::engine::command::Command as Cmd;
use skirmish::engine::dice::Dice;
use skirmish::engine::rulesets::flow::{FlowAction, React, Reaction, ShoveEffect};
use skirmish::engine::rulesets::new_battle;
use skirmish::engine::rulesets::phases::answers::PhasesAnswer;
use skirmish::engine::units::{SideId, UnitId};
use skirmish::engine::verb::{ArgValue, Args};
use skirmish::level::{load_file, load_str};
use skirmish::script::ScriptCommand;

/// Runs the binary in the repository; returns exit code, stdout and stderr.
fn skirmish(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run skirmish");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("reliability_messages")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// The first version of The Ford (`tests/fixtures/ford_lopsided.ron`): these tests
/// count on its lines and units, which the shipped level no longer keeps.
const FORD: &str = "tests/fixtures/ford_lopsided.ron";

fn ford() -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(FORD)).expect(FORD)
}

fn ford_path() -> String {
    fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join(FORD))
        .expect(FORD)
        .display()
        .to_string()
}

/// Nothing the user sees names Rust types or shows Rust debug output.
fn assert_no_internals(text: &str) {
    for internal in [
        "UnitId",
        "SideId",
        "Some(",
        " { ",
        "SeizeInitiative",
        "ActFromDelay",
        "eligible:",
        "serde_stacker",
        "recursion_limit",
        "ron::",
    ] {
        assert!(
            !text.contains(internal),
            "`{internal}` shown to the user:\n{text}"
        );
    }
}

// ---- item 6: `check` is linear in the size of the file ----

/// The Ford with its second terrain row replaced by `row`.
fn ford_with_row(row: &str) -> String {
    ford().replacen("\"...~~...\"", &format!("\"{row}\""), 1)
}

#[test]
fn a_row_of_200000_bad_characters_is_one_problem_at_its_first_bad_character() {
    // Used to be one problem per bad character, each located by scanning the file
    // from its start: 200,000 of them took 51 s. Now the row is one problem (the
    // length is another), so the work and the output are linear in the file.
    let row = format!("..{}", "x".repeat(200_000));
    let problems = load_str(&ford_with_row(&row), "big.ron").expect_err("bad row");
    let terrain: Vec<_> = problems
        .iter()
        .filter(|p| p.message.contains("terrain"))
        .collect();
    assert_eq!(terrain.len(), 2, "{terrain:#?}");
    let bad = &terrain[0];
    assert_eq!((bad.line, bad.col), (11, 12), "{bad}");
    assert!(
        bad.message
            .starts_with("bad terrain character 'x' at (2, 1) and 199999 more in this row;"),
        "{bad}"
    );
    let long = &terrain[1];
    assert_eq!((long.line, long.col), (11, 18), "{long}");
    assert!(
        long.message.contains("has 200002 characters; expected 8"),
        "{long}"
    );
}

#[test]
fn many_rows_of_bad_characters_are_one_problem_each_at_their_own_line() {
    // Many problems in a big file: each at its own line, found in one pass.
    let rows = 5_000;
    let mut text = ford();
    let terrain: Vec<String> = (0..rows)
        .map(|i| format!("\"{}?\"", ".".repeat(i % 7)))
        .collect();
    let start = text.find("terrain: [").expect("terrain");
    let end = start + text[start..].find("],").expect("end of terrain") + 2;
    text.replace_range(
        start..end,
        &format!("terrain: [\n{}\n],", terrain.join(",\n")),
    );
    let problems = load_str(&text, "rows.ron").expect_err("bad rows");
    let bad: Vec<_> = problems
        .iter()
        .filter(|p| p.message.starts_with("bad terrain character '?'"))
        .collect();
    assert_eq!(bad.len(), rows);
    for (i, p) in bad.iter().enumerate() {
        // `terrain: [` is on line 9: row i is on line 10 + i, its `?` after the dots.
        assert_eq!((p.line, p.col), (10 + i, 2 + i % 7), "{p}");
        assert!(!p.message.contains("more in this row"), "{p}");
    }
}

#[test]
fn check_reports_a_huge_bad_row_on_one_line() {
    let dir = scratch("huge_row");
    let path = dir.join("huge.ron");
    fs::write(&path, ford_with_row(&"Z".repeat(200_000))).expect("write");
    let (code, out, _) = skirmish(&["check", &path.display().to_string()]);
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out:.2000}");
    assert!(
        lines[0].starts_with(&format!(
            "{}:11:10: bad terrain character 'Z' at (0, 1) and 199999 more in this row;",
            path.display()
        )),
        "{out:.2000}"
    );
}

// ---- item 8: messages in the user's words ----

#[test]
fn a_pending_seize_decision_names_the_units_and_the_command_that_answers_it() {
    // Blue may seize the initiative; the script stops while Blue decides.
    let dir = scratch("seize");
    let path = dir.join("seize.ron");
    fs::write(
        &path,
        format!(
            r#"Scenario(
    level: File("{}"),
    decisions: {{"Red": Never}},
    dice: Faces([4, 3, 2, 2, 3, 3, 1, 2]),
    commands: [EndTurn(unit: "Knight")],
)"#,
            ford_path()
        ),
    )
    .expect("write");
    let (code, out, err) = skirmish(&["script", &path.display().to_string()]);
    assert_eq!(code, 1, "{out}\n{err}");
    let asked = "Blue to decide which units seize the initiative: \
                 Seize(side: \"Blue\", units: [\"Ranger\"]), \
                 Seize(side: \"Blue\", units: [\"Knight\"]), \
                 several together, e.g. Seize(side: \"Blue\", units: [\"Ranger\", \"Knight\"]), \
                 or Seize(side: \"Blue\", units: []) (Nobody seizes)";
    assert!(out.contains(&format!("Waiting for: {asked}")), "{out}");
    assert!(
        err.contains(&format!(
            "command #1 `EndTurn(unit: \"Knight\")`: waiting for Blue to decide: who seizes \
             the initiative (answer with Seize) (the battle waits for {asked})"
        )),
        "{err}"
    );
    assert_no_internals(&out);
    assert_no_internals(&err);
}

#[test]
fn a_refused_command_is_echoed_in_scenario_syntax() {
    let dir = scratch("echo");
    let path = dir.join("echo.ron");
    fs::write(
        &path,
        format!(
            r#"Scenario(
    level: File("{}"),
    decisions: {{"Blue": Never, "Red": Never}},
    dice: Seed(3),
    commands: [Attack(unit: "Knight", target: "Goblin", power: "Longsword")],
)"#,
            ford_path()
        ),
    )
    .expect("write");
    let (code, _, err) = skirmish(&["script", &path.display().to_string()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(
            "command #1 `Attack(unit: \"Knight\", target: \"Goblin\", power: \"Longsword\")`: "
        ),
        "{err}"
    );
    assert_no_internals(&err);
}

#[test]
fn script_commands_display_as_written_and_read_back() {
    let written = [
        r#"Seize(side: "Blue", units: ["Knight", "Ranger"])"#,
        r#"Move(unit: "Knight", power: "Charge", to: (3, 2), path: [(3, 1), (3, 2)], target: "Goblin")"#,
        r#"Move(unit: "Knight", to: (2, 0))"#,
        r#"Use(unit: "Shaman", item: "Healing \"Draught\"")"#,
        r#"React(unit: "Knight", reaction: ReactionAttack, to: (1, 1), swap: true)"#,
        r#"Shove(unit: "Ogre", target: "Knight", effect: KnockProne)"#,
        r#"Disarm(unit: "Knight", target: "Ogre", take: true)"#,
        r#"Ready(unit: "Knight")"#,
    ];
    for text in written {
        let command: ScriptCommand = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .from_str(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(command.to_string(), text);
    }
}

/// The Ford, set up: Knight 0, Ranger 1, Goblin 2, Shaman 3; Blue 0, Red 1.
fn ford_battle() -> Battle {
    let level = load_str(&ford(), "ford.ron").expect("ford loads");
    new_battle(&level, Dice::seeded(1)).expect("battle")
}

/// Issue 12: `Attack` carries an optional aim and approach path for the rulesets
/// that play them (`wounds`' aimed attacks, `actfast`'s approach); issue 30: as
/// options those rulesets declare. It shows them in scenario syntax, and a ruleset
/// without them refuses them in words.
#[test]
fn an_aimed_attack_or_an_approach_is_shown_and_refused_where_not_played() {
    let battle = ford_battle();
    let (knight, goblin) = (UnitId(0), UnitId(2));
    let aimed = Cmd::Attack {
        unit: knight,
        target: goblin,
        power: None,
        options: Args::new().with("aim", ArgValue::Name("Head".into())).with(
            "approach",
            ArgValue::Cells(vec![Cell::new(2, 1), Cell::new(2, 0)]),
        ),
    };
    assert_eq!(
        aimed.display(&battle),
        r#"Attack(unit: "Knight", target: "Goblin", aim: "Head", approach: [(2, 1), (2, 0)])"#
    );
    let e = battle
        .check(&aimed)
        .expect_err("phases has no aimed attacks");
    assert_eq!(
        e.to_string(),
        "attacks in `phases` take no `aim`: leave it out"
    );
    let approach = Cmd::Attack {
        unit: knight,
        target: goblin,
        power: None,
        options: Args::new().with("approach", ArgValue::Cells(vec![Cell::new(2, 1)])),
    };
    let e = battle
        .check(&approach)
        .expect_err("phases attacks from where it stands");
    assert_eq!(
        e.to_string(),
        "attacks in `phases` take no `approach`: leave it out"
    );
    // `wounds` declares `aim`, not `approach`: it names what it takes.
    let wounds = new_battle(
        &load_file(&Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/duel_wounds.ron"))
            .expect("the wounds duel loads"),
        Dice::seeded(1),
    )
    .expect("battle");
    let e = wounds
        .check(&approach)
        .expect_err("wounds attacks from where it stands");
    assert_eq!(
        e.to_string(),
        "attacks in `wounds` take no `approach` (they take `aim`): leave it out"
    );
}

#[test]
fn engine_commands_display_with_names_in_scenario_syntax() {
    let battle = ford_battle();
    let (knight, goblin, shaman) = (UnitId(0), UnitId(2), UnitId(3));
    let cases = [
        (
            PhasesAnswer::Seize.by(SideId(0), vec![UnitId(1), knight]),
            r#"Seize(side: "Blue", units: ["Ranger", "Knight"])"#,
        ),
        (
            PhasesAnswer::ActNow.by(SideId(0), vec![]),
            r#"ActNow(side: "Blue", units: [])"#,
        ),
        (
            Cmd::attack(knight, goblin, Some("Longsword".into())),
            r#"Attack(unit: "Knight", target: "Goblin", power: "Longsword")"#,
        ),
        (
            Cmd::move_along(knight, "Walk", vec![Cell::new(2, 1), Cell::new(2, 0)]),
            r#"Move(unit: "Knight", power: "Walk", to: (2, 0), path: [(2, 1), (2, 0)])"#,
        ),
        (
            Cmd::ActivateItem {
                unit: shaman,
                item: "Healing Draught".into(),
                target: None,
            },
            r#"Use(unit: "Shaman", item: "Healing Draught")"#,
        ),
        (Cmd::Pass { side: SideId(1) }, r#"Pass(side: "Red")"#),
    ];
    // `flow`'s one-cell move and answer, in a `flow` battle: North Captain 0, North
    // Halberdier 1.
    let duel = load_file(&Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/duel_flow.ron"))
        .expect("the flow duel loads");
    let flow = new_battle(&duel, Dice::seeded(1)).expect("battle");
    let reactions = [
        (
            Cmd::move_along(UnitId(0), "Step", vec![Cell::new(2, 1)]),
            r#"Step(unit: "North Captain", to: (2, 1))"#,
        ),
        (
            React::new(SideId(0), UnitId(0), Reaction::Riposte).command(),
            r#"React(side: "North", unit: "North Captain", reaction: Riposte)"#,
        ),
        (
            React {
                to: Some(Cell::new(1, 1)),
                swap: true,
                ..React::new(SideId(0), UnitId(1), Reaction::Intercept)
            }
            .command(),
            r#"React(side: "North", unit: "North Halberdier", reaction: Intercept, to: (1, 1), swap: true)"#,
        ),
    ];
    let cases = cases.into_iter().map(|c| (&battle, c));
    for (battle, (command, expected)) in cases.chain(reactions.into_iter().map(|c| (&flow, c))) {
        let shown = command.display(battle);
        assert_eq!(shown, expected);
        // What is shown is what a user writes: it reads back as the same command.
        let script: ScriptCommand = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .from_str(&shown)
            .unwrap_or_else(|e| panic!("{shown}: {e}"));
        let back = skirmish::script::resolve(battle, &script).expect("resolves");
        assert_eq!(back, command, "{shown}");
    }
}

/// The Ogre's Ford (`flow`), set up: Captain 0, ..., Ogre 3, Cutthroat 4.
fn ogre_ford_battle() -> Battle {
    let level = load_file(Path::new("levels/flow_ogre_ford.ron")).expect("level loads");
    new_battle(&level, Dice::seeded(1)).expect("battle")
}

#[test]
fn verbs_display_in_scenario_syntax_in_declared_order_and_read_back() {
    // flow's special actions are verbs; an `Act` shows as the
    // verb with its arguments in declared order and reads back as the same command.
    let battle = ogre_ford_battle();
    let (captain, ogre) = (UnitId(0), UnitId(3));
    let cases = [
        (
            FlowAction::Shove {
                target: captain,
                effect: ShoveEffect::PushBack,
            }
            .by(ogre),
            r#"Shove(unit: "Ogre", target: "Captain", effect: PushBack)"#,
        ),
        (
            FlowAction::Disarm {
                target: captain,
                take: false,
                to: Some(Cell::new(4, 4)),
            }
            .by(ogre),
            r#"Disarm(unit: "Ogre", target: "Captain", to: (4, 4))"#,
        ),
        (
            // Arguments given out of order still show in the declared order.
            Cmd::Act {
                unit: ogre,
                verb: "Disarm".into(),
                args: Args::new()
                    .with("to", ArgValue::Cell(Cell::new(1, 2)))
                    .with("take", ArgValue::Flag(true))
                    .with("target", ArgValue::Unit(captain)),
            },
            r#"Disarm(unit: "Ogre", target: "Captain", take: true, to: (1, 2))"#,
        ),
        (
            FlowAction::Ready { weapon: None }.by(ogre),
            r#"Ready(unit: "Ogre")"#,
        ),
    ];
    for (command, expected) in cases {
        let shown = command.display(&battle);
        assert_eq!(shown, expected);
        let script: ScriptCommand = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .from_str(&shown)
            .unwrap_or_else(|e| panic!("{shown}: {e}"));
        let back = skirmish::script::resolve(&battle, &script).expect("resolves");
        // Read back, the arguments are in their canonical (declared) order.
        let canonical = match &command {
            Cmd::Act { verb, args, .. } => Cmd::Act {
                unit: ogre,
                verb: verb.clone(),
                args: FlowAction::from_act(verb, args).unwrap().args(),
            },
            _ => unreachable!(),
        };
        assert_eq!(back, canonical, "{shown}");
    }
    // phases declares other verbs: a Shove there is refused by name, with its own.
    let script: ScriptCommand =
        ron::from_str(r#"Shove(unit: "Goblin", target: "Knight", effect: PushBack)"#).unwrap();
    let err = skirmish::script::resolve(&ford_battle(), &script).unwrap_err();
    assert_eq!(
        err.to_string(),
        "`Shove` is not an action of `phases`; its actions are: `Defend`, `Delay`, `Disengage`"
    );
}

/// The Ford's `rules` given `depth` nested lists.
fn deep_rules(depth: usize) -> String {
    let value = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    ford().replacen(
        "    seed: Some(7),",
        &format!("    rules: {{\"x\": {value}}},\n    seed: Some(7),"),
        1,
    )
}

#[test]
fn deep_nesting_is_a_plain_message_at_its_place() {
    let problems = load_str(&deep_rules(300), "deep.ron").expect_err("too deep");
    assert_eq!(problems.len(), 1, "{problems:?}");
    let p = &problems[0];
    // The rules line is line 53; ron stops where the nesting passes its limit.
    assert_eq!((p.line, p.col), (53, 80), "{p}");
    assert!(
        p.message
            .starts_with("nested too deeply (more than 128 levels of brackets)"),
        "{p}"
    );
    assert_no_internals(&p.to_string());
    // The same in a scenario's inline level, at its place in the scenario.
    let dir = scratch("deep");
    let path = dir.join("deep.ron");
    fs::write(
        &path,
        format!(
            "Scenario(\n  dice: Seed(1),\n  commands: [],\n  level: Inline({}),\n)",
            deep_rules(300)
        ),
    )
    .expect("write");
    let (code, _, err) = skirmish(&["script", &path.display().to_string()]);
    assert_eq!(code, 1);
    // Line 53 of the level is line 56 of the scenario; `Scenario(` and `Inline(`
    // count towards the limit too, so the parser stops two brackets earlier.
    assert!(
        err.starts_with(&format!("{}:56:78: ", path.display())),
        "{err}"
    );
    assert!(err.contains("nested too deeply"), "{err}");
    assert_no_internals(&err);
}

#[test]
fn problems_of_an_inline_level_are_at_their_place_in_the_scenario() {
    let dir = scratch("inline");
    let path = dir.join("inline.ron");
    let level = ford()
        .replacen(
            "side: \"Red\",\n            pos: (3, 2)",
            "side: \"Green\",\n            pos: (3, 2)",
            1,
        )
        .replacen("\"....~...\"", "\"....~.?.\"", 1);
    assert!(level.contains("Green") && level.contains(".?."));
    let header = "// A scenario with its level inline.\nScenario(\n    dice: Seed(1),\n    commands: [],\n    level: Inline(";
    fs::write(&path, format!("{header}{level}),\n)\n")).expect("write");
    // In the level file the bad character is at 12:16 and the unit's `side:` at 40:13;
    // the scenario adds 4 lines before it.
    let (code, _, err) = skirmish(&["script", &path.display().to_string()]);
    assert_eq!(code, 1, "{err}");
    let file = path.display().to_string();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with(&format!(
            "{file}:16:16: bad terrain character '?' at (6, 2)"
        )),
        "{err}"
    );
    assert!(
        lines[1].starts_with(&format!("{file}:44:13: unknown side `Green`")),
        "{err}"
    );
    assert!(!err.contains("inline level"), "{err}");
}

#[test]
fn invalid_utf8_is_reported_at_its_first_bad_byte() {
    let dir = scratch("utf8");
    let path = dir.join("latin1.ron");
    // Line 4 is `    name: "The Ford",`; make it `"Thé Ford"` in Latin-1 (0xE9).
    let mut bytes = ford().into_bytes();
    let at = ford().find("The Ford\"").expect("name") + 2;
    bytes.splice(at..at + 1, [0xE9]);
    fs::write(&path, &bytes).expect("write");
    let p = load_file(&path).expect_err("not UTF-8");
    assert_eq!((p[0].line, p[0].col), (4, 14), "{}", p[0]);
    assert!(
        p[0].message.contains("not UTF-8 text (byte 0xE9 here)"),
        "{}",
        p[0]
    );
    let (code, out, _) = skirmish(&["check", &path.display().to_string()]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with(&format!("{}:4:14: cannot read: not UTF-8", path.display())),
        "{out}"
    );
    // A scenario too.
    let scenario = dir.join("s.ron");
    let mut text = b"Scenario(\n  dice: Seed(1), // d\xC3".to_vec();
    text.extend_from_slice(b"\n  commands: [])");
    fs::write(&scenario, text).expect("write");
    let (code, _, err) = skirmish(&["script", &scenario.display().to_string()]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with(&format!(
            "{}:2:22: cannot read: not UTF-8",
            scenario.display()
        )),
        "{err}"
    );
}

#[test]
fn a_file_name_with_a_newline_stays_on_one_line() {
    let dir = scratch("names");
    let path = dir.join("two\nlines\t.ron");
    fs::write(&path, ford_with_row("...?....")).expect("write");
    let shown = format!("{}/two\\nlines\\t.ron", dir.display());
    // check
    let (code, out, _) = skirmish(&["check", &path.display().to_string()]);
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        out.starts_with(&format!("{shown}:11:13: bad terrain character '?'")),
        "{out}"
    );
    // sim
    let (code, _, err) = skirmish(&["sim", &path.display().to_string(), "--battles", "1"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!("{shown}:11:13: bad terrain character '?'")),
        "{err}"
    );
    // script: the scenario's own name, and the level's.
    let scenario = dir.join("scenario\n.ron");
    fs::write(
        &scenario,
        "Scenario(level: File(\"two\\nlines\\t.ron\"), dice: Seed(1), commands: [])",
    )
    .expect("write");
    let (code, _, err) = skirmish(&["script", &scenario.display().to_string()]);
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!("{shown}:11:13: bad terrain character '?'")),
        "{err}"
    );
    fs::write(
        &scenario,
        "Scenario(level: File(\"x.ron\"), dice: Seed(1) commands: [])",
    )
    .expect("write");
    let (code, _, err) = skirmish(&["script", &scenario.display().to_string()]);
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!("{}/scenario\\n.ron:1:", dir.display())),
        "{err}"
    );
}

#[test]
fn a_pending_act_from_delay_decision_names_the_units_and_the_command_that_answers_it() {
    // The Knight delays; before the Goblin's Battle turn Blue decides
    // whether it acts now.
    let dir = scratch("delay");
    let path = dir.join("delay.ron");
    fs::write(
        &path,
        format!(
            r#"Scenario(
    level: File("{}"),
    decisions: {{"Red": Never}},
    dice: Faces([4, 3, 2, 2, 3, 3, 1, 2]),
    commands: [
        Seize(side: "Blue", units: []),
        EndTurn(unit: "Shaman"),
        EndTurn(unit: "Ranger"),
        EndTurn(unit: "Goblin"),
        EndTurn(unit: "Knight"),
        Delay(unit: "Knight"),
    ],
)"#,
            ford_path()
        ),
    )
    .expect("write");
    let (code, out, err) = skirmish(&["script", &path.display().to_string()]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains(
            "Waiting for: Blue to decide which held units act now, before Goblin's turn: \
             ActNow(side: \"Blue\", units: [\"Knight\"]), or \
             ActNow(side: \"Blue\", units: []) (Keep waiting)"
        ),
        "{out}"
    );
    assert_no_internals(&out);
}
