//! Undoing a `split` (`docs/contract/writes.md` §9.9): YNAB's API cannot take a transaction's
//! lines away, but it can create and delete transactions, so the split transaction is created
//! again on one line, in the category it had before, and the split one is deleted — the same
//! route `edit_split` and its undo take. The transaction comes back with a new id and without its
//! bank-import link (YNAB gives neither back), which the question says.
//!
//! Left alone when it changed since: gone (deleted, or its split edited, which replaces it), no
//! longer split, or — for a line that holds its lines' digests — split otherwise. An interrupted
//! undo (D14) whose copy was already created is not created twice: only the split one is deleted.

use super::irreversible::SplitIntended;
use super::per_kind::{Entry, Landed, Planned, Reads, UndoKind};
use super::record::{from_details, to_details};
use super::{Applied, Refusal, Revert, UndoPlan, live_transaction};
use crate::logic::assignable::CategoryIndex;
use crate::logic::names::PlanNames;
use crate::money::MoneyFormat;
use crate::text::safe;
use serde::{Deserialize, Serialize};
use serde_json::json;
use ynab::models::{PlanDetail, TransactionSummary};
use ynab::writes::NewTransaction;

/// `split`'s journal line: the transaction split, its category before (present, `null` for
/// none) and, since undo reverts it, its lines by salted digest (D31), which tell a split edited
/// in YNAB's app since. Lines written before carry no digests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitDone {
    pub transaction_id: String,
    #[serde(deserialize_with = "Option::deserialize")]
    pub category_before: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_digests: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest_salt: Option<String>,
}

/// `split`, as undo reads it: a journal line is reverted; an intent is only read for whether it
/// landed, and journaled as it would have been (then the line is undone by naming it again).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitDetails {
    Intended(SplitIntended),
    Done(SplitDone),
}

impl UndoKind for SplitDetails {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "The transaction is back on one line, in its category before: created again (a new id, no bank-import link), the split one deleted.";

    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        match entry.from_intent {
            true => from_details(entry.details).map(SplitDetails::Intended),
            false => from_details(entry.details).map(SplitDetails::Done),
        }
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let (plan, fmt, applied) = (reads.plan(), reads.fmt(), reads.applied());
        Ok(match self {
            SplitDetails::Done(done) => split(&done, plan, fmt, applied).into(),
            SplitDetails::Intended(intended) => {
                let landing = super::split_landing(&intended, plan);
                let line = SplitDone {
                    transaction_id: intended.transaction_id,
                    category_before: intended.category_before,
                    line_digests: Some(intended.line_digests),
                    digest_salt: intended.digest_salt,
                };
                Planned::Landed(Landed {
                    landing,
                    line: to_details(&line),
                    reason: None,
                })
            }
        })
    }
}

/// The salted digests of a live transaction's lines, sorted.
pub(super) fn line_digests(plan: &PlanDetail, id: &str, salt: Option<&str>) -> Vec<String> {
    let mut lines: Vec<String> = plan
        .subtransactions
        .iter()
        .filter(|s| s.transaction_id == id && !s.deleted)
        .map(|s| {
            crate::logic::created::line_digest(
                salt,
                s.amount,
                s.category_id.as_deref(),
                s.memo.as_deref(),
            )
        })
        .collect();
    lines.sort();
    lines
}

/// The split transaction on one line, in `category`: every field but its id, its lines and its
/// import id.
fn unsplit(t: &TransactionSummary, category: Option<&str>) -> NewTransaction {
    NewTransaction {
        account_id: t.account_id.to_string(),
        date: t.date.to_string(),
        amount: t.amount,
        payee_id: t.payee_id.as_deref().map(str::to_string),
        payee_name: None,
        category_id: category.map(str::to_string),
        memo: t.memo.as_deref().map(str::to_string),
        cleared: Some(t.cleared.to_string()),
        approved: Some(t.approved),
        flag_color: t
            .flag_color
            .as_deref()
            .filter(|c| !c.is_empty())
            .map(str::to_string),
        import_id: None,
        subtransactions: Vec::new(),
    }
}

/// A live, unsplit transaction other than `split` with its account, date, amount, payee and memo
/// in `category`: an interrupted undo's copy.
fn already_back<'a>(
    split: &TransactionSummary,
    category: Option<&str>,
    plan: &'a PlanDetail,
) -> Option<&'a TransactionSummary> {
    plan.transactions.iter().find(|t| {
        !t.deleted
            && t.id != split.id
            && t.account_id == split.account_id
            && t.date == split.date
            && t.amount == split.amount
            && t.payee_id == split.payee_id
            && t.memo == split.memo
            && t.category_id.as_deref() == category
            && !plan
                .subtransactions
                .iter()
                .any(|s| s.transaction_id == t.id)
    })
}

/// Whether the transaction is still split as the operation split it.
fn still_split(done: &SplitDone, t: &TransactionSummary, plan: &PlanDetail) -> bool {
    let lines = line_digests(plan, &t.id, done.digest_salt.as_deref());
    if lines.is_empty() {
        return false;
    }
    match &done.line_digests {
        Some(wanted) => {
            let mut wanted = wanted.clone();
            wanted.sort();
            wanted == lines
        }
        // A line written before digests: any split of it is taken as the operation's.
        None => true,
    }
}

/// `split`: put the transaction back on one line in its category before, unless it changed.
pub fn split(done: &SplitDone, plan: &PlanDetail, fmt: &MoneyFormat, applied: Applied) -> UndoPlan {
    let id = done.transaction_id.as_str();
    let before = done.category_before.as_deref();
    let revert = |recreate, delete: Option<String>| Revert::SplitEdit {
        recreate,
        delete,
        old_id: id.to_string(),
    };
    let left_alone = |message: &str| {
        UndoPlan::new(
            revert(None, None),
            vec![id.to_string()],
            Vec::new(),
            String::new(),
        )
        .nothing_when(true, message)
    };
    let Some(t) = live_transaction(plan, id) else {
        return left_alone(
            "The transaction is gone since the split (deleted, or its split edited, which replaces it): left alone.",
        );
    };
    if !still_split(done, t, plan) {
        let unsplit_as_before = applied == Applied::Partly
            && line_digests(plan, id, None).is_empty()
            && t.category_id.as_deref() == before;
        if unsplit_as_before {
            return UndoPlan::new(revert(None, None), Vec::new(), Vec::new(), String::new())
                .nothing_when(true, "Nothing to undo: the transaction is as it was.")
                .untouched(vec![id.to_string()]);
        }
        return left_alone("The transaction's lines changed since the split: left alone.");
    }
    let back = (applied == Applied::Partly)
        .then(|| already_back(t, before, plan))
        .flatten();
    let recreate = back.is_none().then(|| unsplit(t, before));
    let names = PlanNames::new(plan);
    let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
    let category = before
        .and_then(|c| index.visible_name(c))
        .map_or_else(|| "no category".to_string(), safe);
    let question = format!(
        "Undo: put {} {} {} back on one line, in {category}? YNAB cannot remove a split's lines, so the transaction is created again without them (a new id, no bank-import link) and the split one is deleted.",
        t.date,
        safe(names.payee(t.payee_id.as_deref())),
        fmt.plain(t.amount),
    );
    let reverts = vec![json!({"unsplit": id, "category": before,
                              "already_back": back.map(|b| b.id.to_string())})];
    UndoPlan::new(
        revert(recreate, Some(id.to_string())),
        Vec::new(),
        reverts,
        question,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::created::line_digest;
    use crate::logic::fixtures::Fixture;

    /// A market receipt split into groceries and household, as `split_transaction` left it.
    fn split_fixture() -> (Fixture, SplitDone) {
        let mut f = Fixture::new();
        f.account("acc", "Checking", true);
        f.group("g-day", "Everyday");
        f.category("c-food", "g-day", "Groceries");
        f.category("c-home", "g-day", "Household");
        f.tx("t1", "2026-09-12", -1_000, "acc", "Market", None);
        f.line("t1", -700, Some("c-food"), false);
        f.line("t1", -300, Some("c-home"), false);
        let salt = "5a17";
        let done = SplitDone {
            transaction_id: "t1".into(),
            category_before: Some("c-food".into()),
            line_digests: Some(vec![
                line_digest(Some(salt), -700, Some("c-food"), None),
                line_digest(Some(salt), -300, Some("c-home"), None),
            ]),
            digest_salt: Some(salt.into()),
        };
        (f, done)
    }

    #[test]
    fn a_split_comes_back_on_one_line_in_its_category_before() {
        let (f, done) = split_fixture();
        let undo = split(&done, &f.plan, &MoneyFormat::default(), Applied::Fully);
        assert!(undo.nothing.is_none() && undo.conflicts.is_empty());
        let Revert::SplitEdit {
            recreate: Some(back),
            delete: Some(deleted),
            ..
        } = &undo.revert
        else {
            panic!("recreate and delete: {:?}", undo.revert);
        };
        assert_eq!(deleted, "t1");
        assert_eq!(back.amount, -1_000);
        assert_eq!(back.date, "2026-09-12");
        assert_eq!(back.category_id.as_deref(), Some("c-food"));
        assert!(back.subtransactions.is_empty() && back.import_id.is_none());
        assert!(undo.question.contains("back on one line, in Groceries?"));
    }

    #[test]
    fn lines_edited_since_or_a_transaction_gone_are_left_alone() {
        let (mut f, done) = split_fixture();
        f.plan.subtransactions[1].memo = Some("soap".into());
        let undo = split(&done, &f.plan, &MoneyFormat::default(), Applied::Fully);
        assert_eq!(undo.conflicts, ["t1"]);
        assert!(undo.nothing.is_some());
        let (mut f, done) = split_fixture();
        f.plan.transactions[0].deleted = true;
        let undo = split(&done, &f.plan, &MoneyFormat::default(), Applied::Fully);
        assert_eq!(undo.conflicts, ["t1"]);
    }

    #[test]
    fn an_interrupted_undo_s_copy_is_not_created_twice() {
        let (mut f, done) = split_fixture();
        f.tx(
            "t1-back",
            "2026-09-12",
            -1_000,
            "acc",
            "Market",
            Some("c-food"),
        );
        let undo = split(&done, &f.plan, &MoneyFormat::default(), Applied::Partly);
        assert!(matches!(
            undo.revert,
            Revert::SplitEdit { recreate: None, delete: Some(ref d), .. } if d == "t1"
        ));
    }
}
