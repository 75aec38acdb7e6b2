//! The unauthenticated floods of the hosted mode's abuse review, repeated against one instance
//! on SQLite (`scripts/load/flood_oauth.sh` runs it): 5,000 `POST /register` and 5,000
//! `GET /authorize` with a 7.5 KB `state`, all from one address. It prints how each was
//! answered, how much the database grew, and the rows of the swept tables before and after the
//! expiry sweep. Ignored by default: a measurement for the closing note, not a test of timing.
//! `FLOOD_N` sets the number of requests of each flood (5,000).

use crate::hosted_flow::sqlite_db;
use crate::support::World;

use avenir_hosted::db::DbConfig;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// The bytes of the SQLite database, its WAL and shared-memory files included.
fn database_bytes(file: &Path) -> u64 {
    ["", "-wal", "-shm"]
        .iter()
        .filter_map(|suffix| {
            std::fs::metadata(format!("{}{suffix}", file.display()))
                .ok()
                .map(|m| m.len())
        })
        .sum()
}

/// Send `n` requests made by `make` with 16 at a time; the statuses answered, counted.
async fn flood(
    n: usize,
    make: Arc<dyn Fn() -> reqwest::RequestBuilder + Send + Sync>,
) -> BTreeMap<u16, usize> {
    let workers = 16;
    let mut tasks = Vec::new();
    for w in 0..workers {
        let make = make.clone();
        let share = n / workers + usize::from(w < n % workers);
        tasks.push(tokio::spawn(async move {
            let mut seen = BTreeMap::new();
            for _ in 0..share {
                let status = match make().send().await {
                    Ok(r) => r.status().as_u16(),
                    Err(_) => 0,
                };
                *seen.entry(status).or_insert(0) += 1;
            }
            seen
        }));
    }
    let mut all = BTreeMap::new();
    for task in tasks {
        for (status, count) in task.await.expect("a flood worker") {
            *all.entry(status).or_insert(0) += count;
        }
    }
    all
}

/// One instance on a fresh SQLite file, with one client registered before any flood.
struct Target {
    world: World,
    file: std::path::PathBuf,
    dir: std::path::PathBuf,
    base: String,
    client_id: String,
}

async fn target() -> Target {
    let (db, dir) = sqlite_db();
    let DbConfig::Sqlite(file) = db.clone() else {
        unreachable!("sqlite_db is SQLite")
    };
    let world = World::start(db, 1).await;
    let base = world.instances[0].url.clone();
    let client: serde_json::Value = ynab::http_client_builder()
        .build()
        .expect("HTTP client")
        .post(format!("{base}/register"))
        .json(&serde_json::json!({"redirect_uris": ["http://127.0.0.1:7777/callback"]}))
        .send()
        .await
        .expect("register")
        .json()
        .await
        .expect("JSON");
    let client_id = client["client_id"].as_str().expect("client_id").to_string();
    Target {
        world,
        file,
        dir,
        base,
        client_id,
    }
}

/// The flood's requests, made for an instance.
type Make = Arc<dyn Fn() -> reqwest::RequestBuilder + Send + Sync>;

fn registrations(http: &reqwest::Client, base: &str, body: serde_json::Value) -> Make {
    let (h, b, body) = (http.clone(), base.to_string(), body.to_string());
    Arc::new(move || {
        h.post(format!("{b}/register"))
            .header("content-type", "application/json")
            .body(body.clone())
    })
}

fn sign_ins(http: &reqwest::Client, base: &str, client_id: &str, state_bytes: usize) -> Make {
    let state = "s".repeat(state_bytes);
    let query = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs([
            ("response_type", "code"),
            ("client_id", client_id),
            ("redirect_uri", "http://127.0.0.1:7777/callback"),
            (
                "code_challenge",
                "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            ),
            ("code_challenge_method", "S256"),
            ("state", state.as_str()),
        ])
        .finish();
    let (h, b) = (http.clone(), base.to_string());
    Arc::new(move || h.get(format!("{b}/authorize?{query}")))
}

/// One flood on a fresh instance: the answers, the database's growth, the rows after it, and
/// (when `sweep`) what the sweep two days later deleted and the rows left.
async fn measure(name: &str, n: usize, sweep: bool, make: impl Fn(&Target) -> Make) -> u64 {
    let t = target().await;
    let db = t.world.instances[0].hosted.db.clone();
    let before = database_bytes(&t.file);
    let answers = flood(n, make(&t)).await;
    let after = database_bytes(&t.file);
    let grown = after.saturating_sub(before);
    println!("{name}: {answers:?} (status: count); database +{grown} bytes ({before} -> {after})");
    let rows = db.row_counts().await.expect("rows");
    println!("    rows after the flood: {rows:?}");
    if sweep {
        t.world.advance(2 * 86_400);
        let swept = db
            .sweep(t.world.clock.now(), avenir_hosted::sweeper::ttls())
            .await
            .expect("sweep");
        let left = db.row_counts().await.expect("rows");
        println!("    the sweep two days later deleted {swept:?}");
        println!("    rows after the sweep: {left:?}");
    }
    drop(t.world);
    let _ = std::fs::remove_dir_all(t.dir);
    grown
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement (scripts/load/flood_oauth.sh), not a test"]
async fn flood_oauth() {
    let n: usize = std::env::var("FLOOD_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5000);
    let http = ynab::http_client_builder().build().expect("HTTP client");
    println!("flood_oauth: {n} requests per flood from one address (127.0.0.1), SQLite, each");
    println!("flood on a fresh instance holding one registered client");
    let uris: Vec<String> = (0..10)
        .map(|i| format!("https://app.example/{i}/{}", "r".repeat(1400)))
        .collect();
    let big = serde_json::json!({"redirect_uris": uris, "client_name": "n".repeat(200)});
    let small = serde_json::json!({"redirect_uris": ["http://127.0.0.1:7777/cb"],
                                   "client_name": "n".repeat(200)});
    let mut grown = Vec::new();
    grown.push(
        measure("POST /register, 15 KB", n, false, |t| {
            registrations(&http, &t.base, big.clone())
        })
        .await,
    );
    grown.push(
        measure("POST /register, 0.3 KB, valid", n, true, |t| {
            registrations(&http, &t.base, small.clone())
        })
        .await,
    );
    grown.push(
        measure("GET /authorize, 7.5 KB state", n, false, |t| {
            sign_ins(&http, &t.base, &t.client_id, 7_500)
        })
        .await,
    );
    grown.push(
        measure("GET /authorize, 1 KB state, valid", n, true, |t| {
            sign_ins(&http, &t.base, &t.client_id, 1_024)
        })
        .await,
    );
    assert!(grown.iter().all(|g| *g < 5 * 1024 * 1024), "{grown:?}");
}
