//! How much a choice can matter on the duels: the room a one-step search over
//! `normal` has, whatever it evaluates with.
//!
//! `hard` picks among the commands `normal` scores best (`normal`'s own first) and
//! then lets `normal` play on. However well it weighed them, it could at most pick,
//! at every command, the candidate that wins most often when `normal` plays every
//! side after it. By the performance-difference lemma, what that policy gains over
//! `normal` is the sum over the commands it gives of the win chance its pick adds
//! over `normal`'s at that point. This example measures that directly:
//!
//! 1. it plays `normal`-against-`normal` battles on the duel level and takes one
//!    command in `STRIDE` of either side's (every kind: moves, attacks, decisions);
//! 2. at each, it plays every candidate `hard` would weigh there `PLAYS` times to
//!    the end of the battle (`skirmish::ai::search::outcomes`: `normal` on every
//!    side after the candidate, `hard`'s aligned Latin-hypercube dice, so each
//!    candidate meets the same luck);
//! 3. it picks the best candidate on half the play-outs and measures what it adds
//!    over `normal`'s command on the other half (an honest estimate of what a search
//!    that good would gain: picking and measuring on the same play-outs would count
//!    the luck of the pick as gain); the same for a pick on the first 8 of them
//!    (what `hard`'s budget affords when its play-outs run to the end) and for
//!    `hard`'s own command; and, as an upper figure biased by the pick's luck, the
//!    best candidate's gain on all play-outs.
//!
//! Each mean gain a command, times the commands a side gives in a battle, is what
//! picking that way at every command would add to a side's 50 % against `normal`
//! (with states met in `normal`'s battles rather than the searcher's: an
//! approximation, which reads high where the gain is large). Prints a Markdown row
//! per way of picking and ruleset, and on stderr the progress and the gain by kind of
//! `normal`'s command. 1,600 commands with 96 play-outs take about 10 minutes a
//! ruleset on a 2-core machine (`docs/ai.md`'s table "How much a choice can matter
//! without seeing the dice"). Release build:
//!
//! ```sh
//! cargo run --release --no-default-features --example room -- [STATES] [PLAYS] [SEED] [STRIDE] [RULESET ...]
//! ```

mod duels;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use skirmish::ai::search::outcomes;
use skirmish::ai::sim::{ai_level, battle_seed, command_limit};
use skirmish::ai::{AiPolicy, choose};
use skirmish::engine::battle::{Awaiting, Battle};
use skirmish::engine::command::Command;
use skirmish::engine::dice::Dice;
use skirmish::engine::rulesets::new_battle;
use skirmish::level::schema::Level;

/// Play-outs to the end a search could afford under `hard`'s budget (1,800 commands
/// a decision: about 6 candidates × 8 play-outs of 35 commands).
const FEW: usize = 8;

/// One measured command: what picking among the candidates adds over `normal`'s
/// command (win chance, 0–1), for several ways of picking.
struct Gain {
    /// The best on the even play-outs, measured on the odd ones.
    picked: f64,
    /// The best on the first [`FEW`] even play-outs, measured on the odd ones.
    few: f64,
    /// `hard`'s own command, measured on the odd play-outs.
    hard: f64,
    /// The best on all play-outs, measured on them (biased up by its luck).
    best: f64,
    /// Candidates weighed (0 when there was nothing to choose).
    candidates: usize,
    /// The kind of `normal`'s command (`Move`, `Attack`, `EndTurn`, `Answer`, …).
    kind: String,
}

fn mean(v: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = v.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    s / n.max(1) as f64
}

/// The index of the best of `weighed` by `rate` (ties to the first, `normal`'s).
fn best_by(weighed: &[(Command, Vec<f64>)], rate: impl Fn(&[f64]) -> f64) -> usize {
    let mut pick = 0;
    for (i, (_, r)) in weighed.iter().enumerate() {
        if rate(r) > rate(&weighed[pick].1) {
            pick = i;
        }
    }
    pick
}

/// Measures the command `battle` waits for.
fn measure(battle: &Battle, rng: &mut ChaCha8Rng, plays: usize, commands: usize) -> Gain {
    // Drawn before `outcomes` draws, so the measured play-outs don't depend on it;
    // `hard` itself only runs where there is a choice.
    let hard_seed: u64 = rng.random();
    let weighed = outcomes(battle, rng, plays, commands);
    if weighed.is_empty() {
        return Gain {
            picked: 0.0,
            few: 0.0,
            hard: 0.0,
            best: 0.0,
            candidates: 0,
            kind: String::new(),
        };
    }
    let even = |r: &[f64]| mean(r.iter().step_by(2).copied());
    let odd = |r: &[f64]| mean(r.iter().skip(1).step_by(2).copied());
    let all = |r: &[f64]| mean(r.iter().copied());
    let first_few = |r: &[f64]| mean(r.iter().step_by(2).take(FEW).copied());
    let normal = &weighed[0].1;
    let gain = |i: usize| odd(&weighed[i].1) - odd(normal);
    let hard = choose(
        battle,
        AiPolicy::Hard,
        &mut ChaCha8Rng::seed_from_u64(hard_seed),
    );
    let by_hard = weighed
        .iter()
        .position(|(c, _)| Some(c) == hard.as_ref())
        .unwrap_or(0);
    let kind = format!("{:?}", weighed[0].0);
    Gain {
        picked: gain(best_by(&weighed, even)),
        few: gain(best_by(&weighed, first_few)),
        hard: gain(by_hard),
        best: all(&weighed[best_by(&weighed, all)].1) - all(normal),
        candidates: weighed.len(),
        kind: kind
            .split([' ', '{', '('])
            .next()
            .unwrap_or_default()
            .to_string(),
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let states: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let plays: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(64);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let stride: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(7);
    let rulesets = duels::rulesets(args);
    println!(
        "| ruleset | pick | commands measured (with a choice) | commands a side gives a battle | \
         win chance it adds a command, points (±95%) | a side's share against `normal` |"
    );
    println!("|---|---|---:|---:|---:|---:|");
    for ruleset in &rulesets {
        let level = duels::level(ruleset);
        let lv: Level = ai_level(&level, &vec![AiPolicy::Normal; level.sides.len()]);
        let limit = command_limit(&lv);
        let mut gains: Vec<Gain> = Vec::new();
        let (mut given, mut battles) = (0usize, 0usize);
        let mut i = 0u64;
        while gains.len() < states {
            let bseed = battle_seed(seed, i);
            i += 1;
            let mut battle = new_battle(&lv, Dice::seeded(bseed)).expect("a valid level");
            let mut rng = ChaCha8Rng::seed_from_u64(bseed);
            let mut probe = ChaCha8Rng::seed_from_u64(bseed ^ 0x5EED);
            let offset = (bseed % stride as u64) as usize;
            for n in 0..limit {
                if matches!(battle.awaiting(), Awaiting::Over(_)) {
                    break;
                }
                given += 1;
                if n % stride == offset && gains.len() < states {
                    gains.push(measure(&battle, &mut probe, plays, limit));
                }
                let c = choose(&battle, AiPolicy::Normal, &mut rng).expect("a legal command");
                battle.submit(c).expect("a legal command");
            }
            battles += 1;
            eprintln!(
                "{ruleset}: battle {battles}, {} commands measured",
                gains.len()
            );
        }
        let per_side = given as f64 / battles as f64 / lv.sides.len() as f64;
        let stat = |f: &dyn Fn(&Gain) -> f64| {
            let g = mean(gains.iter().map(f));
            let var = mean(gains.iter().map(|x| (f(x) - g).powi(2)));
            (g, 1.96 * (var / gains.len().max(1) as f64).sqrt())
        };
        let share = |g: f64| (50.0 + 100.0 * g * per_side).clamp(0.0, 100.0);
        let chosen = gains.iter().filter(|g| g.candidates > 1).count();
        let row = |name: &str, (g, e): (f64, f64)| {
            println!(
                "| {ruleset} | {name} | {} ({chosen}) | {per_side:.1} | {:+.2} ± {:.2} | {:.0}% ({:.0}–{:.0}%) |",
                gains.len(),
                100.0 * g,
                100.0 * e,
                share(g),
                share(g - e),
                share(g + e),
            );
        };
        row(
            &format!("best of {} play-outs", plays / 2),
            stat(&|g| g.picked),
        );
        row(&format!("best of {FEW} play-outs"), stat(&|g| g.few));
        row("`hard`'s command", stat(&|g| g.hard));
        row("best on all (biased up)", stat(&|g| g.best));
        let mut kinds: Vec<&str> = gains.iter().map(|g| g.kind.as_str()).collect();
        kinds.sort_unstable();
        kinds.dedup();
        for kind in kinds.into_iter().filter(|k| !k.is_empty()) {
            let of: Vec<&Gain> = gains.iter().filter(|g| g.kind == kind).collect();
            eprintln!(
                "{ruleset}: {kind} ({} measured): best of {} {:+.2} points, hard's {:+.2}",
                of.len(),
                plays / 2,
                100.0 * mean(of.iter().map(|g| g.picked)),
                100.0 * mean(of.iter().map(|g| g.hard)),
            );
        }
    }
}
