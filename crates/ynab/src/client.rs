//! The HTTP client: one connection pool, the checks every request passes (path segments, base
//! URL, token, pause), retries that never repeat a write blindly, and YNAB's error mapping.

mod body;
mod checks;
mod operations;

use crate::config::{BaseUrl, Token, TokenSource};
use crate::error::Error;
use crate::pacing::Pacer;
use body::{Streamed, shortened, streamed, unreadable};
use checks::{backoff, cause};
pub use checks::{check_segment, pause_seconds, retry_after_seconds};
pub use operations::TransactionFilter;
use reqwest::Method;
use serde::de::DeserializeOwned;
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Tries in all for one request, the first included (`docs/contract/server.md` §5.5).
const TRIES: u32 = 3;

/// A client of YNAB's API v1 (or of the sandbox, which speaks it).
///
/// Cheap to share behind an `Arc`: it holds a connection pool, its own or one it shares with
/// other clients ([`Client::sharing`]).
#[derive(Debug)]
pub struct Client {
    http: reqwest::Client,
    base: BaseUrl,
    token: TokenSource,
    pacer: Pacer,
    sent: AtomicU64,
    /// The longest a request may take in all, when shorter than the pool's read timeout (tests
    /// of a slow answer; a person's setup keeps the 30 s read timeout).
    answer_timeout: Option<Duration>,
}

tokio::task_local! {
    /// Requests sent by the task running inside [`count_requests`].
    static CALL_REQUESTS: Cell<u32>;
}

/// Run `future` and count the YNAB requests it sends (every try that leaves).
pub async fn count_requests<F: std::future::Future>(future: F) -> (F::Output, u32) {
    CALL_REQUESTS
        .scope(Cell::new(0), async move {
            let output = future.await;
            let sent = CALL_REQUESTS.try_with(Cell::get).unwrap_or(0);
            (output, sent)
        })
        .await
}

/// The connection pool YNAB's requests go through: redirects never followed, 10 s to connect,
/// 30 s between bytes of an answer, no proxy for a loopback base (the sandbox). Fails, with a
/// sentence saying so, when the HTTP client cannot start (its TLS backend): never a default
/// client, which would follow redirects and wait forever. Cheap to clone: clones share the pool.
pub fn connection_pool(base: &BaseUrl) -> Result<reqwest::Client, Error> {
    let mut builder = crate::tls::http_client_builder()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(Duration::from_secs(10))
        .read_timeout(Duration::from_secs(30))
        .user_agent(concat!("avenir-mcp/", env!("CARGO_PKG_VERSION")));
    if base.is_loopback() {
        builder = builder.no_proxy();
    }
    builder
        .build()
        .map_err(|e| Error::ClientSetup(e.to_string()))
}

impl Client {
    /// A client for `base` that takes its token from `token`, with a connection pool of its own
    /// (see [`connection_pool`]), paced in memory at the default budget (use
    /// [`Client::with_pacer`] to share a ledger with other processes).
    pub fn new(base: BaseUrl, token: TokenSource) -> Result<Self, Error> {
        let http = connection_pool(&base)?;
        Ok(Client::sharing(http, base, token))
    }

    /// A client for `base` sending through `http`, a pool made by [`connection_pool`] for the
    /// same base and shared with other clients: the hosted mode makes one for every person, and
    /// a pool of their own each would load and parse the system's root certificates each time.
    /// The token travels with each request, never with the pool.
    pub fn sharing(http: reqwest::Client, base: BaseUrl, token: TokenSource) -> Self {
        Client {
            http,
            base,
            token,
            pacer: Pacer::memory(crate::pacing::DEFAULT_BUDGET),
            sent: AtomicU64::new(0),
            answer_timeout: None,
        }
    }

    /// The same client, giving up on any answer after `timeout` (a write then may have been
    /// applied, as after the 30 s read timeout).
    pub fn with_answer_timeout(mut self, timeout: Duration) -> Self {
        self.answer_timeout = Some(timeout);
        self
    }

    /// The same client, paced by `pacer`.
    pub fn with_pacer(mut self, pacer: Pacer) -> Self {
        self.pacer = pacer;
        self
    }

    /// The client of a person's own setup: `AVENIR_MCP_YNAB_URL`, `YNAB_API_KEY`/`_FILE`,
    /// `AVENIR_MCP_RATE_LIMIT`, and the ledger in the state directory. A bad
    /// `AVENIR_MCP_RATE_LIMIT`, or an HTTP client that cannot start, is refused with a sentence.
    pub fn from_env() -> Result<Self, String> {
        let budget = crate::pacing::budget_from_env()?;
        let pacer = match crate::pacing::default_state_dir() {
            Some(dir) => Pacer::ledger(dir.join("ledger"), budget),
            None => Pacer::memory(budget),
        };
        let client = Client::new(BaseUrl::from_env(), TokenSource::Environment)
            .map_err(|e| e.to_string())?;
        Ok(client.with_pacer(pacer))
    }

    /// Requests the hourly budget still allows, when the token is known.
    pub fn requests_left(&self) -> Option<u32> {
        let token = match (&self.token, &self.pacer) {
            // a shared ledger is kept per person, not per token
            (TokenSource::Provided(_), Pacer::Shared { .. }) => Token::new(String::new()),
            _ => self.token.token().ok()?,
        };
        self.pacer.remaining(&token)
    }

    /// The base URL requests go to.
    pub fn base_url(&self) -> &BaseUrl {
        &self.base
    }

    /// How many requests this client has sent (every try that left counts).
    pub fn requests_sent(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }

    // ---- the request path -------------------------------------------------------------------

    /// A `GET` of `segments` under the base URL, answered `{"data": T}`.
    pub async fn get<T: DeserializeOwned + Send + 'static>(
        &self,
        segments: &[&str],
        query: &[(&str, String)],
    ) -> Result<T, Error> {
        self.request(Method::GET, segments, query, None).await
    }

    /// One request with YNAB's rules: checks in the order of `docs/contract/server.md` §5.2 (path
    /// segments, base URL, token, pause), then up to three tries where a retry cannot duplicate a
    /// change.
    pub async fn request<T: DeserializeOwned + Send + 'static>(
        &self,
        method: Method,
        segments: &[&str],
        query: &[(&str, String)],
        body: Option<&serde_json::Value>,
    ) -> Result<T, Error> {
        for segment in segments {
            check_segment(segment)?;
        }
        let base = self.base.check()?;
        let token = self.token.current().await?;
        let url = format!("{base}/{}", segments.join("/"));
        let is_read = method == Method::GET;

        let mut tries = 0;
        loop {
            self.pacer.admit_async(&token).await?;
            tries += 1;
            let request = self.prepared(&method, &url, &token, query, body);
            // Identifiers only: the path holds ids and months, never names or amounts.
            tracing::info!("YNAB {method} /{} (try {tries})", segments.join("/"));
            self.sent.fetch_add(1, Ordering::Relaxed);
            let _ = CALL_REQUESTS.try_with(|n| n.set(n.get() + 1));
            let outcome = match request.send().await {
                Ok(response) => self.received(response, &token, is_read, tries).await,
                Err(error) => {
                    let never_left = error.is_connect();
                    if (is_read || never_left) && tries < TRIES {
                        Try::Again
                    } else {
                        Try::Done(Err(self.transport_failure(&error, is_read, tries)))
                    }
                }
            };
            match outcome {
                Try::Done(result) => return result,
                Try::Again => backoff(tries).await,
            }
        }
    }

    /// One try's request: the bearer token, the query, the JSON body and the answer timeout.
    fn prepared(
        &self,
        method: &Method,
        url: &str,
        token: &Token,
        query: &[(&str, String)],
        body: Option<&serde_json::Value>,
    ) -> reqwest::RequestBuilder {
        let mut request = self
            .http
            .request(method.clone(), url)
            .bearer_auth(token.expose())
            .query(query);
        if let Some(body) = body {
            request = request.json(body);
        }
        if let Some(timeout) = self.answer_timeout {
            request = request.timeout(timeout);
        }
        request
    }

    /// What an answer that arrived comes to: its data, its error, or another try (a read's 5xx
    /// or a body cut short, while tries remain).
    async fn received<T: DeserializeOwned + Send + 'static>(
        &self,
        response: reqwest::Response,
        token: &Token,
        is_read: bool,
        tries: u32,
    ) -> Try<T> {
        let status = response.status().as_u16();
        if is_read && matches!(status, 500 | 502 | 503 | 504) && tries < TRIES {
            return Try::Again;
        }
        if (200..=299).contains(&status) {
            // Parsed as it arrives: a plan export is never held whole in memory.
            return match streamed::<T>(response).await {
                Streamed::Parsed(Ok(data)) => Try::Done(Ok(data)),
                Streamed::Parsed(Err(error)) => Try::Done(Err(unreadable(status, &error, is_read))),
                Streamed::Cut(error) if is_read && tries < TRIES => {
                    tracing::debug!("YNAB answer cut short: {}", cause(&error));
                    Try::Again
                }
                Streamed::Cut(error) => {
                    Try::Done(Err(self.transport_failure(&error, is_read, tries)))
                }
            };
        }
        let retry_after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        // An error's body is small: read whole.
        let text = match response.text().await {
            Ok(text) => text,
            Err(error) if is_read && tries < TRIES => {
                tracing::debug!("YNAB answer cut short: {}", cause(&error));
                return Try::Again;
            }
            Err(error) => return Try::Done(Err(self.transport_failure(&error, is_read, tries))),
        };
        Try::Done(self.answer(status, &text, retry_after.as_deref(), token, is_read))
    }

    fn transport_failure(&self, error: &reqwest::Error, is_read: bool, tries: u32) -> Error {
        if is_read || error.is_connect() {
            Error::Unreachable {
                attempts: tries,
                cause: cause(error),
            }
        } else {
            Error::MaybeApplied {
                cause: cause(error),
            }
        }
    }

    /// The error an answer other than 2xx stands for.
    fn answer<T>(
        &self,
        status: u16,
        text: &str,
        retry_after: Option<&str>,
        token: &crate::config::Token,
        is_read: bool,
    ) -> Result<T, Error> {
        match status {
            401 => Err(match &self.token {
                TokenSource::Provided(provider) => provider.unauthorized(),
                _ => Error::Unauthorized,
            }),
            429 => {
                let seconds = pause_seconds(retry_after);
                self.pacer.pause(token, seconds);
                Err(Error::TooManyRequests(seconds))
            }
            _ => {
                let body = serde_json::from_str::<serde_json::Value>(text).ok();
                let error = body.as_ref().and_then(|json| json.get("error"));
                let detail = match (&body, error) {
                    (Some(_), Some(error)) => error
                        .get("detail")
                        .and_then(|d| d.as_str())
                        .unwrap_or("")
                        .to_string(),
                    (Some(_), None) => String::new(),
                    (None, _) => shortened(text.trim()),
                };
                // A change answered 5xx may have been applied: YNAB did not say it failed,
                // unless its own error body names a refusal (a 4xx id) (D14,
                // `docs/contract/server.md` §10.10).
                let refused = error
                    .and_then(|e| e.get("id"))
                    .and_then(|id| id.as_str())
                    .is_some_and(|id| id.starts_with('4'));
                if !is_read && status >= 500 && !refused {
                    Err(Error::NotConfirmed { status, detail })
                } else {
                    Err(Error::Status { status, detail })
                }
            }
        }
    }
}

/// What one try came to.
enum Try<T> {
    /// The request's outcome: no further try.
    Done(Result<T, Error>),
    /// Try again after the backoff.
    Again,
}
