//! What a chart shows, decided before anything is drawn: the series (month or day positions,
//! amounts in milliunits or figures in days), the axes with their ticks already labelled (amounts
//! in the plan's currency format, months as "Sep 2026"), the marks (zero, a shortfall, a 30-day
//! line) and the legend. `crate::charts` only draws it.
//!
//! Positions and values are integers: the x position is a day or month index, a value milliunits
//! or days. Labels come from those exact integers; floats appear only at the drawing step.

use crate::months::CalendarMonth;
use crate::text::safe;
use chrono::{Datelike, NaiveDate};
use ynab::models::{CurrencyFormat, Milliunits};

mod build;
pub use build::{
    AgeRow, NetWorthRow, SpendingCategory, TOP_CATEGORIES, age_chart, forecast_chart,
    net_worth_chart, spending_chart,
};

/// Intervals an amount axis aims at: at most this many, and 2 more at worst once rounded out.
const TARGET_INTERVALS: i64 = 5;
/// Most labelled ticks along the x axis (a month label is about 60 pixels wide at 900).
const MAX_X_LABELS: usize = 9;
/// Characters of a legend's name kept; a longer one is cut with "…".
pub const LEGEND_CHARS: usize = 24;

/// A chart, ready to draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chart {
    pub title: String,
    /// One line under the title: what the chart rests on.
    pub subtitle: String,
    /// Along the bottom: day or month positions.
    pub x: Axis,
    /// Along the left: amounts or days, its title above the labels ("Balance (EUR)").
    pub y: Axis,
    pub y_title: String,
    pub series: Vec<Series>,
    pub marks: Vec<Mark>,
}

/// An axis: the range shown and its labelled ticks, in the axis's own integer unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Axis {
    pub min: i64,
    pub max: i64,
    pub ticks: Vec<Tick>,
}

/// A labelled position on an axis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tick {
    pub at: i64,
    pub label: String,
}

/// How a series looks; `crate::charts` gives each its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// The forecast's balance: a line over a light fill down to zero.
    Balance,
    /// The part of the balance below zero: a red fill, no line.
    BelowZero,
    NetWorth,
    Assets,
    Debts,
    /// The n-th category of a spending chart.
    Category(usize),
    /// Every other category, together.
    Others,
    Age,
}

/// A line through its points; a `None` value is a gap (a month with no figure).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Series {
    /// Its name in the legend; `None`: not in the legend.
    pub legend: Option<String>,
    pub style: Style,
    /// (x position, value).
    pub points: Vec<(i64, Option<i64>)>,
}

/// Something pointed out on the chart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mark {
    /// A horizontal line at a value (zero, a 30-day threshold), labelled at its right end.
    Level { at: i64, label: String },
    /// A point in time pointed out with a vertical line from top to bottom and a dot at the value
    /// (the forecast's first day below zero), labelled near the top.
    Event { x: i64, y: i64, label: String },
}

/// Why no chart was drawn: a sentence for the answer's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NothingToDraw(pub String);

impl std::fmt::Display for NothingToDraw {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Amounts as the plan writes them on an axis or a label: its symbol (first or after), its
/// thousands separator, its decimal digits and separator. A plan that states no format gets
/// two digits, "." and "," and no symbol: nothing is guessed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChartMoney {
    symbol: String,
    symbol_first: bool,
    group: String,
    decimal: String,
    digits: u32,
    /// The ISO code, for the axis title ("Balance (EUR)").
    code: String,
}

impl ChartMoney {
    /// The format of a plan's `currency_format`.
    pub fn of(format: Option<&CurrencyFormat>) -> Self {
        match format {
            Some(f) => ChartMoney {
                symbol: if f.display_symbol {
                    safe(&f.currency_symbol)
                } else {
                    String::new()
                },
                symbol_first: f.symbol_first,
                group: safe(&f.group_separator),
                decimal: {
                    let d = safe(&f.decimal_separator);
                    if d.is_empty() { ".".into() } else { d }
                },
                digits: f.decimal_digits.min(crate::money::MoneyFormat::MAX_DIGITS),
                code: safe(&f.iso_code),
            },
            None => ChartMoney {
                symbol: String::new(),
                symbol_first: true,
                group: ",".into(),
                decimal: ".".into(),
                digits: 2,
                code: String::new(),
            },
        }
    }

    /// `label (EUR)`, or `label` when the plan names no currency.
    pub fn titled(&self, label: &str) -> String {
        if self.code.is_empty() {
            label.to_string()
        } else {
            format!("{label} ({})", self.code)
        }
    }

    /// The exact amount with the plan's digits: `€1,234.50`, `-1.234,50 €`-style per the plan
    /// (rounded half to even, as sentences are; never `-0.00`).
    pub fn full(&self, milliunits: Milliunits) -> String {
        let plain = crate::money::MoneyFormat::new(self.digits, &self.decimal).plain(milliunits);
        self.dress(&plain)
    }

    /// A tick's label: whole units, no decimals (ticks are whole units: `€1,000`).
    pub fn whole(&self, milliunits: Milliunits) -> String {
        let plain = crate::money::MoneyFormat::new(0, &self.decimal).plain(milliunits);
        self.dress(&plain)
    }

    /// Groups the integer part of `plain` (`-1234.50`) and adds the symbol.
    fn dress(&self, plain: &str) -> String {
        let (negative, unsigned) = match plain.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, plain),
        };
        let split = unsigned
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(unsigned.len());
        let (integer, rest) = unsigned.split_at(split);
        let mut grouped = String::new();
        for (i, digit) in integer.chars().enumerate() {
            if i > 0 && (integer.len() - i).is_multiple_of(3) {
                grouped.push_str(&self.group);
            }
            grouped.push(digit);
        }
        let number = format!("{grouped}{rest}");
        let sign = if negative { "-" } else { "" };
        if self.symbol.is_empty() {
            format!("{sign}{number}")
        } else if self.symbol_first {
            format!("{sign}{}{number}", self.symbol)
        } else {
            format!("{sign}{number}{}", self.symbol)
        }
    }
}

const MONTH_NAMES: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// "Sep 2026".
pub fn month_label(month: CalendarMonth) -> String {
    let name = usize::try_from(month.month())
        .ok()
        .and_then(|m| MONTH_NAMES.get(m.wrapping_sub(1)))
        .copied()
        .unwrap_or("?");
    format!("{name} {}", month.year())
}

/// "14 Nov 2026".
pub fn day_label(date: NaiveDate) -> String {
    format!("{} {}", date.day(), month_label(CalendarMonth::of(date)))
}

/// "14 Nov", for weekly ticks of a short forecast.
fn short_day_label(date: NaiveDate) -> String {
    let label = month_label(CalendarMonth::of(date));
    let month = label.split(' ').next().unwrap_or("");
    format!("{} {month}", date.day())
}

/// A name for the legend: the display rule, then at most [`LEGEND_CHARS`] characters.
pub fn legend_name(name: &str) -> String {
    let name = safe(name);
    if name.chars().count() <= LEGEND_CHARS {
        name
    } else {
        let kept: String = name.chars().take(LEGEND_CHARS - 1).collect();
        format!("{}…", kept.trim_end())
    }
}

/// A value axis over `values`, zero always shown, rounded out to a step of 1, 2 or 5 × 10ⁿ (at
/// least `min_step`), each tick labelled by `label`.
pub fn value_axis(
    values: impl IntoIterator<Item = i64>,
    min_step: i64,
    label: impl Fn(i64) -> String,
) -> Axis {
    let (mut low, mut high) = (0i64, 0i64);
    for v in values {
        low = low.min(v);
        high = high.max(v);
    }
    let step = nice_step(high.saturating_sub(low), min_step.max(1));
    let min = low.div_euclid(step).saturating_mul(step);
    let mut max = high
        .saturating_add(step - 1)
        .div_euclid(step)
        .saturating_mul(step);
    if max <= min {
        max = min.saturating_add(step);
    }
    let mut ticks = Vec::new();
    let mut at = min;
    while at <= max {
        ticks.push(Tick {
            at,
            label: label(at),
        });
        at = match at.checked_add(step) {
            Some(next) => next,
            None => break,
        };
    }
    Axis { min, max, ticks }
}

/// The smallest of 1, 2, 5 × 10ⁿ (and at least `min_step`) cutting `span` into at most
/// [`TARGET_INTERVALS`] intervals.
fn nice_step(span: i64, min_step: i64) -> i64 {
    let raw = span.div_euclid(TARGET_INTERVALS) + i64::from(span % TARGET_INTERVALS != 0);
    let raw = raw.max(min_step);
    let mut magnitude = 1i64;
    while magnitude.saturating_mul(10) <= raw && magnitude < i64::MAX / 10 {
        magnitude *= 10;
    }
    [1, 2, 5, 10]
        .into_iter()
        .map(|k| magnitude.saturating_mul(k))
        .find(|step| *step >= raw)
        .unwrap_or(raw)
        .max(min_step)
}

/// An axis of `months` (positions 0, 1, …), half a month of room each side (in tenths: positions
/// are month index × 10), every k-th month labelled so that at most [`MAX_X_LABELS`] show, the
/// last always.
pub fn month_axis(months: &[CalendarMonth]) -> Axis {
    let n = months.len();
    let stride = n.div_ceil(MAX_X_LABELS).max(1);
    let ticks = months
        .iter()
        .enumerate()
        .filter(|(i, _)| (n - 1 - i).is_multiple_of(stride))
        .map(|(i, m)| Tick {
            at: month_position(i),
            label: month_label(*m),
        })
        .collect();
    Axis {
        min: -5,
        max: month_position(n.saturating_sub(1)) + 5,
        ticks,
    }
}

/// The x position of the i-th month of a month axis.
pub fn month_position(i: usize) -> i64 {
    i64::try_from(i).unwrap_or(i64::MAX / 10).saturating_mul(10)
}

/// An axis of the days from `first` (position 0) to `last`: the 1st of each month labelled with
/// its month (every k-th when many); over two months or less one tick a week from `first`, over
/// two weeks or less one a day.
pub fn day_axis(first: NaiveDate, last: NaiveDate) -> Axis {
    let span = (last - first).num_days().max(0);
    let mut ticks = Vec::new();
    if span <= 62 {
        let step = if span <= 14 { 1 } else { 7 };
        let mut at = 0;
        while at <= span {
            let date = first + chrono::Days::new(u64::try_from(at).unwrap_or(0));
            ticks.push(Tick {
                at,
                label: short_day_label(date),
            });
            at += step;
        }
    } else {
        let mut starts = Vec::new();
        let mut month = CalendarMonth::of(first).next();
        while let Some(day) = month.first_day().filter(|d| *d <= last) {
            starts.push((day, month));
            month = month.next();
        }
        let stride = starts.len().div_ceil(MAX_X_LABELS).max(1);
        ticks = starts
            .iter()
            .enumerate()
            .filter(|(i, _)| i.is_multiple_of(stride))
            .map(|(_, (day, month))| Tick {
                at: (*day - first).num_days(),
                label: month_label(*month),
            })
            .collect();
    }
    Axis {
        min: 0,
        max: span.max(1),
        ticks,
    }
}

#[cfg(test)]
mod tests;
