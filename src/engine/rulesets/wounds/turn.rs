//! `wounds`' rounds and turns (W-01 … W-05, W-16, W-27, W-30, W-33, W-GAP-10,
//! W-GAP-11, W-GAP-16, W-GAP-19, W-GAP-23): [`drive`], the one system (in the
//! `Attack` stage), starts the next turn when none is on, executes the incoming
//! command or takes the answer to a pending decision. The battle's order is fixed
//! in round 1 (ties roll a d20); each round refills the Free Hit Slots; a turn starts
//! with 1 Attack Action, 1 Move Action and 2 Bonus Actions less what its unit spent
//! standing up off-turn, and pays a channeled spell first. The commands pay their
//! actions and run; moves are [`super::movement`], attacks [`super::attack`].

use bevy_ecs::prelude::*;

use super::aim::aim_of;
use super::attack::{Kind, healed, kind_now, make_attack, swing};
use super::economy::{Action, Budget, Slots, Use};
use super::end::{end_turn, surrender};
use super::events::WoundsEvent;
use super::magic::{cast, channel};
use super::movement::{move_plan, path_cost, travel};
use super::state::{
    DASH, TurnBudget, able, agility, fault, has, mods, names, round, rules, w_state, w_state_mut,
    wu, wu_mut,
};
use crate::engine::battle::{
    Sides, TurnState, board_units, check_round_limit, emit, halted, is_active, name, on_board,
    side_of,
};
use crate::engine::command::Command;
use crate::engine::conditions::{
    Condition, Duration, Magnitude, add_condition, end_where, expire_end_of_round,
    expire_turn_start,
};
use crate::engine::dice::{Dice, DiceError};
use crate::engine::event::{Event, Stage};
use crate::engine::units::UnitId;

/// Actions `unit` can still spend from its next turn to stand up now: those its
/// next turn will have (W-30, W-GAP-19).
pub fn next_turn_actions(world: &World, unit: UnitId) -> Vec<Action> {
    let next = next_budget(world, unit);
    [Action::Bonus, Action::Move, Action::Attack]
        .into_iter()
        .filter(|&a| next.left(a) > 0)
        .collect()
}

/// The budget `unit`'s next turn starts with: fresh (its Bonus Actions less its
/// Weakening wounds), less the actions it already spent standing up off-turn
/// (W-01, W-30, W-GAP-19).
pub fn next_budget(world: &World, unit: UnitId) -> Budget {
    let me = wu(world, unit);
    let mut budget = Budget::turn_with(me.bonus_actions, &mods(world, unit));
    for &a in &me.owed {
        budget.take(a);
    }
    budget
}

/// A unit knocked prone off its turn may stand up at once with an action of its
/// next turn (W-30, W-GAP-19): its side is asked (the first option, a Bonus
/// Action, is the automatic answer), unless another question is already waiting.
pub(super) fn offer_stand(world: &mut World, unit: UnitId) {
    if world.resource::<TurnState>().active == Some(unit)
        || !able(world, unit)
        || world
            .resource::<crate::engine::battle::Pending>()
            .0
            .is_some()
    {
        return;
    }
    let side = side_of(world, unit);
    let pays = next_turn_actions(world, unit);
    if pays.is_empty() {
        return;
    }
    let stand = |a: Action| Command::Act {
        unit,
        verb: super::verbs::STAND.into(),
        args: crate::engine::verb::Args::new().with(
            "pay",
            crate::engine::verb::ArgValue::Choice(pay_value(a).into()),
        ),
    };
    match world.resource::<Sides>().0[side.0 as usize].decisions {
        crate::engine::spec::DecisionPolicy::Never => {}
        crate::engine::spec::DecisionPolicy::Auto => stand_off_turn(world, unit, pays[0]),
        crate::engine::spec::DecisionPolicy::Ask => {
            let who = name(world, unit);
            let n = pays.len() as f64;
            let options = pays
                .iter()
                .enumerate()
                .map(|(i, &a)| {
                    crate::engine::decision::DecisionOption::new(
                        stand(a),
                        format!(
                            "{who} stands up with its next turn's {}",
                            actions_text(&[a])
                        ),
                    )
                    .value(n - i as f64)
                })
                .collect();
            world.resource_mut::<crate::engine::battle::Pending>().0 =
                Some(crate::engine::decision::PendingDecision {
                    side,
                    prompt: format!(
                        "{who} is knocked prone. Stand up now with an action of its next turn?"
                    ),
                    about: format!("decide whether {who} stands up off its turn"),
                    pick: crate::engine::decision::Pick::One,
                    options,
                    decline: Some(crate::engine::decision::DecisionOption::new(
                        Command::Pass { side },
                        format!("{who} stays prone"),
                    )),
                    lookahead: false,
                });
            world.resource_mut::<crate::engine::battle::Progress>().0 = true;
        }
    }
}

/// `unit` stands up off its turn, paying `a` from its next turn (W-30, W-GAP-19).
fn stand_off_turn(world: &mut World, unit: UnitId, a: Action) {
    wu_mut(world, unit).owed.push(a);
    emit(
        world,
        WoundsEvent::Spent {
            unit,
            what: "stand up off its turn (from its next turn)".into(),
            actions: actions_text(&[a]),
        },
    );
    end_where(world, unit, "it stood up", |c| c.name == names::PRONE);
}

/// The one system: starts turns and executes commands.
pub fn drive(world: &mut World) {
    if halted(world) {
        return;
    }
    if world
        .resource::<crate::engine::battle::Pending>()
        .0
        .is_some()
    {
        // The questions: a free hit's aim (W-GAP-07), stand up off-turn (W-30).
        let Some(answer) = world
            .resource_mut::<crate::engine::battle::Incoming>()
            .0
            .take()
        else {
            return;
        };
        world.resource_mut::<crate::engine::battle::Pending>().0 = None;
        if super::free_hit::answer(world, &answer) {
            world.resource_mut::<crate::engine::battle::Progress>().0 = true;
            return;
        }
        if let Command::Act { unit, args, .. } = answer
            && let Some(a) = pay_choice(args.choice("pay"))
        {
            stand_off_turn(world, unit, a);
        }
        world.resource_mut::<crate::engine::battle::Progress>().0 = true;
        return;
    }
    let Some(unit) = world.resource::<TurnState>().active else {
        next_turn(world);
        return;
    };
    let Some(command) = world
        .resource_mut::<crate::engine::battle::Incoming>()
        .0
        .take()
    else {
        if !is_active(world, unit) {
            // Defeated on its own turn (a free hit, a fatal blow): its turn is over.
            emit(world, Event::TurnEnded { unit });
        }
        return;
    };
    execute(world, unit, command);
}

/// Starts the next turn in this round's queue; a new round when it is empty.
fn next_turn(world: &mut World) {
    loop {
        let next = {
            let state = &mut w_state_mut(world).round;
            if state.queue.is_empty() {
                None
            } else {
                Some(state.queue.remove(0))
            }
        };
        match next {
            Some(u) if on_board(world, u) => {
                start_turn(world, u);
                return;
            }
            Some(_) => continue,
            None => {
                let r = round(world);
                if r > 0 {
                    expire_end_of_round(world, r);
                    if check_round_limit(world) {
                        return;
                    }
                }
                if !start_round(world) {
                    return;
                }
            }
        }
    }
}

/// Fixes the battle's order at its start (W-02, W-03, W-GAP-10, W-GAP-11): ties
/// roll a d20 each.
fn fix_order(world: &mut World) -> Result<(), DiceError> {
    let units = board_units(world);
    let entrants: Vec<super::initiative::Entrant<UnitId>> = units
        .iter()
        .map(|&u| super::initiative::Entrant {
            unit: u,
            agility: wu(world, u).agility,
            initiator: wu(world, u).initiator,
        })
        .collect();
    let mut rolled: Vec<(UnitId, u32)> = Vec::new();
    let order = {
        let dice = &mut *world.resource_mut::<Dice>();
        super::initiative::order(&entrants, |u| {
            let f = dice.roll(20)?;
            rolled.push((u, f));
            Ok(f)
        })?
    };
    for (unit, face) in rolled {
        emit(world, Event::TieBreakRolled { unit, face });
    }
    emit(
        world,
        WoundsEvent::OrderFixed {
            order: order.clone(),
        },
    );
    let state = &mut w_state_mut(world).round;
    state.order = order;
    state.fixed = true;
    Ok(())
}

/// Starts a round: the battle's order (fixed in round 1), fresh Free Hit Slots from
/// the current Agility (W-05, W-27, W-GAP-16). False when nobody can act.
fn start_round(world: &mut World) -> bool {
    if board_units(world).is_empty() {
        return false;
    }
    if !w_state(world).round.fixed
        && let Err(e) = fix_order(world)
    {
        fault(world, e);
        return false;
    }
    let r = round(world) + 1;
    emit(world, Event::RoundStarted { round: r });
    if r == 1 {
        opening_states(world);
    }
    emit(
        world,
        Event::StageStarted {
            stage: Stage::Attack,
        },
    );
    let config = rules(world).clone();
    let mut slots = Vec::new();
    for u in board_units(world) {
        let s = Slots::new_round(&config, agility(world, u));
        wu_mut(world, u).slots = s;
        slots.push((u, s.left()));
    }
    emit(world, WoundsEvent::Slots { slots });
    let order: Vec<UnitId> = w_state(world)
        .round
        .order
        .iter()
        .copied()
        .filter(|&u| on_board(world, u))
        .collect();
    emit(
        world,
        Event::OrderSet {
            stage: Stage::Attack,
            order: order.clone(),
        },
    );
    w_state_mut(world).round.queue = order;
    true
}

/// Starts `unit`'s turn: a fresh 1 AA, 1 MA and 2 BA less its Weakening wounds;
/// its dodge ends; a summoning-sick unit can't act (W-GAP-23); a channeled spell
/// takes this turn's actions first (W-33).
fn start_turn(world: &mut World, unit: UnitId) {
    wu_mut(world, unit).turns += 1;
    emit(
        world,
        Event::TurnStarted {
            unit,
            stage: Stage::Attack,
        },
    );
    expire_turn_start(world, unit, "its turn started");
    let left = next_budget(world, unit);
    wu_mut(world, unit).owed.clear();
    w_state_mut(world).zone_steps.0.clear();
    w_state_mut(world).turn = TurnBudget {
        left,
        ..Default::default()
    };
    if has(world, unit, names::SICK) {
        emit(
            world,
            WoundsEvent::CannotAct {
                unit,
                why: "summoning sickness (W-GAP-23)".into(),
            },
        );
        emit(world, Event::TurnEnded { unit });
        return;
    }
    super::magic::turn_starts(world, unit);
    if wu(world, unit).channel.is_some() {
        channel(world, unit);
    }
}

/// The text of a set of actions: "1 AA", "1 MA + 2 BA".
pub fn actions_text(payment: &[Action]) -> String {
    let mut parts = Vec::new();
    for (a, label) in [
        (Action::Attack, "AA"),
        (Action::Move, "MA"),
        (Action::Bonus, "BA"),
    ] {
        let n = payment.iter().filter(|&&p| p == a).count();
        if n > 0 {
            parts.push(format!("{n} {label}"));
        }
    }
    parts.join(" + ")
}

/// Spends `mp` of `unit`'s MP (a spell's cost, an upkeep).
pub(super) fn spend_mp(world: &mut World, unit: UnitId, mp: i64) {
    if mp > 0 {
        wu_mut(world, unit).mp -= mp;
    }
}

/// Spends `payment` for `what` and tells it.
pub(super) fn pay(world: &mut World, unit: UnitId, what: Use, payment: &[Action], text: &str) {
    let ok = {
        let t = &mut w_state_mut(world).turn;
        t.acted = true;
        t.left.pay(what, payment).is_ok()
    };
    if ok {
        emit(
            world,
            WoundsEvent::Spent {
                unit,
                what: text.into(),
                actions: actions_text(payment),
            },
        );
    }
}

/// The `pay` choice that names an action (the inverse of [`pay_choice`]).
pub fn pay_value(a: Action) -> &'static str {
    match a {
        Action::Attack => "AA",
        Action::Move => "MA",
        Action::Bonus => "BA",
    }
}

/// The action a `pay` choice names.
pub fn pay_choice(value: Option<&str>) -> Option<Action> {
    match value? {
        "AA" => Some(Action::Attack),
        "MA" => Some(Action::Move),
        "BA" => Some(Action::Bonus),
        _ => None,
    }
}

/// Executes the active unit's command (already checked).
fn execute(world: &mut World, unit: UnitId, command: Command) {
    match command {
        Command::EndTurn { .. } => end_turn(world, unit),
        Command::Move { path, power, .. } => {
            let Some(cost) = path_cost(world, unit, &path) else {
                return;
            };
            let Some((open, more)) = move_plan(world, unit, cost, power == DASH) else {
                return;
            };
            if open {
                pay(world, unit, Use::Move, &[Action::Move], "move");
                w_state_mut(world).turn.opened = true;
            }
            for _ in 0..more {
                pay(
                    world,
                    unit,
                    Use::ExtraMove,
                    &[Action::Bonus],
                    "2 more spaces",
                );
            }
            travel(world, unit, path);
        }
        Command::Attack {
            target,
            power,
            options,
            ..
        } => {
            let kind = kind_now(world, unit);
            let aim = aim_of(&options);
            let Ok(s) = swing(world, unit, target, power.as_deref(), aim, kind) else {
                return;
            };
            if s.header.mp > 0 {
                let left = wu(world, unit).mp - s.header.mp;
                wu_mut(world, unit).mp = left;
            }
            if s.header.spell {
                return cast(world, unit, target, &s.name, s.header.cast);
            }
            match kind {
                Kind::Extra => pay(
                    world,
                    unit,
                    Use::ExtraAttack,
                    &[Action::Move, Action::Bonus, Action::Bonus],
                    "the extra attack",
                ),
                _ => pay(world, unit, Use::Attack, &[Action::Attack], "attack"),
            }
            make_attack(world, unit, target, power.as_deref(), aim, kind);
        }
        Command::ActivateItem { item, .. } => {
            let payment = if w_state(world).turn.left.moves > 0 {
                Action::Move
            } else {
                Action::Attack
            };
            pay(world, unit, Use::PickUp, &[payment], &format!("use {item}"));
            let Some(def) = crate::engine::items::use_item(world, unit, &item) else {
                return;
            };
            if let crate::engine::spec::ItemEffect::Heal(dice) = &def.effect {
                match crate::engine::items::heal(world, unit, dice, &item) {
                    Ok(amount) => healed(world, unit, amount),
                    Err(e) => world.resource_mut::<crate::engine::battle::Fault>().0 = Some(e),
                }
            }
        }
        Command::Act { verb, args, .. } => act(world, unit, &verb, &args),
        _ => {}
    }
}

fn act(world: &mut World, unit: UnitId, verb: &str, args: &crate::engine::verb::Args) {
    use super::verbs;
    if super::gear::act(world, unit, verb, args)
        || super::extra::act(world, unit, verb, args)
        || super::summon::act(world, unit, verb, args)
    {
        return;
    }
    let r = round(world);
    match verb {
        verbs::DISENGAGE => {
            let payment: &[Action] = if args.choice("pay") == Some("BA") {
                &[Action::Bonus, Action::Bonus]
            } else {
                &[Action::Attack]
            };
            pay(world, unit, Use::Disengage, payment, "Disengage");
            add_condition(
                world,
                unit,
                Condition::new(names::DISENGAGED, Duration::EndOfRound(r)),
            );
        }
        verbs::HIT_BOOST | verbs::DAMAGE_BOOST | verbs::DODGE => {
            let (what, cond, duration) = match verb {
                verbs::HIT_BOOST => ("+1 to hit", names::HIT_BOOST, Duration::EndOfRound(r)),
                verbs::DAMAGE_BOOST => (
                    "+1 melee damage",
                    names::DAMAGE_BOOST,
                    Duration::EndOfRound(r),
                ),
                _ => ("+1 dodge", names::DODGE, Duration::UntilOwnNextTurn),
            };
            let config = rules(world);
            let n = match verb {
                verbs::HIT_BOOST => config.ba_hit_bonus,
                verbs::DAMAGE_BOOST => config.ba_damage_bonus,
                _ => config.ba_dodge_bonus,
            };
            let use_ = match verb {
                verbs::HIT_BOOST => Use::HitBoost,
                verbs::DAMAGE_BOOST => Use::DamageBoost,
                _ => Use::DodgeBoost,
            };
            pay(world, unit, use_, &[Action::Bonus], what);
            add_condition(
                world,
                unit,
                Condition::new(cond, duration).with_magnitude(Magnitude::Flat(n as i32)),
            );
        }
        verbs::STAND | verbs::PICK_UP => {
            let Some(payment) = pay_choice(args.choice("pay")) else {
                return;
            };
            let (use_, cond, text) = if verb == verbs::STAND {
                (Use::StandUp, names::PRONE, "stand up")
            } else {
                (Use::PickUp, names::DISARMED, "pick up its weapon")
            };
            pay(world, unit, use_, &[payment], text);
            end_where(world, unit, text, |c| c.name == cond);
        }
        verbs::DELAY => {
            let Some(after) = args.unit("after") else {
                return;
            };
            let mut with_me = vec![unit];
            with_me.extend(w_state(world).round.queue.iter().copied());
            // The unit is first; after the delay the order is the rest of the round.
            if let Ok(queue) = super::initiative::delay(&with_me, unit, after) {
                w_state_mut(world).round.queue = queue;
                emit(world, WoundsEvent::Delayed { unit, after });
                emit(world, Event::TurnEnded { unit });
            }
        }
        verbs::INVOKE => super::magic::invoke(world, unit, args),
        verbs::CANCEL => super::magic::cancel(world, unit),
        verbs::TOGGLE => super::magic::toggle(world, unit),
        verbs::SURRENDER => {
            let side = side_of(world, unit);
            surrender(world, side, String::new());
        }
        _ => {}
    }
}

/// A summoned unit's sickness and a hidden unit's cover as the battle starts
/// (W-16, W-GAP-23).
fn opening_states(world: &mut World) {
    for u in board_units(world) {
        let me = wu(world, u).clone();
        if me.summoned {
            add_condition(
                world,
                u,
                Condition::new(names::SICK, Duration::EndOfRound(1)),
            );
        }
        if me.hidden {
            add_condition(
                world,
                u,
                Condition::new(names::HIDDEN, Duration::UntilAction),
            );
        }
    }
}
