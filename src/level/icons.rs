//! The icon drawn on a unit's marker (issue 17): a glyph of the Game Icons set
//! (`assets/icons/`, credits in `assets/CREDITS.md`) named by the unit's `icon`
//! field, or chosen from what it fights with: its weapons, then its powers, by the
//! words in their names (`Longbow` → a bow, `Claws` → claws, `Firebolt` → a
//! staff), then a sword.

use crate::engine::spec::UnitDef;

/// Every icon a level may name, as `assets/icons/NAME.png` has it
/// (`tools/icons/icons.txt` lists the same).
pub const ICONS: &[&str] = &[
    "broadsword",
    "sword-brandish",
    "plain-dagger",
    "spears",
    "battle-axe",
    "mace-head",
    "bow-arrow",
    "crossbow",
    "sling",
    "wizard-staff",
    "fire-ray",
    "claw-slashes",
    "fist",
    "ogre",
    "skeleton",
    "shield",
];

/// Words in a weapon's or power's name and the icon they call for, the first match
/// winning (so `Crossbow` is a crossbow, not a bow).
const WORDS: &[(&str, &str)] = &[
    ("crossbow", "crossbow"),
    ("bow", "bow-arrow"),
    ("sling", "sling"),
    ("spear", "spears"),
    ("pike", "spears"),
    ("halberd", "spears"),
    ("lance", "spears"),
    ("glaive", "spears"),
    ("axe", "battle-axe"),
    ("mace", "mace-head"),
    ("club", "mace-head"),
    ("hammer", "mace-head"),
    ("flail", "mace-head"),
    ("dagger", "plain-dagger"),
    ("knife", "plain-dagger"),
    ("claw", "claw-slashes"),
    ("bite", "claw-slashes"),
    ("grasp", "claw-slashes"),
    ("fang", "claw-slashes"),
    ("talon", "claw-slashes"),
    ("fire", "fire-ray"),
    ("bolt", "fire-ray"),
    ("ray", "fire-ray"),
    ("lance of", "fire-ray"),
    ("staff", "wizard-staff"),
    ("hex", "wizard-staff"),
    ("song", "wizard-staff"),
    ("spell", "wizard-staff"),
    ("two-handed", "sword-brandish"),
    ("greatsword", "sword-brandish"),
    ("unarmed", "fist"),
    ("fist", "fist"),
    ("shield", "shield"),
    ("sword", "broadsword"),
    ("one-handed", "broadsword"),
    ("rapier", "broadsword"),
    ("blade", "broadsword"),
];

/// The icon that a weapon or power name calls for, if a word of it does.
pub fn icon_of_name(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    WORDS
        .iter()
        .find(|(word, _)| lower.contains(word))
        .map(|&(_, icon)| icon)
}

/// The icon of a unit: its `icon` field when it names one of [`ICONS`], else the
/// first of its weapons and powers whose name calls for one, else a sword.
pub fn icon_for(def: &UnitDef) -> &'static str {
    if let Some(named) = def.icon.as_deref()
        && let Some(&icon) = ICONS.iter().find(|i| **i == named)
    {
        return icon;
    }
    def.weapons
        .iter()
        .map(|w| w.name.as_str())
        .chain(def.powers.iter().map(|p| p.name.as_str()))
        .find_map(icon_of_name)
        .unwrap_or("broadsword")
}

/// Why a unit's `icon` is not one of [`ICONS`], naming the valid ones.
pub fn check_icon(icon: &str) -> Result<(), String> {
    if ICONS.contains(&icon) {
        Ok(())
    } else {
        Err(format!(
            "unknown icon `{icon}`; expected one of: {}",
            ICONS.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::spec::PowerDef;

    fn unit(powers: &[&str]) -> UnitDef {
        UnitDef {
            name: "U".into(),
            side: "S".into(),
            powers: powers
                .iter()
                .map(|n| ron::from_str::<PowerDef>(&format!("(name: {n:?})")).unwrap())
                .collect(),
            ..UnitDef::default()
        }
    }

    /// A unit shows what it fights with: the first weapon or power whose name says
    /// so; a named icon wins; a unit with nothing telling shows a sword.
    #[test]
    fn icons_come_from_the_units_data() {
        assert_eq!(icon_for(&unit(&["Longbow", "Dagger"])), "bow-arrow");
        assert_eq!(icon_for(&unit(&["Crossbow"])), "crossbow");
        assert_eq!(icon_for(&unit(&["Claws"])), "claw-slashes");
        assert_eq!(icon_for(&unit(&["Firebolt", "Staff"])), "fire-ray");
        assert_eq!(icon_for(&unit(&["Greataxe"])), "battle-axe");
        assert_eq!(icon_for(&unit(&["Smite"])), "broadsword");
        let mut named = unit(&["Longbow"]);
        named.icon = Some("ogre".into());
        assert_eq!(icon_for(&named), "ogre");
        assert!(check_icon("ogre").is_ok());
        let e = check_icon("dragon").unwrap_err();
        assert!(e.contains("`dragon`") && e.contains("bow-arrow"));
    }

    /// Every icon has its picture in assets/icons/ and its line in
    /// tools/icons/icons.txt, and every word calls for a listed icon.
    #[test]
    fn every_icon_is_drawn_and_built() {
        let listed = std::fs::read_to_string("tools/icons/icons.txt").unwrap();
        for icon in ICONS {
            assert!(
                std::path::Path::new(&format!("assets/icons/{icon}.png")).is_file(),
                "{icon}.png"
            );
            assert!(
                listed.lines().any(|l| l.trim() == *icon),
                "{icon} in icons.txt"
            );
        }
        assert!(WORDS.iter().all(|(_, i)| ICONS.contains(i)));
    }
}
