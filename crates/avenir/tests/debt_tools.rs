//! `get_debt_payoff_plan` and `get_runway` through the MCP protocol, on the demo plan: the figures
//! of `docs/contract/server.md` §8.1, exact argument errors with nothing sent to YNAB (D23), and
//! one YNAB request per call once the plan is loaded (D28).

use crate::common;

use avenir::tools::tool_names::{READ_TOOLS, WRITE_TOOLS};
use common::{Era, Harness, id, start};
use serde_json::{Value, json};

const TOOLS: [(&str, &str); 2] = [
    ("get_debt_payoff_plan", "Debt payoff plan"),
    ("get_runway", "Months of runway"),
];

/// Call `tool` and check it cost exactly one YNAB request.
async fn ok_one_request(h: &Harness, tool: &'static str, arguments: Value) -> Value {
    let before = h.served();
    let answer = h.ok(tool, arguments).await;
    assert_eq!(h.served(), before + 1, "{tool}: one YNAB request");
    answer
}

/// The error of a call that costs exactly one YNAB request.
async fn error_one_request(h: &Harness, tool: &'static str, arguments: Value) -> String {
    let before = h.served();
    let message = h.error(tool, arguments).await;
    assert_eq!(h.served(), before + 1, "{tool}: one YNAB request");
    message
}

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

#[tokio::test]
async fn both_tools_are_listed_with_their_titles_and_cost() {
    for era in [Era::Modern, Era::Legacy] {
        for writes in [false, true] {
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
                    assert!(!WRITE_TOOLS.contains(&named), "{name} names {named}");
                }
                assert!(tool.output_schema.is_some(), "{name}: an output schema");
            }
        }
    }
}

#[tokio::test]
async fn the_demo_car_loan_is_paid_off_in_53_months() {
    let h = start(Era::Modern, false).await;
    let plan = ok_one_request(&h, "get_debt_payoff_plan", json!({"plan_id": "last-used"})).await;
    assert_eq!(
        plan["message"],
        "At 400.00 a month, the 19040.81 owed on 1 debt is paid off in 53 months, by 2031-02-01, \
with 1972.80 of interest (avalanche). Avalanche and snowball cost the same here."
    );
    assert_eq!(plan["monthly_budget"], json!(400.0));
    assert_eq!(plan["budget_from"], "minimum payments");
    assert_eq!(plan["first_month"], "2026-10-01");
    assert_eq!(
        plan["debts"],
        json!([{
            "account_id": id("acc-car-loan"),
            "name": "Car loan",
            "type": "autoLoan",
            "owed": 19040.81,
            "interest_rate": 4.5,
            "rate_from": "YNAB",
            "minimum_payment": 400.0,
            "minimum_from": "YNAB",
            "escrow": 0.0
        }]),
        "the car loan only: the student loan is closed and paid off"
    );
    let plans = plan["plans"].as_array().cloned().unwrap_or_default();
    assert_eq!(plans.len(), 2);
    for (p, strategy) in plans.iter().zip(["avalanche", "snowball"]) {
        assert_eq!(p["strategy"], strategy);
        assert_eq!(p["months_to_debt_free"], 53);
        assert_eq!(p["debt_free_month"], "2031-02-01");
        assert_eq!(p["total_interest"], json!(1972.8));
        assert_eq!(p["total_paid"], json!(21013.61));
        assert_eq!(
            p["debts"],
            json!([{"name": "Car loan", "payoff_month": "2031-02-01", "months": 53,
                    "interest": 1972.8, "paid": 21013.61}])
        );
    }
    assert_eq!(plan["interest_saved_by_avalanche"], json!(0.0));
    assert_eq!(plan["months_saved_by_avalanche"], 0);
    assert_eq!(
        plan["notes"],
        json!([
            "Rates and minimum payments are those in force today and are assumed fixed; no new charges are made on the debts.",
            "Each month, from 2026-10-01, every debt is charged a twelfth of its yearly rate on its balance, then gets its minimum payment; the rest of the monthly budget goes to the first debt of the strategy (avalanche: highest rate first; snowball: smallest balance first), and a debt paid off frees its minimum for the next.",
            "monthly_budget was not given: 400.00 is the sum of the minimum payments, so nothing extra; give a larger monthly_budget to see how much sooner the debts would be paid off."
        ])
    );

    // a warm cache: every later call is one delta request
    let same = ok_one_request(
        &h,
        "get_debt_payoff_plan",
        json!({"plan_id": "last-used", "strategy": "both", "max_months": 600}),
    )
    .await;
    assert_eq!(same, plan);
}

#[tokio::test]
async fn a_budget_a_strategy_and_overrides() {
    let h = start(Era::Modern, false).await;
    let faster = ok_one_request(
        &h,
        "get_debt_payoff_plan",
        json!({"plan_id": "last-used", "strategy": "snowball", "monthly_budget": 800}),
    )
    .await;
    assert_eq!(faster["budget_from"], "given");
    assert_eq!(faster["plans"].as_array().map(Vec::len), Some(1));
    assert_eq!(faster["plans"][0]["strategy"], "snowball");
    assert_eq!(faster["interest_saved_by_avalanche"], Value::Null);
    assert_eq!(faster["months_saved_by_avalanche"], Value::Null);
    let months = faster["plans"][0]["months_to_debt_free"]
        .as_u64()
        .unwrap_or(0);
    assert!((24..53).contains(&months), "{months}");
    assert!(
        faster["message"]
            .as_str()
            .unwrap_or("")
            .starts_with("At 800.00 a month, the 19040.81 owed on 1 debt is paid off in "),
        "{}",
        faster["message"]
    );

    // at 0 %, by name in any case: 19040.81 ÷ 400 → 48 payments, no interest
    let free = ok_one_request(
        &h,
        "get_debt_payoff_plan",
        json!({"plan_id": "last-used", "strategy": "avalanche",
               "overrides": [{"account": "  CAR LOAN ", "interest_rate": 0}]}),
    )
    .await;
    assert_eq!(free["debts"][0]["interest_rate"], json!(0.0));
    assert_eq!(free["debts"][0]["rate_from"], "override");
    assert_eq!(free["debts"][0]["minimum_from"], "YNAB");
    assert_eq!(free["plans"][0]["months_to_debt_free"], 48);
    assert_eq!(free["plans"][0]["total_interest"], json!(0.0));

    // by id, with a minimum too low to cover the interest
    let never = ok_one_request(
        &h,
        "get_debt_payoff_plan",
        json!({"plan_id": "last-used",
               "overrides": [{"account": id("acc-car-loan"), "minimum_payment": 50.5}]}),
    )
    .await;
    assert_eq!(never["monthly_budget"], json!(50.5));
    assert_eq!(
        never["message"],
        "At 50.50 a month, the payments do not cover the interest charged on the 19040.81 owed: \
the debt never shrinks. Pay more each month to pay it off."
    );
    assert_eq!(never["plans"][0]["months_to_debt_free"], Value::Null);
    assert_eq!(never["plans"][0]["debts"][0]["payoff_month"], Value::Null);

    // capped
    let capped = ok_one_request(
        &h,
        "get_debt_payoff_plan",
        json!({"plan_id": "last-used", "strategy": "avalanche", "max_months": 12}),
    )
    .await;
    let message = capped["message"].as_str().unwrap_or("");
    assert!(
        message
            .starts_with("At 400.00 a month, the 19040.81 owed is not paid off within 12 months: "),
        "{message}"
    );
    assert_eq!(
        capped["notes"].as_array().and_then(|n| n.last()),
        Some(&json!("The plan stops after 12 months: max_months."))
    );
}

#[tokio::test]
async fn payoff_errors_after_reading_the_plan() {
    let h = start(Era::Modern, false).await;
    assert_eq!(
        error_one_request(
            &h,
            "get_debt_payoff_plan",
            json!({"plan_id": "last-used",
                   "overrides": [{"account": "Boat"}, {"account": "Student loan", "interest_rate": 2}]}),
        )
        .await,
        "Unknown debt account(s) 'Boat', 'Student loan': give names or ids of the open accounts \
that owe money: Car loan."
    );
    assert_eq!(
        error_one_request(
            &h,
            "get_debt_payoff_plan",
            json!({"plan_id": "last-used", "monthly_budget": 300}),
        )
        .await,
        "monthly_budget 300.00 is less than the minimum payments, 400.00: give at least that much."
    );
}

#[tokio::test]
async fn payoff_arguments_are_checked_before_anything_is_sent() {
    let h = start(Era::Modern, false).await;
    let cases = [
        (
            json!({"plan_id": "last-used", "strategy": "fastest"}),
            "Argument strategy: must be 'avalanche', 'snowball' or 'both', got 'fastest'.",
        ),
        (
            json!({"plan_id": "last-used", "monthly_budget": 0}),
            "Argument monthly_budget: must be a number above 0 and at most 1000000000, in currency units, got 0.0.",
        ),
        (
            json!({"plan_id": "last-used", "monthly_budget": -5}),
            "Argument monthly_budget: must be a number above 0 and at most 1000000000, in currency units, got -5.0.",
        ),
        (
            json!({"plan_id": "last-used", "monthly_budget": 2e9}),
            "Argument monthly_budget: must be a number above 0 and at most 1000000000, in currency units, got 2000000000.0.",
        ),
        (
            json!({"plan_id": "last-used", "monthly_budget": "500"}),
            "Argument monthly_budget: must be a number above 0 and at most 1000000000, in currency units, got a string.",
        ),
        (
            json!({"plan_id": "last-used", "overrides": []}),
            "Argument overrides: must hold 1 to 50 overrides when given, got 0: leave it out to keep YNAB's terms.",
        ),
        (
            json!({"plan_id": "last-used", "overrides": {"account": "Car loan"}}),
            "Argument overrides: must be an array of objects, got an object.",
        ),
        (
            json!({"plan_id": "last-used", "overrides": ["Car loan"]}),
            "Argument overrides.0: must be an object with account, interest_rate and minimum_payment, got a string.",
        ),
        (
            json!({"plan_id": "last-used", "overrides": [{"account": "Car loan"}, {"account": "Car loan", "minimum_payment": -1}]}),
            "Argument overrides.1.minimum_payment: must be a number from 0 to 1000000000, in currency units, got -1.0.",
        ),
        (
            json!({"plan_id": "last-used", "overrides": [{"account": "Car loan", "rate": 3}]}),
            "Argument overrides.0.rate: is not accepted here: give only account, interest_rate and minimum_payment.",
        ),
        (
            json!({"plan_id": "last-used", "overrides": [{"interest_rate": 3}]}),
            "Argument overrides.0.account: is required: give a debt account's name or id.",
        ),
        (
            json!({"plan_id": "last-used", "overrides": [{"account": ""}]}),
            "Argument overrides.0.account: must be 1 to 200 characters long, got 0.",
        ),
        (
            json!({"plan_id": "last-used", "overrides": [{"account": "Car loan", "interest_rate": 120}]}),
            "Argument overrides.0.interest_rate: must be a number from 0 to 100, percent a year, got 120.0.",
        ),
        (
            json!({"plan_id": "last-used", "overrides": [{"account": "Car loan", "interest_rate": "4.5"}]}),
            "Argument overrides.0.interest_rate: must be a number from 0 to 100, percent a year, got a string.",
        ),
        (
            json!({"plan_id": "last-used", "max_months": 6}),
            "Argument max_months: must be an integer from 12 to 1200, got 6.",
        ),
        (
            json!({"plan_id": "last-used", "months": 6}),
            "Argument months: is not an argument of get_debt_payoff_plan: it takes plan_id, strategy, monthly_budget, overrides, max_months.",
        ),
        (
            json!({"plan_id": "a/b"}),
            "'a/b' is not a YNAB id: use the ids returned by list_plans, list_accounts or the other tools.",
        ),
    ];
    for (arguments, expected) in cases {
        assert_eq!(
            h.error("get_debt_payoff_plan", arguments.clone()).await,
            expected,
            "{arguments}"
        );
    }
    let many: Vec<Value> = (0..51).map(|_| json!({"account": "Car loan"})).collect();
    assert_eq!(
        h.error(
            "get_debt_payoff_plan",
            json!({"plan_id": "last-used", "overrides": many})
        )
        .await,
        "Argument overrides: must hold 1 to 50 overrides when given, got 51: leave it out to keep YNAB's terms."
    );
    assert_eq!(h.served(), 0, "nothing was sent to YNAB");
    // plan_id left out means the last-used plan (D40)
    assert_eq!(
        h.ok("get_debt_payoff_plan", json!({})).await,
        h.ok("get_debt_payoff_plan", json!({"plan_id": "last-used"}))
            .await
    );
}

#[tokio::test]
async fn the_demo_runway() {
    let h = start(Era::Modern, false).await;
    let runway = ok_one_request(&h, "get_runway", json!({"plan_id": "last-used"})).await;
    assert_eq!(
        runway["message"],
        "At the average spending of the last 3 complete months, 1396.03 a month, the 3928.50 \
available would last 2.8 months."
    );
    assert_eq!(runway["liquid"], json!(3928.5));
    assert_eq!(runway["owed_on_cards"], json!(0.0));
    assert_eq!(
        runway["spending"],
        json!({"monthly_spending": -1396.03, "runway_months": 2.8})
    );
    assert_eq!(runway["essential"], Value::Null);
    assert_eq!(runway["essential_groups"], json!([]));
    assert_eq!(
        runway["months"],
        json!(["2026-06-01", "2026-07-01", "2026-08-01"])
    );
    assert_eq!(
        runway["accounts"],
        json!([
            {"name": "Checking", "type": "checking", "balance": 3328.5},
            {"name": "Savings", "type": "savings", "balance": 600.0}
        ])
    );
    assert_eq!(runway["left_out"], json!(["Joint savings", "Car loan"]));
    let notes: Vec<&str> = runway["notes"]
        .as_array()
        .map(|n| n.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert_eq!(notes.len(), 6, "{notes:?}");
    assert_eq!(
        notes[0],
        "No income is assumed: the runway is how long the money would last if nothing came in."
    );
    assert_eq!(
        notes[5],
        "Only the last 3 of the 6 months hold budget transactions: the average is over those."
    );

    let essential = ok_one_request(
        &h,
        "get_runway",
        json!({"plan_id": "last-used", "months_count": 3, "essential_groups": ["bills", id("grp-bills")],
               "include_savings": false}),
    )
    .await;
    assert_eq!(essential["liquid"], json!(3328.5));
    assert_eq!(essential["essential_groups"], json!(["Bills"]));
    assert_eq!(
        essential["essential"],
        json!({"monthly_spending": -1064.18, "runway_months": 3.1})
    );
    assert_eq!(
        essential["left_out"],
        json!(["Savings", "Joint savings", "Car loan"])
    );
    assert_eq!(
        essential["message"],
        "At the average spending of the last 3 complete months, 1396.03 a month, the 3328.50 \
available would last 2.4 months. On essential spending alone, 1064.18 a month: 3.1 months."
    );
    assert!(
        essential["notes"]
            .as_array()
            .is_some_and(|n| n.contains(&json!(
                "Savings accounts were left out of the money available, as asked."
            )))
    );
}

#[tokio::test]
async fn runway_errors() {
    let h = start(Era::Modern, false).await;
    let cases = [
        (
            json!({"plan_id": "last-used", "months_count": 0}),
            "Argument months_count: must be an integer from 1 to 24, got 0.",
        ),
        (
            json!({"plan_id": "last-used", "months_count": 25}),
            "Argument months_count: must be an integer from 1 to 24, got 25.",
        ),
        (
            json!({"plan_id": "last-used", "essential_groups": []}),
            "Argument essential_groups: must hold 1 to 50 group names or ids when given, got 0.",
        ),
        (
            json!({"plan_id": "last-used", "essential_groups": "Bills"}),
            "Argument essential_groups: must be an array of group names or ids, got a string.",
        ),
        (
            json!({"plan_id": "last-used", "essential_groups": ["Bills", 3]}),
            "Argument essential_groups.1: must be a group name or id (a string), got a number.",
        ),
        (
            json!({"plan_id": "last-used", "essential_groups": ["Bills", ""]}),
            "Argument essential_groups.1: must be 1 to 200 characters long, got 0.",
        ),
        (
            json!({"plan_id": "last-used", "include_savings": "no"}),
            "Argument include_savings: must be true or false, got a string.",
        ),
        (
            json!({"plan_id": "last-used", "month": "last"}),
            "Argument month: is not an argument of get_runway: it takes plan_id, months_count, essential_groups, include_savings.",
        ),
    ];
    for (arguments, expected) in cases {
        assert_eq!(
            h.error("get_runway", arguments.clone()).await,
            expected,
            "{arguments}"
        );
    }
    let many: Vec<String> = (0..51).map(|i| format!("g{i}")).collect();
    assert_eq!(
        h.error(
            "get_runway",
            json!({"plan_id": "last-used", "essential_groups": many})
        )
        .await,
        "Argument essential_groups: must hold 1 to 50 group names or ids when given, got 51."
    );
    assert_eq!(h.served(), 0, "nothing was sent to YNAB");

    assert_eq!(
        error_one_request(
            &h,
            "get_runway",
            json!({"plan_id": "last-used", "essential_groups": ["Bills", "Boats", "Internal Master Category"]}),
        )
        .await,
        "Unknown category group(s) 'Boats', 'Internal Master Category': give names or ids of this \
plan's groups, as list_category_groups shows them: Bills, Everyday, Fun, Savings goals."
    );
}

#[tokio::test]
async fn each_call_costs_one_request() {
    let h = start(Era::Legacy, false).await;
    for _ in 0..3 {
        ok_one_request(&h, "get_debt_payoff_plan", json!({"plan_id": "last-used"})).await;
        ok_one_request(&h, "get_runway", json!({"plan_id": "last-used"})).await;
    }
}
