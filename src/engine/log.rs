//! Human-readable combat log lines for events, with every die face shown, and the
//! names users know the engine's values by (grid kinds, terrain, sizes...).

use bevy_ecs::world::World;

use crate::engine::battle::{ActiveRuleset, Sides, name};
use crate::engine::board::{GridKind, Terrain};
use crate::engine::event::{Event, Stage};
use crate::engine::skill::Edge;
use crate::engine::units::{SideId, UnitId};
use crate::level::schema::{Hand, Size};

/// How the `phases` ruleset names each stage.
pub fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Initiative => "Initiative Phase",
        Stage::Movement => "Movement Phase",
        Stage::Attack => "Battle Phase",
        Stage::EndOfTurn => "End Phase",
    }
}

/// The name users know a grid kind by: `Square` or `Hex` (as in a level file).
pub fn grid_name(grid: GridKind) -> &'static str {
    match grid {
        GridKind::Square => "Square",
        GridKind::Hex => "Hex",
    }
}

/// The name of a kind of terrain: `Open`, `Difficult` or `Impassable`.
pub fn terrain_name(terrain: Terrain) -> &'static str {
    match terrain {
        Terrain::Open => "Open",
        Terrain::Difficult => "Difficult",
        Terrain::Impassable => "Impassable",
    }
}

/// The name of a size category (as in a level file): `Small` … `Gargantuan`.
pub fn size_name(size: Size) -> &'static str {
    match size {
        Size::Small => "Small",
        Size::Medium => "Medium",
        Size::Large => "Large",
        Size::Huge => "Huge",
        Size::Gargantuan => "Gargantuan",
    }
}

/// The name of where a weapon is held: `Main`, `Off` or `Stowed` (as in a level file).
pub fn hand_name(hand: Hand) -> &'static str {
    match hand {
        Hand::Main => "Main",
        Hand::Off => "Off",
        Hand::Stowed => "Stowed",
    }
}

/// The name of an edge on a check: `Advantage` or `Disadvantage`.
pub fn edge_name(edge: Edge) -> &'static str {
    match edge {
        Edge::Advantage => "Advantage",
        Edge::Disadvantage => "Disadvantage",
    }
}

fn faces(f: &[u32]) -> String {
    let v: Vec<String> = f.iter().map(|x| x.to_string()).collect();
    format!("[{}]", v.join(", "))
}

/// The active ruleset's name for a stage (phases' names when none is set up).
fn ruleset_stage_name(world: &World, stage: Stage) -> &'static str {
    world
        .get_resource::<ActiveRuleset>()
        .map_or(stage_name(stage), |r| r.stage_name(stage))
}

/// One log line for an event.
pub fn describe(world: &World, event: &Event) -> String {
    let stage_name = |s: Stage| ruleset_stage_name(world, s);
    let n = |u: &UnitId| name(world, *u);
    let side = |s: &SideId| {
        world
            .resource::<Sides>()
            .0
            .get(s.0 as usize)
            .map_or_else(|| format!("side #{}", s.0), |s| s.name.clone())
    };
    let list = |us: &[UnitId]| {
        us.iter()
            .map(|u| name(world, *u))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match event {
        Event::RoundStarted { round } => format!("=== Round {round} ==="),
        Event::StageStarted { stage } => format!("-- {} --", stage_name(*stage)),
        Event::InitiativeRolled {
            unit,
            faces: f,
            modifier,
            total,
        } => {
            format!(
                "{} rolls initiative {} {modifier:+} = {total}",
                n(unit),
                faces(f)
            )
        }
        Event::TieBreakRolled { unit, face } => format!("{} rolls {face} to break a tie", n(unit)),
        Event::OrderSet { stage, order } => {
            format!("{} order: {}", stage_name(*stage), list(order))
        }
        Event::Seized { unit } => format!(
            "{} seizes the initiative: moves first, battles last, grants advantage",
            n(unit)
        ),
        Event::TurnStarted { unit, stage } => {
            format!("{}'s turn ({})", n(unit), stage_name(*stage))
        }
        Event::MovementPowerUsed {
            unit,
            power,
            budget,
        } => format!("{} uses {power} (up to {budget} squares)", n(unit)),
        Event::Moved {
            unit,
            from,
            to,
            cost,
        } => format!("{} moves {from} -> {to} (cost {cost})", n(unit)),
        Event::OpportunityAttack {
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
        Event::MovementStopped { unit, reason } => format!("{} stops: {reason}", n(unit)),
        Event::AttackRolled {
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
        Event::Damaged {
            unit,
            faces: f,
            amount,
            hp,
        } => {
            format!("{} takes {amount} damage {} -> {hp} HP", n(unit), faces(f))
        }
        Event::Healed {
            unit,
            faces: f,
            amount,
            hp,
        } => format!("{} heals {amount} {} -> {hp} HP", n(unit), faces(f)),
        Event::Defeated { unit, state } => format!("{} {}!", n(unit), state.phrase()),
        Event::ConditionAdded { unit, condition } => format!("{} is now {condition}", n(unit)),
        Event::ConditionRemoved {
            unit,
            name: c,
            reason,
        } => format!("{} is no longer {c}: {reason}", n(unit)),
        Event::SaveRolled {
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
        Event::Defended { unit } => {
            format!("{} defends: attacks against it have disadvantage", n(unit))
        }
        Event::Delayed { unit } => format!("{} delays", n(unit)),
        Event::ActedFromDelay { unit } => format!("{} acts from its delay", n(unit)),
        Event::ItemUsed {
            unit,
            item,
            uses_left,
        } => format!("{} uses {item} ({uses_left} left)", n(unit)),
        Event::TurnEnded { unit } => format!("{} ends its turn", n(unit)),
        Event::ActionDeclared {
            unit,
            action,
            ap,
            left,
            ..
        } => format!("{}: {action} ({ap} AP, {left} left)", n(unit)),
        Event::PointsChanged {
            unit,
            pool,
            delta,
            now,
            reason,
        } => format!("{} {delta:+} {pool} ({reason}) -> {now}", n(unit)),
        Event::SkillChecked {
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
        Event::OpposedCheck {
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
        Event::Reacted {
            unit,
            reaction,
            against,
        } => format!("{} reacts to {}: {reaction}!", n(unit), n(against)),
        Event::ReactionAttackProvoked {
            attacker,
            target,
            trigger,
        } => format!(
            "{} {trigger} in {}'s threat range: a Reaction Attack is possible",
            n(target),
            n(attacker)
        ),
        Event::Struck {
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
        Event::Missed {
            attacker,
            target,
            reason,
        } => format!(
            "{}'s attack on {} does no harm: {reason}",
            n(attacker),
            n(target)
        ),
        Event::Intercepted {
            interceptor,
            ally,
            attacker,
        } => format!(
            "{} intercepts {}'s attack in place of {}",
            n(interceptor),
            n(attacker),
            n(ally)
        ),
        Event::HeldChanged { unit, item, hand } => match hand {
            crate::level::schema::Hand::Stowed => format!("{} sheathes {item}", n(unit)),
            h => format!("{} draws {item} ({} hand)", n(unit), hand_name(*h)),
        },
        Event::ItemDropped { unit, item, cell } => {
            format!("{}'s {item} drops at {cell}", n(unit))
        }
        Event::ItemPickedUp {
            unit, item, cell, ..
        } => format!("{} picks up {item} at {cell}", n(unit)),
        Event::ItemTaken {
            unit, from, item, ..
        } => format!("{} takes {item} from {}", n(unit), n(from)),
        Event::Readied { unit, weapon, ap } => format!(
            "{} readies an attack with {weapon} on the first enemy to come in reach ({ap} AP set aside)",
            n(unit)
        ),
        Event::ReadyTriggered { unit, by } => format!(
            "{}'s readied attack goes off as {} comes in reach; it now acts just before {}",
            n(unit),
            n(by),
            n(by)
        ),
        Event::SurpriseRound { surprisers } => {
            let names: Vec<String> = surprisers.iter().map(&side).collect();
            format!("Surprise Round: only {} act", names.join(", "))
        }
        Event::BattleEnded { winner, rounds } => match winner {
            Some(s) => format!("*** {} wins after {rounds} round(s) ***", side(s)),
            None => format!("*** Draw after {rounds} round(s) ***"),
        },
    }
}
