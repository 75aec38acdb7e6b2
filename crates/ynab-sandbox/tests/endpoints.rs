//! One representative call of every endpoint the sandbox serves, with the exact outcome: status,
//! shape and figures, on the demo plan of `docs/contract/server.md` §8.1.

use crate::common;

use common::*;
use serde_json::{Value, json};

#[tokio::test]
async fn user_plans_settings_and_export() {
    let api = Api::demo();
    assert_eq!(api.get("/user").await["user"]["id"], id("sandbox-user"));

    let plans = api.get("/plans").await;
    assert_eq!(plans["plans"].as_array().map(Vec::len), Some(1));
    assert_eq!(plans["plans"][0]["id"], id("demo-budget"));
    assert_eq!(plans["plans"][0]["name"], "Demo household");
    assert_eq!(plans["plans"][0]["first_month"], "2026-06-01");
    assert!(plans["plans"][0].get("accounts").is_none());
    assert_eq!(plans["default_plan"], Value::Null);
    let with = api.get("/plans?include_accounts=true").await;
    assert_eq!(
        with["plans"][0]["accounts"].as_array().map(Vec::len),
        Some(6)
    );

    let settings = api.get(&plan("/settings")).await;
    assert_eq!(settings["settings"]["currency_format"]["iso_code"], "EUR");
    assert_eq!(settings["settings"]["date_format"]["format"], "DD/MM/YYYY");

    let export = api.get(&plan("")).await;
    assert_eq!(export["server_knowledge"], 1);
    let p = &export["plan"];
    assert_eq!(p["id"], id("demo-budget"));
    assert_eq!(p["accounts"].as_array().map(Vec::len), Some(6));
    assert_eq!(p["category_groups"].as_array().map(Vec::len), Some(5));
    assert_eq!(p["categories"].as_array().map(Vec::len), Some(11));
    assert_eq!(p["transactions"].as_array().map(Vec::len), Some(226));
    assert_eq!(
        p["scheduled_transactions"].as_array().map(Vec::len),
        Some(7)
    );
    assert_eq!(p["payee_locations"], json!([]));
    let months = p["months"].as_array().expect("months");
    assert_eq!(months.len(), 16, "2026-06 to 2027-09 (D21)");
    assert_eq!(months[3]["month"], "2026-09-01");
    assert_eq!(months[3]["to_be_budgeted"], 2_192_220);
    assert_eq!(months[3]["categories"].as_array().map(Vec::len), Some(11));
    // `last-used` and `default` name the plan too (D11).
    assert_eq!(
        api.get("/plans/last-used").await["plan"]["id"],
        id("demo-budget")
    );
    assert_eq!(
        api.get("/plans/default/settings").await["settings"]["date_format"]["format"],
        "DD/MM/YYYY"
    );
}

#[tokio::test]
async fn accounts_list_one_and_create() {
    let api = Api::demo();
    let list = api.get(&plan("/accounts")).await;
    assert_eq!(list["server_knowledge"], 1);
    assert_eq!(
        find(&list["accounts"], &id("acc-checking"))["balance"],
        3_328_500
    );
    let one = api
        .get(&plan(&format!("/accounts/{}", id("acc-car-loan"))))
        .await;
    assert_eq!(one["account"]["balance"], -19_040_810);
    assert_eq!(one["account"]["debt_interest_rates"]["2025-03-31"], 4500);

    let made = api
        .call(
            "POST",
            &plan("/accounts"),
            Some(json!({"account": {"name": "Wallet", "type": "cash", "balance": 50_000}})),
        )
        .await;
    assert_eq!(made.status, 201);
    let account = &made.data()["account"];
    assert!(
        made.data().get("server_knowledge").is_none(),
        "YNAB answers {{account}} alone"
    );
    assert_eq!(
        api.get(&plan("/accounts")).await["server_knowledge"],
        2,
        "one change"
    );
    assert_eq!(account["name"], "Wallet");
    assert_eq!(account["on_budget"], true);
    assert_eq!(account["balance"], 50_000);
    assert_eq!(account["cleared_balance"], 50_000);
    let transfer_payee = account["transfer_payee_id"]
        .as_str()
        .expect("a transfer payee");
    let payee = api.get(&plan(&format!("/payees/{transfer_payee}"))).await;
    assert_eq!(payee["payee"]["name"], "Transfer : Wallet");
    let sept = api.get(&plan("/months/2026-09-01")).await;
    assert_eq!(
        sept["month"]["to_be_budgeted"],
        2_192_220 + 50_000,
        "the starting balance is income"
    );
}

#[tokio::test]
async fn categories_list_one_and_month_category() {
    let api = Api::demo();
    let list = api.get(&plan("/categories")).await;
    let groups = list["category_groups"].as_array().expect("groups");
    assert_eq!(groups.len(), 5);
    let everyday = find(&list["category_groups"], &id("grp-everyday"));
    assert_eq!(ids_of(&everyday["categories"]).len(), 3);

    let one = api
        .get(&plan(&format!("/categories/{}", id("cat-restaurants"))))
        .await;
    let c = &one["category"];
    assert_eq!(
        (
            c["budgeted"].clone(),
            c["activity"].clone(),
            c["balance"].clone()
        ),
        (json!(120_000), json!(-142_500), json!(-22_500))
    );
    assert_eq!(c["category_group_name"], "Everyday");

    let august = api
        .get(&plan(&format!(
            "/months/2026-08-01/categories/{}",
            id("cat-restaurants")
        )))
        .await;
    assert_eq!(august["category"]["activity"], -89_100);
    let current = api
        .get(&plan(&format!(
            "/months/current/categories/{}",
            id("cat-transport")
        )))
        .await;
    assert_eq!(current["category"]["goal_under_funded"], 35_000);

    let patched = api
        .call(
            "PATCH",
            &plan(&format!(
                "/months/2026-09-01/categories/{}",
                id("cat-restaurants")
            )),
            Some(json!({"category": {"budgeted": 142_500, "name": "ignored"}})),
        )
        .await;
    assert_eq!(patched.status, 200);
    let c = &patched.data()["category"];
    assert_eq!(
        (
            c["budgeted"].clone(),
            c["balance"].clone(),
            c["name"].clone()
        ),
        (json!(142_500), json!(0), json!("Restaurants"))
    );
    assert_eq!(patched.data()["server_knowledge"], 2);
    let sept = api.get(&plan("/months/2026-09-01")).await;
    assert_eq!(sept["month"]["to_be_budgeted"], 2_192_220 - 22_500);
    assert_eq!(sept["month"]["budgeted"], sept_budget_before() + 22_500);
}

/// September's assigned total in the demo (every category's monthly amount).
fn sept_budget_before() -> i64 {
    950_000 + 64_200 + 29_990 + 19_990 + 400_000 + 120_000 + 90_000 + 80_000 + 13_490 + 200_000
}

#[tokio::test]
async fn categories_and_groups_are_created_and_updated() {
    let api = Api::demo();
    let group = api
        .call(
            "POST",
            &plan("/category_groups"),
            Some(json!({"category_group": {"name": "Kids"}})),
        )
        .await;
    assert_eq!(group.status, 201);
    let group_id = group.data()["category_group"]["id"]
        .as_str()
        .expect("id")
        .to_owned();
    assert_eq!(group.data()["category_group"]["name"], "Kids");
    assert_eq!(group.data()["category_group"]["internal"], false);
    assert_eq!(group.data()["server_knowledge"], 2);
    let renamed = api
        .call(
            "PATCH",
            &plan(&format!("/category_groups/{group_id}")),
            Some(json!({"category_group": {"name": "Children"}})),
        )
        .await;
    assert_eq!(renamed.data()["category_group"]["name"], "Children");

    let made = api
        .call(
            "POST",
            &plan("/categories"),
            Some(json!({"category": {"name": "School", "category_group_id": group_id, "note": "fees", "goal_target": 300_000}})),
        )
        .await;
    assert_eq!(made.status, 201);
    let c = made.data()["category"].clone();
    let cat = c["id"].as_str().expect("id").to_owned();
    assert_eq!(c["category_group_name"], "Children");
    assert_eq!(c["note"], "fees");
    assert_eq!(c["goal_type"], "NEED");
    assert_eq!(c["goal_cadence"], 1);
    assert_eq!(c["goal_target"], 300_000);
    assert_eq!(c["goal_creation_month"], "2026-09-01");
    assert_eq!(c["goal_under_funded"], 300_000);
    assert_eq!(c["budgeted"], 0);

    // Rename, move, dated target.
    let url = plan(&format!("/categories/{cat}"));
    let moved = api
        .call(
            "PATCH",
            &url,
            Some(json!({"category": {"name": "School fees", "category_group_id": id("grp-fun"), "goal_target_date": "2026-12-01", "budgeted": 5}})),
        )
        .await;
    let c = moved.data()["category"].clone();
    assert_eq!(c["name"], "School fees");
    assert_eq!(c["category_group_id"], id("grp-fun"));
    assert_eq!(c["category_group_name"], "Fun");
    assert_eq!(
        (c["goal_cadence"].clone(), c["goal_target_date"].clone()),
        (json!(0), json!("2026-12-01"))
    );
    assert_eq!(c["goal_months_to_budget"], 4);
    assert_eq!(c["goal_under_funded"], 75_000, "300.00 over 4 months");
    assert_eq!(c["budgeted"], 0, "budgeted is ignored here");
    // Yearly, then removed.
    let yearly = api
        .call(
            "PATCH",
            &url,
            Some(json!({"category": {"goal_target": 1_200_000, "goal_frequency": "yearly"}})),
        )
        .await;
    let c = yearly.data()["category"].clone();
    assert_eq!(
        (c["goal_cadence"].clone(), c["goal_target_date"].clone()),
        (json!(13), Value::Null)
    );
    let removed = api
        .call(
            "PATCH",
            &url,
            Some(json!({"category": {"goal_target": null, "note": null}})),
        )
        .await;
    let c = removed.data()["category"].clone();
    assert_eq!(
        (
            c["goal_type"].clone(),
            c["goal_target"].clone(),
            c["note"].clone()
        ),
        (Value::Null, Value::Null, Value::Null)
    );
    let fun = find(
        &api.get(&plan("/categories")).await["category_groups"],
        &id("grp-fun"),
    )
    .clone();
    assert_eq!(
        ids_of(&fun["categories"]).last(),
        Some(&cat),
        "moved to the end of Fun"
    );
    // The demo's Holidays gets a monthly target the way an evaluation task sets one.
    let holidays = api
        .call(
            "PATCH",
            &plan(&format!("/categories/{}", id("cat-holidays"))),
            Some(json!({"category": {"goal_target": 250_000, "goal_frequency": "monthly"}})),
        )
        .await;
    assert_eq!(holidays.data()["category"]["goal_under_funded"], 50_000);
}

#[tokio::test]
async fn months_list_and_detail() {
    let api = Api::demo();
    let months = api.get(&plan("/months")).await;
    let list = months["months"].as_array().expect("months");
    assert_eq!(list.len(), 16);
    assert!(list.iter().all(|m| m.get("categories").is_none()));
    assert_eq!(list[0]["month"], "2026-06-01");
    let current = api.get(&plan("/months/current")).await;
    assert_eq!(current["month"]["month"], "2026-09-01");
    assert_eq!(current["month"]["to_be_budgeted"], 2_192_220);
    assert_eq!(current["month"]["age_of_money"], 47);
    assert_eq!(
        current["month"]["categories"].as_array().map(Vec::len),
        Some(11)
    );
    let any_day = api.get(&plan("/months/2026-08-17")).await;
    assert_eq!(any_day["month"]["month"], "2026-08-01");
}

#[tokio::test]
async fn transaction_lists_and_filters() {
    let api = Api::demo();
    let all = api.get(&plan("/transactions")).await;
    assert_eq!(all["transactions"].as_array().map(Vec::len), Some(226));
    assert_eq!(all["server_knowledge"], 1);
    let count = |v: &Value| v["transactions"].as_array().map(Vec::len).unwrap_or(0);
    let pending = api
        .get(&plan(
            "/transactions?type=uncategorized&since_date=2026-09-01",
        ))
        .await;
    assert_eq!(count(&pending), 6);
    assert_eq!(
        count(&api.get(&plan("/transactions?type=unapproved")).await),
        0
    );
    let window = api
        .get(&plan(
            "/transactions?since_date=2026-09-10&until_date=2026-09-12",
        ))
        .await;
    assert_eq!(
        ids_of(&window["transactions"]),
        vec![id("tx-049"), id("tx-050"), id("tx-051")]
    );

    let checking = api
        .get(&plan(&format!(
            "/accounts/{}/transactions?since_date=2026-09-01",
            id("acc-checking")
        )))
        .await;
    assert_eq!(count(&checking), 12);
    let september = api.get(&plan("/months/2026-09-01/transactions")).await;
    assert_eq!(
        count(&september),
        16,
        "12 on Checking, 4 on tracking accounts"
    );
    assert_eq!(
        count(&api.get(&plan("/months/current/transactions")).await),
        16
    );

    let restaurants = api
        .get(&plan(&format!(
            "/categories/{}/transactions?since_date=2026-09-01",
            id("cat-restaurants")
        )))
        .await;
    let rows = restaurants["transactions"].as_array().expect("rows");
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["type"], "transaction");
    assert_eq!(rows[0]["parent_transaction_id"], Value::Null);
    assert_eq!(rows[0]["category_name"], "Restaurants");
    assert_eq!(rows[0]["account_name"], "Checking");
    let rail = api
        .get(&plan(&format!(
            "/payees/{}/transactions",
            id("pay-rail-co")
        )))
        .await;
    let rows = rail["transactions"].as_array().expect("rows");
    assert_eq!(rows.len(), 4);
    assert_eq!(
        rows[3]["category_name"], "Uncategorized",
        "September's is pending"
    );
    assert_eq!(rows[3]["id"], id("tx-054"));
}

#[tokio::test]
async fn hybrid_rows_list_split_lines() {
    let api = Api::demo();
    let split = api
        .call(
            "POST",
            &plan("/transactions"),
            Some(json!({"transaction": {
                "account_id": id("acc-checking"), "date": "2026-09-20", "amount": -30_000,
                "payee_name": "HYPER", "category_id": null,
                "subtransactions": [
                    {"amount": -20_000, "category_id": id("cat-groceries")},
                    {"amount": -10_000, "category_id": id("cat-restaurants"), "memo": "lunch"}
                ]
            }})),
        )
        .await;
    let t = split.data()["transaction"].clone();
    assert_eq!(t["category_name"], "Split");
    assert_eq!(t["subtransactions"].as_array().map(Vec::len), Some(2));
    let line = t["subtransactions"][1]["id"].clone();
    let rows = api
        .get(&plan(&format!(
            "/categories/{}/transactions?since_date=2026-09-20",
            id("cat-restaurants")
        )))
        .await;
    let row = &rows["transactions"][0];
    assert_eq!(row["type"], "subtransaction");
    assert_eq!(row["id"], line);
    assert_eq!(row["parent_transaction_id"], t["id"]);
    assert_eq!(row["amount"], -10_000);
    assert_eq!(row["memo"], "lunch");
    assert_eq!(row["payee_name"], "HYPER");
    assert_eq!(row["date"], "2026-09-20");
    let payee = t["payee_id"].as_str().expect("payee");
    let by_payee = api
        .get(&plan(&format!("/payees/{payee}/transactions")))
        .await;
    let rows = by_payee["transactions"].as_array().expect("rows");
    assert_eq!(rows.len(), 1, "the parent only: its lines share its payee");
    assert_eq!(rows[0]["category_name"], "Split");
}

#[tokio::test]
async fn single_transaction_get_put_delete() {
    let api = Api::demo();
    let url = plan(&format!("/transactions/{}", id("tx-054")));
    let one = api.get(&url).await;
    assert_eq!(one["transaction"]["payee_name"], "RAIL CO");
    assert_eq!(one["server_knowledge"], 1);
    let put = api
        .call(
            "PUT",
            &url,
            Some(json!({"transaction": {"category_id": id("cat-transport"), "memo": "rail card", "flag_color": "red", "approved": false}})),
        )
        .await;
    assert_eq!(put.status, 200);
    let t = &put.data()["transaction"];
    assert_eq!(t["category_name"], "Transport");
    assert_eq!(t["memo"], "rail card");
    assert_eq!(t["flag_color"], "red");
    assert_eq!(t["approved"], false);
    assert_eq!(t["amount"], -45_000, "untouched");
    assert_eq!(put.data()["server_knowledge"], 2);
    let transport = api
        .get(&plan(&format!("/categories/{}", id("cat-transport"))))
        .await;
    assert_eq!(transport["category"]["activity"], -45_000);

    let deleted = api.call("DELETE", &url, None).await;
    assert_eq!(deleted.status, 200);
    assert_eq!(deleted.data()["transaction"]["deleted"], true);
    assert_eq!(deleted.data()["server_knowledge"], 3);
    assert_eq!(api.call("GET", &url, None).await.status, 404);
    let all = api.get(&plan("/transactions")).await;
    assert_eq!(all["transactions"].as_array().map(Vec::len), Some(225));
    let checking = api
        .get(&plan(&format!("/accounts/{}", id("acc-checking"))))
        .await;
    assert_eq!(checking["account"]["balance"], 3_328_500 + 45_000);
}

#[tokio::test]
async fn bulk_create_with_duplicate_import_ids() {
    let api = Api::demo();
    let item = |import_id: &str, amount: i64| {
        json!({"account_id": id("acc-checking"), "date": "2026-09-21", "amount": amount,
               "payee_name": "BOULANGERIE", "import_id": import_id, "cleared": "cleared"})
    };
    let first = api
        .call(
            "POST",
            &plan("/transactions"),
            Some(json!({"transactions": [item("YNAB:-3000:2026-09-21:1", -3_000)]})),
        )
        .await;
    assert_eq!(first.status, 201);
    assert_eq!(first.data()["duplicate_import_ids"], json!([]));
    let created_id = first.data()["transaction_ids"][0].clone();
    assert_eq!(first.data()["transactions"][0]["id"], created_id);
    assert_eq!(
        first.data()["transactions"][0]["approved"],
        false,
        "unapproved unless sent"
    );
    assert_eq!(
        created_id,
        json!(id("sandbox/transaction/1")),
        "serial 0 went to the new payee"
    );
    let again = api
        .call(
            "POST",
            &plan("/transactions"),
            Some(json!({"transactions": [item("YNAB:-3000:2026-09-21:1", -3_000), item("YNAB:-3000:2026-09-21:2", -3_000), item("YNAB:-3000:2026-09-21:2", -3_000)]})),
        )
        .await;
    assert_eq!(again.status, 201);
    assert_eq!(
        again.data()["transaction_ids"].as_array().map(Vec::len),
        Some(1)
    );
    assert_eq!(
        again.data()["duplicate_import_ids"],
        json!(["YNAB:-3000:2026-09-21:1", "YNAB:-3000:2026-09-21:2"])
    );
    let boulangerie: Vec<Value> = api.get(&plan("/payees")).await["payees"]
        .as_array()
        .expect("payees")
        .iter()
        .filter(|p| p["name"] == "BOULANGERIE")
        .cloned()
        .collect();
    assert_eq!(
        boulangerie.len(),
        1,
        "payee_name reuses the payee it created"
    );
    let single = api
        .call(
            "POST",
            &plan("/transactions"),
            Some(json!({"transaction": item("YNAB:-3000:2026-09-21:1", -3_000)})),
        )
        .await;
    assert_eq!(single.error().0, 409);
    assert_eq!(single.error().1, "409");
    assert_eq!(single.error().2, "conflict");
}

#[tokio::test]
async fn bulk_update_by_id_and_import_id() {
    let api = Api::demo();
    let made = api
        .call(
            "POST",
            &plan("/transactions"),
            Some(json!({"transaction": {"account_id": id("acc-checking"), "date": "2026-09-22", "amount": -12_340, "payee_name": "KIOSK", "import_id": "bank-1", "flag_color": "blue"}})),
        )
        .await;
    let new_id = made.data()["transaction"]["id"]
        .as_str()
        .expect("id")
        .to_owned();
    let patched = api
        .call(
            "PATCH",
            &plan("/transactions"),
            Some(json!({"transactions": [
                {"id": id("tx-046"), "category_id": id("cat-groceries"), "approved": true, "cleared": "reconciled"},
                {"id": null, "import_id": "bank-1", "flag_color": null, "payee_name": "NEWSAGENT", "amount": -12_000, "date": "2026-09-20"},
                {"id": id("tx-049"), "category_id": null},
                {"id": id("tx-053"), "category_id": null, "subtransactions": [
                    {"amount": -5_000, "category_id": id("cat-groceries")},
                    {"amount": -3_400, "category_id": id("cat-restaurants")}
                ]}
            ]})),
        )
        .await;
    assert_eq!(patched.status, 200);
    let d = patched.data();
    assert_eq!(
        d["transaction_ids"],
        json!([id("tx-046"), new_id, id("tx-049"), id("tx-053")])
    );
    assert_eq!(d["server_knowledge"], 3);
    let t = &d["transactions"];
    assert_eq!(t[0]["category_name"], "Groceries");
    assert_eq!(t[0]["cleared"], "reconciled");
    assert_eq!(t[1]["flag_color"], Value::Null);
    assert_eq!(t[1]["payee_name"], "NEWSAGENT");
    assert_eq!(
        (t[1]["amount"].clone(), t[1]["date"].clone()),
        (json!(-12_000), json!("2026-09-20"))
    );
    assert_eq!(t[1]["import_id"], "bank-1", "import_id is for look-up only");
    assert_eq!(t[2]["category_id"], Value::Null);
    assert_eq!(t[3]["category_name"], "Split");
    assert_eq!(t[3]["subtransactions"][1]["category_name"], "Restaurants");
    let restaurants = api
        .get(&plan(&format!("/categories/{}", id("cat-restaurants"))))
        .await;
    assert_eq!(
        restaurants["category"]["activity"],
        -142_500 + 88_000 - 3_400
    );
}

#[tokio::test]
async fn transfers_make_a_mirror_and_go_together() {
    let api = Api::demo();
    let savings_payee = id("pay-transfer-savings");
    let made = api
        .call(
            "POST",
            &plan("/transactions"),
            Some(json!({"transaction": {"account_id": id("acc-checking"), "date": "2026-09-23", "amount": -150_000, "payee_id": savings_payee, "memo": "top up", "approved": true, "category_id": id("cat-holidays")}})),
        )
        .await;
    let t = made.data()["transaction"].clone();
    assert_eq!(
        t["category_id"],
        Value::Null,
        "no category between budget accounts"
    );
    assert_eq!(t["transfer_account_id"], id("acc-savings"));
    let mirror_id = t["transfer_transaction_id"]
        .as_str()
        .expect("mirror")
        .to_owned();
    let mirror = api.get(&plan(&format!("/transactions/{mirror_id}"))).await["transaction"].clone();
    assert_eq!(mirror["amount"], 150_000);
    assert_eq!(mirror["account_id"], id("acc-savings"));
    assert_eq!(mirror["payee_id"], id("pay-transfer-checking"));
    assert_eq!(mirror["transfer_transaction_id"], t["id"]);
    assert_eq!(mirror["memo"], "top up");
    assert_eq!(mirror["cleared"], "uncleared");
    let savings = api
        .get(&plan(&format!("/accounts/{}", id("acc-savings"))))
        .await;
    assert_eq!(savings["account"]["balance"], 600_000 + 150_000);
    assert_eq!(savings["account"]["uncleared_balance"], 150_000);

    // The amount follows to the other side; deleting the mirror deletes both.
    let url = plan(&format!("/transactions/{}", t["id"].as_str().expect("id")));
    api.call(
        "PUT",
        &url,
        Some(json!({"transaction": {"amount": -100_000}})),
    )
    .await
    .data();
    let mirror = api.get(&plan(&format!("/transactions/{mirror_id}"))).await["transaction"].clone();
    assert_eq!(mirror["amount"], 100_000);
    let gone = api
        .call("DELETE", &plan(&format!("/transactions/{mirror_id}")), None)
        .await;
    assert_eq!(gone.data()["transaction"]["deleted"], true);
    assert_eq!(api.call("GET", &url, None).await.status, 404);
    let savings = api
        .get(&plan(&format!("/accounts/{}", id("acc-savings"))))
        .await;
    assert_eq!(savings["account"]["balance"], 600_000);

    // An existing transaction turned into a transfer gets a mirror; a normal payee unlinks it.
    let pending = plan(&format!("/transactions/{}", id("tx-055")));
    let linked = api
        .call(
            "PUT",
            &pending,
            Some(json!({"transaction": {"payee_id": id("pay-transfer-joint-savings")}})),
        )
        .await;
    let other = linked.data()["transaction"]["transfer_transaction_id"]
        .as_str()
        .expect("linked")
        .to_owned();
    let joint = api.get(&plan(&format!("/transactions/{other}"))).await;
    assert_eq!(joint["transaction"]["account_id"], id("acc-joint-savings"));
    assert_eq!(joint["transaction"]["amount"], 71_860);
    api.call(
        "PUT",
        &pending,
        Some(json!({"transaction": {"payee_name": "MARKET FRESH"}})),
    )
    .await
    .data();
    assert_eq!(
        api.call("GET", &plan(&format!("/transactions/{other}")), None)
            .await
            .status,
        404
    );
}

#[tokio::test]
async fn import_has_nothing_to_import() {
    let api = Api::demo();
    let answer = api.call("POST", &plan("/transactions/import"), None).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.data(), &json!({"transaction_ids": []}));
    assert_eq!(
        api.get(&plan("/transactions")).await["server_knowledge"],
        1,
        "nothing changed"
    );
}

#[tokio::test]
async fn scheduled_transactions_crud() {
    let api = Api::demo();
    let list = api.get(&plan("/scheduled_transactions")).await;
    assert_eq!(
        list["scheduled_transactions"].as_array().map(Vec::len),
        Some(7)
    );
    assert_eq!(list["server_knowledge"], 1);
    let rent = api
        .get(&plan(&format!(
            "/scheduled_transactions/{}",
            id("sch-rent")
        )))
        .await;
    assert_eq!(rent["scheduled_transaction"]["date_next"], "2026-10-03");
    assert_eq!(rent["scheduled_transaction"]["category_name"], "Rent");

    let made = api
        .call(
            "POST",
            &plan("/scheduled_transactions"),
            Some(json!({"scheduled_transaction": {"account_id": id("acc-checking"), "date": "2026-10-15", "amount": -13_490, "payee_id": id("pay-streamflix"), "category_id": id("cat-subscriptions"), "frequency": "monthly", "memo": "film"}})),
        )
        .await;
    assert_eq!(made.status, 201);
    let s = made.data()["scheduled_transaction"].clone();
    let sid = s["id"].as_str().expect("id").to_owned();
    assert_eq!(
        (s["date_first"].clone(), s["date_next"].clone()),
        (json!("2026-10-15"), json!("2026-10-15"))
    );
    assert_eq!(s["payee_name"], "STREAMFLIX");
    assert_eq!(s["account_name"], "Checking");
    assert_eq!(s["frequency"], "monthly");
    let url = plan(&format!("/scheduled_transactions/{sid}"));
    let put = api
        .call("PUT", &url, Some(json!({"scheduled_transaction": {"account_id": id("acc-checking"), "date": "2026-11-15", "amount": -14_990, "payee_id": id("pay-transfer-savings"), "category_id": id("cat-subscriptions")}})))
        .await;
    let s = put.data()["scheduled_transaction"].clone();
    assert_eq!(s["amount"], -14_990);
    assert_eq!(s["frequency"], "never", "PUT replaces the whole schedule");
    assert_eq!(s["memo"], Value::Null);
    assert_eq!(s["transfer_account_id"], id("acc-savings"));
    assert_eq!(s["category_id"], Value::Null);
    let gone = api.call("DELETE", &url, None).await;
    assert_eq!(gone.data()["scheduled_transaction"]["deleted"], true);
    assert_eq!(api.call("GET", &url, None).await.status, 404);
    assert_eq!(
        api.get(&plan("/scheduled_transactions")).await["scheduled_transactions"]
            .as_array()
            .map(Vec::len),
        Some(7)
    );
}

#[tokio::test]
async fn payees_list_get_create_rename_and_locations() {
    let api = Api::demo();
    let list = api.get(&plan("/payees")).await;
    assert_eq!(list["server_knowledge"], 1);
    let rail = find(&list["payees"], &id("pay-rail-co"));
    assert_eq!(rail["name"], "RAIL CO");
    assert_eq!(rail["transfer_account_id"], Value::Null);
    let url = plan(&format!("/payees/{}", id("pay-rail-co")));
    assert_eq!(api.get(&url).await["payee"]["name"], "RAIL CO");
    let renamed = api
        .call("PATCH", &url, Some(json!({"payee": {"name": "SNCF"}})))
        .await;
    assert_eq!(renamed.data()["payee"]["name"], "SNCF");
    assert_eq!(renamed.data()["server_knowledge"], 2);
    let t = api
        .get(&plan(&format!("/transactions/{}", id("tx-054"))))
        .await;
    assert_eq!(t["transaction"]["payee_name"], "SNCF");
    let made = api
        .call(
            "POST",
            &plan("/payees"),
            Some(json!({"payee": {"name": "Dentist"}})),
        )
        .await;
    assert_eq!(made.status, 201);
    assert_eq!(made.data()["payee"]["name"], "Dentist");
    assert_eq!(made.data()["server_knowledge"], 3);

    assert_eq!(
        api.get(&plan("/payee_locations")).await,
        json!({"payee_locations": []})
    );
    assert_eq!(
        api.get(&plan(&format!(
            "/payees/{}/payee_locations",
            id("pay-rail-co")
        )))
        .await,
        json!({"payee_locations": []})
    );
    assert_eq!(
        api.call("GET", &plan(&format!("/payee_locations/{}", id("x"))), None)
            .await
            .status,
        404
    );
}

#[tokio::test]
async fn the_socket_server_serves_the_same_routes_and_counts_them() {
    let sandbox = ynab_sandbox::Sandbox::start(
        ynab_sandbox::demo::demo_plan(ynab_sandbox::demo::DEMO_TODAY),
        ynab_sandbox::SandboxOptions::default(),
    )
    .await
    .expect("starts");
    let client = ynab::Client::new(
        ynab::BaseUrl::new(sandbox.base_url()),
        ynab::TokenSource::Fixed(ynab::Token::new("t")),
    )
    .expect("the HTTP client builds");
    let plans = client.plans().await.expect("plans");
    assert_eq!(plans[0].id, id("demo-budget"));
    let stats = sandbox.stats();
    assert_eq!(stats.total, 1);
    assert_eq!(stats.routes.get("GET /v1/plans"), Some(&1), "{stats:?}");
    // with_plan: a direct change counts as a change of the plan.
    let knowledge = sandbox.with_plan(|p| {
        p.payees[0].name = "Renamed elsewhere".into();
        p.server_knowledge
    });
    assert_eq!(knowledge, 1);
    assert_eq!(sandbox.with_plan(|p| p.server_knowledge), 2);
}

#[tokio::test]
async fn category_and_split_rules_for_tracking_accounts_and_one_line_splits() {
    let api = Api::demo();
    let post = |t: Value| {
        let api = &api;
        async move {
            api.call(
                "POST",
                &plan("/transactions"),
                Some(json!({ "transaction": t })),
            )
            .await
            .data()["transaction"]
                .clone()
        }
    };
    // Budget → tracking: the budget side keeps its category, the tracking side takes none.
    let out = post(json!({"account_id": id("acc-checking"), "date": "2026-09-22", "amount": -80_000, "payee_id": id("pay-transfer-joint-savings"), "category_id": id("cat-holidays")})).await;
    assert_eq!(out["category_id"], id("cat-holidays"));
    let other = api
        .get(&plan(&format!(
            "/transactions/{}",
            out["transfer_transaction_id"].as_str().expect("mirror")
        )))
        .await;
    assert_eq!(other["transaction"]["category_id"], Value::Null);
    assert_eq!(other["transaction"]["amount"], 80_000);
    let holidays = api
        .get(&plan(&format!("/categories/{}", id("cat-holidays"))))
        .await;
    assert_eq!(holidays["category"]["activity"], -80_000);
    // A tracking account's own transaction takes no category.
    let tracked = post(json!({"account_id": id("acc-joint-savings"), "date": "2026-09-22", "amount": 5_000, "payee_name": "BANK", "category_id": id("cat-inflow")})).await;
    assert_eq!(tracked["category_id"], Value::Null);
    // A one-line split is an ordinary transaction with that line's category.
    let one = post(json!({"account_id": id("acc-checking"), "date": "2026-09-22", "amount": -2_000, "subtransactions": [{"amount": -2_000, "category_id": id("cat-groceries"), "memo": "bread"}]})).await;
    assert_eq!(one["subtransactions"], json!([]));
    assert_eq!(one["category_name"], "Groceries");
    assert_eq!(one["memo"], "bread");
    // `goal_frequency: null` counts as omitted; the target keeps its cadence.
    let rent = api
        .call(
            "PATCH",
            &plan(&format!("/categories/{}", id("cat-rent"))),
            Some(json!({"category": {"goal_target": 960_000, "goal_frequency": null, "goal_needs_whole_amount": false}})),
        )
        .await;
    let c = &rent.data()["category"];
    assert_eq!(
        (
            c["goal_target"].clone(),
            c["goal_cadence"].clone(),
            c["goal_needs_whole_amount"].clone()
        ),
        (json!(960_000), json!(1), json!(false))
    );
    assert_eq!(
        c["goal_creation_month"], "2026-06-01",
        "an amount change keeps the target's history"
    );
}
