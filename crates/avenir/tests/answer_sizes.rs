//! Answers sized for a model's context: on the heavy plan (9,000 transactions over five years),
//! every read tool called with its default arguments answers in at most 16,000 characters of
//! text, what a model reads.

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
    let mut sizes = Vec::new();
    for tool in READ_TOOLS.iter().copied() {
        let mut arguments = needs(tool);
        if tool != "list_plans" {
            arguments["plan_id"] = json!("last-used");
        }
        let result = h.call(tool, arguments).await;
        assert_ne!(result.is_error, Some(true), "{tool}: {}", text_of(&result));
        sizes.push((text_of(&result).chars().count(), tool));
    }
    sizes.sort_unstable();
    let over: Vec<_> = sizes.iter().filter(|(n, _)| *n > MOST).collect();
    assert!(
        over.is_empty(),
        "over {MOST} characters: {over:?} (all: {sizes:?})"
    );
}
