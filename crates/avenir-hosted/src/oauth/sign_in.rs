//! A person's way through a sign-in: `/authorize` (the request checked, the consent page),
//! the answer posted on that page, then YNAB's answer at our callback, which sends the client
//! our authorization code.

use std::collections::HashMap;

use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;

use super::errors::{ClientError, DuplicateParam, ExchangeError};
use super::logic::{self, SCOPE_READ, SCOPE_READ_WRITE, sha256_hex};
use super::respond::{redirect, storage_page};
use super::server::{Inner, MAX_QUERY, METADATA_CACHE_TTL, PENDING_TTL, S, YnabTokens};
use super::{fetch, pages};
use crate::oauth_store::{ClientKind, ClientRecord, CodeGrant, PendingSignIn};

impl Inner {
    /// The client of an `/authorize` request: registered, or its metadata document (cached or
    /// fetched). An error is a sentence for the page.
    async fn resolve_client(&self, client_id: &str) -> Result<ClientRecord, ClientError> {
        let cached = self.store.client(client_id).await.map_err(|e| {
            tracing::error!("client lookup failed: {e}");
            ClientError::Storage
        })?;
        if !logic::is_metadata_document_id(client_id) {
            return match cached {
                Some(c) if c.kind == ClientKind::Registered => Ok(c),
                _ => Err(ClientError::Unknown(client_id.to_string())),
            };
        }
        if let Some(c) = cached
            && c.kind == ClientKind::MetadataDocument
            && self.now() - c.updated_at < METADATA_CACHE_TTL
        {
            return Ok(c);
        }
        let metadata = fetch::fetch_metadata_document(
            &self.metadata_http,
            client_id,
            self.config.allow_private_metadata_hosts,
        )
        .await?;
        let record = ClientRecord {
            client_id: client_id.to_string(),
            kind: ClientKind::MetadataDocument,
            metadata,
            updated_at: self.now(),
        };
        if let Err(e) = self.store.put_client(&record).await {
            // Not fatal: it is fetched again next time.
            tracing::warn!("caching a client metadata document failed: {e}");
        }
        Ok(record)
    }

    /// Exchange YNAB's code for YNAB's tokens.
    async fn exchange_ynab_code(&self, code: &str) -> Result<YnabTokens, ExchangeError> {
        let body = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("grant_type", "authorization_code")
            .append_pair("client_id", &self.config.ynab.client_id)
            .append_pair("client_secret", &self.config.ynab.client_secret)
            .append_pair("redirect_uri", &self.callback_url())
            .append_pair("code", code)
            .finish();
        let response = self
            .ynab_http
            .post(&self.config.ynab.token_url)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::ACCEPT, "application/json")
            .body(body)
            .send()
            .await
            .map_err(ExchangeError::Unreachable)?;
        let status = response.status();
        if !status.is_success() {
            return Err(ExchangeError::Refused(status.as_u16()));
        }
        response
            .json::<YnabTokens>()
            .await
            .map_err(ExchangeError::Unreadable)
    }
}

/// A page saying the request was bad.
fn bad_request(text: &str) -> Response {
    pages::error_page(StatusCode::BAD_REQUEST, text)
}

/// Why a page's query is refused.
enum QueryRefused {
    TooLong,
    Repeated(DuplicateParam),
}

impl QueryRefused {
    /// The page that says so.
    fn page(self) -> Response {
        match self {
            QueryRefused::TooLong => {
                pages::error_page(StatusCode::URI_TOO_LONG, "The request is too long.")
            }
            QueryRefused::Repeated(e) => bad_request(&e.to_string()),
        }
    }
}

/// The parameters of a page's query, refusing one too long or repeating a parameter.
fn query_params(query: Option<&str>) -> Result<HashMap<String, String>, QueryRefused> {
    if query.is_some_and(|q| q.len() > MAX_QUERY) {
        return Err(QueryRefused::TooLong);
    }
    logic::parse_params(query.unwrap_or("")).map_err(QueryRefused::Repeated)
}

/// `GET /authorize`: every error is a page, never a redirect. Only the person's answer on the
/// consent page sends them back to the client: a request this server refuses (a
/// `response_type` other than `code`, a scope it does not know, no PKCE…) must not make it an
/// open redirector to whatever a registered client declared (RFC 9700 §4.11.2).
pub(super) async fn authorize(State(s): S, RawQuery(query): RawQuery) -> Response {
    let params = match query_params(query.as_deref()) {
        Ok(p) => p,
        Err(refused) => return refused.page(),
    };
    let (client, client_id, redirect_uri) = match known_client(&s, &params).await {
        Ok(known) => known,
        Err(page) => return page,
    };
    match logic::check_authorize(&params, &s.resource) {
        Ok(request) => show_consent(&s, &client, client_id, redirect_uri, request).await,
        Err((error, description)) => bad_request(&format!(
            "The application's request was refused ({error}: {description}). It is not sent \
             back to the application: tell its maker."
        )),
    }
}

/// The client an `/authorize` request names and the redirect URI it asks for, once both are
/// known good; otherwise the page saying why (never a redirect to an unchecked address).
async fn known_client<'p>(
    s: &Inner,
    params: &'p HashMap<String, String>,
) -> Result<(ClientRecord, &'p String, &'p String), Response> {
    let Some(client_id) = params.get("client_id") else {
        return Err(bad_request(
            "The request names no application (client_id is missing).",
        ));
    };
    let client = s.resolve_client(client_id).await.map_err(|e| match e {
        // the server's fault, not the request's: 503, try again
        ClientError::Storage => pages::error_page(
            StatusCode::SERVICE_UNAVAILABLE,
            "The server cannot use its storage right now. Try again in a minute.",
        ),
        other => bad_request(&other.to_string()),
    })?;
    let Some(redirect_uri) = params.get("redirect_uri") else {
        return Err(bad_request(
            "The request has no redirect_uri: the application must say where to return.",
        ));
    };
    let declared = logic::declared_redirect_uris(&client.metadata);
    if !declared
        .iter()
        .any(|r| logic::redirect_uri_matches(r, redirect_uri))
    {
        return Err(bad_request(
            "The application asked to return to an address it did not register: it cannot be \
             sent there.",
        ));
    }
    Ok((client, client_id, redirect_uri))
}

/// Keep the request as pending and show the consent page, bound to this browser by a cookie.
async fn show_consent(
    s: &Inner,
    client: &ClientRecord,
    client_id: &str,
    redirect_uri: &str,
    request: logic::AuthorizeRequest,
) -> Response {
    let consent_id = avenir::random::base64url::<32>();
    let pending = PendingSignIn {
        client_id: client_id.to_string(),
        redirect_uri: redirect_uri.to_string(),
        code_challenge: request.code_challenge,
        client_state: request.state,
        scope: request.scope.unwrap_or("").to_string(),
        resource: s.resource.clone(),
        created_at: s.now(),
    };
    if let Err(e) = s
        .store
        .put_pending(&consent_key(&consent_id), &pending)
        .await
    {
        return storage_page(e);
    }
    let action = format!("{}/authorize", s.issuer());
    let mut page = pages::consent_page(&pages::Consent {
        action: &action,
        client_name: client.metadata.get("client_name").and_then(|v| v.as_str()),
        client_id,
        redirect_uri,
        consent_id: &consent_id,
        offer_write: request.scope != Some(SCOPE_READ),
    });
    if let Ok(value) = HeaderValue::from_str(&consent_cookie(s, &consent_id, &action)) {
        page.headers_mut().append(header::SET_COOKIE, value);
    }
    page
}

/// The cookie that the consent page's answer must carry: a cross-site form posting a consent id
/// obtained elsewhere carries no such cookie (SameSite=Strict). On https a `__Host-` cookie
/// (`Secure`, `Path=/`, no `Domain`); on a loopback http trial a plain one on the form's path.
fn consent_cookie(s: &Inner, consent_id: &str, action: &str) -> String {
    let https = s.https();
    let path = if https {
        "/".to_string()
    } else {
        url::Url::parse(action)
            .map(|u| u.path().to_string())
            .unwrap_or_else(|_| "/authorize".into())
    };
    format!(
        "{}={consent_id}; Path={path}; Max-Age={PENDING_TTL}; HttpOnly; SameSite=Strict{}",
        logic::consent_cookie_name(consent_id, https),
        if https { "; Secure" } else { "" }
    )
}

/// The store key of a consent page's pending request (apart from YNAB's states).
fn consent_key(consent_id: &str) -> String {
    sha256_hex(&format!("consent:{consent_id}"))
}

/// `POST /authorize`: the person's answer on the consent page.
pub(super) async fn consent(State(s): S, headers: HeaderMap, body: String) -> Response {
    let params = match logic::parse_params(&body) {
        Ok(p) => p,
        Err(e) => return bad_request(&e.to_string()),
    };
    let (Some(consent_id), Some(access)) = (params.get("consent"), params.get("access")) else {
        return bad_request("The answer is incomplete: use the buttons of the consent page.");
    };
    let cookies = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok());
    let name = logic::consent_cookie_name(consent_id, s.https());
    if logic::cookie_value(cookies, &name) != Some(consent_id.as_str()) {
        return bad_request(
            "This answer did not come from the consent page shown in this browser. Start again \
             from your application (cookies must be allowed for this site).",
        );
    }
    let pending = match s.store.take_pending(&consent_key(consent_id)).await {
        Ok(Some(p)) if s.now() - p.created_at <= PENDING_TTL => p,
        Ok(_) => return bad_request("This consent page was already answered or has expired."),
        Err(e) => return storage_page(e),
    };
    if access == "deny" {
        return refused(&s, &pending);
    }
    let Some(granted) = logic::granted_scope(&pending.scope, access) else {
        return bad_request("That choice was not offered: start again from your application.");
    };
    on_to_ynab(&s, pending, granted).await
}

/// The person refused on the consent page: back to the client with `access_denied`.
fn refused(s: &Inner, pending: &PendingSignIn) -> Response {
    let mut refused = s.redirect_error(
        &pending.redirect_uri,
        "access_denied",
        "the person refused",
        pending.client_state.as_deref(),
    );
    if refused.status() == StatusCode::FOUND {
        // 303 after a POST, as for YNAB below.
        *refused.status_mut() = StatusCode::SEE_OTHER;
    }
    refused
}

/// The person chose `granted`: keep the sign-in under a new state and send them to YNAB.
async fn on_to_ynab(s: &Inner, pending: PendingSignIn, granted: &'static str) -> Response {
    let ynab_state = avenir::random::base64url::<32>();
    let onward = PendingSignIn {
        scope: granted.to_string(),
        created_at: s.now(),
        ..pending
    };
    if let Err(e) = s.store.put_pending(&sha256_hex(&ynab_state), &onward).await {
        return storage_page(e);
    }
    let callback = s.callback_url();
    let mut query = vec![
        ("client_id", s.config.ynab.client_id.as_str()),
        ("redirect_uri", callback.as_str()),
        ("response_type", "code"),
        ("state", ynab_state.as_str()),
    ];
    if granted == SCOPE_READ {
        query.push(("scope", "read-only"));
    }
    match logic::with_query(&s.config.ynab.authorize_url, &query) {
        // 303 after a POST (the browser follows with GET).
        Ok(location) => redirect(StatusCode::SEE_OTHER, &location),
        Err(e) => {
            tracing::error!("YNAB's authorize URL is not valid: {e}");
            pages::error_page(
                StatusCode::INTERNAL_SERVER_ERROR,
                "The server's YNAB settings are wrong; its operator must fix them.",
            )
        }
    }
}

/// `GET /oauth/ynab/callback`: YNAB's answer.
pub(super) async fn ynab_callback(State(s): S, RawQuery(query): RawQuery) -> Response {
    let params = match query_params(query.as_deref()) {
        Ok(p) => p,
        Err(refused) => return refused.page(),
    };
    let Some(state) = params.get("state").filter(|st| logic::is_random_token(st)) else {
        return bad_request("YNAB's answer has no valid state: start again from your application.");
    };
    let pending = match s.store.take_pending(&sha256_hex(state)).await {
        Ok(Some(p)) if s.now() - p.created_at <= PENDING_TTL => p,
        Ok(_) => {
            return bad_request(
                "This sign-in is unknown, expired or already finished: start again from your \
                 application.",
            );
        }
        Err(e) => return storage_page(e),
    };
    let back = |error, description| {
        s.redirect_error(
            &pending.redirect_uri,
            error,
            description,
            pending.client_state.as_deref(),
        )
    };
    if let Some(error) = params.get("error") {
        return if error == "access_denied" {
            back("access_denied", "the person did not allow access at YNAB")
        } else {
            back("server_error", "YNAB did not complete the sign-in")
        };
    }
    let Some(code) = params.get("code") else {
        return back("server_error", "YNAB answered without a code");
    };
    let tokens = match s.exchange_ynab_code(code).await {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!("YNAB code exchange failed: {e}");
            return back(
                "server_error",
                "YNAB did not complete the sign-in: try again",
            );
        }
    };
    signed_in(&s, &pending, tokens).await
}

/// YNAB gave its tokens: the hook keeps them and names the person, and the client gets our
/// authorization code (with its `state` and our `iss`).
async fn signed_in(s: &Inner, pending: &PendingSignIn, tokens: YnabTokens) -> Response {
    let client_state = pending.client_state.as_deref();
    let read_only = pending.scope == SCOPE_READ
        || tokens
            .scope
            .as_deref()
            .is_some_and(|sc| sc.split(' ').any(|p| p == "read-only"));
    let scope = if read_only {
        SCOPE_READ
    } else {
        SCOPE_READ_WRITE
    };
    let person_id = match s.hook.signed_in(tokens, read_only).await {
        Ok(p) => p,
        Err(e) => {
            tracing::warn!("sign-in could not be completed: {e}");
            return s.redirect_error(
                &pending.redirect_uri,
                "server_error",
                "the sign-in could not be completed: try again",
                client_state,
            );
        }
    };
    let code = avenir::random::base64url::<32>();
    let grant = CodeGrant {
        client_id: pending.client_id.clone(),
        person_id,
        redirect_uri: pending.redirect_uri.clone(),
        code_challenge: pending.code_challenge.clone(),
        scope: scope.to_string(),
        resource: pending.resource.clone(),
        expires_at: s
            .now()
            .saturating_add(i64::try_from(s.config.code_ttl).unwrap_or(60)),
    };
    if let Err(e) = s.store.put_code(&sha256_hex(&code), &grant).await {
        return storage_page(e);
    }
    let mut answer = vec![("code", code.as_str())];
    if let Some(state) = client_state {
        answer.push(("state", state));
    }
    answer.push(("iss", s.issuer()));
    let mut back = match logic::with_query(&pending.redirect_uri, &answer) {
        Ok(location) => redirect(StatusCode::FOUND, &location),
        Err(e) => return bad_request(&e.to_string()),
    };
    // This browser is now the person's: their confirmation pages open in it.
    if let Some(cookie) = s.hook.browser_cookie(&grant.person_id)
        && let Ok(value) = HeaderValue::from_str(&cookie)
    {
        back.headers_mut().append(header::SET_COOKIE, value);
    }
    back
}
