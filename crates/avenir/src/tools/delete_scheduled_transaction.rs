//! `delete_scheduled_transaction` (`docs/writes/scheduled_transactions.md`): delete one
//! scheduled transaction in one confirmed step. `undo_operation` recreates it, with a new id,
//! from YNAB's record of it (its tombstone in the delta since the delete).

use super::scheduled_writes::listed;
use super::{ConfirmedTool, PlanId, ToolError};
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written,
};
use crate::context::Context;
use crate::logic::names::PlanNames;
use crate::logic::schedules::{describe, is_split, live_schedule, save_of};
use crate::logic::undo::record::to_details;
use crate::logic::undo::schedules::ScheduleDeleted;
use crate::money::{Amount, MoneyFormat};
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// What every question and answer says undo cannot bring back.
pub const LOSSY: &str = "undo_operation recreates it with a new id";

/// `delete_scheduled_transaction`, its arguments read.
#[derive(Debug)]
pub struct DeleteScheduledTransaction {
    id: String,
}

crate::tool_args! {
    /// The arguments of `delete_scheduled_transaction`.
    pub struct DeleteScheduledArgs {
        pub plan_id: Option<PlanId>,
        /// From list_scheduled_transactions.
        #[give = "a scheduled_transaction_id from list_scheduled_transactions"]
        pub scheduled_transaction_id: String,
    }
}

// The fields of `delete_scheduled_transaction`'s answer, whatever its status.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ScheduleDeleteDetails {
    pub scheduled_transaction_id: String,
    pub date_next: String,
    pub frequency: String,
    pub payee: String,
    pub amount: Amount,
    pub account: String,
    /// The category's name, or null for none.
    pub category: Option<String>,
}

/// What `delete_scheduled_transaction` proposes.
#[derive(Debug, Clone)]
pub struct ScheduleDeletion {
    details: ScheduleDeleteDetails,
    /// The plan's `server_knowledge` when it was read: undo reads the deletion since.
    knowledge: i64,
}

impl ConfirmedTool for DeleteScheduledTransaction {
    const TITLE: &'static str = "Delete a scheduled transaction";
    const DESTRUCTIVE: bool = true;
    type Args = DeleteScheduledArgs;
    type Details = ScheduleDeleteDetails;

    fn description(_writes: bool) -> String {
        format!(
            "Delete one scheduled transaction; a split one is refused (undo could not recreate \
it). The user sees it and confirms. {LOSSY}."
        )
    }

    fn from_args(args: DeleteScheduledArgs, _today: NaiveDate) -> Result<Self, ToolError> {
        Ok(DeleteScheduledTransaction {
            id: args.scheduled_transaction_id,
        })
    }
}

impl ConfirmedWrite for DeleteScheduledTransaction {
    type Change = ScheduleDeletion;
    const TOOL: &'static str = "delete_scheduled_transaction";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::ScheduleDelete;
    const APPLIED: &'static str = "Deleted.";
    const UNDO: Undoable = Undoable::Yes("recreates it, with a new id");

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<ScheduleDeletion>, ToolError> {
        let plan = &snapshot.plan;
        let fmt = MoneyFormat::of(plan.currency_format.as_ref());
        let s = live_schedule(plan, &self.id)?;
        if is_split(plan, &s.id) {
            return Err(format!(
                "Scheduled transaction {} ({}) is split: YNAB's API cannot create a split schedule, so undo could not bring it back; delete it in YNAB.",
                s.id,
                describe(plan, &fmt, s)
            )
            .into());
        }
        let names = PlanNames::new(plan);
        let details = ScheduleDeleteDetails {
            scheduled_transaction_id: s.id.clone().into(),
            date_next: s.date_next.clone().into(),
            frequency: s.frequency.clone().into(),
            payee: safe(names.payee(s.payee_id.as_deref())),
            amount: Amount(s.amount),
            account: safe(names.account(&s.account_id)),
            category: s.category_id.as_deref().map(|id| {
                safe(
                    plan.categories
                        .iter()
                        .find(|c| c.id == id)
                        .map_or(id, |c| c.name.as_str()),
                )
            }),
        };
        let question = crate::confirm::question(
            format!("Delete this scheduled transaction? ({LOSSY}.)"),
            vec![listed(plan, &fmt, s)],
        );
        // Every value the person sees or undo recreates: a change in between is stale (D4).
        let subject = json!({"delete_schedule": s.id, "before": save_of(s)});
        let change = ScheduleDeletion {
            details,
            knowledge: snapshot.server_knowledge,
        };
        Ok(Prepared::change(snapshot.id(), subject, question, change))
    }

    /// D31: the id, and the knowledge undo reads the deletion since.
    fn intent_details(&self, change: &ScheduleDeletion) -> Value {
        to_details(&ScheduleDeleted {
            scheduled_transaction_id: change.details.scheduled_transaction_id.clone(),
            server_knowledge: change.knowledge,
        })
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<ScheduleDeletion>,
    ) -> Result<Written<ScheduleDeletion>, WriteFailure> {
        let change = &proposal.change;
        context
            .plans
            .client()
            .delete_scheduled_transaction(
                &proposal.plan_id,
                &change.details.scheduled_transaction_id,
            )
            .await?;
        Ok(JournalDraft {
            details: self.intent_details(change),
            ..JournalDraft::default()
        }
        .into())
    }

    fn details(&self, change: &ScheduleDeletion) -> ScheduleDeleteDetails {
        change.details.clone()
    }
}
