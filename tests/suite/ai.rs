//! The AI: every policy only ever submits legal commands (property test over the
//! shipped levels), plays battles to an end, beats the random baseline; and
//! `skirmish sim` is deterministic for a seed whatever the number of threads, with
//! clear errors for bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use skirmish::ai::sim::{ai_level, battle_seed, play_out};
use skirmish::ai::{AiPolicy, choose};
use skirmish::engine::battle::Awaiting;
use skirmish::engine::command::Command as Cmd;
use skirmish::engine::decision::PendingDecision;
use skirmish::engine::dice::Dice;
use skirmish::engine::rulesets::new_battle;
use skirmish::level::schema::Level;

const POLICIES: [AiPolicy; 3] = [AiPolicy::Random, AiPolicy::Easy, AiPolicy::Normal];

fn level_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    files
}

pub(crate) fn levels() -> Vec<Level> {
    level_files()
        .iter()
        .map(|p| skirmish::level::load_file(p).expect("shipped level loads"))
        .collect()
}

/// The shipped level of this name.
fn level_named(name: &str) -> Level {
    levels()
        .into_iter()
        .find(|l| l.name == name)
        .unwrap_or_else(|| panic!("no shipped level named {name}"))
}

/// Plays up to `max` commands with the AI, checking each command before submitting
/// it; returns whether the battle ended.
fn play_checked(level: &Level, policies: &[AiPolicy], seed: u64, max: usize) -> bool {
    let level = ai_level(level, policies);
    let mut battle = new_battle(&level, Dice::seeded(seed)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..max {
        let side = match battle.awaiting() {
            Awaiting::Over(_) => return true,
            Awaiting::Decision(d) => d.side,
            Awaiting::Unit(u, _) => skirmish::engine::battle::side_of(battle.world(), u),
        };
        let policy = policies[side.0 as usize];
        let command = choose(&battle, policy, &mut rng)
            .unwrap_or_else(|| panic!("{policy:?} found no command in {}", level.name));
        if let Err(e) = battle.check(&command) {
            panic!(
                "{policy:?} chose an illegal command in {}: {command:?}: {e}",
                level.name
            );
        }
        battle
            .submit(command.clone())
            .unwrap_or_else(|e| panic!("{command:?} refused: {e}"));
    }
    matches!(battle.awaiting(), Awaiting::Over(_))
}

/// P-26: when both sides declare held units to act before the next turn, a
/// declared unit that the other side's declared unit defeats first doesn't take its
/// turn: the battle goes on with a unit still in play (found by
/// `policies_only_submit_legal_commands`: `random` on both sides of The Bridge,
/// seed 1021234726743657949, where Grukk acted from its delay, felled Brother Tam,
/// and the battle then waited on Brother Tam's turn with nothing legal).
#[test]
fn a_declared_unit_defeated_before_its_turn_does_not_act() {
    use skirmish::engine::event::Event;
    let seed = 1_021_234_726_743_657_949;
    let level = ai_level(&level_named("The Bridge"), &[AiPolicy::Random; 2]);
    let mut battle = new_battle(&level, Dice::seeded(seed)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Units declared to act now whose turn hasn't started, and those felled so.
    let mut declared = Vec::new();
    let mut felled_while_declared = 0;
    for _ in 0..300 {
        if let Awaiting::Unit(u, _) = battle.awaiting() {
            let unit = battle.units().into_iter().find(|v| v.id == u).unwrap();
            assert!(
                !unit.defeated,
                "the battle waits on {}, who is out",
                unit.name
            );
        }
        let Some(command) = choose(&battle, AiPolicy::Random, &mut rng) else {
            assert!(matches!(battle.awaiting(), Awaiting::Over(_)), "no command");
            break;
        };
        if let Cmd::Answer { verb, args, .. } = &command
            && verb == "ActNow"
            && let Some(skirmish::engine::verb::ArgValue::Units(units)) = args.get("units")
        {
            declared.extend(units.iter().copied());
        }
        let before = battle.events().len();
        battle.submit(command).unwrap();
        for e in &battle.events()[before..] {
            match e {
                Event::TurnStarted { unit, .. } => declared.retain(|d| d != unit),
                Event::Defeated { unit, .. } if declared.contains(unit) => {
                    felled_while_declared += 1;
                    declared.retain(|d| d != unit);
                }
                _ => {}
            }
        }
    }
    assert!(
        felled_while_declared > 0,
        "the seed no longer plays the case"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Any pairing of policies, any seed, any shipped level: only legal commands.
    #[test]
    fn policies_only_submit_legal_commands(seed in any::<u64>(), a in 0..3usize, b in 0..3usize) {
        for level in levels() {
            let mut policies = vec![POLICIES[a]; level.sides.len()];
            if let Some(p) = policies.get_mut(1) {
                *p = POLICIES[b];
            }
            play_checked(&level, &policies, seed, 300);
        }
    }
}

/// Flow reaction decisions: `normal` and `easy` answer each, from the generic
/// decision alone, with an option of best value (as the ruleset's `Auto` policy
/// would; among equals the cheapest), or pass when none is worth anything.
#[test]
fn normal_answers_flow_reactions_with_the_best_option() {
    let level = levels()
        .into_iter()
        .find(|l| l.ruleset == "flow")
        .expect("a shipped flow level");
    let (mut reacted, mut passed) = (0, 0);
    for seed in 0..6 {
        let policies = [AiPolicy::Normal, AiPolicy::Easy];
        let level = ai_level(&level, &policies);
        let mut battle = new_battle(&level, Dice::seeded(seed)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..3_000 {
            let (side, decision): (_, Option<PendingDecision>) = match battle.awaiting() {
                Awaiting::Over(_) => break,
                Awaiting::Decision(d) => (d.side, Some(*d)),
                Awaiting::Unit(u, _) => {
                    (skirmish::engine::battle::side_of(battle.world(), u), None)
                }
            };
            let policy = policies[side.0 as usize];
            let command = choose(&battle, policy, &mut rng).expect("a command");
            if let Some(d) = decision {
                let top = d.options.iter().map(|o| o.value).fold(0.0, f64::max);
                if top > 1e-9 {
                    let taken = d
                        .options
                        .iter()
                        .find(|o| o.command == command)
                        .unwrap_or_else(|| panic!("{policy:?} took no option of {d:?}"));
                    let cost = |o: &skirmish::engine::decision::DecisionOption| {
                        o.cost.map_or(0, |c| c.amount)
                    };
                    let cheapest = d
                        .options
                        .iter()
                        .filter(|o| o.value >= top - 1e-9)
                        .map(cost)
                        .min();
                    assert!(
                        taken.value >= top - 1e-9 && Some(cost(taken)) == cheapest,
                        "{policy:?} did not take the best of {d:?}"
                    );
                    assert!(
                        matches!(&command, Cmd::Answer { verb, .. } if verb == "React"),
                        "{command:?}"
                    );
                    reacted += 1;
                } else {
                    assert_eq!(command, Cmd::Pass { side });
                    passed += 1;
                }
            }
            battle.submit(command).unwrap();
        }
    }
    assert!(
        reacted >= 5,
        "only {reacted} reactions taken ({passed} passed)"
    );
}

#[test]
fn normal_and_easy_finish_battles() {
    for level in levels() {
        for policy in [AiPolicy::Easy, AiPolicy::Normal] {
            let policies = vec![policy; level.sides.len()];
            assert!(
                play_checked(&level, &policies, 11, 5_000),
                "{policy:?} vs itself did not finish {} within its round limit",
                level.name
            );
        }
    }
}

#[test]
fn play_out_is_deterministic() {
    let level = &levels()[0];
    let policies = [AiPolicy::Normal, AiPolicy::Easy];
    let a = play_out(level, 99, &policies, 10_000).unwrap();
    let b = play_out(level, 99, &policies, 10_000).unwrap();
    assert_eq!(a, b);
    assert!(a.rounds >= 1);
    assert!(a.damage() > 0, "a whole battle without damage: {a:?}");
}

#[test]
fn battle_seeds_differ_by_index_and_run() {
    assert_ne!(battle_seed(1, 0), battle_seed(1, 1));
    assert_ne!(battle_seed(1, 0), battle_seed(2, 0));
    assert_eq!(battle_seed(5, 3), battle_seed(5, 3));
}

/// `normal` beats `random` on every shipped level from both seats (a quick version
/// of the ≥ 90 % figure measured with `skirmish sim`).
#[test]
fn normal_beats_random_on_every_level() {
    for level in levels() {
        for seat in 0..2 {
            let mut policies = vec![AiPolicy::Random; level.sides.len()];
            policies[seat] = AiPolicy::Normal;
            let battles = 10;
            let results: Vec<_> = (0..battles)
                .map(|i| play_out(&level, battle_seed(3, i), &policies, 20_000).unwrap())
                .collect();
            let wins = results
                .iter()
                .filter(|r| r.winner.is_some_and(|w| w.0 as usize == seat))
                .count();
            let losses = results
                .iter()
                .filter(|r| r.winner.is_some_and(|w| w.0 as usize != seat))
                .count();
            // Random does win now and then (a lucky Knight on the Ford: 1-2 % of
            // `skirmish sim` battles), so one loss in ten is allowed; two would be a
            // real regression.
            assert!(
                losses <= 1,
                "{}: normal in seat {seat} lost {losses}/{battles} to random",
                level.name
            );
            // The 90 % figure of the report is measured with `skirmish sim` over many
            // battles (every shipped level is at 96 % or more from either seat); ten
            // battles must show at least eight wins.
            assert!(
                wins >= 8,
                "{}: normal in seat {seat} won only {wins}/{battles} against random",
                level.name
            );
        }
    }
}

/// `hard` only submits legal commands, on every shipped level from either seat.
#[test]
fn hard_only_submits_legal_commands() {
    for level in levels() {
        for seat in 0..2 {
            let mut policies = vec![AiPolicy::Normal; level.sides.len()];
            policies[seat] = AiPolicy::Hard;
            play_checked(&level, &policies, 11 + seat as u64, 80);
        }
    }
}

/// The `hard` level's search is deterministic: the same seed gives the same battle,
/// and a fork-based look-ahead leaves the searched battle untouched.
#[test]
fn hard_play_out_is_deterministic() {
    let level = level_named("The Ford");
    let policies = [AiPolicy::Hard, AiPolicy::Normal];
    let a = play_out(&level, 5, &policies, 10_000).unwrap();
    let b = play_out(&level, 5, &policies, 10_000).unwrap();
    assert_eq!(a, b);
}

/// Wins and losses of `hard` against `normal` from each seat of `level` in turn
/// over the first `battles` battles of seed 1 (the seeds `skirmish sim --seed 1`
/// plays, not picked), and the wins of `normal` in the same seats on the same
/// seeds (the baseline): `(hard won, hard lost, normal won, battles played by
/// each)`.
fn hard_and_normal_wins(level: &Level, battles: u64) -> (usize, usize, usize, usize) {
    let (mut hard_wins, mut hard_losses, mut normal_wins) = (0, 0, 0);
    for seat in 0..2 {
        let mut hard = vec![AiPolicy::Normal; level.sides.len()];
        hard[seat] = AiPolicy::Hard;
        for i in 0..battles {
            let r = play_out(level, battle_seed(1, i), &hard, 20_000).unwrap();
            match r.winner {
                Some(w) if w.0 as usize == seat => hard_wins += 1,
                Some(_) => hard_losses += 1,
                None => {}
            }
            let n = play_out(level, battle_seed(1, i), &[AiPolicy::Normal; 2], 20_000).unwrap();
            if n.winner.is_some_and(|w| w.0 as usize == seat) {
                normal_wins += 1;
            }
        }
    }
    (hard_wins, hard_losses, normal_wins, 2 * battles as usize)
}

/// The duel levels (`levels/duel_<ruleset>.ron`), one per ruleset.
fn duels() -> Vec<Level> {
    levels()
        .into_iter()
        .filter(|l| l.name.starts_with("Duel ("))
        .collect()
}

/// `normal` is stronger than `easy` on the duels, the levels the ladder is measured
/// on: over the first 6 battles of seed 1 from each seat of every duel, `normal`
/// playing a seat against `easy` wins more battles than `easy` playing the same seat
/// against `normal` on the same seeds (the README's ladder: 60–92 % of decided
/// battles per ruleset over 400). An `easy` that played as well as `normal` (or a
/// `normal` that played like `easy`) would win about as many.
#[test]
fn normal_wins_more_than_easy_from_the_same_seats_on_the_duels() {
    let duels = duels();
    assert_eq!(duels.len(), 5, "a duel level per ruleset");
    let (mut normal_wins, mut easy_wins, mut total) = (0, 0, 0);
    for level in &duels {
        for seat in 0..2 {
            for (policy, wins) in [
                (AiPolicy::Normal, &mut normal_wins),
                (AiPolicy::Easy, &mut easy_wins),
            ] {
                let other = if policy == AiPolicy::Normal {
                    AiPolicy::Easy
                } else {
                    AiPolicy::Normal
                };
                let mut policies = vec![other; level.sides.len()];
                policies[seat] = policy;
                for i in 0..6 {
                    let r = play_out(level, battle_seed(1, i), &policies, 20_000).unwrap();
                    *wins += usize::from(r.winner.is_some_and(|w| w.0 as usize == seat));
                }
            }
            total += 6;
        }
    }
    assert!(
        normal_wins > easy_wins + total / 5,
        "normal won {normal_wins}/{total} against easy; easy from the same seats {easy_wins}/{total}"
    );
}

/// The attacks' options (`wounds`' aim, W-17): on its turn `normal` picks the best
/// of their choices from the exact odds, `easy` takes each option's default (Center
/// Mass) as a novice does, one of the things that makes it weaker than `normal`.
#[test]
fn easy_takes_each_attack_options_default_and_normal_picks_among_them() {
    let level = level_named("Duel (wounds)");
    for policy in [AiPolicy::Easy, AiPolicy::Normal] {
        let (mut attacks, mut chosen) = (0, 0);
        for seed in 1..=3 {
            let policies = vec![policy; level.sides.len()];
            let ai = ai_level(&level, &policies);
            let mut battle = new_battle(&ai, Dice::seeded(seed)).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..2_000 {
                let Some(command) = choose(&battle, policy, &mut rng) else {
                    break;
                };
                // Its own attacks (a free hit's aim is a decision, answered from
                // its options' values by every policy).
                if let (Cmd::Attack { options, .. }, Awaiting::Unit(..)) =
                    (&command, battle.awaiting())
                {
                    attacks += 1;
                    chosen += usize::from(options.get("aim").is_some());
                }
                battle.submit(command).unwrap();
            }
        }
        assert!(attacks > 10, "{policy:?} attacked {attacks} times");
        match policy {
            AiPolicy::Easy => assert_eq!(chosen, 0, "easy aimed {chosen} of {attacks}"),
            _ => assert!(chosen > 0, "normal never aimed in {attacks} attacks"),
        }
    }
}

/// `hard` is stronger than `normal` on the duels, the levels the ladder is measured
/// on: over the first battles of seed 1 from each seat of every duel (the seeds
/// `skirmish sim --seed 1` plays, not picked), `hard` playing a seat against
/// `normal` wins more battles than it loses, and more than `normal` wins from the
/// same seat on the same seeds. A search that chose no better than `normal` (or
/// not at all) would win about as many as `normal` does (half the decided duels:
/// they are mirror images).
#[test]
fn hard_wins_more_than_normal_from_the_same_seats_on_the_duels() {
    let duels = duels();
    assert_eq!(duels.len(), 5, "a duel level per ruleset");
    let (mut hard, mut lost, mut normal, mut total) = (0, 0, 0, 0);
    for level in &duels {
        let (h, l, n, t) = hard_and_normal_wins(level, HARD_TEST_BATTLES);
        hard += h;
        lost += l;
        normal += n;
        total += t;
    }
    assert!(
        hard > lost,
        "hard won {hard}/{total} against normal and lost {lost}"
    );
    assert!(
        hard > normal,
        "hard won {hard}/{total} against normal; normal from the same seats {normal}/{total}"
    );
}

/// `hard` beats `random` from both seats on a shipped level where neither side is
/// favoured by design: at least 5 of the first 6 battles of seed 1 (not picked)
/// from each seat. `wounds`' criticals and Fatal wounds give `random` the odd win
/// (`sim levels/wounds_mill.ron --battles 40`: 1 of 80); a `hard` that played no
/// better than `random` would win about half.
#[test]
fn hard_beats_random() {
    let level = level_named("The Old Mill");
    for seat in 0..2 {
        let mut policies = vec![AiPolicy::Random; level.sides.len()];
        policies[seat] = AiPolicy::Hard;
        let wins = (0..6)
            .map(|i| play_out(&level, battle_seed(1, i), &policies, 20_000).unwrap())
            .filter(|r| r.winner.is_some_and(|w| w.0 as usize == seat))
            .count();
        assert!(
            wins >= 5,
            "hard in seat {seat} won only {wins}/6 against random"
        );
    }
}

/// How many battles from each seat of each duel
/// `hard_wins_more_than_normal_from_the_same_seats_on_the_duels` plays.
const HARD_TEST_BATTLES: u64 = 3;

fn sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("sim")
        .args(args)
        .output()
        .expect("run skirmish")
}

/// The JSON of a run without the figures that depend on the machine.
fn figures(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "sim failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let obj = v.as_object_mut().unwrap();
    assert!(obj["battles_per_second"].as_f64().unwrap() > 0.0);
    obj.remove("battles_per_second");
    obj.remove("threads");
    v
}

#[test]
fn sim_json_is_deterministic_across_runs_and_threads() {
    let args = [
        "levels/ford.ron",
        "--battles",
        "16",
        "--seed",
        "42",
        "--json",
    ];
    let one = figures(&sim(&[&args[..], &["--threads", "1"]].concat()));
    let again = figures(&sim(&[&args[..], &["--threads", "1"]].concat()));
    let two = figures(&sim(&[&args[..], &["--threads", "2"]].concat()));
    assert_eq!(one, again);
    assert_eq!(one, two);
    assert_eq!(one["battles"], 16);
    let wins: u64 = one["wins"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(wins + one["draws"].as_u64().unwrap(), 16);
    assert!(one["mean_rounds"].as_f64().unwrap() >= 1.0);
    // Another seed gives another run.
    let other = figures(&sim(&[
        "levels/ford.ron",
        "--battles",
        "16",
        "--seed",
        "43",
        "--json",
    ]));
    assert_ne!(one["rounds_histogram"], other["rounds_histogram"]);
}

/// `sim --ai SIDE=hard` gives the same figures with 1 and 2 threads and run
/// after run: the search draws its dice seeds from the battle's seeded generator.
#[test]
fn sim_with_hard_is_deterministic_across_threads() {
    let args = [
        "levels/wounds_mill.ron",
        "--battles",
        "4",
        "--seed",
        "9",
        "--ai",
        "Bandits=hard",
        "--json",
    ];
    let one = figures(&sim(&[&args[..], &["--threads", "1"]].concat()));
    let two = figures(&sim(&[&args[..], &["--threads", "2"]].concat()));
    let again = figures(&sim(&[&args[..], &["--threads", "2"]].concat()));
    assert_eq!(one, two);
    assert_eq!(two, again);
    assert_eq!(one["policies"]["Bandits"], "hard");
}

#[test]
fn sim_table_and_policies() {
    let out = sim(&[
        "levels/ford.ron",
        "--battles",
        "4",
        "--ai",
        "red=random",
        "--ai",
        "Blue=easy",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("4 battles"), "{text}");
    assert!(text.contains("random") && text.contains("easy"), "{text}");
    assert!(text.contains("Rounds: mean"), "{text}");
    assert!(text.contains("battles/s"), "{text}");
    // No progress bar outside a terminal.
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn sim_writes_a_png_plot() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sim_plot");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ford.png");
    let _ = std::fs::remove_file(&file);
    let out = sim(&[
        "levels/ford.ron",
        "--battles",
        "6",
        "--plot",
        file.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&file).expect("plot written");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    assert!(bytes.len() > 2_000, "suspiciously small PNG");
}

#[test]
fn sim_bad_input_is_a_clear_error() {
    let cases: [(&[&str], i32, &str); 7] = [
        (&["levels/nope.ron"], 1, "cannot read"),
        (
            &["levels/ford.ron", "--ai", "Red=hard,Blue=easy"],
            2,
            "give each side its own --ai, e.g. --ai Red=hard --ai",
        ),
        (
            &["levels/ford.ron", "--ai", "Green=easy"],
            2,
            "no side `Green`",
        ),
        (
            &["levels/ford.ron", "--ai", "Red=genius"],
            2,
            "unknown policy",
        ),
        (&["levels/ford.ron", "--ai", "Red"], 2, "SIDE=POLICY"),
        (&["levels/ford.ron", "--ruleset", "chess"], 2, "ruleset"),
        (&["levels/ford.ron", "--battles", "0"], 2, "at least 1"),
    ];
    for (args, code, message) in cases {
        let out = sim(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// The 95% Wilson score interval against published values (R's
/// `binom.confint(..., methods = "wilson")`): 81 of 263 is 25.53–36.62%, 1 of 10
/// is 1.79–40.42%, 5 of 10 is 23.66–76.34%; at the edges it is exact: 0 of 30 is
/// 0–11.35%, 10 of 10 is 72.25–100%.
#[test]
fn wilson_interval_matches_known_values() {
    use skirmish::ai::sim::wilson;
    let close = |(lo, hi): (f64, f64), (a, b): (f64, f64)| {
        assert!(
            (lo - a).abs() < 5e-5 && (hi - b).abs() < 5e-5,
            "({lo}, {hi}) is not ({a}, {b})"
        );
    };
    close(wilson(81, 263), (0.25529, 0.36621));
    close(wilson(1, 10), (0.01788, 0.40415));
    close(wilson(5, 10), (0.23659, 0.76341));
    close(wilson(0, 30), (0.0, 0.11351));
    close(wilson(10, 10), (0.72247, 1.0));
    assert_eq!(wilson(0, 30).0, 0.0);
    assert_eq!(wilson(10, 10).1, 1.0);
    assert_eq!(wilson(0, 0), (0.0, 1.0));
}

/// `sim` gives each side's win rate with its 95% interval (`win_ci` in the JSON,
/// `[lo–hi]` in the table) and, when the interval says so, a verdict: on the first
/// version of The Ford (`tests/fixtures/ford_lopsided.ron`) Blue wins every battle,
/// so its interval lies above 90% and the level is "decided by its setup"; the
/// interval is the one `wilson` gives for the wins.
#[test]
fn sim_reports_win_intervals_and_a_lopsided_verdict() {
    use skirmish::ai::sim::wilson;
    let args = [
        "tests/fixtures/ford_lopsided.ron",
        "--battles",
        "40",
        "--seed",
        "3",
    ];
    let json = figures(&sim(&[&args[..], &["--json"]].concat()));
    let blue = json["wins"]["Blue"].as_u64().unwrap() as usize;
    let (lo, hi) = wilson(blue, 40);
    assert!((json["win_ci"]["Blue"][0].as_f64().unwrap() - lo).abs() < 1e-12);
    assert!((json["win_ci"]["Blue"][1].as_f64().unwrap() - hi).abs() < 1e-12);
    assert!(lo > 0.9, "The Ford is lopsided: Blue wins {blue} of 40");
    let verdict = json["verdict"].as_str().expect("a verdict");
    assert!(
        verdict.starts_with("Blue wins") && verdict.ends_with("the level is decided by its setup"),
        "{verdict}"
    );
    let table = String::from_utf8_lossy(&sim(&args).stdout).to_string();
    assert!(table.contains(verdict), "{table}");
    assert!(
        table.contains(&format!("[{:.1}–{:.1}] (95%)", 100.0 * lo, 100.0 * hi)),
        "{table}"
    );
}

/// `search::outcomes` (what `examples/room.rs` measures with) plays each command
/// `hard` would weigh to the end of the battle: `normal`'s command first, as many
/// results as play-outs asked for, each a win or a loss for the deciding side when
/// the play-outs may run to the end (a mirror duel has no draws), and none decided
/// when they may not run at all; the same generator state gives the same results.
#[test]
fn outcomes_play_each_candidate_to_the_end_of_the_battle() {
    use skirmish::ai::search::outcomes;
    let level = ai_level(&level_named("Duel (wounds)"), &[AiPolicy::Normal; 2]);
    let mut battle = new_battle(&level, Dice::seeded(3)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let weighed = loop {
        let weighed = outcomes(&battle, &mut ChaCha8Rng::seed_from_u64(9), 6, 10_000);
        if !weighed.is_empty() {
            break weighed;
        }
        let c = choose(&battle, AiPolicy::Normal, &mut rng).unwrap();
        battle.submit(c).unwrap();
        assert!(
            !matches!(battle.awaiting(), Awaiting::Over(_)),
            "no choice met"
        );
    };
    assert!(weighed.len() >= 2, "a choice weighs several commands");
    let normal = choose(&battle, AiPolicy::Normal, &mut ChaCha8Rng::seed_from_u64(9));
    assert_eq!(
        Some(&weighed[0].0),
        normal.as_ref(),
        "normal's command first"
    );
    for (c, results) in &weighed {
        assert_eq!(results.len(), 6, "{c:?}");
        assert!(
            results.iter().all(|&r| r == 0.0 || r == 1.0),
            "{c:?}: every play-out decided, got {results:?}"
        );
    }
    assert!(
        weighed.iter().flat_map(|(_, r)| r).any(|&r| r == 1.0)
            && weighed.iter().flat_map(|(_, r)| r).any(|&r| r == 0.0),
        "wins and losses among the play-outs: {weighed:?}"
    );
    let again = outcomes(&battle, &mut ChaCha8Rng::seed_from_u64(9), 6, 10_000);
    assert_eq!(again, weighed, "the same generator state, the same results");
    let cut = outcomes(&battle, &mut ChaCha8Rng::seed_from_u64(9), 6, 0);
    assert!(
        cut.iter().flat_map(|(_, r)| r).all(|&r| r == 0.5),
        "play-outs stopped before any command decide nothing"
    );
}
