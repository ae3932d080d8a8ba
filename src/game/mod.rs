//! The game window: plays any level with a tilemap board, unit markers, movement and
//! attack previews with exact odds, prompts for decisions, a combat log and a result
//! screen. It never decides a rule: every intent becomes an engine `Command`.
//!
//! Plugins, one per file (bevy_new_2d style): [`board_view`] (tilemap and cell
//! geometry), [`units_view`] (unit markers), [`overlays`] (reachable cells, targets,
//! path preview), [`hud`] (turn state, log, prompts, result), [`turn_strip`] (the
//! turn order along the top, the units hovered and asked about lit on the map),
//! [`control`] (input, camera, submitting commands, AI pacing).
//!
//! What several plugins read lives in data modules, which import no plugin:
//! [`choices`] (the player's intent and what the side to act can do), [`layout`]
//! (the panels around the map, the camera's fit), [`theme`] (the HUD's font,
//! colours and shared parts), [`comfort`] (the comfort settings in use; their panel
//! is [`comfort_panel`]), [`screen`], [`settings`], and here the [`Game`] itself.
//! Plugins build on these; where one still uses another's types (the board's
//! geometry, the unit markers' look, the replay being watched) it is always a
//! plugin lower down: no two modules here import each other, directly or not
//! (`import-cycles` checks). Plugins order their systems by the [`BattleSystems`]
//! sets declared and ordered here, never by naming another plugin's system.

pub mod board_view;
pub mod choices;
pub mod comfort;
pub mod comfort_panel;
pub mod control;
pub mod editor;
pub mod handoff;
pub mod hud;
pub mod layout;
pub mod leave;
pub mod log_view;
pub mod motion;
pub mod overlays;
pub mod reload;
pub mod replay_view;
pub mod saves;
pub mod screen;
pub mod settings;
pub mod setup;
pub mod theme;
pub mod turn_strip;
pub mod unit_card;
pub mod units_view;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::WindowResolution;

use crate::engine::Battle;
use crate::engine::dice::Dice;
use crate::engine::rulesets::new_battle;
use crate::level::Level;

/// What to play and how.
#[derive(Clone, Debug, Default)]
pub struct GameOptions {
    /// The level file.
    pub level_path: PathBuf,
    /// Save a screenshot after the opening is drawn, then exit.
    pub screenshot: Option<PathBuf>,
    /// Window size in logical pixels.
    pub size: (u32, u32),
    /// Dice seed (the level's, or a fixed default, when `None`).
    pub seed: Option<u64>,
    /// Run the event loop off the main thread (tests).
    pub any_thread: bool,
    /// The first screen (the battle by default).
    pub start: screen::Screen,
    /// The editor's new-level defaults (grid, size, ruleset) when it starts a level.
    pub new_level: editor::state::NewLevel,
    /// A battle file to continue instead of starting the level afresh.
    pub load: Option<PathBuf>,
    /// Where battles are saved (F5) and autosaved at the start of every turn;
    /// `None`: no saves (tests).
    pub saves: Option<PathBuf>,
    /// A battle file to watch in the replay viewer instead of playing.
    pub replay: Option<PathBuf>,
    /// Play the level under this ruleset instead of its own (`play --ruleset`): its
    /// archetype units are realized for it.
    pub ruleset: Option<String>,
}

/// The battle being played, its level and where it came from.
#[derive(Resource)]
pub struct Game {
    /// The running battle.
    pub battle: Battle,
    /// The level as loaded (for restarts).
    pub level: Level,
    /// The seed the dice started from.
    pub seed: u64,
    /// The level file, watched for hot reload (`None` for a level that only lives
    /// in the editor).
    pub path: Option<PathBuf>,
    /// How many engine events the views have already shown.
    pub shown_events: usize,
    /// Bumped whenever the battle changes, so views know to refresh. The high 32 bits
    /// are the game's generation (see [`Game::generation`]), so versions never repeat
    /// across games and a view can't mistake a new battle for one it already shows.
    pub version: u64,
}

/// Counts the games created in this process (see [`Game::generation`]).
static GENERATIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Game {
    /// A fresh battle on `level`.
    pub fn new(level: Level, seed: u64) -> Result<Self, String> {
        let battle = new_battle(&level, Dice::seeded(seed))?;
        Ok(Self {
            battle,
            level,
            seed,
            path: None,
            shown_events: 0,
            version: GENERATIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) << 32,
        })
    }

    /// The same game, watching `path` for hot reload.
    pub fn with_path(mut self, path: Option<PathBuf>) -> Self {
        self.path = path;
        self
    }

    /// Which game this is: different for every `Game::new`, the same across restarts
    /// (the board view rebuilds the terrain only when this changes).
    pub fn generation(&self) -> u64 {
        self.version >> 32
    }

    /// The battle so far as a battle file (docs/battle-files.md).
    pub fn battle_file(&self) -> crate::replay::BattleFile {
        crate::replay::BattleFile::record(
            &self.battle,
            &self.level,
            crate::replay::DiceSource::Seed(self.seed),
            self.path.as_deref(),
        )
    }

    /// A game continued from a battle file: its commands replayed and checked event
    /// by event, so the battle is exactly where it was saved.
    pub fn from_file(file: &crate::replay::BattleFile) -> Result<Self, String> {
        let crate::replay::DiceSource::Seed(seed) = file.dice else {
            return Err(
                "this battle file has a scenario's scripted dice: it can be replayed \
                 (`skirmish replay`) but not continued"
                    .into(),
            );
        };
        let battle = file.replay().map_err(|e| e.to_string())?;
        Ok(Self {
            battle,
            level: file.level.clone(),
            seed,
            path: file.level_path.as_ref().map(PathBuf::from),
            shown_events: 0,
            version: GENERATIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) << 32,
        })
    }

    /// A game showing a battle file's `battle` in the replay viewer.
    pub fn watching(battle: Battle, file: &crate::replay::BattleFile) -> Self {
        let seed = match file.dice {
            crate::replay::DiceSource::Seed(s) => s,
            crate::replay::DiceSource::Faces(_) => 0,
        };
        Self {
            battle,
            level: file.level.clone(),
            seed,
            path: None,
            shown_events: 0,
            version: GENERATIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) << 32,
        }
    }

    /// Takes back the last command (issue 16's take-backs): only one that rolled no
    /// dice, made by the side that has to act now (nobody else has seen its
    /// outcome). The battle is rebuilt from the level, the seed and the commands
    /// before it. Returns the command taken back, in words, or why not.
    pub fn take_back(&mut self) -> Result<String, String> {
        let Some(last) = self.battle.commands().last().cloned() else {
            return Err("nothing to take back: no command yet".into());
        };
        let words = last.display(&self.battle).to_string();
        if self.battle.last_rolled() {
            return Err(format!("{words} rolled dice: it can't be taken back"));
        }
        let world = self.battle.world();
        let side_of = |cmd: &crate::engine::Command| match cmd.unit() {
            Some(u) => Some(crate::engine::battle::side_of(world, u)),
            None => cmd.side(),
        };
        let now = match self.battle.awaiting() {
            crate::engine::Awaiting::Unit(u, _) => Some(crate::engine::battle::side_of(world, u)),
            crate::engine::Awaiting::Decision(d) => Some(d.side),
            crate::engine::Awaiting::Over(_) => None,
        };
        if now.is_none() || side_of(&last) != now {
            return Err(format!(
                "{words} can't be taken back: the other side has seen what it did"
            ));
        }
        let keep = self.battle.commands().len() - 1;
        let commands = self.battle.commands()[..keep].to_vec();
        let mut battle = new_battle(&self.level, Dice::seeded(self.seed))?;
        for c in commands {
            battle.submit(c).map_err(|e| e.to_string())?;
        }
        self.battle = battle;
        self.shown_events = self.shown_events.min(self.battle.events().len());
        self.version += 1;
        Ok(words)
    }

    /// Starts the same level again from the same seed.
    pub fn restart(&mut self) -> Result<(), String> {
        self.battle = new_battle(&self.level, Dice::seeded(self.seed))?;
        self.shown_events = 0;
        self.version += 1;
        Ok(())
    }
}

/// The battle screen's `Update` systems other plugins order theirs by (bevy_new_2d's
/// `AppSystems`): a plugin puts a system in one of these sets instead of naming
/// another plugin's system, and [`build_app`] orders the sets once.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BattleSystems {
    /// The battle's keys and clicks become commands and UI changes
    /// ([`control`]'s input handler).
    Input,
    /// Screens over the battle answer their keys after [`BattleSystems::Input`], so a
    /// key they take doesn't also act on the map: the hot-seat hand-off
    /// ([`handoff`]) and the leave prompt ([`leave`]).
    Dialogs,
    /// The unit markers follow the battle ([`units_view`]: spawned, rebuilt).
    SyncUnits,
    /// What is drawn on or moves the markers, after [`BattleSystems::SyncUnits`]:
    /// motion, name plates, damage ghosts, badge tooltips, the turn strip's rings.
    FollowUnits,
}

/// Orders the [`BattleSystems`] sets.
fn configure_sets(app: &mut App) {
    app.configure_sets(
        Update,
        (BattleSystems::Input, BattleSystems::Dialogs).chain(),
    );
    app.configure_sets(
        Update,
        (BattleSystems::SyncUnits, BattleSystems::FollowUnits).chain(),
    );
}

/// Options the systems read (screenshot path, ...).
#[derive(Resource, Clone, Debug, Default)]
pub struct Options(pub GameOptions);

/// Loads the level and builds the app (not run), so tests can drive it.
pub fn build_app(options: GameOptions) -> Result<App, String> {
    let start = options.start;
    let mut watching = None;
    // The editor opens its level itself (a new, missing or invalid one too).
    let game = if let Some(file) = &options.replay {
        let (replay, game) = replay_view::Replay::open(file)?;
        watching = Some(replay);
        Some(game)
    } else if start == screen::Screen::Editor {
        None
    } else if let Some(file) = &options.load {
        let file = crate::replay::BattleFile::load(file)?;
        Some(Game::from_file(&file).map_err(|e| {
            format!(
                "{}: cannot continue: {e}",
                options
                    .load
                    .as_ref()
                    .map_or(String::new(), |p| p.display().to_string())
            )
        })?)
    } else {
        let level =
            crate::level::load::load_for_play(&options.level_path, options.ruleset.as_deref())?;
        let seed = options.seed.or(level.seed).unwrap_or(1);
        Some(Game::new(level, seed)?.with_path(Some(options.level_path.clone())))
    };
    let title = match &game {
        Some(game) => format!("skirmish — {}", game.level.name),
        None => "skirmish — level editor".to_string(),
    };
    let (w, h) = if options.size.0 == 0 {
        (1280, 720)
    } else {
        options.size
    };
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title,
                    resolution: WindowResolution::new(w, h),
                    ..default()
                }),
                // The editor asks before unsaved changes are lost
                // (`editor::control::close_requested`).
                close_when_requested: false,
                ..default()
            })
            .set(bevy::winit::WinitPlugin {
                run_on_any_thread: options.any_thread,
            })
            .set(ImagePlugin::default_nearest()),
    );
    app.insert_resource(ClearColor(Color::srgb(0.08, 0.09, 0.11)));
    if start != screen::Screen::Editor {
        app.insert_resource(
            setup::Setup::new(&options.level_path, options.seed)
                .with_ruleset(options.ruleset.clone()),
        );
    }
    // A continued battle starts on the battle screen.
    let start = if options.load.is_some() || options.replay.is_some() {
        screen::Screen::Battle
    } else {
        start
    };
    if let Some(game) = game.filter(|_| start == screen::Screen::Battle) {
        app.insert_resource(game);
    }
    if let Some(replay) = watching {
        app.insert_resource(replay);
    }
    app.insert_resource(Options(options));
    configure_sets(&mut app);
    app.add_plugins((
        bevy_ecs_tilemap::TilemapPlugin,
        screen::plugin,
        settings::plugin,
        board_view::plugin,
        units_view::plugin,
        motion::plugin,
        overlays::plugin,
        hud::plugin,
        unit_card::plugin,
        control::plugin,
        handoff::plugin,
        reload::plugin,
        saves::plugin,
        setup::plugin,
        editor::plugin,
    ));
    app.add_plugins((
        replay_view::plugin,
        leave::plugin,
        log_view::plugin,
        comfort_panel::plugin,
        turn_strip::plugin,
    ));
    app.insert_state(start);
    one_thread(&mut app);
    Ok(app)
}

/// Runs every schedule of the app and of its render world on Bevy's
/// single-threaded executor: the systems run one after another, on the thread
/// that runs the schedule, instead of being handed out to the task pool's threads.
/// The battle screen's systems are many and each does little (most return at once
/// when nothing they show changed), so waking other threads for them and waiting
/// for them cost more CPU than the systems themselves: on the 2-core machine of
/// `examples/frame_time.rs`, about 5 ms of CPU a frame of the 34 the battle screen
/// took. Any order the multi-threaded executor could have chosen is one this one
/// may choose, so nothing shown changes. (The render world still renders on its
/// own thread, alongside the next frame's systems.)
pub fn one_thread(app: &mut App) {
    fn on(world: &mut World) {
        use bevy::ecs::schedule::{Schedules, SingleThreadedExecutor};
        if let Some(mut schedules) = world.get_resource_mut::<Schedules>() {
            for (_, schedule) in schedules.iter_mut() {
                schedule.set_executor(SingleThreadedExecutor::new());
            }
        }
    }
    on(app.world_mut());
    if let Some(render) = app.get_sub_app_mut(bevy::render::RenderApp) {
        on(render.world_mut());
    }
}

/// Opens the window and plays until it is closed.
pub fn run(options: GameOptions) -> std::process::ExitCode {
    match build_app(options) {
        Ok(mut app) => match app.run() {
            AppExit::Success => std::process::ExitCode::SUCCESS,
            AppExit::Error(_) => std::process::ExitCode::FAILURE,
        },
        Err(e) => {
            eprintln!("{e}");
            std::process::ExitCode::FAILURE
        }
    }
}
