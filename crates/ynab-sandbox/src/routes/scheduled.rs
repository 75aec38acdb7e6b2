//! Scheduled transactions: the list (with its delta), one, create (`POST`), replace (`PUT`) and
//! delete.
//!
//! # Rules
//!
//! - `account_id` and `date` are required; the date must be after "today" and at most five years
//!   ahead. A creation takes it as both `date_first` and `date_next`; a `PUT` as `date_next`,
//!   keeping `date_first` unless the new date is earlier (*chosen*: the API has one date).
//! - `PUT` replaces the whole schedule: an omitted field takes its default (`amount` 0, no payee,
//!   category, memo or flag, `frequency` `never`), as a full replacement does (*chosen*; peers
//!   fetch, merge and send everything).
//! - Payees resolve as for transactions (`payee_id`, else `payee_name` → existing or new payee);
//!   a transfer payee makes it a scheduled transfer (`transfer_account_id`); between two budget
//!   accounts it takes no category. Split schedules cannot be created (400).
//! - A credit-card payment category is refused (400), as YNAB does (docs/contract/server.md §10.8).
//! - Deleting marks it deleted and answers it; deleted schedules appear only in deltas, every
//!   field kept (what an undo recreates from).

use super::{Params, created, ok, read, write};
use crate::body::{self, Fields, MEMO_MAX, NO_LIMIT, PAYEE_NAME_MAX, Patch};
use crate::compute;
use crate::error::{ApiError, ApiResult};
use crate::knowledge::Kind;
use crate::ledger::{self, FLAG_COLORS};
use crate::server::AppState;
use crate::state::PlanState;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use chrono::{Months, NaiveDate};
use serde_json::json;
use ynab::models::ScheduledTransaction;

/// `ScheduledTransactionFrequency`.
pub const FREQUENCIES: &[&str] = &[
    "never",
    "daily",
    "weekly",
    "everyOtherWeek",
    "twiceAMonth",
    "every4Weeks",
    "monthly",
    "everyOtherMonth",
    "every3Months",
    "every4Months",
    "twiceAYear",
    "yearly",
    "everyOtherYear",
];

/// A `SaveScheduledTransaction` as sent.
#[derive(Debug, Clone)]
struct Save {
    account_id: String,
    date: NaiveDate,
    amount: i64,
    payee_id: Patch<String>,
    payee_name: Patch<String>,
    category_id: Option<String>,
    memo: Option<String>,
    flag_color: Option<String>,
    frequency: String,
}

impl Save {
    fn read(value: &serde_json::Value) -> ApiResult<Save> {
        let f = Fields::wrapped(value, "scheduled_transaction")?;
        if let Patch::Set(lines) = f.array("subtransactions")?
            && !lines.is_empty()
        {
            return Err(f.fail(
                "subtransactions",
                "cannot be sent: split scheduled transactions cannot be created",
            ));
        }
        Ok(Save {
            account_id: f.required("account_id", f.string("account_id", NO_LIMIT)?)?,
            date: f.required("date", f.date("date")?)?,
            amount: f.int("amount")?.set().unwrap_or(0),
            payee_id: f.string("payee_id", NO_LIMIT)?,
            payee_name: f.string("payee_name", PAYEE_NAME_MAX)?,
            category_id: f.string("category_id", NO_LIMIT)?.set(),
            memo: f.string("memo", MEMO_MAX)?.set(),
            flag_color: f
                .choice("flag_color", FLAG_COLORS)?
                .set()
                .filter(|c| !c.is_empty()),
            frequency: f
                .choice("frequency", FREQUENCIES)?
                .set()
                .unwrap_or_else(|| "never".into()),
        })
    }

    /// The schedule this save describes, checked against the plan (payees created as needed).
    fn build(&self, plan: &mut PlanState, id: String) -> ApiResult<ScheduledTransaction> {
        let account = plan
            .accounts
            .iter()
            .find(|a| a.id == self.account_id && !a.deleted)
            .ok_or_else(|| {
                ApiError::bad(format!("account_id '{}' does not exist", self.account_id))
            })?;
        let own_on_budget = account.on_budget;
        let latest = plan
            .today
            .checked_add_months(Months::new(60))
            .unwrap_or(plan.today);
        if self.date <= plan.today || self.date > latest {
            return Err(ApiError::bad(
                "date must be in the future and no more than 5 years ahead",
            ));
        }
        let payee_id = match (&self.payee_id, &self.payee_name) {
            (Patch::Set(p), _) => {
                if !plan.payees.iter().any(|x| x.id == *p && !x.deleted) {
                    return Err(ApiError::bad(format!("payee_id '{p}' does not exist")));
                }
                Some(p.clone())
            }
            (_, Patch::Set(name)) => Some(ledger::payee_by_name(plan, name)),
            _ => None,
        };
        if let Some(c) = &self.category_id
            && !plan.categories.iter().any(|x| x.id == *c && !x.deleted)
        {
            return Err(ApiError::bad(format!("category_id '{c}' does not exist")));
        }
        if let Some(c) = &self.category_id
            && is_card_payment(plan, c)
        {
            return Err(ApiError::bad(format!(
                "category_id '{c}' is a credit card payment category, which a scheduled transaction cannot take"
            )));
        }
        let transfer_account_id = payee_id
            .as_deref()
            .and_then(|p| plan.payees.iter().find(|x| x.id == p))
            .and_then(|p| p.transfer_account_id.clone());
        let mut category_id = self.category_id.clone();
        if let Some(other) = &transfer_account_id {
            if *other == self.account_id {
                return Err(ApiError::bad(
                    "payee_id is the transfer payee of the schedule's own account",
                ));
            }
            let other_on_budget = plan.accounts.iter().any(|a| a.id == *other && a.on_budget);
            if own_on_budget && other_on_budget {
                category_id = None;
            }
        }
        let date = self.date.format("%Y-%m-%d").to_string();
        Ok(ScheduledTransaction {
            id,
            date_first: date.clone(),
            date_next: date,
            frequency: self.frequency.clone(),
            amount: self.amount,
            memo: self.memo.clone(),
            flag_color: self.flag_color.clone(),
            flag_name: None,
            account_id: self.account_id.clone(),
            payee_id,
            category_id,
            transfer_account_id: transfer_account_id.map(Into::into),
            deleted: false,
            account_name: None,
            payee_name: None,
            category_name: None,
            subtransactions: Vec::new(),
        })
    }
}

/// Whether category `id` is in YNAB's "Credit Card Payments" group (docs/contract/server.md §10.8:
/// no schedule takes one).
fn is_card_payment(plan: &PlanState, id: &str) -> bool {
    let group = plan
        .categories
        .iter()
        .find(|c| c.id == id)
        .map(|c| c.category_group_id.as_str());
    plan.groups
        .iter()
        .any(|g| Some(g.id.as_str()) == group && g.name == "Credit Card Payments")
}

/// The schedule `id` as served (named), deleted or not.
fn named(plan: &PlanState, id: &str) -> Option<ScheduledTransaction> {
    compute::all_scheduled(plan)
        .into_iter()
        .find(|s| s.id == id)
}

fn live(plan: &PlanState, id: &str) -> ApiResult<usize> {
    plan.scheduled
        .iter()
        .position(|s| s.id == id && !s.deleted)
        .ok_or(ApiError::NotFound)
}

/// A write's answer: `{scheduled_transaction}` alone, as YNAB's `ScheduledTransactionResponse`
/// (only the list carries `server_knowledge`).
fn answer(plan: &PlanState, id: &str) -> serde_json::Value {
    json!({ "scheduled_transaction": named(plan, id) })
}

pub(crate) async fn list(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
    params: Params,
) -> ApiResult<Response> {
    let since = params.since()?;
    read(&state, &plan_id, |plan| {
        let scheduled: Vec<ScheduledTransaction> = compute::all_scheduled(plan)
            .into_iter()
            .filter(|s| since.keeps(plan, Kind::Scheduled, &s.id, s.deleted))
            .collect();
        Ok(ok(json!({
            "scheduled_transactions": scheduled,
            "server_knowledge": plan.server_knowledge,
        })))
    })
}

pub(crate) async fn get_one(
    State(state): State<AppState>,
    Path((plan_id, id)): Path<(String, String)>,
) -> ApiResult<Response> {
    read(&state, &plan_id, |plan| {
        live(plan, &id)?;
        Ok(ok(json!({"scheduled_transaction": named(plan, &id)})))
    })
}

pub(crate) async fn create(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
    bytes: Bytes,
) -> ApiResult<Response> {
    let save = Save::read(&body::parse_json(&bytes)?)?;
    write(
        &state,
        &plan_id,
        |plan| {
            let id = plan.new_id("scheduled_transaction");
            let scheduled = save.build(plan, id.clone())?;
            plan.scheduled.push(scheduled);
            Ok((id.clone(), vec![(Kind::Scheduled, id)]))
        },
        |plan, id| created(answer(plan, &id)),
    )
}

pub(crate) async fn update(
    State(state): State<AppState>,
    Path((plan_id, id)): Path<(String, String)>,
    bytes: Bytes,
) -> ApiResult<Response> {
    let save = Save::read(&body::parse_json(&bytes)?)?;
    write(
        &state,
        &plan_id,
        |plan| {
            let index = live(plan, &id)?;
            let mut scheduled = save.build(plan, id.clone())?;
            // The schedule's start stays where it was unless the new date is earlier.
            let first = plan.scheduled[index].date_first.clone();
            if first < scheduled.date_first {
                scheduled.date_first = first;
            }
            plan.scheduled[index] = scheduled;
            Ok(((), vec![(Kind::Scheduled, id.clone())]))
        },
        |plan, ()| ok(answer(plan, &id)),
    )
}

pub(crate) async fn delete(
    State(state): State<AppState>,
    Path((plan_id, id)): Path<(String, String)>,
) -> ApiResult<Response> {
    write(
        &state,
        &plan_id,
        |plan| {
            let index = live(plan, &id)?;
            let s = &mut plan.scheduled[index];
            s.deleted = true;
            for line in &mut s.subtransactions {
                line.deleted = true;
            }
            Ok(((), vec![(Kind::Scheduled, id.clone())]))
        },
        |plan, ()| ok(answer(plan, &id)),
    )
}
