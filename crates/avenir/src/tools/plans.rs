//! `list_plans` (`tools-read.md` §2): the plans the token can read, with the ids other tools take.

use super::{LegacySpec, Outcome, list_answer, list_schema};
use crate::args::Args;
use crate::context::Context;
use crate::text::safe;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

/// One plan.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PlanEntry {
    /// Plan id, to pass as plan_id.
    pub id: String,
    /// Plan name (bank-safe text).
    pub name: String,
    /// First month with data, YYYY-MM-01; null for an empty plan.
    pub first_month: Option<String>,
    /// Last month with data, YYYY-MM-01; null for an empty plan.
    pub last_month: Option<String>,
}

pub fn spec() -> LegacySpec {
    LegacySpec {
        name: "list_plans",
        title: "List plans",
        description: |_| {
            "List the plans this YNAB token can read, with the id every other tool takes as plan_id. \
A plan is what YNAB now calls a budget: the user may still say \"budget\". Call it once and keep the id; \
no other tool reads this list. 'last-used' also works as a plan_id, but it names the plan last opened in \
YNAB when the server first meets it and keeps naming that plan while the server runs, so pass the id \
when there are several plans. For what a plan holds, see list_accounts. \
Cost: one YNAB request. Changes nothing."
                .to_string()
        },
        input_schema: || json!({"type": "object", "properties": {}, "additionalProperties": false}),
        output_schema: list_schema::<PlanEntry>,
        read_only: true,
        idempotent: true,
        destructive: None,
    }
}

pub async fn run(context: &Context, args: Args) -> Outcome {
    if let Err(error) = args.finish("list_plans") {
        return error.into();
    }
    let plans = match context.plans.client().plans().await {
        Ok(plans) => plans,
        Err(error) => return error.into(),
    };
    let entries = plans
        .into_iter()
        .map(|p| PlanEntry {
            id: p.id,
            name: safe(&p.name),
            first_month: p.first_month,
            last_month: p.last_month,
        })
        .collect();
    list_answer::<PlanEntry>(entries, None)
}
