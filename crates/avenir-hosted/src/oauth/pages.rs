//! The two HTML pages a person may see: the consent page and an error page. Self-contained (no
//! external resource), every untrusted string escaped, never framed.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::logic::html_escape;

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;\
padding:0 1rem;line-height:1.5;color:#222}h1{font-size:1.4rem}\
button{font-size:1rem;padding:.6rem 1rem;margin:.3rem .5rem .3rem 0;cursor:pointer}\
.small{color:#555;font-size:.9rem}code{word-break:break-all}";

fn page(status: StatusCode, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head><body>{body}</body></html>",
        html_escape(title)
    );
    // No form-action: browsers apply it to the redirect after the form too (to YNAB, or to the
    // client's own scheme when the person refuses).
    let csp = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; \
               base-uri 'none'";
    let mut response = (status, html).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(csp),
    );
    response
}

/// A page for a request that cannot be sent back to its client (unknown client, redirect URI
/// not registered, expired sign-in…): `message` says what to do.
pub fn error_page(status: StatusCode, message: &str) -> Response {
    let body = format!(
        "<h1>This sign-in cannot continue</h1><p>{}</p>\
         <p class=\"small\">Close this window and start again from your application.</p>",
        html_escape(message)
    );
    page(status, "Sign-in error — avenir-mcp", &body)
}

/// What the consent page shows.
pub struct Consent<'a> {
    pub client_name: Option<&'a str>,
    pub client_id: &'a str,
    pub redirect_uri: &'a str,
    /// Where the form posts: `<public_url>/authorize`.
    pub action: &'a str,
    /// The random id of the pending request (hidden field).
    pub consent_id: &'a str,
    /// Whether "read and change" may be offered (the client did not ask for `read` only).
    pub offer_write: bool,
}

pub fn consent_page(c: &Consent<'_>) -> Response {
    let app = match c.client_name {
        Some(name) if !name.trim().is_empty() => format!(
            "<strong>{}</strong> (<code>{}</code>)",
            html_escape(name),
            html_escape(c.client_id)
        ),
        _ => format!("<code>{}</code>", html_escape(c.client_id)),
    };
    let write_button = if c.offer_write {
        "<button type=\"submit\" name=\"access\" value=\"write\">Allow reading and changing</button>"
    } else {
        ""
    };
    let body = format!(
        "<h1>Allow access to your YNAB plans?</h1>\
         <p>The application {app} asks to use your YNAB plans through avenir-mcp.</p>\
         <p>Next you sign in with YNAB. avenir-mcp then reads your plans on the application's \
         behalf. With “reading and changing”, every change is still shown to you and must be \
         confirmed before avenir-mcp makes it.</p>\
         <p class=\"small\">After you answer, you are sent back to <code>{}</code>. \
         Allow only if you started this from that application.</p>\
         <form method=\"post\" action=\"{}\">\
         <input type=\"hidden\" name=\"consent\" value=\"{}\">\
         <button type=\"submit\" name=\"access\" value=\"read\">Allow reading only</button>\
         {write_button}\
         <button type=\"submit\" name=\"access\" value=\"deny\">Refuse</button>\
         </form>",
        html_escape(c.redirect_uri),
        html_escape(c.action),
        html_escape(c.consent_id),
    );
    page(StatusCode::OK, "Allow access — avenir-mcp", &body)
}
