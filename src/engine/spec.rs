//! What a battle is made of: map, sides, units, powers, weapons, items, victory —
//! the plain serde data a level file holds (RON level format, version 1).
//!
//! The engine builds a battle from these types and rulesets check them; it knows
//! nothing of files. The level layer ([`crate::level`]) reads and writes them as RON,
//! with `file:line:col` errors ([`crate::level::load`]) and the format's semantic
//! checks ([`crate::engine::problems`]); `docs/levels.md` documents every field with
//! an example.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::board::{Cell, GridKind};

/// A level: map, sides, units, ruleset and how the battle is won.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// Display name.
    pub name: String,
    /// Format version; only 1 exists.
    #[serde(default = "default_version")]
    pub version: u32,
    /// Ruleset id: `phases` or `flow`.
    pub ruleset: String,
    /// Square or hex grid.
    pub grid: GridKind,
    /// Width and height in cells.
    pub size: (u32, u32),
    /// Terrain rows, top row first, one character per cell: `.` open, `~` difficult,
    /// `#` impassable. Empty means all open.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<String>,
    /// The sides, in the order they are listed everywhere.
    pub sides: Vec<SideDef>,
    /// The units, in roster order (ties and logs use this order).
    pub units: Vec<UnitDef>,
    /// Overrides of the ruleset configuration for this level, by constant name
    /// (see `assets/rulesets/<ruleset>.ron` for the names and defaults).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rules: BTreeMap<String, ron::Value>,
    /// How the battle is won.
    #[serde(default)]
    pub victory: Victory,
    /// Seed for the dice when the level is played; a fixed default otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

fn default_version() -> u32 {
    1
}

/// A side (team) of the battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideDef {
    /// Display name; units refer to their side by it.
    pub name: String,
    /// Who plays this side.
    #[serde(default)]
    pub controller: Controller,
    /// How this side answers optional decisions (seize the initiative, act from a
    /// delay, reactions) when nobody is asked.
    #[serde(default)]
    pub decisions: DecisionPolicy,
    /// Phrases the ruleset reads about the side as a whole (`escalation`: `PCs` or
    /// `Enemies`, E-16). Each ruleset checks its own; empty for the others.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traits: Vec<String>,
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Controller {
    /// A person at the keyboard.
    #[default]
    Human,
    /// The computer, with the given policy.
    Ai(AiPolicy),
}

/// How strong an AI plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum AiPolicy {
    /// Uniform over legal commands: a baseline.
    Random,
    /// Greedy.
    Easy,
    /// Weighs threats and focuses fire.
    #[default]
    Normal,
    /// Looks ahead: plays `Normal`'s best few commands out in forks of the battle.
    Hard,
}

/// How optional decisions of a side are answered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum DecisionPolicy {
    /// The engine stops with a pending decision and waits for an answer.
    #[default]
    Ask,
    /// The engine always declines (never seizes, never acts early from a delay,
    /// never reacts).
    Never,
    /// The engine answers by itself with the option of best expected value (`flow`
    /// reactions). In `phases` this is the same as `Never`: seizing and acting early
    /// from a delay are never trivially good, so an automatic side declines them.
    Auto,
}

/// A unit as placed in a level.
///
/// The `flow` fields (`size`, `skills`, `weapons`, `armor`) are optional and ignored
/// by `phases`; build one in code with `UnitDef { name, side, ..Default::default() }`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitDef {
    /// Display name; unique within the level.
    pub name: String,
    /// Name of its side.
    pub side: String,
    /// Starting cell `(column, row)`.
    pub pos: (i32, i32),
    /// A portable archetype (`"archer"`, `"brute"`…, see
    /// [`crate::engine::archetype`] and `docs/archetypes.md`) instead of stats: the
    /// level's ruleset realizes it as its own stats, powers, weapons and armour,
    /// which a file then leaves out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archetype: Option<String>,
    /// The tier (1 to 3) an `archetype` unit plays at; absent, the archetype's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tier: Option<u32>,
    /// Stats by name, as the ruleset declares them (`phases`: INT, AGI, ATK, DEF,
    /// Tier, and optionally HP and Speed).
    #[serde(default)]
    pub stats: BTreeMap<String, i32>,
    /// Attack powers; empty means the ruleset's default power.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub powers: Vec<PowerDef>,
    /// Extra movement powers beyond the ruleset defaults, by name (they must be
    /// defined in the ruleset configuration).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub movement: Vec<String>,
    /// Items the unit can activate.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<ItemDef>,
    /// Size category (`flow`: sets Reach and what it may parry, grapple, shove).
    #[serde(default, skip_serializing_if = "is_default")]
    pub size: Size,
    /// Percentile skills by name (`flow`: Agility, Athletics, Melee, Ranged,
    /// Endurance, Deception, Knowledge).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub skills: BTreeMap<String, i32>,
    /// Weapons and shields carried, held or stowed (`flow`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weapons: Vec<WeaponDef>,
    /// Flat damage reduction after multipliers (`flow`, F-GAP-06).
    #[serde(default, skip_serializing_if = "is_default")]
    pub armor: i32,
    /// Phrases the ruleset reads about the unit beyond its numbers (`escalation`:
    /// its initiative band `Fast`, its stance `Ranged`, `Resist Fire 14+`,
    /// `Weak Cold`, `Vulnerable`, `Flying`). Each ruleset checks its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traits: Vec<String>,
    /// The icon drawn on its marker, one of `assets/icons/` by name (`bow-arrow`,
    /// `ogre`; see `crate::level::icons`); by default one its weapons or powers call
    /// for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icon: Option<String>,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// Size categories, smallest first (F-01, F-24, F-46).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum Size {
    /// Reach 1.
    Small,
    /// Reach 1 (player characters).
    #[default]
    Medium,
    /// Reach 2.
    Large,
    /// Reach 3.
    Huge,
    /// Reach 4 (F-GAP-11: +1 per size above Huge).
    Gargantuan,
}

impl Size {
    /// Reach from size alone: 1 up to Medium, +1 per category above (F-46, F-GAP-11).
    pub fn reach(self) -> u32 {
        (self as u32).saturating_sub(Size::Medium as u32) + 1
    }
}

/// A weapon or shield a unit carries (`flow`, F-01, F-GAP-06).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponDef {
    /// Display name; commands refer to it.
    pub name: String,
    /// Damage dice (F-GAP-06 defaults: dagger 1d4, sword 1d8, polearm 1d10, shortbow 1d6).
    #[serde(default = "default_damage")]
    pub damage: String,
    /// Melee reach in hexes (F-46: a 2h polearm has Reach 2). Ignored when ranged.
    #[serde(default = "one")]
    pub reach: u32,
    /// Range value of a ranged weapon in hexes (F-48); 0 = a melee weapon.
    #[serde(default, skip_serializing_if = "is_default")]
    pub range: u32,
    /// Category: Finesse and Brawl weapons ignore the off-hand penalty (F-51); a
    /// Shield is needed to Block (F-20) and is not an attack.
    #[serde(default, skip_serializing_if = "is_default")]
    pub category: WeaponCategory,
    /// Needs both hands.
    #[serde(default, skip_serializing_if = "is_default")]
    pub two_handed: bool,
    /// Where it is: in the main hand, the off hand, or stowed (F-33).
    #[serde(default, skip_serializing_if = "is_default")]
    pub held: Hand,
    /// Ongoing conditions a hit puts on the target (F-GAP-22), by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_hit: Vec<String>,
}

impl WeaponDef {
    /// Whether it is a ranged weapon.
    pub fn ranged(&self) -> bool {
        self.range > 0
    }

    /// Whether it can be attacked with (shields can't).
    pub fn attacks(&self) -> bool {
        self.category != WeaponCategory::Shield
    }
}

/// Weapon categories the rules look at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WeaponCategory {
    /// Any other weapon.
    #[default]
    Standard,
    /// No off-hand penalty (F-51).
    Finesse,
    /// No off-hand penalty (F-51); unarmed strikes are Brawl.
    Brawl,
    /// A 2h polearm (usually Reach 2).
    Polearm,
    /// A single-target spell: casting provokes Reaction Attacks (F-26, F-27).
    Spell,
    /// A shield: enables Block (F-20).
    Shield,
}

/// Where a carried weapon is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Hand {
    /// The dominant hand.
    #[default]
    Main,
    /// The non-dominant hand: −10 Melee unless Finesse or Brawl (F-51).
    Off,
    /// Sheathed or in the bag: Draw (1 AP) to use it (F-33).
    Stowed,
}

impl UnitDef {
    /// The starting cell.
    pub fn cell(&self) -> Cell {
        Cell::new(self.pos.0, self.pos.1)
    }
}

/// An attack power.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerDef {
    /// Display name.
    pub name: String,
    /// Reach (melee) or range (ranged) in cells.
    #[serde(default = "one")]
    pub range: u32,
    /// A ranged power needs line of sight and is never used for opportunity attacks.
    #[serde(default)]
    pub ranged: bool,
    /// Damage dice on a success (see the dice expression syntax).
    #[serde(default = "default_damage")]
    pub damage: String,
    /// Whether the attacker's Tier is added to the damage.
    #[serde(default = "yes")]
    pub add_tier: bool,
    /// Conditions a success puts on the target.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_hit: Vec<EffectDef>,
    /// The type of its damage, for rulesets that have types (`escalation`: Fire,
    /// Cold, …; none means Weapon, E-10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<String>,
    /// Phrases from the power's header that its ruleset reads (`escalation`:
    /// `Encounter`, `Recharge 11+`, `Provokes`, `Escalation 3+`, `Spend 1 Power`,
    /// `Quick`, E-26 … E-30). Each ruleset checks its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traits: Vec<String>,
}

fn one() -> u32 {
    1
}
fn yes() -> bool {
    true
}
fn default_damage() -> String {
    "1d6".into()
}

/// A condition a power applies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectDef {
    /// Condition name, e.g. `Slowed`.
    pub condition: String,
    /// How long it lasts.
    #[serde(default)]
    pub lasts: EffectDuration,
}

/// How long an applied condition lasts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum EffectDuration {
    /// Until the affected unit saves in an End Phase.
    #[default]
    SaveEnds,
    /// While the attacker keeps making sustain saves in the End Phase.
    Sustained,
    /// Until the end of the current round.
    EndOfRound,
}

/// An item with a limited number of uses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemDef {
    /// Display name.
    pub name: String,
    /// Uses left.
    #[serde(default = "one")]
    pub uses: u32,
    /// What activating it does.
    pub effect: ItemEffect,
    /// The AP using it costs (`flow`: a magic item costs 1 or 2 AP, "specific to
    /// each item", seed 004 L41); absent, the ruleset's own cost (`flow`'s
    /// `costs.item`). Only a ruleset that reads it ([`crate::engine::ruleset::LevelSchema::item_ap`])
    /// accepts it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ap: Option<i32>,
}

/// What an item does when activated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ItemEffect {
    /// Heals its user by the rolled dice (never above maximum HP).
    Heal(String),
    /// Makes an attack with this power.
    Power(PowerDef),
    /// Ends every save-ends condition on its user.
    Cleanse,
}

/// How a battle is won.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    /// The battle is a draw after this many rounds, if set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rounds: Option<u32>,
    /// An AI-vs-AI battle (`skirmish sim`) is stopped, unfinished, after this many
    /// commands, if set; otherwise after a default derived from the roster and the
    /// round limit (see [`crate::ai::sim::command_limit`]). At least 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_commands: Option<u64>,
}
