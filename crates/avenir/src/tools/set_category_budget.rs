//! `set_category_budget` (`docs/contract/writes.md` §9.8): a category's assigned amount for a
//! month, confirmed and undoable.

use super::assigned_amounts::{available_part, month_categories, unknown_category};
use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::{Money, Month};
use crate::confirm::{ConfirmedWrite, JournalDraft, Prepared, Proposal, WriteFailure, Written};
use crate::context::Context;
use crate::logic::undo::{self, record::to_details};
use crate::money::Amount;
use crate::money::MoneyFormat;
use crate::months::CalendarMonth;
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::models::Milliunits;

/// The arguments of `set_category_budget`, validated.
#[derive(Debug, Clone)]
pub struct SetBudget {
    month: CalendarMonth,
    category_id: String,
    amount: Milliunits,
}

/// The change `set_category_budget` proposes.
#[derive(Debug, Clone)]
pub struct BudgetChange {
    category_id: String,
    category: String,
    month: CalendarMonth,
    from: Milliunits,
    to: Milliunits,
    available_before: Milliunits,
}

crate::tool_args! {
    /// The arguments of `set_category_budget`.
    pub struct SetBudgetArgs {
        pub plan_id: Option<PlanId>,
        /// 'current', 'last', YYYY-MM or YYYY-MM-01.
        pub month: Month,
        /// From get_category_balances.
        #[give = "a category id from get_category_balances"]
        pub category_id: String,
        #[give = "the new assigned amount in currency units"]
        pub amount: Money,
    }
}

// The fields of `set_category_budget`'s answer, whatever its status. (A plain comment: the
// struct is flattened into the answer, whose schema has no description.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct BudgetDetails {
    pub category_id: String,
    /// Category name (bank-safe text).
    pub category: String,
    /// YYYY-MM-01.
    pub month: String,
    pub from_amount: Amount,
    pub to_amount: Amount,
    pub available_before: Amount,
    pub available_after: Amount,
}

impl ConfirmedTool for SetBudget {
    const TITLE: &'static str = "Set a category's budgeted amount";
    const IDEMPOTENT: bool = true;
    const DESTRUCTIVE: bool = true;
    type Args = SetBudgetArgs;
    type Details = BudgetDetails;

    fn description(_writes: bool) -> String {
        "Set one category's assigned amount for a month (absolute, not a change: 0 empties it). \
The user sees the available amount before and after and confirms. Can be undone."
            .to_string()
    }

    fn from_args(args: SetBudgetArgs, today: NaiveDate) -> Result<Self, ToolError> {
        Ok(SetBudget {
            month: args.month.0.resolve(today),
            category_id: args.category_id,
            amount: args.amount.0,
        })
    }
}

impl ConfirmedWrite for SetBudget {
    type Change = BudgetChange;
    const TOOL: &'static str = "set_category_budget";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::Budget;

    async fn prepare(
        &self,
        context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<BudgetChange>, ToolError> {
        let (snapshot, categories) = month_categories(context, snapshot, self.month).await?;
        let category = categories
            .iter()
            .find(|c| c.id == self.category_id && !c.deleted)
            .ok_or_else(|| unknown_category(&self.category_id))?;
        let change = BudgetChange {
            category_id: category.id.to_string(),
            category: safe(&category.name),
            month: self.month,
            from: category.budgeted,
            to: self.amount,
            available_before: category.balance,
        };
        if change.from == change.to {
            return Ok(self.nothing_to_do(&change, "Nothing to change.", snapshot.id()));
        }
        let fmt = MoneyFormat::of(snapshot.plan.currency_format.as_ref());
        let available_after = change.available_before + change.to - change.from;
        let question = format!(
            "Budget {} for {}: {} → {}{}?",
            change.category,
            change.month,
            fmt.plain(change.from),
            fmt.plain(change.to),
            available_part(&fmt, change.from, change.available_before, available_after)
        );
        let subject = json!({
            "category": change.category_id, "month": change.month.label(),
            "from": change.from, "to": change.to, "available_before": change.available_before
        });
        Ok(Prepared::Change(Proposal {
            plan_id: snapshot.id().to_string(),
            subject,
            question,
            change,
        }))
    }

    fn intent_details(&self, change: &BudgetChange) -> Value {
        to_details(&undo::Budgeted {
            month: change.month,
            category_id: change.category_id.clone(),
            from: change.from,
            to: change.to,
        })
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<BudgetChange>,
    ) -> Result<Written<BudgetChange>, WriteFailure> {
        let c = &proposal.change;
        context
            .plans
            .client()
            .set_assigned(&proposal.plan_id, &c.month.label(), &c.category_id, c.to)
            .await?;
        Ok(JournalDraft {
            details: self.intent_details(c),
            ..JournalDraft::default()
        }
        .into())
    }

    fn details(&self, change: &BudgetChange) -> BudgetDetails {
        BudgetDetails {
            category_id: change.category_id.clone(),
            category: change.category.clone(),
            month: change.month.label(),
            from_amount: Amount(change.from),
            to_amount: Amount(change.to),
            available_before: Amount(change.available_before),
            available_after: Amount(change.available_before + change.to - change.from),
        }
    }
}
