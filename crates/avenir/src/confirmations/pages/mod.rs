//! The confirmation page: the person reads a write's preview and answers yes or no in their
//! browser, outside the client and out of the model's reach. The local server serves it on the
//! loopback interface (`local`), to clients that declare URL-mode elicitation; the hosted server
//! under its public URL (`hosted`), to the person's own browser session only, and there also to
//! clients that cannot ask when a code may not confirm the write (the answer names the page).
//!
//! Either way a page is kept under a key (a sealed state's nonce, or the digest of a call) with
//! the fingerprint of the subject it shows; the write that opened it takes the answer and, like
//! every other answer, applies a yes only to that fingerprint. This module holds what both
//! share: the host a write opens pages on, and the HTML of the pages.

pub mod hosted;
pub mod local;

use crate::text::html_escape;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// How long a page waits for its answer, or a kept answer for the write to take it.
pub const PAGE_LIFETIME: std::time::Duration = std::time::Duration::from_secs(600);

/// Where this process opens confirmation pages.
#[derive(Debug, Clone)]
pub enum PageHost {
    /// On the loopback interface: the local server.
    Local(Arc<local::Pages>),
    /// Under the hosted server's public URL, kept in its database for every instance.
    Hosted(hosted::HostedPages),
}

/// A page as the write that opened it sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageState {
    pub url: String,
    /// `None` while the person has not answered.
    pub answer: Option<bool>,
    /// The fingerprint of the subject the page shows.
    pub fingerprint: String,
}

/// A page could not be opened, or its answer not read.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    #[error("the confirmation page could not be served on the loopback interface: {0}")]
    Loopback(#[from] std::io::Error),
    #[error("the confirmation page could not be kept: {0}")]
    Store(#[from] crate::store::shared::StoreError),
    #[error("the confirmation page's store stopped: {0}")]
    Stopped(#[from] tokio::task::JoinError),
}

impl PageHost {
    /// Open a page showing `question` for the subject `fingerprint`, its answer kept under `key`
    /// (a page already kept under it is replaced): the page's URL.
    pub async fn open(&self, question: &str, key: &str, fp: &str) -> Result<String, PageError> {
        match self {
            PageHost::Local(pages) => Ok(pages.open(question, key, fp).await?),
            PageHost::Hosted(pages) => pages.open(question, key, fp).await,
        }
    }

    /// The page kept under `key`, if one is.
    pub async fn state(&self, key: &str) -> Result<Option<PageState>, PageError> {
        match self {
            PageHost::Local(pages) => Ok(pages.state(key)),
            PageHost::Hosted(pages) => pages.state(key).await,
        }
    }

    /// The person's answer on the page kept under `key`, waiting for it at most `timeout`;
    /// `None` when none came (or the page closed).
    pub async fn wait(&self, key: &str, timeout: std::time::Duration) -> Option<bool> {
        match self {
            PageHost::Local(pages) => pages.wait(key, timeout).await,
            PageHost::Hosted(pages) => pages.wait(key, timeout).await,
        }
    }

    /// Forget the page kept under `key`, answered or not.
    pub async fn close(&self, key: &str) {
        match self {
            PageHost::Local(pages) => pages.close(key),
            PageHost::Hosted(pages) => pages.close(key).await,
        }
    }

    /// The hosted server's list of the person's open pages (`None` locally, where a page is
    /// reached only through the client).
    pub fn list_url(&self) -> Option<String> {
        match self {
            PageHost::Local(_) => None,
            PageHost::Hosted(pages) => Some(pages.list_url()),
        }
    }
}

pub const GONE_TITLE: &str = "This confirmation page is no longer open";
pub const GONE: &str = "It was answered already, or the request that opened it ended. Nothing is asked here any more: ask your assistant for a new preview.";
pub const REFUSED_TITLE: &str = "Answer refused";
pub const REFUSED: &str = "This answer did not come from the confirmation page itself: nothing was changed. Open the page's link again and answer there.";

/// The page that asks: the preview, escaped, and the two answers, carrying the form's token.
pub fn question_page(question: &str, form: &str) -> Response {
    let body = format!(
        "<pre>{}</pre>\n<form method=\"post\">\n<input type=\"hidden\" name=\"form\" value=\"{}\">\n<button name=\"answer\" value=\"yes\">Yes, apply these changes</button>\n<button name=\"answer\" value=\"no\">No, change nothing</button>\n</form>",
        html_escape(question),
        html_escape(form)
    );
    page(StatusCode::OK, "Confirm a change to your YNAB plan", &body)
}

/// The page's answer (`answer=yes|no`) and the form token it carried; `None` when the body
/// is not that.
pub fn read_answer_form(body: &str) -> Option<(bool, String)> {
    let fields: Vec<(String, String)> = serde_urlencoded::from_str(body).ok()?;
    let field = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v);
    let yes = match field("answer")?.as_str() {
        "yes" => true,
        "no" => false,
        _ => return None,
    };
    Some((yes, field("form").cloned().unwrap_or_default()))
}

/// The page that says the answer was taken.
pub fn said(yes: bool) -> Response {
    let text = if yes {
        "Your yes was sent: the change is checked against your plan once more, then applied. You can close this page."
    } else {
        "Your no was sent: nothing changes. You can close this page."
    };
    page(StatusCode::OK, "Answer received", text)
}

/// A page of this server, never framed, cached or referred. `body` is HTML the caller built
/// (escaping what it shows); the title is escaped here.
pub fn page(status: StatusCode, title: &str, body: &str) -> Response {
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
        // page links nowhere else, so its token path reaches no other site either way.
        (header::REFERRER_POLICY, "same-origin"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    ];
    (status, headers, html).into_response()
}
