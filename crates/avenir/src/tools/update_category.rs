//! `update_category` (`docs/contract/writes.md` §9.10, D15, D25): a category renamed or moved to
//! another group, confirmed; journaled as `category`, which undo puts back.

use super::category_checks::{one_line_error, unknown_group};
use super::{ConfirmedTool, PlanId, ToolError};
use crate::confirm::{ConfirmedWrite, JournalDraft, Prepared, Proposal, WriteFailure, Written};
use crate::context::Context;
use crate::logic::categories::assignable_groups;
use crate::logic::category_edits::{CategoryEdit, breaks_one_line};
use crate::logic::undo::{self, record::to_details};
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::models::CategoryGroup;
use ynab::writes::CategoryChange;

fn unknown_category(id: &str) -> String {
    format!("Category {id} is not in this plan: use a category_id from suggest_categories.")
}

/// The safe name of a visible group, or empty for a group that is not one (§9.10).
fn group_name(groups: &[&CategoryGroup], id: &str) -> String {
    groups
        .iter()
        .find(|g| g.id == id)
        .map(|g| safe(&g.name))
        .unwrap_or_default()
}

/// `update_category`, its arguments validated.
#[derive(Debug, Clone)]
pub struct UpdateCategory {
    category_id: String,
    name: Option<String>,
    group_id: Option<String>,
}

/// The rename or move `update_category` proposes.
#[derive(Debug, Clone)]
pub struct CategoryUpdate {
    category_id: String,
    edit: CategoryEdit,
    /// Safe names, as the question shows them (a group not visible is empty).
    from_name: String,
    to_name: String,
    from_group: String,
    to_group: String,
}

crate::tool_args! {
    /// The arguments of `update_category`.
    pub struct UpdateCategoryArgs {
        pub plan_id: Option<PlanId>,
        /// From suggest_categories.
        #[give = "a category id from suggest_categories"]
        pub category_id: String,
        /// On one line; omit to keep the name.
        pub name: Option<String>,
        /// From list_category_groups; omit to keep the group.
        pub category_group_id: Option<String>,
    }
}

// The fields of `update_category`'s answer, whatever its status. (A plain comment: the struct is
// flattened into the answer, whose schema has no description.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct CategoryUpdateDetails {
    pub category_id: String,
    pub from_name: String,
    pub to_name: String,
    pub from_group: String,
    pub to_group: String,
}

impl ConfirmedTool for UpdateCategory {
    const TITLE: &'static str = "Rename or move a category";
    const IDEMPOTENT: bool = true;
    const DESTRUCTIVE: bool = true;
    type Args = UpdateCategoryArgs;
    type Details = CategoryUpdateDetails;

    fn description(_writes: bool) -> String {
        "Rename a category, move it to another group, or both. The user sees the name and group \
before and after and confirms. Can be undone unless the category changed since."
            .to_string()
    }

    fn from_args(args: UpdateCategoryArgs, _today: NaiveDate) -> Result<Self, ToolError> {
        Ok(UpdateCategory {
            category_id: args.category_id,
            name: args.name,
            group_id: args.category_group_id,
        })
    }
}

impl ConfirmedWrite for UpdateCategory {
    type Change = CategoryUpdate;
    const TOOL: &'static str = "update_category";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::Category;

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<CategoryUpdate>, ToolError> {
        let plan = &snapshot.plan;
        let current = plan
            .categories
            .iter()
            .find(|c| c.id == self.category_id && !c.hidden && !c.deleted)
            .ok_or_else(|| unknown_category(&self.category_id))?;
        let groups = assignable_groups(&plan.category_groups);
        if let Some(group) = &self.group_id
            && !groups.iter().any(|g| &g.id == group)
        {
            return Err(unknown_group(group).into());
        }
        let name = match &self.name {
            None => None,
            Some(given) => {
                let trimmed = given.trim();
                if trimmed.is_empty() {
                    return Err(
                        "The new name is empty: give a name, or omit it to keep the current one."
                            .to_string()
                            .into(),
                    );
                }
                if breaks_one_line(trimmed) {
                    return Err(one_line_error(trimmed).into());
                }
                Some(trimmed)
            }
        };
        let edit = CategoryEdit::of(current, name, self.group_id.as_deref());
        let change = CategoryUpdate {
            category_id: current.id.to_string(),
            from_name: safe(&edit.name_before),
            to_name: safe(&edit.name_after),
            from_group: group_name(&groups, &edit.group_before),
            to_group: group_name(&groups, &edit.group_after),
            edit,
        };
        let plan_id = snapshot.id().to_string();
        if change.edit.is_empty() {
            return Ok(self.nothing_to_do(&change, "Nothing to change.", &plan_id));
        }
        let question = format!(
            "Change category ‘{}’ ({}) to ‘{}’ ({})?",
            change.from_name, change.from_group, change.to_name, change.to_group
        );
        let e = &change.edit;
        let subject = json!({"category_id": change.category_id, "name_before": e.name_before,
                             "group_before": e.group_before, "name": e.name_after,
                             "group": e.group_after});
        Ok(Prepared::Change(Proposal {
            plan_id,
            subject,
            question,
            change,
        }))
    }

    fn intent_details(&self, change: &CategoryUpdate) -> Value {
        // Names may be kept for this kind (D25, D31).
        let e = &change.edit;
        to_details(&undo::CategoryEdit {
            category_id: change.category_id.clone(),
            name_before: e.name_before.clone(),
            group_before: e.group_before.clone(),
            name_after: e.name_after.clone(),
            group_after: e.group_after.clone(),
        })
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<CategoryUpdate>,
    ) -> Result<Written<CategoryUpdate>, WriteFailure> {
        let c = &proposal.change;
        let e = &c.edit;
        // Only the fields that change (§9.10).
        let body = CategoryChange {
            name: e.renames().then(|| e.name_after.clone()),
            category_group_id: e.moves().then(|| e.group_after.clone()),
            ..CategoryChange::default()
        };
        context
            .plans
            .client()
            .update_category(&proposal.plan_id, &c.category_id, &body)
            .await?;
        Ok(JournalDraft {
            details: self.intent_details(c),
            ..JournalDraft::default()
        }
        .into())
    }

    fn details(&self, change: &CategoryUpdate) -> CategoryUpdateDetails {
        CategoryUpdateDetails {
            category_id: change.category_id.clone(),
            from_name: change.from_name.clone(),
            to_name: change.to_name.clone(),
            from_group: change.from_group.clone(),
            to_group: change.to_group.clone(),
        }
    }
}
