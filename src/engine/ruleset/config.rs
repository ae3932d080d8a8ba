//! What every ruleset's RON configuration shares: where the file is read from, how
//! parse errors read, how a level's `rules` overrides replace single constants, and
//! the range checks every value passes before the engine plays with it.
//!
//! A configuration is only ever handed out checked: [`from_ron`] and [`load_default`]
//! (the file, or the compiled-in copy) and [`with_overrides`] (a level's `rules`)
//! refuse a value of the wrong type *and* a value out of its documented range, so
//! `skirmish check` and the engine agree on what plays (one validation truth).

use std::collections::BTreeMap;
use std::fmt::Display;
use std::ops::RangeInclusive;
use std::path::PathBuf;

use serde::Serialize;
use serde::de::DeserializeOwned;

pub use super::error::ConfigError;
use super::error::RulesetError;

/// A ruleset's configuration: its id, its compiled-in defaults and the checks of its
/// values beyond their types.
pub trait RulesetConfig: Serialize + DeserializeOwned + Clone {
    /// The ruleset id, e.g. `phases`; the file is `assets/rulesets/<id>.ron`.
    const RULESET: &'static str;
    /// The compiled-in copy of the file.
    const DEFAULT_RON: &'static str;
    /// Every constant out of its documented range; empty when all are playable.
    fn problems(&self) -> Vec<ConfigError>;
}

/// Pushes a problem when `value` is outside `range`: "`key` is 0; expected 1 to 100".
pub fn check_range<T: PartialOrd + Display>(
    problems: &mut Vec<ConfigError>,
    key: &str,
    value: T,
    range: RangeInclusive<T>,
) {
    if !range.contains(&value) {
        problems.push(ConfigError::new(
            key,
            format!(
                "`{key}` is {value}; expected {} to {}",
                range.start(),
                range.end()
            ),
        ));
    }
}

/// The assets directory: `$SKIRMISH_ASSETS`, else `./assets`.
pub fn assets_dir() -> PathBuf {
    std::env::var_os("SKIRMISH_ASSETS")
        .map(PathBuf::from)
        .unwrap_or_else(|| "assets".into())
}

/// Parses and checks a configuration; the error reads `line:col: message` (a value
/// out of range is placed at its key).
pub fn from_ron<T: RulesetConfig>(text: &str) -> Result<T, String> {
    let config: T = ron::from_str(text)
        .map_err(|e| format!("{}:{}: {}", e.span.start.line, e.span.start.col, e.code))?;
    match config.problems().into_iter().next() {
        None => Ok(config),
        Some(p) => {
            let (line, col) = key_position(text, &p.key).unwrap_or((1, 1));
            Err(format!("{line}:{col}: {}", p.message))
        }
    }
}

/// 1-based line and column of the first line of `text` that starts with `key:`.
fn key_position(text: &str, key: &str) -> Option<(usize, usize)> {
    text.lines().enumerate().find_map(|(i, line)| {
        let trimmed = line.trim_start();
        let rest = trimmed.strip_prefix(key)?;
        rest.trim_start().starts_with(':').then(|| {
            let indent = line[..line.len() - trimmed.len()].chars().count();
            (i + 1, indent + 1)
        })
    })
}

/// `assets/rulesets/<ruleset>.ron` on disk if present (errors name the file),
/// otherwise the compiled-in copy; checked either way.
pub fn load_default<T: RulesetConfig>() -> Result<T, String> {
    let path = assets_dir()
        .join("rulesets")
        .join(format!("{}.ron", T::RULESET));
    match std::fs::read_to_string(&path) {
        Ok(text) => from_ron(&text).map_err(|e| format!("{}:{e}", path.display())),
        Err(_) => from_ron(T::DEFAULT_RON),
    }
}

/// Every problem of a level's overrides, each at its key, checked on its own on
/// top of `T`'s checked defaults (what [`crate::engine::ruleset::Ruleset::
/// override_problems`] answers); one problem if the defaults themselves don't load.
pub fn override_problems<T: RulesetConfig>(
    overrides: &BTreeMap<String, ron::Value>,
) -> Vec<ConfigError> {
    match load_default::<T>() {
        Ok(base) => apply_overrides(&base, overrides).1,
        Err(e) => vec![ConfigError::new(
            "",
            format!(
                "the {} configuration does not load, so no level can play it: {e}",
                T::RULESET
            ),
        )],
    }
}

/// `T`'s checked defaults with every playable override of `rules` applied, or
/// `None` if the defaults don't load (reported by [`override_problems`]).
pub fn configured<T: RulesetConfig>(rules: &BTreeMap<String, ron::Value>) -> Option<T> {
    load_default::<T>()
        .ok()
        .map(|base| apply_overrides(&base, rules).0)
}

/// `config` with a level's overrides applied, or every problem of the overrides (an
/// unknown key, a value of the wrong type or out of range) as
/// [`RulesetError::Overrides`].
pub fn with_overrides<T: RulesetConfig>(
    config: &T,
    overrides: &BTreeMap<String, ron::Value>,
) -> Result<T, RulesetError> {
    let (merged, problems) = apply_overrides(config, overrides);
    if problems.is_empty() {
        Ok(merged)
    } else {
        Err(RulesetError::Overrides(problems))
    }
}

/// `T`'s checked defaults ([`load_default`]) with a level's `overrides` applied
/// ([`with_overrides`]): the configuration a ruleset sets a battle up with, and
/// what its [`crate::engine::ruleset::Ruleset::check_overrides`] checks (`.map(|_|
/// ())`). A configuration that does not load is [`RulesetError::Config`].
pub fn for_level<T: RulesetConfig>(
    overrides: &BTreeMap<String, ron::Value>,
) -> Result<T, RulesetError> {
    with_overrides(
        &load_default::<T>().map_err(RulesetError::Config)?,
        overrides,
    )
}

/// `config` (a checked configuration) with every playable override of a level
/// applied, and the problems of the others, each at a key the level set: an
/// unknown key (listing the known ones), a value of the wrong type, a value out of
/// range. The overrides are judged together, since one constant's range may hang on
/// another's (actfast: `success_at` at most `pool_die`): overrides that only make
/// sense together pass together, and a constant the level left alone that its
/// overrides put out of range is reported at the override that did it, saying to
/// set that constant too.
pub fn apply_overrides<T: RulesetConfig>(
    config: &T,
    overrides: &BTreeMap<String, ron::Value>,
) -> (T, Vec<ConfigError>) {
    if overrides.is_empty() {
        return (config.clone(), Vec::new());
    }
    let base = match to_map(config) {
        Ok(map) => map,
        Err(e) => return (config.clone(), vec![ConfigError::new("", e)]),
    };
    let with = |pairs: &[(&String, &ron::Value)]| {
        let mut map = base.clone();
        for &(k, v) in pairs {
            map.insert(ron::Value::String(k.clone()), v.clone());
        }
        ron::Value::Map(map).into_rust::<T>()
    };
    let mut problems = Vec::new();
    // The overrides of a known constant with a value of its type.
    let mut typed: Vec<(&String, &ron::Value)> = Vec::new();
    for (key, v) in overrides {
        if base.get(&ron::Value::String(key.clone())).is_none() {
            let known: Vec<String> = base
                .keys()
                .filter_map(|k| match k {
                    ron::Value::String(s) => Some(s.clone()),
                    _ => None,
                })
                .collect();
            problems.push(ConfigError::new(
                key,
                format!(
                    "unknown rule constant `{key}` for {}; known: {}",
                    T::RULESET,
                    known.join(", ")
                ),
            ));
            continue;
        }
        match with(&[(key, v)]) {
            Err(e) => problems.push(ConfigError::new(key, format!("`{key}`: {e}"))),
            Ok(_) => typed.push((key, v)),
        }
    }
    let merged = with(&typed);
    let together = match &merged {
        Ok(m) => m.problems(),
        Err(e) => vec![ConfigError::new("", format!("the rules overrides: {e}"))],
    };
    for p in together {
        if p.key.is_empty() || overrides.contains_key(&p.key) {
            problems.push(p);
            continue;
        }
        // A constant left at its default that the overrides put out of range: at
        // the overrides that do it on their own, or at all of them.
        let alone: Vec<&(&String, &ron::Value)> = typed
            .iter()
            .filter(|pair| {
                with(&[**pair]).is_ok_and(|one| one.problems().iter().any(|q| q.key == p.key))
            })
            .collect();
        let culprits = if alone.is_empty() {
            typed.iter().collect()
        } else {
            alone
        };
        for (key, v) in culprits {
            let shown = ron::to_string(*v).unwrap_or_default();
            problems.push(ConfigError::new(
                key,
                format!(
                    "`{key}` {shown} puts `{}`, left at its default, out of range: {}; \
                     set `{}` too",
                    p.key, p.message, p.key
                ),
            ));
        }
    }
    // Problems in the order of the level's keys, the ones about no key last.
    problems.sort_by(|a, b| (a.key.is_empty(), &a.key).cmp(&(b.key.is_empty(), &b.key)));
    if problems.is_empty() {
        return (merged.unwrap_or_else(|_| config.clone()), problems);
    }
    // Play what can be played: the overrides no problem is about.
    let playable: Vec<(&String, &ron::Value)> = typed
        .into_iter()
        .filter(|(k, _)| !problems.iter().any(|p| &p.key == *k))
        .collect();
    match with(&playable) {
        Ok(m) if m.problems().is_empty() => (m, problems),
        _ => (config.clone(), problems),
    }
}

/// A configuration as an untyped RON map of its constants.
fn to_map<T: Serialize>(config: &T) -> Result<ron::Map, String> {
    let text = ron::to_string(config).map_err(|e| e.to_string())?;
    match ron::from_str::<ron::Value>(&text).map_err(|e| e.to_string())? {
        ron::Value::Map(map) => Ok(map),
        _ => Err("the ruleset configuration is not a struct".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_found_at_the_start_of_their_line() {
        let text = "// tie_die: in a comment\n(\n    speed: 6,\n    tie_die : 0,\n)";
        assert_eq!(key_position(text, "tie_die"), Some((4, 5)));
        assert_eq!(key_position(text, "speed"), Some((3, 5)));
        assert_eq!(key_position(text, "spee"), None);
    }
}
