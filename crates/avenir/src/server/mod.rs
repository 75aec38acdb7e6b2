//! The MCP face of avenir-mcp: server identity and instructions, the tool list behind the write
//! gate, the call dispatch that turns outcomes into results, and the resources.

pub mod app;
pub mod dynamic;
pub mod guide;
pub mod progress;
pub mod prompts;
pub mod resources;

use crate::charts::Attachment;
use crate::confirm::{AskContext, Finished};
use crate::context::Context;
use crate::tools::{self, ToolSpec};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64_STANDARD;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The server name clients see.
pub const SERVER_NAME: &str = "avenir-mcp";

/// Key of `_meta` naming the plan a result was read from (decision D17).
pub const META_PLAN_ID: &str = "avenir-mcp/plan_id";
/// Key of `_meta` naming the plan a call that left `plan_id` out was answered for (D40).
pub const META_PLAN_NAME: &str = "avenir-mcp/plan_name";
/// Key of `_meta` counting the YNAB requests the call made (every try that left).
pub const META_REQUESTS: &str = "avenir-mcp/ynab_requests";
/// Key of `_meta` giving the requests the hourly budget still allows (absent without a token).
pub const META_REQUESTS_LEFT: &str = "avenir-mcp/ynab_requests_left";

/// One avenir-mcp server. Cloning is cheap: every clone shares the same state.
#[derive(Clone)]
pub struct AvenirServer {
    context: Arc<Context>,
    tools: Arc<Vec<ToolSpec>>,
    /// Whether the write tools are listed (`AVENIR_MCP_WRITE=1`; in the hosted mode, a person
    /// who granted read and change).
    writes: bool,
    /// The read tools alone, for a person of the hosted mode who granted read only.
    read_tools: Arc<Vec<ToolSpec>>,
    /// The hosted mode: every request must come with a [`Person`]; none is refused.
    hosted: bool,
    /// The dynamic mode's session (`AVENIR_MCP_DYNAMIC_TOOLSETS=1`): `tools` then holds every
    /// toolset's tools, and a request lists what [`Self::listed_in`] says.
    dynamic: Option<dynamic::Session>,
}

/// A person signed in to the hosted mode, as its HTTP layer hands them to the server: put in
/// the HTTP request's extensions, which rmcp passes on as `http::request::Parts`. Every call of
/// that request runs on the person's own context (their YNAB token, plans, journal and codes).
#[derive(Clone)]
pub struct Person {
    pub context: Arc<Context>,
    /// They granted read and change: the write tools are listed for them.
    pub writes: bool,
}

impl AvenirServer {
    pub fn new(context: Arc<Context>) -> Self {
        let writes = context.settings.writes_enabled;
        let dynamic = context.settings.dynamic_toolsets;
        let sets = match dynamic {
            true => tools::toolsets::Toolsets::all(),
            false => context.settings.toolsets,
        };
        let chosen = || {
            tools::registry()
                .into_iter()
                .filter(move |t| sets.contains(t.toolset))
        };
        let tools = chosen().filter(|t| t.read_only || writes).collect();
        let read_tools = chosen().filter(|t| t.read_only).collect();
        AvenirServer {
            context,
            tools: Arc::new(tools),
            writes,
            read_tools: Arc::new(read_tools),
            hosted: false,
            dynamic: dynamic.then(dynamic::Session::new),
        }
    }

    /// The same server for a new session: in the dynamic mode, with no toolset enabled yet.
    pub fn new_session(&self) -> Self {
        AvenirServer {
            dynamic: self.dynamic.as_ref().map(|_| dynamic::Session::new()),
            ..self.clone()
        }
    }

    /// The server of the hosted mode: `template` is what answers before anyone signs in (the
    /// instructions); every request is served on the [`Person`] its HTTP layer found, and a
    /// request without one is refused.
    pub fn hosted(template: Arc<Context>) -> Self {
        AvenirServer {
            hosted: true,
            ..AvenirServer::new(template)
        }
    }

    /// The server as this request's person sees it: their context, and the write tools only
    /// when they granted them (and this process enables them).
    fn for_request(&self, request: &RequestContext<RoleServer>) -> Result<AvenirServer, McpError> {
        let person = request
            .extensions
            .get::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Person>());
        match person {
            Some(person) => {
                let writes = person.writes && self.writes;
                Ok(AvenirServer {
                    context: person.context.clone(),
                    tools: if writes {
                        self.tools.clone()
                    } else {
                        self.read_tools.clone()
                    },
                    writes,
                    read_tools: self.read_tools.clone(),
                    hosted: true,
                    dynamic: self.dynamic.clone(),
                })
            }
            None if self.hosted => Err(McpError::invalid_request(
                "no person is signed in for this request: sign in again",
                None,
            )),
            None => Ok(self.clone()),
        }
    }

    pub fn context(&self) -> &Arc<Context> {
        &self.context
    }

    /// The instructions for this process, as a session of 2025-11-25 starts (in the dynamic
    /// mode: the core, and how to enable more).
    pub fn instructions(&self) -> String {
        self.guide_text(guide::instructions)
    }

    /// `avenir-mcp://guide`: the instructions and the YNAB method in brief.
    pub fn guide(&self) -> String {
        self.guide_text(guide::guide)
    }

    fn guide_text(&self, text_of: fn(&[ToolSpec], bool) -> String) -> String {
        let listed: Vec<ToolSpec> = self.listed_in(false).cloned().collect();
        let mut text = text_of(&listed, self.writes);
        if self.dynamic.is_some() {
            text.push_str(dynamic::GUIDE);
        }
        text
    }

    fn spec(&self, name: &str, modern: bool) -> Option<&ToolSpec> {
        self.listed_in(modern).find(|t| t.name == name)
    }

    /// The tools `tools/list` shows to a request of 2026-07-28 (`modern`) or of an older
    /// protocol: this build's (in the dynamic mode, what the session enabled, or on 2026-07-28,
    /// which has no session, the process's toolsets), then the conformance suite's fixtures when
    /// served ([`Self::fixtures`]).
    fn listed_in(&self, modern: bool) -> impl Iterator<Item = &ToolSpec> {
        #[cfg(debug_assertions)]
        let fixtures = crate::conformance::TOOLS.iter().filter(|_| self.fixtures());
        #[cfg(not(debug_assertions))]
        let fixtures = std::iter::empty();
        let session = self.dynamic.as_ref().map(|s| (s.clone(), s.enabled()));
        let sets = self.context.settings.toolsets;
        self.tools
            .iter()
            .filter(move |spec| match (&session, modern) {
                (None, _) => true,
                (Some(_), true) => sets.contains(spec.toolset),
                (Some((session, _)), false) => session.lists(spec),
            })
            .chain(fixtures)
    }

    /// Whether the conformance suite's fixtures are served: a debug build started with
    /// `AVENIR_MCP_CONFORMANCE_FIXTURES=1` (a release build has none).
    #[cfg(debug_assertions)]
    fn fixtures(&self) -> bool {
        self.context.settings.conformance_fixtures
    }

    /// The tool as `tools/list` shows it; `apps`: the client declared the MCP Apps extension, so
    /// a chart tool names its view (`app.rs`).
    fn tool(&self, spec: &ToolSpec, apps: bool) -> Tool {
        let writes = self.writes;
        let mut annotations = ToolAnnotations::with_title(spec.title)
            .read_only(spec.read_only)
            .idempotent(spec.idempotent)
            .open_world(true);
        if let Some(destructive) = spec.destructive {
            annotations = annotations.destructive(destructive);
        }
        let mut tool = Tool::new(
            spec.name,
            (spec.description)(writes),
            Arc::new(as_object((spec.input_schema)())),
        )
        .with_title(spec.title)
        .with_raw_output_schema(Arc::new(with_currency(
            spec,
            as_object((spec.output_schema)()),
        )))
        .with_annotations(annotations);
        if apps && app::is_chart_tool(spec.name) {
            tool.meta = Some(app::tool_meta());
        }
        tool
    }
}

/// The field that names the plan's currency in an answer.
const CURRENCY_FIELD: &str = "currency";

/// What a call's result says besides the answer.
#[derive(Debug, Clone, Copy)]
struct Said {
    /// The call left `plan_id` out: the plan used is named (D40).
    left_out: bool,
    /// The client shows the chart view: the plan's currency format in `_meta`.
    chart_currency: bool,
    /// The answer names the plan's currency ([`names_currency`]).
    currency_field: bool,
}

/// Whether `spec`'s answers name the plan's currency: a tool that reads one plan (it takes
/// `plan_id`) and answers an object of named fields (not a map keyed by ids). Decided once per
/// tool, from its output schema, for every call and listing after.
fn names_currency(spec: &ToolSpec) -> bool {
    static NAMING: std::sync::LazyLock<std::collections::HashSet<&'static str>> =
        std::sync::LazyLock::new(|| {
            tools::registry()
                .into_iter()
                .filter(|t| {
                    t.fields.contains(&"plan_id") && (t.output_schema)().get("properties").is_some()
                })
                .map(|t| t.name)
                .collect()
        });
    NAMING.contains(spec.name)
}

/// `spec`'s output schema with `currency` where its answers name it.
fn with_currency(spec: &ToolSpec, mut schema: Map<String, Value>) -> Map<String, Value> {
    if !names_currency(spec) {
        return schema;
    }
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        properties.entry(CURRENCY_FIELD).or_insert_with(|| {
            json!({
                "type": "string",
                "description": "The plan's currency (ISO 4217 code): every amount of this answer is in it."
            })
        });
    }
    schema
}

/// JSON Schema's own formats (2020-12); others (schemars' `uint64`, `int32`, …) are dropped so
/// that strict validators (AJV in the MCP Inspector) accept every schema as it is.
const STANDARD_FORMATS: [&str; 19] = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

fn portable(value: &mut Value) {
    match value {
        Value::Object(map) => {
            let drop_format = map
                .get("format")
                .and_then(Value::as_str)
                .is_some_and(|f| !STANDARD_FORMATS.contains(&f));
            if drop_format {
                map.remove("format");
            }
            map.values_mut().for_each(portable);
        }
        Value::Array(items) => items.iter_mut().for_each(portable),
        _ => {}
    }
}

fn as_object(mut value: Value) -> Map<String, Value> {
    portable(&mut value);
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// The request speaks MCP 2026-07-28 or later (capabilities come with each request).
fn is_modern(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|v| v >= rmcp::model::ProtocolVersion::V_2026_07_28)
}

/// The client can show a form: elicitation declared on this request (2026-07-28) or at
/// initialisation (older protocols); `{}` means form.
fn can_ask(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .and_then(|c| c.elicitation)
        .is_some_and(|e| e.form.is_some() || e.url.is_none())
}

/// The client can send the person to a page: URL-mode elicitation declared.
fn url_mode(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .and_then(|c| c.elicitation)
        .is_some_and(|e| e.url.is_some())
}

fn unknown_tool(name: &str) -> McpError {
    McpError::invalid_params(format!("Unknown tool: {name}"), Some(json!({"name": name})))
}

impl AvenirServer {
    /// The refusal of a call to a tool this server does not list: where this build has it, the
    /// toolset it is in or the write gate that hides it, and how the person turns it on.
    fn not_listed(&self, name: &str, modern: bool) -> McpError {
        let Some(spec) = tools::registry().into_iter().find(|t| t.name == name) else {
            return unknown_tool(name);
        };
        let sets = self.context.settings.toolsets;
        let in_session = self.dynamic.is_some() && !modern;
        let message = if in_session && self.tools.iter().any(|t| t.name == name) {
            let set = spec.toolset.name();
            format!(
                "{name} is in the toolset `{set}`, not enabled in this session: call enable_toolset with {{\"toolset\": \"{set}\"}}, then call {name} again."
            )
        } else if !sets.contains(spec.toolset) && !in_session {
            let set = spec.toolset.name();
            format!(
                "{name} is in the toolset `{set}` ({}), which this server does not list (it lists: {}). The user can turn it on by adding {set} to AVENIR_MCP_TOOLSETS (for example `AVENIR_MCP_TOOLSETS={},{set}`, or `all`) and restarting the server.",
                spec.toolset.summary(),
                sets.names(),
                sets.names()
            )
        } else {
            format!(
                "{name} changes the plan, and this server lists no tool that does: writes are off. The user can turn them on with AVENIR_MCP_WRITE=1 (in the hosted mode, by signing in again with read and change)."
            )
        };
        McpError::invalid_params(message, Some(json!({"name": name})))
    }
}

impl AvenirServer {
    /// A complete result: the answer as structured content and text, and the plan it was read
    /// from in `_meta` (with its name and a note when the call left `plan_id` out, D40).
    async fn complete(
        &self,
        mut value: Value,
        plan_id: Option<String>,
        said: Said,
        meta: &mut Map<String, Value>,
    ) -> CallToolResult {
        let mut named = None;
        if let Some(plan_id) = plan_id {
            let format = self.context.plans.currency_of(&plan_id).await;
            if let (true, Some(format), Value::Object(answer)) =
                (said.currency_field, &format, &mut value)
            {
                // The amounts are bare numbers: the currency they are in is named once, where the
                // model reads it (`_meta` is for the client).
                answer
                    .entry(CURRENCY_FIELD)
                    .or_insert_with(|| Value::String(format.iso_code.clone()));
            }
            if said.chart_currency
                && let Some(format) = format
            {
                meta.insert(app::META_CURRENCY.into(), app::currency_meta(&format));
            }
            if said.left_out
                && let Some(name) = self.context.plans.name_of(&plan_id).await
            {
                let name = crate::text::safe(&name);
                named = Some(format!(
                    "Answered for {name} (plan_id {plan_id}), the plan last used in YNAB: plan_id was left out. Pass plan_id from list_plans to read another plan."
                ));
                meta.insert(META_PLAN_NAME.into(), Value::String(name));
            }
            meta.insert(META_PLAN_ID.into(), Value::String(plan_id));
        }
        let mut result = CallToolResult::structured(value);
        if let Some(note) = named {
            result.content.push(ContentBlock::text(note));
        }
        result
    }
}

impl ServerHandler for AvenirServer {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_prompts()
            .enable_extensions_with(app::server_extensions())
            .build();
        // The dynamic mode changes the list within a session, and says so.
        if self.dynamic.is_some()
            && let Some(tools) = capabilities.tools.as_mut()
        {
            tools.list_changed = Some(true);
        }
        let mut implementation = Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION"));
        implementation.title = Some("avenir-mcp: YNAB for agents, safely".into());
        ServerConfig::new(capabilities)
            .with_server_info(implementation)
            .with_instructions(self.instructions())
    }

    /// The handshake of 2025-11-25: the instructions name the tools this person has (the hosted
    /// mode's read-only people get the read-only guide).
    async fn initialize(
        &self,
        request: rmcp::model::InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::InitializeResult, McpError> {
        context.peer.set_peer_info(request.clone());
        self.for_request(&context)?.negotiate_initialize(&request)
    }

    /// `server/discover` of 2026-07-28, with the same instructions as `initialize`.
    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::DiscoverResult, McpError> {
        let server = self.for_request(&context)?;
        Ok(rmcp::model::DiscoverResult::from_server_info(
            server.supported_protocol_versions().into_owned(),
            server.get_info(),
        ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let server = self.for_request(&context)?;
        let apps = app::client_shows_apps(context.client_capabilities().as_ref());
        let modern = is_modern(&context);
        let mut tools: Vec<Tool> = server
            .listed_in(modern)
            .map(|spec| server.tool(spec, apps))
            .collect();
        if server.dynamic.is_some() && !modern {
            tools.extend(dynamic::own_tools());
        }
        Ok(ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.spec(name, false).map(|spec| self.tool(spec, false))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        self.for_request(&context)?.call(request, context).await
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        self.for_request(&context)?;
        let all = resources::static_resources();
        #[cfg(debug_assertions)]
        let all = if self.fixtures() {
            [all, crate::conformance::resources()].concat()
        } else {
            all
        };
        Ok(ListResourcesResult::with_all_items(all))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        self.for_request(&context)?;
        let all = resources::templates();
        #[cfg(debug_assertions)]
        let all = if self.fixtures() {
            [all, crate::conformance::templates()].concat()
        } else {
            all
        };
        Ok(ListResourceTemplatesResult::with_all_items(all))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let server = self.for_request(&context)?;
        #[cfg(debug_assertions)]
        if self.fixtures()
            && let Some(result) = crate::conformance::read_resource(&request.uri)
        {
            return Ok(result.into());
        }
        resources::read(&server, &request.uri).await.map(Into::into)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListPromptsResult, McpError> {
        self.for_request(&context)?;
        let all = prompts::list();
        #[cfg(debug_assertions)]
        let all = if self.fixtures() {
            [all, crate::conformance::prompts()].concat()
        } else {
            all
        };
        Ok(rmcp::model::ListPromptsResult::with_all_items(all))
    }

    async fn get_prompt(
        &self,
        request: rmcp::model::GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::GetPromptResponse, McpError> {
        let server = self.for_request(&context)?;
        #[cfg(debug_assertions)]
        if self.fixtures()
            && let Some(result) =
                crate::conformance::get_prompt(&request.name, request.arguments.as_ref())
        {
            return result.map(Into::into);
        }
        prompts::get(
            &guide::ToolsInBuild::new(&server.tools),
            server.context.settings.today(),
            &request.name,
            request.arguments.as_ref(),
        )
        .map(Into::into)
    }
}

impl AvenirServer {
    /// A call of the dynamic mode's own tools (`dynamic`), answered here; `None` for any other.
    /// The client is told when the list of tools changed.
    async fn own_tool(
        &self,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
        modern: bool,
    ) -> Option<CallToolResult> {
        let name = request.name.as_ref();
        let session = self.dynamic.as_ref().filter(|_| !modern)?;
        if ![dynamic::LIST_TOOLSETS, dynamic::ENABLE_TOOLSET].contains(&name) {
            return None;
        }
        let arguments = request.arguments.clone().unwrap_or_default();
        let (result, changed) = dynamic::call(session, &self.tools, name, &arguments);
        if changed && let Err(error) = context.peer.notify_tool_list_changed().await {
            tracing::info!("the client was not told the tool list changed: {error}");
        }
        Some(result)
    }

    /// `tools/call` on this (the request's person's) server.
    async fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name.as_ref();
        let modern = is_modern(&context);
        if let Some(answered) = self.own_tool(&request, &context, modern).await {
            return Ok(answered.into());
        }
        let Some(spec) = self.spec(name, modern) else {
            return Err(self.not_listed(name, modern));
        };
        tracing::info!("tool {}", spec.name);
        let ask = AskContext {
            arguments: Map::new(),
            confirmation: None,
            request_state: request.request_state.clone(),
            input_responses: request.input_responses.clone(),
            modern,
            can_ask: can_ask(&context),
            url_mode: url_mode(&context),
            peer: Some(context.peer.clone()),
        };
        let arguments = request.arguments.unwrap_or_default();
        let said = Said {
            left_out: tools::plan_left_out(spec.fields, &arguments),
            // The chart view writes amounts in the plan's currency: said to clients that show it.
            chart_currency: app::is_chart_tool(spec.name)
                && app::client_shows_apps(context.client_capabilities().as_ref()),
            currency_field: names_currency(spec),
        };
        let work = ynab::count_requests((spec.run)(&self.context, arguments, ask));
        // Progress when asked for; a read stops when the client cancels it (a write goes on:
        // once the person said yes, the change and its journal entry are seen through).
        let work = reporting_progress(&context, work);
        let (finished, requests) = if spec.read_only {
            tokio::select! {
                done = work => done,
                () = context.ct.cancelled() => {
                    tracing::info!("tool {} cancelled by the client", spec.name);
                    return Err(McpError::internal_error("cancelled by the client", None));
                }
            }
        } else {
            work.await
        };
        let mut meta = Map::new();
        meta.insert(META_REQUESTS.into(), Value::from(requests));
        if let Some(left) = self.context.plans.client().requests_left() {
            meta.insert(META_REQUESTS_LEFT.into(), Value::from(left));
        }
        let mut result = match finished {
            Finished::Result { value, plan_id } => {
                self.complete(value, plan_id, said, &mut meta).await
            }
            Finished::Charted {
                value,
                plan_id,
                attachment,
            } => {
                let result = self.complete(value, plan_id, said, &mut meta).await;
                with_attachment(result, attachment)
            }
            Finished::Error(message) => {
                tracing::info!("tool {} answered an error", spec.name);
                CallToolResult::error(vec![ContentBlock::text(message)])
            }
            Finished::InputRequired(mut input) => {
                input.meta = Some(rmcp::model::MetaObject(meta));
                return Ok(input.into());
            }
        };
        result.meta = Some(rmcp::model::MetaObject(meta));
        Ok(result.into())
    }
}

/// `work`, sending `notifications/progress` while it runs when the request asked for them.
async fn reporting_progress<T>(
    context: &RequestContext<RoleServer>,
    work: impl std::future::Future<Output = T>,
) -> T {
    match context.meta.get_progress_token() {
        Some(token) => {
            let reporter = progress::Reporter::start(context.peer.clone(), token);
            let done = ynab::progress::reporting(reporter.listener(), reporter.beating(work)).await;
            reporter.finish().await;
            done
        }
        None => work.await,
    }
}

/// A chart's image (or the note said instead) after everything the answer shows without it.
fn with_attachment(mut result: CallToolResult, attachment: Attachment) -> CallToolResult {
    result.content.push(match attachment {
        Attachment::Png(bytes) => ContentBlock::image(BASE64_STANDARD.encode(bytes), "image/png"),
        Attachment::Note(note) => ContentBlock::text(note),
    });
    result
}
