//! What a plan costs in YNAB requests, time and memory: the five-year heavy plan
//! (`docs/contract/server.md` §8.5, 9,000 transactions) served by `avenir-mcp sandbox` in a process
//! of its own, loaded by the plan store, then read again through one delta request each time.
//!
//! Run: `cargo bench -p avenir-mcp --bench plan_cache`. It prints its figures; nothing is
//! asserted (machines are shared and noisy: targets live here, never in timed tests).

mod common;

use avenir::plan_store::PlanStore;
use std::time::{Duration, Instant};

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// Requests the sandbox has served, from its control API (`GET /__sandbox/stats`), over a plain
/// HTTP/1.1 exchange so that the bench needs no HTTP client of its own.
fn served(base: &str) -> u64 {
    use std::io::{Read, Write};
    let authority = base
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap_or_default()
        .to_string();
    let Ok(mut stream) = std::net::TcpStream::connect(&authority) else {
        return 0;
    };
    let request =
        format!("GET /__sandbox/stats HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n");
    let mut answer = String::new();
    if stream.write_all(request.as_bytes()).is_err() || stream.read_to_string(&mut answer).is_err()
    {
        return 0;
    }
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|s| s.get("total").and_then(serde_json::Value::as_u64))
        .unwrap_or(0)
}

fn main() {
    let args = ["sandbox", "--plan", "heavy"].map(String::from);
    let (mut sandbox, base) = common::sandbox(&args);
    let (runtime, client) = common::runtime_and_client(&base);
    runtime.block_on(async {
        let (rss_before, _) = common::memory_kib();
        let store = PlanStore::new(client, Duration::ZERO);
        let served_before = served(&base);

        let start = Instant::now();
        let snapshot = store.read("last-used").await.expect("first load");
        let first = start.elapsed();
        let after_first = served(&base);
        let (rss_loaded, _) = common::memory_kib();
        println!(
            "first load:      {} YNAB request(s), {} ({} transactions, {} payees cached)",
            after_first - served_before,
            ms(first),
            snapshot.plan.transactions.len(),
            snapshot.plan.payees.len()
        );
        drop(snapshot);

        let rounds: u32 = 20;
        let start = Instant::now();
        for _ in 0..rounds {
            store.read("last-used").await.expect("delta read");
        }
        let warm = start.elapsed() / rounds;
        let after_warm = served(&base);
        let per_read = (after_warm - after_first) as f64 / f64::from(rounds);
        println!(
            "warm delta read: {per_read} YNAB request(s) per read, {} per read (mean of {rounds})",
            ms(warm)
        );
        let (rss_after, peak) = common::memory_kib();
        println!(
            "memory (this process; the sandbox runs apart): RSS {rss_before} KiB before, {rss_loaded} KiB loaded, {rss_after} KiB after the reads; peak {peak} KiB"
        );
    });
    let _ = sandbox.kill();
    let _ = sandbox.wait();
}
