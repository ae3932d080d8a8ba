//! Casting and channeling spells (W-12, W-33), spells and abilities that help
//! instead of attacking, and the end of channeling (W-19, W-28, W-33). A power whose traits say `Removes a wound` takes its target's
//! most recent wound away (W-19: "a spell or other ability explicitly states that
//! it removes a wound"); `Grants disengage` lets its target leave melee zones
//! without free hits for the round, as Disengage does (W-28: "specific spells and
//! abilities that grant disengagement"). Such a power is cast like a spell (its
//! cast time, default 1 action, and its `MP N`) with the verb `Invoke` on its
//! caster or an ally within its range. `Upkeep N` makes `Grants disengage` last
//! while the caster pays N MP as each of its turns starts: an upkept spell is
//! channeling (W-33), the caster flat-footed until it ends; `Toggle` switches its
//! effect off or on for a Bonus Action (W-09). `Cancel` ends a channeled or upkept
//! spell ("until the spell is cast or canceled", W-33).

use bevy_ecs::world::World;

use super::attack::{self, Kind, NoSwing};
use super::attack::{make_attack, swing};
use super::economy::{Action, Use};
use super::events::WoundsEvent;
use super::state::{self, has, names, wu};
use super::state::{w_state, wu_mut};
use super::turn::{self, pay};
use super::units::Channel;
use super::verbs;
use crate::engine::battle::{Roster, active_units, emit, entity, is_active, name, side_of};
use crate::engine::command::{Command, CommandError};
use crate::engine::conditions::{Condition, Duration, Magnitude, add_condition, end_where};
use crate::engine::units::{Conditions, Powers, UnitId};
use crate::engine::verb::{ArgValue, Args};

/// The power trait of a spell or ability that removes a wound (W-19).
pub const REMOVES_A_WOUND: &str = "Removes a wound";
/// The power trait of a spell or ability that grants Disengage (W-28).
pub const GRANTS_DISENGAGE: &str = "Grants disengage";
/// The forms of this module's power traits, for messages.
pub const TRAITS: &[&str] = &[REMOVES_A_WOUND, GRANTS_DISENGAGE, "Upkeep 1"];

/// The caster's condition while it upkeeps a spell (W-33): flat-footed like any
/// channeling; its magnitude is the upkeep in MP, `about` the spell's target.
pub const UPKEEPING: &str = "Upkeeping";

/// What a power's helping traits say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Help {
    /// It removes its target's most recent wound (W-19).
    pub removes_wound: bool,
    /// It grants its target Disengage (W-28).
    pub grants_disengage: bool,
    /// MP its lasting effect costs as each of the caster's turns starts (W-33); 0
    /// when it is not upkept.
    pub upkeep: u32,
}

impl Help {
    /// Whether the power helps instead of attacking.
    pub fn any(&self) -> bool {
        self.removes_wound || self.grants_disengage
    }
}

/// Reads one power trait into `help`: `None` when it is not one of [`TRAITS`],
/// else whether it is well formed.
pub fn read(t: &str, help: &mut Help) -> Option<Result<(), String>> {
    let lower = t.trim().to_lowercase();
    if lower == REMOVES_A_WOUND.to_lowercase() {
        help.removes_wound = true;
    } else if lower == GRANTS_DISENGAGE.to_lowercase() {
        help.grants_disengage = true;
    } else if let Some(n) = lower.strip_prefix("upkeep ") {
        match n
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=20).contains(n))
        {
            Some(n) => help.upkeep = n,
            None => {
                return Some(Err(format!(
                    "`{t}`: the upkeep must be a whole number of MP from 1 to 20"
                )));
            }
        }
    } else {
        return None;
    }
    Some(Ok(()))
}

/// A power's helping traits; `Upkeep` only with a lasting effect.
pub fn help(traits: &[String]) -> Result<Help, String> {
    let mut h = Help::default();
    for t in traits {
        if let Some(r) = read(t, &mut h) {
            r?;
        }
    }
    if h.upkeep > 0 && !h.grants_disengage {
        return Err(format!(
            "`Upkeep` keeps a lasting effect going; only `{GRANTS_DISENGAGE}` lasts (W-33)"
        ));
    }
    Ok(h)
}

/// The helping traits of `unit`'s power `power` (none if it has no such power).
fn help_of(world: &World, unit: UnitId, power: &str) -> Help {
    attack::power_of(world, unit, Some(power))
        .and_then(|p| help(&p.traits).ok())
        .unwrap_or_default()
}

/// Whether `unit`'s power `power` (its first if `None`) helps instead of attacking.
pub fn helps(world: &World, unit: UnitId, power: Option<&str>) -> bool {
    attack::power_of(world, unit, power).is_some_and(|p| help(&p.traits).is_ok_and(|h| h.any()))
}

/// Whether `Invoke(unit, power, target)` is legal now (W-19, W-28, W-12).
pub fn check_invoke(world: &World, unit: UnitId, args: &Args) -> Result<(), CommandError> {
    let power = args.name("power").unwrap_or_default();
    let target = args.unit("target").unwrap_or(unit);
    let h = help_of(world, unit, power);
    if !h.any() {
        return Err(CommandError::Forbidden(format!(
            "{} has no spell or ability `{power}` that removes a wound or grants \
             disengagement (W-19, W-28)",
            name(world, unit)
        )));
    }
    if !is_active(world, target) || side_of(world, target) != side_of(world, unit) {
        return Err(CommandError::NoSuchTarget(format!(
            "{power} helps {} or an ally in the fight; {} is not one (W-19, W-28)",
            name(world, unit),
            name(world, target)
        )));
    }
    if h.removes_wound && wu(world, target).wounds.is_empty() {
        return Err(CommandError::Forbidden(format!(
            "{} has no wound to remove (W-19)",
            name(world, target)
        )));
    }
    if h.grants_disengage && !h.removes_wound && has(world, target, names::DISENGAGED) {
        return Err(CommandError::AlreadyUsed {
            unit: name(world, target),
            what: "disengaged".into(),
        });
    }
    if h.upkeep > 0 && has(world, unit, UPKEEPING) {
        return Err(CommandError::Forbidden(format!(
            "{} already upkeeps a spell: cancel it first (W-33)",
            name(world, unit)
        )));
    }
    if wu(world, unit).channel.is_some() {
        return Err(super::check::channeling(world, unit));
    }
    // Reach and sight, the MP and the cast time, as for any spell (W-12).
    let s = attack::swing(world, unit, target, Some(power), None, Kind::Normal).map_err(|e| {
        CommandError::OutOfReach(match e {
            NoSwing::Reach(r) => format!(
                "{} is out of reach: {power} reaches {r}",
                name(world, target)
            ),
            _ => format!(
                "{} can't cast {power} on {}",
                name(world, unit),
                name(world, target)
            ),
        })
    })?;
    super::check::spell_costs(world, unit, &s)
}

/// `Cancel`, `Toggle` and every `Invoke` of `unit`'s helping powers on itself and
/// its allies, legal or not (the caller keeps the legal ones), for the AI and
/// property tests.
pub fn commands(world: &World, unit: UnitId) -> Vec<Command> {
    let mut out: Vec<Command> = [verbs::CANCEL, verbs::TOGGLE]
        .into_iter()
        .map(|verb| Command::Act {
            unit,
            verb: verb.into(),
            args: Args::new(),
        })
        .collect();
    let powers: Vec<String> = world
        .get::<Powers>(entity(world, unit))
        .map(|p| p.0.iter().map(|p| p.name.clone()).collect())
        .unwrap_or_default();
    for power in powers.iter().filter(|p| helps(world, unit, Some(p))) {
        for target in active_units(world) {
            if side_of(world, target) == side_of(world, unit) {
                out.push(Command::Act {
                    unit,
                    verb: verbs::INVOKE.into(),
                    args: Args::new()
                        .with("power", ArgValue::Name(power.clone()))
                        .with("target", ArgValue::Unit(target)),
                });
            }
        }
    }
    out
}

/// `Invoke`: pays the MP and casts the power like any spell; it goes off when its
/// cast time is paid ([`go_off`]).
pub fn invoke(world: &mut World, unit: UnitId, args: &Args) {
    let power = args.name("power").unwrap_or_default().to_string();
    let target = args.unit("target").unwrap_or(unit);
    let Ok(s) = attack::swing(world, unit, target, Some(&power), None, Kind::Normal) else {
        return;
    };
    turn::spend_mp(world, unit, s.header.mp);
    cast(world, unit, target, &s.name, s.header.cast);
}

/// A helping spell whose cast time is paid takes effect: the target's most recent
/// wound goes (W-19), or it is disengaged for the round, or for as long as the
/// caster upkeeps it (W-28, W-33). `false` when `power` is not a helping one.
pub fn go_off(world: &mut World, unit: UnitId, target: UnitId, power: &str) -> bool {
    let h = help_of(world, unit, power);
    if !h.any() {
        return false;
    }
    if h.removes_wound {
        let config = state::rules(world).clone();
        let gone = state::wu_mut(world, target)
            .wounds
            .heal(config.heal_removes_wound, &config);
        match gone {
            Some(w) => attack::wound_gone(world, target, w, &format!("{power} removes it (W-19)")),
            None => emit(
                world,
                WoundsEvent::CannotAct {
                    unit,
                    why: format!("{power} finds no wound on {} (W-19)", name(world, target)),
                },
            ),
        }
    }
    if h.grants_disengage && !has(world, target, names::DISENGAGED) {
        let duration = if h.upkeep > 0 {
            add_condition(
                world,
                unit,
                Condition {
                    about: Some(target),
                    ..Condition::new(UPKEEPING, Duration::UntilRemoved)
                }
                .with_magnitude(Magnitude::Flat(h.upkeep as i32)),
            );
            Duration::UntilRemoved
        } else {
            Duration::EndOfRound(state::round(world))
        };
        add_condition(
            world,
            target,
            Condition::new(names::DISENGAGED, duration).with_source(unit),
        );
    }
    true
}

/// The upkept spell of `unit`: its target and MP per turn.
fn upkept(world: &World, unit: UnitId) -> Option<(UnitId, i64)> {
    let c = world
        .get::<Conditions>(entity(world, unit))?
        .0
        .iter()
        .find(|c| c.name == UPKEEPING)?
        .clone();
    let mp = match c.magnitude {
        Some(Magnitude::Flat(n)) => i64::from(n),
        _ => 0,
    };
    Some((c.about.unwrap_or(unit), mp))
}

/// Ends `caster`'s upkept spell: its effect on its target goes with it.
fn end_upkeep(world: &mut World, caster: UnitId, why: &str) {
    let Some((target, _)) = upkept(world, caster) else {
        return;
    };
    end_where(world, caster, why, |c| c.name == UPKEEPING);
    end_where(world, target, why, |c| {
        c.name == names::DISENGAGED
            && c.source == Some(caster)
            && c.duration == Duration::UntilRemoved
    });
}

/// As `unit`'s turn starts: it pays the upkeep of its upkept spell, or the spell
/// ends when its MP can't (W-33); an upkept spell whose caster or target is out
/// of the fight ends too.
pub fn turn_starts(world: &mut World, unit: UnitId) {
    let roster = world.resource::<Roster>().0.len() as u32;
    for caster in (0..roster).map(UnitId) {
        match upkept(world, caster) {
            Some(_) if !is_active(world, caster) => {
                end_upkeep(world, caster, "its caster is out of the fight");
            }
            Some((target, _)) if !is_active(world, target) => {
                end_upkeep(world, caster, "its target is out of the fight");
            }
            _ => {}
        }
    }
    let Some((_, mp)) = upkept(world, unit) else {
        return;
    };
    if wu(world, unit).mp < mp {
        end_upkeep(world, unit, "no MP left for its upkeep (W-33)");
        return;
    }
    turn::spend_mp(world, unit, mp);
    emit(
        world,
        WoundsEvent::Spent {
            unit,
            what: "the upkeep of its spell (W-33)".into(),
            actions: format!("{mp} MP"),
        },
    );
}

/// Whether `unit`'s upkept spell's effect is on: its target is disengaged by it.
fn effect_on(world: &World, caster: UnitId, target: UnitId) -> bool {
    world
        .get::<Conditions>(entity(world, target))
        .is_some_and(|cs| {
            cs.0.iter().any(|c| {
                c.name == names::DISENGAGED
                    && c.source == Some(caster)
                    && c.duration == Duration::UntilRemoved
            })
        })
}

/// Whether `Toggle(unit)` is legal: it upkeeps a spell and has a Bonus Action left
/// (W-09: "Toggle the effects of spells cast").
pub fn check_toggle(world: &World, unit: UnitId) -> Result<(), CommandError> {
    let Some((target, _)) = upkept(world, unit) else {
        return Err(CommandError::Forbidden(format!(
            "{} upkeeps no spell: only a lasting spell's effect toggles (W-09, W-33)",
            name(world, unit)
        )));
    };
    if !effect_on(world, unit, target) && has(world, target, names::DISENGAGED) {
        return Err(CommandError::AlreadyUsed {
            unit: name(world, target),
            what: "disengaged".into(),
        });
    }
    super::check::can_pay(world, unit, Use::ToggleSpell, &[Action::Bonus], "Toggle")
}

/// `Toggle`: for a Bonus Action the upkept spell's effect goes off, or comes back
/// on; the spell stays upkept (its MP paid, its caster channeling) either way
/// (W-09, W-33).
pub fn toggle(world: &mut World, unit: UnitId) {
    let Some((target, _)) = upkept(world, unit) else {
        return;
    };
    let on = effect_on(world, unit, target);
    let what = if on {
        "toggle its spell's effect off"
    } else {
        "toggle its spell's effect on"
    };
    turn::pay(world, unit, Use::ToggleSpell, &[Action::Bonus], what);
    if on {
        end_where(world, target, "its spell is toggled off (W-09)", |c| {
            c.name == names::DISENGAGED && c.source == Some(unit)
        });
    } else {
        add_condition(
            world,
            target,
            Condition::new(names::DISENGAGED, Duration::UntilRemoved).with_source(unit),
        );
    }
}

/// Whether `Cancel(unit)` is legal: something is channeled or upkept (W-33).
pub fn check_cancel(world: &World, unit: UnitId) -> Result<(), CommandError> {
    if wu(world, unit).channel.is_none() && upkept(world, unit).is_none() {
        return Err(CommandError::Forbidden(format!(
            "{} is channeling no spell: there is nothing to cancel (W-33)",
            name(world, unit)
        )));
    }
    Ok(())
}

/// `Cancel`: a channeled spell stops unspent (its MP and the actions paid are
/// gone) and an upkept one ends with its effect; the caster is no longer
/// flat-footed for it (W-33).
pub fn cancel(world: &mut World, unit: UnitId) {
    if let Some(c) = state::wu_mut(world, unit).channel.take() {
        end_where(world, unit, "the spell is canceled", |c| {
            c.name == names::CHANNELING
        });
        emit(
            world,
            WoundsEvent::Canceled {
                unit,
                spell: c.power,
            },
        );
    }
    if upkept(world, unit).is_some() {
        end_upkeep(world, unit, "the spell is canceled (W-33)");
        emit(
            world,
            WoundsEvent::Canceled {
                unit,
                spell: "its upkept spell".into(),
            },
        );
    }
}

/// A spell with a cast time of `cast` actions (W-12): paid with the Attack and Move
/// Actions left; what the turn can't pay is channeled, the caster flat-footed until
/// it goes off (W-33).
pub(super) fn cast(world: &mut World, unit: UnitId, target: UnitId, power: &str, cast: u32) {
    wu_mut(world, unit).channel = Some(Channel {
        power: power.into(),
        target,
        left: cast,
    });
    channel(world, unit);
}

/// Pays what the turn can of a channeled spell, and casts it when it is paid.
pub(super) fn channel(world: &mut World, unit: UnitId) {
    let Some(mut c) = wu(world, unit).channel.clone() else {
        return;
    };
    while c.left > 0 {
        let t = w_state(world).turn;
        let payment = if t.left.attack > 0 {
            Action::Attack
        } else if t.move_left() {
            Action::Move
        } else {
            break;
        };
        pay(
            world,
            unit,
            Use::CastTime,
            &[payment],
            &format!("cast time of {}", c.power),
        );
        c.left -= 1;
    }
    if c.left > 0 {
        wu_mut(world, unit).channel = Some(c);
        if !has(world, unit, names::CHANNELING) {
            add_condition(
                world,
                unit,
                Condition::new(names::CHANNELING, Duration::UntilRemoved),
            );
        }
        return;
    }
    wu_mut(world, unit).channel = None;
    end_where(world, unit, "the spell is cast", |c| {
        c.name == names::CHANNELING
    });
    let why = if !is_active(world, c.target) {
        Some("its target is gone")
    } else if swing(world, unit, c.target, Some(&c.power), None, Kind::Normal).is_err() {
        Some("its target is out of reach")
    } else {
        None
    };
    match why {
        // A helping spell takes effect instead of attacking (W-19, W-28).
        None if super::magic::go_off(world, unit, c.target, &c.power) => {}
        None => make_attack(world, unit, c.target, Some(&c.power), None, Kind::Normal),
        Some(why) => emit(
            world,
            WoundsEvent::CannotAct {
                unit,
                why: format!("{} fizzles: {why} (W-33)", c.power),
            },
        ),
    }
}
