//! Age of Money month by month (`docs/contract/reads.md` §15): YNAB's own figure of each month
//! summary, nothing recomputed, with the latest figure, its trend and the sentences that explain
//! them.
//!
//! Months are the ones YNAB holds up to today's month (`held_months`); a month without a figure
//! keeps its row with no days. Every month a sentence writes is `YYYY-MM-01` (D7).

use crate::months::{CalendarMonth, held_months};
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use ynab::models::Month;

/// Days from which money counts as last month's income (the reference's `A_MONTH`).
pub const A_MONTH: i64 = 30;

/// The two notes every answer carries.
pub const FIGURE_NOTE: &str = "Age of Money is YNAB's own figure: for the latest payments out of \
the budget accounts, how many days passed since that money came in, the oldest money spent first, \
averaged.";
pub const MOVING_NOTE: &str = "The current month's figure moves with each payment; a past month's is the one YNAB keeps for it.";

/// Which way the figure went between the first and the last month that have one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Trend {
    Up,
    Down,
    Steady,
}

impl Trend {
    fn of(change: i64) -> Self {
        match change.signum() {
            1 => Trend::Up,
            -1 => Trend::Down,
            _ => Trend::Steady,
        }
    }
}

/// One month YNAB holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AgeRow {
    pub month: CalendarMonth,
    /// YNAB's Age of Money for the month, in days (0 is a figure).
    pub days: Option<i64>,
    /// `days` less the previous row's, when both are known.
    pub change: Option<i64>,
}

/// The figures of `get_age_of_money` and the sentences about them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgeOfMoney {
    /// Oldest first.
    pub rows: Vec<AgeRow>,
    /// The latest figure, and the month it is of.
    pub days: Option<i64>,
    pub as_of: Option<CalendarMonth>,
    /// Latest figure less the first one, with at least two figures.
    pub change: Option<i64>,
    pub trend: Option<Trend>,
    pub message: String,
    pub notes: Vec<String>,
}

/// Age of Money over the last `count` months YNAB holds up to today's month (months budgeted
/// ahead and deleted months are skipped).
pub fn age_of_money(months: &[Month], today: NaiveDate, count: usize) -> AgeOfMoney {
    let current = CalendarMonth::of(today);
    let mut rows: Vec<AgeRow> = Vec::new();
    let mut previous: Option<i64> = None;
    for (month, summary) in held_months(months, today, count) {
        let days = summary.age_of_money.map(i64::from);
        let change = match (days, previous) {
            (Some(now), Some(before)) => Some(now - before),
            _ => None,
        };
        rows.push(AgeRow {
            month,
            days,
            change,
        });
        previous = days;
    }
    let known: Vec<(CalendarMonth, i64)> = rows
        .iter()
        .filter_map(|r| r.days.map(|d| (r.month, d)))
        .collect();
    let latest = known.last().copied();
    let since = match (known.first(), latest) {
        (Some(&(first, first_days)), Some((_, last_days))) if known.len() >= 2 => {
            Some((first, last_days - first_days))
        }
        _ => None,
    };
    let change = since.map(|(_, change)| change);
    AgeOfMoney {
        message: message(&rows, current, latest, since),
        notes: notes(&rows, current, count),
        days: latest.map(|(_, days)| days),
        as_of: latest.map(|(month, _)| month),
        change,
        trend: change.map(Trend::of),
        rows,
    }
}

/// The conclusion: the latest figure, what it means, and how it moved since the first figure.
fn message(
    rows: &[AgeRow],
    current: CalendarMonth,
    latest: Option<(CalendarMonth, i64)>,
    since: Option<(CalendarMonth, i64)>,
) -> String {
    let Some((as_of, days)) = latest else {
        return if rows.is_empty() {
            format!("YNAB returned no month up to {current}: no Age of Money to give.")
        } else {
            format!(
                "YNAB gives no Age of Money for the last {} months: it shows one once the plan \
has enough history of money in and out.",
                rows.len()
            )
        };
    };
    let meaning = if days >= A_MONTH {
        "Over 30 days: you are living on last month's income, the buffer YNAB aims for."
    } else {
        "Under 30 days: money is spent within a month of coming in; the older it gets, the bigger \
the buffer between pay and bills."
    };
    let moved = match since {
        None => String::new(),
        Some((first, 0)) => format!(" It is unchanged since {first}."),
        Some((first, change)) => format!(
            " It went {} by {} days since {first}.",
            if change > 0 { "up" } else { "down" },
            change.unsigned_abs()
        ),
    };
    format!(
        "Your money is {days} days old ({as_of}, YNAB's Age of Money): what you spend came in \
{days} days before, on average. {meaning}{moved}"
    )
}

/// The notes, in the order of §15: the two fixed ones, months without a figure, fewer months than
/// asked, no row for the current month.
fn notes(rows: &[AgeRow], current: CalendarMonth, count: usize) -> Vec<String> {
    let mut notes = vec![FIGURE_NOTE.to_string(), MOVING_NOTE.to_string()];
    let missing: Vec<String> = rows
        .iter()
        .filter(|r| r.days.is_none())
        .map(|r| r.month.label())
        .collect();
    if !missing.is_empty() {
        notes.push(format!(
            "No figure for {}: YNAB did not have enough history of money in and out yet.",
            missing.join(", ")
        ));
    }
    if !rows.is_empty() && rows.len() < count {
        notes.push(format!(
            "YNAB holds only {} months up to {current}: all are shown.",
            rows.len()
        ));
    }
    if let Some(last) = rows.last()
        && last.month != current
    {
        notes.push(format!(
            "YNAB has no month {current} yet: the latest is {}.",
            last.month
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fixtures::Fixture;
    use proptest::prelude::*;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 9, 25).unwrap_or_default()
    }

    /// A plan whose months are `(YYYY-MM-01, age of money)`, in the order given.
    fn months(figures: &[(&str, Option<i32>)]) -> Vec<Month> {
        let mut plan = Fixture::new();
        for (label, age) in figures {
            plan.month(label, *age);
        }
        plan.plan.months
    }

    type Shown = (String, Option<i64>, Option<i64>);

    fn shown(age: &AgeOfMoney) -> Vec<Shown> {
        age.rows
            .iter()
            .map(|r| (r.month.label(), r.days, r.change))
            .collect()
    }

    fn row(month: &str, days: Option<i64>, change: Option<i64>) -> Shown {
        (month.to_string(), days, change)
    }

    /// Worked example 1 of §15.
    #[test]
    fn three_months_going_up() {
        let plan = months(&[
            ("2026-07-01", Some(17)),
            ("2026-08-01", Some(48)),
            ("2026-09-01", Some(47)),
        ]);
        let age = age_of_money(&plan, today(), 12);
        assert_eq!(
            shown(&age),
            vec![
                row("2026-07-01", Some(17), None),
                row("2026-08-01", Some(48), Some(31)),
                row("2026-09-01", Some(47), Some(-1)),
            ]
        );
        assert_eq!(age.days, Some(47));
        assert_eq!(
            age.as_of.map(CalendarMonth::label),
            Some("2026-09-01".into())
        );
        assert_eq!((age.change, age.trend), (Some(30), Some(Trend::Up)));
        assert_eq!(
            age.message,
            "Your money is 47 days old (2026-09-01, YNAB's Age of Money): what you spend came in \
47 days before, on average. Over 30 days: you are living on last month's income, the buffer YNAB \
aims for. It went up by 30 days since 2026-07-01."
        );
        assert_eq!(
            age.notes,
            vec![
                FIGURE_NOTE.to_string(),
                MOVING_NOTE.to_string(),
                "YNAB holds only 3 months up to 2026-09-01: all are shown.".to_string(),
            ]
        );
    }

    /// Worked example 2 of §15.
    #[test]
    fn months_without_a_figure_and_no_current_month() {
        let plan = months(&[
            ("2026-06-01", None),
            ("2026-07-01", None),
            ("2026-08-01", Some(17)),
        ]);
        let age = age_of_money(&plan, today(), 3);
        assert!(age.rows.iter().all(|r| r.change.is_none()));
        assert_eq!((age.change, age.trend), (None, None));
        assert_eq!(age.days, Some(17));
        assert_eq!(
            age.as_of.map(CalendarMonth::label),
            Some("2026-08-01".into())
        );
        assert_eq!(
            age.message,
            "Your money is 17 days old (2026-08-01, YNAB's Age of Money): what you spend came in \
17 days before, on average. Under 30 days: money is spent within a month of coming in; the older \
it gets, the bigger the buffer between pay and bills."
        );
        assert_eq!(
            age.notes[2..],
            [
                "No figure for 2026-06-01, 2026-07-01: YNAB did not have enough history of money \
in and out yet."
                    .to_string(),
                "YNAB has no month 2026-09-01 yet: the latest is 2026-08-01.".to_string(),
            ]
        );
    }

    /// Worked example 3 of §15: any order, deleted and future months skipped.
    #[test]
    fn deleted_and_future_months_are_skipped() {
        let mut plan = Fixture::new();
        for (label, age) in [
            ("2026-11-01", None),
            ("2026-10-01", Some(18)),
            ("2026-09-01", Some(18)),
            ("2026-08-01", Some(16)),
            ("2026-07-01", Some(14)),
        ] {
            plan.month(label, age);
        }
        plan.month("2026-06-01", Some(12)).deleted = true;
        plan.month("2026-05-01", Some(10));
        let three = age_of_money(&plan.plan.months, today(), 3);
        assert_eq!(
            shown(&three),
            vec![
                row("2026-07-01", Some(14), None),
                row("2026-08-01", Some(16), Some(2)),
                row("2026-09-01", Some(18), Some(2)),
            ]
        );
        assert_eq!(three.days, Some(18));
        assert_eq!((three.change, three.trend), (Some(4), Some(Trend::Up)));
        assert_eq!(three.notes.len(), 2, "{:?}", three.notes);
        let four = age_of_money(&plan.plan.months, today(), 4);
        let labels: Vec<String> = four.rows.iter().map(|r| r.month.label()).collect();
        assert_eq!(
            labels,
            ["2026-05-01", "2026-07-01", "2026-08-01", "2026-09-01"]
        );
        assert_eq!(four.rows[1].change, Some(4), "the previous row, not month");
    }

    #[test]
    fn down_steady_and_nothing() {
        let down = age_of_money(
            &months(&[("2026-08-01", Some(25)), ("2026-09-01", Some(21))]),
            today(),
            12,
        );
        assert_eq!((down.change, down.trend), (Some(-4), Some(Trend::Down)));
        assert!(
            down.message
                .ends_with("Under 30 days: money is spent within a month of coming in; the older it gets, the bigger the buffer between pay and bills. It went down by 4 days since 2026-08-01."),
            "{}",
            down.message
        );
        let steady = age_of_money(
            &months(&[
                ("2026-07-01", Some(30)),
                ("2026-08-01", Some(35)),
                ("2026-09-01", Some(30)),
            ]),
            today(),
            12,
        );
        assert_eq!(
            (steady.change, steady.trend),
            (Some(0), Some(Trend::Steady))
        );
        assert!(
            steady
                .message
                .ends_with("Over 30 days: you are living on last month's income, the buffer YNAB aims for. It is unchanged since 2026-07-01."),
            "exactly 30 days counts as over: {}",
            steady.message
        );
        let none = age_of_money(&[], today(), 12);
        assert_eq!(
            none.message,
            "YNAB returned no month up to 2026-09-01: no Age of Money to give."
        );
        assert_eq!(
            none.notes,
            vec![FIGURE_NOTE.to_string(), MOVING_NOTE.to_string()]
        );
        assert_eq!((none.days, none.as_of, none.trend), (None, None, None));
    }

    #[test]
    fn no_figure_at_all() {
        let age = age_of_money(
            &months(&[("2026-08-01", None), ("2026-09-01", None)]),
            today(),
            2,
        );
        assert_eq!(
            age.message,
            "YNAB gives no Age of Money for the last 2 months: it shows one once the plan has \
enough history of money in and out."
        );
        assert_eq!(
            age.notes[2],
            "No figure for 2026-08-01, 2026-09-01: YNAB did not have enough history of money in \
and out yet."
        );
        assert_eq!(age.notes.len(), 3);
    }

    #[test]
    fn zero_counts_as_a_figure_and_one_day_is_up() {
        let age = age_of_money(
            &months(&[("2026-08-01", Some(0)), ("2026-09-01", Some(1))]),
            today(),
            2,
        );
        assert_eq!(age.rows[0].days, Some(0));
        assert_eq!((age.change, age.trend), (Some(1), Some(Trend::Up)));
        assert!(
            age.message
                .ends_with(" It went up by 1 days since 2026-08-01.")
        );
    }

    fn arb_months() -> impl Strategy<Value = Vec<(u32, Option<i32>, bool)>> {
        proptest::collection::vec(
            (1u32..=24, proptest::option::of(0i32..200), any::<bool>()),
            0..20,
        )
    }

    proptest! {
        /// Rows are the held months up to today, oldest first, at most `count`; the latest figure,
        /// the change and the trend agree with the rows; the row changes add up to the change.
        #[test]
        fn figures_agree_with_rows(input in arb_months(), count in 1usize..=24) {
            let mut plan = Fixture::new();
            for (n, age, deleted) in &input {
                let year = 2025 + i32::try_from((n - 1) / 12).unwrap_or(0);
                let label = format!("{year}-{:02}-01", (n - 1) % 12 + 1);
                plan.month(&label, *age).deleted = *deleted;
            }
            let age = age_of_money(&plan.plan.months, today(), count);
            let current = CalendarMonth::of(today());
            prop_assert!(age.rows.len() <= count);
            prop_assert!(age.rows.windows(2).all(|w| w[0].month < w[1].month));
            prop_assert!(age.rows.iter().all(|r| r.month <= current));
            let known: Vec<&AgeRow> = age.rows.iter().filter(|r| r.days.is_some()).collect();
            prop_assert_eq!(age.days, known.last().and_then(|r| r.days));
            prop_assert_eq!(age.as_of, known.last().map(|r| r.month));
            prop_assert_eq!(age.change.is_some(), known.len() >= 2);
            prop_assert_eq!(age.trend.is_some(), age.change.is_some());
            // With no month lacking a figure between the first and the last figure, the changes
            // month to month add up to the change overall.
            let gapless = known.len() >= 2 && known.iter().skip(1).all(|r| r.change.is_some());
            if gapless {
                let summed: i64 = age.rows.iter().filter_map(|r| r.change).sum();
                prop_assert_eq!(Some(summed), age.change);
            }
            prop_assert!(age.notes.len() >= 2);
        }
    }
}
