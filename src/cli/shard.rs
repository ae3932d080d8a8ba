//! `skirmish sim --shard K/N`: one run split over processes or machines; `skirmish
//! merge` ([`super::merge`]) puts the shards back together.
//!
//! Shard K of N plays its share of the battle indices — the K-th of N consecutive,
//! near-equal blocks of `0..battles` — with the seeds the full run gives them, and
//! writes a shard file ([`Played`] as JSON: the run's [`RunInfo`] and the
//! per-battle results; for a sweep, one run per value).

use std::ops::Range;

use serde::{Deserialize, Serialize};

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
