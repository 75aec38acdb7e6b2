//! `apply_categories` (`docs/contract/writes.md` §7): give transactions a category, or replace one,
//! in one confirmed and undoable step.

use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::StringMember;
use crate::confirm::Move;
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Style, WriteFailure, Written,
};
use crate::context::Context;
use crate::digest::order_free;
use crate::logic::assignable::{CategoryIndex, Role};
use crate::logic::names::{PlanNames, SplitLines};
use crate::logic::undo::details::Categorized;
use crate::logic::undo::{CategoryMove, record::to_details};
use crate::money::{Amount, MoneyFormat};
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::writes::TransactionUpdate;

/// One assignment asked for.
#[derive(Debug, Clone)]
pub struct Assignment {
    pub transaction_id: String,
    pub category_id: String,
}

/// `apply_categories`, its arguments validated.
#[derive(Debug, Clone)]
pub struct ApplyCategories {
    assignments: Vec<Assignment>,
}

pub use crate::logic::recategorised::Recategorised;

impl From<&Recategorised> for ChangeEntry {
    fn from(c: &Recategorised) -> Self {
        ChangeEntry {
            transaction_id: c.transaction_id.clone(),
            date: c.date.clone(),
            amount: Amount(c.amount),
            payee: c.payee.clone(),
            from_category_id: c.from_category_id.clone(),
            from_category: c.from_category.clone(),
            to_category_id: c.to_category_id.clone(),
            to_category: c.to_category.clone(),
        }
    }
}

/// What `apply_categories` proposes.
#[derive(Debug, Clone)]
pub struct Recategorisation {
    pub changes: Vec<Recategorised>,
    pub unchanged_count: usize,
    pub conflicts: Vec<String>,
}

crate::tool_args! {
    // One entry of `assignments`. (A plain comment: a doc comment would become the description
    // of the list's items.)
    pub struct AssignmentArgs {
        pub transaction_id: StringMember,
        pub category_id: StringMember,
    }
}

crate::tool_args! {
    /// The arguments of `apply_categories`.
    pub struct ApplyCategoriesArgs {
        pub plan_id: Option<PlanId>,
        pub assignments: Vec<AssignmentArgs>,
    }
}

// One change of category in the answer. (A plain comment: a doc comment would become the
// description of the list's items.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct ChangeEntry {
    pub transaction_id: String,
    pub date: String,
    pub amount: Amount,
    pub payee: String,
    pub from_category_id: Option<String>,
    pub from_category: Option<String>,
    pub to_category_id: Option<String>,
    pub to_category: Option<String>,
}

// The fields of `apply_categories`' answer (and of a `categorize` undo's), whatever its status.
// (A plain comment: the struct is flattened into the answer, whose schema has no description.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct RecategorisationDetails {
    pub changes: Vec<ChangeEntry>,
    pub unchanged_count: usize,
    /// Ids changed since, left alone.
    pub conflicts: Vec<String>,
}

/// The transaction `tx_id`, when it can be given the category `cat_id`: in the plan, a real
/// visible category that is not a card payment, not split, on budget and not a transfer.
fn assignable<'p>(
    plan: &'p ynab::models::PlanDetail,
    (index, splits): (&CategoryIndex, &SplitLines),
    tx_id: &str,
    cat_id: &str,
) -> Result<&'p ynab::models::TransactionSummary, ToolError> {
    let Some(tx) = plan
        .transactions
        .iter()
        .find(|t| t.id == tx_id && !t.deleted)
    else {
        return Err(format!(
            "Transaction {tx_id} is not in this plan: use the transaction_id values returned by suggest_categories."
        ).into());
    };
    if index.is_uncategorized(cat_id) {
        return Err(format!(
            "Category {cat_id} is YNAB's internal Uncategorized: choose a real category."
        )
        .into());
    }
    if !index.is_visible(cat_id) {
        return Err(format!(
            "Category {cat_id} is not in this plan: use a category_id from the categories returned by suggest_categories."
        ).into());
    }
    if index.role(cat_id) == Some(Role::CreditCardPayment) {
        return Err(format!(
            "Category {cat_id} pays a credit card: YNAB ignores it on a transaction. Choose the category of what was paid for."
        ).into());
    }
    if splits.has_any(tx_id) {
        return Err(format!(
            "Transaction {tx_id} is split across categories: change its lines in YNAB."
        )
        .into());
    }
    let on_budget = plan
        .accounts
        .iter()
        .find(|acc| acc.id == tx.account_id)
        .is_some_and(|acc| acc.on_budget);
    if !on_budget {
        return Err(format!(
            "Transaction {tx_id} is on an off-budget account: YNAB gives it no category."
        )
        .into());
    }
    if tx.transfer_account_id.is_some() {
        return Err(format!(
            "Transaction {tx_id} is a transfer between accounts: YNAB gives it no category."
        )
        .into());
    }
    Ok(tx)
}

impl ConfirmedTool for ApplyCategories {
    const TITLE: &'static str = "Assign categories to transactions";
    const IDEMPOTENT: bool = true;
    const DESTRUCTIVE: bool = true;
    type Args = ApplyCategoriesArgs;
    type Details = RecategorisationDetails;

    fn description(_writes: bool) -> String {
        "Give transactions a category or replace theirs (from suggest_categories or the user's \
choice). The user sees each change and confirms. undo_operation reverts it."
            .to_string()
    }

    fn from_args(args: ApplyCategoriesArgs, _today: NaiveDate) -> Result<Self, ToolError> {
        Ok(ApplyCategories {
            assignments: args
                .assignments
                .into_iter()
                .map(|a| Assignment {
                    transaction_id: a.transaction_id.0,
                    category_id: a.category_id.0,
                })
                .collect(),
        })
    }
}

impl ConfirmedWrite for ApplyCategories {
    type Change = Recategorisation;
    const TOOL: &'static str = "apply_categories";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::Categorize;

    fn style(&self, _change: &Recategorisation) -> Style {
        Style::Plan
    }

    fn items(&self, change: &Recategorisation) -> usize {
        change.changes.len()
    }

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<Recategorisation>, ToolError> {
        let plan = &snapshot.plan;
        let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
        let names = PlanNames::new(plan);
        let splits = SplitLines::new(&plan.subtransactions);
        let mut seen = std::collections::HashSet::new();
        let mut changes = Vec::new();
        let mut unchanged_count = 0;
        for a in &self.assignments {
            let tx_id = &a.transaction_id;
            let cat_id = &a.category_id;
            if !seen.insert(tx_id.as_str()) {
                return Err(
                    format!("Transaction {tx_id} is assigned twice: keep one assignment.").into(),
                );
            }
            let tx = assignable(plan, (&index, &splits), tx_id, cat_id)?;
            if tx.category_id.as_deref() == Some(cat_id.as_str()) {
                unchanged_count += 1;
                continue;
            }
            let name = |id: Option<&str>| id.and_then(|id| index.visible_name(id)).map(safe);
            changes.push(Recategorised {
                transaction_id: tx.id.clone().into(),
                date: tx.date.clone().into(),
                amount: tx.amount,
                payee: safe(names.payee(tx.payee_id.as_deref())),
                from_category_id: tx.category_id.clone().map(Into::into),
                from_category: name(tx.category_id.as_deref()),
                to_category_id: Some(cat_id.clone()),
                to_category: name(Some(cat_id)),
            });
        }
        let change = Recategorisation {
            changes,
            unchanged_count,
            conflicts: Vec::new(),
        };
        if change.changes.is_empty() {
            return Ok(self.nothing_to_do(&change, "Nothing to change.", snapshot.id()));
        }
        let fmt = MoneyFormat::of(plan.currency_format.as_ref());
        let question = crate::confirm::question(
            format!("Recategorise {} transaction(s)?", change.changes.len()),
            change.changes.iter().map(|c| c.line(&fmt)).collect(),
        );
        Ok(Prepared::change(
            snapshot.id(),
            subject(&change.changes),
            question,
            change,
        ))
    }

    fn intent_details(&self, change: &Recategorisation) -> Value {
        let moves = change.changes.iter().map(|c| CategoryMove {
            transaction_id: c.transaction_id.clone(),
            from_category_id: c.from_category_id.clone(),
            to_category_id: c.to_category_id.clone(),
        });
        to_details(&Categorized {
            moves: moves.collect(),
        })
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<Recategorisation>,
    ) -> Result<Written<Recategorisation>, WriteFailure> {
        let updates: Vec<TransactionUpdate> = proposal
            .change
            .changes
            .iter()
            .map(|c| TransactionUpdate {
                id: c.transaction_id.clone(),
                category_id: Some(c.to_category_id.clone()),
                ..TransactionUpdate::default()
            })
            .collect();
        context
            .plans
            .client()
            .update_transactions(&proposal.plan_id, &updates)
            .await?;
        Ok(JournalDraft {
            moves: moves(&proposal.change.changes),
            // A line keeps its moves beside its details, which are empty (as the reference's).
            details: Value::Object(serde_json::Map::new()),
            ..JournalDraft::default()
        }
        .into())
    }

    fn details(&self, change: &Recategorisation) -> RecategorisationDetails {
        change.details()
    }
}

impl Recategorisation {
    /// The answer's fields for this recategorisation.
    pub fn details(&self) -> RecategorisationDetails {
        RecategorisationDetails {
            changes: self.changes.iter().map(ChangeEntry::from).collect(),
            unchanged_count: self.unchanged_count,
            conflicts: self.conflicts.clone(),
        }
    }
}

/// D15: an order-free list of `{transaction_id, category_before, category_after}`.
pub fn subject(changes: &[Recategorised]) -> Value {
    order_free(
        changes
            .iter()
            .map(|c| {
                json!({"transaction_id": c.transaction_id, "category_before": c.from_category_id,
                       "category_after": c.to_category_id})
            })
            .collect(),
    )
}

/// The journal's moves.
pub fn moves(changes: &[Recategorised]) -> Vec<Move> {
    changes
        .iter()
        .map(|c| Move {
            transaction_id: c.transaction_id.clone(),
            from_category_id: c.from_category_id.clone(),
            to_category_id: c.to_category_id.clone(),
        })
        .collect()
}
