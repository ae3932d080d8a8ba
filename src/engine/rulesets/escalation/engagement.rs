//! Who is engaged with whom, and what moving away costs (E-35 … E-39, E-GAP-01,
//! E-GAP-11 … E-GAP-13), over plain positions so the systems, the previews and the
//! AI share one reading: engaged = adjacent to a conscious enemy; Free = engaged
//! with nobody; moving off while engaged provokes one opportunity attack from each
//! engaged enemy in melee stance, unless it is disengaged from, once per Move action,
//! before the first step.

use crate::engine::units::{SideId, UnitId};

/// A unit as engagement sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The unit.
    pub unit: UnitId,
    /// Its side.
    pub side: SideId,
    /// Whether it is conscious (active): a dying or helpless unit engages nobody.
    pub conscious: bool,
    /// Whether it is in melee stance (only those make opportunity attacks, E-38).
    pub melee: bool,
    /// Whether it flies (E-39, E-57).
    pub flying: bool,
}

/// The conscious enemies of `unit` among `others` at distance 1 (E-GAP-01: engaged
/// means adjacent). `distance(a, b)` is the grid distance between two units.
pub fn engaged_with(
    me: &Standing,
    others: &[Standing],
    distance: impl Fn(UnitId, UnitId) -> u32,
) -> Vec<UnitId> {
    others
        .iter()
        .filter(|o| o.unit != me.unit && o.side != me.side && o.conscious)
        .filter(|o| distance(me.unit, o.unit) == 1)
        .map(|o| o.unit)
        .collect()
}

/// The Disengage difficulty against `enemies` enemies: `base` + 1 for each after
/// the first (E-37).
pub fn disengage_difficulty(base: i32, enemies: usize) -> i32 {
    base + enemies.saturating_sub(1) as i32
}

/// Whether a Disengage succeeds: the 3d6 total, nothing added, at least the
/// difficulty (E-37, E-GAP-11).
pub fn disengages(total: i64, difficulty: i32) -> bool {
    total >= i64::from(difficulty)
}

/// Who makes an opportunity attack when a unit engaged with `engaged` moves off:
/// each of them in melee stance that it did not disengage from (E-38, E-GAP-12). A
/// forced move (a push) provokes nobody.
pub fn opportunity_attackers(
    engaged: &[Standing],
    disengaged_from: &[UnitId],
    forced: bool,
) -> Vec<UnitId> {
    if forced {
        return Vec::new();
    }
    engaged
        .iter()
        .filter(|e| e.melee && e.conscious && !disengaged_from.contains(&e.unit))
        .map(|e| e.unit)
        .collect()
}

/// Whether `interceptor` may Intercept `mover` (E-35, E-39, E-GAP-13): it is Free,
/// the mover is not itself intercepting, and a flying mover is intercepted only by
/// a flyer. (That the mover's path would end next to an ally within Nearby is the
/// caller's geometry.)
pub fn may_intercept(
    interceptor: &Standing,
    interceptor_free: bool,
    mover: &Standing,
    mover_intercepting: bool,
) -> bool {
    interceptor.conscious
        && interceptor.side != mover.side
        && interceptor_free
        && !mover_intercepting
        && (!mover.flying || interceptor.flying)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(id: u32, side: u32) -> Standing {
        Standing {
            unit: UnitId(id),
            side: SideId(side),
            conscious: true,
            melee: true,
            flying: false,
        }
    }

    /// E-GAP-01 / E-32: engaged = adjacent conscious enemies; allies and the dying
    /// engage nobody; E-35: engaged with nobody is Free.
    #[test]
    fn e_gap_01_engaged_means_adjacent() {
        let me = s(0, 0);
        let mut dying = s(3, 1);
        dying.conscious = false;
        let others = [s(1, 1), s(2, 0), dying, s(4, 1)];
        let dist = |_: UnitId, b: UnitId| if b.0 == 4 { 2 } else { 1 };
        assert_eq!(engaged_with(&me, &others, dist), [UnitId(1)]);
        assert!(engaged_with(&me, &others, |_, _| 3).is_empty(), "Free");
    }

    /// E-EX-4 / E-37: disengaging from 3 enemies is Difficulty 13: a 12 fails; from
    /// 2 it is 12: the same 12 succeeds, and moving away then provokes the third
    /// (E-38, E-GAP-12).
    #[test]
    fn e_ex_4_disengage_and_the_third_enemy() {
        assert!(!disengages(5 + 4 + 3, disengage_difficulty(11, 3)));
        assert!(disengages(12, disengage_difficulty(11, 2)));
        let engaged = [s(1, 1), s(2, 1), s(3, 1)];
        assert_eq!(
            opportunity_attackers(&engaged, &[UnitId(1), UnitId(2)], false),
            [UnitId(3)]
        );
    }

    /// E-38 / E-GAP-12: only enemies in melee stance attack; a forced move provokes
    /// nobody.
    #[test]
    fn e_38_only_melee_stance_and_not_forced() {
        let mut archer = s(2, 1);
        archer.melee = false;
        let engaged = [s(1, 1), archer];
        assert_eq!(opportunity_attackers(&engaged, &[], false), [UnitId(1)]);
        assert!(opportunity_attackers(&engaged, &[], true).is_empty());
    }

    /// E-39 / E-GAP-13: a Free unit intercepts; an engaged one can't; nobody
    /// intercepts an interceptor; only a flyer intercepts a flyer.
    #[test]
    fn e_39_intercept() {
        let (u, m) = (s(0, 0), s(1, 1));
        assert!(may_intercept(&u, true, &m, false));
        assert!(!may_intercept(&u, false, &m, false), "E-36: engaged can't");
        assert!(!may_intercept(&u, true, &m, true));
        let mut bird = m;
        bird.flying = true;
        assert!(!may_intercept(&u, true, &bird, false));
        let mut hawk = u;
        hawk.flying = true;
        assert!(may_intercept(&hawk, true, &bird, false));
    }
}
