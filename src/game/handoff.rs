//! The hot-seat hand-off screen: when the keys must pass to another player (see
//! [`crate::hotseat`]), an opaque screen covers the map, the log and the panels
//! until that player presses Enter or clicks.

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

use super::screen::Screen;
use super::settings::{BattleAction, Player};
use super::units_view::{SIDE_SHAPES, side_color};
use super::{BattleSystems, Game};
use crate::engine::Battle;
use crate::engine::battle::Awaiting;
use crate::hotseat::{Handoff, HandoffReason, HotSeat};

/// Who is at the keys in this battle.
#[derive(Resource, Default, Debug)]
pub struct Seat {
    /// The hand-off state.
    pub seat: HotSeat,
    /// The game generation it belongs to (a new battle starts a new seat).
    generation: u64,
    /// The battle version last looked at.
    version: u64,
}

/// The hand-off screen.
#[derive(Component)]
struct HandoffScreen;

/// Its text.
#[derive(Component)]
struct HandoffText;

fn spawn(mut commands: Commands) {
    commands.spawn((
        HandoffScreen,
        DespawnOnExit(Screen::Battle),
        Node {
            position_type: PositionType::Absolute,
            width: percent(100),
            height: percent(100),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            row_gap: px(16),
            ..default()
        },
        BackgroundColor(Color::srgb(0.04, 0.045, 0.06)),
        GlobalZIndex(50),
        Visibility::Hidden,
        children![(
            HandoffText,
            Text::new(""),
            TextFont::from_font_size(24.0),
            TextColor(Color::WHITE),
            TextLayout::justify(Justify::Center),
        )],
    ));
}

/// The hand-off screen's text: whose keys, and why — their turn, or the pending
/// decision's own words ("Blue is asked to react to Brigand's attack (Hard success)
/// on Duelist.").
pub fn handoff_text(battle: &Battle, h: Handoff) -> String {
    let name = battle.side_name(h.side);
    let why = match (h.reason, battle.awaiting()) {
        (HandoffReason::Decision, Awaiting::Decision(d)) => {
            format!("{name} is asked to {}.", d.about)
        }
        _ => format!("It is {name}'s turn."),
    };
    let i = h.side.0 as usize;
    format!(
        "Pass the keys to {name} ({})\n\n{why}\n\nThe map is hidden until {name} is ready:\npress Enter or click.",
        SIDE_SHAPES[i % SIDE_SHAPES.len()]
    )
}

/// Follows the battle and shows or hides the hand-off screen.
fn update(
    game: Res<Game>,
    mut seat: ResMut<Seat>,
    mut screen: Single<&mut Visibility, With<HandoffScreen>>,
    mut text: Single<(&mut Text, &mut TextColor), With<HandoffText>>,
) {
    if seat.generation != game.generation() {
        *seat = Seat {
            generation: game.generation(),
            ..default()
        };
    }
    if seat.version != game.version {
        seat.version = game.version;
        let battle = &game.battle;
        seat.seat.update(battle);
        if let Some(h) = seat.seat.pending() {
            let i = h.side.0 as usize;
            text.0.0 = handoff_text(battle, h);
            text.1.0 = side_color(i).lighter(0.25);
        }
    }
    let want = if seat.seat.map_visible() {
        Visibility::Hidden
    } else {
        Visibility::Visible
    };
    if **screen != want {
        **screen = want;
    }
}

/// The next player confirms they are at the keys.
fn confirm(actions: Single<&ActionState<BattleAction>, With<Player>>, mut seat: ResMut<Seat>) {
    if !seat.seat.map_visible() && actions.just_pressed(&BattleAction::Confirm) {
        seat.seat.confirm();
    }
}

/// Registers the hand-off screen; its systems run after the battle's input so the
/// confirming key press doesn't also act on the map.
pub fn plugin(app: &mut App) {
    app.init_resource::<Seat>();
    app.add_systems(OnEnter(Screen::Battle), spawn);
    app.add_systems(
        Update,
        (confirm, update)
            .chain()
            .in_set(BattleSystems::Dialogs)
            .run_if(in_state(Screen::Battle))
            .run_if(super::replay_view::playing),
    );
}
