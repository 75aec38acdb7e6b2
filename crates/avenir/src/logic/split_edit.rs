//! Replacing the lines of an existing split (`docs/writes/edit_split.md`): whether the
//! transaction can be edited, the new lines (the line rules are `split_transaction`'s, from
//! [`super::split::check_lines`]), the transaction recreated with them, and the salted digest
//! that recognises it later (D31).
//!
//! YNAB's API cannot change a split's lines, so `edit_split` creates the transaction again with
//! the new lines and deletes the old one. Pure: nothing here reads or writes YNAB.

use super::assignable::CategoryIndex;
use super::created::{digest, line_digest};
use super::names::{PlanNames, SplitLines};
use super::split::{Line, LineAsked, check_lines};
use crate::money::MoneyFormat;
use serde_json::json;
use ynab::models::{Milliunits, PlanDetail, SubTransaction, TransactionSummary};
use ynab::writes::{NewSubTransaction, NewTransaction};

/// A line as asked for: `split_transaction`'s, and an optional payee.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditLine {
    pub line: LineAsked,
    pub payee_id: Option<String>,
}

/// An edit that passed every check (names as stored: apply the display rule to show them).
#[derive(Debug, Clone, PartialEq)]
pub struct SplitEdit<'a> {
    pub transaction: &'a TransactionSummary,
    pub payee: &'a str,
    pub account: &'a str,
    /// The lines it has now, in YNAB's order.
    pub before: Vec<&'a SubTransaction>,
    /// The new lines, in the order asked.
    pub after: Vec<Line<'a>>,
    /// The new lines' payees, in the same order.
    pub payees: Vec<Option<String>>,
}

/// A line compared for "unchanged": amount, category, memo, payee.
type Key = (Milliunits, Option<String>, Option<String>, Option<String>);

fn sorted(mut keys: Vec<Key>) -> Vec<Key> {
    keys.sort();
    keys
}

/// Check an edit of `transaction_id`'s split into `lines`, in the spec's order; the first rule
/// broken is the tool's message.
pub fn check_edit<'a>(
    plan: &'a PlanDetail,
    transaction_id: &str,
    lines: &[EditLine],
    fmt: &MoneyFormat,
) -> Result<SplitEdit<'a>, String> {
    let id = transaction_id;
    let Some(tx) = plan.transactions.iter().find(|t| t.id == id) else {
        return Err(format!(
            "Transaction {id} is not in this plan: use a transaction_id from find_transactions."
        ));
    };
    if tx.deleted {
        return Err(format!(
            "Transaction {id} was deleted in YNAB: there is nothing to edit."
        ));
    }
    let splits = SplitLines::new(&plan.subtransactions);
    let before: Vec<&SubTransaction> = splits.live(id).collect();
    if before.is_empty() {
        return Err(format!(
            "Transaction {id} is not split: to split it, use split_transaction."
        ));
    }
    let on_budget = plan
        .accounts
        .iter()
        .find(|a| a.id == tx.account_id)
        .is_some_and(|a| a.on_budget);
    if !on_budget {
        return Err(format!(
            "Transaction {id} is on an off-budget account: YNAB does not split those."
        ));
    }
    if tx.transfer_account_id.is_some() || before.iter().any(|l| l.transfer_account_id.is_some()) {
        return Err(format!(
            "Transaction {id} is a transfer or has a transfer line: recreating it would recreate the transfer. Change its lines in YNAB."
        ));
    }
    if lines.len() < 2 {
        return Err(
            "Give at least two lines: YNAB turns a split of one line into an ordinary transaction, which edit_split does not make. To give the whole transaction one category, change it in YNAB."
                .into(),
        );
    }
    let asked: Vec<LineAsked> = lines.iter().map(|l| l.line.clone()).collect();
    let after = check_lines(plan, &asked, tx.amount, fmt)?;
    check_line_payees(plan, lines)?;
    if same_lines(&before, lines) {
        return Err(format!(
            "These are the lines transaction {id} has already: nothing to change."
        ));
    }
    let names = PlanNames::new(plan);
    Ok(SplitEdit {
        transaction: tx,
        payee: names.payee(tx.payee_id.as_deref()),
        account: names.account(&tx.account_id),
        before,
        after,
        payees: lines.iter().map(|l| l.payee_id.clone()).collect(),
    })
}

/// Each payee a line names: in the plan, and not a transfer payee.
fn check_line_payees(plan: &PlanDetail, lines: &[EditLine]) -> Result<(), String> {
    for payee_id in lines.iter().filter_map(|l| l.payee_id.as_deref()) {
        match plan.payees.iter().find(|p| p.id == payee_id && !p.deleted) {
            None => {
                return Err(format!(
                    "Payee {payee_id} is not in this plan: use a payee_id from list_payees, or leave payee_id out."
                ));
            }
            Some(p) if p.transfer_account_id.is_some() => {
                return Err(format!(
                    "Payee {payee_id} is a transfer payee: a line of edit_split cannot be a transfer. Leave payee_id out."
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// Whether `lines` are the lines the split has already, in any order.
fn same_lines(before: &[&SubTransaction], lines: &[EditLine]) -> bool {
    let now = sorted(
        before
            .iter()
            .map(|l| {
                (
                    l.amount,
                    l.category_id.clone(),
                    l.memo.clone().filter(|m| !m.is_empty()),
                    l.payee_id.clone(),
                )
            })
            .collect(),
    );
    let asked_keys = sorted(
        lines
            .iter()
            .map(|l| {
                (
                    l.line.amount,
                    Some(l.line.category_id.clone()),
                    l.line.memo.clone(),
                    l.payee_id.clone(),
                )
            })
            .collect(),
    );
    now == asked_keys
}

impl SplitEdit<'_> {
    /// The transaction as it is created again: every field kept but the id and the import link,
    /// with the new lines.
    pub fn recreation(&self) -> NewTransaction {
        let lines = self
            .after
            .iter()
            .zip(&self.payees)
            .map(|(l, payee_id)| NewSubTransaction {
                amount: l.amount,
                payee_id: payee_id.clone(),
                payee_name: None,
                category_id: Some(l.category_id.clone()),
                memo: l.memo.clone(),
            })
            .collect();
        recreated(self.transaction, lines)
    }
}

/// `t` created again with `lines`: account, date, amount, payee, memo, cleared, approved and
/// flag kept; no category on the parent (a split has none) and no import id.
pub fn recreated(t: &TransactionSummary, lines: Vec<NewSubTransaction>) -> NewTransaction {
    NewTransaction {
        account_id: t.account_id.clone().into(),
        date: t.date.clone().into(),
        amount: t.amount,
        payee_id: t.payee_id.clone().map(Into::into),
        payee_name: None,
        category_id: None,
        memo: t.memo.clone().map(Into::into),
        cleared: Some(t.cleared.clone().into()),
        approved: Some(t.approved),
        flag_color: (t.flag_color.clone().filter(|c| !c.is_empty())).map(Into::into),
        import_id: None,
        subtransactions: lines,
    }
}

/// The salted digest of a split (D31): account, date, amount and its lines in any order — what
/// recognises the transaction an edit created, and tells whether it changed since.
pub fn split_digest(
    salt: &str,
    account_id: &str,
    date: &str,
    amount: Milliunits,
    lines: &[(Milliunits, Option<&str>, Option<&str>)],
) -> String {
    let mut digests: Vec<String> = lines
        .iter()
        .map(|(amount, category, memo)| line_digest(None, *amount, *category, *memo))
        .collect();
    digests.sort();
    digest(Some(salt), &json!([account_id, date, amount, digests]))
}

/// [`split_digest`] of a transaction about to be created.
pub fn new_digest(salt: &str, t: &NewTransaction) -> String {
    let lines: Vec<_> = t
        .subtransactions
        .iter()
        .map(|l| (l.amount, l.category_id.as_deref(), l.memo.as_deref()))
        .collect();
    split_digest(salt, &t.account_id, &t.date, t.amount, &lines)
}

/// [`split_digest`] of a transaction of the plan, with its live lines.
pub fn live_digest(salt: &str, t: &TransactionSummary, plan: &PlanDetail) -> String {
    let lines: Vec<_> = plan
        .subtransactions
        .iter()
        .filter(|s| s.transaction_id == t.id && !s.deleted)
        .map(|s| (s.amount, s.category_id.as_deref(), s.memo.as_deref()))
        .collect();
    split_digest(salt, &t.account_id, &t.date, t.amount, &lines)
}

/// A line as the question shows it: `{amount} {category}`, then ` ({memo})` — names and memo
/// made safe; a category no longer visible shows as `(no category)`.
pub fn shown_line(
    amount: Milliunits,
    category_id: Option<&str>,
    memo: Option<&str>,
    index: &CategoryIndex,
    fmt: &MoneyFormat,
) -> String {
    let category = category_id
        .and_then(|c| index.visible_name(c))
        .map(crate::text::safe)
        .unwrap_or_else(|| "(no category)".to_string());
    let memo = memo.map(crate::text::safe).filter(|m| !m.is_empty());
    match memo {
        Some(m) => format!("{} {category} ({m})", fmt.plain(amount)),
        None => format!("{} {category}", fmt.plain(amount)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fixtures::Fixture;

    fn fixture() -> Fixture {
        let mut f = Fixture::new();
        f.account("acc", "Checking", true);
        f.account("track", "Brokerage", false);
        f.account("save", "Savings", true);
        f.group("g-int", "Internal Master Category");
        f.category("c-unc", "g-int", "Uncategorized");
        f.group("g-day", "Everyday");
        f.category("c-food", "g-day", "Groceries");
        f.category("c-home", "g-day", "Household");
        f.group("g-cc", "Credit Card Payments");
        f.category("c-visa", "g-cc", "Visa");
        f.tx("plain", "2026-09-12", -1_000, "acc", "X", Some("c-food"));
        f.tx("split", "2026-09-12", -1_000, "acc", "Market", None);
        f.line("split", -600, Some("c-food"), false);
        f.line("split", -400, Some("c-home"), false);
        f.tx("gone", "2026-09-12", -1_000, "acc", "X", None).deleted = true;
        f.tx("tracked", "2026-09-12", -1_000, "track", "X", None);
        f.line("tracked", -1_000, Some("c-food"), false);
        f.tx("xfer", "2026-09-12", -1_000, "acc", "", None)
            .transfer_account_id = Some("track".into());
        f.line("xfer", -1_000, Some("c-food"), false);
        f
    }

    fn line(amount: Milliunits, category: &str) -> EditLine {
        EditLine {
            line: LineAsked {
                amount,
                category_id: category.into(),
                memo: None,
            },
            payee_id: None,
        }
    }

    fn error(tx: &str, lines: &[EditLine]) -> String {
        let f = fixture();
        check_edit(&f.plan, tx, lines, &MoneyFormat::default()).expect_err("refused")
    }

    #[test]
    fn every_refusal_in_order() {
        let two = [line(-500, "c-food"), line(-500, "c-home")];
        assert_eq!(
            error("nope", &two),
            "Transaction nope is not in this plan: use a transaction_id from find_transactions."
        );
        assert_eq!(
            error("gone", &two),
            "Transaction gone was deleted in YNAB: there is nothing to edit."
        );
        assert_eq!(
            error("plain", &two),
            "Transaction plain is not split: to split it, use split_transaction."
        );
        assert_eq!(
            error("tracked", &two),
            "Transaction tracked is on an off-budget account: YNAB does not split those."
        );
        assert!(error("xfer", &two).starts_with("Transaction xfer is a transfer"));
        assert!(error("split", &[line(-1_000, "c-food")]).starts_with("Give at least two lines"));
        // split_transaction's line rules, its messages
        assert_eq!(
            error("split", &[line(-1_000, "c-food"), line(0, "c-home")]),
            "A line is zero: leave it out."
        );
        assert_eq!(
            error("split", &[line(-1_000, "c-visa"), line(-1, "c-food")]),
            "Category c-visa pays a credit card: YNAB ignores it on a transaction. Choose the category of what was paid for."
        );
        assert_eq!(
            error("split", &[line(-700, "c-food"), line(-200, "c-home")]),
            "The lines add up to -0.90, the transaction is -1.00: they must match to the cent."
        );
        let mut with_payee = line(-500, "c-home");
        with_payee.payee_id = Some("nobody".into());
        assert!(
            error("split", &[line(-500, "c-food"), with_payee])
                .starts_with("Payee nobody is not in this plan")
        );
        // the same lines in another order are unchanged
        assert_eq!(
            error("split", &[line(-400, "c-home"), line(-600, "c-food")]),
            "These are the lines transaction split has already: nothing to change."
        );
    }

    #[test]
    fn the_recreation_keeps_every_field_but_the_lines() {
        let mut f = fixture();
        let t = f
            .plan
            .transactions
            .iter_mut()
            .find(|t| t.id == "split")
            .expect("split");
        t.flag_color = Some("red".into());
        t.memo = Some("receipt".into());
        let plan = f.plan;
        let lines = [line(-700, "c-food"), line(-300, "c-home")];
        let edit = check_edit(&plan, "split", &lines, &MoneyFormat::default()).expect("valid");
        assert_eq!(edit.before.len(), 2);
        let new = edit.recreation();
        assert_eq!(new.amount, -1_000);
        assert_eq!(new.memo.as_deref(), Some("receipt"));
        assert_eq!(new.flag_color.as_deref(), Some("red"));
        assert_eq!(new.category_id, None);
        assert_eq!(new.import_id, None);
        assert_eq!(new.subtransactions[0].amount, -700);
        // The digest reads the lines in any order, and differs from the old lines'.
        let old = plan
            .transactions
            .iter()
            .find(|t| t.id == "split")
            .expect("split");
        assert_ne!(new_digest("s", &new), live_digest("s", old, &plan));
        let mut reordered = new.clone();
        reordered.subtransactions.reverse();
        assert_eq!(new_digest("s", &new), new_digest("s", &reordered));
        assert_ne!(new_digest("s", &new), new_digest("t", &new));
    }
}
