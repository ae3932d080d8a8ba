//! A private X server for the window tests when there is no `$DISPLAY`.
//!
//! Xvfb picks a free display number itself (`-displayfd`) and prints it once it
//! accepts connections, so tests never collide on a display number or race a
//! server that is still starting.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// The Xvfb this process started (killed on drop), or `None` inside a caller's
/// display.
pub struct Xvfb(Option<Child>);

impl Drop for Xvfb {
    fn drop(&mut self) {
        if let Some(c) = &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Uses `$DISPLAY`, or starts Xvfb and points `$DISPLAY` at it; `None` when neither
/// works.
pub fn display() -> Option<Xvfb> {
    if std::env::var_os("DISPLAY").is_some() {
        return Some(Xvfb(None));
    }
    let mut child = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1280x720x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut line = String::new();
    let ready = child
        .stdout
        .take()
        .map(|out| BufReader::new(out).read_line(&mut line));
    let Some(Ok(_)) = ready else {
        let _ = child.kill();
        return None;
    };
    let Ok(n) = line.trim().parse::<u32>() else {
        let _ = child.kill();
        return None;
    };
    // SAFETY: single-threaded here; nothing else reads the environment yet.
    unsafe { std::env::set_var("DISPLAY", format!(":{n}")) };
    Some(Xvfb(Some(child)))
}
