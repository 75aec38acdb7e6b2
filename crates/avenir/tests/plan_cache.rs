//! The YNAB request cost of reads through the protocol (issue 3/5): one request to load a plan,
//! one delta per later read (none within AVENIR_MCP_FRESH_SECONDS), the hourly budget, and the
//! request accounting in each result's `_meta`.

use crate::common;

use avenir::Settings;
use common::{Era, id, meta_of, start, start_with, today};
use serde_json::json;

fn settings(fresh_seconds: u64) -> Settings {
    Settings {
        writes_enabled: false,
        today: Some(today()),
        fresh_seconds,
        toolsets: avenir::tools::toolsets::Toolsets::all(),
        ..Settings::default()
    }
}

#[tokio::test]
async fn a_loaded_plan_costs_one_delta_request_per_read() {
    let h = start(Era::Modern, false).await;
    let plan = json!({"plan_id": "last-used"});
    let first = h.call("list_accounts", plan.clone()).await;
    assert_eq!(
        h.served(),
        1,
        "the first read loads the plan with one request"
    );
    assert_eq!(meta_of(&first)["avenir-mcp/ynab_requests"], 1);
    assert_eq!(meta_of(&first)["avenir-mcp/ynab_requests_left"], 179);
    let routes = h.sandbox.stats().routes;
    assert_eq!(
        routes.get("GET /v1/plans/{plan_id}"),
        Some(&1),
        "{routes:?}"
    );

    let second = h.call("list_payees", plan.clone()).await;
    assert_eq!(h.served(), 2, "a later read is one delta request");
    assert_eq!(meta_of(&second)["avenir-mcp/ynab_requests"], 1);
    assert_eq!(meta_of(&second)["avenir-mcp/ynab_requests_left"], 178);

    // the alias stays resolved: the real id reads the same cache
    h.call(
        "list_category_groups",
        json!({"plan_id": id("demo-budget")}),
    )
    .await;
    assert_eq!(h.served(), 3);
}

#[tokio::test]
async fn a_change_made_elsewhere_arrives_with_the_next_delta() {
    let h = start(Era::Legacy, false).await;
    let plan = json!({"plan_id": "last-used"});
    h.ok("list_payees", plan.clone()).await;
    let other = h.other_app();
    other
        .rename_payee(&id("demo-budget"), &id("pay-rail-co"), "RAIL COMPANY")
        .await
        .expect("the other app renames a payee");
    let before = h.served();
    let payees = h
        .ok(
            "list_payees",
            json!({"plan_id": "last-used", "search": "rail"}),
        )
        .await;
    assert_eq!(h.served(), before + 1, "one delta");
    let names: Vec<_> = payees["payees"]
        .as_array()
        .map(|p| {
            p.iter()
                .map(|p| p["name"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(names, ["RAIL COMPANY"]);
}

#[tokio::test]
async fn within_fresh_seconds_reads_cost_nothing() {
    let h = start_with(Era::Modern, settings(300), ynab::Pacer::memory(180)).await;
    let plan = json!({"plan_id": "last-used"});
    h.ok("list_accounts", plan.clone()).await;
    let result = h.call("list_payees", plan.clone()).await;
    h.ok("list_category_groups", plan).await;
    assert_eq!(h.served(), 1, "only the first load reached YNAB");
    assert_eq!(meta_of(&result)["avenir-mcp/ynab_requests"], 0);
}

#[tokio::test]
async fn a_burst_never_passes_the_hourly_budget() {
    let h = start_with(Era::Modern, settings(0), ynab::Pacer::memory(180)).await;
    let plan = json!({"plan_id": "last-used"});
    let mut refused = Vec::new();
    for _ in 0..300 {
        let result = h.call("list_accounts", plan.clone()).await;
        if result.is_error == Some(true) {
            refused.push(common::text_of(&result));
        }
    }
    assert_eq!(h.served(), 180, "never more than the budget");
    assert_eq!(refused.len(), 120);
    assert!(
        refused[0].starts_with(
            "avenir-mcp sent 180 requests to YNAB in the last hour, close to YNAB's limit of 200 per hour. Nothing was sent: the next request can leave in 60 minutes."
        ),
        "{}",
        refused[0]
    );
    assert!(refused.iter().all(|m| !m.contains("YNAB 429")));
}

#[tokio::test]
async fn a_read_after_our_own_write_asks_for_the_delta_even_when_fresh() {
    let mut settings = settings(300);
    settings.writes_enabled = true;
    let h = start_with(Era::Modern, settings, ynab::Pacer::memory(180)).await;
    let month = json!({"plan_id": "last-used", "month": "2026-09"});
    let before = h.ok("get_category_balances", month.clone()).await;
    let args = json!({"plan_id": "last-used", "month": "2026-09", "category_id": id("cat-restaurants"), "amount": 150});
    let preview = h.ok("set_category_budget", args.clone()).await;
    let mut confirmed = args.clone();
    confirmed["confirmation"] = preview["confirmation"].clone();
    let served = h.served();
    let applied = h.call("set_category_budget", confirmed).await;
    assert_eq!(
        meta_of(&applied)["avenir-mcp/ynab_requests"],
        2,
        "a delta for the re-check, one PATCH"
    );
    assert_eq!(h.served(), served + 2);
    let after = h.call("get_category_balances", month).await;
    assert_eq!(
        meta_of(&after)["avenir-mcp/ynab_requests"],
        1,
        "the write made the cache stale"
    );
    let restaurants = |v: &serde_json::Value| {
        v["result"]
            .as_array()
            .and_then(|l| l.iter().find(|c| c["name"] == "Restaurants").cloned())
            .map(|c| c["budgeted"].clone())
    };
    assert_eq!(restaurants(&before), Some(json!(120.0)));
    let after = after.structured_content.expect("structured");
    assert_eq!(restaurants(&after), Some(json!(150.0)));
}

#[tokio::test]
async fn when_ynab_gives_up_on_the_export_the_plan_loads_by_kind() {
    use ynab_sandbox::faults::Fault;
    let h = start(Era::Modern, false).await;
    // YNAB answers 503 to the full export of a very large plan (three tries for a read)
    h.sandbox
        .inject(Fault::status(3, Some("GET /plans/{plan_id}"), 503));
    let accounts = h
        .ok("list_accounts", json!({"plan_id": id("demo-budget")}))
        .await;
    let checking = &accounts["result"][0];
    assert_eq!(checking["name"], "Checking");
    assert_eq!(checking["balance"], json!(3328.5));
    let routes = h.sandbox.stats().routes;
    assert_eq!(
        routes.get("GET /v1/plans/{plan_id}"),
        Some(&3),
        "{routes:?}"
    );
    assert_eq!(
        routes.get("GET /v1/plans/{plan_id}/transactions"),
        Some(&1),
        "{routes:?}"
    );
    // the loaded plan answers the month tools too, from the current month's detail
    let balances = h
        .ok(
            "get_category_balances",
            json!({"plan_id": id("demo-budget"), "month": "2026-09"}),
        )
        .await;
    assert!(balances["result"].as_array().is_some_and(|l| !l.is_empty()));
    // another month: its categories are fetched once, then kept
    let before = h.served();
    let august = h
        .ok(
            "get_category_balances",
            json!({"plan_id": id("demo-budget"), "month": "2026-08"}),
        )
        .await;
    let restaurants = august["result"]
        .as_array()
        .and_then(|l| l.iter().find(|c| c["name"] == "Restaurants").cloned())
        .expect("Restaurants in August");
    assert_eq!(restaurants["activity"], json!(-89.1));
    assert_eq!(h.served(), before + 2, "a delta, then the month once");
    let routes = h.sandbox.stats().routes;
    assert_eq!(
        routes.get("GET /v1/plans/{plan_id}/months/{month}"),
        Some(&2),
        "{routes:?}"
    );
    // later reads are deltas of the export as usual
    let before = h.served();
    h.ok("list_payees", json!({"plan_id": id("demo-budget")}))
        .await;
    assert_eq!(h.served(), before + 1);
}
