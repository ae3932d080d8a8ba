//! Commands: every intent, from a player, the AI, a script or a test, is one of these
//! (command → check → event → apply). `check` says why an illegal command is refused.

use serde::{Deserialize, Serialize};

use crate::engine::board::Cell;
use crate::engine::dice::DiceError;
use crate::engine::units::{SideId, UnitId};
use crate::engine::verb::{ArgValue, Args, VerbError, VerbSpec};

/// An intent submitted to the battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Uses a movement power along `path` (the cells entered, in order).
    Move {
        /// The mover.
        unit: UnitId,
        /// Movement power name (Walk, Shift, Charge, ...).
        power: String,
        /// Cells entered, start excluded.
        path: Vec<Cell>,
        /// The options of the move the ruleset declares
        /// ([`crate::engine::ruleset::Ruleset::move_options`]: the enemy a `phases`
        /// Charge charges), in declared order; checked like a verb's arguments.
        #[serde(default, skip_serializing_if = "Args::is_empty")]
        options: Args,
    },
    /// Attacks `target` with a power or weapon (the unit's first if `None`) (P-23),
    /// with the options the ruleset declares for its attacks
    /// ([`crate::engine::ruleset::Ruleset::attack_options`]: where a `wounds` attack
    /// aims, the approach an `actfast` melee attack moves first); a ruleset that
    /// declares none refuses any.
    Attack {
        /// The attacker.
        unit: UnitId,
        /// The target.
        target: UnitId,
        /// Power or weapon name.
        power: Option<String>,
        /// Its options, in declared order; checked like a verb's arguments.
        #[serde(default, skip_serializing_if = "Args::is_empty")]
        options: Args,
    },
    /// Activates an item (P-25); `target` for items that attack.
    ActivateItem {
        /// The unit.
        unit: UnitId,
        /// Item name.
        item: String,
        /// Target of an attacking item.
        target: Option<UnitId>,
    },
    /// Ends the unit's current turn without (further) action.
    EndTurn {
        /// The unit.
        unit: UnitId,
    },
    /// Answers a pending decision with an answer the ruleset declares
    /// ([`crate::engine::ruleset::Vocabulary::answers`]: `phases`' Seize, `flow`'s
    /// React): the battle checks `args` against the answer's [`VerbSpec`] before the
    /// ruleset sees it, as for [`Command::Act`].
    Answer {
        /// The deciding side.
        side: SideId,
        /// The answer, as the ruleset declares it (`Seize`).
        verb: String,
        /// Its arguments, in declared order.
        args: Args,
    },
    /// Declines a pending decision (no reaction).
    Pass {
        /// The deciding side.
        side: SideId,
    },
    /// A special action the ruleset declares as a verb (`flow`'s Feint, Shove ...,
    /// `phases`' Defend, Delay and Disengage):
    /// the battle checks `args` against the verb's [`VerbSpec`] before the ruleset
    /// sees it. See [`crate::engine::verb`].
    Act {
        /// The unit acting.
        unit: UnitId,
        /// The verb, as the ruleset declares it (`Shove`).
        verb: String,
        /// Its arguments, in declared order.
        args: Args,
    },
}

impl Command {
    /// `unit` attacks `target` with `power` (its first if `None`), without options.
    pub fn attack(unit: UnitId, target: UnitId, power: Option<String>) -> Command {
        Command::Attack {
            unit,
            target,
            power,
            options: Args::new(),
        }
    }

    /// `unit` moves along `path` with the movement `power`, without options.
    pub fn move_along(unit: UnitId, power: impl Into<String>, path: Vec<Cell>) -> Command {
        Command::Move {
            unit,
            power: power.into(),
            path,
            options: Args::new(),
        }
    }

    /// The unit acting, if the command is one unit's action.
    pub fn unit(&self) -> Option<UnitId> {
        match self {
            Command::Answer { .. } | Command::Pass { .. } => None,
            Command::Move { unit, .. }
            | Command::Attack { unit, .. }
            | Command::ActivateItem { unit, .. }
            | Command::EndTurn { unit }
            | Command::Act { unit, .. } => Some(*unit),
        }
    }

    /// The deciding side, if the command answers a decision.
    pub fn side(&self) -> Option<SideId> {
        match self {
            Command::Answer { side, .. } | Command::Pass { side } => Some(*side),
            _ => None,
        }
    }
}

/// Why a command was refused (or failed while running).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The battle is over.
    #[error("the battle is over")]
    BattleOver,
    /// There is no unit with that id.
    #[error("there is no unit #{0}")]
    NoSuchUnit(u32),
    /// The unit has been defeated.
    #[error("{0} has been defeated")]
    Defeated(String),
    /// A decision is pending and must be answered first.
    #[error("waiting for {side} to decide: {what}")]
    DecisionPending {
        /// Name of the deciding side.
        side: String,
        /// What is asked.
        what: String,
    },
    /// The command answers a decision nobody asked for.
    #[error("no such decision is pending")]
    NoDecisionPending,
    /// Not this unit's turn.
    #[error("it is not {unit}'s turn ({reason})")]
    NotYourTurn {
        /// The unit.
        unit: String,
        /// Whose turn it is / what stage.
        reason: String,
    },
    /// Wrong stage for this command.
    #[error("{0}")]
    WrongStage(String),
    /// The action was already used.
    #[error("{unit} has already {what} this round")]
    AlreadyUsed {
        /// The unit.
        unit: String,
        /// What was used.
        what: String,
    },
    /// Unknown power / item / movement power.
    #[error("{unit} has no {kind} named `{name}`")]
    Unknown {
        /// The unit.
        unit: String,
        /// "power", "item", "movement power".
        kind: &'static str,
        /// The name asked for.
        name: String,
    },
    /// Not a legal target.
    #[error("no such target: {0}")]
    NoSuchTarget(String),
    /// Target out of reach or range.
    #[error("out of reach: {0}")]
    OutOfReach(String),
    /// Path too long.
    #[error("not enough movement: the path costs {cost} but {power} allows {budget}")]
    NotEnoughMovement {
        /// Cost of the path.
        cost: u32,
        /// Budget of the power.
        budget: u32,
        /// The power.
        power: String,
    },
    /// A path step is illegal.
    #[error("path blocked: {0}")]
    PathBlocked(String),
    /// A condition forbids it.
    #[error("{0}")]
    Forbidden(String),
    /// An answer (or action) of a ruleset's own that this unit cannot give now, and
    /// why, in the ruleset's words (`flow`: "Duelist cannot Parry: it has no melee
    /// weapon in hand").
    #[error("{unit} cannot {what}: {reason}")]
    Cannot {
        /// The unit.
        unit: String,
        /// What it was asked to do (`Parry`).
        what: String,
        /// Why not.
        reason: String,
    },
    /// Not enough action, reaction or flow points.
    #[error("{unit} has {have} {pool} but {what} costs {need}")]
    NotEnoughPoints {
        /// The unit.
        unit: String,
        /// The pool.
        pool: crate::engine::units::Pool,
        /// What is left.
        have: i32,
        /// What the action costs.
        need: i32,
        /// The action.
        what: String,
    },
    /// An `Act` that does not fit its verb's declaration (unknown verb, missing,
    /// extra or wrongly typed argument).
    #[error("{0}")]
    Verb(#[from] VerbError),
    /// The dice failed (scripted faces ran out or did not fit).
    #[error("dice: {0}")]
    Dice(#[from] DiceError),
}

/// Names of units and sides, for showing commands to users (see
/// [`Command::display`]).
pub trait Names {
    /// The name of a unit.
    fn unit_name(&self, unit: UnitId) -> String;
    /// The name of a side.
    fn side_name(&self, side: SideId) -> String;
    /// The verbs of the battle's ruleset (to write an `Act`'s arguments in their
    /// declared order); none by default.
    fn verbs(&self) -> &'static [VerbSpec] {
        &[]
    }

    /// The answers of the battle's ruleset (to write an `Answer`'s arguments in
    /// their declared order); none by default.
    fn answers(&self) -> &'static [VerbSpec] {
        &[]
    }

    /// The one-cell moves of the battle's ruleset, written as commands of their own
    /// (`Step(unit:, to:)`); none by default.
    fn one_cell_moves(&self) -> &'static [&'static str] {
        &[]
    }
}

impl Names for bevy_ecs::world::World {
    fn unit_name(&self, unit: UnitId) -> String {
        crate::engine::battle::name(self, unit)
    }

    fn side_name(&self, side: SideId) -> String {
        self.get_resource::<crate::engine::battle::Sides>()
            .and_then(|s| s.0.get(side.0 as usize))
            .map_or_else(|| format!("side #{}", side.0), |s| s.name.clone())
    }

    fn verbs(&self) -> &'static [VerbSpec] {
        self.get_resource::<crate::engine::battle::ActiveRuleset>()
            .map_or(&[], |r| r.0.verbs())
    }

    fn answers(&self) -> &'static [VerbSpec] {
        self.get_resource::<crate::engine::battle::ActiveRuleset>()
            .map_or(&[], |r| r.0.answers())
    }

    fn one_cell_moves(&self) -> &'static [&'static str] {
        self.get_resource::<crate::engine::battle::ActiveRuleset>()
            .map_or(&[], |r| r.0.one_cell_moves())
    }
}

impl Names for crate::engine::battle::Battle {
    fn unit_name(&self, unit: UnitId) -> String {
        self.world().unit_name(unit)
    }

    fn side_name(&self, side: SideId) -> String {
        self.world().side_name(side)
    }

    fn verbs(&self) -> &'static [VerbSpec] {
        self.rules().verbs()
    }

    fn answers(&self) -> &'static [VerbSpec] {
        self.rules().answers()
    }

    fn one_cell_moves(&self) -> &'static [&'static str] {
        self.rules().one_cell_moves()
    }
}

/// A RON string literal: `"…"` with `"`, `\` and control characters escaped, so
/// it reads back as the same text.
pub fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.extend(c.escape_debug()),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Writes one command in the syntax of a scenario file (README, "Scripted
/// scenarios"): `Attack(unit: "Knight", target: "Goblin", power: "Longsword")`.
/// Fields that are left out (`None`, `false`) are not written.
#[derive(Clone, Debug)]
pub struct Syntax {
    text: String,
    fields: usize,
}

impl Syntax {
    /// Starts a command with its name, e.g. `Attack`.
    pub fn new(name: &str) -> Self {
        Self {
            text: format!("{name}("),
            fields: 0,
        }
    }

    /// A field written as is (an identifier, a number...).
    pub fn raw(mut self, field: &str, value: impl std::fmt::Display) -> Self {
        if self.fields > 0 {
            self.text.push_str(", ");
        }
        self.fields += 1;
        self.text.push_str(&format!("{field}: {value}"));
        self
    }

    /// A name (a string).
    pub fn name(self, field: &str, value: &str) -> Self {
        self.raw(field, quoted(value))
    }

    /// A name, if there is one.
    pub fn opt_name(self, field: &str, value: Option<&str>) -> Self {
        match value {
            Some(v) => self.name(field, v),
            None => self,
        }
    }

    /// A list of names: `["Knight", "Archer"]`.
    pub fn names<S: AsRef<str>>(self, field: &str, values: impl IntoIterator<Item = S>) -> Self {
        let list: Vec<String> = values.into_iter().map(|v| quoted(v.as_ref())).collect();
        self.raw(field, format!("[{}]", list.join(", ")))
    }

    /// A cell: `(3, 4)`.
    pub fn cell(self, field: &str, (x, y): (i32, i32)) -> Self {
        self.raw(field, format!("({x}, {y})"))
    }

    /// A cell, if there is one.
    pub fn opt_cell(self, field: &str, cell: Option<(i32, i32)>) -> Self {
        match cell {
            Some(c) => self.cell(field, c),
            None => self,
        }
    }

    /// A list of cells: `[(1, 2), (2, 2)]`.
    pub fn cells(self, field: &str, cells: impl IntoIterator<Item = (i32, i32)>) -> Self {
        let list: Vec<String> = cells
            .into_iter()
            .map(|(x, y)| format!("({x}, {y})"))
            .collect();
        self.raw(field, format!("[{}]", list.join(", ")))
    }

    /// A flag, written only when it is set.
    pub fn flag(self, field: &str, set: bool) -> Self {
        if set { self.raw(field, "true") } else { self }
    }

    /// A verb's arguments, in the order given, units by `unit_name`.
    pub fn args<'a>(
        self,
        args: impl IntoIterator<Item = (&'a str, &'a ArgValue)>,
        unit_name: &dyn Fn(&UnitId) -> String,
    ) -> Self {
        args.into_iter().fold(self, |s, (name, value)| match value {
            ArgValue::Unit(t) => s.name(name, &unit_name(t)),
            ArgValue::Cell(c) => s.cell(name, xy(*c)),
            ArgValue::Name(n) => s.name(name, n),
            ArgValue::Flag(f) => s.flag(name, *f),
            ArgValue::Choice(c) => s.raw(name, c),
            ArgValue::Units(us) => s.names(name, us.iter().map(unit_name)),
            ArgValue::Cells(cs) => s.cells(name, cs.iter().copied().map(xy)),
        })
    }

    /// The command text.
    pub fn finish(mut self) -> String {
        self.text.push(')');
        self.text
    }
}

fn xy(c: Cell) -> (i32, i32) {
    (c.x, c.y)
}

impl Command {
    /// The command as a user would write it in a scenario, with unit and side names:
    /// `Attack(unit: "Knight", target: "Goblin", power: "Longsword")`. A move shows
    /// its destination and, when it takes more than one step, its exact path.
    pub fn display(&self, names: &dyn Names) -> String {
        let unit = |u: &UnitId| names.unit_name(*u);
        let side = |s: &SideId| names.side_name(*s);
        match self {
            Command::Move {
                unit: u,
                power,
                path,
                options,
            } if path.len() == 1
                && options.is_empty()
                && names.one_cell_moves().contains(&power.as_str()) =>
            {
                Syntax::new(power)
                    .name("unit", &unit(u))
                    .cell("to", xy(path[0]))
            }
            Command::Move {
                unit: u,
                power,
                path,
                options,
            } => {
                let mut s = Syntax::new("Move")
                    .name("unit", &unit(u))
                    .name("power", power)
                    .opt_cell("to", path.last().copied().map(xy));
                if path.len() != 1 {
                    s = s.cells("path", path.iter().copied().map(xy));
                }
                s.args(options.iter(), &unit)
            }
            Command::Attack {
                unit: u,
                target,
                power,
                options,
            } => Syntax::new("Attack")
                .name("unit", &unit(u))
                .name("target", &unit(target))
                .opt_name("power", power.as_deref())
                .args(options.iter(), &unit),
            Command::ActivateItem {
                unit: u,
                item,
                target,
            } => Syntax::new("Use")
                .name("unit", &unit(u))
                .name("item", item)
                .opt_name("target", target.as_ref().map(unit).as_deref()),
            Command::EndTurn { unit: u } => Syntax::new("EndTurn").name("unit", &unit(u)),
            Command::Answer {
                side: s,
                verb,
                args,
            } => {
                let spec = crate::engine::verb::find(names.answers(), verb);
                Syntax::new(verb)
                    .name("side", &side(s))
                    .args(args.in_order(spec), &unit)
            }
            Command::Pass { side: s } => Syntax::new("Pass").name("side", &side(s)),
            Command::Act {
                unit: u,
                verb,
                args,
            } => {
                let spec = crate::engine::verb::find(names.verbs(), verb);
                Syntax::new(verb)
                    .name("unit", &unit(u))
                    .args(args.in_order(spec), &unit)
            }
        }
        .finish()
    }
}
