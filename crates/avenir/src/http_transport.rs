//! What both HTTP faces of the server share — the local transport (`avenir-mcp --http`) and the
//! hosted mode (`avenir-hosted`): rmcp's streamable HTTP service for `/mcp`, and the small
//! helpers their Host and Origin guards are made of. Kept here so that the local transport needs
//! nothing from the hosted crate.

use http::{HeaderValue, Response, StatusCode, header};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

/// rmcp's streamable HTTP service for `server`, both protocol eras (2025-11-25's sessions kept in
/// this process). Its own Host and Origin checks are off: the caller's middleware makes them, for
/// every path.
pub fn mcp_service(
    server: crate::AvenirServer,
) -> StreamableHttpService<crate::AvenirServer, LocalSessionManager> {
    mcp_service_with(server, LocalSessionManager::default().into())
}

/// [`mcp_service`] keeping its sessions in `sessions` (the hosted mode bounds them).
pub fn mcp_service_with(
    server: crate::AvenirServer,
    sessions: std::sync::Arc<LocalSessionManager>,
) -> StreamableHttpService<crate::AvenirServer, LocalSessionManager> {
    StreamableHttpService::new(
        // Each session its own (the dynamic mode's enabled toolsets).
        move || Ok(server.new_session()),
        sessions,
        StreamableHttpServerConfig::default()
            .with_legacy_session_mode(true)
            .disable_allowed_hosts()
            .disable_allowed_origins(),
    )
}

/// A plain-text answer with `status` (what a guard that refuses a request sends).
pub fn plain<B: From<&'static str>>(status: StatusCode, body: &'static str) -> Response<B> {
    let mut response = Response::new(B::from(body));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// `localhost` or a loopback IP address (brackets around an IPv6 one allowed).
pub fn is_loopback_name(host: &str) -> bool {
    let host = host.trim_matches(['[', ']']);
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// A host as the authority of a socket address: an IPv6 one in brackets.
pub fn bracket(host: &str) -> String {
    if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]")
    } else {
        host.to_string()
    }
}

/// Axum middleware for `/mcp`: a client's `DELETE` that ended its session is answered
/// `204 No Content`, as the SDKs expect (200 or 204; the Python SDK 2.3.0 logs "Session
/// termination failed: 202" otherwise), where rmcp answers `202 Accepted`. Every other answer
/// passes unchanged. Both faces layer it.
pub async fn closed_session(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let delete = request.method() == http::Method::DELETE;
    let mut response = next.run(request).await;
    if delete && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::NO_CONTENT;
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_and_brackets() {
        assert!(is_loopback_name("[::1]"));
        assert!(is_loopback_name("localhost"));
        assert!(is_loopback_name("127.0.0.2"));
        assert!(!is_loopback_name("example.org"));
        assert_eq!(bracket("::1"), "[::1]");
        assert_eq!(bracket("[::1]"), "[::1]");
        assert_eq!(bracket("127.0.0.1"), "127.0.0.1");
    }

    #[test]
    fn plain_answers_are_text() {
        let response: Response<String> = plain(StatusCode::FORBIDDEN, "Forbidden Origin");
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
        assert_eq!(response.body(), "Forbidden Origin");
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "text/plain; charset=utf-8"
        );
    }
}
