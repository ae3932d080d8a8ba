//! Motion and feedback on the battle screen (issue 17): units glide along their
//! path, attackers lunge at their target (a projectile flies for a ranged attack),
//! damage rises as a floating number, a miss says "miss", a critical hit and a
//! reaction get a mark of their own, and defeated units fade out. The camera follows
//! a moving unit that leaves the view.
//!
//! Everything here is read from the battle's event log after the fact, from the
//! neutral record every ruleset emits (`AttackResolved`, `Damaged`, `Healed`,
//! `Defeated`; no words of a ruleset's narration): no animation changes a rule or
//! the log, and headless runs (`sim`, `script`, tests) have none.
//! [`Animations`] turns them off or changes their speed; while they play, the AI
//! waits for them unless fast-forwarded.

use std::collections::{BTreeMap, VecDeque};

use bevy::prelude::*;

use super::board_view::MapGeometry;
use super::comfort::Animations;
use super::layout::MainCamera;
use super::screen::Screen;
use super::units_view::{MarkerOf, ShapeTextures, UnitMarker, side_color};
use super::{BattleSystems, Game};
use crate::engine::event::{AttackOutcome, Event};
use crate::engine::units::UnitId;

/// Cells a gliding unit crosses per second at speed 1.
const GLIDE_CELLS_PER_SECOND: f32 = 6.0;
/// How long a lunge or a projectile takes, in seconds at speed 1.
const STRIKE_SECONDS: f32 = 0.28;
/// How long a floating number stays, in seconds at speed 1.
const FLOAT_SECONDS: f32 = 1.1;
/// How long a defeated unit takes to fade, in seconds at speed 1.
const FADE_SECONDS: f32 = 0.8;

/// What is on screen of each unit, beside the battle's own state.
#[derive(Resource, Default)]
pub struct Motion {
    /// The game generation and how many events were read.
    read: (u64, usize),
    /// Where each unit is drawn now (while it glides, between cells).
    pos: BTreeMap<UnitId, Vec2>,
    /// The cell centres each unit still has to glide through.
    paths: BTreeMap<UnitId, VecDeque<Vec2>>,
    /// Each striking unit's lunge: toward where, and how far along (0..1).
    lunges: BTreeMap<UnitId, (Vec2, f32)>,
    /// Whose turn it is as of the events read (an attack by another unit is a
    /// reaction, an opportunity attack, a free hit: it gets a mark).
    active: Option<UnitId>,
}

impl Motion {
    /// Shows the battle as it is now, without animating what led there (a replay's
    /// jump over many commands).
    pub fn skip(&mut self, generation: u64, events: usize) {
        *self = Motion {
            read: (generation, events),
            ..default()
        };
    }

    /// Whether something is still moving (the AI waits for it).
    pub fn busy(&self) -> bool {
        self.paths.values().any(|p| !p.is_empty()) || !self.lunges.is_empty()
    }

    /// Where `unit` is drawn, if it is between cells or lunging.
    pub fn drawn_at(&self, unit: UnitId) -> Option<Vec2> {
        let base = *self.pos.get(&unit)?;
        Some(match self.lunges.get(&unit) {
            Some(&(toward, t)) => base + (toward - base).clamp_length_max(12.0) * lunge_curve(t),
            None => base,
        })
    }
}

/// Out and back: 0 → 1 → 0 over a lunge.
fn lunge_curve(t: f32) -> f32 {
    1.0 - (2.0 * t - 1.0).abs()
}

/// A text or mark rising over a unit and fading.
#[derive(Component)]
struct Floating {
    age: f32,
}

/// A defeated unit fading out.
#[derive(Component)]
struct Ghost {
    age: f32,
}

/// A projectile in flight.
#[derive(Component)]
struct Projectile {
    from: Vec2,
    to: Vec2,
    age: f32,
}

/// Reads the events the screen has not shown yet and starts their animations.
fn read_events(
    mut commands: Commands,
    game: Res<Game>,
    geo: Option<Res<MapGeometry>>,
    anim: Res<Animations>,
    shapes: Res<ShapeTextures>,
    mut motion: ResMut<Motion>,
) {
    let Some(geo) = geo else { return };
    let events = game.battle.events();
    let generation = game.generation();
    if motion.read.0 != generation || motion.read.1 > events.len() {
        // A new battle, a restart or a take-back: show it as it is.
        *motion = Motion {
            read: (generation, events.len()),
            ..default()
        };
        return;
    }
    if motion.read.1 == events.len() {
        return;
    }
    let start = motion.read.1;
    motion.read.1 = events.len();
    if !anim.on {
        motion.pos.clear();
        motion.paths.clear();
        motion.lunges.clear();
        return;
    }
    let cell = geo.cell_size().min_element();
    let at =
        |motion: &Motion, u: UnitId| -> Vec2 {
            motion.pos.get(&u).copied().unwrap_or_else(|| {
                geo.center(crate::engine::battle::cell_of(game.battle.world(), u))
            })
        };
    for e in &events[start..] {
        match e {
            Event::Moved { unit, from, to, .. } => {
                let from = geo.center(*from);
                let to = geo.center(*to);
                motion.pos.entry(*unit).or_insert(from);
                motion.paths.entry(*unit).or_default().push_back(to);
            }
            Event::TurnStarted { unit, .. } => motion.active = Some(*unit),
            Event::TurnEnded { .. } => motion.active = None,
            Event::AttackResolved {
                attacker,
                target,
                outcome,
                ..
            } => {
                let unit = attacker;
                let from = at(&motion, *unit);
                let to = at(&motion, *target);
                if from.distance(to) > cell * 1.6 {
                    commands.spawn((
                        Projectile { from, to, age: 0.0 },
                        DespawnOnExit(Screen::Battle),
                        Sprite::from_color(Color::srgb(0.98, 0.92, 0.7), Vec2::new(10.0, 4.0)),
                        Transform::from_translation(from.extend(20.0)),
                    ));
                } else {
                    motion.pos.entry(*unit).or_insert(from);
                    motion.lunges.insert(*unit, (to, 0.0));
                }
                // Out of its turn: a reaction, an opportunity attack, a free hit.
                let reaction = motion.active.is_some_and(|a| a != *unit);
                // A hit shows its damage when it lands; a miss and a critical say so.
                let word = match outcome {
                    AttackOutcome::Miss | AttackOutcome::CriticalFailure => {
                        Some(("miss", Color::srgb(0.85, 0.85, 0.85)))
                    }
                    AttackOutcome::Critical => Some(("CRIT!", Color::srgb(1.0, 0.85, 0.2))),
                    AttackOutcome::Partial | AttackOutcome::Hit => None,
                };
                if let Some((text, color)) = word {
                    float(
                        &mut commands,
                        to + Vec2::new(0.0, cell * 0.2),
                        text.into(),
                        color,
                    );
                }
                if reaction {
                    float(
                        &mut commands,
                        from + Vec2::new(0.0, cell * 0.35),
                        "!".into(),
                        Color::srgb(1.0, 0.55, 0.1),
                    );
                }
            }
            Event::Damaged { unit, amount, .. } => {
                let p = at(&motion, *unit);
                float(
                    &mut commands,
                    p,
                    format!("-{amount}"),
                    if *amount > 0 {
                        Color::srgb(1.0, 0.35, 0.3)
                    } else {
                        Color::srgb(0.85, 0.85, 0.85)
                    },
                );
            }
            Event::Healed { unit, amount, .. } => {
                let p = at(&motion, *unit);
                float(
                    &mut commands,
                    p,
                    format!("+{amount}"),
                    Color::srgb(0.4, 0.95, 0.5),
                );
            }
            // Coming (back) into play is no defeat.
            Event::Defeated { unit, state, .. } if !state.is_active() => {
                let p = at(&motion, *unit);
                let side = side_index(&game, *unit);
                commands.spawn((
                    Ghost { age: 0.0 },
                    DespawnOnExit(Screen::Battle),
                    Sprite {
                        image: shapes.0[side % shapes.0.len()].clone(),
                        color: side_color(side),
                        custom_size: Some(Vec2::splat(cell * 0.62)),
                        ..default()
                    },
                    Transform::from_translation(p.extend(4.0)),
                ));
                motion.paths.remove(unit);
                motion.pos.remove(unit);
                motion.lunges.remove(unit);
            }
            _ => {}
        }
    }
}

fn side_index(game: &Game, unit: UnitId) -> usize {
    crate::engine::battle::side_of(game.battle.world(), unit).0 as usize
}

fn float(commands: &mut Commands, at: Vec2, text: String, color: Color) {
    commands.spawn((
        Floating { age: 0.0 },
        DespawnOnExit(Screen::Battle),
        Text2d::new(text),
        TextFont::from_font_size(18.0),
        TextColor(color),
        Transform::from_translation(at.extend(30.0)),
    ));
}

/// The pace of everything: the setting's speed, times 6 while fast-forwarding.
fn pace(anim: &Animations, fast: bool) -> f32 {
    anim.speed.max(0.05) * if fast { 6.0 } else { 1.0 }
}

/// Moves gliding units along their paths and advances lunges.
fn advance(
    time: Res<Time>,
    anim: Res<Animations>,
    geo: Option<Res<MapGeometry>>,
    actions: Option<
        Single<
            &leafwing_input_manager::prelude::ActionState<super::settings::BattleAction>,
            With<super::settings::Player>,
        >,
    >,
    mut motion: ResMut<Motion>,
    comfort: Res<super::comfort::Comfort>,
) {
    let Some(geo) = geo else { return };
    if motion.pos.is_empty() && motion.paths.is_empty() && motion.lunges.is_empty() {
        return;
    }
    let held = actions.is_some_and(|a| a.pressed(&super::settings::BattleAction::FastForward));
    let fast = held != comfort.fast_forward;
    let dt = frame_step(&time) * pace(&anim, fast);
    let step = GLIDE_CELLS_PER_SECOND * geo.cell_size().min_element() * dt;
    let Motion {
        pos, paths, lunges, ..
    } = &mut *motion;
    for (unit, path) in paths.iter_mut() {
        let Some(p) = pos.get_mut(unit) else {
            path.clear();
            continue;
        };
        let mut left = step;
        while let Some(&next) = path.front() {
            let d = p.distance(next);
            if d <= left {
                *p = next;
                left -= d;
                path.pop_front();
            } else {
                *p += (next - *p) / d * left;
                break;
            }
        }
    }
    paths.retain(|_, p| !p.is_empty());
    for (_, (_, t)) in lunges.iter_mut() {
        *t += dt / STRIKE_SECONDS;
    }
    lunges.retain(|_, (_, t)| *t < 1.0);
    // A unit drawn where the battle has it needs no entry.
    let moving: Vec<UnitId> = paths.keys().chain(lunges.keys()).copied().collect();
    pos.retain(|u, _| moving.contains(u));
}

/// Puts each marker where its unit is drawn.
fn place_markers(
    motion: Res<Motion>,
    game: Res<Game>,
    geo: Option<Res<MapGeometry>>,
    mut markers: Query<(&MarkerOf, &mut Transform), With<UnitMarker>>,
) {
    let Some(geo) = geo else { return };
    for (of, mut t) in &mut markers {
        let p = motion.drawn_at(of.0).unwrap_or_else(|| {
            geo.center(crate::engine::battle::cell_of(game.battle.world(), of.0))
        });
        // Compared first: a marker written every frame re-propagates its whole
        // subtree's transforms every frame.
        if t.translation.truncate() != p {
            t.translation.x = p.x;
            t.translation.y = p.y;
        }
    }
}

/// Floating marks rise and fade; ghosts fade; projectiles fly.
#[allow(clippy::type_complexity)]
fn effects(
    mut commands: Commands,
    time: Res<Time>,
    anim: Res<Animations>,
    mut floats: Query<
        (Entity, &mut Floating, &mut Transform, &mut TextColor),
        (Without<Ghost>, Without<Projectile>),
    >,
    mut ghosts: Query<(Entity, &mut Ghost, &mut Sprite), Without<Projectile>>,
    mut shots: Query<(Entity, &mut Projectile, &mut Transform), Without<Floating>>,
) {
    let dt = frame_step(&time) * pace(&anim, false);
    for (e, mut f, mut t, mut color) in &mut floats {
        f.age += dt / FLOAT_SECONDS;
        t.translation.y += dt * 30.0;
        color.0 = color.0.with_alpha((1.0 - f.age).clamp(0.0, 1.0));
        if f.age >= 1.0 {
            commands.entity(e).despawn();
        }
    }
    for (e, mut g, mut s) in &mut ghosts {
        g.age += dt / FADE_SECONDS;
        s.color = s.color.with_alpha((0.9 * (1.0 - g.age)).clamp(0.0, 1.0));
        if g.age >= 1.0 {
            commands.entity(e).despawn();
        }
    }
    for (e, mut p, mut t) in &mut shots {
        p.age += dt / STRIKE_SECONDS;
        let at = p.from.lerp(p.to, p.age.min(1.0));
        t.translation = at.extend(20.0);
        let dir = p.to - p.from;
        t.rotation = Quat::from_rotation_z(dir.y.atan2(dir.x));
        if p.age >= 1.0 {
            commands.entity(e).despawn();
        }
    }
}

/// Keeps a gliding unit in view: when it leaves the visible map, the camera moves
/// to it.
fn follow(
    motion: Res<Motion>,
    window: Single<&Window>,
    mut camera: Single<(&mut Transform, &Projection), With<MainCamera>>,
) {
    let Some(&p) = motion.paths.keys().next().and_then(|u| motion.pos.get(u)) else {
        return;
    };
    let (t, projection) = &mut *camera;
    let Projection::Orthographic(ortho) = projection else {
        return;
    };
    // Measured on the window, not on the map's area the camera draws into: the
    // unit may come near the panels before the camera moves (60% of the window's
    // half-width is about the map's half-width between the panels).
    let half = Vec2::new(window.width(), window.height()) * 0.5 * ortho.scale;
    let margin = half * 0.6;
    let d = p - t.translation.truncate();
    let out = Vec2::new(
        (d.x.abs() - margin.x).max(0.0) * d.x.signum(),
        (d.y.abs() - margin.y).max(0.0) * d.y.signum(),
    );
    t.translation.x += out.x;
    t.translation.y += out.y;
}

/// Registers motion and feedback.
pub fn plugin(app: &mut App) {
    app.init_resource::<Motion>();
    app.add_systems(
        Update,
        (read_events, advance, place_markers, effects, follow)
            .chain()
            .in_set(BattleSystems::FollowUnits)
            .run_if(in_state(Screen::Battle)),
    );
}

/// The longest frame an animation advances by at once (a 30 fps frame): after a hitch (a slow frame
/// of a software renderer, a loaded machine) a glide goes on from where it was
/// instead of jumping most of the way in one frame.
const MAX_FRAME_STEP: f32 = 1.0 / 30.0;

/// The time an animation advances this frame ([`MAX_FRAME_STEP`] at most).
fn frame_step(time: &Time) -> f32 {
    time.delta_secs().min(MAX_FRAME_STEP)
}
