//! The editor window's logic, headless: how tools, text fields, dialogs and keys map
//! to `EditorDoc` operations (`skirmish::game::editor::{state, control}`), without
//! a window.
#![cfg(feature = "render")]

use std::path::PathBuf;

use bevy::input::keyboard::KeyCode;
use skirmish::editor::{EditorDoc, load_default_templates};
use skirmish::engine::board::{Cell, GridKind, Terrain};
use skirmish::engine::rulesets::RULESETS;
use skirmish::game::GameOptions;
use skirmish::game::editor::control::{Typed, act, dialog_key, type_key};
use skirmish::game::editor::initial_editor;
use skirmish::game::editor::input::EditorAction;
use skirmish::game::editor::state::{
    Editor, FormRow, Guarded, Modal, NewLevel, Outcome, TextTarget, Tool, line,
};
use skirmish::level::schema::{AiPolicy, Controller, DecisionPolicy, Size};
use skirmish::level::validate::Where;

fn temp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("editor-ui");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn root() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
}

fn ford() -> Editor {
    root();
    let doc = EditorDoc::open("levels/ford.ron".as_ref()).unwrap();
    let mut ed = Editor::new(doc, load_default_templates().unwrap());
    ed.replace_doc(ed.doc.clone());
    ed
}

fn blank(ruleset: &str) -> Editor {
    let doc = EditorDoc::new_level("T", GridKind::Square, (8, 6), ruleset).unwrap();
    Editor::new(doc, load_default_templates().unwrap())
}

fn typ(ed: &mut Editor, text: &str) -> Outcome {
    for c in text.chars() {
        type_key(
            ed,
            &Typed {
                code: KeyCode::KeyA,
                text: Some(c.to_string()),
            },
        );
    }
    type_key(
        ed,
        &Typed {
            code: KeyCode::Enter,
            text: None,
        },
    )
}

fn clear(ed: &mut Editor) {
    for _ in 0..200 {
        type_key(
            ed,
            &Typed {
                code: KeyCode::Backspace,
                text: None,
            },
        );
    }
}

fn ch(ed: &Editor, x: i32, y: i32) -> char {
    ed.doc.level().terrain[y as usize]
        .chars()
        .nth(x as usize)
        .unwrap()
}

#[test]
fn a_drag_stroke_paints_a_gapless_line_and_undoes_in_one_step() {
    let mut ed = blank("phases");
    ed.terrain = Terrain::Difficult;
    ed.press(Cell::new(0, 0));
    ed.drag_to(Cell::new(5, 0)); // a fast move: the cells between are painted too
    ed.drag_to(Cell::new(5, 2));
    ed.release(Some(Cell::new(5, 2)));
    assert_eq!(ed.doc.level().terrain[0], "~~~~~~..");
    assert_eq!(ch(&ed, 5, 1), '~');
    assert_eq!(ch(&ed, 5, 2), '~');
    assert!(ed.doc.is_dirty());
    act(&mut ed, EditorAction::Undo);
    assert!(ed.doc.level().terrain.iter().all(|r| !r.contains('~')));
    assert!(!ed.doc.can_undo(), "the whole stroke was one step");
    act(&mut ed, EditorAction::Redo);
    assert_eq!(ed.doc.level().terrain[0], "~~~~~~..");
    assert_eq!(line(Cell::new(0, 0), Cell::new(3, 1)).len(), 4);
}

#[test]
fn brush_size_rect_and_flood_tools_map_to_their_doc_calls() {
    let mut ed = blank("phases");
    act(&mut ed, EditorAction::BrushBigger);
    for _ in 0..50 {
        act(&mut ed, EditorAction::BrushBigger);
    }
    assert_eq!(ed.brush, skirmish::editor::MAX_BRUSH);
    for _ in 0..50 {
        act(&mut ed, EditorAction::BrushSmaller);
    }
    assert_eq!(ed.brush, 1);
    act(&mut ed, EditorAction::BrushBigger); // size 2: a 3x3 square
    ed.press(Cell::new(2, 2));
    ed.release(Some(Cell::new(2, 2)));
    let walls: usize = ed
        .doc
        .level()
        .terrain
        .iter()
        .map(|r| r.matches('#').count())
        .sum();
    assert_eq!(walls, 9);

    act(&mut ed, EditorAction::ToolRect);
    // The terrain key cycles every kind: Impassable -> Water -> Climb -> Open ->
    // Difficult.
    let mut seen = Vec::new();
    for _ in 0..4 {
        act(&mut ed, EditorAction::NextTerrain);
        seen.push(ed.terrain);
    }
    assert_eq!(
        seen,
        [
            Terrain::Water,
            Terrain::Climb,
            Terrain::Open,
            Terrain::Difficult
        ]
    );
    ed.press(Cell::new(7, 5));
    ed.release(Some(Cell::new(5, 4)));
    assert_eq!(&ed.doc.level().terrain[4][5..], "~~~");
    assert_eq!(&ed.doc.level().terrain[5][5..], "~~~");

    act(&mut ed, EditorAction::ToolFill);
    ed.terrain = Terrain::Open;
    ed.press(Cell::new(2, 2)); // the 3x3 wall block becomes open again
    let walls: usize = ed
        .doc
        .level()
        .terrain
        .iter()
        .map(|r| r.matches('#').count())
        .sum();
    assert_eq!(walls, 0);
    assert!(
        ed.status
            .as_ref()
            .is_some_and(|(m, _)| m.contains("Filled 9 cells"))
    );
}

#[test]
fn unit_tool_places_templates_of_the_levels_ruleset_for_the_selected_side() {
    let mut ed = blank("phases");
    let names: Vec<String> = ed.placeable().iter().map(|t| t.name.clone()).collect();
    assert!(names.contains(&"Knight".to_string()));
    assert!(ed.placeable().iter().all(|t| t.ruleset == "phases"));
    act(&mut ed, EditorAction::ToolUnit);
    while ed.template_name() != "Knight" {
        act(&mut ed, EditorAction::NextTemplate);
    }
    ed.press(Cell::new(1, 1));
    act(&mut ed, EditorAction::NextSide);
    ed.press(Cell::new(6, 4));
    let units = &ed.doc.level().units;
    assert_eq!(units.len(), 2);
    assert_eq!(
        (units[0].name.as_str(), units[0].side.as_str()),
        ("Knight", "Blue")
    );
    assert_eq!(
        (units[1].name.as_str(), units[1].side.as_str()),
        ("Knight 2", "Red")
    );
    assert_eq!(units[0].stats.get("Tier"), Some(&2));
    // Pressing on a unit with the unit tool selects it instead of placing.
    ed.press(Cell::new(1, 1));
    assert_eq!(ed.selected, Some(0));
    assert_eq!(ed.doc.level().units.len(), 2);
    // A blank unit gets the ruleset's required stats at their defaults.
    ed.template = 0;
    ed.press(Cell::new(3, 3));
    let blank_unit = &ed.doc.level().units[2];
    assert_eq!(blank_unit.name, "Unit");
    assert_eq!(blank_unit.stats.get("DEF"), Some(&11));
    assert!(ed.problems.is_empty(), "{:?}", ed.problems);
    // Can't place onto a wall: refused with a message, nothing changes.
    ed.doc.paint(Cell::new(0, 5), 1, Terrain::Impassable);
    ed.press(Cell::new(0, 5));
    assert_eq!(ed.doc.level().units.len(), 3);
    assert!(
        ed.status
            .as_ref()
            .is_some_and(|(m, err)| *err && m.contains("impassable"))
    );
}

#[test]
fn select_tool_drags_units_and_deletes_them() {
    let mut ed = ford();
    act(&mut ed, EditorAction::ToolSelect);
    let knight = ed.doc.unit_named("Knight").unwrap();
    let from = ed.doc.level().units[knight].cell();
    ed.press(from);
    assert_eq!(ed.selected, Some(knight));
    ed.drag_to(Cell::new(0, 0));
    ed.release(Some(Cell::new(0, 0)));
    assert_eq!(ed.doc.level().units[knight].cell(), Cell::new(0, 0));
    // Onto a wall: refused.
    ed.press(Cell::new(0, 0));
    ed.release(Some(Cell::new(0, 4)));
    assert_eq!(ed.doc.level().units[knight].cell(), Cell::new(0, 0));
    assert!(ed.status.as_ref().is_some_and(|(_, err)| *err));
    act(&mut ed, EditorAction::DeleteUnit);
    assert!(ed.doc.unit_named("Knight").is_none());
    assert_eq!(ed.selected, None);
    act(&mut ed, EditorAction::Undo);
    assert!(ed.doc.unit_named("Knight").is_some());
}

#[test]
fn the_unit_form_comes_from_the_ruleset_and_edits_by_keys_and_typing() {
    for ruleset in RULESETS {
        let mut ed = blank(ruleset);
        act(&mut ed, EditorAction::ToolUnit);
        ed.press(Cell::new(2, 2));
        let stats: Vec<&str> = ed
            .form()
            .iter()
            .filter_map(|r| match r {
                FormRow::Stat(f) => Some(f.name),
                _ => None,
            })
            .collect();
        let expected: Vec<&str> = skirmish::editor::stat_form(ruleset)
            .iter()
            .map(|f| f.name)
            .collect();
        assert_eq!(stats, expected, "{ruleset}");
        assert_eq!(ed.form()[0], FormRow::Name);
    }
    let mut ed = blank("phases");
    act(&mut ed, EditorAction::ToolUnit);
    ed.press(Cell::new(2, 2));
    let tier = ed
        .form()
        .iter()
        .position(|r| matches!(r, FormRow::Stat(f) if f.name == "Tier"))
        .unwrap();
    for _ in 0..tier {
        act(&mut ed, EditorAction::NextField);
    }
    act(&mut ed, EditorAction::Increase);
    act(&mut ed, EditorAction::Increase);
    assert_eq!(ed.doc.level().units[0].stats.get("Tier"), Some(&3));
    act(&mut ed, EditorAction::Decrease);
    assert_eq!(ed.doc.level().units[0].stats.get("Tier"), Some(&2));
    // Typing a number.
    act(&mut ed, EditorAction::EditField);
    assert_eq!(
        ed.typing.as_ref().map(|t| (&t.target, t.buffer.as_str())),
        Some((&TextTarget::Stat(0, "Tier"), "2"))
    );
    clear(&mut ed);
    typ(&mut ed, "7");
    assert_eq!(ed.doc.level().units[0].stats.get("Tier"), Some(&7));
    assert!(
        !ed.problems.is_empty(),
        "a Tier of 7 is listed as a problem"
    );
    // Not a number: an error, the field stays open, nothing changes.
    act(&mut ed, EditorAction::EditField);
    clear(&mut ed);
    typ(&mut ed, "x1");
    assert!(ed.typing.is_some());
    assert!(
        ed.status
            .as_ref()
            .is_some_and(|(m, err)| *err && m.contains("not a whole number"))
    );
    type_key(
        &mut ed,
        &Typed {
            code: KeyCode::Escape,
            text: None,
        },
    );
    assert!(ed.typing.is_none());
    assert_eq!(ed.doc.level().units[0].stats.get("Tier"), Some(&7));
    // An optional stat typed empty is removed; a required one can't be.
    let hp = ed
        .form()
        .iter()
        .position(|r| matches!(r, FormRow::Stat(f) if f.name == "HP"))
        .unwrap();
    ed.field = hp;
    act(&mut ed, EditorAction::Increase);
    assert_eq!(ed.doc.level().units[0].stats.get("HP"), Some(&1));
    act(&mut ed, EditorAction::EditField);
    clear(&mut ed);
    typ(&mut ed, "");
    assert_eq!(ed.doc.level().units[0].stats.get("HP"), None);
    ed.field = tier;
    act(&mut ed, EditorAction::EditField);
    clear(&mut ed);
    typ(&mut ed, "");
    assert!(
        ed.status
            .as_ref()
            .is_some_and(|(m, err)| *err && m.contains("required"))
    );
    // Name and side rows.
    ed.field = 0;
    act(&mut ed, EditorAction::EditField);
    clear(&mut ed);
    typ(&mut ed, "Hero");
    assert_eq!(ed.doc.level().units[0].name, "Hero");
    ed.field = 1;
    act(&mut ed, EditorAction::Increase);
    assert_eq!(ed.doc.level().units[0].side, "Red");
}

/// The index of `row` in the selected unit's form.
fn row_at(ed: &Editor, row: FormRow) -> usize {
    ed.form().iter().position(|r| *r == row).unwrap()
}

#[test]
fn the_flow_form_edits_skills_size_and_the_primary_weapon() {
    let mut ed = blank("flow");
    act(&mut ed, EditorAction::ToolUnit);
    ed.template = 0; // a blank unit
    ed.press(Cell::new(2, 2));
    assert_eq!(ed.selected, Some(0));
    let form = ed.form();
    let skills: Vec<&str> = form
        .iter()
        .filter_map(|r| match r {
            FormRow::Skill(s) => Some(*s),
            _ => None,
        })
        .collect();
    assert_eq!(skills, skirmish::engine::rulesets::flow::SKILLS);
    assert!(form.contains(&FormRow::Size) && form.contains(&FormRow::Weapons));

    // A skill: +/- (kept within 0-100) and typing.
    ed.field = row_at(&ed, FormRow::Skill("Melee"));
    act(&mut ed, EditorAction::Increase);
    act(&mut ed, EditorAction::Increase);
    assert_eq!(ed.doc.level().units[0].skills.get("Melee"), Some(&2));
    act(&mut ed, EditorAction::EditField);
    assert_eq!(
        ed.typing.as_ref().map(|t| (&t.target, t.buffer.as_str())),
        Some((&TextTarget::Skill(0, "Melee"), "2"))
    );
    clear(&mut ed);
    typ(&mut ed, "100");
    assert_eq!(ed.doc.level().units[0].skills.get("Melee"), Some(&100));
    act(&mut ed, EditorAction::Increase);
    assert_eq!(ed.doc.level().units[0].skills.get("Melee"), Some(&100));
    assert_eq!(ed.row_value(FormRow::Skill("Melee")), "100");
    act(&mut ed, EditorAction::EditField);
    clear(&mut ed);
    typ(&mut ed, "150");
    assert!(ed.typing.is_some(), "out of range stays open");
    assert_eq!(ed.doc.level().units[0].skills.get("Melee"), Some(&100));
    clear(&mut ed);
    typ(&mut ed, "");
    assert_eq!(ed.doc.level().units[0].skills.get("Melee"), None);

    // Size cycles through the categories.
    ed.field = row_at(&ed, FormRow::Size);
    assert_eq!(ed.row_value(FormRow::Size), "Medium");
    act(&mut ed, EditorAction::Increase);
    assert_eq!(ed.doc.level().units[0].size, Size::Large);
    act(&mut ed, EditorAction::Decrease);
    act(&mut ed, EditorAction::Decrease);
    assert_eq!(ed.doc.level().units[0].size, Size::Small);
    act(&mut ed, EditorAction::Decrease);
    assert_eq!(ed.doc.level().units[0].size, Size::Gargantuan);

    // The primary weapon cycles through the flow templates' weapons, then none.
    let choices: Vec<String> = ed.weapon_choices().into_iter().map(|w| w.name).collect();
    assert!(choices.contains(&"Halberd".to_string()), "{choices:?}");
    ed.field = row_at(&ed, FormRow::Weapons);
    assert_eq!(ed.row_value(FormRow::Weapons), "");
    let mut seen = Vec::new();
    for _ in 0..choices.len() {
        act(&mut ed, EditorAction::Increase);
        let unit = &ed.doc.level().units[0];
        assert_eq!(unit.weapons.len(), 1);
        seen.push(unit.weapons[0].name.clone());
    }
    assert_eq!(seen, choices);
    assert_eq!(ed.row_value(FormRow::Weapons), choices[choices.len() - 1]);
    act(&mut ed, EditorAction::Increase);
    assert!(ed.doc.level().units[0].weapons.is_empty());
    act(&mut ed, EditorAction::Decrease);
    assert_eq!(
        ed.doc.level().units[0].weapons[0].name,
        choices[choices.len() - 1]
    );
    // Each change is one undo step.
    act(&mut ed, EditorAction::Undo);
    assert!(ed.doc.level().units[0].weapons.is_empty());
    act(&mut ed, EditorAction::Undo);
    assert_eq!(ed.doc.level().units[0].weapons.len(), 1);
    assert!(
        !ed.problems.iter().any(|p| matches!(
            p.at,
            Where::Unit { index: 0, .. }
                | Where::Weapon { unit: 0, .. }
                | Where::Skill { unit: 0, .. }
        )),
        "a blank flow unit with a template weapon is valid: {:?}",
        ed.problems
    );

    // The phases form has none of these rows.
    let mut ed = blank("phases");
    act(&mut ed, EditorAction::ToolUnit);
    ed.press(Cell::new(2, 2));
    assert!(
        ed.form()
            .iter()
            .all(|r| !matches!(r, FormRow::Skill(_) | FormRow::Size | FormRow::Weapons))
    );
}

#[test]
fn sides_are_added_renamed_reconfigured_and_removed_with_their_units() {
    let mut ed = ford();
    act(&mut ed, EditorAction::AddSide);
    assert_eq!(ed.doc.level().sides.len(), 3);
    assert_eq!(ed.side, 2);
    act(&mut ed, EditorAction::RenameSide);
    clear(&mut ed);
    typ(&mut ed, "Green");
    assert_eq!(ed.doc.level().sides[2].name, "Green");
    act(&mut ed, EditorAction::RenameSide);
    clear(&mut ed);
    typ(&mut ed, "Blue");
    assert!(
        ed.status
            .as_ref()
            .is_some_and(|(m, err)| *err && m.contains("taken"))
    );
    assert_eq!(ed.doc.level().sides[2].name, "Green");
    let mut seen = Vec::new();
    for _ in 0..5 {
        act(&mut ed, EditorAction::CycleController);
        seen.push(ed.doc.level().sides[2].controller);
    }
    assert_eq!(
        seen,
        [
            Controller::Ai(AiPolicy::Random),
            Controller::Ai(AiPolicy::Easy),
            Controller::Ai(AiPolicy::Normal),
            Controller::Ai(AiPolicy::Hard),
            Controller::Human
        ]
    );
    act(&mut ed, EditorAction::CycleDecisions);
    assert_eq!(ed.doc.level().sides[2].decisions, DecisionPolicy::Auto);
    // Removing Red takes its units along, as one undo step.
    ed.side = 1;
    act(&mut ed, EditorAction::RemoveSide);
    assert!(ed.doc.level().units.iter().all(|u| u.side != "Red"));
    act(&mut ed, EditorAction::Undo);
    assert!(ed.doc.level().units.iter().any(|u| u.side == "Red"));
}

#[test]
fn playtest_is_refused_while_the_level_has_problems() {
    let mut ed = blank("phases");
    assert!(!ed.problems.is_empty(), "sides without units");
    assert_eq!(act(&mut ed, EditorAction::Playtest), Outcome::None);
    assert!(
        ed.status
            .as_ref()
            .is_some_and(|(m, err)| *err && m.starts_with("Can't playtest"))
    );
    act(&mut ed, EditorAction::ToolUnit);
    ed.press(Cell::new(0, 0));
    act(&mut ed, EditorAction::NextSide);
    ed.press(Cell::new(7, 5));
    assert!(ed.problems.is_empty(), "{:?}", ed.problems);
    match act(&mut ed, EditorAction::Playtest) {
        Outcome::Playtest(level) => assert_eq!(level.units.len(), 2),
        other => panic!("expected a playtest, got {other:?}"),
    }
    // Problems jump the cursor to their cell.
    ed.doc.paint(Cell::new(0, 0), 1, Terrain::Impassable);
    ed.refresh();
    act(&mut ed, EditorAction::NextProblem);
    assert_eq!(ed.cursor, Some(Cell::new(0, 0)));
    assert_eq!(ed.jump, Some(Cell::new(0, 0)));
}

#[test]
fn save_as_open_and_the_unsaved_changes_guard() {
    let mut ed = blank("phases");
    act(&mut ed, EditorAction::ToolUnit);
    ed.press(Cell::new(0, 0));
    act(&mut ed, EditorAction::NextSide);
    ed.press(Cell::new(7, 5));
    // No file yet: Save asks where.
    act(&mut ed, EditorAction::Save);
    assert_eq!(ed.modal, Some(Modal::SaveAs));
    let path = temp("saved.ron");
    clear(&mut ed);
    typ(&mut ed, path.with_extension("").to_str().unwrap()); // .ron is added
    assert_eq!(ed.modal, None);
    assert_eq!(ed.doc.path(), Some(path.as_path()));
    assert!(!ed.doc.is_dirty());
    assert!(skirmish::level::load_file(&path).is_ok());
    // A bad path: an error, and the dialog stays.
    act(&mut ed, EditorAction::SaveAs);
    clear(&mut ed);
    typ(&mut ed, "/nonexistent/dir/x.ron");
    assert_eq!(ed.modal, Some(Modal::SaveAs));
    assert!(ed.status.as_ref().is_some_and(|(_, err)| *err));
    act(&mut ed, EditorAction::Cancel);
    assert_eq!(ed.modal, None);
    // Unsaved changes: opening asks first; N keeps the level, Y discards it.
    ed.press(Cell::new(3, 3));
    assert!(ed.doc.is_dirty());
    root();
    act(&mut ed, EditorAction::Open);
    assert!(
        matches!(&ed.modal, Some(Modal::Open(list)) if list.iter().any(|p| p.ends_with("ford.ron")))
    );
    typ(&mut ed, "levels/ford.ron");
    assert_eq!(
        ed.modal,
        Some(Modal::Confirm(Guarded::Open("levels/ford.ron".into())))
    );
    dialog_key(&mut ed, KeyCode::KeyN);
    assert_eq!(ed.modal, None);
    assert_eq!(ed.doc.level().name, "T");
    act(&mut ed, EditorAction::Open);
    typ(&mut ed, "levels/ford.ron");
    dialog_key(&mut ed, KeyCode::KeyY);
    assert_eq!(ed.doc.level().name, "The Ford");
    assert_eq!(ed.generation, 1);
    // Quitting a clean level needs no confirmation.
    assert_eq!(act(&mut ed, EditorAction::Quit), Outcome::Quit);
    ed.press(Cell::new(0, 0));
    assert_eq!(act(&mut ed, EditorAction::Quit), Outcome::None);
    assert_eq!(ed.modal, Some(Modal::Confirm(Guarded::Quit)));
    assert_eq!(dialog_key(&mut ed, KeyCode::KeyY), Outcome::Quit);
    // A missing file: an error, the level stays.
    ed.open("levels/missing.ron".as_ref());
    assert!(
        ed.status
            .as_ref()
            .is_some_and(|(m, err)| *err && m.contains("Cannot open"))
    );
    assert_eq!(ed.doc.level().name, "The Ford");
}

#[test]
fn new_level_dialog_offers_every_ruleset_and_both_grids() {
    root();
    let path = temp("fresh.ron");
    let mut ed = initial_editor(&GameOptions {
        level_path: path.clone(),
        ..Default::default()
    });
    let Some(Modal::NewLevel(new)) = &ed.modal else {
        panic!("a missing file starts the new-level dialog");
    };
    assert_eq!(new.path.as_ref(), Some(&path));
    let mut seen = vec![new.ruleset.clone()];
    for _ in 1..RULESETS.len() {
        dialog_key(&mut ed, KeyCode::KeyR);
        if let Some(Modal::NewLevel(n)) = &ed.modal {
            seen.push(n.ruleset.clone());
        }
    }
    seen.sort();
    let mut all: Vec<String> = RULESETS.iter().map(|r| r.to_string()).collect();
    all.sort();
    assert_eq!(seen, all);
    // Back to the first ruleset (`phases` plays both grids), then to hexes.
    dialog_key(&mut ed, KeyCode::KeyR);
    for _ in 0..2 {
        if matches!(&ed.modal, Some(Modal::NewLevel(n)) if n.grid == GridKind::Hex) {
            break;
        }
        dialog_key(&mut ed, KeyCode::KeyG);
    }
    dialog_key(&mut ed, KeyCode::ArrowRight);
    dialog_key(&mut ed, KeyCode::ArrowUp);
    let expected = match &ed.modal {
        Some(Modal::NewLevel(n)) => n.clone(),
        _ => panic!("dialog closed"),
    };
    assert_eq!(expected.grid, GridKind::Hex);
    assert_eq!(expected.size, (11, 9));
    dialog_key(&mut ed, KeyCode::Enter);
    assert_eq!(ed.modal, None);
    let level = ed.doc.level();
    assert_eq!((level.grid, level.size), (GridKind::Hex, (11, 9)));
    assert_eq!(level.ruleset, expected.ruleset);
    assert_eq!(ed.doc.path(), Some(path.as_path()));
    act(&mut ed, EditorAction::Save);
    assert!(path.exists(), "{:?}", ed.status);

    // No level at all: the dialog, with no file yet.
    let ed = initial_editor(&GameOptions::default());
    assert_eq!(ed.modal, Some(Modal::NewLevel(NewLevel::default())));
    assert_eq!(ed.doc.path(), None);
}

#[cfg(feature = "render")]
#[test]
fn an_invalid_level_opens_with_its_problems_and_garbage_does_not_panic() {
    root();
    let path = temp("broken.ron");
    let text = std::fs::read_to_string("levels/ford.ron")
        .unwrap()
        .replace("\"Tier\": 2", "\"Tier\": 9");
    std::fs::write(&path, text).unwrap();
    let mut ed = initial_editor(&GameOptions {
        level_path: path.clone(),
        ..Default::default()
    });
    assert_eq!(ed.modal, None);
    assert!(!ed.problems.is_empty());
    assert!(ed.problems.iter().any(|p| p.cell.is_some()));
    act(&mut ed, EditorAction::NextProblem);
    assert!(ed.cursor.is_some());
    assert!(
        ed.selected.is_some(),
        "the unit with the bad stat is selected"
    );

    let garbage = temp("garbage.ron");
    std::fs::write(&garbage, "(((not a level").unwrap();
    let ed = initial_editor(&GameOptions {
        level_path: garbage,
        ..Default::default()
    });
    assert!(matches!(
        ed.modal,
        Some(Modal::NewLevel(NewLevel { path: None, .. }))
    ));
    assert!(
        ed.status
            .as_ref()
            .is_some_and(|(m, err)| *err && m.contains("Cannot open"))
    );
    // Tool keys while nothing is selected never panic.
    let mut ed = ed;
    for action in skirmish::game::editor::input::EditorAction::ALL {
        if action != EditorAction::Quit {
            let _ = act(&mut ed, action);
        }
    }
    let _ = Tool::ALL;
}

/// The window's close button with unsaved changes asks first (like Ctrl+Q), from the
/// editor or from a playtest; with nothing unsaved the program ends.
#[cfg(feature = "render")]
#[test]
fn closing_the_window_with_unsaved_changes_asks_first() {
    use bevy::prelude::*;
    use bevy::state::app::StatesPlugin;
    use bevy::window::WindowCloseRequested;
    use skirmish::game::editor::control::close_requested;
    use skirmish::game::screen::Screen;

    let app_with = |ed: Editor, screen: Screen| {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin));
        app.add_message::<WindowCloseRequested>();
        app.insert_state(screen);
        app.insert_resource(ed);
        app.add_systems(Update, close_requested);
        app.update();
        let window = app.world_mut().spawn_empty().id();
        app.world_mut()
            .write_message(WindowCloseRequested { window });
        app.update();
        app.update();
        app
    };
    // Unsaved changes, closed during a playtest: back to the editor, asking.
    let mut ed = ford();
    ed.doc.paint(Cell::new(0, 0), 1, Terrain::Difficult);
    assert!(ed.doc.is_dirty());
    let app = app_with(ed, Screen::Battle);
    assert!(app.should_exit().is_none(), "nothing unsaved is lost");
    assert!(matches!(
        app.world().resource::<Editor>().modal,
        Some(Modal::Confirm(_))
    ));
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Editor
    );
    // Nothing unsaved: the program ends.
    let app = app_with(ford(), Screen::Editor);
    assert!(app.should_exit().is_some(), "a clean editor just closes");
    assert!(app.world().resource::<Editor>().modal.is_none());
}

#[test]
fn traits_fields_show_for_traits_to_remove_and_edit_through_undo() {
    use skirmish::engine::ruleset::TraitOf;
    // phases reads no traits and gives no examples: no traits fields...
    let mut ed = ford();
    ed.select(Some(0));
    assert!(!ed.form().contains(&FormRow::Traits));
    assert!(!ed.side_traits_shown(0));
    act(&mut ed, EditorAction::EditSideTraits);
    assert_eq!(ed.typing, None);
    assert_eq!(
        ed.status,
        Some(("Ruleset phases reads no side traits".to_string(), true))
    );

    // ...until a unit or a side has traits (left over, or written in the file):
    // then the field shows, so they can be removed, and each is a problem.
    let mut unit = ed.doc.level().units[0].clone();
    let name = unit.name.clone();
    unit.traits = vec!["Fast".into(), "Flying".into()];
    ed.doc.set_unit(0, unit).unwrap();
    ed.doc.set_side_traits(0, vec!["PCs".into()]).unwrap();
    ed.refresh();
    assert_eq!(ed.problems.len(), 3, "{:#?}", ed.problems);
    assert!(ed.side_traits_shown(0) && !ed.side_traits_shown(1));
    assert!(
        ed.traits_tip(TraitOf::Unit)
            .contains("phases reads no unit traits"),
        "{}",
        ed.traits_tip(TraitOf::Unit)
    );
    let row = ed.form().iter().position(|r| *r == FormRow::Traits);
    let row = row.expect("a traits row");
    assert_eq!(ed.row_value(FormRow::Traits), "Fast, Flying");
    ed.field = row;
    ed.adjust(1);
    assert!(
        ed.status
            .as_ref()
            .is_some_and(|(m, err)| *err && m.contains("Enter"))
    );

    // Typed comma-separated: trimmed, empty phrases dropped; one undo step.
    act(&mut ed, EditorAction::EditField);
    assert_eq!(
        ed.typing.as_ref().map(|t| (&t.target, t.buffer.as_str())),
        Some((&TextTarget::UnitTraits(0), "Fast, Flying"))
    );
    clear(&mut ed);
    typ(&mut ed, " Flying,, Fast ,");
    assert_eq!(ed.doc.level().units[0].traits, ["Flying", "Fast"]);
    assert_eq!(
        ed.status,
        Some((format!("{name}: traits Flying, Fast"), false))
    );
    ed.undo();
    assert_eq!(ed.doc.level().units[0].traits, ["Fast", "Flying"]);
    // Enter on the text as shown changes nothing.
    act(&mut ed, EditorAction::EditField);
    let steps = ed.doc.revision();
    typ(&mut ed, "");
    assert_eq!(ed.doc.revision(), steps);
    // Emptied, the unit has no traits, and phases shows no field for it any more.
    act(&mut ed, EditorAction::EditField);
    clear(&mut ed);
    typ(&mut ed, "");
    assert!(ed.doc.level().units[0].traits.is_empty());
    assert!(!ed.form().contains(&FormRow::Traits));

    // A side's traits: F3 types them for the selected side.
    ed.side = 0;
    act(&mut ed, EditorAction::EditSideTraits);
    assert_eq!(
        ed.typing.as_ref().map(|t| (&t.target, t.buffer.as_str())),
        Some((&TextTarget::SideTraits(0), "PCs"))
    );
    clear(&mut ed);
    typ(&mut ed, "");
    assert!(ed.doc.level().sides[0].traits.is_empty());
    assert!(ed.problems.is_empty(), "{:#?}", ed.problems);
    ed.undo();
    assert_eq!(ed.doc.level().sides[0].traits, ["PCs"]);
}
