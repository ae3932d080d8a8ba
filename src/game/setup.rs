//! The pre-battle menu: which level, who plays each side (a person or an AI
//! policy) and how each side answers optional decisions such as `flow` reactions
//! (ask, automatic, never). It starts from what the level file says; nothing here
//! changes the file.
//!
//! Keys: W/S pick a side, A/D change who plays it, Tab its decision policy, the
//! arrow keys switch level, Enter starts, E opens the level in the editor, Q quits.
//! Every control is also a button.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

use super::screen::{ReturnTo, Screen, cycle};
use super::settings::{BattleAction, Player};
use super::units_view::{SIDE_SHAPES, side_color};
use super::{Game, Options};
use crate::level::Level;
use crate::level::schema::{AiPolicy, Controller, DecisionPolicy};

const BG: Color = Color::srgba(0.05, 0.06, 0.08, 0.97);
const TEXT: Color = Color::srgb(0.92, 0.92, 0.9);
const DIM: Color = Color::srgb(0.65, 0.67, 0.7);
const BAD: Color = Color::srgb(1.0, 0.45, 0.4);
const BUTTON: Color = Color::srgb(0.18, 0.2, 0.26);
const SELECTED: Color = Color::srgb(0.28, 0.32, 0.42);

/// The controllers a side can have, in the order A/D cycles them.
pub const CONTROLLERS: [Controller; 5] = [
    Controller::Human,
    Controller::Ai(AiPolicy::Random),
    Controller::Ai(AiPolicy::Easy),
    Controller::Ai(AiPolicy::Normal),
    Controller::Ai(AiPolicy::Hard),
];

/// The decision policies, in the order Tab cycles them.
pub const POLICIES: [DecisionPolicy; 3] = [
    DecisionPolicy::Ask,
    DecisionPolicy::Auto,
    DecisionPolicy::Never,
];

/// How a controller reads in the menu.
pub fn controller_label(c: Controller) -> String {
    match c {
        Controller::Human => "Human".into(),
        Controller::Ai(p) => format!("AI {}", crate::ai::policy_name(p)),
    }
}

/// How a decision policy reads in the menu.
pub fn policy_label(p: DecisionPolicy) -> &'static str {
    match p {
        DecisionPolicy::Ask => "ask me",
        DecisionPolicy::Auto => "automatic",
        DecisionPolicy::Never => "never",
    }
}

/// The menu's state: the level (as loaded, with the menu's changes to its sides),
/// the other levels to switch to, and the selected side.
#[derive(Resource, Debug, Clone)]
pub struct Setup {
    /// The level file.
    pub path: PathBuf,
    /// The level, or why it can't be played.
    pub level: Result<Level, String>,
    /// Levels in the same folder, to switch between.
    pub levels: Vec<PathBuf>,
    /// The selected side row.
    pub row: usize,
    /// The dice seed (from the command line, the level, or 1).
    pub seed: Option<u64>,
    /// Bumped on every change, so the view knows to rebuild.
    pub version: u64,
    /// The ruleset levels are played under instead of their own (`play --ruleset`).
    pub ruleset: Option<String>,
}

impl Setup {
    /// The menu for the level at `path` (its folder's other levels listed to switch).
    pub fn new(path: &Path, seed: Option<u64>) -> Self {
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let mut levels: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|rd| {
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|e| e == "ron"))
                    .collect()
            })
            .unwrap_or_default();
        if !levels.iter().any(|p| same_file(p, path)) {
            levels.push(path.to_path_buf());
        }
        levels.sort();
        let mut setup = Self {
            path: path.to_path_buf(),
            level: Err(String::new()),
            levels,
            row: 0,
            seed,
            version: 0,
            ruleset: None,
        };
        setup.load(path);
        setup
    }

    /// The menu playing its levels under `ruleset` instead of their own, if given.
    pub fn with_ruleset(mut self, ruleset: Option<String>) -> Self {
        if ruleset.is_some() {
            self.ruleset = ruleset;
            let path = self.path.clone();
            self.load(&path);
        }
        self
    }

    fn load(&mut self, path: &Path) {
        self.path = path.to_path_buf();
        self.level = crate::level::load::load_for_play(path, self.ruleset.as_deref());
        self.row = 0;
        self.version += 1;
    }

    /// Switches to the next (`step` 1) or previous (-1) level of the folder.
    pub fn switch_level(&mut self, step: isize) {
        if self.levels.is_empty() {
            return;
        }
        let i = self
            .levels
            .iter()
            .position(|p| same_file(p, &self.path))
            .unwrap_or(0) as isize;
        let next = self.levels[(i + step).rem_euclid(self.levels.len() as isize) as usize].clone();
        self.load(&next);
    }

    /// Moves the side selection.
    pub fn select(&mut self, step: isize) {
        if let Ok(level) = &self.level
            && !level.sides.is_empty()
        {
            self.row = (self.row as isize + step).rem_euclid(level.sides.len() as isize) as usize;
            self.version += 1;
        }
    }

    /// Cycles who plays side `row`.
    pub fn cycle_controller(&mut self, row: usize, step: isize) {
        if let Ok(level) = &mut self.level
            && let Some(side) = level.sides.get_mut(row)
        {
            side.controller = cycle(&CONTROLLERS, side.controller, step);
            self.row = row;
            self.version += 1;
        }
    }

    /// Cycles side `row`'s decision policy.
    pub fn cycle_policy(&mut self, row: usize) {
        if let Ok(level) = &mut self.level
            && let Some(side) = level.sides.get_mut(row)
        {
            side.decisions = cycle(&POLICIES, side.decisions, 1);
            self.row = row;
            self.version += 1;
        }
    }

    /// A battle on the level as set up here.
    pub fn game(&self) -> Result<Game, String> {
        let level = self.level.clone()?;
        let seed = self.seed.or(level.seed).unwrap_or(1);
        Ok(Game::new(level, seed)?.with_path(Some(self.path.clone())))
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (a.canonicalize(), b.canonicalize()),
            (Ok(x), Ok(y)) if x == y
        )
}

/// The menu's root node.
#[derive(Component)]
struct SetupRoot;

/// What a menu button does.
#[derive(Component, Clone, Copy, Debug)]
enum SetupButton {
    Controller(usize),
    Policy(usize),
    Level(isize),
    Start,
    Continue,
    Watch,
    Edit,
    Quit,
}

/// The latest autosave this run may continue, if saving is on and there is one.
fn continuable(options: &Options) -> Option<(std::path::PathBuf, crate::replay::BattleFile)> {
    super::saves::latest(options.0.saves.as_deref()?)
}

/// Watches the latest autosave in the replay viewer, from its start (or says why
/// it can't).
fn watch(
    setup: &mut Setup,
    commands: &mut Commands,
    next: &mut NextState<Screen>,
    options: &Options,
) {
    let Some((path, _)) = continuable(options) else {
        return;
    };
    match super::replay_view::Replay::open(&path) {
        Ok((replay, game)) => {
            commands.insert_resource(game);
            commands.insert_resource(replay);
            commands.insert_resource(ReturnTo::Setup);
            next.set(Screen::Battle);
        }
        Err(e) => {
            setup.level = Err(e);
            setup.version += 1;
        }
    }
}

/// Continues the latest autosave (or says why it can't).
fn resume(
    setup: &mut Setup,
    commands: &mut Commands,
    next: &mut NextState<Screen>,
    options: &Options,
) {
    let Some((path, file)) = continuable(options) else {
        return;
    };
    let game = super::Game::from_file(&file)
        .map_err(|e| format!("{}: cannot continue: {e}", path.display()));
    match game {
        Ok(game) => {
            commands.insert_resource(game);
            commands.insert_resource(ReturnTo::Setup);
            next.set(Screen::Battle);
        }
        Err(e) => {
            setup.level = Err(e);
            setup.version += 1;
        }
    }
}

/// Opens the menu's level in the editor.
fn edit(setup: &Setup, commands: &mut Commands, next: &mut NextState<Screen>, options: &Options) {
    let options = super::GameOptions {
        level_path: setup.path.clone(),
        seed: setup.seed,
        ..options.0.clone()
    };
    commands.insert_resource(super::editor::initial_editor(&options));
    next.set(Screen::Editor);
}

/// Starts the battle from the menu (or says why it can't).
fn start(setup: &mut Setup, commands: &mut Commands, next: &mut NextState<Screen>) {
    match setup.game() {
        Ok(game) => {
            commands.insert_resource(game);
            commands.insert_resource(ReturnTo::Setup);
            next.set(Screen::Battle);
        }
        Err(e) => {
            setup.level = Err(e);
            setup.version += 1;
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn keys(
    actions: Single<&ActionState<BattleAction>, With<Player>>,
    mut setup: ResMut<Setup>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    mouse: Res<ButtonInput<MouseButton>>,
    options: Res<Options>,
    comfort: Res<super::comfort::ComfortPanel>,
) {
    use BattleAction as A;
    // While the settings are up only their keys count.
    if comfort.open {
        return;
    }
    let a = *actions;
    let row = setup.row;
    if a.just_pressed(&A::CursorUp) {
        setup.select(-1);
    }
    if a.just_pressed(&A::CursorDown) {
        setup.select(1);
    }
    if a.just_pressed(&A::CursorLeft) {
        setup.cycle_controller(row, -1);
    }
    if a.just_pressed(&A::CursorRight) {
        setup.cycle_controller(row, 1);
    }
    if a.just_pressed(&A::NextPower) {
        setup.cycle_policy(row);
    }
    if a.just_pressed(&A::PanLeft) {
        setup.switch_level(-1);
    }
    if a.just_pressed(&A::PanRight) {
        setup.switch_level(1);
    }
    if a.just_pressed(&A::Quit) {
        exit.write(AppExit::Success);
    }
    if a.just_pressed(&A::Edit) {
        edit(&setup, &mut commands, &mut next, &options);
        return;
    }
    // C continues the latest autosave; R watches it from its start.
    if a.just_pressed(&A::NextChoice) {
        resume(&mut setup, &mut commands, &mut next, &options);
        return;
    }
    if a.just_pressed(&A::Restart) {
        watch(&mut setup, &mut commands, &mut next, &options);
        return;
    }
    // Enter starts; a mouse click goes to the buttons instead.
    if a.just_pressed(&A::Confirm) && !mouse.just_pressed(MouseButton::Left) {
        start(&mut setup, &mut commands, &mut next);
    }
}

fn clicks(
    buttons: Query<(&Interaction, &SetupButton), Changed<Interaction>>,
    mut setup: ResMut<Setup>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    options: Res<Options>,
) {
    for (interaction, button) in &buttons {
        if *interaction != Interaction::Pressed {
            continue;
        }
        match *button {
            SetupButton::Controller(row) => setup.cycle_controller(row, 1),
            SetupButton::Policy(row) => setup.cycle_policy(row),
            SetupButton::Level(step) => setup.switch_level(step),
            SetupButton::Start => start(&mut setup, &mut commands, &mut next),
            SetupButton::Continue => resume(&mut setup, &mut commands, &mut next, &options),
            SetupButton::Watch => watch(&mut setup, &mut commands, &mut next, &options),
            SetupButton::Edit => edit(&setup, &mut commands, &mut next, &options),
            SetupButton::Quit => {
                exit.write(AppExit::Success);
            }
        }
    }
}

fn text(value: impl Into<String>, size: f32, color: Color) -> impl Bundle {
    (
        Text::new(value),
        TextFont::from_font_size(size),
        TextColor(color),
    )
}

fn button(label: impl Into<String>, action: SetupButton, selected: bool) -> impl Bundle {
    (
        Button,
        action,
        Node {
            padding: UiRect::axes(px(12), px(6)),
            min_width: px(130),
            justify_content: JustifyContent::Center,
            ..default()
        },
        BackgroundColor(if selected { SELECTED } else { BUTTON }),
        children![text(label, 16.0, TEXT)],
    )
}

/// The menu's line of keys: `C` continue and `R` watch only when there is an
/// autosave (`saved`), since without one they do nothing.
fn key_hint(saved: bool) -> String {
    let resume = if saved { "C continue   R watch   " } else { "" };
    format!(
        "W/S side   A/D who plays   Tab decisions   Left/Right level   Enter start   {resume}E edit   Q quit"
    )
}

/// Rebuilds the menu when the setup changed.
fn view(
    mut commands: Commands,
    setup: Res<Setup>,
    options: Res<Options>,
    root: Query<Entity, With<SetupRoot>>,
    mut shown: Local<Option<u64>>,
) {
    if *shown == Some(setup.version) && !root.is_empty() {
        return;
    }
    *shown = Some(setup.version);
    for e in &root {
        commands.entity(e).despawn();
    }
    let mut panel = commands.spawn((
        SetupRoot,
        DespawnOnExit(Screen::Setup),
        Node {
            width: percent(100),
            height: percent(100),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            row_gap: px(14),
            ..default()
        },
        BackgroundColor(BG),
    ));
    panel.with_children(|p| {
        p.spawn(text("skirmish", 40.0, Color::WHITE));
        p.spawn(Node {
            column_gap: px(12),
            align_items: AlignItems::Center,
            ..default()
        })
        .with_children(|row| {
            row.spawn(button("< level", SetupButton::Level(-1), false));
            let title = match &setup.level {
                Ok(l) => l.name.clone(),
                Err(_) => "(cannot play this file)".into(),
            };
            row.spawn(text(title, 26.0, Color::WHITE));
            row.spawn(button("level >", SetupButton::Level(1), false));
        });
        let info = match &setup.level {
            Ok(l) => format!(
                "{}  |  {}  |  {} {}x{}",
                setup.path.display(),
                l.ruleset,
                crate::engine::log::grid_name(l.grid),
                l.size.0,
                l.size.1
            ),
            Err(_) => setup.path.display().to_string(),
        };
        p.spawn(text(info, 15.0, DIM));
        match &setup.level {
            Err(e) => {
                p.spawn(text(e.clone(), 15.0, BAD));
            }
            Ok(level) => {
                p.spawn(text(
                    "Who plays each side, and whether the side is asked to react",
                    16.0,
                    DIM,
                ));
                for (i, side) in level.sides.iter().enumerate() {
                    let sel = i == setup.row;
                    p.spawn((
                        Node {
                            column_gap: px(14),
                            align_items: AlignItems::Center,
                            padding: UiRect::axes(px(10), px(4)),
                            border: UiRect::all(px(2)),
                            ..default()
                        },
                        BorderColor::all(if sel { Color::WHITE } else { Color::NONE }),
                    ))
                    .with_children(|row| {
                        row.spawn((
                            Node {
                                width: px(230),
                                ..default()
                            },
                            children![text(
                                format!(
                                    "{} ({})",
                                    side.name,
                                    SIDE_SHAPES[i % SIDE_SHAPES.len()]
                                ),
                                20.0,
                                side_color(i).lighter(0.2),
                            )],
                        ));
                        row.spawn(button(
                            controller_label(side.controller),
                            SetupButton::Controller(i),
                            sel,
                        ));
                        row.spawn(text("decisions:", 15.0, DIM));
                        row.spawn(button(
                            policy_label(side.decisions),
                            SetupButton::Policy(i),
                            sel,
                        ));
                        // The measured strength of the side's AI (issue 32), in a
                        // column of its own so every side's row keeps one width.
                        let note = match side.controller {
                            Controller::Ai(policy) => crate::ai::strength_note(policy),
                            Controller::Human => "",
                        };
                        row.spawn((
                            Node {
                                width: px(500),
                                ..default()
                            },
                            children![text(note, 14.0, DIM)],
                        ));
                    });
                }
                let humans = level
                    .sides
                    .iter()
                    .filter(|s| s.controller == Controller::Human)
                    .count();
                let mode = match humans {
                    0 => "AI vs AI: watch (hold X to fast-forward)".to_string(),
                    1 => "Solo against the AI".to_string(),
                    n => format!(
                        "Hot-seat for {n} players: the map hides between players until the next one confirms"
                    ),
                };
                p.spawn(text(mode, 16.0, TEXT));
            }
        }
        let saved = continuable(&options);
        p.spawn(text(key_hint(saved.is_some()), 15.0, DIM));
        p.spawn(Node {
            column_gap: px(20),
            ..default()
        })
        .with_children(|row| {
            row.spawn(button("Start battle (Enter)", SetupButton::Start, true));
            if let Some((_, file)) = &saved {
                row.spawn(button(
                    format!("Continue {} (C)", file.level.name),
                    SetupButton::Continue,
                    false,
                ));
                row.spawn(button(
                    format!("Watch {} (R)", file.level.name),
                    SetupButton::Watch,
                    false,
                ));
            }
            row.spawn(button("Edit level (E)", SetupButton::Edit, false));
            row.spawn(button("Quit (Q)", SetupButton::Quit, false));
        });
    });
}

/// Registers the menu.
pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (keys, clicks, view)
            .chain()
            .run_if(in_state(Screen::Setup))
            .run_if(resource_exists::<Setup>),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ford() -> Setup {
        Setup::new(
            Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/ford.ron")),
            Some(3),
        )
    }

    #[test]
    fn the_menu_starts_from_the_level_and_its_choices_reach_the_battle() {
        let mut setup = ford();
        let level = setup.level.clone().unwrap();
        assert_eq!(level.name, "The Ford");
        assert!(setup.levels.len() >= 4, "the folder's levels are listed");
        // Blue: Human → AI random; Red: its policy cycles ask → automatic.
        setup.cycle_controller(0, 1);
        setup.cycle_policy(1);
        let game = setup.game().unwrap();
        let sides = &game.level.sides;
        assert_eq!(sides[0].controller, Controller::Ai(AiPolicy::Random));
        assert_eq!(
            sides[1].decisions,
            cycle(&POLICIES, level.sides[1].decisions, 1)
        );
        assert_eq!(game.seed, 3);
        assert_eq!(game.path.as_deref(), Some(setup.path.as_path()));
        // Cycling wraps both ways: back from Human to the last, the hard AI.
        setup.cycle_controller(0, -1);
        setup.cycle_controller(0, -1);
        assert_eq!(
            setup.level.as_ref().unwrap().sides[0].controller,
            Controller::Ai(AiPolicy::Hard)
        );
    }

    #[test]
    fn the_key_line_offers_continue_and_watch_only_with_an_autosave() {
        let with = key_hint(true);
        assert!(
            with.contains("C continue") && with.contains("R watch"),
            "{with}"
        );
        let without = key_hint(false);
        assert!(
            !without.contains("continue") && !without.contains("watch"),
            "{without}"
        );
        assert!(
            without.ends_with("Enter start   E edit   Q quit"),
            "{without}"
        );
    }

    #[test]
    fn switching_levels_walks_the_folder_and_wraps() {
        let mut setup = ford();
        let start = setup.path.clone();
        let mut seen = vec![];
        for _ in 0..setup.levels.len() {
            setup.switch_level(1);
            seen.push(setup.path.clone());
        }
        assert_eq!(setup.path, start, "a full cycle comes back");
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), setup.levels.len());
        setup.switch_level(-1);
        assert_ne!(setup.path, start);
    }

    #[test]
    fn a_broken_level_is_shown_not_started() {
        let dir = std::env::temp_dir().join(format!("skirmish-setup-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.ron");
        std::fs::write(&bad, "(name: \"x\", ruleset: \"nope\"").unwrap();
        let setup = Setup::new(&bad, None);
        let err = setup.level.clone().unwrap_err();
        assert!(err.contains("bad.ron:"), "says where: {err}");
        assert!(setup.game().is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
