//! What every ruleset's RON configuration shares: where the file is read from, how
//! parse errors read, and how a level's `rules` overrides replace single constants.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// The assets directory: `$SKIRMISH_ASSETS`, else `./assets`.
pub fn assets_dir() -> PathBuf {
    std::env::var_os("SKIRMISH_ASSETS")
        .map(PathBuf::from)
        .unwrap_or_else(|| "assets".into())
}

/// Parses a configuration; the error reads `line:col: message`.
pub fn from_ron<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    ron::from_str(text)
        .map_err(|e| format!("{}:{}: {}", e.span.start.line, e.span.start.col, e.code))
}

/// `assets/rulesets/<ruleset>.ron` on disk if present (errors name the file),
/// otherwise the compiled-in copy `default_ron`.
pub fn load_default<T: DeserializeOwned>(ruleset: &str, default_ron: &str) -> Result<T, String> {
    let path = assets_dir().join("rulesets").join(format!("{ruleset}.ron"));
    match std::fs::read_to_string(&path) {
        Ok(text) => from_ron(&text).map_err(|e| format!("{}:{e}", path.display())),
        Err(_) => from_ron(default_ron),
    }
}

/// `config` with a level's overrides applied, each key naming a field; an unknown
/// key lists the known ones.
pub fn with_overrides<T: Serialize + DeserializeOwned + Clone>(
    config: &T,
    ruleset: &str,
    overrides: &BTreeMap<String, ron::Value>,
) -> Result<T, String> {
    if overrides.is_empty() {
        return Ok(config.clone());
    }
    let base = ron::to_string(config).map_err(|e| e.to_string())?;
    let mut value: ron::Value = ron::from_str(&base).map_err(|e| e.to_string())?;
    let ron::Value::Map(map) = &mut value else {
        return Err("the ruleset configuration is not a struct".into());
    };
    for (key, v) in overrides {
        let k = ron::Value::String(key.clone());
        if map.get(&k).is_none() {
            let known: Vec<String> = map
                .keys()
                .filter_map(|k| match k {
                    ron::Value::String(s) => Some(s.clone()),
                    _ => None,
                })
                .collect();
            return Err(format!(
                "unknown rule constant `{key}` for {ruleset}; known: {}",
                known.join(", ")
            ));
        }
        map.insert(k, v.clone());
    }
    value
        .into_rust::<T>()
        .map_err(|e| format!("bad value in rules overrides: {e}"))
}
