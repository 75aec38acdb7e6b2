//! `move_money` (`docs/contract/writes.md` §9.5): money moved between two categories for a month,
//! in one confirmed and undoable step.

use super::assigned_amounts::{
    available_part, month_categories, second_half_failed, unknown_category,
};
use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::{Month, MovedAmount};
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written,
};
use crate::context::Context;
use crate::logic::assigned_side::AssignedSide;
use crate::logic::undo::{self, record::to_details};
use crate::money::{Amount, MoneyFormat};
use crate::months::CalendarMonth;
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::models::Milliunits;

/// The arguments of `move_money`, validated.
#[derive(Debug, Clone)]
pub struct MoveMoney {
    month: CalendarMonth,
    from_category_id: String,
    to_category_id: String,
    amount: Milliunits,
}

/// The move `move_money` proposes.
#[derive(Debug, Clone)]
pub struct MoneyMove {
    month: CalendarMonth,
    amount: Milliunits,
    source: AssignedSide,
    target: AssignedSide,
    fmt: MoneyFormat,
}

crate::tool_args! {
    /// The arguments of `move_money`.
    pub struct MoveMoneyArgs {
        pub plan_id: Option<PlanId>,
        /// 'current', 'last', YYYY-MM or YYYY-MM-01.
        pub month: Month,
        #[give = "the category the money leaves"]
        pub from_category_id: String,
        #[give = "the category the money goes to"]
        pub to_category_id: String,
        #[give = "what moves, in currency units"]
        pub amount: MovedAmount,
    }
}

// One category of a move, before and after. (A plain comment: a doc comment would become the
// description of both sides.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct SideDetails {
    pub category_id: String,
    pub name: String,
    pub from_amount: Amount,
    pub to_amount: Amount,
    pub available_before: Amount,
    pub available_after: Amount,
}

impl SideDetails {
    fn of(side: &AssignedSide) -> Self {
        SideDetails {
            category_id: side.category_id.clone(),
            name: side.name.clone(),
            from_amount: Amount(side.from),
            to_amount: Amount(side.to),
            available_before: Amount(side.available_before),
            available_after: Amount(side.available_after()),
        }
    }
}

// The fields of `move_money`'s answer, whatever its status. (A plain comment: the struct is
// flattened into the answer, whose schema has no description.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct MoveDetails {
    /// YYYY-MM-01
    pub month: String,
    /// What moves, in currency units.
    pub amount: Amount,
    pub from_category: SideDetails,
    pub to_category: SideDetails,
}

impl ConfirmedTool for MoveMoney {
    const TITLE: &'static str = "Move money between categories";
    const DESTRUCTIVE: bool = true;
    type Args = MoveMoneyArgs;
    type Details = MoveDetails;

    fn description(_writes: bool) -> String {
        "Move assigned money between two categories in a month, e.g. to cover overspending. The \
user sees both before and after and confirms. Can be undone. Costs up to 3 requests."
            .to_string()
    }

    fn from_args(args: MoveMoneyArgs, today: NaiveDate) -> Result<Self, ToolError> {
        if args.from_category_id == args.to_category_id {
            return Err(ToolError::Refused(
                "Give two different categories: money moves from one to another.".into(),
            ));
        }
        Ok(MoveMoney {
            month: args.month.0.resolve(today),
            from_category_id: args.from_category_id,
            to_category_id: args.to_category_id,
            amount: args.amount.0,
        })
    }
}

impl ConfirmedWrite for MoveMoney {
    type Change = MoneyMove;
    const TOOL: &'static str = "move_money";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::Move;
    const APPLIED: &'static str = "Moved.";
    const UNDO: Undoable = Undoable::Yes("moves it back");

    async fn prepare(
        &self,
        context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<MoneyMove>, ToolError> {
        let (snapshot, categories) = month_categories(context, snapshot, self.month).await?;
        let side = |id: &str, delta: Milliunits| -> Result<AssignedSide, String> {
            let c = categories
                .iter()
                .find(|c| c.id == id && !c.deleted)
                .ok_or_else(|| unknown_category(id))?;
            Ok(AssignedSide {
                category_id: c.id.to_string(),
                name: safe(&c.name),
                from: c.budgeted,
                to: c.budgeted + delta,
                available_before: c.balance,
            })
        };
        let source = side(&self.from_category_id, -self.amount)?;
        let target = side(&self.to_category_id, self.amount)?;
        let fmt = MoneyFormat::of(snapshot.plan.currency_format.as_ref());
        let line = |s: &AssignedSide| {
            format!(
                "- {}: {} → {}{}",
                s.name,
                fmt.plain(s.from),
                fmt.plain(s.to),
                available_part(&fmt, s.from, s.available_before, s.available_after())
            )
        };
        let question = crate::confirm::question(
            format!(
                "Move {} from {} to {} for {}?",
                fmt.plain(self.amount),
                source.name,
                target.name,
                self.month
            ),
            vec![line(&source), line(&target)],
        );
        let subject = json!({
            "from_category": source.category_id, "to_category": target.category_id,
            "month": self.month.label(), "amount": self.amount,
            "from_before": source.from, "to_before": target.from,
            "from_available_before": source.available_before,
            "to_available_before": target.available_before
        });
        Ok(Prepared::Change(Proposal {
            plan_id: snapshot.id().to_string(),
            subject,
            question,
            change: MoneyMove {
                month: self.month,
                amount: self.amount,
                source,
                target,
                fmt,
            },
        }))
    }

    fn intent_details(&self, m: &MoneyMove) -> Value {
        let change = |side: &AssignedSide| undo::AssignedChange {
            category_id: side.category_id.clone(),
            from: side.from,
            to: side.to,
        };
        to_details(&undo::Moved {
            month: m.month,
            changes: [change(&m.source), change(&m.target)],
        })
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<MoneyMove>,
    ) -> Result<Written<MoneyMove>, WriteFailure> {
        let m = &proposal.change;
        let client = context.plans.client();
        let plan = proposal.plan_id.as_str();
        let month = m.month.label();
        client
            .set_assigned(plan, &month, &m.source.category_id, m.source.to)
            .await?;
        if let Err(error) = client
            .set_assigned(plan, &month, &m.target.category_id, m.target.to)
            .await
        {
            return Err(second_half_failed(
                context,
                plan,
                &month,
                &m.source,
                &m.target.name,
                error,
                &m.fmt,
                "moved",
            )
            .await);
        }
        Ok(JournalDraft {
            details: self.intent_details(m),
            ..JournalDraft::default()
        }
        .into())
    }

    fn details(&self, m: &MoneyMove) -> MoveDetails {
        MoveDetails {
            month: m.month.label(),
            amount: Amount(m.amount),
            from_category: SideDetails::of(&m.source),
            to_category: SideDetails::of(&m.target),
        }
    }
}
