//! The `Easy` and `Normal` policies: score every kind of command the unit could give
//! now (attacks, items, the ruleset's guard action, moves to cells of the cost tree,
//! its unprovoking move) on one scale, in expected hit points, and give the best one
//! that passes `check`.
//!
//! Scale: an attack is worth its expected damage plus its kill chance times what the
//! target is worth; a cell is worth the best attack the unit could make from it, less
//! (for `Normal`) the damage the enemies that reach it could deal, less the
//! opportunity attacks the path provokes, plus a small pull toward the enemy. Ending
//! the turn is worth 0, a move the gain of the new cell over the current one.

use std::collections::BTreeSet;
use std::rc::Rc;

use rand::{Rng, RngExt};

use super::AiPolicy;
use super::moves::{self, Power, Tree};
use super::view::{Odds, UnitSnap, View};
use crate::engine::battle::{Battle, VictoryRule};
use crate::engine::board::Cell;
use crate::engine::command::Command;
use crate::engine::decision::PendingDecision;
use crate::engine::odds::DiceExpr;
use crate::engine::ruleset::{MoveHint as Hint, Ruleset};
use crate::engine::units::{Items, MovementPowers, UnitId};
use crate::engine::verb::Args;
use crate::level::schema::ItemEffect;

/// Candidate cells scored exactly (paths, provocations, line of sight) after the
/// cheap first pass.
const REFINE: usize = 6;
/// Pull toward the nearest enemy, per cell of distance.
const APPROACH: f64 = 0.2;
/// Share of an attack's value that threatening an enemy is worth (the chance it
/// provokes by moving away, or stays pinned).
const HOLD: f64 = 0.3;
/// Extra pull toward the enemy at full urgency (a multiple of [`APPROACH`]).
const URGENT_APPROACH: f64 = 2.0;
/// Share of the rounds left the side may need to beat the enemy before it hurries.
const URGENCY_START: f64 = 0.3;
/// Weight of the damage from enemies that must move to reach a cell.
const COME: f64 = 0.75;
/// Share of the gain of charging next round that standing where one can is worth.
const CHARGE_NEXT: f64 = 0.5;
/// Least gain (in expected hit points) for which a free Feint is worth its AP (the
/// AP could also buy a step).
const FEINT_MIN_GAIN: f64 = 0.1;
/// The value of the ruleset's [`crate::engine::ruleset::AiHints::arm_action`]: above
/// any other command, so a unit with no weapon at hand draws one first.
const ARM_FIRST: f64 = 1.0e9;
/// Slot of [`Mind::values`] for attacks without a move.
const STILL: usize = 0;
/// Slot of [`Mind::values`] for attacks after the unit's charge.
const CHARGING: usize = 1;
/// How far a boost before an attack ranks above the attack (in expected hit points).
const BOOST_LEAD: f64 = 0.01;
/// Jitter added to scores so exact ties break at random (from the seeded generator).
const JITTER: f64 = 1e-6;

/// The best command for `unit`'s turn, or `None` if nothing scored (the caller falls
/// back to a legal command).
pub(crate) fn turn(
    battle: &Battle,
    unit: UnitId,
    policy: AiPolicy,
    rng: &mut impl Rng,
) -> Option<Command> {
    score(battle, unit, policy, rng, 1).command
}

/// Up to `k` legal commands for `unit`'s turn with their scores, best first, as
/// `policy` scores them (the first is [`turn`]'s command for the same generator
/// state); the `hard` policy searches among them.
pub(crate) fn ranked(
    battle: &Battle,
    unit: UnitId,
    policy: AiPolicy,
    rng: &mut impl Rng,
    k: usize,
) -> Vec<(f64, Command)> {
    let best = score(battle, unit, policy, rng, k);
    let mut out: Vec<(f64, Command)> = best.command.map(|c| (best.value, c)).into_iter().collect();
    for (v, c) in best.runners {
        if out.len() >= k {
            break;
        }
        if !out.iter().any(|(_, o)| *o == c) {
            out.push((v, c));
        }
    }
    out
}

/// Scores every kind of command for `unit`'s turn, keeping the best and (for
/// `keep` > 1) the `keep` best.
fn score(battle: &Battle, unit: UnitId, policy: AiPolicy, rng: &mut impl Rng, keep: usize) -> Best {
    let mut view = View::new(battle);
    let mut mind = Mind::new(&mut view, unit, policy);
    let mut best = Best {
        keep,
        ..Best::default()
    };
    best.offer(0.0, Command::EndTurn { unit }, battle, rng);
    if let Some(c) = battle.rules().arm_action(battle.world(), unit) {
        // A weapon to draw before anything else (`wounds`' Draw, W-06).
        best.offer(ARM_FIRST, c, battle, rng);
        return best;
    }
    mind.attacks(&mut best, rng);
    mind.items(&mut best, rng);
    mind.recover(&mut best, rng);
    if policy == AiPolicy::Normal {
        mind.defend(&mut best, rng);
        mind.disengage(&mut best, rng);
        mind.total_defense(&mut best, rng);
        mind.feint(&mut best, rng);
    }
    mind.movement(&mut best, rng);
    if policy == AiPolicy::Normal {
        boost(battle, &mut best, rng);
    }
    best
}

/// The ruleset's boost before the attack `best` holds ([`AiHints::boost_action`]:
/// `wounds`' +1 to hit or +1 melee damage for a spare Bonus Action), ranked just
/// above the attack: the attack stays the runner-up (`hard` weighs both) and is
/// what `normal` chooses once no boost is left to take.
///
/// [`AiHints::boost_action`]: crate::engine::ruleset::AiHints::boost_action
fn boost(battle: &Battle, best: &mut Best, rng: &mut impl Rng) {
    let Some(attack @ Command::Attack { .. }) = best.command.clone() else {
        return;
    };
    if let Some(b) = battle.rules().boost_action(battle.world(), &attack) {
        best.offer(best.value + BOOST_LEAD, b, battle, rng);
    }
}

/// The highest-scoring legal command so far (and, when `keep` > 1, the `keep`
/// highest-scoring legal ones, best first, one value per command).
#[derive(Default)]
struct Best {
    value: f64,
    command: Option<Command>,
    keep: usize,
    runners: Vec<(f64, Command)>,
}

impl Best {
    /// Keeps `command` if it beats the best so far and is legal.
    fn offer(&mut self, value: f64, command: Command, battle: &Battle, rng: &mut impl Rng) {
        let value = value + rng.random::<f64>() * JITTER;
        if self.keep > 1 {
            self.keep_runner(value, &command, battle);
        }
        if (self.command.is_none() || value > self.value) && battle.check(&command).is_ok() {
            self.value = value;
            self.command = Some(command);
        }
    }

    /// Keeps `command` among the `keep` best if it belongs there and is legal.
    fn keep_runner(&mut self, value: f64, command: &Command, battle: &Battle) {
        if let Some(i) = self.runners.iter().position(|(_, c)| c == command) {
            if value > self.runners[i].0 {
                self.runners[i].0 = value;
                self.runners.sort_by(|a, b| b.0.total_cmp(&a.0));
            }
            return;
        }
        let full = self.runners.len() >= self.keep;
        if full && self.runners.last().is_some_and(|(v, _)| value <= *v) {
            return;
        }
        if battle.check(command).is_err() {
            return;
        }
        let at = self.runners.partition_point(|(v, _)| *v >= value);
        self.runners.insert(at, (value, command.clone()));
        self.runners.truncate(self.keep);
    }
}

/// One unit's view of the fight.
struct Mind<'v, 'a> {
    view: &'v mut View<'a>,
    me: UnitSnap<'a>,
    policy: AiPolicy,
    /// The active ruleset, asked what moves do and which special actions to weigh.
    ruleset: &'static dyn Ruleset,
    /// Distance to the nearest enemy by cheapest path over terrain, by cell index
    /// (computed when a move needs it).
    approach: Option<Rc<Vec<u32>>>,
    /// Scale of [`Mind::risk`] from the balance of hit points and the round limit.
    caution: f64,
    /// The enemies in play.
    foes: Vec<Foe>,
    /// Range and "needs line of sight" of each of the unit's powers.
    ranges: Vec<(u32, bool)>,
    /// 0 (time enough) to 1 (the round limit comes before the enemy can be beaten at
    /// this rate): turns caution into haste.
    urgency: f64,
    /// The unit's movement power that charges (better odds on the next attack), if any.
    charger: Option<String>,
    /// The longest range of the unit's powers.
    max_range: u32,
    /// The unit's first melee power, if any.
    melee: Option<usize>,
    /// The movement powers attack values were asked after (`None` = no move), by
    /// slot of [`Mind::values`]: [`STILL`] first, then [`CHARGING`] when the unit
    /// has a charge.
    moved: Vec<Option<String>>,
    /// [`Mind::attack_value`] by slot of `moved`, then foe index × power index,
    /// filled lazily: scoring asks the same few values for every cell.
    values: Vec<Vec<Option<f64>>>,
    /// The most damage each foe (by index) can expect to deal this unit in one
    /// attack, filled lazily.
    incoming: Vec<Option<f64>>,
    /// By foe index: the distance beyond which the foe adds nothing to a cell's
    /// score (out of this unit's ranges, reach and speed, and of the foe's range
    /// and speed plus range).
    matters: Vec<u32>,
    /// The foes (by index, in order) that can matter to the cells being scored, set
    /// while the unit's moves are weighed: those within `matters` of some cell of
    /// its tree. Others add nothing, so scoring skips them (on a big map most of
    /// them), and the sums keep their order.
    near: Option<Vec<usize>>,
}

/// An enemy, as the scoring reads it (small and `Copy`: scoring loops over the
/// enemies for every cell).
#[derive(Clone, Copy, Debug)]
struct Foe {
    id: UnitId,
    cell: Cell,
    hp: i32,
    reach: u32,
    max_range: u32,
    speed: u32,
    wounded: f64,
}

impl<'v, 'a> Mind<'v, 'a> {
    fn new(view: &'v mut View<'a>, unit: UnitId, policy: AiPolicy) -> Self {
        let me = view.unit(unit).clone();
        let ruleset = view.battle.rules();
        let hp = |mine: bool| -> f64 {
            view.units
                .iter()
                .filter(|u| u.active && (u.side == me.side) == mine)
                .map(|u| f64::from(u.hp.max(0)))
                .sum()
        };
        let balance = (hp(false) / hp(true).max(1.0)).clamp(0.25, 2.0);
        let round = f64::from(view.battle.turn().round);
        let limit = view
            .world
            .resource::<VictoryRule>()
            .0
            .max_rounds
            .unwrap_or(super::sim::DEFAULT_MAX_ROUNDS);
        let pressure = (round / f64::from(limit.max(1))).min(1.0);
        let foes: Vec<Foe> = view
            .enemies(me.side)
            .map(|e| Foe {
                id: e.id,
                cell: e.cell,
                hp: e.hp,
                reach: e.reach,
                max_range: e.max_range(),
                speed: e.speed,
                wounded: e.wounded(),
            })
            .collect();
        let ranges: Vec<(u32, bool)> = me.powers.iter().map(|p| (p.range, p.ranged)).collect();
        let charger = view
            .world
            .get::<MovementPowers>(crate::engine::battle::entity(view.world, unit))
            .and_then(|m| {
                m.0.iter()
                    .find(|n| ruleset.move_hint(Some(n)).attack > 1.0)
                    .cloned()
            });
        // The rate the side deals damage at, guessed from this unit's best attack on
        // each enemy times the side's numbers, against the enemy's hit points and the
        // rounds left.
        let mine = view
            .units
            .iter()
            .filter(|u| u.active && u.side == me.side)
            .count() as f64;
        let enemy_hp: f64 = foes.iter().map(|f| f64::from(f.hp.max(0))).sum();
        let left = (f64::from(limit) - round + 1.0).max(1.0);
        let start = URGENCY_START;
        let urgency_at = |best_rate: f64| {
            let needed = enemy_hp / (best_rate * mine).max(0.05);
            ((needed / left - start) / (1.0 - start)).clamp(0.0, 1.0)
        };
        // The best rate over the enemies; but once the best so far leaves no
        // urgency, a better one can't either (urgency only falls as the rate rises,
        // and it is 0 then), so the other enemies' odds need not be asked (on a big
        // map, most of them).
        let mut best_rate: f64 = 0.0;
        for f in &foes {
            best_rate = best_rate.max(view.best_expected(me.id, f.id));
            if urgency_at(best_rate) <= 0.0 {
                break;
            }
        }
        let urgency = urgency_at(best_rate);
        let haste = pressure.max(urgency);
        let max_range = me.max_range();
        let melee = me.powers.iter().position(|p| !p.ranged);
        let incoming = vec![None; foes.len()];
        let mine = max_range.max(me.reach).max(me.speed);
        let matters = foes
            .iter()
            .map(|f| {
                if policy == AiPolicy::Normal {
                    mine.max(f.speed + f.max_range)
                } else {
                    max_range
                }
            })
            .collect();
        // Slot 0: no move; slot 1: the charge, if any.
        let moved = std::iter::once(None)
            .chain(charger.iter().cloned().map(Some))
            .collect::<Vec<_>>();
        let values = vec![vec![None; foes.len() * ranges.len()]; moved.len()];
        Mind {
            view,
            urgency,
            me,
            policy,
            ruleset,
            approach: None,
            caution: balance * (1.0 - 0.9 * haste),
            foes,
            ranges,
            charger,
            max_range,
            melee,
            moved,
            values,
            incoming,
            matters,
            near: None,
        }
    }

    /// The foes (by index, in order) that are within `matters` (plus `extra`) of
    /// some cell at most `radius` from the unit: by the triangle inequality, no
    /// other foe is within `matters` of such a cell.
    fn foes_near(&self, radius: u32, extra: u32) -> Vec<usize> {
        let board = self.view.board;
        (0..self.foes.len())
            .filter(|&k| {
                board.distance(self.me.cell, self.foes[k].cell)
                    <= radius.saturating_add(self.matters[k].max(extra))
            })
            .collect()
    }

    /// Sets [`Mind::near`] to the foes that can matter to the cells of `tree` (and
    /// within `extra` more of them) and returns them; `near` stays `None` when that
    /// is all of them (on a small map: then scoring need not look them up).
    fn near_tree(&mut self, tree: &Tree, extra: u32) -> Vec<usize> {
        let radius = tree
            .ends
            .iter()
            .map(|&c| self.view.board.distance(self.me.cell, c))
            .max()
            .unwrap_or(0);
        let near = self.foes_near(radius, extra);
        self.near = (near.len() < self.foes.len()).then(|| near.clone());
        near
    }

    /// The slot of [`Mind::values`] for attacks after moving with `moved`.
    fn moved_slot(&mut self, moved: Option<&str>) -> usize {
        if let Some(slot) = self.moved.iter().position(|m| m.as_deref() == moved) {
            return slot;
        }
        self.moved.push(moved.map(str::to_owned));
        self.values
            .push(vec![None; self.foes.len() * self.ranges.len()]);
        self.moved.len() - 1
    }

    /// [`Mind::attack_value`] against foe number `k` with power number `power`,
    /// after the move of slot `slot` (cached).
    #[inline]
    fn value(&mut self, k: usize, power: usize, slot: usize) -> f64 {
        let at = k * self.ranges.len() + power;
        match self.values[slot][at] {
            Some(v) => v,
            None => self.fill_value(k, power, slot),
        }
    }

    /// Works out and remembers a value [`Mind::value`] didn't have yet.
    #[cold]
    fn fill_value(&mut self, k: usize, power: usize, slot: usize) -> f64 {
        let at = k * self.ranges.len() + power;
        let target = self.foes[k];
        let moved = self.moved[slot].clone();
        let v = self.attack_value(&target, power, moved.as_deref());
        self.values[slot][at] = Some(v);
        v
    }

    /// The most damage foe number `k` can expect to deal this unit in one attack
    /// (cached).
    #[inline]
    fn incoming(&mut self, k: usize) -> f64 {
        match self.incoming[k] {
            Some(v) => v,
            None => self.fill_incoming(k),
        }
    }

    /// Works out and remembers what [`Mind::incoming`] didn't have yet.
    #[cold]
    fn fill_incoming(&mut self, k: usize) -> f64 {
        let v = self.view.best_expected(self.foes[k].id, self.me.id);
        self.incoming[k] = Some(v);
        v
    }

    fn normal(&self) -> bool {
        self.policy == AiPolicy::Normal
    }

    /// The enemies in play (copied out so callers can keep borrowing `self`).
    fn enemies(&self) -> Vec<Foe> {
        self.foes.clone()
    }

    /// How much removing `target` is worth beyond the damage: the damage it would
    /// otherwise go on dealing.
    fn worth(&mut self, target: UnitId) -> f64 {
        if !self.normal() {
            return 3.0;
        }
        2.0 + 3.0 * self.view.best_expected(target, self.me.id)
    }

    /// Value of attacking `target` with power number `power`, after moving with
    /// movement power `moved` this round (the ruleset's exact odds under that move).
    fn attack_value(&mut self, target: &Foe, power: usize, moved: Option<&str>) -> f64 {
        let Some(odds) = self.view.odds_after(self.me.id, target.id, power, moved) else {
            return 0.0;
        };
        self.value_of(target, odds)
    }

    /// Value of an attack on `target` with these odds: expected damage (more on a
    /// wounded target for `Normal`) plus the kill chance times what it is worth.
    fn value_of(&mut self, target: &Foe, odds: Odds) -> f64 {
        let worth = self.worth(target.id);
        let focus = if self.normal() {
            1.0 + 0.5 * target.wounded
        } else {
            1.0
        };
        odds.expected * focus + odds.kill * worth
    }

    /// What standing on `cell` risks: the damage the enemies could deal the unit
    /// there before its next turn (in full from those already in range, in part from
    /// those that can come, not at all with `direct`), scaled by [`Mind::risk`].
    fn threat_at(&mut self, cell: Cell, direct: bool) -> f64 {
        let mut damage = 0.0;
        // Every foe, or only the near ones (the others are beyond `matters`, which
        // for `Normal` covers a foe's speed plus range).
        let count = self.near.as_ref().map_or(self.foes.len(), Vec::len);
        for j in 0..count {
            let k = self.near.as_ref().map_or(j, |n| n[j]);
            let e = self.foes[k];
            let d = self.view.board.distance(cell, e.cell);
            let range = e.max_range;
            let weight = if d <= range {
                1.0
            } else if !direct && d <= e.speed + range {
                COME
            } else {
                continue;
            };
            damage += weight * self.incoming(k);
        }
        self.risk() * damage
    }

    /// How much the unit fears damage: more when hurt, less when its side is ahead
    /// in hit points, and less as the round limit nears (a draw helps nobody).
    fn risk(&self) -> f64 {
        (0.3 + self.me.wounded()) * self.caution
    }

    /// Cheap score of standing on `cell` after a move with movement power `moved`
    /// (hint `h`), and the enemy of the best attack from there. Exact line of sight
    /// when `exact`, else only range.
    ///
    /// The score adds up, for `Normal`, in this order:
    /// - the best attack from the cell (the first of equals, by enemy then power);
    /// - less the pull toward the enemy (cells to go before one is in range);
    /// - less the threat: what the enemies could deal the unit there before its next
    ///   turn (in full from those in range, [`COME`] of it from those that can come,
    ///   scaled by [`Mind::risk`] and the hint's exposure);
    /// - plus the hold: [`HOLD`] of the melee attack on each enemy within reach (an
    ///   enemy that walks out of reach provokes an attack, so standing next to it
    ///   pins it or costs it);
    /// - plus the charge to come: [`CHARGE_NEXT`] of the best gain a charge adds
    ///   against an enemy 2 or more cells away and within the unit's speed (a unit
    ///   that starts its move next to an enemy can't charge it).
    ///
    /// One pass over the enemies computes every part (each from that enemy's
    /// distance), each summed in enemy order.
    fn cell_score(
        &mut self,
        cell: Cell,
        moved: Option<&str>,
        h: Hint,
        exact: bool,
    ) -> (f64, Option<UnitId>) {
        let slot = self.moved_slot(moved);
        self.score_at(cell, slot, h, exact)
    }

    /// [`Mind::cell_score`] with the move given by its slot of [`Mind::values`].
    fn score_at(&mut self, cell: Cell, slot: usize, h: Hint, exact: bool) -> (f64, Option<UnitId>) {
        let board = self.view.board;
        let normal = self.normal();
        let charges = self.charger.is_some();
        let approach_cells = self.approach_distance(cell);
        let mut best = (0.0, None);
        let mut damage = 0.0;
        let mut hold = 0.0;
        let mut gain: f64 = 0.0;
        // Every foe, or only those near the cells being scored (the others are
        // beyond `matters`).
        let near = self.near.take();
        let count = near.as_ref().map_or(self.foes.len(), Vec::len);
        for j in 0..count {
            let k = near.as_ref().map_or(j, |n| n[j]);
            let f = self.foes[k];
            let d = board.distance(cell, f.cell);
            if d > self.matters[k] {
                continue;
            }
            for i in 0..self.ranges.len() {
                let (range, ranged) = self.ranges[i];
                // Line of sight costs a line trace: only ranged powers need it, and
                // the first pass does without it.
                if d > range || (exact && ranged && !board.line_of_sight(cell, f.cell)) {
                    continue;
                }
                let v = self.value(k, i, slot);
                if v > best.0 {
                    best = (v, Some(f.id));
                }
            }
            if !normal {
                continue;
            }
            let weight = if d <= f.max_range {
                Some(1.0)
            } else if d <= f.speed + f.max_range {
                Some(COME)
            } else {
                None
            };
            if let Some(weight) = weight {
                damage += weight * self.incoming(k);
            }
            if let Some(melee) = self.melee
                && d <= self.me.reach
            {
                hold += HOLD * self.value(k, melee, STILL);
            }
            if charges && d >= 2 && d <= self.me.speed {
                for i in 0..self.ranges.len() {
                    let g = self.value(k, i, CHARGING) - self.value(k, i, STILL);
                    gain = gain.max(g);
                }
            }
        }
        self.near = near;
        let (off, target) = best;
        let approach = APPROACH * (1.0 + URGENT_APPROACH * self.urgency);
        let mut score = off - approach * f64::from(approach_cells);
        if normal {
            let threat = self.risk() * damage;
            score -= h.exposure * threat;
            score += hold;
            score += CHARGE_NEXT * gain;
        }
        (score, target)
    }

    /// Cells to go before some enemy is in range of this unit's longest power.
    fn approach_distance(&mut self, cell: Cell) -> u32 {
        let board = self.view.board;
        let view = &*self.view;
        let foes = &self.foes;
        let field = self
            .approach
            .get_or_insert_with(|| view.grid.field(foes.iter().map(|f| f.cell)));
        let d = field[self.view.grid.index(cell)];
        if d == u32::MAX {
            return board.width() + board.height();
        }
        d.saturating_sub(self.max_range)
    }

    /// Attacks from where the unit stands.
    fn attacks(&mut self, best: &mut Best, rng: &mut impl Rng) {
        let mut options: Vec<(f64, Command)> = Vec::new();
        for t in self.enemies() {
            for (i, p) in self.me.powers.clone().iter().enumerate() {
                // Out of range, an attack that includes its approach may still reach.
                let approach = if self.view.in_range(p, self.me.cell, t.cell) {
                    Args::new()
                } else if let Some(options) =
                    self.ruleset
                        .approach(self.view.world, self.me.id, t.id, Some(p.name))
                {
                    options
                } else {
                    continue;
                };
                let v = self.attack_value(&t, i, None);
                // The best of the choices its attacks offer (`wounds`' aim, W-17);
                // `Easy` takes each option's default, as a novice does.
                let chosen = if self.policy == AiPolicy::Easy {
                    Args::new()
                } else {
                    crate::engine::options::best_options(
                        self.ruleset,
                        self.view.world,
                        self.me.id,
                        t.id,
                        Some(p.name),
                    )
                };
                options.push((
                    v,
                    Command::Attack {
                        unit: self.me.id,
                        target: t.id,
                        power: Some(p.name.to_owned()),
                        options: chosen.and(approach),
                    },
                ));
            }
        }
        options.sort_by(|a, b| b.0.total_cmp(&a.0));
        // `Easy` doesn't pick its target: any attack it can make, at random, first.
        if self.policy == AiPolicy::Easy && !options.is_empty() {
            let i = rng.random_range(0..options.len());
            options[..=i].rotate_right(1);
        }
        // The best legal one (an attack may be forbidden, e.g. after Run).
        for (v, c) in options {
            if self.view.battle.check(&c).is_ok() {
                best.offer(v, c, self.view.battle, rng);
                return;
            }
        }
    }

    /// Healing draughts when hurt, attacking items like an attack, Cleanse when the
    /// ruleset says it would remove something that hinders the unit.
    fn items(&mut self, best: &mut Best, rng: &mut impl Rng) {
        let world = self.view.world;
        let entity = crate::engine::battle::entity(world, self.me.id);
        let Some(items) = world.get::<Items>(entity).cloned() else {
            return;
        };
        let cleanse = self.ruleset.cleanse_worth(world, self.me.id);
        for item in items.0.iter().filter(|i| i.uses > 0) {
            let unit = self.me.id;
            match &item.effect {
                ItemEffect::Heal(expr) => {
                    let mean = expr.parse::<DiceExpr>().map_or(0.0, |e| e.mean());
                    let missing = f64::from(self.me.max_hp - self.me.hp);
                    if self.me.wounded() >= 0.5 {
                        let v = mean.min(missing) * (0.4 + self.me.wounded());
                        let c = Command::ActivateItem {
                            unit,
                            item: item.name.clone(),
                            target: None,
                        };
                        best.offer(v, c, self.view.battle, rng);
                    }
                }
                ItemEffect::Power(p) => {
                    let mean = p.damage.parse::<DiceExpr>().map_or(0.0, |e| e.mean());
                    for t in self.enemies() {
                        let d = self.view.board.distance(self.me.cell, t.cell);
                        if d > p.range
                            || (p.ranged && !self.view.board.line_of_sight(self.me.cell, t.cell))
                        {
                            continue;
                        }
                        // The hit chance of the unit's own first power stands in for the
                        // item's (the preview only knows powers).
                        let chance = self.view.odds(unit, t.id, 0).map_or(0.5, |o| o.chance);
                        let kill = if mean >= f64::from(t.hp) {
                            chance * 0.5
                        } else {
                            0.0
                        };
                        let worth = self.worth(t.id);
                        let v = chance * mean + kill * worth;
                        let c = Command::ActivateItem {
                            unit,
                            item: item.name.clone(),
                            target: Some(t.id),
                        };
                        best.offer(v, c, self.view.battle, rng);
                    }
                }
                ItemEffect::Cleanse => {
                    if cleanse {
                        let c = Command::ActivateItem {
                            unit,
                            item: item.name.clone(),
                            target: None,
                        };
                        best.offer(1.0, c, self.view.battle, rng);
                    }
                }
            }
        }
    }

    /// The ruleset's healing action (`escalation`'s Rally, E-43), weighed like a
    /// healing draught: only when hurt to half or below.
    fn recover(&mut self, best: &mut Best, rng: &mut impl Rng) {
        if self.me.wounded() < 0.5 {
            return;
        }
        let Some((c, mean)) = self.ruleset.recovery_action(self.view.world, self.me.id) else {
            return;
        };
        let missing = f64::from(self.me.max_hp - self.me.hp);
        let v = mean.min(missing) * (0.4 + self.me.wounded());
        best.offer(v, c, self.view.battle, rng);
    }

    /// The ruleset's guard action (`phases`' Defend, P-27): attacks against the unit
    /// are at a disadvantage, worth a fifth of the damage the enemies in range now
    /// could deal (an attack usually beats it).
    fn defend(&mut self, best: &mut Best, rng: &mut impl Rng) {
        let Some(c) = self.ruleset.guard_action(self.view.world, self.me.id) else {
            return;
        };
        if self.view.battle.check(&c).is_err() {
            return;
        }
        let v = 0.2 * self.threat_at(self.me.cell, true);
        best.offer(v, c, self.view.battle, rng);
    }

    /// The ruleset's defensive action (`flow`'s Total Defense, F-40): ends the turn
    /// in a defensive stance; better than ending the turn with nothing done when
    /// enemies can attack the unit before its next turn.
    fn total_defense(&mut self, best: &mut Best, rng: &mut impl Rng) {
        let Some(c) = self.ruleset.defensive_action(self.view.world, self.me.id) else {
            return;
        };
        let threat = self.threat_at(self.me.cell, false);
        if threat <= 0.0 {
            return;
        }
        best.offer(0.25 * threat, c, self.view.battle, rng);
    }

    /// The ruleset's opening action (`flow`'s Feint, F-34): when it wins, the next
    /// attack on its target goes off with the odds of a won feint. The ruleset offers
    /// it only when it costs no attack this turn; then it is worth the best attack
    /// on a target in reach plus its exact chance (from the ruleset) times what the
    /// better odds add to that attack.
    fn feint(&mut self, best: &mut Best, rng: &mut impl Rng) {
        let battle = self.view.battle;
        for t in self.enemies() {
            let Some(command) = self
                .ruleset
                .opening_action(self.view.world, self.me.id, t.id)
            else {
                continue;
            };
            // The best attack on `t` from here, plain and after a won opening.
            let mut pick: Option<(f64, f64)> = None;
            for (i, p) in self.me.powers.clone().iter().enumerate() {
                if !self.view.in_range(p, self.me.cell, t.cell) {
                    continue;
                }
                let (Some(plain), Some(opened)) = (
                    self.view.odds(self.me.id, t.id, i),
                    self.view.odds_opened(self.me.id, t.id, i),
                ) else {
                    continue;
                };
                let (v, adv) = (self.value_of(&t, plain), self.value_of(&t, opened));
                if pick.is_none_or(|(b, _)| v > b) {
                    pick = Some((v, adv));
                }
            }
            // Nothing to attack after it: no need to ask the ruleset.
            let Some((v, adv)) = pick else { continue };
            if battle.check(&command).is_err() {
                continue;
            }
            let Some(chance) = battle.action_chance(&command) else {
                continue;
            };
            if chance * (adv - v) > FEINT_MIN_GAIN {
                best.offer(v + chance * (adv - v), command, battle, rng);
            }
        }
    }

    /// Disengage (a battle action) for a badly hurt unit that is threatened.
    fn disengage(&mut self, best: &mut Best, rng: &mut impl Rng) {
        if self.me.wounded() < 0.6 {
            return;
        }
        let here = self.threat_at(self.me.cell, true);
        if here <= 0.0 {
            return;
        }
        let Some((tree, powers)) = moves::options(
            self.view.battle,
            &self.view.grid,
            (self.me.side, self.me.id, self.me.cell),
            &[None],
        ) else {
            return;
        };
        let Some(power) = powers.into_iter().next() else {
            return;
        };
        let mut pick: Option<(f64, Cell)> = None;
        // Only foes near the tree can threaten its cells (`Normal` only: `matters`
        // covers the foes' speed plus range).
        self.near_tree(&tree, 0);
        for &c in &tree.ends {
            if tree.cost(c).is_none_or(|k| k > power.budget) {
                continue;
            }
            let gain = here - self.threat_at(c, true);
            if pick.is_none_or(|(g, _)| gain > g) {
                pick = Some((gain, c));
            }
        }
        self.near = None;
        if let Some((gain, c)) = pick
            && let Some(command) =
                moves::command(self.ruleset, self.me.id, &power, tree.path(c), None)
        {
            // Giving up this turn's attack and weakening the next ones.
            let v = gain - 2.0;
            best.offer(v, command, self.view.battle, rng);
        }
    }

    /// Movement powers: the best cell of the cost tree against staying put.
    fn movement(&mut self, best: &mut Best, rng: &mut impl Rng) {
        let world = self.view.world;
        let names: Vec<Option<String>> = world
            .get::<MovementPowers>(crate::engine::battle::entity(world, self.me.id))
            .map(|m| m.0.iter().cloned().map(Some).collect())
            .unwrap_or_default();
        if names.is_empty() {
            return;
        }
        let Some((tree, mut powers)) = moves::options(
            self.view.battle,
            &self.view.grid,
            (self.me.side, self.me.id, self.me.cell),
            &names,
        ) else {
            return;
        };
        // Cheapest first: the least powerful power that reaches a cell has the fewest
        // drawbacks.
        powers.sort_by_key(|p| (p.budget, p.name.clone()));
        let walkers: Vec<Power> = powers.iter().filter(|p| !p.charge).cloned().collect();
        let charges: Vec<Power> = powers.iter().filter(|p| p.charge).cloned().collect();
        // Every cell scored below is the unit's own or one of the tree's: only the
        // foes near them count (and, for a charge, those next to them).
        let near = self.near_tree(&tree, 1);
        let (here, _) = self.cell_score(self.me.cell, None, Hint::NEUTRAL, true);

        // First pass: cheap scores of every reachable cell.
        let mut scored: Vec<(f64, Cell)> = Vec::new();
        // Each power's budget, value slot and hint, looked up once.
        let mut lookup = |powers: &[Power]| -> Vec<(u32, usize, Hint)> {
            powers
                .iter()
                .map(|p| {
                    let name = p.name.as_deref();
                    (
                        p.budget,
                        self.moved_slot(name),
                        self.ruleset.move_hint(name),
                    )
                })
                .collect()
        };
        let walking = lookup(&walkers);
        let charging = lookup(&charges);
        for &c in &tree.ends {
            let cost = tree.cost(c).unwrap_or(u32::MAX);
            let Some(&(_, slot, h)) = walking.iter().find(|p| p.0 >= cost) else {
                continue;
            };
            let (mut s, _) = self.score_at(c, slot, h, false);
            // A charge that could end here next to an enemy (refined exactly below).
            if let Some(&(_, slot, hc)) = charging.iter().find(|ch| ch.0 >= cost)
                && near
                    .iter()
                    .any(|&k| self.view.board.distance(c, self.foes[k].cell) <= 1)
            {
                s = s.max(self.score_at(c, slot, hc, false).0);
            }
            scored.push((s, c));
        }
        // The best few, best first (cells are unique, so the order is total and
        // selecting then sorting gives what sorting everything would).
        let order = |a: &(f64, Cell), b: &(f64, Cell)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
        if scored.len() > REFINE {
            scored.select_nth_unstable_by(REFINE - 1, order);
            scored.truncate(REFINE);
        }
        scored.sort_by(order);
        // `Easy` doesn't weigh where to stand: one of the best few cells, at random.
        if self.policy == AiPolicy::Easy && !scored.is_empty() {
            let i = rng.random_range(0..scored.len());
            scored.swap(0, i);
            scored.truncate(1);
        }

        // Second pass: exact paths, provocations, line of sight, charges. Safe paths
        // come from one tree that charges for leaving threatened cells.
        let safe = self.normal().then(|| {
            let grid = &self.view.grid;
            let mut leave = vec![0_u32; grid.len()];
            for e in &self.foes {
                for c in self.view.board.within(e.cell, e.reach) {
                    leave[grid.index(c)] += 1;
                }
            }
            // Only the paths to the candidates are needed.
            let targets: Vec<Cell> = scored.iter().map(|&(_, c)| c).collect();
            Tree::build_for(
                grid,
                self.me.cell,
                (self.me.side, self.me.id),
                Some(&leave),
                &targets,
            )
        });
        for (_, c) in scored {
            if let Some((v, cmd)) = self.refine(&tree, safe.as_ref(), &walkers, &charges, c) {
                best.offer(v - here, cmd, self.view.battle, rng);
            }
        }
        self.near = None;
    }

    /// The best way to get to `cell` and what it is worth.
    fn refine(
        &mut self,
        tree: &Tree,
        safe: Option<&Tree>,
        walkers: &[Power],
        charges: &[Power],
        cell: Cell,
    ) -> Option<(f64, Command)> {
        let battle = self.view.battle;
        let board = self.view.board;
        let unit = self.me.id;
        let cost = tree.cost(cell)?;
        let cheap = tree.path(cell);
        let mut paths = vec![cheap];
        if let Some(safe) = safe {
            let path = safe.path(cell);
            if !path.is_empty() && path != paths[0] {
                paths.push(path);
            }
        }
        let oa = self.oa_cost();
        let mut best: Option<(f64, Command)> = None;
        let mut tried = BTreeSet::new();
        // The cell's score by hint (most powers share one).
        'powers: for p in walkers.iter().filter(|p| p.budget >= cost) {
            let h = self.ruleset.move_hint(p.name.as_deref());
            let (score, _) = self.cell_score(cell, p.name.as_deref(), h, true);
            for path in &paths {
                if moves::cost_of(board, path) > p.budget
                    || !tried.insert((p.name.clone(), path.clone()))
                {
                    continue;
                }
                let name = p.name.clone().unwrap_or_default();
                let provoked = battle.preview_move(unit, &name, path).provocations;
                let v = score - oa * provoked as f64;
                if best.as_ref().is_none_or(|(b, _)| v > *b)
                    && let Some(cmd) = moves::command(self.ruleset, unit, p, path.clone(), None)
                {
                    best = Some((v, cmd));
                }
                // Powers are tried cheapest first and none beats a neutral one that
                // provokes nothing.
                if provoked == 0 && h.attack >= 1.0 && h.exposure <= 1.0 {
                    break 'powers;
                }
            }
        }
        // A charge that ends next to the enemy it would attack.
        if let Some(p) = charges.first() {
            let h = self.ruleset.move_hint(p.name.as_deref());
            let (score, target) = self.cell_score(cell, p.name.as_deref(), h, true);
            if let Some(t) = target
                && board.distance(cell, self.view.unit(t).cell) <= 1
            {
                let tc = self.view.unit(t).cell;
                if let Some(path) = moves::charge_path(
                    board,
                    &self.view.grid,
                    (self.me.side, unit),
                    self.me.cell,
                    cell,
                    tc,
                ) {
                    let name = p.name.clone().unwrap_or_default();
                    let provoked = battle.preview_move(unit, &name, &path).provocations;
                    let v = score - oa * provoked as f64;
                    if let Some(cmd) = moves::command(self.ruleset, unit, p, path, Some(t))
                        && best.as_ref().is_none_or(|(b, _)| v > *b)
                        && battle.check(&cmd).is_ok()
                    {
                        best = Some((v, cmd));
                    }
                }
            }
        }
        best
    }

    /// What one opportunity attack costs this unit: the mean of what the enemies
    /// near it could deal (0 for `Easy`, which ignores them).
    fn oa_cost(&mut self) -> f64 {
        if !self.normal() {
            return 0.0;
        }
        let near: Vec<UnitId> = self
            .enemies()
            .iter()
            .filter(|e| {
                self.view.board.distance(e.cell, self.me.cell) <= self.me.speed * 2 + e.reach
            })
            .map(|e| e.id)
            .collect();
        if near.is_empty() {
            return 0.0;
        }
        let sum: f64 = near
            .iter()
            .map(|&e| self.view.best_expected(e, self.me.id))
            .sum();
        self.risk() * 1.5 * sum / near.len() as f64
    }
}

/// Answers a pending decision from its options alone, whatever the ruleset and the
/// kind of decision: the options the ruleset's automatic policy takes
/// ([`PendingDecision::auto_pick`]: the best value, or every option worth
/// something when several may be picked), merged into one answer by the ruleset.
/// `Easy` does not plan ahead: it declines a decision whose values are a
/// look-ahead guess (`phases`' seizing the initiative).
pub(crate) fn decide(
    battle: &Battle,
    decision: &PendingDecision,
    policy: AiPolicy,
) -> Option<Command> {
    let greedy = policy == AiPolicy::Easy && decision.lookahead && decision.decline.is_some();
    let picked = if greedy {
        Vec::new()
    } else {
        decision.auto_pick()
    };
    decision.answer(battle.rules(), &picked)
}
