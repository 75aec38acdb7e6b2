//! What the server's own work costs on a large plan: every read tool warm (the plan loaded, no
//! YNAB request), the first load, an empty and a small delta, and peak memory. The sandbox runs
//! in a process of its own (`avenir-mcp sandbox --plan heavy …`), so this process's memory is the
//! server side's alone.
//!
//! Run: `cargo bench -p avenir-mcp --bench read_tools` (the heavy plan, 9,000 transactions), or
//! `cargo bench -p avenir-mcp --bench read_tools -- --months 120 --per-month 750` (90,000).
//! It prints its figures; nothing is asserted (machines are shared and noisy: targets live here,
//! never in timed tests).

mod common;

use avenir::confirm::{AskContext, Finished};
use serde_json::{Map, Value, json};
use std::time::{Duration, Instant};

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1000.0)
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

/// The arguments each read tool is measured with: the plan, and what a person would ask.
fn arguments(tool: &str) -> Value {
    match tool {
        "list_plans" => json!({}),
        "get_monthly_summary" | "get_category_balances" | "get_budget_vs_actual" => {
            json!({"plan_id": "last-used", "month": "2026-08"})
        }
        "get_spending_trends" => json!({"plan_id": "last-used", "months_count": 24}),
        "find_transactions" => {
            json!({"plan_id": "last-used", "since_date": "2025-10-01", "payee": "merchant"})
        }
        "get_debt_payoff_plan" => json!({"plan_id": "last-used", "strategy": "both"}),
        "forecast_balance" => json!({"plan_id": "last-used", "until": "2026-12"}),
        _ => json!({"plan_id": "last-used"}),
    }
}

/// Lines of the statement `compare_statement` is measured with.
const STATEMENT_LINES: usize = 10_000;

/// `compare_statement`'s arguments: a CSV statement of `lines` lines for the account with the
/// most transactions — each of its transactions as the bank would list it, then lines of amounts
/// it never had (all missing in YNAB) up to `lines`.
fn statement_of(plan: &ynab::models::PlanDetail, lines: usize) -> Value {
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for t in plan.transactions.iter().filter(|t| !t.deleted) {
        *counts.entry(&*t.account_id).or_default() += 1;
    }
    let account = counts
        .iter()
        .max_by_key(|(_, n)| **n)
        .map(|(a, _)| a.to_string())
        .unwrap_or_default();
    let mut csv = String::from("Date,Amount,Payee\n");
    let mut written = 0;
    for t in plan
        .transactions
        .iter()
        .filter(|t| !t.deleted && *t.account_id == *account)
        .take(lines)
    {
        csv.push_str(&format!(
            "{},{},BANK LABEL\n",
            &*t.date,
            avenir::money::units(t.amount)
        ));
        written += 1;
    }
    for n in written..lines {
        csv.push_str(&format!(
            "2026-09-{:02},-{}.{:02},FEE\n",
            n % 24 + 1,
            90_000 + n / 100,
            n % 100
        ));
    }
    json!({"plan_id": "last-used", "account_id": account, "statement": csv})
}

#[derive(serde::Deserialize)]
struct Envelope {
    data: ExportData,
}

#[derive(serde::Deserialize)]
struct ExportData {
    plan: ynab::models::PlanDetail,
    server_knowledge: i64,
}

/// The export's body as the sandbox sends it, over plain HTTP/1.0 (no chunks to undo).
fn export_body(base: &str, plan_id: &str) -> Vec<u8> {
    use std::io::{Read, Write};
    let rest = base.trim_start_matches("http://");
    let (authority, prefix) = rest.split_once('/').unwrap_or((rest, ""));
    let mut stream = std::net::TcpStream::connect(authority).expect("the sandbox answers");
    let request = format!(
        "GET /{prefix}/plans/{plan_id} HTTP/1.0\r\nHost: {authority}\r\nAuthorization: Bearer bench\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).expect("request sent");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("answer read");
    let start = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 4)
        .expect("a header");
    answer.split_off(start)
}

fn option(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut sandbox_args = vec!["sandbox".to_string(), "--plan".into(), "heavy".into()];
    for name in ["--months", "--per-month", "--seed"] {
        if let Some(value) = option(&args, name) {
            sandbox_args.push(name.into());
            sandbox_args.push(value);
        }
    }
    let runs: usize = option(&args, "--runs")
        .and_then(|r| r.parse().ok())
        .unwrap_or(15);
    let (mut sandbox, base) = common::sandbox(&sandbox_args);
    let (runtime, client) = common::runtime_and_client(&base);
    runtime.block_on(async {
        let settings = avenir::Settings {
            writes_enabled: false,
            today: chrono::NaiveDate::from_ymd_opt(2026, 9, 25),
            fresh_seconds: 3600,
            confidence_threshold: avenir::config::ConfidenceThreshold::DEFAULT,
            confirm: avenir::confirmations::ConfirmPolicy::ByRisk,
            toolsets: avenir::tools::toolsets::Toolsets::all(),
            dynamic_toolsets: false,
            journal: Some(std::env::temp_dir().join("avenir-bench-journal.jsonl")),
            cache: None,
            conformance_fixtures: false,
            hosted: false,
        };
        let context = avenir::Context::new(settings, client.clone());
        let (rss_before, _) = common::memory_kib();

        let start = Instant::now();
        let snapshot = context.plans.read("last-used").await.expect("first load");
        let first = start.elapsed();
        let plan_id = snapshot.id().to_string();
        let transactions = snapshot.plan.transactions.len();
        drop(snapshot);
        let (rss_loaded, _) = common::memory_kib();
        println!("plan: {transactions} transactions; sandbox {}", sandbox_args.join(" "));
        println!("first load (request, parse, build): {}", ms(first));

        let statement = {
            let snapshot = context.plans.read(&plan_id).await.expect("plan");
            statement_of(&snapshot.plan, STATEMENT_LINES)
        };
        let text = statement["statement"].as_str().unwrap_or_default().to_string();
        let mut parses = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            let read = avenir::statement::read_text(&text, &Default::default());
            parses.push(start.elapsed());
            assert!(read.is_ok(), "the statement reads");
        }
        println!(
            "statement of {STATEMENT_LINES} lines: read (CSV to lines) median {}",
            ms(median(parses))
        );
        let registry = avenir::tools::registry();
        let mut rows = Vec::new();
        for spec in registry.iter().filter(|s| s.read_only) {
            let arguments = match spec.name {
                "compare_statement" => statement.clone(),
                name => arguments(name),
            };
            let arguments: Map<String, Value> = match arguments {
                Value::Object(map) => map,
                _ => Map::new(),
            };
            let mut times = Vec::with_capacity(runs);
            let mut outcome = String::new();
            for run in 0..=runs {
                let start = Instant::now();
                let finished =
                    (spec.run)(&context, arguments.clone(), AskContext::default()).await;
                let took = start.elapsed();
                if run == 0 {
                    outcome = match &finished {
                        Finished::Result { value, .. } | Finished::Charted { value, .. } => {
                            format!("{} bytes", value.to_string().len())
                        }
                        Finished::Error(message) => format!("error: {message}"),
                        Finished::InputRequired(_) => "input required".to_string(),
                    };
                } else {
                    times.push(took);
                }
            }
            let worst = times.iter().max().copied().unwrap_or_default();
            rows.push((spec.name, median(times), worst, outcome));
        }
        println!("\nread tools, warm (no YNAB request), {runs} runs each:");
        println!("{:<28} {:>12} {:>12}  answer", "tool", "median", "max");
        for (name, med, worst, outcome) in &rows {
            println!("{name:<28} {:>12} {:>12}  {outcome}", ms(*med), ms(*worst));
        }
        if let Some((name, med, _, _)) = rows.iter().max_by_key(|r| r.1) {
            println!("slowest: {name} ({})", ms(*med));
        }

        // Syncing: an empty delta, then a delta of three new transactions.
        let mut empty = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            context.plans.read_fresh(&plan_id).await.expect("delta");
            empty.push(start.elapsed());
        }
        println!("\nempty delta (request + merge): median {}", ms(median(empty)));
        let snapshot = context.plans.read(&plan_id).await.expect("plan");
        let account = snapshot
            .plan
            .accounts
            .iter()
            .find(|a| !a.closed && a.on_budget)
            .map(|a| a.id.clone())
            .expect("an open account");
        drop(snapshot);
        let new = |amount: i64, payee: &str| ynab::writes::NewTransaction {
            account_id: account.clone(),
            date: "2026-09-24".to_string(),
            amount,
            payee_name: Some(payee.to_string()),
            ..Default::default()
        };
        client
            .create_transactions(
                &plan_id,
                &[
                    new(-12_340, "Bench Cafe"),
                    new(-5_600, "Bench Bakery"),
                    new(-78_900, "Bench Garage"),
                ],
            )
            .await
            .expect("three transactions created");
        let start = Instant::now();
        context.plans.read_fresh(&plan_id).await.expect("delta");
        println!("small delta (3 transactions; request + merge): {}", ms(start.elapsed()));
        let (rss_after, peak) = common::memory_kib();
        println!(
            "\nmemory of the server side: RSS {rss_before} KiB before the load, {rss_loaded} KiB loaded, {rss_after} KiB after every tool; peak {peak} KiB"
        );

        // The first load through the real path (request, streamed parse, build) once the
        // sandbox has its figures (its own first export computes them): a fresh store each time.
        let mut loads = Vec::new();
        for _ in 0..5 {
            let store = avenir::plan_store::PlanStore::new(client.clone(), Duration::ZERO);
            let start = Instant::now();
            let loaded = store.read(&plan_id).await.expect("a load");
            loads.push(start.elapsed());
            drop(loaded);
        }
        println!(
            "first load with the sandbox warm (request, streamed parse, build the plan and its index): median {}",
            ms(median(loads))
        );

        // The first load's server side alone: the export's bytes parsed and the plan built
        // (its index included), without the request.
        let body = export_body(&base, &plan_id);
        let mut builds = Vec::new();
        for _ in 0..5 {
            let start = Instant::now();
            let envelope: Envelope =
                serde_json::from_slice(&body).expect("the export parses");
            let snapshot = avenir::plan_store::PlanSnapshot::new(
                envelope.data.plan,
                envelope.data.server_knowledge,
            );
            builds.push(start.elapsed());
            drop(snapshot);
        }
        println!(
            "first load, server side (parse {} KiB of JSON, build the plan and its index): median {}",
            body.len() / 1024,
            ms(median(builds))
        );

        // Where the streamed load's time goes: the same bytes parsed as the client parses a body
        // as it arrives (without building the plan), and the transfer alone.
        let mut readers = Vec::new();
        for _ in 0..5 {
            let start = Instant::now();
            let envelope: Envelope =
                ynab::shared::interning(|| ynab::stream::from_reader(body.as_slice()))
                    .expect("the export parses");
            readers.push(start.elapsed());
            drop(envelope);
        }
        println!("  of which: the same bytes parsed as they stream in: median {}", ms(median(readers)));
        let mut transfers = Vec::new();
        for _ in 0..5 {
            let start = Instant::now();
            let bytes = export_body(&base, &plan_id);
            transfers.push(start.elapsed());
            drop(bytes);
        }
        println!("  of which: the transfer alone: median {}", ms(median(transfers)));

        // Merging alone: an empty delta, as YNAB answers one.
        let mut snapshot = (*context.plans.read(&plan_id).await.expect("plan")).clone();
        let knowledge = snapshot.server_knowledge;
        let mut merges = Vec::new();
        for _ in 0..runs {
            let empty: ynab::models::PlanDetail = serde_json::from_value(
                json!({"id": plan_id, "name": snapshot.plan.name.clone()}),
            )
            .expect("an empty delta");
            let start = Instant::now();
            snapshot.merge(empty, knowledge);
            merges.push(start.elapsed());
        }
        println!("empty delta, merge alone: median {}", ms(median(merges)));
    });
    let _ = sandbox.kill();
    let _ = sandbox.wait();
}
