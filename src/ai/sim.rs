//! AI-vs-AI battles without a window: [`play_out`] plays one battle to its end,
//! [`simulate`] plays many on every core and [`Summary`] aggregates them.
//!
//! Determinism: battle `i` of a run with seed `S` gets its own seed
//! [`battle_seed`]`(S, i)`, from which its dice and its AI's choices are drawn, and
//! results are aggregated in index order; so a run gives the same figures whatever
//! the number of threads, and any share of the indices played apart (a shard, see
//! [`simulate`]) gives exactly those battles of the full run.
//!
//! The figures ([`Summary`]) are rebuilt from the per-battle results and a small
//! serializable [`RunInfo`] by [`summarize`], without the level: a run played in one
//! go, the shards of a run merged on another machine and each value of a sweep are
//! aggregated by that one function.
//!
//! Two limits stop a battle that doesn't end by itself:
//!
//! - the **round limit**: a draw, declared by the engine, after the level's
//!   `victory.max_rounds`, or after [`DEFAULT_MAX_ROUNDS`] when the level sets none;
//! - the **command limit**: a work bound against a battle that never advances (or
//!   advances very slowly). After [`command_limit`] commands — the level's
//!   `victory.max_commands`, else a default proportional to units × rounds, generous
//!   enough that normal battles end by rounds first — the battle is stopped
//!   *unfinished*: neither a win nor a draw, and counted apart
//!   ([`BattleResult::cut_off_by_commands`], [`Summary::cut_off_by_commands`]).

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::record::{Tally, UnitFigures, UnitTally, unit_figures};
use super::{AiPolicy, choose, policy_name};
use crate::engine::battle::Battle;
use crate::engine::dice::Dice;
use crate::engine::event::Event;
use crate::engine::rulesets::new_battle;
use crate::engine::units::{SideId, UnitId};
use crate::level::schema::{Controller, DecisionPolicy, Level};

/// Round limit of a simulated battle on a level that sets none.
pub const DEFAULT_MAX_ROUNDS: u32 = 50;

/// Commands per unit and per round that the default command limit allows (see
/// [`command_limit`]). A unit's turn takes a few commands (`phases`: a move, an attack,
/// the end of the turn; `flow`: up to one per AP) plus the reactions and decisions it
/// is asked; this is several times the most seen in AI-vs-AI battles.
pub const COMMANDS_PER_UNIT_ROUND: u64 = 40;

/// The smallest default command limit, whatever the roster.
pub const MIN_COMMAND_LIMIT: u64 = 1_000;

/// The command limit of an AI-vs-AI battle on `level`: its `victory.max_commands` if
/// set, else [`COMMANDS_PER_UNIT_ROUND`] × units × round limit (the level's
/// `victory.max_rounds`, or [`DEFAULT_MAX_ROUNDS`]), at least [`MIN_COMMAND_LIMIT`].
///
/// The default grows with the roster and the rounds a battle may last; the map enters
/// through the rounds (a wider map needs more rounds to close in, not more commands
/// per round).
pub fn command_limit(level: &Level) -> usize {
    let limit = match level.victory.max_commands {
        Some(n) => n,
        None => {
            let rounds = u64::from(level.victory.max_rounds.unwrap_or(DEFAULT_MAX_ROUNDS));
            let units = level.units.len() as u64;
            COMMANDS_PER_UNIT_ROUND
                .saturating_mul(units)
                .saturating_mul(rounds)
                .max(MIN_COMMAND_LIMIT)
        }
    };
    usize::try_from(limit).unwrap_or(usize::MAX)
}

/// How one battle went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BattleResult {
    /// Its number in its run (0-based; it plays with [`battle_seed`]`(run seed,
    /// index)`), set by [`simulate`]; 0 for a battle played on its own
    /// ([`play_out`]).
    pub index: usize,
    /// The winning side (`None` = a draw, or a battle stopped at the command limit).
    pub winner: Option<SideId>,
    /// Rounds played.
    pub rounds: u32,
    /// Damage taken by each side's units, by side index.
    pub damage_taken: Vec<i64>,
    /// Commands submitted.
    pub commands: usize,
    /// Whether the battle was a draw at the round limit.
    pub cut_off: bool,
    /// Whether the battle was stopped, unfinished, at the command limit (then it is
    /// neither won nor a draw).
    pub cut_off_by_commands: bool,
    /// Each unit's figures, by roster index, from the battle's record (attacks,
    /// damage dealt and taken, kills, the round it left play).
    #[serde(default)]
    pub units: Vec<UnitTally>,
}

impl BattleResult {
    /// All damage dealt in the battle.
    pub fn damage(&self) -> i64 {
        self.damage_taken.iter().sum()
    }
}

/// The seed of battle number `index` of a run seeded with `seed` (SplitMix64 of both,
/// so neighbouring indices get unrelated seeds).
pub fn battle_seed(seed: u64, index: u64) -> u64 {
    splitmix(splitmix(seed) ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `level` prepared for an AI-vs-AI battle: every side an AI with its policy (one per
/// side, in side order; missing ones play `Normal`), asked for every decision (so the
/// AI answers them instead of the level's automatic policy), and a round limit.
pub fn ai_level(level: &Level, policies: &[AiPolicy]) -> Level {
    let mut level = level.clone();
    for (i, side) in level.sides.iter_mut().enumerate() {
        let policy = policies.get(i).copied().unwrap_or(AiPolicy::Normal);
        side.controller = Controller::Ai(policy);
        side.decisions = DecisionPolicy::Ask;
    }
    if level.victory.max_rounds.is_none() {
        level.victory.max_rounds = Some(DEFAULT_MAX_ROUNDS);
    }
    level
}

/// Plays one battle on `level` with AI `policies` (one per side, in side order) and
/// dice and AI choices drawn from `seed`, to the end, to the round limit or to
/// `max_commands` commands (usually [`command_limit`]`(level)`; see the module docs).
/// Errors if the level can't be played or the engine refuses a command.
pub fn play_out(
    level: &Level,
    seed: u64,
    policies: &[AiPolicy],
    max_commands: usize,
) -> Result<BattleResult, String> {
    let level = ai_level(level, policies);
    let mut battle = new_battle(&level, Dice::seeded(splitmix(seed)))?;
    let mut rng = ChaCha8Rng::seed_from_u64(splitmix(seed ^ 0x5EED));
    play(&mut battle, &level, &mut rng, max_commands)
}

/// Plays the same battle as [`play_out`] and also returns its event log as text
/// lines (what `skirmish sim --log INDEX` prints).
pub fn play_logged(
    level: &Level,
    seed: u64,
    policies: &[AiPolicy],
    max_commands: usize,
) -> Result<(BattleResult, Vec<String>), String> {
    let level = ai_level(level, policies);
    let mut battle = new_battle(&level, Dice::seeded(splitmix(seed)))?;
    let mut rng = ChaCha8Rng::seed_from_u64(splitmix(seed ^ 0x5EED));
    let result = play(&mut battle, &level, &mut rng, max_commands)?;
    Ok((result, crate::script::log_lines(&battle)))
}

/// Plays the same battle as [`play_out`] and also returns it as a battle file (what
/// `skirmish sim --save-battle INDEX FILE` writes), naming the level file `source`.
pub fn play_recorded(
    level: &Level,
    seed: u64,
    policies: &[AiPolicy],
    max_commands: usize,
    source: Option<&std::path::Path>,
) -> Result<(BattleResult, crate::replay::BattleFile), String> {
    let level = ai_level(level, policies);
    let dice = crate::replay::DiceSource::Seed(splitmix(seed));
    let mut battle = new_battle(&level, dice.dice())?;
    let mut rng = ChaCha8Rng::seed_from_u64(splitmix(seed ^ 0x5EED));
    let result = play(&mut battle, &level, &mut rng, max_commands)?;
    let file = crate::replay::BattleFile::record(&battle, &level, dice, source);
    Ok((result, file))
}

/// Plays `battle` (set up from `level`) with each side's AI controller, to the end or
/// to `max_commands` commands.
pub fn play(
    battle: &mut Battle,
    level: &Level,
    rng: &mut impl rand::Rng,
    max_commands: usize,
) -> Result<BattleResult, String> {
    let policies: Vec<AiPolicy> = level
        .sides
        .iter()
        .map(|s| match s.controller {
            Controller::Ai(p) => p,
            Controller::Human => AiPolicy::Normal,
        })
        .collect();
    let sides = level.sides.len();
    let side_of: Vec<usize> = level
        .units
        .iter()
        .map(|u| {
            level
                .sides
                .iter()
                .position(|s| s.name == u.side)
                .unwrap_or(0)
        })
        .collect();
    let mut damage_taken = vec![0_i64; sides];
    let mut record = Tally::new(level.units.len());
    let mut tally = |events: &[Event]| {
        record.add(events);
        for e in events {
            if let Event::Damaged { unit, amount, .. } = e
                && let Some(&s) = side_of.get(unit.0 as usize)
            {
                damage_taken[s] += i64::from(*amount);
            }
        }
    };
    tally(battle.events());
    let mut commands = 0;
    loop {
        let deciding = match battle.awaiting() {
            crate::engine::battle::Awaiting::Over(winner) => {
                let rounds = battle.turn().round;
                return Ok(BattleResult {
                    index: 0,
                    winner,
                    rounds,
                    damage_taken,
                    commands,
                    cut_off: winner.is_none()
                        && level.victory.max_rounds.is_some_and(|m| rounds >= m),
                    cut_off_by_commands: false,
                    units: record.finish(),
                });
            }
            crate::engine::battle::Awaiting::Decision(d) => d.side,
            crate::engine::battle::Awaiting::Unit(u, _) => unit_side(battle, u),
        };
        if commands >= max_commands {
            return Ok(BattleResult {
                index: 0,
                winner: None,
                rounds: battle.turn().round,
                damage_taken,
                commands,
                cut_off: false,
                cut_off_by_commands: true,
                units: record.finish(),
            });
        }
        let policy = policies
            .get(deciding.0 as usize)
            .copied()
            .unwrap_or_default();
        let Some(command) = choose(battle, policy, rng) else {
            return Err(format!(
                "round {}: {} has no legal command",
                battle.turn().round,
                battle.side_name(deciding)
            ));
        };
        let round = battle.turn().round;
        let events = match battle.submit(command.clone()) {
            Ok(events) => events,
            Err(e) => {
                return Err(format!(
                    "round {round}: {} refused: {e}",
                    command.display(&*battle)
                ));
            }
        };
        tally(events);
        commands += 1;
    }
}

fn unit_side(battle: &Battle, unit: UnitId) -> SideId {
    crate::engine::battle::side_of(battle.world(), unit)
}

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// Number of battles.
    pub battles: usize,
    /// Seed of the run; battle `i` uses [`battle_seed`]`(seed, i)`.
    pub seed: u64,
    /// AI policy per side, in side order.
    pub policies: Vec<AiPolicy>,
    /// Commands after which a battle is stopped, unfinished (usually
    /// [`command_limit`] of the level).
    pub max_commands: usize,
}

/// Plays the battles numbered `indices` of the run `config` (all of them:
/// `0..config.battles`; a shard: its share) in parallel (rayon's current pool) and
/// returns their results in index order, each carrying its index; `on_done` is
/// called after each battle (from any thread), e.g. to advance a progress bar. The
/// first error in index order is returned.
pub fn simulate(
    level: &Level,
    config: &SimConfig,
    indices: std::ops::Range<usize>,
    on_done: &(dyn Fn() + Sync),
) -> Result<Vec<BattleResult>, String> {
    indices
        .into_par_iter()
        .map(|i| {
            let seed = battle_seed(config.seed, i as u64);
            let r = play_out(level, seed, &config.policies, config.max_commands)
                .map(|r| BattleResult { index: i, ..r })
                .map_err(|e| format!("battle {i} (seed {seed}): {e}"));
            on_done();
            r
        })
        .collect()
}

/// What a run is, apart from its battles: what [`summarize`] needs besides the
/// per-battle results, so that figures can be rebuilt without the level (a shard
/// file holds it with its results). Two runs with equal `RunInfo`s play the same
/// battles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunInfo {
    /// Level name.
    pub level: String,
    /// Ruleset played.
    pub ruleset: String,
    /// Side names, in side order.
    pub sides: Vec<String>,
    /// Seed of the run.
    pub seed: u64,
    /// AI policy name of each side, in side order.
    pub policies: Vec<String>,
    /// Battles the run plays (all its shards together).
    pub battles: usize,
    /// The command limit of a battle ([`command_limit`]).
    pub max_commands: usize,
    /// The round limit of a battle (the level's, else [`DEFAULT_MAX_ROUNDS`]).
    pub max_rounds: u32,
    /// A fingerprint of the level as played (after any changes made to it for the
    /// run): runs on differently edited copies of a level differ here.
    pub level_digest: String,
    /// Each unit's name and side name, in roster order (the rows of the per-unit
    /// figures).
    #[serde(default)]
    pub units: Vec<(String, String)>,
    /// What the run changed in the level, `KEY=VALUE` each (`skirmish sim --set`,
    /// and the value of a sweep), in order; empty for the level as it is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub set: Vec<String>,
}

impl RunInfo {
    /// The run `config` on `level`.
    pub fn new(level: &Level, config: &SimConfig) -> Self {
        Self {
            level: level.name.clone(),
            ruleset: level.ruleset.clone(),
            sides: level.sides.iter().map(|s| s.name.clone()).collect(),
            seed: config.seed,
            policies: (0..level.sides.len())
                .map(|i| {
                    let p = config.policies.get(i).copied().unwrap_or_default();
                    policy_name(p).to_string()
                })
                .collect(),
            battles: config.battles,
            max_commands: config.max_commands,
            max_rounds: level.victory.max_rounds.unwrap_or(DEFAULT_MAX_ROUNDS),
            level_digest: level_digest(level),
            units: level
                .units
                .iter()
                .map(|u| (u.name.clone(), u.side.clone()))
                .collect(),
            set: Vec::new(),
        }
    }
}

/// A fingerprint of `level`: FNV-1a (64 bits) of its RON text, in hex. Stable
/// across machines and builds (unlike `std`'s hasher), so shards played apart can
/// be checked to have played the same level.
pub fn level_digest(level: &Level) -> String {
    let text = ron::to_string(level).unwrap_or_default();
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// The figures of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Level name.
    pub level: String,
    /// Ruleset played.
    pub ruleset: String,
    /// Seed of the run.
    pub seed: u64,
    /// Battles played.
    pub battles: usize,
    /// What the run changed in the level (`KEY=VALUE` each, [`RunInfo::set`]); in the
    /// JSON only when there are changes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub set: Vec<String>,
    /// Policy of each side, by side name.
    pub policies: BTreeMap<String, String>,
    /// Wins by side name.
    pub wins: BTreeMap<String, usize>,
    /// Share of battles each side won, by side name.
    pub win_rates: BTreeMap<String, f64>,
    /// The 95% Wilson score interval of each side's win rate, `[low, high]`, by side
    /// name: where the true rate lies, given the battles played ([`wilson`]).
    pub win_ci: BTreeMap<String, [f64; 2]>,
    /// One line when the intervals say the level is lopsided (a side's interval lies
    /// above 65% of the battles: it leans; above 90%: its setup decides it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// Battles that ended in a draw (including those at the round limit); battles
    /// stopped at the command limit are not draws.
    pub draws: usize,
    /// Battles that were a draw at the round limit.
    pub cut_off: usize,
    /// Battles stopped, unfinished, at the command limit (in the JSON only when there
    /// are some).
    #[serde(skip_serializing_if = "is_zero")]
    pub cut_off_by_commands: usize,
    /// Mean rounds per battle.
    pub mean_rounds: f64,
    /// Standard deviation of rounds per battle.
    pub std_rounds: f64,
    /// Shortest battle, in rounds.
    pub min_rounds: u32,
    /// Longest battle, in rounds.
    pub max_rounds: u32,
    /// Battles by length: `[rounds, count]`, ascending.
    pub rounds_histogram: Vec<(u32, usize)>,
    /// Damage dealt per round, all sides together.
    pub damage_per_round: f64,
    /// Mean damage taken per battle, by side name.
    pub damage_taken: BTreeMap<String, f64>,
    /// Mean share of the level's units out of play (defeated, dying, fled) when a
    /// battle ended, 0 to 1.
    pub units_down: f64,
    /// Each unit's figures, in roster order: attacks, hit rate against the mean
    /// predicted chance, damage dealt and taken, kills, survival, mean round of
    /// defeat ([`crate::ai::record`]).
    pub units: Vec<UnitFigures>,
    /// Mean commands per battle.
    pub mean_commands: f64,
    /// Battles per second of wall-clock time (the one figure that varies between runs).
    pub battles_per_second: f64,
    /// Threads used.
    pub threads: usize,
}

/// The figures of the run `info` from its battles' `results` (in index order; all
/// of them, or as many as were played), played in `seconds` on `threads` threads:
/// the one aggregation of a run played in one go, of merged shards and of each
/// value of a sweep.
pub fn summarize(
    info: &RunInfo,
    results: &[BattleResult],
    seconds: f64,
    threads: usize,
) -> Summary {
    let names = &info.sides;
    let n = results.len();
    let nf = n.max(1) as f64;
    let mut wins: BTreeMap<String, usize> = names.iter().map(|s| (s.clone(), 0)).collect();
    let mut draws = 0;
    let mut hist: BTreeMap<u32, usize> = BTreeMap::new();
    let mut damage_taken = vec![0_i64; names.len()];
    for r in results {
        match r.winner.and_then(|w| names.get(w.0 as usize)) {
            Some(name) => *wins.entry(name.clone()).or_default() += 1,
            None if r.cut_off_by_commands => {}
            None => draws += 1,
        }
        *hist.entry(r.rounds).or_default() += 1;
        for (total, d) in damage_taken.iter_mut().zip(&r.damage_taken) {
            *total += d;
        }
    }
    let rounds: Vec<f64> = results.iter().map(|r| f64::from(r.rounds)).collect();
    let mean = rounds.iter().sum::<f64>() / nf;
    let var = rounds.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / nf;
    let total_rounds: f64 = rounds.iter().sum();
    let total_damage: i64 = results.iter().map(BattleResult::damage).sum();
    let units = unit_figures(
        &info.units,
        &results
            .iter()
            .map(|r| r.units.as_slice())
            .collect::<Vec<_>>(),
    );
    // The mean share of units down at the end of a battle: the mean of the units'
    // shares of battles they left play in.
    let units_down = if units.is_empty() {
        0.0
    } else {
        units.iter().map(|u| 1.0 - u.survival).sum::<f64>() / units.len() as f64
    };
    Summary {
        level: info.level.clone(),
        ruleset: info.ruleset.clone(),
        seed: info.seed,
        battles: n,
        set: info.set.clone(),
        policies: names
            .iter()
            .cloned()
            .zip(info.policies.iter().cloned())
            .collect(),
        win_rates: wins
            .iter()
            .map(|(s, &w)| (s.clone(), w as f64 / nf))
            .collect(),
        win_ci: wins
            .iter()
            .map(|(s, &w)| {
                let (lo, hi) = wilson(w, n);
                (s.clone(), [lo, hi])
            })
            .collect(),
        verdict: verdict(&wins, n),
        wins,
        draws,
        cut_off: results.iter().filter(|r| r.cut_off).count(),
        cut_off_by_commands: results.iter().filter(|r| r.cut_off_by_commands).count(),
        mean_rounds: mean,
        std_rounds: var.sqrt(),
        min_rounds: results.iter().map(|r| r.rounds).min().unwrap_or(0),
        max_rounds: results.iter().map(|r| r.rounds).max().unwrap_or(0),
        rounds_histogram: hist.into_iter().collect(),
        damage_per_round: if total_rounds > 0.0 {
            total_damage as f64 / total_rounds
        } else {
            0.0
        },
        damage_taken: names
            .iter()
            .zip(&damage_taken)
            .map(|(s, &d)| (s.clone(), d as f64 / nf))
            .collect(),
        units_down,
        units,
        mean_commands: results.iter().map(|r| r.commands as f64).sum::<f64>() / nf,
        battles_per_second: if seconds > 0.0 {
            n as f64 / seconds
        } else {
            0.0
        },
        threads,
    }
}

/// The 95% Wilson score interval of a rate of `successes` in `n` trials, `(low,
/// high)`, within 0 to 1: unlike the normal approximation it stays inside [0, 1] and
/// is honest at 0 or `n` successes (0 of 30 gives 0 to 11.4%). `(0, 1)` for no
/// trials.
pub fn wilson(successes: usize, n: usize) -> (f64, f64) {
    /// The normal quantile of 97.5%.
    const Z: f64 = 1.959_963_984_540_054;
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n) = (successes as f64, n as f64);
    let p = k / n;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0 or n successes the bound is exactly 0 or 1 (no rounding below or above).
    let lo = if successes == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if k == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo, hi)
}

/// The one-line verdict on a lopsided run: the side whose 95% interval lies above
/// 90% of the battles ("decided by its setup") or above 65% ("leans to it").
fn verdict(wins: &BTreeMap<String, usize>, n: usize) -> Option<String> {
    let (side, &w) = wins.iter().max_by_key(|(_, w)| **w)?;
    let (lo, hi) = wilson(w, n);
    let what = if lo > 0.9 {
        "the level is decided by its setup".to_string()
    } else if lo > 0.65 {
        format!("the level leans to {side}")
    } else {
        return None;
    };
    Some(format!(
        "{side} wins {:.1}% [{:.1}–{:.1}]: {what}",
        100.0 * w as f64 / n as f64,
        100.0 * lo,
        100.0 * hi
    ))
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}
