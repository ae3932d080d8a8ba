//! `wounds`' own narration events ([`WoundsEvent`]): actions spent, Bonus Action
//! boosts, free hits and the slots they use, the links of crit and tragedy chains,
//! wounds and their effects, delays and surrender. Rolls are told by the core's
//! [`crate::engine::event::Event::Rolled`], one line per die of a chain; state
//! changes go through core events.

use serde::Serialize;

use crate::engine::event::Narration;
use crate::engine::log::Names;
use crate::engine::units::{SideId, UnitId};

/// Something only `wounds` narrates; its JSON is `{"Variant": {...}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum WoundsEvent {
    /// The battle's turn order is fixed (W-02, W-03, W-GAP-10).
    OrderFixed {
        /// The units, first to act first.
        order: Vec<UnitId>,
    },
    /// A unit spent actions (W-06 … W-11): "AA", "MA", "BA", "MA + 2 BA" ...
    Spent {
        /// The unit.
        unit: UnitId,
        /// What for ("attack", "Disengage", "2 more spaces").
        what: String,
        /// The actions, e.g. "1 BA".
        actions: String,
    },
    /// A unit's movement draws a free hit (W-26, W-GAP-14, W-GAP-15).
    FreeHit {
        /// Who hits.
        attacker: UnitId,
        /// Who moves.
        mover: UnitId,
        /// Why: "leaves its melee zone", "moves a 3rd space inside its melee zone",
        /// "rolled a natural 1 in its melee zone".
        why: String,
        /// Slots left after this one.
        slots_left: u32,
    },
    /// A free hit was due but its unit has no Free Hit Slot left (W-27, W-EX-5).
    NoSlot {
        /// The unit without slots.
        unit: UnitId,
        /// Who moved or attacked.
        mover: UnitId,
    },
    /// A crit or tragedy chain went one link further (W-21, W-23).
    Chain {
        /// The unit that rolled the chain.
        unit: UnitId,
        /// What it became: "a super critical (×4)", "a tragedy", ...
        became: String,
    },
    /// A wound was dealt (W-18), with its effect (W-17).
    Wounded {
        /// The wounded unit.
        unit: UnitId,
        /// The aim's name.
        aim: String,
        /// What the wound does, in words.
        effect: String,
    },
    /// A wound healed (W-19).
    WoundHealed {
        /// The unit.
        unit: UnitId,
        /// The aim's name.
        aim: String,
    },
    /// A unit was defeated instantly by a chain (W-21, W-24).
    Slain {
        /// The unit.
        unit: UnitId,
        /// By whom.
        by: UnitId,
        /// How: "the crit chain", "a fatal blow".
        how: String,
    },
    /// A unit delayed its turn to after another this round (W-04, W-GAP-12).
    Delayed {
        /// The unit.
        unit: UnitId,
        /// The unit it waits for.
        after: UnitId,
    },
    /// A unit's turn passes with nothing it can do (summoning sickness, W-GAP-23).
    CannotAct {
        /// The unit.
        unit: UnitId,
        /// Why.
        why: String,
    },
    /// A unit canceled the spell it channeled or upkept (W-33).
    Canceled {
        /// The caster.
        unit: UnitId,
        /// The spell.
        spell: String,
    },
    /// A side lost the will to fight (W-05, W-GAP-21).
    Surrendered {
        /// The side.
        side: SideId,
        /// Why, for an AI side: its share of its starting HP left.
        why: String,
    },
    /// A unit's Free Hit Slots for the round (W-27, W-GAP-16).
    Slots {
        /// Every unit in play with its slots, in roster order.
        slots: Vec<(UnitId, u32)>,
    },
    /// The winners' MP is refilled after the battle (W-05).
    MpRefilled {
        /// The side.
        side: SideId,
    },
}

impl Narration for WoundsEvent {
    fn text(&self, names: &Names<'_>) -> String {
        let n = |u: &UnitId| names.unit(*u);
        match self {
            WoundsEvent::OrderFixed { order } => {
                format!("Turn order for the battle: {}", names.units(order))
            }
            WoundsEvent::Spent {
                unit,
                what,
                actions,
            } => {
                format!("{} spends {actions}: {what}", n(unit))
            }
            WoundsEvent::FreeHit {
                attacker,
                mover,
                why,
                slots_left,
            } => format!(
                "{} {why}: free hit from {} ({slots_left} Free Hit Slot{} left)",
                n(mover),
                n(attacker),
                if *slots_left == 1 { "" } else { "s" }
            ),
            WoundsEvent::NoSlot { unit, mover } => format!(
                "{} has no Free Hit Slot left this round: no free hit on {}",
                n(unit),
                n(mover)
            ),
            WoundsEvent::Chain { unit, became } => format!("{}'s roll becomes {became}", n(unit)),
            WoundsEvent::Wounded { unit, aim, effect } => {
                format!("{} takes a {aim} wound: {effect}", n(unit))
            }
            WoundsEvent::WoundHealed { unit, aim } => {
                format!("{}'s {aim} wound heals", n(unit))
            }
            WoundsEvent::Slain { unit, by, how } => {
                format!("{} is defeated instantly by {}: {how}", n(unit), n(by))
            }
            WoundsEvent::Delayed { unit, after } => {
                format!("{} delays its turn until after {}", n(unit), n(after))
            }
            WoundsEvent::CannotAct { unit, why } => format!("{} can't act: {why}", n(unit)),
            WoundsEvent::Canceled { unit, spell } => {
                format!(
                    "{} cancels {spell}: no longer channeling it (W-33)",
                    n(unit)
                )
            }
            WoundsEvent::Surrendered { side, why } => {
                format!(
                    "{} loses the will to fight and surrenders{why}",
                    names.side(*side)
                )
            }
            WoundsEvent::Slots { slots } => format!(
                "Free Hit Slots this round: {}",
                slots
                    .iter()
                    .map(|(u, s)| format!("{} {s}", n(u)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            WoundsEvent::MpRefilled { side } => {
                format!("{}'s MP is refilled", names.side(*side))
            }
        }
    }

    fn units(&self) -> Vec<UnitId> {
        match self {
            WoundsEvent::OrderFixed { order } => order.clone(),
            WoundsEvent::Surrendered { .. } | WoundsEvent::MpRefilled { .. } => Vec::new(),
            WoundsEvent::Slots { slots } => slots.iter().map(|&(u, _)| u).collect(),
            WoundsEvent::Spent { unit, .. }
            | WoundsEvent::Chain { unit, .. }
            | WoundsEvent::Wounded { unit, .. }
            | WoundsEvent::WoundHealed { unit, .. }
            | WoundsEvent::CannotAct { unit, .. }
            | WoundsEvent::Canceled { unit, .. } => vec![*unit],
            WoundsEvent::FreeHit {
                attacker, mover, ..
            } => vec![*mover, *attacker],
            WoundsEvent::NoSlot { unit, mover } => vec![*mover, *unit],
            WoundsEvent::Slain { unit, by, .. } => vec![*unit, *by],
            WoundsEvent::Delayed { unit, after } => vec![*unit, *after],
        }
    }
}
