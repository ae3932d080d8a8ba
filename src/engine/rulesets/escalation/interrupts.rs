//! Interrupt powers (E-24): what an enemy does that may set them off (a move that
//! ends engaged with a unit, an attack, a hit) is queued while a command runs; once
//! it is done, [`offer_interrupts`] offers each trigger to the units of the other
//! side that are not on their turn, have their Interrupt of the round left and hold
//! a usable `Interrupt: <trigger>` power reaching the enemy — a decision for a side
//! that is asked, the first for an `Auto` side, none for a `Never` one.

use bevy_ecs::prelude::*;

use super::attack::{Manner, make_attack, pay_power, strike, use_heal};
use super::events::EscalationEvent;
use super::movement::{engaged, provoke};
use super::powers::{Timing, Trigger};
use super::state::{Ask, esc, esc_mut, esc_state, esc_state_mut, header_of};
use crate::engine::battle::{
    Pending, Progress, Sides, TurnState, active_units, emit, entity, halted, is_active, side_of,
};
use crate::engine::command::Command;
use crate::engine::decision::{DecisionOption, PendingDecision, Pick};
use crate::engine::spec::DecisionPolicy;
use crate::engine::units::{Powers, SideId, UnitId};

/// Something an enemy did that may set off Interrupt powers (E-24): what, who
/// did it, and to whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Triggered {
    /// What happened: [`Trigger::EnemyEngages`], [`Trigger::Attacked`] or
    /// [`Trigger::Hit`] (an ally's hit is a hit on someone else).
    pub what: Trigger,
    /// The enemy that acted.
    pub by: UnitId,
    /// The unit it engaged, attacked or hit.
    pub victim: UnitId,
}

/// The triggers of the command being executed, offered to Interrupt powers once
/// it is done (E-24).
#[derive(Clone, Debug, Default)]
pub struct InterruptQueue(pub Vec<Triggered>);

/// Offers the queued triggers to Interrupt powers, one at a time (E-24): for each,
/// the units of the other side not on their turn, with their Interrupt unused
/// this round, holding a usable Interrupt power with that trigger that reaches the
/// enemy that acted. Their side is asked (a pending decision: which power, or
/// none); a side that is never asked declines, an automatic one takes the first.
/// Stops while a decision is pending; the answer resumes it.
pub fn offer_interrupts(world: &mut World) {
    loop {
        if halted(world) || world.resource::<Pending>().0.is_some() {
            return;
        }
        if esc_state(world).interrupts.0.is_empty() {
            return;
        }
        let t = esc_state_mut(world).interrupts.0.remove(0);
        let candidates = interrupt_candidates(world, &t);
        let Some(&(first, ref power)) = candidates.first() else {
            continue;
        };
        let side = side_of(world, first);
        match world.resource::<Sides>().0[side.0 as usize].decisions {
            DecisionPolicy::Never => {}
            DecisionPolicy::Auto => {
                let power = power.clone();
                interrupt(world, first, t.by, &power);
            }
            DecisionPolicy::Ask => {
                let decision = interrupt_decision(world, side, &t, &candidates);
                esc_state_mut(world).asking.0 = Some(Ask::Interrupt);
                world.resource_mut::<Pending>().0 = Some(decision);
                world.resource_mut::<Progress>().0 = true;
                return;
            }
        }
    }
}

/// The units (of one side: the first that has any) that may interrupt after `t`,
/// each with the power, in roster and power order (E-24).
fn interrupt_candidates(world: &World, t: &Triggered) -> Vec<(UnitId, String)> {
    if !is_active(world, t.by) {
        return Vec::new();
    }
    let round = world.resource::<TurnState>().round;
    let active = world.resource::<TurnState>().active;
    let enemy = side_of(world, t.by);
    let mut out: Vec<(UnitId, String)> = Vec::new();
    for u in active_units(world) {
        if !esc(world, u).interrupts
            || Some(u) == active
            || side_of(world, u) == enemy
            || esc(world, u).interrupt_round == Some(round)
            || out
                .first()
                .is_some_and(|&(o, _)| side_of(world, o) != side_of(world, u))
        {
            continue;
        }
        let Some(powers) = world.get::<Powers>(entity(world, u)) else {
            continue;
        };
        for p in &powers.0 {
            let h = header_of(world, u, &p.name);
            let Timing::Interrupt(want) = h.timing else {
                continue;
            };
            let fits = match want {
                Trigger::EnemyEngages | Trigger::Attacked | Trigger::Hit => {
                    t.what == want && t.victim == u
                }
                Trigger::AllyHit => {
                    t.what == Trigger::Hit
                        && t.victim != u
                        && side_of(world, t.victim) == side_of(world, u)
                }
            };
            // A Heal interrupt heals the unit itself; any other attacks the enemy.
            let on = if h.heal { u } else { t.by };
            if fits && super::check::usable_now(world, u, on, Some(&p.name)).is_ok() {
                out.push((u, p.name.clone()));
            }
        }
    }
    out
}

fn interrupt_decision(
    world: &World,
    side: SideId,
    t: &Triggered,
    candidates: &[(UnitId, String)],
) -> PendingDecision {
    let n = |u: UnitId| crate::engine::battle::name(world, u);
    let what = match t.what {
        Trigger::EnemyEngages => "engages",
        Trigger::Attacked => "attacked",
        _ => "hit",
    };
    PendingDecision {
        side,
        prompt: format!("{} {what} {}. Interrupt?", n(t.by), n(t.victim)),
        about: format!("interrupt {} after it {what} {}", n(t.by), n(t.victim)),
        pick: Pick::One,
        options: candidates
            .iter()
            .map(|(u, p)| {
                DecisionOption::new(
                    Command::attack(*u, t.by, Some(p.clone())),
                    format!("{} uses {p} on {}", n(*u), n(t.by)),
                )
                .value(1.0)
            })
            .collect(),
        decline: Some(DecisionOption::new(Command::Pass { side }, "No interrupt")),
        lookahead: false,
    }
}

/// `unit` uses its Interrupt power `power` on `target`, the enemy that set it off
/// (E-24): its Interrupt for the round, the power's cost, opportunity attacks when
/// it is ranged or provokes (E-28, E-36), then the attack (a `Heal` interrupt heals
/// the unit itself instead).
pub(super) fn interrupt(world: &mut World, unit: UnitId, target: UnitId, power: &str) {
    let Ok(s) = strike(world, unit, target, Some(power)) else {
        return;
    };
    let round = world.resource::<TurnState>().round;
    esc_mut(world, unit).interrupt_round = Some(round);
    emit(
        world,
        EscalationEvent::Interrupted {
            unit,
            power: power.to_string(),
            trigger: target,
        },
    );
    pay_power(world, unit, &s);
    if (s.ranged || s.header.provokes) && !provoke(world, unit) {
        return;
    }
    if s.header.heal {
        use_heal(world, unit, unit, s.header.free_recovery);
    } else {
        make_attack(world, unit, target, Some(power), Manner::Normal);
    }
}

/// Queues "an enemy engages you" for the units `mover` is engaged with now and
/// was not in `before` (E-24).
pub fn queue_engagements(world: &mut World, mover: UnitId, before: &[UnitId]) {
    if !is_active(world, mover) {
        return;
    }
    for victim in engaged(world, mover) {
        if !before.contains(&victim) {
            esc_state_mut(world).interrupts.0.push(Triggered {
                what: Trigger::EnemyEngages,
                by: mover,
                victim,
            });
        }
    }
}
