//! Scenario tests of the `flow` ruleset (RULES.md §5): every F- rule, gap resolution
//! and golden example, with scripted dice in the order the engine asks for them.
//!
//! Dice order: initiative is one d10 per unit in roster order at the start of the
//! battle (once); an attack rolls its d100 check (two with an edge), then — after the
//! reaction decision — the reaction's d100, then the damage dice. Hexes are placed
//! by axial coordinates around an origin in the middle of a 20 x 20 map.

use std::collections::BTreeMap;

use skirmish::engine::board::{Board, Cell, GridKind};
use skirmish::engine::command::{Reaction, ReactionRefusal};
use skirmish::engine::decision::PendingDecision;
use skirmish::engine::dice::Dice;
use skirmish::engine::event::Event;
use skirmish::engine::rulesets::flow::events::FlowEvent;
use skirmish::engine::rulesets::flow::pools;
use skirmish::engine::rulesets::flow::{FlowAction, ShoveEffect};
use skirmish::engine::rulesets::new_battle;
use skirmish::engine::skill::{CheckRules, Edge, SuccessLevel};
use skirmish::engine::units::UnitId;
use skirmish::engine::{Awaiting, Battle, Command, CommandError};
use skirmish::level::schema::*;

// ------------------------------------------------------------------ helpers

/// The cell at axial `(q, r)` from the map's origin hex.
fn ax(q: i32, r: i32) -> (i32, i32) {
    let o = Board::to_axial(Cell::new(8, 8));
    let c = Board::from_axial(o + hexx::Hex::new(q, r));
    (c.x, c.y)
}

fn cell(q: i32, r: i32) -> Cell {
    let (x, y) = ax(q, r);
    Cell::new(x, y)
}

fn weapon(name: &str, damage: &str) -> WeaponDef {
    WeaponDef {
        name: name.into(),
        damage: damage.into(),
        reach: 1,
        range: 0,
        category: WeaponCategory::Standard,
        two_handed: false,
        held: Hand::Main,
        on_hit: vec![],
    }
}

fn sword() -> WeaponDef {
    weapon("Sword", "1d8")
}

fn shield() -> WeaponDef {
    WeaponDef {
        category: WeaponCategory::Shield,
        held: Hand::Off,
        ..weapon("Shield", "1d3")
    }
}

fn bow() -> WeaponDef {
    WeaponDef {
        range: 6,
        two_handed: true,
        ..weapon("Shortbow", "1d6")
    }
}

fn polearm() -> WeaponDef {
    WeaponDef {
        reach: 2,
        two_handed: true,
        category: WeaponCategory::Polearm,
        ..weapon("Halberd", "1d10")
    }
}

/// A flow unit with a sword; AgiMod orders initiative (faces are usually all 1s).
fn fu(name: &str, side: &str, at: (i32, i32), agi: i32) -> UnitDef {
    let skills: BTreeMap<String, i32> = [
        ("Melee", 50),
        ("Ranged", 50),
        ("Agility", 50),
        ("Athletics", 40),
        ("Endurance", 50),
        ("Deception", 30),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    UnitDef {
        name: name.into(),
        side: side.into(),
        pos: ax(at.0, at.1),
        stats: [("AgiMod".to_string(), agi), ("HP".to_string(), 20)]
            .into_iter()
            .collect(),
        skills,
        weapons: vec![sword()],
        ..Default::default()
    }
}

fn with_skill(mut u: UnitDef, skill: &str, v: i32) -> UnitDef {
    u.skills.insert(skill.into(), v);
    u
}

fn with_stat(mut u: UnitDef, stat: &str, v: i32) -> UnitDef {
    u.stats.insert(stat.into(), v);
    u
}

fn sized(mut u: UnitDef, size: Size) -> UnitDef {
    u.size = size;
    u
}

fn armed(mut u: UnitDef, weapons: Vec<WeaponDef>) -> UnitDef {
    u.weapons = weapons;
    u
}

/// A 20 x 20 hex flow level; Blue and Red are asked every decision.
fn lvl(units: Vec<UnitDef>) -> Level {
    Level {
        name: "flow test".into(),
        version: 1,
        ruleset: "flow".into(),
        grid: GridKind::Hex,
        size: (20, 20),
        terrain: vec![],
        sides: ["Blue", "Red"]
            .iter()
            .map(|n| SideDef {
                name: n.to_string(),
                controller: Controller::Human,
                decisions: DecisionPolicy::Ask,
                traits: Vec::new(),
            })
            .collect(),
        units,
        rules: BTreeMap::new(),
        victory: Victory::default(),
        seed: None,
    }
}

fn policy(mut l: Level, side: usize, p: DecisionPolicy) -> Level {
    l.sides[side].decisions = p;
    l
}

fn rule(mut l: Level, key: &str, value: &str) -> Level {
    l.rules.insert(key.into(), ron::from_str(value).unwrap());
    l
}

fn start(level: &Level, faces: &[u32]) -> Battle {
    assert!(
        skirmish::level::validate::validate(level).is_empty(),
        "{:?}",
        skirmish::level::validate::validate(level)
    );
    new_battle(level, Dice::scripted(faces.iter().copied())).expect("level sets up")
}

fn id(b: &Battle, n: &str) -> UnitId {
    b.unit_id(n).unwrap_or_else(|| panic!("no unit {n}"))
}

fn side(b: &Battle, n: &str) -> skirmish::engine::units::SideId {
    b.side_id(n).unwrap()
}

fn pools(b: &Battle, n: &str) -> (i32, i32, i32) {
    let p = b.pools(id(b, n));
    let get = |k: &str| p.iter().find(|(l, _)| l == k).map(|x| x.1).unwrap();
    (get("AP"), get("RP"), get("FP"))
}

fn hp(b: &Battle, n: &str) -> i32 {
    b.units().into_iter().find(|u| u.name == n).unwrap().hp
}

fn at(b: &Battle, n: &str) -> Cell {
    b.units().into_iter().find(|u| u.name == n).unwrap().cell
}

fn conds(b: &Battle, n: &str) -> Vec<String> {
    b.units()
        .into_iter()
        .find(|u| u.name == n)
        .unwrap()
        .conditions
}

fn active(b: &Battle) -> String {
    match b.awaiting() {
        Awaiting::Unit(u, _) => b.unit_name(u),
        other => format!("{other:?}"),
    }
}

fn attack(b: &mut Battle, a: &str, t: &str) -> Result<Vec<Event>, CommandError> {
    attack_with(b, a, t, None)
}

fn attack_with(
    b: &mut Battle,
    a: &str,
    t: &str,
    w: Option<&str>,
) -> Result<Vec<Event>, CommandError> {
    let (a, t) = (id(b, a), id(b, t));
    b.submit(Command::Attack {
        unit: a,
        target: t,
        power: w.map(String::from),
        aim: None,
        approach: Vec::new(),
    })
    .map(|e| e.to_vec())
}

fn act(
    b: &mut Battle,
    u: &str,
    action: impl FnOnce(&Battle) -> FlowAction,
) -> Result<Vec<Event>, CommandError> {
    let unit = id(b, u);
    let action = action(b);
    b.submit(action.by(unit)).map(|e| e.to_vec())
}

fn end(b: &mut Battle, u: &str) {
    let unit = id(b, u);
    b.submit(Command::EndTurn { unit }).unwrap();
}

fn walk(b: &mut Battle, u: &str, path: &[Cell]) -> Result<Vec<Event>, CommandError> {
    let unit = id(b, u);
    b.submit(Command::Move {
        unit,
        power: "Move".into(),
        path: path.to_vec(),
        target: None,
    })
    .map(|e| e.to_vec())
}

fn step(b: &mut Battle, u: &str, to: Cell) -> Result<Vec<Event>, CommandError> {
    let unit = id(b, u);
    b.submit(Command::Move {
        unit,
        power: "Step".into(),
        path: vec![to],
        target: None,
    })
    .map(|e| e.to_vec())
}

fn react(b: &mut Battle, u: &str, r: Reaction) -> Result<Vec<Event>, CommandError> {
    let unit = id(b, u);
    let side = skirmish::engine::battle::side_of(b.world(), unit);
    b.submit(Command::React {
        side,
        unit,
        reaction: r,
        to: None,
        swap: false,
    })
    .map(|e| e.to_vec())
}

fn pass(b: &mut Battle, s: &str) -> Vec<Event> {
    let side = side(b, s);
    b.submit(Command::Pass { side }).unwrap().to_vec()
}

/// The pending decision.
fn decision(b: &Battle) -> PendingDecision {
    match b.awaiting() {
        Awaiting::Decision(d) => *d,
        other => panic!("no decision: {other:?}"),
    }
}

/// The reactions offered in the pending decision: (unit, reaction, chance), one per
/// reaction (an Intercept is offered once per hex: listed once).
fn options(b: &Battle) -> Vec<(String, Reaction, f64)> {
    let mut out: Vec<(String, Reaction, f64)> = Vec::new();
    for o in decision(b).options {
        let Command::React { unit, reaction, .. } = o.command else {
            panic!("not a reaction: {o:?}")
        };
        let row = (
            b.unit_name(unit),
            reaction,
            o.chance.expect("a reaction rolls"),
        );
        if out.last() != Some(&row) {
            out.push(row);
        }
    }
    out
}

/// The hexes the pending decision offers `reaction` to move to.
fn offered_cells(b: &Battle, reaction: Reaction) -> Vec<Cell> {
    decision(b)
        .options
        .iter()
        .filter_map(|o| match o.command {
            Command::React {
                reaction: r,
                to: Some(c),
                ..
            } if r == reaction => Some(c),
            _ => None,
        })
        .collect()
}

fn checks(events: &[Event]) -> Vec<(u32, SuccessLevel, i32)> {
    events
        .iter()
        .filter_map(|e| match flow(e) {
            Some(FlowEvent::SkillChecked {
                roll,
                level,
                target,
                ..
            }) => Some((*roll, *level, *target)),
            _ => None,
        })
        .collect()
}

fn damage(events: &[Event]) -> Vec<i32> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Damaged { amount, .. } => Some(*amount),
            _ => None,
        })
        .collect()
}

fn has_event(events: &[Event], f: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(f)
}

/// The `flow` narration event this is, if it is one.
fn flow(e: &Event) -> Option<&FlowEvent> {
    e.narration()
}

/// A (AgiMod 5, Blue) next to T (AgiMod 0, Red); A acts first.
fn duel(a: UnitDef, t: UnitDef, faces: &[u32]) -> Battle {
    let mut all = vec![1, 1];
    all.extend_from_slice(faces);
    start(&lvl(vec![a, t]), &all)
}

fn a_unit() -> UnitDef {
    fu("A", "Blue", (0, 0), 5)
}

fn t_unit() -> UnitDef {
    fu("T", "Red", (1, 0), 0)
}

// ------------------------------------------------------------------ smoke

/// Covers F-03, F-21.
#[test]
fn f_03_f_21_an_attack_stops_for_the_target_sides_reaction() {
    // F-03, F-04, F-21: A attacks (45 ≤ 50 Normal); Red is asked; T dodges with 30
    // (Normal: Hard needs ≤ 25) and wins the tie (F-GAP-03), so no damage.
    let mut b = duel(a_unit(), t_unit(), &[45, 30]);
    assert_eq!(active(&b), "A");
    attack(&mut b, "A", "T").unwrap();
    let opts = options(&b);
    assert!(
        opts.iter().any(|o| o.0 == "T" && o.1 == Reaction::Dodge),
        "{opts:?}"
    );
    let ev = react(&mut b, "T", Reaction::Dodge).unwrap();
    assert_eq!(checks(&ev), vec![(30, SuccessLevel::Normal, 50)]);
    assert!(damage(&ev).is_empty());
    assert_eq!(hp(&b, "T"), 20);
    assert_eq!(pools(&b, "T").1, 1, "F-10: Dodge costs 1 RP");
    assert_eq!(pools(&b, "A").0, 3, "F-08: an attack costs 2 AP");
}

// ------------------------------------------------------------------ golden examples

/// Covers F-EX-1.
#[test]
fn f_ex_1_five_ap_thirteen_hexes_and_one_attack() {
    // F-EX-1, F-07, F-08, F-39, F-44: Move 6 + Move 6 + Take a Step + Attack = 5 AP.
    let a = fu("A", "Blue", (-6, 0), 5);
    let t = fu("T", "Red", (8, 0), 0);
    let mut b = duel(a, t, &[90]);
    let first: Vec<Cell> = (-5..=0).map(|q| cell(q, 0)).collect();
    walk(&mut b, "A", &first).unwrap();
    assert_eq!(pools(&b, "A").0, 4);
    let second: Vec<Cell> = (1..=6).map(|q| cell(q, 0)).collect();
    walk(&mut b, "A", &second).unwrap();
    assert_eq!(pools(&b, "A").0, 3);
    // A third Move is illegal even with 3 AP left.
    let err = walk(&mut b, "A", &[cell(6, 1)]).unwrap_err();
    assert!(err.to_string().contains("F-08"), "{err}");
    step(&mut b, "A", cell(7, 0)).unwrap();
    assert_eq!(at(&b, "A"), cell(7, 0), "13 hexes moved");
    assert_eq!(pools(&b, "A").0, 2);
    let ev = attack(&mut b, "A", "T").unwrap();
    assert!(has_event(&ev, |e| matches!(
        flow(e),
        Some(FlowEvent::Missed { .. })
    )));
    // 0 AP left: the turn ended by itself and T acts.
    assert_eq!(active(&b), "T");
}

/// Covers F-EX-1.
#[test]
fn f_ex_1_attack_then_total_defense_and_a_potion() {
    // F-EX-1, F-40: Attack (2) + Total Defense (3): the turn ends at once, RP 2 → 3,
    // and reactions have Advantage until the unit's next turn.
    let mut b = duel(a_unit(), t_unit(), &[90, 40]);
    attack(&mut b, "A", "T").unwrap();
    act(&mut b, "A", |_| FlowAction::TotalDefense).unwrap();
    assert_eq!(active(&b), "T");
    assert_eq!(pools(&b, "A").1, 3);
    assert!(conds(&b, "A").contains(&"Total Defense".to_string()));
    attack(&mut b, "T", "A").unwrap();
    let dodge = options(&b)
        .into_iter()
        .find(|o| o.1 == Reaction::Dodge)
        .unwrap();
    let adv =
        CheckRules::default().chance_at_least(50, Some(Edge::Advantage), SuccessLevel::Normal);
    assert!(
        (dodge.2 - adv).abs() < 1e-12 && (adv - 0.75).abs() < 1e-12,
        "{dodge:?}"
    );
    // Drinking a potion from the bag costs 2 AP.
    let mut p = fu("P", "Blue", (0, 0), 5);
    p.items = vec![ItemDef {
        name: "Draught".into(),
        uses: 1,
        effect: ItemEffect::Heal("1d4".into()),
        ap: None,
    }];
    let mut b = duel(p, fu("Far", "Red", (9, 0), 0), &[3]);
    let unit = id(&b, "P");
    b.submit(Command::ActivateItem {
        unit,
        item: "Draught".into(),
        target: None,
    })
    .unwrap();
    assert_eq!(pools(&b, "P").0, 3);
}

/// Covers F-EX-2.
#[test]
fn f_ex_2_flow_points_through_two_rounds() {
    // F-EX-2, F-12 … F-16, F-35: FP 2 → hit 4 → miss 4 → decay 3 → Dodge 4 → Parry +0
    // (once per round) → crit 7 → kill 8 → Flow State keeps 8.
    let a = fu("A", "Blue", (0, 0), 5);
    let t = with_stat(fu("T", "Red", (1, 0), 0), "HP", 20);
    let far = fu("R2", "Red", (0, 9), -5);
    let l = policy(lvl(vec![a, t, far]), 1, DecisionPolicy::Never);
    let mut b = start(&l, &[1, 1, 1, 40, 1, 90, 40, 10, 40, 10, 3, 8]);
    assert_eq!(pools(&b, "A").2, 2, "F-12");
    attack(&mut b, "A", "T").unwrap();
    assert_eq!(pools(&b, "A").2, 4, "F-13: +2 for a hit");
    attack(&mut b, "A", "T").unwrap();
    assert_eq!(pools(&b, "A").2, 4);
    end(&mut b, "A");
    assert_eq!(pools(&b, "A").2, 3, "F-16: -1 at the end of the turn");
    attack(&mut b, "T", "A").unwrap();
    react(&mut b, "A", Reaction::Dodge).unwrap();
    assert_eq!(pools(&b, "A").2, 4, "F-14: +1 for a successful reaction");
    attack(&mut b, "T", "A").unwrap();
    react(&mut b, "A", Reaction::Parry).unwrap();
    assert_eq!(pools(&b, "A").2, 4, "F-14: once per round");
    end(&mut b, "T");
    end(&mut b, "R2");
    assert_eq!(b.turn().round, 2);
    assert_eq!(hp(&b, "T"), 19);
    let ev = attack(&mut b, "A", "T").unwrap();
    assert_eq!(damage(&ev), vec![24], "F-GAP-06: (8 + 4) x 2");
    assert!(has_event(&ev, |e| matches!(e, Event::Defeated { .. })));
    assert_eq!(pools(&b, "A").2, 8, "F-13 crit +3 (F-GAP-14), F-15 kill +1");
    act(&mut b, "A", |_| FlowAction::FlowState).unwrap();
    end(&mut b, "A");
    assert_eq!(pools(&b, "A").2, 8, "F-35: no decay after Flow State");
}

/// Covers F-EX-3, F-48, F-GAP-21.
#[test]
fn f_ex_3_f_48_f_gap_21_range_increments() {
    // F-EX-3: S (Ranged 50) shoots a Shortbow (Range 6) at T 1 … 19 hexes away: the
    // check's target loses 10 per started increment beyond 6 hexes.
    for (d, penalty) in [
        (1, 0),
        (6, 0),
        (7, 10),
        (12, 10),
        (13, 20),
        (18, 20),
        (19, 30),
    ] {
        let s = armed(fu("S", "Blue", (-8, 0), 5), vec![bow()]);
        let t = fu("T", "Red", (-8 + d, 0), 0);
        let l = policy(lvl(vec![s, t]), 1, DecisionPolicy::Never);
        let mut b = start(&l, &[1, 1, 90]);
        let ev = attack(&mut b, "S", "T").unwrap();
        assert_eq!(
            checks(&ev),
            [(90, SuccessLevel::Failure, 50 - penalty)],
            "{d} hexes"
        );
    }
}

/// Covers F-EX-4, F-46, F-47.
#[test]
fn f_ex_4_f_46_f_47_reach_and_leaving_a_threatened_hex() {
    // F-46: Reach 1, 2, 3 threaten 6, 18, 36 hexes.
    let board = Board::new(GridKind::Hex, 20, 20);
    let counts: Vec<usize> = (1..=3)
        .map(|r| board.within(Cell::new(8, 8), r).len())
        .collect();
    assert_eq!(counts, [6, 18, 36]);
    assert_eq!(
        [
            Size::Small,
            Size::Medium,
            Size::Large,
            Size::Huge,
            Size::Gargantuan
        ]
        .map(Size::reach),
        [1, 1, 2, 3, 4],
        "F-GAP-11"
    );
    // F-EX-4: Large L at (0,0), Medium M at (2,0). M moves to (1,1): it moves OUT
    // of a threatened hex, so L may react (1 RP).
    let m = fu("M", "Blue", (2, 0), 5);
    let l = sized(fu("L", "Red", (0, 0), 0), Size::Large);
    let mut b = duel(m.clone(), l.clone(), &[]);
    walk(&mut b, "M", &[cell(1, 1)]).unwrap();
    let d = decision(&b);
    assert!(
        d.prompt.starts_with("M leaves ") && d.prompt.ends_with(": make a Reaction Attack?"),
        "{}",
        d.prompt
    );
    assert_eq!(d.options.len(), 1);
    assert!(matches!(
        d.options[0].command,
        Command::React {
            reaction: Reaction::ReactionAttack,
            ..
        }
    ));
    assert_eq!(d.options[0].caption().split(" (").nth(1), Some("1 RP)"));
    pass(&mut b, "Red");
    assert_eq!(at(&b, "M"), cell(1, 1));
    // Taking a Step there instead provokes nothing.
    let mut b = duel(m, l, &[]);
    step(&mut b, "M", cell(1, 1)).unwrap();
    assert!(matches!(b.awaiting(), Awaiting::Unit(..)));
    assert_eq!(at(&b, "M"), cell(1, 1));
    // A Medium unit with a 2h polearm has Reach 2 too (highest, not stacked).
    let p = armed(fu("P", "Red", (0, 0), 0), vec![polearm()]);
    let mut b = duel(fu("M", "Blue", (2, 0), 5), p, &[]);
    walk(&mut b, "M", &[cell(3, 0)]).unwrap();
    assert!(
        matches!(b.awaiting(), Awaiting::Decision(_)),
        "the polearm threatens 2 hexes"
    );
}

/// Covers F-EX-5, F-GAP-01, F-GAP-02.
#[test]
fn f_ex_5_f_gap_01_f_gap_02_success_levels() {
    use SuccessLevel::*;
    // The level of A's d100 attack check (Melee `skill`) rolling `roll` against T.
    let melee = |skill: i32, roll: u32| {
        let mut b = duel(with_skill(a_unit(), "Melee", skill), t_unit(), &[roll]);
        checks(&attack(&mut b, "A", "T").unwrap())
    };
    // F-EX-5: S = 60 → Normal ≤ 60, Hard ≤ 30, Major ≤ 12, Critical ≤ 6.
    for (roll, level) in [
        (45, Normal),
        (25, Hard),
        (10, Major),
        (5, Critical),
        (61, Failure),
        (97, CriticalFailure),
        (31, Normal),
        (30, Hard),
        (12, Major),
        (6, Critical),
    ] {
        assert_eq!(melee(60, roll), [(roll, level, 60)], "roll {roll}");
    }
    // With −10 for range (Ranged 60, a Shortbow at 7 hexes): S_eff 50 → 50 / 25 / 10 / 5.
    let shot = |skill: i32, hexes: i32, roll: u32| {
        let s = with_skill(
            armed(fu("S", "Blue", (-8, 0), 5), vec![bow()]),
            "Ranged",
            skill,
        );
        let t = fu("T", "Red", (-8 + hexes, 0), 0);
        let mut b = start(&lvl(vec![s, t]), &[1, 1, roll]);
        checks(&attack(&mut b, "S", "T").unwrap())
    };
    for (roll, level) in [
        (50, Normal),
        (25, Hard),
        (10, Major),
        (5, Critical),
        (51, Failure),
    ] {
        assert_eq!(shot(60, 7, roll), [(roll, level, 50)], "roll {roll}");
    }
    // 01 is always Critical (Ranged 10 at 19 hexes: S_eff −20); 96+ always a Critical
    // Failure (Melee 130).
    assert_eq!(shot(10, 19, 1), [(1, Critical, -20)]);
    assert_eq!(melee(130, 96), [(96, CriticalFailure, 130)]);
}

/// Covers F-EX-6, F-24.
#[test]
fn f_ex_6_f_24_parrying_a_larger_attacker() {
    // F-EX-6: Large (Melee 60) rolls 45 Normal; Medium parries (Melee 50) 40 Normal;
    // the size bump makes it Hard > Normal: hit, damage as Normal: 1d8 = 6.
    let big = with_skill(sized(a_unit(), Size::Large), "Melee", 60);
    let mut b = duel(big, t_unit(), &[45, 40, 6]);
    attack(&mut b, "A", "T").unwrap();
    let ev = react(&mut b, "T", Reaction::Parry).unwrap();
    assert!(has_event(&ev, |e| matches!(
        flow(e),
        Some(FlowEvent::OpposedCheck {
            counted_as: SuccessLevel::Hard,
            responder_wins: false,
            ..
        })
    )));
    assert!(has_event(&ev, |e| matches!(
        flow(e),
        Some(FlowEvent::Struck {
            level: SuccessLevel::Normal,
            bonus: 0,
            ..
        })
    )));
    // The narration event names the units it concerns (issue 12: ruleset events).
    let struck = ev.iter().find_map(|e| match e {
        Event::Ruleset(r) if matches!(flow(e), Some(FlowEvent::Struck { .. })) => Some(r),
        _ => None,
    });
    assert_eq!(struck.unwrap().units(), [id(&b, "A"), id(&b, "T")]);
    assert_eq!(damage(&ev), vec![6]);
    // Medium vs Medium: Normal vs Normal is a tie: the defender wins (F-GAP-03).
    let mut b = duel(with_skill(a_unit(), "Melee", 60), t_unit(), &[45, 40]);
    attack(&mut b, "A", "T").unwrap();
    let ev = react(&mut b, "T", Reaction::Parry).unwrap();
    assert!(damage(&ev).is_empty());
    assert_eq!(hp(&b, "T"), 20);
    // A Medium defender can't parry a Huge attacker at all.
    let mut b = duel(sized(a_unit(), Size::Huge), t_unit(), &[45]);
    attack(&mut b, "A", "T").unwrap();
    assert!(!options(&b).iter().any(|o| o.1 == Reaction::Parry));
    let err = react(&mut b, "T", Reaction::Parry).unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::IllegalReaction {
                reason: ReactionRefusal::TooLarge,
                ..
            }
        ),
        "{err}"
    );
}

/// Covers F-EX-7, F-23.
#[test]
fn f_ex_7_f_23_critical_against_a_fumbled_dodge_triples() {
    // F-EX-7: Melee 70 rolls 04 → Critical (≤ 7); the Dodge (max(Agility 50,
    // Athletics 40) = 50) rolls 99 → Critical Failure; 1d8 = 5 → (5 + 4) x 3 = 27.
    let a = with_skill(a_unit(), "Melee", 70);
    let t = with_stat(t_unit(), "HP", 40);
    let mut b = duel(a.clone(), t.clone(), &[4, 99, 5]);
    attack(&mut b, "A", "T").unwrap();
    let ev = react(&mut b, "T", Reaction::Dodge).unwrap();
    assert_eq!(checks(&ev), vec![(99, SuccessLevel::CriticalFailure, 50)]);
    assert_eq!(damage(&ev), vec![27]);
    assert_eq!(pools(&b, "A").2, 5, "+3 FP for the crit");
    // Without the fumbled Dodge: x 2 = 18.
    let mut b = duel(a, t, &[4, 5]);
    attack(&mut b, "A", "T").unwrap();
    let ev = pass(&mut b, "Red");
    assert_eq!(damage(&ev), vec![18]);
}

/// Covers F-EX-8, F-22.
#[test]
fn f_ex_8_f_22_critical_parry_refunds_rp() {
    // F-EX-8: Normal attack (Melee 60, 45); Parry with Melee 50 rolls 03 → Critical:
    // the defender wins, gets its RP back (2 → 1 → 2) and +1 FP; the attacker +0.
    let mut b = duel(with_skill(a_unit(), "Melee", 60), t_unit(), &[45, 3]);
    attack(&mut b, "A", "T").unwrap();
    let ev = react(&mut b, "T", Reaction::Parry).unwrap();
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::PointsChanged {
            pool: pools::RP,
            delta: -1,
            ..
        }
    )));
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::PointsChanged {
            pool: pools::RP,
            delta: 1,
            ..
        }
    )));
    assert_eq!(pools(&b, "T"), (5, 2, 3));
    assert_eq!(pools(&b, "A").2, 2);
}

/// Covers F-EX-9, F-31.
#[test]
fn f_ex_9_f_31_intercept_range_and_resolution() {
    // F-EX-9: ally Y at (0,0) attacked in melee by X at (1,0): the hexes next to both
    // are (0,1) and (1,-1).
    let x = fu("X", "Red", (1, 0), 5);
    let y = fu("Y", "Blue", (0, 0), 0);
    let setup = |i_at: (i32, i32), faces: &[u32]| {
        let i = fu("I", "Blue", i_at, -1);
        start(&lvl(vec![x.clone(), y.clone(), i]), faces)
    };
    for (i_at, legal) in [((0, 3), true), ((-3, 4), true), ((-4, 5), false)] {
        let mut b = setup(i_at, &[1, 1, 1, 45]);
        attack(&mut b, "X", "Y").unwrap();
        let offered = options(&b)
            .iter()
            .any(|o| o.0 == "I" && o.1 == Reaction::Intercept);
        assert_eq!(offered, legal, "interceptor at {i_at:?}");
        if !legal {
            let err = react(&mut b, "I", Reaction::Intercept).unwrap_err();
            assert!(
                matches!(
                    err,
                    CommandError::IllegalReaction {
                        reason: ReactionRefusal::OutOfReach(_),
                        ..
                    }
                ),
                "{err}"
            );
        }
    }
    // From (0,3) the interceptor runs to (0,1), wins Agility 20 (Hard) against the
    // Normal attack and takes the hit (1d8 = 4) in Y's place; 2 RP, +1 FP.
    let mut b = setup((0, 3), &[1, 1, 1, 45, 20, 4]);
    attack(&mut b, "X", "Y").unwrap();
    assert_eq!(offered_cells(&b, Reaction::Intercept), vec![cell(0, 1)]);
    let o = decision(&b)
        .options
        .into_iter()
        .find(|o| {
            matches!(
                o.command,
                Command::React {
                    reaction: Reaction::Intercept,
                    ..
                }
            )
        })
        .unwrap();
    assert_eq!(o.cost.map(|c| (c.pool, c.amount)), Some((pools::RP, 2)));
    let (unit, s) = (id(&b, "I"), side(&b, "Blue"));
    let ev = b
        .submit(Command::React {
            side: s,
            unit,
            reaction: Reaction::Intercept,
            to: Some(cell(0, 1)),
            swap: false,
        })
        .unwrap()
        .to_vec();
    assert!(has_event(&ev, |e| matches!(
        flow(e),
        Some(FlowEvent::Intercepted { .. })
    )));
    assert_eq!(at(&b, "I"), cell(0, 1));
    assert_eq!((hp(&b, "I"), hp(&b, "Y")), (16, 20));
    assert_eq!(pools(&b, "I").1, 0);
    assert_eq!(pools(&b, "I").2, 3);
}

/// Covers F-EX-10, F-43, F-GAP-19.
#[test]
fn f_ex_10_f_43_f_gap_19_surprise_round() {
    // F-EX-10: surprisers A (9) and B (4); surprised C (7) and D (2).
    let a = fu("A", "Red", (0, 0), 0);
    let bb = fu("B", "Red", (0, 5), 0);
    let c = fu("C", "Blue", (1, 0), 0);
    let d = fu("D", "Blue", (0, 9), 0);
    let l = rule(lvl(vec![a, bb, c, d]), "surprisers", "[\"Red\"]");
    let mut b = start(&l, &[9, 4, 7, 2, 40, 3]);
    assert!(
        b.events()
            .iter()
            .any(|e| matches!(flow(e), Some(FlowEvent::SurpriseRound { .. })))
    );
    assert_eq!(active(&b), "A");
    assert_eq!(pools(&b, "A"), (5, 2, 2));
    assert_eq!(pools(&b, "C"), (0, 0, 0));
    assert_eq!(pools(&b, "D"), (0, 0, 0));
    end(&mut b, "A");
    assert_eq!(active(&b), "B");
    end(&mut b, "B");
    // Round 1 (normal): A, C, B, D — A acts twice in a row.
    assert_eq!(b.turn().round, 2);
    assert_eq!(active(&b), "A");
    assert_eq!(pools(&b, "C"), (0, 0, 2), "C and D get their 2 FP now");
    assert_eq!(pools(&b, "D").2, 2);
    // C's RP stays 0 until its turn: it can't react to A.
    let ev = attack(&mut b, "A", "C").unwrap();
    assert!(
        matches!(b.awaiting(), Awaiting::Unit(..)),
        "no reaction decision"
    );
    assert_eq!(damage(&ev), vec![3]);
    end(&mut b, "A");
    assert_eq!(active(&b), "C");
    assert_eq!(pools(&b, "C"), (5, 2, 2));
    end(&mut b, "C");
    assert_eq!(active(&b), "B");
    end(&mut b, "B");
    assert_eq!(active(&b), "D");
}

/// Covers F-EX-11, F-49, F-50, F-51, F-GAP-12, F-GAP-20.
#[test]
fn f_ex_11_f_49_f_50_f_51_f_gap_12_f_gap_20_modifiers() {
    // F-EX-11: Melee 55. Off-hand longsword ganging up: 55 − 10 + 10 = 55; off-hand
    // dagger (Finesse) ganging up: 65; a Reaction Attack: 55 regardless; a shortbow
    // (Ranged 50) at 9 hexes: 40, firing into melee without penalty (F-50).
    let longsword = WeaponDef {
        held: Hand::Off,
        ..weapon("Longsword", "1d8")
    };
    let dagger = WeaponDef {
        held: Hand::Off,
        category: WeaponCategory::Finesse,
        ..weapon("Dagger", "1d4")
    };
    let a1 = with_skill(
        armed(fu("A1", "Blue", (0, 0), 5), vec![longsword]),
        "Melee",
        55,
    );
    let a2 = with_skill(
        armed(fu("A2", "Blue", (1, -1), 4), vec![dagger]),
        "Melee",
        55,
    );
    let s = armed(fu("S", "Blue", (-8, 0), 3), vec![bow()]);
    let t = fu("T", "Red", (1, 0), 0);
    let mut b = start(&lvl(vec![a1, a2, s, t]), &[1, 1, 1, 1, 90, 90, 90, 90]);
    let ev = attack(&mut b, "A1", "T").unwrap();
    assert_eq!(checks(&ev)[0].2, 55);
    end(&mut b, "A1");
    let ev = attack(&mut b, "A2", "T").unwrap();
    assert_eq!(checks(&ev)[0].2, 65);
    end(&mut b, "A2");
    let ev = attack(&mut b, "S", "T").unwrap();
    assert_eq!(checks(&ev)[0].2, 40);
    end(&mut b, "S");
    // T leaves the hex both threaten: each may react once (A1 first, roster order).
    walk(&mut b, "T", &[cell(2, 0)]).unwrap();
    let ev = react(&mut b, "A1", Reaction::ReactionAttack).unwrap();
    assert_eq!(checks(&ev)[0].2, 55, "F-GAP-12: unmodified");
    assert_eq!(options(&b)[0].0, "A2");
    pass(&mut b, "Blue");
    assert_eq!(at(&b, "T"), cell(2, 0));
    // F-GAP-20: gang-up needs the attacker to threaten and an ally to threaten too.
    use skirmish::engine::rulesets::flow::attack::ganging_up;
    let (a2, t) = (id(&b, "A2"), id(&b, "T"));
    assert!(!ganging_up(b.world(), a2, t, &sword()));
}

// ------------------------------------------------------------------ rules

/// Covers F-01, F-GAP-07.
#[test]
fn f_01_f_gap_07_unit_data_defaults_and_checks() {
    let mut pc = fu("PC", "Blue", (0, 0), 5);
    pc.stats.remove("HP");
    let mut npc = fu("NPC", "Red", (3, 0), 0);
    npc.stats.remove("HP");
    let mut l = lvl(vec![pc, npc]);
    l.sides[1].controller = Controller::Ai(AiPolicy::Normal);
    let b = start(&l, &[1, 1]);
    assert_eq!((hp(&b, "PC"), hp(&b, "NPC")), (20, 12), "F-GAP-07");
    assert_eq!(pools(&b, "PC"), (5, 2, 2), "F-07, F-09, F-12");
    // Missing Agility Modifier, a misspelt skill, a square grid: all reported.
    let mut bad = fu("Bad", "Blue", (0, 0), 0);
    bad.stats.remove("AgiMod");
    bad.skills.insert("Meele".into(), 50);
    let mut l = lvl(vec![bad]);
    l.grid = GridKind::Square;
    let issues: Vec<String> = skirmish::level::validate::validate(&l)
        .into_iter()
        .map(|i| i.message)
        .collect();
    assert!(
        issues
            .iter()
            .any(|m| m.contains("missing required stat AgiMod")),
        "{issues:?}"
    );
    assert!(
        issues.iter().any(|m| m.contains("unknown skill `Meele`")),
        "{issues:?}"
    );
    assert!(issues.iter().any(|m| m.contains("grid: Hex")), "{issues:?}");
}

/// Covers F-02, F-05, F-GAP-08.
#[test]
fn f_02_f_05_f_gap_08_initiative_once_with_tie_breaks() {
    let mut u4 = fu("U4", "Red", (0, 6), 0);
    u4.stats.insert("PC".into(), 0);
    let units = vec![
        fu("U1", "Blue", (0, 0), 2),
        fu("U2", "Red", (0, 2), 1),
        fu("U3", "Blue", (0, 4), 0),
        u4,
        fu("U5", "Blue", (3, 0), 0),
        fu("U6", "Red", (3, 2), 0),
    ];
    // 1d10 + AgiMod: U1 3+2, U2 4+1 (AgiMod breaks it), U3 2 and U4 2 (the PC first),
    // U5 1 and U6 1 roll off 3 against 8.
    let mut b = start(&lvl(units), &[3, 4, 2, 2, 1, 1, 3, 8]);
    let order: Vec<String> = b.turn_order()[0]
        .1
        .iter()
        .map(|&u| b.unit_name(u))
        .collect();
    assert_eq!(order, ["U1", "U2", "U3", "U4", "U6", "U5"]);
    // F-05: the same order every round; initiative is never rolled again.
    for n in ["U1", "U2", "U3", "U4", "U6", "U5"] {
        assert_eq!(active(&b), n);
        end(&mut b, n);
    }
    assert_eq!(b.turn().round, 2);
    assert_eq!(active(&b), "U1");
    let rolls = b
        .events()
        .iter()
        .filter(|e| matches!(e, Event::InitiativeRolled { .. }))
        .count();
    assert_eq!(rolls, 6);
}

/// Covers F-06, F-GAP-22.
#[test]
fn f_06_f_gap_22_ongoing_damage_then_decay_at_turn_end() {
    let mut a = a_unit();
    a.weapons = vec![WeaponDef {
        on_hit: vec!["Bleeding".into()],
        ..sword()
    }];
    let l = policy(lvl(vec![a, t_unit()]), 1, DecisionPolicy::Never);
    let mut b = start(&l, &[1, 1, 40, 3, 2, 1]);
    attack(&mut b, "A", "T").unwrap();
    assert!(conds(&b, "T").contains(&"Bleeding".to_string()));
    end(&mut b, "A");
    let unit = id(&b, "T");
    let ev = b.submit(Command::EndTurn { unit }).unwrap().to_vec();
    let pos = |f: &dyn Fn(&Event) -> bool| ev.iter().position(f).unwrap();
    let bleed = pos(&|e| matches!(e, Event::Damaged { amount: 2, .. }));
    let decay = pos(&|e| {
        matches!(
            e,
            Event::PointsChanged {
                pool: pools::FP,
                delta: -1,
                ..
            }
        )
    });
    let ended = pos(&|e| matches!(e, Event::TurnEnded { .. }));
    assert!(
        bleed < decay && decay < ended,
        "F-06 order: ongoing, decay, next"
    );
    assert_eq!(hp(&b, "T"), 20 - 3 - 2);
    // It lasts two rounds (F-GAP-22 data: ongoing_rounds).
    end(&mut b, "A");
    end(&mut b, "T");
    assert_eq!(hp(&b, "T"), 14);
    assert!(!conds(&b, "T").contains(&"Bleeding".to_string()));
}

/// Covers F-07: unused AP is lost at the end of the turn, and the next turn starts
/// with 5 again, not 5 plus what was left.
#[test]
fn f_07_unused_ap_is_lost_at_the_end_of_the_turn() {
    let mut b = duel(a_unit(), fu("T", "Red", (5, 0), 0), &[]);
    step(&mut b, "A", cell(0, 1)).unwrap();
    assert_eq!(pools(&b, "A").0, 4);
    let unit = id(&b, "A");
    let ev = b.submit(Command::EndTurn { unit }).unwrap().to_vec();
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::PointsChanged {
            pool: pools::AP,
            delta: -4,
            now: 0,
            ..
        }
    )));
    assert_eq!(pools(&b, "A").0, 0, "4 AP lost, none banked");
    end(&mut b, "T");
    assert_eq!(active(&b), "A");
    assert_eq!(pools(&b, "A").0, 5, "refilled to 5, not 9");
}

/// Covers F-09, F-GAP-09.
#[test]
fn f_09_f_gap_09_rp_refill_at_the_start_of_own_turn() {
    // T acts first; A attacks it on A's turn and T dodges: 1 RP until T's next turn.
    let t = fu("T", "Red", (1, 0), 5);
    let a = fu("A", "Blue", (0, 0), 0);
    // (Under Total Defense the Dodge has Advantage: 10 and 60, the lower counts.)
    let mut b = start(&lvl(vec![t, a]), &[1, 1, 45, 10, 60]);
    act(&mut b, "T", |_| FlowAction::TotalDefense).unwrap();
    assert_eq!(pools(&b, "T").1, 3, "F-40: +1 RP");
    attack(&mut b, "A", "T").unwrap();
    react(&mut b, "T", Reaction::Dodge).unwrap();
    assert_eq!(pools(&b, "T").1, 2);
    end(&mut b, "A");
    // T's turn: RP back to its maximum 2 (not 3: Total Defense's RP lapse).
    assert_eq!(active(&b), "T");
    assert_eq!(pools(&b, "T").1, 2);
    assert!(!conds(&b, "T").contains(&"Total Defense".to_string()));
    let last_turn = b
        .events()
        .iter()
        .rposition(|e| matches!(e, Event::TurnStarted { .. }))
        .unwrap();
    assert!(b.events()[last_turn..].iter().any(|e| matches!(
        e,
        Event::PointsChanged {
            pool: pools::AP,
            ..
        }
    )));
}

/// Covers F-10, F-11.
#[test]
fn f_10_f_11_illegal_reactions_are_refused_with_reasons() {
    // A reaches T from 2 hexes with a polearm; T has only 1 RP and no shield.
    let a = armed(fu("A", "Blue", (0, 0), 5), vec![polearm()]);
    let t = with_stat(fu("T", "Red", (2, 0), 0), "RP", 1);
    let mut b = duel(a.clone(), t, &[45, 90, 5]);
    attack(&mut b, "A", "T").unwrap();
    let offered: Vec<Reaction> = options(&b).into_iter().map(|o| o.1).collect();
    assert_eq!(offered, [Reaction::Dodge, Reaction::Parry]);
    let err = react(&mut b, "T", Reaction::Riposte).unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::IllegalReaction {
                reason: ReactionRefusal::NoRp { have: 1, need: 2 },
                ..
            }
        ),
        "{err}"
    );
    let err = react(&mut b, "T", Reaction::Block).unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::IllegalReaction {
                reason: ReactionRefusal::NoShield,
                ..
            }
        ),
        "{err}"
    );
    let err = react(&mut b, "A", Reaction::Dodge).unwrap_err();
    assert!(matches!(err, CommandError::DecisionPending { .. }), "{err}");
    let err = attack(&mut b, "A", "T").unwrap_err();
    assert!(
        err.to_string().contains("React"),
        "the pending decision is spelled out: {err}"
    );
    react(&mut b, "T", Reaction::Dodge).unwrap();
    assert_eq!(hp(&b, "T"), 15);
    let err = react(&mut b, "T", Reaction::Parry).unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::IllegalReaction {
                reason: ReactionRefusal::AlreadyReacted,
                ..
            }
        ),
        "F-11: {err}"
    );
    // With 2 RP the Riposte is still out of reach of a sword 2 hexes away.
    let mut b = duel(a, fu("T", "Red", (2, 0), 0), &[45]);
    attack(&mut b, "A", "T").unwrap();
    let err = react(&mut b, "T", Reaction::Riposte).unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::IllegalReaction {
                reason: ReactionRefusal::OutOfReach(_),
                ..
            }
        ),
        "{err}"
    );
}

/// Covers F-17, F-GAP-14.
#[test]
fn f_17_f_gap_14_fp_never_below_zero_and_nothing_spends_it() {
    let mut b = duel(fu("A", "Blue", (0, 0), 5), fu("T", "Red", (5, 0), 0), &[]);
    // F-17: Flow State costs AP, not FP; the base ruleset has no Flow Actions.
    act(&mut b, "A", |_| FlowAction::FlowState).unwrap();
    assert_eq!(pools(&b, "A"), (4, 2, 2));
    for _ in 0..4 {
        let n = active(&b);
        end(&mut b, &n);
    }
    assert_eq!(pools(&b, "T").2, 0);
    end(&mut b, "A");
    end(&mut b, "T");
    assert_eq!(pools(&b, "T").2, 0, "decay at 0 does nothing");
}

/// Covers F-18, F-19, F-20.
#[test]
fn f_18_f_19_f_20_dodge_parry_block_skills_and_limits() {
    // F-18: Dodge rolls the higher of Agility / Athletics.
    let t = with_skill(with_skill(t_unit(), "Agility", 30), "Athletics", 70);
    let mut b = duel(a_unit(), t, &[45, 60]);
    attack(&mut b, "A", "T").unwrap();
    let ev = react(&mut b, "T", Reaction::Dodge).unwrap();
    assert!(has_event(
        &ev,
        |e| matches!(flow(e), Some(FlowEvent::SkillChecked { skill, target: 70, .. }) if skill == "Athletics")
    ));
    assert_eq!(hp(&b, "T"), 20);
    // F-19, F-20: against a shortbow, no Parry; a shield-bearer may Block with
    // Endurance; a critical Block refunds its RP (F-GAP-13).
    let a = armed(fu("A", "Blue", (0, 0), 5), vec![bow()]);
    let t = armed(fu("T", "Red", (3, 0), 0), vec![sword(), shield()]);
    let mut b = duel(a, t, &[45, 3]);
    attack(&mut b, "A", "T").unwrap();
    let offered: Vec<Reaction> = options(&b).into_iter().map(|o| o.1).collect();
    assert_eq!(offered, [Reaction::Dodge, Reaction::Block]);
    let err = react(&mut b, "T", Reaction::Parry).unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::IllegalReaction {
                reason: ReactionRefusal::WrongAttack(_),
                ..
            }
        ),
        "{err}"
    );
    let ev = react(&mut b, "T", Reaction::Block).unwrap();
    assert!(has_event(
        &ev,
        |e| matches!(flow(e), Some(FlowEvent::SkillChecked { skill, .. }) if skill == "Endurance")
    ));
    assert_eq!(pools(&b, "T").1, 2);
    assert_eq!(hp(&b, "T"), 20);
}

/// Covers F-25, F-26, F-GAP-12.
#[test]
fn f_25_f_26_f_gap_12_shooting_drinking_and_standing_up_provoke() {
    let mut s = armed(fu("S", "Blue", (0, 0), 5), vec![bow()]);
    s.items = vec![ItemDef {
        name: "Draught".into(),
        uses: 1,
        effect: ItemEffect::Heal("1d4".into()),
        ap: None,
    }];
    let e = fu("E", "Red", (1, 0), 0);
    let f = fu("F", "Red", (4, 0), -1);
    let mut b = start(&lvl(vec![s, e, f]), &[1, 1, 1, 90, 90, 2, 30, 90]);
    // A ranged attack in E's threat range: E's Reaction Attack comes first.
    attack_with(&mut b, "S", "F", Some("Shortbow")).unwrap();
    assert_eq!(
        options(&b),
        vec![("E".to_string(), Reaction::ReactionAttack, 0.5)]
    );
    let ev = react(&mut b, "E", Reaction::ReactionAttack).unwrap();
    let who: Vec<String> = ev
        .iter()
        .filter_map(|e| match flow(e) {
            Some(FlowEvent::SkillChecked { unit, .. }) => Some(b.unit_name(*unit)),
            _ => None,
        })
        .collect();
    assert_eq!(who, ["E", "S"], "the RA resolves before the shot");
    assert_eq!(pools(&b, "E").1, 1);
    // Drinking a potion provokes too.
    let unit = id(&b, "S");
    b.submit(Command::ActivateItem {
        unit,
        item: "Draught".into(),
        target: None,
    })
    .unwrap();
    assert!(matches!(b.awaiting(), Awaiting::Decision(_)));
    pass(&mut b, "Red");
    end(&mut b, "S");
    // E knocks S prone (Normal success); standing up provokes.
    act(&mut b, "E", |b| FlowAction::Shove {
        target: id(b, "S"),
        effect: ShoveEffect::KnockProne,
    })
    .unwrap();
    assert!(conds(&b, "S").contains(&"Prone".to_string()));
    assert_eq!(at(&b, "S"), cell(0, 0), "Knock Prone only");
    end(&mut b, "E");
    end(&mut b, "F");
    let err = walk(&mut b, "S", &[cell(-1, 0)]).unwrap_err();
    assert!(err.to_string().contains("prone"), "{err}");
    act(&mut b, "S", |_| FlowAction::StandUp).unwrap();
    assert!(matches!(b.awaiting(), Awaiting::Decision(_)));
    pass(&mut b, "Red");
    assert!(!conds(&b, "S").contains(&"Prone".to_string()));
}

/// Covers F-27, F-28.
#[test]
fn f_27_f_28_a_reaction_attack_does_not_stop_a_spell() {
    let bolt = WeaponDef {
        category: WeaponCategory::Spell,
        range: 5,
        ..weapon("Firebolt", "1d6")
    };
    let c = armed(fu("C", "Blue", (0, 0), 5), vec![bolt]);
    let e = fu("E", "Red", (1, 0), 0);
    let f = fu("F", "Red", (4, 0), -1);
    let l = policy(lvl(vec![c, e, f]), 0, DecisionPolicy::Never);
    let mut b = start(&l, &[1, 1, 1, 40, 3, 40, 4]);
    attack_with(&mut b, "C", "F", Some("Firebolt")).unwrap();
    react(&mut b, "E", Reaction::ReactionAttack).unwrap();
    assert_eq!(hp(&b, "C"), 17, "the RA hit the caster");
    // F-28: a Reaction Attack is an attack: +2 FP for the hit, +1 for the reaction.
    assert_eq!(pools(&b, "E").2, 5);
    // F-27: the spell still goes off.
    assert!(
        matches!(b.awaiting(), Awaiting::Decision(_)),
        "F may react to the bolt"
    );
    pass(&mut b, "Red");
    assert_eq!(hp(&b, "F"), 16);
}

/// Covers F-29, F-30.
#[test]
fn f_29_f_30_riposte_then_dodge_the_counterattack() {
    // A attacks (45 Normal); T ripostes: its parry (20, Hard) wins, and its
    // counterattack (40, Normal) may be dodged but not riposted; A dodges (10).
    let mut b = duel(a_unit(), t_unit(), &[45, 20, 40, 10]);
    attack(&mut b, "A", "T").unwrap();
    assert!(
        options(&b)
            .iter()
            .any(|o| o.1 == Reaction::Riposte && o.0 == "T")
    );
    react(&mut b, "T", Reaction::Riposte).unwrap();
    assert_eq!(pools(&b, "T").1, 0, "F-10: Riposte costs 2 RP");
    let offered: Vec<Reaction> = options(&b).into_iter().map(|o| o.1).collect();
    assert_eq!(
        offered,
        [Reaction::Dodge, Reaction::Parry],
        "F-29: no advanced reactions"
    );
    let err = react(&mut b, "A", Reaction::Riposte).unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::IllegalReaction {
                reason: ReactionRefusal::AgainstReactionAttack,
                ..
            }
        ),
        "{err}"
    );
    let ev = react(&mut b, "A", Reaction::Dodge).unwrap();
    assert_eq!(checks(&ev), vec![(10, SuccessLevel::Major, 50)]);
    assert_eq!((hp(&b, "A"), hp(&b, "T")), (20, 20));
    assert_eq!(pools(&b, "A"), (3, 1, 3));
    assert_eq!(pools(&b, "T").2, 3, "+1 FP for the winning parry");
}

/// Covers F-GAP-13.
#[test]
fn f_gap_13_failed_intercept_and_ranged_intercepts() {
    let x = fu("X", "Red", (1, 0), 5);
    let y = fu("Y", "Blue", (0, 0), 0);
    let i = fu("I", "Blue", (0, 3), -1);
    let mut b = start(&lvl(vec![x, y, i]), &[1, 1, 1, 45, 90, 4]);
    attack(&mut b, "X", "Y").unwrap();
    react(&mut b, "I", Reaction::Intercept).unwrap();
    assert_eq!(at(&b, "I"), cell(0, 1), "it stays where it moved");
    assert_eq!(
        (hp(&b, "I"), hp(&b, "Y")),
        (20, 16),
        "the ally takes the hit"
    );
    // Against a ranged attack the interceptor must stand directly between.
    let x = armed(fu("X", "Red", (4, 0), 5), vec![bow()]);
    let y = fu("Y", "Blue", (0, 0), 0);
    let i = fu("I", "Blue", (2, 2), -1);
    let mut b = start(&lvl(vec![x, y, i]), &[1, 1, 1, 45]);
    attack(&mut b, "X", "Y").unwrap();
    let cells = offered_cells(&b, Reaction::Intercept);
    assert!(!cells.is_empty());
    let line = [cell(1, 0), cell(2, 0), cell(3, 0)];
    assert!(cells.iter().all(|c| line.contains(c)), "{cells:?}");
}

/// Covers F-31, F-GAP-13: an interceptor may move its ally 1 hex away from its
/// direction of movement and take the ally's place, if that hex is open.
#[test]
fn f_31_f_gap_13_intercept_may_swap_places_with_the_ally() {
    // F-EX-9's layout: X attacks Y; I runs from (0,3) to (0,1), then trades places:
    // Y moves on to (0,−1), I stands on (0,0) and takes the hit (Agility 20 wins).
    let x = fu("X", "Red", (1, 0), 5);
    let y = fu("Y", "Blue", (0, 0), 0);
    let i = fu("I", "Blue", (0, 3), -1);
    let intercept = |b: &mut Battle| {
        let (unit, side) = (id(b, "I"), side(b, "Blue"));
        b.submit(Command::React {
            side,
            unit,
            reaction: Reaction::Intercept,
            to: Some(cell(0, 1)),
            swap: true,
        })
        .unwrap()
        .to_vec()
    };
    let mut b = start(
        &lvl(vec![x.clone(), y.clone(), i.clone()]),
        &[1, 1, 1, 45, 20, 4],
    );
    attack(&mut b, "X", "Y").unwrap();
    let ev = intercept(&mut b);
    assert_eq!(at(&b, "Y"), cell(0, -1));
    assert_eq!(at(&b, "I"), cell(0, 0));
    assert!(has_event(&ev, |e| matches!(
        flow(e),
        Some(FlowEvent::Intercepted { .. })
    )));
    assert_eq!((hp(&b, "I"), hp(&b, "Y")), (16, 20));
    // With (0,−1) taken, there is no swap: I stays where it ran to, and still
    // takes the hit.
    let z = fu("Z", "Blue", (0, -1), -2);
    let mut b = start(&lvl(vec![x, y, i, z]), &[1, 1, 1, 1, 45, 20, 4]);
    attack(&mut b, "X", "Y").unwrap();
    let ev = intercept(&mut b);
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::MovementStopped { reason, .. } if reason.contains("no swap")
    )));
    assert_eq!((at(&b, "I"), at(&b, "Y")), (cell(0, 1), cell(0, 0)));
    assert_eq!((hp(&b, "I"), hp(&b, "Y")), (16, 20));
}

/// Covers F-32, F-GAP-17.
#[test]
fn f_32_f_gap_17_disarm() {
    // Disadvantage: two d100, the higher (45) counts → Normal: the sword drops next
    // to T; +2 FP for the hit.
    let l = policy(lvl(vec![a_unit(), t_unit()]), 1, DecisionPolicy::Never);
    let mut b = start(&l, &[1, 1, 20, 45]);
    let ev = act(&mut b, "A", |b| FlowAction::Disarm {
        target: id(b, "T"),
        take: true,
        to: None,
    })
    .unwrap();
    assert!(has_event(&ev, |e| matches!(
        flow(e),
        Some(FlowEvent::SkillChecked {
            edge: Some(Edge::Disadvantage),
            roll: 45,
            ..
        })
    )));
    assert!(has_event(
        &ev,
        |e| matches!(e, Event::ItemDropped { item, .. } if item == "Sword")
    ));
    assert!(damage(&ev).is_empty(), "no damage");
    assert_eq!(pools(&b, "A"), (3, 2, 4));
    // Hard (20 after 10, 20): A takes the sword into its free off hand.
    let mut b = start(&l, &[1, 1, 10, 20]);
    let ev = act(&mut b, "A", |b| FlowAction::Disarm {
        target: id(b, "T"),
        take: true,
        to: None,
    })
    .unwrap();
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::ItemTaken {
            hand: Hand::Off,
            ..
        }
    )));
    // The target may react to a Disarm like any attack (F-GAP-17)...
    let mut b = duel(a_unit(), t_unit(), &[10, 20]);
    act(&mut b, "A", |b| FlowAction::Disarm {
        target: id(b, "T"),
        take: false,
        to: None,
    })
    .unwrap();
    assert!(options(&b).iter().any(|o| o.1 == Reaction::Dodge));
    // ...and only targets of the disarmer's size or smaller.
    let mut b = duel(a_unit(), sized(t_unit(), Size::Large), &[]);
    let err = act(&mut b, "A", |b| FlowAction::Disarm {
        target: id(b, "T"),
        take: false,
        to: None,
    })
    .unwrap_err();
    assert!(err.to_string().contains("size"), "{err}");
}

/// Covers F-32, F-GAP-17: on a Hard success or better the disarmer may put the item
/// in an open hex of its choice within 2 (Hard), 3 (Major) or 4 (Critical) of the
/// target; a hex beyond the radius leaves it next to the target as on a Normal.
#[test]
fn f_32_f_gap_17_disarm_puts_the_item_within_the_levels_radius() {
    // Melee 50 at Disadvantage (the higher d100 counts): Hard ≤ 25, Major ≤ 10,
    // Critical ≤ 5. T stands at (1,0).
    let l = policy(lvl(vec![a_unit(), t_unit()]), 1, DecisionPolicy::Never);
    let dropped_at = |faces: [u32; 2], to: Cell| {
        let mut b = start(&l, &[1, 1, faces[0], faces[1]]);
        let ev = act(&mut b, "A", |b| FlowAction::Disarm {
            target: id(b, "T"),
            take: false,
            to: Some(to),
        })
        .unwrap();
        ev.iter()
            .find_map(|e| match e {
                Event::ItemDropped { item, cell, .. } if item == "Sword" => Some(*cell),
                _ => None,
            })
            .expect("the sword drops")
    };
    let board = Board::new(GridKind::Hex, 20, 20);
    let from_t = |c: Cell| board.distance(cell(1, 0), c);
    for (faces, level, to) in [
        ([20, 25], "Hard", cell(3, 0)),
        ([9, 10], "Major", cell(4, 0)),
        ([4, 5], "Critical", cell(5, 0)),
    ] {
        assert_eq!(dropped_at(faces, to), to, "{level}: {} hexes", from_t(to));
    }
    // Major reaches 3 hexes, not 4: the sword falls next to T.
    let near = dropped_at([9, 10], cell(5, 0));
    assert_ne!(near, cell(5, 0));
    assert_eq!(from_t(near), 1);
}

/// Covers F-33.
#[test]
fn f_33_draw_and_sheathe() {
    let dagger = WeaponDef {
        held: Hand::Stowed,
        category: WeaponCategory::Finesse,
        ..weapon("Dagger", "1d4")
    };
    let a = armed(fu("A", "Blue", (0, 0), 5), vec![bow(), dagger]);
    let mut b = duel(a, t_unit(), &[90]);
    let err = attack_with(&mut b, "A", "T", Some("Dagger")).unwrap_err();
    assert!(err.to_string().contains("stowed"), "{err}");
    let err = act(&mut b, "A", |_| FlowAction::Draw {
        weapon: "Dagger".into(),
    })
    .unwrap_err();
    assert!(err.to_string().contains("free hand"), "{err}");
    // Switching weapons = 2 AP.
    act(&mut b, "A", |_| FlowAction::Sheathe {
        weapon: "Shortbow".into(),
    })
    .unwrap();
    act(&mut b, "A", |_| FlowAction::Draw {
        weapon: "Dagger".into(),
    })
    .unwrap();
    assert_eq!(pools(&b, "A").0, 3);
    // The unit's attack powers follow what it holds (views and AIs read them).
    let e = b.world().resource::<skirmish::engine::battle::Roster>().0[0];
    let powers: Vec<String> = b
        .world()
        .get::<skirmish::engine::units::Powers>(e)
        .unwrap()
        .0
        .iter()
        .map(|p| p.name.clone())
        .collect();
    assert_eq!(powers, ["Dagger", "Unarmed"]);
    attack_with(&mut b, "A", "T", Some("Dagger")).unwrap();
    assert_eq!(pools(&b, "A").0, 1);
}

/// Covers F-34, F-GAP-04.
#[test]
fn f_34_f_gap_04_feint_gives_advantage_once() {
    // Feint: Melee 50 rolls 20 (Hard) against T's Melee/Agility 50 rolling 60.
    let l = policy(lvl(vec![a_unit(), t_unit()]), 1, DecisionPolicy::Never);
    let mut b = start(&l, &[1, 1, 20, 60, 80, 30, 2]);
    act(&mut b, "A", |b| FlowAction::Feint { target: id(b, "T") }).unwrap();
    assert!(conds(&b, "A").contains(&"Feinting".to_string()));
    let err = act(&mut b, "A", |b| FlowAction::Feint { target: id(b, "T") }).unwrap_err();
    assert!(
        matches!(err, CommandError::AlreadyUsed { .. }),
        "once per round: {err}"
    );
    // The next attack on T has Advantage: 80 and 30, the lower counts.
    let ev = attack(&mut b, "A", "T").unwrap();
    assert!(has_event(&ev, |e| matches!(
        flow(e),
        Some(FlowEvent::SkillChecked {
            edge: Some(Edge::Advantage),
            roll: 30,
            ..
        })
    )));
    assert!(!conds(&b, "A").contains(&"Feinting".to_string()), "used up");
    // F-GAP-04: a feint's Advantage and a Disarm's Disadvantage cancel: one die.
    let mut b = start(&l, &[1, 1, 20, 60, 90]);
    act(&mut b, "A", |b| FlowAction::Feint { target: id(b, "T") }).unwrap();
    let ev = act(&mut b, "A", |b| FlowAction::Disarm {
        target: id(b, "T"),
        take: false,
        to: None,
    })
    .unwrap();
    assert!(has_event(
        &ev,
        |e| matches!(flow(e), Some(FlowEvent::SkillChecked { edge: None, faces, .. }) if faces.len() == 1)
    ));
}

/// Covers F-34, F-GAP-03, F-GAP-17: the odds engine's chance that a Feint wins its
/// opposed check matches how often it wins over many seeded battles, rises with
/// the feinter's Deception, and its Advantage shows in the attack odds.
#[test]
fn f_34_feint_chance_matches_the_rolls() {
    let feint_of = |b: &Battle| FlowAction::Feint { target: id(b, "T") }.by(id(b, "A"));
    let chance_with = |deception: i32| {
        let l = policy(
            lvl(vec![with_skill(a_unit(), "Deception", deception), t_unit()]),
            1,
            DecisionPolicy::Never,
        );
        let b = start(&l, &[1, 1]);
        (
            l,
            b.action_chance(&feint_of(&b))
                .expect("a Feint has a chance"),
        )
    };
    let (l, chance) = chance_with(30);
    let (_, better) = chance_with(70);
    assert!(chance > 0.05 && chance < 0.95, "{chance}");
    assert!(
        better > chance + 0.1,
        "Deception 70 ({better}) vs 30 ({chance})"
    );
    let n = 3000;
    let won = (0..n)
        .filter(|&seed| {
            let mut b = new_battle(&l, Dice::seeded(seed)).unwrap();
            if active(&b) != "A" {
                let t = id(&b, "T");
                b.submit(Command::EndTurn { unit: t }).unwrap();
            }
            b.submit(feint_of(&b)).unwrap();
            conds(&b, "A").contains(&"Feinting".to_string())
        })
        .count();
    let rate = won as f64 / n as f64;
    let sigma = (chance * (1.0 - chance) / n as f64).sqrt();
    assert!(
        (rate - chance).abs() < 4.0 * sigma,
        "predicted {chance:.3}, won {rate:.3} of {n}"
    );
    // Not a Feint: no chance of its own.
    let b = start(&l, &[1, 1]);
    assert_eq!(
        b.action_chance(&Command::EndTurn { unit: id(&b, "A") }),
        None
    );
    // The attack odds assuming a won Feint are those of an attack with Advantage.
    let plain = b
        .attack_odds(id(&b, "A"), id(&b, "T"), None, Default::default())
        .unwrap();
    let feinted = b
        .attack_odds(
            id(&b, "A"),
            id(&b, "T"),
            None,
            skirmish::engine::ruleset::Assume {
                feinted: true,
                ..Default::default()
            },
        )
        .unwrap();
    let p = 0.5_f64; // Melee 50: a d100 at or under 50
    assert!((plain.chance - p).abs() < 1e-9, "{plain:?}");
    assert!(
        (feinted.chance - (1.0 - (1.0 - p) * (1.0 - p))).abs() < 1e-9,
        "{feinted:?}"
    );
}

/// Covers F-34: the `normal` AI feints first when a spare AP makes it free (5 AP:
/// Feint + two attacks), and attacks straight away when it would cost an attack.
#[test]
fn f_34_the_normal_ai_feints_when_an_ap_is_spare() {
    use rand::SeedableRng;
    let l = policy(lvl(vec![a_unit(), t_unit()]), 1, DecisionPolicy::Never);
    let mut b = start(&l, &[1, 1]);
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
    let first = skirmish::ai::choose(&b, skirmish::ai::AiPolicy::Normal, &mut rng).unwrap();
    assert!(
        matches!(FlowAction::of(&first), Some(FlowAction::Feint { .. })),
        "with 5 AP: {first:?}"
    );
    // The choice played: the Feint wins (20 against T's 60), so A's next attack on T
    // rolls with Advantage (80 and 30: the 30 counts).
    let mut played = start(&l, &[1, 1, 20, 60, 80, 30, 2]);
    played.submit(first.clone()).unwrap();
    assert!(conds(&played, "A").contains(&"Feinting".to_string()));
    let ev = attack(&mut played, "A", "T").unwrap();
    assert!(has_event(&ev, |e| matches!(
        flow(e),
        Some(FlowEvent::SkillChecked {
            edge: Some(Edge::Advantage),
            roll: 30,
            ..
        })
    )));
    // After a step (1 AP) 4 are left: a Feint would cost one of the two attacks.
    step(&mut b, "A", cell(0, 1)).unwrap();
    assert_eq!(pools(&b, "A").0, 4);
    let next = skirmish::ai::choose(&b, skirmish::ai::AiPolicy::Normal, &mut rng).unwrap();
    assert!(
        matches!(next, Command::Attack { .. }),
        "with 4 AP: {next:?}"
    );
}

/// Covers F-36, F-GAP-15.
#[test]
fn f_36_f_gap_15_grapple() {
    let mut b = duel(a_unit(), t_unit(), &[10, 90, 10, 90, 90, 30, 40, 45, 5]);
    act(&mut b, "A", |b| FlowAction::Grapple { target: id(b, "T") }).unwrap();
    assert!(conds(&b, "A").contains(&"Grappling".to_string()));
    assert!(conds(&b, "T").contains(&"Grappled".to_string()));
    // The grappler's attacks are at Disadvantage (10, 90 → 90).
    let ev = attack(&mut b, "A", "T").unwrap();
    assert!(has_event(&ev, |e| matches!(
        flow(e),
        Some(FlowEvent::SkillChecked {
            edge: Some(Edge::Disadvantage),
            roll: 90,
            ..
        })
    )));
    end(&mut b, "A");
    assert_eq!(active(&b), "T");
    // The defender can only try to break free (0 AP, then its turn is over).
    assert!(
        attack(&mut b, "T", "A")
            .unwrap_err()
            .to_string()
            .contains("grappled")
    );
    assert!(walk(&mut b, "T", &[cell(2, 0)]).is_err());
    act(&mut b, "T", |_| FlowAction::BreakFree).unwrap();
    assert!(
        conds(&b, "T").contains(&"Grappled".to_string()),
        "90 loses to 30"
    );
    assert_eq!(active(&b), "A");
    // The grappler pays 2 AP upkeep at the start of its turn; the defender can't react.
    assert_eq!(pools(&b, "A").0, 3);
    attack(&mut b, "A", "T").unwrap();
    assert!(
        matches!(b.awaiting(), Awaiting::Unit(..)),
        "no reaction while grappled"
    );
    assert_eq!(hp(&b, "T"), 15);
    // Only targets of the grappler's size or smaller.
    let mut b = duel(a_unit(), sized(t_unit(), Size::Large), &[]);
    assert!(act(&mut b, "A", |b| FlowAction::Grapple { target: id(b, "T") }).is_err());
}

/// Covers F-36, F-GAP-15: the grappled unit wins its break-free check: both are free,
/// its turn is over (the rest of its AP is lost), and the grappler pays no upkeep.
#[test]
fn f_36_f_gap_15_winning_the_break_free_ends_the_grapple() {
    // Grapple: A's Athletics 40 rolls 10 (Hard) against T's 90. Break free: T rolls
    // 10 (Hard) against A's 90 (a failure).
    let mut b = duel(a_unit(), t_unit(), &[10, 90, 10, 90]);
    act(&mut b, "A", |b| FlowAction::Grapple { target: id(b, "T") }).unwrap();
    assert!(conds(&b, "T").contains(&"Grappled".to_string()));
    end(&mut b, "A");
    let ev = act(&mut b, "T", |_| FlowAction::BreakFree).unwrap();
    assert!(has_event(&ev, |e| matches!(
        flow(e),
        Some(FlowEvent::OpposedCheck {
            responder_wins: true,
            ..
        })
    )));
    assert!(!conds(&b, "T").contains(&"Grappled".to_string()));
    assert!(!conds(&b, "A").contains(&"Grappling".to_string()));
    assert_eq!(active(&b), "A", "breaking free ends T's turn");
    assert_eq!(pools(&b, "A").0, 5, "no upkeep once the grapple is over");
    // Both move freely again (Red lets A go without a Reaction Attack).
    walk(&mut b, "A", &[cell(-1, 0)]).unwrap();
    pass(&mut b, "Red");
    assert_eq!((at(&b, "A"), at(&b, "T")), (cell(-1, 0), cell(1, 0)));
}

/// Covers F-GAP-15: a grappler drags its target along (both move together), so it
/// can't pass through an ally's hex the way a lone mover may (F-45) — the dragged
/// unit would follow into the ally's hex.
#[test]
fn f_gap_15_a_dragging_grappler_passes_nobody() {
    let a = fu("A", "Blue", (5, 5), 5);
    let t = fu("T", "Red", (6, 5), 0);
    let ally = fu("B", "Blue", (5, 6), 3);
    let mut b = start(&lvl(vec![a, t, ally]), &[1, 1, 1, 10, 90]);
    act(&mut b, "A", |b| FlowAction::Grapple { target: id(b, "T") }).unwrap();
    assert!(conds(&b, "A").contains(&"Grappling".to_string()));
    let err = walk(&mut b, "A", &[cell(5, 6), cell(5, 7)]).unwrap_err();
    assert!(err.to_string().contains("both move together"), "{err}");
    for c in b.legal_commands() {
        if let Command::Move { path, .. } = c {
            assert!(
                !path.contains(&cell(5, 6)),
                "no legal move passes B: {path:?}"
            );
        }
    }
    // Along a free path the target follows into the hex the grappler left.
    walk(&mut b, "A", &[cell(4, 5)]).unwrap();
    assert_eq!(at(&b, "A"), cell(4, 5));
    assert_eq!(at(&b, "T"), cell(5, 5));
    assert_eq!(at(&b, "B"), cell(5, 6));
}

/// Covers F-37, F-GAP-18.
#[test]
fn f_37_f_gap_18_ready_moves_the_initiative_slot() {
    // M acts first; R readies on its turn (2 AP set aside). In round 2 M walks into
    // R's reach: the readied attack goes off, and from round 3 R acts before M.
    let m = fu("M", "Blue", (3, 0), 5);
    let r = fu("R", "Red", (0, 0), 0);
    let mut b = start(&lvl(vec![m, r]), &[1, 1, 90]);
    end(&mut b, "M");
    act(&mut b, "R", |_| FlowAction::Ready { weapon: None }).unwrap();
    assert_eq!(pools(&b, "R").0, 3);
    end(&mut b, "R");
    walk(&mut b, "M", &[cell(2, 0), cell(1, 0)]).unwrap();
    let ev = b.events();
    assert!(
        ev.iter()
            .any(|e| matches!(flow(e), Some(FlowEvent::ReadyTriggered { .. })))
    );
    assert!(
        ev.iter()
            .rev()
            .any(|e| matches!(flow(e), Some(FlowEvent::SkillChecked { roll: 90, .. })))
    );
    assert_eq!(at(&b, "M"), cell(1, 0));
    end(&mut b, "M");
    end(&mut b, "R");
    assert_eq!(b.turn().round, 3);
    assert_eq!(active(&b), "R");
    // An untriggered Ready lapses at the unit's next turn.
    let mut b = start(
        &lvl(vec![fu("M", "Blue", (5, 0), 5), fu("R", "Red", (0, 0), 0)]),
        &[1, 1],
    );
    end(&mut b, "M");
    act(&mut b, "R", |_| FlowAction::Ready { weapon: None }).unwrap();
    end(&mut b, "R");
    end(&mut b, "M");
    assert!(
        b.events().iter().any(
            |e| matches!(e, Event::MovementStopped { reason, .. } if reason.contains("lapsed"))
        )
    );
}

/// Covers F-38, F-GAP-16.
#[test]
fn f_38_f_gap_16_shove() {
    // Push Back on a Normal success (30 ≤ 40): T goes 1 hex straight away.
    let mut b = duel(a_unit(), t_unit(), &[30, 90, 10, 90]);
    act(&mut b, "A", |b| FlowAction::Shove {
        target: id(b, "T"),
        effect: ShoveEffect::PushBack,
    })
    .unwrap();
    assert_eq!(at(&b, "T"), cell(2, 0));
    assert!(conds(&b, "T").is_empty());
    let err = act(&mut b, "A", |b| FlowAction::Shove {
        target: id(b, "T"),
        effect: ShoveEffect::PushBack,
    })
    .unwrap_err();
    assert!(
        err.to_string().contains("shoved") || err.to_string().contains("next to"),
        "{err}"
    );
    // Hard (10): both effects; the push is blocked by a unit behind, prone still applies.
    let blocker = fu("W", "Red", (2, 0), -3);
    let mut b = start(&lvl(vec![a_unit(), t_unit(), blocker]), &[1, 1, 1, 10, 90]);
    let ev = act(&mut b, "A", |b| FlowAction::Shove {
        target: id(b, "T"),
        effect: ShoveEffect::PushBack,
    })
    .unwrap();
    assert!(has_event(&ev, |e| matches!(
        e,
        Event::MovementStopped { .. }
    )));
    assert_eq!(at(&b, "T"), cell(1, 0));
    assert!(conds(&b, "T").contains(&"Prone".to_string()));
}

/// Covers F-38: Shove only targets units of the shover's size or smaller.
#[test]
fn f_38_shove_needs_a_target_no_larger() {
    let mut b = duel(a_unit(), sized(t_unit(), Size::Large), &[]);
    let err = act(&mut b, "A", |b| FlowAction::Shove {
        target: id(b, "T"),
        effect: ShoveEffect::PushBack,
    })
    .unwrap_err();
    assert!(err.to_string().contains("size or smaller"), "{err}");
    assert_eq!(pools(&b, "A").0, 5, "nothing spent");
    // A Large shover pushes a Medium target.
    let big = sized(a_unit(), Size::Large);
    let mut b = duel(big, t_unit(), &[30, 90]);
    act(&mut b, "A", |b| FlowAction::Shove {
        target: id(b, "T"),
        effect: ShoveEffect::PushBack,
    })
    .unwrap();
    assert_eq!(at(&b, "T"), cell(2, 0));
}

/// Covers F-39.
#[test]
fn f_39_take_a_step_once_per_round() {
    let mut b = duel(a_unit(), fu("T", "Red", (5, 0), 0), &[]);
    step(&mut b, "A", cell(0, 1)).unwrap();
    let err = step(&mut b, "A", cell(0, 2)).unwrap_err();
    assert!(matches!(err, CommandError::AlreadyUsed { .. }), "{err}");
    // It doesn't count toward the movement maximum: two Moves still follow.
    walk(&mut b, "A", &[cell(0, 2)]).unwrap();
    walk(
        &mut b,
        "A",
        &(3..=8).map(|r| cell(0, r)).collect::<Vec<_>>(),
    )
    .unwrap();
    assert_eq!(pools(&b, "A").0, 2);
}

/// Covers F-41, F-GAP-23.
#[test]
fn f_41_f_gap_23_tumble_through() {
    // Tumbler at (0,0) past a Medium enemy at (1,0) lands on (2,0) with no RAs.
    let e2 = fu("E2", "Red", (0, 1), -1);
    let mut b = start(&lvl(vec![a_unit(), t_unit(), e2.clone()]), &[1, 1, 1, 20]);
    act(&mut b, "A", |b| FlowAction::Tumble {
        through: id(b, "T"),
    })
    .unwrap();
    assert_eq!(at(&b, "A"), cell(2, 0));
    assert!(
        matches!(b.awaiting(), Awaiting::Unit(..)),
        "no Reaction Attacks"
    );
    // On a failure it stays put and only that enemy may react (not E2).
    let mut b = start(&lvl(vec![a_unit(), t_unit(), e2]), &[1, 1, 1, 90]);
    act(&mut b, "A", |b| FlowAction::Tumble {
        through: id(b, "T"),
    })
    .unwrap();
    assert_eq!(at(&b, "A"), cell(0, 0));
    assert_eq!(
        options(&b).into_iter().map(|o| o.0).collect::<Vec<_>>(),
        ["T"]
    );
    pass(&mut b, "Red");
    assert!(matches!(b.awaiting(), Awaiting::Unit(..)));
    // Not through anything larger than Medium, and not into an occupied hex.
    let mut b = duel(a_unit(), sized(t_unit(), Size::Large), &[]);
    assert!(
        act(&mut b, "A", |b| FlowAction::Tumble {
            through: id(b, "T")
        })
        .unwrap_err()
        .to_string()
        .contains("Medium")
    );
    let mut b = start(
        &lvl(vec![a_unit(), t_unit(), fu("W", "Red", (2, 0), -1)]),
        &[1, 1, 1],
    );
    assert!(matches!(
        act(&mut b, "A", |b| FlowAction::Tumble {
            through: id(b, "T")
        }),
        Err(CommandError::PathBlocked(_))
    ));
}

/// Covers F-41, F-GAP-10: a Tumble Through in the middle of a Move: the Move goes on
/// afterwards, and the tumble's hexes don't count toward it.
#[test]
fn f_41_f_gap_10_tumble_in_the_middle_of_a_move() {
    // A walks 2 of its 6 hexes to T's side, tumbles past T (Agility 20), then walks
    // the 4 hexes left of the same Move. Red lets it go (no Reaction Attacks).
    let t = fu("T", "Red", (3, 0), 0);
    let l = policy(lvl(vec![a_unit(), t]), 1, DecisionPolicy::Never);
    let mut b = start(&l, &[1, 1, 20]);
    let move_left = |b: &Battle| {
        b.pools(id(b, "A"))
            .iter()
            .find(|p| p.0 == "Move left")
            .unwrap()
            .1
    };
    walk(&mut b, "A", &[cell(1, 0), cell(2, 0)]).unwrap();
    assert_eq!((pools(&b, "A").0, move_left(&b)), (4, 4));
    act(&mut b, "A", |b| FlowAction::Tumble {
        through: id(b, "T"),
    })
    .unwrap();
    assert_eq!(at(&b, "A"), cell(4, 0));
    assert_eq!(
        (pools(&b, "A").0, move_left(&b)),
        (3, 4),
        "1 AP; no movement counted"
    );
    walk(
        &mut b,
        "A",
        &(5..=8).map(|q| cell(q, 0)).collect::<Vec<_>>(),
    )
    .unwrap();
    assert_eq!(at(&b, "A"), cell(8, 0));
    assert_eq!(
        (pools(&b, "A").0, move_left(&b)),
        (3, 0),
        "the same Move action: no new AP"
    );
}

/// Covers F-42.
#[test]
fn f_42_dropping_is_free_picking_up_costs_1_ap() {
    let mut b = duel(a_unit(), fu("T", "Red", (5, 0), 0), &[]);
    act(&mut b, "A", |_| FlowAction::Drop {
        item: "Sword".into(),
    })
    .unwrap();
    assert_eq!(pools(&b, "A").0, 5);
    assert!(
        b.legal_commands()
            .iter()
            .any(|c| matches!(FlowAction::of(c), Some(FlowAction::PickUp { .. })))
    );
    act(&mut b, "A", |_| FlowAction::PickUp {
        item: "Sword".into(),
    })
    .unwrap();
    assert_eq!(pools(&b, "A").0, 4);
}

/// Covers F-45.
#[test]
fn f_45_allies_pass_enemies_block_nobody_shares_a_hex() {
    let ally = fu("B", "Blue", (1, 0), 4);
    let foe = fu("T", "Red", (0, 3), 0);
    let mut b = start(&lvl(vec![a_unit(), ally, foe]), &[1, 1, 1]);
    let err = walk(&mut b, "A", &[cell(1, 0)]).unwrap_err();
    assert!(
        matches!(err, CommandError::PathBlocked(_)),
        "can't end on an ally: {err}"
    );
    let err = walk(&mut b, "A", &[cell(0, 1), cell(0, 2), cell(0, 3)]).unwrap_err();
    assert!(err.to_string().contains("enemy"), "{err}");
    walk(&mut b, "A", &[cell(1, 0), cell(2, 0)]).unwrap();
    assert_eq!(at(&b, "A"), cell(2, 0));
}

/// Covers F-GAP-10.
#[test]
fn f_gap_10_one_move_action_continues_until_another_action() {
    let mut b = duel(a_unit(), fu("T", "Red", (0, 9), 0), &[]);
    walk(&mut b, "A", &[cell(1, 0), cell(2, 0), cell(3, 0)]).unwrap();
    walk(&mut b, "A", &[cell(4, 0), cell(5, 0)]).unwrap();
    assert_eq!(pools(&b, "A").0, 4, "the same Move action");
    act(&mut b, "A", |_| FlowAction::FlowState).unwrap();
    walk(&mut b, "A", &[cell(6, 0)]).unwrap();
    assert_eq!(pools(&b, "A").0, 2, "the leftover hex was lost: a new Move");
    // Difficult terrain costs 2 hexes per hex.
    let mut l = lvl(vec![a_unit(), fu("T", "Red", (0, 9), 0)]);
    let mut rows = vec![".".repeat(20); 20];
    let c = cell(1, 0);
    rows[c.y as usize].replace_range(c.x as usize..c.x as usize + 1, "~");
    l.terrain = rows;
    let mut b = start(&l, &[1, 1]);
    walk(&mut b, "A", &[cell(1, 0)]).unwrap();
    assert_eq!(
        b.pools(id(&b, "A"))
            .iter()
            .find(|p| p.0 == "Move left")
            .unwrap()
            .1,
        4
    );
}

/// Covers F-GAP-12.
#[test]
fn f_gap_12_a_mover_felled_by_a_reaction_attack_stays_put() {
    let t = with_stat(fu("T", "Red", (1, 0), 5), "HP", 3);
    let a = fu("A", "Blue", (0, 0), 0);
    let l = policy(lvl(vec![t, a]), 1, DecisionPolicy::Never);
    let mut b = start(&l, &[1, 1, 40, 5]);
    walk(&mut b, "T", &[cell(2, 0), cell(3, 0)]).unwrap();
    react(&mut b, "A", Reaction::ReactionAttack).unwrap();
    assert!(b.units().iter().any(|u| u.name == "T" && u.defeated));
    assert_eq!(at(&b, "T"), cell(1, 0));
    assert!(matches!(b.awaiting(), Awaiting::Over(Some(_))));
}

#[test]
fn auto_policy_reacts_by_expected_value() {
    // Red answers by itself: a Dodge (best odds, 1 RP) against a hit that would land.
    let l = policy(lvl(vec![a_unit(), t_unit()]), 1, DecisionPolicy::Auto);
    // (It picks the Riposte: same parry odds plus a counterattack; that misses, 90.)
    let mut b = start(&l, &[1, 1, 45, 10, 90]);
    let ev = attack(&mut b, "A", "T").unwrap();
    assert!(has_event(&ev, |e| matches!(
        flow(e),
        Some(FlowEvent::Reacted {
            reaction: Reaction::Riposte,
            ..
        })
    )));
    assert!(matches!(b.awaiting(), Awaiting::Unit(..)));
    assert_eq!(hp(&b, "T"), 20);
}

// ------------------------------------------------------------------ scenarios

fn run_scenario(
    path: &str,
    patch: impl FnOnce(&mut skirmish::script::Scenario),
) -> skirmish::script::Run {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let (mut scenario, level) = skirmish::script::load(&full).expect("scenario loads");
    patch(&mut scenario);
    skirmish::script::run(&scenario, &level).expect("battle sets up")
}

/// Covers F-30.
#[test]
fn f_30_scenario_reaction_chain_attack_parry_riposte_dodge() {
    let run = run_scenario("levels/scenarios/flow_reaction_chain.ron", |_| {});
    assert!(run.error.is_none(), "{:?}", run.error);
    let b = &run.battle;
    let reactions: Vec<Reaction> = b
        .events()
        .iter()
        .filter_map(|e| match flow(e) {
            Some(FlowEvent::Reacted { reaction, .. }) => Some(*reaction),
            _ => None,
        })
        .collect();
    assert_eq!(reactions, [Reaction::Riposte, Reaction::Dodge]);
    assert_eq!((hp(b, "Duelist"), hp(b, "Brigand")), (20, 5));
}

/// Covers F-31.
#[test]
fn f_31_scenario_intercept() {
    let run = run_scenario("levels/scenarios/flow_intercept.ron", |_| {});
    assert!(run.error.is_none(), "{:?}", run.error);
    let b = &run.battle;
    assert_eq!((hp(b, "Squire"), hp(b, "Guardian")), (10, 15));
    assert_eq!(at(b, "Guardian"), Cell::new(2, 3));
}

#[test]
fn a_scenario_answering_a_decision_wrongly_gets_a_pointed_error() {
    use skirmish::script::ScriptCommand;
    let run = run_scenario("levels/scenarios/flow_reaction_chain.ron", |s| {
        s.commands[1] = ScriptCommand::React {
            side: None,
            unit: "Duelist".into(),
            reaction: Reaction::Block,
            to: None,
            swap: false,
        };
    });
    let err = run.error.expect("refused").to_string();
    assert!(err.contains("command #2"), "{err}");
    assert!(err.contains("no shield"), "{err}");
    assert!(err.contains("Blue to react to Brigand's attack"), "{err}");
    assert!(
        err.contains("Riposte"),
        "the legal options are listed: {err}"
    );
}

/// Covers F-GAP-05.
#[test]
fn f_gap_05_a_failed_check_is_a_miss_without_a_reaction_window() {
    // 70 > 50 fails, 99 is a Critical Failure: both miss; Red (asked every
    // decision) is never asked; 50 succeeds and opens the window.
    let mut b = duel(a_unit(), t_unit(), &[70, 99, 50]);
    let ev = attack(&mut b, "A", "T").unwrap();
    assert!(has_event(&ev, |e| matches!(
        flow(e),
        Some(FlowEvent::Missed { .. })
    )));
    assert!(matches!(b.awaiting(), Awaiting::Unit(..)));
    let ev = attack(&mut b, "A", "T").unwrap();
    assert_eq!(checks(&ev), vec![(99, SuccessLevel::CriticalFailure, 50)]);
    assert!(matches!(b.awaiting(), Awaiting::Unit(..)));
    assert_eq!(hp(&b, "T"), 20);
    end(&mut b, "A");
    attack(&mut b, "T", "A").unwrap();
    assert!(matches!(b.awaiting(), Awaiting::Decision(_)));
}

/// The special actions in the window: each one's mode and menu label come from
/// its verb declaration and read as they always have (the window tests and players
/// rely on them); Drop is listed last.
#[cfg(feature = "render")]
#[test]
fn window_labels_come_from_the_verb_declarations() {
    use skirmish::game::choices::{command_label, mode_of, rarely_wanted};
    let level = skirmish::level::load_file(std::path::Path::new("levels/flow_ogre_ford.ron"))
        .expect("level loads");
    let b = new_battle(&level, Dice::seeded(1)).expect("battle");
    let (captain, ogre) = (id(&b, "Captain"), id(&b, "Ogre"));
    let at_ogre = Some(skirmish::engine::battle::cell_of(b.world(), ogre));
    let targeted = [
        (FlowAction::Feint { target: ogre }, "Feint"),
        (FlowAction::Grapple { target: ogre }, "Grapple"),
        (
            FlowAction::Disarm {
                target: ogre,
                take: true,
                to: None,
            },
            "Disarm",
        ),
        (
            FlowAction::Shove {
                target: ogre,
                effect: ShoveEffect::PushBack,
            },
            "Shove back",
        ),
        (
            FlowAction::Shove {
                target: ogre,
                effect: ShoveEffect::KnockProne,
            },
            "Knock prone",
        ),
        (FlowAction::Tumble { through: ogre }, "Tumble past"),
    ];
    for (action, label) in targeted {
        let cmd = action.by(captain);
        let (mode, cell) = mode_of(&b, &cmd).expect("a target mode");
        assert_eq!(
            (mode.label.as_str(), mode.moves, Some(cell)),
            (label, false, at_ogre)
        );
        assert_eq!(command_label(&b, &cmd), label);
    }
    let numbered = [
        (FlowAction::FlowState, "Flow State"),
        (FlowAction::TotalDefense, "Total Defense"),
        (FlowAction::BreakFree, "Break free"),
        (FlowAction::Release, "Release grapple"),
        (FlowAction::StandUp, "Stand up"),
        (FlowAction::Ready { weapon: None }, "Ready an attack"),
        (
            FlowAction::Ready {
                weapon: Some("Sword".into()),
            },
            "Ready Sword",
        ),
        (
            FlowAction::Draw {
                weapon: "Sword".into(),
            },
            "Draw Sword",
        ),
        (
            FlowAction::Sheathe {
                weapon: "Sword".into(),
            },
            "Sheathe Sword",
        ),
        (
            FlowAction::PickUp {
                item: "Sword".into(),
            },
            "Pick up Sword",
        ),
        (
            FlowAction::Drop {
                item: "Sword".into(),
            },
            "Drop Sword",
        ),
    ];
    for (action, label) in numbered {
        let cmd = action.by(captain);
        assert!(mode_of(&b, &cmd).is_none(), "{label} is a numbered action");
        assert_eq!(command_label(&b, &cmd), label);
        assert_eq!(
            rarely_wanted(&b, &cmd),
            label.starts_with("Drop"),
            "{label}"
        );
    }
}

/// F-08's cost table and the window's keys: every `flow` verb declares the AP it
/// costs (the defaults of `flow.ron`) and the key that picks it. The battle's
/// `verb_cost` is the declared cost in the amount the level configures, and the
/// check requires exactly that (a level making Feint cost 6 AP leaves a 5-AP unit
/// unable to feint). The window shows "Feint (1 AP, key N)"; N selects the Feint
/// mode, H the Shove modes in turn, O does Total Defense.
#[cfg(feature = "render")]
#[test]
fn f_08_verbs_declare_their_ap_cost_and_key_and_keys_pick_them() {
    use skirmish::engine::rulesets::flow::VERBS;
    use skirmish::engine::verb::{Cost, VerbSpec};
    use skirmish::game::choices::{VerbKey, choices_for, verb_hint, verb_key};
    use skirmish::game::settings::{
        BattleAction, DEFAULT_BINDINGS, bind_verb_keys, key_code, parse_bindings,
    };
    let b = duel(a_unit(), t_unit(), &[]);
    assert_eq!(active(&b), "A");
    for verb in VERBS {
        assert_eq!(
            b.rules().verb_cost(b.world(), verb),
            verb.cost,
            "{}: the declared cost is flow.ron's default",
            verb.name
        );
    }
    let feint = VERBS.iter().find(|v| v.name == "Feint").unwrap();
    assert_eq!(feint.cost, Some(Cost::new(pools::AP, 1)), "Feint: 1 AP");
    assert_eq!(verb_hint(&b, "Feint"), " (1 AP, key N)");
    assert_eq!(verb_hint(&b, "Drop"), "", "Drop: free, no key");
    // A level's `costs` change what the check requires and what the window shows.
    let costs = "(move_action: 1, attack: 2, draw: 1, sheathe: 1, potion: 2, item: 2, \
                 disarm: 2, feint: 6, flow_state: 1, grapple: 2, grapple_upkeep: 2, shove: 1, \
                 step: 1, total_defense: 3, tumble: 1, stand_up: 1, pick_up: 1)";
    let dear = start(
        &rule(lvl(vec![a_unit(), t_unit()]), "costs", costs),
        &[1, 1],
    );
    assert_eq!(
        dear.rules().verb_cost(dear.world(), feint),
        Some(Cost::new(pools::AP, 6))
    );
    let err = dear
        .check(
            &FlowAction::Feint {
                target: id(&dear, "T"),
            }
            .by(id(&dear, "A")),
        )
        .unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::NotEnoughPoints {
                need: 6,
                have: 5,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(verb_hint(&dear, "Feint"), " (6 AP, key N)");
    // Every key is bound with the default bindings: none clashes, none repeats.
    let mut map = parse_bindings(DEFAULT_BINDINGS).unwrap();
    assert_eq!(bind_verb_keys(&mut map, VERBS), Vec::<String>::new());
    let keys: Vec<char> = VERBS.iter().filter_map(|v| v.key).collect();
    assert!(keys.len() >= 8, "{keys:?}");
    for k in &keys {
        assert_eq!(keys.iter().filter(|x| *x == k).count(), 1, "{k} twice");
        let bound = map.get_buttonlike(&BattleAction::Verb(*k)).expect("bound");
        let key: Box<dyn leafwing_input_manager::prelude::Buttonlike> =
            Box::new(key_code(*k).unwrap());
        assert!(bound.contains(&key), "{k}");
    }
    // A key the bindings already use is left out, with the reason.
    const KICK: &[VerbSpec] = &[VerbSpec {
        key: Some('u'),
        ..VerbSpec::new("Kick", "a test verb", &["Kick"])
    }];
    let problems = bind_verb_keys(&mut map, KICK);
    assert_eq!(
        problems,
        ["the key KeyU of `Kick` is already bound to UseItem; it is not bound to `Kick`"]
    );
    assert!(
        map.get_buttonlike(&BattleAction::Verb('n')).is_none(),
        "a new ruleset's keys replace the old ones"
    );
    // Pressing the keys on A's turn, next to T.
    let choices = choices_for(&b, 0, 0);
    let label = |key: char, selected: usize| -> String {
        let choices = choices_for(&b, 0, selected);
        match verb_key(&b, &choices, key) {
            VerbKey::Mode(i) => choices.powers[i].label.clone(),
            other => panic!("{key}: {other:?}"),
        }
    };
    assert_eq!(label('n', 0), "Feint");
    let shove_back = choices.mode("Shove back").expect("Shove back mode");
    let knock_prone = choices.mode("Knock prone").expect("Knock prone mode");
    assert_eq!(label('h', 0), "Shove back");
    assert_eq!(
        label('h', shove_back),
        "Knock prone",
        "again: the next mode"
    );
    assert_eq!(label('h', knock_prone), "Shove back");
    assert_eq!(
        verb_key(&b, &choices, 'o'),
        VerbKey::Do(FlowAction::TotalDefense.by(id(&b, "A")))
    );
    assert_eq!(
        verb_key(&b, &choices, 'k'),
        VerbKey::Say("Break free is not possible now".into())
    );
}
