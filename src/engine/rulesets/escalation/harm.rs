//! Damage types, weakness and resistance by type, Staggered, and the Escalation
//! die's parity (E-10, E-12, E-13, E-18, E-45, E-GAP-16), as pure functions the
//! attack code and the systems share.

/// The damage types (E-10); an attack that names none deals `Weapon`.
pub const DAMAGE_TYPES: &[&str] = &[
    "Acid",
    "Cold",
    "Fire",
    "Force",
    "Lightning",
    "Necrotic",
    "Psychic",
    "Radiant",
    "Thunder",
    "Weapon",
];

/// The type of damage an attack deals when it names none (E-10).
pub const DEFAULT_TYPE: &str = "Weapon";

/// The known type with this name, any case, for level checks ("fire" → "Fire").
pub fn damage_type(name: &str) -> Option<&'static str> {
    DAMAGE_TYPES
        .iter()
        .copied()
        .find(|t| t.eq_ignore_ascii_case(name))
}

/// Whether a target weak to `weaknesses` is weak to an attack dealing `types`
/// (any of them: multi-type attacks count, E-13).
pub fn is_weak(types: &[&str], weaknesses: &[&str]) -> bool {
    types.iter().any(|t| weaknesses.contains(t))
}

/// The resistance that applies to an attack dealing `types`: the target's
/// "Resist X+" for one of them (E-12). With several types resisted, the lowest X
/// applies — it halves least often — so a mixed attack is not easier to resist than
/// either of its types (PROPOSED reading; the seed does not say).
pub fn resistance(types: &[&str], resists: &[(&str, i64)]) -> Option<i64> {
    resists
        .iter()
        .filter(|(t, _)| types.contains(t))
        .map(|&(_, x)| x)
        .min()
}

/// Staggered: HP at most half the maximum, rounded down, and above 0 (E-45,
/// E-GAP-16).
pub fn staggered(hp: i32, max_hp: i32) -> bool {
    hp > 0 && hp <= max_hp / 2
}

/// The parity of the Escalation die abilities may key off: `None` at 0, which is
/// neither even nor odd (E-18).
pub fn escalation_is_even(escalation: i32) -> Option<bool> {
    (escalation != 0).then_some(escalation % 2 == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rulesets::escalation::attack::crit_threshold;

    /// E-10: ten types, untyped damage is Weapon; names are read in any case.
    #[test]
    fn e_10_damage_types() {
        assert_eq!(DAMAGE_TYPES.len(), 10);
        assert_eq!(damage_type("fire"), Some("Fire"));
        assert_eq!(damage_type("Plasma"), None);
        assert!(DAMAGE_TYPES.contains(&DEFAULT_TYPE));
    }

    /// E-13 / E-EX-2: a fire attack on a target weak to fire crits on 16, on 15 if it
    /// is also Vulnerable; a multi-type attack counts if any type is a weakness.
    #[test]
    fn e_13_weakness_by_type() {
        let weak = is_weak(&["Fire"], &["Fire"]);
        assert_eq!(crit_threshold(weak, false), 16);
        assert_eq!(crit_threshold(weak, true), 15);
        assert!(is_weak(&["Cold", "Fire"], &["Fire"]));
        assert!(!is_weak(&["Weapon"], &["Fire"]));
    }

    /// E-12 / E-EX-3: Resist fire 14+ applies to fire, not to weapon damage.
    #[test]
    fn e_12_resistance_by_type() {
        let resists = [("Fire", 14), ("Cold", 12)];
        assert_eq!(resistance(&["Fire"], &resists), Some(14));
        assert_eq!(resistance(&["Weapon"], &resists), None);
        assert_eq!(resistance(&["Fire", "Cold"], &resists), Some(12));
    }

    /// E-45 / E-GAP-16: Staggered at HP <= floor(max / 2) and above 0.
    #[test]
    fn e_45_staggered() {
        assert!(staggered(10, 20));
        assert!(!staggered(11, 20));
        assert!(staggered(10, 21), "floor(21 / 2) = 10");
        assert!(!staggered(0, 20), "0 HP is not Staggered but Dying or out");
    }

    /// E-18: the Escalation die at 0 is neither even nor odd.
    #[test]
    fn e_18_parity() {
        assert_eq!(escalation_is_even(0), None);
        assert_eq!(escalation_is_even(3), Some(false));
        assert_eq!(escalation_is_even(4), Some(true));
    }
}
