//! `skirmish sim LEVEL [--battles N] [--seed S] [--ruleset R] [--ai SIDE=POLICY]...
//! [--threads T] [--json] [--plot FILE.png] [--log INDEX] [--save-battle INDEX FILE]`:
//! AI-vs-AI battles without a window, on
//! every core, and their figures.
//!
//! Each side plays the policy `--ai` gives it, else its level controller's (`Human`
//! sides play `normal`). The figures are the same for a seed whatever the number of
//! threads (see [`crate::ai::sim`]); only `battles_per_second` varies. A progress bar
//! shows on a terminal (stderr), never in a pipe. A battle stopped at the command
//! limit ([`crate::ai::sim::command_limit`]) is counted and shown apart from the
//! draws, as unfinished. Exit 0 on success, 2 for bad
//! arguments, 1 when the level doesn't load or a battle or the plot fails.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::ai::sim::{
    RunInfo, SimConfig, Summary, battle_seed, command_limit, play_logged, simulate, summarize,
};
use crate::ai::{AiPolicy, parse_policy};
use crate::level::schema::{Controller, Level};
use crate::level::{load_file, under_ruleset};

/// The chart font (Fira Mono, SIL Open Font License; see assets/fonts/).
pub(super) const FONT: &[u8] = include_bytes!("../../assets/fonts/FiraMono-subset.ttf");

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
    /// Worker threads (default: every core).
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Write a PNG of the win rates and the distribution of battle length.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
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
    Usage(String),
    Failed(String),
}

/// Runs `skirmish sim`.
pub fn run(args: &SimArgs) -> ExitCode {
    match sim(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(m)) => {
            eprintln!("skirmish sim: {m}");
            ExitCode::from(2)
        }
        Err(Failure::Failed(m)) => {
            eprintln!("skirmish sim: {m}");
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
    let level = load_level(&args.level, args.ruleset.as_deref())?;
    let policies = policies(&level, &args.ai)?;
    let config = SimConfig {
        battles: args.battles,
        seed: args.seed,
        policies,
        max_commands: command_limit(&level),
    };
    if let [index, file] = args.save_battle.as_slice() {
        let index: usize = index.parse().map_err(|_| {
            Failure::Usage(format!(
                "--save-battle INDEX FILE: `{index}` is not a battle number (0, 1, 2 …)"
            ))
        })?;
        let seed = battle_seed(args.seed, index as u64);
        let (result, battle) = crate::ai::sim::play_recorded(
            &level,
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
        return Ok(());
    }
    if let Some(index) = args.log {
        let seed = battle_seed(args.seed, index as u64);
        let (result, lines) = play_logged(&level, seed, &config.policies, config.max_commands)
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
        return Ok(());
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        pool = pool.num_threads(t);
    }
    let pool = pool
        .build()
        .map_err(|e| Failure::Failed(format!("cannot start worker threads: {e}")))?;
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(args.battles as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} battles, {per_sec}, eta {eta}")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let start = Instant::now();
    let results = pool
        .install(|| simulate(&level, &config, 0..config.battles, &|| bar.inc(1)))
        .map_err(Failure::Failed)?;
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let info = RunInfo::new(&level, &config);
    let summary = summarize(&info, &results, seconds, pool.current_num_threads());
    if args.json {
        let json = serde_json::to_string(&summary)
            .map_err(|e| Failure::Failed(format!("cannot write JSON: {e}")))?;
        println!("{json}");
    } else {
        print_table(&info, &summary);
    }
    if let Some(path) = &args.plot {
        plot(&info, &summary, path).map_err(|e| {
            Failure::Failed(format!("cannot write the plot {}: {e}", path.display()))
        })?;
        if !args.json {
            println!("Plot: {}", path.display());
        }
    }
    Ok(())
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
    println!(
        "Speed: {:.1} battles/s on {} thread{}",
        s.battles_per_second,
        s.threads,
        if s.threads == 1 { "" } else { "s" }
    );
}

/// Draws win rates (left) and the battle-length histogram (right) into a PNG.
fn plot(info: &RunInfo, s: &Summary, path: &Path) -> Result<(), String> {
    use plotters::prelude::*;
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    use plotters::style::{FontStyle, register_font};

    // Registering twice (a second plot in one process) is harmless.
    register_font("sans-serif", FontStyle::Normal, FONT).map_err(|_| "bad font".to_string())?;
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
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.3))
        .label_font(("sans-serif", 13))
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())?;
    Ok(())
}
