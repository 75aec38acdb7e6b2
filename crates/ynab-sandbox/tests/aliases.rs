//! The legacy `/budgets/…` paths: every route answers as under `/plans/…`, and the plan-level
//! members keep their old names (`budgets`, `budget`, `default_budget`; `docs/contract/server.md`
//! §10.2).

use crate::common;

use common::*;
use serde_json::json;

fn budget(rest: &str) -> String {
    format!("/budgets/{}{rest}", id("demo-budget"))
}

#[tokio::test]
async fn budgets_paths_keep_the_old_member_names() {
    let api = Api::demo();
    let list = api.get("/budgets?include_accounts=true").await;
    assert_eq!(list["budgets"][0]["id"], id("demo-budget"));
    assert_eq!(
        list["budgets"][0]["accounts"].as_array().map(Vec::len),
        Some(6)
    );
    assert!(list.get("default_budget").is_some_and(|v| v.is_null()));
    assert!(list.get("plans").is_none() && list.get("default_plan").is_none());

    let export = api.get(&budget("")).await;
    assert_eq!(
        export["budget"]["transactions"].as_array().map(Vec::len),
        Some(226)
    );
    assert_eq!(export["server_knowledge"], 1);
    assert!(export.get("plan").is_none());
    assert_eq!(
        api.get("/budgets/last-used").await["budget"]["id"],
        id("demo-budget")
    );
    let delta = api.get(&budget("?last_knowledge_of_server=1")).await;
    assert_eq!(delta["budget"]["transactions"], json!([]));
}

#[tokio::test]
async fn every_other_route_answers_the_same_under_budgets() {
    let api = Api::demo();
    for rest in [
        "/settings",
        "/accounts",
        "/categories",
        "/months",
        "/months/current",
        "/payees",
        "/transactions?since_date=2026-09-01",
        "/scheduled_transactions",
    ] {
        assert_eq!(
            api.get(&budget(rest)).await,
            api.get(&plan(rest)).await,
            "{rest}"
        );
    }
    let made = api
        .call(
            "POST",
            &budget("/transactions"),
            Some(json!({"transaction": {"account_id": id("acc-checking"), "date": "2026-09-20", "amount": -5_000}})),
        )
        .await;
    assert_eq!(made.status, 201);
    let new_id = made.data()["transaction"]["id"]
        .as_str()
        .expect("id")
        .to_owned();
    assert_eq!(
        api.get(&plan(&format!("/transactions/{new_id}"))).await["transaction"]["amount"],
        -5_000
    );
    let budgeted = api
        .call(
            "PATCH",
            &budget(&format!("/months/current/categories/{}", id("cat-tennis"))),
            Some(json!({"category": {"budgeted": 120_000}})),
        )
        .await;
    assert_eq!(budgeted.data()["category"]["budgeted"], 120_000);
    assert_eq!(
        api.call("GET", "/budgets/nope/accounts", None).await.status,
        404
    );
}
