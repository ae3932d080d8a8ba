//! Reading and writing level files.

use std::path::Path;

use super::schema::Level;

/// One problem found in a file, with where it is (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The file, as given on the command line (empty for in-memory text).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file, self.line, self.col, self.message)
    }
}

/// Parses and validates level text; `file` is only used in the problems' locations.
pub fn load_str(text: &str, file: &str) -> Result<Level, Vec<Problem>> {
    todo!("{text} {file}")
}

/// Reads, parses and validates a level file.
pub fn load_file(path: &Path) -> Result<Level, Vec<Problem>> {
    todo!("{path:?}")
}

/// The level as readable, diff-friendly RON (stable field order, terrain as rows).
pub fn to_ron_string(level: &Level) -> String {
    todo!("{level:?}")
}

/// Writes `level` to `path` atomically: a temporary file in the same directory,
/// synced, then renamed over the old file, whose previous version is kept as
/// `<name>.bak`.
pub fn save_atomic(path: &Path, level: &Level) -> std::io::Result<()> {
    todo!("{path:?} {level:?}")
}
