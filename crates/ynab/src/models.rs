//! The entities of YNAB's API v1 as serde types, in YNAB's own JSON shapes.
//! Amounts are integer milliunits (1.00 = 1000) and ids opaque strings; nothing here converts or computes.
//! The entities a plan holds by the thousand keep their strings as [`Str`], stored once per value
//! when parsed from an answer (`crate::shared`).

pub use crate::shared::Str;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Integer milliunits: 1.00 in the plan's currency is 1000.
pub type Milliunits = i64;

/// A plan's date format (`{"format": "DD.MM.YYYY"}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DateFormat {
    pub format: String,
}

/// How the plan writes money: YNAB's `CurrencyFormat`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurrencyFormat {
    pub iso_code: String,
    pub example_format: String,
    pub decimal_digits: u32,
    pub decimal_separator: String,
    pub symbol_first: bool,
    pub group_separator: String,
    pub currency_symbol: String,
    pub display_symbol: bool,
}

/// One entry of `GET /plans`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanSummary {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub last_modified_on: Option<String>,
    #[serde(default)]
    pub first_month: Option<String>,
    #[serde(default)]
    pub last_month: Option<String>,
    #[serde(default)]
    pub date_format: Option<DateFormat>,
    #[serde(default)]
    pub currency_format: Option<CurrencyFormat>,
}

/// `GET /plans/{plan_id}/settings`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanSettings {
    #[serde(default)]
    pub date_format: Option<DateFormat>,
    #[serde(default)]
    pub currency_format: Option<CurrencyFormat>,
}

/// An account (YNAB's `Account`/`AccountBase`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Account {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub on_budget: bool,
    pub closed: bool,
    #[serde(default)]
    pub note: Option<String>,
    pub balance: Milliunits,
    pub cleared_balance: Milliunits,
    pub uncleared_balance: Milliunits,
    #[serde(default)]
    pub transfer_payee_id: Option<String>,
    #[serde(default)]
    pub direct_import_linked: Option<bool>,
    #[serde(default)]
    pub direct_import_in_error: Option<bool>,
    #[serde(default)]
    pub last_reconciled_at: Option<String>,
    #[serde(default)]
    pub debt_original_balance: Option<Milliunits>,
    /// Interest rates in thousandths of a percent (4500 = 4.5 %), keyed by the date they hold from.
    #[serde(default)]
    pub debt_interest_rates: Option<BTreeMap<String, i64>>,
    #[serde(default)]
    pub debt_minimum_payments: Option<BTreeMap<String, Milliunits>>,
    #[serde(default)]
    pub debt_escrow_amounts: Option<BTreeMap<String, Milliunits>>,
    pub deleted: bool,
}

/// A category group, without its categories.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoryGroup {
    pub id: String,
    pub name: String,
    pub hidden: bool,
    #[serde(default)]
    pub internal: bool,
    pub deleted: bool,
}

/// A category group with its categories (`GET /plans/{id}/categories`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CategoryGroupWithCategories {
    #[serde(flatten)]
    pub group: CategoryGroup,
    pub categories: Vec<Category>,
}

/// A category with the amounts of one month (the current one, unless a month endpoint says otherwise).
///
/// `Default` gives an empty, visible category with no target: set what matters, e.g.
/// `Category { id, name, budgeted, ..Category::default() }`. Its strings are [`Str`]: a plan
/// export holds every category once per month (60 × 31 on the heavy plan), and its ids and
/// names are then stored once.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Category {
    pub id: Str,
    pub category_group_id: Str,
    #[serde(default)]
    pub category_group_name: Option<Str>,
    pub name: Str,
    pub hidden: bool,
    #[serde(default)]
    pub internal: bool,
    #[serde(default)]
    pub original_category_group_id: Option<Str>,
    #[serde(default)]
    pub note: Option<Str>,
    /// YNAB's "Assigned".
    pub budgeted: Milliunits,
    pub activity: Milliunits,
    /// YNAB's "Available".
    pub balance: Milliunits,
    #[serde(default)]
    pub goal_type: Option<Str>,
    #[serde(default)]
    pub goal_needs_whole_amount: Option<bool>,
    #[serde(default)]
    pub goal_day: Option<i32>,
    #[serde(default)]
    pub goal_cadence: Option<i32>,
    #[serde(default)]
    pub goal_cadence_frequency: Option<i32>,
    #[serde(default)]
    pub goal_creation_month: Option<Str>,
    #[serde(default)]
    pub goal_target: Option<Milliunits>,
    #[serde(default)]
    pub goal_target_month: Option<Str>,
    #[serde(default)]
    pub goal_target_date: Option<Str>,
    #[serde(default)]
    pub goal_percentage_complete: Option<i32>,
    #[serde(default)]
    pub goal_months_to_budget: Option<i32>,
    #[serde(default)]
    pub goal_under_funded: Option<Milliunits>,
    #[serde(default)]
    pub goal_overall_funded: Option<Milliunits>,
    #[serde(default)]
    pub goal_overall_left: Option<Milliunits>,
    #[serde(default)]
    pub goal_snoozed_at: Option<Str>,
    pub deleted: bool,
}

/// A payee.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Payee {
    pub id: Str,
    pub name: Str,
    /// Set when the payee is the transfer payee of an account.
    #[serde(default)]
    pub transfer_account_id: Option<Str>,
    pub deleted: bool,
}

/// A line of a split transaction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubTransaction {
    pub id: String,
    pub transaction_id: String,
    pub amount: Milliunits,
    #[serde(default)]
    pub memo: Option<String>,
    #[serde(default)]
    pub payee_id: Option<String>,
    #[serde(default)]
    pub payee_name: Option<String>,
    #[serde(default)]
    pub category_id: Option<String>,
    #[serde(default)]
    pub category_name: Option<String>,
    #[serde(default)]
    pub transfer_account_id: Option<String>,
    #[serde(default)]
    pub transfer_transaction_id: Option<String>,
    pub deleted: bool,
}

/// A transaction as `GET /plans/{id}/transactions` returns it (YNAB's `TransactionDetail`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Transaction {
    pub id: String,
    pub date: String,
    pub amount: Milliunits,
    #[serde(default)]
    pub memo: Option<String>,
    /// `cleared`, `uncleared` or `reconciled`.
    pub cleared: String,
    pub approved: bool,
    #[serde(default)]
    pub flag_color: Option<String>,
    #[serde(default)]
    pub flag_name: Option<String>,
    pub account_id: String,
    #[serde(default)]
    pub payee_id: Option<String>,
    #[serde(default)]
    pub category_id: Option<String>,
    #[serde(default)]
    pub transfer_account_id: Option<String>,
    #[serde(default)]
    pub transfer_transaction_id: Option<String>,
    #[serde(default)]
    pub matched_transaction_id: Option<String>,
    #[serde(default)]
    pub import_id: Option<String>,
    #[serde(default)]
    pub import_payee_name: Option<String>,
    #[serde(default)]
    pub import_payee_name_original: Option<String>,
    #[serde(default)]
    pub debt_transaction_type: Option<String>,
    pub deleted: bool,
    #[serde(default)]
    pub account_name: Option<String>,
    #[serde(default)]
    pub payee_name: Option<String>,
    #[serde(default)]
    pub category_name: Option<String>,
    #[serde(default)]
    pub subtransactions: Vec<SubTransaction>,
}

/// A line of a split scheduled transaction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScheduledSubTransaction {
    pub id: String,
    pub scheduled_transaction_id: String,
    pub amount: Milliunits,
    #[serde(default)]
    pub memo: Option<String>,
    #[serde(default)]
    pub payee_id: Option<String>,
    #[serde(default)]
    pub payee_name: Option<String>,
    #[serde(default)]
    pub category_id: Option<String>,
    #[serde(default)]
    pub category_name: Option<String>,
    #[serde(default)]
    pub transfer_account_id: Option<String>,
    pub deleted: bool,
}

/// A scheduled transaction (YNAB's `ScheduledTransactionDetail`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScheduledTransaction {
    pub id: String,
    pub date_first: String,
    pub date_next: String,
    /// `never`, `daily`, `weekly`, `everyOtherWeek`, `twiceAMonth`, `every4Weeks`, `monthly`,
    /// `everyOtherMonth`, `every3Months`, `every4Months`, `twiceAYear`, `yearly`, `everyOtherYear`.
    pub frequency: String,
    pub amount: Milliunits,
    #[serde(default)]
    pub memo: Option<String>,
    #[serde(default)]
    pub flag_color: Option<String>,
    #[serde(default)]
    pub flag_name: Option<String>,
    pub account_id: String,
    #[serde(default)]
    pub payee_id: Option<String>,
    #[serde(default)]
    pub category_id: Option<String>,
    #[serde(default)]
    pub transfer_account_id: Option<String>,
    pub deleted: bool,
    #[serde(default)]
    pub account_name: Option<String>,
    #[serde(default)]
    pub payee_name: Option<String>,
    #[serde(default)]
    pub category_name: Option<String>,
    #[serde(default)]
    pub subtransactions: Vec<ScheduledSubTransaction>,
}

/// A month's totals (`GET /plans/{id}/months`), and with `categories` its detail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Month {
    pub month: String,
    #[serde(default)]
    pub note: Option<String>,
    pub income: Milliunits,
    pub budgeted: Milliunits,
    pub activity: Milliunits,
    /// YNAB's "Ready to Assign".
    pub to_be_budgeted: Milliunits,
    #[serde(default)]
    pub age_of_money: Option<i32>,
    pub deleted: bool,
    /// Present in a month detail and in the full plan export.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub categories: Option<Vec<Category>>,
}

/// A transaction in the flat shape of the full plan export (`TransactionSummaryBase`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TransactionSummary {
    pub id: Str,
    pub date: Str,
    pub amount: Milliunits,
    #[serde(default)]
    pub memo: Option<Str>,
    pub cleared: Str,
    pub approved: bool,
    #[serde(default)]
    pub flag_color: Option<Str>,
    #[serde(default)]
    pub flag_name: Option<Str>,
    pub account_id: Str,
    #[serde(default)]
    pub payee_id: Option<Str>,
    #[serde(default)]
    pub category_id: Option<Str>,
    #[serde(default)]
    pub transfer_account_id: Option<Str>,
    #[serde(default)]
    pub transfer_transaction_id: Option<Str>,
    #[serde(default)]
    pub matched_transaction_id: Option<Str>,
    #[serde(default)]
    pub import_id: Option<Str>,
    #[serde(default)]
    pub import_payee_name: Option<Str>,
    #[serde(default)]
    pub import_payee_name_original: Option<Str>,
    #[serde(default)]
    pub debt_transaction_type: Option<Str>,
    pub deleted: bool,
}

/// A scheduled transaction in the flat shape of the full plan export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScheduledTransactionSummary {
    pub id: Str,
    pub date_first: Str,
    pub date_next: Str,
    pub frequency: Str,
    pub amount: Milliunits,
    #[serde(default)]
    pub memo: Option<Str>,
    #[serde(default)]
    pub flag_color: Option<Str>,
    #[serde(default)]
    pub flag_name: Option<Str>,
    pub account_id: Str,
    #[serde(default)]
    pub payee_id: Option<Str>,
    #[serde(default)]
    pub category_id: Option<Str>,
    #[serde(default)]
    pub transfer_account_id: Option<Str>,
    pub deleted: bool,
}

/// The full plan export, `GET /plans/{plan_id}` (YNAB's `PlanDetail`): every entity in flat lists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanDetail {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub last_modified_on: Option<String>,
    #[serde(default)]
    pub first_month: Option<String>,
    #[serde(default)]
    pub last_month: Option<String>,
    #[serde(default)]
    pub date_format: Option<DateFormat>,
    #[serde(default)]
    pub currency_format: Option<CurrencyFormat>,
    #[serde(default)]
    pub accounts: Vec<Account>,
    #[serde(default)]
    pub payees: Vec<Payee>,
    #[serde(default)]
    pub payee_locations: Vec<serde_json::Value>,
    #[serde(default)]
    pub category_groups: Vec<CategoryGroup>,
    #[serde(default)]
    pub categories: Vec<Category>,
    #[serde(default)]
    pub months: Vec<Month>,
    #[serde(default)]
    pub transactions: Vec<TransactionSummary>,
    #[serde(default)]
    pub subtransactions: Vec<SubTransaction>,
    #[serde(default)]
    pub scheduled_transactions: Vec<ScheduledTransactionSummary>,
    #[serde(default)]
    pub scheduled_subtransactions: Vec<ScheduledSubTransaction>,
}

/// YNAB's error body: `{"error": {"id", "name", "detail"}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

/// The inside of YNAB's error body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorDetail {
    pub id: String,
    pub name: String,
    pub detail: String,
}

impl From<Transaction> for TransactionSummary {
    /// The flat shape of the plan export: the same facts without names and split lines.
    fn from(t: Transaction) -> Self {
        TransactionSummary {
            id: t.id.into(),
            date: t.date.into(),
            amount: t.amount,
            memo: t.memo.map(Str::from),
            cleared: t.cleared.into(),
            approved: t.approved,
            flag_color: t.flag_color.map(Str::from),
            flag_name: t.flag_name.map(Str::from),
            account_id: t.account_id.into(),
            payee_id: t.payee_id.map(Str::from),
            category_id: t.category_id.map(Str::from),
            transfer_account_id: t.transfer_account_id.map(Str::from),
            transfer_transaction_id: t.transfer_transaction_id.map(Str::from),
            matched_transaction_id: t.matched_transaction_id.map(Str::from),
            import_id: t.import_id.map(Str::from),
            import_payee_name: t.import_payee_name.map(Str::from),
            import_payee_name_original: t.import_payee_name_original.map(Str::from),
            debt_transaction_type: t.debt_transaction_type.map(Str::from),
            deleted: t.deleted,
        }
    }
}

impl From<ScheduledTransaction> for ScheduledTransactionSummary {
    /// The flat shape of the plan export.
    fn from(s: ScheduledTransaction) -> Self {
        ScheduledTransactionSummary {
            id: s.id.into(),
            date_first: s.date_first.into(),
            date_next: s.date_next.into(),
            frequency: s.frequency.into(),
            amount: s.amount,
            memo: s.memo.map(Str::from),
            flag_color: s.flag_color.map(Str::from),
            flag_name: s.flag_name.map(Str::from),
            account_id: s.account_id.into(),
            payee_id: s.payee_id.map(Str::from),
            category_id: s.category_id.map(Str::from),
            transfer_account_id: s.transfer_account_id.map(Str::from),
            deleted: s.deleted,
        }
    }
}
