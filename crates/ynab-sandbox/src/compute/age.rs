//! Age of Money as the reference's stand-in computes it (`docs/contract/server.md` §8.2): money
//! into the budget accounts queued, each payment out spending the oldest money first, the last ten
//! payments averaged.
//!
//! The rule, step by step (the module doc of `compute` states it for readers of the crate):
//! 1. *Events.* Every non-deleted transaction on a budget (on-budget) account, taken whole: its
//!    amount, less the lines that move money to or from another budget account (a split counts by
//!    its non-deleted lines). What is left is an inflow when positive, a payment when negative,
//!    nothing when zero. Transfers between budget accounts therefore never count; a transfer to a
//!    tracking account (a loan payment) is a payment.
//! 2. *Order.* By date; on the same date inflows before payments; then in stored order.
//! 3. *FIFO.* An inflow joins the back of the queue with its date. A payment takes money from the
//!    front of the queue until it is paid for or the queue is empty. Its age is the amount-weighted
//!    mean, over the pieces it took, of (payment date − inflow date) in days. The part of a payment
//!    the queue cannot cover is not aged and is not remembered: no debt waits for later inflows. A
//!    payment that finds the queue empty is not aged at all.
//! 4. *A month's figure.* The plain mean of the ages of the last 10 aged payments dated on or
//!    before the month's last day, or before today for the current month, rounded to the nearest
//!    day (halves up); `None` while fewer than 10 payments have been aged, and `None` for a month
//!    that starts after today. Ages are kept in thousandths of a day (integers) until then.
//!
//! With the demo plan this gives June `None`, July 17, August 48, September 47, the figures of
//! §8.1. Checking spends from June 3 but receives its first salary on June 28, so June's payments
//! find the queue empty and are not aged (hence nothing in June). Because they are not remembered
//! either, the June 28 salary (3,200.00) pays for all of July (1,379.06) and August (1,426.28):
//! August's last ten payments are 39 to 57 days old (47.9 → 48), and September's rent finishes the
//! June money before the rest is paid from July 28's salary (47.4 → 47). Had the June overdraft
//! been carried as a debt paid by the first salary, August would be 18 days, not §8.1's 48; had
//! the ten ages been averaged weighted by amount, July would be 18 (17.57) and August 49 (49.09).
//! So §8.1's figures pin both choices: uncovered spending is forgotten, the ten ages count alike.

use crate::state::PlanState;
use chrono::{Datelike, Months, NaiveDate};
use std::collections::{BTreeSet, VecDeque};

/// How many of the latest aged payments a month's figure averages.
const PAYMENTS_AVERAGED: usize = 10;

/// Thousandths of a day, the unit ages are kept in before the final rounding.
const MILLIDAYS: i128 = 1000;

/// One aged payment: its date and its age in thousandths of a day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AgedPayment {
    pub date: NaiveDate,
    pub millidays: i64,
}

/// Every aged payment of the plan, in the order they were made (see the module doc).
pub(crate) fn aged_payments(plan: &PlanState) -> Vec<AgedPayment> {
    let budget: BTreeSet<&str> = plan
        .accounts
        .iter()
        .filter(|a| a.on_budget && !a.deleted)
        .map(|a| a.id.as_str())
        .collect();
    let moves_within_budget =
        |transfer: Option<&String>| transfer.is_some_and(|a| budget.contains(a.as_str()));
    let mut events: Vec<(NaiveDate, i64)> = Vec::new();
    for t in plan.transactions.iter().filter(|t| !t.deleted) {
        if !budget.contains(t.account_id.as_str()) {
            continue;
        }
        let Some(date) = parse_date(&t.date) else {
            continue;
        };
        let lines: Vec<_> = t.subtransactions.iter().filter(|s| !s.deleted).collect();
        let amount: i64 = if lines.is_empty() {
            if moves_within_budget(t.transfer_account_id.as_ref()) {
                0
            } else {
                t.amount
            }
        } else {
            lines
                .iter()
                .filter(|s| !moves_within_budget(s.transfer_account_id.as_ref()))
                .map(|s| s.amount)
                .sum()
        };
        if amount != 0 {
            events.push((date, amount));
        }
    }
    // Stable: same date → inflows (positive) first, then stored order.
    events.sort_by_key(|&(date, amount)| (date, amount < 0));

    let mut queue: VecDeque<(NaiveDate, i64)> = VecDeque::new();
    let mut aged = Vec::new();
    for (date, amount) in events {
        if amount > 0 {
            queue.push_back((date, amount));
            continue;
        }
        let mut owed = amount.unsigned_abs();
        let (mut covered, mut weighted): (i128, i128) = (0, 0);
        while owed > 0 {
            let Some(front) = queue.front_mut() else {
                break;
            };
            let take = owed.min(front.1.unsigned_abs());
            let days = (date - front.0).num_days();
            covered += i128::from(take);
            weighted += i128::from(take) * i128::from(days);
            owed -= take;
            front.1 -= i64::try_from(take).unwrap_or(front.1);
            if front.1 <= 0 {
                queue.pop_front();
            }
        }
        if covered > 0 {
            let millidays = (weighted * MILLIDAYS + covered / 2) / covered;
            aged.push(AgedPayment {
                date,
                millidays: i64::try_from(millidays).unwrap_or(i64::MAX),
            });
        }
    }
    aged
}

/// A `YYYY-MM-DD` date, read without a format string (this runs for every transaction).
fn parse_date(text: &str) -> Option<NaiveDate> {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let number = |range: std::ops::Range<usize>| -> Option<u32> {
        b[range].iter().try_fold(0u32, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
        })
    };
    let year = i32::try_from(number(0..4)?).ok()?;
    NaiveDate::from_ymd_opt(year, number(5..7)?, number(8..10)?)
}

/// The last day of `month`'s month.
fn last_day(month: NaiveDate) -> NaiveDate {
    month
        .with_day(1)
        .and_then(|m| m.checked_add_months(Months::new(1)))
        .and_then(|m| m.pred_opt())
        .unwrap_or(month)
}

/// A month's Age of Money from the plan's aged payments (see the module doc).
pub(crate) fn for_month(aged: &[AgedPayment], month: NaiveDate, today: NaiveDate) -> Option<i32> {
    let start = month.with_day(1).unwrap_or(month);
    if start > today {
        return None;
    }
    let until = last_day(start).min(today);
    let upto = aged.partition_point(|p| p.date <= until);
    if upto < PAYMENTS_AVERAGED {
        return None;
    }
    let sum: i128 = aged[upto - PAYMENTS_AVERAGED..upto]
        .iter()
        .map(|p| i128::from(p.millidays))
        .sum();
    let count = PAYMENTS_AVERAGED as i128 * MILLIDAYS;
    i32::try_from((sum + count / 2).div_euclid(count)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::{PlanBuilder, Transfer, Tx, date};

    fn plan() -> PlanBuilder {
        let mut b = PlanBuilder::new("p", "Plan", date("2026-09-25"));
        b.account("acc-c", "Checking", "checking", true);
        b.account("acc-s", "Savings", "savings", true);
        b.account("acc-t", "Loan", "otherDebt", false);
        b
    }

    fn ages(p: &PlanState) -> Vec<(String, i64)> {
        aged_payments(p)
            .into_iter()
            .map(|a| (a.date.to_string(), a.millidays))
            .collect()
    }

    #[test]
    fn dates_are_read_strictly() {
        assert_eq!(
            parse_date("2026-02-28"),
            NaiveDate::from_ymd_opt(2026, 2, 28)
        );
        for bad in ["2026-02-30", "2026-2-28", "2026-02-2x", "26-02-28", ""] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn payments_spend_the_oldest_money_first() {
        let mut b = plan();
        b.transaction(Tx::new(date("2026-01-01"), "acc-c", "Pay", 100_000));
        b.transaction(Tx::new(date("2026-01-11"), "acc-c", "Pay", 100_000));
        // 100 from Jan 1 (20 days) and 50 from Jan 11 (10 days): 2,500 / 150 = 16.667 days.
        b.transaction(Tx::new(date("2026-01-21"), "acc-c", "Shop", -150_000));
        // 50 left from Jan 11: 20 days; the other 50 finds nothing and is not aged.
        b.transaction(Tx::new(date("2026-01-31"), "acc-c", "Shop", -100_000));
        // The queue is empty: not aged, and not owed to the next inflow.
        b.transaction(Tx::new(date("2026-02-01"), "acc-c", "Shop", -5_000));
        b.transaction(Tx::new(date("2026-02-02"), "acc-c", "Pay", 10_000));
        b.transaction(Tx::new(date("2026-02-04"), "acc-c", "Shop", -10_000));
        assert_eq!(
            ages(&b.build()),
            [
                ("2026-01-21".to_owned(), 16_667),
                ("2026-01-31".to_owned(), 20_000),
                ("2026-02-04".to_owned(), 2_000)
            ]
        );
    }

    #[test]
    fn budget_transfers_are_ignored_and_tracking_ones_are_payments() {
        let mut b = plan();
        b.transaction(Tx::new(date("2026-01-01"), "acc-c", "Pay", 100_000));
        b.transfer(Transfer::new(date("2026-01-05"), "acc-c", "acc-s", 60_000));
        b.transfer(Transfer::new(date("2026-01-07"), "acc-c", "acc-t", 30_000));
        b.transaction(Tx::new(date("2026-01-09"), "acc-t", "Interest", -1_000));
        assert_eq!(ages(&b.build()), [("2026-01-07".to_owned(), 6_000)]);
    }

    #[test]
    fn same_day_inflows_come_first_and_splits_count_whole() {
        let mut b = plan();
        b.transaction(Tx::new(date("2026-01-03"), "acc-c", "Shop", -10_000));
        b.transaction(Tx::new(date("2026-01-03"), "acc-c", "Pay", 10_000));
        b.transaction(
            Tx::new(date("2026-01-05"), "acc-c", "Shop", 10_000)
                .line(20_000, None, None)
                .line(-10_000, None, None),
        );
        b.transaction(Tx::new(date("2026-01-06"), "acc-c", "Shop", -10_000));
        assert_eq!(
            ages(&b.build()),
            [
                ("2026-01-03".to_owned(), 0),
                ("2026-01-06".to_owned(), 1_000)
            ]
        );
    }

    #[test]
    fn a_month_averages_its_last_ten_payments() {
        let day = |d: u32| NaiveDate::from_ymd_opt(2026, 3, d).unwrap_or_default();
        let aged: Vec<AgedPayment> = (1..=12)
            .map(|d| AgedPayment {
                date: day(d),
                millidays: i64::from(d) * 1_000 + 500,
            })
            .collect();
        let today = day(25);
        // Days 3..=12 + 0.5 each: mean 8.0 → 8.
        assert_eq!(for_month(&aged, day(1), today), Some(8));
        assert_eq!(for_month(&aged[..9], day(1), today), None);
        // Up to 2026-03-10 only: days 1..=10 + 0.5 → 6.0; 5.5 would round up.
        assert_eq!(for_month(&aged, day(1), day(10)), Some(6));
        assert_eq!(for_month(&aged, day(1), day(1)), None);
        let april = NaiveDate::from_ymd_opt(2026, 4, 1).unwrap_or_default();
        assert_eq!(for_month(&aged, april, today), None, "after today");
        assert_eq!(
            for_month(&aged, april, april),
            Some(8),
            "a later month with no payment keeps the last ten"
        );
    }
}
