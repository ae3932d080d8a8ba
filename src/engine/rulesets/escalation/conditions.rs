//! What `escalation`'s conditions do to rolls (E-54 … E-68), as data the attack and
//! save code read: Advantage and Disadvantage counts with their sources, whether the
//! Escalation die counts, the crit range. Differently named conditions stack; the
//! same name counts once (E-GAP-18). Confused's self-damage (E-54, E-EX-8) is here
//! too, since it hangs on the natural roll.

/// Confused (E-54).
pub const CONFUSED: &str = "Confused";
/// Dazed: 1 Disadvantage on attacks (E-55).
pub const DAZED: &str = "Dazed";
/// Enervated: 1 Disadvantage on saves (E-56).
pub const ENERVATED: &str = "Enervated";
/// Grabbed: the grabber gets 1 Advantage (E-58).
pub const GRABBED: &str = "Grabbed";
/// Hampered (E-59).
pub const HAMPERED: &str = "Hampered";
/// Helpless: Stunned, and open to a Coup de Grace (E-60).
pub const HELPLESS: &str = "Helpless";
/// Shaken: 1 Disadvantage on attacks, the Escalation die counts 0 (E-63).
pub const SHAKEN: &str = "Shaken";
/// Softened: attacks against it get 1 Advantage (E-64).
pub const SOFTENED: &str = "Softened";
/// Stuck: can't move (E-65).
pub const STUCK: &str = "Stuck";
/// Stunned: 1 Disadvantage on attacks, attacks against it get 1 Advantage, it loses
/// its move action (E-66).
pub const STUNNED: &str = "Stunned";
/// Vulnerable: attacks against it crit on 16+ (E-14, E-67).
pub const VULNERABLE: &str = "Vulnerable";
/// Weakened: 1 Disadvantage on attacks, attacks against it get 1 Advantage (E-68).
pub const WEAKENED: &str = "Weakened";

/// Staggered: at or below half its maximum HP, above 0 (E-45, E-GAP-16). It comes
/// and goes with the unit's HP, never from a power's `on_hit`; it does nothing by
/// itself, but a power may need a Staggered target (`Staggered target`).
pub const STAGGERED: &str = "Staggered";

/// Invisible: attackers must first roll an 11+ save or the attack has no effect
/// (E-61).
pub const INVISIBLE: &str = "Invisible";
/// Ongoing damage, taken at the end of the unit's turn before saves (E-62); the
/// condition's magnitude is the damage.
pub const ONGOING: &str = "Ongoing";

/// The reward of a Dicey Move: 1 Advantage on the unit's next attack, until the
/// end of its next turn (E-40, E-GAP-19).
pub const DICEY_EDGE: &str = "Dicey Edge";
/// The reward of a Dicey Move for an ally: 1 Advantage on its next Disengage, until
/// the end of the mover's next turn (E-40, E-GAP-19).
pub const DICEY_AID: &str = "Dicey Aid";
/// Popped off an enemy by a `Pop off` power (E-37): the condition's source is
/// that enemy, whom the unit's moves provoke no more until the end of its turn.
pub const POPPED_OFF: &str = "Popped off";

/// Fight in Spirit's boons, for one round (E-41): 1 Advantage on attacks,
pub const SPIRIT_ATTACKS: &str = "Spirit: attacks";
/// 1 Advantage on saves,
pub const SPIRIT_SAVES: &str = "Spirit: saves";
/// or 1 Disadvantage on attacks against the ally.
pub const SPIRIT_GUARD: &str = "Spirit: guard";

/// Every condition name the ruleset knows, for level checks and messages.
pub const NAMES: &[&str] = &[
    CONFUSED, DAZED, ENERVATED, GRABBED, HAMPERED, HELPLESS, INVISIBLE, ONGOING, SHAKEN, SOFTENED,
    STUCK, STUNNED, VULNERABLE, WEAKENED,
];

/// The Advantage and Disadvantage an attack gets, each with the condition it comes
/// from, netted into one count (E-GAP-02).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Edge {
    /// Sources of Advantage, one entry per count.
    pub advantage: Vec<String>,
    /// Sources of Disadvantage, one entry per count.
    pub disadvantage: Vec<String>,
}

impl Edge {
    /// Net Advantage (negative: Disadvantage).
    pub fn net(&self) -> i32 {
        self.advantage.len() as i32 - self.disadvantage.len() as i32
    }
}

fn has(conditions: &[&str], name: &str) -> bool {
    conditions.contains(&name)
}

/// The edge of an attack by a unit with `attacker` conditions on a unit with
/// `target` conditions; `grabbed_by_attacker` when the target is Grabbed by this
/// attacker (E-58). Each condition counts once however many times it is on the
/// unit (E-GAP-18); different ones add up (Weakened + Dazed = 2, E-68 note).
pub fn attack_edge(attacker: &[&str], target: &[&str], grabbed_by_attacker: bool) -> Edge {
    let mut e = Edge::default();
    // Helpless is Stunned (E-60): count it once, under Stunned.
    let stunned = |c: &[&str]| has(c, STUNNED) || has(c, HELPLESS);
    for name in [DAZED, SHAKEN, WEAKENED] {
        if has(attacker, name) {
            e.disadvantage.push(name.into());
        }
    }
    if stunned(attacker) {
        e.disadvantage.push(STUNNED.into());
    }
    if has(attacker, DICEY_EDGE) {
        e.advantage.push(DICEY_EDGE.into());
    }
    if has(attacker, SPIRIT_ATTACKS) {
        e.advantage.push(SPIRIT_ATTACKS.into());
    }
    if has(target, SPIRIT_GUARD) {
        e.disadvantage.push(format!("target {SPIRIT_GUARD}"));
    }
    for name in [SOFTENED, WEAKENED] {
        if has(target, name) {
            e.advantage.push(format!("target {name}"));
        }
    }
    if stunned(target) {
        e.advantage.push(format!("target {STUNNED}"));
    }
    if grabbed_by_attacker && has(target, GRABBED) {
        e.advantage.push(format!("target {GRABBED}"));
    }
    e
}

/// The Escalation die as an attacker counts it: 0 when Shaken (E-63, E-EX-5).
pub fn escalation_for(attacker: &[&str], escalation: i32) -> i32 {
    if has(attacker, SHAKEN) { 0 } else { escalation }
}

/// Disadvantage on a unit's saves from its conditions (E-56).
pub fn save_disadvantage(unit: &[&str]) -> i32 {
    i32::from(has(unit, ENERVATED))
}

/// The Advantage and Disadvantage on a unit's saves, with their sources: a Fight
/// in Spirit boon (E-41) against Enervated (E-56).
pub fn save_edge(unit: &[&str]) -> Edge {
    let mut e = Edge::default();
    if has(unit, SPIRIT_SAVES) {
        e.advantage.push(SPIRIT_SAVES.into());
    }
    if save_disadvantage(unit) > 0 {
        e.disadvantage.push(ENERVATED.into());
    }
    e
}

/// Net Advantage on a unit's saves ([`save_edge`]).
pub fn save_net(unit: &[&str]) -> i32 {
    save_edge(unit).net()
}

/// Whether the target's conditions widen the crit range (E-14, E-67).
pub fn vulnerable(target: &[&str]) -> bool {
    has(target, VULNERABLE)
}

/// What a Confused attacker takes after an attack: half the base damage it dealt,
/// before crit and resistance, when the natural roll is odd (E-54, E-EX-8). At 0 the
/// roll is neither odd nor even; a natural roll is at least 3.
pub fn confused_self_damage(natural: i64, base_damage: i64) -> i64 {
    if natural % 2 == 1 {
        base_damage.max(0) / 2
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rulesets::escalation::attack::{Attack, crit_threshold, damage};

    /// E-55, E-68 and the stacking note of §2: Weakened + Dazed = 2 Disadvantage; a
    /// condition listed twice counts once (E-GAP-18).
    #[test]
    fn e_55_e_68_different_conditions_stack_same_ones_do_not() {
        let e = attack_edge(&[WEAKENED, DAZED], &[], false);
        assert_eq!(e.net(), -2);
        assert_eq!(attack_edge(&[DAZED, DAZED], &[], false).net(), -1);
    }

    /// E-64, E-66, E-68, E-58: what makes attacks on a unit easier, netted against the
    /// attacker's Disadvantage (E-GAP-02).
    #[test]
    fn e_58_e_64_e_66_advantage_against_the_target() {
        let e = attack_edge(&[DAZED], &[SOFTENED, STUNNED, GRABBED], true);
        assert_eq!(e.advantage.len(), 3);
        assert_eq!(e.net(), 2);
        assert_eq!(
            attack_edge(&[], &[GRABBED], false).net(),
            0,
            "only the grabber"
        );
        assert_eq!(
            attack_edge(&[], &[HELPLESS], false).net(),
            1,
            "E-60: Helpless is Stunned"
        );
    }

    /// E-EX-1 (Shaken variant), E-63, E-EX-5: a Shaken PC has 1 Disadvantage and
    /// counts the Escalation die as 0.
    #[test]
    fn e_63_shaken() {
        assert_eq!(attack_edge(&[SHAKEN], &[], false).net(), -1);
        assert_eq!(escalation_for(&[SHAKEN], 4), 0);
        assert_eq!(escalation_for(&[DAZED], 4), 4);
    }

    /// E-56: Enervated gives 1 Disadvantage on saves; E-67: Vulnerable widens crits.
    #[test]
    fn e_56_e_67_saves_and_crits() {
        assert_eq!(save_disadvantage(&[ENERVATED]), 1);
        assert_eq!(save_disadvantage(&[DAZED]), 0);
        assert_eq!(crit_threshold(false, vulnerable(&[VULNERABLE])), 16);
    }

    /// E-EX-8: a Confused attacker with natural 9 hits Resist 14+ for base 10: the
    /// target takes 5, the attacker 5; natural 17 (a crit): the target takes 20, the
    /// attacker still 5.
    #[test]
    fn e_ex_8_confused_ordering() {
        let a = Attack {
            modifier: 20,
            net_advantage: 0,
            defense: 10,
            crit_at: 17,
            crit_fail_at: 3,
            dice: 1,
            die: 10,
            bonus: 0,
            resist: Some(14),
            miss_damage: 0,
        };
        assert_eq!(damage(&a, 9, 10), 5);
        assert_eq!(confused_self_damage(9, 10), 5);
        assert_eq!(damage(&a, 17, 10), 20);
        assert_eq!(confused_self_damage(17, 10), 5);
        assert_eq!(confused_self_damage(12, 10), 0, "even: nothing");
    }
}
