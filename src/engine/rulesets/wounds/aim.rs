//! Aimed attacks and the wounds they leave (W-17 … W-19, W-GAP-07 … W-GAP-09): where
//! an attack aims, the lasting effects of each wound as modifiers that stack, and
//! their removal by a healing instance of 6+ HP, the most recent wound first.

use super::config::WoundsConfig;
use crate::engine::verb::{ArgKind, ArgSpec, ArgValue, Args, ChoiceSpec, Offer};

/// The option `wounds` declares for its attacks: `aim`, where the attack aims (one
/// of [`Aim::ALL`] by name, offered in that order; left out, Center Mass, W-17).
pub const ATTACK_OPTIONS: &[ArgSpec] = &[ArgSpec::optional(AIM, ArgKind::Name).offering(Offer {
    names: PLACES,
    default: "Center Mass",
})];

/// The places an attack aims at, as [`Aim::ALL`] names them.
const PLACES: &[ChoiceSpec] = &[
    ChoiceSpec {
        value: "Fatal",
        label: "Fatal",
    },
    ChoiceSpec {
        value: "Slowing",
        label: "Slowing",
    },
    ChoiceSpec {
        value: "Weakening",
        label: "Weakening",
    },
    ChoiceSpec {
        value: "Disrupting",
        label: "Disrupting",
    },
    ChoiceSpec {
        value: "Center Mass",
        label: "Center Mass",
    },
];

const AIM: &str = "aim";

/// The aim an attack's options name, as written.
pub fn aim_of(options: &Args) -> Option<&str> {
    options.name(AIM)
}

/// The options of an attack aimed at `aim` (none: unaimed).
pub fn aim_options(aim: Option<String>) -> Args {
    Args::new().with_opt(AIM, aim.map(ArgValue::Name))
}

/// Where a physical attack aims (W-17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Aim {
    /// Throat, heart, head: a wound may add 16 damage (W-17, W-GAP-06).
    Fatal,
    /// Legs, feet: a wound takes movement and Agility.
    Slowing,
    /// Arms: a wound takes Strength and a Bonus Action.
    Weakening,
    /// Eyes, ears, nose, hands: a wound takes Accuracy, more in its round.
    Disrupting,
    /// No wound effect; +1 accuracy to the attack. An attack that names no aim.
    CenterMass,
}

impl Aim {
    /// Every aim, in the seed's order.
    pub const ALL: [Aim; 5] = [
        Aim::Fatal,
        Aim::Slowing,
        Aim::Weakening,
        Aim::Disrupting,
        Aim::CenterMass,
    ];

    /// Its name as commands and the log write it.
    pub fn name(self) -> &'static str {
        match self {
            Aim::Fatal => "Fatal",
            Aim::Slowing => "Slowing",
            Aim::Weakening => "Weakening",
            Aim::Disrupting => "Disrupting",
            Aim::CenterMass => "Center Mass",
        }
    }

    /// The aim a command names; no aim is Center Mass (W-GAP-07). The error names
    /// the aim as written and the valid ones.
    pub fn from_command(aim: Option<&str>) -> Result<Aim, String> {
        let Some(text) = aim else {
            return Ok(Aim::CenterMass);
        };
        let wanted: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        Aim::ALL
            .into_iter()
            .find(|a| a.name().replace(' ', "").eq_ignore_ascii_case(&wanted))
            .ok_or_else(|| {
                let names: Vec<&str> = Aim::ALL.iter().map(|a| a.name()).collect();
                format!(
                    "`{text}` is not a place to aim; expected one of {}",
                    names.join(", ")
                )
            })
    }

    /// Accuracy it adds to its attack: Center Mass +1, the wound aims nothing
    /// (W-17, W-GAP-07).
    pub fn accuracy_bonus(self, cfg: &WoundsConfig) -> i64 {
        match self {
            Aim::CenterMass => cfg.center_mass_bonus,
            _ => 0,
        }
    }

    /// Whether a wound dealt with this aim has a lasting effect (all but Center Mass,
    /// whose wound changes nothing, W-GAP-07).
    pub fn has_effect(self) -> bool {
        self != Aim::CenterMass
    }
}

/// One wound: where it was aimed and the round it was dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wound {
    /// The aim of the attack that dealt it.
    pub aim: Aim,
    /// The round it was dealt (for Disrupting's −3 that round, W-GAP-09).
    pub round: u32,
}

/// What a unit's wounds change, summed: each is added to the stat (negative).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modifiers {
    /// Added to the Agility modifier (Slowing).
    pub agility: i64,
    /// Added to the Accuracy modifier (Disrupting).
    pub accuracy: i64,
    /// Added to the Strength modifier (Weakening).
    pub strength: i64,
    /// Added to the spaces of a Move action (Slowing); movement never goes below 0
    /// (W-GAP-08).
    pub movement: i64,
    /// Added to the Bonus Actions of a turn (Weakening); never below 0 (W-GAP-08).
    pub bonus_actions: i64,
}

/// A unit's wounds with a lasting effect, oldest first (W-GAP-08: each tracked
/// separately, effects stacking).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wounds {
    list: Vec<Wound>,
}

impl Wounds {
    /// No wounds.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a wound dealt in `round` by an attack aimed at `aim`; `false` (nothing
    /// recorded) for Center Mass, whose wound has no effect (W-GAP-07), when the
    /// configuration's `heal_center_mass` is off, so that healing never spends
    /// itself on it. With it on (the default, W-GAP-08), a Center Mass wound is kept
    /// and is the one a healing instance removes when it is the most recent.
    pub fn inflict(&mut self, aim: Aim, round: u32, cfg: &WoundsConfig) -> bool {
        if !aim.has_effect() && !cfg.heal_center_mass {
            return false;
        }
        self.list.push(Wound { aim, round });
        true
    }

    /// A healing instance of `amount` HP: 6 or more removes the most recent wound,
    /// which is returned (W-19, W-GAP-08).
    pub fn heal(&mut self, amount: i64, cfg: &WoundsConfig) -> Option<Wound> {
        if amount >= cfg.heal_removes_wound {
            self.list.pop()
        } else {
            None
        }
    }

    /// The wounds, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &Wound> {
        self.list.iter()
    }

    /// How many wounds.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// What the wounds change in round `round` (W-17, W-GAP-08, W-GAP-09): Slowing
    /// −2 movement and −1 Agility, Weakening −1 Strength and −1 Bonus Action,
    /// Disrupting −1 Accuracy, −3 in all during the round it was dealt.
    pub fn modifiers(&self, round: u32, cfg: &WoundsConfig) -> Modifiers {
        let mut m = Modifiers::default();
        for w in &self.list {
            match w.aim {
                Aim::Slowing => {
                    m.movement -= cfg.slowing_movement;
                    m.agility -= cfg.slowing_agility;
                }
                Aim::Weakening => {
                    m.strength -= cfg.weakening_strength;
                    m.bonus_actions -= cfg.weakening_bonus_actions;
                }
                Aim::Disrupting if w.round == round => m.accuracy -= cfg.disrupting_round_accuracy,
                Aim::Disrupting => m.accuracy -= cfg.disrupting_accuracy,
                Aim::Fatal | Aim::CenterMass => {}
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::config::load_default;

    fn cfg() -> WoundsConfig {
        load_default().unwrap()
    }

    /// W-17 / W-GAP-07: aims by name; none is Center Mass; a bad one is named.
    #[test]
    fn w_17_w_gap_07_aims_by_name() {
        assert_eq!(Aim::from_command(None), Ok(Aim::CenterMass));
        assert_eq!(Aim::from_command(Some("Slowing")), Ok(Aim::Slowing));
        assert_eq!(Aim::from_command(Some("center mass")), Ok(Aim::CenterMass));
        assert_eq!(Aim::from_command(Some("CenterMass")), Ok(Aim::CenterMass));
        let err = Aim::from_command(Some("Kneecap")).unwrap_err();
        assert_eq!(
            err,
            "`Kneecap` is not a place to aim; expected one of Fatal, Slowing, Weakening, \
             Disrupting, Center Mass"
        );
        let c = cfg();
        let bonus: Vec<i64> = Aim::ALL.iter().map(|a| a.accuracy_bonus(&c)).collect();
        assert_eq!(bonus, [0, 0, 0, 0, 1]);
    }

    /// W-17 / W-EX-1: one Slowing wound: movement −2, Agility −1.
    #[test]
    fn w_ex_1_slowing_wound() {
        let c = cfg();
        let mut w = Wounds::new();
        assert!(w.inflict(Aim::Slowing, 1, &c));
        let m = w.modifiers(1, &c);
        assert_eq!((m.movement, m.agility), (-2, -1));
        assert_eq!((m.accuracy, m.strength, m.bonus_actions), (0, 0, 0));
    }

    /// W-GAP-08: wounds stack (two Slowing: movement −4, Agility −2; Weakening −1
    /// Strength, −1 BA); W-GAP-07: with `heal_center_mass` off a Center Mass wound
    /// records nothing.
    #[test]
    fn w_gap_08_wounds_stack() {
        let c = cfg();
        let mut w = Wounds::new();
        w.inflict(Aim::Slowing, 1, &c);
        w.inflict(Aim::Slowing, 2, &c);
        w.inflict(Aim::Weakening, 2, &c);
        let mut skip = c.clone();
        skip.heal_center_mass = false;
        assert!(!w.inflict(Aim::CenterMass, 2, &skip));
        assert_eq!(w.len(), 3);
        let m = w.modifiers(3, &c);
        assert_eq!(
            m,
            Modifiers {
                agility: -2,
                accuracy: 0,
                strength: -1,
                movement: -4,
                bonus_actions: -1
            }
        );
    }

    /// W-EX-7 / W-GAP-09 / W-19: Accuracy +4, a Disrupting wound in round 2: +1 for
    /// the rest of round 2, +3 from round 3 on; healed by 6 in round 4: +4 again.
    #[test]
    fn w_ex_7_disrupting_then_healed() {
        let c = cfg();
        let mut w = Wounds::new();
        w.inflict(Aim::Disrupting, 2, &c);
        let acc = |w: &Wounds, round| 4 + w.modifiers(round, &c).accuracy;
        assert_eq!(acc(&w, 2), 1);
        assert_eq!(acc(&w, 3), 3);
        assert_eq!(acc(&w, 4), 3);
        assert_eq!(w.heal(5, &c), None, "5 HP removes no wound");
        assert_eq!(acc(&w, 4), 3);
        assert_eq!(w.heal(6, &c).map(|w| w.aim), Some(Aim::Disrupting));
        assert_eq!(acc(&w, 4), 4);
        assert!(w.is_empty());
    }

    /// W-19 / W-GAP-08: one 6+ healing instance removes one wound, the most recent.
    #[test]
    fn w_19_heal_removes_the_most_recent_wound() {
        let c = cfg();
        let mut w = Wounds::new();
        w.inflict(Aim::Slowing, 1, &c);
        w.inflict(Aim::Weakening, 2, &c);
        assert_eq!(
            w.heal(30, &c),
            Some(Wound {
                aim: Aim::Weakening,
                round: 2
            })
        );
        let aims: Vec<Aim> = w.iter().map(|w| w.aim).collect();
        assert_eq!(aims, [Aim::Slowing]);
        assert_eq!(w.modifiers(2, &c).strength, 0);
        assert_eq!(w.modifiers(2, &c).movement, -2);
    }

    /// W-GAP-08 / W-19 with `heal_center_mass`: on (the default) a Center Mass wound
    /// is the most recent one and healing removes it, the Slowing wound stays; off,
    /// it was never kept and healing removes the Slowing wound.
    #[test]
    fn w_gap_08_healing_and_center_mass_wounds() {
        let c = cfg();
        assert!(c.heal_center_mass, "RULES.md's reading is the default");
        let mut off = c.clone();
        off.heal_center_mass = false;
        for (cfg, healed, left) in [
            (&c, Aim::CenterMass, vec![Aim::Slowing]),
            (&off, Aim::Slowing, vec![]),
        ] {
            let mut w = Wounds::new();
            w.inflict(Aim::Slowing, 1, cfg);
            w.inflict(Aim::CenterMass, 1, cfg);
            assert_eq!(w.modifiers(1, cfg).movement, -2);
            assert_eq!(w.heal(6, cfg).map(|w| w.aim), Some(healed));
            assert_eq!(w.iter().map(|w| w.aim).collect::<Vec<_>>(), left);
        }
    }
}
