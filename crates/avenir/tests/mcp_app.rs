//! The MCP App (extension `io.modelcontextprotocol/ui`) through the real MCP protocol, with a
//! client of each era: the server declares the extension; a client that declares it sees
//! `_meta.ui.resourceUri` on exactly the four chart tools and the plan's currency format in their
//! results; a client that does not sees today's tools and answers; the `ui://` resource lists and
//! reads as the view's HTML. The view itself is tested in a browser by `scripts/mcp-app/`.

use crate::common;

use common::{Era, Harness, Options, meta_of, start_options};
use rmcp::model::{ReadResourceRequestParams, ResourceContents};
use serde_json::{Value, json};

const ERAS: [Era; 2] = [Era::Modern, Era::Legacy];
const CHARTS_URI: &str = "ui://avenir-mcp/charts.html";
const MIME: &str = "text/html;profile=mcp-app";
const CHART_TOOLS: [&str; 4] = [
    "forecast_balance",
    "get_net_worth_trend",
    "get_spending_trends",
    "get_age_of_money",
];

async fn server(era: Era, apps: bool) -> Harness {
    let mut options = Options::new(era);
    options.settings.writes_enabled = false;
    options.apps = apps;
    start_options(options).await
}

#[tokio::test]
async fn the_server_declares_the_extension() {
    for era in ERAS {
        for apps in [false, true] {
            let h = server(era, apps).await;
            let info = h.client.peer_info().expect("server info");
            let extensions = info.capabilities.extensions.clone().unwrap_or_default();
            assert_eq!(
                extensions.get("io.modelcontextprotocol/ui"),
                Some(&serde_json::Map::new()),
                "{era:?}"
            );
        }
    }
}

#[tokio::test]
async fn only_the_four_chart_tools_name_the_view_and_only_for_a_client_that_shows_apps() {
    for era in ERAS {
        let h = server(era, true).await;
        let tools = h.client.list_all_tools().await.expect("tools/list");
        let mut with_meta: Vec<&str> = tools
            .iter()
            .filter(|t| t.meta.is_some())
            .map(|t| t.name.as_ref())
            .collect();
        with_meta.sort_unstable();
        let mut expected = CHART_TOOLS;
        expected.sort_unstable();
        assert_eq!(with_meta, expected, "{era:?}");
        for tool in tools.iter().filter(|t| t.meta.is_some()) {
            let meta = serde_json::to_value(&tool.meta).expect("JSON");
            assert_eq!(
                meta,
                json!({"ui": {"resourceUri": CHARTS_URI}}),
                "{}",
                tool.name
            );
        }
        // The wire form: `_meta` beside the tool's other members.
        let forecast = tools
            .iter()
            .find(|t| t.name == "forecast_balance")
            .expect("listed");
        let wire = serde_json::to_value(forecast).expect("JSON");
        assert_eq!(wire["_meta"]["ui"]["resourceUri"], CHARTS_URI);

        let plain = server(era, false).await;
        let tools = plain.client.list_all_tools().await.expect("tools/list");
        assert!(tools.iter().all(|t| t.meta.is_none()), "{era:?}");
        assert_eq!(tools.len(), 20, "{era:?}: the read tools, writes off");
    }
}

async fn read_charts(h: &Harness) -> (String, String, Value) {
    let result = h
        .client
        .read_resource(ReadResourceRequestParams::new(CHARTS_URI))
        .await
        .expect("resources/read");
    assert_eq!(result.contents.len(), 1);
    match &result.contents[0] {
        ResourceContents::TextResourceContents {
            uri,
            text,
            mime_type,
            meta,
        } => {
            assert_eq!(uri, CHARTS_URI);
            (
                text.clone(),
                mime_type.clone().unwrap_or_default(),
                serde_json::to_value(meta).expect("JSON"),
            )
        }
        other => panic!("text expected, got {other:?}"),
    }
}

#[tokio::test]
async fn the_view_lists_and_reads_as_html_with_the_app_profile() {
    for era in ERAS {
        for apps in [false, true] {
            let h = server(era, apps).await;
            let resources = h.client.list_all_resources().await.expect("resources/list");
            let charts = resources
                .iter()
                .find(|r| r.uri == CHARTS_URI)
                .expect("the view is listed");
            assert_eq!(charts.mime_type.as_deref(), Some(MIME));
            assert_eq!(charts.name, "charts");
            let listed = serde_json::to_value(&charts.meta).expect("JSON");
            assert_eq!(listed, json!({"ui": {"prefersBorder": true}}));

            let (html, mime, meta) = read_charts(&h).await;
            assert_eq!(mime, MIME);
            assert_eq!(
                meta,
                json!({"ui": {"prefersBorder": true}}),
                "no csp: nothing fetched"
            );
            assert_eq!(html, include_str!("../assets/charts.html"));
            assert!(html.starts_with("<!DOCTYPE html>"));
            for piece in [
                "ui/initialize",
                "ui/notifications/initialized",
                "ui/notifications/tool-result",
                "ui/notifications/host-context-changed",
                "ui/notifications/size-changed",
                "avenir-mcp/currency_format",
            ] {
                assert!(html.contains(piece), "{piece}");
            }
        }
    }
}

/// The demo plan's currency format (`docs/contract/server.md` §8.1, D16).
fn euro() -> Value {
    json!({
        "iso_code": "EUR",
        "decimal_digits": 2,
        "decimal_separator": ".",
        "group_separator": ",",
        "symbol_first": false,
        "currency_symbol": "€",
        "display_symbol": true,
    })
}

#[tokio::test]
async fn chart_results_carry_the_currency_for_the_view_and_nothing_else_changes() {
    let calls = [
        ("forecast_balance", json!({"until": "2026-12"})),
        ("get_net_worth_trend", json!({})),
        ("get_spending_trends", json!({"months_count": 4})),
        ("get_age_of_money", json!({})),
    ];
    for era in ERAS {
        let apps = server(era, true).await;
        let plain = server(era, false).await;
        for (tool, arguments) in &calls {
            let shown = apps.call(tool, arguments.clone()).await;
            let before = plain.call(tool, arguments.clone()).await;
            assert_ne!(shown.is_error, Some(true), "{tool}: {:?}", shown.content);
            assert_eq!(
                shown.structured_content, before.structured_content,
                "{tool}"
            );
            assert_eq!(shown.content, before.content, "{tool}");
            let meta = meta_of(&shown);
            assert_eq!(meta["avenir-mcp/currency_format"], euro(), "{era:?} {tool}");
            let mut without = meta.clone();
            if let Some(map) = without.as_object_mut() {
                map.remove("avenir-mcp/currency_format");
            }
            let plain_meta = meta_of(&before);
            assert!(
                plain_meta.get("avenir-mcp/currency_format").is_none(),
                "{tool}"
            );
            // Everything else in _meta is as before (the request counters aside, which count
            // each server's own requests).
            for key in ["avenir-mcp/plan_id", "avenir-mcp/plan_name"] {
                assert_eq!(without[key], plain_meta[key], "{tool} {key}");
            }
        }
        // A tool that draws nothing gets no currency, even for a client that shows apps.
        let accounts = apps.call("list_accounts", json!({})).await;
        assert!(
            meta_of(&accounts)
                .get("avenir-mcp/currency_format")
                .is_none()
        );
    }
}
