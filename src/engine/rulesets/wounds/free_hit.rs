//! Who aims a free hit (W-GAP-07 "Free hits may aim"): the side that makes it. A
//! free hit drawn by a moving enemy (W-26), by an attacker's natural 1 (W-24) and a
//! tragedy's free critical hit (W-24, W-GAP-18) are aimed by the hitter's side:
//! a side that is asked (`decisions: Ask`) gets a pending decision listing each
//! aim with its exact odds, answered with the hit itself,
//! `Attack(unit: "Guard", target: "Thief", aim: "Slowing")`; a side that is not
//! asked (`Auto`, `Never`) aims where [`best_aim`] says, as the AI does. A free hit
//! is never declined: only its aim is chosen. The movement it interrupted goes on
//! after the answer ([`Walk`]).

use super::state::{self, w_state_mut};
use bevy_ecs::prelude::*;

use super::aim::{Aim, aim_of, aim_options};
use super::attack::{self, Kind, aim_value, best_aim, cached_odds, make_attack, swing};
use super::movement::{Walk, walk};
use super::state::rules;
use crate::engine::battle::{Pending, Progress, Sides, name, side_of};
use crate::engine::command::Command;
use crate::engine::decision::{DecisionOption, PendingDecision, Pick};
use crate::engine::spec::DecisionPolicy;
use crate::engine::units::UnitId;

/// A free hit whose aim the hitter's side is asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asked {
    /// The unit that makes the free hit.
    pub hitter: UnitId,
    /// The unit it hits.
    pub target: UnitId,
    /// A free hit, or a tragedy's free critical hit.
    pub kind: Kind,
    /// The movement it interrupted, to go on with after the answer.
    pub walk: Option<Walk>,
}

/// The free hit waiting for its aim, if any.
#[derive(Clone, Debug, Default)]
pub struct FreeHitAsked(pub Option<Asked>);

/// The command that makes `hitter`'s free hit on `target` aimed at `aim`: the
/// answer to the decision.
pub fn aimed(hitter: UnitId, target: UnitId, aim: Aim) -> Command {
    Command::Attack {
        unit: hitter,
        target,
        power: None,
        options: aim_options(Some(aim.name().into())),
    }
}

/// The kind of the free hit `hitter` is asked to aim at `target`, if that is the
/// question now (the aim previews then show the free hit's odds).
pub fn asked_kind(world: &World, hitter: UnitId, target: UnitId) -> Option<Kind> {
    crate::engine::ruleset::state::try_state::<state::WState>(world)?
        .free_hit
        .0
        .as_ref()
        .filter(|a| a.hitter == hitter && a.target == target)
        .map(|a| a.kind)
}

/// `command` with its aim written the way the decision's options write it
/// (`"CenterMass"` and `"center mass"` are `"Center Mass"`), so that any spelling
/// [`Aim::from_command`] reads answers the decision.
pub fn canonical(command: &Command) -> Command {
    match command {
        Command::Attack {
            unit,
            target,
            power: None,
            options,
        } => match Aim::from_command(aim_of(options)) {
            Ok(a) => aimed(*unit, *target, a),
            Err(_) => command.clone(),
        },
        _ => command.clone(),
    }
}

/// `hitter` makes its free hit (`Kind::Free`) or free critical hit
/// (`Kind::FreeCrit`) on `target`, its slot already spent. Its side aims it: when
/// that side is asked, the battle stops with the question and `true` is returned
/// (the movement `walk` goes on after the answer); otherwise the hit is made at
/// once, aimed where [`best_aim`] says.
pub fn strike(
    world: &mut World,
    hitter: UnitId,
    target: UnitId,
    kind: Kind,
    walk: Option<Walk>,
) -> bool {
    let side = side_of(world, hitter);
    let asks = world.resource::<Sides>().0[side.0 as usize].decisions == DecisionPolicy::Ask
        && world.resource::<Pending>().0.is_none();
    let options = if asks {
        options(world, hitter, target, kind)
    } else {
        Vec::new()
    };
    if options.is_empty() {
        let aim = best_aim(world, hitter, target, None, kind);
        make_attack(world, hitter, target, None, Some(aim.name()), kind);
        return false;
    }
    let (who, whom) = (name(world, hitter), name(world, target));
    let what = match kind {
        Kind::FreeCrit => "free critical hit",
        _ => "free hit",
    };
    world.resource_mut::<Pending>().0 = Some(PendingDecision {
        side,
        prompt: format!("{who} gets a {what} on {whom}. Where does it aim?"),
        about: format!("aim {who}'s {what} on {whom}"),
        pick: Pick::One,
        options,
        decline: None,
        lookahead: false,
    });
    w_state_mut(world).free_hit.0 = Some(Asked {
        hitter,
        target,
        kind,
        walk,
    });
    world.resource_mut::<Progress>().0 = true;
    true
}

/// Each aim the free hit can take, with its exact chance to hit and its value to
/// the hitter's side ([`aim_value`], what the AI and `Auto` maximise), labelled
/// with its expected damage and the chance of its wound.
fn options(world: &World, hitter: UnitId, target: UnitId, kind: Kind) -> Vec<DecisionOption> {
    let who = name(world, hitter);
    Aim::ALL
        .into_iter()
        .filter_map(|aim| {
            let s = swing(world, hitter, target, None, Some(aim.name()), kind).ok()?;
            let o = cached_odds(rules(world), &s)?;
            let value = aim_value(world, hitter, target, None, aim, kind)?;
            let hp = world
                .get::<crate::engine::units::Health>(crate::engine::battle::entity(world, target))?
                .hp;
            let (expected, _) = attack::damage_and_kill(&o, hp);
            Some(
                DecisionOption::new(
                    aimed(hitter, target, aim),
                    format!(
                        "{who} aims {} ({expected:.1} damage expected, a wound {:.0}%)",
                        aim.name(),
                        o.wound * 100.0
                    ),
                )
                .chance(o.hit)
                .value(value),
            )
        })
        .collect()
}

/// Takes the answer to a free hit's aim, if one was asked: the hit is made aimed
/// as answered and the movement it interrupted goes on. `false` when no free hit
/// was waiting (the answer is another question's).
pub fn answer(world: &mut World, command: &Command) -> bool {
    let Some(asked) = w_state_mut(world).free_hit.0.take() else {
        return false;
    };
    let aim = match canonical(command) {
        Command::Attack { options, .. } => {
            Aim::from_command(aim_of(&options)).unwrap_or(Aim::CenterMass)
        }
        _ => best_aim(world, asked.hitter, asked.target, None, asked.kind),
    };
    make_attack(
        world,
        asked.hitter,
        asked.target,
        None,
        Some(aim.name()),
        asked.kind,
    );
    if let Some(w) = asked.walk {
        walk(world, w);
    }
    true
}
