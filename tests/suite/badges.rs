//! Condition badges (issue 33): every condition a ruleset can apply has a badge —
//! a Game Icons glyph in `assets/icons`, a colour, short text, a one-line effect, a
//! duration in words and the rule that defines it (a rule ID of the ruleset's own
//! audit, `docs/rules/<ruleset>.md`) — and the number a badge shows counts what it
//! should.

use std::collections::BTreeSet;
use std::path::Path;

use skirmish::ai::AiPolicy;
use skirmish::engine::conditions::{Condition, Duration, Magnitude};
use skirmish::engine::event::Event;
use skirmish::engine::ruleset::{ConditionBadge, badge_number};
use skirmish::engine::rulesets::registry;

const RULESETS: [&str; 5] = ["phases", "escalation", "wounds", "actfast", "flow"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every condition name `ruleset` puts on units anywhere in its code, from its own
/// lists of names.
fn names(ruleset: &str) -> Vec<String> {
    use skirmish::engine::rulesets::{actfast, escalation, flow, phases, wounds};
    let mut out: Vec<String> = match ruleset {
        "phases" => {
            use phases::conditions as c;
            // What powers may apply, what movement powers put on their user, and
            // what the battle itself gives (P-15 Seize, a Charge).
            c::APPLICABLE
                .iter()
                .chain(c::SELF_APPLICABLE)
                .chain(&[c::SEIZED, c::CHARGING])
                .map(|s| s.to_string())
                .collect()
        }
        "escalation" => {
            use escalation::conditions as c;
            let mut v: Vec<&str> = c::NAMES.to_vec();
            v.extend([
                c::STAGGERED,
                c::DICEY_EDGE,
                c::DICEY_AID,
                c::POPPED_OFF,
                c::SPIRIT_ATTACKS,
                c::SPIRIT_SAVES,
                c::SPIRIT_GUARD,
            ]);
            v.iter().map(|s| s.to_string()).collect()
        }
        "wounds" => {
            use wounds::state::names as n;
            let mut v: Vec<String> = wounds::aim::Aim::ALL
                .into_iter()
                .map(wounds::attack::wound_name)
                .collect();
            v.extend(
                [
                    n::PRONE,
                    n::FLAT_FOOTED,
                    n::HIDDEN,
                    n::DISENGAGED,
                    n::SICK,
                    n::CHANNELING,
                    n::DISARMED,
                    n::HIT_BOOST,
                    n::DAMAGE_BOOST,
                    n::DODGE,
                    n::DISRUPTED,
                    wounds::magic::UPKEEPING,
                ]
                .map(String::from),
            );
            v
        }
        "actfast" => actfast::stats::CONDITIONS
            .iter()
            .map(|s| s.name)
            .chain([
                actfast::state::names::WAVERING,
                actfast::state::names::FLEEING,
            ])
            .map(String::from)
            .collect(),
        "flow" => {
            use flow::conditions as c;
            let config: flow::config::FlowConfig =
                ron::from_str(flow::config::DEFAULT_RON).expect("flow's default configuration");
            [
                c::TOTAL_DEFENSE,
                c::FLOW_STATE,
                c::FEINTING,
                c::GRAPPLING,
                c::GRAPPLED,
                c::PRONE,
            ]
            .map(String::from)
            .into_iter()
            // The ongoing conditions of its default configuration (F-GAP-22).
            .chain(config.ongoing.keys().cloned())
            .collect()
        }
        _ => unreachable!(),
    };
    out.sort();
    out.dedup();
    out
}

/// The icons `tools/icons/build.mjs` rasterizes.
fn listed_icons() -> BTreeSet<String> {
    std::fs::read_to_string(root().join("tools/icons/icons.txt"))
        .expect("tools/icons/icons.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// What is wrong with `badge` of `condition` under `ruleset`, if anything.
fn badge_problems(ruleset: &str, condition: &str, badge: &ConditionBadge) -> Vec<String> {
    let mut out = Vec::new();
    let png = root().join(format!("assets/icons/{}.png", badge.icon));
    match image::open(&png) {
        Ok(img) if (img.width(), img.height()) == (64, 64) => {}
        Ok(img) => out.push(format!(
            "{} is {}x{}",
            png.display(),
            img.width(),
            img.height()
        )),
        Err(e) => out.push(format!("{}: {e}", png.display())),
    }
    if !listed_icons().contains(badge.icon) {
        out.push(format!(
            "icon `{}` is not in tools/icons/icons.txt",
            badge.icon
        ));
    }
    let audit = std::fs::read_to_string(root().join(format!("docs/rules/{ruleset}.md")))
        .expect("the ruleset's audit");
    let prefix = format!("{}-", ruleset[..1].to_uppercase());
    let cited = audit
        .match_indices(badge.rule)
        .any(|(i, _)| !audit[i + badge.rule.len()..].starts_with(|c: char| c.is_ascii_digit()));
    if !badge.rule.starts_with(&prefix) || !cited {
        out.push(format!(
            "rule `{}` is not a rule of docs/rules/{ruleset}.md",
            badge.rule
        ));
    }
    for (what, text) in [
        ("short", badge.short),
        ("effect", badge.effect),
        ("duration", badge.duration),
    ] {
        if text.is_empty() || !text.is_ascii() || text.contains('\n') {
            out.push(format!(
                "{what} {text:?} is not one line of ASCII (the window's font)"
            ));
        }
    }
    if badge.short.len() > 8 {
        out.push(format!("short {:?} is longer than 8", badge.short));
    }
    out.into_iter()
        .map(|p| format!("{ruleset} `{condition}`: {p}"))
        .collect()
}

/// Every condition each ruleset can apply has a complete badge, with its icon
/// rasterized and its rule cited in the ruleset's audit.
#[test]
fn every_condition_of_every_ruleset_has_a_badge() {
    let mut problems = Vec::new();
    for ruleset in RULESETS {
        let rules = registry::get(ruleset).unwrap();
        let names = names(ruleset);
        assert!(names.len() >= 6, "{ruleset}: {names:?}");
        for name in &names {
            match rules.condition_badge(name) {
                Some(badge) => problems.extend(badge_problems(ruleset, name, &badge)),
                None => problems.push(format!("{ruleset} `{name}`: no badge")),
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The conditions the shipped levels and scenarios actually put on units, played by
/// the AI or by their scripts, all have badges (a condition added to a ruleset
/// without one fails here even if no list above names it).
#[test]
fn conditions_met_in_play_have_badges() {
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    let mut note = |battle: &skirmish::engine::Battle| {
        for e in battle.events() {
            if let Event::ConditionAdded { condition, .. } = e {
                seen.insert((battle.ruleset().to_string(), condition.name.clone()));
            }
        }
    };
    for level in crate::ai::levels() {
        for seed in 0..3 {
            let level = skirmish::ai::sim::ai_level(&level, &[AiPolicy::Normal, AiPolicy::Normal]);
            let mut battle = skirmish::engine::rulesets::new_battle(
                &level,
                skirmish::engine::dice::Dice::seeded(seed),
            )
            .expect("shipped level");
            let mut rng = <rand::rngs::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
            skirmish::ai::sim::play(&mut battle, &level, &mut rng, 400).expect("plays");
            note(&battle);
        }
    }
    let dir = root().join("levels/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    for file in files {
        let (scenario, level) = skirmish::script::load(&file).expect("scenario loads");
        note(
            &skirmish::script::run(&scenario, &level)
                .expect("sets up")
                .battle,
        );
    }
    let missing: Vec<String> = seen
        .iter()
        .filter(|(r, c)| registry::get(r).unwrap().condition_badge(c).is_none())
        .map(|(r, c)| format!("{r} `{c}`"))
        .collect();
    assert!(
        missing.is_empty(),
        "conditions without a badge: {missing:?}"
    );
    // The play met conditions of every ruleset (else this checks nothing).
    for ruleset in RULESETS {
        assert!(
            seen.iter().any(|(r, _)| r == ruleset),
            "no {ruleset} battle applied a condition: {seen:?}"
        );
    }
}

/// Each ruleset words its own conditions; another ruleset's word is not its own.
#[test]
fn each_ruleset_declares_its_condition_badges() {
    let badge = |r: &str, c: &str| registry::get(r).unwrap().condition_badge(c);
    let short = |r: &str, c: &str| badge(r, c).map(|b| b.short);
    assert_eq!(short("phases", "Slowed"), Some("SLOW"));
    assert_eq!(short("phases", "Charging"), Some("CHG"));
    assert_eq!(short("wounds", "Wounded (Slowing)"), Some("W:SLOW"));
    assert_eq!(short("wounds", "Hit boost"), Some("HIT+"));
    assert_eq!(short("actfast", "Wavering"), Some("SHAKEN"));
    assert_eq!(short("flow", "Prone"), Some("PRONE"));
    assert_eq!(badge("flow", "Wavering"), None);
    assert_eq!(badge("escalation", "Slowed"), None);
    // The rules' words for how long (P-27, E-GAP-03, W-19) and the rule itself.
    let dazed = badge("escalation", "Dazed").unwrap();
    assert_eq!((dazed.icon, dazed.rule), ("star-swirl", "E-55"));
    assert!(dazed.duration.starts_with("save ends"));
    assert_eq!(
        badge("phases", "Defending").unwrap().duration,
        "until the start of its next turn"
    );
    assert!(
        badge("wounds", "Wounded (Fatal)")
            .unwrap()
            .duration
            .contains("6+")
    );
    // A harmful condition and a boon are told apart by colour.
    assert_ne!(
        badge("wounds", "Wounded (Fatal)").unwrap().colour,
        badge("wounds", "Hit boost").unwrap().colour
    );
}

/// The small number on a badge: how many instances (two wounds of a place), else
/// the magnitude's size, else the rounds left beyond this one.
#[test]
fn a_badge_counts_instances_magnitude_or_rounds_left() {
    let wound = Condition::new("Wounded (Slowing)", Duration::UntilHealed { at_least: 6 });
    assert_eq!(badge_number(&[&wound], 3), None);
    assert_eq!(badge_number(&[&wound, &wound], 3), Some(2));
    let boost =
        Condition::new("Hit boost", Duration::EndOfRound(3)).with_magnitude(Magnitude::Flat(2));
    assert_eq!(badge_number(&[&boost], 3), Some(2));
    let slow = Condition::new("Slow", Duration::UntilRemoved).with_magnitude(Magnitude::Dice(-2));
    assert_eq!(badge_number(&[&slow], 1), Some(2));
    // One is not counted: the badge says one.
    let dodge =
        Condition::new("Dodging", Duration::UntilOwnNextTurn).with_magnitude(Magnitude::Flat(1));
    assert_eq!(badge_number(&[&dodge], 1), None);
    let disengaged = Condition::new("Disengaged", Duration::EndOfRound(4));
    assert_eq!(badge_number(&[&disengaged], 3), Some(2));
    assert_eq!(badge_number(&[&disengaged], 4), None);
    assert_eq!(badge_number(&[], 1), None);
}

/// The window compiles in every icon `tools/icons` rasterizes (the unit icons and the
/// badges'), so a badge never names an icon the window can't draw.
#[test]
fn the_window_compiles_in_every_listed_icon() {
    let window = std::fs::read_to_string(root().join("src/game/units_view.rs")).unwrap();
    let missing: Vec<String> = listed_icons()
        .into_iter()
        .filter(|icon| !window.contains(&format!("\"{icon}\"")))
        .collect();
    assert!(
        missing.is_empty(),
        "src/game/units_view.rs does not compile in {missing:?}"
    );
}
