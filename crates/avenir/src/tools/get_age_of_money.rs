//! `get_age_of_money` (`docs/contract/reads.md` §15): YNAB's own Age of Money of each month up to
//! the current one, with the latest figure, its trend and notes, read from the plan's month
//! summaries.

use super::month_figures::in_build;
use super::{AnswerTool, Answered, PlanId, ToolError, plan_or_last_used};
use crate::args::{Flag, IntOr};
use crate::charts;
use crate::context::Context;
use crate::logic::age::{Trend, age_of_money};
use crate::logic::chart::{AgeRow, age_chart};
use schemars::JsonSchema;
use serde::Serialize;

/// Months shown when `months_count` is not given.
pub const DEFAULT_MONTHS: i64 = 12;
/// Most months one call shows (`MAX_MONTHS`).
pub const MAX_MONTHS: i64 = 24;

/// One month's figure.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AgeMonth {
    /// The month, YYYY-MM-01.
    pub month: String,
    /// YNAB's Age of Money for the month, in days; null when YNAB gives none.
    pub days: Option<i64>,
    /// Days less the previous month's in this list, when both are known.
    pub change: Option<i64>,
}

/// The answer of `get_age_of_money`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AgeOfMoneyAnswer {
    /// The conclusion, to relay.
    pub message: String,
    /// The latest Age of Money, in days; null when no month has one. Over 30 means living on last
    /// month's income, the buffer YNAB aims for.
    pub days: Option<i64>,
    /// The month of that figure, YYYY-MM-01.
    pub as_of: Option<String>,
    /// Each month YNAB holds, oldest first, the current one last when YNAB has it (a younger plan
    /// shows fewer, with a note; months budgeted ahead never).
    pub months: Vec<AgeMonth>,
    /// Latest figure less the first one shown; null with fewer than two figures.
    pub change: Option<i64>,
    /// Direction of `change`: up, down or steady; null without a change.
    pub trend: Option<Trend>,
    /// What the figure is and what is missing: relay them.
    pub notes: Vec<String>,
}

crate::tool_args! {
    /// The arguments of `get_age_of_money`.
    pub struct AgeArgs {
        pub plan_id: Option<PlanId>,
        /// Including the current one.
        pub months_count: IntOr<1, MAX_MONTHS, DEFAULT_MONTHS>,
        /// Adds a PNG chart of the days by month.
        pub chart: Flag<false>,
    }
}

/// `get_age_of_money`.
pub struct GetAgeOfMoney;

impl AnswerTool for GetAgeOfMoney {
    const NAME: &'static str = "get_age_of_money";
    const TITLE: &'static str = "Age of Money month by month";
    type Args = AgeArgs;
    type Answer = AgeOfMoneyAnswer;

    fn description(_writes: bool) -> String {
        let runway = if in_build("get_runway") {
            " Without income: get_runway."
        } else {
            ""
        };
        format!(
            "YNAB's Age of Money in days, month by month, with its trend: \"how old is my money?\", \
\"am I living on last month's income?\".{runway}"
        )
    }

    async fn run(
        context: &Context,
        args: AgeArgs,
    ) -> Result<Answered<AgeOfMoneyAnswer>, ToolError> {
        let snapshot = context
            .plans
            .read(&plan_or_last_used(&args.plan_id))
            .await?;
        let count = usize::try_from(args.months_count.0).unwrap_or(1);
        let age = age_of_money(&snapshot.plan.months, context.settings.today(), count);
        let chart = args.chart.0.then(|| {
            let rows: Vec<AgeRow> = age
                .rows
                .iter()
                .map(|row| AgeRow {
                    month: row.month,
                    days: row.days,
                })
                .collect();
            charts::attachment(age_chart(&rows))
        });
        let answer = AgeOfMoneyAnswer {
            message: age.message,
            days: age.days,
            as_of: age.as_of.map(|m| m.label()),
            months: age
                .rows
                .into_iter()
                .map(|row| AgeMonth {
                    month: row.month.label(),
                    days: row.days,
                    change: row.change,
                })
                .collect(),
            change: age.change,
            trend: age.trend,
            notes: age.notes,
        };
        Ok(Answered::new(answer, snapshot.id().to_string()).with_chart(chart))
    }
}
