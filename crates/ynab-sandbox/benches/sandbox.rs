//! The sandbox's read costs on the generated heavy plan (`heavy::heavy_plan`): the export, an
//! empty and a small delta, and single-entity reads, each driven through the router in process
//! (`tower::ServiceExt::oneshot`: handler work and serialisation, no socket), median of many runs.
//!
//! `cargo bench -p ynab-sandbox --bench sandbox [-- --months 120 --per-month 750]`

use axum::Router;
use axum::body::Body;
use axum::http::Request;
use serde_json::Value;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tower::ServiceExt;
use ynab_sandbox::heavy;
use ynab_sandbox::server;

struct Options {
    months: u32,
    per_month: u32,
    runs: usize,
    /// Measure only the reads whose label starts with this (`--only transaction`).
    only: Option<String>,
}

fn options() -> Options {
    let mut options = Options {
        months: heavy::DEFAULT_MONTHS,
        per_month: heavy::DEFAULT_PER_MONTH,
        runs: 0,
        only: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = |name: &str| -> u64 {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{name} takes a number"))
        };
        match arg.as_str() {
            "--months" => options.months = u32::try_from(number("--months")).unwrap_or(60),
            "--per-month" => {
                options.per_month = u32::try_from(number("--per-month")).unwrap_or(150)
            }
            "--runs" => options.runs = usize::try_from(number("--runs")).unwrap_or(0),
            "--only" => options.only = args.next(),
            // `cargo bench` passes `--bench`; anything else is ignored too.
            _ => {}
        }
    }
    options
}

/// Sends one request; answers its status, body size and a hash of the body (to compare the
/// answers of two builds byte for byte).
async fn send(app: &Router, method: &str, path: &str, body: Option<&Value>) -> (u16, usize, u64) {
    let request = Request::builder()
        .method(method)
        .uri(format!("/v1{path}"))
        .header("authorization", "Bearer bench");
    let request = match body {
        Some(json) => request
            .header("content-type", "application/json")
            .body(Body::from(json.to_string())),
        None => request.body(Body::empty()),
    }
    .expect("a valid request");
    let response = app.clone().oneshot(request).await.expect("an answer");
    let status = response.status().as_u16();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("a body");
    let mut hasher = DefaultHasher::new();
    bytes.hash(&mut hasher);
    (status, bytes.len(), hasher.finish())
}

async fn get_json(app: &Router, path: &str) -> Value {
    let request = Request::builder()
        .uri(format!("/v1{path}"))
        .header("authorization", "Bearer bench")
        .body(Body::empty())
        .expect("a valid request");
    let response = app.clone().oneshot(request).await.expect("an answer");
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("a body");
    serde_json::from_slice(&bytes).expect("JSON")
}

/// Median (and min) of `runs` timed GETs of `path`, printed on one line.
async fn measure(app: &Router, label: &str, path: &str, runs: usize) {
    if ONLY
        .get()
        .and_then(Option::as_deref)
        .is_some_and(|only| !label.starts_with(only))
    {
        return;
    }
    let first = Instant::now();
    let (status, size, hash) = send(app, "GET", path, None).await; // warm-up
    let first = first.elapsed();
    assert_eq!(status, 200, "{label}: {path}");
    let mut times: Vec<Duration> = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        let (status, _, _) = send(app, "GET", path, None).await;
        times.push(start.elapsed());
        assert_eq!(status, 200);
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{label:<24} median {:>9.3} ms   min {:>9.3} ms   first {:>9.3} ms   {:>9} bytes  #{hash:016x}  ({runs} runs)",
        ms(times[times.len() / 2]),
        ms(times[0]),
        ms(first),
        size
    );
}

/// `--only`: the prefix of the labels to measure.
static ONLY: OnceLock<Option<String>> = OnceLock::new();

fn main() {
    let options = options();
    let _ = ONLY.set(options.only.clone());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    runtime.block_on(run(options));
}

async fn run(options: Options) {
    let started = Instant::now();
    let plan = heavy::heavy_plan(
        heavy::DEFAULT_SEED,
        options.months,
        options.per_month,
        heavy::HEAVY_TODAY,
    );
    let count = plan.transactions.len();
    let plan_id = plan.id.clone();
    let account = plan.accounts[0].id.clone();
    let category = plan
        .categories
        .iter()
        .find(|c| !c.internal)
        .map(|c| c.id.clone())
        .expect("a category");
    let transaction = plan.transactions[count / 2].id.clone();
    println!(
        "heavy plan: {} months x {} per month = {count} transaction rows (built in {:.0} ms)",
        options.months,
        options.per_month,
        started.elapsed().as_secs_f64() * 1000.0
    );
    let app = server::app(plan);
    let at = |rest: &str| format!("/plans/{plan_id}{rest}");
    let big = if options.runs > 0 { options.runs } else { 21 };
    let small = if options.runs > 0 { options.runs } else { 201 };

    let export = get_json(&app, &at("")).await;
    let knowledge = export["data"]["server_knowledge"]
        .as_i64()
        .expect("server_knowledge");
    measure(&app, "export", &at(""), big).await;
    measure(
        &app,
        "empty delta",
        &at(&format!("?last_knowledge_of_server={knowledge}")),
        small,
    )
    .await;
    measure(&app, "account", &at(&format!("/accounts/{account}")), small).await;
    measure(
        &app,
        "transaction",
        &at(&format!("/transactions/{transaction}")),
        small,
    )
    .await;
    measure(&app, "month (current)", &at("/months/current"), small).await;
    measure(&app, "month (2026-01-01)", &at("/months/2026-01-01"), small).await;
    measure(
        &app,
        "category",
        &at(&format!("/categories/{category}")),
        small,
    )
    .await;

    for k in 0..3 {
        let body = serde_json::json!({"transaction": {
            "account_id": account,
            "date": "2026-09-20",
            "amount": -12_340 - k,
            "payee_name": format!("Bench payee {k}"),
            "category_id": category,
        }});
        let (status, _, _) = send(&app, "POST", &at("/transactions"), Some(&body)).await;
        assert_eq!(status, 201, "a created transaction");
    }
    measure(
        &app,
        "small delta (3 created)",
        &at(&format!("?last_knowledge_of_server={knowledge}")),
        small,
    )
    .await;
    measure(&app, "export after writes", &at(""), big).await;
}
