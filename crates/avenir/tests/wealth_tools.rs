//! `get_age_of_money` and `get_net_worth_trend` through the MCP protocol, on the demo plan of
//! `docs/contract/server.md` §8.1: its figures, the exact argument errors with nothing sent, and
//! one YNAB request per call once the plan is loaded (D28).

use crate::common;

use avenir::tools::tool_names::{READ_TOOLS, WRITE_TOOLS};
use common::{Era, Harness, id, meta_of, start, text_of};
use serde_json::{Value, json};

const TOOLS: [(&str, &str); 2] = [
    ("get_age_of_money", "Age of Money month by month"),
    ("get_net_worth_trend", "Net worth month by month"),
];

const FIGURE_NOTE: &str = "Age of Money is YNAB's own figure: for the latest payments out of the \
budget accounts, how many days passed since that money came in, the oldest money spent first, \
averaged.";
const MOVING_NOTE: &str = "The current month's figure moves with each payment; a past month's is the one YNAB keeps for it.";

/// The tool names a text mentions, as whole words.
fn tool_names_in(text: &str) -> Vec<&'static str> {
    READ_TOOLS
        .iter()
        .chain(WRITE_TOOLS.iter())
        .copied()
        .filter(|name| {
            text.match_indices(name).any(|(at, _)| {
                let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
                !word(text[..at].chars().next_back())
                    && !word(text[at + name.len()..].chars().next())
            })
        })
        .collect()
}

/// Call `tool` and check it cost exactly one YNAB request.
async fn ok_one_request(h: &Harness, tool: &'static str, arguments: Value) -> Value {
    let before = h.sandbox.stats().total;
    let answer = h.ok(tool, arguments).await;
    assert_eq!(
        h.sandbox.stats().total,
        before + 1,
        "{tool}: one YNAB request"
    );
    answer
}

/// An amount of an answer, in milliunits.
fn milli(value: &Value) -> i64 {
    (value.as_f64().unwrap_or(f64::NAN) * 1000.0).round() as i64
}

#[tokio::test]
async fn both_tools_are_listed_in_every_mode_with_their_title_and_cost() {
    for (era, writes) in [(Era::Modern, false), (Era::Legacy, true)] {
        let h = start(era, writes).await;
        let tools = h.client.list_all_tools().await.expect("tools/list");
        let listed: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        for (name, title) in TOOLS {
            let tool = tools
                .iter()
                .find(|t| t.name == name)
                .unwrap_or_else(|| panic!("{name} listed"));
            assert_eq!(tool.title.as_deref(), Some(title));
            let a = tool.annotations.as_ref().expect("annotations");
            assert_eq!(
                (a.read_only_hint, a.idempotent_hint, a.open_world_hint),
                (Some(true), Some(true), Some(true))
            );
            assert_eq!(a.destructive_hint, None);
            let description = tool.description.as_deref().unwrap_or("");
            assert!(
                !description.contains("YNAB request once the plan is loaded"),
                "the cost is said once, in the guide (D28): {description}"
            );
            for named in tool_names_in(description) {
                assert!(listed.contains(&named), "{name} names {named}");
                assert!(!WRITE_TOOLS.contains(&named), "{name} names a write tool");
            }
            let schema = serde_json::to_value(&tool.input_schema).unwrap_or_default();
            assert_eq!(schema["properties"]["months_count"]["maximum"], 24);
            assert_eq!(schema["properties"]["months_count"]["default"], 12);
            // plan_id may be left out (D40): nothing is required
            assert_eq!(schema["required"], Value::Null);
            assert!(tool.output_schema.is_some(), "{name}: an output schema");
        }
    }
}

#[tokio::test]
async fn age_of_money_follows_the_demo_month_by_month() {
    let h = start(Era::Modern, false).await;
    let result = h
        .call("get_age_of_money", json!({"plan_id": "last-used"}))
        .await;
    assert_eq!(h.sandbox.stats().total, 1, "loading the plan: one request");
    let age = result.structured_content.clone().expect("structured");
    let text: Value = serde_json::from_str(&text_of(&result)).expect("JSON text");
    assert_eq!(text, age, "the text block holds the same JSON");
    assert_eq!(meta_of(&result)["avenir-mcp/plan_id"], id("demo-budget"));
    // §8.1: none in June, 17 days July, 48 August, 47 September; the plan holds months from June.
    assert_eq!(
        age["months"],
        json!([
            {"month": "2026-06-01", "days": null, "change": null},
            {"month": "2026-07-01", "days": 17, "change": null},
            {"month": "2026-08-01", "days": 48, "change": 31},
            {"month": "2026-09-01", "days": 47, "change": -1}
        ])
    );
    assert_eq!(age["days"], 47);
    assert_eq!(age["as_of"], "2026-09-01");
    assert_eq!(age["change"], 30);
    assert_eq!(age["trend"], "up");
    assert_eq!(
        age["message"],
        "Your money is 47 days old (2026-09-01, YNAB's Age of Money): what you spend came in 47 \
days before, on average. Over 30 days: you are living on last month's income, the buffer YNAB aims \
for. It went up by 30 days since 2026-07-01."
    );
    assert_eq!(
        age["notes"],
        json!([
            FIGURE_NOTE,
            MOVING_NOTE,
            "No figure for 2026-06-01: YNAB did not have enough history of money in and out yet.",
            "YNAB holds only 4 months up to 2026-09-01: all are shown."
        ])
    );

    // the current month alone: no change, no trend, the two fixed notes only
    let now = ok_one_request(
        &h,
        "get_age_of_money",
        json!({"plan_id": "last-used", "months_count": 1}),
    )
    .await;
    assert_eq!(
        now["months"],
        json!([{"month": "2026-09-01", "days": 47, "change": null}])
    );
    assert_eq!(
        (&now["change"], &now["trend"]),
        (&json!(null), &json!(null))
    );
    assert!(
        now["message"]
            .as_str()
            .is_some_and(|m| m.ends_with("the buffer YNAB aims for.")),
        "{}",
        now["message"]
    );
    assert_eq!(now["notes"], json!([FIGURE_NOTE, MOVING_NOTE]));

    // two months: August to September went down by a day
    let two = ok_one_request(
        &h,
        "get_age_of_money",
        json!({"plan_id": id("demo-budget"), "months_count": 2}),
    )
    .await;
    assert_eq!(
        (&two["change"], &two["trend"]),
        (&json!(-1), &json!("down"))
    );
    assert!(
        two["message"]
            .as_str()
            .is_some_and(|m| m.ends_with(" It went down by 1 days since 2026-08-01.")),
        "{}",
        two["message"]
    );
}

#[tokio::test]
async fn net_worth_grows_from_april_2025_to_now() {
    let h = start(Era::Legacy, false).await;
    let result = h
        .call(
            "get_net_worth_trend",
            json!({"plan_id": "last-used", "months_count": 18}),
        )
        .await;
    assert_eq!(h.sandbox.stats().total, 1, "loading the plan: one request");
    let trend = result.structured_content.clone().expect("structured");
    let text: Value = serde_json::from_str(&text_of(&result)).expect("JSON text");
    assert_eq!(text, trend, "the text block holds the same JSON");
    let months = trend["months"].as_array().cloned().unwrap_or_default();
    assert_eq!(months.len(), 18);
    // §8.1: net worth −24,038.21 at the end of April 2025 → +1,230.05 now, growth 25,268.26
    assert_eq!(
        months[0],
        json!({"month": "2025-04-01", "assets": 3159.6, "debts": -27197.81, "net_worth": -24038.21})
    );
    assert_eq!(months[17]["month"], "2026-09-01");
    assert_eq!(months[17]["net_worth"], json!(1230.05));
    assert_eq!(months[17]["debts"], json!(-19040.81), "the car loan only");
    // today's balances: 3,328.50 + 600.00 + 16,342.36 in assets
    assert_eq!(months[17]["assets"], json!(20270.86));
    assert_eq!(trend["first_net_worth"], json!(-24038.21));
    assert_eq!(trend["last_net_worth"], json!(1230.05));
    assert_eq!(trend["change"], json!(25268.26));
    for m in &months {
        assert_eq!(
            milli(&m["assets"]) + milli(&m["debts"]),
            milli(&m["net_worth"]),
            "{m}"
        );
    }
    let debts: Vec<i64> = months.iter().map(|m| milli(&m["debts"])).collect();
    assert!(
        debts.windows(2).all(|w| w[0] <= w[1]),
        "the debt goes down every month: {debts:?}"
    );
    assert_eq!(
        trend["accounts"],
        json!([
            "Checking",
            "Savings",
            "Joint savings",
            "Car loan",
            "Student loan",
            "Former bank"
        ]),
        "the closed accounts had a balance back then"
    );

    // since July 2026 the closed accounts hold nothing: counted, not named
    let summer = ok_one_request(
        &h,
        "get_net_worth_trend",
        json!({"plan_id": "last-used", "months_count": 3}),
    )
    .await;
    assert_eq!(
        summer["accounts"],
        json!(["Checking", "Savings", "Joint savings", "Car loan"])
    );
    assert_eq!(summer["last_net_worth"], json!(1230.05));
    let labels: Vec<&str> = summer["months"]
        .as_array()
        .map(|m| m.iter().filter_map(|e| e["month"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(labels, ["2026-07-01", "2026-08-01", "2026-09-01"]);

    // the default: twelve months, October 2025 to September 2026
    let year = ok_one_request(&h, "get_net_worth_trend", json!({"plan_id": "last-used"})).await;
    let months = year["months"].as_array().cloned().unwrap_or_default();
    assert_eq!(months.len(), 12);
    assert_eq!(months[0]["month"], "2025-10-01");
    assert_eq!(year["last_net_worth"], json!(1230.05));
}

#[tokio::test]
async fn a_change_in_ynab_shows_at_the_next_call_for_one_request() {
    let h = start(Era::Modern, false).await;
    let before = ok_one_request(
        &h,
        "get_net_worth_trend",
        json!({"plan_id": "last-used", "months_count": 18}),
    )
    .await;
    h.other_app()
        .create_transactions(
            &id("demo-budget"),
            &[ynab::writes::NewTransaction {
                account_id: id("acc-checking"),
                date: "2026-09-20".into(),
                amount: -12_000,
                payee_name: Some("CORNER SHOP".into()),
                ..Default::default()
            }],
        )
        .await
        .expect("another app records a purchase");
    let after = ok_one_request(
        &h,
        "get_net_worth_trend",
        json!({"plan_id": "last-used", "months_count": 18}),
    )
    .await;
    assert_eq!(after["first_net_worth"], before["first_net_worth"]);
    assert_eq!(after["last_net_worth"], json!(1218.05));
    assert_eq!(after["change"], json!(25256.26));
    let age = ok_one_request(&h, "get_age_of_money", json!({"plan_id": "last-used"})).await;
    assert_eq!(age["as_of"], "2026-09-01");
}

#[tokio::test]
async fn bad_arguments_are_refused_before_anything_is_sent() {
    let h = start(Era::Modern, false).await;
    for (tool, _) in TOOLS {
        for (count, shown) in [
            (json!(0), "0"),
            (json!(25), "25"),
            (json!(-3), "-3"),
            (json!(1.5), "1.5"),
        ] {
            assert_eq!(
                h.error(tool, json!({"plan_id": "last-used", "months_count": count}))
                    .await,
                format!("Argument months_count: must be an integer from 1 to 24, got {shown}."),
                "{tool} {count}"
            );
        }
        assert_eq!(
            h.error(tool, json!({"plan_id": "last-used", "months_count": "12"}))
                .await,
            "Argument months_count: must be an integer from 1 to 24, got a string."
        );
        assert_eq!(
            h.error(tool, json!({"plan_id": 7})).await,
            "Argument plan_id: must be a string, got a number."
        );
        assert_eq!(
            h.error(tool, json!({"plan_id": "last-used", "months": 3}))
                .await,
            format!(
                "Argument months: is not an argument of {tool}: it takes plan_id, months_count, chart."
            )
        );
        assert_eq!(
            h.error(tool, json!({"plan_id": "a/b"})).await,
            "'a/b' is not a YNAB id: use the ids returned by list_plans, list_accounts or the other \
tools."
        );
    }
    assert_eq!(h.sandbox.stats().total, 0, "nothing was sent to YNAB");

    // plan_id left out means the last-used plan (D40)
    for (tool, _) in TOOLS {
        assert_eq!(
            h.ok(tool, json!({"months_count": 3})).await,
            h.ok(tool, json!({"plan_id": "last-used", "months_count": 3}))
                .await
        );
    }
}
