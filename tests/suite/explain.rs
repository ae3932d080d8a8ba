//! "Explain a roll" (issue 17): every roll of a shipped scenario of each ruleset is
//! told in full — each face and whether it counts, the modifiers and advantage
//! sources with the rule IDs they come from, the total and the target — and the
//! parts agree with the roll's own log line.

use skirmish::engine::Battle;
use skirmish::engine::event::Event;
use skirmish::engine::explain::{Explained, explain};
use skirmish::engine::log;

use crate::common::run;

/// Every explained roll of a battle, with its log line.
fn explained(battle: &Battle) -> Vec<(Explained, String)> {
    let world = battle.world();
    battle
        .events()
        .iter()
        .filter_map(|e| Some((explain(world, e)?, log::describe(world, e))))
        .collect()
}

/// The rule IDs of a ruleset's digest look like `P-23`, `F-GAP-04`, `W-EX-1`.
fn is_rule_id(id: &str, prefix: char) -> bool {
    let Some(rest) = id.strip_prefix(prefix).and_then(|r| r.strip_prefix('-')) else {
        return false;
    };
    let n = rest
        .strip_prefix("GAP-")
        .or_else(|| rest.strip_prefix("EX-"))
        .unwrap_or(rest);
    !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
}

/// Checks what every ruleset's explanations share: faces shown, kept faces as the
/// line says, every rule ID of the ruleset's own digest, a total for sums.
fn check_all(path: &str, prefix: char) -> Vec<(Explained, String)> {
    let battle = run(path);
    let all = explained(&battle);
    assert!(!all.is_empty(), "{path}: no roll explained");
    for (x, line) in &all {
        assert!(!x.faces.is_empty(), "{path}: no faces for {line}");
        assert!(
            x.faces.iter().any(|f| f.kept),
            "{path}: no face counts in {line}"
        );
        for f in &x.faces {
            assert!(
                line.contains(&f.value.to_string()),
                "{path}: face {} not in {line}",
                f.value
            );
        }
        assert!(!x.rules.is_empty(), "{path}: no rule for the roll {line}");
        let ids = x
            .rules
            .iter()
            .chain(x.terms.iter().filter_map(|t| t.rule.as_ref()));
        for id in ids {
            assert!(
                is_rule_id(id, prefix),
                "{path}: {id} is not a {prefix} rule ({line})"
            );
        }
    }
    all
}

#[test]
fn phases_attack_shows_the_dropped_die_the_sources_and_their_rules() {
    // P-03, P-05, P-23, P-24: the Knight (tier 2) attacks the Goblin (tier 1) with
    // one source of advantage: 2d6 + d6, faces 2, 5, 6; the 2 is dropped.
    let all = check_all("levels/scenarios/ford_showcase.ron", 'P');
    let (x, _) = all
        .iter()
        .find(|(x, _)| x.title.starts_with("Knight attacks Goblin"))
        .expect("the Knight's attack");
    let faces: Vec<(u32, bool)> = x.faces.iter().map(|f| (f.value, f.kept)).collect();
    assert_eq!(faces, [(2, false), (5, true), (6, true)]);
    assert_eq!(x.dice, "2d6 + 1d6, keep the 2 highest");
    assert_eq!(x.rules, ["P-23"]);
    let tier = x
        .terms
        .iter()
        .find(|t| t.name.starts_with("tier difference"))
        .expect("the tier source");
    assert_eq!(
        (tier.advantage, tier.rule.as_deref()),
        (Some(true), Some("P-24"))
    );
    let atk = x.terms.iter().find(|t| t.name == "ATK").expect("ATK");
    assert_eq!(x.total, Some(11 + atk.value.unwrap()));
    assert!(x.target.as_deref().is_some_and(|t| t.starts_with("DEF ")));
    // P-05, P-06: the Goblin (tier 1) attacks the Knight (tier 2) with one source of
    // disadvantage: 2d6 + d12, faces 1, 4, 9; the two lowest count, the 9 is dropped.
    let (x, _) = all
        .iter()
        .filter(|(x, _)| x.title.starts_with("Goblin attacks Knight"))
        .find(|(x, _)| x.faces.iter().map(|f| f.value).eq([1, 4, 9]))
        .expect("the Goblin's attack");
    let faces: Vec<(u32, bool)> = x.faces.iter().map(|f| (f.value, f.kept)).collect();
    assert_eq!(faces, [(1, true), (4, true), (9, false)]);
    assert_eq!(x.dice, "2d6 + 1d12, keep the 2 lowest");
    let tier = x
        .terms
        .iter()
        .find(|t| t.name.starts_with("tier difference"))
        .expect("the tier source");
    assert_eq!(
        (tier.advantage, tier.rule.as_deref()),
        (Some(false), Some("P-24"))
    );
    assert!(
        x.terms.iter().any(|t| t.rule.as_deref() == Some("P-06")),
        "the d12 comes from the disadvantage table"
    );
    let atk = x.terms.iter().find(|t| t.name == "ATK").expect("ATK");
    assert_eq!(x.total, Some(5 + atk.value.unwrap()));
    // The End-Phase save (P-29) is explained too.
    assert!(
        all.iter()
            .any(|(x, _)| x.rules == ["P-29"] && x.target.as_deref() == Some("7+"))
    );
}

#[test]
fn flow_check_names_its_modifiers_and_the_success_level() {
    // F-GAP-01, F-GAP-02: a d100 check rolled at or under the skill.
    let all = check_all("levels/scenarios/flow_reaction_chain.ron", 'F');
    let checks: Vec<&Explained> = all
        .iter()
        .map(|(x, _)| x)
        .filter(|x| x.dice.starts_with("d100"))
        .collect();
    assert!(!checks.is_empty(), "no skill check");
    for x in checks {
        let target = x.target.as_deref().unwrap_or_default();
        let skill: i32 = target
            .strip_prefix("at or under ")
            .unwrap()
            .parse()
            .unwrap();
        let roll = x.total.unwrap();
        assert!(x.rules.starts_with(&["F-GAP-01".to_string()]));
        // The level follows the roll against the skill (F-GAP-02).
        assert_eq!(
            roll <= skill,
            !x.outcome.to_lowercase().contains("fail"),
            "{x:?}"
        );
    }
}

#[test]
fn escalation_attack_names_level_volition_and_the_escalation_die() {
    // E-02, E-18: 3d6 + Level + Volition + Escalation.
    let all = check_all("levels/scenarios/escalation_ex1_hit.ron", 'E');
    let (x, _) = all
        .iter()
        .find(|(x, _)| x.terms.iter().any(|t| t.name == "Level"))
        .expect("an attack roll");
    for name in ["Level", "Volition"] {
        let t = x.terms.iter().find(|t| t.name == name).unwrap();
        assert_eq!(t.rule.as_deref(), Some("E-02"), "{name}");
    }
    let sum: i32 = x
        .faces
        .iter()
        .filter(|f| f.kept)
        .map(|f| f.value as i32)
        .sum::<i32>()
        + x.terms.iter().filter_map(|t| t.value).sum::<i32>();
    assert_eq!(
        x.total,
        Some(sum),
        "the total is the kept faces plus the modifiers"
    );
}

#[test]
fn wounds_and_actfast_rolls_carry_their_rules() {
    // W-13: d20 + Accuracy: pools and morale.
    let all = check_all("levels/scenarios/wounds_ex1_wound.ron", 'W');
    assert!(all.iter().any(|(x, _)| {
        x.terms
            .iter()
            .any(|t| t.name == "Accuracy" && t.rule.as_deref() == Some("W-13"))
    }));
    let all = check_all("levels/scenarios/actfast_morale.ron", 'A');
    assert!(
        all.iter().any(|(x, _)| x.rules == ["A-16"]),
        "the morale roll"
    );
}

#[test]
fn events_without_dice_explain_nothing() {
    let battle = run("levels/scenarios/ford_showcase.ron");
    let world = battle.world();
    let quiet = battle
        .events()
        .iter()
        .filter(|e| matches!(e, Event::Moved { .. } | Event::TurnStarted { .. }))
        .count();
    assert!(quiet > 0);
    assert!(
        battle
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Moved { .. } | Event::TurnStarted { .. }))
            .all(|e| explain(world, e).is_none())
    );
}

#[test]
fn conditions_name_their_rules() {
    // The hover line's rule for each condition, as each ruleset declares it.
    use skirmish::engine::rulesets::registry;
    let rule = |ruleset: &str, condition: &str| registry::get(ruleset).unwrap().rule_for(condition);
    assert_eq!(rule("phases", "Slowed"), Some("P-18"));
    assert_eq!(rule("escalation", "Shaken"), Some("E-63"));
    assert_eq!(rule("wounds", "Prone"), Some("W-30"));
    assert_eq!(rule("actfast", "Fear"), Some("A-24"));
    assert_eq!(rule("flow", "Feinting"), Some("F-34"));
    // Roll words keep their own rules ("tier difference" is not a tie).
    assert_eq!(rule("phases", "tier difference (1/2)"), Some("P-24"));
}
