//! `skirmish script` end to end on the shipped scenario and on broken ones.

use std::process::Command;

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

#[test]
fn showcase_log_has_advantage_an_opportunity_attack_and_a_save() {
    let (code, out, err) = skirmish(&["script", "levels/scenarios/ford_showcase.ron"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("opportunity attack"), "{out}");
    assert!(
        out.contains("advantage d6 [tier difference (1/1)], rolls [2, 5, 6] keeps"),
        "{out}"
    );
    assert!(out.contains("disadvantage d12"), "{out}");
    assert!(
        out.contains("Knight saves against Slowed: [3, 4] = 7 vs 7+: success"),
        "{out}"
    );
    assert!(out.contains("Blue wins after 2 round(s)"), "{out}");
    assert!(out.contains("Final state"), "{out}");
    assert!(out.contains("Goblin") && out.contains("defeated"), "{out}");
}

#[test]
fn json_log_is_one_object_per_line_and_ends_with_the_final_state() {
    let (code, out, err) = skirmish(&["script", "levels/scenarios/ford_showcase.ron", "--json"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert!(lines.len() > 20);
    assert!(
        lines
            .iter()
            .any(|l| l["event"]["OpportunityAttack"].is_object())
    );
    assert!(
        lines
            .iter()
            .any(|l| l["event"]["SaveRolled"]["success"] == true)
    );
    let last = lines.last().unwrap();
    let knight = last["final"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["name"] == "Knight")
        .unwrap();
    assert_eq!(knight["hp"], 16);
    assert_eq!(knight["cell"]["x"], 5);
}

#[test]
fn same_scenario_same_log() {
    let a = skirmish(&["script", "levels/scenarios/ford_showcase.ron", "--json"]);
    let b = skirmish(&["script", "levels/scenarios/ford_showcase.ron", "--json"]);
    assert_eq!(a.1, b.1);
}

fn scenario_file(dir: &std::path::Path, body: &str) -> String {
    let p = dir.join("s.ron");
    std::fs::write(&p, body).unwrap();
    p.display().to_string()
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("skirmish-script-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn an_illegal_command_stops_with_its_number_and_reason() {
    let dir = temp_dir("illegal");
    let level = std::fs::canonicalize("levels/ford.ron").unwrap();
    let f = scenario_file(
        &dir,
        &format!(
            r#"Scenario(level: File("{}"), decisions: {{"Blue": Never, "Red": Never}}, dice: Seed(3),
               commands: [Attack(unit: "Knight", target: "Goblin")])"#,
            level.display()
        ),
    );
    let (code, out, err) = skirmish(&["script", &f]);
    assert_eq!(code, 1);
    assert!(err.contains("command #1"), "{err}");
    assert!(
        err.contains("Battle Phase") || err.contains("turn"),
        "{err}"
    );
    assert!(
        out.contains("Final state"),
        "the log so far is still printed: {out}"
    );
}

#[test]
fn running_out_of_scripted_dice_is_a_clear_error() {
    let dir = temp_dir("dice");
    let level = std::fs::canonicalize("levels/ford.ron").unwrap();
    let f = scenario_file(
        &dir,
        &format!(
            r#"Scenario(level: File("{}"), dice: Faces([1, 2]), commands: [])"#,
            level.display()
        ),
    );
    let (code, _, err) = skirmish(&["script", &f]);
    assert_eq!(code, 1);
    assert!(err.contains("scripted dice ran out"), "{err}");
}

#[test]
fn a_malformed_scenario_gets_file_line_col() {
    let dir = temp_dir("syntax");
    let f = scenario_file(
        &dir,
        "Scenario(\n  level: File(\"x.ron\"),\n  dice: Seed(1)\n  commands: [],\n)",
    );
    let (code, _, err) = skirmish(&["script", &f]);
    assert_eq!(code, 1);
    assert!(err.starts_with(&format!("{f}:4:")), "{err}");
}

#[test]
fn a_missing_level_is_reported_not_panicked() {
    let dir = temp_dir("missing");
    let f = scenario_file(
        &dir,
        r#"Scenario(level: File("nope.ron"), dice: Seed(1), commands: [])"#,
    );
    let (code, _, err) = skirmish(&["script", &f]);
    assert_eq!(code, 1);
    assert!(
        err.contains("nope.ron") && err.contains("cannot read"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// A `flow` duel (Brigand acts first with seed 5) whose commands are `commands`.
fn flow_duel(commands: &str) -> String {
    format!(
        r#"Scenario(
    level: Inline((
        name: "Duel at the Well",
        ruleset: "flow",
        grid: Hex,
        size: (6, 5),
        sides: [(name: "Blue", decisions: Never), (name: "Red", decisions: Never)],
        units: [
            (name: "Duelist", side: "Blue", pos: (2, 2), stats: {{"AgiMod": 1}},
             skills: {{"Melee": 60, "Agility": 50, "Athletics": 40}},
             weapons: [(name: "Rapier", damage: "1d8", category: Finesse)]),
            (name: "Brigand", side: "Red", pos: (3, 2), stats: {{"AgiMod": 3}},
             skills: {{"Melee": 55, "Agility": 55, "Athletics": 45}},
             weapons: [(name: "Axe", damage: "1d8")]),
        ],
    )),
    dice: Seed(5),
    commands: [
{commands}
    ],
)
"#
    )
}

#[test]
fn flow_verbs_play_from_a_scenario() {
    // F-38 Shove, F-34 Feint, F-37 Ready written as verbs in a scenario.
    let dir = temp_dir("verbs");
    let f = scenario_file(
        &dir,
        &flow_duel(
            r#"        Shove(unit: "Brigand", target: "Duelist", effect: KnockProne),
        Feint(unit: "Brigand", target: "Duelist"),
        Ready(unit: "Brigand", weapon: Some("Axe")),"#,
        ),
    );
    let (code, out, err) = skirmish(&["script", &f]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Duelist is now Prone"), "F-38: {out}");
    assert!(out.contains("Brigand is now Feinting"), "F-34: {out}");
    assert!(
        out.contains("Brigand readies an attack with Axe"),
        "F-37: {out}"
    );
}

#[test]
fn verb_mistakes_are_reported_at_their_place_in_the_users_words() {
    let dir = temp_dir("verb-mistakes");
    let f = scenario_file(
        &dir,
        &flow_duel(
            r#"        Shove(unit: "Brigand", target: "Duelist", effect: Sideways),
        Feint(unit: "Brigand", targte: "Duelist"),
        Redy(unit: "Brigand"),
        Grapple(unit: "Brigand"),
        Disarm(unit: "Brigand", target: "Duelist", take: 1),"#,
        ),
    );
    let (code, out, err) = skirmish(&["script", &f]);
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = err.lines().collect();
    let expected = [
        ":19:51: `Shove`'s `effect` is `Sideways`; expected one of `PushBack`, `KnockProne`",
        ":20:32: `Feint` has no argument `targte`; its arguments are: `unit`, `target`",
        ":21:9: unknown command `Redy`; expected one of the commands `Move`, `Attack`, \
         `Use`, `EndTurn`, `Pass`, a one-cell move of `flow`: `Step`, an answer of `flow`: \
         `React` or an action of `flow`: `Disarm`, `Draw`, `Sheathe`, `Feint`, \
         `FlowState`, `Grapple`, `BreakFree`, `Release`, `Ready`, `Shove`, `TotalDefense`, \
         `Tumble`, `StandUp`, `PickUp`, `Drop`",
        ":22:9: `Grapple` needs `target`: a unit's name in quotes, e.g. \"Goblin\"",
        ":23:52: `Disarm`'s `take` is `1`; expected true or false",
    ];
    assert_eq!(lines.len(), expected.len(), "{err}");
    for (line, want) in lines.iter().zip(expected) {
        assert!(line.starts_with(&f), "{line}");
        assert_eq!(&line[f.len()..], want);
    }
    assert!(
        !err.contains("Verb") && !err.contains("Some("),
        "no Debug: {err}"
    );
}

#[test]
fn a_verb_another_ruleset_declares_is_an_unknown_command() {
    let dir = temp_dir("verb-phases");
    let level = std::fs::canonicalize("levels/ford.ron").unwrap();
    let f = scenario_file(
        &dir,
        &format!(
            "Scenario(level: File(\"{}\"), dice: Seed(3),\n  commands: [\n    \
             Feint(unit: \"Knight\", target: \"Goblin\")])",
            level.display()
        ),
    );
    let (code, _, err) = skirmish(&["script", &f]);
    assert_eq!(code, 1);
    assert!(
        err.contains(
            ":3:5: unknown command `Feint`; expected one of the commands `Move`, `Attack`, \
             `Use`, `EndTurn`, `Pass`, an answer of `phases`: `Seize`, `ActNow`"
        ),
        "{err}"
    );
    assert!(
        err.contains("or an action of `phases`: `Defend`, `Delay`, `Disengage`"),
        "{err}"
    );
}
