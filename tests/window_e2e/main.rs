//! End-to-end tests of the game in a real window (Xvfb + software Vulkan): the
//! battle screens (`battle`), the level editor (`editor`) and a battle saved, quit,
//! continued and finished in two processes (`resume`), driven by real input.
//!
//! Runs without the test harness so the window's event loop owns the main thread,
//! and runs each case in a child process of its own (winit allows one event loop per
//! process). One executable for both keeps `cargo test` to a single extra Bevy link.
//! Needs an X display: uses `$DISPLAY`, or starts `Xvfb` itself (CI installs it).

use std::process::Command as Process;

mod badges;
mod battle;
mod editor;
mod replay;
mod resume;
mod xvfb;

use xvfb::display;

fn main() {
    let root = env!("CARGO_MANIFEST_DIR");
    std::env::set_current_dir(root).expect("cd to the crate");
    // A child runs one case: `--battle N`, `--badges N`, `--editor`, `--replay` or `--resume`.
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--battle") {
        let n: usize = args
            .get(i + 1)
            .and_then(|n| n.parse().ok())
            .expect("case number");
        battle::run_child(n);
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--badges") {
        let n: usize = args
            .get(i + 1)
            .and_then(|n| n.parse().ok())
            .expect("case number");
        badges::run_child(n);
        return;
    }
    if args.iter().any(|a| a == "--editor") {
        editor::run_child();
        return;
    }
    if args.iter().any(|a| a == "--replay") {
        replay::run_child();
        return;
    }
    // `--resume` runs the save-quit-continue case, itself as two processes
    // (`--resume-part 1`, `--resume-part 2`).
    if let Some(i) = args.iter().position(|a| a == "--resume-part") {
        resume::run_part_child(args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(1));
        return;
    }
    if args.iter().any(|a| a == "--resume") {
        resume::run_child();
        return;
    }
    let Some(_x) = display() else {
        eprintln!("window e2e test: no $DISPLAY and no Xvfb: install xvfb (CI does) — FAILING");
        std::process::exit(1);
    };
    let exe = std::env::current_exe().expect("the test binary");
    let mut children: Vec<Vec<String>> = (0..battle::cases())
        .map(|n| vec!["--battle".to_string(), n.to_string()])
        .collect();
    children.extend((0..badges::cases()).map(|n| vec!["--badges".to_string(), n.to_string()]));
    children.push(vec!["--editor".to_string()]);
    children.push(vec!["--replay".to_string()]);
    children.push(vec!["--resume".to_string()]);
    let mut failed = false;
    for args in children {
        // The player's own comfort settings (animations off, a UI scale) stay out
        // of the tests: each case starts from the defaults.
        let status = Process::new(&exe)
            .args(&args)
            .env(
                "SKIRMISH_CONFIG_DIR",
                concat!(env!("CARGO_TARGET_TMPDIR"), "/e2e-config"),
            )
            .status()
            .expect("run a case");
        failed |= !status.success();
    }
    if failed {
        std::process::exit(1);
    }
}
