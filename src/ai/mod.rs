//! Computer opponents. An AI reads the battle through the engine's public API and
//! answers with the same [`Command`]s a player submits, so it plays any ruleset the
//! engine implements and every command it returns passes [`Battle::check`].
//!
//! [`choose`] picks the next command for whoever the battle is waiting for (a unit's
//! turn or a pending decision) under a policy:
//!
//! - [`AiPolicy::Random`]: a uniformly random command of [`Battle::legal_commands`]; a
//!   baseline that wanders, rarely attacks and never plans.
//! - [`AiPolicy::Easy`]: a careless novice. Attacks a random target it can reach,
//!   taking each attack option's default (`wounds`: Center Mass, never an aim);
//!   otherwise moves to a random one of the few cells with the best attack it could
//!   make from there, or toward the nearest enemy. Ignores danger.
//! - [`AiPolicy::Normal`]: weighs threats. Scores cells by the attack it could make
//!   from them against how much damage the enemies that can reach them would deal,
//!   avoids provoking attacks it doesn't have to (the ruleset's move preview counts
//!   them; it takes a safer path or a non-provoking power when one fits), focuses fire
//!   on wounded targets and on high kill chances, Defends when it can't attack but is
//!   threatened, Disengages a badly hurt unit out of reach, drinks healing items when
//!   low, and answers decisions (seizing the initiative when that enables a kill).
//!   It hurries when the round limit would come before it can beat the enemy at its
//!   current rate of damage (less caution, a stronger pull toward the enemy: a draw
//!   is not a win). It ends a threatened turn with the ruleset's defensive action
//!   (`flow`: Total Defense) rather than doing nothing, and takes the ruleset's
//!   opening action (`flow`: Feint) before an attack when the ruleset offers it for
//!   free, weighed with the ruleset's exact chance that it wins, and the ruleset's
//!   boost (`wounds`: +1 to hit or +1 melee damage, whichever adds more, for a
//!   Bonus Action the turn has no other use for) just before an attack.
//!
//! - [`AiPolicy::Hard`]: looks ahead. Plays `Normal`'s best few commands out in
//!   forks of the battle, `Normal` playing both sides for a round after, with dice
//!   re-seeded roll by roll so that every candidate meets the same luck, and takes
//!   the one whose end states score best (see [`search`]).
//!
//! Both answer any pending decision from its generic options
//! ([`crate::engine::decision`]): the option(s) of best value, as the ruleset's
//! automatic policy takes them (`flow`: the reaction of best expected value, or
//! none; `phases`: every unit whose seizing enables a likely kill), except that
//! `Easy` declines decisions that need looking ahead (it never seizes).
//!
//! The AI knows no ruleset: what movement powers do to the mover, which special
//! actions to weigh, what a decision's options are worth and a unit's speed are
//! queries of the
//! [`crate::engine::ruleset::Ruleset`] seam (through [`Battle::rules`]).
//!
//! Cost: instead of the ruleset's list of every legal path, moves come from one cost
//! tree over the board (see `moves`), with each movement power's reach asked of the
//! ruleset through `check`; searches run on flat per-cell arrays built once per
//! decision. [`sim`] plays whole AI-vs-AI battles.

mod moves;
pub mod record;
pub mod search;
pub mod sim;
mod tactics;
pub mod threat;
mod view;

use rand::{Rng, RngExt};

use crate::engine::battle::{Awaiting, Battle};
use crate::engine::command::Command;
pub use crate::level::schema::AiPolicy;

/// The next command for whatever the battle is waiting for, under `policy`; `None`
/// when the battle is over (or, defensively, when nothing is legal).
///
/// Deterministic: the same battle state, policy and generator state give the same
/// command. All randomness (the `Random` policy, and tie-breaks of the others) comes
/// from `rng`. The command always passes [`Battle::check`].
pub fn choose(battle: &Battle, policy: AiPolicy, rng: &mut impl Rng) -> Option<Command> {
    let picked = match battle.awaiting() {
        Awaiting::Over(_) => return None,
        _ if policy == AiPolicy::Random => None,
        _ if policy == AiPolicy::Hard => search::choose(battle, rng),
        Awaiting::Decision(decision) => tactics::decide(battle, &decision, policy),
        Awaiting::Unit(unit, _) => tactics::turn(battle, unit, policy, rng),
    };
    if let Some(c) = picked.filter(|c| battle.check(c).is_ok()) {
        return Some(c);
    }
    if policy != AiPolicy::Random
        && let Awaiting::Unit(unit, _) = battle.awaiting()
        && battle.check(&Command::EndTurn { unit }).is_ok()
    {
        return Some(Command::EndTurn { unit });
    }
    // Random, or a tactic that found nothing legal: any legal command, uniformly.
    random(battle, rng)
}

/// A uniformly random legal command.
fn random(battle: &Battle, rng: &mut impl Rng) -> Option<Command> {
    let mut legal = battle.legal_commands();
    if legal.is_empty() {
        return None;
    }
    let i = rng.random_range(0..legal.len());
    Some(legal.swap_remove(i))
}

/// Parses a policy name (`random`, `easy`, `normal`, `hard`; any case).
pub fn parse_policy(name: &str) -> Option<AiPolicy> {
    match name.to_ascii_lowercase().as_str() {
        "random" => Some(AiPolicy::Random),
        "easy" => Some(AiPolicy::Easy),
        "normal" => Some(AiPolicy::Normal),
        "hard" => Some(AiPolicy::Hard),
        _ => None,
    }
}

/// The lower-case name of a policy, as `parse_policy` reads it.
pub fn policy_name(policy: AiPolicy) -> &'static str {
    match policy {
        AiPolicy::Random => "random",
        AiPolicy::Easy => "easy",
        AiPolicy::Normal => "normal",
        AiPolicy::Hard => "hard",
    }
}

/// One line on how strong `policy` plays, from the ladder measured on the duel levels
/// (README, "AI levels and the ladder": 400 battles a pairing and ruleset, seats
/// swapped half the time; shares of the decided battles over the five rulesets).
/// The menu shows it next to the policy.
pub fn strength_note(policy: AiPolicy) -> &'static str {
    match policy {
        AiPolicy::Random => "random: loses 99.9% of duels to easy",
        AiPolicy::Easy => "easy: beats random 99.9%, loses 77% of duels to normal",
        AiPolicy::Normal => "normal: wins 77% against easy on duels (65-90% by ruleset)",
        AiPolicy::Hard => "hard: wins 67% against normal on duels (50-85% by ruleset)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each policy's note starts with the policy's own name, so the menu line reads
    /// as belonging to it.
    #[test]
    fn strength_note_names_each_policy() {
        for p in [
            AiPolicy::Random,
            AiPolicy::Easy,
            AiPolicy::Normal,
            AiPolicy::Hard,
        ] {
            let note = strength_note(p);
            assert!(note.starts_with(&format!("{}:", policy_name(p))), "{note}");
        }
    }
}
