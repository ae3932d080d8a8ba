//! Threat at a glance: where the enemies of a side can strike on their next turn,
//! for the battle screen's threat overlay and an enemy's reach on hover.
//!
//! An enemy *reaches* a cell when it can move there this turn: the cheapest path
//! over the terrain from its cell costs at most its speed (the ruleset's speed
//! stat, as the AI reads it). Other units are ignored, since they may move before it
//! does. It *threatens* a cell within the range of one of its attack powers from a
//! cell it reaches (ranged powers need line of sight from there). The expected
//! damage at a cell is, over the enemies that threaten it, the most each can expect
//! to deal one unit (the one the player is about to move) in one attack, from the
//! ruleset's exact odds; summed, since every one of them may attack.
//!
//! Ruleset-neutral: it reads the same snapshot as the AI ([`super::view`]) and the
//! ruleset's odds through [`Battle::attack_odds`].

use std::collections::BTreeMap;

use super::view::View;
use crate::engine::battle::Battle;
use crate::engine::board::Cell;
use crate::engine::units::{SideId, UnitId};

/// How a cell is threatened.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Threat {
    /// Enemies that can attack the cell on their next turn.
    pub enemies: u32,
    /// The damage they can expect to deal the unit in question there, all together
    /// (0 when no unit was given).
    pub expected: f64,
}

/// One enemy's reach: the cells it can move to this turn and those it can attack
/// from them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// Cells it can move to (its own included).
    pub moves: Vec<Cell>,
    /// Cells one of its attack powers can hit from a cell it can move to.
    pub strikes: Vec<Cell>,
}

/// The reach of `unit` (see the module docs); empty when it is out of play.
pub fn reach(battle: &Battle, unit: UnitId) -> Reach {
    let view = View::new(battle);
    match view.units.get(unit.0 as usize) {
        Some(u) if u.active => reach_in(&view, unit),
        _ => Reach::default(),
    }
}

/// Every cell some enemy of `side` can attack on its next turn, with how many can
/// and what they can expect to deal `victim` there (see the module docs). Cells no
/// enemy threatens are left out.
pub fn map(battle: &Battle, side: SideId, victim: Option<UnitId>) -> BTreeMap<Cell, Threat> {
    let mut view = View::new(battle);
    let enemies: Vec<UnitId> = view.enemies(side).map(|u| u.id).collect();
    let mut threats: BTreeMap<Cell, Threat> = BTreeMap::new();
    for enemy in enemies {
        let expected = victim.map_or(0.0, |v| view.best_expected(enemy, v));
        for cell in reach_in(&view, enemy).strikes {
            let t = threats.entry(cell).or_default();
            t.enemies += 1;
            t.expected += expected;
        }
    }
    threats
}

/// The reach of `unit`, an active unit of `view`.
fn reach_in(view: &View<'_>, unit: UnitId) -> Reach {
    let u = view.unit(unit);
    let cost = view.grid.field(std::iter::once(u.cell));
    let moves: Vec<Cell> = view
        .board
        .cells()
        .filter(|&c| cost[view.grid.index(c)] <= u.speed)
        .collect();
    let strikes = view
        .board
        .cells()
        .filter(|&target| {
            moves.iter().any(|&from| {
                u.powers
                    .iter()
                    .any(|p| from != target && view.in_range(p, from, target))
            })
        })
        .collect();
    Reach { moves, strikes }
}
