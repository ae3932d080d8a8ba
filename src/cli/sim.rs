//! `skirmish sim LEVEL [--battles N] [--seed S] [--ruleset R] [--ai SIDE=POLICY]...
//! [--set KEY=VALUE]... [--sweep KEY=VALUES] [--shard K/N] [--threads T]
//! [--json | --csv] [--plot FILE.png] [--log INDEX] [--save-battle INDEX FILE]`:
//! AI-vs-AI battles without a window, on every core, and their figures — the rule
//! designer's workbench.
//!
//! Each side plays the policy `--ai` gives it, else its level controller's (`Human`
//! sides play `normal`). The figures are the same for a seed whatever the number of
//! threads (see [`crate::ai::sim`]); only `battles_per_second` varies. A progress bar
//! shows on a terminal (stderr), never in a pipe. A battle stopped at the command
//! limit ([`crate::ai::sim::command_limit`]) is counted and shown apart from the
//! draws, as unfinished.
//!
//! The workbench flags:
//!
//! - `--set KEY=VALUE` (repeatable) changes a ruleset constant (`--set crit_at=16`,
//!   any key of `assets/rulesets/<ruleset>.ron`, as a level's `rules`) or a unit's
//!   stat (`--set Knight.DEF=13`) for the run, checked as a level file is
//!   ([`super::tweak`]); `set` in the JSON lists the changes.
//! - `--sweep KEY=A..B[:STEP]` or `--sweep KEY=V1,V2,…` plays the run once per value
//!   of KEY (as `--set` takes it) with the same seeds and reports each side's win
//!   rate with its interval, the draws and the mean rounds per value (a table; with
//!   `--json` `{"sweep": KEY, "runs": [{"value": …, <the figures>}, …]}`; with
//!   `--plot` win rate against the value, the interval as a band).
//! - `--csv` prints the figures as CSV instead of the table ([`super::csv`]).
//! - `--shard K/N` plays only the K-th of N shares of the battles and prints a shard
//!   file (JSON, whether or not `--json` is given) for `skirmish merge`
//!   ([`super::shard`]), which prints the full run's report.
//!
//! Exit 0 on success, 2 for bad arguments (a bad `--set` or `--sweep` is named), 1
//! when the level doesn't load or a battle or the plot fails.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::chart::{legend_and_present, use_font};
use super::shard::{FORMAT, Played, PlayedRun, Shard};
use super::sweep;
use super::tweak::{self, Setting};
use crate::ai::sim::{
    RunInfo, SimConfig, Summary, battle_seed, command_limit, play_logged, simulate, summarize,
};
use crate::ai::{AiPolicy, parse_policy};
use crate::level::schema::{Controller, Level};
use crate::level::{load_file, under_ruleset};

/// Arguments of `skirmish sim`.
#[derive(Debug, Args)]
pub struct SimArgs {
    /// The level file (RON).
    pub level: PathBuf,
    /// Number of battles.
    #[arg(long, default_value_t = 100)]
    pub battles: usize,
    /// Seed of the run: battle i plays with a seed derived from (S, i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play under this ruleset instead of the level's (the units need its stats).
    #[arg(long, value_name = "R")]
    pub ruleset: Option<String>,
    /// A side's AI policy: random, easy, normal or hard (repeatable), e.g. `--ai Red=hard`.
    #[arg(long = "ai", value_name = "SIDE=POLICY")]
    pub ai: Vec<String>,
    /// Change a ruleset constant or a unit's stat for this run (repeatable), e.g.
    /// `--set crit_at=16` or `--set Knight.DEF=13`; VALUE is RON, as in a level file.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Play the run once per value of KEY with the same seeds: `KEY=A..B[:STEP]`
    /// (numbers) or `KEY=V1,V2,…` (RON values); KEY as for --set.
    #[arg(long, value_name = "KEY=VALUES")]
    pub sweep: Option<String>,
    /// Play only shard K of N of the battles (same seeds as the full run) and print a
    /// shard file for `skirmish merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// How the figures are printed.
    #[command(flatten)]
    pub output: Output,
    /// Print the event log of battle number INDEX of the run (0-based) and its
    /// result instead of the figures.
    #[arg(long, value_name = "INDEX")]
    pub log: Option<usize>,
    /// Write battle number INDEX of the run (0-based) as a battle file to watch or
    /// check again (`skirmish replay FILE`), instead of the figures.
    #[arg(long, num_args = 2, value_names = ["INDEX", "FILE"])]
    pub save_battle: Vec<String>,
}

/// A usage problem (exit 2) or a failure (exit 1).
pub(super) enum Failure {
    /// Bad arguments or input files (exit 2).
    Usage(String),
    /// The work failed (exit 1).
    Failed(String),
}

/// How a report is printed (`sim`, `merge`): the table, `--json` or `--csv`, and an
/// optional plot.
#[derive(Clone, Debug, Args)]
pub struct Output {
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Print CSV (a header, then a row per side) instead of the table.
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// Write a PNG of the win rates and the distribution of battle length (for a
    /// sweep: each side's win rate against the value, its 95% interval as a band).
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
}

/// Runs `skirmish sim`.
pub fn run(args: &SimArgs) -> ExitCode {
    exit("sim", sim(args))
}

/// The exit code of `skirmish COMMAND`'s outcome, with its message on stderr.
pub(super) fn exit(command: &str, outcome: Result<(), Failure>) -> ExitCode {
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(m)) => {
            eprintln!("skirmish {command}: {m}");
            ExitCode::from(2)
        }
        Err(Failure::Failed(m)) => {
            eprintln!("skirmish {command}: {m}");
            ExitCode::FAILURE
        }
    }
}

fn sim(args: &SimArgs) -> Result<(), Failure> {
    if args.battles == 0 {
        return Err(Failure::Usage("--battles must be at least 1".into()));
    }
    if args.threads == Some(0) {
        return Err(Failure::Usage("--threads must be at least 1".into()));
    }
    let shard = match &args.shard {
        None => Shard::WHOLE,
        Some(text) => Shard::parse(text).map_err(|e| Failure::Usage(format!("--shard {e}")))?,
    };
    if args.shard.is_some() && (args.output.csv || args.output.plot.is_some()) {
        return Err(Failure::Usage(
            "--shard prints a shard file (JSON) for `skirmish merge`; give --csv or --plot \
             to merge"
                .into(),
        ));
    }
    let level = load_level(&args.level, args.ruleset.as_deref())?;
    let settings = args
        .set
        .iter()
        .map(|arg| {
            tweak::parse_setting(&level, arg)
                .map_err(|e| Failure::Usage(format!("--set {arg}: {e}")))
        })
        .collect::<Result<Vec<Setting>, _>>()?;
    let level = tweak::apply(&level, &settings, "--set").map_err(Failure::Usage)?;
    let policies = policies(&level, &args.ai)?;
    let config = SimConfig {
        battles: args.battles,
        seed: args.seed,
        policies,
        max_commands: command_limit(&level),
    };
    if args.sweep.is_some() && (args.log.is_some() || !args.save_battle.is_empty()) {
        return Err(Failure::Usage(
            "--log and --save-battle play one battle of one run: give the value with --set \
             instead of --sweep"
                .into(),
        ));
    }
    if let [index, file] = args.save_battle.as_slice() {
        return save_battle(args, &level, &config, index, file);
    }
    if let Some(index) = args.log {
        return print_log(&level, &config, index);
    }
    let runs = runs(&level, &settings, args.sweep.as_deref())?;
    let played = play(args, &config, shard, runs)?;
    if args.shard.is_some() {
        print!("{}", json(&played)?);
        return Ok(());
    }
    report(&played, &args.output)
}

/// `--save-battle INDEX FILE`: writes one battle of the run as a battle file.
fn save_battle(
    args: &SimArgs,
    level: &Level,
    config: &SimConfig,
    index: &str,
    file: &str,
) -> Result<(), Failure> {
    let index: usize = index.parse().map_err(|_| {
        Failure::Usage(format!(
            "--save-battle INDEX FILE: `{index}` is not a battle number (0, 1, 2 …)"
        ))
    })?;
    let seed = battle_seed(args.seed, index as u64);
    let (result, battle) = crate::ai::sim::play_recorded(
        level,
        seed,
        &config.policies,
        config.max_commands,
        Some(&args.level),
    )
    .map_err(|e| Failure::Failed(format!("battle {index} (seed {seed}): {e}")))?;
    battle.save(Path::new(file)).map_err(Failure::Failed)?;
    println!(
        "battle {index} (seed {seed}): {} commands, {} rounds, written to {file}",
        battle.commands.len(),
        result.rounds
    );
    Ok(())
}

/// `--log INDEX`: prints one battle's event log and its result.
fn print_log(level: &Level, config: &SimConfig, index: usize) -> Result<(), Failure> {
    let seed = battle_seed(config.seed, index as u64);
    let (result, lines) = play_logged(level, seed, &config.policies, config.max_commands)
        .map_err(|e| Failure::Failed(format!("battle {index} (seed {seed}): {e}")))?;
    for line in lines {
        println!("{line}");
    }
    if result.cut_off_by_commands {
        println!(
            "battle {index} (seed {seed}): stopped at the command limit ({}) in round {}, \
             unfinished",
            config.max_commands, result.rounds
        );
        return Ok(());
    }
    let winner = result
        .winner
        .and_then(|w| level.sides.get(w.0 as usize))
        .map_or("nobody (draw)", |s| s.name.as_str());
    println!(
        "battle {index} (seed {seed}): {winner} won after {} rounds",
        result.rounds
    );
    Ok(())
}

/// One run to play: the sweep value (RON) if any, the level as changed, and what
/// was changed (`KEY=VALUE` each).
struct Run {
    value: Option<String>,
    level: Level,
    set: Vec<String>,
}

/// The runs to play: the level as `--set` left it, or one per value of `sweep`.
fn runs(level: &Level, settings: &[Setting], sweep: Option<&str>) -> Result<Vec<Run>, Failure> {
    let set: Vec<String> = settings.iter().map(|s| s.text.clone()).collect();
    let Some(arg) = sweep else {
        return Ok(vec![Run {
            value: None,
            level: level.clone(),
            set,
        }]);
    };
    let sweep = tweak::parse_sweep(level, arg)
        .map_err(|e| Failure::Usage(format!("--sweep {arg}: {e}")))?;
    if let Some(s) = settings.iter().find(|s| s.key == sweep.values[0].key) {
        return Err(Failure::Usage(format!(
            "--sweep {arg}: --set {} sets the same key; sweep it or set it, not both",
            s.text
        )));
    }
    sweep
        .values
        .iter()
        .zip(sweep.value_texts())
        .map(|(setting, value)| {
            let level = tweak::apply(level, std::slice::from_ref(setting), "--sweep")
                .map_err(Failure::Usage)?;
            let mut set = set.clone();
            set.push(setting.text.clone());
            Ok(Run {
                value: Some(value),
                level,
                set,
            })
        })
        .collect()
}

/// The worker threads of a run: `threads` of them, or one per core.
pub(super) fn worker_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, Failure> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        pool = pool.num_threads(t);
    }
    pool.build()
        .map_err(|e| Failure::Failed(format!("cannot start worker threads: {e}")))
}

/// Plays `shard`'s share of every run, on `--threads` threads with a progress bar.
fn play(
    args: &SimArgs,
    config: &SimConfig,
    shard: Shard,
    runs: Vec<Run>,
) -> Result<Played, Failure> {
    let pool = worker_pool(args.threads)?;
    let indices = shard.indices(config.battles);
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new((runs.len() * indices.len()) as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} battles, {per_sec}, eta {eta}")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let sweep = args
        .sweep
        .as_ref()
        .and_then(|s| s.split_once('='))
        .map(|(key, _)| key.trim().to_string());
    let start = Instant::now();
    let played = pool
        .install(|| {
            runs.into_par_iter()
                .map(|run| {
                    let config = SimConfig {
                        max_commands: command_limit(&run.level),
                        ..config.clone()
                    };
                    let results = simulate(&run.level, &config, indices.clone(), &|| bar.inc(1))
                        .map_err(|e| match run.set.last() {
                            Some(s) if run.value.is_some() => format!("with {s}: {e}"),
                            _ => e,
                        })?;
                    let mut info = RunInfo::new(&run.level, &config);
                    info.set = run.set;
                    Ok(PlayedRun {
                        value: run.value,
                        info,
                        results,
                    })
                })
                .collect::<Result<Vec<_>, String>>()
        })
        .map_err(Failure::Failed)?;
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    Ok(Played {
        format: FORMAT.into(),
        shard,
        sweep,
        runs: played,
        seconds,
        threads: pool.current_num_threads(),
    })
}

/// Prints the report of a whole run (or of a sweep's runs) as `out` asks: the
/// table, JSON or CSV, and the plot. `sim` and `merge` both report through it.
pub(super) fn report(played: &Played, out: &Output) -> Result<(), Failure> {
    let battles: usize = played.runs.iter().map(|r| r.results.len()).sum();
    let summaries: Vec<Summary> = played
        .runs
        .iter()
        .map(|run| {
            // A sweep's time shared out by battles.
            let share = run.results.len() as f64 / battles.max(1) as f64;
            summarize(
                &run.info,
                &run.results,
                played.seconds * share,
                played.threads,
            )
        })
        .collect();
    match (&played.sweep, out.json, out.csv) {
        (None, true, _) => print!("{}", json(&summaries[0])?),
        (Some(key), true, _) => print!("{}", json(&sweep::json(key, &played.runs, &summaries))?),
        (_, _, true) => {
            let rows: Vec<super::csv::Row> = played
                .runs
                .iter()
                .zip(&summaries)
                .flat_map(|(run, s)| {
                    let sweep = played.sweep.as_deref().zip(run.value.as_deref());
                    super::csv::rows(sweep, &run.info, s)
                })
                .collect();
            print!("{}", super::csv::write(&rows));
        }
        (None, false, false) => print_table(&played.runs[0].info, &summaries[0]),
        (Some(key), false, false) => {
            print!("{}", sweep::table(key, &played.runs, &summaries));
        }
    }
    if let Some(path) = &out.plot {
        match &played.sweep {
            None => plot(&played.runs[0].info, &summaries[0], path),
            Some(key) => sweep::plot(key, &played.runs, &summaries, path),
        }
        .map_err(|e| Failure::Failed(format!("cannot write the plot {}: {e}", path.display())))?;
        if !out.json && !out.csv {
            println!("Plot: {}", path.display());
        }
    }
    Ok(())
}

/// One line of JSON.
fn json(value: &impl serde::Serialize) -> Result<String, Failure> {
    serde_json::to_string(value)
        .map(|j| j + "\n")
        .map_err(|e| Failure::Failed(format!("cannot write JSON: {e}")))
}

/// Loads and checks the level, with the ruleset overridden if asked.
fn load_level(path: &Path, ruleset: Option<&str>) -> Result<Level, Failure> {
    let level = load_file(path).map_err(|problems| {
        let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
        Failure::Failed(lines.join("\n"))
    })?;
    let Some(r) = ruleset else {
        return Ok(level);
    };
    under_ruleset(&level, r).map_err(|issues| {
        let lines: Vec<String> = issues.iter().map(|i| format!("  {}", i.message)).collect();
        Failure::Usage(format!(
            "{} can't be played under ruleset `{r}`:\n{}",
            path.display(),
            lines.join("\n")
        ))
    })
}

/// Each side's policy: `--ai` first, else the level's AI controller, else `normal`.
pub(super) fn policies(level: &Level, ai: &[String]) -> Result<Vec<AiPolicy>, Failure> {
    let mut out: Vec<AiPolicy> = level
        .sides
        .iter()
        .map(|s| match s.controller {
            Controller::Ai(p) => p,
            Controller::Human => AiPolicy::Normal,
        })
        .collect();
    let sides: Vec<&str> = level.sides.iter().map(|s| s.name.as_str()).collect();
    for arg in ai {
        let Some((side, policy)) = arg.split_once('=') else {
            return Err(Failure::Usage(format!(
                "--ai {arg}: expected SIDE=POLICY, e.g. --ai {}=random",
                sides.first().unwrap_or(&"Red")
            )));
        };
        let Some(i) = sides
            .iter()
            .position(|s| s.eq_ignore_ascii_case(side.trim()))
        else {
            return Err(Failure::Usage(format!(
                "--ai {arg}: no side `{}` in this level; its sides are {}",
                side.trim(),
                sides.join(", ")
            )));
        };
        let Some(p) = parse_policy(policy.trim()) else {
            // `--ai Red=hard,Blue=easy`: one side per `--ai`.
            let hint = if policy.contains('=') {
                format!(
                    " (give each side its own --ai, e.g. --ai {}={} --ai …)",
                    side.trim(),
                    policy.split([',', ' ']).next().unwrap_or(policy).trim()
                )
            } else {
                String::new()
            };
            return Err(Failure::Usage(format!(
                "--ai {arg}: unknown policy `{}`; expected random, easy, normal or hard{hint}",
                policy.trim()
            )));
        };
        out[i] = p;
    }
    Ok(out)
}

fn print_table(info: &RunInfo, s: &Summary) {
    let max_commands = info.max_commands;
    let pct = |n: usize| 100.0 * n as f64 / s.battles.max(1) as f64;
    println!(
        "{} ({}), {} battles, seed {}",
        s.level, s.ruleset, s.battles, s.seed
    );
    if !s.set.is_empty() {
        println!("Set: {}", s.set.join(", "));
    }
    for side in &info.sides {
        let w = s.wins.get(side).copied().unwrap_or(0);
        let policy = s.policies.get(side).map_or("?", String::as_str);
        let [lo, hi] = s.win_ci.get(side).copied().unwrap_or([0.0, 1.0]);
        println!(
            "  {:<16} {:<7} wins {:>6}  {:>5.1}%  [{:.1}–{:.1}] (95%)",
            side,
            policy,
            w,
            pct(w),
            100.0 * lo,
            100.0 * hi
        );
    }
    println!(
        "  {:<16} {:<7}      {:>6}  {:>5.1}%  ({} cut off at the round limit)",
        "draws",
        "",
        s.draws,
        pct(s.draws),
        s.cut_off
    );
    if s.cut_off_by_commands > 0 {
        println!(
            "  {:<16} {:<7}      {:>6}  {:>5.1}%  (stopped at the command limit ({max_commands}); \
             set victory.max_commands to play them further)",
            "unfinished",
            "",
            s.cut_off_by_commands,
            pct(s.cut_off_by_commands),
        );
    }
    if let Some(v) = &s.verdict {
        println!("{v}");
    }
    println!(
        "Rounds: mean {:.2}, std dev {:.2}, min {}, max {}",
        s.mean_rounds, s.std_rounds, s.min_rounds, s.max_rounds
    );
    let taken: Vec<String> = info
        .sides
        .iter()
        .map(|side| {
            let d = s.damage_taken.get(side).copied().unwrap_or(0.0);
            format!("{side} {d:.1}")
        })
        .collect();
    println!(
        "Damage per round: {:.2} (taken per battle: {})",
        s.damage_per_round,
        taken.join(", ")
    );
    print_units(s);
    println!(
        "Speed: {:.1} battles/s on {} thread{}",
        s.battles_per_second,
        s.threads,
        if s.threads == 1 { "" } else { "s" }
    );
}

/// The per-unit table: per battle means of attacks, damage and kills, the hit rate
/// against the mean predicted chance, survival and the mean round of defeat.
fn print_units(s: &Summary) {
    if s.units.is_empty() {
        return;
    }
    let pct = |p: Option<f64>| p.map_or("-".to_string(), |p| format!("{:.1}%", 100.0 * p));
    println!(
        "Units (per battle):  {:<12} {:>7} {:>7} {:>9} {:>7} {:>7} {:>6} {:>8} {:>8}",
        "side", "attacks", "hit", "predicted", "dealt", "taken", "kills", "survival", "down in"
    );
    for u in &s.units {
        let down = u
            .mean_defeat_round
            .map_or("-".to_string(), |r| format!("rd {r:.1}"));
        println!(
            "  {:<18} {:<12} {:>7.2} {:>7} {:>9} {:>7.1} {:>7.1} {:>6.2} {:>8} {:>8}",
            u.name,
            u.side,
            u.attacks,
            pct(u.hit_rate),
            pct(u.predicted_hit),
            u.damage_dealt,
            u.damage_taken,
            u.kills,
            pct(Some(u.survival)),
            down
        );
    }
}

/// Draws win rates (left) and the battle-length histogram (right) into a PNG.
fn plot(info: &RunInfo, s: &Summary, path: &Path) -> Result<(), String> {
    use plotters::prelude::*;
    use plotters::style::text_anchor::{HPos, Pos, VPos};

    use_font()?;
    let root = BitMapBackend::new(path, (1100, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let root = root
        .titled(
            &format!(
                "{} ({}): {} battles, seed {}",
                s.level, s.ruleset, s.battles, s.seed
            ),
            ("sans-serif", 22),
        )
        .map_err(|e| e.to_string())?;
    let (left, right) = root.split_horizontally(480);

    // Win rates: one bar per side, then draws.
    let mut bars: Vec<(String, f64)> = info
        .sides
        .iter()
        .map(|side| {
            let policy = s.policies.get(side).map_or("?", String::as_str);
            let rate = s.win_rates.get(side).copied().unwrap_or(0.0);
            (format!("{side} ({policy})"), rate)
        })
        .collect();
    bars.push(("draws".into(), s.draws as f64 / s.battles.max(1) as f64));
    if s.cut_off_by_commands > 0 {
        bars.push((
            "command limit".into(),
            s.cut_off_by_commands as f64 / s.battles.max(1) as f64,
        ));
    }
    let draws_bar = bars.len() - usize::from(s.cut_off_by_commands > 0) - 1;
    let n = bars.len();
    let mut chart = ChartBuilder::on(&left)
        .caption("Win rate", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        // Segments 0..=n-1: one per bar, no empty one after the last.
        .build_cartesian_2d((0..n - 1).into_segmented(), 0.0..1.08_f64)
        .map_err(|e| e.to_string())?;
    let labels: Vec<String> = bars.iter().map(|(l, _)| l.clone()).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n)
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => labels.get(*i).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
        .label_style(("sans-serif", 13))
        .draw()
        .map_err(|e| e.to_string())?;
    let colors = [BLUE, RED, GREEN, MAGENTA, CYAN, BLACK];
    chart
        .draw_series(bars.iter().enumerate().map(|(i, (_, rate))| {
            let color = if i >= draws_bar {
                RGBColor(150, 150, 150)
            } else {
                colors[i % colors.len()]
            };
            let mut bar = Rectangle::new(
                [
                    (SegmentValue::Exact(i), 0.0),
                    (SegmentValue::Exact(i + 1), *rate),
                ],
                color.mix(0.7).filled(),
            );
            bar.set_margin(0, 0, 12, 12);
            bar
        }))
        .map_err(|e| e.to_string())?;
    // Each bar's figure above it.
    chart
        .draw_series(bars.iter().enumerate().map(|(i, (_, rate))| {
            Text::new(
                format!("{:.1}%", rate * 100.0),
                (SegmentValue::CenterOf(i), rate + 0.05),
                TextStyle::from(("sans-serif", 14).into_font())
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            )
        }))
        .map_err(|e| e.to_string())?;

    // Battle length: battles per number of rounds.
    let max_round = s.max_rounds.max(1);
    let max_count = s
        .rounds_histogram
        .iter()
        .map(|&(_, c)| c)
        .max()
        .unwrap_or(1);
    let mut chart = ChartBuilder::on(&right)
        .caption(
            format!(
                "Battle length (mean {:.1} rounds, std dev {:.1})",
                s.mean_rounds, s.std_rounds
            ),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(
            (0..max_round + 1).into_segmented(),
            0..max_count + max_count / 10 + 1,
        )
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("rounds")
        .y_desc("battles")
        .label_style(("sans-serif", 13))
        .draw()
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(
            Histogram::vertical(&chart)
                .style(BLUE.mix(0.6).filled())
                .margin(2)
                .data(s.rounds_histogram.iter().map(|&(r, c)| (r, c))),
        )
        .map_err(|e| e.to_string())?
        .label("decided")
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], BLUE.mix(0.6).filled()));
    // Battles stopped at the round limit: the grey part of the limit's bar.
    let limit = info.max_rounds;
    if s.cut_off > 0 && limit <= max_round {
        chart
            .draw_series(
                Histogram::vertical(&chart)
                    .style(RGBColor(150, 150, 150).filled())
                    .margin(2)
                    .data([(limit, s.cut_off)]),
            )
            .map_err(|e| e.to_string())?
            .label(format!("draw at the {limit}-round limit"))
            .legend(|(x, y)| {
                Rectangle::new(
                    [(x, y - 5), (x + 12, y + 5)],
                    RGBColor(150, 150, 150).filled(),
                )
            });
    }
    legend_and_present(&mut chart, &root, SeriesLabelPosition::UpperLeft)
}
