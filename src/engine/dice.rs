//! The dice service: the one source of randomness in the rules.
//!
//! In play the [`Dice`] resource is a seeded ChaCha8 generator, portable across
//! platforms and versions, so a seed and a list of commands replay exactly. In tests
//! and scripted scenarios it is a queue of faces consumed in the order the rules ask
//! for dice (RULES.md §0): running out, or a face too large for the die asked for, is
//! an error rather than a silent reroll.

use std::collections::VecDeque;

use bevy_ecs::resource::Resource;
use rand::{RngExt, SeedableRng, rngs::ChaCha8Rng};
use serde::{Deserialize, Serialize};

/// Most sides on one die: of a configured die ([`Sides`]) and of a die in a dice
/// expression (`X` in `NdX`, [`crate::engine::odds`]).
pub const MAX_SIDES: u32 = 10_000;

/// Why the dice could not give a face.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    /// A scripted list of faces ran out.
    #[error("the scripted dice ran out: a d{sides} was asked for after all {used} faces were used")]
    Exhausted {
        /// Sides of the die asked for.
        sides: u32,
        /// How many faces had been consumed.
        used: usize,
    },
    /// A scripted face does not fit the die the rules asked for.
    #[error("scripted face #{index} is {face}, which a d{sides} cannot roll")]
    FaceOutOfRange {
        /// 1-based position of the face in the script.
        index: usize,
        /// The face given.
        face: u32,
        /// Sides of the die asked for.
        sides: u32,
    },
    /// A die with no sides was asked for (configurations and dice expressions allow
    /// none, so this is a fault of the caller).
    #[error("a die with 0 sides was asked for")]
    NoSides,
}

/// The sides of a die a ruleset's configuration names (a tie die, an initiative die,
/// an extra die of advantage): from 2 to [`MAX_SIDES`]. A d1
/// never breaks a tie and a d0 can't be rolled, so neither can be configured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub struct Sides(u32);

impl Sides {
    /// A die of `sides` sides, or why not.
    pub fn new(sides: u32) -> Result<Self, String> {
        let max = MAX_SIDES;
        if (2..=max).contains(&sides) {
            Ok(Self(sides))
        } else {
            Err(format!(
                "a d{sides} is not a die a rule can roll; expected 2 to {max} sides"
            ))
        }
    }

    /// The number of sides.
    pub fn get(self) -> u32 {
        self.0
    }
}

impl TryFrom<u32> for Sides {
    type Error = String;
    fn try_from(sides: u32) -> Result<Self, String> {
        Self::new(sides)
    }
}

impl From<Sides> for u32 {
    fn from(sides: Sides) -> u32 {
        sides.0
    }
}

impl std::fmt::Display for Sides {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "d{}", self.0)
    }
}

/// Where faces come from.
enum Source {
    Seeded(Box<ChaCha8Rng>),
    Scripted { faces: VecDeque<u32>, used: usize },
    Stratified(Box<Strata>),
}

/// Latin-hypercube dice: see [`Dice::stratified`].
struct Strata {
    /// Shared by every sample of the set: which stratum a sample takes, roll by roll.
    key: u64,
    /// This sample's index in the set.
    sample: u32,
    /// How many samples the set has.
    samples: u32,
    /// Where in its stratum each roll falls.
    rng: ChaCha8Rng,
}

/// splitmix64's finaliser: nearby inputs give unrelated outputs (seeds derived
/// from nearby keys).
pub fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

impl Strata {
    /// The face of roll number `k` (0-based) of a die with `sides` faces.
    fn face(&mut self, k: u64, sides: u32) -> u32 {
        // Roll k's own permutation of the strata, from the set's key: sample i takes
        // stratum perm[i], so the samples of a set spread over the die's range.
        let n = self.samples.max(1) as usize;
        let mut perm: Vec<u32> = (0..n as u32).collect();
        let mut h = mix(self.key ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        for i in (1..n).rev() {
            h = mix(h.wrapping_add(i as u64));
            perm.swap(i, (h % (i as u64 + 1)) as usize);
        }
        let stratum = f64::from(perm[self.sample as usize % n]);
        let u = (stratum + self.rng.random::<f64>()) / n as f64;
        ((u * f64::from(sides)) as u32 + 1).min(sides)
    }
}

/// The dice resource: seeded in play, scripted in tests.
#[derive(Resource)]
pub struct Dice {
    source: Source,
    /// Dice rolled so far.
    rolled: u64,
}

impl std::fmt::Debug for Dice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.source {
            Source::Seeded(_) => f.write_str("Dice::Seeded"),
            Source::Stratified(_) => f.write_str("Dice::Stratified"),
            Source::Scripted { faces, used } => f
                .debug_struct("Dice::Scripted")
                .field("used", used)
                .field("left", faces)
                .finish(),
        }
    }
}

impl Dice {
    /// Dice from a seeded, portable generator.
    pub fn seeded(seed: u64) -> Self {
        Self {
            source: Source::Seeded(Box::new(ChaCha8Rng::seed_from_u64(seed))),
            rolled: 0,
        }
    }

    /// Dice for sample `sample` of a set of `samples` that share `key`
    /// (Latin-hypercube sampling, for the AI's look-ahead): each roll, by its number,
    /// takes a different stratum of the die's range in every sample of the set, and
    /// a uniform place within it from `seed`. Over a whole set every roll's faces
    /// are spread evenly, each sample's roll is still uniform.
    pub fn stratified(key: u64, sample: u32, samples: u32, seed: u64) -> Self {
        Self {
            source: Source::Stratified(Box::new(Strata {
                key,
                sample,
                samples,
                rng: ChaCha8Rng::seed_from_u64(seed),
            })),
            rolled: 0,
        }
    }

    /// Dice that give exactly these faces, in order.
    pub fn scripted(faces: impl IntoIterator<Item = u32>) -> Self {
        Self {
            source: Source::Scripted {
                faces: faces.into_iter().collect(),
                used: 0,
            },
            rolled: 0,
        }
    }

    /// Rolls one die with `sides` faces (1..=sides).
    pub fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        if sides == 0 {
            return Err(DiceError::NoSides);
        }
        self.rolled += 1;
        match &mut self.source {
            Source::Seeded(rng) => Ok(rng.random_range(1..=sides)),
            Source::Stratified(strata) => Ok(strata.face(self.rolled - 1, sides)),
            Source::Scripted { faces, used } => {
                let face = faces
                    .pop_front()
                    .ok_or(DiceError::Exhausted { sides, used: *used })?;
                *used += 1;
                if face == 0 || face > sides {
                    return Err(DiceError::FaceOutOfRange {
                        index: *used,
                        face,
                        sides,
                    });
                }
                Ok(face)
            }
        }
    }

    /// How many dice have been rolled so far (a command that rolled none can be
    /// taken back).
    pub fn rolled(&self) -> u64 {
        self.rolled
    }

    /// Rolls `n` dice with `sides` faces, in order.
    pub fn roll_many(&mut self, n: u32, sides: u32) -> Result<Vec<u32>, DiceError> {
        (0..n).map(|_| self.roll(sides)).collect()
    }

    /// Rolls a percentile die (1..=100).
    pub fn d100(&mut self) -> Result<u32, DiceError> {
        self.roll(100)
    }

    /// Faces left in a scripted queue; `None` for seeded dice.
    pub fn remaining(&self) -> Option<usize> {
        match &self.source {
            Source::Seeded(_) | Source::Stratified(_) => None,
            Source::Scripted { faces, .. } => Some(faces.len()),
        }
    }
}

/// Sum of faces.
pub fn sum(faces: &[u32]) -> i32 {
    faces.iter().map(|&f| f as i32).sum()
}

/// The `k` highest faces, highest first.
pub fn keep_highest(faces: &[u32], k: usize) -> Vec<u32> {
    let mut sorted = faces.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    sorted.truncate(k);
    sorted
}

/// The `k` lowest faces, lowest first.
pub fn keep_lowest(faces: &[u32], k: usize) -> Vec<u32> {
    let mut sorted = faces.to_vec();
    sorted.sort_unstable();
    sorted.truncate(k);
    sorted
}

/// A pool read by its highest die (0 for an empty pool).
pub fn pool_highest(faces: &[u32]) -> u32 {
    faces.iter().copied().max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_faces() {
        let mut a = Dice::seeded(7);
        let mut b = Dice::seeded(7);
        let fa: Vec<u32> = (0..50).map(|_| a.roll(6).unwrap()).collect();
        let fb: Vec<u32> = (0..50).map(|_| b.roll(6).unwrap()).collect();
        assert_eq!(fa, fb);
        assert!(fa.iter().all(|&f| (1..=6).contains(&f)));
        assert!(fa.iter().any(|&f| f != fa[0]), "a seeded die should vary");
    }

    /// A set of as many stratified samples as the die has faces gives every face
    /// exactly once, roll by roll, in a different order for each roll; the same key
    /// and sample give the same faces.
    #[test]
    fn stratified_samples_spread_each_roll_over_every_face() {
        let samples = 20;
        let faces: Vec<Vec<u32>> = (0..samples)
            .map(|i| {
                let mut d = Dice::stratified(42, i, samples, 1000 + u64::from(i));
                (0..5).map(|_| d.roll(20).unwrap()).collect()
            })
            .collect();
        for k in 0..5 {
            let mut roll: Vec<u32> = faces.iter().map(|f| f[k]).collect();
            let order = roll.clone();
            roll.sort_unstable();
            assert_eq!(roll, (1..=20).collect::<Vec<_>>(), "roll {k}: {order:?}");
        }
        let order = |k: usize| faces.iter().map(|f| f[k]).collect::<Vec<_>>();
        assert_ne!(order(0), order(1), "each roll has its own order");
        let mut again = Dice::stratified(42, 3, samples, 1003);
        let again: Vec<u32> = (0..5).map(|_| again.roll(20).unwrap()).collect();
        assert_eq!(again, faces[3]);
        // Fewer samples than faces: each sample's face stays in its stratum's range.
        let mut d6 = Dice::stratified(7, 1, 2, 9);
        assert!((1..=6).contains(&d6.roll(6).unwrap()));
    }

    #[test]
    fn scripted_faces_in_order_then_exhausted() {
        let mut d = Dice::scripted([3, 5]);
        assert_eq!(d.roll(6), Ok(3));
        assert_eq!(d.roll(6), Ok(5));
        assert_eq!(d.roll(8), Err(DiceError::Exhausted { sides: 8, used: 2 }));
    }

    #[test]
    fn scripted_face_too_large_is_an_error() {
        let mut d = Dice::scripted([7]);
        assert_eq!(
            d.roll(6),
            Err(DiceError::FaceOutOfRange {
                index: 1,
                face: 7,
                sides: 6
            })
        );
    }

    #[test]
    fn keep_helpers() {
        assert_eq!(keep_highest(&[1, 4, 7], 2), vec![7, 4]);
        assert_eq!(keep_lowest(&[6, 5, 2], 2), vec![2, 5]);
        assert_eq!(pool_highest(&[2, 6, 3]), 6);
        assert_eq!(sum(&[2, 6, 3]), 11);
    }
}
