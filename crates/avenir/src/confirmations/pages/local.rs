//! The local server's confirmation page, for clients that declare URL-mode elicitation: the
//! person reads the preview and answers yes or no in their browser, outside the client and out of
//! the model's reach. Each write gets a page at an unguessable, single-use path on the loopback
//! interface (32 random bytes); the server listening there starts with the first page and stops
//! when no page is pending. The page shows the preview escaped, may not be framed, and takes one
//! answer, carried with a second random token the page alone holds (a request that did not read
//! the page cannot answer it) from the page's own origin. The write that opened it waits for the
//! answer and then re-checks the plan like every other answer.

use crate::text::html_escape;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use subtle::ConstantTimeEq;
use tokio::sync::oneshot;

/// The pages pending in one process, and the loopback server that serves them while any is.
#[derive(Debug, Default)]
pub struct Pages {
    state: Mutex<PagesState>,
}

#[derive(Debug, Default)]
struct PagesState {
    pending: HashMap<String, Pending>,
    server: Option<Serving>,
}

#[derive(Debug)]
struct Pending {
    question: String,
    /// The token the page's form carries back.
    form: String,
    waiter: Waiter,
    opened: std::time::Instant,
}

/// Who learns the answer.
#[derive(Debug)]
enum Waiter {
    /// The call that opened the page waits for it (2025-11-25: the question is in the call).
    Call(oneshot::Sender<bool>),
    /// It is kept until the client's next call takes it (2026-07-28's round trip), under the
    /// sealed state's nonce.
    Recorded { key: String, answer: Option<bool> },
}

/// How long a page waits for its answer, or for a recorded answer to be taken.
const PAGE_LIFETIME: std::time::Duration = std::time::Duration::from_secs(600);

#[derive(Debug)]
struct Serving {
    base: String,
    stop: oneshot::Sender<()>,
}

/// A page opened for one write.
#[derive(Debug)]
pub struct Opened {
    pub url: String,
    /// The elicitation's id (not the page's token).
    pub elicitation_id: String,
    /// Closes the page: pass it to [`Pages::close`].
    pub token: String,
    /// The person's answer: `true` for yes.
    pub answer: oneshot::Receiver<bool>,
}

/// The page could not be served.
#[derive(Debug, thiserror::Error)]
#[error("the confirmation page could not be served on the loopback interface: {0}")]
pub struct PageError(#[from] std::io::Error);

impl Pages {
    /// A page showing `question`, the server started if none is running.
    pub async fn open(self: &Arc<Self>, question: &str) -> Result<Opened, PageError> {
        let base = self.serving().await?;
        let (answer, receiver) = oneshot::channel();
        let token = self.insert(question, Waiter::Call(answer));
        Ok(Opened {
            url: format!("{base}/confirm/{token}"),
            elicitation_id: crate::random::base64url::<16>(),
            token,
            answer: receiver,
        })
    }

    /// A page whose answer is kept under `key` until [`Pages::take`]: its URL.
    pub async fn open_recorded(
        self: &Arc<Self>,
        question: &str,
        key: &str,
    ) -> Result<String, PageError> {
        let base = self.serving().await?;
        let recorded = Waiter::Recorded {
            key: key.to_string(),
            answer: None,
        };
        let token = self.insert(question, recorded);
        // A client that never comes back for the answer: the page (and with the last one, the
        // server) is closed when its lifetime ends.
        let (pages, expiring) = (Arc::clone(self), token.clone());
        tokio::spawn(async move {
            tokio::time::sleep(PAGE_LIFETIME).await;
            pages.close(&expiring);
        });
        Ok(format!("{base}/confirm/{token}"))
    }

    /// The answer kept under `key`: `None` when no such page is open (expired, or taken),
    /// `Some(None)` while the person has not answered, `Some(Some(yes))` once they did — then the
    /// page is closed.
    pub fn take(&self, key: &str) -> Option<Option<bool>> {
        let (token, answer) = self.recorded(key)?;
        if answer.is_some() {
            self.close(&token);
        }
        Some(answer)
    }

    /// Close the page kept under `key`, answered or not (the person declined in the client).
    pub fn forget(&self, key: &str) {
        if let Some((token, _)) = self.recorded(key) {
            self.close(&token);
        }
    }

    /// The URL of the page kept under `key`, while it is open and unanswered.
    pub fn url_of(&self, key: &str) -> Option<String> {
        let (token, None) = self.recorded(key)? else {
            return None;
        };
        let base = self.lock().server.as_ref()?.base.clone();
        Some(format!("{base}/confirm/{token}"))
    }

    /// The token and the answer so far of the page kept under `key`.
    fn recorded(&self, key: &str) -> Option<(String, Option<bool>)> {
        let state = self.lock();
        state.pending.iter().find_map(|(token, p)| match &p.waiter {
            Waiter::Recorded { key: k, answer } if k == key => Some((token.clone(), *answer)),
            _ => None,
        })
    }

    /// A new page's token; pages past their lifetime are forgotten first.
    fn insert(&self, question: &str, waiter: Waiter) -> String {
        let token = crate::random::base64url::<32>();
        let pending = Pending {
            question: question.to_string(),
            form: crate::random::base64url::<32>(),
            waiter,
            opened: std::time::Instant::now(),
        };
        let mut state = self.lock();
        state
            .pending
            .retain(|_, p| p.opened.elapsed() < PAGE_LIFETIME);
        state.pending.insert(token.clone(), pending);
        token
    }

    /// Forget the page (answered, refused or given up); the server stops with the last one.
    pub fn close(&self, token: &str) {
        let mut state = self.lock();
        state.pending.remove(token);
        if state.pending.is_empty()
            && let Some(serving) = state.server.take()
        {
            let _ = serving.stop.send(());
        }
    }

    fn lock(&self) -> MutexGuard<'_, PagesState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The running server's origin, starting one on a free loopback port if needed.
    async fn serving(self: &Arc<Self>) -> Result<String, PageError> {
        if let Some(serving) = &self.lock().server {
            return Ok(serving.base.clone());
        }
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
        let base = format!("http://127.0.0.1:{}", listener.local_addr()?.port());
        let mut state = self.lock();
        if let Some(serving) = &state.server {
            // Another write started one meanwhile: this listener is dropped.
            return Ok(serving.base.clone());
        }
        let (stop, stopped) = oneshot::channel::<()>();
        let app = axum::Router::new()
            .route("/confirm/{token}", get(show).post(answer))
            .with_state(Arc::clone(self));
        tokio::spawn(async move {
            let shutdown = async {
                let _ = stopped.await;
            };
            if let Err(error) = axum::serve(listener, app)
                .with_graceful_shutdown(shutdown)
                .await
            {
                tracing::warn!("the confirmation page's server stopped: {error}");
            }
        });
        state.server = Some(Serving {
            base: base.clone(),
            stop,
        });
        Ok(base)
    }
}

/// `GET /confirm/{token}`: the preview with yes and no.
async fn show(State(pages): State<Arc<Pages>>, Path(token): Path<String>) -> Response {
    let state = pages.lock();
    let open = |p: &&Pending| {
        !matches!(
            p.waiter,
            Waiter::Recorded {
                answer: Some(_),
                ..
            }
        )
    };
    let Some(pending) = state.pending.get(&token).filter(open) else {
        return page(StatusCode::NOT_FOUND, GONE_TITLE, GONE);
    };
    let body = format!(
        "<pre>{}</pre>\n<form method=\"post\">\n<input type=\"hidden\" name=\"form\" value=\"{}\">\n<button name=\"answer\" value=\"yes\">Yes, apply these changes</button>\n<button name=\"answer\" value=\"no\">No, change nothing</button>\n</form>",
        html_escape(&pending.question),
        html_escape(&pending.form)
    );
    page(StatusCode::OK, "Confirm a change to your YNAB plan", &body)
}

/// `POST /confirm/{token}`: the person's answer, once, with the page's own form token.
async fn answer(
    State(pages): State<Arc<Pages>>,
    Path(token): Path<String>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let from_the_page = match headers.get(header::ORIGIN).map(HeaderValue::to_str) {
        None => true,
        Some(Ok(origin)) => headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .is_some_and(|host| origin == format!("http://{host}")),
        Some(Err(_)) => false,
    };
    let fields = form_fields(&body);
    let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v);
    let yes = match field("answer").map(String::as_str) {
        Some("yes") => true,
        Some("no") => false,
        _ => return page(StatusCode::BAD_REQUEST, REFUSED_TITLE, REFUSED),
    };
    let mut state = pages.lock();
    let open = |p: &&mut Pending| {
        !matches!(
            p.waiter,
            Waiter::Recorded {
                answer: Some(_),
                ..
            }
        )
    };
    let Some(pending) = state.pending.get_mut(&token).filter(open) else {
        return page(StatusCode::NOT_FOUND, GONE_TITLE, GONE);
    };
    let presented = field("form").map(String::as_bytes).unwrap_or_default();
    let matches: bool = presented.ct_eq(pending.form.as_bytes()).into();
    if !from_the_page || !matches {
        return page(StatusCode::FORBIDDEN, REFUSED_TITLE, REFUSED);
    }
    if let Waiter::Recorded { answer, .. } = &mut pending.waiter {
        *answer = Some(yes);
    } else if let Some(Pending {
        waiter: Waiter::Call(waiting),
        ..
    }) = state.pending.remove(&token)
    {
        let _ = waiting.send(yes);
    }
    let said = if yes {
        "Your yes was sent: the change is checked against your plan once more, then applied. You can close this page."
    } else {
        "Your no was sent: nothing changes. You can close this page."
    };
    page(StatusCode::OK, "Answer received", said)
}

/// `application/x-www-form-urlencoded` pairs.
fn form_fields(body: &str) -> Vec<(String, String)> {
    serde_urlencoded::from_str(body).unwrap_or_default()
}

const GONE_TITLE: &str = "This confirmation page is no longer open";
const GONE: &str = "It was answered already, or the request that opened it ended. Nothing is asked here any more: ask your assistant for a new preview.";
const REFUSED_TITLE: &str = "Answer refused";
const REFUSED: &str = "This answer did not come from the confirmation page itself: nothing was changed. Open the page's link again and answer there.";

/// A page of this server, never framed, cached or referred.
fn page(status: StatusCode, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{title}</title><style>body{{font-family:sans-serif;max-width:40em;margin:2em auto;padding:0 1em}}pre{{white-space:pre-wrap}}button{{margin:.5em .5em 0 0;padding:.5em 1em}}</style></head>\n<body><h1>{title}</h1>\n{body}\n</body></html>\n",
        title = html_escape(title)
    );
    let headers = [
        (header::CONTENT_TYPE, "text/html; charset=utf-8"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
        ),
        (header::CACHE_CONTROL, "no-store"),
        // Not `no-referrer`: with it a browser sends `Origin: null` on the form's own POST. The
        // page links nowhere, so its token path reaches no other site either way.
        (header::REFERRER_POLICY, "same-origin"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    ];
    (status, headers, html).into_response()
}
