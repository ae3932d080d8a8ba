//! The round's order in `actfast` (A-02, A-03, A-04, A-22, A-23, A-GAP-07,
//! A-GAP-10, A-GAP-15, A-EX-1): a pure function from the units' choices (Act Fast
//! or Act Well) and states (Slow, Stunned, surprised) to the ordered list of who
//! acts, with how many actions and under which limits.
//!
//! The four steps: 1. Act Fast PCs take 1 action; 2. NPCs take 2 actions, at most
//! one an attack (Slow NPCs: 1 action, move or attack); 3. Act Well PCs take 2
//! actions; 4. Slow characters take 1 action, players first. In a surprise's rounds
//! the surprised side acts in step 4 with 2 actions each (Slow still caps them at
//! 1). Inside a step the units keep the order they are given (players choose it,
//! the AI orders NPCs, A-GAP-10); each finishes all its actions before the next.
//!
//! Beside the order: reactions per round and riposte (A-05, A-06, A-GAP-08,
//! A-GAP-09), and what a Move costs a Prone or Restrained unit.

use super::config::ActfastConfig;
use super::pool::Grade;
use super::stats::{AttackKind, Condition};

/// What a player chose for the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pace {
    /// Act Fast: 1 action before the opponents.
    Fast,
    /// Act Well: 2 actions after them.
    Well,
}

/// A side of the fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The players' characters.
    Pcs,
    /// The opponents (NPCs).
    Npcs,
}

/// Whose a unit is, and a PC's choice this round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// A player's character with its choice for the round (A-02, A-GAP-10).
    Pc(Pace),
    /// An NPC; it does not choose (A-GAP-07).
    Npc,
}

impl Role {
    /// Its side.
    pub fn side(self) -> Side {
        match self {
            Role::Pc(_) => Side::Pcs,
            Role::Npc => Side::Npcs,
        }
    }
}

/// A unit as the order sees it: who it is, its role and its conditions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Participant<U> {
    /// The unit.
    pub unit: U,
    /// PC (with its choice) or NPC.
    pub role: Role,
    /// Its conditions (Slow and Stunned matter here, A-22, A-23).
    pub conditions: Vec<Condition>,
}

/// The step of the round a unit acts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    /// 1. Act Fast PCs.
    ActFast,
    /// 2. The opponents.
    Opponents,
    /// 3. Act Well PCs.
    ActWell,
    /// 4. Slow characters, players first (and a surprised side, A-04).
    Slow,
}

/// What a unit may do with its actions beyond their number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Limit {
    /// Most of its actions that may be attacks; `None` for no limit (A-GAP-07).
    pub max_attacks: Option<u32>,
    /// A Slow NPC may move or attack, not both.
    pub move_or_attack: bool,
}

impl Limit {
    /// No limit.
    pub const NONE: Limit = Limit {
        max_attacks: None,
        move_or_attack: false,
    };
}

impl Default for Limit {
    fn default() -> Self {
        Limit::NONE
    }
}

/// One unit's turn in the round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot<U> {
    /// Who acts.
    pub unit: U,
    /// In which step.
    pub step: Step,
    /// How many actions it takes.
    pub actions: u32,
    /// What limits them.
    pub limit: Limit,
}

/// Whether round `round` (1-based) is still under a surprise (A-GAP-15: only the
/// first round by default).
pub fn surprise_active(cfg: &ActfastConfig, round: u32) -> bool {
    round >= 1 && round <= cfg.surprise_rounds
}

/// The slot of one unit, or `None` when it misses its turn (Stunned, A-23).
fn slot<U: Copy>(cfg: &ActfastConfig, surprised: bool, p: &Participant<U>) -> Option<Slot<U>> {
    if p.conditions.contains(&Condition::Stunned) {
        return None;
    }
    let slow = p.conditions.contains(&Condition::Slow);
    let npc_limit = Limit {
        max_attacks: Some(cfg.npc_max_attacks),
        move_or_attack: false,
    };
    let slow_npc = Limit {
        max_attacks: Some(cfg.npc_max_attacks.min(1)),
        move_or_attack: true,
    };
    let (step, actions, limit) = match (p.role, slow, surprised) {
        // A-04 / A-GAP-15: the surprised side acts as if Slow but with 2 actions;
        // a Slow unit among it still takes 1 (A-EX-1), a Slow NPC moves or attacks.
        (Role::Pc(_), false, true) => (Step::Slow, cfg.surprised_actions, Limit::NONE),
        (Role::Npc, false, true) => (Step::Slow, cfg.surprised_actions, npc_limit),
        (Role::Pc(_), true, _) => (Step::Slow, cfg.slow_actions, Limit::NONE),
        (Role::Npc, true, _) => (Step::Slow, cfg.slow_actions, slow_npc),
        (Role::Pc(Pace::Fast), false, false) => (Step::ActFast, cfg.fast_actions, Limit::NONE),
        (Role::Pc(Pace::Well), false, false) => (Step::ActWell, cfg.well_actions, Limit::NONE),
        (Role::Npc, false, false) => (Step::Opponents, cfg.npc_actions, npc_limit),
    };
    Some(Slot {
        unit: p.unit,
        step,
        actions,
        limit,
    })
}

/// The round's order (A-02, A-03, A-04, A-22, A-23, A-GAP-07, A-GAP-10, A-GAP-15,
/// A-EX-1): every unit that acts, step by step; players before NPCs in step 4; the
/// given order otherwise. `surprised` is the side caught by surprise, which acts in
/// step 4 during [`surprise_active`] rounds; Stunned units miss their turn.
pub fn round_order<U: Copy>(
    cfg: &ActfastConfig,
    round: u32,
    surprised: Option<Side>,
    units: &[Participant<U>],
) -> Vec<Slot<U>> {
    let caught = surprised.filter(|_| surprise_active(cfg, round));
    let mut slots: Vec<(Side, Slot<U>)> = units
        .iter()
        .filter_map(|p| {
            let side = p.role.side();
            slot(cfg, caught == Some(side), p).map(|s| (side, s))
        })
        .collect();
    // Stable: the given order stays inside each step; PCs first in step 4.
    slots.sort_by_key(|(side, s)| (s.step, *side == Side::Npcs));
    slots.into_iter().map(|(_, s)| s).collect()
}

/// `unit`, made Slow after the round's order was set, acts last: if
/// its turn is still to come, its slot moves to step 4 with the Slow character's
/// actions and limits, behind the step-4 players when it is one and behind every
/// step-4 slot when it is an NPC ("Slow characters act, players first"). Returns
/// whether the slot moved (a unit that already acted, or already acts in step 4,
/// keeps its place; its coming turn is capped by the Slow limits anyway).
pub fn demote_to_slow<U: Copy + PartialEq>(
    cfg: &ActfastConfig,
    queue: &mut Vec<Slot<U>>,
    unit: U,
    is_pc: impl Fn(U) -> bool,
) -> bool {
    let Some(at) = queue.iter().position(|s| s.unit == unit) else {
        return false;
    };
    if queue[at].step == Step::Slow {
        return false;
    }
    let mut slot = queue.remove(at);
    let pc = is_pc(unit);
    slot.step = Step::Slow;
    slot.actions = slot.actions.min(cfg.slow_actions);
    if !pc {
        slot.limit.move_or_attack = true;
        slot.limit.max_attacks = Some(slot.limit.max_attacks.unwrap_or(1).min(1));
    }
    // Step 4 comes last, players first: a PC goes before the first step-4 NPC, an
    // NPC at the very end.
    let to = if pc {
        queue
            .iter()
            .position(|s| s.step == Step::Slow && !is_pc(s.unit))
            .unwrap_or(queue.len())
    } else {
        queue.len()
    };
    queue.insert(to, slot);
    true
}

/// Reactions a unit has at the start of a round (A-05, A-23, A-GAP-08, A-GAP-12):
/// [`ActfastConfig::reactions_per_round`], none while Stunned or Immobilized.
pub fn reactions(cfg: &ActfastConfig, conditions: &[Condition]) -> u32 {
    if conditions.iter().any(|c| c.blocks_reactions()) {
        0
    } else {
        cfg.reactions_per_round
    }
}

/// Whether a unit may riposte (A-06, A-GAP-09): the attack against it was a melee
/// attack that failed, was not itself a riposte, riposting is on, and the unit has a
/// reaction left and no condition that forbids reacting (A-23, A-GAP-12). The
/// riposte is one melee attack with its normal pool and damage.
pub fn may_riposte(
    cfg: &ActfastConfig,
    kind: AttackKind,
    grade: Grade,
    was_riposte: bool,
    reactions_left: u32,
    conditions: &[Condition],
) -> bool {
    cfg.riposte
        && kind == AttackKind::Melee
        && grade == Grade::Failure
        && !was_riposte
        && reactions_left >= 1
        && !conditions.iter().any(|c| c.blocks_reactions())
}

/// Actions a Move costs a unit with `actions` actions this turn (A-18, A-20,
/// A-GAP-02): 1; all of them while Restrained (its entire turn); 1 more to stand up
/// first while Prone. `None` when it can't take it with the actions it has.
pub fn move_cost(actions: u32, conditions: &[Condition]) -> Option<u32> {
    let stand = u32::from(conditions.contains(&Condition::Prone));
    let cost = if conditions.contains(&Condition::Restrained) {
        actions.max(1 + stand)
    } else {
        1 + stand
    };
    (cost <= actions).then_some(cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::config::load_default;

    fn cfg() -> ActfastConfig {
        load_default().unwrap()
    }

    fn unit(name: &'static str, role: Role, conditions: &[Condition]) -> Participant<&'static str> {
        Participant {
            unit: name,
            role,
            conditions: conditions.to_vec(),
        }
    }

    /// Ann (Act Fast), Bo (Act Well), Cy (Act Well, Slow); Orc1, Orc2 (Slow).
    fn a_ex_1_party() -> Vec<Participant<&'static str>> {
        vec![
            unit("Orc2", Role::Npc, &[Condition::Slow]),
            unit("Cy", Role::Pc(Pace::Well), &[Condition::Slow]),
            unit("Orc1", Role::Npc, &[]),
            unit("Bo", Role::Pc(Pace::Well), &[]),
            unit("Ann", Role::Pc(Pace::Fast), &[]),
        ]
    }

    fn summary(slots: &[Slot<&'static str>]) -> Vec<(&'static str, Step, u32)> {
        slots.iter().map(|s| (s.unit, s.step, s.actions)).collect()
    }

    /// a unit made Slow once the order is set moves to step 4 for
    /// the rest of the round, players first; one that already acts there stays.
    #[test]
    fn a_22_slowed_mid_round_acts_last_players_first() {
        let c = cfg();
        let mut q = round_order(&c, 1, None, &a_ex_1_party());
        let pc = |u: &str| !u.starts_with("Orc");
        // Orc1 (step 2, 2 actions) slowed: behind Cy and Orc2, 1 action, move or attack.
        assert!(demote_to_slow(&c, &mut q, "Orc1", pc));
        // Bo (step 3) slowed: behind Cy, before the step-4 NPCs.
        assert!(demote_to_slow(&c, &mut q, "Bo", pc));
        assert!(!demote_to_slow(&c, &mut q, "Cy", pc));
        assert!(!demote_to_slow(&c, &mut q, "Gone", pc));
        assert_eq!(
            summary(&q),
            [
                ("Ann", Step::ActFast, 1),
                ("Cy", Step::Slow, 1),
                ("Bo", Step::Slow, 1),
                ("Orc2", Step::Slow, 1),
                ("Orc1", Step::Slow, 1),
            ]
        );
        let orc1 = q.iter().find(|s| s.unit == "Orc1").unwrap();
        assert!(orc1.limit.move_or_attack);
        assert_eq!(orc1.limit.max_attacks, Some(1));
    }

    /// A-EX-1 / A-02 / A-03 / A-22 / A-GAP-07: Ann (1 action) → Orc1 (2, at most
    /// one attack) → Bo (2) → Cy (1) → Orc2 (1, move or attack).
    #[test]
    fn a_ex_1_seed_turn_order() {
        let c = cfg();
        let slots = round_order(&c, 1, None, &a_ex_1_party());
        assert_eq!(
            summary(&slots),
            [
                ("Ann", Step::ActFast, 1),
                ("Orc1", Step::Opponents, 2),
                ("Bo", Step::ActWell, 2),
                ("Cy", Step::Slow, 1),
                ("Orc2", Step::Slow, 1),
            ]
        );
        let limits: Vec<Limit> = slots.iter().map(|s| s.limit).collect();
        let npc = Limit {
            max_attacks: Some(1),
            move_or_attack: false,
        };
        let slow_npc = Limit {
            max_attacks: Some(1),
            move_or_attack: true,
        };
        assert_eq!(
            limits,
            [Limit::NONE, npc, Limit::NONE, Limit::NONE, slow_npc]
        );
    }

    /// A-EX-1 / A-04 / A-GAP-15: the PCs ambushed in round 1: Orc1 in step 2; then
    /// in step 4 Ann (2), Bo (2), Cy (1, Slow caps it), Orc2 (move or attack).
    /// Round 2 is back to the normal order.
    #[test]
    fn a_ex_1_surprise_round() {
        let c = cfg();
        // The players pick the example's order among themselves (A-GAP-10).
        let mut party = a_ex_1_party();
        party.reverse();
        let slots = round_order(&c, 1, Some(Side::Pcs), &party);
        assert_eq!(
            summary(&slots),
            [
                ("Orc1", Step::Opponents, 2),
                ("Ann", Step::Slow, 2),
                ("Bo", Step::Slow, 2),
                ("Cy", Step::Slow, 1),
                ("Orc2", Step::Slow, 1),
            ]
        );
        assert!(slots[4].limit.move_or_attack);
        let next = round_order(&c, 2, Some(Side::Pcs), &a_ex_1_party());
        assert_eq!(next, round_order(&c, 2, None, &a_ex_1_party()));
        assert_eq!(next[0].unit, "Ann");
    }

    /// A-04 / A-GAP-15: surprised NPCs act in step 4 after the PCs with 2 actions,
    /// not limited to move-or-attack (still one attack, A-GAP-07); the surprising
    /// PCs keep their choices.
    #[test]
    fn a_gap_15_surprised_npcs() {
        let c = cfg();
        let slots = round_order(&c, 1, Some(Side::Npcs), &a_ex_1_party());
        assert_eq!(
            summary(&slots),
            [
                ("Ann", Step::ActFast, 1),
                ("Bo", Step::ActWell, 2),
                ("Cy", Step::Slow, 1),
                ("Orc2", Step::Slow, 1),
                ("Orc1", Step::Slow, 2),
            ]
        );
        assert_eq!(
            slots[4].limit,
            Limit {
                max_attacks: Some(1),
                move_or_attack: false
            }
        );
    }

    /// A-23 / A-GAP-10: a Stunned unit misses its turn; units keep the given order
    /// inside a step.
    #[test]
    fn a_23_stunned_misses_its_turn() {
        let c = cfg();
        let units = [
            unit("Bo", Role::Pc(Pace::Well), &[]),
            unit("Dee", Role::Pc(Pace::Well), &[Condition::Stunned]),
            unit("Ann", Role::Pc(Pace::Well), &[]),
            unit("Orc", Role::Npc, &[Condition::Stunned, Condition::Slow]),
        ];
        let slots = round_order(&c, 3, None, &units);
        let who: Vec<&str> = slots.iter().map(|s| s.unit).collect();
        assert_eq!(who, ["Bo", "Ann"]);
    }

    /// A-05 / A-GAP-08 / A-23 / A-GAP-12: one reaction a round, none while Stunned
    /// or Immobilized.
    #[test]
    fn a_gap_08_reactions_per_round() {
        let c = cfg();
        assert_eq!(reactions(&c, &[]), 1);
        assert_eq!(reactions(&c, &[Condition::Prone, Condition::Fear]), 1);
        assert_eq!(reactions(&c, &[Condition::Stunned]), 0);
        assert_eq!(reactions(&c, &[Condition::Immobilized]), 0);
    }

    /// A-06 / A-GAP-09: a failed melee attack lets its target riposte with its
    /// reaction; not after a ranged attack, a hit, a riposte, with no reaction left,
    /// while Stunned, or with the switch off.
    #[test]
    fn a_gap_09_riposte() {
        let mut c = cfg();
        let m = AttackKind::Melee;
        assert!(may_riposte(
            &c,
            m,
            Grade::Failure,
            false,
            1,
            &[Condition::Prone]
        ));
        assert!(!may_riposte(
            &c,
            AttackKind::Ranged,
            Grade::Failure,
            false,
            1,
            &[]
        ));
        assert!(!may_riposte(&c, m, Grade::Partial, false, 1, &[]));
        assert!(!may_riposte(&c, m, Grade::Failure, true, 1, &[]));
        assert!(!may_riposte(&c, m, Grade::Failure, false, 0, &[]));
        assert!(!may_riposte(
            &c,
            m,
            Grade::Failure,
            false,
            1,
            &[Condition::Stunned]
        ));
        c.riposte = false;
        assert!(!may_riposte(&c, m, Grade::Failure, false, 1, &[]));
    }

    /// A-EX-5 / A-25: a Burning Act-Well PC puts out the flames with 1 of its 2
    /// actions and has 1 left; an Act-Fast PC uses its only action.
    #[test]
    fn a_ex_5_burning_uses_an_action() {
        let c = cfg();
        let units = [
            unit("Well", Role::Pc(Pace::Well), &[Condition::Burning]),
            unit("Fast", Role::Pc(Pace::Fast), &[Condition::Burning]),
        ];
        let left: Vec<(&str, u32)> = round_order(&c, 1, None, &units)
            .iter()
            .map(|s| (s.unit, s.actions - 1))
            .collect();
        assert_eq!(left, [("Fast", 0), ("Well", 1)]);
    }

    /// A-18 / A-20 / A-GAP-02: a Move costs 1 action, 2 when Prone (stand up
    /// first), the whole turn when Restrained; too dear for the actions left → None.
    #[test]
    fn a_20_restrained_move_takes_the_turn() {
        assert_eq!(move_cost(2, &[]), Some(1));
        assert_eq!(move_cost(2, &[Condition::Prone]), Some(2), "A-18");
        assert_eq!(move_cost(1, &[Condition::Prone]), None, "A-18");
        assert_eq!(move_cost(2, &[Condition::Restrained]), Some(2), "A-20");
        assert_eq!(move_cost(1, &[Condition::Restrained]), Some(1), "A-20");
        assert_eq!(move_cost(0, &[]), None);
    }
}
