//! The replay viewer (issue 16): `skirmish replay FILE` (and the menu's "Watch …
//! (R)", the latest autosave)
//! shows a battle file on the battle screen, read-only. Space plays or pauses;
//! `.` and `,` step one command forward and back, Shift with them one turn; `]` and
//! `[` change the speed; Home and End go to the start and the end; a click on a
//! command in the replay panel jumps there. The map, HUD and log show the battle
//! after that many commands, rebuilt from the level, the dice and the commands
//! ([`BattleFile::battle_at`]); nobody can give a command and the AI does not play.

use std::path::Path;

use bevy::prelude::*;

use super::Game;
use super::screen::Screen;
use crate::replay::{BattleFile, Timeline};

/// A battle being watched.
#[derive(Resource)]
pub struct Replay {
    /// The file.
    pub file: BattleFile,
    /// Where each command leaves the battle.
    pub timeline: Timeline,
    /// Commands shown (0 ..= the file's).
    pub at: usize,
    /// Playing on by itself.
    pub playing: bool,
    /// Commands per second while playing.
    pub speed: f32,
    /// Seconds to the next command while playing.
    wait: f32,
    /// Why the shown point could not be rebuilt, if it could not.
    pub error: Option<String>,
    /// The file's name, for the banner.
    pub name: String,
}

impl Replay {
    /// A replay of `file`, at its start; the error says why it can't be watched.
    pub fn open(path: &Path) -> Result<(Replay, Game), String> {
        let file = BattleFile::load(path)?;
        let shown = crate::level::load::shown_path(path);
        let timeline = file
            .timeline()
            .map_err(|e| format!("{shown}: does not reproduce: {e}"))?;
        let battle = file.battle_at(0).map_err(|e| format!("{shown}: {e}"))?;
        let game = Game::watching(battle, &file);
        Ok((
            Replay {
                file,
                timeline,
                at: 0,
                playing: false,
                speed: 2.0,
                wait: 0.0,
                error: None,
                name: shown,
            },
            game,
        ))
    }

    /// The battle after `k` commands into `game` (clamped to the file's). A jump of
    /// more than one command forward is shown as it lands, not animated.
    pub fn jump(&mut self, game: &mut Game, k: usize, motion: &mut super::motion::Motion) {
        let from = self.at;
        self.goto(game, k);
        if self.at > from + 1 {
            motion.skip(game.generation(), game.battle.events().len());
        }
    }

    /// The battle after `k` commands into `game` (clamped to the file's).
    pub fn goto(&mut self, game: &mut Game, k: usize) {
        let k = k.min(self.timeline.commands());
        match self.file.battle_at(k) {
            Ok(battle) => {
                game.battle = battle;
                game.shown_events = game.shown_events.min(game.battle.events().len());
                game.version += 1;
                self.at = k;
                self.error = None;
            }
            Err(e) => {
                self.error = Some(e.to_string());
                self.playing = false;
            }
        }
    }
}

/// Marks the replay banner's text.
#[derive(Component)]
struct ReplayBanner;

/// Marks the replay panel's command list.
#[derive(Component)]
struct ReplayList;

/// A command of the list: jumps to the battle after it.
#[derive(Component)]
struct JumpTo(usize);

/// Commands listed around the current one.
const LISTED: usize = 5;

fn spawn(mut commands: Commands, replay: Option<Res<Replay>>) {
    if replay.is_none() {
        return;
    }
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        Node {
            position_type: PositionType::Absolute,
            left: percent(25),
            right: percent(25),
            bottom: px(30),
            padding: UiRect::all(px(8)),
            flex_direction: FlexDirection::Column,
            row_gap: px(2),
            ..default()
        },
        BackgroundColor(Color::srgba(0.05, 0.06, 0.09, 0.92)),
        BorderColor::all(Color::srgb(0.55, 0.45, 0.12)),
        GlobalZIndex(20),
        children![
            (
                ReplayBanner,
                Text::new(""),
                TextFont::from_font_size(14.0),
                TextColor(Color::srgb(0.95, 0.85, 0.45)),
            ),
            (
                ReplayList,
                Node {
                    flex_direction: FlexDirection::Column,
                    row_gap: px(1),
                    ..default()
                },
            ),
        ],
    ));
}

/// Keys: play/pause, step, turn, speed, start/end, quit.
fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    replay: Option<ResMut<Replay>>,
    mut game: ResMut<Game>,
    mut motion: ResMut<super::motion::Motion>,
    mut leave: super::screen::Leave,
) {
    let Some(mut replay) = replay else { return };
    let shift = keys.pressed(KeyCode::ShiftLeft) || keys.pressed(KeyCode::ShiftRight);
    let at = replay.at;
    let n = replay.timeline.commands();
    let target = if keys.just_pressed(KeyCode::Period) {
        Some(if shift {
            replay.timeline.next_turn(at)
        } else {
            at + 1
        })
    } else if keys.just_pressed(KeyCode::Comma) {
        Some(if shift {
            replay.timeline.previous_turn(at)
        } else {
            at.saturating_sub(1)
        })
    } else if keys.just_pressed(KeyCode::Home) {
        Some(0)
    } else if keys.just_pressed(KeyCode::End) {
        Some(n)
    } else {
        None
    };
    if keys.just_pressed(KeyCode::KeyQ) {
        leave.leave();
        return;
    }
    if keys.just_pressed(KeyCode::Space) {
        replay.playing = !replay.playing && at < n;
        replay.wait = 0.0;
    }
    if keys.just_pressed(KeyCode::BracketRight) {
        replay.speed = (replay.speed * 2.0).min(32.0);
    }
    if keys.just_pressed(KeyCode::BracketLeft) {
        replay.speed = (replay.speed / 2.0).max(0.25);
    }
    if let Some(k) = target {
        replay.playing = false;
        replay.jump(&mut game, k, &mut motion);
        return;
    }
    if replay.playing {
        replay.wait -= time.delta_secs();
        if replay.wait <= 0.0 {
            replay.wait = 1.0 / replay.speed;
            let next = replay.at + 1;
            replay.goto(&mut game, next);
            if replay.at >= n {
                replay.playing = false;
            }
        }
    }
}

/// A click on a listed command jumps to the battle after it.
fn clicks(
    buttons: Query<(&Interaction, &JumpTo), Changed<Interaction>>,
    replay: Option<ResMut<Replay>>,
    mut game: ResMut<Game>,
    mut motion: ResMut<super::motion::Motion>,
) {
    let Some(mut replay) = replay else { return };
    for (interaction, jump) in &buttons {
        if *interaction == Interaction::Pressed {
            replay.playing = false;
            replay.jump(&mut game, jump.0, &mut motion);
        }
    }
}

/// What the banner and list show: the point, playing, the speed's bits, the error.
type Shown = (usize, bool, u32, Option<String>);

/// The banner and the command list, when the point shown changed.
fn show(
    mut commands: Commands,
    replay: Option<Res<Replay>>,
    game: Res<Game>,
    mut banner: Query<&mut Text, With<ReplayBanner>>,
    list: Query<Entity, With<ReplayList>>,
    mut shown: Local<Option<Shown>>,
) {
    let Some(replay) = replay else { return };
    let key = (
        replay.at,
        replay.playing,
        replay.speed.to_bits(),
        replay.error.clone(),
    );
    if shown.as_ref() == Some(&key) {
        return;
    }
    *shown = Some(key);
    let n = replay.timeline.commands();
    let round = game.battle.turn().round;
    if let Ok(mut text) = banner.single_mut() {
        text.0 = format!(
            "REPLAY  {}  ({})  command {}/{n}, round {round}  {}  speed {}/s\n\
             Space play/pause   , . step   Shift+, . turn   [ ] speed   Home End   \
             click a command to jump   Q quit{}",
            game.level.name,
            replay.name,
            replay.at,
            if replay.playing { "playing" } else { "paused" },
            replay.speed,
            replay
                .error
                .as_ref()
                .map(|e| format!("\n{e}"))
                .unwrap_or_default(),
        );
    }
    let Ok(list) = list.single() else { return };
    commands.entity(list).despawn_related::<Children>();
    let first = replay
        .at
        .saturating_sub(LISTED / 2)
        .min(n.saturating_sub(LISTED));
    commands.entity(list).with_children(|p| {
        for k in first..(first + LISTED).min(n) {
            let words = short(&replay.file.commands[k], &game.battle);
            let done = k < replay.at;
            let current = k + 1 == replay.at;
            p.spawn((
                Button,
                JumpTo(k + 1),
                Node {
                    padding: UiRect::axes(px(6), px(1)),
                    ..default()
                },
                BackgroundColor(if current {
                    Color::srgb(0.55, 0.45, 0.12)
                } else {
                    Color::srgba(0.16, 0.18, 0.23, 0.9)
                }),
                children![(
                    Text::new(super::theme::ascii(&format!("{:>3}. {words}", k + 1)).into_owned()),
                    TextFont::from_font_size(12.0),
                    TextColor(if done {
                        Color::srgb(0.9, 0.9, 0.9)
                    } else {
                        Color::srgb(0.55, 0.57, 0.62)
                    }),
                )],
            ));
        }
    });
}

/// A command in a few words: "Knight Charge to (5, 2)", "Ranger attacks Shaman
/// with Longbow"; others as scenarios write them.
fn short(cmd: &crate::engine::Command, battle: &crate::engine::Battle) -> String {
    use crate::engine::Command as C;
    let n = |u: &crate::engine::units::UnitId| battle.unit_name(*u);
    match cmd {
        C::Move {
            unit, power, path, ..
        } => match path.last() {
            Some(c) => format!("{} {power} to ({}, {})", n(unit), c.x, c.y),
            None => format!("{} {power}", n(unit)),
        },
        C::Attack {
            unit,
            target,
            power,
            ..
        } => match power {
            Some(p) => format!("{} attacks {} with {p}", n(unit), n(target)),
            None => format!("{} attacks {}", n(unit), n(target)),
        },
        C::EndTurn { unit } => format!("{} ends its turn", n(unit)),
        other => other.display(battle).to_string(),
    }
}

/// Whether no replay is being watched: the systems that play (input, the AI,
/// saves, hand-offs) run only then.
pub fn playing(replay: Option<Res<Replay>>) -> bool {
    replay.is_none()
}

/// Leaving the battle screen ends the replay: the next battle is played again.
fn stop(mut commands: Commands) {
    commands.remove_resource::<Replay>();
}

/// Registers the viewer.
pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Battle), spawn);
    app.add_systems(OnExit(Screen::Battle), stop);
    app.add_systems(
        Update,
        (keys, clicks, show)
            .chain()
            .run_if(in_state(Screen::Battle)),
    );
}
