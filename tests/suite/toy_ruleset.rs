//! A toy ruleset written only against the `Ruleset` seam (issue 12): nothing outside
//! this file names it, yet `Battle` plays it, the AI (`random` and `normal`)
//! finishes battles under it, `script` plays its declared verb from a scenario and
//! the window offers that verb. Also the editor form's ruleset queries.
//!
//! Toy rules: units act in roster order, one at a time; a turn is one Walk of up to
//! 3 cells and one attack on an adjacent enemy — a Club (a d6, 3+ hits for 2 damage)
//! or a Jab, the toy's verb (a d6, 5+ hits for 1 damage) — then End Turn. A unit at
//! 0 HP leaves play; last side standing wins.
//!
//! A Jab raises a decision of the toy's own kind: the target's side may brace (the
//! toy's second verb, `Brace(unit: "b1")`: the Jab then hits only on a 6) or take it
//! (`Pass(side: "Blue")`). The AI, `script`, the HUD and the hand-off screen answer
//! and show it from the generic decision alone.
//!
//! A Club takes the toy's own attack option, `wild` (a flag): a wild swing hits
//! only on 4+ but deals 3 (`Attack(unit: "r1", target: "b1", wild: true)`). Being
//! a flag, it is a choice the player makes (the window's chooser offers it off and
//! on, each with the toy's own odds) and the AI makes by the choices' worth.

use std::collections::BTreeMap;

use bevy_app::App;
use bevy_ecs::prelude::*;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use skirmish::ai::{AiPolicy, choose};
use skirmish::engine::battle::{
    Incoming, Pending, Progress, Roster, TurnState, active_units, add_driver, cell_of,
    check_round_limit, check_victory, emit, entity, halted, is_active, name, occupancy_for,
    side_of,
};
use skirmish::engine::board::{Cell, Occupancy};
use skirmish::engine::command::{Command, CommandError, Names};
use skirmish::engine::decision::{DecisionOption, PendingDecision, Pick};
use skirmish::engine::dice::Dice;
use skirmish::engine::event::{Event, Stage};
use skirmish::engine::ruleset::{
    AiHints, ConfigError, LevelSchema, Presentation, Ruleset, RulesetError, StatSpec, TraitOf,
    Vocabulary, side_index, state, unit_basics,
};
use skirmish::engine::ruleset::{
    Assume, AttackOdds, AttackPreview, MovePreview, OptionPreview, TurnOrder,
};
use skirmish::engine::rulesets::new_battle;
use skirmish::engine::rulesets::registry;
use skirmish::engine::units::*;
use skirmish::engine::verb::{ArgKind, ArgSpec, ArgValue, Args, Cost, VerbSpec};
use skirmish::engine::{Awaiting, Battle};
use skirmish::level::schema::{Level, PowerDef};

const WALK: u32 = 3;
const DAMAGE: i32 = 2;
/// A d6 of 3 or more hits.
const HIT_CHANCE: f64 = 4.0 / 6.0;
/// A Jab hits on a d6 of 5 or more, for this much.
const JAB_DAMAGE: i32 = 1;

/// The toy's verbs: `Jab(unit: "r1", target: "b1")` (key J) and the answer to a
/// Jab, `Brace(unit: "b1")`.
const VERBS: &[VerbSpec] = &[
    VerbSpec {
        args: &[ArgSpec::required("target", ArgKind::Unit)],
        target: Some("target"),
        key: Some('j'),
        cost: Some(Cost::new(ATTACK, 1)),
        ..VerbSpec::new(
            "Jab",
            "a quick poke at an adjacent enemy instead of the Club: a d6, 5+ hits for 1",
            &["Jab"],
        )
    },
    VerbSpec::new(
        "Brace",
        "brace against the Jab being made at the unit: it hits only on a 6",
        &["Brace"],
    ),
];

/// The toy's attack option: `wild`, a swing that hits on 4+ for [`WILD_DAMAGE`].
const ATTACK_OPTIONS: &[ArgSpec] = &[ArgSpec::optional("wild", ArgKind::Flag)];
/// What a wild Club deals when it hits.
const WILD_DAMAGE: i32 = 3;
/// A wild Club hits on a d6 of 4 or more.
const WILD_HIT_CHANCE: f64 = 3.0 / 6.0;

/// The toy's attack pool (one a turn).
const ATTACK: Pool = Pool::new("Attack", "attack");

struct Toy;

/// The toy's own state, held by the battle (`engine::ruleset::state`), so that
/// `Battle::fork` copies it with no code here.
#[derive(Clone, Debug, Default)]
struct ToyState {
    /// What the active unit has spent this turn.
    spent: Spent,
    /// The unit whose turn started last this round (`None`: none yet).
    last_turn: Option<UnitId>,
    /// The Jab waiting for the target side's answer: (attacker, target).
    jabbing: Option<(UnitId, UnitId)>,
}

fn toy(world: &World) -> &ToyState {
    state::state(world)
}

fn toy_mut(world: &mut World) -> &mut ToyState {
    state::state_mut(world)
}

/// Whether the active unit has walked / attacked this turn.
#[derive(Clone, Copy, Debug, Default)]
struct Spent {
    walked: bool,
    attacked: bool,
}

impl Ruleset for Toy {
    fn id(&self) -> &'static str {
        "toy"
    }

    fn stats(&self) -> &'static [StatSpec] {
        &[StatSpec {
            name: "HP",
            required: true,
            about: "hit points",
            min: 1,
            max: 1000,
        }]
    }

    fn check_overrides(&self, o: &BTreeMap<String, ron::Value>) -> Result<(), RulesetError> {
        o.keys().next().map_or(Ok(()), |k| {
            let problem = ConfigError::new(k, format!("toy has no constant `{k}`"));
            Err(RulesetError::Overrides(vec![problem]))
        })
    }

    /// The toy reads one unit trait, `Sturdy`, and the side traits `Home` and
    /// `Away`; it refuses any other phrase, naming the ones it reads.
    fn check_trait(&self, of: TraitOf, phrase: &str) -> Result<(), RulesetError> {
        let known = self.trait_examples(of);
        if known.contains(&phrase) {
            Ok(())
        } else {
            Err(RulesetError::Trait(format!(
                "the toy reads no {} trait `{phrase}`; expected one of: {}",
                of.noun(),
                known.join(", ")
            )))
        }
    }

    fn build(&self, app: &mut App) {
        add_driver(app, "toy", drive);
    }

    fn setup(&self, world: &mut World, level: &Level) -> Result<(), RulesetError> {
        let mut roster = Vec::new();
        for (i, def) in level.units.iter().enumerate() {
            let side = side_index(level, def)?;
            let hp = def.stats.get("HP").copied().unwrap_or(4);
            let club = PowerDef {
                name: "Club".into(),
                range: 1,
                ranged: false,
                damage: DAMAGE.to_string(),
                add_tier: false,
                on_hit: vec![],
                damage_type: None,
                traits: Vec::new(),
            };
            roster.push(
                world
                    .spawn((
                        unit_basics(i, def, side, hp),
                        Reach(1),
                        Powers(vec![club]),
                        MovementPowers(vec!["Walk".into()]),
                    ))
                    .id(),
            );
        }
        world.insert_resource(Roster(roster));
        state::insert(world, ToyState::default());
        Ok(())
    }

    fn check(&self, world: &World, command: &Command) -> Result<(), CommandError> {
        if let Some(p) = &world.resource::<Pending>().0 {
            // Only the decision's own answers, which it lists.
            return if p.answers().any(|a| a == command) {
                Ok(())
            } else {
                Err(CommandError::DecisionPending {
                    side: world.side_name(p.side),
                    what: p.about.clone(),
                })
            };
        }
        if matches!(command, Command::Act { verb, .. } if verb == "Brace") {
            return Err(CommandError::Forbidden("nothing to brace against".into()));
        }
        let active = world.resource::<TurnState>().active;
        let unit = command.unit().filter(|&u| Some(u) == active);
        let unit = unit.ok_or_else(|| CommandError::WrongStage("not its turn".into()))?;
        let spent = &toy(world).spent;
        match command {
            Command::EndTurn { .. } => Ok(()),
            Command::Move { power, path, .. } => {
                if power != "Walk" {
                    let (unit, name) = (name(world, unit), power.clone());
                    return Err(CommandError::Unknown {
                        unit,
                        kind: "movement power",
                        name,
                    });
                }
                if spent.walked || path.is_empty() {
                    return Err(CommandError::Forbidden("one Walk a turn".into()));
                }
                let free = occupancy_for(world, unit);
                let board = &world.resource::<skirmish::engine::battle::Map>().0;
                // Through allies, not enemies; never ending on a unit.
                let mut at = cell_of(world, unit);
                for &c in path {
                    let open = board.step_cost(c).is_some() && free(c) != Occupancy::Blocked;
                    if board.distance(at, c) != 1 || !open {
                        return Err(CommandError::PathBlocked(format!("({}, {})", c.x, c.y)));
                    }
                    at = c;
                }
                if free(at) != Occupancy::Free {
                    return Err(CommandError::PathBlocked(
                        "a walk ends on a free cell".into(),
                    ));
                }
                let cost = path.len() as u32;
                if cost > WALK {
                    return Err(CommandError::NotEnoughMovement {
                        cost,
                        budget: WALK,
                        power: power.clone(),
                    });
                }
                Ok(())
            }
            Command::Attack { .. } | Command::Act { .. } => {
                // The battle has checked an `Act` against `VERBS`: a Jab with a target.
                let (target, club) = match command {
                    Command::Attack { target, power, .. } => {
                        (*target, power.as_deref().is_none_or(|p| p == "Club"))
                    }
                    Command::Act { args, .. } => (args.unit("target").unwrap_or(unit), true),
                    _ => (unit, false),
                };
                if spent.attacked || !club {
                    return Err(CommandError::Forbidden("one attack a turn".into()));
                }
                let target = &target;
                let d = world
                    .resource::<skirmish::engine::battle::Map>()
                    .0
                    .distance(cell_of(world, unit), cell_of(world, *target));
                if !is_active(world, *target)
                    || side_of(world, *target) == side_of(world, unit)
                    || d > 1
                {
                    return Err(CommandError::OutOfReach("an adjacent enemy".into()));
                }
                Ok(())
            }
            _ => Err(CommandError::Forbidden("toy has no such command".into())),
        }
    }

    fn attack_options(&self) -> &'static [ArgSpec] {
        ATTACK_OPTIONS
    }

    fn legal(&self, world: &World) -> Vec<Command> {
        if let Some(p) = &world.resource::<Pending>().0 {
            return p.answers().cloned().collect();
        }
        let Some(unit) = world.resource::<TurnState>().active else {
            return Vec::new();
        };
        let board = &world.resource::<skirmish::engine::battle::Map>().0;
        let mut out = vec![Command::EndTurn { unit }];
        for c in board.neighbors(cell_of(world, unit)) {
            out.push(Command::move_along(unit, "Walk", vec![c]));
        }
        for target in active_units(world) {
            out.push(Command::attack(unit, target, None));
            out.push(jab(unit, target));
        }
        out.retain(|c| self.check(world, c).is_ok());
        out
    }

    fn preview_attack(
        &self,
        w: &World,
        a: UnitId,
        t: UnitId,
        p: Option<&str>,
    ) -> Option<AttackPreview> {
        let odds = self.attack_odds(w, a, t, p, Assume::default())?;
        Some(AttackPreview {
            chance: odds.chance,
            expected_damage: odds.expected_damage,
            kill_chance: odds.kill_chance,
            modifiers: vec![],
            roll: "1d6 vs 3".into(),
        })
    }

    /// A wild Club's odds: hits on 4+ for [`WILD_DAMAGE`].
    fn preview_attack_with(
        &self,
        w: &World,
        a: UnitId,
        t: UnitId,
        p: Option<&str>,
        options: &Args,
    ) -> Option<OptionPreview> {
        let mut attack = self.preview_attack(w, a, t, p)?;
        if options.flag("wild") {
            let hp = w.get::<Health>(entity(w, t))?.hp;
            attack.chance = WILD_HIT_CHANCE;
            attack.expected_damage = WILD_HIT_CHANCE * f64::from(WILD_DAMAGE);
            attack.kill_chance = if hp <= WILD_DAMAGE {
                WILD_HIT_CHANCE
            } else {
                0.0
            };
            attack.roll = "1d6 vs 4".into();
        }
        Some(OptionPreview {
            attack,
            effects: Vec::new(),
        })
    }
    fn attack_odds(
        &self,
        w: &World,
        _: UnitId,
        t: UnitId,
        _: Option<&str>,
        _: Assume<'_>,
    ) -> Option<AttackOdds> {
        let hp = w.get::<Health>(entity(w, t))?.hp;
        Some(AttackOdds {
            chance: HIT_CHANCE,
            expected_damage: HIT_CHANCE * f64::from(DAMAGE),
            kill_chance: if hp <= DAMAGE { HIT_CHANCE } else { 0.0 },
        })
    }

    fn preview_move(&self, _: &World, _: UnitId, _: &str, path: &[Cell]) -> MovePreview {
        MovePreview {
            cost: path.len() as u32,
            ..MovePreview::default()
        }
    }

    fn stage_name(&self, _: Stage) -> &'static str {
        "Toy turn"
    }

    fn turn_order(&self, world: &World) -> Vec<TurnOrder> {
        vec![("Roster".into(), active_units(world))]
    }

    fn pools(&self, world: &World, _: UnitId) -> Vec<(String, i32)> {
        let s = &toy(world).spent;
        vec![
            ("Walk".into(), i32::from(!s.walked)),
            ("Attack".into(), i32::from(!s.attacked)),
        ]
    }
}

impl Vocabulary for Toy {
    fn verbs(&self) -> &'static [VerbSpec] {
        VERBS
    }
}

impl LevelSchema for Toy {
    fn trait_examples(&self, of: TraitOf) -> &'static [&'static str] {
        of.pick(&["Sturdy"], &["Home", "Away"])
    }
}

impl Presentation for Toy {}

impl AiHints for Toy {}

/// The whole toy rule set: start turns in roster order, execute the incoming command.
fn drive(world: &mut World) {
    if halted(world) {
        return;
    }
    let Some(unit) = world.resource::<TurnState>().active else {
        // The next unit in play after the last one; after the last, a new round.
        let units = active_units(world);
        let last = toy(world).last_turn;
        let next = match last.and_then(|a| units.iter().copied().find(|&u| u > a)) {
            Some(u) => u,
            None => {
                let round = world.resource::<TurnState>().round;
                if units.is_empty() || (round > 0 && check_round_limit(world)) {
                    return;
                }
                emit(world, Event::RoundStarted { round: round + 1 });
                emit(
                    world,
                    Event::StageStarted {
                        stage: Stage::Attack,
                    },
                );
                units[0]
            }
        };
        toy_mut(world).last_turn = Some(next);
        toy_mut(world).spent = Spent::default();
        emit(
            world,
            Event::TurnStarted {
                unit: next,
                stage: Stage::Attack,
            },
        );
        return;
    };
    if world.resource::<Pending>().0.is_some() {
        // The answer to the Jab: Brace or Pass.
        let Some(answer) = world.resource_mut::<Incoming>().0.take() else {
            return;
        };
        world.resource_mut::<Pending>().0 = None;
        let braced = matches!(answer, Command::Act { .. });
        if let Some((attacker, target)) = toy_mut(world).jabbing.take() {
            strike(
                world,
                attacker,
                target,
                if braced { 6 } else { 5 },
                JAB_DAMAGE,
            );
        }
        return;
    }
    let Some(command) = world.resource_mut::<Incoming>().0.take() else {
        return;
    };
    match command {
        Command::Move { path, .. } => {
            toy_mut(world).spent.walked = true;
            for to in path {
                let from = cell_of(world, unit);
                emit(
                    world,
                    Event::Moved {
                        unit,
                        from,
                        to,
                        cost: 1,
                    },
                );
            }
        }
        Command::Act { args, .. } => {
            // A Jab: the target's side decides whether to brace first.
            toy_mut(world).spent.attacked = true;
            let target = args.unit("target").unwrap_or(unit);
            toy_mut(world).jabbing = Some((unit, target));
            let decision = brace_decision(world, unit, target);
            world.resource_mut::<Pending>().0 = Some(decision);
            world.resource_mut::<Progress>().0 = true;
        }
        Command::Attack {
            target, options, ..
        } => {
            toy_mut(world).spent.attacked = true;
            if options.flag("wild") {
                strike(world, unit, target, 4, WILD_DAMAGE);
            } else {
                strike(world, unit, target, 3, DAMAGE);
            }
        }
        _ => emit(world, Event::TurnEnded { unit }),
    }
}

/// Rolls a d6 for `attacker`'s attack on `target`: `hits_on` or more deals `damage`.
fn strike(world: &mut World, attacker: UnitId, target: UnitId, hits_on: u32, damage: i32) {
    let face = match world.resource_mut::<Dice>().roll(6) {
        Ok(f) => f,
        Err(e) => {
            world.resource_mut::<skirmish::engine::battle::Fault>().0 = Some(e.into());
            return;
        }
    };
    // The toy has no roll event of its own: the core's generic one tells it.
    let hit = face >= hits_on;
    let purpose = if damage == JAB_DAMAGE { "Jab" } else { "Club" };
    emit(
        world,
        Event::Rolled {
            unit: attacker,
            purpose: purpose.into(),
            dice: "1d6".into(),
            faces: vec![face],
            kept: vec![face],
            modifiers: vec![],
            total: face as i32,
            target: Some(hits_on as i32),
            against: Some(target),
            outcome: if hit { "hit" } else { "miss" }.into(),
        },
    );
    if !hit {
        return;
    }
    let hp = world
        .get::<Health>(entity(world, target))
        .map_or(0, |h| h.hp)
        - damage;
    emit(
        world,
        Event::Damaged {
            unit: target,
            faces: vec![face],
            amount: damage,
            hp,
            source: Some(attacker),
        },
    );
    if hp <= 0 {
        emit(
            world,
            Event::Defeated {
                unit: target,
                state: PlayState::Down,
                cause: Some(skirmish::engine::event::LeaveCause::Damage),
                by: Some(attacker),
            },
        );
        check_victory(world);
    }
}

/// The toy's own kind of decision: whether `target` braces against `attacker`'s
/// Jab. Bracing is worth the damage it saves on average: (2/6 − 1/6) × 1.
fn brace_decision(world: &World, attacker: UnitId, target: UnitId) -> PendingDecision {
    let side = side_of(world, target);
    let (a, t) = (name(world, attacker), name(world, target));
    let brace = Command::Act {
        unit: target,
        verb: "Brace".into(),
        args: Args::new(),
    };
    PendingDecision {
        side,
        prompt: format!("{a} jabs at {t}. Brace? A braced unit is hit only on a 6."),
        about: format!("decide whether {t} braces against {a}'s Jab"),
        pick: Pick::One,
        options: vec![
            DecisionOption::new(brace, format!("{t} braces"))
                .chance(5.0 / 6.0)
                .value(f64::from(JAB_DAMAGE) / 6.0),
        ],
        decline: Some(DecisionOption::new(Command::Pass { side }, "Take it")),
        lookahead: false,
    }
}

/// `unit` jabs `target`.
fn jab(unit: UnitId, target: UnitId) -> Command {
    Command::Act {
        unit,
        verb: "Jab".into(),
        args: Args::new().with("target", ArgValue::Unit(target)),
    }
}

static TOY: Toy = Toy;

/// Two sides of two toy units on an open 6×4 square map.
fn level() -> Level {
    ron::from_str(
        r#"(
            name: "Toy skirmish", ruleset: "toy", grid: Square, size: (6, 4),
            sides: [(name: "Red"), (name: "Blue")],
            units: [
                (name: "r1", side: "Red", pos: (0, 0), stats: {"HP": 4}),
                (name: "r2", side: "Red", pos: (0, 3), stats: {"HP": 4}),
                (name: "b1", side: "Blue", pos: (5, 0), stats: {"HP": 4}),
                (name: "b2", side: "Blue", pos: (5, 3), stats: {"HP": 4}),
            ],
            victory: (max_rounds: Some(40)),
        )"#,
    )
    .expect("the toy level parses")
}

fn toy_battle(dice: Dice) -> Battle {
    Battle::from_level_with(&TOY, &level(), dice).expect("the toy ruleset sets up")
}

#[test]
fn battle_plays_a_ruleset_it_does_not_know_through_the_seam() {
    // r1 walks toward b1, waits a round, steps next to it and clubs it (face 5: a hit).
    let mut battle = toy_battle(Dice::scripted([5]));
    assert_eq!(battle.ruleset(), "toy");
    assert_eq!(battle.rules().id(), "toy");
    assert_eq!(battle.stage_name(Stage::Attack), "Toy turn");
    let (r1, b1) = (battle.unit_id("r1").unwrap(), battle.unit_id("b1").unwrap());
    assert_eq!(battle.awaiting(), Awaiting::Unit(r1, Stage::Attack));
    let path = vec![Cell::new(1, 0), Cell::new(2, 0), Cell::new(3, 0)];
    let too_far = [path.clone(), vec![Cell::new(4, 0)]].concat();
    let walk = |path: Vec<Cell>| Command::move_along(r1, "Walk", path);
    assert!(matches!(
        battle.check(&walk(too_far)),
        Err(CommandError::NotEnoughMovement {
            cost: 4,
            budget: 3,
            ..
        })
    ));
    assert_eq!(battle.preview_move(r1, "Walk", &path).cost, 3);
    battle.submit(walk(path)).unwrap();
    assert_eq!(
        battle.pools(r1),
        [("Walk".to_string(), 0), ("Attack".to_string(), 1)]
    );
    // b1 stands at (5, 0): still out of reach.
    let club = Command::attack(r1, b1, None);
    assert!(matches!(
        battle.check(&club),
        Err(CommandError::OutOfReach(_))
    ));
    battle.submit(Command::EndTurn { unit: r1 }).unwrap();
    // r2's, b1's and b2's turns: they wait.
    for name in ["r2", "b1", "b2"] {
        let u = battle.unit_id(name).unwrap();
        assert_eq!(
            battle.awaiting(),
            Awaiting::Unit(u, Stage::Attack),
            "{name}"
        );
        battle.submit(Command::EndTurn { unit: u }).unwrap();
    }
    // Round 2: r1 again; one more step brings b1 into reach.
    assert_eq!(battle.turn().round, 2);
    battle.submit(walk(vec![Cell::new(4, 0)])).unwrap();
    let odds = battle.attack_odds(r1, b1, None, Assume::default()).unwrap();
    assert_eq!((odds.chance, odds.kill_chance), (HIT_CHANCE, 0.0));
    let events = battle.submit(club).unwrap().to_vec();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Damaged { unit, hp: 2, .. } if *unit == b1))
    );
    // A verb the toy does not declare is refused, naming its actions.
    let defend = Command::Act {
        unit: r1,
        verb: "Defend".into(),
        args: Default::default(),
    };
    assert!(battle.check(&defend).is_err());
}

#[test]
fn the_ai_finishes_toy_battles_with_every_policy() {
    for policy in [AiPolicy::Random, AiPolicy::Normal] {
        for seed in 0..3 {
            let mut battle = toy_battle(Dice::seeded(seed));
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut steps = 0;
            while let Some(command) = choose(&battle, policy, &mut rng) {
                battle.submit(command).expect("the AI's command is legal");
                steps += 1;
                assert!(steps < 5_000, "{policy:?} seed {seed}: no end in sight");
            }
            let Awaiting::Over(winner) = battle.awaiting() else {
                panic!("{policy:?} seed {seed}: the AI stopped before the end");
            };
            if policy == AiPolicy::Normal {
                // The normal AI walks up and clubs: someone wins before the round limit.
                assert!(winner.is_some(), "seed {seed}: a draw");
            }
        }
    }
}

/// A toy battle between two `random` AIs (which jab, as `normal` doesn't) after `n` commands (`None` if it ended
/// before).
fn toy_after(n: usize) -> Option<Battle> {
    let mut battle = toy_battle(Dice::seeded(4));
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for _ in 0..n {
        let c = choose(&battle, AiPolicy::Random, &mut rng)?;
        battle.submit(c).unwrap();
    }
    Some(battle)
}

/// Plays `n` commands of `random` with a generator seeded `seed`.
fn play_toy(battle: &mut Battle, seed: u64, n: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..n {
        let Some(c) = choose(battle, AiPolicy::Random, &mut rng) else {
            break;
        };
        battle.submit(c).expect("the AI's command is legal");
    }
}

/// The toy keeps its bookkeeping (what the active unit spent, whose turn was last,
/// the Jab waiting for its answer) in its state only, with no fork code: a fork
/// taken after any command of a battle — mid-turn, or with a Jab waiting for the
/// brace decision — and a scratch battle restored from it play on exactly as the
/// source does under the same dice and commands.
#[test]
fn a_fork_of_a_toy_battle_plays_on_as_its_source_does() {
    let mut scratch = toy_battle(Dice::seeded(0));
    let (mut forks, mut mid_jab) = (0, 0);
    for at in 0..150 {
        let Some(mut source) = toy_after(at) else {
            break;
        };
        if matches!(source.awaiting(), Awaiting::Over(_)) {
            break;
        }
        forks += 1;
        mid_jab += usize::from(matches!(source.awaiting(), Awaiting::Decision(_)));
        let mut fork = source.fork(Dice::seeded(77));
        scratch.restore_from(&source, Dice::seeded(77));
        source.set_dice(Dice::seeded(77));
        for b in [&mut source, &mut fork, &mut scratch] {
            play_toy(b, at as u64, 12);
        }
        assert_eq!(fork.events(), source.events(), "forked after {at} commands");
        assert_eq!(scratch.events(), source.events(), "restored after {at}");
    }
    assert!(forks > 20, "the battle lasts long enough to fork often");
    assert!(
        mid_jab > 0,
        "some fork is taken with a Jab waiting for its answer"
    );
}

#[test]
fn the_registry_lists_the_builtins_and_only_finds_a_toy_once_registered() {
    // Not registered: this test binary shares the registry with every other test.
    assert!(registry::get("toy").is_none());
    assert_eq!(registry::ids()[..2], ["phases", "flow"]);
    let err = new_battle(&level(), Dice::seeded(1)).err().unwrap();
    assert!(
        err.starts_with("unknown ruleset `toy`; expected one of: phases, flow"),
        "{err}"
    );
}

#[test]
fn editor_forms_come_from_each_ruleset() {
    use skirmish::editor::{skill_form, stat_form, unit_extras};
    // phases: a blank unit gets ATK +2, DEF 11, Tier 1.
    let form = stat_form("phases");
    let names: Vec<_> = form.iter().map(|f| f.name).collect();
    assert_eq!(names, ["INT", "AGI", "ATK", "DEF", "Tier", "HP", "Speed"]);
    let default = |n: &str| form.iter().find(|f| f.name == n).and_then(|f| f.default);
    assert_eq!(
        ["INT", "ATK", "DEF", "Tier", "HP"].map(default),
        [Some(0), Some(2), Some(11), Some(1), None]
    );
    assert!(skill_form("phases").is_empty() && !unit_extras("phases"));
    // flow: skills, size and weapons.
    assert!(skill_form("flow").contains(&"Deception") && unit_extras("flow"));
    assert_eq!(stat_form("flow")[0].name, "AgiMod");
}

#[test]
fn traits_are_checked_by_the_ruleset_that_reads_them_and_offered_with_its_examples() {
    use skirmish::editor::trait_hint_of;
    use skirmish::level::validate::{Where, trait_issues};
    let mut level = level();
    level.sides[0].traits = vec!["Home".into()];
    level.sides[1].traits = vec!["Away".into(), "Lost".into()];
    level.units[0].traits = vec!["Sturdy".into()];
    level.units[2].traits = vec!["Sturdy".into(), "Fast".into(), String::new()];
    let issues: Vec<(Where, String)> = trait_issues(&TOY, &level)
        .into_iter()
        .map(|i| (i.at, i.message))
        .collect();
    assert_eq!(
        issues,
        [
            (
                Where::SideTrait { side: 1, index: 1 },
                "side `Blue` trait `Lost`: the toy reads no side trait `Lost`; expected one \
                 of: Home, Away"
                    .to_string()
            ),
            (
                Where::UnitTrait { unit: 2, index: 1 },
                "unit `b1` trait `Fast`: the toy reads no unit trait `Fast`; expected one of: \
                 Sturdy"
                    .to_string()
            ),
            (
                Where::UnitTrait { unit: 2, index: 2 },
                "unit `b1` has an empty trait; expected a phrase, e.g. Sturdy".to_string()
            ),
        ]
    );
    // The editor's traits fields show the ruleset's examples as their hint.
    assert_eq!(
        trait_hint_of(&TOY, TraitOf::Unit).as_deref(),
        Some("e.g. Sturdy")
    );
    assert_eq!(
        trait_hint_of(&TOY, TraitOf::Side).as_deref(),
        Some("e.g. Home, Away")
    );
    // The battle plays the level whatever its traits.
    Battle::from_level_with(&TOY, &level, Dice::seeded(1)).expect("the toy sets up");
}

#[test]
fn a_ruleset_without_archetypes_refuses_them_with_a_typed_error() {
    use skirmish::engine::archetype;
    let knight = &archetype::all()[0];
    let refused = TOY
        .realize_archetype(knight, 1)
        .expect_err("the toy realizes no archetypes");
    assert_eq!(refused, RulesetError::NoArchetypes { ruleset: "toy" });
    assert_eq!(refused.to_string(), "ruleset `toy` realizes no archetypes");
    // A built-in ruleset realizes the same archetype.
    let phases = registry::get("phases").expect("phases is built in");
    assert!(phases.realize_archetype(knight, 1).is_ok());
}

/// r1 and b1 side by side, 2 HP each.
const DUEL: &str = r#"(name: "Toy duel", ruleset: "toy", grid: Square, size: (4, 1),
        sides: [(name: "Red"), (name: "Blue")],
        units: [
            (name: "r1", side: "Red", pos: (1, 0), stats: {"HP": 2}),
            (name: "b1", side: "Blue", pos: (2, 0), stats: {"HP": 2}),
        ])"#;

fn duel(dice: Dice) -> Battle {
    let level: Level = ron::from_str(DUEL).expect("the duel parses");
    Battle::from_level_with(&TOY, &level, dice).expect("the toy ruleset sets up")
}

#[test]
fn a_declared_verb_plays_through_battle_and_a_malformed_one_is_refused_by_name() {
    let mut battle = duel(Dice::scripted([6]));
    let (r1, b1) = (battle.unit_id("r1").unwrap(), battle.unit_id("b1").unwrap());
    assert!(battle.legal_commands().contains(&jab(r1, b1)));
    assert_eq!(
        jab(r1, b1).display(&battle),
        r#"Jab(unit: "r1", target: "b1")"#
    );
    let act = |verb: &str, args: Args| Command::Act {
        unit: r1,
        verb: verb.into(),
        args,
    };
    let refused = |command: Command| battle.check(&command).unwrap_err().to_string();
    let target = |v: ArgValue| Args::new().with("target", v);
    assert_eq!(
        refused(act("Poke", Args::new())),
        "`Poke` is not an action of `toy`; its actions are: `Jab`, `Brace`"
    );
    assert_eq!(
        refused(act("Jab", Args::new())),
        "`Jab` needs `target`: a unit's name in quotes, e.g. \"Goblin\""
    );
    assert_eq!(
        refused(act("Jab", target(ArgValue::Cell(Cell::new(2, 0))))),
        "`Jab`'s `target` is a cell; expected a unit's name in quotes, e.g. \"Goblin\""
    );
    assert_eq!(
        refused(act(
            "Jab",
            target(ArgValue::Unit(b1)).with("power", ArgValue::Name("Club".into()))
        )),
        "`Jab` has no argument `power`; its arguments are: `unit`, `target`"
    );
    assert_eq!(
        battle.check(&jab(r1, UnitId(99))),
        Err(CommandError::NoSuchUnit(99))
    );
    // Blue takes the Jab (no brace); a 6 hits: 1 damage; the Jab was the turn's
    // attack.
    battle.submit(jab(r1, b1)).unwrap();
    let blue = side_of(battle.world(), b1);
    let events = battle
        .submit(Command::Pass { side: blue })
        .unwrap()
        .to_vec();
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Damaged { unit, amount: 1, hp: 1, .. } if *unit == b1
    )));
    let club = Command::attack(r1, b1, None);
    assert_eq!(
        battle.check(&club).unwrap_err().to_string(),
        "one attack a turn"
    );
}

/// A scenario of the toy duel with these commands.
fn duel_scenario(commands: &str) -> String {
    duel_scenario_rolling("5, 2, 6", commands)
}

/// [`duel_scenario`] with these dice faces.
fn duel_scenario_rolling(faces: &str, commands: &str) -> String {
    format!(
        "Scenario(\n    level: Inline({DUEL}),\n    dice: Faces([{faces}]),\n    commands: [\n{commands}\n    ],\n)\n"
    )
}

/// Plays a scenario of the duel under the toy, which must check clean and play
/// without error.
fn play_duel(text: &str) -> skirmish::script::Run {
    use skirmish::script::{LevelRef, check_commands, parse, run_with};
    let scenario = parse(text).expect("the scenario parses");
    assert!(check_commands(&scenario, &TOY, text, "duel.ron").is_empty());
    let LevelRef::Inline(level) = &scenario.level else {
        panic!("inline level")
    };
    let run = run_with(&TOY, &scenario, level).expect("the battle sets up");
    assert!(
        run.error.is_none(),
        "{:?}",
        run.error.map(|e| e.to_string())
    );
    run
}

#[test]
fn script_plays_a_declared_verb_of_a_ruleset_it_does_not_know() {
    use skirmish::script::log_lines;
    // Each Jab asks the target's side whether to brace; the scenario answers with
    // the toy's verb or a core Pass.
    let text = duel_scenario(
        r#"        Jab(unit: "r1", target: "b1"),
        Pass(side: "Blue"),
        EndTurn(unit: "r1"),
        Jab(unit: "b1", target: "r1"),
        Brace(unit: "r1"),
        EndTurn(unit: "b1"),
        Jab(unit: "r1", target: "b1"),
        Pass(side: "Blue"),"#,
    );
    let run = play_duel(&text);
    let (r1, b1) = (
        run.battle.unit_id("r1").unwrap(),
        run.battle.unit_id("b1").unwrap(),
    );
    // 5 hits (b1 2 → 1), 2 misses, 6 hits (→ 0): b1 is down and Red wins.
    let events = run.battle.events();
    let damaged: Vec<(UnitId, i32)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Damaged { unit, hp, .. } => Some((*unit, *hp)),
            _ => None,
        })
        .collect();
    assert_eq!(damaged, [(b1, 1), (b1, 0)]);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Rolled { unit, outcome, .. } if *unit == b1 && outcome == "miss"
    )));
    assert_eq!(
        run.battle.awaiting(),
        Awaiting::Over(Some(side_of(run.battle.world(), r1)))
    );
    // Each event is traced to the command that caused it (the answer to the third
    // Jab is #8).
    let last_damage = events
        .iter()
        .rposition(|e| matches!(e, Event::Damaged { .. }));
    assert_eq!(run.caused_by[last_damage.unwrap()], 8);
    // The generic roll event's line, every part named (issue 12: core `Rolled`); r1
    // braced against b1's Jab, so it needed a 6.
    let lines = log_lines(&run.battle);
    assert!(
        lines.contains(&"b1 rolls Jab against r1: 1d6 [2] = 2 vs 6: miss".to_string()),
        "{lines:#?}"
    );
    assert!(lines.contains(&"r1 rolls Jab against b1: 1d6 [6] = 6 vs 5: hit".to_string()));
}

/// The log lines and the target's hit points after `r1`'s Club on `b1` (2 HP) in
/// the duel with these dice faces, written with these options.
fn club(faces: &str, options: &str) -> (Vec<String>, i32) {
    use skirmish::script::log_lines;
    let text = duel_scenario_rolling(
        faces,
        &format!(r#"        Attack(unit: "r1", target: "b1"{options}),"#),
    );
    let run = play_duel(&text);
    let b1 = run.battle.unit_id("b1").unwrap();
    let hp = run
        .battle
        .world()
        .get::<Health>(entity(run.battle.world(), b1))
        .expect("b1 has hit points")
        .hp;
    (log_lines(&run.battle), hp)
}

#[test]
fn a_ruleset_declares_its_own_attack_option_and_the_battle_plays_it() {
    // A 3 hits a plain Club (3+) for 2, but misses a wild one (4+).
    let (lines, hp) = club("3", "");
    assert!(lines.contains(&"r1 rolls Club against b1: 1d6 [3] = 3 vs 3: hit".to_string()));
    assert_eq!(hp, 0);
    let (lines, hp) = club("3", ", wild: true");
    assert!(
        lines.contains(&"r1 rolls Club against b1: 1d6 [3] = 3 vs 4: miss".to_string()),
        "{lines:#?}"
    );
    assert_eq!(hp, 2);
    // A 4 hits a wild Club, for 3 (2 HP less 3).
    let (_, hp) = club("4", ", wild: true");
    assert_eq!(hp, -1);
    // The option is the toy's: another ruleset refuses it by name.
    let level = skirmish::level::load::load_file(std::path::Path::new("levels/ford.ron"))
        .expect("ford loads");
    let phases =
        skirmish::engine::rulesets::new_battle(&level, Dice::seeded(1)).expect("ford sets up");
    let wild = Command::Attack {
        unit: UnitId(0),
        target: UnitId(1),
        power: None,
        options: Args::new().with("wild", ArgValue::Flag(true)),
    };
    let err = phases.check(&wild).expect_err("phases has no wild swing");
    assert!(err.to_string().contains("`wild`"), "{err}");
}

#[test]
fn a_rulesets_own_attack_option_offers_its_choices_with_their_odds() {
    use skirmish::engine::options::{best_options, choice_previews, choosable};
    let battle = duel(Dice::seeded(1));
    let (r1, b1) = (battle.unit_id("r1").unwrap(), battle.unit_id("b1").unwrap());
    // `wild` is a flag: off (the option left out, the default) and on.
    let options: Vec<&str> = choosable(&TOY).iter().map(|o| o.name).collect();
    assert_eq!(options, ["wild"]);
    // Each choice's preview comes from the toy's own preview with it set: a plain
    // Club hits on 3+ for 2, a wild one on 4+ for 3 (b1 has 2 HP: either kills).
    let previews = battle.choice_previews(r1, b1, None);
    assert_eq!(
        previews,
        choice_previews(&TOY, battle.world(), r1, b1, None),
        "the battle's previews are the core's"
    );
    let rows: Vec<(&str, &str, bool, f64, f64, f64)> = previews
        .iter()
        .map(|p| {
            let a = &p.preview.attack;
            (
                p.option,
                p.choice.label.as_str(),
                p.choice.default,
                a.chance,
                a.expected_damage,
                a.kill_chance,
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (
                "wild",
                "off",
                true,
                HIT_CHANCE,
                HIT_CHANCE * 2.0,
                HIT_CHANCE
            ),
            ("wild", "on", false, 0.5, 1.5, 0.5),
        ]
    );
    assert_eq!(previews[0].choice.value, None);
    assert_eq!(previews[1].choice.value, Some(ArgValue::Flag(true)));
    assert_eq!(previews[1].preview.attack.roll, "1d6 vs 4");
    // The AI's choice is the one worth most by default, its expected damage:
    // 1.5 for a wild swing against 1.33.
    let chosen = best_options(&TOY, battle.world(), r1, b1, None);
    assert_eq!(chosen, Args::new().with("wild", ArgValue::Flag(true)));
    // A ruleset whose attacks offer no choice: none, and the AI sets none.
    let level = skirmish::level::load::load_file(std::path::Path::new("levels/ford.ron"))
        .expect("ford loads");
    let phases =
        skirmish::engine::rulesets::new_battle(&level, Dice::seeded(1)).expect("ford sets up");
    assert!(choosable(phases.rules()).is_empty());
    assert!(
        phases
            .choice_previews(UnitId(0), UnitId(1), None)
            .is_empty()
    );
    let none = best_options(phases.rules(), phases.world(), UnitId(0), UnitId(1), None);
    assert!(none.is_empty());
}

#[test]
fn script_reports_a_verbs_mistakes_at_their_place() {
    use skirmish::script::{check_commands, parse};
    let text = duel_scenario(
        r#"        Jab(unit: "r1", traget: "b1"),
        Poke(unit: "r1"),
        Jab(target: "b1"),"#,
    );
    let scenario = parse(&text).expect("the scenario parses");
    let problems: Vec<String> = check_commands(&scenario, &TOY, &text, "duel.ron")
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(
        problems,
        [
            "duel.ron:10:25: `Jab` has no argument `traget`; its arguments are: `unit`, `target`",
            "duel.ron:11:9: unknown command `Poke`; expected one of the commands `Move`, \
             `Attack`, `Use`, `EndTurn`, `Pass` or an action of `toy`: `Jab`, `Brace`",
            "duel.ron:12:9: `Jab` needs `unit`: the unit that acts, a unit's name in quotes, \
             e.g. \"Goblin\"",
        ]
    );
    // A unit name is looked up when the command runs, as for core commands.
    let text = duel_scenario(r#"        Jab(unit: "r1", target: "zz"),"#);
    let scenario = parse(&text).unwrap();
    let skirmish::script::LevelRef::Inline(level) = &scenario.level else {
        panic!("inline level")
    };
    let run = skirmish::script::run_with(&TOY, &scenario, level).unwrap();
    assert_eq!(
        run.error.unwrap().to_string(),
        "command #1 `Jab(unit: \"r1\", target: \"zz\")`: no such target: no unit named `zz` \
         (the battle waits for r1's turn)"
    );
}

#[cfg(feature = "render")]
#[test]
fn the_window_offers_a_declared_verb_as_a_mode_on_its_target() {
    use skirmish::game::choices::{command_label, mode_of, rarely_wanted};
    let battle = duel(Dice::seeded(1));
    let (r1, b1) = (battle.unit_id("r1").unwrap(), battle.unit_id("b1").unwrap());
    let (mode, cell) = mode_of(&battle, &jab(r1, b1)).expect("a target mode");
    assert_eq!((mode.label.as_str(), mode.moves), ("Jab", false));
    assert_eq!(cell, cell_of(battle.world(), b1));
    assert_eq!(command_label(&battle, &jab(r1, b1)), "Jab");
    assert!(!rarely_wanted(&battle, &jab(r1, b1)));
}

#[cfg(feature = "render")]
#[test]
fn a_decision_of_the_toys_own_kind_is_answered_and_shown_with_no_core_code() {
    use skirmish::game::choices::{VerbKey, choices_for, command_label, verb_hint, verb_key};
    use skirmish::game::handoff::handoff_text;
    use skirmish::hotseat::{Handoff, HandoffReason};
    // The 6 would hit a Jab taken; braced, it needs a 6 and still hits.
    let mut battle = duel(Dice::scripted([6]));
    let (r1, b1) = (battle.unit_id("r1").unwrap(), battle.unit_id("b1").unwrap());
    let blue = side_of(battle.world(), b1);
    battle.submit(jab(r1, b1)).unwrap();
    let Awaiting::Decision(d) = battle.awaiting() else {
        panic!("a Jab asks Blue whether to brace")
    };
    let brace = Command::Act {
        unit: b1,
        verb: "Brace".into(),
        args: Args::new(),
    };
    let pass = Command::Pass { side: blue };
    assert_eq!((d.side, d.pick), (blue, Pick::One));
    assert_eq!(battle.legal_commands(), [pass.clone(), brace.clone()]);
    // The window: the option then the decline, labelled with the chance.
    let choices = choices_for(&battle, 0, 0);
    assert_eq!(choices.other, [brace.clone(), pass.clone()]);
    assert_eq!(command_label(&battle, &brace), "b1 braces: 83%");
    assert_eq!(command_label(&battle, &pass), "Take it");
    assert_eq!(
        handoff_text(
            &battle,
            Handoff {
                side: blue,
                reason: HandoffReason::Decision
            }
        )
        .lines()
        .nth(2),
        Some("Blue is asked to decide whether b1 braces against r1's Jab.")
    );
    // `script` lists every answer in scenario syntax.
    assert_eq!(
        skirmish::script::describe_awaiting(&battle),
        "Blue to decide whether b1 braces against r1's Jab: Brace(unit: \"b1\") 83.3%, or \
         Pass(side: \"Blue\") (Take it)"
    );
    // The normal and easy AIs brace (it is worth 1/6 HP); a Club is refused meanwhile.
    for policy in [AiPolicy::Normal, AiPolicy::Easy] {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(
            choose(&battle, policy, &mut rng),
            Some(brace.clone()),
            "{policy:?}"
        );
    }
    let club = Command::attack(r1, b1, None);
    assert!(matches!(
        battle.check(&club),
        Err(CommandError::DecisionPending { .. })
    ));
    let events = battle.submit(brace).unwrap().to_vec();
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Damaged { unit, amount: 1, .. } if *unit == b1
    )));
    // The Jab's key and cost are its declaration's, for the window.
    let battle = duel(Dice::seeded(1));
    assert_eq!(verb_hint(&battle, "Jab"), " (1 attack, key J)");
    let choices = choices_for(&battle, 0, 0);
    let VerbKey::Mode(i) = verb_key(&battle, &choices, 'j') else {
        panic!("J selects the Jab mode")
    };
    assert_eq!(choices.powers[i].label, "Jab");
}

/// Set for the child process of [`the_editor_offers_traits_fields_with_the_rulesets_examples`].
#[cfg(feature = "render")]
const TRAITS_CHILD_ENV: &str = "SKIRMISH_TEST_TOY_TRAITS_CHILD";

/// Not a test on its own: run by
/// [`the_editor_offers_traits_fields_with_the_rulesets_examples`] in a child
/// process, where registering the toy changes no other test's registry.
#[cfg(feature = "render")]
#[test]
fn editor_traits_child() {
    use skirmish::editor::{EditorDoc, load_default_templates};
    use skirmish::game::editor::control::{Typed, act, type_key};
    use skirmish::game::editor::input::EditorAction;
    use skirmish::game::editor::state::{Editor, FormRow, TextTarget};
    use skirmish::level::validate::Where;
    if std::env::var_os(TRAITS_CHILD_ENV).is_none() {
        return;
    }
    registry::register(Box::new(Toy)).expect("the toy registers");
    let typ = |ed: &mut Editor, text: &str| {
        let key = |code, text: Option<String>| Typed { code, text };
        use bevy::input::keyboard::KeyCode;
        for _ in 0..100 {
            type_key(ed, &key(KeyCode::Backspace, None));
        }
        for c in text.chars() {
            type_key(ed, &key(KeyCode::KeyA, Some(c.to_string())));
        }
        type_key(ed, &key(KeyCode::Enter, None));
    };
    let doc = EditorDoc::from_level(level(), None);
    let mut ed = Editor::new(doc, load_default_templates().expect("templates"));
    assert!(ed.problems.is_empty(), "{:#?}", ed.problems);

    // The toy gives unit examples: every unit's form has a traits row, hinted.
    ed.select(Some(2));
    let row = ed.form().iter().position(|r| *r == FormRow::Traits);
    ed.field = row.expect("a traits row for a unit without traits");
    assert_eq!(
        ed.traits_tip(TraitOf::Unit),
        "comma-separated, empty = none; e.g. Sturdy"
    );
    act(&mut ed, EditorAction::EditField);
    assert_eq!(
        ed.typing.as_ref().map(|t| &t.target),
        Some(&TextTarget::UnitTraits(2))
    );
    typ(&mut ed, "Sturdy, Fast");
    assert_eq!(ed.doc.level().units[2].traits, ["Sturdy", "Fast"]);
    // The phrase the toy does not read is a problem at the unit's cell.
    assert_eq!(ed.problems.len(), 1, "{:#?}", ed.problems);
    let p = &ed.problems[0];
    assert_eq!(p.at, Where::UnitTrait { unit: 2, index: 1 });
    assert_eq!(p.cell, Some(Cell::new(5, 0)));
    assert!(p.message.starts_with("unit `b1` trait `Fast`: "), "{p}");

    // And side examples: every side shows a traits field; F3 types the selected one's.
    assert!(ed.side_traits_shown(0) && ed.side_traits_shown(1));
    ed.side = 1;
    act(&mut ed, EditorAction::EditSideTraits);
    assert_eq!(
        ed.status,
        Some((
            "Traits of Blue: comma-separated, empty = none; e.g. Home, Away".to_string(),
            false
        ))
    );
    typ(&mut ed, "Away");
    assert_eq!(ed.doc.level().sides[1].traits, ["Away"]);
    ed.undo();
    assert!(ed.doc.level().sides[1].traits.is_empty());
    println!("editor traits child: checked");
}

#[cfg(feature = "render")]
#[test]
fn the_editor_offers_traits_fields_with_the_rulesets_examples() {
    let exe = std::env::current_exe().expect("test binary");
    let out = std::process::Command::new(exe)
        .args([
            "toy_ruleset::editor_traits_child",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(TRAITS_CHILD_ENV, "1")
        .output()
        .expect("run the child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("editor traits child: checked"),
        "the child did not run:\n{stdout}\n{stderr}"
    );
}
