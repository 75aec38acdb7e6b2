//! How an account is described to a person: the health of its bank link and the date it was
//! last reconciled, from YNAB's raw fields.

use ynab::models::Account;

/// YNAB's account types that hold a debt (`docs/contract/reads.md` §1.9); every other type is an
/// asset.
pub const DEBT_TYPES: [&str; 9] = [
    "creditCard",
    "lineOfCredit",
    "otherLiability",
    "mortgage",
    "autoLoan",
    "studentLoan",
    "personalLoan",
    "medicalDebt",
    "otherDebt",
];

/// Whether an account of YNAB type `kind` is a debt.
pub fn is_debt(kind: &str) -> bool {
    DEBT_TYPES.contains(&kind)
}

/// Whether YNAB imports the account's transactions, and whether that import works.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BankLink {
    /// Linked and importing.
    Healthy,
    /// Linked, but the connection is in error: nothing new comes in until it is fixed in YNAB.
    Broken,
    /// Not linked to a bank.
    None,
}

pub fn bank_link(account: &Account) -> BankLink {
    if account.direct_import_linked != Some(true) {
        BankLink::None
    } else if account.direct_import_in_error == Some(true) {
        BankLink::Broken
    } else {
        BankLink::Healthy
    }
}

/// `YYYY-MM-DD` of the last reconciliation, or `None` if never.
pub fn last_reconciled(account: &Account) -> Option<String> {
    account
        .last_reconciled_at
        .as_deref()
        .filter(|s| !s.is_empty())
        .map(|s| s.chars().take(10).collect())
}
