//! Error bodies validate as the spec's `ErrorResponse`: 400 for a bad body or query, 401 without
//! a token, 404 for no such entity or route, 409 for a duplicate `import_id`, and the 429, 500
//! and 503 that the control API injects.

use super::checker::{Checker, plan_id};
use crate::common::id;
use serde_json::json;

#[tokio::test]
async fn error_bodies_are_error_responses() {
    let mut c = Checker::demo();
    let p = plan_id();
    // 400: a body naming an unknown account; a bad query parameter; a name over its limit.
    c.call(
        "POST",
        "/plans/{plan_id}/transactions",
        &[&p],
        "",
        Some(json!({"transaction": {"account_id": id("nowhere"), "date": "2026-09-20", "amount": -1_000}})),
        400,
    )
    .await;
    c.call(
        "GET",
        "/plans/{plan_id}/transactions",
        &[&p],
        "?type=everything",
        None,
        400,
    )
    .await;
    c.call(
        "PATCH",
        "/plans/{plan_id}/category_groups/{category_group_id}",
        &[&p, &id("grp-bills")],
        "",
        Some(json!({"category_group": {"name": "x".repeat(51)}})),
        400,
    )
    .await;
    // 401: no token.
    c.error("GET", "/v1/plans", None, 401).await;
    c.error("GET", &format!("/v1/plans/{p}/accounts"), Some(" "), 401)
        .await;
    // 404: no such plan, account or transaction; no such route.
    c.call("GET", "/plans/{plan_id}", &[&id("other")], "", None, 404)
        .await;
    c.call(
        "GET",
        "/plans/{plan_id}/accounts/{account_id}",
        &[&p, &id("nowhere")],
        "",
        None,
        404,
    )
    .await;
    c.call(
        "DELETE",
        "/plans/{plan_id}/transactions/{transaction_id}",
        &[&p, &id("nowhere")],
        "",
        None,
        404,
    )
    .await;
    c.call(
        "GET",
        "/plans/{plan_id}/money_movements",
        &[&p],
        "",
        None,
        404,
    )
    .await;
    c.error("GET", "/v1/nothing/here", Some("t"), 404).await;
    // 409: a single create whose import_id the account already has.
    let item = json!({"account_id": id("acc-checking"), "date": "2026-09-21", "amount": -3_000, "import_id": "bank-7"});
    c.call(
        "POST",
        "/plans/{plan_id}/transactions",
        &[&p],
        "",
        Some(json!({ "transaction": item })),
        201,
    )
    .await;
    c.call(
        "POST",
        "/plans/{plan_id}/transactions",
        &[&p],
        "",
        Some(json!({ "transaction": item })),
        409,
    )
    .await;
    // Injected 429 (with Retry-After), 500 and 503.
    for (status, fault) in [
        (
            429,
            json!({"count": 1, "kind": "status", "status": 429, "retry_after": "30"}),
        ),
        (500, json!({"count": 1, "kind": "status", "status": 500})),
        (503, json!({"count": 1, "kind": "status", "status": 503})),
    ] {
        let set = c
            .api
            .raw("POST", "/__sandbox/faults", Some(fault), None)
            .await;
        assert_eq!(set.status, 200, "{}", set.body);
        c.error("GET", "/v1/plans", Some("t"), status).await;
    }
    c.assert_clean();
}
