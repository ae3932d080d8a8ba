//! `skirmish compare LEVEL [--battles N] [--seed S] [--threads T] [--json]
//! [--plot FILE.png]`: one level under every ruleset that can play it, side by side.
//!
//! A ruleset can play the level when its grids include the level's grid and the
//! level loads for it ([`crate::level::under_ruleset`]: archetype units realized,
//! stats it reads). The others are named with the reason. Each ruleset plays the
//! same battles (seeds) as `skirmish sim LEVEL --ruleset R` with the same
//! `--battles` and `--seed`, through the same [`simulate`] and [`summarize`]: its
//! entry in `--json` is that run's summary (timings aside). Exit 0 on success, 2 for
//! bad arguments or a level no ruleset can play, 1 when the level doesn't load or a
//! battle or the plot fails.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use serde::Serialize;

use crate::ai::sim::{RunInfo, SimConfig, Summary, command_limit, simulate, summarize};
use crate::engine::board::GridKind;
use crate::engine::rulesets::{RULESETS, registry};
use crate::level::schema::Level;
use crate::level::{load_file, under_ruleset};

use super::chart::use_font;
use super::sim::{Failure, policies};

/// Arguments of `skirmish compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The level file (RON), best made of archetype units (`archetype: "archer"`).
    pub level: PathBuf,
    /// Battles per ruleset.
    #[arg(long, default_value_t = 100)]
    pub battles: usize,
    /// Seed of the run: battle i plays with a seed derived from (S, i), under every
    /// ruleset.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Write a PNG of each ruleset's win rates with their 95% intervals.
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
}

/// A ruleset `compare` did not run, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Skipped {
    /// The ruleset's id.
    pub ruleset: String,
    /// Why it can't play the level.
    pub reason: String,
}

/// What `compare --json` prints.
#[derive(Debug, Serialize)]
pub struct Comparison {
    /// The level's name.
    pub level: String,
    /// Battles per ruleset.
    pub battles: usize,
    /// Seed of the run.
    pub seed: u64,
    /// The sides, in level order.
    pub sides: Vec<String>,
    /// Each ruleset that played it: `skirmish sim --json`'s summary.
    pub rulesets: Vec<Summary>,
    /// The rulesets that could not play it.
    pub skipped: Vec<Skipped>,
}

/// Runs `skirmish compare`.
pub fn run(args: &CompareArgs) -> ExitCode {
    match compare(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(m)) => {
            eprintln!("skirmish compare: {m}");
            ExitCode::from(2)
        }
        Err(Failure::Failed(m)) => {
            eprintln!("skirmish compare: {m}");
            ExitCode::FAILURE
        }
    }
}

fn grid_name(grid: GridKind) -> &'static str {
    match grid {
        GridKind::Square => "squares",
        GridKind::Hex => "hexes",
    }
}

/// The level as each ruleset plays it, in registry order, or why that ruleset can't.
pub fn candidates(level: &Level) -> Vec<(String, Result<Level, String>)> {
    RULESETS
        .iter()
        .map(|&id| {
            let Some(ruleset) = registry::get(id) else {
                return (id.to_string(), Err("not registered".to_string()));
            };
            let grids = ruleset.grids();
            if !grids.contains(&level.grid) {
                let played: Vec<&str> = grids.iter().map(|&g| grid_name(g)).collect();
                let reason = format!(
                    "played on {}; the level is on {}",
                    played.join(" and "),
                    grid_name(level.grid)
                );
                return (id.to_string(), Err(reason));
            }
            let result = under_ruleset(level, id).map_err(|issues| {
                let messages: Vec<&str> = issues.iter().map(|i| i.message.as_str()).collect();
                messages.join("; ")
            });
            (id.to_string(), result)
        })
        .collect()
}

fn compare(args: &CompareArgs) -> Result<(), Failure> {
    if args.battles == 0 {
        return Err(Failure::Usage("--battles must be at least 1".into()));
    }
    if args.threads == Some(0) {
        return Err(Failure::Usage("--threads must be at least 1".into()));
    }
    let level = load_file(&args.level).map_err(|problems| {
        let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
        Failure::Failed(lines.join("\n"))
    })?;
    let pool = super::sim::worker_pool(args.threads)?;
    let mut rulesets = Vec::new();
    let mut skipped = Vec::new();
    for (id, candidate) in candidates(&level) {
        let played = match candidate {
            Ok(played) => played,
            Err(reason) => {
                skipped.push(Skipped {
                    ruleset: id,
                    reason,
                });
                continue;
            }
        };
        let config = SimConfig {
            battles: args.battles,
            seed: args.seed,
            policies: policies(&played, &[])?,
            max_commands: command_limit(&played),
        };
        let start = Instant::now();
        let results = pool
            .install(|| simulate(&played, &config, 0..config.battles, &|| {}))
            .map_err(|e| Failure::Failed(format!("under {id}: {e}")))?;
        let seconds = start.elapsed().as_secs_f64();
        rulesets.push(summarize(
            &RunInfo::new(&played, &config),
            &results,
            seconds,
            pool.current_num_threads(),
        ));
    }
    if rulesets.is_empty() {
        let lines: Vec<String> = skipped
            .iter()
            .map(|s| format!("  {}: {}", s.ruleset, s.reason))
            .collect();
        return Err(Failure::Usage(format!(
            "{}: no ruleset can play this level:\n{}",
            args.level.display(),
            lines.join("\n")
        )));
    }
    let comparison = Comparison {
        level: level.name.clone(),
        battles: args.battles,
        seed: args.seed,
        sides: level.sides.iter().map(|s| s.name.clone()).collect(),
        rulesets,
        skipped,
    };
    if args.json {
        let json = serde_json::to_string(&comparison)
            .map_err(|e| Failure::Failed(format!("cannot write JSON: {e}")))?;
        println!("{json}");
    } else {
        print!("{}", table(&comparison));
    }
    if let Some(path) = &args.plot {
        plot(&comparison, path).map_err(|e| {
            Failure::Failed(format!("cannot write the plot {}: {e}", path.display()))
        })?;
        if !args.json {
            println!("Plot: {}", path.display());
        }
    }
    Ok(())
}

/// The human table: one row per ruleset (each side's win rate and interval, draws
/// and unfinished battles, mean rounds, damage per round, share of units down,
/// battles per second), then the skipped ones.
pub fn table(c: &Comparison) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} battles per ruleset, seed {}",
        c.level, c.battles, c.seed
    );
    let mut header = format!("{:<11}", "ruleset");
    for side in &c.sides {
        let _ = write!(header, " {:<22}", format!("{side} wins (95%)"));
    }
    let _ = write!(
        header,
        " {:>6} {:>6} {:>7} {:>7} {:>10}",
        "draws", "rounds", "dmg/rd", "down", "battles/s"
    );
    let _ = writeln!(out, "{}", header.trim_end());
    for s in &c.rulesets {
        let mut row = format!("{:<11}", s.ruleset);
        for side in &c.sides {
            let rate = s.win_rates.get(side).copied().unwrap_or(0.0);
            let [lo, hi] = s.win_ci.get(side).copied().unwrap_or([0.0, 1.0]);
            let cell = format!("{:.1}% [{:.1}–{:.1}]", 100.0 * rate, 100.0 * lo, 100.0 * hi);
            let _ = write!(row, " {cell:<22}");
        }
        // Draws and battles stopped unfinished: what the win rates leave out.
        let undecided = (s.draws + s.cut_off_by_commands) as f64 / s.battles.max(1) as f64;
        let _ = writeln!(
            out,
            "{row} {:>5.1}% {:>6.2} {:>7.2} {:>6.1}% {:>10.1}",
            100.0 * undecided,
            s.mean_rounds,
            s.damage_per_round,
            100.0 * s.units_down,
            s.battles_per_second
        );
    }
    for s in &c.skipped {
        let _ = writeln!(out, "{:<11} skipped: {}", s.ruleset, s.reason);
    }
    out
}

/// Draws each ruleset's win rate per side with its 95% interval into a PNG.
fn plot(c: &Comparison, path: &Path) -> Result<(), String> {
    use plotters::prelude::*;

    use_font()?;
    let width = 200 + 160 * c.rulesets.len() as u32;
    let root = BitMapBackend::new(path, (width.max(640), 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let n = c.rulesets.len();
    let sides = c.sides.len().max(1);
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "{}: win rate by ruleset, 95% intervals ({} battles each, seed {})",
                c.level, c.battles, c.seed
            ),
            ("sans-serif", 18),
        )
        .margin(14)
        .x_label_area_size(36)
        .y_label_area_size(52)
        .build_cartesian_2d(0.0..n as f64, 0.0..1.0_f64)
        .map_err(|e| e.to_string())?;
    let labels: Vec<String> = c.rulesets.iter().map(|s| s.ruleset.clone()).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n * 2 + 1)
        .x_label_formatter(&|v| {
            let i = v.floor() as usize;
            if (v - i as f64 - 0.5).abs() < 1e-9 {
                labels.get(i).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .y_labels(11)
        .light_line_style(WHITE)
        .y_desc("win rate")
        .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
        .label_style(("sans-serif", 13))
        .draw()
        .map_err(|e| e.to_string())?;
    let colors = [BLUE, RED, GREEN, MAGENTA, CYAN, BLACK];
    let bar = 0.8 / sides as f64;
    for (k, side) in c.sides.iter().enumerate() {
        let color = colors[k % colors.len()];
        let x0 = |i: usize| i as f64 + 0.1 + bar * k as f64;
        let rate = |s: &Summary| s.win_rates.get(side).copied().unwrap_or(0.0);
        let ci = |s: &Summary| s.win_ci.get(side).copied().unwrap_or([0.0, 1.0]);
        chart
            .draw_series(c.rulesets.iter().enumerate().map(|(i, s)| {
                Rectangle::new(
                    [(x0(i) + 0.01, 0.0), (x0(i) + bar - 0.01, rate(s))],
                    color.mix(0.6).filled(),
                )
            }))
            .map_err(|e| e.to_string())?
            .label(side.clone())
            .legend(move |(x, y)| {
                Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.mix(0.6).filled())
            });
        // The interval: a vertical bar from its low to its high end, with caps.
        chart
            .draw_series(c.rulesets.iter().enumerate().flat_map(|(i, s)| {
                let [lo, hi] = ci(s);
                let (mid, cap) = (x0(i) + bar / 2.0, bar / 5.0);
                [
                    vec![(mid, lo), (mid, hi)],
                    vec![(mid - cap, lo), (mid + cap, lo)],
                    vec![(mid - cap, hi), (mid + cap, hi)],
                ]
                .map(|points| PathElement::new(points, BLACK.stroke_width(2)))
            }))
            .map_err(|e| e.to_string())?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.3))
        .label_font(("sans-serif", 13))
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())?;
    Ok(())
}
