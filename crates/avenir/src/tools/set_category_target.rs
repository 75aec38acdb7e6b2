//! `set_category_target` (`docs/contract/writes.md` §9.11): set, change or remove a category's
//! target in one confirmed step, undoable when the previous target can be recreated through the
//! API.
//!
//! A previous target the API cannot recreate (a kind or rhythm only YNAB's app sets) is said in
//! the question, and the change is journaled with `"undoable": false` and a reason (D25).

use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::{Date, Frequency, Money};
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written, applied,
};
use crate::context::Context;
use crate::logic::assignable::{CategoryIndex, Role};
use crate::logic::target_change::{
    TargetAsked, TargetChange, category_change, check_arguments, pairing, plan,
};
use crate::logic::undo::{details::TargetSet, record::to_details};
use crate::money::MoneyFormat;
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// The arguments of `set_category_target`, validated.
#[derive(Debug, Clone)]
pub struct SetTarget {
    category_id: String,
    asked: TargetAsked,
}

/// The target change proposed.
#[derive(Debug, Clone)]
pub struct TargetEdit {
    category_id: String,
    category: String,
    change: TargetChange,
}

impl TargetEdit {
    fn cannot_restore(&self) -> String {
        format!(
            "undo_operation cannot bring back the previous target ({}): only YNAB can.",
            self.change.before
        )
    }
}

crate::tool_args! {
    /// The arguments of `set_category_target`.
    pub struct SetTargetArgs {
        pub plan_id: Option<PlanId>,
        /// From get_category_balances.
        #[give = "a category id from get_category_balances"]
        pub category_id: String,
        /// More than 0; omit to remove the target.
        pub amount: Option<Money>,
        /// Reach the amount by then.
        pub by_date: Option<Date>,
        pub frequency: Option<Frequency>,
    }
}

// The fields of `set_category_target`'s answer, whatever its status.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TargetDetails {
    pub category: String,
    /// The target now, in words.
    pub before: String,
    /// The target once set, in words.
    pub after: String,
    /// Whether undo_operation can bring the previous target back.
    pub undoable: bool,
}

impl ConfirmedTool for SetTarget {
    const TITLE: &'static str = "Set a category's target";
    const IDEMPOTENT: bool = true;
    const DESTRUCTIVE: bool = true;
    type Args = SetTargetArgs;
    type Details = TargetDetails;

    fn description(_writes: bool) -> String {
        "Set, change or remove a category's target: an amount alone (monthly if new; an existing \
target keeps its kind), by a date, or each week, month or year. The user sees it before and \
after and confirms. Undo restores it when YNAB's API can (the preview says)."
            .to_string()
    }

    fn from_args(args: SetTargetArgs, _today: NaiveDate) -> Result<Self, ToolError> {
        let asked = TargetAsked {
            amount: args.amount.map(|a| a.0),
            by_date: args.by_date.map(|d| d.0),
            frequency: args.frequency.map(|f| f.0.to_string()),
        };
        check_arguments(&asked).map_err(|refused| ToolError::Refused(refused.to_string()))?;
        Ok(SetTarget {
            category_id: args.category_id,
            asked,
        })
    }
}

/// A `target` operation's journal details (`docs/contract/writes.md` §5.2).
fn journal_details(edit: &TargetEdit, before: Option<String>) -> Value {
    to_details(&TargetSet {
        category_id: edit.category_id.clone(),
        before,
        after: edit.change.after.clone(),
        undo: edit.change.undo.clone(),
    })
}

impl ConfirmedWrite for SetTarget {
    type Change = TargetEdit;
    const TOOL: &'static str = "set_category_target";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::Target;
    const APPLIED: &'static str = "Target set.";
    const UNDO: Undoable = Undoable::Yes("restores it");

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<TargetEdit>, ToolError> {
        let plan_data = &snapshot.plan;
        let index = CategoryIndex::new(&plan_data.category_groups, &plan_data.categories);
        let category = plan_data
            .categories
            .iter()
            .find(|c| c.id == self.category_id && index.is_visible(&c.id))
            .ok_or_else(|| {
                format!(
                    "Category {} is not in this plan: use a category_id from get_category_balances or list_category_groups.",
                    self.category_id
                )
            })?;
        let card = index.role(&category.id) == Some(Role::CreditCardPayment);
        let money = MoneyFormat::of(plan_data.currency_format.as_ref());
        let change =
            plan(category, pairing(category, card), &self.asked, &money).map_err(str::to_string)?;
        let edit = TargetEdit {
            category_id: category.id.to_string(),
            category: safe(&category.name),
            change,
        };
        let plan_id = snapshot.id().to_string();
        if edit.change.is_nothing() {
            return Ok(self.nothing_to_do(&edit, "The target is already that one.", &plan_id));
        }
        let mut question = format!(
            "Set the target of {}: {} → {}?",
            edit.category, edit.change.before, edit.change.after
        );
        if edit.change.undo.is_none() {
            question.push('\n');
            question.push_str(&edit.cannot_restore());
        }
        let subject = json!({"category": edit.category_id, "before": edit.change.before,
                             "fields": edit.change.fields});
        Ok(Prepared::Change(Proposal {
            plan_id,
            subject,
            question,
            change: edit,
        }))
    }

    /// The journal's details, and how the target read before: a restart that finds the intent
    /// unfinished tells from it whether the change landed (D14).
    fn intent_details(&self, edit: &TargetEdit) -> Value {
        journal_details(edit, Some(edit.change.before.clone()))
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<TargetEdit>,
    ) -> Result<Written<TargetEdit>, WriteFailure> {
        let edit = &proposal.change;
        context
            .plans
            .client()
            .update_category(
                &proposal.plan_id,
                &edit.category_id,
                &category_change(&edit.change.fields),
            )
            .await?;
        let restorable = edit.change.undo.is_some();
        Ok(JournalDraft {
            details: journal_details(edit, None),
            undoable: (!restorable).then_some(false),
            reason: (!restorable).then(|| {
                format!(
                    "YNAB's API cannot recreate the previous target ({}); only YNAB can bring it back",
                    edit.change.before
                )
            }),
            ..JournalDraft::default()
        }.into())
    }

    fn details(&self, edit: &TargetEdit) -> TargetDetails {
        TargetDetails {
            category: edit.category.clone(),
            before: edit.change.before.clone(),
            after: edit.change.after.clone(),
            undoable: edit.change.undo.is_some(),
        }
    }

    fn applied_message(&self, edit: &TargetEdit, operation_id: Option<&str>) -> String {
        match &edit.change.undo {
            Some(_) => applied(Self::APPLIED, Self::UNDO, operation_id),
            None => format!("{} {}", Self::APPLIED, edit.cannot_restore()),
        }
    }
}
