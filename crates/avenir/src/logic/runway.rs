//! Months of runway (`docs/contract/reads.md` §18): how long the money available today would last
//! with no income, at the average spending of the last complete months, and at essential spending
//! alone.
//!
//! Amounts are integer milliunits; the runway is kept in tenths of a month, rounded half to even
//! on the exact quotient (D8); sentences write amounts in the plan's format (D16).

#[cfg(test)]
mod tests;

use super::categories::SYSTEM_GROUPS;
use super::exact::{div_half_even, div_tenths, tenths_text, to_i64};
use super::names::SplitLines;
use super::payoff::DEBT_TYPES;
use crate::money::MoneyFormat;
use crate::months::{CalendarMonth, date_range, earliest_month, full_months_before};
use crate::text::{fold, quoted, safe};
use chrono::NaiveDate;
use std::collections::HashSet;
use ynab::models::{Account, CategoryGroup, Milliunits, PlanDetail, TransactionSummary};

/// Complete months averaged when `months_count` is not given.
pub const DEFAULT_MONTHS: usize = 6;
/// Most complete months averaged.
pub const MAX_MONTHS: usize = 24;

/// Account types whose money is available (§1.9 `CASH_TYPES`).
pub const CASH_TYPES: [&str; 3] = ["checking", "savings", "cash"];
/// Cards and lines of credit: what they owe is subtracted from the money available.
pub const CARD_TYPES: [&str; 2] = ["creditCard", "lineOfCredit"];

/// What the caller asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Complete months to average, before the current one.
    pub months_count: usize,
    /// Group names (any case) or ids, when a second, essential runway is wanted.
    pub essential_groups: Option<Vec<String>>,
    /// `false` leaves savings-type accounts out of the money available.
    pub include_savings: bool,
    /// Whether `get_savings_rate` is in the build, so a note may point to it.
    pub savings_tool_listed: bool,
}

/// An average monthly spending and how long the money lasts at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Coverage {
    /// Negative (or 0 when nothing was spent).
    pub monthly_spending: Milliunits,
    /// Months, in tenths, never below 0; `None` when nothing was spent.
    pub runway_tenths: Option<i64>,
}

/// An account counted in the money available.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counted<'a> {
    /// Safe name.
    pub name: String,
    pub kind: &'a str,
    pub balance: Milliunits,
}

/// The whole answer, before the tool shapes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Runway<'a> {
    pub message: String,
    /// The money available today, what cards owe already subtracted.
    pub liquid: Milliunits,
    /// What the counted cards and lines of credit add up to (negative while owed).
    pub owed_on_cards: Milliunits,
    pub spending: Coverage,
    /// `None` unless essential groups were given.
    pub essential: Option<Coverage>,
    /// Safe names of the essential groups used, in the order given.
    pub essential_groups: Vec<String>,
    /// The complete months averaged, oldest first.
    pub months: Vec<CalendarMonth>,
    pub accounts: Vec<Counted<'a>>,
    /// Safe names of the open accounts not counted.
    pub left_out: Vec<String>,
    pub notes: Vec<String>,
}

/// The plan's category tree: groups not deleted and not YNAB's own (hidden ones kept).
fn tree_groups(plan: &PlanDetail) -> Vec<&CategoryGroup> {
    plan.category_groups
        .iter()
        .filter(|g| !g.deleted && !SYSTEM_GROUPS.contains(&g.name.as_str()))
        .collect()
}

/// The groups `items` name, in the order given and without duplicates: each item (trimmed) is a
/// group's id, else a group name, any case (every group of that name). Any item naming no group
/// is the "Unknown category group(s)" sentence.
pub fn essential_groups<'a>(
    plan: &'a PlanDetail,
    items: &[String],
) -> Result<Vec<&'a CategoryGroup>, String> {
    let groups = tree_groups(plan);
    let mut chosen: Vec<&CategoryGroup> = Vec::new();
    let mut unknown: Vec<String> = Vec::new();
    for item in items {
        let wanted = item.trim();
        let by_id: Vec<&CategoryGroup> =
            groups.iter().copied().filter(|g| g.id == wanted).collect();
        let found = if by_id.is_empty() {
            let key = fold(wanted);
            groups
                .iter()
                .copied()
                .filter(|g| fold(g.name.trim()) == key || fold(&safe(&g.name)) == key)
                .collect()
        } else {
            by_id
        };
        if found.is_empty() {
            let shown = quoted(&safe(item));
            if !unknown.contains(&shown) {
                unknown.push(shown);
            }
        }
        for group in found {
            if !chosen.iter().any(|g| g.id == group.id) {
                chosen.push(group);
            }
        }
    }
    if unknown.is_empty() {
        Ok(chosen)
    } else {
        let names: Vec<String> = groups.iter().map(|g| safe(&g.name)).collect();
        Err(format!(
            "Unknown category group(s) {}: give names or ids of this plan's groups, as list_category_groups shows them: {}.",
            unknown.join(", "),
            names.join(", ")
        ))
    }
}

/// The runway, or the sentence of a ToolError (an essential group that is not in the plan).
pub fn runway<'a>(
    plan: &'a PlanDetail,
    request: &Request,
    today: NaiveDate,
    money: &MoneyFormat,
) -> Result<Runway<'a>, String> {
    let essential = match &request.essential_groups {
        Some(items) => Some(essential_groups(plan, items)?),
        None => None,
    };
    let essential_ids = category_ids(plan, essential.iter().flatten().copied());

    let accounts: Vec<&Account> = plan.accounts.iter().filter(|a| !a.deleted).collect();
    let counts = |a: &Account| {
        a.on_budget
            && !a.closed
            && (CARD_TYPES.contains(&a.kind.as_str())
                || (CASH_TYPES.contains(&a.kind.as_str())
                    && (request.include_savings || a.kind != "savings")))
    };
    let counted: Vec<&Account> = accounts.iter().copied().filter(|a| counts(a)).collect();
    let liquid: i128 = counted.iter().map(|a| i128::from(a.balance)).sum();
    let cards: Vec<&Account> = counted
        .iter()
        .copied()
        .filter(|a| CARD_TYPES.contains(&a.kind.as_str()))
        .collect();
    let owed: i128 = cards.iter().map(|a| i128::from(a.balance)).sum();
    let left_out: Vec<String> = accounts
        .iter()
        .filter(|a| !a.closed && !counts(a))
        .map(|a| safe(&a.name))
        .collect();

    let kept: HashSet<&str> = accounts
        .iter()
        .filter(|a| a.on_budget || !DEBT_TYPES.contains(&a.kind.as_str()))
        .map(|a| a.id.as_str())
        .collect();
    let (history, months) = averaged(plan, &accounts, today, request.months_count);

    let (spent, vital) = spent_in(plan, &history, &months, &kept, &essential_ids);

    let spending = coverage(spent, months.len(), liquid);
    let essential_coverage = essential
        .as_ref()
        .map(|_| coverage(vital, months.len(), liquid));
    let message = message(money, &months, to_i64(liquid), spending, essential_coverage);

    let notes = notes(
        request,
        money,
        !cards.is_empty(),
        owed,
        months.len(),
        liquid,
    );

    Ok(Runway {
        message,
        liquid: to_i64(liquid),
        owed_on_cards: to_i64(owed),
        spending,
        essential: essential_coverage,
        essential_groups: essential.iter().flatten().map(|g| safe(&g.name)).collect(),
        months,
        accounts: counted
            .iter()
            .map(|a| Counted {
                name: safe(&a.name),
                kind: &a.kind,
                balance: a.balance,
            })
            .collect(),
        left_out,
        notes,
    })
}

/// The transactions of the budget accounts, and the complete months averaged: the last
/// `months_count` before today's, from the first month with a transaction.
fn averaged<'p>(
    plan: &'p PlanDetail,
    accounts: &[&Account],
    today: NaiveDate,
    months_count: usize,
) -> (Vec<&'p TransactionSummary>, Vec<CalendarMonth>) {
    let budget: HashSet<&str> = accounts
        .iter()
        .filter(|a| a.on_budget)
        .map(|a| a.id.as_str())
        .collect();
    let history: Vec<_> = plan
        .transactions
        .iter()
        .filter(|t| !t.deleted && budget.contains(t.account_id.as_str()))
        .collect();
    let first = earliest_month(history.iter().map(|t| &*t.date));
    let months: Vec<CalendarMonth> = match first {
        Some(first) => full_months_before(today, months_count)
            .into_iter()
            .filter(|m| *m >= first)
            .collect(),
        None => Vec::new(),
    };
    (history, months)
}

/// The live categories of `groups`.
fn category_ids<'a>(
    plan: &'a PlanDetail,
    groups: impl Iterator<Item = &'a CategoryGroup>,
) -> HashSet<&'a str> {
    groups
        .flat_map(|g| {
            plan.categories
                .iter()
                .filter(|c| !c.deleted && c.category_group_id == g.id)
                .map(|c| c.id.as_str())
        })
        .collect()
}

/// Money out of the budget accounts in `months` (a split counted by its lines; a transfer to a
/// `kept` account is not spending), and the part of it in the `essential` categories.
fn spent_in(
    plan: &PlanDetail,
    history: &[&TransactionSummary],
    months: &[CalendarMonth],
    kept: &HashSet<&str>,
    essential: &HashSet<&str>,
) -> (i128, i128) {
    let lines = SplitLines::new(&plan.subtransactions);
    let (mut spent, mut vital) = (0i128, 0i128);
    // Only the months averaged are read: a date outside their range is skipped unparsed.
    let range = date_range(months);
    for t in history {
        let inside = range
            .as_ref()
            .is_some_and(|(from, to)| *t.date >= **from && *t.date < **to);
        if !inside || !CalendarMonth::from_ynab(&t.date).is_some_and(|m| months.contains(&m)) {
            continue;
        }
        let split: Vec<(Milliunits, Option<&str>, Option<&str>)> = lines
            .live(&t.id)
            .map(|l| {
                (
                    l.amount,
                    l.transfer_account_id.as_deref(),
                    l.category_id.as_deref(),
                )
            })
            .collect();
        let own = [(
            t.amount,
            t.transfer_account_id.as_deref(),
            t.category_id.as_deref(),
        )];
        let parts = if split.is_empty() {
            &own[..]
        } else {
            &split[..]
        };
        for &(amount, transfer, category) in parts {
            if amount >= 0 || transfer.is_some_and(|id| kept.contains(id)) {
                continue;
            }
            spent += i128::from(amount);
            if category.is_some_and(|id| essential.contains(id)) {
                vital += i128::from(amount);
            }
        }
    }

    (spent, vital)
}

/// The answer's sentence: how long the money available lasts at the average spending, and on
/// essential spending alone when asked.
fn message(
    money: &MoneyFormat,
    months: &[CalendarMonth],
    liquid: i64,
    spending: Coverage,
    essential_coverage: Option<Coverage>,
) -> String {
    let available = money.plain(liquid);
    if months.is_empty() {
        format!(
            "No complete month of spending to average yet: no runway can be given for the {available} available."
        )
    } else {
        let mut message = format!(
            "At the average spending of the last {} complete months, {} a month, the {available} available would last {}.",
            months.len(),
            money.plain(spending.monthly_spending.saturating_neg()),
            lasts(spending)
        );
        if let Some(vital) = essential_coverage {
            message.push_str(&format!(
                " On essential spending alone, {} a month: {}.",
                money.plain(vital.monthly_spending.saturating_neg()),
                lasts(vital)
            ));
        }
        message
    }
}

/// What the figures assume and leave out.
fn notes(
    request: &Request,
    money: &MoneyFormat,
    any_card: bool,
    owed: i128,
    months: usize,
    liquid: i128,
) -> Vec<String> {
    let mut notes = vec![
        "No income is assumed: the runway is how long the money would last if nothing came in.".to_string(),
        "Spending is the past average of money out of the budget accounts; refunds and other money in are not deducted, transfers between budget accounts are left out, and transfers to a tracking loan or debt (a loan payment, say) count as spending.".to_string(),
        if request.savings_tool_listed {
            "A transfer to a tracking account that holds an asset (savings, investments) is not spending: that money is still yours, as get_savings_rate counts it.".to_string()
        } else {
            "A transfer to a tracking account that holds an asset (savings, investments) is not spending: that money is still yours.".to_string()
        },
        "Tracking accounts are not counted as money available: investments and loans outside the budget are listed in left_out.".to_string(),
        "The past is no promise: yearly bills, holidays or a job search change the pace.".to_string(),
    ];
    if any_card {
        notes.push(format!(
            "What the credit cards owe ({}) is subtracted from the money available: it will have to be paid.",
            money.plain(to_i64(owed))
        ));
    }
    if !request.include_savings {
        notes.push("Savings accounts were left out of the money available, as asked.".to_string());
    }
    if months > 0 && months < request.months_count {
        notes.push(format!(
            "Only the last {} of the {} months hold budget transactions: the average is over those.",
            months,
            request.months_count
        ));
    }
    if liquid <= 0 {
        notes.push(
            "The money available is zero or less: nothing to live on without income.".to_string(),
        );
    }
    notes
}

/// The average of `total` over `months` (half to even) and how long `liquid` lasts at it: `None`
/// when nothing was spent, else `liquid ÷ −average` in tenths, never below 0.
pub fn coverage(total: i128, months: usize, liquid: i128) -> Coverage {
    let average = if months == 0 {
        0
    } else {
        div_half_even(total, months as i128)
    };
    let runway_tenths = (average != 0).then(|| to_i64(div_tenths(liquid, -average).max(0)));
    Coverage {
        monthly_spending: to_i64(average),
        runway_tenths,
    }
}

/// `2.7 months`, or the words for a runway with no end.
fn lasts(coverage: Coverage) -> String {
    match coverage.runway_tenths {
        Some(tenths) => format!("{} months", tenths_text(i128::from(tenths))),
        None => "with no end in sight, since nothing was spent".to_string(),
    }
}
