//! A roll told in full: the window's "explain a roll" (hover or select a log line).
//!
//! [`explain`] turns any event that rolled dice — the generic [`Event::Rolled`],
//! initiative and tie-break rolls, and a ruleset's own roll events through
//! [`crate::engine::event::Narration::explain`] — into an [`Explained`]: every face
//! and whether it counted, every modifier and advantage source, the total, what it
//! was measured against and the outcome, each part with the rule ID it comes from.
//!
//! Rule IDs come from two places: IDs the event's words already carry ("morale
//! (A-16)"), and the active ruleset's glossary ([`crate::engine::ruleset::Presentation::rule_for`]),
//! which maps the words its events use ("Escalation", "gang-up", "tier difference")
//! to the rule of `RULES.md` that defines them. Nothing here changes state or the log.

use bevy_ecs::world::World;

use crate::engine::battle::ActiveRuleset;
use crate::engine::event::{Event, ExtraDie};
use crate::engine::log::Names;

/// One die of an explained roll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Face {
    /// The face rolled.
    pub value: u32,
    /// Whether it counts toward the total (dropped by advantage, disadvantage or a
    /// pool's "highest die" otherwise).
    pub kept: bool,
}

/// A modifier or a source of advantage in an explained roll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// What it is, in the ruleset's words.
    pub name: String,
    /// What it adds to the roll (or to the number to roll under), if a number.
    pub value: Option<i32>,
    /// For a source of advantage: `Some(true)`; of disadvantage: `Some(false)`.
    pub advantage: Option<bool>,
    /// The rule that defines it, if known.
    pub rule: Option<String>,
}

impl Term {
    /// A numeric modifier.
    pub fn modifier(name: impl Into<String>, value: i32) -> Self {
        Self {
            name: name.into(),
            value: Some(value),
            advantage: None,
            rule: None,
        }
    }

    /// A named term without a number (a note on how the roll is read).
    pub fn note(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            value: None,
            advantage: None,
            rule: None,
        }
    }

    /// A source of advantage (`true`) or disadvantage (`false`).
    pub fn source(name: impl Into<String>, advantage: bool) -> Self {
        Self {
            name: name.into(),
            value: None,
            advantage: Some(advantage),
            rule: None,
        }
    }

    /// The term with its rule.
    pub fn rule(mut self, rule: impl Into<String>) -> Self {
        self.rule = Some(rule.into());
        self
    }
}

/// A roll told in full.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explained {
    /// Who rolled what for what ("Ann attacks Orc1 with Sword").
    pub title: String,
    /// The rules the roll itself follows.
    pub rules: Vec<String>,
    /// The dice expression ("2d6 + 1d8, keep the 2 highest").
    pub dice: String,
    /// Every face in the order drawn.
    pub faces: Vec<Face>,
    /// Modifiers, advantage sources and notes, in the order the ruleset names them.
    pub terms: Vec<Term>,
    /// The total, when the roll adds up to one.
    pub total: Option<i32>,
    /// What it is measured against ("DEF 12", "7+", "at or under 45"), if anything.
    pub target: Option<String>,
    /// The outcome in the ruleset's words ("hit", "success", "critical").
    pub outcome: String,
}

impl Explained {
    /// A roll with the given title, dice and outcome and nothing else yet.
    pub fn new(
        title: impl Into<String>,
        dice: impl Into<String>,
        outcome: impl Into<String>,
    ) -> Self {
        Self {
            title: title.into(),
            rules: Vec::new(),
            dice: dice.into(),
            faces: Vec::new(),
            terms: Vec::new(),
            total: None,
            target: None,
            outcome: outcome.into(),
        }
    }

    /// Sets the faces: every face in `faces`, those of `kept` (a sub-multiset)
    /// marked as counted.
    pub fn faces(mut self, faces: &[u32], kept: &[u32]) -> Self {
        self.faces = mark_kept(faces, kept);
        self
    }

    /// The explanation as plain text lines (the window's panel shows the same parts
    /// with the dice drawn).
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![self.title.clone()];
        if !self.rules.is_empty() {
            out.push(format!("Rules: {}", self.rules.join(", ")));
        }
        let faces: Vec<String> = self
            .faces
            .iter()
            .map(|f| {
                if f.kept {
                    f.value.to_string()
                } else {
                    format!("({})", f.value)
                }
            })
            .collect();
        out.push(format!("{}: {}", self.dice, faces.join(" ")));
        for t in &self.terms {
            out.push(term_text(t));
        }
        let mut last = String::new();
        if let Some(total) = self.total {
            last = format!("= {total}");
        }
        if let Some(target) = &self.target {
            last = format!("{last} vs {target}").trim().to_string();
        }
        out.push(
            format!("{last}: {}", self.outcome)
                .trim_start_matches(": ")
                .to_string(),
        );
        out
    }
}

/// A term as one line: "+2 ATK (P-23)", "advantage: charge (P-09)".
pub fn term_text(t: &Term) -> String {
    let rule = t
        .rule
        .as_ref()
        .map(|r| format!(" ({r})"))
        .unwrap_or_default();
    match (t.value, t.advantage) {
        (_, Some(true)) => format!("advantage: {}{rule}", t.name),
        (_, Some(false)) => format!("disadvantage: {}{rule}", t.name),
        (Some(v), None) => format!("{v:+} {}{rule}", t.name),
        (None, None) => format!("{}{rule}", t.name),
    }
}

/// Marks each face kept or dropped: faces are matched against `kept` in order, each
/// kept value used once.
pub fn mark_kept(faces: &[u32], kept: &[u32]) -> Vec<Face> {
    // Equal faces are interchangeable: the first ones seen count.
    let mut left: Vec<u32> = kept.to_vec();
    faces
        .iter()
        .map(|&value| {
            let kept = match left.iter().position(|&k| k == value) {
                Some(i) => {
                    left.swap_remove(i);
                    true
                }
                None => false,
            };
            Face { value, kept }
        })
        .collect()
}

/// The dice of a 2d6 roll with an extra die ("2d6 + 1d8, keep the 2 highest").
pub fn extra_die_text(base: &str, extra: Option<ExtraDie>) -> String {
    match extra {
        None => base.to_string(),
        Some(x) => format!(
            "{base} + 1d{}, keep the 2 {}",
            x.sides,
            if x.advantage { "highest" } else { "lowest" }
        ),
    }
}

/// The rule IDs written in `text` ("P-23", "F-GAP-12", "A-EX-3"), in order.
pub fn rule_ids(text: &str) -> Vec<String> {
    let is_id = |word: &str| {
        let Some((ruleset, rest)) = word.split_once('-') else {
            return false;
        };
        let number = rest
            .strip_prefix("GAP-")
            .or_else(|| rest.strip_prefix("EX-"))
            .unwrap_or(rest);
        matches!(ruleset, "P" | "E" | "W" | "A" | "F" | "X")
            && !number.is_empty()
            && number.bytes().all(|b| b.is_ascii_digit())
    };
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| is_id(w))
        .map(str::to_string)
        .collect()
}

/// Looks `term` up in a ruleset's glossary: the rule of the first entry whose key
/// (lower case) the term contains.
pub fn lookup(glossary: &[(&str, &'static str)], term: &str) -> Option<&'static str> {
    let term = term.to_ascii_lowercase();
    glossary
        .iter()
        .find(|(key, _)| term.contains(key))
        .map(|(_, rule)| *rule)
}

/// The roll `event` tells, in full, or `None` for an event that rolled nothing.
pub fn explain(world: &World, event: &Event) -> Option<Explained> {
    let names = Names::new(world);
    let mut e = match event {
        Event::Rolled {
            unit,
            purpose,
            dice,
            faces,
            kept,
            modifiers,
            total,
            target,
            against,
            outcome,
        } => {
            let title = match against {
                Some(a) => format!(
                    "{} rolls {purpose} against {}",
                    names.unit(*unit),
                    names.unit(*a)
                ),
                None => format!("{} rolls {purpose}", names.unit(*unit)),
            };
            let mut e = Explained::new(title, dice.clone(), outcome.clone()).faces(faces, kept);
            e.terms = modifiers
                .iter()
                .map(|m| Term::modifier(m.name.clone(), m.value))
                .collect();
            e.total = Some(*total);
            e.target = target.map(|t| t.to_string());
            e
        }
        Event::InitiativeRolled {
            unit,
            faces,
            modifier,
            total,
        } => {
            let mut e = Explained::new(
                format!("{} rolls initiative", names.unit(*unit)),
                format!("{} dice", faces.len()),
                "sets the turn order",
            )
            .faces(faces, faces);
            if *modifier != 0 {
                e.terms
                    .push(Term::modifier("initiative modifier", *modifier));
            }
            e.total = Some(*total);
            e
        }
        Event::TieBreakRolled { unit, face } => Explained::new(
            format!("{} rolls to break an initiative tie", names.unit(*unit)),
            "1d6",
            "higher goes first",
        )
        .faces(&[*face], &[*face]),
        Event::Ruleset(r) => r.explain(&names)?,
        _ => return None,
    };
    let ruleset = world.get_resource::<ActiveRuleset>();
    let rule_for = |text: &str| -> Option<String> {
        rule_ids(text)
            .into_iter()
            .next()
            .or_else(|| ruleset.and_then(|r| r.rule_for(text)).map(str::to_string))
    };
    if e.rules.is_empty() {
        e.rules = rule_ids(&e.title);
        if e.rules.is_empty()
            && let Some(r) = rule_for(&e.title)
        {
            e.rules.push(r);
        }
    }
    for t in &mut e.terms {
        if t.rule.is_none() {
            t.rule = rule_for(&t.name);
        }
    }
    // A roll named only by its power ("Dread Gaze") follows the rule of its terms
    // (escalation's Level + Volition: an attack roll, E-02).
    if e.rules.is_empty()
        && let Some(r) = e.terms.iter().find_map(|t| t.rule.clone())
    {
        e.rules.push(r);
    }
    Some(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_ids_are_found_in_words() {
        assert_eq!(rule_ids("morale (A-16)"), vec!["A-16"]);
        assert_eq!(
            rule_ids("F-GAP-12, P-23 and W-EX-1."),
            vec!["F-GAP-12", "P-23", "W-EX-1"]
        );
        assert!(rule_ids("HP-3 and A-b").is_empty());
    }

    #[test]
    fn kept_faces_are_marked_once_each() {
        let f = mark_kept(&[5, 2, 5], &[5, 5]);
        assert_eq!(
            f.iter().map(|f| f.kept).collect::<Vec<_>>(),
            [true, false, true]
        );
        let f = mark_kept(&[3, 3, 6], &[3, 3]);
        assert_eq!(
            f.iter().map(|f| f.kept).collect::<Vec<_>>(),
            [true, true, false]
        );
    }

    #[test]
    fn glossary_matches_the_first_key_the_term_contains() {
        let g = [("gang-up", "F-21"), ("range", "F-19")];
        assert_eq!(lookup(&g, "Gang-up +10"), Some("F-21"));
        assert_eq!(lookup(&g, "range 4 (Range 3)"), Some("F-19"));
        assert_eq!(lookup(&g, "feint"), None);
    }

    #[test]
    fn lines_show_dropped_faces_in_brackets() {
        let mut e = Explained::new("Ann attacks Orc", "2d6 + 1d8, keep the 2 highest", "hit")
            .faces(&[2, 6, 7], &[6, 7]);
        e.terms.push(Term::modifier("ATK", 2).rule("P-23"));
        e.terms.push(Term::source("charge", true).rule("P-09"));
        e.total = Some(15);
        e.target = Some("DEF 12".into());
        let lines = e.lines();
        assert_eq!(lines[1], "2d6 + 1d8, keep the 2 highest: (2) 6 7");
        assert_eq!(lines[2], "+2 ATK (P-23)");
        assert_eq!(lines[3], "advantage: charge (P-09)");
        assert_eq!(lines[4], "= 15 vs DEF 12: hit");
    }
}
