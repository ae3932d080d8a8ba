//! `wounds`' weapons in hand or in the sheath, and things on the ground (W-06, W-07,
//! W-09): Draw or Sheathe a weapon, and Pick up an item lying on or next to the
//! unit's square, each with any one action of the turn (the Attack Action, the Move
//! Action or a Bonus Action: all three lists name them).
//!
//! A weapon whose power has the trait `Sheathed` starts the battle in its sheath: it
//! can't attack, nor make free hits, until it is drawn. A unit that goes down or is
//! killed drops what it carries on its square: its weapons (not its spells nor its
//! fists) and its items with uses left. Picking a weapon up puts it in hand; an item
//! joins the unit's items. The disarmed weapon of W-31 keeps its own rule (`PickUp`
//! with no `item`).

use super::state::{w_state, w_state_mut};
use bevy_ecs::prelude::*;

use super::economy::{Action, Use};
use super::powers::parse_header;
use super::state::UNARMED;
use super::turn;
use super::verbs;
use crate::engine::battle::{Map, cell_of, emit, entity, name};
use crate::engine::board::Cell;
use crate::engine::command::{Command, CommandError};
use crate::engine::event::Event;
use crate::engine::spec::{Hand, ItemDef, PowerDef};
use crate::engine::units::{Items, Powers, UnitId};
use crate::engine::verb::{ArgValue, Args};

/// Something lying on the ground.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dropped {
    /// A weapon: picked up, it is in hand.
    Weapon(PowerDef),
    /// An item (a potion): picked up, it joins the unit's items.
    Item(ItemDef),
}

impl Dropped {
    /// Its name, as a `PickUp` command names it.
    pub fn name(&self) -> &str {
        match self {
            Dropped::Weapon(p) => &p.name,
            Dropped::Item(i) => &i.name,
        }
    }
}

/// Sheathed weapons and what lies on the ground.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Gear {
    /// The weapons in their sheaths, by unit.
    pub sheathed: Vec<(UnitId, String)>,
    /// What lies on the ground, by square, in the order it fell.
    pub ground: Vec<(Cell, Dropped)>,
}

/// The battle's [`Gear`] at its start: the weapons written `Sheathed` are in their
/// sheaths.
pub fn setup(world: &World, units: &[UnitId]) -> Gear {
    let mut gear = Gear::default();
    for &u in units {
        let Some(powers) = world.get::<Powers>(entity(world, u)) else {
            continue;
        };
        for p in &powers.0 {
            if parse_header(&p.traits).is_ok_and(|h| h.sheathed) {
                gear.sheathed.push((u, p.name.clone()));
            }
        }
    }
    gear
}

/// Whether `unit`'s weapon `weapon` is in its sheath.
pub fn sheathed(world: &World, unit: UnitId, weapon: &str) -> bool {
    w_state(world)
        .gear
        .sheathed
        .iter()
        .any(|(u, w)| *u == unit && w == weapon)
}

/// Whether any of `unit`'s weapons is in its sheath.
pub fn any_sheathed(world: &World, unit: UnitId) -> bool {
    w_state(world).gear.sheathed.iter().any(|(u, _)| *u == unit)
}

/// `unit`'s weapons: its powers that are neither spells nor its fists.
fn weapons(world: &World, unit: UnitId) -> Vec<PowerDef> {
    world
        .get::<Powers>(entity(world, unit))
        .map(|p| {
            p.0.iter()
                .filter(|p| p.name != UNARMED && !parse_header(&p.traits).unwrap_or_default().spell)
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

/// What lies on or next to `unit`'s square (within 1 space), nearest first.
pub fn nearby(world: &World, unit: UnitId) -> Vec<(Cell, Dropped)> {
    let at = cell_of(world, unit);
    let board = &world.resource::<Map>().0;
    let mut out: Vec<(Cell, Dropped)> = w_state(world)
        .gear
        .ground
        .iter()
        .filter(|(c, _)| board.distance(at, *c) <= 1)
        .cloned()
        .collect();
    out.sort_by_key(|(c, _)| board.distance(at, *c));
    out
}

fn pay_of(args: &Args) -> Result<Action, CommandError> {
    turn::pay_choice(args.choice("pay"))
        .ok_or_else(|| CommandError::Forbidden("pay with AA, MA or BA (W-06, W-07, W-09)".into()))
}

/// Whether Draw, Sheathe or a Pick up that names its item is legal now; `None` for
/// any other verb (and for the disarmed weapon's `PickUp`, W-31).
pub fn check(
    world: &World,
    unit: UnitId,
    verb: &str,
    args: &Args,
) -> Option<Result<(), CommandError>> {
    let who = name(world, unit);
    let result = match verb {
        verbs::DRAW | verbs::SHEATHE => {
            let weapon = args.name("weapon").unwrap_or_default();
            let draw = verb == verbs::DRAW;
            let mine = weapons(world, unit);
            if !mine.iter().any(|p| p.name == weapon) {
                Err(CommandError::Forbidden(format!(
                    "{who} carries no weapon `{weapon}`; its weapons: {} (W-06)",
                    list(mine.iter().map(|p| p.name.as_str()))
                )))
            } else if sheathed(world, unit, weapon) != draw {
                Err(CommandError::Forbidden(format!(
                    "{who}'s {weapon} is already {} (W-06, W-07, W-09)",
                    if draw { "in hand" } else { "sheathed" }
                )))
            } else {
                pay_of(args)
                    .and_then(|a| super::check::can_pay(world, unit, Use::DrawSheathe, &[a], verb))
            }
        }
        verbs::PICK_UP => {
            let item = args.name("item")?;
            let near = nearby(world, unit);
            match near.iter().find(|(_, d)| d.name() == item) {
                None => Err(CommandError::Forbidden(format!(
                    "no `{item}` lies on or next to {who}'s square; there: {} (W-06)",
                    list(near.iter().map(|(_, d)| d.name()))
                ))),
                Some((_, Dropped::Weapon(_)))
                    if weapons(world, unit).iter().any(|p| p.name == item) =>
                {
                    Err(CommandError::Forbidden(format!(
                        "{who} already carries a {item} (W-06)"
                    )))
                }
                Some(_) => pay_of(args)
                    .and_then(|a| super::check::can_pay(world, unit, Use::PickUp, &[a], "pick up")),
            }
        }
        _ => return None,
    };
    Some(result)
}

fn list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let v: Vec<&str> = names.collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// Does Draw, Sheathe or a Pick up that names its item (already checked); false for
/// any other verb.
pub fn act(world: &mut World, unit: UnitId, verb: &str, args: &Args) -> bool {
    let Some(a) = turn::pay_choice(args.choice("pay")) else {
        return false;
    };
    match verb {
        verbs::DRAW | verbs::SHEATHE => {
            let weapon = args.name("weapon").unwrap_or_default().to_string();
            let draw = verb == verbs::DRAW;
            let text = format!("{} {weapon}", if draw { "draw" } else { "sheathe" });
            turn::pay(world, unit, Use::DrawSheathe, &[a], &text);
            {
                let gear = &mut w_state_mut(world).gear;
                if draw {
                    gear.sheathed.retain(|(u, w)| !(*u == unit && *w == weapon));
                } else {
                    gear.sheathed.push((unit, weapon.clone()));
                }
            }
            let hand = if draw { Hand::Main } else { Hand::Stowed };
            emit(
                world,
                Event::HeldChanged {
                    unit,
                    item: weapon,
                    hand,
                },
            );
            true
        }
        verbs::PICK_UP => {
            let Some(item) = args.name("item") else {
                return false;
            };
            let Some((cell, thing)) = nearby(world, unit)
                .into_iter()
                .find(|(_, d)| d.name() == item)
            else {
                return false;
            };
            turn::pay(world, unit, Use::PickUp, &[a], &format!("pick up {item}"));
            {
                let gear = &mut w_state_mut(world).gear;
                if let Some(i) = gear.ground.iter().position(|g| *g == (cell, thing.clone())) {
                    gear.ground.remove(i);
                }
            }
            let e = entity(world, unit);
            match &thing {
                Dropped::Weapon(p) => {
                    if let Some(mut powers) = world.get_mut::<Powers>(e) {
                        powers.0.push(p.clone());
                    }
                }
                Dropped::Item(i) => {
                    if let Some(mut items) = world.get_mut::<Items>(e) {
                        match items.0.iter_mut().find(|x| x.name == i.name) {
                            Some(x) => x.uses += i.uses,
                            None => items.0.push(i.clone()),
                        }
                    }
                }
            }
            emit(
                world,
                Event::ItemPickedUp {
                    unit,
                    item: item.to_string(),
                    cell,
                    hand: Hand::Main,
                },
            );
            true
        }
        _ => false,
    }
}

/// A unit that goes down or is killed drops its weapons and its items with uses
/// left on its square.
pub fn drop_belongings(world: &mut World, unit: UnitId) {
    let cell = cell_of(world, unit);
    let e = entity(world, unit);
    let mut things: Vec<Dropped> = weapons(world, unit)
        .into_iter()
        .map(Dropped::Weapon)
        .collect();
    if let Some(items) = world.get::<Items>(e) {
        things.extend(
            items
                .0
                .iter()
                .filter(|i| i.uses > 0)
                .cloned()
                .map(Dropped::Item),
        );
    }
    for thing in things {
        match &thing {
            Dropped::Weapon(p) => {
                if let Some(mut powers) = world.get_mut::<Powers>(e) {
                    powers.0.retain(|x| x.name != p.name);
                }
            }
            Dropped::Item(i) => {
                if let Some(mut items) = world.get_mut::<Items>(e) {
                    items.0.retain(|x| x.name != i.name);
                }
            }
        }
        let item = thing.name().to_string();
        {
            let gear = &mut w_state_mut(world).gear;
            gear.sheathed.retain(|(u, w)| !(*u == unit && *w == item));
            gear.ground.push((cell, thing));
        }
        emit(world, Event::ItemDropped { unit, item, cell });
    }
}

/// The Draw of `unit`'s first sheathed weapon, paid with the cheapest action it has
/// (a Bonus Action, else the Move, else the Attack Action), when none of its weapons
/// is at hand and the Draw is legal now: the AI's first step (W-06).
pub fn arm_action(world: &World, unit: UnitId) -> Option<Command> {
    let mine = weapons(world, unit);
    if mine.is_empty() || mine.iter().any(|p| !sheathed(world, unit, &p.name)) {
        return None;
    }
    let weapon = &mine[0].name;
    verbs::ANY_PAY.iter().find_map(|pay| {
        let args = Args::new()
            .with("weapon", ArgValue::Name(weapon.clone()))
            .with("pay", ArgValue::Choice(pay.value.into()));
        check(world, unit, verbs::DRAW, &args)?.ok()?;
        Some(Command::Act {
            unit,
            verb: verbs::DRAW.into(),
            args,
        })
    })
}

/// The Draw, Sheathe and Pick up commands to try for `unit` (the caller keeps the
/// legal ones).
pub fn commands(world: &World, unit: UnitId) -> Vec<Command> {
    let mut out = Vec::new();
    let with_pay = |verb: &str, arg: &str, value: &str, out: &mut Vec<Command>| {
        for pay in verbs::ANY_PAY {
            out.push(Command::Act {
                unit,
                verb: verb.into(),
                args: Args::new()
                    .with(arg, ArgValue::Name(value.into()))
                    .with("pay", ArgValue::Choice(pay.value.into())),
            });
        }
    };
    for p in weapons(world, unit) {
        let verb = if sheathed(world, unit, &p.name) {
            verbs::DRAW
        } else {
            verbs::SHEATHE
        };
        with_pay(verb, "weapon", &p.name, &mut out);
    }
    for (_, thing) in nearby(world, unit) {
        with_pay(verbs::PICK_UP, "item", thing.name(), &mut out);
    }
    out
}
