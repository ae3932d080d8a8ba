//! Hot reload: noticing that a level file changed on disk.
//!
//! [`LevelWatcher`] polls: it compares the file's modification time, length (and
//! on Unix its inode, which an atomic save by rename changes) with what it saw last,
//! and only then reads the file and compares a hash of its content, so touching a
//! file without changing it reloads nothing. Polling a few times a second costs one
//! `stat` per poll and needs no extra crate or thread.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::level::{Level, Problem, load_str};

/// What the watcher saw of the file's metadata last time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
    inode: u64,
}

impl Stamp {
    fn of(path: &Path) -> Option<Stamp> {
        let meta = std::fs::metadata(path).ok()?;
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(&meta);
        #[cfg(not(unix))]
        let inode = 0;
        Some(Stamp {
            modified: meta.modified().ok(),
            len: meta.len(),
            inode,
        })
    }
}

/// Watches one level file for changes by polling.
#[derive(Clone, Debug)]
pub struct LevelWatcher {
    path: PathBuf,
    stamp: Option<Stamp>,
    hash: Option<u64>,
}

impl LevelWatcher {
    /// Watches `path`. Its current content counts as seen: the first change after
    /// this call is the first one [`Self::poll`] reports.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        let stamp = Stamp::of(&path);
        let hash = std::fs::read(&path).ok().map(|bytes| hash(&bytes));
        Self { path, stamp, hash }
    }

    /// The watched file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `Some` when the file's content changed since the last poll (or since
    /// [`Self::new`]): the new level, or its problems at `file:line:col` (then keep
    /// playing the old one; the next good save reloads). `None` when nothing
    /// changed, or while the file is missing or unreadable.
    pub fn poll(&mut self) -> Option<Result<Level, Vec<Problem>>> {
        let stamp = Stamp::of(&self.path);
        if stamp.is_none() || stamp == self.stamp {
            return None;
        }
        let Ok(bytes) = std::fs::read(&self.path) else {
            return None; // gone between stat and read: look again next time
        };
        // Stamp and hash of what was read; a write racing the read changes the
        // stamp again and is picked up by the next poll.
        self.stamp = stamp;
        let new_hash = hash(&bytes);
        if self.hash == Some(new_hash) {
            return None;
        }
        self.hash = Some(new_hash);
        let file = self.path.display().to_string();
        Some(match String::from_utf8(bytes) {
            Ok(text) => load_str(&text, &file),
            Err(e) => Err(vec![Problem {
                file,
                line: 1,
                col: 1,
                message: format!("not UTF-8 text: {e}"),
            }]),
        })
    }
}

fn hash(bytes: &[u8]) -> u64 {
    let mut hasher = DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}
