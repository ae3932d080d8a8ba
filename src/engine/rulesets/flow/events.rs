//! The `flow` ruleset's own narration events ([`FlowEvent`]): what only it tells —
//! d100 skill checks and opposed checks, reactions, how a hit's damage is worked out,
//! misses, interceptions, readied attacks and surprise rounds. They change no state;
//! the state changes (AP, RP, FP, damage, conditions, items) go through the core
//! events.

use serde::Serialize;

use super::reactions::Reaction;
use crate::engine::event::Narration;
use crate::engine::explain::{Explained, Term};
use crate::engine::log::{Names, edge_name, faces};
use crate::engine::skill::{Edge, SuccessLevel};
use crate::engine::units::{SideId, UnitId};

/// Something only `flow` narrates (emitted with [`crate::engine::battle::emit`],
/// read back with [`crate::engine::event::Event::narration`]); its JSON is
/// `{"Variant": {...}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum FlowEvent {
    /// A percentile skill check (flow, F-GAP-01, F-GAP-02).
    SkillChecked {
        /// Who rolled.
        unit: UnitId,
        /// The skill.
        skill: String,
        /// What for ("attack on Orc", "Parry", ...).
        purpose: String,
        /// Effective skill: succeed at or under it.
        target: i32,
        /// The modifiers behind the target ("gang-up +10", ...).
        modifiers: Vec<String>,
        /// Advantage or disadvantage, if any.
        edge: Option<Edge>,
        /// Faces in the order drawn.
        faces: Vec<u32>,
        /// The roll that counts.
        roll: u32,
        /// Its level.
        level: SuccessLevel,
    },
    /// An opposed check was settled (flow, F-GAP-03).
    OpposedCheck {
        /// The acting side (attacker, feinter, shover, grappler).
        actor: UnitId,
        /// The responding side (defender, target).
        responder: UnitId,
        /// The actor's level.
        actor_level: SuccessLevel,
        /// What the actor's level counts as (a larger attacker against a Parry, F-24).
        counted_as: SuccessLevel,
        /// The responder's level.
        responder_level: SuccessLevel,
        /// Whether the responder won (ties go to the responder).
        responder_wins: bool,
    },
    /// A unit reacted (flow, F-10).
    Reacted {
        /// The reacting unit.
        unit: UnitId,
        /// The reaction.
        reaction: Reaction,
        /// The enemy it reacts to.
        against: UnitId,
    },
    /// An enemy's action in a unit's threat range provoked a Reaction Attack (F-25 … F-26, F-47).
    ReactionAttackProvoked {
        /// The unit that may attack.
        attacker: UnitId,
        /// The enemy that provoked it.
        target: UnitId,
        /// What it did.
        trigger: String,
    },
    /// An attack hit: how its damage is worked out (flow, F-GAP-06).
    Struck {
        /// Attacker.
        attacker: UnitId,
        /// The unit hit.
        target: UnitId,
        /// Weapon.
        weapon: String,
        /// The attack's real success level (damage follows it, F-24).
        level: SuccessLevel,
        /// Damage bonus of the level.
        bonus: i32,
        /// 1, or 2 for a critical, 3 against a critically failed Dodge/Parry (F-23).
        multiplier: i32,
        /// Armor subtracted after the multiplier.
        armor: i32,
    },
    /// An attack did no harm.
    Missed {
        /// Attacker.
        attacker: UnitId,
        /// Target.
        target: UnitId,
        /// Why ("the check failed", "parried", ...).
        reason: String,
    },
    /// An ally took an attack in the target's place (F-31).
    Intercepted {
        /// The interceptor.
        interceptor: UnitId,
        /// The ally it protected.
        ally: UnitId,
        /// The attacker.
        attacker: UnitId,
    },
    /// A unit readied an attack on the first enemy to enter its reach (F-37).
    Readied {
        /// The unit.
        unit: UnitId,
        /// The weapon.
        weapon: String,
        /// AP set aside.
        ap: i32,
    },
    /// A readied action went off; the unit now acts just before `by` (F-37, F-GAP-18).
    ReadyTriggered {
        /// The readied unit.
        unit: UnitId,
        /// The unit that triggered it.
        by: UnitId,
    },
    /// A unit readied an action other than the attack on an enemy entering reach
    /// (F-37, seed L117–118).
    ReadiedAction {
        /// The unit.
        unit: UnitId,
        /// What it readied ("a Step to (3, 4)").
        action: String,
        /// Its trigger ("for when an enemy starts casting a spell").
        trigger: String,
        /// AP set aside.
        ap: i32,
    },
    /// Such a readied action went off; the unit now acts just before `by` (F-37,
    /// F-GAP-18).
    ReadiedActionTriggered {
        /// The readied unit.
        unit: UnitId,
        /// The unit that set it off.
        by: UnitId,
        /// What it readied.
        action: String,
    },
    /// A readied action went off but could not be done now (the hex is taken, the
    /// enemy is too large to shove …): it is lost with its AP (F-37, F-GAP-18).
    ReadyLost {
        /// The readied unit.
        unit: UnitId,
        /// Why.
        reason: String,
    },
    /// A surprise round: only these sides act (F-43).
    SurpriseRound {
        /// The surprising sides.
        surprisers: Vec<SideId>,
    },
}

impl Narration for FlowEvent {
    fn text(&self, names: &Names<'_>) -> String {
        let n = |u: &UnitId| names.unit(*u);
        let side = |s: &SideId| names.side(*s);
        match self {
            FlowEvent::SkillChecked {
                unit,
                skill,
                purpose,
                target,
                modifiers,
                edge,
                faces: f,
                roll,
                level,
            } => {
                let mods = if modifiers.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", modifiers.join("; "))
                };
                let rolled = match edge {
                    None => format!("rolls {roll}"),
                    Some(e) => format!("rolls {} with {}, keeps {roll}", faces(f), edge_name(*e)),
                };
                format!(
                    "{} {purpose}: {skill} {target}{mods}, {rolled}: {level}",
                    n(unit)
                )
            }
            FlowEvent::OpposedCheck {
                actor,
                responder,
                actor_level,
                counted_as,
                responder_level,
                responder_wins,
            } => {
                let bump = if counted_as != actor_level {
                    format!(" (counts as {counted_as}: larger attacker)")
                } else {
                    String::new()
                };
                let winner = if *responder_wins { responder } else { actor };
                format!(
                    "{} {actor_level}{bump} vs {} {responder_level}: {} wins",
                    n(actor),
                    n(responder),
                    n(winner)
                )
            }
            FlowEvent::Reacted {
                unit,
                reaction,
                against,
            } => format!("{} reacts to {}: {reaction}!", n(unit), n(against)),
            FlowEvent::ReactionAttackProvoked {
                attacker,
                target,
                trigger,
            } => format!(
                "{} {trigger} in {}'s threat range: a Reaction Attack is possible",
                n(target),
                n(attacker)
            ),
            FlowEvent::Struck {
                attacker,
                target,
                weapon,
                level,
                bonus,
                multiplier,
                armor,
            } => {
                let mut s = format!(
                    "{} hits {} with {weapon} ({level}): damage = roll {bonus:+}",
                    n(attacker),
                    n(target)
                );
                if *multiplier != 1 {
                    s = format!(
                        "{} hits {} with {weapon} ({level}): damage = (roll {bonus:+}) x{multiplier}",
                        n(attacker),
                        n(target)
                    );
                }
                if *armor != 0 {
                    s += &format!(" - armor {armor}");
                }
                s
            }
            FlowEvent::Missed {
                attacker,
                target,
                reason,
            } => format!(
                "{}'s attack on {} does no harm: {reason}",
                n(attacker),
                n(target)
            ),
            FlowEvent::Intercepted {
                interceptor,
                ally,
                attacker,
            } => format!(
                "{} intercepts {}'s attack in place of {}",
                n(interceptor),
                n(attacker),
                n(ally)
            ),
            FlowEvent::Readied { unit, weapon, ap } => format!(
                "{} readies an attack with {weapon} on the first enemy to come in reach ({ap} AP set aside)",
                n(unit)
            ),
            FlowEvent::ReadyTriggered { unit, by } => format!(
                "{}'s readied attack goes off as {} comes in reach; it now acts just before {}",
                n(unit),
                n(by),
                n(by)
            ),
            FlowEvent::ReadiedAction {
                unit,
                action,
                trigger,
                ap,
            } => format!("{} readies {action} {trigger} ({ap} AP set aside)", n(unit)),
            FlowEvent::ReadiedActionTriggered { unit, by, action } => format!(
                "{} does what it readied, {action}, as {} sets it off; it now acts just before {}",
                n(unit),
                n(by),
                n(by)
            ),
            FlowEvent::ReadyLost { unit, reason } => {
                format!("{}'s readied action is lost: {reason}", n(unit))
            }
            FlowEvent::SurpriseRound { surprisers } => {
                let names: Vec<String> = surprisers.iter().map(&side).collect();
                format!("Surprise Round: only {} act", names.join(", "))
            }
        }
    }

    fn explain(&self, names: &Names<'_>) -> Option<Explained> {
        let FlowEvent::SkillChecked {
            unit,
            skill,
            purpose,
            target,
            modifiers,
            edge,
            faces: f,
            roll,
            level,
        } = self
        else {
            return None;
        };
        let dice = match edge {
            None => "d100".to_string(),
            Some(e) => format!("d100 twice with {}, keep the better", edge_name(*e)),
        };
        let mut e = Explained::new(
            format!("{} {purpose}", names.unit(*unit)),
            dice,
            level.to_string(),
        )
        .faces(f, &[*roll]);
        e.rules = vec!["F-GAP-01".into(), "F-GAP-02".into()];
        if edge.is_some() {
            e.rules.push("F-GAP-04".into());
        }
        e.terms.push(Term::note(format!("{skill} skill")));
        for m in modifiers {
            // "gang-up +10": a number last; "advantage: feint": a source.
            let term = match m.rsplit_once(' ').map(|(n, v)| (n, v.parse::<i32>())) {
                Some((name, Ok(v))) => Term::modifier(name, v),
                _ => match m.split_once(": ") {
                    Some(("advantage", what)) => Term::source(what, true),
                    Some(("disadvantage", what)) => Term::source(what, false),
                    _ => Term::note(m.clone()),
                },
            };
            e.terms.push(term);
        }
        e.total = Some(*roll as i32);
        e.target = Some(format!("at or under {target}"));
        Some(e)
    }

    fn units(&self) -> Vec<UnitId> {
        match self {
            FlowEvent::SkillChecked { unit, .. } => vec![*unit],
            FlowEvent::OpposedCheck {
                actor, responder, ..
            } => vec![*actor, *responder],
            FlowEvent::Reacted { unit, against, .. } => vec![*unit, *against],
            FlowEvent::ReactionAttackProvoked {
                attacker, target, ..
            } => vec![*target, *attacker],
            FlowEvent::Struck {
                attacker, target, ..
            } => vec![*attacker, *target],
            FlowEvent::Missed {
                attacker, target, ..
            } => vec![*attacker, *target],
            FlowEvent::Intercepted {
                interceptor,
                ally,
                attacker,
            } => vec![*interceptor, *attacker, *ally],
            FlowEvent::Readied { unit, .. } => vec![*unit],
            FlowEvent::ReadyTriggered { unit, by }
            | FlowEvent::ReadiedActionTriggered { unit, by, .. } => vec![*unit, *by],
            FlowEvent::ReadiedAction { unit, .. } | FlowEvent::ReadyLost { unit, .. } => {
                vec![*unit]
            }
            FlowEvent::SurpriseRound { .. } => Vec::new(),
        }
    }
}
