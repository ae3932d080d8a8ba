//! Pending decisions: when the rules need a choice from a side (not the active unit's
//! next command), the ruleset sets one [`PendingDecision`] and the battle waits. It
//! is the same shape for every ruleset: who decides, the question in words, and the
//! options, each with the [`Command`] that answers it, a label, its exact chance (if
//! it rolls) and a value. The HUD, the hand-off screen, the AI and `script` read only
//! these fields, so a new ruleset raises a decision of its own kind (a toy's "brace
//! against this Jab?", `escalation`'s "who acts next in this band?") without any code
//! outside its folder.
//!
//! # Picking one or several
//!
//! [`Pick::One`]: the answer is one option's command, or the [`decline`] command
//! (`flow`: one reaction, or `Pass`). [`Pick::Several`]: any subset of the options
//! (`phases`: which units seize the initiative, which held units act now). Each
//! option is then the answer that picks that one thing alone (`Seize(units:
//! ["Knight"])`); picking none is the decline (`Seize(units: [])`), and picking
//! several is the options' commands merged by the ruleset
//! ([`crate::engine::ruleset::Vocabulary::merge_answers`]: by default the lists of
//! units of answers of one verb are put together). [`PendingDecision::answer`] builds
//! the command for any choice. The window offers each option alone (one key each);
//! a scenario may name several at once.
//!
//! # What the AI takes
//!
//! [`PendingDecision::auto_pick`] is what the automatic policy and the `Normal` AI
//! take: for `One`, the option of highest positive value (ties: the cheaper, then
//! the first listed), else the decline; for `Several`, every option of positive
//! value. Values are the ruleset's (`flow`: expected hit points saved or dealt;
//! `phases`: the chance of the kill seizing enables). The `Easy` AI, which does not
//! plan ahead, declines a decision marked [`PendingDecision::lookahead`].
//!
//! Data a ruleset needs to check its own answers (`flow`'s attack being reacted to)
//! stays in the ruleset's own state ([`crate::engine::ruleset::state`]); the core
//! never looks inside.
//!
//! [`decline`]: PendingDecision::decline

use serde::Serialize;

use crate::engine::command::{Command, Names};
use crate::engine::ruleset::Ruleset;
use crate::engine::units::SideId;
use crate::engine::verb::{ArgValue, Args, Cost};

/// Values at or below this are worth nothing: the automatic policy leaves such an
/// option, and values closer than this are a tie.
pub const NOTHING: f64 = 1e-9;

/// A choice the battle is waiting for.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PendingDecision {
    /// The side that decides.
    pub side: SideId,
    /// The question as the HUD asks it, one or two sentences without the side's
    /// name: "Brigand hits Duelist with Rapier (Hard success). React?".
    pub prompt: String,
    /// What is asked, as it reads after "Blue to" (scripts) or "Blue is asked to"
    /// (the hand-off screen): "react to Brigand's attack (Hard success) on
    /// Duelist", "decide which units seize the initiative".
    pub about: String,
    /// Whether the answer is one option or any subset of them.
    pub pick: Pick,
    /// The options, in the order menus list them.
    pub options: Vec<DecisionOption>,
    /// The answer that takes none of the options ("No reaction", "Nobody seizes"),
    /// if there is one; menus list it last.
    pub decline: Option<DecisionOption>,
    /// Whether the values are a guess about what the answer leads to later
    /// (`phases`' seizing: a kill next turn) rather than what it does now: the
    /// `Easy` AI, which plays for now, declines such a decision.
    pub lookahead: bool,
}

// Values and chances are finite numbers (never NaN).
impl Eq for PendingDecision {}

/// How many options an answer takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Pick {
    /// Exactly one option, or the decline.
    One,
    /// Any subset of the options (none is the decline); the ruleset merges the
    /// options' commands into one answer.
    Several,
}

/// One option of a decision.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DecisionOption {
    /// The command that answers with this option (as a scenario writes it:
    /// `React(side: "Blue", unit: "Duelist", reaction: Parry)`).
    pub command: Command,
    /// Its label in menus, in the user's words: "Duelist Parry", "Knight seizes".
    pub label: String,
    /// Exact chance that it succeeds, if it rolls (a reaction's opposed check).
    pub chance: Option<f64>,
    /// What it is worth to the deciding side, on the ruleset's scale: what the
    /// automatic policy and the AI maximise. 0 or less: not worth taking.
    pub value: f64,
    /// What it costs (`flow`: 1 RP), if anything.
    pub cost: Option<Cost>,
}

impl Eq for DecisionOption {}

impl DecisionOption {
    /// An option answered by `command`, labelled `label`: no roll, worth nothing,
    /// free. Fill in the rest with [`chance`](Self::chance), [`value`](Self::value)
    /// and [`cost`](Self::cost).
    pub fn new(command: Command, label: impl Into<String>) -> Self {
        Self {
            command,
            label: label.into(),
            chance: None,
            value: 0.0,
            cost: None,
        }
    }

    /// The same option with its exact chance of success.
    pub fn chance(mut self, chance: f64) -> Self {
        self.chance = Some(chance);
        self
    }

    /// The same option with its value.
    pub fn value(mut self, value: f64) -> Self {
        self.value = value;
        self
    }

    /// The same option with its cost.
    pub fn cost(mut self, cost: Cost) -> Self {
        self.cost = Some(cost);
        self
    }

    /// The label with the chance and cost, for buttons: "Duelist Parry: 45% (1 RP)".
    pub fn caption(&self) -> String {
        let mut s = self.label.clone();
        if let Some(p) = self.chance {
            s += &format!(": {:.0}%", p * 100.0);
        }
        if let Some(c) = self.cost {
            s += &format!(" ({c})");
        }
        s
    }

    /// The option in scenario syntax with its chance, for messages:
    /// `React(side: "Blue", unit: "Duelist", reaction: Parry) 45.0%`.
    pub fn describe(&self, names: &dyn Names) -> String {
        let mut s = self.command.display(names);
        if let Some(p) = self.chance {
            s += &format!(" {:.1}%", p * 100.0);
        }
        s
    }

    fn amount(&self) -> i32 {
        self.cost.map_or(0, |c| c.amount)
    }
}

impl PendingDecision {
    /// Every single answer, as the ruleset's `legal` lists them: the decline first,
    /// then each option alone.
    pub fn answers(&self) -> impl Iterator<Item = &Command> {
        self.decline.iter().chain(&self.options).map(|o| &o.command)
    }

    /// The option or decline answered by `command`, if it is one of them.
    pub fn option_for(&self, command: &Command) -> Option<&DecisionOption> {
        self.options
            .iter()
            .chain(&self.decline)
            .find(|o| o.command == *command)
    }

    /// What the automatic policy takes, as indices into [`Self::options`] (empty:
    /// the decline). `One`: the option of highest value above [`NOTHING`], the
    /// cheaper on a tie, then the first listed; if none is worth anything, the
    /// decline — or, when there is no decline, the best option anyway. `Several`:
    /// every option worth more than [`NOTHING`], in order.
    pub fn auto_pick(&self) -> Vec<usize> {
        match self.pick {
            Pick::Several => (0..self.options.len())
                .filter(|&i| self.options[i].value > NOTHING)
                .collect(),
            Pick::One => {
                let worth = self.best(|o| o.value > NOTHING);
                match (worth, &self.decline) {
                    (Some(i), _) => vec![i],
                    (None, Some(_)) => Vec::new(),
                    (None, None) => self.best(|_| true).into_iter().collect(),
                }
            }
        }
    }

    fn best(&self, eligible: impl Fn(&DecisionOption) -> bool) -> Option<usize> {
        let mut best: Option<usize> = None;
        for (i, o) in self.options.iter().enumerate().filter(|(_, o)| eligible(o)) {
            let better = best.is_none_or(|b| {
                let b = &self.options[b];
                o.value > b.value + NOTHING
                    || ((o.value - b.value).abs() <= NOTHING && o.amount() < b.amount())
            });
            if better {
                best = Some(i);
            }
        }
        best
    }

    /// The one command that answers with these options picked (indices into
    /// [`Self::options`]): none is the decline, one is that option's command,
    /// several (only for [`Pick::Several`]) are merged by `rules`. `None` when
    /// that is not an answer (several for `One`, none without a decline, an index
    /// out of range, commands the ruleset cannot merge).
    pub fn answer(&self, rules: &dyn Ruleset, picked: &[usize]) -> Option<Command> {
        let commands: Option<Vec<Command>> = picked
            .iter()
            .map(|&i| self.options.get(i).map(|o| o.command.clone()))
            .collect();
        let mut commands = commands?;
        match commands.len() {
            0 => self.decline.as_ref().map(|d| d.command.clone()),
            1 => commands.pop(),
            _ if self.pick == Pick::Several => rules.merge_answers(&commands),
            _ => None,
        }
    }
}

/// The default of [`crate::engine::ruleset::Vocabulary::merge_answers`]: answers of one side with the same
/// verb (`phases`' `Seize`) whose arguments differ only in their lists of units
/// become one answer listing all their units, in order; anything else does not
/// merge.
pub fn merge_unit_answers(answers: &[Command]) -> Option<Command> {
    let Some(Command::Answer { side, verb, args }) = answers.first() else {
        return None;
    };
    let mut merged: Vec<(String, ArgValue)> = args
        .iter()
        .map(|(n, v)| (n.to_string(), v.clone()))
        .collect();
    for answer in &answers[1..] {
        let Command::Answer {
            side: s,
            verb: v,
            args: more,
        } = answer
        else {
            return None;
        };
        if s != side || v != verb || more.iter().count() != merged.len() {
            return None;
        }
        for ((name, value), (n, v)) in merged.iter_mut().zip(more.iter()) {
            match (value, v) {
                (ArgValue::Units(all), ArgValue::Units(us)) if name == n => {
                    all.extend_from_slice(us);
                }
                (value, v) if name == n && *value == *v => {}
                _ => return None,
            }
        }
    }
    let args = merged
        .into_iter()
        .fold(Args::new(), |a, (n, v)| a.with(&n, v));
    Some(Command::Answer {
        side: *side,
        verb: verb.clone(),
        args,
    })
}
