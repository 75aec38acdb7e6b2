//! The control API under `/__sandbox/`, driven over HTTP as a test of another program would:
//! `stats` counts per method and route, `reset` goes back to the plan as loaded, and `faults`
//! answers errors, delays requests, or applies a write and cuts the connection.
//!
//! Faults are set by `POST /__sandbox/faults` only; dropped connections are checked on a real
//! socket, since only there can a client miss its answer.

use crate::common;

use common::*;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::time::{Duration, Instant};
use ynab_sandbox::faults::{Fault, FaultKind, Held};
use ynab_sandbox::{Sandbox, SandboxOptions, demo};

impl Api {
    /// `POST /__sandbox/faults` with `body`; the faults pending after it.
    async fn fault(&self, body: Value) -> Value {
        let answer = self
            .raw("POST", "/__sandbox/faults", Some(body), None)
            .await;
        assert_eq!(answer.status, 200, "{}", answer.body);
        answer.body
    }

    async fn control(&self, method: &str, what: &str) -> Answer {
        self.raw(method, &format!("/__sandbox/{what}"), None, None)
            .await
    }
}

/// A one-line JSON fault that answers `status` to the next `count` requests of `route`.
fn status_fault(count: u32, route: Option<&str>, status: u16) -> Value {
    let mut fault = json!({"count": count, "kind": "status", "status": status});
    if let Some(route) = route {
        fault["route"] = json!(route);
    }
    fault
}

#[tokio::test]
async fn stats_count_requests_per_method_and_route() {
    let api = Api::demo();
    let stats = api.control("GET", "stats").await;
    assert_eq!(stats.status, 200);
    assert_eq!(
        stats.body,
        json!({"total": 0, "routes": {}, "deltas": 0, "oauth": {"authorization_code": 0, "refresh_token": 0}})
    );

    api.call("GET", "/plans", None).await;
    api.call("GET", "/plans", None).await;
    api.call("GET", &plan("/accounts"), None).await;
    api.call(
        "GET",
        &plan(&format!("/accounts/{}", id("acc-savings"))),
        None,
    )
    .await;
    let url = plan(&format!("/transactions/{}", id("tx-054")));
    api.call("GET", &url, None).await;
    api.call("PUT", &url, Some(json!({"transaction": {"memo": "x"}})))
        .await;
    api.call("GET", "/budgets", None).await;
    api.raw("GET", "/v1/plans", None, None).await; // refused, still served
    api.call("GET", "/no/such/route", None).await;
    api.call(
        "GET",
        &format!("{}?last_knowledge_of_server=0", plan("")),
        None,
    )
    .await;

    let stats = api.control("GET", "stats").await.body;
    assert_eq!(
        stats,
        json!({"total": 10, "deltas": 1, "routes": {
            "GET /v1/plans": 3,
            "GET /v1/plans/{plan_id}": 1,
            "GET /v1/budgets": 1,
            "GET /v1/plans/{plan_id}/accounts": 1,
            "GET /v1/plans/{plan_id}/accounts/{account_id}": 1,
            "GET /v1/plans/{plan_id}/transactions/{transaction_id}": 1,
            "PUT /v1/plans/{plan_id}/transactions/{transaction_id}": 1,
            "GET (unknown)": 1,
        }, "oauth": {"authorization_code": 0, "refresh_token": 0}}),
        "control routes are not counted"
    );
}

#[tokio::test]
async fn reset_restores_the_plan_and_zeroes_counters_and_faults() {
    let api = Api::demo();
    let export = api.call("GET", &plan(""), None).await.body;
    api.call(
        "PUT",
        &plan(&format!("/transactions/{}", id("tx-054"))),
        Some(json!({"transaction": {"memo": "changed", "amount": -1}})),
    )
    .await
    .data();
    api.call(
        "POST",
        &plan("/payees"),
        Some(json!({"payee": {"name": "Dentist"}})),
    )
    .await
    .data();
    api.call(
        "DELETE",
        &plan(&format!("/transactions/{}", id("tx-046"))),
        None,
    )
    .await
    .data();
    api.fault(status_fault(5, Some("DELETE"), 500)).await;
    assert_ne!(api.call("GET", &plan(""), None).await.body, export);

    let reset = api.control("POST", "reset").await;
    assert_eq!((reset.status, reset.body), (204, Value::Null));
    assert_eq!(
        api.control("GET", "stats").await.body,
        json!({"total": 0, "routes": {}, "deltas": 0, "oauth": {"authorization_code": 0, "refresh_token": 0}})
    );
    assert_eq!(api.control("GET", "faults").await.body, json!([]));
    assert_eq!(
        api.call("GET", &plan(""), None).await.body,
        export,
        "the plan as loaded, server_knowledge included"
    );
    let deleted = api
        .call(
            "DELETE",
            &plan(&format!("/transactions/{}", id("tx-046"))),
            None,
        )
        .await;
    assert_eq!(deleted.status, 200, "the fault went with the reset");
    assert_eq!(deleted.data()["server_knowledge"], 2);
}

#[tokio::test]
async fn status_faults_answer_ynabs_errors() {
    let api = Api::demo();
    let cases = [
        (401, "401", "unauthorized"),
        (429, "429", "too_many_requests"),
        (500, "500", "internal_server_error"),
        (503, "503", "service_unavailable"),
    ];
    for (status, error_id, name) in cases {
        api.fault(status_fault(1, None, status)).await;
        let (code, id, got_name, detail) = api.call("GET", "/plans", None).await.error();
        assert_eq!(
            (code, id.as_str(), got_name.as_str()),
            (status, error_id, name)
        );
        assert!(!detail.is_empty());
        assert_eq!(
            api.call("GET", "/plans", None).await.status,
            200,
            "one only"
        );
    }
}

/// Sends `GET /v1/plans` to the router and returns its status and `Retry-After` header.
async fn retry_after_of(api: &Api) -> (u16, Option<String>) {
    use tower::ServiceExt;
    let request = axum::http::Request::builder()
        .uri("/v1/plans")
        .header("authorization", "Bearer t")
        .body(axum::body::Body::empty())
        .expect("a request");
    let response = api.app.clone().oneshot(request).await.expect("an answer");
    let header = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    (response.status().as_u16(), header)
}

#[tokio::test]
async fn a_429_carries_retry_after_only_when_asked() {
    let api = Api::demo();
    api.fault(json!({"count": 1, "kind": "status", "status": 429, "retry_after": "17"}))
        .await;
    assert_eq!(retry_after_of(&api).await, (429, Some("17".into())));
    api.fault(json!({"count": 1, "kind": "status", "status": 429, "retry_after": "Wed, 21 Oct 2026 07:28:00 GMT"}))
        .await;
    assert_eq!(
        retry_after_of(&api).await,
        (429, Some("Wed, 21 Oct 2026 07:28:00 GMT".into()))
    );
    api.fault(status_fault(1, None, 429)).await;
    assert_eq!(retry_after_of(&api).await, (429, None));
    assert_eq!(retry_after_of(&api).await, (200, None));
}

#[tokio::test]
async fn a_delay_answers_normally_after_waiting() {
    let api = Api::demo();
    api.fault(json!({"count": 1, "route": "GET /plans", "kind": "delay", "ms": 300}))
        .await;
    let started = Instant::now();
    let answer = api.call("GET", "/plans", None).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.data()["plans"][0]["id"], id("demo-budget"));
    assert!(started.elapsed() >= Duration::from_millis(300));
    let started = Instant::now();
    api.call("GET", "/plans", None).await.data();
    assert!(started.elapsed() < Duration::from_millis(300), "once only");
}

#[tokio::test]
async fn faults_match_their_route_and_run_out() {
    let api = Api::demo();
    let accounts = plan("/accounts");
    // METHOD and route pattern, with or without `/v1`.
    api.fault(status_fault(2, Some("GET /plans/{plan_id}/accounts"), 503))
        .await;
    let pending = api
        .fault(status_fault(1, Some("get /v1/plans/{plan_id}/payees"), 500))
        .await;
    assert_eq!(pending.as_array().map(Vec::len), Some(2));
    assert_eq!(api.call("GET", "/plans", None).await.status, 200);
    assert_eq!(
        api.call("POST", &accounts, Some(json!({}))).await.status,
        400
    );
    assert_eq!(api.call("GET", &accounts, None).await.status, 503);
    let pending = api.control("GET", "faults").await.body;
    assert_eq!(pending[0]["count"], 1, "{pending}");
    assert_eq!(api.call("GET", &accounts, None).await.status, 503);
    assert_eq!(
        api.call("GET", &accounts, None).await.status,
        200,
        "ran out"
    );
    assert_eq!(api.call("GET", &plan("/payees"), None).await.status, 500);
    assert_eq!(api.control("GET", "faults").await.body, json!([]));

    // A method alone; a route alone (any method); the first matching rule is taken.
    api.fault(json!([
        status_fault(1, Some("PATCH"), 500),
        status_fault(2, Some("/plans/{plan_id}/payees"), 503),
    ]))
    .await;
    let patch = api
        .call(
            "PATCH",
            &plan(&format!("/payees/{}", id("pay-streamflix"))),
            Some(json!({"payee": {"name": "S"}})),
        )
        .await;
    assert_eq!(patch.status, 500);
    assert_eq!(api.call("GET", &plan("/payees"), None).await.status, 503);
    let post = api
        .call(
            "POST",
            &plan("/payees"),
            Some(json!({"payee": {"name": "Dentist"}})),
        )
        .await;
    assert_eq!(post.status, 503);
    assert_eq!(api.call("GET", &plan("/payees"), None).await.status, 200);
    assert!(
        !api.get(&plan("/payees"))
            .await
            .to_string()
            .contains("Dentist"),
        "a refused write is not applied"
    );

    // `skip` lets the first matching requests through.
    api.fault(
        json!({"count": 1, "skip": 1, "route": "GET /plans", "kind": "status", "status": 500}),
    )
    .await;
    assert_eq!(api.call("GET", "/plans", None).await.status, 200, "skipped");
    assert_eq!(api.call("GET", "/plans", None).await.status, 500);
    assert_eq!(api.call("GET", "/plans", None).await.status, 200);

    // DELETE clears what is pending.
    api.fault(status_fault(9, None, 500)).await;
    let cleared = api.control("DELETE", "faults").await;
    assert_eq!(cleared.status, 204);
    assert_eq!(api.call("GET", "/plans", None).await.status, 200);
}

#[tokio::test]
async fn a_malformed_fault_is_refused_with_a_sentence() {
    let api = Api::demo();
    let cases: [(&str, &str); 7] = [
        ("not json", "The body is not JSON"),
        (r#"{"count": 1}"#, "The fault is not valid"),
        (
            r#"{"count": 1, "kind": "explode"}"#,
            "unknown variant `explode`",
        ),
        (r#"{"kind": "apply_then_drop"}"#, "missing field `count`"),
        (
            r#"{"count": 1, "kind": "status", "status": 200}"#,
            "status 200 is not an error status",
        ),
        (
            r#"{"count": 0, "kind": "delay", "ms": 5}"#,
            "count must be at least 1",
        ),
        (
            r#"[{"count": 1, "kind": "apply_then_drop"}, {"count": 1, "kind": "delay"}]"#,
            "Fault 1: ",
        ),
    ];
    for (body, says) in cases {
        let request = axum::http::Request::builder()
            .method("POST")
            .uri("/__sandbox/faults")
            .body(axum::body::Body::from(body))
            .expect("a request");
        let answer = {
            use tower::ServiceExt;
            api.app.clone().oneshot(request).await.expect("an answer")
        };
        assert_eq!(answer.status(), 400, "{body}");
        let bytes = axum::body::to_bytes(answer.into_body(), usize::MAX)
            .await
            .expect("a body");
        let error: Value = serde_json::from_slice(&bytes).expect("JSON");
        let detail = error["error"]["detail"].as_str().unwrap_or_default();
        assert_eq!(error["error"]["id"], "400");
        assert!(detail.contains(says), "{body}: {detail}");
        assert!(detail.ends_with('.'), "a sentence: {detail}");
    }
    assert_eq!(
        api.control("GET", "faults").await.body,
        json!([]),
        "none added"
    );
}

/// Sends `request` on a fresh connection to `sandbox` and reads until the server closes it.
async fn exchange(sandbox: &Sandbox, request: String) -> Vec<u8> {
    let addr = sandbox.addr();
    tokio::task::spawn_blocking(move || {
        let mut stream = std::net::TcpStream::connect(addr).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .expect("a timeout");
        stream.write_all(request.as_bytes()).expect("send");
        let mut got = Vec::new();
        // A reset connection ends the read with an error: what arrived before it is kept.
        let _ = stream.read_to_end(&mut got);
        got
    })
    .await
    .expect("the exchange")
}

#[tokio::test]
async fn apply_then_drop_lands_the_write_and_cuts_the_answer() {
    let sandbox = Sandbox::start(demo::demo_plan(demo::DEMO_TODAY), SandboxOptions::default())
        .await
        .expect("a sandbox");
    let fault = json!({"count": 1, "route": "PUT /plans/{plan_id}/transactions/{transaction_id}", "kind": "apply_then_drop"}).to_string();
    let set = exchange(
        &sandbox,
        format!(
            "POST /__sandbox/faults HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{fault}",
            fault.len()
        ),
    )
    .await;
    assert!(
        set.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&set)
    );

    let path = format!("/v1{}", plan(&format!("/transactions/{}", id("tx-054"))));
    let body = json!({"transaction": {"memo": "sent once"}}).to_string();
    let got = exchange(
        &sandbox,
        format!(
            "PUT {path} HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    )
    .await;
    assert!(
        got.is_empty(),
        "not one byte of an answer reaches the client: {}",
        String::from_utf8_lossy(&got)
    );

    let read = exchange(
        &sandbox,
        format!("GET {path} HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer t\r\nConnection: close\r\n\r\n"),
    )
    .await;
    let read = String::from_utf8_lossy(&read);
    assert!(read.starts_with("HTTP/1.1 200"), "{read}");
    assert!(
        read.contains("\"memo\":\"sent once\""),
        "the write landed: {read}"
    );
    assert_eq!(sandbox.stats().total, 2, "both /v1 requests counted");
}

/// Polls `done` every 20 ms until it holds; fails after a minute (a loaded machine is slow,
/// never that slow).
async fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done() {
        assert!(Instant::now() < deadline, "still not the case: {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A `PUT` of tx-054's memo, as raw HTTP/1.1 on a connection kept open.
async fn send_memo_put(sandbox: &Sandbox, memo: &str) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let path = format!("/v1{}", plan(&format!("/transactions/{}", id("tx-054"))));
    let body = json!({"transaction": {"memo": memo}}).to_string();
    let mut stream = tokio::net::TcpStream::connect(sandbox.addr())
        .await
        .expect("connect");
    stream
        .write_all(
            format!(
                "PUT {path} HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        )
        .await
        .expect("send");
    stream
}

fn memo_of_tx_054(sandbox: &Sandbox) -> Option<String> {
    sandbox.with_plan(|p| {
        p.transactions
            .iter()
            .find(|t| t.id == id("tx-054"))
            .and_then(|t| t.memo.clone())
    })
}

fn delay_fault(kind: &str, ms: u64) -> Fault {
    let kind = match kind {
        "delay" => FaultKind::Delay { ms },
        _ => FaultKind::ApplyThenDelay { ms },
    };
    Fault::new(
        1,
        Some("PUT /plans/{plan_id}/transactions/{transaction_id}"),
        kind,
    )
}

/// The crash tests' "killed before YNAB applied it": a write held by `delay` whose client goes
/// away is dropped with its connection, before any handler ran, and never lands.
#[tokio::test]
async fn a_delayed_write_whose_client_goes_away_never_lands() {
    let sandbox = Sandbox::start(demo::demo_plan(demo::DEMO_TODAY), SandboxOptions::default())
        .await
        .expect("a sandbox");
    let before = memo_of_tx_054(&sandbox);
    sandbox.inject(delay_fault("delay", 600_000));
    let stream = send_memo_put(&sandbox, "never").await;
    eventually("the write is held", || sandbox.held().waiting == 1).await;
    drop(stream);
    eventually("the sandbox sees the client gone", || {
        sandbox.held()
            == Held {
                waiting: 0,
                abandoned: 1,
            }
    })
    .await;
    assert_eq!(memo_of_tx_054(&sandbox), before, "the write did not land");
    assert_eq!(
        sandbox
            .stats()
            .routes
            .get("PUT /v1/plans/{plan_id}/transactions/{transaction_id}"),
        Some(&1),
        "it reached the sandbox"
    );
}

/// The crash tests' "killed after YNAB applied it": `apply_then_delay` lands the write, then
/// holds the answer; a client that waits gets the normal answer.
#[tokio::test]
async fn apply_then_delay_lands_the_write_then_holds_the_answer() {
    use tokio::io::AsyncReadExt;
    let sandbox = Sandbox::start(demo::demo_plan(demo::DEMO_TODAY), SandboxOptions::default())
        .await
        .expect("a sandbox");
    sandbox.inject(delay_fault("apply_then_delay", 600_000));
    let stream = send_memo_put(&sandbox, "landed").await;
    eventually("the write landed", || {
        memo_of_tx_054(&sandbox).as_deref() == Some("landed")
    })
    .await;
    assert_eq!(sandbox.held().waiting, 1, "its answer is held");
    drop(stream);
    eventually("the sandbox sees the client gone", || {
        sandbox.held().abandoned == 1
    })
    .await;
    assert_eq!(memo_of_tx_054(&sandbox).as_deref(), Some("landed"));

    // A client that waits gets YNAB's answer, after the delay.
    sandbox.inject(delay_fault("apply_then_delay", 200));
    let mut stream = send_memo_put(&sandbox, "answered").await;
    let mut head = [0u8; 12];
    tokio::time::timeout(Duration::from_secs(60), stream.read_exact(&mut head))
        .await
        .expect("an answer in time")
        .expect("an answer");
    assert_eq!(&head, b"HTTP/1.1 200");
    assert_eq!(memo_of_tx_054(&sandbox).as_deref(), Some("answered"));
    assert_eq!(
        sandbox.held(),
        Held {
            waiting: 0,
            abandoned: 1
        }
    );
}
