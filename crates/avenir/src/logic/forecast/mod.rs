//! `forecast_balance` (`docs/contract/reads.md` §13): the assumptions a projection rests on — the
//! chosen accounts' balance, recurring charges, YNAB schedules, averages of other money in and out,
//! and what was already spent this month — read from the plan, then walked day by day to a month.
//!
//! Transfers to accounts outside the projected set count as money out, from history and schedules
//! alike (D22 #14); a payee a schedule covers is projected by the schedule alone.

use super::index::PlanIndex;
use super::projection::{MonthProjection, ProjectionInput, first_shortfall, project_days};
use super::recurring::{
    Direction, Flow, LOOKBACK_MONTHS, Planned, Recurring, first_day_of, flows, recurring,
};
use super::schedule::{Occurrence, occurrences};
use crate::months::{CalendarMonth, full_months_before};
use crate::text::safe;
use chrono::{Days, NaiveDate};
use std::collections::{BTreeSet, HashSet};
use ynab::models::{Account, Milliunits, PlanDetail, ScheduledTransactionSummary};

/// The furthest month `until` may name, counted from today's.
pub const MAX_FORECAST_MONTHS: i64 = 24;
/// Full months the averages of other spending and income look at; the divisor is always this.
pub const VARIABLE_MONTHS: usize = 3;

/// An amount the caller expects on a date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OneOff {
    pub date: NaiveDate,
    pub amount: Milliunits,
    pub label: String,
}

/// What the caller asked for.
#[derive(Debug, Clone, Copy)]
pub struct ForecastRequest<'a> {
    pub until: CalendarMonth,
    /// The accounts to project together; `None`: the open on-budget ones.
    pub account_ids: Option<&'a [String]>,
    pub monthly_income: Option<Milliunits>,
    pub variable_monthly: Option<Milliunits>,
    pub one_offs: &'a [OneOff],
}

/// The projection and every assumption it rests on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forecast {
    /// The chosen accounts' names, safe text, in the plan's order.
    pub accounts: Vec<String>,
    pub start_balance: Milliunits,
    /// The recurring charges (and income, unless the caller gave it) projected.
    pub recurring: Vec<Recurring>,
    pub variable_monthly: Milliunits,
    pub monthly_income: Milliunits,
    /// The schedules' dates from tomorrow to the end of `until`.
    pub scheduled: Vec<Occurrence>,
    pub months: Vec<MonthProjection>,
    /// The balance of each day: today's, then the end of each day projected (a chart's line).
    pub days: Vec<(NaiveDate, Milliunits)>,
    pub first_shortfall: Option<CalendarMonth>,
    pub message: String,
}

/// `until` against today's month: not before it, at most 24 months after it.
pub fn check_horizon(today: NaiveDate, until: CalendarMonth) -> Result<(), String> {
    let now = CalendarMonth::of(today);
    let ahead = i64::from(until.year() - now.year()) * 12 + i64::from(until.month())
        - i64::from(now.month());
    if ahead < 0 {
        Err("until must be the current month or later.".into())
    } else if ahead > MAX_FORECAST_MONTHS {
        Err(format!(
            "until must be at most {MAX_FORECAST_MONTHS} months ahead."
        ))
    } else {
        Ok(())
    }
}

/// The ids of `ids` that are no account of the plan (deleted ones excluded), sorted, as the
/// sentence the tool returns.
pub fn unknown_accounts(plan: &PlanDetail, ids: &[String]) -> Option<String> {
    let unknown: BTreeSet<&str> = ids
        .iter()
        .map(String::as_str)
        .filter(|id| !plan.accounts.iter().any(|a| !a.deleted && a.id == *id))
        .collect();
    (!unknown.is_empty()).then(|| {
        format!(
            "Unknown account(s) {}: use ids from list_accounts.",
            unknown.into_iter().collect::<Vec<_>>().join(", ")
        )
    })
}

/// `round_int(total ÷ 3)`: a third of `total`, to the nearest milliunit (never a tie).
fn third(total: i128) -> Milliunits {
    let (q, r) = (total.div_euclid(3), total.rem_euclid(3));
    let rounded = if r == 2 { q + 1 } else { q };
    Milliunits::try_from(rounded).unwrap_or(if rounded < 0 {
        Milliunits::MIN
    } else {
        Milliunits::MAX
    })
}

/// Whether a flow is a charge's or covered by a schedule: then the charge or the schedule
/// projects it, and the averages and the month so far leave it out.
fn projected_otherwise(flow: &Flow<'_>, charges: &[Recurring], planned: &Planned) -> bool {
    let direction = Direction::of(flow.amount);
    charges
        .iter()
        .any(|c| c.direction == direction && c.merchant == flow.merchant)
        || planned.covers(&flow.merchant, direction)
}

/// The forecast of `plan` as `request` asks, "today" being `today`. `Err` is the sentence for
/// account ids the plan does not hold.
pub fn forecast(
    plan: &PlanDetail,
    today: NaiveDate,
    request: ForecastRequest<'_>,
) -> Result<Forecast, String> {
    forecast_indexed(plan, &PlanIndex::build(plan), today, request)
}

/// [`forecast`] with the plan's index as the plan store keeps it (no label normalised again).
pub fn forecast_indexed(
    plan: &PlanDetail,
    index: &PlanIndex,
    today: NaiveDate,
    request: ForecastRequest<'_>,
) -> Result<Forecast, String> {
    if let Some(message) = request
        .account_ids
        .and_then(|ids| unknown_accounts(plan, ids))
    {
        return Err(message);
    }
    // 1. the chosen accounts
    let chosen = chosen_accounts(plan, request.account_ids);
    let ids: HashSet<&str> = chosen.iter().map(|a| a.id.as_str()).collect();

    // 2. history: a transfer out to an account outside the set counts as money out (D22 #14)
    // Only the months read below (the recurring and variable windows, then the current month)
    // are turned into flows.
    let history = history(plan, index, today, &ids);

    // 3–5. the schedules projected, the payees they cover, their dates from tomorrow
    let income_given = request.monthly_income.is_some();
    let plans = projected_schedules(plan, &ids, income_given);
    let planned = Planned::new(plan, plans.iter().copied());
    let scheduled = scheduled_ahead(plan, &plans, today, request.until);

    // 6. recurring charges not covered by a schedule (income too, unless given)
    let charges: Vec<Recurring> = recurring(&history, today)
        .into_iter()
        .filter(|r| !planned.covers(&r.merchant, r.direction))
        .filter(|r| !income_given || r.direction == Direction::Outflow)
        .collect();

    // 7. averages of the rest over the last 3 full months
    let window = full_months_before(today, VARIABLE_MONTHS);
    let (out_total, in_total) = window_totals(&history, &window, &charges, &planned);
    let variable = request.variable_monthly.unwrap_or_else(|| third(out_total));
    let income = request.monthly_income.unwrap_or_else(|| third(in_total));

    // 8–9. today's balance; the month so far
    let start_balance = chosen
        .iter()
        .fold(0, |sum: Milliunits, a| sum.saturating_add(a.balance));
    let now = CalendarMonth::of(today);
    let (spent, received) = month_so_far(&history, now, &charges, &planned);

    // 10–11. the walk
    let (months, days) = project_days(&ProjectionInput {
        today,
        until: request.until,
        start_balance,
        charges: charges.iter().map(|c| (c.day, c.amount)).collect(),
        variable,
        income,
        spent,
        received,
        one_offs: one_offs(&request, &scheduled),
    });
    let shortfall = first_shortfall(&months);
    let conclusion = match shortfall {
        Some(month) => format!("The balance goes below zero in {month}."),
        None => format!("The balance stays above zero until {}.", request.until),
    };
    Ok(Forecast {
        accounts: chosen.iter().map(|a| safe(&a.name)).collect(),
        start_balance,
        recurring: charges,
        variable_monthly: variable,
        monthly_income: income,
        scheduled,
        months,
        days,
        first_shortfall: shortfall,
        message: format!(
            "{conclusion} This rests on the assumptions listed: check them with the user."
        ),
    })
}

/// The schedules projected: on the accounts, not transfers between them, and only money out
/// when the income is given.
fn projected_schedules<'p>(
    plan: &'p PlanDetail,
    ids: &HashSet<&str>,
    income_given: bool,
) -> Vec<&'p ScheduledTransactionSummary> {
    let inside = |account: Option<&str>| account.is_some_and(|id| ids.contains(id));
    plan.scheduled_transactions
        .iter()
        .filter(|s| !s.deleted && ids.contains(s.account_id.as_str()))
        .filter(|s| !inside(s.transfer_account_id.as_deref()))
        .filter(|s| !income_given || s.amount < 0)
        .collect()
}

/// The one-off amounts asked for, then the schedules' occurrences, by date.
fn one_offs(
    request: &ForecastRequest<'_>,
    scheduled: &[Occurrence],
) -> Vec<(NaiveDate, Milliunits)> {
    request
        .one_offs
        .iter()
        .map(|o| (o.date, o.amount))
        .chain(scheduled.iter().map(|o| (o.date, o.amount)))
        .collect()
}

/// The accounts asked for, or the open budget accounts.
fn chosen_accounts<'p>(plan: &'p PlanDetail, account_ids: Option<&[String]>) -> Vec<&'p Account> {
    plan.accounts
        .iter()
        .filter(|a| !a.deleted)
        .filter(|a| match account_ids {
            Some(ids) => ids.contains(&a.id),
            None => a.on_budget && !a.closed,
        })
        .collect()
}

/// The money in and out of the accounts `ids` over the months the forecast reads.
fn history<'p>(
    plan: &'p PlanDetail,
    index: &PlanIndex,
    today: NaiveDate,
    ids: &HashSet<&str>,
) -> Vec<Flow<'p>> {
    let since = first_day_of(&full_months_before(
        today,
        LOOKBACK_MONTHS.max(VARIABLE_MONTHS),
    ));
    flows(plan, index, |t| {
        *t.date >= *since
            && ids.contains(t.account_id.as_str())
            && match t.transfer_account_id.as_deref() {
                None => true,
                Some(other) => !ids.contains(other) && t.amount < 0,
            }
    })
}

/// The occurrences of the `kept` schedules from tomorrow to the last day of `until`.
fn scheduled_ahead(
    plan: &PlanDetail,
    kept: &[&ScheduledTransactionSummary],
    today: NaiveDate,
    until: CalendarMonth,
) -> Vec<Occurrence> {
    let kept: HashSet<&str> = kept.iter().map(|s| s.id.as_str()).collect();
    let last_day = until
        .next()
        .first_day()
        .and_then(|d| d.checked_sub_days(Days::new(1)));
    match (today.checked_add_days(Days::new(1)), last_day) {
        (Some(tomorrow), Some(last)) => occurrences(plan, None, tomorrow, last)
            .into_iter()
            .filter(|o| kept.contains(o.scheduled_id.as_str()))
            .collect(),
        _ => Vec::new(),
    }
}

/// Money out and money in over the months of `window`, leaving out what is projected otherwise.
fn window_totals(
    history: &[Flow<'_>],
    window: &[CalendarMonth],
    charges: &[Recurring],
    planned: &Planned,
) -> (i128, i128) {
    let (mut out_total, mut in_total) = (0i128, 0i128);
    for flow in history {
        if window.contains(&CalendarMonth::of(flow.date))
            && !projected_otherwise(flow, charges, planned)
        {
            match Direction::of(flow.amount) {
                Direction::Outflow => out_total += i128::from(flow.amount),
                Direction::Inflow => in_total += i128::from(flow.amount),
            }
        }
    }
    (out_total, in_total)
}

/// Spent and received so far in month `now`, leaving out what is projected otherwise.
fn month_so_far(
    history: &[Flow<'_>],
    now: CalendarMonth,
    charges: &[Recurring],
    planned: &Planned,
) -> (i64, i64) {
    let (mut spent, mut received) = (0i64, 0i64);
    for flow in history.iter().filter(|f| CalendarMonth::of(f.date) == now) {
        if projected_otherwise(flow, charges, planned) {
            continue;
        }
        match Direction::of(flow.amount) {
            Direction::Outflow => spent = spent.saturating_add(flow.amount),
            Direction::Inflow => received = received.saturating_add(flow.amount),
        }
    }
    (spent, received)
}

#[cfg(test)]
mod tests;
