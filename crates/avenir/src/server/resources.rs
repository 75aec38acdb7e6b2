//! The resources (`docs/contract/server.md` §4.2): the guide, compact JSON views of a plan's list,
//! accounts and categories, and the MCP App's chart view (`app.rs`). Each `ynab://` read costs one
//! YNAB request; names pass the display rule.

use super::AvenirServer;
use crate::logic::categories::visible_by_group;
use crate::money::Amount;
use crate::text::safe;
use rmcp::ErrorData as McpError;
use rmcp::model::{ReadResourceResult, Resource, ResourceContents, ResourceTemplate};
use serde::Serialize;
use serde_json::json;

// Resource entries are structs, not `json!` maps, so keys keep the documented order.

#[derive(Serialize)]
struct PlanResource<'a> {
    plan_id: &'a str,
    name: String,
    last_modified_on: Option<&'a str>,
}

#[derive(Serialize)]
struct AccountResource<'a> {
    account_id: &'a str,
    name: String,
    #[serde(rename = "type")]
    kind: &'a str,
    on_budget: bool,
    balance: Amount,
}

#[derive(Serialize)]
struct CategoryResource<'a> {
    category_id: &'a str,
    name: String,
}

#[derive(Serialize)]
struct GroupResource<'a> {
    group: String,
    categories: Vec<CategoryResource<'a>>,
}

pub const GUIDE_URI: &str = "avenir-mcp://guide";
pub const PLANS_URI: &str = "ynab://plans";

pub fn static_resources() -> Vec<Resource> {
    vec![
        Resource::new(GUIDE_URI, "guide")
            .with_mime_type("text/markdown")
            .with_description("How to use this server's tools, and the YNAB method in brief."),
        Resource::new(PLANS_URI, "plans")
            .with_mime_type("application/json")
            .with_description("The plans (budgets) the token can read, with the ids tools need."),
        super::app::resource(),
    ]
}

pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new("ynab://plans/{plan_id}/categories", "categories")
            .with_mime_type("application/json")
            .with_description("A plan's assignable categories by group, with their ids."),
        ResourceTemplate::new("ynab://plans/{plan_id}/accounts", "accounts")
            .with_mime_type("application/json")
            .with_description("A plan's open accounts, balances in currency units."),
    ]
}

fn contents(uri: &str, mime: &str, text: String) -> ReadResourceResult {
    ReadResourceResult::new(vec![ResourceContents::text(text, uri).with_mime_type(mime)])
}

fn json_contents<T: Serialize>(uri: &str, value: &T) -> Result<ReadResourceResult, McpError> {
    // serde_json writes compact JSON and keeps non-ASCII as UTF-8.
    serde_json::to_string(value)
        .map(|text| contents(uri, "application/json", text))
        .map_err(|e| {
            McpError::internal_error(format!("The resource could not be written: {e}."), None)
        })
}

fn failed(error: ynab::Error) -> McpError {
    McpError::internal_error(error.to_string(), None)
}

/// Read `uri`.
pub async fn read(server: &AvenirServer, uri: &str) -> Result<ReadResourceResult, McpError> {
    if uri == GUIDE_URI {
        return Ok(contents(uri, "text/markdown", server.guide()));
    }
    if uri == super::app::CHARTS_URI {
        return Ok(super::app::read());
    }
    let plans = &server.context().plans;
    if uri == PLANS_URI {
        let list = plans.client().plans().await.map_err(failed)?;
        let value: Vec<PlanResource> = list
            .iter()
            .map(|p| PlanResource {
                plan_id: &p.id,
                name: safe(&p.name),
                last_modified_on: p.last_modified_on.as_deref(),
            })
            .collect();
        return json_contents(uri, &value);
    }
    let parts: Vec<&str> = uri
        .strip_prefix("ynab://plans/")
        .map(|rest| rest.split('/').collect())
        .unwrap_or_default();
    let not_found =
        || McpError::resource_not_found("Resource not found", Some(json!({"uri": uri})));
    let [plan_id, kind] = parts.as_slice() else {
        return Err(not_found());
    };
    if !matches!(*kind, "accounts" | "categories") {
        return Err(not_found());
    }
    let snapshot = plans.read(plan_id).await.map_err(|error| match error {
        ynab::Error::BadSegment(_) => McpError::invalid_params(error.to_string(), None),
        other => failed(other),
    })?;
    let plan = &snapshot.plan;
    if *kind == "accounts" {
        let accounts: Vec<AccountResource> = plan
            .accounts
            .iter()
            .filter(|a| !a.deleted && !a.closed)
            .map(|a| AccountResource {
                account_id: &a.id,
                name: safe(&a.name),
                kind: &a.kind,
                on_budget: a.on_budget,
                balance: Amount(a.balance),
            })
            .collect();
        json_contents(uri, &accounts)
    } else {
        let groups: Vec<GroupResource> = visible_by_group(&plan.category_groups, &plan.categories)
            .into_iter()
            .map(|(group, categories)| GroupResource {
                group: safe(&group.name),
                categories: categories
                    .iter()
                    .map(|c| CategoryResource {
                        category_id: &c.id,
                        name: safe(&c.name),
                    })
                    .collect(),
            })
            .collect();
        json_contents(uri, &groups)
    }
}
