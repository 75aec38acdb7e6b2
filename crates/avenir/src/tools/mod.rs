//! The tools: each validates its arguments, gets plan data, calls logic and shapes the answer.
//! Tools never compute; this module holds the registry every tool is listed in and the dispatch.

pub mod accounts;
pub mod age;
pub mod approve;
pub mod budget;
pub mod budget_month;
pub mod categories;
pub mod categorize;
pub mod category_writes;
pub mod charges;
pub mod create;
pub mod flags;
pub mod forecast;
pub mod import;
pub mod names;
pub mod net_worth;
pub mod payee_rename;
pub mod payees;
pub mod payoff;
pub mod plans;
pub mod reconcile;
pub mod reverts;
pub mod runway;
pub mod savings;
pub mod scheduled;
pub mod split;
pub mod suggestions;
pub mod target;
pub mod targets;
pub mod transactions;
pub mod trends;
pub mod undo;
pub mod writing;

use crate::args::{ArgError, Args};
use crate::context::Context;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value, json};

/// What a tool call produced: its structured answer, or the message of an expected failure.
#[derive(Debug)]
pub enum Outcome {
    /// The structured answer (an object; list tools wrap their list as `{"result": [...]}`, D27)
    /// and the plan it was read from, when one was.
    Answer {
        value: Value,
        plan_id: Option<String>,
    },
    /// A sentence for the agent, returned as an `isError` result with no prefix (D24).
    Error(String),
}

impl From<ynab::Error> for Outcome {
    fn from(error: ynab::Error) -> Self {
        Outcome::Error(error.to_string())
    }
}

impl From<ArgError> for Outcome {
    fn from(error: ArgError) -> Self {
        Outcome::Error(error.to_string())
    }
}

/// How a tool presents itself in `tools/list`.
#[derive(Debug, Clone)]
pub struct ToolSpec {
    pub name: &'static str,
    pub title: &'static str,
    /// The description; `writes` says whether the write gate is open (read-only variants, §3.3).
    pub description: fn(writes: bool) -> String,
    pub input_schema: fn() -> Value,
    pub output_schema: fn() -> Value,
    /// `false` for the write tools (hidden unless `AVENIR_MCP_WRITE=1`).
    pub read_only: bool,
    pub idempotent: bool,
    /// Set for write tools only.
    pub destructive: Option<bool>,
}

/// Every tool of this build, in the order `tools/list` shows them.
pub fn registry() -> Vec<ToolSpec> {
    vec![
        plans::spec(),
        accounts::spec(),
        categories::spec(),
        payees::spec(),
        scheduled::spec(),
        transactions::spec(),
        budget_month::summary_spec(),
        budget_month::balances_spec(),
        budget_month::budget_vs_actual_spec(),
        trends::spec(),
        suggestions::spec(),
        forecast::spec(),
        charges::spec(),
        age::spec(),
        payoff::spec(),
        net_worth::spec(),
        runway::spec(),
        savings::spec(),
        targets::spec(),
    ]
    .into_iter()
    .chain(writing::specs())
    .collect()
}

/// Run the tool `name` with `arguments` (already known to be a JSON object).
pub async fn call(context: &Context, name: &str, arguments: Map<String, Value>) -> Outcome {
    let args = Args::new(arguments);
    match name {
        "list_plans" => plans::run(context, args).await,
        "list_accounts" => accounts::run(context, args).await,
        "list_category_groups" => categories::run(context, args).await,
        "list_payees" => payees::run(context, args).await,
        "list_scheduled_transactions" => scheduled::run(context, args).await,
        "find_transactions" => transactions::run(context, args).await,
        "suggest_categories" => suggestions::run(context, args).await,
        "forecast_balance" => forecast::run(context, args).await,
        "find_recurring_charges" => charges::run(context, args).await,
        "get_age_of_money" => age::run(context, args).await,
        "get_debt_payoff_plan" => payoff::run(context, args).await,
        "get_net_worth_trend" => net_worth::run(context, args).await,
        "get_runway" => runway::run(context, args).await,
        "get_savings_rate" => savings::run(context, args).await,
        "get_underfunded_targets" => targets::run(context, args).await,
        "get_monthly_summary" => budget_month::run_summary(context, args).await,
        "get_category_balances" => budget_month::run_balances(context, args).await,
        "get_budget_vs_actual" => budget_month::run_budget_vs_actual(context, args).await,
        "get_spending_trends" => trends::run(context, args).await,
        other => Outcome::Error(format!("Unknown tool {other}.")),
    }
}

/// The answer of a tool whose result is a list: `{"result": [...]}` (D27).
pub fn list_answer<T: Serialize>(items: Vec<T>, plan_id: Option<String>) -> Outcome {
    match serde_json::to_value(items) {
        Ok(list) => Outcome::Answer {
            value: json!({ "result": list }),
            plan_id,
        },
        Err(error) => Outcome::Error(format!("The answer could not be written: {error}.")),
    }
}

/// The answer of a tool whose result is an object.
pub fn object_answer<T: Serialize>(value: T, plan_id: Option<String>) -> Outcome {
    match serde_json::to_value(value) {
        Ok(value) => Outcome::Answer { value, plan_id },
        Err(error) => Outcome::Error(format!("The answer could not be written: {error}.")),
    }
}

/// The output schema of a list tool: an object whose `result` is an array of `T`.
pub fn list_schema<T: JsonSchema>() -> Value {
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct ListResult<T> {
        result: Vec<T>,
    }
    schema_value::<ListResult<T>>()
}

/// The JSON Schema (draft 2020-12) of `T` as a value.
pub fn schema_value<T: JsonSchema>() -> Value {
    let settings = schemars::generate::SchemaSettings::draft2020_12().for_serialize();
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut value = serde_json::to_value(schema).unwrap_or_else(|_| json!({"type": "object"}));
    if let Some(object) = value.as_object_mut() {
        object.remove("$schema");
        object.remove("title");
    }
    value
}

/// The input schema shared by tools that take only `plan_id`.
pub fn plan_id_schema() -> Value {
    json!({
        "type": "object",
        "properties": { "plan_id": plan_id_property() },
        "required": ["plan_id"],
        "additionalProperties": false
    })
}

/// The `plan_id` property every plan tool takes.
pub fn plan_id_property() -> Value {
    json!({
        "type": "string",
        "description": "YNAB plan id from list_plans, or 'last-used' (the plan last opened in YNAB, resolved once and kept while the server runs)."
    })
}

/// Take the `plan_id` argument.
pub fn take_plan_id(args: &mut Args) -> Result<String, ArgError> {
    args.required_string("plan_id", "a plan id from list_plans, or 'last-used'")
}
