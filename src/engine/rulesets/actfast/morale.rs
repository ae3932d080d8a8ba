//! NPC morale in `actfast` (A-16, A-17, A-GAP-13, A-EX-4): when a side rolls
//! (its first NPC killed, half its number lost, its leader defeated — each once per
//! encounter), the roll itself (2d6 with Leadership, PROPOSED taken away so that good
//! leadership helps; the seed's literal "+" behind a switch), its exact odds, and
//! what a broken NPC does (adjacent to a PC it surrenders, otherwise it flees).

use crate::engine::odds::{Distribution, OddsError};

use super::config::ActfastConfig;

/// Sides of a morale die (A-16: 2d6).
pub const MORALE_DIE: u32 = 6;

/// The morale roll's total (A-16, A-GAP-13): the dice plus
/// [`ActfastConfig::morale_leadership_sign`] × Leadership.
pub fn morale_total(cfg: &ActfastConfig, faces: &[u32], leadership: i32) -> i64 {
    let dice: i64 = faces.iter().map(|&f| i64::from(f)).sum();
    dice + i64::from(cfg.morale_leadership_sign) * i64::from(leadership)
}

/// Whether an NPC breaks (flees or surrenders): its roll is higher than its morale
/// save (A-16, A-GAP-13, A-EX-4).
pub fn breaks(cfg: &ActfastConfig, faces: &[u32], leadership: i32, morale: i32) -> bool {
    morale_total(cfg, faces, leadership) > i64::from(morale)
}

/// The exact chance that an NPC with this Leadership and Morale breaks (A-16,
/// A-GAP-13).
pub fn break_chance(cfg: &ActfastConfig, leadership: i32, morale: i32) -> Result<f64, OddsError> {
    let dice = Distribution::die(MORALE_DIE).sum_n(cfg.morale_dice)?;
    let needed =
        i64::from(morale) + 1 - i64::from(cfg.morale_leadership_sign) * i64::from(leadership);
    Ok(dice.prob_at_least(needed))
}

/// Why a side rolls morale (A-17, A-GAP-13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Trigger {
    /// The side's first NPC was killed.
    FirstDeath,
    /// The side has lost half its starting number.
    HalfLost,
    /// The side's leader was defeated.
    LeaderDefeated,
}

/// What has happened to one NPC side so far in the encounter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideTally {
    /// NPCs the side started with.
    pub start: u32,
    /// Of them, killed.
    pub killed: u32,
    /// Of them, out of the fight in any way: killed, fled or surrendered.
    pub lost: u32,
    /// Whether its leader has been defeated.
    pub leader_defeated: bool,
}

/// The triggers that fire now for a side (A-17, A-GAP-13): each one its switch
/// allows, whose condition holds and which has not fired yet this encounter
/// (`fired`). Every surviving NPC of the side then rolls at the start of the next
/// NPC step — once, however many fire together.
pub fn new_triggers(cfg: &ActfastConfig, tally: &SideTally, fired: &[Trigger]) -> Vec<Trigger> {
    [
        (
            Trigger::FirstDeath,
            cfg.morale_on_first_death && tally.killed >= 1,
        ),
        (
            Trigger::HalfLost,
            cfg.morale_on_half_lost
                && tally.start > 0
                && u64::from(tally.lost) * 2 >= u64::from(tally.start),
        ),
        (
            Trigger::LeaderDefeated,
            cfg.morale_on_leader_defeated && tally.leader_defeated,
        ),
    ]
    .into_iter()
    .filter(|&(t, holds)| holds && !fired.contains(&t))
    .map(|(t, _)| t)
    .collect()
}

/// What a broken NPC does (A-16, A-GAP-13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Broken {
    /// It surrenders: removed as defeated.
    Surrenders,
    /// It flees: every action a Move toward the nearest map edge, no attacks; it
    /// leaves play there.
    Flees,
}

/// What a broken NPC does: adjacent to a PC it surrenders (when
/// [`ActfastConfig::surrender_when_adjacent`] is on), otherwise it flees
/// (A-GAP-13).
pub fn broken(cfg: &ActfastConfig, adjacent_to_pc: bool) -> Broken {
    if adjacent_to_pc && cfg.surrender_when_adjacent {
        Broken::Surrenders
    } else {
        Broken::Flees
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::config::load_default;

    fn cfg() -> ActfastConfig {
        load_default().unwrap()
    }

    /// A-EX-4 / A-16 / A-GAP-13: Leadership 1, Morale 8. Literal sign (+): 4, 4 →
    /// 9 > 8 breaks; 3, 4 → 8 stays. PROPOSED sign (−): 4, 4 → 7 stays; 5, 5 → 9
    /// breaks.
    #[test]
    fn a_ex_4_morale_both_signs() {
        let mut c = cfg();
        assert_eq!(c.morale_leadership_sign, -1);
        assert_eq!(morale_total(&c, &[4, 4], 1), 7);
        assert!(!breaks(&c, &[4, 4], 1, 8));
        assert!(breaks(&c, &[5, 5], 1, 8));
        c.morale_leadership_sign = 1;
        assert_eq!(morale_total(&c, &[4, 4], 1), 9);
        assert!(breaks(&c, &[4, 4], 1, 8));
        assert!(!breaks(&c, &[3, 4], 1, 8));
    }

    /// A-16 / A-GAP-13: Leadership 1, Morale 8 breaks on 2d6 ≥ 10 (6/36) with the
    /// PROPOSED sign, ≥ 8 (15/36) with the literal one; the odds agree with
    /// [`breaks`] over all 36 rolls, for several Leaderships and Morales.
    #[test]
    fn a_16_exact_break_chance() {
        let mut c = cfg();
        assert!((break_chance(&c, 1, 8).unwrap() - 6.0 / 36.0).abs() < 1e-12);
        for sign in [-1, 1] {
            c.morale_leadership_sign = sign;
            for leadership in -2..=3 {
                for morale in [2, 6, 8, 12, 15] {
                    let brute = (1..=6)
                        .flat_map(|a| (1..=6).map(move |b| [a, b]))
                        .filter(|f| breaks(&c, f, leadership, morale))
                        .count() as f64
                        / 36.0;
                    let exact = break_chance(&c, leadership, morale).unwrap();
                    assert!(
                        (exact - brute).abs() < 1e-12,
                        "{sign} {leadership} {morale}"
                    );
                }
            }
        }
        c.morale_leadership_sign = 1;
        assert!((break_chance(&c, 1, 8).unwrap() - 15.0 / 36.0).abs() < 1e-12);
    }

    /// A-17 / A-GAP-13: the first kill, half the side lost, the leader defeated —
    /// each fires once per encounter, only while its switch is on.
    #[test]
    fn a_17_morale_triggers() {
        let mut c = cfg();
        let quiet = SideTally {
            start: 4,
            ..SideTally::default()
        };
        assert!(new_triggers(&c, &quiet, &[]).is_empty());
        // One fled: lost but not killed, not yet half.
        let fled = SideTally { lost: 1, ..quiet };
        assert!(new_triggers(&c, &fled, &[]).is_empty());
        let first = SideTally {
            killed: 1,
            lost: 1,
            ..quiet
        };
        assert_eq!(new_triggers(&c, &first, &[]), [Trigger::FirstDeath]);
        assert!(new_triggers(&c, &first, &[Trigger::FirstDeath]).is_empty());
        let half = SideTally {
            killed: 1,
            lost: 2,
            ..quiet
        };
        assert_eq!(
            new_triggers(&c, &half, &[Trigger::FirstDeath]),
            [Trigger::HalfLost]
        );
        let leader = SideTally {
            leader_defeated: true,
            ..half
        };
        assert_eq!(
            new_triggers(&c, &leader, &[]),
            [
                Trigger::FirstDeath,
                Trigger::HalfLost,
                Trigger::LeaderDefeated
            ]
        );
        // Odd sizes: 2 of 3 is half or more, 1 of 3 is not.
        let three = SideTally {
            start: 3,
            lost: 1,
            ..SideTally::default()
        };
        assert!(new_triggers(&c, &three, &[]).is_empty());
        assert_eq!(
            new_triggers(&c, &SideTally { lost: 2, ..three }, &[]),
            [Trigger::HalfLost]
        );
        c.morale_on_first_death = false;
        c.morale_on_half_lost = false;
        c.morale_on_leader_defeated = false;
        assert!(new_triggers(&c, &leader, &[]).is_empty());
    }

    /// A-GAP-13 / A-16: a broken NPC next to a PC surrenders, else it flees; with
    /// the switch off it always flees.
    #[test]
    fn a_gap_13_flee_or_surrender() {
        let mut c = cfg();
        assert_eq!(broken(&c, true), Broken::Surrenders);
        assert_eq!(broken(&c, false), Broken::Flees);
        c.surrender_when_adjacent = false;
        assert_eq!(broken(&c, true), Broken::Flees);
    }
}
