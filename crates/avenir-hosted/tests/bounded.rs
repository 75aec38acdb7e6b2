//! The hosted mode within its bounds (issue 26): MCP sessions bounded per person and bound to
//! the person who opened them, people's contexts dropped and made again, the per-person limit on
//! `/mcp`, malformed requests answered 400, the authorization server's per-address limits scaled
//! by `AVENIR_MCP_OAUTH_LIMIT_SCALE`.

use crate::hosted_flow::sqlite_db;
use crate::support;

use avenir_hosted::limits::Limits;
use serde_json::json;
use support::{TOOLS_LIST, World, browser, call, structured};

pub(crate) const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
pub(crate) const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// An answer to a raw request: its status, `Mcp-Session-Id`, `Retry-After` and body.
pub(crate) struct Answer {
    pub status: u16,
    pub session: Option<String>,
    pub retry_after: Option<String>,
    pub body: String,
}

/// `method` on `/mcp` with `token`, in `session` when given.
async fn send(
    method: reqwest::Method,
    mcp: &str,
    token: &str,
    session: Option<&str>,
    body: &str,
) -> Answer {
    let mut request = browser()
        .request(method, mcp)
        .bearer_auth(token)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25");
    if let Some(id) = session {
        request = request.header("mcp-session-id", id);
    }
    let answer = request
        .body(body.to_string())
        .send()
        .await
        .expect("request");
    let header = |name: &str| {
        answer
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let (session, retry_after) = (header("mcp-session-id"), header("retry-after"));
    Answer {
        status: answer.status().as_u16(),
        session,
        retry_after,
        body: answer.text().await.unwrap_or_default(),
    }
}

pub(crate) async fn post(mcp: &str, token: &str, session: Option<&str>, body: &str) -> Answer {
    send(reqwest::Method::POST, mcp, token, session, body).await
}

/// A new session of `token`'s person, initialized.
pub(crate) async fn open_session(mcp: &str, token: &str) -> String {
    let opened = post(mcp, token, None, INITIALIZE).await;
    assert_eq!(opened.status, 200, "{}", opened.body);
    let id = opened.session.expect("Mcp-Session-Id");
    let initialized = post(mcp, token, Some(&id), INITIALIZED).await;
    assert_eq!(initialized.status, 202, "{}", initialized.body);
    id
}

fn limits() -> Limits {
    Limits {
        sessions_per_person: 3,
        ..Limits::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_persons_sessions_are_bounded_and_nobody_else_can_use_or_close_them() {
    let (db, dir) = sqlite_db();
    let world = World::start_limited(db, 1, support::settings(), limits()).await;
    let alice = world.sign_in("alice", "write", 0).await;
    let bob = world.sign_in("bob", "write", 0).await;
    let mcp = world.instances[0].mcp();
    let token = alice.access_token.as_str();

    let mut ids = Vec::new();
    for _ in 0..5 {
        ids.push(open_session(&mcp, token).await);
    }
    let sessions = &world.instances[0].hosted.sessions;
    // Alice's client's own session and five more, of which she keeps three: the most recent
    let (_, alices) = sessions.count(&alice_person(&world, token).await);
    assert_eq!(alices, 3);
    for old in &ids[..2] {
        let closed = post(&mcp, token, Some(old), TOOLS_LIST).await;
        assert_eq!(closed.status, 404, "{}", closed.body);
        assert!(
            closed
                .body
                .contains("send initialize without Mcp-Session-Id"),
            "{}",
            closed.body
        );
    }
    let newest = &ids[4];
    assert_eq!(
        post(&mcp, token, Some(newest), TOOLS_LIST).await.status,
        200
    );

    // Bob holds Alice's session id: not his, the same 404 as an unknown one, for any method
    let foreign = post(&mcp, &bob.access_token, Some(newest), TOOLS_LIST).await;
    assert_eq!(foreign.status, 404, "{}", foreign.body);
    let unknown = post(&mcp, &bob.access_token, Some("no-such-session"), TOOLS_LIST).await;
    assert_eq!(unknown.body, foreign.body);
    let delete = send(
        reqwest::Method::DELETE,
        &mcp,
        &bob.access_token,
        Some(newest),
        "",
    )
    .await;
    assert_eq!(delete.status, 404, "{}", delete.body);
    assert_eq!(
        post(&mcp, token, Some(newest), TOOLS_LIST).await.status,
        200
    );

    // Alice closes it herself: 204, as the SDKs expect of a session's end (rmcp says 202)
    let delete = send(reqwest::Method::DELETE, &mcp, token, Some(newest), "").await;
    assert_eq!(delete.status, 204, "{}", delete.body);
    assert_eq!(
        post(&mcp, token, Some(newest), TOOLS_LIST).await.status,
        404
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// The person id behind `token` (as the server stores it).
async fn alice_person(world: &World, token: &str) -> String {
    use avenir_hosted::oauth_store::OAuthStore;
    let hash = hex::encode(avenir::digest::sha256(token.as_bytes()));
    world.instances[0]
        .hosted
        .db
        .token(&hash)
        .await
        .expect("token lookup")
        .expect("alice's token")
        .person_id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_is_not_json_rpc_is_answered_400() {
    let (db, dir) = sqlite_db();
    let world = World::start(db, 1).await;
    let alice = world.sign_in("alice", "write", 0).await;
    let mcp = world.instances[0].mcp();
    let broken = post(&mcp, &alice.access_token, None, r#"{"jsonrpc":"2.0","#).await;
    assert_eq!(broken.status, 400, "{}", broken.body);
    let error: serde_json::Value = serde_json::from_str(&broken.body).expect("JSON-RPC error");
    assert_eq!(error["error"]["code"], -32700, "{error}");
    let odd = post(&mcp, &alice.access_token, None, r#"{"hello":1}"#).await;
    assert_eq!(odd.status, 400, "{}", odd.body);
    let error: serde_json::Value = serde_json::from_str(&odd.body).expect("JSON-RPC error");
    assert_eq!(error["error"]["code"], -32600, "{error}");
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_over_the_request_limit_waits_and_others_do_not() {
    let (db, dir) = sqlite_db();
    let limits = Limits {
        requests_per_minute: 60,
        ..Limits::default()
    };
    let world = World::start_limited(db, 1, support::settings(), limits).await;
    let alice = world.sign_in("alice", "write", 0).await;
    let bob = world.sign_in("bob", "write", 0).await;
    let mcp = world.instances[0].mcp();
    let session = open_session(&mcp, &alice.access_token).await;
    let mut limited = None;
    for _ in 0..15 {
        let answer = post(&mcp, &alice.access_token, Some(&session), TOOLS_LIST).await;
        if answer.status == 429 {
            limited = Some(answer);
            break;
        }
        assert_eq!(answer.status, 200, "{}", answer.body);
    }
    let limited = limited.expect("a 429 within the burst of 10");
    assert!(limited.retry_after.is_some(), "Retry-After");
    assert!(
        limited.body.contains("Too many requests"),
        "{}",
        limited.body
    );
    let plans = structured(&call(&bob.client, "list_plans", json!({})).await);
    assert_eq!(plans["result"][0]["id"], world.bob_plan, "{plans}");
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_whose_context_was_dropped_is_answered_as_before() {
    let (db, dir) = sqlite_db();
    let limits = Limits {
        people_in_memory: 1,
        ..Limits::default()
    };
    let world = World::start_limited(db, 1, support::settings(), limits).await;
    let alice = world.sign_in("alice", "write", 0).await;
    let bob = world.sign_in("bob", "write", 0).await;
    let people = &world.instances[0].hosted.people;
    let alices = structured(&call(&alice.client, "list_plans", json!({})).await);
    assert_eq!(alices["result"][0]["id"], world.alice_plan, "{alices}");
    let bobs = structured(&call(&bob.client, "list_plans", json!({})).await);
    assert_eq!(bobs["result"][0]["id"], world.bob_plan, "{bobs}");
    assert_eq!(people.kept(), 1, "Alice's context made way for Bob's");
    let again = structured(&call(&alice.client, "list_plans", json!({})).await);
    assert_eq!(again["result"][0]["id"], world.alice_plan, "{again}");
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_sends_no_request_is_closed() {
    use tokio::io::AsyncReadExt;
    let (db, dir) = sqlite_db();
    let limits = Limits {
        header_timeout: std::time::Duration::from_secs(1),
        ..Limits::default()
    };
    let world = World::start_limited(db, 1, support::settings(), limits).await;
    let address = world.instances[0]
        .url
        .trim_start_matches("http://")
        .to_string();
    let mut silent = tokio::net::TcpStream::connect(&address)
        .await
        .expect("a connection");
    let mut buffer = [0u8; 64];
    let read = tokio::time::timeout(std::time::Duration::from_secs(60), silent.read(&mut buffer))
        .await
        .expect("the server closes a silent connection");
    assert_eq!(read.unwrap_or(0), 0, "closed without an answer");
    let _ = std::fs::remove_dir_all(dir);
}

/// `count` registrations (RFC 7591) from this address at `base`, one after another: the status
/// of each.
async fn register_many(base: &str, count: usize) -> Vec<u16> {
    let http = browser();
    let mut statuses = Vec::new();
    for _ in 0..count {
        let answer = http
            .post(format!("{base}/register"))
            .json(&json!({"redirect_uris": [support::REDIRECT_URI]}))
            .send()
            .await
            .expect("registration");
        statuses.push(answer.status().as_u16());
    }
    statuses
}

// Registration's budget per address is 20 at once; `AVENIR_MCP_OAUTH_LIMIT_SCALE=2` doubles it
// (a load test signing hundreds of people in from one address).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_oauth_limit_scale_lets_one_address_register_past_the_default_burst() {
    let (db, dir) = sqlite_db();
    let world = World::start(db, 1).await;
    let statuses = register_many(&world.instances[0].url, 21).await;
    assert_eq!(statuses[..20], [201; 20], "the default burst");
    assert_eq!(statuses[20], 429, "the 21st, past the default burst");
    drop(world);
    let (scaled_db, scaled_dir) = sqlite_db();
    let limits = Limits {
        oauth_limit_scale: 2,
        ..Limits::default()
    };
    let world = World::start_limited(scaled_db, 1, support::settings(), limits).await;
    let statuses = register_many(&world.instances[0].url, 40).await;
    assert_eq!(statuses, [201; 40], "twice the default burst");
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(scaled_dir);
}
