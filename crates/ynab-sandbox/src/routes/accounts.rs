//! Accounts: the list (with its delta), one account, and `POST /accounts`, which creates an
//! unlinked account as YNAB does.
//!
//! # Rules of account creation
//!
//! `name` (non-empty), `type` (one of the six `SaveAccountType` values) and `balance` are
//! required. `checking`, `savings`, `cash` and `creditCard` accounts are on budget, `otherAsset`
//! and `otherLiability` tracking. The account gets its transfer payee `Transfer : {name}` and a
//! starting-balance transaction dated today, paid by the payee `Starting Balance`, cleared and
//! approved, categorised to `Inflow: Ready to Assign` on a budget account (tracking accounts
//! take no category). Credit cards are not modelled further (no Credit Card Payments category is
//! made, and their starting balance is not categorised).

use super::{Params, created, ok, read_figures, to_json, write};
use crate::body::{self, Fields, NO_LIMIT};
use crate::compute;
use crate::error::{ApiError, ApiResult};
use crate::knowledge::Kind;
use crate::ledger;
use crate::server::AppState;
use crate::state::PlanState;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use serde_json::json;
use ynab::models::{Account, Milliunits, Payee, Transaction};

/// `SaveAccountType`, and whether each is on budget.
const SAVE_TYPES: &[(&str, bool)] = &[
    ("checking", true),
    ("savings", true),
    ("cash", true),
    ("creditCard", true),
    ("otherAsset", false),
    ("otherLiability", false),
];

pub(crate) async fn list(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
    params: Params,
) -> ApiResult<Response> {
    let since = params.since()?;
    read_figures(&state, &plan_id, |plan, derived| {
        let accounts: Vec<&Account> = derived
            .accounts
            .iter()
            .filter(|a| since.keeps(plan, Kind::Account, &a.id, a.deleted))
            .collect();
        Ok(ok(
            json!({"accounts": accounts, "server_knowledge": plan.server_knowledge}),
        ))
    })
}

pub(crate) async fn get_one(
    State(state): State<AppState>,
    Path((plan_id, account_id)): Path<(String, String)>,
) -> ApiResult<Response> {
    read_figures(&state, &plan_id, |_, derived| {
        let account = derived
            .accounts
            .iter()
            .find(|a| a.id == account_id && !a.deleted)
            .ok_or(ApiError::NotFound)?;
        Ok(ok(json!({"account": account})))
    })
}

/// `POST /accounts` (see the module doc).
pub(crate) async fn create(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
    bytes: Bytes,
) -> ApiResult<Response> {
    let value = body::parse_json(&bytes)?;
    let f = Fields::wrapped(&value, "account")?;
    let name = f.required("name", f.string("name", NO_LIMIT)?)?;
    if name.trim().is_empty() {
        return Err(f.fail("name", "must not be blank"));
    }
    let names: Vec<&str> = SAVE_TYPES.iter().map(|(t, _)| *t).collect();
    let kind = f.required("type", f.choice("type", &names)?)?;
    let on_budget = SAVE_TYPES.iter().any(|(t, on)| *t == kind && *on);
    let balance = f.required("balance", f.int("balance")?)?;
    write(
        &state,
        &plan_id,
        |plan| {
            let id = add_account(plan, &name, &kind, on_budget);
            let tx = add_starting_balance(plan, &id, balance, on_budget, &kind);
            let written = vec![(Kind::Account, id.clone()), (Kind::Transaction, tx)];
            Ok((id, written))
        },
        |plan, id| {
            let account = compute::accounts(plan).into_iter().find(|a| a.id == id);
            // YNAB answers `{account}` alone: no `server_knowledge` (spec's AccountResponse).
            created(json!({ "account": to_json(&account) }))
        },
    )
}

/// A new open account `name` with its transfer payee (`Transfer : {name}`); its id.
fn add_account(plan: &mut PlanState, name: &str, kind: &str, on_budget: bool) -> String {
    let id = plan.new_id("account");
    let payee_id = plan.new_id("payee");
    plan.payees.push(Payee {
        id: payee_id.clone().into(),
        name: format!("Transfer : {name}").into(),
        transfer_account_id: Some(id.clone().into()),
        deleted: false,
    });
    plan.accounts.push(Account {
        id: id.clone(),
        name: name.to_owned(),
        kind: kind.to_owned(),
        on_budget,
        closed: false,
        note: None,
        balance: 0,
        cleared_balance: 0,
        uncleared_balance: 0,
        transfer_payee_id: Some(payee_id),
        direct_import_linked: Some(false),
        direct_import_in_error: Some(false),
        last_reconciled_at: None,
        debt_original_balance: None,
        debt_interest_rates: None,
        debt_minimum_payments: None,
        debt_escrow_amounts: None,
        deleted: false,
    });
    id
}

/// The account's starting balance: a cleared transaction from the payee `Starting Balance`,
/// income to Ready to Assign on a budget account other than a credit card; its id.
fn add_starting_balance(
    plan: &mut PlanState,
    id: &str,
    balance: Milliunits,
    on_budget: bool,
    kind: &str,
) -> String {
    let starting = ledger::payee_by_name(plan, "Starting Balance");
    let category = if on_budget && kind != "creditCard" {
        compute::ready_to_assign_category(plan).map(str::to_owned)
    } else {
        None
    };
    let tx = plan.new_id("transaction");
    plan.transactions.push(Transaction {
        id: tx.clone(),
        date: plan.today.format("%Y-%m-%d").to_string(),
        amount: balance,
        memo: None,
        cleared: "cleared".into(),
        approved: true,
        flag_color: None,
        flag_name: None,
        account_id: id.to_owned(),
        payee_id: Some(starting),
        category_id: category,
        transfer_account_id: None,
        transfer_transaction_id: None,
        matched_transaction_id: None,
        import_id: None,
        import_payee_name: None,
        import_payee_name_original: None,
        debt_transaction_type: None,
        deleted: false,
        account_name: None,
        payee_name: None,
        category_name: None,
        subtransactions: Vec::new(),
    });
    tx
}
