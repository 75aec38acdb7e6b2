//! Underfunded targets (`docs/contract/reads.md` §20): the categories whose target still needs
//! money in a month, most urgent first, with what they need together against Ready to Assign.
//!
//! YNAB's computed goal figures (`goal_under_funded`, `goal_overall_left`, …) are used as given;
//! nothing is recomputed. Amounts stay integer milliunits; sentences use the plan's format (D16).

use super::budget_month::GroupNames;
use crate::money::MoneyFormat;
use crate::months::CalendarMonth;
use crate::text::safe;
use ynab::models::{Category, Milliunits, Month};

/// How urgent a target is; the order of the variants is the order of the list.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Urgency {
    /// Due by a date: the soonest first.
    DueDate,
    /// Monthly or weekly funding, and debt payments.
    Repeating,
    /// Every other target.
    Other,
}

/// One target behind in the month.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetLine<'a> {
    pub category: &'a Category,
    /// The group's name as stored (apply the display rule before showing it).
    pub group: &'a str,
    /// The target in words (`250.00 by 2026-10-01`, `450.00 each month`).
    pub target: String,
    /// The target date, `YYYY-MM-DD`.
    pub due: Option<&'a str>,
    /// What YNAB says the category still needs this month (its Underfunded).
    pub needed: Milliunits,
    /// What the target needs over its whole period.
    pub left: Milliunits,
    pub percent_complete: Option<i32>,
    pub months_left: Option<i32>,
    pub urgency: Urgency,
}

/// The month's underfunded targets and their totals.
#[derive(Debug, Clone, PartialEq)]
pub struct Underfunded<'a> {
    pub month: CalendarMonth,
    /// The most urgent lines, at most the limit.
    pub targets: Vec<TargetLine<'a>>,
    /// Targets behind beyond the limit.
    pub more: usize,
    /// What every target behind needs this month.
    pub needed: Milliunits,
    /// The month's Ready to Assign (negative when over-assigned).
    pub ready: Milliunits,
    /// needed ≤ max(ready, 0) (D22).
    pub enough: bool,
    pub covered: Milliunits,
    pub short_by: Milliunits,
    /// Active targets needing nothing more this month.
    pub on_track: usize,
    /// Targets behind, every one counted.
    pub behind: usize,
    /// Targets not snoozed.
    pub active: usize,
    /// Names of the snoozed targets, safe to show, in YNAB's order.
    pub snoozed: Vec<String>,
}

/// Text YNAB gave, `None` when absent or empty.
fn given(text: Option<&str>) -> Option<&str> {
    text.filter(|s| !s.is_empty())
}

/// The category's target date (`goal_target_date`, or the deprecated `goal_target_month`).
fn target_date(category: &Category) -> Option<&str> {
    given(category.goal_target_date.as_deref())
        .or_else(|| given(category.goal_target_month.as_deref()))
}

/// The target in words (§20 `describe`).
pub fn describe(category: &Category, money: &MoneyFormat) -> String {
    let (Some(kind), Some(target)) = (given(category.goal_type.as_deref()), category.goal_target)
    else {
        return "no target".into();
    };
    let amount = money.plain(target);
    let date = target_date(category);
    if kind == "NEED" {
        if let Some(date) = date {
            return format!("{amount} by {}", safe(date));
        }
        if matches!(category.goal_cadence_frequency, None | Some(1)) {
            let every = match category.goal_cadence {
                Some(1) => Some("month"),
                Some(2) => Some("week"),
                Some(13) => Some("year"),
                _ => None,
            };
            if let Some(every) = every {
                return format!("{amount} each {every}");
            }
        }
    }
    let words = match kind {
        "MF" => "monthly funding".to_string(),
        "TB" => "target balance".to_string(),
        "TBD" => "target balance by date".to_string(),
        "DEBT" => "debt payment".to_string(),
        "NEED" => "spending target".to_string(),
        other => safe(other),
    };
    format!("{amount} ({words})")
}

/// How urgent the category's target is.
pub fn urgency(category: &Category) -> Urgency {
    let kind = category.goal_type.as_deref().unwrap_or("");
    if matches!(kind, "MF" | "DEBT") || matches!(category.goal_cadence, Some(1 | 2)) {
        Urgency::Repeating
    } else if target_date(category).is_some() {
        Urgency::DueDate
    } else {
        Urgency::Other
    }
}

/// The targets of `month` that still need money, most urgent first, the first `limit` of them
/// listed (all when `None`); the totals count every one.
pub fn underfunded_targets<'a>(
    label: CalendarMonth,
    month: &'a Month,
    groups: &GroupNames<'a>,
    money: &MoneyFormat,
    limit: Option<usize>,
) -> Underfunded<'a> {
    let visible: Vec<&Category> = month
        .categories
        .as_deref()
        .unwrap_or_default()
        .iter()
        .filter(|c| !c.hidden && !c.deleted && given(c.goal_type.as_deref()).is_some())
        .collect();
    let (snoozed, active): (Vec<&Category>, Vec<&Category>) = visible
        .into_iter()
        .partition(|c| given(c.goal_snoozed_at.as_deref()).is_some());
    let mut behind: Vec<TargetLine<'a>> = active
        .iter()
        .filter(|c| c.goal_under_funded.unwrap_or(0) > 0)
        .map(|c| TargetLine {
            category: c,
            group: groups.of(c),
            target: describe(c, money),
            due: target_date(c),
            needed: c.goal_under_funded.unwrap_or(0),
            left: c.goal_overall_left.unwrap_or(0),
            percent_complete: c.goal_percentage_complete,
            months_left: c.goal_months_to_budget,
            urgency: urgency(c),
        })
        .collect();
    behind.sort_by_cached_key(|line| {
        let due = match line.urgency {
            Urgency::DueDate => line.due.unwrap_or(""),
            _ => "",
        };
        (
            line.urgency,
            due,
            std::cmp::Reverse(line.needed),
            safe(&line.category.name),
        )
    });
    let needed = behind
        .iter()
        .fold(0, |sum: Milliunits, l| sum.saturating_add(l.needed));
    let ready = month.to_be_budgeted;
    let covered = ready.max(0).min(needed);
    let count = behind.len();
    let on_track = active.len() - count;
    behind.truncate(limit.unwrap_or(usize::MAX));
    Underfunded {
        month: label,
        more: count - behind.len(),
        targets: behind,
        needed,
        ready,
        enough: needed <= ready.max(0),
        covered,
        short_by: needed.saturating_sub(covered),
        on_track,
        behind: count,
        active: active.len(),
        snoozed: snoozed.iter().map(|c| safe(&c.name)).collect(),
    }
}

impl Underfunded<'_> {
    /// The conclusion (§20 step 7).
    pub fn message(&self, money: &MoneyFormat) -> String {
        let month = self.month.label();
        if self.behind == 0 {
            return match self.active {
                0 => format!("No visible category has a target in {month}."),
                1 => {
                    format!("The 1 target of {month} is funded: nothing more is needed this month.")
                }
                n => format!(
                    "The {n} targets of {month} are funded: nothing more is needed this month."
                ),
            };
        }
        let head = match self.behind {
            1 => "1 target needs".to_string(),
            n => format!("{n} targets need"),
        };
        let tail = if self.ready >= self.needed {
            format!(
                "enough for all of them, with {} left.",
                money.plain(self.ready.saturating_sub(self.needed))
            )
        } else {
            format!(
                "it covers {} of the {}, {} short.",
                money.plain(self.covered),
                money.plain(self.needed),
                money.plain(self.short_by)
            )
        };
        format!(
            "{head} {} in {month}; Ready to Assign holds {}: {tail}",
            money.plain(self.needed),
            money.plain(self.ready)
        )
    }

    /// The notes (§20 step 8).
    pub fn notes(&self) -> Vec<String> {
        let mut notes = vec![
            "needed is what YNAB says each category still needs this month to stay on track \
(Underfunded in its app); left is what the target needs over its whole period."
                .to_string(),
            "Most urgent first: targets due by a date, the soonest first; then monthly and weekly \
funding and debt payments; then the rest; the largest need first in each."
                .to_string(),
        ];
        if self.more > 0 {
            notes.push(format!(
                "{} more underfunded targets are not listed; the totals count them.",
                self.more
            ));
        }
        if !self.snoozed.is_empty() {
            notes.push(format!(
                "Targets snoozed in YNAB ask for nothing this month and are left out: {}.",
                self.snoozed.join(", ")
            ));
        }
        notes
    }
}

#[cfg(test)]
mod tests;
