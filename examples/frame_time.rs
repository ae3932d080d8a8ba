//! Frame time of the battle screen against a bare tilemap (issue 17).
//!
//! Renders, for a few hundred frames each, (1) the battle screen of the 24×24
//! benchmark level with its 16 units (HUD, overlays, markers with icons, motion
//! systems) and (2) a bare `bevy_ecs_tilemap` map of the same size with the same
//! window and renderer, and reports the mean, median and 95th-percentile frame time
//! of each and their ratio. Each runs in a child process (winit allows one event
//! loop per process); vsync is off so the renderer's own cost shows.
//!
//! ```sh
//! xvfb-run -a -s "-screen 0 1280x720x24" cargo run --release --example frame_time
//! ```

use std::time::Duration;

use bevy::prelude::*;
use bevy::window::PresentMode;
use bevy_ecs_tilemap::prelude::*;

#[path = "../benches/bench_level.rs"]
mod bench_level;

/// Frames drawn before measuring (shaders compile, the HUD lays out).
const WARMUP: u32 = 90;
/// Frames measured.
const FRAMES: usize = 400;

/// The measured frame times.
#[derive(Resource, Default)]
struct Frames {
    seen: u32,
    times: Vec<Duration>,
}

fn measure(time: Res<Time>, mut frames: ResMut<Frames>, mut exit: MessageWriter<AppExit>) {
    frames.seen += 1;
    if frames.seen <= WARMUP {
        return;
    }
    frames.times.push(time.delta());
    if frames.times.len() >= FRAMES {
        let mut ms: Vec<f64> = frames.times.iter().map(|d| d.as_secs_f64() * 1e3).collect();
        ms.sort_by(f64::total_cmp);
        let mean = ms.iter().sum::<f64>() / ms.len() as f64;
        let p50 = ms[ms.len() / 2];
        let p95 = ms[ms.len() * 95 / 100];
        println!("frame-time {mean:.3} {p50:.3} {p95:.3} {}", ms.len());
        exit.write(AppExit::Success);
    }
}

fn no_vsync(mut windows: Query<&mut Window>) {
    for mut w in &mut windows {
        w.present_mode = PresentMode::AutoNoVsync;
    }
}

/// The battle screen of the benchmark level, both sides at the keys (nothing
/// moves: the screen as a player looks at it).
fn battle() -> AppExit {
    let mut level = bench_level::bench_level();
    for side in &mut level.sides {
        side.controller = skirmish::level::schema::Controller::Human;
    }
    let path = std::env::temp_dir().join(format!("skirmish-frame-time-{}.ron", std::process::id()));
    let text = skirmish::level::to_ron_string(&level);
    if let Err(e) = std::fs::write(&path, text) {
        eprintln!("{}: {e}", path.display());
        return AppExit::error();
    }
    let app = skirmish::game::build_app(skirmish::game::GameOptions {
        level_path: path.clone(),
        size: (1280, 720),
        start: skirmish::game::screen::Screen::Battle,
        ..Default::default()
    });
    let mut app = match app {
        Ok(app) => app,
        Err(e) => {
            eprintln!("{e}");
            return AppExit::error();
        }
    };
    app.init_resource::<Frames>();
    app.add_systems(Startup, no_vsync);
    app.add_systems(Update, measure);
    let exit = app.run();
    let _ = std::fs::remove_file(path);
    exit
}

/// A bare 24×24 tilemap in the same window.
fn bare() -> AppExit {
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "bare tilemap".into(),
                    resolution: bevy::window::WindowResolution::new(1280, 720),
                    present_mode: PresentMode::AutoNoVsync,
                    ..default()
                }),
                ..default()
            })
            .set(ImagePlugin::default_nearest()),
    );
    app.add_plugins(TilemapPlugin);
    app.init_resource::<Frames>();
    app.add_systems(Startup, spawn_bare);
    app.add_systems(Update, measure);
    app.run()
}

fn spawn_bare(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    commands.spawn(Camera2d);
    let texture = images.add(skirmish::game::board_view::terrain_texture(
        skirmish::engine::board::GridKind::Square,
    ));
    let size = TilemapSize { x: 24, y: 24 };
    let map = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    for x in 0..size.x {
        for y in 0..size.y {
            let position = TilePos { x, y };
            let tile = commands
                .spawn(TileBundle {
                    position,
                    tilemap_id: TilemapId(map),
                    texture_index: TileTextureIndex((x + y) % 3),
                    ..default()
                })
                .id();
            storage.set(&position, tile);
        }
    }
    let tile = TilemapTileSize { x: 64.0, y: 64.0 };
    commands.entity(map).insert(TilemapBundle {
        grid_size: tile.into(),
        size,
        storage,
        texture: TilemapTexture::Single(texture),
        tile_size: tile,
        map_type: TilemapType::Square,
        anchor: TilemapAnchor::Center,
        transform: Transform::from_scale(Vec3::splat(0.45)),
        ..default()
    });
}

/// Runs this example in `mode` in a child process and reads its line.
fn child(mode: &str) -> Result<[f64; 3], String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let out = std::process::Command::new(exe)
        .arg(mode)
        .output()
        .map_err(|e| format!("{mode}: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("frame-time "))
        .ok_or_else(|| {
            format!(
                "{mode}: no measurement ({}); is there a display? Run under xvfb-run",
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .last()
                    .unwrap_or("")
            )
        })?;
    let v: Vec<f64> = line
        .split_whitespace()
        .skip(1)
        .take(3)
        .filter_map(|n| n.parse().ok())
        .collect();
    match v.as_slice() {
        [a, b, c] => Ok([*a, *b, *c]),
        _ => Err(format!("{mode}: unreadable line `{line}`")),
    }
}

fn main() -> std::process::ExitCode {
    match std::env::args().nth(1).as_deref() {
        Some("--battle") => return exit_code(battle()),
        Some("--bare") => return exit_code(bare()),
        _ => {}
    }
    let (battle, bare) = match (child("--battle"), child("--bare")) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("frame_time: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    println!("{FRAMES} frames each after {WARMUP} of warm-up, 1280x720, vsync off");
    println!("{:<34} {:>9} {:>9} {:>9}", "", "mean ms", "median", "p95");
    for (name, [mean, p50, p95]) in [
        ("battle screen, 24x24, 16 units", battle),
        ("bare bevy_ecs_tilemap 24x24", bare),
    ] {
        println!("{name:<34} {mean:>9.2} {p50:>9.2} {p95:>9.2}");
    }
    println!(
        "battle screen / bare map: {:.2}x (mean), {:.2}x (median)",
        battle[0] / bare[0],
        battle[1] / bare[1]
    );
    std::process::ExitCode::SUCCESS
}

fn exit_code(exit: AppExit) -> std::process::ExitCode {
    match exit {
        AppExit::Success => std::process::ExitCode::SUCCESS,
        AppExit::Error(_) => std::process::ExitCode::FAILURE,
    }
}
