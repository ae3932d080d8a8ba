//! The neutral record of a battle (issue 31 item 1): every ruleset's attack rolls
//! have a matching `AttackResolved` whose outcome follows the documented mapping
//! (docs/rulesets.md, "The record of a battle"), whose damage is the `Damaged` that
//! follows, and whose odds are the preview's; per-unit figures add up to the log.

use std::path::{Path, PathBuf};

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use skirmish::ai::record::Tally;
use skirmish::ai::sim::{ai_level, command_limit};
use skirmish::ai::{AiPolicy, choose};
use skirmish::engine::Battle;
use skirmish::engine::battle::Awaiting;
use skirmish::engine::command::Command;
use skirmish::engine::dice::Dice;
use skirmish::engine::event::{AttackOutcome, Event, Foreseen};
use skirmish::engine::rulesets::flow::events::FlowEvent;
use skirmish::engine::rulesets::new_battle;
use skirmish::engine::rulesets::phases::events::PhasesEvent;
use skirmish::engine::rulesets::wounds::events::WoundsEvent;
use skirmish::engine::skill::SuccessLevel;
use skirmish::engine::units::{PlayState, UnitId};
use skirmish::level::schema::Level;

fn ron_files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    files
}

/// Every shipped scenario, run to its end with its scripted dice.
fn scenarios() -> Vec<(String, Battle)> {
    ron_files("levels/scenarios")
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap();
            let name = rel.to_string_lossy().into_owned();
            let battle = crate::common::run(name.trim_start_matches('/'));
            (name, battle)
        })
        .collect()
}

/// A seeded AI-vs-AI battle on `level`; `inspect` sees each command with the
/// preview the window showed for it (an attack's) and the events it emitted.
fn ai_battle(
    level: &Level,
    seed: u64,
    mut inspect: impl FnMut(Option<Foreseen>, &Command, &[Event]),
) -> Battle {
    let level = ai_level(level, &[AiPolicy::Normal, AiPolicy::Normal]);
    let mut battle = new_battle(&level, Dice::seeded(seed)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..command_limit(&level) {
        let side = match battle.awaiting() {
            Awaiting::Over(_) => break,
            Awaiting::Decision(d) => d.side,
            Awaiting::Unit(u, _) => skirmish::engine::battle::side_of(battle.world(), u),
        };
        let policy = if side.0 == 0 {
            AiPolicy::Normal
        } else {
            AiPolicy::Easy
        };
        let command = choose(&battle, policy, &mut rng).expect("a legal command");
        let preview = preview_of(&battle, &command);
        let events = battle.submit(command.clone()).expect("accepted");
        inspect(preview, &command, events);
    }
    battle
}

/// Every shipped level with an AI battle on it (two seeds each).
fn ai_battles() -> Vec<(String, Battle)> {
    let mut out = Vec::new();
    for p in ron_files("levels") {
        let level = skirmish::level::load_file(&p).expect("shipped level loads");
        for seed in [3, 11] {
            let b = ai_battle(&level, seed, |_, _, _| {});
            out.push((format!("{} (seed {seed})", level.name), b));
        }
    }
    out
}

/// The attacks the ruleset's own narration tells, in order: the attacker and the
/// outcome the documented mapping gives its result.
fn narrated(ruleset: &str, events: &[Event]) -> Vec<(UnitId, AttackOutcome)> {
    use AttackOutcome::*;
    let mut out: Vec<(UnitId, AttackOutcome)> = Vec::new();
    for e in events {
        match ruleset {
            "phases" => {
                if let Some(PhasesEvent::AttackRolled { attacker, hit, .. }) = e.narration() {
                    out.push((*attacker, if *hit { Hit } else { Miss }));
                }
            }
            "escalation" => {
                if let Event::Rolled {
                    unit,
                    outcome,
                    against: Some(_),
                    ..
                } = e
                {
                    let o = match outcome.as_str() {
                        "hit" => Hit,
                        "miss" => Miss,
                        "crit" => Critical,
                        "crit fail" => CriticalFailure,
                        _ => continue,
                    };
                    out.push((*unit, o));
                }
            }
            "wounds" => match e {
                Event::Rolled {
                    unit,
                    dice,
                    outcome,
                    against: Some(_),
                    ..
                } if dice == "d20" => {
                    let o = match outcome.as_str() {
                        "hit" => Hit,
                        "miss" => Miss,
                        "natural 20: critical hit" => Critical,
                        "natural 1: it fails" => CriticalFailure,
                        other => panic!("an attack roll with outcome {other:?}"),
                    };
                    out.push((*unit, o));
                }
                _ => {
                    if let Some(WoundsEvent::Chain { unit, became }) = e.narration()
                        && became.starts_with("a free critical hit")
                    {
                        out.push((*unit, Critical));
                    }
                }
            },
            "actfast" => {
                if let Event::Rolled {
                    unit,
                    purpose,
                    outcome,
                    ..
                } = e
                    && ["a melee attack", "a ranged attack", "a riposte"]
                        .iter()
                        .any(|p| purpose.starts_with(p))
                {
                    let o = match outcome.split(':').next().unwrap() {
                        "Failure" => Miss,
                        "Partial" => Partial,
                        "Success" => Hit,
                        "Critical" => Critical,
                        other => panic!("an attack roll graded {other:?}"),
                    };
                    out.push((*unit, o));
                }
            }
            "flow" => match e.narration() {
                Some(FlowEvent::SkillChecked {
                    unit,
                    purpose,
                    level,
                    ..
                }) if [
                    "attack on",
                    "Reaction Attack on",
                    "Riposte attack on",
                    "Disarm on",
                ]
                .iter()
                .any(|p| purpose.starts_with(p)) =>
                {
                    let o = match level {
                        SuccessLevel::CriticalFailure => CriticalFailure,
                        SuccessLevel::Failure => Miss,
                        SuccessLevel::Critical => Critical,
                        _ => Hit,
                    };
                    out.push((*unit, o));
                }
                // A reaction that won turns the attack it answered into a miss.
                Some(FlowEvent::Missed { reason, .. }) if reason.ends_with("won") => {
                    out.last_mut().expect("an attack was made").1 = Miss;
                }
                _ => {}
            },
            other => panic!("no narration mapping for {other}"),
        }
    }
    out
}

/// The records of attacks: attacker and outcome, in order.
fn recorded(events: &[Event]) -> Vec<(UnitId, AttackOutcome)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::AttackResolved {
                attacker, outcome, ..
            } => Some((*attacker, *outcome)),
            _ => None,
        })
        .collect()
}

#[test]
fn every_attack_roll_of_every_ruleset_has_its_record_with_the_mapped_outcome() {
    let mut seen = std::collections::BTreeMap::<&str, std::collections::BTreeSet<String>>::new();
    for (name, b) in scenarios().into_iter().chain(ai_battles()) {
        let events = b.events();
        let told = narrated(b.ruleset(), events);
        let records = recorded(events);
        assert_eq!(told, records, "{name}: narration against record");
        for (_, o) in records {
            seen.entry(b.ruleset())
                .or_default()
                .insert(format!("{o:?}"));
        }
    }
    // The scripted scenarios and the AI battles reach every outcome each ruleset has.
    let expect = |r: &str, outcomes: &[&str]| {
        let got: Vec<&str> = seen[r].iter().map(String::as_str).collect();
        for o in outcomes {
            assert!(got.contains(o), "{r}: no {o} among {got:?}");
        }
    };
    expect("phases", &["Miss", "Hit"]);
    expect(
        "escalation",
        &["Miss", "Hit", "Critical", "CriticalFailure"],
    );
    expect("wounds", &["Miss", "Hit", "Critical", "CriticalFailure"]);
    expect("actfast", &["Miss", "Partial", "Hit"]);
    expect("flow", &["Miss", "Hit"]);
}

#[test]
fn an_attacks_record_carries_the_damage_that_follows_and_no_line_of_the_log() {
    for (name, b) in scenarios().into_iter().chain(ai_battles()) {
        let events = b.events();
        for (i, e) in events.iter().enumerate() {
            let Event::AttackResolved {
                attacker,
                target,
                damage,
                outcome,
                odds,
                ..
            } = e
            else {
                continue;
            };
            assert_eq!(skirmish::engine::log::line(b.world(), e), None);
            if let Some(o) = odds {
                assert!(
                    (0.0..=1.0).contains(&o.hit) && o.crit <= o.hit + 1e-12,
                    "{name}"
                );
            }
            // The next damage to the target, before the next attack, is this one's.
            let next = events[i + 1..]
                .iter()
                .take_while(|e| !matches!(e, Event::AttackResolved { .. }))
                .find_map(|e| match e {
                    Event::Damaged {
                        unit,
                        amount,
                        source,
                        ..
                    } if unit == target => Some((*amount, *source)),
                    _ => None,
                });
            match next {
                Some((amount, source)) if *damage > 0 || outcome.landed() => {
                    assert_eq!(amount, *damage, "{name}: event {i}");
                    assert_eq!(source, Some(*attacker), "{name}: event {i}");
                }
                _ => assert_eq!(*damage, 0, "{name}: event {i}: damage without a Damaged"),
            }
        }
    }
}

#[test]
fn per_unit_figures_add_up_to_the_battle_log() {
    for (name, b) in ai_battles() {
        let events = b.events();
        let n = b.units().len();
        let mut tally = Tally::new(n);
        tally.add(events);
        let units = tally.finish();
        // Sums straight over the log, unit by unit.
        for (u, t) in units.iter().enumerate() {
            let me = UnitId(u as u32);
            let taken: i64 = events
                .iter()
                .filter_map(|e| match e {
                    Event::Damaged { unit, amount, .. } if *unit == me => Some(i64::from(*amount)),
                    _ => None,
                })
                .sum();
            let dealt: i64 = events
                .iter()
                .filter_map(|e| match e {
                    Event::Damaged {
                        unit,
                        amount,
                        source: Some(s),
                        ..
                    } if *s == me && *unit != me => Some(i64::from(*amount)),
                    _ => None,
                })
                .sum();
            let by_attacks: i64 = events
                .iter()
                .filter_map(|e| match e {
                    Event::AttackResolved {
                        attacker,
                        target,
                        damage,
                        ..
                    } if *attacker == me && *target != me => Some(i64::from(*damage)),
                    _ => None,
                })
                .sum();
            let kills = events
                .iter()
                .filter(|e| {
                    matches!(e, Event::Defeated { unit, state, by: Some(by), .. }
                        if *by == me && *unit != me && *state != PlayState::Active)
                })
                .count() as u32;
            let attacks = recorded(events).iter().filter(|(a, _)| *a == me).count() as u32;
            assert_eq!(t.damage_taken, taken, "{name}: unit {u} taken");
            assert_eq!(t.damage_dealt, dealt, "{name}: unit {u} dealt");
            // Attacks deal all of a unit's damage but what its ongoing effects and
            // rules deal later.
            assert!(
                by_attacks <= dealt,
                "{name}: unit {u}: {by_attacks} > {dealt}"
            );
            assert_eq!(t.kills, kills, "{name}: unit {u} kills");
            assert_eq!(t.attacks, attacks, "{name}: unit {u} attacks");
            assert!(t.hits <= t.attacks);
            let in_play = skirmish::engine::battle::is_active(b.world(), me);
            assert_eq!(
                t.defeated_in.is_none(),
                in_play,
                "{name}: unit {u} survival"
            );
        }
        // All damage is someone's taken damage, and HP tell the same story.
        let total: i64 = units.iter().map(|t| t.damage_taken).sum();
        let logged: i64 = events
            .iter()
            .filter_map(|e| match e {
                Event::Damaged { amount, .. } => Some(i64::from(*amount)),
                _ => None,
            })
            .sum();
        assert_eq!(total, logged, "{name}");
    }
}

/// The preview of an attack command as the window shows it (an attack with a
/// chosen option, `wounds`' aim: that choice's preview).
fn preview_of(b: &Battle, command: &Command) -> Option<Foreseen> {
    let Command::Attack {
        unit,
        target,
        power,
        options,
    } = command
    else {
        return None;
    };
    // An attack moving first (`actfast`'s approach) has no preview from here.
    if options.get("approach").is_some() {
        return None;
    }
    match options.iter().next() {
        Some((option, value)) => b
            .choice_previews(*unit, *target, power.as_deref())
            .into_iter()
            .find(|p| p.option == option && p.choice.value.as_ref() == Some(value))
            .map(|p| Foreseen {
                hit: p.preview.attack.chance,
                crit: 0.0,
                expected_damage: p.preview.attack.expected_damage,
            }),
        None => b
            .preview_attack(*unit, *target, power.as_deref())
            .map(|p| Foreseen {
                hit: p.chance,
                crit: 0.0,
                expected_damage: p.expected_damage,
            }),
    }
}

#[test]
fn an_attacks_recorded_odds_are_the_preview_the_window_showed_for_it() {
    let mut compared = std::collections::BTreeMap::<String, usize>::new();
    for p in ron_files("levels") {
        let level = skirmish::level::load_file(&p).expect("shipped level loads");
        ai_battle(&level, 5, |preview, command, events| {
            let Some(preview) = preview else {
                return;
            };
            let Some(unit) = command.unit() else { return };
            let Some(Event::AttackResolved { odds, .. }) = events
                .iter()
                .find(|e| matches!(e, Event::AttackResolved { attacker, .. } if *attacker == unit))
            else {
                return;
            };
            let odds = odds.expect("an attack command's record has odds");
            let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
            assert!(
                close(odds.hit, preview.hit)
                    && close(odds.expected_damage, preview.expected_damage),
                "{}: {command:?}: recorded {odds:?}, previewed {preview:?}",
                level.name
            );
            *compared.entry(level.ruleset.clone()).or_default() += 1;
        });
    }
    for r in ["phases", "escalation", "wounds", "actfast", "flow"] {
        assert!(compared.get(r).is_some_and(|&n| n > 0), "{r}: {compared:?}");
    }
}

fn level_file(name: &str) -> Level {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("levels")
        .join(name);
    skirmish::level::load_file(&path).expect("shipped level loads")
}

#[test]
fn sims_per_unit_figures_agree_with_its_side_figures_and_add_up_over_shards() {
    use skirmish::ai::sim::{RunInfo, SimConfig, simulate, summarize};
    for file in ["ford.ron", "escalation_crossroads.ron", "wounds_mill.ron"] {
        let level = level_file(file);
        let config = SimConfig {
            battles: 12,
            seed: 9,
            policies: vec![AiPolicy::Normal, AiPolicy::Normal],
            max_commands: command_limit(&level),
        };
        let info = RunInfo::new(&level, &config);
        let results = simulate(&level, &config, 0..12, &|| {}).unwrap();
        let s = summarize(&info, &results, 1.0, 1);
        let names: Vec<&str> = s.units.iter().map(|u| u.name.as_str()).collect();
        let roster: Vec<&str> = level.units.iter().map(|u| u.name.as_str()).collect();
        assert_eq!(names, roster, "{file}: one row per unit, in roster order");
        // The units' damage taken is their side's (counted apart, from Damaged).
        for (side, taken) in &s.damage_taken {
            let units: f64 = s
                .units
                .iter()
                .filter(|u| &u.side == side)
                .map(|u| u.damage_taken)
                .sum();
            assert!(
                (units - taken).abs() < 1e-9,
                "{file}: {side} {units} vs {taken}"
            );
        }
        let dealt: f64 = s.units.iter().map(|u| u.damage_dealt).sum();
        let taken: f64 = s.units.iter().map(|u| u.damage_taken).sum();
        assert!(
            dealt > 0.0 && dealt <= taken + 1e-9,
            "{file}: {dealt} > {taken}"
        );
        // A unit killed by another is a unit down (in escalation a dying PC healed
        // back into the fight may go down, and count as a kill, twice).
        let kills: f64 = s.units.iter().map(|u| u.kills).sum();
        let downs: f64 = s.units.iter().map(|u| 1.0 - u.survival).sum();
        assert!(kills > 0.0, "{file}");
        if level.ruleset != "escalation" {
            assert!(kills <= downs + 1e-9, "{file}: {kills} > {downs}");
        }
        for u in &s.units {
            for p in [u.hit_rate, u.predicted_hit].into_iter().flatten() {
                assert!((0.0..=1.0).contains(&p), "{file}: {u:?}");
            }
            assert_eq!(
                u.mean_defeat_round.is_some(),
                u.survival < 1.0,
                "{file}: {u:?}"
            );
        }
        // Shards played apart give the same figures.
        let mut parts = simulate(&level, &config, 0..5, &|| {}).unwrap();
        parts.extend(simulate(&level, &config, 5..12, &|| {}).unwrap());
        assert_eq!(summarize(&info, &parts, 1.0, 1).units, s.units, "{file}");
    }
}

#[test]
fn sim_prints_and_writes_the_per_unit_table() {
    let ford = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/ford.ron");
    let run = |json: bool| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"));
        cmd.arg("sim")
            .arg(&ford)
            .args(["--battles", "6", "--threads", "1"]);
        if json {
            cmd.arg("--json");
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let v: serde_json::Value = serde_json::from_str(&run(true)).unwrap();
    let units = v["units"].as_array().expect("a units array");
    let knight = units.iter().find(|u| u["name"] == "Knight").unwrap();
    assert_eq!(knight["side"], "Blue");
    for key in [
        "attacks",
        "hit_rate",
        "predicted_hit",
        "damage_dealt",
        "damage_taken",
        "kills",
        "survival",
        "mean_defeat_round",
    ] {
        assert!(knight.get(key).is_some(), "no {key} in {knight}");
    }
    let table = run(false);
    let header = table
        .lines()
        .find(|l| l.starts_with("Units (per battle):"))
        .expect("the per-unit table");
    assert!(
        header.contains("predicted") && header.contains("survival"),
        "{header}"
    );
    let row = table
        .lines()
        .find(|l| l.trim_start().starts_with("Knight"))
        .unwrap();
    let attacks = row.split_whitespace().nth(2).unwrap();
    let json = format!("{:.2}", knight["attacks"].as_f64().unwrap());
    assert_eq!(attacks, json, "{row}");
}
