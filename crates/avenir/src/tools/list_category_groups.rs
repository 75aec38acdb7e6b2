//! `list_category_groups` (`docs/contract/reads.md` §4): the groups a category can be created in or
//! moved to, ids and names only.

use super::month_figures::write_pointer;
use super::{AnswerTool, Answered, ListOf, PlanArgs, ToolError};
use crate::context::Context;
use crate::logic::categories::assignable_groups;
use crate::text::safe;
use schemars::JsonSchema;
use serde::Serialize;

/// One category group (hidden, deleted and YNAB's system groups are left out).
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
        let create = write_pointer(
            writes,
            &["create_category", "update_category"],
            "A group id goes to create_category, or to update_category as category_group_id.",
        );
        format!(
            "A plan's category groups (headings with no amount of their own), ids and names: \
\"which groups do I have?\".{create}"
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
