//! `list_category_groups` (`tools-read.md` §4): the groups a category can be created in or moved
//! to, ids and names only.

use super::{LegacySpec, Outcome, list_answer, list_schema, plan_id_schema, take_plan_id};
use crate::args::Args;
use crate::context::Context;
use crate::logic::categories::assignable_groups;
use crate::text::safe;
use schemars::JsonSchema;
use serde::Serialize;

/// One category group.
#[derive(Debug, Serialize, JsonSchema)]
pub struct GroupEntry {
    /// Group id.
    pub id: String,
    /// Group name (bank-safe text).
    pub name: String,
}

pub fn spec() -> LegacySpec {
    LegacySpec {
        name: "list_category_groups",
        title: "List category groups",
        description: |writes| {
            let create = if writes {
                "A group id goes to create_category, or to update_category as category_group_id."
            } else {
                "Categories are created in groups, and moved between them, in YNAB itself."
            };
            format!(
                "List a plan's category groups, ids and names: a group is a heading with no amount of \
its own. {create} Hidden, deleted and YNAB's own system groups are left out. Pass the plan id when \
there are several plans. Cost: ≤ 1 YNAB request once the plan is loaded (loading it the first time is 1 request). Changes nothing."
            )
        },
        input_schema: plan_id_schema,
        output_schema: list_schema::<GroupEntry>,
        read_only: true,
        idempotent: true,
        destructive: None,
    }
}

pub async fn run(context: &Context, mut args: Args) -> Outcome {
    let plan_id = match take_plan_id(&mut args)
        .and_then(|p| args.finish("list_category_groups").map(|_| p))
    {
        Ok(plan_id) => plan_id,
        Err(error) => return error.into(),
    };
    let snapshot = match context.plans.read(&plan_id).await {
        Ok(snapshot) => snapshot,
        Err(error) => return error.into(),
    };
    let entries = assignable_groups(&snapshot.plan.category_groups)
        .into_iter()
        .map(|g| GroupEntry {
            id: g.id.clone(),
            name: safe(&g.name),
        })
        .collect();
    list_answer::<GroupEntry>(entries, Some(snapshot.id().to_string()))
}
