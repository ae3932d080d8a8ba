//! `skirmish sim --csv` and `skirmish merge --csv`: the figures as CSV (RFC 4180),
//! one header and then rows, ready for a spreadsheet or pandas.
//!
//! Every row carries the run it belongs to (`sweep` and `value` for a sweep, empty
//! otherwise; `level`, `ruleset`, `seed`, `battles`, `set`) and the run's figures
//! (`draws` … `mean_commands`), so rows can be filtered and grouped on their own.
//! The `row` column says what the row is about and `name` which one:
//!
//! - `side`: a side (`name` = its name), with its `policy`, `wins`, `win_rate`,
//!   `win_ci_low`, `win_ci_high` (the 95% Wilson interval) and mean `damage_taken`.
//!
//! Other kinds of rows (e.g. `unit`, one per unit) add their own columns at the end
//! of [`COLUMNS`] and leave the others' empty, as `side` rows leave theirs. Rates
//! are shares (0 to 1), as in the JSON; timings are left out (they vary between runs).

use std::collections::BTreeMap;

use crate::ai::sim::{RunInfo, Summary};

/// The columns, in order.
pub const COLUMNS: &[&str] = &[
    "sweep",
    "value",
    "level",
    "ruleset",
    "seed",
    "battles",
    "set",
    "row",
    "name",
    "policy",
    "wins",
    "win_rate",
    "win_ci_low",
    "win_ci_high",
    "damage_taken",
    "draws",
    "cut_off",
    "unfinished",
    "mean_rounds",
    "std_rounds",
    "min_rounds",
    "max_rounds",
    "damage_per_round",
    "mean_commands",
];

/// One row: a value by column name (columns left out are empty).
pub type Row = BTreeMap<&'static str, String>;

/// The rows of one run: `sweep` = (key, value) for a value of a sweep.
pub fn rows(sweep: Option<(&str, &str)>, info: &RunInfo, s: &Summary) -> Vec<Row> {
    let mut run = Row::new();
    if let Some((key, value)) = sweep {
        run.insert("sweep", key.to_string());
        run.insert("value", value.to_string());
    }
    let figures: [(&'static str, String); 14] = [
        ("level", s.level.clone()),
        ("ruleset", s.ruleset.clone()),
        ("seed", s.seed.to_string()),
        ("battles", s.battles.to_string()),
        ("set", s.set.join("; ")),
        ("draws", s.draws.to_string()),
        ("cut_off", s.cut_off.to_string()),
        ("unfinished", s.cut_off_by_commands.to_string()),
        ("mean_rounds", s.mean_rounds.to_string()),
        ("std_rounds", s.std_rounds.to_string()),
        ("min_rounds", s.min_rounds.to_string()),
        ("max_rounds", s.max_rounds.to_string()),
        ("damage_per_round", s.damage_per_round.to_string()),
        ("mean_commands", s.mean_commands.to_string()),
    ];
    run.extend(figures);
    info.sides
        .iter()
        .map(|side| {
            let mut row = run.clone();
            let [lo, hi] = s.win_ci.get(side).copied().unwrap_or([0.0, 1.0]);
            let side_figures: [(&'static str, String); 8] = [
                ("row", "side".into()),
                ("name", side.clone()),
                ("policy", s.policies.get(side).cloned().unwrap_or_default()),
                ("wins", s.wins.get(side).copied().unwrap_or(0).to_string()),
                (
                    "win_rate",
                    s.win_rates.get(side).copied().unwrap_or(0.0).to_string(),
                ),
                ("win_ci_low", lo.to_string()),
                ("win_ci_high", hi.to_string()),
                (
                    "damage_taken",
                    s.damage_taken.get(side).copied().unwrap_or(0.0).to_string(),
                ),
            ];
            row.extend(side_figures);
            row
        })
        .collect()
}

/// The CSV text of `rows` under the header of [`COLUMNS`], one line each.
pub fn write(rows: &[Row]) -> String {
    let line = |fields: Vec<&str>| {
        let quoted: Vec<String> = fields.into_iter().map(quote).collect();
        quoted.join(",") + "\n"
    };
    let mut out = line(COLUMNS.to_vec());
    for row in rows {
        debug_assert!(row.keys().all(|k| COLUMNS.contains(k)), "{row:?}");
        out += &line(
            COLUMNS
                .iter()
                .map(|c| row.get(c).map_or("", String::as_str))
                .collect(),
        );
    }
    out
}

/// A field as CSV: in double quotes (doubled inside) when it holds a comma, a quote
/// or a line break.
fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_when_needed() {
        assert_eq!(quote("The Ford"), "The Ford");
        assert_eq!(quote("a,b"), "\"a,b\"");
        assert_eq!(quote("say \"hi\""), "\"say \"\"hi\"\"\"");
        let mut row = Row::new();
        row.insert("name", "x,y".into());
        row.insert("wins", "3".into());
        let text = write(&[row]);
        let mut lines = text.lines();
        assert_eq!(lines.next().unwrap().split(',').count(), COLUMNS.len());
        let line = lines.next().unwrap();
        assert!(line.contains(",\"x,y\",,3,"), "{line}");
    }
}
