//! `split_transaction` (`docs/contract/writes.md` §9.9): spread one transaction across categories,
//! lines adding up to the cent, in one confirmed step.
//!
//! YNAB's API cannot take a split's lines away afterwards, but undo_operation can still revert
//! it the way `edit_split` replaces lines: the transaction is created again on one line, in its
//! category before, and the split one deleted (`logic::undo::split`), so it comes back with a new
//! id and without its bank-import link. The question and the result say so before anyone agrees.

use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::{Money, Text};
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written, capped_lines,
};
use crate::context::Context;
use crate::logic::created::line_digest;
use crate::logic::split::{LineAsked, check};
use crate::logic::undo::irreversible::SplitIntended;
use crate::logic::undo::record::to_details;
use crate::logic::undo::split::SplitDone;
use crate::money::{Amount, MoneyFormat};
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::models::Milliunits;
use ynab::writes::{NewSubTransaction, TransactionUpdate};

/// Longest memo YNAB takes, in code points.
const MAX_MEMO: usize = 500;
/// The last line of the question: what undoing it costs.
const UNDO_NOTE: &str = "undo_operation can put it back on one line: the transaction is then created again, with a new id and without its bank-import link.";

/// The arguments of `split_transaction`, validated.
#[derive(Debug, Clone)]
pub struct SplitTransaction {
    transaction_id: String,
    lines: Vec<LineAsked>,
}

crate::tool_args! {
    /// The arguments of `split_transaction`.
    pub struct SplitTransactionArgs {
        pub plan_id: Option<PlanId>,
        /// From suggest_categories or find_transactions.
        #[give = "a transaction id from suggest_categories"]
        pub transaction_id: String,
        #[give = "the lines of the split"]
        pub lines: Vec<SplitLineArgs>,
    }
}

crate::tool_args! {
    // One line of `lines`. (A plain comment: a doc comment would become its schema's
    // description.)
    pub struct SplitLineArgs {
        /// Signed like the transaction.
        #[give = "the line's amount in currency units"]
        pub amount: Money,
        /// From suggest_categories or get_category_balances.
        #[give = "the line's category id"]
        pub category_id: String,
        pub memo: Option<Text<0, MAX_MEMO>>,
    }
}

/// One line of the split, as previewed.
#[derive(Debug, Clone)]
pub struct SplitLine {
    amount: Milliunits,
    category_id: String,
    category: String,
    memo: Option<String>,
}

/// The split proposed.
#[derive(Debug, Clone)]
pub struct SplitPlan {
    transaction_id: String,
    date: String,
    payee: String,
    amount: Milliunits,
    category_before: Option<String>,
    from_category: Option<String>,
    lines: Vec<SplitLine>,
    /// The memos as given (sent to YNAB; the preview shows them safe).
    memos: Vec<Option<String>>,
}

// One line of the split, as the answer shows it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SplitLineEntry {
    pub amount: Amount,
    pub category: String,
    pub memo: Option<String>,
}

// The fields of `split_transaction`'s answer, whatever its status.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SplitDetails {
    pub transaction_id: String,
    pub date: String,
    pub payee: String,
    pub amount: Amount,
    pub from_category: Option<String>,
    pub lines: Vec<SplitLineEntry>,
}

impl ConfirmedTool for SplitTransaction {
    const TITLE: &'static str = "Split a transaction across categories";
    const DESTRUCTIVE: bool = true;
    type Args = SplitTransactionArgs;
    type Details = SplitDetails;

    fn description(_writes: bool) -> String {
        "Split a transaction across categories: two or more lines adding up to its amount to the \
cent. The user sees each line and confirms. undo_operation restores one line (new id, no \
bank-import link)."
            .to_string()
    }

    fn from_args(args: SplitTransactionArgs, _today: NaiveDate) -> Result<Self, ToolError> {
        Ok(SplitTransaction {
            transaction_id: args.transaction_id,
            lines: args
                .lines
                .into_iter()
                .map(|line| LineAsked {
                    amount: line.amount.0,
                    category_id: line.category_id,
                    memo: line.memo.map(|m| m.0).filter(|m| !m.is_empty()),
                })
                .collect(),
        })
    }
}

impl SplitPlan {
    fn line_value(line: &SplitLine) -> SplitLineEntry {
        SplitLineEntry {
            amount: Amount(line.amount),
            category: line.category.clone(),
            memo: line.memo.clone(),
        }
    }
}

impl ConfirmedWrite for SplitTransaction {
    type Change = SplitPlan;
    const TOOL: &'static str = "split_transaction";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::Split;
    const APPLIED: &'static str = "Split.";
    const UNDO: Undoable =
        Undoable::Yes("puts it back on one line (created again: a new id, no bank-import link)");

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<SplitPlan>, ToolError> {
        let fmt = MoneyFormat::of(snapshot.plan.currency_format.as_ref());
        let split = check(&snapshot.plan, &self.transaction_id, &self.lines, &fmt)?;
        let tx = split.transaction;
        let change = SplitPlan {
            transaction_id: tx.id.clone().into(),
            date: tx.date.clone().into(),
            payee: safe(split.payee),
            amount: tx.amount,
            category_before: tx.category_id.clone().map(Into::into),
            from_category: split.from_category.map(safe),
            lines: split
                .lines
                .iter()
                .map(|l| SplitLine {
                    amount: l.amount,
                    category_id: l.category_id.clone(),
                    category: safe(l.category),
                    memo: l.memo.as_deref().map(safe).filter(|m| !m.is_empty()),
                })
                .collect(),
            memos: split.lines.iter().map(|l| l.memo.clone()).collect(),
        };
        let shown: Vec<String> = change
            .lines
            .iter()
            .map(|l| match &l.memo {
                Some(memo) => format!("- {} {} ({memo})", fmt.plain(l.amount), l.category),
                None => format!("- {} {}", fmt.plain(l.amount), l.category),
            })
            .collect();
        let mut question = vec![format!(
            "Split {} {} {} into {} lines?",
            change.date,
            change.payee,
            fmt.plain(change.amount),
            change.lines.len()
        )];
        question.extend(capped_lines(shown));
        question.push(UNDO_NOTE.to_string());
        let subject = json!({
            "transaction": change.transaction_id, "amount": change.amount,
            "category_before": change.category_before,
            "lines": change.lines.iter().zip(&change.memos).map(|(l, memo)| {
                json!({"amount": l.amount, "category_id": l.category_id, "memo": memo})
            }).collect::<Vec<_>>()
        });
        Ok(Prepared::Change(Proposal {
            plan_id: snapshot.id().to_string(),
            subject,
            question: question.join("\n"),
            change,
        }))
    }

    /// Ids, and a digest of each line salted at random, never an amount or a memo in clear (D31).
    fn intent_details(&self, change: &SplitPlan) -> Value {
        let salt = crate::random::hex::<16>();
        let digests = line_digests(change, &salt);
        to_details(&SplitIntended {
            transaction_id: change.transaction_id.clone(),
            category_before: change.category_before.clone(),
            line_digests: digests,
            digest_salt: Some(salt),
        })
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<SplitPlan>,
    ) -> Result<Written<SplitPlan>, WriteFailure> {
        let change = &proposal.change;
        let update = TransactionUpdate {
            id: change.transaction_id.clone(),
            category_id: Some(None),
            subtransactions: change
                .lines
                .iter()
                .zip(&change.memos)
                .map(|(l, memo)| NewSubTransaction {
                    amount: l.amount,
                    category_id: Some(l.category_id.clone()),
                    memo: memo.clone(),
                    ..NewSubTransaction::default()
                })
                .collect(),
            ..TransactionUpdate::default()
        };
        context
            .plans
            .client()
            .update_transactions(&proposal.plan_id, &[update])
            .await?;
        // The lines by digest, salted afresh (D31): what tells undo the split was not edited since.
        let salt = crate::random::hex::<16>();
        let line_digests = line_digests(change, &salt);
        Ok(JournalDraft {
            details: to_details(&SplitDone {
                transaction_id: change.transaction_id.clone(),
                category_before: change.category_before.clone(),
                line_digests: Some(line_digests),
                digest_salt: Some(salt),
            }),
            ..JournalDraft::default()
        }
        .into())
    }

    fn details(&self, change: &SplitPlan) -> SplitDetails {
        SplitDetails {
            transaction_id: change.transaction_id.clone(),
            date: change.date.clone(),
            payee: change.payee.clone(),
            amount: Amount(change.amount),
            from_category: change.from_category.clone(),
            lines: change.lines.iter().map(SplitPlan::line_value).collect(),
        }
    }
}
/// The split's lines by digest under `salt` (D31): never an amount or a memo in clear.
fn line_digests(change: &SplitPlan, salt: &str) -> Vec<String> {
    change
        .lines
        .iter()
        .zip(&change.memos)
        .map(|(l, memo)| line_digest(Some(salt), l.amount, Some(&l.category_id), memo.as_deref()))
        .collect()
}
