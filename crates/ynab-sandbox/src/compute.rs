//! The figures YNAB derives from a plan's facts — account balances, each month's assigned, activity
//! and available amounts with carry-over, Ready to Assign, target figures, display names — as pure
//! functions over a [`PlanState`]. The sandbox stores facts only, and serves what these functions return.
//!
//! # Rules (those of YNAB, as far as the sandbox models them)
//!
//! **Accounts.** `balance` = sum of the account's non-deleted transactions; `cleared_balance` =
//! those `cleared` or `reconciled`; `uncleared_balance` = those `uncleared`.
//!
//! **Activity.** A category's activity in a month = the sum of the non-deleted transaction lines
//! dated in that month, on budget accounts only, carrying that category. A split counts by its
//! (non-deleted) lines, each with its own category; a transaction without lines counts whole. A line
//! that moves money between two budget accounts (its `transfer_account_id` names a budget account)
//! counts nowhere. A line on a budget account with no category counts as *uncategorized*: in the
//! plan's internal `Uncategorized` category when it has one, else in a hidden bucket that is not
//! served but overspends like a category. Tracking (off-budget) accounts never count.
//!
//! **Available with carry-over.** Months are folded from the earliest of the plan's first month,
//! the first month with budget activity and the first month with an assigned amount.
//! `available(m) = carried(m) + assigned(m) + activity(m)` where `carried(m) = max(available(m−1), 0)`:
//! a positive available rolls into the next month; a negative one (cash overspending) does not —
//! the category starts the next month at 0 and the overspent amount is taken from the next month's
//! Ready to Assign instead. **Credit-card overspending is not modelled** (YNAB turns spending on a
//! card beyond the available amount into card debt instead of taking it from Ready to Assign): the
//! demo plan has no credit card, and every overspending is treated as cash overspending.
//!
//! **Ready to Assign** (`to_be_budgeted` of month m) = every inflow categorised to `Inflow: Ready
//! to Assign` in months ≤ m − everything assigned in months ≤ m − the cash overspending of months
//! < m. Assignments in months after m do not reduce it (the sandbox serves no future assignment).
//!
//! **The `Inflow: Ready to Assign` category** (the internal category whose name starts with
//! `Inflow:`) is served with budgeted 0, activity = that month's inflows to it, and balance = the
//! running total of every inflow to it up to that month, never reduced by assigning — what YNAB's
//! API reports for it (its balance is a lifetime total, not Ready to Assign; see the month's
//! `to_be_budgeted` for that). Its activity is the month's `income`, never the month's `activity`.
//!
//! **Month totals.** `income` = the month's activity of `Inflow: Ready to Assign`; `budgeted` = the
//! sum assigned that month; `activity` = the sum of every other category's activity, uncategorized
//! included.
//!
//! **Age of Money** (`age_of_money`, in days) follows the reference's stand-in
//! (`docs/contract/server.md` §8.2), since YNAB does not publish its own rule. Inflows to budget
//! accounts join a queue; each payment out of a budget account spends the oldest money first, and
//! its age is the amount-weighted mean of (payment date − inflow date) over the money it took.
//! Transfers between budget accounts are ignored (a transfer to a tracking account is a payment); a
//! transaction counts whole (net of its lines); same-day inflows queue before payments. A payment
//! finding the queue empty is not aged, and the part of a payment the queue cannot cover is
//! dropped, never carried as a debt to later inflows. A month's figure is the mean age of the last
//! 10 aged payments dated up to the month's last day (up to today for the current month), rounded
//! to the nearest day, halves up; `None` before 10 payments have been aged and for months that
//! start after today. The demo plan gets June `None`, July 17, August 48, September 47 — §8.1's
//! figures; `age`'s module doc explains why.
//!
//! **Targets.** Figures are computed for the month asked; a target created after that month
//! (`goal_creation_month` later than it) gets no figures (all five `None`), and so does a kind not
//! listed here (weekly, yearly, every-n-months, `DEBT`). "Carried" is the available amount carried
//! into the month (`carried(m)` above), "assigned" the month's assigned amount, and needs are rounded
//! up to the currency's smallest unit (a cent for two decimal digits).
//! - *Set aside another X each month* (`NEED`, `goal_cadence` 1, `goal_needs_whole_amount` not
//!   false; also `MF`): under_funded = overall_left = max(X − assigned, 0); overall_funded =
//!   max(assigned, 0); months_to_budget = 1. Money carried in does not count: the whole X is set
//!   aside again every month.
//! - *Refill up to X each month* (`NEED`, `goal_cadence` 1, `goal_needs_whole_amount` false; `TB`
//!   without a date): overall_funded = max(carried + assigned, 0); under_funded = overall_left =
//!   max(X − funded, 0); months_to_budget = 1 (`None` for `TB`).
//! - *Need X by a date* (`NEED` with `goal_target_date` and `goal_cadence` 0 or none; `TBD`):
//!   months_to_budget = months from this month to the due date's month, both included (0 once
//!   the due month is past); need this month = (X − carried) / months_to_budget rounded up (all of
//!   X − carried when past due); under_funded = max(need − assigned, 0); overall_funded =
//!   max(carried + assigned, 0); overall_left = max(X − funded, 0).
//! - goal_percentage_complete = min(100, overall_funded × 100 / X), rounded down.
//!
//! With the demo plan in September 2026 this gives Transport (250.00 by 2026-10-01, nothing carried,
//! 90.00 assigned, 2 months) 125.00 − 90.00 = 35.00 and Tennis (480.00 by 2026-12-01, 80.00
//! assigned, 4 months) 120.00 − 80.00 = 40.00.

mod age;
mod goals;
mod names;

use goals::{goal_figures, smallest_unit, with_figures};
pub use names::{
    Names, all_scheduled, all_transactions, named_transaction, scheduled, transactions,
};

use crate::state::PlanState;
use chrono::{Datelike, Months, NaiveDate};
use std::collections::{BTreeMap, BTreeSet};
use ynab::models::{
    Account, Category, Milliunits, Month, ScheduledTransaction, Str, SubTransaction, Transaction,
};

/// Where a budget line's activity goes: a category id, or `None` for the hidden uncategorized
/// bucket of a plan without an internal `Uncategorized` category.
type Bucket = Option<String>;

/// The first day of a month from `YYYY-MM-01` (or any valid `YYYY-MM-DD` of that month).
pub fn parse_month(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.with_day(1))
}

fn label(month: NaiveDate) -> String {
    month.format("%Y-%m-%d").to_string()
}

fn first_of(day: NaiveDate) -> NaiveDate {
    day.with_day(1).unwrap_or(day)
}

fn next_month(month: NaiveDate) -> NaiveDate {
    month.checked_add_months(Months::new(1)).unwrap_or(month)
}

/// Today's month, `YYYY-MM-01`.
pub fn current_month(plan: &PlanState) -> String {
    label(first_of(plan.today))
}

/// The months the sandbox serves: from the plan's first month to 12 months after today's (D21).
pub fn served_months(plan: &PlanState) -> Vec<String> {
    let last = first_of(plan.today)
        .checked_add_months(Months::new(12))
        .unwrap_or(plan.today);
    let mut out = Vec::new();
    let mut m = first_of(plan.first_month);
    while m <= last {
        out.push(label(m));
        let next = next_month(m);
        if next == m {
            break;
        }
        m = next;
    }
    out
}

/// The accounts with `balance`, `cleared_balance` and `uncleared_balance` computed.
pub fn accounts(plan: &PlanState) -> Vec<Account> {
    let mut sums: BTreeMap<&str, (Milliunits, Milliunits, Milliunits)> = BTreeMap::new();
    for t in plan.transactions.iter().filter(|t| !t.deleted) {
        let entry = sums.entry(t.account_id.as_str()).or_default();
        entry.0 += t.amount;
        if t.cleared == "uncleared" {
            entry.2 += t.amount;
        } else {
            entry.1 += t.amount;
        }
    }
    plan.accounts
        .iter()
        .map(|a| {
            let (balance, cleared, uncleared) =
                sums.get(a.id.as_str()).copied().unwrap_or_default();
            Account {
                balance,
                cleared_balance: cleared,
                uncleared_balance: uncleared,
                ..a.clone()
            }
        })
        .collect()
}

/// The id of the internal `Inflow: Ready to Assign` category, if the plan has one.
pub fn ready_to_assign_category(plan: &PlanState) -> Option<&str> {
    plan.categories
        .iter()
        .find(|c| c.internal && c.name.starts_with("Inflow:"))
        .map(|c| c.id.as_str())
}

/// The id of the internal `Uncategorized` category, if the plan has one.
fn uncategorized_category(plan: &PlanState) -> Option<&str> {
    plan.categories
        .iter()
        .find(|c| c.internal && c.name == "Uncategorized")
        .map(|c| c.id.as_str())
}

/// Budget activity per month and bucket, from every non-deleted transaction.
fn budget_activity(plan: &PlanState) -> BTreeMap<NaiveDate, BTreeMap<Bucket, Milliunits>> {
    let on_budget: BTreeSet<&str> = plan
        .accounts
        .iter()
        .filter(|a| a.on_budget)
        .map(|a| a.id.as_str())
        .collect();
    let uncategorized = uncategorized_category(plan).map(str::to_owned);
    let mut out: BTreeMap<NaiveDate, BTreeMap<Bucket, Milliunits>> = BTreeMap::new();
    for t in plan.transactions.iter().filter(|t| !t.deleted) {
        if !on_budget.contains(t.account_id.as_str()) {
            continue;
        }
        let Some(month) = parse_month(&t.date) else {
            continue;
        };
        let lines: Vec<(Milliunits, Option<&String>, Option<&String>)> =
            if t.subtransactions.iter().any(|s| !s.deleted) {
                t.subtransactions
                    .iter()
                    .filter(|s| !s.deleted)
                    .map(|s| {
                        (
                            s.amount,
                            s.category_id.as_ref(),
                            s.transfer_account_id.as_ref(),
                        )
                    })
                    .collect()
            } else {
                vec![(
                    t.amount,
                    t.category_id.as_ref(),
                    t.transfer_account_id.as_ref(),
                )]
            };
        for (amount, category, transfer) in lines {
            if transfer.is_some_and(|a| on_budget.contains(a.as_str())) {
                continue;
            }
            let bucket = match category {
                Some(c) => Some(c.clone()),
                None => uncategorized.clone(),
            };
            *out.entry(month).or_default().entry(bucket).or_default() += amount;
        }
    }
    out
}

/// One month's figures after folding every earlier month.
#[derive(Debug, Default)]
struct Folded {
    assigned: BTreeMap<String, Milliunits>,
    activity: BTreeMap<Bucket, Milliunits>,
    carried: BTreeMap<Bucket, Milliunits>,
    available: BTreeMap<Bucket, Milliunits>,
    income: Milliunits,
    to_be_budgeted: Milliunits,
}

/// Folds the months from the plan's start to `month` (see the module doc).
fn fold(plan: &PlanState, month: NaiveDate) -> Folded {
    let mut result = Folded::default();
    fold_each(plan, month, |_, folded| result = folded);
    result
}

/// Folds the months from the plan's start to `month`, handing each month's figures to `each`
/// in order (months before the plan's start are not visited: their figures are all zero).
fn fold_each(plan: &PlanState, month: NaiveDate, mut each: impl FnMut(NaiveDate, Folded)) {
    let activity = budget_activity(plan);
    let rta: Bucket = ready_to_assign_category(plan).map(str::to_owned);
    let assigned_by_month = assigned_by_month(plan);
    let start = [
        Some(first_of(plan.first_month)),
        activity.keys().next().copied(),
        assigned_by_month.keys().next().copied(),
    ]
    .into_iter()
    .flatten()
    .min()
    .unwrap_or(month);

    let mut available: BTreeMap<Bucket, Milliunits> = BTreeMap::new();
    let (mut income_to_date, mut assigned_to_date, mut overspent_before) = (0, 0, 0);
    let mut m = start;
    while m <= month {
        let month_assigned = assigned_by_month.get(&m).cloned().unwrap_or_default();
        let month_activity = activity.get(&m).cloned().unwrap_or_default();
        let (carried, next_available, overspent) =
            roll_over(plan, &rta, &available, &month_assigned, &month_activity);
        let income = rta
            .as_ref()
            .and_then(|_| month_activity.get(&rta))
            .copied()
            .unwrap_or(0);
        income_to_date += income;
        assigned_to_date += month_assigned.values().sum::<Milliunits>();
        each(
            m,
            Folded {
                assigned: month_assigned,
                activity: month_activity,
                carried,
                available: next_available.clone(),
                income,
                to_be_budgeted: income_to_date - assigned_to_date - overspent_before,
            },
        );
        overspent_before += overspent;
        available = next_available;
        let next = next_month(m);
        if next == m {
            break;
        }
        m = next;
    }
}

/// The assigned amounts by month, then by category.
fn assigned_by_month(plan: &PlanState) -> BTreeMap<NaiveDate, BTreeMap<String, Milliunits>> {
    let mut assigned_by_month: BTreeMap<NaiveDate, BTreeMap<String, Milliunits>> = BTreeMap::new();
    for ((m, category), amount) in &plan.assigned {
        if let Some(m) = parse_month(m) {
            *assigned_by_month
                .entry(m)
                .or_default()
                .entry(category.clone())
                .or_default() += amount;
        }
    }
    assigned_by_month
}

/// One month's step for every bucket: what it carried in (Ready to Assign carries all, others
/// only what is not negative), what it has after the month, and the month's overspending.
fn roll_over(
    plan: &PlanState,
    rta: &Bucket,
    available: &BTreeMap<Bucket, Milliunits>,
    month_assigned: &BTreeMap<String, Milliunits>,
    month_activity: &BTreeMap<Bucket, Milliunits>,
) -> (
    BTreeMap<Bucket, Milliunits>,
    BTreeMap<Bucket, Milliunits>,
    Milliunits,
) {
    let mut buckets: BTreeSet<Bucket> = available.keys().cloned().collect();
    buckets.extend(plan.categories.iter().map(|c| Some(c.id.to_string())));
    buckets.extend(month_activity.keys().cloned());
    buckets.extend(month_assigned.keys().map(|c| Some(c.clone())));

    let mut carried = BTreeMap::new();
    let mut next_available = BTreeMap::new();
    let mut overspent = 0;
    for bucket in buckets {
        let before = available.get(&bucket).copied().unwrap_or(0);
        let is_rta = rta.is_some() && bucket == *rta;
        let carry = if is_rta { before } else { before.max(0) };
        let assigned = bucket
            .as_ref()
            .and_then(|c| month_assigned.get(c))
            .copied()
            .unwrap_or(0);
        let spent = month_activity.get(&bucket).copied().unwrap_or(0);
        let now = carry + assigned + spent;
        if !is_rta && now < 0 {
            overspent -= now;
        }
        carried.insert(bucket.clone(), carry);
        next_available.insert(bucket, now);
    }
    (carried, next_available, overspent)
}

/// Every category with its figures for `month` (`YYYY-MM-01`) and its `category_group_name`
/// (see the module doc). A month that is not a date gets zero figures and no target figures.
pub fn month_categories(plan: &PlanState, month: &str) -> Vec<Category> {
    let Some(m) = parse_month(month) else {
        return plan
            .categories
            .iter()
            .map(|c| with_figures(plan, c, 0, 0, 0, None))
            .collect();
    };
    let folded = fold(plan, m);
    categories_of(plan, m, &folded)
}

fn categories_of(plan: &PlanState, m: NaiveDate, folded: &Folded) -> Vec<Category> {
    let unit = smallest_unit(plan);
    plan.categories
        .iter()
        .map(|c| {
            let key = Some(c.id.to_string());
            let assigned = folded.assigned.get(c.id.as_str()).copied().unwrap_or(0);
            let activity = folded.activity.get(&key).copied().unwrap_or(0);
            let balance = folded.available.get(&key).copied().unwrap_or(0);
            let carried = folded.carried.get(&key).copied().unwrap_or(0);
            let goal = goal_figures(c, m, carried, assigned, unit);
            with_figures(plan, c, assigned, activity, balance, goal)
        })
        .collect()
}

/// The month's totals and, in `categories`, every category's figures (see the module doc).
pub fn month(plan: &PlanState, month: &str) -> Month {
    let Some(m) = parse_month(month) else {
        return Month {
            month: month.to_owned(),
            note: None,
            income: 0,
            budgeted: 0,
            activity: 0,
            to_be_budgeted: 0,
            age_of_money: None,
            deleted: false,
            categories: Some(month_categories(plan, month)),
        };
    };
    let folded = fold(plan, m);
    let rta: Bucket = ready_to_assign_category(plan).map(str::to_owned);
    let activity = folded
        .activity
        .iter()
        .filter(|(bucket, _)| rta.is_none() || **bucket != rta)
        .map(|(_, amount)| amount)
        .sum();
    Month {
        month: label(m),
        note: None,
        income: folded.income,
        budgeted: folded.assigned.values().sum(),
        activity,
        to_be_budgeted: folded.to_be_budgeted,
        age_of_money: age::for_month(&age::aged_payments(plan), m, plan.today),
        deleted: false,
        categories: Some(categories_of(plan, m, &folded)),
    }
}

/// Every month of `labels` (`YYYY-MM-01`) exactly as [`month`] gives it, computed in one pass
/// over the plan instead of one per month (the full export and the delta bookkeeping need them
/// all; on a five-year plan that is the difference between milliseconds and seconds).
pub fn months(plan: &PlanState, labels: &[String]) -> Vec<Month> {
    let wanted: BTreeSet<NaiveDate> = labels.iter().filter_map(|l| parse_month(l)).collect();
    let Some(last) = wanted.iter().next_back().copied() else {
        return labels.iter().map(|l| month(plan, l)).collect();
    };
    let mut folded: BTreeMap<NaiveDate, Folded> = BTreeMap::new();
    fold_each(plan, last, |m, f| {
        if wanted.contains(&m) {
            folded.insert(m, f);
        }
    });
    let aged = age::aged_payments(plan);
    let rta: Bucket = ready_to_assign_category(plan).map(str::to_owned);
    labels
        .iter()
        .map(|l| {
            let Some((m, f)) = parse_month(l).and_then(|m| folded.get(&m).map(|f| (m, f))) else {
                return month(plan, l);
            };
            let activity = f
                .activity
                .iter()
                .filter(|(bucket, _)| rta.is_none() || **bucket != rta)
                .map(|(_, amount)| amount)
                .sum();
            Month {
                month: label(m),
                note: None,
                income: f.income,
                budgeted: f.assigned.values().sum(),
                activity,
                to_be_budgeted: f.to_be_budgeted,
                age_of_money: age::for_month(&aged, m, plan.today),
                deleted: false,
                categories: Some(categories_of(plan, m, f)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::goals::share_rounded_up;
    use super::*;
    use crate::builder::{PlanBuilder, Transfer, Tx, date};
    use crate::ids::id;

    /// Checking and Savings on budget, a tracking account; Inflow, Food, Fun.
    fn plan() -> PlanBuilder {
        let mut b = PlanBuilder::new("p", "Plan", date("2026-09-25"));
        b.months(date("2026-06-01"), date("2026-09-01"));
        b.account("acc-c", "Checking", "checking", true);
        b.account("acc-s", "Savings", "savings", true);
        b.account("acc-t", "Broker", "otherAsset", false);
        b.internal_group("grp-i", "Internal Master Category");
        b.category("cat-in", "grp-i", "Inflow: Ready to Assign");
        b.group("grp-e", "Everyday");
        b.category("cat-food", "grp-e", "Food");
        b.category("cat-fun", "grp-e", "Fun");
        b
    }

    fn cat<'a>(cats: &'a [Category], readable: &str) -> &'a Category {
        cats.iter()
            .find(|c| c.id == id(readable))
            .expect("category present")
    }

    #[test]
    fn balances_split_cleared_and_uncleared() {
        let mut b = plan();
        b.transaction(Tx::new(date("2026-06-01"), "acc-c", "Pay", 1_000_000).category("cat-in"));
        b.transaction(Tx::new(date("2026-06-02"), "acc-c", "Shop", -100_000).cleared("uncleared"));
        b.transaction(Tx::new(date("2026-06-03"), "acc-c", "Shop", -50_000).cleared("reconciled"));
        let accounts = accounts(&b.build());
        let c = &accounts[0];
        assert_eq!(
            (c.balance, c.cleared_balance, c.uncleared_balance),
            (850_000, 950_000, -100_000)
        );
    }

    #[test]
    fn positive_available_carries_and_overspending_comes_from_next_ready_to_assign() {
        let mut b = plan();
        b.transaction(Tx::new(date("2026-06-01"), "acc-c", "Pay", 1_000_000).category("cat-in"));
        b.assign("2026-06-01", "cat-food", 100_000)
            .assign("2026-06-01", "cat-fun", 50_000)
            .assign("2026-07-01", "cat-food", 100_000)
            .assign("2026-07-01", "cat-fun", 50_000);
        b.transaction(Tx::new(date("2026-06-10"), "acc-c", "Shop", -40_000).category("cat-food"));
        b.transaction(Tx::new(date("2026-06-11"), "acc-c", "Bar", -80_000).category("cat-fun"));
        let p = b.build();
        let june = month(&p, "2026-06-01");
        let cats = june.categories.clone().expect("categories");
        assert_eq!(cat(&cats, "cat-food").balance, 60_000);
        assert_eq!(cat(&cats, "cat-fun").balance, -30_000);
        assert_eq!(june.to_be_budgeted, 1_000_000 - 150_000);
        assert_eq!(june.income, 1_000_000);
        assert_eq!(june.activity, -120_000);
        let july = month(&p, "2026-07-01");
        let cats = july.categories.clone().expect("categories");
        assert_eq!(cat(&cats, "cat-food").balance, 160_000);
        assert_eq!(
            cat(&cats, "cat-fun").balance,
            50_000,
            "no negative carry-over"
        );
        assert_eq!(july.to_be_budgeted, 1_000_000 - 300_000 - 30_000);
        assert_eq!(july.income, 0);
        let rta = cat(&cats, "cat-in");
        assert_eq!((rta.budgeted, rta.activity, rta.balance), (0, 0, 1_000_000));
    }

    #[test]
    fn transfers_between_budget_accounts_count_nowhere_but_tracking_ones_do() {
        let mut b = plan();
        b.transfer(Transfer::new(date("2026-06-05"), "acc-c", "acc-s", 200_000));
        b.transfer(Transfer::new(date("2026-06-06"), "acc-c", "acc-t", 70_000).category("cat-fun"));
        b.transaction(Tx::new(date("2026-06-07"), "acc-t", "Dividend", 5_000));
        b.transaction(Tx::new(date("2026-06-08"), "acc-c", "Mystery", -9_000));
        let p = b.build();
        let june = month(&p, "2026-06-01");
        let cats = june.categories.clone().expect("categories");
        assert_eq!(cat(&cats, "cat-fun").activity, -70_000);
        assert_eq!(june.activity, -79_000, "uncategorized counts in the month");
        assert_eq!(june.income, 0);
        let july = month(&p, "2026-07-01");
        assert_eq!(
            july.to_be_budgeted, -79_000,
            "both overspendings taken in July"
        );
    }

    #[test]
    fn split_lines_count_separately() {
        let mut b = plan();
        b.transaction(
            Tx::new(date("2026-06-09"), "acc-c", "Market", -30_000)
                .line(-20_000, Some("cat-food"), None)
                .line(-10_000, Some("cat-fun"), None),
        );
        let p = b.build();
        let cats = month_categories(&p, "2026-06-01");
        assert_eq!(cat(&cats, "cat-food").activity, -20_000);
        assert_eq!(cat(&cats, "cat-fun").activity, -10_000);
        let named = transactions(&p);
        assert_eq!(named[0].category_name.as_deref(), Some("Split"));
        assert_eq!(
            named[0].subtransactions[0].category_name.as_deref(),
            Some("Food")
        );
        assert_eq!(named[0].account_name.as_deref(), Some("Checking"));
        assert_eq!(named[0].payee_name.as_deref(), Some("Market"));
        assert_eq!(cats[1].category_group_name.as_deref(), Some("Everyday"));
    }

    #[test]
    fn monthly_set_aside_targets_ignore_what_was_carried() {
        let mut b = plan();
        b.need_monthly("cat-food", 450_000, "2026-06-01")
            .assign("2026-06-01", "cat-food", 450_000)
            .assign("2026-07-01", "cat-food", 400_000);
        let p = b.build();
        let food = |m: &str| cat(&month_categories(&p, m), "cat-food").clone();
        let july = food("2026-07-01");
        assert_eq!(july.balance, 850_000);
        assert_eq!(july.goal_under_funded, Some(50_000));
        assert_eq!(july.goal_overall_left, Some(50_000));
        assert_eq!(july.goal_overall_funded, Some(400_000));
        assert_eq!(july.goal_percentage_complete, Some(88));
        assert_eq!(july.goal_months_to_budget, Some(1));
        assert_eq!(food("2026-06-01").goal_under_funded, Some(0));
        assert_eq!(
            food("2026-05-01").goal_under_funded,
            None,
            "before creation"
        );
    }

    #[test]
    fn dated_targets_spread_what_is_missing_over_the_months_left() {
        let mut b = plan();
        b.need_by_date("cat-fun", 480_000, "2026-12-01", "2026-09-01")
            .assign("2026-08-01", "cat-fun", 100_000)
            .assign("2026-09-01", "cat-fun", 80_000);
        b.need_by_date("cat-food", 100_000, "2026-10-01", "2026-09-01")
            .assign("2026-09-01", "cat-food", 10_000);
        let p = b.build();
        let cats = month_categories(&p, "2026-09-01");
        let fun = cat(&cats, "cat-fun");
        // (480 − 100 carried) / 4 months = 95.00; 80.00 assigned → 15.00 short.
        assert_eq!(fun.goal_months_to_budget, Some(4));
        assert_eq!(fun.goal_under_funded, Some(15_000));
        assert_eq!(fun.goal_overall_funded, Some(180_000));
        assert_eq!(fun.goal_overall_left, Some(300_000));
        assert_eq!(fun.goal_percentage_complete, Some(37));
        let food = cat(&cats, "cat-food");
        // 100.00 over 2 months = 50.00; 10.00 assigned → 40.00.
        assert_eq!(food.goal_under_funded, Some(40_000));
        let later = month_categories(&p, "2026-11-01");
        assert_eq!(cat(&later, "cat-food").goal_months_to_budget, Some(0));
        assert_eq!(cat(&later, "cat-food").goal_under_funded, Some(90_000));
    }

    #[test]
    fn needs_round_up_to_the_cent() {
        assert_eq!(share_rounded_up(100_000, 3, 10), 33_340);
        assert_eq!(share_rounded_up(90_000, 3, 10), 30_000);
        assert_eq!(share_rounded_up(1, 1, 10), 10);
    }

    #[test]
    fn months_in_one_pass_equal_month_by_month() {
        let mut b = plan();
        b.transaction(Tx::new(date("2026-06-01"), "acc-c", "Pay", 1_000_000).category("cat-in"));
        b.assign("2026-06-01", "cat-food", 100_000)
            .assign("2026-08-01", "cat-fun", 50_000)
            .need_by_date("cat-fun", 90_000, "2026-12-01", "2026-07-01");
        b.transaction(Tx::new(date("2026-07-11"), "acc-c", "Bar", -80_000).category("cat-fun"));
        let p = b.build();
        let mut labels = served_months(&p);
        labels.insert(0, "2026-01-01".into());
        labels.push("not a month".into());
        let one_by_one: Vec<Month> = labels.iter().map(|l| month(&p, l)).collect();
        assert_eq!(months(&p, &labels), one_by_one);
        let demo = crate::demo::demo_plan(crate::demo::DEMO_TODAY);
        let served = served_months(&demo);
        let one_by_one: Vec<Month> = served.iter().map(|l| month(&demo, l)).collect();
        assert_eq!(months(&demo, &served), one_by_one);
    }

    #[test]
    fn months_and_current_month() {
        let p = plan().build();
        assert_eq!(current_month(&p), "2026-09-01");
        let served = served_months(&p);
        assert_eq!(served.first().map(String::as_str), Some("2026-06-01"));
        assert_eq!(served.last().map(String::as_str), Some("2027-09-01"));
        assert_eq!(month(&p, "not a month").budgeted, 0);
    }
}
