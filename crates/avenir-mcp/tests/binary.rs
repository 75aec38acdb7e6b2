//! The built binary as a client meets it: `--demo` over stdio in both MCP eras, the standalone
//! `sandbox` command and `--version`, and two processes sharing one hourly budget or one journal
//! (two undos of one operation racing from two processes revert it once).

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_avenir-mcp");

/// A running `avenir-mcp` child spoken to in JSON-RPC lines.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        Session::start_with_env(args, &[])
    }

    fn start_with_env(args: &[&str], env: &[(&str, &str)]) -> Session {
        let mut command = Command::new(BIN);
        command
            .args(args)
            .env_remove("YNAB_API_KEY")
            .env_remove("YNAB_API_KEY_FILE")
            .env_remove("AVENIR_MCP_TODAY");
        for (key, value) in env {
            command.env(key, value);
        }
        Session::spawn(command)
    }

    fn spawn(mut command: Command) -> Session {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Session {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, message: Value) {
        writeln!(self.stdin, "{message}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// The answer to request `id` (notifications in between are skipped).
    fn answer(&mut self, id: i64) -> Value {
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("read");
            assert!(n > 0, "the server closed stdout before answering {id}");
            let message: Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("stdout holds only JSON-RPC ({e}): {line}"));
            if message["id"] == json!(id) {
                return message;
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `avenir-mcp sandbox` with `args`, and the base URL it prints first (`…/v1`).
fn start_sandbox(args: &[&str]) -> (Child, String) {
    let mut child = Command::new(BIN)
        .arg("sandbox")
        .args(args)
        .env_remove("AVENIR_MCP_TODAY")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("sandbox starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("its base URL");
    (child, first.trim().to_string())
}

fn is_uuid(text: &str) -> bool {
    let parts: Vec<_> = text.split('-').collect();
    parts.iter().map(|p| p.len()).collect::<Vec<_>>() == [8, 4, 4, 4, 12]
        && parts
            .iter()
            .all(|p| p.chars().all(|c| c.is_ascii_hexdigit()))
}

#[test]
fn demo_over_stdio_with_the_initialize_handshake() {
    let mut s = Session::start(&["--demo"]);
    s.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "binary-test", "version": "0"}}}),
    );
    let init = s.answer(1);
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(init["result"]["serverInfo"]["name"], "avenir-mcp");
    s.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    s.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                  "params": {"name": "list_plans", "arguments": {}}}));
    let answer = s.answer(2);
    let plans = &answer["result"]["structuredContent"]["result"];
    assert_eq!(plans[0]["name"], "Demo household");
    assert!(is_uuid(plans[0]["id"].as_str().unwrap_or("")), "{plans}");
}

#[test]
fn demo_over_stdio_with_2026_07_28() {
    let mut s = Session::start(&["--demo"]);
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "binary-test", "version": "0"}
    });
    s.send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                  "params": {"_meta": meta}}),
    );
    let discover = s.answer(1);
    let versions = discover["result"]["supportedVersions"].to_string();
    assert!(versions.contains("2026-07-28"), "{discover}");
    assert!(versions.contains("2025-11-25"), "{discover}");
    s.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                  "params": {"name": "list_accounts", "arguments": {"plan_id": "last-used"},
                             "_meta": meta}}));
    let answer = s.answer(2);
    assert_eq!(answer["result"]["resultType"], "complete");
    let checking = &answer["result"]["structuredContent"]["result"][0];
    assert_eq!(checking["name"], "Checking");
    assert_eq!(checking["balance"], json!(3328.5));
}

/// D38: the Python server's update-check and tracking switches are accepted and change nothing
/// (there is no update check and no telemetry to turn off).
#[test]
fn update_check_and_tracking_variables_change_nothing() {
    const SWITCHES: [&str; 3] = ["AVENIR_MCP_NO_UPDATE_CHECK", "DO_NOT_TRACK", "CI"];
    let answers = |env: &[(&str, &str)]| {
        let mut command = Command::new(BIN);
        command
            .arg("--demo")
            .env_remove("YNAB_API_KEY")
            .env_remove("YNAB_API_KEY_FILE")
            .env_remove("AVENIR_MCP_TODAY");
        for key in SWITCHES {
            command.env_remove(key);
        }
        command.envs(env.iter().copied());
        let mut s = Session::spawn(command);
        s.send(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "binary-test", "version": "0"}}}),
        );
        let init = s.answer(1);
        s.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        s.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
        let tools = s.answer(2);
        s.send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                      "params": {"name": "list_accounts", "arguments": {"plan_id": "last-used"}}}));
        (init, tools, s.answer(3))
    };
    let unset = answers(&[]);
    let set = answers(&[
        ("AVENIR_MCP_NO_UPDATE_CHECK", "1"),
        ("DO_NOT_TRACK", "1"),
        ("CI", "true"),
    ]);
    assert_eq!(
        unset.2["result"]["structuredContent"]["result"][0]["name"],
        "Checking"
    );
    assert_eq!(set, unset, "{SWITCHES:?} change nothing");
}

#[test]
fn the_sandbox_prints_its_base_url_first_and_serves_accounts() {
    let (mut child, base) = start_sandbox(&["--listen", "127.0.0.1:0", "--plan", "demo"]);
    assert!(
        base.starts_with("http://127.0.0.1:") && base.ends_with("/v1"),
        "{base}"
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let accounts: Value = runtime.block_on(async {
        let client = ynab::Client::new(
            ynab::BaseUrl::new(base.clone()),
            ynab::TokenSource::Fixed(ynab::Token::new("any")),
        )
        .expect("the HTTP client builds");
        tokio::time::timeout(
            Duration::from_secs(20),
            client.get::<Value>(&["plans", "last-used", "accounts"], &[]),
        )
        .await
        .expect("in time")
        .expect("accounts")
    });
    let _ = child.kill();
    let _ = child.wait();
    let checking = accounts["accounts"]
        .as_array()
        .and_then(|list| list.iter().find(|a| a["name"] == "Checking"))
        .expect("Checking");
    assert_eq!(checking["balance"], json!(3_328_500));
}

#[test]
fn version_names_the_commit_and_the_ynab_api_version() {
    let output = Command::new(BIN).arg("--version").output().expect("runs");
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        format!(
            "avenir-mcp {} (commit {}, YNAB API v{})\n",
            env!("CARGO_PKG_VERSION"),
            env!("AVENIR_MCP_COMMIT"),
            ynab::YNAB_API_VERSION
        )
    );
}

#[test]
fn an_unknown_argument_is_a_usage_error() {
    let output = Command::new(BIN).arg("--nope").output().expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
}

#[test]
fn the_sandbox_serves_a_heavy_plan_of_the_size_asked() {
    let (mut child, base) = start_sandbox(&[
        "--listen",
        "127.0.0.1:0",
        "--plan",
        "heavy",
        "--seed",
        "7",
        "--months",
        "2",
        "--per-month",
        "10",
    ]);
    assert!(base.ends_with("/v1"), "{base}");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let answer: Value = runtime.block_on(async {
        let client = ynab::Client::new(
            ynab::BaseUrl::new(base.clone()),
            ynab::TokenSource::Fixed(ynab::Token::new("any")),
        )
        .expect("the HTTP client builds");
        tokio::time::timeout(
            Duration::from_secs(20),
            client.get::<Value>(&["plans", "last-used", "transactions"], &[]),
        )
        .await
        .expect("in time")
        .expect("transactions")
    });
    let _ = child.kill();
    let _ = child.wait();
    let transactions = answer["transactions"].as_array().expect("a list");
    assert_eq!(transactions.len(), 2 * 10);
    assert_eq!(
        transactions[0]["id"],
        json!(ynab_sandbox::heavy::heavy_id(7, "tx-00000"))
    );
    // The last of 10 slots spread over September's first 25 days ("today" 2026-09-25): day 23.
    assert_eq!(transactions[19]["date"], "2026-09-23");
}

#[test]
fn a_plan_file_excludes_the_heavy_plan_options() {
    let output = Command::new(BIN)
        .args(["sandbox", "--plan-file", "plan.json", "--seed", "3"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot be used with"));
    let output = Command::new(BIN)
        .args(["sandbox", "--plan", "demo", "--months", "3"])
        .env_remove("AVENIR_MCP_TODAY")
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("add --plan heavy"));
}

#[test]
fn unfinished_operations_are_reported_at_start() {
    let dir = std::env::temp_dir().join(format!("avenir-bin-unfinished-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let journal = dir.join("journal.jsonl");
    let intents = dir.join("journal.jsonl.intents");
    std::fs::write(
        &intents,
        "{\"intent\":{\"id\":\"0123456789ab\",\"kind\":\"move\",\"plan_id\":\"p1\",\"details\":{}}}\n\
         {\"intent\":{\"id\":\"ba9876543210\",\"kind\":\"budget\",\"plan_id\":\"p1\",\"details\":{}}}\n\
         {\"settled\":\"ba9876543210\",\"outcome\":\"applied\"}\n",
    )
    .expect("intents");
    // a crash left one intent unsettled; the next start names it on stderr (ids and kinds only)
    let output = Command::new(BIN)
        .env("AVENIR_MCP_JOURNAL", &journal)
        .env_remove("AVENIR_MCP_LOG_LEVEL")
        .env("YNAB_API_KEY", "unused")
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("unfinished operation 0123456789ab (move)"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("ba9876543210"),
        "settled ones are not reported: {stderr}"
    );
    assert!(output.stdout.is_empty(), "stdout carries only the protocol");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The legacy handshake, then `tools/call` of `tool`; the result object.
fn call_over_stdio(session: &mut Session, id: i64, tool: &str, arguments: Value) -> Value {
    session.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                        "params": {"name": tool, "arguments": arguments}}));
    session.answer(id)["result"].clone()
}

fn initialize(session: &mut Session) {
    session.send(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "binary-test", "version": "0"}}}),
    );
    session.answer(0);
    session.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
}

#[test]
fn two_processes_share_one_hourly_budget() {
    let (mut sandbox, base) = start_sandbox(&["--listen", "127.0.0.1:0"]);
    let state = std::env::temp_dir().join(format!("avenir-bin-ledger-{}", std::process::id()));
    let env = [
        ("YNAB_API_KEY", "one-token-for-both"),
        ("AVENIR_MCP_YNAB_URL", base.as_str()),
        ("XDG_STATE_HOME", state.to_str().unwrap_or("/tmp")),
        ("AVENIR_MCP_RATE_LIMIT", "3"),
    ];
    let mut a = Session::start_with_env(&[], &env);
    let mut b = Session::start_with_env(&[], &env);
    initialize(&mut a);
    initialize(&mut b);
    for id in 1..=2 {
        let result = call_over_stdio(&mut a, id, "list_plans", json!({}));
        assert_eq!(result["isError"], false, "{result}");
    }
    let third = call_over_stdio(&mut b, 1, "list_plans", json!({}));
    assert_eq!(third["isError"], false, "{third}");
    let refused = call_over_stdio(&mut b, 2, "list_plans", json!({}));
    assert_eq!(refused["isError"], true);
    let text = refused["content"][0]["text"].as_str().unwrap_or("");
    assert!(
        text.starts_with("avenir-mcp sent 3 requests to YNAB in the last hour"),
        "{text}"
    );
    let again = call_over_stdio(&mut a, 3, "list_plans", json!({}));
    assert_eq!(
        again["isError"], true,
        "the other process sees the same budget"
    );
    // the ledger: one private file, named by a digest, holding timestamps only
    let dir = state.join("avenir-mcp").join("ledger");
    let files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    assert_eq!(files.len(), 1, "{files:?}");
    let name = files[0]
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_string();
    assert_eq!(name.len(), 16);
    assert!(name.chars().all(|c| c.is_ascii_hexdigit()));
    let content = std::fs::read_to_string(&files[0]).unwrap_or_default();
    assert!(!content.contains("one-token-for-both"));
    assert_eq!(content.lines().count(), 3);
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&files[0]).map(|m| m.permissions().mode() & 0o777);
        assert_eq!(mode.ok(), Some(0o600));
    }
    drop(a);
    drop(b);
    let _ = sandbox.kill();
    let _ = sandbox.wait();
    let _ = std::fs::remove_dir_all(&state);
}

/// Issue 4/5's scenario, as a client without elicitation lives it with `--demo`.
#[test]
fn demo_budget_change_with_a_code_then_undo() {
    let mut s = Session::start(&["--demo"]);
    initialize(&mut s);
    let restaurants = json!({"plan_id": "last-used", "month": "2026-09",
                             "category_id": ynab_sandbox_id("cat-restaurants"), "amount": 150});
    let preview = call_over_stdio(&mut s, 1, "set_category_budget", restaurants.clone());
    let preview = &preview["structuredContent"];
    assert_eq!(preview["status"], "confirmation_required");
    let message = preview["message"].as_str().unwrap_or("");
    assert!(
        message.contains(
            "Budget Restaurants for 2026-09-01: 120.00 → 150.00 (available -22.50 → +7.50)?"
        ),
        "{message}"
    );
    let code = preview["confirmation"].as_str().unwrap_or("").to_string();
    assert_eq!(code.len(), 11);

    let mut with_code = restaurants.clone();
    with_code["confirmation"] = json!(code);
    let applied = call_over_stdio(&mut s, 2, "set_category_budget", with_code.clone());
    assert_eq!(
        applied["structuredContent"]["status"], "applied",
        "{applied}"
    );
    let again = call_over_stdio(&mut s, 3, "set_category_budget", with_code);
    assert_eq!(again["structuredContent"]["message"], "Nothing to change.");

    let mut other = restaurants.clone();
    other["amount"] = json!(160);
    other["confirmation"] = json!(code);
    let refused = call_over_stdio(&mut s, 4, "set_category_budget", other);
    assert_eq!(refused["isError"], true);
    assert_eq!(
        refused["content"][0]["text"],
        "This confirmation code is unknown, expired, already used, or was issued for different changes. Call again without confirmation to get a new preview."
    );
    let balances = call_over_stdio(
        &mut s,
        5,
        "get_category_balances",
        json!({"plan_id": "last-used", "month": "2026-09"}),
    );
    let budgeted = |v: &Value| {
        v["structuredContent"]["result"]
            .as_array()
            .and_then(|l| l.iter().find(|c| c["name"] == "Restaurants").cloned())
            .map(|c| c["budgeted"].clone())
    };
    assert_eq!(
        budgeted(&balances),
        Some(json!(150.0)),
        "the refused call changed nothing"
    );

    let undo = call_over_stdio(&mut s, 6, "undo_operation", json!({"plan_id": "last-used"}));
    let undo = &undo["structuredContent"];
    assert!(
        undo["message"]
            .as_str()
            .unwrap_or("")
            .contains("Undo: set Restaurants for 2026-09-01 back to 120.00?"),
        "{undo}"
    );
    let undone = call_over_stdio(
        &mut s,
        7,
        "undo_operation",
        json!({"plan_id": "last-used", "confirmation": undo["confirmation"]}),
    );
    assert_eq!(
        undone["structuredContent"]["message"],
        "Budgeted amount restored."
    );
    let balances = call_over_stdio(
        &mut s,
        8,
        "get_category_balances",
        json!({"plan_id": "last-used", "month": "2026-09"}),
    );
    assert_eq!(budgeted(&balances), Some(json!(120.0)));
}

#[test]
fn a_restart_forgets_every_code() {
    let args = json!({"plan_id": "last-used", "month": "2026-09",
                      "category_id": ynab_sandbox_id("cat-restaurants"), "amount": 150});
    let code = {
        let mut first = Session::start(&["--demo"]);
        initialize(&mut first);
        let preview = call_over_stdio(&mut first, 1, "set_category_budget", args.clone());
        preview["structuredContent"]["confirmation"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    let mut second = Session::start(&["--demo"]);
    initialize(&mut second);
    let mut with_code = args;
    with_code["confirmation"] = json!(code);
    let refused = call_over_stdio(&mut second, 1, "set_category_budget", with_code);
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(
        refused["content"][0]["text"]
            .as_str()
            .unwrap_or("")
            .starts_with("This confirmation code is unknown")
    );
}

/// The sandbox's UUID for a readable demo id (D26): UUID v5 in the project's namespace.
fn ynab_sandbox_id(readable: &str) -> String {
    ynab_sandbox::ids::id(readable)
}

#[test]
fn the_token_never_reaches_the_logs_even_at_debug() {
    let (mut sandbox, base) = start_sandbox(&["--listen", "127.0.0.1:0"]);
    let state = std::env::temp_dir().join(format!("avenir-bin-token-{}", std::process::id()));
    let secret = "tok-3f9a1c7e-never-print-me";
    let mut child = Command::new(BIN)
        .env("YNAB_API_KEY", secret)
        .env("AVENIR_MCP_YNAB_URL", base.as_str())
        .env("AVENIR_MCP_LOG_LEVEL", "DEBUG")
        .env("XDG_STATE_HOME", &state)
        .env("AVENIR_MCP_WRITE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("server starts");
    let mut session = Talk::open(&mut child);
    let mut exchange = |message: Value| session.exchange(message);
    let call = |name: &str, arguments: Value, id: i64| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments}});
    let accounts = exchange(call("list_accounts", json!({"plan_id": "last-used"}), 1));
    assert_eq!(accounts["isError"], false, "{accounts}");
    let budget = json!({"plan_id": "last-used", "month": "2026-09",
                        "category_id": ynab_sandbox_id("cat-restaurants"), "amount": 150});
    let preview = exchange(call("set_category_budget", budget.clone(), 2));
    let mut confirmed = budget;
    confirmed["confirmation"] = preview["structuredContent"]["confirmation"].clone();
    let applied = exchange(call("set_category_budget", confirmed, 3));
    assert_eq!(
        applied["structuredContent"]["status"], "applied",
        "{applied}"
    );
    drop(session);
    let output = child.wait_with_output().expect("exits");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("DEBUG") || stderr.contains("INFO"),
        "debug logs were written"
    );
    assert!(!stderr.contains(secret), "the token leaked into the logs");
    // nor into any file the server wrote
    for entry in walk(&state) {
        let text = std::fs::read_to_string(&entry).unwrap_or_default();
        assert!(
            !text.contains(secret),
            "{} holds the token",
            entry.display()
        );
    }
    let _ = sandbox.kill();
    let _ = sandbox.wait();
    let _ = std::fs::remove_dir_all(&state);
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                files.extend(walk(&path));
            } else {
                files.push(path);
            }
        }
    }
    files
}

/// stderr of `--demo` after one `list_accounts`, with the given log settings.
fn demo_logs(env: &[(&str, &str)]) -> String {
    let mut command = Command::new(BIN);
    command
        .arg("--demo")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("starts");
    {
        let mut stdin = child.stdin.take().expect("stdin");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        for message in [
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "binary-test", "version": "0"}}}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                   "params": {"name": "list_accounts", "arguments": {"plan_id": "last-used"}}}),
        ] {
            writeln!(stdin, "{message}").expect("write");
        }
        stdin.flush().expect("flush");
        // wait for the tool's answer before closing stdin
        loop {
            let mut line = String::new();
            if stdout.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            if serde_json::from_str::<Value>(&line).is_ok_and(|m| m["id"] == json!(2)) {
                break;
            }
        }
    }
    let output = child.wait_with_output().expect("exits");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn logs_follow_the_reference_formats() {
    let text = demo_logs(&[("AVENIR_MCP_LOG_LEVEL", "INFO")]);
    assert!(
        text.contains("INFO:avenir::server:tool list_accounts"),
        "{text}"
    );
    assert!(
        text.contains("INFO:ynab::client:YNAB GET /plans/last-used (try 1)"),
        "{text}"
    );
    assert!(
        !text.contains("rmcp"),
        "the MCP library speaks only at DEBUG: {text}"
    );
    let json_lines = demo_logs(&[
        ("AVENIR_MCP_LOG_LEVEL", "INFO"),
        ("AVENIR_MCP_LOG_FORMAT", "json"),
    ]);
    let lines: Vec<Value> = json_lines
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert!(!lines.is_empty(), "{json_lines}");
    for line in &lines {
        for key in ["time", "level", "logger", "message"] {
            assert!(line.get(key).is_some(), "{key} in {line}");
        }
        let time = line["time"].as_str().unwrap_or("");
        assert!(time.ends_with("+00:00") && time.len() == 29, "{time}");
    }
    let quiet = demo_logs(&[]);
    assert!(!quiet.contains("INFO:"), "WARNING by default: {quiet}");
}

/// One HTTP/1.1 exchange on loopback: (status, headers and body as text).
fn http(port: u16, method: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    use std::io::Read;
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    let mut request = format!(
        "{method} /mcp HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        request.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    for (key, value) in headers {
        request.push_str(&format!("{key}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).expect("send");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, text)
}

/// The JSON-RPC message of an SSE (or JSON) answer with this id.
fn message_with_id(text: &str, id: i64) -> Value {
    text.lines()
        .filter_map(|l| l.strip_prefix("data: ").or(Some(l)))
        .filter_map(|l| serde_json::from_str::<Value>(l.trim()).ok())
        .find(|m| m["id"] == json!(id))
        .unwrap_or(Value::Null)
}

#[test]
fn http_transport_guards_every_request_and_serves_mcp() {
    let mut child = Command::new(BIN)
        .arg("--demo")
        .env("AVENIR_MCP_TRANSPORT", "http")
        .env("AVENIR_MCP_PORT", "0")
        .env("AVENIR_MCP_HTTP_TOKEN", "a-long-random-test-token")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut port = 0u16;
    for _ in 0..20 {
        let mut line = String::new();
        if stderr.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        assert!(
            !line.contains("a-long-random-test-token"),
            "the token is never printed"
        );
        if let Some(rest) = line.split("http://127.0.0.1:").nth(1) {
            port = rest
                .split('/')
                .next()
                .and_then(|p| p.parse().ok())
                .unwrap_or(0);
            break;
        }
    }
    assert_ne!(port, 0, "the server says where it listens");
    let auth = ("Authorization", "Bearer a-long-random-test-token");

    let (status, text) = http(port, "POST", &[], "");
    assert_eq!(status, 401);
    assert!(
        text.to_ascii_lowercase()
            .contains("www-authenticate: bearer"),
        "{text}"
    );
    assert!(text.ends_with("Unauthorized: send the header Authorization: Bearer <token>, with AVENIR_MCP_HTTP_TOKEN or the token avenir-mcp printed when it started."), "{text}");
    let (status, _) = http(
        port,
        "POST",
        &[("Authorization", "bearer a-long-random-test-token")],
        "",
    );
    assert_eq!(status, 401, "the scheme is spelled Bearer");
    let (status, text) = http(port, "POST", &[("Host", "evil.example"), auth], "");
    assert_eq!(status, 421);
    assert!(text.ends_with("Misdirected Request"));
    let (status, text) = http(port, "POST", &[("Origin", "http://evil.example"), auth], "");
    assert_eq!(status, 403);
    assert!(text.ends_with("Forbidden Origin"));

    let json_headers = [
        auth,
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("Origin", "http://localhost:5173"),
    ];
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "binary-test", "version": "0"}}});
    let (status, text) = http(port, "POST", &json_headers, &initialize.to_string());
    assert_eq!(status, 200, "{text}");
    assert_eq!(
        message_with_id(&text, 1)["result"]["serverInfo"]["name"],
        "avenir-mcp"
    );
    let session = text
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("mcp-session-id: ")
                .map(|_| l[16..].trim().to_string())
        })
        .expect("a legacy session");
    let mut with_session = json_headers.to_vec();
    with_session.push(("Mcp-Session-Id", session.as_str()));
    let (status, _) = http(
        port,
        "POST",
        &with_session,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
    );
    assert!(status == 202 || status == 200, "{status}");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "list_plans", "arguments": {}}});
    let (status, text) = http(port, "POST", &with_session, &call.to_string());
    assert_eq!(status, 200, "{text}");
    let plans = &message_with_id(&text, 2)["result"]["structuredContent"]["result"];
    assert_eq!(plans[0]["name"], "Demo household", "{text}");
    // The client ends its session: 204, as the SDKs expect (200 or 204), and it is gone.
    let mut closing = vec![auth, ("Mcp-Session-Id", session.as_str())];
    closing.push(("MCP-Protocol-Version", "2025-11-25"));
    let (status, text) = http(port, "DELETE", &closing, "");
    assert_eq!(status, 204, "{text}");
    let (status, _) = http(port, "POST", &with_session, &call.to_string());
    assert_eq!(status, 404, "the session ended");
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn http_without_a_token_makes_one_and_prints_it_once() {
    let mut child = Command::new(BIN)
        .arg("--demo")
        .env("AVENIR_MCP_TRANSPORT", "http")
        .env("AVENIR_MCP_PORT", "0")
        .env_remove("AVENIR_MCP_HTTP_TOKEN")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut text = String::new();
    for _ in 0..8 {
        let mut line = String::new();
        if stderr.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        text.push_str(&line);
        if line.contains("/mcp") {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let token = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Authorization: Bearer "))
        .expect("the token is printed")
        .to_string();
    assert_eq!(token.len(), 43, "32 random bytes, base64url");
    assert!(
        token
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    );
    assert!(text.starts_with(&format!(
        "avenir-mcp: AVENIR_MCP_HTTP_TOKEN is not set, so this run requires a token made for it:\n\n    Authorization: Bearer {token}\n\nIt changes at each start; set AVENIR_MCP_HTTP_TOKEN to a long random value to keep one.\n"
    )), "{text}");
}

/// Two processes sharing one journal and one sandbox (served by this test), as a desktop app and
/// a terminal agent would: `AVENIR_MCP_WRITE=1`, codes for confirmation, every read fresh.
fn start_sharing(base: &str, journal: &std::path::Path, state: &std::path::Path) -> [Session; 2] {
    let env = [
        ("YNAB_API_KEY", "one-token-for-both"),
        ("AVENIR_MCP_YNAB_URL", base),
        ("AVENIR_MCP_WRITE", "1"),
        ("AVENIR_MCP_TODAY", "2026-09-25"),
        ("AVENIR_MCP_FRESH_SECONDS", "0"),
        ("AVENIR_MCP_REQUIRE_ELICITATION", ""),
        ("AVENIR_MCP_CONFIRM", ""),
        ("AVENIR_MCP_RATE_LIMIT", "200"),
        ("AVENIR_MCP_JOURNAL", journal.to_str().unwrap_or("")),
        ("XDG_STATE_HOME", state.to_str().unwrap_or("")),
    ];
    let mut pair = [
        Session::start_with_env(&[], &env),
        Session::start_with_env(&[], &env),
    ];
    for session in &mut pair {
        initialize(session);
    }
    pair
}

/// D5 across processes: each round one process sets Restaurants' amount, both preview an undo
/// of that operation (a code each), then both confirmed undos are written to the two stdin pipes
/// back to back, while the sandbox holds each PATCH back a moment so both are in flight. Exactly
/// one reverts (one PATCH, one `{"undone"}` marker), the other answers E-U2. Run with
/// `--nocapture` to see the summary.
#[test]
fn two_processes_racing_undo_operation_revert_once() {
    const ROUNDS: u32 = 50;
    // A pair of processes shares one hourly budget of 200 requests; a new pair (with a new
    // ledger) every ten rounds stays well inside it.
    const ROUNDS_PER_PAIR: u32 = 10;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let today = ynab_sandbox::demo::DEMO_TODAY;
    let sandbox = runtime
        .block_on(ynab_sandbox::Sandbox::start(
            ynab_sandbox::demo::demo_plan(today),
            ynab_sandbox::SandboxOptions::default(),
        ))
        .expect("sandbox starts");
    let base = sandbox.base_url();
    let plan = sandbox.plan_id();
    let restaurants = ynab_sandbox::ids::id("cat-restaurants");
    let dir = std::env::temp_dir().join(format!("avenir-bin-undo-race-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let journal = dir.join("journal.jsonl");
    let reader = ynab::Client::new(
        ynab::BaseUrl::new(base.clone()),
        ynab::TokenSource::Fixed(ynab::Token::new("the-test")),
    )
    .expect("the HTTP client builds")
    .with_pacer(ynab::Pacer::memory(1000));
    let budgeted = || -> Option<i64> {
        let month = runtime.block_on(reader.month(&plan, "2026-09-01")).ok()?;
        month
            .categories
            .unwrap_or_default()
            .into_iter()
            .find(|c| c.id == restaurants)
            .map(|c| c.budgeted)
    };
    let writes_sent = || -> u64 {
        sandbox
            .stats()
            .routes
            .iter()
            .filter(|(route, _)| !route.starts_with("GET "))
            .map(|(_, n)| n)
            .sum()
    };
    let markers = |op: &str| {
        std::fs::read_to_string(&journal)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|line| line["undone"] == op)
            .count()
    };
    let text = |result: &Value| {
        result["content"][0]["text"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    let mut pair: Option<[Session; 2]> = None;
    let mut id = 0;
    let (mut single, mut double) = (0u32, 0u32);
    let mut other = Vec::new();
    for round in 0..ROUNDS {
        if round % ROUNDS_PER_PAIR == 0 {
            pair = None;
        }
        let sessions = pair.get_or_insert_with(|| {
            start_sharing(&base, &journal, &dir.join(format!("state-{round}")))
        });
        // one process makes the change (each in turn) …
        let set = json!({"plan_id": "last-used", "month": "2026-09-01",
                         "category_id": restaurants, "amount": 150 + round});
        let setter = &mut sessions[(round % 2) as usize];
        id += 1;
        let preview = call_over_stdio(setter, id, "set_category_budget", set.clone());
        let mut confirmed = set.clone();
        confirmed["confirmation"] = preview["structuredContent"]["confirmation"].clone();
        id += 1;
        let applied = call_over_stdio(setter, id, "set_category_budget", confirmed);
        assert_eq!(
            applied["structuredContent"]["status"], "applied",
            "round {round}: {applied}"
        );
        let op = applied["structuredContent"]["operation_id"]
            .as_str()
            .expect("an operation id")
            .to_string();
        // … both preview its undo: a code each …
        let undo = json!({"plan_id": "last-used", "operation_id": op});
        let mut requests = Vec::new();
        for session in sessions.iter_mut() {
            id += 1;
            let preview = call_over_stdio(session, id, "undo_operation", undo.clone());
            assert_eq!(
                preview["structuredContent"]["status"], "confirmation_required",
                "round {round}: {preview}"
            );
            let mut confirmed = undo.clone();
            confirmed["confirmation"] = preview["structuredContent"]["confirmation"].clone();
            id += 1;
            requests.push((id, confirmed));
        }
        // … and both confirm at once.
        let writes = writes_sent();
        sandbox.inject(ynab_sandbox::faults::Fault::new(
            2,
            Some("PATCH"),
            ynab_sandbox::faults::FaultKind::Delay { ms: 100 },
        ));
        for (session, (id, arguments)) in sessions.iter_mut().zip(&requests) {
            session.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                                "params": {"name": "undo_operation", "arguments": arguments}}));
        }
        let answers: Vec<Value> = sessions
            .iter_mut()
            .zip(&requests)
            .map(|(session, (id, _))| session.answer(*id)["result"].clone())
            .collect();
        sandbox.clear_faults();
        let reverted = answers
            .iter()
            .filter(|a| a["isError"] == false && a["structuredContent"]["status"] == "applied")
            .count();
        let refused = answers
            .iter()
            .filter(|a| {
                a["isError"] == true
                    && text(a)
                        == format!("Nothing to undo: no operation of this plan is still in effect with id {op}.")
            })
            .count();
        let patches = writes_sent() - writes;
        let (marked, now) = (markers(&op), budgeted());
        if reverted == 1 && refused == 1 && patches == 1 && marked == 1 && now == Some(120_000) {
            single += 1;
        } else if reverted > 1 || patches > 1 || marked > 1 {
            double += 1;
        } else {
            other.push(format!(
                "round {round}: {reverted} reverted, {refused} refused, {patches} PATCH, {marked} marker(s), Restaurants {now:?}: {answers:?}"
            ));
        }
    }
    drop(pair);
    println!(
        "{ROUNDS} rounds: {single} single reverts, {double} double, {} other",
        other.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(other, Vec::<String>::new());
    assert_eq!((single, double), (ROUNDS, 0));
}

/// `GET /__sandbox/stats` of the sandbox at `base` (`…/v1`): (requests, of which deltas).
fn sandbox_stats(base: &str) -> (u64, u64) {
    use std::io::Read;
    let authority = base
        .trim_start_matches("http://")
        .trim_end_matches("/v1")
        .to_string();
    let mut stream = std::net::TcpStream::connect(authority.as_str()).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    write!(
        stream,
        "GET /__sandbox/stats HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let body = answer.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    let stats: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    (
        stats["total"].as_u64().unwrap_or(u64::MAX),
        stats["deltas"].as_u64().unwrap_or(u64::MAX),
    )
}

/// One run of the server: `list_accounts` on `last-used`, then stdin closed and the exit awaited
/// (so the run's saves are written). The answer's structured content and stderr.
fn one_read(env: &[(&str, &str)]) -> (Value, String) {
    let mut command = Command::new(BIN);
    command
        .env_remove("YNAB_API_KEY_FILE")
        .env_remove("AVENIR_MCP_TODAY")
        .env_remove("AVENIR_MCP_CACHE")
        .env_remove("AVENIR_MCP_LOG_LEVEL")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("server starts");
    let mut session = Talk::open(&mut child);
    let result = session.exchange(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "list_accounts", "arguments": {"plan_id": "last-used"}}}));
    drop(session);
    let output = child.wait_with_output().expect("exits");
    assert!(output.status.success(), "{output:?}");
    assert_eq!(result["isError"], false, "{result}");
    (
        result["structuredContent"].clone(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `avenir-mcp cache clear` with the environment given (HOME and XDG_CACHE_HOME unset first).
fn cache_clear(env: &[(&str, &str)]) -> std::process::Output {
    Command::new(BIN)
        .args(["cache", "clear"])
        .env_remove("HOME")
        .env_remove("XDG_CACHE_HOME")
        .envs(env.iter().copied())
        .output()
        .expect("runs")
}

/// Issue 12 through the binary: with `AVENIR_MCP_CACHE=1` the plan is kept in
/// `$XDG_CACHE_HOME/avenir-mcp` (0700; files 0600, no token) and the next start sends one delta;
/// a damaged file is discarded with a warning naming it (no plan data) and the plan loaded in
/// full; without the variable nothing is written there; `cache clear` removes the files and names
/// them; no place for a cache is a startup error naming the variables.
#[test]
fn the_plan_cache_between_runs_and_cache_clear() {
    use std::os::unix::fs::PermissionsExt;
    let (mut sandbox, base) = start_sandbox(&["--listen", "127.0.0.1:0"]);
    let root = std::env::temp_dir().join(format!("avenir-bin-cache-{}", std::process::id()));
    let cache_home = root.join("cache");
    let state = root.join("state");
    let secret = "tok-cache-bin-5e2b-never-on-disk";
    let (cache_home_s, state_s) = (
        cache_home.to_string_lossy().into_owned(),
        state.to_string_lossy().into_owned(),
    );
    let env = [
        ("YNAB_API_KEY", secret),
        ("AVENIR_MCP_YNAB_URL", base.as_str()),
        ("XDG_STATE_HOME", state_s.as_str()),
        ("XDG_CACHE_HOME", cache_home_s.as_str()),
        ("AVENIR_MCP_CACHE", "1"),
    ];
    let mode = |path: &std::path::Path| {
        std::fs::metadata(path)
            .map(|m| m.permissions().mode() & 0o777)
            .ok()
    };

    let (accounts, _) = one_read(&env);
    assert_eq!(accounts["result"][0]["name"], "Checking");
    assert_eq!(sandbox_stats(&base), (1, 0), "a full export");
    let dir = cache_home.join("avenir-mcp");
    assert_eq!(mode(&dir), Some(0o700));
    let mut files = walk(&dir);
    files.sort();
    let plan_file = dir.join(format!("{}.json", ynab_sandbox_id("demo-budget")));
    let mut expected = vec![dir.join("aliases.json"), plan_file.clone()];
    expected.sort();
    assert_eq!(files, expected);
    for file in &files {
        assert_eq!(mode(file), Some(0o600), "{}", file.display());
        let bytes = std::fs::read(file).unwrap_or_default();
        assert!(
            !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "{} holds the token",
            file.display()
        );
    }

    let (again, _) = one_read(&env);
    assert_eq!(again, accounts);
    assert_eq!(sandbox_stats(&base), (2, 1), "one request, a delta");

    std::fs::write(&plan_file, b"garbage, not a plan file").expect("damaged");
    let (rebuilt, stderr) = one_read(&env);
    assert_eq!(rebuilt, accounts);
    assert_eq!(sandbox_stats(&base), (3, 1), "a full export again");
    assert!(
        stderr.contains(&format!(
            "discarding the plan cache file {}: it cannot be read",
            plan_file.display()
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("Checking"), "no plan data in the logs");

    // Without AVENIR_MCP_CACHE=1 nothing is written to the cache's place.
    let other_home = root.join("other-cache");
    let other_home_s = other_home.to_string_lossy().into_owned();
    let mut uncached = env;
    uncached[3] = ("XDG_CACHE_HOME", other_home_s.as_str());
    uncached[4] = ("AVENIR_MCP_CACHE", "0");
    one_read(&uncached);
    assert!(walk(&other_home).is_empty() && !other_home.exists());

    let cleared = cache_clear(&[("XDG_CACHE_HOME", cache_home_s.as_str())]);
    assert!(cleared.status.success(), "{cleared:?}");
    assert_eq!(
        String::from_utf8_lossy(&cleared.stdout),
        format!(
            "Removed 2 files from the plan cache in {}:\n  {}\n  {}\n",
            dir.display(),
            files[0].display(),
            files[1].display()
        )
    );
    assert!(walk(&dir).is_empty());
    let again = cache_clear(&[("XDG_CACHE_HOME", cache_home_s.as_str())]);
    assert_eq!(
        String::from_utf8_lossy(&again.stdout),
        format!(
            "The plan cache in {} holds no file: nothing removed.\n",
            dir.display()
        )
    );
    let nowhere = cache_clear(&[]);
    assert_eq!(nowhere.status.code(), Some(2));
    let message = String::from_utf8_lossy(&nowhere.stderr);
    assert!(
        message.contains("there is no plan cache to clear")
            && message.contains("neither XDG_CACHE_HOME"),
        "{message}"
    );
    let no_place = Command::new(BIN)
        .env_remove("HOME")
        .env_remove("XDG_CACHE_HOME")
        .env("YNAB_API_KEY", secret)
        .env("AVENIR_MCP_CACHE", "1")
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(no_place.status.code(), Some(2));
    let message = String::from_utf8_lossy(&no_place.stderr);
    assert!(
        message.contains("AVENIR_MCP_CACHE=1 asks for a plan cache on disk")
            && message.contains("HOME"),
        "{message}"
    );

    let _ = sandbox.kill();
    let _ = sandbox.wait();
    let _ = std::fs::remove_dir_all(&root);
}

/// An initialised (2025-11-25) exchange over the pipes of a child the test keeps, unlike
/// [`Session`], so that it can read the child's stderr and exit status; dropping it closes the
/// child's stdin.
struct Talk {
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Talk {
    fn open(child: &mut Child) -> Self {
        let mut session = Talk {
            stdin: child.stdin.take().expect("stdin"),
            stdout: BufReader::new(child.stdout.take().expect("stdout")),
        };
        session.exchange(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "binary-test", "version": "0"}}}),
        );
        session.exchange(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        session
    }

    /// Send `message`; for a request, the `result` of its answer (null if the server ended).
    fn exchange(&mut self, message: Value) -> Value {
        writeln!(self.stdin, "{message}").expect("write");
        self.stdin.flush().expect("flush");
        let Some(id) = message.get("id").cloned() else {
            return Value::Null;
        };
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line).unwrap_or(0) == 0 {
                return Value::Null;
            }
            let answer: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
            if answer["id"] == id {
                return answer["result"].clone();
            }
        }
    }
}
