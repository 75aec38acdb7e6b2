//! The hosted server's HTTP face: the authorization server's routes (`oauth`) and MCP at `/mcp`
//! (rmcp's streamable HTTP, both protocol eras), behind four checks run on every `/mcp` request:
//!
//! 1. Host: the public URL's authority, or a loopback name when listening on loopback (the
//!    reverse proxy in front forwards either).
//! 2. Origin, when sent: the public URL's origin, one of `AVENIR_MCP_ALLOWED_ORIGINS`, or a
//!    loopback origin when both the listener and the Host are loopback (a page on this machine).
//! 3. The bearer token: one this server issued, unexpired, for this resource (`oauth`); else
//!    401 with `WWW-Authenticate: Bearer resource_metadata=…`.
//! 4. Step-up: a `tools/call` of a write tool with a token granted read only answers 403
//!    `insufficient_scope`, so the client can ask the person for more.
//!
//! Then the request carries the person (`avenir::server::Person`): every call runs on their
//! own context.

// The helpers the local transport shares; `bracket` is also the hosted start's.
use crate::config::PublicUrl;
use crate::oauth::OAuthServer;
use crate::people::People;
pub use avenir::http_transport::{bracket, is_loopback_name, mcp_service, plain};
use avenir::server::Person;
use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::Response;
use std::collections::HashSet;
use std::sync::Arc;

/// The largest MCP request body read for the step-up check (tool arguments are small).
const BODY_LIMIT: usize = 4 * 1024 * 1024;

/// What the `/mcp` checks need.
#[derive(Clone)]
struct Checks {
    public: PublicUrl,
    loopback_listener: bool,
    allowed_origins: Arc<HashSet<String>>,
    oauth: Arc<OAuthServer>,
    people: Arc<People>,
    write_tools: Arc<HashSet<&'static str>>,
}

/// The whole hosted router: the authorization server's routes and `/mcp`.
pub fn router(
    template: Arc<avenir::Context>,
    oauth: Arc<OAuthServer>,
    people: Arc<People>,
    public: PublicUrl,
    loopback_listener: bool,
    allowed_origins: Vec<String>,
) -> Router {
    let service = mcp_service(avenir::AvenirServer::hosted(template));
    let write_tools = avenir::tools::registry()
        .into_iter()
        .filter(|t| !t.read_only)
        .map(|t| t.name)
        .collect();
    let checks = Checks {
        public,
        loopback_listener,
        allowed_origins: Arc::new(
            allowed_origins
                .into_iter()
                .map(|o| o.trim().trim_end_matches('/').to_ascii_lowercase())
                .collect(),
        ),
        oauth: oauth.clone(),
        people,
        write_tools: Arc::new(write_tools),
    };
    let mcp = Router::new()
        .nest_service("/mcp", service)
        .layer(middleware::from_fn_with_state(checks, mcp_checks));
    oauth.router().merge(mcp)
}

/// The Host header's host part (no port), lower-case.
fn host_only(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    authority.rsplit_once(':').map_or(authority, |(h, _)| h)
}

async fn mcp_checks(State(checks): State<Checks>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    if let Some(refusal) = host_or_origin_refusal(&checks, headers) {
        return refusal;
    }
    let authenticated = match checks
        .oauth
        .authenticate(headers.get(header::AUTHORIZATION))
        .await
    {
        Ok(authenticated) => authenticated,
        Err(refusal) => return refusal,
    };
    let writes = authenticated.scope.split(' ').any(|s| s == "write");
    let (parts, body) = request.into_parts();
    let body = if !writes && parts.method == Method::POST {
        let bytes = match axum::body::to_bytes(body, BODY_LIMIT).await {
            Ok(bytes) => bytes,
            Err(_) => return plain(StatusCode::PAYLOAD_TOO_LARGE, "Request body too large"),
        };
        if let Some(tool) = called_tool(&bytes)
            && checks.write_tools.contains(tool.as_str())
        {
            return checks.oauth.insufficient_scope("read write");
        }
        Body::from(bytes)
    } else {
        body
    };
    let context = match checks.people.context(&authenticated.person_id) {
        Ok(context) => context,
        Err(why) => {
            tracing::warn!("a person's context cannot be made: {why}");
            return plain(
                StatusCode::SERVICE_UNAVAILABLE,
                "The server cannot serve this account right now: try again shortly.",
            );
        }
    };
    let mut request = Request::from_parts(parts, body);
    request.extensions_mut().insert(Person { context, writes });
    next.run(request).await
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
