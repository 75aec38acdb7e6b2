//! Answers sized for a model's context: on the heavy plan (9,000 transactions over five years),
//! every read tool called with its default arguments answers in at most 16,000 characters of
//! text, what a model reads (printed with `--nocapture`), and what a page cuts off is reachable by
//! cursor.

use crate::common::{Era, Options, start_options, text_of};
use avenir::tools::tool_names::READ_TOOLS;
use serde_json::{Value, json};
use ynab_sandbox::heavy;

/// The largest answer a read tool gives by default, in characters.
const MOST: usize = 16_000;

/// What each tool needs besides `plan_id` (a month, a first date, a horizon); defaults otherwise.
fn needs(tool: &str) -> Value {
    match tool {
        "get_monthly_summary" | "get_category_balances" | "get_budget_vs_actual" => {
            json!({"month": "2026-08"})
        }
        "find_transactions" => json!({"since_date": "2025-10-01"}),
        "forecast_balance" => json!({"until": "2026-12"}),
        _ => json!({}),
    }
}

#[tokio::test]
async fn every_read_tool_answers_the_heavy_plan_within_a_context_budget() {
    let mut options = Options::new(Era::Legacy);
    options.settings.today = Some(heavy::HEAVY_TODAY);
    options.plan = Some(heavy::heavy_plan(
        heavy::DEFAULT_SEED,
        heavy::DEFAULT_MONTHS,
        heavy::DEFAULT_PER_MONTH,
        heavy::HEAVY_TODAY,
    ));
    let h = start_options(options).await;
    let statement = h.sandbox.with_plan(statement_of_first_account);
    let mut sizes = Vec::new();
    for tool in READ_TOOLS.iter().copied() {
        let mut arguments = match tool {
            "compare_statement" => statement.clone(),
            _ => needs(tool),
        };
        if tool != "list_plans" {
            arguments["plan_id"] = json!("last-used");
        }
        let result = h.call(tool, arguments).await;
        assert_ne!(result.is_error, Some(true), "{tool}: {}", text_of(&result));
        sizes.push((text_of(&result).chars().count(), tool));
    }
    sizes.sort_unstable();
    // `cargo test -p avenir --test suite answer_sizes -- --nocapture` prints them, largest last.
    for (characters, tool) in &sizes {
        println!("{characters:7}  {tool}");
    }
    let over: Vec<_> = sizes.iter().filter(|(n, _)| *n > MOST).collect();
    assert!(
        over.is_empty(),
        "over {MOST} characters: {over:?} (all: {sizes:?})"
    );
}

/// `compare_statement`'s arguments: the first account's whole history as the bank's CSV, every
/// fifth line left out (thousands of lines, hundreds missing from the statement).
fn statement_of_first_account(plan: &mut ynab_sandbox::PlanState) -> Value {
    let account = plan
        .accounts
        .first()
        .map(|a| a.id.clone())
        .unwrap_or_default();
    let mut csv = String::from("Date,Amount,Payee\n");
    let lines = plan
        .transactions
        .iter()
        .filter(|t| t.account_id == account && !t.deleted)
        .enumerate()
        .filter(|(i, _)| i % 5 != 0);
    for (_, t) in lines {
        let amount = avenir::money::units(t.amount);
        let payee = t.payee_name.clone().unwrap_or_default().replace(',', " ");
        csv.push_str(&format!("{},{amount},{payee}\n", t.date));
    }
    json!({"account_id": account, "statement": csv})
}

/// What is cut to a page is still reachable: following `next_cursor` through year-long windows,
/// find_transactions gives every one of the heavy plan's transactions, each exactly once.
#[tokio::test]
async fn every_transaction_of_the_heavy_plan_is_reached_by_cursor_exactly_once() {
    let plan = heavy::heavy_plan(
        heavy::DEFAULT_SEED,
        heavy::DEFAULT_MONTHS,
        heavy::DEFAULT_PER_MONTH,
        heavy::HEAVY_TODAY,
    );
    let live = plan.transactions.iter().filter(|t| !t.deleted).count();
    let first = plan
        .transactions
        .iter()
        .map(|t| t.date.clone())
        .min()
        .expect("transactions");
    let mut options = Options::new(Era::Modern);
    options.settings.today = Some(heavy::HEAVY_TODAY);
    options.plan = Some(plan);
    let h = start_options(options).await;
    let mut seen = std::collections::HashSet::new();
    let (mut until, mut pages) = (heavy::HEAVY_TODAY, 0);
    while until.to_string() >= first {
        let since = until - chrono::Days::new(365);
        let mut cursor: Option<String> = None;
        loop {
            let mut arguments = json!({"plan_id": "last-used", "since_date": since.to_string(),
                "until_date": until.to_string(), "limit": 200});
            if let Some(cursor) = &cursor {
                arguments["cursor"] = json!(cursor);
            }
            let page = h.ok("find_transactions", arguments).await;
            pages += 1;
            for row in page["transactions"].as_array().expect("transactions") {
                let id = row["transaction_id"].as_str().expect("id").to_string();
                assert!(seen.insert(id.clone()), "{id} came twice");
            }
            match page["next_cursor"].as_str() {
                Some(next) => cursor = Some(next.to_string()),
                None => break,
            }
        }
        until = since - chrono::Days::new(1);
    }
    assert_eq!(seen.len(), live, "in {pages} pages");
    assert!(live >= 9_000);
}
