//! The command line: `skirmish play | edit | check | dice | script | sim | merge |
//! compare | replay`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod chart;
pub mod check;
pub mod compare;
pub mod csv;
pub mod dice;
pub mod merge;
pub mod replay;
pub mod script;
pub mod shard;
pub mod sim;
pub mod sweep;
pub mod tweak;

/// skirmish: tactical skirmishes and a workbench for tabletop combat rules.
#[derive(Debug, Parser)]
#[command(name = "skirmish", version, about)]
pub struct Cli {
    /// What to do (default: play the bundled default level in a window).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The level `skirmish` plays when run without a subcommand.
pub const DEFAULT_LEVEL: &str = "levels/ford.ron";

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a level in a window.
    Play {
        /// The level (RON).
        #[arg(default_value = DEFAULT_LEVEL)]
        level: PathBuf,
        /// Save a screenshot after the opening is drawn, then exit.
        #[arg(long, value_name = "FILE.png")]
        screenshot: Option<PathBuf>,
        /// Window size, e.g. 1280x720.
        #[arg(long, default_value = "1280x720", value_parser = parse_size)]
        size: (u32, u32),
        /// Dice seed (default: the level's seed).
        #[arg(long)]
        seed: Option<u64>,
        /// Skip the pre-battle menu: the sides play as the level says.
        #[arg(long)]
        no_menu: bool,
        /// Continue a saved battle (a battle file, e.g. `saves/quicksave.battle.ron`).
        #[arg(long, value_name = "FILE", conflicts_with = "continue_latest")]
        load: Option<PathBuf>,
        /// Continue the latest autosave in `saves/`.
        #[arg(long = "continue")]
        continue_latest: bool,
        /// Play under this ruleset instead of the level's (archetype units are
        /// realized for it; other units need its stats).
        #[arg(long, value_name = "R", value_parser = parse_ruleset)]
        ruleset: Option<String>,
    },
    /// Edit a level in a window (a new level if LEVEL is left out or does not exist
    /// yet; it is then saved to LEVEL).
    Edit {
        /// The level (RON).
        level: Option<PathBuf>,
        /// Save a screenshot after the editor is drawn, then exit.
        #[arg(long, value_name = "FILE.png")]
        screenshot: Option<PathBuf>,
        /// Window size, e.g. 1280x720.
        #[arg(long, default_value = "1280x720", value_parser = parse_size)]
        size: (u32, u32),
        /// New level: grid kind, `square` or `hex`.
        #[arg(long, default_value = "square", value_parser = parse_grid)]
        grid: crate::engine::board::GridKind,
        /// New level: map size in cells, e.g. 10x8.
        #[arg(long, default_value = "10x8", value_parser = parse_map_size)]
        map: (u32, u32),
        /// New level: ruleset (one the engine knows, e.g. `phases`, `flow`).
        #[arg(long, default_value_t = crate::engine::rulesets::registry::default_id().to_string(), value_parser = parse_ruleset)]
        ruleset: String,
        /// Dice seed for playtests (default: the level's seed).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Validate level files; prints `FILE:LINE:COL: message` per problem.
    Check {
        /// Level files (RON).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Exact distribution of a dice expression, e.g. `2d6+1d8kh2+3`.
    Dice {
        /// The expression (see README, "Dice expressions").
        #[arg(allow_hyphen_values = true)]
        expr: String,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Run a scripted scenario and print its event log and the final state.
    Script {
        /// The scenario file (RON).
        file: PathBuf,
        /// Print the log as JSON lines.
        #[arg(long)]
        json: bool,
        /// Also write the run as a battle file (`skirmish replay FILE`).
        #[arg(long, value_name = "FILE")]
        save_battle: Option<PathBuf>,
    },
    /// Play AI-vs-AI battles headless on every core and print win rates and lengths;
    /// change constants (--set), sweep one (--sweep), or play a shard (--shard).
    Sim(sim::SimArgs),
    /// Combine the shard files of `skirmish sim --shard K/N` into the full run's report.
    Merge(merge::MergeArgs),
    /// Play a level under every ruleset that can (grid, archetypes) and set win
    /// rates, battle length, damage and losses side by side.
    Compare(compare::CompareArgs),
    /// Watch a battle file in the window (play/pause, step by command or turn,
    /// speed, jump), or headless: print its log (`--print`), or only check that it
    /// reproduces event by event (`--check`, exit 1 with the first diverging event).
    Replay {
        /// The battle file (RON), e.g. from `skirmish sim --save-battle`.
        file: PathBuf,
        /// Only check, headless: no log, exit 1 when the battle does not reproduce.
        #[arg(long)]
        check: bool,
        /// Print the replayed log headless instead of opening the window.
        #[arg(long, conflicts_with = "check")]
        print: bool,
        /// Window size, e.g. 1280x720.
        #[arg(long, value_parser = parse_size, default_value = "1280x720")]
        size: (u32, u32),
    },
}

/// Parses arguments and runs the chosen subcommand.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli.command.unwrap_or(Command::Play {
        level: DEFAULT_LEVEL.into(),
        screenshot: None,
        size: (1280, 720),
        seed: None,
        no_menu: false,
        load: None,
        continue_latest: false,
        ruleset: None,
    });
    match command {
        Command::Play {
            level,
            screenshot,
            size,
            seed,
            no_menu,
            load,
            continue_latest,
            ruleset,
        } => {
            let load = if continue_latest {
                match latest_autosave() {
                    Some(p) => Some(p),
                    None => {
                        eprintln!("skirmish play --continue: no autosave in {SAVES}/ to continue");
                        return ExitCode::FAILURE;
                    }
                }
            } else {
                load
            };
            play(level, screenshot, size, seed, no_menu, load, ruleset)
        }
        Command::Edit {
            level,
            screenshot,
            size,
            grid,
            map,
            ruleset,
            seed,
        } => edit(EditArgs {
            level,
            screenshot,
            size,
            grid,
            map,
            ruleset,
            seed,
        }),
        Command::Check { files } => {
            quiet_broken_pipe();
            check::run(&files)
        }
        Command::Dice { expr, json } => {
            quiet_broken_pipe();
            dice::run(&expr, json)
        }
        Command::Script {
            file,
            json,
            save_battle,
        } => {
            quiet_broken_pipe();
            script::run(&file, json, save_battle.as_deref())
        }
        Command::Replay {
            file,
            check,
            print,
            size,
        } => {
            quiet_broken_pipe();
            if check || print || !cfg!(feature = "render") {
                replay::run(&file, check)
            } else {
                watch(file, size)
            }
        }
        Command::Sim(args) => {
            quiet_broken_pipe();
            sim::run(&args)
        }
        Command::Merge(args) => {
            quiet_broken_pipe();
            merge::run(&args)
        }
        Command::Compare(args) => {
            quiet_broken_pipe();
            compare::run(&args)
        }
    }
}

/// A command-line tool whose output is piped into `head` stops quietly when the
/// reader goes away, as `cat` or `grep` do, instead of panicking on the broken pipe:
/// Rust ignores SIGPIPE by default, so every `println!` after it would fail.
fn quiet_broken_pipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to its default before any other thread
    // exists has no memory effects; it only restores what a C program starts with.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or("expected WIDTHxHEIGHT, e.g. 1280x720")?;
    let w: u32 = w.trim().parse().map_err(|_| format!("bad width `{w}`"))?;
    let h: u32 = h.trim().parse().map_err(|_| format!("bad height `{h}`"))?;
    if !(200..=8000).contains(&w) || !(150..=8000).contains(&h) {
        return Err(format!("{w}x{h} is out of range (200x150 to 8000x8000)"));
    }
    Ok((w, h))
}

fn parse_grid(s: &str) -> Result<crate::engine::board::GridKind, String> {
    use crate::engine::board::GridKind;
    match s.trim().to_ascii_lowercase().as_str() {
        "square" => Ok(GridKind::Square),
        "hex" => Ok(GridKind::Hex),
        other => Err(format!(
            "unknown grid `{other}`; expected `square` or `hex`"
        )),
    }
}

fn parse_map_size(s: &str) -> Result<(u32, u32), String> {
    let max = crate::level::validate::MAX_SIDE;
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or("expected WIDTHxHEIGHT in cells, e.g. 10x8")?;
    let w: u32 = w.trim().parse().map_err(|_| format!("bad width `{w}`"))?;
    let h: u32 = h.trim().parse().map_err(|_| format!("bad height `{h}`"))?;
    if !(1..=max).contains(&w) || !(1..=max).contains(&h) {
        return Err(format!("{w}x{h} is out of range (1x1 to {max}x{max})"));
    }
    Ok((w, h))
}

fn parse_ruleset(s: &str) -> Result<String, String> {
    use crate::engine::rulesets::RULESETS;
    if RULESETS.contains(&s) {
        Ok(s.to_string())
    } else {
        Err(format!(
            "unknown ruleset `{s}`; expected one of: {}",
            RULESETS.join(", ")
        ))
    }
}

/// The arguments of `skirmish edit` (only the window reads them: a build without
/// `render` just says the editor isn't there).
#[cfg_attr(not(feature = "render"), allow(dead_code))]
struct EditArgs {
    level: Option<PathBuf>,
    screenshot: Option<PathBuf>,
    size: (u32, u32),
    grid: crate::engine::board::GridKind,
    map: (u32, u32),
    ruleset: String,
    seed: Option<u64>,
}

#[cfg(feature = "render")]
fn edit(args: EditArgs) -> ExitCode {
    use crate::game::editor::state::NewLevel;
    crate::game::run(crate::game::GameOptions {
        level_path: args.level.unwrap_or_default(),
        screenshot: args.screenshot,
        size: args.size,
        seed: args.seed,
        any_thread: false,
        start: crate::game::screen::Screen::Editor,
        new_level: NewLevel {
            grid: args.grid,
            size: args.map,
            ruleset: args.ruleset,
            path: None,
        },
        load: None,
        saves: Some(SAVES.into()),
        replay: None,
        ruleset: None,
    })
}

#[cfg(not(feature = "render"))]
fn edit(_: EditArgs) -> ExitCode {
    eprintln!("this build has no window: rebuild with the `render` feature (on by default)");
    ExitCode::FAILURE
}

#[cfg(feature = "render")]
fn play(
    level: PathBuf,
    screenshot: Option<PathBuf>,
    size: (u32, u32),
    seed: Option<u64>,
    no_menu: bool,
    load: Option<PathBuf>,
    ruleset: Option<String>,
) -> ExitCode {
    use crate::game::screen::Screen;
    crate::game::run(crate::game::GameOptions {
        level_path: level,
        screenshot,
        size,
        seed,
        any_thread: false,
        start: if no_menu {
            Screen::Battle
        } else {
            Screen::Setup
        },
        load,
        saves: Some(SAVES.into()),
        ruleset,
        ..Default::default()
    })
}

/// Opens the replay viewer on a battle file.
#[cfg(feature = "render")]
fn watch(file: PathBuf, size: (u32, u32)) -> ExitCode {
    crate::game::run(crate::game::GameOptions {
        size,
        start: crate::game::screen::Screen::Battle,
        replay: Some(file),
        ..Default::default()
    })
}

#[cfg(not(feature = "render"))]
fn watch(file: PathBuf, _size: (u32, u32)) -> ExitCode {
    replay::run(&file, false)
}

/// Where the window saves battles.
pub const SAVES: &str = "saves";

#[cfg(feature = "render")]
fn latest_autosave() -> Option<PathBuf> {
    crate::game::saves::latest(std::path::Path::new(SAVES)).map(|(path, _)| path)
}

#[cfg(not(feature = "render"))]
fn latest_autosave() -> Option<PathBuf> {
    None
}

#[cfg(not(feature = "render"))]
fn play(
    _: PathBuf,
    _: Option<PathBuf>,
    _: (u32, u32),
    _: Option<u64>,
    _: bool,
    _: Option<PathBuf>,
    _: Option<String>,
) -> ExitCode {
    eprintln!("this build has no window: rebuild with the `render` feature (on by default)");
    ExitCode::FAILURE
}
