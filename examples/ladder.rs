//! The AI ladder of issue 32: on each duel level (`levels/duel_<ruleset>.ron`), the
//! pairings `easy`–`random`, `normal`–`easy` and `hard`–`normal`, each played
//! `BATTLES` times with the stronger policy on the first side and `BATTLES` times on
//! the second (same seed, so both seats play the same dice), and prints two Markdown
//! tables: the stronger policy's wins out of the decided battles with a 95% Wilson
//! interval, and an Elo-style rating per policy per ruleset (`random` anchored at 0,
//! each rung's difference `400·log10(p/(1−p))` with `p = (wins + ½) / (decided + 1)`
//! so that a clean sweep stays finite, added up the ladder; in brackets the interval
//! of the step from the policy below, from the rung's Wilson bounds; a sweep's upper
//! bound is +∞). Release build:
//!
//! ```sh
//! cargo run --release --no-default-features --example ladder -- [BATTLES] [SEED] [THREADS] [RULESET ...]
//! ```
//!
//! Defaults: 200 battles a seat, seed 1, 2 threads, every ruleset. Results don't
//! depend on the thread count.

mod duels;

use skirmish::ai::AiPolicy;
use skirmish::ai::sim::{SimConfig, command_limit, simulate, wilson};

/// The ladder's rungs: (stronger, weaker, the win rate the issue asks of the stronger).
const RUNGS: [(AiPolicy, AiPolicy, f64); 3] = [
    (AiPolicy::Easy, AiPolicy::Random, 0.90),
    (AiPolicy::Normal, AiPolicy::Easy, 0.65),
    (AiPolicy::Hard, AiPolicy::Normal, 0.65),
];

/// One rung measured on one level.
struct Rung {
    /// Battles won by the stronger policy (both seats).
    wins: usize,
    /// Battles won by the weaker policy.
    losses: usize,
    /// Draws and battles stopped at the command limit.
    undecided: usize,
    /// Wins of the stronger policy from the first and from the second side.
    by_seat: [usize; 2],
}

fn name(p: AiPolicy) -> &'static str {
    match p {
        AiPolicy::Random => "random",
        AiPolicy::Easy => "easy",
        AiPolicy::Normal => "normal",
        AiPolicy::Hard => "hard",
    }
}

/// The Elo difference of a win rate `p` (infinite at 0 or 1).
fn elo(p: f64) -> f64 {
    400.0 * (p / (1.0 - p)).log10()
}

fn measure(
    level: &skirmish::level::schema::Level,
    strong: AiPolicy,
    weak: AiPolicy,
    battles: usize,
    seed: u64,
) -> Rung {
    let mut rung = Rung {
        wins: 0,
        losses: 0,
        undecided: 0,
        by_seat: [0, 0],
    };
    for seat in 0..2 {
        let policies = if seat == 0 {
            vec![strong, weak]
        } else {
            vec![weak, strong]
        };
        let config = SimConfig {
            battles,
            seed,
            policies,
            max_commands: command_limit(level),
        };
        let results = simulate(level, &config, 0..battles, &|| {}).unwrap_or_else(|e| {
            eprintln!("{}: {e}", level.name);
            std::process::exit(1);
        });
        for r in results {
            match r.winner {
                Some(w) if w.0 as usize == seat => {
                    rung.wins += 1;
                    rung.by_seat[seat] += 1;
                }
                Some(_) => rung.losses += 1,
                None => rung.undecided += 1,
            }
        }
    }
    rung
}

/// A rating difference with its sign (`+∞` for a clean sweep's upper bound).
fn signed(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.0}")
    } else if x > 0.0 {
        "+∞".into()
    } else {
        "−∞".into()
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let battles: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let rulesets = duels::rulesets(args);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .expect("worker threads");
    let mut measured: Vec<(String, Vec<Rung>)> = Vec::new();
    for ruleset in &rulesets {
        let level = duels::level(ruleset);
        let rungs: Vec<Rung> = RUNGS
            .iter()
            .map(|&(strong, weak, _)| {
                let r = pool.install(|| measure(&level, strong, weak, battles, seed));
                eprintln!(
                    "{ruleset} {}–{}: {} won, {} lost, {} undecided",
                    name(strong),
                    name(weak),
                    r.wins,
                    r.losses,
                    r.undecided
                );
                r
            })
            .collect();
        measured.push((ruleset.clone(), rungs));
    }
    println!(
        "| ruleset | pairing | stronger wins / decided | 95% interval | from side 1 / side 2 | draws | target | holds |"
    );
    println!("|---|---|---:|---|---:|---:|---:|---|");
    for (ruleset, rungs) in &measured {
        for (r, &(strong, weak, target)) in rungs.iter().zip(&RUNGS) {
            let decided = r.wins + r.losses;
            let (lo, hi) = wilson(r.wins, decided);
            let p = r.wins as f64 / decided.max(1) as f64;
            println!(
                "| {ruleset} | {} – {} | {} / {} ({:.1}%) | {:.1}–{:.1}% | {} / {} | {} | ≥ {:.0}% | {} |",
                name(strong),
                name(weak),
                r.wins,
                decided,
                100.0 * p,
                100.0 * lo,
                100.0 * hi,
                r.by_seat[0],
                r.by_seat[1],
                r.undecided,
                100.0 * target,
                if p >= target { "yes" } else { "**no**" }
            );
        }
    }
    println!();
    println!("| ruleset | random | easy | normal | hard |");
    println!("|---|---:|---:|---:|---:|");
    for (ruleset, rungs) in &measured {
        let mut rating = 0.0_f64;
        let mut cells = vec!["0".to_string()];
        for r in rungs {
            let decided = r.wins + r.losses;
            let (lo, hi) = wilson(r.wins, decided);
            // Continuity-corrected, so that a rung won every time has a finite point.
            rating += elo((r.wins as f64 + 0.5) / (decided as f64 + 1.0));
            cells.push(format!(
                "{rating:.0} ({} to {})",
                signed(elo(lo)),
                signed(elo(hi))
            ));
        }
        println!("| {ruleset} | {} |", cells.join(" | "));
    }
}
