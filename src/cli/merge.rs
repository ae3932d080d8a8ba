//! `skirmish merge FILES… [--json] [--csv] [--plot FILE.png]`: the shard files of one
//! run ([`super::shard`]) put back together.
//!
//! It checks that its files are the N shards of one run (same level as played,
//! ruleset, seed, policies, battles, settings and sweep; each K once) and prints the
//! full run's report, exactly what `sim` without `--shard` prints (timings aside: the
//! merged battles per second are all battles over the shards' seconds together).
//! Exit 0, 2 for files that don't make one run (the message names the file and what
//! differs or is missing), 1 when a file can't be read or the plot fails.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use super::shard::{FORMAT, Played, PlayedRun, Shard};
use super::sim::{Failure, Output, report};
use crate::ai::sim::RunInfo;

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
