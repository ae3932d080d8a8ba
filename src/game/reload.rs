//! Hot reload: while a level is played, saving its RON file (from any text editor,
//! or the level editor) restarts the battle on the new version. Who plays each side
//! and the sides' decision policies, as chosen in the pre-battle menu, carry over
//! by side name. A save with problems keeps the old battle running and says where
//! the problem is.

use bevy::prelude::*;

use super::Game;
use super::choices::UiState;
use super::screen::Screen;
use crate::editor::LevelWatcher;
use crate::level::Level;

/// How often the level file is looked at, in seconds.
const POLL_EVERY: f32 = 0.5;

/// The watcher of the played level's file.
#[derive(Resource, Default)]
pub struct Reload {
    watcher: Option<LevelWatcher>,
    /// The game generation the watcher was made for.
    generation: u64,
    wait: f32,
}

/// The battle on a reloaded `level`: the same seed, and the running game's side
/// controllers and decision policies for sides that keep their names.
pub fn reloaded(old: &Game, mut level: Level) -> Result<Game, String> {
    for side in &mut level.sides {
        if let Some(before) = old.level.sides.iter().find(|s| s.name == side.name) {
            side.controller = before.controller;
            side.decisions = before.decisions;
        }
    }
    Ok(Game::new(level, old.seed)?.with_path(old.path.clone()))
}

fn poll(
    mut game: ResMut<Game>,
    mut reload: ResMut<Reload>,
    mut ui: ResMut<UiState>,
    time: Res<Time>,
    options: Option<Res<super::Options>>,
) {
    // `play --ruleset`: the new version plays under that ruleset too.
    let ruleset = options.and_then(|o| o.0.ruleset.clone());
    if reload.generation != game.generation() || reload.watcher.is_none() {
        reload.generation = game.generation();
        reload.watcher = game.path.clone().map(LevelWatcher::new);
    }
    reload.wait -= time.delta_secs();
    if reload.wait > 0.0 {
        return;
    }
    reload.wait = POLL_EVERY;
    let Some(watcher) = &mut reload.watcher else {
        return;
    };
    let file = watcher.path().display().to_string();
    match watcher.poll() {
        None => {}
        Some(Ok(level)) => match crate::level::load::with_ruleset(level, ruleset.as_deref())
            .and_then(|level| reloaded(&game, level))
        {
            Ok(new) => {
                info!("{file} changed: the battle restarted on it");
                *game = new;
                *ui = UiState {
                    message: Some((format!("{file} changed: the battle restarted on it"), false)),
                    ..default()
                };
                // The new game has a new generation: keep watching the same file.
                let generation = game.generation();
                reload.generation = generation;
            }
            Err(e) => ui.message = Some((format!("{file} changed but can't be played: {e}"), true)),
        },
        Some(Err(problems)) => {
            let first = problems.first().map(|p| p.to_string()).unwrap_or_default();
            let more = match problems.len() {
                0 | 1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            };
            warn!("{file} changed but has problems: {first}{more}");
            ui.message = Some((
                format!("Still playing the old version: {first}{more}"),
                true,
            ));
        }
    }
}

/// Registers hot reload.
pub fn plugin(app: &mut App) {
    app.init_resource::<Reload>();
    app.add_systems(
        Update,
        poll.run_if(in_state(Screen::Battle))
            .run_if(resource_exists::<Game>),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::battle::Map;
    use crate::engine::board::{Cell, Terrain};
    use crate::level::schema::{AiPolicy, Controller, DecisionPolicy};

    fn ford() -> Level {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/levels/ford.ron");
        crate::level::load_file(std::path::Path::new(path)).expect("ford loads")
    }

    #[test]
    fn a_reload_plays_the_new_file_with_the_menu_choices_kept() {
        let mut chosen = ford();
        chosen.sides[0].controller = Controller::Ai(AiPolicy::Easy);
        chosen.sides[1].decisions = DecisionPolicy::Never;
        let old = Game::new(chosen, 9)
            .unwrap()
            .with_path(Some("levels/ford.ron".into()));
        // The file on disk: different terrain, the level's own controllers.
        let mut edited = ford();
        let rows = &mut edited.terrain;
        rows[0] = std::iter::repeat_n('~', rows[0].chars().count()).collect();
        let new = reloaded(&old, edited).unwrap();
        assert_ne!(new.generation(), old.generation(), "a new game");
        assert_eq!(new.seed, 9);
        assert_eq!(new.path, old.path);
        assert_eq!(
            new.level.sides[0].controller,
            Controller::Ai(AiPolicy::Easy)
        );
        assert_eq!(new.level.sides[1].decisions, DecisionPolicy::Never);
        let board = &new.battle.world().resource::<Map>().0;
        assert_ne!(board.terrain(Cell::new(0, 0)), Terrain::Open);
    }
}
