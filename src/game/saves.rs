//! Saving battles in the window: F5 saves the battle as a battle file
//! (`saves/quicksave.battle.ron`), and every turn's start is autosaved
//! (`saves/autosave-N.battle.ron`, the last [`KEEP`] kept in turn). Files are written
//! atomically ([`crate::replay::BattleFile::save`]): killing the game while it
//! writes leaves the previous file whole. `skirmish play --load FILE` continues
//! one, `skirmish play --continue` the latest autosave.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;

use super::control::UiState;
use super::screen::Screen;
use super::settings::{BattleAction, Player};
use super::{Game, Options};
use crate::engine::Awaiting;
use crate::replay::BattleFile;

/// How many autosaves are kept.
pub const KEEP: usize = 3;

/// The quicksave's file name.
pub const QUICKSAVE: &str = "quicksave.battle.ron";

/// The autosave file number `n` (of [`KEEP`]) in `dir`.
pub fn autosave_path(dir: &Path, n: usize) -> PathBuf {
    dir.join(format!("autosave-{}.battle.ron", n % KEEP))
}

/// The latest autosave in `dir`, read: the one furthest into its battle (most
/// commands), newest file on a tie; `None` when there is none that reads.
pub fn latest(dir: &Path) -> Option<(PathBuf, BattleFile)> {
    (0..KEEP)
        .map(|n| autosave_path(dir, n))
        .filter_map(|p| {
            let file = BattleFile::load(&p).ok()?;
            let modified = std::fs::metadata(&p).and_then(|m| m.modified()).ok();
            Some(((file.commands.len(), modified), p, file))
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

/// The autosave of each turn's start: which turn was saved last.
#[derive(Default)]
struct Saved {
    /// The game generation, round and unit of the last autosave.
    last: Option<(u64, u32, crate::engine::units::UnitId)>,
    /// Autosaves written in this run (picks the file in turn).
    count: usize,
}

fn autosave(
    game: Res<Game>,
    options: Res<Options>,
    mut ui: ResMut<UiState>,
    mut saved: Local<Saved>,
) {
    let Some(dir) = &options.0.saves else { return };
    let Awaiting::Unit(unit, _) = game.battle.awaiting() else {
        return;
    };
    let key = (game.generation(), game.battle.turn().round, unit);
    if saved.last == Some(key) {
        return;
    }
    saved.last = Some(key);
    let path = autosave_path(dir, saved.count);
    saved.count += 1;
    if let Err(e) = save(&game, &path) {
        ui.message = Some((format!("autosave failed: {e}"), true));
    }
}

fn quicksave(
    actions: Single<&ActionState<BattleAction>, With<Player>>,
    game: Res<Game>,
    options: Res<Options>,
    mut ui: ResMut<UiState>,
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
        Ok(()) => (
            format!(
                "Saved to {} (continue with: skirmish play --load {})",
                path.display(),
                path.display()
            ),
            false,
        ),
        Err(e) => (format!("save failed: {e}"), true),
    });
}

/// The saving systems of the battle screen.
pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (autosave, quicksave)
            .run_if(in_state(Screen::Battle))
            .run_if(super::replay_view::playing),
    );
}
