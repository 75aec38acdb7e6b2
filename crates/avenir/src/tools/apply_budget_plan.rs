//! `apply_budget_plan` (issue 11, `docs/writes/apply_budget_plan.md`): the assigned amounts (and
//! optionally the target amounts) of many categories for one month, previewed as one question,
//! confirmed once, journaled as one `budget_plan` operation and undone as one.

use super::assigned_amounts::{available_part, month_categories, unknown_category};
use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::{Flag, Money, Month};
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written, applied,
};
use crate::context::Context;
use crate::digest::order_free;
use crate::logic::budget_month::find_month;
use crate::logic::budget_plan::{
    self, Asked, BudgetPlan, Line, MAX_LINES, MonthData, Refusal, TargetLine,
};
use crate::logic::target_change::category_change;
use crate::logic::undo::budget_plan::{PlanApplied, TargetDone};
use crate::logic::undo::{AssignedChange, record::to_details};
use crate::money::{Amount, MoneyFormat};
use crate::months::CalendarMonth;
use crate::plan_store::PlanSnapshot;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// The arguments of `apply_budget_plan`, validated.
#[derive(Debug, Clone)]
pub struct ApplyBudgetPlan {
    month: CalendarMonth,
    lines: Vec<Asked>,
    allow_negative: bool,
}

/// The plan `apply_budget_plan` proposes.
#[derive(Debug, Clone)]
pub struct PlannedMonth {
    month: CalendarMonth,
    plan: BudgetPlan,
    fmt: MoneyFormat,
}

crate::tool_args! {
    /// The arguments of `apply_budget_plan`.
    pub struct ApplyBudgetPlanArgs {
        pub plan_id: Option<PlanId>,
        /// 'current', 'last', YYYY-MM or YYYY-MM-01.
        pub month: Month,
        /// One per category, at most 50.
        #[give = "a list of {category_id, amount, target}"]
        pub lines: Vec<PlanLineArg>,
        /// true: Ready to Assign may end negative (else refused).
        pub allow_negative_ready_to_assign: Flag<false>,
    }
}

crate::tool_args! {
    // One line of `lines`. (A plain comment: a doc comment would become its schema's description.)
    pub struct PlanLineArg {
        /// From get_category_balances.
        #[give = "a category id from get_category_balances"]
        pub category_id: String,
        /// Absolute; omit to leave it.
        pub amount: Option<Money>,
        /// More than 0 (a new target is monthly); omit to leave it.
        pub target: Option<Money>,
    }
}

// One category of the plan, before and after. (A plain comment: a doc comment would become the
// description of every line.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct PlanLineDetails {
    pub category_id: String,
    /// Category name (bank-safe text).
    pub category: String,
    pub from_amount: Amount,
    pub to_amount: Amount,
    pub available_before: Amount,
    pub available_after: Amount,
}

// One category whose target changes. (A plain comment: a doc comment would become the
// description of every line.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct PlanTargetDetails {
    pub category_id: String,
    /// Category name (bank-safe text).
    pub category: String,
    /// The target now, in words.
    pub before: String,
    /// The target once set, in words.
    pub after: String,
}

// The fields of `apply_budget_plan`'s answer, whatever its status. (A plain comment: the struct
// is flattened into the answer, whose schema has no description.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct BudgetPlanDetails {
    /// YYYY-MM-01.
    pub month: String,
    /// The categories whose assigned amount changes.
    pub changes: Vec<PlanLineDetails>,
    /// The categories whose target changes.
    pub targets: Vec<PlanTargetDetails>,
    /// Categories already as planned (bank-safe names): nothing is sent for them.
    pub unchanged: Vec<String>,
    pub ready_to_assign_before: Amount,
    pub ready_to_assign_after: Amount,
}

impl ApplyBudgetPlan {
    /// The question: each category's amount (and target) from → to, in the order asked.
    fn question(&self, p: &BudgetPlan, fmt: &MoneyFormat) -> String {
        let mut lines: Vec<String> = self
            .lines
            .iter()
            .filter_map(|a| {
                let amount = p.changes.iter().find(|l| l.category_id == a.category_id);
                let target = p.targets.iter().find(|t| t.category_id == a.category_id);
                match (amount, target) {
                    (Some(l), None) => Some(line_text(fmt, l)),
                    (Some(l), Some(t)) => {
                        Some(format!("{}; {}", line_text(fmt, l), target_part(t)))
                    }
                    (None, Some(t)) => Some(format!("- {}: {}", t.name, target_part(t))),
                    (None, None) => None,
                }
            })
            .collect();
        if !p.unchanged.is_empty() {
            lines.push(format!(
                "- already as planned, not sent: {}",
                p.unchanged.join(", ")
            ));
        }
        crate::confirm::question(
            format!(
                "{} for {}? Ready to Assign {} → {}",
                what_changes(p, false),
                self.month,
                fmt.plain(p.ready_before),
                fmt.plain(p.ready_after)
            ),
            lines,
        )
    }
}

/// The subject: every amount and target the question shows, with Ready to Assign before.
fn subject(month: CalendarMonth, p: &BudgetPlan) -> Value {
    let mut subject = json!({
        "month": month.label(),
        "ready_to_assign_before": p.ready_before,
        "lines": order_free(p.changes.iter().map(|l| json!([
            l.category_id, l.from, l.to, l.available_before
        ])).collect()),
        "unchanged": p.unchanged.len(),
    });
    if !p.targets.is_empty() {
        subject["targets"] = json!(order_free(
            p.targets
                .iter()
                .map(|t| json!([t.category_id, t.change.before, t.change.fields]))
                .collect()
        ));
    }
    subject
}

impl ConfirmedTool for ApplyBudgetPlan {
    const TITLE: &'static str = "Apply a month's budget plan";
    const IDEMPOTENT: bool = true;
    const DESTRUCTIVE: bool = true;
    type Args = ApplyBudgetPlanArgs;
    type Details = BudgetPlanDetails;

    fn description(_writes: bool) -> String {
        "Set several categories' assigned amounts (absolute) and optionally targets for one \
month, in one step. The user sees each, and Ready to Assign, before and after and confirms once. \
Can be undone as one. Costs 1 request per change, plus 1."
            .to_string()
    }

    fn from_args(args: ApplyBudgetPlanArgs, today: NaiveDate) -> Result<Self, ToolError> {
        Ok(ApplyBudgetPlan {
            month: args.month.0.resolve(today),
            lines: args
                .lines
                .into_iter()
                .map(|l| Asked {
                    category_id: l.category_id,
                    amount: l.amount.map(|a| a.0),
                    target: l.target.map(|a| a.0),
                })
                .collect(),
            allow_negative: args.allow_negative_ready_to_assign.0,
        })
    }
}

/// The sentence of each refusal (`docs/writes/apply_budget_plan.md`).
fn refusal_message(refusal: Refusal, month: CalendarMonth, fmt: &MoneyFormat) -> String {
    match refusal {
        Refusal::Empty => {
            "Give at least one line: a category_id and its amount, its target or both.".to_string()
        }
        Refusal::NeitherAmountNorTarget(index) => format!(
            "lines.{index} gives neither an amount nor a target: give the amount to assign, the target amount or both."
        ),
        Refusal::Target { index, message } => format!("lines.{index}.target: {message}"),
        Refusal::TooMany(n) => format!(
            "Give at most {MAX_LINES} lines in one plan ({n} were given): each is one YNAB request; send the rest in another call."
        ),
        Refusal::Twice(ids) => format!(
            "Category {} is named twice: give each category once, with its amount.",
            ids.join(", ")
        ),
        Refusal::TooPrecise {
            index,
            digits,
            target,
        } => format!(
            "lines.{index}.{} has more decimals than this plan's currency uses ({digits}): round it to {digits} decimal(s).",
            if target { "target" } else { "amount" }
        ),
        Refusal::Unknown(id) => unknown_category(&id),
        Refusal::Internal { id, name } => format!(
            "Category {id} ({name}) is one of YNAB's internal categories: nothing is assigned to it; use a category_id from get_category_balances."
        ),
        Refusal::Negative { ready_after } => format!(
            "This plan would leave Ready to Assign for {month} at {}, {} short: lower some amounts, or pass allow_negative_ready_to_assign: true if the person wants to assign more than is ready.",
            fmt.plain(ready_after),
            fmt.plain(-ready_after)
        ),
    }
}

/// `- Groceries: 0.00 → 450.00 (available -22.50 → +427.50)`
fn line_text(fmt: &MoneyFormat, l: &Line) -> String {
    format!(
        "- {}: {} → {}{}",
        l.name,
        fmt.plain(l.from),
        fmt.plain(l.to),
        available_part(fmt, l.from, l.available_before, l.available_after())
    )
}

impl ConfirmedWrite for ApplyBudgetPlan {
    type Change = PlannedMonth;
    const TOOL: &'static str = "apply_budget_plan";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::BudgetPlan;
    const UNDO: Undoable = Undoable::Yes("puts back every amount not changed since");

    fn items(&self, change: &PlannedMonth) -> usize {
        change.plan.changes.len() + change.plan.targets.len()
    }

    async fn prepare(
        &self,
        context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<PlannedMonth>, ToolError> {
        let fmt = MoneyFormat::of(snapshot.plan.currency_format.as_ref());
        // The list's own checks come before any read.
        if self.lines.is_empty() {
            return Err(refusal_message(Refusal::Empty, self.month, &fmt).into());
        }
        if self.lines.len() > MAX_LINES {
            return Err(
                refusal_message(Refusal::TooMany(self.lines.len()), self.month, &fmt).into(),
            );
        }
        let (snapshot, categories) = month_categories(context, snapshot, self.month).await?;
        let ready_before = find_month(&snapshot.plan.months, self.month)
            .map(|m| m.to_be_budgeted)
            .ok_or_else(|| format!("YNAB holds no month {} for this plan.", self.month))?;
        let digits = snapshot
            .plan
            .currency_format
            .as_ref()
            .map_or(2, |f| f.decimal_digits);
        let plan = budget_plan::plan(
            &self.lines,
            MonthData {
                categories: &categories,
                groups: &snapshot.plan.category_groups,
                targets: &snapshot.plan.categories,
                ready_before,
                digits,
                money: &fmt,
            },
            self.allow_negative,
        )
        .map_err(|r| refusal_message(r, self.month, &fmt))?;
        let change = PlannedMonth {
            month: self.month,
            plan,
            fmt: fmt.clone(),
        };
        if change.plan.changes.is_empty() && change.plan.targets.is_empty() {
            return Ok(self.nothing_to_do(
                &change,
                "Every category is already assigned as planned: nothing to change.",
                snapshot.id(),
            ));
        }
        let question = self.question(&change.plan, &fmt);
        let subject = subject(self.month, &change.plan);
        Ok(Prepared::change(snapshot.id(), subject, question, change))
    }

    /// The journal's details; the intent's are the same (each target's `before` tells a
    /// restart whether it landed, D14).
    fn intent_details(&self, change: &PlannedMonth) -> Value {
        to_details(&PlanApplied {
            month: change.month,
            changes: change
                .plan
                .changes
                .iter()
                .map(|l| AssignedChange {
                    category_id: l.category_id.clone(),
                    from: l.from,
                    to: l.to,
                })
                .collect(),
            targets: change
                .plan
                .targets
                .iter()
                .map(|t| TargetDone {
                    category_id: t.category_id.clone(),
                    before: t.change.before.clone(),
                    after: t.change.after.clone(),
                    fields: t.change.undo.clone().unwrap_or(Value::Null),
                })
                .collect(),
        })
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<PlannedMonth>,
    ) -> Result<Written<PlannedMonth>, WriteFailure> {
        let change = &proposal.change;
        let client = context.plans.client();
        let month = change.month.label();
        let fmt = &change.fmt;
        let steps: Vec<Step<'_>> = change
            .plan
            .changes
            .iter()
            .map(Step::Amount)
            .chain(change.plan.targets.iter().map(Step::Target))
            .collect();
        // One PATCH per changed amount, in the order asked (YNAB has no bulk assignment), then
        // one category update per changed target.
        for (done, step) in steps.iter().enumerate() {
            let sent = match step {
                Step::Amount(l) => client
                    .set_assigned(&proposal.plan_id, &month, &l.category_id, l.to)
                    .await
                    .map(|_| ()),
                Step::Target(t) => client
                    .update_category(
                        &proposal.plan_id,
                        &t.category_id,
                        &category_change(&t.change.fields),
                    )
                    .await
                    .map(|_| ()),
            };
            let Err(error) = sent else {
                continue;
            };
            let failure = WriteFailure::from(error);
            if done == 0 && matches!(failure, WriteFailure::NothingChanged(_)) {
                return Err(failure);
            }
            let this = match failure {
                WriteFailure::NothingChanged(_) => format!("{} was not set", step.what()),
                WriteFailure::Unknown(_) => {
                    format!("{} may or may not be set to {}", step.what(), step.to(fmt))
                }
            };
            let set: Vec<String> = steps[..done].iter().map(|s| s.done(fmt)).collect();
            let set = if set.is_empty() {
                "nothing was set before it".to_string()
            } else {
                format!("set before it: {}", set.join(", "))
            };
            let rest: Vec<String> = steps[done + 1..].iter().map(Step::what).collect();
            let unsent = if rest.is_empty() {
                String::new()
            } else {
                format!("; not sent: {}", rest.join(", "))
            };
            return Err(WriteFailure::Unknown(format!(
                "{} ({set}; {this}{unsent}.)",
                failure.text()
            )));
        }
        Ok(JournalDraft {
            details: self.intent_details(change),
            ..JournalDraft::default()
        }
        .into())
    }

    fn details(&self, change: &PlannedMonth) -> BudgetPlanDetails {
        let p = &change.plan;
        BudgetPlanDetails {
            month: change.month.label(),
            changes: p
                .changes
                .iter()
                .map(|l| PlanLineDetails {
                    category_id: l.category_id.clone(),
                    category: l.name.clone(),
                    from_amount: Amount(l.from),
                    to_amount: Amount(l.to),
                    available_before: Amount(l.available_before),
                    available_after: Amount(l.available_after()),
                })
                .collect(),
            targets: p
                .targets
                .iter()
                .map(|t| PlanTargetDetails {
                    category_id: t.category_id.clone(),
                    category: t.name.clone(),
                    before: t.change.before.clone(),
                    after: t.change.after.clone(),
                })
                .collect(),
            unchanged: p.unchanged.clone(),
            ready_to_assign_before: Amount(p.ready_before),
            ready_to_assign_after: Amount(p.ready_after),
        }
    }

    fn applied_message(&self, change: &PlannedMonth, operation_id: Option<&str>) -> String {
        let done = format!("{} for {}.", what_changes(&change.plan, true), change.month);
        let undo = match change.plan.targets.is_empty() {
            true => Self::UNDO,
            false => Undoable::Yes("puts back every amount and target not changed since"),
        };
        applied(&done, undo, operation_id)
    }
}

/// The question's (and, `done`, the applied message's) first words: `Assign {N}
/// categor(y|ies)`, then `and set {T} target(s)` (or `Set {T} target(s)` when no amount changes).
fn what_changes(p: &BudgetPlan, done: bool) -> String {
    let (n, t) = (p.changes.len(), p.targets.len());
    let targets = format!("{t} target{}", if t == 1 { "" } else { "s" });
    let assign = if done { "Assigned" } else { "Assign" };
    let amounts = format!("{assign} {n} categor{}", if n == 1 { "y" } else { "ies" });
    match (n, t) {
        (_, 0) => amounts,
        (0, _) => format!("Set {targets}"),
        _ => format!("{amounts} and set {targets}"),
    }
}

/// `target 400.00 each month → 450.00 each month` (`set_category_target`'s words).
fn target_part(t: &TargetLine) -> String {
    format!("target {} → {}", t.change.before, t.change.after)
}

/// One write of the plan, in the order sent: the amounts, then the targets.
enum Step<'a> {
    Amount(&'a Line),
    Target(&'a TargetLine),
}

impl Step<'_> {
    /// What the write sets: `Groceries`, or `the target of Groceries`.
    fn what(&self) -> String {
        match self {
            Step::Amount(l) => l.name.clone(),
            Step::Target(t) => format!("the target of {}", t.name),
        }
    }

    fn to(&self, fmt: &MoneyFormat) -> String {
        match self {
            Step::Amount(l) => fmt.plain(l.to),
            Step::Target(t) => t.change.after.clone(),
        }
    }

    /// Once landed: `Groceries 0.00 → 450.00`, `the target of Groceries none → 450.00 each month`.
    fn done(&self, fmt: &MoneyFormat) -> String {
        match self {
            Step::Amount(l) => format!("{} {} → {}", l.name, fmt.plain(l.from), fmt.plain(l.to)),
            Step::Target(t) => format!("{} {} → {}", self.what(), t.change.before, t.change.after),
        }
    }
}

/// The undo of a `budget_plan` sets each amount back in order, then each target
/// (`undo_operation`'s write); when the one at `done` (amounts, targets) fails, what to say: the
/// first failing is the failure itself, a later one names what was put back before it. The
/// undo's intent stays unfinished then, and naming the operation again finds those already back
/// untouched and puts back the rest (D14).
pub(crate) fn put_back_failed(
    (amounts, targets): (usize, usize),
    (sides, backs): (
        &[crate::logic::assigned_side::AssignedSide],
        &[crate::logic::undo::budget_plan::TargetBack],
    ),
    error: ynab::Error,
    fmt: &MoneyFormat,
) -> WriteFailure {
    let failure = WriteFailure::from(error);
    if amounts == 0 && targets == 0 {
        return failure;
    }
    let back: Vec<String> = sides[..amounts]
        .iter()
        .map(|s| format!("{} {}", s.name, fmt.plain(s.to)))
        .chain(
            backs[..targets]
                .iter()
                .map(|t| format!("the target of {} {}", t.name, t.back)),
        )
        .collect();
    WriteFailure::Unknown(format!(
        "{} (put back before it: {}; call undo_operation again to put back the rest.)",
        failure.text(),
        back.join(", ")
    ))
}
