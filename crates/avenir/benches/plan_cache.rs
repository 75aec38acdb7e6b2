//! What a plan costs in YNAB requests, time and memory: the five-year heavy plan (`server.md`
//! §8.5, 9,000 transactions) served by the sandbox on loopback, loaded by the plan store, then
//! read again through one delta request.
//!
//! Run: `cargo bench -p avenir --bench plan_cache`. It prints its figures; nothing is asserted
//! (machines are shared and noisy: targets live here, never in timed tests).

use avenir::plans::PlanStore;
use std::sync::Arc;
use std::time::{Duration, Instant};
use ynab_sandbox::heavy::{
    DEFAULT_MONTHS, DEFAULT_PER_MONTH, DEFAULT_SEED, HEAVY_TODAY, heavy_plan,
};
use ynab_sandbox::{Sandbox, SandboxOptions};

/// Resident memory of this process (VmRSS) and its peak (VmHWM), in KiB, from /proc.
fn memory_kib() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let plan = heavy_plan(DEFAULT_SEED, DEFAULT_MONTHS, DEFAULT_PER_MONTH, HEAVY_TODAY);
        let transactions = plan.transactions.len();
        let sandbox = Sandbox::start(plan, SandboxOptions::default())
            .await
            .expect("sandbox");
        let client = Arc::new(
            ynab::Client::new(
                ynab::BaseUrl::new(sandbox.base_url()),
                ynab::TokenSource::Fixed(ynab::Token::new("bench")),
            )
            .with_pacer(ynab::Pacer::memory(10_000)),
        );
        let (rss_before, _) = memory_kib();
        let store = PlanStore::new(client, Duration::ZERO);
        println!("heavy plan: {transactions} transactions, seed {DEFAULT_SEED}");

        let start = Instant::now();
        let snapshot = store.read("last-used").await.expect("first load");
        let first = start.elapsed();
        let first_requests = sandbox.stats().total;
        let (rss_loaded, _) = memory_kib();
        println!(
            "first load:      {} YNAB request(s), {} ({} transactions cached)",
            first_requests,
            ms(first),
            snapshot.plan.transactions.len()
        );
        drop(snapshot);

        let rounds = 20;
        let start = Instant::now();
        for _ in 0..rounds {
            store.read("last-used").await.expect("delta read");
        }
        let warm = start.elapsed() / rounds;
        let warm_requests = (sandbox.stats().total - first_requests) as f64 / f64::from(rounds);
        println!(
            "warm delta read: {warm_requests} YNAB request(s) per read, {} per read (mean of {rounds})",
            ms(warm)
        );
        let (rss_after, peak) = memory_kib();
        println!(
            "memory: plan cache ≈ {} KiB resident (RSS {rss_before} → {rss_loaded} → {rss_after} KiB); peak RSS of the process (sandbox included) {peak} KiB",
            rss_loaded.saturating_sub(rss_before)
        );
    });
}
