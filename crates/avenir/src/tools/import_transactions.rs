//! `import_transactions` (`docs/contract/writes.md` §9.4, S5, D3): ask YNAB to import what the
//! linked banks already hold, confirmed like every write but `approve_transactions`.
//!
//! It is journaled as `import` with the ids YNAB imported; undo_operation deletes those still
//! there, each named in its question.

use super::{ConfirmedTool, PlanArgs, ToolError};
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written,
};
use crate::context::Context;
use crate::logic::undo::irreversible::{ImportIntended, Imported};
use crate::logic::undo::record::to_details;
use crate::plan_store::PlanSnapshot;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// The question (§9.4).
pub const QUESTION: &str = "Import the latest transactions from the linked bank accounts?";

/// `import_transactions`: it takes only the plan, which the frame reads from the call.
#[derive(Debug)]
pub struct ImportTransactions;

/// What an import changes: nothing known before it is applied, the ids YNAB imported after.
#[derive(Debug, Clone, Default)]
pub struct Import {
    /// The ids YNAB imported (empty until applied).
    transaction_ids: Vec<String>,
    /// The plan's knowledge when it was read: a restart that finds the import unfinished reads
    /// what came in since (D14, D31).
    knowledge: i64,
}

// The fields of `import_transactions`' answer, whatever its status. (A plain comment: the struct
// is flattened into the answer, whose schema has no description.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct ImportDetails {
    /// Transactions imported (0 until applied).
    pub imported: usize,
    /// Their ids; imported transactions stay unapproved.
    pub transaction_ids: Vec<String>,
}

impl ConfirmedTool for ImportTransactions {
    const TITLE: &'static str = "Import the bank's latest transactions";
    const IDEMPOTENT: bool = true;
    const DESTRUCTIVE: bool = false;
    type Args = PlanArgs;
    type Details = ImportDetails;

    fn description(_writes: bool) -> String {
        "Fetch new transactions from the plan's linked banks (YNAB's Import button); none comes \
twice. The user confirms. undo_operation deletes what came in."
            .to_string()
    }

    fn from_args(_args: PlanArgs, _today: NaiveDate) -> Result<Self, ToolError> {
        Ok(ImportTransactions)
    }
}

/// The applied message for `n` imported transactions (§9.4).
pub fn imported_message(n: usize) -> String {
    if n == 0 {
        "No new transaction to import.".to_string()
    } else {
        format!(
            "Imported {n} transaction(s). suggest_categories lists those that still need a category."
        )
    }
}

impl ConfirmedWrite for ImportTransactions {
    type Change = Import;
    const TOOL: &'static str = "import_transactions";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::Import;
    const UNDO: Undoable = Undoable::No(None);

    /// The plan is read to resolve `last-used` and check the plan exists: the subject is
    /// `{"import": true}`, bound to the resolved plan by the fingerprint (D3, D15, D17).
    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<Import>, ToolError> {
        let import = Import {
            transaction_ids: Vec::new(),
            knowledge: snapshot.server_knowledge,
        };
        Ok(Prepared::change(
            snapshot.id(),
            json!({"import": true}),
            QUESTION.to_string(),
            import,
        ))
    }

    fn intent_details(&self, change: &Import) -> Value {
        to_details(&ImportIntended {
            server_knowledge: Some(change.knowledge),
        })
    }

    /// The import, with the ids YNAB imported.
    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<Import>,
    ) -> Result<Written<Import>, WriteFailure> {
        let ids = context
            .plans
            .client()
            .import_transactions(&proposal.plan_id)
            .await?;
        let draft = JournalDraft {
            details: to_details(&Imported {
                transaction_ids: ids.clone(),
            }),
            ..JournalDraft::default()
        };
        Ok(Written {
            draft,
            applied: Some(Import {
                transaction_ids: ids,
                knowledge: proposal.change.knowledge,
            }),
        })
    }

    fn details(&self, change: &Import) -> ImportDetails {
        ImportDetails {
            imported: change.transaction_ids.len(),
            transaction_ids: change.transaction_ids.clone(),
        }
    }

    /// How many came in, and how to delete them again when any did.
    fn applied_message(&self, change: &Import, operation_id: Option<&str>) -> String {
        let done = imported_message(change.transaction_ids.len());
        match operation_id {
            Some(id) if !change.transaction_ids.is_empty() => {
                format!("{done} undo_operation with operation_id {id} deletes them.")
            }
            _ => done,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applied_messages() {
        assert_eq!(imported_message(0), "No new transaction to import.");
        assert_eq!(
            imported_message(3),
            "Imported 3 transaction(s). suggest_categories lists those that still need a category."
        );
    }
}
