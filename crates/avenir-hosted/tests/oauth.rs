//! The authorization server through real HTTP (axum on 127.0.0.1, reqwest without redirects),
//! with the in-memory store. The YNAB side (the code exchange and `SignInHook::signed_in`) is
//! not exercised here: codes are seeded through the store.

use crate::common;

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use avenir_hosted::oauth::limits::{ClientAddress, Limit, RateLimits};
use avenir_hosted::oauth::{
    OAuthConfig, OAuthServer, SignInFailure, SignInHook, YnabApp, YnabTokens,
};
use avenir_hosted::oauth_store::{CodeGrant, OAuthStore, RefreshUse, TokenKind, TokenRecord};
use axum::http::HeaderMap;
use common::MemoryStore;
use reqwest::StatusCode;
use serde_json::{Value, json};

const T0: i64 = 1_800_000_000;
const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
const REDIRECT: &str = "http://127.0.0.1:7777/callback";
const YNAB_AUTHORIZE: &str = "https://app.ynab.example/oauth/authorize";

#[derive(Default)]
struct Hook {
    deleted: Mutex<Vec<String>>,
}

#[async_trait]
impl SignInHook for Hook {
    async fn signed_in(
        &self,
        _tokens: YnabTokens,
        _read_only: bool,
    ) -> Result<String, SignInFailure> {
        Err("YNAB is not part of these tests".into())
    }
    async fn deleted(&self, person_id: &str) {
        self.deleted.lock().unwrap().push(person_id.to_string());
    }
}

struct Harness {
    base: String,
    server: OAuthServer,
    store: Arc<MemoryStore>,
    hook: Arc<Hook>,
    clock: Arc<AtomicI64>,
    http: reqwest::Client,
}

async fn start_with(roots: Vec<Vec<u8>>, allow_private: bool) -> Harness {
    start_configured(|config| {
        config.metadata_roots = roots;
        config.allow_private_metadata_hosts = allow_private;
    })
    .await
}

async fn start_configured(tweak: impl FnOnce(&mut OAuthConfig)) -> Harness {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let clock = Arc::new(AtomicI64::new(T0));
    let now = clock.clone();
    let mut config = OAuthConfig::new(
        base.clone(),
        YnabApp {
            authorize_url: YNAB_AUTHORIZE.into(),
            token_url: "http://127.0.0.1:9/oauth/token".into(),
            client_id: "ynab-app".into(),
            client_secret: "ynab-secret".into(),
        },
    );
    config.clock = Arc::new(move || now.load(Ordering::SeqCst));
    tweak(&mut config);
    let store = Arc::new(MemoryStore::default());
    let hook = Arc::new(Hook::default());
    let server = OAuthServer::new(config, store.clone(), hook.clone()).unwrap();
    // The MCP endpoint's middleware, as the hosted server will mount it.
    let guard = server.clone();
    let app = server.router().route(
        "/mcp",
        axum::routing::post(move |headers: HeaderMap| {
            let guard = guard.clone();
            async move {
                use axum::response::IntoResponse;
                match guard
                    .authenticate(headers.get(axum::http::header::AUTHORIZATION))
                    .await
                {
                    Ok(who) if headers.contains_key("x-needs-write") && !who.can_write() => {
                        guard.insufficient_scope("read write")
                    }
                    Ok(who) => axum::Json(json!({"person": who.person_id, "client": who.client_id,
                                                 "scope": who.scope}))
                    .into_response(),
                    Err(response) => response,
                }
            }
        }),
    );
    let app = app.into_make_service_with_connect_info::<std::net::SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let http = ynab::http_client_builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    Harness {
        base,
        server,
        store,
        hook,
        clock,
        http,
    }
}

async fn start() -> Harness {
    start_with(Vec::new(), true).await
}

fn sha256_hex(s: &str) -> String {
    hex::encode(avenir::digest::sha256(s.as_bytes()))
}

fn query_of(location: &str) -> HashMap<String, String> {
    let url = url::Url::parse(location).unwrap();
    url.query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

impl Harness {
    async fn get(&self, path: &str) -> reqwest::Response {
        self.http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap()
    }

    async fn form(&self, path: &str, params: &[(&str, &str)]) -> reqwest::Response {
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(params)
            .finish();
        self.http
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .unwrap()
    }

    /// The person's answer on a consent page, from the browser that was shown it (`cookie`).
    async fn answer(&self, consent: &str, cookie: Option<&str>, access: &str) -> reqwest::Response {
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs([("consent", consent), ("access", access)])
            .finish();
        let mut request = self
            .http
            .post(format!("{}/authorize", self.base))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body);
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        request.send().await.unwrap()
    }

    async fn register(&self, metadata: Value) -> reqwest::Response {
        self.http
            .post(format!("{}/register", self.base))
            .json(&metadata)
            .send()
            .await
            .unwrap()
    }

    async fn registered_client(&self, name: &str) -> String {
        let r = self
            .register(json!({"redirect_uris": [REDIRECT], "client_name": name}))
            .await;
        assert_eq!(r.status(), StatusCode::CREATED);
        r.json::<Value>().await.unwrap()["client_id"]
            .as_str()
            .unwrap()
            .to_string()
    }

    fn authorize_path(&self, params: &[(&str, &str)]) -> String {
        let query = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(params)
            .finish();
        format!("/authorize?{query}")
    }

    /// `/authorize` as a well-behaved client asks it: a code, `client_id`, [`REDIRECT`], the PKCE
    /// challenge, then `more`.
    fn pkce_authorize_path(&self, client_id: &str, more: &[(&str, &str)]) -> String {
        let mut params = vec![
            ("response_type", "code"),
            ("client_id", client_id),
            ("redirect_uri", REDIRECT),
            ("code_challenge", CHALLENGE),
            ("code_challenge_method", "S256"),
        ];
        params.extend_from_slice(more);
        self.authorize_path(&params)
    }

    /// A code as the callback would have made it, for `client_id`.
    async fn seed_code(&self, client_id: &str, scope: &str) -> String {
        let code = format!("code-{}", avenir::random::base64url::<16>());
        let grant = CodeGrant {
            client_id: client_id.into(),
            person_id: "person-1".into(),
            redirect_uri: REDIRECT.into(),
            code_challenge: CHALLENGE.into(),
            scope: scope.into(),
            resource: self.server.resource().into(),
            expires_at: self.clock.load(Ordering::SeqCst) + 60,
        };
        self.store
            .put_code(&sha256_hex(&code), &grant)
            .await
            .unwrap();
        code
    }

    async fn exchange(&self, code: &str, client_id: &str, verifier: &str) -> reqwest::Response {
        self.form(
            "/token",
            &[
                ("grant_type", "authorization_code"),
                ("code", code),
                ("redirect_uri", REDIRECT),
                ("client_id", client_id),
                ("code_verifier", verifier),
                ("resource", &format!("{}/mcp", self.base)),
            ],
        )
        .await
    }

    async fn tokens(&self, client_id: &str, scope: &str) -> Value {
        let code = self.seed_code(client_id, scope).await;
        let r = self.exchange(&code, client_id, VERIFIER).await;
        assert_eq!(r.status(), StatusCode::OK);
        r.json().await.unwrap()
    }

    async fn refresh(&self, refresh: &str, client_id: &str) -> reqwest::Response {
        self.form(
            "/token",
            &[
                ("grant_type", "refresh_token"),
                ("refresh_token", refresh),
                ("client_id", client_id),
            ],
        )
        .await
    }

    async fn mcp(&self, authorization: Option<&str>) -> reqwest::Response {
        let mut request = self.http.post(format!("{}/mcp", self.base));
        if let Some(a) = authorization {
            request = request.header("authorization", a);
        }
        request.send().await.unwrap()
    }
}

/// A consent page's hidden consent id and the cookie it set (`name=value`).
async fn consent_of(r: reqwest::Response) -> (String, String, String) {
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"));
    let cookie = cookie.split(';').next().unwrap().to_string();
    let page = r.text().await.unwrap();
    let consent = page
        .split("name=\"consent\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap()
        .to_string();
    assert!(cookie.ends_with(&format!("={consent}")));
    (consent, cookie, page)
}

async fn error_of(r: reqwest::Response) -> String {
    let body: Value = r.json().await.unwrap();
    body["error"].as_str().unwrap_or_default().to_string()
}

#[tokio::test]
async fn metadata_documents_name_the_issuer_and_the_resource() {
    let h = start().await;
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let r = h.get(path).await;
        assert_eq!(r.status(), StatusCode::OK);
        let prm: Value = r.json().await.unwrap();
        assert_eq!(prm["resource"], format!("{}/mcp", h.base));
        assert_eq!(prm["authorization_servers"], json!([h.base]));
        assert_eq!(prm["scopes_supported"], json!(["read", "write"]));
        assert_eq!(prm["bearer_methods_supported"], json!(["header"]));
        assert!(prm["resource_name"].is_string());
    }
    let asm: Value = h
        .get("/.well-known/oauth-authorization-server")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(asm["issuer"], h.base);
    for (key, path) in [
        ("authorization_endpoint", "/authorize"),
        ("token_endpoint", "/token"),
        ("registration_endpoint", "/register"),
        ("revocation_endpoint", "/revoke"),
    ] {
        assert_eq!(asm[key], format!("{}{path}", h.base), "{key}");
    }
    assert_eq!(asm["response_types_supported"], json!(["code"]));
    assert_eq!(
        asm["grant_types_supported"],
        json!(["authorization_code", "refresh_token"])
    );
    assert_eq!(asm["code_challenge_methods_supported"], json!(["S256"]));
    assert_eq!(
        asm["token_endpoint_auth_methods_supported"],
        json!(["none"])
    );
    assert_eq!(asm["scopes_supported"], json!(["read", "write"]));
    assert_eq!(asm["client_id_metadata_document_supported"], json!(true));
    assert_eq!(
        asm["authorization_response_iss_parameter_supported"],
        json!(true)
    );

    // Browser-based clients may call the machine endpoints (CORS), not the pages.
    let r = h
        .http
        .request(reqwest::Method::OPTIONS, format!("{}/token", h.base))
        .header("origin", "https://inspector.example")
        .header("access-control-request-method", "POST")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NO_CONTENT);
    assert_eq!(r.headers()["access-control-allow-origin"], "*");
    let r = h.get("/.well-known/oauth-protected-resource/mcp").await;
    assert_eq!(r.headers()["access-control-allow-origin"], "*");
    let r = h.get("/authorize").await;
    assert!(r.headers().get("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn registration_accepts_public_clients_and_refuses_the_rest() {
    let h = start().await;
    let r = h
        .register(
            json!({"redirect_uris": [REDIRECT, "https://app.example/cb"],
                         "client_name": "Tool", "token_endpoint_auth_method": "none"}),
        )
        .await;
    assert_eq!(r.status(), StatusCode::CREATED);
    assert_eq!(r.headers()["cache-control"], "no-store");
    let body: Value = r.json().await.unwrap();
    let client_id = body["client_id"].as_str().unwrap();
    assert!(client_id.len() >= 32);
    assert_eq!(
        body["redirect_uris"],
        json!([REDIRECT, "https://app.example/cb"])
    );
    assert_eq!(body["token_endpoint_auth_method"], "none");
    assert!(h.store.client(client_id).await.unwrap().is_some());

    for (metadata, error) in [
        (
            json!({"client_name": "no redirects"}),
            "invalid_redirect_uri",
        ),
        (
            json!({"redirect_uris": ["http://app.example/cb"]}),
            "invalid_redirect_uri",
        ),
        (
            json!({"redirect_uris": ["javascript:alert(1)"]}),
            "invalid_redirect_uri",
        ),
        (
            json!({"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "client_secret_post"}),
            "invalid_client_metadata",
        ),
        (
            json!({"redirect_uris": [REDIRECT], "grant_types": ["client_credentials"]}),
            "invalid_client_metadata",
        ),
    ] {
        let r = h.register(metadata.clone()).await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{metadata}");
        assert_eq!(error_of(r).await, error, "{metadata}");
    }
}

#[tokio::test]
async fn authorize_shows_a_page_not_a_redirect_until_client_and_redirect_are_known() {
    let h = start().await;
    let client_id = h.registered_client("Tool").await;
    let base = [
        ("response_type", "code"),
        ("code_challenge", CHALLENGE),
        ("code_challenge_method", "S256"),
        ("state", "st"),
    ];
    let with = |extra: &[(&'static str, &'static str)], client: &str| {
        let mut p: Vec<(&str, String)> = base.iter().map(|(k, v)| (*k, v.to_string())).collect();
        p.push(("client_id", client.to_string()));
        p.extend(extra.iter().map(|(k, v)| (*k, v.to_string())));
        p
    };
    let cases = [
        with(&[("redirect_uri", REDIRECT)], "unknown-client"),
        with(
            &[("redirect_uri", "http://127.0.0.1:7777/elsewhere")],
            &client_id,
        ),
        with(&[("redirect_uri", "https://evil.example/cb")], &client_id),
        with(&[], &client_id),
    ];
    for params in cases {
        let params: Vec<(&str, &str)> = params.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let r = h.get(&h.authorize_path(&params)).await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{params:?}");
        assert!(r.headers().get("location").is_none(), "{params:?}");
        assert!(
            r.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );
    }
}

// RFC 9700 §4.11.2: a request the server refuses is never redirected to the client's address
// (a registered client's redirect URI is whatever its registrant declared): an error page says
// what was refused.
#[tokio::test]
async fn authorize_shows_request_errors_as_a_page_never_a_redirect_rfc9700_4_11_2() {
    let h = start().await;
    let client_id = h.registered_client("Tool").await;
    let wrong_resource = "https://other.example/mcp".to_string();
    let cases: Vec<(Vec<(&str, &str)>, &str)> = vec![
        (vec![("code_challenge_method", "S256")], "invalid_request"),
        (
            vec![
                ("code_challenge", CHALLENGE),
                ("code_challenge_method", "plain"),
            ],
            "invalid_request",
        ),
        (vec![("code_challenge", CHALLENGE)], "invalid_request"),
        (
            vec![
                ("code_challenge", CHALLENGE),
                ("code_challenge_method", "S256"),
                ("resource", &wrong_resource),
            ],
            "invalid_target",
        ),
        (
            vec![
                ("code_challenge", CHALLENGE),
                ("code_challenge_method", "S256"),
                ("scope", "admin"),
            ],
            "invalid_scope",
        ),
        (
            vec![
                ("code_challenge", CHALLENGE),
                ("code_challenge_method", "S256"),
                ("response_type", "token"),
            ],
            "unsupported_response_type",
        ),
    ];
    for (extra, error) in cases {
        let mut params = vec![
            ("client_id", client_id.as_str()),
            ("redirect_uri", REDIRECT),
            ("state", "st-1"),
        ];
        if !extra.iter().any(|(k, _)| *k == "response_type") {
            params.push(("response_type", "code"));
        }
        params.extend(extra);
        let r = h.get(&h.authorize_path(&params)).await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{params:?}");
        assert!(r.headers().get("location").is_none(), "{params:?}");
        let page = r.text().await.unwrap();
        assert!(page.contains(error), "{params:?}: {page}");
        assert!(page.contains("not sent back to the application"), "{page}");
    }
    assert_eq!(h.store.pending_count(), 0);
}

#[tokio::test]
async fn consent_page_escapes_the_client_and_its_answer_goes_to_ynab_once() {
    let h = start().await;
    let client_id = h
        .registered_client("<script>alert('x')</script><img src=x>")
        .await;
    let resource = format!("{}/mcp", h.base);
    let r = h
        .get(&h.authorize_path(&[
            ("response_type", "code"),
            ("client_id", &client_id),
            ("redirect_uri", "http://127.0.0.1:41234/callback"),
            ("code_challenge", CHALLENGE),
            ("code_challenge_method", "S256"),
            ("state", "client-state"),
            ("resource", &resource),
        ]))
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["x-frame-options"], "DENY");
    assert!(
        r.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("frame-ancestors 'none'")
    );
    let (consent, cookie, page) = consent_of(r).await;
    assert!(!page.contains("<script>"));
    assert!(!page.contains("<img"));
    assert!(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&lt;img src=x&gt;"));
    assert!(!page.contains("src=\"http"), "no external resource");
    assert!(page.contains("value=\"read\"") && page.contains("value=\"write\""));

    // A forged consent id is refused, and so is the right one posted from another site (no
    // cookie): the pending request survives both.
    let r = h.answer("forged", Some(&cookie), "read").await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let r = h.answer(&consent, None, "write").await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);

    let r = h.answer(&consent, Some(&cookie), "read").await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let location = r.headers()["location"].to_str().unwrap().to_string();
    assert!(location.starts_with(YNAB_AUTHORIZE));
    let q = query_of(&location);
    assert_eq!(q["client_id"], "ynab-app");
    assert_eq!(q["redirect_uri"], format!("{}/oauth/ynab/callback", h.base));
    assert_eq!(q["response_type"], "code");
    assert_eq!(q["scope"], "read-only");
    assert!(q["state"].len() >= 43);
    assert!(!location.contains("ynab-secret"));

    // The consent page answers once.
    let again = h.answer(&consent, Some(&cookie), "write").await;
    assert_eq!(again.status(), StatusCode::BAD_REQUEST);

    // An unknown state at the callback is a page; YNAB's refusal goes back to the client.
    let r = h.get("/oauth/ynab/callback?code=c&state=unknown").await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(r.headers().get("location").is_none());
    let path = format!(
        "/oauth/ynab/callback?error=access_denied&state={}",
        q["state"]
    );
    let r = h.get(&path).await;
    assert_eq!(r.status(), StatusCode::FOUND);
    let back = query_of(r.headers()["location"].to_str().unwrap());
    assert_eq!(back["error"], "access_denied");
    assert_eq!(back["state"], "client-state");
    assert_eq!(back["iss"], h.base);
    // …and only once.
    assert_eq!(h.get(&path).await.status(), StatusCode::BAD_REQUEST);
}

/// The name and the attributes of a `Set-Cookie` value, each trimmed.
fn cookie_parts(set_cookie: &str) -> (String, Vec<String>) {
    let mut parts = set_cookie.split(';').map(|p| p.trim().to_string());
    let pair = parts.next().unwrap_or_default();
    let name = pair.split('=').next().unwrap_or_default().to_string();
    (name, parts.collect())
}

// RFC 6265bis §4.1.3.2: behind an https public URL the consent page's cookie is a `__Host-` one
// (Secure, Path=/, no Domain), which no other host of the domain can set, and the answer that
// carries it back is accepted. On a loopback http trial (no TLS) it is a plain one on the form's
// path, without Secure, which a browser would not send over http.
#[tokio::test]
async fn the_consent_cookie_is_host_prefixed_behind_an_https_public_url() {
    for https in [true, false] {
        let h = start_configured(|config| {
            if https {
                config.public_url = "https://budget.example.org".into();
            }
        })
        .await;
        let public = if https {
            "https://budget.example.org".to_string()
        } else {
            h.base.clone()
        };
        let client_id = h.registered_client("Tool").await;
        let r = h
            .get(&h.pkce_authorize_path(&client_id, &[("resource", &format!("{public}/mcp"))]))
            .await;
        assert_eq!(r.status(), StatusCode::OK, "https: {https}");
        let set: Vec<String> = r
            .headers()
            .get_all("set-cookie")
            .iter()
            .map(|v| v.to_str().unwrap().to_string())
            .collect();
        assert_eq!(set.len(), 1, "one cookie: {set:?}");
        let (name, attributes) = cookie_parts(&set[0]);
        let has = |attribute: &str| attributes.iter().any(|a| a == attribute);
        assert!(has("HttpOnly") && has("SameSite=Strict"), "{set:?}");
        assert!(
            !attributes
                .iter()
                .any(|a| a.to_ascii_lowercase().starts_with("domain")),
            "no Domain: {set:?}"
        );
        if https {
            assert!(name.starts_with("__Host-avenir_consent_"), "{set:?}");
            assert!(has("Secure") && has("Path=/"), "{set:?}");
        } else {
            assert!(name.starts_with("avenir_consent_"), "{set:?}");
            assert!(!has("Secure") && has("Path=/authorize"), "{set:?}");
        }
        let (consent, cookie, _) = consent_of(r).await;
        assert!(cookie.starts_with(&format!("{name}=")));
        if https {
            // the same cookie without its prefix, as another host of the domain could set it
            let unprefixed = cookie.trim_start_matches("__Host-");
            let r = h.answer(&consent, Some(unprefixed), "read").await;
            assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{unprefixed}");
        }
        let r = h.answer(&consent, Some(&cookie), "read").await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "https: {https}");
        let location = r.headers()["location"].to_str().unwrap();
        assert!(location.starts_with(YNAB_AUTHORIZE), "{location}");
    }
}

#[tokio::test]
async fn consent_for_a_read_only_request_offers_no_write_and_refusal_goes_back() {
    let h = start().await;
    let client_id = h.registered_client("Tool").await;
    let r = h
        .get(&h.pkce_authorize_path(&client_id, &[("scope", "read")]))
        .await;
    let (consent, cookie, page) = consent_of(r).await;
    assert!(!page.contains("value=\"write\""));
    assert!(page.contains(&format!("action=\"{}/authorize\"", h.base)));
    let r = h.answer(&consent, Some(&cookie), "deny").await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let q = query_of(r.headers()["location"].to_str().unwrap());
    assert_eq!(q["error"], "access_denied");
    assert!(!q.contains_key("state"));
}

#[tokio::test]
async fn token_endpoint_checks_pkce_and_takes_a_code_once() {
    let h = start().await;
    let client_id = h.registered_client("Tool").await;

    let code = h.seed_code(&client_id, "read").await;
    let wrong = "x".repeat(43);
    let r = h.exchange(&code, &client_id, &wrong).await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert_eq!(r.headers()["cache-control"], "no-store");
    assert_eq!(error_of(r).await, "invalid_grant");
    // A failed attempt used the code up.
    let r = h.exchange(&code, &client_id, VERIFIER).await;
    assert_eq!(error_of(r).await, "invalid_grant");

    let code = h.seed_code(&client_id, "read write").await;
    let r = h.exchange(&code, &client_id, VERIFIER).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["cache-control"], "no-store");
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["expires_in"], 3600);
    assert_eq!(body["scope"], "read write");
    let access = body["access_token"].as_str().unwrap();
    assert!(access.len() >= 43);
    let stored = h.store.token(&sha256_hex(access)).await.unwrap().unwrap();
    assert_eq!(stored.kind, TokenKind::Access);
    assert_eq!(stored.resource, format!("{}/mcp", h.base));
    assert_eq!(stored.expires_at, T0 + 3600);
    // Reuse is refused.
    let r = h.exchange(&code, &client_id, VERIFIER).await;
    assert_eq!(error_of(r).await, "invalid_grant");

    // Another client, an expired code, a wrong resource.
    let code = h.seed_code(&client_id, "read").await;
    assert_eq!(
        error_of(h.exchange(&code, "someone-else", VERIFIER).await).await,
        "invalid_grant"
    );
    let code = h.seed_code(&client_id, "read").await;
    h.clock.fetch_add(61, Ordering::SeqCst);
    assert_eq!(
        error_of(h.exchange(&code, &client_id, VERIFIER).await).await,
        "invalid_grant"
    );
    let code = h.seed_code(&client_id, "read").await;
    let r = h
        .form(
            "/token",
            &[
                ("grant_type", "authorization_code"),
                ("code", &code),
                ("redirect_uri", REDIRECT),
                ("client_id", &client_id),
                ("code_verifier", VERIFIER),
                ("resource", "https://other.example/mcp"),
            ],
        )
        .await;
    assert_eq!(error_of(r).await, "invalid_target");
    let r = h.form("/token", &[("grant_type", "password")]).await;
    assert_eq!(error_of(r).await, "unsupported_grant_type");
    let r = h
        .form("/token", &[("grant_type", "authorization_code")])
        .await;
    assert_eq!(error_of(r).await, "invalid_request");
}

#[tokio::test]
async fn refresh_rotates_and_a_replay_revokes_the_family() {
    let h = start().await;
    let client_id = h.registered_client("Tool").await;
    let first = h.tokens(&client_id, "read write").await;
    let refresh1 = first["refresh_token"].as_str().unwrap();

    // Another client cannot use it (and does not burn it).
    let r = h.refresh(refresh1, "someone-else").await;
    assert_eq!(error_of(r).await, "invalid_grant");

    let r = h
        .form(
            "/token",
            &[
                ("grant_type", "refresh_token"),
                ("refresh_token", refresh1),
                ("client_id", &client_id),
                ("scope", "read"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let second: Value = r.json().await.unwrap();
    let refresh2 = second["refresh_token"].as_str().unwrap();
    assert_ne!(refresh1, refresh2);
    assert_eq!(second["scope"], "read");
    let access2 = second["access_token"].as_str().unwrap();
    let r2 = h.store.token(&sha256_hex(refresh2)).await.unwrap().unwrap();
    let r1 = h.store.token(&sha256_hex(refresh1)).await.unwrap().unwrap();
    assert_eq!(r1.family, r2.family);
    assert_eq!(r2.scope, "read write", "the refresh token keeps its scope");
    assert_eq!(
        h.mcp(Some(&format!("Bearer {access2}"))).await.status(),
        StatusCode::OK
    );

    // Replaying the first refresh token revokes everything of the family.
    let r = h.refresh(refresh1, &client_id).await;
    assert_eq!(error_of(r).await, "invalid_grant");
    assert_eq!(
        h.mcp(Some(&format!("Bearer {access2}"))).await.status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        error_of(h.refresh(refresh2, &client_id).await).await,
        "invalid_grant"
    );
    assert_eq!(
        error_of(h.refresh("never-issued", &client_id).await).await,
        "invalid_grant"
    );

    // A refresh cannot widen a read-only grant.
    let read = h.tokens(&client_id, "read").await;
    let r = h
        .form(
            "/token",
            &[
                ("grant_type", "refresh_token"),
                ("refresh_token", read["refresh_token"].as_str().unwrap()),
                ("client_id", &client_id),
                ("scope", "read write"),
            ],
        )
        .await;
    assert_eq!(error_of(r).await, "invalid_scope");
}

impl Harness {
    async fn refresh_with(&self, refresh: &str, client_id: &str, extra: (&str, &str)) -> String {
        let r = self
            .form(
                "/token",
                &[
                    ("grant_type", "refresh_token"),
                    ("refresh_token", refresh),
                    ("client_id", client_id),
                    extra,
                ],
            )
            .await;
        error_of(r).await
    }

    async fn mcp_status(&self, access: &str) -> StatusCode {
        self.mcp(Some(&format!("Bearer {access}"))).await.status()
    }
}

// RFC 6749 §5.2 and RFC 9700 §4.14.2: a refresh refused for its request (another client, a
// scope or a resource not granted) is checked before the refresh token is spent, so the client's
// corrected retry is not a replay that would revoke the sign-in.
#[tokio::test]
async fn a_refused_refresh_leaves_the_refresh_token_usable_rfc6749_5_2() {
    let h = start().await;
    let client_id = h.registered_client("Tool").await;
    let first = h.tokens(&client_id, "read").await;
    let refresh = first["refresh_token"].as_str().unwrap();
    let access = first["access_token"].as_str().unwrap();
    assert_eq!(
        h.refresh_with(refresh, &client_id, ("scope", "read write"))
            .await,
        "invalid_scope"
    );
    assert_eq!(
        h.refresh_with(refresh, &client_id, ("scope", "admin"))
            .await,
        "invalid_scope"
    );
    assert_eq!(
        h.refresh_with(
            refresh,
            &client_id,
            ("resource", "https://other.example/mcp")
        )
        .await,
        "invalid_target"
    );
    assert_eq!(
        h.refresh_with(refresh, "someone-else", ("scope", "read"))
            .await,
        "invalid_grant"
    );
    assert_eq!(
        h.mcp_status(access).await,
        StatusCode::OK,
        "nothing revoked"
    );
    // the corrected retry works
    let r = h.refresh(refresh, &client_id).await;
    assert_eq!(r.status(), StatusCode::OK);
    let second: Value = r.json().await.unwrap();
    assert_eq!(
        h.mcp_status(second["access_token"].as_str().unwrap()).await,
        StatusCode::OK
    );
}

// OAuth 2.1 section 4.1.3: a code presented twice is refused, and the tokens it issued are revoked.
#[tokio::test]
async fn a_reused_code_revokes_the_tokens_it_issued_oauth21_4_1_3() {
    let h = start().await;
    let client_id = h.registered_client("Tool").await;
    let code = h.seed_code(&client_id, "read write").await;
    let r = h.exchange(&code, &client_id, VERIFIER).await;
    assert_eq!(r.status(), StatusCode::OK);
    let issued: Value = r.json().await.unwrap();
    let access = issued["access_token"].as_str().unwrap();
    let refresh = issued["refresh_token"].as_str().unwrap();
    assert_eq!(h.mcp_status(access).await, StatusCode::OK);
    let r = h.exchange(&code, &client_id, VERIFIER).await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"], "invalid_grant");
    assert!(
        body["error_description"]
            .as_str()
            .unwrap()
            .contains("every token it issued is revoked")
    );
    assert_eq!(h.mcp_status(access).await, StatusCode::UNAUTHORIZED);
    assert_eq!(
        error_of(h.refresh(refresh, &client_id).await).await,
        "invalid_grant"
    );
}

// RFC 9700 §4.14.2: one refresh token presented many times at once. Whichever request wins the
// rotation, the replays revoke the family, and no token issued by any of them stays alive.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_concurrent_refresh_replay_leaves_no_token_alive_rfc9700_4_14_2() {
    let h = Arc::new(start().await);
    let client_id = h.registered_client("Tool").await;
    for _round in 0..4 {
        let first = h.tokens(&client_id, "read write").await;
        let refresh = first["refresh_token"].as_str().unwrap().to_string();
        let mut tasks = Vec::new();
        for _ in 0..10 {
            let (h, refresh, client_id) = (h.clone(), refresh.clone(), client_id.clone());
            tasks.push(tokio::spawn(async move {
                let r = h.refresh(&refresh, &client_id).await;
                (r.status(), r.json::<Value>().await.unwrap())
            }));
        }
        let mut issued = vec![first["access_token"].as_str().unwrap().to_string()];
        for task in tasks {
            let (status, body) = task.await.unwrap();
            if status == StatusCode::OK {
                issued.push(body["access_token"].as_str().unwrap().to_string());
            } else {
                assert_eq!(body["error"], "invalid_grant");
            }
        }
        assert!(issued.len() <= 2, "one rotation at most");
        for access in issued {
            assert_eq!(h.mcp_status(&access).await, StatusCode::UNAUTHORIZED);
        }
    }
}

/// RFC 9700 §4.14.2 on a real database: one refresh token presented 10 times at once over HTTP,
/// 6 rounds; afterwards no access token any of them obtained opens anything.
async fn concurrent_replay_on(config: avenir_hosted::db::DbConfig) {
    let db = avenir_hosted::db::Db::open(&config).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let oauth = OAuthConfig::new(
        base.clone(),
        YnabApp {
            authorize_url: YNAB_AUTHORIZE.into(),
            token_url: "http://127.0.0.1:9/oauth/token".into(),
            client_id: "ynab-app".into(),
            client_secret: "ynab-secret".into(),
        },
    );
    let store: Arc<dyn OAuthStore> = Arc::new(db.clone());
    let server = OAuthServer::new(oauth, store.clone(), Arc::new(Hook::default())).unwrap();
    let app = server.router();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let http = ynab::http_client_builder().build().unwrap();
    let post = |params: Vec<(&'static str, String)>| {
        let (http, base) = (http.clone(), base.clone());
        async move {
            let body = url::form_urlencoded::Serializer::new(String::new())
                .extend_pairs(params)
                .finish();
            let r = http
                .post(format!("{base}/token"))
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body)
                .send()
                .await
                .unwrap();
            (r.status(), r.json::<Value>().await.unwrap())
        }
    };
    let opens = async |access: &str| {
        let header = axum::http::HeaderValue::from_str(&format!("Bearer {access}")).unwrap();
        server.authenticate(Some(&header)).await.is_ok()
    };
    for round in 0..6 {
        let code = format!("code-{round}-{}", avenir::random::base64url::<8>());
        let grant = CodeGrant {
            client_id: "c".into(),
            person_id: "person-1".into(),
            redirect_uri: REDIRECT.into(),
            code_challenge: CHALLENGE.into(),
            scope: "read write".into(),
            resource: server.resource().into(),
            expires_at: chrono::Utc::now().timestamp() + 60,
        };
        store.put_code(&sha256_hex(&code), &grant).await.unwrap();
        let (status, first) = post(vec![
            ("grant_type", "authorization_code".into()),
            ("code", code),
            ("redirect_uri", REDIRECT.into()),
            ("client_id", "c".into()),
            ("code_verifier", VERIFIER.into()),
        ])
        .await;
        assert_eq!(status, StatusCode::OK, "{first}");
        let refresh = first["refresh_token"].as_str().unwrap().to_string();
        let tasks: Vec<_> = (0..10)
            .map(|_| {
                tokio::spawn(post(vec![
                    ("grant_type", "refresh_token".into()),
                    ("refresh_token", refresh.clone()),
                    ("client_id", "c".into()),
                ]))
            })
            .collect();
        let mut issued = vec![first["access_token"].as_str().unwrap().to_string()];
        for task in tasks {
            let (status, body) = task.await.unwrap();
            if status == StatusCode::OK {
                issued.push(body["access_token"].as_str().unwrap().to_string());
            }
        }
        assert!(issued.len() <= 2, "one rotation at most");
        for access in &issued {
            assert!(
                !opens(access).await,
                "round {round}: a token outlived the replay"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_concurrent_refresh_replay_on_sqlite_leaves_no_token_alive_rfc9700_4_14_2() {
    let (config, dir) = crate::hosted_flow::sqlite_db();
    concurrent_replay_on(config).await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_concurrent_refresh_replay_on_postgres_leaves_no_token_alive_rfc9700_4_14_2() {
    concurrent_replay_on(crate::hosted_flow::postgres_db()).await;
}

// RFC 8707 / RFC 9068's audience: a refresh token keeps the resource it was issued for. One
// issued for another instance's public URL is refused here, and not spent.
#[tokio::test]
async fn a_refresh_keeps_the_audience_it_was_issued_for_rfc8707() {
    let h = start().await;
    let client_id = h.registered_client("Tool").await;
    let hash = sha256_hex("elsewhere-refresh");
    let elsewhere = TokenRecord {
        kind: TokenKind::Refresh,
        person_id: "person-1".into(),
        client_id: client_id.clone(),
        scope: "read write".into(),
        resource: "https://other-instance.example/mcp".into(),
        expires_at: T0 + 3600,
        family: "elsewhere".into(),
        revoked: false,
    };
    h.store.put_token(&hash, &elsewhere).await.unwrap();
    let r = h.refresh("elsewhere-refresh", &client_id).await;
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"], "invalid_grant");
    assert!(
        body["error_description"]
            .as_str()
            .unwrap()
            .contains("https://other-instance.example/mcp"),
        "{body}"
    );
    assert_eq!(
        h.store.use_refresh(&hash).await.unwrap(),
        RefreshUse::Fresh(elsewhere),
        "not spent, not moved"
    );
    // and one issued here is rotated for the same audience
    let here = h.tokens(&client_id, "read").await;
    let r = h
        .refresh(here["refresh_token"].as_str().unwrap(), &client_id)
        .await;
    let rotated: Value = r.json().await.unwrap();
    let stored = h
        .store
        .token(&sha256_hex(rotated["access_token"].as_str().unwrap()))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.resource, format!("{}/mcp", h.base));
}

// Registration, /authorize and the token endpoint are limited per client address: past the
// budget 429 with Retry-After, before anything is stored.
#[tokio::test]
async fn each_route_class_is_rate_limited_per_address_with_retry_after() {
    let h = start_configured(|config| {
        config.rate_limits = RateLimits {
            register: Limit {
                burst: 3,
                every: Duration::from_secs(3600),
            },
            authorize: Limit {
                burst: 2,
                every: Duration::from_secs(3600),
            },
            token: Limit {
                burst: 2,
                every: Duration::from_secs(3600),
            },
        };
    })
    .await;
    let mut created = 0;
    for _ in 0..3 {
        let r = h.register(json!({"redirect_uris": [REDIRECT]})).await;
        assert_eq!(r.status(), StatusCode::CREATED);
        created += 1;
    }
    let r = h.register(json!({"redirect_uris": [REDIRECT]})).await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((3000..=3600).contains(&wait), "{wait}");
    assert_eq!(error_of(r).await, "too_many_requests");
    assert_eq!(created, 3);
    // the consent page: a page, not JSON
    let path = h.authorize_path(&[("client_id", "x")]);
    for _ in 0..2 {
        assert_eq!(h.get(&path).await.status(), StatusCode::BAD_REQUEST);
    }
    let r = h.get(&path).await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(r.headers().contains_key("retry-after"));
    assert!(
        r.text()
            .await
            .unwrap()
            .contains("Too many sign-in requests")
    );
    let r = h.answer("x", None, "read").await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS, "its answer too");
    // the token endpoint and revocation share a budget
    assert_eq!(error_of(h.refresh("a", "b").await).await, "invalid_grant");
    assert_eq!(
        h.form("/revoke", &[("token", "a")]).await.status(),
        StatusCode::OK
    );
    let r = h.refresh("a", "b").await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(r.headers().contains_key("retry-after"));
    assert_eq!(
        h.server.forget_idle_addresses(),
        3,
        "one address in each class"
    );
}

// Behind a proxy (and only then), the address is the one the proxy appended to
// X-Forwarded-For; otherwise the header is ignored and the peer's address counts.
#[tokio::test]
async fn the_forwarded_address_counts_only_behind_a_proxy() {
    let one = Limit {
        burst: 1,
        every: Duration::from_secs(3600),
    };
    let limits = RateLimits {
        register: one,
        ..RateLimits::default()
    };
    let register_from = async |h: &Harness, address: &str| {
        h.http
            .post(format!("{}/register", h.base))
            .header("x-forwarded-for", format!("198.51.100.1, {address}"))
            .json(&json!({"redirect_uris": [REDIRECT]}))
            .send()
            .await
            .unwrap()
            .status()
    };
    let proxied = start_configured(|config| {
        config.rate_limits = limits;
        config.client_address = ClientAddress::Forwarded;
    })
    .await;
    assert_eq!(
        register_from(&proxied, "203.0.113.1").await,
        StatusCode::CREATED
    );
    assert_eq!(
        register_from(&proxied, "203.0.113.1").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        register_from(&proxied, "203.0.113.2").await,
        StatusCode::CREATED
    );
    let direct = start_configured(|config| config.rate_limits = limits).await;
    assert_eq!(
        register_from(&direct, "203.0.113.1").await,
        StatusCode::CREATED
    );
    assert_eq!(
        register_from(&direct, "203.0.113.2").await,
        StatusCode::TOO_MANY_REQUESTS,
        "a client cannot choose its address"
    );
}

// Every stored field is bounded: a registration keeping more than 4 KB of metadata, a state
// longer than 1 KB, a metadata-document client_id with a query are refused with a 400 that says
// what to do, and nothing is stored.
#[tokio::test]
async fn stored_fields_are_bounded_with_a_clear_400() {
    let h = start().await;
    let long: Vec<String> = (0..5)
        .map(|i| format!("http://127.0.0.1:7777/{i}/{}", "x".repeat(1000)))
        .collect();
    let r = h.register(json!({"redirect_uris": long})).await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"], "invalid_client_metadata");
    assert!(
        body["error_description"]
            .as_str()
            .unwrap()
            .contains("4096 bytes")
    );
    let client_id = h.registered_client("Tool").await;
    let state = "s".repeat(1025);
    let r = h
        .get(&h.pkce_authorize_path(&client_id, &[("state", &state)]))
        .await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(
        r.text()
            .await
            .unwrap()
            .contains("state is longer than 1024 bytes")
    );
    let r = h
        .get(&h.authorize_path(&[
            ("response_type", "code"),
            ("client_id", "https://client.example/meta.json?variant=1"),
            ("redirect_uri", REDIRECT),
        ]))
        .await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(r.text().await.unwrap().contains("must have no query"));
    assert_eq!(h.store.pending_count(), 0);
}

// A storage failure at /authorize is the server's: 503, never a 400 blaming the request.
#[tokio::test]
async fn authorize_answers_503_when_storage_fails() {
    let h = start().await;
    let client_id = h.registered_client("Tool").await;
    h.store.fail_client_lookups();
    let r = h.get(&h.pkce_authorize_path(&client_id, &[])).await;
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(r.headers()["x-content-type-options"], "nosniff");
    assert!(r.text().await.unwrap().contains("Try again in a minute"));
}

#[tokio::test]
async fn revocation_answers_200_and_revokes() {
    let h = start().await;
    let client_id = h.registered_client("Tool").await;
    let t = h.tokens(&client_id, "read").await;
    let access = t["access_token"].as_str().unwrap();
    let refresh = t["refresh_token"].as_str().unwrap();
    assert_eq!(
        h.form("/revoke", &[("token", "unknown")]).await.status(),
        StatusCode::OK
    );
    let r = h
        .form(
            "/revoke",
            &[("token", access), ("token_type_hint", "access_token")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(
        h.mcp(Some(&format!("Bearer {access}"))).await.status(),
        StatusCode::UNAUTHORIZED
    );
    // Revoking the refresh token ends the grant: refresh refused.
    let t = h.tokens(&client_id, "read").await;
    let access = t["access_token"].as_str().unwrap();
    assert_eq!(
        h.form("/revoke", &[("token", refresh)]).await.status(),
        StatusCode::OK
    );
    let refresh = t["refresh_token"].as_str().unwrap();
    assert_eq!(
        h.form("/revoke", &[("token", refresh)]).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        error_of(h.refresh(refresh, &client_id).await).await,
        "invalid_grant"
    );
    assert_eq!(
        h.mcp(Some(&format!("Bearer {access}"))).await.status(),
        StatusCode::UNAUTHORIZED,
        "the refresh token's access tokens go with it"
    );
    assert_eq!(
        h.form("/revoke", &[]).await.status(),
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn authenticate_refuses_missing_forged_expired_foreign_and_revoked_tokens() {
    let h = start().await;
    let client_id = h.registered_client("Tool").await;
    let metadata = format!("{}/.well-known/oauth-protected-resource/mcp", h.base);
    let missing = format!("Bearer resource_metadata=\"{metadata}\", scope=\"read write\"");
    let invalid = format!(
        "Bearer error=\"invalid_token\", resource_metadata=\"{metadata}\", scope=\"read write\""
    );

    let r = h.mcp(None).await;
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(r.headers()["www-authenticate"], missing.as_str());

    let t = h.tokens(&client_id, "read").await;
    let access = t["access_token"].as_str().unwrap().to_string();
    let r = h.mcp(Some(&format!("bearer {access}"))).await;
    assert_eq!(r.status(), StatusCode::OK);
    let who: Value = r.json().await.unwrap();
    assert_eq!(
        who,
        json!({"person": "person-1", "client": client_id, "scope": "read"})
    );

    // Read-only token on a change: 403 insufficient_scope.
    let r = h
        .http
        .post(format!("{}/mcp", h.base))
        .header("authorization", format!("Bearer {access}"))
        .header("x-needs-write", "1")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        r.headers()["www-authenticate"],
        format!(
            "Bearer error=\"insufficient_scope\", scope=\"read write\", \
             resource_metadata=\"{metadata}\""
        )
        .as_str()
    );

    let refresh = t["refresh_token"].as_str().unwrap();
    for presented in [
        "Bearer forged-token".to_string(),
        format!("Basic {access}"),
        "Bearer ".to_string(),
        format!("Bearer {refresh}"),
    ] {
        let r = h.mcp(Some(&presented)).await;
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED, "{presented}");
        assert_eq!(
            r.headers()["www-authenticate"],
            invalid.as_str(),
            "{presented}"
        );
    }

    // Wrong audience: a token stored for another resource.
    let mut foreign = h.store.token(&sha256_hex(&access)).await.unwrap().unwrap();
    foreign.resource = "https://other.example/mcp".into();
    h.store
        .put_token(&sha256_hex("foreign-token"), &foreign)
        .await
        .unwrap();
    let r = h.mcp(Some("Bearer foreign-token")).await;
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(r.headers()["www-authenticate"], invalid.as_str());

    // Expired: the clock moves past the hour.
    h.clock.fetch_add(3600, Ordering::SeqCst);
    let r = h.mcp(Some(&format!("Bearer {access}"))).await;
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(r.headers()["www-authenticate"], invalid.as_str());
    h.clock.fetch_sub(3600, Ordering::SeqCst);

    // Revoked.
    assert_eq!(
        h.mcp(Some(&format!("Bearer {access}"))).await.status(),
        StatusCode::OK
    );
    h.store.revoke_token(&sha256_hex(&access)).await.unwrap();
    let r = h.mcp(Some(&format!("Bearer {access}"))).await;
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(r.headers()["www-authenticate"], invalid.as_str());

    // The same through the API the middleware uses.
    let refused = h.server.authenticate(None).await.unwrap_err();
    assert_eq!(refused.status(), axum::http::StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn delete_forgets_the_person() {
    let h = start().await;
    let client_id = h.registered_client("Tool").await;
    let t = h.tokens(&client_id, "read").await;
    let access = t["access_token"].as_str().unwrap();
    let unauthenticated = h.form("/delete", &[]).await;
    assert_eq!(unauthenticated.status(), StatusCode::UNAUTHORIZED);
    let r = h
        .http
        .post(format!("{}/delete", h.base))
        .header("authorization", format!("Bearer {access}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["deleted"], true);
    assert!(body["removed"].as_array().unwrap().len() >= 3);
    assert_eq!(
        *h.hook.deleted.lock().unwrap(),
        vec!["person-1".to_string()]
    );
    assert_eq!(h.store.token_count(), 0);
    assert_eq!(
        h.mcp(Some(&format!("Bearer {access}"))).await.status(),
        StatusCode::UNAUTHORIZED
    );
}

/// A client metadata document served over HTTPS by a throwaway CA (a minimal HTTP/1.1 server
/// on tokio-rustls), answering the documents `make(port)` returns by path. Returns the port and
/// the CA's PEM.
async fn serve_documents(make: impl FnOnce(u16) -> HashMap<String, String>) -> (u16, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio_rustls::rustls;

    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let issuer = rcgen::Issuer::from_params(&ca_params, &ca_key);
    let leaf_key = rcgen::KeyPair::generate().unwrap();
    let leaf = rcgen::CertificateParams::new(vec!["localhost".to_string()])
        .unwrap()
        .signed_by(&leaf_key, &issuer)
        .unwrap();

    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![leaf.der().clone()],
            rustls::pki_types::PrivateKeyDer::Pkcs8(leaf_key.serialize_der().into()),
        )
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let documents = Arc::new(make(port));
    tokio::spawn(async move {
        loop {
            let Ok((tcp, _)) = listener.accept().await else {
                return;
            };
            let acceptor = acceptor.clone();
            let documents = documents.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let mut request = Vec::new();
                let mut buf = [0u8; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match tls.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => request.extend_from_slice(&buf[..n]),
                    }
                }
                let text = String::from_utf8_lossy(&request);
                let path = text.split(' ').nth(1).unwrap_or("/").to_string();
                let (status, body) = match documents.get(&path) {
                    Some(body) => ("200 OK", body.clone()),
                    None => ("404 Not Found", String::new()),
                };
                let response = format!(
                    "HTTP/1.1 {status}\r\ncontent-type: application/json\r\n\
                     content-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = tls.write_all(response.as_bytes()).await;
                let _ = tls.shutdown().await;
            });
        }
    });
    (port, ca.pem().into_bytes())
}

#[tokio::test]
async fn a_client_metadata_document_is_fetched_over_https_validated_and_cached() {
    let documents_for = |port: u16| {
        let good = format!("https://localhost:{port}/client.json");
        let big = format!("https://localhost:{port}/big.json");
        HashMap::from([
            (
                "/client.json".to_string(),
                json!({"client_id": good, "client_name": "Doc <Client>",
                       "redirect_uris": [REDIRECT]})
                .to_string(),
            ),
            (
                "/liar.json".to_string(),
                json!({"client_id": "https://elsewhere.example/client.json",
                       "redirect_uris": [REDIRECT]})
                .to_string(),
            ),
            (
                "/big.json".to_string(),
                json!({"client_id": big, "redirect_uris": [REDIRECT],
                       "padding": "x".repeat(6000)})
                .to_string(),
            ),
        ])
    };
    let (port, ca_pem) = serve_documents(documents_for).await;

    let h = start_with(vec![ca_pem.clone()], true).await;
    let client_id = format!("https://localhost:{port}/client.json");
    let authorize = |client: &str, redirect: &str| {
        h.authorize_path(&[
            ("response_type", "code"),
            ("client_id", client),
            ("redirect_uri", redirect),
            ("code_challenge", CHALLENGE),
            ("code_challenge_method", "S256"),
        ])
    };
    let r = h.get(&authorize(&client_id, REDIRECT)).await;
    assert_eq!(r.status(), StatusCode::OK);
    let page = r.text().await.unwrap();
    assert!(page.contains("Doc &lt;Client&gt;"));
    let cached = h.store.client(&client_id).await.unwrap().unwrap();
    assert_eq!(cached.metadata["client_name"], "Doc <Client>");

    // A redirect URI the document does not list: page, no redirect.
    let r = h
        .get(&authorize(&client_id, "http://127.0.0.1:7777/other"))
        .await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(r.headers().get("location").is_none());

    for bad in ["liar.json", "big.json", "missing.json"] {
        let id = format!("https://localhost:{port}/{bad}");
        let r = h.get(&authorize(&id, REDIRECT)).await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{bad}");
        assert!(r.headers().get("location").is_none(), "{bad}");
        assert!(h.store.client(&id).await.unwrap().is_none(), "{bad}");
    }

    // In production (no private hosts), localhost is never fetched.
    let prod = start_with(vec![ca_pem], false).await;
    let r = prod.get(&authorize(&client_id, REDIRECT)).await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(prod.store.client(&client_id).await.unwrap().is_none());
}
