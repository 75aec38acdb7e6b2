//! `approve_transactions` (`docs/contract/writes.md` §8, D25, D33): the one immediate write —
//! marking transactions reviewed — journaled and undoable like the others, without a question.

use super::{AnswerTool, Answered, PlanId, ToolError, plan_or_last_used};
use crate::args::Ids;
use crate::confirm::UndoLockMode;
use crate::confirm::{JournalDraft, WriteFailure, journal_failed, journaled};
use crate::context::Context;
use crate::logic::undo::{self, record::to_details};
use schemars::JsonSchema;
use serde::Serialize;

use ynab::writes::TransactionUpdate;

crate::tool_args! {
    /// The arguments of `approve_transactions`.
    pub struct ApproveArgs {
        pub plan_id: Option<PlanId>,
        pub tx_ids: Ids,
    }
}

// The answer of `approve_transactions`. (A plain comment: a doc comment would become the
// schema's description.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct Approval {
    /// Transactions YNAB reports approved.
    pub approved: usize,
    /// The journal's id of this approval, for undo_operation.
    pub operation_id: Option<String>,
    /// Only when the journal could not record the approval YNAB applied: what to do (D32).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// `approve_transactions`.
pub struct ApproveTransactions;

impl AnswerTool for ApproveTransactions {
    const NAME: &'static str = "approve_transactions";
    const TITLE: &'static str = "Approve transactions";
    const READ_ONLY: bool = false;
    const IDEMPOTENT: bool = true;
    const DESTRUCTIVE: Option<bool> = Some(false);
    type Args = ApproveArgs;
    type Answer = Approval;

    fn description(_writes: bool) -> String {
        "Mark transactions approved (reviewed). Applies at once, no preview; amounts and \
categories stay. undo_operation unapproves them."
            .to_string()
    }

    async fn run(context: &Context, args: ApproveArgs) -> Result<Answered<Approval>, ToolError> {
        approve(context, &plan_or_last_used(&args.plan_id), args.tx_ids.0).await
    }
}

async fn approve(
    context: &Context,
    plan_id: &str,
    ids: Vec<String>,
) -> Result<Answered<Approval>, ToolError> {
    if ids.is_empty() {
        let none = Approval {
            approved: 0,
            operation_id: None,
            message: None,
        };
        return Ok(Answered::new(none, None));
    }
    let snapshot = context.plans.read(plan_id).await?;
    let plan = snapshot.id().to_string();
    // Journal only those this call turns from unapproved to approved (D25).
    let turned: Vec<String> = ids
        .iter()
        .filter(|id| {
            snapshot
                .plan
                .transactions
                .iter()
                .any(|t| &t.id == *id && !t.deleted && !t.approved)
        })
        .cloned()
        .collect();
    let updates: Vec<TransactionUpdate> = ids
        .iter()
        .map(|id| TransactionUpdate {
            id: id.clone(),
            approved: Some(true),
            ..TransactionUpdate::default()
        })
        .collect();
    let details = to_details(&undo::Approved {
        transaction_ids: turned,
    });
    let mut approved = 0usize;
    let write = async {
        let saved = context
            .plans
            .client()
            .update_transactions(&plan, &updates)
            .await
            .map_err(WriteFailure::from)?;
        approved = saved.transaction_ids.len();
        Ok(JournalDraft {
            details: details.clone(),
            ..JournalDraft::default()
        })
    };
    // Shared, as every write holds it: no undo runs while this write is in flight (D5).
    let _lock = context
        .journal
        .undo_lock(UndoLockMode::Writing)
        .await
        .map_err(|error| ToolError::Refused(crate::confirm::lock_failed(&error)))?;
    let done = journaled(
        context,
        &plan,
        crate::logic::undo::Kind::Approve,
        details.clone(),
        write,
    )
    .await
    .map_err(|not_written| {
        let asked = format!("approve {} transaction(s)", updates.len());
        ToolError::Refused(not_written.message(Some(&asked)))
    })?;
    let approval = Approval {
        approved,
        message: done
            .journal_error
            .as_ref()
            .map(|error| journal_failed(error, &done.intent_id)),
        operation_id: done.operation_id,
    };
    Ok(Answered::new(approval, plan))
}
