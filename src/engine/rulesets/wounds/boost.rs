//! Boosts before an attack, for the AI (W-09, W-GAP-13): a Bonus Action the turn
//! has no other use for, spent on +1 to hit or +1 melee damage just before the
//! Attack Action it improves. The AI asks through
//! [`crate::engine::ruleset::AiHints::boost_action`]; a player takes the same
//! actions with H and N.

use bevy_ecs::prelude::*;

use super::attack::{Kind, kind_now, swing, swing_value};
use super::state::{rules, w_state};
use super::verbs;
use crate::engine::command::Command;
use crate::engine::verb::Args;

/// Least gain (in HP of [`swing_value`]) for which a boost is worth its Bonus
/// Action: below it the Bonus Action is kept (for Dodge at the turn's end).
const MIN_GAIN: f64 = 0.05;

/// The boost to take before `attack`, if one makes it better and costs nothing the
/// turn could still use otherwise: `attack` is the active unit's Attack Action
/// (not the extra attack W-10, which needs both Bonus Actions), the unit has a
/// Bonus Action left, and its Move Action is gone (moved, W-GAP-15, or spent), so
/// neither an extra attack nor a longer move needs the Bonus Action. Of +1 to hit
/// and +1 melee damage (a melee weapon only), the one that adds more to the
/// attack's value; `None` when neither adds [`MIN_GAIN`] or the boost is not legal.
pub fn before(world: &World, attack: &Command) -> Option<Command> {
    let Command::Attack {
        unit,
        target,
        power,
        options,
    } = attack
    else {
        return None;
    };
    let turn = w_state(world).turn;
    if turn.left.bonus == 0 || turn.move_left() || kind_now(world, *unit) != Kind::Normal {
        return None;
    }
    let aim = super::aim::aim_of(options);
    let plain = swing(world, *unit, *target, power.as_deref(), aim, Kind::Normal).ok()?;
    if plain.header.spell {
        return None;
    }
    let base = swing_value(world, *target, &plain)?;
    let config = rules(world);
    let mut hit = plain.clone();
    hit.modifier += config.ba_hit_bonus;
    let mut best = (swing_value(world, *target, &hit)? - base, verbs::HIT_BOOST);
    if plain.melee {
        let mut damage = plain.clone();
        damage.terms.flat += config.ba_damage_bonus;
        let gain = swing_value(world, *target, &damage)? - base;
        if gain > best.0 {
            best = (gain, verbs::DAMAGE_BOOST);
        }
    }
    if best.0 < MIN_GAIN {
        return None;
    }
    let boost = Command::Act {
        unit: *unit,
        verb: best.1.into(),
        args: Args::new(),
    };
    super::check::check(world, &boost).ok().map(|_| boost)
}
