//! The HTTP client: one connection pool, the checks every request passes (path segments, base
//! URL, token, pause), retries that never repeat a write blindly, and YNAB's error mapping.

use crate::config::{BaseUrl, Token, TokenSource};
use crate::error::Error;
use crate::models::*;
use crate::pacing::Pacer;
use crate::writes::*;
use reqwest::Method;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::cell::Cell;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Tries in all for one request, the first included (`server.md` §5.5).
const TRIES: u32 = 3;

/// A client of YNAB's API v1 (or of the sandbox, which speaks it).
///
/// Cheap to share behind an `Arc`: it holds one connection pool for the life of the process.
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

impl Client {
    /// A client for `base` that takes its token from `token`, paced in memory at the default
    /// budget (use [`Client::with_pacer`] to share a ledger with other processes). Fails, with a
    /// sentence saying so, when the HTTP client cannot start (its TLS backend): never a default
    /// client, which would follow redirects and wait forever.
    pub fn new(base: BaseUrl, token: TokenSource) -> Result<Self, Error> {
        let mut builder = crate::tls::http_client_builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(10))
            .read_timeout(Duration::from_secs(30))
            .user_agent(concat!("avenir-mcp/", env!("CARGO_PKG_VERSION")));
        if base.is_loopback() {
            builder = builder.no_proxy();
        }
        let http = builder
            .build()
            .map_err(|e| Error::ClientSetup(e.to_string()))?;
        Ok(Client {
            http,
            base,
            token,
            pacer: Pacer::memory(crate::pacing::DEFAULT_BUDGET),
            sent: AtomicU64::new(0),
            answer_timeout: None,
        })
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

    // ---- typed operations -------------------------------------------------------------------

    /// `GET /plans`: the plans the token can read.
    pub async fn plans(&self) -> Result<Vec<PlanSummary>, Error> {
        #[derive(Deserialize)]
        struct Data {
            plans: Vec<PlanSummary>,
        }
        let data: Data = self.get(&["plans"], &[]).await?;
        Ok(data.plans)
    }

    /// `GET /plans/{plan_id}`: the full plan export, or its delta after `last_knowledge`.
    pub async fn plan(
        &self,
        plan_id: &str,
        last_knowledge: Option<i64>,
    ) -> Result<(PlanDetail, i64), Error> {
        #[derive(Deserialize)]
        struct Data {
            plan: PlanDetail,
            server_knowledge: i64,
        }
        let query = knowledge_query(last_knowledge);
        let data: Data = self.get(&["plans", plan_id], &query).await?;
        Ok((data.plan, data.server_knowledge))
    }

    /// `GET /plans/{plan_id}/settings`: the date and currency formats.
    pub async fn plan_settings(&self, plan_id: &str) -> Result<PlanSettings, Error> {
        #[derive(Deserialize)]
        struct Data {
            settings: PlanSettings,
        }
        let data: Data = self.get(&["plans", plan_id, "settings"], &[]).await?;
        Ok(data.settings)
    }

    /// `GET /plans/{plan_id}/accounts`.
    pub async fn accounts(&self, plan_id: &str) -> Result<Vec<Account>, Error> {
        #[derive(Deserialize)]
        struct Data {
            accounts: Vec<Account>,
        }
        let data: Data = self.get(&["plans", plan_id, "accounts"], &[]).await?;
        Ok(data.accounts)
    }

    /// `GET /plans/{plan_id}/categories`: groups with their categories (current month's figures).
    pub async fn categories(
        &self,
        plan_id: &str,
    ) -> Result<Vec<CategoryGroupWithCategories>, Error> {
        #[derive(Deserialize)]
        struct Data {
            category_groups: Vec<CategoryGroupWithCategories>,
        }
        let data: Data = self.get(&["plans", plan_id, "categories"], &[]).await?;
        Ok(data.category_groups)
    }

    /// `GET /plans/{plan_id}/payees`.
    pub async fn payees(&self, plan_id: &str) -> Result<Vec<Payee>, Error> {
        #[derive(Deserialize)]
        struct Data {
            payees: Vec<Payee>,
        }
        let data: Data = self.get(&["plans", plan_id, "payees"], &[]).await?;
        Ok(data.payees)
    }

    /// `GET /plans/{plan_id}/transactions`, with YNAB's filters.
    pub async fn transactions(
        &self,
        plan_id: &str,
        filter: &TransactionFilter,
    ) -> Result<(Vec<Transaction>, i64), Error> {
        #[derive(Deserialize)]
        struct Data {
            transactions: Vec<Transaction>,
            #[serde(default)]
            server_knowledge: i64,
        }
        let mut query = knowledge_query(filter.last_knowledge);
        if let Some(since) = &filter.since_date {
            query.push(("since_date", since.clone()));
        }
        if let Some(kind) = &filter.kind {
            query.push(("type", kind.clone()));
        }
        let data: Data = self
            .get(&["plans", plan_id, "transactions"], &query)
            .await?;
        Ok((data.transactions, data.server_knowledge))
    }

    /// `GET /plans/{plan_id}/scheduled_transactions`.
    pub async fn scheduled_transactions(
        &self,
        plan_id: &str,
    ) -> Result<Vec<ScheduledTransaction>, Error> {
        #[derive(Deserialize)]
        struct Data {
            scheduled_transactions: Vec<ScheduledTransaction>,
        }
        let data: Data = self
            .get(&["plans", plan_id, "scheduled_transactions"], &[])
            .await?;
        Ok(data.scheduled_transactions)
    }

    /// `GET /plans/{plan_id}/scheduled_transactions?last_knowledge_of_server=…`: the schedules
    /// changed since `knowledge`, deleted ones included (tombstones), and the knowledge now.
    pub async fn scheduled_transactions_since(
        &self,
        plan_id: &str,
        knowledge: i64,
    ) -> Result<(Vec<ScheduledTransaction>, i64), Error> {
        #[derive(Deserialize)]
        struct Data {
            scheduled_transactions: Vec<ScheduledTransaction>,
            #[serde(default)]
            server_knowledge: i64,
        }
        let query = knowledge_query(Some(knowledge));
        let data: Data = self
            .get(&["plans", plan_id, "scheduled_transactions"], &query)
            .await?;
        Ok((data.scheduled_transactions, data.server_knowledge))
    }

    /// `GET /plans/{plan_id}/months`: every month's totals (no categories).
    pub async fn months(&self, plan_id: &str) -> Result<Vec<Month>, Error> {
        #[derive(Deserialize)]
        struct Data {
            months: Vec<Month>,
        }
        let data: Data = self.get(&["plans", plan_id, "months"], &[]).await?;
        Ok(data.months)
    }

    /// `GET /plans/{plan_id}/months/{month}`: one month with its categories.
    pub async fn month(&self, plan_id: &str, month: &str) -> Result<Month, Error> {
        #[derive(Deserialize)]
        struct Data {
            month: Month,
        }
        let data: Data = self.get(&["plans", plan_id, "months", month], &[]).await?;
        Ok(data.month)
    }

    // ---- writes -------------------------------------------------------------------------------

    /// `PATCH /plans/{plan_id}/months/{month}/categories/{category_id}`: set the assigned amount.
    pub async fn set_assigned(
        &self,
        plan_id: &str,
        month: &str,
        category_id: &str,
        budgeted: Milliunits,
    ) -> Result<SavedCategory, Error> {
        let body = serde_json::json!({"category": {"budgeted": budgeted}});
        self.request(
            Method::PATCH,
            &["plans", plan_id, "months", month, "categories", category_id],
            &[],
            Some(&body),
        )
        .await
    }

    /// `POST /plans/{plan_id}/categories`: create a category.
    pub async fn create_category(
        &self,
        plan_id: &str,
        category: &CategoryChange,
    ) -> Result<SavedCategory, Error> {
        let body = serde_json::json!({ "category": category });
        self.request(
            Method::POST,
            &["plans", plan_id, "categories"],
            &[],
            Some(&body),
        )
        .await
    }

    /// `PATCH /plans/{plan_id}/categories/{category_id}`: rename, move, note, target.
    pub async fn update_category(
        &self,
        plan_id: &str,
        category_id: &str,
        change: &CategoryChange,
    ) -> Result<SavedCategory, Error> {
        let body = serde_json::json!({ "category": change });
        self.request(
            Method::PATCH,
            &["plans", plan_id, "categories", category_id],
            &[],
            Some(&body),
        )
        .await
    }

    /// `POST /plans/{plan_id}/accounts`: create an unlinked account (`kind` one of YNAB's
    /// `SaveAccountType`s) with its starting balance in milliunits.
    pub async fn create_account(
        &self,
        plan_id: &str,
        name: &str,
        kind: &str,
        balance: Milliunits,
    ) -> Result<crate::writes::SavedAccount, Error> {
        let body = serde_json::json!({"account": {"name": name, "type": kind, "balance": balance}});
        self.request(
            Method::POST,
            &["plans", plan_id, "accounts"],
            &[],
            Some(&body),
        )
        .await
    }

    /// `POST /plans/{plan_id}/transactions`: create transactions in one request.
    pub async fn create_transactions(
        &self,
        plan_id: &str,
        transactions: &[NewTransaction],
    ) -> Result<SavedTransactions, Error> {
        let body = serde_json::json!({ "transactions": transactions });
        self.request(
            Method::POST,
            &["plans", plan_id, "transactions"],
            &[],
            Some(&body),
        )
        .await
    }

    /// `PATCH /plans/{plan_id}/transactions`: update any number of transactions in one request.
    pub async fn update_transactions(
        &self,
        plan_id: &str,
        updates: &[TransactionUpdate],
    ) -> Result<SavedTransactions, Error> {
        let body = serde_json::json!({ "transactions": updates });
        self.request(
            Method::PATCH,
            &["plans", plan_id, "transactions"],
            &[],
            Some(&body),
        )
        .await
    }

    /// `DELETE /plans/{plan_id}/transactions/{transaction_id}`.
    pub async fn delete_transaction(
        &self,
        plan_id: &str,
        transaction_id: &str,
    ) -> Result<SavedTransactions, Error> {
        self.request(
            Method::DELETE,
            &["plans", plan_id, "transactions", transaction_id],
            &[],
            None,
        )
        .await
    }

    /// `POST /plans/{plan_id}/scheduled_transactions`: create one scheduled transaction.
    pub async fn create_scheduled_transaction(
        &self,
        plan_id: &str,
        save: &ScheduleSave,
    ) -> Result<SavedSchedule, Error> {
        let body = serde_json::json!({ "scheduled_transaction": save });
        self.request(
            Method::POST,
            &["plans", plan_id, "scheduled_transactions"],
            &[],
            Some(&body),
        )
        .await
    }

    /// `PUT /plans/{plan_id}/scheduled_transactions/{id}`: replace the whole schedule (every
    /// field of `save` is sent; none is left as it was).
    pub async fn update_scheduled_transaction(
        &self,
        plan_id: &str,
        scheduled_transaction_id: &str,
        save: &ScheduleSave,
    ) -> Result<SavedSchedule, Error> {
        let body = serde_json::json!({ "scheduled_transaction": save });
        self.request(
            Method::PUT,
            &[
                "plans",
                plan_id,
                "scheduled_transactions",
                scheduled_transaction_id,
            ],
            &[],
            Some(&body),
        )
        .await
    }

    /// `DELETE /plans/{plan_id}/scheduled_transactions/{id}`.
    pub async fn delete_scheduled_transaction(
        &self,
        plan_id: &str,
        scheduled_transaction_id: &str,
    ) -> Result<SavedSchedule, Error> {
        self.request(
            Method::DELETE,
            &[
                "plans",
                plan_id,
                "scheduled_transactions",
                scheduled_transaction_id,
            ],
            &[],
            None,
        )
        .await
    }

    /// `POST /plans/{plan_id}/transactions/import`: ask YNAB to import from linked banks.
    pub async fn import_transactions(&self, plan_id: &str) -> Result<Vec<String>, Error> {
        #[derive(Deserialize)]
        struct Data {
            #[serde(default)]
            transaction_ids: Vec<String>,
        }
        let data: Data = self
            .request(
                Method::POST,
                &["plans", plan_id, "transactions", "import"],
                &[],
                None,
            )
            .await?;
        Ok(data.transaction_ids)
    }

    /// `PATCH /plans/{plan_id}/payees/{payee_id}`: rename a payee.
    pub async fn rename_payee(
        &self,
        plan_id: &str,
        payee_id: &str,
        name: &str,
    ) -> Result<SavedPayee, Error> {
        let body = serde_json::json!({"payee": {"name": name}});
        self.request(
            Method::PATCH,
            &["plans", plan_id, "payees", payee_id],
            &[],
            Some(&body),
        )
        .await
    }

    /// `POST /plans/{plan_id}/payees`: create a payee by name.
    pub async fn create_payee(&self, plan_id: &str, name: &str) -> Result<SavedPayee, Error> {
        let body = serde_json::json!({"payee": {"name": name}});
        self.request(
            Method::POST,
            &["plans", plan_id, "payees"],
            &[],
            Some(&body),
        )
        .await
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

    /// One request with YNAB's rules: checks in the order of `server.md` §5.2 (path segments,
    /// base URL, token, pause), then up to three tries where a retry cannot duplicate a change.
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
            let mut request = self
                .http
                .request(method.clone(), &url)
                .bearer_auth(token.expose())
                .query(query);
            if let Some(body) = body {
                request = request.json(body);
            }
            if let Some(timeout) = self.answer_timeout {
                request = request.timeout(timeout);
            }
            // Identifiers only: the path holds ids and months, never names or amounts.
            tracing::info!("YNAB {method} /{} (try {tries})", segments.join("/"));
            self.sent.fetch_add(1, Ordering::Relaxed);
            let _ = CALL_REQUESTS.try_with(|n| n.set(n.get() + 1));
            match request.send().await {
                Ok(response) => {
                    let status = response.status().as_u16();
                    if is_read && matches!(status, 500 | 502 | 503 | 504) && tries < TRIES {
                        backoff(tries).await;
                        continue;
                    }
                    if (200..=299).contains(&status) {
                        // Parsed as it arrives: a plan export is never held whole in memory.
                        match streamed::<T>(response).await {
                            Streamed::Parsed(Ok(data)) => return Ok(data),
                            Streamed::Parsed(Err(error)) => {
                                return Err(unreadable(status, &error, is_read));
                            }
                            Streamed::Cut(error) if is_read && tries < TRIES => {
                                tracing::debug!("YNAB answer cut short: {}", cause(&error));
                                backoff(tries).await;
                                continue;
                            }
                            Streamed::Cut(error) => {
                                return Err(self.transport_failure(&error, is_read, tries));
                            }
                        }
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
                            backoff(tries).await;
                            continue;
                        }
                        Err(error) => return Err(self.transport_failure(&error, is_read, tries)),
                    };
                    return self.answer(status, &text, retry_after.as_deref(), &token, is_read);
                }
                Err(error) => {
                    let never_left = error.is_connect();
                    if (is_read || never_left) && tries < TRIES {
                        backoff(tries).await;
                        continue;
                    }
                    return Err(self.transport_failure(&error, is_read, tries));
                }
            }
        }
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
                // unless its own error body names a refusal (a 4xx id) (D14, `ynab-api.md` §10).
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

/// A 2xx answer whose body could not be read as `{"data": T}`: a read is `NotJson`; a change
/// YNAB accepted but whose answer cannot be read is applied or not, the answer does not say (D14).
fn unreadable(status: u16, error: &str, is_read: bool) -> Error {
    tracing::warn!("YNAB {status}: answer not in the documented shape: {error}");
    if is_read {
        Error::NotJson { status }
    } else {
        Error::NotConfirmed {
            status,
            detail: "its answer could not be read".to_string(),
        }
    }
}

/// What reading a 2xx body into `{"data": T}` came to.
enum Streamed<T> {
    /// The whole body arrived; parsed, or why not.
    Parsed(Result<T, String>),
    /// The body was cut short (a timeout, a dropped connection).
    Cut(reqwest::Error),
}

/// Pieces of the body in flight between the connection and the parser, and their size: a bound
/// on the memory a body takes (256 KiB), whatever its size.
const CHUNKS_IN_FLIGHT: usize = 4;
const PIECE: usize = 64 * 1024;

/// Read `response`'s body chunk by chunk into a JSON parser on a blocking thread, so the body is
/// never held whole (a large plan's export is megabytes). As with a body read whole then parsed,
/// a body cut short is `Cut` even when what came before it was not JSON: once the parser gives
/// up, the rest is still read (and dropped) to see whether it arrives.
async fn streamed<T: DeserializeOwned + Send + 'static>(
    mut response: reqwest::Response,
) -> Streamed<T> {
    #[derive(Deserialize)]
    struct Envelope<T> {
        data: T,
    }
    let (sender, receiver) = tokio::sync::mpsc::channel(CHUNKS_IN_FLIGHT);
    let parser = tokio::task::spawn_blocking(move || {
        let reader = ChunkReader {
            receiver,
            chunk: bytes::Bytes::new(),
        };
        crate::shared::interning(|| crate::stream::from_reader::<Envelope<T>, _>(reader))
            .map(|envelope| envelope.data)
            .map_err(|error| error.to_string())
    });
    let mut sender = Some(sender);
    let total = response.content_length();
    let heard = crate::progress::is_heard();
    let mut received = 0u64;
    let read = loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                received += chunk.len() as u64;
                if heard {
                    crate::progress::report(crate::progress::Progress::Received {
                        bytes: received,
                        total,
                    });
                }
                // Copied out in small pieces, so that the connection's read buffer (hundreds of
                // kilobytes, which a chunk would keep alive while it waits) is free again at once.
                for piece in chunk.chunks(PIECE) {
                    if let Some(to_parser) = &sender
                        && to_parser
                            .send(bytes::Bytes::copy_from_slice(piece))
                            .await
                            .is_err()
                    {
                        // The parser gave up: read on, to tell a bad body from a cut one.
                        sender = None;
                    }
                }
            }
            Ok(None) => break Ok(()),
            Err(error) => break Err(error),
        }
    };
    drop(sender);
    let parsed = parser
        .await
        .unwrap_or_else(|error| Err(format!("the parser stopped: {error}")));
    match read {
        Ok(()) => Streamed::Parsed(parsed),
        Err(error) => Streamed::Cut(error),
    }
}

/// The body's chunks as a `Read`, for the parser's thread; the end of the channel is the end of
/// the body.
struct ChunkReader {
    receiver: tokio::sync::mpsc::Receiver<bytes::Bytes>,
    chunk: bytes::Bytes,
}

impl std::io::Read for ChunkReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let chunk = std::io::BufRead::fill_buf(self)?;
        let n = buf.len().min(chunk.len());
        buf[..n].copy_from_slice(&chunk[..n]);
        std::io::BufRead::consume(self, n);
        Ok(n)
    }
}

/// The chunks are the buffer: the parser reads them where they arrived, no copy between.
impl std::io::BufRead for ChunkReader {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.chunk.is_empty() {
            match self.receiver.blocking_recv() {
                Some(chunk) => self.chunk = chunk,
                None => break,
            }
        }
        Ok(&self.chunk)
    }

    fn consume(&mut self, amount: usize) {
        bytes::Buf::advance(&mut self.chunk, amount);
    }
}

/// A body that is not YNAB's JSON (a proxy's HTML page, say), cut to a sentence's length.
fn shortened(text: &str) -> String {
    const MOST: usize = 200;
    match text.char_indices().nth(MOST) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// Filters of `GET /plans/{plan_id}/transactions`.
#[derive(Debug, Clone, Default)]
pub struct TransactionFilter {
    pub last_knowledge: Option<i64>,
    /// `YYYY-MM-DD`.
    pub since_date: Option<String>,
    /// `uncategorized` or `unapproved`.
    pub kind: Option<String>,
}

fn knowledge_query(last_knowledge: Option<i64>) -> Vec<(&'static str, String)> {
    last_knowledge
        .map(|k| vec![("last_knowledge_of_server", k.to_string())])
        .unwrap_or_default()
}

/// The path-segment guard of `server.md` §5.2: `^[A-Za-z0-9][A-Za-z0-9_-]*$`, ASCII only.
pub fn check_segment(segment: &str) -> Result<(), Error> {
    let mut chars = segment.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphanumeric());
    if first_ok && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        Ok(())
    } else {
        Err(Error::BadSegment(segment.to_string()))
    }
}

/// How long a 429 pauses everything: `Retry-After` seconds or HTTP-date, clamped to
/// [60, 3600]; 600 when absent or unreadable.
pub fn pause_seconds(retry_after: Option<&str>) -> u64 {
    let Some(value) = retry_after.map(str::trim) else {
        return 600;
    };
    if let Ok(seconds) = value.parse::<u64>() {
        return seconds.clamp(60, 3600);
    }
    match httpdate_seconds_from_now(value) {
        Some(seconds) => seconds.clamp(60, 3600),
        None => 600,
    }
}

/// Seconds from now until an HTTP-date (IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, or the
/// obsolete RFC 850 and asctime forms RFC 9110 asks recipients to accept), 0 when past.
fn httpdate_seconds_from_now(value: &str) -> Option<u64> {
    let at = httpdate::parse_http_date(value).ok()?;
    Some(
        at.duration_since(std::time::SystemTime::now())
            .map_or(0, |ahead| ahead.as_secs()),
    )
}

/// `{ErrorKind}: {detail}` for the transport-failure messages.
fn cause(error: &reqwest::Error) -> String {
    let kind = if error.is_connect() && error.is_timeout() {
        "ConnectTimeout"
    } else if error.is_connect() {
        "ConnectError"
    } else if error.is_timeout() {
        "ReadTimeout"
    } else {
        "RemoteProtocolError"
    };
    let mut detail = String::new();
    let mut source = std::error::Error::source(error);
    while let Some(inner) = source {
        detail = inner.to_string();
        source = inner.source();
    }
    if detail.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}: {detail}")
    }
}

/// Full jitter: uniform in [0, 0.5 × 2^(try−1)) seconds.
async fn backoff(tries_done: u32) {
    let ceiling_ms = 500u64 << (tries_done.saturating_sub(1)).min(10);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(tries_done);
    let wait = hasher.finish() % ceiling_ms;
    tokio::time::sleep(Duration::from_millis(wait)).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments() {
        for ok in [
            "last-used",
            "default",
            "2026-09-01",
            "b8498266-6a15-4db1-b7cb-8e7d804711e2",
            "a_b",
        ] {
            assert!(check_segment(ok).is_ok(), "{ok}");
        }
        for bad in ["", ".", "..", "a/b", "a?b", "a%20", "a b", "-x", "é", "_x"] {
            assert_eq!(
                check_segment(bad),
                Err(Error::BadSegment(bad.into())),
                "{bad}"
            );
        }
    }

    #[test]
    fn retry_after() {
        assert_eq!(pause_seconds(None), 600);
        assert_eq!(pause_seconds(Some("5")), 60);
        assert_eq!(pause_seconds(Some("120")), 120);
        assert_eq!(pause_seconds(Some("99999")), 3600);
        assert_eq!(pause_seconds(Some("soon")), 600);
        // a date in the past clamps to the minimum
        assert_eq!(pause_seconds(Some("Sun, 06 Nov 1994 08:49:37 GMT")), 60);
        assert_eq!(pause_seconds(Some("Sun, 06 Nov 1994 08:49:37 PST")), 600);
        // a date 15 minutes ahead pauses about 15 minutes
        let ahead = std::time::SystemTime::now() + std::time::Duration::from_secs(900);
        let paused = pause_seconds(Some(&httpdate::fmt_http_date(ahead)));
        assert!((895..=900).contains(&paused), "{paused}");
    }
}
