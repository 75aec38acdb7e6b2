//! `list_plans` (`docs/contract/reads.md` §2): the plans the token can read, with the ids other
//! tools take.

use super::{AnswerTool, Answered, ListOf, ToolError};
use crate::context::Context;
use crate::text::safe;
use schemars::JsonSchema;
use serde::Serialize;

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

crate::tool_args! {
    /// The arguments of `list_plans`: none.
    pub struct ListPlansArgs {}
}

/// `list_plans`.
pub struct ListPlans;

impl AnswerTool for ListPlans {
    const NAME: &'static str = "list_plans";
    const TITLE: &'static str = "List plans";
    type Args = ListPlansArgs;
    type Answer = ListOf<PlanEntry>;

    fn description(_writes: bool) -> String {
        "The plans (YNAB's word for budgets) this token can read, with ids. Call it first: with \
several plans, pass the right id as plan_id to every other tool; left out, plan_id is the plan \
last opened in YNAB."
            .to_string()
    }

    async fn run(
        context: &Context,
        _args: ListPlansArgs,
    ) -> Result<Answered<Self::Answer>, ToolError> {
        let plans = context.plans.client().plans().await?;
        let result = plans
            .into_iter()
            .map(|p| PlanEntry {
                id: p.id,
                name: safe(&p.name),
                first_month: p.first_month,
                last_month: p.last_month,
            })
            .collect();
        // The list names no plan of its own: no plan in `_meta`.
        Ok(Answered::new(ListOf { result }, None::<String>))
    }
}
