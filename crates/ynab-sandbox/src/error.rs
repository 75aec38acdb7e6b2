//! The errors the sandbox answers, in YNAB's shape `{"error": {"id", "name", "detail"}}`, with the
//! ids and names of YNAB's documented error table (`docs/contract/server.md` §10.10).
//!
//! Handlers return [`ApiResult`]; an [`ApiError`] turns itself into the HTTP answer.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// A failure the API reports to the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// 400 `bad_request`: a malformed body or a validation error; the detail names the field.
    BadRequest(String),
    /// 404.2 `resource_not_found`: the plan, account, transaction… does not exist.
    NotFound,
    /// 409 `conflict`: the request conflicts with an existing resource (a duplicate `import_id`).
    Conflict(String),
    /// 404.1 `not_found`: no such route (or no such method on it).
    NoRoute { method: String, path: String },
}

/// What every handler returns.
pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    /// A 400 whose detail is `detail`.
    pub fn bad(detail: impl Into<String>) -> Self {
        ApiError::BadRequest(detail.into())
    }
}

/// YNAB's error body with `status`.
pub fn error_response(status: StatusCode, id: &str, name: &str, detail: &str) -> Response {
    (
        status,
        axum::Json(json!({"error": {"id": id, "name": name, "detail": detail}})),
    )
        .into_response()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match self {
            ApiError::BadRequest(detail) => {
                error_response(StatusCode::BAD_REQUEST, "400", "bad_request", &detail)
            }
            ApiError::NotFound => error_response(
                StatusCode::NOT_FOUND,
                "404.2",
                "resource_not_found",
                "Resource not found",
            ),
            ApiError::Conflict(detail) => {
                error_response(StatusCode::CONFLICT, "409", "conflict", &detail)
            }
            ApiError::NoRoute { method, path } => error_response(
                StatusCode::NOT_FOUND,
                "404.1",
                "not_found",
                &format!("Not found: {method} {path}"),
            ),
        }
    }
}
