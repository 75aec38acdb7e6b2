//! The authorization endpoint (`GET /oauth/authorize`, consent at once) and the token endpoint
//! (`POST /oauth/token`: the authorization-code and refresh-token grants), with the rules chosen
//! where YNAB does not say (see [`super`]'s doc).

use super::{CODE_SECONDS, Code, OAuth, READ_ONLY, User, random_token};
use crate::server::{AppState, lock};
use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;
/// A query string or form body as a map (a repeated name: the last value).
fn form(bytes: &[u8]) -> HashMap<String, String> {
    form_urlencoded::parse(bytes).into_owned().collect()
}

fn plain(status: StatusCode, sentence: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        sentence,
    )
        .into_response()
}

/// A 302 to `redirect_uri` with `pairs` added to its query.
fn redirect(redirect_uri: &str, pairs: &[(&str, &str)]) -> Response {
    let mut query = form_urlencoded::Serializer::new(String::new());
    for (name, value) in pairs {
        query.append_pair(name, value);
    }
    let separator = if redirect_uri.contains('?') { '&' } else { '?' };
    let location = format!("{redirect_uri}{separator}{}", query.finish());
    match HeaderValue::from_str(&location) {
        Ok(value) => (StatusCode::FOUND, [(header::LOCATION, value)]).into_response(),
        Err(_) => plain(
            StatusCode::BAD_REQUEST,
            "The redirect_uri cannot be sent in a Location header: register one made of visible \
             ASCII characters."
                .to_owned(),
        ),
    }
}

/// `GET /oauth/authorize`: the signed-in user consents at once; see the module doc.
pub(crate) async fn authorize(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Response {
    let params = form(query.unwrap_or_default().as_bytes());
    let get = |name: &str| params.get(name).map(String::as_str);
    let mut shared = lock(&state);
    let oauth = &mut shared.oauth;
    let (client_id, redirect_uri) =
        match registered_app(oauth, get("client_id"), get("redirect_uri")) {
            Ok(app) => app,
            Err(response) => return *response,
        };
    let state_param = get("state");
    let fail = |error: &str, description: &str| {
        let mut pairs = vec![("error", error), ("error_description", description)];
        if let Some(s) = state_param {
            pairs.push(("state", s));
        }
        redirect(&redirect_uri, &pairs)
    };
    if get("response_type") != Some("code") {
        return fail(
            "unsupported_response_type",
            "Only response_type=code is supported.",
        );
    }
    let read_only = match get("scope") {
        None | Some("") => false,
        Some(READ_ONLY) => true,
        Some(_) => {
            return fail(
                "invalid_scope",
                "The scope must be read-only, or absent for read and write.",
            );
        }
    };
    let Some(user) = consenting_user(oauth) else {
        return plain(
            StatusCode::BAD_REQUEST,
            "The sandbox has no OAuth user to sign in: add one with Sandbox::add_user first."
                .to_owned(),
        );
    };
    let Ok(code) = random_token() else {
        return fail("server_error", "The sandbox could not draw a random code.");
    };
    let expires_at = oauth.now() + CODE_SECONDS;
    oauth.codes.insert(
        code.clone(),
        Code {
            client_id: client_id.to_owned(),
            redirect_uri: redirect_uri.clone(),
            user,
            read_only,
            expires_at,
        },
    );
    let mut pairs = vec![("code", code.as_str())];
    if let Some(s) = state_param {
        pairs.push(("state", s));
    }
    redirect(&redirect_uri, &pairs)
}

/// The app `client_id` names and its redirect URI, when `redirect_uri` is exactly that one; else
/// the plain-text 400 that says what to give.
fn registered_app<'a>(
    oauth: &OAuth,
    client_id: Option<&'a str>,
    given_redirect_uri: Option<&str>,
) -> Result<(&'a str, String), Box<Response>> {
    let Some(client_id) = client_id else {
        return Err(Box::new(plain(
            StatusCode::BAD_REQUEST,
            "The request has no client_id: give the client_id of an app registered with \
             Sandbox::add_oauth_app."
                .to_owned(),
        )));
    };
    let Some(app) = oauth.apps.get(client_id) else {
        return Err(Box::new(plain(
            StatusCode::BAD_REQUEST,
            format!(
                "No OAuth app has the client_id {client_id:?}: register it with \
                 Sandbox::add_oauth_app, or give a registered one."
            ),
        )));
    };
    let redirect_uri = app.redirect_uri.clone();
    if given_redirect_uri != Some(redirect_uri.as_str()) {
        return Err(Box::new(plain(
            StatusCode::BAD_REQUEST,
            format!(
                "The redirect_uri is not the one registered for this app: give exactly \
                 {redirect_uri:?}."
            ),
        )));
    }
    Ok((client_id, redirect_uri))
}

/// Who consents: the signed-in user, else the first user added.
fn consenting_user(oauth: &OAuth) -> Option<Arc<User>> {
    let user = match &oauth.signed_in {
        Some(name) => oauth.users.iter().find(|u| &u.name == name),
        None => oauth.users.first(),
    };
    user.cloned()
}

/// An RFC 6749 §5.2 error of the token endpoint.
fn token_error(status: StatusCode, error: &str, description: &str) -> Response {
    (
        status,
        [
            (header::CACHE_CONTROL, "no-store"),
            (header::PRAGMA, "no-cache"),
        ],
        axum::Json(json!({"error": error, "error_description": description})),
    )
        .into_response()
}

fn invalid_request(description: &str) -> Response {
    token_error(StatusCode::BAD_REQUEST, "invalid_request", description)
}

fn invalid_grant(description: &str) -> Response {
    token_error(StatusCode::BAD_REQUEST, "invalid_grant", description)
}

/// `POST /oauth/token` (form body): the authorization-code and refresh-token grants.
pub(crate) async fn token(State(state): State<AppState>, body: Bytes) -> Response {
    let params = form(&body);
    let get = |name: &str| {
        params
            .get(name)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    };
    let Some(grant_type) = get("grant_type") else {
        return invalid_request(
            "grant_type is missing: give authorization_code or refresh_token in a form body.",
        );
    };
    if grant_type != "authorization_code" && grant_type != "refresh_token" {
        return token_error(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "grant_type must be authorization_code or refresh_token.",
        );
    }
    let (Some(client_id), Some(secret)) = (get("client_id"), get("client_secret")) else {
        return invalid_request("client_id and client_secret are both required in the form body.");
    };
    let mut shared = lock(&state);
    if shared
        .oauth
        .apps
        .get(client_id)
        .is_none_or(|app| app.secret != secret)
    {
        return token_error(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "The client_id is not registered or the client_secret is not its secret.",
        );
    }
    let now = shared.oauth.now();
    let granted = if grant_type == "authorization_code" {
        code_grant(
            &mut shared.oauth,
            client_id,
            get("code"),
            get("redirect_uri"),
            now,
        )
    } else {
        refresh_grant(&mut shared.oauth, client_id, get("refresh_token"))
    };
    let (user, read_only) = match granted {
        Ok(granted) => granted,
        Err(response) => return *response,
    };
    let answer = match shared.oauth.issue(client_id, user, read_only) {
        Ok(answer) => answer,
        Err(_) => {
            return token_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "server_error",
                "The sandbox could not draw a random token; try again.",
            );
        }
    };
    if grant_type == "authorization_code" {
        shared.stats.oauth.authorization_code += 1;
    } else {
        shared.stats.oauth.refresh_token += 1;
    }
    (
        [
            (header::CACHE_CONTROL, "no-store"),
            (header::PRAGMA, "no-cache"),
        ],
        axum::Json(answer),
    )
        .into_response()
}

/// The grant a code stands for, spent; or the error that says why not.
fn code_grant(
    oauth: &mut OAuth,
    client_id: &str,
    code: Option<&str>,
    redirect_uri: Option<&str>,
    now: i64,
) -> Result<(Arc<User>, bool), Box<Response>> {
    let (Some(code), Some(redirect_uri)) = (code, redirect_uri) else {
        return Err(Box::new(invalid_request(
            "code and redirect_uri are both required with grant_type=authorization_code.",
        )));
    };
    // A code presented is spent, whatever follows.
    let Some(grant) = oauth.codes.remove(code) else {
        return Err(Box::new(invalid_grant(
            "The code is unknown or was already used: start the authorization again.",
        )));
    };
    if grant.expires_at <= now {
        return Err(Box::new(invalid_grant(
            "The code has expired: start the authorization again.",
        )));
    }
    if grant.client_id != client_id || grant.redirect_uri != redirect_uri {
        return Err(Box::new(invalid_grant(
            "The code was issued to another client or with another redirect_uri.",
        )));
    }
    Ok((grant.user, grant.read_only))
}

/// The grant a refresh token stands for, spent; or the error that says why not.
fn refresh_grant(
    oauth: &mut OAuth,
    client_id: &str,
    refresh_token: Option<&str>,
) -> Result<(Arc<User>, bool), Box<Response>> {
    let Some(refresh) = refresh_token else {
        return Err(Box::new(invalid_request(
            "refresh_token is required with grant_type=refresh_token.",
        )));
    };
    // Like a code, a refresh token presented is spent, whatever follows.
    let Some(grant) = oauth.refresh.remove(refresh) else {
        return Err(Box::new(invalid_grant(
            "The refresh token is unknown, already used or revoked: ask the person to \
             authorize again.",
        )));
    };
    if grant.client_id != client_id {
        return Err(Box::new(invalid_grant(
            "The refresh token was issued to another client.",
        )));
    }
    Ok((grant.user, grant.read_only))
}
