//! The plan-structure reads through the real MCP protocol, with a client of each era: tools and
//! their schemas, results (D27), errors (D23, D24), resources, the guide and the write gate.

use crate::common;

use common::{Era, Harness, id, start, text_of};
use rmcp::model::{ReadResourceRequestParams, ResourceContents};
use serde_json::{Value, json};

const ERAS: [Era; 2] = [Era::Modern, Era::Legacy];

fn names(tools: &[rmcp::model::Tool]) -> Vec<String> {
    tools.iter().map(|t| t.name.to_string()).collect()
}

#[tokio::test]
async fn both_eras_list_the_read_tools_with_annotations_and_schemas() {
    for era in ERAS {
        let h = start(era, false).await;
        let tools = h.client.list_all_tools().await.expect("tools/list");
        // The read tools of this build, in the order of `docs/contract/reads.md` §0; more land
        // later.
        let listed = names(&tools);
        let order = [
            "list_plans",
            "list_accounts",
            "list_category_groups",
            "list_payees",
            "list_scheduled_transactions",
            "find_transactions",
            "get_monthly_summary",
            "get_category_balances",
            "get_budget_vs_actual",
            "get_spending_trends",
            "suggest_categories",
        ];
        for tool in [
            "list_plans",
            "list_accounts",
            "list_category_groups",
            "list_payees",
            "get_monthly_summary",
            "get_category_balances",
            "get_budget_vs_actual",
            "get_spending_trends",
        ] {
            assert!(listed.iter().any(|l| l == tool), "{era:?}: {tool} listed");
        }
        let positions: Vec<usize> = listed
            .iter()
            .filter_map(|l| order.iter().position(|o| o == l))
            .collect();
        assert!(
            positions.windows(2).all(|w| w[0] < w[1]),
            "{era:?}: {listed:?}"
        );
        for tool in &tools {
            let a = tool.annotations.as_ref().expect("annotations");
            assert_eq!(a.read_only_hint, Some(true), "{}", tool.name);
            assert_eq!(a.idempotent_hint, Some(true), "{}", tool.name);
            assert_eq!(a.open_world_hint, Some(true), "{}", tool.name);
            assert_eq!(a.destructive_hint, None, "{}", tool.name);
            assert!(a.title.is_some());
            assert!(tool.output_schema.is_some(), "{}", tool.name);
            // Listed lean: the parser refuses an unknown member, the schema does not repeat it.
            assert_eq!(
                tool.input_schema.get("additionalProperties"),
                None,
                "{}",
                tool.name
            );
            let description = tool.description.as_deref().unwrap_or("");
            assert!(
                !description.contains("YNAB request once the plan is loaded"),
                "the cost is said once, in the guide (D28): {description}"
            );
        }
        let title = |name: &str| {
            tools
                .iter()
                .find(|t| t.name == name)
                .and_then(|t| t.title.clone())
                .unwrap_or_default()
        };
        for (name, expected) in [
            ("list_plans", "List plans"),
            ("list_accounts", "List accounts"),
            ("list_category_groups", "List category groups"),
            ("list_payees", "List payees"),
        ] {
            assert_eq!(title(name), expected);
        }
    }
}

#[tokio::test]
async fn server_identity_and_instructions_name_only_existing_tools() {
    for era in ERAS {
        let h = start(era, false).await;
        let info = h.client.peer_info().expect("server info");
        let server = info.server_info.as_ref().expect("server identity");
        assert_eq!(server.name, "avenir-mcp");
        assert_eq!(server.version, env!("CARGO_PKG_VERSION"));
        let instructions = info.instructions.clone().expect("instructions");
        assert!(instructions.starts_with("# avenir-mcp: how to work with this YNAB server"));
        // The YNAB method is in the guide resource only: the instructions are read every turn.
        assert!(!instructions.contains("YNAB method"));
        // What a call costs is said once, here (D28), not on every tool.
        assert!(
            instructions.contains("A call costs one YNAB request once its plan is loaded"),
            "{instructions}"
        );
        for tool in [
            "list_plans",
            "list_accounts",
            "list_category_groups",
            "list_payees",
        ] {
            assert!(instructions.contains(tool), "{era:?}: {tool} named");
        }
        // read-only: no write tool; and no tool this build lacks (D19)
        let listed = names(&h.client.list_all_tools().await.expect("tools/list"));
        for missing in [
            "apply_categories",
            "move_money",
            "suggest_categories",
            "reconcile_account",
            "forecast_balance",
        ] {
            if !listed.iter().any(|l| l == missing) {
                assert!(!instructions.contains(missing), "{era:?}: names {missing}");
            }
        }
    }
}

#[tokio::test]
async fn list_plans_returns_the_demo_plan_with_its_uuid() {
    for era in ERAS {
        let h = start(era, false).await;
        let result = h.call("list_plans", json!({})).await;
        let structured = result.structured_content.clone().expect("structured");
        assert_eq!(
            structured,
            json!({"result": [{
                "id": id("demo-budget"),
                "name": "Demo household",
                "first_month": "2026-06-01",
                "last_month": "2026-09-01"
            }]})
        );
        // D27: the text block holds the same JSON.
        let text: Value = serde_json::from_str(&text_of(&result)).expect("JSON text");
        assert_eq!(text, structured);
        assert_eq!(h.sandbox.stats().total, 1, "one YNAB request");
    }
}

#[tokio::test]
async fn list_accounts_shapes_every_account() {
    let h = start(Era::Modern, false).await;
    let accounts = h.ok("list_accounts", json!({"plan_id": "last-used"})).await;
    let list = accounts["result"].as_array().expect("a list");
    assert_eq!(list.len(), 6);
    let checking = &list[0];
    assert_eq!(checking["id"], json!(id("acc-checking")));
    assert_eq!(checking["name"], "Checking");
    assert_eq!(checking["type"], "checking");
    assert_eq!(checking["on_budget"], true);
    assert_eq!(checking["closed"], false);
    assert_eq!(checking["balance"], json!(3328.5));
    assert_eq!(checking["bank_link"], "healthy");
    assert_eq!(checking["last_reconciled"], "2026-08-31");
    let by_name = |name: &str| {
        list.iter()
            .find(|a| a["name"] == name)
            .unwrap_or_else(|| panic!("{name} listed"))
            .clone()
    };
    assert_eq!(by_name("Savings")["balance"], json!(600.0));
    assert_eq!(by_name("Savings")["bank_link"], "none");
    assert_eq!(by_name("Savings")["last_reconciled"], Value::Null);
    assert_eq!(by_name("Joint savings")["on_budget"], false);
    assert_eq!(by_name("Car loan")["balance"], json!(-19040.81));
    assert_eq!(by_name("Car loan")["type"], "autoLoan");
    assert_eq!(by_name("Student loan")["closed"], true);
    assert_eq!(by_name("Former bank")["balance"], json!(0.0));
    // the answer names the plan it used, resolved (D17)
    let result = h
        .call("list_accounts", json!({"plan_id": "last-used"}))
        .await;
    let meta = result.meta.expect("_meta");
    assert_eq!(meta.0["avenir-mcp/plan_id"], json!(id("demo-budget")));
}

#[tokio::test]
async fn list_category_groups_leaves_out_system_groups() {
    let h = start(Era::Legacy, false).await;
    let plan = id("demo-budget");
    let groups = h.ok("list_category_groups", json!({"plan_id": plan})).await;
    assert_eq!(
        groups,
        json!({"currency": "EUR", "result": [
            {"id": id("grp-bills"), "name": "Bills"},
            {"id": id("grp-everyday"), "name": "Everyday"},
            {"id": id("grp-fun"), "name": "Fun"},
            {"id": id("grp-savings-goals"), "name": "Savings goals"}
        ]})
    );
}

#[tokio::test]
async fn list_payees_counts_use_and_normalises_labels() {
    let h = start(Era::Modern, false).await;
    let all = h
        .ok("list_payees", json!({"plan_id": "last-used", "limit": 200}))
        .await;
    let payees = all["payees"].as_array().expect("payees");
    assert_eq!(all["shown"], json!(payees.len()));
    assert!(
        payees
            .iter()
            .all(|p| !p["name"].as_str().unwrap_or("").starts_with("Transfer : "))
    );
    // most used first, counts never increasing
    let counts: Vec<u64> = payees
        .iter()
        .map(|p| p["transactions"].as_u64().unwrap_or(0))
        .collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    let rail = payees
        .iter()
        .find(|p| p["name"] == "RAIL CO")
        .expect("RAIL CO listed");
    assert_eq!(
        rail["transactions"], 4,
        "June, July, August and the pending September charge"
    );
    assert_eq!(rail["last_date"], "2026-09-18");
    assert_eq!(rail["merchant"], "RAIL CO");

    let fresh = h
        .ok(
            "list_payees",
            json!({"plan_id": "last-used", "search": "market fresh"}),
        )
        .await;
    let fresh_list = fresh["payees"].as_array().expect("payees");
    assert!(!fresh_list.is_empty());
    assert!(fresh_list.iter().all(|p| p["merchant"] == "MARKET FRESH"));
    assert_eq!(fresh["total"], json!(fresh_list.len()));

    let one = h
        .ok("list_payees", json!({"plan_id": "last-used", "limit": 1}))
        .await;
    assert_eq!(one["shown"], 1);
    assert_eq!(one["total"], all["total"]);
}

#[tokio::test]
async fn bad_arguments_are_tool_errors_naming_the_field() {
    let h = start(Era::Modern, false).await;
    // D40: plan_id may be left out (plan_choice.rs), but a plan_id that is not a string is named.
    assert_eq!(
        h.error("list_accounts", json!({"plan_id": 3})).await,
        "Argument plan_id: must be a string, got a number."
    );
    assert_eq!(
        h.error("list_payees", json!({"plan_id": "last-used", "limit": 0}))
            .await,
        "Argument limit: must be an integer from 1 to 200, got 0."
    );
    assert_eq!(
        h.error("list_plans", json!({"plan": "x"})).await,
        "Argument plan: is not an argument of list_plans: it takes no argument."
    );
    assert_eq!(
        h.error("list_accounts", json!({"plan_id": "a/b"})).await,
        "'a/b' is not a YNAB id: use the ids returned by list_plans, list_accounts or the other tools."
    );
    assert_eq!(h.sandbox.stats().total, 0, "nothing was sent to YNAB");
    // an unknown plan is YNAB's 404, passed through without a prefix (D24)
    assert_eq!(
        h.error("list_accounts", json!({"plan_id": id("no-such-plan")}))
            .await,
        "YNAB 404: Resource not found"
    );
}

#[tokio::test]
async fn write_tools_and_unknown_tools_are_not_callable() {
    let h = start(Era::Legacy, false).await;
    let mut params = rmcp::model::CallToolRequestParams::new("set_category_budget");
    params = params.with_arguments(common::object(json!({"plan_id": "last-used"})));
    let error = h.client.call_tool(params).await.expect_err("unknown tool");
    assert!(error.to_string().contains("set_category_budget"), "{error}");
}

async fn read(h: &Harness, uri: &str) -> (String, String) {
    let result = h
        .client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .expect("resources/read");
    match &result.contents[0] {
        ResourceContents::TextResourceContents {
            text, mime_type, ..
        } => (text.clone(), mime_type.clone().unwrap_or_default()),
        other => panic!("text expected, got {other:?}"),
    }
}

#[tokio::test]
async fn resources_serve_compact_json_and_the_guide() {
    for era in ERAS {
        let h = start(era, false).await;
        let resources = h.client.list_all_resources().await.expect("resources/list");
        let uris: Vec<_> = resources.iter().map(|r| r.uri.clone()).collect();
        // the guide, the plans, and the MCP App's chart view (read in tests/mcp_app.rs)
        assert_eq!(
            uris,
            [
                "avenir-mcp://guide",
                "ynab://plans",
                "ui://avenir-mcp/charts.html"
            ]
        );
        let templates = h
            .client
            .list_all_resource_templates()
            .await
            .expect("templates");
        let uris: Vec<_> = templates.iter().map(|t| t.uri_template.clone()).collect();
        assert_eq!(
            uris,
            [
                "ynab://plans/{plan_id}/categories",
                "ynab://plans/{plan_id}/accounts"
            ]
        );

        let (guide, mime) = read(&h, "avenir-mcp://guide").await;
        assert_eq!(mime, "text/markdown");
        assert!(guide.contains("YNAB method"));

        let (plans, mime) = read(&h, "ynab://plans").await;
        assert_eq!(mime, "application/json");
        assert_eq!(
            plans,
            format!(
                "[{{\"plan_id\":\"{}\",\"name\":\"Demo household\",\"last_modified_on\":\"2026-09-20T00:00:00.000Z\"}}]",
                id("demo-budget")
            )
        );

        let (accounts, _) = read(&h, "ynab://plans/last-used/accounts").await;
        assert!(accounts.starts_with(&format!(
            "[{{\"account_id\":\"{}\",\"name\":\"Checking\",\"type\":\"checking\",\"on_budget\":true,\"balance\":3328.5}}",
            id("acc-checking")
        )), "{accounts}");
        let parsed: Value = serde_json::from_str(&accounts).expect("JSON");
        assert_eq!(
            parsed.as_array().map(Vec::len),
            Some(4),
            "closed accounts dropped"
        );

        let (categories, _) = read(&h, "ynab://plans/last-used/categories").await;
        let parsed: Value = serde_json::from_str(&categories).expect("JSON");
        let groups: Vec<_> = parsed
            .as_array()
            .expect("groups")
            .iter()
            .map(|g| g["group"].as_str().unwrap_or("").to_string())
            .collect();
        assert_eq!(groups, ["Bills", "Everyday", "Fun", "Savings goals"]);
        assert_eq!(
            parsed[1]["categories"][1],
            json!({"category_id": id("cat-restaurants"), "name": "Restaurants"})
        );

        let missing = h
            .client
            .read_resource(ReadResourceRequestParams::new(
                "ynab://plans/last-used/nothing",
            ))
            .await;
        assert!(missing.is_err());
    }
}

/// Strict validators (AJV in the MCP Inspector) refuse formats JSON Schema does not define, such
/// as schemars' `uint64`: no listed schema carries one.
#[tokio::test]
async fn every_schema_uses_standard_formats_only() {
    fn formats(value: &Value, found: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(f)) = map.get("format") {
                    found.push(f.clone());
                }
                map.values().for_each(|v| formats(v, found));
            }
            Value::Array(items) => items.iter().for_each(|v| formats(v, found)),
            _ => {}
        }
    }
    let h = common::start_options(common::Options::new(Era::Modern)).await;
    let tools = h.client.list_all_tools().await.expect("tools/list");
    for tool in tools {
        let mut found = Vec::new();
        formats(&serde_json::to_value(&tool).expect("json"), &mut found);
        for f in found {
            assert!(
                ["date", "date-time", "uuid", "uri", "email"].contains(&f.as_str()),
                "{}: format {f}",
                tool.name
            );
        }
    }
}
