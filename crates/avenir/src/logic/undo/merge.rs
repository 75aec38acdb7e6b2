//! The undo of a `merge` (`docs/writes/merge_payees.md`): each moved transaction and schedule
//! still on the payee it was merged into goes back to its former payee; one moved since is a
//! conflict, left alone and named. The payee merged into stays (YNAB's API deletes no payee).

use super::Refusal;
use super::per_kind::{Entry, Planned, Reads, UndoKind};
use super::record::from_details;
use super::{Applied, Revert, UndoPlan};
use crate::logic::merges::{Moved, undo_merge};
use crate::logic::names::PlanNames;
use crate::logic::updates::payee_name_digest;
use crate::text::safe;
use serde_json::json;
use ynab::models::PlanDetail;

/// A `merge`'s record: the transactions and schedules moved, each with its former payee, and the
/// payee they moved to — in an intent for a new payee, `null`, with its name's salted digest
/// instead (D31). A journal line also says whether that payee was new.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Merged {
    #[serde(deserialize_with = "Option::deserialize")]
    pub target_payee_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_payee: Option<bool>,
    pub transactions: Vec<crate::logic::merges::Moved>,
    pub scheduled: Vec<crate::logic::merges::Moved>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_name_digest: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest_salt: Option<String>,
}

impl Merged {
    /// The record as read: one that names no target payee at all is damaged.
    pub fn checked(self) -> Result<Merged, super::Refusal> {
        if self.target_payee_id.is_none() && self.target_name_digest.is_none() {
            return Err(super::details::damaged("target_payee_id", "a payee id"));
        }
        Ok(self)
    }

    /// What undo compares, borrowed.
    pub fn done(&self) -> MergeDone<'_> {
        MergeDone {
            transactions: &self.transactions,
            scheduled: &self.scheduled,
            target_payee_id: self.target_payee_id.as_deref(),
            target_name_digest: self.target_name_digest.as_deref(),
            digest_salt: self.digest_salt.as_deref(),
        }
    }
}

/// What the journal (or an unfinished intent) says a `merge` did.
#[derive(Debug, Clone, Copy)]
pub struct MergeDone<'a> {
    pub transactions: &'a [Moved],
    pub scheduled: &'a [Moved],
    pub target_payee_id: Option<&'a str>,
    pub target_name_digest: Option<&'a str>,
    pub digest_salt: Option<&'a str>,
}

/// The payee the items were merged into: by id, or an unfinished intent's new payee found by its
/// name's digest (D31).
fn target_of(done: &MergeDone<'_>, plan: &PlanDetail) -> Option<String> {
    match (done.target_payee_id, done.target_name_digest) {
        (Some(id), _) => Some(id.to_string()),
        (None, Some(digest)) => plan
            .payees
            .iter()
            .find(|p| !p.deleted && payee_name_digest(done.digest_salt, &p.name) == digest)
            .map(|p| p.id.to_string()),
        (None, None) => None,
    }
}

/// The question's lines: per former payee, how many transactions and schedules go back to it.
fn lines_per_payee(back: &crate::logic::merges::MergeBack, names: &PlanNames) -> Vec<String> {
    let mut per_payee: Vec<(String, usize, usize)> = Vec::new();
    let mut count =
        |from: &str, t: usize, s: usize| match per_payee.iter_mut().find(|(p, _, _)| p == from) {
            Some(entry) => {
                entry.1 += t;
                entry.2 += s;
            }
            None => per_payee.push((from.to_string(), t, s)),
        };
    for (_, from) in &back.transactions {
        count(from, 1, 0);
    }
    for (_, save) in &back.scheduled {
        count(save.payee_id.as_deref().unwrap_or_default(), 0, 1);
    }
    per_payee
        .iter()
        .map(|(from, t, s)| {
            format!(
                "- {t} transaction(s), {s} schedule(s) back to {}",
                safe(names.payee(Some(from)))
            )
        })
        .collect()
}

/// `merge`: move back what is still on the target.
pub fn merge(done: MergeDone<'_>, plan: &PlanDetail, applied: Applied) -> UndoPlan {
    let target = target_of(&done, plan);
    let back = undo_merge(
        plan,
        done.transactions,
        done.scheduled,
        target.as_deref(),
        applied.partly(),
    );
    let names = PlanNames::new(plan);
    let target_name = safe(names.payee(target.as_deref()));
    let lines = lines_per_payee(&back, &names);
    let mut reverts: Vec<serde_json::Value> = back
        .transactions
        .iter()
        .map(
            |(id, from)| json!({"transaction_id": id, "payee_before": target, "payee_after": from}),
        )
        .collect();
    reverts.extend(back.scheduled.iter().map(|(id, save)| {
        json!({"scheduled_transaction_id": id, "payee_before": target, "payee_after": save.payee_id})
    }));
    let question = format!(
        "Undo: move {} transaction(s) and {} schedule(s) back to their former payees? The payee {target_name} stays in YNAB (its API cannot delete a payee).",
        back.transactions.len(),
        back.scheduled.len()
    );
    let empty = back.transactions.is_empty() && back.scheduled.is_empty();
    let nothing = if back.conflicts.is_empty() {
        "Nothing to move back: every transaction and schedule is on its former payee.".to_string()
    } else {
        format!(
            "Nothing to move back: {} transaction(s) or schedule(s) are on another payee since; left alone.",
            back.conflicts.len()
        )
    };
    let mut planned = UndoPlan::new(
        Revert::Merge {
            transactions: back.transactions,
            scheduled: back.scheduled,
            target_name,
        },
        back.conflicts,
        reverts,
        question,
    )
    .nothing_when(empty, &nothing)
    .untouched(back.untouched);
    planned.lines = lines;
    planned
}

impl UndoKind for Merged {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "Transactions and schedules moved back to their former payees. The payee they were merged into stays in YNAB (its API cannot delete a payee).";

    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        from_details::<Merged>(entry.details).and_then(Merged::checked)
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        Ok(merge(self.done(), reads.plan(), reads.applied()).into())
    }
}
