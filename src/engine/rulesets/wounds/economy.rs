//! The `wounds` action economy, movement and free hits: a turn's Attack Action, Move
//! Action and two Bonus Actions and what each may pay for (W-06 … W-11, W-GAP-22),
//! standing up off-turn (W-30, W-GAP-19), movement with Bonus Actions, prone, half
//! speed and Slowing wounds (W-08, W-GAP-19, W-GAP-20, W-EX-8), and Free Hit Slots
//! with what triggers a free hit (W-25 … W-28, W-GAP-14 … W-GAP-16, W-GAP-25,
//! W-EX-5).

use std::fmt;

use crate::engine::board::Cell;

use super::aim::Modifiers;
use super::config::WoundsConfig;

/// One of a turn's actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The Attack Action (AA).
    Attack,
    /// The Move Action (MA).
    Move,
    /// A Bonus Action (BA).
    Bonus,
}

/// Something a unit spends actions on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Use {
    /// Attack (AA, W-06, W-13).
    Attack,
    /// Pay a spell's cast time (AA or MA, W-06, W-07, W-12).
    CastTime,
    /// Pick up an item, or a disarmed one nearby (AA, MA or BA, W-31).
    PickUp,
    /// Draw or sheathe a weapon (AA, MA or BA).
    DrawSheathe,
    /// Talk briefly (AA, MA or BA).
    Talk,
    /// Get up from prone (AA, MA or BA, W-30).
    StandUp,
    /// Disengage for the round (AA, or 2 BA: W-06, W-11, W-28).
    Disengage,
    /// Move (MA, W-07).
    Move,
    /// Toggle a cast spell's effects (BA).
    ToggleSpell,
    /// +1 melee damage for the round (BA, W-09, W-GAP-13).
    DamageBoost,
    /// +1 to hit for the round (BA).
    HitBoost,
    /// +1 dodge until the unit's next turn (BA).
    DodgeBoost,
    /// Move 2 more spaces (BA).
    ExtraMove,
    /// A second attack, without Strength or feats (MA + 2 BA, W-10, W-GAP-22).
    ExtraAttack,
}

use Action::{Attack as AA, Bonus as BA, Move as MA};

/// The ways `what` may be paid, each a set of actions spent together (W-06 … W-11).
pub fn payments(what: Use) -> &'static [&'static [Action]] {
    match what {
        Use::Attack => &[&[AA]],
        Use::CastTime => &[&[AA], &[MA]],
        Use::PickUp | Use::DrawSheathe | Use::Talk | Use::StandUp => &[&[AA], &[MA], &[BA]],
        Use::Disengage => &[&[AA], &[BA, BA]],
        Use::Move => &[&[MA]],
        Use::ToggleSpell | Use::DamageBoost | Use::HitBoost | Use::DodgeBoost | Use::ExtraMove => {
            &[&[BA]]
        }
        Use::ExtraAttack => &[&[MA, BA, BA]],
    }
}

/// Why a payment is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PayError {
    /// That set of actions doesn't pay for it.
    NotAWay,
    /// The actions are already spent.
    Spent,
}

impl fmt::Display for PayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PayError::NotAWay => "those actions can't pay for it",
            PayError::Spent => "those actions are already spent this turn",
        })
    }
}

impl std::error::Error for PayError {}

/// The actions a unit has left this turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Attack Actions left.
    pub attack: u32,
    /// Move Actions left.
    pub moves: u32,
    /// Bonus Actions left.
    pub bonus: u32,
}

impl Budget {
    /// A fresh turn: 1 AA, 1 MA and 2 BA, less one BA per Weakening wound, never
    /// below 0 (W-01, W-17, W-GAP-08).
    pub fn turn(cfg: &WoundsConfig, wounds: &Modifiers) -> Budget {
        Budget::turn_with(cfg.bonus_actions, wounds)
    }

    /// A fresh turn of a unit with `bonus_actions` Bonus Actions (its
    /// `BonusActions` stat), less one per Weakening wound, never below 0.
    pub fn turn_with(bonus_actions: u32, wounds: &Modifiers) -> Budget {
        let bonus = (i64::from(bonus_actions) + wounds.bonus_actions).max(0);
        Budget {
            attack: 1,
            moves: 1,
            bonus: u32::try_from(bonus).unwrap_or(u32::MAX),
        }
    }

    /// Actions of kind `a` left.
    pub fn left(&self, a: Action) -> u32 {
        match a {
            AA => self.attack,
            MA => self.moves,
            BA => self.bonus,
        }
    }

    /// One action of kind `a` less (none below 0): spent ahead of the turn, as by
    /// standing up off-turn (W-30, W-GAP-19).
    pub fn take(&mut self, a: Action) {
        let n = match a {
            AA => &mut self.attack,
            MA => &mut self.moves,
            BA => &mut self.bonus,
        };
        *n = n.saturating_sub(1);
    }

    /// Whether `payment` is a way to pay for `what` that this budget covers.
    pub fn can_pay(&self, what: Use, payment: &[Action]) -> Result<(), PayError> {
        if !payments(what).contains(&payment) {
            return Err(PayError::NotAWay);
        }
        for a in [AA, MA, BA] {
            let need = payment.iter().filter(|&&p| p == a).count() as u32;
            if need > self.left(a) {
                return Err(PayError::Spent);
            }
        }
        Ok(())
    }

    /// Spends `payment` on `what`, or says why not (nothing is spent then). Standing
    /// up off-turn pays from the next turn's budget (W-30, W-GAP-19): when that
    /// budget lacks the chosen action, the unit can't stand.
    pub fn pay(&mut self, what: Use, payment: &[Action]) -> Result<(), PayError> {
        self.can_pay(what, payment)?;
        for a in payment {
            match a {
                AA => self.attack -= 1,
                MA => self.moves -= 1,
                BA => self.bonus -= 1,
            }
        }
        Ok(())
    }
}

/// How a unit moves this movement (W-08, W-30).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gait {
    /// Prone: ⅓ of its movement (W-30).
    pub prone: bool,
    /// Sneaking, swimming, climbing, carrying max capacity: half (W-08).
    pub half: bool,
}

/// The spaces a unit may move (W-07, W-08, W-09, W-GAP-19, W-EX-8): its Move
/// action's movement (the `Movement` stat, less Slowing wounds, never below 0) if
/// `with_move_action`, plus 2 per Bonus Action spent on moving, then divided by 3
/// prone and by 2 at half speed, the divisors multiplied before rounding down.
pub fn movement(
    cfg: &WoundsConfig,
    base: i64,
    wounds: &Modifiers,
    with_move_action: bool,
    extra_moves: u32,
    gait: Gait,
) -> u32 {
    let ma = if with_move_action {
        (base + wounds.movement).max(0)
    } else {
        0
    };
    let total = ma + i64::from(extra_moves) * i64::from(cfg.ba_move_bonus);
    let mut divisor = 1i64;
    if gait.prone {
        divisor *= i64::from(cfg.prone_divisor.max(1));
    }
    if gait.half {
        divisor *= i64::from(cfg.half_divisor.max(1));
    }
    u32::try_from(total / divisor).unwrap_or(u32::MAX)
}

/// The spaces one square costs: 2 if difficult (W-GAP-20); a diagonal step costs
/// as much as an orthogonal one.
pub fn step_cost(cfg: &WoundsConfig, difficult: bool) -> u32 {
    if difficult { cfg.difficult_cost } else { 1 }
}

/// Free Hit Slots for a round: Agility (wounds included) + 1; none when that is 0
/// or less (W-27, W-GAP-16).
pub fn free_hit_slots(cfg: &WoundsConfig, agility: i64) -> u32 {
    u32::try_from((agility + cfg.fhs_base).max(0)).unwrap_or(u32::MAX)
}

/// A unit's Free Hit Slots left this round (W-27, W-GAP-16): reset each round,
/// unused ones lost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slots {
    left: u32,
}

impl Slots {
    /// The slots at the start of a round, from the current Agility.
    pub fn new_round(cfg: &WoundsConfig, agility: i64) -> Slots {
        Slots {
            left: free_hit_slots(cfg, agility),
        }
    }

    /// Slots left.
    pub fn left(&self) -> u32 {
        self.left
    }

    /// Uses a slot for a free hit; `false` (no free hit) when none is left. A
    /// tragedy's free critical hit uses none (W-24).
    pub fn spend(&mut self) -> bool {
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        true
    }
}

/// Why a moving enemy draws a free hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Trigger {
    /// It leaves the melee zone (W-26).
    Leaves,
    /// It takes its 3rd step inside the melee zone (W-26, W-GAP-15).
    StepsInside,
}

/// Whether `cell` is in the melee zone of a unit at `center` with radius `zone`
/// (W-25: the squares around it, Chebyshev distance).
pub fn in_zone(center: Cell, zone: u32, cell: Cell) -> bool {
    let d = (cell.x - center.x)
        .unsigned_abs()
        .max((cell.y - center.y).unsigned_abs());
    d >= 1 && d <= zone
}

/// Whether an enemy moving along `path` (its start first) draws a free hit from a
/// unit at `center` with melee zone `zone`, and before which step: `Some((i, why))`
/// is resolved before the step from `path[i]` to `path[i + 1]` (W-26, W-GAP-14,
/// W-GAP-15, W-EX-5). Leaving the zone triggers, and so does the 3rd step that
/// starts and ends inside it, counted over the mover's whole turn: `before` is the
/// number of such steps its earlier movements this turn took (a Move of 2 then a
/// Dash of 2 inside one zone draws a free hit before the Dash's 2nd step); at most
/// one free hit per mover per movement. A disengaged mover draws none (W-28,
/// W-GAP-25). Slots are the caller's ([`Slots::spend`]).
pub fn free_hit_trigger(
    cfg: &WoundsConfig,
    center: Cell,
    zone: u32,
    path: &[Cell],
    disengaged: bool,
    before: u32,
) -> Option<(usize, Trigger)> {
    if disengaged {
        return None;
    }
    let mut inside_steps = before;
    for (i, step) in path.windows(2).enumerate() {
        let (from, to) = (
            in_zone(center, zone, step[0]),
            in_zone(center, zone, step[1]),
        );
        if from && !to {
            return Some((i, Trigger::Leaves));
        }
        if from && to {
            inside_steps += 1;
            if inside_steps == cfg.free_hit_step {
                return Some((i, Trigger::StepsInside));
            }
        }
    }
    None
}

/// The steps of `path` (its start first) that start and end inside the melee zone
/// of a unit at `center` with radius `zone`: what a movement adds to the mover's
/// count for the turn (W-26, W-GAP-15).
pub fn steps_inside(center: Cell, zone: u32, path: &[Cell]) -> u32 {
    path.windows(2)
        .filter(|s| in_zone(center, zone, s[0]) && in_zone(center, zone, s[1]))
        .count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::config::load_default;
    use crate::engine::rulesets::wounds::aim::{Aim, Wounds};

    fn cfg() -> WoundsConfig {
        load_default().unwrap()
    }

    fn at(x: i32, y: i32) -> Cell {
        Cell { x, y }
    }

    /// W-06 / W-07 / W-09: what each action pays for.
    #[test]
    fn w_06_w_07_w_09_what_actions_pay_for() {
        let c = cfg();
        let fresh = Budget::turn(&c, &Modifiers::default());
        assert_eq!(
            fresh,
            Budget {
                attack: 1,
                moves: 1,
                bonus: 2
            }
        );
        assert_eq!(fresh.can_pay(Use::Attack, &[MA]), Err(PayError::NotAWay));
        assert_eq!(fresh.can_pay(Use::Move, &[AA]), Err(PayError::NotAWay));
        assert_eq!(fresh.can_pay(Use::HitBoost, &[AA]), Err(PayError::NotAWay));
        for a in [AA, MA, BA] {
            assert_eq!(fresh.can_pay(Use::StandUp, &[a]), Ok(()), "W-30 {a:?}");
            assert_eq!(fresh.can_pay(Use::PickUp, &[a]), Ok(()), "W-31 {a:?}");
        }
        assert_eq!(fresh.can_pay(Use::CastTime, &[BA]), Err(PayError::NotAWay));
    }

    /// W-10 / W-GAP-22: MA + both BAs buy an extra attack, and then nothing is left
    /// to move with.
    #[test]
    fn w_10_w_gap_22_extra_attack() {
        let c = cfg();
        let mut b = Budget::turn(&c, &Modifiers::default());
        b.pay(Use::Attack, &[AA]).unwrap();
        b.pay(Use::ExtraAttack, &[MA, BA, BA]).unwrap();
        assert_eq!(b.pay(Use::Move, &[MA]), Err(PayError::Spent));
        assert_eq!(b.pay(Use::ExtraMove, &[BA]), Err(PayError::Spent));
    }

    /// W-11 / W-28: Disengage with 1 AA or 2 BA; one BA is not a way; a Weakening
    /// wound leaves 1 BA, too few for the BA way.
    #[test]
    fn w_11_w_28_disengage() {
        let c = cfg();
        let mut b = Budget::turn(&c, &Modifiers::default());
        assert_eq!(b.can_pay(Use::Disengage, &[BA]), Err(PayError::NotAWay));
        b.pay(Use::Disengage, &[BA, BA]).unwrap();
        assert_eq!(b.bonus, 0);
        let mut w = Wounds::new();
        w.inflict(Aim::Weakening, 1, &c);
        let weak = Budget::turn(&c, &w.modifiers(1, &c));
        assert_eq!(weak.bonus, 1, "W-17");
        assert_eq!(
            weak.can_pay(Use::Disengage, &[BA, BA]),
            Err(PayError::Spent)
        );
        assert_eq!(weak.can_pay(Use::Disengage, &[AA]), Ok(()));
    }

    /// W-GAP-08: three Weakening wounds leave 0 BA, not fewer.
    #[test]
    fn w_gap_08_bonus_actions_floor_at_zero() {
        let c = cfg();
        let mut w = Wounds::new();
        for _ in 0..3 {
            w.inflict(Aim::Weakening, 1, &c);
        }
        assert_eq!(Budget::turn(&c, &w.modifiers(1, &c)).bonus, 0);
    }

    /// W-30 / W-GAP-19: standing off-turn spends the chosen action of the next turn;
    /// with that action already owed, the unit can't stand with it.
    #[test]
    fn w_30_w_gap_19_stand_off_turn() {
        let c = cfg();
        let mut next = Budget::turn(&c, &Modifiers::default());
        next.pay(Use::StandUp, &[BA]).unwrap();
        next.pay(Use::StandUp, &[BA]).unwrap();
        assert_eq!(next.pay(Use::StandUp, &[BA]), Err(PayError::Spent));
        assert_eq!(next.pay(Use::StandUp, &[MA]), Ok(()));
    }

    /// W-EX-8 / W-08 / W-GAP-19: MA 6 + 2 BA = 10; prone 6 → 2; climbing 3; two
    /// Slowing wounds: MA 2, BAs still +2 each.
    #[test]
    fn w_ex_8_movement() {
        let c = cfg();
        let none = Modifiers::default();
        let walk = Gait::default();
        assert_eq!(movement(&c, 6, &none, true, 2, walk), 10);
        assert_eq!(
            movement(
                &c,
                6,
                &none,
                true,
                0,
                Gait {
                    prone: true,
                    half: false
                }
            ),
            2
        );
        assert_eq!(
            movement(
                &c,
                6,
                &none,
                true,
                0,
                Gait {
                    prone: false,
                    half: true
                }
            ),
            3
        );
        let mut w = Wounds::new();
        w.inflict(Aim::Slowing, 1, &c);
        w.inflict(Aim::Slowing, 1, &c);
        let slowed = w.modifiers(1, &c);
        assert_eq!(movement(&c, 6, &slowed, true, 0, walk), 2);
        assert_eq!(movement(&c, 6, &slowed, true, 2, walk), 6);
        // Factors multiply before flooring: 10 / 6 = 1; and movement never below 0.
        assert_eq!(
            movement(
                &c,
                6,
                &none,
                true,
                2,
                Gait {
                    prone: true,
                    half: true
                }
            ),
            1
        );
        let mut four = Wounds::new();
        for _ in 0..4 {
            four.inflict(Aim::Slowing, 1, &c);
        }
        assert_eq!(movement(&c, 6, &four.modifiers(1, &c), true, 1, walk), 2);
        assert_eq!(movement(&c, 6, &none, false, 1, walk), 2, "BA alone");
    }

    /// W-GAP-20: a difficult square costs 2 spaces.
    #[test]
    fn w_gap_20_difficult_squares() {
        let c = cfg();
        assert_eq!((step_cost(&c, false), step_cost(&c, true)), (1, 2));
    }

    /// W-27 / W-EX-1: FHS = Agility + 1 (2 → 3; a Slowing wound makes it 2); none at
    /// Agility −1 or less.
    #[test]
    fn w_27_free_hit_slots() {
        let c = cfg();
        assert_eq!(free_hit_slots(&c, 2), 3);
        assert_eq!(free_hit_slots(&c, 2 - 1), 2);
        assert_eq!(free_hit_slots(&c, -1), 0);
        assert_eq!(free_hit_slots(&c, -4), 0);
    }

    /// W-EX-5 / W-26 / W-GAP-14 / W-GAP-16: D with Agility +1 has 2 slots; X, Y and
    /// Z leave its zone: two free hits, Z none; next round 2 again.
    #[test]
    fn w_ex_5_slots_per_round() {
        let c = cfg();
        let d = at(5, 5);
        let mut slots = Slots::new_round(&c, 1);
        let leaving = [at(4, 5), at(3, 5)];
        let mut hits = Vec::new();
        for mover in ['X', 'Y', 'Z'] {
            let t = free_hit_trigger(&c, d, 1, &leaving, false, 0);
            assert_eq!(t, Some((0, Trigger::Leaves)), "{mover}");
            hits.push(slots.spend());
        }
        assert_eq!(hits, [true, true, false]);
        assert_eq!(Slots::new_round(&c, 1).left(), 2);
    }

    /// W-EX-5 / W-GAP-15: 3 steps inside the zone draw a free hit before the 3rd;
    /// leaving after that gives no second one; 2 steps inside draw none.
    #[test]
    fn w_gap_15_third_step_inside() {
        let c = cfg();
        let d = at(5, 5);
        let around = [at(4, 4), at(5, 4), at(6, 4), at(6, 5), at(6, 6), at(8, 8)];
        assert_eq!(
            free_hit_trigger(&c, d, 1, &around, false, 0),
            Some((2, Trigger::StepsInside))
        );
        assert_eq!(free_hit_trigger(&c, d, 1, &around[..3], false, 0), None);
        // Over the turn (W-GAP-15 counted per turn): 2 steps inside, then a second
        // movement whose 1st step inside is the turn's 3rd.
        assert_eq!(steps_inside(d, 1, &around[..3]), 2);
        assert_eq!(
            free_hit_trigger(&c, d, 1, &around[2..5], false, 2),
            Some((0, Trigger::StepsInside))
        );
        assert_eq!(free_hit_trigger(&c, d, 1, &around[4..5], false, 3), None);
        // Entering the zone and walking up to the unit draws nothing.
        assert_eq!(
            free_hit_trigger(&c, d, 1, &[at(8, 5), at(7, 5), at(6, 5)], false, 0),
            None
        );
    }

    /// W-25: the melee zone is the 8 squares around (Reach: 2 spaces), not the
    /// unit's own.
    #[test]
    fn w_25_melee_zone() {
        let d = at(5, 5);
        assert!(in_zone(d, 1, at(4, 6)));
        assert!(!in_zone(d, 1, at(5, 5)));
        assert!(!in_zone(d, 1, at(7, 5)));
        assert!(in_zone(d, 2, at(7, 3)));
    }

    /// W-28 / W-GAP-25: a disengaged mover draws no free hit.
    #[test]
    fn w_gap_25_disengaged_moves_freely() {
        let c = cfg();
        assert_eq!(
            free_hit_trigger(&c, at(5, 5), 1, &[at(4, 5), at(3, 5)], true, 0),
            None
        );
    }
}
