//! The command line: `skirmish check | dice | script`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod check;
pub mod dice;
pub mod script;
pub mod sim;

/// skirmish: tactical skirmishes and a workbench for tabletop combat rules.
#[derive(Debug, Parser)]
#[command(name = "skirmish", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
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
    },
    /// Play AI-vs-AI battles headless on every core and print win rates and lengths.
    Sim(sim::SimArgs),
}

/// Parses arguments and runs the chosen subcommand.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { files } => check::run(&files),
        Command::Dice { expr, json } => dice::run(&expr, json),
        Command::Script { file, json } => script::run(&file, json),
        Command::Sim(args) => sim::run(&args),
    }
}
