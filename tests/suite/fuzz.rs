//! Fuzz harness (issue 11): whatever `skirmish check` accepts plays to the end.
//!
//! Three properties, each a `proptest` over its own inputs:
//!
//! - [`mutated_levels_check_and_locate_every_problem`]: the text of a shipped level
//!   (`levels/*.ron`) with a few mutations — characters flipped, inserted or deleted,
//!   numbers swapped for extremes, dice strings for junk, lines duplicated, dropped or
//!   swapped, odd fields and `rules` overrides inserted — is loaded and checked
//!   without a panic, and every problem has a place in the text: a syntax error its
//!   `line:col`, and every semantic issue of `validate` a place the locator finds
//!   (never the silent `1:1` fallback).
//! - [`mutated_levels_that_check_accepts_play_to_the_end`]: the same kind of
//!   mutations, weighted to the ones that keep the text loadable; every level `check`
//!   accepts plays one AI-vs-AI battle ([`play_out`]) to its end without a panic or an
//!   engine error.
//! - [`generated_levels_are_valid_and_play_to_the_end`]: levels built from the schema
//!   types, valid by construction (square and hex `phases`, hex `flow`, each ruleset's
//!   stats, powers, weapons, items and `rules` overrides in their documented ranges),
//!   pass `validate`, survive a save/load round trip, and play one battle to its end.
//!
//! Every battle is bounded: at most [`MAX_COMMANDS`] commands (a battle stopped there
//! is fine, an error is not) and [`TIMEOUT_MS`] of wall-clock time per case. The cases
//! run in a child process (proptest's `fork`), so a stack overflow or a hang is
//! reported as a failing case with its minimal input instead of killing the test run.
//!
//! A short run is part of `cargo test`. A long run:
//!
//! ```sh
//! SKIRMISH_FUZZ_CASES=200000 cargo test --release --test suite fuzz
//! ```
//!
//! (`SKIRMISH_FUZZ_CASES` is the number of cases of each property.)

use std::ops::Range;
use std::sync::LazyLock;

use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config as ProptestConfig, FileFailurePersistence};
use ron::extensions::Extensions;
use skirmish::ai::AiPolicy;
use skirmish::ai::sim::{command_limit, play_out};
use skirmish::engine::board::GridKind;
use skirmish::level::schema::*;
use skirmish::level::validate::validate;
use skirmish::level::{load::locate, load_str, to_ron_string};

/// Commands after which a fuzzed battle is stopped (a work bound, not a failure).
const MAX_COMMANDS: usize = 300;

/// Wall-clock bound of one case, in milliseconds (a debug build on a loaded 2-core
/// machine plays a case in well under a second; a hang is what this catches).
const TIMEOUT_MS: u32 = 10_000;

/// The proptest configuration of a property: `default_cases` cases unless
/// `SKIRMISH_FUZZ_CASES` says otherwise, each in a forked child with a time bound.
fn config(default_cases: u32) -> ProptestConfig {
    let cases = std::env::var("SKIRMISH_FUZZ_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default_cases);
    ProptestConfig {
        cases,
        fork: true,
        timeout: TIMEOUT_MS,
        // A hanging case takes the whole timeout at every shrinking step that still
        // hangs (each in a new child, so `max_shrink_time` restarts): bound the steps.
        max_shrink_iters: 100,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::default()
    }
}

/// The shipped levels: (file name, text), sorted by name.
static SHIPPED: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/levels");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("levels/ is readable") {
        let path = entry.expect("levels/ entry").path();
        if path.extension().is_some_and(|e| e == "ron") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).expect("shipped level is readable");
            out.push((name, text));
        }
    }
    out.sort();
    assert!(!out.is_empty(), "no levels/*.ron");
    out
});

// ---------------------------------------------------------------------------------
// Mutations of level text
// ---------------------------------------------------------------------------------

/// Numbers a mutation puts in place of a number of the text.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "-5",
    "7",
    "100",
    "1000000",
    "2147483647",
    "-2147483648",
    "4294967296",
    "99999999999999999999",
    "0.5",
    "1e9",
];

/// Strings a mutation puts in place of a dice expression.
const DICE: &[&str] = &[
    "junk",
    "",
    " ",
    "0d6",
    "1d0",
    "1d1",
    "d6",
    "6",
    "0",
    "-1d6",
    "1d6+",
    "+",
    "1d-6",
    "2d6kh9",
    "2d6kl0",
    "2d6kh1kl1",
    "1D6",
    "1d6 + 1",
    "20d1000",
    "1000d1000",
    "1d1000000",
    "99999999d6",
    "1d6+99999999999",
];

/// Strings a mutation puts in place of any other string (names, sides, rulesets).
const WORDS: &[&str] = &[
    "", " ", "Nobody", "Blue", "Red", "Raiders", "Wardens", "flow", "phases", "Slowed", "Stunned",
    "Bleeding", "é", "a\\nb", "\\u{0}",
];

/// Characters flipped in or inserted.
const CHARS: &[char] = &[
    '(', ')', '[', ']', '{', '}', ',', ':', '"', '\\', '/', '*', '0', '9', '-', '+', 'a', 'Z', 'd',
    '#', '~', '.', ' ', '\n', '\t', 'é', '\u{0}', '\u{feff}',
];

/// Extreme integers for `rules` constants.
const INTS: &[&str] = &["0", "1", "-1", "-5", "1000000", "2147483647", "-2147483648"];

/// Values for booleans.
const BOOLS: &[&str] = &["true", "false", "0"];

const DIE_LISTS: &[&str] = &[
    "[]",
    "[0, 0, 0, 0]",
    "[1, 1, 1, 1]",
    "[2, 3]",
    "[1000000, 6, 6, 6]",
];

const POWERS: &[&str] = &[
    "(name: \"Strike\", range: 0, ranged: false, damage: \"junk\", add_tier: true)",
    "(name: \"Strike\", range: 1000000, ranged: true, damage: \"1000d1000\", add_tier: true)",
    "(name: \"\", range: 1, ranged: false, damage: \"\", add_tier: false)",
];

const MOVEMENT_POWERS: &[&str] = &[
    "[]",
    "[(name: \"Walk\", distance: (speed_times: 1000000))]",
    "[(name: \"Shift\", distance: (squares: 0), provokes: false)]",
];

const COSTS: &[&str] = &[
    "(move_action: 0, attack: 0, draw: 0, sheathe: 0, potion: 0, item: 0, disarm: 0, feint: 0, flow_state: 0, grapple: 0, grapple_upkeep: 0, shove: 0, step: 0, total_defense: 0, tumble: 0, stand_up: 0, pick_up: 0)",
    "(move_action: -1, attack: -1, draw: -1, sheathe: -1, potion: -1, item: -1, disarm: -1, feint: -1, flow_state: -1, grapple: -1, grapple_upkeep: -1, shove: -1, step: -1, total_defense: -1, tumble: -1, stand_up: -1, pick_up: -1)",
    "(move_action: 1000000, attack: 1000000, draw: 1, sheathe: 1, potion: 2, item: 2, disarm: 2, feint: 1, flow_state: 1, grapple: 2, grapple_upkeep: 2, shove: 1, step: 1, total_defense: 3, tumble: 1, stand_up: 1, pick_up: 1)",
];

const REACTION_COSTS: &[&str] = &[
    "(dodge: 0, parry: 0, block: 0, reaction_attack: 0, riposte: 0, intercept: 0)",
    "(dodge: -1, parry: -1, block: -1, reaction_attack: -1, riposte: -1, intercept: -1)",
];

const CHECKS: &[&str] = &[
    "(die: 0, always_critical: 1, fumble_from: 96, critical_divisor: 10, major_divisor: 5, hard_divisor: 2)",
    "(die: 1, always_critical: 1, fumble_from: 96, critical_divisor: 10, major_divisor: 5, hard_divisor: 2)",
    "(die: 20000, always_critical: 1, fumble_from: 96, critical_divisor: 10, major_divisor: 5, hard_divisor: 2)",
    "(die: 100, always_critical: 0, fumble_from: 0, critical_divisor: 0, major_divisor: 0, hard_divisor: 0)",
    "(die: 100, always_critical: 200, fumble_from: 1, critical_divisor: -1, major_divisor: -1, hard_divisor: -1)",
];

const SIDE_LISTS: &[&str] = &[
    "[\"Nobody\"]",
    "[\"Raiders\"]",
    "[\"Red\"]",
    "[\"Raiders\", \"Wardens\"]",
    "[]",
    "[\"\"]",
];

const ONGOING: &[&str] = &[
    "{\"Bleeding\": \"junk\"}",
    "{\"Bleeding\": \"1000d1000\"}",
    "{\"Bleeding\": \"0d4\", \"Poisoned\": \"\"}",
    "{\"Stunned\": \"1d4\"}",
    "{}",
];

/// What a `rules` value may be, by kind.
#[derive(Clone, Copy, Debug)]
enum Pool {
    Ints,
    Bools,
    Dice,
    Raw(&'static [&'static str]),
}

/// `rules` constants of both rulesets (and one that names nothing), each with the
/// kind of odd values a mutation gives it.
const RULES: &[(&str, Pool)] = &[
    // phases
    ("speed", Pool::Ints),
    ("hp_per_tier", Pool::Ints),
    ("initiative_dice", Pool::Dice),
    ("tie_die", Pool::Ints),
    ("attack_dice", Pool::Dice),
    ("advantage_dice", Pool::Raw(DIE_LISTS)),
    ("disadvantage_dice", Pool::Raw(DIE_LISTS)),
    ("net_sources", Pool::Bools),
    ("save_dice", Pool::Dice),
    ("save_target", Pool::Ints),
    ("slowed_at_start_blocks", Pool::Bools),
    ("default_power", Pool::Raw(POWERS)),
    ("movement_powers", Pool::Raw(MOVEMENT_POWERS)),
    ("extra_movement_powers", Pool::Raw(MOVEMENT_POWERS)),
    // flow
    ("ap", Pool::Ints),
    ("rp", Pool::Ints),
    ("start_fp", Pool::Ints),
    ("fp_hit", Pool::Ints),
    ("fp_crit", Pool::Ints),
    ("fp_reaction", Pool::Ints),
    ("fp_kill", Pool::Ints),
    ("fp_decay", Pool::Ints),
    ("max_move_actions", Pool::Ints),
    ("costs", Pool::Raw(COSTS)),
    ("reaction_costs", Pool::Raw(REACTION_COSTS)),
    ("total_defense_rp", Pool::Ints),
    ("initiative_die", Pool::Ints),
    ("checks", Pool::Raw(CHECKS)),
    ("hard_bonus", Pool::Ints),
    ("major_bonus", Pool::Ints),
    ("critical_bonus", Pool::Ints),
    ("crit_multiplier", Pool::Ints),
    ("crit_vs_fumbled_reaction", Pool::Ints),
    ("range_penalty", Pool::Ints),
    ("gang_up", Pool::Ints),
    ("off_hand", Pool::Ints),
    ("intercept_distance", Pool::Ints),
    ("hp_pc", Pool::Ints),
    ("hp_npc", Pool::Ints),
    ("untrained_skill", Pool::Ints),
    ("unarmed_damage", Pool::Dice),
    ("surprisers", Pool::Raw(SIDE_LISTS)),
    ("ongoing", Pool::Raw(ONGOING)),
    ("ongoing_rounds", Pool::Ints),
    ("auto_end_turn", Pool::Bools),
    ("nope", Pool::Ints),
];

/// A `rules` entry: a constant and an odd value for it, as RON.
fn rule() -> impl Strategy<Value = (&'static str, String)> {
    (select(RULES), 0usize..64).prop_map(|((key, pool), i)| {
        let value = match pool {
            Pool::Ints => INTS[i % INTS.len()].to_string(),
            Pool::Bools => BOOLS[i % BOOLS.len()].to_string(),
            Pool::Dice => format!("\"{}\"", DICE[i % DICE.len()]),
            Pool::Raw(values) => values[i % values.len()].to_string(),
        };
        (key, value)
    })
}

/// Fields (with a value and a trailing comma) inserted before a `name:` field, so they
/// land in a side, a unit, a power, an item or a weapon.
const FIELDS: &[&str] = &[
    "armor: -5, ",
    "armor: 1000000, ",
    "size: Gargantuan, ",
    "size: Small, ",
    "on_hit: [\"Stunned\"], ",
    "on_hit: [\"Bleeding\", \"Poisoned\"], ",
    "on_hit: [(condition: \"Slowed\", lasts: Sustained)], ",
    "on_hit: [(condition: \"Stunned\")], ",
    "held: Off, ",
    "held: Stowed, ",
    "two_handed: true, ",
    "category: Shield, ",
    "category: Spell, ",
    "range: 0, ",
    "range: 1000000, ",
    "reach: 0, ",
    "reach: 1000000, ",
    "uses: 0, ",
    "uses: 1000000, ",
    "ranged: true, ",
    "add_tier: false, ",
    "damage: \"1000d1000\", ",
    "damage: \"junk\", ",
    "skills: {\"Melee\": 200, \"Agility\": -1}, ",
    "weapons: [(name: \"Big\", damage: \"1000d1000\")], ",
    "weapons: [], ",
    "controller: Ai(Random), ",
    "decisions: Auto, ",
    "decisions: Never, ",
    "movement: [\"Bound\", \"Slip\", \"Teleport\"], ",
    "items: [(name: \"Salts\", effect: Cleanse), (name: \"Potion\", uses: 3, effect: Heal(\"1d1000\"))], ",
    "powers: [(name: \"Zap\", range: 1000000, ranged: true, damage: \"1d6\", on_hit: [(condition: \"Slowed\", lasts: EndOfRound)])], ",
];

/// One edit of a level's text. The `usize`es pick a place among the candidates the
/// text has when the mutation is applied (characters, numbers, strings, lines …).
#[derive(Clone, Debug)]
enum Mutation {
    /// Replace a character.
    Flip(usize, char),
    /// Insert a character.
    Insert(usize, char),
    /// Delete up to 8 characters.
    Delete(usize, usize),
    /// Replace a number with another.
    Number(usize, &'static str),
    /// Replace a dice string (or, in a text without one, any string).
    Dice(usize, &'static str),
    /// Replace any string.
    Word(usize, &'static str),
    /// Repeat a line.
    DuplicateLine(usize),
    /// Drop a line.
    DeleteLine(usize),
    /// Swap two lines.
    SwapLines(usize, usize),
    /// Add a `rules` override (in the level's `rules` map, or a new one).
    Rule(&'static str, String),
    /// Insert a field before a `name:` field.
    Field(usize, &'static str),
}

/// The range of the place indices of mutations: a mutation at index `i` edits the
/// candidate [`at`]`(i, candidates)`, so indices shrink towards the first candidate in
/// a few steps.
const PICK: usize = 1 << 16;

fn pick() -> std::ops::Range<usize> {
    0..PICK
}

/// The candidate (of `len`) a place index picks.
fn at(i: usize, len: usize) -> usize {
    i.min(PICK - 1) * len / PICK
}

/// Mutations that mostly keep a level loadable: values, not syntax.
fn value_mutation() -> BoxedStrategy<Mutation> {
    prop_oneof![
        4 => (pick(), select(NUMBERS)).prop_map(|(i, v)| Mutation::Number(i, v)),
        3 => (pick(), select(DICE)).prop_map(|(i, v)| Mutation::Dice(i, v)),
        1 => (pick(), select(WORDS)).prop_map(|(i, v)| Mutation::Word(i, v)),
        4 => rule().prop_map(|(k, v)| Mutation::Rule(k, v)),
        3 => (pick(), select(FIELDS)).prop_map(|(i, f)| Mutation::Field(i, f)),
        1 => pick().prop_map(Mutation::DuplicateLine),
    ]
    .boxed()
}

/// Any mutation, syntax included.
fn any_mutation() -> BoxedStrategy<Mutation> {
    prop_oneof![
        3 => (pick(), select(CHARS)).prop_map(|(i, c)| Mutation::Flip(i, c)),
        3 => (pick(), select(CHARS)).prop_map(|(i, c)| Mutation::Insert(i, c)),
        2 => (pick(), 1usize..=8).prop_map(|(i, n)| Mutation::Delete(i, n)),
        1 => pick().prop_map(Mutation::DeleteLine),
        1 => (pick(), pick()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        6 => value_mutation(),
    ]
    .boxed()
}

/// Byte ranges of the string literals (contents, without the quotes) and of the
/// numbers of RON text, outside comments.
fn tokens(text: &str) -> (Vec<Range<usize>>, Vec<Range<usize>>) {
    let b = text.as_bytes();
    let (mut strings, mut numbers) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                strings.push(start..i.min(b.len()));
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
            }
            c if c.is_ascii_digit()
                || (c == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) =>
            {
                let after_word = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
                let start = i;
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                if !after_word {
                    numbers.push(start..i);
                }
            }
            _ => i += 1,
        }
    }
    (strings, numbers)
}

/// Whether a string literal's contents look like a dice expression.
fn is_dice(s: &str) -> bool {
    s.contains('d')
        && s.bytes().any(|c| c.is_ascii_digit())
        && s.bytes().all(|c| b"0123456789d+-khl ".contains(&c))
}

/// 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    1 + text[..offset.min(text.len())].matches('\n').count()
}

/// Replaces `range` of `text` by `with`; describes it.
fn splice(text: &mut String, range: Range<usize>, with: &str) -> String {
    let line = line_of(text, range.start);
    let old = text[range.clone()].to_string();
    text.replace_range(range, with);
    format!("line {line}: {old:?} -> {with:?}")
}

impl Mutation {
    /// Applies the mutation to `text` and says what it did (for failure reports).
    fn apply(&self, text: &mut String) -> String {
        // Character offsets of every char boundary, for the character edits.
        let chars: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        let char_at = |i: &usize| chars.get(at(*i, chars.len())).copied();
        let lines: Vec<Range<usize>> = {
            let mut out = Vec::new();
            let mut start = 0;
            for (i, c) in text.char_indices() {
                if c == '\n' {
                    out.push(start..i + 1);
                    start = i + 1;
                }
            }
            if start < text.len() {
                out.push(start..text.len());
            }
            out
        };
        let (strings, numbers) = tokens(text);
        match self {
            Mutation::Flip(i, c) => match char_at(i) {
                Some(at) => {
                    let end = at + text[at..].chars().next().map_or(0, char::len_utf8);
                    splice(text, at..end, &c.to_string())
                }
                None => String::new(),
            },
            Mutation::Insert(i, c) => {
                let at = char_at(i).unwrap_or(text.len());
                splice(text, at..at, &c.to_string())
            }
            Mutation::Delete(i, n) => match char_at(i) {
                Some(at) => {
                    let end = text[at..]
                        .char_indices()
                        .nth(*n)
                        .map_or(text.len(), |(j, _)| at + j);
                    splice(text, at..end, "")
                }
                None => String::new(),
            },
            Mutation::Number(i, v) if !numbers.is_empty() => {
                let r = numbers[at(*i, numbers.len())].clone();
                splice(text, r, v)
            }
            Mutation::Dice(i, v) | Mutation::Word(i, v) if !strings.is_empty() => {
                let dice: Vec<&Range<usize>> = strings
                    .iter()
                    .filter(|r| is_dice(&text[(*r).clone()]))
                    .collect();
                let pool: Vec<&Range<usize>> =
                    if matches!(self, Mutation::Dice(..)) && !dice.is_empty() {
                        dice
                    } else {
                        strings.iter().collect()
                    };
                let r = pool[at(*i, pool.len())].clone();
                splice(text, r, v)
            }
            Mutation::DuplicateLine(i) if !lines.is_empty() => {
                let r = lines[at(*i, lines.len())].clone();
                let mut copy = text[r.clone()].to_string();
                if !copy.ends_with('\n') {
                    copy.insert(0, '\n');
                }
                let line = line_of(text, r.start);
                text.insert_str(r.end, &copy);
                format!("line {line} duplicated")
            }
            Mutation::DeleteLine(i) if !lines.is_empty() => {
                let r = lines[at(*i, lines.len())].clone();
                let line = line_of(text, r.start);
                text.replace_range(r, "");
                format!("line {line} deleted")
            }
            Mutation::SwapLines(a, b) if !lines.is_empty() => {
                let (mut a, mut b) = (at(*a, lines.len()), at(*b, lines.len()));
                if a == b {
                    return String::new();
                }
                if a > b {
                    std::mem::swap(&mut a, &mut b);
                }
                let (ra, rb) = (lines[a].clone(), lines[b].clone());
                let (la, lb) = (text[ra.clone()].to_string(), text[rb.clone()].to_string());
                let (la, lb) = (la.trim_end_matches('\n'), lb.trim_end_matches('\n'));
                let mut out = String::with_capacity(text.len());
                out.push_str(&text[..ra.start]);
                out.push_str(lb);
                out.push_str(&text[ra.start + la.len()..rb.start]);
                out.push_str(la);
                out.push_str(&text[rb.start + lb.len()..]);
                *text = out;
                format!("lines {} and {} swapped", a + 1, b + 1)
            }
            Mutation::Rule(key, value) => {
                let entry = format!("\"{key}\": {value}, ");
                if let Some(at) = text.find("rules: {") {
                    let at = at + "rules: {".len();
                    splice(text, at..at, &entry)
                } else if let Some(at) = text.rfind(')') {
                    splice(text, at..at, &format!("rules: {{{entry}}},\n"))
                } else {
                    String::new()
                }
            }
            Mutation::Field(i, field) => {
                let names: Vec<usize> = text.match_indices("name:").map(|(j, _)| j).collect();
                if names.is_empty() {
                    return String::new();
                }
                let place = names[at(*i, names.len())];
                splice(text, place..place, field)
            }
            _ => String::new(),
        }
    }
}

/// A shipped level with mutations: the input of the mutation properties. Its `Debug`
/// (what proptest prints for a failing case, even one that crashed or timed out)
/// names the file and each edit with its line, old and new text.
#[derive(Clone)]
struct Mutated {
    /// Index in [`SHIPPED`].
    level: usize,
    mutations: Vec<Mutation>,
}

impl Mutated {
    fn strategy(mutation: fn() -> BoxedStrategy<Mutation>, most: usize) -> BoxedStrategy<Self> {
        (
            0..SHIPPED.len(),
            prop::collection::vec(mutation(), 1..=most),
        )
            .prop_map(|(level, mutations)| Mutated { level, mutations })
            .boxed()
    }

    /// The file name, the mutated text and what each mutation did.
    fn apply(&self) -> (&'static str, String, Vec<String>) {
        let (name, text) = &SHIPPED[self.level];
        let mut text = text.clone();
        let applied = self
            .mutations
            .iter()
            .map(|m| m.apply(&mut text))
            .filter(|d| !d.is_empty())
            .collect();
        (name, text, applied)
    }
}

impl std::fmt::Debug for Mutated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (name, _, applied) = self.apply();
        write!(f, "levels/{name} with {}", applied.join("; "))
    }
}

/// Loads and checks `text` the way `skirmish check` does, and checks that every
/// problem is located: a syntax error at a real `line:col` of the text, and every
/// semantic issue at a place the locator finds. Returns the level if it is accepted.
fn check(text: &str) -> Result<Option<Level>, String> {
    let lines = text.lines().count().max(1) + 1;
    let loaded = load_str(text, "fuzz.ron");
    if let Err(problems) = &loaded {
        if problems.is_empty() {
            return Err("rejected with no problem listed".into());
        }
        for p in problems {
            if p.line == 0 || p.col == 0 || p.line > lines {
                return Err(format!("problem outside the text ({lines} lines): {p}"));
            }
            if p.message.trim().is_empty() || p.message.contains('\n') {
                return Err(format!("empty or multi-line message: {p}"));
            }
        }
    }
    // The same parse as `load_str`; its semantic issues must each have a place.
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let parsed = ron::Options::default()
        .with_default_extension(Extensions::IMPLICIT_SOME)
        .from_str::<Level>(body);
    match parsed {
        Ok(mut level) => {
            // What `load_str` runs: archetype units as written, then realized, then
            // the checks.
            let mut issues = skirmish::engine::archetype::written_issues(&level);
            if issues.is_empty() {
                let ruleset = skirmish::engine::rulesets::registry::get(&level.ruleset);
                issues = skirmish::engine::archetype::realize_level(&mut level, ruleset);
                issues.extend(validate(&level));
            }
            for issue in &issues {
                if locate(text, &issue.at).is_none() {
                    return Err(format!(
                        "issue without a place in the text (reported at 1:1): {} (at {:?})",
                        issue.message, issue.at
                    ));
                }
            }
            match (&loaded, issues.is_empty()) {
                (Ok(_), true) | (Err(_), false) => {}
                (Ok(_), false) => return Err("load_str accepted a level validate rejects".into()),
                (Err(p), true) => {
                    return Err(format!(
                        "load_str rejected a level validate accepts: {}",
                        p[0]
                    ));
                }
            }
        }
        Err(e) => {
            if e.span.start.line == 0 || e.span.start.col == 0 {
                return Err(format!(
                    "syntax error without a position: {} (reported as {})",
                    e.code,
                    loaded.err().map(|p| p[0].to_string()).unwrap_or_default()
                ));
            }
        }
    }
    Ok(loaded.ok())
}

/// Plays one AI-vs-AI battle on an accepted level, bounded by [`MAX_COMMANDS`].
fn play(level: &Level, seed: u64, policies: &[AiPolicy]) -> Result<String, String> {
    let limit = command_limit(level).min(MAX_COMMANDS);
    let result = play_out(level, seed, policies, limit)?;
    if result.commands > limit {
        return Err(format!(
            "{} commands past the limit {limit}",
            result.commands
        ));
    }
    if result.cut_off_by_commands && (result.commands != limit || result.winner.is_some()) {
        return Err(format!("inconsistent command-limit stop: {result:?}"));
    }
    Ok(format!(
        "{} rounds, {} commands, winner {:?}{}",
        result.rounds,
        result.commands,
        result.winner,
        if result.cut_off_by_commands {
            " (command limit)"
        } else {
            ""
        }
    ))
}

/// Runs `f`, turning a panic into an error that says so (so the failure report
/// carries the input's description along with the panic message).
fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            Err(format!("panicked: {message}"))
        }
    }
}

fn policy() -> impl Strategy<Value = AiPolicy> {
    select(vec![AiPolicy::Random, AiPolicy::Easy, AiPolicy::Normal])
}

proptest! {
    #![proptest_config(config(1500))]

    /// (a) Loading and checking never panics, and every problem has a place.
    #[test]
    fn mutated_levels_check_and_locate_every_problem(
        case in Mutated::strategy(any_mutation, 4),
    ) {
        let (_, text, _) = case.apply();
        if let Err(e) = guarded(|| check(&text)) {
            prop_assert!(false, "{case:?}: {e}");
        }
    }
}

proptest! {
    #![proptest_config(config(1000))]

    /// (b) A mutated level that `check` accepts plays one battle to its end.
    #[test]
    fn mutated_levels_that_check_accepts_play_to_the_end(
        case in Mutated::strategy(value_mutation, 3),
        seed in any::<u64>(),
        policies in prop::collection::vec(policy(), 3),
    ) {
        let (_, text, _) = case.apply();
        let accepted = match guarded(|| check(&text)) {
            Ok(accepted) => accepted,
            Err(e) => return Err(TestCaseError::fail(format!("{case:?}: {e}"))),
        };
        if let Some(level) = accepted
            && let Err(e) = guarded(|| play(&level, seed, &policies))
        {
            prop_assert!(false, "{case:?}; seed {seed}, {policies:?}: {e}");
        }
    }
}

// ---------------------------------------------------------------------------------
// Levels valid by construction
// ---------------------------------------------------------------------------------

/// A dice expression in the documented syntax: `NdX`, maybe `+K` or `khK`.
fn dice() -> impl Strategy<Value = String> {
    (
        1u32..=4,
        select(vec![2u32, 3, 4, 6, 8, 10, 12, 20]),
        0u32..=3,
        any::<bool>(),
    )
        .prop_map(|(n, x, k, keep)| {
            if keep && n > 1 {
                format!("{n}d{x}kh{}", n - 1)
            } else if k > 0 {
                format!("{n}d{x}+{k}")
            } else {
                format!("{n}d{x}")
            }
        })
}

/// Dice added together (`NdX`, maybe `+K`): what `attack_dice` must be.
fn sum_dice() -> impl Strategy<Value = String> {
    (
        1u32..=4,
        select(vec![2u32, 3, 4, 6, 8, 10, 12, 20]),
        0u32..=3,
    )
        .prop_map(|(n, x, k)| {
            if k > 0 {
                format!("{n}d{x}+{k}")
            } else {
                format!("{n}d{x}")
            }
        })
}

fn phases_power(name: &'static str) -> impl Strategy<Value = PowerDef> {
    (
        1u32..=6,
        any::<bool>(),
        dice(),
        any::<bool>(),
        prop::option::of(select(vec![
            EffectDuration::SaveEnds,
            EffectDuration::Sustained,
            EffectDuration::EndOfRound,
        ])),
    )
        .prop_map(move |(range, ranged, damage, add_tier, slowed)| PowerDef {
            name: name.into(),
            range,
            ranged,
            damage,
            add_tier,
            on_hit: slowed
                .map(|lasts| EffectDef {
                    condition: "Slowed".into(),
                    lasts,
                })
                .into_iter()
                .collect(),
            damage_type: None,
            traits: Vec::new(),
        })
}

/// What a generated unit is, before it gets a name, a side and a cell.
#[derive(Clone, Debug)]
struct UnitSpec {
    stats: Vec<(&'static str, i32)>,
    powers: Vec<PowerDef>,
    movement: Vec<String>,
    items: Vec<ItemDef>,
    size: Size,
    skills: Vec<(&'static str, i32)>,
    weapons: Vec<WeaponDef>,
    armor: i32,
}

fn phases_unit() -> impl Strategy<Value = UnitSpec> {
    (
        (-2i32..=4, -2i32..=4, 0i32..=5, 9i32..=14, 1i32..=3),
        (prop::option::of(1i32..=30), prop::option::of(0i32..=8)),
        prop::collection::vec(phases_power("Blow"), 0..=2),
        prop::sample::subsequence(vec!["Bound", "Slip"], 0..=2),
        prop::collection::vec(
            prop_oneof![
                dice().prop_map(ItemEffect::Heal),
                Just(ItemEffect::Cleanse),
                phases_power("Bomb").prop_map(ItemEffect::Power),
            ],
            0..=2,
        ),
        1u32..=3,
    )
        .prop_map(
            |((int, agi, atk, def, tier), (hp, speed), powers, movement, effects, uses)| {
                let mut stats = vec![
                    ("INT", int),
                    ("AGI", agi),
                    ("ATK", atk),
                    ("DEF", def),
                    ("Tier", tier),
                ];
                stats.extend(hp.map(|v| ("HP", v)));
                stats.extend(speed.map(|v| ("Speed", v)));
                UnitSpec {
                    stats,
                    powers,
                    movement: movement.into_iter().map(String::from).collect(),
                    items: effects
                        .into_iter()
                        .enumerate()
                        .map(|(i, effect)| ItemDef {
                            name: format!("Item {i}"),
                            uses,
                            effect,
                            ap: None,
                        })
                        .collect(),
                    size: Size::Medium,
                    skills: vec![],
                    weapons: vec![],
                    armor: 0,
                }
            },
        )
}

fn flow_weapon() -> impl Strategy<Value = WeaponDef> {
    (
        dice(),
        1u32..=3,
        prop_oneof![3 => Just(0u32), 1 => 1u32..=8],
        select(vec![
            WeaponCategory::Standard,
            WeaponCategory::Finesse,
            WeaponCategory::Brawl,
            WeaponCategory::Polearm,
            WeaponCategory::Spell,
            WeaponCategory::Shield,
        ]),
        any::<bool>(),
        prop::sample::subsequence(vec!["Bleeding", "Poisoned"], 0..=2),
    )
        .prop_map(
            |(damage, reach, range, category, two_handed, on_hit)| WeaponDef {
                name: String::new(),
                damage,
                reach,
                range,
                category,
                two_handed,
                held: Hand::Main,
                on_hit: on_hit.into_iter().map(String::from).collect(),
            },
        )
}

fn flow_unit() -> impl Strategy<Value = UnitSpec> {
    const SKILLS: &[&str] = skirmish::engine::rulesets::flow::SKILLS;
    (
        -2i32..=4,
        (
            prop::option::of(1i32..=30),
            prop::option::of(1i32..=8),
            prop::option::of(1i32..=7),
            prop::option::of(0i32..=3),
            prop::option::of(0i32..=1),
        ),
        prop::collection::vec((0..SKILLS.len(), 0i32..=200), 0..=5),
        prop::collection::vec(flow_weapon(), 0..=3),
        select(vec![
            Size::Small,
            Size::Medium,
            Size::Large,
            Size::Huge,
            Size::Gargantuan,
        ]),
        0i32..=3,
        prop::option::of(dice()),
    )
        .prop_map(
            |(agi, (hp, speed, ap, rp, pc), skills, weapons, size, armor, heal)| {
                let mut stats = vec![("AgiMod", agi)];
                for (name, v) in [
                    ("HP", hp),
                    ("Speed", speed),
                    ("AP", ap),
                    ("RP", rp),
                    ("PC", pc),
                ] {
                    stats.extend(v.map(|v| (name, v)));
                }
                // Hands: at most one item in each, a two-handed one fills both; the rest
                // is stowed.
                let (mut main, mut off) = (false, false);
                let weapons = weapons
                    .into_iter()
                    .enumerate()
                    .map(|(i, mut w)| {
                        w.name = format!("Weapon {i}");
                        w.held = if w.two_handed {
                            if !main && !off {
                                main = true;
                                off = true;
                                Hand::Main
                            } else {
                                Hand::Stowed
                            }
                        } else if !main {
                            main = true;
                            Hand::Main
                        } else if !off {
                            off = true;
                            Hand::Off
                        } else {
                            Hand::Stowed
                        };
                        w
                    })
                    .collect();
                UnitSpec {
                    stats,
                    powers: vec![],
                    movement: vec![],
                    items: heal
                        .map(|dice| ItemDef {
                            name: "Draught".into(),
                            uses: 1,
                            effect: ItemEffect::Heal(dice),
                            ap: None,
                        })
                        .into_iter()
                        .collect(),
                    size,
                    skills: skills.into_iter().map(|(i, v)| (SKILLS[i], v)).collect(),
                    weapons,
                    armor,
                }
            },
        )
}

/// `rules` overrides in their documented ranges, as RON text of the value.
fn rules(flow: bool) -> BoxedStrategy<Vec<(&'static str, String)>> {
    let one = if flow {
        prop_oneof![
            (1i32..=8).prop_map(|v| ("ap", v.to_string())),
            (0i32..=3).prop_map(|v| ("rp", v.to_string())),
            (1u32..=8).prop_map(|v| ("speed", v.to_string())),
            (1u32..=3).prop_map(|v| ("max_move_actions", v.to_string())),
            (2u32..=20).prop_map(|v| ("initiative_die", v.to_string())),
            (2u32..=20).prop_map(|v| ("tie_die", v.to_string())),
            (1u32..=4).prop_map(|v| ("ongoing_rounds", v.to_string())),
            (0u32..=5).prop_map(|v| ("intercept_distance", v.to_string())),
            (0i32..=60).prop_map(|v| ("untrained_skill", v.to_string())),
            any::<bool>().prop_map(|v| ("auto_end_turn", v.to_string())),
            dice().prop_map(|d| ("unarmed_damage", format!("{d:?}"))),
            Just(("surprisers", "[\"S0\"]".to_string())),
        ]
        .boxed()
    } else {
        prop_oneof![
            (0u32..=8).prop_map(|v| ("speed", v.to_string())),
            (1u32..=15).prop_map(|v| ("hp_per_tier", v.to_string())),
            (2u32..=20).prop_map(|v| ("tie_die", v.to_string())),
            (2i32..=12).prop_map(|v| ("save_target", v.to_string())),
            any::<bool>().prop_map(|v| ("net_sources", v.to_string())),
            any::<bool>().prop_map(|v| ("slowed_at_start_blocks", v.to_string())),
            dice().prop_map(|d| ("initiative_dice", format!("{d:?}"))),
            // An extra die of advantage joins the attack dice, so they are summed
            // dice (no `kh`), like the default `2d6`.
            sum_dice().prop_map(|d| ("attack_dice", format!("{d:?}"))),
            dice().prop_map(|d| ("save_dice", format!("{d:?}"))),
        ]
        .boxed()
    };
    prop::collection::vec(one, 0..=3).boxed()
}

/// A generated level; its `Debug` (what proptest prints for a failing case) is the
/// level file's text, ready to save and replay with `skirmish sim`.
#[derive(Clone)]
struct Generated(Level);

impl std::fmt::Debug for Generated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "\n{}", to_ron_string(&self.0))
    }
}

/// A level valid by construction.
fn generated_level() -> impl Strategy<Value = Level> {
    prop_oneof![
        Just(("phases", GridKind::Square)),
        Just(("phases", GridKind::Hex)),
        Just(("flow", GridKind::Hex)),
    ]
    .prop_flat_map(|(ruleset, grid)| {
        let flow = ruleset == "flow";
        let unit = if flow {
            flow_unit().boxed()
        } else {
            phases_unit().boxed()
        };
        (
            Just((ruleset, grid)),
            (1u32..=10, 1u32..=10),
            prop::collection::vec(select(vec!['.', '.', '.', '.', '~', '#']), 100),
            any::<bool>(),
            prop::collection::vec(
                (
                    select(vec![
                        Controller::Human,
                        Controller::Ai(AiPolicy::Random),
                        Controller::Ai(AiPolicy::Easy),
                        Controller::Ai(AiPolicy::Normal),
                    ]),
                    select(vec![
                        DecisionPolicy::Ask,
                        DecisionPolicy::Never,
                        DecisionPolicy::Auto,
                    ]),
                ),
                2..=3,
            ),
            prop::collection::vec((unit, any::<usize>()), 2..=6),
            rules(flow),
            (
                prop::option::of(1u32..=20),
                prop::option::of(1u64..=500),
                prop::option::of(any::<u64>()),
            ),
        )
    })
    .prop_map(
        |(
            (ruleset, grid),
            (w, h),
            cells,
            open,
            sides,
            units,
            rules,
            (max_rounds, max_commands, seed),
        )| {
            build(GeneratedLevel {
                ruleset,
                grid,
                size: (w, h),
                cells,
                all_open: open,
                sides,
                units,
                rules,
                victory: Victory {
                    max_rounds,
                    max_commands,
                },
                seed,
            })
        },
    )
}

/// The raw material of a generated level.
struct GeneratedLevel {
    ruleset: &'static str,
    grid: GridKind,
    size: (u32, u32),
    cells: Vec<char>,
    all_open: bool,
    sides: Vec<(Controller, DecisionPolicy)>,
    units: Vec<(UnitSpec, usize)>,
    rules: Vec<(&'static str, String)>,
    victory: Victory,
    seed: Option<u64>,
}

/// Puts a generated level together so that it is valid: a map of at least 2 cells,
/// as many units as fit (at least 2; unit `i` joins side `i mod sides`, and sides left
/// without a unit are dropped), every unit on a free open or difficult cell.
fn build(mut g: GeneratedLevel) -> Level {
    if g.size.0 * g.size.1 < 2 {
        g.size.0 = 2;
    }
    let (w, h) = g.size;
    g.units.truncate((w * h) as usize);
    let mut terrain: Vec<Vec<char>> = (0..h as usize)
        .map(|y| {
            (0..w as usize)
                .map(|x| {
                    if g.all_open {
                        '.'
                    } else {
                        g.cells[(y * w as usize + x) % g.cells.len()]
                    }
                })
                .collect()
        })
        .collect();
    let mut free: Vec<(i32, i32)> = (0..h as i32)
        .flat_map(|y| (0..w as i32).map(move |x| (x, y)))
        .filter(|&(x, y)| terrain[y as usize][x as usize] != '#')
        .collect();
    let sides: Vec<SideDef> = g
        .sides
        .iter()
        .enumerate()
        .map(|(i, &(controller, decisions))| SideDef {
            name: format!("S{i}"),
            controller,
            decisions,
            traits: Vec::new(),
        })
        .collect();
    let mut units = Vec::new();
    for (i, (spec, at)) in g.units.into_iter().enumerate() {
        if free.is_empty() {
            // Clear a wall for the unit: the map has a cell for every unit.
            let (x, y) = (0..h as i32)
                .flat_map(|y| (0..w as i32).map(move |x| (x, y)))
                .find(|&(x, y)| {
                    terrain[y as usize][x as usize] == '#'
                        && !units.iter().any(|u: &UnitDef| u.pos == (x, y))
                })
                .expect("a wall to clear");
            terrain[y as usize][x as usize] = '.';
            free.push((x, y));
        }
        let pos = free.remove(at % free.len());
        units.push(UnitDef {
            name: format!("U{i}"),
            side: sides[i % sides.len()].name.clone(),
            pos,
            stats: spec
                .stats
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            powers: spec.powers,
            movement: spec.movement,
            items: spec.items,
            size: spec.size,
            skills: spec
                .skills
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            weapons: spec.weapons,
            armor: spec.armor,
            traits: Vec::new(),
            icon: None,
            archetype: None,
            tier: None,
        });
    }
    // Side `i` has unit `i`: with at least 2 units, at least 2 sides keep theirs.
    let sides: Vec<SideDef> = sides
        .into_iter()
        .filter(|s| units.iter().any(|u| u.side == s.name))
        .collect();
    Level {
        name: "fuzz".into(),
        version: 1,
        ruleset: g.ruleset.into(),
        grid: g.grid,
        size: g.size,
        terrain: if g.all_open {
            vec![]
        } else {
            terrain
                .into_iter()
                .map(|r| r.into_iter().collect())
                .collect()
        },
        sides,
        units,
        rules: g
            .rules
            .into_iter()
            .map(|(k, v)| {
                let value: ron::Value = ron::from_str(&v).expect("generated rules value is RON");
                (k.to_string(), value)
            })
            .collect(),
        victory: g.victory,
        seed: g.seed,
    }
}

proptest! {
    #![proptest_config(config(500))]

    /// Generated valid levels pass `validate`, load back from their saved text, and
    /// play one battle to the end.
    #[test]
    fn generated_levels_are_valid_and_play_to_the_end(
        level in generated_level().prop_map(Generated),
        seed in any::<u64>(),
        policies in prop::collection::vec(policy(), 3),
    ) {
        let Generated(level) = level;
        let issues = validate(&level);
        prop_assert!(issues.is_empty(), "a valid level is rejected: {issues:?}");
        let loaded = load_str(&to_ron_string(&level), "generated.ron");
        prop_assert!(loaded.is_ok(), "its saved text does not load: {loaded:?}");
        prop_assert_eq!(loaded.as_ref().ok(), Some(&level), "its saved text loads differently");
        if let Err(e) = guarded(|| play(&level, seed, &policies)) {
            prop_assert!(false, "seed {seed}, {policies:?}: {e}");
        }
    }
}

/// The mutations do what they say on a small text.
#[test]
fn mutations_edit_the_places_they_name() {
    let text = "(\n    a: \"1d6\", // 9d9\n    b: 12, c: \"x\",\n)\n";
    let (strings, numbers) = tokens(text);
    let at = |r: &Range<usize>| &text[r.clone()];
    assert_eq!(strings.iter().map(at).collect::<Vec<_>>(), ["1d6", "x"]);
    assert_eq!(numbers.iter().map(at).collect::<Vec<_>>(), ["12"]);

    let first = 0;
    let mut t = text.to_string();
    Mutation::Dice(first, "junk").apply(&mut t);
    assert!(t.contains("a: \"junk\""), "{t}");
    let mut t = text.to_string();
    Mutation::Number(first, "-1").apply(&mut t);
    assert!(t.contains("b: -1,"), "{t}");
    let mut t = text.to_string();
    Mutation::Rule("tie_die", "0".into()).apply(&mut t);
    assert!(t.ends_with("rules: {\"tie_die\": 0, },\n)\n"), "{t}");
    let mut t = text.to_string();
    Mutation::SwapLines(PICK / 4, PICK / 2).apply(&mut t);
    assert_eq!(t, "(\n    b: 12, c: \"x\",\n    a: \"1d6\", // 9d9\n)\n");
}

// ---------------------------------------------------------------------------------
// The command limit (issue 11, item 7): a battle stopped by it is not a draw
// ---------------------------------------------------------------------------------

/// `levels/ford.ron` with `victory: (max_commands: Some(n))`, in a scratch file.
fn ford_with_max_commands(n: u64, dir: &str) -> std::path::PathBuf {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/ford.ron"))
        .expect("levels/ford.ron");
    assert!(!text.contains("victory"), "ford.ron gained a victory field");
    let end = text.rfind(')').expect("the level's closing parenthesis");
    let text = format!(
        "{}    victory: (max_commands: Some({n})),\n{}",
        &text[..end],
        &text[end..]
    );
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join("ford.ron");
    std::fs::write(&path, text).expect("write the scratch level");
    path
}

fn skirmish(args: &[&std::ffi::OsStr]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .output()
        .expect("run skirmish");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn sim_reports_battles_stopped_at_the_command_limit_apart_from_draws() {
    let path = ford_with_max_commands(5, "fuzz_command_limit_sim");
    let p = path.as_os_str();
    let (code, json, err) = skirmish(&[
        "sim".as_ref(),
        p,
        "--battles".as_ref(),
        "4".as_ref(),
        "--json".as_ref(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("one JSON object");
    assert_eq!(v["cut_off_by_commands"], 4, "{json}");
    assert_eq!(v["draws"], 0, "a stopped battle is no draw: {json}");
    assert_eq!(v["cut_off"], 0, "nor a draw at the round limit: {json}");
    assert_eq!(v["mean_commands"], 5.0, "{json}");

    let (code, table, err) = skirmish(&["sim".as_ref(), p, "--battles".as_ref(), "4".as_ref()]);
    assert_eq!(code, Some(0), "{err}");
    let line = table
        .lines()
        .find(|l| l.contains("stopped at the command limit (5)"))
        .unwrap_or_else(|| panic!("no command-limit line:\n{table}"));
    assert!(line.trim_start().starts_with("unfinished"), "{line}");
    assert!(line.contains(" 4 "), "{line}");
    assert!(table.contains("(0 cut off at the round limit)"), "{table}");

    let (code, log, err) = skirmish(&["sim".as_ref(), p, "--log".as_ref(), "0".as_ref()]);
    assert_eq!(code, Some(0), "{err}");
    let last = log.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("battle 0 (seed ")
            && last.contains("): stopped at the command limit (5) in round ")
            && last.ends_with(", unfinished"),
        "{log}"
    );
}

#[test]
fn sim_json_has_no_command_limit_key_when_no_battle_reaches_it() {
    let (code, json, err) = skirmish(&[
        "sim".as_ref(),
        concat!(env!("CARGO_MANIFEST_DIR"), "/levels/ford.ron").as_ref(),
        "--battles".as_ref(),
        "2".as_ref(),
        "--json".as_ref(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!json.contains("cut_off_by_commands"), "{json}");
}

#[test]
fn check_rejects_max_commands_0_at_its_place() {
    let path = ford_with_max_commands(0, "fuzz_command_limit_check");
    let (code, out, err) = skirmish(&["check".as_ref(), path.as_os_str()]);
    assert_eq!(code, Some(1), "{out}{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    let line = 1 + text
        .lines()
        .position(|l| l.contains("max_commands"))
        .unwrap();
    let col = 1 + text
        .lines()
        .nth(line - 1)
        .unwrap()
        .find("max_commands")
        .unwrap();
    let expected = format!(
        "{}:{line}:{col}: max_commands is 0; expected 1 or more",
        path.display()
    );
    assert!(
        out.contains(&expected) || err.contains(&expected),
        "expected {expected}\n{out}{err}"
    );
}

#[test]
fn play_out_stops_at_the_command_limit_as_unfinished() {
    let mut level = shipped_level("ford.ron");
    level.victory.max_commands = Some(3);
    assert_eq!(command_limit(&level), 3);
    let r = play_out(&level, 1, &[], command_limit(&level)).expect("plays");
    assert!(r.cut_off_by_commands && !r.cut_off, "{r:?}");
    assert_eq!((r.winner, r.commands), (None, 3));
    // Without the field the limit grows with units × rounds, never below the floor.
    use skirmish::ai::sim::{COMMANDS_PER_UNIT_ROUND, DEFAULT_MAX_ROUNDS, MIN_COMMAND_LIMIT};
    level.victory.max_commands = None;
    let units = level.units.len() as u64;
    assert_eq!(
        command_limit(&level) as u64,
        (COMMANDS_PER_UNIT_ROUND * units * u64::from(DEFAULT_MAX_ROUNDS)).max(MIN_COMMAND_LIMIT)
    );
    level.victory.max_rounds = Some(1);
    level.units.truncate(2);
    assert_eq!(command_limit(&level) as u64, MIN_COMMAND_LIMIT);
}

fn shipped_level(name: &str) -> Level {
    let (_, text) = SHIPPED
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no levels/{name}"));
    load_str(text, name).expect("shipped level loads")
}
