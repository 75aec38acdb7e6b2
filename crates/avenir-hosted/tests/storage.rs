//! A database that does not answer (issue 26): PostgreSQL frozen, `/mcp` answers 503 with
//! `Retry-After` instead of hanging, and serves again once it thaws; SQLite with a long write
//! held by another connection, token lookups still answer.

use crate::bounded::{INITIALIZE, post};
use crate::common::postgres::TestPostgres;
use crate::hosted_flow::sqlite_db;
use crate::support;

use avenir_hosted::db::DbConfig;
use avenir_hosted::limits::Limits;
use avenir_hosted::oauth_store::OAuthStore;
use serde_json::json;
use std::time::{Duration, Instant};
use support::{World, call, structured};

/// A liveness bound for what must end (never an assertion about how long it took).
async fn within<T>(what: &str, f: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(120), f)
        .await
        .unwrap_or_else(|_| panic!("{what} did not end"))
}

/// Thaws the server when dropped, whatever the test did.
struct Frozen<'a>(&'a TestPostgres);

impl Drop for Frozen<'_> {
    fn drop(&mut self) {
        self.0.resume();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_postgresql_is_answered_503_with_retry_after_then_served_again() {
    // a server of its own: freezing the one the other tests share would stall them
    let server = TestPostgres::start().expect("a throwaway PostgreSQL");
    let db = DbConfig::Postgres(server.create_database().expect("a database"));
    let limits = Limits {
        storage_timeout: Duration::from_secs(2),
        ..Limits::default()
    };
    let world = World::start_limited(db, 1, support::settings(), limits).await;
    let alice = world.sign_in("alice", "write", 0).await;
    let mcp = world.instances[0].mcp();

    let frozen = Frozen(&server);
    server.pause();
    let started = Instant::now();
    let answer = within("a request to a frozen database", async {
        post(&mcp, &alice.access_token, None, INITIALIZE).await
    })
    .await;
    eprintln!(
        "PostgreSQL frozen: /mcp answered {} after {:?}",
        answer.status,
        started.elapsed()
    );
    assert_eq!(answer.status, 503, "{}", answer.body);
    assert!(answer.retry_after.is_some(), "Retry-After");
    drop(frozen);

    let plans = within("a call once thawed", async {
        structured(&call(&alice.client, "list_plans", json!({})).await)
    })
    .await;
    assert_eq!(plans["result"][0]["id"], world.alice_plan, "{plans}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_sqlite_write_does_not_hold_up_token_lookups() {
    let (db, dir) = sqlite_db();
    let DbConfig::Sqlite(file) = db.clone() else {
        unreachable!("sqlite_db gives a SQLite file");
    };
    let limits = Limits {
        storage_timeout: Duration::from_secs(60),
        ..Limits::default()
    };
    let world = World::start_limited(db, 1, support::settings(), limits).await;
    let alice = world.sign_in("alice", "write", 0).await;
    let mcp = world.instances[0].mcp();

    // another process's long write holds the file's write lock…
    let mut other = rusqlite::Connection::open(&file).expect("a second connection");
    let held = other
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .expect("the write lock");
    held.execute(
        "INSERT INTO pacing_ledgers (key, text) VALUES ('long-writer', '')",
        [],
    )
    .expect("a row in the long write");
    // …and this instance has a write of its own waiting behind it
    let db = world.instances[0].hosted.db.clone();
    let waiting = tokio::spawn(async move { db.revoke_token("no-such-token").await });
    tokio::time::sleep(Duration::from_millis(300)).await;

    let answer = within("a token lookup beside a long write", async {
        post(&mcp, &alice.access_token, None, INITIALIZE).await
    })
    .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(
        !waiting.is_finished(),
        "the instance's own write still waits for the long one"
    );
    held.commit().expect("the long write ends");
    let revoked = within("the waiting write", waiting)
        .await
        .expect("task")
        .expect("the waiting write, once the long one ended");
    assert!(!revoked, "no such token");
    let _ = std::fs::remove_dir_all(dir);
}
