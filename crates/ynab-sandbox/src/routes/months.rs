//! Months: the month summaries (with their delta) and one month's detail with its categories.
//!
//! The sandbox serves every month from the plan's first month to 12 months after "today" (D21);
//! any other month is a 404, and `current` names today's month.

use super::{Params, ok, read_figures, served_month};
use crate::compute;
use crate::error::ApiResult;
use crate::knowledge::Kind;
use crate::server::AppState;
use axum::extract::{Path, State};
use axum::response::Response;
use serde_json::json;
use ynab::models::Month;

/// `GET /months`: summaries without categories; a delta lists the months whose totals or
/// category rows changed.
pub(crate) async fn list(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
    params: Params,
) -> ApiResult<Response> {
    let since = params.since()?;
    read_figures(&state, &plan_id, |plan, derived| {
        let months: Vec<Month> = derived
            .served
            .iter()
            .zip(&derived.months)
            .filter(|(m, _)| since.keeps(plan, Kind::Month, m, false))
            .map(|(_, m)| Month {
                month: m.month.clone(),
                note: m.note.clone(),
                income: m.income,
                budgeted: m.budgeted,
                activity: m.activity,
                to_be_budgeted: m.to_be_budgeted,
                age_of_money: m.age_of_money,
                deleted: m.deleted,
                categories: None,
            })
            .collect();
        Ok(ok(
            json!({"months": months, "server_knowledge": plan.server_knowledge}),
        ))
    })
}

/// `GET /months/{month}`: the month with every live category's figures for it.
pub(crate) async fn get_one(
    State(state): State<AppState>,
    Path((plan_id, month)): Path<(String, String)>,
) -> ApiResult<Response> {
    read_figures(&state, &plan_id, |plan, derived| {
        let month = served_month(plan, &month)?;
        let mut detail = match derived.month(&month) {
            Some(detail) => detail.clone(),
            None => compute::month(plan, &month),
        };
        if let Some(categories) = detail.categories.as_mut() {
            categories.retain(|c| !c.deleted);
        }
        Ok(ok(json!({"month": detail})))
    })
}
