//! YNAB's error answers: 400 `bad_request` with a detail naming the field, 404.2
//! `resource_not_found`, 404.1 `not_found`, 409 `conflict`, 401 `unauthorized`; and a refused
//! write changes nothing.

use crate::common;

use common::*;
use serde_json::{Value, json};

fn bad(detail: &str) -> (u16, String, String, String) {
    (400, "400".into(), "bad_request".into(), detail.into())
}

fn not_found() -> (u16, String, String, String) {
    (
        404,
        "404.2".into(),
        "resource_not_found".into(),
        "Resource not found".into(),
    )
}

fn tx(extra: Value) -> Value {
    let mut base =
        json!({"account_id": id("acc-checking"), "date": "2026-09-20", "amount": -1_000});
    if let (Value::Object(b), Value::Object(e)) = (&mut base, extra) {
        b.extend(e);
    }
    json!({ "transaction": base })
}

#[tokio::test]
async fn bad_transaction_bodies_name_the_field() {
    let api = Api::demo();
    let post = |body: Value| {
        let api = &api;
        async move {
            api.call("POST", &plan("/transactions"), Some(body))
                .await
                .error()
        }
    };
    let cases: Vec<(Value, &str)> = vec![
        (
            json!({"transaction": {"date": "2026-09-20", "amount": 1}}),
            "account_id is required",
        ),
        (
            tx(json!({"account_id": "nope"})),
            "account_id 'nope' does not exist",
        ),
        (
            tx(json!({"category_id": "nope"})),
            "category_id 'nope' does not exist",
        ),
        (
            tx(json!({"payee_id": "nope"})),
            "payee_id 'nope' does not exist",
        ),
        (
            tx(json!({"amount": 1.5})),
            "amount must be an integer number of milliunits",
        ),
        (
            tx(json!({"amount": "-1000"})),
            "amount must be an integer number of milliunits",
        ),
        (tx(json!({"amount": null})), "amount is required"),
        (
            tx(json!({"memo": "m".repeat(501)})),
            "memo must be at most 500 characters",
        ),
        (
            tx(json!({"payee_name": "p".repeat(201)})),
            "payee_name must be at most 200 characters",
        ),
        (
            tx(json!({"import_id": "i".repeat(37)})),
            "import_id must be at most 36 characters",
        ),
        (
            tx(json!({"date": "2026-09-26"})),
            "date must not be in the future (use a scheduled transaction)",
        ),
        (
            tx(json!({"date": "2026-13-01"})),
            "date must be a date formatted as YYYY-MM-DD",
        ),
        (
            tx(json!({"date": "26/09/2026"})),
            "date must be a date formatted as YYYY-MM-DD",
        ),
        (
            tx(json!({"cleared": "yes"})),
            "cleared must be one of: 'cleared', 'uncleared', 'reconciled'",
        ),
        (
            tx(json!({"approved": "true"})),
            "approved must be true or false",
        ),
        (
            tx(json!({"subtransactions": [{"amount": -600}, {"amount": -300}]})),
            "subtransactions amounts must sum to the transaction's amount (-900 ≠ -1000 milliunits)",
        ),
        (
            tx(
                json!({"subtransactions": [{"amount": -600, "category_id": "nope"}, {"amount": -400}]}),
            ),
            "subtransactions[0].category_id 'nope' does not exist",
        ),
        (
            tx(json!({"subtransactions": [{"amount": -600.5}, {"amount": -400}]})),
            "subtransactions[0].amount must be an integer number of milliunits",
        ),
        (
            tx(
                json!({"category_id": id("cat-rent"), "subtransactions": [{"amount": -600}, {"amount": -400}]}),
            ),
            "category_id must be null when subtransactions are sent",
        ),
        (
            tx(json!({"payee_id": id("pay-transfer-checking")})),
            "payee_id is the transfer payee of the transaction's own account",
        ),
        (
            tx(
                json!({"account_id": id("acc-joint-savings"), "subtransactions": [{"amount": -600}, {"amount": -400}]}),
            ),
            "subtransactions are not allowed on a tracking account",
        ),
        (
            json!({"transaction": tx(json!({}))["transaction"], "transactions": []}),
            "send either transaction or transactions, not both",
        ),
        (json!({}), "transaction or transactions is required"),
        (json!({"transaction": 3}), "transaction must be an object"),
        (
            json!({"transactions": [tx(json!({}))["transaction"], {"account_id": id("acc-checking"), "date": "2026-09-20"}]}),
            "amount is required (index: 1)",
        ),
    ];
    for (body, detail) in cases {
        assert_eq!(post(body.clone()).await, bad(detail), "body {body}");
    }
    let garbage = api
        .raw(
            "POST",
            &format!("/v1{}", plan("/transactions")),
            None,
            Some("t"),
        )
        .await;
    assert_eq!(
        garbage.error().3,
        "The request body is empty: a JSON object is required"
    );
    assert_eq!(
        api.get(&plan("/transactions")).await["server_knowledge"],
        1,
        "no refused write changed the plan"
    );
    assert_eq!(
        api.get(&plan("/transactions")).await["transactions"]
            .as_array()
            .map(Vec::len),
        Some(226)
    );
}

#[tokio::test]
async fn bad_updates_and_bulk_patches() {
    let api = Api::demo();
    let patch = |items: Value| {
        let api = &api;
        async move {
            api.call(
                "PATCH",
                &plan("/transactions"),
                Some(json!({"transactions": items})),
            )
            .await
            .error()
        }
    };
    assert_eq!(
        patch(json!([{"id": "nope"}])).await,
        bad("id 'nope' does not exist (index: 0)")
    );
    assert_eq!(
        patch(json!([{"id": id("tx-046"), "approved": true}, {"memo": "x"}])).await,
        bad("id or import_id is required (index: 1)")
    );
    assert_eq!(
        patch(json!([{"id": null, "import_id": "never-seen"}])).await,
        bad("import_id 'never-seen' does not match any transaction (index: 0)")
    );
    assert_eq!(
        patch(json!([{"id": id("tx-046"), "flag_color": "pink"}])).await,
        bad(
            "flag_color must be one of: 'red', 'orange', 'yellow', 'green', 'blue', 'purple', '' (index: 0)"
        )
    );
    assert_eq!(
        patch(json!([{"id": id("tx-046"), "account_id": null}])).await,
        bad("account_id must not be null (index: 0)")
    );
    assert_eq!(
        api.call(
            "PATCH",
            &plan("/transactions"),
            Some(json!({"transaction": {}}))
        )
        .await
        .error(),
        bad("transactions is required")
    );
    // An existing split keeps its lines and its category.
    let split = api
        .call(
            "POST",
            &plan("/transactions"),
            Some(tx(
                json!({"subtransactions": [{"amount": -600}, {"amount": -400}]}),
            )),
        )
        .await;
    let split_id = split.data()["transaction"]["id"]
        .as_str()
        .expect("id")
        .to_owned();
    let url = plan(&format!("/transactions/{split_id}"));
    let put = |body: Value| {
        let api = &api;
        let url = url.clone();
        async move {
            api.call("PUT", &url, Some(json!({"transaction": body})))
                .await
                .error()
        }
    };
    assert_eq!(
        put(json!({"subtransactions": [{"amount": -1000}]})).await,
        bad("subtransactions of an existing split cannot be changed")
    );
    assert_eq!(
        put(json!({"category_id": id("cat-rent")})).await,
        bad("category_id of a split cannot be changed")
    );
    // Amount and date changes on a split are ignored, as the spec says.
    let ignored = api
        .call(
            "PUT",
            &url,
            Some(json!({"transaction": {"amount": -5, "date": "2026-09-01", "memo": "ok"}})),
        )
        .await;
    let t = &ignored.data()["transaction"];
    assert_eq!(
        (t["amount"].clone(), t["date"].clone(), t["memo"].clone()),
        (json!(-1000), json!("2026-09-20"), json!("ok"))
    );
    assert_eq!(
        api.call(
            "PUT",
            &plan("/transactions/nope"),
            Some(json!({"transaction": {"memo": "x"}}))
        )
        .await
        .error(),
        not_found()
    );
    assert_eq!(
        api.call(
            "PUT",
            &plan(&format!("/transactions/{}", id("tx-046"))),
            Some(json!({"memo": "x"}))
        )
        .await
        .error(),
        bad("transaction is required")
    );
}

#[tokio::test]
async fn conflicts() {
    let api = Api::demo();
    let make = |account: &str| json!({"account_id": id(account), "date": "2026-09-20", "amount": -1_000, "import_id": "SAME"});
    let both = api
        .call(
            "POST",
            &plan("/transactions"),
            Some(json!({"transactions": [make("acc-checking"), make("acc-savings")]})),
        )
        .await;
    assert_eq!(
        both.data()["transaction_ids"].as_array().map(Vec::len),
        Some(2),
        "unique per account"
    );
    let answer = api
        .call(
            "PATCH",
            &plan("/transactions"),
            Some(json!({"transactions": [{"import_id": "SAME", "memo": "which?"}]})),
        )
        .await;
    assert_eq!(
        answer.error(),
        (
            409,
            "409".into(),
            "conflict".into(),
            "import_id 'SAME' matches 2 transactions (on different accounts): update them by id (index: 0)".into()
        )
    );
    let single = api
        .call(
            "POST",
            &plan("/transactions"),
            Some(json!({"transaction": make("acc-checking")})),
        )
        .await;
    assert_eq!(
        single.error(),
        (
            409,
            "409".into(),
            "conflict".into(),
            "A transaction with import_id 'SAME' already exists on this account".into()
        )
    );
}

#[tokio::test]
async fn bad_category_group_payee_and_schedule_bodies() {
    let api = Api::demo();
    let call = |method: &'static str, path: String, body: Value| {
        let api = &api;
        async move { api.call(method, &path, Some(body)).await.error() }
    };
    let month_cat = plan(&format!("/months/2026-09-01/categories/{}", id("cat-rent")));
    assert_eq!(
        call("PATCH", month_cat.clone(), json!({"category": {}})).await,
        bad("budgeted is required")
    );
    assert_eq!(
        call(
            "PATCH",
            month_cat.clone(),
            json!({"category": {"budgeted": 1.25}})
        )
        .await,
        bad("budgeted must be an integer number of milliunits")
    );
    assert_eq!(
        call("PATCH", month_cat, json!({"budgeted": 1})).await,
        bad("category is required")
    );
    assert_eq!(
        call(
            "PATCH",
            plan(&format!(
                "/months/2026-09-01/categories/{}",
                id("cat-inflow")
            )),
            json!({"category": {"budgeted": 1}})
        )
        .await,
        bad(&format!(
            "category '{}' is internal (managed by YNAB): nothing can be assigned to it",
            id("cat-inflow")
        ))
    );
    assert_eq!(
        call(
            "PATCH",
            plan("/months/sept/categories/x"),
            json!({"category": {"budgeted": 1}})
        )
        .await,
        bad("month must be a date formatted as YYYY-MM-DD or 'current'")
    );
    assert_eq!(
        call(
            "POST",
            plan("/category_groups"),
            json!({"category_group": {"name": "g".repeat(51)}})
        )
        .await,
        bad("name must be at most 50 characters")
    );
    assert_eq!(
        call(
            "POST",
            plan("/category_groups"),
            json!({"category_group": {"name": "  "}})
        )
        .await,
        bad("name must not be blank")
    );
    assert_eq!(
        call(
            "POST",
            plan("/categories"),
            json!({"category": {"name": "X"}})
        )
        .await,
        bad("category_group_id is required")
    );
    assert_eq!(
        call("POST", plan("/categories"), json!({"category": {"name": "X", "category_group_id": id("grp-internal-master-category")}})).await,
        bad("category_group_id names an internal category group, which cannot be used")
    );
    assert_eq!(
        call(
            "POST",
            plan("/categories"),
            json!({"category": {"name": "X", "category_group_id": "nope"}})
        )
        .await,
        bad("category_group_id 'nope' does not exist")
    );
    let rent = plan(&format!("/categories/{}", id("cat-rent")));
    assert_eq!(
        call(
            "PATCH",
            rent.clone(),
            json!({"category": {"goal_frequency": "weekly"}})
        )
        .await,
        bad("goal_frequency requires goal_target")
    );
    assert_eq!(
        call("PATCH", rent.clone(), json!({"category": {"goal_target": 1, "goal_frequency": "monthly", "goal_target_date": "2026-12-01"}})).await,
        bad("goal_frequency cannot be combined with goal_target_date")
    );
    assert_eq!(
        call(
            "PATCH",
            rent.clone(),
            json!({"category": {"goal_frequency": "daily", "goal_target": 1}})
        )
        .await,
        bad("goal_frequency must be one of: 'monthly', 'weekly', 'yearly'")
    );
    assert_eq!(
        call(
            "PATCH",
            rent.clone(),
            json!({"category": {"goal_target_date": "soon"}})
        )
        .await,
        bad("goal_target_date must be a date formatted as YYYY-MM-DD")
    );
    assert_eq!(
        call(
            "PATCH",
            rent,
            json!({"category": {"category_group_id": null}})
        )
        .await,
        bad("category_group_id must not be null")
    );
    assert_eq!(
        call(
            "PATCH",
            plan(&format!("/categories/{}", id("cat-inflow"))),
            json!({"category": {"name": "X"}})
        )
        .await,
        bad(&format!(
            "category '{}' is internal (managed by YNAB) and cannot be changed",
            id("cat-inflow")
        ))
    );
    let payee = plan(&format!("/payees/{}", id("pay-rail-co")));
    assert_eq!(
        call(
            "PATCH",
            payee.clone(),
            json!({"payee": {"name": "n".repeat(501)}})
        )
        .await,
        bad("name must be at most 500 characters")
    );
    assert_eq!(
        call("PATCH", payee, json!({"payee": {}})).await,
        bad("name is required")
    );
    assert_eq!(
        call(
            "PATCH",
            plan(&format!("/payees/{}", id("pay-transfer-savings"))),
            json!({"payee": {"name": "X"}})
        )
        .await,
        bad(&format!(
            "payee '{}' is an account's transfer payee and cannot be renamed",
            id("pay-transfer-savings")
        ))
    );
    let schedule = |date: &str| json!({"scheduled_transaction": {"account_id": id("acc-checking"), "date": date, "amount": -1}});
    let future = "date must be in the future and no more than 5 years ahead";
    assert_eq!(
        call(
            "POST",
            plan("/scheduled_transactions"),
            schedule("2026-09-25")
        )
        .await,
        bad(future)
    );
    assert_eq!(
        call(
            "POST",
            plan("/scheduled_transactions"),
            schedule("2031-09-26")
        )
        .await,
        bad(future)
    );
    assert_eq!(
        call(
            "POST",
            plan("/scheduled_transactions"),
            json!({"scheduled_transaction": {"account_id": id("acc-checking")}})
        )
        .await,
        bad("date is required")
    );
    assert_eq!(
        call("POST", plan("/scheduled_transactions"), json!({"scheduled_transaction": {"account_id": id("acc-checking"), "date": "2026-10-01", "frequency": "hourly"}})).await.3,
        "frequency must be one of: 'never', 'daily', 'weekly', 'everyOtherWeek', 'twiceAMonth', 'every4Weeks', 'monthly', 'everyOtherMonth', 'every3Months', 'every4Months', 'twiceAYear', 'yearly', 'everyOtherYear'"
    );
    assert_eq!(
        call(
            "POST",
            plan("/accounts"),
            json!({"account": {"name": "Loan", "type": "mortgage", "balance": 0}})
        )
        .await,
        bad(
            "type must be one of: 'checking', 'savings', 'cash', 'creditCard', 'otherAsset', 'otherLiability'"
        )
    );
    assert_eq!(api.get(&plan("/payees")).await["server_knowledge"], 1);
}

#[tokio::test]
async fn bad_queries() {
    let api = Api::demo();
    assert_eq!(
        api.call(
            "GET",
            &plan("/transactions?last_knowledge_of_server=abc"),
            None
        )
        .await
        .error(),
        bad("last_knowledge_of_server must be an integer")
    );
    assert_eq!(
        api.call("GET", &plan("/transactions?type=pending"), None)
            .await
            .error(),
        bad("type must be 'uncategorized' or 'unapproved'")
    );
    assert_eq!(
        api.call("GET", &plan("/transactions?since_date=yesterday"), None)
            .await
            .error(),
        bad("since_date must be a date formatted as YYYY-MM-DD")
    );
    assert_eq!(
        api.call("GET", "/plans?include_accounts=yes", None)
            .await
            .error(),
        bad("include_accounts must be true or false")
    );
}

#[tokio::test]
async fn unknown_entities_are_404_2() {
    let api = Api::demo();
    for path in [
        "/plans/nope".to_owned(),
        "/plans/nope/accounts".to_owned(),
        plan("/accounts/nope"),
        plan("/accounts/nope/transactions"),
        plan("/categories/nope"),
        plan("/categories/nope/transactions"),
        plan("/months/2020-01-01"),
        plan("/months/2027-10-01"),
        plan("/months/2026-09-01/categories/nope"),
        plan("/months/2020-01-01/transactions"),
        plan("/payees/nope"),
        plan("/payees/nope/transactions"),
        plan("/payees/nope/payee_locations"),
        plan("/transactions/nope"),
        plan("/scheduled_transactions/nope"),
    ] {
        assert_eq!(
            api.call("GET", &path, None).await.error(),
            not_found(),
            "{path}"
        );
    }
    for (method, path, body) in [
        ("DELETE", plan("/transactions/nope"), None),
        ("DELETE", plan("/scheduled_transactions/nope"), None),
        (
            "PATCH",
            plan("/categories/nope"),
            Some(json!({"category": {"name": "x"}})),
        ),
        (
            "PATCH",
            plan("/category_groups/nope"),
            Some(json!({"category_group": {"name": "x"}})),
        ),
        (
            "PATCH",
            plan("/payees/nope"),
            Some(json!({"payee": {"name": "x"}})),
        ),
        (
            "PATCH",
            plan("/months/2026-09-01/categories/nope"),
            Some(json!({"category": {"budgeted": 1}})),
        ),
        (
            "PATCH",
            "/plans/nope/transactions".to_owned(),
            Some(json!({"transactions": []})),
        ),
    ] {
        assert_eq!(
            api.call(method, &path, body).await.error(),
            not_found(),
            "{method} {path}"
        );
    }
}

#[tokio::test]
async fn unknown_routes_are_404_1_and_tokens_are_required() {
    let api = Api::demo();
    let route = api.call("GET", &plan("/nothing"), None).await.error();
    assert_eq!(
        route,
        (
            404,
            "404.1".into(),
            "not_found".into(),
            format!("Not found: GET /v1/plans/{}/nothing", id("demo-budget"))
        )
    );
    let method = api.call("DELETE", &plan("/accounts"), None).await.error();
    assert_eq!((method.0, method.1), (404, "404.1".into()));
    let outside = api.raw("GET", "/elsewhere", None, None).await.error();
    assert_eq!((outside.0, outside.1), (404, "404.1".into()));
    let unauthorized = (
        401,
        "401".into(),
        "unauthorized".into(),
        "Unauthorized".into(),
    );
    assert_eq!(
        api.raw("GET", "/v1/plans", None, None).await.error(),
        unauthorized
    );
    assert_eq!(
        api.raw("GET", "/v1/plans", None, Some(" ")).await.error(),
        unauthorized
    );
    assert_eq!(
        api.raw("GET", "/v1/plans", None, Some("any")).await.status,
        200
    );
}
