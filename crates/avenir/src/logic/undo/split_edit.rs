//! Undoing a `split_edit` (`docs/writes/edit_split.md`): the old transaction is created again
//! from YNAB's record of it (its tombstone, with its lines), then the one the edit created is
//! deleted — unless that one changed since (its account, date, amount or lines), a conflict left
//! alone.
//!
//! Partly applied (an unfinished intent, or an interrupted undo, D14): a new transaction not
//! found means the edit never created it; an old one still live means it was never deleted
//! (only the duplicate goes); an old one already back (a live transaction with its fields and
//! lines) is not created twice.

use super::Refusal;
use super::per_kind::{Entry, Planned, Reads, UndoKind};
use super::record::from_details;
use super::{Applied, Revert, UndoPlan, live_transaction, recreation};
use crate::logic::assignable::CategoryIndex;
use crate::logic::names::PlanNames;
use crate::logic::split_edit::{live_digest, shown_line};
use crate::money::MoneyFormat;
use crate::text::safe;
use serde_json::json;
use ynab::models::{PlanDetail, Transaction, TransactionSummary};

/// What a `split_edit` journaled (or its intent noted): its record.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SplitEditDone {
    pub old_id: String,
    /// `None` in an intent: the new transaction is recognised by its digest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_id: Option<String>,
    pub server_knowledge: i64,
    pub digest_salt: String,
    pub new_digest: String,
}

/// The lines of a transaction, compared without ids: (amount, category, memo, payee), sorted.
fn lines_of_plan(plan: &PlanDetail, id: &str) -> Vec<(i64, Option<String>, Option<String>)> {
    let mut lines: Vec<_> = plan
        .subtransactions
        .iter()
        .filter(|s| s.transaction_id == id && !s.deleted)
        .map(|s| (s.amount, s.category_id.clone(), s.memo.clone()))
        .collect();
    lines.sort();
    lines
}

/// A live transaction other than `skip` that is `old` come back: same account, date, amount,
/// payee, memo and lines — an interrupted undo's recreation.
fn already_back<'a>(
    old: &Transaction,
    skip: &[&str],
    plan: &'a PlanDetail,
) -> Option<&'a TransactionSummary> {
    // A tombstone's lines are all marked deleted with it: every one is read, as `recreation` does.
    let mut wanted: Vec<_> = old
        .subtransactions
        .iter()
        .map(|s| (s.amount, s.category_id.clone(), s.memo.clone()))
        .collect();
    wanted.sort();
    plan.transactions.iter().find(|t| {
        !t.deleted
            && !skip.contains(&t.id.as_str())
            && t.account_id == old.account_id
            && t.date == old.date
            && t.amount == old.amount
            && t.payee_id.as_deref() == old.payee_id.as_deref()
            && t.memo.as_deref() == old.memo.as_deref()
            && lines_of_plan(plan, &t.id) == wanted
    })
}

/// The transaction the edit created: by id (a journal line), else by digest (an intent); and
/// whether the one named by id changed since (or is gone).
fn created<'p>(
    done: &SplitEditDone,
    plan: &'p PlanDetail,
) -> (Option<&'p TransactionSummary>, bool) {
    let salt = done.digest_salt.as_str();
    let matches = |t: &&TransactionSummary| live_digest(salt, t, plan) == done.new_digest;
    match &done.new_id {
        Some(id) => match live_transaction(plan, id) {
            Some(t) if matches(&t) => (Some(t), false),
            _ => (None, true),
        },
        None => (
            plan.transactions
                .iter()
                .filter(|t| !t.deleted && t.id != done.old_id)
                .find(matches),
            false,
        ),
    }
}

fn revert(
    done: &SplitEditDone,
    recreate: Option<ynab::writes::NewTransaction>,
    delete: Option<String>,
) -> Revert {
    Revert::SplitEdit {
        recreate,
        delete,
        old_id: done.old_id.clone(),
    }
}

/// `split_edit`: `changed` holds the transactions changed since the edit's knowledge,
/// tombstones included (YNAB's record of the old transaction).
pub fn split_edit(
    done: &SplitEditDone,
    changed: &[Transaction],
    plan: &PlanDetail,
    fmt: &MoneyFormat,
    applied: Applied,
) -> UndoPlan {
    let old_id = done.old_id.as_str();
    let (new, new_changed) = created(done, plan);
    let old_live = live_transaction(plan, old_id);
    let tombstone = changed.iter().find(|t| t.id == old_id && t.deleted);
    let changed_id = done.new_id.clone().unwrap_or_else(|| old_id.to_string());
    let left_alone = |conflict: String| {
        UndoPlan::new(revert(done, None, None), vec![conflict], Vec::new(), String::new()).nothing_when(
            true,
            "The transaction changed since the edit (its date, amount or lines, or it is gone): left alone.",
        )
    };
    match (new, old_live, tombstone) {
        (None, _, _) if new_changed => left_alone(changed_id),
        // Partly applied: nothing was created, the old one is as it was.
        (None, Some(_), _) if applied == Applied::Partly => UndoPlan::new(
            revert(done, None, None),
            Vec::new(),
            Vec::new(),
            String::new(),
        )
        .nothing_when(true, "Nothing to undo: the transaction is as it was.")
        .untouched(vec![old_id.to_string()]),
        (None, _, _) => left_alone(changed_id),
        // The old one was never deleted: only the copy goes.
        (Some(new), Some(old), _) => copy_only(done, new, old, plan, fmt),
        (Some(_), None, None) => left_alone(old_id.to_string()),
        (Some(new), None, Some(old)) => old_lines_back(done, (new, old), plan, fmt, applied),
    }
}

/// An interrupted edit that created its copy but never deleted the original: the copy goes.
fn copy_only(
    done: &SplitEditDone,
    new: &TransactionSummary,
    old: &TransactionSummary,
    plan: &PlanDetail,
    fmt: &MoneyFormat,
) -> UndoPlan {
    let names = PlanNames::new(plan);
    let question = format!(
        "Undo: delete {}, the copy of {} {} {} the interrupted edit created? The original {} is still there.",
        new.id,
        old.date,
        safe(names.payee(old.payee_id.as_deref())),
        fmt.plain(old.amount),
        done.old_id
    );
    let reverts = vec![json!({"delete": new.id})];
    UndoPlan::new(
        revert(done, None, Some(new.id.clone().into())),
        Vec::new(),
        reverts,
        question,
    )
    .untouched(vec![done.old_id.clone()])
}

/// The edit as done: the old transaction created again with its old lines (unless an
/// interrupted undo already did), the one the edit created deleted.
fn old_lines_back(
    done: &SplitEditDone,
    (new, old): (&TransactionSummary, &Transaction),
    plan: &PlanDetail,
    fmt: &MoneyFormat,
    applied: Applied,
) -> UndoPlan {
    let old_id = done.old_id.as_str();
    let names = PlanNames::new(plan);
    let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
    let back = (applied == Applied::Partly)
        .then(|| already_back(old, &[old_id, &new.id], plan))
        .flatten();
    let recreate = back.is_none().then(|| recreation(old));
    let lines = old
        .subtransactions
        .iter()
        .map(|s| {
            let shown = shown_line(
                s.amount,
                s.category_id.as_deref(),
                s.memo.as_deref(),
                &index,
                fmt,
            );
            format!("- {shown}")
        })
        .collect();
    let question = format!(
        "Undo: put back the {} old lines of {} {} {}? The transaction is created again with them (a new id, no bank-import link) and {} is deleted.",
        old.subtransactions.len(),
        old.date,
        safe(names.payee(old.payee_id.as_deref())),
        fmt.plain(old.amount),
        new.id
    );
    let reverts = vec![
        json!({"recreate": old_id, "already_back": back.map(|t| t.id.clone())}),
        json!({"delete": new.id}),
    ];
    let mut planned = UndoPlan::new(
        revert(done, recreate, Some(new.id.clone().into())),
        Vec::new(),
        reverts,
        question,
    );
    planned.lines = lines;
    planned
}

impl UndoKind for SplitEditDone {
    const REVERTED: bool = true;
    const UNDONE: &'static str =
        "The old lines are back, on the transaction created again (a new id, no bank-import link).";

    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        from_details(entry.details)
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let changed = reads
            .transactions_since(Some(self.server_knowledge))
            .await?;
        let (plan, fmt, applied) = (reads.plan(), reads.fmt(), reads.applied());
        Ok(split_edit(&self, &changed, plan, fmt, applied).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fixtures::Fixture;
    use crate::logic::split_edit::live_digest;

    fn fixture() -> Fixture {
        let mut f = Fixture::new();
        f.account("acc", "Checking", true);
        f.group("g-day", "Everyday");
        f.category("c-food", "g-day", "Groceries");
        f.category("c-home", "g-day", "Household");
        f.tx("new", "2026-09-12", -1_000, "acc", "Market", None);
        f.line("new", -700, Some("c-food"), false);
        f.line("new", -300, Some("c-home"), false);
        f
    }

    fn tombstone(f: &Fixture) -> Transaction {
        let mut t: Transaction = serde_json::from_value(json!({
            "id": "old", "date": "2026-09-12", "amount": -1_000, "cleared": "cleared",
            "approved": true, "account_id": "acc", "deleted": true,
            "subtransactions": [
                {"id": "s1", "transaction_id": "old", "amount": -600, "category_id": "c-food", "deleted": true},
                {"id": "s2", "transaction_id": "old", "amount": -400, "category_id": "c-home", "deleted": true}
            ]
        }))
        .expect("a transaction");
        t.payee_id = f.plan.transactions[0].payee_id.clone().map(Into::into);
        t
    }

    fn done(f: &Fixture, new_id: Option<&str>) -> SplitEditDone {
        let new = &f.plan.transactions[0];
        SplitEditDone {
            old_id: "old".into(),
            new_id: new_id.map(str::to_string),
            server_knowledge: 1,
            digest_salt: "salt".into(),
            new_digest: live_digest("salt", new, &f.plan),
        }
    }

    #[test]
    fn the_old_lines_come_back_and_the_new_one_goes() {
        let f = fixture();
        let old = tombstone(&f);
        let fmt = MoneyFormat::default();
        let planned = split_edit(
            &done(&f, Some("new")),
            &[old],
            &f.plan,
            &fmt,
            Applied::Fully,
        );
        assert_eq!(planned.nothing, None);
        let Revert::SplitEdit {
            recreate, delete, ..
        } = &planned.revert
        else {
            panic!("a split_edit revert");
        };
        let recreate = recreate.as_ref().expect("recreated");
        assert_eq!(recreate.subtransactions.len(), 2);
        assert_eq!(recreate.subtransactions[0].amount, -600);
        assert_eq!(delete.as_deref(), Some("new"));
        assert_eq!(
            planned.lines,
            vec!["- -0.60 Groceries", "- -0.40 Household"]
        );
        // Recognised by digest from an intent, too.
        let old = tombstone(&f);
        let planned = split_edit(&done(&f, None), &[old], &f.plan, &fmt, Applied::Partly);
        assert!(matches!(
            planned.revert,
            Revert::SplitEdit {
                delete: Some(_),
                ..
            }
        ));
    }

    #[test]
    fn a_new_transaction_changed_since_is_left_alone() {
        let mut f = fixture();
        let d = done(&f, Some("new"));
        f.plan.subtransactions[0].amount = -800;
        f.plan.subtransactions[1].amount = -200;
        let planned = split_edit(
            &d,
            &[tombstone(&f)],
            &f.plan,
            &MoneyFormat::default(),
            Applied::Fully,
        );
        assert_eq!(planned.conflicts, vec!["new".to_string()]);
        assert!(planned.nothing.is_some());
    }

    #[test]
    fn partly_applied() {
        let f = fixture();
        let fmt = MoneyFormat::default();
        // Nothing created, the old one still there: not applied.
        let mut unrelated = fixture();
        unrelated.tx("old", "2026-09-12", -1_000, "acc", "Market", None);
        let mut d = done(&f, None);
        d.new_digest = "other".into();
        let planned = split_edit(&d, &[], &unrelated.plan, &fmt, Applied::Partly);
        assert_eq!(planned.untouched, vec!["old".to_string()]);
        assert!(planned.nothing.is_some());
        // Created, the old one not deleted: only the copy goes.
        let d = done(&unrelated, None);
        let planned = split_edit(&d, &[], &unrelated.plan, &fmt, Applied::Partly);
        assert!(matches!(
            &planned.revert,
            Revert::SplitEdit { recreate: None, delete: Some(id), .. } if id == "new"
        ));
    }
}
