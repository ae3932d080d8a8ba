//! The `Hard` policy: looks ahead by playing its options out in forks of the battle.
//!
//! For a unit's turn it takes `Normal`'s [`CANDIDATES`] best-scored commands, keeps
//! those scored within [`GAP`] of the best (where `Normal` is sure, it plays
//! `Normal`'s command without searching), and plays each out up to [`ROLLOUTS`]
//! times in a fork of the battle ([`Battle::fork`], reused through
//! [`Battle::restore_from`]): the candidate is submitted, then `Normal` plays every
//! side — the enemy's likely replies included — for a round's worth of turn starts
//! (as many as there are units in play), at most [`MAX_COMMANDS`] commands, or to
//! the end of the battle. Each end state is scored for the deciding side: its units
//! in play and their share of hit points, less the enemy's; a won or lost battle scores
//! ± `WIN` instead. The candidate with the best mean wins; `Normal`'s own choice
//! gets a head start ([`PRIOR`]) so that noise alone doesn't overturn it.
//!
//! **Common random numbers, roll by roll.** Candidates are compared under the same
//! luck: play-out number `r` of every candidate re-seeds the fork's dice before each
//! command from `r`'s seed, the round, who acts and how many commands it has given
//! that round (`aligned`), so the archer's attack in round 3 of play-out `r` rolls
//! the same faces whichever candidate came first. With one dice stream per play-out
//! (as before), a candidate that rolled one die more shifted every later roll, and
//! the play-outs of two candidates differed mostly by luck: searching more options
//! then did worse than `Normal` (32–40 % of decided duels on `wounds`, `actfast`
//! and `flow` with 6 candidates, 8 play-outs each). Across the passes, each roll
//! is Latin-hypercube sampled ([`Dice::stratified`]): pass `r` takes its own
//! stratum of the die's range, so a few passes see a roll's whole range.
//!
//! **Decisions.** A decision whose options the ruleset prices with exact odds
//! (`flow`'s reactions: each option's chance to succeed) takes `Normal`'s answer:
//! searched with play-outs, `hard` answered them worse. The others — choices of
//! plan whose worth only playing on shows, such as `actfast`'s Act Fast or Act
//! Well and `phases`' seizing the initiative — are searched like a unit's
//! commands, `Normal`'s answer first (with the head start) and the decision's other
//! answers after it (on the `actfast` duel, 58–60 % of decided duels against
//! `Normal` where `Normal`'s answer won 51 %).
//!
//! How strong this is: the ladder in `docs/ai.md` ("The ladder on the duels").
//!
//! The seeds and the play-outs' tie-breaks come from the caller's generator: the
//! same battle and generator state give the same command, whatever the thread or
//! machine (the budget is a count of play-outs and commands, never a clock).
//!
//! It knows no ruleset: candidates, play-outs and the score only use [`Battle`]'s
//! API (`fork`, `set_dice`, `submit`, `awaiting`, `units`) and `Normal`'s tactics.
//!
//! Cost: play-outs are played in passes (one per candidate with the same seed) until
//! [`ROLLOUTS`] passes or [`DECISION_WORK`] commands, whichever comes first, so a
//! decision submits at most [`DECISION_WORK`] plus one pass of commands. A pass's
//! play-outs run in parallel on rayon's pool (each thread with its own scratch
//! world) and are summed in candidate order, so the choice doesn't depend on the
//! threads. Measured with
//! `examples/hard_time.rs` (`docs/ai.md`, "How long `hard` thinks").
//!
//! [`choose_foreseeing`] is the same search with the real dice known in advance, to
//! measure how far skill could go at most (`examples/oracle.rs`); [`outcomes`] plays
//! each candidate to the end of the battle, to measure how much a perfect pick among
//! them could gain (`examples/room.rs`).

use std::cell::RefCell;

use rand::rngs::ChaCha8Rng;
use rand::{Rng, RngExt, SeedableRng};
use rayon::prelude::*;

use super::{AiPolicy, tactics};
use crate::engine::battle::{Awaiting, Battle, side_of};
use crate::engine::command::Command;
use crate::engine::dice::{Dice, mix};
use crate::engine::units::{SideId, UnitId};

/// `Normal`'s best-scored commands searched for a unit's turn.
pub const CANDIDATES: usize = 6;
/// Play-outs per candidate, at most (see [`DECISION_WORK`]).
pub const ROLLOUTS: usize = 16;
/// Commands a play-out may submit at most after the candidate (a round of a duel
/// takes about 20).
pub const MAX_COMMANDS: usize = 40;
/// Commands the play-outs of one decision may submit before no further pass of
/// play-outs is started: what keeps a decision's cost bounded whatever the
/// ruleset, the number of units and candidates (a `Normal` command costs tens of
/// microseconds on a duel). 1,800 keeps `hard` within 50 ms a decision on average
/// and 250 ms at most on this 2-core machine (`docs/ai.md`, "How long `hard` thinks");
/// 3,600 with 32 passes did no better on the duels.
pub const DECISION_WORK: usize = 1_800;
/// Head start of `Normal`'s own choice, in score points (a unit in play is worth
/// [`ALIVE`], its full hit points [`HEALTH`]).
pub const PRIOR: f64 = 0.3;
/// How far below `Normal`'s best score (in its expected hit points) a command may
/// be and still be searched: the others `Normal` is sure enough of.
pub const GAP: f64 = 3.0;
/// Score of a unit in play.
const ALIVE: f64 = 1.0;
/// Score of a unit's full hit points (scaled by its share left).
const HEALTH: f64 = 1.0;
/// Score of a won battle (and minus it, of a lost one), instead of the units' worth:
/// about what a winning side's survivors are worth. At 50, one play-out ended by a
/// lucky critical outweighed all the others of its candidate and the search picked
/// that luck (46–48 % of the `wounds` duels against `normal`); at 5, 50–54 %, and
/// 1–4 points more on the other rulesets, in the same battles.
const WIN: f64 = 5.0;

/// How much one search may do.
struct Budget {
    /// Candidates, at most.
    candidates: usize,
    /// How far below `Normal`'s best a candidate may score.
    gap: f64,
    /// Play-outs per candidate, at most.
    rollouts: usize,
    /// Commands per play-out after the candidate, at most.
    commands: usize,
    /// Rounds' worth of turn starts a play-out may see (a round: as many turn starts
    /// as there are units in play).
    rounds: usize,
    /// Commands of all play-outs after which no new pass starts.
    work: usize,
    /// Head start of `Normal`'s choice.
    prior: f64,
    /// The score of a play-out's end state for the deciding side.
    score: fn(&Battle, SideId) -> f64,
}

/// The search `hard` plays with.
const HARD: Budget = Budget {
    candidates: CANDIDATES,
    gap: GAP,
    rollouts: ROLLOUTS,
    commands: MAX_COMMANDS,
    rounds: 1,
    work: DECISION_WORK,
    prior: PRIOR,
    score: evaluate,
};

/// The dice a play-out rolls: drawn from its seed roll by roll (`aligned`), or
/// the battle's own, known in advance ([`choose_foreseeing`]): the seed of the dice
/// of the `j`-th command from now.
#[derive(Clone, Copy)]
enum Luck<'a> {
    Sampled,
    Foreseen(&'a (dyn Fn(usize) -> u64 + Sync)),
}

thread_local! {
    /// A battle world reused for play-outs on this thread (restored from the
    /// searched battle each time), so a play-out needn't build a schedule.
    static SCRATCH: RefCell<Option<Battle>> = const { RefCell::new(None) };
}

/// The `Hard` policy's command for whatever `battle` waits for; `None` when the
/// battle is over or nothing is legal (the caller falls back).
pub(crate) fn choose(battle: &Battle, rng: &mut impl Rng) -> Option<Command> {
    search(battle, rng, &HARD, Luck::Sampled)
}

/// For measuring how far skill can go, not for play: `Hard`'s search with the dice
/// seen in advance. `dice_seed(j)` is the seed of the dice the battle will roll for
/// its `j`-th command from now (the caller re-seeds the battle's dice before every
/// command with the same seeds), so each of `Normal`'s 6 best commands is played
/// out once, for a round (at most 40 commands), with the dice it will really meet.
pub fn choose_foreseeing(
    battle: &Battle,
    rng: &mut impl Rng,
    dice_seed: &(dyn Fn(usize) -> u64 + Sync),
) -> Option<Command> {
    let budget = Budget {
        candidates: 6,
        gap: f64::INFINITY,
        rollouts: 1,
        commands: 40,
        rounds: 1,
        work: usize::MAX,
        prior: 0.0,
        score: evaluate,
    };
    search(battle, rng, &budget, Luck::Foreseen(dice_seed))
}

/// For measuring how much a choice matters, not for play (`examples/room.rs`):
/// each command `hard` would weigh here (`Normal`'s first) played `plays` times to
/// the end of the battle, `Normal` playing every side after it (at most `commands`
/// commands), under the aligned, Latin-hypercube dice of `hard`'s play-outs (play-out
/// `r` of every command meets the same luck). For each command, the result of each
/// play-out for the deciding side: 1 won, 0 lost, ½ a draw or unfinished. Empty when
/// there is nothing to choose.
pub fn outcomes(
    battle: &Battle,
    rng: &mut impl Rng,
    plays: usize,
    commands: usize,
) -> Vec<(Command, Vec<f64>)> {
    // What a play-out reads: its horizon, its length and its score.
    let budget = Budget {
        rounds: usize::MAX,
        commands,
        score: result,
        ..HARD
    };
    let Some((candidates, side, unit)) = candidates(battle, rng, &budget) else {
        return Vec::new();
    };
    if candidates.len() <= 1 {
        return Vec::new();
    }
    let seeds: Vec<u64> = (0..plays).map(|_| rng.random()).collect();
    let set: u64 = rng.random();
    let runs: Vec<(usize, usize)> = (0..candidates.len())
        .flat_map(|c| (0..plays).map(move |r| (c, r)))
        .collect();
    let results: Vec<f64> = runs
        .par_iter()
        .map(|&(c, r)| {
            let sample = Sample {
                seed: seeds[r],
                set,
                index: r as u32,
                of: plays as u32,
            };
            SCRATCH.with(|scratch| {
                let mut scratch = scratch.borrow_mut();
                let (result, _) = play_out(
                    battle,
                    &mut scratch,
                    &candidates[c],
                    (side, unit),
                    sample,
                    &budget,
                    Luck::Sampled,
                );
                result
            })
        })
        .collect();
    candidates
        .into_iter()
        .zip(results.chunks(plays.max(1)))
        .map(|(c, r)| (c, r.to_vec()))
        .collect()
}

/// The result of a battle for `side`: 1 won, 0 lost, ½ drawn or not over.
fn result(battle: &Battle, side: SideId) -> f64 {
    match battle.turn().ended {
        Some(Some(w)) if w == side => 1.0,
        Some(Some(_)) => 0.0,
        _ => 0.5,
    }
}

/// The commands the search weighs for whatever `battle` waits for, `Normal`'s
/// first, with the deciding side and unit; `None` when the battle is over. One
/// command (or none) when there is nothing to search: a decision priced by exact
/// odds, or a turn with a single candidate close enough to `Normal`'s best.
fn candidates(
    battle: &Battle,
    rng: &mut impl Rng,
    budget: &Budget,
) -> Option<(Vec<Command>, SideId, Option<UnitId>)> {
    Some(match battle.awaiting() {
        Awaiting::Over(_) => return None,
        Awaiting::Unit(unit, _) => {
            let ranked = tactics::ranked(battle, unit, AiPolicy::Normal, rng, budget.candidates);
            let top = ranked.first().map_or(0.0, |(v, _)| *v);
            let candidates: Vec<Command> = ranked
                .into_iter()
                .filter(|(v, c)| *v >= top - budget.gap && battle.check(c).is_ok())
                .map(|(_, c)| c)
                .collect();
            (candidates, side_of(battle.world(), unit), Some(unit))
        }
        // Priced by exact odds: `Normal`'s answer; otherwise searched (module doc).
        Awaiting::Decision(decision) => {
            let normal = tactics::decide(battle, &decision, AiPolicy::Normal);
            let priced = decision.options.iter().any(|o| o.chance.is_some());
            let mut candidates: Vec<Command> = normal.into_iter().collect();
            if !priced {
                for answer in decision.answers() {
                    if candidates.len() < budget.candidates
                        && !candidates.contains(answer)
                        && battle.check(answer).is_ok()
                    {
                        candidates.push(answer.clone());
                    }
                }
            }
            (candidates, decision.side, None)
        }
    })
}

/// The search: `Normal`'s candidates played out under `budget` with `luck`.
fn search(battle: &Battle, rng: &mut impl Rng, budget: &Budget, luck: Luck) -> Option<Command> {
    let (candidates, side, unit) = candidates(battle, rng, budget)?;
    if candidates.len() <= 1 {
        return candidates.into_iter().next();
    }
    let seeds: Vec<u64> = (0..budget.rollouts).map(|_| rng.random()).collect();
    // The key of this decision's Latin-hypercube set of dice (see `aligned`).
    let set: u64 = rng.random();
    let mut totals = vec![0.0; candidates.len()];
    totals[0] = budget.prior * seeds.len() as f64;
    let mut work = 0;
    // Passes: every candidate once with the same seed, so that all have as many
    // play-outs under the same luck when the work runs out. A pass's play-outs run in
    // parallel (each thread restores its own scratch world); their results are
    // summed in candidate order, so the choice is the same whatever the threads.
    for (r, &seed) in seeds.iter().enumerate() {
        if work >= budget.work {
            break;
        }
        let sample = Sample {
            seed,
            set,
            index: r as u32,
            of: seeds.len() as u32,
        };
        let pass: Vec<(f64, usize)> = candidates
            .par_iter()
            .map(|c| {
                SCRATCH.with(|scratch| {
                    let mut scratch = scratch.borrow_mut();
                    play_out(battle, &mut scratch, c, (side, unit), sample, budget, luck)
                })
            })
            .collect();
        for ((score, commands), total) in pass.into_iter().zip(&mut totals) {
            *total += score;
            work += commands;
        }
    }
    let best =
        (0..candidates.len()).max_by(|&a, &b| totals[a].total_cmp(&totals[b]).then(b.cmp(&a)))?;
    Some(candidates[best].clone())
}

/// Plays `command` (`unit`'s, of `side`) out in a copy of `battle` with dice and
/// tie-breaks from `seed` (or the dice foreseen); returns the score of the state
/// reached for `side` and the commands submitted.
fn play_out(
    battle: &Battle,
    scratch: &mut Option<Battle>,
    command: &Command,
    (side, unit): (SideId, Option<UnitId>),
    sample: Sample,
    budget: &Budget,
    luck: Luck,
) -> (f64, usize) {
    let fork = match scratch {
        Some(s) => {
            s.restore_from(battle, Dice::seeded(sample.seed));
            s
        }
        None => scratch.insert(battle.fork(Dice::seeded(sample.seed))),
    };
    let mut counts = Vec::new();
    let mut dice = |fork: &Battle, j: usize| match luck {
        Luck::Sampled => aligned(sample, fork, &mut counts),
        Luck::Foreseen(f) => Dice::seeded(f(j)),
    };
    let d = dice(fork, 0);
    fork.set_dice(d);
    if fork.submit(command.clone()).is_err() {
        return (f64::NEG_INFINITY, 1);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(sample.seed ^ 0x9E37_79B9_7F4A_7C15);
    // A round: as many turn starts as there are units in play.
    let horizon = budget
        .rounds
        .saturating_mul(fork.units().iter().filter(|u| !u.defeated).count());
    let mut turns = 0;
    let mut last = unit;
    let mut submitted = 1;
    for j in 1..=budget.commands {
        let acting = match fork.awaiting() {
            Awaiting::Over(_) => break,
            Awaiting::Unit(u, _) => Some(u),
            Awaiting::Decision(_) => None,
        };
        if acting.is_some() && acting != last {
            last = acting;
            turns += 1;
            if turns > horizon {
                break;
            }
        }
        let Some(c) = super::choose(fork, AiPolicy::Normal, &mut rng) else {
            break;
        };
        let d = dice(fork, j);
        fork.set_dice(d);
        if fork.submit(c).is_err() {
            break;
        }
        submitted += 1;
    }
    ((budget.score)(fork, side), submitted)
}

/// Which play-out of a decision's search: its own seed, and its place in the
/// decision's Latin-hypercube set of dice.
#[derive(Clone, Copy)]
struct Sample {
    /// The play-out's seed (dice within their strata, `Normal`'s tie-breaks).
    seed: u64,
    /// The set's key, the same for every play-out of the decision.
    set: u64,
    /// The play-out's pass, `0..of`.
    index: u32,
    /// Passes planned.
    of: u32,
}

/// Dice for the next command of a play-out, the same in every candidate's play-out
/// for the same command: keyed by the round, who acts (the unit, or the side
/// answering a decision) and how many commands it has given this round in the
/// play-out (`counts`). Rolls then line up across candidates, so their scores
/// differ by what the candidates change rather than by luck. Across the passes the
/// same roll of the same command is Latin-hypercube sampled ([`Dice::stratified`]):
/// pass `r` takes its own stratum of the die's range, so a decision's few passes
/// see that roll's whole range (the archer's d20 high in some, low in others)
/// rather than a clump of it.
fn aligned(sample: Sample, fork: &Battle, counts: &mut Vec<((u32, u32), u32)>) -> Dice {
    let who = match fork.awaiting() {
        Awaiting::Unit(u, _) => u.0,
        Awaiting::Decision(d) => 1 << 20 | d.side.0,
        Awaiting::Over(_) => u32::MAX,
    };
    let key = (fork.turn().round, who);
    let n = match counts.iter_mut().find(|(k, _)| *k == key) {
        Some((_, n)) => {
            *n += 1;
            *n
        }
        None => {
            counts.push((key, 0));
            0
        }
    };
    let at = u64::from(key.0).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ u64::from(key.1).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ u64::from(n).wrapping_mul(0x1656_67B1_9E37_79F9);
    Dice::stratified(
        mix(sample.set ^ at),
        sample.index,
        sample.of,
        mix(sample.seed ^ at),
    )
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
