//! `skirmish dice`: the built binary, end to end.

use std::process::{Command, Output};

fn dice(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .arg("dice")
        .args(args)
        .output()
        .expect("run skirmish")
}

/// Runs `skirmish dice EXPR --json`, checks it succeeded with one JSON object, and
/// returns it with the distribution as `(value, probability)` pairs.
fn json(expr: &str) -> (serde_json::Value, Vec<(i64, f64)>) {
    let out = dice(&[expr, "--json"]);
    assert!(out.status.success(), "{expr}: {out:?}");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(text.trim_end().lines().count(), 1, "one JSON line: {text}");
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let dist: Vec<(i64, f64)> = v["distribution"]
        .as_array()
        .expect("distribution is a list")
        .iter()
        .map(|pair| {
            let pair = pair.as_array().expect("a [value, probability] pair");
            assert_eq!(pair.len(), 2);
            (
                pair[0].as_i64().expect("value"),
                pair[1].as_f64().expect("probability"),
            )
        })
        .collect();
    let total: f64 = dist.iter().map(|&(_, p)| p).sum();
    assert!(
        (total - 1.0).abs() < 1e-9,
        "{expr}: probabilities sum to {total}"
    );
    assert!(dist.windows(2).all(|w| w[0].0 < w[1].0), "ascending values");
    assert!(
        dist.iter().all(|&(_, p)| p > 0.0),
        "no zero-probability values"
    );
    (v, dist)
}

#[test]
fn thirty_six_d10_json() {
    let (v, dist) = json("36d10");
    assert_eq!(v["mean"].as_f64(), Some(198.0));
    assert_eq!(v["min"].as_i64(), Some(36));
    assert_eq!(v["max"].as_i64(), Some(360));
    assert_eq!(v["expr"].as_str(), Some("36d10"));
    assert_eq!(dist.first().map(|d| d.0), Some(36));
    assert_eq!(dist.last().map(|d| d.0), Some(360));
    assert_eq!(dist.len(), 325);
}

/// The distribution of an advantage pool, `2d6+1d8kh2`, matches a brute-force count.
#[test]
fn advantage_pool_json() {
    let (v, dist) = json("2d6 + 1d8KH2");
    assert_eq!(v["expr"].as_str(), Some("2d6+1d8kh2"));
    assert_eq!(v["min"].as_i64(), Some(2));
    assert_eq!(v["max"].as_i64(), Some(14));
    // Brute force over all 6 × 6 × 8 rolls.
    let mut counts = [0_u32; 15];
    for a in 1..=6 {
        for b in 1..=6 {
            for c in 1..=8 {
                let mut f = [a, b, c];
                f.sort_unstable();
                counts[f[1] + f[2]] += 1;
            }
        }
    }
    let expected: Vec<(i64, f64)> = (2..=14)
        .map(|t| (t as i64, f64::from(counts[t]) / 288.0))
        .collect();
    assert_eq!(dist.len(), expected.len());
    for ((v1, p), (v2, q)) in dist.iter().zip(&expected) {
        assert_eq!(v1, v2);
        assert!((p - q).abs() < 1e-12, "P({v1}) = {p}, expected {q}");
    }
    let mean: f64 = expected.iter().map(|&(t, q)| t as f64 * q).sum();
    assert!((v["mean"].as_f64().expect("mean") - mean).abs() < 1e-9);
}

#[test]
fn table_output() {
    let out = dice(&["2d6"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("2d6: mean 7.000, min 2, max 12"));
    assert!(lines.next().is_some_and(|h| h.contains("value")));
    let seven = text
        .lines()
        .find(|l| l.trim_start().starts_with("7 "))
        .expect("a row for 7");
    assert!(seven.contains("16.6667%"), "{seven}");
    assert!(seven.contains("58.3333%"), "{seven}");
    assert!(seven.contains('#'));
}

#[test]
fn bad_expression_exits_1_with_position() {
    let out = dice(&["2d6+d"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).expect("utf-8");
    assert!(
        err.starts_with("error: 2d6+d: at character 6: expected a number of sides after `d`"),
        "{err}"
    );
    // The caret sits under the problem.
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert_eq!(lines[1].find("2d6+d"), Some(2));
    assert_eq!(lines[2].find('^'), Some(2 + 5));

    for bad in ["", "4d6kh5", "1d20-1d4kh1", "2d6*2"] {
        let out = dice(&[bad, "--json"]);
        assert_eq!(out.status.code(), Some(1), "{bad:?}");
        let err = String::from_utf8(out.stderr).expect("utf-8");
        assert!(err.contains("at character"), "{bad:?}: {err}");
        assert!(!err.contains("panicked"), "{bad:?}: {err}");
    }
}
