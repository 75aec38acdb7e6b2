//! The HTTP face of the sandbox: YNAB API v1's routes under `/v1`, YNAB's error bodies, a bearer
//! token check, and a request counter under `/__sandbox/` that tests read to measure YNAB costs.

use crate::compute;
use crate::state::PlanState;
use axum::Router;
use axum::extract::{MatchedPath, Path, Query, Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use chrono::{Datelike, NaiveDate};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use ynab::models::{
    CategoryGroupWithCategories, PlanDetail, PlanSummary, ScheduledTransactionSummary,
    SubTransaction, TransactionSummary,
};

/// Where the sandbox listens.
#[derive(Debug, Clone)]
pub struct SandboxOptions {
    /// Address to bind; port 0 picks a free one. Keep it on loopback.
    pub listen: SocketAddr,
}

impl Default for SandboxOptions {
    fn default() -> Self {
        SandboxOptions {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        }
    }
}

/// Requests served, in all and per `METHOD route`.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    pub total: u64,
    pub routes: BTreeMap<String, u64>,
}

#[derive(Debug)]
struct Shared {
    plan: PlanState,
    stats: Stats,
}

type AppState = Arc<Mutex<Shared>>;

fn lock(state: &AppState) -> MutexGuard<'_, Shared> {
    state
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A running sandbox. Dropping it stops the server.
#[derive(Debug)]
pub struct Sandbox {
    addr: SocketAddr,
    state: AppState,
    task: tokio::task::JoinHandle<()>,
}

impl Sandbox {
    /// Serve `plan` on `options.listen` until the returned value is dropped.
    pub async fn start(plan: PlanState, options: SandboxOptions) -> std::io::Result<Sandbox> {
        let listener = tokio::net::TcpListener::bind(options.listen).await?;
        let addr = listener.local_addr()?;
        let state: AppState = Arc::new(Mutex::new(Shared {
            plan,
            stats: Stats::default(),
        }));
        let app = router(state.clone());
        let task = tokio::spawn(async move {
            if let Err(error) = axum::serve(listener, app).await {
                tracing::error!("sandbox stopped: {error}");
            }
        });
        Ok(Sandbox { addr, state, task })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The base URL to give a YNAB client: `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// The id of the plan it serves.
    pub fn plan_id(&self) -> String {
        lock(&self.state).plan.id.clone()
    }

    /// Requests served so far (control routes not counted).
    pub fn stats(&self) -> Stats {
        lock(&self.state).stats.clone()
    }

    /// Read or change the plan directly, as another YNAB app would (tests).
    pub fn with_plan<R>(&self, f: impl FnOnce(&mut PlanState) -> R) -> R {
        f(&mut lock(&self.state).plan)
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn router(state: AppState) -> Router {
    let v1 = Router::new()
        .route("/user", get(user))
        .route("/plans", get(plans))
        .route("/plans/{plan_id}", get(plan_export))
        .route("/plans/{plan_id}/settings", get(settings))
        .route("/plans/{plan_id}/accounts", get(accounts))
        .route("/plans/{plan_id}/categories", get(categories))
        .route("/plans/{plan_id}/payees", get(payees))
        .route("/plans/{plan_id}/months", get(months))
        .route("/plans/{plan_id}/months/{month}", get(month))
        .route("/plans/{plan_id}/transactions", get(transactions))
        .route(
            "/plans/{plan_id}/scheduled_transactions",
            get(scheduled_transactions),
        )
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            count_and_authorize,
        ))
        .with_state(state.clone());
    Router::new()
        .nest("/v1", v1)
        .route("/__sandbox/stats", get(stats))
        .fallback(not_found)
        .with_state(state)
}

/// YNAB's error body.
fn error(status: StatusCode, id: &str, name: &str, detail: &str) -> Response {
    (
        status,
        axum::Json(json!({"error": {"id": id, "name": name, "detail": detail}})),
    )
        .into_response()
}

fn resource_not_found() -> Response {
    error(
        StatusCode::NOT_FOUND,
        "404.2",
        "resource_not_found",
        "Resource not found",
    )
}

async fn not_found(method: Method, uri: axum::http::Uri) -> Response {
    error(
        StatusCode::NOT_FOUND,
        "404.1",
        "not_found",
        &format!("Not found: {method} {}", uri.path()),
    )
}

fn data(value: Value) -> Response {
    axum::Json(json!({ "data": value })).into_response()
}

/// Counts every `/v1` request, then refuses those without a bearer token, as YNAB does.
async fn count_and_authorize(
    State(state): State<AppState>,
    matched: Option<MatchedPath>,
    headers: HeaderMap,
    request: Request,
    next: Next,
) -> Response {
    {
        let route = matched
            .map(|m| m.as_str().to_string())
            .unwrap_or_else(|| "(unknown)".to_string());
        let key = format!("{} {}", request.method(), route);
        let mut shared = lock(&state);
        shared.stats.total += 1;
        *shared.stats.routes.entry(key).or_insert(0) += 1;
    }
    let authorized = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .is_some_and(|token| !token.trim().is_empty());
    if !authorized {
        return error(
            StatusCode::UNAUTHORIZED,
            "401",
            "unauthorized",
            "Unauthorized",
        );
    }
    next.run(request).await
}

async fn stats(State(state): State<AppState>) -> Response {
    axum::Json(lock(&state).stats.clone()).into_response()
}

async fn user() -> Response {
    data(json!({"user": {"id": crate::ids::id("sandbox-user")}}))
}

/// The plan when `plan_id` names it (its id, `last-used` or `default`).
fn resolve<'a>(shared: &'a Shared, plan_id: &str) -> Option<&'a PlanState> {
    let plan = &shared.plan;
    (plan_id == plan.id || plan_id == "last-used" || plan_id == "default").then_some(plan)
}

fn summary(plan: &PlanState) -> PlanSummary {
    PlanSummary {
        id: plan.id.clone(),
        name: plan.name.clone(),
        last_modified_on: Some(plan.last_modified_on.clone()),
        first_month: Some(month_key(plan.first_month)),
        last_month: Some(month_key(plan.last_month)),
        date_format: Some(plan.date_format.clone()),
        currency_format: Some(plan.currency_format.clone()),
    }
}

fn month_key(date: NaiveDate) -> String {
    format!("{:04}-{:02}-01", date.year(), date.month())
}

/// Months served: from the plan's first month to 12 months after "today" (D21).
fn served_months(plan: &PlanState) -> Vec<String> {
    let mut months = Vec::new();
    let (mut y, mut m) = (plan.first_month.year(), plan.first_month.month());
    let end = plan.today.year() * 12 + plan.today.month() as i32 - 1 + 12;
    while y * 12 + (m as i32 - 1) <= end {
        months.push(format!("{y:04}-{m:02}-01"));
        m += 1;
        if m > 12 {
            m = 1;
            y += 1;
        }
    }
    months
}

async fn plans(State(state): State<AppState>) -> Response {
    let shared = lock(&state);
    data(json!({"plans": [summary(&shared.plan)], "default_plan": null}))
}

async fn settings(State(state): State<AppState>, Path(plan_id): Path<String>) -> Response {
    let shared = lock(&state);
    let Some(plan) = resolve(&shared, &plan_id) else {
        return resource_not_found();
    };
    data(json!({"settings": {
        "date_format": plan.date_format,
        "currency_format": plan.currency_format,
    }}))
}

async fn accounts(State(state): State<AppState>, Path(plan_id): Path<String>) -> Response {
    let shared = lock(&state);
    let Some(plan) = resolve(&shared, &plan_id) else {
        return resource_not_found();
    };
    let accounts: Vec<_> = compute::accounts(plan)
        .into_iter()
        .filter(|a| !a.deleted)
        .collect();
    data(json!({"accounts": accounts, "server_knowledge": plan.server_knowledge}))
}

fn category_groups(plan: &PlanState) -> Vec<CategoryGroupWithCategories> {
    let current = compute::current_month(plan);
    let categories = compute::month_categories(plan, &current);
    plan.groups
        .iter()
        .filter(|g| !g.deleted)
        .map(|group| CategoryGroupWithCategories {
            group: group.clone(),
            categories: categories
                .iter()
                .filter(|c| c.category_group_id == group.id && !c.deleted)
                .cloned()
                .collect(),
        })
        .collect()
}

async fn categories(State(state): State<AppState>, Path(plan_id): Path<String>) -> Response {
    let shared = lock(&state);
    let Some(plan) = resolve(&shared, &plan_id) else {
        return resource_not_found();
    };
    data(
        json!({"category_groups": category_groups(plan), "server_knowledge": plan.server_knowledge}),
    )
}

async fn payees(State(state): State<AppState>, Path(plan_id): Path<String>) -> Response {
    let shared = lock(&state);
    let Some(plan) = resolve(&shared, &plan_id) else {
        return resource_not_found();
    };
    let payees: Vec<_> = plan.payees.iter().filter(|p| !p.deleted).collect();
    data(json!({"payees": payees, "server_knowledge": plan.server_knowledge}))
}

async fn months(State(state): State<AppState>, Path(plan_id): Path<String>) -> Response {
    let shared = lock(&state);
    let Some(plan) = resolve(&shared, &plan_id) else {
        return resource_not_found();
    };
    let months: Vec<_> = served_months(plan)
        .iter()
        .map(|m| {
            let mut month = compute::month(plan, m);
            month.categories = None;
            month
        })
        .collect();
    data(json!({"months": months, "server_knowledge": plan.server_knowledge}))
}

async fn month(
    State(state): State<AppState>,
    Path((plan_id, month)): Path<(String, String)>,
) -> Response {
    let shared = lock(&state);
    let Some(plan) = resolve(&shared, &plan_id) else {
        return resource_not_found();
    };
    let month = if month == "current" {
        compute::current_month(plan)
    } else {
        month
    };
    if !served_months(plan).contains(&month) {
        return resource_not_found();
    }
    data(json!({"month": compute::month(plan, &month)}))
}

#[derive(Debug, Deserialize)]
struct TransactionsQuery {
    since_date: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    last_knowledge_of_server: Option<i64>,
}

async fn transactions(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
    query: Result<Query<TransactionsQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let Ok(Query(query)) = query else {
        return error(
            StatusCode::BAD_REQUEST,
            "400",
            "bad_request",
            "The query parameters are invalid",
        );
    };
    let shared = lock(&state);
    let Some(plan) = resolve(&shared, &plan_id) else {
        return resource_not_found();
    };
    let since = match query.since_date.as_deref().map(|d| d.parse::<NaiveDate>()) {
        None => None,
        Some(Ok(date)) => Some(date),
        Some(Err(_)) => {
            return error(
                StatusCode::BAD_REQUEST,
                "400",
                "bad_request",
                "since_date must be a date formatted as YYYY-MM-DD",
            );
        }
    };
    let kind = query.kind.as_deref();
    if !matches!(kind, None | Some("uncategorized") | Some("unapproved")) {
        return error(
            StatusCode::BAD_REQUEST,
            "400",
            "bad_request",
            "type must be 'uncategorized' or 'unapproved'",
        );
    }
    let _ = query.last_knowledge_of_server; // deltas: every entity is returned until they are tracked
    let transactions: Vec<_> = compute::transactions(plan)
        .into_iter()
        .filter(|t| !t.deleted)
        .filter(|t| since.is_none_or(|since| t.date.parse::<NaiveDate>().is_ok_and(|d| d >= since)))
        .filter(|t| match kind {
            Some("uncategorized") => needs_category(plan, t),
            Some("unapproved") => !t.approved,
            _ => true,
        })
        .collect();
    data(json!({"transactions": transactions, "server_knowledge": plan.server_knowledge}))
}

/// YNAB's `type=uncategorized`: a transaction on a budget account with no category, unless it
/// is a split or a transfer to another budget account (those take no category).
fn needs_category(plan: &PlanState, t: &ynab::models::Transaction) -> bool {
    let on_budget = |account_id: &str| {
        plan.accounts
            .iter()
            .any(|a| a.id == account_id && a.on_budget)
    };
    let budget_transfer = t.transfer_account_id.as_deref().is_some_and(on_budget);
    on_budget(&t.account_id)
        && t.subtransactions.is_empty()
        && !budget_transfer
        && (t.category_id.is_none() || t.category_name.as_deref() == Some("Uncategorized"))
}

async fn scheduled_transactions(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
) -> Response {
    let shared = lock(&state);
    let Some(plan) = resolve(&shared, &plan_id) else {
        return resource_not_found();
    };
    let scheduled: Vec<_> = plan.scheduled.iter().filter(|s| !s.deleted).collect();
    data(json!({"scheduled_transactions": scheduled, "server_knowledge": plan.server_knowledge}))
}

/// The full plan export, `GET /plans/{plan_id}`.
async fn plan_export(State(state): State<AppState>, Path(plan_id): Path<String>) -> Response {
    let shared = lock(&state);
    let Some(plan) = resolve(&shared, &plan_id) else {
        return resource_not_found();
    };
    data(json!({"plan": export(plan), "server_knowledge": plan.server_knowledge}))
}

/// The plan in the flat shape of YNAB's `PlanDetail`.
pub fn export(plan: &PlanState) -> PlanDetail {
    let current = compute::current_month(plan);
    let transactions = compute::transactions(plan);
    let mut subtransactions: Vec<SubTransaction> = Vec::new();
    let flat: Vec<TransactionSummary> = transactions
        .iter()
        .filter(|t| !t.deleted)
        .map(|t| {
            subtransactions.extend(t.subtransactions.iter().cloned());
            TransactionSummary {
                id: t.id.clone(),
                date: t.date.clone(),
                amount: t.amount,
                memo: t.memo.clone(),
                cleared: t.cleared.clone(),
                approved: t.approved,
                flag_color: t.flag_color.clone(),
                flag_name: t.flag_name.clone(),
                account_id: t.account_id.clone(),
                payee_id: t.payee_id.clone(),
                category_id: t.category_id.clone(),
                transfer_account_id: t.transfer_account_id.clone(),
                transfer_transaction_id: t.transfer_transaction_id.clone(),
                matched_transaction_id: t.matched_transaction_id.clone(),
                import_id: t.import_id.clone(),
                import_payee_name: t.import_payee_name.clone(),
                import_payee_name_original: t.import_payee_name_original.clone(),
                debt_transaction_type: t.debt_transaction_type.clone(),
                deleted: t.deleted,
            }
        })
        .collect();
    let mut scheduled_subtransactions = Vec::new();
    let scheduled: Vec<ScheduledTransactionSummary> = plan
        .scheduled
        .iter()
        .filter(|s| !s.deleted)
        .map(|s| {
            scheduled_subtransactions.extend(s.subtransactions.iter().cloned());
            ScheduledTransactionSummary {
                id: s.id.clone(),
                date_first: s.date_first.clone(),
                date_next: s.date_next.clone(),
                frequency: s.frequency.clone(),
                amount: s.amount,
                memo: s.memo.clone(),
                flag_color: s.flag_color.clone(),
                flag_name: s.flag_name.clone(),
                account_id: s.account_id.clone(),
                payee_id: s.payee_id.clone(),
                category_id: s.category_id.clone(),
                transfer_account_id: s.transfer_account_id.clone(),
                deleted: s.deleted,
            }
        })
        .collect();
    let summary = summary(plan);
    PlanDetail {
        id: summary.id,
        name: summary.name,
        last_modified_on: summary.last_modified_on,
        first_month: summary.first_month,
        last_month: summary.last_month,
        date_format: summary.date_format,
        currency_format: summary.currency_format,
        accounts: compute::accounts(plan)
            .into_iter()
            .filter(|a| !a.deleted)
            .collect(),
        payees: plan.payees.iter().filter(|p| !p.deleted).cloned().collect(),
        payee_locations: Vec::new(),
        category_groups: plan.groups.iter().filter(|g| !g.deleted).cloned().collect(),
        categories: compute::month_categories(plan, &current)
            .into_iter()
            .filter(|c| !c.deleted)
            .collect(),
        months: served_months(plan)
            .iter()
            .map(|m| compute::month(plan, m))
            .collect(),
        transactions: flat,
        subtransactions,
        scheduled_transactions: scheduled,
        scheduled_subtransactions,
    }
}
