//! `flow`'s special actions (F-32 … F-42) as the verbs it declares, and the typed
//! [`FlowAction`] it converts a [`Command::Act`] into at its boundary (the rules
//! match on the typed action; everything outside this folder sees verbs).

use crate::engine::board::Cell;
use crate::engine::command::{Command, CommandError};
use crate::engine::units::UnitId;
use crate::engine::verb::{
    Actor, ArgKind, ArgSpec, ArgValue, Args, ChoiceSpec, Cost, VerbSpec, find, lookup_among,
};

use super::config::Costs;
use super::pools::AP;

/// `n` AP (the defaults of `assets/rulesets/flow.ron`'s `costs`).
const fn ap(n: i32) -> Option<Cost> {
    Some(Cost::new(AP, n))
}

/// What a Shove tries to do (F-38), chosen before rolling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShoveEffect {
    /// Push the target 1 hex directly away.
    PushBack,
    /// Knock the target prone.
    KnockProne,
}

impl ShoveEffect {
    /// The effect as written in a scenario (`PushBack`, `KnockProne`).
    pub fn syntax(self) -> &'static str {
        match self {
            ShoveEffect::PushBack => "PushBack",
            ShoveEffect::KnockProne => "KnockProne",
        }
    }
}

/// What a unit may ready besides the attack (F-37, seed L117: "choose an action to
/// take when that trigger occurs"). Its AP are set aside when it is readied
/// (F-GAP-18): the action's own cost.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ReadyAction {
    /// Attack the unit that set the trigger off, with this weapon (the first held
    /// one if `None`).
    Attack {
        /// Weapon name.
        weapon: Option<String>,
    },
    /// Take a Step to this hex (F-39): no Reaction Attacks.
    Step {
        /// The hex next to the unit.
        to: Cell,
    },
    /// A Move action to this hex, along the cheapest free path (F-08, F-44); it
    /// provokes like any move.
    Move {
        /// Where to.
        to: Cell,
    },
    /// Shove the unit that set the trigger off (F-38); it must be next to the
    /// readied unit then.
    Shove {
        /// What to try.
        effect: ShoveEffect,
    },
    /// Draw this weapon or shield (F-33).
    Draw {
        /// Weapon name.
        weapon: String,
    },
}

impl ReadyAction {
    /// Its name in a scenario's `then:` (`Attack`, `Step`, `Move`, `Shove`, `Draw`).
    pub fn syntax(&self) -> &'static str {
        match self {
            ReadyAction::Attack { .. } => "Attack",
            ReadyAction::Step { .. } => "Step",
            ReadyAction::Move { .. } => "Move",
            ReadyAction::Shove { .. } => "Shove",
            ReadyAction::Draw { .. } => "Draw",
        }
    }

    /// The AP it sets aside with these `costs` (F-GAP-18): what the action costs.
    pub fn ap_cost(&self, costs: &Costs) -> i32 {
        match self {
            ReadyAction::Attack { .. } => costs.attack,
            ReadyAction::Step { .. } => costs.step,
            ReadyAction::Move { .. } => costs.move_action,
            ReadyAction::Shove { .. } => costs.shove,
            ReadyAction::Draw { .. } => costs.draw,
        }
    }

    /// How the log words it ("a Step to (3, 4)").
    pub fn describe(&self) -> String {
        match self {
            ReadyAction::Attack { weapon: Some(w) } => format!("an attack with {w}"),
            ReadyAction::Attack { weapon: None } => "an attack".into(),
            ReadyAction::Step { to } => format!("a Step to {to}"),
            ReadyAction::Move { to } => format!("a Move to {to}"),
            ReadyAction::Shove {
                effect: ShoveEffect::PushBack,
            } => "a Shove to push back".into(),
            ReadyAction::Shove {
                effect: ShoveEffect::KnockProne,
            } => "a Shove to knock prone".into(),
            ReadyAction::Draw { weapon } => format!("drawing {weapon}"),
        }
    }
}

/// When a readied action goes off (F-37, seed L118's example triggers that can
/// happen in a battle; doors don't exist).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ReadyTrigger {
    /// "When an enemy enters my reach": an enemy moves into the action's reach —
    /// an attack's weapon reach (a ranged weapon's Range), a Shove's adjacent hexes,
    /// for a Step, a Move or a Draw the unit's threat range (F-47).
    #[default]
    EntersReach,
    /// "When the wizard starts casting": an enemy declares an attack with a spell
    /// (F-26), before the spell and the Reaction Attacks it provokes resolve. An
    /// attack or a Shove goes off only if the caster is in its reach.
    Casts,
}

impl ReadyTrigger {
    /// Its name in a scenario's `on:`.
    pub fn syntax(self) -> &'static str {
        match self {
            ReadyTrigger::EntersReach => "EntersReach",
            ReadyTrigger::Casts => "Casts",
        }
    }

    /// How the log words it.
    pub fn describe(self) -> &'static str {
        match self {
            ReadyTrigger::EntersReach => "for when an enemy enters its reach",
            ReadyTrigger::Casts => "for when an enemy starts casting a spell",
        }
    }
}

/// The special actions of `flow` (F-32 … F-42); Take a Step is
/// `Command::Move { power: "Step", .. }`. Submitted as [`Command::Act`] (see
/// [`FlowAction::by`]); the rules match on this.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlowAction {
    /// Attack at Disadvantage to make the target drop its weapon (F-32). On a Hard
    /// success or better, `take` takes it (with a free hand) or `to` places it.
    Disarm {
        /// The target.
        target: UnitId,
        /// Take the item into a free hand.
        take: bool,
        /// Or put it on this open hex.
        to: Option<Cell>,
    },
    /// Draw a weapon or shield into a free hand (F-33).
    Draw {
        /// Weapon name.
        weapon: String,
    },
    /// Stow a held weapon or shield (F-33).
    Sheathe {
        /// Weapon name.
        weapon: String,
    },
    /// Opposed Melee/Deception for Advantage on the next attack on the target (F-34).
    Feint {
        /// The target.
        target: UnitId,
    },
    /// Keep all FP at the end of this turn (F-35).
    FlowState,
    /// Opposed Athletics: on success both are grappled (F-36).
    Grapple {
        /// The target.
        target: UnitId,
    },
    /// The grappled unit's opposed Athletics check to break free (F-36, F-GAP-15).
    BreakFree,
    /// The grappler lets go.
    Release,
    /// Ready an attack on the first enemy that enters reach (F-37, F-GAP-18): the
    /// command `Ready(unit:, weapon:)` without `then:` or `on:`.
    Ready {
        /// The weapon to attack with (the first held one if `None`).
        weapon: Option<String>,
    },
    /// Ready any of [`ReadyAction`] on a [`ReadyTrigger`] (F-37, seed L117–118): the
    /// command `Ready(unit:, then:, on:, …)`. `then: Attack, on: EntersReach` plays
    /// exactly as [`FlowAction::Ready`].
    ReadyOn {
        /// What to do.
        then: ReadyAction,
        /// When.
        on: ReadyTrigger,
    },
    /// Opposed Athletics to push back or knock prone (F-38).
    Shove {
        /// The target.
        target: UnitId,
        /// What to try.
        effect: ShoveEffect,
    },
    /// End the turn: +1 RP and Advantage on reactions until the next turn (F-40).
    TotalDefense,
    /// Agility check to pass through an adjacent enemy's hex (F-41, F-GAP-23).
    Tumble {
        /// The enemy to tumble past.
        through: UnitId,
    },
    /// Stand up from prone (provokes Reaction Attacks, F-26).
    StandUp,
    /// Pick up a weapon lying on the unit's hex or next to it (F-GAP-17).
    PickUp {
        /// Item name.
        item: String,
    },
    /// Drop a held item: a free action (F-42).
    Drop {
        /// Item name.
        item: String,
    },
}

const TARGET: ArgSpec = ArgSpec::required("target", ArgKind::Unit);
const WEAPON: ArgSpec = ArgSpec::required("weapon", ArgKind::Name);
const ITEM: ArgSpec = ArgSpec::required("item", ArgKind::Name);
const SHOVE_EFFECTS: &[ChoiceSpec] = &[
    ChoiceSpec {
        value: "PushBack",
        label: "Shove back",
    },
    ChoiceSpec {
        value: "KnockProne",
        label: "Knock prone",
    },
];
const READY_ACTIONS: &[ChoiceSpec] = &[
    ChoiceSpec {
        value: "Attack",
        label: "Ready an attack",
    },
    ChoiceSpec {
        value: "Step",
        label: "Ready a Step",
    },
    ChoiceSpec {
        value: "Move",
        label: "Ready a Move",
    },
    ChoiceSpec {
        value: "Shove",
        label: "Ready a Shove",
    },
    ChoiceSpec {
        value: "Draw",
        label: "Ready a Draw",
    },
];
const READY_TRIGGERS: &[ChoiceSpec] = &[
    ChoiceSpec {
        value: "EntersReach",
        label: "when an enemy enters reach",
    },
    ChoiceSpec {
        value: "Casts",
        label: "when an enemy starts casting",
    },
];

/// The verbs `flow` declares, one per [`FlowAction`].
pub const VERBS: &[VerbSpec] = &[
    VerbSpec {
        key: Some('m'),
        cost: ap(2),
        args: &[
            TARGET,
            ArgSpec::optional("take", ArgKind::Flag),
            ArgSpec::optional("to", ArgKind::Cell),
        ],
        target: Some("target"),
        ..VerbSpec::new(
            "Disarm",
            "attack at Disadvantage to make the target drop its weapon; on a Hard \
             success `take` takes it or `to` puts it on a hex (F-32)",
            &["Disarm"],
        )
    },
    VerbSpec {
        cost: ap(1),
        args: &[WEAPON],
        ..VerbSpec::new(
            "Draw",
            "draw a weapon or shield into a free hand (F-33)",
            &["Draw {weapon}"],
        )
    },
    VerbSpec {
        cost: ap(1),
        args: &[WEAPON],
        ..VerbSpec::new(
            "Sheathe",
            "stow a held weapon or shield (F-33)",
            &["Sheathe {weapon}"],
        )
    },
    VerbSpec {
        key: Some('n'),
        cost: ap(1),
        args: &[TARGET],
        target: Some("target"),
        ..VerbSpec::new(
            "Feint",
            "opposed Melee/Deception: Advantage on the next attack on the target (F-34)",
            &["Feint"],
        )
    },
    VerbSpec {
        key: Some('v'),
        cost: ap(1),
        ..VerbSpec::new(
            "FlowState",
            "keep all FP at the end of this turn (F-35)",
            &["Flow State"],
        )
    },
    VerbSpec {
        key: Some('p'),
        cost: ap(2),
        args: &[TARGET],
        target: Some("target"),
        ..VerbSpec::new(
            "Grapple",
            "opposed Athletics: on success both are grappled (F-36)",
            &["Grapple"],
        )
    },
    VerbSpec {
        key: Some('k'),
        ..VerbSpec::new(
            "BreakFree",
            "opposed Athletics to break a grapple (F-36, F-GAP-15)",
            &["Break free"],
        )
    },
    VerbSpec::new(
        "Release",
        "let go of the grappled unit",
        &["Release grapple"],
    ),
    VerbSpec {
        key: Some('y'),
        cost: ap(2),
        args: &[
            ArgSpec::optional("weapon", ArgKind::Name),
            ArgSpec::optional("then", ArgKind::Choice(READY_ACTIONS)),
            ArgSpec::optional("to", ArgKind::Cell),
            ArgSpec::optional("effect", ArgKind::Choice(SHOVE_EFFECTS)),
            ArgSpec::optional("on", ArgKind::Choice(READY_TRIGGERS)),
        ],
        ..VerbSpec::new(
            "Ready",
            "ready an attack on the first enemy that enters reach, or with `then:` \
             (Attack, Step, Move, Shove, Draw) and `on:` (EntersReach, Casts) another \
             action on another trigger (F-37, F-GAP-18)",
            &[
                "Ready {then} to {to}",
                "Ready {then} {weapon}",
                "Ready {then}",
                "Ready {weapon}",
                "Ready an attack",
            ],
        )
    },
    VerbSpec {
        key: Some('h'),
        cost: ap(1),
        args: &[
            TARGET,
            ArgSpec::required("effect", ArgKind::Choice(SHOVE_EFFECTS)),
        ],
        target: Some("target"),
        ..VerbSpec::new(
            "Shove",
            "opposed Athletics to push the target back or knock it prone (F-38)",
            &["Shove"],
        )
    },
    VerbSpec {
        key: Some('o'),
        cost: ap(3),
        ..VerbSpec::new(
            "TotalDefense",
            "end the turn: +1 RP and Advantage on reactions until the next turn (F-40)",
            &["Total Defense"],
        )
    },
    VerbSpec {
        key: Some('b'),
        cost: ap(1),
        args: &[ArgSpec::required("through", ArgKind::Unit)],
        target: Some("through"),
        ..VerbSpec::new(
            "Tumble",
            "Agility check to pass through an adjacent enemy's hex (F-41, F-GAP-23)",
            &["Tumble past"],
        )
    },
    VerbSpec {
        key: Some('j'),
        cost: ap(1),
        ..VerbSpec::new(
            "StandUp",
            "stand up from prone, provoking Reaction Attacks (F-26)",
            &["Stand up"],
        )
    },
    VerbSpec {
        cost: ap(1),
        args: &[ITEM],
        ..VerbSpec::new(
            "PickUp",
            "pick up a weapon on the unit's hex or next to it (F-GAP-17)",
            &["Pick up {item}"],
        )
    },
    VerbSpec {
        args: &[ITEM],
        rare: true,
        ..VerbSpec::new(
            "Drop",
            "drop a held item: a free action (F-42)",
            &["Drop {item}"],
        )
    },
];

/// The AP `verb` costs with these `costs` (a level may change them), for the verbs
/// whose declared cost is a `costs` constant: the amount the declaration's
/// [`Cost`] takes in a battle.
fn configured(costs: &Costs, verb: &str) -> Option<i32> {
    Some(match verb {
        "Disarm" => costs.disarm,
        "Draw" => costs.draw,
        "Sheathe" => costs.sheathe,
        "Feint" => costs.feint,
        "FlowState" => costs.flow_state,
        "Grapple" => costs.grapple,
        "Ready" => costs.attack,
        "Shove" => costs.shove,
        "TotalDefense" => costs.total_defense,
        "Tumble" => costs.tumble,
        "StandUp" => costs.stand_up,
        "PickUp" => costs.pick_up,
        _ => return None,
    })
}

/// What `verb` costs in a battle with these `costs`: its declared [`Cost`] (in
/// [`VERBS`]) with the configured amount; `None` for a free verb or no verb.
pub fn verb_cost(costs: &Costs, verb: &str) -> Option<Cost> {
    let declared = find(VERBS, verb)?.cost?;
    Some(Cost {
        amount: configured(costs, verb).unwrap_or(declared.amount),
        ..declared
    })
}

impl FlowAction {
    /// The AP it costs with these `costs` (0 if free): what `check` requires, from
    /// its verb's declared cost ([`verb_cost`]); a readied action sets aside what
    /// that action costs (F-GAP-18).
    pub fn ap_cost(&self, costs: &Costs) -> i32 {
        match self {
            FlowAction::ReadyOn { then, .. } => then.ap_cost(costs),
            _ => verb_cost(costs, self.verb()).map_or(0, |c| c.amount),
        }
    }
}

impl FlowAction {
    /// The verb it is declared as (`Shove`).
    pub fn verb(&self) -> &'static str {
        match self {
            FlowAction::Disarm { .. } => "Disarm",
            FlowAction::Draw { .. } => "Draw",
            FlowAction::Sheathe { .. } => "Sheathe",
            FlowAction::Feint { .. } => "Feint",
            FlowAction::FlowState => "FlowState",
            FlowAction::Grapple { .. } => "Grapple",
            FlowAction::BreakFree => "BreakFree",
            FlowAction::Release => "Release",
            FlowAction::Ready { .. } | FlowAction::ReadyOn { .. } => "Ready",
            FlowAction::Shove { .. } => "Shove",
            FlowAction::TotalDefense => "TotalDefense",
            FlowAction::Tumble { .. } => "Tumble",
            FlowAction::StandUp => "StandUp",
            FlowAction::PickUp { .. } => "PickUp",
            FlowAction::Drop { .. } => "Drop",
        }
    }

    /// Its arguments, in declared order (optional ones left out when not given).
    pub fn args(&self) -> Args {
        let args = Args::new();
        match self {
            FlowAction::Disarm { target, take, to } => {
                let mut a = args.with("target", ArgValue::Unit(*target));
                if *take {
                    a = a.with("take", ArgValue::Flag(true));
                }
                match to {
                    Some(c) => a.with("to", ArgValue::Cell(*c)),
                    None => a,
                }
            }
            FlowAction::Draw { weapon } | FlowAction::Sheathe { weapon } => {
                args.with("weapon", ArgValue::Name(weapon.clone()))
            }
            FlowAction::Feint { target } | FlowAction::Grapple { target } => {
                args.with("target", ArgValue::Unit(*target))
            }
            FlowAction::Ready { weapon } => match weapon {
                Some(w) => args.with("weapon", ArgValue::Name(w.clone())),
                None => args,
            },
            FlowAction::ReadyOn { then, on } => {
                // In declared order: weapon, then, to, effect, on.
                let a = match then {
                    ReadyAction::Attack { weapon: Some(w) } | ReadyAction::Draw { weapon: w } => {
                        args.with("weapon", ArgValue::Name(w.clone()))
                    }
                    _ => args,
                };
                let a = a.with("then", ArgValue::Choice(then.syntax().into()));
                let a = match then {
                    ReadyAction::Step { to } | ReadyAction::Move { to } => {
                        a.with("to", ArgValue::Cell(*to))
                    }
                    ReadyAction::Shove { effect } => {
                        a.with("effect", ArgValue::Choice(effect.syntax().into()))
                    }
                    _ => a,
                };
                a.with("on", ArgValue::Choice(on.syntax().into()))
            }
            FlowAction::Shove { target, effect } => args
                .with("target", ArgValue::Unit(*target))
                .with("effect", ArgValue::Choice(effect.syntax().into())),
            FlowAction::Tumble { through } => args.with("through", ArgValue::Unit(*through)),
            FlowAction::PickUp { item } | FlowAction::Drop { item } => {
                args.with("item", ArgValue::Name(item.clone()))
            }
            FlowAction::FlowState
            | FlowAction::BreakFree
            | FlowAction::Release
            | FlowAction::TotalDefense
            | FlowAction::StandUp => args,
        }
    }

    /// The command of `unit` taking this action.
    pub fn by(self, unit: UnitId) -> Command {
        Command::Act {
            unit,
            verb: self.verb().into(),
            args: self.args(),
        }
    }

    /// The action a verb and its arguments stand for; an error naming the verb and
    /// the argument if they don't fit `flow`'s declaration.
    pub fn from_act(verb: &str, args: &Args) -> Result<FlowAction, CommandError> {
        let spec = lookup_among(VERBS, Actor::Unit, "flow", verb)?;
        spec.check(args)?;
        // `check` has made sure every required argument is there with its kind; the
        // fallbacks below are never taken.
        let unit = |name: &str| args.unit(name).unwrap_or(UnitId(u32::MAX));
        let text = |name: &str| args.name(name).unwrap_or_default().to_string();
        Ok(match verb {
            "Disarm" => FlowAction::Disarm {
                target: unit("target"),
                take: args.flag("take"),
                to: args.cell("to"),
            },
            "Draw" => FlowAction::Draw {
                weapon: text("weapon"),
            },
            "Sheathe" => FlowAction::Sheathe {
                weapon: text("weapon"),
            },
            "Feint" => FlowAction::Feint {
                target: unit("target"),
            },
            "FlowState" => FlowAction::FlowState,
            "Grapple" => FlowAction::Grapple {
                target: unit("target"),
            },
            "BreakFree" => FlowAction::BreakFree,
            "Release" => FlowAction::Release,
            "Ready" => ready_from(args)?,
            "Shove" => FlowAction::Shove {
                target: unit("target"),
                effect: shove_effect(args),
            },
            "TotalDefense" => FlowAction::TotalDefense,
            "Tumble" => FlowAction::Tumble {
                through: unit("through"),
            },
            "StandUp" => FlowAction::StandUp,
            "PickUp" => FlowAction::PickUp { item: text("item") },
            _ => FlowAction::Drop { item: text("item") },
        })
    }

    /// The action a command takes, if it is a well-formed `flow` `Act`.
    pub fn of(command: &Command) -> Option<FlowAction> {
        match command {
            Command::Act { verb, args, .. } => FlowAction::from_act(verb, args).ok(),
            _ => None,
        }
    }
}

/// A Shove's `effect` (checked to be one of [`SHOVE_EFFECTS`]; Push Back if absent).
fn shove_effect(args: &Args) -> ShoveEffect {
    match args.choice("effect") {
        Some("KnockProne") => ShoveEffect::KnockProne,
        _ => ShoveEffect::PushBack,
    }
}

/// `Ready`'s arguments as an action: without `then:` and `on:` the readied attack
/// on the first enemy to enter reach ([`FlowAction::Ready`]), else
/// [`FlowAction::ReadyOn`]; an error (F-37) naming what `then:` needs or does not
/// take.
fn ready_from(args: &Args) -> Result<FlowAction, CommandError> {
    let weapon = args.name("weapon").map(str::to_string);
    let (to, effect) = (args.cell("to"), args.choice("effect").is_some());
    let (then, on) = (args.choice("then"), args.choice("on"));
    if then.is_none() && on.is_none() {
        if to.is_some() || effect {
            return Err(CommandError::Forbidden(
                "`Ready` with `to:` or `effect:` needs `then:` (Step, Move or Shove, F-37)".into(),
            ));
        }
        return Ok(FlowAction::Ready { weapon });
    }
    let then = then.unwrap_or("Attack");
    let misplaced = |arg: &str| {
        Err(CommandError::Forbidden(format!(
            "`Ready` with `then: {then}` takes no `{arg}:` (F-37)"
        )))
    };
    let needs = |arg: &str, what: &str| {
        CommandError::Forbidden(format!(
            "`Ready` with `then: {then}` needs `{arg}:` {what} (F-37)"
        ))
    };
    let action = match then {
        "Step" | "Move" => {
            if weapon.is_some() {
                return misplaced("weapon");
            }
            if effect {
                return misplaced("effect");
            }
            let to = to.ok_or_else(|| needs("to", "the hex to go to"))?;
            if then == "Step" {
                ReadyAction::Step { to }
            } else {
                ReadyAction::Move { to }
            }
        }
        "Shove" => {
            if weapon.is_some() {
                return misplaced("weapon");
            }
            if to.is_some() {
                return misplaced("to");
            }
            if !effect {
                return Err(needs("effect", "PushBack or KnockProne"));
            }
            ReadyAction::Shove {
                effect: shove_effect(args),
            }
        }
        "Draw" => {
            if to.is_some() {
                return misplaced("to");
            }
            if effect {
                return misplaced("effect");
            }
            ReadyAction::Draw {
                weapon: weapon.ok_or_else(|| needs("weapon", "the weapon to draw"))?,
            }
        }
        _ => {
            if to.is_some() {
                return misplaced("to");
            }
            if effect {
                return misplaced("effect");
            }
            ReadyAction::Attack { weapon }
        }
    };
    let on = match on {
        Some("Casts") => ReadyTrigger::Casts,
        _ => ReadyTrigger::EntersReach,
    };
    Ok(FlowAction::ReadyOn { then: action, on })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_action() -> Vec<FlowAction> {
        let (t, c) = (UnitId(1), Cell::new(2, 3));
        vec![
            FlowAction::Disarm {
                target: t,
                take: true,
                to: Some(c),
            },
            FlowAction::Disarm {
                target: t,
                take: false,
                to: None,
            },
            FlowAction::Draw {
                weapon: "Axe".into(),
            },
            FlowAction::Sheathe {
                weapon: "Axe".into(),
            },
            FlowAction::Feint { target: t },
            FlowAction::FlowState,
            FlowAction::Grapple { target: t },
            FlowAction::BreakFree,
            FlowAction::Release,
            FlowAction::Ready { weapon: None },
            FlowAction::Ready {
                weapon: Some("Bow".into()),
            },
            FlowAction::ReadyOn {
                then: ReadyAction::Attack { weapon: None },
                on: ReadyTrigger::Casts,
            },
            FlowAction::ReadyOn {
                then: ReadyAction::Attack {
                    weapon: Some("Bow".into()),
                },
                on: ReadyTrigger::EntersReach,
            },
            FlowAction::ReadyOn {
                then: ReadyAction::Step { to: c },
                on: ReadyTrigger::EntersReach,
            },
            FlowAction::ReadyOn {
                then: ReadyAction::Move { to: c },
                on: ReadyTrigger::Casts,
            },
            FlowAction::ReadyOn {
                then: ReadyAction::Shove {
                    effect: ShoveEffect::KnockProne,
                },
                on: ReadyTrigger::EntersReach,
            },
            FlowAction::ReadyOn {
                then: ReadyAction::Draw {
                    weapon: "Axe".into(),
                },
                on: ReadyTrigger::Casts,
            },
            FlowAction::Shove {
                target: t,
                effect: ShoveEffect::PushBack,
            },
            FlowAction::Shove {
                target: t,
                effect: ShoveEffect::KnockProne,
            },
            FlowAction::TotalDefense,
            FlowAction::Tumble { through: t },
            FlowAction::StandUp,
            FlowAction::PickUp { item: "Axe".into() },
            FlowAction::Drop { item: "Axe".into() },
        ]
    }

    #[test]
    fn every_action_is_a_declared_verb_and_reads_back() {
        // F-32 … F-42: each special action goes out as an `Act` that fits its
        // declaration and comes back as the same action.
        for action in every_action() {
            let spec = find(VERBS, action.verb()).expect("declared");
            let args = action.args();
            spec.check(&args)
                .unwrap_or_else(|e| panic!("{action:?}: {e}"));
            assert_eq!(spec.normalize(args.clone()).unwrap(), args, "{action:?}");
            assert_eq!(FlowAction::from_act(action.verb(), &args).unwrap(), action);
        }
        assert_eq!(VERBS.len(), 15, "one verb per action");
    }

    #[test]
    fn malformed_acts_are_errors_naming_verb_and_argument() {
        let err = FlowAction::from_act("Juggle", &Args::new()).unwrap_err();
        assert!(
            err.to_string()
                .contains("`Juggle` is not an action of `flow`"),
            "{err}"
        );
        let err = FlowAction::from_act("Feint", &Args::new()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "`Feint` needs `target`: a unit's name in quotes, e.g. \"Goblin\""
        );
        let args = Args::new()
            .with("target", ArgValue::Unit(UnitId(1)))
            .with("effect", ArgValue::Choice("Sideways".into()));
        let err = FlowAction::from_act("Shove", &args).unwrap_err();
        assert_eq!(
            err.to_string(),
            "`Shove`'s `effect` is `Sideways`; expected one of `PushBack`, `KnockProne`"
        );
        let args = Args::new().with("weapon", ArgValue::Unit(UnitId(0)));
        let err = FlowAction::from_act("Draw", &args).unwrap_err();
        assert!(
            err.to_string().contains("`Draw`'s `weapon` is a unit"),
            "{err}"
        );
        let args = Args::new().with("with", ArgValue::Flag(true));
        let err = FlowAction::from_act("StandUp", &args).unwrap_err();
        assert_eq!(
            err.to_string(),
            "`StandUp` has no argument `with`; its arguments are: `unit`"
        );
    }
}
