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

mod fetch;
pub mod logic;
mod pages;

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::json;

use crate::oauth_store::{
    ClientKind, ClientRecord, CodeGrant, OAuthStore, PendingSignIn, RefreshUse, TokenKind,
    TokenRecord,
};
use logic::{SCOPE_READ, SCOPE_READ_WRITE, sha256_hex};

/// How long a consent page or a sign-in at YNAB may take before it must start again.
pub const PENDING_TTL: i64 = 15 * 60;
/// The longest query `/authorize` and the YNAB callback read (what they keep goes to the store).
const MAX_QUERY: usize = 8 * 1024;
/// How long a fetched client metadata document is trusted before it is fetched again.
pub const METADATA_CACHE_TTL: i64 = 60 * 60;

/// avenir-mcp's OAuth application at YNAB.
#[derive(Clone)]
pub struct YnabApp {
    /// `https://app.ynab.com/oauth/authorize`
    pub authorize_url: String,
    /// `https://app.ynab.com/oauth/token`
    pub token_url: String,
    pub client_id: String,
    pub client_secret: String,
}

impl fmt::Debug for YnabApp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("YnabApp")
            .field("authorize_url", &self.authorize_url)
            .field("token_url", &self.token_url)
            .field("client_id", &self.client_id)
            .field("client_secret", &"<hidden>")
            .finish()
    }
}

/// YNAB's answer to our code exchange.
#[derive(Clone, PartialEq, Eq, Deserialize)]
pub struct YnabTokens {
    pub access_token: String,
    pub refresh_token: String,
    /// Seconds (YNAB: 7200).
    #[serde(default)]
    pub expires_in: Option<u64>,
    /// `read-only` when the person granted reading only, otherwise absent or empty.
    #[serde(default)]
    pub scope: Option<String>,
}

impl fmt::Debug for YnabTokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("YnabTokens")
            .field("access_token", &"<hidden>")
            .field("refresh_token", &"<hidden>")
            .field("expires_in", &self.expires_in)
            .field("scope", &self.scope)
            .finish()
    }
}

/// What the rest of the hosted mode does when a person signs in or asks to be forgotten.
#[async_trait]
pub trait SignInHook: Send + Sync {
    /// YNAB answered our code exchange: make or find the person (`GET /user`, then
    /// [`OAuthStore::person_for`]), keep their YNAB tokens sealed, return the person id. An
    /// error is a sentence for the logs (the client is told only that the sign-in failed).
    async fn signed_in(&self, tokens: YnabTokens, read_only: bool) -> Result<String, String>;
    /// The person asked `/delete` (the store already forgot them): forget whatever the hook
    /// keeps in memory.
    async fn deleted(&self, person_id: &str);
}

/// The authorization server's settings.
#[derive(Clone)]
pub struct OAuthConfig {
    /// `https://budget.example.org`, no trailing slash: the issuer. The MCP endpoint, the
    /// canonical resource URI, is this plus `/mcp`.
    pub public_url: String,
    pub ynab: YnabApp,
    /// Seconds an access token lives (3600).
    pub access_ttl: u64,
    /// Seconds a refresh token lives (30 days).
    pub refresh_ttl: u64,
    /// Seconds an authorization code lives (60).
    pub code_ttl: u64,
    /// UTC seconds now (injectable in tests).
    pub clock: Arc<dyn Fn() -> i64 + Send + Sync>,
    /// Extra PEM root certificates trusted when fetching client metadata documents.
    pub metadata_roots: Vec<Vec<u8>>,
    /// Fetch client metadata documents from loopback and private addresses too. False in
    /// production (SSRF); tests set it.
    pub allow_private_metadata_hosts: bool,
}

impl OAuthConfig {
    /// The defaults above, with the system clock.
    pub fn new(public_url: impl Into<String>, ynab: YnabApp) -> Self {
        Self {
            public_url: public_url.into().trim_end_matches('/').to_string(),
            ynab,
            access_ttl: 3600,
            refresh_ttl: 30 * 24 * 3600,
            code_ttl: 60,
            clock: Arc::new(|| chrono::Utc::now().timestamp()),
            metadata_roots: Vec::new(),
            allow_private_metadata_hosts: false,
        }
    }
}

impl fmt::Debug for OAuthConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuthConfig")
            .field("public_url", &self.public_url)
            .field("ynab", &self.ynab)
            .field("access_ttl", &self.access_ttl)
            .field("refresh_ttl", &self.refresh_ttl)
            .field("code_ttl", &self.code_ttl)
            .field("metadata_roots", &self.metadata_roots.len())
            .field(
                "allow_private_metadata_hosts",
                &self.allow_private_metadata_hosts,
            )
            .finish()
    }
}

/// Who an MCP request comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authenticated {
    pub person_id: String,
    pub client_id: String,
    /// `read` or `read write`.
    pub scope: String,
}

impl Authenticated {
    /// Whether the token allows changes.
    pub fn can_write(&self) -> bool {
        logic::scope_within("write", &self.scope)
    }
}

/// The authorization server (cheap to clone).
#[derive(Clone)]
pub struct OAuthServer {
    inner: Arc<Inner>,
}

struct Inner {
    config: OAuthConfig,
    store: Arc<dyn OAuthStore>,
    hook: Arc<dyn SignInHook>,
    /// `<public_url>/mcp`
    resource: String,
    metadata_http: reqwest::Client,
    ynab_http: reqwest::Client,
}

impl fmt::Debug for OAuthServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuthServer")
            .field("config", &self.inner.config)
            .finish_non_exhaustive()
    }
}

impl OAuthServer {
    /// Fails when the public URL is not an https URL (http only on loopback), an extra root
    /// certificate is not PEM, or an HTTP client cannot be built.
    pub fn new(
        mut config: OAuthConfig,
        store: Arc<dyn OAuthStore>,
        hook: Arc<dyn SignInHook>,
    ) -> Result<Self, String> {
        config.public_url = config.public_url.trim_end_matches('/').to_string();
        logic::check_public_url(&config.public_url)?;
        let metadata_http =
            fetch::metadata_client(&config.metadata_roots, config.allow_private_metadata_hosts)?;
        let ynab_http = ynab::http_client_builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(20))
            .build()
            .map_err(|e| format!("the HTTP client for YNAB could not be built ({e})"))?;
        let resource = format!("{}/mcp", config.public_url);
        Ok(Self {
            inner: Arc::new(Inner {
                config,
                store,
                hook,
                resource,
                metadata_http,
                ynab_http,
            }),
        })
    }

    /// The canonical resource URI, `<public_url>/mcp`.
    pub fn resource(&self) -> &str {
        &self.inner.resource
    }

    /// Where the protected resource metadata is, for `WWW-Authenticate`.
    pub fn resource_metadata_url(&self) -> String {
        self.inner.resource_metadata_url()
    }

    /// Every route of the authorization server (see the module documentation).
    pub fn router(&self) -> Router {
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
            .route("/register", post(register).options(preflight))
            .route("/token", post(token).options(preflight))
            .route("/revoke", post(revoke).options(preflight))
            .route("/delete", post(delete).options(preflight))
            .layer(axum::middleware::map_response(allow_any_origin));
        // What a person's browser is sent to.
        let pages = Router::new()
            .route("/authorize", get(authorize).post(consent))
            .route("/oauth/ynab/callback", get(ynab_callback));
        machine
            .merge(pages)
            .layer(DefaultBodyLimit::max(16 * 1024))
            .with_state(self.inner.clone())
    }

    /// Check the `Authorization` header of an MCP request: `Bearer <access token>` this server
    /// issued for its resource, neither expired nor revoked. Otherwise the 401 to answer (or a
    /// 503 when the store cannot be read).
    pub async fn authenticate(
        &self,
        authorization: Option<&HeaderValue>,
    ) -> Result<Authenticated, Response> {
        self.inner.authenticate(authorization).await
    }

    /// The 403 for a token lacking `needed` (e.g. `read write` for a change).
    pub fn insufficient_scope(&self, needed: &str) -> Response {
        let challenge = format!(
            "Bearer error=\"insufficient_scope\", scope=\"{}\", resource_metadata=\"{}\"",
            needed.replace(['"', '\\'], ""),
            self.inner.resource_metadata_url()
        );
        challenge_response(
            StatusCode::FORBIDDEN,
            &challenge,
            "insufficient_scope",
            "this needs more access than the token allows: sign in again and allow reading and \
             changing",
        )
    }
}

impl Inner {
    fn now(&self) -> i64 {
        (self.config.clock)()
    }

    fn issuer(&self) -> &str {
        &self.config.public_url
    }

    fn resource_metadata_url(&self) -> String {
        format!(
            "{}/.well-known/oauth-protected-resource/mcp",
            self.config.public_url
        )
    }

    fn callback_url(&self) -> String {
        format!("{}/oauth/ynab/callback", self.config.public_url)
    }

    async fn authenticate(
        &self,
        authorization: Option<&HeaderValue>,
    ) -> Result<Authenticated, Response> {
        let Some(value) = authorization else {
            return Err(self.unauthorized(None));
        };
        let token = value
            .to_str()
            .ok()
            .and_then(|v| v.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, token)| token.trim())
            .filter(|t| !t.is_empty());
        let Some(token) = token else {
            return Err(self.unauthorized(Some("send the access token as 'Bearer <token>'")));
        };
        let record = match self.store.token(&sha256_hex(token)).await {
            Ok(record) => record,
            Err(e) => {
                tracing::error!("token lookup failed: {e}");
                return Err(unavailable());
            }
        };
        let refusal = match &record {
            None => Some("unknown token: sign in again"),
            Some(r) if r.kind != TokenKind::Access => Some("this is not an access token"),
            Some(r) if r.revoked => Some("the token was revoked: sign in again"),
            Some(r) if r.expires_at <= self.now() => {
                Some("the token expired: refresh it or sign in again")
            }
            Some(r) if r.resource != self.resource => Some("the token is for another resource"),
            Some(_) => None,
        };
        match (refusal, record) {
            (None, Some(r)) => Ok(Authenticated {
                person_id: r.person_id,
                client_id: r.client_id,
                scope: r.scope,
            }),
            (refusal, _) => Err(self.unauthorized(Some(refusal.unwrap_or("invalid token")))),
        }
    }

    /// 401 with the challenge; `presented` describes what is wrong with a token that was sent.
    fn unauthorized(&self, presented: Option<&str>) -> Response {
        let metadata = self.resource_metadata_url();
        match presented {
            None => challenge_response(
                StatusCode::UNAUTHORIZED,
                &format!("Bearer resource_metadata=\"{metadata}\", scope=\"read write\""),
                "unauthorized",
                "sign in: this MCP server needs an access token (see resource_metadata)",
            ),
            Some(why) => challenge_response(
                StatusCode::UNAUTHORIZED,
                &format!(
                    "Bearer error=\"invalid_token\", resource_metadata=\"{metadata}\", \
                     scope=\"read write\""
                ),
                "invalid_token",
                why,
            ),
        }
    }

    /// A redirect carrying an error back to the client (RFC 6749 §4.1.2.1, RFC 9207 `iss`).
    fn redirect_error(
        &self,
        redirect_uri: &str,
        error: &str,
        description: &str,
        state: Option<&str>,
    ) -> Response {
        let mut params = vec![("error", error), ("error_description", description)];
        if let Some(state) = state {
            params.push(("state", state));
        }
        params.push(("iss", self.issuer()));
        match logic::with_query(redirect_uri, &params) {
            Ok(location) => redirect(StatusCode::FOUND, &location),
            Err(e) => pages::error_page(StatusCode::BAD_REQUEST, &e),
        }
    }

    /// The client of an `/authorize` request: registered, or its metadata document (cached or
    /// fetched). An error is a sentence for the page.
    async fn resolve_client(&self, client_id: &str) -> Result<ClientRecord, String> {
        let cached = self.store.client(client_id).await.map_err(|e| {
            tracing::error!("client lookup failed: {e}");
            "the server cannot read its storage right now: try again in a minute".to_string()
        })?;
        if !logic::is_metadata_document_id(client_id) {
            return match cached {
                Some(c) if c.kind == ClientKind::Registered => Ok(c),
                _ => Err(format!(
                    "The application '{client_id}' is not known here. It must register \
                     (POST /register) or use the URL of its client metadata document as \
                     client_id."
                )),
            };
        }
        if let Some(c) = cached
            && c.kind == ClientKind::MetadataDocument
            && self.now() - c.updated_at < METADATA_CACHE_TTL
        {
            return Ok(c);
        }
        let metadata = fetch::fetch_metadata_document(
            &self.metadata_http,
            client_id,
            self.config.allow_private_metadata_hosts,
        )
        .await?;
        let record = ClientRecord {
            client_id: client_id.to_string(),
            kind: ClientKind::MetadataDocument,
            metadata,
            updated_at: self.now(),
        };
        if let Err(e) = self.store.put_client(&record).await {
            // Not fatal: it is fetched again next time.
            tracing::warn!("caching a client metadata document failed: {e}");
        }
        Ok(record)
    }

    /// Exchange YNAB's code for YNAB's tokens.
    async fn exchange_ynab_code(&self, code: &str) -> Result<YnabTokens, String> {
        let body = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("grant_type", "authorization_code")
            .append_pair("client_id", &self.config.ynab.client_id)
            .append_pair("client_secret", &self.config.ynab.client_secret)
            .append_pair("redirect_uri", &self.callback_url())
            .append_pair("code", code)
            .finish();
        let response = self
            .ynab_http
            .post(&self.config.ynab.token_url)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::ACCEPT, "application/json")
            .body(body)
            .send()
            .await
            .map_err(|e| format!("YNAB's token endpoint could not be reached ({e})"))?;
        let status = response.status();
        if !status.is_success() {
            return Err(format!(
                "YNAB's token endpoint refused the code (HTTP {})",
                status.as_u16()
            ));
        }
        response
            .json::<YnabTokens>()
            .await
            .map_err(|e| format!("YNAB's token answer was not understood ({e})"))
    }

    /// A new access token and refresh token in `family`, stored by hash.
    async fn issue_tokens(
        &self,
        person_id: &str,
        client_id: &str,
        access_scope: &str,
        refresh_scope: &str,
        family: &str,
    ) -> Result<Response, TokenError> {
        let now = self.now();
        let access = avenir::random::base64url::<32>();
        let refresh = avenir::random::base64url::<32>();
        let record = |kind, scope: &str, ttl: u64| TokenRecord {
            kind,
            person_id: person_id.to_string(),
            client_id: client_id.to_string(),
            scope: scope.to_string(),
            resource: self.resource.clone(),
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

fn challenge_response(
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

fn unavailable() -> Response {
    no_store_json(
        StatusCode::SERVICE_UNAVAILABLE,
        json!({"error": "temporarily_unavailable",
               "error_description": "the server cannot read its storage right now: try again in a minute"}),
    )
}

fn no_store_json(status: StatusCode, body: serde_json::Value) -> Response {
    let mut response = (status, axum::Json(body)).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
    response
}

async fn allow_any_origin(mut response: Response) -> Response {
    response.headers_mut().insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    response
}

/// A CORS preflight's answer (the origin is added by `allow_any_origin`).
async fn preflight() -> Response {
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
fn public_json(body: serde_json::Value) -> Response {
    let mut response = axum::Json(body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    response
}

/// A refusal at the token endpoint (RFC 6749 §5.2).
struct TokenError {
    status: StatusCode,
    error: &'static str,
    description: String,
}

impl IntoResponse for TokenError {
    fn into_response(self) -> Response {
        token_error(self.status, self.error, &self.description)
    }
}

fn refuse(status: StatusCode, error: &'static str, description: &str) -> TokenError {
    TokenError {
        status,
        error,
        description: description.to_string(),
    }
}

/// RFC 6749 §5.2.
fn token_error(status: StatusCode, error: &str, description: &str) -> Response {
    no_store_json(
        status,
        json!({"error": error, "error_description": description}),
    )
}

fn redirect(status: StatusCode, location: &str) -> Response {
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

fn storage_page(e: impl fmt::Display) -> Response {
    tracing::error!("storage failed during sign-in: {e}");
    pages::error_page(
        StatusCode::SERVICE_UNAVAILABLE,
        "The server cannot use its storage right now. Try again in a minute.",
    )
}

type S = State<Arc<Inner>>;

async fn protected_resource_metadata(State(s): S) -> Response {
    public_json(json!({
        "resource": s.resource,
        "authorization_servers": [s.issuer()],
        "scopes_supported": ["read", "write"],
        "bearer_methods_supported": ["header"],
        "resource_name": "avenir-mcp (your YNAB plans)",
    }))
}

async fn authorization_server_metadata(State(s): S) -> Response {
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

async fn register(State(s): S, body: Bytes) -> Response {
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

/// `GET /authorize`: errors before the client and its redirect URI are known good are a page,
/// never a redirect; after, they go back to the client.
async fn authorize(State(s): S, RawQuery(query): RawQuery) -> Response {
    if query.as_ref().is_some_and(|q| q.len() > MAX_QUERY) {
        return pages::error_page(StatusCode::URI_TOO_LONG, "The request is too long.");
    }
    let params = match logic::parse_params(query.as_deref().unwrap_or("")) {
        Ok(p) => p,
        Err(e) => return pages::error_page(StatusCode::BAD_REQUEST, &e),
    };
    let Some(client_id) = params.get("client_id") else {
        return pages::error_page(
            StatusCode::BAD_REQUEST,
            "The request names no application (client_id is missing).",
        );
    };
    let client = match s.resolve_client(client_id).await {
        Ok(c) => c,
        Err(e) => return pages::error_page(StatusCode::BAD_REQUEST, &e),
    };
    let Some(redirect_uri) = params.get("redirect_uri") else {
        return pages::error_page(
            StatusCode::BAD_REQUEST,
            "The request has no redirect_uri: the application must say where to return.",
        );
    };
    let declared = logic::declared_redirect_uris(&client.metadata);
    if !declared
        .iter()
        .any(|r| logic::redirect_uri_matches(r, redirect_uri))
    {
        return pages::error_page(
            StatusCode::BAD_REQUEST,
            "The application asked to return to an address it did not register: it cannot be \
             sent there.",
        );
    }
    let request = match logic::check_authorize(&params, &s.resource) {
        Ok(r) => r,
        Err((error, description)) => {
            return s.redirect_error(
                redirect_uri,
                error,
                &description,
                params.get("state").map(String::as_str),
            );
        }
    };
    let consent_id = avenir::random::base64url::<32>();
    let pending = PendingSignIn {
        client_id: client_id.clone(),
        redirect_uri: redirect_uri.clone(),
        code_challenge: request.code_challenge,
        client_state: request.state,
        scope: request.scope.unwrap_or("").to_string(),
        resource: s.resource.clone(),
        created_at: s.now(),
    };
    if let Err(e) = s
        .store
        .put_pending(&consent_key(&consent_id), &pending)
        .await
    {
        return storage_page(e);
    }
    let action = format!("{}/authorize", s.issuer());
    let mut page = pages::consent_page(&pages::Consent {
        action: &action,
        client_name: client.metadata.get("client_name").and_then(|v| v.as_str()),
        client_id,
        redirect_uri,
        consent_id: &consent_id,
        offer_write: request.scope != Some(SCOPE_READ),
    });
    // The answer must come from this browser: a cross-site form posting a consent id obtained
    // elsewhere carries no such cookie (SameSite=Strict).
    let cookie = format!(
        "{}={consent_id}; Path={}; Max-Age={PENDING_TTL}; HttpOnly; SameSite=Strict{}",
        logic::consent_cookie_name(&consent_id),
        url::Url::parse(&action)
            .map(|u| u.path().to_string())
            .unwrap_or_else(|_| "/authorize".into()),
        if s.config.public_url.starts_with("https://") {
            "; Secure"
        } else {
            ""
        }
    );
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        page.headers_mut().append(header::SET_COOKIE, value);
    }
    page
}

/// The store key of a consent page's pending request (apart from YNAB's states).
fn consent_key(consent_id: &str) -> String {
    sha256_hex(&format!("consent:{consent_id}"))
}

/// `POST /authorize`: the person's answer on the consent page.
async fn consent(State(s): S, headers: HeaderMap, body: String) -> Response {
    let params = match logic::parse_params(&body) {
        Ok(p) => p,
        Err(e) => return pages::error_page(StatusCode::BAD_REQUEST, &e),
    };
    let (Some(consent_id), Some(access)) = (params.get("consent"), params.get("access")) else {
        return pages::error_page(
            StatusCode::BAD_REQUEST,
            "The answer is incomplete: use the buttons of the consent page.",
        );
    };
    let cookies = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok());
    let name = logic::consent_cookie_name(consent_id);
    if logic::cookie_value(cookies, &name) != Some(consent_id.as_str()) {
        return pages::error_page(
            StatusCode::BAD_REQUEST,
            "This answer did not come from the consent page shown in this browser. Start again \
             from your application (cookies must be allowed for this site).",
        );
    }
    let pending = match s.store.take_pending(&consent_key(consent_id)).await {
        Ok(Some(p)) if s.now() - p.created_at <= PENDING_TTL => p,
        Ok(_) => {
            return pages::error_page(
                StatusCode::BAD_REQUEST,
                "This consent page was already answered or has expired.",
            );
        }
        Err(e) => return storage_page(e),
    };
    if access == "deny" {
        let mut refused = s.redirect_error(
            &pending.redirect_uri,
            "access_denied",
            "the person refused",
            pending.client_state.as_deref(),
        );
        if refused.status() == StatusCode::FOUND {
            // 303 after a POST, as for YNAB below.
            *refused.status_mut() = StatusCode::SEE_OTHER;
        }
        return refused;
    }
    let Some(granted) = logic::granted_scope(&pending.scope, access) else {
        return pages::error_page(
            StatusCode::BAD_REQUEST,
            "That choice was not offered: start again from your application.",
        );
    };
    let ynab_state = avenir::random::base64url::<32>();
    let onward = PendingSignIn {
        scope: granted.to_string(),
        created_at: s.now(),
        ..pending
    };
    if let Err(e) = s.store.put_pending(&sha256_hex(&ynab_state), &onward).await {
        return storage_page(e);
    }
    let callback = s.callback_url();
    let mut query = vec![
        ("client_id", s.config.ynab.client_id.as_str()),
        ("redirect_uri", callback.as_str()),
        ("response_type", "code"),
        ("state", ynab_state.as_str()),
    ];
    if granted == SCOPE_READ {
        query.push(("scope", "read-only"));
    }
    match logic::with_query(&s.config.ynab.authorize_url, &query) {
        // 303 after a POST (the browser follows with GET).
        Ok(location) => redirect(StatusCode::SEE_OTHER, &location),
        Err(e) => {
            tracing::error!("YNAB's authorize URL is not valid: {e}");
            pages::error_page(
                StatusCode::INTERNAL_SERVER_ERROR,
                "The server's YNAB settings are wrong; its operator must fix them.",
            )
        }
    }
}

/// `GET /oauth/ynab/callback`: YNAB's answer.
async fn ynab_callback(State(s): S, RawQuery(query): RawQuery) -> Response {
    if query.as_ref().is_some_and(|q| q.len() > MAX_QUERY) {
        return pages::error_page(StatusCode::URI_TOO_LONG, "The request is too long.");
    }
    let params: HashMap<String, String> = match logic::parse_params(query.as_deref().unwrap_or(""))
    {
        Ok(p) => p,
        Err(e) => return pages::error_page(StatusCode::BAD_REQUEST, &e),
    };
    let Some(state) = params.get("state").filter(|st| logic::is_random_token(st)) else {
        return pages::error_page(
            StatusCode::BAD_REQUEST,
            "YNAB's answer has no valid state: start again from your application.",
        );
    };
    let pending = match s.store.take_pending(&sha256_hex(state)).await {
        Ok(Some(p)) if s.now() - p.created_at <= PENDING_TTL => p,
        Ok(_) => {
            return pages::error_page(
                StatusCode::BAD_REQUEST,
                "This sign-in is unknown, expired or already finished: start again from your \
                 application.",
            );
        }
        Err(e) => return storage_page(e),
    };
    let client_state = pending.client_state.as_deref();
    if let Some(error) = params.get("error") {
        let (error, description) = if error == "access_denied" {
            ("access_denied", "the person did not allow access at YNAB")
        } else {
            ("server_error", "YNAB did not complete the sign-in")
        };
        return s.redirect_error(&pending.redirect_uri, error, description, client_state);
    }
    let Some(code) = params.get("code") else {
        return s.redirect_error(
            &pending.redirect_uri,
            "server_error",
            "YNAB answered without a code",
            client_state,
        );
    };
    let tokens = match s.exchange_ynab_code(code).await {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!("YNAB code exchange failed: {e}");
            return s.redirect_error(
                &pending.redirect_uri,
                "server_error",
                "YNAB did not complete the sign-in: try again",
                client_state,
            );
        }
    };
    let read_only = pending.scope == SCOPE_READ
        || tokens
            .scope
            .as_deref()
            .is_some_and(|sc| sc.split(' ').any(|p| p == "read-only"));
    let scope = if read_only {
        SCOPE_READ
    } else {
        SCOPE_READ_WRITE
    };
    let person_id = match s.hook.signed_in(tokens, read_only).await {
        Ok(p) => p,
        Err(e) => {
            tracing::warn!("sign-in could not be completed: {e}");
            return s.redirect_error(
                &pending.redirect_uri,
                "server_error",
                "the sign-in could not be completed: try again",
                client_state,
            );
        }
    };
    let code = avenir::random::base64url::<32>();
    let grant = CodeGrant {
        client_id: pending.client_id.clone(),
        person_id,
        redirect_uri: pending.redirect_uri.clone(),
        code_challenge: pending.code_challenge.clone(),
        scope: scope.to_string(),
        resource: pending.resource.clone(),
        expires_at: s
            .now()
            .saturating_add(i64::try_from(s.config.code_ttl).unwrap_or(60)),
    };
    if let Err(e) = s.store.put_code(&sha256_hex(&code), &grant).await {
        return storage_page(e);
    }
    let mut answer = vec![("code", code.as_str())];
    if let Some(state) = client_state {
        answer.push(("state", state));
    }
    answer.push(("iss", s.issuer()));
    match logic::with_query(&pending.redirect_uri, &answer) {
        Ok(location) => redirect(StatusCode::FOUND, &location),
        Err(e) => pages::error_page(StatusCode::BAD_REQUEST, &e),
    }
}

/// `POST /token`.
async fn token(State(s): S, body: String) -> Response {
    let params = match logic::parse_params(&body) {
        Ok(p) => p,
        Err(e) => return token_error(StatusCode::BAD_REQUEST, "invalid_request", &e),
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
    // Taken whatever follows: a code is tried once.
    let grant = s
        .store
        .take_code(&sha256_hex(code))
        .await
        .map_err(store_failed)?
        .ok_or_else(|| invalid_grant("the code is unknown, used or expired: sign in again"))?;
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
    let family = avenir::random::hex::<16>();
    s.issue_tokens(
        &grant.person_id,
        &grant.client_id,
        &grant.scope,
        &grant.scope,
        &family,
    )
    .await
}

async fn refresh_grant(
    s: &Inner,
    params: &HashMap<String, String>,
) -> Result<Response, TokenError> {
    let refresh = required(params, "refresh_token")?;
    let client_id = required(params, "client_id")?;
    let hash = sha256_hex(refresh);
    // Checked before use, so that another client presenting a stolen token does not burn it.
    match s.store.token(&hash).await.map_err(store_failed)? {
        Some(r) if r.kind == TokenKind::Refresh && r.client_id != client_id => {
            return Err(invalid_grant(
                "the refresh token was issued to another client",
            ));
        }
        _ => {}
    }
    let record = match s.store.use_refresh(&hash).await.map_err(store_failed)? {
        RefreshUse::Fresh(r) => r,
        RefreshUse::Replayed(r) => {
            s.store
                .revoke_family(&r.family)
                .await
                .map_err(store_failed)?;
            tracing::warn!("a used refresh token was presented again: its family is revoked");
            return Err(invalid_grant(
                "the refresh token was already used: every token of this sign-in is revoked, \
                 sign in again",
            ));
        }
        RefreshUse::Unknown => return Err(invalid_grant("unknown refresh token: sign in again")),
    };
    if record.client_id != client_id {
        return Err(invalid_grant(
            "the refresh token was issued to another client",
        ));
    }
    if record.expires_at <= s.now() {
        return Err(invalid_grant("the refresh token expired: sign in again"));
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
    let access_scope = match logic::parse_scope(params.get("scope").map(String::as_str)) {
        Err(e) => return Err(refuse(StatusCode::BAD_REQUEST, "invalid_scope", &e)),
        Ok(None) => record.scope.clone(),
        Ok(Some(asked)) if logic::scope_within(asked, &record.scope) => asked.to_string(),
        Ok(Some(_)) => {
            return Err(refuse(
                StatusCode::BAD_REQUEST,
                "invalid_scope",
                "a refresh cannot widen the scope: sign in again for more access",
            ));
        }
    };
    // The new refresh token keeps the original scope (RFC 6749 §6).
    s.issue_tokens(
        &record.person_id,
        &record.client_id,
        &access_scope,
        &record.scope,
        &record.family,
    )
    .await
}

/// `POST /revoke` (RFC 7009): 200 whatever the token was.
async fn revoke(State(s): S, body: String) -> Response {
    let params = match logic::parse_params(&body) {
        Ok(p) => p,
        Err(e) => return token_error(StatusCode::BAD_REQUEST, "invalid_request", &e),
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
async fn delete(State(s): S, headers: HeaderMap) -> Response {
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
