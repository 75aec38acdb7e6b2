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
        let left_out = registry_in(
            &[
                Toolset::Setup,
                Toolset::Statements,
                Toolset::Schedules,
                Toolset::Analysis,
            ],
            true,
        );
        assert!(left_out.contains(&"forecast_balance".to_string()));
        assert!(left_out.contains(&"merge_payees".to_string()));
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

/// What a model receives from `h` before its first question: each listed tool's name,
/// description and input schema (compact JSON), and the instructions — how many tools, and the
/// characters of each part.
async fn reads_at_start(h: &Harness) -> (usize, usize, usize) {
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

/// The same for a server listing `toolsets`, writes on.
async fn context_cost(toolsets: &str) -> (usize, usize, usize) {
    reads_at_start(&serving(Era::Legacy, toolsets, true).await).await
}

/// Prints, for each toolset, `default` and `all`, what a model reads before its first question
/// (`cargo test -p avenir --test suite toolsets:: -- --nocapture`; `scripts/context_cost.py`
/// measures the same on a built binary), held under issue 24's ceilings.
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
    assert!(total("default") <= 20_000, "default: {}", total("default"));
    assert!(total("all") <= 35_000, "all: {}", total("all"));
}

async fn dynamic(era: Era) -> Harness {
    let mut options = Options::new(era);
    options.settings.toolsets = Toolsets::default();
    options.settings.dynamic_toolsets = true;
    start_options(options).await
}

async fn said(h: &Harness, tool: &'static str, arguments: serde_json::Value) -> String {
    crate::common::text_of(&h.call(tool, arguments).await)
}

#[tokio::test]
async fn the_dynamic_mode_starts_small_and_enables_a_toolset_for_the_session() {
    let h = dynamic(Era::Legacy).await;
    let names = listed(&h).await;
    assert_eq!(
        names,
        [
            "list_plans",
            "list_accounts",
            "list_category_groups",
            "list_toolsets",
            "enable_toolset"
        ]
    );
    // What a model reads at the start: the definitions and the instructions.
    let (_, definitions, instructions) = reads_at_start(&h).await;
    let info = h.client.peer_info().expect("server info");
    let guide = info.instructions.clone().expect("instructions");
    assert!(guide.contains("`enable_toolset`"), "{guide}");
    let start = definitions + instructions;
    println!("dynamic mode at session start: {start} characters");
    assert!(start <= 8_000, "{start}");
    let capabilities = info.capabilities.tools.clone().expect("tools");
    assert_eq!(capabilities.list_changed, Some(true));

    // A tool of a toolset not enabled: the refusal says what to call.
    let refused = refusal(&h, "forecast_balance").await;
    assert!(
        refused.contains(r#"call enable_toolset with {"toolset": "analysis"}"#),
        "{refused}"
    );
    let lines = said(&h, "list_toolsets", json!({})).await;
    assert_eq!(lines.lines().count(), 8, "{lines}");
    assert!(lines.contains("analysis: trends, forecasts"), "{lines}");
    assert!(lines.contains("(7 tools, not enabled)"), "{lines}");

    // Enabled: the client is told, lists again, and calls a tool of that toolset.
    let enabled = said(&h, "enable_toolset", json!({"toolset": "analysis"})).await;
    assert!(enabled.contains("forecast_balance"), "{enabled}");
    let told = &h.client.service().list_changed;
    for _ in 0..100 {
        if told.load(std::sync::atomic::Ordering::SeqCst) > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(told.load(std::sync::atomic::Ordering::SeqCst), 1);
    let names = listed(&h).await;
    assert!(names.iter().any(|n| n == "forecast_balance"), "{names:?}");
    assert!(!names.iter().any(|n| n == "find_transactions"), "{names:?}");
    let forecast = h
        .ok(
            "forecast_balance",
            json!({"plan_id": "last-used", "until": "2026-12"}),
        )
        .await;
    assert!(forecast.get("currency").is_some(), "{forecast}");
    // Enabling it again changes nothing and tells nobody; a name it does not know is refused.
    said(&h, "enable_toolset", json!({"toolset": "analysis"})).await;
    let wrong = h
        .call("enable_toolset", json!({"toolset": "reports"}))
        .await;
    assert_eq!(wrong.is_error, Some(true));
    assert!(crate::common::text_of(&wrong).contains("list_toolsets says"));
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    assert_eq!(told.load(std::sync::atomic::Ordering::SeqCst), 1);
}

/// 2026-07-28 has no session to enable a toolset in: its requests are served the process's
/// toolsets, statically, and the dynamic mode's two tools are not there.
#[tokio::test]
async fn on_2026_07_28_the_dynamic_mode_serves_the_static_toolsets() {
    let h = dynamic(Era::Modern).await;
    let names = listed(&h).await;
    assert_eq!(names, registry_in(&Toolset::DEFAULT, true));
    let refused = refusal(&h, "enable_toolset").await;
    assert!(
        refused.contains("Unknown tool: enable_toolset"),
        "{refused}"
    );
    assert!(
        refusal(&h, "forecast_balance")
            .await
            .contains("toolset `analysis`")
    );
}
