//! The people signed in to a hosted server: each one's YNAB grant (sealed in the database), the
//! YNAB token a request sends (refreshed before YNAB's two hours are up, by one instance only),
//! and each one's server context — their own plans, journal, codes and hourly budget.
//!
//! Nothing of one person reaches another: a context is made for one person id, from that
//! person's grant, and its journal and codes are that person's rows.

use crate::config::{Clock, HostedConfig};
use crate::contexts::Contexts;
use crate::crypto::SecretKey;
use crate::db::Db;
use crate::oauth::{YnabApp, YnabTokens};
use crate::oauth_store::{OAuthStore, StoreError, YnabGrant};
use avenir::Context;
use avenir::config::Settings;
use serde::{Deserialize, Serialize};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use ynab::Error as YnabError;
use ynab::config::{BaseUrl, ProvideToken, Token, TokenSource};
use ynab::pacing::Pacer;

/// Refresh YNAB's access token when it has less than this left (seconds).
pub const REFRESH_MARGIN: i64 = 300;
/// How long YNAB's access tokens last when its answer does not say (seconds).
pub const YNAB_TOKEN_LIFETIME: i64 = 7200;
/// How many times one call asks YNAB to renew a token while YNAB answers that it is busy.
const RENEW_ATTEMPTS: u32 = 3;
/// The pause before the second attempt (doubled before the third), when YNAB does not say how
/// long to wait.
const RENEW_BACKOFF: Duration = Duration::from_millis(250);
/// The longest one call waits in all for YNAB to renew a token: a `Retry-After` up to this is
/// waited out; a longer one is not, and the call says YNAB is busy.
const RENEW_WAIT_MAX: Duration = Duration::from_secs(5);

/// An HTTP client to YNAB could not be made.
#[derive(Debug, thiserror::Error)]
pub enum HttpClientError {
    #[error("the HTTP client for YNAB's OAuth cannot start: {0}")]
    OAuth(#[source] reqwest::Error),
    /// The connection pool of the people's API requests.
    #[error(transparent)]
    Api(#[from] YnabError),
}

/// Why a person's context could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ContextError {
    #[error(transparent)]
    Context(#[from] avenir::context::AnswerKeyRefused),
}

/// Why a sign-in at YNAB could not be completed on our side (a sentence for the logs).
#[derive(Debug, thiserror::Error)]
pub enum SignInError {
    #[error("YNAB could not be asked who signed in: {0}")]
    Unreachable(#[source] reqwest::Error),
    #[error("YNAB refused to say who signed in (HTTP {0}): sign in again.")]
    Refused(u16),
    #[error("YNAB's answer about who signed in cannot be read: {0}")]
    Unreadable(#[source] reqwest::Error),
    #[error("YNAB's answer about who signed in has no user id")]
    NoUserId,
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Seal(#[from] serde_json::Error),
}

/// YNAB's tokens as sealed in a grant.
#[derive(Serialize, Deserialize)]
struct Sealed {
    access_token: String,
    refresh_token: String,
}

/// YNAB's answer at its token endpoint (to a refresh).
#[derive(Deserialize)]
struct YnabTokenAnswer {
    pub access_token: String,
    pub refresh_token: String,
    pub expires_in: i64,
    #[serde(default)]
    pub scope: Option<String>,
}

/// What every person's context is made from.
pub struct People {
    db: Db,
    key: SecretKey,
    app: YnabApp,
    /// YNAB's API (`AVENIR_MCP_YNAB_URL`).
    base: BaseUrl,
    settings: Settings,
    budget: u32,
    /// Where a person signs in again (said in errors).
    sign_in_url: String,
    /// The server's public URL, under which confirmation pages are served.
    public_url: String,
    clock: Clock,
    http: reqwest::Client,
    /// The connection pool every person's YNAB client sends through: one for the instance.
    ynab_pool: reqwest::Client,
    /// The contexts kept in this instance, bounded (`contexts`).
    contexts: Mutex<Contexts>,
}

impl std::fmt::Debug for People {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("People").field("app", &self.app).finish()
    }
}

/// The key of a person's pacing ledger (YNAB's hourly budget): not their id, which it does not
/// reveal.
pub fn ledger_key(person_id: &str) -> String {
    format!(
        "person-{}",
        hex::encode(
            &avenir::digest::sha256(format!("avenir-mcp-ledger:{person_id}").as_bytes())[..8]
        )
    )
}

/// How the logs name a person (the audit line of each write): a tag that does not reveal their id
/// (SHA-256, domain-separated), the same in every instance so that lines can be followed.
pub fn audit_tag(person_id: &str) -> String {
    format!(
        "person-{}",
        hex::encode(
            &avenir::digest::sha256(format!("avenir-mcp-audit:{person_id}").as_bytes())[..8]
        )
    )
}

/// The additional authenticated data of a person's sealed grant: a grant moved to another
/// person's row does not open.
fn grant_aad(person_id: &str) -> Vec<u8> {
    format!("avenir-mcp ynab grant {person_id}").into_bytes()
}

impl People {
    /// Every person's context will be made from `config` and kept in `db`.
    pub fn new(db: Db, config: &HostedConfig) -> Result<Self, HttpClientError> {
        let http = ynab::http_client_builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(30))
            .build()
            .map_err(HttpClientError::OAuth)?;
        let ynab_pool = ynab::connection_pool(&config.ynab_api)?;
        Ok(People {
            db,
            key: config.key.clone(),
            app: config.ynab.clone(),
            base: config.ynab_api.clone(),
            settings: config.settings.clone(),
            budget: config.budget,
            sign_in_url: format!("{}/mcp", config.public.base),
            public_url: config.public.base.clone(),
            clock: config.clock.clone(),
            http,
            ynab_pool,
            contexts: Mutex::new(Contexts::new(
                config.limits.people_in_memory,
                config.limits.person_idle,
            )),
        })
    }

    pub fn app(&self) -> &YnabApp {
        &self.app
    }

    fn now(&self) -> i64 {
        (self.clock)()
    }

    /// The context of `person_id`, made on first use in this instance (and again after it was
    /// dropped to keep within the bounds).
    pub fn context(self: &Arc<Self>, person_id: &str) -> Result<Arc<Context>, ContextError> {
        let mut contexts = self.contexts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(context) = contexts.get(person_id) {
            return Ok(context);
        }
        let token = YnabToken {
            people: Arc::downgrade(self),
            person_id: person_id.to_string(),
        };
        let ledger = ledger_key(person_id);
        let token = TokenSource::Provided(Arc::new(token));
        let client = ynab::Client::sharing(self.ynab_pool.clone(), self.base.clone(), token)
            .with_pacer(Pacer::Shared {
                store: self.db.ledger_store(),
                key: ledger,
                budget: self.budget,
            });
        let context = Arc::new(
            Context::hosted(
                self.settings.clone(),
                Arc::new(client),
                self.db.shared_store(person_id),
                self.key.derive("avenir-mcp answer states"),
                &self.public_url,
            )
            .map_err(ContextError::Context)?
            .with_who(audit_tag(person_id)),
        );
        contexts.insert(person_id, context.clone());
        Ok(context)
    }

    /// Drop the contexts unused for longer than the limit.
    pub fn sweep(&self) -> usize {
        let mut contexts = self.contexts.lock().unwrap_or_else(|p| p.into_inner());
        contexts.sweep()
    }

    /// How many people's contexts this instance keeps now.
    pub fn kept(&self) -> usize {
        self.contexts
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .len()
    }

    /// Forget a person's context in this instance (after `/delete`).
    pub fn forget(&self, person_id: &str) {
        let mut contexts = self.contexts.lock().unwrap_or_else(|p| p.into_inner());
        contexts.remove(person_id);
    }

    /// YNAB signed the person in: find who they are at YNAB (`GET /user`), make or find their
    /// person, and keep YNAB's tokens sealed. Returns the person id.
    pub async fn signed_in(
        &self,
        answer: &YnabTokens,
        read_only: bool,
    ) -> Result<String, SignInError> {
        let user_url = format!("{}/user", self.base.as_str().trim_end_matches('/'));
        let response = self
            .http
            .get(&user_url)
            .bearer_auth(&answer.access_token)
            .send()
            .await
            .map_err(SignInError::Unreachable)?;
        if !response.status().is_success() {
            return Err(SignInError::Refused(response.status().as_u16()));
        }
        let body: serde_json::Value = response.json().await.map_err(SignInError::Unreadable)?;
        let ynab_user = body
            .pointer("/data/user/id")
            .and_then(serde_json::Value::as_str)
            .ok_or(SignInError::NoUserId)?;
        let person_id = self.db.person_for(ynab_user).await?;
        let scope = match (read_only, answer.scope.as_deref()) {
            (_, Some(scope)) if !scope.is_empty() => scope.to_string(),
            (true, _) => "read-only".to_string(),
            (false, _) => String::new(),
        };
        let grant = YnabGrant {
            sealed: self.seal(&person_id, &answer.access_token, &answer.refresh_token)?,
            expires_at: self.now() + answer.expires_in.map_or(YNAB_TOKEN_LIFETIME, |s| s as i64),
            scope,
            version: 1,
            needs_sign_in: false,
        };
        self.db.put_ynab_grant(&person_id, &grant).await?;
        Ok(person_id)
    }

    fn seal(
        &self,
        person_id: &str,
        access: &str,
        refresh: &str,
    ) -> Result<Vec<u8>, serde_json::Error> {
        let plain = serde_json::to_vec(&Sealed {
            access_token: access.to_string(),
            refresh_token: refresh.to_string(),
        })?;
        Ok(self.key.seal(&plain, &grant_aad(person_id)))
    }

    fn open(&self, person_id: &str, grant: &YnabGrant) -> Result<Sealed, YnabError> {
        let plain = self
            .key
            .open(&grant.sealed, &grant_aad(person_id))
            .map_err(|_| {
                self.sign_in_again(
                    "the stored YNAB sign-in cannot be opened with this server's key",
                )
            })?;
        serde_json::from_slice(&plain)
            .map_err(|_| self.sign_in_again("the stored YNAB sign-in is damaged"))
    }

    fn sign_in_again(&self, why: &str) -> YnabError {
        YnabError::SignIn(format!(
            "YNAB access for this account has ended ({why}): sign in with YNAB again at {} (your client may do it when it next connects). Nothing was sent to YNAB.",
            self.sign_in_url
        ))
    }

    /// The access token to send for `person_id` now, refreshed first when it expires within
    /// [`REFRESH_MARGIN`]. Two instances refreshing at once: the first to store its new grant
    /// wins; the other finds the grant moved on and uses it (YNAB rotates refresh tokens, so
    /// the loser's own refresh, if sent, is refused and ignored).
    pub async fn access_token(&self, person_id: &str) -> Result<Token, YnabError> {
        for _ in 0..3 {
            let grant = self
                .db
                .ynab_grant(person_id)
                .await
                .map_err(unreadable)?
                .ok_or_else(|| self.sign_in_again("no YNAB sign-in is kept for this account"))?;
            if grant.needs_sign_in {
                return Err(self.sign_in_again("YNAB refused to renew it"));
            }
            let tokens = self.open(person_id, &grant)?;
            if grant.expires_at - self.now() > REFRESH_MARGIN {
                return Ok(Token::new(tokens.access_token));
            }
            match self.refresh_patiently(&tokens.refresh_token).await {
                Ok(answer) => {
                    if let Some(token) = self.keep_renewed(person_id, &grant, answer).await? {
                        return Ok(token);
                    }
                    // another instance renewed it first: read theirs
                }
                Err(Refresh::Refused) => self.end_grant(person_id, &grant).await?,
                Err(Refresh::Failed(why)) => {
                    // The grant stands: YNAB's refresh token was not spent.
                    if grant.expires_at > self.now() {
                        tracing::warn!(
                            "renewing a person's YNAB access failed ({why}): the current access \
                             is used until it expires"
                        );
                        return Ok(Token::new(tokens.access_token));
                    }
                    tracing::warn!("renewing a person's YNAB access failed: {why}");
                    return Err(YnabError::SignIn(format!(
                        "YNAB is busy and did not renew this account's access just now ({why}). Nothing was sent to YNAB and you stay signed in: try again in a minute."
                    )));
                }
            }
        }
        Err(YnabError::SignIn(
            "YNAB access is being renewed by another server instance: try again in a moment."
                .to_string(),
        ))
    }

    /// Store YNAB's renewed tokens over the grant read; `None` when another instance replaced
    /// that grant first.
    async fn keep_renewed(
        &self,
        person_id: &str,
        grant: &YnabGrant,
        answer: YnabTokenAnswer,
    ) -> Result<Option<Token>, YnabError> {
        let renewed = YnabGrant {
            sealed: self
                .seal(person_id, &answer.access_token, &answer.refresh_token)
                .map_err(|e| self.sign_in_again(&e.to_string()))?,
            expires_at: self.now() + answer.expires_in,
            scope: answer.scope.clone().unwrap_or(grant.scope.clone()),
            version: grant.version + 1,
            needs_sign_in: false,
        };
        let stored = self
            .db
            .replace_ynab_grant(person_id, grant.version, &renewed)
            .await
            .map_err(unreadable)?;
        if !stored {
            return Ok(None);
        }
        tracing::info!("a person's YNAB access was renewed");
        Ok(Some(Token::new(answer.access_token)))
    }

    /// YNAB refused to renew `grant`: unless another instance renewed it meanwhile (`Ok`: read
    /// it again), mark it ended and revoke the person's MCP tokens, and say to sign in again.
    async fn end_grant(&self, person_id: &str, grant: &YnabGrant) -> Result<(), YnabError> {
        let now = self.db.ynab_grant(person_id).await.map_err(unreadable)?;
        if now.as_ref().is_some_and(|g| g.version != grant.version) {
            return Ok(()); // renewed elsewhere meanwhile
        }
        let ended = YnabGrant {
            needs_sign_in: true,
            version: grant.version + 1,
            ..grant.clone()
        };
        self.db
            .replace_ynab_grant(person_id, grant.version, &ended)
            .await
            .map_err(unreadable)?;
        // their MCP tokens go too: the next request answers 401 and the client signs them in
        // again (consent, then YNAB)
        self.db.revoke_person(person_id).await.map_err(unreadable)?;
        tracing::info!("YNAB refused to renew a person's access: they must sign in again");
        Err(self.sign_in_again("YNAB refused to renew it"))
    }

    /// [`Self::refresh`], tried again after a pause while YNAB answers that it is busy (429,
    /// 408, 5xx) or cannot be reached: [`RENEW_ATTEMPTS`] in all, the pause YNAB's
    /// `Retry-After` when it gives one, else doubling from [`RENEW_BACKOFF`], and the pauses
    /// together within [`RENEW_WAIT_MAX`]. A longer wait is not made: the call answers that YNAB
    /// is busy, and the next call tries again.
    async fn refresh_patiently(&self, refresh_token: &str) -> Result<YnabTokenAnswer, Refresh> {
        let mut backoff = RENEW_BACKOFF;
        let mut waited = Duration::ZERO;
        let mut attempt = 1;
        loop {
            match self.refresh(refresh_token).await {
                Err(Refresh::Failed(why)) if why.is_transient() && attempt < RENEW_ATTEMPTS => {
                    let pause = why.retry_after().unwrap_or(backoff);
                    if waited + pause > RENEW_WAIT_MAX {
                        return Err(Refresh::Failed(why));
                    }
                    tracing::info!("YNAB did not renew a person's access ({why}): trying again");
                    tokio::time::sleep(pause).await;
                    waited += pause;
                    backoff *= 2;
                    attempt += 1;
                }
                outcome => return outcome,
            }
        }
    }

    /// `grant_type=refresh_token` at YNAB's token endpoint.
    async fn refresh(&self, refresh_token: &str) -> Result<YnabTokenAnswer, Refresh> {
        let form = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("grant_type", "refresh_token")
            .append_pair("client_id", &self.app.client_id)
            .append_pair("client_secret", &self.app.client_secret)
            .append_pair("refresh_token", refresh_token)
            .finish();
        let response = self
            .http
            .post(&self.app.token_url)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form)
            .send()
            .await
            .map_err(|e| Refresh::Failed(RefreshFailure::Unreachable(e)))?;
        let status = response.status();
        if status.is_success() {
            return response
                .json()
                .await
                .map_err(|e| Refresh::Failed(RefreshFailure::Unreadable(e)));
        }
        let code = status.as_u16();
        let retry_after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(ynab::client::retry_after_seconds)
            .map(Duration::from_secs);
        if matches!(code, 400 | 401) {
            // RFC 6749 §5.2: only these say the grant itself (or our application) is gone.
            // A body that cannot be read names no error: the grant is kept (a sign-out needs
            // YNAB to say so), and the call says renewal failed.
            let body: serde_json::Value = response.json().await.unwrap_or_default();
            let error = body.get("error").and_then(serde_json::Value::as_str);
            if matches!(
                error,
                Some("invalid_grant" | "invalid_client" | "unauthorized_client")
            ) {
                return Err(Refresh::Refused);
            }
        }
        Err(Refresh::Failed(RefreshFailure::Status {
            code,
            retry_after,
        }))
    }
}

/// The database could not be read while finding a person's YNAB token.
fn unreadable(e: StoreError) -> YnabError {
    YnabError::SignIn(format!(
        "the server's database cannot be read ({e}): try again shortly."
    ))
}

enum Refresh {
    /// YNAB said the grant is gone (`invalid_grant`) or our application is (`invalid_client`,
    /// `unauthorized_client`): the person must sign in again.
    Refused,
    /// YNAB was busy, could not be asked, or refused for another reason: the grant stands,
    /// try later.
    Failed(RefreshFailure),
}

/// Why YNAB could not be asked to renew a token (said inside the person's error).
#[derive(Debug, thiserror::Error)]
enum RefreshFailure {
    #[error("YNAB could not be reached: {0}")]
    Unreachable(#[source] reqwest::Error),
    #[error("YNAB's answer cannot be read: {0}")]
    Unreadable(#[source] reqwest::Error),
    /// YNAB's status, and the wait its `Retry-After` asked for.
    #[error("YNAB answered HTTP {code}")]
    Status {
        code: u16,
        retry_after: Option<Duration>,
    },
}

impl RefreshFailure {
    /// Whether trying again shortly may succeed: YNAB unreachable, too busy (429), timed out
    /// (408) or failing (5xx).
    fn is_transient(&self) -> bool {
        match self {
            RefreshFailure::Unreachable(_) => true,
            RefreshFailure::Unreadable(_) => false,
            RefreshFailure::Status { code, .. } => matches!(code, 408 | 429 | 500..=599),
        }
    }

    /// The wait YNAB asked for (`Retry-After`), if it did.
    fn retry_after(&self) -> Option<Duration> {
        match self {
            RefreshFailure::Status { retry_after, .. } => *retry_after,
            _ => None,
        }
    }
}

/// The token source of one person's YNAB client.
struct YnabToken {
    /// Weak: `People` holds the contexts that hold this.
    people: std::sync::Weak<People>,
    person_id: String,
}

impl std::fmt::Debug for YnabToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("YnabToken(****)")
    }
}

impl ProvideToken for YnabToken {
    fn unauthorized(&self) -> YnabError {
        let place = self
            .people
            .upgrade()
            .map(|people| people.sign_in_url.clone())
            .unwrap_or_default();
        YnabError::SignInRefused(format!(
            "YNAB 401: YNAB no longer accepts this account's sign-in (access may have been revoked in YNAB's settings): sign in with YNAB again at {place}."
        ))
    }

    fn current(&self) -> Pin<Box<dyn Future<Output = Result<Token, YnabError>> + Send + '_>> {
        Box::pin(async move {
            match self.people.upgrade() {
                Some(people) => people.access_token(&self.person_id).await,
                None => Err(YnabError::SignIn(
                    "the server is stopping: try again in a moment.".to_string(),
                )),
            }
        })
    }
}
