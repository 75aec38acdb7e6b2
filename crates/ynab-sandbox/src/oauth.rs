//! YNAB's OAuth, spoken by the sandbox so that a hosted server's whole sign-in flow runs on one
//! machine: users who each see some of the sandbox's plans, registered apps, the authorization
//! endpoint (`GET /oauth/authorize`), the token endpoint (`POST /oauth/token`), a clock the tests
//! move, and the control routes that set who is signed in and make refreshes fail.
//!
//! # Set-up (Rust)
//!
//! - [`Sandbox::add_user`]`(name, plan_ids)` adds a user who sees those plans (the first is their
//!   `last-used`); their id is [`user_id`]`(name)`, the UUID v5 of `user-{name}` (`crate::ids`).
//! - [`Sandbox::add_oauth_app`]`(client_id, client_secret, redirect_uri)` registers an app (again
//!   with the same `client_id`: replaces it).
//! - [`Sandbox::sign_in`]`(name)`: who consents at `/oauth/authorize` (sticky; before any call,
//!   the first user added). [`Sandbox::fail_refresh`]`(name)`: every refresh token of the user
//!   stops working, as when the person removes the app in YNAB.
//! - [`Sandbox::advance_clock`]`(seconds)`: the OAuth clock (real time plus an offset) moves.
//!
//! The same over HTTP: `POST /__sandbox/oauth/sign-in {"user": "alice"}`,
//! `POST /__sandbox/oauth/fail-refresh {"user": "alice"}`, `POST /__sandbox/clock
//! {"advance_seconds": N}` (answers `{"offset_seconds", "now"}`).
//!
//! # What a token does on `/v1`
//!
//! A bearer token the token endpoint issued acts as its user (`current_user`, set by the bearer
//! check in `crate::server` for the time of the request): `/plans` lists their plans,
//! `last-used`/`default` name their first plan, another plan answers 404.2 exactly as an unknown
//! one, `/user` answers their id. Expired (two hours after it was issued): 401, as without a
//! token. Read-only: every method but GET (and HEAD) answers 403.3 `unauthorized_scope` before
//! anything is applied. Any other non-empty bearer token sees every plan, as before OAuth.
//!
//! # Chosen where YNAB does not say
//!
//! - `/oauth/authorize` consents at once, without a page. Unknown `client_id`, or a
//!   `redirect_uri` other than the app's exact one: 400 with a plain-text sentence, never a
//!   redirect. Other errors redirect with `error=` (and `error_description=`), `state` passed back.
//! - Codes last 10 minutes and are used once: a code (or refresh token) presented to the token
//!   endpoint by an authenticated client is spent, whether or not the rest of the request is
//!   right; a wrong client secret spends nothing. Access tokens last 7200 s; refresh tokens do
//!   not expire but rotate: a refresh spends the one presented. Access tokens stay valid after a
//!   refresh, until they expire; `fail-refresh` leaves them too.
//! - The client authenticates with `client_id` and `client_secret` in the form body (HTTP Basic
//!   is not read); a wrong pair answers 401 `invalid_client`.
//! - `GET /__sandbox/stats` counts successful grants (`oauth.authorization_code`,
//!   `oauth.refresh_token`); `POST /__sandbox/reset` zeroes them with the other counters but
//!   keeps users, apps, codes, tokens and the clock.

mod control;
mod endpoints;

pub(crate) use control::{clock, fail_refresh, sign_in};
pub(crate) use endpoints::{authorize, token};

use crate::error::error_response;
use crate::server::{Sandbox, lock};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::json;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// How long an access token lasts, in seconds (YNAB: two hours).
pub const ACCESS_TOKEN_SECONDS: i64 = 7200;
/// How long an authorization code lasts, in seconds.
pub const CODE_SECONDS: i64 = 600;
/// The scope that makes a grant read-only.
pub const READ_ONLY: &str = "read-only";

/// The id of the user named `name`: the UUID v5 of `user-{name}` (`crate::ids`).
pub fn user_id(name: &str) -> String {
    crate::ids::id(&format!("user-{name}"))
}

/// Token grants made, by grant type (successful ones only).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct OAuthStats {
    pub authorization_code: u64,
    pub refresh_token: u64,
}

/// Why an OAuth set-up call was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OAuthSetupError {
    /// A plan id that is none of the sandbox's plans.
    UnknownPlan(String),
    /// A user name never added.
    UnknownUser(String),
    /// A user name added twice.
    DuplicateUser(String),
}

impl fmt::Display for OAuthSetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OAuthSetupError::UnknownPlan(id) => write!(
                f,
                "The sandbox has no plan {id}: give the ids of plans it was started with."
            ),
            OAuthSetupError::UnknownUser(name) => write!(
                f,
                "The sandbox has no OAuth user named {name:?}: add one with Sandbox::add_user first."
            ),
            OAuthSetupError::DuplicateUser(name) => write!(
                f,
                "The sandbox already has an OAuth user named {name:?}: give each user another name."
            ),
        }
    }
}

impl std::error::Error for OAuthSetupError {}

/// A user and the plans they see, their `last-used` first.
#[derive(Debug)]
pub(crate) struct User {
    pub(crate) name: String,
    pub(crate) id: String,
    pub(crate) plan_ids: Vec<String>,
}

#[derive(Debug)]
struct App {
    secret: String,
    redirect_uri: String,
}

#[derive(Debug)]
struct Code {
    client_id: String,
    redirect_uri: String,
    user: Arc<User>,
    read_only: bool,
    expires_at: i64,
}

#[derive(Debug)]
struct AccessToken {
    user: Arc<User>,
    read_only: bool,
    expires_at: i64,
}

#[derive(Debug)]
struct RefreshToken {
    client_id: String,
    user: Arc<User>,
    read_only: bool,
}

/// The OAuth state of a sandbox (in `crate::server::Shared`).
#[derive(Debug, Default)]
pub(crate) struct OAuth {
    users: Vec<Arc<User>>,
    /// The name of the user who consents at `/oauth/authorize`; none: the first user.
    signed_in: Option<String>,
    apps: HashMap<String, App>,
    codes: HashMap<String, Code>,
    /// Every access token issued, expired ones included (so that they answer 401 rather than
    /// being taken for a token the sandbox never issued).
    access: HashMap<String, AccessToken>,
    refresh: HashMap<String, RefreshToken>,
    clock_offset: i64,
}

/// What a bearer token is to the `/v1` routes.
pub(crate) enum Bearer {
    /// Not issued here: every plan, as before OAuth.
    Other,
    /// Issued here and expired.
    Expired,
    /// Issued here: acts as `user`.
    User { user: Arc<User>, read_only: bool },
}

impl OAuth {
    /// Now on the OAuth clock, in Unix seconds.
    fn now(&self) -> i64 {
        chrono::Utc::now().timestamp() + self.clock_offset
    }

    fn user(&self, name: &str) -> Result<&Arc<User>, OAuthSetupError> {
        self.users
            .iter()
            .find(|u| u.name == name)
            .ok_or_else(|| OAuthSetupError::UnknownUser(name.to_owned()))
    }

    fn sign_in(&mut self, name: &str) -> Result<(), OAuthSetupError> {
        self.user(name)?;
        self.signed_in = Some(name.to_owned());
        Ok(())
    }

    fn fail_refresh(&mut self, name: &str) -> Result<(), OAuthSetupError> {
        let id = self.user(name)?.id.clone();
        self.refresh.retain(|_, token| token.user.id != id);
        Ok(())
    }

    /// The person revokes the application in YNAB: their refresh tokens go, and their access
    /// tokens answer 401 from now on.
    fn revoke_app(&mut self, name: &str) -> Result<(), OAuthSetupError> {
        let id = self.user(name)?.id.clone();
        self.refresh.retain(|_, token| token.user.id != id);
        for token in self.access.values_mut().filter(|t| t.user.id == id) {
            token.expires_at = i64::MIN;
        }
        Ok(())
    }

    fn advance_clock(&mut self, seconds: i64) -> i64 {
        self.clock_offset = self.clock_offset.saturating_add(seconds);
        self.clock_offset
    }

    /// What `token` (from `Authorization: Bearer`) is.
    pub(crate) fn bearer(&self, token: &str) -> Bearer {
        match self.access.get(token) {
            None => Bearer::Other,
            Some(t) if t.expires_at <= self.now() => Bearer::Expired,
            Some(t) => Bearer::User {
                user: t.user.clone(),
                read_only: t.read_only,
            },
        }
    }

    /// A new access and refresh token for `user`, as the token endpoint answers them.
    fn issue(
        &mut self,
        client_id: &str,
        user: Arc<User>,
        read_only: bool,
    ) -> Result<serde_json::Value, ring::error::Unspecified> {
        let access = random_token()?;
        let refresh = random_token()?;
        let now = self.now();
        self.access.insert(
            access.clone(),
            AccessToken {
                user: user.clone(),
                read_only,
                expires_at: now + ACCESS_TOKEN_SECONDS,
            },
        );
        self.refresh.insert(
            refresh.clone(),
            RefreshToken {
                client_id: client_id.to_owned(),
                user,
                read_only,
            },
        );
        Ok(json!({
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": ACCESS_TOKEN_SECONDS,
            "refresh_token": refresh,
            "scope": if read_only { READ_ONLY } else { "" },
            "created_at": now,
        }))
    }
}

tokio::task_local! {
    /// The user the request being served acts as (set by the bearer check around the `/v1`
    /// handlers of a request with an OAuth token).
    static ACCESS: Arc<User>;
}

/// The user the request being served acts as; none for a token not issued by the sandbox.
pub(crate) fn current_user() -> Option<Arc<User>> {
    ACCESS.try_with(Arc::clone).ok()
}

/// Runs `serve` (the `/v1` handlers) acting as `user`.
pub(crate) async fn acting_as<F: Future>(user: Arc<User>, serve: F) -> F::Output {
    ACCESS.scope(user, serve).await
}

/// The plan id a `/v1` path's `{plan_id}` stands for, for the request being served: as given
/// without an OAuth user; for one, `last-used`/`default` are their first plan, and a plan not
/// theirs is none (answered as an unknown plan).
pub(crate) fn visible_plan_id(plan_id: &str) -> Option<String> {
    let Some(user) = current_user() else {
        return Some(plan_id.to_owned());
    };
    if plan_id == "last-used" || plan_id == "default" {
        return user.plan_ids.first().cloned();
    }
    user.plan_ids
        .iter()
        .any(|id| id == plan_id)
        .then(|| plan_id.to_owned())
}

/// 32 random bytes, hex.
fn random_token() -> Result<String, ring::error::Unspecified> {
    let mut bytes = [0u8; 32];
    ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The 403.3 a read-only token gets for a write.
pub(crate) fn read_only_refusal() -> Response {
    error_response(
        StatusCode::FORBIDDEN,
        "403.3",
        "unauthorized_scope",
        "This access token was granted the read-only scope, so it cannot change the plan: ask \
         for authorization without scope=read-only to write.",
    )
}

impl Sandbox {
    /// Adds an OAuth user named `name` who sees `plan_ids` (the first is their `last-used`),
    /// and answers their id ([`user_id`]). Each id must be one of the sandbox's plans.
    pub fn add_user(&self, name: &str, plan_ids: &[String]) -> Result<String, OAuthSetupError> {
        let mut shared = lock(self.state());
        if let Some(unknown) = plan_ids
            .iter()
            .find(|id| **id != shared.plan.id && !shared.others.iter().any(|plan| plan.id == **id))
        {
            return Err(OAuthSetupError::UnknownPlan(unknown.clone()));
        }
        if shared.oauth.users.iter().any(|u| u.name == name) {
            return Err(OAuthSetupError::DuplicateUser(name.to_owned()));
        }
        let id = user_id(name);
        shared.oauth.users.push(Arc::new(User {
            name: name.to_owned(),
            id: id.clone(),
            plan_ids: plan_ids.to_vec(),
        }));
        Ok(id)
    }

    /// Registers an OAuth app; the same `client_id` again replaces it.
    pub fn add_oauth_app(&self, client_id: &str, client_secret: &str, redirect_uri: &str) {
        lock(self.state()).oauth.apps.insert(
            client_id.to_owned(),
            App {
                secret: client_secret.to_owned(),
                redirect_uri: redirect_uri.to_owned(),
            },
        );
    }

    /// The user who consents at `/oauth/authorize` from now on.
    pub fn sign_in(&self, name: &str) -> Result<(), OAuthSetupError> {
        lock(self.state()).oauth.sign_in(name)
    }

    /// Every refresh token of the user stops working (`invalid_grant`).
    pub fn fail_refresh(&self, name: &str) -> Result<(), OAuthSetupError> {
        lock(self.state()).oauth.fail_refresh(name)
    }

    /// `name` revokes the application in YNAB's settings: refresh tokens refused, access tokens
    /// answered 401.
    pub fn revoke_app(&self, name: &str) -> Result<(), OAuthSetupError> {
        lock(self.state()).oauth.revoke_app(name)
    }

    /// Moves the OAuth clock by `seconds`; answers its offset from real time.
    pub fn advance_clock(&self, seconds: i64) -> i64 {
        lock(self.state()).oauth.advance_clock(seconds)
    }
}
