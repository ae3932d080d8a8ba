//! Frame time of the battle screen against a bare tilemap (issue 17).
//!
//! Renders, for a few hundred frames each, (1) the battle screen of the 24×24
//! benchmark level with its 16 units (HUD, overlays, markers with icons, motion
//! systems) and (2) a bare `bevy_ecs_tilemap` map of the same size with the same
//! window and renderer, and reports the mean, median and 95th-percentile frame time
//! of each and their ratio, and the longest frame (issue 33 asks for none over
//! [`SLOW_MS`]). Each runs in a child process (winit allows one event loop per
//! process); vsync is off so the renderer's own cost shows.
//!
//! ```sh
//! xvfb-run -a -s "-screen 0 1280x720x24" cargo run --release --example frame_time
//! ```
//!
//! To see where the battle screen's time goes, `FRAME_TIME_OFF` lists parts of it
//! to leave out (comma-separated; see [`PARTS`]), e.g. `FRAME_TIME_OFF=ui,gizmos`;
//! only the example hides them, the game is unchanged. `frame_time --battle
//! --screenshot FILE` saves the battle screen as measured (with those parts off)
//! instead of measuring it. `FRAME_TIME_BARE=one-thread` runs the bare map's
//! schedules on one thread as the game does (Bevy's default is the task pool's
//! threads). The report ends with what the battle screen's last
//! frame drew: UI nodes, texts and their glyphs, sprites, and the draw batches of
//! each (a software renderer pays for every glyph and every batch).

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
/// A frame longer than this (in ms) is a visible hitch.
const SLOW_MS: f64 = 50.0;

/// The parts of the battle screen `FRAME_TIME_OFF` can leave out, and what each is.
const PARTS: [(&str, &str); 11] = [
    ("ui", "every UI node (panels, turn strip, card, log, texts)"),
    (
        "panel-bg",
        "the background colours of top-level UI nodes (the bars, side panels, turn \
         strip and decision prompt draw none: the map's camera leaves their colour \
         around the map)",
    ),
    ("text", "every UI text"),
    ("strip", "the turn strip"),
    ("card", "the unit card"),
    ("log", "the combat log's rows"),
    ("markers", "the unit markers (with their badges and bars)"),
    ("badges", "the markers' condition badges"),
    ("overlays", "the reach/threat tiles"),
    ("gizmos", "the gizmo rings, outlines and paths"),
    ("map", "the terrain tilemap"),
];

/// The measured frame times.
#[derive(Resource, Default)]
struct Frames {
    seen: u32,
    times: Vec<Duration>,
    /// The process's CPU time when measuring started.
    cpu_start: Option<Duration>,
    /// Each thread's CPU time when measuring started (see [`thread_times`]).
    threads_start: Vec<ThreadTime>,
}

/// A thread's id, name and CPU time so far.
type ThreadTime = (u32, String, Duration);

/// The CPU time of each of this process's threads (Linux), to tell the software
/// renderer's rasterizer threads (`llvmpipe-N`) from the app's own.
fn thread_times() -> Vec<ThreadTime> {
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    dir.filter_map(|e| {
        let e = e.ok()?;
        let tid: u32 = e.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
        let (head, rest) = stat.rsplit_once(')')?;
        let name = head.split_once('(')?.1.to_string();
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks: u64 =
            fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
        Some((tid, name, Duration::from_millis(ticks * 10)))
    })
    .collect()
}

/// The CPU time (ms a frame over `frames`) spent since `start` by the software
/// rasterizer's threads, by the main thread (the app's systems) and by the others
/// (the render thread, the task pools).
fn thread_split(start: &[ThreadTime], frames: usize) -> [f64; 3] {
    let main = std::process::id();
    let mut split = [0.0; 3];
    for (tid, name, now) in thread_times() {
        let before = start
            .iter()
            .find(|(t, _, _)| *t == tid)
            .map_or(Duration::ZERO, |(_, _, d)| *d);
        let group = if name.starts_with("llvmpipe") {
            0
        } else if tid == main {
            1
        } else {
            2
        };
        split[group] += now.saturating_sub(before).as_secs_f64() * 1e3 / frames as f64;
    }
    split
}

/// The CPU time this process (all its threads: the app, the render thread and the
/// software renderer's) has used so far, where the system tells (Linux): on a
/// shared, busy machine it varies less than the wall-clock frame time.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command's closing parenthesis; utime and stime are the
    // 14th and 15th fields of the line, in clock ticks (100 a second on Linux).
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// Draw batches of the last frame, counted in the render world: the UI's and the
/// sprites' (each is a draw call; a software renderer pays for each).
#[derive(Resource, Clone, Default)]
struct Batches(std::sync::Arc<[std::sync::atomic::AtomicUsize; 2]>);

fn count_batches(
    batches: Res<Batches>,
    ui: Query<&bevy::ui_render::UiBatch>,
    sprites: Option<Res<bevy::sprite_render::SpriteBatches>>,
) {
    use std::sync::atomic::Ordering::Relaxed;
    batches.0[0].store(ui.iter().count(), Relaxed);
    batches.0[1].store(sprites.map_or(0, |s| s.len()), Relaxed);
}

/// Counts, on `app`'s render world, the draw batches of each frame.
fn count_draws(app: &mut App) {
    let batches = Batches::default();
    app.insert_resource(batches.clone());
    app.sub_app_mut(bevy::render::RenderApp)
        .insert_resource(batches)
        .add_systems(
            bevy::render::Render,
            count_batches.in_set(bevy::render::RenderSystems::Render),
        );
}

/// What the last frame drew: UI nodes and texts shown, their glyphs, sprites, and
/// the draw batches of the UI and of the sprites.
type Drawn = (usize, usize, usize, usize, usize, usize);

fn drawn(
    nodes: &Query<(
        &ComputedNode,
        &InheritedVisibility,
        Option<&bevy::text::TextLayoutInfo>,
    )>,
    sprites: &Query<&ViewVisibility, With<Sprite>>,
    batches: &Batches,
) -> Drawn {
    use std::sync::atomic::Ordering::Relaxed;
    let shown = || nodes.iter().filter(|(n, v, _)| v.get() && !n.is_empty());
    (
        shown().count(),
        shown().filter(|(_, _, t)| t.is_some()).count(),
        shown()
            .filter_map(|(_, _, t)| t)
            .map(|t| t.glyphs.len())
            .sum(),
        sprites.iter().filter(|v| v.get()).count(),
        batches.0[0].load(Relaxed),
        batches.0[1].load(Relaxed),
    )
}

fn measure(
    time: Res<Time>,
    mut frames: ResMut<Frames>,
    mut exit: MessageWriter<AppExit>,
    nodes: Query<(
        &ComputedNode,
        &InheritedVisibility,
        Option<&bevy::text::TextLayoutInfo>,
    )>,
    sprites: Query<&ViewVisibility, With<Sprite>>,
    batches: Res<Batches>,
) {
    frames.seen += 1;
    if frames.seen <= WARMUP {
        frames.cpu_start = cpu_time();
        frames.threads_start = thread_times();
        return;
    }
    frames.times.push(time.delta());
    if frames.times.len() >= FRAMES {
        let mut ms: Vec<f64> = frames.times.iter().map(|d| d.as_secs_f64() * 1e3).collect();
        ms.sort_by(f64::total_cmp);
        let mean = ms.iter().sum::<f64>() / ms.len() as f64;
        let p50 = ms[ms.len() / 2];
        let p95 = ms[ms.len() * 95 / 100];
        let max = ms[ms.len() - 1];
        let slow = ms.iter().filter(|&&t| t > SLOW_MS).count();
        let cpu = match (frames.cpu_start, cpu_time()) {
            (Some(a), Some(b)) => (b - a).as_secs_f64() * 1e3 / ms.len() as f64,
            _ => f64::NAN,
        };
        println!(
            "frame-time {mean:.3} {p50:.3} {p95:.3} {max:.3} {slow} {cpu:.3} {}",
            ms.len()
        );
        let [raster, main, others] = thread_split(&frames.threads_start, ms.len());
        println!("threads {raster:.3} {main:.3} {others:.3}");
        let (n, t, g, s, ub, sb) = drawn(&nodes, &sprites, &batches);
        println!("drawn {n} {t} {g} {s} {ub} {sb}");
        exit.write(AppExit::Success);
    }
}

fn no_vsync(mut windows: Query<&mut Window>) {
    for mut w in &mut windows {
        w.present_mode = PresentMode::AutoNoVsync;
    }
}

/// The player at the keys confirms the hot-seat hand-off (both sides are human
/// here), so the battle screen shows rather than the hand-off screen over it.
fn at_the_keys(mut seat: ResMut<skirmish::game::handoff::Seat>) {
    if !seat.seat.map_visible() {
        seat.seat.confirm();
    }
}

/// The battle screen of the benchmark level, both sides at the keys (nothing
/// moves: the screen as a player looks at it, the first decision's prompt up).
fn battle(screenshot: Option<std::path::PathBuf>) -> AppExit {
    let off = match parts_off() {
        Ok(off) => off,
        Err(e) => {
            eprintln!("{e}");
            return AppExit::error();
        }
    };
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
        screenshot,
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
    count_draws(&mut app);
    app.add_systems(Startup, no_vsync);
    app.add_systems(Update, (at_the_keys, measure));
    if !off.is_empty() {
        app.insert_resource(Off(off));
        app.add_systems(
            PostUpdate,
            leave_out.before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
        );
    }
    let exit = app.run();
    let _ = std::fs::remove_file(path);
    exit
}

/// The parts `FRAME_TIME_OFF` names, checked against [`PARTS`].
fn parts_off() -> Result<Vec<&'static str>, String> {
    let Ok(list) = std::env::var("FRAME_TIME_OFF") else {
        return Ok(Vec::new());
    };
    list.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            PARTS
                .iter()
                .map(|(name, _)| *name)
                .find(|n| *n == p)
                .ok_or_else(|| {
                    let valid: Vec<String> = PARTS
                        .iter()
                        .map(|(n, what)| format!("  {n}: {what}"))
                        .collect();
                    format!(
                        "FRAME_TIME_OFF: unknown part `{p}`; the parts are:\n{}",
                        valid.join("\n")
                    )
                })
        })
        .collect()
}

/// The parts of the battle screen left out.
#[derive(Resource)]
struct Off(Vec<&'static str>);

/// Hides the parts left out (every frame: the game shows some of them again).
#[allow(clippy::type_complexity)]
fn leave_out(
    off: Res<Off>,
    mut nodes: Query<
        (
            &mut Visibility,
            Option<&mut BackgroundColor>,
            Has<ChildOf>,
            Has<Text>,
            Has<skirmish::game::turn_strip::TurnStrip>,
            Has<skirmish::game::unit_card::UnitCard>,
            Has<skirmish::game::layout::LogRows>,
        ),
        With<Node>,
    >,
    mut world: Query<
        (
            &mut Visibility,
            Has<skirmish::game::units_view::UnitMarker>,
            Has<skirmish::game::units_view::Badge>,
            Has<skirmish::game::overlays::OverlayTile>,
            Has<skirmish::game::overlays::ThreatTile>,
            Has<skirmish::game::board_view::TerrainMap>,
        ),
        Without<Node>,
    >,
    mut gizmos: ResMut<GizmoConfigStore>,
) {
    let on = |part: &str| off.0.contains(&part);
    for (mut v, bg, child, text, strip, card, log) in &mut nodes {
        let hide = (on("ui") && !child)
            || (on("text") && text)
            || (on("strip") && strip)
            || (on("card") && card)
            || (on("log") && log);
        if hide {
            v.set_if_neq(Visibility::Hidden);
        }
        if on("panel-bg")
            && !child
            && let Some(mut bg) = bg
        {
            bg.set_if_neq(BackgroundColor(Color::NONE));
        }
    }
    for (mut v, marker, badge, overlay, threat, map) in &mut world {
        let hide = (on("markers") && marker)
            || (on("badges") && badge)
            || (on("overlays") && (overlay || threat))
            || (on("map") && map);
        if hide {
            v.set_if_neq(Visibility::Hidden);
        }
    }
    if on("gizmos") {
        for (_, config, _) in gizmos.iter_mut() {
            config.enabled = false;
        }
    }
}

/// A bare 24×24 tilemap in the same window, through a camera set as the game's.
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
    // The battle screen runs its schedules on one thread (`skirmish::game::one_thread`);
    // Bevy's default spreads them over the task pool.
    if std::env::var("FRAME_TIME_BARE").as_deref() == Ok("one-thread") {
        skirmish::game::one_thread(&mut app);
    }
    app.init_resource::<Frames>();
    count_draws(&mut app);
    app.add_systems(Startup, spawn_bare);
    app.add_systems(Update, measure);
    app.run()
}

fn spawn_bare(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    // The game's camera settings (no multisampling, see `skirmish::game::control`),
    // so the two differ only in what they draw. (The battle screen's map camera
    // draws only into the map's area between the panels, and a second camera the
    // UI; this one draws the whole window.)
    commands.spawn((Camera2d, Msaa::Off));
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

/// What a child process measured: mean, median, 95th percentile and longest
/// frame (ms), the frames over [`SLOW_MS`] and the CPU ms a frame; the CPU ms a
/// frame of the rasterizer, main and other threads (see [`thread_split`]); and
/// what its last frame drew (see [`Drawn`]).
struct Run {
    times: [f64; 6],
    threads: Vec<f64>,
    drawn: Vec<usize>,
}

/// Runs this example in `mode` in a child process and reads its lines.
fn child(mode: &str) -> Result<Run, String> {
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
    let numbers = |prefix: &str| -> Vec<f64> {
        text.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .map(|l| {
                l.split_whitespace()
                    .filter_map(|n| n.parse().ok())
                    .collect()
            })
            .unwrap_or_default()
    };
    let times = numbers("frame-time ");
    let drawn = numbers("drawn ").into_iter().map(|n| n as usize).collect();
    match times.get(..6) {
        Some(&[a, b, c, d, e, f]) => Ok(Run {
            times: [a, b, c, d, e, f],
            threads: numbers("threads "),
            drawn,
        }),
        _ => Err(format!("{mode}: unreadable line `{line}`")),
    }
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["--battle"] => return exit_code(battle(None)),
        ["--battle", "--screenshot", file] => return exit_code(battle(Some(file.into()))),
        ["--bare"] => return exit_code(bare()),
        [] => {}
        _ => {
            eprintln!(
                "usage: frame_time [--battle [--screenshot FILE] | --bare] \
                 (FRAME_TIME_OFF=part,... leaves parts of the battle screen out)"
            );
            return std::process::ExitCode::from(2);
        }
    }
    if let Err(e) = parts_off() {
        eprintln!("frame_time: {e}");
        return std::process::ExitCode::from(2);
    }
    let (battle, bare) = match (child("--battle"), child("--bare")) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("frame_time: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    println!("{FRAMES} frames each after {WARMUP} of warm-up, 1280x720, vsync off");
    if let Ok(Some(off)) = parts_off().map(|o| (!o.is_empty()).then(|| o.join(","))) {
        println!("battle screen without: {off}");
    }
    println!(
        "{:<34} {:>9} {:>9} {:>9} {:>9} {:>7} {:>8}",
        "", "mean ms", "median", "p95", "max", ">50 ms", "CPU ms"
    );
    for (name, run) in [
        ("battle screen, 24x24, 16 units", &battle),
        ("bare bevy_ecs_tilemap 24x24", &bare),
    ] {
        let [mean, p50, p95, max, slow, cpu] = run.times;
        println!("{name:<34} {mean:>9.2} {p50:>9.2} {p95:>9.2} {max:>9.2} {slow:>7} {cpu:>8.2}");
    }
    for (name, run) in [("battle screen", &battle), ("bare map", &bare)] {
        if let [raster, main, others] = run.threads[..] {
            println!(
                "{name}'s CPU ms a frame: {raster:.2} rasterizing (llvmpipe's threads), \
                 {main:.2} on the main thread, {others:.2} on the others (rendering, task pools)"
            );
        }
    }
    if let [nodes, texts, glyphs, sprites, ui_batches, sprite_batches] = battle.drawn[..] {
        println!(
            "the battle screen's last frame drew {nodes} UI nodes ({texts} texts, {glyphs} \
             glyphs) in {ui_batches} draw batches, and {sprites} sprites in {sprite_batches}"
        );
    }
    let (battle, bare) = (battle.times, bare.times);
    println!(
        "longest battle frame {:.1} ms: {}",
        battle[3],
        if battle[4] > 0.0 {
            format!("{} frames over {SLOW_MS} ms", battle[4])
        } else {
            format!("no frame over {SLOW_MS} ms")
        }
    );
    println!(
        "battle screen / bare map: {:.2}x (mean), {:.2}x (median), {:.2}x (CPU time a frame)",
        battle[0] / bare[0],
        battle[1] / bare[1],
        battle[5] / bare[5]
    );
    std::process::ExitCode::SUCCESS
}

fn exit_code(exit: AppExit) -> std::process::ExitCode {
    match exit {
        AppExit::Success => std::process::ExitCode::SUCCESS,
        AppExit::Error(_) => std::process::ExitCode::FAILURE,
    }
}
