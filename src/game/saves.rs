//! Saving battles in the window: F5 saves the battle as a battle file
//! (`saves/quicksave.battle.ron`), and every turn's start is autosaved
//! (`saves/autosave-N.battle.ron`, the last [`KEEP`] kept: the oldest is written
//! next), as is a battle left by "Save and leave" ([`super::leave`]). Files are
//! written atomically ([`crate::replay::BattleFile::save`]): killing the game while
//! it writes leaves the previous file whole. `skirmish play --load FILE` continues
//! one, `skirmish play --continue` and the menu's Continue the newest autosave
//! ([`latest`]). [`SaveState`] knows which commands no save holds yet.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;

use super::choices::UiState;
use super::screen::Screen;
use super::settings::{BattleAction, Player};
use super::{Game, Options};
use crate::engine::{Awaiting, Command};
use crate::replay::BattleFile;

/// How many autosaves are kept.
pub const KEEP: usize = 3;

/// The quicksave's file name.
pub const QUICKSAVE: &str = "quicksave.battle.ron";

/// The autosave file number `n` (of [`KEEP`]) in `dir`.
pub fn autosave_path(dir: &Path, n: usize) -> PathBuf {
    dir.join(format!("autosave-{}.battle.ron", n % KEEP))
}

/// When `path` was last written (`None` when it can't be told).
fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The autosave file to write next in `dir`: a missing one, else the oldest, so the
/// last [`KEEP`] saves are kept whichever run wrote them.
pub fn next_autosave_path(dir: &Path) -> PathBuf {
    (0..KEEP)
        .map(|n| autosave_path(dir, n))
        .min_by_key(|p| (p.exists(), modified(p)))
        .unwrap_or_else(|| autosave_path(dir, 0))
}

/// The latest autosave in `dir`, read: the newest file that reads (on a tie, the
/// one furthest into its battle); `None` when there is none. The newest, not the
/// longest: a battle started after a longer one is the one to continue.
pub fn latest(dir: &Path) -> Option<(PathBuf, BattleFile)> {
    (0..KEEP)
        .map(|n| autosave_path(dir, n))
        .filter_map(|p| {
            let file = BattleFile::load(&p).ok()?;
            Some(((modified(&p), file.commands.len()), p, file))
        })
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, p, file)| (p, file))
}

/// Writes `game` to `path`, creating its folder.
pub fn save(game: &Game, path: &Path) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    game.battle_file().save(path)
}

/// What this run has saved: which battle and commands the last file written holds,
/// and which turn was autosaved last.
#[derive(Resource, Default, Debug)]
pub struct SaveState {
    /// The game generation and the commands of the last save written.
    saved: Option<(u64, Vec<Command>)>,
    /// The game generation, round and unit of the last autosave.
    turn: Option<(u64, u32, crate::engine::units::UnitId)>,
    /// The last game generation seen.
    seen: Option<u64>,
}

impl SaveState {
    /// Notes that `game` was just saved as it is.
    pub fn note(&mut self, game: &Game) {
        self.saved = Some((game.generation(), game.battle.commands().to_vec()));
    }

    /// Follows the game being played (every frame): a game seen for the first time
    /// with commands already was continued from a battle file holding them (a new
    /// one starts with none), so nothing of it is unsaved yet.
    pub fn track(&mut self, game: &Game) {
        if self.seen != Some(game.generation()) {
            self.seen = Some(game.generation());
            if !game.battle.commands().is_empty() {
                self.note(game);
            }
        }
    }

    /// What leaving `game` now would lose, in words; `None` when nothing would:
    /// the battle is over, has no command yet, or the last save written in this run
    /// holds it as it is.
    pub fn unsaved(&self, game: &Game) -> Option<String> {
        let now = game.battle.commands();
        if now.is_empty() || matches!(game.battle.awaiting(), Awaiting::Over(_)) {
            return None;
        }
        let saved: &[Command] = match &self.saved {
            Some((generation, saved)) if *generation == game.generation() => saved,
            _ => &[],
        };
        if saved == now {
            return None;
        }
        let kept = saved.iter().zip(now).take_while(|(a, b)| a == b).count();
        Some(match now.len() - kept {
            0 => "The last save holds commands that were taken back since.".to_string(),
            1 => "The last command is in no save yet.".to_string(),
            n => format!("The last {n} commands are in no save yet."),
        })
    }
}

/// Saves `game` into the next autosave file of `dir` (the one `skirmish play
/// --continue` and the menu's Continue resume), noting it in `state`; the file.
pub fn save_for_later(game: &Game, dir: &Path, state: &mut SaveState) -> Result<PathBuf, String> {
    let path = next_autosave_path(dir);
    save(game, &path)?;
    state.note(game);
    Ok(path)
}

fn autosave(
    game: Res<Game>,
    options: Res<Options>,
    mut ui: ResMut<UiState>,
    mut state: ResMut<SaveState>,
) {
    state.track(&game);
    let Some(dir) = &options.0.saves else { return };
    let Awaiting::Unit(unit, _) = game.battle.awaiting() else {
        return;
    };
    let key = (game.generation(), game.battle.turn().round, unit);
    if state.turn == Some(key) {
        return;
    }
    state.turn = Some(key);
    if let Err(e) = save_for_later(&game, dir, &mut state) {
        ui.message = Some((format!("autosave failed: {e}"), true));
    }
}

fn quicksave(
    actions: Single<&ActionState<BattleAction>, With<Player>>,
    game: Res<Game>,
    options: Res<Options>,
    mut ui: ResMut<UiState>,
    mut state: ResMut<SaveState>,
) {
    if !actions.just_pressed(&BattleAction::Save) {
        return;
    }
    let Some(dir) = &options.0.saves else {
        ui.message = Some(("saving is off in this run".into(), true));
        return;
    };
    let path = dir.join(QUICKSAVE);
    ui.message = Some(match save(&game, &path) {
        Ok(()) => {
            state.note(&game);
            (
                format!(
                    "Saved to {} (continue with: skirmish play --load {})",
                    path.display(),
                    path.display()
                ),
                false,
            )
        }
        Err(e) => (format!("save failed: {e}"), true),
    });
}

/// The saving systems of the battle screen.
pub fn plugin(app: &mut App) {
    app.init_resource::<SaveState>();
    app.add_systems(
        Update,
        (autosave, quicksave)
            .run_if(in_state(Screen::Battle))
            .run_if(super::replay_view::playing),
    );
}
