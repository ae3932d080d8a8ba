//! The level editor's headless core: every operation, undo and redo of each,
//! strokes as one undo step, templates, live problems, saving (atomic, even under
//! `kill -9`), reopening, and the hot-reload watcher.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use skirmish::editor::terrain::{brush_cells, flood_region, terrain_at};
use skirmish::editor::{
    EditError, EditorDoc, LevelWatcher, SaveError, Template, UnitSource, load_default_templates,
    load_templates, skill_form, stat_form, weapon_choices,
};
use skirmish::engine::board::{Cell, GridKind, Terrain};
use skirmish::level::load::backup_path;
use skirmish::level::schema::{AiPolicy, Controller, Hand, Size};
use skirmish::level::validate::Where;
use skirmish::level::{Level, load_file, load_str};

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("editor")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

fn c(x: i32, y: i32) -> Cell {
    Cell::new(x, y)
}

fn templates() -> Vec<Template> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/units");
    load_templates(&dir).unwrap_or_else(|p| panic!("shipped templates load: {p:#?}"))
}

fn template(name: &str) -> Template {
    templates()
        .into_iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("template {name}"))
}

fn square(w: u32, h: u32) -> EditorDoc {
    EditorDoc::new_level("Test", GridKind::Square, (w, h), "phases").expect("new level")
}

/// A valid small level: a knight for Blue, a goblin for Red.
fn valid_doc() -> EditorDoc {
    let mut doc = square(8, 6);
    let knight = template("Knight");
    let goblin = template("Goblin");
    doc.place_unit(UnitSource::Template(&knight), "Blue", c(0, 0))
        .expect("place knight");
    doc.place_unit(UnitSource::Template(&goblin), "Red", c(7, 5))
        .expect("place goblin");
    doc.fill_rect(c(3, 1), c(4, 4), Terrain::Difficult);
    doc.paint(c(3, 2), 1, Terrain::Impassable);
    doc
}

fn rows(doc: &EditorDoc) -> Vec<&str> {
    doc.level().terrain.iter().map(String::as_str).collect()
}

fn terrain(doc: &EditorDoc, cell: Cell) -> Option<Terrain> {
    terrain_at(doc.level(), cell)
}

/// Cells in the order the editor returns them (`Cell`'s order).
fn sorted(mut cells: Vec<Cell>) -> Vec<Cell> {
    cells.sort_unstable();
    cells
}

#[test]
fn new_level_has_two_sides_an_open_map_and_nothing_to_save() {
    let doc = EditorDoc::new_level("Fresh", GridKind::Hex, (5, 3), "phases").expect("new");
    let level = doc.level();
    assert_eq!(
        (level.name.as_str(), level.grid, level.size),
        ("Fresh", GridKind::Hex, (5, 3))
    );
    assert_eq!(rows(&doc), [".....", ".....", "....."]);
    let sides: Vec<_> = level
        .sides
        .iter()
        .map(|s| (s.name.as_str(), s.controller))
        .collect();
    assert_eq!(
        sides,
        [
            ("Blue", Controller::Human),
            ("Red", Controller::Ai(AiPolicy::Normal))
        ]
    );
    assert!(!doc.is_dirty() && !doc.can_undo() && doc.path().is_none());
    // Without units both sides are problems, about no cell.
    let problems = doc.problems();
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert!(
        problems
            .iter()
            .all(|p| p.cell.is_none() && p.message.contains("has no units"))
    );

    assert_eq!(
        EditorDoc::new_level("x", GridKind::Square, (0, 3), "phases").err(),
        Some(EditError::BadSize(0, 3))
    );
    assert!(matches!(
        EditorDoc::new_level("x", GridKind::Square, (3, 3), "chess"),
        Err(EditError::UnknownRuleset(_))
    ));
}

#[test]
fn paint_with_square_and_hex_brushes_then_undo_and_redo() {
    let mut doc = square(5, 5);
    assert_eq!(doc.paint(c(2, 2), 2, Terrain::Impassable), 9);
    assert_eq!(rows(&doc), [".....", ".###.", ".###.", ".###.", "....."]);
    assert!(doc.is_dirty());
    // Painting what is already there changes nothing and records nothing.
    assert_eq!(doc.paint(c(2, 2), 1, Terrain::Impassable), 0);
    // A brush at the edge is clipped to the map.
    assert_eq!(doc.paint(c(0, 0), 2, Terrain::Difficult), 4);
    assert_eq!(rows(&doc)[..2], ["~~...", "~~##."]);

    assert!(doc.undo());
    assert_eq!(rows(&doc)[..2], [".....", ".###."]);
    assert!(doc.undo());
    assert_eq!(rows(&doc), ["....."; 5]);
    assert!(!doc.is_dirty(), "undone back to the opened state");
    assert!(!doc.undo());
    assert!(doc.redo() && doc.redo() && !doc.redo());
    assert_eq!(rows(&doc), ["~~...", "~~##.", ".###.", ".###.", "....."]);

    // Hex brush of size 2: the center and its 6 neighbours (odd-r rows).
    let mut hex = EditorDoc::new_level("h", GridKind::Hex, (5, 5), "phases").expect("new");
    assert_eq!(hex.paint(c(2, 2), 2, Terrain::Difficult), 7);
    assert_eq!(rows(&hex), [".....", ".~~..", ".~~~.", ".~~..", "....."]);
    assert_eq!(
        brush_cells(hex.level(), c(1, 1), 2),
        sorted(vec![
            c(1, 0),
            c(2, 0),
            c(0, 1),
            c(1, 1),
            c(2, 1),
            c(1, 2),
            c(2, 2)
        ])
    );
    assert_eq!(brush_cells(hex.level(), c(2, 2), 3).len(), 19);
    assert!(brush_cells(hex.level(), c(9, 9), 1).is_empty());
}

#[test]
fn a_drag_stroke_is_one_undo_step() {
    let mut doc = square(6, 3);
    doc.begin_stroke();
    let mut changed = 0;
    for x in 0..6 {
        changed += doc.paint(c(x, 1), 1, Terrain::Difficult);
        // Dragging back over painted cells adds nothing.
        changed += doc.paint(c(x.saturating_sub(1), 1), 1, Terrain::Difficult);
    }
    doc.end_stroke();
    assert_eq!(changed, 6);
    assert_eq!(rows(&doc), ["......", "~~~~~~", "......"]);
    assert!(doc.undo());
    assert_eq!(rows(&doc), ["......"; 3]);
    assert!(!doc.can_undo(), "the whole stroke was one step");
    assert!(doc.redo());
    assert_eq!(rows(&doc)[1], "~~~~~~");

    // The revision moves with every change, and only then.
    let revision = doc.revision();
    assert_eq!(doc.paint(c(0, 1), 1, Terrain::Difficult), 0);
    assert_eq!(doc.revision(), revision);
    assert!(doc.undo() && doc.redo());
    assert_eq!(doc.revision(), revision + 2);

    // A stroke that changes nothing records no step; undo ends an open stroke.
    doc.begin_stroke();
    doc.paint(c(0, 1), 1, Terrain::Difficult);
    doc.end_stroke();
    doc.begin_stroke();
    doc.paint(c(0, 0), 1, Terrain::Impassable);
    doc.paint(c(1, 0), 1, Terrain::Impassable);
    assert!(doc.undo(), "undo during a stroke ends it and undoes it");
    assert_eq!(rows(&doc), ["......", "~~~~~~", "......"]);
    assert!(doc.undo());
    assert!(!doc.can_undo());
}

#[test]
fn rectangle_fill_in_any_corner_order_clipped_to_the_map() {
    let mut doc = square(5, 4);
    assert_eq!(doc.fill_rect(c(3, 2), c(1, 1), Terrain::Impassable), 6);
    assert_eq!(rows(&doc), [".....", ".###.", ".###.", "....."]);
    assert_eq!(terrain(&doc, c(1, 1)), Some(Terrain::Impassable));
    assert_eq!(terrain(&doc, c(5, 1)), None, "off the map");
    assert_eq!(doc.fill_rect(c(-5, 3), c(9, 9), Terrain::Difficult), 5);
    assert_eq!(rows(&doc)[3], "~~~~~");
    assert!(doc.undo());
    assert_eq!(rows(&doc)[3], ".....");
    assert!(doc.undo());
    assert_eq!(rows(&doc), ["....."; 4]);
}

#[test]
fn flood_fill_is_4_connected_on_squares() {
    let mut doc = square(5, 4);
    // Two open regions that touch only diagonally at (2,1)/(3,2).
    for cell in [
        c(2, 0),
        c(3, 0),
        c(4, 0),
        c(3, 1),
        c(4, 1),
        c(0, 2),
        c(1, 2),
        c(2, 2),
    ] {
        doc.paint(cell, 1, Terrain::Impassable);
    }
    doc.paint(c(0, 3), 1, Terrain::Impassable);
    doc.paint(c(1, 3), 1, Terrain::Impassable);
    doc.paint(c(2, 3), 1, Terrain::Impassable);
    assert_eq!(rows(&doc), ["..###", "...##", "###..", "###.."]);
    let before = rows(&doc).join("\n");
    assert_eq!(doc.flood_fill(c(0, 0), Terrain::Difficult), 5);
    assert_eq!(rows(&doc), ["~~###", "~~~##", "###..", "###.."]);
    assert!(doc.undo());
    assert_eq!(rows(&doc).join("\n"), before);
    // Filling with the region's own terrain changes nothing.
    assert_eq!(doc.flood_fill(c(4, 3), Terrain::Open), 0);
    assert_eq!(doc.flood_fill(c(9, 9), Terrain::Open), 0);
}

#[test]
fn flood_fill_is_6_connected_on_hexes() {
    let mut doc = EditorDoc::new_level("h", GridKind::Hex, (4, 4), "phases").expect("new");
    // A wall down column 1. Column 0 is one region: in odd-r rows (0, 1) touches
    // (0, 0) and (0, 2) (and (1, 0), (1, 1), (1, 2), all wall), never column 2.
    for y in 0..4 {
        doc.paint(c(1, y), 1, Terrain::Impassable);
    }
    let left = flood_region(doc.level(), c(0, 0));
    assert_eq!(left, [c(0, 0), c(0, 1), c(0, 2), c(0, 3)]);
    // Columns 2 and 3 are the other region.
    assert_eq!(doc.flood_fill(c(3, 3), Terrain::Difficult), 8);
    assert_eq!(rows(&doc), [".#~~", ".#~~", ".#~~", ".#~~"]);

    // A diagonal that 6-connects on hexes: the odd row's (0, 1) touches (1, 0) and
    // (1, 2).
    let mut doc = EditorDoc::new_level("h", GridKind::Hex, (3, 3), "phases").expect("new");
    doc.fill_rect(c(0, 0), c(2, 2), Terrain::Impassable);
    for cell in [c(1, 0), c(0, 1), c(1, 2)] {
        doc.paint(cell, 1, Terrain::Open);
    }
    assert_eq!(
        flood_region(doc.level(), c(1, 0)),
        sorted(vec![c(1, 0), c(0, 1), c(1, 2)])
    );
    // The same cells on a square grid are three separate 4-connected regions.
    let mut sq = square(3, 3);
    sq.fill_rect(c(0, 0), c(2, 2), Terrain::Impassable);
    for cell in [c(1, 0), c(0, 1), c(1, 2)] {
        sq.paint(cell, 1, Terrain::Open);
    }
    assert_eq!(flood_region(sq.level(), c(1, 0)), [c(1, 0)]);
}

#[test]
fn place_from_templates_with_unique_names_and_blank_units() {
    let mut doc = square(6, 4);
    doc.paint(c(5, 3), 1, Terrain::Impassable);
    let knight = template("Knight");
    for (i, x) in (0..3).enumerate() {
        let index = doc
            .place_unit(UnitSource::Template(&knight), "Blue", c(x, 0))
            .expect("place");
        assert_eq!(index, i);
    }
    let names: Vec<_> = doc.level().units.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(names, ["Knight", "Knight 2", "Knight 3"]);
    let unit = &doc.level().units[1];
    assert_eq!((unit.side.as_str(), unit.pos), ("Blue", (1, 0)));
    assert_eq!(unit.stats, knight.stats);
    assert_eq!(unit.powers, knight.powers);

    let blank = doc
        .place_unit(UnitSource::Blank, "Red", c(5, 0))
        .expect("blank");
    let unit = &doc.level().units[blank];
    assert_eq!(unit.name, "Unit");
    let required: Vec<_> = stat_form("phases")
        .into_iter()
        .filter(|f| f.required)
        .map(|f| (f.name.to_string(), f.default.unwrap_or(-99)))
        .collect();
    assert_eq!(unit.stats, required.into_iter().collect());
    assert!(doc.problems().is_empty(), "{:#?}", doc.problems());

    // Refusals leave the level unchanged.
    let before = doc.level().clone();
    assert_eq!(
        doc.place_unit(UnitSource::Blank, "Red", c(0, 0)),
        Err(EditError::Occupied {
            cell: c(0, 0),
            by: "Knight".into()
        })
    );
    assert_eq!(
        doc.place_unit(UnitSource::Blank, "Red", c(5, 3)),
        Err(EditError::Impassable(c(5, 3)))
    );
    assert_eq!(
        doc.place_unit(UnitSource::Blank, "Red", c(6, 0)),
        Err(EditError::OffMap(c(6, 0)))
    );
    assert_eq!(
        doc.place_unit(UnitSource::Blank, "Green", c(4, 2)),
        Err(EditError::UnknownSide("Green".into()))
    );
    let mut alien = knight.clone();
    alien.ruleset = "flow".into();
    assert!(matches!(
        doc.place_unit(UnitSource::Template(&alien), "Red", c(4, 2)),
        Err(EditError::WrongRuleset { .. })
    ));
    assert_eq!(doc.level(), &before);

    // Undo the placements one by one.
    for left in (0..4).rev() {
        assert!(doc.undo());
        assert_eq!(doc.level().units.len(), left);
    }
    assert!(doc.redo());
    assert_eq!(doc.level().units[0].name, "Knight");
}

#[test]
fn move_and_delete_units_with_undo() {
    let mut doc = valid_doc();
    let goblin = doc.unit_named("Goblin").expect("goblin");
    doc.move_unit(goblin, c(6, 5)).expect("move");
    assert_eq!(doc.unit_at(c(6, 5)), Some(goblin));
    assert_eq!(doc.unit_at(c(7, 5)), None);
    assert_eq!(
        doc.move_unit(goblin, c(0, 0)),
        Err(EditError::Occupied {
            cell: c(0, 0),
            by: "Knight".into()
        })
    );
    assert_eq!(
        doc.move_unit(goblin, c(3, 2)),
        Err(EditError::Impassable(c(3, 2)))
    );
    assert_eq!(doc.move_unit(9, c(1, 1)), Err(EditError::NoSuchUnit(9)));
    doc.move_unit(goblin, c(6, 5))
        .expect("moving onto itself is fine");

    doc.delete_unit(0).expect("delete knight");
    assert_eq!(doc.level().units.len(), 1);
    assert_eq!(doc.level().units[0].name, "Goblin");
    assert!(
        doc.problems()
            .iter()
            .any(|p| p.message.contains("side `Blue` has no units"))
    );

    assert!(doc.undo());
    assert_eq!(
        doc.level().units[0].name,
        "Knight",
        "back at its roster place"
    );
    assert!(doc.undo());
    assert_eq!(doc.level().units[goblin].pos, (7, 5));
    assert!(doc.redo() && doc.redo());
    assert_eq!(doc.level().units.len(), 1);
    assert_eq!(doc.level().units[0].pos, (6, 5));
}

#[test]
fn unit_name_side_and_stats_follow_the_ruleset_form() {
    let mut doc = valid_doc();
    let k = doc.unit_named("Knight").expect("knight");
    doc.rename_unit(k, "  Sir Aldric ").expect("rename");
    assert_eq!(doc.level().units[k].name, "Sir Aldric");
    assert_eq!(
        doc.rename_unit(k, "Goblin"),
        Err(EditError::NameTaken("Goblin".into()))
    );
    assert_eq!(doc.rename_unit(k, " "), Err(EditError::EmptyName));

    doc.set_unit_side(k, "Red").expect("side");
    assert_eq!(doc.level().units[k].side, "Red");
    assert_eq!(
        doc.set_unit_side(k, "Nope"),
        Err(EditError::UnknownSide("Nope".into()))
    );

    doc.set_stat(k, "ATK", Some(4)).expect("ATK");
    doc.set_stat(k, "HP", Some(30)).expect("optional HP");
    assert_eq!(doc.level().units[k].stats.get("ATK"), Some(&4));
    assert_eq!(doc.level().units[k].stats.get("HP"), Some(&30));
    let err = doc.set_stat(k, "Agility", Some(50));
    assert!(matches!(err, Err(EditError::UnknownStat { .. })), "{err:?}");
    assert_eq!(
        doc.set_stat(k, "Tier", None),
        Err(EditError::RequiredStat("Tier".into()))
    );
    // Out-of-range values are allowed and reported live, at the unit's cell.
    doc.set_stat(k, "Tier", Some(7)).expect("Tier 7 is allowed");
    let problems = doc.problems();
    assert_eq!(problems.len(), 2, "{problems:#?}"); // Tier, and Blue has no units
    let tier = problems
        .iter()
        .find(|p| p.message.contains("Tier 7"))
        .expect("tier problem");
    assert_eq!(tier.cell, Some(c(0, 0)));
    assert_eq!(
        tier.at,
        Where::Stat {
            unit: k,
            stat: "Tier".into()
        }
    );

    // Undo each edit in turn: Tier, HP, ATK, side, name.
    assert!(doc.undo());
    assert_eq!(doc.level().units[k].stats.get("Tier"), Some(&2));
    assert!(doc.undo());
    assert_eq!(doc.level().units[k].stats.get("HP"), None);
    assert!(doc.undo());
    assert_eq!(doc.level().units[k].stats.get("ATK"), Some(&3));
    assert!(doc.undo());
    assert_eq!(doc.level().units[k].side, "Blue");
    assert!(doc.undo());
    assert_eq!(doc.level().units[k].name, "Knight");
    assert!(doc.redo());
    assert_eq!(doc.level().units[k].name, "Sir Aldric");

    // Stats left over from another ruleset can be removed, not set.
    let mut unit = doc.level().units[k].clone();
    unit.stats.insert("Melee".into(), 60);
    doc.set_unit(k, unit).expect("set unit");
    assert!(
        doc.problems()
            .iter()
            .any(|p| p.message.contains("unknown stat `Melee`"))
    );
    doc.set_stat(k, "Melee", None).expect("remove a stray stat");
    assert!(doc.problems().is_empty());
}

#[test]
fn sides_add_rename_remove_and_controllers_with_undo() {
    let mut doc = valid_doc();
    let green = doc.add_side("Green").expect("add");
    assert_eq!(green, 2);
    assert_eq!(doc.add_side("Red"), Err(EditError::NameTaken("Red".into())));
    assert_eq!(doc.add_side(""), Err(EditError::EmptyName));
    assert_eq!(doc.fresh_side_name("Green"), "Green 2");
    doc.place_unit(UnitSource::Template(&template("Ogre")), "Green", c(5, 0))
        .expect("ogre");

    // Renaming a side renames it in its units too, as one step.
    doc.rename_side(1, "Horde").expect("rename");
    assert_eq!(doc.level().sides[1].name, "Horde");
    let goblin = doc.unit_named("Goblin").expect("goblin");
    assert_eq!(doc.level().units[goblin].side, "Horde");
    assert!(doc.problems().is_empty(), "{:#?}", doc.problems());
    assert_eq!(
        doc.rename_side(1, "Blue"),
        Err(EditError::NameTaken("Blue".into()))
    );
    assert!(doc.undo());
    assert_eq!(doc.level().sides[1].name, "Red");
    assert_eq!(doc.level().units[goblin].side, "Red");
    assert!(doc.redo());

    // Controllers.
    doc.set_controller(2, Controller::Ai(AiPolicy::Easy))
        .expect("ai");
    assert_eq!(
        doc.level().sides[2].controller,
        Controller::Ai(AiPolicy::Easy)
    );
    assert!(doc.undo());
    assert_eq!(doc.level().sides[2].controller, Controller::Human);
    assert_eq!(
        doc.set_controller(5, Controller::Human),
        Err(EditError::NoSuchSide(5))
    );

    // Removing a side removes its units, as one step; undo restores both.
    let before = doc.level().clone();
    let removed = doc.remove_side(1).expect("remove");
    assert_eq!(removed, ["Goblin"]);
    assert_eq!(doc.level().sides.len(), 2);
    assert!(doc.level().units.iter().all(|u| u.side != "Horde"));
    assert!(doc.undo());
    assert_eq!(doc.level(), &before);
}

#[test]
fn level_name_ruleset_grid_seed_and_resize_with_undo() {
    let mut doc = valid_doc();
    doc.set_name("Renamed");
    assert_eq!(doc.level().name, "Renamed");
    assert!(matches!(
        doc.set_ruleset("chess"),
        Err(EditError::UnknownRuleset(_))
    ));
    doc.set_grid(GridKind::Hex);
    assert_eq!(doc.level().grid, GridKind::Hex);
    doc.modify(|level| level.seed = Some(99));
    assert_eq!(doc.level().seed, Some(99));

    let removed = doc.resize((6, 5)).expect("resize");
    assert_eq!(removed, ["Goblin"], "the goblin at (7, 5) fell off");
    assert_eq!(doc.level().size, (6, 5));
    assert_eq!(
        rows(&doc),
        ["......", "...~~.", "...#~.", "...~~.", "...~~."]
    );
    assert_eq!(doc.resize((0, 5)), Err(EditError::BadSize(0, 5)));
    let grown = doc.resize((7, 6)).expect("grow");
    assert!(grown.is_empty());
    assert_eq!(rows(&doc)[5], ".......");

    for _ in 0..5 {
        assert!(doc.undo());
    }
    assert_eq!(doc.level(), valid_doc().level());
}

#[test]
fn problems_point_at_cells_and_saved_lines() {
    let mut doc = valid_doc();
    assert!(doc.problems().is_empty(), "{:#?}", doc.problems());
    // A wall painted under the knight: allowed, and a problem at its cell.
    doc.paint(c(0, 0), 1, Terrain::Impassable);
    let problems = doc.problems();
    assert_eq!(problems.len(), 1, "{problems:#?}");
    let p = &problems[0];
    assert_eq!(p.cell, Some(c(0, 0)));
    assert!(p.message.contains("impassable"), "{}", p.message);
    // The line and column are where `skirmish check` reports it after saving.
    let dir = scratch("problems");
    let path = dir.join("wall.ron");
    let saved = doc
        .save_as(&path)
        .expect("saving a level with problems is allowed");
    assert_eq!(saved, problems);
    let text = fs::read_to_string(&path).expect("read");
    let reported = load_str(&text, "wall.ron").expect_err("has a problem");
    assert_eq!(reported.len(), 1);
    assert_eq!(p.line_col, Some((reported[0].line, reported[0].col)));
    assert!(
        p.to_string()
            .starts_with(&format!("{}:{}: ", reported[0].line, reported[0].col))
    );
}

fn check_with_binary(path: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .arg("check")
        .arg(path)
        .output()
        .expect("run skirmish check")
}

#[test]
fn save_reopen_equal_and_the_binary_accepts_it() {
    let dir = scratch("save");
    let path = dir.join("made.ron");
    let mut doc = valid_doc();
    assert_eq!(
        doc.save().err().map(|e| e.to_string()),
        Some(SaveError::NoPath.to_string())
    );
    assert!(doc.is_dirty());
    let problems = doc.save_as(&path).expect("save");
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(!doc.is_dirty());
    assert_eq!(doc.path(), Some(path.as_path()));

    let out = check_with_binary(&path);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );

    let reopened = EditorDoc::open(&path).expect("reopen");
    assert_eq!(reopened.level(), doc.level());
    assert!(!reopened.is_dirty());
    // Terrain stays rows of characters.
    let text = fs::read_to_string(&path).expect("read");
    assert!(text.contains("\"...~~...\","), "{text}");

    // A second save keeps the first as .bak; undo back to the saved state is clean.
    doc.paint(c(7, 0), 1, Terrain::Difficult);
    assert!(doc.is_dirty());
    assert!(doc.undo());
    assert!(!doc.is_dirty());
    assert!(doc.redo());
    doc.save().expect("save again");
    let bak = load_file(&backup_path(&path)).expect("backup loads");
    assert_eq!(&bak, reopened.level());
    assert_eq!(&load_file(&path).expect("loads"), doc.level());
    // Undoing past a save makes the doc dirty; a new edit then makes the saved
    // state unreachable, so it stays dirty.
    assert!(doc.undo());
    assert!(doc.is_dirty());
    doc.paint(c(6, 0), 1, Terrain::Difficult);
    assert!(doc.undo());
    assert!(doc.is_dirty());
}

#[test]
fn flow_skills_size_and_weapons_edit_undo_save_and_check() {
    let dir = scratch("flowform");
    let path = dir.join("flow.ron");
    let mut doc = EditorDoc::new_level("Flow", GridKind::Hex, (8, 6), "flow").expect("new");
    let templates = templates();
    let sellsword = template("Sellsword");
    assert_eq!(sellsword.ruleset, "flow");
    doc.place_unit(UnitSource::Template(&sellsword), "Blue", c(0, 0))
        .expect("sellsword");
    doc.place_unit(UnitSource::Blank, "Red", c(7, 5))
        .expect("blank");
    let start = doc.level().clone();
    assert_eq!(start.units[0].skills.get("Melee"), Some(&55));
    assert_eq!(start.units[0].weapons[0].name, "Sword");
    assert!(doc.problems().is_empty(), "{:#?}", doc.problems());

    // Skills: only the ruleset's, set and removed, one undo step each.
    assert!(skill_form("flow").contains(&"Ranged"));
    doc.set_skill(1, "Ranged", Some(70)).expect("ranged");
    assert_eq!(doc.level().units[1].skills.get("Ranged"), Some(&70));
    doc.set_skill(0, "Melee", None).expect("untrain");
    assert_eq!(doc.level().units[0].skills.get("Melee"), None);
    assert!(matches!(
        doc.set_skill(0, "Cooking", Some(5)),
        Err(EditError::UnknownSkill { .. })
    ));
    // Size.
    doc.set_size(1, Size::Large).expect("size");
    assert_eq!(doc.level().units[1].size, Size::Large);
    // Weapons: a template weapon becomes the blank unit's primary.
    let choices = weapon_choices("flow", &templates);
    let halberd = choices
        .iter()
        .find(|w| w.name == "Halberd")
        .expect("halberd offered")
        .clone();
    doc.set_weapons(1, vec![halberd.clone()]).expect("weapons");
    assert_eq!(doc.level().units[1].weapons, vec![halberd]);
    assert_eq!(doc.level().units[1].weapons[0].held, Hand::Main);
    let edited = doc.level().clone();

    // Four edits, four undo steps back to the start, and redo to the end.
    for _ in 0..4 {
        assert!(doc.undo());
    }
    assert_eq!(doc.level().units, start.units);
    for _ in 0..4 {
        assert!(doc.redo());
    }
    assert_eq!(doc.level(), &edited);

    // Saved, reloaded equal, and accepted by `skirmish check`.
    let problems = doc.save_as(&path).expect("save");
    assert!(problems.is_empty(), "{problems:#?}");
    assert_eq!(&load_file(&path).expect("loads"), doc.level());
    assert_eq!(EditorDoc::open(&path).expect("reopen").level(), doc.level());
    let text = fs::read_to_string(&path).expect("read");
    assert!(text.contains("Halberd") && text.contains("Large"), "{text}");
    let out = check_with_binary(&path);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );

    // `phases` has none of these fields.
    let mut phases = valid_doc();
    assert!(skill_form("phases").is_empty());
    assert!(phases.set_skill(0, "Melee", Some(50)).is_err());
    assert!(phases.set_size(0, Size::Large).is_err());
    assert!(phases.set_weapons(0, Vec::new()).is_err());
    assert!(weapon_choices("phases", &templates).is_empty());

    // A flow template's weapons and skills are checked like a level's, at their line.
    let bad = scratch("flowtemplates");
    fs::write(
        bad.join("bad.ron"),
        "(\n    ruleset: \"flow\",\n    name: \"Bad\",\n    stats: {\"AgiMod\": 0},\n    skills: {\"Melee\": 40, \"Cooking\": 5},\n    weapons: [(name: \"Zap\", damage: \"2x6\")],\n)\n",
    )
    .expect("write");
    let problems = load_templates(&bad).expect_err("bad flow template");
    let lines: Vec<usize> = problems.iter().map(|p| p.line).collect();
    assert_eq!(lines, [5, 6], "{problems:#?}");
}

/// One editing step of a session.
type Step = Box<dyn Fn(&mut EditorDoc)>;

#[test]
fn every_saved_file_passes_check() {
    // Each state along an editing session, when valid, saves to a checked file.
    let dir = scratch("every");
    let mut doc = valid_doc();
    let shaman = template("Shaman");
    let steps: Vec<Step> = vec![
        Box::new(|d| {
            d.flood_fill(c(7, 0), Terrain::Difficult);
        }),
        Box::new(|d| {
            d.place_unit(UnitSource::Blank, "Red", c(6, 5))
                .expect("blank");
        }),
        Box::new(move |d| {
            d.place_unit(UnitSource::Template(&shaman), "Red", c(6, 4))
                .expect("shaman");
        }),
        Box::new(|d| {
            d.add_side("Green").expect("green");
            d.place_unit(UnitSource::Blank, "Green", c(1, 5))
                .expect("green unit");
        }),
        Box::new(|d| d.rename_side(0, "Wardens").expect("rename")),
        Box::new(|d| d.set_stat(0, "Speed", Some(4)).expect("speed")),
        Box::new(|d| {
            d.resize((20, 12)).expect("grow");
        }),
        Box::new(|d| d.set_grid(GridKind::Hex)),
    ];
    let mut files = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        step(&mut doc);
        let path = dir.join(format!("step{i}.ron"));
        let problems = doc.save_as(&path).expect("save");
        assert!(problems.is_empty(), "step {i}: {problems:#?}");
        assert_eq!(&load_file(&path).expect("loads"), doc.level());
        files.push(path);
    }
    let out = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .arg("check")
        .args(&files)
        .output()
        .expect("run");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn open_keeps_invalid_levels_editable_and_reports_syntax_errors() {
    let dir = scratch("open");
    let path = dir.join("broken.ron");
    let mut level = valid_doc().level().clone();
    level.units[0].pos = (30, 0);
    level.terrain[1] = "..x".into();
    fs::write(&path, skirmish::level::to_ron_string(&level)).expect("write");
    let mut doc = EditorDoc::open(&path).expect("an invalid level still opens");
    let problems = doc.problems();
    assert!(
        problems.iter().any(|p| p.cell == Some(c(30, 0))),
        "{problems:#?}"
    );
    assert!(
        problems.iter().any(|p| p.cell == Some(c(2, 1))),
        "{problems:#?}"
    );
    // Painting normalizes the malformed row first, as part of the same step.
    doc.paint(c(5, 1), 1, Terrain::Difficult);
    assert_eq!(doc.level().terrain[1], "..x..~..");
    assert!(doc.undo());
    assert_eq!(doc.level().terrain[1], "..x");
    doc.move_unit(0, c(1, 0)).expect("move back on the map");
    doc.paint(c(2, 1), 1, Terrain::Open);
    assert!(doc.problems().is_empty(), "{:#?}", doc.problems());

    let bad = dir.join("syntax.ron");
    fs::write(
        &bad,
        "(\n  name: \"x\",\n  ruleset: \"phases\" grid: Square,\n)",
    )
    .expect("write");
    let problems = EditorDoc::open(&bad).expect_err("syntax error");
    assert_eq!(problems.len(), 1);
    assert_eq!(
        (problems[0].line, problems[0].file.ends_with("syntax.ron")),
        (3, true)
    );
    let missing = EditorDoc::open(&dir.join("nope.ron")).expect_err("missing file");
    assert!(missing[0].message.starts_with("cannot read"));
}

#[test]
fn shipped_templates_load_and_bad_ones_get_file_line_col() {
    let all = templates();
    let mut names: Vec<_> = all.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "Archer",
            "Axe Brute",
            "Bowman",
            "Brigand",
            "Brigand chief",
            "Cleric",
            "Cutthroat",
            "Fighter",
            "Fire mage",
            "Goblin",
            "Goblin Raider",
            "Halberdier",
            "Harpy",
            "Hedge Mage",
            "Huntress",
            "Knight",
            "Ogre",
            "Ogre Brute",
            "Orc Berserker",
            "Ranger",
            "Scout",
            "Sellsword",
            "Shaman",
            "Skeleton",
            "Spearman",
            "Sun Priest",
            "Sword-for-hire",
            "Swordsman",
            "Wight",
            "Wizard"
        ]
    );
    assert!(all.iter().all(|t| {
        ["phases", "flow", "escalation", "wounds", "actfast"].contains(&t.ruleset.as_str())
            && !t.about.is_empty()
    }));
    assert!(
        all.iter()
            .filter(|t| t.ruleset == "flow")
            .all(|t| !t.weapons.is_empty() && !t.skills.is_empty())
    );
    let builtin = load_default_templates().expect("builtin");
    assert_eq!(builtin.len(), all.len());

    let dir = scratch("templates");
    fs::write(
        dir.join("a_bad_stat.ron"),
        "(\n    ruleset: \"phases\",\n    name: \"Brute\",\n    stats: {\"INT\": 0, \"AGI\": 0, \"ATK\": 3, \"DEF\": 11, \"Tier\": 1, \"Int\": 2},\n)\n",
    )
    .expect("write");
    fs::write(
        dir.join("b_syntax.ron"),
        "(\n    ruleset: \"phases\",\n    name: \"Oops\"\n    stats: {},\n)\n",
    )
    .expect("write");
    fs::write(
        dir.join("c_dice.ron"),
        "// comment with stats: and powers: in it\n(\n    ruleset: \"phases\",\n    name: \"Dicey\",\n    stats: {\"INT\": 0, \"AGI\": 0, \"ATK\": 3, \"DEF\": 11, \"Tier\": 1},\n    powers: [(name: \"Zap\", damage: \"2x6\")],\n)\n",
    )
    .expect("write");
    fs::write(
        dir.join("d_dup.ron"),
        "(ruleset: \"phases\", name: \"Dicey\", stats: {\"INT\": 0, \"AGI\": 0, \"ATK\": 3, \"DEF\": 11, \"Tier\": 1})",
    )
    .expect("write");
    fs::write(
        dir.join("e_dup.ron"),
        "(ruleset: \"phases\", name: \"Twin\", stats: {\"INT\": 0, \"AGI\": 0, \"ATK\": 3, \"DEF\": 11, \"Tier\": 1})",
    )
    .expect("write");
    fs::write(
        dir.join("f_dup.ron"),
        "(\n ruleset: \"phases\",\n name: \"Twin\", stats: {\"INT\": 0, \"AGI\": 0, \"ATK\": 3, \"DEF\": 11, \"Tier\": 1})",
    )
    .expect("write");
    fs::write(dir.join("notes.txt"), "not a template").expect("write");
    let problems = load_templates(&dir).expect_err("bad templates");
    let lines: Vec<String> = problems
        .iter()
        .map(|p| {
            let file = Path::new(&p.file)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned());
            format!("{}:{}:{}", file.unwrap_or_default(), p.line, p.col)
        })
        .collect();
    assert_eq!(
        lines,
        [
            "a_bad_stat.ron:4:65",
            "b_syntax.ron:4:5",
            "c_dice.ron:6:5",
            "f_dup.ron:3:2"
        ],
        "{problems:#?}"
    );
    assert!(
        problems[0].message.contains("did you mean `INT`"),
        "{}",
        problems[0].message
    );
    assert!(
        problems[2].message.contains("2x6"),
        "{}",
        problems[2].message
    );
    assert!(
        problems[3]
            .message
            .contains("duplicate template name `Twin`")
    );
}

#[test]
fn unit_and_side_traits_edit_undo_list_their_problems_save_and_reopen() {
    let dir = scratch("traits");
    let path = dir.join("traits.ron");
    let mut doc = valid_doc();
    let knight = doc.unit_named("Knight").expect("knight");
    let phrases = |list: &[&str]| list.iter().map(|p| p.to_string()).collect::<Vec<_>>();

    // One undo step each; setting the same traits again is no step.
    doc.set_unit_traits(knight, phrases(&["Fast", "Resist Fire 14+"]))
        .expect("unit traits");
    doc.set_side_traits(1, phrases(&["Enemies"]))
        .expect("side traits");
    let steps = doc.revision();
    doc.set_side_traits(1, phrases(&["Enemies"]))
        .expect("same traits");
    assert_eq!(doc.revision(), steps);
    assert_eq!(
        doc.set_unit_traits(9, vec![]),
        Err(EditError::NoSuchUnit(9))
    );
    assert_eq!(
        doc.set_side_traits(7, vec![]),
        Err(EditError::NoSuchSide(7))
    );

    // phases reads no traits: each phrase is a live problem, a unit's at its cell,
    // at the line and column `skirmish check` gives after saving.
    let problems = doc.problems();
    let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "side `Red` trait `Enemies`: `phases` reads no side traits",
            "unit `Knight` trait `Fast`: `phases` reads no unit traits",
            "unit `Knight` trait `Resist Fire 14+`: `phases` reads no unit traits",
        ]
    );
    assert_eq!(problems[0].at, Where::SideTrait { side: 1, index: 0 });
    assert_eq!(problems[0].cell, None);
    assert_eq!(problems[1].cell, Some(c(0, 0)));
    let saved = doc.save_as(&path).expect("save with problems");
    assert_eq!(saved, problems);
    let text = fs::read_to_string(&path).expect("read");
    let reported = load_str(&text, "traits.ron").expect_err("problems");
    let mut places: Vec<_> = problems.iter().map(|p| p.line_col).collect();
    places.sort();
    let mut expected: Vec<_> = reported.iter().map(|p| Some((p.line, p.col))).collect();
    expected.sort();
    assert_eq!(places, expected);

    // The file keeps both kinds of traits.
    let reopened = EditorDoc::open(&path).expect("reopen");
    assert_eq!(reopened.level(), doc.level());
    assert_eq!(reopened.level().sides[1].traits, ["Enemies"]);
    assert_eq!(
        reopened.level().units[knight].traits,
        ["Fast", "Resist Fire 14+"]
    );

    // Undo and redo each step; emptied, the level is valid again.
    assert!(doc.undo());
    assert!(doc.level().sides[1].traits.is_empty());
    assert!(doc.undo());
    assert!(doc.level().units[knight].traits.is_empty());
    assert!(doc.problems().is_empty(), "{:#?}", doc.problems());
    assert!(doc.redo());
    assert_eq!(
        doc.level().units[knight].traits,
        ["Fast", "Resist Fire 14+"]
    );
    doc.set_unit_traits(knight, vec![]).expect("clear");
    assert!(doc.problems().is_empty(), "{:#?}", doc.problems());
}

#[test]
fn a_template_trait_the_ruleset_refuses_is_reported_at_the_phrase() {
    let dir = scratch("template-traits");
    fs::write(
        dir.join("quick.ron"),
        "(\n    ruleset: \"phases\",\n    name: \"Quick\",\n    stats: {\"INT\": 0, \"AGI\": 0, \"ATK\": 3, \"DEF\": 11, \"Tier\": 1},\n    traits: [\"Fast\", \"Flying\"],\n)\n",
    )
    .expect("write");
    let problems = load_templates(&dir).expect_err("phases reads no traits");
    let found: Vec<(usize, usize, &str)> = problems
        .iter()
        .map(|p| (p.line, p.col, p.message.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (
                5,
                14,
                "unit `Quick` trait `Fast`: `phases` reads no unit traits"
            ),
            (
                5,
                22,
                "unit `Quick` trait `Flying`: `phases` reads no unit traits"
            ),
        ]
    );
}

#[test]
fn random_edit_sessions_undo_to_the_start_and_redo_to_the_end() {
    let knight = template("Knight");
    for seed in 1..=20u64 {
        let grid = if seed % 2 == 0 {
            GridKind::Hex
        } else {
            GridKind::Square
        };
        let mut doc = EditorDoc::new_level("r", grid, (9, 7), "phases").expect("new");
        let start = doc.level().clone();
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n) as i32
        };
        let mut steps = 0;
        for _ in 0..60 {
            let cell = c(next(11) - 1, next(9) - 1);
            let t = Terrain::ALL[next(3) as usize];
            let units = doc.level().units.len() as u64;
            let before = doc.level().clone();
            let before_steps = doc.can_undo();
            match next(11) {
                0 => {
                    doc.paint(cell, next(3) as u32 + 1, t);
                }
                1 => {
                    doc.fill_rect(cell, c(next(9), next(7)), t);
                }
                2 => {
                    doc.flood_fill(cell, t);
                }
                3 => {
                    let side = if next(2) == 0 { "Blue" } else { "Red" };
                    let _ = doc.place_unit(UnitSource::Template(&knight), side, cell);
                }
                4 if units > 0 => {
                    let _ = doc.move_unit(next(units) as usize, cell);
                }
                5 if units > 0 => {
                    let _ = doc.delete_unit(next(units) as usize);
                }
                6 if units > 0 => {
                    let _ = doc.set_stat(next(units) as usize, "ATK", Some(next(6)));
                }
                7 => {
                    let _ = doc.resize((next(12) as u32 + 1, next(10) as u32 + 1));
                }
                8 => {
                    doc.begin_stroke();
                    for _ in 0..next(5) {
                        doc.paint(c(next(9), next(7)), 1, t);
                    }
                    doc.end_stroke();
                }
                9 => {
                    let name = doc.fresh_side_name("S");
                    let _ = doc.add_side(&name);
                }
                _ => {
                    let sides = doc.level().sides.len() as u64;
                    if sides > 0 {
                        let _ = doc.rename_side(next(sides) as usize, &format!("N{}", next(4)));
                    }
                }
            }
            if doc.level() != &before {
                steps += 1;
            } else {
                assert_eq!(doc.can_undo(), before_steps, "no-op recorded a step");
            }
        }
        let end = doc.level().clone();
        let mut undone = 0;
        while doc.undo() {
            undone += 1;
        }
        assert_eq!(doc.level(), &start, "seed {seed}");
        assert!(
            undone <= steps && undone > 0,
            "seed {seed}: {undone} undos, {steps} changes"
        );
        while doc.redo() {}
        assert_eq!(doc.level(), &end, "seed {seed}");
    }
}

#[test]
fn the_watcher_reports_changed_content_once() {
    let dir = scratch("watch");
    let path = dir.join("live.ron");
    let mut doc = valid_doc();
    doc.save_as(&path).expect("save");
    let mut watcher = LevelWatcher::new(&path);
    assert_eq!(watcher.path(), path.as_path());
    assert!(watcher.poll().is_none(), "nothing changed yet");

    // Saved by the editor (rename over the file): reloads.
    doc.paint(c(7, 0), 1, Terrain::Difficult);
    doc.save().expect("save");
    match watcher.poll() {
        Some(Ok(level)) => assert_eq!(&level, doc.level()),
        other => panic!("expected a reload, got {other:?}"),
    }
    assert!(watcher.poll().is_none(), "reported once");

    // Rewritten in place with the same content: nothing to reload.
    let text = fs::read_to_string(&path).expect("read");
    fs::write(&path, &text).expect("rewrite");
    assert!(watcher.poll().is_none());

    // A text editor writes a broken level: its problems, then the fix reloads.
    fs::write(&path, text.replace("\"Goblin\"", "\"Knight\"")).expect("write bad");
    bump_mtime(&path);
    match watcher.poll() {
        Some(Err(problems)) => assert!(problems[0].message.contains("duplicate unit name")),
        other => panic!("expected problems, got {other:?}"),
    }
    fs::write(&path, &text).expect("write good");
    bump_mtime(&path);
    assert!(matches!(watcher.poll(), Some(Ok(_))));

    // A missing file is quiet until it comes back.
    fs::remove_file(&path).expect("remove");
    assert!(watcher.poll().is_none());
}

/// Makes sure an in-place rewrite changes the modification time even on file
/// systems with coarse timestamps.
fn bump_mtime(path: &Path) {
    let file = fs::File::options().append(true).open(path).expect("open");
    let later = std::time::SystemTime::now() + Duration::from_secs(2);
    file.set_modified(later).expect("set mtime");
}

/// Env var that turns [`save_loop_child`] into a process that saves forever.
const CHILD_ENV: &str = "SKIRMISH_EDITOR_SAVE_LOOP";

/// Two big, different, valid levels (about 50 KB of RON each).
fn big_levels() -> (Level, Level) {
    let mut a = EditorDoc::new_level("Big A", GridKind::Square, (200, 200), "phases").expect("a");
    a.fill_rect(c(0, 0), c(199, 99), Terrain::Difficult);
    let mut b = EditorDoc::new_level("Big B", GridKind::Hex, (200, 200), "phases").expect("b");
    b.fill_rect(c(0, 100), c(199, 199), Terrain::Difficult);
    for doc in [&mut a, &mut b] {
        for i in 0..60 {
            let side = if i % 2 == 0 { "Blue" } else { "Red" };
            doc.place_unit(
                UnitSource::Template(&template("Archer")),
                side,
                c(i * 3, 150),
            )
            .expect("place");
        }
    }
    (a.level().clone(), b.level().clone())
}

/// Not a test on its own: run by [`a_kill_during_save_leaves_the_old_or_the_new_file`]
/// as a child process that saves two levels in turn until it is killed.
#[test]
fn save_loop_child() {
    let Some(target) = std::env::var_os(CHILD_ENV) else {
        return;
    };
    let (a, b) = big_levels();
    let mut docs = [
        EditorDoc::from_level(a, Some(PathBuf::from(&target))),
        EditorDoc::from_level(b, Some(PathBuf::from(&target))),
    ];
    let started = Instant::now();
    let mut i = 0;
    // Bounded, in case the parent dies without killing us.
    while started.elapsed() < Duration::from_secs(60) {
        docs[i % 2].save().expect("save");
        i += 1;
    }
}

#[test]
fn a_kill_during_save_leaves_the_old_or_the_new_file() {
    let dir = scratch("kill");
    let target = dir.join("big.ron");
    let (a, b) = big_levels();
    EditorDoc::from_level(a.clone(), None)
        .save_as(&target)
        .expect("first save");
    let exe = std::env::current_exe().expect("test binary");
    // Kill at varying moments until several kills have landed in the middle of a
    // write (a temporary file was left behind), at least 24 rounds, at most 200.
    let mut kills_mid_write = 0;
    let mut rounds = 0;
    for round in 0..200u64 {
        if round >= 24 && kills_mid_write >= 3 {
            break;
        }
        rounds += 1;
        let before = fs::read(&target).expect("read");
        let mut child = Command::new(&exe)
            .args([
                "editor::save_loop_child",
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, &target)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn child");
        // Wait until it is writing, then kill it at a varying moment.
        let start = Instant::now();
        while fs::read(&target).is_ok_and(|now| now == before)
            && start.elapsed() < Duration::from_secs(30)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(Duration::from_micros(500 + (round * 7919) % 40_000));
        child.kill().expect("kill");
        child.wait().expect("reap");

        let level = load_file(&target).unwrap_or_else(|p| panic!("round {round}: {p:#?}"));
        assert!(
            level == a || level == b,
            "round {round}: neither old nor new"
        );
        if let Ok(bak) = load_file(&backup_path(&target)) {
            assert!(bak == a || bak == b, "round {round}: backup is neither");
        }
        // Count rounds where the kill left a temporary file: it hit mid-write.
        let temps = fs::read_dir(&dir)
            .expect("dir")
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
            .count();
        if temps > 0 {
            kills_mid_write += 1;
        }
        for e in fs::read_dir(&dir).expect("dir").filter_map(Result::ok) {
            if e.file_name().to_string_lossy().starts_with('.') {
                let _ = fs::remove_file(e.path());
            }
        }
    }
    assert!(
        kills_mid_write > 0,
        "no kill in {rounds} rounds interrupted a write; the test did not test the write path"
    );
    eprintln!("kills that interrupted a write: {kills_mid_write} of {rounds}");
}
