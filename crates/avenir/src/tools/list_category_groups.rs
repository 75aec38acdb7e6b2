//! `list_category_groups` (`docs/contract/reads.md` §4): the groups a category can be created in or
//! moved to, ids and names only.

use super::{AnswerTool, Answered, ListOf, PlanArgs, ToolError};
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

/// `list_category_groups`.
pub struct ListCategoryGroups;

impl AnswerTool for ListCategoryGroups {
    const NAME: &'static str = "list_category_groups";
    const TITLE: &'static str = "List category groups";
    type Args = PlanArgs;
    type Answer = ListOf<GroupEntry>;

    fn description(writes: bool) -> String {
        let create = if writes {
            "A group id goes to create_category, or to update_category as category_group_id."
        } else {
            "Categories are created in groups, and moved between them, in YNAB itself."
        };
        format!(
            "List a plan's category groups, ids and names: a group is a heading with no amount of \
its own. {create} Hidden, deleted and YNAB's own system groups are left out. Pass the plan id when \
there are several plans. Changes nothing."
        )
    }

    async fn run(context: &Context, args: PlanArgs) -> Result<Answered<Self::Answer>, ToolError> {
        let snapshot = context.plans.read(&args.plan()).await?;
        let result = assignable_groups(&snapshot.plan.category_groups)
            .into_iter()
            .map(|g| GroupEntry {
                id: g.id.clone(),
                name: safe(&g.name),
            })
            .collect();
        Ok(Answered::new(ListOf { result }, snapshot.id().to_string()))
    }
}
