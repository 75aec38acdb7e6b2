//! Progress and cancellation through the MCP protocol: a client that sends a progress token
//! hears the first load of the heavy plan (9,000 transactions) as it goes, and a read the client
//! cancels stops, its YNAB request with it.

use avenir::{AvenirServer, Context, Settings};
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CancelledNotificationParam, ClientRequest,
    ProgressNotificationParam, ServerResult,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use ynab_sandbox::faults::{Fault, FaultKind};
use ynab_sandbox::{Sandbox, SandboxOptions};

/// A client that keeps every progress notification it hears.
#[derive(Clone, Default)]
struct Listening {
    heard: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

impl ClientHandler for Listening {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.heard
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(params);
    }
}

struct Setup {
    sandbox: Sandbox,
    client: RunningService<RoleClient, Listening>,
    heard: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

async fn heavy() -> Setup {
    let today = ynab_sandbox::demo::DEMO_TODAY;
    let plan = ynab_sandbox::heavy::heavy_plan(1, 60, 150, today);
    let sandbox = Sandbox::start(plan, SandboxOptions::default())
        .await
        .expect("sandbox starts");
    let client = ynab::Client::new(
        ynab::BaseUrl::new(sandbox.base_url()),
        ynab::TokenSource::Fixed(ynab::Token::new("test-token")),
    )
    .expect("the HTTP client builds")
    .with_pacer(ynab::Pacer::memory(180));
    let settings = Settings {
        today: Some(today),
        toolsets: avenir::tools::toolsets::Toolsets::all(),
        ..Settings::default()
    };
    let server = AvenirServer::new(Arc::new(Context::new(settings, Arc::new(client))));
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let listening = Listening::default();
    let heard = listening.heard.clone();
    let client = listening.serve(client_io).await.expect("client connects");
    Setup {
        sandbox,
        client,
        heard,
    }
}

impl Setup {
    /// `list_accounts` of the last-used plan, answered.
    async fn list_accounts(&self) -> ServerResult {
        self.client
            .send_request_with_option(list_accounts(), PeerRequestOptions::no_options())
            .await
            .expect("sent")
            .await_response()
            .await
            .expect("answered")
    }
}

fn list_accounts() -> ClientRequest {
    let mut params = CallToolRequestParams::new("list_accounts");
    params = params.with_arguments(serde_json::Map::from_iter([(
        "plan_id".to_string(),
        serde_json::Value::String("last-used".into()),
    )]));
    ClientRequest::CallToolRequest(CallToolRequest::new(params))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_load_of_a_large_plan_is_heard_as_it_goes() {
    let setup = heavy().await;
    let handle = setup
        .client
        .send_request_with_option(list_accounts(), PeerRequestOptions::no_options())
        .await
        .expect("sent");
    let token = handle.progress_token.clone();
    let answer = handle.await_response().await.expect("answered");
    let ServerResult::CallToolResult(result) = answer else {
        panic!("not a tool result: {answer:?}");
    };
    assert_ne!(result.is_error, Some(true), "{result:?}");
    // Notifications are sent before the answer, on the same stream: all are in by now.
    let heard = setup
        .heard
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    assert!(heard.iter().all(|n| n.progress_token == token));
    let reading: Vec<_> = heard
        .iter()
        .filter(|n| {
            n.message
                .as_deref()
                .is_some_and(|m| m.starts_with("Reading the plan from YNAB"))
        })
        .collect();
    // The export is megabytes: reported in twentieths, at least ten steps.
    assert!(reading.len() >= 10, "{heard:#?}");
    let size = reading[0]
        .total
        .expect("the sandbox says the answer's size");
    assert!(size > 5_000_000.0, "{size}");
    assert!(reading.iter().all(|n| n.total == Some(size)));
    assert_eq!(reading.last().map(|n| n.progress), Some(size - 1.0));
    let building = heard
        .iter()
        .find(|n| {
            n.message
                .as_deref()
                .is_some_and(|m| m.starts_with("Building the plan"))
        })
        .expect("the building is said");
    assert_eq!(
        building.message.as_deref(),
        Some("Building the plan: 9,000 transactions")
    );
    assert_eq!(building.progress, size);
    assert!(
        heard
            .windows(2)
            .all(|pair| pair[1].progress > pair[0].progress),
        "progress only rises"
    );
    // A second call reads a small delta: nothing worth a word.
    let before = heard.len();
    let again = setup.list_accounts().await;
    assert!(matches!(again, ServerResult::CallToolResult(_)));
    let after = setup.heard.lock().unwrap_or_else(|p| p.into_inner()).len();
    assert_eq!(after, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_the_client_cancels_stops_and_so_does_its_request() {
    let setup = heavy().await;
    setup.sandbox.inject(Fault::new(
        1,
        Some("GET /plans/{plan_id}"),
        FaultKind::Delay { ms: 60_000 },
    ));
    let handle = setup
        .client
        .send_request_with_option(list_accounts(), PeerRequestOptions::no_options())
        .await
        .expect("sent");
    // The load's request reaches YNAB and waits there.
    for _ in 0..200 {
        if setup.sandbox.held().waiting == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(setup.sandbox.held().waiting, 1);
    let cancel = CancelledNotificationParam::new(
        Some(handle.id.clone()),
        Some("the person changed their mind".into()),
    );
    setup
        .client
        .notify_cancelled(cancel)
        .await
        .expect("cancel sent");
    // The client stops waiting (rmcp drops its own wait); the server stops the read, and the
    // YNAB request goes with it: the sandbox sees its client leave well before the minute the
    // answer would take.
    assert!(handle.await_response().await.is_err());
    for _ in 0..200 {
        if setup.sandbox.held().abandoned == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(setup.sandbox.held().abandoned, 1);
    // Nothing was left half-done: the next call loads the plan and answers.
    let again = setup.list_accounts().await;
    let ServerResult::CallToolResult(result) = again else {
        panic!("not a tool result: {again:?}");
    };
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let accounts = result.structured_content.expect("structured")["result"].clone();
    assert_eq!(accounts[0]["name"], "Checking", "{accounts}");
    // Two full loads: the cancelled one, then this one (no delta on a plan never loaded).
    let stats = setup.sandbox.stats();
    assert_eq!((stats.total, stats.deltas), (2, 0), "{stats:?}");
}
