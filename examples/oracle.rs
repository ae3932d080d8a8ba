//! How far skill could go on the duels: an AI that sees the dice in advance
//! (`skirmish::ai::search::choose_foreseeing`: `hard`'s search over `normal`'s 6
//! best commands, each played out for a round with the dice the battle will really
//! roll) against `normal`, on each duel level, `BATTLES` battles from each seat.
//! The battle's dice are re-seeded before every command from the battle's seed and
//! the command's number, so the oracle knows them (`normal` against `normal` under
//! the same re-seeding plays the same battles from both seats: 50 %). Prints the
//! oracle's wins out of the decided battles, both seats together, with the 95 %
//! Wilson interval. Release build:
//!
//! ```sh
//! cargo run --release --no-default-features --example oracle -- [BATTLES] [SEED] [THREADS] [RULESET ...]
//! ```

mod duels;

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rayon::prelude::*;
use skirmish::ai::search::choose_foreseeing;
use skirmish::ai::sim::{ai_level, battle_seed, command_limit, wilson};
use skirmish::ai::{AiPolicy, choose};
use skirmish::engine::battle::{Awaiting, side_of};
use skirmish::engine::dice::Dice;
use skirmish::engine::rulesets::new_battle;
use skirmish::level::schema::Level;

/// Plays battle `seed` with the oracle on side `seat` and `normal` on the others;
/// the winner's side index, if any.
fn play(level: &Level, seed: u64, seat: usize) -> Option<usize> {
    let lv = ai_level(level, &vec![AiPolicy::Normal; level.sides.len()]);
    let mut battle = new_battle(&lv, Dice::seeded(seed)).expect("a valid level");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let dice = |n: usize| battle_seed(seed, n as u64);
    for n in 0..command_limit(&lv) {
        let side = match battle.awaiting() {
            Awaiting::Over(winner) => return winner.map(|w| w.0 as usize),
            Awaiting::Decision(d) => d.side,
            Awaiting::Unit(u, _) => side_of(battle.world(), u),
        };
        battle.set_dice(Dice::seeded(dice(n)));
        let foreseen = (side.0 as usize == seat)
            .then(|| choose_foreseeing(&battle, &mut rng, &|j| dice(n + j)))
            .flatten()
            .filter(|c| battle.check(c).is_ok());
        let c = foreseen
            .or_else(|| choose(&battle, AiPolicy::Normal, &mut rng))
            .expect("a legal command");
        battle.submit(c).expect("a checked command");
    }
    None
}

fn main() {
    let mut args = std::env::args().skip(1);
    let battles: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let rulesets = duels::rulesets(args);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .expect("worker threads");
    println!("| ruleset | oracle wins / decided | 95% interval | from side 1 / side 2 | draws |");
    println!("|---|---:|---|---:|---:|");
    for ruleset in &rulesets {
        let level = duels::level(ruleset);
        let runs: Vec<(usize, u64)> = (0..2)
            .flat_map(|seat| (0..battles).map(move |i| (seat, i)))
            .collect();
        let results: Vec<(usize, Option<usize>)> = pool.install(|| {
            runs.par_iter()
                .map(|&(seat, i)| (seat, play(&level, battle_seed(seed, i), seat)))
                .collect()
        });
        let won = |seat: usize| {
            results
                .iter()
                .filter(|(s, w)| *s == seat && *w == Some(seat))
                .count()
        };
        let wins = won(0) + won(1);
        let decided = results.iter().filter(|(_, w)| w.is_some()).count();
        let (lo, hi) = wilson(wins, decided);
        println!(
            "| {ruleset} | {wins} / {decided} ({:.1}%) | {:.1}–{:.1}% | {} / {} | {} |",
            100.0 * wins as f64 / decided.max(1) as f64,
            100.0 * lo,
            100.0 * hi,
            won(0),
            won(1),
            results.len() - decided,
        );
    }
}
