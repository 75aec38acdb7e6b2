//! Toolsets through the protocol: the tools a process lists are its toolsets' (the write gate
//! still applies inside each), the instructions and prompts name no other tool, and a call to a
//! tool left out says which toolset has it and how the person turns it on.

use crate::common::{Era, Harness, Options, start_options};
use avenir::tools::toolsets::{Toolset, Toolsets};
use rmcp::model::{CallToolRequestParams, GetPromptRequestParams};
use serde_json::json;

const ERAS: [Era; 2] = [Era::Modern, Era::Legacy];

async fn serving(era: Era, toolsets: &str, writes: bool) -> Harness {
    let mut options = Options::new(era);
    options.settings.toolsets = Toolsets::parse(toolsets).expect("toolsets");
    options.settings.writes_enabled = writes;
    start_options(options).await
}

async fn listed(h: &Harness) -> Vec<String> {
    let tools = h.client.list_all_tools().await.expect("tools/list");
    tools.iter().map(|t| t.name.to_string()).collect()
}

/// The tools of this build in `sets`, in the registry's order, write tools when `writes`.
fn registry_in(sets: &[Toolset], writes: bool) -> Vec<String> {
    avenir::tools::registry()
        .into_iter()
        .filter(|t| sets.contains(&t.toolset) && (t.read_only || writes))
        .map(|t| t.name.to_string())
        .collect()
}

/// The refusal of a call to `tool` (a protocol error), as the agent reads it.
async fn refusal(h: &Harness, tool: &'static str) -> String {
    let params = CallToolRequestParams::new(tool).with_arguments(crate::common::object(json!({})));
    let error = h.client.call_tool(params).await.expect_err("not listed");
    error.to_string()
}

#[tokio::test]
async fn by_default_plans_budget_transactions_and_undo_are_listed_and_nothing_else_is_named() {
    for era in ERAS {
        let h = serving(era, "", true).await;
        let names = listed(&h).await;
        assert_eq!(names, registry_in(&Toolset::DEFAULT, true), "{era:?}");
        for wanted in [
            "find_transactions",
            "apply_categories",
            "set_category_budget",
            "undo_operation",
        ] {
            assert!(names.iter().any(|n| n == wanted), "{era:?}: {wanted}");
        }
        let left_out = registry_in(&[Toolset::Schedules, Toolset::Analysis], true);
        assert!(left_out.contains(&"forecast_balance".to_string()));
        let info = h.client.peer_info().expect("server info");
        let instructions = info.instructions.clone().expect("instructions");
        let mut prompts = Vec::new();
        for prompt in ["classify_pending", "monthly_review", "plan_next_month"] {
            let params = GetPromptRequestParams::new(prompt)
                .with_arguments(crate::common::object(json!({"plan_id": "last-used"})));
            let got = h.client.get_prompt(params).await.expect("prompts/get");
            prompts.push(format!("{:?}", got.messages));
        }
        for name in &left_out {
            assert!(
                !instructions.contains(name.as_str()),
                "{era:?}: the instructions name {name}"
            );
            for text in &prompts {
                assert!(
                    !text.contains(name.as_str()),
                    "{era:?}: a prompt names {name}"
                );
            }
        }
    }
}

#[tokio::test]
async fn a_call_outside_the_toolsets_says_which_one_has_the_tool_and_how_to_turn_it_on() {
    let h = serving(Era::Legacy, "default", true).await;
    let said = refusal(&h, "forecast_balance").await;
    assert!(said.contains("toolset `analysis`"), "{said}");
    // What the agent relays: the exact setting that adds it to what is listed now.
    assert!(
        said.contains("AVENIR_MCP_TOOLSETS=plans,budget,transactions,undo,analysis"),
        "{said}"
    );
    let said = refusal(&h, "list_scheduled_transactions").await;
    assert!(said.contains("toolset `schedules`"), "{said}");
    // A name no toolset has is simply unknown.
    assert!(
        refusal(&h, "pay_my_bills")
            .await
            .contains("Unknown tool: pay_my_bills")
    );
}

#[tokio::test]
async fn the_write_gate_applies_inside_each_toolset_and_all_lists_every_tool() {
    let h = serving(Era::Modern, "analysis,budget", false).await;
    let names = listed(&h).await;
    assert_eq!(
        names,
        registry_in(&[Toolset::Budget, Toolset::Analysis], false)
    );
    assert!(
        !names.iter().any(|n| n == "set_category_budget"),
        "writes are off"
    );
    let said = refusal(&h, "set_category_budget").await;
    assert!(
        said.contains("writes are off") && said.contains("AVENIR_MCP_WRITE=1"),
        "{said}"
    );
    let said = refusal(&h, "find_transactions").await;
    assert!(said.contains("toolset `transactions`"), "{said}");

    let every = serving(Era::Modern, "all", true).await;
    let every_name = listed(&every).await;
    assert_eq!(every_name, registry_in(&Toolset::ALL, true));
    assert_eq!(every_name.len(), avenir::tools::registry().len());
}

#[test]
fn every_tool_is_in_one_toolset_and_every_toolset_has_a_tool() {
    let registry = avenir::tools::registry();
    for set in Toolset::ALL {
        let count = registry.iter().filter(|t| t.toolset == set).count();
        assert!(count > 0, "{} has no tool", set.name());
    }
    let counted: usize = Toolset::ALL
        .iter()
        .map(|set| registry.iter().filter(|t| t.toolset == *set).count())
        .sum();
    assert_eq!(counted, registry.len());
}

/// What a model receives before its first question when `toolsets` are listed with writes on:
/// each tool's name, description and input schema (compact JSON), and the instructions.
async fn context_cost(toolsets: &str) -> (usize, usize, usize) {
    let h = serving(Era::Legacy, toolsets, true).await;
    let tools = h.client.list_all_tools().await.expect("tools/list");
    let definitions = tools
        .iter()
        .map(|t| {
            let schema = serde_json::to_string(&*t.input_schema).unwrap_or_default();
            t.name.len() + t.description.as_deref().map_or(0, str::len) + schema.len()
        })
        .sum();
    let info = h.client.peer_info().expect("server info");
    let instructions = info.instructions.as_deref().map_or(0, str::len);
    (tools.len(), definitions, instructions)
}

/// Prints, for each toolset, `default` and `all`, what a model reads before its first question
/// (`cargo test -p avenir --test suite toolsets:: -- --nocapture`), and holds the figures of
/// 2026-12-04 as ceilings: definitions may shrink, not grow unnoticed.
#[tokio::test]
async fn what_a_model_reads_before_its_first_question_per_toolset() {
    let mut rows = Vec::new();
    for toolsets in ["default", "all"]
        .into_iter()
        .chain(Toolset::ALL.map(Toolset::name))
    {
        let (tools, definitions, instructions) = context_cost(toolsets).await;
        println!(
            "{toolsets:13} {tools:2} tools  definitions {definitions:6}  instructions {instructions:5}  total {:6}",
            definitions + instructions
        );
        rows.push((toolsets, definitions + instructions));
    }
    let total = |name: &str| rows.iter().find(|(n, _)| *n == name).map_or(0, |(_, t)| *t);
    assert!(total("default") < total("all"));
    assert!(total("default") <= 48_500, "default: {}", total("default"));
    assert!(total("all") <= 71_000, "all: {}", total("all"));
}
