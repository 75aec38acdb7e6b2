//! A client that declares URL-mode elicitation and, sent to a confirmation page, lets the person
//! answer it in their own browser: the page is read and its form posted with the browser-session
//! cookie the person's sign-in left (or none, as a browser that never signed in).

use super::{World, browser, form, hidden};
use rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction};
use rmcp::service::{RequestContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use std::sync::{Arc, Mutex};

/// What the person's browser met on one page: the page's status, the answer's status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Visit {
    pub url: String,
    pub shown: u16,
    pub html: String,
    pub answered: Option<u16>,
}

#[derive(Clone)]
pub struct PageClient {
    /// The browser's session cookie (`name=value`).
    pub cookie: Option<String>,
    pub yes: bool,
    pub visits: Arc<Mutex<Vec<Visit>>>,
}

impl PageClient {
    /// A person who answers yes in a browser holding `cookie`.
    pub fn answering_yes(cookie: Option<String>) -> Self {
        PageClient {
            cookie,
            yes: true,
            visits: Arc::default(),
        }
    }

    /// Connected to instance `at` of `world` with `token`.
    pub async fn connect(
        self,
        world: &World,
        token: &str,
        at: usize,
    ) -> RunningService<RoleClient, PageClient> {
        let transport = StreamableHttpClientTransport::from_config(
            StreamableHttpClientTransportConfig::with_uri(world.instances[at].mcp())
                .auth_header(token.to_string()),
        );
        self.serve(transport).await.expect("MCP client")
    }

    /// The person opens `url` and, where the page shows a form, answers it.
    async fn visit(&self, url: String) {
        let mut shown = browser().get(&url);
        if let Some(cookie) = &self.cookie {
            shown = shown.header("cookie", cookie);
        }
        let shown = shown.send().await.expect("the page answers");
        let status = shown.status().as_u16();
        let html = shown.text().await.unwrap_or_default();
        let mut answered = None;
        if let Some(token) = hidden(&html, "form") {
            let answer = if self.yes { "yes" } else { "no" };
            let mut post = browser()
                .post(&url)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(form(&[("answer", answer), ("form", &token)]));
            if let Some(cookie) = &self.cookie {
                post = post.header("cookie", cookie);
            }
            answered = Some(post.send().await.map_or(0, |r| r.status().as_u16()));
        }
        let visit = Visit {
            url,
            shown: status,
            html,
            answered,
        };
        self.visits
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(visit);
    }
}

impl ClientHandler for PageClient {
    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, rmcp::ErrorData> {
        let ElicitRequestParams::UrlElicitationParams { url, .. } = request else {
            return Ok(ElicitResult::new(ElicitationAction::Cancel));
        };
        // The client sends the person to the page and says so; they answer there.
        let person = self.clone();
        tokio::spawn(async move { person.visit(url).await });
        Ok(ElicitResult::new(ElicitationAction::Accept))
    }

    fn get_info(&self) -> rmcp::model::ClientConfig {
        let mut info = rmcp::model::ClientConfig::default();
        let elicitation = rmcp::model::ElicitationCapability::new()
            .with_url(rmcp::model::UrlElicitationCapability::default());
        info.capabilities.elicitation = Some(elicitation);
        info
    }
}
