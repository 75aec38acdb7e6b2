//! `edit_split` (`docs/writes/edit_split.md`): replace the lines of an existing split in one
//! confirmed step. YNAB's API cannot change a split's lines, so the transaction is created again
//! with the new lines (same date, amount, payee, account, memo, cleared, approved, flag), then
//! the old one is deleted: its id changes and its bank-import link is lost.
//!
//! Created first, deleted second: a failure in between leaves a visible duplicate (named in the
//! answer, removed by `undo_operation`), never a transaction missing from the plan. The journal
//! keeps ids, the plan's knowledge and a salted digest (D31); undo reads the old lines from
//! YNAB's tombstone, as for `delete_transactions`.

use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::{Money, Text};
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written, applied,
};
use crate::context::Context;
use crate::digest::order_free;
use crate::logic::assignable::CategoryIndex;
use crate::logic::split::LineAsked;
use crate::logic::split_edit::{EditLine, SplitEdit, check_edit, new_digest, shown_line};
use crate::logic::undo::{record::to_details, split_edit::SplitEditDone};
use crate::money::{Amount, MoneyFormat};
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::writes::NewTransaction;

/// Longest memo YNAB takes, in code points.
const MAX_MEMO: usize = 500;

/// What the question and the answers say the recreation loses.
pub const RECREATED: &str = "It is recreated with the new lines: its id changes and its bank-import link is lost; undo_operation puts the old lines back the same way.";

/// `edit_split`, its arguments read.
#[derive(Debug, Clone)]
pub struct EditSplit {
    transaction_id: String,
    lines: Vec<EditLine>,
}

crate::tool_args! {
    /// The arguments of `edit_split`.
    pub struct EditSplitArgs {
        pub plan_id: Option<PlanId>,
        /// A split transaction, from find_transactions.
        #[give = "the id of a split transaction from find_transactions"]
        pub transaction_id: String,
        #[give = "the new lines of the split"]
        pub lines: Vec<EditSplitLineArgs>,
    }
}

crate::tool_args! {
    // One line of `lines`. (A plain comment: a doc comment would become its schema's
    // description.)
    pub struct EditSplitLineArgs {
        /// Signed like the transaction.
        #[give = "the line's amount in currency units"]
        pub amount: Money,
        /// From get_category_balances.
        #[give = "the line's category id"]
        pub category_id: String,
        pub memo: Option<Text<0, MAX_MEMO>>,
        /// Not a transfer payee; from list_payees.
        pub payee_id: Option<String>,
    }
}

// One line, as the answer shows it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct EditSplitLineEntry {
    pub amount: Amount,
    pub category: String,
    pub memo: Option<String>,
}

/// The edit proposed.
#[derive(Debug, Clone)]
pub struct SplitEditPlan {
    transaction_id: String,
    date: String,
    payee: String,
    account: String,
    amount: ynab::models::Milliunits,
    before: Vec<EditSplitLineEntry>,
    after: Vec<EditSplitLineEntry>,
    /// The transaction to create (the memos as given).
    new: NewTransaction,
    /// The plan's knowledge when read: undo reads the old transaction's tombstone since.
    knowledge: i64,
    /// Salt of the new transaction's digest (D31), and the digest.
    salt: String,
    digest: String,
    /// The new transaction's id, once created.
    new_id: Option<String>,
}

// The fields of `edit_split`'s answer, whatever its status.
#[derive(Debug, Serialize, JsonSchema)]
pub struct EditSplitDetails {
    pub transaction_id: String,
    /// The transaction's id once recreated (null until applied).
    pub new_transaction_id: Option<String>,
    pub date: String,
    pub payee: String,
    pub account: String,
    pub amount: Amount,
    pub lines_before: Vec<EditSplitLineEntry>,
    pub lines_after: Vec<EditSplitLineEntry>,
}

/// The question's lines: each line before, then each after.
fn shown_lines(edit: &SplitEdit<'_>, index: &CategoryIndex, fmt: &MoneyFormat) -> Vec<String> {
    let mut lines: Vec<String> = edit
        .before
        .iter()
        .map(|l| {
            let shown = shown_line(
                l.amount,
                l.category_id.as_deref(),
                l.memo.as_deref(),
                index,
                fmt,
            );
            format!("- before: {shown}")
        })
        .collect();
    lines.extend(edit.after.iter().map(|l| {
        let shown = shown_line(
            l.amount,
            Some(&l.category_id),
            l.memo.as_deref(),
            index,
            fmt,
        );
        format!("- after: {shown}")
    }));
    lines
}

/// The subject: every value the person sees or the recreation keeps, so a change in between is
/// stale.
fn subject(edit: &SplitEdit<'_>) -> Value {
    let t = edit.transaction;
    let line_value = |amount, category: Option<&str>, memo: Option<&str>, payee: Option<&str>| {
        json!([amount, category, memo, payee])
    };
    json!({"edit_split": {
        "transaction": [t.id, t.date, t.amount, t.account_id, t.payee_id, t.memo, t.cleared,
                        t.approved, t.flag_color],
        "before": order_free(edit.before.iter().map(|l| line_value(l.amount,
            l.category_id.as_deref(), l.memo.as_deref(), l.payee_id.as_deref())).collect()),
        "after": order_free(edit.after.iter().zip(&edit.payees).map(|(l, p)| line_value(
            l.amount, Some(&l.category_id), l.memo.as_deref(), p.as_deref())).collect()),
    }})
}

impl ConfirmedTool for EditSplit {
    const TITLE: &'static str = "Edit the lines of a split transaction";
    const DESTRUCTIVE: bool = true;
    type Args = EditSplitArgs;
    type Details = EditSplitDetails;

    fn description(_writes: bool) -> String {
        "Replace an existing split's lines (to split one, use split_transaction): two or \
more, adding up to its amount to the cent. It is recreated: new id, no bank-import link. The user \
sees old and new lines and confirms. undo_operation restores the old ones likewise. Costs 3 requests."
            .to_string()
    }

    fn from_args(args: EditSplitArgs, _today: NaiveDate) -> Result<Self, ToolError> {
        Ok(EditSplit {
            transaction_id: args.transaction_id,
            lines: args
                .lines
                .into_iter()
                .map(|line| EditLine {
                    line: LineAsked {
                        amount: line.amount.0,
                        category_id: line.category_id,
                        memo: line.memo.map(|m| m.0).filter(|m| !m.is_empty()),
                    },
                    payee_id: line.payee_id.filter(|p| !p.is_empty()),
                })
                .collect(),
        })
    }
}

impl ConfirmedWrite for EditSplit {
    type Change = SplitEditPlan;
    const TOOL: &'static str = "edit_split";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::SplitEdit;
    const UNDO: Undoable = Undoable::Yes("puts the old lines back (with a new id again)");

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<SplitEditPlan>, ToolError> {
        let plan = &snapshot.plan;
        let fmt = MoneyFormat::of(plan.currency_format.as_ref());
        let edit = check_edit(plan, &self.transaction_id, &self.lines, &fmt)?;
        let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
        let t = edit.transaction;
        let entry = |amount, category_id: Option<&str>, memo: Option<&str>| EditSplitLineEntry {
            amount: Amount(amount),
            category: category_id
                .and_then(|c| index.visible_name(c))
                .map(safe)
                .unwrap_or_default(),
            memo: memo.map(safe).filter(|m| !m.is_empty()),
        };
        let before: Vec<EditSplitLineEntry> = edit
            .before
            .iter()
            .map(|l| entry(l.amount, l.category_id.as_deref(), l.memo.as_deref()))
            .collect();
        let after: Vec<EditSplitLineEntry> = edit
            .after
            .iter()
            .map(|l| entry(l.amount, Some(&l.category_id), l.memo.as_deref()))
            .collect();
        let lines = shown_lines(&edit, &index, &fmt);
        let payee = safe(edit.payee);
        let account = safe(edit.account);
        let head = format!(
            "Replace the {} lines of {} {payee} {} on {account} with {} lines? {RECREATED}",
            edit.before.len(),
            t.date,
            fmt.plain(t.amount),
            edit.after.len()
        );
        let subject = subject(&edit);
        let new = edit.recreation();
        let salt = crate::random::hex::<16>();
        let change = SplitEditPlan {
            transaction_id: t.id.clone().into(),
            date: t.date.clone().into(),
            payee,
            account,
            amount: t.amount,
            before,
            after,
            digest: new_digest(&salt, &new),
            new,
            knowledge: snapshot.server_knowledge,
            salt,
            new_id: None,
        };
        let question = crate::confirm::question(head, lines);
        Ok(Prepared::change(snapshot.id(), subject, question, change))
    }

    /// D31: ids, the knowledge undo reads the old transaction's tombstone since, and the new
    /// transaction's salted digest (its id is not known before it is created).
    fn intent_details(&self, change: &SplitEditPlan) -> Value {
        to_details(&SplitEditDone {
            old_id: change.transaction_id.clone(),
            new_id: None,
            server_knowledge: change.knowledge,
            digest_salt: change.salt.clone(),
            new_digest: change.digest.clone(),
        })
    }

    /// Create the new transaction, then delete the old one. A failure of the delete leaves both
    /// in the plan: the answer names them, and the intent stays unfinished for undo_operation.
    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<SplitEditPlan>,
    ) -> Result<Written<SplitEditPlan>, WriteFailure> {
        let change = &proposal.change;
        let plan = proposal.plan_id.as_str();
        let old = &change.transaction_id;
        let client = context.plans.client();
        let saved = client
            .create_transactions(plan, std::slice::from_ref(&change.new))
            .await?;
        let new_id = saved
            .transaction_ids
            .first()
            .cloned()
            .or_else(|| saved.transactions.first().map(|t| t.id.clone()))
            .or_else(|| saved.transaction.as_ref().map(|t| t.id.clone()));
        let Some(new_id) = new_id else {
            return Err(WriteFailure::Unknown(format!(
                "YNAB created the new transaction but named no id for it, so the old one ({old}) was not deleted: the plan may show it twice."
            )));
        };
        if let Err(error) = client.delete_transaction(plan, old).await {
            let failure = WriteFailure::from(error);
            let this = match failure {
                WriteFailure::NothingChanged(_) => format!("the old one ({old}) was not deleted"),
                WriteFailure::Unknown(_) => {
                    format!("the old one ({old}) may or may not be deleted")
                }
            };
            return Err(WriteFailure::Unknown(format!(
                "{} (the new split {new_id} was created; {this}: the plan may show the transaction twice, and undo_operation removes the new one.)",
                failure.text()
            )));
        }
        let draft = JournalDraft {
            details: to_details(&SplitEditDone {
                old_id: old.clone(),
                new_id: Some(new_id.clone()),
                server_knowledge: change.knowledge,
                digest_salt: change.salt.clone(),
                new_digest: change.digest.clone(),
            }),
            ..JournalDraft::default()
        };
        Ok(Written {
            draft,
            applied: Some(SplitEditPlan {
                new_id: Some(new_id),
                ..change.clone()
            }),
        })
    }

    fn details(&self, change: &SplitEditPlan) -> EditSplitDetails {
        EditSplitDetails {
            transaction_id: change.transaction_id.clone(),
            new_transaction_id: change.new_id.clone(),
            date: change.date.clone(),
            payee: change.payee.clone(),
            account: change.account.clone(),
            amount: Amount(change.amount),
            lines_before: change.before.clone(),
            lines_after: change.after.clone(),
        }
    }

    fn applied_message(&self, change: &SplitEditPlan, operation_id: Option<&str>) -> String {
        let new = change.new_id.as_deref().unwrap_or("new");
        let done = format!(
            "Lines replaced. The transaction's id is now {new}, and its bank-import link is gone."
        );
        applied(&done, Self::UNDO, operation_id)
    }
}
