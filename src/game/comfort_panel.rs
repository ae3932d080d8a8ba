//! The comfort settings panel ([`super::comfort`] holds the settings): F2 opens it
//! on the menu and in battle (and O on the menu); every change applies at once and
//! is saved to the settings file. Also loads the file when the app starts.

use bevy::prelude::*;

use super::comfort::{
    Animations, Comfort, ComfortPanel, ROWS, load, path, save, set_palette, set_ui_scale,
};

/// Marks the panel's root.
#[derive(Component)]
struct PanelRoot;

/// One row of the panel.
#[derive(Component, Clone, Copy)]
struct RowButton(usize);

/// Applies the settings to the engine's resources.
fn apply(comfort: Res<Comfort>, mut scale: ResMut<UiScale>, mut anim: ResMut<Animations>) {
    if !comfort.is_changed() {
        return;
    }
    scale.0 = comfort.ui_scale;
    set_ui_scale(comfort.ui_scale);
    anim.on = comfort.animations;
    anim.speed = comfort.animation_speed;
    set_palette(comfort.palette);
}

/// F2 (anywhere) or O (on the menu) opens and closes the panel; arrows or WASD
/// choose and change; Enter/Esc close. A click on a row changes it.
fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<super::screen::Screen>>,
    mut panel: ResMut<ComfortPanel>,
    mut comfort: ResMut<Comfort>,
    rows: Query<(&Interaction, &RowButton), Changed<Interaction>>,
) {
    let on_menu = *screen.get() == super::screen::Screen::Setup;
    if keys.just_pressed(KeyCode::F2) || (on_menu && keys.just_pressed(KeyCode::KeyO)) {
        panel.open = !panel.open;
        return;
    }
    if !panel.open {
        return;
    }
    if keys.any_just_pressed([KeyCode::Escape, KeyCode::Enter]) {
        panel.open = false;
        return;
    }
    if keys.any_just_pressed([KeyCode::ArrowUp, KeyCode::KeyW]) {
        panel.row = (panel.row + ROWS.len() - 1) % ROWS.len();
    }
    if keys.any_just_pressed([KeyCode::ArrowDown, KeyCode::KeyS]) {
        panel.row = (panel.row + 1) % ROWS.len();
    }
    let row = panel.row;
    if keys.any_just_pressed([KeyCode::ArrowLeft, KeyCode::KeyA]) {
        comfort.change(row, -1);
    }
    if keys.any_just_pressed([KeyCode::ArrowRight, KeyCode::KeyD]) {
        comfort.change(row, 1);
    }
    for (interaction, b) in &rows {
        if *interaction == Interaction::Pressed {
            panel.row = b.0;
            comfort.change(b.0, 1);
        }
    }
}

/// Saves the settings after each change.
fn persist(comfort: Res<Comfort>, mut panel: ResMut<ComfortPanel>) {
    if !comfort.is_changed() || comfort.is_added() {
        return;
    }
    let Some(path) = path() else {
        panel.status = "no configuration folder (HOME is not set): not saved".into();
        return;
    };
    let broken = panel.broken;
    panel.status = match save(&path, &comfort, broken) {
        Ok(()) => {
            panel.broken = false;
            format!("saved to {}", path.display())
        }
        Err(e) => format!("not saved: {e}"),
    };
}

/// Draws the panel when it is open.
fn draw(
    mut commands: Commands,
    panel: Res<ComfortPanel>,
    comfort: Res<Comfort>,
    root: Query<Entity, With<PanelRoot>>,
) {
    if !panel.is_changed() && !comfort.is_changed() {
        return;
    }
    for e in &root {
        commands.entity(e).despawn();
    }
    if !panel.open {
        return;
    }
    let text = |s: String, size: f32, color: Color| {
        (
            Text::new(s),
            TextFont::from_font_size(size),
            TextColor(color),
        )
    };
    commands
        .spawn((
            PanelRoot,
            Node {
                position_type: PositionType::Absolute,
                left: percent(22),
                right: percent(22),
                top: percent(16),
                padding: UiRect::all(px(18)),
                flex_direction: FlexDirection::Column,
                row_gap: px(8),
                border: UiRect::all(px(2)),
                ..default()
            },
            BackgroundColor(Color::srgba(0.05, 0.06, 0.09, 0.98)),
            BorderColor::all(Color::srgb(1.0, 0.95, 0.3)),
            GlobalZIndex(40),
        ))
        .with_children(|p| {
            p.spawn(text("Settings".into(), 22.0, Color::WHITE));
            for (i, name) in ROWS.iter().enumerate() {
                let selected = i == panel.row;
                p.spawn((
                    RowButton(i),
                    Button,
                    Node {
                        padding: UiRect::axes(px(10), px(6)),
                        justify_content: JustifyContent::SpaceBetween,
                        column_gap: px(20),
                        ..default()
                    },
                    BackgroundColor(if selected {
                        Color::srgba(0.3, 0.4, 0.6, 0.6)
                    } else {
                        Color::srgba(1.0, 1.0, 1.0, 0.05)
                    }),
                ))
                .with_children(|r| {
                    let marker = if selected { "> " } else { "  " };
                    r.spawn(text(format!("{marker}{name}"), 17.0, Color::WHITE));
                    r.spawn(text(
                        format!("< {} >", comfort.value(i)),
                        17.0,
                        Color::srgb(1.0, 0.92, 0.45),
                    ));
                });
            }
            p.spawn(text(
                "W/S or arrows choose, A/D or arrows change (or click), Enter / Esc / F2 close"
                    .into(),
                14.0,
                Color::srgb(0.65, 0.67, 0.7),
            ));
            if !panel.status.is_empty() {
                p.spawn(text(
                    panel.status.clone(),
                    13.0,
                    Color::srgb(0.65, 0.67, 0.7),
                ));
            }
        });
}

/// Registers the settings: loads the file, applies and saves changes, and the panel.
pub fn plugin(app: &mut App) {
    let mut panel = ComfortPanel::default();
    let comfort = match path() {
        Some(p) => match load(&p) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("settings: {e}; using the defaults");
                panel.status = format!("{e}; using the defaults (kept aside on the next save)");
                panel.broken = true;
                Comfort::default()
            }
        },
        None => Comfort::default(),
    };
    set_palette(comfort.palette);
    app.insert_resource(comfort);
    app.insert_resource(panel);
    app.init_resource::<Animations>();
    app.add_systems(Update, (keys, apply, persist, draw).chain());
}
