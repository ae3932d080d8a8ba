//! The benchmark level: a mirrored 24×24 square map with 8 units a side, built in
//! code (shared by `benches/ai.rs` and `examples/frame_time.rs`).

use std::collections::BTreeMap;

use skirmish::engine::board::GridKind;
use skirmish::level::schema::*;

/// A mirrored 24×24 square map: two armies of 8 (a tier 2 leader, four melee, two
/// archers, a skirmisher) facing each other across scattered rocks and a marsh.
pub fn bench_level() -> Level {
    let (w, h) = (24_usize, 24_usize);
    let mut rows = vec![vec!['.'; w]; h];
    for (x, y) in [
        (6, 4),
        (7, 4),
        (11, 8),
        (12, 8),
        (5, 15),
        (9, 11),
        (10, 11),
        (3, 19),
    ] {
        rows[y][x] = '#';
        rows[h - 1 - y][w - 1 - x] = '#';
    }
    for row in &mut rows[9..15] {
        row[10..14].fill('~');
    }
    let terrain = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    let mut units = Vec::new();
    for (side, x, dx) in [("West", 1, 1), ("East", 22, -1)] {
        let roster: [(&str, i32, i32, &str, u32, bool, i32); 8] = [
            ("Leader", 2, 3, "1d10", 1, false, 13),
            ("Guard A", 1, 2, "1d8", 1, false, 12),
            ("Guard B", 1, 2, "1d8", 1, false, 12),
            ("Spear A", 1, 2, "1d6", 2, false, 11),
            ("Spear B", 1, 2, "1d6", 2, false, 11),
            ("Archer A", 1, 2, "1d8", 10, true, 11),
            ("Archer B", 1, 2, "1d8", 10, true, 11),
            ("Scout", 1, 2, "1d6", 1, false, 12),
        ];
        for (i, (name, tier, atk, damage, range, ranged, def)) in roster.into_iter().enumerate() {
            let stats = BTreeMap::from([
                ("INT".to_string(), 1),
                ("AGI".to_string(), (i % 3) as i32),
                ("ATK".to_string(), atk),
                ("DEF".to_string(), def),
                ("Tier".to_string(), tier),
            ]);
            let column = if ranged { x - dx } else { x + dx };
            units.push(UnitDef {
                name: format!("{side} {name}"),
                side: side.to_string(),
                pos: (column, 6 + 2 * i as i32),
                stats,
                powers: vec![PowerDef {
                    name: if ranged { "Bow" } else { "Blade" }.into(),
                    range,
                    ranged,
                    damage: damage.into(),
                    add_tier: true,
                    on_hit: vec![],
                    damage_type: None,
                    traits: Vec::new(),
                }],
                movement: if name == "Scout" {
                    vec!["Bound".into()]
                } else {
                    vec![]
                },
                items: vec![],
                ..Default::default()
            });
        }
    }
    Level {
        name: "Bench 24x24".into(),
        version: 1,
        ruleset: "phases".into(),
        grid: GridKind::Square,
        size: (w as u32, h as u32),
        terrain,
        sides: ["West", "East"]
            .into_iter()
            .map(|n| SideDef {
                name: n.into(),
                controller: Controller::Ai(AiPolicy::Normal),
                decisions: DecisionPolicy::Ask,
                traits: Vec::new(),
            })
            .collect(),
        units,
        rules: BTreeMap::new(),
        victory: Victory {
            max_rounds: Some(30),
            ..Victory::default()
        },
        seed: None,
    }
}
