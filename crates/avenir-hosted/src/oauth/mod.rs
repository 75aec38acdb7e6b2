//! The authorization server for MCP clients (MCP specification, authorization, 2025-11-25 and
//! 2026-07-28). avenir-mcp is its own OAuth 2.1 authorization server: an MCP client gets *our*
//! tokens, for the resource `<public_url>/mcp` only; the person behind it signs in with YNAB's
//! OAuth after our consent page, and YNAB's tokens stay on the server (the [`SignInHook`] keeps
//! them). Our tokens are never sent to YNAB, YNAB's never to a client.
//!
//! Routes ([`OAuthServer::router`], all relative to `public_url`):
//!
//! | Route | What |
//! |---|---|
//! | `GET /.well-known/oauth-protected-resource/mcp` (and without `/mcp`) | RFC 9728 protected resource metadata |
//! | `GET /.well-known/oauth-authorization-server` | RFC 8414 authorization server metadata |
//! | `POST /register` | RFC 7591 dynamic registration, public clients only |
//! | `GET /authorize` | validates the request, shows the consent page |
//! | `POST /authorize` | the person's answer (`consent`, `access=read\|write\|deny`): on to YNAB |
//! | `GET /oauth/ynab/callback` | YNAB's answer: our authorization code back to the client |
//! | `POST /token` | `authorization_code` (PKCE S256) and `refresh_token` (rotated) |
//! | `POST /revoke` | RFC 7009 revocation (a refresh token revokes its whole family) |
//! | `POST /delete` | with a valid access token: forget the person entirely |
//!
//! `/register`, `/authorize` (both methods), `/token` and `/revoke` are rate limited per client
//! address (`limits`): past a class's budget, 429 with `Retry-After`.
//!
//! The metadata, `/register`, `/token`, `/revoke` and `/delete` answer CORS preflights and
//! allow any origin (browser-based clients; no cookie is involved). The two pages do not: the
//! consent page sets a `SameSite=Strict` cookie that its answer must carry, and is never framed.
//!
//! `/.well-known/openid-configuration` is not served: for an issuer without a path the MCP
//! specification has clients try `oauth-authorization-server` first, and an authorization
//! server needs to offer only one of the two.
//!
//! The MCP endpoint's middleware calls [`OAuthServer::authenticate`] with the request's
//! `Authorization` header, and [`OAuthServer::insufficient_scope`] when a tool needs `write`.
//!
//! Clients are either registered (`POST /register`) or identified by the https URL of a Client
//! ID Metadata Document, fetched on `/authorize` (see `fetch`) and cached in the store for an
//! hour. Codes, tokens and states are random (32 bytes, base64url) and stored by their SHA-256
//! hex only.

mod discovery;
pub mod errors;
mod fetch;
pub mod limits;
pub mod logic;
mod pages;
mod respond;
mod server;
mod sign_in;
mod tokens;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

use discovery::{authorization_server_metadata, protected_resource_metadata, register};
pub use errors::OAuthSetupError;
use limits::Class;
use respond::{allow_any_origin, preflight};
pub use server::{
    Authenticated, METADATA_CACHE_TTL, OAuthConfig, OAuthServer, PENDING_TTL, SignInFailure,
    SignInHook, YnabApp, YnabTokens,
};
use sign_in::{authorize, consent, ynab_callback};
use tokens::{delete, revoke, token};

impl OAuthServer {
    /// Every route of the authorization server (see the module documentation).
    pub fn router(&self) -> Router {
        let limits = self.inner.limiters.clone();
        let limit =
            |class| axum::middleware::from_fn_with_state((limits.clone(), class), limits::limit);
        // What programs call, browser-based clients included (CORS, no cookies involved): the
        // metadata, registration, token, revocation and deletion.
        let machine = Router::new()
            .route(
                "/.well-known/oauth-protected-resource/mcp",
                get(protected_resource_metadata).options(preflight),
            )
            .route(
                "/.well-known/oauth-protected-resource",
                get(protected_resource_metadata).options(preflight),
            )
            .route(
                "/.well-known/oauth-authorization-server",
                get(authorization_server_metadata).options(preflight),
            )
            .route(
                "/register",
                post(register)
                    .route_layer(limit(Class::Register))
                    .options(preflight),
            )
            .route(
                "/token",
                post(token)
                    .route_layer(limit(Class::Token))
                    .options(preflight),
            )
            .route(
                "/revoke",
                post(revoke)
                    .route_layer(limit(Class::Token))
                    .options(preflight),
            )
            .route("/delete", post(delete).options(preflight))
            .layer(axum::middleware::map_response(allow_any_origin));
        // What a person's browser is sent to.
        let pages = Router::new()
            .route(
                "/authorize",
                get(authorize)
                    .post(consent)
                    .route_layer(limit(Class::Authorize)),
            )
            .route("/oauth/ynab/callback", get(ynab_callback));
        machine
            .merge(pages)
            .layer(DefaultBodyLimit::max(16 * 1024))
            .with_state(self.inner.clone())
    }
}
