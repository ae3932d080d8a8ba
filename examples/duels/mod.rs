//! What the measuring examples (`ladder`, `oracle`, `room`) share: the duel level of
//! each ruleset, in the README's order, and the rulesets named on the command line.

use skirmish::level::schema::Level;

/// The rulesets with a duel level, in the README's order.
const RULESETS: [&str; 5] = ["phases", "escalation", "wounds", "actfast", "flow"];

/// The rulesets named in `rest` (the command line's remaining arguments), or every
/// ruleset with a duel level when none is.
pub fn rulesets(rest: impl Iterator<Item = String>) -> Vec<String> {
    let named: Vec<String> = rest.collect();
    if named.is_empty() {
        RULESETS.iter().map(|s| s.to_string()).collect()
    } else {
        named
    }
}

/// `levels/duel_<ruleset>.ron`; a file that can't be loaded ends the program with
/// its problems and exit code 2.
pub fn level(ruleset: &str) -> Level {
    let file = format!("levels/duel_{ruleset}.ron");
    skirmish::level::load_file(std::path::Path::new(&file)).unwrap_or_else(|e| {
        eprintln!("{file}: {e:?}");
        std::process::exit(2);
    })
}
