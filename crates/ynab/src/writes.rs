//! Bodies and answers of YNAB's write operations, in YNAB's JSON shapes.
//! Optional fields are left out unless set; a field that can be cleared is `Option<Option<T>>`
//! (`Some(None)` is sent as `null`).

use crate::models::{Category, Milliunits, Payee, Transaction};
use serde::{Deserialize, Serialize};

/// A transaction to create (`POST /plans/{plan_id}/transactions`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct NewTransaction {
    pub account_id: String,
    /// `YYYY-MM-DD`, not in the future.
    pub date: String,
    pub amount: Milliunits,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payee_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payee_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memo: Option<String>,
    /// `cleared`, `uncleared` or `reconciled`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cleared: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approved: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flag_color: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub import_id: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub subtransactions: Vec<NewSubTransaction>,
}

/// A line of a split, to create.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct NewSubTransaction {
    pub amount: Milliunits,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payee_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payee_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memo: Option<String>,
}

/// Changes to one existing transaction (`PATCH /plans/{plan_id}/transactions`), by id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct TransactionUpdate {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account_id: Option<String>,
    /// `YYYY-MM-DD`, not in the future.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount: Option<Milliunits>,
    /// `Some(None)` clears the payee (an undo putting back a transaction that had none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payee_id: Option<Option<String>>,
    /// A payee by name: YNAB takes the payee of that name, or creates it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payee_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category_id: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approved: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cleared: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flag_color: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memo: Option<Option<String>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub subtransactions: Vec<NewSubTransaction>,
}

/// The answer of a transaction create or update.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SavedTransactions {
    #[serde(default)]
    pub transaction_ids: Vec<String>,
    #[serde(default)]
    pub transactions: Vec<Transaction>,
    #[serde(default)]
    pub transaction: Option<Transaction>,
    #[serde(default)]
    pub duplicate_import_ids: Vec<String>,
    #[serde(default)]
    pub server_knowledge: i64,
}

/// Fields of a category to create or change (`POST`/`PATCH /plans/{plan_id}/categories`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct CategoryChange {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category_group_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<Option<String>>,
    /// Milliunits; `Some(None)` removes the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal_target: Option<Option<Milliunits>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal_target_date: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal_needs_whole_amount: Option<Option<bool>>,
    /// `monthly`, `weekly` or `yearly` (YNAB sets the cadence from it); `Some(None)` clears it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal_frequency: Option<Option<String>>,
}

/// The answer of a category save.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SavedCategory {
    pub category: Category,
    #[serde(default)]
    pub server_knowledge: i64,
}

/// The answer of a payee save.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SavedPayee {
    pub payee: Payee,
    #[serde(default)]
    pub server_knowledge: i64,
}

/// A scheduled transaction as sent whole (`POST /plans/{plan_id}/scheduled_transactions`, and
/// `PUT …/scheduled_transactions/{id}`, which replaces every field: YNAB's PUT is not a patch,
/// so an update sends the schedule as it is with its changes merged in). `None` is sent as
/// `null` (no payee, category, memo or flag), except `payee_name`, left out unless set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct ScheduleSave {
    pub account_id: String,
    /// `YYYY-MM-DD`: after today, at most five years ahead (the next occurrence).
    pub date: String,
    pub amount: Milliunits,
    pub payee_id: Option<String>,
    /// A payee by name: an existing one of that name, or a new one YNAB creates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payee_name: Option<String>,
    pub category_id: Option<String>,
    pub memo: Option<String>,
    pub flag_color: Option<String>,
    /// One of YNAB's 13 `ScheduledTransactionFrequency` values.
    pub frequency: String,
}

/// The answer of a scheduled transaction's create, update or delete.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SavedSchedule {
    pub scheduled_transaction: crate::models::ScheduledTransaction,
}

/// The answer of `POST /accounts`: the account YNAB created (no `server_knowledge`: YNAB's
/// `AccountResponse` carries none).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedAccount {
    pub account: crate::models::Account,
}
