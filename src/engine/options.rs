//! The attack options a player chooses among (issue 30): each attack option a
//! ruleset declares ([`Ruleset::attack_options`]) that lists its choices
//! ([`ArgSpec::choices`]: `wounds`' `aim` at a body location, a flag's off and on),
//! the attack's preview with each choice ([`choice_previews`], what the window's
//! chooser shows) and the choice the AI makes ([`best_options`]), the same way for
//! every ruleset.

use bevy_ecs::world::World;

use crate::engine::ruleset::{OptionPreview, Ruleset};
use crate::engine::units::UnitId;
use crate::engine::verb::{ArgSpec, Args, OptionChoice};

/// The attack options of `ruleset` a player chooses among, in declared order
/// (those with choices; an `actfast` approach, a path, offers none).
pub fn choosable(ruleset: &dyn Ruleset) -> Vec<&'static ArgSpec> {
    ruleset
        .attack_options()
        .iter()
        .filter(|o| !o.choices().is_empty())
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
            let Some(worth) = ruleset.attack_worth(world, attacker, target, power, &options)
            else {
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
