//! The MCP App (extension `io.modelcontextprotocol/ui`, stable 2026-01-26; `docs/mcp-app.md`):
//! one `ui://` resource, the chart view, and the four chart tools that point to it.
//!
//! Everything the extension changes is decided here: a client that declared the extension sees
//! `_meta.ui.resourceUri` on the four tools and, in their results, the plan's currency format
//! under `_meta["avenir-mcp/currency_format"]` (the view writes amounts with it). A client that
//! did not declare it gets today's tools and answers unchanged (the spec's "Servers SHOULD check
//! client capabilities before registering UI-enabled tools").

use crate::text::safe;
use crate::tools::AnswerTool;
use crate::tools::forecast_balance::ForecastBalance;
use crate::tools::get_age_of_money::GetAgeOfMoney;
use crate::tools::get_net_worth_trend::GetNetWorthTrend;
use crate::tools::get_spending_trends::GetSpendingTrends;
use rmcp::model::{
    ClientCapabilities, ExtensionCapabilities, MetaObject, ReadResourceResult, Resource,
    ResourceContents,
};
use serde_json::{Map, Value, json};

/// The extension's identifier, in both sides' `capabilities.extensions`.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/ui";
/// The MIME type of an MCP App's HTML (the resource's, and one the client must list).
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";
/// The chart view.
pub const CHARTS_URI: &str = "ui://avenir-mcp/charts.html";
/// Its HTML: inline script and style, no network (the host's default CSP allows exactly that).
pub const CHARTS_HTML: &str = include_str!("../../assets/charts.html");
/// The tools whose answers the view draws.
pub const CHART_TOOLS: [&str; 4] = [
    ForecastBalance::NAME,
    GetNetWorthTrend::NAME,
    GetSpendingTrends::NAME,
    GetAgeOfMoney::NAME,
];
/// Key of a chart tool's result `_meta` giving the plan's currency format (extension clients).
pub const META_CURRENCY: &str = "avenir-mcp/currency_format";

/// The client declared the extension with the HTML profile among its `mimeTypes` (on this
/// request for 2026-07-28, at initialisation before).
pub fn client_shows_apps(capabilities: Option<&ClientCapabilities>) -> bool {
    capabilities
        .and_then(|c| c.extensions.as_ref())
        .and_then(|extensions| extensions.get(EXTENSION_ID))
        .and_then(|settings| settings.get("mimeTypes"))
        .and_then(Value::as_array)
        .is_some_and(|types| types.iter().any(|t| t.as_str() == Some(MIME_TYPE)))
}

/// What the server declares under `capabilities.extensions`.
pub fn server_extensions() -> ExtensionCapabilities {
    let mut extensions = ExtensionCapabilities::new();
    extensions.insert(EXTENSION_ID.to_string(), Map::new());
    extensions
}

/// The tool draws a chart in the view.
pub fn is_chart_tool(name: &str) -> bool {
    CHART_TOOLS.contains(&name)
}

/// A chart tool's `_meta`: `{"ui": {"resourceUri": …}}` (visibility left out: the default, model
/// and app).
pub fn tool_meta() -> MetaObject {
    let mut meta = Map::new();
    meta.insert("ui".into(), json!({ "resourceUri": CHARTS_URI }));
    MetaObject(meta)
}

/// The resource's `_meta.ui`: no `csp` (nothing to fetch: the host's restrictive default), and a
/// border, since the view draws on a plain background.
fn resource_meta() -> MetaObject {
    let mut meta = Map::new();
    meta.insert("ui".into(), json!({ "prefersBorder": true }));
    MetaObject(meta)
}

/// The entry of `resources/list`.
pub fn resource() -> Resource {
    Resource::new(CHARTS_URI, "charts")
        .with_title("Charts of the forecast, net worth, spending and Age of Money")
        .with_mime_type(MIME_TYPE)
        .with_description(
            "MCP App view: draws the answer of forecast_balance, get_net_worth_trend, \
get_spending_trends or get_age_of_money as a line chart, following the host's theme.",
        )
        .with_meta(resource_meta())
}

/// `resources/read` of [`CHARTS_URI`].
pub fn read() -> ReadResourceResult {
    ReadResourceResult::new(vec![
        ResourceContents::text(CHARTS_HTML, CHARTS_URI)
            .with_mime_type(MIME_TYPE)
            .with_meta(resource_meta()),
    ])
}

/// The plan's currency format for the view: YNAB's fields, its texts through the display rule.
pub fn currency_meta(format: &ynab::models::CurrencyFormat) -> Value {
    json!({
        "iso_code": safe(&format.iso_code),
        "decimal_digits": format.decimal_digits,
        "decimal_separator": safe(&format.decimal_separator),
        "group_separator": safe(&format.group_separator),
        "symbol_first": format.symbol_first,
        "currency_symbol": safe(&format.currency_symbol),
        "display_symbol": format.display_symbol,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capabilities(value: Value) -> ClientCapabilities {
        serde_json::from_value(value).unwrap_or_default()
    }

    #[test]
    fn only_a_client_listing_the_html_profile_shows_apps() {
        assert!(client_shows_apps(Some(&capabilities(json!({
            "extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}
        })))));
        for other in [
            json!({}),
            json!({"extensions": {}}),
            json!({"extensions": {"io.modelcontextprotocol/ui": {}}}),
            json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html"]}}}),
            json!({"extensions": {"io.modelcontextprotocol/apps": {"mimeTypes": ["text/html;profile=mcp-app"]}}}),
        ] {
            assert!(
                !client_shows_apps(Some(&capabilities(other.clone()))),
                "{other}"
            );
        }
        assert!(!client_shows_apps(None));
    }

    #[test]
    fn the_view_is_self_contained() {
        assert!(CHARTS_HTML.starts_with("<!DOCTYPE html>"));
        // Nothing fetched: no external script, style, font or image, no request API.
        for banned in [
            "http://",
            "https://",
            "src=",
            "@import",
            "fetch(",
            "XMLHttpRequest",
            "WebSocket",
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
        ] {
            let hits: Vec<&str> = CHARTS_HTML
                .lines()
                .filter(|l| l.contains(banned))
                .filter(|l| !l.contains("http://www.w3.org/2000/svg"))
                .collect();
            assert!(hits.is_empty(), "{banned}: {hits:?}");
        }
    }
}
