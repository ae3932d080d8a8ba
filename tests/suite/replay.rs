//! Battle files (issue 16): a simulated or scripted battle written as a battle file
//! replays event by event on every shipped level of every ruleset; a file whose
//! seed was edited, that is truncated or from a newer format is reported, never a
//! panic; `skirmish replay --check` and `sim --save-battle` end to end.

use std::path::{Path, PathBuf};
use std::process::Command;

use skirmish::ai::AiPolicy;
use skirmish::ai::sim::{battle_seed, command_limit, play_recorded};
use skirmish::level::load_file;
use skirmish::replay::{BattleFile, DiceSource, ReplayError};

fn skirmish(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run skirmish");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn shipped_levels() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("levels/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    out.sort();
    out
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skirmish-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// A simulated battle on every shipped level (every ruleset) saved, written, read
/// back and replayed gives the same log, event by event, and the same result.
#[test]
fn every_shipped_level_replays_from_its_battle_file() {
    for path in shipped_levels() {
        let level = load_file(&path).expect("a shipped level");
        let policies = vec![AiPolicy::Normal; level.sides.len()];
        let (result, file) = play_recorded(
            &level,
            battle_seed(7, 0),
            &policies,
            command_limit(&level),
            Some(&path),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!file.commands.is_empty(), "{}", path.display());
        let out = temp(&format!(
            "{}.battle.ron",
            path.file_stem().unwrap().to_string_lossy()
        ));
        file.save(&out).expect("written");
        let back = BattleFile::load(&out).expect("read back");
        assert_eq!(back, file, "{}: the file round-trips", path.display());
        assert_eq!(back.level_unchanged(), Some(true));
        let battle = back
            .replay()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(battle.events().len(), file.events.len());
        assert_eq!(battle.turn().round, result.rounds, "{}", path.display());
    }
}

/// A battle file whose seed was edited does not reproduce: the first diverging
/// event is named; so is a refused command.
#[test]
fn an_edited_seed_is_reported_with_the_first_diverging_event() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/wounds_mill.ron");
    let level = load_file(&path).expect("level");
    let (_, mut file) = play_recorded(
        &level,
        battle_seed(3, 5),
        &[AiPolicy::Normal, AiPolicy::Normal],
        command_limit(&level),
        None,
    )
    .expect("plays");
    let DiceSource::Seed(s) = file.dice else {
        panic!("a seeded battle")
    };
    file.dice = DiceSource::Seed(s ^ 1);
    match file.replay() {
        Err(ReplayError::Diverged { index, line }) => {
            assert!(index >= 1, "{index}");
            assert!(!line.is_empty());
        }
        Err(ReplayError::Refused { index, .. }) => assert!(index >= 1),
        Err(e) => panic!("an edited seed: {e}"),
        Ok(_) => panic!("an edited seed replayed"),
    }
}

/// A truncated file, one from a newer format and one that is no battle file get a
/// clear message with the place, never a panic.
#[test]
fn broken_battle_files_get_a_located_message() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/ford.ron");
    let level = load_file(&path).expect("level");
    let (_, file) = play_recorded(
        &level,
        1,
        &[AiPolicy::Random, AiPolicy::Random],
        200,
        Some(&path),
    )
    .expect("plays");
    let text = file.to_ron().expect("text");
    let cut = &text[..text.len() / 2];
    let e = BattleFile::parse(cut, "cut.ron").unwrap_err();
    assert!(e.starts_with("cut.ron:"), "{e}");
    let line_col: Vec<&str> = e.splitn(4, ':').collect();
    assert!(
        line_col[1].parse::<u32>().is_ok() && line_col[2].parse::<u32>().is_ok(),
        "{e}"
    );
    let newer = text.replacen("format: 1,", "format: 9,", 1);
    let e = BattleFile::parse(&newer, "new.ron").unwrap_err();
    assert!(e.contains("format 9 is newer"), "{e}");
    let e = BattleFile::parse("(name: \"not a battle\")", "odd.ron").unwrap_err();
    assert!(e.starts_with("odd.ron:1:"), "{e}");
}

/// `skirmish sim --save-battle` writes a file `skirmish replay --check` passes; an
/// edited seed makes it exit 1 naming the diverging event; a bad index is a usage
/// error; `replay` without `--check` prints the log.
#[test]
fn sim_save_battle_and_replay_check_end_to_end() {
    let out = temp("cli.battle.ron");
    let out_s = out.to_string_lossy().to_string();
    let (code, stdout, err) = skirmish(&[
        "sim",
        "levels/escalation_crossroads.ron",
        "--seed",
        "4",
        "--save-battle",
        "2",
        &out_s,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("written to"), "{stdout}");
    let (code, stdout, err) = skirmish(&["replay", &out_s, "--check"]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("reproduces exactly"), "{stdout}");
    let (code, stdout, _) = skirmish(&["replay", &out_s, "--print"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("=== Round 1 ==="), "{stdout}");
    let text = std::fs::read_to_string(&out).expect("file");
    // The seed's last digit changed.
    let at = text.find("Seed(").expect("a seed");
    let end = at + text[at..].find(')').expect("the seed's end") - 1;
    let digit = if &text[end..=end] == "1" { "2" } else { "1" };
    let edited = format!("{}{digit}{}", &text[..end], &text[end + 1..]);
    let bad = temp("edited.battle.ron");
    std::fs::write(&bad, edited).expect("write");
    let (code, _, err) = skirmish(&["replay", &bad.to_string_lossy(), "--check"]);
    assert_eq!(code, 1);
    assert!(err.contains("does not reproduce"), "{err}");
    assert!(
        err.contains("event #") || err.contains("command #"),
        "{err}"
    );
    let (code, _, err) = skirmish(&["sim", "levels/ford.ron", "--save-battle", "two", &out_s]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`two` is not a battle number"), "{err}");
}

/// `skirmish script --save-battle` writes the scenario's run (its scripted faces
/// included) as a battle file that replays exactly.
#[test]
fn script_save_battle_replays() {
    let out = temp("script.battle.ron");
    let out_s = out.to_string_lossy().to_string();
    let (code, _, err) = skirmish(&[
        "script",
        "levels/scenarios/wounds_crits.ron",
        "--save-battle",
        &out_s,
    ]);
    assert_eq!(code, 0, "{err}");
    let file = BattleFile::load(&out).expect("a battle file");
    assert!(matches!(file.dice, DiceSource::Faces(_)));
    if let Err(e) = file.replay() {
        panic!("{e}");
    }
}

/// Saving a window game mid-battle and continuing it (`skirmish play --load`) gives
/// the identical battle: the same log and the same state, on every shipped level of
/// every ruleset.
#[cfg(feature = "render")]
#[test]
fn a_saved_game_continues_exactly_on_every_shipped_level() {
    use rand::SeedableRng;
    for path in shipped_levels() {
        let level = load_file(&path).expect("a shipped level");
        let mut game = skirmish::game::Game::new(level, 11)
            .expect("sets up")
            .with_path(Some(path.clone()));
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(5);
        for _ in 0..25 {
            let Some(cmd) = skirmish::ai::choose(&game.battle, AiPolicy::Normal, &mut rng) else {
                break;
            };
            game.battle.submit(cmd).expect("the AI's command is legal");
        }
        let out = temp(&format!(
            "{}.save.ron",
            path.file_stem().unwrap().to_string_lossy()
        ));
        skirmish::game::saves::save(&game, &out).expect("saved");
        let file = BattleFile::load(&out).expect("read back");
        let resumed = skirmish::game::Game::from_file(&file)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            resumed.battle.events(),
            game.battle.events(),
            "{}",
            path.display()
        );
        assert_eq!(
            resumed.battle.units(),
            game.battle.units(),
            "{}",
            path.display()
        );
        assert_eq!(resumed.battle.awaiting(), game.battle.awaiting());
        assert_eq!(
            resumed.battle.legal_commands(),
            game.battle.legal_commands()
        );
    }
}

/// Killing the game while it writes an autosave leaves the previous one whole: the
/// new text goes to a temporary file that only a rename puts in place.
#[cfg(feature = "render")]
#[test]
fn a_save_cut_short_leaves_the_previous_file_whole() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/ford.ron");
    let level = load_file(&path).expect("level");
    let game = skirmish::game::Game::new(level, 3).expect("sets up");
    let out = temp("cut.autosave.ron");
    skirmish::game::saves::save(&game, &out).expect("first save");
    let before = std::fs::read_to_string(&out).expect("saved");
    // The first half of a save, then the "crash": no rename.
    let temp_file = skirmish::level::load::write_temp(&out, "(format: 1, trunc").expect("temp");
    assert_eq!(std::fs::read_to_string(&out).expect("still there"), before);
    BattleFile::load(&out).expect("the previous save still reads");
    std::fs::remove_file(temp_file).expect("clean up");
}

/// Take-backs: a move that rolled nothing is taken back to exactly the battle
/// before it; an attack, which rolled dice, is refused with the reason; so is a
/// command once the other side has to act.
#[cfg(feature = "render")]
#[test]
fn take_back_undoes_a_move_but_not_a_roll() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/wounds_mill.ron");
    let level = load_file(&path).expect("level");
    let mut game = skirmish::game::Game::new(level, 2).expect("sets up");
    assert!(
        game.take_back()
            .unwrap_err()
            .contains("nothing to take back")
    );
    let skirmish::engine::Awaiting::Unit(archer, _) = game.battle.awaiting() else {
        panic!("a unit's turn first")
    };
    assert_eq!(game.battle.unit_name(archer), "Archer");
    let before_events = game.battle.events().to_vec();
    let before_units = game.battle.units();
    let step = game
        .battle
        .legal_commands()
        .into_iter()
        .find(|c| matches!(c, skirmish::engine::Command::Move { path, .. } if path.len() == 1))
        .expect("a one-step move");
    game.battle.submit(step).expect("moves");
    assert_ne!(game.battle.units(), before_units);
    let taken = game.take_back().expect("a move that rolled nothing");
    assert!(taken.contains("Move") || taken.contains("moves"), "{taken}");
    assert_eq!(game.battle.events(), before_events.as_slice());
    assert_eq!(game.battle.units(), before_units);
    // Dash into reach, then shoot: the attack rolls dice and stays.
    let shot = (0..4).find_map(|_| {
        let legal = game.battle.legal_commands();
        if let Some(a) = legal
            .iter()
            .find(|c| matches!(c, skirmish::engine::Command::Attack { .. }))
        {
            return Some(a.clone());
        }
        let mv = legal
            .into_iter()
            .find(|c| matches!(c, skirmish::engine::Command::Move { .. }))?;
        game.battle.submit(mv).expect("moves");
        None
    });
    let shot = shot.expect("an attack within reach");
    game.battle.submit(shot).expect("shoots");
    let why = game.take_back().unwrap_err();
    assert!(why.contains("rolled dice"), "{why}");
    // Once the turn has passed to the bandits, nothing of the mercenaries' comes
    // back.
    let mercenaries = skirmish::engine::battle::side_of(game.battle.world(), archer);
    while let skirmish::engine::Awaiting::Unit(u, _) = game.battle.awaiting() {
        if skirmish::engine::battle::side_of(game.battle.world(), u) != mercenaries {
            break;
        }
        game.battle
            .submit(skirmish::engine::Command::EndTurn { unit: u })
            .expect("ends its turn");
    }
    let why = game.take_back().unwrap_err();
    assert!(why.contains("the other side has seen"), "{why}");
}

/// A hot-seat game continued from a save starts on the hand-off screen of the
/// player whose turn it is (the map hidden until they confirm).
#[cfg(feature = "render")]
#[test]
fn a_continued_hot_seat_game_hands_off_to_the_player_to_act() {
    use rand::SeedableRng;
    use skirmish::hotseat::{HandoffReason, HotSeat};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/wounds_mill.ron");
    let mut level = load_file(&path).expect("level");
    for side in &mut level.sides {
        side.controller = skirmish::level::schema::Controller::Human;
    }
    let mut game = skirmish::game::Game::new(level, 4).expect("sets up");
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
    for _ in 0..12 {
        let cmd =
            skirmish::ai::choose(&game.battle, AiPolicy::Normal, &mut rng).expect("a command");
        game.battle.submit(cmd).expect("legal");
    }
    let out = temp("hotseat.save.ron");
    skirmish::game::saves::save(&game, &out).expect("saved");
    let resumed =
        skirmish::game::Game::from_file(&BattleFile::load(&out).expect("reads")).expect("resumes");
    let mut seat = HotSeat::new();
    seat.update(&resumed.battle);
    let h = seat.pending().expect("a hand-off first");
    let to_act = match resumed.battle.awaiting() {
        skirmish::engine::Awaiting::Unit(u, _) => {
            skirmish::engine::battle::side_of(resumed.battle.world(), u)
        }
        skirmish::engine::Awaiting::Decision(d) => d.side,
        other => panic!("the battle is over: {other:?}"),
    };
    assert_eq!(h.side, to_act);
    assert!(matches!(
        h.reason,
        HandoffReason::Turn | HandoffReason::Decision
    ));
    assert!(!seat.map_visible());
}

/// The replay viewer's steps (issue 16): after `k` commands the battle a file
/// rebuilds has exactly `events_after[k]` events; a turn start is where a command's
/// events started a turn, the next and previous ones bracket any point, and the
/// command behind an event is the first after which the log holds it.
#[test]
fn timeline_steps_by_command_turn_and_log_line() {
    let level = skirmish::level::load_file(std::path::Path::new("levels/ford.ron")).unwrap();
    let policies = [
        skirmish::level::schema::AiPolicy::Normal,
        skirmish::level::schema::AiPolicy::Normal,
    ];
    let (_, file) = skirmish::ai::sim::play_recorded(&level, 7, &policies, 2000, None).unwrap();
    let t = file.timeline().expect("the file replays");
    let n = file.commands.len();
    assert_eq!(t.commands(), n);
    assert_eq!(t.turn_starts[0], 0);
    assert!(t.turn_starts.len() > 4, "{:?}", t.turn_starts);
    for k in [0, 1, n / 3, n / 2, n] {
        let b = file.battle_at(k).expect("rebuilds");
        assert_eq!(b.commands().len(), k);
        assert_eq!(b.events().len(), t.events_after[k]);
        let next = t.next_turn(k);
        let prev = t.previous_turn(k);
        assert!(
            prev < k.max(1) && (next > k || next == n),
            "{prev} {k} {next}"
        );
        // A turn start is a point where a turn has just begun.
        if k > 0 && t.turn_starts.contains(&k) {
            assert!(
                b.events()[t.events_after[k - 1]..]
                    .iter()
                    .any(|e| matches!(e, skirmish::engine::event::Event::TurnStarted { .. }))
            );
        }
    }
    // Every event belongs to the command that produced it.
    for (i, _) in file
        .battle_at(n)
        .unwrap()
        .events()
        .iter()
        .enumerate()
        .step_by(17)
    {
        let k = t.command_of_event(i);
        assert!(t.events_after[k] > i && (k == 0 || t.events_after[k - 1] <= i));
    }
}

/// Issue 30: battle files written before `Seize`, `ActNow` and `React` became the
/// answers their rulesets declare, and before an attack's `aim` and `approach` and
/// a move's `target` became options their rulesets declare
/// (`tests/fixtures/battles/`, written by that build with `script --save-battle` and
/// `sim --save-battle`), still load and replay event by event; saved again they are
/// written in today's format and replay the same.
#[test]
fn battle_files_with_the_old_core_words_still_replay() {
    use skirmish::engine::Command as C;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/battles");
    let answer = |c: &C| matches!(c, C::Answer { .. });
    let option = |name: &'static str| {
        move |c: &C| match c {
            C::Attack { options, .. } | C::Move { options, .. } => options.get(name).is_some(),
            _ => false,
        }
    };
    type ReadAsNow<'a> = &'a dyn Fn(&C) -> bool;
    let cases: [(&str, &str, ReadAsNow); 8] = [
        ("ford_showcase", "Seize(", &answer),
        ("flow_reaction_chain", "React(", &answer),
        ("flow_intercept", "React(", &answer),
        ("escalation_intercept", "React(", &answer),
        ("escalation_bands", "ActNow(", &answer),
        ("wounds_center_mass", "aim: Some(", &option("aim")),
        ("actfast_order", "approach: [", &option("approach")),
        ("ford_charge", "power: \"Charge\"", &option("target")),
    ];
    for (name, old, read_as_now) in cases {
        let path = dir.join(format!("{name}.ron"));
        let text = std::fs::read_to_string(&path).expect("fixture");
        assert!(text.contains(old), "{name} is written in the old format");
        assert!(
            !text.contains("options:") && !text.contains("Answer("),
            "{name}"
        );
        let file = BattleFile::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            file.commands.iter().any(read_as_now),
            "{name}: its old commands read as today's"
        );
        file.replay().unwrap_or_else(|e| panic!("{name}: {e}"));
        let now = file.to_ron().expect("writes");
        assert!(now.contains("options:") || now.contains("Answer("), "{now}");
        let again = BattleFile::parse(&now, name).expect("reads back");
        assert_eq!(again, file, "{name}");
        again.replay().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let (code, out, err) = skirmish(&[
        "replay",
        "tests/fixtures/battles/flow_intercept.ron",
        "--check",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("reproduces exactly"), "{out}");
}
