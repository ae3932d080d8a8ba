//! Range bands on a grid (RULES.md X-04, X-14): rulesets written for abstract
//! distances (`escalation`'s Engaged/Nearby/Far, `actfast`'s Melee … Distant) map grid
//! distance onto named bands with a table the ruleset keeps in its config RON, so
//! a level can retune it like any other constant.
//!
//! A table lists its bands nearest first, each with the largest distance it covers;
//! a distance beyond the last band is out of range.
//!
//! ```
//! use skirmish::engine::bands::RangeBands;
//!
//! // E-GAP-01: Engaged d = 1, Nearby 2–7, Far 8–13, out of range from 14.
//! let bands: RangeBands = ron::from_str(
//!     r#"[(name: "Engaged", up_to: 1), (name: "Nearby", up_to: 7), (name: "Far", up_to: 13)]"#,
//! ).unwrap();
//! assert!(bands.problems().is_empty());
//! assert_eq!(bands.name_of(7), Some("Nearby"));
//! assert_eq!(bands.name_of(14), None);
//! ```

use serde::{Deserialize, Serialize};

/// One band: its name and the largest distance it covers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Band {
    /// The name players know it by (`Nearby`).
    pub name: String,
    /// The largest grid distance in the band; it starts one past the previous band's.
    pub up_to: u32,
}

/// A distance → band table, nearest band first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RangeBands(pub Vec<Band>);

impl RangeBands {
    /// The index (0 = nearest) and band a distance falls in, or `None` beyond the last.
    pub fn band_of(&self, distance: u32) -> Option<(usize, &Band)> {
        self.0.iter().enumerate().find(|(_, b)| distance <= b.up_to)
    }

    /// The name of the band a distance falls in, or `None` when out of range.
    pub fn name_of(&self, distance: u32) -> Option<&str> {
        self.band_of(distance).map(|(_, b)| b.name.as_str())
    }

    /// The band with this name (case-sensitive, as written in the config).
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.0.iter().position(|b| b.name == name)
    }

    /// The distances band `index` covers, nearest and farthest.
    pub fn span(&self, index: usize) -> Option<(u32, u32)> {
        let band = self.0.get(index)?;
        let from = match index {
            0 => 0,
            i => self.0[i - 1].up_to + 1,
        };
        Some((from, band.up_to))
    }

    /// What is wrong with the table, in words (empty when it is usable): no bands,
    /// an empty or repeated name, or a band that does not reach past the one before.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.0.is_empty() {
            out.push("the band table is empty; expected at least one band".to_string());
        }
        for (i, band) in self.0.iter().enumerate() {
            if band.name.trim().is_empty() {
                out.push(format!("band #{} has no name", i + 1));
            } else if self.0[..i].iter().any(|b| b.name == band.name) {
                out.push(format!("band `{}` is listed twice", band.name));
            }
            if i > 0 && band.up_to <= self.0[i - 1].up_to {
                out.push(format!(
                    "band `{}` ends at {} but must reach past `{}` (which ends at {})",
                    band.name,
                    band.up_to,
                    self.0[i - 1].name,
                    self.0[i - 1].up_to
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(rows: &[(&str, u32)]) -> RangeBands {
        RangeBands(
            rows.iter()
                .map(|&(n, d)| Band {
                    name: n.into(),
                    up_to: d,
                })
                .collect(),
        )
    }

    /// E-GAP-01: Engaged = adjacent, Nearby 2–7, Far 8–13, out of range from 14.
    #[test]
    fn e_gap_01_escalation_bands() {
        let t = table(&[("Engaged", 1), ("Nearby", 7), ("Far", 13)]);
        assert!(t.problems().is_empty());
        let names: Vec<Option<&str>> = [1, 2, 7, 8, 13, 14, 40].map(|d| t.name_of(d)).into();
        assert_eq!(
            names,
            [
                Some("Engaged"),
                Some("Nearby"),
                Some("Nearby"),
                Some("Far"),
                Some("Far"),
                None,
                None
            ]
        );
        assert_eq!(t.span(1), Some((2, 7)));
        assert_eq!(t.index_of("Far"), Some(2));
    }

    /// A-GAP-01 / A-EX-7: Melee 1, Close 2–6, Mid 7–12, Far 13–30, Distant from 31.
    #[test]
    fn a_ex_7_actfast_bands() {
        let t = table(&[
            ("Melee", 1),
            ("Close", 6),
            ("Mid", 12),
            ("Far", 30),
            ("Distant", u32::MAX),
        ]);
        assert!(t.problems().is_empty());
        for (d, band) in [
            (1, "Melee"),
            (4, "Close"),
            (6, "Close"),
            (7, "Mid"),
            (12, "Mid"),
            (13, "Far"),
            (30, "Far"),
            (31, "Distant"),
        ] {
            assert_eq!(t.name_of(d), Some(band), "d = {d}");
        }
    }

    /// A table that does not grow, repeats a name or is empty is refused, in words.
    #[test]
    fn bad_tables_are_refused() {
        assert_eq!(RangeBands::default().problems().len(), 1);
        let p = table(&[("Near", 5), ("Near", 3)]).problems();
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(p[0].contains("listed twice"));
        assert!(p[1].contains("must reach past `Near`"));
    }
}
