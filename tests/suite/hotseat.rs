//! Hot-seat hand-offs, headless: with two human sides the map stays hidden from the
//! moment the keys must change hands until the next player confirms — between
//! turns and when a reaction interrupts another player's turn — and never with a
//! single human side.

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use skirmish::ai::{AiPolicy, choose};
use skirmish::engine::Battle;
use skirmish::engine::battle::{Awaiting, side_of};
use skirmish::engine::dice::Dice;
use skirmish::engine::rulesets::new_battle;
use skirmish::engine::units::SideId;
use skirmish::hotseat::{HandoffReason, HotSeat};
use skirmish::level::schema::{Controller, DecisionPolicy, Level};

fn level(name: &str, controllers: &[Controller], decisions: DecisionPolicy) -> Level {
    let path = format!("{}/levels/{name}", env!("CARGO_MANIFEST_DIR"));
    let mut level = skirmish::level::load_file(std::path::Path::new(&path)).expect("level loads");
    for (side, c) in level.sides.iter_mut().zip(controllers) {
        side.controller = *c;
        side.decisions = decisions;
    }
    level
}

/// The side the battle waits for.
fn acting(battle: &Battle) -> Option<SideId> {
    match battle.awaiting() {
        Awaiting::Unit(u, _) => Some(side_of(battle.world(), u)),
        Awaiting::Decision(d) => Some(d.side),
        Awaiting::Over(_) => None,
    }
}

/// Plays `level` with both "players" choosing like the normal AI, confirming each
/// hand-off as a player would, and checks the hand-off rules after every command.
/// Returns the hand-offs seen.
fn play(level: &Level, seed: u64) -> Vec<(SideId, HandoffReason)> {
    let mut battle = new_battle(level, Dice::seeded(seed)).expect("battle starts");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seat = HotSeat::new();
    let mut handoffs = Vec::new();
    for _ in 0..2000 {
        seat.update(&battle);
        let Some(side) = acting(&battle) else { break };
        if let Some(h) = seat.pending() {
            assert!(!seat.map_visible(), "the map is hidden during a hand-off");
            assert_eq!(h.side, side, "the hand-off goes to the side that must act");
            // Nothing happens until the player confirms: updating again keeps it.
            seat.update(&battle);
            assert_eq!(seat.pending(), Some(h));
            handoffs.push((h.side, h.reason));
            seat.confirm();
        }
        assert!(seat.map_visible(), "after confirming, the map shows");
        if level.sides[side.0 as usize].controller == Controller::Human {
            assert_eq!(
                seat.at_keys(),
                Some(side),
                "the acting player is at the keys"
            );
        }
        let cmd = choose(&battle, AiPolicy::Normal, &mut rng).expect("a command");
        battle.submit(cmd).expect("legal");
    }
    handoffs
}

#[test]
fn two_human_sides_hand_off_between_turns_with_the_map_hidden() {
    let level = level(
        "ford.ron",
        &[Controller::Human, Controller::Human],
        DecisionPolicy::Never,
    );
    let handoffs = play(&level, 3);
    assert!(
        handoffs.len() >= 4,
        "a whole battle has several hand-offs: {handoffs:?}"
    );
    assert!(handoffs.iter().all(|(_, r)| *r == HandoffReason::Turn));
    let sides: std::collections::BTreeSet<u32> = handoffs.iter().map(|(s, _)| s.0).collect();
    assert_eq!(sides.len(), 2, "both players get the keys");
    for w in handoffs.windows(2) {
        assert_ne!(w[0].0, w[1].0, "a hand-off always changes the player");
    }
}

#[test]
fn a_reaction_during_another_players_turn_gets_its_own_handoff() {
    let level = level(
        "flow_ogre_ford.ron",
        &[Controller::Human, Controller::Human],
        DecisionPolicy::Ask,
    );
    let found = (1..=6).any(|seed| {
        play(&level, seed)
            .iter()
            .any(|(_, r)| *r == HandoffReason::Decision)
    });
    assert!(
        found,
        "some battle asks a player to react during the other's turn"
    );
}

#[test]
fn automatic_reactions_do_not_hand_off_mid_turn() {
    let level = level(
        "flow_ogre_ford.ron",
        &[Controller::Human, Controller::Human],
        DecisionPolicy::Auto,
    );
    for seed in 1..=3 {
        let handoffs = play(&level, seed);
        assert!(!handoffs.is_empty());
        assert!(
            handoffs.iter().all(|(_, r)| *r == HandoffReason::Turn),
            "with automatic reactions nobody is asked mid-turn: {handoffs:?}"
        );
    }
}

#[test]
fn one_human_side_never_hands_off() {
    let level = level(
        "ford.ron",
        &[Controller::Human, Controller::Ai(AiPolicy::Normal)],
        DecisionPolicy::Ask,
    );
    assert!(play(&level, 5).is_empty());
    let mut seat = HotSeat::new();
    let battle = new_battle(&level, Dice::seeded(5)).unwrap();
    seat.update(&battle);
    assert!(seat.map_visible());
}
