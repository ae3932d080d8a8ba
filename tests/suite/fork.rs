//! `Battle::fork` and `Battle::restore_from` (the `hard` AI's look-ahead): on every
//! shipped level, part-way through a battle, a fork holds the same component and
//! resource types as its source, plays on exactly as the source does under the same
//! dice and commands, and leaves the source untouched.

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use skirmish::ai::sim::ai_level;
use skirmish::ai::{AiPolicy, choose};
use skirmish::engine::Battle;
use skirmish::engine::dice::Dice;
use skirmish::engine::fork::type_names;
use skirmish::engine::rulesets::new_battle;
use skirmish::level::schema::Level;
use std::collections::BTreeMap;

use crate::ai::levels;

/// A battle of `level` between two `normal` AIs after `commands` commands.
fn battle_after(level: &Level, seed: u64, commands: usize) -> Battle {
    let level = ai_level(level, &[AiPolicy::Normal, AiPolicy::Normal]);
    let mut battle = new_battle(&level, Dice::seeded(seed)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..commands {
        let Some(c) = choose(&battle, AiPolicy::Normal, &mut rng) else {
            break;
        };
        battle.submit(c).unwrap();
    }
    battle
}

/// Plays `n` commands of `normal` with a generator seeded `seed`.
fn play(battle: &mut Battle, seed: u64, n: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..n {
        let Some(c) = choose(battle, AiPolicy::Normal, &mut rng) else {
            break;
        };
        battle.submit(c).unwrap();
    }
}

#[test]
fn a_fork_plays_on_as_its_source_does() {
    for level in levels() {
        for (seed, at) in [(1, 25), (2, 70)] {
            let mut source = battle_after(&level, seed, at);
            let events = source.events().len();
            let mut fork = source.fork(Dice::seeded(77));
            assert_eq!(
                type_names(fork.world()),
                type_names(source.world()),
                "{}: a fork must hold every component and resource type of its source",
                level.name
            );
            assert_eq!(fork.commands(), source.commands());
            assert_eq!(fork.awaiting(), source.awaiting());
            // Playing the fork doesn't touch the source.
            play(&mut fork, 5, 60);
            assert_eq!(source.events().len(), events, "{}", level.name);
            // The source under the fork's new dice and commands plays the same.
            let mut again = source.fork(Dice::seeded(77));
            source.set_dice(Dice::seeded(77));
            play(&mut source, 5, 60);
            play(&mut again, 5, 60);
            assert_eq!(source.events(), fork.events(), "{}", level.name);
            assert_eq!(again.events(), fork.events(), "{}", level.name);
            assert_eq!(source.units(), fork.units(), "{}", level.name);
            assert_eq!(type_names(fork.world()), type_names(source.world()));
        }
    }
}

#[test]
fn restore_from_reuses_a_battle_of_the_same_ruleset_and_replaces_another() {
    let all = levels();
    let mut scratch: Option<Battle> = None;
    for level in all.iter().chain(all.iter().rev()) {
        let source = battle_after(level, 3, 40);
        let scratch = match &mut scratch {
            Some(s) => {
                s.restore_from(&source, Dice::seeded(9));
                s
            }
            None => scratch.insert(source.fork(Dice::seeded(9))),
        };
        assert_eq!(scratch.ruleset(), source.ruleset());
        assert_eq!(type_names(scratch.world()), type_names(source.world()));
        let mut fresh = source.fork(Dice::seeded(9));
        play(scratch, 4, 40);
        play(&mut fresh, 4, 40);
        assert_eq!(scratch.events(), fresh.events(), "{}", level.name);
    }
}

/// Says where `battle`'s cell index (`Occupants`) and its units' `Position`s differ.
fn index_mismatch(battle: &Battle) -> Option<String> {
    use bevy_ecs::entity::Entity;
    use skirmish::engine::board::Cell;
    use skirmish::engine::units::{Occupants, Position};
    let world = battle.world();
    let mut placed: BTreeMap<Cell, Vec<Entity>> = BTreeMap::new();
    if let Some(mut q) = world.try_query::<(Entity, &Position)>() {
        for (e, p) in q.iter(world) {
            placed.entry(p.0).or_default().push(e);
        }
    }
    let mut indexed: BTreeMap<Cell, Vec<Entity>> = world
        .resource::<Occupants>()
        .iter()
        .map(|(c, es)| (c, es.to_vec()))
        .collect();
    for list in placed.values_mut().chain(indexed.values_mut()) {
        list.sort();
    }
    (placed != indexed).then(|| format!("positions {placed:?}\nindex {indexed:?}"))
}

/// The cell index the rules ask "who stands here" (`Occupants`, kept by
/// `Position`'s hooks) lists every unit on its cell and nowhere else: from the
/// start, as units move, fall and are removed, in a fork as it plays on, and in a
/// scratch copy restored from a battle again.
#[test]
fn the_cell_index_follows_every_unit() {
    for level in levels() {
        let mut battle = battle_after(&level, 3, 0);
        let mut moved = 0;
        for round in 0..8 {
            let before = battle.events().len();
            play(&mut battle, round, 25);
            moved += battle.events()[before..]
                .iter()
                .filter(|e| matches!(e, skirmish::engine::event::Event::Moved { .. }))
                .count();
            if let Some(m) = index_mismatch(&battle) {
                panic!(
                    "{} after {} commands:\n{m}",
                    level.name,
                    battle.commands().len()
                );
            }
        }
        assert!(moved > 0, "{}: the battle must move someone", level.name);
        let mut fork = battle.fork(Dice::seeded(9));
        assert_eq!(index_mismatch(&fork), None, "{}: a fork", level.name);
        play(&mut fork, 11, 60);
        assert_eq!(
            index_mismatch(&fork),
            None,
            "{}: a fork played on",
            level.name
        );
        assert_eq!(index_mismatch(&battle), None, "{}: its source", level.name);
        fork.restore_from(&battle, Dice::seeded(10));
        assert_eq!(index_mismatch(&fork), None, "{}: restored", level.name);
    }
}
