//! The authorization server itself: its settings and the application it is at YNAB, the
//! [`SignInHook`] the rest of the hosted mode plugs in, and [`OAuthServer`] (what every route
//! shares, and the check of a bearer token on `/mcp`). The routes are in sibling modules;
//! `oauth`'s `mod.rs` puts them together.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode};
use axum::response::Response;
use serde::Deserialize;

use super::errors::OAuthSetupError;
use super::limits::{ClientAddress, Limiters, RateLimits};
use super::logic::{self, sha256_hex};
use super::respond::{challenge_response, redirect, unavailable};
use super::{fetch, pages};
use crate::oauth_store::{OAuthStore, TokenKind};

/// How long a consent page or a sign-in at YNAB may take before it must start again.
pub const PENDING_TTL: i64 = 15 * 60;
/// The longest query `/authorize` and the YNAB callback read (what they keep goes to the store).
pub(super) const MAX_QUERY: usize = 8 * 1024;
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

/// Why a [`SignInHook`] could not complete a sign-in: the implementor's own error, kept whole
/// for the logs.
pub type SignInFailure = Box<dyn std::error::Error + Send + Sync>;

/// What the rest of the hosted mode does when a person signs in or asks to be forgotten.
#[async_trait]
pub trait SignInHook: Send + Sync {
    /// YNAB answered our code exchange: make or find the person (`GET /user`, then
    /// [`OAuthStore::person_for`]), keep their YNAB tokens sealed, return the person id. An
    /// error is a sentence for the logs (the client is told only that the sign-in failed).
    async fn signed_in(&self, tokens: YnabTokens, read_only: bool)
    -> Result<String, SignInFailure>;
    /// The person asked `/delete` (the store already forgot them): forget whatever the hook
    /// keeps in memory.
    async fn deleted(&self, person_id: &str);
    /// The `Set-Cookie` value that opens a browser session for `person_id` where they signed in
    /// (the confirmation pages read it); none by default.
    fn browser_cookie(&self, _person_id: &str) -> Option<String> {
        None
    }
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
    /// The per-address budgets of registration, `/authorize` and the token endpoint.
    pub rate_limits: RateLimits,
    /// Where a request's client address is read (the peer, or a reverse proxy's header).
    pub client_address: ClientAddress,
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
            rate_limits: RateLimits::default(),
            client_address: ClientAddress::Socket,
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
            .field("rate_limits", &self.rate_limits)
            .field("client_address", &self.client_address)
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
    pub(super) inner: Arc<Inner>,
}

pub(super) struct Inner {
    pub(super) config: OAuthConfig,
    pub(super) store: Arc<dyn OAuthStore>,
    pub(super) hook: Arc<dyn SignInHook>,
    /// `<public_url>/mcp`
    pub(super) resource: String,
    pub(super) metadata_http: reqwest::Client,
    pub(super) ynab_http: reqwest::Client,
    pub(super) limiters: Arc<Limiters>,
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
    ) -> Result<Self, OAuthSetupError> {
        config.public_url = config.public_url.trim_end_matches('/').to_string();
        logic::check_public_url(&config.public_url)?;
        let metadata_http =
            fetch::metadata_client(&config.metadata_roots, config.allow_private_metadata_hosts)?;
        let ynab_http = ynab::http_client_builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(20))
            .build()
            .map_err(OAuthSetupError::YnabClient)?;
        let resource = format!("{}/mcp", config.public_url);
        let limiters = Arc::new(Limiters::new(config.rate_limits, config.client_address)?);
        Ok(Self {
            inner: Arc::new(Inner {
                config,
                store,
                hook,
                resource,
                metadata_http,
                ynab_http,
                limiters,
            }),
        })
    }

    /// Forget the client addresses whose rate budgets are full again; how many are still
    /// tracked (the periodic sweep calls it, so that addresses seen once do not pile up).
    pub fn forget_idle_addresses(&self) -> usize {
        self.inner.limiters.forget_idle();
        self.inner.limiters.tracked()
    }

    /// The canonical resource URI, `<public_url>/mcp`.
    pub fn resource(&self) -> &str {
        &self.inner.resource
    }

    /// Where the protected resource metadata is, for `WWW-Authenticate`.
    pub fn resource_metadata_url(&self) -> String {
        self.inner.resource_metadata_url()
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
    pub(super) fn now(&self) -> i64 {
        (self.config.clock)()
    }

    pub(super) fn issuer(&self) -> &str {
        &self.config.public_url
    }

    /// Whether the public URL is https (cookies `Secure` and `__Host-`).
    pub(super) fn https(&self) -> bool {
        self.config.public_url.starts_with("https://")
    }

    pub(super) fn resource_metadata_url(&self) -> String {
        format!(
            "{}/.well-known/oauth-protected-resource/mcp",
            self.config.public_url
        )
    }

    pub(super) fn callback_url(&self) -> String {
        format!("{}/oauth/ynab/callback", self.config.public_url)
    }

    pub(super) async fn authenticate(
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
    pub(super) fn unauthorized(&self, presented: Option<&str>) -> Response {
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
    pub(super) fn redirect_error(
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
            Err(e) => pages::error_page(StatusCode::BAD_REQUEST, &e.to_string()),
        }
    }
}

pub(super) type S = State<Arc<Inner>>;
