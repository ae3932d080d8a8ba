//! The rule designer's workbench on the command line (issue 31): `sim --set` against
//! a separately edited level, `--sweep` against `--set`, `--shard` + `merge` against
//! the unsharded run, `--csv` against `--json`, and the errors of each.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

fn skirmish(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("run skirmish")
}

fn sim(args: &[&str]) -> Output {
    skirmish(&[&["sim"], args].concat())
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8")
}

/// The JSON of a run without what varies between runs (timings) and, if asked,
/// without `set` (what the run changed).
fn figures(v: &Value, keep_set: bool) -> Value {
    let mut v = v.clone();
    let obj = v.as_object_mut().expect("an object");
    obj.remove("battles_per_second");
    obj.remove("threads");
    if !keep_set {
        obj.remove("set");
    }
    v
}

fn json(out: &Output) -> Value {
    serde_json::from_str(&stdout(out)).expect("one JSON object")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("workbench")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// A copy of a shipped level with `from` replaced by `to` (once), in `dir`.
fn edited(level: &str, from: &str, to: &str, dir: &Path) -> String {
    let text = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(level)).unwrap();
    assert_eq!(text.matches(from).count(), 1, "`{from}` once in {level}");
    let path = dir.join(Path::new(level).file_name().unwrap());
    fs::write(&path, text.replace(from, to)).unwrap();
    path.to_str().unwrap().to_string()
}

/// `--set` plays exactly what a level edited by hand plays: a rule constant (crits
/// from 13 instead of 17 on The Crossroads) and a unit stat (the Ford's Knight with
/// DEF 9 instead of 12), each against a temporary copy of the level with the change
/// written in; and the change changes the figures.
#[test]
fn set_equals_a_separately_edited_level() {
    let dir = scratch("set");
    let cases = [
        (
            "levels/escalation_crossroads.ron",
            "    victory: (max_rounds: Some(20)),",
            "    rules: {\"crit_at\": 13},\n    victory: (max_rounds: Some(20)),",
            "crit_at=13",
        ),
        (
            "levels/ford.ron",
            "\"AGI\": 1, \"ATK\": 3, \"DEF\": 12",
            "\"AGI\": 1, \"ATK\": 3, \"DEF\": 9",
            "Knight.DEF=9",
        ),
    ];
    for (level, from, to, set) in cases {
        let run = ["--battles", "40", "--seed", "5", "--json"];
        let copy = edited(level, from, to, &dir);
        let by_file = json(&sim(&[&[copy.as_str()], &run[..]].concat()));
        let by_set = json(&sim(&[&[level, "--set", set], &run[..]].concat()));
        let unchanged = json(&sim(&[&[level], &run[..]].concat()));
        assert_eq!(figures(&by_set, false), figures(&by_file, false), "{set}");
        assert_ne!(figures(&by_set, false), figures(&unchanged, false), "{set}");
        assert_eq!(by_set["set"], serde_json::json!([set]));
        assert!(by_file.get("set").is_none() && unchanged.get("set").is_none());
    }
}

/// Each value of a sweep gives the figures `--set KEY=value` gives (same seeds),
/// for a rule constant over a range with a step and a unit stat over a list; the
/// table has a line per value.
#[test]
fn sweep_values_equal_set() {
    let cases = [
        (
            "levels/escalation_crossroads.ron",
            "crit_at=13..17:4",
            "crit_at",
            vec!["13", "17"],
        ),
        (
            "levels/ford.ron",
            "Knight.DEF=9,12",
            "Knight.DEF",
            vec!["9", "12"],
        ),
    ];
    for (level, sweep, key, values) in cases {
        let run = ["--battles", "30", "--seed", "2"];
        let swept = json(&sim(
            &[&[level, "--sweep", sweep, "--json"], &run[..]].concat()
        ));
        assert_eq!(swept["sweep"], key);
        let runs = swept["runs"].as_array().expect("runs");
        assert_eq!(runs.len(), values.len());
        for (entry, value) in runs.iter().zip(&values) {
            assert_eq!(entry["value"].to_string(), *value);
            let set = format!("{key}={value}");
            let alone = json(&sim(&[&[level, "--set", &set, "--json"], &run[..]].concat()));
            let mut entry = figures(entry, true);
            entry.as_object_mut().unwrap().remove("value");
            assert_eq!(entry, figures(&alone, true), "{sweep}: {value}");
        }
        assert_ne!(
            figures(&runs[0], false)["wins"],
            figures(&runs[1], false)["wins"],
            "{sweep}: the values should matter"
        );
        let table = stdout(&sim(&[&[level, "--sweep", sweep], &run[..]].concat()));
        assert!(table.contains(&format!("sweep {key}")), "{table}");
        for (value, entry) in values.iter().zip(runs) {
            let side = entry["wins"].as_object().unwrap().keys().next().unwrap();
            let rate = 100.0 * entry["win_rates"][side].as_f64().unwrap();
            let line = table
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("{value} ")))
                .unwrap_or_else(|| panic!("no line for {value}:\n{table}"));
            assert!(line.contains(&format!("{rate:.1}%")), "{line}");
        }
    }
}

/// A sweep's plot is a PNG.
#[test]
fn sweep_writes_a_png_plot() {
    let file = scratch("plot").join("sweep.png");
    let out = sim(&[
        "levels/ford.ron",
        "--battles",
        "6",
        "--sweep",
        "speed=4..6",
        "--plot",
        file.to_str().unwrap(),
    ]);
    stdout(&out);
    let bytes = fs::read(&file).expect("plot written");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    assert!(bytes.len() > 2_000, "suspiciously small PNG");
}

/// Writes shard `k` of `n` of `args` to `dir`.
fn shard(dir: &Path, args: &[&str], k: usize, n: usize) -> String {
    let spec = format!("{k}/{n}");
    let out = sim(&[args, &["--shard", &spec]].concat());
    let path = dir.join(format!("shard-{k}-of-{n}.json"));
    fs::write(&path, stdout(&out)).unwrap();
    path.to_str().unwrap().to_string()
}

/// The text with its `Speed:` line (the timing) left out.
fn without_speed(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("Speed:"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Merging the shards of a run gives exactly the run's report — JSON (timings
/// aside), table (its speed line aside) and CSV — in whatever order the files come,
/// with uneven shares (25 battles in 3 shards); and likewise for a sweep.
#[test]
fn merged_shards_equal_the_unsharded_run() {
    let dir = scratch("shards");
    let run = ["levels/ford.ron", "--battles", "25", "--seed", "11"];
    let files: Vec<String> = (1..=3).map(|k| shard(&dir, &run, k, 3)).collect();
    let shuffled = [files[2].as_str(), files[0].as_str(), files[1].as_str()];
    let merged = |flags: &[&str]| stdout(&skirmish(&[&["merge"], &shuffled[..], flags].concat()));
    let full = |flags: &[&str]| stdout(&sim(&[&run[..], flags].concat()));
    let merged_json: Value = serde_json::from_str(&merged(&["--json"])).unwrap();
    let full_json: Value = serde_json::from_str(&full(&["--json"])).unwrap();
    assert_eq!(figures(&merged_json, true), figures(&full_json, true));
    assert_eq!(merged_json["battles"], 25);
    assert_eq!(without_speed(&merged(&[])), without_speed(&full(&[])));
    assert_eq!(merged(&["--csv"]), full(&["--csv"]));
    // The shards hold their shares of the battles, all of them once.
    let held: Vec<usize> = files
        .iter()
        .map(|f| {
            let v: Value = serde_json::from_str(&fs::read_to_string(f).unwrap()).unwrap();
            v["runs"][0]["results"].as_array().unwrap().len()
        })
        .collect();
    assert_eq!(held, [8, 8, 9]);

    let sweep = [
        "levels/escalation_crossroads.ron",
        "--battles",
        "10",
        "--sweep",
        "crit_at=15,17",
    ];
    let files: Vec<String> = (1..=2).map(|k| shard(&dir, &sweep, k, 2)).collect();
    let merged = stdout(&skirmish(&["merge", &files[1], &files[0], "--csv"]));
    assert_eq!(merged, stdout(&sim(&[&sweep[..], &["--csv"]].concat())));
}

/// Asserts `out` failed with exit code 2, one message naming `expected`, nothing
/// on stdout and no panic.
fn assert_usage_error(out: &Output, what: &str, expected: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{what}: {err}");
    assert!(
        err.contains(expected),
        "{what}: expected `{expected}` in: {err}"
    );
    assert!(!err.contains("panicked"), "{what}: {err}");
    assert!(
        out.stdout.is_empty(),
        "{what}: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A bad `--set`, `--sweep` or `--shard` is a clear usage error naming the flag and
/// what is valid, and nothing (not even the plot) is written.
#[test]
fn bad_settings_sweeps_and_shards_are_clear_errors() {
    let plot = scratch("bad").join("never.png");
    let cases: &[(&[&str], &str)] = &[
        (
            &["--set", "speedy=4"],
            "--set speedy=4: unknown rule constant `speedy` for phases; known: advantage_dice",
        ),
        (&["--set", "speed=-1"], "--set speed=-1: `speed`"),
        (
            &["--set", "Knigt.DEF=13"],
            "--set Knigt.DEF=13: no unit `Knigt` in The Ford; its units are Knight, Ranger, \
             Goblin, Shaman",
        ),
        (
            &["--set", "Knight.DFE=13"],
            "--set Knight.DFE=13: no stat `DFE` in ruleset phases; Knight has AGI 1, ATK 3, \
             DEF 12, INT 2, Tier 2; the ruleset's stats are INT, AGI, ATK, DEF, Tier",
        ),
        (
            &["--set", "Knight.DEF=high"],
            "--set Knight.DEF=high: Knight's DEF must be a whole number, not `high`",
        ),
        (&["--set", "Knight.DEF=1.5"], "must be a whole number"),
        (
            &["--set", "Knight.DEF=1001"],
            "--set Knight.DEF=1001: unit `Knight` has DEF 1001; expected -1000 to 1000",
        ),
        (&["--set", "DEF=13"], "`DEF` is a unit stat: write UNIT.DEF"),
        (&["--set", "speed"], "--set speed: expected KEY=VALUE"),
        (
            &["--sweep", "speed=6..4"],
            "--sweep speed=6..4: `6..4` runs backwards",
        ),
        (&["--sweep", "speed=4..6:0"], "the step must be above 0"),
        (&["--sweep", "speed=1..5000"], "a sweep plays at most 1000"),
        (&["--sweep", "speed="], "no values to sweep"),
        (&["--sweep", "speed=4,,6"], "value 2 is empty"),
        (&["--sweep", "speed=4..x"], "is not a range"),
        (
            &["--sweep", "speedy=4,5"],
            "--sweep speedy=4: unknown rule constant",
        ),
        (
            &["--sweep", "speed=4,5", "--set", "speed=3"],
            "sweep it or set it",
        ),
        (
            &["--sweep", "speed=4,5", "--log", "0"],
            "give the value with --set",
        ),
        (
            &["--shard", "3/2"],
            "--shard `3/2` is not a shard: K must be 1 to N",
        ),
        (&["--shard", "0/0"], "N must be at least 1"),
        (&["--shard", "x"], "expected K/N"),
        (
            &["--shard", "1/2", "--csv"],
            "give --csv or --plot to merge",
        ),
    ];
    for (args, expected) in cases {
        let out = sim(&[
            &[
                "levels/ford.ron",
                "--battles",
                "2",
                "--plot",
                plot.to_str().unwrap(),
            ],
            *args,
        ]
        .concat());
        assert_usage_error(&out, &format!("{args:?}"), expected);
        assert!(!plot.exists(), "{args:?} wrote the plot");
    }
}

/// `merge` refuses files that aren't the N shards of one run, naming the file and
/// what differs or is missing.
#[test]
fn mismatched_shards_are_clear_errors() {
    let dir = scratch("mismatch");
    let run = ["levels/ford.ron", "--battles", "6"];
    let one = shard(&dir, &run, 1, 2);
    let two = shard(&dir, &run, 2, 2);
    let other = scratch("mismatch-other");
    let seed2 = shard(&other, &[&run[..], &["--seed", "2"]].concat(), 2, 2);
    let set = shard(
        &scratch("mismatch-set"),
        &[&run[..], &["--set", "speed=4"]].concat(),
        2,
        2,
    );
    let of3 = shard(&scratch("mismatch-3"), &run, 2, 3);
    let swept = shard(
        &scratch("mismatch-sweep"),
        &[&run[..], &["--sweep", "speed=4,5"]].concat(),
        2,
        2,
    );
    let not_a_shard = dir.join("summary.json");
    fs::write(
        &not_a_shard,
        stdout(&sim(&[&run[..], &["--json"]].concat())),
    )
    .unwrap();
    let not_a_shard = not_a_shard.to_str().unwrap();
    // A shard that lost a battle.
    let mut v: Value = serde_json::from_str(&fs::read_to_string(&two).unwrap()).unwrap();
    v["runs"][0]["results"].as_array_mut().unwrap().pop();
    let truncated = dir.join("truncated.json");
    fs::write(&truncated, v.to_string()).unwrap();
    let truncated = truncated.to_str().unwrap();
    // A shard numbered 0.
    v["shard"]["k"] = 0.into();
    let zero = dir.join("zero.json");
    fs::write(&zero, v.to_string()).unwrap();
    let zero = zero.to_str().unwrap();
    let cases: &[(&[&str], String)] = &[
        (
            &[&one],
            "shard 2/2 missing: 1 file given, of 2 shards".into(),
        ),
        (
            &[&one, &one, &two],
            format!("{one} and {one} are both shard 1/2"),
        ),
        (
            &[&one, &seed2],
            format!("{seed2} is not a shard of the same run as {one}: seed 2 here, 1 there"),
        ),
        (
            &[&one, &set],
            format!(
                "{set} is not a shard of the same run as {one}: set [\"speed=4\"] here, null there"
            ),
        ),
        (
            &[&one, &of3],
            format!("{of3} is not a shard of the same run as {one}: it is shard 2/3"),
        ),
        (
            &[&one, &swept],
            "a sweep of speed over 2 values here, no sweep there".into(),
        ),
        (
            &[&one, not_a_shard],
            format!("{not_a_shard}: not a shard file of `skirmish sim --shard K/N --json`"),
        ),
        (
            &[&one, truncated],
            format!("{truncated}: shard 2/2 of 6 battles should hold battles 3 to 5"),
        ),
        (
            &[&one, zero],
            format!(
                "{zero}: not a shard file of `skirmish sim --shard K/N --json`: `0/2` is not a shard"
            ),
        ),
    ];
    for (files, expected) in cases {
        let out = skirmish(&[&["merge"], *files].concat());
        assert_usage_error(&out, &format!("{files:?}"), expected);
    }
    let out = skirmish(&["merge", "no/such/shard.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read no/such/shard.json"));
}

/// CSV fields of one line (RFC 4180: quoted fields may hold commas and doubled
/// quotes).
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let (mut quoted, mut chars) = (false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().unwrap().push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            c => fields.last_mut().unwrap().push(c),
        }
    }
    fields
}

/// `--csv` is one header and a row per side (per side and value for a sweep, in
/// order) whose figures are the JSON's; values with commas come quoted.
#[test]
fn csv_parses_and_agrees_with_json() {
    let plain: &[&str] = &["levels/wounds_mill.ron", "--battles", "12", "--seed", "4"];
    let sweep: &[&str] = &[
        "levels/ford.ron",
        "--battles",
        "12",
        "--sweep",
        "advantage_dice=[6, 8, 10, 12],[4, 4, 4, 4]",
    ];
    for (args, values) in [
        (plain, vec![]),
        (sweep, vec!["[6, 8, 10, 12]", "[4, 4, 4, 4]"]),
    ] {
        let text = stdout(&sim(&[args, &["--csv"]].concat()));
        let report = json(&sim(&[args, &["--json"]].concat()));
        let summaries: Vec<Value> = match report.get("runs") {
            Some(runs) => runs.as_array().unwrap().clone(),
            None => vec![report.clone()],
        };
        let mut lines = text.lines();
        let header = csv_fields(lines.next().unwrap());
        let rows: Vec<Vec<String>> = lines.map(csv_fields).collect();
        let sides = summaries[0]["wins"].as_object().unwrap().len();
        assert_eq!(rows.len(), sides * summaries.len(), "{text}");
        let col = |row: &Vec<String>, name: &str| {
            let i = header
                .iter()
                .position(|h| h == name)
                .unwrap_or_else(|| panic!("no column {name}"));
            assert_eq!(row.len(), header.len(), "{row:?}");
            row[i].clone()
        };
        let num = |row: &Vec<String>, name: &str| col(row, name).parse::<f64>().unwrap();
        for (i, row) in rows.iter().enumerate() {
            let s = &summaries[i / sides];
            match values.get(i / sides) {
                Some(value) => {
                    assert_eq!(col(row, "sweep"), "advantage_dice");
                    assert_eq!(col(row, "value"), *value);
                    assert_eq!(col(row, "set"), format!("advantage_dice={value}"));
                }
                None => assert_eq!(col(row, "value"), ""),
            }
            let side = col(row, "name");
            assert_eq!(col(row, "row"), "side");
            assert_eq!(col(row, "level"), s["level"].as_str().unwrap());
            assert_eq!(col(row, "policy"), s["policies"][&side].as_str().unwrap());
            assert_eq!(num(row, "wins"), s["wins"][&side].as_f64().unwrap());
            assert_eq!(
                num(row, "win_rate"),
                s["win_rates"][&side].as_f64().unwrap()
            );
            assert_eq!(
                num(row, "win_ci_low"),
                s["win_ci"][&side][0].as_f64().unwrap()
            );
            assert_eq!(
                num(row, "win_ci_high"),
                s["win_ci"][&side][1].as_f64().unwrap()
            );
            assert_eq!(
                num(row, "damage_taken"),
                s["damage_taken"][&side].as_f64().unwrap()
            );
            for key in [
                "draws",
                "cut_off",
                "mean_rounds",
                "std_rounds",
                "damage_per_round",
            ] {
                assert_eq!(num(row, key), s[key].as_f64().unwrap(), "{key}");
            }
        }
    }
}
