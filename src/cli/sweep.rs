//! The report of `skirmish sim --sweep KEY=…`: each side's win rate with its 95%
//! interval, the draws and the mean rounds for each value of KEY, as a table, JSON
//! (`{"sweep": KEY, "runs": [{"value": V, <sim's figures>}, …]}`) or a plot of win
//! rate against the value with the interval as a band. (`--csv` rows come from
//! [`super::csv`], with the `sweep` and `value` columns filled.)

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use super::chart::{legend_and_present, use_font};
use super::shard::PlayedRun;
use super::tweak::parse_value;
use crate::ai::sim::Summary;

/// The JSON of a sweep.
#[derive(Serialize)]
pub struct SweepReport<'a> {
    /// The swept KEY.
    pub sweep: &'a str,
    /// One entry per value, in order.
    pub runs: Vec<SweepRun<'a>>,
}

/// One value of a sweep and the run's figures.
#[derive(Serialize)]
pub struct SweepRun<'a> {
    /// The value (a JSON number, string, list… as the RON value reads).
    pub value: serde_json::Value,
    /// The run's figures, as `sim --json` gives them.
    #[serde(flatten)]
    pub figures: &'a Summary,
}

/// The JSON report of a sweep of `key` over `runs` with their `summaries`.
pub fn json<'a>(key: &'a str, runs: &[PlayedRun], summaries: &'a [Summary]) -> SweepReport<'a> {
    SweepReport {
        sweep: key,
        runs: runs
            .iter()
            .zip(summaries)
            .map(|(run, figures)| SweepRun {
                value: json_value(run.value.as_deref().unwrap_or_default()),
                figures,
            })
            .collect(),
    }
}

/// A RON value as JSON, or its text when JSON can't hold it.
fn json_value(text: &str) -> serde_json::Value {
    serde_json::to_value(parse_value(text)).unwrap_or_else(|_| text.into())
}

/// The table of a sweep: a line per value.
pub fn table(key: &str, runs: &[PlayedRun], summaries: &[Summary]) -> String {
    let mut out = String::new();
    let (Some(first), Some(info)) = (summaries.first(), runs.first().map(|r| &r.info)) else {
        return out;
    };
    let _ = writeln!(
        out,
        "{} ({}), {} battles per value, seed {}; sweep {key} (the same seeds for each value)",
        first.level, first.ruleset, first.battles, first.seed
    );
    // The --set changes (the sweep's own is the last of each run's).
    if let [set @ .., _] = first.set.as_slice()
        && !set.is_empty()
    {
        let _ = writeln!(out, "Set: {}", set.join(", "));
    }
    let values: Vec<&str> = runs
        .iter()
        .map(|r| r.value.as_deref().unwrap_or(""))
        .collect();
    let value_width = values
        .iter()
        .map(|v| v.chars().count())
        .chain([key.chars().count()])
        .max()
        .unwrap_or(0);
    let heads: Vec<String> = info
        .sides
        .iter()
        .zip(&info.policies)
        .map(|(side, policy)| format!("{side} ({policy})"))
        .collect();
    // "100.0% [99.9–100.0]" is 19 characters.
    let widths: Vec<usize> = heads.iter().map(|h| h.chars().count().max(19)).collect();
    let mut line = format!("  {key:<value_width$}");
    for (head, w) in heads.iter().zip(&widths) {
        let _ = write!(line, "  {head:<w$}");
    }
    let _ = writeln!(out, "{line}  {:>6}  {:>6}", "draws", "rounds");
    for (value, s) in values.iter().zip(summaries) {
        let mut line = format!("  {value:<value_width$}");
        for (side, w) in info.sides.iter().zip(&widths) {
            let rate = s.win_rates.get(side).copied().unwrap_or(0.0);
            let [lo, hi] = s.win_ci.get(side).copied().unwrap_or([0.0, 1.0]);
            let cell = format!(
                "{:>5.1}% [{:.1}–{:.1}]",
                100.0 * rate,
                100.0 * lo,
                100.0 * hi
            );
            let _ = write!(line, "  {cell:<w$}");
        }
        let draws = 100.0 * s.draws as f64 / s.battles.max(1) as f64;
        let _ = writeln!(line, "  {draws:>5.1}%  {:>6.2}", s.mean_rounds);
        out += &line;
    }
    let unfinished: usize = summaries.iter().map(|s| s.cut_off_by_commands).sum();
    if unfinished > 0 {
        let _ = writeln!(
            out,
            "({unfinished} battles stopped unfinished at the command limit are neither wins nor \
             draws)"
        );
    }
    out
}

/// Draws each side's win rate against the swept value, its 95% interval as a
/// shaded band (and the draws in grey), into a PNG. Values that aren't all
/// numbers are set out evenly in their order.
pub fn plot(
    key: &str,
    runs: &[PlayedRun],
    summaries: &[Summary],
    path: &Path,
) -> Result<(), String> {
    use plotters::prelude::*;

    let (Some(first), Some(info)) = (summaries.first(), runs.first().map(|r| &r.info)) else {
        return Err("no runs to plot".into());
    };
    let labels: Vec<String> = runs
        .iter()
        .map(|r| r.value.clone().unwrap_or_default())
        .collect();
    let numbers: Option<Vec<f64>> = labels
        .iter()
        .map(|l| parse_value(l).into_rust::<f64>().ok())
        .collect();
    let numeric = numbers.is_some();
    let xs: Vec<f64> = numbers.unwrap_or_else(|| (0..labels.len()).map(|i| i as f64).collect());
    let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let pad = if hi > lo { (hi - lo) * 0.04 } else { 0.5 };

    use_font()?;
    let root = BitMapBackend::new(path, (960, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "{} ({}): win rate by {key}, {} battles per value, seed {}",
                first.level, first.ruleset, first.battles, first.seed
            ),
            ("sans-serif", 20),
        )
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(52)
        .build_cartesian_2d((lo - pad)..(hi + pad), 0.0..1.0_f64)
        .map_err(|e| e.to_string())?;
    let label_of = |x: &f64| {
        if numeric {
            let t = format!("{x:.3}");
            t.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        }
    };
    chart
        .configure_mesh()
        .light_line_style(RGBColor(238, 238, 238))
        .x_desc(key)
        .y_desc("win rate (95% interval)")
        .x_labels(if numeric { 12 } else { labels.len() * 2 + 1 })
        .x_label_formatter(&label_of)
        .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
        .label_style(("sans-serif", 13))
        .draw()
        .map_err(|e| e.to_string())?;
    let colors = [BLUE, RED, GREEN, MAGENTA, CYAN, BLACK];
    for (i, (side, policy)) in info.sides.iter().zip(&info.policies).enumerate() {
        let color = colors[i % colors.len()];
        let ci = |s: &Summary| s.win_ci.get(side).copied().unwrap_or([0.0, 1.0]);
        let band: Vec<(f64, f64)> = xs
            .iter()
            .zip(summaries)
            .map(|(&x, s)| (x, ci(s)[0]))
            .chain(xs.iter().zip(summaries).rev().map(|(&x, s)| (x, ci(s)[1])))
            .collect();
        chart
            .draw_series(std::iter::once(Polygon::new(
                band,
                color.mix(0.15).filled(),
            )))
            .map_err(|e| e.to_string())?;
        let points: Vec<(f64, f64)> = xs
            .iter()
            .zip(summaries)
            .map(|(&x, s)| (x, s.win_rates.get(side).copied().unwrap_or(0.0)))
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(format!("{side} ({policy})"))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], color.stroke_width(2)));
        chart
            .draw_series(
                points
                    .into_iter()
                    .map(|p| Circle::new(p, 3, color.filled())),
            )
            .map_err(|e| e.to_string())?;
    }
    let grey = RGBColor(130, 130, 130);
    let draws: Vec<(f64, f64)> = xs
        .iter()
        .zip(summaries)
        .map(|(&x, s)| (x, s.draws as f64 / s.battles.max(1) as f64))
        .collect();
    if draws.iter().any(|&(_, d)| d > 0.0) {
        chart
            .draw_series(LineSeries::new(draws, grey.stroke_width(1)))
            .map_err(|e| e.to_string())?
            .label("draws")
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], grey.stroke_width(1)));
    }
    legend_and_present(&mut chart, &root, SeriesLabelPosition::UpperRight)
}
