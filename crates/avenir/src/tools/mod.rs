//! The tools: each validates its arguments, gets plan data, calls logic and shapes the answer.
//! Tools never compute; this module holds the registry every tool is listed in and the dispatch.

// What several tools share (not tools themselves).
pub mod assigned_amounts;
pub mod category_checks;
pub mod month_figures;
pub mod scheduled_writes;
pub mod schemas;
pub mod statement_input;
pub mod statement_reconcile;
pub mod tool_names;
pub mod toolsets;
pub mod undo_reverts;
pub mod undo_sends;

/// The one list of tools: `tools! { answer Toolset module::Type, confirmed Toolset module::Type,
/// … }` declares each tool's module (one file, named after the tool), its toolset (`toolsets`)
/// and [`registry`], in the order `tools/list` shows them. Adding a tool is its file plus one
/// line here.
macro_rules! tools {
    ($($how:ident $set:ident $module:ident :: $tool:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// Every tool of this build, in the order `tools/list` shows them. The one list: the
        /// server, the write gate, the toolsets, the guide, the prompts and `tool_names` all
        /// read it.
        pub fn registry() -> Vec<ToolSpec> {
            vec![$(tools!(@entry $how $module::$tool, toolsets::Toolset::$set)),*]
        }
    };
    (@entry answer $module:ident :: $tool:ident, $set:expr) => {
        answer_tool::<$module::$tool>($set)
    };
    (@entry confirmed $module:ident :: $tool:ident, $set:expr) => {
        confirmed_tool::<$module::$tool>($set)
    };
}

use crate::args::{ArgObject, Args, InvalidArgument};
use crate::confirm::{AskContext, ConfirmedWrite, Finished, WriteResult};
use crate::context::Context;
pub use crate::tool_error::ToolError;
use schemars::JsonSchema;
pub use schemas::{confirmed_input_schema, input_schema, schema_value};
use serde::Serialize;
use serde_json::{Map, Value};
use std::future::Future;
use std::pin::Pin;

/// A tool's answer and the plan it was read from (named in `_meta`, D17).
#[derive(Debug)]
pub struct Answered<T> {
    pub answer: T,
    pub plan_id: Option<String>,
    /// A chart asked for (`chart: true`): shown after the answer's content.
    pub attachment: Option<crate::charts::Attachment>,
}

impl<T> Answered<T> {
    pub fn new(answer: T, plan_id: impl Into<Option<String>>) -> Self {
        Answered {
            answer,
            plan_id: plan_id.into(),
            attachment: None,
        }
    }

    /// The answer with the chart asked for, if any.
    pub fn with_chart(mut self, attachment: Option<crate::charts::Attachment>) -> Self {
        self.attachment = attachment;
        self
    }
}

tools! {
    // Reads: listed whatever the write gate says.
    answer Plans list_plans::ListPlans,
    answer Plans list_accounts::ListAccounts,
    answer Plans list_category_groups::ListCategoryGroups,
    answer Plans list_payees::ListPayees,
    answer Schedules list_scheduled_transactions::ListScheduledTransactions,
    answer Transactions find_transactions::FindTransactions,
    answer Budget get_monthly_summary::GetMonthlySummary,
    answer Budget get_category_balances::GetCategoryBalances,
    answer Budget get_budget_vs_actual::GetBudgetVsActual,
    answer Analysis get_spending_trends::GetSpendingTrends,
    answer Transactions suggest_categories::SuggestCategories,
    answer Statements compare_statement::CompareStatement,
    answer Analysis forecast_balance::ForecastBalance,
    answer Schedules find_recurring_charges::FindRecurringCharges,
    answer Analysis get_age_of_money::GetAgeOfMoney,
    answer Analysis get_debt_payoff_plan::GetDebtPayoffPlan,
    answer Analysis get_net_worth_trend::GetNetWorthTrend,
    answer Analysis get_runway::GetRunway,
    answer Analysis get_savings_rate::GetSavingsRate,
    answer Budget get_underfunded_targets::GetUnderfundedTargets,
    // Writes: listed only with AVENIR_MCP_WRITE=1.
    confirmed Transactions apply_categories::ApplyCategories,
    confirmed Budget set_category_budget::SetBudget,
    confirmed Budget move_money::MoveMoney,
    answer Transactions approve_transactions::ApproveTransactions,
    confirmed Setup create_category::CreateCategory,
    confirmed Setup update_category::UpdateCategory,
    confirmed Transactions create_transactions::CreateTransactions,
    confirmed Transactions delete_transactions::DeleteTransactions,
    confirmed Transactions import_transactions::ImportTransactions,
    confirmed Statements import_statement::ImportStatement,
    confirmed Transactions flag_transactions::FlagTransactions,
    confirmed Setup rename_payee::RenamePayee,
    confirmed Transactions reconcile_account::ReconcileAccount,
    confirmed Transactions split_transaction::SplitTransaction,
    confirmed Budget set_category_target::SetTarget,
    confirmed Transactions update_transactions::UpdateTransactions,
    confirmed Schedules update_scheduled_transaction::UpdateScheduledTransaction,
    confirmed Schedules delete_scheduled_transaction::DeleteScheduledTransaction,
    confirmed Schedules create_scheduled_transaction::CreateScheduledTransaction,
    confirmed Transactions edit_split::EditSplit,
    confirmed Setup merge_payees::MergePayees,
    confirmed Transactions link_transfer::LinkTransfer,
    confirmed Budget apply_budget_plan::ApplyBudgetPlan,
    confirmed Setup create_account::CreateAccount,
    confirmed Setup merge_categories::MergeCategories,
    confirmed Undo undo_operation::Undo,
}

// The answer of a tool whose result is a list: `{"result": [...]}` (D27). (A plain comment: a
// doc comment would become the schema's description.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct ListOf<T> {
    pub result: Vec<T>,
}

/// A tool that answers in one step: every read tool, and `approve_transactions` (the one
/// immediate write).
pub trait AnswerTool: Send + Sync + 'static {
    const NAME: &'static str;
    const TITLE: &'static str;
    /// `false` only for `approve_transactions` (listed behind the write gate).
    const READ_ONLY: bool = true;
    const IDEMPOTENT: bool = true;
    /// Set for write tools only.
    const DESTRUCTIVE: Option<bool> = None;
    /// The arguments: the input schema and the parser both come from this type.
    type Args: ArgObject + JsonSchema + Send;
    /// The structured answer: the output schema comes from this type.
    type Answer: Serialize + JsonSchema;

    /// The description; `writes` says whether the write gate is open (read-only variants,
    /// `docs/contract/server.md` §3.3).
    fn description(writes: bool) -> String;

    fn run(
        context: &Context,
        args: Self::Args,
    ) -> impl Future<Output = Result<Answered<Self::Answer>, ToolError>> + Send;
}

/// A write tool whose change goes through `confirm::run` (a preview, the person's yes, the
/// re-check, the journal).
pub trait ConfirmedTool: ConfirmedWrite + Sized + Send + Sync + 'static {
    const TITLE: &'static str;
    const IDEMPOTENT: bool = false;
    const DESTRUCTIVE: bool;
    /// The arguments (without `confirmation`, which every confirmed write takes).
    type Args: ArgObject + JsonSchema + Send;
    /// The tool's own fields of its answer, after the status fields of [`WriteResult`].
    type Details: Serialize + JsonSchema;

    fn description(writes: bool) -> String;

    /// The output schema: a [`WriteResult`] of the tool's details (a tool whose answers have
    /// statuses of their own gives its `WriteResult<Details, Status>`).
    fn output_schema() -> Value {
        schema_value::<WriteResult<Self::Details>>()
    }

    /// The write the arguments ask for; checks that need no plan data ("today" given).
    fn from_args(args: Self::Args, today: chrono::NaiveDate) -> Result<Self, ToolError>;
}

/// One call's future.
pub type Running<'a> = Pin<Box<dyn Future<Output = Finished> + Send + 'a>>;

/// How a tool runs: the call's arguments (a JSON object) and how this request can ask.
pub type Run = for<'a> fn(&'a Context, Map<String, Value>, AskContext) -> Running<'a>;

/// How a tool presents itself in `tools/list`, and how it runs.
#[derive(Clone)]
pub struct ToolSpec {
    pub name: &'static str,
    pub title: &'static str,
    /// The description; `writes` says whether the write gate is open (read-only variants,
    /// `docs/contract/server.md` §3.3).
    pub description: fn(writes: bool) -> String,
    pub input_schema: fn() -> Value,
    pub output_schema: fn() -> Value,
    /// `false` for the write tools (hidden unless `AVENIR_MCP_WRITE=1`).
    pub read_only: bool,
    pub idempotent: bool,
    /// Set for write tools only.
    pub destructive: Option<bool>,
    /// The arguments it takes (besides a write's `confirmation`), in order.
    pub fields: &'static [&'static str],
    /// The toolset it is listed with (`toolsets`).
    pub toolset: toolsets::Toolset,
    pub run: Run,
}

impl std::fmt::Debug for ToolSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolSpec")
            .field("name", &self.name)
            .finish()
    }
}

/// The registry entry of a tool that answers in one step.
pub fn answer_tool<T: AnswerTool>(toolset: toolsets::Toolset) -> ToolSpec {
    ToolSpec {
        name: T::NAME,
        title: T::TITLE,
        description: T::description,
        input_schema: input_schema::<T::Args>,
        output_schema: schema_value::<T::Answer>,
        read_only: T::READ_ONLY,
        idempotent: T::IDEMPOTENT,
        destructive: T::DESTRUCTIVE,
        fields: T::Args::FIELDS,
        toolset,
        run: run_answer::<T>,
    }
}

fn run_answer<T: AnswerTool>(
    context: &Context,
    arguments: Map<String, Value>,
    _ask: AskContext,
) -> Running<'_> {
    Box::pin(async move {
        let check_plan = !T::READ_ONLY && plan_left_out(T::Args::FIELDS, &arguments);
        let args = match Args::new(arguments).parse::<T::Args>(T::NAME) {
            Ok(args) => args,
            Err(error) => return Finished::Error(error.to_string()),
        };
        if check_plan && let Err(error) = require_one_plan(context).await {
            return Finished::Error(error.to_string());
        }
        match T::run(context, args).await {
            Ok(Answered {
                answer,
                plan_id,
                attachment,
            }) => match serde_json::to_value(answer) {
                Ok(value) => match attachment {
                    Some(attachment) => Finished::Charted {
                        value,
                        plan_id,
                        attachment,
                    },
                    None => Finished::Result { value, plan_id },
                },
                Err(error) => Finished::Error(format!("The answer could not be written: {error}.")),
            },
            Err(error) => Finished::Error(error.to_string()),
        }
    })
}

/// The registry entry of a confirmed write tool.
pub fn confirmed_tool<T: ConfirmedTool>(toolset: toolsets::Toolset) -> ToolSpec {
    ToolSpec {
        name: T::TOOL,
        title: T::TITLE,
        description: confirmed_description::<T>,
        input_schema: confirmed_input_schema::<T::Args>,
        output_schema: T::output_schema,
        read_only: false,
        idempotent: T::IDEMPOTENT,
        destructive: Some(T::DESTRUCTIVE),
        fields: T::Args::FIELDS,
        toolset,
        run: run_confirmed::<T>,
    }
}

/// A write's description: the tool's own, then what agreement to its preview is.
fn confirmed_description<T: ConfirmedTool>(writes: bool) -> String {
    format!(
        "{} {}",
        <T as ConfirmedTool>::description(writes),
        crate::confirm::AGREEMENT
    )
}

fn run_confirmed<T: ConfirmedTool>(
    context: &Context,
    arguments: Map<String, Value>,
    mut ask: AskContext,
) -> Running<'_> {
    Box::pin(async move {
        let mut bound = arguments.clone();
        bound.remove("confirmation");
        ask.arguments = bound;
        let check_plan = plan_left_out(T::Args::FIELDS, &arguments);
        let mut args = Args::new(arguments);
        let parsed = args
            .field::<Option<crate::args::Text<0, 200>>>("confirmation", None)
            .and_then(|code| {
                let write = T::Args::take(&mut args)?;
                args.finish(T::TOOL)?;
                Ok((code, write))
            });
        let (code, write) = match parsed {
            Ok(parsed) => parsed,
            Err(error) => return Finished::Error(error.to_string()),
        };
        ask.confirmation = code.map(|c| c.0);
        let write = match T::from_args(write, context.settings.today()) {
            Ok(write) => write,
            Err(error) => return Finished::Error(error.to_string()),
        };
        if check_plan && let Err(error) = require_one_plan(context).await {
            return Finished::Error(error.to_string());
        }
        let plan = named_plan(&ask.arguments);
        crate::confirm::run(context, &ask, &plan, &write).await
    })
}

/// The `plan_id` argument every plan tool takes. Left out, it means YNAB's `last-used` plan
/// (D40); a write then checks that the token reads only one plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanId(pub String);

impl crate::args::ArgField for PlanId {
    const GIVE: &'static str = "a plan id from list_plans, or 'last-used'";

    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        String::present(name, value).map(PlanId)
    }
}

impl JsonSchema for PlanId {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PlanId".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string"
        })
    }
}

/// The call leaves `plan_id` out (absent or null) although the tool takes it (D40).
pub fn plan_left_out(fields: &[&str], arguments: &Map<String, Value>) -> bool {
    fields.contains(&"plan_id") && arguments.get("plan_id").is_none_or(Value::is_null)
}

/// A write that leaves `plan_id` out runs on `last-used` only when the token reads exactly one
/// plan (D40): with several, it is refused and nothing is sent. Costs one request (`GET /plans`).
pub async fn require_one_plan(context: &Context) -> Result<(), ToolError> {
    let plans = context.plans.client().plans().await?;
    if plans.len() <= 1 {
        return Ok(());
    }
    let names: Vec<String> = plans.iter().map(|p| crate::text::safe(&p.name)).collect();
    Err(ToolError::Refused(format!(
        "Name the plan: this token reads {} plans ({}). Pass plan_id from list_plans.",
        plans.len(),
        names.join(", ")
    )))
}

/// The plan a call's arguments name (already checked by the parser): `plan_id`, or `last-used`
/// when left out (D40).
fn named_plan(arguments: &Map<String, Value>) -> String {
    arguments
        .get("plan_id")
        .and_then(Value::as_str)
        .unwrap_or("last-used")
        .to_string()
}

/// The plan a call names: the id given, or `last-used` when left out (D40).
pub fn plan_or_last_used(plan_id: &Option<PlanId>) -> String {
    plan_id
        .as_ref()
        .map(|p| p.0.clone())
        .unwrap_or_else(|| "last-used".to_string())
}

crate::tool_args! {
    /// The arguments of a tool that takes only the plan.
    pub struct PlanArgs {
        pub plan_id: Option<PlanId>,
    }
}

impl PlanArgs {
    /// The plan named, `last-used` when left out.
    pub fn plan(&self) -> String {
        plan_or_last_used(&self.plan_id)
    }
}
