//! YNAB's OAuth as the sandbox speaks it (`ynab_sandbox::oauth`), over real HTTP with redirects
//! not followed: the code grant, refresh rotation, expiry on the sandbox's clock, the read-only
//! scope, users who each see their own plans, refusals, and the control routes.

use reqwest::{Client, Method, StatusCode, Url, header, redirect};
use serde_json::{Value, json};
use ynab_sandbox::builder::{PlanBuilder, date};
use ynab_sandbox::oauth::{OAuthSetupError, user_id};
use ynab_sandbox::{PlanState, Sandbox, SandboxOptions, demo, ids};

const CLIENT_ID: &str = "avenir-hosted";
const SECRET: &str = "s3cret";
const REDIRECT: &str = "http://127.0.0.1:9/oauth/callback";

fn side_plan() -> PlanState {
    let mut b = PlanBuilder::new("side-business", "Side business", demo::DEMO_TODAY);
    b.months(date("2026-08-01"), date("2026-09-01"));
    b.account("acc-biz", "Business checking", "checking", true);
    b.group("grp-biz", "Business");
    b.category("cat-tools", "grp-biz", "Tools");
    b.build()
}

fn demo_id() -> String {
    ids::id("demo-budget")
}

fn side_id() -> String {
    ids::id("side-business")
}

/// A sandbox over the demo plan and a side plan; alice sees the demo plan, bob the side plan;
/// one registered app.
async fn sandbox() -> Sandbox {
    let sandbox = Sandbox::start_plans(
        demo::demo_plan(demo::DEMO_TODAY),
        vec![side_plan()],
        SandboxOptions::default(),
    )
    .await
    .unwrap();
    sandbox.add_user("alice", &[demo_id()]).unwrap();
    sandbox.add_user("bob", &[side_id()]).unwrap();
    sandbox.add_oauth_app(CLIENT_ID, SECRET, REDIRECT);
    sandbox
}

fn client() -> Client {
    ynab::http_client_builder()
        .redirect(redirect::Policy::none())
        .build()
        .unwrap()
}

fn root(sandbox: &Sandbox) -> String {
    format!("http://{}", sandbox.addr())
}

/// `GET /oauth/authorize` with `pairs` as the query.
async fn authorize(sandbox: &Sandbox, pairs: &[(&str, &str)]) -> reqwest::Response {
    client()
        .get(format!("{}/oauth/authorize", root(sandbox)))
        .query(pairs)
        .send()
        .await
        .unwrap()
}

/// The query of a 302's `Location`, after checking it goes to the registered redirect URI.
fn redirected_query(response: &reqwest::Response) -> Vec<(String, String)> {
    assert_eq!(response.status(), StatusCode::FOUND);
    let location = response.headers()[header::LOCATION].to_str().unwrap();
    let url = Url::parse(location).unwrap();
    assert_eq!(
        format!("{}://{}{}", url.scheme(), url.authority(), url.path()),
        REDIRECT
    );
    url.query_pairs().into_owned().collect()
}

fn param<'a>(query: &'a [(String, String)], name: &str) -> Option<&'a str> {
    query
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// A code for the signed-in user, with `scope` when given.
async fn code(sandbox: &Sandbox, scope: Option<&str>) -> String {
    let mut pairs = vec![
        ("client_id", CLIENT_ID),
        ("redirect_uri", REDIRECT),
        ("response_type", "code"),
        ("state", "st"),
    ];
    if let Some(scope) = scope {
        pairs.push(("scope", scope));
    }
    let response = authorize(sandbox, &pairs).await;
    let query = redirected_query(&response);
    assert_eq!(param(&query, "state"), Some("st"));
    param(&query, "code").unwrap().to_owned()
}

/// `POST /oauth/token` with a form body of `pairs`: status and JSON.
async fn token(sandbox: &Sandbox, pairs: &[(&str, &str)]) -> (StatusCode, Value) {
    let body = pairs
        .iter()
        .map(|(n, v)| {
            format!(
                "{}={}",
                form_urlencoded::byte_serialize(n.as_bytes()).collect::<String>(),
                form_urlencoded::byte_serialize(v.as_bytes()).collect::<String>()
            )
        })
        .collect::<Vec<_>>()
        .join("&");
    let response = client()
        .post(format!("{}/oauth/token", root(sandbox)))
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap())
}

async fn exchange(sandbox: &Sandbox, code: &str) -> (StatusCode, Value) {
    token(
        sandbox,
        &[
            ("grant_type", "authorization_code"),
            ("client_id", CLIENT_ID),
            ("client_secret", SECRET),
            ("redirect_uri", REDIRECT),
            ("code", code),
        ],
    )
    .await
}

async fn refresh(sandbox: &Sandbox, refresh_token: &str) -> (StatusCode, Value) {
    token(
        sandbox,
        &[
            ("grant_type", "refresh_token"),
            ("client_id", CLIENT_ID),
            ("client_secret", SECRET),
            ("refresh_token", refresh_token),
        ],
    )
    .await
}

/// Access and refresh token of a completed code grant for the signed-in user.
async fn tokens(sandbox: &Sandbox, scope: Option<&str>) -> (String, String) {
    let code = code(sandbox, scope).await;
    let (status, body) = exchange(sandbox, &code).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    (
        body["access_token"].as_str().unwrap().to_owned(),
        body["refresh_token"].as_str().unwrap().to_owned(),
    )
}

/// A `/v1` request with `Bearer {bearer}` (none when `None`): status and JSON.
async fn v1(
    sandbox: &Sandbox,
    bearer: Option<&str>,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut request = client().request(method, format!("{}{path}", sandbox.base_url()));
    if let Some(bearer) = bearer {
        request = request.bearer_auth(bearer);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn get(sandbox: &Sandbox, bearer: &str, path: &str) -> (StatusCode, Value) {
    v1(sandbox, Some(bearer), Method::GET, path, None).await
}

/// `POST /__sandbox/{what}` with a JSON body.
async fn control(sandbox: &Sandbox, what: &str, body: Value) -> (StatusCode, Value) {
    let response = client()
        .post(format!("{}/__sandbox/{what}", root(sandbox)))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn stats(sandbox: &Sandbox) -> Value {
    client()
        .get(format!("{}/__sandbox/stats", root(sandbox)))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

fn is_token(value: &Value) -> bool {
    value
        .as_str()
        .is_some_and(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn plan_ids(list: &Value, member: &str) -> Vec<String> {
    list["data"][member]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn the_code_grant_gives_a_token_that_reads_the_plan() {
    let sandbox = sandbox().await;
    let state = "a b&c=d/é?";
    let response = authorize(
        &sandbox,
        &[
            ("client_id", CLIENT_ID),
            ("redirect_uri", REDIRECT),
            ("response_type", "code"),
            ("state", state),
        ],
    )
    .await;
    let query = redirected_query(&response);
    assert_eq!(param(&query, "state"), Some(state));
    let code = param(&query, "code").unwrap().to_owned();
    assert!(is_token(&json!(code)), "{code}");

    let before = chrono::Utc::now().timestamp();
    let (status, body) = exchange(&sandbox, &code).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["expires_in"], 7200);
    assert_eq!(body["scope"], "");
    assert!(is_token(&body["access_token"]));
    assert!(is_token(&body["refresh_token"]));
    assert_ne!(body["access_token"], body["refresh_token"]);
    let created = body["created_at"].as_i64().unwrap();
    assert!((before..=before + 5).contains(&created), "{created}");

    let access = body["access_token"].as_str().unwrap();
    let (status, accounts) = get(&sandbox, access, "/plans/last-used/accounts").await;
    assert_eq!(status, StatusCode::OK);
    assert!(!accounts["data"]["accounts"].as_array().unwrap().is_empty());
    let (status, user) = get(&sandbox, access, "/user").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(user, json!({"data": {"user": {"id": user_id("alice")}}}));

    // Without a state, none comes back.
    let response = authorize(
        &sandbox,
        &[
            ("client_id", CLIENT_ID),
            ("redirect_uri", REDIRECT),
            ("response_type", "code"),
        ],
    )
    .await;
    let query = redirected_query(&response);
    assert_eq!(param(&query, "state"), None);
    assert!(param(&query, "code").is_some());

    assert_eq!(
        stats(&sandbox).await["oauth"],
        json!({"authorization_code": 1, "refresh_token": 0})
    );
}

#[tokio::test]
async fn a_refresh_rotates_the_refresh_token() {
    let sandbox = sandbox().await;
    let (access, refresh_token) = tokens(&sandbox, None).await;

    let (status, body) = refresh(&sandbox, &refresh_token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let new_access = body["access_token"].as_str().unwrap().to_owned();
    let new_refresh = body["refresh_token"].as_str().unwrap().to_owned();
    assert!(is_token(&body["access_token"]) && is_token(&body["refresh_token"]));
    assert_ne!(new_access, access);
    assert_ne!(new_refresh, refresh_token);
    assert_eq!(body["expires_in"], 7200);
    assert_eq!(body["scope"], "");

    // The old refresh token is spent.
    let (status, body) = refresh(&sandbox, &refresh_token).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], "invalid_grant");
    assert!(
        body["error_description"]
            .as_str()
            .is_some_and(|d| !d.is_empty())
    );

    // The new ones work.
    let (status, plans) = get(&sandbox, &new_access, "/plans").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(plan_ids(&plans, "plans"), vec![demo_id()]);
    let (status, body) = refresh(&sandbox, &new_refresh).await;
    assert_eq!(status, StatusCode::OK);

    // Another registered client cannot use this client's refresh token.
    sandbox.add_oauth_app("other-app", "other-secret", "http://127.0.0.1:9/other");
    let (status, refused) = token(
        &sandbox,
        &[
            ("grant_type", "refresh_token"),
            ("client_id", "other-app"),
            ("client_secret", "other-secret"),
            ("refresh_token", body["refresh_token"].as_str().unwrap()),
        ],
    )
    .await;
    assert_eq!(
        (status, &refused["error"]),
        (StatusCode::BAD_REQUEST, &json!("invalid_grant"))
    );

    assert_eq!(
        stats(&sandbox).await["oauth"],
        json!({"authorization_code": 1, "refresh_token": 2})
    );
    // A reset zeroes the counters and keeps the tokens.
    let reset = client()
        .post(format!("{}/__sandbox/reset", root(&sandbox)))
        .send()
        .await
        .unwrap();
    assert_eq!(reset.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        stats(&sandbox).await["oauth"],
        json!({"authorization_code": 0, "refresh_token": 0})
    );
    assert_eq!(get(&sandbox, &new_access, "/plans").await.0, StatusCode::OK);
}

#[tokio::test]
async fn an_expired_access_token_answers_401_until_refreshed() {
    let sandbox = sandbox().await;
    let (access, refresh_token) = tokens(&sandbox, None).await;
    let (status, _) = get(&sandbox, &access, "/plans").await;
    assert_eq!(status, StatusCode::OK);

    // Just before the two hours: still good.
    sandbox.advance_clock(7190);
    let (status, _) = get(&sandbox, &access, "/plans").await;
    assert_eq!(status, StatusCode::OK);

    let (status, clock) = control(&sandbox, "clock", json!({"advance_seconds": 11})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(clock["offset_seconds"], 7201);

    let missing = v1(&sandbox, None, Method::GET, "/plans", None).await;
    assert_eq!(missing.0, StatusCode::UNAUTHORIZED);
    let expired = get(&sandbox, &access, "/plans").await;
    assert_eq!(expired, missing);
    assert_eq!(expired.1["error"]["id"], "401");

    let (status, body) = refresh(&sandbox, &refresh_token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let fresh = body["access_token"].as_str().unwrap();
    let (status, plans) = get(&sandbox, fresh, "/plans").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(plan_ids(&plans, "plans"), vec![demo_id()]);
    // The old access token stays expired.
    assert_eq!(get(&sandbox, &access, "/plans").await, missing);
}

#[tokio::test]
async fn a_read_only_token_reads_but_cannot_write() {
    let sandbox = sandbox().await;
    let (access, refresh_token) = tokens(&sandbox, Some("read-only")).await;
    let knowledge = sandbox.server_knowledge();

    let (status, payees) = get(&sandbox, &access, "/plans/last-used/payees").await;
    assert_eq!(status, StatusCode::OK);
    let count = payees["data"]["payees"].as_array().unwrap().len();

    let (status, body) = v1(
        &sandbox,
        Some(&access),
        Method::POST,
        "/plans/last-used/payees",
        Some(json!({"payee": {"name": "Dentist"}})),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(body["error"]["id"], "403.3");
    assert_eq!(body["error"]["name"], "unauthorized_scope");
    assert_eq!(body["error"].as_object().unwrap().len(), 3, "{body}");
    assert!(
        body["error"]["detail"]
            .as_str()
            .is_some_and(|d| d.contains("read-only"))
    );

    let tx = format!("/plans/{}/transactions/{}", demo_id(), ids::id("tx-054"));
    let (status, body) = v1(
        &sandbox,
        Some(&access),
        Method::PUT,
        &tx,
        Some(json!({"transaction": {"memo": "changed"}})),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(body["error"]["id"], "403.3");
    let (status, body) = v1(&sandbox, Some(&access), Method::DELETE, &tx, None).await;
    assert_eq!(
        (status, &body["error"]["id"]),
        (StatusCode::FORBIDDEN, &json!("403.3"))
    );

    // Nothing applied.
    assert_eq!(sandbox.server_knowledge(), knowledge);
    let (_, payees) = get(&sandbox, &access, "/plans/last-used/payees").await;
    assert_eq!(payees["data"]["payees"].as_array().unwrap().len(), count);
    let (status, one) = get(&sandbox, &access, &tx).await;
    assert_eq!(status, StatusCode::OK);
    assert_ne!(one["data"]["transaction"]["memo"], "changed");

    // A refresh keeps the scope.
    let (status, body) = refresh(&sandbox, &refresh_token).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["scope"], "read-only");
    let (status, _) = v1(
        &sandbox,
        body["access_token"].as_str(),
        Method::POST,
        "/plans/last-used/payees",
        Some(json!({"payee": {"name": "Dentist"}})),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // A read-write token writes.
    let (rw, _) = tokens(&sandbox, Some("")).await;
    let (status, _) = v1(
        &sandbox,
        Some(&rw),
        Method::POST,
        "/plans/last-used/payees",
        Some(json!({"payee": {"name": "Dentist"}})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(sandbox.server_knowledge(), knowledge + 1);
}

#[tokio::test]
async fn each_user_sees_only_their_own_plans() {
    let sandbox = sandbox().await;
    // Never signed in: the first user added.
    let (alice, _) = tokens(&sandbox, None).await;
    let (status, _) = control(&sandbox, "oauth/sign-in", json!({"user": "bob"})).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (bob, _) = tokens(&sandbox, None).await;
    // Sticky.
    let (bob_again, _) = tokens(&sandbox, None).await;

    let (_, list) = get(&sandbox, &alice, "/plans").await;
    assert_eq!(plan_ids(&list, "plans"), vec![demo_id()]);
    let (_, list) = get(&sandbox, &bob, "/plans").await;
    assert_eq!(plan_ids(&list, "plans"), vec![side_id()]);
    let (_, list) = get(&sandbox, &bob_again, "/budgets").await;
    assert_eq!(plan_ids(&list, "budgets"), vec![side_id()]);
    // Any other token: every plan, as before.
    let (_, list) = get(&sandbox, "any-token", "/plans").await;
    assert_eq!(plan_ids(&list, "plans"), vec![demo_id(), side_id()]);

    // The other's plan is an unknown plan.
    let unknown = get(&sandbox, &alice, "/plans/not-a-plan/accounts").await;
    assert_eq!(unknown.0, StatusCode::NOT_FOUND);
    assert_eq!(unknown.1["error"]["id"], "404.2");
    let side = format!("/plans/{}/accounts", side_id());
    assert_eq!(get(&sandbox, &alice, &side).await, unknown);
    assert_eq!(
        get(&sandbox, &bob, &format!("/plans/{}/accounts", demo_id())).await,
        get(&sandbox, &bob, "/plans/not-a-plan/accounts").await
    );
    assert_eq!(
        get(&sandbox, &bob, &format!("/budgets/{}", demo_id()))
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    let (status, _) = v1(
        &sandbox,
        Some(&bob),
        Method::POST,
        &format!("/plans/{}/payees", demo_id()),
        Some(json!({"payee": {"name": "Intruder"}})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = get(&sandbox, "any-token", &side).await;
    assert_eq!(status, StatusCode::OK);

    // last-used and default are the user's first plan.
    let (status, plan) = get(&sandbox, &bob, "/plans/last-used").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(plan["data"]["plan"]["id"], json!(side_id()));
    let (_, plan) = get(&sandbox, &bob, "/budgets/default").await;
    assert_eq!(plan["data"]["budget"]["id"], json!(side_id()));
    let (_, plan) = get(&sandbox, &alice, "/plans/last-used").await;
    assert_eq!(plan["data"]["plan"]["id"], json!(demo_id()));
    let (_, accounts) = get(&sandbox, &bob, "/plans/last-used/accounts").await;
    let names: Vec<&str> = accounts["data"]["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["Business checking"]);

    // /user.
    assert_eq!(
        get(&sandbox, &alice, "/user").await.1["data"]["user"]["id"],
        json!(user_id("alice"))
    );
    assert_eq!(
        get(&sandbox, &bob, "/user").await.1["data"]["user"]["id"],
        json!(user_id("bob"))
    );
    assert_ne!(user_id("alice"), user_id("bob"));
    assert_eq!(
        get(&sandbox, "any-token", "/user").await.1["data"]["user"]["id"],
        json!(ids::id("sandbox-user"))
    );

    // Unknown user: refused with a sentence.
    let (status, body) = control(&sandbox, "oauth/sign-in", json!({"user": "carol"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"]["detail"]
            .as_str()
            .unwrap()
            .contains("add_user")
    );
}

#[tokio::test]
async fn an_unknown_client_or_another_redirect_uri_is_refused_without_redirect() {
    let sandbox = sandbox().await;
    for pairs in [
        vec![
            ("client_id", "nobody"),
            ("redirect_uri", REDIRECT),
            ("response_type", "code"),
        ],
        vec![
            ("client_id", CLIENT_ID),
            ("redirect_uri", "http://127.0.0.1:9/oauth/callback/evil"),
            ("response_type", "code"),
        ],
        vec![("client_id", CLIENT_ID), ("response_type", "code")],
        vec![("redirect_uri", REDIRECT), ("response_type", "code")],
    ] {
        let response = authorize(&sandbox, &pairs).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{pairs:?}");
        assert!(response.headers().get(header::LOCATION).is_none());
        assert!(
            response.headers()[header::CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with("text/plain")
        );
        let text = response.text().await.unwrap();
        assert!(text.ends_with('.') && text.len() > 20, "{text}");
    }

    // Errors after the app is known go back to it, state included.
    let response = authorize(
        &sandbox,
        &[
            ("client_id", CLIENT_ID),
            ("redirect_uri", REDIRECT),
            ("response_type", "token"),
            ("state", "s1"),
        ],
    )
    .await;
    let query = redirected_query(&response);
    assert_eq!(param(&query, "error"), Some("unsupported_response_type"));
    assert_eq!(param(&query, "state"), Some("s1"));
    assert_eq!(param(&query, "code"), None);
    let response = authorize(
        &sandbox,
        &[
            ("client_id", CLIENT_ID),
            ("redirect_uri", REDIRECT),
            ("response_type", "code"),
            ("scope", "write-everything"),
        ],
    )
    .await;
    let query = redirected_query(&response);
    assert_eq!(param(&query, "error"), Some("invalid_scope"));
    assert_eq!(param(&query, "code"), None);
}

#[tokio::test]
async fn fail_refresh_makes_the_users_refresh_tokens_invalid() {
    let sandbox = sandbox().await;
    let (access, alice_refresh) = tokens(&sandbox, None).await;
    sandbox.sign_in("bob").unwrap();
    let (_, bob_refresh) = tokens(&sandbox, None).await;

    let (status, _) = control(&sandbox, "oauth/fail-refresh", json!({"user": "alice"})).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, body) = refresh(&sandbox, &alice_refresh).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], "invalid_grant");
    // Bob's still works; alice's access token lasts until it expires.
    let (status, _) = refresh(&sandbox, &bob_refresh).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(get(&sandbox, &access, "/plans").await.0, StatusCode::OK);
    // A new authorization gives alice a working refresh token again.
    sandbox.sign_in("alice").unwrap();
    let (_, again) = tokens(&sandbox, None).await;
    assert_eq!(refresh(&sandbox, &again).await.0, StatusCode::OK);

    assert_eq!(
        sandbox.fail_refresh("carol"),
        Err(OAuthSetupError::UnknownUser("carol".to_owned()))
    );
}

#[tokio::test]
async fn a_code_is_used_once_and_the_token_endpoint_checks_its_request() {
    let sandbox = sandbox().await;
    let first = code(&sandbox, None).await;
    let (status, _) = exchange(&sandbox, &first).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = exchange(&sandbox, &first).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"], "invalid_grant");

    // Wrong secret: invalid_client, and the code is not spent by it.
    let second = code(&sandbox, None).await;
    let (status, body) = token(
        &sandbox,
        &[
            ("grant_type", "authorization_code"),
            ("client_id", CLIENT_ID),
            ("client_secret", "wrong"),
            ("redirect_uri", REDIRECT),
            ("code", &second),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body["error"], "invalid_client");
    // Another redirect_uri: invalid_grant, and the code is spent.
    let (status, body) = token(
        &sandbox,
        &[
            ("grant_type", "authorization_code"),
            ("client_id", CLIENT_ID),
            ("client_secret", SECRET),
            ("redirect_uri", "http://elsewhere/"),
            ("code", &second),
        ],
    )
    .await;
    assert_eq!(
        (status, &body["error"]),
        (StatusCode::BAD_REQUEST, &json!("invalid_grant"))
    );
    assert_eq!(
        exchange(&sandbox, &second).await.1["error"],
        "invalid_grant"
    );

    // An expired code.
    let third = code(&sandbox, None).await;
    sandbox.advance_clock(601);
    assert_eq!(exchange(&sandbox, &third).await.1["error"], "invalid_grant");

    let (status, body) = token(&sandbox, &[("grant_type", "password")]).await;
    assert_eq!(
        (status, &body["error"]),
        (StatusCode::BAD_REQUEST, &json!("unsupported_grant_type"))
    );
    let (status, body) = token(
        &sandbox,
        &[
            ("grant_type", "authorization_code"),
            ("client_id", CLIENT_ID),
            ("client_secret", SECRET),
        ],
    )
    .await;
    assert_eq!(
        (status, &body["error"]),
        (StatusCode::BAD_REQUEST, &json!("invalid_request"))
    );
    let (status, body) = token(&sandbox, &[("client_id", CLIENT_ID)]).await;
    assert_eq!(
        (status, &body["error"]),
        (StatusCode::BAD_REQUEST, &json!("invalid_request"))
    );

    assert_eq!(
        stats(&sandbox).await["oauth"],
        json!({"authorization_code": 1, "refresh_token": 0})
    );
}

#[tokio::test]
async fn users_are_given_plans_the_sandbox_has() {
    let sandbox = sandbox().await;
    assert_eq!(
        sandbox.add_user("carol", &[demo_id(), "no-such-plan".to_owned()]),
        Err(OAuthSetupError::UnknownPlan("no-such-plan".to_owned()))
    );
    assert_eq!(
        sandbox.add_user("alice", &[demo_id()]),
        Err(OAuthSetupError::DuplicateUser("alice".to_owned()))
    );
    assert_eq!(
        sandbox.add_user("carol", &[side_id(), demo_id()]),
        Ok(user_id("carol"))
    );
    sandbox.sign_in("carol").unwrap();
    let (carol, _) = tokens(&sandbox, None).await;
    let (_, list) = get(&sandbox, &carol, "/plans").await;
    assert_eq!(plan_ids(&list, "plans"), vec![side_id(), demo_id()]);
    let (_, plan) = get(&sandbox, &carol, "/plans/last-used").await;
    assert_eq!(plan["data"]["plan"]["id"], json!(side_id()));
}
