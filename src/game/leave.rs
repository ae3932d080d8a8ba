//! Leaving a battle mid-way: when the quit key (or the window's close button) would
//! lose commands that no save holds, a prompt asks first — **1** Save and leave (the
//! battle goes into the next autosave file, which the menu's Continue and
//! `skirmish play --continue` resume), **2** Leave without saving, **3** or Esc
//! Stay. A battle that is over, has no command yet, or whose last save (autosave,
//! F5, or the file it was continued from) holds it as it is, is left at once; so is
//! one in a run that saves nothing (`GameOptions::saves` is `None`). The AI waits
//! while the prompt is up.

use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;

use super::choices::UiState;
use super::saves::{SaveState, save_for_later};
use super::screen::{Leave, Screen};
use super::settings::{BattleAction, Player};
use super::{BattleSystems, Game, Options};

/// The leave prompt: open with what leaving would lose, in words.
#[derive(Resource, Default, Debug)]
pub struct LeavePrompt {
    /// What leaving now would lose; `None` while the prompt is closed.
    pub open: Option<String>,
}

impl LeavePrompt {
    /// The player asks to leave `game`: opens the prompt and returns `true` when
    /// leaving would lose commands no save holds and this run saves; `false` means
    /// leave now.
    pub fn ask(&mut self, game: &Game, state: &SaveState, options: &Options) -> bool {
        if options.0.saves.is_none() {
            return false;
        }
        self.open = state.unsaved(game);
        self.open.is_some()
    }
}

/// What the prompt offers.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaveChoice {
    /// Save into the next autosave file, then leave.
    SaveAndLeave,
    /// Leave; the commands since the last save are lost.
    LeaveWithoutSaving,
    /// Close the prompt and play on.
    Stay,
}

/// The prompt and what a system needs to open it (every part optional, so systems
/// that also run without the battle's plugins can use it).
#[derive(bevy::ecs::system::SystemParam)]
pub struct LeaveGuard<'w> {
    prompt: Option<ResMut<'w, LeavePrompt>>,
    state: Option<Res<'w, SaveState>>,
    options: Option<Res<'w, Options>>,
}

impl LeaveGuard<'_> {
    /// Whether the prompt is up (the battle's other input waits).
    pub fn is_open(&self) -> bool {
        self.prompt.as_ref().is_some_and(|p| p.open.is_some())
    }

    /// The player asks to leave `game`: `true` when the prompt opened instead (see
    /// [`LeavePrompt::ask`]), `false` to leave now.
    pub fn ask(&mut self, game: &Game) -> bool {
        match (&mut self.prompt, &self.state, &self.options) {
            (Some(prompt), Some(state), Some(options)) => prompt.ask(game, state, options),
            _ => false,
        }
    }
}

/// The prompt's screen.
#[derive(Component)]
struct LeaveScreen;

/// Its text.
#[derive(Component)]
struct LeaveText;

/// The prompt's text: what leaving would lose and where a save goes.
pub fn prompt_text(reason: &str) -> String {
    format!(
        "Leave the battle?\n\n{reason}\n\nSave and leave: the menu's Continue (C) or \
         `skirmish play --continue` resumes it."
    )
}

fn spawn(mut commands: Commands, mut prompt: ResMut<LeavePrompt>) {
    prompt.open = None;
    let button = |label: &str, choice: LeaveChoice| {
        (
            Button,
            choice,
            Node {
                padding: UiRect::axes(px(12), px(8)),
                ..default()
            },
            BackgroundColor(Color::srgb(0.18, 0.2, 0.26)),
            children![(
                Text::new(label),
                TextFont::from_font_size(16.0),
                TextColor(Color::srgb(0.92, 0.92, 0.9)),
            )],
        )
    };
    commands.spawn((
        LeaveScreen,
        DespawnOnExit(Screen::Battle),
        Node {
            position_type: PositionType::Absolute,
            left: percent(25),
            right: percent(25),
            top: percent(25),
            padding: UiRect::all(px(20)),
            flex_direction: FlexDirection::Column,
            row_gap: px(10),
            border: UiRect::all(px(2)),
            ..default()
        },
        BackgroundColor(Color::srgba(0.06, 0.07, 0.1, 0.97)),
        BorderColor::all(Color::WHITE),
        Visibility::Hidden,
        // Above the result screen and the hot-seat hand-off.
        GlobalZIndex(60),
        children![
            (
                LeaveText,
                Text::new(""),
                TextFont::from_font_size(18.0),
                TextColor(Color::WHITE),
            ),
            button("[1] Save and leave", LeaveChoice::SaveAndLeave),
            button("[2] Leave without saving", LeaveChoice::LeaveWithoutSaving),
            button("[3] Stay (Esc)", LeaveChoice::Stay),
        ],
    ));
}

/// Shows or hides the prompt.
fn update(
    prompt: Res<LeavePrompt>,
    mut screen: Query<&mut Visibility, With<LeaveScreen>>,
    mut text: Query<&mut Text, With<LeaveText>>,
) {
    if !prompt.is_changed() {
        return;
    }
    for mut vis in &mut screen {
        *vis = if prompt.open.is_some() {
            Visibility::Visible
        } else {
            Visibility::Hidden
        };
    }
    if let Some(reason) = &prompt.open {
        for mut t in &mut text {
            t.0 = prompt_text(reason);
        }
    }
}

/// The player's answer: by key (1, 2, 3 or Esc) or by a click on a button.
#[allow(clippy::too_many_arguments)]
fn answer(
    actions: Single<&ActionState<BattleAction>, With<Player>>,
    buttons: Query<(&Interaction, &LeaveChoice), Changed<Interaction>>,
    mut prompt: ResMut<LeavePrompt>,
    game: Res<Game>,
    options: Res<Options>,
    mut state: ResMut<SaveState>,
    mut ui: ResMut<UiState>,
    mut leave: Leave,
) {
    if prompt.open.is_none() {
        return;
    }
    use BattleAction as A;
    let a = *actions;
    let by_key = if a.just_pressed(&A::Option1) {
        Some(LeaveChoice::SaveAndLeave)
    } else if a.just_pressed(&A::Option2) {
        Some(LeaveChoice::LeaveWithoutSaving)
    } else if a.just_pressed(&A::Option3) || a.just_pressed(&A::Cancel) {
        Some(LeaveChoice::Stay)
    } else {
        None
    };
    let clicked = buttons
        .iter()
        .find(|(i, _)| **i == Interaction::Pressed)
        .map(|(_, c)| *c);
    let Some(choice) = by_key.or(clicked) else {
        return;
    };
    prompt.open = None;
    match choice {
        LeaveChoice::Stay => {}
        LeaveChoice::LeaveWithoutSaving => leave.leave(),
        LeaveChoice::SaveAndLeave => {
            let Some(dir) = &options.0.saves else {
                ui.message = Some(("saving is off in this run".into(), true));
                return;
            };
            match save_for_later(&game, dir, &mut state) {
                Ok(path) => {
                    info!("saved to {}", path.display());
                    leave.leave();
                }
                // Never leave a battle whose save failed.
                Err(e) => ui.message = Some((format!("save failed, still here: {e}"), true)),
            }
        }
    }
}

/// Registers the leave prompt; its answer is read after the battle's input, which
/// opens it and waits while it is up.
pub fn plugin(app: &mut App) {
    app.init_resource::<LeavePrompt>();
    app.add_systems(OnEnter(Screen::Battle), spawn);
    app.add_systems(
        Update,
        (answer, update)
            .chain()
            .in_set(BattleSystems::Dialogs)
            .run_if(in_state(Screen::Battle)),
    );
}
