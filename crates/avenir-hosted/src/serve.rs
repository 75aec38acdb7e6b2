//! The hosted server's HTTP face: the authorization server's routes (`oauth`) and MCP at `/mcp`
//! (rmcp's streamable HTTP, both protocol eras), behind these checks, run on every `/mcp`
//! request in this order:
//!
//! 1. Host: the public URL's authority, or a loopback name when listening on loopback (the
//!    reverse proxy in front forwards either).
//! 2. Origin, when sent: the public URL's origin, one of `AVENIR_MCP_ALLOWED_ORIGINS`, or a
//!    loopback origin when both the listener and the Host are loopback (a page on this machine).
//! 3. The bearer token: one this server issued, unexpired, for this resource (`oauth`); else
//!    401 with `WWW-Authenticate: Bearer resource_metadata=…`; 503 with `Retry-After` when the
//!    database cannot answer in time.
//! 4. The person's request limit (`throttle`): 429 with `Retry-After` beyond it.
//! 5. The session: an `Mcp-Session-Id` that is not the person's (`sessions`) answers 404.
//! 6. The body of a POST, read within the body timeout (408): not JSON, 400 with JSON-RPC's
//!    -32700; JSON but not one JSON-RPC message, 400 with -32600.
//! 7. Step-up: a `tools/call` of a write tool with a token granted read only answers 403
//!    `insufficient_scope`, so the client can ask the person for more.
//!
//! Then the request carries the person (`avenir::server::Person`): every call runs on their
//! own context. A session the answer opens is bound to the person, within the bounds.

// The helpers the local transport shares; `bracket` is also the hosted start's.
use crate::config::PublicUrl;
use crate::limits::Limits;
use crate::oauth::OAuthServer;
use crate::people::People;
use crate::sessions::Sessions;
use crate::throttle::PersonLimit;
pub use avenir::http_transport::{bracket, is_loopback_name, mcp_service, plain};
use avenir::server::Person;
use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::Response;
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

/// The largest MCP request body read (tool arguments are small).
const BODY_LIMIT: usize = 4 * 1024 * 1024;
/// rmcp's session header.
const SESSION_HEADER: &str = "mcp-session-id";
/// How often idle sessions, people and rate-limit entries are swept.
const SWEEP_EVERY: Duration = Duration::from_secs(30);

/// What the `/mcp` checks need.
#[derive(Clone)]
struct Checks {
    public: PublicUrl,
    loopback_listener: bool,
    allowed_origins: Arc<HashSet<String>>,
    oauth: Arc<OAuthServer>,
    people: Arc<People>,
    write_tools: Arc<HashSet<&'static str>>,
    sessions: Arc<Sessions>,
    throttle: Arc<PersonLimit>,
    body_timeout: Duration,
}

/// Where `/mcp` is served from and by whom.
pub struct Served {
    pub public: PublicUrl,
    pub loopback_listener: bool,
    pub allowed_origins: Vec<String>,
    pub limits: Limits,
}

/// The whole hosted router: the authorization server's routes and `/mcp`; and the instance's
/// sessions.
pub fn router(
    template: Arc<avenir::Context>,
    oauth: Arc<OAuthServer>,
    people: Arc<People>,
    served: Served,
) -> (Router, Arc<Sessions>) {
    let sessions = Arc::new(Sessions::new(&served.limits));
    let service = avenir::http_transport::mcp_service_with(
        avenir::AvenirServer::hosted(template),
        sessions.manager(),
    );
    let write_tools = avenir::tools::registry()
        .into_iter()
        .filter(|t| !t.read_only)
        .map(|t| t.name)
        .collect();
    let checks = Checks {
        public: served.public,
        loopback_listener: served.loopback_listener,
        allowed_origins: Arc::new(
            served
                .allowed_origins
                .into_iter()
                .map(|o| o.trim().trim_end_matches('/').to_ascii_lowercase())
                .collect(),
        ),
        oauth: oauth.clone(),
        people,
        write_tools: Arc::new(write_tools),
        sessions: sessions.clone(),
        throttle: Arc::new(PersonLimit::new(served.limits.requests_per_minute)),
        body_timeout: served.limits.body_timeout,
    };
    spawn_sweeper(&checks);
    let mcp = Router::new()
        .nest_service("/mcp", service)
        .layer(middleware::from_fn(avenir::http_transport::closed_session))
        .layer(middleware::from_fn_with_state(checks, mcp_checks));
    (oauth.router().merge(mcp), sessions)
}

/// Every [`SWEEP_EVERY`]: idle sessions closed, idle people's contexts dropped, rested people
/// forgotten by the rate limit. Ends when the router is dropped.
fn spawn_sweeper(checks: &Checks) {
    let sessions = Arc::downgrade(&checks.sessions);
    let people = Arc::downgrade(&checks.people);
    let throttle = Arc::downgrade(&checks.throttle);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(SWEEP_EVERY);
        every.tick().await;
        loop {
            every.tick().await;
            let (Some(sessions), Some(people), Some(throttle)) =
                (sessions.upgrade(), people.upgrade(), throttle.upgrade())
            else {
                return;
            };
            sessions.sweep().await;
            people.sweep();
            throttle.forget_rested();
        }
    });
}

/// The Host header's host part (no port), lower-case.
fn host_only(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    authority.rsplit_once(':').map_or(authority, |(h, _)| h)
}

async fn mcp_checks(State(checks): State<Checks>, request: Request, next: Next) -> Response {
    if let Some(refusal) = host_or_origin_refusal(&checks, request.headers()) {
        return refusal;
    }
    let authenticated = match checks
        .oauth
        .authenticate(request.headers().get(header::AUTHORIZATION))
        .await
    {
        Ok(authenticated) => authenticated,
        Err(refusal) => return with_retry_after(refusal),
    };
    let person = authenticated.person_id;
    if let Err(wait) = checks.throttle.check(&person) {
        return too_many_requests(wait);
    }
    let session = request
        .headers()
        .get(SESSION_HEADER)
        .map(|v| v.to_str().unwrap_or_default().to_string());
    if let Some(id) = &session
        && !checks.sessions.use_session(&person, id)
    {
        return session_not_found();
    }
    let writes = authenticated.scope.split(' ').any(|s| s == "write");
    let (parts, body) = request.into_parts();
    let body = match checked_body(&checks, &parts, body, writes).await {
        Ok(body) => body,
        Err(refusal) => return refusal,
    };
    let context = match checks.people.context(&person) {
        Ok(context) => context,
        Err(why) => {
            tracing::warn!("a person's context cannot be made: {why}");
            return with_retry_after(plain(
                StatusCode::SERVICE_UNAVAILABLE,
                "The server cannot serve this account right now: try again shortly.",
            ));
        }
    };
    let method = parts.method.clone();
    let mut request = Request::from_parts(parts, body);
    request.extensions_mut().insert(Person { context, writes });
    let response = next.run(request).await;
    match session_change(session, &method, &response) {
        SessionChange::Opened(id) => {
            checks.sessions.opened(&person, &id).await;
        }
        SessionChange::Closed(id) => checks.sessions.closed(&id),
        SessionChange::None => {}
    }
    response
}

/// What the response says of sessions: one opened (bound to `person`, the bounds kept), or one
/// closed by `DELETE`.
fn session_change(session: Option<String>, method: &Method, response: &Response) -> SessionChange {
    let opened = response
        .headers()
        .get(SESSION_HEADER)
        .and_then(|v| v.to_str().ok());
    match (session, opened) {
        (None, Some(id)) => SessionChange::Opened(id.to_string()),
        (Some(id), _) if *method == Method::DELETE && response.status().is_success() => {
            SessionChange::Closed(id)
        }
        _ => SessionChange::None,
    }
}

enum SessionChange {
    None,
    Opened(String),
    Closed(String),
}

/// A POST's body, read within the body timeout: 400 when it is not a JSON-RPC message (sent as
/// JSON), 403 `insufficient_scope` when a read-only token calls a write tool.
async fn checked_body(
    checks: &Checks,
    parts: &Parts,
    body: Body,
    writes: bool,
) -> Result<Body, Response> {
    if parts.method != Method::POST {
        return Ok(body);
    }
    let bytes =
        match tokio::time::timeout(checks.body_timeout, axum::body::to_bytes(body, BODY_LIMIT))
            .await
        {
            Ok(Ok(bytes)) => bytes,
            Ok(Err(_)) => {
                return Err(plain(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "Request body too large",
                ));
            }
            Err(_) => {
                return Err(plain(
                    StatusCode::REQUEST_TIMEOUT,
                    "The request body did not arrive in time: send it again.",
                ));
            }
        };
    if is_json(&parts.headers)
        && let Some(refusal) = not_json_rpc(&bytes)
    {
        return Err(refusal);
    }
    if !writes
        && let Some(tool) = called_tool(&bytes)
        && checks.write_tools.contains(tool.as_str())
    {
        return Err(checks.oauth.insufficient_scope("read write"));
    }
    Ok(Body::from(bytes))
}

/// The request says it sends JSON (otherwise rmcp answers 415 itself).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

/// JSON-RPC's answer to a body that is not JSON (-32700) or not one JSON-RPC message (-32600),
/// with 400.
fn not_json_rpc(body: &[u8]) -> Option<Response> {
    let (code, message) = match serde_json::from_slice::<serde_json::Value>(body) {
        Err(e) => (
            -32700,
            format!("Parse error: the request body is not JSON ({e}): send one JSON-RPC message."),
        ),
        Ok(value) => match serde_json::from_value::<rmcp::model::ClientJsonRpcMessage>(value) {
            Ok(_) => return None,
            Err(e) => (
                -32600,
                format!(
                    "Invalid Request: the body is not a JSON-RPC message this server accepts \
                     ({e}): send one request, notification or response."
                ),
            ),
        },
    };
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": code, "message": message},
    });
    let mut response = Response::new(Body::from(body.to_string()));
    *response.status_mut() = StatusCode::BAD_REQUEST;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Some(response)
}

/// A 503 (storage unreachable) says when to come back.
fn with_retry_after(mut response: Response) -> Response {
    if response.status() == StatusCode::SERVICE_UNAVAILABLE {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    }
    response
}

/// 429 for a person over the per-person limit on `/mcp`.
fn too_many_requests(wait: Duration) -> Response {
    let seconds = wait.as_secs() + 1;
    let mut response = Response::new(Body::from(format!(
        "Too many requests from this account: wait {seconds} s, then send it again."
    )));
    *response.status_mut() = StatusCode::TOO_MANY_REQUESTS;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    response
}

/// 404 for a session that is not the caller's: ended, closed, never theirs (one answer).
fn session_not_found() -> Response {
    plain(
        StatusCode::NOT_FOUND,
        "Not Found: this MCP session is not open (it was closed, ended after being idle, or \
         replaced by a newer one of this account): send initialize without Mcp-Session-Id to \
         start a new one.",
    )
}

/// Checks 1 and 2: the refusal when the Host is not this server's, or the Origin, when sent,
/// is neither the public one, an allowed one, nor a page on this machine.
fn host_or_origin_refusal(checks: &Checks, headers: &HeaderMap) -> Option<Response> {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(|h| h.trim().to_ascii_lowercase());
    let host_ok = host.as_deref().is_some_and(|host| {
        host == checks.public.authority
            || (checks.loopback_listener && is_loopback_name(host_only(host)))
    });
    if !host_ok {
        return Some(plain(
            StatusCode::MISDIRECTED_REQUEST,
            "Misdirected Request",
        ));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin
            .to_str()
            .unwrap_or("")
            .trim()
            .trim_end_matches('/')
            .to_ascii_lowercase();
        // a page on this machine, to a listener on loopback reached by a loopback name (as the
        // local server allows): what DNS rebinding cannot fake, since Host is loopback too
        let local_page = checks.loopback_listener
            && host
                .as_deref()
                .is_some_and(|h| is_loopback_name(host_only(h)))
            && origin.split_once("://").is_some_and(|(scheme, rest)| {
                matches!(scheme, "http" | "https") && is_loopback_name(host_only(rest))
            });
        if origin != checks.public.origin
            && !checks.allowed_origins.contains(&origin)
            && !local_page
        {
            return Some(plain(StatusCode::FORBIDDEN, "Forbidden Origin"));
        }
    }
    None
}

/// The tool a JSON-RPC `tools/call` (or a batch holding one) names.
fn called_tool(body: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    let calls = match &value {
        serde_json::Value::Array(items) => items.iter().collect(),
        single => vec![single],
    };
    calls.into_iter().find_map(|call| {
        (call.get("method")?.as_str()? == "tools/call")
            .then(|| call.pointer("/params/name")?.as_str().map(str::to_string))
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_called_tool_is_read_from_the_body() {
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"set_category_budget"}}"#;
        assert_eq!(called_tool(call).as_deref(), Some("set_category_budget"));
        let list = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        assert_eq!(called_tool(list), None);
        assert_eq!(called_tool(b"not json"), None);
        let batch = br#"[{"method":"ping"},{"method":"tools/call","params":{"name":"x"}}]"#;
        assert_eq!(called_tool(batch).as_deref(), Some("x"));
    }

    #[test]
    fn hosts() {
        assert_eq!(host_only("[::1]:80"), "::1");
        assert_eq!(host_only("example.org:443"), "example.org");
        assert!(is_loopback_name("[::1]"));
        assert!(!is_loopback_name("example.org"));
    }
}
