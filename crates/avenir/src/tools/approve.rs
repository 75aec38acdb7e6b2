//! `approve_transactions` (`tools-write.md` §8, D25, D33): the one immediate write — marking
//! transactions reviewed — journaled and undoable like the others, without a question.

use super::{LegacySpec, Outcome, plan_id_property};
use crate::args::Args;
use crate::confirm::{JournalDraft, WriteFailure, journal_failed, journaled};
use crate::context::Context;
use serde_json::json;
use ynab::writes::TransactionUpdate;

pub fn spec() -> LegacySpec {
    LegacySpec {
        name: "approve_transactions",
        title: "Approve transactions",
        description: |_| {
            "Mark transactions as approved (reviewed), as the user does in YNAB after checking new \
imports. It applies at once, with no preview: approving changes no amount and no category. It is \
journaled, and undo_operation marks them unapproved again. Cost: ≤ 1 YNAB request once the plan \
is loaded, plus one to apply."
                .to_string()
        },
        input_schema: || {
            json!({"type": "object", "properties": {
                "plan_id": plan_id_property(),
                "tx_ids": {"type": "array", "items": {"type": "string"},
                           "description": "Ids of the transactions to approve."}
            }, "required": ["plan_id", "tx_ids"], "additionalProperties": false})
        },
        output_schema: || {
            json!({"type": "object", "properties": {
                "approved": {"type": "integer", "description": "Transactions YNAB reports approved."},
                "operation_id": {"type": ["string", "null"], "description": "The journal's id of this approval, for undo_operation."}
            }, "required": ["approved"]})
        },
        read_only: false,
        idempotent: true,
        destructive: Some(false),
    }
}

pub async fn run(context: &Context, mut args: Args) -> Outcome {
    let parsed = (|| {
        let plan_id = super::take_plan_id(&mut args)?;
        let ids = args.required_ids("tx_ids")?;
        args.finish("approve_transactions")?;
        Ok::<_, crate::args::ArgError>((plan_id, ids))
    })();
    let (plan_id, ids) = match parsed {
        Ok(parsed) => parsed,
        Err(error) => return error.into(),
    };
    if ids.is_empty() {
        return Outcome::Answer {
            value: json!({"approved": 0, "operation_id": null}),
            plan_id: None,
        };
    }
    let snapshot = match context.plans.read(&plan_id).await {
        Ok(snapshot) => snapshot,
        Err(error) => return error.into(),
    };
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
    let details = json!({"transaction_ids": turned});
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
    match journaled(context, &plan, "approve", details.clone(), write).await {
        Err(message) => Outcome::Error(message),
        Ok(done) => {
            let mut value = json!({"approved": approved, "operation_id": done.operation_id});
            if let Some(error) = &done.journal_error {
                value["message"] = json!(journal_failed(error, &done.intent_id));
            }
            Outcome::Answer {
                value,
                plan_id: Some(plan),
            }
        }
    }
}
