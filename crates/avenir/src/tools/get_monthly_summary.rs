//! `get_monthly_summary` (`docs/contract/reads.md` §8): a month at a glance — income, assigned,
//! activity, Ready to Assign, Age of Money and the overspent categories.

use super::month_figures::{month_of, pointer, read_month};
use super::{AnswerTool, Answered, PlanId, ToolError};
use crate::args::MonthOrCurrent;
use crate::context::Context;
use crate::logic::budget_month::{GroupNames, month_summary};
use crate::money::Amount;
use crate::text::safe;
use schemars::JsonSchema;
use serde::Serialize;

/// An overspent category.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Overspent {
    /// Category id.
    pub category_id: String,
    /// Category name (bank-safe text).
    pub name: String,
    /// Group name ("" when YNAB gives none).
    pub group: String,
    /// Available at the end of the month: below zero.
    pub balance: Amount,
}

/// The answer of `get_monthly_summary`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MonthlySummary {
    /// The month read, YYYY-MM-01. The current month is partial, but already counts what was
    /// entered for its days still to come.
    pub month: String,
    /// Money received in the month and assigned to Ready to Assign.
    pub income: Amount,
    /// Total assigned to categories.
    pub budgeted: Amount,
    /// Total spent (negative) and received in categories.
    pub activity: Amount,
    /// Money without a job; negative when more was assigned than there is.
    pub ready_to_assign: Amount,
    /// YNAB's Age of Money, in days; null when YNAB gives none.
    pub age_of_money: Option<i32>,
    /// Categories whose available balance is below zero, in YNAB's order; hidden and YNAB's
    /// internal categories are never listed.
    pub overspent: Vec<Overspent>,
}

crate::tool_args! {
    /// The arguments of `get_monthly_summary`.
    pub struct MonthlySummaryArgs {
        pub plan_id: Option<PlanId>,
        /// 'current' (default; partial), 'last', YYYY-MM or YYYY-MM-01.
        pub month: MonthOrCurrent,
    }
}

/// `get_monthly_summary`.
pub struct GetMonthlySummary;

impl AnswerTool for GetMonthlySummary {
    const NAME: &'static str = "get_monthly_summary";
    const TITLE: &'static str = "Month summary";
    type Args = MonthlySummaryArgs;
    type Answer = MonthlySummary;

    fn description(_writes: bool) -> String {
        let balances = pointer(
            "get_category_balances",
            "Per category: get_category_balances.",
        );
        let trends = pointer(
            "get_spending_trends",
            "Earlier months: get_spending_trends.",
        );
        let forecast = pointer("forecast_balance", "Months ahead: forecast_balance.");
        format!(
            "A month at a glance, the first tool to review one: income, assigned, activity, Ready \
to Assign, Age of Money and the overspent categories.{balances}{trends}{forecast}"
        )
    }

    async fn run(
        context: &Context,
        args: MonthlySummaryArgs,
    ) -> Result<Answered<MonthlySummary>, ToolError> {
        let wanted = args.month.0.resolve(context.settings.today());
        let snapshot = read_month(context, &args.plan_id, wanted).await?;
        let plan = &snapshot.plan;
        let month = month_of(plan, wanted)?;
        let groups = GroupNames::new(&plan.category_groups);
        let summary = month_summary(month, &groups);
        Ok(Answered::new(
            MonthlySummary {
                month: wanted.label(),
                income: Amount(summary.income),
                budgeted: Amount(summary.budgeted),
                activity: Amount(summary.activity),
                ready_to_assign: Amount(summary.ready_to_assign),
                age_of_money: summary.age_of_money,
                overspent: summary
                    .overspent
                    .into_iter()
                    .map(|c| Overspent {
                        category_id: c.category.id.to_string(),
                        name: safe(&c.category.name),
                        group: safe(c.group),
                        balance: Amount(c.category.balance),
                    })
                    .collect(),
            },
            snapshot.id().to_string(),
        ))
    }
}
