//! The opt-in plan cache kept between runs (issue 12, `AVENIR_MCP_CACHE=1`): a second start on
//! the heavy plan sends one request, a delta, before its first answer, and answers the figures a
//! cold start answers, a change made elsewhere in between included; an empty delta writes nothing;
//! the files are private and hold no token; a damaged file, or one of another version, is
//! discarded and the plan loaded in full; an alias that now names another plan is followed; two
//! writers sharing the cache take turns and leave the latest copy.

use crate::common;

use avenir::store::plan_cache::{self, PlanCache};
use avenir::{AvenirServer, Context, Settings};
use common::{Era, TempDir, TestClient};
use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use ynab_sandbox::{Sandbox, SandboxOptions, heavy};

/// The token every server of these tests reads with; it must reach no file.
const TOKEN: &str = "tok-cache-7d41e9b2-never-on-disk";

/// One run of the server (a process, as far as the cache can tell): its context and a client.
struct Server {
    context: Arc<Context>,
    client: RunningService<RoleClient, TestClient>,
    _state: TempDir,
}

impl Server {
    /// A server on `sandbox`; `cache`: the directory of `AVENIR_MCP_CACHE=1`, or none.
    async fn start(sandbox: &Sandbox, cache: Option<&Path>) -> Server {
        let client = ynab::Client::new(
            ynab::BaseUrl::new(sandbox.base_url()),
            ynab::TokenSource::Fixed(ynab::Token::new(TOKEN)),
        )
        .expect("the HTTP client builds")
        .with_pacer(ynab::Pacer::memory(1000));
        let state = TempDir::new();
        let settings = Settings {
            writes_enabled: false,
            today: Some(heavy::HEAVY_TODAY),
            toolsets: avenir::tools::toolsets::Toolsets::all(),
            journal: Some(state.0.join("journal.jsonl")),
            cache: cache.map(Path::to_path_buf),
            ..Settings::default()
        };
        let context = Arc::new(Context::new(settings, Arc::new(client)));
        let server = AvenirServer::new(context.clone());
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            if let Ok(running) = server.serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let client = TestClient {
            era: Era::Modern,
            asker: None,
            apps: false,
            url: false,
            list_changed: Arc::default(),
        }
        .serve_with_lifecycle(
            client_io,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("client connects");
        Server {
            context,
            client,
            _state: state,
        }
    }

    /// The structured answer of a call that must succeed.
    async fn ok(&self, tool: &'static str, arguments: Value) -> Value {
        let mut params = CallToolRequestParams::new(tool);
        if let Value::Object(map) = arguments {
            params = params.with_arguments(map);
        }
        let result = self
            .client
            .call_tool(params)
            .await
            .expect("tools/call answers");
        assert_ne!(
            result.is_error,
            Some(true),
            "{tool} failed: {:?}",
            result.content
        );
        result.structured_content.expect("structured content")
    }

    /// The end of the run: its queued saves written, as the binary waits for them.
    async fn stop(self) {
        self.context.plans.cache_saved().await;
        drop(self.client);
    }
}

fn last_used() -> Value {
    json!({"plan_id": "last-used"})
}

fn this_month() -> Value {
    json!({"plan_id": "last-used", "month": "current"})
}

async fn heavy_sandbox(months: u32, per_month: u32) -> Sandbox {
    let plan = heavy::heavy_plan(heavy::DEFAULT_SEED, months, per_month, heavy::HEAVY_TODAY);
    Sandbox::start(plan, SandboxOptions::default())
        .await
        .expect("sandbox starts")
}

/// (requests, of which deltas) the sandbox has served.
fn served(sandbox: &Sandbox) -> (u64, u64) {
    let stats = sandbox.stats();
    (stats.total, stats.deltas)
}

fn plan_file(dir: &Path, sandbox: &Sandbox) -> PathBuf {
    dir.join(format!("{}.json", sandbox.plan_id()))
}

fn mode_of(path: &Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o777)
}

/// The cache's files, by name.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Another app (another token) adds a transaction to the first account today.
async fn spend_elsewhere(sandbox: &Sandbox, account_id: &str) {
    let other = ynab::Client::new(
        ynab::BaseUrl::new(sandbox.base_url()),
        ynab::TokenSource::Fixed(ynab::Token::new("another-app")),
    )
    .expect("the HTTP client builds")
    .with_pacer(ynab::Pacer::memory(1000));
    other
        .create_transactions(
            &sandbox.plan_id(),
            &[ynab::writes::NewTransaction {
                account_id: account_id.to_string(),
                date: heavy::HEAVY_TODAY.to_string(),
                amount: -123_450,
                payee_name: Some("Cache Test Shop".to_string()),
                approved: Some(true),
                ..Default::default()
            }],
        )
        .await
        .expect("the other app spends");
}

#[tokio::test]
async fn a_second_start_sends_one_delta_and_answers_as_a_cold_start() {
    let sandbox = heavy_sandbox(heavy::DEFAULT_MONTHS, heavy::DEFAULT_PER_MONTH).await;
    let cache = TempDir::new();
    let dir = cache.0.join("avenir-mcp");

    // The first start: a full load, kept on disk under the real id.
    let first = Server::start(&sandbox, Some(&dir)).await;
    let accounts = first.ok("list_accounts", last_used()).await;
    assert_eq!(served(&sandbox), (1, 0), "one full export");
    let summary = first.ok("get_monthly_summary", this_month()).await;
    first.stop().await;
    let file = plan_file(&dir, &sandbox);
    let mut expected = vec![
        "aliases.json".to_string(),
        format!("{}.json", sandbox.plan_id()),
    ];
    expected.sort();
    assert_eq!(names_in(&dir), expected);
    let kept = std::fs::read(&file).expect("the plan file");

    // The second start: one request, a delta, before the first answer; the same figures.
    let before = served(&sandbox);
    let second = Server::start(&sandbox, Some(&dir)).await;
    let cached_accounts = second.ok("list_accounts", last_used()).await;
    assert_eq!(
        served(&sandbox),
        (before.0 + 1, before.1 + 1),
        "exactly one request, and it is a delta"
    );
    assert_eq!(cached_accounts, accounts);
    assert_eq!(
        second.ok("get_monthly_summary", this_month()).await,
        summary
    );
    second.stop().await;
    assert_eq!(
        std::fs::read(&file).ok(),
        Some(kept),
        "an empty delta writes nothing"
    );

    // Another app changes the plan; the cached start sees it through its one delta.
    let account_id = accounts["result"][0]["id"]
        .as_str()
        .expect("an account id")
        .to_string();
    spend_elsewhere(&sandbox, &account_id).await;
    let before = served(&sandbox);
    let third = Server::start(&sandbox, Some(&dir)).await;
    let changed_accounts = third.ok("list_accounts", last_used()).await;
    assert_eq!(served(&sandbox), (before.0 + 1, before.1 + 1));
    let changed_summary = third.ok("get_monthly_summary", this_month()).await;
    third.stop().await;
    assert_ne!(changed_accounts, accounts, "the change arrived");

    let cold = Server::start(&sandbox, None).await;
    let before = served(&sandbox);
    assert_eq!(
        cold.ok("list_accounts", last_used()).await,
        changed_accounts
    );
    assert_eq!(served(&sandbox), (before.0 + 1, before.1), "a full export");
    assert_eq!(
        cold.ok("get_monthly_summary", this_month()).await,
        changed_summary
    );
    cold.stop().await;

    // The changed delta was saved: the next start's delta is empty and answers the same.
    let fourth = Server::start(&sandbox, Some(&dir)).await;
    let before = served(&sandbox);
    assert_eq!(
        fourth.ok("list_accounts", last_used()).await,
        changed_accounts
    );
    assert_eq!(served(&sandbox), (before.0 + 1, before.1 + 1));
    fourth.stop().await;
    let restored = PlanCache::new(dir.clone())
        .restore(&sandbox.plan_id())
        .expect("the saved plan reads back");
    assert!(
        restored
            .plan
            .transactions
            .iter()
            .any(|t| t.amount == -123_450 && t.account_id == account_id),
        "the other app's transaction is in the file"
    );
}

#[tokio::test]
async fn the_files_are_private_and_hold_no_token() {
    let sandbox = heavy_sandbox(6, 40).await;
    let cache = TempDir::new();
    let dir = cache.0.join("avenir-mcp");
    let server = Server::start(&sandbox, Some(&dir)).await;
    server.ok("list_accounts", last_used()).await;
    server.stop().await;
    assert_eq!(mode_of(&dir), Some(0o700), "the directory");
    let names = names_in(&dir);
    assert_eq!(names.len(), 2, "{names:?}");
    for name in &names {
        let path = dir.join(name);
        assert_eq!(mode_of(&path), Some(0o600), "{name}");
        let bytes = std::fs::read(&path).expect("readable by its owner");
        assert!(
            !bytes.windows(TOKEN.len()).any(|w| w == TOKEN.as_bytes()),
            "{name} holds the token"
        );
    }
}

/// A damage done to the plan file between two runs.
type Damage = fn(&Path);

fn garbage(path: &Path) {
    std::fs::write(path, b"\x00\x01 not a database at all \xff\xfe").expect("damaged");
}

/// The plan file's header line and the plan after it.
fn parts(path: &Path) -> (Value, Vec<u8>) {
    let bytes = std::fs::read(path).expect("the file reads");
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .expect("a header line");
    let header = serde_json::from_slice(&bytes[..end]).expect("the header is JSON");
    (header, bytes[end + 1..].to_vec())
}

fn write_parts(path: &Path, header: &Value, plan: &[u8]) {
    let mut bytes = serde_json::to_vec(header).expect("JSON");
    bytes.push(b'\n');
    bytes.extend_from_slice(plan);
    std::fs::write(path, bytes).expect("updated");
}

/// Set `key` of the header to `value`.
fn update(path: &Path, key: &str, value: Value) {
    let (mut header, plan) = parts(path);
    header[key] = value;
    write_parts(path, &header, &plan);
}

fn bad_json(path: &Path) {
    let (header, _) = parts(path);
    write_parts(path, &header, b"{not json");
}

fn another_format(path: &Path) {
    update(path, "format", json!(999));
}

fn another_version(path: &Path) {
    update(path, "crate_version", json!("0.0.0-another"));
}

fn another_plan(path: &Path) {
    update(
        path,
        "plan_id",
        json!("00000000-0000-4000-8000-000000000000"),
    );
}

fn no_row(path: &Path) {
    let (header, _) = parts(path);
    write_parts(path, &header, b"");
}

#[tokio::test]
async fn a_damaged_or_foreign_file_is_discarded_and_the_plan_loaded_in_full() {
    let sandbox = heavy_sandbox(6, 40).await;
    let cache = TempDir::new();
    let dir = cache.0.join("avenir-mcp");
    let cold = Server::start(&sandbox, None).await;
    let accounts = cold.ok("list_accounts", last_used()).await;
    let summary = cold.ok("get_monthly_summary", this_month()).await;
    cold.stop().await;
    let first = Server::start(&sandbox, Some(&dir)).await;
    first.ok("list_accounts", last_used()).await;
    first.stop().await;
    let file = plan_file(&dir, &sandbox);
    let damages: [(&str, Damage); 7] = [
        ("garbage bytes", garbage),
        ("bad JSON", bad_json),
        ("another format", another_format),
        ("another version", another_version),
        ("another plan's id", another_plan),
        ("no row", no_row),
        ("an empty file", |path| {
            std::fs::write(path, b"").expect("emptied")
        }),
    ];
    for (what, damage) in damages {
        damage(&file);
        let before = served(&sandbox);
        let server = Server::start(&sandbox, Some(&dir)).await;
        assert_eq!(
            server.ok("list_accounts", last_used()).await,
            accounts,
            "{what}"
        );
        assert_eq!(
            served(&sandbox),
            (before.0 + 1, before.1),
            "{what}: one full export, no delta"
        );
        assert_eq!(
            server.ok("get_monthly_summary", this_month()).await,
            summary,
            "{what}"
        );
        server.stop().await;
        assert!(
            PlanCache::new(dir.clone())
                .restore(&sandbox.plan_id())
                .is_some(),
            "{what}: the file was rebuilt"
        );
    }
}

#[tokio::test]
async fn an_alias_that_now_names_another_plan_is_followed_and_a_refused_delta_discards() {
    let heavy_plan = heavy::heavy_plan(heavy::DEFAULT_SEED, 6, 40, heavy::HEAVY_TODAY);
    let demo = ynab_sandbox::demo::demo_plan(heavy::HEAVY_TODAY);
    let cache = TempDir::new();
    let dir = cache.0.join("avenir-mcp");
    // YNAB's last-used plan is the heavy one, then (another sandbox) the demo plan.
    let first_sandbox = Sandbox::start(heavy_plan, SandboxOptions::default())
        .await
        .expect("sandbox starts");
    let first = Server::start(&first_sandbox, Some(&dir)).await;
    first.ok("list_accounts", last_used()).await;
    first.stop().await;
    let heavy_id = first_sandbox.plan_id();

    let sandbox = Sandbox::start(demo, SandboxOptions::default())
        .await
        .expect("sandbox starts");
    let server = Server::start(&sandbox, Some(&dir)).await;
    let accounts = server.ok("list_accounts", last_used()).await;
    assert_eq!(accounts["result"][0]["name"], "Checking", "the demo plan");
    assert_eq!(
        served(&sandbox),
        (2, 1),
        "the delta under last-used named another plan, then its full export"
    );
    server.stop().await;

    // last-used now names the demo plan: the next start sends one delta.
    let server = Server::start(&sandbox, Some(&dir)).await;
    assert_eq!(server.ok("list_accounts", last_used()).await, accounts);
    assert_eq!(served(&sandbox), (3, 2));
    // The heavy plan by its id: YNAB (this sandbox) does not serve it, so its file goes.
    assert!(plan_file(&dir, &first_sandbox).exists());
    let mut params = CallToolRequestParams::new("list_accounts");
    if let Value::Object(map) = json!({"plan_id": heavy_id}) {
        params = params.with_arguments(map);
    }
    let refused = server
        .client
        .call_tool(params)
        .await
        .expect("tools/call answers");
    assert_eq!(refused.is_error, Some(true), "{refused:?}");
    assert_eq!(
        served(&sandbox),
        (5, 3),
        "the refused delta, then the full load that is refused too"
    );
    server.stop().await;
    assert!(!plan_file(&dir, &first_sandbox).exists());
    assert_eq!(
        plan_cache::location_from(Some(cache.0.clone().into()), None),
        Ok(dir)
    );
}

#[tokio::test]
async fn two_writers_sharing_the_cache_take_turns_and_leave_the_latest_copy() {
    let sandbox = heavy_sandbox(3, 20).await;
    let cache = TempDir::new();
    let dir = cache.0.join("avenir-mcp");
    let server = Server::start(&sandbox, Some(&dir)).await;
    server.ok("list_accounts", last_used()).await;
    server.stop().await;
    let base = PlanCache::new(dir.clone())
        .restore("last-used")
        .expect("the first save");
    // Two writers (connections of their own, as two processes have), interleaving saves of
    // growing knowledge: each waits for the other's lock, and none replaces a later copy.
    let writers: Vec<_> = (0..2i64)
        .map(|writer| {
            let (dir, base) = (dir.clone(), base.clone());
            std::thread::spawn(move || {
                let cache = PlanCache::new(dir);
                for round in 0..25i64 {
                    let mut snapshot = base.clone();
                    snapshot.server_knowledge = base.server_knowledge + 1 + 2 * round + writer;
                    cache
                        .save(&snapshot, Some("last-used"))
                        .unwrap_or_else(|why| panic!("writer {writer}, round {round}: {why}"));
                }
            })
        })
        .collect();
    for writer in writers {
        writer.join().expect("the writer ends");
    }
    let last = PlanCache::new(dir.clone())
        .restore("last-used")
        .expect("a whole copy");
    assert_eq!(last.server_knowledge, base.server_knowledge + 50);
    assert_eq!(last.plan, base.plan);
    // An older copy saved now changes nothing.
    assert_eq!(
        PlanCache::new(dir.clone()).save(&base, None),
        Ok(plan_cache::Saved::AlreadyCurrent)
    );
}
