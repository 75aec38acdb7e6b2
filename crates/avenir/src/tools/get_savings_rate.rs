//! `get_savings_rate` (`docs/contract/reads.md` §19): income, spending, saved and the rate in each
//! complete month before the current one, from the budget accounts' transactions, with totals and
//! notes.

use super::month_figures::{Percent, in_build};
use super::{AnswerTool, Answered, PlanId, ToolError, plan_or_last_used};
use crate::args::IntOr;
use crate::context::Context;
use crate::logic::savings::{MonthSavings, savings_rate};
use crate::money::{Amount, MoneyFormat};
use schemars::JsonSchema;
use serde::Serialize;

/// Complete months measured when `months_count` is not given.
pub const DEFAULT_MONTHS: i64 = 6;
/// Most complete months one call measures.
pub const MAX_MONTHS: i64 = 24;

/// One complete month.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SavingsMonth {
    /// The month, YYYY-MM-01.
    pub month: String,
    /// Money in categorised to Ready to Assign on the budget accounts (starting balances and
    /// transfers are not income).
    pub income: Amount,
    /// Money out of the budget accounts less refunds, negative; transfers between budget accounts
    /// are left out, money moved to a tracking loan or debt counts.
    pub spending: Amount,
    /// income + spending: money moved to a tracking asset account (savings, investments) is saved.
    pub saved: Amount,
    /// saved ÷ income in percent, one decimal; null when no income was categorised that month.
    pub rate: Option<Percent>,
}

impl From<&MonthSavings> for SavingsMonth {
    fn from(m: &MonthSavings) -> Self {
        SavingsMonth {
            month: m.month.label(),
            income: Amount(m.income),
            spending: Amount(m.spending),
            saved: Amount(m.saved),
            rate: m.rate_tenths.map(Percent),
        }
    }
}

/// The answer of `get_savings_rate`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SavingsRateAnswer {
    /// The conclusion, to relay.
    pub message: String,
    /// Each complete month before the current one, from the month of the budget accounts' first
    /// transaction, oldest first.
    pub months: Vec<SavingsMonth>,
    /// Total income over the months.
    pub income: Amount,
    /// Total spending, negative.
    pub spending: Amount,
    /// income + spending.
    pub saved: Amount,
    /// saved ÷ income over the period, in percent with one decimal; null without income.
    pub rate: Option<Percent>,
    /// Saved per month on average (may have 3 decimals).
    pub average_saved: Amount,
    /// The month with the highest rate, YYYY-MM-01; null when no month had income.
    pub best_month: Option<String>,
    /// The month with the lowest rate, YYYY-MM-01; null when no month had income.
    pub worst_month: Option<String>,
    /// Money moved to tracking asset accounts over the period (part of saved).
    pub moved_to_tracking: Amount,
    /// What the figures count and leave out: relay them.
    pub notes: Vec<String>,
}

crate::tool_args! {
    /// The arguments of `get_savings_rate`.
    pub struct SavingsArgs {
        pub plan_id: Option<PlanId>,
        /// Complete months before the current one.
        pub months_count: IntOr<1, MAX_MONTHS, DEFAULT_MONTHS>,
    }
}

/// `get_savings_rate`.
pub struct GetSavingsRate;

impl AnswerTool for GetSavingsRate {
    const NAME: &'static str = "get_savings_rate";
    const TITLE: &'static str = "Savings rate month by month";
    type Args = SavingsArgs;
    type Answer = SavingsRateAnswer;

    fn description(_writes: bool) -> String {
        let trends = if in_build("get_spending_trends") {
            " Spending per category: get_spending_trends."
        } else {
            ""
        };
        format!(
            "How much of the income was kept, month by month: \"what's my savings rate?\", \"how \
much do I put aside?\".{trends}"
        )
    }

    async fn run(
        context: &Context,
        args: SavingsArgs,
    ) -> Result<Answered<SavingsRateAnswer>, ToolError> {
        let snapshot = context
            .plans
            .read(&plan_or_last_used(&args.plan_id))
            .await?;
        let plan = &snapshot.plan;
        let money = MoneyFormat::of(plan.currency_format.as_ref());
        let count = usize::try_from(args.months_count.0).unwrap_or(1);
        let rate = savings_rate(plan, context.settings.today(), count);
        let answer = SavingsRateAnswer {
            message: rate.message(&money),
            months: rate.months.iter().map(SavingsMonth::from).collect(),
            income: Amount(rate.income),
            spending: Amount(rate.spending),
            saved: Amount(rate.saved),
            rate: rate.rate_tenths.map(Percent),
            average_saved: Amount(rate.average_saved),
            best_month: rate.best.map(|m| m.month.label()),
            worst_month: rate.worst.map(|m| m.month.label()),
            moved_to_tracking: Amount(rate.moved_to_tracking),
            notes: rate.notes(&money),
        };
        Ok(Answered::new(answer, snapshot.id().to_string()))
    }
}
