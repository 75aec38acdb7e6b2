//! The day-by-day walk of `forecast_balance` (`docs/contract/reads.md` §13 step 11): monthly
//! amounts spread over the days left, charges and one-offs on their dates, and each month's start,
//! end and low.
//!
//! A charge whose day is past a month's end falls on the month's last day (D37), and counts only
//! when that day is still to come; spreading keeps whole cents, flooring towards −∞.

use crate::months::CalendarMonth;
use chrono::{Datelike, NaiveDate};
use std::collections::BTreeMap;
use ynab::models::Milliunits;

/// What the walk needs, every amount in milliunits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectionInput {
    pub today: NaiveDate,
    /// The last month projected (not before today's).
    pub until: CalendarMonth,
    pub start_balance: Milliunits,
    /// (day of the month, amount) of each recurring charge or income.
    pub charges: Vec<(u32, Milliunits)>,
    /// Spending besides the charges, each month (meant negative).
    pub variable: Milliunits,
    /// Income besides recurring income, each month.
    pub income: Milliunits,
    /// This month's spending so far (≤ 0) and money received so far, charges left out.
    pub spent: Milliunits,
    pub received: Milliunits,
    /// Dated amounts: the caller's one-offs and the schedules' occurrences.
    pub one_offs: Vec<(NaiveDate, Milliunits)>,
}

/// One projected month.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MonthProjection {
    pub month: CalendarMonth,
    pub start: Milliunits,
    /// Money in (≥ 0) and out (≤ 0) over the days walked.
    pub inflows: Milliunits,
    pub outflows: Milliunits,
    pub end: Milliunits,
    /// The lowest balance of the month, its start included.
    pub lowest: Milliunits,
}

/// Days in `month` (28–31).
pub fn days_in(month: CalendarMonth) -> u32 {
    let next = month.next();
    match (month.first_day(), next.first_day()) {
        (Some(first), Some(after)) => u32::try_from((after - first).num_days()).unwrap_or(30),
        _ => 30,
    }
}

/// Add `amount` on `day` of `flows`.
fn add(flows: &mut BTreeMap<u32, Milliunits>, day: u32, amount: Milliunits) {
    let slot = flows.entry(day).or_default();
    *slot = slot.saturating_add(amount);
}

/// `spread(total, a, b)`: whole cents of `total` spread over days `a..=b`, the first days one
/// cent more; the sub-cent remainder is dropped (negative totals floor towards −∞).
pub fn spread(total: Milliunits, a: u32, b: u32) -> BTreeMap<u32, Milliunits> {
    let mut flows = BTreeMap::new();
    if total == 0 || b < a {
        return flows;
    }
    let n = i64::from(b - a + 1);
    let cents = total.div_euclid(10);
    let (base, extra) = (cents.div_euclid(n), cents.rem_euclid(n));
    for (i, day) in (a..=b).enumerate() {
        let i = i64::try_from(i).unwrap_or(i64::MAX);
        let share = if i < extra { base + 1 } else { base };
        flows.insert(day, share.saturating_mul(10));
    }
    flows
}

/// The months from today's to `until`, walked day by day from tomorrow.
pub fn project(input: &ProjectionInput) -> Vec<MonthProjection> {
    project_days(input).0
}

/// [`project`]'s months, and the balance the walk gives each day: today's (the start balance)
/// first, then the end of each day walked, in order (what a chart of the forecast draws).
pub fn project_days(
    input: &ProjectionInput,
) -> (Vec<MonthProjection>, Vec<(NaiveDate, Milliunits)>) {
    let now = CalendarMonth::of(input.today);
    let mut months = Vec::new();
    let mut days_walked = vec![(input.today, input.start_balance)];
    let mut balance = input.start_balance;
    let mut month = now;
    while month <= input.until {
        let days = days_in(month);
        let current = month == now;
        let (first_day, to_spend, to_receive) = if current {
            (
                input.today.day() + 1,
                input.variable.saturating_sub(input.spent).min(0),
                input.income.saturating_sub(input.received).max(0),
            )
        } else {
            (1, input.variable, input.income)
        };
        let spending = spread(to_spend, first_day, days);
        let income = spread(to_receive, first_day, days);
        let mut dated = BTreeMap::new();
        for &(day, amount) in &input.charges {
            // a charge dated past the month's end falls on its last day (D37)
            let on = day.min(days);
            if on >= first_day {
                add(&mut dated, on, amount);
            }
        }
        for &(date, amount) in &input.one_offs {
            if date > input.today && CalendarMonth::of(date) == month {
                add(&mut dated, date.day(), amount);
            }
        }
        let (mut inflows, mut outflows): (Milliunits, Milliunits) = (0, 0);
        for amount in spending
            .values()
            .chain(income.values())
            .chain(dated.values())
        {
            if *amount > 0 {
                inflows = inflows.saturating_add(*amount);
            } else {
                outflows = outflows.saturating_add(*amount);
            }
        }
        let start = balance;
        let mut lowest = balance;
        for day in first_day..=days {
            for flows in [&spending, &income, &dated] {
                balance = balance.saturating_add(flows.get(&day).copied().unwrap_or(0));
            }
            lowest = lowest.min(balance);
            if let Some(date) = NaiveDate::from_ymd_opt(month.year(), month.month(), day) {
                days_walked.push((date, balance));
            }
        }
        months.push(MonthProjection {
            month,
            start,
            inflows,
            outflows,
            end: balance,
            lowest,
        });
        month = month.next();
    }
    (months, days_walked)
}

/// The first month whose lowest point is below zero.
pub fn first_shortfall(months: &[MonthProjection]) -> Option<CalendarMonth> {
    months.iter().find(|m| m.lowest < 0).map(|m| m.month)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn d(text: &str) -> NaiveDate {
        crate::args::parse_date(text).expect("a date")
    }

    fn until(text: &str) -> CalendarMonth {
        CalendarMonth::of(d(&format!("{text}-01")))
    }

    fn input(today: &str, last: &str) -> ProjectionInput {
        ProjectionInput {
            today: d(today),
            until: until(last),
            start_balance: 0,
            charges: Vec::new(),
            variable: 0,
            income: 0,
            spent: 0,
            received: 0,
            one_offs: Vec::new(),
        }
    }

    /// (start, inflows, outflows, end, lowest) of each month.
    fn rows(input: &ProjectionInput) -> Vec<[Milliunits; 5]> {
        project(input)
            .iter()
            .map(|m| [m.start, m.inflows, m.outflows, m.end, m.lowest])
            .collect()
    }

    #[test]
    fn spreading_keeps_whole_cents() {
        let plus = spread(20_000, 25, 30);
        assert_eq!(
            plus.values().copied().collect::<Vec<_>>(),
            [3_340, 3_340, 3_330, 3_330, 3_330, 3_330]
        );
        let minus = spread(-100_000, 1, 31);
        assert_eq!(minus.values().filter(|v| **v == -3_220).count(), 13);
        assert_eq!(minus.values().filter(|v| **v == -3_230).count(), 18);
        assert_eq!(spread(-1_005, 1, 1).values().sum::<i64>(), -1_010);
        assert!(spread(5_000, 31, 30).is_empty());
        assert!(spread(0, 1, 30).is_empty());
    }

    /// Worked example 1 of §13: start 1000, CAR LEASE −400 on the 25th, variable −300, a one-off
    /// of +200 on 2026-11-15.
    #[test]
    fn worked_example_1_projection_only() {
        let mut i = input("2026-09-24", "2026-12");
        i.start_balance = 1_000_000;
        i.charges = vec![(25, -400_000)];
        i.variable = -300_000;
        i.one_offs = vec![(d("2026-11-15"), 200_000)];
        assert_eq!(
            rows(&i),
            [
                [1_000_000, 0, -700_000, 300_000, 300_000],
                [300_000, 0, -700_000, -400_000, -400_000],
                [-400_000, 200_000, -700_000, -900_000, -900_000],
                [-900_000, 0, -700_000, -1_600_000, -1_600_000],
            ]
        );
        let shortfall = first_shortfall(&project(&i)).map(CalendarMonth::label);
        assert_eq!(shortfall.as_deref(), Some("2026-10-01"));
    }

    /// Worked example 2: the month so far is deducted, and clamped.
    #[test]
    fn worked_example_2_month_to_date() {
        let mut i = input("2026-09-24", "2026-09");
        i.variable = -300_000;
        i.income = 1_000_000;
        i.spent = -250_000;
        i.received = 400_000;
        assert_eq!(rows(&i), [[0, 600_000, -50_000, 550_000, 0]]);
        i.spent = -400_000;
        i.received = 1_500_000;
        assert_eq!(rows(&i), [[0, 0, 0, 0, 0]]);
    }

    /// Worked example 3: same-day amounts, a one-off dated today, income spread.
    #[test]
    fn worked_example_3_same_day_amounts() {
        let mut i = input("2026-09-24", "2026-10");
        i.charges = vec![(5, -500_000), (5, -20_000)];
        i.one_offs = vec![
            (d("2026-10-05"), -100_000),
            (d("2026-10-05"), -50_000),
            (d("2026-09-24"), -999_000),
        ];
        let months = project(&i);
        assert_eq!(months[1].outflows, -670_000);
        assert_eq!(months[0].end, 0, "a one-off dated today is ignored");
        let mut i = input("2026-09-24", "2026-10");
        i.income = 3_000_000;
        assert_eq!(
            rows(&i),
            [
                [0, 3_000_000, 0, 3_000_000, 0],
                [3_000_000, 3_000_000, 0, 6_000_000, 3_000_000]
            ]
        );
    }

    /// D37: on the last day of September a charge on day 31 is today's, so it is not projected;
    /// on 31 October it falls on day 31 as usual.
    #[test]
    fn a_charge_past_the_month_end_on_the_last_day_is_todays() {
        let mut i = input("2026-09-30", "2026-10");
        i.start_balance = 100_000;
        i.charges = vec![(31, -50_000)];
        assert_eq!(
            rows(&i),
            [
                [100_000, 0, 0, 100_000, 100_000],
                [100_000, 0, -50_000, 50_000, 50_000],
            ]
        );
    }

    /// D37: earlier in September the same charge counts on 30 September, in the outflows and in
    /// the balance; in February a day-30 charge falls on the 28th.
    #[test]
    fn a_charge_past_the_month_end_falls_on_its_last_day() {
        let mut i = input("2026-09-25", "2026-10");
        i.start_balance = 100_000;
        i.charges = vec![(31, -50_000)];
        assert_eq!(
            rows(&i),
            [
                [100_000, 0, -50_000, 50_000, 50_000],
                [50_000, 0, -50_000, 0, 0],
            ]
        );
        let mut i = input("2027-02-27", "2027-03");
        i.charges = vec![(30, -10_000)];
        let months = project(&i);
        assert_eq!((months[0].outflows, months[0].end), (-10_000, -10_000));
        assert_eq!(months[1].outflows, -10_000, "30 March, once");
        let mut i = input("2027-02-28", "2027-02");
        i.charges = vec![(30, -10_000)];
        assert_eq!(project(&i)[0].outflows, 0, "28 February is today");
    }

    #[test]
    fn a_negative_start_is_a_shortfall_at_once_and_positive_variable_is_money_in() {
        let mut i = input("2026-09-24", "2026-10");
        i.start_balance = -1;
        i.variable = 31_000;
        let months = project(&i);
        assert_eq!(
            first_shortfall(&months)
                .map(CalendarMonth::label)
                .as_deref(),
            Some("2026-09-01")
        );
        assert_eq!(months[0].inflows, 0, "clamped this month");
        assert_eq!(months[1].inflows, 31_000);
        assert_eq!(days_in(until("2028-02")), 29);
        assert_eq!(days_in(until("2026-12")), 31);
    }

    proptest! {
        /// Months chain (each starts at the last one's end), the flows add up to the change,
        /// and the lowest point is never above the start or the end.
        #[test]
        fn months_chain_and_add_up(
            day in 0u32..365,
            ahead in 0u32..25,
            start in -1_000_000i64..1_000_000,
            charges in proptest::collection::vec((1u32..32, -500_000i64..500_000), 0..6),
            variable in -900_000i64..900_000,
            income in -900_000i64..900_000,
            spent in -900_000i64..1,
            received in 0i64..900_000,
            one_offs in proptest::collection::vec((0u32..800, -500_000i64..500_000), 0..6),
        ) {
            let today = d("2026-01-01") + chrono::Days::new(u64::from(day));
            let mut last = CalendarMonth::of(today);
            for _ in 0..ahead {
                last = last.next();
            }
            let i = ProjectionInput {
                today,
                until: last,
                start_balance: start,
                charges,
                variable,
                income,
                spent,
                received,
                one_offs: one_offs
                    .into_iter()
                    .map(|(k, a)| (d("2026-01-01") + chrono::Days::new(u64::from(k)), a))
                    .collect(),
            };
            let months = project(&i);
            prop_assert_eq!(months.len(), ahead as usize + 1);
            let mut balance = start;
            for m in &months {
                prop_assert_eq!(m.start, balance);
                prop_assert_eq!(m.end, m.start + m.inflows + m.outflows);
                prop_assert!(m.lowest <= m.start && m.lowest <= m.end);
                prop_assert!(m.inflows >= 0 && m.outflows <= 0);
                balance = m.end;
            }
            // the days: today's balance, then one per day to the end of until, each month's
            // lowest and end among them
            let (same, days) = project_days(&i);
            prop_assert_eq!(&same, &months);
            prop_assert_eq!(days.first().copied(), Some((today, start)));
            prop_assert_eq!(days.last().map(|d| d.0), last.next().first_day().and_then(|f| f.pred_opt()));
            prop_assert!(days.windows(2).all(|w| w[1].0 == w[0].0 + chrono::Days::new(1)));
            for m in &months {
                let within = days.iter().filter(|(date, _)| CalendarMonth::of(*date) == m.month);
                let lowest = within.clone().map(|d| d.1).min().map_or(m.start, |low| low.min(m.start));
                prop_assert_eq!(lowest, m.lowest);
                prop_assert_eq!(within.map(|d| d.1).next_back().unwrap_or(m.start), m.end);
            }
        }
    }
}
