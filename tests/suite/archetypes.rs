//! Portable archetypes (issue 31 item 4): a level of archetype units plays under
//! every ruleset whose grids include its grid exactly as the hand-written level with
//! the stats of `docs/archetypes.md` does; bad archetype fields are reported at
//! their place; `skirmish compare` runs what `sim --ruleset` runs and names what it
//! skips.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use skirmish::engine::archetype;
use skirmish::engine::rulesets::{RULESETS, registry};
use skirmish::level::{load_file, load_str, to_ron_string};

fn skirmish(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("run skirmish")
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("archetypes")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// The JSON a successful run printed.
fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// A summary without the figures that depend on the machine.
fn figures(mut summary: serde_json::Value) -> serde_json::Value {
    let map = summary.as_object_mut().expect("an object");
    map.remove("battles_per_second");
    map.remove("threads");
    summary
}

/// `docs/archetypes.md` shows, for every built-in ruleset, the table of what it
/// makes of each archetype: the realizations themselves, rendered.
#[test]
fn the_docs_tables_are_the_realizations() {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/archetypes.md"))
            .expect("docs/archetypes.md");
    let mut missing = String::new();
    for id in ["phases", "escalation", "wounds", "actfast", "flow"] {
        let table = archetype::table(registry::get(id).expect("built in"));
        if !docs.contains(&table) {
            missing.push_str(&format!("\n`{id}`:\n\n{table}"));
        }
    }
    assert!(
        missing.is_empty(),
        "docs/archetypes.md lacks the current tables:\n{missing}"
    );
}

/// The units of the hand-written twin of `levels/archetype_field.ron` under each
/// square ruleset, and of `levels/archetype_hills.ron` under each hex ruleset, as
/// `docs/archetypes.md` tabulates them (written out, not computed).
fn hand_written_units(ruleset: &str) -> &'static str {
    match ruleset {
        "phases" => {
            r#"
        (name: "Shield Wall", side: "Blue", pos: (2, 3), stats: {"INT": 1, "AGI": 1, "ATK": 2, "DEF": 12, "Tier": 1}, powers: [(name: "Sword", damage: "1d8")]),
        (name: "Bowman", side: "Blue", pos: (1, 5), stats: {"INT": 1, "AGI": 3, "ATK": 2, "DEF": 11, "Tier": 1}, powers: [(name: "Bow", range: 10, ranged: true, damage: "1d8"), (name: "Dagger", damage: "1d4")]),
        (name: "Ogre", side: "Blue", pos: (2, 4), stats: {"INT": -1, "AGI": 0, "ATK": 4, "DEF": 10, "Tier": 2, "HP": 24, "Speed": 5}, powers: [(name: "Great Weapon", damage: "1d10")]),
        (name: "Captain", side: "Red", pos: (9, 4), stats: {"INT": 2, "AGI": 1, "ATK": 4, "DEF": 13, "Tier": 2}, powers: [(name: "Sword", damage: "1d8")]),
        (name: "Outrider", side: "Red", pos: (9, 2), stats: {"INT": 1, "AGI": 3, "ATK": 2, "DEF": 12, "Tier": 1, "Speed": 7}, powers: [(name: "Daggers", damage: "1d4")], movement: ["Slip"]),
        (name: "Hedge Mage", side: "Red", pos: (10, 5), stats: {"INT": 3, "AGI": 0, "ATK": 1, "DEF": 10, "Tier": 1}, powers: [(name: "Bolt", range: 6, ranged: true, damage: "1d6", add_tier: false), (name: "Staff", damage: "1d4")]),
"#
        }
        "escalation" => {
            r#"
        (name: "Shield Wall", side: "Blue", pos: (2, 3), stats: {"Level": 1, "Volition": 3, "HP": 16, "AC": 14, "PD": 12, "MD": 10, "MissDamage": 1, "MeleeDie": 8}),
        (name: "Bowman", side: "Blue", pos: (1, 5), stats: {"Level": 1, "Volition": 3, "HP": 14, "AC": 13, "PD": 13, "MD": 10, "RangedDie": 8}, traits: ["Ranged"]),
        (name: "Ogre", side: "Blue", pos: (2, 4), stats: {"Level": 3, "Volition": 4, "HP": 42, "AC": 14, "PD": 14, "MD": 11, "MeleeDie": 10}),
        (name: "Captain", side: "Red", pos: (9, 4), stats: {"Level": 3, "Volition": 4, "HP": 36, "AC": 17, "PD": 13, "MD": 13, "MissDamage": 3, "MeleeDie": 8}),
        (name: "Outrider", side: "Red", pos: (9, 2), stats: {"Level": 1, "Volition": 3, "HP": 13, "AC": 13, "PD": 13, "MD": 10, "MeleeDie": 6}, traits: ["Fast"]),
        (name: "Hedge Mage", side: "Red", pos: (10, 5), stats: {"Level": 1, "Volition": 3, "HP": 12, "AC": 12, "PD": 12, "MD": 13, "MeleeDie": 6}, powers: [(name: "Arcane Bolt", range: 10, ranged: true, damage: "1d6+3", damage_type: Some("Force"))], traits: ["Ranged"]),
"#
        }
        "wounds" => {
            r#"
        (name: "Shield Wall", side: "Blue", pos: (2, 3), stats: {"Agility": 1, "Accuracy": 2, "Strength": 2, "HP": 20}, powers: [(name: "Longsword", damage: "1d8")], traits: ["Medium armor"]),
        (name: "Bowman", side: "Blue", pos: (1, 5), stats: {"Agility": 3, "Accuracy": 3, "Strength": 0, "HP": 16}, powers: [(name: "Shortbow", damage: "1d6", range: 12, ranged: true), (name: "Dagger", damage: "1d4")], traits: ["Light armor"]),
        (name: "Ogre", side: "Blue", pos: (2, 4), stats: {"Agility": 0, "Accuracy": 3, "Strength": 3, "HP": 24}, powers: [(name: "Greataxe", damage: "1d12")], traits: ["Light armor"]),
        (name: "Captain", side: "Red", pos: (9, 4), stats: {"Agility": 2, "Accuracy": 4, "Strength": 2, "HP": 22}, powers: [(name: "Longsword", damage: "1d8")], traits: ["Weapon focus Longsword", "Heavy armor"]),
        (name: "Outrider", side: "Red", pos: (9, 2), stats: {"Agility": 3, "Accuracy": 2, "Strength": 0, "HP": 12}, powers: [(name: "Dagger", damage: "1d4")], traits: ["Light armor"]),
        (name: "Hedge Mage", side: "Red", pos: (10, 5), stats: {"Agility": 1, "Accuracy": 2, "Strength": 0, "HP": 14, "MP": 8}, powers: [(name: "Firebolt", damage: "2d6", range: 10, traits: ["Cast 2", "MP 2"]), (name: "Staff", damage: "1d6")]),
"#
        }
        "actfast" => {
            r#"
        (name: "Shield Wall", side: "Blue", pos: (2, 3), stats: {"Class": 1, "STR": 2, "DEX": 0, "Armor": 1, "HP": 10}, powers: [(name: "One-handed")]),
        (name: "Bowman", side: "Blue", pos: (1, 5), stats: {"Class": 1, "STR": 1, "DEX": 3, "HP": 8}, powers: [(name: "Bow", ranged: true), (name: "Dagger", damage: "1d4")]),
        (name: "Ogre", side: "Blue", pos: (2, 4), stats: {"Class": 2, "STR": 2, "DEX": 0, "HP": 14}, powers: [(name: "Two-handed", damage: "2d6")]),
        (name: "Captain", side: "Red", pos: (9, 4), stats: {"Class": 2, "STR": 2, "DEX": 1, "Armor": 2, "HP": 12, "Leadership": 2, "Morale": 9}, powers: [(name: "One-handed")], traits: ["Leader"]),
        (name: "Outrider", side: "Red", pos: (9, 2), stats: {"Class": 1, "STR": 1, "DEX": 2, "HP": 8}, powers: [(name: "Daggers", damage: "1d4")]),
        (name: "Hedge Mage", side: "Red", pos: (10, 5), stats: {"Class": 1, "STR": 0, "DEX": 2, "HP": 8}, powers: [(name: "Firebolt", damage: "1d6", ranged: true, on_hit: [(condition: "Burning")]), (name: "Staff", damage: "1d4")]),
"#
        }
        "flow" => {
            r#"
        (name: "Blue Spear", side: "Blue", pos: (2, 4), stats: {"AgiMod": 1, "HP": 18}, skills: {"Melee": 55, "Agility": 40, "Athletics": 50, "Endurance": 50}, weapons: [(name: "Spear", damage: "1d10", reach: 2, category: Polearm, two_handed: true)]),
        (name: "Blue Bow", side: "Blue", pos: (1, 3), stats: {"AgiMod": 2, "HP": 14}, skills: {"Ranged": 60, "Melee": 40, "Agility": 50, "Athletics": 45}, weapons: [(name: "Shortbow", damage: "1d6", range: 6, two_handed: true), (name: "Dagger", damage: "1d4", category: Finesse, held: Stowed)]),
        (name: "Blue Mage", side: "Blue", pos: (0, 4), stats: {"AgiMod": 1, "HP": 12}, skills: {"Ranged": 60, "Melee": 30, "Agility": 40, "Knowledge": 60}, weapons: [(name: "Firebolt", damage: "1d6", range: 6, category: Spell), (name: "Dagger", damage: "1d4", category: Finesse, held: Stowed)]),
        (name: "Red Spear", side: "Red", pos: (8, 3), stats: {"AgiMod": 1, "HP": 18}, skills: {"Melee": 55, "Agility": 40, "Athletics": 50, "Endurance": 50}, weapons: [(name: "Spear", damage: "1d10", reach: 2, category: Polearm, two_handed: true)]),
        (name: "Red Bow", side: "Red", pos: (9, 4), stats: {"AgiMod": 2, "HP": 14}, skills: {"Ranged": 60, "Melee": 40, "Agility": 50, "Athletics": 45}, weapons: [(name: "Shortbow", damage: "1d6", range: 6, two_handed: true), (name: "Dagger", damage: "1d4", category: Finesse, held: Stowed)]),
        (name: "Red Mage", side: "Red", pos: (10, 3), stats: {"AgiMod": 1, "HP": 12}, skills: {"Ranged": 60, "Melee": 30, "Agility": 40, "Knowledge": 60}, weapons: [(name: "Firebolt", damage: "1d6", range: 6, category: Spell), (name: "Dagger", damage: "1d4", category: Finesse, held: Stowed)]),
"#
        }
        other => panic!("no hand-written units for {other}"),
    }
}

/// The shipped archetype level of `ruleset`'s grid, with its `units: [...]` replaced
/// by the hand-written ones and its ruleset set, written to a temporary file.
fn hand_written_level(ruleset: &str, dir: &Path) -> (String, std::path::PathBuf) {
    let source = if ruleset == "flow" {
        "levels/archetype_hills.ron"
    } else {
        "levels/archetype_field.ron"
    };
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(source))
        .expect("shipped level");
    let start = text.find("units: [").expect("units") + "units: [".len();
    let end = start + text[start..].find("\n    ],").expect("end of units");
    let text = format!(
        "{}{}{}",
        &text[..start],
        hand_written_units(ruleset),
        &text[end..]
    )
    .replacen(
        &format!(
            "ruleset: \"{}\"",
            if ruleset == "flow" { "flow" } else { "wounds" }
        ),
        &format!("ruleset: \"{ruleset}\""),
        1,
    );
    let path = dir.join(format!("hand_{ruleset}.ron"));
    std::fs::write(&path, &text).expect("write the twin");
    (source.to_string(), path)
}

/// Under each ruleset, `sim LEVEL --ruleset R` on the archetype level gives the
/// same figures as `sim` on the hand-written level with the table's stats.
#[test]
fn an_archetype_level_plays_as_the_hand_written_level_under_each_ruleset() {
    let dir = scratch("twins");
    for ruleset in ["phases", "escalation", "wounds", "actfast", "flow"] {
        let (source, twin) = hand_written_level(ruleset, &dir);
        // The twin loads as the same units as the realized archetypes.
        let mut realized = load_file(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(&source)
                .as_path(),
        )
        .expect("loads");
        realized = skirmish::level::under_ruleset(&realized, ruleset).expect("plays");
        let hand = load_file(&twin).unwrap_or_else(|p| panic!("{ruleset}: {p:?}"));
        for (a, h) in realized.units.iter().zip(&hand.units) {
            let mut a = a.clone();
            a.archetype = None;
            a.tier = None;
            assert_eq!(a, *h, "{ruleset}: {}", h.name);
        }
        let twin = twin.to_str().expect("utf-8 path");
        let args = ["--battles", "12", "--seed", "5", "--json", "--threads", "2"];
        let archetypes = skirmish(&[&["sim", &source, "--ruleset", ruleset][..], &args].concat());
        let written = skirmish(&[&["sim", twin][..], &args].concat());
        assert_eq!(
            figures(json(&archetypes)),
            figures(json(&written)),
            "{ruleset}"
        );
    }
}

/// An archetype that does not exist is reported at its place, naming the valid
/// ones; so are a tier out of range, a tier without an archetype and stats given
/// with an archetype.
#[test]
fn archetype_mistakes_are_reported_where_they_are() {
    let level = |units: &str| {
        format!(
            "(name: \"T\", ruleset: \"phases\", grid: Square, size: (6, 4),\n\
             sides: [(name: \"A\"), (name: \"B\")],\n\
             units: [\n{units}\n])"
        )
    };
    let good = "(name: \"Y\", side: \"B\", pos: (5, 0), archetype: \"archer\"),";
    let cases = [
        (
            "(name: \"X\", side: \"A\", pos: (0, 0), archetype: \"archr\"),",
            "archetype",
            "unknown archetype `archr` for unit `X`; expected one of: line_infantry, spearman, \
             archer, skirmisher, brute, caster, leader",
        ),
        (
            "(name: \"X\", side: \"A\", pos: (0, 0), archetype: \"archer\", tier: 4),",
            "tier",
            "tier 4 for unit `X`; expected a tier from 1 to 3",
        ),
        (
            "(name: \"X\", side: \"A\", pos: (0, 0), tier: 2, stats: {\"INT\": 0, \"AGI\": 0, \"ATK\": 0, \"DEF\": 10, \"Tier\": 2}),",
            "tier",
            "gives `tier` without `archetype`",
        ),
        (
            "(name: \"X\", side: \"A\", pos: (0, 0), archetype: \"brute\", stats: {\"HP\": 40}),",
            "stats",
            "is archetype `brute` and gives `stats` too",
        ),
    ];
    for (unit, field, message) in cases {
        let text = level(&format!("{unit}\n{good}"));
        let problems = load_str(&text, "bad.ron").expect_err(unit);
        let line = 4; // the first unit's line
        let col = unit.find(&format!("{field}:")).expect("field") + 1;
        let p = &problems[0];
        assert_eq!(
            (p.file.as_str(), p.line, p.col),
            ("bad.ron", line, col),
            "{p}"
        );
        assert!(p.message.contains(message), "{p}");
        assert_eq!(problems.len(), 1, "{problems:?}");
    }
    // And on the command line, as FILE:LINE:COL with exit code 1.
    let path = scratch("mistakes").join("bad.ron");
    std::fs::write(
        &path,
        level(&format!(
            "(name: \"X\", side: \"A\", pos: (0, 0), archetype: \"wizard\"),\n{good}"
        )),
    )
    .expect("write");
    let out = skirmish(&["check", path.to_str().expect("utf-8")]);
    let err =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "bad.ron:4:37: unknown archetype `wizard` for unit `X`; expected one of: line_infantry"
        ),
        "{err}"
    );
}

/// A unit's tier changes its realization (`phases`: the Tier stat and ATK).
#[test]
fn a_unit_tier_overrides_the_archetype_tier() {
    let text = "(name: \"T\", ruleset: \"phases\", grid: Square, size: (6, 4),
        sides: [(name: \"A\"), (name: \"B\")],
        units: [
            (name: \"X\", side: \"A\", pos: (0, 0), archetype: \"archer\", tier: 3),
            (name: \"Y\", side: \"B\", pos: (5, 0), archetype: \"archer\"),
        ])";
    let level = load_str(text, "t.ron").expect("loads");
    assert_eq!(level.units[0].stats["Tier"], 3);
    assert_eq!(level.units[0].stats["ATK"], 4);
    assert_eq!(level.units[1].stats["Tier"], 1);
    assert_eq!(level.units[1].stats["ATK"], 2);
}

/// Saving keeps the archetype (not the numbers it was realized as), so the file
/// still plays under every ruleset; a unit whose realized stats were edited is
/// saved with them instead.
#[test]
fn saving_keeps_archetypes_and_edits() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/archetype_field.ron");
    let level = load_file(&path).expect("loads");
    let text = to_ron_string(&level);
    assert!(text.contains("archetype: \"line_infantry\""), "{text}");
    assert!(!text.contains("stats"), "{text}");
    assert_eq!(load_str(&text, "again.ron").expect("reloads"), level);
    // Under another ruleset too.
    let phases = skirmish::level::under_ruleset(&level, "phases").expect("plays");
    let text = to_ron_string(&phases);
    assert!(!text.contains("stats"), "{text}");
    assert_eq!(load_str(&text, "again.ron").expect("reloads"), phases);
    // An edit to a realized stat is kept: that unit is saved as written.
    let mut edited = level.clone();
    edited.units[0].stats.insert("Agility".into(), 4);
    let text = to_ron_string(&edited);
    let back = load_str(&text, "edited.ron").expect("reloads");
    assert_eq!(back.units[0].stats["Agility"], 4);
    assert_eq!(back.units[0].archetype, None);
    assert_eq!(back.units[1].archetype.as_deref(), Some("archer"));
}

/// `compare` plays the rulesets whose grids include the level's grid and names the
/// others with the reason; each entry of `--json` is what `sim --ruleset R --json`
/// gives with the same battles and seed.
#[test]
fn compare_agrees_with_sim_and_names_what_it_skips() {
    let args = ["--battles", "10", "--seed", "9", "--json", "--threads", "2"];
    let out = skirmish(&[&["compare", "levels/archetype_field.ron"][..], &args].concat());
    let c = json(&out);
    let played: Vec<&str> = c["rulesets"]
        .as_array()
        .expect("rulesets")
        .iter()
        .map(|s| s["ruleset"].as_str().expect("id"))
        .collect();
    assert_eq!(played, ["phases", "escalation", "wounds", "actfast"]);
    assert_eq!(
        c["skipped"],
        serde_json::json!([{"ruleset": "flow", "reason": "played on hexes; the level is on squares"}])
    );
    for summary in c["rulesets"].as_array().expect("rulesets") {
        let ruleset = summary["ruleset"].as_str().expect("id");
        let sim = skirmish(
            &[
                &["sim", "levels/archetype_field.ron", "--ruleset", ruleset][..],
                &args,
            ]
            .concat(),
        );
        assert_eq!(figures(summary.clone()), figures(json(&sim)), "{ruleset}");
    }
    // On hexes, the square-only rulesets are the ones skipped.
    let out = skirmish(&[
        "compare",
        "levels/archetype_hills.ron",
        "--battles",
        "2",
        "--json",
    ]);
    let c = json(&out);
    let skipped: Vec<(&str, &str)> = c["skipped"]
        .as_array()
        .expect("skipped")
        .iter()
        .map(|s| {
            (
                s["ruleset"].as_str().unwrap(),
                s["reason"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        skipped,
        [
            ("escalation", "played on squares; the level is on hexes"),
            ("wounds", "played on squares; the level is on hexes"),
        ]
    );
    assert!(RULESETS.contains(&"flow"));
}

/// The human table has a row per ruleset played and a line per ruleset skipped;
/// `--plot` writes a PNG; bad arguments exit 2.
#[test]
fn compare_table_plot_and_bad_arguments() {
    let png = scratch("plot").join("compare.png");
    let out = skirmish(&[
        "compare",
        "levels/archetype_hills.ron",
        "--battles",
        "4",
        "--plot",
        png.to_str().expect("utf-8"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    for ruleset in ["phases", "flow", "actfast"] {
        assert!(
            table
                .lines()
                .any(|l| l.starts_with(ruleset) && l.contains('%')),
            "{table}"
        );
    }
    assert!(
        table.contains("wounds      skipped: played on squares"),
        "{table}"
    );
    let bytes = std::fs::read(&png).expect("plot written");
    assert!(bytes.starts_with(b"\x89PNG"), "a PNG");
    for (args, message) in [
        (
            &["compare", "levels/archetype_field.ron", "--battles", "0"][..],
            "at least 1",
        ),
        (&["compare", "levels/nope.ron"][..], "cannot read"),
    ] {
        let out = skirmish(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// The editor keeps archetypes: moving a unit and saving writes it by its archetype
/// still; switching the ruleset realizes the archetype units for the new one (and
/// undoing switches them back).
#[test]
fn the_editor_keeps_archetypes_and_realizes_them_for_its_ruleset() {
    use skirmish::editor::EditorDoc;
    use skirmish::engine::board::Cell;
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/archetype_field.ron");
    let path = scratch("editor").join("field.ron");
    std::fs::copy(&source, &path).expect("copy");
    let mut doc = EditorDoc::open(&path).expect("opens");
    let wounds = doc.level().clone();
    doc.move_unit(0, Cell::new(3, 3)).expect("moves");
    doc.set_ruleset("phases").expect("switches");
    assert!(doc.problems().is_empty(), "{:?}", doc.problems());
    let phases = skirmish::level::under_ruleset(&wounds, "phases").expect("plays");
    assert_eq!(doc.level().units[1], phases.units[1]);
    assert_eq!(doc.level().units[0].stats, phases.units[0].stats);
    doc.save().expect("saves");
    let text = std::fs::read_to_string(&path).expect("saved");
    assert!(text.contains("ruleset: \"phases\""), "{text}");
    assert!(
        text.contains("pos: (3, 3),\n            archetype: \"line_infantry\""),
        "{text}"
    );
    assert!(!text.contains("stats"), "{text}");
    assert!(doc.undo(), "undo the switch");
    assert_eq!(doc.level().units[1], wounds.units[1]);
}

/// `play --ruleset` and `sim --ruleset` load the level for that ruleset, or say why
/// it can't be played under it (a grid the ruleset isn't played on: exit 2 for sim).
#[test]
fn ruleset_overrides_load_the_level_for_that_ruleset_or_say_why_not() {
    use skirmish::level::load::load_for_play;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/archetype_field.ron");
    let own = load_for_play(&path, None).expect("plays");
    assert_eq!(own.ruleset, "wounds");
    let phases = load_for_play(&path, Some("phases")).expect("plays under phases");
    assert_eq!(phases.ruleset, "phases");
    assert!(phases.units.iter().all(|u| u.stats.contains_key("DEF")));
    let err = load_for_play(&path, Some("flow")).expect_err("squares");
    assert_eq!(
        err,
        "`The Open Field` can't be played under ruleset `flow`: ruleset flow is played on \
         hexes; expected `grid: Hex`"
    );
    let out = skirmish(&["sim", "levels/archetype_field.ron", "--ruleset", "flow"]);
    let msg = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{msg}");
    assert!(msg.contains("expected `grid: Hex`"), "{msg}");
    // A hand-written level can't play under a ruleset whose stats it lacks.
    let out = skirmish(&["sim", "levels/ford.ron", "--ruleset", "wounds"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A scenario's inline level may give archetype units too: they are realized for
/// its ruleset, and a mistake is reported at its place in the scenario file.
#[test]
fn scenarios_realize_inline_archetype_units() {
    let scenario = |archetype: &str| {
        format!(
            "Scenario(\n    level: Inline((name: \"S\", ruleset: \"wounds\", grid: Square, size: (6, 4),\n        \
             sides: [(name: \"A\"), (name: \"B\")],\n        \
             units: [\n            (name: \"X\", side: \"A\", pos: (0, 0), archetype: \"{archetype}\"),\n            \
             (name: \"Y\", side: \"B\", pos: (5, 0), archetype: \"brute\"),\n        ])),\n    \
             dice: Seed(3),\n    commands: [],\n)\n"
        )
    };
    let dir = scratch("scenario");
    let good = dir.join("good.ron");
    std::fs::write(&good, scenario("archer")).expect("write");
    let (_, level) = skirmish::script::load(&good).expect("loads");
    assert_eq!(level.units[0].stats["Agility"], 3, "{:?}", level.units[0]);
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, scenario("archr")).expect("write");
    let err = skirmish::script::load(&bad).expect_err("unknown archetype");
    let shown = err.to_string();
    assert!(
        shown.contains("bad.ron:5:49: unknown archetype `archr`"),
        "{shown}"
    );
}
