//! The dynamic mode (`AVENIR_MCP_DYNAMIC_TOOLSETS=1`, opt-in): a session starts with a small
//! core — the plan, its accounts and categories — and two tools of its own, `list_toolsets` (a
//! line each) and `enable_toolset`, which lists a toolset's tools for the rest of the session and
//! tells the client (`notifications/tools/list_changed`). Opt-in because nothing in the protocol
//! says that a client acts on that notification.
//!
//! It needs a session, which 2025-11-25 has and 2026-07-28 does not: a request of 2026-07-28 is
//! served the static list of the process's toolsets (`AVENIR_MCP_TOOLSETS`), and the two tools
//! are not listed there.

use crate::tools::ToolSpec;
use crate::tools::toolsets::{Toolset, Toolsets};
use rmcp::model::{CallToolResult, ContentBlock, Tool, ToolAnnotations};
use serde_json::{Map, Value, json};
use std::sync::{Arc, Mutex};

/// The tools every dynamic session starts with, besides its two own.
pub const CORE: [&str; 3] = ["list_plans", "list_accounts", "list_category_groups"];
/// The tool that lists the toolsets.
pub const LIST_TOOLSETS: &str = "list_toolsets";
/// The tool that enables one for the session.
pub const ENABLE_TOOLSET: &str = "enable_toolset";

/// What the guide adds in the dynamic mode.
pub const GUIDE: &str = "\n## More tools\n\nThis session starts with a few tools. The others come in toolsets: `list_toolsets` lists them, a line each, and `enable_toolset` lists one's tools for the rest of the session.\n";

/// One session's enabled toolsets.
#[derive(Debug, Clone)]
pub struct Session(Arc<Mutex<Toolsets>>);

impl Session {
    /// A new session: no toolset enabled yet.
    pub fn new() -> Self {
        Session(Arc::new(Mutex::new(Toolsets::of(&[]))))
    }

    pub fn enabled(&self) -> Toolsets {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn enable(&self, set: Toolset) -> bool {
        let mut enabled = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let was = enabled.contains(set);
        *enabled = enabled.with(set);
        !was
    }

    /// Whether the session lists `spec`: a core tool, or one of an enabled toolset.
    pub fn lists(&self, spec: &ToolSpec) -> bool {
        CORE.contains(&spec.name) || self.enabled().contains(spec.toolset)
    }
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

/// The two tools of the dynamic mode, as `tools/list` shows them.
pub fn own_tools() -> Vec<Tool> {
    let names = Toolset::ALL.map(Toolset::name);
    let list_schema = json!({"type": "object", "properties": {}});
    let enable_schema = json!({
        "type": "object",
        "properties": {"toolset": {"type": "string", "enum": names, "description": "A name from list_toolsets."}},
        "required": ["toolset"]
    });
    let tool = |name: &'static str, description: &'static str, schema: Value, read_only: bool| {
        let Value::Object(schema) = schema else {
            return None;
        };
        let annotations = ToolAnnotations::new()
            .read_only(read_only)
            .idempotent(true)
            .open_world(false);
        Some(Tool::new(name, description, Arc::new(schema)).with_annotations(annotations))
    };
    [
        tool(
            LIST_TOOLSETS,
            "Lists the toolsets of this server, a line each, and which are enabled. Use it when the user asks for something no listed tool does.",
            list_schema,
            true,
        ),
        tool(
            ENABLE_TOOLSET,
            "Enables a toolset from list_toolsets for this session: its tools are listed from then on. Changes nothing in the plan.",
            enable_schema,
            false,
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// One line per toolset.
fn lines(session: &Session, tools: &[ToolSpec]) -> String {
    let enabled = session.enabled();
    Toolset::ALL
        .iter()
        .map(|set| {
            let count = tools.iter().filter(|t| t.toolset == *set).count();
            let state = if enabled.contains(*set) {
                "enabled"
            } else {
                "not enabled"
            };
            format!("{}: {} ({count} tools, {state})", set.name(), set.summary())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What one of the two tools answers; `changed`: the list of tools changed (the client is to be
/// told).
pub fn call(
    session: &Session,
    tools: &[ToolSpec],
    name: &str,
    arguments: &Map<String, Value>,
) -> (CallToolResult, bool) {
    if name == LIST_TOOLSETS {
        return (
            CallToolResult::success(vec![ContentBlock::text(lines(session, tools))]),
            false,
        );
    }
    let asked = arguments
        .get("toolset")
        .and_then(Value::as_str)
        .unwrap_or("");
    let Some(set) = Toolset::ALL.into_iter().find(|s| s.name() == asked) else {
        let known = Toolset::ALL.map(Toolset::name).join(", ");
        let said = format!(
            "toolset must be one of {known}; got {asked:?}. list_toolsets says what each holds."
        );
        return (CallToolResult::error(vec![ContentBlock::text(said)]), false);
    };
    let changed = session.enable(set);
    let names: Vec<&str> = tools
        .iter()
        .filter(|t| t.toolset == set)
        .map(|t| t.name)
        .collect();
    if names.is_empty() {
        let said = format!(
            "The toolset {} is enabled, but it has no tool here: its tools change the plan, and writes are off (AVENIR_MCP_WRITE=1 turns them on).",
            set.name()
        );
        return (
            CallToolResult::success(vec![ContentBlock::text(said)]),
            changed,
        );
    }
    let said = format!(
        "The toolset {} is enabled for this session: {} {} listed now.",
        set.name(),
        names.join(", "),
        if names.len() == 1 { "is" } else { "are" }
    );
    (
        CallToolResult::success(vec![ContentBlock::text(said)]),
        changed,
    )
}
