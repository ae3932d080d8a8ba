//! Dice expressions and their exact probability distributions: the odds engine.
//!
//! Syntax (see README "Dice expressions"): a sum of terms separated by `+` or `-`.
//! A term is a constant (`3`) or a dice group `NdX` (`N` defaults to 1, `d%` = `d100`).
//! A `khK` / `klK` suffix keeps the `K` highest / lowest dice of the whole pool of dice
//! written since the start of the expression or the previous keep, so `2d6+1d8kh2`
//! rolls 2d6 and 1d8 together and keeps the best two; `4d6kh3+2` keeps three of four
//! and then adds 2. Distributions are computed exactly, by convolution and by dynamic
//! programming over kept dice; nothing is sampled.
//!
//! Helpers for what the rulesets roll beyond one expression (docs/rulesets.md, "Odds
//! helpers"), all exact and bounded in work:
//! - map and clamp ([`Distribution::map`], [`Distribution::clamp`],
//!   [`Distribution::div_floor`], [`Distribution::scale`]) and sums of independent
//!   draws ([`Distribution::sum_n`]): armor per damage die, halving, floors;
//! - mixtures and branches ([`Distribution::mixture`], [`Distribution::either`],
//!   [`Distribution::branch`]) and outcomes that are not numbers ([`Outcomes`],
//!   [`chain`]): crits, hit or miss, resist halving, the critical chain;
//! - counting faces ([`highest_die`], [`lowest_die`], [`count_faces`],
//!   [`count_at_least`], [`count_equal`], [`netted_pool`]).

use crate::engine::dice::{Dice, DiceError};

mod branch;
mod error;
mod faces;
#[cfg(test)]
mod helper_tests;
mod shape;

pub use branch::{
    ChainEffect, ChainStep, MAX_CHAIN_STEPS, Outcome, Outcomes, WEIGHT_TOLERANCE, chain,
};
pub use error::OddsError;
pub use faces::{count_at_least, count_equal, count_faces, highest_die, lowest_die, netted_pool};
pub use shape::MAX_HELPER_WORK;

/// Most dice in one dice group (`N` in `NdX`).
pub const MAX_DICE_PER_GROUP: u32 = 1000;
/// Most dice in a whole expression.
pub const MAX_DICE_TOTAL: u32 = 1000;
/// Most sides on one die (`X` in `NdX`), the dice's own limit.
pub use crate::engine::dice::MAX_SIDES;
/// Largest constant term.
pub const MAX_CONSTANT: u64 = 1_000_000_000;
/// Most distinct totals an expression may span (`max - min`), so that its exact
/// distribution stays cheap to compute and print.
pub const MAX_SPAN: u64 = 1_000_000;
/// Work budget of the convolutions, in updates of one probability array element
/// (adding a die costs the current span plus its sides, so `1000d1000` is about
/// 5·10⁸; convolving with a kept pool costs the product of the two spans).
const MAX_WORK: u64 = 600_000_000;
/// Work budget of the keep-highest / keep-lowest dynamic programme for one pool
/// (an upper estimate of states × dice × faces; `10d20kh5` is about 8.5·10⁶).
const MAX_POOL_WORK: f64 = 1.0e7;

/// A parsed dice expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DiceExpr {
    /// The terms, in the order written.
    items: Vec<Item>,
}

/// One signed term of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Item {
    /// Written after a `-` (or a leading `-`).
    negative: bool,
    term: Term,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Term {
    /// A constant, unsigned (the sign is on the item).
    Constant(u64),
    /// `NdX`, optionally closing a pool with a keep.
    Dice {
        count: u32,
        sides: u32,
        keep: Option<Keep>,
    },
}

/// `khK` (highest) or `klK` (lowest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Keep {
    highest: bool,
    count: u32,
}

/// A problem in a dice expression, with the 0-based character position it was found at.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("at character {}: {message}", position + 1)]
pub struct ExprError {
    /// 0-based character offset into the expression.
    pub position: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

impl ExprError {
    fn new(position: usize, message: impl Into<String>) -> Self {
        Self {
            position,
            message: message.into(),
        }
    }
}

/// One roll of an expression: every face rolled (in the order consumed), which were
/// kept, and the total.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprRoll {
    /// Every die rolled as `(sides, face)`, in the order the dice were consumed.
    pub faces: Vec<(u32, u32)>,
    /// The faces that count toward the total.
    pub kept: Vec<u32>,
    /// The total, constants included.
    pub total: i64,
}

/// An exact discrete probability distribution over integer outcomes.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    /// The lowest possible value.
    lo: i64,
    /// `probs[i]` is the probability of `lo + i`; never empty. Both ends are possible
    /// outcomes (though a vanishingly unlikely one may underflow to 0.0).
    probs: Vec<f64>,
}

// ---------------------------------------------------------------------------
// Parsing

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Num(u64),
    /// The number was too large to represent.
    Huge,
    D,
    Percent,
    Keep {
        highest: bool,
    },
    Plus,
    Minus,
}

#[derive(Clone, Copy, Debug)]
struct Token {
    tok: Tok,
    pos: usize,
}

fn tokenize(s: &str) -> Result<(Vec<Token>, usize), ExprError> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let pos = i;
        match c {
            c if c.is_whitespace() => {
                i += 1;
                continue;
            }
            '0'..='9' => {
                let mut value: Option<u64> = Some(0);
                while i < chars.len() && chars[i].is_ascii_digit() {
                    let digit = u64::from(chars[i] as u8 - b'0');
                    value = value
                        .and_then(|v| v.checked_mul(10))
                        .and_then(|v| v.checked_add(digit));
                    i += 1;
                }
                let tok = value.map_or(Tok::Huge, Tok::Num);
                out.push(Token { tok, pos });
                continue;
            }
            'd' | 'D' => out.push(Token { tok: Tok::D, pos }),
            '%' => out.push(Token {
                tok: Tok::Percent,
                pos,
            }),
            '+' => out.push(Token {
                tok: Tok::Plus,
                pos,
            }),
            '-' => out.push(Token {
                tok: Tok::Minus,
                pos,
            }),
            'k' | 'K' => {
                let highest = match chars.get(i + 1) {
                    Some('h' | 'H') => true,
                    Some('l' | 'L') => false,
                    _ => {
                        return Err(ExprError::new(
                            i + 1,
                            "expected `h` or `l` after `k` (`khK` keeps the highest K dice, `klK` the lowest)",
                        ));
                    }
                };
                out.push(Token {
                    tok: Tok::Keep { highest },
                    pos,
                });
                i += 2;
                continue;
            }
            other => {
                return Err(ExprError::new(
                    pos,
                    format!(
                        "unexpected character `{other}`; expected a number, `d`, `kh`, `kl`, `+` or `-`"
                    ),
                ));
            }
        }
        i += 1;
    }
    Ok((out, chars.len()))
}

/// A parsed item with the positions needed for later checks.
struct Parsed {
    item: Item,
    /// Where the term starts (its sign excluded).
    pos: usize,
    /// Where its keep (`kh`/`kl`) starts, if any.
    keep_pos: usize,
}

struct Parser {
    tokens: Vec<Token>,
    next: usize,
    end: usize,
}

impl Parser {
    fn peek(&self) -> Option<Token> {
        self.tokens.get(self.next).copied()
    }

    fn pos(&self) -> usize {
        self.peek().map_or(self.end, |t| t.pos)
    }

    fn bump(&mut self) -> Option<Token> {
        let t = self.peek();
        self.next += 1;
        t
    }

    /// A number token, or an error saying `what` was expected.
    fn number(&mut self, what: &str, max: u64, too_large: &str) -> Result<u64, ExprError> {
        match self.peek() {
            Some(Token {
                tok: Tok::Num(v),
                pos,
            }) => {
                self.next += 1;
                if v > max {
                    Err(ExprError::new(pos, format!("{too_large} (at most {max})")))
                } else {
                    Ok(v)
                }
            }
            Some(Token {
                tok: Tok::Huge,
                pos,
            }) => Err(ExprError::new(pos, format!("{too_large} (at most {max})"))),
            _ => Err(ExprError::new(self.pos(), format!("expected {what}"))),
        }
    }

    fn term(&mut self, negative: bool, after: &str) -> Result<Parsed, ExprError> {
        let pos = self.pos();
        let count = match self.peek().map(|t| t.tok) {
            Some(Tok::Num(_) | Tok::Huge) => {
                let is_dice = matches!(self.tokens.get(self.next + 1).map(|t| t.tok), Some(Tok::D));
                if !is_dice {
                    let v = self.number("a number", MAX_CONSTANT, "constant too large")?;
                    return Ok(Parsed {
                        item: Item {
                            negative,
                            term: Term::Constant(v),
                        },
                        pos,
                        keep_pos: pos,
                    });
                }
                let n = self.number(
                    "a number of dice",
                    u64::from(MAX_DICE_PER_GROUP),
                    "too many dice in one group",
                )?;
                if n == 0 {
                    return Err(ExprError::new(pos, "a dice group needs at least 1 die"));
                }
                n as u32
            }
            Some(Tok::D) => 1,
            Some(Tok::Keep { .. }) => {
                return Err(ExprError::new(
                    pos,
                    "`kh`/`kl` must follow a dice group like `4d6`",
                ));
            }
            None => {
                return Err(ExprError::new(
                    pos,
                    format!("expected a number or a dice group like `2d6` {after}"),
                ));
            }
            Some(_) => {
                return Err(ExprError::new(
                    pos,
                    format!("expected a number or a dice group like `2d6` {after}"),
                ));
            }
        };
        // The `d`.
        self.bump();
        let sides_pos = self.pos();
        let sides = match self.peek().map(|t| t.tok) {
            Some(Tok::Percent) => {
                self.next += 1;
                100
            }
            Some(Tok::Num(_) | Tok::Huge) => {
                let x = self.number(
                    "a number of sides after `d`",
                    u64::from(MAX_SIDES),
                    "too many sides on a die",
                )?;
                if x == 0 {
                    return Err(ExprError::new(sides_pos, "a die needs at least 1 side"));
                }
                x as u32
            }
            _ => {
                return Err(ExprError::new(
                    sides_pos,
                    "expected a number of sides after `d` (or `%` for d100)",
                ));
            }
        };
        let mut keep = None;
        let mut keep_pos = pos;
        if let Some(Token {
            tok: Tok::Keep { highest },
            pos: kp,
        }) = self.peek()
        {
            self.next += 1;
            keep_pos = kp;
            let name = if highest { "kh" } else { "kl" };
            let count_pos = self.pos();
            let k = self.number(
                &format!("a number of dice to keep after `{name}`"),
                u64::from(MAX_DICE_TOTAL),
                "too many dice to keep",
            )?;
            if k == 0 {
                return Err(ExprError::new(count_pos, "must keep at least 1 die"));
            }
            keep = Some(Keep {
                highest,
                count: k as u32,
            });
        }
        Ok(Parsed {
            item: Item {
                negative,
                term: Term::Dice { count, sides, keep },
            },
            pos,
            keep_pos,
        })
    }
}

impl std::str::FromStr for DiceExpr {
    type Err = ExprError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (tokens, end) = tokenize(s)?;
        if tokens.is_empty() {
            return Err(ExprError::new(
                0,
                "empty expression; expected a number or a dice group like `2d6`",
            ));
        }
        let mut p = Parser {
            tokens,
            next: 0,
            end,
        };
        let mut parsed = Vec::new();
        let mut negative = false;
        let mut after = "at the start";
        match p.peek().map(|t| t.tok) {
            Some(Tok::Plus) => {
                p.next += 1;
                after = "after `+`";
            }
            Some(Tok::Minus) => {
                p.next += 1;
                negative = true;
                after = "after `-`";
            }
            _ => {}
        }
        loop {
            parsed.push(p.term(negative, after)?);
            match p.bump() {
                None => break,
                Some(Token { tok: Tok::Plus, .. }) => {
                    negative = false;
                    after = "after `+`";
                }
                Some(Token {
                    tok: Tok::Minus, ..
                }) => {
                    negative = true;
                    after = "after `-`";
                }
                Some(Token {
                    tok: Tok::Keep { .. },
                    pos,
                }) => {
                    return Err(ExprError::new(
                        pos,
                        "only one `kh`/`kl` per dice group; expected `+` or `-`",
                    ));
                }
                Some(Token { pos, .. }) => {
                    return Err(ExprError::new(pos, "expected `+` or `-` between terms"));
                }
            }
        }
        check(&parsed)?;
        Ok(DiceExpr {
            items: parsed.into_iter().map(|p| p.item).collect(),
        })
    }
}

/// Checks keeps against their pools and the size limits.
fn check(parsed: &[Parsed]) -> Result<(), ExprError> {
    let mut total_dice: u32 = 0;
    // Dice since the start or the previous keep: (item index) of each dice group.
    let mut pool: Vec<usize> = Vec::new();
    let mut seen_keep = false;
    for (i, p) in parsed.iter().enumerate() {
        let Term::Dice { count, keep, .. } = p.item.term else {
            continue;
        };
        total_dice += count;
        if total_dice > MAX_DICE_TOTAL {
            return Err(ExprError::new(
                p.pos,
                format!("too many dice in the expression (at most {MAX_DICE_TOTAL})"),
            ));
        }
        pool.push(i);
        let Some(keep) = keep else {
            continue;
        };
        let name = if keep.highest { "kh" } else { "kl" };
        if let Some(&neg) = pool.iter().find(|&&j| parsed[j].item.negative) {
            return Err(ExprError::new(
                p.keep_pos,
                format!(
                    "`{name}` cannot cover the subtracted dice group at character {}; \
                     keep the dice before subtracting (e.g. `2d6kh1-1d4`)",
                    parsed[neg].pos + 1
                ),
            ));
        }
        let n = pool_sides(pool.iter().map(|&j| &parsed[j].item)).len();
        if keep.count as usize > n {
            return Err(ExprError::new(
                p.keep_pos,
                format!(
                    "cannot keep {} dice: the pool since {} has only {n}",
                    keep.count,
                    if seen_keep {
                        "the previous keep"
                    } else {
                        "the start"
                    }
                ),
            ));
        }
        pool.clear();
        seen_keep = true;
    }
    check_cost(parsed)
}

/// Checks that the exact distribution stays cheap: the parts in the order
/// [`DiceExpr::distribution`] computes them, with what each costs.
fn check_cost(parsed: &[Parsed]) -> Result<(), ExprError> {
    let items: Vec<Item> = parsed.iter().map(|p| p.item).collect();
    let too_large = |pos: usize| {
        ExprError::new(
            pos,
            format!(
                "the expression is too large to compute exactly (its totals may span at \
                 most {MAX_SPAN} values, and the work is limited to {MAX_WORK} steps)"
            ),
        )
    };
    let mut span: u64 = 0;
    let mut work: u64 = 0;
    for (part, i) in parts_of(&items) {
        let p = &parsed[i];
        match part {
            Part::Constant(_) => {}
            Part::Plain { sides, .. } => {
                work += span + u64::from(sides);
                span += u64::from(sides - 1);
                if span > MAX_SPAN || work > MAX_WORK {
                    return Err(too_large(p.pos));
                }
            }
            Part::Pool { sides, keep } => {
                if pool_work(&sides, keep) > MAX_POOL_WORK {
                    return Err(ExprError::new(
                        p.keep_pos,
                        format!(
                            "keeping {} of {} dice of up to {} sides is too large to compute exactly",
                            keep.count,
                            sides.len(),
                            sides.iter().max().copied().unwrap_or(1)
                        ),
                    ));
                }
                let (lo, hi) = pool_range(&sides, keep);
                let pool_span = (hi - lo) as u64;
                work += (span + 1) * (pool_span + 1);
                span += pool_span;
                if span > MAX_SPAN || work > MAX_WORK {
                    return Err(too_large(p.keep_pos));
                }
            }
        }
    }
    Ok(())
}

/// The sides of every die in a pool, in the order written.
fn pool_sides<'a>(items: impl IntoIterator<Item = &'a Item>) -> Vec<u32> {
    let mut out = Vec::new();
    for item in items {
        if let Term::Dice { count, sides, .. } = item.term {
            out.extend(std::iter::repeat_n(sides, count as usize));
        }
    }
    out
}

/// Lowest and highest total of keeping `keep` of dice with these sides.
fn pool_range(sides: &[u32], keep: Keep) -> (i64, i64) {
    let mut sorted = sides.to_vec();
    sorted.sort_unstable();
    let k = keep.count as usize;
    let chosen: &[u32] = if keep.highest {
        &sorted[sorted.len() - k..]
    } else {
        &sorted[..k]
    };
    (k as i64, chosen.iter().map(|&s| i64::from(s)).sum())
}

/// How the pool DP tracks dice: `m` faces in a sorted multiset, the highest seen or
/// the lowest seen; faces pushed out are either discarded or added to a settled sum.
#[derive(Clone, Copy, Debug)]
struct Tracking {
    m: usize,
    track_high: bool,
    settle: bool,
}

fn tracking(n: usize, keep: Keep) -> Tracking {
    let k = keep.count as usize;
    let dropped = n - k;
    if k <= dropped {
        // Track the kept dice themselves; the rest are discarded.
        Tracking {
            m: k,
            track_high: keep.highest,
            settle: false,
        }
    } else {
        // Track the dropped dice; the kept ones settle into a running sum.
        Tracking {
            m: dropped,
            track_high: !keep.highest,
            settle: true,
        }
    }
}

/// Upper estimate of the DP's work for a pool.
fn pool_work(sides: &[u32], keep: Keep) -> f64 {
    let n = sides.len();
    if keep.count as usize == n {
        return 0.0;
    }
    let x = f64::from(sides.iter().max().copied().unwrap_or(1));
    let t = tracking(n, keep);
    // Multisets of size m over x faces: C(x + m - 1, m).
    let mut multisets = 1.0_f64;
    for i in 0..t.m {
        multisets = multisets * (x + i as f64) / (i as f64 + 1.0);
    }
    let settled = if t.settle { n as f64 * x + 1.0 } else { 1.0 };
    multisets * settled * n as f64 * x
}

// ---------------------------------------------------------------------------
// Display

impl std::fmt::Display for DiceExpr {
    /// Canonical text that parses back to an equal expression.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, item) in self.items.iter().enumerate() {
            if item.negative {
                f.write_str("-")?;
            } else if i > 0 {
                f.write_str("+")?;
            }
            match item.term {
                Term::Constant(c) => write!(f, "{c}")?,
                Term::Dice { count, sides, keep } => {
                    write!(f, "{count}d{sides}")?;
                    if let Some(k) = keep {
                        let name = if k.highest { "kh" } else { "kl" };
                        write!(f, "{name}{}", k.count)?;
                    }
                }
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Serde: as the text of the expression

/// Written as its canonical text (`"2d6+1"`).
impl serde::Serialize for DiceExpr {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Read from a string and parsed, so that a configuration or level field typed
/// `DiceExpr` can't hold an expression that does not parse: the error quotes the
/// text and says what is wrong where.
impl<'de> serde::Deserialize<'de> for DiceExpr {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(|e: ExprError| {
            serde::de::Error::custom(format!("`{text}` is not a dice expression: {e}"))
        })
    }
}

// ---------------------------------------------------------------------------
// Evaluation

/// The independent parts an expression sums.
enum Part {
    Constant(i64),
    /// Dice summed (or subtracted) whole.
    Plain {
        negative: bool,
        sides: u32,
    },
    /// A pool with a keep.
    Pool {
        sides: Vec<u32>,
        keep: Keep,
    },
}

/// The parts of a (checked) list of items in the order they are evaluated, each
/// with the index of the item it comes from (for a pool, the item with the keep).
/// Dice not covered by a keep, or covered by one that keeps them all, are plain.
fn parts_of(items: &[Item]) -> Vec<(Part, usize)> {
    let mut parts = Vec::new();
    let mut pool: Vec<usize> = Vec::new();
    let flush_plain = |pool: &mut Vec<usize>, parts: &mut Vec<(Part, usize)>| {
        for i in pool.drain(..) {
            if let Term::Dice { count, sides, .. } = items[i].term {
                for _ in 0..count {
                    let negative = items[i].negative;
                    parts.push((Part::Plain { negative, sides }, i));
                }
            }
        }
    };
    for (i, item) in items.iter().enumerate() {
        match item.term {
            Term::Constant(c) => {
                let c = c as i64;
                parts.push((Part::Constant(if item.negative { -c } else { c }), i));
            }
            Term::Dice { keep, .. } => {
                pool.push(i);
                if let Some(keep) = keep {
                    let sides = pool_sides(pool.iter().map(|&j| &items[j]));
                    if keep.count as usize >= sides.len() {
                        flush_plain(&mut pool, &mut parts);
                    } else {
                        parts.push((Part::Pool { sides, keep }, i));
                        pool.clear();
                    }
                }
            }
        }
    }
    flush_plain(&mut pool, &mut parts);
    parts
}

impl DiceExpr {
    /// `count` dice with `sides` sides (`NdX`), keeping the `k` highest
    /// (`Some((true, k))`, `NdXkhK`) or lowest (`Some((false, k))`) of them, built
    /// directly rather than parsed. The parser's limits are not checked: the caller
    /// keeps `count` and `sides` from 1 to [`MAX_DICE_TOTAL`] and [`MAX_SIDES`], `k`
    /// from 1 to `count`, and the pool small enough to compute exactly.
    pub fn pool(count: u32, sides: u32, keep: Option<(bool, u32)>) -> DiceExpr {
        DiceExpr {
            items: vec![Item {
                negative: false,
                term: Term::Dice {
                    count,
                    sides,
                    keep: keep.map(|(highest, count)| Keep { highest, count }),
                },
            }],
        }
    }

    fn parts(&self) -> Vec<Part> {
        parts_of(&self.items)
            .into_iter()
            .map(|(part, _)| part)
            .collect()
    }

    /// The exact distribution of the expression's total.
    ///
    /// Memoised per thread (previews and the AI ask for the same few expressions
    /// over and over); the cache is bounded and only ever returns the exact result.
    pub fn distribution(&self) -> Distribution {
        thread_local! {
            static CACHE: std::cell::RefCell<std::collections::HashMap<DiceExpr, Distribution>> =
                std::cell::RefCell::new(std::collections::HashMap::new());
        }
        if let Some(d) = CACHE.with(|c| c.borrow().get(self).cloned()) {
            return d;
        }
        let d = self.compute_distribution();
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            if c.len() >= 1024 {
                c.clear();
            }
            c.insert(self.clone(), d.clone());
        });
        d
    }

    fn compute_distribution(&self) -> Distribution {
        let mut dist = Distribution::constant(0);
        let mut shift = 0_i64;
        for part in self.parts() {
            match part {
                Part::Constant(c) => shift += c,
                Part::Plain { negative, sides } => {
                    dist = if negative {
                        dist.sub_uniform(sides)
                    } else {
                        dist.add_uniform(sides)
                    };
                }
                Part::Pool { sides, keep } => {
                    dist = dist.convolve(&pool_distribution(&sides, keep))
                }
            }
        }
        dist.lo += shift;
        dist
    }

    /// Rolls the expression with `dice`, consuming dice left to right as written.
    pub fn roll(&self, dice: &mut Dice) -> Result<ExprRoll, DiceError> {
        let mut faces = Vec::new();
        let mut kept = Vec::new();
        let mut total = 0_i64;
        // Faces rolled since the start or the previous keep: (face, negative).
        let mut pending: Vec<(u32, bool)> = Vec::new();
        let settle = |pending: &mut Vec<(u32, bool)>, kept: &mut Vec<u32>, total: &mut i64| {
            for (face, negative) in pending.drain(..) {
                kept.push(face);
                *total += if negative {
                    -i64::from(face)
                } else {
                    i64::from(face)
                };
            }
        };
        for item in &self.items {
            match item.term {
                Term::Constant(c) => {
                    total += if item.negative { -(c as i64) } else { c as i64 };
                }
                Term::Dice { count, sides, keep } => {
                    for _ in 0..count {
                        let face = dice.roll(sides)?;
                        faces.push((sides, face));
                        pending.push((face, item.negative));
                    }
                    if let Some(keep) = keep {
                        // Indices of the kept dice, chosen by face (ties: earliest
                        // rolled), then reported in the order rolled.
                        let mut order: Vec<usize> = (0..pending.len()).collect();
                        if keep.highest {
                            order.sort_by(|&a, &b| pending[b].0.cmp(&pending[a].0));
                        } else {
                            order.sort_by(|&a, &b| pending[a].0.cmp(&pending[b].0));
                        }
                        order.truncate(keep.count as usize);
                        order.sort_unstable();
                        let mut chosen: Vec<(u32, bool)> =
                            order.into_iter().map(|i| pending[i]).collect();
                        pending.clear();
                        settle(&mut chosen, &mut kept, &mut total);
                    }
                }
            }
        }
        settle(&mut pending, &mut kept, &mut total);
        Ok(ExprRoll { faces, kept, total })
    }

    /// Lowest and highest possible totals.
    pub fn range(&self) -> (i64, i64) {
        let (mut lo, mut hi) = (0_i64, 0_i64);
        for part in self.parts() {
            let (a, b) = match part {
                Part::Constant(c) => (c, c),
                Part::Plain {
                    negative: false,
                    sides,
                } => (1, i64::from(sides)),
                Part::Plain {
                    negative: true,
                    sides,
                } => (-i64::from(sides), -1),
                Part::Pool { sides, keep } => pool_range(&sides, keep),
            };
            lo += a;
            hi += b;
        }
        (lo, hi)
    }

    /// The expected total, computed term by term: exact for constants and whole dice
    /// groups (`N × (X + 1) / 2`), from the exact distribution for keeps. Agrees with
    /// `self.distribution().mean()` up to rounding.
    pub fn mean(&self) -> f64 {
        let mut constant = 0_i64;
        // Twice the mean of the whole dice, so that it stays an integer.
        let mut plain2 = 0_i64;
        let mut pools = 0.0;
        for part in self.parts() {
            match part {
                Part::Constant(c) => constant += c,
                Part::Plain { negative, sides } => {
                    let m2 = i64::from(sides) + 1;
                    plain2 += if negative { -m2 } else { m2 };
                }
                Part::Pool { sides, keep } => pools += pool_distribution(&sides, keep).mean(),
            }
        }
        (2 * constant + plain2) as f64 / 2.0 + pools
    }

    /// Whether some dice group keeps only some dice (`kh`/`kl`).
    pub fn keeps(&self) -> bool {
        self.items
            .iter()
            .any(|item| matches!(item.term, Term::Dice { keep: Some(_), .. }))
    }

    /// Whether some dice group is subtracted (`-1d4`).
    pub fn subtracts_dice(&self) -> bool {
        self.items
            .iter()
            .any(|item| item.negative && matches!(item.term, Term::Dice { .. }))
    }

    /// The sides of the first dice term (`8` for `1d8+2`), if it has dice.
    pub fn first_die(&self) -> Option<u32> {
        self.items.iter().find_map(|item| match item.term {
            Term::Dice { sides, .. } => Some(sides),
            Term::Constant(_) => None,
        })
    }

    /// How many dice one roll of the expression consumes.
    pub fn dice_count(&self) -> u32 {
        self.items
            .iter()
            .map(|item| match item.term {
                Term::Dice { count, .. } => count,
                Term::Constant(_) => 0,
            })
            .sum()
    }
}

/// Probabilities below the smallest normal `f64` (about 2.2e-308) become 0: they
/// cannot matter, and subnormal arithmetic is very slow.
fn flush(p: f64) -> f64 {
    if p < f64::MIN_POSITIVE { 0.0 } else { p }
}

/// The exact distribution of keeping `keep` of independent dice with these sides.
///
/// Dynamic programming, adding the dice one by one: the state is the sorted multiset
/// of the faces currently tracked (the kept dice, or the dropped dice when fewer are
/// dropped than kept) together with the settled sum of faces that can no longer
/// change place.
fn pool_distribution(sides: &[u32], keep: Keep) -> Distribution {
    let n = sides.len();
    let t = tracking(n, keep);
    let (lo, hi) = pool_range(sides, keep);
    let mut states = Layer::default();
    states.add(&[], 0, 1.0, &[1.0]);
    let mut key: Vec<u16> = Vec::with_capacity(t.m + 1);
    for &s in sides {
        let p = 1.0 / f64::from(s);
        let mut next = Layer::default();
        for (ms, settled) in states.keys.iter().zip(&states.values) {
            if ms.len() < t.m {
                for f in 1..=s as u16 {
                    key.clear();
                    key.extend_from_slice(ms);
                    key.insert(key.partition_point(|&x| x < f), f);
                    next.add(&key, 0, p, settled);
                }
                continue;
            }
            // Full: a new face either displaces the tracked face at the far end, or is
            // itself pushed out.
            let (low, high) = (ms.first().copied(), ms.last().copied());
            let mut unchanged = 0_u32;
            for f in 1..=s as u16 {
                let displaces = if t.track_high {
                    low.is_some_and(|low| f > low)
                } else {
                    high.is_some_and(|high| f < high)
                };
                if displaces {
                    key.clear();
                    key.extend_from_slice(ms);
                    let out = if t.track_high {
                        key.remove(0)
                    } else {
                        key.pop().unwrap_or(0)
                    };
                    key.insert(key.partition_point(|&x| x < f), f);
                    let shift = if t.settle { usize::from(out) } else { 0 };
                    next.add(&key, shift, p, settled);
                } else if t.settle {
                    next.add(ms, usize::from(f), p, settled);
                } else {
                    unchanged += 1;
                }
            }
            if unchanged > 0 {
                next.add(ms, 0, p * f64::from(unchanged), settled);
            }
        }
        states = next;
    }
    let mut probs = vec![0.0; (hi - lo + 1) as usize];
    for (ms, settled) in states.keys.iter().zip(&states.values) {
        let base: i64 = if t.settle {
            0
        } else {
            ms.iter().map(|&f| i64::from(f)).sum()
        };
        // Settled sums below what the pool can reach are never filled in.
        for (i, &q) in settled.iter().enumerate() {
            if q != 0.0 {
                probs[(base + i as i64 - lo) as usize] += q;
            }
        }
    }
    Distribution { lo, probs }
}

/// The states of the pool DP after some dice: each tracked multiset with the
/// probabilities of each settled sum (index = settled sum). States are kept in the
/// order first reached, so the floating-point sums are deterministic.
#[derive(Default)]
struct Layer {
    index: std::collections::HashMap<Vec<u16>, usize>,
    keys: Vec<Vec<u16>>,
    values: Vec<Vec<f64>>,
}

impl Layer {
    /// Adds `settled × weight`, shifted up by `shift`, to the state `key`.
    fn add(&mut self, key: &[u16], shift: usize, weight: f64, settled: &[f64]) {
        let slot = match self.index.get(key) {
            Some(&slot) => slot,
            None => {
                self.index.insert(key.to_vec(), self.keys.len());
                self.keys.push(key.to_vec());
                self.values.push(Vec::new());
                self.keys.len() - 1
            }
        };
        let target = &mut self.values[slot];
        if target.len() < settled.len() + shift {
            target.resize(settled.len() + shift, 0.0);
        }
        for (t, &q) in target[shift..].iter_mut().zip(settled) {
            *t += q * weight;
        }
    }
}

impl Distribution {
    /// A distribution that is `value` with certainty.
    pub fn constant(value: i64) -> Self {
        Self {
            lo: value,
            probs: vec![1.0],
        }
    }

    /// The uniform distribution of one die with `sides` faces.
    pub fn die(sides: u32) -> Self {
        // A die with 0 sides is treated as a d1, as `Dice::roll` does.
        let sides = sides.max(1);
        Self {
            lo: 1,
            probs: vec![1.0 / f64::from(sides); sides as usize],
        }
    }

    /// The distribution of the sum of independent draws from `self` and `other`.
    pub fn convolve(&self, other: &Distribution) -> Distribution {
        let mut probs = vec![0.0; self.probs.len() + other.probs.len() - 1];
        for (i, &a) in self.probs.iter().enumerate() {
            if a == 0.0 {
                continue;
            }
            for (j, &b) in other.probs.iter().enumerate() {
                probs[i + j] += a * b;
            }
        }
        for p in &mut probs {
            *p = flush(*p);
        }
        Distribution {
            lo: self.lo + other.lo,
            probs,
        }
    }

    /// The distribution of `-X` for `X` drawn from `self`.
    pub fn negate(&self) -> Distribution {
        let mut probs = self.probs.clone();
        probs.reverse();
        Distribution {
            lo: -self.max(),
            probs,
        }
    }

    /// `self` plus one die with `sides` faces, in time linear in the support: each
    /// new probability is the sum of a window of `sides` old ones. The window slides
    /// up from the bottom while the mass below it is at most one half, and down from
    /// the top for the rest, so that it never subtracts large sums to get small tail
    /// probabilities.
    fn add_uniform(&self, sides: u32) -> Distribution {
        let s = sides.max(1) as usize;
        let old = &self.probs;
        let n = old.len();
        let len = n + s - 1;
        let w = 1.0 / s as f64;
        let mut probs = vec![0.0; len];
        // New index j (value lo + 1 + j) sums old indices j+1-s ..= j.
        let mut below = 0.0; // sum of old[..=j]
        let mut window = 0.0;
        let mut split = len;
        for (j, out) in probs.iter_mut().enumerate() {
            if j < n {
                below += old[j];
                window += old[j];
            }
            if j >= s {
                window -= old[j - s];
            }
            if below > 0.5 {
                split = j;
                break;
            }
            *out = flush(window.max(0.0) * w);
        }
        let mut window = 0.0;
        for j in (split..len).rev() {
            // Window old[j+1-s ..= j] clipped to 0..n, built from the top.
            if j + 1 >= s {
                window += old[j + 1 - s];
            }
            if j + 1 < n {
                window -= old[j + 1];
            }
            probs[j] = flush(window.max(0.0) * w);
        }
        Distribution {
            lo: self.lo + 1,
            probs,
        }
    }

    /// `self` minus one die with `sides` faces.
    fn sub_uniform(&self, sides: u32) -> Distribution {
        self.negate().add_uniform(sides).negate()
    }

    /// `(value, probability)` pairs in ascending value order, zero-probability
    /// values omitted.
    pub fn outcomes(&self) -> Vec<(i64, f64)> {
        self.probs
            .iter()
            .enumerate()
            .filter(|&(_, &p)| p > 0.0)
            .map(|(i, &p)| (self.lo + i as i64, p))
            .collect()
    }

    /// Probability of exactly `value`.
    pub fn prob(&self, value: i64) -> f64 {
        value
            .checked_sub(self.lo)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.probs.get(i).copied())
            .unwrap_or(0.0)
    }

    /// Probability of a total of at least `threshold`.
    pub fn prob_at_least(&self, threshold: i64) -> f64 {
        if threshold <= self.lo {
            return 1.0;
        }
        let start = usize::try_from(threshold - self.lo).unwrap_or(usize::MAX);
        let p: f64 = self.probs.iter().skip(start).rev().sum();
        p.min(1.0)
    }

    /// Probability of a total of at most `threshold`.
    pub fn prob_at_most(&self, threshold: i64) -> f64 {
        if threshold >= self.max() {
            return 1.0;
        }
        if threshold < self.lo {
            return 0.0;
        }
        let end = (threshold - self.lo + 1) as usize;
        let p: f64 = self.probs[..end].iter().sum();
        p.min(1.0)
    }

    /// Expected value.
    pub fn mean(&self) -> f64 {
        // Measured from the middle of the support, so that a symmetric distribution
        // comes out at its centre up to rounding of tiny residues.
        let mid2 = self.probs.len() as i64 - 1;
        let total: f64 = self.probs.iter().sum();
        let weighted: f64 = self
            .probs
            .iter()
            .enumerate()
            .map(|(i, &p)| (2 * i as i64 - mid2) as f64 * p)
            .sum();
        self.lo as f64 + mid2 as f64 / 2.0 + weighted / total / 2.0
    }

    /// Lowest possible value.
    pub fn min(&self) -> i64 {
        self.lo
    }

    /// Highest possible value.
    pub fn max(&self) -> i64 {
        self.lo + self.probs.len() as i64 - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn expr(s: &str) -> DiceExpr {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn err(s: &str) -> ExprError {
        s.parse::<DiceExpr>().expect_err(s)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// The work the cost model charges an expression's exact distribution: the
    /// updates of the convolutions plus the pool DP's estimate, as `check_cost`
    /// counts them against `MAX_WORK` and `MAX_POOL_WORK`.
    fn work(e: &DiceExpr) -> f64 {
        let mut span = 0.0;
        let mut total = 0.0;
        for part in e.parts() {
            match part {
                Part::Constant(_) => {}
                Part::Plain { sides, .. } => {
                    total += span + f64::from(sides);
                    span += f64::from(sides - 1);
                }
                Part::Pool { sides, keep } => {
                    let (lo, hi) = pool_range(&sides, keep);
                    total += pool_work(&sides, keep) + (span + 1.0) * ((hi - lo) as f64 + 1.0);
                    span += (hi - lo) as f64;
                }
            }
        }
        total
    }

    #[test]
    fn serde_reads_and_writes_the_text() {
        let e: DiceExpr = ron::from_str("\"2d6 + 1\"").unwrap();
        assert_eq!(e, expr("2d6+1"));
        assert_eq!(ron::to_string(&e).unwrap(), "\"2d6+1\"");
        for bad in ["\"junk\"", "\"\"", "\"1d0\""] {
            let err = ron::from_str::<DiceExpr>(bad).unwrap_err();
            assert!(
                err.code
                    .to_string()
                    .contains("is not a dice expression: at character"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn pool_builds_what_the_parser_reads() {
        assert_eq!(DiceExpr::pool(1, 100, None), expr("1d100"));
        assert_eq!(DiceExpr::pool(2, 100, Some((false, 1))), expr("2d100kl1"));
        assert_eq!(DiceExpr::pool(2, 20, Some((true, 1))), expr("2d20kh1"));
    }

    #[test]
    fn the_cost_model_charges_big_dice_more() {
        assert!(work(&expr("2d6")) < work(&expr("36d10")));
        assert!(work(&expr("36d10")) < work(&expr("1000d1000")));
        assert!(work(&expr("1000d1000")) <= MAX_WORK as f64);
        assert!(work(&expr("10d6kh3")) < MAX_POOL_WORK / 100.0);
    }

    fn assert_sums_to_one(d: &Distribution) {
        let total: f64 = d.outcomes().iter().map(|&(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-9, "total {total}");
    }

    /// Brute force: every combination of faces, keeping `k` highest / lowest.
    fn brute(sides: &[u32], keep: Option<(bool, usize)>) -> BTreeMap<i64, f64> {
        let mut out = BTreeMap::new();
        let total: u64 = sides.iter().map(|&s| u64::from(s)).product();
        let mut faces = vec![1_u32; sides.len()];
        loop {
            let mut sorted = faces.clone();
            sorted.sort_unstable();
            let kept: &[u32] = match keep {
                None => &sorted,
                Some((true, k)) => &sorted[sorted.len() - k..],
                Some((false, k)) => &sorted[..k],
            };
            let sum: i64 = kept.iter().map(|&f| i64::from(f)).sum();
            *out.entry(sum).or_insert(0.0) += 1.0 / total as f64;
            // Next combination (odometer).
            let mut i = 0;
            loop {
                if i == faces.len() {
                    return out;
                }
                if faces[i] < sides[i] {
                    faces[i] += 1;
                    break;
                }
                faces[i] = 1;
                i += 1;
            }
        }
    }

    fn assert_matches_brute(e: &str, sides: &[u32], keep: Option<(bool, usize)>) {
        let d = expr(e).distribution();
        let b = brute(sides, keep);
        let got: Vec<(i64, f64)> = d.outcomes();
        assert_eq!(got.len(), b.len(), "{e}: support {got:?} vs {b:?}");
        for ((v, p), (bv, bp)) in got.iter().zip(&b) {
            assert_eq!(v, bv, "{e}");
            assert!(close(*p, *bp), "{e}: P({v}) = {p}, brute force {bp}");
        }
        assert_eq!((d.min(), d.max()), expr(e).range(), "{e}");
    }

    #[test]
    fn two_d6_exact() {
        let d = expr("2d6").distribution();
        assert!(close(d.prob(7), 6.0 / 36.0));
        assert!(close(d.prob(2), 1.0 / 36.0));
        assert!(close(d.prob(12), 1.0 / 36.0));
        assert_eq!(d.prob(1), 0.0);
        assert_eq!(d.prob(13), 0.0);
        assert!(close(d.mean(), 7.0));
        assert_eq!((d.min(), d.max()), (2, 12));
        assert!(close(d.prob_at_least(10), 6.0 / 36.0));
        assert!(close(d.prob_at_most(4), 6.0 / 36.0));
        assert_eq!(d.prob_at_least(2), 1.0);
        assert_eq!(d.prob_at_least(13), 0.0);
        assert_eq!(d.prob_at_most(12), 1.0);
        assert_eq!(d.prob_at_most(1), 0.0);
        assert_eq!(d.outcomes().len(), 11);
        assert_sums_to_one(&d);
        assert_matches_brute("2d6", &[6, 6], None);
    }

    #[test]
    fn distribution_primitives() {
        let c = Distribution::constant(-3);
        assert_eq!(c.outcomes(), vec![(-3, 1.0)]);
        assert_eq!((c.min(), c.max()), (-3, -3));
        let d4 = Distribution::die(4);
        assert_eq!(
            d4.outcomes(),
            vec![(1, 0.25), (2, 0.25), (3, 0.25), (4, 0.25)]
        );
        let two = d4.convolve(&Distribution::die(4)).convolve(&c);
        assert_eq!((two.min(), two.max()), (-1, 5));
        assert!(close(two.prob(2), 4.0 / 16.0));
        assert!(close(two.mean(), 2.0));
        let neg = d4.negate();
        assert_eq!((neg.min(), neg.max()), (-4, -1));
        assert!(close(neg.mean(), -2.5));
        // Linear-time die addition agrees with plain convolution.
        let via_window = expr("3d4").distribution();
        let via_convolve = d4.convolve(&d4).convolve(&d4);
        for v in 3..=12 {
            assert!(close(via_window.prob(v), via_convolve.prob(v)));
        }
    }

    #[test]
    fn thirty_six_d10_mean_198() {
        let e = expr("36d10");
        let d = e.distribution();
        assert!((d.mean() - 198.0).abs() < 1e-9, "mean {}", d.mean());
        assert_eq!(e.mean(), 198.0);
        assert_eq!((d.min(), d.max()), (36, 360));
        assert_eq!(e.range(), (36, 360));
        assert_sums_to_one(&d);
        // The tails are exact, not lost to cancellation: 10^-36 at both ends.
        let tail = 1e-36;
        assert!((d.prob(36) / tail - 1.0).abs() < 1e-9, "{}", d.prob(36));
        assert!((d.prob(360) / tail - 1.0).abs() < 1e-9, "{}", d.prob(360));
        assert!((d.prob(37) / (36.0 * tail) - 1.0).abs() < 1e-9);
        assert_eq!(d.outcomes().len(), 325);
        // Symmetric about the mean.
        for k in 0..=162 {
            let (a, b) = (d.prob(36 + k), d.prob(360 - k));
            assert!((a - b).abs() <= 1e-12 * a.max(b), "{k}: {a} {b}");
        }
        // Cheap by the cost model the parser enforces (no timing: machines are noisy):
        // 36 window passes over at most 325 totals.
        assert!(work(&e) < 20_000.0, "36d10 costs {}", work(&e));
    }

    #[test]
    fn d100_is_uniform() {
        for s in ["d100", "d%", "1D%", "1d100"] {
            let d = expr(s).distribution();
            assert_eq!((d.min(), d.max()), (1, 100), "{s}");
            assert_eq!(d.outcomes().len(), 100);
            assert!(d.outcomes().iter().all(|&(_, p)| close(p, 0.01)), "{s}");
            assert!(close(d.mean(), 50.5));
            assert_eq!(expr(s), expr("1d100"));
        }
    }

    #[test]
    fn four_d6_keep_highest_three() {
        let d = expr("4d6kh3").distribution();
        // 15869 / 1296.
        assert!((d.mean() - 15869.0 / 1296.0).abs() < 1e-12, "{}", d.mean());
        assert!((d.mean() - 12.2446).abs() < 1e-4);
        assert!(close(d.prob(18), 21.0 / 1296.0));
        assert!(close(d.prob(3), 1.0 / 1296.0));
        assert_sums_to_one(&d);
        assert_matches_brute("4d6kh3", &[6; 4], Some((true, 3)));
        assert!((expr("4d6kh3-1d4+2").mean() - (15869.0 / 1296.0 - 0.5)).abs() < 1e-12);
        let plus = expr("4d6kh3+2").distribution();
        assert!(close(plus.mean(), d.mean() + 2.0));
        assert_eq!((plus.min(), plus.max()), (5, 20));
    }

    #[test]
    fn keeps_match_brute_force() {
        assert_matches_brute("4d6kl1", &[6; 4], Some((false, 1)));
        assert_matches_brute("4d6kh1", &[6; 4], Some((true, 1)));
        assert_matches_brute("5d4kl3", &[4; 5], Some((false, 3)));
        assert_matches_brute("5d4kh2", &[4; 5], Some((true, 2)));
        assert_matches_brute("1d4+1d6+1d8+1d10kh2", &[4, 6, 8, 10], Some((true, 2)));
        assert_matches_brute("1d4+1d6+1d8+1d10kl3", &[4, 6, 8, 10], Some((false, 3)));
        assert_matches_brute("3d6kh3", &[6; 3], Some((true, 3)));
        assert_matches_brute("2d20kh1", &[20; 2], Some((true, 1)));
        assert_matches_brute("6d3kh4", &[3; 6], Some((true, 4)));
        assert_matches_brute("6d3kl4", &[3; 6], Some((false, 4)));
    }

    #[test]
    fn ten_d6_keep_highest_three_is_quick() {
        let e = expr("10d6kh3");
        let d = e.distribution();
        assert_eq!((d.min(), d.max()), (3, 18));
        assert_sums_to_one(&d);
        // P(all three kept are 1) = P(all ten are 1).
        assert!((d.prob(3) / 6f64.powi(-10) - 1.0).abs() < 1e-9);
        // P(18) = P(at least three sixes).
        let p_lt3: f64 = (0..3)
            .map(|k| {
                let c = [1.0, 10.0, 45.0][k];
                c * (1.0 / 6f64).powi(k as i32) * (5.0 / 6f64).powi(10 - k as i32)
            })
            .sum();
        assert!((d.prob(18) - (1.0 - p_lt3)).abs() < 1e-12);
        assert!(d.mean() > 15.0 && d.mean() < 17.0, "{}", d.mean());
        // Quick by the cost model (states × dice × faces), not by a clock.
        assert!(work(&e) < 1.0e5, "10d6kh3 costs {}", work(&e));
    }

    #[test]
    fn mixed_constants_and_subtraction() {
        let e = expr("1d20 - 1d4 + 3");
        let d = e.distribution();
        assert_eq!((d.min(), d.max()), (0, 22));
        assert_eq!(e.range(), (0, 22));
        assert!(close(d.mean(), 10.5 - 2.5 + 3.0));
        assert!(close(d.prob(0), 1.0 / 80.0));
        assert!(close(d.prob(22), 1.0 / 80.0));
        assert_sums_to_one(&d);
        let k = expr("-2+4d6kh3-1d4").distribution();
        assert!((k.mean() - (15869.0 / 1296.0 - 2.0 - 2.5)).abs() < 1e-12);
        assert_eq!((k.min(), k.max()), (-3, 15));
        let c = expr("5-7").distribution();
        assert_eq!(c.outcomes(), vec![(-2, 1.0)]);
    }

    // --- The phases ruleset (assets/rulesets/phases.ron) ---

    /// P-03: one source of advantage rolls 2d6 plus an extra d6 and keeps the highest two.
    #[test]
    fn p03_advantage_keeps_highest_two() {
        assert_matches_brute("2d6+1d6kh2", &[6, 6, 6], Some((true, 2)));
        let adv = expr("2d6+1d6kh2").distribution();
        let plain = expr("2d6").distribution();
        assert!(adv.mean() > plain.mean());
        assert!(adv.prob_at_least(10) > plain.prob_at_least(10));
        assert_eq!(
            expr("2d6+1d6kh2").distribution(),
            expr("3d6kh2").distribution()
        );
    }

    /// P-05: one source of disadvantage rolls 2d6 plus an extra die (d12) and keeps
    /// the lowest two.
    #[test]
    fn p05_disadvantage_keeps_lowest_two() {
        assert_matches_brute("2d6+1d12kl2", &[6, 6, 12], Some((false, 2)));
        let dis = expr("2d6+1d12kl2").distribution();
        assert!(dis.mean() < 7.0);
        assert_eq!((dis.min(), dis.max()), (2, 12));
    }

    /// P-07: two sources of advantage roll 2d6+1d8 keep highest two; two of
    /// disadvantage roll 2d6+1d10 keep lowest two.
    #[test]
    fn p07_two_sources_exact_distributions() {
        assert_matches_brute("2d6+1d8kh2", &[6, 6, 8], Some((true, 2)));
        assert_matches_brute("2d6+1d10kl2", &[6, 6, 10], Some((false, 2)));
        let adv = expr("2d6+1d8kh2").distribution();
        assert_eq!((adv.min(), adv.max()), (2, 14));
        // 14 needs the d8 on 8 and at least one 6 on the 2d6: 1/8 × 11/36.
        assert!(close(adv.prob(14), 11.0 / 288.0));
        assert_sums_to_one(&adv);
        let dis = expr("2d6+1d10kl2").distribution();
        assert_eq!((dis.min(), dis.max()), (2, 12));
        assert_sums_to_one(&dis);
    }

    /// P-EX-1 (P-07): faces 1, 4, 7 for `2d6+1d8kh2` keep 7 + 4 = 11.
    #[test]
    fn p_ex_1_advantage_roll_keeps_7_and_4() {
        let e = expr("2d6+1d8kh2");
        let mut dice = Dice::scripted([1, 4, 7]);
        let r = e.roll(&mut dice).unwrap();
        assert_eq!(r.faces, vec![(6, 1), (6, 4), (8, 7)]);
        assert_eq!(r.kept, vec![4, 7]);
        assert_eq!(r.total, 11);
        assert_eq!(dice.remaining(), Some(0));
        assert!(e.distribution().prob(11) > 0.0);
    }

    /// P-EX-2 (P-07): faces 6, 5, 2 for `2d6+1d10kl2` keep 2 + 5 = 7.
    #[test]
    fn p_ex_2_disadvantage_roll_keeps_2_and_5() {
        let e = expr("2d6+1d10kl2");
        let r = e.roll(&mut Dice::scripted([6, 5, 2])).unwrap();
        assert_eq!(r.faces, vec![(6, 6), (6, 5), (10, 2)]);
        assert_eq!(r.kept, vec![5, 2]);
        assert_eq!(r.total, 7);
    }

    #[test]
    fn roll_consumes_dice_left_to_right() {
        let e = expr("4d6kh3+2-1d4+1d8");
        let r = e.roll(&mut Dice::scripted([3, 1, 6, 3, 2, 5])).unwrap();
        assert_eq!(
            r.faces,
            vec![(6, 3), (6, 1), (6, 6), (6, 3), (4, 2), (8, 5)]
        );
        assert_eq!(r.kept, vec![3, 6, 3, 2, 5]);
        assert_eq!(r.total, 12 + 2 - 2 + 5);
        assert_eq!(e.dice_count(), 6);
        // Too few faces, or a face too large for the die, are dice errors.
        assert_eq!(
            e.roll(&mut Dice::scripted([1, 1])),
            Err(DiceError::Exhausted { sides: 6, used: 2 })
        );
        assert!(expr("1d4").roll(&mut Dice::scripted([5])).is_err());
        // Ties keep the earliest die.
        let r = expr("3d6kl2").roll(&mut Dice::scripted([2, 2, 2])).unwrap();
        assert_eq!((r.kept, r.total), (vec![2, 2], 4));
    }

    #[test]
    fn seeded_rolls_stay_in_the_support() {
        let mut dice = Dice::seeded(42);
        for s in [
            "2d6+1d8kh2",
            "2d6+1d10kl2",
            "4d6kh3+2",
            "1d20-1d4",
            "10d6kh3",
        ] {
            let e = expr(s);
            let d = e.distribution();
            for _ in 0..200 {
                let r = e.roll(&mut dice).unwrap();
                assert!(d.prob(r.total) > 0.0, "{s}: {}", r.total);
                assert_eq!(r.faces.len(), e.dice_count() as usize);
            }
        }
    }

    #[test]
    fn display_round_trips() {
        for (input, canonical) in [
            ("2d6", "2d6"),
            ("d20", "1d20"),
            ("d%", "1d100"),
            (" 2D6 + 1d8KH2 + 3 ", "2d6+1d8kh2+3"),
            ("4d6Kl1", "4d6kl1"),
            ("-3 + d4", "-3+1d4"),
            ("+5", "5"),
            ("1d20-1d4-2", "1d20-1d4-2"),
            ("4d6kh3+2d6kh1-1d4", "4d6kh3+2d6kh1-1d4"),
            ("0", "0"),
        ] {
            let e = expr(input);
            assert_eq!(e.to_string(), canonical, "{input}");
            assert_eq!(expr(&e.to_string()), e, "{input}");
        }
    }

    #[test]
    fn parse_errors_carry_positions() {
        let cases: &[(&str, usize, &str)] = &[
            ("", 0, "empty"),
            ("   ", 0, "empty"),
            ("2d", 2, "expected a number of sides after `d`"),
            ("2d6+d", 5, "expected a number of sides after `d`"),
            ("2d6+", 4, "expected a number or a dice group"),
            ("2d6 3", 4, "expected `+` or `-`"),
            ("2d6*3", 3, "unexpected character `*`"),
            ("2d6kx2", 4, "expected `h` or `l` after `k`"),
            ("4d6kh", 5, "a number of dice to keep after `kh`"),
            ("4d6kh0", 5, "at least 1"),
            ("4d6kh5", 3, "cannot keep 5 dice"),
            ("2d6+1d8kh4", 7, "cannot keep 4 dice"),
            ("0d6", 0, "at least 1 die"),
            ("2d0", 2, "at least 1 side"),
            ("1001d6", 0, "too many dice"),
            ("2d10001", 2, "too many sides"),
            ("1d20-1d4kh1", 8, "subtracted dice group at character 6"),
            ("3kh1", 1, "expected `+` or `-`"),
            ("kh1", 0, "must follow a dice group"),
            ("4d6kh3kh1", 6, "only one"),
            ("99999999999999999999999", 0, "constant too large"),
            ("1d4+ +2", 5, "after `+`"),
            ("500d6+501d6", 6, "too many dice in the expression"),
            ("100d10000+100d10000", 10, "too large to compute exactly"),
            (
                "500d1000kh500+2d1000kh1",
                20,
                "too large to compute exactly",
            ),
            ("36d10kh18", 5, "too large to compute exactly"),
        ];
        for &(input, position, needle) in cases {
            let e = err(input);
            assert_eq!(e.position, position, "{input:?}: {e}");
            assert!(e.message.contains(needle), "{input:?}: {e}");
        }
        // Display is 1-based.
        assert_eq!(
            err("2d6+d").to_string(),
            "at character 6: expected a number of sides after `d` (or `%` for d100)"
        );
        // A keep may follow a subtraction once the subtracted dice are outside its pool.
        assert!("1d20-1d4+2d6kh1".parse::<DiceExpr>().is_err());
        assert!("2d6kh1-1d4".parse::<DiceExpr>().is_ok());
    }
}
