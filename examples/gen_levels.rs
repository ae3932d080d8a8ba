//! Writes the generated benchmark levels as RON files under `benches/levels/`, so
//! `skirmish sim` can play them (they are not shipped levels, so not in `levels/`):
//!
//! - `bench_24x24.ron`: the criterion bench's 24×24 level, 8 units a side
//!   (`benches/bench_level.rs`);
//! - `big_phases.ron`: a 200×200 square map with 400 units under `phases`;
//! - `big_flow.ron`: a 200×200 hex map with 400 units under `flow`.
//!
//! ```sh
//! cargo run --release --no-default-features --example gen_levels [OUT_DIR]
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;

use skirmish::engine::board::GridKind;
use skirmish::level::schema::*;

#[path = "../benches/bench_level.rs"]
mod bench_level;

/// Side length of the big maps.
const BIG: u32 = 200;
/// Units per side on the big maps.
const PER_SIDE: usize = 200;

/// A deterministic scatter of rocks (`#`) and rough ground (`~`) on a `size`² map,
/// kept clear around the two deployment zones.
fn big_terrain(size: u32) -> Vec<String> {
    let n = size as usize;
    let mut rows = vec![vec!['.'; n]; n];
    // SplitMix-style generator: the same map every time.
    let mut state: u64 = 0x5EED_1234;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    for _ in 0..(n * n / 60) {
        let (x, y) = ((next() % n as u64) as usize, (next() % n as u64) as usize);
        let c = if next() % 3 == 0 { '#' } else { '~' };
        // A small blob of 1–3 cells.
        for d in 0..=(next() % 3) as usize {
            if x + d < n {
                rows[y][x + d] = c;
            }
        }
    }
    // Clear the deployment zones.
    for row in &mut rows {
        for (x, cell) in row.iter_mut().enumerate() {
            if !(30..n - 30).contains(&x) {
                *cell = '.';
            }
        }
    }
    rows.into_iter().map(|r| r.into_iter().collect()).collect()
}

/// Where unit number `i` of a side deploys: 4 columns × 50 rows in the middle
/// of its edge.
fn deploy(size: u32, west: bool, i: usize) -> (i32, i32) {
    let (col, row) = ((i % 4) as i32, (i / 4) as i32);
    let y = (size as i32 - 100) / 2 + row * 2;
    let x = if west {
        20 + col
    } else {
        size as i32 - 21 - col
    };
    (x, y)
}

fn sides() -> Vec<SideDef> {
    ["West", "East"]
        .into_iter()
        .map(|n| SideDef {
            name: n.into(),
            controller: Controller::Ai(AiPolicy::Normal),
            decisions: DecisionPolicy::Ask,
            traits: Vec::new(),
        })
        .collect()
}

/// A `size`² square `phases` level with [`PER_SIDE`] units a side (melee, spears,
/// archers and a few leaders).
pub fn big_phases(size: u32) -> Level {
    let mut units = Vec::new();
    for (side, west) in [("West", true), ("East", false)] {
        for i in 0..PER_SIDE {
            let kind = i % 8;
            let (tier, atk, damage, range, ranged, def, power) = match kind {
                0 => (2, 3, "1d10", 1, false, 13, "Blade"),
                1..=3 => (1, 2, "1d8", 1, false, 12, "Blade"),
                4 | 5 => (1, 2, "1d6", 2, false, 11, "Spear"),
                _ => (1, 2, "1d8", 10, true, 11, "Bow"),
            };
            let stats = BTreeMap::from([
                ("INT".to_string(), 1),
                ("AGI".to_string(), (i % 3) as i32),
                ("ATK".to_string(), atk),
                ("DEF".to_string(), def),
                ("Tier".to_string(), tier),
            ]);
            units.push(UnitDef {
                name: format!("{side} {i}"),
                side: side.into(),
                pos: deploy(size, west, i),
                stats,
                powers: vec![PowerDef {
                    name: power.into(),
                    range,
                    ranged,
                    damage: damage.into(),
                    add_tier: true,
                    on_hit: vec![],
                    damage_type: None,
                    traits: Vec::new(),
                }],
                ..Default::default()
            });
        }
    }
    big_level("phases", GridKind::Square, size, units)
}

/// A `size`² level of `ruleset` named after it, with the big maps' terrain and
/// sides.
fn big_level(ruleset: &str, grid: GridKind, size: u32, units: Vec<UnitDef>) -> Level {
    Level {
        name: format!("Big {ruleset} {size}x{size}"),
        version: 1,
        ruleset: ruleset.into(),
        grid,
        size: (size, size),
        terrain: big_terrain(size),
        sides: sides(),
        units,
        rules: BTreeMap::new(),
        victory: Victory::default(),
        seed: None,
    }
}

/// A weapon with `flow`'s default damage for its kind.
fn weapon(
    name: &str,
    reach: u32,
    range: u32,
    category: WeaponCategory,
    two_handed: bool,
) -> WeaponDef {
    WeaponDef {
        name: name.into(),
        damage: if range > 0 { "1d6" } else { "1d8" }.into(),
        reach,
        range,
        category,
        two_handed,
        held: Hand::default(),
        on_hit: Vec::new(),
    }
}

/// A `size`² hex `flow` level with [`PER_SIDE`] units a side (swordsmen,
/// spearmen with reach 2 and archers).
pub fn big_flow(size: u32) -> Level {
    let mut units = Vec::new();
    for (side, west) in [("West", true), ("East", false)] {
        for i in 0..PER_SIDE {
            let weapon = match i % 4 {
                0 | 1 => weapon("Sword", 1, 0, WeaponCategory::default(), false),
                2 => weapon("Spear", 2, 0, WeaponCategory::Polearm, true),
                _ => weapon("Shortbow", 1, 6, WeaponCategory::default(), true),
            };
            let skills = BTreeMap::from([
                ("Melee".to_string(), 50 + (i % 3) as i32 * 5),
                ("Ranged".to_string(), 50),
                ("Agility".to_string(), 45),
                ("Athletics".to_string(), 50),
                ("Endurance".to_string(), 45),
            ]);
            units.push(UnitDef {
                name: format!("{side} {i}"),
                side: side.into(),
                pos: deploy(size, west, i),
                stats: BTreeMap::from([("AgiMod".to_string(), (i % 3) as i32)]),
                skills,
                weapons: vec![weapon],
                ..Default::default()
            });
        }
    }
    big_level("flow", GridKind::Hex, size, units)
}

fn main() {
    let out = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from("benches/levels"), PathBuf::from);
    std::fs::create_dir_all(&out).expect("create the output folder");
    for (file, level) in [
        ("bench_24x24.ron", bench_level::bench_level()),
        ("big_phases.ron", big_phases(BIG)),
        ("big_flow.ron", big_flow(BIG)),
    ] {
        let problems = skirmish::level::validate::validate(&level);
        assert!(problems.is_empty(), "{file} is invalid: {problems:?}");
        let path = out.join(file);
        skirmish::level::load::save_atomic(&path, &level).expect("write the level");
        println!("wrote {}", path.display());
    }
}
