//! The generic pending decision (`engine::decision`) answered automatically and
//! merged, with `phases` as the ruleset whose several-pick answers (Seize, ActNow)
//! merge.

use crate::engine::command::Command;
use crate::engine::decision::*;
use crate::engine::units::{Pool, SideId, UnitId};
use crate::engine::verb::Cost;

use super::Phases;
use super::answers::PhasesAnswer;

const RP: Pool = Pool::new("RP", "RP");

fn pass() -> Command {
    Command::Pass { side: SideId(1) }
}

fn end(u: u32) -> Command {
    Command::EndTurn { unit: UnitId(u) }
}

fn one(options: Vec<DecisionOption>) -> PendingDecision {
    PendingDecision {
        side: SideId(1),
        prompt: "React?".into(),
        about: "react".into(),
        pick: Pick::One,
        options,
        decline: Some(DecisionOption::new(pass(), "No reaction")),
        lookahead: false,
    }
}

#[test]
fn one_takes_the_best_value_then_the_cheaper_then_the_first() {
    let d = one(vec![
        DecisionOption::new(end(0), "a")
            .value(1.0)
            .cost(Cost::new(RP, 2)),
        DecisionOption::new(end(1), "b")
            .value(3.0)
            .cost(Cost::new(RP, 2)),
        DecisionOption::new(end(2), "c")
            .value(3.0)
            .cost(Cost::new(RP, 1)),
        DecisionOption::new(end(3), "d")
            .value(3.0)
            .cost(Cost::new(RP, 1)),
    ]);
    assert_eq!(d.auto_pick(), [2]);
}

#[test]
fn one_declines_when_nothing_is_worth_it_unless_it_cannot() {
    let mut d = one(vec![
        DecisionOption::new(end(0), "a").value(0.0),
        DecisionOption::new(end(1), "b").value(-1.0),
    ]);
    assert!(d.auto_pick().is_empty());
    assert_eq!(d.answer(&Phases, &[]), Some(pass()));
    d.decline = None;
    assert_eq!(d.auto_pick(), [0]);
    assert_eq!(d.answer(&Phases, &[]), None);
    assert_eq!(d.answer(&Phases, &[0, 1]), None, "One takes one");
}

#[test]
fn several_takes_every_option_worth_something_and_merges_them() {
    let seize = |units: Vec<u32>| {
        PhasesAnswer::Seize.by(SideId(0), units.into_iter().map(UnitId).collect())
    };
    let d = PendingDecision {
        side: SideId(0),
        prompt: "Seize?".into(),
        about: "seize".into(),
        pick: Pick::Several,
        options: vec![
            DecisionOption::new(seize(vec![4]), "a").value(0.6),
            DecisionOption::new(seize(vec![2]), "b"),
            DecisionOption::new(seize(vec![7]), "c").value(0.9),
        ],
        decline: Some(DecisionOption::new(seize(vec![]), "Nobody seizes")),
        lookahead: true,
    };
    assert_eq!(d.auto_pick(), [0, 2]);
    assert_eq!(d.answer(&Phases, &[]), Some(seize(vec![])));
    assert_eq!(d.answer(&Phases, &[1]), Some(seize(vec![2])));
    assert_eq!(d.answer(&Phases, &[0, 2]), Some(seize(vec![4, 7])));
    assert_eq!(d.answers().next(), Some(&seize(vec![])), "decline first");
    assert_eq!(merge_unit_answers(&[seize(vec![1]), pass()]), None);
    let act_now = PhasesAnswer::ActNow.by(SideId(0), vec![UnitId(2)]);
    assert_eq!(
        merge_unit_answers(&[seize(vec![1]), act_now]),
        None,
        "another verb"
    );
    let theirs = PhasesAnswer::Seize.by(SideId(1), vec![UnitId(2)]);
    assert_eq!(
        merge_unit_answers(&[seize(vec![1]), theirs]),
        None,
        "another side"
    );
}

#[test]
fn a_caption_carries_the_chance_and_the_cost() {
    let o = DecisionOption::new(pass(), "Duelist Parry")
        .chance(0.454)
        .cost(Cost::new(RP, 1));
    assert_eq!(o.caption(), "Duelist Parry: 45% (1 RP)");
    assert_eq!(
        DecisionOption::new(pass(), "Keep waiting").caption(),
        "Keep waiting"
    );
}
