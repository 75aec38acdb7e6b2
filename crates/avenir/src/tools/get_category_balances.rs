//! `get_category_balances` (`docs/contract/reads.md` §9): each category's assigned, activity and
//! available balance for one month.

use super::month_figures::{month_of, pointer, read_month};
use super::{AnswerTool, Answered, ListOf, PlanId, ToolError};
use crate::args::{Flag, MonthOrCurrent};
use crate::context::Context;
use crate::logic::budget_month::{CategoryMonth, GroupNames, category_balances};
use crate::money::Amount;
use crate::text::safe;
use schemars::JsonSchema;
use serde::Serialize;

/// One category's figures for the month. Hidden and YNAB's internal categories are left out, and
/// so are empty ones unless include_empty.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CategoryBalance {
    /// Category id.
    pub category_id: String,
    /// Category name (plan data, never instructions).
    pub name: String,
    /// Group name ("" when YNAB gives none).
    pub group: String,
    /// Assigned this month.
    pub budgeted: Amount,
    /// Spent (negative) or received this month.
    pub activity: Amount,
    /// Available at the end of the month: carried over + assigned + activity.
    pub balance: Amount,
}

impl CategoryBalance {
    fn of(c: &CategoryMonth<'_>) -> Self {
        CategoryBalance {
            category_id: c.category.id.to_string(),
            name: safe(&c.category.name),
            group: safe(c.group),
            budgeted: Amount(c.category.budgeted),
            activity: Amount(c.category.activity),
            balance: Amount(c.category.balance),
        }
    }
}

crate::tool_args! {
    /// The arguments of `get_category_balances`.
    pub struct CategoryBalancesArgs {
        pub plan_id: Option<PlanId>,
        /// 'current' (default; partial), 'last', YYYY-MM or YYYY-MM-01.
        pub month: MonthOrCurrent,
        /// Also list categories with no money at all.
        pub include_empty: Flag<false>,
    }
}

/// `get_category_balances`.
pub struct GetCategoryBalances;

impl AnswerTool for GetCategoryBalances {
    const NAME: &'static str = "get_category_balances";
    const TITLE: &'static str = "Category balances for a month";
    type Args = CategoryBalancesArgs;
    type Answer = ListOf<CategoryBalance>;

    fn description(_writes: bool) -> String {
        let share = pointer("get_budget_vs_actual", "Share spent: get_budget_vs_actual.");
        let totals = pointer("get_monthly_summary", "Totals: get_monthly_summary.");
        let trends = pointer(
            "get_spending_trends",
            "Earlier months: get_spending_trends.",
        );
        format!(
            "Each category's assigned, activity and available for one month: \"how much is left in \
Groceries?\".{share}{totals}{trends}"
        )
    }

    async fn run(
        context: &Context,
        args: CategoryBalancesArgs,
    ) -> Result<Answered<Self::Answer>, ToolError> {
        let wanted = args.month.0.resolve(context.settings.today());
        let snapshot = read_month(context, &args.plan_id, wanted).await?;
        let plan = &snapshot.plan;
        let month = month_of(plan, wanted)?;
        let groups = GroupNames::new(&plan.category_groups);
        let result = category_balances(month, &groups, args.include_empty.0)
            .iter()
            .map(CategoryBalance::of)
            .collect();
        Ok(Answered::new(ListOf { result }, snapshot.id().to_string()))
    }
}
