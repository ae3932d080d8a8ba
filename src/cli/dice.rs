//! `skirmish dice`.

use std::io::Write;
use std::process::ExitCode;

use serde::Serialize;

use crate::engine::odds::{DiceExpr, Distribution};

/// Width of the longest bar in the table.
const BAR_WIDTH: f64 = 40.0;

/// The `--json` output.
#[derive(Serialize)]
struct JsonReport<'a> {
    expr: &'a str,
    mean: f64,
    min: i64,
    max: i64,
    distribution: Vec<(i64, f64)>,
}

/// Runs `skirmish dice`.
pub fn run(expr: &str, json: bool) -> ExitCode {
    let parsed: DiceExpr = match expr.parse() {
        Ok(parsed) => parsed,
        Err(err) => {
            let caret = " ".repeat(err.position);
            eprintln!("error: {expr}: {err}\n  {expr}\n  {caret}^");
            return ExitCode::from(1);
        }
    };
    let canonical = parsed.to_string();
    let dist = parsed.distribution();
    let mean = parsed.mean();
    let text = if json {
        json_report(&canonical, mean, &dist)
    } else {
        table(&canonical, mean, &dist)
    };
    let mut out = std::io::stdout().lock();
    // A closed pipe (e.g. `| head`) is not worth a panic.
    if out
        .write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// One JSON object and a newline.
fn json_report(canonical: &str, mean: f64, dist: &Distribution) -> String {
    let report = JsonReport {
        expr: canonical,
        mean,
        min: dist.min(),
        max: dist.max(),
        distribution: dist.outcomes(),
    };
    match serde_json::to_string(&report) {
        Ok(mut s) => {
            s.push('\n');
            s
        }
        // Only non-finite floats could fail, and probabilities are finite.
        Err(err) => format!("{{\"error\":\"{err}\"}}\n"),
    }
}

/// The header and the value / probability / at-least table.
fn table(canonical: &str, mean: f64, dist: &Distribution) -> String {
    use std::fmt::Write as _;
    let outcomes = dist.outcomes();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{canonical}: mean {mean:.3}, min {}, max {}",
        dist.min(),
        dist.max()
    );
    let width = dist
        .min()
        .to_string()
        .len()
        .max(dist.max().to_string().len())
        .max("value".len());
    let _ = writeln!(
        s,
        "{:>width$}  {:>12}  {:>12}",
        "value", "probability", "at least"
    );
    let top = outcomes.iter().map(|&(_, p)| p).fold(0.0, f64::max);
    // Cumulative "at least", summed from the top so small tails stay precise.
    let mut at_least = vec![0.0; outcomes.len()];
    let mut acc = 0.0;
    for (i, &(_, p)) in outcomes.iter().enumerate().rev() {
        acc += p;
        at_least[i] = acc.min(1.0);
    }
    for (&(value, p), &ge) in outcomes.iter().zip(&at_least) {
        let bar_len = if top > 0.0 {
            (p / top * BAR_WIDTH).round() as usize
        } else {
            0
        };
        let _ = writeln!(
            s,
            "{value:>width$}  {:>11.4}%  {:>11.4}%  {}",
            p * 100.0,
            ge * 100.0,
            "#".repeat(bar_len)
        );
    }
    s
}
