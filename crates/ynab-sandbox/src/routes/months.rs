//! Months: the month summaries (with their delta) and one month's detail with its categories.
//!
//! The sandbox serves every month from the plan's first month to 12 months after "today" (D21);
//! any other month is a 404, and `current` names today's month.

use super::{Params, ok, read, served_month};
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
    read(&state, &plan_id, |plan| {
        let changed: Vec<String> = compute::served_months(plan)
            .into_iter()
            .filter(|m| since.keeps(plan, Kind::Month, m, false))
            .collect();
        let months: Vec<Month> = compute::months(plan, &changed)
            .into_iter()
            .map(|m| Month {
                categories: None,
                ..m
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
    read(&state, &plan_id, |plan| {
        let month = served_month(plan, &month)?;
        let mut detail = compute::month(plan, &month);
        if let Some(categories) = detail.categories.as_mut() {
            categories.retain(|c| !c.deleted);
        }
        Ok(ok(json!({"month": detail})))
    })
}
