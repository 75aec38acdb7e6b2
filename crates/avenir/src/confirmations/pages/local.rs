//! The local server's confirmation pages: each one at an unguessable, single-use path on the
//! loopback interface (32 random bytes), served by a server that starts with the first page and
//! stops when no page is open. A page's answer is kept under the key it was opened with until
//! the write that asked for it takes it.

use super::{GONE, GONE_TITLE, PAGE_LIFETIME, PageState, REFUSED, REFUSED_TITLE, page, said};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use axum::routing::get;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use subtle::ConstantTimeEq;
use tokio::sync::{Notify, oneshot};

/// The pages open in one process, and the loopback server that serves them while any is.
#[derive(Debug, Default)]
pub struct Pages {
    state: Mutex<PagesState>,
    /// Woken whenever a page is answered.
    answered: Notify,
}

#[derive(Debug, Default)]
struct PagesState {
    /// By the page's token.
    open: HashMap<String, Open>,
    server: Option<Serving>,
}

#[derive(Debug)]
struct Open {
    key: String,
    question: String,
    /// The token the page's form carries back.
    form: String,
    fingerprint: String,
    answer: Option<bool>,
}

#[derive(Debug)]
struct Serving {
    base: String,
    stop: oneshot::Sender<()>,
}

impl Pages {
    /// Open a page showing `question` whose answer is kept under `key` (replacing a page kept
    /// under it): its URL. The page closes itself when its lifetime ends.
    pub async fn open(
        self: &Arc<Self>,
        question: &str,
        key: &str,
        fingerprint: &str,
    ) -> Result<String, std::io::Error> {
        let base = self.serving().await?;
        let token = crate::random::base64url::<32>();
        let open = Open {
            key: key.to_string(),
            question: question.to_string(),
            form: crate::random::base64url::<32>(),
            fingerprint: fingerprint.to_string(),
            answer: None,
        };
        {
            let mut state = self.lock();
            state.open.retain(|_, o| o.key != key);
            state.open.insert(token.clone(), open);
        }
        let (pages, expiring) = (Arc::clone(self), token.clone());
        tokio::spawn(async move {
            tokio::time::sleep(PAGE_LIFETIME).await;
            pages.remove(|token, _| *token == expiring);
        });
        Ok(format!("{base}/confirm/{token}"))
    }

    /// The page kept under `key`, if it is open.
    pub fn state(&self, key: &str) -> Option<PageState> {
        let state = self.lock();
        let base = &state.server.as_ref()?.base;
        state
            .open
            .iter()
            .find(|(_, o)| o.key == key)
            .map(|(token, o)| PageState {
                url: format!("{base}/confirm/{token}"),
                answer: o.answer,
                fingerprint: o.fingerprint.clone(),
            })
    }

    /// The answer to the page kept under `key`, once given, waiting at most `timeout`.
    pub async fn wait(&self, key: &str, timeout: std::time::Duration) -> Option<bool> {
        let waiting = async {
            loop {
                let answered = self.answered.notified();
                match self.state(key) {
                    None => return None,
                    Some(PageState {
                        answer: Some(yes), ..
                    }) => return Some(yes),
                    Some(_) => answered.await,
                }
            }
        };
        tokio::time::timeout(timeout, waiting).await.ok().flatten()
    }

    /// Forget the page kept under `key`.
    pub fn close(&self, key: &str) {
        self.remove(|_, open| open.key == key);
    }

    /// Forget the pages `closing` picks; the server stops with the last page.
    fn remove(&self, closing: impl Fn(&String, &Open) -> bool) {
        let mut state = self.lock();
        state.open.retain(|token, open| !closing(token, open));
        if state.open.is_empty()
            && let Some(serving) = state.server.take()
        {
            let _ = serving.stop.send(());
        }
        drop(state);
        // A waiter on this page learns it closed.
        self.answered.notify_waiters();
    }

    fn lock(&self) -> MutexGuard<'_, PagesState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The running server's origin, starting one on a free loopback port if needed.
    async fn serving(self: &Arc<Self>) -> Result<String, std::io::Error> {
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

/// `GET /confirm/{token}`: the preview with yes and no, while unanswered.
async fn show(State(pages): State<Arc<Pages>>, Path(token): Path<String>) -> Response {
    let state = pages.lock();
    match state.open.get(&token).filter(|o| o.answer.is_none()) {
        Some(open) => super::question_page(&open.question, &open.form),
        None => page(StatusCode::NOT_FOUND, GONE_TITLE, GONE),
    }
}

/// `POST /confirm/{token}`: the person's answer, once, with the page's own form token, from the
/// page's own origin.
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
    let Some((yes, form)) = super::read_answer_form(&body) else {
        return page(StatusCode::BAD_REQUEST, REFUSED_TITLE, REFUSED);
    };
    let mut state = pages.lock();
    let Some(open) = state.open.get_mut(&token).filter(|o| o.answer.is_none()) else {
        return page(StatusCode::NOT_FOUND, GONE_TITLE, GONE);
    };
    let matches: bool = form.as_bytes().ct_eq(open.form.as_bytes()).into();
    if !from_the_page || !matches {
        return page(StatusCode::FORBIDDEN, REFUSED_TITLE, REFUSED);
    }
    open.answer = Some(yes);
    drop(state);
    pages.answered.notify_waiters();
    said(yes)
}
