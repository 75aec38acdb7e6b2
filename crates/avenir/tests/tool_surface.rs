//! The whole tool surface a client sees — each tool's name, title, descriptions (write gate open
//! and closed), input and output schemas and annotations — kept as golden files under
//! `tests/snapshots/` (as a client declaring the MCP Apps extension sees it: the chart tools'
//! `_meta`), so any change a client would see shows up in review. Refresh them with
//! `INSTA_UPDATE=always cargo test -p avenir --test suite tool_surface::` and read the diff.

use crate::common;

use common::{Era, Options, start_options};
use serde_json::{Map, Value, json};

/// The tools a client declaring the MCP Apps extension sees (the chart tools' `_meta.ui`).
async fn listed(writes: bool) -> Vec<rmcp::model::Tool> {
    let mut options = Options::new(Era::Modern);
    options.settings.writes_enabled = writes;
    options.apps = true;
    let harness = start_options(options).await;
    harness
        .client
        .list_all_tools()
        .await
        .expect("tools/list answers")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_as_clients_see_it() {
    let open = listed(true).await;
    let closed = listed(false).await;
    assert!(!open.is_empty());
    for tool in &open {
        let read_only_variant = closed
            .iter()
            .find(|t| t.name == tool.name)
            .map(|t| Value::String(t.description.clone().unwrap_or_default().into_owned()));
        let mut surface = Map::new();
        surface.insert("name".into(), json!(tool.name));
        surface.insert("title".into(), json!(tool.title));
        surface.insert("description".into(), json!(tool.description));
        surface.insert(
            "description_when_writes_are_off".into(),
            read_only_variant.unwrap_or(Value::Null),
        );
        surface.insert("annotations".into(), json!(tool.annotations));
        surface.insert(
            "inputSchema".into(),
            Value::Object((*tool.input_schema).clone()),
        );
        surface.insert(
            "outputSchema".into(),
            tool.output_schema
                .as_ref()
                .map(|s| Value::Object((**s).clone()))
                .unwrap_or(Value::Null),
        );
        if let Some(meta) = &tool.meta {
            surface.insert("_meta".into(), Value::Object(meta.0.clone()));
        }
        insta::assert_json_snapshot!(tool.name.to_string(), Value::Object(surface));
    }
    // A tool listed with writes off is listed with writes on too.
    for tool in &closed {
        assert!(open.iter().any(|t| t.name == tool.name), "{}", tool.name);
    }
}
