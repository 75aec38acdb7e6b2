//! `get_net_worth_trend` (`tools-read.md` §17): assets, debts and net worth at the end of each of
//! the last months, the current one included, rebuilt by the logic from today's balances.

use super::budget_month::{PLAN_READ_COST, in_build};
use super::{LegacySpec, Outcome, object_answer, plan_id_property, schema_value, take_plan_id};
use crate::args::{ArgError, Args};
use crate::context::Context;
use crate::logic::net_worth::net_worth_trend;
use crate::money::Amount;
use crate::text::safe;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

/// Months shown when `months_count` is not given.
pub const DEFAULT_MONTHS: i64 = 12;
/// Most months one call shows (`MAX_MONTHS`).
pub const MAX_MONTHS: i64 = 24;

/// The figures on a month's last day.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MonthWorth {
    /// The month, YYYY-MM-01.
    pub month: String,
    /// Sum of the balances of every account that is not a debt.
    pub assets: Amount,
    /// Sum of the balances of the debt accounts: negative for money owed.
    pub debts: Amount,
    /// assets + debts.
    pub net_worth: Amount,
}

/// The answer of `get_net_worth_trend`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct NetWorthAnswer {
    /// Oldest first; each month's figures are those of its last day (the current month: today's
    /// balances less anything dated after this month).
    pub months: Vec<MonthWorth>,
    /// The first month's net worth.
    pub first_net_worth: Amount,
    /// The last (current) month's net worth.
    pub last_net_worth: Amount,
    /// last_net_worth − first_net_worth.
    pub change: Amount,
    /// The accounts counted and named: open ones, and closed ones while they had a balance, in
    /// YNAB's order (bank-safe text).
    pub accounts: Vec<String>,
}

pub fn spec() -> LegacySpec {
    LegacySpec {
        name: "get_net_worth_trend",
        title: "Net worth month by month",
        description: |_writes| {
            let today = if in_build("list_accounts") {
                " Today's balance of each account: list_accounts."
            } else {
                ""
            };
            let future = if in_build("forecast_balance") {
                " The months ahead: forecast_balance."
            } else {
                ""
            };
            format!(
                "Assets, debts and net worth at the end of each month: \"is my debt going down?\", \
\"is my net worth growing?\". Every account counts, tracking (off-budget) ones included: credit \
cards, lines of credit, loans, mortgages and other liabilities are debts, everything else is an \
asset; a closed account counts while it had a balance. months_count counts back from the current \
month, included (1 = this month; default 12, at most 24), whatever the plan's age. Each month is \
read on its last day, rebuilt from today's balances, so this month already counts what is entered \
for the days left. Amounts are in currency units; debts are negative and net_worth = assets + \
debts.{today}{future} {PLAN_READ_COST} Changes nothing."
            )
        },
        input_schema: || {
            json!({
                "type": "object",
                "properties": {
                    "plan_id": plan_id_property(),
                    "months_count": {"type": "integer", "minimum": 1, "maximum": MAX_MONTHS,
                                     "default": DEFAULT_MONTHS,
                                     "description": "Months to show, the current one included."}
                },
                "required": ["plan_id"],
                "additionalProperties": false
            })
        },
        output_schema: schema_value::<NetWorthAnswer>,
        read_only: true,
        idempotent: true,
        destructive: None,
    }
}

pub async fn run(context: &Context, mut args: Args) -> Outcome {
    let parsed = (|| {
        let plan_id = take_plan_id(&mut args)?;
        let count = args.integer("months_count", DEFAULT_MONTHS, 1, MAX_MONTHS)?;
        args.finish("get_net_worth_trend")?;
        Ok::<_, ArgError>((plan_id, count))
    })();
    let (plan_id, count) = match parsed {
        Ok(parsed) => parsed,
        Err(error) => return error.into(),
    };
    let snapshot = match context.plans.read(&plan_id).await {
        Ok(snapshot) => snapshot,
        Err(error) => return error.into(),
    };
    let plan = &snapshot.plan;
    let count = usize::try_from(count).unwrap_or(1);
    let trend = net_worth_trend(
        &plan.accounts,
        &plan.transactions,
        context.settings.today(),
        count,
    );
    object_answer(
        NetWorthAnswer {
            months: trend
                .months
                .iter()
                .map(|m| MonthWorth {
                    month: m.month.label(),
                    assets: Amount(m.assets),
                    debts: Amount(m.debts),
                    net_worth: Amount(m.net_worth),
                })
                .collect(),
            first_net_worth: Amount(trend.first_net_worth),
            last_net_worth: Amount(trend.last_net_worth),
            change: Amount(trend.change),
            accounts: trend.accounts.iter().map(|a| safe(&a.name)).collect(),
        },
        Some(snapshot.id().to_string()),
    )
}
