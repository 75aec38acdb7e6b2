//! The undo of a `link` (`docs/writes/link_transfer.md`): two separate transactions again. The
//! kept side's former payee and category go back (YNAB then removes the transfer's mirror), and
//! the deleted side is recreated from YNAB's record of it (new id, no bank-import link). Both or
//! neither: when the kept side changed since, nothing is sent (recreating the deleted side beside
//! a transfer still in place would count the money twice).

use super::Refusal;
use super::per_kind::{Entry, Planned, Reads, UndoKind};
use super::record::from_details;
use super::{Applied, Revert, UndoPlan, live_transaction, recreation};
use serde_json::json;
use ynab::models::{PlanDetail, Transaction};

/// A `link`'s record: the kept side, its payee and category before (present, `null` for none),
/// the transfer payee it got, the deleted side, the mirror YNAB made of the kept side (once
/// known), and the plan's knowledge before, since which YNAB's record of the deleted side is read.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Linked {
    pub kept_id: String,
    #[serde(deserialize_with = "Option::deserialize")]
    pub payee_before: Option<String>,
    #[serde(deserialize_with = "Option::deserialize")]
    pub category_before: Option<String>,
    pub transfer_payee_id: String,
    pub deleted_id: String,
    #[serde(default)]
    pub mirror_id: Option<String>,
    pub server_knowledge: i64,
}

impl Linked {
    /// What undo compares, borrowed.
    pub fn done(&self) -> LinkDone<'_> {
        LinkDone {
            kept_id: &self.kept_id,
            payee_before: self.payee_before.as_deref(),
            category_before: self.category_before.as_deref(),
            transfer_payee_id: &self.transfer_payee_id,
            deleted_id: &self.deleted_id,
        }
    }
}

/// What the journal (or an unfinished intent) says a `link` did.
#[derive(Debug, Clone, Copy)]
pub struct LinkDone<'a> {
    pub kept_id: &'a str,
    pub payee_before: Option<&'a str>,
    pub category_before: Option<&'a str>,
    pub transfer_payee_id: &'a str,
    pub deleted_id: &'a str,
}

/// `link`: `changed` holds the transactions changed since the link's knowledge, tombstones
/// included (YNAB's record of the deleted side).
pub fn link(
    done: LinkDone<'_>,
    changed: &[Transaction],
    plan: &PlanDetail,
    applied: Applied,
) -> UndoPlan {
    let kept = live_transaction(plan, done.kept_id);
    let kept_linked = kept.is_some_and(|t| t.payee_id.as_deref() == Some(done.transfer_payee_id));
    let kept_before = kept.is_some_and(|t| t.payee_id.as_deref() == done.payee_before);
    let tombstone = changed
        .iter()
        .find(|t| t.id == done.deleted_id && t.deleted);
    let other_live = live_transaction(plan, done.deleted_id).is_some();
    let (mut conflicts, mut untouched) = (Vec::new(), Vec::new());
    let mut patch = None;
    let mut recreate = None;
    if kept_linked {
        patch = Some((
            done.kept_id.to_string(),
            done.payee_before.map(str::to_string),
            done.category_before.map(str::to_string),
        ));
        match (tombstone, other_live) {
            (_, true) if applied == Applied::Partly => untouched.push(done.deleted_id.to_string()),
            (Some(t), false) => recreate = Some(recreation(t)),
            _ => conflicts.push(done.deleted_id.to_string()),
        }
    } else if applied == Applied::Partly && kept_before && other_live {
        untouched.push(done.kept_id.to_string());
        untouched.push(done.deleted_id.to_string());
    } else {
        conflicts.push(done.kept_id.to_string());
    }
    let mut reverts = Vec::new();
    if let Some((id, payee, category)) = &patch {
        reverts.push(
            json!({"transaction_id": id, "payee_before": done.transfer_payee_id,
                            "payee_after": payee, "category_after": category}),
        );
    }
    if recreate.is_some() {
        reverts.push(json!({"recreate": done.deleted_id}));
    }
    let question = if recreate.is_some() {
        "Undo: make the transfer two separate transactions again? The kept one gets its former payee and category back (YNAB removes the transfer's other side), and the deleted one is recreated, with a new id and without its bank-import link.".to_string()
    } else {
        "Undo: make the transfer an ordinary transaction again? The kept one gets its former payee and category back (YNAB removes the transfer's other side).".to_string()
    };
    let empty = patch.is_none();
    let nothing = if conflicts.is_empty() {
        "Nothing to undo: the two transactions are separate.".to_string()
    } else {
        format!(
            "Nothing to undo: transaction {} changed since; left alone.",
            conflicts.join(", ")
        )
    };
    UndoPlan::new(
        Revert::Link { patch, recreate },
        conflicts,
        reverts,
        question,
    )
    .nothing_when(empty, &nothing)
    .untouched(untouched)
}

impl UndoKind for Linked {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "The transfer is two separate transactions again; the deleted one came back with a new id and without its bank-import link.";

    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        from_details(entry.details)
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let changed = reads
            .transactions_since(Some(self.server_knowledge))
            .await?;
        Ok(link(self.done(), &changed, reads.plan(), reads.applied()).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn tx(id: &str, payee: &str, deleted: bool) -> Value {
        json!({"id": id, "date": "2026-09-10", "amount": 250000, "cleared": "uncleared",
               "approved": true, "account_id": "sav", "payee_id": payee, "deleted": deleted})
    }

    fn plan(kept_payee: &str, other_live: bool) -> PlanDetail {
        let mut transactions = vec![
            json!({"id": "kept", "date": "2026-09-10", "amount": -250000,
            "cleared": "cleared", "approved": true, "account_id": "chk", "payee_id": kept_payee,
            "deleted": false}),
        ];
        if other_live {
            transactions.push(tx("other", "p-in", false));
        }
        serde_json::from_value(json!({"id": "p", "name": "Plan", "transactions": transactions}))
            .expect("a plan")
    }

    fn done() -> LinkDone<'static> {
        LinkDone {
            kept_id: "kept",
            payee_before: Some("p-out"),
            category_before: Some("c"),
            transfer_payee_id: "to-sav",
            deleted_id: "other",
        }
    }

    fn tombstone() -> Vec<Transaction> {
        vec![serde_json::from_value(tx("other", "p-in", true)).expect("a tombstone")]
    }

    #[test]
    fn a_linked_transfer_is_separated_and_the_deleted_side_recreated() {
        let planned = link(done(), &tombstone(), &plan("to-sav", false), Applied::Fully);
        assert_eq!(planned.nothing, None);
        let Revert::Link { patch, recreate } = planned.revert else {
            panic!("a link revert");
        };
        assert_eq!(
            patch,
            Some(("kept".into(), Some("p-out".into()), Some("c".into())))
        );
        let recreated = recreate.expect("recreated");
        assert_eq!(
            (recreated.amount, recreated.payee_id.as_deref()),
            (250000, Some("p-in"))
        );
        assert_eq!(recreated.cleared.as_deref(), Some("uncleared"));
        assert_eq!(recreated.import_id, None);
    }

    #[test]
    fn the_kept_side_changed_since_leaves_both_alone() {
        let planned = link(
            done(),
            &tombstone(),
            &plan("someone", false),
            Applied::Fully,
        );
        assert!(planned.nothing.is_some());
        assert_eq!(planned.conflicts, vec!["kept".to_string()]);
        assert!(matches!(
            planned.revert,
            Revert::Link {
                patch: None,
                recreate: None
            }
        ));
    }

    #[test]
    fn an_unfinished_link_reverts_what_landed() {
        // The DELETE never landed: only the kept side goes back.
        let planned = link(done(), &[], &plan("to-sav", true), Applied::Partly);
        assert_eq!(planned.untouched, vec!["other".to_string()]);
        assert!(matches!(
            planned.revert,
            Revert::Link {
                patch: Some(_),
                recreate: None
            }
        ));
        // Nothing landed.
        let planned = link(done(), &[], &plan("p-out", true), Applied::Partly);
        assert!(planned.nothing.is_some());
        assert!(planned.conflicts.is_empty());
    }
}
