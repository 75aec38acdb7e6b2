//! The savings rate (`docs/contract/reads.md` §19): income, spending and what was kept in each
//! complete month before the current one, read from the budget accounts' transactions, with totals
//! and notes.
//!
//! Income is money in categorised to Ready to Assign; spending is money out less refunds; a
//! transfer to a tracking asset is saved, not spent. Amounts are integer milliunits, rates tenths
//! of a percent, and every sentence writes amounts in the plan's format (D16).

use super::assignable::INTERNAL_GROUP;
use super::budget_month::{GroupNames, utilization_tenths};
use super::names::{PlanNames, SplitLines};
use crate::money::{MoneyFormat, decimal};
use crate::months::{CalendarMonth, date_range, earliest_month, full_months_before};
use chrono::NaiveDate;
use std::collections::{BTreeMap, HashSet};
use ynab::models::{Milliunits, PlanDetail, TransactionSummary};

use super::accounts::DEBT_TYPES;

/// The payee of the transaction YNAB creates with an account: never income.
pub const STARTING_BALANCE: &str = "Starting Balance";

/// One complete month's figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MonthSavings {
    pub month: CalendarMonth,
    pub income: Milliunits,
    /// Money out less refunds: negative (positive when refunds exceed it).
    pub spending: Milliunits,
    /// income + spending.
    pub saved: Milliunits,
    /// saved ÷ income in tenths of a percent; `None` without income.
    pub rate_tenths: Option<i64>,
}

/// The savings rate over the complete months measured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavingsRate {
    /// The months measured, oldest first.
    pub months: Vec<MonthSavings>,
    /// How many months were asked for.
    pub months_count: usize,
    pub income: Milliunits,
    pub spending: Milliunits,
    pub saved: Milliunits,
    pub rate_tenths: Option<i64>,
    /// saved ÷ months, rounded half to even; 0 without a month.
    pub average_saved: Milliunits,
    /// The month with the highest rate, and the lowest (the first on a tie).
    pub best: Option<MonthSavings>,
    pub worst: Option<MonthSavings>,
    /// Money moved to tracking asset accounts (part of saved).
    pub moved_to_tracking: Milliunits,
    /// Inflows with no category, or `Uncategorized`: counted nowhere.
    pub uncategorised_count: usize,
    pub uncategorised_total: Milliunits,
}

/// Where one line of a transaction goes (§19 step 3, the first rule that matches).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Skipped,
    Moved,
    Spending,
    Uncategorised,
    Income,
}

/// The plan's accounts and categories as the rules of §19 need them.
struct Rules<'a> {
    budget: HashSet<&'a str>,
    assets: HashSet<&'a str>,
    internal: HashSet<&'a str>,
    income: HashSet<&'a str>,
}

impl<'a> Rules<'a> {
    fn new(plan: &'a PlanDetail) -> Self {
        let live = || plan.accounts.iter().filter(|a| !a.deleted);
        let budget = live().filter(|a| a.on_budget).map(|a| a.id.as_str());
        let assets = live()
            .filter(|a| !a.on_budget && !DEBT_TYPES.contains(&a.kind.as_str()))
            .map(|a| a.id.as_str());
        let groups = GroupNames::new(&plan.category_groups);
        let internal: Vec<_> = plan
            .categories
            .iter()
            .filter(|c| !c.hidden && groups.of(c) == INTERNAL_GROUP)
            .collect();
        Rules {
            budget: budget.collect(),
            assets: assets.collect(),
            internal: internal.iter().map(|c| c.id.as_str()).collect(),
            income: internal
                .iter()
                .filter(|c| c.name != "Uncategorized")
                .map(|c| c.id.as_str())
                .collect(),
        }
    }

    fn kind(
        &self,
        amount: Milliunits,
        transfer: Option<&str>,
        category: Option<&str>,
        payee: &str,
    ) -> Kind {
        let to_budget = transfer.is_some_and(|t| self.budget.contains(t));
        if amount == 0 || to_budget || (transfer.is_some() && amount > 0) {
            Kind::Skipped
        } else if transfer.is_some_and(|t| self.assets.contains(t)) {
            Kind::Moved
        } else if amount < 0 || category.is_some_and(|c| !self.internal.contains(c)) {
            Kind::Spending
        } else if !category.is_some_and(|c| self.income.contains(c)) {
            Kind::Uncategorised
        } else if payee != STARTING_BALANCE {
            Kind::Income
        } else {
            Kind::Skipped
        }
    }
}

/// An id YNAB gave, `None` when absent or empty.
fn given(id: Option<&str>) -> Option<&str> {
    id.filter(|s| !s.is_empty())
}

#[derive(Debug, Default, Clone, Copy)]
struct Sums {
    income: Milliunits,
    spending: Milliunits,
}

/// The savings rate of `plan` over the `months_count` complete months before `today`'s month,
/// from the month of the budget accounts' first transaction.
pub fn savings_rate(plan: &PlanDetail, today: NaiveDate, months_count: usize) -> SavingsRate {
    let rules = Rules::new(plan);
    let lines = SplitLines::new(&plan.subtransactions);
    let budget: Vec<_> = plan
        .transactions
        .iter()
        .filter(|t| !t.deleted && rules.budget.contains(t.account_id.as_str()))
        .collect();
    let first = earliest_month(budget.iter().map(|t| &*t.date));
    let months: Vec<CalendarMonth> = full_months_before(today, months_count)
        .into_iter()
        .filter(|m| first.is_some_and(|first| *m >= first))
        .collect();
    // Only the months counted are read: a date outside their range is skipped unparsed.
    let range = date_range(&months);
    let history: Vec<_> = budget
        .into_iter()
        .filter(|t| {
            range
                .as_ref()
                .is_some_and(|(from, to)| *t.date >= **from && *t.date < **to)
        })
        .filter_map(|t| CalendarMonth::from_ynab(&t.date).map(|m| (m, t)))
        .collect();
    let names = PlanNames::for_payees(
        plan,
        history.iter().filter_map(|(_, t)| t.payee_id.as_deref()),
    );
    let Tally {
        sums,
        moved,
        uncategorised_count,
        uncategorised_total,
    } = tally(&rules, &lines, &names, &history, &months);
    let months: Vec<MonthSavings> = sums
        .into_iter()
        .map(|(month, s)| month_savings(month, s.income, s.spending))
        .collect();
    let income = months
        .iter()
        .fold(0, |a: Milliunits, m| a.saturating_add(m.income));
    let spending = months
        .iter()
        .fold(0, |a: Milliunits, m| a.saturating_add(m.spending));
    let saved = income.saturating_add(spending);
    let rated: Vec<&MonthSavings> = months.iter().filter(|m| m.rate_tenths.is_some()).collect();
    // the first month with the highest rate, and the first with the lowest
    let best = rated
        .iter()
        .rev()
        .max_by_key(|m| m.rate_tenths)
        .map(|m| **m);
    let worst = rated.iter().min_by_key(|m| m.rate_tenths).map(|m| **m);
    SavingsRate {
        average_saved: average(saved, months.len()),
        months,
        months_count,
        income,
        spending,
        saved,
        rate_tenths: rate_tenths(saved, income),
        best,
        worst,
        moved_to_tracking: moved,
        uncategorised_count,
        uncategorised_total,
    }
}

/// What the transactions of the months counted add up to.
struct Tally {
    sums: BTreeMap<CalendarMonth, Sums>,
    /// Money moved to tracking accounts that hold assets.
    moved: Milliunits,
    uncategorised_count: usize,
    uncategorised_total: Milliunits,
}

/// Each transaction of `history` (a split by its lines) counted as `rules` say, by month.
fn tally(
    rules: &Rules<'_>,
    lines: &SplitLines<'_>,
    names: &PlanNames<'_>,
    history: &[(CalendarMonth, &TransactionSummary)],
    months: &[CalendarMonth],
) -> Tally {
    let mut sums: BTreeMap<CalendarMonth, Sums> =
        months.iter().map(|m| (*m, Sums::default())).collect();
    let mut moved: Milliunits = 0;
    let (mut uncategorised_count, mut uncategorised_total) = (0usize, 0 as Milliunits);
    for (month, tx) in history {
        let Some(sum) = sums.get_mut(month) else {
            continue;
        };
        let payee = names.payee(tx.payee_id.as_deref());
        let mut split: Vec<_> = lines
            .live(&tx.id)
            .map(|l| {
                (
                    l.amount,
                    given(l.transfer_account_id.as_deref()),
                    given(l.category_id.as_deref()),
                )
            })
            .collect();
        if split.is_empty() {
            split.push((
                tx.amount,
                given(tx.transfer_account_id.as_deref()),
                given(tx.category_id.as_deref()),
            ));
        }
        for (amount, transfer, category) in split {
            match rules.kind(amount, transfer, category, payee) {
                Kind::Skipped => {}
                Kind::Moved => moved = moved.saturating_sub(amount),
                Kind::Spending => sum.spending = sum.spending.saturating_add(amount),
                Kind::Uncategorised => {
                    uncategorised_count += 1;
                    uncategorised_total = uncategorised_total.saturating_add(amount);
                }
                Kind::Income => sum.income = sum.income.saturating_add(amount),
            }
        }
    }
    Tally {
        sums,
        moved,
        uncategorised_count,
        uncategorised_total,
    }
}

fn month_savings(month: CalendarMonth, income: Milliunits, spending: Milliunits) -> MonthSavings {
    let saved = income.saturating_add(spending);
    MonthSavings {
        month,
        income,
        spending,
        saved,
        rate_tenths: rate_tenths(saved, income),
    }
}

/// saved ÷ income × 100 in tenths, exact and rounded half to even; `None` without income.
fn rate_tenths(saved: Milliunits, income: Milliunits) -> Option<i64> {
    (income != 0).then(|| utilization_tenths(saved, income))
}

/// `total / n` rounded half to even; 0 when `n` is 0.
fn average(total: Milliunits, n: usize) -> Milliunits {
    let Ok(n) = i64::try_from(n) else {
        return 0;
    };
    if n == 0 {
        return 0;
    }
    let quotient = total.div_euclid(n);
    let twice = total.rem_euclid(n).saturating_mul(2);
    if twice > n || (twice == n && quotient.rem_euclid(2) == 1) {
        quotient.saturating_add(1)
    } else {
        quotient
    }
}

/// A rate in tenths written as the reference prints it (`66.7`, `20.0`, `-25.0`).
pub fn rate_text(tenths: i64) -> String {
    decimal(tenths, 1).to_string()
}

impl SavingsRate {
    /// The conclusion (§19 step 6).
    pub fn message(&self, money: &MoneyFormat) -> String {
        let n = self.months.len();
        if n == 0 {
            return "No complete month holds budget transactions yet: no savings rate to give."
                .into();
        }
        let out = self.spending.saturating_neg();
        let Some(rate) = self.rate_tenths else {
            let spent = money.plain(out);
            // Refunds beyond the spending are worded, not printed as a negative spend (D22).
            let tail = if spent.starts_with('-') {
                format!(
                    "refunds exceeded spending by {}",
                    money.plain(self.spending)
                )
            } else {
                format!("{spent} was spent")
            };
            return format!(
                "No income was categorised to Ready to Assign over the last {n} complete months: \
no savings rate can be given; {tail}."
            );
        };
        let mut message = format!(
            "Over the last {n} complete months, {} came in and {} went out: {} saved, {} % of the \
income.",
            money.plain(self.income),
            money.plain(out),
            money.plain(self.saved),
            rate_text(rate)
        );
        if let (Some(best), Some(worst)) = (self.best, self.worst)
            && best.month != worst.month
        {
            message.push_str(&format!(
                " Best month: {} ({} %), worst: {} ({} %).",
                best.month,
                rate_text(best.rate_tenths.unwrap_or_default()),
                worst.month,
                rate_text(worst.rate_tenths.unwrap_or_default())
            ));
        }
        message
    }

    /// The notes, in order (§19 step 7).
    pub fn notes(&self, money: &MoneyFormat) -> Vec<String> {
        let mut notes: Vec<String> = [
            "Income is money in categorised to Ready to Assign on the budget accounts; starting \
balances and transfers, from a tracking account too, are not income.",
            "Spending is money out of the budget accounts less refunds (money in categorised to a \
spending category); transfers between budget accounts are left out.",
            "A transfer to a tracking account that holds an asset (savings, investments) is saved, \
not spent; a transfer to a tracking loan or debt is spending, as YNAB's budget counts it.",
            "Saved is income less spending: what stayed in the budget accounts or went to an asset \
outside them. The rate is saved over income.",
        ]
        .into_iter()
        .map(String::from)
        .collect();
        if self.uncategorised_count > 0 {
            notes.push(format!(
                "{} inflows without a category ({}) are counted neither as income nor as refunds: \
categorise them in YNAB for a true figure.",
                self.uncategorised_count,
                money.plain(self.uncategorised_total)
            ));
        }
        let n = self.months.len();
        if n > 0 && n < self.months_count {
            notes.push(format!(
                "Only the last {n} of the {} months hold budget transactions: the figures are over \
those.",
                self.months_count
            ));
        }
        let unrated: Vec<String> = self
            .months
            .iter()
            .filter(|m| m.rate_tenths.is_none())
            .map(|m| m.month.label())
            .collect();
        if !unrated.is_empty() {
            notes.push(format!(
                "No rate for {}: no income was categorised that month.",
                unrated.join(", ")
            ));
        }
        notes
    }
}

#[cfg(test)]
mod tests;
