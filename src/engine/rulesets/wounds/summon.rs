//! Summoning during the battle (W-32, W-12, W-GAP-23).
//!
//! A creature written with the trait `Summonable` waits off the board (its `pos` is
//! only where the level keeps it). A unit with a summoning spell (a power with the
//! trait `Summon`) brings it onto a free square next to itself with `Summon`, paying
//! the spell's cast time now with its Attack and Move Actions (W-12; a summoning is
//! not channeled over turns) and its MP. Its side's summoned units, those summoned
//! before the battle included, must fit in the summoning slots of its units in play
//! (Level each, +2 with Legion leader). The creature takes its place in the battle's
//! order by its Agility (W-02) and has summoning sickness until the end of the next
//! full round (W-GAP-23): no actions, no free hits, flat-footed (it can't dodge).
//! Vanishing at the battle's end and thralling happen after the battle: nothing to
//! play.

use super::state::{self, w_state, w_state_mut};
use bevy_ecs::prelude::*;
use serde::Serialize;

use super::economy::{Action, Use};
use super::powers::parse_header;
use super::state::{names, wu};
use super::turn;
use super::verbs;
use crate::engine::battle::{Map, cell_of, emit, entity, is_active, name, on_board, side_of};
use crate::engine::board::Cell;
use crate::engine::command::{Command, CommandError};
use crate::engine::conditions::{Condition, Duration, add_condition};
use crate::engine::event::{Event, Narration};
use crate::engine::log::Names;
use crate::engine::units::{PlayState, Powers, UnitId};
use crate::engine::verb::{ArgValue, Args};

/// A creature summoned during the battle (W-32).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summoned {
    /// The creature.
    pub unit: UnitId,
    /// Its summoner.
    pub by: UnitId,
    /// The summoning spell.
    pub spell: String,
    /// Where it appears.
    pub cell: Cell,
}

impl Narration for Summoned {
    fn text(&self, names: &Names<'_>) -> String {
        format!(
            "{} summons {} at {} with {} (W-32): summoning sickness until the end of the next \
             round",
            names.unit(self.by),
            names.unit(self.unit),
            self.cell,
            self.spell
        )
    }

    fn units(&self) -> Vec<UnitId> {
        vec![self.by, self.unit]
    }
}

/// The level's `Summonable` creatures that nobody of their side could summon: no
/// unit of the side has a summoning spell (W-32). Each is reported at its `traits`.
pub fn level_issues(level: &crate::engine::spec::Level) -> Vec<crate::engine::problems::Issue> {
    use crate::engine::problems::{Issue, Where, unit_label};
    let is = |t: &String, word: &str| t.trim().eq_ignore_ascii_case(word);
    let summoner = |side: &str| {
        level.units.iter().any(|u| {
            u.side == side
                && u.powers
                    .iter()
                    .any(|p| p.traits.iter().any(|t| is(t, "summon")))
        })
    };
    level
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.traits.iter().any(|t| is(t, "summonable")) && !summoner(&u.side))
        .map(|(i, u)| Issue {
            at: Where::Unit {
                index: i,
                field: Some("traits"),
            },
            message: format!(
                "{} is `Summonable` but no unit of side `{}` has a summoning spell (a power \
                 with the trait `Summon`) to bring it into the battle (W-32)",
                unit_label(i, u),
                u.side
            ),
        })
        .collect()
}

/// `unit`'s summoning spell: its first power with the trait `Summon`.
fn spell_of(world: &World, unit: UnitId) -> Option<(String, super::powers::Header)> {
    world
        .get::<Powers>(entity(world, unit))?
        .0
        .iter()
        .find_map(|p| {
            let h = parse_header(&p.traits).ok()?;
            h.summon.then(|| (p.name.clone(), h))
        })
}

/// The creatures of `unit`'s side still waiting to be summoned.
pub fn waiting(world: &World, unit: UnitId) -> Vec<UnitId> {
    let side = side_of(world, unit);
    (0..world.resource::<crate::engine::battle::Roster>().0.len() as u32)
        .map(UnitId)
        .filter(|&u| {
            side_of(world, u) == side
                && wu(world, u).summonable
                && world.get::<PlayState>(entity(world, u)) == Some(&PlayState::Down)
                // Once summoned, it has a place in the battle's order.
                && !w_state(world).round.order.contains(&u)
        })
        .collect()
}

/// A side's summoning slots in use and in all (W-32): its summoned units in play,
/// and the slots of its other units in play.
pub fn slots(world: &World, unit: UnitId) -> (i64, i64) {
    let side = side_of(world, unit);
    let mut used = 0;
    let mut all = 0;
    for u in crate::engine::battle::active_units(world) {
        if side_of(world, u) != side {
            continue;
        }
        let me = wu(world, u);
        if me.summoned || me.summonable {
            used += 1;
        } else {
            all += me.summoning_slots();
        }
    }
    (used, all)
}

/// Whether a `Summon` is legal now; `None` for any other verb.
pub fn check(
    world: &World,
    unit: UnitId,
    verb: &str,
    args: &Args,
) -> Option<Result<(), CommandError>> {
    (verb == verbs::SUMMON).then(|| check_summon(world, unit, args))
}

fn check_summon(world: &World, unit: UnitId, args: &Args) -> Result<(), CommandError> {
    let who = name(world, unit);
    let Some((spell, header)) = spell_of(world, unit) else {
        return Err(CommandError::Forbidden(format!(
            "{who} has no summoning spell (a power with the trait `Summon`, W-32)"
        )));
    };
    if wu(world, unit).channel.is_some() {
        return Err(CommandError::Forbidden(format!(
            "{who} is channeling a spell: its Attack and Move Actions go to it (W-33)"
        )));
    }
    let creature = args.name("creature").unwrap_or_default();
    let waiting = waiting(world, unit);
    if !waiting.iter().any(|&u| name(world, u) == creature) {
        return Err(CommandError::Forbidden(format!(
            "`{creature}` is not a creature of {who}'s side waiting to be summoned; waiting: {} \
             (W-32)",
            if waiting.is_empty() {
                "none".to_string()
            } else {
                waiting
                    .iter()
                    .map(|&u| name(world, u))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        )));
    }
    let (used, all) = slots(world, unit);
    if used >= all {
        return Err(CommandError::Forbidden(format!(
            "{who}'s side has {used} summoned units in play and {all} summoning slots (Level \
             each, +2 with Legion leader, W-32)"
        )));
    }
    let Some(to) = args.cell("to") else {
        return Err(CommandError::Forbidden(
            "name the square `to` (W-32)".into(),
        ));
    };
    let board = &world.resource::<Map>().0;
    let taken = crate::engine::battle::board_units(world)
        .into_iter()
        .any(|u| cell_of(world, u) == to);
    if board.distance(cell_of(world, unit), to) != 1 || board.step_cost(to).is_none() || taken {
        return Err(CommandError::Forbidden(format!(
            "{to} is not a free square next to {who}: a summoned creature appears next to its \
             summoner (W-32)"
        )));
    }
    let t = w_state(world).turn;
    let actions = t.left.attack + u32::from(t.move_left());
    if actions < header.cast {
        return Err(CommandError::Forbidden(format!(
            "{spell} takes {} actions to cast and {who} has {actions} Attack or Move Action \
             left (W-12)",
            header.cast
        )));
    }
    if header.mp > wu(world, unit).mp {
        return Err(CommandError::Forbidden(format!(
            "{spell} costs {} MP; {who} has {}",
            header.mp,
            wu(world, unit).mp
        )));
    }
    Ok(())
}

/// Does a `Summon` (already checked); false for any other verb.
pub fn act(world: &mut World, unit: UnitId, verb: &str, args: &Args) -> bool {
    if verb != verbs::SUMMON {
        return false;
    }
    let (Some((spell, header)), Some(creature), Some(to)) = (
        spell_of(world, unit),
        args.name("creature"),
        args.cell("to"),
    ) else {
        return false;
    };
    let Some(creature) = waiting(world, unit)
        .into_iter()
        .find(|&u| name(world, u) == creature)
    else {
        return false;
    };
    for _ in 0..header.cast {
        let t = w_state(world).turn;
        let payment = if t.left.attack > 0 {
            Action::Attack
        } else {
            Action::Move
        };
        turn::pay(
            world,
            unit,
            Use::CastTime,
            &[payment],
            &format!("cast time of {spell}"),
        );
    }
    state::wu_mut(world, unit).mp -= header.mp;
    emit(
        world,
        Summoned {
            unit: creature,
            by: unit,
            spell,
            cell: to,
        },
    );
    emit(
        world,
        Event::Defeated {
            unit: creature,
            state: PlayState::Active,
            cause: Some(crate::engine::event::LeaveCause::Recovered),
            by: Some(unit),
        },
    );
    let from = cell_of(world, creature);
    emit(
        world,
        Event::Moved {
            unit: creature,
            from,
            to,
            cost: 0,
        },
    );
    let r = state::round(world);
    add_condition(
        world,
        creature,
        Condition::new(names::SICK, Duration::EndOfRound(r + 1)),
    );
    // Its place in the battle's order, by Agility; the initiators stay last (W-02, W-03).
    let agility = wu(world, creature).agility;
    let at = {
        let order = &w_state(world).round.order;
        order
            .iter()
            .position(|&u| wu(world, u).initiator || wu(world, u).agility < agility)
            .unwrap_or(order.len())
    };
    w_state_mut(world).round.order.insert(at, creature);
    true
}

/// The `Summon` commands to try for `unit` (the caller keeps the legal ones).
pub fn commands(world: &World, unit: UnitId) -> Vec<Command> {
    if spell_of(world, unit).is_none() || !is_active(world, unit) {
        return Vec::new();
    }
    let board = &world.resource::<Map>().0;
    let around: Vec<Cell> = board
        .neighbors(cell_of(world, unit))
        .into_iter()
        .filter(|&c| {
            !crate::engine::battle::board_units(world)
                .into_iter()
                .any(|u| on_board(world, u) && cell_of(world, u) == c)
        })
        .collect();
    let mut out = Vec::new();
    for creature in waiting(world, unit) {
        for &to in &around {
            out.push(Command::Act {
                unit,
                verb: verbs::SUMMON.into(),
                args: Args::new()
                    .with("creature", ArgValue::Name(name(world, creature)))
                    .with("to", ArgValue::Cell(to)),
            });
        }
    }
    out
}
