//! Input actions and their bindings, read from `assets/settings/input.ron`.
//!
//! Every action has keyboard bindings, so the whole game can be played without a
//! mouse; the mouse adds pointing, clicking, dragging and the wheel.

use std::collections::BTreeMap;

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

/// The bindings file, relative to the assets directory.
pub const BINDINGS_FILE: &str = "settings/input.ron";

/// Everything a player can do in battle.
#[derive(
    Actionlike,
    PartialEq,
    Eq,
    Clone,
    Copy,
    Hash,
    Debug,
    Reflect,
    serde::Deserialize,
    PartialOrd,
    Ord,
)]
pub enum BattleAction {
    /// Act on the cell under the pointer or keyboard cursor (move there, attack it).
    Confirm,
    /// Back out of the current mode / clear the selection.
    Cancel,
    /// End the active unit's turn.
    EndTurn,
    /// Next movement power (Movement Phase) or attack power (Battle Phase).
    NextPower,
    /// The next choice of the attack option the ruleset lets the player choose
    /// (`wounds`' aim at a body location, W-17; see [`crate::engine::options`]).
    /// Bindings files written before it was named so call it `NextAim`.
    #[serde(alias = "NextAim")]
    NextChoice,
    /// Use the next usable item.
    UseItem,
    /// Keyboard cursor up / down / left / right.
    CursorUp,
    /// Keyboard cursor down.
    CursorDown,
    /// Keyboard cursor left.
    CursorLeft,
    /// Keyboard cursor right.
    CursorRight,
    /// Next target (jumps the cursor to the next legal target).
    NextTarget,
    /// Camera pan.
    PanUp,
    /// Camera pan.
    PanDown,
    /// Camera pan.
    PanLeft,
    /// Camera pan.
    PanRight,
    /// Zoom in.
    ZoomIn,
    /// Zoom out.
    ZoomOut,
    /// Fit the map in the window.
    FitMap,
    /// Show or hide the threat overlay: every cell an enemy can attack on its next
    /// turn ([`crate::ai::threat`]); also a comfort setting.
    ToggleThreat,
    /// Hold to show every unit's name (otherwise only the hovered, selected and
    /// active units carry a name plate).
    ShowNames,
    /// Scroll the combat log back.
    LogOlder,
    /// Scroll the combat log forward.
    LogNewer,
    /// Explain the newest roll of the combat log, then older ones (see
    /// [`super::log_view`]).
    ExplainRoll,
    /// Hold to fast-forward AI turns.
    FastForward,
    /// Decision options 1–9.
    Option1,
    /// Option 2.
    Option2,
    /// Option 3.
    Option3,
    /// Option 4.
    Option4,
    /// Option 5.
    Option5,
    /// Option 6.
    Option6,
    /// Option 7.
    Option7,
    /// Option 8.
    Option8,
    /// Option 9.
    Option9,
    /// Restart the battle (result screen).
    Restart,
    /// Save the battle (a battle file: `saves/quicksave.battle.ron`).
    Save,
    /// Take back the last command, if it rolled no dice.
    TakeBack,
    /// Quit.
    Quit,
    /// Open the level in the editor (pre-battle menu).
    Edit,
    /// The ruleset verb whose key hint is this letter or digit
    /// ([`crate::engine::verb::VerbSpec::key`]): bound at the start of a battle from
    /// the ruleset's declarations ([`bind_verb_keys`]), not in the bindings file, so
    /// every verb of every ruleset gets its key the same way.
    Verb(char),
}

impl BattleAction {
    /// Every action, in declaration order.
    pub const ALL: [BattleAction; 38] = [
        BattleAction::Confirm,
        BattleAction::Cancel,
        BattleAction::EndTurn,
        BattleAction::NextPower,
        BattleAction::NextChoice,
        BattleAction::UseItem,
        BattleAction::CursorUp,
        BattleAction::CursorDown,
        BattleAction::CursorLeft,
        BattleAction::CursorRight,
        BattleAction::NextTarget,
        BattleAction::PanUp,
        BattleAction::PanDown,
        BattleAction::PanLeft,
        BattleAction::PanRight,
        BattleAction::ZoomIn,
        BattleAction::ZoomOut,
        BattleAction::FitMap,
        BattleAction::ToggleThreat,
        BattleAction::ShowNames,
        BattleAction::LogOlder,
        BattleAction::LogNewer,
        BattleAction::ExplainRoll,
        BattleAction::FastForward,
        BattleAction::Option1,
        BattleAction::Option2,
        BattleAction::Option3,
        BattleAction::Option4,
        BattleAction::Option5,
        BattleAction::Option6,
        BattleAction::Option7,
        BattleAction::Option8,
        BattleAction::Option9,
        BattleAction::Restart,
        BattleAction::Save,
        BattleAction::TakeBack,
        BattleAction::Quit,
        BattleAction::Edit,
    ];

    /// The decision options in order.
    pub const OPTIONS: [BattleAction; 9] = [
        BattleAction::Option1,
        BattleAction::Option2,
        BattleAction::Option3,
        BattleAction::Option4,
        BattleAction::Option5,
        BattleAction::Option6,
        BattleAction::Option7,
        BattleAction::Option8,
        BattleAction::Option9,
    ];
}

/// A binding as written in a settings file (the battle's and the editor's).
#[derive(Clone, Debug, serde::Deserialize)]
pub enum Binding {
    /// A key, by `KeyCode` name (`Space`, `KeyE`, `ArrowUp`, `Digit1`, ...).
    Key(KeyCode),
    /// Control with a key.
    Ctrl(KeyCode),
    /// Shift with a key.
    Shift(KeyCode),
    /// Control and Shift with a key.
    CtrlShift(KeyCode),
    /// A mouse button (`Left`, `Right`, `Middle`).
    Mouse(MouseButton),
}

impl Binding {
    /// Whether the binding is made of keys only.
    pub fn is_keyboard(&self) -> bool {
        !matches!(self, Binding::Mouse(_))
    }
}

/// The compiled-in copy of the default bindings.
pub const DEFAULT_BINDINGS: &str = include_str!("../../assets/settings/input.ron");

/// A bindings file as written, by action; errors read `line:col: message`.
pub fn parse_binding_table<A>(text: &str) -> Result<BTreeMap<A, Vec<Binding>>, String>
where
    A: Ord + serde::de::DeserializeOwned,
{
    ron::from_str(text)
        .map_err(|e| format!("{}:{}: {}", e.span.start.line, e.span.start.col, e.code))
}

/// Parses a bindings file into an input map for any action set; errors read
/// `line:col: message`.
pub fn parse_input_map<A>(text: &str) -> Result<InputMap<A>, String>
where
    A: Actionlike + Ord + serde::de::DeserializeOwned,
{
    let mut input = InputMap::default();
    for (action, bindings) in parse_binding_table::<A>(text)? {
        for b in bindings {
            match b {
                Binding::Key(k) => input.insert(action.clone(), k),
                Binding::Mouse(m) => input.insert(action.clone(), m),
                Binding::Ctrl(k) => input.insert(
                    action.clone(),
                    ButtonlikeChord::modified(ModifierKey::Control, k),
                ),
                Binding::Shift(k) => input.insert(
                    action.clone(),
                    ButtonlikeChord::modified(ModifierKey::Shift, k),
                ),
                Binding::CtrlShift(k) => input.insert(
                    action.clone(),
                    ButtonlikeChord::modified(ModifierKey::Control, ModifierKey::Shift).with(k),
                ),
            };
        }
    }
    Ok(input)
}

/// Parses the battle's bindings; errors read `line:col: message`.
pub fn parse_bindings(text: &str) -> Result<InputMap<BattleAction>, String> {
    parse_input_map(text)
}

/// Loads `assets/settings/input.ron` (or `$SKIRMISH_ASSETS/...`), falling back to
/// the defaults with a warning if it is missing or broken.
pub fn load_bindings() -> InputMap<BattleAction> {
    load_bindings_file(
        BINDINGS_FILE,
        DEFAULT_BINDINGS,
        parse_bindings,
        "the default bindings",
    )
}

/// Reads the bindings file `file` under the assets directory with `parse`; if it is
/// missing the compiled-in `defaults` are used, and if it is broken too, with a
/// warning that says where and falls back to `what`.
pub fn load_bindings_file<A: Actionlike>(
    file: &str,
    defaults: &str,
    parse: impl Fn(&str) -> Result<InputMap<A>, String>,
    what: &str,
) -> InputMap<A> {
    let path = crate::engine::ruleset::config::assets_dir().join(file);
    match std::fs::read_to_string(&path).ok().map(|t| parse(&t)) {
        Some(Ok(map)) => map,
        Some(Err(e)) => {
            warn!("{}:{e}; using {what}", path.display());
            parse(defaults).unwrap_or_default()
        }
        None => parse(defaults).unwrap_or_default(),
    }
}

/// The key of a verb's key hint: `a`…`z` (either case) and `0`…`9`.
pub fn key_code(key: char) -> Option<KeyCode> {
    const LETTERS: [KeyCode; 26] = [
        KeyCode::KeyA,
        KeyCode::KeyB,
        KeyCode::KeyC,
        KeyCode::KeyD,
        KeyCode::KeyE,
        KeyCode::KeyF,
        KeyCode::KeyG,
        KeyCode::KeyH,
        KeyCode::KeyI,
        KeyCode::KeyJ,
        KeyCode::KeyK,
        KeyCode::KeyL,
        KeyCode::KeyM,
        KeyCode::KeyN,
        KeyCode::KeyO,
        KeyCode::KeyP,
        KeyCode::KeyQ,
        KeyCode::KeyR,
        KeyCode::KeyS,
        KeyCode::KeyT,
        KeyCode::KeyU,
        KeyCode::KeyV,
        KeyCode::KeyW,
        KeyCode::KeyX,
        KeyCode::KeyY,
        KeyCode::KeyZ,
    ];
    const DIGITS: [KeyCode; 10] = [
        KeyCode::Digit0,
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
    ];
    match key.to_ascii_lowercase() {
        c @ 'a'..='z' => Some(LETTERS[(c as u8 - b'a') as usize]),
        c @ '0'..='9' => Some(DIGITS[(c as u8 - b'0') as usize]),
        _ => None,
    }
}

/// Binds each of `verbs`' key hints to its [`BattleAction::Verb`] in `map`, after
/// removing the verb keys bound before (another ruleset's). A key the player's
/// bindings already use for another action, or that is no letter or digit, is not
/// bound: the problems say which, in words, for a warning.
pub fn bind_verb_keys(
    map: &mut InputMap<BattleAction>,
    verbs: &[crate::engine::verb::VerbSpec],
) -> Vec<String> {
    let old: Vec<BattleAction> = map
        .buttonlike_actions()
        .filter(|a| matches!(a, BattleAction::Verb(_)))
        .copied()
        .collect();
    for action in &old {
        map.clear_action(action);
    }
    let mut problems = Vec::new();
    for verb in verbs {
        let Some(key) = verb.key else { continue };
        let Some(code) = key_code(key) else {
            problems.push(format!(
                "the key `{key}` of `{}` is not a letter or digit; it is not bound",
                verb.name
            ));
            continue;
        };
        let action = BattleAction::Verb(key);
        let button: Box<dyn Buttonlike> = Box::new(code);
        let taken = map
            .iter_buttonlike()
            .find(|(a, bindings)| **a != action && bindings.contains(&button))
            .map(|(a, _)| *a);
        match taken {
            Some(other) => problems.push(format!(
                "the key {code:?} of `{}` is already bound to {}; it is not bound to `{}`",
                verb.name,
                match other {
                    BattleAction::Verb(k) => format!("the action with key `{k}`"),
                    other => format!("{other:?}"),
                },
                verb.name
            )),
            None => {
                map.insert(action, code);
            }
        }
    }
    problems
}

/// The entity whose `ActionState` holds the keyboard and mouse player's actions.
#[derive(Component)]
pub struct Player;

/// Adds the input manager for `A`, without the copy of its action states it keeps
/// for `FixedUpdate`: no system of the game runs on the fixed timestep, and
/// updating that copy processes every input map a second time each frame (with its
/// clash check over every pair of actions), about a millisecond a frame in a
/// dev build on a 2-core machine (`examples/frame_time.rs`).
pub fn input_manager<A>(app: &mut App)
where
    A: Actionlike + TypePath + bevy::reflect::GetTypeRegistration,
{
    use bevy::ecs::schedule::ScheduleCleanupPolicy::RemoveSystemsOnly;
    use leafwing_input_manager::systems::*;
    app.add_plugins(InputManagerPlugin::<A>::default());
    let removed = [
        app.remove_systems_in_set(
            RunFixedMainLoop,
            swap_to_fixed_update::<A>,
            RemoveSystemsOnly,
        ),
        app.remove_systems_in_set(
            RunFixedMainLoop,
            update_action_state::<A>,
            RemoveSystemsOnly,
        ),
        app.remove_systems_in_set(RunFixedMainLoop, swap_to_update::<A>, RemoveSystemsOnly),
        app.remove_systems_in_set(FixedPostUpdate, tick_action_state::<A>, RemoveSystemsOnly),
        app.remove_systems_in_set(
            FixedPostUpdate,
            release_on_input_map_removed::<A>,
            RemoveSystemsOnly,
        ),
    ];
    // Should a new version of the input manager move these systems, input still
    // works: only the saving is lost.
    if removed.iter().any(|r| !matches!(r, Ok(1))) {
        warn!(
            "input: the fixed-timestep copy of {}'s action states is still updated",
            A::short_type_path()
        );
    }
}

/// Registers the input manager and spawns the player entity.
pub fn plugin(app: &mut App) {
    input_manager::<BattleAction>(app);
    app.add_systems(Startup, |mut commands: Commands| {
        commands.spawn((Player, load_bindings()));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_bindings_parse_and_cover_every_action_by_keyboard() {
        let text = DEFAULT_BINDINGS;
        let map: BTreeMap<BattleAction, Vec<Binding>> = ron::from_str(text).unwrap();
        for action in BattleAction::ALL {
            let keys = map.get(&action).map_or(0, |b| {
                b.iter().filter(|b| matches!(b, Binding::Key(_))).count()
            });
            assert!(keys > 0, "{action:?} has no keyboard binding");
        }
        assert!(parse_bindings(text).is_ok());
    }

    #[test]
    fn a_bindings_file_of_before_the_attack_chooser_keeps_its_c_key() {
        let map: BTreeMap<BattleAction, Vec<Binding>> =
            parse_binding_table("{ NextAim: [Key(KeyV)] }").unwrap();
        let keys = &map[&BattleAction::NextChoice];
        assert!(
            matches!(keys[..], [Binding::Key(KeyCode::KeyV)]),
            "{keys:?}"
        );
    }

    #[test]
    fn broken_bindings_say_where() {
        let err = parse_bindings("{ EndTurn: [Key(Spcae)] }").unwrap_err();
        assert!(err.starts_with("1:"), "{err}");
    }
}
