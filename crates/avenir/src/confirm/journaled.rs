//! The apply half of a write (D14): the intent recorded before the first YNAB write, the writes,
//! the operation line in the journal, the intent settled — and what to say when the journal
//! cannot record a write YNAB applied (D32).

use super::{JournalDraft, WriteFailure};
use crate::context::Context;
use crate::logic::undo::Kind;
use crate::store::journal::{Intent, Operation, applied_at_now};
use serde_json::Value;

/// Settle the intent `id` as `outcome`, off the async workers.
pub async fn settle(
    context: &Context,
    id: &str,
    outcome: &'static str,
) -> Result<(), crate::store::journal::JournalError> {
    let id = id.to_string();
    context
        .journal
        .blocking(move |journal| journal.settle(&id, outcome))
        .await
}

/// D32's message: applied in YNAB, not journaled.
pub fn journal_failed(error: &str, operation_id: &str) -> String {
    format!(
        "Applied in YNAB, but the journal could not record it ({error}). undo_operation lists it as unfinished and can still revert it with operation_id {operation_id}."
    )
}

/// Why [`journaled`] wrote no operation line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotWritten {
    /// Refused, or never sent: nothing changed, and the intent (if any) settled as failed.
    Refused(String),
    /// YNAB did not confirm the change (a timeout, a dropped connection, a 5xx, an answer that
    /// cannot be read), or a part of it landed and was not put back: the intent stays
    /// unfinished, so the next start names it and `undo_operation` can revert what landed.
    Unconfirmed {
        message: String,
        operation_id: String,
    },
}

impl NotWritten {
    /// The sentence for the person, with `asked` (the question they agreed to) named when YNAB
    /// did not confirm the change.
    pub fn message(&self, asked: Option<&str>) -> String {
        match self {
            NotWritten::Refused(message) => message.clone(),
            NotWritten::Unconfirmed {
                message,
                operation_id,
            } => {
                let asked = asked
                    .map(|q| format!("\nWhat was asked: {q}"))
                    .unwrap_or_default();
                format!(
                    "{message}{asked}\nIt stays unfinished in the journal: undo_operation lists it (operation_id {operation_id}) and reverts whatever part of it YNAB applied."
                )
            }
        }
    }
}

/// What [`journaled`] reports after the YNAB writes succeeded.
#[derive(Debug, Clone)]
pub struct Journaled {
    /// The intent's id (= the operation id).
    pub intent_id: String,
    /// The operation to name in the result: `None` for an undo (journaled by markers only).
    pub operation_id: Option<String>,
    /// Why the journal could not record it (D32), if it could not.
    pub journal_error: Option<String>,
}

/// Run `write` between an intent and the journal (D14): the intent is recorded and flushed
/// first (if it cannot be, nothing is sent); after the writes, the operation line (and any
/// markers) is appended and the intent settled. A refusal settles the intent as failed; a write
/// whose fate is unknown leaves it unfinished ([`NotWritten::Unconfirmed`]).
pub async fn journaled(
    context: &Context,
    plan_id: &str,
    kind: Kind,
    details: Value,
    write: impl std::future::Future<Output = Result<JournalDraft, WriteFailure>>,
) -> Result<Journaled, NotWritten> {
    let operation_id = crate::store::journal::new_operation_id();
    let intent = Intent {
        id: operation_id.clone(),
        kind: kind.name().to_string(),
        plan_id: plan_id.to_string(),
        details,
        server_knowledge: context.plans.cached_knowledge(plan_id).await,
    };
    if let Err(error) = context
        .journal
        .blocking(move |journal| journal.record_intent(&intent))
        .await
    {
        return Err(NotWritten::Refused(format!(
            "The journal could not record what is about to change ({error}): nothing was sent to YNAB. Check that the journal's folder is writable, then call again."
        )));
    }
    let written = write.await;
    context.plans.wrote(plan_id).await;
    let draft = match written {
        Ok(draft) => {
            // the audit line: who, what kind, which operation; never amounts or bank text
            tracing::info!(
                target: "avenir::audit",
                "write applied: who={} kind={} operation={operation_id}",
                context.who,
                kind.name()
            );
            draft
        }
        Err(WriteFailure::NothingChanged(message)) => {
            if let Err(error) = settle(context, &operation_id, "failed").await {
                tracing::warn!("intent {operation_id} could not be settled: {error}");
            }
            return Err(NotWritten::Refused(message));
        }
        Err(WriteFailure::Unknown(message)) => {
            tracing::warn!(
                "operation {operation_id} ({kind}): YNAB did not confirm it; its intent stays unfinished"
            );
            return Err(NotWritten::Unconfirmed {
                message,
                operation_id,
            });
        }
    };
    let lines = journal_lines(plan_id, kind, &operation_id, &draft);
    let named = (!draft.markers_only && !draft.mark_self_undone).then(|| operation_id.clone());
    match context
        .journal
        .blocking(move |journal| journal.append_all(&lines))
        .await
    {
        Ok(()) => {
            if let Err(error) = settle(context, &operation_id, "applied").await {
                tracing::warn!("intent {operation_id} could not be settled: {error}");
            }
            Ok(Journaled {
                intent_id: operation_id,
                operation_id: named,
                journal_error: None,
            })
        }
        Err(error) => Ok(Journaled {
            operation_id: Some(operation_id.clone()),
            intent_id: operation_id,
            journal_error: Some(error.to_string()),
        }),
    }
}

/// The lines a written draft appends to the journal: its operation line (unless it writes markers
/// only), the markers after it, and its own undo marker when it marks itself undone.
fn journal_lines(
    plan_id: &str,
    kind: Kind,
    operation_id: &str,
    draft: &JournalDraft,
) -> Vec<String> {
    let mut lines = Vec::new();
    if !draft.markers_only {
        let operation = Operation {
            operation_id: operation_id.to_string(),
            plan_id: plan_id.to_string(),
            kind: draft.operation_kind.unwrap_or(kind).name().to_string(),
            applied_at: applied_at_now(),
            moves: draft.moves.clone(),
            details: draft.details.clone(),
            undoable: draft.undoable,
            reason: draft.reason.clone(),
        };
        match crate::store::journal::operation_line(&operation) {
            Ok(line) => lines.push(line),
            Err(error) => tracing::warn!("operation line not serialisable: {error}"),
        }
    }
    lines.extend(draft.after.iter().map(Value::to_string));
    if draft.mark_self_undone {
        lines.push(crate::store::journal::undone_line(operation_id));
    }
    lines
}
