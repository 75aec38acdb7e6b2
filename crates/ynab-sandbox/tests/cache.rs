//! The derived figures are cached per `server_knowledge` (`ynab_sandbox::derived`): every read
//! after a write, a reset or a direct change of the plan sees the figures of the plan as it is
//! now, never those cached before.

use crate::common;

use common::*;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::time::Duration;
use ynab_sandbox::{Sandbox, SandboxOptions, demo};

/// The figures a write of a groceries payment on Checking moves, each read its own way.
#[derive(Debug, Clone, PartialEq)]
struct Figures {
    balance: i64,
    month_activity: i64,
    category_activity: i64,
    category_balance: i64,
    month_category_activity: i64,
    export_balance: i64,
    export_month_activity: i64,
    knowledge: i64,
}

async fn figures(api: &Api) -> Figures {
    let account = api
        .get(&plan(&format!("/accounts/{}", id("acc-checking"))))
        .await;
    let month = api.get(&plan("/months/current")).await;
    let category = api
        .get(&plan(&format!("/categories/{}", id("cat-groceries"))))
        .await;
    let month_category = api
        .get(&plan(&format!(
            "/months/2026-09-01/categories/{}",
            id("cat-groceries")
        )))
        .await;
    let export = api.get(&plan("")).await;
    let int = |v: &Value| v.as_i64().expect("an integer");
    Figures {
        balance: int(&account["account"]["balance"]),
        month_activity: int(&month["month"]["activity"]),
        category_activity: int(&category["category"]["activity"]),
        category_balance: int(&category["category"]["balance"]),
        month_category_activity: int(&month_category["category"]["activity"]),
        export_balance: int(&find(&export["plan"]["accounts"], &id("acc-checking"))["balance"]),
        export_month_activity: int(
            &find_month(&export["plan"]["months"], "2026-09-01")["activity"],
        ),
        knowledge: int(&export["server_knowledge"]),
    }
}

fn find_month<'a>(months: &'a Value, label: &str) -> &'a Value {
    months
        .as_array()
        .and_then(|all| all.iter().find(|m| m["month"] == label))
        .unwrap_or_else(|| panic!("{label} not in the export"))
}

async fn pay_groceries(api: &Api, amount: i64) {
    let answer = api
        .call(
            "POST",
            &plan("/transactions"),
            Some(json!({"transaction": {
                "account_id": id("acc-checking"),
                "date": "2026-09-20",
                "amount": amount,
                "payee_name": "Corner shop",
                "category_id": id("cat-groceries"),
            }})),
        )
        .await;
    assert_eq!(answer.status, 201, "{}", answer.body);
}

#[tokio::test]
async fn cached_figures_follow_each_write_and_a_reset() {
    let api = Api::demo();
    let loaded = figures(&api).await;
    assert_eq!(figures(&api).await, loaded, "reads change nothing");
    let export = api.get(&plan("")).await;

    pay_groceries(&api, -12_340).await;
    let after = figures(&api).await;
    assert_eq!(
        after,
        Figures {
            balance: loaded.balance - 12_340,
            month_activity: loaded.month_activity - 12_340,
            category_activity: loaded.category_activity - 12_340,
            category_balance: loaded.category_balance - 12_340,
            month_category_activity: loaded.month_category_activity - 12_340,
            export_balance: loaded.export_balance - 12_340,
            export_month_activity: loaded.export_month_activity - 12_340,
            knowledge: loaded.knowledge + 1,
        }
    );
    let delta = api
        .get(&plan(&format!(
            "?last_knowledge_of_server={}",
            loaded.knowledge
        )))
        .await;
    assert_eq!(
        find(&delta["plan"]["accounts"], &id("acc-checking"))["balance"],
        after.balance
    );

    pay_groceries(&api, -1_000).await;
    assert_eq!(figures(&api).await.balance, loaded.balance - 13_340);

    let reset = api.raw("POST", "/__sandbox/reset", None, None).await;
    assert_eq!(reset.status, 204);
    assert_eq!(figures(&api).await, loaded, "back to the plan as loaded");
    assert_eq!(api.get(&plan("")).await, export);
}

/// `GET path` on a fresh connection; the answer's JSON body.
async fn http_get(sandbox: &Sandbox, path: &str) -> Value {
    let addr = sandbox.addr();
    let request = format!(
        "GET /v1{path} HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer t\r\nConnection: close\r\n\r\n"
    );
    let got = tokio::task::spawn_blocking(move || {
        let mut stream = std::net::TcpStream::connect(addr).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .expect("a timeout");
        stream.write_all(request.as_bytes()).expect("send");
        let mut got = Vec::new();
        stream.read_to_end(&mut got).expect("an answer");
        got
    })
    .await
    .expect("the exchange");
    let text = String::from_utf8(got).expect("UTF-8");
    let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    serde_json::from_str(body).expect("a JSON body")
}

#[tokio::test]
async fn cached_figures_follow_a_direct_change_of_the_plan() {
    let sandbox = Sandbox::start(demo::demo_plan(demo::DEMO_TODAY), SandboxOptions::default())
        .await
        .expect("a sandbox");
    let account = plan(&format!("/accounts/{}", id("acc-checking")));
    let balance = |v: &Value| v["data"]["account"]["balance"].as_i64().expect("a balance");
    let before = balance(&http_get(&sandbox, &account).await);
    sandbox.with_plan(|p| {
        let tx = p
            .transactions
            .iter_mut()
            .find(|t| {
                t.account_id == id("acc-checking") && !t.deleted && t.subtransactions.is_empty()
            })
            .expect("a Checking transaction");
        tx.amount += 5_000;
    });
    assert_eq!(balance(&http_get(&sandbox, &account).await), before + 5_000);

    // "Today" moves the current month and Age of Money: no figure of the old today stays.
    let current = http_get(&sandbox, &plan("/months/current")).await;
    assert_eq!(current["data"]["month"]["month"], "2026-09-01");
    sandbox.with_plan(|p| p.today = chrono::NaiveDate::from_ymd_opt(2026, 10, 2).expect("a date"));
    let current = http_get(&sandbox, &plan("/months/current")).await;
    assert_eq!(current["data"]["month"]["month"], "2026-10-01");
}
