//! The token endpoint (authorization codes with PKCE, refresh tokens rotated, a replay of either
//! revoking its family), revocation (RFC 7009) and `/delete`.

use std::collections::HashMap;
use std::fmt;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::logic::{self, sha256_hex};
use super::respond::{TokenError, no_store_json, refuse, token_error, unavailable};
use super::server::{Inner, S};
use crate::oauth_store::{CodeGrant, CodeUse, RefreshUse, TokenKind, TokenRecord};

impl Inner {
    /// A new access token and refresh token in `family`, stored by hash.
    async fn issue_tokens(
        &self,
        person_id: &str,
        client_id: &str,
        access_scope: &str,
        refresh_scope: &str,
        family: &str,
        resource: &str,
    ) -> Result<Response, TokenError> {
        let now = self.now();
        let access = avenir::random::base64url::<32>();
        let refresh = avenir::random::base64url::<32>();
        let record = |kind, scope: &str, ttl: u64| TokenRecord {
            kind,
            person_id: person_id.to_string(),
            client_id: client_id.to_string(),
            scope: scope.to_string(),
            resource: resource.to_string(),
            expires_at: now.saturating_add(i64::try_from(ttl).unwrap_or(i64::MAX / 2)),
            family: family.to_string(),
            revoked: false,
        };
        let access_record = record(TokenKind::Access, access_scope, self.config.access_ttl);
        let refresh_record = record(TokenKind::Refresh, refresh_scope, self.config.refresh_ttl);
        for (token, rec) in [(&access, &access_record), (&refresh, &refresh_record)] {
            if let Err(e) = self.store.put_token(&sha256_hex(token), rec).await {
                tracing::error!("storing a token failed: {e}");
                return Err(refuse(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "temporarily_unavailable",
                    "the server cannot write its storage right now: try again in a minute",
                ));
            }
        }
        Ok(no_store_json(
            StatusCode::OK,
            json!({
                "access_token": access,
                "token_type": "Bearer",
                "expires_in": self.config.access_ttl,
                "refresh_token": refresh,
                "scope": access_scope,
            }),
        ))
    }
}

/// `POST /token`.
pub(super) async fn token(State(s): S, body: String) -> Response {
    let params = match logic::parse_params(&body) {
        Ok(p) => p,
        Err(e) => return token_error(StatusCode::BAD_REQUEST, "invalid_request", &e.to_string()),
    };
    let result = match params.get("grant_type").map(String::as_str) {
        Some("authorization_code") => code_grant(&s, &params).await,
        Some("refresh_token") => refresh_grant(&s, &params).await,
        Some(other) => Err(refuse(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            &format!(
                "grant_type '{other}' is not supported: use authorization_code or refresh_token"
            ),
        )),
        None => Err(refuse(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "grant_type is required",
        )),
    };
    result.unwrap_or_else(IntoResponse::into_response)
}

fn required<'a>(params: &'a HashMap<String, String>, name: &str) -> Result<&'a str, TokenError> {
    params.get(name).map(String::as_str).ok_or_else(|| {
        refuse(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            &format!("{name} is required"),
        )
    })
}

fn invalid_grant(description: &str) -> TokenError {
    refuse(StatusCode::BAD_REQUEST, "invalid_grant", description)
}

fn store_failed(e: impl fmt::Display) -> TokenError {
    tracing::error!("storage failed at the token endpoint: {e}");
    refuse(
        StatusCode::SERVICE_UNAVAILABLE,
        "temporarily_unavailable",
        "the server cannot use its storage right now: try again in a minute",
    )
}

async fn code_grant(s: &Inner, params: &HashMap<String, String>) -> Result<Response, TokenError> {
    let code = required(params, "code")?;
    let redirect_uri = required(params, "redirect_uri")?;
    let client_id = required(params, "client_id")?;
    let verifier = required(params, "code_verifier")?;
    // Spent whatever follows: a code is tried once, and a second try revokes what it issued.
    let family = avenir::random::hex::<16>();
    let grant = match s
        .store
        .use_code(&sha256_hex(code), &family)
        .await
        .map_err(store_failed)?
    {
        CodeUse::Fresh(grant) => grant,
        CodeUse::Replayed { family } => return Err(code_replayed(s, family).await),
        CodeUse::Unknown => {
            return Err(invalid_grant(
                "the code is unknown, used or expired: sign in again",
            ));
        }
    };
    check_code(s, &grant, client_id, redirect_uri, verifier, params)?;
    s.issue_tokens(
        &grant.person_id,
        &grant.client_id,
        &grant.scope,
        &grant.scope,
        &family,
        &grant.resource,
    )
    .await
}

/// Whether a fresh code's grant is the client's, for this redirect URI, verifier and resource.
fn check_code(
    s: &Inner,
    grant: &CodeGrant,
    client_id: &str,
    redirect_uri: &str,
    verifier: &str,
    params: &HashMap<String, String>,
) -> Result<(), TokenError> {
    if grant.expires_at <= s.now() {
        return Err(invalid_grant("the code expired: sign in again"));
    }
    if grant.client_id != client_id {
        return Err(invalid_grant("the code was issued to another client"));
    }
    if grant.redirect_uri != redirect_uri {
        return Err(invalid_grant(
            "redirect_uri differs from the one of the authorization request",
        ));
    }
    if !logic::pkce_s256_matches(verifier, &grant.code_challenge) {
        return Err(invalid_grant(
            "code_verifier does not match the code_challenge",
        ));
    }
    if let Some(resource) = params.get("resource")
        && resource != &grant.resource
    {
        return Err(refuse(
            StatusCode::BAD_REQUEST,
            "invalid_target",
            &format!("this server issues tokens for {} only", s.resource),
        ));
    }
    Ok(())
}

/// A code presented again: the tokens it issued are revoked (OAuth 2.1 section 4.1.3), those of a
/// concurrent first use included (they are issued into the revoked family).
async fn code_replayed(s: &Inner, family: Option<String>) -> TokenError {
    if let Some(family) = family {
        if let Err(e) = s.store.revoke_family(&family).await {
            return store_failed(e);
        }
        tracing::warn!("a used authorization code was presented again: its tokens are revoked");
    }
    invalid_grant("the code was already used: every token it issued is revoked, sign in again")
}

async fn refresh_grant(
    s: &Inner,
    params: &HashMap<String, String>,
) -> Result<Response, TokenError> {
    let refresh = required(params, "refresh_token")?;
    let client_id = required(params, "client_id")?;
    let hash = sha256_hex(refresh);
    // Every check before the token is spent: a refused refresh (another client, a scope or a
    // resource not granted) leaves it usable for the client's corrected retry.
    let Some(record) = s
        .store
        .token(&hash)
        .await
        .map_err(store_failed)?
        .filter(|r| r.kind == TokenKind::Refresh)
    else {
        return Err(invalid_grant("unknown refresh token: sign in again"));
    };
    let access_scope = check_refresh(s, &record, client_id, params)?;
    let record = use_refresh_token(s, &hash).await?;
    // The new refresh token keeps the original scope (RFC 6749 §6), and both keep the audience
    // the sign-in was for.
    s.issue_tokens(
        &record.person_id,
        &record.client_id,
        &access_scope,
        &record.scope,
        &record.family,
        &record.resource,
    )
    .await
}

/// Whether a refresh token may be spent by this request; the scope of the new access token.
fn check_refresh(
    s: &Inner,
    record: &TokenRecord,
    client_id: &str,
    params: &HashMap<String, String>,
) -> Result<String, TokenError> {
    if record.client_id != client_id {
        return Err(invalid_grant(
            "the refresh token was issued to another client",
        ));
    }
    if record.expires_at <= s.now() {
        return Err(invalid_grant("the refresh token expired: sign in again"));
    }
    if record.resource != s.resource {
        // Another instance's public URL: the token stays with the audience it was issued for.
        return Err(invalid_grant(&format!(
            "the refresh token was issued for {}: refresh it at that server",
            record.resource
        )));
    }
    if let Some(resource) = params.get("resource")
        && resource != &record.resource
    {
        return Err(refuse(
            StatusCode::BAD_REQUEST,
            "invalid_target",
            &format!("this server issues tokens for {} only", s.resource),
        ));
    }
    refreshed_scope(params, &record.scope)
}

/// Mark the refresh token with this hash used, once: a replay revokes every token of its
/// sign-in.
async fn use_refresh_token(s: &Inner, hash: &str) -> Result<TokenRecord, TokenError> {
    match s.store.use_refresh(hash).await.map_err(store_failed)? {
        RefreshUse::Fresh(r) => Ok(r),
        RefreshUse::Replayed(r) => {
            s.store
                .revoke_family(&r.family)
                .await
                .map_err(store_failed)?;
            tracing::warn!("a used refresh token was presented again: its family is revoked");
            Err(invalid_grant(
                "the refresh token was already used: every token of this sign-in is revoked, \
                 sign in again",
            ))
        }
        RefreshUse::Unknown => Err(invalid_grant("unknown refresh token: sign in again")),
    }
}

/// The scope of the new access token: the one asked for, within the refresh token's `granted`
/// (never wider), or all of it when none is asked for.
fn refreshed_scope(params: &HashMap<String, String>, granted: &str) -> Result<String, TokenError> {
    match logic::parse_scope(params.get("scope").map(String::as_str)) {
        Err(e) => Err(refuse(
            StatusCode::BAD_REQUEST,
            "invalid_scope",
            &e.to_string(),
        )),
        Ok(None) => Ok(granted.to_string()),
        Ok(Some(asked)) if logic::scope_within(asked, granted) => Ok(asked.to_string()),
        Ok(Some(_)) => Err(refuse(
            StatusCode::BAD_REQUEST,
            "invalid_scope",
            "a refresh cannot widen the scope: sign in again for more access",
        )),
    }
}

/// `POST /revoke` (RFC 7009): 200 whatever the token was.
pub(super) async fn revoke(State(s): S, body: String) -> Response {
    let params = match logic::parse_params(&body) {
        Ok(p) => p,
        Err(e) => return token_error(StatusCode::BAD_REQUEST, "invalid_request", &e.to_string()),
    };
    let Some(token) = params.get("token") else {
        return token_error(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "token is required",
        );
    };
    let hash = sha256_hex(token);
    let outcome = match s.store.token(&hash).await {
        // A refresh token's grant ends with it: its access tokens too (RFC 7009 §2.1).
        Ok(Some(r)) if r.kind == TokenKind::Refresh => s.store.revoke_family(&r.family).await,
        Ok(Some(_)) => s.store.revoke_token(&hash).await.map(|_| ()),
        Ok(None) => Ok(()),
        Err(e) => Err(e),
    };
    if let Err(e) = outcome {
        return store_failed(e).into_response();
    }
    no_store_json(StatusCode::OK, json!({}))
}

/// `POST /delete`, with a valid access token (any scope): remove the person and everything
/// kept for them, in the store and in the hook.
pub(super) async fn delete(State(s): S, headers: HeaderMap) -> Response {
    let who = match s.authenticate(headers.get(header::AUTHORIZATION)).await {
        Ok(who) => who,
        Err(response) => return response,
    };
    if let Err(e) = s.store.delete_person(&who.person_id).await {
        tracing::error!("deleting a person failed: {e}");
        return unavailable();
    }
    s.hook.deleted(&who.person_id).await;
    no_store_json(
        StatusCode::OK,
        json!({
            "deleted": true,
            "removed": [
                "every access and refresh token of every application you allowed",
                "authorization codes and sign-ins in progress",
                "your YNAB tokens",
                "the journal of changes and pending changes",
                "confirmation codes",
                "your account here"
            ],
            "note": "Your YNAB data itself is untouched. To also remove avenir-mcp from YNAB, \
                     revoke it in YNAB's settings (Developer Settings, Authorized Applications)."
        }),
    )
}
