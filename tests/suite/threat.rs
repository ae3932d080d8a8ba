//! The threat overlay's figures ([`skirmish::ai::threat`]): where an enemy can
//! strike on its next turn, and what it can expect to deal there.

use skirmish::ai::threat;
use skirmish::engine::ruleset::Assume;

use super::common::*;

/// A battle of `level` with seeded dice (what the threat is doesn't depend on them).
fn seeded(level: &skirmish::level::schema::Level) -> skirmish::engine::Battle {
    skirmish::engine::rulesets::new_battle(level, skirmish::engine::dice::Dice::seeded(7)).unwrap()
}

/// A goblin with Speed 3 and a melee power (range 1) on an open row threatens
/// exactly the cells within 4 of it; a wall in its way shortens its reach.
#[test]
fn an_enemy_threatens_what_it_can_reach_and_strike_next_turn() {
    let mut goblin = unit("Goblin", "Red", (9, 2), 1, 1, 2, 11);
    goblin.stats.insert("Speed".into(), 3);
    let knight = unit("Knight", "Blue", (0, 2), 1, 1, 2, 11);
    let open = level((12, 5), &[], vec![knight.clone(), goblin.clone()]);
    let b = seeded(&open);
    let (k, g) = (id(&b, "Knight"), id(&b, "Goblin"));
    let blue = b.side_id("Blue").unwrap();
    let map = threat::map(&b, blue, Some(k));
    assert!(map.contains_key(&c(5, 2)), "3 steps then a blow reach x=5");
    assert!(!map.contains_key(&c(4, 2)), "x=4 is 5 away: out of reach");
    // What it can expect to deal the knight: the ruleset's exact odds.
    let expected = b
        .attack_odds(g, k, None, Assume::default())
        .unwrap()
        .expected_damage;
    let t = map[&c(5, 2)];
    assert_eq!(t.enemies, 1);
    assert!((t.expected - expected).abs() < 1e-9 && expected > 0.0);
    // Without a unit to weigh, only the count.
    assert_eq!(threat::map(&b, blue, None)[&c(5, 2)].expected, 0.0);
    // Its own reach: the cells it can move to, and strike beyond them.
    let reach = threat::reach(&b, g);
    assert!(reach.moves.contains(&c(6, 2)) && !reach.moves.contains(&c(5, 2)));
    assert!(reach.strikes.contains(&c(5, 2)));

    // A wall across the map but for a gap at the far end: the goblin must go round,
    // further than it can go in a turn.
    let mut rows = vec![".......#...."; 8];
    rows.push("............");
    let walled = level((12, 9), &rows, vec![knight, goblin]);
    let b = seeded(&walled);
    let map = threat::map(&b, b.side_id("Blue").unwrap(), None);
    assert!(!map.contains_key(&c(5, 2)), "the wall is in the way");
    assert!(map.contains_key(&c(8, 2)), "next to it, still");
    assert!(!map.contains_key(&c(6, 2)), "nor across the wall");
}

/// Two enemies that can both reach a cell count twice there.
#[test]
fn cells_two_enemies_reach_count_both() {
    let mut a = unit("Goblin A", "Red", (6, 0), 1, 1, 2, 11);
    let mut z = unit("Goblin B", "Red", (6, 4), 1, 1, 2, 11);
    a.stats.insert("Speed".into(), 2);
    z.stats.insert("Speed".into(), 2);
    let knight = unit("Knight", "Blue", (0, 2), 1, 1, 2, 11);
    let b = seeded(&level((10, 5), &[], vec![knight, a, z]));
    let k = id(&b, "Knight");
    let map = threat::map(&b, b.side_id("Blue").unwrap(), Some(k));
    assert_eq!(map[&c(6, 2)].enemies, 2);
    assert_eq!(
        map[&c(6, 0)].enemies,
        1,
        "B can't come within 1 of A's cell"
    );
    let one = map[&c(6, 0)].expected;
    assert!((map[&c(6, 2)].expected - 2.0 * one).abs() < 1e-9);
}
