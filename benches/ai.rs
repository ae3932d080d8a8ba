//! AI benchmarks on a 24×24 level with 8 units a side (built here in code):
//!
//! - `side_turn`: one AI side-turn, i.e. every command one side's `normal` AI
//!   chooses in one round (8 movement turns and 8 battle turns in `phases`),
//!   averaged over whole normal-vs-normal battles. Only the AI's thinking is timed,
//!   not the engine executing the commands. Target: under 2 ms.
//! - `battle`: one whole normal-vs-normal battle, set-up, thinking and rules
//!   included. Target: 200 battles per second per core (5 ms).
//!
//! Run with `cargo bench --no-default-features --bench ai`.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use skirmish::ai::sim::{ai_level, battle_seed, play_out};
use skirmish::ai::{AiPolicy, choose};
use skirmish::engine::Battle;
use skirmish::engine::battle::{Awaiting, side_of};
use skirmish::engine::board::GridKind;
use skirmish::engine::dice::Dice;
use skirmish::engine::units::SideId;
use skirmish::level::schema::*;

/// A mirrored 24×24 square map: two armies of 8 (a tier 2 leader, four melee, two
/// archers, a skirmisher) facing each other across scattered rocks and a marsh.
fn bench_level() -> Level {
    let (w, h) = (24_usize, 24_usize);
    let mut rows = vec![vec!['.'; w]; h];
    for (x, y) in [
        (6, 4),
        (7, 4),
        (11, 8),
        (12, 8),
        (5, 15),
        (9, 11),
        (10, 11),
        (3, 19),
    ] {
        rows[y][x] = '#';
        rows[h - 1 - y][w - 1 - x] = '#';
    }
    for row in &mut rows[9..15] {
        row[10..14].fill('~');
    }
    let terrain = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    let mut units = Vec::new();
    for (side, x, dx) in [("West", 1, 1), ("East", 22, -1)] {
        let roster: [(&str, i32, i32, &str, u32, bool, i32); 8] = [
            ("Leader", 2, 3, "1d10", 1, false, 13),
            ("Guard A", 1, 2, "1d8", 1, false, 12),
            ("Guard B", 1, 2, "1d8", 1, false, 12),
            ("Spear A", 1, 2, "1d6", 2, false, 11),
            ("Spear B", 1, 2, "1d6", 2, false, 11),
            ("Archer A", 1, 2, "1d8", 10, true, 11),
            ("Archer B", 1, 2, "1d8", 10, true, 11),
            ("Scout", 1, 2, "1d6", 1, false, 12),
        ];
        for (i, (name, tier, atk, damage, range, ranged, def)) in roster.into_iter().enumerate() {
            let stats = BTreeMap::from([
                ("INT".to_string(), 1),
                ("AGI".to_string(), (i % 3) as i32),
                ("ATK".to_string(), atk),
                ("DEF".to_string(), def),
                ("Tier".to_string(), tier),
            ]);
            let column = if ranged { x - dx } else { x + dx };
            units.push(UnitDef {
                name: format!("{side} {name}"),
                side: side.to_string(),
                pos: (column, 6 + 2 * i as i32),
                stats,
                powers: vec![PowerDef {
                    name: if ranged { "Bow" } else { "Blade" }.into(),
                    range,
                    ranged,
                    damage: damage.into(),
                    add_tier: true,
                    on_hit: vec![],
                    damage_type: None,
                    traits: Vec::new(),
                }],
                movement: if name == "Scout" {
                    vec!["Bound".into()]
                } else {
                    vec![]
                },
                items: vec![],
                ..Default::default()
            });
        }
    }
    Level {
        name: "Bench 24x24".into(),
        version: 1,
        ruleset: "phases".into(),
        grid: GridKind::Square,
        size: (w as u32, h as u32),
        terrain,
        sides: ["West", "East"]
            .into_iter()
            .map(|n| SideDef {
                name: n.into(),
                controller: Controller::Ai(AiPolicy::Normal),
                decisions: DecisionPolicy::Ask,
                traits: Vec::new(),
            })
            .collect(),
        units,
        rules: BTreeMap::new(),
        victory: Victory {
            max_rounds: Some(30),
            ..Victory::default()
        },
        seed: None,
    }
}

/// Plays normal-vs-normal battles until `turns` side-turns of side 0 have been
/// played, and returns the time its AI spent choosing.
fn time_side_turns(level: &Level, turns: u64, seed: &mut u64) -> Duration {
    let policies = [AiPolicy::Normal, AiPolicy::Normal];
    let level = ai_level(level, &policies);
    let mut spent = Duration::ZERO;
    let mut done = 0;
    while done < turns {
        *seed += 1;
        let mut battle = Battle::from_level(&level, Dice::seeded(*seed)).unwrap();
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
    group.finish();
}

criterion_group!(ai, benches);
criterion_main!(ai);
