//! The `phases` ruleset's own narration events ([`PhasesEvent`]): what only it
//! tells — seizing the initiative, movement powers, opportunity attacks, its 2d6
//! attack rolls, saving throws, Defend and Delay. They change no state; the state
//! changes go through the core events.

use serde::Serialize;

use crate::engine::board::Cell;
use crate::engine::event::{ExtraDie, Narration};
use crate::engine::explain::{Explained, Term, extra_die_text};
use crate::engine::log::{Names, faces};
use crate::engine::units::UnitId;

/// Something only `phases` narrates (emitted with
/// [`crate::engine::battle::emit`], read back with
/// [`crate::engine::event::Event::narration`]); its JSON is `{"Variant": {...}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum PhasesEvent {
    /// A unit seized the initiative (P-15).
    Seized {
        /// The unit.
        unit: UnitId,
    },
    /// A unit used a movement power.
    MovementPowerUsed {
        /// The unit.
        unit: UnitId,
        /// The power.
        power: String,
        /// Its budget in squares.
        budget: u32,
    },
    /// Leaving a threatened cell provoked an opportunity attack (P-20).
    OpportunityAttack {
        /// The threatening unit that attacks.
        attacker: UnitId,
        /// The mover.
        mover: UnitId,
        /// The cell being left.
        cell: Cell,
    },
    /// An attack roll.
    AttackRolled {
        /// Attacker.
        attacker: UnitId,
        /// Target.
        target: UnitId,
        /// Power used.
        power: String,
        /// Named sources of advantage.
        advantage: Vec<String>,
        /// Named sources of disadvantage.
        disadvantage: Vec<String>,
        /// The extra die after netting, if any.
        extra_die: Option<ExtraDie>,
        /// Every face rolled, in order.
        faces: Vec<u32>,
        /// The faces kept.
        kept: Vec<u32>,
        /// Modifier added (ATK).
        modifier: i32,
        /// Total.
        total: i32,
        /// Defense needed.
        defense: i32,
        /// Whether it hit.
        hit: bool,
    },
    /// A saving throw (P-29).
    SaveRolled {
        /// The unit rolling.
        unit: UnitId,
        /// The unit carrying the effect.
        bearer: UnitId,
        /// The condition.
        condition: String,
        /// Faces.
        faces: Vec<u32>,
        /// Total.
        total: i32,
        /// Target number.
        target: i32,
        /// Whether it succeeded (ends a save-ends effect, keeps a sustained one).
        success: bool,
    },
    /// A unit defended (P-27).
    Defended {
        /// The unit.
        unit: UnitId,
    },
    /// A unit delayed (P-26).
    Delayed {
        /// The unit.
        unit: UnitId,
    },
    /// A held unit acts now.
    ActedFromDelay {
        /// The unit.
        unit: UnitId,
    },
}

impl Narration for PhasesEvent {
    fn text(&self, names: &Names<'_>) -> String {
        let n = |u: &UnitId| names.unit(*u);
        match self {
            PhasesEvent::Seized { unit } => format!(
                "{} seizes the initiative: moves first, battles last, grants advantage",
                n(unit)
            ),
            PhasesEvent::MovementPowerUsed {
                unit,
                power,
                budget,
            } => format!("{} uses {power} (up to {budget} squares)", n(unit)),
            PhasesEvent::OpportunityAttack {
                attacker,
                mover,
                cell,
            } => {
                format!(
                    "{} leaves {cell} threatened by {}: opportunity attack!",
                    n(mover),
                    n(attacker)
                )
            }
            PhasesEvent::AttackRolled {
                attacker,
                target,
                power,
                advantage,
                disadvantage,
                extra_die,
                faces: f,
                kept,
                modifier,
                total,
                defense,
                hit,
            } => {
                let mut s = format!("{} attacks {} with {power}: ", n(attacker), n(target));
                if let Some(x) = extra_die {
                    let how = if x.advantage {
                        "advantage"
                    } else {
                        "disadvantage"
                    };
                    s += &format!("{how} d{} [", x.sides);
                    let srcs: Vec<&String> = advantage.iter().chain(disadvantage).collect();
                    s += &srcs
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join("; ");
                    s += "], ";
                } else if !advantage.is_empty() || !disadvantage.is_empty() {
                    s += "advantage and disadvantage cancel, ";
                }
                s += &format!(
                    "rolls {} keeps {} {modifier:+} = {total} vs DEF {defense}: {}",
                    faces(f),
                    faces(kept),
                    if *hit { "HIT" } else { "miss" }
                );
                s
            }
            PhasesEvent::SaveRolled {
                unit,
                bearer,
                condition,
                faces: f,
                total,
                target,
                success,
            } => {
                let what = if unit == bearer {
                    format!("{} saves against {condition}", n(unit))
                } else {
                    format!("{} sustains {condition} on {}", n(unit), n(bearer))
                };
                format!(
                    "{what}: {} = {total} vs {target}+: {}",
                    faces(f),
                    if *success { "success" } else { "failure" }
                )
            }
            PhasesEvent::Defended { unit } => {
                format!("{} defends: attacks against it have disadvantage", n(unit))
            }
            PhasesEvent::Delayed { unit } => format!("{} delays", n(unit)),
            PhasesEvent::ActedFromDelay { unit } => format!("{} acts from its delay", n(unit)),
        }
    }

    fn explain(&self, names: &Names<'_>) -> Option<Explained> {
        let n = |u: &UnitId| names.unit(*u);
        match self {
            PhasesEvent::AttackRolled {
                attacker,
                target,
                power,
                advantage,
                disadvantage,
                extra_die,
                faces: f,
                kept,
                modifier,
                total,
                defense,
                hit,
            } => {
                let title = format!("{} attacks {} with {power}", n(attacker), n(target));
                let mut e = Explained::new(
                    title,
                    extra_die_text("2d6", *extra_die),
                    if *hit { "HIT" } else { "miss" },
                )
                .faces(f, kept);
                e.rules = vec!["P-23".into()];
                e.terms.push(Term::modifier("ATK", *modifier).rule("P-23"));
                e.terms
                    .extend(advantage.iter().map(|s| Term::source(s.clone(), true)));
                e.terms
                    .extend(disadvantage.iter().map(|s| Term::source(s.clone(), false)));
                if extra_die.is_none() && !(advantage.is_empty() && disadvantage.is_empty()) {
                    e.terms
                        .push(Term::note("advantage and disadvantage cancel").rule("P-GAP-03"));
                } else if let Some(x) = extra_die {
                    let rule = if x.advantage { "P-04" } else { "P-06" };
                    e.terms.push(
                        Term::note(format!("net sources give the extra d{}", x.sides)).rule(rule),
                    );
                }
                e.total = Some(*total);
                e.target = Some(format!("DEF {defense}"));
                Some(e)
            }
            PhasesEvent::SaveRolled {
                unit,
                bearer,
                condition,
                faces: f,
                total,
                target,
                success,
            } => {
                let title = if unit == bearer {
                    format!("{} saves against {condition}", n(unit))
                } else {
                    format!("{} sustains {condition} on {}", n(unit), n(bearer))
                };
                let mut e =
                    Explained::new(title, "2d6", if *success { "success" } else { "failure" })
                        .faces(f, f);
                e.rules = vec!["P-29".into()];
                e.total = Some(*total);
                e.target = Some(format!("{target}+"));
                Some(e)
            }
            _ => None,
        }
    }

    fn units(&self) -> Vec<UnitId> {
        match self {
            PhasesEvent::Seized { unit } => vec![*unit],
            PhasesEvent::MovementPowerUsed { unit, .. } => vec![*unit],
            PhasesEvent::OpportunityAttack {
                attacker, mover, ..
            } => vec![*mover, *attacker],
            PhasesEvent::AttackRolled {
                attacker, target, ..
            } => vec![*attacker, *target],
            PhasesEvent::SaveRolled { unit, bearer, .. } => {
                if unit == bearer {
                    vec![*unit]
                } else {
                    vec![*unit, *bearer]
                }
            }
            PhasesEvent::Defended { unit } => vec![*unit],
            PhasesEvent::Delayed { unit } => vec![*unit],
            PhasesEvent::ActedFromDelay { unit } => vec![*unit],
        }
    }
}
