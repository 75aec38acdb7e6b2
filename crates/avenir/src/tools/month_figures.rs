//! What the month tools (`get_monthly_summary`, `get_category_balances`, `get_budget_vs_actual`)
//! share, and other tools borrow: reading one budget month of the plan, the percentage type, the
//! cost sentence of a plan read and the check that a tool named in a description is in this build.

use super::{PlanId, ToolError, plan_or_last_used, registry};
use crate::context::Context;
use crate::logic::budget_month::{find_month, held_range};
use crate::money::decimal;
use crate::months::CalendarMonth;
use crate::plan_store::PlanSnapshot;
use schemars::JsonSchema;
use serde::Serialize;
use std::sync::Arc;
use ynab::models::{Month, PlanDetail};

/// Whether a tool named `name` is in this build (descriptions name only those).
pub fn in_build(name: &str) -> bool {
    registry().iter().any(|t| t.name == name)
}

/// `" {sentence}"` when `tool` is in this build, else nothing.
pub(super) fn pointer(tool: &str, sentence: &str) -> String {
    if in_build(tool) {
        format!(" {sentence}")
    } else {
        String::new()
    }
}

/// `" {sentence}"` when the write gate is open and every one of `tools` is in this build, else
/// nothing: a read tool's description points to write tools only when the agent can call them
/// (`docs/contract/writes.md` §3, D19).
pub(super) fn write_pointer(writes: bool, tools: &[&str], sentence: &str) -> String {
    if writes && tools.iter().all(|t| in_build(t)) {
        format!(" {sentence}")
    } else {
        String::new()
    }
}

/// The plan `plan_id` names, with the budget month `month` loaded: called once every argument
/// passed, so nothing is sent to YNAB before.
pub(super) async fn read_month(
    context: &Context,
    plan_id: &Option<PlanId>,
    month: CalendarMonth,
) -> Result<Arc<PlanSnapshot>, ToolError> {
    let snapshot = context.plans.read(&plan_or_last_used(plan_id)).await?;
    let label = month.label();
    Ok(context.plans.with_months(snapshot, |m| m == label).await?)
}

/// The month `wanted` of the plan, or the sentence saying the plan does not hold it.
pub(super) fn month_of(plan: &PlanDetail, wanted: CalendarMonth) -> Result<&Month, ToolError> {
    find_month(&plan.months, wanted).ok_or_else(|| {
        ToolError::Refused(match held_range(&plan.months) {
            Some((first, last)) => format!(
                "Month {wanted} is not in this plan: YNAB holds its months from {first} to {last}."
            ),
            None => format!("Month {wanted} is not in this plan: YNAB holds no month for it."),
        })
    })
}

/// A percentage kept in tenths and written with one decimal (`113.1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Percent(pub i64);

impl Serialize for Percent {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        decimal(self.0, 1).serialize(serializer)
    }
}

impl JsonSchema for Percent {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Percent".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "number", "description": "A percentage with one decimal."})
    }
}
