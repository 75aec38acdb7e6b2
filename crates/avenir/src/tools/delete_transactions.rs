//! `delete_transactions` (`docs/writes/delete_transactions.md`): delete up to 100 transactions in
//! one confirmed step; a transfer's other side goes with it. `undo_operation` recreates them.
//!
//! The journal keeps only ids and the plan's `server_knowledge` before the delete (D6, D31): undo
//! reads YNAB's own record of each deleted transaction (its tombstone in the delta since then).

use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::Ids;
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written,
};
use crate::context::Context;
use crate::digest::order_free;
use crate::logic::deletes::plan_deletes;
use crate::logic::names::PlanNames;
use crate::logic::undo::{self, record::to_details};
use crate::money::{Amount, MoneyFormat};
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// What every question and answer says undo cannot bring back.
pub const LOSSY: &str = "undo_operation recreates them with new ids and no bank-import link";

/// `delete_transactions`, its arguments read.
#[derive(Debug)]
pub struct DeleteTransactions {
    ids: Vec<String>,
}

crate::tool_args! {
    /// The arguments of `delete_transactions`.
    pub struct DeleteTransactionsArgs {
        pub plan_id: Option<PlanId>,
        /// At most 100, from find_transactions.
        #[give = "a list of transaction ids from find_transactions"]
        pub transaction_ids: Ids,
    }
}

// One transaction deleted. (A plain comment: a doc comment would become the description of the
// list's items.)
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DeletedItem {
    pub transaction_id: String,
    pub date: String,
    pub amount: Amount,
    pub payee: String,
    pub account: String,
    /// The other side of a transfer, which YNAB deletes with it.
    pub transfer_other_side_id: Option<String>,
}

/// What `delete_transactions` proposes.
#[derive(Debug, Clone)]
pub struct Deletion {
    items: Vec<DeletedItem>,
    /// The DELETEs to send, in request order (a transfer's other side is not sent).
    to_send: Vec<String>,
    /// The plan's `server_knowledge` when it was read: undo reads the deletions since.
    knowledge: i64,
    /// Every id gone once applied (transfers' other sides included).
    deleted_ids: Vec<String>,
}

impl Deletion {
    /// Every id the delete removes: each sent one, then its transfer's other side.
    fn all_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = Vec::new();
        for item in &self.items {
            for id in std::iter::once(&item.transaction_id).chain(&item.transfer_other_side_id) {
                if !ids.contains(id) {
                    ids.push(id.clone());
                }
            }
        }
        ids
    }
}

// The fields of `delete_transactions`' answer, whatever its status. (A plain comment: the struct
// is flattened into the answer, whose schema has no description.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct DeletionDetails {
    pub transactions: Vec<DeletedItem>,
    /// Ids gone from the plan (once applied), transfers' other sides included.
    pub deleted_ids: Vec<String>,
}

impl ConfirmedTool for DeleteTransactions {
    const TITLE: &'static str = "Delete transactions";
    const DESTRUCTIVE: bool = true;
    type Args = DeleteTransactionsArgs;
    type Details = DeletionDetails;

    fn description(_writes: bool) -> String {
        format!(
            "Delete transactions, e.g. a duplicate import; a transfer's other side goes too. The \
user sees each one and confirms. {LOSSY}. Costs a request each."
        )
    }

    fn from_args(args: DeleteTransactionsArgs, _today: NaiveDate) -> Result<Self, ToolError> {
        Ok(DeleteTransactions {
            ids: args.transaction_ids.0,
        })
    }
}

impl ConfirmedWrite for DeleteTransactions {
    type Change = Deletion;
    const TOOL: &'static str = "delete_transactions";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::Delete;
    const APPLIED: &'static str = "Deleted.";
    const UNDO: Undoable =
        Undoable::Yes("recreates them, with new ids and without their bank-import link");

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<Deletion>, ToolError> {
        let plan = &snapshot.plan;
        let planned = plan_deletes(&self.ids, &plan.transactions).map_err(|r| r.message())?;
        let names = PlanNames::new(plan);
        let fmt = MoneyFormat::of(plan.currency_format.as_ref());
        let mut items = Vec::new();
        let mut lines = Vec::new();
        let mut subject = Vec::new();
        for d in &planned {
            let t = d.transaction;
            let payee = safe(names.payee(t.payee_id.as_deref()));
            let account = safe(names.account(&t.account_id));
            let mut line = format!("- {} {payee} {} on {account}", t.date, fmt.plain(t.amount));
            if let Some(m) = d.mirror {
                line.push_str(&format!(
                    " (a transfer: its other side on {} goes too)",
                    safe(names.account(&m.account_id))
                ));
            }
            lines.push(line);
            // Every value the person sees or undo recreates, so a change in between is stale (D4).
            subject.push(json!([
                t.id,
                t.date,
                t.amount,
                t.account_id,
                t.payee_id,
                t.category_id,
                t.memo,
                t.cleared,
                t.approved,
                t.flag_color,
                t.transfer_transaction_id
            ]));
            items.push(DeletedItem {
                transaction_id: t.id.clone().into(),
                date: t.date.clone().into(),
                amount: Amount(t.amount),
                payee,
                account,
                transfer_other_side_id: (d.mirror.map(|m| m.id.clone())).map(Into::into),
            });
        }
        let question = crate::confirm::question(
            format!("Delete {} transaction(s)? ({LOSSY}.)", items.len()),
            lines,
        );
        let change = Deletion {
            items,
            to_send: planned
                .iter()
                .filter(|d| d.sent)
                .map(|d| d.transaction.id.to_string())
                .collect(),
            knowledge: snapshot.server_knowledge,
            deleted_ids: Vec::new(),
        };
        let subject = json!({"delete": order_free(subject)});
        Ok(Prepared::change(snapshot.id(), subject, question, change))
    }

    /// D31: ids only, and the knowledge undo reads the deletions since.
    fn intent_details(&self, change: &Deletion) -> Value {
        to_details(&undo::Deleted {
            transaction_ids: change.all_ids(),
            server_knowledge: change.knowledge,
        })
    }

    /// One DELETE each, in request order. A failure after the first says what is deleted, what
    /// may be and what was not sent; the intent then stays unfinished, and undo_operation
    /// recreates whatever YNAB shows deleted.
    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<Deletion>,
    ) -> Result<Written<Deletion>, WriteFailure> {
        let change = &proposal.change;
        let client = context.plans.client();
        let mirror_of = |id: &str| {
            change
                .items
                .iter()
                .find(|i| i.transaction_id == id)
                .and_then(|i| i.transfer_other_side_id.clone())
        };
        let mut deleted: Vec<String> = Vec::new();
        for (done, id) in change.to_send.iter().enumerate() {
            if let Err(error) = client.delete_transaction(&proposal.plan_id, id).await {
                let failure = WriteFailure::from(error);
                if done == 0 && matches!(failure, WriteFailure::NothingChanged(_)) {
                    return Err(failure);
                }
                let this = match failure {
                    WriteFailure::NothingChanged(_) => format!("{id} was not deleted"),
                    WriteFailure::Unknown(_) => format!("{id} may or may not be deleted"),
                };
                let gone = if deleted.is_empty() {
                    "nothing was deleted before it".to_string()
                } else {
                    format!("deleted before it: {}", deleted.join(", "))
                };
                let rest = &change.to_send[done + 1..];
                let unsent = if rest.is_empty() {
                    String::new()
                } else {
                    format!("; not sent: {}", rest.join(", "))
                };
                return Err(WriteFailure::Unknown(format!(
                    "{} ({gone}; {this}{unsent}.)",
                    failure.text()
                )));
            }
            deleted.push(id.clone());
            if let Some(m) = mirror_of(id) {
                deleted.push(m);
            }
        }
        let all = change.all_ids();
        let draft = JournalDraft {
            details: to_details(&undo::Deleted {
                transaction_ids: all.clone(),
                server_knowledge: change.knowledge,
            }),
            ..JournalDraft::default()
        };
        Ok(Written {
            draft,
            applied: Some(Deletion {
                deleted_ids: all,
                ..change.clone()
            }),
        })
    }

    fn details(&self, change: &Deletion) -> DeletionDetails {
        DeletionDetails {
            transactions: change.items.clone(),
            deleted_ids: change.deleted_ids.clone(),
        }
    }
}
