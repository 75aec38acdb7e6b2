//! The debt payoff plan (`docs/contract/reads.md` §16): the open debts and their terms in force
//! today, the monthly budget, and the avalanche and snowball simulations with their conclusion and
//! notes.
//!
//! Amounts are integer milliunits, rates YNAB's thousandths of a percent; sentences write amounts
//! in the plan's format (D16) and months as `YYYY-MM-01` (D7).

pub mod simulation;

#[cfg(test)]
mod tests;

use super::exact::{div_half_even, div_round_tens, to_i64};
use crate::money::MoneyFormat;
use crate::months::{CalendarMonth, full_months_before};
use crate::text::{fold, quoted, safe};
use chrono::NaiveDate;
use simulation::{Rate, Simulation, Terms, simulate};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use ynab::models::{Account, Milliunits, PlanDetail};

pub use super::accounts::DEBT_TYPES;

/// Months simulated when `max_months` is not given.
pub const DEFAULT_MONTHS: u32 = 600;
/// Fewest months a caller may ask for.
pub const MIN_MONTHS: u32 = 12;
/// Most months a caller may ask for.
pub const MAX_MONTHS: u32 = 1200;
/// Complete months averaged for "past payments".
pub const PAST_MONTHS: usize = 3;

/// Where a term comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// YNAB's loan details, the value in force today.
    Ynab,
    /// The caller's override.
    Override,
    /// Neither: counted as 0.
    Missing,
}

/// One strategy's order of paying the rest of the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Highest rate first.
    Avalanche,
    /// Smallest balance first.
    Snowball,
}

impl Strategy {
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Avalanche => "avalanche",
            Strategy::Snowball => "snowball",
        }
    }
}

/// Where the monthly budget comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetFrom {
    Given,
    MinimumPayments,
    PastPayments,
}

/// The caller's terms for one debt; `None` keeps YNAB's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Override {
    /// A debt account's name (any case) or id.
    pub account: String,
    pub interest_rate: Option<Rate>,
    pub minimum_payment: Option<Milliunits>,
}

/// What the caller asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The strategies to simulate, in order (`both` = avalanche then snowball).
    pub strategies: Vec<Strategy>,
    pub monthly_budget: Option<Milliunits>,
    pub overrides: Vec<Override>,
    pub max_months: u32,
}

/// An open debt and its terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Debt<'a> {
    pub account_id: &'a str,
    /// Safe name.
    pub name: String,
    pub kind: &'a str,
    /// What is owed (positive).
    pub owed: Milliunits,
    pub rate: Rate,
    pub rate_from: Source,
    pub minimum: Milliunits,
    pub minimum_from: Source,
    pub escrow: Milliunits,
}

/// One debt in one strategy's plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DebtOutcome {
    pub name: String,
    pub payoff_month: Option<CalendarMonth>,
    pub months: Option<u32>,
    pub interest: Milliunits,
    pub paid: Milliunits,
}

/// One strategy's plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrategyPlan {
    pub strategy: Strategy,
    /// By payoff month (unpaid last), then in the strategy's order.
    pub debts: Vec<DebtOutcome>,
    pub months_to_debt_free: Option<u32>,
    pub debt_free_month: Option<CalendarMonth>,
    pub total_interest: Milliunits,
    pub total_paid: Milliunits,
}

/// The whole answer, before the tool shapes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayoffPlan<'a> {
    pub message: String,
    pub monthly_budget: Milliunits,
    pub budget_from: BudgetFrom,
    /// The month of the first payment: next month.
    pub first_month: CalendarMonth,
    pub debts: Vec<Debt<'a>>,
    pub plans: Vec<StrategyPlan>,
    pub interest_saved_by_avalanche: Option<Milliunits>,
    pub months_saved_by_avalanche: Option<i64>,
    pub notes: Vec<String>,
}

/// The plan, or the sentence of a ToolError (unknown override, budget below the minimums, no
/// budget to be found).
pub fn payoff_plan<'a>(
    plan: &'a PlanDetail,
    request: &Request,
    today: NaiveDate,
    money: &MoneyFormat,
) -> Result<PayoffPlan<'a>, String> {
    let accounts = open_debts(plan);
    let overrides = match_overrides(&accounts, &request.overrides)?;
    let debts: Vec<Debt<'a>> = accounts
        .iter()
        .enumerate()
        .map(|(i, account)| terms(account, overrides.get(&i).copied(), today))
        .collect();
    let first_month = CalendarMonth::of(today).next();
    if debts.is_empty() {
        return Ok(nothing_owed(request, first_month));
    }
    let (budget, budget_from) = monthly_budget(plan, &debts, request.monthly_budget, today, money)?;
    let terms: Vec<Terms> = debts
        .iter()
        .map(|d| Terms {
            owed: i128::from(d.owed),
            rate: d.rate.max(0),
            minimum: i128::from(d.minimum.max(0)),
        })
        .collect();
    let runs: Vec<(Strategy, Vec<usize>, Simulation)> = request
        .strategies
        .iter()
        .map(|&strategy| {
            let order = strategy_order(&debts, strategy);
            let run = simulate(&terms, &order, i128::from(budget), request.max_months);
            (strategy, order, run)
        })
        .collect();
    let plans: Vec<StrategyPlan> = runs
        .iter()
        .map(|(strategy, order, run)| strategy_plan(*strategy, order, run, &debts, first_month))
        .collect();
    let comparison = compare(&runs);
    let owed: i128 = debts.iter().map(|d| i128::from(d.owed)).sum();
    let message = conclusion(
        &runs,
        &plans,
        comparison,
        budget,
        owed,
        debts.len(),
        request,
        money,
    );
    let notes = notes(
        &debts,
        &runs,
        budget,
        budget_from,
        first_month,
        request,
        money,
    );
    Ok(PayoffPlan {
        message,
        monthly_budget: budget,
        budget_from,
        first_month,
        debts,
        plans,
        interest_saved_by_avalanche: comparison.map(|(saved, _)| saved),
        months_saved_by_avalanche: comparison.map(|(_, months)| months),
        notes,
    })
}

/// The answer when no open debt account owes money.
fn nothing_owed<'a>(request: &Request, first_month: CalendarMonth) -> PayoffPlan<'a> {
    PayoffPlan {
        message: "No open debt account owes money: nothing to pay off.".into(),
        monthly_budget: request.monthly_budget.unwrap_or(0),
        budget_from: if request.monthly_budget.is_some() {
            BudgetFrom::Given
        } else {
            BudgetFrom::MinimumPayments
        },
        first_month,
        debts: Vec::new(),
        plans: Vec::new(),
        interest_saved_by_avalanche: None,
        months_saved_by_avalanche: None,
        notes: Vec::new(),
    }
}

/// Accounts not deleted, of a debt type, not closed, owing money, in YNAB's order.
pub fn open_debts(plan: &PlanDetail) -> Vec<&Account> {
    plan.accounts
        .iter()
        .filter(|a| {
            !a.deleted && !a.closed && a.balance < 0 && DEBT_TYPES.contains(&a.kind.as_str())
        })
        .collect()
}

/// Each override's debt (index into `debts`), a later one for the same debt replacing an earlier
/// one; any override naming no open debt is the "Unknown debt account(s)" sentence.
fn match_overrides<'o>(
    debts: &[&Account],
    overrides: &'o [Override],
) -> Result<BTreeMap<usize, &'o Override>, String> {
    let mut matched = BTreeMap::new();
    let mut unknown: Vec<String> = Vec::new();
    for o in overrides {
        let wanted = o.account.trim();
        let key = fold(wanted);
        let found = debts.iter().position(|a| {
            a.id == wanted || fold(a.name.trim()) == key || fold(&safe(&a.name)) == key
        });
        match found {
            Some(i) => {
                matched.insert(i, o);
            }
            None => {
                let shown = quoted(&safe(&o.account));
                if !unknown.contains(&shown) {
                    unknown.push(shown);
                }
            }
        }
    }
    if unknown.is_empty() {
        Ok(matched)
    } else {
        let names: Vec<String> = debts.iter().map(|a| safe(&a.name)).collect();
        Err(format!(
            "Unknown debt account(s) {}: give names or ids of the open accounts that owe money: {}.",
            unknown.join(", "),
            names.join(", ")
        ))
    }
}

/// The value of a YNAB loan detail in force `today`: the one of the latest date not after it.
pub fn in_force<T: Copy>(values: Option<&BTreeMap<String, T>>, today: NaiveDate) -> Option<T> {
    values?
        .iter()
        .filter_map(|(date, value)| {
            NaiveDate::parse_from_str(date, "%Y-%m-%d")
                .ok()
                .filter(|d| *d <= today)
                .map(|d| (d, *value))
        })
        .max_by_key(|(d, _)| *d)
        .map(|(_, value)| value)
}

/// A debt's terms: the override's value, else YNAB's in force today, else 0 (`missing`).
fn terms<'a>(account: &'a Account, chosen: Option<&Override>, today: NaiveDate) -> Debt<'a> {
    let pick = |given: Option<i64>, ynab: Option<i64>| match (given, ynab) {
        (Some(v), _) => (v, Source::Override),
        (None, Some(v)) => (v.max(0), Source::Ynab),
        (None, None) => (0, Source::Missing),
    };
    let (rate, rate_from) = pick(
        chosen.and_then(|o| o.interest_rate),
        in_force(account.debt_interest_rates.as_ref(), today),
    );
    let (minimum, minimum_from) = pick(
        chosen.and_then(|o| o.minimum_payment),
        in_force(account.debt_minimum_payments.as_ref(), today),
    );
    Debt {
        account_id: &account.id,
        name: safe(&account.name),
        kind: &account.kind,
        owed: account.balance.saturating_neg(),
        rate,
        rate_from,
        minimum,
        minimum_from,
        escrow: in_force(account.debt_escrow_amounts.as_ref(), today).unwrap_or(0),
    }
}

/// The budget and where it comes from (step 5), or the sentence of a ToolError.
fn monthly_budget(
    plan: &PlanDetail,
    debts: &[Debt<'_>],
    given: Option<Milliunits>,
    today: NaiveDate,
    money: &MoneyFormat,
) -> Result<(Milliunits, BudgetFrom), String> {
    let minimums: i128 = debts.iter().map(|d| i128::from(d.minimum.max(0))).sum();
    if let Some(given) = given {
        return if i128::from(given) < minimums {
            Err(format!(
                "monthly_budget {} is less than the minimum payments, {}: give at least that much.",
                money.plain(given),
                money.plain(to_i64(minimums))
            ))
        } else {
            Ok((given, BudgetFrom::Given))
        };
    }
    let past = if debts.iter().any(|d| d.minimum_from == Source::Missing) {
        past_payments(plan, debts, today)
    } else {
        0
    };
    if past > minimums {
        Ok((to_i64(past), BudgetFrom::PastPayments))
    } else if minimums == 0 {
        Err("No minimum payment is known and nothing was paid into the debt accounts over the last 3 complete months: give monthly_budget, or minimum_payment in overrides.".into())
    } else {
        Ok((to_i64(minimums), BudgetFrom::MinimumPayments))
    }
}

/// The average paid into the debts over the last 3 complete months: transfers in (money moved
/// from another account) not deleted, dated in those months, ÷ 3, rounded half to even.
pub fn past_payments(plan: &PlanDetail, debts: &[Debt<'_>], today: NaiveDate) -> i128 {
    let window = full_months_before(today, PAST_MONTHS);
    let sum: i128 = plan
        .transactions
        .iter()
        .filter(|t| !t.deleted && t.transfer_account_id.is_some())
        .filter(|t| debts.iter().any(|d| d.account_id == t.account_id))
        .filter(|t| CalendarMonth::from_ynab(&t.date).is_some_and(|m| window.contains(&m)))
        .map(|t| i128::from(t.amount.max(0)))
        .sum();
    div_half_even(sum, PAST_MONTHS as i128)
}

/// Indices of `debts` in the strategy's order: avalanche by (rate ↓, owed ↑, name ↑), snowball by
/// (owed ↑, rate ↓, name ↑); names compared by code point.
pub fn strategy_order(debts: &[Debt<'_>], strategy: Strategy) -> Vec<usize> {
    let mut order: Vec<usize> = (0..debts.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&debts[a], &debts[b]);
        let by_rate = y.rate.cmp(&x.rate);
        let by_owed = x.owed.cmp(&y.owed);
        let first = match strategy {
            Strategy::Avalanche => by_rate.then(by_owed),
            Strategy::Snowball => by_owed.then(by_rate),
        };
        first.then_with(|| x.name.cmp(&y.name))
    });
    order
}

/// `first` plus `n − 1` months: the label of month `n` of the plan.
fn nth_month(first: CalendarMonth, n: u32) -> CalendarMonth {
    (1..n).fold(first, |month, _| month.next())
}

fn strategy_plan(
    strategy: Strategy,
    order: &[usize],
    run: &Simulation,
    debts: &[Debt<'_>],
    first: CalendarMonth,
) -> StrategyPlan {
    let mut listed: Vec<(usize, usize)> = order.iter().copied().enumerate().collect();
    let payoff = |i: usize| run.debts.get(i).and_then(|r| r.payoff);
    listed.sort_by(|&(rank_a, a), &(rank_b, b)| match (payoff(a), payoff(b)) {
        (Some(x), Some(y)) => x.cmp(&y).then(rank_a.cmp(&rank_b)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => rank_a.cmp(&rank_b),
    });
    let months_to_debt_free = run.months_to_debt_free();
    StrategyPlan {
        strategy,
        debts: listed
            .into_iter()
            .filter_map(|(_, i)| Some((debts.get(i)?, run.debts.get(i)?)))
            .map(|(debt, r)| DebtOutcome {
                name: debt.name.clone(),
                payoff_month: r.payoff.map(|n| nth_month(first, n)),
                months: r.payoff,
                interest: to_i64(r.interest),
                paid: to_i64(r.paid),
            })
            .collect(),
        months_to_debt_free,
        debt_free_month: months_to_debt_free.map(|n| nth_month(first, n)),
        total_interest: to_i64(run.total_interest()),
        total_paid: to_i64(run.total_paid()),
    }
}

/// With two plans, no "never" and both ending: (interest saved by avalanche, to the cent; months
/// saved by avalanche).
fn compare(runs: &[(Strategy, Vec<usize>, Simulation)]) -> Option<(Milliunits, i64)> {
    let find = |wanted: Strategy| runs.iter().find(|(s, _, _)| *s == wanted).map(|r| &r.2);
    let (avalanche, snowball) = (find(Strategy::Avalanche)?, find(Strategy::Snowball)?);
    if avalanche.never || snowball.never {
        return None;
    }
    let (a_months, s_months) = (
        avalanche.months_to_debt_free()?,
        snowball.months_to_debt_free()?,
    );
    let saved = div_round_tens(snowball.total_interest() - avalanche.total_interest(), 1);
    Some((to_i64(saved), i64::from(s_months) - i64::from(a_months)))
}

/// The message of step 10.
#[allow(clippy::too_many_arguments)]
fn conclusion(
    runs: &[(Strategy, Vec<usize>, Simulation)],
    plans: &[StrategyPlan],
    comparison: Option<(Milliunits, i64)>,
    budget: Milliunits,
    owed: i128,
    count: usize,
    request: &Request,
    money: &MoneyFormat,
) -> String {
    let amount = money.plain(budget);
    let owed = money.plain(to_i64(owed));
    let (Some((strategy, _, run)), Some(first)) = (runs.first(), plans.first()) else {
        return format!("At {amount} a month, the {owed} owed has no plan: no strategy was asked.");
    };
    if run.never {
        return format!(
            "At {amount} a month, the payments do not cover the interest charged on the {owed} owed: the debt never shrinks. Pay more each month to pay it off."
        );
    }
    let (Some(months), Some(by)) = (first.months_to_debt_free, first.debt_free_month) else {
        return format!(
            "At {amount} a month, the {owed} owed is not paid off within {} months: {} of interest is charged meanwhile.",
            request.max_months,
            money.plain(first.total_interest)
        );
    };
    let debts = if count == 1 { "debt" } else { "debts" };
    let mut message = format!(
        "At {amount} a month, the {owed} owed on {count} {debts} is paid off in {months} months, by {by}, with {} of interest ({}).",
        money.plain(first.total_interest),
        strategy.name()
    );
    if let Some((saved, _)) = comparison {
        message.push_str(&saving_sentence(saved, money));
    }
    message
}

/// What avalanche saves over snowball, as the message's last sentence: only said when both plans
/// end, and a negative saving is worded as snowball's (D22, Appendix B #9).
pub fn saving_sentence(saved: Milliunits, money: &MoneyFormat) -> String {
    match saved.cmp(&0) {
        Ordering::Greater => format!(
            " Avalanche saves {} of interest over snowball.",
            money.plain(saved)
        ),
        Ordering::Equal => " Avalanche and snowball cost the same here.".to_string(),
        Ordering::Less => format!(
            " Snowball saves {} of interest over avalanche here.",
            money.plain(saved.saturating_neg())
        ),
    }
}

/// The notes of step 11, in order.
fn notes(
    debts: &[Debt<'_>],
    runs: &[(Strategy, Vec<usize>, Simulation)],
    budget: Milliunits,
    budget_from: BudgetFrom,
    first_month: CalendarMonth,
    request: &Request,
    money: &MoneyFormat,
) -> Vec<String> {
    let names = |keep: &dyn Fn(&Debt<'_>) -> bool| -> String {
        debts
            .iter()
            .filter(|d| keep(d))
            .map(|d| d.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut notes = vec![
        "Rates and minimum payments are those in force today and are assumed fixed; no new charges are made on the debts.".to_string(),
        format!("Each month, from {first_month}, every debt is charged a twelfth of its yearly rate on its balance, then gets its minimum payment; the rest of the monthly budget goes to the first debt of the strategy (avalanche: highest rate first; snowball: smallest balance first), and a debt paid off frees its minimum for the next."),
    ];
    let no_rate = names(&|d| d.rate_from == Source::Missing);
    if !no_rate.is_empty() {
        notes.push(format!("No interest rate in YNAB for {no_rate}: counted at 0 %, so the interest is understated; ask the user for the rate and give it as interest_rate in overrides (YNAB keeps rates for loans only, not for credit cards)."));
    }
    let no_minimum = names(&|d| d.minimum_from == Source::Missing);
    if !no_minimum.is_empty() {
        notes.push(format!("No minimum payment in YNAB for {no_minimum}: counted at 0, so only what is left of the budget goes there; give minimum_payment in overrides."));
    }
    let amount = money.plain(budget);
    match budget_from {
        BudgetFrom::PastPayments => notes.push(format!("monthly_budget was not given: {amount} is the average paid into the debt accounts over the last 3 complete months.")),
        BudgetFrom::MinimumPayments => notes.push(format!("monthly_budget was not given: {amount} is the sum of the minimum payments, so nothing extra; give a larger monthly_budget to see how much sooner the debts would be paid off.")),
        BudgetFrom::Given => {}
    }
    let escrow = names(&|d| d.escrow > 0);
    if !escrow.is_empty() {
        notes.push(format!("Escrow ({escrow}) is paid with the loan but does not reduce it: it is not part of the plan, nor should it be of monthly_budget."));
    }
    let never = runs.iter().any(|(_, _, r)| r.never);
    if !never && runs.iter().any(|(_, _, r)| !r.ended()) {
        notes.push(format!(
            "The plan stops after {} months: max_months.",
            request.max_months
        ));
    }
    notes
}
