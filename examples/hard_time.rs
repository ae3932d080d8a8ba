//! How long the `hard` AI takes to decide: plays `hard` against `normal` from both
//! seats on every level given (default: every `levels/*.ron`, then the 24×24 bench
//! level of `benches/bench_level.rs`) and prints, per level, the mean, 99th
//! percentile and longest time of one `hard` decision. Release build, one thread:
//!
//! ```sh
//! cargo run --release --no-default-features --example hard_time -- [BATTLES] [LEVEL.ron ...]
//! ```

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use skirmish::ai::sim::{ai_level, battle_seed, command_limit};
use skirmish::ai::{AiPolicy, choose};
use skirmish::engine::battle::{Awaiting, side_of};
use skirmish::engine::dice::Dice;
use skirmish::engine::rulesets::new_battle;
use skirmish::level::schema::Level;

/// The allocator the game runs with (see `src/main.rs`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../benches/bench_level.rs"]
mod bench_level;

fn main() {
    let mut args = std::env::args().skip(1);
    let battles: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let mut files: Vec<String> = args.collect();
    let mut levels: Vec<Level> = Vec::new();
    let all = files.is_empty();
    if all {
        let mut found: Vec<String> = std::fs::read_dir("levels")
            .expect("run from the repository")
            .filter_map(|e| e.ok())
            .map(|e| e.path().display().to_string())
            .filter(|p| p.ends_with(".ron"))
            .collect();
        found.sort();
        files = found;
    }
    for f in &files {
        match skirmish::level::load_file(std::path::Path::new(f)) {
            Ok(l) => levels.push(l),
            Err(e) => {
                eprintln!("{f}: {e:?}");
                std::process::exit(2);
            }
        }
    }
    if all {
        levels.push(bench_level::bench_level());
    }
    println!("| level | decisions | mean ms | p99 ms | max ms |");
    println!("|---|---:|---:|---:|---:|");
    for level in &levels {
        let mut times: Vec<Duration> = Vec::new();
        for seat in 0..2 {
            let mut policies = vec![AiPolicy::Normal; level.sides.len()];
            policies[seat] = AiPolicy::Hard;
            let lv = ai_level(level, &policies);
            for i in 0..battles {
                let seed = battle_seed(1, i);
                let mut battle = new_battle(&lv, Dice::seeded(seed)).unwrap();
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                for _ in 0..command_limit(&lv) {
                    let side = match battle.awaiting() {
                        Awaiting::Over(_) => break,
                        Awaiting::Decision(d) => d.side,
                        Awaiting::Unit(u, _) => side_of(battle.world(), u),
                    };
                    let policy = policies[side.0 as usize];
                    let start = Instant::now();
                    let c = choose(&battle, policy, &mut rng).unwrap();
                    if policy == AiPolicy::Hard {
                        times.push(start.elapsed());
                    }
                    battle.submit(c).unwrap();
                }
            }
        }
        times.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let n = times.len().max(1);
        let mean = times.iter().map(|&d| ms(d)).sum::<f64>() / n as f64;
        let p99 = times.get(n * 99 / 100).map_or(0.0, |&d| ms(d));
        let max = times.last().map_or(0.0, |&d| ms(d));
        println!(
            "| {} | {} | {mean:.2} | {p99:.2} | {max:.2} |",
            level.name,
            times.len()
        );
    }
}
