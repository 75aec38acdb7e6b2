//! Every endpoint the sandbox serves, called once in a representative way, answers a body that
//! validates against the schema YNAB's OpenAPI spec declares for that operation and status.
//! Error bodies (400, 401, 404, 409, and the injected 429, 500 and 503) validate as
//! `ErrorResponse`.
//!
//! The spec (vendored at `crates/ynab/openapi/open_api_spec.yaml`) is read as `openapi/spec.rs` says. It has no
//! `/budgets` paths: a legacy alias is checked against its `/plans` operation after its
//! `budgets`/`budget`/`default_budget` members are renamed to the `plans` names.

#[path = "openapi/checker.rs"]
mod checker;
use crate::common;
#[path = "openapi/errors.rs"]
mod errors;
#[path = "openapi/spec.rs"]
mod spec;

use checker::{Checker, id_in, plan_id};
use common::{Api, id};
use serde_json::json;

#[tokio::test]
async fn user_plans_settings_and_export() {
    let mut c = Checker::demo();
    let p = plan_id();
    c.call("GET", "/user", &[], "", None, 200).await;
    c.call("GET", "/plans", &[], "", None, 200).await;
    c.call("GET", "/plans", &[], "?include_accounts=true", None, 200)
        .await;
    c.call("GET", "/plans/{plan_id}", &[&p], "", None, 200)
        .await;
    c.call("GET", "/plans/{plan_id}", &["last-used"], "", None, 200)
        .await;
    c.call("GET", "/plans/{plan_id}/settings", &[&p], "", None, 200)
        .await;

    // A delta that holds a new, a changed and a deleted entity of several kinds.
    let made = c
        .call(
            "POST",
            "/plans/{plan_id}/payees",
            &[&p],
            "",
            Some(json!({"payee": {"name": "Dentist"}})),
            201,
        )
        .await;
    assert_eq!(id_in(&made, "payee").len(), 36);
    let tx = id("tx-046");
    c.call(
        "DELETE",
        "/plans/{plan_id}/transactions/{transaction_id}",
        &[&p, &tx],
        "",
        None,
        200,
    )
    .await;
    let delta = c
        .call(
            "GET",
            "/plans/{plan_id}",
            &[&p],
            "?last_knowledge_of_server=1",
            None,
            200,
        )
        .await;
    let deleted = &delta["data"]["plan"]["transactions"];
    assert_eq!(deleted[0]["deleted"], true, "the delta holds {deleted}");

    c.call("GET", "/budgets", &[], "", None, 200).await;
    c.call("GET", "/budgets/{plan_id}", &[&p], "", None, 200)
        .await;
    c.call(
        "GET",
        "/budgets/{plan_id}",
        &[&p],
        "?last_knowledge_of_server=1",
        None,
        200,
    )
    .await;
    c.call("GET", "/budgets/{plan_id}/settings", &[&p], "", None, 200)
        .await;
    c.call("GET", "/budgets/{plan_id}/accounts", &[&p], "", None, 200)
        .await;
    c.assert_clean();
}

#[tokio::test]
async fn accounts_categories_and_groups() {
    let mut c = Checker::demo();
    let p = plan_id();
    let checking = id("acc-checking");
    let loan = id("acc-car-loan");
    let restaurants = id("cat-restaurants");
    let transport = id("cat-transport");
    c.call("GET", "/plans/{plan_id}/accounts", &[&p], "", None, 200)
        .await;
    for account in [&checking, &loan] {
        c.call(
            "GET",
            "/plans/{plan_id}/accounts/{account_id}",
            &[&p, account],
            "",
            None,
            200,
        )
        .await;
    }
    c.call(
        "POST",
        "/plans/{plan_id}/accounts",
        &[&p],
        "",
        Some(json!({"account": {"name": "Wallet", "type": "cash", "balance": 50_000}})),
        201,
    )
    .await;

    c.call("GET", "/plans/{plan_id}/categories", &[&p], "", None, 200)
        .await;
    for category in [&restaurants, &transport, &id("cat-rent")] {
        c.call(
            "GET",
            "/plans/{plan_id}/categories/{category_id}",
            &[&p, category],
            "",
            None,
            200,
        )
        .await;
    }
    for month in ["2026-08-01", "current"] {
        c.call(
            "GET",
            "/plans/{plan_id}/months/{month}/categories/{category_id}",
            &[&p, month, &transport],
            "",
            None,
            200,
        )
        .await;
    }
    c.call(
        "PATCH",
        "/plans/{plan_id}/months/{month}/categories/{category_id}",
        &[&p, "2026-09-01", &restaurants],
        "",
        Some(json!({"category": {"budgeted": 142_500}})),
        200,
    )
    .await;

    let group = c
        .call(
            "POST",
            "/plans/{plan_id}/category_groups",
            &[&p],
            "",
            Some(json!({"category_group": {"name": "Kids"}})),
            201,
        )
        .await;
    let group_id = id_in(&group, "category_group");
    c.call(
        "PATCH",
        "/plans/{plan_id}/category_groups/{category_group_id}",
        &[&p, &group_id],
        "",
        Some(json!({"category_group": {"name": "Children"}})),
        200,
    )
    .await;
    let made = c
        .call(
            "POST",
            "/plans/{plan_id}/categories",
            &[&p],
            "",
            Some(json!({"category": {"name": "School", "category_group_id": group_id, "goal_target": 300_000, "goal_target_date": "2027-06-01"}})),
            201,
        )
        .await;
    let category_id = id_in(&made, "category");
    c.call(
        "PATCH",
        "/plans/{plan_id}/categories/{category_id}",
        &[&p, &category_id],
        "",
        Some(json!({"category": {"name": "School fees", "note": "books", "goal_target": 1_200_000, "goal_frequency": "yearly"}})),
        200,
    )
    .await;
    c.call("GET", "/budgets/{plan_id}/categories", &[&p], "", None, 200)
        .await;
    c.assert_clean();
}

#[tokio::test]
async fn months_payees_and_locations() {
    let mut c = Checker::demo();
    let p = plan_id();
    c.call("GET", "/plans/{plan_id}/months", &[&p], "", None, 200)
        .await;
    c.call(
        "GET",
        "/plans/{plan_id}/months",
        &[&p],
        "?last_knowledge_of_server=1",
        None,
        200,
    )
    .await;
    for month in ["2026-06-01", "2026-09-01", "current", "2027-09-01"] {
        c.call(
            "GET",
            "/plans/{plan_id}/months/{month}",
            &[&p, month],
            "",
            None,
            200,
        )
        .await;
    }

    let payee = id("pay-streamflix");
    c.call("GET", "/plans/{plan_id}/payees", &[&p], "", None, 200)
        .await;
    c.call(
        "GET",
        "/plans/{plan_id}/payees/{payee_id}",
        &[&p, &payee],
        "",
        None,
        200,
    )
    .await;
    c.call(
        "PATCH",
        "/plans/{plan_id}/payees/{payee_id}",
        &[&p, &payee],
        "",
        Some(json!({"payee": {"name": "Streamflix Ltd"}})),
        200,
    )
    .await;
    c.call(
        "GET",
        "/plans/{plan_id}/payees",
        &[&p],
        "?last_knowledge_of_server=1",
        None,
        200,
    )
    .await;
    c.call(
        "GET",
        "/plans/{plan_id}/payee_locations",
        &[&p],
        "",
        None,
        200,
    )
    .await;
    c.call(
        "GET",
        "/plans/{plan_id}/payees/{payee_id}/payee_locations",
        &[&p, &payee],
        "",
        None,
        200,
    )
    .await;
    c.call(
        "GET",
        "/plans/{plan_id}/payee_locations/{payee_location_id}",
        &[&p, &id("no-such-location")],
        "",
        None,
        404,
    )
    .await;
    c.assert_clean();
}

#[tokio::test]
async fn transactions_lists_and_writes() {
    let mut c = Checker::demo();
    let p = plan_id();
    let checking = id("acc-checking");
    let groceries = id("cat-groceries");
    let list = "/plans/{plan_id}/transactions";
    let one = "/plans/{plan_id}/transactions/{transaction_id}";

    let split = c
        .call(
            "POST",
            list,
            &[&p],
            "",
            Some(json!({"transaction": {
                "account_id": checking, "date": "2026-09-20", "amount": -30_000,
                "payee_name": "HYPER", "category_id": null,
                "subtransactions": [
                    {"amount": -20_000, "category_id": groceries},
                    {"amount": -10_000, "category_id": id("cat-restaurants"), "memo": "lunch"}
                ]
            }})),
            201,
        )
        .await;
    let split_id = id_in(&split, "transaction");
    let bulk = c
        .call(
            "POST",
            list,
            &[&p],
            "",
            Some(json!({"transactions": [
                {"account_id": checking, "date": "2026-09-21", "amount": -3_000,
                 "payee_name": "BOULANGERIE", "import_id": "YNAB:-3000:2026-09-21:1"},
                {"account_id": checking, "date": "2026-09-21", "amount": -3_000,
                 "payee_name": "BOULANGERIE", "import_id": "YNAB:-3000:2026-09-21:1"}
            ]})),
            201,
        )
        .await;
    assert_eq!(
        bulk["data"]["duplicate_import_ids"],
        json!(["YNAB:-3000:2026-09-21:1"])
    );
    c.call(
        "PATCH",
        list,
        &[&p],
        "",
        Some(json!({"transactions": [
            {"id": id("tx-046"), "category_id": groceries, "approved": true, "cleared": "reconciled"},
            {"import_id": "YNAB:-3000:2026-09-21:1", "memo": "croissants", "flag_color": "purple"}
        ]})),
        200,
    )
    .await;
    let transfer = c
        .call(
            "POST",
            list,
            &[&p],
            "",
            Some(json!({"transaction": {"account_id": checking, "date": "2026-09-23", "amount": -150_000, "payee_id": id("pay-transfer-savings"), "memo": "top up"}})),
            201,
        )
        .await;
    let transfer_id = id_in(&transfer, "transaction");

    for query in [
        "",
        "?since_date=2026-09-01",
        "?type=uncategorized",
        "?type=unapproved",
        "?last_knowledge_of_server=1",
        "?since_date=2026-09-01&type=unapproved&last_knowledge_of_server=1",
    ] {
        c.call("GET", list, &[&p], query, None, 200).await;
    }
    for account in [&checking, &id("acc-savings"), &id("acc-car-loan")] {
        c.call(
            "GET",
            "/plans/{plan_id}/accounts/{account_id}/transactions",
            &[&p, account],
            "",
            None,
            200,
        )
        .await;
    }
    c.call(
        "GET",
        "/plans/{plan_id}/categories/{category_id}/transactions",
        &[&p, &groceries],
        "",
        None,
        200,
    )
    .await;
    c.call(
        "GET",
        "/plans/{plan_id}/categories/{category_id}/transactions",
        &[&p, &groceries],
        "?last_knowledge_of_server=1",
        None,
        200,
    )
    .await;
    for payee in [id("pay-streamflix"), id("pay-transfer-savings")] {
        c.call(
            "GET",
            "/plans/{plan_id}/payees/{payee_id}/transactions",
            &[&p, &payee],
            "",
            None,
            200,
        )
        .await;
    }
    c.call(
        "GET",
        "/plans/{plan_id}/months/{month}/transactions",
        &[&p, "2026-09-01"],
        "",
        None,
        200,
    )
    .await;

    for t in [&split_id, &transfer_id, &id("tx-054")] {
        c.call("GET", one, &[&p, t], "", None, 200).await;
    }
    c.call(
        "PUT",
        one,
        &[&p, &id("tx-054")],
        "",
        Some(json!({"transaction": {"category_id": id("cat-transport"), "memo": "rail card", "flag_color": "red", "approved": false}})),
        200,
    )
    .await;
    c.call("DELETE", one, &[&p, &transfer_id], "", None, 200)
        .await;
    c.call(
        "POST",
        "/plans/{plan_id}/transactions/import",
        &[&p],
        "",
        None,
        200,
    )
    .await;
    c.call("GET", list, &[&p], "?last_knowledge_of_server=1", None, 200)
        .await;
    c.call(
        "GET",
        "/budgets/{plan_id}/transactions",
        &[&p],
        "?type=unapproved",
        None,
        200,
    )
    .await;
    c.assert_clean();
}

#[tokio::test]
async fn scheduled_transactions() {
    let mut c = Checker::demo();
    let p = plan_id();
    let list = "/plans/{plan_id}/scheduled_transactions";
    let one = "/plans/{plan_id}/scheduled_transactions/{scheduled_transaction_id}";
    c.call("GET", list, &[&p], "", None, 200).await;
    c.call("GET", list, &[&p], "?last_knowledge_of_server=1", None, 200)
        .await;
    for s in [id("sch-rent"), id("sch-salary"), id("sch-savings")] {
        c.call("GET", one, &[&p, &s], "", None, 200).await;
    }
    let made = c
        .call(
            "POST",
            list,
            &[&p],
            "",
            Some(json!({"scheduled_transaction": {"account_id": id("acc-checking"), "date": "2026-10-15", "amount": -13_490, "payee_id": id("pay-streamflix"), "category_id": id("cat-subscriptions"), "frequency": "monthly", "memo": "film", "flag_color": "green"}})),
            201,
        )
        .await;
    let made_id = id_in(&made, "scheduled_transaction");
    c.call(
        "PUT",
        one,
        &[&p, &made_id],
        "",
        Some(json!({"scheduled_transaction": {"account_id": id("acc-checking"), "date": "2026-11-15", "amount": -14_990, "payee_id": id("pay-transfer-savings"), "frequency": "everyOtherMonth"}})),
        200,
    )
    .await;
    c.call("DELETE", one, &[&p, &made_id], "", None, 200).await;
    c.call("GET", list, &[&p], "?last_knowledge_of_server=1", None, 200)
        .await;
    c.assert_clean();
}

/// The generated plan (`--plan heavy`, here 6 months of 40) has what the demo lacks: bank-label
/// payees by the thousand, pending transactions, twenty schedules.
#[tokio::test]
async fn the_heavy_plan_answers_validate_too() {
    let plan = ynab_sandbox::heavy::heavy_plan(1, 6, 40, ynab_sandbox::demo::DEMO_TODAY);
    let mut c = Checker::over(Api::over(plan));
    let p = "last-used";
    for path in [
        "/plans/{plan_id}",
        "/plans/{plan_id}/accounts",
        "/plans/{plan_id}/categories",
        "/plans/{plan_id}/months",
        "/plans/{plan_id}/payees",
        "/plans/{plan_id}/transactions",
        "/plans/{plan_id}/scheduled_transactions",
    ] {
        c.call("GET", path, &[p], "", None, 200).await;
    }
    c.call("GET", "/plans", &[], "", None, 200).await;
    c.call(
        "GET",
        "/plans/{plan_id}/months/{month}",
        &[p, "current"],
        "",
        None,
        200,
    )
    .await;
    c.call(
        "GET",
        "/plans/{plan_id}/transactions",
        &[p],
        "?type=uncategorized",
        None,
        200,
    )
    .await;
    c.assert_clean();
}
