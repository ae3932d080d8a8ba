//! Initiative roll-offs, shared by every ruleset (RULES.md §6.2 X-07): units tied on
//! initiative roll a die, the highest goes first, and units still tied roll again
//! among themselves (`phases` P-14 and P-GAP-02 with a d6, `flow` F-GAP-08 with a d10).
//!
//! The roll-off is iterative (an explicit stack, not recursion), so no number of
//! repeated ties can exhaust the call stack, and it is bounded: a group still tied
//! after [`MAX_ROLL_OFF_ROUNDS`] rounds of rolls keeps the order it already has (the
//! roster order, for units that never rolled apart) — a final, deterministic rule.
//! Dice are consumed depth first: a group rolls in its order, then each sub-group of
//! equal faces, highest face first, settles completely before the next one rolls.

use bevy_ecs::prelude::*;

use crate::engine::battle::emit;
use crate::engine::command::CommandError;
use crate::engine::dice::{Dice, Sides};
use crate::engine::event::Event;
use crate::engine::units::UnitId;

/// Most rounds of rolls a tied group makes (its first roll included) before the units
/// still tied keep their current order. With the smallest allowed tie die (a d2) two
/// units stay tied for 100 rounds with probability 2⁻¹⁰⁰: in practice the bound is
/// only reached by scripted dice that repeat one face.
pub const MAX_ROLL_OFF_ROUNDS: u32 = 100;

/// Orders tied units highest first: each rolls `die` in the group's order (logged as
/// [`Event::TieBreakRolled`]); units that rolled the same face roll again among
/// themselves, up to [`MAX_ROLL_OFF_ROUNDS`] rounds, after which they keep the order
/// they came in. A group of fewer than two units rolls nothing.
pub fn roll_off(
    world: &mut World,
    group: Vec<UnitId>,
    die: Sides,
) -> Result<Vec<UnitId>, CommandError> {
    order_ties(group, |unit| {
        let face = world.resource_mut::<Dice>().roll(die.get())?;
        emit(world, Event::TieBreakRolled { unit, face });
        Ok(face)
    })
}

/// The roll-off itself, with `roll` giving each unit's face: [`roll_off`] without
/// the world (`wounds` orders its own entrants with it, W-GAP-10).
pub fn order_ties<U: Copy, E>(
    group: Vec<U>,
    mut roll: impl FnMut(U) -> Result<u32, E>,
) -> Result<Vec<U>, E> {
    let mut order = Vec::with_capacity(group.len());
    // Groups still to settle with the round they would roll; the top is settled first.
    let mut stack: Vec<(Vec<U>, u32)> = vec![(group, 1)];
    while let Some((group, round)) = stack.pop() {
        if group.len() < 2 || round > MAX_ROLL_OFF_ROUNDS {
            order.extend(group);
            continue;
        }
        let mut faces = Vec::with_capacity(group.len());
        for &unit in &group {
            faces.push((unit, roll(unit)?));
        }
        // Stable: equal faces keep the group's order.
        faces.sort_by_key(|f| std::cmp::Reverse(f.1));
        let tied: Vec<Vec<U>> = faces
            .chunk_by(|a, b| a.1 == b.1)
            .map(|same| same.iter().map(|f| f.0).collect())
            .collect();
        // Pushed lowest face first, so the highest face's group is popped first.
        stack.extend(tied.into_iter().rev().map(|g| (g, round + 1)));
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::dice::DiceError;

    fn ids(v: &[u32]) -> Vec<UnitId> {
        v.iter().map(|&i| UnitId(i)).collect()
    }

    /// Rolls with `dice`, recording `(unit, face)` of every roll.
    fn run(dice: &mut Dice, group: &[u32], die: u32) -> (Vec<UnitId>, Vec<(u32, u32)>) {
        let mut rolls = Vec::new();
        let order = order_ties(ids(group), |u| {
            let face = dice.roll(die)?;
            rolls.push((u.0, face));
            Ok::<_, DiceError>(face)
        })
        .unwrap();
        (order, rolls)
    }

    /// The recursive roll-off the rulesets used before, kept as the reference for the
    /// order dice are consumed in.
    fn recursive(
        dice: &mut Dice,
        group: Vec<UnitId>,
        die: u32,
        rolls: &mut Vec<(u32, u32)>,
    ) -> Vec<UnitId> {
        if group.len() < 2 {
            return group;
        }
        let mut faces = Vec::new();
        for &unit in &group {
            let face = dice.roll(die).unwrap();
            rolls.push((unit.0, face));
            faces.push((unit, face));
        }
        faces.sort_by_key(|f| std::cmp::Reverse(f.1));
        let mut order = Vec::new();
        let mut i = 0;
        while i < faces.len() {
            let j = faces[i..].iter().take_while(|f| f.1 == faces[i].1).count() + i;
            let sub = faces[i..j].iter().map(|f| f.0).collect();
            order.extend(recursive(dice, sub, die, rolls));
            i = j;
        }
        order
    }

    /// P-14: tied units roll the tie die, highest first, and roll again while tied;
    /// sub-ties settle depth first (the pair on 3 re-rolls before the pair on 1).
    #[test]
    fn p_14_ties_reroll_depth_first() {
        // Round 1: 0→3, 1→1, 2→3, 3→1. The 3s re-roll: 0→2, 2→5 (2 first); then
        // the 1s: 1→4, 3→4 (tied again), then 1→6, 3→2.
        let mut dice = Dice::scripted([3, 1, 3, 1, 2, 5, 4, 4, 6, 2]);
        let (order, rolls) = run(&mut dice, &[0, 1, 2, 3], 6);
        assert_eq!(order, ids(&[2, 0, 1, 3]));
        assert_eq!(
            rolls,
            [
                (0, 3),
                (1, 1),
                (2, 3),
                (3, 1),
                (0, 2),
                (2, 5),
                (1, 4),
                (3, 4),
                (1, 6),
                (3, 2)
            ]
        );
        assert_eq!(dice.remaining(), Some(0));
    }

    /// The iterative roll-off consumes dice exactly like the recursion it replaced,
    /// so seeded battles replay unchanged (P-14, F-GAP-08).
    #[test]
    fn p_14_f_gap_08_same_dice_order_as_the_recursion() {
        for seed in 0..300 {
            for (n, die) in [(2, 2), (3, 2), (5, 3), (8, 2), (6, 6), (4, 10)] {
                let group: Vec<u32> = (0..n).collect();
                let (order, rolls) = run(&mut Dice::seeded(seed), &group, die);
                let mut reference_rolls = Vec::new();
                let reference = recursive(
                    &mut Dice::seeded(seed),
                    ids(&group),
                    die,
                    &mut reference_rolls,
                );
                assert_eq!(order, reference, "seed {seed}, {n} units, d{die}");
                assert_eq!(rolls, reference_rolls, "seed {seed}, {n} units, d{die}");
            }
        }
    }

    /// P-14 with a bound: faces that never break the tie stop after
    /// MAX_ROLL_OFF_ROUNDS rounds and the units keep their order; 100,000 identical
    /// faces used to overflow the stack of the recursive roll-off.
    #[test]
    fn p_14_endless_ties_stop_at_the_bound_in_roster_order() {
        let mut dice = Dice::scripted(std::iter::repeat_n(1, 100_000));
        let (order, rolls) = run(&mut dice, &[4, 7, 9], 6);
        assert_eq!(order, ids(&[4, 7, 9]));
        assert_eq!(rolls.len(), 3 * MAX_ROLL_OFF_ROUNDS as usize);
        assert_eq!(dice.remaining(), Some(100_000 - rolls.len()));
    }

    #[test]
    fn a_single_unit_rolls_nothing_and_errors_pass_through() {
        let mut dice = Dice::scripted([]);
        assert_eq!(run(&mut dice, &[3], 6), (ids(&[3]), vec![]));
        assert_eq!(run(&mut dice, &[], 6), (vec![], vec![]));
        let err = order_ties(ids(&[0, 1]), |_| dice.roll(6));
        assert_eq!(err, Err(DiceError::Exhausted { sides: 6, used: 0 }));
    }
}
