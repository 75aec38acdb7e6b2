//! Renaming a payee (`docs/contract/writes.md` §9.7): which payee may be renamed, whether the new
//! name is one YNAB takes and no other payee holds, and how many transactions name the payee.
//!
//! The new name is trimmed first; every check, and the rename itself, uses the trimmed name.

use super::category_edits::breaks_one_line;
use crate::text::fold;
use ynab::models::{Payee, TransactionSummary};

/// The longest payee name YNAB takes, in code points.
pub const MAX_PAYEE_NAME: usize = 500;

/// Why a rename is refused, in the order the checks run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenameRefusal {
    /// The payee is an account's transfer payee.
    Transfer,
    /// No non-deleted payee has that id.
    NotInPlan,
    /// Nothing is left once trimmed.
    Empty,
    /// The trimmed name's length, over [`MAX_PAYEE_NAME`].
    TooLong(usize),
    /// The trimmed name holds a control, format, line or paragraph separator character.
    NotOneLine(String),
    /// Another payee already has the (trimmed) name, case-folded.
    Taken(String),
}

/// A rename that passed every check.
#[derive(Debug, Clone, PartialEq)]
pub struct Rename<'p> {
    pub payee: &'p Payee,
    /// The new name, trimmed.
    pub name: String,
    /// Non-deleted transactions naming the payee.
    pub transactions: usize,
}

impl Rename<'_> {
    /// The payee already has exactly that name (a change of case is a change).
    pub fn changes_nothing(&self) -> bool {
        self.payee.name == self.name
    }
}

/// Check renaming `payee_id` to `name` against the plan's payees and transactions.
pub fn plan_rename<'p>(
    payees: &'p [Payee],
    transactions: &[TransactionSummary],
    payee_id: &str,
    name: &str,
) -> Result<Rename<'p>, RenameRefusal> {
    let found = payees.iter().find(|p| p.id == payee_id && !p.deleted);
    let payee = match found {
        Some(p) if p.transfer_account_id.is_some() => return Err(RenameRefusal::Transfer),
        Some(p) => p,
        None => return Err(RenameRefusal::NotInPlan),
    };
    let name = name.trim();
    if name.is_empty() {
        return Err(RenameRefusal::Empty);
    }
    let length = name.chars().count();
    if length > MAX_PAYEE_NAME {
        return Err(RenameRefusal::TooLong(length));
    }
    if breaks_one_line(name) {
        return Err(RenameRefusal::NotOneLine(name.to_string()));
    }
    let folded = fold(name);
    let taken = payees
        .iter()
        .any(|p| !p.deleted && p.id != payee.id && fold(&p.name) == folded);
    if taken {
        return Err(RenameRefusal::Taken(name.to_string()));
    }
    let transactions = transactions
        .iter()
        .filter(|t| !t.deleted && t.payee_id.as_deref() == Some(payee_id))
        .count();
    Ok(Rename {
        payee,
        name: name.to_string(),
        transactions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payee(id: &str, name: &str, transfer: bool, deleted: bool) -> Payee {
        Payee {
            id: id.into(),
            name: name.into(),
            transfer_account_id: (transfer.then(|| "acc-savings".to_string())).map(Into::into),
            deleted,
        }
    }

    fn tx(payee_id: &str, deleted: bool) -> TransactionSummary {
        serde_json::from_value(serde_json::json!({
            "id": format!("tx-{payee_id}"), "date": "2026-09-18", "amount": -45000,
            "cleared": "cleared", "approved": true, "account_id": "acc",
            "payee_id": payee_id, "deleted": deleted
        }))
        .expect("a transaction")
    }

    fn payees() -> Vec<Payee> {
        vec![
            payee("rail", "RAIL CO", false, false),
            payee("stream", "STREAMFLIX", false, false),
            payee("transfer", "Transfer : Savings", true, false),
            payee("old", "Old shop", false, true),
        ]
    }

    #[test]
    fn transfer_and_unknown_payees_are_refused_first() {
        let p = payees();
        assert_eq!(
            plan_rename(&p, &[], "transfer", ""),
            Err(RenameRefusal::Transfer)
        );
        assert_eq!(
            plan_rename(&p, &[], "old", "x"),
            Err(RenameRefusal::NotInPlan)
        );
        assert_eq!(
            plan_rename(&p, &[], "nope", ""),
            Err(RenameRefusal::NotInPlan)
        );
    }

    #[test]
    fn the_new_name_is_trimmed_then_checked() {
        let p = payees();
        assert_eq!(
            plan_rename(&p, &[], "rail", " \t "),
            Err(RenameRefusal::Empty)
        );
        let long = format!("  {}  ", "é".repeat(501));
        assert_eq!(
            plan_rename(&p, &[], "rail", &long),
            Err(RenameRefusal::TooLong(501))
        );
        let just = format!(" {} ", "é".repeat(500));
        assert!(plan_rename(&p, &[], "rail", &just).is_ok());
        assert_eq!(
            plan_rename(&p, &[], "rail", "Rail\u{200b}Co"),
            Err(RenameRefusal::NotOneLine("Rail\u{200b}Co".into()))
        );
        assert_eq!(
            plan_rename(&p, &[], "rail", "Rail\nCo"),
            Err(RenameRefusal::NotOneLine("Rail\nCo".into()))
        );
        let trimmed = plan_rename(&p, &[], "rail", "\n Rail company \n").expect("one line");
        assert_eq!(trimmed.name, "Rail company");
    }

    #[test]
    fn another_payees_name_is_taken_whatever_its_case() {
        let p = payees();
        assert_eq!(
            plan_rename(&p, &[], "rail", " streamFLIX "),
            Err(RenameRefusal::Taken("streamFLIX".into()))
        );
        assert_eq!(
            plan_rename(&p, &[], "rail", "transfer : SAVINGS"),
            Err(RenameRefusal::Taken("transfer : SAVINGS".into()))
        );
        // a deleted payee's name is free, and so is the payee's own in another case
        assert!(plan_rename(&p, &[], "rail", "OLD SHOP").is_ok());
        let case = plan_rename(&p, &[], "rail", "Rail Co").expect("a change of case");
        assert!(!case.changes_nothing());
        let same = plan_rename(&p, &[], "rail", " RAIL CO ").expect("valid");
        assert!(same.changes_nothing());
    }

    #[test]
    fn transactions_naming_the_payee_are_counted() {
        let p = payees();
        let txs = [tx("rail", false), tx("rail", true), tx("stream", false)];
        let rename = plan_rename(&p, &txs, "rail", "Rail company").expect("valid");
        assert_eq!(rename.transactions, 1);
        assert_eq!(rename.payee.name, "RAIL CO");
    }
}
