//! Battle files: a whole battle in a small RON file that replays it exactly.
//!
//! The engine is deterministic: a level, its dice and the commands give the same
//! events byte for byte. A [`BattleFile`] holds the level as played (embedded, with
//! the path and a hash of the file it came from), where the dice came from (a seed,
//! or a scenario's faces), every accepted command, and a hash of each event of the
//! log the commands produced. [`BattleFile::replay`] plays the commands again and
//! compares the log event by event: the first event that differs is reported, not
//! ignored. The format is documented in `docs/battle-files.md`.

mod legacy;

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::engine::Command;
use crate::engine::battle::Battle;
use crate::engine::dice::Dice;
use crate::engine::event::Event;
use crate::engine::rulesets::new_battle;
use crate::level::schema::Level;

/// The format version this build writes and reads.
pub const FORMAT: u32 = 1;

/// Where a battle's dice come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DiceSource {
    /// A seeded generator (`Dice::seeded`).
    Seed(u64),
    /// These faces, in the order the rules ask for dice (a scenario's).
    Faces(Vec<u32>),
}

impl DiceSource {
    /// The dice.
    pub fn dice(&self) -> Dice {
        match self {
            DiceSource::Seed(s) => Dice::seeded(*s),
            DiceSource::Faces(f) => Dice::scripted(f.iter().copied()),
        }
    }
}

/// A saved battle (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleFile {
    /// Format version ([`FORMAT`]).
    pub format: u32,
    /// The level file it was played from, if any, as given.
    #[serde(default)]
    pub level_path: Option<String>,
    /// Hash of that file's text when the battle was played.
    #[serde(default)]
    pub level_hash: Option<String>,
    /// The level as played: sides' controllers and decision policies included.
    pub level: Level,
    /// The dice.
    pub dice: DiceSource,
    /// Every accepted command, in order (those of older files read as today's, see
    /// [`legacy`]).
    #[serde(deserialize_with = "legacy::commands")]
    pub commands: Vec<Command>,
    /// Hash of the whole event log the commands produced.
    pub log_hash: String,
    /// Hash of each event of that log, in order.
    pub events: Vec<String>,
}

/// Why a battle file does not replay.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The level no longer sets up (a ruleset missing from this build, …).
    #[error("the battle does not set up: {0}")]
    SetUp(String),
    /// A command is refused where the recorded battle accepted it.
    #[error("command #{index} `{command}` is refused: {reason}")]
    Refused {
        /// 1-based.
        index: usize,
        /// The command, in words.
        command: String,
        /// Why.
        reason: String,
    },
    /// An event differs from the recorded one.
    #[error("event #{index} differs from the recorded battle: the replay gives `{line}`")]
    Diverged {
        /// 1-based.
        index: usize,
        /// The replayed event, as the log tells it.
        line: String,
    },
    /// The replay has fewer or more events than the record.
    #[error("the replay has {got} events, the recorded battle {want}")]
    Length {
        /// Events replayed.
        got: usize,
        /// Events recorded.
        want: usize,
    },
}

/// FNV-1a, 64 bits: a stable hash (not for security) of bytes, as 16 hex digits.
pub fn hash_bytes(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The hash of one event: of its JSON.
pub fn event_hash(event: &Event) -> String {
    hash_bytes(serde_json::to_string(event).unwrap_or_default().as_bytes())
}

/// The hash of a whole log: of its events' hashes.
pub fn log_hash(events: &[String]) -> String {
    hash_bytes(events.concat().as_bytes())
}

impl BattleFile {
    /// The file of `battle`, played on `level` (as set up: controllers and
    /// decisions as played) with `dice`, from the level file `source` if any.
    pub fn record(battle: &Battle, level: &Level, dice: DiceSource, source: Option<&Path>) -> Self {
        let events: Vec<String> = battle.events().iter().map(event_hash).collect();
        let level_hash = source
            .and_then(|p| std::fs::read(p).ok())
            .map(|b| hash_bytes(&b));
        BattleFile {
            format: FORMAT,
            level_path: source.map(|p| p.display().to_string()),
            level_hash,
            level: level.clone(),
            dice,
            commands: battle.commands().to_vec(),
            log_hash: log_hash(&events),
            events,
        }
    }

    /// The file as RON text.
    pub fn to_ron(&self) -> Result<String, String> {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .map(|t| format!("// A skirmish battle file (docs/battle-files.md).\n{t}\n"))
            .map_err(|e| e.to_string())
    }

    /// Writes the file atomically: a temporary file renamed over `path`, the previous
    /// file kept as `<name>.bak` (a save is never half-written nor lost).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = self.to_ron()?;
        crate::level::load::write_temp(path, &text)
            .and_then(|temp| crate::level::load::commit_temp(&temp, path))
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))
    }

    /// Reads a battle file; errors say `FILE:LINE:COL: what` for bad RON, and name a
    /// newer format.
    pub fn load(path: &Path) -> Result<BattleFile, String> {
        let shown = crate::level::load::shown_path(path);
        let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
        Self::parse(&text, &shown)
    }

    /// [`BattleFile::load`] from text; `file` names it in messages.
    pub fn parse(text: &str, file: &str) -> Result<BattleFile, String> {
        // The format version first, so a newer file says so rather than fail on a
        // field this build doesn't know.
        let version = text.find("format:").and_then(|at| {
            let rest = text[at + "format:".len()..].trim_start();
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse::<u32>().ok()
        });
        if let Some(v) = version
            && v > FORMAT
        {
            return Err(format!(
                "{file}: battle file format {v} is newer than this build reads ({FORMAT}); \
                 update skirmish"
            ));
        }
        ron::from_str::<BattleFile>(text).map_err(|e| {
            format!(
                "{file}:{}:{}: {}",
                e.span.start.line.max(1),
                e.span.start.col.max(1),
                e.code
            )
        })
    }

    /// Whether the level file it names still has the text it was played with
    /// (`None` when it names none or the file can't be read).
    pub fn level_unchanged(&self) -> Option<bool> {
        let path = self.level_path.as_ref()?;
        let now = std::fs::read(path).ok()?;
        Some(self.level_hash.as_deref() == Some(hash_bytes(&now).as_str()))
    }

    /// Plays the commands again on the embedded level and checks every event
    /// against the record; the battle as replayed.
    pub fn replay(&self) -> Result<Battle, ReplayError> {
        let mut battle = new_battle(&self.level, self.dice.dice()).map_err(ReplayError::SetUp)?;
        for (i, command) in self.commands.iter().enumerate() {
            let words = command.display(&battle).to_string();
            if let Err(e) = battle.submit(command.clone()) {
                return Err(ReplayError::Refused {
                    index: i + 1,
                    command: words,
                    reason: e.to_string(),
                });
            }
            // Stop at the first divergence, not at the end.
            self.compare(&battle, false)?;
        }
        self.compare(&battle, true)?;
        Ok(battle)
    }

    /// The battle after its first `k` commands (all of them when `k` is larger), each
    /// checked as [`BattleFile::replay`] does.
    pub fn battle_at(&self, k: usize) -> Result<Battle, ReplayError> {
        let mut battle = new_battle(&self.level, self.dice.dice()).map_err(ReplayError::SetUp)?;
        for (i, command) in self.commands.iter().take(k).enumerate() {
            let words = command.display(&battle).to_string();
            if let Err(e) = battle.submit(command.clone()) {
                return Err(ReplayError::Refused {
                    index: i + 1,
                    command: words,
                    reason: e.to_string(),
                });
            }
            self.compare(&battle, false)?;
        }
        Ok(battle)
    }

    /// Where each command leaves the battle, for stepping through a replay
    /// ([`Timeline`]); replays the whole file once.
    pub fn timeline(&self) -> Result<Timeline, ReplayError> {
        let mut battle = new_battle(&self.level, self.dice.dice()).map_err(ReplayError::SetUp)?;
        let mut events_after = vec![battle.events().len()];
        for (i, command) in self.commands.iter().enumerate() {
            let words = command.display(&battle).to_string();
            if let Err(e) = battle.submit(command.clone()) {
                return Err(ReplayError::Refused {
                    index: i + 1,
                    command: words,
                    reason: e.to_string(),
                });
            }
            self.compare(&battle, false)?;
            events_after.push(battle.events().len());
        }
        let events = battle.events();
        let turn_starts = (0..=self.commands.len())
            .filter(|&k| {
                k == 0
                    || events[events_after[k - 1]..events_after[k]]
                        .iter()
                        .any(|e| matches!(e, Event::TurnStarted { .. }))
            })
            .collect();
        Ok(Timeline {
            events_after,
            turn_starts,
        })
    }

    /// Compares the replayed log so far with the record (`whole`: also its length).
    fn compare(&self, battle: &Battle, whole: bool) -> Result<(), ReplayError> {
        let events = battle.events();
        for (i, e) in events.iter().enumerate() {
            if self.events.get(i) != Some(&event_hash(e)) {
                let line = crate::engine::log::line(battle.world(), e)
                    .unwrap_or_else(|| serde_json::to_string(e).unwrap_or_default());
                return Err(ReplayError::Diverged { index: i + 1, line });
            }
        }
        if whole && events.len() != self.events.len() {
            return Err(ReplayError::Length {
                got: events.len(),
                want: self.events.len(),
            });
        }
        Ok(())
    }
}

/// Where each command of a battle file leaves the battle: what a replay viewer
/// steps through (by command, by turn, or to the command behind a log event).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timeline {
    /// Events in the log after the first `k` commands, for `k` = 0 ..= commands.
    pub events_after: Vec<usize>,
    /// The `k` at which a turn has just started (its unit about to act), ascending;
    /// 0 first.
    pub turn_starts: Vec<usize>,
}

impl Timeline {
    /// How many commands the battle has.
    pub fn commands(&self) -> usize {
        self.events_after.len() - 1
    }

    /// The next turn's start after `at` (the end when none is left).
    pub fn next_turn(&self, at: usize) -> usize {
        self.turn_starts
            .iter()
            .copied()
            .find(|&k| k > at)
            .unwrap_or(self.commands())
    }

    /// The start of the turn before `at`'s: the latest turn start before `at`.
    pub fn previous_turn(&self, at: usize) -> usize {
        self.turn_starts
            .iter()
            .copied()
            .rev()
            .find(|&k| k < at)
            .unwrap_or(0)
    }

    /// How many commands must be played for event number `event` (from 0) to be in
    /// the log: the command that produced it.
    pub fn command_of_event(&self, event: usize) -> usize {
        self.events_after
            .iter()
            .position(|&n| n > event)
            .unwrap_or(self.commands())
    }
}
