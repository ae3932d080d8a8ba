//! The `wounds` turn order (W-02 … W-04, W-GAP-10 … W-GAP-12): by descending Agility
//! modifier, the units that started the fight last, ties broken by a d20 roll-off,
//! fixed for the battle; a unit may delay its turn to just after a later unit for
//! the round.

use std::fmt;

/// One unit entering the turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entrant<U> {
    /// The unit.
    pub unit: U,
    /// Its Agility modifier at the start of the battle (W-02).
    pub agility: i64,
    /// Whether it started the fight by attacking before the battle began (W-03).
    pub initiator: bool,
}

/// The battle's turn order (W-02, W-03, W-GAP-10, W-GAP-11): units that did not
/// start the fight by descending Agility, then the initiators by descending Agility.
/// Units with the same place roll a d20 each (`d20` is called with each of them in
/// roster order, the groups in turn order): higher goes first; those tied again roll
/// again, depth first, up to [`crate::engine::initiative::MAX_ROLL_OFF_ROUNDS`] rounds
/// (then they keep their roster order). The roll-off is a loop, so no run of equal
/// faces can exhaust the stack; the first error of `d20` (scripted dice that ran out
/// or hold a face a d20 can't roll) stops it and is returned.
/// The order is fixed for the battle: later Agility changes don't reorder it.
pub fn order<U: Copy, E>(
    entrants: &[Entrant<U>],
    mut d20: impl FnMut(U) -> Result<u32, E>,
) -> Result<Vec<U>, E> {
    let mut sorted: Vec<&Entrant<U>> = entrants.iter().collect();
    // Stable: roster order within a group.
    sorted.sort_by_key(|e| (e.initiator, std::cmp::Reverse(e.agility)));
    let mut out = Vec::with_capacity(entrants.len());
    for group in sorted.chunk_by(|a, b| (a.initiator, a.agility) == (b.initiator, b.agility)) {
        let units = group.iter().map(|e| e.unit).collect();
        out.extend(crate::engine::initiative::order_ties(units, &mut d20)?);
    }
    Ok(out)
}

/// Why a unit can't delay as asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DelayError {
    /// The delaying unit is not (or no longer) in this round's order.
    NotInOrder,
    /// The unit to wait for is not in this round's order.
    TargetNotInOrder,
    /// The unit to wait for does not come later this round.
    NotLater,
}

impl fmt::Display for DelayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DelayError::NotInOrder => "the unit has no turn left this round",
            DelayError::TargetNotInOrder => "the unit to wait for has no turn this round",
            DelayError::NotLater => "a unit can only delay until after a unit that acts later",
        })
    }
}

impl std::error::Error for DelayError {}

/// This round's order after `unit` delays its whole turn to just after `after`, a
/// unit later in the round (W-04, W-GAP-12). Only this round changes: the next one
/// starts again from the battle's [`order`].
pub fn delay<U: Copy + PartialEq>(round: &[U], unit: U, after: U) -> Result<Vec<U>, DelayError> {
    let from = round
        .iter()
        .position(|&u| u == unit)
        .ok_or(DelayError::NotInOrder)?;
    let to = round
        .iter()
        .position(|&u| u == after)
        .ok_or(DelayError::TargetNotInOrder)?;
    if to <= from {
        return Err(DelayError::NotLater);
    }
    let mut out = round.to_vec();
    let u = out.remove(from);
    out.insert(to, u);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(unit: char, agility: i64, initiator: bool) -> Entrant<char> {
        Entrant {
            unit,
            agility,
            initiator,
        }
    }

    /// A d20 that returns the given faces in order, then an error.
    fn faces(f: &[u32]) -> impl FnMut(char) -> Result<u32, &'static str> + '_ {
        let mut it = f.iter();
        move |_| it.next().copied().ok_or("no more d20 faces")
    }

    /// W-02: highest Agility first, no dice rolled without ties.
    #[test]
    fn w_02_by_agility() {
        let units = [e('a', 1, false), e('b', 3, false), e('c', -2, false)];
        assert_eq!(order(&units, faces(&[])), Ok(vec!['b', 'a', 'c']));
    }

    /// W-03 / W-GAP-11: initiators go last whatever their Agility, among themselves
    /// by Agility.
    #[test]
    fn w_03_w_gap_11_initiators_last() {
        let units = [
            e('a', 5, true),
            e('b', 0, false),
            e('c', 2, true),
            e('d', -1, false),
        ];
        assert_eq!(order(&units, faces(&[])), Ok(vec!['b', 'd', 'a', 'c']));
    }

    /// W-GAP-10: ties by a d20 roll-off in roster order, higher first; tied rolls
    /// roll again.
    #[test]
    fn w_gap_10_roll_off() {
        let units = [
            e('a', 2, false),
            e('b', 2, false),
            e('c', 2, false),
            e('d', 4, false),
        ];
        // a 7, b 15, c 7 → b; a and c again: a 3, c 11 → c, a.
        assert_eq!(
            order(&units, faces(&[7, 15, 7, 3, 11])),
            Ok(vec!['d', 'b', 'c', 'a'])
        );
    }

    /// W-GAP-10 with bad dice: faces that never break a tie stop after the bound in
    /// roster order (100,000 equal faces used to overflow the stack); dice that run
    /// out stop the roll-off with their error.
    #[test]
    fn w_gap_10_endless_ties_and_missing_dice() {
        let units = [e('a', 2, false), e('b', 2, false)];
        let sixes = vec![6; 100_000];
        assert_eq!(order(&units, faces(&sixes)), Ok(vec!['a', 'b']));
        assert_eq!(order(&units, faces(&[])), Err("no more d20 faces"));
    }

    /// W-04 / W-GAP-12: delaying moves the turn to just after a later unit for this
    /// round only; delaying behind an earlier unit is refused.
    #[test]
    fn w_gap_12_delay() {
        let battle = ['a', 'b', 'c', 'd'];
        assert_eq!(delay(&battle, 'a', 'c'), Ok(vec!['b', 'c', 'a', 'd']));
        assert_eq!(delay(&battle, 'c', 'a'), Err(DelayError::NotLater));
        assert_eq!(delay(&battle, 'c', 'c'), Err(DelayError::NotLater));
        assert_eq!(delay(&battle, 'x', 'c'), Err(DelayError::NotInOrder));
        assert_eq!(delay(&battle, 'a', 'x'), Err(DelayError::TargetNotInOrder));
        assert_eq!(
            battle,
            ['a', 'b', 'c', 'd'],
            "the battle's order is unchanged"
        );
        assert_eq!(
            DelayError::NotLater.to_string(),
            "a unit can only delay until after a unit that acts later"
        );
    }
}
