//! The window's screens, as a Bevy state: the pre-battle menu ([`Screen::Setup`]),
//! the battle ([`Screen::Battle`]) and the level editor ([`Screen::Editor`]).
//!
//! Everything a screen spawns carries [`DespawnOnExit`] with that screen, so leaving
//! a screen cleans up after it, and each screen's systems run only while it is shown
//! (`run_if(in_state(...))`). The camera and the input entity live across screens.
//!
//! Also the little the screens share: leaving the battle for where it was started
//! from ([`Leave`]) and stepping through a list of choices ([`cycle`]).

use bevy::prelude::*;

/// Which screen the window shows.
#[derive(States, Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub enum Screen {
    /// Pick the level, who plays each side and their reaction policies.
    Setup,
    /// The battle.
    #[default]
    Battle,
    /// The level editor.
    Editor,
}

/// Where leaving the battle (Quit on the result screen, or the quit key) goes: out
/// of the program, or back to the screen that started it (the editor's playtest).
#[derive(Resource, Clone, Copy, Default, PartialEq, Eq, Debug)]
pub enum ReturnTo {
    /// Quit the program.
    #[default]
    Exit,
    /// Back to the pre-battle menu.
    Setup,
    /// Back to the editor (after a playtest).
    Editor,
}

/// Leaving the battle: out of the program, or back where it was started from.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Leave<'w> {
    return_to: Res<'w, ReturnTo>,
    next: ResMut<'w, NextState<Screen>>,
    exit: MessageWriter<'w, AppExit>,
}

impl Leave<'_> {
    /// Leaves the battle.
    pub fn leave(&mut self) {
        match *self.return_to {
            ReturnTo::Exit => {
                self.exit.write(AppExit::Success);
            }
            ReturnTo::Setup => self.next.set(Screen::Setup),
            ReturnTo::Editor => self.next.set(Screen::Editor),
        }
    }
}

/// The value `step` places after `current` in `all`, wrapping around (from the first
/// if `current` isn't there): how menus and the editor cycle through choices.
pub(crate) fn cycle<T: PartialEq + Copy>(all: &[T], current: T, step: isize) -> T {
    let i = all.iter().position(|x| *x == current).unwrap_or(0) as isize;
    all[(i + step).rem_euclid(all.len() as isize) as usize]
}

/// Registers what the screens share (the app inserts the first [`Screen`] itself).
pub fn plugin(app: &mut App) {
    app.init_resource::<ReturnTo>();
}
