//! The registry: the one list of rulesets, built once in a fixed order (the built-in
//! ones first, then any [`register`]ed in the order they came).
//!
//! This file is the only one of the program outside a ruleset's own folder that names
//! it (tests name a ruleset's events and verbs to check them): to add a ruleset to
//! the build, write its folder and add one line to `builtins`. A test (or a tool)
//! can add one at run time with [`register`]; [`super::new_battle`], level checks and
//! the editor then find it by id like the built-in ones.
//!
//! Look-ups take a read lock and scan a handful of entries: they happen when a battle
//! is set up or a level checked, never per command. A battle keeps the
//! `&'static dyn Ruleset` it was set up with.

use std::sync::{LazyLock, PoisonError, RwLock};

use super::{actfast, escalation, flow, phases, wounds};
use crate::engine::ruleset::Ruleset;

/// The rulesets this build plays, in the order they are listed everywhere (the first
/// is the default of `skirmish edit --ruleset`).
fn builtins() -> Vec<&'static dyn Ruleset> {
    vec![
        &phases::Phases as &dyn Ruleset,
        &flow::Flow,
        &escalation::Escalation,
        &wounds::Wounds,
        &actfast::Actfast,
    ]
}

/// Why a ruleset could not be registered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegisterError {
    /// Another ruleset already has this id.
    #[error("a ruleset with id `{0}` is already registered")]
    Taken(String),
    /// The id is empty or has characters a level file can't name it by.
    #[error(
        "ruleset id `{0}` is not usable: use lower-case letters, digits, `_` or `-`, starting with a letter"
    )]
    BadId(String),
}

/// The registered rulesets and their ids (leaked once per registration: a ruleset
/// lives as long as the program, and [`ids`] hands out `'static` slices).
struct Registry {
    rulesets: Vec<&'static dyn Ruleset>,
    ids: &'static [&'static str],
}

static REGISTRY: LazyLock<RwLock<Registry>> = LazyLock::new(|| {
    let rulesets = builtins();
    let ids = leak_ids(&rulesets);
    RwLock::new(Registry { rulesets, ids })
});

fn leak_ids(rulesets: &[&'static dyn Ruleset]) -> &'static [&'static str] {
    Box::leak(rulesets.iter().map(|r| r.id()).collect::<Box<[_]>>())
}

fn read<T>(f: impl FnOnce(&Registry) -> T) -> T {
    f(&REGISTRY.read().unwrap_or_else(PoisonError::into_inner))
}

/// The ruleset with this id (exact match), if registered.
pub fn get(id: &str) -> Option<&'static dyn Ruleset> {
    read(|r| r.rulesets.iter().copied().find(|r| r.id() == id))
}

/// Every registered ruleset, in registry order.
pub fn all() -> Vec<&'static dyn Ruleset> {
    read(|r| r.rulesets.clone())
}

/// The ids of every registered ruleset, in registry order.
pub fn ids() -> &'static [&'static str] {
    read(|r| r.ids)
}

/// The id of the first ruleset (the default for a new level).
pub fn default_id() -> &'static str {
    ids()[0]
}

/// Adds a ruleset after the ones already registered and returns it. Its id must be
/// new and usable in a level file (lower-case letters, digits, `_`, `-`).
///
/// ```
/// use skirmish::engine::rulesets::phases::Phases;
/// use skirmish::engine::rulesets::registry::{self, RegisterError};
///
/// // Every id is registered once: the built-in `phases` is there already.
/// assert_eq!(
///     registry::register(Box::new(Phases)).err(),
///     Some(RegisterError::Taken("phases".into()))
/// );
/// ```
///
/// See [`Ruleset`] for what a ruleset implements.
pub fn register(ruleset: Box<dyn Ruleset>) -> Result<&'static dyn Ruleset, RegisterError> {
    let id = ruleset.id();
    let usable = id.starts_with(|c: char| c.is_ascii_lowercase())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
    if !usable {
        return Err(RegisterError::BadId(id.to_string()));
    }
    let mut reg = REGISTRY.write().unwrap_or_else(PoisonError::into_inner);
    if reg.rulesets.iter().any(|r| r.id() == id) {
        return Err(RegisterError::Taken(id.to_string()));
    }
    let ruleset: &'static dyn Ruleset = Box::leak(ruleset);
    reg.rulesets.push(ruleset);
    reg.ids = leak_ids(&reg.rulesets);
    Ok(ruleset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::{AiHints, LevelSchema, Presentation, RulesetError, Vocabulary};

    #[test]
    fn builtins_come_first_in_a_fixed_order_with_unique_ids() {
        let ids = ids();
        assert_eq!(ids[..2], ["phases", "flow"]);
        assert_eq!(default_id(), "phases");
        let mut unique = ids.to_vec();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ids.len());
        for id in ids {
            assert_eq!(get(id).map(|r| r.id()), Some(*id));
        }
        assert!(get("Phases").is_none(), "ids match exactly");
    }

    #[test]
    fn a_taken_or_unusable_id_is_refused() {
        assert_eq!(
            register(Box::new(phases::Phases)).err(),
            Some(RegisterError::Taken("phases".into()))
        );
        struct Named(&'static str);
        impl Ruleset for Named {
            fn id(&self) -> &'static str {
                self.0
            }

            fn stats(&self) -> &'static [crate::engine::ruleset::StatSpec] {
                &[]
            }

            fn check_overrides(
                &self,
                _: &std::collections::BTreeMap<String, ron::Value>,
            ) -> Result<(), RulesetError> {
                Ok(())
            }

            fn build(&self, _: &mut bevy_app::App) {}
            fn setup(
                &self,
                _: &mut bevy_ecs::world::World,
                _: &crate::engine::spec::Level,
            ) -> Result<(), RulesetError> {
                Ok(())
            }

            fn check(
                &self,
                _: &bevy_ecs::world::World,
                _: &crate::engine::command::Command,
            ) -> Result<(), crate::engine::command::CommandError> {
                Ok(())
            }

            fn legal(&self, _: &bevy_ecs::world::World) -> Vec<crate::engine::command::Command> {
                Vec::new()
            }

            fn preview_attack(
                &self,
                _: &bevy_ecs::world::World,
                _: crate::engine::units::UnitId,
                _: crate::engine::units::UnitId,
                _: Option<&str>,
            ) -> Option<crate::engine::ruleset::AttackPreview> {
                None
            }

            fn attack_odds(
                &self,
                _: &bevy_ecs::world::World,
                _: crate::engine::units::UnitId,
                _: crate::engine::units::UnitId,
                _: Option<&str>,
                _: crate::engine::ruleset::Assume<'_>,
            ) -> Option<crate::engine::ruleset::AttackOdds> {
                None
            }

            fn preview_move(
                &self,
                _: &bevy_ecs::world::World,
                _: crate::engine::units::UnitId,
                _: &str,
                _: &[crate::engine::board::Cell],
            ) -> crate::engine::ruleset::MovePreview {
                Default::default()
            }

            fn stage_name(&self, _: crate::engine::event::Stage) -> &'static str {
                ""
            }

            fn turn_order(
                &self,
                _: &bevy_ecs::world::World,
            ) -> Vec<crate::engine::ruleset::TurnOrder> {
                Vec::new()
            }

            fn pools(
                &self,
                _: &bevy_ecs::world::World,
                _: crate::engine::units::UnitId,
            ) -> Vec<(String, i32)> {
                Vec::new()
            }
        }

        impl Vocabulary for Named {}

        impl LevelSchema for Named {}

        impl Presentation for Named {}

        impl AiHints for Named {}
        for bad in ["", "Caps", "9lives", "two words"] {
            assert_eq!(
                register(Box::new(Named(bad))).err(),
                Some(RegisterError::BadId(bad.into())),
                "{bad:?}"
            );
        }
        assert!(!ids().contains(&"Caps"));
    }
}
