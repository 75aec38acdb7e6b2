//! The answers the authorization server's routes share: JSON that is never cached, the RFC
//! 6749 error bodies, the `WWW-Authenticate` challenges, redirects, CORS, and the page shown when
//! storage fails.

use std::fmt;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::pages;

pub(super) fn challenge_response(
    status: StatusCode,
    challenge: &str,
    error: &str,
    description: &str,
) -> Response {
    let mut response = (
        status,
        axum::Json(json!({"error": error, "error_description": description})),
    )
        .into_response();
    if let Ok(value) = HeaderValue::from_str(challenge) {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

pub(super) fn unavailable() -> Response {
    no_store_json(
        StatusCode::SERVICE_UNAVAILABLE,
        json!({"error": "temporarily_unavailable",
               "error_description": "the server cannot read its storage right now: try again in a minute"}),
    )
}

pub(super) fn no_store_json(status: StatusCode, body: serde_json::Value) -> Response {
    let mut response = (status, axum::Json(body)).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
    response
}

pub(super) async fn allow_any_origin(mut response: Response) -> Response {
    response.headers_mut().insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    response
}

/// A CORS preflight's answer (the origin is added by `allow_any_origin`).
pub(super) async fn preflight() -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, POST, OPTIONS"),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static("authorization, content-type, mcp-protocol-version"),
    );
    headers.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("86400"),
    );
    response
}

/// A public metadata document.
pub(super) fn public_json(body: serde_json::Value) -> Response {
    let mut response = axum::Json(body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    response
}

/// A refusal at the token endpoint (RFC 6749 §5.2).
pub(super) struct TokenError {
    pub(super) status: StatusCode,
    pub(super) error: &'static str,
    pub(super) description: String,
}

impl IntoResponse for TokenError {
    fn into_response(self) -> Response {
        token_error(self.status, self.error, &self.description)
    }
}

pub(super) fn refuse(status: StatusCode, error: &'static str, description: &str) -> TokenError {
    TokenError {
        status,
        error,
        description: description.to_string(),
    }
}

/// RFC 6749 §5.2.
pub(super) fn token_error(status: StatusCode, error: &str, description: &str) -> Response {
    no_store_json(
        status,
        json!({"error": error, "error_description": description}),
    )
}

pub(super) fn redirect(status: StatusCode, location: &str) -> Response {
    match HeaderValue::from_str(location) {
        Ok(value) => {
            let mut response = status.into_response();
            response.headers_mut().insert(header::LOCATION, value);
            response
                .headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            response
        }
        Err(_) => pages::error_page(
            StatusCode::BAD_REQUEST,
            "The address to send you back to is not valid.",
        ),
    }
}

pub(super) fn storage_page(e: impl fmt::Display) -> Response {
    tracing::error!("storage failed during sign-in: {e}");
    pages::error_page(
        StatusCode::SERVICE_UNAVAILABLE,
        "The server cannot use its storage right now. Try again in a minute.",
    )
}
