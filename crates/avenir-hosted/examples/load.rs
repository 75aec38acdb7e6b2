//! The hosted mode under load and abuse (issue 26), on one machine: the YNAB sandbox speaking
//! YNAB's OAuth in this process, one or two `avenir-mcp serve` processes (the binary given) on
//! one database (SQLite, or a throwaway PostgreSQL this program starts), and simulated people.
//!
//! Phases (each optional): `--people N` sign in through the OAuth flow (registration, consent
//! page, YNAB's sign-in, code for token with PKCE) and each opens a session and calls tools for
//! `--seconds S` (a read; with `--writes`, a confirmed write and then two confirmed undos of it
//! raced on every instance: exactly one may apply); `--flood N` sends N `initialize` from one
//! token. It prints requests/s, p50/p99 latency, each instance's RSS, the database's size and
//! the answers by status, and checks the journal: one operation line per applied write, one undo
//! marker per applied undo.
//!
//! `scripts/load/run.sh` builds the binary and runs this; see scripts/load/README.md.

#[path = "../tests/common/postgres.rs"]
#[allow(dead_code)]
mod postgres;

use std::collections::BTreeMap;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use ynab_sandbox::{Sandbox, SandboxOptions};

const APP_ID: &str = "avenir-load";
const APP_SECRET: &str = "load-secret";
const REDIRECT: &str = "http://127.0.0.1:9/callback";
/// The authorization server's per-address budgets are multiplied by this
/// (`AVENIR_MCP_OAUTH_LIMIT_SCALE`) unless the environment sets it: every simulated person signs
/// in from 127.0.0.1 (two `/authorize` and one `/token` each), and the defaults would refuse all
/// but the first 15 or so.
const OAUTH_LIMIT_SCALE: &str = "1000";
const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"load","version":"1"}}}"#;

/// What to run.
#[derive(Debug, Clone)]
struct Options {
    binary: String,
    instances: usize,
    postgres: bool,
    people: usize,
    seconds: u64,
    writes: bool,
    flood: usize,
    concurrency: usize,
    idle: u64,
    /// The RSS each instance must be under after the idle wait, in MB.
    idle_rss_budget: Option<f64>,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        binary: "target/hosted/avenir-mcp".into(),
        instances: 1,
        postgres: false,
        people: 20,
        seconds: 5,
        writes: false,
        flood: 0,
        concurrency: 32,
        idle: 0,
        idle_rss_budget: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|_| format!("{arg}: {v}?"));
        match arg.as_str() {
            "--binary" => o.binary = value()?,
            "--instances" => o.instances = number(value()?)? as usize,
            "--postgres" => o.postgres = true,
            "--people" => o.people = number(value()?)? as usize,
            "--seconds" => o.seconds = number(value()?)?,
            "--writes" => o.writes = true,
            "--flood" => o.flood = number(value()?)? as usize,
            "--concurrency" => o.concurrency = number(value()?)? as usize,
            "--idle" => o.idle = number(value()?)?,
            "--idle-rss-budget" => o.idle_rss_budget = Some(number(value()?)? as f64),
            _ => {
                return Err(format!(
                    "unknown argument {arg}: see scripts/load/README.md"
                ));
            }
        }
    }
    Ok(o)
}

/// Latencies and answers by status, of every request sent.
#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    statuses: BTreeMap<u16, usize>,
    applied_writes: usize,
    applied_undos: usize,
    refused_undos: usize,
}

type Shared = Arc<Mutex<Tally>>;

/// One instance: its process and URL.
struct Instance {
    child: Child,
    url: String,
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn rss_mb(pid: u32) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Start `count` instances on `database` (a URL, or a SQLite state directory).
async fn start_instances(o: &Options, sandbox: &Sandbox, database: &Database) -> Vec<Instance> {
    let ports: Vec<u16> = (0..o.instances).map(|_| free_port()).collect();
    let public = format!("http://127.0.0.1:{}", ports[0]);
    sandbox.add_oauth_app(APP_ID, APP_SECRET, &format!("{public}/oauth/ynab/callback"));
    let key = avenir::random::hex::<32>();
    let mut started = Vec::new();
    for port in ports {
        let mut command = Command::new(&o.binary);
        command
            .arg("serve")
            .env("AVENIR_MCP_PUBLIC_URL", &public)
            .env("AVENIR_MCP_PORT", port.to_string())
            .env("AVENIR_MCP_SECRET_KEY", &key)
            .env("AVENIR_MCP_YNAB_CLIENT_ID", APP_ID)
            .env("AVENIR_MCP_YNAB_CLIENT_SECRET", APP_SECRET)
            .env(
                "AVENIR_MCP_YNAB_OAUTH_URL",
                format!("http://{}", sandbox.addr()),
            )
            .env("AVENIR_MCP_YNAB_URL", sandbox.base_url())
            .env("AVENIR_MCP_WRITE", "1")
            .env("AVENIR_MCP_TODAY", "2026-09-20")
            .env("AVENIR_MCP_RATE_LIMIT", "200")
            .env(
                "AVENIR_MCP_OAUTH_LIMIT_SCALE",
                std::env::var("AVENIR_MCP_OAUTH_LIMIT_SCALE")
                    .unwrap_or_else(|_| OAUTH_LIMIT_SCALE.into()),
            )
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        match database {
            Database::Postgres(_, url) => command.env("AVENIR_MCP_DATABASE_URL", url),
            Database::Sqlite(dir) => command
                .env_remove("AVENIR_MCP_DATABASE_URL")
                .env("XDG_STATE_HOME", dir),
        };
        let child = command.spawn().expect("avenir-mcp serve");
        started.push(Instance {
            child,
            url: format!("http://127.0.0.1:{port}"),
        });
    }
    for instance in &started {
        wait_listening(&instance.url).await;
    }
    started
}

async fn wait_listening(url: &str) {
    let http = reqwest::Client::new();
    let metadata = format!("{url}/.well-known/oauth-authorization-server");
    for _ in 0..600 {
        if http.get(&metadata).send().await.is_ok() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{url} never listened");
}

enum Database {
    /// The server (kept running while the program does) and its database's URL.
    Postgres(#[allow(dead_code)] postgres::TestPostgres, String),
    Sqlite(std::path::PathBuf),
}

impl Database {
    async fn size_mb(&self) -> f64 {
        match self {
            Database::Sqlite(dir) => {
                let base = dir.join("avenir-mcp");
                ["hosted.sqlite", "hosted.sqlite-wal"]
                    .iter()
                    .filter_map(|f| std::fs::metadata(base.join(f)).ok())
                    .map(|m| m.len() as f64)
                    .sum::<f64>()
                    / 1e6
            }
            Database::Postgres(_, url) => {
                let size = scalar(url, "SELECT pg_database_size(current_database())").await;
                size as f64 / 1e6
            }
        }
    }

    /// Journal lines of every person: operation lines and undo markers.
    async fn journal(&self) -> (i64, i64) {
        let operations = "SELECT COUNT(*) FROM journal_lines WHERE stream = 'journal' \
                          AND line LIKE '%\"operation_id\"%' AND line NOT LIKE '%\"undone\"%'";
        let undone = "SELECT COUNT(*) FROM journal_lines WHERE stream = 'journal' \
                      AND line LIKE '%\"undone\"%'";
        match self {
            Database::Postgres(_, url) => {
                (scalar(url, operations).await, scalar(url, undone).await)
            }
            Database::Sqlite(dir) => {
                let file = dir.join("avenir-mcp/hosted.sqlite");
                let conn = rusqlite::Connection::open(file).expect("the SQLite file");
                let count = |sql: &str| conn.query_row(sql, [], |r| r.get(0)).unwrap_or(-1);
                (count(operations), count(undone))
            }
        }
    }
}

async fn scalar(url: &str, sql: &str) -> i64 {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("PostgreSQL");
    tokio::spawn(connection);
    client
        .query_one(sql, &[])
        .await
        .and_then(|r| r.try_get::<_, i64>(0))
        .unwrap_or(-1)
}

/// An HTTP client that follows no redirect (the browser's part is played here).
fn http() -> reqwest::Client {
    ynab::http_client_builder()
        .redirect(reqwest::redirect::Policy::none())
        .pool_max_idle_per_host(64)
        .build()
        .expect("HTTP client")
}

fn query(url: &str, name: &str) -> Option<String> {
    let parsed = reqwest::Url::parse(url).ok()?;
    let value = parsed.query_pairs().find(|(k, _)| k == name)?.1;
    Some(value.into_owned())
}

fn hidden(html: &str, name: &str) -> Option<String> {
    let rest = &html[html.find(&format!("name=\"{name}\""))?..];
    Some(
        rest.split("value=\"")
            .nth(1)?
            .split('"')
            .next()?
            .to_string(),
    )
}

fn form(pairs: &[(&str, &str)]) -> String {
    let mut body = url::form_urlencoded::Serializer::new(String::new());
    for (key, value) in pairs {
        body.append_pair(key, value);
    }
    body.finish()
}

/// One client registered (RFC 7591) for everyone.
async fn register(base: &str) -> String {
    let answer: Value = http()
        .post(format!("{base}/register"))
        .json(&json!({"client_name": "load", "redirect_uris": [REDIRECT],
                      "token_endpoint_auth_method": "none"}))
        .send()
        .await
        .expect("register")
        .json()
        .await
        .expect("registration");
    answer["client_id"].as_str().expect("client_id").to_string()
}

/// `person` signs in at `base` (consent, YNAB's sign-in, the code for a token): the access token.
async fn sign_in(base: &str, public: &str, client_id: &str) -> Result<String, String> {
    let http = http();
    let verifier = avenir::random::hex::<32>();
    let authorize = authorize_url(base, public, client_id, &verifier);
    let (cookie, consent) = consent_page(&http, &authorize).await?;
    let answer = http
        .post(format!("{base}/authorize"))
        .header("cookie", cookie)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form(&[("consent", &consent), ("access", "write")]))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let code = follow_to_client(&http, answer).await?;
    token(&http, base, client_id, &code, &verifier).await
}

/// The authorization request of a sign-in at `base` (PKCE S256 from `verifier`), for `public`'s
/// MCP endpoint, asking to read and write.
fn authorize_url(base: &str, public: &str, client_id: &str, verifier: &str) -> String {
    let challenge = base64::Engine::encode(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD,
        avenir::digest::sha256(verifier.as_bytes()),
    );
    format!(
        "{base}/authorize?{}",
        form(&[
            ("response_type", "code"),
            ("client_id", client_id),
            ("redirect_uri", REDIRECT),
            ("code_challenge", &challenge),
            ("code_challenge_method", "S256"),
            ("state", "s"),
            ("resource", &format!("{public}/mcp")),
            ("scope", "read write")
        ])
    )
}

/// The consent page at `authorize`: the cookies it set (`name=value; …`) and its consent id.
async fn consent_page(http: &reqwest::Client, authorize: &str) -> Result<(String, String), String> {
    let page = http
        .get(authorize)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let cookie = page
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok()?.split(';').next().map(str::to_string))
        .collect::<Vec<_>>()
        .join("; ");
    let html = page.text().await.map_err(|e| e.to_string())?;
    let consent = hidden(&html, "consent").ok_or(format!("no consent form: {html}"))?;
    Ok((cookie, consent))
}

/// The redirects from the consent answer (YNAB's sign-in, its callback) followed to the
/// client's redirect URI: the code given there.
async fn follow_to_client(
    http: &reqwest::Client,
    mut next: reqwest::Response,
) -> Result<String, String> {
    for _ in 0..5 {
        let location = next
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .ok_or(format!("no redirect: {}", next.status()))?
            .to_string();
        if location.starts_with(REDIRECT) {
            return query(&location, "code").ok_or(format!("no code: {location}"));
        }
        next = http
            .get(&location)
            .send()
            .await
            .map_err(|e| e.to_string())?;
    }
    Err("the sign-in never came back".into())
}

async fn token(
    http: &reqwest::Client,
    base: &str,
    client_id: &str,
    code: &str,
    verifier: &str,
) -> Result<String, String> {
    let answer: Value = http
        .post(format!("{base}/token"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form(&[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", REDIRECT),
            ("client_id", client_id),
            ("code_verifier", verifier),
        ]))
        .send()
        .await
        .map_err(|e| e.to_string())?
        .json()
        .await
        .map_err(|e| e.to_string())?;
    answer["access_token"]
        .as_str()
        .map(str::to_string)
        .ok_or(format!("no token: {answer}"))
}

/// A raw MCP request: status, session header, the JSON-RPC result (when one came).
async fn mcp(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    session: Option<&str>,
    body: &str,
    tally: &Shared,
) -> (u16, Option<String>, Value) {
    let mut request = http
        .post(format!("{base}/mcp"))
        .bearer_auth(token)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25");
    if let Some(id) = session {
        request = request.header("mcp-session-id", id);
    }
    let started = Instant::now();
    let (status, session, text) = match request.body(body.to_string()).send().await {
        Ok(answer) => {
            let status = answer.status().as_u16();
            let session = answer
                .headers()
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            (status, session, answer.text().await.unwrap_or_default())
        }
        Err(_) => (0, None, String::new()),
    };
    let mut t = tally.lock().unwrap_or_else(|p| p.into_inner());
    t.latencies.push(started.elapsed());
    *t.statuses.entry(status).or_default() += 1;
    drop(t);
    let result = text
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
        .find(|m| m.get("result").is_some())
        .map_or(Value::Null, |m| m["result"].clone());
    (status, session, result)
}

fn call_body(tool: &str, arguments: Value) -> String {
    json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
           "params": {"name": tool, "arguments": arguments}})
    .to_string()
}

/// A session of `token` at `base`, initialized.
async fn open_session(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    t: &Shared,
) -> Option<String> {
    let (_, session, _) = mcp(http, base, token, None, INITIALIZE, t).await;
    let session = session?;
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    mcp(http, base, token, Some(&session), initialized, t).await;
    Some(session)
}

/// A confirmed write at the first instance, then its undo confirmed on every instance at once.
async fn write_then_undo(bases: &[String], token: &str, n: usize, t: &Shared) {
    let http = http();
    let mut sessions = Vec::new();
    for base in bases {
        let Some(session) = open_session(&http, base, token, t).await else {
            return;
        };
        sessions.push(session);
    }
    let Some(operation) = confirmed_write(&http, &bases[0], token, &sessions[0], n, t).await else {
        return;
    };
    t.lock().unwrap_or_else(|p| p.into_inner()).applied_writes += 1;
    let confirms = undo_previews(&http, bases, &sessions, token, &operation, t).await;
    race_undos(&http, token, confirms, t).await;
}

/// Person `n`'s confirmed write (12.50 assigned to their category) in `session` at `base`: the
/// operation id, when it applied.
async fn confirmed_write(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    session: &str,
    n: usize,
    t: &Shared,
) -> Option<String> {
    let category = ynab_sandbox::ids::id(&format!("cat-load-{n}"));
    let mut args = json!({"month": "2026-09", "category_id": category, "amount": 12.5});
    let (_, _, preview) = mcp(
        http,
        base,
        token,
        Some(session),
        &call_body("set_category_budget", args.clone()),
        t,
    )
    .await;
    let code = preview["structuredContent"]["confirmation"].as_str()?;
    args["confirmation"] = json!(code);
    let (_, _, applied) = mcp(
        http,
        base,
        token,
        Some(session),
        &call_body("set_category_budget", args),
        t,
    )
    .await;
    applied["structuredContent"]["operation_id"]
        .as_str()
        .map(str::to_string)
}

/// The undo of `operation` previewed in each instance's session: for each, the instance, the
/// session and the arguments that confirm it there.
async fn undo_previews(
    http: &reqwest::Client,
    bases: &[String],
    sessions: &[String],
    token: &str,
    operation: &str,
    t: &Shared,
) -> Vec<(String, String, Value)> {
    let undo = json!({"operation_id": operation});
    let mut confirms = Vec::new();
    for (base, session) in bases.iter().zip(sessions) {
        let (_, _, preview) = mcp(
            http,
            base,
            token,
            Some(session),
            &call_body("undo_operation", undo.clone()),
            t,
        )
        .await;
        let mut confirm = undo.clone();
        confirm["confirmation"] = preview["structuredContent"]["confirmation"].clone();
        confirms.push((base.clone(), session.clone(), confirm));
    }
    confirms
}

/// Every confirmation of the undo sent at once; the undos applied and refused, counted.
async fn race_undos(
    http: &reqwest::Client,
    token: &str,
    confirms: Vec<(String, String, Value)>,
    t: &Shared,
) {
    let raced: Vec<_> = confirms
        .into_iter()
        .map(|(base, session, confirm)| {
            let (http, token, t) = (http.clone(), token.to_string(), t.clone());
            let body = call_body("undo_operation", confirm);
            tokio::spawn(async move { mcp(&http, &base, &token, Some(&session), &body, &t).await })
        })
        .collect();
    for task in raced {
        let Ok((_, _, answer)) = task.await else {
            continue;
        };
        let applied = answer["structuredContent"]["status"] == "applied";
        let mut tally = t.lock().unwrap_or_else(|p| p.into_inner());
        if applied {
            tally.applied_undos += 1
        } else {
            tally.refused_undos += 1
        }
    }
}

/// Each person reads once a second at their instance until `until` (at least once).
async fn reads(base: String, token: String, until: Instant, t: Shared) {
    let http = http();
    let Some(session) = open_session(&http, &base, &token, &t).await else {
        return;
    };
    let body = call_body("list_accounts", json!({}));
    // at least one call each, however long the sessions took to open
    loop {
        mcp(&http, &base, &token, Some(&session), &body, &t).await;
        if Instant::now() >= until {
            return;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// 20,000 `initialize` (or `count`) from one token, `concurrency` at a time.
async fn flood(base: &str, token: &str, count: usize, concurrency: usize, t: &Shared) {
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut workers = Vec::new();
    for _ in 0..concurrency {
        let (base, token, t, next) = (base.to_string(), token.to_string(), t.clone(), next.clone());
        workers.push(tokio::spawn(async move {
            let http = http();
            while next.fetch_add(1, std::sync::atomic::Ordering::SeqCst) < count {
                mcp(&http, &base, &token, None, INITIALIZE, &t).await;
            }
        }));
    }
    for worker in workers {
        let _ = worker.await;
    }
}

fn report(what: &str, t: &Shared, elapsed: Duration, instances: &[Instance]) {
    let mut tally = t.lock().unwrap_or_else(|p| p.into_inner());
    tally.latencies.sort();
    let n = tally.latencies.len();
    let at = |q: f64| {
        tally
            .latencies
            .get(((n as f64 * q) as usize).min(n.saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    let rss: Vec<String> = instances
        .iter()
        .map(|i| format!("{:.0} MB", rss_mb(i.child.id())))
        .collect();
    println!(
        "{what}: {n} requests in {:.1} s ({:.0}/s), p50 {:.1} ms, p99 {:.1} ms, statuses {:?}, RSS {}",
        elapsed.as_secs_f64(),
        n as f64 / elapsed.as_secs_f64().max(0.001),
        at(0.5),
        at(0.99),
        tally.statuses,
        rss.join(" + ")
    );
    tally.latencies.clear();
    tally.statuses.clear();
}

async fn sign_everyone_in(
    o: &Options,
    sandbox: &Sandbox,
    instances: &[Instance],
) -> Vec<(String, String)> {
    let client_id = register(&instances[0].url).await;
    let started = Instant::now();
    let mut people = Vec::new();
    for i in 0..o.people {
        let name = format!("p{i}");
        sandbox.sign_in(&name).expect("a sandbox user");
        let base = instances[i % instances.len()].url.clone();
        match sign_in(&base, &instances[0].url, &client_id).await {
            Ok(token) => people.push((base, token)),
            Err(e) => eprintln!("sign-in of {name} failed: {e}"),
        }
    }
    let rss: Vec<String> = instances
        .iter()
        .map(|i| format!("{:.0} MB", rss_mb(i.child.id())))
        .collect();
    println!(
        "sign-in: {} of {} people in {:.1} s, RSS {}",
        people.len(),
        o.people,
        started.elapsed().as_secs_f64(),
        rss.join(" + ")
    );
    people
}

async fn work(o: &Options, people: &[(String, String)], instances: &[Instance], t: &Shared) {
    let started = Instant::now();
    if o.writes {
        let bases: Vec<String> = instances.iter().map(|i| i.url.clone()).collect();
        let gate = Arc::new(tokio::sync::Semaphore::new(o.concurrency));
        let mut tasks = Vec::new();
        for (n, (_, token)) in people.iter().enumerate() {
            let (bases, token, t, gate) = (bases.clone(), token.clone(), t.clone(), gate.clone());
            tasks.push(tokio::spawn(async move {
                let _permit = gate.acquire().await;
                write_then_undo(&bases, &token, n, &t).await;
            }));
        }
        for task in tasks {
            let _ = task.await;
        }
        report("writes and raced undos", t, started.elapsed(), instances);
    }
    let started = Instant::now();
    let until = started + Duration::from_secs(o.seconds);
    let tasks: Vec<_> = people
        .iter()
        .map(|(base, token)| tokio::spawn(reads(base.clone(), token.clone(), until, t.clone())))
        .collect();
    for task in tasks {
        let _ = task.await;
    }
    report("reads, one a second each", t, started.elapsed(), instances);
}

/// A plan of its own for each person (`plan-{n}`, one account, one category `cat-load-{n}`):
/// their writes and undos never meet another's.
fn plan_of(n: usize) -> ynab_sandbox::PlanState {
    use ynab_sandbox::builder::{PlanBuilder, date};
    let today = date("2026-09-20");
    let mut b = PlanBuilder::new(&format!("plan-{n}"), &format!("Household {n}"), today);
    b.months(date("2026-08-01"), date("2026-09-01"));
    b.account(&format!("acc-load-{n}"), "Checking", "checking", true);
    b.group(&format!("grp-load-{n}"), "Everyday");
    b.category(
        &format!("cat-load-{n}"),
        &format!("grp-load-{n}"),
        "Groceries",
    );
    b.build()
}

/// The sandbox, with `people` users `p{n}` each seeing their own plan.
async fn sandbox(people: usize) -> Result<Sandbox, String> {
    let others = (1..people).map(plan_of).collect();
    let sandbox = Sandbox::start_plans(plan_of(0), others, SandboxOptions::default())
        .await
        .map_err(|e| e.to_string())?;
    for n in 0..people {
        let plan = ynab_sandbox::ids::id(&format!("plan-{n}"));
        sandbox
            .add_user(&format!("p{n}"), &[plan])
            .map_err(|e| e.to_string())?;
    }
    Ok(sandbox)
}

async fn run(o: Options) -> Result<(), String> {
    ynab::install_tls_provider();
    let sandbox = sandbox(o.people.max(1)).await?;
    let database = open_database(&o)?;
    let instances = start_instances(&o, &sandbox, &database).await;
    let t: Shared = Arc::default();
    report("started", &t, Duration::from_secs(1), &instances);
    let people = sign_everyone_in(&o, &sandbox, &instances).await;
    work(&o, &people, &instances, &t).await;
    if o.idle > 0 {
        after_idle(&o, &people, &instances, &t).await?;
    }
    if o.flood > 0
        && let Some((base, token)) = people.first()
    {
        let started = Instant::now();
        flood(base, token, o.flood, o.concurrency, &t).await;
        report(
            &format!("{} initialize from one token", o.flood),
            &t,
            started.elapsed(),
            &instances,
        );
    }
    check_journal(&o, &database, &t).await
}

/// A throwaway PostgreSQL with an empty database (`--postgres`), else a fresh state directory
/// for the SQLite file.
fn open_database(o: &Options) -> Result<Database, String> {
    if o.postgres {
        let server = postgres::TestPostgres::start()?;
        let url = server.create_database()?;
        Ok(Database::Postgres(server, url))
    } else {
        let dir = std::env::temp_dir().join(format!("avenir-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        Ok(Database::Sqlite(dir))
    }
}

/// Wait `--idle` seconds and print RSS, which must be under `--idle-rss-budget` when given;
/// then each person opens a new session and lists their plans, which must be their own.
async fn after_idle(
    o: &Options,
    people: &[(String, String)],
    instances: &[Instance],
    t: &Shared,
) -> Result<(), String> {
    tokio::time::sleep(Duration::from_secs(o.idle)).await;
    report(
        &format!("after {} s idle", o.idle),
        t,
        Duration::from_secs(1),
        instances,
    );
    let idle_rss: Vec<f64> = instances.iter().map(|i| rss_mb(i.child.id())).collect();
    let started = Instant::now();
    let http = http();
    let mut answered = 0;
    for (n, (base, token)) in people.iter().enumerate() {
        let plan_id = ynab_sandbox::ids::id(&format!("plan-{n}"));
        let session = open_session(&http, base, token, t).await;
        let body = call_body("list_plans", json!({}));
        let (_, _, result) = mcp(&http, base, token, session.as_deref(), &body, t).await;
        let id = &result["structuredContent"]["result"][0]["id"];
        answered += usize::from(*id == json!(plan_id));
    }
    println!(
        "after idle: {answered} of {} people answered their plan",
        people.len()
    );
    report("the calls after idle", t, started.elapsed(), instances);
    if answered != people.len() {
        return Err("a person's call after idle did not answer their own plan".into());
    }
    match o.idle_rss_budget {
        Some(budget) if idle_rss.iter().any(|&mb| mb > budget) => Err(format!(
            "after {} s idle an instance kept more than the budget of {budget:.0} MB: {idle_rss:.0?}",
            o.idle
        )),
        Some(budget) => {
            println!("after idle: every instance under the budget of {budget:.0} MB");
            Ok(())
        }
        None => Ok(()),
    }
}

/// The journal's operation lines and undo markers against the writes and undos that applied,
/// and the database's size; an error when an undo applied other than exactly once or a journal
/// line is missing.
async fn check_journal(o: &Options, database: &Database, t: &Shared) -> Result<(), String> {
    let (operations, undone) = database.journal().await;
    let size = database.size_mb().await;
    let tally = t.lock().unwrap_or_else(|p| p.into_inner());
    println!(
        "journal: {operations} operation lines for {} applied writes, {undone} undo markers for {} applied undos ({} raced undos refused); database {size:.1} MB",
        tally.applied_writes, tally.applied_undos, tally.refused_undos,
    );
    if o.writes
        && (tally.applied_undos != tally.applied_writes || undone != tally.applied_undos as i64)
    {
        return Err("an undo applied other than exactly once, or a journal line is missing".into());
    }
    Ok(())
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> std::process::ExitCode {
    let result = match options() {
        Ok(o) => run(o).await,
        Err(e) => Err(e),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("load: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
