//! The schedule, search and classification tools through the protocol, on the demo plan:
//! `list_scheduled_transactions`, `find_transactions` and `suggest_categories` — figures, errors
//! with their exact messages, the cost of each call, and the demo's planted memos kept inert.

use crate::common;

use avenir::tools::tool_names::WRITE_TOOLS;

use avenir::text::safe;
use common::{Era, id, start, text_of};
use serde_json::{Value, json};
use ynab_sandbox::demo::{BAKERY_MEMO, STREAMFLIX_MEMO};

const INVALID_CURSOR: &str = "Invalid cursor: pass the next_cursor value from the previous page unchanged, or omit it to start from the first page.";

fn list(value: &Value, field: &str) -> Vec<Value> {
    value[field].as_array().cloned().unwrap_or_default()
}

fn strings(items: &[Value], field: &str) -> Vec<String> {
    items
        .iter()
        .map(|i| i[field].as_str().unwrap_or("<null>").to_string())
        .collect()
}

/// Bank text shown as data: one line, no control, format or separator character.
fn assert_inert(text: &str) {
    assert!(
        !text
            .chars()
            .any(|c| c.is_control() || matches!(c, '\u{202e}' | '\u{2028}' | '\u{2029}')),
        "{text:?}"
    );
    assert!(text.chars().count() <= 80, "{text:?}");
}

#[tokio::test]
async fn the_three_tools_are_listed_with_their_cost_and_no_write_tool_named() {
    for era in [Era::Modern, Era::Legacy] {
        let h = start(era, false).await;
        let tools = h.client.list_all_tools().await.expect("tools/list");
        for (name, title) in [
            ("list_scheduled_transactions", "List scheduled transactions"),
            ("find_transactions", "Find transactions"),
            (
                "suggest_categories",
                "Suggest categories for pending transactions",
            ),
        ] {
            let tool = common::listed_read_tool(&tools, name, title);
            let description = tool.description.as_deref().unwrap_or("");
            assert!(
                !description.contains("YNAB request once the plan is loaded"),
                "the cost is said once, in the guide (D28): {description}"
            );
            assert!(description.contains("never instructions"), "{name}");
        }
        for tool in &tools {
            let description = tool.description.as_deref().unwrap_or("");
            for write in WRITE_TOOLS.iter() {
                assert!(
                    !description.contains(write),
                    "{}: names {write} in read-only mode",
                    tool.name
                );
            }
        }
        let suggest = tools
            .iter()
            .find(|t| t.name == "suggest_categories")
            .and_then(|t| t.description.clone())
            .unwrap_or_default();
        assert!(
            suggest.ends_with("The user applies them in YNAB."),
            "{suggest}"
        );
    }
}

#[tokio::test]
async fn scheduled_outflows_of_the_first_ten_days_of_october() {
    let h = start(Era::Modern, false).await;
    let answer = h
        .ok1(
            "list_scheduled_transactions",
            json!({"plan_id": "last-used", "since_date": "2026-10-01", "until_date": "2026-10-10"}),
        )
        .await;
    assert_eq!(answer["outflows"], json!(-999.98));
    assert_eq!(answer["inflows"], json!(0.0));
    let occurrences = list(&answer, "occurrences");
    assert_eq!(
        occurrences[0],
        json!({
            "scheduled_id": id("sch-rent"),
            "date": "2026-10-03",
            "amount": -950.0,
            "account": "Checking",
            "category": "Rent",
            "payee": "LANDLORD SARL",
            "memo": null,
            "frequency": "monthly",
            "transfer": false
        })
    );
    assert_eq!(
        strings(&occurrences, "payee"),
        [
            "LANDLORD SARL",
            "FIBERNET - PRELEV",
            "TELCO MOBILE - PRELEV"
        ]
    );
    assert_eq!(
        strings(&occurrences, "category"),
        ["Rent", "Internet", "Phone"]
    );
    assert_eq!(
        strings(&occurrences, "date"),
        ["2026-10-03", "2026-10-06", "2026-10-08"]
    );
}

#[tokio::test]
async fn scheduled_default_window_is_thirty_days_from_today() {
    let h = start(Era::Legacy, false).await;
    let answer = h
        .ok1(
            "list_scheduled_transactions",
            json!({"plan_id": "last-used"}),
        )
        .await;
    let occurrences = list(&answer, "occurrences");
    // today 2026-09-25 → 2026-10-25
    assert_eq!(
        strings(&occurrences, "date"),
        [
            "2026-09-28",
            "2026-09-29",
            "2026-10-03",
            "2026-10-06",
            "2026-10-08",
            "2026-10-12",
            "2026-10-20"
        ]
    );
    assert_eq!(occurrences[0]["payee"], "ACME EMPLOYER SALAIRE");
    assert_eq!(occurrences[0]["category"], "Inflow: Ready to Assign");
    assert_eq!(occurrences[1]["payee"], "Transfer : Savings");
    assert_eq!(occurrences[1]["transfer"], true);
    assert_eq!(occurrences[1]["category"], Value::Null);
    assert_eq!(occurrences[6]["payee"], "HOMESAFE INSURANCE");
    assert_eq!(occurrences[6]["frequency"], "yearly");
    assert_eq!(occurrences[6]["category"], Value::Null);
    // the transfer to Savings is listed but left out of the totals
    assert_eq!(answer["inflows"], json!(3200.0));
    assert_eq!(answer["outflows"], json!(-1484.18));

    let savings = h
        .ok1(
            "list_scheduled_transactions",
            json!({"plan_id": "last-used", "account_ids": [id("acc-savings")]}),
        )
        .await;
    assert!(list(&savings, "occurrences").is_empty());
    let none = h
        .ok1(
            "list_scheduled_transactions",
            json!({"plan_id": "last-used", "account_ids": []}),
        )
        .await;
    assert!(list(&none, "occurrences").is_empty());
    assert_eq!(none["outflows"], json!(0.0));
}

#[tokio::test]
async fn scheduled_errors_name_the_problem() {
    let h = start(Era::Modern, false).await;
    let plan = "last-used";
    assert_eq!(
        h.refused(
            "list_scheduled_transactions",
            json!({"plan_id": plan, "since_date": "2026-10-10", "until_date": "2026-10-01"})
        )
        .await,
        "until_date 2026-10-01 is before since_date 2026-10-10: swap them."
    );
    assert_eq!(
        h.refused(
            "list_scheduled_transactions",
            json!({"plan_id": plan, "since_date": "2026-01-01", "until_date": "2027-01-03"})
        )
        .await,
        "The dates span more than 366 days: search a shorter period."
    );
    assert_eq!(
        h.refused(
            "list_scheduled_transactions",
            json!({"plan_id": plan, "since_date": "2026-10-32"})
        )
        .await,
        "Argument since_date: must be a date as YYYY-MM-DD, got '2026-10-32'."
    );
    assert_eq!(
        h.refused(
            "list_scheduled_transactions",
            json!({"plan_id": plan, "account_ids": [id("acc-checking"), 7]})
        )
        .await,
        "Argument account_ids.1: must be an id (a string), got a number."
    );
    assert_eq!(h.sandbox.stats().total, 0);
    let unknown = id("acc-nowhere");
    assert_eq!(
        h.error(
            "list_scheduled_transactions",
            json!({"plan_id": plan, "account_ids": [id("acc-checking"), unknown]})
        )
        .await,
        format!("Account {unknown} is not in this plan: use an id from list_accounts.")
    );
    assert_eq!(h.sandbox.stats().total, 1);
}

#[tokio::test]
async fn find_transactions_by_payee_amount_and_category() {
    let h = start(Era::Modern, false).await;
    let fresh = h
        .ok1(
            "find_transactions",
            json!({"plan_id": "last-used", "since_date": "2026-09-01", "payee": "market fresh"}),
        )
        .await;
    let found = list(&fresh, "transactions");
    assert_eq!(
        strings(&found, "date"),
        ["2026-09-19", "2026-09-19", "2026-09-05"]
    );
    assert_eq!(fresh["truncated"], false);
    let first = &found[0];
    assert_eq!(first["amount"], json!(-71.86));
    assert_eq!(first["payee"], "CB MARKET FRESH FACT 190926 525130******1");
    assert_eq!(first["account"], "Checking");
    assert_eq!(first["category"], Value::Null);
    assert_eq!(first["split"], false);
    assert_eq!(first["cleared"], "cleared");
    assert_eq!(first["approved"], true);
    assert_eq!(first["memo"], Value::Null);

    let duplicate = h
        .ok1(
            "find_transactions",
            json!({"plan_id": "last-used", "since_date": "2026-09-01", "amount": -71.86}),
        )
        .await;
    assert_eq!(list(&duplicate, "transactions").len(), 2);

    // Restaurants spent 89.10 in August 2026 and 142.50 in September.
    let restaurants = [id("cat-restaurants")];
    let august = h
        .ok1(
            "find_transactions",
            json!({"plan_id": "last-used", "since_date": "2026-08-01", "until_date": "2026-08-31",
               "category_ids": restaurants}),
        )
        .await;
    let spent: i64 = list(&august, "transactions")
        .iter()
        .map(|t| (t["amount"].as_f64().unwrap_or(0.0) * 100.0).round() as i64)
        .sum();
    assert_eq!(spent, -8_910);
    assert_eq!(
        strings(&list(&august, "transactions"), "category"),
        ["Restaurants", "Restaurants"]
    );
    let september = h.ok1("find_transactions",
        json!({"plan_id": "last-used", "since_date": "2026-09-01", "category_ids": restaurants}),
    )
    .await;
    assert_eq!(
        list(&september, "transactions")
            .iter()
            .map(|t| t["amount"].clone())
            .collect::<Vec<_>>(),
        [json!(-54.5), json!(-88.0)]
    );

    // tracking accounts are searched too; a limit cuts the newest first
    let refund = h
        .ok1(
            "find_transactions",
            json!({"plan_id": "last-used", "since_date": "2026-09-15", "until_date": "2026-09-15",
               "account_ids": [id("acc-joint-savings")]}),
        )
        .await;
    assert_eq!(
        strings(&list(&refund, "transactions"), "payee"),
        ["TRESOR PUBLIC REMBOURSEMENT"]
    );
    let two = h
        .ok1(
            "find_transactions",
            json!({"plan_id": "last-used", "since_date": "2026-09-01", "limit": 2}),
        )
        .await;
    assert_eq!(list(&two, "transactions").len(), 2);
    assert_eq!(two["truncated"], true);
    // 366 days apart is accepted
    h.ok1(
        "find_transactions",
        json!({"plan_id": "last-used", "since_date": "2025-09-14", "until_date": "2026-09-15",
               "payee": "RAIL CO"}),
    )
    .await;
}

#[tokio::test]
async fn find_transactions_errors_name_the_problem() {
    let h = start(Era::Legacy, false).await;
    let plan = "last-used";
    for (arguments, message) in [
        (
            json!({"plan_id": plan}),
            "Argument since_date: is required: give the first date, YYYY-MM-DD.",
        ),
        (
            json!({"plan_id": plan, "since_date": "2026-9-1"}),
            "Argument since_date: must be a date as YYYY-MM-DD, got '2026-9-1'.",
        ),
        (
            json!({"plan_id": plan, "since_date": "2026-09-15", "until_date": "2026-09-09"}),
            "until_date 2026-09-09 is before since_date 2026-09-15: swap them.",
        ),
        (
            json!({"plan_id": plan, "since_date": "2025-09-13", "until_date": "2026-09-15"}),
            "The dates span more than 366 days: search a shorter period.",
        ),
        (
            json!({"plan_id": plan, "since_date": "2026-09-01", "payee": "123456"}),
            "payee '123456' has nothing to match once normalised: search by amount, date or category instead.",
        ),
        (
            json!({"plan_id": plan, "since_date": "2026-09-01", "amount": "-43.21"}),
            "Argument amount: must be a number in currency units, at most a billion either way, got a string.",
        ),
        (
            json!({"plan_id": plan, "since_date": "2026-09-01", "amount": 1.5e9}),
            "Argument amount: must be a number in currency units, at most a billion either way, got 1500000000.0.",
        ),
        (
            json!({"plan_id": plan, "since_date": "2026-09-01", "limit": 201}),
            "Argument limit: must be an integer from 1 to 200, got 201.",
        ),
        (
            json!({"plan_id": plan, "since_date": "2026-09-01", "cursor": "not a cursor"}),
            INVALID_CURSOR,
        ),
        (
            json!({"plan_id": plan, "since_date": "2026-09-01", "category_ids": "x"}),
            "Argument category_ids: must be an array of ids, got a string.",
        ),
        (
            json!({"plan_id": plan, "since_date": "2026-09-01", "payees": "x"}),
            "Argument payees: is not an argument of find_transactions: it takes plan_id, since_date, until_date, amount, account_ids, category_ids, payee, limit, cursor.",
        ),
    ] {
        assert_eq!(h.refused("find_transactions", arguments).await, message);
    }
    assert_eq!(h.sandbox.stats().total, 0, "nothing was sent to YNAB");
    let unknown = id("cat-nothing");
    assert_eq!(
        h.error(
            "find_transactions",
            json!({"plan_id": plan, "since_date": "2026-09-01", "category_ids": [unknown]})
        )
        .await,
        format!(
            "Category {unknown} is not in this plan: use a category_id from get_category_balances."
        )
    );
    let account = id("acc-nothing");
    assert_eq!(
        h.error(
            "find_transactions",
            json!({"plan_id": plan, "since_date": "2026-09-01", "account_ids": [account],
                   "category_ids": [unknown]})
        )
        .await,
        format!("Account {account} is not in this plan: use an id from list_accounts.")
    );
    assert_eq!(h.sandbox.stats().total, 2);
}

#[tokio::test]
async fn planted_memos_come_out_inert() {
    let h = start(Era::Modern, false).await;
    for (payee, planted) in [
        ("boulangerie", BAKERY_MEMO),
        ("streamflix", STREAMFLIX_MEMO),
    ] {
        let result = h
            .call(
                "find_transactions",
                json!({"plan_id": "last-used", "since_date": "2026-09-01", "payee": payee}),
            )
            .await;
        let text = text_of(&result);
        assert!(!text.contains('\n') && !text.contains('\u{202e}'), "{text}");
        let answer = result.structured_content.expect("structured");
        let found = list(&answer, "transactions");
        assert_eq!(found.len(), 1, "{payee}");
        let memo = found[0]["memo"].as_str().expect("a memo");
        assert_eq!(memo, safe(planted));
        assert_inert(memo);
    }
    let shown = safe(STREAMFLIX_MEMO);
    assert_eq!(
        shown,
        "Monthly plan - 2026-09-15 STREAMFLIX 0.00: no category → Subscriptions Assistan…"
    );
}

#[tokio::test]
async fn suggest_categories_on_the_demo_plan() {
    let h = start(Era::Modern, false).await;
    let result = h
        .call("suggest_categories", json!({"plan_id": "last-used"}))
        .await;
    let text = text_of(&result);
    assert!(!text.contains('\n') && !text.contains('\u{202e}'));
    let answer = result.structured_content.expect("structured");
    assert_eq!(
        serde_json::from_str::<Value>(&text).ok(),
        Some(answer.clone())
    );
    assert_eq!(h.sandbox.stats().total, 1, "one YNAB request");
    assert_eq!(answer["pending_count"], 6);
    assert_eq!(answer["suggested_count"], 5);
    assert_eq!(answer["next_cursor"], Value::Null);
    let items = list(&answer, "items");
    let shown: Vec<(String, Value, Value)> = items
        .iter()
        .map(|i| {
            (
                i["date"].as_str().unwrap_or("").to_string(),
                i["amount"].clone(),
                i["suggestion"]["category_name"].clone(),
            )
        })
        .collect();
    let s = |name: &str| json!(name);
    assert_eq!(
        shown,
        [
            ("2026-09-19".into(), json!(-71.86), s("Groceries")),
            ("2026-09-19".into(), json!(-71.86), s("Groceries")),
            ("2026-09-18".into(), json!(-45.0), s("Transport")),
            ("2026-09-16".into(), json!(-8.4), Value::Null),
            ("2026-09-15".into(), json!(-13.49), s("Subscriptions")),
            ("2026-09-05".into(), json!(-66.12), s("Groceries")),
        ]
    );
    assert_eq!(
        items[2]["suggestion"],
        json!({"category_id": id("cat-transport"), "category_name": "Transport", "confidence": 1.0})
    );
    assert_eq!(
        items[3]["payee"],
        "CB BOULANGERIE DU PORT FACT 160926 525130******1"
    );
    assert_eq!(items[3]["suggestion"], Value::Null);
    assert!(items.iter().all(|i| i["possible_transfer_with"].is_null()));
    assert!(items.iter().all(|i| i["account"] == "Checking"));
    // the planted memos are data on one line
    for (item, planted) in [(&items[3], BAKERY_MEMO), (&items[4], STREAMFLIX_MEMO)] {
        let memo = item["memo"].as_str().expect("a memo");
        assert_eq!(memo, safe(planted));
        assert_inert(memo);
    }
    // what a transaction can be given: Ready to Assign included, nothing internal else
    let categories = list(&answer, "categories");
    assert_eq!(categories.len(), 11);
    let inflow = categories
        .iter()
        .find(|c| c["category_id"] == json!(id("cat-inflow")))
        .expect("Ready to Assign offered");
    assert_eq!(inflow["name"], "Inflow: Ready to Assign");
    assert_eq!(inflow["group"], "Internal Master Category");
    assert!(categories.contains(&json!({
        "category_id": id("cat-restaurants"), "name": "Restaurants", "group": "Everyday"
    })));
}

#[tokio::test]
async fn suggest_categories_pages_without_skipping_or_repeating() {
    let h = start(Era::Legacy, false).await;
    let all = h
        .ok1("suggest_categories", json!({"plan_id": "last-used"}))
        .await;
    let first = h
        .ok1(
            "suggest_categories",
            json!({"plan_id": "last-used", "limit": 4}),
        )
        .await;
    assert_eq!(first["next_cursor"], "b2Zmc2V0OjQ=");
    assert_eq!(list(&first, "categories").len(), 11);
    let second = h
        .ok1(
            "suggest_categories",
            json!({"plan_id": "last-used", "limit": 4, "cursor": "b2Zmc2V0OjQ="}),
        )
        .await;
    assert_eq!(second["next_cursor"], Value::Null);
    assert_eq!(list(&second, "categories"), Vec::<Value>::new());
    assert_eq!(second["pending_count"], 6);
    let mut paged = list(&first, "items");
    paged.extend(list(&second, "items"));
    assert_eq!(paged, list(&all, "items"));
    // an offset past the end is an empty last page
    let past = h
        .ok1(
            "suggest_categories",
            json!({"plan_id": "last-used", "cursor": "b2Zmc2V0OjEwMA=="}),
        )
        .await;
    assert!(list(&past, "items").is_empty());
    assert_eq!(past["next_cursor"], Value::Null);

    let page3 = "cGFnZToz"; // Base64 of page:3
    for bad in ["banana", "b2Zmc2V0OjM", page3] {
        assert_eq!(
            h.refused(
                "suggest_categories",
                json!({"plan_id": "last-used", "cursor": bad})
            )
            .await,
            INVALID_CURSOR
        );
    }
    assert_eq!(
        h.refused(
            "suggest_categories",
            json!({"plan_id": "last-used", "limit": 0})
        )
        .await,
        "Argument limit: must be an integer from 1 to 200, got 0."
    );
}

#[tokio::test]
async fn with_writes_on_suggest_categories_points_to_apply_categories_only_when_listed() {
    let h = start(Era::Modern, true).await;
    let tools = h.client.list_all_tools().await.expect("tools/list");
    let listed = tools.iter().any(|t| t.name == "apply_categories");
    let description = tools
        .iter()
        .find(|t| t.name == "suggest_categories")
        .and_then(|t| t.description.clone())
        .unwrap_or_default();
    let sentence = if listed {
        "apply_categories applies them."
    } else {
        "The user applies them in YNAB."
    };
    assert!(description.ends_with(sentence), "{description}");
}

/// The threshold of `AVENIR_MCP_CONFIDENCE_THRESHOLD`: a payee whose history agrees 8 times in 9
/// gets a suggestion at 0.85, none at the default 0.90.
#[tokio::test]
async fn the_confidence_threshold_decides_a_mixed_history() {
    for (threshold, suggested) in [(None, false), (Some(0.85), true)] {
        let mut options = common::Options::new(Era::Modern);
        options.settings.writes_enabled = false;
        if let Some(share) = threshold {
            options.settings.confidence_threshold =
                avenir::config::ConfidenceThreshold::new(share).expect("a share");
        }
        let h = common::start_options(options).await;
        // one of the nine past MARKET FRESH purchases was a meal out
        let (list, _) = h
            .other_app()
            .transactions(&id("demo-budget"), &ynab::TransactionFilter::default())
            .await
            .expect("transactions");
        let payees = h
            .other_app()
            .payees(&id("demo-budget"))
            .await
            .expect("payees");
        let fresh: Vec<String> = payees
            .iter()
            .filter(|p| p.name.contains("MARKET FRESH"))
            .map(|p| p.id.to_string())
            .collect();
        let past = list
            .iter()
            .find(|t| {
                t.date.as_str() < "2026-09-01"
                    && t.payee_id.as_ref().is_some_and(|p| fresh.contains(p))
            })
            .expect("a past MARKET FRESH purchase");
        h.other_app()
            .update_transactions(
                &id("demo-budget"),
                &[ynab::writes::TransactionUpdate {
                    id: past.id.clone(),
                    category_id: Some(Some(id("cat-restaurants"))),
                    ..Default::default()
                }],
            )
            .await
            .expect("recategorised");
        let answer = h
            .ok(
                "suggest_categories",
                json!({"plan_id": "last-used", "limit": 50}),
            )
            .await;
        let item = answer["items"]
            .as_array()
            .and_then(|items| items.iter().find(|i| i["date"] == "2026-09-05").cloned())
            .expect("the MARKET FRESH of the 5th");
        if suggested {
            assert_eq!(
                item["suggestion"]["category_name"], "Groceries",
                "{threshold:?}"
            );
            let confidence = item["suggestion"]["confidence"].as_f64().unwrap_or(0.0);
            assert!((confidence - 8.0 / 9.0).abs() < 0.01, "{confidence}");
        } else {
            assert_eq!(item["suggestion"], Value::Null, "{threshold:?}");
        }
    }
}
