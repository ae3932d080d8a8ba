//! `wounds` (RULES.md §3) played through the engine with scripted dice: the fixed
//! turn order and Delay, the action economy (1 AA, 1 MA, 2 BA) with the extra attack
//! and the Bonus Action boosts, movement, hitting against Agility + 10, aimed attacks
//! and the wounds they leave, the crit and tragedy chains, melee zones and free hits,
//! conditions (flat-footed, prone, disarmed, summoned, channeling), surrender, and
//! the typed refusals of illegal commands. Each test names the rule ids it checks.
//!
//! The dice are drawn in the order of RULES.md §0: a d20 per unit tied on Agility
//! before round 1; an attack's d20, then its chain's d4 and d6, then its damage dice
//! (weapon, Weapon focus, sneak), then the Fatal d4. Every test ends with
//! [`all_dice_used`]: a rule that rolled one die too many or too few fails it.

use skirmish::engine::command::CommandError;
use skirmish::engine::dice::Dice;
use skirmish::engine::event::Event;
use skirmish::engine::rulesets::new_battle;
use skirmish::engine::rulesets::wounds::aim::aim_options;
use skirmish::engine::rulesets::wounds::events::WoundsEvent;
use skirmish::engine::units::{PlayState, UnitId};
use skirmish::engine::verb::{ArgValue, Args};
use skirmish::engine::{Awaiting, Battle, Command};
use skirmish::level::schema::*;

use crate::common::{c, cell, conditions, hp, id};

// ------------------------------------------------------------------ helpers

/// A `wounds` unit with its three required modifiers and HP; it fights Unarmed
/// until [`armed`] gives it weapons.
pub(crate) fn wu(
    name: &str,
    side: &str,
    pos: (i32, i32),
    agility: i32,
    accuracy: i32,
    hp: i32,
) -> UnitDef {
    UnitDef {
        name: name.into(),
        side: side.into(),
        pos,
        stats: [
            ("Agility", agility),
            ("Accuracy", accuracy),
            ("Strength", 0),
            ("HP", hp),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect(),
        ..Default::default()
    }
}

pub(crate) fn stat(mut u: UnitDef, k: &str, v: i32) -> UnitDef {
    u.stats.insert(k.into(), v);
    u
}

pub(crate) fn with(mut u: UnitDef, traits: &[&str]) -> UnitDef {
    u.traits.extend(traits.iter().map(|t| t.to_string()));
    u
}

/// A power named like a weapon of the table takes the table's damage and range
/// (W-GAP-01); the `damage` and `range` written here are overwritten.
pub(crate) fn weapon(name: &str) -> PowerDef {
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

/// A table weapon whose hits put `condition` on the target.
pub(crate) fn weapon_on_hit(name: &str, condition: &str, lasts: EffectDuration) -> PowerDef {
    PowerDef {
        on_hit: vec![EffectDef {
            condition: condition.into(),
            lasts,
        }],
        ..weapon(name)
    }
}

/// A spell: not a table weapon, it keeps its own damage and range.
pub(crate) fn spell(name: &str, damage: &str, traits: &[&str]) -> PowerDef {
    PowerDef {
        name: name.into(),
        range: 10,
        ranged: true,
        damage: damage.into(),
        add_tier: false,
        on_hit: Vec::new(),
        damage_type: None,
        traits: traits.iter().map(|t| t.to_string()).collect(),
    }
}

pub(crate) fn armed(mut u: UnitDef, powers: Vec<PowerDef>) -> UnitDef {
    u.powers = powers;
    u
}

pub(crate) fn potion(uses: u32) -> ItemDef {
    ItemDef {
        name: "Potion".into(),
        uses,
        effect: ItemEffect::Heal("1d6".into()),
        ap: None,
    }
}

/// Heroes (PCs) against Foes on an open square map, both sides Human and never
/// asked anything (an AI side would surrender on its own, W-GAP-21).
pub(crate) fn level(size: (u32, u32), terrain: &[&str], units: Vec<UnitDef>) -> Level {
    let mut l = crate::common::level(size, terrain, units);
    l.ruleset = "wounds".into();
    for (side, (name, t)) in l
        .sides
        .iter_mut()
        .zip([("Heroes", "PCs"), ("Foes", "Enemies")])
    {
        side.name = name.into();
        side.traits = vec![t.into()];
    }
    l
}

pub(crate) fn battle(level: &Level, faces: &[u32]) -> Battle {
    new_battle(level, Dice::scripted(faces.iter().copied())).expect("level sets up")
}

/// Every scripted face was drawn, no more and no fewer.
pub(crate) fn all_dice_used(b: &Battle) {
    let dice = format!("{:?}", b.world().resource::<Dice>());
    assert!(dice.contains("left: []"), "faces left over: {dice}");
}

fn path(p: &[(i32, i32)]) -> Vec<skirmish::engine::board::Cell> {
    p.iter().map(|&(x, y)| c(x, y)).collect()
}

pub(crate) fn mv(b: &Battle, unit: &str, p: &[(i32, i32)]) -> Command {
    Command::move_along(id(b, unit), "Move", path(p))
}

fn dash(b: &Battle, unit: &str, p: &[(i32, i32)]) -> Command {
    Command::move_along(id(b, unit), "Dash", path(p))
}

/// An attack with the unit's first power, aimed at `aim` (Center Mass if `None`).
fn aimed(b: &Battle, unit: &str, target: &str, aim: Option<&str>) -> Command {
    Command::Attack {
        unit: id(b, unit),
        target: id(b, target),
        power: None,
        options: aim_options(aim.map(Into::into)),
    }
}

pub(crate) fn attack(b: &Battle, unit: &str, target: &str) -> Command {
    aimed(b, unit, target, None)
}

pub(crate) fn with_power(
    b: &Battle,
    unit: &str,
    target: &str,
    power: &str,
    aim: Option<&str>,
) -> Command {
    Command::Attack {
        unit: id(b, unit),
        target: id(b, target),
        power: Some(power.into()),
        options: aim_options(aim.map(Into::into)),
    }
}

pub(crate) fn act(b: &Battle, unit: &str, verb: &str, args: &[(&str, ArgValue)]) -> Command {
    Command::Act {
        unit: id(b, unit),
        verb: verb.into(),
        args: args
            .iter()
            .fold(Args::new(), |a, (n, v)| a.with(n, v.clone())),
    }
}

/// A verb paid with `AA`, `MA` or `BA`.
pub(crate) fn paid(b: &Battle, unit: &str, verb: &str, with: &str) -> Command {
    act(b, unit, verb, &[("pay", ArgValue::Choice(with.into()))])
}

fn delay(b: &Battle, unit: &str, after: &str) -> Command {
    act(b, unit, "Delay", &[("after", ArgValue::Unit(id(b, after)))])
}

pub(crate) fn use_potion(b: &Battle, unit: &str) -> Command {
    Command::ActivateItem {
        unit: id(b, unit),
        item: "Potion".into(),
        target: None,
    }
}

pub(crate) fn end(b: &mut Battle, unit: &str) -> Vec<Event> {
    let u = id(b, unit);
    b.submit(Command::EndTurn { unit: u })
        .expect("end turn")
        .to_vec()
}

/// Submits the command `make` builds (it is legal) and returns its events.
pub(crate) fn run(b: &mut Battle, make: impl FnOnce(&Battle) -> Command) -> Vec<Event> {
    let command = make(b);
    b.submit(command).expect("legal command").to_vec()
}

/// The name of the unit whose turn it is.
pub(crate) fn active(b: &Battle) -> Option<String> {
    match b.awaiting() {
        Awaiting::Unit(u, _) => Some(b.unit_name(u)),
        _ => None,
    }
}

/// The refusal of `command`, in words.
pub(crate) fn refusal(b: &Battle, command: &Command) -> String {
    b.check(command)
        .expect_err("the command must be refused")
        .to_string()
}

pub(crate) fn state(b: &Battle, name: &str) -> PlayState {
    b.units()
        .into_iter()
        .find(|u| u.name == name)
        .map(|u| u.state)
        .expect("unit")
}

/// One rolled line: what for, its faces, its total and the number to reach.
#[derive(Clone, Debug)]
pub(crate) struct Roll {
    pub(crate) purpose: String,
    pub(crate) dice: String,
    pub(crate) faces: Vec<u32>,
    pub(crate) modifiers: Vec<(String, i32)>,
    pub(crate) total: i32,
    pub(crate) target: Option<i32>,
    pub(crate) outcome: String,
}

pub(crate) fn rolls(events: &[Event]) -> Vec<Roll> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Rolled {
                purpose,
                dice,
                faces,
                modifiers,
                total,
                target,
                outcome,
                ..
            } => Some(Roll {
                purpose: purpose.clone(),
                dice: dice.clone(),
                faces: faces.clone(),
                modifiers: modifiers
                    .iter()
                    .map(|m| (m.name.clone(), m.value))
                    .collect(),
                total: *total,
                target: *target,
                outcome: outcome.clone(),
            }),
            _ => None,
        })
        .collect()
}

/// The wounds-only narration in these events.
pub(crate) fn told(events: &[Event]) -> Vec<WoundsEvent> {
    events
        .iter()
        .filter_map(|e| e.narration::<WoundsEvent>())
        .cloned()
        .collect()
}

/// The damage amounts dealt to `unit` in these events.
pub(crate) fn damage_to(events: &[Event], unit: UnitId) -> Vec<i32> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Damaged {
                unit: u, amount, ..
            } if *u == unit => Some(*amount),
            _ => None,
        })
        .collect()
}

/// A pool or shown stat of a unit (`AA`, `MA`, `BA`, `Spaces left`, `Free Hit
/// Slots`, `MP`, `Agility (wounds -1)` ...).
pub(crate) fn pool(b: &Battle, unit: &str, key: &str) -> Option<i32> {
    b.pools(id(b, unit))
        .into_iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
}

/// AA, MA and BA left to the active unit.
pub(crate) fn actions(b: &Battle, unit: &str) -> (i32, i32, i32) {
    (
        pool(b, unit, "AA").expect("its turn"),
        pool(b, unit, "MA").expect("its turn"),
        pool(b, unit, "BA").expect("its turn"),
    )
}

pub(crate) fn has(b: &Battle, unit: &str, condition: &str) -> bool {
    conditions(b, unit).iter().any(|c| c == condition)
}

/// Where in `events` the first event matching `f` is.
fn first(events: &[Event], f: impl Fn(&Event) -> bool) -> usize {
    events.iter().position(f).expect("the event is there")
}

fn is_move(e: &Event) -> bool {
    matches!(e, Event::Moved { .. })
}

fn is_roll(e: &Event) -> bool {
    matches!(e, Event::Rolled { .. })
}

// ------------------------------------------------------------------ turn order

/// W-02 / W-03 / W-GAP-10 / W-GAP-11: the battle's order is by Agility, highest
/// first; units that started the fight (the unit trait `Initiator`, or every unit of
/// a side with the side trait) go last, by Agility among themselves; a tie rolls a
/// d20 each in roster order before round 1, higher first, tied rolls rolling again.
/// The order is the same in round 2 and no more dice are rolled for it.
#[test]
fn w_02_w_03_w_gap_10_w_gap_11_order_by_agility_initiators_last_ties_roll_off() {
    let mut l = level(
        (10, 8),
        &[],
        vec![
            wu("Quick", "Heroes", (0, 0), 3, 0, 20),
            wu("Also", "Heroes", (0, 2), 3, 0, 20),
            wu("Slow", "Heroes", (0, 4), -1, 0, 20),
            with(wu("Hothead", "Heroes", (0, 6), 4, 0, 20), &["Initiator"]),
            wu("Ambusher", "Foes", (9, 0), 5, 0, 10),
            wu("Brute", "Foes", (9, 2), 2, 0, 10),
        ],
    );
    l.sides[1].traits.push("Initiator".into());
    // Quick and Also tie at 3: both roll 9, then Quick 4 and Also 12.
    let mut b = battle(&l, &[9, 9, 4, 12]);
    let ties: Vec<(String, u32)> = b
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::TieBreakRolled { unit, face } => Some((b.unit_name(*unit), *face)),
            _ => None,
        })
        .collect();
    let t = |n: &str, f: u32| (n.to_string(), f);
    assert_eq!(
        ties,
        [t("Quick", 9), t("Also", 9), t("Quick", 4), t("Also", 12)]
    );
    let expected = ["Also", "Quick", "Slow", "Ambusher", "Hothead", "Brute"];
    let fixed = told(b.events())
        .into_iter()
        .find_map(|e| match e {
            WoundsEvent::OrderFixed { order } => Some(order),
            _ => None,
        })
        .expect("the order is told");
    let names: Vec<String> = fixed.iter().map(|&u| b.unit_name(u)).collect();
    assert_eq!(names, expected);
    for round in 1..=2 {
        for name in expected {
            assert_eq!(active(&b).as_deref(), Some(name), "round {round}");
            end(&mut b, name);
        }
    }
    assert_eq!(b.turn().round, 3);
    all_dice_used(&b);
}

/// W-04 / W-GAP-12: before acting, a unit may delay its turn to just after a unit
/// that acts later this round; next round it is back in its own place. Delaying
/// after an earlier unit, or after having acted, is refused in words.
#[test]
fn w_04_w_gap_12_delay_this_round_back_in_place_next_round() {
    let l = level(
        (10, 5),
        &[],
        vec![
            wu("A", "Heroes", (0, 0), 3, 0, 20),
            wu("B", "Foes", (9, 0), 2, 0, 10),
            wu("C", "Heroes", (0, 2), 1, 0, 20),
        ],
    );
    let mut b = battle(&l, &[]);
    assert_eq!(active(&b).as_deref(), Some("A"));
    let events = run(&mut b, |b| delay(b, "A", "C"));
    assert!(
        told(&events)
            .iter()
            .any(|e| matches!(e, WoundsEvent::Delayed { .. })),
        "{events:?}"
    );
    assert_eq!(active(&b).as_deref(), Some("B"));
    assert!(
        b.check(&delay(&b, "B", "A")).is_ok(),
        "A acts later now: B may wait for it"
    );
    end(&mut b, "B");
    assert_eq!(active(&b).as_deref(), Some("C"));
    end(&mut b, "C");
    assert_eq!(active(&b).as_deref(), Some("A"), "after C, as it asked");
    end(&mut b, "A");
    // Round 2: A is back first.
    assert_eq!(b.turn().round, 2);
    assert_eq!(active(&b).as_deref(), Some("A"));
    run(&mut b, |b| mv(b, "A", &[(1, 0)]));
    let err = refusal(&b, &delay(&b, "A", "C"));
    assert!(err.contains("only at the start of a turn"), "{err}");
    end(&mut b, "A");
    assert_eq!(active(&b).as_deref(), Some("B"));
    let err = refusal(&b, &delay(&b, "B", "A"));
    assert!(err.contains("A does not act later this round"), "{err}");
    all_dice_used(&b);
}

// ------------------------------------------------------------------ battle flow

/// W-05: the round ends when every unit has had its turn and round 2 begins; the
/// battle ends when every unit of one side is defeated, and the winners' MP refill
/// is told.
#[test]
fn w_05_rounds_follow_and_the_battle_ends_with_a_side_defeated() {
    let l = level(
        (6, 3),
        &[],
        vec![
            armed(
                stat(wu("Hero", "Heroes", (1, 1), 2, 3, 20), "Strength", 2),
                vec![weapon("Greataxe")],
            ),
            wu("Rat", "Foes", (2, 1), 0, 0, 5),
        ],
    );
    // Round 2: d20 15 + 3 + 1 = 19 vs 10, a hit; d12 3 + 2 = 5: the Rat is down.
    let mut b = battle(&l, &[15, 3]);
    end(&mut b, "Hero");
    let events = end(&mut b, "Rat");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::RoundStarted { round: 2 })),
        "{events:?}"
    );
    assert_eq!(active(&b).as_deref(), Some("Hero"));
    let events = run(&mut b, |b| attack(b, "Hero", "Rat"));
    assert_eq!(hp(&b, "Rat"), 0);
    assert_eq!(b.awaiting(), Awaiting::Over(b.side_id("Heroes")));
    let heroes = b.side_id("Heroes").unwrap();
    assert!(
        told(&events).contains(&WoundsEvent::MpRefilled { side: heroes }),
        "{events:?}"
    );
    all_dice_used(&b);
}

/// W-05 / W-GAP-21: a player may surrender its side at any time: its units leave
/// and the other side wins.
#[test]
fn w_05_w_gap_21_a_side_surrenders() {
    let l = level(
        (6, 3),
        &[],
        vec![
            wu("Hero", "Heroes", (1, 1), 2, 3, 20),
            wu("Pal", "Heroes", (0, 0), 1, 3, 20),
            wu("Ogre", "Foes", (4, 1), 0, 0, 30),
        ],
    );
    let mut b = battle(&l, &[]);
    run(&mut b, |b| act(b, "Hero", "Surrender", &[]));
    assert_eq!(b.awaiting(), Awaiting::Over(b.side_id("Foes")));
    assert_eq!(state(&b, "Hero"), PlayState::Surrendered);
    assert_eq!(state(&b, "Pal"), PlayState::Surrendered);
    assert_eq!(state(&b, "Ogre"), PlayState::Active);
    all_dice_used(&b);
}

/// W-GAP-21 / W-05 / W-10: an AI side surrenders when its units have less than
/// 25% of their starting HP: at exactly 25% it fights on, below it gives up.
#[test]
fn w_gap_21_an_ai_side_surrenders_below_a_quarter_of_its_hp() {
    let mut l = level(
        (6, 3),
        &[],
        vec![
            armed(
                stat(wu("Hero", "Heroes", (1, 1), 2, 3, 20), "Strength", 3),
                vec![weapon("Greataxe")],
            ),
            wu("Ogre", "Foes", (2, 1), 0, 0, 20),
        ],
    );
    l.sides[1].controller = Controller::Ai(AiPolicy::Normal);
    // The attack: d20 15 hits; d12 12 + 3 = 15: the Ogre has 5 of 20 (25%).
    // The extra attack (no Strength): d20 15 hits; d12 1: 4 of 20 (20%).
    let mut b = battle(&l, &[15, 12, 15, 1]);
    run(&mut b, |b| attack(b, "Hero", "Ogre"));
    assert_eq!(hp(&b, "Ogre"), 5);
    assert_eq!(state(&b, "Ogre"), PlayState::Active, "25% is not below 25%");
    let events = run(&mut b, |b| attack(b, "Hero", "Ogre"));
    assert_eq!(hp(&b, "Ogre"), 4);
    let foes = b.side_id("Foes").unwrap();
    assert!(
        told(&events).contains(&WoundsEvent::Surrendered {
            side: foes,
            why: " (20% of its starting HP left, below 25%)".into()
        }),
        "{events:?}"
    );
    assert_eq!(state(&b, "Ogre"), PlayState::Surrendered);
    assert_eq!(b.awaiting(), Awaiting::Over(b.side_id("Heroes")));
    all_dice_used(&b);
}

// ------------------------------------------------------------------ action economy

/// W-06 / W-10 / W-GAP-22 / W-14 / W-GAP-01: an attack spends the Attack Action
/// (the table's longsword: 1d8 + Strength); a second attack is the extra attack,
/// paid with the Move Action and both Bonus Actions, without Strength and without
/// feats (no Weapon focus die); then nothing is left to move or boost with, and a
/// third attack is refused. Once the Move Action has gone on moving, the extra
/// attack is refused.
#[test]
fn w_06_w_10_w_gap_22_attack_then_the_extra_attack() {
    let l = level(
        (6, 4),
        &[],
        vec![
            with(
                armed(
                    stat(wu("Hero", "Heroes", (1, 1), 2, 3, 20), "Strength", 2),
                    vec![weapon("Longsword")],
                ),
                &["Weapon focus Longsword"],
            ),
            wu("Ogre", "Foes", (2, 1), 0, 0, 40),
        ],
    );
    // The attack: d20 10 + 3 + 1 = 14 vs 10; 2d8 (Weapon focus) [3, 4] + 2 = 9.
    // The extra attack: d20 10 hits; 1d8 [5], no Strength: 5.
    // Round 2, after a step: d20 2 + 4 = 6 misses.
    let mut b = battle(&l, &[10, 3, 4, 10, 5, 2]);
    assert_eq!(actions(&b, "Hero"), (1, 1, 2), "W-01: 1 AA, 1 MA, 2 BA");
    let events = run(&mut b, |b| attack(b, "Hero", "Ogre"));
    let r = rolls(&events);
    assert_eq!((r[0].total, r[0].target), (14, Some(10)));
    assert_eq!(damage_to(&events, id(&b, "Ogre")), [9]);
    assert_eq!(actions(&b, "Hero"), (0, 1, 2));
    let events = run(&mut b, |b| attack(b, "Hero", "Ogre"));
    let r = rolls(&events);
    assert!(r[0].purpose.starts_with("the extra attack"), "{r:?}");
    assert_eq!(damage_to(&events, id(&b, "Ogre")), [5]);
    assert!(
        told(&events).iter().any(|e| matches!(
            e,
            WoundsEvent::Spent { actions, .. } if actions == "1 MA + 2 BA"
        )),
        "{events:?}"
    );
    assert_eq!(hp(&b, "Ogre"), 40 - 9 - 5);
    assert_eq!(actions(&b, "Hero"), (0, 0, 0));
    let err = b.check(&mv(&b, "Hero", &[(1, 2)])).unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::NotEnoughMovement {
                cost: 1,
                budget: 0,
                ..
            }
        ),
        "W-GAP-22: {err}"
    );
    let err = refusal(&b, &act(&b, "Hero", "HitBoost", &[]));
    assert!(err.contains("no Bonus Action left"), "{err}");
    let err = refusal(&b, &attack(&b, "Hero", "Ogre"));
    assert!(
        err.contains("has not 1 MA + 2 BA left for the extra attack"),
        "{err}"
    );
    end(&mut b, "Hero");
    end(&mut b, "Ogre");
    // Round 2: a step inside the Ogre's zone spends the Move Action.
    run(&mut b, |b| mv(b, "Hero", &[(1, 2)]));
    run(&mut b, |b| attack(b, "Hero", "Ogre"));
    let err = refusal(&b, &attack(&b, "Hero", "Ogre"));
    assert!(err.contains("has not 1 MA + 2 BA left"), "{err}");
    all_dice_used(&b);
}

/// W-09 / W-GAP-13: a Bonus Action buys +1 to hit or +1 melee damage until the end
/// of the round (off-turn free hits included), or +1 dodge until the unit's next
/// turn; two buy the same boost twice (+2).
#[test]
fn w_09_w_gap_13_boosts_last_the_round_and_dodge_until_the_next_turn() {
    let l = level(
        (8, 5),
        &[],
        vec![
            armed(
                wu("Hero", "Heroes", (2, 2), 2, 0, 20),
                vec![weapon("Shortsword")],
            ),
            armed(
                wu("Fast", "Foes", (3, 2), 3, 0, 30),
                vec![weapon("Shortsword")],
            ),
            wu("Slow", "Foes", (1, 2), 0, 0, 30),
        ],
    );
    let faces = [
        11, 3, // round 1: Hero hits Fast: 11 + 1 CM + 1 BA = 13 vs 13; d6 3 + 1 = 4
        10, 3, // Slow leaves Hero's zone: free hit 10 + 1 BA (+1 CM) vs 10; 3 + 1 = 4
        2, // round 2: Fast leaves: Hero's free hit, boosts gone: a miss
        10, 1,  // Hero boosts to hit twice: 10 + 1 + 2 = 13 vs 13; d6 1
        11, // round 4: Fast attacks Hero: 11 + 1 = 12 vs 2 + 10 + 1 dodge = 13
    ];
    let mut b = battle(&l, &faces);
    assert_eq!(active(&b).as_deref(), Some("Fast"));
    end(&mut b, "Fast");
    run(&mut b, |b| act(b, "Hero", "HitBoost", &[]));
    run(&mut b, |b| act(b, "Hero", "DamageBoost", &[]));
    assert_eq!(actions(&b, "Hero"), (1, 1, 0));
    let events = run(&mut b, |b| attack(b, "Hero", "Fast"));
    let r = rolls(&events);
    assert!(
        r[0].modifiers.contains(&("Bonus Action".into(), 1)),
        "{r:?}"
    );
    assert_eq!(
        (r[0].total, r[0].target, r[0].outcome.as_str()),
        (13, Some(13), "hit")
    );
    assert_eq!(
        damage_to(&events, id(&b, "Fast")),
        [4],
        "d6 3 + 1 damage boost"
    );
    end(&mut b, "Hero");
    // Slow leaves the Hero's zone in round 1: the boosts count on the free hit.
    let events = run(&mut b, |b| mv(b, "Slow", &[(0, 2)]));
    let r = rolls(&events);
    assert!(r[0].purpose.starts_with("a free hit"), "{r:?}");
    assert!(
        r[0].modifiers.contains(&("Bonus Action".into(), 1)),
        "{r:?}"
    );
    assert_eq!(damage_to(&events, id(&b, "Slow")), [4]);
    end(&mut b, "Slow");
    // Round 2: the boosts ended with round 1.
    assert!(!has(&b, "Hero", "Hit boost") && !has(&b, "Hero", "Damage boost"));
    let events = run(&mut b, |b| mv(b, "Fast", &[(4, 2)]));
    let r = rolls(&events);
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(
        !r[0].modifiers.iter().any(|m| m.0 == "Bonus Action"),
        "{r:?}"
    );
    end(&mut b, "Fast");
    run(&mut b, |b| mv(b, "Hero", &[(3, 2)]));
    run(&mut b, |b| act(b, "Hero", "HitBoost", &[]));
    run(&mut b, |b| act(b, "Hero", "HitBoost", &[]));
    let events = run(&mut b, |b| attack(b, "Hero", "Fast"));
    let r = rolls(&events);
    assert!(
        r[0].modifiers.contains(&("Bonus Action".into(), 2)),
        "two boosts stack: {r:?}"
    );
    assert_eq!((r[0].total, r[0].outcome.as_str()), (13, "hit"));
    assert_eq!(
        damage_to(&events, id(&b, "Fast")),
        [1],
        "no damage boost now"
    );
    end(&mut b, "Hero");
    end(&mut b, "Slow");
    // Round 3: the Hero dodges; it lasts through round 4 until its turn.
    end(&mut b, "Fast");
    run(&mut b, |b| act(b, "Hero", "Dodge", &[]));
    end(&mut b, "Hero");
    end(&mut b, "Slow");
    assert!(has(&b, "Hero", "Dodging"));
    let events = run(&mut b, |b| attack(b, "Fast", "Hero"));
    let r = rolls(&events);
    assert_eq!(
        (r[0].total, r[0].target, r[0].outcome.as_str()),
        (12, Some(13), "miss")
    );
    end(&mut b, "Fast");
    assert_eq!(active(&b).as_deref(), Some("Hero"));
    assert!(
        !has(&b, "Hero", "Dodging"),
        "the dodge ends as its turn starts"
    );
    all_dice_used(&b);
}

/// W-01 / W-09: a unit's `BonusActions` stat (2 by default) is the Bonus Actions of
/// each of its turns.
#[test]
fn w_01_the_bonus_actions_stat_sets_a_turns_bonus_actions() {
    let l = level(
        (8, 5),
        &[],
        vec![
            stat(wu("Hero", "Heroes", (2, 2), 2, 0, 20), "BonusActions", 3),
            stat(wu("Ogre", "Foes", (6, 2), 0, 0, 20), "BonusActions", 1),
        ],
    );
    let mut b = battle(&l, &[]);
    assert_eq!(actions(&b, "Hero"), (1, 1, 3));
    for _ in 0..3 {
        run(&mut b, |b| act(b, "Hero", "HitBoost", &[]));
    }
    end(&mut b, "Hero");
    assert_eq!(actions(&b, "Ogre"), (1, 1, 1));
    all_dice_used(&b);
}

// ------------------------------------------------------------------ movement

/// W-07 / W-09 / W-EX-8: a Move Action gives 6 spaces; Dash adds 2 spaces per
/// Bonus Action, spent only as needed: 6 + 2 + 2 = 10 in all. One Move Action is
/// one movement: the spaces a move leaves are lost, and a later move in the turn is
/// a Dash paid with Bonus Actions.
#[test]
fn w_07_w_09_w_ex_8_move_six_dash_two_more_per_bonus_action() {
    let l = level(
        (30, 3),
        &[],
        vec![
            wu("Hero", "Heroes", (0, 1), 1, 0, 20),
            wu("Ogre", "Foes", (29, 1), 0, 0, 20),
        ],
    );
    let mut b = battle(&l, &[]);
    let row = |from: i32, to: i32| -> Vec<(i32, i32)> { (from..=to).map(|x| (x, 1)).collect() };
    let err = b.check(&mv(&b, "Hero", &row(1, 7))).unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::NotEnoughMovement {
                cost: 7,
                budget: 6,
                ..
            }
        ),
        "{err}"
    );
    assert!(
        b.check(&dash(&b, "Hero", &row(1, 10))).is_ok(),
        "W-EX-8: 10"
    );
    let err = b.check(&dash(&b, "Hero", &row(1, 11))).unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::NotEnoughMovement {
                cost: 11,
                budget: 10,
                ..
            }
        ),
        "{err}"
    );
    run(&mut b, |b| mv(b, "Hero", &row(1, 4)));
    assert_eq!(actions(&b, "Hero"), (1, 0, 2));
    assert_eq!(
        pool(&b, "Hero", "Spaces left"),
        Some(0),
        "the 2 left are lost"
    );
    let err = b.check(&mv(&b, "Hero", &row(5, 5))).unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::NotEnoughMovement {
                cost: 1,
                budget: 0,
                ..
            }
        ),
        "{err}"
    );
    let events = run(&mut b, |b| dash(b, "Hero", &row(5, 6)));
    assert!(
        told(&events).iter().any(|e| matches!(
            e,
            WoundsEvent::Spent { what, actions, .. } if what == "2 more spaces" && actions == "1 BA"
        )),
        "{events:?}"
    );
    assert_eq!(actions(&b, "Hero"), (1, 0, 1));
    run(&mut b, |b| dash(b, "Hero", &row(7, 7)));
    assert_eq!(actions(&b, "Hero"), (1, 0, 0));
    assert_eq!(cell(&b, "Hero"), c(7, 1));
    let err = b.check(&dash(&b, "Hero", &row(8, 8))).unwrap_err();
    assert!(
        matches!(err, CommandError::NotEnoughMovement { budget: 0, .. }),
        "{err}"
    );
    end(&mut b, "Hero");
    end(&mut b, "Ogre");
    // Round 2: one Dash of 10 spends the Move Action and both Bonus Actions.
    let events = run(&mut b, |b| dash(b, "Hero", &row(8, 17)));
    let spent: Vec<(String, String)> = told(&events)
        .into_iter()
        .filter_map(|e| match e {
            WoundsEvent::Spent { what, actions, .. } => Some((what, actions)),
            _ => None,
        })
        .collect();
    let s = |w: &str, a: &str| (w.to_string(), a.to_string());
    assert_eq!(
        spent,
        [
            s("move", "1 MA"),
            s("2 more spaces", "1 BA"),
            s("2 more spaces", "1 BA")
        ]
    );
    assert_eq!(cell(&b, "Hero"), c(17, 1));
    all_dice_used(&b);
}

/// W-GAP-20: a difficult square costs 2 spaces; a diagonal step costs 1.
#[test]
fn w_gap_20_difficult_squares_cost_two_diagonals_one() {
    let l = level(
        (8, 8),
        &[
            "..~~....", "........", "........", "........", "........", "........", "........",
            "........",
        ],
        vec![
            wu("Hero", "Heroes", (0, 0), 1, 0, 20),
            wu("Ogre", "Foes", (7, 0), 0, 0, 20),
        ],
    );
    let b = battle(&l, &[]);
    let through = [(1, 0), (2, 0), (3, 0), (4, 0)];
    assert!(
        b.check(&mv(&b, "Hero", &through)).is_ok(),
        "1 + 2 + 2 + 1 = 6"
    );
    let err = b
        .check(&mv(&b, "Hero", &[(1, 0), (2, 0), (3, 0), (4, 0), (5, 0)]))
        .unwrap_err();
    assert!(
        matches!(err, CommandError::NotEnoughMovement { cost: 7, .. }),
        "{err}"
    );
    let diagonal: Vec<(i32, i32)> = (1..=6).map(|i| (i, i)).collect();
    let mut b = b;
    let events = run(&mut b, |b| mv(b, "Hero", &diagonal));
    let costs: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            Event::Moved { cost, .. } => Some(*cost),
            _ => None,
        })
        .collect();
    assert_eq!(costs, [1; 6]);
    assert_eq!(cell(&b, "Hero"), c(6, 6));
    all_dice_used(&b);
}

/// W-08 / W-30 / W-GAP-19 / W-EX-8: a prone unit crawls a third of its movement
/// (6 → 2); standing up with a Bonus Action gives it its whole movement back;
/// a hidden (sneaking) unit moves half (3) unless it is a Maneuverer; an Athlete
/// moves 2 more (8).
#[test]
fn w_08_w_30_w_gap_19_prone_crawls_sneaking_halves() {
    let l = level(
        (20, 9),
        &[],
        vec![
            wu("Hero", "Heroes", (0, 1), 1, 0, 20),
            with(wu("Sneak", "Heroes", (0, 3), 0, 0, 20), &["Hidden"]),
            with(
                wu("Acrobat", "Heroes", (0, 5), -1, 0, 20),
                &["Hidden", "Maneuverer"],
            ),
            with(wu("Runner", "Heroes", (0, 7), -2, 0, 20), &["Athlete"]),
            armed(
                wu("Archer", "Foes", (12, 1), 3, 0, 20),
                vec![weapon_on_hit("Shortbow", "Prone", EffectDuration::SaveEnds)],
            ),
        ],
    );
    // The Archer's shot: d20 15 hits; d6 1 damage; the Hero is prone.
    let mut b = battle(&l, &[15, 1]);
    run(&mut b, |b| attack(b, "Archer", "Hero"));
    assert!(has(&b, "Hero", "Prone"));
    end(&mut b, "Archer");
    let err = b
        .check(&mv(&b, "Hero", &[(1, 1), (2, 1), (3, 1)]))
        .unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::NotEnoughMovement {
                cost: 3,
                budget: 2,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("prone crawl"), "{err}");
    assert!(b.check(&mv(&b, "Hero", &[(1, 1), (2, 1)])).is_ok());
    run(&mut b, |b| paid(b, "Hero", "Stand", "BA"));
    assert!(!has(&b, "Hero", "Prone"));
    assert_eq!(actions(&b, "Hero"), (1, 1, 1));
    assert_eq!(
        pool(&b, "Hero", "Spaces left"),
        Some(6),
        "standing, it walks"
    );
    run(&mut b, |b| {
        dash(
            b,
            "Hero",
            &[
                (1, 1),
                (2, 1),
                (3, 1),
                (4, 1),
                (5, 1),
                (6, 1),
                (7, 1),
                (8, 1),
            ],
        )
    });
    assert_eq!(actions(&b, "Hero"), (1, 0, 0), "6 + 2 for the last BA");
    end(&mut b, "Hero");
    // Sneaking: half of 6.
    let row = |y: i32, n: i32| -> Vec<(i32, i32)> { (1..=n).map(|x| (x, y)).collect() };
    assert_eq!(active(&b).as_deref(), Some("Sneak"));
    assert!(b.check(&mv(&b, "Sneak", &row(3, 3))).is_ok());
    let err = b.check(&mv(&b, "Sneak", &row(3, 4))).unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::NotEnoughMovement {
                cost: 4,
                budget: 3,
                ..
            }
        ),
        "W-08: {err}"
    );
    end(&mut b, "Sneak");
    assert!(
        b.check(&mv(&b, "Acrobat", &row(5, 6))).is_ok(),
        "Maneuverer"
    );
    end(&mut b, "Acrobat");
    assert!(b.check(&mv(&b, "Runner", &row(7, 8))).is_ok(), "Athlete");
    let err = b.check(&mv(&b, "Runner", &row(7, 9))).unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::NotEnoughMovement {
                cost: 9,
                budget: 8,
                ..
            }
        ),
        "{err}"
    );
    all_dice_used(&b);
}

/// W-GAP-24: a move may pass through an ally's square but not an enemy's, and may
/// not end on any unit; each refusal says where.
#[test]
fn w_gap_24_through_allies_not_enemies_never_ending_on_a_unit() {
    let l = level(
        (8, 3),
        &[],
        vec![
            wu("Hero", "Heroes", (0, 1), 2, 0, 20),
            wu("Pal", "Heroes", (1, 1), 1, 0, 20),
            wu("Ogre", "Foes", (4, 1), 0, 0, 20),
        ],
    );
    let mut b = battle(&l, &[]);
    let err = b.check(&mv(&b, "Hero", &[(1, 1)])).unwrap_err();
    assert!(
        matches!(err, CommandError::PathBlocked(_)) && err.to_string().contains("(1, 1)"),
        "{err}"
    );
    assert!(err.to_string().contains("can't end on"), "{err}");
    let err = b
        .check(&mv(&b, "Hero", &[(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)]))
        .unwrap_err();
    assert!(
        err.to_string().contains("an enemy stands on (4, 1)"),
        "{err}"
    );
    run(&mut b, |b| mv(b, "Hero", &[(1, 1), (2, 1)]));
    assert_eq!(cell(&b, "Hero"), c(2, 1));
    all_dice_used(&b);
}

// ------------------------------------------------------------------ hitting

/// W-13 / W-17 / W-EX-2 / W-GAP-07: d20 + Accuracy against Agility + 10; Center
/// Mass (no aim named) adds 1: Accuracy +3 against Agility +2 with a d20 of 8 is
/// 12 vs 12, a hit; aimed at Slowing the same 8 is 11, a miss.
#[test]
fn w_13_w_ex_2_center_mass_hits_where_an_aimed_attack_misses() {
    let l = level(
        (6, 3),
        &[],
        vec![
            armed(
                wu("Hero", "Heroes", (1, 1), 3, 3, 20),
                vec![weapon("Dagger")],
            ),
            wu("Ogre", "Foes", (2, 1), 2, 0, 20),
        ],
    );
    // Aimed Slowing: d20 8 + 3 = 11 vs 12, a miss. The extra attack, Center Mass:
    // d20 8 + 3 + 1 = 12, a hit; d4 2.
    let mut b = battle(&l, &[8, 8, 2]);
    let events = run(&mut b, |b| aimed(b, "Hero", "Ogre", Some("Slowing")));
    let r = rolls(&events);
    assert_eq!(r.len(), 1, "a miss rolls no damage: {r:?}");
    assert_eq!(
        (r[0].total, r[0].target, r[0].outcome.as_str()),
        (11, Some(12), "miss")
    );
    assert!(r[0].purpose.contains("aimed Slowing"), "{r:?}");
    let events = run(&mut b, |b| attack(b, "Hero", "Ogre"));
    let r = rolls(&events);
    assert_eq!(
        r[0].modifiers,
        [("Accuracy".to_string(), 3), ("Center Mass".to_string(), 1)]
    );
    assert_eq!((r[0].total, r[0].outcome.as_str()), (12, "hit"));
    assert_eq!(hp(&b, "Ogre"), 18);
    all_dice_used(&b);
}

/// W-15 / W-GAP-17: attacking with an ally on the square directly behind the target
/// (opposite the attacker across it) gives +1; an ally anywhere else does not.
#[test]
fn w_15_w_gap_17_flanking_from_behind() {
    let l = level(
        (6, 4),
        &[],
        vec![
            armed(
                wu("Left", "Heroes", (1, 1), 4, 0, 20),
                vec![weapon("Dagger")],
            ),
            wu("Right", "Heroes", (3, 1), 3, 0, 20),
            armed(
                wu("Top", "Heroes", (2, 0), 2, 0, 20),
                vec![weapon("Dagger")],
            ),
            wu("Ogre", "Foes", (2, 1), 1, 0, 20),
        ],
    );
    // Left: d20 9 + 1 CM + 1 from behind = 11 vs 11, a hit; d4 2. Top (nobody on
    // (2, 2)): d20 9 + 1 = 10, a miss.
    let mut b = battle(&l, &[9, 2, 9]);
    let events = run(&mut b, |b| attack(b, "Left", "Ogre"));
    let r = rolls(&events);
    assert!(r[0].modifiers.contains(&("from behind".into(), 1)), "{r:?}");
    assert_eq!(
        (r[0].total, r[0].target, r[0].outcome.as_str()),
        (11, Some(11), "hit")
    );
    end(&mut b, "Left");
    end(&mut b, "Right");
    let events = run(&mut b, |b| attack(b, "Top", "Ogre"));
    let r = rolls(&events);
    assert!(
        !r[0].modifiers.iter().any(|m| m.0 == "from behind"),
        "{r:?}"
    );
    assert_eq!((r[0].total, r[0].outcome.as_str()), (10, "miss"));
    all_dice_used(&b);
}

/// W-16 / W-29 / W-GAP-04: a Hidden attacker makes its target flat-footed (hit on
/// 5) and adds 1d4 sneak damage, 2d4 with the Sneak attack feat; a crit doubles the
/// sneak dice too. Having attacked, it is seen: its extra attack is a plain one.
#[test]
fn w_16_hidden_attackers_sneak_attack() {
    let l = level(
        (6, 4),
        &[],
        vec![
            with(
                armed(
                    stat(wu("Sneak", "Heroes", (1, 1), 3, 0, 20), "Strength", 1),
                    vec![weapon("Dagger")],
                ),
                &["Hidden", "Sneak attack"],
            ),
            with(
                armed(
                    stat(wu("Lurker", "Heroes", (2, 2), 2, 0, 20), "Strength", 1),
                    vec![weapon("Dagger")],
                ),
                &["Hidden"],
            ),
            with(wu("Ogre", "Foes", (2, 1), 4, 0, 40), &["Light armor"]),
        ],
    );
    let faces = [
        4, 3, 2, 4, // Sneak: d20 4 + 1 CM = 5 vs 5 (flat-footed); d4 3 + 2d4 sneak [2, 4]
        13, 2, // its extra attack, seen: 13 + 1 = 14 vs 14; d4 2, no Strength
        20, 1, 3, 2, // Lurker: natural 20, the chain's d4 1 (x2); d4 3 + 1d4 sneak 2
    ];
    let mut b = battle(&l, &faces);
    end(&mut b, "Ogre");
    let events = run(&mut b, |b| attack(b, "Sneak", "Ogre"));
    let r = rolls(&events);
    assert_eq!(
        (r[0].total, r[0].target, r[0].outcome.as_str()),
        (5, Some(5), "hit")
    );
    // (3 + 2 + 4 + 1 Strength) - 1 armor = 9.
    assert_eq!(damage_to(&events, id(&b, "Ogre")), [9]);
    assert!(!has(&b, "Sneak", "Hidden"), "seen after attacking");
    let events = run(&mut b, |b| attack(b, "Sneak", "Ogre"));
    let r = rolls(&events);
    assert_eq!((r[0].total, r[0].target), (14, Some(14)));
    // d4 2 - 1 armor = 1.
    assert_eq!(damage_to(&events, id(&b, "Ogre")), [1]);
    end(&mut b, "Sneak");
    let events = run(&mut b, |b| attack(b, "Lurker", "Ogre"));
    // (3 + 2 + 1) x 2 - 1 = 11.
    assert_eq!(damage_to(&events, id(&b, "Ogre")), [11]);
    assert_eq!(hp(&b, "Ogre"), 40 - 9 - 1 - 11);
    all_dice_used(&b);
}

// ------------------------------------------------------------------ wounds

/// W-EX-1 / W-17 / W-18 / W-GAP-03 / W-GAP-16 / W-GAP-10: Accuracy +3, Strength +2,
/// longsword aimed Slowing against Agility +2 and armor 1: d20 9 hits (12 vs 12),
/// d8 5 + 2 - 1 = 6 net: a wound. The target's movement is 4, its Agility +1
/// (defense 11) and next round its Free Hit Slots 2 (were 3); the battle's order
/// stays as it was. With d8 4 the net 5 leaves no wound.
#[test]
fn w_ex_1_a_slowing_wound() {
    let l = level(
        (10, 5),
        &[],
        vec![
            armed(
                stat(wu("Hero", "Heroes", (1, 1), 3, 3, 20), "Strength", 2),
                vec![weapon("Longsword")],
            ),
            with(wu("Ogre", "Foes", (2, 1), 2, 0, 30), &["Light armor"]),
            wu("Watcher", "Heroes", (0, 4), 1, 0, 20),
        ],
    );
    let faces = [
        9, 5, // Slowing: 12 vs 12; d8 5 + 2 - 1 = 6, a wound
        8, 4, // the extra attack: 8 + 3 + 1 = 12 vs 11; d8 4 - 1 = 3
        9, 4, // round 2, Slowing: 12 vs 11; d8 4 + 2 - 1 = 5: no wound
    ];
    let mut b = battle(&l, &faces);
    assert_eq!(pool(&b, "Ogre", "Free Hit Slots"), Some(3));
    let events = run(&mut b, |b| aimed(b, "Hero", "Ogre", Some("Slowing")));
    let r = rolls(&events);
    assert_eq!(
        (r[0].total, r[0].target, r[0].outcome.as_str()),
        (12, Some(12), "hit")
    );
    assert_eq!(damage_to(&events, id(&b, "Ogre")), [6]);
    assert!(
        told(&events).iter().any(|e| matches!(
            e,
            WoundsEvent::Wounded { aim, effect, .. }
                if aim == "Slowing" && effect == "movement -2, Agility -1"
        )),
        "{events:?}"
    );
    assert!(has(&b, "Ogre", "Wounded (Slowing)"));
    assert_eq!(pool(&b, "Ogre", "Agility (wounds -1)"), Some(1));
    assert_eq!(pool(&b, "Ogre", "Movement (wounds -2)"), Some(4));
    let events = run(&mut b, |b| attack(b, "Hero", "Ogre"));
    let r = rolls(&events);
    assert_eq!(r[0].target, Some(11), "defense 1 + 10");
    assert_eq!(damage_to(&events, id(&b, "Ogre")), [3]);
    end(&mut b, "Hero");
    assert_eq!(active(&b).as_deref(), Some("Ogre"));
    let err = b
        .check(&mv(&b, "Ogre", &[(3, 1), (4, 1), (5, 1), (6, 1), (7, 1)]))
        .unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::NotEnoughMovement {
                cost: 5,
                budget: 4,
                ..
            }
        ),
        "{err}"
    );
    end(&mut b, "Ogre");
    end(&mut b, "Watcher");
    // Round 2: slots from the current Agility; the order is unchanged.
    assert_eq!(pool(&b, "Ogre", "Free Hit Slots"), Some(2));
    let events = run(&mut b, |b| aimed(b, "Hero", "Ogre", Some("Slowing")));
    assert_eq!(damage_to(&events, id(&b, "Ogre")), [5]);
    assert!(
        !told(&events)
            .iter()
            .any(|e| matches!(e, WoundsEvent::Wounded { .. })),
        "5 net is no wound"
    );
    end(&mut b, "Hero");
    assert_eq!(
        active(&b).as_deref(),
        Some("Ogre"),
        "still before the Watcher"
    );
    all_dice_used(&b);
}

/// W-EX-3 / W-20 / W-21 / W-GAP-04 / W-GAP-06 / W-GAP-02: aimed Fatal, d20 20
/// (crit), the chain's d4 4 (super critical), its d6 2 (stop), d8 3, the Fatal d4
/// 4: (3 + 2) x 4 - 1 = 19 net, a wound, + 16 = 35. With the chain's d6 at 6 the
/// target is defeated at once (its HP set to 0) and no damage dice are rolled.
#[test]
fn w_ex_3_the_crit_chain_and_a_fatal_wound() {
    let l = level(
        (6, 4),
        &[],
        vec![
            armed(
                stat(wu("Hero", "Heroes", (1, 1), 3, 3, 20), "Strength", 2),
                vec![weapon("Longsword")],
            ),
            with(wu("Ogre", "Foes", (2, 1), 2, 0, 40), &["Light armor"]),
            with(wu("Troll", "Foes", (1, 2), 1, 0, 40), &["Light armor"]),
        ],
    );
    let mut b = battle(&l, &[20, 4, 2, 3, 4, 20, 4, 6]);
    let events = run(&mut b, |b| aimed(b, "Hero", "Ogre", Some("Fatal")));
    let r = rolls(&events);
    let dice: Vec<(&str, Vec<u32>)> = r
        .iter()
        .map(|r| (r.dice.as_str(), r.faces.clone()))
        .collect();
    assert_eq!(
        dice,
        [
            ("d20", vec![20]),
            ("d4", vec![4]),
            ("d6", vec![2]),
            ("d4", vec![4])
        ],
        "the d20, the chain, the Fatal d4 (the damage die is told with the damage)"
    );
    assert_eq!(r[3].outcome, "+16 damage");
    assert!(
        told(&events).iter().any(|e| matches!(
            e,
            WoundsEvent::Chain { became, .. } if became == "a super critical (x4)"
        )),
        "{events:?}"
    );
    assert_eq!(damage_to(&events, id(&b, "Ogre")), [35]);
    assert_eq!(hp(&b, "Ogre"), 5);
    assert!(has(&b, "Ogre", "Wounded (Fatal)"));
    let events = run(&mut b, |b| aimed(b, "Hero", "Troll", Some("Fatal")));
    assert!(
        told(&events)
            .iter()
            .any(|e| matches!(e, WoundsEvent::Slain { how, .. } if how.contains("crit chain"))),
        "{events:?}"
    );
    assert_eq!(hp(&b, "Troll"), 0);
    assert_eq!(state(&b, "Troll"), PlayState::Dead);
    all_dice_used(&b);
}

/// W-20 / W-21 / W-GAP-05: a natural 20 hits whatever the defense and doubles the
/// damage; the chain's d4 at 4 doubles it again (x4) and only then is its d6 rolled.
#[test]
fn w_20_w_21_w_gap_05_a_natural_20_always_hits() {
    let l = level(
        (6, 4),
        &[],
        vec![
            armed(
                stat(wu("Hero", "Heroes", (1, 1), 3, -5, 20), "Strength", 1),
                vec![weapon("Dagger")],
            ),
            wu("Ghost", "Foes", (2, 1), 8, 0, 30),
        ],
    );
    // d20 20: 20 - 5 + 1 = 16 < 18 but a crit; d4 3 stops (x2); d4 2 + 1 = 3 -> 6.
    // The extra attack: d20 20, d4 4 (x4), d6 5 stops; d4 1, no Strength -> 4.
    let mut b = battle(&l, &[20, 3, 2, 20, 4, 5, 1]);
    end(&mut b, "Ghost");
    let events = run(&mut b, |b| attack(b, "Hero", "Ghost"));
    let r = rolls(&events);
    assert_eq!(
        (r[0].total, r[0].target, r[0].outcome.as_str()),
        (16, Some(18), "natural 20: critical hit")
    );
    assert_eq!(r.len(), 2, "d20 and the chain's d4: {r:?}");
    assert_eq!(damage_to(&events, id(&b, "Ghost")), [6]);
    let events = run(&mut b, |b| attack(b, "Hero", "Ghost"));
    let r = rolls(&events);
    assert_eq!(r.len(), 3, "d20, d4, d6: {r:?}");
    assert_eq!(damage_to(&events, id(&b, "Ghost")), [4]);
    assert_eq!(hp(&b, "Ghost"), 20);
    all_dice_used(&b);
}

/// W-17 / W-GAP-08: a Weakening wound takes 1 Strength (less melee damage) and a
/// Bonus Action from each of the unit's turns.
#[test]
fn w_17_a_weakening_wound() {
    let l = level(
        (6, 4),
        &[],
        vec![
            armed(
                stat(wu("Hero", "Heroes", (1, 1), 3, 3, 20), "Strength", 2),
                vec![weapon("Longsword")],
            ),
            armed(
                stat(wu("Ogre", "Foes", (2, 1), 0, 5, 30), "Strength", 2),
                vec![weapon("Shortsword")],
            ),
        ],
    );
    // Weakening: 10 + 3 = 13 vs 10; d8 4 + 2 = 6, a wound. The Ogre hits back:
    // 15 + 5 + 1 vs 13; d6 3 + (2 - 1) = 4.
    let mut b = battle(&l, &[10, 4, 15, 3]);
    run(&mut b, |b| aimed(b, "Hero", "Ogre", Some("Weakening")));
    assert!(has(&b, "Ogre", "Wounded (Weakening)"));
    assert_eq!(pool(&b, "Ogre", "Strength (wounds -1)"), Some(1));
    end(&mut b, "Hero");
    assert_eq!(actions(&b, "Ogre"), (1, 1, 1), "one Bonus Action less");
    let events = run(&mut b, |b| attack(b, "Ogre", "Hero"));
    assert_eq!(damage_to(&events, id(&b, "Hero")), [4]);
    all_dice_used(&b);
}

/// W-EX-7 / W-17 / W-19 / W-GAP-09: a Disrupting wound takes 3 Accuracy in all for
/// the rest of the round it is dealt, then 1; one healing instance of 6 removes it
/// and the Accuracy is whole again.
#[test]
fn w_ex_7_a_disrupting_wound_and_its_healing() {
    let mut ogre = armed(
        wu("Ogre", "Foes", (2, 1), 0, 4, 30),
        vec![weapon("Shortsword")],
    );
    ogre.items = vec![potion(1)];
    let l = level(
        (6, 4),
        &[],
        vec![
            armed(
                stat(wu("Hero", "Heroes", (1, 1), 3, 3, 20), "Strength", 2),
                vec![weapon("Longsword")],
            ),
            ogre,
        ],
    );
    let faces = [
        10, 4, // Disrupting: 13 vs 10; d8 4 + 2 = 6, a wound
        2, // round 1, the Ogre: 2 + 4 - 3 + 1 = 4
        2, // round 2: 2 + 4 - 1 + 1 = 6
        6, // the potion heals 6
        2, // 2 + 4 + 1 = 7
    ];
    let mut b = battle(&l, &faces);
    run(&mut b, |b| aimed(b, "Hero", "Ogre", Some("Disrupting")));
    assert_eq!(pool(&b, "Ogre", "Accuracy (wounds -3)"), Some(1));
    end(&mut b, "Hero");
    let events = run(&mut b, |b| attack(b, "Ogre", "Hero"));
    let r = rolls(&events);
    assert!(r[0].modifiers.contains(&("wounds".into(), -3)), "{r:?}");
    assert_eq!(r[0].total, 4);
    end(&mut b, "Ogre");
    end(&mut b, "Hero");
    assert_eq!(pool(&b, "Ogre", "Accuracy (wounds -1)"), Some(3));
    let events = run(&mut b, |b| attack(b, "Ogre", "Hero"));
    let r = rolls(&events);
    assert!(r[0].modifiers.contains(&("wounds".into(), -1)), "{r:?}");
    assert_eq!(r[0].total, 6);
    let events = run(&mut b, |b| use_potion(b, "Ogre"));
    assert!(
        told(&events).iter().any(|e| matches!(
            e,
            WoundsEvent::WoundHealed { aim, .. } if aim == "Disrupting"
        )),
        "{events:?}"
    );
    assert!(!has(&b, "Ogre", "Wounded (Disrupting)"));
    assert_eq!(hp(&b, "Ogre"), 30);
    end(&mut b, "Ogre");
    end(&mut b, "Hero");
    let events = run(&mut b, |b| attack(b, "Ogre", "Hero"));
    let r = rolls(&events);
    assert!(!r[0].modifiers.iter().any(|m| m.0 == "wounds"), "{r:?}");
    assert_eq!(r[0].total, 7);
    all_dice_used(&b);
}

/// W-GAP-08 / W-19 / W-EX-8 / W-GAP-07: wounds stack (two Slowing wounds: movement
/// 2, Agility -2; Bonus Actions still give 2 spaces each); one healing instance of
/// 6+ removes the most recent wound only, one of 5 removes none. A Center Mass
/// wound has no effect, but is kept as a wound (W-GAP-08's reading, the default
/// `heal_center_mass`).
#[test]
fn w_gap_08_wounds_stack_and_heal_most_recent_first() {
    let mut ogre = wu("Ogre", "Foes", (2, 1), 2, 0, 40);
    ogre.items = vec![potion(2)];
    let l = level(
        (12, 4),
        &[],
        vec![
            armed(
                wu("Hero", "Heroes", (1, 1), 3, 5, 20),
                vec![weapon("Greataxe")],
            ),
            ogre,
        ],
    );
    let faces = [
        10, 6, // Slowing: d12 6, a wound
        10, 7, // the extra attack, Slowing: d12 7, a wound
        10, 8, // round 2, Weakening: d12 8, a wound
        6, // the potion heals 6: the Weakening wound goes
        5, // 5 heals no wound
        10, 9, // round 3, Center Mass: 9, a wound with no effect
    ];
    let mut b = battle(&l, &faces);
    run(&mut b, |b| aimed(b, "Hero", "Ogre", Some("Slowing")));
    run(&mut b, |b| aimed(b, "Hero", "Ogre", Some("Slowing")));
    assert_eq!(pool(&b, "Ogre", "Agility (wounds -2)"), Some(0));
    assert_eq!(pool(&b, "Ogre", "Movement (wounds -4)"), Some(2));
    end(&mut b, "Hero");
    assert!(
        b.check(&dash(
            &b,
            "Ogre",
            &[(3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 1)]
        ))
        .is_ok()
    );
    let err = b
        .check(&dash(
            &b,
            "Ogre",
            &[(3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 1), (9, 1)],
        ))
        .unwrap_err();
    assert!(
        matches!(
            err,
            CommandError::NotEnoughMovement {
                cost: 7,
                budget: 6,
                ..
            }
        ),
        "W-EX-8: 2 + 2 + 2: {err}"
    );
    end(&mut b, "Ogre");
    run(&mut b, |b| aimed(b, "Hero", "Ogre", Some("Weakening")));
    end(&mut b, "Hero");
    assert_eq!(hp(&b, "Ogre"), 40 - 6 - 7 - 8);
    let events = run(&mut b, |b| use_potion(b, "Ogre"));
    assert!(
        told(&events).iter().any(|e| matches!(
            e,
            WoundsEvent::WoundHealed { aim, .. } if aim == "Weakening"
        )),
        "the most recent: {events:?}"
    );
    let events = run(&mut b, |b| use_potion(b, "Ogre"));
    assert!(
        !told(&events)
            .iter()
            .any(|e| matches!(e, WoundsEvent::WoundHealed { .. })),
        "{events:?}"
    );
    let wounds: Vec<String> = conditions(&b, "Ogre")
        .into_iter()
        .filter(|c| c.starts_with("Wounded"))
        .collect();
    assert_eq!(wounds, ["Wounded (Slowing)", "Wounded (Slowing)"]);
    assert_eq!(pool(&b, "Ogre", "Agility (wounds -2)"), Some(0));
    end(&mut b, "Ogre");
    let events = run(&mut b, |b| attack(b, "Hero", "Ogre"));
    assert!(
        told(&events).iter().any(|e| matches!(
            e,
            WoundsEvent::Wounded { aim, .. } if aim == "Center Mass"
        )),
        "{events:?}"
    );
    assert!(has(&b, "Ogre", "Wounded (Center Mass)"));
    assert_eq!(
        pool(&b, "Ogre", "Agility (wounds -2)"),
        Some(0),
        "no effect"
    );
    all_dice_used(&b);
}

/// W-GAP-08 / W-19 / W-GAP-07 and the `heal_center_mass` switch: a Slowing wound,
/// then a Center Mass one, then a healing instance of 6. By default (RULES.md's
/// reading) the most recent wound goes, Center Mass included: the Slowing wound
/// stays. With `heal_center_mass: false` in the level's `rules`, the Center Mass
/// wound was never kept: healing removes the Slowing wound.
#[test]
fn w_gap_08_healing_and_center_mass_wounds_each_setting() {
    for (switch, healed, left) in [
        (None, "Center Mass", vec!["Wounded (Slowing)"]),
        (Some(false), "Slowing", vec![]),
    ] {
        let mut ogre = wu("Ogre", "Foes", (2, 1), 2, 0, 40);
        ogre.items = vec![potion(1)];
        let mut l = level(
            (6, 4),
            &[],
            vec![
                armed(
                    wu("Hero", "Heroes", (1, 1), 3, 5, 20),
                    vec![weapon("Greataxe")],
                ),
                ogre,
            ],
        );
        if let Some(on) = switch {
            l.rules
                .insert("heal_center_mass".into(), ron::Value::Bool(on));
        }
        let faces = [
            10, 6, // Slowing: 15 vs 12 hits; d12 6: a wound
            10, 7, // the extra attack, Center Mass: d12 7: a wound with no effect
            6, // the potion heals 6
        ];
        let mut b = battle(&l, &faces);
        run(&mut b, |b| aimed(b, "Hero", "Ogre", Some("Slowing")));
        run(&mut b, |b| aimed(b, "Hero", "Ogre", Some("Center Mass")));
        end(&mut b, "Hero");
        assert_eq!(hp(&b, "Ogre"), 40 - 6 - 7, "{switch:?}");
        let events = run(&mut b, |b| use_potion(b, "Ogre"));
        let healed_now: Vec<String> = told(&events)
            .into_iter()
            .filter_map(|e| match e {
                WoundsEvent::WoundHealed { aim, .. } => Some(aim),
                _ => None,
            })
            .collect();
        assert_eq!(healed_now, [healed], "{switch:?}");
        let wounds: Vec<String> = conditions(&b, "Ogre")
            .into_iter()
            .filter(|c| c.starts_with("Wounded"))
            .collect();
        assert_eq!(wounds, left, "{switch:?}");
        // The Slowing wound's Agility -1 stays with it, and goes with it.
        let slowed = b
            .pools(id(&b, "Ogre"))
            .into_iter()
            .any(|(k, _)| k == "Agility (wounds -1)");
        assert_eq!(slowed, !left.is_empty(), "{switch:?}");
        all_dice_used(&b);
    }
}

// ------------------------------------------------------------------ natural 1s

/// W-EX-4 / W-22 / W-23 / W-24 / W-27 / W-GAP-18: attackers in the melee zone of a
/// target with Agility -1 (no Free Hit Slots), Shortsword, Strength +1. (a) d20 1
/// misses whatever the Accuracy, d4 3: no tragedy, and no free hit without a slot.
/// (b) d20 1, d4 4 (tragedy), d6 3: a free critical hit all the same, hitting
/// without a roll: (d6 4 + 1) x 2 = 10. (c) d20 1, d4 4, d6 6: a fatal blow.
#[test]
fn w_ex_4_the_tragedy_chain() {
    let l = level(
        (10, 10),
        &[],
        vec![
            armed(
                wu("A1", "Heroes", (4, 5), 4, 10, 30),
                vec![weapon("Dagger")],
            ),
            armed(wu("A2", "Heroes", (6, 6), 3, 0, 30), vec![weapon("Dagger")]),
            armed(wu("A3", "Heroes", (5, 4), 2, 0, 30), vec![weapon("Dagger")]),
            armed(
                stat(wu("T", "Foes", (5, 5), -1, 0, 40), "Strength", 1),
                vec![weapon("Shortsword")],
            ),
        ],
    );
    let faces = [
        1, 3, // (a)
        1, 4, 3, // (b): the chain
        4, 1, // T's free critical hit: d6 4; 10 net is a wound, aimed Fatal: d4 1
        1, 4, 6, // (c)
    ];
    let mut b = battle(&l, &faces);
    assert_eq!(pool(&b, "T", "Free Hit Slots"), Some(0));
    let events = run(&mut b, |b| attack(b, "A1", "T"));
    let r = rolls(&events);
    assert_eq!(
        (r[0].total, r[0].outcome.as_str()),
        (12, "natural 1: it fails"),
        "12 would beat 9, but a natural 1 misses"
    );
    assert_eq!(r[1].faces, [3]);
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(
        told(&events)
            .iter()
            .any(|e| matches!(e, WoundsEvent::NoSlot { .. })),
        "{events:?}"
    );
    assert_eq!(hp(&b, "A1"), 30);
    end(&mut b, "A1");
    let events = run(&mut b, |b| attack(b, "A2", "T"));
    let chain: Vec<String> = told(&events)
        .into_iter()
        .filter_map(|e| match e {
            WoundsEvent::Chain { became, .. } => Some(became),
            _ => None,
        })
        .collect();
    assert_eq!(chain[0], "a tragedy");
    assert!(
        chain[1].starts_with("a free critical hit on A2"),
        "{chain:?}"
    );
    let r = rolls(&events);
    assert!(
        !r.iter().any(|r| r.dice == "d20" && r.faces != [1]),
        "the free critical hit rolls no d20: {r:?}"
    );
    assert_eq!(damage_to(&events, id(&b, "A2")), [10]);
    assert_eq!(pool(&b, "T", "Free Hit Slots"), Some(0));
    end(&mut b, "A2");
    let events = run(&mut b, |b| attack(b, "A3", "T"));
    assert!(
        told(&events).iter().any(|e| matches!(
            e,
            WoundsEvent::Slain { how, .. } if how.contains("fatal blow")
        )),
        "{events:?}"
    );
    assert_eq!(state(&b, "A3"), PlayState::Dead);
    assert_eq!(hp(&b, "T"), 40);
    assert_eq!(active(&b).as_deref(), Some("T"), "A3's turn ended with it");
    all_dice_used(&b);
}

/// W-24 / W-26 / W-GAP-14 / W-GAP-18: a natural 1 in the target's melee zone gives
/// it a free hit for a slot; a natural 1 on that free hit is only a miss (no chain).
/// A natural 1 from outside the target's zone, even a tragedy escalated to 6, is
/// only a miss.
#[test]
fn w_24_w_gap_14_w_gap_18_free_hit_on_a_natural_1_only_in_the_zone() {
    let l = level(
        (12, 5),
        &[],
        vec![
            armed(
                wu("Brawler", "Heroes", (1, 1), 3, 0, 30),
                vec![weapon("Dagger")],
            ),
            armed(
                wu("Archer", "Heroes", (8, 1), 2, 0, 30),
                vec![weapon("Shortbow")],
            ),
            armed(wu("Ogre", "Foes", (2, 1), 0, 0, 40), vec![weapon("Dagger")]),
        ],
    );
    let faces = [
        1, 3, // Brawler: natural 1, no tragedy: the Ogre's free hit (1 slot)
        1, // the Ogre's free hit: natural 1, just a miss
        1, 4, 6, // Archer, 6 squares away: natural 1, tragedy, 6: still only a miss
    ];
    let mut b = battle(&l, &faces);
    let events = run(&mut b, |b| attack(b, "Brawler", "Ogre"));
    assert!(
        told(&events).iter().any(|e| matches!(
            e,
            WoundsEvent::FreeHit { why, slots_left: 0, .. } if why.contains("natural 1")
        )),
        "{events:?}"
    );
    let r = rolls(&events);
    assert_eq!(r.len(), 3, "d20, d4, the free hit's d20: {r:?}");
    assert!(r[2].purpose.starts_with("a free hit"), "{r:?}");
    assert_eq!(r[2].outcome, "natural 1: it fails");
    assert_eq!(hp(&b, "Brawler"), 30);
    end(&mut b, "Brawler");
    let events = run(&mut b, |b| attack(b, "Archer", "Ogre"));
    assert_eq!(rolls(&events).len(), 3);
    assert!(
        !told(&events)
            .iter()
            .any(|e| matches!(e, WoundsEvent::Slain { .. } | WoundsEvent::FreeHit { .. })),
        "{events:?}"
    );
    assert_eq!(state(&b, "Archer"), PlayState::Active);
    assert_eq!(hp(&b, "Archer"), 30);
    all_dice_used(&b);
}

// ------------------------------------------------------------------ free hits

/// W-EX-5 / W-26 / W-27 / W-GAP-14 / W-GAP-16: a defender with Agility +1 has 2
/// Free Hit Slots: of three enemies leaving its melee zone in one round, the first
/// two draw a free hit, resolved before they step out; the third none. Next round
/// it has 2 again.
#[test]
fn w_ex_5_free_hit_slots_per_round() {
    let l = level(
        (10, 10),
        &[],
        vec![
            armed(wu("D", "Heroes", (5, 5), 1, 0, 30), vec![weapon("Dagger")]),
            wu("X", "Foes", (4, 5), 0, 0, 20),
            wu("Y", "Foes", (6, 5), -1, 0, 20),
            wu("Z", "Foes", (5, 4), -2, 0, 20),
        ],
    );
    // Both free hits roll d20 2: misses.
    let mut b = battle(&l, &[2, 2]);
    assert_eq!(pool(&b, "D", "Free Hit Slots"), Some(2));
    end(&mut b, "D");
    let events = run(&mut b, |b| mv(b, "X", &[(3, 5)]));
    assert!(
        told(&events).iter().any(|e| matches!(
            e,
            WoundsEvent::FreeHit { why, slots_left: 1, .. } if why == "leaves the melee zone"
        )),
        "{events:?}"
    );
    assert!(
        first(&events, is_roll) < first(&events, is_move),
        "before the step"
    );
    end(&mut b, "X");
    let events = run(&mut b, |b| mv(b, "Y", &[(7, 5)]));
    assert_eq!(rolls(&events).len(), 1);
    assert_eq!(pool(&b, "D", "Free Hit Slots"), Some(0));
    end(&mut b, "Y");
    let events = run(&mut b, |b| mv(b, "Z", &[(5, 3)]));
    assert!(rolls(&events).is_empty());
    assert!(
        told(&events)
            .iter()
            .any(|e| matches!(e, WoundsEvent::NoSlot { .. })),
        "{events:?}"
    );
    end(&mut b, "Z");
    assert_eq!(b.turn().round, 2);
    assert_eq!(pool(&b, "D", "Free Hit Slots"), Some(2));
    all_dice_used(&b);
}

/// W-26 / W-GAP-15 / W-GAP-14: a mover's 3rd step that starts and ends inside a
/// melee zone draws a free hit, before that step; leaving the zone later in the same
/// movement draws no second one. A free hit that defeats the mover stops it in its
/// square.
#[test]
fn w_26_w_gap_15_the_third_step_inside_and_one_free_hit_per_movement() {
    let l = level(
        (10, 10),
        &[],
        vec![
            armed(
                stat(wu("D", "Heroes", (5, 5), 1, 5, 30), "Strength", 3),
                vec![weapon("Greataxe")],
            ),
            wu("X", "Foes", (4, 4), 0, 0, 20),
            wu("Y", "Foes", (6, 6), -1, 0, 4),
        ],
    );
    // X's free hit: d20 2 misses (2 + 5, + 1 with Center Mass, < 10).
    // Y's: d20 15 hits; d12 1 + 3 = 4: Y is down before its first step.
    let mut b = battle(&l, &[2, 15, 1]);
    end(&mut b, "D");
    let events = run(&mut b, |b| {
        mv(b, "X", &[(5, 4), (6, 4), (6, 5), (6, 6), (7, 7)])
    });
    let kinds: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Moved { .. } => Some("step"),
            Event::Rolled { .. } => Some("free hit"),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, ["step", "step", "free hit", "step", "step", "step"]);
    assert!(
        told(&events).iter().any(|e| matches!(
            e,
            WoundsEvent::FreeHit { why, .. } if why == "moves a 3rd space inside the melee zone"
        )),
        "{events:?}"
    );
    end(&mut b, "X");
    let events = run(&mut b, |b| mv(b, "Y", &[(7, 6), (8, 6)]));
    assert_eq!(state(&b, "Y"), PlayState::Down);
    assert_eq!(cell(&b, "Y"), c(6, 6), "it never left its square");
    assert!(!events.iter().any(is_move));
    assert_eq!(active(&b).as_deref(), Some("D"), "Y's turn ended; round 2");
    all_dice_used(&b);
}

/// W-26 / W-GAP-15 counted over the turn: "moves more than 2 spaces within your
/// melee zone" adds up the unit's movements of the turn, so a Move of 2 spaces
/// inside D's zone and then a Dash of 2 more draws D's free hit before the Dash's
/// first step (the turn's 3rd inside). The count starts again each turn: next
/// round 2 steps inside draw nothing.
#[test]
fn w_26_w_gap_15_move_then_dash_inside_a_zone_draws_a_free_hit() {
    let l = level(
        (10, 10),
        &[],
        vec![
            armed(wu("D", "Heroes", (5, 5), 1, 0, 30), vec![weapon("Dagger")]),
            wu("X", "Foes", (4, 4), 0, 0, 20),
        ],
    );
    // D's free hit before the Dash's first step: d20 2 misses.
    let mut b = battle(&l, &[2]);
    end(&mut b, "D");
    let events = run(&mut b, |b| mv(b, "X", &[(5, 4), (6, 4)]));
    assert!(!events.iter().any(is_roll), "2 steps inside: {events:?}");
    let events = run(&mut b, |b| dash(b, "X", &[(6, 5), (6, 6)]));
    let kinds: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Moved { .. } => Some("step"),
            Event::Rolled { .. } => Some("free hit"),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, ["free hit", "step", "step"]);
    assert!(
        told(&events).iter().any(|e| matches!(
            e,
            WoundsEvent::FreeHit { attacker, why, .. }
                if *attacker == id(&b, "D") && why == "moves a 3rd space inside the melee zone"
        )),
        "{events:?}"
    );
    assert_eq!(cell(&b, "X"), c(6, 6));
    end(&mut b, "X");
    end(&mut b, "D");
    let events = run(&mut b, |b| mv(b, "X", &[(6, 5), (6, 4)]));
    assert!(
        !events.iter().any(is_roll),
        "a new turn's 2 steps: {events:?}"
    );
    assert_eq!(cell(&b, "X"), c(6, 4));
    all_dice_used(&b);
}

/// W-GAP-07 "Free hits may aim" / W-26: the side that makes a free hit aims it. A
/// side that is asked (`decisions: Ask`) gets a pending decision before the
/// mover's step, listing every aim with its exact chance to hit (d20 + 3 against
/// 11: 65%, Center Mass +1: 70%); nothing else is legal meanwhile; the answer, in any spelling
/// of the aim, makes the hit so aimed (a Slowing wound) and the movement goes on.
/// A side with `Auto` is not asked: the hit takes the aim the AI's policy picks.
#[test]
fn w_gap_07_the_hitters_side_aims_its_free_hit() {
    let make = |policy: DecisionPolicy| {
        let mut l = level(
            (8, 4),
            &[],
            vec![
                armed(
                    stat(wu("Guard", "Heroes", (2, 1), 2, 3, 30), "Strength", 2),
                    vec![weapon("Longsword")],
                ),
                wu("Thief", "Foes", (3, 1), 1, 0, 30),
            ],
        );
        l.sides[0].decisions = policy;
        l
    };
    // The free hit: d20 12 + 3 = 15 vs 11 hits; Longsword d8 4 + 2 = 6: a wound.
    let mut b = battle(&make(DecisionPolicy::Ask), &[12, 4]);
    end(&mut b, "Guard");
    let events = run(&mut b, |b| mv(b, "Thief", &[(4, 1), (5, 1)]));
    assert!(!events.iter().any(is_move), "asked before the first step");
    let Awaiting::Decision(d) = b.awaiting() else {
        panic!("the Heroes are asked: {:?}", b.awaiting());
    };
    assert_eq!(b.side_name(d.side), "Heroes");
    assert!(d.decline.is_none(), "a free hit is aimed, not declined");
    let expected = [
        ("Fatal", 0.65),
        ("Slowing", 0.65),
        ("Weakening", 0.65),
        ("Disrupting", 0.65),
        ("Center Mass", 0.70),
    ];
    assert_eq!(d.options.len(), expected.len());
    for (o, (want, p)) in d.options.iter().zip(expected) {
        let Command::Attack {
            unit,
            target,
            options,
            ..
        } = &o.command
        else {
            panic!("{o:?}");
        };
        assert_eq!((*unit, *target), (id(&b, "Guard"), id(&b, "Thief")));
        assert_eq!(options.name("aim"), Some(want));
        assert!((o.chance.unwrap() - p).abs() < 1e-9, "{want}: {o:?}");
    }
    let err = b.check(&Command::EndTurn {
        unit: id(&b, "Thief"),
    });
    assert!(
        matches!(err, Err(CommandError::DecisionPending { .. })),
        "{err:?}"
    );
    let answer = Command::Attack {
        unit: id(&b, "Guard"),
        target: id(&b, "Thief"),
        power: None,
        options: aim_options(Some("slowing".into())),
    };
    let events = run(&mut b, |_| answer);
    let r = rolls(&events);
    assert!(
        r[0].purpose
            .starts_with("a free hit with Longsword, aimed Slowing"),
        "{r:?}"
    );
    assert!(has(&b, "Thief", "Wounded (Slowing)"));
    assert_eq!(hp(&b, "Thief"), 24);
    assert_eq!(cell(&b, "Thief"), c(5, 1), "the movement went on");
    all_dice_used(&b);

    // Auto: not asked; the AI's aim. d20 12 hits, d8 1 + 2 = 3: no wound.
    let mut b = battle(&make(DecisionPolicy::Auto), &[12, 1]);
    end(&mut b, "Guard");
    let best = skirmish::engine::options::best_options(
        b.rules(),
        b.world(),
        id(&b, "Guard"),
        id(&b, "Thief"),
        None,
    );
    let best = best.name("aim").expect("an aim").to_string();
    let events = run(&mut b, |b| mv(b, "Thief", &[(4, 1), (5, 1)]));
    assert!(matches!(b.awaiting(), Awaiting::Unit(..)));
    let r = rolls(&events);
    assert!(
        r[0].purpose
            .starts_with(&format!("a free hit with Longsword, aimed {best}")),
        "{r:?}"
    );
    assert_eq!(cell(&b, "Thief"), c(5, 1));
    assert_eq!(hp(&b, "Thief"), 27);
    all_dice_used(&b);
}

/// W-25 / W-26 / W-GAP-15: with the Reach feat the melee zone is 2 squares around
/// the unit: it attacks 2 squares away with a melee weapon, and an enemy leaving
/// that zone draws its free hit. Without Reach a melee attack 2 squares away is out
/// of reach, said in words.
#[test]
fn w_25_reach_makes_the_melee_zone_two_squares() {
    let l = level(
        (10, 5),
        &[],
        vec![
            with(
                armed(
                    wu("Spear", "Heroes", (2, 2), 2, 0, 30),
                    vec![weapon("Dagger")],
                ),
                &["Reach"],
            ),
            armed(
                wu("Plain", "Heroes", (2, 0), 1, 0, 30),
                vec![weapon("Dagger")],
            ),
            wu("Ogre", "Foes", (4, 2), 0, 0, 30),
        ],
    );
    // Spear's attack 2 away: d20 15 hits; d4 2. The Ogre leaves the zone of 2: the
    // free hit d20 2 misses.
    let mut b = battle(&l, &[15, 2, 2]);
    run(&mut b, |b| attack(b, "Spear", "Ogre"));
    assert_eq!(hp(&b, "Ogre"), 28);
    end(&mut b, "Spear");
    let err = b.check(&attack(&b, "Plain", "Ogre")).unwrap_err();
    assert!(
        matches!(err, CommandError::OutOfReach(_))
            && err
                .to_string()
                .contains("Ogre is 2 squares away; the attack reaches 1"),
        "{err}"
    );
    end(&mut b, "Plain");
    let events = run(&mut b, |b| mv(b, "Ogre", &[(5, 2)]));
    let r = rolls(&events);
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(r[0].purpose.starts_with("a free hit"), "{r:?}");
    all_dice_used(&b);
}

/// W-28 / W-06 / W-11 / W-GAP-25: Disengage, paid with the Attack Action or 2 Bonus
/// Actions, lets the unit leave and move inside enemy melee zones without free hits
/// for the rest of the round; next round it provokes again. It can't be bought twice
/// in a round, nor with Bonus Actions the unit no longer has.
#[test]
fn w_28_w_gap_25_disengage_for_the_round() {
    let l = level(
        (10, 10),
        &[],
        vec![
            wu("Hero", "Heroes", (4, 5), 3, 0, 30),
            wu("Pal", "Heroes", (5, 6), 2, 0, 30),
            armed(wu("Ogre", "Foes", (5, 5), 0, 0, 30), vec![weapon("Dagger")]),
        ],
    );
    // Round 2: the Hero steps out without Disengage: the Ogre's free hit d20 2.
    let mut b = battle(&l, &[2]);
    run(&mut b, |b| paid(b, "Hero", "Disengage", "BA"));
    assert_eq!(actions(&b, "Hero"), (1, 1, 0), "W-11: 2 BA");
    let err = b.check(&paid(&b, "Hero", "Disengage", "AA")).unwrap_err();
    assert!(matches!(err, CommandError::AlreadyUsed { .. }), "{err}");
    // Four steps inside the Ogre's zone, then out.
    let events = run(&mut b, |b| {
        mv(b, "Hero", &[(4, 4), (5, 4), (6, 4), (6, 5), (7, 5)])
    });
    assert!(rolls(&events).is_empty(), "{events:?}");
    assert!(
        !told(&events)
            .iter()
            .any(|e| matches!(e, WoundsEvent::FreeHit { .. } | WoundsEvent::NoSlot { .. })),
        "{events:?}"
    );
    end(&mut b, "Hero");
    run(&mut b, |b| act(b, "Pal", "HitBoost", &[]));
    let err = refusal(&b, &paid(&b, "Pal", "Disengage", "BA"));
    assert!(err.contains("has not 2 BA left for Disengage"), "{err}");
    run(&mut b, |b| paid(b, "Pal", "Disengage", "AA"));
    assert!(has(&b, "Pal", "Disengaged"));
    assert_eq!(actions(&b, "Pal"), (0, 1, 1), "W-06: the Attack Action");
    end(&mut b, "Pal");
    end(&mut b, "Ogre");
    // Round 2: disengaging has ended.
    assert!(!has(&b, "Hero", "Disengaged") && !has(&b, "Pal", "Disengaged"));
    let events = run(&mut b, |b| mv(b, "Hero", &[(6, 4), (7, 4)]));
    let r = rolls(&events);
    assert_eq!(r.len(), 1, "{events:?}");
    assert!(r[0].purpose.starts_with("a free hit"), "{r:?}");
    all_dice_used(&b);
}

// ------------------------------------------------------------------ conditions

/// W-EX-6 / W-29 / W-30 / W-13 / W-GAP-13: the defense number of a target with
/// Agility +3 is 13; flat-footed 5; prone 5 + 3 = 8; with Agility -2 and prone, 3. A
/// flat-footed or prone unit can't dodge; standing up costs one action of the
/// unit's choice (AA, MA or BA).
#[test]
fn w_ex_6_defense_numbers_flat_footed_and_prone() {
    let l = level(
        (10, 10),
        &[],
        vec![
            armed(
                wu("Pinner", "Foes", (5, 4), 6, 0, 30),
                vec![weapon_on_hit(
                    "Dagger",
                    "Flat-footed",
                    EffectDuration::EndOfRound,
                )],
            ),
            armed(
                wu("Tripper", "Foes", (4, 6), 5, 0, 30),
                vec![weapon_on_hit(
                    "Shortsword",
                    "Prone",
                    EffectDuration::SaveEnds,
                )],
            ),
            armed(
                wu("Hitter", "Foes", (6, 5), 4, 0, 30),
                vec![weapon("Dagger")],
            ),
            wu("T", "Heroes", (5, 5), 3, 0, 30),
            wu("U", "Heroes", (5, 6), -2, 0, 30),
        ],
    );
    let faces = [
        15, 1, // round 1: Pinner hits T (vs 13): flat-footed for the round
        15, 1, // Tripper hits U (vs 8): prone
        4, 1, // Hitter hits T: 4 + 1 = 5 vs 5
        3, 1, // Hitter's extra attack on U: 3 + 1 = 4 vs 3
        15, 1, // round 2: Tripper hits T (vs 13 again): prone
        3, // Hitter: 3 + 1 = 4 vs 8, a miss
    ];
    let mut b = battle(&l, &faces);
    let target = |events: &[Event]| rolls(events)[0].target;
    let events = run(&mut b, |b| attack(b, "Pinner", "T"));
    assert_eq!(target(&events), Some(13));
    assert!(has(&b, "T", "Flat-footed"));
    end(&mut b, "Pinner");
    let events = run(&mut b, |b| attack(b, "Tripper", "U"));
    assert_eq!(target(&events), Some(8));
    assert!(has(&b, "U", "Prone"));
    end(&mut b, "Tripper");
    let events = run(&mut b, |b| attack(b, "Hitter", "T"));
    assert_eq!(target(&events), Some(5), "flat-footed");
    let events = run(&mut b, |b| attack(b, "Hitter", "U"));
    assert_eq!(target(&events), Some(3), "prone with Agility -2");
    assert_eq!(hp(&b, "U"), 28);
    end(&mut b, "Hitter");
    let err = refusal(&b, &act(&b, "T", "Dodge", &[]));
    assert!(err.contains("flat-footed or prone"), "{err}");
    end(&mut b, "T");
    let err = refusal(&b, &act(&b, "U", "Dodge", &[]));
    assert!(err.contains("flat-footed or prone"), "{err}");
    run(&mut b, |b| paid(b, "U", "Stand", "MA"));
    assert!(!has(&b, "U", "Prone"));
    assert_eq!(actions(&b, "U"), (1, 0, 2));
    end(&mut b, "U");
    // Round 2: the flat-footed condition ended with round 1.
    assert!(!has(&b, "T", "Flat-footed"));
    end(&mut b, "Pinner");
    let events = run(&mut b, |b| attack(b, "Tripper", "T"));
    assert_eq!(target(&events), Some(13));
    end(&mut b, "Tripper");
    let events = run(&mut b, |b| attack(b, "Hitter", "T"));
    assert_eq!(
        (rolls(&events)[0].target, rolls(&events)[0].outcome.as_str()),
        (Some(8), "miss"),
        "prone: 5 + Agility"
    );
    end(&mut b, "Hitter");
    run(&mut b, |b| paid(b, "T", "Stand", "AA"));
    assert_eq!(actions(&b, "T"), (0, 1, 2));
    let err = refusal(&b, &paid(&b, "T", "Stand", "BA"));
    assert!(err.contains("T is not prone"), "{err}");
    all_dice_used(&b);
}

/// W-31: a disarmed unit can't attack with its weapon, only Unarmed (1d3), until it
/// picks the weapon up with one action (AA, MA or BA).
#[test]
fn w_31_disarmed_fights_unarmed_until_it_picks_its_weapon_up() {
    let l = level(
        (6, 4),
        &[],
        vec![
            armed(
                stat(wu("Hero", "Heroes", (1, 1), 2, 0, 30), "Strength", 2),
                vec![weapon("Greataxe")],
            ),
            armed(
                wu("Disarmer", "Foes", (2, 1), 3, 0, 30),
                vec![weapon_on_hit(
                    "Dagger",
                    "Disarmed",
                    EffectDuration::SaveEnds,
                )],
            ),
        ],
    );
    // The Disarmer hits: d20 15, d4 1. The Hero, Unarmed: d20 15, d3 3 + 2 = 5.
    // Round 2, the Greataxe: d20 15, d12 5 + 2 = 7.
    let mut b = battle(&l, &[15, 1, 15, 3, 15, 5]);
    run(&mut b, |b| attack(b, "Disarmer", "Hero"));
    assert!(has(&b, "Hero", "Disarmed"));
    end(&mut b, "Disarmer");
    let err = refusal(&b, &attack(&b, "Hero", "Disarmer"));
    assert!(
        err.contains("Hero is disarmed: pick up its weapon first"),
        "{err}"
    );
    let events = run(&mut b, |b| {
        with_power(b, "Hero", "Disarmer", "Unarmed", None)
    });
    assert!(
        rolls(&events)[0].purpose.contains("with Unarmed"),
        "{events:?}"
    );
    assert_eq!(damage_to(&events, id(&b, "Disarmer")), [5]);
    run(&mut b, |b| paid(b, "Hero", "PickUp", "BA"));
    assert!(!has(&b, "Hero", "Disarmed"));
    assert_eq!(actions(&b, "Hero"), (0, 1, 1));
    let err = refusal(&b, &paid(&b, "Hero", "PickUp", "MA"));
    assert!(err.contains("Hero is not disarmed"), "{err}");
    end(&mut b, "Hero");
    end(&mut b, "Disarmer");
    let events = run(&mut b, |b| attack(b, "Hero", "Disarmer"));
    assert!(
        rolls(&events)[0].purpose.contains("with Greataxe"),
        "{events:?}"
    );
    assert_eq!(damage_to(&events, id(&b, "Disarmer")), [7]);
    all_dice_used(&b);
}

/// W-31 / W-GAP-14: a disarmed unit's free hit is made with what it has in hand,
/// its fists (1d3), not the weapon lying on the ground.
#[test]
fn w_31_a_disarmed_units_free_hit_is_unarmed() {
    let l = level(
        (6, 4),
        &[],
        vec![
            armed(
                stat(wu("Hero", "Heroes", (1, 1), 2, 0, 30), "Strength", 2),
                vec![weapon("Greataxe")],
            ),
            armed(
                wu("Disarmer", "Foes", (2, 1), 3, 0, 30),
                vec![weapon_on_hit(
                    "Dagger",
                    "Disarmed",
                    EffectDuration::SaveEnds,
                )],
            ),
        ],
    );
    // The Disarmer hits (d20 15, d4 1) and steps away: the Hero's free hit d20 15,
    // d3 3 + 2 = 5.
    let mut b = battle(&l, &[15, 1, 15, 3]);
    run(&mut b, |b| attack(b, "Disarmer", "Hero"));
    let events = run(&mut b, |b| mv(b, "Disarmer", &[(3, 1)]));
    let r = rolls(&events);
    assert!(r[0].purpose.starts_with("a free hit with Unarmed"), "{r:?}");
    assert_eq!(damage_to(&events, id(&b, "Disarmer")), [5]);
    all_dice_used(&b);
}

/// W-30 / W-GAP-19: a prone unit may stand up when it isn't its turn, paying with
/// an action of its next turn.
#[test]
fn w_30_standing_up_off_turn_spends_the_next_turns_action() {
    let l = level(
        (10, 3),
        &[],
        vec![
            wu("Hero", "Heroes", (0, 1), 1, 0, 20),
            armed(
                wu("Archer", "Foes", (8, 1), 3, 0, 20),
                vec![weapon_on_hit("Shortbow", "Prone", EffectDuration::SaveEnds)],
            ),
        ],
    );
    let mut l = l;
    // Its side is asked whether it stands up at once (W-GAP-19).
    l.sides[0].decisions = DecisionPolicy::Ask;
    let mut b = battle(&l, &[15, 1]);
    run(&mut b, |b| attack(b, "Archer", "Hero"));
    assert!(matches!(b.awaiting(), Awaiting::Decision(_)));
    run(&mut b, |b| paid(b, "Hero", "Stand", "BA"));
    assert!(!has(&b, "Hero", "Prone"));
    end(&mut b, "Archer");
    assert_eq!(actions(&b, "Hero"), (1, 1, 1));
    all_dice_used(&b);
}

/// W-32 / W-GAP-23: a Summoned unit has summoning sickness in round 1: its turn
/// passes, it is flat-footed (hit on 5) and makes no free hits; from round 2 it acts
/// and defends normally.
#[test]
fn w_32_w_gap_23_summoning_sickness_in_round_1() {
    let l = level(
        (8, 4),
        &[],
        vec![
            with(
                armed(
                    wu("Imp", "Heroes", (2, 1), 5, 0, 10),
                    vec![weapon("Dagger")],
                ),
                &["Summoned"],
            ),
            wu("Mage", "Heroes", (0, 3), 0, 0, 20),
            armed(wu("Orc", "Foes", (3, 1), 1, 1, 20), vec![weapon("Dagger")]),
        ],
    );
    // Round 1: the Orc hits the Imp: 3 + 1 + 1 = 5 vs 5; d4 1. Round 2: 2 + 2 = 4
    // vs 15.
    let mut b = battle(&l, &[3, 1, 2]);
    assert!(
        told(b.events()).iter().any(|e| matches!(
            e,
            WoundsEvent::CannotAct { why, .. } if why.contains("summoning sickness")
        )),
        "the Imp's turn passed"
    );
    assert_eq!(active(&b).as_deref(), Some("Orc"));
    assert!(has(&b, "Imp", "Summoning sickness"));
    let events = run(&mut b, |b| attack(b, "Orc", "Imp"));
    assert_eq!(
        (rolls(&events)[0].target, rolls(&events)[0].outcome.as_str()),
        (Some(5), "hit")
    );
    let events = run(&mut b, |b| mv(b, "Orc", &[(4, 1)]));
    assert!(rolls(&events).is_empty(), "no free hit from a sick summon");
    assert!(
        !told(&events)
            .iter()
            .any(|e| matches!(e, WoundsEvent::NoSlot { .. })),
        "{events:?}"
    );
    end(&mut b, "Orc");
    end(&mut b, "Mage");
    assert_eq!(active(&b).as_deref(), Some("Imp"), "round 2: it acts");
    assert!(!has(&b, "Imp", "Summoning sickness"));
    end(&mut b, "Imp");
    run(&mut b, |b| mv(b, "Orc", &[(3, 1)]));
    let events = run(&mut b, |b| attack(b, "Orc", "Imp"));
    assert_eq!(rolls(&events)[0].target, Some(15));
    all_dice_used(&b);
}

/// W-32 / W-GAP-23: the level check refuses more Summoned units on a side than its
/// summoners' summoning slots (Level each, +2 with Legion leader), naming the side
/// and the Summoned unit that is one too many.
#[test]
fn w_32_summons_must_fit_the_summoning_slots() {
    let summons = |mage: UnitDef| {
        level(
            (8, 4),
            &[],
            vec![
                mage,
                with(wu("Imp", "Heroes", (2, 1), 5, 0, 10), &["Summoned"]),
                with(wu("Wisp", "Heroes", (2, 2), 5, 0, 10), &["Summoned"]),
                wu("Orc", "Foes", (7, 1), 1, 1, 20),
            ],
        )
    };
    let issues = |l: &Level| -> Vec<String> {
        skirmish::level::validate::validate(l)
            .into_iter()
            .map(|i| i.message)
            .collect()
    };
    let found = issues(&summons(wu("Mage", "Heroes", (0, 3), 0, 0, 20)));
    assert_eq!(
        found,
        [
            "unit `Wisp` is one Summoned unit too many for side `Heroes`: it has 2 \
             Summoned units but its summoners have 1 summoning slots (Level each, +2 with \
             Legion leader, W-32)"
        ]
    );
    let leader = with(wu("Mage", "Heroes", (0, 3), 0, 0, 20), &["Legion leader"]);
    assert!(issues(&summons(leader)).is_empty());
    let level2 = stat(wu("Mage", "Heroes", (0, 3), 0, 0, 20), "Level", 2);
    assert!(issues(&summons(level2)).is_empty());
}

/// W-32: `skirmish check` on a level whose side has more Summoned units than
/// summoning slots points at the extra Summoned unit's entry (FILE:LINE:COL), not
/// at the level's `name:`; the Foes' one Summoned unit fits its Orc's slot.
#[test]
fn w_32_check_points_at_the_extra_summoned_unit() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("wounds-summons");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join("summons.ron");
    std::fs::write(
        &path,
        r#"(
    name: "Too many imps",
    ruleset: "wounds",
    grid: Square,
    size: (8, 4),
    sides: [(name: "Heroes", traits: ["PCs"]), (name: "Foes", traits: ["Enemies"])],
    units: [
        (name: "Mage", side: "Heroes", pos: (0, 3), stats: {"Agility": 0, "Accuracy": 0, "Strength": 0}),
        (name: "Imp", side: "Heroes", pos: (2, 1), stats: {"Agility": 0, "Accuracy": 0, "Strength": 0}, traits: ["Summoned"]),
        (name: "Wisp", side: "Heroes", pos: (2, 2), stats: {"Agility": 0, "Accuracy": 0, "Strength": 0}, traits: ["Summoned"]),
        (name: "Orc", side: "Foes", pos: (7, 1), stats: {"Agility": 0, "Accuracy": 0, "Strength": 0}),
        (name: "Ghoul", side: "Foes", pos: (7, 2), stats: {"Agility": 0, "Accuracy": 0, "Strength": 0}, traits: ["Summoned"]),
    ],
)
"#,
    )
    .expect("write level");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .arg("check")
        .arg(&path)
        .output()
        .expect("run skirmish check");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let file = path.display().to_string();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [format!(
            "{file}:10:9: unit `Wisp` is one Summoned unit too many for side `Heroes`: it \
                 has 2 Summoned units but its summoners have 1 summoning slots (Level each, \
                 +2 with Legion leader, W-32)"
        ),],
        "{stdout}"
    );
}

/// W-33 / W-12 / W-GAP-07: a `Cast 3` spell takes the turn's Attack and Move
/// Actions and is channeled: the caster is flat-footed (unless a Battle caster) and
/// can't move or attack until it goes off with the first action of its next turn.
/// A spell can't be aimed, and costs its MP.
#[test]
fn w_33_a_channeled_spell_goes_off_next_turn() {
    let fireball = spell("Fireball", "2d6", &["Cast 3", "MP 2"]);
    let l = level(
        (8, 4),
        &[],
        vec![
            armed(
                stat(wu("Mage", "Heroes", (0, 1), 3, 2, 20), "MP", 4),
                vec![fireball.clone()],
            ),
            armed(wu("Orc", "Foes", (1, 1), 2, 0, 20), vec![weapon("Dagger")]),
            with(
                armed(
                    stat(wu("Sage", "Heroes", (0, 2), 1, 2, 20), "MP", 2),
                    vec![fireball],
                ),
                &["Battle caster"],
            ),
        ],
    );
    let faces = [
        4, 1, // round 1: the Orc hits the channeling Mage: 4 + 1 = 5 vs 5
        10, 3, 4, // round 2: the Mage's Fireball: 10 + 2 = 12 vs 12; 2d6 7
        2, // the Orc on the Sage, a Battle caster: 2 + 1 = 3 vs 11
        10, 1, 1, // the Sage's Fireball: 12 vs 12; 2d6 2
    ];
    let mut b = battle(&l, &faces);
    let err = refusal(
        &b,
        &with_power(&b, "Mage", "Orc", "Fireball", Some("Slowing")),
    );
    assert!(
        err.contains("Fireball is a spell: only physical attacks aim"),
        "{err}"
    );
    let events = run(&mut b, |b| attack(b, "Mage", "Orc"));
    assert!(rolls(&events).is_empty(), "nothing is cast yet: {events:?}");
    assert!(has(&b, "Mage", "Channeling"));
    assert_eq!(actions(&b, "Mage"), (0, 0, 2));
    assert_eq!(pool(&b, "Mage", "MP"), Some(2));
    let err = refusal(&b, &mv(&b, "Mage", &[(0, 0)]));
    assert!(err.contains("Mage is channeling Fireball"), "{err}");
    end(&mut b, "Mage");
    let events = run(&mut b, |b| attack(b, "Orc", "Mage"));
    assert_eq!(
        rolls(&events)[0].target,
        Some(5),
        "flat-footed while channeling"
    );
    end(&mut b, "Orc");
    run(&mut b, |b| attack(b, "Sage", "Orc"));
    assert!(has(&b, "Sage", "Channeling"));
    assert_eq!(pool(&b, "Sage", "MP"), None, "no MP left");
    let events = end(&mut b, "Sage");
    // Round 2: the Mage's spell goes off as its turn starts.
    let r = rolls(&events);
    assert_eq!(r[0].purpose, "an attack with Fireball", "{r:?}");
    assert_eq!((r[0].total, r[0].target), (12, Some(12)));
    assert_eq!(damage_to(&events, id(&b, "Orc")), [7]);
    assert!(!has(&b, "Mage", "Channeling"));
    assert_eq!(
        actions(&b, "Mage"),
        (0, 1, 2),
        "the spell took the Attack Action"
    );
    end(&mut b, "Mage");
    let events = run(&mut b, |b| attack(b, "Orc", "Sage"));
    assert_eq!(rolls(&events)[0].target, Some(11), "a Battle caster dodges");
    let events = end(&mut b, "Orc");
    assert_eq!(damage_to(&events, id(&b, "Orc")), [2]);
    assert_eq!(hp(&b, "Orc"), 20 - 7 - 2);
    let err = refusal(&b, &attack(&b, "Sage", "Orc"));
    assert!(err.contains("Fireball costs 2 MP; Sage has 0"), "{err}");
    all_dice_used(&b);
}

/// W-05: when the battle is over the winners' MP is refilled.
#[test]
fn w_05_the_winners_mp_is_refilled() {
    let l = level(
        (8, 4),
        &[],
        vec![
            armed(
                stat(wu("Mage", "Heroes", (0, 1), 3, 2, 20), "MP", 4),
                vec![spell("Bolt", "1d6", &["Spell", "MP 2"])],
            ),
            wu("Rat", "Foes", (4, 1), 0, 0, 3),
        ],
    );
    let mut b = battle(&l, &[15, 6]);
    run(&mut b, |b| attack(b, "Mage", "Rat"));
    assert_eq!(b.awaiting(), Awaiting::Over(b.side_id("Heroes")));
    assert_eq!(pool(&b, "Mage", "MP"), Some(4));
    all_dice_used(&b);
}

// ------------------------------------------------------------------ refusals

/// Typed refusals of illegal commands, in the game's words: not the unit's turn,
/// an ally or a defeated unit as target, an unknown weapon or aim, out of reach or
/// range, no Attack Action left, an item that is no healing item or is used up.
#[test]
fn illegal_commands_are_refused_in_words() {
    let mut hero = armed(
        wu("Hero", "Heroes", (1, 1), 3, 0, 20),
        vec![weapon("Longsword"), weapon("Shortbow")],
    );
    hero.items = vec![
        potion(1),
        ItemDef {
            name: "Salts".into(),
            uses: 1,
            effect: ItemEffect::Cleanse,
            ap: None,
        },
    ];
    let l = level(
        (20, 4),
        &[],
        vec![
            hero,
            wu("Pal", "Heroes", (1, 2), 2, 0, 20),
            wu("Ogre", "Foes", (4, 1), 0, 0, 20),
            wu("Far", "Foes", (14, 1), -3, 0, 20),
            wu("Rat", "Foes", (2, 1), -1, 0, 1),
        ],
    );
    // The Rat: d20 15 hits, d8 1 kills it. The potion: d6 2.
    let mut b = battle(&l, &[15, 1, 2]);
    let err = b.check(&attack(&b, "Ogre", "Hero")).unwrap_err();
    assert!(
        matches!(err, CommandError::NotYourTurn { .. })
            && err.to_string().contains("it is Hero's turn"),
        "{err}"
    );
    let err = b.check(&attack(&b, "Hero", "Pal")).unwrap_err();
    assert!(
        matches!(err, CommandError::NoSuchTarget(_))
            && err.to_string().contains("Pal is on Hero's side"),
        "{err}"
    );
    let err = b
        .check(&with_power(&b, "Hero", "Ogre", "Halberd", None))
        .unwrap_err();
    assert!(
        matches!(err, CommandError::Unknown { .. }) && err.to_string().contains("Halberd"),
        "{err}"
    );
    let err = refusal(&b, &aimed(&b, "Hero", "Rat", Some("Knees")));
    assert!(
        err.contains("`Knees` is not a place to aim; expected one of Fatal, Slowing"),
        "{err}"
    );
    let err = b
        .check(&with_power(&b, "Hero", "Ogre", "Longsword", None))
        .unwrap_err();
    assert!(
        matches!(err, CommandError::OutOfReach(_))
            && err
                .to_string()
                .contains("Ogre is 3 squares away; Longsword reaches 1"),
        "{err}"
    );
    assert!(
        b.check(&with_power(&b, "Hero", "Ogre", "Shortbow", None))
            .is_ok()
    );
    let err = refusal(&b, &with_power(&b, "Hero", "Far", "Shortbow", None));
    assert!(
        err.contains("Far is 13 squares away; Shortbow reaches 12"),
        "{err}"
    );
    let err = refusal(&b, &act(&b, "Hero", "Tumble", &[]));
    assert!(err.contains("Tumble"), "{err}");
    run(&mut b, |b| attack(b, "Hero", "Rat"));
    assert_eq!(state(&b, "Rat"), PlayState::Down);
    let err = refusal(&b, &attack(&b, "Hero", "Rat"));
    assert!(err.contains("Rat is not in the fight"), "{err}");
    let err = refusal(&b, &paid(&b, "Hero", "Disengage", "AA"));
    assert!(
        err.contains("Hero has not 1 AA left for Disengage"),
        "{err}"
    );
    let salts = Command::ActivateItem {
        unit: id(&b, "Hero"),
        item: "Salts".into(),
        target: None,
    };
    let err = refusal(&b, &salts);
    assert!(err.contains("Salts is not one"), "{err}");
    run(&mut b, |b| use_potion(b, "Hero"));
    let err = refusal(&b, &use_potion(&b, "Hero"));
    assert!(err.contains("Potion is used up"), "{err}");
    assert!(b.check(&act(&b, "Hero", "Surrender", &[])).is_ok());
    all_dice_used(&b);
}

/// W-17 / W-GAP-07 through the generic chooser of attack options (the window's bar
/// and C key, the AI's choice): the five places with their odds and wound chances,
/// Center Mass the default, a spell offered none.
#[test]
fn w_17_the_attack_chooser_offers_the_five_places_with_their_odds() {
    use skirmish::engine::options::{Chosen, best_options, choice_labels, choosable};
    let l = level(
        (8, 4),
        &[],
        vec![
            armed(
                wu("Hero", "Heroes", (1, 1), 3, 2, 20),
                vec![weapon("Longsword")],
            ),
            armed(
                stat(wu("Mage", "Heroes", (0, 2), 1, 2, 20), "MP", 4),
                vec![spell("Bolt", "1d6", &["Spell", "MP 2"])],
            ),
            wu("Ogre", "Foes", (2, 1), 1, 0, 30),
        ],
    );
    let b = new_battle(&l, Dice::seeded(1)).expect("level sets up");
    let (hero, mage, ogre) = (id(&b, "Hero"), id(&b, "Mage"), id(&b, "Ogre"));
    let aim = choosable(b.rules());
    assert_eq!(aim.iter().map(|o| o.name).collect::<Vec<_>>(), ["aim"]);
    let aim = aim[0];

    let previews = b.choice_previews(hero, ogre, None);
    let labels: Vec<&str> = previews.iter().map(|p| p.choice.label.as_str()).collect();
    assert_eq!(
        labels,
        ["Fatal", "Slowing", "Weakening", "Disrupting", "Center Mass"]
    );
    // Center Mass is the attack left unaimed: its preview is the plain one (+1 to
    // hit, W-GAP-07); each other place hits alike, less often, and says its wound.
    let unaimed = b
        .preview_attack(hero, ogre, None)
        .expect("the Hero can attack");
    assert_eq!(previews[4].preview.attack, unaimed);
    assert!(previews[4].choice.default);
    for p in &previews[..4] {
        let place = p.choice.label.as_str();
        assert!(!p.choice.default);
        assert_eq!(p.choice.value, Some(ArgValue::Name(place.into())));
        assert_eq!(p.preview.attack.chance, previews[0].preview.attack.chance);
        assert!(p.preview.attack.chance < unaimed.chance, "{place}");
        assert!(p.preview.attack.roll.contains(&format!("aimed {place}")));
        let (effect, chance) = &p.preview.effects[0];
        assert!(effect.starts_with(&format!("{place} wound: ")), "{effect}");
        assert!(
            *chance > 0.0 && *chance < p.preview.attack.chance,
            "{place}"
        );
    }
    assert_eq!(
        previews[1].preview.effects[0].0,
        "Slowing wound: movement -2, Agility -1"
    );
    assert_eq!(previews[0].preview.effects[1].0, "+16 Fatal damage");

    // The AI aims where the attack is worth most, named even at Center Mass.
    let worth = |place: &str| {
        let options = aim_options(Some(place.into()));
        b.rules()
            .attack_worth(b.world(), hero, ogre, None, &options)
            .expect("the Hero can aim there")
    };
    let best = labels
        .iter()
        .copied()
        .fold(("", f64::MIN), |best, place| {
            if worth(place) > best.1 {
                (place, worth(place))
            } else {
                best
            }
        })
        .0;
    assert_eq!(
        best_options(b.rules(), b.world(), hero, ogre, None),
        aim_options(Some(best.into()))
    );

    // A spell can't aim: Center Mass alone, and the AI names no aim.
    let spell = b.choice_previews(mage, ogre, None);
    assert_eq!(spell.len(), 1);
    assert_eq!(spell[0].choice.label, "Center Mass");
    assert!(best_options(b.rules(), b.world(), mage, ogre, None).is_empty());

    // The window's C key: Center Mass (left out) → Fatal → Slowing …; the attack is
    // made aimed so, a spell unaimed, and back at Center Mass the aim is left out.
    let mut chosen = Chosen::default();
    assert_eq!(chosen.index(aim), 4);
    assert_eq!(
        choice_labels(b.rules(), &Args::new()),
        [("aim", "Center Mass".to_string())]
    );
    assert_eq!(chosen.next(aim), "Fatal");
    assert_eq!(chosen.next(aim), "Slowing");
    let made = chosen.apply(b.rules(), b.world(), Command::attack(hero, ogre, None));
    assert_eq!(made, aimed(&b, "Hero", "Ogre", Some("Slowing")));
    let Command::Attack { options, .. } = &made else {
        panic!("an attack")
    };
    assert_eq!(
        choice_labels(b.rules(), options),
        [("aim", "Slowing".to_string())]
    );
    let bolt = Command::attack(mage, ogre, None);
    assert_eq!(chosen.apply(b.rules(), b.world(), bolt.clone()), bolt);
    for _ in 0..3 {
        chosen.next(aim);
    }
    assert_eq!(chosen.index(aim), 4);
    assert!(chosen.is_empty(), "Center Mass is the aim left out");
    let plain = Command::attack(hero, ogre, None);
    assert_eq!(chosen.apply(b.rules(), b.world(), plain.clone()), plain);
}
