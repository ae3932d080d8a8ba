//! `skirmish sim --set KEY=VALUE` and `--sweep KEY=…`: a level changed from the
//! command line, without editing its file.
//!
//! A KEY is either a constant of the ruleset configuration (a key of a level's
//! `rules` map, e.g. `crit_at`; see `assets/rulesets/<ruleset>.ron`) or a unit's stat,
//! `UNIT.STAT` (e.g. `Knight.DEF`). A VALUE is RON, as in a level file (`17`,
//! `"3d6"`, `[6, 8, 10, 12]`, `true`); a bare word that isn't RON (`3d6`) is taken as
//! a string. The changed level goes through the same checks as a level file
//! ([`validate`]), so a bad constant or value is refused with the message a level's
//! `rules` would get, naming the `--set` or sweep value that caused it.

use crate::engine::problems::Where;
use crate::engine::rulesets::registry;
use crate::level::schema::Level;
use crate::level::validate::validate;

/// The most values one sweep may play.
pub const MAX_SWEEP_VALUES: usize = 1000;

/// What a `--set` or a `--sweep` changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    /// A constant of the ruleset configuration, by name (a key of `Level::rules`).
    Rule(String),
    /// A stat of a unit: the unit's index in the roster and the stat's name as the
    /// ruleset spells it.
    Stat {
        /// Index in `Level::units`.
        unit: usize,
        /// The stat name, e.g. `DEF`.
        stat: String,
    },
}

/// One change to a level: a key and its new value.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    /// What it changes.
    pub key: Key,
    /// The new value.
    pub value: ron::Value,
    /// How it reads, `KEY=VALUE` (for messages and the report).
    pub text: String,
}

/// Parses the KEY of a `--set` or `--sweep` against `level`: `UNIT.STAT` names a
/// unit of the level and a stat of its ruleset (either in any case), anything else a
/// rule constant (checked when the setting is applied).
pub fn parse_key(level: &Level, key: &str) -> Result<Key, String> {
    let key = key.trim();
    if key.is_empty() {
        return Err("no KEY before `=`".into());
    }
    let Some((unit, stat)) = key.rsplit_once('.') else {
        return Ok(Key::Rule(key.to_string()));
    };
    let names: Vec<&str> = level.units.iter().map(|u| u.name.as_str()).collect();
    let index = names
        .iter()
        .position(|n| *n == unit)
        .or_else(|| names.iter().position(|n| n.eq_ignore_ascii_case(unit)))
        .ok_or_else(|| {
            format!(
                "no unit `{unit}` in {}; its units are {}",
                level.name,
                names.join(", ")
            )
        })?;
    let specs = registry::get(&level.ruleset).map_or(&[][..], |r| r.stats());
    let Some(spec) = specs
        .iter()
        .find(|s| s.name == stat)
        .or_else(|| specs.iter().find(|s| s.name.eq_ignore_ascii_case(stat)))
    else {
        let has: Vec<String> = level.units[index]
            .stats
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
        return Err(format!(
            "no stat `{stat}` in ruleset {}; {} has {}; the ruleset's stats are {}",
            level.ruleset,
            names[index],
            if has.is_empty() {
                "none".to_string()
            } else {
                has.join(", ")
            },
            known.join(", ")
        ));
    };
    Ok(Key::Stat {
        unit: index,
        stat: spec.name.to_string(),
    })
}

/// A VALUE as RON; text that isn't RON, or a bare word RON would read as `()`, is
/// taken as a string (`3d6` for `"3d6"`, `d6` for `"d6"`).
pub fn parse_value(text: &str) -> ron::Value {
    match ron::from_str::<ron::Value>(text) {
        Ok(ron::Value::Unit) if text.trim() != "()" => ron::Value::String(text.to_string()),
        Ok(value) => value,
        Err(_) => ron::Value::String(text.to_string()),
    }
}

/// Parses `--set KEY=VALUE` against `level`.
pub fn parse_setting(level: &Level, arg: &str) -> Result<Setting, String> {
    let (key, value) = arg
        .split_once('=')
        .ok_or("expected KEY=VALUE, e.g. --set crit_at=16 or --set Knight.DEF=13")?;
    setting(level, parse_key(level, key)?, key.trim(), value.trim())
}

/// A setting of `key` (written `key_text`) to the value written `value`: a stat
/// must be a whole number.
fn setting(level: &Level, key: Key, key_text: &str, value: &str) -> Result<Setting, String> {
    if value.is_empty() {
        return Err(format!("no VALUE after `{key_text}=`"));
    }
    let parsed = parse_value(value);
    if let Key::Stat { unit, stat } = &key {
        let whole = parsed.clone().into_rust::<i32>().map_err(|_| {
            format!(
                "{}'s {stat} must be a whole number, not `{value}`",
                level.units[*unit].name
            )
        })?;
        return Ok(Setting {
            key,
            value: ron::Value::Number(whole.into()),
            text: format!("{key_text}={whole}"),
        });
    }
    Ok(Setting {
        key,
        value: parsed,
        text: format!("{key_text}={value}"),
    })
}

/// `level` with `settings` made (later ones win), checked as a level file is; the
/// error names the setting each problem comes from (`--set crit_at=40: …`), one
/// line per problem.
pub fn apply(level: &Level, settings: &[Setting], flag: &str) -> Result<Level, String> {
    let mut out = level.clone();
    for s in settings {
        match &s.key {
            Key::Rule(k) => {
                out.rules.insert(k.clone(), s.value.clone());
            }
            Key::Stat { unit, stat } => {
                let v = s.value.clone().into_rust::<i32>().unwrap_or_default();
                out.units[*unit].stats.insert(stat.clone(), v);
            }
        }
    }
    let issues = validate(&out);
    if issues.is_empty() {
        return Ok(out);
    }
    let lines: Vec<String> = issues
        .iter()
        .map(|issue| {
            let culprit = settings.iter().rev().find(|s| match (&s.key, &issue.at) {
                (Key::Rule(k), Where::Rule(r)) => k == r,
                (Key::Stat { unit, stat }, Where::Stat { unit: u, stat: t }) => {
                    unit == u && stat == t
                }
                _ => false,
            });
            let mut message = issue.message.clone();
            if let Where::Rule(k) = &issue.at
                && message.starts_with("unknown rule constant")
                && let Some(r) = registry::get(&level.ruleset)
                && r.stats().iter().any(|s| s.name.eq_ignore_ascii_case(k))
            {
                message.push_str(&format!(
                    " (`{k}` is a unit stat: write UNIT.{k}, e.g. {}.{k})",
                    level.units.first().map_or("Knight", |u| u.name.as_str())
                ));
            }
            match culprit {
                Some(s) => format!("{flag} {}: {message}", s.text),
                None => {
                    let all: Vec<&str> = settings.iter().map(|s| s.text.as_str()).collect();
                    format!("with {flag} {}: {message}", all.join(", "))
                }
            }
        })
        .collect();
    Err(lines.join("\n"))
}

/// A `--sweep`: the key and each value it plays, as settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    /// The KEY as written.
    pub key: String,
    /// One setting of the key per value, in the order played.
    pub values: Vec<Setting>,
}

impl Sweep {
    /// Each value as written (RON), in order.
    pub fn value_texts(&self) -> Vec<String> {
        self.values
            .iter()
            .map(|s| {
                s.text
                    .split_once('=')
                    .map_or(String::new(), |(_, v)| v.to_string())
            })
            .collect()
    }
}

/// Parses `--sweep KEY=A..B[:STEP]` (integers, or decimals; STEP 1 by default) or
/// `--sweep KEY=V1,V2,…` (RON values, commas inside brackets or quotes kept)
/// against `level`.
pub fn parse_sweep(level: &Level, arg: &str) -> Result<Sweep, String> {
    let (key_text, spec) = arg.split_once('=').ok_or(
        "expected KEY=A..B[:STEP] or KEY=V1,V2,…, e.g. --sweep crit_at=14..20 or --sweep \
         Knight.DEF=10,12,14",
    )?;
    let key_text = key_text.trim();
    let key = parse_key(level, key_text)?;
    let spec = spec.trim();
    let texts = match range_values(spec)? {
        Some(values) => values,
        None => list_values(spec)?,
    };
    let values = texts
        .iter()
        .map(|v| setting(level, key.clone(), key_text, v))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Sweep {
        key: key_text.to_string(),
        values,
    })
}

/// The values of `A..B[:STEP]`, as text, or `None` if `spec` isn't a range of
/// numbers.
fn range_values(spec: &str) -> Result<Option<Vec<String>>, String> {
    if spec.contains(['"', '[', '(', '{', ',']) {
        return Ok(None);
    }
    let Some((from, rest)) = spec.split_once("..") else {
        return Ok(None);
    };
    let (to, step) = match rest.split_once(':') {
        Some((to, step)) => (to, Some(step)),
        None => (rest, None),
    };
    let (from, to) = (from.trim(), to.trim().trim_start_matches('='));
    let step = step.map(str::trim);
    let usage = || {
        format!(
            "`{spec}` is not a range: expected A..B or A..B:STEP with numbers, e.g. 14..20 or \
             0.5..1.5:0.25"
        )
    };
    // Whole numbers when every bound is one, else decimals.
    if let (Ok(a), Ok(b), Ok(s)) = (
        from.parse::<i64>(),
        to.parse::<i64>(),
        step.map_or(Ok(1), str::parse::<i64>),
    ) {
        check_range(spec, a as f64, b as f64, s as f64)?;
        let (a, b, s) = (i128::from(a), i128::from(b), i128::from(s));
        let count = (b - a) / s + 1;
        check_count(spec, count as f64)?;
        return Ok(Some((0..count).map(|i| (a + i * s).to_string()).collect()));
    }
    let number = |t: &str| t.parse::<f64>().ok().filter(|x| x.is_finite());
    let (Some(a), Some(b), Some(s)) = (number(from), number(to), step.map_or(Some(1.0), number))
    else {
        return Err(usage());
    };
    check_range(spec, a, b, s)?;
    // A little slack so 0..1:0.1 ends at 1 despite rounding.
    let count = ((b - a) / s + 1e-9).floor() + 1.0;
    check_count(spec, count)?;
    Ok(Some(
        (0..count as usize)
            .map(|i| {
                let x = a + i as f64 * s;
                // Rounded to 9 decimals (0.30000000000000004 reads 0.3), always with a
                // decimal point so RON reads a float.
                let x = (x * 1e9).round() / 1e9;
                let text = x.to_string();
                if text.contains(['.', 'e']) {
                    text
                } else {
                    format!("{text}.0")
                }
            })
            .collect(),
    ))
}

fn check_range(spec: &str, a: f64, b: f64, step: f64) -> Result<(), String> {
    if a > b {
        return Err(format!(
            "`{spec}` runs backwards: the start is above the end (write the smaller first)"
        ));
    }
    if step <= 0.0 {
        return Err(format!("`{spec}`: the step must be above 0"));
    }
    Ok(())
}

fn check_count(spec: &str, count: f64) -> Result<(), String> {
    if count > MAX_SWEEP_VALUES as f64 {
        return Err(format!(
            "`{spec}` has {count} values; a sweep plays at most {MAX_SWEEP_VALUES} (use a larger \
             :STEP)"
        ));
    }
    Ok(())
}

/// The values of `V1,V2,…`, split at the commas outside brackets and quotes.
fn list_values(spec: &str) -> Result<Vec<String>, String> {
    let mut values = Vec::new();
    let (mut depth, mut quoted, mut escaped) = (0_i32, false, false);
    let mut current = String::new();
    for c in spec.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '[' | '(' | '{' if !quoted => depth += 1,
            ']' | ')' | '}' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                values.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    values.push(current);
    let values: Vec<String> = values.into_iter().map(|v| v.trim().to_string()).collect();
    if values.iter().all(String::is_empty) {
        return Err("no values to sweep: expected A..B[:STEP] or V1,V2,…".into());
    }
    if let Some(i) = values.iter().position(String::is_empty) {
        return Err(format!(
            "`{spec}`: value {} is empty (a stray comma?)",
            i + 1
        ));
    }
    if values.len() > MAX_SWEEP_VALUES {
        return Err(format!(
            "{} values; a sweep plays at most {MAX_SWEEP_VALUES}",
            values.len()
        ));
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_lists() {
        assert_eq!(
            range_values("14..17").unwrap().unwrap(),
            ["14", "15", "16", "17"]
        );
        assert_eq!(range_values("2..9:3").unwrap().unwrap(), ["2", "5", "8"]);
        assert_eq!(
            range_values("0..0.3:0.1").unwrap().unwrap(),
            ["0.0", "0.1", "0.2", "0.3"]
        );
        assert_eq!(range_values("-2..-1").unwrap().unwrap(), ["-2", "-1"]);
        assert!(range_values("5..3").unwrap_err().contains("backwards"));
        assert!(range_values("1..5:0").unwrap_err().contains("step"));
        assert!(
            range_values("1..5000")
                .unwrap_err()
                .contains("at most 1000")
        );
        assert!(range_values("a..b").unwrap_err().contains("not a range"));
        assert_eq!(range_values("\"a..b\"").unwrap(), None);
        assert_eq!(
            list_values(r#"1, "2d6,x", [6, 8], (a: 1, b: 2)"#).unwrap(),
            ["1", r#""2d6,x""#, "[6, 8]", "(a: 1, b: 2)"]
        );
        assert!(
            list_values("1,,2")
                .unwrap_err()
                .contains("value 2 is empty")
        );
        assert!(list_values(" ").unwrap_err().contains("no values"));
    }

    #[test]
    fn values_are_ron_or_bare_strings() {
        assert_eq!(parse_value("3d6"), ron::Value::String("3d6".into()));
        assert_eq!(parse_value("\"3d6\""), ron::Value::String("3d6".into()));
        assert_eq!(parse_value("d6"), ron::Value::String("d6".into()));
        assert_eq!(parse_value("()"), ron::Value::Unit);
        assert_eq!(parse_value("true"), ron::Value::Bool(true));
        assert_eq!(parse_value("17").into_rust::<i32>().unwrap(), 17);
    }
}
