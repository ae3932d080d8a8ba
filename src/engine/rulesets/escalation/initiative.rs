//! `escalation`'s initiative (E-15, E-16, E-19, E-GAP-09): bands act from Very Fast to
//! Very Slow; within a band the PCs act, in any order their side picks, then the
//! enemies. This module builds the round's groups; the battle then asks the owning
//! side which of a group's units acts next (a pending decision; the AI and `script`
//! answer it, the AI in roster order).

use crate::engine::units::UnitId;

/// One unit as initiative sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// The unit.
    pub unit: UnitId,
    /// Its band, 0 = the first to act (an index into the configured
    /// `initiative_bands`); a Delay lowers it for good (E-19).
    pub band: usize,
    /// Whether it is a PC (PCs act first within their band, E-16).
    pub pc: bool,
}

/// The round's groups in the order they act: for each band, its PCs, then its
/// enemies; empty groups left out. Within a group, units keep the order given
/// (roster order), which is the AI's pick (E-GAP-09).
pub fn groups(entrants: &[Entrant]) -> Vec<Vec<UnitId>> {
    let Some(last) = entrants.iter().map(|e| e.band).max() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for band in 0..=last {
        for pc in [true, false] {
            let group: Vec<UnitId> = entrants
                .iter()
                .filter(|e| e.band == band && e.pc == pc)
                .map(|e| e.unit)
                .collect();
            if !group.is_empty() {
                out.push(group);
            }
        }
    }
    out
}

/// Whether a unit in band `from` may Delay to band `to`: only to a later band that
/// exists (E-19).
pub fn may_delay(from: usize, to: usize, bands: usize) -> bool {
    to > from && to < bands
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAST: usize = 1;
    const MEDIUM: usize = 2;
    const SLOW: usize = 3;

    fn e(id: u32, band: usize, pc: bool) -> Entrant {
        Entrant {
            unit: UnitId(id),
            band,
            pc,
        }
    }

    fn ids(groups: Vec<Vec<UnitId>>) -> Vec<Vec<u32>> {
        groups
            .into_iter()
            .map(|g| g.into_iter().map(|u| u.0).collect())
            .collect()
    }

    /// E-EX-6 / E-16: P1 Fast; P2, P3 Medium; P4, P5 Slow; E1, E2 Medium; E3-E5 Slow
    /// act as P1 -> {P2, P3} -> {E1, E2} -> {P4, P5} -> {E3, E4, E5}. When P2 delays
    /// to Slow (E-19), from then on: P1 -> P3 -> {E1, E2} -> {P2, P4, P5} -> {E3 …}.
    #[test]
    fn e_ex_6_band_order_and_delay() {
        // Units 1-5 are P1-P5, 11-15 are E1-E5.
        let mut roster = vec![
            e(1, FAST, true),
            e(2, MEDIUM, true),
            e(3, MEDIUM, true),
            e(4, SLOW, true),
            e(5, SLOW, true),
            e(11, MEDIUM, false),
            e(12, MEDIUM, false),
            e(13, SLOW, false),
            e(14, SLOW, false),
            e(15, SLOW, false),
        ];
        assert_eq!(
            ids(groups(&roster)),
            [
                vec![1],
                vec![2, 3],
                vec![11, 12],
                vec![4, 5],
                vec![13, 14, 15]
            ]
        );
        assert!(may_delay(MEDIUM, SLOW, 5));
        assert!(!may_delay(MEDIUM, FAST, 5), "E-19: only to a lower band");
        roster[1].band = SLOW;
        assert_eq!(
            ids(groups(&roster)),
            [
                vec![1],
                vec![3],
                vec![11, 12],
                vec![2, 4, 5],
                vec![13, 14, 15]
            ]
        );
    }
}
