//! Test harness: the demo plan in a sandbox, an avenir server over an in-memory pipe, and an
//! rmcp client speaking either MCP 2026-07-28 (discover) or 2025-11-25 (initialize).

#![allow(dead_code)]

use avenir::{AvenirServer, Context, Settings};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
    ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Map, Value};
use std::sync::Arc;
use ynab_sandbox::{Sandbox, SandboxOptions};

/// Which era of MCP the test client speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// 2026-07-28: `server/discover`, then per-request `_meta`.
    Modern,
    /// 2025-11-25: the `initialize` handshake.
    Legacy,
}

/// A client with no elicitation capability.
#[derive(Debug, Clone)]
pub struct TestClient {
    pub era: Era,
}

impl ClientHandler for TestClient {
    fn get_info(&self) -> ClientConfig {
        let mut config = ClientConfig::default();
        config.capabilities = ClientCapabilities::default();
        config.client_info = Implementation::new("avenir-tests", "0");
        if self.era == Era::Legacy {
            config.protocol_version = ProtocolVersion::V_2025_11_25;
        }
        config
    }
}

pub struct Harness {
    pub sandbox: Sandbox,
    pub client: RunningService<RoleClient, TestClient>,
}

pub fn today() -> chrono::NaiveDate {
    ynab_sandbox::demo::DEMO_TODAY
}

/// Start the sandbox on the demo plan and a server on it; connect a client of `era`.
pub async fn start(era: Era, writes_enabled: bool) -> Harness {
    let sandbox = Sandbox::start(
        ynab_sandbox::demo::demo_plan(today()),
        SandboxOptions::default(),
    )
    .await
    .expect("sandbox starts");
    let client = Arc::new(ynab::Client::new(
        ynab::BaseUrl::new(sandbox.base_url()),
        ynab::TokenSource::Fixed(ynab::Token::new("test-token")),
    ));
    let settings = Settings {
        writes_enabled,
        today: Some(today()),
    };
    let server = AvenirServer::new(Arc::new(Context::new(settings, client)));
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let lifecycle = match era {
        Era::Modern => ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
        Era::Legacy => ClientLifecycleMode::Initialize,
    };
    let client = TestClient { era }
        .serve_with_lifecycle(client_io, lifecycle)
        .await
        .expect("client connects");
    Harness { sandbox, client }
}

impl Harness {
    /// Call `tool` with `arguments` (a JSON object).
    pub async fn call(&self, tool: &'static str, arguments: Value) -> CallToolResult {
        let mut params = CallToolRequestParams::new(tool);
        if let Value::Object(map) = arguments {
            params = params.with_arguments(map);
        }
        self.client
            .call_tool(params)
            .await
            .expect("tools/call answers")
    }

    /// The structured answer of a successful call.
    pub async fn ok(&self, tool: &'static str, arguments: Value) -> Value {
        let result = self.call(tool, arguments).await;
        assert_ne!(
            result.is_error,
            Some(true),
            "{tool} failed: {:?}",
            result.content
        );
        result.structured_content.expect("structured content")
    }

    /// The message of a call that failed as a tool error.
    pub async fn error(&self, tool: &'static str, arguments: Value) -> String {
        let result = self.call(tool, arguments).await;
        assert_eq!(
            result.is_error,
            Some(true),
            "{tool} should fail: {result:?}"
        );
        assert!(result.structured_content.is_none());
        text_of(&result)
    }
}

/// The text of a result's single text block.
pub fn text_of(result: &CallToolResult) -> String {
    assert_eq!(result.content.len(), 1, "one content block");
    result.content[0]
        .as_text()
        .map(|t| t.text.clone())
        .expect("a text block")
}

pub fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// The id the sandbox serves for a readable demo id (D26).
pub fn id(readable: &str) -> String {
    ynab_sandbox::ids::id(readable)
}
