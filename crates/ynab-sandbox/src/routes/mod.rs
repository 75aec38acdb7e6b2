//! YNAB API v1's routes, one file per area, and what they share: the route table (built once
//! for `/plans/{plan_id}/…` and once for its legacy alias `/budgets/{plan_id}/…`), plan
//! resolution, query parameters, month paths, and the read/write access to the plan.
//!
//! Every write goes through `write`, which runs it on a draft and records the change
//! (`crate::knowledge`); every read through `read`. Both take the plan's lock once.

pub mod accounts;
pub mod categories;
pub mod months;
pub mod payees;
pub mod plans;
pub mod scheduled;
pub mod transactions;

use crate::body;
use crate::compute;
use crate::derived::{Derived, Figures};
use crate::error::{ApiError, ApiResult};
use crate::knowledge::{self, Key, Since};
use crate::server::{AppState, Shared, lock};
use crate::state::PlanState;
use axum::Router;
use axum::extract::{FromRequestParts, OriginalUri, Path, Query, State};
use axum::http::request::Parts;
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch, post};
use chrono::NaiveDate;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;

/// Which member names a response uses: `/plans` paths answer `plans`/`plan`/`default_plan`,
/// the legacy `/budgets` paths `budgets`/`budget`/`default_budget` (`docs/contract/server.md`
/// §10.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Naming {
    Plans,
    Budgets,
}

impl Naming {
    fn prefix(self) -> &'static str {
        match self {
            Naming::Plans => "/plans",
            Naming::Budgets => "/budgets",
        }
    }
}

/// The routes under `/v1` (without the layers and fallbacks `server` adds).
pub(crate) fn v1() -> Router<AppState> {
    let mut router = Router::new()
        .route("/user", get(plans::user))
        .route(
            "/plans",
            get(|s: State<AppState>, p: Params| plans::list(s, p, Naming::Plans)),
        )
        .route(
            "/budgets",
            get(|s: State<AppState>, p: Params| plans::list(s, p, Naming::Budgets)),
        );
    for naming in [Naming::Plans, Naming::Budgets] {
        router = plan_routes(router, naming);
    }
    router
}

/// Every plan-scoped route under `naming`'s prefix.
fn plan_routes(router: Router<AppState>, naming: Naming) -> Router<AppState> {
    let at = |path: &str| format!("{}/{{plan_id}}{path}", naming.prefix());
    use transactions as tx;
    router
        .route(
            &at(""),
            get(move |s: State<AppState>, id: Path<String>, p: Params| {
                plans::export_route(s, id, p, naming)
            }),
        )
        .route(&at("/settings"), get(plans::settings))
        .route(&at("/accounts"), get(accounts::list).post(accounts::create))
        .route(&at("/accounts/{account_id}"), get(accounts::get_one))
        .route(
            &at("/accounts/{account_id}/transactions"),
            get(tx::by_account),
        )
        .route(
            &at("/categories"),
            get(categories::list).post(categories::create),
        )
        .route(
            &at("/categories/{category_id}"),
            get(categories::get_one).patch(categories::update),
        )
        .route(
            &at("/categories/{category_id}/transactions"),
            get(tx::by_category),
        )
        .route(&at("/category_groups"), post(categories::create_group))
        .route(
            &at("/category_groups/{category_group_id}"),
            patch(categories::update_group),
        )
        .route(&at("/months"), get(months::list))
        .route(&at("/months/{month}"), get(months::get_one))
        .route(
            &at("/months/{month}/categories/{category_id}"),
            get(categories::get_month).patch(categories::update_month),
        )
        .route(&at("/months/{month}/transactions"), get(tx::by_month))
        .route(&at("/payees"), get(payees::list).post(payees::create))
        .route(
            &at("/payees/{payee_id}"),
            get(payees::get_one).patch(payees::update),
        )
        .route(&at("/payees/{payee_id}/transactions"), get(tx::by_payee))
        .route(
            &at("/payees/{payee_id}/payee_locations"),
            get(payees::locations_of_payee),
        )
        .route(&at("/payee_locations"), get(payees::locations))
        .route(
            &at("/payee_locations/{payee_location_id}"),
            get(payees::location),
        )
        .route(
            &at("/transactions"),
            get(tx::list).post(tx::create).patch(tx::update_many),
        )
        .route(&at("/transactions/import"), post(tx::import))
        .route(
            &at("/transactions/{transaction_id}"),
            get(tx::get_one).put(tx::update_one).delete(tx::delete_one),
        )
        .route(
            &at("/scheduled_transactions"),
            get(scheduled::list).post(scheduled::create),
        )
        .route(
            &at("/scheduled_transactions/{scheduled_transaction_id}"),
            get(scheduled::get_one)
                .put(scheduled::update)
                .delete(scheduled::delete),
        )
}

/// 404.1 for a path (or a method on it) that the API does not have.
pub(crate) async fn no_route(method: Method, OriginalUri(uri): OriginalUri) -> ApiError {
    ApiError::NoRoute {
        method: method.to_string(),
        path: uri.path().to_owned(),
    }
}

/// `{"data": value}` with 200.
pub(crate) fn ok(value: Value) -> Response {
    axum::Json(json!({ "data": value })).into_response()
}

/// `{"data": value}` with 201.
pub(crate) fn created(value: Value) -> Response {
    (StatusCode::CREATED, axum::Json(json!({ "data": value }))).into_response()
}

/// A value as JSON (the models always serialize).
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The plan `plan_id` names: its id, `last-used` or `default` (D11).
fn names_plan(plan: &PlanState, plan_id: &str) -> bool {
    plan_id == plan.id || plan_id == "last-used" || plan_id == "default"
}

/// The plan `plan_id` names among the token's plans (`last-used` is the first), and the cached
/// figures of the token's plans. A token of an OAuth user sees only their plans
/// (`crate::oauth::visible_plan_id`).
fn plan_named<'a>(
    shared: &'a mut crate::server::Shared,
    plan_id: &str,
) -> Option<(&'a mut PlanState, &'a mut Figures)> {
    let plan_id = crate::oauth::visible_plan_id(plan_id)?;
    let plan_id = plan_id.as_str();
    let Shared {
        plan,
        others,
        figures,
        ..
    } = shared;
    if names_plan(plan, plan_id) {
        return Some((plan, figures));
    }
    others
        .iter_mut()
        .find(|p| p.id == plan_id)
        .map(|p| (p, figures))
}

/// Runs `f` on the plan `plan_id` names (404 if none).
pub(crate) fn read<T>(
    state: &AppState,
    plan_id: &str,
    f: impl FnOnce(&PlanState) -> ApiResult<T>,
) -> ApiResult<T> {
    let mut shared = lock(state);
    let (plan, _) = plan_named(&mut shared, plan_id).ok_or(ApiError::NotFound)?;
    f(plan)
}

/// Runs `f` on the plan `plan_id` names (404 if none) and its derived figures, cached at the
/// plan's knowledge (`crate::derived`).
pub(crate) fn read_figures<T>(
    state: &AppState,
    plan_id: &str,
    f: impl FnOnce(&PlanState, &Derived) -> ApiResult<T>,
) -> ApiResult<T> {
    let mut shared = lock(state);
    let (plan, figures) = plan_named(&mut shared, plan_id).ok_or(ApiError::NotFound)?;
    let derived = figures.of(plan);
    f(plan, &derived)
}

/// Runs the write `apply` on a draft of the plan `plan_id` names; on success the draft becomes
/// the plan, the change is recorded (`knowledge::commit`), and `respond` shapes the answer from
/// the new plan. `apply` returns its result and the entities it wrote. The figures computed for
/// the new plan (they gave the change's fingerprints) replace the cached ones.
pub(crate) fn write<T, R>(
    state: &AppState,
    plan_id: &str,
    apply: impl FnOnce(&mut PlanState) -> ApiResult<(T, Vec<Key>)>,
    respond: impl FnOnce(&PlanState, T) -> R,
) -> ApiResult<R> {
    let mut shared = lock(state);
    let (plan, figures) = plan_named(&mut shared, plan_id).ok_or(ApiError::NotFound)?;
    let before = figures.of(plan);
    let (out, after) = knowledge::commit_from(plan, &before, apply)?;
    figures.store(plan, Arc::new(after));
    Ok(respond(plan, out))
}

/// The query parameters of a request.
#[derive(Debug, Clone, Default)]
pub(crate) struct Params(HashMap<String, String>);

impl<S: Send + Sync> FromRequestParts<S> for Params {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Query::<HashMap<String, String>>::try_from_uri(&parts.uri)
            .map(|Query(map)| Params(map))
            .map_err(|_| ApiError::bad("The query string is not valid"))
    }
}

impl Params {
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// `last_knowledge_of_server`.
    pub(crate) fn since(&self) -> ApiResult<Since> {
        match self.get("last_knowledge_of_server") {
            None => Ok(Since(None)),
            Some(text) => text
                .parse::<i64>()
                .map(|k| Since(Some(k)))
                .map_err(|_| ApiError::bad("last_knowledge_of_server must be an integer")),
        }
    }

    /// A `YYYY-MM-DD` parameter.
    pub(crate) fn date(&self, name: &str) -> ApiResult<Option<NaiveDate>> {
        match self.get(name) {
            None => Ok(None),
            Some(text) => body::parse_date(text).map(Some).ok_or_else(|| {
                ApiError::bad(format!("{name} must be a date formatted as YYYY-MM-DD"))
            }),
        }
    }

    /// A `true`/`false` parameter (absent = false).
    pub(crate) fn flag(&self, name: &str) -> ApiResult<bool> {
        match self.get(name) {
            None | Some("false") => Ok(false),
            Some("true") => Ok(true),
            Some(_) => Err(ApiError::bad(format!("{name} must be true or false"))),
        }
    }
}

/// A `{month}` path segment as a served month `YYYY-MM-01`: `current` is today's month; any
/// date stands for its month; a month the sandbox does not serve (D21) is a 404.
pub(crate) fn served_month(plan: &PlanState, text: &str) -> ApiResult<String> {
    let month = if text == "current" {
        compute::current_month(plan)
    } else {
        let date = body::parse_date(text).ok_or_else(|| {
            ApiError::bad("month must be a date formatted as YYYY-MM-DD or 'current'")
        })?;
        date.format("%Y-%m-01").to_string()
    };
    if compute::served_months(plan).contains(&month) {
        Ok(month)
    } else {
        Err(ApiError::NotFound)
    }
}
