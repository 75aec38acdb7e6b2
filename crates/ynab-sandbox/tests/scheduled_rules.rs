//! Scheduled transactions as YNAB saves them (docs/contract/server.md §10.8, §10.9): a date after
//! today and at most five years ahead, no split, no credit-card payment category, a PUT that
//! replaces the whole schedule, a transfer between budget accounts without category, and a deleted
//! schedule served as a tombstone with every field in a delta.

use crate::common;

use common::*;
use serde_json::{Value, json};
use ynab_sandbox::demo;

fn rent_save(changes: Value) -> Value {
    let mut s = json!({"account_id": id("acc-checking"), "date": "2026-10-03", "amount": -950_000,
        "category_id": id("cat-rent"), "frequency": "monthly"});
    if let (Some(s), Some(c)) = (s.as_object_mut(), changes.as_object()) {
        for (k, v) in c {
            s.insert(k.clone(), v.clone());
        }
    }
    json!({"scheduled_transaction": s})
}

fn rent_path() -> String {
    plan(&format!("/scheduled_transactions/{}", id("sch-rent")))
}

#[tokio::test]
async fn dates_must_be_future_and_at_most_five_years_ahead() {
    let api = Api::demo();
    for date in ["2026-09-25", "2026-01-01", "2031-09-26"] {
        let answer = api
            .call("PUT", &rent_path(), Some(rent_save(json!({"date": date}))))
            .await;
        assert_eq!(answer.error().0, 400, "{date}");
    }
    let ok = api
        .call(
            "PUT",
            &rent_path(),
            Some(rent_save(json!({"date": "2031-09-25"}))),
        )
        .await;
    assert_eq!(
        ok.data()["scheduled_transaction"]["date_next"],
        "2031-09-25"
    );
}

#[tokio::test]
async fn a_put_replaces_the_whole_schedule() {
    let api = Api::demo();
    let answer = api
        .call(
            "PUT",
            &rent_path(),
            Some(json!({"scheduled_transaction": {"account_id": id("acc-checking"), "date": "2026-10-03", "amount": -975_000}})),
        )
        .await;
    let s = &answer.data()["scheduled_transaction"];
    assert_eq!(s["amount"], -975_000);
    assert_eq!(s["date_first"], "2026-06-03", "the start stays");
    assert_eq!(s["date_next"], "2026-10-03");
    assert_eq!(s["category_id"], Value::Null, "a field left out is cleared");
    assert_eq!(s["frequency"], "never");
}

#[tokio::test]
async fn no_credit_card_payment_category() {
    let mut p = demo::demo_plan(demo::DEMO_TODAY);
    let group = p
        .categories
        .iter()
        .find(|c| c.id == id("cat-rent"))
        .map(|c| c.category_group_id.clone())
        .unwrap_or_default();
    for g in p.groups.iter_mut().filter(|g| g.id == group) {
        g.name = "Credit Card Payments".into();
    }
    let api = Api::over(p);
    let answer = api
        .call("PUT", &rent_path(), Some(rent_save(json!({}))))
        .await;
    let (status, _, _, detail) = answer.error();
    assert_eq!(status, 400);
    assert!(detail.contains("credit card payment"), "{detail}");
    let created = api
        .call(
            "POST",
            &plan("/scheduled_transactions"),
            Some(rent_save(json!({}))),
        )
        .await;
    assert_eq!(created.error().0, 400);
}

#[tokio::test]
async fn no_split_schedule() {
    let api = Api::demo();
    let body = rent_save(json!({"subtransactions": [{"amount": -500_000}, {"amount": -450_000}]}));
    let answer = api
        .call("POST", &plan("/scheduled_transactions"), Some(body))
        .await;
    assert_eq!(answer.error().0, 400);
}

#[tokio::test]
async fn a_transfer_between_budget_accounts_takes_no_category() {
    let api = Api::demo();
    let payees = api.get(&plan("/payees")).await;
    let savings = payees["payees"]
        .as_array()
        .and_then(|l| {
            l.iter()
                .find(|p| p["transfer_account_id"] == json!(id("acc-savings")))
        })
        .map(|p| p["id"].clone())
        .unwrap_or_default();
    let answer = api
        .call(
            "PUT",
            &rent_path(),
            Some(rent_save(json!({"payee_id": savings}))),
        )
        .await;
    let s = &answer.data()["scheduled_transaction"];
    assert_eq!(s["transfer_account_id"], json!(id("acc-savings")));
    assert_eq!(s["category_id"], Value::Null);
}

#[tokio::test]
async fn a_deleted_schedule_is_a_tombstone_with_every_field_in_a_delta() {
    let api = Api::demo();
    let knowledge = api.get(&plan("/scheduled_transactions")).await["server_knowledge"].clone();
    api.call("DELETE", &rent_path(), None).await;
    assert_eq!(api.call("GET", &rent_path(), None).await.error().0, 404);
    let full = api.get(&plan("/scheduled_transactions")).await;
    assert!(
        !full["scheduled_transactions"]
            .as_array()
            .is_some_and(|l| l.iter().any(|s| s["id"] == json!(id("sch-rent")))),
        "a full read leaves it out"
    );
    let delta = api
        .get(&plan(&format!(
            "/scheduled_transactions?last_knowledge_of_server={knowledge}"
        )))
        .await;
    let s = &delta["scheduled_transactions"][0];
    assert_eq!(s["id"], json!(id("sch-rent")));
    assert_eq!(s["deleted"], true);
    assert_eq!(
        (
            &s["amount"],
            &s["date_next"],
            &s["frequency"],
            &s["category_id"]
        ),
        (
            &json!(-950_000),
            &json!("2026-10-03"),
            &json!("monthly"),
            &json!(id("cat-rent"))
        )
    );
    assert_eq!(
        api.call("PUT", &rent_path(), Some(rent_save(json!({}))))
            .await
            .error()
            .0,
        404,
        "a deleted schedule cannot be saved"
    );
}
