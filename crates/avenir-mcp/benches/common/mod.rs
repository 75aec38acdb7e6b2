//! What the benches share: a sandbox in a process of its own, a client of it, this process's
//! memory.

use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;

/// `avenir-mcp sandbox <args>` started ("today" 2026-09-25), and the base URL it printed.
pub fn sandbox(args: &[String]) -> (Child, String) {
    let mut sandbox = Command::new(env!("CARGO_BIN_EXE_avenir-mcp"))
        .args(args)
        .env("AVENIR_MCP_TODAY", "2026-09-25")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the sandbox starts");
    let mut base = String::new();
    std::io::BufReader::new(sandbox.stdout.take().expect("stdout"))
        .read_line(&mut base)
        .expect("its base URL");
    (sandbox, base.trim().to_string())
}

/// A runtime like the server's, and a YNAB client of the sandbox at `base`.
pub fn runtime_and_client(base: &str) -> (tokio::runtime::Runtime, Arc<ynab::Client>) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let client = Arc::new(
        ynab::Client::new(
            ynab::BaseUrl::new(base.to_string()),
            ynab::TokenSource::Fixed(ynab::Token::new("bench")),
        )
        .expect("the HTTP client builds")
        .with_pacer(ynab::Pacer::memory(100_000)),
    );
    (runtime, client)
}

/// Resident memory of this process (VmRSS) and its peak (VmHWM), in KiB, from /proc.
pub fn memory_kib() -> (u64, u64) {
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
