//! `actfast` (RULES.md §4) played through `Battle::submit` with scripted dice: each
//! round's Fast/Well question and the four steps, surprise, actions and their limits,
//! pools read by the highest die, range bands and the melee attack's approach, armor
//! per die, ripostes and reactions, the eight conditions, morale (its triggers, the
//! roll, flight and surrender), and the typed refusals of illegal commands. Each test
//! names the rule ids it checks.
//!
//! The dice are drawn in rule order (the brief's and RULES.md §0's convention): an
//! attack's pool dice, then its damage dice; a burning unit's d6 at the start of its
//! turn; the escape pool; the morale 2d6 of each NPC of a shaken side, in roster
//! order, at the start of that side's next NPC turn. Every test ends with
//! [`all_dice_used`]: a rule that rolled one die too many or too few fails it.

use skirmish::engine::board::{Cell, GridKind};
use skirmish::engine::decision::PendingDecision;
use skirmish::engine::dice::Dice;
use skirmish::engine::rulesets::actfast::movement::approach_options;
use skirmish::engine::rulesets::new_battle;
use skirmish::engine::units::PlayState;
use skirmish::engine::verb::Args;
use skirmish::engine::{Awaiting, Battle, Command};
use skirmish::level::schema::*;

use crate::common::{c, cell, conditions, hp, id};

// ------------------------------------------------------------------ helpers

/// The players' side.
pub const HEROES: &str = "Heroes";
/// The opponents' side.
pub const FOES: &str = "Foes";
/// The answer "Act Fast".
pub const FAST: &str = "ActFast";
/// The answer "Act Well".
pub const WELL: &str = "ActWell";

/// An `actfast` unit with its three required stats; it fights Unarmed until
/// [`armed`] gives it weapons, and its HP, Armor, Morale … are the defaults.
fn au(name: &str, side: &str, pos: (i32, i32), class: i32, strength: i32, dex: i32) -> UnitDef {
    UnitDef {
        name: name.into(),
        side: side.into(),
        pos,
        stats: [("Class", class), ("STR", strength), ("DEX", dex)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        ..Default::default()
    }
}

fn stat(mut u: UnitDef, k: &str, v: i32) -> UnitDef {
    u.stats.insert(k.into(), v);
    u
}

fn with(mut u: UnitDef, traits: &[&str]) -> UnitDef {
    u.traits.extend(traits.iter().map(|t| t.to_string()));
    u
}

/// A power named like a weapon of the table: it takes the table's damage and
/// melee or ranged (A-GAP-05); the damage written here is overwritten.
fn weapon(name: &str) -> PowerDef {
    PowerDef {
        name: name.into(),
        range: 1,
        ranged: false,
        damage: "1d1".into(),
        add_tier: false,
        on_hit: Vec::new(),
        damage_type: None,
        traits: Vec::new(),
    }
}

/// A power of its own: its damage as written, melee unless `ranged`.
fn custom(name: &str, damage: &str, ranged: bool) -> PowerDef {
    PowerDef {
        damage: damage.into(),
        ranged,
        ..weapon(name)
    }
}

/// A power whose hits put `condition` on the target.
fn on_hit(power: PowerDef, condition: &str) -> PowerDef {
    PowerDef {
        on_hit: vec![EffectDef {
            condition: condition.into(),
            lasts: EffectDuration::default(),
        }],
        ..power
    }
}

fn armed(mut u: UnitDef, powers: Vec<PowerDef>) -> UnitDef {
    u.powers = powers;
    u
}

/// Heroes (side trait `PCs`, asked every question) against Foes (`NPCs`, never
/// asked: they never riposte unless a test sets them to `Auto`), both played by
/// hand, on an open square map unless `terrain` says otherwise.
fn level(size: (u32, u32), terrain: &[&str], units: Vec<UnitDef>) -> Level {
    let mut l = crate::common::level(size, terrain, units);
    l.ruleset = "actfast".into();
    for (side, (name, t, policy)) in l.sides.iter_mut().zip([
        (HEROES, "PCs", DecisionPolicy::Ask),
        (FOES, "NPCs", DecisionPolicy::Never),
    ]) {
        side.name = name.into();
        side.traits = vec![t.into()];
        side.decisions = policy;
    }
    l
}

fn battle(level: &Level, faces: &[u32]) -> Battle {
    new_battle(level, Dice::scripted(faces.iter().copied())).expect("level sets up")
}

/// Every scripted face was drawn, no more and no fewer.
pub fn all_dice_used(b: &Battle) {
    assert_eq!(
        b.world().resource::<Dice>().remaining(),
        Some(0),
        "faces left over; the log:\n{}",
        log(b, 0).join("\n")
    );
}

/// The log's lines from event `from` on.
pub fn log(b: &Battle, from: usize) -> Vec<String> {
    b.events()[from..]
        .iter()
        .filter_map(|e| skirmish::engine::log::line(b.world(), e))
        .collect()
}

/// `wanted` appear in `lines` in this order (other lines may come between).
pub fn assert_seq(lines: &[String], wanted: &[&str]) {
    let mut at = 0;
    for w in wanted {
        match lines[at..].iter().position(|l| l == w) {
            Some(i) => at += i + 1,
            None => panic!(
                "missing (in this order) the line\n  {w}\nin:\n{}",
                lines.join("\n")
            ),
        }
    }
}

/// No line of `lines` contains `text`.
pub fn assert_none(lines: &[String], text: &str) {
    if let Some(l) = lines.iter().find(|l| l.contains(text)) {
        panic!("unexpected line `{l}` in:\n{}", lines.join("\n"));
    }
}

/// The lines that contain `text`.
pub fn lines_with(lines: &[String], text: &str) -> Vec<String> {
    lines.iter().filter(|l| l.contains(text)).cloned().collect()
}

/// Submits a legal command and returns the log lines it caused.
fn go(b: &mut Battle, make: impl FnOnce(&Battle) -> Command) -> Vec<String> {
    let command = make(b);
    let from = b.events().len();
    if let Err(e) = b.submit(command.clone()) {
        panic!(
            "refused: {e}\ncommand: {command:?}\nthe log:\n{}",
            log(b, 0).join("\n")
        );
    }
    log(b, from)
}

/// Why `command` is refused, in words.
fn refusal(b: &Battle, command: &Command) -> String {
    b.check(command)
        .expect_err("the command must be refused")
        .to_string()
}

fn act(b: &Battle, unit: &str, verb: &str) -> Command {
    Command::Act {
        unit: id(b, unit),
        verb: verb.into(),
        args: Args::new(),
    }
}

fn path(p: &[(i32, i32)]) -> Vec<Cell> {
    p.iter().map(|&(x, y)| c(x, y)).collect()
}

fn mv(b: &Battle, unit: &str, p: &[(i32, i32)]) -> Command {
    Command::move_along(id(b, unit), "Move", path(p))
}

/// An attack with `power` (the unit's first when `None`), moving through
/// `approach` first.
fn strike(
    b: &Battle,
    unit: &str,
    target: &str,
    power: Option<&str>,
    approach: &[(i32, i32)],
) -> Command {
    Command::Attack {
        unit: id(b, unit),
        target: id(b, target),
        power: power.map(Into::into),
        options: approach_options(path(approach)),
    }
}

fn attack(b: &Battle, unit: &str, target: &str) -> Command {
    strike(b, unit, target, None, &[])
}

fn end(b: &mut Battle, unit: &str) -> Vec<String> {
    go(b, |b| Command::EndTurn { unit: id(b, unit) })
}

/// The name of the unit whose turn it is.
fn active(b: &Battle) -> Option<String> {
    match b.awaiting() {
        Awaiting::Unit(u, _) => Some(b.unit_name(u)),
        _ => None,
    }
}

/// The question the battle asks now.
fn asked(b: &Battle) -> PendingDecision {
    match b.awaiting() {
        Awaiting::Decision(d) => *d,
        other => panic!(
            "no question asked: {other:?}\nthe log:\n{}",
            log(b, 0).join("\n")
        ),
    }
}

/// Answers the round's question for `unit`: `FAST` or `WELL`.
fn choose(b: &mut Battle, unit: &str, verb: &str) -> Vec<String> {
    let q = asked(b);
    assert_eq!(q.about, format!("choose how {unit} acts this round"));
    go(b, |b| act(b, unit, verb))
}

/// The round's answers, in the order asked.
fn choose_all(b: &mut Battle, answers: &[(&str, &str)]) -> Vec<String> {
    answers.iter().flat_map(|&(u, v)| choose(b, u, v)).collect()
}

/// A shown pool of a unit (`Actions` on its turn, `Reactions`, `Armor`, `Morale
/// save` ...).
pub fn pool(b: &Battle, unit: &str, key: &str) -> Option<i32> {
    b.pools(id(b, unit))
        .into_iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
}

pub fn state(b: &Battle, name: &str) -> PlayState {
    b.units()
        .into_iter()
        .find(|u| u.name == name)
        .map(|u| u.state)
        .expect("unit")
}

pub fn has(b: &Battle, unit: &str, condition: &str) -> bool {
    conditions(b, unit).iter().any(|c| c == condition)
}

/// The units whose turns started in `lines`, in order.
pub fn turns(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_suffix("'s turn (Turn)"))
        .map(String::from)
        .collect()
}

// ------------------------------------------------------------------ the round

/// A-EX-1 / A-02 / A-03 / A-22 / A-GAP-07 / A-GAP-10: Ann (Act Fast), Bo (Act
/// Well), Cy (Slow, not asked), Orc1, Orc2 (Slow): Ann (1 action) → Orc1 (2, at
/// most one an attack) → Bo (2) → Cy (1) → Orc2 (1, move or attack), players first
/// in step 4 although Orc2 comes first in the roster. Each PC is asked before step
/// 1, and again at the start of round 2.
#[test]
fn a_ex_1_a_02_a_03_a_22_a_gap_07_the_round_in_four_steps() {
    let l = level(
        (10, 6),
        &[],
        vec![
            au("Ann", HEROES, (1, 1), 1, 1, 1),
            au("Bo", HEROES, (1, 3), 1, 1, 1),
            with(au("Orc2", FOES, (8, 1), 1, 1, 1), &["Slow"]),
            au("Orc1", FOES, (2, 3), 1, 1, 1),
            with(au("Cy", HEROES, (1, 5), 1, 1, 1), &["Slow"]),
        ],
    );
    // Orc1 hits Bo: 2d6 [5, 2], a Partial; Unarmed 1d3 [3], halved: 1.
    let mut b = battle(&l, &[5, 2, 3]);
    let q = asked(&b);
    assert_eq!(
        q.prompt,
        "Round 1: how does Ann act? Act Fast: 1 action, before Foes. Act Well: 2 actions, \
         after them."
    );
    assert_eq!(q.options.len(), 2);
    assert!(q.options[0].label.starts_with("Ann: Act Fast - "), "{q:?}");
    assert!(q.options[1].label.starts_with("Ann: Act Well - "), "{q:?}");
    assert!(q.decline.is_none(), "the choice can't be declined");
    let said = choose(&mut b, "Ann", FAST);
    assert!(said[0].starts_with("Ann will Act Fast: "), "{said:?}");
    assert!(
        asked(&b).prompt.ends_with(" So far: Ann Act Fast."),
        "{:?}",
        asked(&b)
    );
    // Cy is Slow: it is not asked.
    let said = choose(&mut b, "Bo", WELL);
    assert_seq(
        &said,
        &[
            "This round: 1. Act Fast: Ann (1 action); 2. Opponents: Orc1 (2 actions); 3. \
           Act Well: Bo (2 actions); 4. Slow: Cy (1 action), Orc2 (1 action)",
        ],
    );
    let from = 0;
    assert_eq!(active(&b).as_deref(), Some("Ann"));
    assert_eq!(pool(&b, "Ann", "Actions"), Some(1));
    let said = go(&mut b, |b| mv(b, "Ann", &[(2, 1)]));
    assert_seq(
        &said,
        &[
            "Ann spends an action: move (0 left)",
            "Ann moves (1, 1) -> (2, 1) (cost 1)",
            "Ann ends its turn",
            "Orc1's turn (Turn)",
        ],
    );
    assert_eq!(pool(&b, "Orc1", "Actions"), Some(2));
    let said = go(&mut b, |b| attack(b, "Orc1", "Bo"));
    assert_seq(
        &said,
        &[
            "Orc1 spends an action: attack (1 left)",
            "Orc1 rolls a melee attack with Unarmed (Class 1 + STR 1 = 2d6) against Bo: 2d6 \
             [5, 2] keeps [5] = 5: Partial: a hit for half damage",
            "Orc1 rolls damage with Unarmed against Bo: 1d3 [3] = 1: halved (Partial, rounded \
             down): 1",
            "Bo takes 1 damage [3] -> 9 HP",
        ],
    );
    // A-GAP-07: at most one of an NPC's two actions is an attack; a move is fine.
    assert_eq!(
        refusal(&b, &attack(&b, "Orc1", "Bo")),
        "Orc1 has made its attack this turn: an NPC makes at most 1 a turn (A-GAP-07)"
    );
    go(&mut b, |b| mv(b, "Orc1", &[(3, 3)]));
    assert_eq!(active(&b).as_deref(), Some("Bo"));
    assert_eq!(pool(&b, "Bo", "Actions"), Some(2));
    end(&mut b, "Bo");
    assert_eq!(active(&b).as_deref(), Some("Cy"));
    assert_eq!(
        pool(&b, "Cy", "Actions"),
        Some(1),
        "A-22: Slow takes 1 action"
    );
    end(&mut b, "Cy");
    assert_eq!(active(&b).as_deref(), Some("Orc2"));
    assert_eq!(pool(&b, "Orc2", "Actions"), Some(1));
    // a Slow NPC moves or attacks, not both: no attack with an approach.
    assert_eq!(
        refusal(
            &b,
            &strike(
                &b,
                "Orc2",
                "Ann",
                None,
                &[(7, 1), (6, 1), (5, 1), (4, 1), (3, 1)]
            )
        ),
        "Orc2 is a Slow NPC: it moves or attacks, not both (A-22)"
    );
    let said = end(&mut b, "Orc2");
    assert_seq(&said, &["=== Round 2 ==="]);
    assert_eq!(
        turns(&log(&b, from)),
        ["Ann", "Orc1", "Bo", "Cy", "Orc2"],
        "A-03"
    );
    // A-GAP-10: each player declares again at the start of each round.
    assert!(
        asked(&b)
            .prompt
            .starts_with("Round 2: how does Ann act? Act Fast"),
        "{:?}",
        asked(&b)
    );
    all_dice_used(&b);
}

/// A-EX-1 (surprise variant) / A-04 / A-GAP-15: the PCs ambushed in round 1 are not
/// asked and act as if Slow, after the NPCs, with 2 actions each (Slow Cy 1), players
/// before the Slow NPC. Round 2 is back to the normal order and the PCs choose.
#[test]
fn a_ex_1_a_04_a_gap_15_the_ambushed_pcs_act_last_in_round_1() {
    let mut l = level(
        (10, 6),
        &[],
        vec![
            au("Ann", HEROES, (1, 1), 1, 1, 1),
            au("Bo", HEROES, (1, 3), 1, 1, 1),
            with(au("Cy", HEROES, (1, 5), 1, 1, 1), &["Slow"]),
            au("Orc1", FOES, (8, 3), 1, 1, 1),
            with(au("Orc2", FOES, (8, 1), 1, 1, 1), &["Slow"]),
        ],
    );
    l.sides[0].traits.push("Surprised".into());
    let mut b = battle(&l, &[]);
    assert_eq!(active(&b).as_deref(), Some("Orc1"), "nobody is asked");
    let first = log(&b, 0);
    assert_seq(
        &first,
        &[
            "This round: 2. Opponents: Orc1 (2 actions); 4. Slow: Ann (2 actions), Bo (2 \
           actions), Cy (1 action), Orc2 (1 action)",
        ],
    );
    assert_none(&first, "will Act");
    for u in ["Orc1", "Ann", "Bo", "Cy"] {
        assert_eq!(active(&b).as_deref(), Some(u));
        if u == "Ann" {
            assert_eq!(pool(&b, "Ann", "Actions"), Some(2), "A-04: still 2 actions");
        }
        end(&mut b, u);
    }
    assert_eq!(active(&b).as_deref(), Some("Orc2"));
    end(&mut b, "Orc2");
    assert_eq!(
        turns(&log(&b, 0)),
        ["Orc1", "Ann", "Bo", "Cy", "Orc2"],
        "A-EX-1 surprise variant"
    );
    // Round 2: the surprise is over (A-GAP-15: only the first round).
    let said = choose_all(&mut b, &[("Ann", FAST), ("Bo", WELL)]);
    assert_seq(
        &said,
        &[
            "This round: 1. Act Fast: Ann (1 action); 2. Opponents: Orc1 (2 actions); 3. \
           Act Well: Bo (2 actions); 4. Slow: Cy (1 action), Orc2 (1 action)",
        ],
    );
    assert_eq!(active(&b).as_deref(), Some("Ann"));
    all_dice_used(&b);
}

/// A-04 / A-GAP-15: surprised NPCs act in step 4 after the Slow PC, with 2 actions
/// each and not limited to move-or-attack (one attack still, A-GAP-07); the
/// surprising PCs still choose Fast or Well.
#[test]
fn a_04_a_gap_15_surprised_npcs_act_last_with_two_actions() {
    let mut l = level(
        (10, 6),
        &[],
        vec![
            au("Ann", HEROES, (1, 1), 1, 1, 1),
            au("Bo", HEROES, (1, 3), 1, 1, 1),
            with(au("Cy", HEROES, (1, 5), 1, 1, 1), &["Slow"]),
            au("Orc1", FOES, (2, 3), 1, 1, 1),
            with(au("Orc2", FOES, (8, 1), 1, 1, 1), &["Slow"]),
        ],
    );
    l.sides[1].traits.push("Surprised".into());
    // Orc1 moves, then hits Bo: 2d6 [6, 1], a Success; 1d3 [3].
    let mut b = battle(&l, &[6, 1, 3]);
    assert_eq!(
        asked(&b).prompt,
        "Round 1: how does Ann act? Foes is caught by surprise and acts last (A-04): Act \
         Fast: 1 action, first. Act Well: 2 actions, still before them."
    );
    let said = choose_all(&mut b, &[("Ann", FAST), ("Bo", WELL)]);
    assert_seq(
        &said,
        &[
            "This round: 1. Act Fast: Ann (1 action); 3. Act Well: Bo (2 actions); 4. Slow: \
           Cy (1 action), Orc1 (2 actions), Orc2 (1 action)",
        ],
    );
    for u in ["Ann", "Bo", "Cy"] {
        end(&mut b, u);
    }
    assert_eq!(active(&b).as_deref(), Some("Orc1"));
    assert_eq!(pool(&b, "Orc1", "Actions"), Some(2));
    go(&mut b, |b| mv(b, "Orc1", &[(2, 4)]));
    let said = go(&mut b, |b| attack(b, "Orc1", "Bo"));
    assert_seq(
        &said,
        &["Bo takes 3 damage [3] -> 7 HP", "Orc1 ends its turn"],
    );
    end(&mut b, "Orc2");
    // Round 2: Orc1 is back in step 2.
    let said = choose_all(&mut b, &[("Ann", WELL), ("Bo", WELL)]);
    assert_seq(
        &said,
        &[
            "This round: 2. Opponents: Orc1 (2 actions); 3. Act Well: Ann (2 actions), Bo (2 \
           actions); 4. Slow: Cy (1 action), Orc2 (1 action)",
        ],
    );
    all_dice_used(&b);
}

/// A-GAP-10: in a step the players choose their order: a PC that has not acted may
/// wait once a round for the next PC of its step and acts right after it; NPCs act
/// in the GM's (roster) order. Waiting twice, or after acting, is refused.
#[test]
fn a_gap_10_players_choose_their_order_within_a_step() {
    let l = level(
        (10, 6),
        &[],
        vec![
            au("Ann", HEROES, (1, 1), 1, 1, 1),
            au("Bo", HEROES, (1, 3), 1, 1, 1),
            au("Orc1", FOES, (8, 1), 1, 1, 1),
            au("Orc2", FOES, (8, 3), 1, 1, 1),
        ],
    );
    let mut b = battle(&l, &[]);
    choose_all(&mut b, &[("Ann", FAST), ("Bo", FAST)]);
    let from = b.events().len();
    let said = go(&mut b, |b| act(b, "Ann", "Wait"));
    assert_seq(
        &said,
        &[
            "Ann waits: Bo acts first",
            "Ann ends its turn",
            "Bo's turn (Turn)",
        ],
    );
    end(&mut b, "Bo");
    assert_eq!(active(&b).as_deref(), Some("Ann"));
    assert_eq!(pool(&b, "Ann", "Actions"), Some(1));
    let wait_refused = "Ann can wait once a round, before it acts, for a later unit of its side in the same \
         step (A-GAP-10)";
    assert_eq!(refusal(&b, &act(&b, "Ann", "Wait")), wait_refused);
    go(&mut b, |b| mv(b, "Ann", &[(2, 1)]));
    end(&mut b, "Orc1");
    end(&mut b, "Orc2");
    assert_eq!(turns(&log(&b, from)), ["Bo", "Ann", "Orc1", "Orc2"]);
    // Round 2, both Act Well: Ann moves, then may not wait.
    choose_all(&mut b, &[("Ann", WELL), ("Bo", WELL)]);
    end(&mut b, "Orc1");
    end(&mut b, "Orc2");
    go(&mut b, |b| mv(b, "Ann", &[(3, 1)]));
    assert_eq!(refusal(&b, &act(&b, "Ann", "Wait")), wait_refused);
    all_dice_used(&b);
}

// ------------------------------------------------------------------ reactions

/// A-05 / A-06 / A-GAP-08 / A-GAP-09: a failed melee attack lets its target riposte
/// with its one reaction of the round: one melee attack with its normal pool and
/// damage, which can't itself be riposted. A failed ranged attack offers nothing;
/// with the reaction spent the next failure offers nothing; an NPC side that answers
/// by itself ripostes; next round the reaction is back, and a PC may hold it.
#[test]
fn a_05_a_06_a_gap_08_a_gap_09_riposte_with_the_rounds_reaction() {
    let mut l = level(
        (8, 5),
        &[],
        vec![
            armed(
                au("Ann", HEROES, (2, 2), 1, 1, 1),
                vec![weapon("One-handed")],
            ),
            armed(au("Archer", FOES, (6, 2), 1, 1, 1), vec![weapon("Bow")]),
            armed(
                au("Orc1", FOES, (3, 2), 1, 1, 1),
                vec![weapon("One-handed")],
            ),
            armed(
                au("Orc2", FOES, (3, 3), 1, 1, 1),
                vec![weapon("One-handed")],
            ),
        ],
    );
    l.sides[1].decisions = DecisionPolicy::Auto;
    let faces = [
        2, 2, // Archer's arrow misses Ann
        2, 3, // Orc1 misses Ann
        1, 3, // Ann's riposte misses Orc1
        1, 1, // Orc2 misses Ann
        1, 2, // Ann misses Orc1 on her turn
        6, 2, 2, // Orc1's riposte hits Ann: 1d6 [2]
        3, 3, // round 2: Orc1 misses Ann (Ann holds her reaction)
        2, 1, // Orc2 misses Ann
        6, 1, 3, // Ann's riposte hits Orc2: 1d6 [3]
    ];
    let mut b = battle(&l, &faces);
    choose(&mut b, "Ann", WELL);
    assert_eq!(pool(&b, "Ann", "Reactions"), Some(1));
    let said = go(&mut b, |b| strike(b, "Archer", "Ann", Some("Bow"), &[]));
    assert_seq(
        &said,
        &[
            "Archer rolls a ranged attack with Bow (Class 1 + DEX 1 = 2d6) against Ann: 2d6 [2, \
           2] keeps [2] = 2: Failure: a miss",
        ],
    );
    assert_eq!(
        active(&b).as_deref(),
        Some("Archer"),
        "no riposte to a ranged attack"
    );
    end(&mut b, "Archer");
    go(&mut b, |b| attack(b, "Orc1", "Ann"));
    let q = asked(&b);
    assert!(
        q.prompt
            .starts_with("Orc1's attack on Ann fails. Riposte with One-handed? ("),
        "{q:?}"
    );
    assert!(q.prompt.ends_with("; its reaction this round)"), "{q:?}");
    assert_eq!(q.options[0].label, "Ann ripostes");
    assert_eq!(
        q.decline.as_ref().map(|d| d.label.as_str()),
        Some("Ann holds its reaction")
    );
    let said = go(&mut b, |b| act(b, "Ann", "Riposte"));
    assert_eq!(
        said,
        [
            "Ann ripostes Orc1's failed attack (its reaction this round)",
            "Ann rolls a riposte with One-handed (Class 1 + STR 1 = 2d6) against Orc1: 2d6 [1, \
             3] keeps [3] = 3: Failure: a miss",
        ],
        "a riposte can't be riposted, though Orc1's side would"
    );
    assert_eq!(pool(&b, "Ann", "Reactions"), Some(0));
    assert_eq!(active(&b).as_deref(), Some("Orc1"));
    end(&mut b, "Orc1");
    let said = go(&mut b, |b| attack(b, "Orc2", "Ann"));
    assert_none(&said, "ripostes");
    assert_eq!(
        active(&b).as_deref(),
        Some("Orc2"),
        "A-05: its reaction is spent"
    );
    end(&mut b, "Orc2");
    // Ann misses Orc1, whose side answers by itself: it ripostes.
    let said = go(&mut b, |b| attack(b, "Ann", "Orc1"));
    assert_seq(
        &said,
        &[
            "Ann rolls a melee attack with One-handed (Class 1 + STR 1 = 2d6) against Orc1: 2d6 \
             [1, 2] keeps [2] = 2: Failure: a miss",
            "Orc1 ripostes Ann's failed attack (its reaction this round)",
            "Orc1 rolls a riposte with One-handed (Class 1 + STR 1 = 2d6) against Ann: 2d6 [6, \
             2] keeps [6] = 6: Success: a hit",
            "Orc1 rolls damage with One-handed against Ann: 1d6 [2] = 2",
            "Ann takes 2 damage [2] -> 8 HP",
        ],
    );
    end(&mut b, "Ann");
    // Round 2: the reaction is back (A-GAP-08).
    choose(&mut b, "Ann", WELL);
    assert_eq!(pool(&b, "Ann", "Reactions"), Some(1));
    end(&mut b, "Archer");
    go(&mut b, |b| attack(b, "Orc1", "Ann"));
    let heroes = b.side_id(HEROES).expect("side");
    let said = go(&mut b, |_| Command::Pass { side: heroes });
    assert_none(&said, "ripostes");
    assert_seq(
        &said,
        &["Ann lets Orc1's failed attack pass and keeps its reaction"],
    );
    assert_eq!(pool(&b, "Ann", "Reactions"), Some(1), "held");
    end(&mut b, "Orc1");
    go(&mut b, |b| attack(b, "Orc2", "Ann"));
    asked(&b);
    let said = go(&mut b, |b| act(b, "Ann", "Riposte"));
    assert_seq(
        &said,
        &[
            "Ann ripostes Orc2's failed attack (its reaction this round)",
            "Orc2 takes 3 damage [3] -> 3 HP",
        ],
    );
    all_dice_used(&b);
}

/// A-23 / A-GAP-08 / A-GAP-11: a Stunned PC is not asked, misses its turn (the
/// stun lasts exactly that turn) and can't riposte that round; the next round it
/// chooses and may riposte again.
#[test]
fn a_23_a_gap_08_stunned_misses_its_turn_and_cant_react() {
    let l = level(
        (8, 6),
        &[],
        vec![
            with(au("Ann", HEROES, (2, 2), 1, 1, 1), &["Stunned"]),
            au("Bo", HEROES, (2, 4), 1, 1, 1),
            au("Orc", FOES, (3, 2), 1, 1, 1),
        ],
    );
    // Orc misses Ann in round 1 (2d6 [1, 2]) and in round 2 (2d6 [2, 2]).
    let mut b = battle(&l, &[1, 2, 2, 2]);
    let said = choose(&mut b, "Bo", FAST);
    assert_seq(
        &said,
        &[
            "Ann can't act: Stunned: it misses its turn (A-23)",
            "Ann is no longer Stunned: it missed its turn",
            "This round: 1. Act Fast: Bo (1 action); 2. Opponents: Orc (2 actions)",
        ],
    );
    assert_eq!(pool(&b, "Ann", "Reactions"), Some(0));
    end(&mut b, "Bo");
    go(&mut b, |b| attack(b, "Orc", "Ann"));
    assert_eq!(active(&b).as_deref(), Some("Orc"), "no riposte offered");
    end(&mut b, "Orc");
    choose_all(&mut b, &[("Ann", WELL), ("Bo", WELL)]);
    go(&mut b, |b| attack(b, "Orc", "Ann"));
    assert_eq!(asked(&b).about, "decide whether Ann ripostes Orc");
    all_dice_used(&b);
}

/// A-23 / A-GAP-11: a PC Stunned by a hit after the round's order was set misses
/// its coming turn, and only that one.
#[test]
fn a_23_a_gap_11_stunned_by_a_hit_misses_its_coming_turn() {
    let l = level(
        (8, 5),
        &[],
        vec![
            au("Bo", HEROES, (2, 2), 1, 1, 1),
            armed(
                au("Orc", FOES, (3, 2), 1, 1, 1),
                vec![on_hit(custom("Cosh", "1d3", false), "Stunned")],
            ),
        ],
    );
    let mut b = battle(&l, &[6, 1, 1]);
    choose(&mut b, "Bo", WELL);
    let said = go(&mut b, |b| attack(b, "Orc", "Bo"));
    assert!(has(&b, "Bo", "Stunned"), "{said:?}");
    let said = end(&mut b, "Orc");
    assert_seq(
        &said,
        &[
            "Bo can't act: Stunned: it misses its turn (A-23)",
            "Bo is no longer Stunned: it missed its turn",
            "=== Round 2 ===",
        ],
    );
    assert_none(&said, "Bo's turn");
    choose(&mut b, "Bo", FAST);
    assert_eq!(active(&b).as_deref(), Some("Bo"));
    all_dice_used(&b);
}

/// A-GAP-16: leaving melee range never provokes: moving away from an adjacent
/// enemy, either way, rolls nothing and asks nothing, even of a side that would
/// answer by itself.
#[test]
fn a_gap_16_no_opportunity_attacks() {
    let mut l = level(
        (8, 5),
        &[],
        vec![
            armed(
                au("Ann", HEROES, (2, 2), 1, 1, 1),
                vec![weapon("One-handed")],
            ),
            armed(au("Orc", FOES, (3, 2), 1, 1, 1), vec![weapon("One-handed")]),
        ],
    );
    l.sides[1].decisions = DecisionPolicy::Auto;
    let mut b = battle(&l, &[]);
    choose(&mut b, "Ann", FAST);
    let said = go(&mut b, |b| mv(b, "Ann", &[(1, 2), (0, 2)]));
    assert_none(&said, "rolls");
    assert_eq!(cell(&b, "Ann"), c(0, 2));
    let said = go(&mut b, |b| mv(b, "Orc", &[(4, 2), (5, 2)]));
    assert_none(&said, "rolls");
    assert_eq!(active(&b).as_deref(), Some("Orc"), "nothing asked");
    all_dice_used(&b);
}

// ------------------------------------------------------------------ attacks

/// A-07 / A-08 / A-09 / A-EX-2 / A-GAP-04 / A-GAP-11: pools of Class + STR (melee)
/// or Class + DEX (ranged) d6, read by the highest die; conditions add or remove
/// dice and add up: melee vs Prone 3 + 2 = 5d6 (faces 1, 3, 2, 5, 4: highest 5);
/// vs Grappled and Fearful 3 + 1 + 1 = 5d6; a Restrained attacker vs Prone 3 − 2 + 2
/// = 3d6; ranged vs Prone 2 − 2 = 0 dice: 2d6 read lowest (6, 2: 2).
#[test]
fn a_07_a_08_a_09_a_ex_2_pools_and_condition_dice() {
    let l = level(
        (8, 6),
        &[],
        vec![
            armed(
                au("Ann", HEROES, (2, 2), 1, 2, 1),
                vec![weapon("One-handed"), weapon("Bow")],
            ),
            armed(
                with(au("Tied", HEROES, (4, 3), 1, 2, 0), &["Restrained"]),
                vec![weapon("One-handed")],
            ),
            with(au("Sprawled", FOES, (3, 2), 1, 1, 1), &["Prone"]),
            with(au("Held", FOES, (3, 1), 1, 1, 1), &["Grappled", "Fear"]),
        ],
    );
    let faces = [
        1, 1, 1, // Tied vs Sprawled: a miss
        1, 3, 2, 5, 4, // Ann vs Sprawled: 5, a Partial
        5, // 1d6 [5], halved: 2
        2, 2, 2, 2, 2, // Ann vs Held: a miss
        6, 2, // round 2: Ann's arrow at Sprawled: lowest 2
    ];
    let mut b = battle(&l, &faces);
    choose_all(&mut b, &[("Ann", WELL), ("Tied", FAST)]);
    let said = go(&mut b, |b| attack(b, "Tied", "Sprawled"));
    assert_seq(
        &said,
        &[
            "Tied rolls a melee attack with One-handed (Class 1 + STR 2 - 2d (Tied: Restrained) \
           + 2d (Sprawled: Prone) = 3d6) against Sprawled: 3d6 [1, 1, 1] keeps [1] = 1: \
           Failure: a miss",
        ],
    );
    end(&mut b, "Sprawled");
    end(&mut b, "Held");
    let said = go(&mut b, |b| attack(b, "Ann", "Sprawled"));
    assert_seq(
        &said,
        &[
            "Ann rolls a melee attack with One-handed (Class 1 + STR 2 + 2d (Sprawled: Prone) = \
             5d6) against Sprawled: 5d6 [1, 3, 2, 5, 4] keeps [5] = 5: Partial: a hit for half \
             damage",
            "Ann rolls damage with One-handed against Sprawled: 1d6 [5] = 2: halved (Partial, \
             rounded down): 2",
            "Sprawled takes 2 damage [5] -> 4 HP",
        ],
    );
    let said = go(&mut b, |b| attack(b, "Ann", "Held"));
    assert_seq(
        &said,
        &[
            "Ann rolls a melee attack with One-handed (Class 1 + STR 2 + 1d (Held: Grappled) + \
           1d (Held: Fear) = 5d6) against Held: 5d6 [2, 2, 2, 2, 2] keeps [2] = 2: Failure: a \
           miss",
        ],
    );
    choose_all(&mut b, &[("Ann", FAST), ("Tied", WELL)]);
    let said = go(&mut b, |b| strike(b, "Ann", "Sprawled", Some("Bow"), &[]));
    assert_seq(
        &said,
        &[
            "Ann rolls a ranged attack with Bow (Class 1 + DEX 1 - 2d (Sprawled: Prone) = 0 \
           dice: roll 2d6 and read the lowest (A-GAP-04)) against Sprawled: 2d6 [6, 2] keeps \
           [2] = 2: Failure: a miss",
        ],
    );
    assert_eq!(hp(&b, "Sprawled"), 4);
    all_dice_used(&b);
}

/// A-GAP-03 / A-EX-6 / A-15: the highest die read on the skill-check scale: [2, 6,
/// 6] Critical (one more damage die), [6, 4] Success, [5, 3] Partial (1d6 = 5 vs
/// Armor 1: floor(4 / 2) = 2), [3, 1, 2] Failure.
#[test]
fn a_gap_03_a_ex_6_critical_success_partial_failure() {
    let l = level(
        (6, 6),
        &[],
        vec![
            armed(
                au("Ann", HEROES, (1, 1), 1, 2, 0),
                vec![weapon("One-handed")],
            ),
            armed(
                au("Bo", HEROES, (1, 4), 1, 1, 0),
                vec![weapon("One-handed")],
            ),
            stat(au("T1", FOES, (2, 1), 1, 1, 1), "Armor", 1),
            stat(au("T2", FOES, (2, 4), 1, 1, 1), "Armor", 1),
        ],
    );
    let faces = [
        2, 6, 6, 3, 2, // Ann vs T1: Critical, 2d6 [3, 2]
        6, 4, 4, // Bo vs T2: Success, 1d6 [4]
        3, 1, 2, // round 2: Ann vs T1: Failure
        5, 3, 5, // Bo vs T2: Partial, 1d6 [5]
    ];
    let mut b = battle(&l, &faces);
    choose_all(&mut b, &[("Ann", FAST), ("Bo", FAST)]);
    let said = go(&mut b, |b| attack(b, "Ann", "T1"));
    assert_seq(
        &said,
        &[
            "Ann rolls a melee attack with One-handed (Class 1 + STR 2 = 3d6) against T1: 3d6 \
             [2, 6, 6] keeps [6] = 6: Critical: a hit with an extra damage die",
            "Ann rolls damage with One-handed against T1: 2d6 [3, 2] = 3: Armor 1 on each die: \
             2 + 1 = 3",
            "T1 takes 3 damage [3, 2] -> 3 HP",
        ],
    );
    let said = go(&mut b, |b| attack(b, "Bo", "T2"));
    assert_seq(
        &said,
        &[
            "Bo rolls a melee attack with One-handed (Class 1 + STR 1 = 2d6) against T2: 2d6 \
             [6, 4] keeps [6] = 6: Success: a hit",
            "Bo rolls damage with One-handed against T2: 1d6 [4] = 3: Armor 1 on each die: 3 = \
             3",
            "T2 takes 3 damage [4] -> 3 HP",
        ],
    );
    end(&mut b, "T1");
    end(&mut b, "T2");
    choose_all(&mut b, &[("Ann", FAST), ("Bo", FAST)]);
    let said = go(&mut b, |b| attack(b, "Ann", "T1"));
    assert_seq(
        &said,
        &[
            "Ann rolls a melee attack with One-handed (Class 1 + STR 2 = 3d6) against T1: 3d6 \
           [3, 1, 2] keeps [3] = 3: Failure: a miss",
        ],
    );
    let said = go(&mut b, |b| attack(b, "Bo", "T2"));
    assert_seq(
        &said,
        &[
            "Bo rolls a melee attack with One-handed (Class 1 + STR 1 = 2d6) against T2: 2d6 \
             [5, 3] keeps [5] = 5: Partial: a hit for half damage",
            "Bo rolls damage with One-handed against T2: 1d6 [5] = 2: Armor 1 on each die: 4, \
             halved (Partial, rounded down): 2",
            "T2 takes 2 damage [5] -> 1 HP",
        ],
    );
    assert_eq!((hp(&b, "T1"), hp(&b, "T2")), (3, 1));
    all_dice_used(&b);
}

/// A-GAP-04: a pool of 0 dice rolls 2d6 and reads the lowest: [6, 6] is a Success,
/// never a Critical (one damage die); [1, 6] a Failure.
#[test]
fn a_gap_04_an_empty_pool_reads_the_lowest_of_two() {
    let l = level(
        (6, 4),
        &[],
        vec![
            armed(
                au("Weak", HEROES, (1, 1), 0, 0, 0),
                vec![weapon("One-handed")],
            ),
            au("Orc", FOES, (2, 1), 1, 1, 1),
        ],
    );
    let mut b = battle(&l, &[6, 6, 2, 1, 6]);
    choose(&mut b, "Weak", WELL);
    end(&mut b, "Orc");
    let said = go(&mut b, |b| attack(b, "Weak", "Orc"));
    assert_seq(
        &said,
        &[
            "Weak rolls a melee attack with One-handed (Class 0 + STR 0 = 0 dice: roll 2d6 and \
             read the lowest (A-GAP-04)) against Orc: 2d6 [6, 6] keeps [6] = 6: Success: a hit",
            "Weak rolls damage with One-handed against Orc: 1d6 [2] = 2",
        ],
    );
    let said = go(&mut b, |b| attack(b, "Weak", "Orc"));
    assert_seq(
        &said,
        &[
            "Weak rolls a melee attack with One-handed (Class 0 + STR 0 = 0 dice: roll 2d6 and \
           read the lowest (A-GAP-04)) against Orc: 2d6 [1, 6] keeps [1] = 1: Failure: a miss",
        ],
    );
    assert_eq!(hp(&b, "Orc"), 4);
    all_dice_used(&b);
}

/// A-15 / A-EX-3 / A-GAP-05: armor reduces every damage die, each floored at 0:
/// Two-handed 2d6 [4, 1] deals 5 to Armor 0, 3 + 0 = 3 to Armor 1, 2 + 0 = 2 to
/// Armor 2 and 0 to Armor 4.
#[test]
fn a_15_a_ex_3_armor_per_die() {
    let mut units = Vec::new();
    for (i, armor) in [0, 1, 2, 4].into_iter().enumerate() {
        let y = 1 + 2 * i as i32;
        units.push(armed(
            au(&format!("P{armor}"), HEROES, (1, y), 1, 0, 0),
            vec![weapon("Two-handed")],
        ));
        units.push(stat(
            au(&format!("A{armor}"), FOES, (2, y), 1, 1, 1),
            "Armor",
            armor,
        ));
    }
    let l = level((5, 9), &[], units);
    let mut b = battle(&l, &[6, 4, 1, 6, 4, 1, 6, 4, 1, 6, 4, 1]);
    choose_all(
        &mut b,
        &[("P0", FAST), ("P1", FAST), ("P2", FAST), ("P4", FAST)],
    );
    let mut damage = Vec::new();
    for armor in [0, 1, 2, 4] {
        let said = go(&mut b, |b| {
            attack(b, &format!("P{armor}"), &format!("A{armor}"))
        });
        assert_seq(
            &said,
            &[&format!(
                "P{armor} rolls a melee attack with Two-handed (Class 1 + STR 0 = 1d6) against \
                 A{armor}: 1d6 [6] = 6: Success: a hit"
            )],
        );
        damage.extend(lines_with(&said, "rolls damage"));
    }
    assert_eq!(
        damage,
        [
            "P0 rolls damage with Two-handed against A0: 2d6 [4, 1] = 5",
            "P1 rolls damage with Two-handed against A1: 2d6 [4, 1] = 3: Armor 1 on each die: 3 \
             + 0 = 3",
            "P2 rolls damage with Two-handed against A2: 2d6 [4, 1] = 2: Armor 2 on each die: 2 \
             + 0 = 2",
            "P4 rolls damage with Two-handed against A4: 2d6 [4, 1] = 0: Armor 4 on each die: 0 \
             + 0 = 0",
        ]
    );
    let left: Vec<i32> = ["A0", "A1", "A2", "A4"].iter().map(|n| hp(&b, n)).collect();
    assert_eq!(left, [1, 3, 4, 6]);
    all_dice_used(&b);
}

/// A-GAP-05 / A-GAP-06 / A-01: a unit without powers fights Unarmed (1d3); a Bow
/// shoots 1d6; a power of its own deals its own dice (Claw 1d4). HP default to 10
/// for PCs and 6 for NPCs; at 0 HP an NPC is dead and a PC Down.
#[test]
fn a_gap_05_a_gap_06_weapon_damage_and_defeat() {
    let l = level(
        (8, 7),
        &[],
        vec![
            au("Brawler", HEROES, (1, 1), 1, 0, 0),
            armed(au("Archer", HEROES, (6, 0), 1, 0, 0), vec![weapon("Bow")]),
            stat(au("Frail", HEROES, (5, 5), 1, 0, 0), "HP", 2),
            stat(au("Orc", FOES, (2, 1), 1, 1, 1), "HP", 3),
            armed(
                au("Beast", FOES, (6, 5), 1, 0, 0),
                vec![custom("Claw", "1d4", false)],
            ),
        ],
    );
    let faces = [
        6, 3, // Brawler: 1d3 [3] kills Orc
        6, 4, // Archer: 1d6 [4] on Beast
        1, 1, // Beast's morale (its first NPC was killed): holds
        6, 4, // Beast: 1d4 [4] on Frail
    ];
    let mut b = battle(&l, &faces);
    let units = b.units();
    let max = |n: &str| units.iter().find(|u| u.name == n).map(|u| u.max_hp);
    assert_eq!(
        (max("Brawler"), max("Archer"), max("Beast")),
        (Some(10), Some(10), Some(6)),
        "A-GAP-06 defaults"
    );
    choose_all(
        &mut b,
        &[("Brawler", FAST), ("Archer", FAST), ("Frail", FAST)],
    );
    let said = go(&mut b, |b| attack(b, "Brawler", "Orc"));
    assert_seq(
        &said,
        &[
            "Brawler rolls a melee attack with Unarmed (Class 1 + STR 0 = 1d6) against Orc: 1d6 \
             [6] = 6: Success: a hit",
            "Brawler rolls damage with Unarmed against Orc: 1d3 [3] = 3",
            "Orc takes 3 damage [3] -> 0 HP",
            "Orc is killed!",
        ],
    );
    assert_eq!(state(&b, "Orc"), PlayState::Dead);
    let said = go(&mut b, |b| attack(b, "Archer", "Beast"));
    assert_seq(
        &said,
        &[
            "Archer rolls a ranged attack with Bow (Class 1 + DEX 0 = 1d6) against Beast: 1d6 \
             [6] = 6: Success: a hit",
            "Archer rolls damage with Bow against Beast: 1d6 [4] = 4",
        ],
    );
    end(&mut b, "Frail");
    let said = go(&mut b, |b| attack(b, "Beast", "Frail"));
    assert_seq(
        &said,
        &[
            "Beast rolls damage with Claw against Frail: 1d4 [4] = 4",
            "Frail is defeated!",
        ],
    );
    assert_eq!(state(&b, "Frail"), PlayState::Down);
    all_dice_used(&b);
}

/// A-GAP-12 / A-21: every attack on an Immobilized unit succeeds (faces [1, 2]:
/// a Success, full damage), two 6s still make it Critical; it can't move, attack or
/// react.
#[test]
fn a_21_a_gap_12_immobilized_cant_defend_itself() {
    let l = level(
        (6, 4),
        &[],
        vec![
            with(au("Ann", HEROES, (1, 1), 1, 1, 1), &["Immobilized"]),
            au("Bo", HEROES, (1, 2), 1, 1, 1),
            au("Orc", FOES, (2, 1), 1, 1, 1),
        ],
    );
    let mut b = battle(&l, &[1, 2, 3, 6, 6, 1, 1]);
    choose_all(&mut b, &[("Ann", WELL), ("Bo", FAST)]);
    assert_eq!(pool(&b, "Ann", "Reactions"), Some(0), "A-GAP-08");
    assert_eq!(pool(&b, "Bo", "Reactions"), Some(1));
    end(&mut b, "Bo");
    let said = go(&mut b, |b| attack(b, "Orc", "Ann"));
    assert_seq(
        &said,
        &[
            "Orc rolls a melee attack with Unarmed (Class 1 + STR 1 = 2d6) against Ann: 2d6 [1, \
             2] keeps [2] = 2: Success: a hit (Ann can't defend itself, A-GAP-12)",
            "Orc rolls damage with Unarmed against Ann: 1d3 [3] = 3",
            "Ann takes 3 damage [3] -> 7 HP",
        ],
    );
    end(&mut b, "Orc");
    assert_eq!(active(&b).as_deref(), Some("Ann"));
    assert_eq!(
        refusal(&b, &mv(&b, "Ann", &[(0, 1)])),
        "Ann is Immobilized: it can't move (A-21)"
    );
    assert_eq!(
        refusal(&b, &attack(&b, "Ann", "Orc")),
        "Ann is Immobilized: it can't attack (A-21)"
    );
    end(&mut b, "Ann");
    choose_all(&mut b, &[("Ann", WELL), ("Bo", FAST)]);
    end(&mut b, "Bo");
    let said = go(&mut b, |b| attack(b, "Orc", "Ann"));
    assert_seq(
        &said,
        &[
            "Orc rolls a melee attack with Unarmed (Class 1 + STR 1 = 2d6) against Ann: 2d6 [6, \
             6] keeps [6] = 6: Critical: a hit with an extra damage die (Ann can't defend \
             itself, A-GAP-12)",
            "Orc rolls damage with Unarmed against Ann: 2d3 [1, 1] = 2",
        ],
    );
    assert_eq!(hp(&b, "Ann"), 5);
    all_dice_used(&b);
}

// ------------------------------------------------------------------ range and movement

/// A-10 / A-11 / A-12 / A-13 / A-14 / A-GAP-01 / A-EX-7: the bands on the grid: d =
/// 1 Melee; 4 and 6 Close; 7 and 12 Mid; 13 and 30 Far; 31 Distant. Ranged attacks
/// reach Melee to Far, never Distant; melee attacks reach Melee, and from Close move
/// in as part of the attack (its approach); from Mid they can't.
#[test]
fn a_10_to_a_14_a_gap_01_a_ex_7_range_bands() {
    let targets = [1, 4, 6, 7, 12, 13, 30, 31];
    let mut units = vec![armed(
        au("Archer", HEROES, (0, 0), 1, 1, 1),
        vec![weapon("Bow"), weapon("One-handed")],
    )];
    for (row, d) in targets.into_iter().enumerate() {
        units.push(au(&format!("T{d}"), FOES, (d, row as i32), 1, 1, 1));
    }
    let l = level((32, 8), &[], units);
    // The charge on T6: 2d6 [6, 1], a Success; 1d6 [2].
    let mut b = battle(&l, &[6, 1, 2]);
    let world = b.world();
    let archer = id(&b, "Archer");
    let bands: Vec<String> = targets
        .iter()
        .map(|d| {
            b.rules()
                .relation(world, archer, id(&b, &format!("T{d}")))
                .expect("enemies")
        })
        .collect();
    assert_eq!(
        bands,
        [
            "Archer is at Melee range from T1 (1 squares): melee attacks reach",
            "Archer is at Close range from T4 (4 squares): a melee attack moves in as part of it",
            "Archer is at Close range from T6 (6 squares): a melee attack moves in as part of it",
            "Archer is at Mid range from T7 (7 squares): only ranged attacks reach",
            "Archer is at Mid range from T12 (12 squares): only ranged attacks reach",
            "Archer is at Far range from T13 (13 squares): only ranged attacks reach",
            "Archer is at Far range from T30 (30 squares): only ranged attacks reach",
            "Archer is at Distant range from T31 (31 squares): out of every attack's reach",
        ]
    );
    choose(&mut b, "Archer", FAST);
    let bow = |b: &Battle, t: &str| strike(b, "Archer", t, Some("Bow"), &[]);
    let blade = |b: &Battle, t: &str, approach: &[(i32, i32)]| {
        strike(b, "Archer", t, Some("One-handed"), approach)
    };
    for t in ["T1", "T4", "T6", "T7", "T12", "T13", "T30"] {
        assert_eq!(b.check(&bow(&b, t)), Ok(()), "A-11: the Bow reaches {t}");
    }
    assert_eq!(
        refusal(&b, &bow(&b, "T31")),
        "out of reach: T31 is 31 squares away (Distant range): ranged attacks reach Melee, \
         Close, Mid, Far (A-10, A-11, A-GAP-01)"
    );
    assert_eq!(b.check(&blade(&b, "T1", &[])), Ok(()), "A-14");
    assert_eq!(
        refusal(&b, &blade(&b, "T4", &[])),
        "out of reach: T4 is 4 squares away (Close range): a melee attack from there includes \
         its approach (A-13); give the squares it moves through"
    );
    assert_eq!(
        refusal(&b, &blade(&b, "T7", &[])),
        "out of reach: T7 is 7 squares away (Mid range): a melee attack reaches the Melee band, \
         or moves in from Close range (A-13, A-14)"
    );
    let toward_t7 = [(1, 1), (2, 2), (3, 3), (4, 3), (5, 3), (6, 3)];
    assert_eq!(
        refusal(&b, &blade(&b, "T7", &toward_t7)),
        "out of reach: T7 is 7 squares away (Mid range): a melee attack moves in only from \
         Close range (A-13)"
    );
    assert_eq!(
        refusal(&b, &blade(&b, "T1", &[(0, 1)])),
        "Archer is next to T1 already: attack without an approach"
    );
    assert_eq!(
        refusal(&b, &blade(&b, "T6", &[(1, 1), (2, 1), (3, 1)])),
        "the approach must end next to T6 (A-GAP-02)"
    );
    let said = go(&mut b, |b| {
        blade(b, "T6", &[(1, 1), (2, 1), (3, 2), (4, 2), (5, 2)])
    });
    assert_seq(
        &said,
        &[
            "Archer spends an action: attack (0 left)",
            "Archer moves (0, 0) -> (1, 1) (cost 1)",
            "Archer moves (4, 2) -> (5, 2) (cost 1)",
            "Archer rolls a melee attack with One-handed (Class 1 + STR 1 = 2d6) against T6: 2d6 \
             [6, 1] keeps [6] = 6: Success: a hit",
            "T6 takes 2 damage [2] -> 4 HP",
            "Archer ends its turn",
        ],
    );
    assert_eq!(cell(&b, "Archer"), c(5, 2));
    all_dice_used(&b);
}

/// A-GAP-02 / A-GAP-17: a Move is up to 6 squares, a difficult square costing 2;
/// diagonals cost 1; an Act-Well PC may Move twice, or Attack twice (the first with
/// its approach from Close range).
#[test]
fn a_gap_02_a_gap_17_moves_and_two_actions() {
    let l = level(
        (14, 5),
        &[
            "..............",
            ".~~~~.........",
            "..............",
            "..............",
            "..............",
        ],
        vec![
            armed(
                au("Ann", HEROES, (0, 1), 1, 1, 1),
                vec![weapon("One-handed")],
            ),
            au("Orc", FOES, (13, 4), 1, 1, 1),
        ],
    );
    // Round 2: Ann's charge misses (2d6 [1, 1]); her second attack is a Critical (2d6
    // [6, 6]): 2d6 [1, 1].
    let mut b = battle(&l, &[1, 1, 6, 6, 1, 1]);
    choose(&mut b, "Ann", WELL);
    end(&mut b, "Orc");
    assert_eq!(
        refusal(&b, &mv(&b, "Ann", &[(1, 1), (2, 1), (3, 1), (4, 1)])),
        "not enough movement: the path costs 8 but a Move action (A-GAP-02) allows 6"
    );
    let said = go(&mut b, |b| mv(b, "Ann", &[(1, 1), (2, 1), (3, 1)]));
    assert_seq(
        &said,
        &[
            "Ann spends an action: move (1 left)",
            "Ann moves (0, 1) -> (1, 1) (cost 2)",
            "Ann moves (2, 1) -> (3, 1) (cost 2)",
        ],
    );
    assert_eq!(
        refusal(
            &b,
            &mv(
                &b,
                "Ann",
                &[(4, 2), (5, 3), (6, 3), (7, 3), (8, 3), (9, 3), (10, 3)]
            )
        ),
        "not enough movement: the path costs 7 but a Move action (A-GAP-02) allows 6"
    );
    let said = go(&mut b, |b| {
        mv(b, "Ann", &[(4, 2), (5, 3), (6, 3), (7, 3), (8, 3), (9, 3)])
    });
    assert_seq(
        &said,
        &[
            "Ann spends an action: move (0 left)",
            "Ann moves (3, 1) -> (4, 2) (cost 1)",
            "Ann moves (4, 2) -> (5, 3) (cost 1)",
            "Ann ends its turn",
        ],
    );
    choose(&mut b, "Ann", WELL);
    end(&mut b, "Orc");
    let said = go(&mut b, |b| {
        strike(b, "Ann", "Orc", None, &[(10, 3), (11, 3), (12, 3)])
    });
    assert_seq(
        &said,
        &[
            "Ann spends an action: attack (1 left)",
            "Ann moves (11, 3) -> (12, 3) (cost 1)",
            "Ann rolls a melee attack with One-handed (Class 1 + STR 1 = 2d6) against Orc: 2d6 \
             [1, 1] keeps [1] = 1: Failure: a miss",
        ],
    );
    let said = go(&mut b, |b| attack(b, "Ann", "Orc"));
    assert_seq(
        &said,
        &[
            "Ann spends an action: attack (0 left)",
            "Ann rolls damage with One-handed against Orc: 2d6 [1, 1] = 2",
            "Orc takes 2 damage [1, 1] -> 4 HP",
        ],
    );
    all_dice_used(&b);
}

/// A-GAP-17: `actfast` plays on a hex grid too (only band distances matter): the
/// level checks clean, a unit moves and strikes a neighbouring hex.
#[test]
fn a_gap_17_a_hex_grid_works() {
    let mut l = level(
        (6, 4),
        &[],
        vec![
            au("Ann", HEROES, (1, 1), 1, 0, 0),
            au("Orc", FOES, (2, 1), 1, 1, 1),
        ],
    );
    l.grid = GridKind::Hex;
    let issues: Vec<String> = skirmish::level::validate::validate(&l)
        .into_iter()
        .map(|i| i.message)
        .collect();
    assert!(issues.is_empty(), "{issues:?}");
    let mut b = battle(&l, &[6, 2]);
    let rel = b
        .rules()
        .relation(b.world(), id(&b, "Ann"), id(&b, "Orc"))
        .expect("enemies");
    assert_eq!(
        rel,
        "Ann is at Melee range from Orc (1 squares): melee attacks reach"
    );
    choose(&mut b, "Ann", FAST);
    let said = go(&mut b, |b| attack(b, "Ann", "Orc"));
    assert_seq(&said, &["Orc takes 2 damage [2] -> 4 HP"]);
    all_dice_used(&b);
}

// ------------------------------------------------------------------ conditions

/// A-18 / A-GAP-02 / A-GAP-11: a Prone unit stays Prone until it stands (1 action);
/// it can't move before: an Act-Fast PC must Stand with its one action, an
/// Act-Well PC's Move stands up first and costs both actions.
#[test]
fn a_18_a_gap_11_prone_stands_before_it_moves() {
    let l = level(
        (10, 6),
        &[],
        vec![
            with(au("Ann", HEROES, (1, 1), 1, 1, 1), &["Prone"]),
            with(au("Bo", HEROES, (1, 3), 1, 1, 1), &["Prone"]),
            au("Orc", FOES, (8, 1), 1, 1, 1),
        ],
    );
    let mut b = battle(&l, &[]);
    choose_all(&mut b, &[("Ann", FAST), ("Bo", WELL)]);
    assert_eq!(
        refusal(&b, &mv(&b, "Ann", &[(2, 1)])),
        "Ann is Prone: standing up takes an action before it moves (A-18), and it has 1 \
         left; Stand up (key J) first"
    );
    let said = go(&mut b, |b| act(b, "Ann", "Stand"));
    assert_seq(
        &said,
        &[
            "Ann spends an action: stand up (0 left)",
            "Ann is no longer Prone: it stood up",
            "Ann ends its turn",
        ],
    );
    end(&mut b, "Orc");
    assert!(has(&b, "Bo", "Prone"), "it lasts until it stands");
    let said = go(&mut b, |b| mv(b, "Bo", &[(2, 3)]));
    assert_seq(
        &said,
        &[
            "Bo spends an action: stand up (1 left)",
            "Bo is no longer Prone: it stood up",
            "Bo spends an action: move (0 left)",
            "Bo moves (1, 3) -> (2, 3) (cost 1)",
        ],
    );
    choose_all(&mut b, &[("Ann", FAST), ("Bo", WELL)]);
    assert_eq!(refusal(&b, &act(&b, "Ann", "Stand")), "Ann is not Prone");
    all_dice_used(&b);
}

/// A-19 / A-GAP-11: a Grappled unit can't move; it escapes with 1 action, Class +
/// STR dice, free on 4+; the grapple also ends when its source is no longer next to
/// it.
#[test]
fn a_19_a_gap_11_grappled_escapes_or_is_let_go() {
    let l = level(
        (8, 5),
        &[],
        vec![
            au("Ann", HEROES, (2, 2), 1, 1, 1),
            armed(
                au("Wrestler", FOES, (3, 2), 1, 1, 1),
                vec![on_hit(custom("Grab", "1d3", false), "Grappled")],
            ),
        ],
    );
    let faces = [
        6, 1, 1, // Wrestler grabs Ann: 1d3 [1]
        3, 2, // Ann's first escape: 3, still held
        4, 1, // her second: 4, free
        6, 1, 1, // round 2: Wrestler grabs Ann again
    ];
    let mut b = battle(&l, &faces);
    choose(&mut b, "Ann", WELL);
    let said = go(&mut b, |b| attack(b, "Wrestler", "Ann"));
    assert_seq(&said, &["Ann takes 1 damage [1] -> 9 HP"]);
    assert!(has(&b, "Ann", "Grappled"), "{said:?}");
    end(&mut b, "Wrestler");
    assert_eq!(
        refusal(&b, &mv(&b, "Ann", &[(1, 2)])),
        "Ann is Grappled: it can't move (A-19); Escape (key G) first"
    );
    let said = go(&mut b, |b| act(b, "Ann", "Escape"));
    assert_eq!(
        said,
        [
            "Ann spends an action: escape (1 left)",
            "Ann rolls to escape (Class 1 + STR 1, A-GAP-11): 2d6 [3, 2] keeps [3] = 3 vs 4: \
             still held",
        ]
    );
    let said = go(&mut b, |b| act(b, "Ann", "Escape"));
    assert_seq(
        &said,
        &[
            "Ann rolls to escape (Class 1 + STR 1, A-GAP-11): 2d6 [4, 1] keeps [4] = 4 vs 4: it \
             breaks free",
            "Ann is no longer Grappled: it broke free",
        ],
    );
    choose(&mut b, "Ann", WELL);
    go(&mut b, |b| attack(b, "Wrestler", "Ann"));
    assert!(has(&b, "Ann", "Grappled"));
    let said = go(&mut b, |b| mv(b, "Wrestler", &[(4, 2)]));
    assert_seq(&said, &["Ann is no longer Grappled: Wrestler let go"]);
    assert_eq!(b.check(&mv(&b, "Ann", &[(1, 2)])), Ok(()));
    all_dice_used(&b);
}

/// a Restrained unit has −2d to its attacks, and a Move takes its entire
/// turn: an Act-Well PC that has attacked can't move, and its Move spends both
/// actions.
#[test]
fn a_20_restrained_moves_with_its_whole_turn() {
    let l = level(
        (6, 4),
        &[],
        vec![
            armed(
                with(au("Ann", HEROES, (2, 2), 1, 2, 0), &["Restrained"]),
                vec![weapon("One-handed")],
            ),
            au("Orc", FOES, (3, 2), 1, 1, 1),
        ],
    );
    let mut b = battle(&l, &[6, 1]);
    choose(&mut b, "Ann", WELL);
    end(&mut b, "Orc");
    let said = go(&mut b, |b| attack(b, "Ann", "Orc"));
    assert_seq(
        &said,
        &[
            "Ann rolls a melee attack with One-handed (Class 1 + STR 2 - 2d (Ann: Restrained) = \
           1d6) against Orc: 1d6 [6] = 6: Success: a hit",
        ],
    );
    assert_eq!(
        refusal(&b, &mv(&b, "Ann", &[(1, 2)])),
        "Ann is Restrained: a Move takes its whole turn (A-20), and it has acted already"
    );
    end(&mut b, "Ann");
    choose(&mut b, "Ann", WELL);
    end(&mut b, "Orc");
    let said = go(&mut b, |b| mv(b, "Ann", &[(1, 2)]));
    assert_seq(
        &said,
        &[
            "Ann spends an action: move (1 left)",
            "Ann spends an action: move (0 left)",
            "Ann moves (2, 2) -> (1, 2) (cost 1)",
            "Ann ends its turn",
        ],
    );
    all_dice_used(&b);
}

/// A-22 / A-GAP-11: a PC made Slow by a hit after the round's order was set takes 1
/// action on its coming turn; the condition lasts until the end of that turn, and
/// the next round it chooses again.
#[test]
fn a_22_a_gap_11_slowed_by_a_hit_for_its_next_turn() {
    let l = level(
        (6, 4),
        &[],
        vec![
            au("Bo", HEROES, (2, 2), 1, 1, 1),
            armed(
                au("Orc", FOES, (3, 2), 1, 1, 1),
                vec![on_hit(custom("Tangle", "1d3", false), "Slow")],
            ),
        ],
    );
    let mut b = battle(&l, &[6, 1, 1]);
    choose(&mut b, "Bo", WELL);
    go(&mut b, |b| attack(b, "Orc", "Bo"));
    assert!(has(&b, "Bo", "Slow"));
    end(&mut b, "Orc");
    assert_eq!(active(&b).as_deref(), Some("Bo"));
    assert_eq!(pool(&b, "Bo", "Actions"), Some(1));
    let said = end(&mut b, "Bo");
    assert_seq(
        &said,
        &["Bo is no longer Slow: its turn ended", "=== Round 2 ==="],
    );
    assert_eq!(asked(&b).about, "choose how Bo acts this round");
    all_dice_used(&b);
}

/// A-24 / A-GAP-14: a fearful unit moves only to flee its fear: every action that
/// turn a Move ending farther from the source; once it has done something else, it
/// stays in place.
#[test]
fn a_24_a_gap_14_fear_flees_or_stays() {
    let l = level(
        (8, 5),
        &[],
        vec![
            armed(
                with(au("Ann", HEROES, (3, 2), 1, 1, 1), &["Fear"]),
                vec![weapon("One-handed"), weapon("Bow")],
            ),
            au("Orc", FOES, (4, 2), 1, 1, 1),
        ],
    );
    let mut b = battle(&l, &[1, 1]);
    choose(&mut b, "Ann", WELL);
    end(&mut b, "Orc");
    assert_eq!(
        refusal(&b, &mv(&b, "Ann", &[(3, 3)])),
        "Ann is afraid of Orc: a Move must end farther from it (A-24, A-GAP-14)"
    );
    go(&mut b, |b| mv(b, "Ann", &[(2, 2)]));
    assert_eq!(
        refusal(&b, &strike(&b, "Ann", "Orc", Some("Bow"), &[])),
        "Ann is fleeing its fear this turn: every action must be a Move away from it (A-24, \
         A-GAP-14)"
    );
    let said = go(&mut b, |b| mv(b, "Ann", &[(1, 2)]));
    assert_seq(&said, &["Ann ends its turn"]);
    choose(&mut b, "Ann", WELL);
    end(&mut b, "Orc");
    assert_eq!(
        refusal(
            &b,
            &strike(&b, "Ann", "Orc", Some("One-handed"), &[(2, 2), (3, 2)])
        ),
        "Ann is afraid: it moves only away from its fear (A-24)"
    );
    go(&mut b, |b| strike(b, "Ann", "Orc", Some("Bow"), &[]));
    assert_eq!(
        refusal(&b, &mv(&b, "Ann", &[(0, 2)])),
        "Ann is afraid and did something else this turn: it stays in place (A-24, A-GAP-14)"
    );
    all_dice_used(&b);
}

/// A-25 / A-EX-5 / A-GAP-05 / A-GAP-02: a Burning unit takes 1d6 less its armor at
/// the start of each turn until it spends an action to put out the flames: an
/// Act-Well PC with Armor 1 rolls 5, takes 4, puts the flames out and has 1 action
/// left (here for a healing draught); an Act-Fast PC uses its only action; one that
/// leaves the flames burns again next round.
#[test]
fn a_25_a_ex_5_burning_until_put_out() {
    let potion = ItemDef {
        name: "Potion".into(),
        uses: 1,
        effect: ItemEffect::Heal("1d6".into()),
        ap: None,
    };
    let mut well = stat(
        with(au("Well", HEROES, (1, 3), 1, 1, 1), &["Burning"]),
        "Armor",
        1,
    );
    well.items = vec![potion];
    let l = level(
        (10, 7),
        &[],
        vec![
            stat(
                with(au("Fast", HEROES, (1, 1), 1, 1, 1), &["Burning"]),
                "Armor",
                1,
            ),
            well,
            with(au("Torch", HEROES, (1, 5), 1, 1, 1), &["Burning"]),
            au("Orc", FOES, (8, 3), 1, 1, 1),
        ],
    );
    // Fast burns 5, Torch 2, Well 5, the draught heals 3; round 2: Torch burns 3.
    let mut b = battle(&l, &[5, 2, 5, 3, 3]);
    let said = choose_all(&mut b, &[("Fast", FAST), ("Well", WELL), ("Torch", FAST)]);
    assert_seq(
        &said,
        &[
            "This round: 1. Act Fast: Fast (1 action), Torch (1 action); 2. Opponents: Orc (2 \
             actions); 3. Act Well: Well (2 actions)",
            "Fast's turn (Turn)",
            "Fast rolls the flames (Burning, A-25): 1d6 [5] -1 Armor = 4: 4 damage",
            "Fast takes 4 damage [5] -> 6 HP",
        ],
    );
    let said = go(&mut b, |b| act(b, "Fast", "Extinguish"));
    assert_seq(
        &said,
        &[
            "Fast spends an action: put out the flames (0 left)",
            "Fast is no longer Burning: the flames are out",
            "Fast ends its turn",
            "Torch's turn (Turn)",
            "Torch rolls the flames (Burning, A-25): 1d6 [2] = 2: 2 damage",
            "Torch takes 2 damage [2] -> 8 HP",
        ],
    );
    end(&mut b, "Torch");
    let said = end(&mut b, "Orc");
    assert_seq(
        &said,
        &[
            "Well's turn (Turn)",
            "Well rolls the flames (Burning, A-25): 1d6 [5] -1 Armor = 4: 4 damage",
            "Well takes 4 damage [5] -> 6 HP",
        ],
    );
    go(&mut b, |b| act(b, "Well", "Extinguish"));
    assert_eq!(
        pool(&b, "Well", "Actions"),
        Some(1),
        "A-EX-5: 1 action left"
    );
    assert!(!has(&b, "Well", "Burning"));
    let said = go(&mut b, |b| Command::ActivateItem {
        unit: id(b, "Well"),
        item: "Potion".into(),
        target: None,
    });
    assert_seq(
        &said,
        &[
            "Well spends an action: use Potion (0 left)",
            "Well heals 3 [3] -> 9 HP",
            "Well ends its turn",
        ],
    );
    let said = choose_all(&mut b, &[("Fast", FAST), ("Well", WELL), ("Torch", FAST)]);
    assert_none(&said, "Fast rolls the flames");
    end(&mut b, "Fast");
    assert_eq!(hp(&b, "Torch"), 5, "still burning: 1d6 [3]");
    all_dice_used(&b);
}

// ------------------------------------------------------------------ morale

/// A-16 / A-17 / A-GAP-13 / A-EX-4: when a side's first NPC is killed, every other
/// NPC of it rolls 2d6 − Leadership at the start of its next NPC turn and breaks
/// above its Morale (Leadership 1, Morale 8: 4 + 4 − 1 = 7 holds, 5 + 5 − 1 = 9
/// breaks): next to a PC it surrenders, otherwise it flees to the nearest edge with
/// all its actions and leaves there. Half the side lost and the leader down fire
/// together, once; a later loss fires nothing.
#[test]
fn a_16_a_17_a_gap_13_a_ex_4_morale_triggers_flight_and_surrender() {
    let npc = |name: &str, pos: (i32, i32)| au(name, FOES, pos, 1, 1, 1);
    let l = level(
        (10, 10),
        &[],
        vec![
            armed(
                au("Ann", HEROES, (2, 2), 3, 0, 0),
                vec![weapon("One-handed")],
            ),
            armed(
                au("Bo", HEROES, (2, 6), 3, 0, 0),
                vec![weapon("One-handed")],
            ),
            stat(
                stat(with(npc("Boss", (3, 2)), &["Leader"]), "HP", 1),
                "Leadership",
                1,
            ),
            stat(npc("Orc1", (3, 3)), "HP", 1),
            stat(npc("Orc2", (3, 6)), "Leadership", 1),
            stat(npc("Orc3", (1, 8)), "Leadership", 1),
            stat(npc("Orc4", (1, 5)), "HP", 1),
            npc("Orc5", (8, 8)),
            npc("Orc6", (8, 6)),
            npc("Orc7", (8, 4)),
        ],
    );
    let faces = [
        6, 1, 1, 1, // Ann kills Orc1
        4, 4, // Boss: 7, holds
        5, 5, // Orc2: 9, breaks next to Bo
        6, 6, // Orc3: 11, breaks and flees
        3, 4, // Orc4: 7, holds
        1, 1, 1, 2, 2, 1, // Orc5, Orc6, Orc7 hold
        6, 1, 1, 1, // round 2: Ann kills Boss
        6, 1, 1, 1, // Bo kills Orc4
        1, 1, 1, 1, 1, 1, // Orc5, Orc6, Orc7 hold
    ];
    let mut b = battle(&l, &faces);
    assert_eq!(pool(&b, "Boss", "Morale save"), Some(8), "A-GAP-13 default");
    choose_all(&mut b, &[("Ann", FAST), ("Bo", FAST)]);
    let said = go(&mut b, |b| attack(b, "Ann", "Orc1"));
    assert_seq(
        &said,
        &[
            "Orc1 is killed!",
            "Morale shaken on side Foes (its first NPC was killed): each of its NPCs rolls \
             morale at its next step (A-17)",
        ],
    );
    assert!(has(&b, "Orc5", "Wavering"));
    let said = end(&mut b, "Bo");
    assert_seq(
        &said,
        &[
            "Boss rolls morale (A-16): 2d6 [4, 4] -1 Leadership = 7 vs 8: not above 8: it holds",
            "Orc2 rolls morale (A-16): 2d6 [5, 5] -1 Leadership = 9 vs 8: above 8: it breaks",
            "Orc2's morale breaks: next to Bo, it throws down its arms",
            "Orc2 surrenders!",
            "Orc3 rolls morale (A-16): 2d6 [6, 6] -1 Leadership = 11 vs 8: above 8: it breaks",
            "Orc3's morale breaks: it runs for the edge of the field",
            "Orc4 rolls morale (A-16): 2d6 [3, 4] = 7 vs 8: not above 8: it holds",
            "Orc7 rolls morale (A-16): 2d6 [2, 1] = 3 vs 8: not above 8: it holds",
            "Boss's turn (Turn)",
        ],
    );
    assert!(!has(&b, "Orc5", "Wavering"), "it rolled");
    assert_eq!(state(&b, "Orc2"), PlayState::Surrendered);
    let said = end(&mut b, "Boss");
    assert_seq(
        &said,
        &[
            "Orc3's turn (Turn)",
            "Orc3 spends an action: flee (1 left)",
            "Orc3 spends an action: flee (0 left)",
            "Orc3 flees the battle!",
            "Orc4's turn (Turn)",
        ],
    );
    assert_none(&said, "rolls morale");
    assert_eq!(cell(&b, "Orc3").x, 0, "the nearest edge");
    assert_eq!(state(&b, "Orc3"), PlayState::Fled);
    for u in ["Orc4", "Orc5", "Orc6", "Orc7"] {
        end(&mut b, u);
    }
    choose_all(&mut b, &[("Ann", FAST), ("Bo", FAST)]);
    let said = go(&mut b, |b| attack(b, "Ann", "Boss"));
    assert_seq(
        &said,
        &[
            "Boss is killed!",
            "Morale shaken on side Foes (it has lost half its number, its leader is down): each \
             of its NPCs rolls morale at its next step (A-17)",
        ],
    );
    let said = go(&mut b, |b| attack(b, "Bo", "Orc4"));
    assert_seq(&said, &["Orc4 is killed!"]);
    assert_none(&said, "Morale shaken");
    let said = log(&b, 0);
    assert_eq!(lines_with(&said, "Morale shaken").len(), 2);
    assert_eq!(active(&b).as_deref(), Some("Orc5"));
    assert_eq!(lines_with(&log(&b, 0), "rolls morale (A-16)").len(), 10);
    all_dice_used(&b);
}

/// A-EX-4 / A-GAP-13: with the seed's literal sign (`morale_leadership_sign: 1`),
/// Leadership 1, Morale 8: 4 + 4 + 1 = 9 breaks, 3 + 4 + 1 = 8 holds. The broken
/// NPC flees at once on its own turn.
#[test]
fn a_ex_4_a_gap_13_the_seeds_literal_sign() {
    let mut l = level(
        (10, 7),
        &[],
        vec![
            armed(
                au("Ann", HEROES, (2, 2), 3, 0, 0),
                vec![weapon("One-handed")],
            ),
            stat(au("Orc1", FOES, (3, 2), 1, 1, 1), "HP", 1),
            stat(au("Orc2", FOES, (8, 3), 1, 1, 1), "Leadership", 1),
            stat(au("Orc3", FOES, (7, 1), 1, 1, 1), "Leadership", 1),
            au("Orc4", FOES, (7, 3), 1, 1, 1),
            au("Orc5", FOES, (7, 5), 1, 1, 1),
        ],
    );
    l.rules.insert(
        "morale_leadership_sign".into(),
        ron::Value::Number(1i32.into()),
    );
    let faces = [
        6, 1, 1, 1, // Ann kills Orc1
        4, 4, // Orc2: 9, breaks
        3, 4, // Orc3: 8, holds
        1, 1, // Orc4 holds
        1, 2, // Orc5 holds
    ];
    let mut b = battle(&l, &faces);
    choose(&mut b, "Ann", FAST);
    let said = go(&mut b, |b| attack(b, "Ann", "Orc1"));
    assert_seq(
        &said,
        &[
            "Orc2 rolls morale (A-16): 2d6 [4, 4] +1 Leadership = 9 vs 8: above 8: it breaks",
            "Orc2's morale breaks: it runs for the edge of the field",
            "Orc3 rolls morale (A-16): 2d6 [3, 4] +1 Leadership = 8 vs 8: not above 8: it holds",
            "Orc2's turn (Turn)",
            "Orc2 flees the battle!",
            "Orc3's turn (Turn)",
        ],
    );
    assert_eq!(cell(&b, "Orc2").x, 9);
    all_dice_used(&b);
}

/// A-GAP-13 ("every surviving NPC of that side rolls at the start of the next NPC
/// step"): an NPC killed by a riposte in the middle of step 2 shakes its side, but
/// the others roll at the start of the next NPC step (round 2), not at the next
/// NPC's turn of the same step.
#[test]
fn a_gap_13_morale_waits_for_the_next_npc_step() {
    let l = level(
        (8, 5),
        &[],
        vec![
            armed(
                au("Ann", HEROES, (2, 2), 3, 0, 0),
                vec![weapon("One-handed")],
            ),
            stat(au("Orc1", FOES, (3, 2), 1, 1, 1), "HP", 1),
            au("Orc2", FOES, (6, 3), 1, 1, 1),
        ],
    );
    let faces = [
        1, 1, // Orc1 misses Ann
        6, 1, 1, 1, // Ann's riposte kills it
        3, 3, // round 2: Orc2's morale holds
    ];
    let mut b = battle(&l, &faces);
    choose(&mut b, "Ann", WELL);
    go(&mut b, |b| attack(b, "Orc1", "Ann"));
    let said = go(&mut b, |b| act(b, "Ann", "Riposte"));
    assert_seq(&said, &["Orc1 is killed!", "Orc2's turn (Turn)"]);
    assert_none(&said, "rolls morale (A-16)");
    end(&mut b, "Orc2");
    end(&mut b, "Ann");
    let said = choose(&mut b, "Ann", WELL);
    assert_seq(
        &said,
        &[
            "Orc2 rolls morale (A-16): 2d6 [3, 3] = 6 vs 8: not above 8: it holds",
            "Orc2's turn (Turn)",
        ],
    );
    all_dice_used(&b);
}

// ------------------------------------------------------------------ units

/// a unit needs Class, STR and DEX; HP, Armor, Leadership, Morale and Move
/// default (PC 10 HP, NPC 6, Morale 8, Armor 0); a unit without weapons fights
/// Unarmed; an unknown trait is refused in words that list the valid ones.
#[test]
fn a_01_stats_defaults_and_traits() {
    let mut missing = au("Ann", HEROES, (1, 1), 1, 1, 1);
    missing.stats.remove("DEX");
    let l = level(
        (6, 4),
        &[],
        vec![
            missing,
            with(au("Orc", FOES, (4, 1), 1, 1, 1), &["Berserk"]),
        ],
    );
    let issues: Vec<String> = skirmish::level::validate::validate(&l)
        .into_iter()
        .map(|i| i.message)
        .collect();
    assert!(
        issues
            .iter()
            .any(|m| m.contains("`Ann`") && m.contains("DEX")),
        "{issues:?}"
    );
    assert!(
        issues.iter().any(|m| m.contains("unknown trait `Berserk`")
            && m.contains("Leader")
            && m.contains("Burning")),
        "{issues:?}"
    );
    let l = level(
        (6, 4),
        &[],
        vec![
            au("Ann", HEROES, (1, 1), 1, 1, 1),
            au("Orc", FOES, (4, 1), 1, 1, 1),
        ],
    );
    let b = battle(&l, &[]);
    assert_eq!((hp(&b, "Ann"), hp(&b, "Orc")), (10, 6));
    assert_eq!(pool(&b, "Orc", "Morale save"), Some(8));
    assert_eq!(pool(&b, "Orc", "Armor"), Some(0));
    assert_eq!(pool(&b, "Ann", "Reactions"), Some(1));
    let preview = b
        .preview_attack(id(&b, "Ann"), id(&b, "Orc"), None)
        .expect("Ann fights Unarmed");
    assert!(preview.roll.ends_with("damage 1d3"), "{preview:?}");
    all_dice_used(&b);
}

// ------------------------------------------------------------------ issue 29

/// a PC made Slow after the round's order was set acts last for the
/// rest of the round: Ann (Act Well) is slowed by the Orc in step 2, so Bo (Act
/// Well) takes his 2 actions before her, and she acts in step 4 with 1 action,
/// before the Slow NPC (players first).
#[test]
fn a_22_a_03_pc_slowed_mid_round_moves_to_step_4() {
    let l = level(
        (8, 4),
        &[],
        vec![
            au("Ann", HEROES, (2, 2), 1, 1, 1),
            au("Bo", HEROES, (0, 0), 1, 1, 1),
            armed(
                au("Orc", FOES, (3, 2), 1, 1, 1),
                vec![on_hit(custom("Tangle", "1d3", false), "Slow")],
            ),
            with(au("Orc2", FOES, (7, 3), 1, 1, 1), &["Slow"]),
        ],
    );
    let mut b = battle(&l, &[6, 1, 1]);
    choose_all(&mut b, &[("Ann", WELL), ("Bo", WELL)]);
    assert_eq!(active(&b).as_deref(), Some("Orc"));
    let said = go(&mut b, |b| attack(b, "Orc", "Ann"));
    assert_eq!(
        lines_with(&said, "acts last"),
        ["Ann is Slow: it acts last this round, in step 4 (A-22)"]
    );
    let said = end(&mut b, "Orc");
    assert_eq!(turns(&said), ["Bo"], "Bo, not Ann, acts next");
    assert_eq!(pool(&b, "Bo", "Actions"), Some(2));
    let said = end(&mut b, "Bo");
    assert_eq!(turns(&said), ["Ann"]);
    assert_eq!(pool(&b, "Ann", "Actions"), Some(1));
    let said = end(&mut b, "Ann");
    assert_eq!(turns(&said), ["Orc2"], "players first in step 4");
    all_dice_used(&b);
}

/// an NPC made Slow by an Act Fast PC leaves step 2 and acts after
/// the Act Well PCs, with 1 action, moving or attacking (not both).
#[test]
fn a_22_a_03_npc_slowed_mid_round_moves_to_step_4() {
    let l = level(
        (8, 4),
        &[],
        vec![
            armed(
                au("Ann", HEROES, (2, 2), 1, 1, 1),
                vec![on_hit(custom("Tangle", "1d3", false), "Slow")],
            ),
            au("Bo", HEROES, (0, 0), 1, 1, 1),
            armed(
                au("Orc1", FOES, (3, 2), 1, 1, 1),
                vec![weapon("One-handed")],
            ),
            au("Orc2", FOES, (7, 3), 1, 1, 1),
        ],
    );
    let mut b = battle(&l, &[6, 1, 1]);
    choose_all(&mut b, &[("Ann", FAST), ("Bo", WELL)]);
    let said = go(&mut b, |b| attack(b, "Ann", "Orc1"));
    assert_eq!(
        lines_with(&said, "acts last"),
        ["Orc1 is Slow: it acts last this round, in step 4 (A-22)"]
    );
    // Ann's one action is spent: her turn ends, and step 2 has only Orc2 now.
    let mut order = turns(&said);
    order.extend(turns(&end(&mut b, "Orc2")));
    order.extend(turns(&end(&mut b, "Bo")));
    assert_eq!(order, ["Orc2", "Bo", "Orc1"]);
    assert_eq!(pool(&b, "Orc1", "Actions"), Some(1));
    // A Slow NPC moves or attacks, not both.
    let said = go(&mut b, |b| mv(b, "Orc1", &[(3, 3)]));
    assert_seq(&said, &["Orc1 ends its turn", "=== Round 2 ==="]);
    all_dice_used(&b);
}

/// A-GAP-06: HP stop at 0 after overkill, in the log and in the unit's state.
#[test]
fn a_gap_06_hp_never_below_zero() {
    let l = level(
        (6, 4),
        &[],
        vec![
            armed(
                au("Ann", HEROES, (2, 2), 1, 1, 1),
                vec![custom("Maul", "1d6", false)],
            ),
            stat(au("Orc", FOES, (3, 2), 1, 1, 1), "HP", 2),
        ],
    );
    let mut b = battle(&l, &[6, 1, 6]);
    choose(&mut b, "Ann", FAST);
    let said = go(&mut b, |b| attack(b, "Ann", "Orc"));
    let damage = lines_with(&said, "Orc takes");
    assert_eq!(damage.len(), 1, "{said:?}");
    assert!(damage[0].ends_with("-> 0 HP"), "{}", damage[0]);
    assert_eq!(hp(&b, "Orc"), 0);
    assert_eq!(state(&b, "Orc"), PlayState::Dead);
    all_dice_used(&b);
}

/// A-24: the log words Fear as the seed's state, "afraid" ("a fearful
/// character"), when it starts and when it ends.
#[test]
fn a_24_the_log_says_afraid() {
    let l = level(
        (6, 4),
        &[],
        vec![
            au("Ann", HEROES, (2, 2), 1, 1, 1),
            armed(
                au("Orc", FOES, (3, 2), 1, 1, 1),
                vec![on_hit(custom("Howl", "1d3", false), "Fear")],
            ),
        ],
    );
    let mut b = battle(&l, &[6, 1, 1]);
    choose(&mut b, "Ann", WELL);
    let said = go(&mut b, |b| attack(b, "Orc", "Ann"));
    let started = lines_with(&said, "Ann is now");
    assert_eq!(started.len(), 1, "{said:?}");
    assert!(
        started[0].starts_with("Ann is now afraid"),
        "{}",
        started[0]
    );
    assert_none(&said, "is now Fear");
    assert!(has(&b, "Ann", "Fear"), "the condition keeps its name");
    end(&mut b, "Orc");
    let said = end(&mut b, "Ann");
    assert_seq(&said, &["Ann is no longer afraid: its turn ended"]);
    all_dice_used(&b);
}

/// A chance is never shown as "-0%" or above 100%.
#[test]
fn chances_read_0_to_100_percent() {
    use skirmish::engine::rulesets::actfast::attack::percent;
    assert_eq!(percent(-1e-12), "0%");
    assert_eq!(percent(-0.0), "0%");
    assert_eq!(percent(1.0 + 1e-12), "100%");
    assert_eq!(percent(0.5), "50%");
}

/// A-GAP-03: overriding `pool_die` is judged with the level's other overrides,
/// and a constant the level left at its default that no longer fits is reported
/// at `pool_die`, saying which constant to set too, never at a key the level
/// didn't write.
#[test]
fn a_gap_03_pool_die_override_problems_are_the_levels_own() {
    use skirmish::engine::rulesets::registry;
    let actfast = registry::get("actfast").unwrap();
    let rules = |pairs: &[(&str, i32)]| {
        pairs
            .iter()
            .map(|&(k, v)| (k.to_string(), ron::Value::Number(v.into())))
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    let alone = actfast.override_problems(&rules(&[("pool_die", 4)]));
    assert_eq!(alone.len(), 1, "{alone:?}");
    assert_eq!(alone[0].key, "pool_die");
    assert!(
        alone[0].message.contains("`success_at`")
            && alone[0].message.contains("set `success_at` too"),
        "{}",
        alone[0].message
    );
    let together = rules(&[("pool_die", 4), ("success_at", 4), ("partial_at", 3)]);
    assert_eq!(actfast.override_problems(&together), []);
    // Played: a d4 pool with those thresholds.
    let mut l = level(
        (6, 4),
        &[],
        vec![
            au("Ann", HEROES, (2, 2), 1, 1, 1),
            au("Orc", FOES, (3, 2), 1, 1, 1),
        ],
    );
    l.rules = together;
    let mut b = battle(&l, &[4, 1, 1]);
    choose(&mut b, "Ann", FAST);
    let said = go(&mut b, |b| attack(b, "Ann", "Orc"));
    assert!(
        said.iter().any(|l| l.contains("2d4")),
        "the pool rolls d4s: {said:?}"
    );
    // A value that breaks its own range is still at its own key.
    let own = actfast.override_problems(&rules(&[("success_at", 9)]));
    assert_eq!(own.len(), 1);
    assert_eq!(own[0].key, "success_at");
}
