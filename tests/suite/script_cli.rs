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
