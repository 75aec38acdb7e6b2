//! [`UndoKind`] for the kinds whose undo is one function of `logic::undo` (`mod.rs`): each record
//! is read back from its line or intent, and its `now` reads what that function compares.

use super::Refusal;
use super::details::{
    Approved, Budgeted, Categorized, CategoryEdit, Created, CreatedIds, Deleted, Flagged, Moved,
    PayeeRenamed, Reconciled, Reconciliation, TargetDetails, TargetSet,
};
use super::per_kind::{Entry, Landed, Planned, Reads, UndoKind, recognise};
use super::record::{from_details, to_details};
use serde_json::Value;

impl UndoKind for Categorized {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "Previous categories restored.";

    /// An intent carries its moves in its details; a journal line, typed, beside them.
    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        if entry.from_intent {
            return from_details(entry.details);
        }
        Ok(Categorized { moves: entry.moves })
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let (plan, fmt) = (reads.plan(), reads.fmt());
        Ok(super::categorize(&self.moves, plan, fmt, reads.applied()).into())
    }
}

impl UndoKind for Budgeted {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "Budgeted amount restored.";

    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        from_details(entry.details)
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let categories = reads.month(self.month).await?;
        let change = self.change();
        let (fmt, applied) = (reads.fmt(), reads.applied());
        Ok(super::budget(self.month, &change, &categories, fmt, applied).into())
    }
}

impl UndoKind for Moved {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "Both amounts restored.";

    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        from_details(entry.details)
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let categories = reads.month(self.month).await?;
        let [source, target] = &self.changes;
        let (fmt, applied) = (reads.fmt(), reads.applied());
        Ok(super::move_money(self.month, source, target, &categories, applied, fmt).into())
    }
}

impl UndoKind for Created {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "Created transactions deleted.";

    /// A journal line lists the ids; an intent written before YNAB gave them, their digests.
    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        let Entry {
            details,
            from_intent,
            ..
        } = entry;
        if from_intent && details.get("transaction_ids").is_none() {
            return from_details(details).map(Created::ByDigest);
        }
        from_details(details).map(|CreatedIds { transaction_ids }| Created::Ids(transaction_ids))
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let ids = match self {
            Created::Ids(ids) => ids,
            Created::ByDigest(recognition) => recognise(reads, &recognition).await?,
        };
        Ok(super::create(ids, reads.plan(), reads.applied()).into())
    }
}

impl UndoKind for Flagged {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "Flags restored.";

    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        from_details(entry.details)
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        Ok(super::flag(&self.changes, reads.plan(), reads.applied()).into())
    }
}

impl UndoKind for PayeeRenamed {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "The payee's previous name is back.";

    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        from_details(entry.details)
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let PayeeRenamed { payee_id, from, to } = &self;
        Ok(super::payee(payee_id, from, to, reads.plan(), reads.applied()).into())
    }
}

impl UndoKind for Reconciliation {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "Reconciliation undone.";

    /// Only an intent recognises what it created by digest; a line names it.
    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        let record: Reconciled = from_details(entry.details)?;
        Ok(Reconciliation {
            recognition: match entry.from_intent {
                true => record.recognition()?,
                false => None,
            },
            imports: record.imports,
            reconciled_ids: record.reconciled_ids,
            made: super::Made {
                adjustment: record.adjustment_id,
                imported: record.imported_ids,
                uncleared: record.uncleared_ids,
            },
        })
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let mut made = self.made;
        if let Some(recognition) = &self.recognition {
            let found = recognise(reads, recognition).await?;
            match self.imports {
                true => made.imported.extend(found),
                false => made.adjustment = made.adjustment.or(found.into_iter().next()),
            }
        }
        let (plan, applied) = (reads.plan(), reads.applied());
        Ok(super::reconcile(self.reconciled_ids, made, plan, applied).into())
    }
}

impl UndoKind for CategoryEdit {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "Previous name and group restored.";

    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        from_details(entry.details)
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        Ok(super::category(&self, reads.plan(), reads.applied()).into())
    }
}

impl UndoKind for TargetDetails {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "Target restored.";

    /// Restorable when its `undo` holds the fields; otherwise an intent is only read for whether
    /// it landed, and a journal line cannot be undone.
    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        let set: TargetSet = from_details(entry.details)?;
        let TargetSet {
            category_id,
            before,
            after,
            undo,
        } = set;
        match undo.filter(Value::is_object) {
            Some(fields) => Ok(TargetDetails::Restorable {
                category_id,
                before,
                after,
                fields,
            }),
            None if entry.from_intent => Ok(TargetDetails::Unrestorable {
                category_id,
                before,
                after,
            }),
            None => Err(Refusal::TargetNotRestorable),
        }
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let (plan, fmt, applied) = (reads.plan(), reads.fmt(), reads.applied());
        Ok(match self {
            TargetDetails::Restorable {
                category_id,
                before,
                after,
                fields,
            } => {
                let read = (before.as_deref(), after.as_str());
                super::target(&category_id, read, &fields, plan, fmt, applied).into()
            }
            TargetDetails::Unrestorable {
                category_id,
                before,
                after,
            } => Planned::Landed(unrestorable_target(category_id, before, after, reads)),
        })
    }
}

/// An interrupted target change whose intent holds no way back: whether it landed, and the line
/// the tool journals for it (`undo` null).
fn unrestorable_target<R: Reads>(
    category_id: String,
    before: Option<String>,
    after: String,
    reads: &R,
) -> Landed {
    let read = (before.as_deref(), after.as_str());
    let landing = super::target_landing(&category_id, read, reads.plan(), reads.fmt());
    let reason = format!(
        "YNAB's API cannot recreate the previous target ({}); only YNAB can bring it back",
        before.as_deref().unwrap_or("as it was")
    );
    let line = TargetSet {
        category_id,
        before: None,
        after,
        undo: None,
    };
    Landed {
        landing,
        line: to_details(&line),
        reason: Some(reason),
    }
}

impl UndoKind for Approved {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "Approval undone.";

    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        from_details(entry.details)
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        Ok(super::approve(self.transaction_ids, reads.plan(), reads.applied()).into())
    }
}

impl UndoKind for Deleted {
    const REVERTED: bool = true;
    const UNDONE: &'static str =
        "Deleted transactions recreated, with new ids and without their bank-import link.";

    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        from_details(entry.details)
    }

    /// Nothing left when an interrupted undo already recreated them; else the deleted
    /// transactions from YNAB's record of them since the delete.
    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let ids = &self.transaction_ids;
        if reads.recreated_by_interrupted_undo().await? {
            return Ok(super::delete_recreated(ids, reads.server_knowledge()).into());
        }
        let records = reads
            .transactions_since(Some(self.server_knowledge))
            .await?;
        let current = (reads.plan(), reads.server_knowledge());
        let (fmt, applied) = (reads.fmt(), reads.applied());
        Ok(super::delete(ids, &records, current, fmt, applied).into())
    }
}
