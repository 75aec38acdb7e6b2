//! `get_spending_trends` (`tools-read.md` §11): spending per category, month by month, over the
//! last months up to the current one, keyed by category id with each category's group and name.

use super::budget_month::{PLAN_READ_COST, in_build};
use super::{LegacySpec, Outcome, object_answer, plan_id_property, schema_value, take_plan_id};
use crate::args::Args;
use crate::context::Context;
use crate::logic::budget_month::GroupNames;
use crate::logic::trends::spending_trends;
use crate::money::Amount;
use crate::months::held_months;
use crate::text::safe;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;
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
    /// Spending: activity with the sign flipped, positive for money spent, reduced by refunds
    /// (negative when refunds exceed it).
    pub amount: Amount,
}

/// One category's trend.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CategoryTrend {
    /// Group name ("" when YNAB gives none).
    pub group: String,
    /// Category name (bank-safe text).
    pub name: String,
    /// Its spending in each month it appears in, oldest first.
    pub months: Vec<MonthSpending>,
}

/// The answer: category id → its trend. (A JSON object's keys carry no order; each entry names
/// its category.)
pub type SpendingTrends = BTreeMap<String, CategoryTrend>;

pub fn spec() -> LegacySpec {
    LegacySpec {
        name: "get_spending_trends",
        title: "Spending trends",
        description: |_writes| {
            let single: Vec<&str> = ["get_category_balances", "get_budget_vs_actual"]
                .into_iter()
                .filter(|t| in_build(t))
                .collect();
            let single = if single.is_empty() {
                String::new()
            } else {
                format!(" A single month in detail: {}.", single.join(" or "))
            };
            let future = if in_build("forecast_balance") {
                " The months ahead: forecast_balance."
            } else {
                ""
            };
            format!(
                "Spending per category, month by month: \"is my grocery spending going up?\". \
months_count counts back from the current month, included (default 3 = this month, partial, and \
the two before; at most 24); a younger plan gives the months it holds, and months budgeted ahead \
are never read. The answer maps each category id to its group, its name and its monthly amounts, \
oldest first. An amount is the spending: YNAB's activity with the sign flipped, positive for money \
spent, reduced by refunds (negative when refunds exceed it). Hidden and YNAB's internal categories \
are left out.{single}{future} {PLAN_READ_COST} Changes nothing."
            )
        },
        input_schema: || {
            json!({
                "type": "object",
                "properties": {
                    "plan_id": plan_id_property(),
                    "months_count": {"type": "integer", "minimum": 1, "maximum": MAX_MONTHS,
                                     "default": DEFAULT_MONTHS,
                                     "description": "Months to read, the current one included."}
                },
                "required": ["plan_id"],
                "additionalProperties": false
            })
        },
        output_schema: schema_value::<SpendingTrends>,
        read_only: true,
        idempotent: true,
        destructive: None,
    }
}

pub async fn run(context: &Context, mut args: Args) -> Outcome {
    let parsed = (|| {
        let plan_id = take_plan_id(&mut args)?;
        let count = args.integer("months_count", DEFAULT_MONTHS, 1, MAX_MONTHS)?;
        args.finish("get_spending_trends")?;
        Ok::<_, crate::args::ArgError>((plan_id, count))
    })();
    let (plan_id, count) = match parsed {
        Ok(parsed) => parsed,
        Err(error) => return error.into(),
    };
    let snapshot = match context.plans.read(&plan_id).await {
        Ok(snapshot) => snapshot,
        Err(error) => return error.into(),
    };
    let count = usize::try_from(count).unwrap_or(1);
    let kept: Vec<String> = held_months(&snapshot.plan.months, context.settings.today(), count)
        .iter()
        .map(|(_, m)| m.month.clone())
        .collect();
    let snapshot = match context
        .plans
        .with_months(snapshot, |m| kept.iter().any(|k| k == m))
        .await
    {
        Ok(snapshot) => snapshot,
        Err(error) => return error.into(),
    };
    let plan = &snapshot.plan;
    let months = held_months(&plan.months, context.settings.today(), count);
    let groups = GroupNames::new(&plan.category_groups);
    let answer: SpendingTrends = spending_trends(&months, &groups)
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
    object_answer(answer, Some(snapshot.id().to_string()))
}
