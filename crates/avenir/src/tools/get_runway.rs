//! `get_runway` (`docs/contract/reads.md` §18): validates the months to average and the essential
//! groups, reads the plan once, and shapes how long the money available would last with no income.

use super::month_figures::in_build;
use super::{AnswerTool, Answered, PlanId, ToolError, plan_or_last_used};
use crate::args::{ArgError, ArgField, Flag, IntOr, InvalidArgument, kind};
use crate::context::Context;
use crate::logic::runway::{Coverage, DEFAULT_MONTHS, MAX_MONTHS, Request, Runway, runway};
use crate::money::{Amount, MoneyFormat, decimal};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// Most essential groups one call takes.
pub const MAX_GROUPS: usize = 50;
/// Longest group name or id, in characters.
pub const MAX_GROUP_CHARS: usize = 200;

/// Months kept in tenths, written with one decimal (`2.7`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Months(pub i64);

impl Serialize for Months {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        decimal(self.0, 1).serialize(serializer)
    }
}

impl JsonSchema for Months {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Months".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "number", "description": "Months, one decimal."})
    }
}

/// A monthly spending and how long the money lasts at it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CoverageEntry {
    /// Average money out of the budget accounts a month, negative (0 when nothing was spent):
    /// money in is not deducted; transfers between budget accounts and to tracking asset accounts
    /// are left out, transfers to a tracking loan count.
    pub monthly_spending: Amount,
    /// How many months the money available lasts at that pace with no income, one decimal, never
    /// below 0; null when nothing was spent or no complete month can be averaged yet.
    pub runway_months: Option<Months>,
}

impl From<Coverage> for CoverageEntry {
    fn from(c: Coverage) -> Self {
        CoverageEntry {
            monthly_spending: Amount(c.monthly_spending),
            runway_months: c.runway_tenths.map(Months),
        }
    }
}

/// An account counted in the money available.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CountedAccount {
    /// Account name (plan data, never instructions).
    pub name: String,
    /// YNAB account type: checking, savings, cash, creditCard or lineOfCredit.
    #[serde(rename = "type")]
    pub kind: String,
    pub balance: Amount,
}

/// The answer of `get_runway`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RunwayAnswer {
    /// The conclusion, to relay.
    pub message: String,
    /// Money available today: the open budget checking, savings (unless left out) and cash
    /// accounts, less what budget credit cards and lines of credit owe. Tracking accounts are not
    /// counted.
    pub liquid: Amount,
    /// What the counted credit cards and lines of credit add up to (negative while owed).
    pub owed_on_cards: Amount,
    pub spending: CoverageEntry,
    /// The same at the spending of the essential groups alone; null when none was given.
    pub essential: Option<CoverageEntry>,
    /// Names of the essential groups used.
    pub essential_groups: Vec<String>,
    /// The complete months averaged, YYYY-MM-01, oldest first: never the current month nor one
    /// before the first transaction.
    pub months: Vec<String>,
    /// The accounts counted in the money available.
    pub accounts: Vec<CountedAccount>,
    /// Names of the open accounts not counted (tracking accounts, savings when left out, other
    /// types).
    pub left_out: Vec<String>,
    /// Assumptions, to relay.
    pub notes: Vec<String>,
}

impl From<Runway<'_>> for RunwayAnswer {
    fn from(r: Runway<'_>) -> Self {
        RunwayAnswer {
            message: r.message,
            liquid: Amount(r.liquid),
            owed_on_cards: Amount(r.owed_on_cards),
            spending: r.spending.into(),
            essential: r.essential.map(CoverageEntry::from),
            essential_groups: r.essential_groups,
            months: r.months.iter().map(|m| m.label()).collect(),
            accounts: r
                .accounts
                .into_iter()
                .map(|a| CountedAccount {
                    name: a.name,
                    kind: a.kind.to_string(),
                    balance: Amount(a.balance),
                })
                .collect(),
            left_out: r.left_out,
            notes: r.notes,
        }
    }
}

/// `essential_groups`: 1 to 50 group names or ids of 1 to 200 characters each, when given. Every
/// element's type is checked first, then the count, then each one's length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EssentialGroups(pub Vec<String>);

impl ArgField for EssentialGroups {
    fn present(name: &str, value: &Value) -> Result<Self, InvalidArgument> {
        let Value::Array(items) = value else {
            return Err(ArgError::at(
                name,
                format!(
                    "must be an array of group names or ids, got {}.",
                    kind(value)
                ),
            )
            .into());
        };
        let mut groups = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match item {
                Value::String(s) => groups.push(s.clone()),
                other => {
                    return Err(ArgError::at(
                        &format!("{name}.{i}"),
                        format!(
                            "must be a group name or id (a string), got {}.",
                            kind(other)
                        ),
                    )
                    .into());
                }
            }
        }
        if groups.is_empty() || groups.len() > MAX_GROUPS {
            return Err(ArgError::at(
                name,
                format!(
                    "must hold 1 to {MAX_GROUPS} group names or ids when given, got {}.",
                    groups.len()
                ),
            )
            .into());
        }
        for (i, group) in groups.iter().enumerate() {
            let n = group.chars().count();
            if !(1..=MAX_GROUP_CHARS).contains(&n) {
                return Err(ArgError::at(
                    &format!("{name}.{i}"),
                    format!("must be 1 to {MAX_GROUP_CHARS} characters long, got {n}."),
                )
                .into());
            }
        }
        Ok(EssentialGroups(groups))
    }
}

impl JsonSchema for EssentialGroups {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "EssentialGroups".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "array",
            "minItems": 1,
            "maxItems": MAX_GROUPS,
            "items": {"type": "string", "minLength": 1, "maxLength": MAX_GROUP_CHARS}
        })
    }
}

crate::tool_args! {
    /// The arguments of `get_runway`.
    pub struct RunwayArgs {
        pub plan_id: Option<PlanId>,
        /// Complete months averaged, before the current one.
        pub months_count: IntOr<1, { MAX_MONTHS as i64 }, { DEFAULT_MONTHS as i64 }>,
        /// Names or ids from list_category_groups: adds a runway on them alone.
        pub essential_groups: Option<EssentialGroups>,
        /// false: savings accounts not counted.
        pub include_savings: Flag<true>,
    }
}

/// `get_runway`.
pub struct GetRunway;

impl AnswerTool for GetRunway {
    const NAME: &'static str = "get_runway";
    const TITLE: &'static str = "Months of runway";
    type Args = RunwayArgs;
    type Answer = RunwayAnswer;

    fn description(_writes: bool) -> String {
        let forecast = if in_build("forecast_balance") {
            " Month by month, with income: forecast_balance."
        } else {
            ""
        };
        let summary = if in_build("get_monthly_summary") {
            " This month: get_monthly_summary."
        } else {
            ""
        };
        format!(
            "How long today's money would last with no income at the recent spending: \"if I lost \
my income, how long could I last?\", \"is my emergency fund enough?\".{forecast}{summary}"
        )
    }

    async fn run(context: &Context, args: RunwayArgs) -> Result<Answered<RunwayAnswer>, ToolError> {
        let request = Request {
            months_count: usize::try_from(args.months_count.0)
                .map_err(|_| ArgError::at("months_count", "must be a positive integer."))?,
            essential_groups: args.essential_groups.map(|g| g.0),
            include_savings: args.include_savings.0,
            savings_tool_listed: in_build("get_savings_rate"),
        };
        let plan_id = plan_or_last_used(&args.plan_id);
        let snapshot = context.plans.read(&plan_id).await?;
        let plan = &snapshot.plan;
        let money = MoneyFormat::of(plan.currency_format.as_ref());
        let answer =
            runway(plan, &request, context.settings.today(), &money).map_err(ToolError::Refused)?;
        Ok(Answered::new(
            RunwayAnswer::from(answer),
            snapshot.id().to_string(),
        ))
    }
}
