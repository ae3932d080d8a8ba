//! The seam between the engine and the rulesets: the [`Ruleset`] trait and its
//! optional parts, and the words they speak.
//!
//! A ruleset implements [`Ruleset`] first: what every ruleset must answer — its id,
//! stats and configuration, how it sets a battle up ([`Ruleset::setup`]) and adds its
//! systems ([`Ruleset::build`]), what is legal, previews and odds, stage names, turn
//! order and counters. With the four optional parts left empty (`impl Vocabulary for
//! MyRuleset {}` and so on: every method of theirs has a default) a battle plays it,
//! and the AI too. Then it fills in the parts it needs:
//!
//! - [`Vocabulary`]: its own special actions (verbs), answers to decisions, one-cell
//!   moves and default movement power;
//! - [`LevelSchema`]: what a level of it may say beyond stats (trait examples, grids,
//!   skills, equipment, item AP, extra checks), for `skirmish check` and the editor;
//! - [`Presentation`]: the rule behind a word, condition badges, how two units stand;
//! - [`AiHints`]: ready-made commands and estimates for the AI.
//!
//! Its fallible methods return a [`RulesetError`] ([`error`]) saying where and what.
//!
//! The words: the stats a ruleset reads ([`StatSpec`]) and the limits every
//! value stays within, the previews and odds it returns ([`AttackPreview`],
//! [`AttackOdds`], [`OptionPreview`], [`MovePreview`], [`TurnOrder`]) and the
//! hypotheses it is asked under ([`Assume`]), the optional parts of an attack
//! ([`AttackFeatures`]), the AI's hints ([`MoveHint`]) and condition badges
//! ([`ConditionBadge`], [`badge_from`]); [`config`] is what every ruleset's RON configuration shares.
//!
//! Dependencies point one way:
//!
//! ```text
//! core  <-  rulesets  <-  catalogue  <-  level loading, CLI, AI, scripts, editor, window
//! ```
//!
//! The core (this module, [`crate::engine::battle`] and the other files of
//! `src/engine`) knows no ruleset; each ruleset (a folder of `src/engine/rulesets/`)
//! knows only the core and implements [`Ruleset`]; the catalogue
//! (`src/engine/rulesets/mod.rs` and its `registry`) lists the rulesets and looks
//! them up by id; level loading, the command line, the AI's simulator, scripts, the
//! editor and the window ask the catalogue. So this module imports only core and
//! data modules, and a [`crate::engine::battle::Battle`] is built from a ruleset
//! passed in ([`crate::engine::battle::Battle::from_level_with`]).

use std::collections::BTreeMap;

use bevy_app::App;
use bevy_ecs::world::World;

use crate::engine::board::{Cell, GridKind};
use crate::engine::command::{Command, CommandError};
use crate::engine::event::Stage;
use crate::engine::odds::DiceExpr;
use crate::engine::problems::Issue;
use crate::engine::spec::{Level, UnitDef};
use crate::engine::units::{Conditions, Health, Position, SideId, Stats, Unit, UnitId};
use crate::engine::verb::{ArgSpec, Args, Cost, VerbSpec};

pub mod config;
pub mod error;
pub mod state;

pub use error::{BadDice, BadStat, ConfigError, RulesetError, UnitProblem};

/// A unit stat a ruleset reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatSpec {
    /// Name as written in level files.
    pub name: &'static str,
    /// Whether a level must give it (otherwise the ruleset derives a default).
    pub required: bool,
    /// What it means, for error messages and the editor.
    pub about: &'static str,
    /// Lowest value the ruleset plays with.
    pub min: i32,
    /// Highest value the ruleset plays with.
    pub max: i32,
}

impl StatSpec {
    /// A stat spec, for a ruleset's `const` table of stats.
    pub const fn new(
        name: &'static str,
        required: bool,
        about: &'static str,
        min: i32,
        max: i32,
    ) -> Self {
        Self {
            name,
            required,
            about,
            min,
            max,
        }
    }
}

/// Most hit points a unit may have (a stat, or a ruleset's default).
pub const MAX_HP: i32 = 1_000_000;
/// Largest magnitude of a modifier stat (INT, AGI, ATK, DEF, AgiMod) and of a
/// constant added to a roll: far beyond any sensible value, small enough that no
/// sum of them overflows.
pub const MAX_MODIFIER: i32 = 1000;
/// Most squares or hexes a unit may move per Walk or Move action (its Speed).
pub const MAX_SPEED: i32 = 1000;
/// Most points of a per-turn pool (`flow` AP and RP), and the most an action or a
/// reaction may cost.
pub const MAX_POINTS: i32 = 100;
/// Most cells a weapon or power may reach or shoot.
pub const MAX_RANGE: u32 = 1000;
/// Most different totals (highest − lowest) of any dice expression a level or a
/// ruleset rolls: damage, healing, attack, save, initiative and ongoing dice. The
/// AI weighs every total of a damage roll each time it compares attacks, so this
/// bounds its work per decision: `100d100` (span 9,900) plays a battle in seconds.
pub const MAX_DICE_SPAN: i64 = 10_000;
/// Largest magnitude of any total of those dice (so that damage, even multiplied by
/// a critical, stays far from overflowing).
pub const MAX_DICE_TOTAL: i64 = 1_000_000;

/// Checks dice a level or a ruleset rolls against [`MAX_DICE_SPAN`] and
/// [`MAX_DICE_TOTAL`]. The error shows as a phrase to follow the dice as written,
/// e.g. "spans 19981 different totals (20 to 20000); ...".
pub fn check_dice(expr: &DiceExpr) -> Result<(), BadDice> {
    let (lo, hi) = expr.range();
    if hi - lo > MAX_DICE_SPAN {
        return Err(BadDice::TooWide { lo, hi });
    }
    if lo < -MAX_DICE_TOTAL || hi > MAX_DICE_TOTAL {
        return Err(BadDice::TooLarge { lo, hi });
    }
    Ok(())
}

/// Parses dice a level rolls (damage, healing) and checks them with [`check_dice`].
/// The error shows as a phrase to follow the dice as written: "is not a dice
/// expression (at character 3: ...)" or one of [`check_dice`]'s.
pub fn parse_dice(text: &str) -> Result<DiceExpr, BadDice> {
    let expr: DiceExpr = text.parse().map_err(BadDice::Syntax)?;
    check_dice(&expr)?;
    Ok(expr)
}

/// Checks a unit's stats against a ruleset's `specs` (its [`Ruleset::stats`]): the
/// first one out of range, shown as "`HP` is -5; expected 1 to 1000000". Unknown
/// and missing stats are the level checks' business; a ruleset's setup calls this
/// (or [`check_unit_stats`]) so that a level built in code can't play with values
/// `skirmish check` refuses.
pub fn check_stats(specs: &[StatSpec], stats: &BTreeMap<String, i32>) -> Result<(), BadStat> {
    for (name, &value) in stats {
        if let Some(spec) = specs.iter().find(|s| s.name == name)
            && !(spec.min..=spec.max).contains(&value)
        {
            return Err(BadStat {
                name: name.clone(),
                value,
                min: spec.min,
                max: spec.max,
            });
        }
    }
    Ok(())
}

/// [`check_stats`] on a level's unit, the error naming the unit ("unit Orc: `HP`
/// is -5; expected 1 to 1000000"): what every ruleset's setup checks first.
pub fn check_unit_stats(specs: &[StatSpec], unit: &UnitDef) -> Result<(), RulesetError> {
    check_stats(specs, &unit.stats).map_err(|e| RulesetError::unit(&unit.name, e))
}

/// The components every unit of a level spawns with, whatever its ruleset: its
/// [`UnitId`] (its index in the level's units, its place in the roster), name and
/// side (an index of the level's sides, [`side_index`]), position, stats, `hp` hit
/// points of `hp` and no conditions. A ruleset's setup spawns it with its own
/// components: `world.spawn((unit_basics(i, def, side, hp), Reach(1), ...))`.
pub fn unit_basics(
    index: usize,
    def: &UnitDef,
    side: usize,
    hp: i32,
) -> (UnitId, Unit, Position, Stats, Health, Conditions) {
    (
        UnitId(index as u32),
        Unit {
            name: def.name.clone(),
            side: SideId(side as u32),
        },
        Position(Cell::new(def.pos.0, def.pos.1)),
        Stats(def.stats.clone()),
        Health { hp, max: hp },
        Conditions::default(),
    )
}

/// The index of `unit`'s side in the level, or [`RulesetError::UnknownSide`].
pub fn side_index(level: &Level, unit: &UnitDef) -> Result<usize, RulesetError> {
    level
        .sides
        .iter()
        .position(|s| s.name == unit.side)
        .ok_or_else(|| RulesetError::UnknownSide {
            unit: unit.name.clone(),
            side: unit.side.clone(),
        })
}

/// Whose `traits` a phrase is among: a unit's or a side's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraitOf {
    /// A unit's `traits`.
    Unit,
    /// A side's `traits`.
    Side,
}

impl TraitOf {
    /// "unit" or "side", for messages.
    pub fn noun(self) -> &'static str {
        self.pick("unit", "side")
    }

    /// `unit` for a unit's traits, `side` for a side's (a ruleset's
    /// [`LevelSchema::trait_examples`]: `of.pick(UNIT_EXAMPLES, SIDE_EXAMPLES)`).
    pub fn pick<T>(self, unit: T, side: T) -> T {
        match self {
            TraitOf::Unit => unit,
            TraitOf::Side => side,
        }
    }
}

/// What a movement power does to the unit beyond moving, as factors the AI applies
/// to its estimates (RULES.md P-GAP-04 gives `phases`' powers such effects). A power
/// the ruleset gives no such effect is [`MoveHint::NEUTRAL`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveHint {
    /// Factor on the attacks the unit makes after this move (0 = it can't attack).
    pub attack: f64,
    /// Factor on the damage it takes after this move.
    pub exposure: f64,
}

impl MoveHint {
    /// A move that changes nothing but where the unit stands.
    pub const NEUTRAL: MoveHint = MoveHint {
        attack: 1.0,
        exposure: 1.0,
    };
}

impl Default for MoveHint {
    fn default() -> Self {
        MoveHint::NEUTRAL
    }
}

/// One ruleset: what every ruleset implements — its identity and configuration,
/// how it sets a battle up and plays it, what is legal, previews and odds, and the
/// names and counters of its turns. Object-safe; the catalogue's registry holds each
/// as a `&'static dyn Ruleset` and a battle keeps the active one (calls through it
/// cost what a function pointer does).
///
/// The rules themselves run as Bevy systems that [`Ruleset::build`] adds to the
/// battle's schedule; the methods here are the entry points that are not systems.
/// Every method without a default body must be written; the few with one are
/// optional (their defaults need the ruleset's id or another of its methods, so
/// they sit here). The optional parts are four supertraits, each of whose methods
/// has a default, so a ruleset that needs none of a part writes it empty
/// (`impl AiHints for MyRuleset {}`):
///
/// - [`Vocabulary`]: its own words in commands — special actions ([`Vocabulary::verbs`]),
///   answers to its decisions, one-cell moves, the default movement power;
/// - [`LevelSchema`]: what a level of it may say beyond stats, for `skirmish check`
///   and the editor — traits' examples, grids, skills, equipment, extra checks;
/// - [`Presentation`]: how the window and `explain` show it — the rule behind a
///   word, condition badges, how two units stand;
/// - [`AiHints`]: ready-made commands and estimates the AI asks instead of knowing
///   the ruleset.
///
/// Write `Ruleset` first (a battle plays with it alone and empty parts), then the
/// parts the ruleset needs. A minimal ruleset, playing a level handed to it (see
/// `docs/rulesets.md` and `tests/suite/toy_ruleset.rs` for one that plays a battle):
///
/// ```
/// use bevy_app::App;
/// use bevy_ecs::world::World;
/// use skirmish::engine::battle::Battle;
/// use skirmish::engine::board::Cell;
/// use skirmish::engine::command::{Command, CommandError};
/// use skirmish::engine::event::Stage;
/// use skirmish::engine::ruleset::{
///     AiHints, AttackOdds, AttackPreview, Assume, ConfigError, LevelSchema, MovePreview,
///     Presentation, Ruleset, RulesetError, StatSpec, TurnOrder, Vocabulary,
/// };
/// use skirmish::engine::units::UnitId;
/// use skirmish::engine::spec::Level;
///
/// struct Idle;
///
/// impl Ruleset for Idle {
///     fn id(&self) -> &'static str {
///         "idle"
///     }
///     fn stats(&self) -> &'static [StatSpec] {
///         &[]
///     }
///     fn check_overrides(
///         &self,
///         overrides: &std::collections::BTreeMap<String, ron::Value>,
///     ) -> Result<(), RulesetError> {
///         let problems: Vec<ConfigError> = overrides
///             .keys()
///             .map(|k| ConfigError::new(k, format!("`idle` has no constant `{k}`")))
///             .collect();
///         if problems.is_empty() {
///             Ok(())
///         } else {
///             Err(RulesetError::Overrides(problems))
///         }
///     }
///     fn build(&self, _app: &mut App) {}
///     fn setup(&self, _world: &mut World, _level: &Level) -> Result<(), RulesetError> {
///         Ok(())
///     }
///     fn check(&self, _world: &World, _command: &Command) -> Result<(), CommandError> {
///         Err(CommandError::Forbidden("nothing happens in `idle`".into()))
///     }
///     fn legal(&self, _world: &World) -> Vec<Command> {
///         Vec::new()
///     }
///     fn preview_attack(
///         &self, _: &World, _: UnitId, _: UnitId, _: Option<&str>,
///     ) -> Option<AttackPreview> {
///         None
///     }
///     fn attack_odds(
///         &self, _: &World, _: UnitId, _: UnitId, _: Option<&str>, _: Assume<'_>,
///     ) -> Option<AttackOdds> {
///         None
///     }
///     fn preview_move(&self, _: &World, _: UnitId, _: &str, _: &[Cell]) -> MovePreview {
///         MovePreview::default()
///     }
///     fn stage_name(&self, _stage: Stage) -> &'static str {
///         "Waiting"
///     }
///     fn turn_order(&self, _world: &World) -> Vec<TurnOrder> {
///         Vec::new()
///     }
///     fn pools(&self, _world: &World, _unit: UnitId) -> Vec<(String, i32)> {
///         Vec::new()
///     }
/// }
///
/// // No verbs, level fields, badges or AI hints of its own: the defaults.
/// impl Vocabulary for Idle {}
/// impl LevelSchema for Idle {}
/// impl Presentation for Idle {}
/// impl AiHints for Idle {}
///
/// let level: Level = ron::from_str(
///     r#"(name: "Nothing", ruleset: "idle", grid: Square, size: (2, 1), sides: [], units: [])"#,
/// )
/// .unwrap();
/// let dice = skirmish::engine::dice::Dice::seeded(1);
/// let battle = Battle::from_level_with(&Idle, &level, dice).unwrap();
/// assert_eq!(battle.ruleset(), "idle");
/// assert_eq!(battle.stage_name(Stage::Attack), "Waiting");
/// assert_eq!(
///     Idle.check_overrides(&[("speed".to_string(), ron::Value::from(3))].into())
///         .unwrap_err()
///         .to_string(),
///     "`idle` has no constant `speed`"
/// );
/// ```
///
/// Levels that name it play it once the catalogue lists it: one line in the
/// built-in list of `src/engine/rulesets/registry.rs`, or `registry::register` at run
/// time (a registered ruleset is listed for every test of the process, so a test
/// shared with others plays its toy with [`crate::engine::battle::Battle::from_level_with`]).
pub trait Ruleset:
    Vocabulary + LevelSchema + Presentation + AiHints + Send + Sync + 'static
{
    // ----------------------------------- identity, configuration, level checks

    /// The id levels name it by (`ruleset: "<id>"`); unique in the catalogue.
    fn id(&self) -> &'static str;

    /// The unit stats it reads, in the order the editor shows them.
    fn stats(&self) -> &'static [StatSpec];

    /// Checks a level's `rules` overrides against its configuration: every key must
    /// name a constant and every value must have its type. The error says which key
    /// and why, in the level's words.
    fn check_overrides(&self, overrides: &BTreeMap<String, ron::Value>)
    -> Result<(), RulesetError>;

    /// Every problem of a level's `rules` overrides, each at its key: an unknown key,
    /// a value of the wrong type or out of the constant's range (the key `""` for a
    /// configuration that does not load at all). By default
    /// [`Ruleset::check_overrides`] on each override alone.
    fn override_problems(&self, overrides: &BTreeMap<String, ron::Value>) -> Vec<ConfigError> {
        overrides
            .iter()
            .filter_map(|(key, value)| {
                let single = BTreeMap::from([(key.clone(), value.clone())]);
                self.check_overrides(&single)
                    .err()
                    .map(|e| ConfigError::new(key, e.to_string()))
            })
            .collect()
    }

    /// Whether `phrase` is a trait it reads on a unit or a side (a level's
    /// `traits` lists; `escalation`: `Fast`, `Ranged`, `Resist Fire 14+`, `PCs`).
    /// The error says why not and names the valid ones
    /// ([`LevelSchema::trait_examples`] gives examples). By default a ruleset reads
    /// no traits, and every phrase is refused ([`RulesetError::NoTraits`]).
    fn check_trait(&self, of: TraitOf, phrase: &str) -> Result<(), RulesetError> {
        let _ = phrase;
        Err(RulesetError::NoTraits {
            ruleset: self.id(),
            of,
        })
    }

    /// How it realizes a portable archetype at a tier (1 to
    /// [`crate::engine::archetype::MAX_TIER`]): the stats, powers, weapons, armour,
    /// skills and traits a level's unit would give for it, as a unit whose name, side
    /// and position are left empty (see [`crate::engine::archetype`]). Each built-in
    /// ruleset's `archetype.rs` says how, and `docs/archetypes.md` tabulates it. By
    /// default a ruleset realizes none, and a level of archetypes does not play
    /// under it.
    fn realize_archetype(
        &self,
        archetype: &crate::engine::archetype::Archetype,
        tier: u32,
    ) -> Result<crate::engine::spec::UnitDef, RulesetError> {
        let _ = (archetype, tier);
        Err(RulesetError::NoArchetypes { ruleset: self.id() })
    }

    // ------------------------------------------------------------------ battle

    /// Adds its systems to the battle's schedule (into the
    /// [`crate::engine::battle::BattleStage`] sets), like a Bevy plugin's `build`.
    fn build(&self, app: &mut App);

    /// Spawns the level's units (every unit in roster order, with
    /// [`crate::engine::battle::Roster`]) and inserts the ruleset's own state (its
    /// configuration with the level's overrides applied, its per-unit data by
    /// [`UnitId`]) as one value with [`state::insert`]. An error says where and what
    /// is wrong with the level ([`side_index`], [`check_unit_stats`] and
    /// [`config::for_level`] give the usual ones).
    fn setup(&self, world: &mut World, level: &Level) -> Result<(), RulesetError>;

    /// Whether a command is legal now, and why not. The battle has already checked
    /// that the battle is on and every unit the command names exists.
    fn check(&self, world: &World, command: &Command) -> Result<(), CommandError>;

    /// Every legal command now (for the AI and property tests); large choices such as
    /// subsets of seizers are enumerated as "none" and each single unit.
    fn legal(&self, world: &World) -> Vec<Command>;

    // ---------------------------------------------------------- previews, odds

    /// Exact odds of `attacker` attacking `target` with a power (its first if
    /// `None`) as things stand, with the modifiers in words; `None` if that attack
    /// is impossible.
    fn preview_attack(
        &self,
        world: &World,
        attacker: UnitId,
        target: UnitId,
        power: Option<&str>,
    ) -> Option<AttackPreview>;

    /// The numbers of [`Ruleset::preview_attack`] only, optionally as they would be
    /// after hypothetical moves (see [`Assume`]): the AI's hot path, asked millions
    /// of times a simulation — keep it free of text and allocation.
    fn attack_odds(
        &self,
        world: &World,
        attacker: UnitId,
        target: UnitId,
        power: Option<&str>,
        assume: Assume<'_>,
    ) -> Option<AttackOdds>;

    /// The preview of `attacker`'s attack on `target` made with these attack
    /// options ([`Ruleset::attack_options`]; one of the choices a player may make,
    /// [`crate::engine::verb::ArgSpec::choices`]), with what they add beyond the
    /// odds; `None` if that attack is impossible, or impossible with them (`wounds`:
    /// a spell can't aim). By default [`Ruleset::preview_attack`], whatever the
    /// options: a ruleset whose options change the odds (`wounds`' `aim`) gives its
    /// own. The window previews each choice with it
    /// ([`crate::engine::options::choice_previews`]).
    fn preview_attack_with(
        &self,
        world: &World,
        attacker: UnitId,
        target: UnitId,
        power: Option<&str>,
        options: &Args,
    ) -> Option<OptionPreview> {
        let _ = options;
        let attack = self.preview_attack(world, attacker, target, power)?;
        Some(OptionPreview {
            attack,
            effects: Vec::new(),
        })
    }

    /// What `attacker`'s attack on `target` with these attack options is worth
    /// to it, in hit points (`wounds`: expected damage, a defeat counted as half
    /// the target's HP, and each wound's effect), for the AI's choice among a
    /// player's choices ([`crate::engine::options::best_options`]); `None` if the
    /// attack can't be made so. Asked on the AI's hot path: keep it free of text.
    /// By default the expected damage of [`Ruleset::preview_attack_with`].
    fn attack_worth(
        &self,
        world: &World,
        attacker: UnitId,
        target: UnitId,
        power: Option<&str>,
        options: &Args,
    ) -> Option<f64> {
        self.preview_attack_with(world, attacker, target, power, options)
            .map(|p| p.attack.expected_damage)
    }

    /// Cost and provocations of moving `unit` along `path` with a movement power.
    fn preview_move(&self, world: &World, unit: UnitId, power: &str, path: &[Cell]) -> MovePreview;

    // --------------------------------------------------------- names, counters

    /// Its own name for a stage ("Battle Phase", "Turn", ...).
    fn stage_name(&self, stage: Stage) -> &'static str;

    /// The turn order(s) of the current round in its terms, labelled (`phases`:
    /// "Movement order" and "Battle order").
    fn turn_order(&self, world: &World) -> Vec<TurnOrder>;

    /// A unit's action pools and resources as labelled counters ("AP" 3, ...).
    fn pools(&self, world: &World, unit: UnitId) -> Vec<(String, i32)>;

    // ------------------------------------------------- attack and move options

    /// The options its attacks take, as a verb's arguments are declared (`wounds`:
    /// an optional `aim`, a body location; `actfast`: an optional `approach`, the
    /// cells a melee attack moves through first): the battle checks every
    /// [`Command::Attack`]'s options against them and refuses any other. None by
    /// default.
    fn attack_options(&self) -> &'static [ArgSpec] {
        &[]
    }

    /// The options its moves take (`phases`: the `target` a Charge charges), checked
    /// as [`Ruleset::attack_options`] are. None by default.
    fn move_options(&self) -> &'static [ArgSpec] {
        &[]
    }
}

/// A ruleset's own words in commands, beyond the core's `Move`, `Attack`, `EndTurn`
/// and `Pass`: its special actions ([`Command::Act`]), its answers to decisions
/// ([`Command::Answer`]), its one-cell moves and the movement power a scenario's
/// `Move` means. Optional: every method has a default (none of each, `Walk`).
pub trait Vocabulary {
    /// The special actions it declares as verbs, carried by
    /// [`Command::Act`]: the battle checks an `Act`'s arguments against its verb
    /// before [`Ruleset::check`] sees it, and the window, `script` and the log show
    /// every verb from its declaration (see [`crate::engine::verb`]). None by
    /// default.
    fn verbs(&self) -> &'static [VerbSpec] {
        &[]
    }

    /// The answers to its decisions it declares, carried by [`Command::Answer`]
    /// (`phases`' Seize and ActNow, `flow`'s React): each a verb whose
    /// [`VerbSpec::actor`] is the deciding side. The battle checks an `Answer`'s
    /// arguments against its declaration before [`Ruleset::check`] sees it; `script`
    /// and the log write it from the declaration. None by default (`Pass` declines
    /// any decision).
    fn answers(&self) -> &'static [VerbSpec] {
        &[]
    }

    /// What `verb` (one of [`Vocabulary::verbs`]) costs in this battle: its declared
    /// [`VerbSpec::cost`] by default; a ruleset whose costs a level may change
    /// (`flow`'s `costs`) gives the configured amount. The window shows it with the
    /// verb's label.
    fn verb_cost(&self, _world: &World, verb: &VerbSpec) -> Option<Cost> {
        verb.cost
    }

    /// The one command that answers a
    /// [`crate::engine::decision::Pick::Several`] decision with all of `answers`
    /// (each an option's command) picked; `None` if they do not combine. By default
    /// answers of one side and verb become one listing all their units
    /// ([`crate::engine::decision::merge_unit_answers`]); a ruleset whose
    /// several-pick options are other commands merges them here.
    fn merge_answers(&self, answers: &[Command]) -> Option<Command> {
        crate::engine::decision::merge_unit_answers(answers)
    }

    /// Its movement powers that move one cell and are written as commands of their
    /// own, in scenarios and the log (`flow`'s Take a Step, F-39: `Step(unit:
    /// "Duelist", to: (3, 4))` for `Move` with the power `Step` and that cell).
    /// None by default.
    fn one_cell_moves(&self) -> &'static [&'static str] {
        &[]
    }

    /// The movement power a scenario's `Move` uses when it names none. `Walk` by
    /// default.
    fn default_move_power(&self) -> &'static str {
        "Walk"
    }
}

/// What a level of a ruleset may say beyond its stats ([`Ruleset::stats`]) and
/// `rules` overrides, for `skirmish check` and the editor: trait examples, extra
/// checks its configuration can tell, grids, skills, equipment, the AP of items
/// and a new unit's stats. Optional: every method has a default (nothing of each,
/// both grids).
pub trait LevelSchema {
    /// The problems of a level that only its configuration (with the level's
    /// playable overrides) can tell, each at its place: names the configuration
    /// defines (movement powers, conditions a hit may cause) and level names it
    /// refers to (surprising sides). None by default.
    fn check_level(&self, _level: &Level) -> Vec<Issue> {
        Vec::new()
    }

    /// Example traits of a unit or a side, for the editor's hint (empty: it reads
    /// none).
    fn trait_examples(&self, _of: TraitOf) -> &'static [&'static str] {
        &[]
    }

    /// The grids the ruleset is played on; `skirmish check` refuses a level on
    /// another, and the editor offers only these. Both by default.
    fn grids(&self) -> &'static [GridKind] {
        &[GridKind::Square, GridKind::Hex]
    }

    /// The percentile skills it rolls, in declaration order (empty: none).
    fn skills(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether its units have a size and carry weapons (the level's `size`,
    /// `weapons` and `armor` fields). `false` by default.
    fn uses_equipment(&self) -> bool {
        false
    }

    /// The AP an item's own `ap` field may set (`flow`: 1 to 2, seed 004 L41), or
    /// `None` if the ruleset reads no such field (then `skirmish check` refuses it).
    /// `None` by default.
    fn item_ap(&self) -> Option<std::ops::RangeInclusive<i32>> {
        None
    }

    /// Values a new blank unit gets for required stats, by stat name; a required
    /// stat not listed starts at 0.
    fn editor_defaults(&self) -> &'static [(&'static str, i32)] {
        &[]
    }
}

/// How the window and [`crate::engine::explain`] show a ruleset's battle: the rule
/// behind a word of its roll events, its condition badges, and how one unit stands
/// from another. Optional: every method has a default (nothing, plain badges).
pub trait Presentation {
    /// The rule of `RULES.md` that defines a word its roll events use — a modifier
    /// ("Escalation", "gang-up"), a source of advantage ("charge"), a roll's purpose
    /// ("a death save") — for [`crate::engine::explain`]; `None` when it has none.
    /// By default none: a ruleset fills it from a glossary with
    /// [`crate::engine::explain::lookup`].
    fn rule_for(&self, term: &str) -> Option<&'static str> {
        let _ = term;
        None
    }

    /// How the window shows condition `condition` (its icon, colour, short text,
    /// effect, duration and rule: [`ConditionBadge`]); `None` for a name the ruleset
    /// doesn't give (the window then shows a plain badge). A ruleset fills it from
    /// its table with [`badge_from`].
    fn condition_badge(&self, condition: &str) -> Option<ConditionBadge> {
        let _ = condition;
        None
    }

    /// How `other` stands from `unit` in the ruleset's words, for the window's
    /// hover line (`escalation`: "Nearby (5 squares)", E-GAP-01); `None` by default.
    fn relation(&self, _world: &World, _unit: UnitId, _other: UnitId) -> Option<String> {
        None
    }
}

/// What the AI asks of a ruleset instead of knowing it: ready-made commands
/// (defensive, guarding, arming, healing, unprovoking and opening actions), the
/// chance of an action's own roll, an attack's approach, what a movement power
/// does to the mover, a unit's speed, whether cleansing pays. Optional: every
/// method has a default (no such command, neutral estimates); the AI then plays
/// with the core's commands and the odds of [`Ruleset::attack_odds`] alone.
pub trait AiHints {
    /// Exact chance that a special action with a roll of its own (a `flow` Feint's
    /// opposed check) succeeds, as things stand; `None` for commands without one.
    fn action_chance(&self, _world: &World, _command: &Command) -> Option<f64> {
        None
    }

    /// The attack options ([`Ruleset::attack_options`]) with which `unit`'s attack
    /// with `power` reaches `target` out of its reach by moving first, for a
    /// ruleset whose attacks include their approach (`actfast`'s A-13: `approach`,
    /// the cells entered), or `None` when the attack can't be made so (the AI asks
    /// this of enemies out of reach). `None` by default.
    fn approach(
        &self,
        _world: &World,
        _unit: UnitId,
        _target: UnitId,
        _power: Option<&str>,
    ) -> Option<Args> {
        None
    }

    /// What moving with a movement power (`None`: its disengaging battle action, if
    /// it has one) does to the mover beyond moving. Neutral unless overridden.
    fn move_hint(&self, _power: Option<&str>) -> MoveHint {
        MoveHint::NEUTRAL
    }

    /// A ready-made command that ends `unit`'s turn in a defensive stance (better
    /// than ending it with nothing done when enemies can attack before its next
    /// turn), if the ruleset has one and it is legal now. `None` by default.
    fn defensive_action(&self, _world: &World, _unit: UnitId) -> Option<Command> {
        None
    }

    /// A ready-made command that puts `unit` on guard (`phases`' Defend, P-27:
    /// attacks on it are at a disadvantage until its next turn), if the ruleset has
    /// one: the AI weighs it like an action of the turn, against attacking (unlike
    /// [`AiHints::defensive_action`], which it takes only rather than end the turn
    /// with nothing done). Not checked for legality (ask [`Ruleset::check`]). `None`
    /// by default.
    fn guard_action(&self, _world: &World, _unit: UnitId) -> Option<Command> {
        None
    }

    /// A ready-made command that readies `unit`'s weapon when it has none at hand
    /// (`wounds`' Draw of a sheathed weapon, W-06), legal now: the AI takes it before
    /// anything else. `None` by default.
    fn arm_action(&self, _world: &World, _unit: UnitId) -> Option<Command> {
        None
    }

    /// A ready-made command that `attack`'s attacker can take just before it to make
    /// it better, at no cost to anything else it could still do this turn
    /// (`wounds`: +1 to hit or +1 melee damage for a spare Bonus Action, W-09),
    /// legal now. The AI (`normal`, and `hard` through it) takes it before an attack
    /// it has chosen, for as long as the ruleset offers one. `None` by default.
    fn boost_action(&self, _world: &World, _attack: &Command) -> Option<Command> {
        None
    }

    /// A ready-made command that heals `unit` (`escalation`'s Rally, E-43), legal
    /// now, with the hit points it heals on average; the AI weighs it like a
    /// healing item when the unit is badly hurt. `None` by default.
    fn recovery_action(&self, _world: &World, _unit: UnitId) -> Option<(Command, f64)> {
        None
    }

    /// The command that moves `unit` along `path` (start excluded) with the
    /// ruleset's move that provokes nothing and is no movement power (`phases`'
    /// Disengage battle action, P-28: the move [`AiHints::move_hint`] describes for
    /// `None`), if it has one; not checked for legality. `None` by default.
    fn unprovoking_move(&self, _unit: UnitId, _path: &[Cell]) -> Option<Command> {
        None
    }

    /// A ready-made command that, when it succeeds (with the chance
    /// [`AiHints::action_chance`] gives), makes `unit`'s next attack on `target` go
    /// off with the odds of [`Assume::opened`]; `Some` only when the ruleset has
    /// such an action and it costs `unit` no attack this turn. `None` by default.
    fn opening_action(&self, _world: &World, _unit: UnitId, _target: UnitId) -> Option<Command> {
        None
    }

    /// The unit's own speed stat (cells per move) if its level gives one; `None`
    /// when it doesn't (the AI then guesses how far the unit can come). By default
    /// the ruleset has no speed stat.
    fn speed_stat(&self, _world: &World, _unit: UnitId) -> Option<u32> {
        None
    }

    /// Whether a cleansing item (`effect: Cleanse`) is worth using on `unit` now: it
    /// carries a condition that hinders it and that cleansing removes. `false` by
    /// default.
    fn cleanse_worth(&self, _world: &World, _unit: UnitId) -> bool {
        false
    }
}

/// A labelled turn order ("Battle order", units in the order they act).
pub type TurnOrder = (String, Vec<UnitId>);

/// What an attack would do, from the odds engine.
#[derive(Clone, Debug, PartialEq)]
pub struct AttackPreview {
    /// Exact chance to hit.
    pub chance: f64,
    /// Expected damage (chance × mean damage).
    pub expected_damage: f64,
    /// Exact chance the target is defeated by this attack.
    pub kill_chance: f64,
    /// The modifiers behind the chance, each a short phrase ("advantage: tier difference").
    pub modifiers: Vec<String>,
    /// The roll in one line, e.g. `2d6+1d8kh2 +3 vs DEF 12`.
    pub roll: String,
}

/// Hypothetical moves (and a won opening action) an odds query assumes were made this round, by movement power
/// name: the ruleset applies what that power does to attacks (e.g. `phases` Hustle
/// gives the attacker disadvantage, Charge gives it advantage against the target,
/// Run forbids attacking and gives attackers of the runner advantage). `None`, or a
/// power the ruleset gives no such effect, changes nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Assume<'a> {
    /// The attacker moved with this power (a charge: charging at the target).
    pub attacker_moved: Option<&'a str>,
    /// The target moved with this power.
    pub target_moved: Option<&'a str>,
    /// The attacker has just won its opening action against the target
    /// ([`AiHints::opening_action`]: `flow`'s Feint, F-34 — its next physical attack
    /// on it has Advantage); rulesets without one ignore it.
    pub opened: bool,
}

/// The numbers of an [`AttackPreview`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AttackOdds {
    /// Exact chance to hit.
    pub chance: f64,
    /// Expected damage (chance × mean damage).
    pub expected_damage: f64,
    /// Exact chance the target is defeated by this attack.
    pub kill_chance: f64,
}

/// What a move would cost and provoke.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MovePreview {
    /// Movement spent.
    pub cost: u32,
    /// How many attacks (opportunity attacks, reactions) it provokes.
    pub provocations: usize,
    /// What it costs and provokes in the ruleset's words, one line each ("free hit
    /// from Orc (leaving its zone; 1 Free Hit Slot left)"); empty when the numbers
    /// say it all.
    pub notes: Vec<String>,
}

/// An attack's preview with some of its options set
/// ([`Ruleset::preview_attack_with`]).
#[derive(Clone, Debug, PartialEq)]
pub struct OptionPreview {
    /// The attack's odds, modifiers and roll with them.
    pub attack: AttackPreview,
    /// What the options add, each with its exact chance (`wounds`: "Slowing
    /// wound: movement -2, Agility -1", 0.31); empty when they add nothing.
    pub effects: Vec<(String, f64)>,
}

/// How the window shows one of a ruleset's conditions (issue 33): a Game Icons
/// glyph tinted by a colour on the map, and in its tooltip the name, what it does,
/// how long it lasts and the rule that says so. Text is ASCII (the window's font).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConditionBadge {
    /// The icon: the stem of its file in `assets/icons/` (`snail`), one of
    /// `tools/icons/icons.txt`.
    pub icon: &'static str,
    /// The icon's tint, sRGB (one of [`badge_colour`]'s).
    pub colour: [u8; 3],
    /// Short text where there is no room for the name ("SLOW").
    pub short: &'static str,
    /// What it does, in one line ("loses the rest of its movement").
    pub effect: &'static str,
    /// How long it lasts, in the rules' words ("save ends", "1 round").
    pub duration: &'static str,
    /// The rule of RULES.md that defines it (`P-18`).
    pub rule: &'static str,
}

/// The tints of condition badges, by what a condition does (on a dark backing).
pub mod badge_colour {
    /// Deals damage or opens the unit to it (wounds, ongoing damage, Vulnerable).
    pub const HARM: [u8; 3] = [240, 90, 80];
    /// Hinders its rolls or movement (Slowed, Dazed, Shaken).
    pub const HINDER: [u8; 3] = [245, 170, 60];
    /// Holds or disables it (Grabbed, Stunned, Immobilized).
    pub const HELD: [u8; 3] = [200, 140, 255];
    /// Helps it (boosts, Advantage).
    pub const BOON: [u8; 3] = [120, 220, 120];
    /// A defensive stance (Defending, Dodging, Total Defense).
    pub const GUARD: [u8; 3] = [110, 185, 255];
    /// A state worth knowing that neither helps nor hinders much (Hidden,
    /// Channeling, Running).
    pub const NOTE: [u8; 3] = [215, 215, 215];
}

/// The badge of condition `name` in a ruleset's `table` of (condition, badge) pairs
/// (for [`Presentation::condition_badge`]).
pub fn badge_from(table: &[(&str, ConditionBadge)], name: &str) -> Option<ConditionBadge> {
    table
        .iter()
        .find(|(condition, _)| *condition == name)
        .map(|(_, badge)| *badge)
}

/// The small number a condition's badge shows, from the unit's `instances` of it
/// in `round`: how many when it has several (two Slowing wounds, W-GAP-08), else
/// its magnitude's size (a `+2` Hit boost, `5` ongoing damage, `-2d`), else the
/// rounds it has left when that is more than this one; `None` when there is
/// nothing to count, or only 1 (the badge itself says one).
pub fn badge_number(
    instances: &[&crate::engine::conditions::Condition],
    round: u32,
) -> Option<u32> {
    use crate::engine::conditions::Duration;
    match instances {
        [] => None,
        [one] => match (one.magnitude, one.duration) {
            (Some(m), _) if m.amount() != 0 => Some(m.amount().unsigned_abs()),
            (_, Duration::EndOfRound(last)) if last > round => Some(last - round + 1),
            _ => None,
        },
        several => u32::try_from(several.len()).ok(),
    }
    .filter(|n| *n > 1)
}
