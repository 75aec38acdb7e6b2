//! What a client reads before signing anyone in: the protected resource and authorization
//! server metadata (RFC 9728, RFC 8414), and dynamic registration (RFC 7591).

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::json;

use super::logic;
use super::respond::{no_store_json, public_json, token_error, unavailable};
use super::server::S;
use crate::oauth_store::{ClientKind, ClientRecord};

pub(super) async fn protected_resource_metadata(State(s): S) -> Response {
    public_json(json!({
        "resource": s.resource,
        "authorization_servers": [s.issuer()],
        "scopes_supported": ["read", "write"],
        "bearer_methods_supported": ["header"],
        "resource_name": "avenir-mcp (your YNAB plans)",
    }))
}

pub(super) async fn authorization_server_metadata(State(s): S) -> Response {
    let issuer = s.issuer();
    public_json(json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "registration_endpoint": format!("{issuer}/register"),
        "revocation_endpoint": format!("{issuer}/revoke"),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "revocation_endpoint_auth_methods_supported": ["none"],
        "scopes_supported": ["read", "write"],
        "client_id_metadata_document_supported": true,
        "authorization_response_iss_parameter_supported": true,
    }))
}

pub(super) async fn register(State(s): S, body: Bytes) -> Response {
    let request: serde_json::Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => {
            return token_error(
                StatusCode::BAD_REQUEST,
                "invalid_client_metadata",
                &format!("the registration must be a JSON object ({e})"),
            );
        }
    };
    let kept = match logic::validate_registration(&request) {
        Ok(kept) => kept,
        Err((error, description)) => {
            return token_error(StatusCode::BAD_REQUEST, error, &description);
        }
    };
    let now = s.now();
    let client_id = avenir::random::base64url::<24>();
    let record = ClientRecord {
        client_id: client_id.clone(),
        kind: ClientKind::Registered,
        metadata: kept.clone(),
        updated_at: now,
    };
    if let Err(e) = s.store.put_client(&record).await {
        tracing::error!("storing a registration failed: {e}");
        return unavailable();
    }
    let mut answer = kept;
    if let Some(obj) = answer.as_object_mut() {
        obj.insert("client_id".into(), client_id.into());
        obj.insert("client_id_issued_at".into(), now.into());
    }
    no_store_json(StatusCode::CREATED, answer)
}
