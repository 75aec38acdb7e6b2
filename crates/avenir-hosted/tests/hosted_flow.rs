//! The hosted mode end to end, with a real MCP client that does OAuth (rmcp's `auth`): the YNAB
//! side is the project's sandbox speaking YNAB's OAuth, the database a real SQLite file or a
//! throwaway PostgreSQL started here.

use crate::common;
use crate::support;

use avenir_hosted::db::DbConfig;
use avenir_hosted::oauth_store::OAuthStore;
use common::postgres::TestPostgres;
use serde_json::{Value, json};
use std::sync::OnceLock;
use support::{TOOLS_LIST, World, call, raw_mcp, structured, text};

fn postgres() -> &'static TestPostgres {
    static SERVER: OnceLock<TestPostgres> = OnceLock::new();
    SERVER.get_or_init(|| TestPostgres::start().expect("a throwaway PostgreSQL"))
}

pub(crate) fn postgres_db() -> DbConfig {
    DbConfig::Postgres(postgres().create_database().expect("a database"))
}

pub(crate) fn sqlite_db() -> (DbConfig, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!(
        "avenir-hosted-{}-{}",
        std::process::id(),
        avenir::random::hex::<6>()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    (DbConfig::Sqlite(dir.join("hosted.sqlite")), dir)
}

fn id(readable: &str) -> String {
    ynab_sandbox::ids::id(readable)
}

/// Another app reading and writing Alice's plan at YNAB (the sandbox) directly.
fn other_app(world: &World) -> ynab::Client {
    ynab::Client::new(
        ynab::config::BaseUrl::new(world.sandbox.base_url()),
        ynab::config::TokenSource::Fixed(ynab::config::Token::new("another-app")),
    )
    .expect("client")
}

/// Restaurants' assigned amount in September in Alice's plan, as YNAB (the sandbox) holds it.
pub(crate) async fn restaurants(world: &World) -> i64 {
    other_app(world)
        .month(&world.alice_plan, "2026-09-01")
        .await
        .expect("month")
        .categories
        .unwrap_or_default()
        .iter()
        .find(|c| c.id == id("cat-restaurants"))
        .map(|c| c.budgeted)
        .expect("Restaurants")
}

pub(crate) fn budget_args(amount: f64) -> Value {
    json!({"month": "2026-09", "category_id": id("cat-restaurants"), "amount": amount})
}

fn names(result: &rmcp::model::CallToolResult, list: &str, field: &str) -> Vec<String> {
    structured(result)[list]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|i| i[field].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_oauth_client_signs_in_with_ynab_calls_a_tool_and_is_refreshed_then_revoked() {
    let (db, dir) = sqlite_db();
    let world = World::start(db, 1).await;
    let alice = world.sign_in("alice", "write", 0).await;
    assert_eq!(
        world.sandbox.stats().oauth.authorization_code,
        1,
        "one YNAB sign-in"
    );

    // a tool call, on Alice's plan
    let accounts = call(&alice.client, "list_accounts", json!({})).await;
    assert_ne!(accounts.is_error, Some(true), "{}", text(&accounts));
    assert!(names(&accounts, "result", "name").contains(&"Checking".to_string()));
    let tools = alice.client.list_all_tools().await.expect("tools");
    assert!(
        tools.iter().any(|t| t.name == "set_category_budget"),
        "read and change: the write tools are listed"
    );

    // YNAB's two hours pass: the server renews YNAB's token before the next request
    world.advance(7_000);
    let again = call(&alice.client, "list_accounts", json!({})).await;
    assert_ne!(again.is_error, Some(true), "{}", text(&again));
    assert_eq!(
        world.sandbox.stats().oauth.refresh_token,
        1,
        "one refresh at YNAB's side"
    );
    // and the renewed token is the one kept: no second refresh on the next call
    call(&alice.client, "list_plans", json!({})).await;
    assert_eq!(world.sandbox.stats().oauth.refresh_token, 1);

    // revocation: the token stops working at once
    let revoked = support::browser()
        .post(format!("{}/revoke", world.public))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(support::form(&[("token", alice.access_token.as_str())]))
        .send()
        .await
        .expect("revoke");
    assert_eq!(revoked.status(), 200);
    let (refused, challenge) = world.token_answer(&alice.access_token).await;
    assert_eq!(refused, 401);
    assert!(challenge.contains("invalid_token"), "{challenge}");
    assert!(
        challenge.contains(&format!(
            "resource_metadata=\"{}/.well-known/oauth-protected-resource/mcp\"",
            world.public
        )),
        "{challenge}"
    );
    drop(world);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_see_only_their_own_plans_and_journals() {
    let (db, dir) = sqlite_db();
    let world = World::start(db, 1).await;
    let alice = world.sign_in("alice", "write", 0).await;
    let bob = world.sign_in("bob", "write", 0).await;

    let alices = call(&alice.client, "list_plans", json!({})).await;
    let bobs = call(&bob.client, "list_plans", json!({})).await;
    assert_eq!(
        names(&alices, "result", "id"),
        vec![world.alice_plan.clone()]
    );
    assert_eq!(names(&bobs, "result", "id"), vec![world.bob_plan.clone()]);

    // Bob cannot read Alice's plan by its id
    let peek = call(
        &bob.client,
        "list_accounts",
        json!({"plan_id": world.alice_plan}),
    )
    .await;
    assert_eq!(peek.is_error, Some(true), "{}", text(&peek));
    assert!(!text(&peek).contains("Checking"), "{}", text(&peek));

    // Alice changes her plan (a code, then the code back)
    let preview = call(&alice.client, "set_category_budget", budget_args(150.0)).await;
    let preview = structured(&preview);
    assert_eq!(preview["status"], "confirmation_required", "{preview}");
    let code = preview["confirmation"].as_str().expect("code").to_string();
    let mut confirm = budget_args(150.0);
    confirm["confirmation"] = json!(code);
    let applied = structured(&call(&alice.client, "set_category_budget", confirm.clone()).await);
    assert_eq!(applied["status"], "applied", "{applied}");
    assert_eq!(restaurants(&world).await, 150_000);

    // Alice's code is nothing to Bob, and Bob's journal has nothing of Alice's
    let mut bobs_try = confirm.clone();
    bobs_try["plan_id"] = json!(world.bob_plan);
    let refused = call(&bob.client, "set_category_budget", bobs_try).await;
    assert!(
        refused.is_error == Some(true) || structured(&refused)["status"] != "applied",
        "{refused:?}"
    );
    let bobs_undo = call(&bob.client, "undo_operation", json!({})).await;
    let bobs_undo_text = text(&bobs_undo);
    assert!(
        !bobs_undo_text.contains(applied["operation_id"].as_str().unwrap_or("-")),
        "{bobs_undo_text}"
    );
    assert_eq!(restaurants(&world).await, 150_000, "Bob changed nothing");
    let alices_undo = structured(&call(&alice.client, "undo_operation", json!({})).await);
    assert_eq!(
        alices_undo["status"], "confirmation_required",
        "{alices_undo}"
    );

    // Alice leaves: her tokens and journal go, Bob stays
    let instance = &world.instances[0].hosted;
    let person = instance
        .db
        .person_for(&ynab_sandbox::oauth::user_id("alice"))
        .await
        .expect("Alice's person");
    let journal_of = |person: &str| {
        let journal = instance.db.shared_store(person);
        async move {
            tokio::task::spawn_blocking(move || {
                journal.lines(avenir::store::shared::Stream::Journal)
            })
            .await
            .expect("task")
            .expect("journal")
        }
    };
    assert_eq!(journal_of(&person).await.len(), 1, "Alice's one operation");
    let deleted = support::browser()
        .post(format!("{}/delete", world.public))
        .bearer_auth(&alice.access_token)
        .send()
        .await
        .expect("delete");
    assert_eq!(deleted.status(), 200);
    let lines = journal_of(&person).await;
    assert!(lines.is_empty(), "Alice's journal is gone: {lines:?}");
    let after = call(&bob.client, "list_plans", json!({})).await;
    assert_eq!(names(&after, "result", "id"), vec![world.bob_plan.clone()]);
    let (refused, _) = world.token_answer(&alice.access_token).await;
    assert_eq!(refused, 401, "Alice's token went with her");
    drop(world);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_on_one_postgresql_behave_as_one_server() {
    let world = World::start(postgres_db(), 2).await;
    let alice = world.sign_in("alice", "write", 0).await;
    let on_b = world.client_with_token(&alice.access_token, 1).await;

    // previewed on A, confirmed with its code on B: applied once
    let preview = structured(&call(&alice.client, "set_category_budget", budget_args(150.0)).await);
    let code = preview["confirmation"].as_str().expect("code").to_string();
    let mut confirm = budget_args(150.0);
    confirm["confirmation"] = json!(code);
    let applied = structured(&call(&on_b, "set_category_budget", confirm.clone()).await);
    assert_eq!(applied["status"], "applied", "{applied}");
    assert_eq!(restaurants(&world).await, 150_000);
    let operation = applied["operation_id"]
        .as_str()
        .expect("operation")
        .to_string();

    // the same code again, on either instance, once the plan is back where the code was
    // issued (another app set 120 again): refused, nothing written
    let set_restaurants = async |amount: i64| {
        other_app(&world)
            .set_assigned(
                &world.alice_plan,
                "2026-09-01",
                &id("cat-restaurants"),
                amount,
            )
            .await
            .expect("another app sets the amount");
    };
    set_restaurants(120_000).await;
    for client in [&alice.client, &on_b] {
        let replay = call(client, "set_category_budget", confirm.clone()).await;
        assert_eq!(replay.is_error, Some(true), "{replay:?}");
        assert!(
            text(&replay).starts_with("This confirmation code is unknown, expired, already used"),
            "{}",
            text(&replay)
        );
    }
    assert_eq!(
        restaurants(&world).await,
        120_000,
        "the replays wrote nothing"
    );
    set_restaurants(150_000).await;

    // two undos of the operation, confirmed at once on A and on B: one reverts it
    let undo = json!({"operation_id": operation});
    let code_a =
        structured(&call(&alice.client, "undo_operation", undo.clone()).await)["confirmation"]
            .as_str()
            .expect("undo code on A")
            .to_string();
    let code_b = structured(&call(&on_b, "undo_operation", undo.clone()).await)["confirmation"]
        .as_str()
        .expect("undo code on B")
        .to_string();
    let mut with_a = undo.clone();
    with_a["confirmation"] = json!(code_a);
    let mut with_b = undo.clone();
    with_b["confirmation"] = json!(code_b);
    let (a, b) = tokio::join!(
        call(&alice.client, "undo_operation", with_a),
        call(&on_b, "undo_operation", with_b)
    );
    let applied: Vec<_> = [&a, &b]
        .into_iter()
        .filter(|r| r.is_error != Some(true) && structured(r)["status"] == "applied")
        .collect();
    assert_eq!(applied.len(), 1, "exactly one undo applies: {a:?} {b:?}");
    assert_eq!(restaurants(&world).await, 120_000, "reverted once");
    let journal = structured(&call(&on_b, "undo_operation", json!({})).await);
    assert_ne!(journal["status"], "applied", "{journal}");

    // the hourly YNAB budget is the person's, whichever instance sends
    let left = |result: &rmcp::model::CallToolResult| {
        result
            .meta
            .as_ref()
            .and_then(|m| m.0.get("avenir-mcp/ynab_requests_left"))
            .and_then(Value::as_u64)
            .expect("requests left")
    };
    let on_a = call(&alice.client, "list_plans", json!({})).await;
    let then_b = call(&on_b, "list_plans", json!({})).await;
    let sent_by_b = then_b
        .meta
        .as_ref()
        .and_then(|m| m.0.get("avenir-mcp/ynab_requests"))
        .and_then(Value::as_u64)
        .expect("requests sent");
    assert!(sent_by_b >= 1);
    assert_eq!(
        left(&then_b),
        left(&on_a) - sent_by_b,
        "one budget for both instances"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_only_lists_no_write_tool_and_a_write_asks_to_step_up() {
    let (db, dir) = sqlite_db();
    let world = World::start(db, 1).await;
    let reader = world.sign_in("alice", "read", 0).await;
    let tools = reader.client.list_all_tools().await.expect("tools");
    assert!(tools.iter().any(|t| t.name == "list_accounts"));
    assert!(
        !tools.iter().any(|t| t.name == "set_category_budget"),
        "read only: no write tool"
    );
    let instructions = reader
        .client
        .peer_info()
        .and_then(|info| info.instructions.clone())
        .expect("instructions");
    assert!(instructions.contains("list_accounts"), "{instructions}");
    assert!(
        !instructions.contains("set_category_budget"),
        "the guide names no write tool for a reader: {instructions}"
    );
    let call_a_write = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "set_category_budget", "arguments": budget_args(150.0)}});
    let (step_up, challenge) = raw_mcp(
        &world.instances[0].mcp(),
        &reader.access_token,
        &call_a_write.to_string(),
        &[("mcp-protocol-version", "2025-11-25")],
    )
    .await;
    assert_eq!(step_up, 403);
    assert!(
        challenge.contains("error=\"insufficient_scope\""),
        "{challenge}"
    );
    assert!(challenge.contains("scope=\"read write\""), "{challenge}");
    assert_eq!(restaurants(&world).await, 120_000, "nothing written");
    drop(world);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_ynab_refuses_to_renew_the_person_is_asked_to_sign_in_again() {
    let (db, dir) = sqlite_db();
    let world = World::start(db, 1).await;
    let alice = world.sign_in("alice", "write", 0).await;
    world.sandbox.fail_refresh("alice").expect("fail refresh");
    world.advance(7_000);
    let result = call(&alice.client, "list_accounts", json!({})).await;
    assert_eq!(result.is_error, Some(true));
    let message = text(&result);
    assert!(message.contains("sign in with YNAB again"), "{message}");
    assert!(message.contains(&world.public), "{message}");
    // and her client is made to sign her in again: her MCP token no longer opens /mcp
    let (status, challenge) = world.token_answer(&alice.access_token).await;
    assert_eq!(status, 401);
    assert!(challenge.contains("invalid_token"), "{challenge}");
    let refreshes = world.sandbox.stats().oauth.refresh_token;
    // signing in again gives her a working YNAB grant
    let again = world.sign_in("alice", "write", 0).await;
    let accounts = call(&again.client, "list_accounts", json!({})).await;
    assert_ne!(accounts.is_error, Some(true), "{}", text(&accounts));
    assert_eq!(
        world.sandbox.stats().oauth.refresh_token,
        refreshes,
        "a new grant, no refresh"
    );

    // Bob revokes the application in YNAB while his token is still valid: YNAB's 401 is said
    // as what it means here
    let bob = world.sign_in("bob", "write", 0).await;
    world.sandbox.revoke_app("bob").expect("revoke");
    let revoked = call(&bob.client, "list_accounts", json!({})).await;
    assert_eq!(revoked.is_error, Some(true));
    let message = text(&revoked);
    assert!(
        message.starts_with("YNAB 401: YNAB no longer accepts this account's sign-in"),
        "{message}"
    );
    assert!(!message.contains("Personal Access Token"), "{message}");
    drop(world);
    let _ = std::fs::remove_dir_all(dir);
}

/// YNAB's token endpoint answers `status` to the next `count` renewals.
fn ynab_token_endpoint_fails(world: &World, count: u32, status: u16) {
    world.sandbox.inject(ynab_sandbox::faults::Fault::status(
        count,
        Some("POST /oauth/token"),
        status,
    ));
}

// RFC 6749 §5.2: only `invalid_grant` (or a client YNAB no longer knows) says a grant is gone. A
// 429 or a 503 from YNAB's token endpoint during a renewal is YNAB's bad moment: it is tried
// again, the call says YNAB is busy when it stays so, and nobody is signed out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_ynab_during_renewal_signs_nobody_out() {
    let (db, dir) = sqlite_db();
    let world = World::start(db, 1).await;
    let alice = world.sign_in("alice", "write", 0).await;
    let still_open = async || {
        let (status, _) = world.token_answer(&alice.access_token).await;
        status
    };
    // one 429, then one 503, each within the renewal's retries: the call simply works
    for status in [429, 503] {
        let renewals = world.sandbox.stats().oauth.refresh_token;
        ynab_token_endpoint_fails(&world, 1, status);
        world.advance(7_000);
        let accounts = call(&alice.client, "list_accounts", json!({})).await;
        assert_ne!(accounts.is_error, Some(true), "{}", text(&accounts));
        assert_eq!(
            world.sandbox.stats().oauth.refresh_token,
            renewals + 1,
            "renewed after YNAB's {status}"
        );
        assert_ne!(
            still_open().await,
            401,
            "no MCP token revoked after a {status}"
        );
    }
    // YNAB stays busy past its token's end: the call says so, and nobody is signed out
    ynab_token_endpoint_fails(&world, 3, 429);
    world.advance(7_300);
    let busy = call(&alice.client, "list_accounts", json!({})).await;
    assert_eq!(busy.is_error, Some(true));
    let message = text(&busy);
    assert!(message.starts_with("YNAB is busy"), "{message}");
    assert!(message.contains("HTTP 429"), "{message}");
    assert!(message.contains("you stay signed in"), "{message}");
    assert!(message.contains("try again in a minute"), "{message}");
    assert_ne!(still_open().await, 401, "no MCP token revoked");
    // YNAB is back: the next call renews and works
    let again = call(&alice.client, "list_accounts", json!({})).await;
    assert_ne!(again.is_error, Some(true), "{}", text(&again));
    // still fine while the current token lives: a busy YNAB leaves it in use
    ynab_token_endpoint_fails(&world, 3, 503);
    world.advance(7_000);
    let meanwhile = call(&alice.client, "list_accounts", json!({})).await;
    assert_ne!(meanwhile.is_error, Some(true), "{}", text(&meanwhile));
    // and invalid_grant still signs her out
    world.sandbox.clear_faults();
    world.sandbox.fail_refresh("alice").expect("fail refresh");
    world.advance(7_000);
    let refused = call(&alice.client, "list_accounts", json!({})).await;
    assert!(text(&refused).contains("sign in with YNAB again"));
    assert_eq!(
        still_open().await,
        401,
        "invalid_grant revokes her MCP tokens"
    );
    drop(world);
    let _ = std::fs::remove_dir_all(dir);
}

/// YNAB's token endpoint answers the next `count` requests `status` with `Retry-After: wait`.
fn ynab_token_endpoint_asks_to_wait(world: &World, count: u32, status: u16, wait: &str) {
    world.sandbox.inject(ynab_sandbox::faults::Fault::new(
        count,
        Some("POST /oauth/token"),
        ynab_sandbox::faults::FaultKind::Status {
            status,
            retry_after: Some(wait.to_string()),
        },
    ));
}

// A renewal that YNAB asks to wait a few seconds (429 or 503 with `Retry-After`,
// RFC 9110 §10.2.3) waits that long rather than its own short backoff, and the call works; a longer
// `Retry-After` (past the 5 s one call waits) is not waited for: the call says at once that YNAB
// is busy, nobody is signed out, and the next call renews.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_retry_after_during_renewal_is_waited_out_and_a_long_one_is_not() {
    let (db, dir) = sqlite_db();
    let world = World::start(db, 1).await;
    let alice = world.sign_in("alice", "write", 0).await;
    for status in [429, 503] {
        let renewals = world.sandbox.stats().oauth.refresh_token;
        ynab_token_endpoint_asks_to_wait(&world, 1, status, "2");
        world.advance(7_300); // past the access token's end: only a renewal lets the call through
        let started = std::time::Instant::now();
        let accounts = call(&alice.client, "list_accounts", json!({})).await;
        assert_ne!(accounts.is_error, Some(true), "{}", text(&accounts));
        assert!(
            started.elapsed() >= std::time::Duration::from_secs(2),
            "YNAB's Retry-After of 2 s after a {status} waited out: {:?}",
            started.elapsed()
        );
        assert_eq!(
            world.sandbox.stats().oauth.refresh_token,
            renewals + 1,
            "renewed after the wait YNAB asked for"
        );
    }
    ynab_token_endpoint_asks_to_wait(&world, 1, 429, "120");
    world.advance(7_300);
    let busy = call(&alice.client, "list_accounts", json!({})).await;
    assert_eq!(busy.is_error, Some(true), "{}", text(&busy));
    let message = text(&busy);
    assert!(message.starts_with("YNAB is busy"), "{message}");
    assert!(message.contains("HTTP 429"), "{message}");
    assert!(message.contains("you stay signed in"), "{message}");
    let (status, _) = world.token_answer(&alice.access_token).await;
    assert_ne!(status, 401, "no MCP token revoked");
    let again = call(&alice.client, "list_accounts", json!({})).await;
    assert_ne!(again.is_error, Some(true), "{}", text(&again));
    drop(world);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_expired_or_other_audience_token_is_refused() {
    let (db, dir) = sqlite_db();
    let world = World::start(db, 1).await;
    let alice = world.sign_in("alice", "write", 0).await;
    let mcp = world.instances[0].mcp();
    let status = async |token: String| raw_mcp(&mcp, &token, TOOLS_LIST, &[]).await;
    // forged: the right shape, never issued
    let (forged, challenge) = status(avenir::random::base64url::<32>()).await;
    assert_eq!(forged, 401);
    assert!(challenge.contains("resource_metadata="), "{challenge}");
    // another audience: a token this database holds, issued for another resource
    let other = World::start(DbConfig::Sqlite(dir.join("hosted.sqlite")), 1).await;
    let elsewhere = other.sign_in("alice", "write", 0).await;
    let (wrong_audience, _) = status(elsewhere.access_token.clone()).await;
    assert_eq!(wrong_audience, 401, "a token for another server's /mcp");
    // expired: past its lifetime on the server's clock
    let (fresh, _) = status(alice.access_token.clone()).await;
    assert_ne!(fresh, 401);
    // the Host and Origin guards stand before the token
    let guarded = async |header: &str, value: &str| {
        raw_mcp(&mcp, &alice.access_token, TOOLS_LIST, &[(header, value)])
            .await
            .0
    };
    assert_eq!(guarded("origin", "https://evil.example").await, 403);
    assert_eq!(guarded("host", "evil.example").await, 421);
    world.advance(25 * 3600);
    let (expired, _) = status(alice.access_token.clone()).await;
    assert_eq!(expired, 401);
    drop(other);
    drop(world);
    let _ = std::fs::remove_dir_all(dir);
}
