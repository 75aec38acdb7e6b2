//! The hosted mode's logs at DEBUG (issue 26): a session with a confirmed write leaves its audit
//! line, and nothing of the confirmation code, the amount, the payee, the memo or the session id,
//! on SQLite and on PostgreSQL (whose driver logs its statements at DEBUG).

use crate::bounded::{open_session, post};
use crate::hosted_flow::{postgres_db, sqlite_db};
use crate::support;

use avenir_hosted::db::DbConfig;

use serde_json::{Value, json};
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};
use support::World;

/// Every line the test binary logs, at DEBUG, through the hosted mode's filter; the `log`
/// records of the libraries that use it (tokio-postgres) included, as `avenir-mcp` logs them.
fn captured() -> &'static Arc<Mutex<Vec<u8>>> {
    static LINES: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LINES.get_or_init(|| {
        use tracing_subscriber::filter::{LevelFilter, Targets};
        use tracing_subscriber::layer::SubscriberExt;
        use tracing_subscriber::util::SubscriberInitExt;
        let lines = Arc::new(Mutex::new(Vec::new()));
        let filter = avenir_hosted::logs::QUIETER.iter().fold(
            Targets::new().with_default(LevelFilter::DEBUG),
            |filter, (target, most)| filter.with_target(*target, *most),
        );
        let sink = lines.clone();
        let layer = tracing_subscriber::fmt::layer()
            .with_ansi(false)
            .with_writer(move || Sink(sink.clone()));
        tracing_subscriber::registry()
            .with(tracing_subscriber::Layer::with_filter(layer, filter))
            .try_init()
            .expect("the only subscriber, and the only `log` logger");
        lines
    })
}

struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A `tools/call` in `session`: the tool's structured answer (read from the SSE stream).
async fn call_in(mcp: &str, token: &str, session: &str, tool: &str, arguments: Value) -> Value {
    let request = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                         "params": {"name": tool, "arguments": arguments}});
    let answer = post(mcp, token, Some(session), &request.to_string()).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let message: Value = answer
        .body
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str(data.trim()).ok())
        .find(|m: &Value| m.get("result").is_some())
        .unwrap_or_else(|| panic!("no result in {}", answer.body));
    message["result"]["structuredContent"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confirmed_write_leaves_an_audit_line_and_nothing_of_its_data() {
    let (db, dir) = sqlite_db();
    audit_line_and_nothing_of_its_data(db).await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confirmed_write_on_postgresql_leaves_an_audit_line_and_nothing_of_its_data() {
    audit_line_and_nothing_of_its_data(postgres_db()).await;
}

/// Alice's confirmed write through an instance on `db`: its audit line is logged at INFO, and
/// no line of the whole test binary holds its code, amount, payee, memo, the transaction's id,
/// the session id or the token.
async fn audit_line_and_nothing_of_its_data(db: DbConfig) {
    let lines = captured();
    let world = World::start(db, 1).await;
    let alice = world.sign_in("alice", "write", 0).await;
    let mcp = world.instances[0].mcp();
    let token = alice.access_token.as_str();
    let session = open_session(&mcp, token).await;
    let (payee, memo) = ("Quokka Lantern Bakery", "zephyr memo 9137");
    let mut arguments = json!({"account_id": ynab_sandbox::ids::id("acc-checking"), "transactions": [
        {"date": "2026-09-21", "amount": -43.17, "payee_name": payee, "memo": memo}]});
    let preview = call_in(
        &mcp,
        token,
        &session,
        "create_transactions",
        arguments.clone(),
    )
    .await;
    assert_eq!(preview["status"], "confirmation_required", "{preview}");
    let code = preview["confirmation"]
        .as_str()
        .expect("a code")
        .to_string();
    arguments["confirmation"] = json!(code);
    let applied = call_in(&mcp, token, &session, "create_transactions", arguments).await;
    assert_eq!(applied["status"], "applied", "{applied}");
    let operation = applied["operation_id"].as_str().expect("an operation id");
    let created = applied["created_ids"][0]
        .as_str()
        .expect("the transaction's id");

    let logged = String::from_utf8_lossy(&lines.lock().unwrap()).into_owned();
    let audit = logged
        .lines()
        .find(|l| l.contains("write applied:") && l.contains(operation))
        .unwrap_or_else(|| panic!("no audit line for {operation} in:\n{logged}"));
    assert!(audit.contains("INFO"), "{audit}");
    assert!(audit.contains("who=person-"), "{audit}");
    assert!(audit.contains("kind="), "{audit}");
    for secret in [
        code.as_str(),
        "43.17",
        "43170",
        payee,
        memo,
        session.as_str(),
        token,
        // in the journal line PostgreSQL's driver would show with its statement
        created,
    ] {
        assert!(
            !logged.contains(secret),
            "the logs hold {secret:?}:\n{logged}"
        );
    }
}
