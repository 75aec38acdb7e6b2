//! Tests of the underfunded targets: the worked examples of `docs/contract/reads.md` §20, and the
//! order and totals as properties (most urgent first; the totals count every target, limit or not).

use super::*;
use proptest::prelude::*;

/// A category of group Bills with a target and YNAB's figures.
#[derive(Default)]
struct Goal {
    kind: &'static str,
    target: Milliunits,
    needed: Milliunits,
    left: Milliunits,
    due: Option<&'static str>,
    cadence: Option<i32>,
}

fn category(id: &str, name: &str, goal: Goal) -> Category {
    let dated = goal.due.is_some();
    Category {
        id: id.into(),
        category_group_id: "g-bills".into(),
        category_group_name: Some("Bills".into()),
        name: name.into(),
        goal_type: (!goal.kind.is_empty()).then(|| goal.kind.into()),
        goal_target: (!goal.kind.is_empty()).then_some(goal.target),
        goal_under_funded: (!goal.kind.is_empty()).then_some(goal.needed),
        goal_overall_left: (!goal.kind.is_empty()).then_some(goal.left),
        goal_target_date: goal.due.map(Into::into),
        goal_cadence: goal.cadence,
        goal_percentage_complete: dated.then_some(40),
        goal_months_to_budget: dated.then_some(3),
        ..Category::default()
    }
}

/// The categories of §20's worked examples.
fn bills() -> Vec<Category> {
    let need = |target, needed, left, due, cadence| Goal {
        kind: "NEED",
        target,
        needed,
        left,
        due,
        cadence,
    };
    let plain = |kind, target, needed| Goal {
        kind,
        target,
        needed,
        left: needed,
        ..Goal::default()
    };
    vec![
        category("rent", "Rent", need(950_000, 0, 0, None, Some(1))),
        category(
            "groceries",
            "Groceries",
            need(450_000, 50_000, 50_000, None, Some(1)),
        ),
        category("phone", "Phone", plain("MF", 20_000, 20_000)),
        category(
            "tennis",
            "Tennis",
            need(480_000, 40_000, 400_000, Some("2026-12-01"), None),
        ),
        category(
            "rail",
            "Rail",
            need(250_000, 35_000, 160_000, Some("2026-10-01"), None),
        ),
        category("cushion", "Cushion", plain("TB", 2_000_000, 300_000)),
        category("car", "Car", plain("TB", 900_000, 90_000)),
        category(
            "insurance",
            "Insurance",
            need(420_000, 70_000, 70_000, Some("2026-10-20"), Some(13)),
        ),
        category("loan", "Loan", plain("DEBT", 400_000, 400_000)),
        category("restaurants", "Restaurants", Goal::default()),
    ]
}

fn month(categories: Vec<Category>, ready: Milliunits) -> Month {
    Month {
        month: "2026-09-01".into(),
        note: None,
        income: 0,
        budgeted: 0,
        activity: 0,
        to_be_budgeted: ready,
        age_of_money: None,
        deleted: false,
        categories: Some(categories),
    }
}

fn september() -> CalendarMonth {
    CalendarMonth::new(2026, 9).unwrap_or_else(|| CalendarMonth::of(chrono::NaiveDate::MIN))
}

fn run(m: &Month, limit: Option<usize>) -> Underfunded<'_> {
    let groups = GroupNames::default();
    underfunded_targets(september(), m, &groups, &MoneyFormat::default(), limit)
}

fn ids(u: &Underfunded<'_>) -> Vec<String> {
    u.targets
        .iter()
        .map(|l| l.category.id.to_string())
        .collect()
}

/// Worked example 1 of §20: the order, the totals and the targets in words.
#[test]
fn most_urgent_first() {
    let m = month(bills(), 1_500_000);
    let u = run(&m, None);
    assert_eq!(
        ids(&u),
        [
            "rail",
            "insurance",
            "tennis",
            "loan",
            "groceries",
            "phone",
            "cushion",
            "car"
        ]
    );
    assert_eq!(
        (u.on_track, u.needed, u.behind, u.more),
        (1, 1_005_000, 8, 0)
    );
    let rail = &u.targets[0];
    assert_eq!(
        (rail.target.as_str(), rail.due, rail.needed, rail.left),
        ("250.00 by 2026-10-01", Some("2026-10-01"), 35_000, 160_000)
    );
    assert_eq!(
        (rail.percent_complete, rail.months_left),
        (Some(40), Some(3))
    );
    assert_eq!(rail.group, "Bills");
    let target = |id: &str| {
        u.targets
            .iter()
            .find(|l| l.category.id == id)
            .map(|l| (l.target.clone(), l.urgency))
    };
    assert_eq!(
        target("groceries"),
        Some(("450.00 each month".into(), Urgency::Repeating))
    );
    assert_eq!(
        target("loan"),
        Some(("400.00 (debt payment)".into(), Urgency::Repeating))
    );
    assert_eq!(
        target("insurance"),
        Some(("420.00 by 2026-10-20".into(), Urgency::DueDate))
    );
    assert_eq!(
        target("cushion"),
        Some(("2000.00 (target balance)".into(), Urgency::Other))
    );
    assert_eq!(
        target("phone"),
        Some(("20.00 (monthly funding)".into(), Urgency::Repeating))
    );
}

/// Worked example 2 of §20: Ready to Assign against the need, and a limit.
#[test]
fn totals_against_ready_to_assign() {
    let money = MoneyFormat::default();
    let m = month(bills(), 1_500_000);
    let u = run(&m, None);
    assert_eq!((u.enough, u.covered, u.short_by), (true, 1_005_000, 0));
    assert_eq!(
        u.message(&money),
        "8 targets need 1005.00 in 2026-09-01; Ready to Assign holds 1500.00: enough for all \
of them, with 495.00 left."
    );
    assert_eq!(u.notes().len(), 2);

    let m = month(bills(), 600_000);
    let u = run(&m, None);
    assert_eq!((u.enough, u.covered, u.short_by), (false, 600_000, 405_000));
    assert_eq!(
        u.message(&money),
        "8 targets need 1005.00 in 2026-09-01; Ready to Assign holds 600.00: it covers 600.00 \
of the 1005.00, 405.00 short."
    );
    let u = run(&m, Some(3));
    assert_eq!(ids(&u), ["rail", "insurance", "tennis"]);
    assert_eq!(
        (u.more, u.needed),
        (5, 1_005_000),
        "the totals count every one"
    );
    assert_eq!(
        u.notes()[2],
        "5 more underfunded targets are not listed; the totals count them."
    );

    let m = month(bills().into_iter().take(2).collect(), -20_000);
    let u = run(&m, None);
    assert_eq!(
        (u.ready, u.covered, u.short_by, u.enough),
        (-20_000, 0, 50_000, false)
    );
    assert_eq!(
        u.message(&money),
        "1 target needs 50.00 in 2026-09-01; Ready to Assign holds -20.00: it covers 0.00 of \
the 50.00, 50.00 short."
    );
}

/// Worked example 3 of §20, with D22's `enough`.
#[test]
fn funded_absent_and_snoozed_targets() {
    let money = MoneyFormat::default();
    let rent = || bills().remove(0);
    let m = month(vec![rent()], 0);
    let u = run(&m, None);
    assert!(u.enough);
    assert_eq!(
        u.message(&money),
        "The 1 target of 2026-09-01 is funded: nothing more is needed this month."
    );
    let mut two = rent();
    two.id = "rent2".into();
    let m = month(vec![rent(), two], -20_000);
    let u = run(&m, None);
    assert!(
        u.enough,
        "nothing needed: enough, whatever Ready to Assign (D22)"
    );
    assert_eq!(
        u.message(&money),
        "The 2 targets of 2026-09-01 are funded: nothing more is needed this month."
    );
    let m = month(vec![bills().remove(9)], 0);
    assert_eq!(
        run(&m, None).message(&money),
        "No visible category has a target in 2026-09-01."
    );
    let mut gifts = category(
        "gifts",
        "Gifts\u{200b}",
        Goal {
            kind: "NEED",
            target: 60_000,
            needed: 60_000,
            left: 60_000,
            ..Goal::default()
        },
    );
    gifts.goal_snoozed_at = Some("2026-09-02T10:00:00Z".into());
    let mut hidden = rent();
    hidden.goal_under_funded = Some(10_000);
    hidden.hidden = true;
    let m = month(vec![rent(), gifts, hidden], 0);
    let u = run(&m, None);
    assert!(u.targets.is_empty());
    assert_eq!((u.needed, u.on_track, u.active), (0, 1, 1));
    assert_eq!(
        u.notes().last().map(String::as_str),
        Some("Targets snoozed in YNAB ask for nothing this month and are left out: Gifts.")
    );
}

#[test]
fn targets_in_words() {
    let money = MoneyFormat::new(2, ",");
    let mut c = category(
        "c",
        "C",
        Goal {
            kind: "NEED",
            target: 13_490,
            cadence: Some(2),
            ..Goal::default()
        },
    );
    assert_eq!(describe(&c, &money), "13,49 each week");
    c.goal_cadence = Some(13);
    assert_eq!(describe(&c, &money), "13,49 each year");
    c.goal_cadence_frequency = Some(2);
    assert_eq!(describe(&c, &money), "13,49 (spending target)");
    c.goal_target_month = Some("2027-01-01".into());
    assert_eq!(
        describe(&c, &money),
        "13,49 by 2027-01-01",
        "the deprecated field"
    );
    c.goal_type = Some("TBD".into());
    assert_eq!(describe(&c, &money), "13,49 (target balance by date)");
    c.goal_type = Some("NEW\nKIND".into());
    assert_eq!(describe(&c, &money), "13,49 (NEW KIND)");
    c.goal_target = None;
    assert_eq!(describe(&c, &money), "no target");
    c.goal_target = Some(1_000);
    c.goal_type = None;
    assert_eq!(describe(&c, &money), "no target");
}

fn arb_category() -> impl Strategy<Value = Category> {
    (
        0usize..40,
        prop_oneof![Just(""), Just("NEED"), Just("MF"), Just("TB"), Just("DEBT")],
        -50_000i64..500_000,
        prop_oneof![
            Just(None),
            Just(Some("2026-10-01")),
            Just(Some("2027-01-01"))
        ],
        prop_oneof![
            Just(None),
            Just(Some(0)),
            Just(Some(1)),
            Just(Some(2)),
            Just(Some(13))
        ],
        (any::<bool>(), any::<bool>()),
    )
        .prop_map(|(n, kind, needed, due, cadence, (hidden, snoozed))| {
            let mut c = category(
                &format!("c{n}"),
                &format!("Name {}", n % 7),
                Goal {
                    kind,
                    target: 100_000,
                    needed,
                    left: needed.max(0),
                    due,
                    cadence,
                },
            );
            c.hidden = hidden && n % 3 == 0;
            c.goal_snoozed_at = (snoozed && n % 4 == 0).then(|| "2026-09-01".into());
            c
        })
}

proptest! {
    /// Targets are listed most urgent first: by urgency, then due date, then need
    /// (largest first), then name; the totals count every target behind, limit or not.
    #[test]
    fn most_urgent_first_and_totals_count_every_one(
        categories in proptest::collection::vec(arb_category(), 0..25),
        ready in -200_000i64..2_000_000,
        limit in prop_oneof![Just(None), (1usize..10).prop_map(Some)],
    ) {
        let m = month(categories, ready);
        let all = run(&m, None);
        let u = run(&m, limit);
        for pair in all.targets.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            prop_assert!(a.urgency <= b.urgency);
            if a.urgency == b.urgency {
                if a.urgency == Urgency::DueDate {
                    prop_assert!(a.due <= b.due);
                }
                if a.urgency != Urgency::DueDate || a.due == b.due {
                    prop_assert!(a.needed >= b.needed);
                    if a.needed == b.needed {
                        prop_assert!(a.category.name <= b.category.name);
                    }
                }
            }
        }
        prop_assert!(all.targets.iter().all(|l| l.needed > 0 && !l.category.hidden));
        prop_assert_eq!(all.needed, all.targets.iter().map(|l| l.needed).sum::<i64>());
        prop_assert_eq!(u.needed, all.needed);
        prop_assert_eq!(&all.targets[..u.targets.len()], &u.targets[..]);
        prop_assert_eq!(u.targets.len() + u.more, all.targets.len());
        prop_assert_eq!(u.covered + u.short_by, u.needed);
        prop_assert!(u.covered >= 0 && u.covered <= ready.max(0));
        prop_assert_eq!(u.enough, u.short_by == 0);
        prop_assert_eq!(u.on_track + u.behind, u.active);
    }
}
