//! Properties of dice expressions: Display round-trips, exact distributions are
//! distributions, and rolls land in their support.

use proptest::prelude::*;
use skirmish::engine::dice::Dice;
use skirmish::engine::odds::DiceExpr;

/// Random small expressions: groups of a few small dice, constants, and keeps that
/// cover only added dice.
fn expression() -> impl Strategy<Value = String> {
    let term = (
        any::<bool>(),
        0_u32..3,
        1_u32..4,
        prop::sample::select(vec![1_u32, 2, 3, 4, 6, 8, 10, 12, 20]),
        0_u32..20,
        0_u32..4,
        any::<bool>(),
    );
    (prop::collection::vec(term, 1..5), any::<bool>()).prop_map(|(terms, spaces)| {
        let sep = if spaces { " " } else { "" };
        let mut s = String::new();
        // Dice written since the start or the previous keep, and whether any of them
        // were subtracted.
        let mut pool = 0_u32;
        let mut pool_has_negative = false;
        for (i, (neg, kind, n, x, c, k, high)) in terms.into_iter().enumerate() {
            if i > 0 || neg {
                s.push_str(sep);
                s.push(if neg { '-' } else { '+' });
                s.push_str(sep);
            }
            if kind == 0 {
                s.push_str(&c.to_string());
                continue;
            }
            s.push_str(&format!("{n}d{x}"));
            pool += n;
            pool_has_negative |= neg;
            if kind == 2 && !pool_has_negative && k >= 1 && k <= pool {
                s.push_str(if high { "kh" } else { "kl" });
                s.push_str(&k.to_string());
                pool = 0;
            }
        }
        s
    })
}

proptest! {
    #[test]
    fn display_round_trips(text in expression()) {
        let e: DiceExpr = text.parse().map_err(|err| TestCaseError::fail(format!("{text}: {err}")))?;
        let canonical = e.to_string();
        let again: DiceExpr = canonical.parse().map_err(|err| TestCaseError::fail(format!("{canonical}: {err}")))?;
        prop_assert_eq!(&again, &e);
        prop_assert_eq!(again.to_string(), canonical);
    }

    #[test]
    fn distributions_are_exact_and_rolls_fit(text in expression(), seed in any::<u64>()) {
        let e: DiceExpr = text.parse().map_err(|err| TestCaseError::fail(format!("{text}: {err}")))?;
        let d = e.distribution();
        let outcomes = d.outcomes();
        let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
        prop_assert!((total - 1.0).abs() < 1e-9, "{}: total {}", text, total);
        prop_assert_eq!((d.min(), d.max()), e.range());
        prop_assert_eq!(outcomes.first().map(|o| o.0), Some(d.min()));
        prop_assert_eq!(outcomes.last().map(|o| o.0), Some(d.max()));
        prop_assert!((d.mean() - e.mean()).abs() < 1e-9, "{}: {} vs {}", text, d.mean(), e.mean());
        prop_assert!((d.prob_at_least(d.min()) - 1.0).abs() < 1e-12);
        prop_assert!((d.prob_at_most(d.max()) - 1.0).abs() < 1e-12);
        let mut dice = Dice::seeded(seed);
        for _ in 0..20 {
            let r = e.roll(&mut dice).map_err(|err| TestCaseError::fail(err.to_string()))?;
            prop_assert!(d.prob(r.total) > 0.0, "{}: rolled {} outside the support", text, r.total);
            prop_assert_eq!(r.faces.len(), e.dice_count() as usize);
            prop_assert!(r.faces.iter().all(|&(x, f)| (1..=x).contains(&f)));
        }
    }

    #[test]
    fn garbage_never_panics(text in "[0-9dDkKhHlL%+\\- ]{0,12}") {
        if let Err(err) = text.parse::<DiceExpr>() {
            prop_assert!(err.position <= text.chars().count(), "{:?}: {}", text, err);
            prop_assert!(!err.message.is_empty());
        }
    }
}
