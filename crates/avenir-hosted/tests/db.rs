//! The hosted state against both databases: every behaviour runs on a SQLite file and on a
//! PostgreSQL database of its own (one throwaway server for this test binary), through two `Db`
//! handles standing for two instances. No assertion depends on timing: orderings are proven with
//! events recorded in order.

use crate::common;

use avenir::store::shared::{CodeEntry, Stream};
use avenir_hosted::db::{CODE_KEPT, Db, DbConfig, DbError, SweepTtls, Swept};
use avenir_hosted::oauth_store::{
    ClientKind, ClientRecord, CodeGrant, CodeUse, OAuthStore, PendingSignIn, RefreshUse, TokenKind,
    TokenRecord, YnabGrant,
};
use common::postgres::TestPostgres;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

static POSTGRES: OnceLock<TestPostgres> = OnceLock::new();

fn postgres() -> &'static TestPostgres {
    POSTGRES.get_or_init(|| TestPostgres::start().unwrap_or_else(|e| panic!("{e}")))
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Sqlite,
    Postgres,
}

/// Where one test's database is; a SQLite file's directory is removed when dropped.
struct Place {
    config: DbConfig,
    dir: Option<PathBuf>,
}

impl Drop for Place {
    fn drop(&mut self) {
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

async fn place(kind: Kind) -> Place {
    match kind {
        Kind::Sqlite => {
            static N: AtomicU64 = AtomicU64::new(0);
            let dir = std::env::temp_dir().join(format!(
                "avenir-db-test-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::Relaxed)
            ));
            std::fs::create_dir_all(&dir).unwrap();
            Place {
                config: DbConfig::Sqlite(dir.join("state.db")),
                dir: Some(dir),
            }
        }
        Kind::Postgres => {
            let url = tokio::task::spawn_blocking(|| postgres().create_database())
                .await
                .unwrap()
                .unwrap_or_else(|e| panic!("{e}"));
            Place {
                config: DbConfig::Postgres(url),
                dir: None,
            }
        }
    }
}

/// Two instances on one database.
async fn two(kind: Kind) -> (Db, Db, Place) {
    let place = place(kind).await;
    let a = Db::open(&place.config).await.unwrap();
    let b = Db::open(&place.config).await.unwrap();
    (a, b, place)
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    tokio::task::spawn_blocking(f).await.unwrap()
}

/// A liveness bound for waits that must end (never an assertion about how long they took).
async fn within<T>(what: &str, f: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(120), f)
        .await
        .unwrap_or_else(|_| panic!("{what} did not end"))
}

macro_rules! both {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$name(super::Kind::Sqlite).await
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                super::$name(super::Kind::Postgres).await
            }
        }
    )*};
}

both!(
    migrations_apply_once,
    a_newer_schema_is_refused,
    oauth_code_taken_once_across_instances,
    confirmation_code_taken_once_across_instances,
    nonces_spent_once_across_instances,
    journal_lines_in_order_and_per_person,
    exclusive_undo_lock_waits_for_the_holder,
    shared_undo_locks_coexist_and_exclusive_waits_for_them,
    ledger_updates_lose_none,
    pending_sign_in_taken_once,
    refresh_fresh_then_replayed,
    revoke_token_and_family,
    ynab_grant_replaced_only_at_the_read_version,
    clients_and_people,
    delete_person_removes_theirs_only,
    the_sweep_deletes_what_expired_and_keeps_the_rest,
    a_version_2_database_keeps_its_tokens_and_codes_through_migration_3,
);

/// A database as version 2 of the schema left it, with a live sign-in (family "live": an access
/// token and an unused refresh token), a revoked one (family "dead") and an unused code.
async fn version_2_database(config: &DbConfig) {
    let setup = format!(
        "CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL); \
         {} {} \
         INSERT INTO schema_migrations (version, applied_at) VALUES (1, 0), (2, 0); \
         INSERT INTO oauth_tokens (token_hash, kind, person_id, client_id, scope, resource, \
           expires_at, family, revoked, used) VALUES \
           ('live-a', 'access', 'p1', 'client', 'read write', 'https://avenir.example/mcp', \
            1900000000, 'live', FALSE, FALSE), \
           ('live-r', 'refresh', 'p1', 'client', 'read write', 'https://avenir.example/mcp', \
            1900000000, 'live', FALSE, FALSE), \
           ('dead-a', 'access', 'p1', 'client', 'read write', 'https://avenir.example/mcp', \
            1900000000, 'dead', TRUE, FALSE); \
         INSERT INTO oauth_codes (code_hash, client_id, person_id, redirect_uri, code_challenge, \
           scope, resource, expires_at) VALUES ('code-hash', 'https://client.example/meta.json', \
           'p1', 'http://127.0.0.1:3000/cb', 'challenge', 'read write', \
           'https://avenir.example/mcp', 1900000000);",
        match config {
            DbConfig::Sqlite(_) => include_str!("../src/db/migrations/sqlite/0001_init.sql"),
            DbConfig::Postgres(_) => include_str!("../src/db/migrations/postgres/0001_init.sql"),
        },
        match config {
            DbConfig::Sqlite(_) => {
                include_str!("../src/db/migrations/sqlite/0002_confirmation_pages.sql")
            }
            DbConfig::Postgres(_) => {
                include_str!("../src/db/migrations/postgres/0002_confirmation_pages.sql")
            }
        },
    );
    match config {
        DbConfig::Sqlite(path) => {
            let conn = rusqlite::Connection::open(path).unwrap();
            conn.execute_batch(&setup).unwrap();
        }
        DbConfig::Postgres(url) => {
            let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                .await
                .unwrap();
            let task = tokio::spawn(connection);
            client.batch_execute(&setup).await.unwrap();
            drop(client);
            task.await.unwrap().unwrap();
        }
    }
}

async fn a_version_2_database_keeps_its_tokens_and_codes_through_migration_3(kind: Kind) {
    let place = place(kind).await;
    version_2_database(&place.config).await;
    let db = Db::open(&place.config).await.unwrap();
    assert!(db.schema_version().await.unwrap() >= 3);
    let counts: std::collections::HashMap<_, _> =
        db.row_counts().await.unwrap().into_iter().collect();
    assert_eq!(counts["oauth_families"], 2, "one family per sign-in");
    assert!(!db.token("live-a").await.unwrap().unwrap().revoked);
    assert!(db.token("dead-a").await.unwrap().unwrap().revoked);
    assert!(matches!(
        db.use_refresh("live-r").await.unwrap(),
        RefreshUse::Fresh(_)
    ));
    assert_eq!(
        db.use_code("code-hash", "new-family").await.unwrap(),
        CodeUse::Fresh(code_grant("p1"))
    );
    // a family revoked after the migration takes its tokens, old ones included
    db.revoke_family("live").await.unwrap();
    assert!(db.token("live-a").await.unwrap().unwrap().revoked);
}

/// The rows of each swept table, by name.
async fn rows(db: &Db) -> std::collections::HashMap<&'static str, i64> {
    db.row_counts().await.unwrap().into_iter().collect()
}

async fn the_sweep_deletes_what_expired_and_keeps_the_rest(kind: Kind) {
    let (a, b, _place) = two(kind).await;
    let now = 1_950_000_000;
    let ttls = SweepTtls {
        pending: 900,
        metadata: 3600,
        nonce: 600,
    };
    // sign-ins in progress: one past its 15 minutes, one fresh
    let at = |created_at| PendingSignIn {
        created_at,
        ..pending()
    };
    a.put_pending("old-pending", &at(now - 901)).await.unwrap();
    a.put_pending("new-pending", &at(now - 10)).await.unwrap();
    // codes: one used a day and more past its expiry, one just expired (kept: presented again,
    // it still revokes its family)
    let code = |expires_at| CodeGrant {
        expires_at,
        ..code_grant("p1")
    };
    a.put_code("old-code", &code(now - CODE_KEPT - 1))
        .await
        .unwrap();
    a.use_code("old-code", "old-code-family").await.unwrap();
    a.put_code("recent-code", &code(now - 10)).await.unwrap();
    a.use_code("recent-code", "recent").await.unwrap();
    // tokens: expired ones (family "gone", and "recent" whose code is kept), a live one
    let tok = |kind, family: &str, expires_at| TokenRecord {
        expires_at,
        ..token(kind, "p1", family)
    };
    for (hash, record) in [
        ("gone-a", tok(TokenKind::Access, "gone", now - 1)),
        ("gone-r", tok(TokenKind::Refresh, "gone", now - 1)),
        ("recent-r", tok(TokenKind::Refresh, "recent", now - 1)),
        ("live-a", tok(TokenKind::Access, "live", now + 3600)),
    ] {
        a.put_token(hash, &record).await.unwrap();
    }
    // clients: registered two days ago and never used, registered two days ago with a live
    // token ("client"), registered just now; metadata documents cached too long and fresh
    let client = |id: &str, kind, updated_at| ClientRecord {
        client_id: id.into(),
        kind,
        metadata: serde_json::json!({"redirect_uris": ["http://127.0.0.1/cb"]}),
        updated_at,
    };
    for record in [
        client("old-unused", ClientKind::Registered, now - 2 * 86_400),
        client("client", ClientKind::Registered, now - 2 * 86_400),
        client("new-unused", ClientKind::Registered, now - 10),
        client(
            "https://c.example/old.json",
            ClientKind::MetadataDocument,
            now - 3601,
        ),
        client(
            "https://c.example/new.json",
            ClientKind::MetadataDocument,
            now - 10,
        ),
    ] {
        a.put_client(&record).await.unwrap();
    }
    // nonces, stamped by the real clock: one spent 1,000 s ago, one now
    let real = chrono::Utc::now().timestamp();
    let store = a.shared_store("p1");
    blocking(move || {
        assert!(store.spend_nonce("fresh-nonce", real, 600).unwrap());
        assert!(store.spend_nonce("old-nonce", real - 1000, 600).unwrap());
    })
    .await;

    let before = rows(&a).await;
    let swept = b.sweep(now, ttls).await.unwrap();
    let after = rows(&a).await;
    println!("{kind:?}: rows before the sweep {before:?}, after {after:?}");
    assert_eq!(
        swept,
        Swept {
            pending_sign_ins: 1,
            codes: 1,
            tokens: 3,
            families: 1,
            unused_clients: 1,
            metadata_documents: 1,
            spent_nonces: 1,
        }
    );
    let gone = |table| before[table] - after[table];
    assert_eq!(gone("oauth_pending_sign_ins"), 1);
    assert_eq!(gone("oauth_codes"), 1);
    assert_eq!(gone("oauth_tokens"), 3);
    assert_eq!(gone("oauth_families"), 1);
    assert_eq!(gone("oauth_clients"), 2);
    assert_eq!(gone("spent_nonces"), 1);
    // what is left still works: the kept code still revokes its family when presented again
    assert_eq!(
        a.use_code("recent-code", "again").await.unwrap(),
        CodeUse::Replayed {
            family: Some("recent".into())
        }
    );
    assert!(!a.token("live-a").await.unwrap().unwrap().revoked);
    assert!(a.client("client").await.unwrap().is_some());
    assert!(a.client("new-unused").await.unwrap().is_some());
    assert!(a.client("old-unused").await.unwrap().is_none());
    // a second sweep, on the other instance, finds nothing
    assert_eq!(a.sweep(now, ttls).await.unwrap().total(), 0);
}

async fn migrations_apply_once(kind: Kind) {
    let place = place(kind).await;
    // instances starting at once, each on its own task
    let starting: Vec<_> = (0..4)
        .map(|_| {
            let config = place.config.clone();
            tokio::spawn(async move { Db::open(&config).await })
        })
        .collect();
    let mut opened = Vec::new();
    for task in starting {
        opened.push(task.await.unwrap().unwrap());
    }
    let (a, b) = (opened[0].clone(), opened[3].clone());
    drop(opened);
    // One row per migration (versions 1 to SCHEMA_VERSION), however many instances started.
    let known = avenir_hosted::db::SCHEMA_VERSION;
    assert_eq!(known, 3);
    assert_eq!(a.schema_version().await.unwrap(), known);
    assert_eq!(a.migrations_applied().await.unwrap(), known);
    assert_eq!(b.migrations_applied().await.unwrap(), known);
    drop((a, b));
    let again = Db::open(&place.config).await.unwrap();
    assert_eq!(again.migrations_applied().await.unwrap(), known);
    assert_eq!(again.schema_version().await.unwrap(), known);
}

async fn a_newer_schema_is_refused(kind: Kind) {
    let place = place(kind).await;
    drop(Db::open(&place.config).await.unwrap());
    match &place.config {
        DbConfig::Sqlite(path) => {
            let conn = rusqlite::Connection::open(path).unwrap();
            conn.execute(
                "INSERT INTO schema_migrations (version, applied_at) VALUES (7, 0)",
                [],
            )
            .unwrap();
        }
        DbConfig::Postgres(url) => {
            let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                .await
                .unwrap();
            let task = tokio::spawn(connection);
            client
                .execute(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (7, 0)",
                    &[],
                )
                .await
                .unwrap();
            drop(client);
            task.await.unwrap().unwrap();
        }
    }
    let error = Db::open(&place.config).await.unwrap_err();
    assert!(
        matches!(error, DbError::NewerSchema { found: 7, .. }),
        "{error:?}"
    );
    let error = error.to_string();
    assert!(error.contains("schema version 7"), "{error}");
    let this = format!("version {} this", avenir_hosted::db::SCHEMA_VERSION);
    assert!(error.contains(&this), "{error}");
}

fn code_grant(person: &str) -> CodeGrant {
    CodeGrant {
        client_id: "https://client.example/meta.json".into(),
        person_id: person.into(),
        redirect_uri: "http://127.0.0.1:3000/cb".into(),
        code_challenge: "challenge".into(),
        scope: "read write".into(),
        resource: "https://avenir.example/mcp".into(),
        expires_at: 1_900_000_000,
    }
}

async fn oauth_code_taken_once_across_instances(kind: Kind) {
    let (a, b, _place) = two(kind).await;
    a.put_code("code-hash", &code_grant("p1")).await.unwrap();
    let mut tasks = Vec::new();
    for i in 0..16 {
        let db = if i % 2 == 0 { a.clone() } else { b.clone() };
        tasks.push(tokio::spawn(async move {
            db.use_code("code-hash", &format!("family-{i}"))
                .await
                .unwrap()
        }));
    }
    let mut got = Vec::new();
    let mut replays = 0;
    for task in tasks {
        match task.await.unwrap() {
            CodeUse::Fresh(grant) => got.push(grant),
            CodeUse::Replayed { family } => {
                assert!(family.is_some_and(|f| f.starts_with("family-")));
                replays += 1;
            }
            CodeUse::Unknown => panic!("the code was issued"),
        }
    }
    assert_eq!(got, vec![code_grant("p1")]);
    assert_eq!(replays, 15);
    assert!(matches!(
        b.use_code("code-hash", "again").await.unwrap(),
        CodeUse::Replayed { .. }
    ));
    assert_eq!(
        a.use_code("never-issued", "f").await.unwrap(),
        CodeUse::Unknown
    );
}

fn code_entry(issued_at: i64) -> CodeEntry {
    CodeEntry {
        fingerprint: "fp".into(),
        call_digest: "call".into(),
        issued_at,
    }
}

async fn confirmation_code_taken_once_across_instances(kind: Kind) {
    let (a, b, _place) = two(kind).await;
    let (sa, sb) = (a.shared_store("p1"), b.shared_store("p1"));
    let other = a.shared_store("p2");
    {
        let sa = sa.clone();
        blocking(move || sa.insert_code("digest", &code_entry(1000), 300).unwrap()).await;
    }
    let mut tasks = Vec::new();
    for i in 0..16 {
        let store = if i % 2 == 0 { sa.clone() } else { sb.clone() };
        tasks.push(tokio::task::spawn_blocking(move || {
            store.take_code("digest").unwrap()
        }));
    }
    let mut got = Vec::new();
    for task in tasks {
        got.extend(task.await.unwrap());
    }
    assert_eq!(got, vec![code_entry(1000)]);
    // codes are the person's own
    blocking(move || {
        sa.insert_code("digest2", &code_entry(1000), 300).unwrap();
        assert_eq!(other.take_code("digest2").unwrap(), None);
        // a code issued long before a new one is purged with it
        sa.insert_code("digest3", &code_entry(5000), 300).unwrap();
        assert_eq!(sb.take_code("digest2").unwrap(), None);
        assert_eq!(sb.take_code("digest3").unwrap(), Some(code_entry(5000)));
    })
    .await;
}

async fn nonces_spent_once_across_instances(kind: Kind) {
    let (a, b, _place) = two(kind).await;
    // nonces are global: two people's stores on two instances
    let (sa, sb) = (a.shared_store("p1"), b.shared_store("p2"));
    let mut tasks = Vec::new();
    for i in 0..16 {
        let store = if i % 2 == 0 { sa.clone() } else { sb.clone() };
        tasks.push(tokio::task::spawn_blocking(move || {
            store.spend_nonce("nonce-1", 1000, 600).unwrap()
        }));
    }
    let mut firsts = 0;
    for task in tasks {
        if task.await.unwrap() {
            firsts += 1;
        }
    }
    assert_eq!(firsts, 1);
    blocking(move || {
        assert!(sb.spend_nonce("nonce-2", 1001, 600).unwrap());
        assert!(!sa.spend_nonce("nonce-2", 1002, 600).unwrap());
        assert!(!sa.spend_nonce("nonce-1", 1003, 600).unwrap());
    })
    .await;
}

async fn journal_lines_in_order_and_per_person(kind: Kind) {
    let (a, b, _place) = two(kind).await;
    let (p_a, p_b, q) = (
        a.shared_store("p"),
        b.shared_store("p"),
        b.shared_store("q"),
    );
    blocking(move || {
        let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(p_a.lines(Stream::Journal).unwrap(), Vec::<String>::new());
        p_a.append(Stream::Journal, &lines(&["{\"n\":1}", "{\"n\":2}"]))
            .unwrap();
        p_b.append(Stream::Journal, &lines(&["{\"n\":3}"])).unwrap();
        p_b.append(Stream::Intents, &lines(&["{\"i\":1}"])).unwrap();
        q.append(Stream::Journal, &lines(&["{\"q\":1}"])).unwrap();
        p_a.append(Stream::Journal, &lines(&["{\"n\":4}"])).unwrap();
        p_a.append(Stream::Journal, &[]).unwrap();
        let journal = lines(&["{\"n\":1}", "{\"n\":2}", "{\"n\":3}", "{\"n\":4}"]);
        assert_eq!(p_a.lines(Stream::Journal).unwrap(), journal);
        assert_eq!(p_b.lines(Stream::Journal).unwrap(), journal);
        assert_eq!(p_a.lines(Stream::Intents).unwrap(), lines(&["{\"i\":1}"]));
        assert_eq!(q.lines(Stream::Journal).unwrap(), lines(&["{\"q\":1}"]));
        assert_eq!(q.lines(Stream::Intents).unwrap(), Vec::<String>::new());
    })
    .await;

    // concurrent appends by two instances: none lost, each writer's lines in its order
    let mut tasks = Vec::new();
    for writer in 0..4 {
        let store = if writer % 2 == 0 {
            a.shared_store("r")
        } else {
            b.shared_store("r")
        };
        tasks.push(tokio::task::spawn_blocking(move || {
            for n in 0..10 {
                store
                    .append(Stream::Intents, &[format!("{{\"w\":{writer},\"n\":{n}}}")])
                    .unwrap();
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let r = a.shared_store("r");
    let all = blocking(move || r.lines(Stream::Intents).unwrap()).await;
    assert_eq!(all.len(), 40);
    for writer in 0..4 {
        let mine: Vec<String> = all
            .iter()
            .filter(|l| l.starts_with(&format!("{{\"w\":{writer},")))
            .cloned()
            .collect();
        let expected: Vec<String> = (0..10)
            .map(|n| format!("{{\"w\":{writer},\"n\":{n}}}"))
            .collect();
        assert_eq!(mine, expected);
    }
}

/// Events recorded in the order they happened.
#[derive(Clone, Default)]
struct Events(Arc<Mutex<Vec<&'static str>>>);

impl Events {
    fn push(&self, event: &'static str) {
        self.0.lock().unwrap().push(event);
    }
    fn all(&self) -> Vec<&'static str> {
        self.0.lock().unwrap().clone()
    }
}

/// `first` is held (taken on instance a); instance b then asks for `second_exclusive`: b's grant
/// must come after a's release. The holder waits a little after b has asked, so that a lock that
/// did not wait would be seen granted before the release.
async fn second_waits_for_first(kind: Kind, first_exclusive: bool) {
    let (a, b, _place) = two(kind).await;
    let (sa, sb) = (a.shared_store("p"), b.shared_store("p"));
    let events = Events::default();
    let held = blocking(move || sa.undo_lock(first_exclusive).unwrap()).await;
    let (asking_tx, asking_rx) = std::sync::mpsc::channel();
    let waiter = {
        let events = events.clone();
        tokio::task::spawn_blocking(move || {
            asking_tx.send(()).unwrap();
            let lock = sb.undo_lock(true).unwrap();
            events.push("second granted");
            drop(lock);
        })
    };
    {
        let events = events.clone();
        blocking(move || {
            asking_rx.recv().unwrap();
            std::thread::sleep(Duration::from_millis(300));
            events.push("first released");
            drop(held);
        })
        .await;
    }
    within("the second lock", waiter).await.unwrap();
    assert_eq!(events.all(), vec!["first released", "second granted"]);

    // another person's lock is another lock
    let (sa, sq) = (a.shared_store("p"), b.shared_store("q"));
    blocking(move || {
        let _p = sa.undo_lock(true).unwrap();
        let _q = sq.undo_lock(true).unwrap();
    })
    .await;
}

async fn exclusive_undo_lock_waits_for_the_holder(kind: Kind) {
    second_waits_for_first(kind, true).await;
}

async fn shared_undo_locks_coexist_and_exclusive_waits_for_them(kind: Kind) {
    let (a, b, place) = two(kind).await;
    let (sa, sb) = (a.shared_store("p"), b.shared_store("p"));
    // both held at once, on two instances (and twice on one)
    within(
        "shared locks",
        blocking(move || {
            let one = sa.undo_lock(false).unwrap();
            let two = sb.undo_lock(false).unwrap();
            let three = sa.undo_lock(false).unwrap();
            drop((one, two, three));
        }),
    )
    .await;
    drop((a, b, place));
    second_waits_for_first(kind, false).await;
}

async fn ledger_updates_lose_none(kind: Kind) {
    let (a, b, _place) = two(kind).await;
    let calls = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for i in 0..24 {
        let store = if i % 2 == 0 {
            a.ledger_store()
        } else {
            b.ledger_store()
        };
        let calls = calls.clone();
        tasks.push(tokio::task::spawn_blocking(move || {
            store
                .update_text("budget-token", &mut |text| {
                    calls.fetch_add(1, Ordering::SeqCst);
                    let n: u64 = text.trim().parse().unwrap_or(0);
                    format!("{}\n", n + 1)
                })
                .unwrap()
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    assert_eq!(
        calls.load(Ordering::SeqCst),
        24,
        "change is called once per update"
    );
    let store = b.ledger_store();
    let read = blocking(move || {
        let mut seen = String::new();
        store
            .update_text("budget-token", &mut |text| {
                seen = text.to_owned();
                text.to_owned()
            })
            .unwrap();
        let mut other = String::from("unset");
        store
            .update_text("another-key", &mut |text| {
                other = text.to_owned();
                text.to_owned()
            })
            .unwrap();
        (seen, other)
    })
    .await;
    assert_eq!(read, ("24\n".to_owned(), String::new()));
}

fn pending() -> PendingSignIn {
    PendingSignIn {
        client_id: "client".into(),
        redirect_uri: "http://127.0.0.1/cb".into(),
        code_challenge: "ch".into(),
        client_state: Some("their-state".into()),
        scope: "read".into(),
        resource: "https://avenir.example/mcp".into(),
        created_at: 1000,
    }
}

async fn pending_sign_in_taken_once(kind: Kind) {
    let (a, b, _place) = two(kind).await;
    a.put_pending("state-hash", &pending()).await.unwrap();
    let no_state = PendingSignIn {
        client_state: None,
        ..pending()
    };
    a.put_pending("state-hash-2", &no_state).await.unwrap();
    let (x, y) = tokio::join!(a.take_pending("state-hash"), b.take_pending("state-hash"));
    let mut got: Vec<_> = [x.unwrap(), y.unwrap()].into_iter().flatten().collect();
    assert_eq!(got.len(), 1);
    assert_eq!(got.pop(), Some(pending()));
    assert_eq!(a.take_pending("state-hash").await.unwrap(), None);
    assert_eq!(
        b.take_pending("state-hash-2").await.unwrap(),
        Some(no_state)
    );
    assert_eq!(b.take_pending("state-hash-2").await.unwrap(), None);
}

fn token(kind: TokenKind, person: &str, family: &str) -> TokenRecord {
    TokenRecord {
        kind,
        person_id: person.into(),
        client_id: "client".into(),
        scope: "read write".into(),
        resource: "https://avenir.example/mcp".into(),
        expires_at: 1_900_000_000,
        family: family.into(),
        revoked: false,
    }
}

async fn refresh_fresh_then_replayed(kind: Kind) {
    let (a, b, _place) = two(kind).await;
    let refresh = token(TokenKind::Refresh, "p1", "fam");
    a.put_token("r1", &refresh).await.unwrap();
    a.put_token("a1", &token(TokenKind::Access, "p1", "fam"))
        .await
        .unwrap();
    assert_eq!(
        b.use_refresh("r1").await.unwrap(),
        RefreshUse::Fresh(refresh.clone())
    );
    assert_eq!(
        a.use_refresh("r1").await.unwrap(),
        RefreshUse::Replayed(refresh.clone())
    );
    assert_eq!(a.use_refresh("nope").await.unwrap(), RefreshUse::Unknown);
    assert_eq!(
        a.use_refresh("a1").await.unwrap(),
        RefreshUse::Unknown,
        "an access token is not a refresh token"
    );

    // presented at once on two instances: one Fresh
    a.put_token("r2", &refresh).await.unwrap();
    let mut tasks = Vec::new();
    for i in 0..16 {
        let db = if i % 2 == 0 { a.clone() } else { b.clone() };
        tasks.push(tokio::spawn(
            async move { db.use_refresh("r2").await.unwrap() },
        ));
    }
    let (mut fresh, mut replayed) = (0, 0);
    for task in tasks {
        match task.await.unwrap() {
            RefreshUse::Fresh(_) => fresh += 1,
            RefreshUse::Replayed(_) => replayed += 1,
            RefreshUse::Unknown => panic!("r2 is known"),
        }
    }
    assert_eq!((fresh, replayed), (1, 15));

    // a revoked, unused refresh token is a replay
    a.put_token("r3", &refresh).await.unwrap();
    assert!(a.revoke_token("r3").await.unwrap());
    assert_eq!(
        b.use_refresh("r3").await.unwrap(),
        RefreshUse::Replayed(TokenRecord {
            revoked: true,
            ..refresh
        })
    );
}

async fn revoke_token_and_family(kind: Kind) {
    let (a, b, _place) = two(kind).await;
    a.put_token("f-access", &token(TokenKind::Access, "p1", "F"))
        .await
        .unwrap();
    a.put_token("f-refresh", &token(TokenKind::Refresh, "p1", "F"))
        .await
        .unwrap();
    a.put_token("g-access", &token(TokenKind::Access, "p1", "G"))
        .await
        .unwrap();
    b.revoke_family("F").await.unwrap();
    assert!(b.token("f-access").await.unwrap().unwrap().revoked);
    assert!(a.token("f-refresh").await.unwrap().unwrap().revoked);
    // RFC 9700 §4.14.2: the tokens of a refresh that rotated just before a replay revoked the
    // family are stored after the revocation: they are born revoked, on every instance
    a.put_token("f-late", &token(TokenKind::Access, "p1", "F"))
        .await
        .unwrap();
    assert!(b.token("f-late").await.unwrap().unwrap().revoked);
    b.revoke_family("H").await.unwrap();
    a.put_token("h-first", &token(TokenKind::Refresh, "p1", "H"))
        .await
        .unwrap();
    assert!(b.token("h-first").await.unwrap().unwrap().revoked);
    assert!(matches!(
        b.use_refresh("h-first").await.unwrap(),
        RefreshUse::Replayed(_)
    ));
    // a person signed out everywhere (YNAB refused to renew): a rotation finishing afterwards
    // issues revoked tokens too
    a.put_token("p2-refresh", &token(TokenKind::Refresh, "p2", "P"))
        .await
        .unwrap();
    b.revoke_person("p2").await.unwrap();
    assert!(a.token("p2-refresh").await.unwrap().unwrap().revoked);
    a.put_token("p2-late", &token(TokenKind::Access, "p2", "P"))
        .await
        .unwrap();
    assert!(b.token("p2-late").await.unwrap().unwrap().revoked);
    assert_eq!(
        a.token("g-access").await.unwrap(),
        Some(token(TokenKind::Access, "p1", "G"))
    );
    assert!(matches!(
        a.use_refresh("f-refresh").await.unwrap(),
        RefreshUse::Replayed(TokenRecord { revoked: true, .. })
    ));
    assert!(a.revoke_token("g-access").await.unwrap());
    assert!(b.token("g-access").await.unwrap().unwrap().revoked);
    assert!(!a.revoke_token("unknown").await.unwrap());
    assert_eq!(a.token("unknown").await.unwrap(), None);
}

fn grant(sealed: &[u8]) -> YnabGrant {
    YnabGrant {
        sealed: sealed.to_vec(),
        expires_at: 1_800_000_000,
        scope: String::new(),
        version: 0,
        needs_sign_in: false,
    }
}

async fn ynab_grant_replaced_only_at_the_read_version(kind: Kind) {
    let (a, b, _place) = two(kind).await;
    assert_eq!(a.ynab_grant("p1").await.unwrap(), None);
    a.put_ynab_grant("p1", &grant(b"first")).await.unwrap();
    let stored = b.ynab_grant("p1").await.unwrap().unwrap();
    assert_eq!(stored.sealed, b"first");
    assert_eq!(stored.version, 1);
    assert!(!stored.needs_sign_in);

    // two instances refreshed from version 1: one stores its result
    let (from_a, from_b) = (grant(b"from-a"), grant(b"from-b"));
    let (x, y) = tokio::join!(
        a.replace_ynab_grant("p1", 1, &from_a),
        b.replace_ynab_grant("p1", 1, &from_b)
    );
    let (x, y) = (x.unwrap(), y.unwrap());
    assert!(x ^ y, "exactly one replacement wins: {x} {y}");
    let now = a.ynab_grant("p1").await.unwrap().unwrap();
    assert_eq!(now.version, 2);
    assert_eq!(now.sealed, if x { b"from-a" } else { b"from-b" });

    assert!(
        !a.replace_ynab_grant("p1", 1, &grant(b"late"))
            .await
            .unwrap()
    );
    let failed = YnabGrant {
        needs_sign_in: true,
        scope: "read-only".into(),
        ..grant(b"from-a")
    };
    assert!(b.replace_ynab_grant("p1", 2, &failed).await.unwrap());
    let now = a.ynab_grant("p1").await.unwrap().unwrap();
    assert_eq!((now.version, now.needs_sign_in), (3, true));
    assert_eq!(now.scope, "read-only");

    // a new sign-in replaces it whatever its version, past any version read before
    a.put_ynab_grant("p1", &grant(b"signed-in-again"))
        .await
        .unwrap();
    let now = b.ynab_grant("p1").await.unwrap().unwrap();
    assert_eq!(now.sealed, b"signed-in-again");
    assert!(!now.needs_sign_in);
    assert_eq!(now.version, 4);
    assert!(
        !a.replace_ynab_grant("p1", 3, &grant(b"stale"))
            .await
            .unwrap()
    );
    assert!(
        !a.replace_ynab_grant("nobody", 0, &grant(b"x"))
            .await
            .unwrap()
    );
}

async fn clients_and_people(kind: Kind) {
    let (a, b, _place) = two(kind).await;
    let client = ClientRecord {
        client_id: "https://client.example/meta.json".into(),
        kind: ClientKind::MetadataDocument,
        metadata: serde_json::json!({"redirect_uris": ["http://127.0.0.1/cb"], "client_name": "C"}),
        updated_at: 100,
    };
    a.put_client(&client).await.unwrap();
    assert_eq!(
        b.client(&client.client_id).await.unwrap(),
        Some(client.clone())
    );
    let refetched = ClientRecord {
        metadata: serde_json::json!({"redirect_uris": []}),
        updated_at: 200,
        ..client.clone()
    };
    b.put_client(&refetched).await.unwrap();
    assert_eq!(a.client(&client.client_id).await.unwrap(), Some(refetched));
    let registered = ClientRecord {
        client_id: "reg-1".into(),
        kind: ClientKind::Registered,
        ..client
    };
    a.put_client(&registered).await.unwrap();
    assert_eq!(a.client("reg-1").await.unwrap(), Some(registered));
    assert_eq!(a.client("none").await.unwrap(), None);

    // one person per YNAB user, made once even when two instances ask at once
    let (x, y) = tokio::join!(a.person_for("ynab-user-1"), b.person_for("ynab-user-1"));
    let (x, y) = (x.unwrap(), y.unwrap());
    assert_eq!(x, y);
    assert_eq!(x.len(), 32);
    assert!(!x.contains("ynab-user-1"));
    assert_eq!(a.person_for("ynab-user-1").await.unwrap(), x);
    assert_ne!(b.person_for("ynab-user-2").await.unwrap(), x);
}

/// The text of `person`'s pacing ledger (empty when there is none).
async fn ledger_text(db: &Db, person: &str) -> String {
    let ledger = db.ledger_store();
    let key = avenir_hosted::people::ledger_key(person);
    blocking(move || {
        let mut seen = String::new();
        ledger
            .update_text(&key, &mut |text| {
                seen = text.to_owned();
                text.to_owned()
            })
            .unwrap();
        seen
    })
    .await
}

async fn delete_person_removes_theirs_only(kind: Kind) {
    let (a, b, _place) = two(kind).await;
    let p = a.person_for("ynab-p").await.unwrap();
    let q = a.person_for("ynab-q").await.unwrap();
    for (person, tag) in [(&p, "p"), (&q, "q")] {
        a.put_token(
            &format!("{tag}-access"),
            &token(TokenKind::Access, person, tag),
        )
        .await
        .unwrap();
        a.put_token(
            &format!("{tag}-refresh"),
            &token(TokenKind::Refresh, person, tag),
        )
        .await
        .unwrap();
        a.put_code(&format!("{tag}-code"), &code_grant(person))
            .await
            .unwrap();
        a.put_ynab_grant(person, &grant(tag.as_bytes()))
            .await
            .unwrap();
        let ledger = a.ledger_store();
        let key = avenir_hosted::people::ledger_key(person);
        blocking(move || {
            ledger
                .update_text(&key, &mut |_| format!("{tag}\n"))
                .unwrap()
        })
        .await;
        let store = a.shared_store(person);
        blocking(move || {
            store
                .append(Stream::Journal, &[format!("{{\"j\":\"{tag}\"}}")])
                .unwrap();
            store
                .append(Stream::Intents, &[format!("{{\"i\":\"{tag}\"}}")])
                .unwrap();
            store
                .insert_code("confirm", &code_entry(1000), 300)
                .unwrap();
        })
        .await;
    }

    b.delete_person(&p).await.unwrap();

    assert_eq!(a.token("p-access").await.unwrap(), None);
    assert_eq!(
        a.use_refresh("p-refresh").await.unwrap(),
        RefreshUse::Unknown
    );
    assert_eq!(a.use_code("p-code", "f").await.unwrap(), CodeUse::Unknown);
    assert_eq!(a.ynab_grant(&p).await.unwrap(), None);
    let sp = a.shared_store(&p);
    blocking(move || {
        assert_eq!(sp.lines(Stream::Journal).unwrap(), Vec::<String>::new());
        assert_eq!(sp.lines(Stream::Intents).unwrap(), Vec::<String>::new());
        assert_eq!(sp.take_code("confirm").unwrap(), None);
    })
    .await;
    assert_eq!(
        ledger_text(&a, &p).await,
        "",
        "the pacing ledger row went too"
    );
    assert_eq!(ledger_text(&a, &q).await, "q\n");
    // signing in again makes a new person
    assert_ne!(a.person_for("ynab-p").await.unwrap(), p);

    assert_eq!(a.person_for("ynab-q").await.unwrap(), q);
    assert_eq!(
        a.token("q-access").await.unwrap(),
        Some(token(TokenKind::Access, &q, "q"))
    );
    assert!(matches!(
        a.use_refresh("q-refresh").await.unwrap(),
        RefreshUse::Fresh(_)
    ));
    assert_eq!(
        a.use_code("q-code", "f").await.unwrap(),
        CodeUse::Fresh(code_grant(&q))
    );
    assert_eq!(a.ynab_grant(&q).await.unwrap().unwrap().sealed, b"q");
    let sq = b.shared_store(&q);
    blocking(move || {
        assert_eq!(sq.lines(Stream::Journal).unwrap(), vec!["{\"j\":\"q\"}"]);
        assert_eq!(sq.lines(Stream::Intents).unwrap(), vec!["{\"i\":\"q\"}"]);
        assert_eq!(sq.take_code("confirm").unwrap(), Some(code_entry(1000)));
    })
    .await;
}

#[test]
fn the_database_url_chooses_postgres_else_sqlite() {
    let file = PathBuf::from("/var/lib/avenir/state.db");
    assert!(matches!(
        DbConfig::choose(Some("postgres://u@/avenir".into()), file.clone()),
        DbConfig::Postgres(url) if url == "postgres://u@/avenir"
    ));
    for unset in [None, Some(String::new()), Some("  ".into())] {
        assert!(matches!(
            DbConfig::choose(unset, file.clone()),
            DbConfig::Sqlite(path) if path == file
        ));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_sslmode_is_refused_with_a_sentence() {
    let url = "postgres://u:secret-password@db.example/avenir?sslmode=sometimes";
    let error = Db::open(&DbConfig::Postgres(url.into())).await.unwrap_err();
    assert!(matches!(error, DbError::SslMode(_)), "{error:?}");
    let error = error.to_string();
    assert!(error.contains("sslmode=verify-full"), "{error}");
    assert!(!error.contains("secret-password"), "{error}");
    let shown = format!("{:?}", DbConfig::Postgres("postgres://u:pw@h/d".into()));
    assert!(!shown.contains("pw"), "{shown}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_file_is_private_and_in_wal() {
    use std::os::unix::fs::PermissionsExt;
    let place = place(Kind::Sqlite).await;
    let DbConfig::Sqlite(path) = &place.config else {
        unreachable!()
    };
    let db = Db::open(&place.config).await.unwrap();
    assert_eq!(
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let conn = rusqlite::Connection::open(path).unwrap();
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    drop(db);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_test_server_stops_and_its_directory_goes() {
    let (dir, pid) = blocking(|| {
        let server = TestPostgres::start().unwrap();
        let url = server.create_database().unwrap();
        assert!(url.starts_with("postgres://postgres@127.0.0.1:"), "{url}");
        let dir = server.dir().to_path_buf();
        let pid: String = std::fs::read_to_string(dir.join("data/postmaster.pid"))
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_owned();
        drop(server);
        (dir, pid)
    })
    .await;
    assert!(!dir.exists(), "{} is left", dir.display());
    let alive = std::process::Command::new("kill")
        .args(["-0", &pid])
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap()
        .success();
    assert!(!alive, "the server {pid} still runs");
}
