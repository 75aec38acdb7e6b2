//! A schedule's values after a change or a creation, checked as YNAB checks them: the account,
//! the next date, the payee (an existing one, a new name, or a transfer's) and the category.

use super::{PayeeAsked, ScheduleAsked, check_date};
use crate::logic::assignable::{CategoryIndex, Role};
use crate::logic::flags::current_flag;
use chrono::NaiveDate;
use ynab::models::{Account, Milliunits, PlanDetail, ScheduledTransactionSummary};

/// The schedule's values after the change: what the checks and the `PUT` read.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct After {
    pub(super) date: String,
    pub(super) frequency: String,
    pub(super) amount: Milliunits,
    pub(super) payee_id: Option<String>,
    pub(super) new_payee: Option<String>,
    pub(super) category_id: Option<String>,
    pub(super) memo: Option<String>,
    pub(super) account_id: String,
    pub(super) flag: Option<String>,
}

/// Checks a schedule's values after the change as YNAB would, naming the schedule (`who`) and
/// the field; resolves the payee asked. `before` is `None` for a creation.
pub(super) fn resolve(
    who: &str,
    asked: &ScheduleAsked,
    before: Option<&ScheduledTransactionSummary>,
    plan: &PlanDetail,
    today: NaiveDate,
) -> Result<After, String> {
    let account_id = account_after(who, asked, before, plan)?;
    let date = date_after(who, asked, before, today)?;
    let frequency = asked
        .frequency
        .clone()
        .or_else(|| (before.map(|s| s.frequency.clone())).map(Into::into))
        .unwrap_or_else(|| "never".to_string());
    let amount = asked.amount.or(before.map(|s| s.amount)).unwrap_or(0);
    let (payee_id, new_payee) = payee_after(asked, before, plan)?;
    let transfer_to = payee_id
        .as_deref()
        .and_then(|p| plan.payees.iter().find(|x| x.id == p))
        .and_then(|p| p.transfer_account_id.clone());
    if transfer_to.as_deref() == Some(account_id.as_str()) {
        return Err(format!(
            "{who} would become a transfer to its own account: choose another payee or account."
        ));
    }
    let category_id = category_after(
        who,
        asked,
        before,
        plan,
        &account_id,
        transfer_to.as_deref(),
    )?;
    let memo = match &asked.memo {
        Some(m) => m.clone().filter(|m| !m.is_empty()),
        None => before
            .and_then(|s| s.memo.as_deref().map(str::to_string))
            .filter(|m| !m.is_empty()),
    };
    let flag = match asked.flag {
        Some(f) => f.map(str::to_string),
        None => before.and_then(|s| current_flag(s.flag_color.as_deref()).map(str::to_string)),
    };
    Ok(After {
        date,
        frequency,
        amount,
        payee_id,
        new_payee,
        category_id,
        memo,
        account_id,
        flag,
    })
}

/// The live account `id` of the plan.
fn account_of<'p>(plan: &'p PlanDetail, id: &str) -> Option<&'p Account> {
    plan.accounts.iter().find(|a| a.id == id && !a.deleted)
}

/// The account the schedule will be on: in the plan, and open when the change names it.
fn account_after(
    who: &str,
    asked: &ScheduleAsked,
    before: Option<&ScheduledTransactionSummary>,
    plan: &PlanDetail,
) -> Result<String, String> {
    let account_id = asked
        .account_id
        .clone()
        .or_else(|| (before.map(|s| s.account_id.clone())).map(Into::into))
        .ok_or_else(|| format!("{who}: give account_id, the account the schedule is on."))?;
    let Some(account) = account_of(plan, &account_id) else {
        return Err(format!(
            "Account {account_id} is not in this plan: use an account_id from list_accounts."
        ));
    };
    if account.closed && asked.account_id.is_some() {
        return Err(format!(
            "Account {account_id} is closed: reopen it in YNAB, or choose an open account from list_accounts."
        ));
    }
    Ok(account_id)
}

/// The schedule's next date after the change, checked as YNAB checks it on every save.
fn date_after(
    who: &str,
    asked: &ScheduleAsked,
    before: Option<&ScheduledTransactionSummary>,
    today: NaiveDate,
) -> Result<String, String> {
    let date = match (&asked.date, before) {
        (Some(d), _) => d.clone(),
        (None, Some(s)) => s.date_next.clone().into(),
        (None, None) => return Err(format!("{who}: give date, the next occurrence.")),
    };
    let parsed = NaiveDate::parse_from_str(&date, "%Y-%m-%d")
        .map_err(|_| format!("{who}: its date {date} is not a date YNAB reads."))?;
    if asked.date.is_some() || asked.account_id.is_some() || before.is_none() {
        check_date(who, parsed, today)?;
    } else {
        // YNAB checks the date on every save: a schedule whose next date has passed cannot be
        // saved without a new one.
        check_date(who, parsed, today).map_err(|e| {
            format!("{e} (A PUT sends the whole schedule, its date included: give date too.)")
        })?;
    }
    Ok(date)
}

/// The payee after the change: its id, or the name of a payee to create.
fn payee_after(
    asked: &ScheduleAsked,
    before: Option<&ScheduledTransactionSummary>,
    plan: &PlanDetail,
) -> Result<(Option<String>, Option<String>), String> {
    Ok(match &asked.payee {
        None => (
            before.and_then(|s| s.payee_id.as_deref().map(str::to_string)),
            None,
        ),
        Some(PayeeAsked::Id(id)) => {
            if !plan.payees.iter().any(|p| &p.id == id && !p.deleted) {
                return Err(format!(
                    "Payee {id} is not in this plan: use a payee_id from list_payees, or give payee_name for a new payee."
                ));
            }
            (Some(id.clone()), None)
        }
        Some(PayeeAsked::TransferTo(other)) => {
            let Some(acc) = account_of(plan, other) else {
                return Err(format!(
                    "Account {other} is not in this plan: use an account_id from list_accounts for transfer_account_id."
                ));
            };
            match &acc.transfer_payee_id {
                Some(p) => (Some(p.clone()), None),
                None => {
                    return Err(format!(
                        "Account {other} has no transfer payee in this plan: a transfer to it cannot be scheduled."
                    ));
                }
            }
        }
        Some(PayeeAsked::Name(name)) => match plan
            .payees
            .iter()
            .find(|p| p.name == *name && !p.deleted && p.transfer_account_id.is_none())
        {
            Some(p) => (Some(p.id.to_string()), None),
            None => (None, Some(name.clone())),
        },
    })
}

/// The category after the change, refused where YNAB gives the schedule none or refuses it.
fn category_after(
    who: &str,
    asked: &ScheduleAsked,
    before: Option<&ScheduledTransactionSummary>,
    plan: &PlanDetail,
    account_id: &str,
    transfer_to: Option<&str>,
) -> Result<Option<String>, String> {
    let on_budget = |id: &str| account_of(plan, id).is_some_and(|a| a.on_budget);
    let no_category = match transfer_to {
        Some(other) => on_budget(account_id) && on_budget(other),
        None => false,
    } || !on_budget(account_id);
    Ok(match &asked.category_id {
        Some(Some(category_id)) => {
            if transfer_to.is_some() && no_category && on_budget(account_id) {
                return Err(format!(
                    "{who} is a transfer between two budget accounts: YNAB gives it no category; leave category_id out."
                ));
            }
            if !on_budget(account_id) {
                return Err(format!(
                    "{who} is on a tracking account: YNAB gives it no category; leave category_id out."
                ));
            }
            let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
            if index.is_uncategorized(category_id) {
                return Err(format!(
                    "Category {category_id} is YNAB's internal Uncategorized: choose a real category, or give category_id \"none\"."
                ));
            }
            if index.visible_name(category_id).is_none() {
                return Err(format!(
                    "Category {category_id} is not in this plan: use a category_id from get_category_balances."
                ));
            }
            if index.role(category_id) == Some(Role::CreditCardPayment) {
                return Err(format!(
                    "Category {category_id} pays a credit card, and YNAB refuses it on a schedule: choose the category of what is paid for."
                ));
            }
            Some(category_id.clone())
        }
        Some(None) => None,
        // A transfer between budget accounts, or a tracking account: YNAB drops the category.
        None if no_category => None,
        None => before.and_then(|s| s.category_id.as_deref().map(str::to_string)),
    })
}
