//! `escalation`'s saves and death saves, as pure functions the systems call and the
//! previews share: a save is a natural 3d6 roll (netted for Advantage, E-GAP-02),
//! plus a bonus only where a rule gives one (Rally adds the Escalation die, E-43),
//! against a target; a natural 17+ is a crit (E-GAP-03). Death saves count failures
//! towards death and bring a Dying PC back on a success (E-49 … E-51, E-GAP-15).

use crate::engine::odds::{OddsError, netted_pool};

/// How a save came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveResult {
    /// Below the target.
    Fail,
    /// At or above it (E-GAP-03).
    Success,
    /// At or above it with a natural 17+ (E-GAP-03; matters for death saves, E-50).
    Crit,
}

impl SaveResult {
    /// Whether the save succeeded (a crit does).
    pub fn succeeded(self) -> bool {
        self != SaveResult::Fail
    }
}

/// The result of a save with natural roll `natural`, `bonus` added, against
/// `target`; `crit_at` is the natural roll that crits (17).
pub fn save_result(natural: i64, bonus: i64, target: i64, crit_at: i64) -> SaveResult {
    if natural + bonus < target {
        SaveResult::Fail
    } else if natural >= crit_at {
        SaveResult::Crit
    } else {
        SaveResult::Success
    }
}

/// Exact chances of a save succeeding and of it critting, with `net` net Advantage.
pub fn save_odds(net: i32, bonus: i64, target: i64, crit_at: i64) -> Result<(f64, f64), OddsError> {
    let natural = netted_pool(3, 6, 3, net)?.distribution();
    let (mut success, mut crit) = (0.0, 0.0);
    for (n, p) in natural.outcomes() {
        match save_result(n, bonus, target, crit_at) {
            SaveResult::Fail => {}
            SaveResult::Success => success += p,
            SaveResult::Crit => {
                success += p;
                crit += p;
            }
        }
    }
    Ok((success, crit))
}

/// Disadvantage on a PC's first death save: 2 if it was dropped by a crit or put
/// to negative HP of at least half its maximum, never more (E-49, E-GAP-15); none
/// on later saves.
pub fn first_death_save_disadvantage(dropped_by_crit: bool, hp: i32, max_hp: i32) -> i32 {
    let deep = hp < 0 && -i64::from(hp) * 2 >= i64::from(max_hp);
    if dropped_by_crit || deep { 2 } else { 0 }
}

/// A Dying PC's death-save track for the encounter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeathSaves {
    /// Failed death saves so far (reset after the encounter, E-GAP-15).
    pub failures: u32,
    /// Stabilized by an ally: failures no longer risk death (E-51).
    pub stabilized: bool,
}

/// What a death save does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeathSaveOutcome {
    /// Heals with a Recovery from 0 HP and acts on its next turn (E-50).
    Recovers,
    /// Heals with a Recovery from 0 HP and acts at once (E-50, crit).
    RecoversNow,
    /// One more failure, still dying (E-50).
    Failed,
    /// The failures reached the limit: the PC dies (E-50).
    Dies,
}

impl DeathSaves {
    /// Counts a death save's result; `limit` failures kill (4, E-50) unless the PC
    /// was stabilized (E-51).
    pub fn record(&mut self, result: SaveResult, limit: u32) -> DeathSaveOutcome {
        match result {
            SaveResult::Crit => DeathSaveOutcome::RecoversNow,
            SaveResult::Success => DeathSaveOutcome::Recovers,
            SaveResult::Fail if self.stabilized => DeathSaveOutcome::Failed,
            SaveResult::Fail => {
                self.failures += 1;
                if self.failures >= limit {
                    DeathSaveOutcome::Dies
                } else {
                    DeathSaveOutcome::Failed
                }
            }
        }
    }
}

/// The hit points a Recovery heals, from the rolled recovery dice: halved
/// (rounded down) when the PC has no Recoveries left (E-47); the Recovery spent
/// is the caller's bookkeeping.
pub fn recovery_heal(rolled: i32, recoveries_left: u32) -> i32 {
    if recoveries_left == 0 {
        rolled.max(0) / 2
    } else {
        rolled.max(0)
    }
}

/// A Recovery's dice averaged, each die rounded down (E-48: 2d8 → 2 × 4 = 8).
pub fn averaged_recovery(dice: u32, sides: u32) -> i32 {
    // The average of a die, (sides + 1) / 2, rounded down.
    (dice * sides.div_ceil(2)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// E-GAP-03: 3d6 >= 11 is 50%, >= 13 about 25.9%; a natural 17+ crits.
    #[test]
    fn e_gap_03_save_targets_and_crits() {
        let (p11, c11) = save_odds(0, 0, 11, 17).unwrap();
        assert!((p11 - 0.5).abs() < 1e-12, "{p11}");
        assert!((c11 - 4.0 / 216.0).abs() < 1e-12, "17 or 18: 4 of 216");
        let (p13, _) = save_odds(0, 0, 13, 17).unwrap();
        assert!((p13 - 56.0 / 216.0).abs() < 1e-12, "{p13}");
        assert_eq!(save_result(17, 0, 13, 17), SaveResult::Crit);
        assert_eq!(save_result(12, 0, 13, 17), SaveResult::Fail);
        assert_eq!(
            save_result(12, 1, 13, 17),
            SaveResult::Success,
            "E-43: Rally bonus"
        );
    }

    /// E-49 / E-GAP-15: a crit drop or negative HP of half the maximum gives the
    /// first death save 2 Disadvantage, and the two do not stack.
    #[test]
    fn e_49_first_death_save_disadvantage() {
        assert_eq!(first_death_save_disadvantage(false, -3, 20), 0);
        assert_eq!(first_death_save_disadvantage(false, -10, 20), 2);
        assert_eq!(
            first_death_save_disadvantage(false, -10, 21),
            0,
            "10 < 10.5"
        );
        assert_eq!(first_death_save_disadvantage(true, 0, 20), 2);
        assert_eq!(
            first_death_save_disadvantage(true, -10, 20),
            2,
            "no stacking"
        );
        // 2 Disadvantage makes a 13+ save much harder.
        let (plain, _) = save_odds(0, 0, 13, 17).unwrap();
        let (hard, _) = save_odds(-2, 0, 13, 17).unwrap();
        assert!(hard < plain / 2.0, "{hard} vs {plain}");
    }

    /// E-50 / E-51: successes bring the PC back (a crit at once); the fourth failure
    /// kills; a stabilized PC's failures do not count.
    #[test]
    fn e_50_e_51_death_save_track() {
        let mut t = DeathSaves::default();
        assert_eq!(t.record(SaveResult::Fail, 4), DeathSaveOutcome::Failed);
        assert_eq!(t.record(SaveResult::Success, 4), DeathSaveOutcome::Recovers);
        assert_eq!(t.record(SaveResult::Crit, 4), DeathSaveOutcome::RecoversNow);
        assert_eq!(t.record(SaveResult::Fail, 4), DeathSaveOutcome::Failed);
        assert_eq!(t.record(SaveResult::Fail, 4), DeathSaveOutcome::Failed);
        let mut stable = DeathSaves {
            stabilized: true,
            ..t
        };
        assert_eq!(stable.record(SaveResult::Fail, 4), DeathSaveOutcome::Failed);
        assert_eq!(stable.failures, 3, "E-51: no risk once stabilized");
        assert_eq!(t.record(SaveResult::Fail, 4), DeathSaveOutcome::Dies);
    }

    /// E-47 / E-48: healing without Recoveries is halved; averaged dice round each
    /// die down.
    #[test]
    fn e_47_e_48_recoveries() {
        assert_eq!(recovery_heal(11, 3), 11);
        assert_eq!(recovery_heal(11, 0), 5);
        assert_eq!(averaged_recovery(2, 8), 8, "E-48: 2d8 -> 2 x 4");
        assert_eq!(averaged_recovery(3, 10), 15);
    }

    /// E-EX-7: max HP 40 hit to -22: the first death save has 2 Disadvantage, faces
    /// 6, 5, 4, 2, 1 keep 1 + 2 + 4 = 7 < 13: failure #1; then 5, 4, 4 = 13: it
    /// recovers; 6, 6, 5 = 17 instead: it acts at once.
    #[test]
    fn e_ex_7_death_saves() {
        use crate::engine::rulesets::escalation::attack::natural;
        let net = -first_death_save_disadvantage(false, -22, 40);
        assert_eq!(net, -2);
        let mut track = DeathSaves::default();
        let first = save_result(natural(&[6, 5, 4, 2, 1], net), 0, 13, 17);
        assert_eq!(track.record(first, 4), DeathSaveOutcome::Failed);
        assert_eq!(track.failures, 1);
        let second = save_result(natural(&[5, 4, 4], 0), 0, 13, 17);
        assert_eq!(track.record(second, 4), DeathSaveOutcome::Recovers);
        let crit = save_result(natural(&[6, 6, 5], 0), 0, 13, 17);
        assert_eq!(track.record(crit, 4), DeathSaveOutcome::RecoversNow);
    }

    /// E-EX-9 / E-43: Rally's save adds the Escalation die: 9 + 3 = 12 ends a
    /// save-ends Dazed (11+) but not a one-round effect (13+).
    #[test]
    fn e_ex_9_rally_save() {
        assert!(save_result(2 + 3 + 4, 3, 11, 17).succeeded());
        assert!(!save_result(2 + 3 + 4, 3, 13, 17).succeeded());
    }
}
