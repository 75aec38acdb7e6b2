//! `create_category` (`docs/contract/writes.md` §9.1, D15, D25): a new category in a group,
//! confirmed.
//!
//! A creation is journaled as `category_create`, which undo cannot revert (YNAB's API cannot
//! delete or hide a category).

use super::category_checks::{one_line_error, unknown_group};
use super::{ConfirmedTool, PlanId, ToolError};
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written,
};
use crate::context::Context;
use crate::logic::categories::assignable_groups;
use crate::logic::category_edits::{breaks_one_line, namesake};
use crate::logic::undo::irreversible::{CategoryCreated, CategoryIntended};
use crate::logic::undo::record::to_details;
use crate::plan_store::PlanSnapshot;
use crate::text::{quoted, safe};
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::writes::CategoryChange;

use crate::logic::undo::irreversible::CATEGORY_CREATE_NOT_UNDOABLE as CREATE_NOT_UNDOABLE;

/// `create_category`, its arguments validated.
#[derive(Debug)]
pub struct CreateCategory {
    group_id: String,
    name: String,
}

/// The category `create_category` proposes.
#[derive(Debug, Clone)]
pub struct NewCategory {
    group_id: String,
    /// The group's safe name.
    group: String,
    /// The trimmed name, shown in full (it was checked to be one line).
    name: String,
    /// The id YNAB gave the category, once created.
    category_id: Option<String>,
}

crate::tool_args! {
    /// The arguments of `create_category`.
    pub struct CreateCategoryArgs {
        pub plan_id: Option<PlanId>,
        /// From list_category_groups.
        #[give = "a group id from list_category_groups"]
        pub category_group_id: String,
        /// On one line.
        #[give = "the new category's name"]
        pub name: String,
    }
}

// The fields of `create_category`'s answer, whatever its status. (A plain comment: the struct is
// flattened into the answer, whose schema has no description.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct NewCategoryDetails {
    pub name: String,
    pub group: String,
    /// The new category's id, once created.
    pub category_id: Option<String>,
}

impl ConfirmedTool for CreateCategory {
    const TITLE: &'static str = "Create a category";
    const DESTRUCTIVE: bool = false;
    type Args = CreateCategoryArgs;
    type Details = NewCategoryDetails;

    fn description(_writes: bool) -> String {
        "Create a category in a group. The user sees its name and group and confirms. It cannot \
be undone: YNAB's API cannot delete or hide a category."
            .to_string()
    }

    fn from_args(args: CreateCategoryArgs, _today: NaiveDate) -> Result<Self, ToolError> {
        Ok(CreateCategory {
            group_id: args.category_group_id,
            name: args.name,
        })
    }
}

impl ConfirmedWrite for CreateCategory {
    type Change = NewCategory;
    const TOOL: &'static str = "create_category";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::CategoryCreate;
    const APPLIED: &'static str = "Created.";
    const UNDO: Undoable = Undoable::No(None);

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<NewCategory>, ToolError> {
        let plan = &snapshot.plan;
        let group = assignable_groups(&plan.category_groups)
            .into_iter()
            .find(|g| g.id == self.group_id)
            .ok_or_else(|| unknown_group(&self.group_id))?;
        let name = self.name.trim();
        if name.is_empty() {
            return Err("The name is empty: give the new category a name."
                .to_string()
                .into());
        }
        if breaks_one_line(name) {
            return Err(one_line_error(name).into());
        }
        if namesake(&plan.categories, &group.id, name).is_some() {
            return Err(
                format!("{} already exists in {}.", quoted(name), safe(&group.name)).into(),
            );
        }
        let change = NewCategory {
            group_id: group.id.clone(),
            group: safe(&group.name),
            name: name.to_string(),
            category_id: None,
        };
        let question = format!("Create category ‘{}’ in {}?", change.name, change.group);
        let subject = json!({"group": change.group_id, "name": change.name});
        Ok(Prepared::Change(Proposal {
            plan_id: snapshot.id().to_string(),
            subject,
            question,
            change,
        }))
    }

    fn intent_details(&self, change: &NewCategory) -> Value {
        // The name by digest only: the journal holds category names for a `category` operation
        // only (D31). A restart that finds the intent unfinished looks for it in the group.
        let salt = crate::random::hex::<16>();
        to_details(&CategoryIntended {
            category_group_id: change.group_id.clone(),
            name_digest: Some(crate::logic::created::name_digest(
                Some(&salt),
                &change.name,
            )),
            digest_salt: Some(salt),
        })
    }

    /// The category created, with the id YNAB gave it.
    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<NewCategory>,
    ) -> Result<Written<NewCategory>, WriteFailure> {
        let c = &proposal.change;
        let saved = context
            .plans
            .client()
            .create_category(
                &proposal.plan_id,
                &CategoryChange {
                    name: Some(c.name.clone()),
                    category_group_id: Some(c.group_id.clone()),
                    ..CategoryChange::default()
                },
            )
            .await?;
        let id = saved.category.id;
        let draft = JournalDraft {
            details: to_details(&CategoryCreated {
                category_id: Some(id.to_string()),
                category_group_id: c.group_id.clone(),
            }),
            undoable: Some(false),
            reason: Some(CREATE_NOT_UNDOABLE.to_string()),
            ..JournalDraft::default()
        };
        let created = NewCategory {
            category_id: Some(id.to_string()),
            ..c.clone()
        };
        Ok(Written {
            draft,
            applied: Some(created),
        })
    }

    fn details(&self, change: &NewCategory) -> NewCategoryDetails {
        NewCategoryDetails {
            name: change.name.clone(),
            group: change.group.clone(),
            category_id: change.category_id.clone(),
        }
    }
}
