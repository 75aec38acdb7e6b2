//! Transactions over HTTP: the list and its by-account, by-category, by-payee and by-month
//! variants (filters and deltas), one transaction, create (single or bulk), update (PUT or bulk
//! PATCH by `id` or `import_id`), delete, and import. The write rules are `crate::ledger`'s.
//!
//! # Rules of the lists
//!
//! - `since_date`/`until_date` keep transactions dated on/after and on/before them. YNAB (1.85+)
//!   defaults `since_date` to one year ago; the sandbox does **not** (it would hide most of the
//!   demo's history from clients that send none) — a known difference.
//! - `type=uncategorized` keeps transactions on budget accounts with no category that are neither
//!   splits nor transfers between budget accounts; `type=unapproved` keeps unapproved ones.
//! - With `last_knowledge_of_server=k` a list returns the transactions changed after `k`, deleted
//!   ones included, that pass the other filters *as they are now*.
//! - By category and by payee return YNAB's hybrid rows: a transaction whose own category (or
//!   payee) matches is a `transaction` row; a split line whose category (or payee) matches is a
//!   `subtransaction` row with `parent_transaction_id`, the parent's date, account, cleared,
//!   approval and flag, and the parent's payee when the line has none. A line whose payee matches
//!   is listed only when its parent's payee does not (*chosen*, to list no money twice). A row
//!   with no category is named `Uncategorized` (the spec types `category_name` as a string).
//! - The sandbox has no pending transactions, so none are left out.

use super::{Params, created, ok, read, served_month, write};
use crate::body::{self, Fields, Patch};
use crate::compute;
use crate::error::{ApiError, ApiResult};
use crate::knowledge::{Kind, Since};
use crate::ledger::{self, Created, Save};
use crate::server::AppState;
use crate::state::PlanState;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use chrono::NaiveDate;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use ynab::models::{SubTransaction, Transaction};

/// The filters of a transaction list.
#[derive(Debug, Clone, Copy, Default)]
struct Filter {
    since_date: Option<NaiveDate>,
    until_date: Option<NaiveDate>,
    uncategorized: bool,
    unapproved: bool,
    since: Since,
}

impl Filter {
    fn read(params: &Params) -> ApiResult<Filter> {
        let (uncategorized, unapproved) = match params.get("type") {
            None => (false, false),
            Some("uncategorized") => (true, false),
            Some("unapproved") => (false, true),
            Some(_) => {
                return Err(ApiError::bad(
                    "type must be 'uncategorized' or 'unapproved'",
                ));
            }
        };
        Ok(Filter {
            since_date: params.date("since_date")?,
            until_date: params.date("until_date")?,
            uncategorized,
            unapproved,
            since: params.since()?,
        })
    }

    fn keeps(&self, plan: &PlanState, t: &Transaction) -> bool {
        let date = body::parse_date(&t.date);
        self.since.keeps(plan, Kind::Transaction, &t.id, t.deleted)
            && self.since_date.is_none_or(|s| date.is_some_and(|d| d >= s))
            && self.until_date.is_none_or(|u| date.is_some_and(|d| d <= u))
            && (!self.uncategorized || needs_category(plan, t))
            && (!self.unapproved || !t.approved)
    }
}

/// YNAB's `type=uncategorized`: a transaction on a budget account with no category, unless it
/// is a split or a transfer to another budget account (those take no category).
fn needs_category(plan: &PlanState, t: &Transaction) -> bool {
    let on_budget = |account_id: &str| {
        plan.accounts
            .iter()
            .any(|a| a.id == account_id && a.on_budget)
    };
    let budget_transfer = t.transfer_account_id.as_deref().is_some_and(on_budget);
    on_budget(&t.account_id)
        && t.subtransactions.is_empty()
        && !budget_transfer
        && (t.category_id.is_none() || t.category_name.as_deref() == Some("Uncategorized"))
}

/// The named transactions `scope` accepts and `filter` keeps.
fn listed(
    plan: &PlanState,
    filter: &Filter,
    scope: impl Fn(&Transaction) -> bool,
) -> Vec<Transaction> {
    let names = names_for(plan, filter);
    plan.transactions
        .iter()
        // A delta's transactions are few: name only those it keeps.
        .filter(|t| {
            filter
                .since
                .keeps(plan, Kind::Transaction, &t.id, t.deleted)
        })
        .map(|t| names.transaction(t))
        .filter(|t| scope(t) && filter.keeps(plan, t))
        .collect()
}

fn answer_list(plan: &PlanState, rows: impl serde::Serialize) -> Response {
    ok(json!({"transactions": rows, "server_knowledge": plan.server_knowledge}))
}

pub(crate) async fn list(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
    params: Params,
) -> ApiResult<Response> {
    let filter = Filter::read(&params)?;
    read(&state, &plan_id, |plan| {
        Ok(answer_list(plan, listed(plan, &filter, |_| true)))
    })
}

pub(crate) async fn by_account(
    State(state): State<AppState>,
    Path((plan_id, account_id)): Path<(String, String)>,
    params: Params,
) -> ApiResult<Response> {
    let filter = Filter::read(&params)?;
    read(&state, &plan_id, |plan| {
        if !plan
            .accounts
            .iter()
            .any(|a| a.id == account_id && !a.deleted)
        {
            return Err(ApiError::NotFound);
        }
        Ok(answer_list(
            plan,
            listed(plan, &filter, |t| t.account_id == account_id),
        ))
    })
}

pub(crate) async fn by_month(
    State(state): State<AppState>,
    Path((plan_id, month)): Path<(String, String)>,
    params: Params,
) -> ApiResult<Response> {
    let filter = Filter::read(&params)?;
    read(&state, &plan_id, |plan| {
        let month = served_month(plan, &month)?;
        let prefix = month.get(..8).unwrap_or_default().to_owned();
        Ok(answer_list(
            plan,
            listed(plan, &filter, |t| t.date.starts_with(&prefix)),
        ))
    })
}

/// One hybrid row: the transaction itself, or one of its lines.
fn hybrid(t: &Transaction, line: Option<&SubTransaction>) -> Value {
    let category_name =
        |name: &Option<String>| name.clone().unwrap_or_else(|| "Uncategorized".to_owned());
    match line {
        None => json!({
            "id": t.id,
            "date": t.date,
            "amount": t.amount,
            "memo": t.memo,
            "cleared": t.cleared,
            "approved": t.approved,
            "flag_color": t.flag_color,
            "flag_name": t.flag_name,
            "account_id": t.account_id,
            "payee_id": t.payee_id,
            "category_id": t.category_id,
            "transfer_account_id": t.transfer_account_id,
            "transfer_transaction_id": t.transfer_transaction_id,
            "matched_transaction_id": t.matched_transaction_id,
            "import_id": t.import_id,
            "import_payee_name": t.import_payee_name,
            "import_payee_name_original": t.import_payee_name_original,
            "debt_transaction_type": t.debt_transaction_type,
            "deleted": t.deleted,
            "type": "transaction",
            "parent_transaction_id": null,
            "account_name": t.account_name,
            "payee_name": t.payee_name,
            "category_name": category_name(&t.category_name),
        }),
        Some(s) => json!({
            "id": s.id,
            "date": t.date,
            "amount": s.amount,
            "memo": s.memo,
            "cleared": t.cleared,
            "approved": t.approved,
            "flag_color": t.flag_color,
            "flag_name": t.flag_name,
            "account_id": t.account_id,
            "payee_id": s.payee_id.clone().or_else(|| t.payee_id.clone()),
            "category_id": s.category_id,
            "transfer_account_id": s.transfer_account_id,
            "transfer_transaction_id": s.transfer_transaction_id,
            "matched_transaction_id": null,
            "import_id": t.import_id,
            "import_payee_name": t.import_payee_name,
            "import_payee_name_original": t.import_payee_name_original,
            "debt_transaction_type": t.debt_transaction_type,
            "deleted": t.deleted || s.deleted,
            "type": "subtransaction",
            "parent_transaction_id": t.id,
            "account_name": t.account_name,
            "payee_name": s.payee_name.clone().or_else(|| t.payee_name.clone()),
            "category_name": category_name(&s.category_name),
        }),
    }
}

/// Hybrid rows of the kept transactions: `whole` picks a transaction row, `part` a line row.
fn hybrid_rows(
    plan: &PlanState,
    filter: &Filter,
    whole: impl Fn(&Transaction) -> bool,
    part: impl Fn(&Transaction, &SubTransaction) -> bool,
) -> Vec<Value> {
    let mut rows = Vec::new();
    let names = names_for(plan, filter);
    for t in plan.transactions.iter() {
        if !filter
            .since
            .keeps(plan, Kind::Transaction, &t.id, t.deleted)
        {
            continue;
        }
        let t = names.transaction(t);
        if !filter.keeps(plan, &t) {
            continue;
        }
        if whole(&t) {
            rows.push(hybrid(&t, None));
        }
        for s in &t.subtransactions {
            if (filter.since.is_delta() || !s.deleted) && part(&t, s) {
                rows.push(hybrid(&t, Some(s)));
            }
        }
    }
    rows
}

pub(crate) async fn by_category(
    State(state): State<AppState>,
    Path((plan_id, category_id)): Path<(String, String)>,
    params: Params,
) -> ApiResult<Response> {
    let filter = Filter::read(&params)?;
    read(&state, &plan_id, |plan| {
        if !plan
            .categories
            .iter()
            .any(|c| c.id == category_id && !c.deleted)
        {
            return Err(ApiError::NotFound);
        }
        let mine = Some(category_id.as_str());
        let rows = hybrid_rows(
            plan,
            &filter,
            |t| t.subtransactions.is_empty() && t.category_id.as_deref() == mine,
            |_, s| s.category_id.as_deref() == mine,
        );
        Ok(answer_list(plan, rows))
    })
}

pub(crate) async fn by_payee(
    State(state): State<AppState>,
    Path((plan_id, payee_id)): Path<(String, String)>,
    params: Params,
) -> ApiResult<Response> {
    let filter = Filter::read(&params)?;
    read(&state, &plan_id, |plan| {
        if !plan.payees.iter().any(|p| p.id == payee_id && !p.deleted) {
            return Err(ApiError::NotFound);
        }
        let mine = Some(payee_id.as_str());
        let rows = hybrid_rows(
            plan,
            &filter,
            |t| t.payee_id.as_deref() == mine,
            |t, s| s.payee_id.as_deref() == mine && t.payee_id.as_deref() != mine,
        );
        Ok(answer_list(plan, rows))
    })
}

/// The look-ups that name what `filter` keeps: searches for a delta of a few transactions,
/// maps otherwise.
fn names_for<'a>(plan: &'a PlanState, filter: &Filter) -> compute::Names<'a> {
    let few = filter
        .since
        .0
        .and_then(|k| plan.stamps.changed_after(Kind::Transaction, k))
        .is_some_and(|changed| changed.len() <= FEW);
    if few {
        compute::Names::few(plan)
    } else {
        compute::Names::of(plan)
    }
}

/// Up to how many transactions are named by searching rather than through maps.
const FEW: usize = 32;

/// The named transactions `ids`, in that order.
fn named(plan: &PlanState, ids: &[String]) -> Vec<Transaction> {
    let wanted: HashSet<&str> = ids.iter().map(String::as_str).collect();
    let names = if ids.len() <= FEW {
        compute::Names::few(plan)
    } else {
        compute::Names::of(plan)
    };
    let mut found: HashMap<&str, Transaction> = plan
        .transactions
        .iter()
        .filter(|t| wanted.contains(t.id.as_str()))
        .map(|t| (t.id.as_str(), names.transaction(t)))
        .collect();
    ids.iter()
        .filter_map(|id| found.remove(id.as_str()))
        .collect()
}

fn named_one(plan: &PlanState, id: &str) -> Option<Transaction> {
    named(plan, &[id.to_owned()]).into_iter().next()
}

pub(crate) async fn get_one(
    State(state): State<AppState>,
    Path((plan_id, id)): Path<(String, String)>,
) -> ApiResult<Response> {
    read(&state, &plan_id, |plan| {
        let at = ledger::live(plan, &id).ok_or(ApiError::NotFound)?;
        let transaction = plan.transactions.get(at).ok_or(ApiError::NotFound)?;
        Ok(ok(json!({
            "transaction": compute::named_transaction(plan, transaction),
            "server_knowledge": plan.server_knowledge,
        })))
    })
}

/// `POST /transactions`: one `transaction` (a duplicate `import_id` is a 409) or a
/// `transactions` array (duplicates listed in `duplicate_import_ids`).
pub(crate) async fn create(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
    bytes: Bytes,
) -> ApiResult<Response> {
    let value = body::parse_json(&bytes)?;
    let single = value.get("transaction").filter(|v| !v.is_null());
    let many = value.get("transactions").filter(|v| !v.is_null());
    match (single, many) {
        (Some(_), Some(_)) => Err(ApiError::bad(
            "send either transaction or transactions, not both",
        )),
        (None, None) => Err(ApiError::bad("transaction or transactions is required")),
        (Some(_), None) => {
            let save = Save::read(&Fields::wrapped(&value, "transaction")?)?;
            write(
                &state,
                &plan_id,
                |plan| match ledger::create(plan, &save)? {
                    Created::Saved(id) => Ok((id.clone(), vec![(Kind::Transaction, id)])),
                    Created::Duplicate(import_id) => Err(ApiError::Conflict(format!(
                        "A transaction with import_id '{import_id}' already exists on this account"
                    ))),
                },
                |plan, id| {
                    created(json!({
                        "transaction_ids": [id],
                        "transaction": named_one(plan, &id),
                        "duplicate_import_ids": [],
                        "server_knowledge": plan.server_knowledge,
                    }))
                },
            )
        }
        (None, Some(items)) => {
            let Value::Array(items) = items else {
                return Err(ApiError::bad("transactions must be an array"));
            };
            let saves = saves_of(items)?;
            write(
                &state,
                &plan_id,
                |plan| create_all(plan, &saves),
                |plan, (ids, duplicates)| {
                    created(json!({
                        "transaction_ids": ids,
                        "transactions": named(plan, &ids),
                        "duplicate_import_ids": duplicates,
                        "server_knowledge": plan.server_knowledge,
                    }))
                },
            )
        }
    }
}

/// `PATCH /transactions`: each item found by `id`, else by `import_id`.
pub(crate) async fn update_many(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
    bytes: Bytes,
) -> ApiResult<Response> {
    let value = body::parse_json(&bytes)?;
    let items = match value.get("transactions") {
        None | Some(Value::Null) => return Err(ApiError::bad("transactions is required")),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(ApiError::bad("transactions must be an array")),
    };
    let saves = items
        .iter()
        .enumerate()
        .map(|(i, item)| Save::read(&Fields::item(item, &format!("transactions[{i}]"), i)?))
        .collect::<ApiResult<Vec<Save>>>()?;
    write(
        &state,
        &plan_id,
        |plan| {
            let mut ids = Vec::with_capacity(saves.len());
            for save in &saves {
                let id = match (&save.id, &save.import_id) {
                    (Patch::Set(id), _) => {
                        if ledger::live(plan, id).is_none() {
                            return Err(save.fail("id", &format!("'{id}' does not exist")));
                        }
                        id.clone()
                    }
                    (_, Patch::Set(import_id)) => {
                        ledger::by_import_id(plan, import_id, &save.suffix)?.ok_or_else(|| {
                            save.fail(
                                "import_id",
                                &format!("'{import_id}' does not match any transaction"),
                            )
                        })?
                    }
                    _ => return Err(save.fail("id", "or import_id is required")),
                };
                ledger::update(plan, &id, save)?;
                ids.push(id);
            }
            let written = ids
                .iter()
                .map(|id| (Kind::Transaction, id.clone()))
                .collect();
            Ok((ids, written))
        },
        |plan, ids| {
            ok(json!({
                "transaction_ids": ids,
                "transactions": named(plan, &ids),
                "server_knowledge": plan.server_knowledge,
            }))
        },
    )
}

/// `PUT /transactions/{id}`: a partial update (omitted fields are left alone).
pub(crate) async fn update_one(
    State(state): State<AppState>,
    Path((plan_id, id)): Path<(String, String)>,
    bytes: Bytes,
) -> ApiResult<Response> {
    let value = body::parse_json(&bytes)?;
    let save = Save::read(&Fields::wrapped(&value, "transaction")?)?;
    write(
        &state,
        &plan_id,
        |plan| {
            ledger::update(plan, &id, &save)?;
            Ok(((), vec![(Kind::Transaction, id.clone())]))
        },
        |plan, ()| {
            ok(json!({
                "transaction": named_one(plan, &id),
                "server_knowledge": plan.server_knowledge,
            }))
        },
    )
}

/// `DELETE /transactions/{id}`: answers the deleted transaction (`deleted: true`).
pub(crate) async fn delete_one(
    State(state): State<AppState>,
    Path((plan_id, id)): Path<(String, String)>,
) -> ApiResult<Response> {
    write(
        &state,
        &plan_id,
        |plan| {
            ledger::delete(plan, &id)?;
            Ok(((), vec![(Kind::Transaction, id.clone())]))
        },
        |plan, ()| {
            ok(json!({
                "transaction": named_one(plan, &id),
                "server_knowledge": plan.server_knowledge,
            }))
        },
    )
}

/// `POST /transactions/import`: the lines the banks hold (`Sandbox::hold_bank_lines`) come in,
/// unless already imported (the same `import_id` on the account); with none held, nothing is
/// imported (200 with no ids) and the plan does not change.
pub(crate) async fn import(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
) -> ApiResult<Response> {
    let held = std::mem::take(&mut crate::server::lock(&state).bank_feed);
    if held.is_empty() {
        return read(&state, &plan_id, |_| Ok(ok(json!({"transaction_ids": []}))));
    }
    let saves = saves_of(&held)?;
    write(
        &state,
        &plan_id,
        |plan| create_all(plan, &saves),
        |plan, (ids, _)| {
            ok(json!({"transaction_ids": ids, "server_knowledge": plan.server_knowledge}))
        },
    )
}

/// The items of a bulk creation, each read and checked (`transactions[i]` names a bad one).
fn saves_of(items: &[Value]) -> ApiResult<Vec<Save>> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| Save::read(&Fields::item(item, &format!("transactions[{i}]"), i)?))
        .collect()
}

/// What [`create_all`] made: the new ids and the import ids already on their account, and the
/// entities written.
type CreatedAll = ((Vec<String>, Vec<String>), Vec<(Kind, String)>);

/// Create each of `saves` in order; one whose import id is already on its account is skipped,
/// as YNAB does.
fn create_all(plan: &mut PlanState, saves: &[Save]) -> ApiResult<CreatedAll> {
    let (mut ids, mut duplicates) = (Vec::new(), Vec::new());
    for save in saves {
        match ledger::create(plan, save)? {
            Created::Saved(id) => ids.push(id),
            Created::Duplicate(import_id) => duplicates.push(import_id),
        }
    }
    let written = ids
        .iter()
        .map(|id| (Kind::Transaction, id.clone()))
        .collect();
    Ok(((ids, duplicates), written))
}
