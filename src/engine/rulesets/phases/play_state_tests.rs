//! Leaving play through the core (`PlayState`, X-01, X-16), played on a small
//! `phases` battle: a fled, surrendered or dying unit and what victory, the board
//! and the log make of it.

use crate::engine::battle::*;
use crate::engine::board::{Cell, Occupancy};
use crate::engine::command::Command;
use crate::engine::dice::Dice;
use crate::engine::event::{Event, Stage};
use crate::engine::spec::Level;
use crate::engine::units::{DyingCountsForVictory, PlayState, UnitId, UnitView};

/// A phases battle: Blue's A (lowest initiative: moves first) next to Red's B,
/// Red's C far off.
fn battle() -> Battle {
    let stats =
        |int: i32| format!(r#"stats: {{"INT": {int}, "AGI": 0, "ATK": 2, "DEF": 11, "Tier": 1}}"#);
    let level: Level = ron::from_str(&format!(
        r#"(name: "Leaving play", ruleset: "phases", grid: Square, size: (6, 2),
            sides: [(name: "Blue", decisions: Never), (name: "Red", decisions: Never)],
            units: [
                (name: "A", side: "Blue", pos: (0, 0), {}),
                (name: "B", side: "Red", pos: (1, 0), {}),
                (name: "C", side: "Red", pos: (5, 1), {}),
            ])"#,
        stats(-20),
        stats(0),
        stats(0)
    ))
    .expect("the test level parses");
    Battle::from_level_with(&super::Phases, &level, Dice::seeded(7))
        .expect("the test level sets up")
}

fn leave(b: &mut Battle, unit: &str, state: PlayState) {
    let unit = b.unit_id(unit).unwrap();
    emit(
        b.world_mut(),
        Event::Defeated {
            unit,
            state,
            cause: None,
            by: None,
        },
    );
}

fn view(b: &Battle, unit: &str) -> UnitView {
    b.units().into_iter().find(|v| v.name == unit).unwrap()
}

#[test]
fn a_unit_that_flees_leaves_play_and_victory_follows() {
    let mut b = battle();
    let (a, bb, c) = (
        b.unit_id("A").unwrap(),
        b.unit_id("B").unwrap(),
        b.unit_id("C").unwrap(),
    );
    assert_eq!(b.awaiting(), Awaiting::Unit(a, Stage::Movement));
    leave(&mut b, "B", PlayState::Fled);
    let w = b.world();
    assert_eq!(play_state(w, bb), PlayState::Fled);
    assert!(!is_active(w, bb) && !on_board(w, bb));
    assert_eq!(active_units(w), [a, c]);
    assert!(!check_victory(b.world_mut()), "Red still has C");
    // A fled unit's cell is free again.
    assert_eq!(
        occupancy_for(b.world(), a)(Cell::new(1, 0)),
        Occupancy::Free
    );
    leave(&mut b, "C", PlayState::Surrendered);
    assert!(check_victory(b.world_mut()));
    assert_eq!(b.awaiting(), Awaiting::Over(b.side_id("Blue")));
    assert_eq!(
        b.events().last(),
        Some(&Event::BattleEnded {
            winner: b.side_id("Blue"),
            rounds: 1
        })
    );
    // The event and the view carry the state; the log says it in words.
    let fled = Event::Defeated {
        unit: bb,
        state: PlayState::Fled,
        cause: None,
        by: None,
    };
    assert_eq!(
        serde_json::to_string(&fled).unwrap(),
        r#"{"Defeated":{"unit":1,"state":"Fled"}}"#
    );
    assert_eq!(
        crate::engine::log::describe(b.world(), &fled),
        "B flees the battle!"
    );
    let v = view(&b, "B");
    assert!(v.defeated);
    assert_eq!(v.state, PlayState::Fled);
    let json = serde_json::to_string(&v).unwrap();
    assert!(
        json.ends_with(r#""defeated":true,"state":"Fled"}"#),
        "{json}"
    );
    assert_eq!(view(&b, "C").state.to_string(), "surrendered");
}

#[test]
fn a_defeat_at_0_hp_reads_as_before() {
    // phases and flow take a unit at 0 HP out as `Down`, which JSON leaves out.
    let down = Event::Defeated {
        unit: UnitId(2),
        state: PlayState::Down,
        cause: None,
        by: None,
    };
    assert_eq!(
        serde_json::to_string(&down).unwrap(),
        r#"{"Defeated":{"unit":2}}"#
    );
    // A cause and who caused it show when known.
    let felled = Event::Defeated {
        unit: UnitId(2),
        state: PlayState::Down,
        cause: Some(crate::engine::event::LeaveCause::Damage),
        by: Some(UnitId(0)),
    };
    assert_eq!(
        serde_json::to_string(&felled).unwrap(),
        r#"{"Defeated":{"unit":2,"cause":"Damage","by":0}}"#
    );

    let mut b = battle();
    leave(&mut b, "B", PlayState::Down);
    assert_eq!(
        crate::engine::log::describe(b.world(), &down),
        "C is defeated!"
    );
    // The cause prints nothing more.
    assert_eq!(
        crate::engine::log::describe(b.world(), &felled),
        "C is defeated!"
    );
    let json = serde_json::to_string(&view(&b, "B")).unwrap();
    assert!(json.ends_with(r#""defeated":true}"#), "{json}");
    let json = serde_json::to_string(&view(&b, "A")).unwrap();
    assert!(json.ends_with(r#""defeated":false}"#), "{json}");
}

#[test]
fn e_46_a_dying_unit_blocks_its_cell_but_does_not_hold_the_field() {
    let mut b = battle();
    let (a, bb) = (b.unit_id("A").unwrap(), b.unit_id("B").unwrap());
    let onto_b = Command::move_along(a, "Walk", vec![Cell::new(1, 0)]);
    leave(&mut b, "B", PlayState::Dying);
    let w = b.world();
    assert!(on_board(w, bb) && !is_active(w, bb));
    assert_eq!(occupancy_for(w, a)(Cell::new(1, 0)), Occupancy::Blocked);
    assert!(
        b.check(&onto_b).is_err(),
        "nobody ends a move on a dying unit's cell"
    );
    assert_eq!(board_units(w), [UnitId(0), bb, UnitId(2)]);
    assert_eq!(active_units(w), [UnitId(0), UnitId(2)]);
    let v = view(&b, "B");
    assert!(v.defeated && v.state.on_board());
    assert!(
        serde_json::to_string(&v)
            .unwrap()
            .contains(r#""state":"Dying""#)
    );
    // C surrenders: Red's only unit left is dying, so Blue has won…
    leave(&mut b, "C", PlayState::Surrendered);
    let mut world = std::mem::take(b.world_mut());
    world.insert_resource(DyingCountsForVictory(true));
    // …unless the ruleset says the dying hold the field.
    assert!(!check_victory(&mut world));
    world.insert_resource(DyingCountsForVictory(false));
    assert!(check_victory(&mut world));
    *b.world_mut() = world;
    assert_eq!(b.awaiting(), Awaiting::Over(b.side_id("Blue")));
    // Once it is down, its cell is free.
    let mut b = battle();
    leave(&mut b, "B", PlayState::Dying);
    leave(&mut b, "B", PlayState::Down);
    assert!(b.check(&onto_b).is_ok(), "{:?}", b.check(&onto_b));
}
