//! D40 through the protocol: `plan_id` may be left out. With one plan on the token, reads and
//! writes use it; with several, a read answers for the plan last used and names it, a write is
//! refused with the plans named and nothing is sent.

use crate::common;

use common::{Era, Harness, Options, meta_of, start_options, today};
use serde_json::json;
use ynab_sandbox::builder::{PlanBuilder, date};

fn second_plan() -> ynab_sandbox::PlanState {
    let mut b = PlanBuilder::new("side-business", "Side business", today());
    b.months(date("2026-08-01"), date("2026-09-01"));
    b.account("acc-biz", "Business checking", "checking", true);
    b.group("grp-biz", "Business");
    b.category("cat-tools", "grp-biz", "Tools");
    b.build()
}

async fn with_plans(others: Vec<ynab_sandbox::PlanState>) -> Harness {
    let mut options = Options::new(Era::Modern);
    options.other_plans = others;
    start_options(options).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_plan_reads_and_writes_without_plan_id() {
    let harness = with_plans(Vec::new()).await;
    let plan_id = harness.sandbox.plan_id();
    let result = harness.call("list_accounts", json!({})).await;
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let meta = meta_of(&result);
    assert_eq!(meta["avenir-mcp/plan_id"], json!(plan_id));
    assert_eq!(meta["avenir-mcp/plan_name"], json!("Demo household"));
    let accounts = result.structured_content.clone().expect("structured");
    assert!(
        accounts["result"]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x["name"] == "Checking"))
    );
    // The answer says which plan it read.
    let said: Vec<String> = result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect();
    assert!(
        said.iter()
            .any(|t| t.starts_with("Answered for Demo household")),
        "{said:?}"
    );

    // A write with one plan on the token: previewed for it (a code, this client cannot ask).
    let categories = harness
        .ok(
            "get_category_balances",
            json!({"plan_id": plan_id, "month": "2026-09"}),
        )
        .await;
    let groceries = categories["result"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["name"] == "Groceries"))
        .map(|c| c["category_id"].as_str().unwrap_or_default().to_string())
        .expect("Groceries");
    let preview = harness
        .ok(
            "set_category_budget",
            json!({"month": "2026-09", "category_id": groceries, "amount": 480}),
        )
        .await;
    assert_eq!(preview["status"], "confirmation_required", "{preview}");
    let code = preview["confirmation"]
        .as_str()
        .expect("a code")
        .to_string();
    let applied = harness
        .ok(
            "set_category_budget",
            json!({"month": "2026-09", "category_id": groceries, "amount": 480, "confirmation": code}),
        )
        .await;
    assert_eq!(applied["status"], "applied", "{applied}");
    let assigned = harness.sandbox.with_plan(|p| {
        p.assigned
            .get(&("2026-09-01".to_string(), groceries.clone()))
            .copied()
    });
    assert_eq!(assigned, Some(480_000));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_plans_read_the_last_used_and_refuse_an_unnamed_write() {
    let harness = with_plans(vec![second_plan()]).await;
    let plan_id = harness.sandbox.plan_id();
    let plans = harness.ok("list_plans", json!({})).await;
    assert_eq!(plans["result"].as_array().map(Vec::len), Some(2));

    let result = harness.call("list_accounts", json!({})).await;
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let meta = meta_of(&result);
    assert_eq!(meta["avenir-mcp/plan_id"], json!(plan_id));
    assert_eq!(meta["avenir-mcp/plan_name"], json!("Demo household"));

    // The other plan is read when named.
    let other = plans["result"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["name"] == "Side business"))
        .map(|p| p["id"].as_str().unwrap_or_default().to_string())
        .expect("the second plan is listed");
    let accounts = harness.ok("list_accounts", json!({"plan_id": other})).await;
    assert_eq!(accounts["result"][0]["name"], "Business checking");

    // A write that leaves plan_id out is refused, naming the plans; nothing is sent.
    let before = harness.served();
    let message = harness
        .error(
            "set_category_budget",
            json!({"month": "2026-09", "category_id": "anything", "amount": 10}),
        )
        .await;
    assert_eq!(
        message,
        "Name the plan: this token reads 2 plans (Demo household, Side business). Pass plan_id from list_plans."
    );
    let stats = harness.sandbox.stats();
    assert_eq!(harness.served() - before, 1, "only GET /plans: {stats:?}");
    assert!(
        stats.routes.keys().all(|r| !r.starts_with("PATCH")),
        "nothing written: {stats:?}"
    );
    let journal = std::fs::read_to_string(&harness.journal).unwrap_or_default();
    assert!(journal.is_empty(), "nothing journaled: {journal}");
}
