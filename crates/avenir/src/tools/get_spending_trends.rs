//! `get_spending_trends` (`docs/contract/reads.md` §11): spending per category, month by month,
//! over the last months up to the current one, keyed by category id with each category's group and
//! name (under `categories`, beside the plan's `currency`).

use super::month_figures::in_build;
use super::{AnswerTool, Answered, PlanId, ToolError, plan_or_last_used};
use crate::args::{Flag, IntOr};
use crate::charts;
use crate::context::Context;
use crate::logic::budget_month::GroupNames;
use crate::logic::chart::{ChartMoney, SpendingCategory, spending_chart};
use crate::logic::trends::spending_trends;
use crate::money::Amount;
use crate::months::{CalendarMonth, held_months};
use crate::text::safe;
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::BTreeMap;

/// Months read when `months_count` is not given.
pub const DEFAULT_MONTHS: i64 = 3;
/// Most months one call reads.
pub const MAX_MONTHS: i64 = 24;

/// Spending in one month.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MonthSpending {
    /// The month, YYYY-MM-01.
    pub month: String,
    /// Spending: YNAB's activity with the sign flipped, positive for money spent, reduced by
    /// refunds (negative when refunds exceed it).
    pub amount: Amount,
}

/// One category's trend (hidden and YNAB's internal categories are left out).
#[derive(Debug, Serialize, JsonSchema)]
pub struct CategoryTrend {
    /// Group name ("" when YNAB gives none).
    pub group: String,
    /// Category name (bank-safe text).
    pub name: String,
    /// Its spending in each month it appears in, oldest first: the plan's months up to the current,
    /// partial one (never a month budgeted ahead).
    pub months: Vec<MonthSpending>,
}

/// The answer of `get_spending_trends`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SpendingTrends {
    /// Category id → its trend. (A JSON object's keys carry no order; each entry names its
    /// category.)
    pub categories: BTreeMap<String, CategoryTrend>,
}

crate::tool_args! {
    /// The arguments of `get_spending_trends`.
    pub struct SpendingTrendsArgs {
        pub plan_id: Option<PlanId>,
        /// Including the current, partial one.
        pub months_count: IntOr<1, MAX_MONTHS, DEFAULT_MONTHS>,
        /// Adds a PNG chart of the top categories.
        pub chart: Flag<false>,
    }
}

/// `get_spending_trends`.
pub struct GetSpendingTrends;

impl AnswerTool for GetSpendingTrends {
    const NAME: &'static str = "get_spending_trends";
    const TITLE: &'static str = "Spending trends";
    type Args = SpendingTrendsArgs;
    type Answer = SpendingTrends;

    fn description(_writes: bool) -> String {
        let single: Vec<&str> = ["get_category_balances", "get_budget_vs_actual"]
            .into_iter()
            .filter(|t| in_build(t))
            .collect();
        let single = if single.is_empty() {
            String::new()
        } else {
            format!(" One month in detail: {}.", single.join(", "))
        };
        let future = if in_build("forecast_balance") {
            " The months ahead: forecast_balance."
        } else {
            ""
        };
        format!(
            "Spending per category, month by month: \"is my grocery spending going up?\".\
{single}{future}"
        )
    }

    async fn run(
        context: &Context,
        args: SpendingTrendsArgs,
    ) -> Result<Answered<SpendingTrends>, ToolError> {
        let snapshot = context
            .plans
            .read(&plan_or_last_used(&args.plan_id))
            .await?;
        // The parser keeps the count within 1..=24, which every usize holds.
        let count = usize::try_from(args.months_count.0).unwrap_or(1);
        let kept: Vec<String> = held_months(&snapshot.plan.months, context.settings.today(), count)
            .iter()
            .map(|(_, m)| m.month.clone())
            .collect();
        let snapshot = context
            .plans
            .with_months(snapshot, |m| kept.iter().any(|k| k == m))
            .await?;
        let plan = &snapshot.plan;
        let months = held_months(&plan.months, context.settings.today(), count);
        let groups = GroupNames::new(&plan.category_groups);
        let trends = spending_trends(&months, &groups);
        let chart = args.chart.0.then(|| {
            let categories: Vec<SpendingCategory> = trends
                .iter()
                .map(|t| SpendingCategory {
                    name: t.name.to_string(),
                    months: t.months.clone(),
                })
                .collect();
            let money = ChartMoney::of(plan.currency_format.as_ref());
            let today = CalendarMonth::of(context.settings.today());
            charts::attachment(spending_chart(&money, &categories, today))
        });
        let categories = trends
            .into_iter()
            .map(|trend| {
                let entry = CategoryTrend {
                    group: safe(trend.group),
                    name: safe(trend.name),
                    months: trend
                        .months
                        .into_iter()
                        .map(|(month, amount)| MonthSpending {
                            month: month.label(),
                            amount: Amount(amount),
                        })
                        .collect(),
                };
                (trend.category_id.to_string(), entry)
            })
            .collect();
        let answer = SpendingTrends { categories };
        Ok(Answered::new(answer, snapshot.id().to_string()).with_chart(chart))
    }
}
