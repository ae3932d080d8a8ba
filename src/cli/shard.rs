//! `skirmish sim --shard K/N` and `skirmish merge FILES… [--json] [--csv] [--plot
//! FILE.png]`: one run split over processes or machines.
//!
//! Shard K of N plays its share of the battle indices — the K-th of N consecutive,
//! near-equal blocks of `0..battles` — with the seeds the full run gives them, and
//! writes a shard file ([`Played`] as JSON: the run's [`RunInfo`] and the
//! per-battle results; for a sweep, one run per value). `merge` checks that its
//! files are the N shards of one run (same level as played, ruleset, seed,
//! policies, battles, settings and sweep; each K once) and prints the full run's
//! report, exactly what `sim` without `--shard` prints (timings aside: the merged
//! battles per second are all battles over the shards' seconds together). Exit 0,
//! 2 for files that don't make one run (the message names the file and what
//! differs or is missing), 1 when a file can't be read or the plot fails.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde::{Deserialize, Serialize};

use super::sim::{Failure, Output, report};
use crate::ai::sim::{BattleResult, RunInfo};

/// The `format` of a shard file (and of what `sim` played before it reports it).
pub const FORMAT: &str = "skirmish sim shard 1";

/// A share of a run: shard `k` of `n` (1 ≤ k ≤ n).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, from 1.
    pub k: usize,
    /// Of how many.
    pub n: usize,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// Parses `K/N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let usage = || format!("`{text}` is not a shard: expected K/N with 1 ≤ K ≤ N, e.g. 3/8");
        let (k, n) = text.split_once('/').ok_or_else(usage)?;
        let k: usize = k.trim().parse().map_err(|_| usage())?;
        let n: usize = n.trim().parse().map_err(|_| usage())?;
        if n == 0 {
            return Err(format!("`{text}` is not a shard: N must be at least 1"));
        }
        if k == 0 || k > n {
            return Err(format!(
                "`{text}` is not a shard: K must be 1 to N (shards 1/{n} to {n}/{n})"
            ));
        }
        Ok(Shard { k, n })
    }

    /// The battle indices this shard plays of a run of `battles`.
    pub fn indices(self, battles: usize) -> Range<usize> {
        let at = |k: usize| (k as u128 * battles as u128 / self.n as u128) as usize;
        at(self.k - 1)..at(self.k)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// What `sim` played: a shard file, or a whole run before it is reported.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Played {
    /// [`FORMAT`], to tell a shard file from other JSON.
    pub format: String,
    /// Which share of the run ([`Shard::WHOLE`] for all of it).
    pub shard: Shard,
    /// The swept KEY, for a sweep.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<String>,
    /// One run, or one per value of the sweep in order.
    pub runs: Vec<PlayedRun>,
    /// Wall-clock seconds the battles took.
    pub seconds: f64,
    /// Threads used.
    pub threads: usize,
}

/// One run as played: what it is and its battles' results, in index order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayedRun {
    /// The swept value (RON), for a sweep.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// The run.
    pub info: RunInfo,
    /// The results of the battles played.
    pub results: Vec<BattleResult>,
}

/// Arguments of `skirmish merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard files (`skirmish sim … --shard K/N --json > FILE`), all N of them.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// How the figures are printed (as `sim` prints them).
    #[command(flatten)]
    pub output: Output,
}

/// Runs `skirmish merge`.
pub fn run(args: &MergeArgs) -> ExitCode {
    super::sim::exit(
        "merge",
        merge(&args.files).and_then(|p| report(&p, &args.output)),
    )
}

/// The shards in `files` merged into the whole run.
fn merge(files: &[PathBuf]) -> Result<Played, Failure> {
    let mut shards: Vec<(&Path, Played)> = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| Failure::Failed(format!("cannot read {}: {e}", file.display())))?;
        let not_a_shard = |why: String| {
            Failure::Usage(format!(
                "{}: not a shard file of `skirmish sim --shard K/N --json`: {why}",
                file.display()
            ))
        };
        let played: Played = serde_json::from_str(&text).map_err(|e| not_a_shard(e.to_string()))?;
        if played.format != FORMAT {
            return Err(not_a_shard(format!(
                "its format is `{}`, expected `{FORMAT}`",
                played.format
            )));
        }
        let Shard { k, n } = played.shard;
        if n == 0 || k == 0 || k > n {
            return Err(not_a_shard(format!("`{k}/{n}` is not a shard")));
        }
        if played.runs.is_empty() {
            return Err(not_a_shard("it holds no runs".into()));
        }
        shards.push((file, played));
    }
    let (first, head) = &shards[0];
    let n = head.shard.n;
    let mut by_k: Vec<Option<(&Path, &Played)>> = vec![None; n];
    for (file, played) in &shards {
        same_run(first, head, file, played)?;
        check_indices(file, played)?;
        let slot = &mut by_k[played.shard.k - 1];
        if let Some((other, _)) = slot {
            return Err(Failure::Usage(format!(
                "{} and {} are both shard {}",
                other.display(),
                file.display(),
                played.shard
            )));
        }
        *slot = Some((file, played));
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| by_k[k - 1].is_none())
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(Failure::Usage(format!(
            "shard{} {} missing: {} file{} given, of {n} shards",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", "),
            shards.len(),
            if shards.len() == 1 { "" } else { "s" },
        )));
    }
    let parts: Vec<&Played> = by_k.iter().flatten().map(|(_, p)| *p).collect();
    Ok(Played {
        format: FORMAT.into(),
        shard: Shard::WHOLE,
        sweep: head.sweep.clone(),
        runs: (0..head.runs.len())
            .map(|r| PlayedRun {
                value: head.runs[r].value.clone(),
                info: head.runs[r].info.clone(),
                results: parts
                    .iter()
                    .flat_map(|p| p.runs[r].results.iter().cloned())
                    .collect(),
            })
            .collect(),
        seconds: parts.iter().map(|p| p.seconds).sum(),
        threads: parts.iter().map(|p| p.threads).max().unwrap_or(1),
    })
}

/// Whether `played` (from `file`) is a shard of the run `head` (from `first`) is:
/// an error naming what differs.
fn same_run(first: &Path, head: &Played, file: &Path, played: &Played) -> Result<(), Failure> {
    let differs = |what: String| {
        Failure::Usage(format!(
            "{} is not a shard of the same run as {}: {what}",
            file.display(),
            first.display()
        ))
    };
    if played.shard.n != head.shard.n {
        return Err(differs(format!(
            "it is shard {} and the other shard {}",
            played.shard, head.shard
        )));
    }
    if played.sweep != head.sweep || played.runs.len() != head.runs.len() {
        let show = |p: &Played| match &p.sweep {
            Some(key) => format!("a sweep of {key} over {} values", p.runs.len()),
            None => "no sweep".to_string(),
        };
        return Err(differs(format!(
            "{} here, {} there",
            show(played),
            show(head)
        )));
    }
    for (mine, theirs) in played.runs.iter().zip(&head.runs) {
        if mine.value != theirs.value {
            return Err(differs(format!(
                "sweep value {} here, {} there",
                mine.value.as_deref().unwrap_or("none"),
                theirs.value.as_deref().unwrap_or("none")
            )));
        }
        if mine.info != theirs.info {
            let field = differing_field(&mine.info, &theirs.info);
            return Err(differs(field));
        }
    }
    Ok(())
}

/// The first field of two run infos that differs, as "seed 2 here, 1 there".
fn differing_field(mine: &RunInfo, theirs: &RunInfo) -> String {
    let (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) =
        (serde_json::to_value(mine), serde_json::to_value(theirs))
    else {
        return "the runs differ".into();
    };
    // The digest last: a differing setting or limit says more.
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort_by_key(|k| *k == "level_digest");
    for key in keys {
        let null = serde_json::Value::Null;
        let (v, w) = (a.get(key).unwrap_or(&null), b.get(key).unwrap_or(&null));
        if v != w {
            return match key.as_str() {
                "level_digest" => "the level as played differs (an edited level file?)".into(),
                _ => format!("{key} {v} here, {w} there"),
            };
        }
    }
    "the runs differ".into()
}

/// Whether each run of `played` holds exactly its shard's battles.
fn check_indices(file: &Path, played: &Played) -> Result<(), Failure> {
    for run in &played.runs {
        let want = played.shard.indices(run.info.battles);
        if !run.results.iter().map(|r| r.index).eq(want.clone()) {
            return Err(Failure::Usage(format!(
                "{}: shard {} of {} battles should hold battles {} to {}, but holds {} \
                 results (a truncated or edited file?)",
                file.display(),
                played.shard,
                run.info.battles,
                want.start,
                want.end.saturating_sub(1),
                run.results.len()
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_battle_once() {
        for battles in [0, 1, 7, 100] {
            for n in 1..=9 {
                let mut next = 0;
                for k in 1..=n {
                    let r = Shard { k, n }.indices(battles);
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, battles);
            }
        }
        assert_eq!(Shard::parse(" 3/8").unwrap(), Shard { k: 3, n: 8 });
        for bad in ["3/2", "0/0", "0/3", "1", "a/b", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
