//! `get_net_worth_trend` (`docs/contract/reads.md` §17): assets, debts and net worth at the end of
//! each of the last months, the current one included, rebuilt by the logic from today's balances.

use super::month_figures::in_build;
use super::{AnswerTool, Answered, PlanId, ToolError, plan_or_last_used};
use crate::args::{Flag, IntOr};
use crate::charts;
use crate::context::Context;
use crate::logic::chart::{ChartMoney, NetWorthRow, net_worth_chart};
use crate::logic::net_worth::net_worth_trend;
use crate::money::Amount;
use crate::text::safe;
use schemars::JsonSchema;
use serde::Serialize;

/// Months shown when `months_count` is not given.
pub const DEFAULT_MONTHS: i64 = 12;
/// Most months one call shows (`MAX_MONTHS`).
pub const MAX_MONTHS: i64 = 24;

/// The figures on a month's last day.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MonthWorth {
    /// The month, YYYY-MM-01.
    pub month: String,
    /// Sum of the balances of every account that is not a debt, tracking ones included.
    pub assets: Amount,
    /// Sum of the balances of the credit cards, lines of credit, loans, mortgages and other
    /// liabilities, tracking ones included: negative for money owed.
    pub debts: Amount,
    /// assets + debts.
    pub net_worth: Amount,
}

/// The answer of `get_net_worth_trend`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct NetWorthAnswer {
    /// Oldest first; each month's figures are those of its last day, rebuilt from today's balances
    /// (the current month: today's balances less anything dated after it, so what is already
    /// entered for its days left counts).
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

crate::tool_args! {
    /// The arguments of `get_net_worth_trend`.
    pub struct NetWorthArgs {
        pub plan_id: Option<PlanId>,
        /// Including the current one.
        pub months_count: IntOr<1, MAX_MONTHS, DEFAULT_MONTHS>,
        /// Adds a PNG chart of the three by month.
        pub chart: Flag<false>,
    }
}

/// `get_net_worth_trend`.
pub struct GetNetWorthTrend;

impl AnswerTool for GetNetWorthTrend {
    const NAME: &'static str = "get_net_worth_trend";
    const TITLE: &'static str = "Net worth month by month";
    type Args = NetWorthArgs;
    type Answer = NetWorthAnswer;

    fn description(_writes: bool) -> String {
        let today = if in_build("list_accounts") {
            " Today's balances: list_accounts."
        } else {
            ""
        };
        let future = if in_build("forecast_balance") {
            " The months ahead: forecast_balance."
        } else {
            ""
        };
        format!(
            "Assets, debts and net worth at the end of each month, every account counted: \"is my \
debt going down?\", \"is my net worth growing?\".{today}{future}"
        )
    }

    async fn run(
        context: &Context,
        args: NetWorthArgs,
    ) -> Result<Answered<NetWorthAnswer>, ToolError> {
        let snapshot = context
            .plans
            .read(&plan_or_last_used(&args.plan_id))
            .await?;
        let plan = &snapshot.plan;
        let count = usize::try_from(args.months_count.0).unwrap_or(1);
        let trend = net_worth_trend(
            &plan.accounts,
            &plan.transactions,
            context.settings.today(),
            count,
        );
        let chart = args.chart.0.then(|| {
            let rows: Vec<NetWorthRow> = trend
                .months
                .iter()
                .map(|m| NetWorthRow {
                    month: m.month,
                    assets: m.assets,
                    debts: m.debts,
                    net_worth: m.net_worth,
                })
                .collect();
            let money = ChartMoney::of(plan.currency_format.as_ref());
            charts::attachment(net_worth_chart(&money, &rows))
        });
        let answer = NetWorthAnswer {
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
        };
        Ok(Answered::new(answer, snapshot.id().to_string()).with_chart(chart))
    }
}
