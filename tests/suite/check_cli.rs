//! `skirmish check`: exit codes and `FILE:LINE:COL: message` output.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn check(files: &[PathBuf]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .current_dir(manifest_dir())
        .arg("check")
        .args(files)
        .output()
        .expect("run skirmish")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("check_cli")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// Whether `line` is `<file>:<digits>:<digits>: <message>`.
fn is_problem_line(line: &str, file: &str) -> bool {
    let Some(rest) = line.strip_prefix(file).and_then(|r| r.strip_prefix(':')) else {
        return false;
    };
    let mut parts = rest.splitn(3, ':');
    let number =
        |s: Option<&str>| s.is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()));
    number(parts.next())
        && number(parts.next())
        && parts
            .next()
            .is_some_and(|m| m.starts_with(' ') && m.len() > 1)
}

#[test]
fn shipped_levels_pass() {
    let mut files: Vec<PathBuf> = fs::read_dir(manifest_dir().join("levels"))
        .expect("levels/")
        .map(|e| PathBuf::from("levels").join(e.expect("entry").file_name()))
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let out = check(&files);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.is_empty(), "no problems expected:\n{stdout}");
    for file in &files {
        assert!(
            stderr.contains(&format!("ok: {} (", file.display())),
            "no ok line for {}:\n{stderr}",
            file.display()
        );
    }
}

#[test]
fn broken_level_exits_1_with_one_located_line_per_problem() {
    let dir = scratch("broken");
    let path = dir.join("broken.ron");
    fs::write(
        &path,
        r#"(
    name: "Broken",
    ruleset: "phases",
    grid: Square,
    size: (3, 3),
    terrain: ["...", ".#.", "..?"],
    sides: [(name: "A"), (name: "B")],
    units: [
        (name: "a", side: "A", pos: (1, 1), stats: {"INT": 1, "AGI": 1, "ATK": 1, "DEF": 10, "Tier": 1}),
        (name: "b", side: "Q", pos: (7, 0), stats: {"INT": 1}),
    ],
)
"#,
    )
    .expect("write");
    let out = check(std::slice::from_ref(&path));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let file = path.display().to_string();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.len() >= 5, "expected every problem:\n{stdout}");
    for line in &lines {
        assert!(
            is_problem_line(line, &file),
            "not FILE:LINE:COL: message: {line:?}"
        );
    }
    assert!(
        stdout.contains(&format!("{file}:6:32: bad terrain character")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "{file}:9:32: unit `a` at (1, 1) stands on impassable"
        )),
        "{stdout}"
    );
}

#[test]
fn syntax_error_and_unreadable_files_exit_1() {
    let dir = scratch("syntax");
    let bad = dir.join("bad.ron");
    fs::write(&bad, "(name: \"x\" ruleset: \"phases\")").expect("write");
    let binary = dir.join("binary.ron");
    fs::write(&binary, [0xff, 0x00, 0xfe]).expect("write");
    let missing = dir.join("missing.ron");
    let good = manifest_dir().join("levels").join("bridge.ron");
    let out = check(&[good.clone(), bad.clone(), binary.clone(), missing.clone()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(
        is_problem_line(lines[0], &bad.display().to_string()),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with(&format!("{}:1:1: cannot read: ", binary.display())),
        "{stdout}"
    );
    assert!(
        lines[2].starts_with(&format!("{}:1:1: cannot read: ", missing.display())),
        "{stdout}"
    );
    assert!(!stdout.contains(&good.display().to_string()));
}

#[test]
fn traits_a_ruleset_does_not_read_are_refused_at_each_phrase() {
    // `phases` reads no traits (Ruleset::check_trait's default): every phrase of a
    // unit's or a side's `traits` is a problem at that phrase, in its words.
    let dir = scratch("traits");
    let path = dir.join("traits.ron");
    fs::write(
        &path,
        r#"(
    name: "Traits",
    ruleset: "phases",
    grid: Square,
    size: (3, 3),
    sides: [(name: "A"), (name: "B", traits: ["Enemies"])],
    units: [
        (name: "Orc", side: "A", pos: (0, 0), stats: {"INT": 1, "AGI": 1, "ATK": 1, "DEF": 10, "Tier": 1},
         traits: ["Fast", "Resist Frost 14+"]),
        (name: "b", side: "B", pos: (2, 2), stats: {"INT": 1, "AGI": 1, "ATK": 1, "DEF": 10, "Tier": 1},
         powers: [(name: "Breath", damage_type: "Fire")]),
    ],
)
"#,
    )
    .expect("write");
    let out = check(std::slice::from_ref(&path));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let file = path.display().to_string();
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            format!("{file}:6:47: side `B` trait `Enemies`: `phases` reads no side traits"),
            format!("{file}:9:19: unit `Orc` trait `Fast`: `phases` reads no unit traits"),
            format!(
                "{file}:9:27: unit `Orc` trait `Resist Frost 14+`: `phases` reads no unit traits"
            ),
        ],
        "{stdout}"
    );
    // Without the traits the level passes: `damage_type` is left to the ruleset.
    let text = fs::read_to_string(&path).expect("read");
    let clean = text
        .replace(r#", traits: ["Enemies"]"#, "")
        .replace(r#"traits: ["Fast", "Resist Frost 14+"]"#, "");
    fs::write(&path, clean).expect("write");
    let out = check(std::slice::from_ref(&path));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// The command line's output piped into a reader that stops early (`| head`) ends
/// the program quietly (SIGPIPE, as `cat` or `grep` end), without a panic message.
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(["sim", "levels/ford.ron", "--battles", "2", "--log", "0"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("skirmish runs");
    // Close the reading end before the battle is played and its log printed.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("it ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// A ruleset, the unit fields written into its duel, and each problem expected:
/// where it is (the text it starts at) and what it says about the field.
type FieldCase = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

/// Issue 30: a unit field only some rulesets read, set in a level of another
/// ruleset, would be ignored; it is refused at the field, naming the level, the
/// unit, the field and what reads it (or how the ruleset does without it), by
/// `skirmish check` and at load.
#[test]
fn unit_fields_a_ruleset_does_not_read_are_refused_at_each_field() {
    let dir = scratch("unread_fields");
    // Fields inserted after the first unit's `pos`, under each shipped duel; the
    // problems come in the order of the file.
    let cases: [FieldCase; 3] = [
        (
            "phases",
            "size: Large, skills: {\"Melee\": 50}, weapons: [(name: \"Sword\")], armor: 2,",
            &[
                (
                    "size: Large",
                    "`size`, which `phases` does not read (only `flow` reads it)",
                ),
                (
                    "skills:",
                    "`skills`, which `phases` does not read (only `flow` reads it)",
                ),
                (
                    "weapons:",
                    "`weapons`, which `phases` does not read (only `flow` reads it)",
                ),
                (
                    "armor: 2",
                    "`armor`, which `phases` does not read (only `flow` reads it)",
                ),
            ],
        ),
        (
            "wounds",
            "movement: [\"Fly\"],",
            &[(
                "movement:",
                "`movement`, which `wounds` does not read (every unit moves with Move and Dash)",
            )],
        ),
        (
            "escalation",
            "items: [(name: \"Potion\", effect: Heal(\"2d4\"))], movement: [\"Fly\"],",
            &[
                (
                    "items:",
                    "`items`, which `escalation` does not read (its units carry no items to use)",
                ),
                (
                    "movement:",
                    "`movement`, which `escalation` does not read (every unit moves with Move)",
                ),
            ],
        ),
    ];
    for (ruleset, fields, wanted) in cases {
        let shipped = format!("levels/duel_{ruleset}.ron");
        let text = fs::read_to_string(manifest_dir().join(&shipped)).expect("a shipped duel");
        let pos = text.find("pos: (").expect("a unit");
        let end = pos + text[pos..].find('\n').expect("a line");
        let text = format!("{}\n            {fields}{}", &text[..end], &text[end..]);
        let path = dir.join(format!("{ruleset}.ron"));
        fs::write(&path, &text).expect("write");
        let level: skirmish::level::schema::Level = ron::from_str(&text).expect("the level parses");
        let unit = &level.units[0].name;
        let file = path.display().to_string();
        let expected: Vec<String> = wanted
            .iter()
            .map(|(at, what)| {
                let offset = text.find(at).expect("the field");
                let line = text[..offset].lines().count();
                let col = offset - text[..offset].rfind('\n').map_or(0, |n| n + 1) + 1;
                format!(
                    "{file}:{line}:{col}: level `{}`: unit `{unit}` sets {what}; expected no `{}`",
                    level.name,
                    what.split('`').nth(1).expect("the field's name")
                )
            })
            .collect();
        let out = check(std::slice::from_ref(&path));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{stdout}");
        assert_eq!(stdout.lines().collect::<Vec<_>>(), expected, "{ruleset}");
        // Loading it for play refuses it in the same words.
        let problems = skirmish::level::load::load_file(&path).expect_err("refused at load");
        let shown: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(shown, expected, "{ruleset}");
    }
    // The same fields under the ruleset that reads them are its to check: `flow`
    // takes a Large unit with skills, a weapon and armor.
    let text = fs::read_to_string(manifest_dir().join("levels/duel_flow.ron")).expect("duel");
    let pos = text.find("pos: (").expect("a unit");
    let end = pos + text[pos..].find('\n').expect("a line");
    let text = format!("{}\n            size: Large,{}", &text[..end], &text[end..]);
    let path = dir.join("flow.ron");
    fs::write(&path, &text).expect("write");
    let out = check(std::slice::from_ref(&path));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
