//! What `set_category_budget`, `move_money` and their undo share: a month's categories read from
//! the plan, one category's assigned amount before and after, and putting it back when the second
//! half of a two-part write fails.

use crate::confirm::WriteFailure;
use crate::context::Context;
use crate::logic::assigned_side::AssignedSide;
use crate::logic::budget_month::{find_month, held_range};
use crate::money::MoneyFormat;
use crate::months::CalendarMonth;
use crate::plan_store::PlanSnapshot;
use crate::tool_error::ToolError;
use std::sync::Arc;
use ynab::models::{Category, Milliunits};

/// The plan with `month`'s categories loaded (hidden included), and those categories.
pub(crate) async fn month_categories(
    context: &Context,
    snapshot: Arc<PlanSnapshot>,
    month: CalendarMonth,
) -> Result<(Arc<PlanSnapshot>, Vec<Category>), ToolError> {
    let label = month.label();
    let snapshot = context.plans.with_months(snapshot, |m| m == label).await?;
    let categories = match find_month(&snapshot.plan.months, month) {
        Some(found) => found.categories.clone().unwrap_or_default(),
        None => {
            let held = held_range(&snapshot.plan.months)
                .map(|(first, last)| format!(": use a month from {first} to {last}"))
                .unwrap_or_default();
            return Err(format!("YNAB holds no month {month} for this plan{held}.").into());
        }
    };
    Ok((snapshot, categories))
}

/// The refusal for a category id the month does not hold.
pub(crate) fn unknown_category(id: &str) -> String {
    format!("Category {id} is not in this plan: use a category_id from get_category_balances.")
}

/// ` (available -22.50 → +7.50)`, or nothing when available equals assigned before.
pub(crate) fn available_part(
    fmt: &MoneyFormat,
    budgeted: Milliunits,
    before: Milliunits,
    after: Milliunits,
) -> String {
    if before == budgeted {
        String::new()
    } else {
        format!(
            " (available {} → {})",
            fmt.signed(before),
            fmt.signed(after)
        )
    }
}

/// The first half of a two-part write (`first`) succeeded and the second, to `second`, failed with
/// `error`. A refusal changed nothing, so `first` is put back. When YNAB did not
/// confirm the second half it may hold it: nothing is put back, since that could leave the money
/// half moved the other way, and the failure says which half is confirmed (D14).
#[allow(clippy::too_many_arguments)]
pub(crate) async fn second_half_failed(
    context: &Context,
    plan_id: &str,
    month: &str,
    first: &AssignedSide,
    second: &str,
    error: ynab::Error,
    fmt: &MoneyFormat,
    what: &str,
) -> WriteFailure {
    match WriteFailure::from(error) {
        // A refusal changed nothing: `first` goes back to its `from`
        // (`docs/contract/writes.md` §9.5, §10.3, D5).
        WriteFailure::NothingChanged(text) => {
            let refused = format!("YNAB refused to change {second} ({text})");
            match context
                .plans
                .client()
                .set_assigned(plan_id, month, &first.category_id, first.from)
                .await
            {
                Ok(_) => WriteFailure::NothingChanged(format!(
                    "{refused}; {} is back to {}: nothing was {what}.",
                    first.name,
                    fmt.plain(first.from)
                )),
                Err(again) => WriteFailure::Unknown(format!(
                    "{refused}, then putting {} back failed too ({again}): set {} back to {} in YNAB.",
                    first.name,
                    first.name,
                    fmt.plain(first.from)
                )),
            }
        }
        WriteFailure::Unknown(text) => WriteFailure::Unknown(format!(
            "{} was set to {} in YNAB; then, for {second}: {text}",
            first.name,
            fmt.plain(first.to)
        )),
    }
}
