//! Seed sentences of `flow` (seed 004) that `docs/rules/flow.md`'s audit found
//! unplayed, each played through a battle with scripted dice: readying any action on
//! a trigger (L117–118, F-37), a Take a Step and readied actions (L124, F-39), a
//! magic item's own AP cost (L41, F-08) and the off-hand perk (L175, F-51).
//!
//! Dice order as in `tests/suite/flow.rs`: one initiative d10 per unit in roster
//! order, then each d100 check as it is rolled. Hexes are axial coordinates around
//! the middle of a 20 x 20 map.

use std::collections::BTreeMap;

use skirmish::engine::board::{Board, Cell, GridKind};
use skirmish::engine::dice::Dice;
use skirmish::engine::event::Event;
use skirmish::engine::rulesets::flow::events::FlowEvent;
use skirmish::engine::rulesets::flow::{
    FlowAction, ReadyAction, ReadyTrigger, ShoveEffect, flow_unit,
};
use skirmish::engine::rulesets::flow::{React, Reaction};
use skirmish::engine::rulesets::new_battle;
use skirmish::engine::{Awaiting, Battle, Command, CommandError};
use skirmish::level::schema::*;

// ------------------------------------------------------------------ helpers

/// The cell at axial `(q, r)` from the map's middle hex.
fn hex(q: i32, r: i32) -> Cell {
    Board::from_axial(Board::to_axial(Cell::new(8, 8)) + hexx::Hex::new(q, r))
}

fn blade(name: &str, held: Hand) -> WeaponDef {
    WeaponDef {
        name: name.into(),
        damage: "1d8".into(),
        reach: 1,
        range: 0,
        category: WeaponCategory::Standard,
        two_handed: false,
        held,
        on_hit: vec![],
    }
}

/// A Medium unit with a sword in its main hand, Melee 55 and Athletics 40.
fn soldier(name: &str, side: &str, at: (i32, i32), agi: i32) -> UnitDef {
    let pos = hex(at.0, at.1);
    UnitDef {
        name: name.into(),
        side: side.into(),
        pos: (pos.x, pos.y),
        stats: BTreeMap::from([("AgiMod".into(), agi), ("HP".into(), 20)]),
        skills: [
            ("Melee", 55),
            ("Ranged", 50),
            ("Agility", 50),
            ("Athletics", 40),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect(),
        weapons: vec![blade("Sword", Hand::Main)],
        ..Default::default()
    }
}

/// A 20 x 20 hex `flow` level; both sides are asked every decision.
fn field(units: Vec<UnitDef>) -> Level {
    let side = |name: &str| SideDef {
        name: name.into(),
        controller: Controller::Human,
        decisions: DecisionPolicy::Ask,
        traits: Vec::new(),
    };
    Level {
        name: "flow seed".into(),
        version: 1,
        ruleset: "flow".into(),
        grid: GridKind::Hex,
        size: (20, 20),
        terrain: vec![],
        sides: vec![side("Blue"), side("Red")],
        units,
        rules: BTreeMap::new(),
        victory: Victory::default(),
        seed: None,
    }
}

fn begin(level: &Level, faces: &[u32]) -> Battle {
    let issues = skirmish::level::validate::validate(level);
    assert!(issues.is_empty(), "{issues:?}");
    new_battle(level, Dice::scripted(faces.iter().copied())).expect("level sets up")
}

fn who(b: &Battle, name: &str) -> skirmish::engine::units::UnitId {
    b.unit_id(name).unwrap_or_else(|| panic!("no unit {name}"))
}

fn send(b: &mut Battle, command: Command) -> Result<Vec<Event>, CommandError> {
    b.submit(command).map(|e| e.to_vec())
}

fn doing(b: &mut Battle, name: &str, action: FlowAction) -> Result<Vec<Event>, CommandError> {
    let unit = who(b, name);
    send(b, action.by(unit))
}

fn ready(b: &mut Battle, name: &str, then: ReadyAction, on: ReadyTrigger) -> Vec<Event> {
    doing(b, name, FlowAction::ReadyOn { then, on }).expect("readied")
}

fn finish(b: &mut Battle, name: &str) {
    let unit = who(b, name);
    send(b, Command::EndTurn { unit }).expect("turn ends");
}

fn go(b: &mut Battle, name: &str, power: &str, path: &[Cell]) -> Result<Vec<Event>, CommandError> {
    let unit = who(b, name);
    let path = path.to_vec();
    send(b, Command::move_along(unit, power, path))
}

fn strike(b: &mut Battle, name: &str, target: &str, weapon: &str) -> Vec<Event> {
    let (unit, target) = (who(b, name), who(b, target));
    send(b, Command::attack(unit, target, Some(weapon.into()))).expect("attack accepted")
}

fn pass_side(b: &mut Battle, side: &str) -> Vec<Event> {
    let side = b.side_id(side).expect("side");
    send(b, Command::Pass { side }).expect("pass")
}

fn cell_of(b: &Battle, name: &str) -> Cell {
    b.units().into_iter().find(|u| u.name == name).unwrap().cell
}

fn ap(b: &Battle, name: &str) -> i32 {
    let pools = b.pools(who(b, name));
    pools.iter().find(|(p, _)| p == "AP").map_or(-1, |p| p.1)
}

fn narrated(events: &[Event]) -> Vec<&FlowEvent> {
    events.iter().filter_map(|e| e.narration()).collect()
}

/// The d100 checks in `events`: (who rolled, the roll, the target).
fn rolls(b: &Battle, events: &[Event]) -> Vec<(String, u32, i32)> {
    narrated(events)
        .into_iter()
        .filter_map(|e| match e {
            FlowEvent::SkillChecked {
                unit, roll, target, ..
            } => Some((b.unit_name(*unit), *roll, *target)),
            _ => None,
        })
        .collect()
}

fn still_readied(b: &Battle, name: &str) -> bool {
    flow_unit(b.world(), who(b, name)).ready.is_some()
}

fn awaits_unit(b: &Battle) -> Option<String> {
    match b.awaiting() {
        Awaiting::Unit(u, _) => Some(b.unit_name(u)),
        _ => None,
    }
}

// ------------------------------------------------------------------ L117–118 Ready

/// Covers F-37, F-GAP-18 (seed L117: "choose an action to take when that trigger
/// occurs … act immediately … Your initiative position moves to that point").
/// A readied Step and a readied Move go off as an enemy enters reach; each sets its
/// own cost aside; the Step provokes nothing, the Move provokes like any move.
#[test]
fn f_37_seed_l117_ready_a_step_or_a_move_when_an_enemy_enters_reach() {
    // M (AgiMod 5) acts first; R readies a Step back to (-1, 0): 1 AP set aside.
    let units = || {
        vec![
            soldier("M", "Blue", (3, 0), 5),
            soldier("R", "Red", (0, 0), 0),
        ]
    };
    let mut b = begin(&field(units()), &[1, 1]);
    finish(&mut b, "M");
    let ev = ready(
        &mut b,
        "R",
        ReadyAction::Step { to: hex(-1, 0) },
        ReadyTrigger::EntersReach,
    );
    assert!(narrated(&ev).iter().any(|e| matches!(
        e,
        FlowEvent::ReadiedAction { ap: 1, action, .. } if action.contains("Step")
    )));
    assert_eq!(ap(&b, "R"), 4, "F-GAP-18: the Step's 1 AP is set aside");
    finish(&mut b, "R");
    // Round 2: M walks into R's reach at (1, 0); R steps away at once.
    let ev = go(&mut b, "M", "Move", &[hex(2, 0), hex(1, 0)]).unwrap();
    assert!(
        narrated(&ev)
            .iter()
            .any(|e| matches!(e, FlowEvent::ReadiedActionTriggered { .. }))
    );
    assert_eq!(cell_of(&b, "R"), hex(-1, 0), "R took its readied Step");
    assert_eq!(cell_of(&b, "M"), hex(1, 0));
    assert_eq!(
        awaits_unit(&b).as_deref(),
        Some("M"),
        "F-39: the Step left M's reach without a Reaction Attack"
    );
    assert!(!still_readied(&b, "R"), "used up");
    finish(&mut b, "M");
    finish(&mut b, "R");
    assert_eq!(b.turn().round, 3);
    assert_eq!(awaits_unit(&b).as_deref(), Some("R"), "R now acts before M");

    // A readied Move (1 AP) to (-3, 0): leaving M's reach provokes M (F-47).
    let mut b = begin(&field(units()), &[1, 1]);
    finish(&mut b, "M");
    ready(
        &mut b,
        "R",
        ReadyAction::Move { to: hex(-3, 0) },
        ReadyTrigger::EntersReach,
    );
    assert_eq!(ap(&b, "R"), 4);
    finish(&mut b, "R");
    go(&mut b, "M", "Move", &[hex(2, 0), hex(1, 0)]).unwrap();
    match b.awaiting() {
        Awaiting::Decision(d) => assert!(d.options.iter().any(|o| {
            React::of(&o.command).is_some_and(|r| r.reaction == Reaction::ReactionAttack)
        })),
        other => panic!("expected M's Reaction Attack offer, got {other:?}"),
    }
    pass_side(&mut b, "Blue");
    assert_eq!(cell_of(&b, "R"), hex(-3, 0), "R moved off");
}

/// Covers F-37, F-38, F-27 (seed L118: "When the wizard starts casting"). A readied
/// Shove goes off as the adjacent wizard declares its spell: before the Reaction
/// Attack it provokes and before the spell's own roll. A readied Draw goes off
/// wherever the caster is; a readied sword attack waits for a caster in reach.
#[test]
fn f_37_seed_l118_ready_a_shove_when_the_wizard_starts_casting() {
    let bolt = WeaponDef {
        category: WeaponCategory::Spell,
        range: 6,
        ..blade("Firebolt", Hand::Main)
    };
    let wizard = |at| UnitDef {
        weapons: vec![bolt.clone()],
        ..soldier("W", "Red", at, 0)
    };
    // R (first) readies a Knock Prone Shove next to the wizard; 1 AP set aside.
    let l = field(vec![soldier("R", "Blue", (0, 0), 5), wizard((1, 0))]);
    // Initiative; R's Shove 30 (Athletics 40: success) against W's 90; W's bolt 90.
    let mut b = begin(&l, &[1, 1, 30, 90, 90]);
    ready(
        &mut b,
        "R",
        ReadyAction::Shove {
            effect: ShoveEffect::KnockProne,
        },
        ReadyTrigger::Casts,
    );
    assert_eq!(ap(&b, "R"), 4);
    finish(&mut b, "R");
    let ev = strike(&mut b, "W", "R", "Firebolt");
    assert_eq!(
        rolls(&b, &ev),
        [("R".to_string(), 30, 40), ("W".to_string(), 90, 40)],
        "the Shove is rolled before anything else"
    );
    let prone = |b: &Battle| {
        b.units()
            .into_iter()
            .find(|u| u.name == "W")
            .unwrap()
            .conditions
            .contains(&"Prone".to_string())
    };
    assert!(prone(&b), "F-38: knocked prone");
    assert!(
        matches!(b.awaiting(), Awaiting::Decision(_)),
        "then the Reaction Attack the casting provoked (F-26)"
    );
    let ev = pass_side(&mut b, "Blue");
    assert_eq!(
        rolls(&b, &ev),
        [("W".to_string(), 90, 50)],
        "F-27: the spell still goes off, last"
    );

    // A far wizard: the readied Draw goes off, the readied sword attack waits.
    let mut d = soldier("D", "Blue", (0, 0), 5);
    d.weapons.push(blade("Dagger", Hand::Stowed));
    let s = soldier("S", "Blue", (0, 2), 4);
    let mut b = begin(&field(vec![d, s, wizard((4, 0))]), &[1, 1, 1, 90]);
    ready(
        &mut b,
        "D",
        ReadyAction::Draw {
            weapon: "Dagger".into(),
        },
        ReadyTrigger::Casts,
    );
    finish(&mut b, "D");
    ready(
        &mut b,
        "S",
        ReadyAction::Attack {
            weapon: Some("Sword".into()),
        },
        ReadyTrigger::Casts,
    );
    finish(&mut b, "S");
    let ev = strike(&mut b, "W", "D", "Firebolt");
    let drawn = ev.iter().position(
        |e| matches!(e, Event::HeldChanged { item, hand: Hand::Off, .. } if item == "Dagger"),
    );
    let bolt_roll = ev.iter().position(|e| {
        matches!(
            e.narration(),
            Some(FlowEvent::SkillChecked { roll: 90, .. })
        )
    });
    assert!(
        drawn.is_some() && drawn < bolt_roll,
        "drawn before the bolt"
    );
    assert!(
        still_readied(&b, "S"),
        "the caster is out of the sword's reach"
    );
}

/// Covers F-37 (seed L117): the readied attack `Ready(unit:, weapon:)` keeps its
/// command and plays exactly as `then: Attack, on: EntersReach`; the same event
/// log, the attack rolled as the enemy enters reach.
#[test]
fn f_37_seed_l117_the_readied_attack_is_then_attack_on_enters_reach() {
    let play = |action: FlowAction| {
        let units = vec![
            soldier("M", "Blue", (3, 0), 5),
            soldier("R", "Red", (0, 0), 0),
        ];
        let mut b = begin(&field(units), &[1, 1, 90]);
        finish(&mut b, "M");
        doing(&mut b, "R", action).unwrap();
        finish(&mut b, "R");
        go(&mut b, "M", "Move", &[hex(2, 0), hex(1, 0)]).unwrap();
        b
    };
    let old = play(FlowAction::Ready { weapon: None });
    let new = play(FlowAction::ReadyOn {
        then: ReadyAction::Attack { weapon: None },
        on: ReadyTrigger::EntersReach,
    });
    assert_eq!(format!("{:?}", old.events()), format!("{:?}", new.events()));
    assert!(
        narrated(old.events())
            .iter()
            .any(|e| matches!(e, FlowEvent::ReadyTriggered { .. }))
    );
    assert_eq!(rolls(&old, old.events()).last().unwrap().1, 90);
    // The command form is unchanged: no `then:` or `on:` is written for it.
    let unit = who(&old, "R");
    let Command::Act { args, .. } = FlowAction::Ready { weapon: None }.by(unit) else {
        panic!("an act")
    };
    assert!(args.iter().next().is_none());
}

/// Covers F-37, F-38, F-39 (seed L117): what a readied action needs is refused with
/// a reason when readied, and a readied action that can't be done when it goes off
/// is lost with its AP (a Shove on a Large enemy).
#[test]
fn f_37_seed_l117_bad_readied_actions_are_refused_or_lost() {
    let units = vec![
        soldier("R", "Blue", (0, 0), 5),
        UnitDef {
            size: Size::Large,
            ..soldier("L", "Red", (4, 0), 0)
        },
    ];
    let mut b = begin(&field(units), &[1, 1]);
    let unit = who(&b, "R");
    let step_without_hex = Command::Act {
        unit,
        verb: "Ready".into(),
        args: skirmish::engine::verb::Args::new().with(
            "then",
            skirmish::engine::verb::ArgValue::Choice("Step".into()),
        ),
    };
    let err = send(&mut b, step_without_hex).unwrap_err();
    assert!(err.to_string().contains("needs `to:`"), "{err}");
    let err = doing(
        &mut b,
        "R",
        FlowAction::ReadyOn {
            then: ReadyAction::Step { to: hex(2, 0) },
            on: ReadyTrigger::EntersReach,
        },
    )
    .unwrap_err();
    assert!(matches!(err, CommandError::OutOfReach(_)), "{err}");
    let err = doing(
        &mut b,
        "R",
        FlowAction::ReadyOn {
            then: ReadyAction::Draw {
                weapon: "Sword".into(),
            },
            on: ReadyTrigger::EntersReach,
        },
    )
    .unwrap_err();
    assert!(err.to_string().contains("already in hand"), "{err}");
    assert_eq!(ap(&b, "R"), 5, "nothing was spent");
    ready(
        &mut b,
        "R",
        ReadyAction::Shove {
            effect: ShoveEffect::PushBack,
        },
        ReadyTrigger::EntersReach,
    );
    finish(&mut b, "R");
    // L comes next to R: the Shove goes off but may not shove a Large unit (F-38).
    let ev = go(&mut b, "L", "Move", &[hex(3, 0), hex(2, 0), hex(1, 0)]).unwrap();
    let lost = narrated(&ev).into_iter().find_map(|e| match e {
        FlowEvent::ReadyLost { reason, .. } => Some(reason.clone()),
        _ => None,
    });
    assert!(
        lost.as_deref().is_some_and(|r| r.contains("Large")),
        "{lost:?}"
    );
    assert!(!still_readied(&b, "R"));
    assert_eq!(cell_of(&b, "L"), hex(1, 0), "nobody was shoved");
}

// ------------------------------------------------------------------ L124 Take a Step

/// Covers F-39, F-37 (seed L124: a Step moves "without triggering any Reaction
/// Attacks or other abilities triggered by movement"). By default a Step into a
/// readied enemy's reach sets nothing off; `step_triggers_readied: true` restores
/// the engine's earlier reading, where the readied attack goes off.
#[test]
fn f_39_seed_l124_a_step_into_a_readied_reach() {
    let play = |level: Level, faces: &[u32]| {
        let mut b = begin(&level, faces);
        finish(&mut b, "M");
        doing(&mut b, "R", FlowAction::Ready { weapon: None }).unwrap();
        finish(&mut b, "R");
        let ev = go(&mut b, "M", "Step", &[hex(1, 0)]).unwrap();
        (b, ev)
    };
    let units = || {
        vec![
            soldier("M", "Blue", (2, 0), 5),
            soldier("R", "Red", (0, 0), 0),
        ]
    };
    let (b, ev) = play(field(units()), &[1, 1]);
    assert_eq!(cell_of(&b, "M"), hex(1, 0));
    assert!(rolls(&b, &ev).is_empty(), "no readied attack");
    assert!(still_readied(&b, "R"), "it still waits");
    // The same step with the switch on: R's readied attack (90, a miss) goes off.
    let mut level = field(units());
    level.rules.insert(
        "step_triggers_readied".into(),
        ron::from_str("true").unwrap(),
    );
    let (b, ev) = play(level, &[1, 1, 90]);
    assert!(
        narrated(&ev)
            .iter()
            .any(|e| matches!(e, FlowEvent::ReadyTriggered { .. }))
    );
    assert_eq!(rolls(&b, &ev), [("R".to_string(), 90, 55)]);
    assert!(!still_readied(&b, "R"));
}

// ------------------------------------------------------------------ L41 magic items

/// Covers F-08 (seed L41: "Using a Magic Item: 1-2 AP (specific to each item)"): an
/// item's own `ap` is what using it costs; without one it costs `costs.item` (2).
#[test]
fn f_08_seed_l41_a_magic_item_costs_its_own_ap() {
    let salts = |name: &str, ap| ItemDef {
        name: name.into(),
        uses: 1,
        effect: ItemEffect::Cleanse,
        ap,
    };
    let p = UnitDef {
        items: vec![salts("Quick Salts", Some(1)), salts("Salts", None)],
        ..soldier("P", "Blue", (0, 0), 5)
    };
    let mut b = begin(&field(vec![p, soldier("E", "Red", (5, 0), 0)]), &[1, 1]);
    let unit = who(&b, "P");
    let using = |b: &mut Battle, item: &str| {
        let ev = send(
            b,
            Command::ActivateItem {
                unit,
                item: item.into(),
                target: None,
            },
        )
        .unwrap();
        ev.iter()
            .find_map(|e| match e {
                Event::ActionDeclared { ap, .. } => Some(*ap),
                _ => None,
            })
            .unwrap()
    };
    assert_eq!(using(&mut b, "Quick Salts"), 1);
    assert_eq!(ap(&b, "P"), 4);
    assert_eq!(using(&mut b, "Salts"), 2);
    assert_eq!(ap(&b, "P"), 2);
}

/// Covers F-08 (seed L40–41): an item's `ap` out of 1–2, an `ap` on a potion (which
/// costs `costs.potion`) and an `ap` in a ruleset that reads none are reported at
/// their place in the file, naming what is expected.
#[test]
fn f_08_seed_l41_a_bad_item_ap_is_reported_at_its_place() {
    let text = |ruleset: &str, items: &str| {
        format!(
            "(\n    name: \"Items\",\n    ruleset: \"{ruleset}\",\n    grid: Hex,\n    size: (6, 6),\n    \
             sides: [(name: \"Blue\"), (name: \"Red\")],\n    units: [\n        (\n            \
             name: \"P\",\n            side: \"Blue\",\n            pos: (1, 1),\n            \
             stats: {{\"AgiMod\": 0}},\n            items: [{items}],\n        ),\n        \
             (name: \"E\", side: \"Red\", pos: (4, 4), stats: {{\"AgiMod\": 0}}),\n    ],\n)\n"
        )
    };
    let problems = |text: &str| -> Vec<String> {
        match skirmish::level::load::load_str(text, "items.ron") {
            Ok(_) => Vec::new(),
            Err(p) => p.iter().map(|p| p.to_string()).collect(),
        }
    };
    let place = |text: &str, needle: &str| {
        let line = text.lines().position(|l| l.contains(needle)).unwrap() + 1;
        let col = text.lines().nth(line - 1).unwrap().find(needle).unwrap() + 1;
        format!("items.ron:{line}:{col}: ")
    };
    let flow = text("flow", "(name: \"Wand\", effect: Cleanse, ap: 3)");
    let p = problems(&flow);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].starts_with(&place(&flow, "ap: 3")) && p[0].contains("costs ap 3; expected 1 to 2"),
        "{p:?}"
    );
    let potion = text("flow", "(name: \"Draught\", effect: Heal(\"1d4\"), ap: 1)");
    let p = problems(&potion);
    assert!(
        p.len() == 1 && p[0].starts_with(&place(&potion, "ap: 1")) && p[0].contains("potion"),
        "{p:?}"
    );
    let good = text("flow", "(name: \"Wand\", effect: Cleanse, ap: 1)");
    assert_eq!(problems(&good), Vec::<String>::new());
    let phases = text("phases", "(name: \"Wand\", effect: Cleanse, ap: 1)");
    assert!(
        problems(&phases)
            .iter()
            .any(|p| p.contains("sets `ap`, which `phases` does not read")),
        "{:?}",
        problems(&phases)
    );
}

// ------------------------------------------------------------------ L175 off-hand perk

/// Covers F-51 (seed L175: "There is a Perk to remove this detriment entirely"):
/// an off-hand longsword attacks at Melee 55 − 10; with the unit trait
/// `Two-Weapon Fighting` at 55. Other traits are refused naming the valid one.
#[test]
fn f_51_seed_l175_two_weapon_fighting_removes_the_off_hand_penalty() {
    let swing = |traits: Vec<String>| {
        let a = UnitDef {
            weapons: vec![blade("Longsword", Hand::Off)],
            traits,
            ..soldier("A", "Blue", (0, 0), 5)
        };
        let mut b = begin(&field(vec![a, soldier("T", "Red", (1, 0), 0)]), &[1, 1, 90]);
        let ev = strike(&mut b, "A", "T", "Longsword");
        rolls(&b, &ev)[0].2
    };
    assert_eq!(swing(Vec::new()), 45, "F-51: off-hand −10");
    assert_eq!(swing(vec!["Two-Weapon Fighting".into()]), 55, "the perk");
    let mut l = field(vec![UnitDef {
        traits: vec!["Ambidextrous".into()],
        ..soldier("A", "Blue", (0, 0), 5)
    }]);
    l.sides[0].traits = vec!["Two-Weapon Fighting".into()];
    let issues: Vec<String> = skirmish::level::validate::validate(&l)
        .into_iter()
        .map(|i| i.message)
        .collect();
    assert!(
        issues
            .iter()
            .any(|m| m.contains("`Ambidextrous`")
                && m.contains("expected one of: Two-Weapon Fighting")),
        "{issues:?}"
    );
    assert!(
        issues.iter().any(|m| m.contains("reads no side traits")),
        "{issues:?}"
    );
}

/// Covers F-37, F-38 (seed L118) in a scenario's own words: `Ready(unit:, then:
/// Shove, effect: KnockProne, on: Casts)` as `docs/battle-files.md` and the README
/// write it, with scripted dice.
#[test]
fn f_37_seed_l118_a_scenario_readies_a_shove_on_casting() {
    let (r, w) = (hex(0, 0), hex(1, 0));
    let text = format!(
        r#"Scenario(
    level: Inline((
        name: "Ready",
        ruleset: "flow",
        grid: Hex,
        size: (20, 20),
        sides: [(name: "Blue", decisions: Ask), (name: "Red", decisions: Ask)],
        units: [
            (name: "R", side: "Blue", pos: ({}, {}), stats: {{"AgiMod": 5}},
             skills: {{"Athletics": 40}}, weapons: [(name: "Sword", damage: "1d8")]),
            (name: "W", side: "Red", pos: ({}, {}), stats: {{"AgiMod": 0}},
             skills: {{"Athletics": 40, "Ranged": 50}},
             weapons: [(name: "Firebolt", damage: "1d6", category: Spell, range: 6)]),
        ],
    )),
    dice: Faces([1, 1, 30, 90, 90]),
    commands: [
        Ready(unit: "R", then: Shove, effect: KnockProne, on: Casts),
        EndTurn(unit: "R"),
        Attack(unit: "W", target: "R", power: "Firebolt"),
        Pass(side: "Blue"),
    ],
)"#,
        r.x, r.y, w.x, w.y
    );
    let scenario = skirmish::script::parse(&text).expect("the command form parses");
    let skirmish::script::LevelRef::Inline(level) = &scenario.level else {
        panic!("inline level")
    };
    let run = skirmish::script::run(&scenario, level).expect("sets up");
    assert!(run.error.is_none(), "{:?}", run.error);
    let w = run
        .battle
        .units()
        .into_iter()
        .find(|u| u.name == "W")
        .unwrap();
    assert!(w.conditions.contains(&"Prone".to_string()), "{w:?}");
}
