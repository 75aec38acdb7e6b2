//! The four charts, each from the figures its tool answers with: the forecast's day-by-day
//! balance, net worth by month, spending per category by month, Age of Money by month.

use super::{
    Chart, ChartMoney, Mark, NothingToDraw, Series, Style, day_axis, day_label, legend_name,
    month_axis, month_label, month_position, value_axis,
};
use crate::months::CalendarMonth;
use chrono::NaiveDate;
use std::collections::BTreeSet;
use ynab::models::Milliunits;

/// Categories a spending chart draws one line each for; the rest are one line, "Others".
pub const TOP_CATEGORIES: usize = 5;
/// The Age of Money YNAB aims for: living on last month's income.
const AGE_GOAL_DAYS: i64 = 30;

/// One whole unit: the smallest step of an amount axis.
const UNIT: i64 = 1_000;

/// The chart of `forecast_balance`: the balance of each day (today's first), zero, and the first
/// day below zero, in the month the answer names as its first shortfall.
pub fn forecast_chart(
    money: &ChartMoney,
    days: &[(NaiveDate, Milliunits)],
    first_shortfall: Option<CalendarMonth>,
    accounts: usize,
) -> Result<Chart, NothingToDraw> {
    let (Some((first, _)), Some((last, _))) = (days.first(), days.last()) else {
        return Err(no_forecast_days());
    };
    if days.len() < 2 {
        return Err(no_forecast_days());
    }
    let at = |date: NaiveDate| (date - *first).num_days();
    let balance: Vec<(i64, Option<i64>)> = days.iter().map(|(d, v)| (at(*d), Some(*v))).collect();
    let mut series = vec![Series {
        legend: None,
        style: Style::Balance,
        points: balance,
    }];
    if days.iter().any(|(_, v)| *v < 0) {
        series.push(Series {
            legend: None,
            style: Style::BelowZero,
            points: days
                .iter()
                .map(|(d, v)| (at(*d), Some((*v).min(0))))
                .collect(),
        });
    }
    let mut marks = vec![Mark::Level {
        at: 0,
        label: String::new(),
    }];
    let outcome = match first_shortfall {
        Some(month) => {
            marks.extend(shortfall_mark(days, month, *first));
            format!("goes below zero in {}", month_label(month))
        }
        None => format!(
            "stays above zero until {}",
            month_label(CalendarMonth::of(*last))
        ),
    };
    let accounts = match accounts {
        1 => "1 account".to_string(),
        n => format!("{n} accounts together"),
    };
    Ok(Chart {
        title: format!(
            "Projected balance, {} – {}",
            day_label(*first),
            day_label(*last)
        ),
        subtitle: format!(
            "{accounts}: {outcome}. A projection: check its assumptions in the answer."
        ),
        x: day_axis(*first, *last),
        y: value_axis(days.iter().map(|(_, v)| *v), UNIT, |v| money.whole(v)),
        y_title: money.titled("Balance"),
        series,
        marks,
    })
}

/// The mark of the first day below zero in the shortfall `month` (the month's first day in view
/// when none is below zero).
fn shortfall_mark(
    days: &[(NaiveDate, Milliunits)],
    month: CalendarMonth,
    first: NaiveDate,
) -> Option<Mark> {
    let at = |date: NaiveDate| (date - first).num_days();
    // The first day below zero lies in the month the answer names (its lowest point is the
    // first below zero); the month's first day in view stands in if none is found.
    let below = days
        .iter()
        .find(|(d, v)| *v < 0 && CalendarMonth::of(*d) == month)
        .copied()
        .or_else(|| {
            days.iter()
                .find(|(d, _)| CalendarMonth::of(*d) == month)
                .map(|(d, _)| (*d, 0))
        });
    below.map(|(date, value)| Mark::Event {
        x: at(date),
        y: value,
        label: format!(
            "First shortfall: {} (below zero on {})",
            month_label(month),
            day_label(date)
        ),
    })
}

fn no_forecast_days() -> NothingToDraw {
    NothingToDraw(
        "No chart: the forecast holds no day after today (today is the last day of until). Ask a \
later until to chart the balance."
            .into(),
    )
}

fn one_month(what: &str) -> NothingToDraw {
    NothingToDraw(format!(
        "No chart: one month is no trend. Ask months_count 2 or more to chart {what}."
    ))
}

/// A month of `get_net_worth_trend`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NetWorthRow {
    pub month: CalendarMonth,
    pub assets: Milliunits,
    pub debts: Milliunits,
    pub net_worth: Milliunits,
}

/// The chart of `get_net_worth_trend`: net worth, assets and debts (negative) at each month's end.
pub fn net_worth_chart(money: &ChartMoney, rows: &[NetWorthRow]) -> Result<Chart, NothingToDraw> {
    let (Some(first), Some(last)) = (rows.first(), rows.last()) else {
        return Err(one_month("net worth"));
    };
    if rows.len() < 2 {
        return Err(one_month("net worth"));
    }
    let months: Vec<CalendarMonth> = rows.iter().map(|r| r.month).collect();
    let line = |legend: &str, style: Style, value: fn(&NetWorthRow) -> Milliunits| Series {
        legend: Some(legend.to_string()),
        style,
        points: rows
            .iter()
            .enumerate()
            .map(|(i, r)| (month_position(i), Some(value(r))))
            .collect(),
    };
    let series = vec![
        line("Assets", Style::Assets, |r| r.assets),
        line("Debts", Style::Debts, |r| r.debts),
        line("Net worth", Style::NetWorth, |r| r.net_worth),
    ];
    let values = rows.iter().flat_map(|r| [r.assets, r.debts, r.net_worth]);
    Ok(Chart {
        title: format!(
            "Net worth, {} – {}",
            month_label(first.month),
            month_label(last.month)
        ),
        subtitle: format!(
            "At each month's end, {} so far: net worth {} → {}.",
            month_label(last.month),
            money.full(first.net_worth),
            money.full(last.net_worth)
        ),
        x: month_axis(&months),
        y: value_axis(values, UNIT, |v| money.whole(v)),
        y_title: money.titled("Amount"),
        series,
        marks: vec![Mark::Level {
            at: 0,
            label: String::new(),
        }],
    })
}

/// A category of `get_spending_trends`: its name (the person's text) and its spending by month.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpendingCategory {
    pub name: String,
    pub months: Vec<(CalendarMonth, Milliunits)>,
}

/// The chart of `get_spending_trends`: a line for each of the [`TOP_CATEGORIES`] categories that
/// spent most over the months, one for the rest together (one left over keeps its own line); a
/// month a category is absent from counts zero. `current` is today's month, drawn "to date".
pub fn spending_chart(
    money: &ChartMoney,
    categories: &[SpendingCategory],
    current: CalendarMonth,
) -> Result<Chart, NothingToDraw> {
    let months: Vec<CalendarMonth> = categories
        .iter()
        .flat_map(|c| c.months.iter().map(|(m, _)| *m))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if months.len() < 2 {
        return Err(one_month("spending"));
    }
    let ranked = ranked(categories)?;
    // a single category left over is drawn under its own name rather than as "Others"
    let shown = if ranked.len() == TOP_CATEGORIES + 1 {
        ranked.len()
    } else {
        ranked.len().min(TOP_CATEGORIES)
    };
    let (top, rest) = ranked.split_at(shown);
    let series = spending_series(&months, top, rest);
    let values: Vec<i64> = series
        .iter()
        .flat_map(|s| s.points.iter().filter_map(|(_, v)| *v))
        .collect();
    let (first, last) = (months[0], months[months.len() - 1]);
    let to_date = if last == current {
        format!("; {} to date", month_label(last))
    } else {
        String::new()
    };
    let top_of = if rest.is_empty() {
        format!("Every category with spending ({shown})")
    } else {
        format!(
            "The {shown} categories that spent most, of {}",
            ranked.len()
        )
    };
    Ok(Chart {
        title: format!(
            "Spending by category, {} – {}",
            month_label(first),
            month_label(last)
        ),
        subtitle: format!("{top_of}; refunds reduce spending{to_date}."),
        x: month_axis(&months),
        y: value_axis(values, UNIT, |v| money.whole(v)),
        y_title: money.titled("Spent"),
        series,
        marks: vec![Mark::Level {
            at: 0,
            label: String::new(),
        }],
    })
}

/// The categories with spending, most first (equal totals by name), with their totals.
fn ranked(categories: &[SpendingCategory]) -> Result<Vec<(&SpendingCategory, i64)>, NothingToDraw> {
    let total = |c: &SpendingCategory| {
        c.months
            .iter()
            .fold(0i64, |sum, (_, v)| sum.saturating_add(*v))
    };
    let mut ranked: Vec<(&SpendingCategory, i64)> = categories
        .iter()
        .map(|c| (c, total(c)))
        .filter(|(c, t)| *t > 0 || c.months.iter().any(|(_, v)| *v != 0))
        .collect();
    if ranked.is_empty() {
        return Err(NothingToDraw(
            "No chart: no category has spending in these months.".into(),
        ));
    }
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.name.cmp(&b.0.name)));
    Ok(ranked)
}

/// What category `c` spent in month `m`.
fn spent_in(c: &SpendingCategory, m: CalendarMonth) -> i64 {
    c.months
        .iter()
        .filter(|(month, _)| *month == m)
        .fold(0i64, |sum, (_, v)| sum.saturating_add(*v))
}

/// A line per category of `top`, and one for the `rest` together when there is a rest.
fn spending_series(
    months: &[CalendarMonth],
    top: &[(&SpendingCategory, i64)],
    rest: &[(&SpendingCategory, i64)],
) -> Vec<Series> {
    let mut series: Vec<Series> = top
        .iter()
        .enumerate()
        .map(|(n, (c, _))| Series {
            legend: Some(legend_name(&c.name)),
            style: Style::Category(n),
            points: months
                .iter()
                .enumerate()
                .map(|(i, m)| (month_position(i), Some(spent_in(c, *m))))
                .collect(),
        })
        .collect();
    if !rest.is_empty() {
        series.push(Series {
            legend: Some(format!(
                "Others ({} {})",
                rest.len(),
                if rest.len() == 1 {
                    "category"
                } else {
                    "categories"
                }
            )),
            style: Style::Others,
            points: months
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let sum = rest
                        .iter()
                        .fold(0i64, |sum, (c, _)| sum.saturating_add(spent_in(c, *m)));
                    (month_position(i), Some(sum))
                })
                .collect(),
        });
    }
    series
}

/// A month of `get_age_of_money`: YNAB's figure in days, when it gives one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AgeRow {
    pub month: CalendarMonth,
    pub days: Option<i64>,
}

/// The chart of `get_age_of_money`: the days of each month (a gap where YNAB gives none) and the
/// 30-day line.
pub fn age_chart(rows: &[AgeRow]) -> Result<Chart, NothingToDraw> {
    let known = rows.iter().filter(|r| r.days.is_some()).count();
    let (Some(first), Some(last)) = (rows.first(), rows.last()) else {
        return Err(one_month("Age of Money"));
    };
    if rows.len() < 2 {
        return Err(one_month("Age of Money"));
    }
    if known < 2 {
        return Err(NothingToDraw(format!(
            "No chart: YNAB gives an Age of Money for {known} of these months; a chart needs two."
        )));
    }
    let months: Vec<CalendarMonth> = rows.iter().map(|r| r.month).collect();
    let values = rows.iter().filter_map(|r| r.days).chain([AGE_GOAL_DAYS]);
    let gaps = rows.len() - known;
    let gaps = match gaps {
        0 => String::new(),
        1 => "; a gap is a month YNAB gives no figure for".into(),
        _ => "; gaps are months YNAB gives no figure for".into(),
    };
    Ok(Chart {
        title: format!(
            "Age of Money, {} – {}",
            month_label(first.month),
            month_label(last.month)
        ),
        subtitle: format!("YNAB's figure for each month, in days{gaps}."),
        x: month_axis(&months),
        y: value_axis(values, 1, |d| d.to_string()),
        y_title: "Age of Money (days)".into(),
        series: vec![Series {
            legend: None,
            style: Style::Age,
            points: rows
                .iter()
                .enumerate()
                .map(|(i, r)| (month_position(i), r.days))
                .collect(),
        }],
        marks: vec![Mark::Level {
            at: AGE_GOAL_DAYS,
            label: "30 days: living on last month's income".into(),
        }],
    })
}
