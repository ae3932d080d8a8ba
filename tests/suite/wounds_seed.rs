//! Seed sentences of `wounds` (seed 002) the audit `docs/rules/wounds.md` found
//! unplayed, played with scripted dice: a spell that removes a wound (W-19), a spell
//! that grants disengagement (W-28), cancelling a channeled spell and upkeeping one
//! (W-33), resistances before the wound threshold (W-18), and the level errors of
//! their traits. Each test names the rule ids it checks and ends with every
//! scripted die drawn.

use skirmish::engine::command::CommandError;
use skirmish::engine::rulesets::wounds::events::WoundsEvent;
use skirmish::engine::verb::ArgValue;
use skirmish::engine::{Battle, Command};

use crate::common::{hp, id};
use crate::wounds::{
    act, actions, all_dice_used, armed, attack, battle, damage_to, end, has, level, mv, pool,
    refusal, rolls, run, spell, stat, told, weapon, with, with_power, wu,
};

/// `Invoke(unit, power, target)`.
fn invoke(b: &Battle, unit: &str, power: &str, target: &str) -> Command {
    act(
        b,
        unit,
        "Invoke",
        &[
            ("power", ArgValue::Name(power.into())),
            ("target", ArgValue::Unit(id(b, target))),
        ],
    )
}

fn cancel(b: &Battle, unit: &str) -> Command {
    act(b, unit, "Cancel", &[])
}

/// Whether `events` tell a free hit or a missing slot for one.
fn free_hit_drawn(events: &[skirmish::engine::event::Event]) -> bool {
    told(events)
        .iter()
        .any(|e| matches!(e, WoundsEvent::FreeHit { .. } | WoundsEvent::NoSlot { .. }))
}

/// W-19 / W-GAP-08 / W-12: a spell whose traits say `Removes a wound` takes the
/// target's most recent wound away (the healing order), heals no HP, costs its MP
/// and its cast time; it is cast on the caster or an ally, not on an enemy nor on a
/// unit with no wound, and it attacks nobody.
#[test]
fn w_19_a_spell_that_removes_a_wound() {
    let mend = spell("Mend", "1d6", &["Removes a wound", "MP 2"]);
    let l = level(
        (8, 4),
        &[],
        vec![
            armed(
                wu("Hero", "Heroes", (1, 1), 3, 5, 20),
                vec![weapon("Greataxe")],
            ),
            wu("Ogre", "Foes", (2, 1), 2, 0, 40),
            armed(
                stat(wu("Shaman", "Foes", (4, 1), 1, 0, 20), "MP", 3),
                vec![mend],
            ),
        ],
    );
    let faces = [
        10, 6, // Slowing: d12 6, a wound
        10, 7, // the extra attack, Weakening: d12 7, a wound
    ];
    let mut b = battle(&l, &faces);
    run(&mut b, |b| {
        with_power(b, "Hero", "Ogre", "Greataxe", Some("Slowing"))
    });
    run(&mut b, |b| {
        with_power(b, "Hero", "Ogre", "Greataxe", Some("Weakening"))
    });
    end(&mut b, "Hero");
    end(&mut b, "Ogre");
    assert!(has(&b, "Ogre", "Wounded (Slowing)") && has(&b, "Ogre", "Wounded (Weakening)"));
    let err = refusal(&b, &invoke(&b, "Shaman", "Mend", "Hero"));
    assert!(err.contains("Hero is not one (W-19, W-28)"), "{err}");
    let err = refusal(&b, &invoke(&b, "Shaman", "Mend", "Shaman"));
    assert!(
        err.contains("Shaman has no wound to remove (W-19)"),
        "{err}"
    );
    let err = refusal(&b, &with_power(&b, "Shaman", "Hero", "Mend", None));
    assert!(err.contains("Mend attacks nobody"), "{err}");
    let events = run(&mut b, |b| invoke(b, "Shaman", "Mend", "Ogre"));
    assert!(
        rolls(&events).is_empty(),
        "no attack, no healing dice: {events:?}"
    );
    assert!(
        told(&events).iter().any(|e| matches!(
            e,
            WoundsEvent::WoundHealed { aim, .. } if aim == "Weakening"
        )),
        "the most recent wound: {events:?}"
    );
    assert!(!has(&b, "Ogre", "Wounded (Weakening)"));
    assert!(
        has(&b, "Ogre", "Wounded (Slowing)"),
        "the older wound stays"
    );
    assert_eq!(
        hp(&b, "Ogre"),
        40 - 6 - 7,
        "it removes a wound, it heals no HP"
    );
    assert_eq!(pool(&b, "Shaman", "MP"), Some(1));
    assert_eq!(actions(&b, "Shaman"), (0, 1, 2), "a cast time of 1: the AA");
    let err = refusal(&b, &invoke(&b, "Shaman", "Mend", "Ogre"));
    assert!(err.contains("Mend costs 2 MP; Shaman has 1"), "{err}");
    all_dice_used(&b);
}

/// W-28 / W-GAP-25 / W-12: a spell that `Grants disengage` lets its target (here an
/// ally) leave an enemy's melee zone for the rest of the round without drawing a
/// free hit, for the spell's cast time instead of Disengage's AA or 2 BA; the caster
/// itself, not disengaged, still draws one.
#[test]
fn w_28_a_spell_that_grants_disengagement() {
    let blink = spell("Blink", "1d6", &["Grants disengage"]);
    let l = level(
        (10, 10),
        &[],
        vec![
            armed(wu("Hero", "Heroes", (4, 5), 3, 0, 30), vec![blink]),
            wu("Pal", "Heroes", (5, 6), 2, 0, 30),
            armed(wu("Ogre", "Foes", (5, 5), 0, 0, 30), vec![weapon("Dagger")]),
        ],
    );
    // The Hero leaves the Ogre's zone undisengaged: the free hit's d20 2 misses.
    let mut b = battle(&l, &[2]);
    run(&mut b, |b| invoke(b, "Hero", "Blink", "Pal"));
    assert!(has(&b, "Pal", "Disengaged"));
    assert_eq!(actions(&b, "Hero"), (0, 1, 2), "Blink took the AA, no BA");
    let err = refusal(&b, &invoke(&b, "Hero", "Blink", "Pal"));
    assert!(err.contains("disengaged"), "{err}");
    let events = run(&mut b, |b| mv(b, "Hero", &[(3, 5)]));
    assert!(free_hit_drawn(&events), "the caster: {events:?}");
    end(&mut b, "Hero");
    let events = run(&mut b, |b| mv(b, "Pal", &[(6, 7), (7, 7)]));
    assert!(!free_hit_drawn(&events), "W-28: {events:?}");
    assert!(rolls(&events).is_empty());
    end(&mut b, "Pal");
    end(&mut b, "Ogre");
    assert!(!has(&b, "Pal", "Disengaged"), "for the round (W-GAP-25)");
    all_dice_used(&b);
}

/// W-33 / W-29: `Cancel` stops a channeled spell: the caster is no longer
/// flat-footed, the spell never goes off, its MP and the actions paid stay spent.
/// With nothing channeled, Cancel is refused citing W-33.
#[test]
fn w_33_cancel_a_channeled_spell() {
    let fireball = spell("Fireball", "2d6", &["Cast 3", "MP 2"]);
    let l = level(
        (8, 4),
        &[],
        vec![
            armed(
                stat(wu("Mage", "Heroes", (0, 1), 3, 2, 20), "MP", 4),
                vec![fireball],
            ),
            armed(wu("Orc", "Foes", (1, 1), 2, 1, 20), vec![weapon("Dagger")]),
        ],
    );
    // The Orc's d20 4 + 1 = 5: it would hit the channeling Mage (5), it misses 13.
    let mut b = battle(&l, &[4]);
    let err = b.check(&cancel(&b, "Mage")).unwrap_err();
    assert!(
        matches!(&err, CommandError::Forbidden(m) if m.contains("nothing to cancel (W-33)")),
        "{err}"
    );
    run(&mut b, |b| attack(b, "Mage", "Orc"));
    assert!(has(&b, "Mage", "Channeling"));
    let events = run(&mut b, |b| cancel(b, "Mage"));
    assert!(
        told(&events).iter().any(|e| matches!(
            e,
            WoundsEvent::Canceled { spell, .. } if spell == "Fireball"
        )),
        "{events:?}"
    );
    assert!(!has(&b, "Mage", "Channeling"));
    assert_eq!(pool(&b, "Mage", "MP"), Some(2), "the MP stays spent");
    end(&mut b, "Mage");
    let events = run(&mut b, |b| attack(b, "Orc", "Mage"));
    assert_eq!(rolls(&events)[0].target, Some(13), "no longer flat-footed");
    let events = end(&mut b, "Orc");
    assert!(
        rolls(&events).is_empty(),
        "the spell never goes off: {events:?}"
    );
    assert!(damage_to(&events, id(&b, "Orc")).is_empty());
    assert_eq!(actions(&b, "Mage"), (1, 1, 2), "its next turn is its own");
    all_dice_used(&b);
}

/// W-33 / W-28 / W-29 / W-09: an `Upkeep 1` spell is channeling: its effect (here
/// disengagement) lasts while the caster pays 1 MP as each of its turns starts, the
/// caster flat-footed meanwhile; a Bonus Action toggles the effect off or on; when
/// its MP can't pay, the spell and its effect end. `Cancel` ends it at once.
#[test]
fn w_33_w_09_an_upkeep_spell_lasts_while_paid_and_toggles() {
    let haste = spell("Haste", "1d6", &["Grants disengage", "Upkeep 1"]);
    let l = level(
        (10, 10),
        &[],
        vec![
            armed(
                stat(wu("Warden", "Heroes", (0, 0), 3, 0, 30), "MP", 1),
                vec![haste.clone()],
            ),
            wu("Pal", "Heroes", (5, 6), 2, 0, 30),
            armed(wu("Orc", "Foes", (1, 0), 0, 1, 30), vec![weapon("Dagger")]),
            armed(
                stat(wu("Witch", "Foes", (9, 9), -1, 0, 30), "MP", 5),
                vec![haste],
            ),
        ],
    );
    // Round 1: the Orc's d20 4 + 1 = 5 hits the flat-footed Warden; dagger d4 1.
    let mut b = battle(&l, &[4, 1]);
    run(&mut b, |b| invoke(b, "Warden", "Haste", "Pal"));
    assert!(has(&b, "Warden", "Upkeeping") && has(&b, "Pal", "Disengaged"));
    end(&mut b, "Warden");
    end(&mut b, "Pal");
    let events = run(&mut b, |b| attack(b, "Orc", "Warden"));
    assert_eq!(rolls(&events)[0].target, Some(5), "upkeeping is channeling");
    end(&mut b, "Orc");
    run(&mut b, |b| invoke(b, "Witch", "Haste", "Witch"));
    assert!(b.check(&cancel(&b, "Witch")).is_ok());
    run(&mut b, |b| cancel(b, "Witch"));
    assert!(!has(&b, "Witch", "Disengaged") && !has(&b, "Witch", "Upkeeping"));
    // Round 2: the Warden pays 1 MP; the Pal is still disengaged past the round.
    let events = end(&mut b, "Witch");
    assert!(
        told(&events).iter().any(|e| matches!(
            e,
            WoundsEvent::Spent { actions, .. } if actions == "1 MP"
        )),
        "{events:?}"
    );
    assert_eq!(pool(&b, "Warden", "MP"), None, "no MP left");
    // W-09: a Bonus Action toggles the effect off, another back on.
    run(&mut b, |b| act(b, "Warden", "Toggle", &[]));
    assert!(!has(&b, "Pal", "Disengaged") && has(&b, "Warden", "Upkeeping"));
    run(&mut b, |b| act(b, "Warden", "Toggle", &[]));
    assert!(has(&b, "Pal", "Disengaged"));
    assert_eq!(actions(&b, "Warden"), (1, 1, 0), "2 BA");
    let err = refusal(&b, &act(&b, "Warden", "Toggle", &[]));
    assert!(err.contains("has not 1 BA left for Toggle"), "{err}");
    end(&mut b, "Warden");
    let err = refusal(&b, &act(&b, "Pal", "Toggle", &[]));
    assert!(err.contains("Pal upkeeps no spell"), "{err}");
    assert!(has(&b, "Pal", "Disengaged"));
    let events = run(&mut b, |b| mv(b, "Pal", &[(6, 7), (7, 7)]));
    assert!(rolls(&events).is_empty() && !free_hit_drawn(&events));
    end(&mut b, "Pal");
    end(&mut b, "Orc");
    end(&mut b, "Witch");
    // Round 3: no MP for the upkeep: the spell and its effect end.
    assert!(!has(&b, "Warden", "Upkeeping"));
    assert!(!has(&b, "Pal", "Disengaged"));
    let err = refusal(&b, &cancel(&b, "Warden"));
    assert!(err.contains("(W-33)"), "{err}");
    all_dice_used(&b);
}

/// W-18 / W-GAP-03: a resistance (`Resist N`) takes N off every hit after armor,
/// before the wound threshold: 7 damage less Light armor 1 and Resist 2 is 4, no
/// wound, where armor alone would leave 6, a wound.
#[test]
fn w_18_resistance_reduces_damage_before_the_wound_threshold() {
    let l = level(
        (8, 4),
        &[],
        vec![
            armed(
                wu("Hero", "Heroes", (1, 1), 3, 5, 20),
                vec![weapon("Greataxe")],
            ),
            with(
                wu("Golem", "Foes", (2, 1), 0, 0, 40),
                &["Light armor", "Resist 2"],
            ),
            with(wu("Guard", "Foes", (1, 2), -1, 0, 40), &["Light armor"]),
        ],
    );
    let faces = [10, 7, 10, 7];
    let mut b = battle(&l, &faces);
    let events = run(&mut b, |b| {
        with_power(b, "Hero", "Golem", "Greataxe", Some("Slowing"))
    });
    assert_eq!(damage_to(&events, id(&b, "Golem")), [4]);
    assert!(!has(&b, "Golem", "Wounded (Slowing)"));
    let events = run(&mut b, |b| {
        with_power(b, "Hero", "Guard", "Greataxe", Some("Slowing"))
    });
    assert_eq!(damage_to(&events, id(&b, "Guard")), [6]);
    assert!(has(&b, "Guard", "Wounded (Slowing)"));
    all_dice_used(&b);
}

/// W-19 / W-28 / W-33 / W-18: a level whose spell traits are misspelt, whose upkeep
/// keeps nothing lasting, or whose resistance is no number is refused at
/// FILE:LINE:COL (the power's `traits`, the unit's phrase), the message naming the valid forms.
#[test]
fn w_19_w_28_w_33_bad_helping_traits_are_reported_where_they_are() {
    let l = level(
        (8, 4),
        &[],
        vec![
            armed(
                wu("Mage", "Heroes", (1, 1), 3, 5, 20),
                vec![
                    spell("Mend", "1d6", &["Heals wounds"]),
                    spell("Zap", "1d6", &["Upkeep 2"]),
                ],
            ),
            with(wu("Golem", "Foes", (2, 1), 0, 0, 40), &["Resist lots"]),
        ],
    );
    let text = skirmish::level::to_ron_string(&l);
    let problems = skirmish::level::load_str(&text, "bad.ron").expect_err("problems");
    let at = |phrase: &str| {
        let (n, line) = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains(phrase))
            .expect("phrase in the file");
        (n + 1, line.find(phrase).expect("there") + 1)
    };
    let found = |phrase: &str, says: &str| {
        let p = problems
            .iter()
            .find(|p| p.message.contains(says))
            .unwrap_or_else(|| panic!("`{says}` in {problems:#?}"));
        assert_eq!(p.file, "bad.ron");
        assert_eq!((p.line, p.col), at(phrase), "{p:?}");
    };
    // A power's trait is reported at its `traits`, a unit's at the phrase.
    found(
        "traits: [\"Heals wounds\"",
        "`Removes a wound`, `Grants disengage` or `Upkeep <MP>`",
    );
    found(
        "traits: [\"Upkeep 2\"",
        "only `Grants disengage` lasts (W-33)",
    );
    found("\"Resist lots\"", "the resistance must be a whole number");
    assert_eq!(problems.len(), 3, "{problems:#?}");
}

/// W-19 / W-28 / W-33 / W-09: the AIs with helping spells on the board: a Mend
/// that removes a wound, a Blink that grants disengagement, an upkept Ward and Haste
/// (their effects toggled), Fireballs that channel. `random` picks among every legal command (Invoke and Cancel
/// included; each must be accepted) and `normal` plays as usual; no battle stalls
/// until the command limit, and the random side does use the new actions.
#[test]
fn w_19_w_28_w_33_ais_play_with_helping_spells() {
    let fireball = spell("Fireball", "2d6", &["Cast 3", "MP 2"]);
    let caster = |name: &str, side: &str, pos, power| {
        armed(
            stat(wu(name, side, pos, 1, 2, 14), "MP", 8),
            vec![power, fireball.clone(), weapon("Dagger")],
        )
    };
    let l = level(
        (8, 6),
        &[],
        vec![
            caster(
                "Healer",
                "Heroes",
                (0, 1),
                spell("Mend", "1d6", &["Removes a wound", "MP 2"]),
            ),
            caster(
                "Blinker",
                "Heroes",
                (0, 3),
                spell("Blink", "1d6", &["Grants disengage"]),
            ),
            armed(
                wu("Knight", "Heroes", (1, 2), 2, 3, 20),
                vec![weapon("Longsword")],
            ),
            caster(
                "Warden",
                "Heroes",
                (1, 4),
                spell("Ward", "1d6", &["Grants disengage", "Upkeep 1"]),
            ),
            caster(
                "Witch",
                "Foes",
                (7, 5),
                spell("Haste", "1d6", &["Grants disengage", "Upkeep 1"]),
            ),
            armed(
                wu("Brute", "Foes", (6, 4), 0, 3, 22),
                vec![weapon("Greataxe")],
            ),
            armed(
                wu("Orc", "Foes", (6, 2), 1, 2, 16),
                vec![weapon("Shortsword")],
            ),
        ],
    );
    let lines: Vec<String> = crate::wounds_actions::every_pairing(&l, 32)
        .into_iter()
        .flat_map(|(_, _, log)| log)
        .collect();
    // The random side did use the new actions.
    for said in [
        "cast time of Mend",
        "wound heals",
        "cast time of Blink",
        "cast time of Haste",
        "upkeep of its spell",
        "toggle its spell's effect",
        "cancels",
    ] {
        assert!(
            lines.iter().any(|l| l.contains(said)),
            "no `{said}` in any battle"
        );
    }
}

/// W-33 / W-28: an upkept spell ends with its caster: once the caster is out of the
/// fight nobody pays the upkeep, and the target's disengagement ends as the next
/// turn starts.
#[test]
fn w_33_an_upkept_spell_ends_when_its_caster_falls() {
    let haste = spell("Haste", "1d6", &["Grants disengage", "Upkeep 1"]);
    let l = level(
        (10, 10),
        &[],
        vec![
            armed(
                stat(wu("Warden", "Heroes", (0, 0), 3, 0, 1), "MP", 5),
                vec![haste],
            ),
            wu("Pal", "Heroes", (5, 6), 2, 0, 30),
            armed(wu("Orc", "Foes", (1, 0), 0, 1, 30), vec![weapon("Dagger")]),
        ],
    );
    // The Orc's d20 4 + 1 = 5 hits the flat-footed Warden; dagger d4 1: down.
    let mut b = battle(&l, &[4, 1]);
    run(&mut b, |b| invoke(b, "Warden", "Haste", "Pal"));
    end(&mut b, "Warden");
    end(&mut b, "Pal");
    run(&mut b, |b| attack(b, "Orc", "Warden"));
    assert_eq!(hp(&b, "Warden"), 0);
    assert!(has(&b, "Pal", "Disengaged"), "until the next turn starts");
    end(&mut b, "Orc");
    assert!(!has(&b, "Pal", "Disengaged"));
    all_dice_used(&b);
}
