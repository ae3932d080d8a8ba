//! The attack options a player chooses among (issue 30): each attack option a
//! ruleset declares ([`Ruleset::attack_options`]) that lists its choices
//! ([`ArgSpec::choices`]: `wounds`' `aim` at a body location, a flag's off and on),
//! the attack's preview with each choice ([`choice_previews`], what the window's
//! chooser shows), the choices a player has made ([`Chosen`], which the window's C
//! key and chooser bar change and its attacks are made with) and the choice the AI
//! makes ([`best_options`]), the same way for every ruleset.

use std::collections::BTreeMap;

use bevy_ecs::world::World;

use crate::engine::command::Command;
use crate::engine::ruleset::{OptionPreview, Ruleset};
use crate::engine::units::UnitId;
use crate::engine::verb::{ArgSpec, Args, OptionChoice};

/// The attack options of `ruleset` a player chooses among, in declared order
/// (those with choices; an `actfast` approach, a path, offers none).
pub fn choosable(ruleset: &dyn Ruleset) -> Vec<&'static ArgSpec> {
    ruleset
        .attack_options()
        .iter()
        .filter(|o| o.offers_choices())
        .collect()
}

/// One choice of an attack option and the attack's preview with it.
#[derive(Clone, Debug, PartialEq)]
pub struct ChoicePreview {
    /// The option (`aim`).
    pub option: &'static str,
    /// The choice's place in the option's [`ArgSpec::choices`].
    pub index: usize,
    /// The choice.
    pub choice: OptionChoice,
    /// The attack's preview with the option set so (others left out).
    pub preview: OptionPreview,
}

/// The preview of `attacker`'s attack on `target` with each choice of each option
/// a player chooses among ([`choosable`]), set alone, in declared order; a choice
/// the attack can't take (a `wounds` spell aimed anywhere) is left out. Empty for a
/// ruleset whose attacks offer no choice.
pub fn choice_previews(
    ruleset: &dyn Ruleset,
    world: &World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
) -> Vec<ChoicePreview> {
    let mut out = Vec::new();
    for option in choosable(ruleset) {
        for (index, choice) in option.choices().into_iter().enumerate() {
            let options = Args::new().with_opt(option.name, choice.value.clone());
            if let Some(preview) =
                ruleset.preview_attack_with(world, attacker, target, power, &options)
            {
                out.push(ChoicePreview {
                    option: option.name,
                    index,
                    choice,
                    preview,
                });
            }
        }
    }
    out
}

/// The attack options the AI attacks `target` with: for each option a player
/// chooses among, the choice worth most ([`Ruleset::attack_worth`], the first of
/// equals in declared order), written as the choice sets it. An option with fewer
/// than two choices the attack can take (a `wounds` spell, which can't aim) is
/// left out; so is every option of a ruleset whose attacks offer no choice.
pub fn best_options(
    ruleset: &dyn Ruleset,
    world: &World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
) -> Args {
    let mut chosen = Args::new();
    for option in choosable(ruleset) {
        let mut best: Option<(f64, OptionChoice)> = None;
        let mut takes = 0;
        for choice in option.choices() {
            let options = Args::new().with_opt(option.name, choice.value.clone());
            let Some(worth) = ruleset.attack_worth(world, attacker, target, power, &options) else {
                continue;
            };
            takes += 1;
            if worth > best.as_ref().map_or(f64::MIN, |(b, _)| *b) {
                best = Some((worth, choice));
            }
        }
        if takes > 1
            && let Some((_, choice)) = best
        {
            chosen = chosen.with_opt(option.name, choice.value);
        }
    }
    chosen
}

/// The choices a player has made for the attack options it chooses among: each
/// option's choice by its place in [`ArgSpec::choices`]. An option not listed keeps
/// its default (the option left out: `wounds`' Center Mass, a flag's `off`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Chosen(BTreeMap<&'static str, usize>);

impl Chosen {
    /// Whether every option keeps its default.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The place of the choice made for `option` (its default's when none is).
    pub fn index(&self, option: &ArgSpec) -> usize {
        self.0
            .get(option.name)
            .copied()
            .unwrap_or_else(|| option.choices().iter().position(|c| c.default).unwrap_or(0))
    }

    /// Chooses choice `index` of `option` (its default, or a place it has not: the
    /// option left out).
    pub fn choose(&mut self, option: &'static ArgSpec, index: usize) {
        match option.choices().get(index) {
            Some(c) if !c.default => {
                self.0.insert(option.name, index);
            }
            _ => {
                self.0.remove(option.name);
            }
        }
    }

    /// Chooses the choice after the current one of `option`, wrapping, and returns
    /// its label.
    pub fn next(&mut self, option: &'static ArgSpec) -> String {
        let choices = option.choices();
        let next = (self.index(option) + 1) % choices.len().max(1);
        self.choose(option, next);
        choices
            .get(next)
            .map(|c| c.label.clone())
            .unwrap_or_default()
    }

    /// `command` with these choices, if it is an attack that can take them: a
    /// choice the attack can't take (a `wounds` spell can't aim) is left out, and
    /// so is a default.
    pub fn apply(&self, ruleset: &dyn Ruleset, world: &World, command: Command) -> Command {
        match command {
            Command::Attack {
                unit,
                target,
                power,
                mut options,
            } if !self.is_empty() => {
                for p in choice_previews(ruleset, world, unit, target, power.as_deref()) {
                    if self.0.get(p.option) == Some(&p.index) {
                        options = p.choice.set_in(p.option, options);
                    }
                }
                Command::Attack {
                    unit,
                    target,
                    power,
                    options,
                }
            }
            other => other,
        }
    }
}

/// Each attack option of `ruleset` a player chooses among, with the label of the
/// choice an attack with `options` makes (the default's when it leaves the option
/// out): `("aim", "Slowing")`.
pub fn choice_labels(ruleset: &dyn Ruleset, options: &Args) -> Vec<(&'static str, String)> {
    choosable(ruleset)
        .into_iter()
        .map(|o| {
            let given = options.get(o.name);
            let choices = o.choices();
            let made = choices
                .iter()
                .find(|c| given.is_some() && c.value.as_ref() == given)
                .or_else(|| choices.iter().find(|c| c.default));
            (o.name, made.map(|c| c.label.clone()).unwrap_or_default())
        })
        .collect()
}
