//! The HTTP face of the sandbox: the running [`Sandbox`], the one place where the router is
//! assembled (YNAB API v1's routes from `crate::routes` under `/v1`, the bearer check and the
//! request counter as layers; YNAB's OAuth endpoints and their control routes from
//! `crate::oauth`), and the counter's `/__sandbox/stats` route.
//!
//! To extend the router (control routes, fault middleware), change `router` only: `/v1` is
//! built and layered there once.

use crate::derived::{Derived, Figures};
use crate::error::error_response;
use crate::faults::{self, Fault, FaultKind, Faults, status_response};
use crate::knowledge;
use crate::oauth::{self, Bearer, OAuth, OAuthStats};
use crate::routes;
use crate::state::PlanState;
use axum::Router;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};

pub use crate::routes::plans::{export, export_since};

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
    /// Of those, the requests that asked for a delta (`last_knowledge_of_server` in the query).
    pub deltas: u64,
    /// Tokens granted by `POST /oauth/token`, by grant type (`crate::oauth`).
    pub oauth: OAuthStats,
}

/// What the handlers share: the plans and the request counter.
#[derive(Debug)]
pub(crate) struct Shared {
    /// The plan last used in YNAB: `last-used` and `default` name it.
    pub(crate) plan: PlanState,
    /// The token's other plans, listed after it and read or written by their ids.
    pub(crate) others: Vec<PlanState>,
    pub(crate) stats: Stats,
    /// The plans as loaded, for `POST /__sandbox/reset`.
    pub(crate) original: PlanState,
    pub(crate) original_others: Vec<PlanState>,
    pub(crate) faults: Arc<Faults>,
    /// The plans' derived figures at their present knowledge (`crate::derived`).
    pub(crate) figures: Figures,
    /// Users, apps, codes, tokens and the clock of YNAB's OAuth (`crate::oauth`).
    pub(crate) oauth: OAuth,
    /// What the linked banks hold that YNAB has not imported yet (transaction objects as
    /// `POST /transactions` takes them, each with its `import_id`): the next
    /// `POST /transactions/import` brings them in. Empty unless a test gives some.
    pub(crate) bank_feed: Vec<serde_json::Value>,
}

impl Shared {
    pub(crate) fn new(plan: PlanState) -> Self {
        Shared {
            others: Vec::new(),
            original_others: Vec::new(),
            original: plan.clone(),
            plan,
            stats: Stats::default(),
            faults: Arc::new(Faults::default()),
            figures: Figures::default(),
            oauth: OAuth::default(),
            bank_feed: Vec::new(),
        }
    }
}

pub(crate) type AppState = Arc<Mutex<Shared>>;

pub(crate) fn lock(state: &AppState) -> MutexGuard<'_, Shared> {
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
        Self::start_plans(plan, Vec::new(), options).await
    }

    /// Serve a token that reads several plans: `last_used` (what `last-used` and `default`
    /// name) and `others`, each read and written by its id.
    pub async fn start_plans(
        last_used: PlanState,
        others: Vec<PlanState>,
        options: SandboxOptions,
    ) -> std::io::Result<Sandbox> {
        let listener = tokio::net::TcpListener::bind(options.listen).await?;
        let addr = listener.local_addr()?;
        let mut shared = Shared::new(last_used);
        shared.original_others = others.clone();
        shared.others = others;
        let state: AppState = Arc::new(Mutex::new(shared));
        let app = router(state.clone());
        let task = tokio::spawn(async move {
            if let Err(error) = axum::serve(listener, app).await {
                tracing::error!("sandbox stopped: {error}");
            }
        });
        Ok(Sandbox { addr, state, task })
    }

    /// What the handlers share (`crate::oauth` adds its set-up methods with it).
    pub(crate) fn state(&self) -> &AppState {
        &self.state
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

    /// The plan it serves (`last-used`'s) as YNAB answers `GET /plans/{plan_id}`:
    /// `{"data": {"plan": …, "server_knowledge": N}}`, which [`crate::planfile`] loads back.
    /// `avenir-mcp call --demo` keeps its plan between calls this way.
    pub fn export_answer(&self) -> Result<serde_json::Value, serde_json::Error> {
        let shared = lock(&self.state);
        let plan = serde_json::to_value(export(&shared.plan))?;
        Ok(serde_json::json!({
            "data": {"plan": plan, "server_knowledge": shared.plan.server_knowledge}
        }))
    }

    /// The plan's `server_knowledge` now: it grows with every change.
    pub fn server_knowledge(&self) -> i64 {
        lock(&self.state).plan.server_knowledge
    }

    /// Give the linked banks lines YNAB has not imported yet (transaction objects as
    /// `POST /transactions` takes them, each with an `import_id`): the next import brings them in.
    pub fn hold_bank_lines(&self, lines: Vec<serde_json::Value>) {
        lock(&self.state).bank_feed.extend(lines);
    }

    /// Add a fault: the next matching requests fail as it says.
    pub fn inject(&self, fault: Fault) {
        lock(&self.state).faults.add(fault);
    }

    /// The requests delays hold now, and those whose client went away during the wait.
    pub fn held(&self) -> faults::Held {
        lock(&self.state).faults.held()
    }

    /// Forget every fault not yet applied.
    pub fn clear_faults(&self) {
        lock(&self.state).faults.clear();
    }

    /// Requests served so far (control routes not counted).
    pub fn stats(&self) -> Stats {
        lock(&self.state).stats.clone()
    }

    /// Read or change the plan directly, as another YNAB app would (tests). A change to anything
    /// the API serves counts as one change of the plan: its `server_knowledge` grows by one and
    /// the changed entities are stamped, so deltas report it (`crate::knowledge`).
    ///
    /// Every cached figure is dropped: `f` may change anything, served or not.
    pub fn with_plan<R>(&self, f: impl FnOnce(&mut PlanState) -> R) -> R {
        let mut shared = lock(&self.state);
        let Shared { plan, figures, .. } = &mut *shared;
        let cached = figures.of(plan);
        let before = cached.snapshot(plan);
        figures.clear();
        let out = f(plan);
        let after = Derived::compute(plan);
        let after_prints = after.snapshot(plan);
        knowledge::record_between(plan, before, after_prints, &[]);
        figures.store(plan, Arc::new(after));
        out
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The sandbox's whole router over `plan`, to drive in-process (`tower::ServiceExt::oneshot`)
/// without a socket; [`Sandbox::start`] serves the same router.
pub fn app(plan: PlanState) -> Router {
    router(Arc::new(Mutex::new(Shared::new(plan))))
}

/// The router: `/v1` (routes, fallbacks, then the counting and bearer layer), YNAB's OAuth
/// endpoints, and the control routes.
fn router(state: AppState) -> Router {
    let v1 = routes::v1()
        .fallback(routes::no_route)
        .method_not_allowed_fallback(routes::no_route)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            count_and_authorize,
        ))
        .with_state(state.clone());
    Router::new()
        .nest("/v1", v1)
        .route("/__sandbox/stats", get(stats))
        .route("/__sandbox/reset", post(reset))
        .route(
            "/__sandbox/faults",
            get(pending_faults).post(add_faults).delete(clear_faults),
        )
        .route("/oauth/authorize", get(oauth::authorize))
        .route(
            "/oauth/token",
            post(oauth::token).layer(middleware::from_fn_with_state(state.clone(), token_faults)),
        )
        .route("/__sandbox/oauth/sign-in", post(oauth::sign_in))
        .route("/__sandbox/oauth/fail-refresh", post(oauth::fail_refresh))
        .route("/__sandbox/clock", post(oauth::clock))
        .fallback(routes::no_route)
        .with_state(state)
}

/// The faults of YNAB's `POST /oauth/token` (a renewal meeting a 429 or a 503): a rule whose
/// route names it (`"POST /oauth/token"`), never one for every request.
async fn token_faults(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let faults = lock(&state).faults.clone();
    match faults.take_named(request.method().as_str(), request.uri().path()) {
        Some(FaultKind::Status {
            status,
            retry_after,
        }) => status_response(status, retry_after.as_deref()),
        Some(FaultKind::Delay { ms }) => {
            faults.hold(ms).await;
            next.run(request).await
        }
        Some(FaultKind::ApplyThenDelay { ms }) => {
            let response = next.run(request).await;
            faults.hold(ms).await;
            response
        }
        Some(FaultKind::ApplyThenDrop) => {
            let _applied = next.run(request).await;
            faults::dropped_response()
        }
        None => next.run(request).await,
    }
}

/// `POST /__sandbox/reset`: back to the plan as loaded, counters zeroed, faults cleared (OAuth's
/// users, apps, tokens and clock kept).
async fn reset(State(state): State<AppState>) -> Response {
    let mut shared = lock(&state);
    shared.plan = shared.original.clone();
    shared.others = shared.original_others.clone();
    shared.stats = Stats::default();
    shared.faults.clear();
    shared.figures.clear();
    StatusCode::NO_CONTENT.into_response()
}

async fn pending_faults(State(state): State<AppState>) -> Response {
    let faults = lock(&state).faults.clone();
    axum::Json(faults.pending()).into_response()
}

/// `POST /__sandbox/faults`: one fault or a list of them (`faults::Fault`'s JSON); a body that
/// is not one answers 400 with a sentence saying what is wrong and what a fault looks like.
async fn add_faults(State(state): State<AppState>, body: axum::body::Bytes) -> Response {
    let faults = match parse_faults(&body) {
        Ok(faults) => faults,
        Err(detail) => {
            return error_response(StatusCode::BAD_REQUEST, "400", "bad_request", &detail);
        }
    };
    let store = lock(&state).faults.clone();
    for fault in faults {
        store.add(fault);
    }
    axum::Json(store.pending()).into_response()
}

/// What a fault looks like, for the 400 of a body that is not one.
const FAULT_SHAPE: &str = "A fault is {\"count\": N, \"route\"?: \"METHOD /path\", \"skip\"?: N, \"kind\": \"status\" with \"status\" (400-599) and \"retry_after\"?, \"delay\" with \"ms\", \"apply_then_delay\" with \"ms\", or \"apply_then_drop\"}, or a list of them.";

/// The faults of a `POST /__sandbox/faults` body, or the sentence that says why it has none.
fn parse_faults(body: &[u8]) -> Result<Vec<Fault>, String> {
    let value: serde_json::Value = serde_json::from_slice(body)
        .map_err(|e| format!("The body is not JSON ({e}). {FAULT_SHAPE}"))?;
    match value {
        serde_json::Value::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(i, item)| one_fault(item).map_err(|e| format!("Fault {i}: {e}")))
            .collect(),
        item => one_fault(item).map(|fault| vec![fault]),
    }
}

fn one_fault(value: serde_json::Value) -> Result<Fault, String> {
    let fault: Fault = serde_json::from_value(value)
        .map_err(|e| format!("The fault is not valid ({e}). {FAULT_SHAPE}"))?;
    if fault.count == 0 {
        return Err("count must be at least 1.".to_owned());
    }
    if let FaultKind::Status {
        status,
        retry_after,
    } = &fault.kind
    {
        if !(400..=599).contains(status) {
            return Err(format!(
                "status {status} is not an error status: give one from 400 to 599."
            ));
        }
        if retry_after
            .as_deref()
            .is_some_and(|v| header::HeaderValue::from_str(v).is_err())
        {
            return Err(
                "retry_after must be a header value: seconds (\"30\") or an HTTP date.".to_owned(),
            );
        }
    }
    Ok(fault)
}

async fn clear_faults(State(state): State<AppState>) -> Response {
    lock(&state).faults.clear();
    StatusCode::NO_CONTENT.into_response()
}

/// The most a delayed request's body may hold (axum's default limit for the handlers' bodies).
const HELD_BODY_LIMIT: usize = 2 * 1024 * 1024;

/// Counts every `/v1` request, then refuses those without a bearer token, as YNAB does. A token
/// issued by `POST /oauth/token` acts as its user (`crate::oauth`): expired, 401 as without one;
/// read-only, 403.3 for anything but a read.
async fn count_and_authorize(
    State(state): State<AppState>,
    matched: Option<MatchedPath>,
    headers: HeaderMap,
    request: Request,
    next: Next,
) -> Response {
    count(&state, matched, &request);
    let route = matched_route(&request);
    let faults = lock(&state).faults.clone();
    let fault = faults.take(request.method().as_str(), &route);
    let mut drop_after = false;
    let mut hold_after = None;
    let mut request = request;
    match fault {
        Some(FaultKind::Status {
            status,
            retry_after,
        }) => return status_response(status, retry_after.as_deref()),
        Some(FaultKind::Delay { ms }) => {
            // The body is read before the wait: with nothing left to read, the server watches
            // the connection, and a client that goes away drops this request here, before any
            // handler ran. A delayed write whose client died never lands.
            let (parts, body) = request.into_parts();
            let Ok(bytes) = axum::body::to_bytes(body, HELD_BODY_LIMIT).await else {
                return error_response(
                    StatusCode::BAD_REQUEST,
                    "400",
                    "bad_request",
                    "The request body could not be read",
                );
            };
            request = Request::from_parts(parts, axum::body::Body::from(bytes));
            faults.hold(ms).await;
        }
        Some(FaultKind::ApplyThenDelay { ms }) => hold_after = Some(ms),
        Some(FaultKind::ApplyThenDrop) => drop_after = true,
        None => {}
    }
    let token = bearer_token(&headers);
    let unauthorized = || {
        error_response(
            StatusCode::UNAUTHORIZED,
            "401",
            "unauthorized",
            "Unauthorized",
        )
    };
    let Some(token) = token else {
        return unauthorized();
    };
    let bearer = lock(&state).oauth.bearer(token);
    let response = match bearer {
        Bearer::Other => next.run(request).await,
        Bearer::Expired => return unauthorized(),
        Bearer::User { user, read_only } => {
            if read_only && !matches!(*request.method(), Method::GET | Method::HEAD) {
                return oauth::read_only_refusal();
            }
            oauth::acting_as(user, next.run(request)).await
        }
    };
    if let Some(ms) = hold_after {
        // The write is applied; its answer waits.
        faults.hold(ms).await;
    }
    if drop_after {
        // The write is applied; the client never hears of it.
        return faults::dropped_response();
    }
    response
}

/// The request counted: in all, by route (`METHOD pattern`), and as a delta when it sends a
/// knowledge.
fn count(state: &AppState, matched: Option<MatchedPath>, request: &Request) {
    let route = matched
        .map(|m| m.as_str().to_string())
        .unwrap_or_else(|| "(unknown)".to_string());
    let key = format!("{} {}", request.method(), route);
    let mut shared = lock(state);
    shared.stats.total += 1;
    *shared.stats.routes.entry(key.clone()).or_insert(0) += 1;
    let delta = request.uri().query().is_some_and(|query| {
        query
            .split('&')
            .any(|pair| pair.starts_with("last_knowledge_of_server="))
    });
    if delta {
        shared.stats.deltas += 1;
    }
}

/// The bearer token of the `Authorization` header, when one is given.
fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|token| !token.is_empty())
}

/// The route pattern the request matched (`/v1/plans/{plan_id}/accounts`).
fn matched_route(request: &Request) -> String {
    request
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_string())
        .unwrap_or_default()
}

async fn stats(State(state): State<AppState>) -> Response {
    axum::Json(lock(&state).stats.clone()).into_response()
}
