//! End-to-end: condition badges (issue 33). A battle is played by the AI until
//! units carry conditions; then the pointer is put on a badge by real input (the X
//! pointer warped onto it) and the tooltip must show the badge's icon, name, rule,
//! effect and duration; the unit card lists the shown unit's conditions as icon
//! rows; then the pointer on the unit itself gives the tooltip of all its
//! conditions; last, the pointer on an enemy's entry in the turn strip names and
//! rings it; last, with the show-names key (Alt) held, every plate shown is clear of
//! the others. The tooltips must lie wholly inside the map's area. Screenshots:
//! `e2e-badges-<level>.png`, with the badge's tooltip open,
//! `e2e-badges-<level>-strip.png`, with the strip's entry hovered, and
//! `e2e-badges-<level>-names.png`, with Alt held.

use std::path::PathBuf;

use crate::battle::press;
use bevy::input::ButtonState;
use bevy::input::keyboard::KeyboardInput;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use rand::SeedableRng;
use skirmish::engine::battle::Awaiting;
use skirmish::game::choices::{Choices, UiState, human_turn, submit};
use skirmish::game::layout::MainCamera;
use skirmish::game::screen::Screen;
use skirmish::game::turn_strip::StripEntry;
use skirmish::game::unit_card::CardBadge;
use skirmish::game::units_view::{Badge, BadgeTooltip, BadgeTooltipText, NamePlate, unit_badges};
use skirmish::game::{Game, GameOptions};

/// One battle to badge.
#[derive(Resource, Clone, Copy)]
struct Case {
    /// The level file.
    level: &'static str,
    /// Play until the units on the board carry this many conditions in all.
    conditions: usize,
}

const CASES: [Case; 4] = [
    // A phases battle: Slowed by the Shield Bash and the Net, the movement powers'
    // own conditions.
    Case {
        level: "levels/bridge.ron",
        conditions: 4,
    },
    // wounds: aimed wounds, boosts, Prone; several wounds of a place count up.
    Case {
        level: "levels/wounds_mill.ron",
        conditions: 6,
    },
    // escalation on a big map (24 wide) fitted to the window: badges stay legible.
    Case {
        level: "levels/escalation_harpy_crag.ron",
        conditions: 3,
    },
    // phases on hexes: badges at the right of a hex.
    Case {
        level: "levels/hex_ruins.ron",
        conditions: 2,
    },
];

/// Where the screenshot of `level` goes, `tail` after its name (`""` or `"-strip"`).
fn shot(level: &str, tail: &str) -> PathBuf {
    let stem = std::path::Path::new(level)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("level");
    PathBuf::from(format!(
        "{}/e2e-badges-{stem}{tail}.png",
        env!("CARGO_TARGET_TMPDIR")
    ))
}

/// What the driver has done.
#[derive(Resource, Default)]
struct Drive {
    frame: u32,
    commands: u32,
    /// The frame of the last command or of the last glide (markers glide for a
    /// while after a command).
    last_command: u32,
    /// The badge pointed at (its unit and condition), and the frame.
    pointed: Option<(skirmish::engine::units::UnitId, String, u32)>,
    /// The unit's cell pointed at after its badge, and the frame.
    unit_at: Option<(skirmish::engine::board::Cell, u32)>,
    /// The unit whose strip entry is pointed at last, and the frame.
    entry_at: Option<(skirmish::engine::units::UnitId, u32)>,
}

fn fail(exit: &mut MessageWriter<AppExit>, why: String) {
    eprintln!("e2e badges: {why}");
    exit.write(AppExit::error());
}

#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn driver(
    case: Res<Case>,
    mut drive: ResMut<Drive>,
    game: Option<ResMut<Game>>,
    mut ui: ResMut<UiState>,
    choices: Res<Choices>,
    mut rng: Local<Option<rand::rngs::ChaCha8Rng>>,
    mut primary: Single<(Entity, &mut Window), With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<MainCamera>>,
    badges: Query<(&Badge, &GlobalTransform)>,
    tooltip: Single<(&Visibility, &ComputedNode, &UiGlobalTransform), With<BadgeTooltip>>,
    tooltip_text: Single<&Text, With<BadgeTooltipText>>,
    card_badges: Query<(), With<CardBadge>>,
    geo: Option<Res<skirmish::game::board_view::MapGeometry>>,
    (entries, lit, motion, plates, mut keys): (
        Query<(&StripEntry, &UiGlobalTransform)>,
        Res<skirmish::game::turn_strip::Lit>,
        Res<skirmish::game::motion::Motion>,
        Plates,
        MessageWriter<KeyboardInput>,
    ),
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
) {
    drive.frame += 1;
    let (tooltip, tip_size, tip_at) = *tooltip;
    let (window_entity, window) = &mut *primary;
    let window_entity = *window_entity;
    let Some(mut game) = game else { return };
    if drive.frame < 10 {
        return;
    }
    // Last, an enemy's entry in the turn strip pointed at: it names and rings its
    // unit (screenshot), then the run ends.
    if let Some((unit, at)) = drive.entry_at {
        if drive.frame == at + 8 {
            if lit.strip != Some(unit) {
                return fail(
                    &mut exit,
                    format!(
                        "the pointer is on {unit:?}'s strip entry, the strip says {:?}",
                        lit.strip
                    ),
                );
            }
            screenshot(&mut commands, shot(case.level, "-strip"));
        }
        // Then the show-names key (Alt) held: every unit's plate shows, none over
        // another (screenshot).
        if drive.frame == at + 12 {
            press(
                &mut keys,
                window_entity,
                KeyCode::AltLeft,
                ButtonState::Pressed,
            );
        }
        if drive.frame == at + 22 {
            if let Err(e) = plates_apart(&plates, game.battle.units().len()) {
                return fail(&mut exit, format!("Alt held: {e}"));
            }
            screenshot(&mut commands, shot(case.level, "-names"));
        }
        if drive.frame == at + 30 {
            press(
                &mut keys,
                window_entity,
                KeyCode::AltLeft,
                ButtonState::Released,
            );
            exit.write(AppExit::Success);
        }
        return;
    }
    if drive.frame > 3000 {
        return fail(
            &mut exit,
            format!("gave up on {} after 3000 frames", case.level),
        );
    }
    // Play (both sides, as the AI would) until enough conditions are on the board.
    let on_board: usize = game
        .battle
        .units()
        .iter()
        .filter(|u| u.state.on_board())
        .map(|u| u.conditions.len())
        .sum();
    // Stop on a turn of one of the player's units (the game's own AI waits then, so
    // the badges stay put, and the card shows the unit).
    let enough = on_board >= case.conditions
        && human_turn(&game.battle)
        && matches!(game.battle.awaiting(), Awaiting::Unit(..));
    if drive.pointed.is_none() && !enough && drive.commands < 400 {
        if matches!(game.battle.awaiting(), Awaiting::Over(_)) {
            return fail(
                &mut exit,
                format!("{} ended with {on_board} conditions", case.level),
            );
        }
        let rng = rng.get_or_insert_with(|| rand::rngs::ChaCha8Rng::seed_from_u64(7));
        let Some(cmd) = skirmish::ai::choose(&game.battle, skirmish::ai::AiPolicy::Normal, rng)
        else {
            return fail(&mut exit, "the AI found no command".into());
        };
        submit(&mut game, &mut ui, cmd);
        drive.commands += 1;
        drive.last_command = drive.frame;
        return;
    }
    // Let the markers glide to their cells before pointing at one: commands come
    // a frame apart here, so a unit may have several moves' paths still to glide
    // along (a fifth of a cell a frame at most) long after the last command.
    if drive.pointed.is_none() && motion.busy() {
        drive.last_command = drive.frame;
    }
    if drive.frame < drive.last_command + 10 {
        return;
    }
    let (camera, transform) = *camera;
    match drive.pointed.clone() {
        None => {
            // A badge of a ruleset's condition (not a dying unit's state).
            let Some((badge, at)) = badges
                .iter()
                .find(|(b, _)| matches!(b.shown.as_slice(), [one] if !one.badge.rule.is_empty()))
            else {
                if drive.frame.is_multiple_of(100) {
                    eprintln!("e2e badges: no badge on the map yet ({on_board} conditions)");
                }
                return;
            };
            let Ok(pos) = camera.world_to_viewport(transform, at.translation()) else {
                return fail(&mut exit, "the badge is off screen".into());
            };
            // Warp the X pointer onto the badge: the window learns of it as of a
            // hand on the mouse.
            window.set_cursor_position(Some(pos));
            let name = badge.shown[0].name.clone();
            drive.pointed = Some((badge.unit, name.clone(), drive.frame));
            println!(
                "e2e badges: {} after {} commands; pointing at {}'s {} at {pos}",
                case.level,
                drive.commands,
                game.battle.unit_name(badge.unit),
                name
            );
        }
        Some((unit, name, at)) if drive.frame == at + 8 && drive.unit_at.is_none() => {
            let Some((badge, _)) = badges
                .iter()
                .find(|(b, _)| b.unit == unit && b.shown.first().is_some_and(|s| s.name == name))
            else {
                return fail(&mut exit, format!("the badge of {name} went away"));
            };
            let b = &badge.shown[0].badge;
            let text = &tooltip_text.0;
            if *tooltip == Visibility::Hidden {
                let at: Vec<String> = badges
                    .iter()
                    .map(|(b, t)| {
                        format!("{:?} {}", b.shown.first().map(|s| &s.name), t.translation())
                    })
                    .collect();
                let world = window
                    .cursor_position()
                    .and_then(|p| camera.viewport_to_world_2d(transform, p).ok());
                return fail(
                    &mut exit,
                    format!(
                        "no tooltip over the badge of {name}: the pointer is at {:?} (world {world:?}); badges {at:?}",
                        window.cursor_position()
                    ),
                );
            }
            let wanted = [
                name.clone(),
                format!("[{}]", b.rule),
                b.effect.to_string(),
                format!("Lasts: {}", b.duration),
            ];
            let missing: Vec<&String> = wanted
                .iter()
                .filter(|w| !text.contains(w.as_str()))
                .collect();
            if !missing.is_empty() {
                return fail(
                    &mut exit,
                    format!("the tooltip says {text:?}, without {missing:?}"),
                );
            }
            if let Err(e) = inside_map(window, tip_size, tip_at) {
                return fail(&mut exit, format!("the tooltip of {name}: {e}"));
            }
            println!("e2e badges: tooltip {text:?}");
            // The unit card: one icon row per badge of the unit it shows.
            let shown = choices.unit.or(game.battle.turn().active);
            if let Some(v) = shown.and_then(|u| game.battle.units().into_iter().find(|v| v.id == u))
            {
                let rows = card_badges.iter().len();
                let want = unit_badges(&game.battle, &v).len();
                if rows != want {
                    return fail(
                        &mut exit,
                        format!(
                            "the unit card lists {rows} conditions of {}, not {want}",
                            v.name
                        ),
                    );
                }
            }
            // The screenshot with the tooltip open, then the unit itself.
            screenshot(&mut commands, shot(case.level, ""));
            let cell = skirmish::engine::battle::cell_of(game.battle.world(), unit);
            drive.unit_at = Some((cell, drive.frame));
        }
        Some(_) => {
            // Then (the screenshot taken) the pointer on the unit: unless its cell
            // is a move or a target of the unit to act, the tooltip lists all its
            // conditions under its name.
            let Some((cell, at)) = drive.unit_at else {
                return;
            };
            if drive.frame == at + 6 {
                let Some(geo) = geo.as_ref() else {
                    return fail(&mut exit, "no map geometry".into());
                };
                let Ok(pos) = camera.world_to_viewport(transform, geo.center(cell).extend(0.0))
                else {
                    return fail(&mut exit, "the unit is off screen".into());
                };
                window.set_cursor_position(Some(pos));
            }
            if drive.frame != at + 16 {
                return;
            }
            let Some(v) = game
                .battle
                .units()
                .into_iter()
                .find(|v| v.state.on_board() && v.cell == cell)
            else {
                return fail(&mut exit, format!("no unit at {cell}"));
            };
            if !choices.targets.contains_key(&cell) && !choices.moves.contains_key(&cell) {
                let text = &tooltip_text.0;
                let names: Vec<String> = unit_badges(&game.battle, &v)
                    .into_iter()
                    .map(|b| b.name)
                    .collect();
                if *tooltip == Visibility::Hidden
                    || !text.starts_with(&format!("{}:", v.name))
                    || names.iter().any(|n| !text.contains(n.as_str()))
                {
                    return fail(
                        &mut exit,
                        format!(
                            "over {} the tooltip says {text:?} ({:?}), not its conditions {names:?}",
                            v.name, tooltip
                        ),
                    );
                }
                if let Err(e) = inside_map(window, tip_size, tip_at) {
                    return fail(&mut exit, format!("the tooltip over {}: {e}", v.name));
                }
                println!("e2e badges: over the unit, the tooltip says {text:?}");
            }
            // An enemy's strip entry (not the unit to act's, not one out of the fight).
            let active = game.battle.turn().active;
            let us = active.map(|u| skirmish::engine::battle::side_of(game.battle.world(), u));
            let Some((entry, at)) = entries.iter().find(|(e, _)| {
                !e.out
                    && Some(e.unit) != active
                    && Some(skirmish::engine::battle::side_of(
                        game.battle.world(),
                        e.unit,
                    )) != us
            }) else {
                return fail(&mut exit, "no enemy entry in the turn strip".into());
            };
            let scale = window.scale_factor();
            window.set_cursor_position(Some(at.translation / scale));
            drive.entry_at = Some((entry.unit, drive.frame));
        }
    }
}

/// Whether a tooltip laid out `size` large at `at` lies wholly inside the map's
/// area (clear of the side panels, the turn strip and the log).
fn inside_map(window: &Window, size: &ComputedNode, at: &UiGlobalTransform) -> Result<(), String> {
    let s = window.scale_factor();
    let tip = Rect::from_center_size(at.translation / s, size.size() / s);
    let area = skirmish::game::layout::map_area(window);
    let out = tip.min.x < area.min.x - 0.5
        || tip.min.y < area.min.y - 0.5
        || tip.max.x > area.max.x + 0.5
        || tip.max.y > area.max.y + 0.5;
    if out {
        return Err(format!("at {tip:?}, past the map's area {area:?}"));
    }
    Ok(())
}

/// The name plates' parts (their backings carry a sprite) and whether they show.
type Plates<'w, 's> = Query<
    'w,
    's,
    (
        &'static NamePlate,
        &'static Sprite,
        &'static GlobalTransform,
        &'static InheritedVisibility,
    ),
>;

/// Checks that the name plates shown cover no other plate, and that there are
/// some (of `units` units); prints how many.
fn plates_apart(plates: &Plates, units: usize) -> Result<(), String> {
    let shown: Vec<(skirmish::engine::units::UnitId, Rect)> = plates
        .iter()
        .filter(|(_, _, _, seen)| seen.get())
        .filter_map(|(plate, sprite, at, _)| {
            let (scale, _, centre) = at.to_scale_rotation_translation();
            let size = sprite.custom_size? * scale.truncate();
            Some((plate.0, Rect::from_center_size(centre.truncate(), size)))
        })
        .collect();
    for (i, (a, ra)) in shown.iter().enumerate() {
        for (b, rb) in &shown[..i] {
            let both = ra.intersect(*rb);
            if !both.is_empty() && both.width() * both.height() > 1.0 {
                return Err(format!(
                    "the plates of {a:?} ({ra:?}) and {b:?} ({rb:?}) overlap"
                ));
            }
        }
    }
    if shown.len() < units.min(3) {
        return Err(format!(
            "{} name plates shown of {units} units",
            shown.len()
        ));
    }
    println!(
        "e2e badges: Alt held, {} name plates of {units} units, none over another",
        shown.len()
    );
    Ok(())
}

/// Saves a screenshot of the window to `path`.
fn screenshot(commands: &mut Commands, path: PathBuf) {
    commands
        .spawn(bevy::render::view::screenshot::Screenshot::primary_window())
        .observe(
            move |shot: On<bevy::render::view::screenshot::ScreenshotCaptured>| {
                let img = shot.image.clone().try_into_dynamic().expect("screenshot");
                img.to_rgb8().save(&path).expect("save screenshot");
            },
        );
}

fn run_case(case: Case) -> Result<(), String> {
    let paths = [
        shot(case.level, ""),
        shot(case.level, "-strip"),
        shot(case.level, "-names"),
    ];
    for path in &paths {
        let _ = std::fs::remove_file(path);
    }
    let mut app = skirmish::game::build_app(GameOptions {
        level_path: case.level.into(),
        size: (1280, 720),
        seed: Some(7),
        start: Screen::Battle,
        ..Default::default()
    })?;
    app.insert_resource(case);
    app.init_resource::<Drive>();
    app.add_systems(Update, driver);
    let result = app.run();
    if !matches!(result, AppExit::Success) {
        return Err(format!("the drive did not complete: {result:?}"));
    }
    for path in &paths {
        if !path.exists() {
            return Err(format!("no screenshot at {}", path.display()));
        }
    }
    Ok(())
}

/// Runs badge case `n` in this process (a child of [`crate::main`]).
pub fn run_child(n: usize) {
    match run_case(CASES[n]) {
        Ok(()) => println!(
            "window e2e test: badges on {} ok (screenshot {})",
            CASES[n].level,
            shot(CASES[n].level, "").display()
        ),
        Err(e) => {
            eprintln!("window e2e test: badges on {}: {e}", CASES[n].level);
            std::process::exit(1);
        }
    }
}

/// How many badge cases there are.
pub fn cases() -> usize {
    CASES.len()
}
