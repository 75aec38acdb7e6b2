//! The confirmation pages under the public URL: `/confirm` lists the person's open pages,
//! `/confirm/{token}` shows one preview with yes and no and takes one answer.
//!
//! Only the person's own browser can see or answer them. Signing in (the OAuth sign-in a client
//! starts, on any device) leaves a browser-session cookie: the person id, an expiry, a random
//! session id and an HMAC-SHA256 of them under a key derived from the server key, `HttpOnly` and `SameSite=Lax` (a link
//! followed from a client app still carries it; another site's form does not). A request
//! without it — the MCP access token alone included — is refused with 403; a session of someone
//! else finds no page. An answer must also carry the page's own form token and, when the browser
//! sends an Origin, come from the public origin; pages are never framed or cached
//! (`avenir::confirmations::pages::page`). The page's answer is recorded once in the database,
//! where the write that opened it takes it.

use crate::config::{Clock, PublicUrl};
use crate::db::Db;
use avenir::confirmations::pages::{
    GONE, GONE_TITLE, PAGE_LIFETIME, REFUSED, REFUSED_TITLE, page, question_page, read_answer_form,
    said,
};
use avenir::text::html_escape;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::Response;
use axum::routing::get;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::hmac;
use std::sync::Arc;
use subtle::ConstantTimeEq;

/// The browser-session cookie's name on a loopback http trial.
pub const SESSION_COOKIE: &str = "avenir_session";
/// Its name on an https server: a `__Host-` cookie (`Secure`, `Path=/`, no `Domain`), which no
/// other host of the domain can set or overwrite.
pub const SECURE_SESSION_COOKIE: &str = "__Host-avenir_session";
/// How long a browser session lasts (seconds): as long as a refresh token.
const SESSION_LIFETIME: i64 = 30 * 24 * 3600;

/// Browser sessions: made at sign-in, read by the page routes.
pub struct BrowserSessions {
    key: hmac::Key,
    clock: Clock,
    /// `Secure` on the cookie (an https public URL).
    secure: bool,
}

impl std::fmt::Debug for BrowserSessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BrowserSessions")
            .field("secure", &self.secure)
            .finish()
    }
}

impl BrowserSessions {
    /// Sessions signed with `key` (derived from the server key, so every instance reads every
    /// instance's cookies).
    pub fn new(key: [u8; 32], clock: Clock, public: &PublicUrl) -> Self {
        BrowserSessions {
            key: hmac::Key::new(hmac::HMAC_SHA256, &key),
            clock,
            secure: public.base.starts_with("https://"),
        }
    }

    fn cookie_name(&self) -> &'static str {
        if self.secure {
            SECURE_SESSION_COOKIE
        } else {
            SESSION_COOKIE
        }
    }

    fn signed(person_id: &str, expires: i64, session: &str) -> String {
        format!("avenir-mcp browser session\n{person_id}\n{expires}\n{session}")
    }

    /// The `Set-Cookie` value that opens a session for `person_id` in this browser: the person,
    /// the expiry, a random id of this browser's session, and their tag.
    pub fn cookie_for(&self, person_id: &str) -> String {
        let expires = (self.clock)().saturating_add(SESSION_LIFETIME);
        let session = avenir::random::base64url::<16>();
        let tag = hmac::sign(
            &self.key,
            Self::signed(person_id, expires, &session).as_bytes(),
        );
        let tag = URL_SAFE_NO_PAD.encode(tag);
        let value = format!("{person_id}.{expires}.{session}.{tag}");
        let secure = if self.secure { "; Secure" } else { "" };
        format!(
            "{}={value}; Path=/; Max-Age={SESSION_LIFETIME}; HttpOnly; SameSite=Lax{secure}",
            self.cookie_name()
        )
    }

    /// The person whose unexpired, untampered session `headers` carry.
    pub fn person(&self, headers: &HeaderMap) -> Option<String> {
        let cookies = headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok());
        let value = crate::oauth::logic::cookie_value(cookies, self.cookie_name())?;
        let mut parts = value.splitn(4, '.');
        let (person, expires) = (parts.next()?, parts.next()?);
        let (session, tag) = (parts.next()?, parts.next()?);
        let (expires, tag): (i64, _) = (expires.parse().ok()?, URL_SAFE_NO_PAD.decode(tag).ok()?);
        let signed = Self::signed(person, expires, session);
        hmac::verify(&self.key, signed.as_bytes(), &tag).ok()?;
        ((self.clock)() < expires).then(|| person.to_string())
    }
}

/// What the page routes share.
#[derive(Clone)]
struct Routes {
    db: Db,
    sessions: Arc<BrowserSessions>,
    origin: String,
    clock: Clock,
}

/// `/confirm` and `/confirm/{token}`.
pub fn router(db: Db, sessions: Arc<BrowserSessions>, public: &PublicUrl, clock: Clock) -> Router {
    let routes = Routes {
        db,
        sessions,
        origin: public.origin.clone(),
        clock,
    };
    Router::new()
        .route("/confirm", get(list))
        .route("/confirm/{token}", get(show).post(answer))
        .with_state(routes)
}

const NO_SESSION_TITLE: &str = "Open this page where you signed in";
const NO_SESSION: &str = "Confirmation pages open only in a browser where you signed in to this server. Sign in from your assistant's app on this device (its sign-in opens in this browser), then open the link again.";
const UNAVAILABLE: &str =
    "The confirmation pages cannot be read right now: nothing was changed. Try again in a moment.";

fn no_session() -> Response {
    page(StatusCode::FORBIDDEN, NO_SESSION_TITLE, NO_SESSION)
}

fn unavailable(error: &dyn std::fmt::Display) -> Response {
    tracing::warn!("a confirmation page could not be read: {error}");
    page(StatusCode::SERVICE_UNAVAILABLE, "Try again", UNAVAILABLE)
}

impl Routes {
    /// The oldest opening time of a page still open.
    fn since(&self) -> i64 {
        (self.clock)().saturating_sub(PAGE_LIFETIME.as_secs().cast_signed())
    }
}

/// `GET /confirm`: the person's pages waiting for an answer.
async fn list(State(routes): State<Routes>, headers: HeaderMap) -> Response {
    let Some(person) = routes.sessions.person(&headers) else {
        return no_session();
    };
    let open = match routes.db.open_pages(&person, routes.since()).await {
        Ok(open) => open,
        Err(error) => return unavailable(&error),
    };
    if open.is_empty() {
        return page(
            StatusCode::OK,
            "Your confirmations",
            "Nothing is waiting for your answer.",
        );
    }
    let items: String = open
        .iter()
        .map(|p| {
            let first = p.question.lines().next().unwrap_or_default();
            format!(
                "<li><a href=\"/confirm/{}\">{}</a></li>\n",
                html_escape(&p.token),
                html_escape(first)
            )
        })
        .collect();
    let body = format!("<p>Waiting for your answer:</p>\n<ul>\n{items}</ul>");
    page(StatusCode::OK, "Your confirmations", &body)
}

/// `GET /confirm/{token}`: the preview with yes and no, to its owner, while unanswered.
async fn show(
    State(routes): State<Routes>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Response {
    let Some(person) = routes.sessions.person(&headers) else {
        return no_session();
    };
    match routes.db.page_of(&person, &token).await {
        Ok(Some(p)) if p.answer.is_none() && p.opened_at >= routes.since() => {
            question_page(&p.question, &p.form)
        }
        Ok(_) => page(StatusCode::NOT_FOUND, GONE_TITLE, GONE),
        Err(error) => unavailable(&error),
    }
}

/// `POST /confirm/{token}`: the owner's answer, once, from the page itself.
async fn answer(
    State(routes): State<Routes>,
    Path(token): Path<String>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let Some(person) = routes.sessions.person(&headers) else {
        return no_session();
    };
    let from_the_page = headers
        .get(header::ORIGIN)
        .is_none_or(|o| o.to_str().is_ok_and(|o| o == routes.origin));
    let Some((yes, form)) = read_answer_form(&body) else {
        return page(StatusCode::BAD_REQUEST, REFUSED_TITLE, REFUSED);
    };
    let kept = match routes.db.page_of(&person, &token).await {
        Ok(Some(p)) if p.answer.is_none() && p.opened_at >= routes.since() => p,
        Ok(_) => return page(StatusCode::NOT_FOUND, GONE_TITLE, GONE),
        Err(error) => return unavailable(&error),
    };
    let matches: bool = form.as_bytes().ct_eq(kept.form.as_bytes()).into();
    if !from_the_page || !matches {
        return page(StatusCode::FORBIDDEN, REFUSED_TITLE, REFUSED);
    }
    match routes.db.answer_page(&person, &token, yes).await {
        Ok(true) => said(yes),
        Ok(false) => page(StatusCode::NOT_FOUND, GONE_TITLE, GONE),
        Err(error) => unavailable(&error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sessions(key: u8, now: i64) -> BrowserSessions {
        let public = PublicUrl::parse("https://budget.example.org").expect("a public URL");
        BrowserSessions::new([key; 32], Arc::new(move || now), &public)
    }

    fn carrying(cookie: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        let value = format!("other=1; {cookie}")
            .parse()
            .expect("a header value");
        headers.insert(header::COOKIE, value);
        headers
    }

    #[test]
    fn a_session_names_its_person_until_it_expires_and_never_once_altered() {
        let now = 1_000;
        let set = sessions(7, now).cookie_for("p1");
        for attribute in ["HttpOnly", "SameSite=Lax", "Secure", "Path=/"] {
            assert!(set.contains(attribute), "{set}");
        }
        let cookie = set.split(';').next().expect("name=value");
        assert_eq!(
            sessions(7, now).person(&carrying(cookie)).as_deref(),
            Some("p1")
        );
        // Two sign-ins of one person: two sessions.
        assert_ne!(sessions(7, now).cookie_for("p1"), set);
        // Another person's id, a later expiry, another server key, expired, no cookie: nobody.
        let later = (now + 2 * SESSION_LIFETIME).to_string();
        let expires = (now + SESSION_LIFETIME).to_string();
        for forged in [
            cookie.replacen("p1", "p2", 1),
            cookie.replacen(&expires, &later, 1),
            cookie.replacen('.', "", 1),
        ] {
            assert_eq!(
                sessions(7, now).person(&carrying(&forged)),
                None,
                "{forged}"
            );
        }
        assert_eq!(sessions(8, now).person(&carrying(cookie)), None);
        let expired = sessions(7, now + SESSION_LIFETIME);
        assert_eq!(expired.person(&carrying(cookie)), None);
        assert_eq!(sessions(7, now).person(&HeaderMap::new()), None);
    }

    #[test]
    fn a_plain_http_public_url_sets_no_secure_flag() {
        let public = PublicUrl::parse("http://127.0.0.1:8103").expect("a loopback URL");
        let sessions = BrowserSessions::new([1; 32], Arc::new(|| 0), &public);
        assert!(!sessions.cookie_for("p").contains("Secure"));
        assert!(sessions.cookie_for("p").starts_with("avenir_session="));
    }

    #[test]
    fn an_https_public_url_sets_a_host_prefixed_secure_cookie() {
        let public = PublicUrl::parse("https://budget.example.org").expect("a public URL");
        let sessions = BrowserSessions::new([1; 32], Arc::new(|| 0), &public);
        let set = sessions.cookie_for("p");
        assert!(set.starts_with("__Host-avenir_session="), "{set}");
        assert!(
            set.contains("; Path=/;") && set.contains("; Secure"),
            "{set}"
        );
        assert!(!set.contains("Domain"), "{set}");
        let cookie = set.split(';').next().expect("name=value");
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, cookie.parse().expect("a header value"));
        assert_eq!(sessions.person(&headers).as_deref(), Some("p"));
    }
}
