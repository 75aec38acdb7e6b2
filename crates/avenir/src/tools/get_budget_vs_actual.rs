//! `get_budget_vs_actual` (`docs/contract/reads.md` §10): the share of each category's budget spent
//! in one month, with what the months before carried over.

use super::month_figures::{Percent, month_of, pointer, read_month};
use super::{AnswerTool, Answered, ListOf, PlanId, ToolError};
use crate::args::MonthOrCurrent;
use crate::context::Context;
use crate::logic::budget_month::{GroupNames, budget_vs_actual};
use crate::money::Amount;
use crate::text::safe;
use schemars::JsonSchema;
use serde::Serialize;

/// One visible category: what the month had to spend (carried_over + budgeted), what was spent
/// and what is left.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BudgetVsActual {
    /// Category id (note: `id`, not `category_id`).
    pub id: String,
    /// Category name (bank-safe text).
    pub name: String,
    /// Group name ("" when YNAB gives none).
    pub group: String,
    /// Assigned this month.
    pub budgeted: Amount,
    /// What the months before left available at the start (negative if the category started the
    /// month overspent and it was not covered).
    pub carried_over: Amount,
    /// Spending this month: activity with the sign flipped, positive for money spent, reduced by
    /// refunds.
    pub actual: Amount,
    /// carried_over + budgeted − actual: what is left; negative when overspent. A category can be
    /// over budget and still have money left.
    pub balance: Amount,
    /// actual ÷ budgeted in percent, one decimal; above 100 = over budget; 0 when nothing is
    /// budgeted. In the current month, under 100 may only mean the month is not over.
    pub utilization_pct: Percent,
}

crate::tool_args! {
    /// The arguments of `get_budget_vs_actual`.
    pub struct BudgetVsActualArgs {
        pub plan_id: Option<PlanId>,
        /// 'current' (default; partial), 'last', YYYY-MM or YYYY-MM-01.
        pub month: MonthOrCurrent,
    }
}

/// `get_budget_vs_actual`.
pub struct GetBudgetVsActual;

impl AnswerTool for GetBudgetVsActual {
    const NAME: &'static str = "get_budget_vs_actual";
    const TITLE: &'static str = "Budget vs actual";
    type Args = BudgetVsActualArgs;
    type Answer = ListOf<BudgetVsActual>;

    fn description(_writes: bool) -> String {
        let left = pointer(
            "get_category_balances",
            "Still available: get_category_balances.",
        );
        let totals = pointer("get_monthly_summary", "Totals: get_monthly_summary.");
        let trends = pointer(
            "get_spending_trends",
            "Earlier months: get_spending_trends.",
        );
        format!(
            "The share of each category's budget spent in one month: \"am I over budget?\", \
\"which categories are nearly used up?\".{left}{totals}{trends}"
        )
    }

    async fn run(
        context: &Context,
        args: BudgetVsActualArgs,
    ) -> Result<Answered<Self::Answer>, ToolError> {
        let wanted = args.month.0.resolve(context.settings.today());
        let snapshot = read_month(context, &args.plan_id, wanted).await?;
        let plan = &snapshot.plan;
        let month = month_of(plan, wanted)?;
        let groups = GroupNames::new(&plan.category_groups);
        let result = budget_vs_actual(month, &groups)
            .into_iter()
            .map(|line| BudgetVsActual {
                id: line.category.category.id.to_string(),
                name: safe(&line.category.category.name),
                group: safe(line.category.group),
                budgeted: Amount(line.budgeted),
                carried_over: Amount(line.carried_over),
                actual: Amount(line.actual),
                balance: Amount(line.balance),
                utilization_pct: Percent(line.utilization_tenths),
            })
            .collect();
        Ok(Answered::new(ListOf { result }, snapshot.id().to_string()))
    }
}
