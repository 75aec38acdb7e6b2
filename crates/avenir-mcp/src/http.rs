//! The streamable HTTP transport (`docs/contract/server.md` §2.2–2.4): MCP at `/mcp` on
//! `AVENIR_MCP_HOST`: `AVENIR_MCP_PORT`, behind three guards run on every request — Host, Origin,
//! bearer token.
//!
//! The token is `AVENIR_MCP_HTTP_TOKEN`, or one made for this run and printed once on stderr;
//! it is compared in constant time and never logged. Every session shares one server state.

use avenir::http_transport::{bracket, is_loopback_name, plain};
use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::Response;
use std::net::IpAddr;
use std::sync::Arc;
use subtle::ConstantTimeEq;

/// The 401 body (exact, `docs/contract/server.md` §2.3).
pub const UNAUTHORIZED: &str = "Unauthorized: send the header Authorization: Bearer <token>, with AVENIR_MCP_HTTP_TOKEN or the token avenir-mcp printed when it started.";

/// Where and how to listen.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    pub host: String,
    pub port: u16,
    pub token: Secret,
}

/// The bearer token: `Debug` shows a mask.
#[derive(Clone)]
pub struct Secret(String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(****)")
    }
}

impl HttpOptions {
    /// `AVENIR_MCP_HOST` (default `127.0.0.1`), `AVENIR_MCP_PORT` (default 8103, a number from
    /// 0 to 65535), `AVENIR_MCP_HTTP_TOKEN` (made and printed when unset or empty).
    pub fn from_env() -> Result<Self, String> {
        let host = std::env::var("AVENIR_MCP_HOST")
            .ok()
            .filter(|h| !h.is_empty())
            .unwrap_or_else(|| "127.0.0.1".to_string());
        let port = match std::env::var("AVENIR_MCP_PORT") {
            Ok(value) if !value.is_empty() => value.trim().parse::<u16>().map_err(|_| {
                format!("AVENIR_MCP_PORT must be a port number from 0 to 65535, got {value:?}.")
            })?,
            _ => 8103,
        };
        let token = match std::env::var("AVENIR_MCP_HTTP_TOKEN") {
            Ok(token) if !token.is_empty() => token,
            _ => {
                let token = avenir::random::base64url::<32>();
                // Printed once, not through logging, whatever the log level (§2.4).
                eprintln!(
                    "avenir-mcp: AVENIR_MCP_HTTP_TOKEN is not set, so this run requires a token made for it:\n\n    Authorization: Bearer {token}\n\nIt changes at each start; set AVENIR_MCP_HTTP_TOKEN to a long random value to keep one."
                );
                token
            }
        };
        Ok(HttpOptions {
            host,
            port,
            token: Secret(token),
        })
    }
}

#[derive(Clone)]
struct Guard {
    /// The bind address, when it names one interface (not 0.0.0.0 or ::).
    bind: Option<String>,
    expected: Arc<Vec<u8>>,
}

/// Serve `server` over streamable HTTP until the process stops.
pub async fn serve(server: avenir::AvenirServer, options: HttpOptions) -> anyhow::Result<()> {
    let address = format!("{}:{}", bracket(&options.host), options.port);
    let listener = tokio::net::TcpListener::bind(&address)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {address}: {e}"))?;
    let local = listener.local_addr()?;
    if !local.ip().is_loopback() {
        tracing::warn!(
            "listening on {local}, which is not loopback: anyone who can reach it and holds the token can use your YNAB plan"
        );
    }
    tracing::info!("Starting avenir-mcp on {}:{}", options.host, local.port());
    eprintln!("avenir-mcp: MCP over HTTP at http://{local}/mcp");
    // the guards below check Host and Origin for every path, as the reference does
    let service = avenir::http_transport::mcp_service(server);
    let bind = match options.host.parse::<IpAddr>() {
        Ok(ip) if ip.is_unspecified() => None,
        _ => Some(options.host.trim_matches(['[', ']']).to_ascii_lowercase()),
    };
    let guard = Guard {
        bind,
        expected: Arc::new(format!("Bearer {}", options.token.0).into_bytes()),
    };
    let app = Router::new()
        .nest_service("/mcp", service)
        .layer(middleware::from_fn(avenir::http_transport::closed_session))
        .layer(middleware::from_fn_with_state(guard, guards));
    axum::serve(listener, app).await?;
    Ok(())
}

/// Host, then Origin, then the bearer token (`docs/contract/server.md` §2.3); the first failure
/// answers.
async fn guards(State(guard): State<Guard>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let Some(host) = host_header(headers) else {
        return plain(StatusCode::MISDIRECTED_REQUEST, "Misdirected Request");
    };
    if !(is_loopback_name(&host.0) || guard.bind.as_deref() == Some(host.0.as_str())) {
        return plain(StatusCode::MISDIRECTED_REQUEST, "Misdirected Request");
    }
    if let Some(origin) = headers.get(header::ORIGIN)
        && !origin_allowed(origin.to_str().unwrap_or(""), &host)
    {
        return plain(StatusCode::FORBIDDEN, "Forbidden Origin");
    }
    let presented = headers
        .get(header::AUTHORIZATION)
        .map(HeaderValue::as_bytes)
        .unwrap_or_default();
    if !constant_time_eq(presented, &guard.expected) {
        let mut response = plain(StatusCode::UNAUTHORIZED, UNAUTHORIZED);
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        return response;
    }
    next.run(request).await
}

/// The Host header as (host lower-cased without brackets, port when given).
fn host_header(headers: &HeaderMap) -> Option<(String, Option<u16>)> {
    let raw = headers.get(header::HOST)?.to_str().ok()?.trim();
    split_authority(raw)
}

fn split_authority(raw: &str) -> Option<(String, Option<u16>)> {
    if raw.is_empty() {
        return None;
    }
    if let Some(rest) = raw.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        let port = after.strip_prefix(':').and_then(|p| p.parse().ok());
        return Some((host.to_ascii_lowercase(), port));
    }
    match raw.rsplit_once(':') {
        Some((host, port)) if !host.contains(':') => {
            Some((host.to_ascii_lowercase(), port.parse().ok()))
        }
        _ => Some((raw.to_ascii_lowercase(), None)),
    }
}

/// An `Origin` passes when it and the Host are both loopback, or when it is the request's own
/// origin (`http://{Host}`, default port made explicit, trailing `/` ignored).
fn origin_allowed(origin: &str, host: &(String, Option<u16>)) -> bool {
    let origin = origin.trim().trim_end_matches('/').to_ascii_lowercase();
    let (scheme, authority) = match origin.split_once("://") {
        Some(parts) => parts,
        None => return false,
    };
    let Some((origin_host, origin_port)) = split_authority(authority) else {
        return false;
    };
    if is_loopback_name(&origin_host) && is_loopback_name(&host.0) {
        return true;
    }
    let default_port = match scheme {
        "http" => 80,
        "https" => 443,
        _ => return false,
    };
    scheme == "http"
        && origin_host == host.0
        && origin_port.unwrap_or(default_port) == host.1.unwrap_or(80)
}

/// `subtle`'s constant-time comparison: the time taken does not depend on where the bytes
/// differ. Lengths are compared openly (a token's length is no secret: a made one is 43
/// characters).
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    bool::from(a.ct_eq(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(raw: &str) -> (String, Option<u16>) {
        split_authority(raw).unwrap_or_default()
    }

    #[test]
    fn authorities() {
        assert_eq!(host("LocalHost:8103"), ("localhost".into(), Some(8103)));
        assert_eq!(host("[::1]:9"), ("::1".into(), Some(9)));
        assert_eq!(host("127.0.0.1"), ("127.0.0.1".into(), None));
        assert_eq!(split_authority(""), None);
    }

    #[test]
    fn origins() {
        assert!(origin_allowed(
            "http://localhost:3000",
            &host("127.0.0.1:8103")
        ));
        assert!(origin_allowed(
            "http://machine.lan:8103/",
            &host("machine.lan:8103")
        ));
        assert!(origin_allowed(
            "http://machine.lan",
            &host("machine.lan:80")
        ));
        assert!(!origin_allowed(
            "http://evil.example",
            &host("127.0.0.1:8103")
        ));
        assert!(!origin_allowed(
            "https://machine.lan:8103",
            &host("machine.lan:8103")
        ));
        assert!(!origin_allowed("null", &host("localhost")));
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(constant_time_eq(b"Bearer abc", b"Bearer abc"));
        assert!(!constant_time_eq(b"Bearer ab", b"Bearer abc"));
        assert!(!constant_time_eq(b"bearer abc", b"Bearer abc"));
        assert!(!constant_time_eq(b"", b"Bearer abc"));
    }
}
