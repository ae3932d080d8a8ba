//! Per-unit figures of battles, read from the neutral record every ruleset emits
//! (the core events [`Event::AttackResolved`], [`Event::Damaged`] and
//! [`Event::Defeated`]; nothing here reads narration): attacks made and landed
//! against the odds the engine promised, damage dealt and taken, kills, survival
//! and the round a unit left play. [`Tally`] collects one battle; [`unit_figures`]
//! aggregates many (in any split: tallies of shards add up to the full run's).

use serde::{Deserialize, Serialize};

use crate::engine::event::Event;
use crate::engine::units::PlayState;

/// One unit's figures in one battle.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct UnitTally {
    /// Attacks it made ([`Event::AttackResolved`] with it as the attacker).
    pub attacks: u32,
    /// Those that landed (a partial, plain or critical hit).
    pub hits: u32,
    /// Attacks that came with the engine's odds.
    pub foreseen: u32,
    /// The sum of their predicted chances to land.
    pub predicted_hits: f64,
    /// Damage it dealt to other units (the `amount` of every [`Event::Damaged`]
    /// whose `source` it is, harm to itself left out).
    pub damage_dealt: i64,
    /// Damage it took (every [`Event::Damaged`] of it, whoever dealt it).
    pub damage_taken: i64,
    /// Units it took out of play ([`Event::Defeated`] naming it as `by`, itself
    /// left out).
    pub kills: u32,
    /// The round it last left play (`None`: it was in play at the end).
    pub defeated_in: Option<u32>,
}

/// Tallies a battle's events, in order, unit by unit (units by roster index).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    units: Vec<UnitTally>,
    round: u32,
}

impl Tally {
    /// A tally of a battle with `units` units.
    pub fn new(units: usize) -> Self {
        Self {
            units: vec![UnitTally::default(); units],
            round: 0,
        }
    }

    fn unit(&mut self, unit: crate::engine::units::UnitId) -> Option<&mut UnitTally> {
        self.units.get_mut(unit.0 as usize)
    }

    /// Adds events (in the order the battle emitted them).
    pub fn add(&mut self, events: &[Event]) {
        for e in events {
            match e {
                Event::RoundStarted { round } => self.round = *round,
                Event::AttackResolved {
                    attacker,
                    outcome,
                    odds,
                    ..
                } => {
                    if let Some(t) = self.unit(*attacker) {
                        t.attacks += 1;
                        t.hits += u32::from(outcome.landed());
                        if let Some(o) = odds {
                            t.foreseen += 1;
                            t.predicted_hits += o.hit;
                        }
                    }
                }
                Event::Damaged {
                    unit,
                    amount,
                    source,
                    ..
                } => {
                    let amount = i64::from(*amount);
                    if let Some(t) = self.unit(*unit) {
                        t.damage_taken += amount;
                    }
                    if let Some(s) = source.filter(|s| s != unit)
                        && let Some(t) = self.unit(s)
                    {
                        t.damage_dealt += amount;
                    }
                }
                Event::Defeated {
                    unit, state, by, ..
                } => {
                    let round = self.round;
                    let back = *state == PlayState::Active;
                    if let Some(t) = self.unit(*unit) {
                        t.defeated_in = if back { None } else { Some(round) };
                    }
                    if !back
                        && let Some(b) = by.filter(|b| b != unit)
                        && let Some(t) = self.unit(b)
                    {
                        t.kills += 1;
                    }
                }
                _ => {}
            }
        }
    }

    /// The figures of each unit, by roster index.
    pub fn finish(self) -> Vec<UnitTally> {
        self.units
    }
}

/// The figures of one unit over a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnitFigures {
    /// The unit's name.
    pub name: String,
    /// Its side's name.
    pub side: String,
    /// Mean attacks made per battle.
    pub attacks: f64,
    /// Share of its attacks that landed (`None`: it made none).
    pub hit_rate: Option<f64>,
    /// The mean chance to land the engine predicted for its attacks (`None`: none
    /// came with odds).
    pub predicted_hit: Option<f64>,
    /// Mean damage dealt per battle.
    pub damage_dealt: f64,
    /// Mean damage taken per battle.
    pub damage_taken: f64,
    /// Mean kills per battle.
    pub kills: f64,
    /// Share of battles it was still in play at the end.
    pub survival: f64,
    /// The mean round it left play in, over the battles it did (`None`: it never
    /// did).
    pub mean_defeat_round: Option<f64>,
}

/// Aggregates each battle's unit tallies (`battles[b][u]`: unit `u` of battle `b`)
/// into each unit's figures, named by `units` (name, side name) in roster order.
pub fn unit_figures(units: &[(String, String)], battles: &[&[UnitTally]]) -> Vec<UnitFigures> {
    let n = battles.len().max(1) as f64;
    units
        .iter()
        .enumerate()
        .map(|(i, (name, side))| {
            let mut sum = UnitTally::default();
            let (mut defeats, mut defeat_rounds) = (0_u32, 0_u64);
            for b in battles {
                let Some(t) = b.get(i) else { continue };
                sum.attacks += t.attacks;
                sum.hits += t.hits;
                sum.foreseen += t.foreseen;
                sum.predicted_hits += t.predicted_hits;
                sum.damage_dealt += t.damage_dealt;
                sum.damage_taken += t.damage_taken;
                sum.kills += t.kills;
                if let Some(r) = t.defeated_in {
                    defeats += 1;
                    defeat_rounds += u64::from(r);
                }
            }
            let ratio = |a: f64, b: u32| (b > 0).then(|| a / f64::from(b));
            UnitFigures {
                name: name.clone(),
                side: side.clone(),
                attacks: f64::from(sum.attacks) / n,
                hit_rate: ratio(f64::from(sum.hits), sum.attacks),
                predicted_hit: ratio(sum.predicted_hits, sum.foreseen),
                damage_dealt: sum.damage_dealt as f64 / n,
                damage_taken: sum.damage_taken as f64 / n,
                kills: f64::from(sum.kills) / n,
                survival: (battles.len() as f64 - f64::from(defeats)) / n,
                mean_defeat_round: ratio(defeat_rounds as f64, defeats),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::event::{AttackOutcome, Foreseen, LeaveCause};
    use crate::engine::units::UnitId;

    fn attack(attacker: u32, outcome: AttackOutcome, hit: f64) -> Event {
        Event::AttackResolved {
            attacker: UnitId(attacker),
            target: UnitId(1 - attacker),
            power: "Sword".into(),
            outcome,
            damage: 0,
            odds: Some(Foreseen {
                hit,
                crit: 0.05,
                expected_damage: 3.0,
            }),
        }
    }

    fn damaged(unit: u32, amount: i32, source: Option<u32>) -> Event {
        Event::Damaged {
            unit: UnitId(unit),
            faces: vec![],
            amount,
            hp: 0,
            source: source.map(UnitId),
        }
    }

    #[test]
    fn a_battle_tallies_attacks_damage_kills_and_the_round_of_defeat() {
        let mut t = Tally::new(2);
        t.add(&[
            Event::RoundStarted { round: 1 },
            attack(0, AttackOutcome::Hit, 0.5),
            damaged(1, 4, Some(0)),
            attack(1, AttackOutcome::CriticalFailure, 0.25),
            // Self-harm is taken, not dealt.
            damaged(1, 2, Some(1)),
            Event::RoundStarted { round: 2 },
            attack(0, AttackOutcome::Partial, 0.75),
            damaged(1, 3, Some(0)),
            Event::Defeated {
                unit: UnitId(1),
                state: PlayState::Down,
                cause: Some(LeaveCause::Damage),
                by: Some(UnitId(0)),
            },
        ]);
        let units = t.finish();
        assert_eq!(units[0].attacks, 2);
        assert_eq!(units[0].hits, 2);
        assert_eq!(units[0].predicted_hits, 1.25);
        assert_eq!((units[0].damage_dealt, units[0].damage_taken), (7, 0));
        assert_eq!((units[1].damage_dealt, units[1].damage_taken), (0, 9));
        assert_eq!((units[0].kills, units[1].kills), (1, 0));
        assert_eq!(
            (units[0].defeated_in, units[1].defeated_in),
            (None, Some(2))
        );
        assert_eq!(units[1].hits, 0);
    }

    #[test]
    fn figures_are_means_over_battles_and_rates_over_attacks() {
        let a = [
            UnitTally {
                attacks: 3,
                hits: 1,
                foreseen: 3,
                predicted_hits: 1.5,
                damage_dealt: 6,
                kills: 1,
                ..Default::default()
            },
            UnitTally {
                defeated_in: Some(3),
                ..Default::default()
            },
        ];
        let b = [
            UnitTally {
                attacks: 1,
                hits: 1,
                foreseen: 1,
                predicted_hits: 0.5,
                defeated_in: Some(4),
                ..Default::default()
            },
            UnitTally {
                defeated_in: Some(5),
                ..Default::default()
            },
        ];
        let names = [
            ("Knight".into(), "Blue".into()),
            ("Orc".into(), "Red".into()),
        ];
        let f = unit_figures(&names, &[&a, &b]);
        assert_eq!(f[0].attacks, 2.0);
        assert_eq!(f[0].hit_rate, Some(0.5));
        assert_eq!(f[0].predicted_hit, Some(0.5));
        assert_eq!((f[0].damage_dealt, f[0].kills), (3.0, 0.5));
        assert_eq!((f[0].survival, f[0].mean_defeat_round), (0.5, Some(4.0)));
        assert_eq!((f[1].survival, f[1].mean_defeat_round), (0.0, Some(4.0)));
        assert_eq!((f[1].hit_rate, f[1].predicted_hit), (None, None));
    }
}
