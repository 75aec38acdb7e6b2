//! What undoing an operation would do now (`docs/contract/writes.md` §10.2): the I/O around
//! `logic::undo`. Each kind's record parses itself and decides (`logic::undo::per_kind`); this
//! file answers what a kind asks to read ([`Reads`]: a month's categories, what changed since a
//! knowledge, with YNAB requests) and shapes the plan it returns into the undo's question.
//!
//! An operation a crash interrupted (D14) — an unfinished intent, or one whose undo was
//! interrupted — is read as partly applied; when nothing of it is left to revert, its intents
//! are settled here, and the kinds YNAB's API cannot revert are journaled as they landed.

use super::assigned_amounts::month_categories;
use super::undo_operation::{UndoChange, undo_result};
use crate::confirm::Prepared;
use crate::confirm::Proposal;
use crate::confirm::WriteStatus;
use crate::context::Context;
use crate::digest::order_free;
use crate::logic::undo::Kind;
use crate::logic::undo::per_kind::{Landed, Planned, Reads};
use crate::logic::undo::record::from_details;
use crate::logic::undo::reverting::Recreating;
use crate::logic::undo::{self, Applied, CategoryMove, Landing, Refusal, UndoPlan};
use crate::money::MoneyFormat;
use crate::months::CalendarMonth;
use crate::store::journal::{JournalError, Operation, applied_at_now};
use crate::tool_error::ToolError;
use serde_json::json;
use std::sync::Arc;
use ynab::models::{Category, ScheduledTransaction, Transaction};

/// How the operation to undo is read (D14).
#[derive(Debug, Clone, Default)]
pub(crate) struct Recovery {
    /// It is an unfinished intent, not a journal line.
    pub from_intent: bool,
    /// The unfinished intents of undos of it that were interrupted: this undo finishes them.
    pub interrupted: Vec<String>,
}

impl Recovery {
    /// Partly applied: an intent, or an operation an interrupted undo may have put back.
    fn applied(&self) -> Applied {
        if self.from_intent || !self.interrupted.is_empty() {
            Applied::Partly
        } else {
            Applied::Fully
        }
    }

    /// The intents settled once the undo is done: the operation's own, and the interrupted undos.
    fn intents(&self, operation_id: &str) -> Vec<String> {
        let own = self.from_intent.then(|| operation_id.to_string());
        own.into_iter().chain(self.interrupted.clone()).collect()
    }
}

/// What undoing `op` would do now, read from the current plan (`docs/contract/writes.md` §10.2):
/// the details are parsed (a damaged one refuses), the state each kind compares is read, and
/// `logic::undo` decides. An interrupted operation with nothing left to revert is settled here.
pub(crate) async fn plan_undo(
    context: &Context,
    snapshot: &Arc<crate::plan_store::PlanSnapshot>,
    op: Operation,
    recovery: &Recovery,
    unfinished: Vec<super::undo_operation::UnfinishedEntry>,
) -> Result<Prepared<UndoChange>, ToolError> {
    let from_intent = recovery.from_intent;
    let Some(kind) = Kind::from_name(&op.kind) else {
        let refusal = Refusal::Kind(op.kind.clone());
        return Err(refused(context, &op, from_intent, &refusal).into());
    };
    let moves = op.moves.iter().map(|m| CategoryMove {
        transaction_id: m.transaction_id.clone(),
        from_category_id: m.from_category_id.clone(),
        to_category_id: m.to_category_id.clone(),
    });
    let details = match undo::parse_kind(kind, &op.details, moves.collect(), from_intent) {
        Ok(details) => details,
        Err(refusal) => return Err(refused(context, &op, from_intent, &refusal).into()),
    };
    let reads = ReadsNow {
        context,
        snapshot,
        recovery,
        fmt: MoneyFormat::of(snapshot.plan.currency_format.as_ref()),
    };
    let planned = match details.now(&reads).await? {
        Planned::Undo(planned) => *planned,
        Planned::Landed(landed) => {
            return irreversible(context, snapshot, &op, landed, unfinished).await;
        }
    };
    if recovery.applied() == Applied::Partly && planned.nothing.is_some() {
        return nothing_left(context, (op, kind), planned, recovery, unfinished, snapshot).await;
    }
    Ok(finish((op, kind), planned, unfinished, recovery, snapshot))
}

/// The undo's [`Reads`]: the plan snapshot it was prepared from, and YNAB's answers a kind asks
/// for (each one request).
struct ReadsNow<'a> {
    context: &'a Context,
    snapshot: &'a Arc<crate::plan_store::PlanSnapshot>,
    recovery: &'a Recovery,
    fmt: MoneyFormat,
}

impl Reads for ReadsNow<'_> {
    type Error = ToolError;

    fn plan(&self) -> &ynab::models::PlanDetail {
        &self.snapshot.plan
    }

    fn server_knowledge(&self) -> i64 {
        self.snapshot.server_knowledge
    }

    fn fmt(&self) -> &MoneyFormat {
        &self.fmt
    }

    fn applied(&self) -> Applied {
        self.recovery.applied()
    }

    fn today(&self) -> chrono::NaiveDate {
        self.context.settings.today()
    }

    async fn month(&self, month: CalendarMonth) -> Result<Vec<Category>, ToolError> {
        let (_, categories) = month_categories(self.context, self.snapshot.clone(), month).await?;
        Ok(categories)
    }

    async fn transactions_since(
        &self,
        knowledge: Option<i64>,
    ) -> Result<Vec<Transaction>, ToolError> {
        let filter = ynab::TransactionFilter {
            last_knowledge: knowledge,
            ..ynab::TransactionFilter::default()
        };
        let client = self.context.plans.client();
        let (changed, _) = client.transactions(self.snapshot.id(), &filter).await?;
        Ok(changed)
    }

    async fn schedules_since(
        &self,
        knowledge: i64,
    ) -> Result<Vec<ScheduledTransaction>, ToolError> {
        let client = self.context.plans.client();
        let plan_id = self.snapshot.id();
        let (changed, _) = client
            .scheduled_transactions_since(plan_id, knowledge)
            .await?;
        Ok(changed)
    }

    async fn recreated_by_interrupted_undo(&self) -> Result<bool, ToolError> {
        recreated_by_interrupted_undo(self).await
    }
}

/// An interrupted operation with nothing left to revert (D14): its intents are settled. What
/// was never applied, or was already put back, is said so; what changed since is left alone. A
/// journal line its interrupted undo put back entirely is marked undone.
async fn nothing_left(
    context: &Context,
    (op, kind): (Operation, Kind),
    planned: UndoPlan,
    recovery: &Recovery,
    unfinished: Vec<super::undo_operation::UnfinishedEntry>,
    snapshot: &crate::plan_store::PlanSnapshot,
) -> Result<Prepared<UndoChange>, ToolError> {
    let settled = recovery.intents(&op.operation_id);
    let all_back = planned.conflicts.is_empty();
    let message = match (recovery.from_intent, all_back) {
        (_, false) => planned.nothing.clone().unwrap_or_default(),
        (true, true) if recovery.interrupted.is_empty() => format!(
            "Operation {} ({}) was not applied in YNAB: nothing to undo. It is no longer listed as unfinished.",
            op.operation_id, op.kind
        ),
        (true, true) => format!(
            "Operation {} ({}) was not applied in YNAB, or its interrupted undo put it back: nothing to undo. It is no longer listed as unfinished.",
            op.operation_id, op.kind
        ),
        (false, true) => {
            let marker = crate::store::journal::undone_line(&op.operation_id);
            context
                .journal
                .blocking(move |journal| journal.append_all(&[marker]))
                .await?;
            format!(
                "Operation {} ({}) was already put back in YNAB by its interrupted undo {}: the journal now records it undone, and the undo is no longer listed as unfinished. Nothing left to undo.",
                op.operation_id,
                op.kind,
                recovery.interrupted.join(", ")
            )
        }
    };
    for id in &settled {
        crate::confirm::settle(context, id, "recovered").await?;
    }
    let unfinished = unfinished
        .into_iter()
        .filter(|u| !settled.contains(&u.operation_id))
        .collect();
    let mut prepared = finish((op, kind), planned, unfinished, recovery, snapshot);
    if let Prepared::NothingToDo { value, .. } = &mut prepared {
        value["message"] = serde_json::Value::String(message);
    }
    Ok(prepared)
}

/// An unfinished intent of a kind YNAB's API cannot revert (D14, D25): read whether it landed.
/// Not applied, it is settled; applied, it is journaled as it would have been, not undoable,
/// with its reason. Either way nothing is written to YNAB and nothing is asked.
async fn irreversible(
    context: &Context,
    snapshot: &Arc<crate::plan_store::PlanSnapshot>,
    op: &Operation,
    landed: Landed,
    unfinished: Vec<super::undo_operation::UnfinishedEntry>,
) -> Result<Prepared<UndoChange>, ToolError> {
    let Landed {
        landing,
        line: details,
        reason,
    } = landed;
    let (id, kind) = (&op.operation_id, &op.kind);
    if landing == Landing::Applied {
        let operation = Operation {
            operation_id: id.clone(),
            plan_id: snapshot.id().to_string(),
            kind: kind.clone(),
            applied_at: applied_at_now(),
            moves: Vec::new(),
            details,
            undoable: reason.as_ref().map(|_| false),
            reason: reason.clone(),
        };
        context
            .journal
            .blocking(move |journal| journal.append(&operation))
            .await?;
    }
    let message = landed_message(op, &landing, reason.as_deref());
    let outcome = if landing == Landing::Applied {
        "applied"
    } else {
        "recovered"
    };
    crate::confirm::settle(context, id, outcome).await?;
    let value = crate::confirm::WriteResult {
        status: WriteStatus::NothingToDo,
        message,
        confirmation: None,
        operation_id: None,
        details: super::undo_operation::UndoDetails {
            recategorisation: super::apply_categories::RecategorisationDetails {
                changes: Vec::new(),
                unchanged_count: 0,
                conflicts: Vec::new(),
            },
            undone_operation_id: id.clone(),
            unfinished: unfinished
                .into_iter()
                .filter(|u| &u.operation_id != id)
                .collect(),
        },
    }
    .into_value();
    Ok(Prepared::NothingToDo {
        value,
        plan_id: snapshot.id().to_string(),
    })
}

/// What an interrupted write of a kind only read for whether it landed says: not applied,
/// applied (and now journaled, with why it cannot be undone when it cannot), or unknown.
fn landed_message(op: &Operation, landing: &Landing, reason: Option<&str>) -> String {
    let (id, kind) = (&op.operation_id, &op.kind);
    match (landing, reason) {
        (Landing::NotApplied, _) if kind == "import" => format!(
            "Operation {id} (import) brought nothing into the plan: it was not applied in YNAB, or found nothing new. Nothing to undo; it is no longer listed as unfinished."
        ),
        (Landing::NotApplied, _) => format!(
            "Operation {id} ({kind}) was not applied in YNAB: nothing to undo. It is no longer listed as unfinished."
        ),
        (Landing::Applied, Some(reason)) => format!(
            "Operation {id} ({kind}) was applied in YNAB before the interruption, and cannot be undone here: {reason}. The journal now records it."
        ),
        (Landing::Applied, None) => format!(
            "Operation {id} ({kind}) was applied in YNAB before the interruption. The journal now records it: call undo_operation with operation_id {id} to revert it."
        ),
        (Landing::Unknown, Some(reason)) => format!(
            "Operation {id} ({kind}) was interrupted, and the plan shows neither what it was to write nor what was there before: it cannot be undone here ({reason}). It is no longer listed as unfinished."
        ),
        (Landing::Unknown, None) => format!(
            "Operation {id} ({kind}) was interrupted, and the plan shows neither what it was to write nor what was there before: it is left as it is. It is no longer listed as unfinished."
        ),
    }
}

/// Whether an interrupted undo of a `delete` recreated its transactions: its intent holds the
/// digests of what it was to create and the knowledge before, and one live transaction among those
/// changed since with such a digest means its one POST landed. A tombstone cannot tell: it stays
/// deleted after a recreation, so without this a second undo would recreate them twice.
async fn recreated_by_interrupted_undo(reads: &ReadsNow<'_>) -> Result<bool, ToolError> {
    let (context, recovery) = (reads.context, reads.recovery);
    if recovery.interrupted.is_empty() {
        return Ok(false);
    }
    let unfinished = context
        .journal
        .blocking(|journal| journal.unfinished())
        .await?;
    for intent in unfinished
        .iter()
        .filter(|i| recovery.interrupted.contains(&i.id))
    {
        // Only an undo of a delete recreates: another undo's intent is of another shape.
        let Ok(Recreating {
            item_digests,
            digest_salt,
            server_knowledge,
            ..
        }) = from_details(&intent.details["reverting"])
        else {
            continue;
        };
        let changed = reads.transactions_since(Some(server_knowledge)).await?;
        if undo::recreated(&item_digests, &digest_salt, &changed) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The sentence for an operation whose details cannot be undone. A journal line with a damaged
/// detail is not a journal entry: E-U3 names the file and the line (an intent, or a journal
/// that cannot be read again, gets the refusal's own sentence).
fn refused(context: &Context, op: &Operation, from_intent: bool, refusal: &Refusal) -> String {
    if matches!(refusal, Refusal::Damaged { .. })
        && !from_intent
        && let Ok(path) = context.journal.path()
        && let Ok(view) = context.journal.read()
        && let Some(line) = view.line_of(&op.operation_id)
    {
        return JournalError::Damaged {
            path: path.display().to_string(),
            line,
        }
        .to_string();
    }
    refusal.message(&op.operation_id, &op.kind)
}

/// The undo's result for a computed revert: `nothing_to_do`, or the change to confirm.
fn finish(
    (op, kind): (Operation, Kind),
    planned: UndoPlan,
    unfinished: Vec<super::undo_operation::UnfinishedEntry>,
    recovery: &Recovery,
    snapshot: &crate::plan_store::PlanSnapshot,
) -> Prepared<UndoChange> {
    let plan_id = snapshot.id().to_string();
    let fmt = MoneyFormat::of(snapshot.plan.currency_format.as_ref());
    let UndoPlan {
        revert,
        conflicts,
        reverts,
        question,
        lines,
        nothing,
        untouched: _,
    } = planned;
    let change = UndoChange {
        operation_id: op.operation_id.clone(),
        kind,
        revert,
        fmt,
        conflicts,
        unfinished,
        from_intent: recovery.from_intent,
        settle: recovery.intents(&op.operation_id),
    };
    if let Some(message) = nothing {
        let value = undo_result(&change, WriteStatus::NothingToDo, message, None);
        return Prepared::NothingToDo { value, plan_id };
    }
    let subject = json!({"undo": op.operation_id, "reverts": order_free(reverts)});
    Prepared::Change(Proposal {
        plan_id,
        subject,
        question: crate::confirm::question(question, lines),
        change,
    })
}
