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
/// roster order, the groups in turn order): higher goes first; those tied again roll again.
/// The order is fixed for the battle: later Agility changes don't reorder it.
pub fn order<U: Copy>(entrants: &[Entrant<U>], mut d20: impl FnMut(U) -> u32) -> Vec<U> {
    let mut sorted: Vec<&Entrant<U>> = entrants.iter().collect();
    // Stable: roster order within a group.
    sorted.sort_by_key(|e| (e.initiator, std::cmp::Reverse(e.agility)));
    let mut out = Vec::with_capacity(entrants.len());
    let mut i = 0;
    while i < sorted.len() {
        let key = (sorted[i].initiator, sorted[i].agility);
        let mut j = i + 1;
        while j < sorted.len() && (sorted[j].initiator, sorted[j].agility) == key {
            j += 1;
        }
        let group: Vec<U> = sorted[i..j].iter().map(|e| e.unit).collect();
        roll_off(group, &mut d20, &mut out);
        i = j;
    }
    out
}

/// Orders tied `units` by a d20 each, higher first; ties roll again (W-GAP-10).
fn roll_off<U: Copy>(units: Vec<U>, d20: &mut impl FnMut(U) -> u32, out: &mut Vec<U>) {
    if units.len() < 2 {
        out.extend(units);
        return;
    }
    let mut rolled: Vec<(u32, U)> = units.into_iter().map(|u| (d20(u), u)).collect();
    rolled.sort_by_key(|&(r, _)| std::cmp::Reverse(r));
    let mut i = 0;
    while i < rolled.len() {
        let mut j = i + 1;
        while j < rolled.len() && rolled[j].0 == rolled[i].0 {
            j += 1;
        }
        roll_off(rolled[i..j].iter().map(|&(_, u)| u).collect(), d20, out);
        i = j;
    }
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

    /// A d20 that returns the given faces in order.
    fn faces(f: &[u32]) -> impl FnMut(char) -> u32 + '_ {
        let mut it = f.iter();
        move |_| *it.next().expect("no more d20 faces")
    }

    /// W-02: highest Agility first, no dice rolled without ties.
    #[test]
    fn w_02_by_agility() {
        let units = [e('a', 1, false), e('b', 3, false), e('c', -2, false)];
        assert_eq!(order(&units, faces(&[])), ['b', 'a', 'c']);
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
        assert_eq!(order(&units, faces(&[])), ['b', 'd', 'a', 'c']);
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
            ['d', 'b', 'c', 'a']
        );
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
