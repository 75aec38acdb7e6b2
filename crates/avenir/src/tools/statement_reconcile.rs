//! `import_statement` with `reconcile`: once the statement's missing lines are imported, the
//! account is reconciled at the bank's closing balance — only when that balance then agrees with
//! YNAB's cleared balance to the cent. The lines YNAB has but had not cleared are cleared on the
//! way (the bank shows them); every cleared transaction of the account becomes reconciled, as
//! `reconcile_account` does. When the balances would still differ, nothing is reconciled and the
//! answer names what is left of the gap in `compare_statement`'s parts.

use super::statement_input::Compared;
use crate::confirm::WriteFailure;
use crate::logic::statement_balance::Gap;
use crate::logic::undo::details::{Recognition, Reconciled};
use crate::money::{Amount, MoneyFormat};
use schemars::JsonSchema;
use serde::Serialize;
use ynab::models::{Milliunits, PlanDetail};
use ynab::writes::TransactionUpdate;

/// What the reconciliation asked with the import will do.
#[derive(Debug, Clone)]
pub struct Closing {
    /// The bank's closing balance and its day.
    pub amount: Milliunits,
    pub date: String,
    /// What is left of the gap once imported: 0 when the account agrees with the bank.
    pub left: Gap,
    /// Cleared transactions of the account, to mark reconciled.
    pub cleared: Vec<String>,
    /// Matched transactions still uncleared in YNAB, to mark reconciled too.
    pub uncleared: Vec<String>,
}

// What reconciling with the statement does or would leave, in the answer. (A plain comment: the
// struct is a member of the answer, described there.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReconcileEntry {
    /// The bank's balance at the end of the statement.
    pub statement_closing: Amount,
    /// YYYY-MM-DD.
    pub closing_date: String,
    /// true: reconciled (or, asked, to be) at statement_closing.
    pub reconciled: bool,
    /// Existing transactions marked reconciled (the imported lines besides).
    pub marked: usize,
    /// Of them, the ones uncleared in YNAB until now.
    pub cleared_on_the_way: usize,
    /// What would still differ after the import; 0 when reconciled.
    pub gap_left: Amount,
    /// Part of gap_left: matched pairs whose amounts differ.
    pub amounts_differ: Amount,
    /// Part of gap_left: cleared transactions the statement does not show (a duplicate?).
    pub extra_cleared_in_ynab: Amount,
    /// Part of gap_left: cleared transactions dated after the statement.
    pub cleared_after_statement: Amount,
    /// Part of gap_left: a difference from before the statement.
    pub older: Amount,
}

impl Closing {
    /// The reconciliation `compared` allows, when the statement gives a closing balance.
    pub fn of(compared: &Compared<'_>, plan: &PlanDetail, account_id: &str) -> Option<Self> {
        let closing = compared.statement.closing.as_ref()?;
        let left = compared.gap.clone()?;
        let mut cleared: Vec<String> = plan
            .transactions
            .iter()
            .filter(|t| t.account_id == account_id && !t.deleted && t.cleared == "cleared")
            .map(|t| t.id.to_string())
            .collect();
        cleared.sort();
        let mut uncleared: Vec<String> = compared
            .comparison
            .matched
            .iter()
            .filter_map(|&(_, t)| compared.ledger.get(t))
            .filter(|t| t.cleared == "uncleared")
            .map(|t| t.id.to_string())
            .collect();
        uncleared.sort();
        Some(Closing {
            amount: closing.amount,
            date: closing.date.format("%Y-%m-%d").to_string(),
            left,
            cleared,
            uncleared,
        })
    }

    /// Whether the account agrees with the bank once the lines are imported.
    pub fn agrees(&self) -> bool {
        self.left.after_import() == 0
    }

    /// Existing transactions it marks reconciled.
    pub fn marks(&self) -> impl Iterator<Item = &String> {
        self.cleared.iter().chain(&self.uncleared)
    }

    /// The question's line about the reconciliation.
    pub fn line(&self, fmt: &MoneyFormat) -> String {
        let marked = self.cleared.len() + self.uncleared.len();
        match self.agrees() {
            true => format!(
                "- then reconcile at the bank's closing balance of {} ({}): {marked} transaction(s) and the imported lines marked reconciled, {} of them uncleared until now",
                fmt.plain(self.amount),
                self.date,
                self.uncleared.len()
            ),
            false => format!(
                "- the account is NOT reconciled: YNAB would still differ from the bank's closing balance of {} by {}",
                fmt.plain(self.amount),
                fmt.plain(self.left.after_import())
            ),
        }
    }

    /// As the answer shows it.
    pub fn entry(&self) -> ReconcileEntry {
        let agrees = self.agrees();
        ReconcileEntry {
            statement_closing: Amount(self.amount),
            closing_date: self.date.clone(),
            reconciled: agrees,
            marked: if agrees { self.marks().count() } else { 0 },
            cleared_on_the_way: if agrees { self.uncleared.len() } else { 0 },
            gap_left: Amount(self.left.after_import()),
            amounts_differ: Amount(self.left.amounts_differ),
            extra_cleared_in_ynab: Amount(self.left.extra_cleared_in_ynab),
            cleared_after_statement: Amount(self.left.cleared_after_statement),
            older: Amount(self.left.older),
        }
    }

    /// The intent's record: what it marks, and how to recognise the lines it imports.
    pub fn intent(&self, recognition: Recognition) -> Reconciled {
        Reconciled {
            account_id: Some(recognition.account_id),
            reconciled_ids: self.marks().cloned().collect(),
            item_digests: Some(recognition.item_digests),
            digest_salt: recognition.digest_salt,
            server_knowledge: recognition.server_knowledge,
            uncleared_ids: self.uncleared.clone(),
            imports: true,
            ..Reconciled::default()
        }
    }

    /// The journal line's record once written.
    pub fn written(&self, account_id: &str, imported: &[String]) -> Reconciled {
        Reconciled {
            account_id: Some(account_id.to_string()),
            reconciled_ids: self.marks().cloned().collect(),
            imported_ids: imported.to_vec(),
            uncleared_ids: self.uncleared.clone(),
            imports: true,
            ..Reconciled::default()
        }
    }

    /// The marks to send: the existing transactions and the imported lines, reconciled.
    pub fn updates(&self, imported: &[String]) -> Vec<TransactionUpdate> {
        self.marks()
            .chain(imported)
            .map(|id| TransactionUpdate {
                id: id.clone(),
                cleared: Some("reconciled".into()),
                ..TransactionUpdate::default()
            })
            .collect()
    }
}

/// The imported lines are in YNAB but the marking failed: said as half done, with the way on.
pub fn half_done(imported: usize, error: ynab::Error) -> WriteFailure {
    if imported == 0 {
        return error.into();
    }
    WriteFailure::Unknown(format!(
        "Half done: {imported} statement line(s) were imported, then marking the account reconciled failed ({error}). Call import_statement again with reconcile=true to finish (it finds the lines in YNAB and imports nothing twice), or undo it (that deletes the imported lines)."
    ))
}
