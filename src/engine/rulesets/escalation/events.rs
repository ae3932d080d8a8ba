//! `escalation`'s own narration events ([`EscalationEvent`]): the Escalation die,
//! actions spent, stances, opportunity attacks, Intercepts, Delay, Rally,
//! Stabilize and fleeing. Rolls are told by the core's generic
//! [`crate::engine::event::Event::Rolled`]; state changes go through core events.

use serde::Serialize;

use super::actions::ActionKind;
use crate::engine::event::Narration;
use crate::engine::log::Names;
use crate::engine::units::{SideId, UnitId};

/// Something only `escalation` narrates; its JSON is `{"Variant": {...}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum EscalationEvent {
    /// The Escalation die shows a new value (E-18).
    EscalationDie {
        /// Its value now.
        value: i32,
    },
    /// A unit spent an action (E-21), possibly a better one in place of a lesser
    /// one (E-22).
    ActionSpent {
        /// The unit.
        unit: UnitId,
        /// What it did ("Move", "Basic Melee Attack", "Rally").
        what: String,
        /// The action type the deed needs.
        needs: ActionKind,
        /// The action type spent.
        spent: ActionKind,
    },
    /// A unit switched stance (E-09).
    StanceSwitched {
        /// The unit.
        unit: UnitId,
        /// The stance now ("Melee", "Ranged").
        stance: String,
    },
    /// Moving or a ranged attack while engaged provoked an opportunity attack
    /// (E-36, E-38).
    Provoked {
        /// The enemy that attacks.
        attacker: UnitId,
        /// The unit that provoked it.
        mover: UnitId,
    },
    /// A Free unit intercepted a moving enemy (E-39, E-GAP-13).
    Intercepted {
        /// The interceptor.
        unit: UnitId,
        /// The enemy stopped.
        mover: UnitId,
        /// The ally it was approaching.
        ally: UnitId,
    },
    /// A unit delayed to a lower band for the rest of the battle (E-19).
    Delayed {
        /// The unit.
        unit: UnitId,
        /// The band's name.
        band: String,
    },
    /// A death save brought a Dying PC back; `now`: it acts at once (E-50).
    Recovered {
        /// The unit.
        unit: UnitId,
        /// A crit: it takes this turn.
        now: bool,
    },
    /// A failed death save (E-50).
    DeathSaveFailed {
        /// The unit.
        unit: UnitId,
        /// Failures so far.
        failures: u32,
        /// Failures that kill.
        limit: u32,
        /// Stabilized: the failure does not count.
        stabilized: bool,
    },
    /// An ally stabilized a Dying PC (E-51).
    Stabilized {
        /// The stabilizer.
        unit: UnitId,
        /// The Dying PC.
        target: UnitId,
    },
    /// A Recovery was spent (E-47).
    RecoverySpent {
        /// The unit.
        unit: UnitId,
        /// Recoveries left.
        left: u32,
    },
    /// Healed with no Recoveries left: −1 to Volition and defenses (E-47).
    Exhausted {
        /// The unit.
        unit: UnitId,
        /// The penalty now.
        penalty: i32,
    },
    /// A side fled the battle (E-42, E-GAP-22).
    Fled {
        /// The side.
        side: SideId,
    },
    /// A dying unit's turn: it can't act (E-46, E-GAP-15).
    CannotAct {
        /// The unit.
        unit: UnitId,
        /// Why.
        why: String,
    },
    /// The Surprise Round begins: only these units act (E-17, E-GAP-10).
    SurpriseRound {
        /// The ambushers.
        units: Vec<UnitId>,
    },
    /// A unit readied an action (E-20).
    Readied {
        /// The unit.
        unit: UnitId,
        /// The action: an attack, a power, "a Move to (x, y)".
        attack: String,
        /// Its trigger in words.
        when: String,
    },
    /// A readied attack went off before the trigger's action (E-20).
    ReadiedFires {
        /// The unit that readied it.
        unit: UnitId,
        /// The enemy that triggered it.
        trigger: UnitId,
    },
    /// A readied attack lapsed unused at the start of its unit's turn (E-20).
    ReadyLapsed {
        /// The unit.
        unit: UnitId,
    },
    /// A unit used an Interrupt power off its turn (E-24).
    Interrupted {
        /// The unit.
        unit: UnitId,
        /// The power.
        power: String,
        /// The enemy whose action set it off.
        trigger: UnitId,
    },
    /// A Confused attacker hurt itself (E-54).
    ConfusedSelfHarm {
        /// The unit.
        unit: UnitId,
    },
}

impl Narration for EscalationEvent {
    fn text(&self, names: &Names<'_>) -> String {
        let n = |u: &UnitId| names.unit(*u);
        match self {
            EscalationEvent::EscalationDie { value } => {
                format!("The Escalation die shows {value}")
            }
            EscalationEvent::ActionSpent {
                unit,
                what,
                needs,
                spent,
            } if needs != spent => format!(
                "{} uses its {} action as a {} action: {what}",
                n(unit),
                spent.name(),
                needs.name()
            ),
            EscalationEvent::ActionSpent {
                unit, what, spent, ..
            } => format!("{} spends its {} action: {what}", n(unit), spent.name()),
            EscalationEvent::StanceSwitched { unit, stance } => {
                format!("{} switches to {stance} stance", n(unit))
            }
            EscalationEvent::Provoked { attacker, mover } => format!(
                "{} provokes an opportunity attack from {}",
                n(mover),
                n(attacker)
            ),
            EscalationEvent::Intercepted { unit, mover, ally } => format!(
                "{} intercepts {} on its way to {}",
                n(unit),
                n(mover),
                n(ally)
            ),
            EscalationEvent::Delayed { unit, band } => {
                format!(
                    "{} delays to the {band} band for the rest of the battle",
                    n(unit)
                )
            }
            EscalationEvent::Recovered { unit, now: true } => {
                format!(
                    "{} rises with a critical death save and acts at once",
                    n(unit)
                )
            }
            EscalationEvent::Recovered { unit, now: false } => {
                format!("{} is back on its feet; it acts next turn", n(unit))
            }
            EscalationEvent::DeathSaveFailed {
                unit,
                stabilized: true,
                ..
            } => format!("{} fails a death save, but is stabilized", n(unit)),
            EscalationEvent::DeathSaveFailed {
                unit,
                failures,
                limit,
                ..
            } => format!("{} fails a death save ({failures} of {limit})", n(unit)),
            EscalationEvent::Stabilized { unit, target } => {
                format!("{} stabilizes {}", n(unit), n(target))
            }
            EscalationEvent::RecoverySpent { unit, left } => {
                format!("{} spends a Recovery ({left} left)", n(unit))
            }
            EscalationEvent::Exhausted { unit, penalty } => format!(
                "{} healed with no Recoveries left: -{penalty} to Volition and defenses (E-47)",
                n(unit)
            ),
            EscalationEvent::Fled { side } => format!("{} flees the battle", names.side(*side)),
            EscalationEvent::CannotAct { unit, why } => format!("{} can't act: {why}", n(unit)),
            EscalationEvent::ConfusedSelfHarm { unit } => {
                format!("{} is Confused and hurts itself", n(unit))
            }
            EscalationEvent::SurpriseRound { units } => {
                format!("Surprise round: {} act first", names.units(units))
            }
            EscalationEvent::Readied { unit, attack, when } => {
                format!("{} readies {attack}: it goes off {when}", n(unit))
            }
            EscalationEvent::ReadiedFires { unit, trigger } => format!(
                "{}'s readied action goes off before {} acts",
                n(unit),
                n(trigger)
            ),
            EscalationEvent::Interrupted {
                unit,
                power,
                trigger,
            } => format!(
                "{} interrupts: {power} against {} (its Interrupt this round)",
                n(unit),
                n(trigger)
            ),
            EscalationEvent::ReadyLapsed { unit } => {
                format!("{}'s readied action lapses unused", n(unit))
            }
        }
    }

    fn units(&self) -> Vec<UnitId> {
        match self {
            EscalationEvent::EscalationDie { .. } | EscalationEvent::Fled { .. } => Vec::new(),
            EscalationEvent::ActionSpent { unit, .. }
            | EscalationEvent::StanceSwitched { unit, .. }
            | EscalationEvent::Delayed { unit, .. }
            | EscalationEvent::Recovered { unit, .. }
            | EscalationEvent::DeathSaveFailed { unit, .. }
            | EscalationEvent::RecoverySpent { unit, .. }
            | EscalationEvent::Exhausted { unit, .. }
            | EscalationEvent::CannotAct { unit, .. }
            | EscalationEvent::ConfusedSelfHarm { unit }
            | EscalationEvent::Readied { unit, .. }
            | EscalationEvent::ReadyLapsed { unit } => vec![*unit],
            EscalationEvent::ReadiedFires { unit, trigger }
            | EscalationEvent::Interrupted { unit, trigger, .. } => vec![*unit, *trigger],
            EscalationEvent::SurpriseRound { units } => units.clone(),
            EscalationEvent::Provoked { attacker, mover } => vec![*mover, *attacker],
            EscalationEvent::Intercepted { unit, mover, ally } => vec![*unit, *mover, *ally],
            EscalationEvent::Stabilized { unit, target } => vec![*unit, *target],
        }
    }
}
