//! The sandbox's control routes for OAuth: who signs in, whose refreshes fail, and the clock.

use super::OAuthSetupError;
use crate::error::error_response;
use crate::server::{AppState, lock};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;
/// `{"user": "name"}` of a control route's body, or the 400 that says what it should be.
fn user_named(body: &[u8]) -> Result<String, Box<Response>> {
    #[derive(serde::Deserialize)]
    struct Named {
        user: String,
    }
    serde_json::from_slice::<Named>(body)
        .map(|n| n.user)
        .map_err(|e| {
            Box::new(error_response(
                StatusCode::BAD_REQUEST,
                "400",
                "bad_request",
                &format!("The body must be {{\"user\": \"name\"}} ({e})."),
            ))
        })
}

fn setup_refused(error: OAuthSetupError) -> Response {
    error_response(
        StatusCode::BAD_REQUEST,
        "400",
        "bad_request",
        &error.to_string(),
    )
}

/// `POST /__sandbox/oauth/sign-in {"user": "alice"}`.
pub(crate) async fn sign_in(State(state): State<AppState>, body: Bytes) -> Response {
    let name = match user_named(&body) {
        Ok(name) => name,
        Err(response) => return *response,
    };
    match lock(&state).oauth.sign_in(&name) {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(error) => setup_refused(error),
    }
}

/// `POST /__sandbox/oauth/fail-refresh {"user": "alice"}`.
pub(crate) async fn fail_refresh(State(state): State<AppState>, body: Bytes) -> Response {
    let name = match user_named(&body) {
        Ok(name) => name,
        Err(response) => return *response,
    };
    match lock(&state).oauth.fail_refresh(&name) {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(error) => setup_refused(error),
    }
}

/// `POST /__sandbox/clock {"advance_seconds": N}`: `{"offset_seconds", "now"}` after the move.
pub(crate) async fn clock(State(state): State<AppState>, body: Bytes) -> Response {
    #[derive(serde::Deserialize)]
    struct Advance {
        advance_seconds: i64,
    }
    let advance = match serde_json::from_slice::<Advance>(&body) {
        Ok(advance) => advance,
        Err(e) => {
            return error_response(
                StatusCode::BAD_REQUEST,
                "400",
                "bad_request",
                &format!("The body must be {{\"advance_seconds\": N}} with N an integer ({e})."),
            );
        }
    };
    let mut shared = lock(&state);
    let offset = shared.oauth.advance_clock(advance.advance_seconds);
    let now = shared.oauth.now();
    axum::Json(json!({"offset_seconds": offset, "now": now})).into_response()
}
