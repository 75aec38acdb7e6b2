//! A hosted world on one machine: the YNAB sandbox speaking YNAB's OAuth (two people, each with
//! their own plan), one or more hosted instances on one database, a client metadata document
//! served over HTTPS by a throwaway certificate authority, and people signing in through a real
//! MCP client that does OAuth (rmcp's `auth`): discovery from a 401, registration by metadata
//! document, PKCE, YNAB's sign-in, the callback with `iss`.
//!
//! The only part played by the test is the person's browser: it follows the redirects and
//! presses the consent page's button.
#![allow(dead_code)]

use avenir_hosted::config::PublicUrl;
use avenir_hosted::crypto::SecretKey;
use avenir_hosted::db::DbConfig;
use avenir_hosted::limits::Limits;
use avenir_hosted::oauth::YnabApp;
use avenir_hosted::start::{Hosted, HostedConfig};
use rmcp::RoleClient;
use rmcp::ServiceExt;
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::auth::{
    AuthClient, AuthorizationManager, AuthorizationRequest, AuthorizationSession,
};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use ynab_sandbox::builder::{PlanBuilder, date};
use ynab_sandbox::{Sandbox, SandboxOptions};

pub mod https;
pub mod page_client;

/// The YNAB OAuth application the hosted server is registered as, at the sandbox.
pub const YNAB_CLIENT_ID: &str = "avenir-hosted-test";
pub const YNAB_CLIENT_SECRET: &str = "sandbox-secret-of-the-test-app";
/// Where the MCP client wants its code (never contacted: the browser stops there).
pub const REDIRECT_URI: &str = "http://127.0.0.1:9/callback";

/// The server's clock: real time plus an offset the tests move.
#[derive(Clone, Default)]
pub struct TestClock(Arc<AtomicI64>);

impl TestClock {
    pub fn now(&self) -> i64 {
        chrono::Utc::now().timestamp() + self.0.load(Ordering::SeqCst)
    }
    pub fn advance(&self, seconds: i64) {
        self.0.fetch_add(seconds, Ordering::SeqCst);
    }
}

pub fn today() -> chrono::NaiveDate {
    ynab_sandbox::demo::DEMO_TODAY
}

/// Bob's plan: small, and nothing like Alice's.
pub fn bobs_plan() -> ynab_sandbox::PlanState {
    let mut b = PlanBuilder::new("bobs-workshop", "Bob's workshop", today());
    b.months(date("2026-08-01"), date("2026-09-01"));
    b.account("acc-bob", "Workshop checking", "checking", true);
    b.group("grp-bob", "Workshop");
    b.category("cat-wood", "grp-bob", "Timber");
    b.build()
}

/// One hosted instance, serving until dropped.
pub struct Instance {
    /// `http://127.0.0.1:PORT` where this instance listens.
    pub url: String,
    pub hosted: Hosted,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Instance {
    pub fn mcp(&self) -> String {
        format!("{}/mcp", self.url)
    }
}

/// The sandbox, the instances, the client metadata document.
pub struct World {
    pub sandbox: Sandbox,
    pub clock: TestClock,
    /// The public URL every instance answers for (the first instance's address).
    pub public: String,
    pub instances: Vec<Instance>,
    pub metadata: https::MetadataDocument,
    pub alice_plan: String,
    pub bob_plan: String,
}

/// Settings of every person's context: writes on, the demo's "today".
pub fn settings() -> avenir::Settings {
    avenir::Settings {
        writes_enabled: true,
        today: Some(today()),
        toolsets: avenir::tools::toolsets::Toolsets::all(),
        ..avenir::Settings::default()
    }
}

impl World {
    /// What the first instance answers `token` on a `tools/list` (its status and challenge):
    /// whether the token still opens `/mcp`.
    pub async fn token_answer(&self, token: &str) -> (u16, String) {
        raw_mcp(&self.instances[0].mcp(), token, TOOLS_LIST, &[]).await
    }

    /// `instances` hosted servers on `database`, sharing one key and one public URL.
    pub async fn start(database: DbConfig, instances: usize) -> World {
        World::start_with(database, instances, settings()).await
    }

    /// The same, every person's context made with `settings`.
    pub async fn start_with(
        database: DbConfig,
        instances: usize,
        settings: avenir::Settings,
    ) -> World {
        World::start_limited(database, instances, settings, Limits::default()).await
    }

    /// The same, every instance within `limits`.
    pub async fn start_limited(
        database: DbConfig,
        instances: usize,
        settings: avenir::Settings,
        limits: Limits,
    ) -> World {
        let alice = ynab_sandbox::demo::demo_plan(today());
        let bob = bobs_plan();
        let (alice_plan, bob_plan) = (alice.id.clone(), bob.id.clone());
        let sandbox = Sandbox::start_plans(alice, vec![bob], SandboxOptions::default())
            .await
            .expect("sandbox");
        let mut listeners = Vec::new();
        for _ in 0..instances {
            listeners.push(
                tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .expect("listener"),
            );
        }
        let first = listeners[0].local_addr().expect("address");
        let public = format!("http://{first}");
        sandbox.add_oauth_app(
            YNAB_CLIENT_ID,
            YNAB_CLIENT_SECRET,
            &format!("{public}/oauth/ynab/callback"),
        );
        sandbox
            .add_user("alice", std::slice::from_ref(&alice_plan))
            .expect("alice");
        sandbox
            .add_user("bob", std::slice::from_ref(&bob_plan))
            .expect("bob");
        let metadata = https::MetadataDocument::serve(REDIRECT_URI).await;
        let clock = TestClock::default();
        let key = SecretKey::generate();
        let oauth_root = format!("http://{}", sandbox.addr());
        let mut started = Vec::new();
        for listener in listeners {
            let listen = listener.local_addr().expect("address");
            let tick = clock.clone();
            let config = HostedConfig {
                listen,
                public: PublicUrl::parse(&public).expect("public URL"),
                database: database.clone(),
                key: key.clone(),
                ynab: YnabApp {
                    authorize_url: format!("{oauth_root}/oauth/authorize"),
                    token_url: format!("{oauth_root}/oauth/token"),
                    client_id: YNAB_CLIENT_ID.into(),
                    client_secret: YNAB_CLIENT_SECRET.into(),
                },
                ynab_api: ynab::config::BaseUrl::new(sandbox.base_url()),
                settings: settings.clone(),
                budget: 180,
                allowed_origins: Vec::new(),
                clock: Arc::new(move || tick.now()),
                access_ttl: 24 * 3600,
                metadata_roots: vec![metadata.root_pem.clone()],
                allow_private_metadata_hosts: true,
                behind_proxy: false,
                limits: limits.clone(),
            };
            let hosted = Hosted::build(config).await.expect("hosted instance");
            let router = hosted.router.clone();
            let limits = limits.clone();
            let task = tokio::spawn(async move {
                // served as `start::serve` does
                avenir_hosted::start::serve_on(listener, router, &limits).await;
            });
            started.push(Instance {
                url: format!("http://{listen}"),
                hosted,
                task,
            });
        }
        World {
            sandbox,
            clock,
            public,
            instances: started,
            metadata,
            alice_plan,
            bob_plan,
        }
    }

    /// Move every clock: YNAB's (the sandbox's) and the servers'.
    pub fn advance(&self, seconds: i64) {
        self.sandbox.advance_clock(seconds);
        self.clock.advance(seconds);
    }

    /// `person` signs in through instance `at`'s `/mcp` with a real OAuth client, choosing
    /// `access` (`read` or `write`) on the consent page; the client is then connected to `at`.
    pub async fn sign_in(&self, person: &str, access: &str, at: usize) -> SignedIn {
        self.sandbox.sign_in(person).expect("sandbox user");
        let mcp = self.instances[at].mcp();
        // 1. a request without a token: 401 and where to start
        let http = browser();
        let challenge = http
            .post(&mcp)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#)
            .send()
            .await
            .expect("unauthenticated request");
        assert_eq!(challenge.status(), 401);
        let www = challenge
            .headers()
            .get("www-authenticate")
            .and_then(|v| v.to_str().ok())
            .expect("WWW-Authenticate")
            .to_string();
        // 2. discovery from the challenge
        // rmcp's OAuth client makes its own HTTP client: the process's TLS provider first.
        ynab::install_tls_provider();
        let mut manager = AuthorizationManager::new_allowing_private_addresses(mcp.as_str())
            .await
            .expect("manager");
        let resolved = manager
            .resolve_metadata_from_challenge(Some(&www))
            .await
            .expect("discovery");
        manager.set_metadata(resolved.metadata);
        // 3. registration by metadata document, PKCE
        let session = AuthorizationSession::new(
            manager,
            AuthorizationRequest::new(REDIRECT_URI)
                .with_client_metadata_url(self.metadata.url.clone()),
        )
        .await
        .map_err(|(_, e)| e)
        .expect("authorization session");
        // 4. the browser: consent page, the button, YNAB's sign-in, back to the client
        let (landing, browser_session) =
            browse_with_session(&http, session.get_authorization_url(), access).await;
        let code = query(&landing, "code").expect("code");
        let state = query(&landing, "state").expect("state");
        let iss = query(&landing, "iss").expect("iss (RFC 9207)");
        assert_eq!(iss, self.public, "the issuer is the public URL");
        // 5. the code for tokens
        session
            .handle_callback_with_issuer(&code, &state, Some(&iss))
            .await
            .expect("token exchange");
        let access_token = session
            .auth_manager
            .get_access_token()
            .await
            .expect("access token");
        let client = connect(session.auth_manager, &mcp).await;
        SignedIn {
            client,
            access_token,
            browser_session,
        }
    }

    /// A client of instance `at` holding `token` (as another instance would be reached).
    pub async fn client_with_token(
        &self,
        token: &str,
        at: usize,
    ) -> RunningService<RoleClient, ()> {
        let transport = StreamableHttpClientTransport::from_config(
            StreamableHttpClientTransportConfig::with_uri(self.instances[at].mcp())
                .auth_header(token.to_string()),
        );
        ().serve(transport).await.expect("MCP client")
    }
}

/// A person signed in: their MCP client, the access token it holds, and the browser-session
/// cookie (`name=value`) the sign-in left in their browser.
pub struct SignedIn {
    pub client: RunningService<RoleClient, ()>,
    pub access_token: String,
    pub browser_session: Option<String>,
}

async fn connect(manager: AuthorizationManager, mcp: &str) -> RunningService<RoleClient, ()> {
    let http = ynab::http_client_builder().build().expect("HTTP client");
    let auth = AuthClient::new(http, manager);
    let transport = StreamableHttpClientTransport::with_client(
        auth,
        StreamableHttpClientTransportConfig::with_uri(mcp.to_string()),
    );
    ().serve(transport).await.expect("MCP client")
}

/// The person's browser: no redirect followed on its own.
pub fn browser() -> reqwest::Client {
    ynab::http_client_builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("browser")
}

/// Follow the sign-in from the authorization URL to the client's redirect URI, pressing the
/// consent page's `access` button; the URL the client gets.
pub async fn browse(http: &reqwest::Client, start: &str, access: &str) -> String {
    browse_with_session(http, start, access).await.0
}

/// The same, and the browser-session cookie (`name=value`) the sign-in left in the browser.
pub async fn browse_with_session(
    http: &reqwest::Client,
    start: &str,
    access: &str,
) -> (String, Option<String>) {
    let page = http.get(start).send().await.expect("authorize");
    assert_eq!(page.status(), 200, "the consent page");
    let cookie = page
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or("").to_string())
        .collect::<Vec<_>>()
        .join("; ");
    let html = page.text().await.expect("consent page");
    let consent = hidden(&html, "consent").expect("the consent form's id");
    let mut next = http
        .post(start.split('?').next().unwrap_or(start))
        .header("cookie", cookie)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form(&[("consent", consent.as_str()), ("access", access)]))
        .send()
        .await
        .expect("consent");
    for _ in 0..5 {
        assert!(
            next.status().is_redirection(),
            "a redirect, got {}: {:?}",
            next.status(),
            next.text().await
        );
        let location = next
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .expect("Location")
            .to_string();
        if location.starts_with(REDIRECT_URI) {
            let session = next
                .headers()
                .get_all("set-cookie")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .find(|v| v.starts_with("avenir_session="))
                .and_then(|v| v.split(';').next())
                .map(str::to_string);
            return (location, session);
        }
        next = http.get(&location).send().await.expect("redirect");
    }
    panic!("the sign-in never reached the client's redirect URI");
}

/// A JSON-RPC request posted to `mcp` with `token` and `headers`, as a client or an attacker
/// would: the status and the `WWW-Authenticate` challenge, if any.
pub async fn raw_mcp(
    mcp: &str,
    token: &str,
    body: &str,
    headers: &[(&str, &str)],
) -> (u16, String) {
    let mut request = browser()
        .post(mcp)
        .bearer_auth(token)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let answer = request
        .body(body.to_string())
        .send()
        .await
        .expect("request");
    let challenge = answer
        .headers()
        .get("www-authenticate")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    (answer.status().as_u16(), challenge)
}

/// `tools/list`, as a raw request.
pub const TOOLS_LIST: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;

/// A form body, URL-encoded.
pub fn form(pairs: &[(&str, &str)]) -> String {
    let mut body = url::form_urlencoded::Serializer::new(String::new());
    for (key, value) in pairs {
        body.append_pair(key, value);
    }
    body.finish()
}

/// The value of the hidden input `name` in a page.
pub fn hidden(html: &str, name: &str) -> Option<String> {
    let at = html.find(&format!("name=\"{name}\""))?;
    let rest = &html[at..];
    let value = rest.split("value=\"").nth(1)?;
    Some(value.split('"').next()?.to_string())
}

/// A query parameter of a URL.
pub fn query(url: &str, name: &str) -> Option<String> {
    let parsed = reqwest::Url::parse(url).ok()?;
    parsed
        .query_pairs()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

/// The JSON of a tool's answer (its structured content).
pub fn structured(result: &rmcp::model::CallToolResult) -> serde_json::Value {
    result
        .structured_content
        .clone()
        .unwrap_or(serde_json::Value::Null)
}

/// The text of a tool's answer.
pub fn text(result: &rmcp::model::CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Call `tool` with `arguments`.
pub async fn call(
    client: &RunningService<RoleClient, ()>,
    tool: &str,
    arguments: serde_json::Value,
) -> rmcp::model::CallToolResult {
    let arguments = arguments.as_object().cloned();
    let mut params = rmcp::model::CallToolRequestParams::new(tool.to_string());
    params.arguments = arguments;
    client.call_tool(params).await.expect("tools/call")
}
