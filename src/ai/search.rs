//! The `Hard` policy: looks ahead by playing its options out in forks of the battle.
//!
//! For a unit's turn it takes `Normal`'s [`CANDIDATES`] best-scored commands, keeps
//! those scored within [`GAP`] of the best (where `Normal` is sure, it plays
//! `Normal`'s command without searching), and plays each out [`ROLLOUTS`] times in a
//! fork of the battle ([`Battle::fork`], reused through [`Battle::restore_from`])
//! with its own seeded dice: the candidate is submitted, then `Normal` plays every
//! side — the enemy's likely replies included — for [`MAX_COMMANDS`] commands (fewer
//! with many units in play: [`PLAYOUT_WORK`]), to
//! the end of a round's worth of turn starts (as many as there are units in play)
//! or to the end of the battle, whichever comes first. Each end state is scored for the deciding side: its
//! units in play and their share of hit points, less the enemy's, a win or a loss
//! outweighing both. The candidate with the best mean wins; `Normal`'s own choice
//! gets a head start ([`PRIOR`]) so that noise alone doesn't overturn it.
//!
//! Pending decisions (reactions, seizing the initiative, who acts next) take
//! `Normal`'s answer, from the ruleset's exact odds: searched with a few play-outs,
//! `hard` answered `flow` reactions worse than that.
//!
//! Every candidate is played out with the same dice seeds (common random numbers),
//! so candidates are compared under the same luck. The seeds and the play-outs'
//! tie-breaks come from the caller's generator: the same battle and generator state
//! give the same command, whatever the thread or machine (the budget is a count of
//! play-outs, never a clock).
//!
//! It knows no ruleset: candidates, play-outs and the score only use [`Battle`]'s
//! API (`fork`, `submit`, `awaiting`, `units`) and `Normal`'s tactics.
//!
//! Cost: at most 3 × 4 play-outs of at most 8 commands each (fewer with many
//! units). Measured with `examples/hard_time.rs` (release build, one thread, idle
//! 2-core machine; the README's table "How long `hard` thinks"): a decision takes
//! 1–5 ms on average per level; the longest was 31 ms (The Wolfsgate Ambush), 17 ms
//! on the 24×24 bench level.
//!
//! Strength: a little above `normal`'s (519 wins of 1,000 against `normal`, 50 a
//! seat on every shipped level, where `normal` itself wins 489 from the same seats
//! and 592 against `easy`; all 400 against `random`): the issue's ≥ 70 % is not
//! reached (the README's "AI levels and `hard`" has the table).

use std::cell::RefCell;

use rand::rngs::ChaCha8Rng;
use rand::{Rng, RngExt, SeedableRng};

use super::{AiPolicy, tactics};
use crate::engine::battle::{Awaiting, Battle, side_of};
use crate::engine::command::Command;
use crate::engine::dice::Dice;
use crate::engine::units::{SideId, UnitId};

/// `Normal`'s best-scored commands searched for a unit's turn.
pub const CANDIDATES: usize = 3;
/// Play-outs per candidate.
pub const ROLLOUTS: usize = 4;
/// Commands a play-out may submit at most after the candidate: the budget that
/// keeps a decision under 50 ms whatever the ruleset (at most [`CANDIDATES`] ×
/// [`ROLLOUTS`] × this many `Normal` commands).
pub const MAX_COMMANDS: usize = 8;
/// Unit-commands a play-out may cost: a play-out stops after this many commands
/// divided by the units in play (at most [`MAX_COMMANDS`], at least 2), since a
/// `Normal` command costs about in proportion to the units it weighs.
pub const PLAYOUT_WORK: usize = 48;
/// Head start of `Normal`'s own choice, in score points (a unit in play is worth
/// [`ALIVE`], its full hit points [`HEALTH`]).
pub const PRIOR: f64 = 0.3;
/// How far below `Normal`'s best score (in its expected hit points) a command may
/// be and still be searched: the others `Normal` is sure enough of.
pub const GAP: f64 = 1.0;
/// Score of a unit in play.
const ALIVE: f64 = 1.0;
/// Score of a unit's full hit points (scaled by its share left).
const HEALTH: f64 = 1.0;
/// Score of a won battle (and minus it, of a lost one).
const WIN: f64 = 50.0;

thread_local! {
    /// A battle world reused for play-outs on this thread (restored from the
    /// searched battle each time), so a play-out needn't build a schedule.
    static SCRATCH: RefCell<Option<Battle>> = const { RefCell::new(None) };
}

/// The `Hard` policy's command for whatever `battle` waits for; `None` when the
/// battle is over or nothing is legal (the caller falls back).
pub(crate) fn choose(battle: &Battle, rng: &mut impl Rng) -> Option<Command> {
    let acting = match battle.awaiting() {
        Awaiting::Unit(unit, _) => Some(unit),
        _ => None,
    };
    let (side, candidates) = match battle.awaiting() {
        Awaiting::Over(_) => return None,
        Awaiting::Unit(unit, _) => (side_of(battle.world(), unit), {
            let ranked = tactics::ranked(battle, unit, AiPolicy::Normal, rng, CANDIDATES);
            let top = ranked.first().map_or(0.0, |(v, _)| *v);
            ranked
                .into_iter()
                .filter(|(v, _)| *v >= top - GAP)
                .map(|(_, c)| c)
                .collect::<Vec<_>>()
        }),
        // Decisions (reactions, seizing the initiative, who acts next) take
        // `Normal`'s answer: the ruleset's exact odds weigh them better than a few
        // play-outs do (searched, `hard` answered `flow` reactions worse).
        Awaiting::Decision(decision) => {
            return tactics::decide(battle, &decision, AiPolicy::Normal);
        }
    };
    let candidates: Vec<Command> = candidates
        .into_iter()
        .filter(|c| battle.check(c).is_ok())
        .collect();
    if candidates.len() <= 1 {
        return candidates.into_iter().next();
    }
    let seeds: Vec<u64> = (0..ROLLOUTS).map(|_| rng.random()).collect();
    let mut best: Option<(f64, usize)> = None;
    SCRATCH.with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        for (i, c) in candidates.iter().enumerate() {
            let mut total = if i == 0 {
                PRIOR * seeds.len() as f64
            } else {
                0.0
            };
            for &seed in &seeds {
                total += play_out(battle, &mut scratch, c, side, acting, seed);
            }
            if best.is_none_or(|(b, _)| total > b) {
                best = Some((total, i));
            }
        }
    });
    best.map(|(_, i)| candidates[i].clone())
}

/// Plays `command` out in a copy of `battle` with dice and tie-breaks from `seed`
/// and returns the score of the state reached for `side`.
fn play_out(
    battle: &Battle,
    scratch: &mut Option<Battle>,
    command: &Command,
    side: SideId,
    acting: Option<UnitId>,
    seed: u64,
) -> f64 {
    let dice = Dice::seeded(seed);
    let fork = match scratch {
        Some(s) => {
            s.restore_from(battle, dice);
            s
        }
        None => scratch.insert(battle.fork(dice)),
    };
    if fork.submit(command.clone()).is_err() {
        return f64::NEG_INFINITY;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9E37_79B9_7F4A_7C15);
    let mut turns = 0;
    // A round: as many turn starts as there are units in play.
    let horizon = fork.units().iter().filter(|u| !u.defeated).count();
    let mut last: Option<UnitId> = acting;
    let budget = (PLAYOUT_WORK / horizon.max(1)).clamp(2, MAX_COMMANDS);
    for _ in 0..budget {
        let unit = match fork.awaiting() {
            Awaiting::Over(_) => break,
            Awaiting::Unit(u, _) => Some(u),
            Awaiting::Decision(_) => None,
        };
        if unit.is_some() && unit != last {
            last = unit;
            turns += 1;
            if turns > horizon {
                break;
            }
        }
        let Some(c) = super::choose(fork, AiPolicy::Normal, &mut rng) else {
            break;
        };
        if fork.submit(c).is_err() {
            break;
        }
    }
    evaluate(fork, side)
}

/// The state's score for `side`: its units in play and their share of hit points,
/// less the other sides', or ± [`WIN`] when the battle is over.
pub(crate) fn evaluate(battle: &Battle, side: SideId) -> f64 {
    if let Some(winner) = battle.turn().ended {
        return match winner {
            Some(w) if w == side => WIN,
            Some(_) => -WIN,
            None => 0.0,
        };
    }
    let world = battle.world();
    let mut score = 0.0;
    for u in battle.units() {
        let worth = if u.defeated {
            0.0
        } else {
            ALIVE + HEALTH * f64::from(u.hp.max(0)) / f64::from(u.max_hp.max(1))
        };
        if side_of(world, u.id) == side {
            score += worth;
        } else {
            score -= worth;
        }
    }
    score
}
