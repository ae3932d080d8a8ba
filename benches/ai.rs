//! AI benchmarks on a 24×24 level with 8 units a side (built here in code):
//!
//! - `side_turn`: one AI side-turn, i.e. every command one side's `normal` AI
//!   chooses in one round (8 movement turns and 8 battle turns in `phases`),
//!   averaged over whole normal-vs-normal battles. Only the AI's thinking is timed,
//!   not the engine executing the commands. Target: under 2 ms.
//! - `battle`: one whole normal-vs-normal battle, set-up, thinking and rules
//!   included. Target: 200 battles per second per core (5 ms).
//! - `engine_replay`: the same battles' commands submitted again with no AI
//!   (set-up and rules only): the floor under `battle`, what the engine costs
//!   whatever the AI.
//!
//! Run with `cargo bench --no-default-features --bench ai`.
//!
//! Figures (issue 18), this bench on an idle 2-core machine (release build, mimalloc,
//! 2026-11-26): `side_turn` 0.84 ms (target under 2 ms: met), `battle` 34.3 ms,
//! about 29 battles per second per core (target 200: not met; `skirmish sim
//! benches/levels/bench_24x24.ron --battles 100 --threads 1` says 27.5),
//! `engine_replay` 3.23 ms. The floor alone leaves `normal` about 6 µs a decision at
//! 200 battles a second; a decision costs about 100 µs (move tree, cell scores,
//! odds, previews: see `docs/speed.md`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use skirmish::ai::sim::{ai_level, battle_seed, play_out};
use skirmish::ai::{AiPolicy, choose};
use skirmish::engine::battle::{Awaiting, side_of};
use skirmish::engine::dice::Dice;
use skirmish::engine::rulesets::new_battle;
use skirmish::engine::units::SideId;
use skirmish::level::schema::*;

/// The allocator the `skirmish` binary runs with (see `src/main.rs`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "bench_level.rs"]
mod bench_level;
use bench_level::bench_level;

/// Plays normal-vs-normal battles until `turns` side-turns of side 0 have been
/// played, and returns the time its AI spent choosing.
fn time_side_turns(level: &Level, turns: u64, seed: &mut u64) -> Duration {
    let policies = [AiPolicy::Normal, AiPolicy::Normal];
    let level = ai_level(level, &policies);
    let mut spent = Duration::ZERO;
    let mut done = 0;
    while done < turns {
        *seed += 1;
        let mut battle = new_battle(&level, Dice::seeded(*seed)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(*seed);
        let mut round = battle.turn().round;
        loop {
            let side = match battle.awaiting() {
                Awaiting::Over(_) => break,
                Awaiting::Decision(d) => d.side,
                Awaiting::Unit(u, _) => side_of(battle.world(), u),
            };
            let start = Instant::now();
            let command = choose(&battle, AiPolicy::Normal, &mut rng).unwrap();
            if side == SideId(0) {
                spent += start.elapsed();
            }
            battle.submit(black_box(command)).unwrap();
            if battle.turn().round != round {
                round = battle.turn().round;
                done += 1;
                if done == turns {
                    break;
                }
            }
        }
    }
    spent
}

fn benches(c: &mut Criterion) {
    let level = bench_level();
    let problems = skirmish::level::validate::validate(&level);
    assert!(problems.is_empty(), "bench level is invalid: {problems:?}");
    let mut group = c.benchmark_group("ai_24x24_8v8");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(8));
    let mut seed = 0;
    group.bench_function("side_turn", |b| {
        b.iter_custom(|turns| time_side_turns(&level, turns, &mut seed))
    });
    let mut i = 0;
    group.bench_function("battle", |b| {
        b.iter(|| {
            i += 1;
            let policies = [AiPolicy::Normal, AiPolicy::Normal];
            black_box(play_out(&level, battle_seed(7, i), &policies, 20_000).unwrap())
        })
    });
    // The commands of a few whole battles, recorded once, then replayed.
    let played: Vec<(u64, Vec<skirmish::engine::command::Command>)> = (1..=8)
        .map(|i| {
            let policies = [AiPolicy::Normal, AiPolicy::Normal];
            let seed = battle_seed(7, i);
            let level = ai_level(&level, &policies);
            let (_, file) =
                skirmish::ai::sim::play_recorded(&level, seed, &policies, 20_000, None).unwrap();
            let skirmish::replay::DiceSource::Seed(dice) = file.dice else {
                unreachable!("sim battles roll seeded dice")
            };
            (dice, file.commands)
        })
        .collect();
    let replay_level = ai_level(&level, &[AiPolicy::Normal, AiPolicy::Normal]);
    let mut k = 0;
    group.bench_function("engine_replay", |b| {
        b.iter(|| {
            let (dice, commands) = &played[k % played.len()];
            k += 1;
            let mut battle = new_battle(&replay_level, Dice::seeded(*dice)).unwrap();
            for c in commands {
                battle.submit(black_box(c.clone())).unwrap();
            }
            black_box(battle.turn().round)
        })
    });
    group.finish();
}

criterion_group!(ai, benches);
criterion_main!(ai);
