//! A category's target figures in a month (the rules are in [`super`]'s doc): what is still
//! needed, what is funded, the percentage and the months left.

use super::*;

/// The five computed target figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Goal {
    under_funded: Milliunits,
    overall_funded: Milliunits,
    overall_left: Milliunits,
    percentage_complete: i32,
    months_to_budget: Option<i32>,
}

pub(super) fn with_figures(
    plan: &PlanState,
    c: &Category,
    budgeted: Milliunits,
    activity: Milliunits,
    balance: Milliunits,
    goal: Option<Goal>,
) -> Category {
    let group_name = plan
        .groups
        .iter()
        .find(|g| g.id == c.category_group_id)
        .map(|g| Str::from(&g.name))
        .or_else(|| c.category_group_name.clone());
    Category {
        category_group_name: group_name,
        budgeted,
        activity,
        balance,
        goal_under_funded: goal.map(|g| g.under_funded),
        goal_overall_funded: goal.map(|g| g.overall_funded),
        goal_overall_left: goal.map(|g| g.overall_left),
        goal_percentage_complete: goal.map(|g| g.percentage_complete),
        goal_months_to_budget: goal.and_then(|g| g.months_to_budget),
        ..c.clone()
    }
}

/// The currency's smallest unit in milliunits (10 for two decimal digits).
pub(super) fn smallest_unit(plan: &PlanState) -> Milliunits {
    match plan.currency_format.decimal_digits {
        0 => 1000,
        1 => 100,
        2 => 10,
        _ => 1,
    }
}

/// `amount / parts`, rounded up to a multiple of `unit` (amount > 0, parts > 0).
pub(super) fn share_rounded_up(amount: Milliunits, parts: i64, unit: Milliunits) -> Milliunits {
    let per = amount.div_euclid(parts) + i64::from(amount.rem_euclid(parts) != 0);
    per.div_euclid(unit) * unit + if per.rem_euclid(unit) != 0 { unit } else { 0 }
}

fn months_between(from: NaiveDate, to: NaiveDate) -> i64 {
    i64::from(to.year() - from.year()) * 12 + i64::from(to.month()) - i64::from(from.month())
}

/// The target figures of `c` in month `m` (see the module doc); `None` when it has none there.
pub(super) fn goal_figures(
    c: &Category,
    m: NaiveDate,
    carried: Milliunits,
    assigned: Milliunits,
    unit: Milliunits,
) -> Option<Goal> {
    let kind = c.goal_type.as_deref()?;
    let target = c.goal_target.filter(|t| *t > 0)?;
    if let Some(created) = c.goal_creation_month.as_deref().and_then(parse_month)
        && m < created
    {
        return None;
    }
    let due = c.goal_target_date.as_deref().and_then(parse_month);
    let cadence = c.goal_cadence.unwrap_or(0);
    let monthly = cadence == 1 && c.goal_cadence_frequency.unwrap_or(1) <= 1;
    match (kind, due) {
        ("NEED", Some(due)) if cadence == 0 => {
            Some(by_date(target, due, m, carried, assigned, unit))
        }
        ("TBD", Some(due)) => Some(by_date(target, due, m, carried, assigned, unit)),
        ("NEED", None) if monthly && c.goal_needs_whole_amount != Some(false) => {
            Some(set_aside(target, assigned))
        }
        ("MF", _) => Some(set_aside(target, assigned)),
        ("NEED", None) if monthly => {
            let funded = (carried + assigned).max(0);
            let left = (target - funded).max(0);
            Some(Goal {
                under_funded: left,
                overall_funded: funded,
                overall_left: left,
                percentage_complete: percent(funded, target),
                months_to_budget: Some(1),
            })
        }
        ("TB", None) => {
            let funded = (carried + assigned).max(0);
            let left = (target - funded).max(0);
            Some(Goal {
                under_funded: left,
                overall_funded: funded,
                overall_left: left,
                percentage_complete: percent(funded, target),
                months_to_budget: None,
            })
        }
        _ => None,
    }
}

fn set_aside(target: Milliunits, assigned: Milliunits) -> Goal {
    let funded = assigned.max(0);
    let left = (target - assigned).max(0);
    Goal {
        under_funded: left,
        overall_funded: funded,
        overall_left: left,
        percentage_complete: percent(funded, target),
        months_to_budget: Some(1),
    }
}

fn by_date(
    target: Milliunits,
    due: NaiveDate,
    m: NaiveDate,
    carried: Milliunits,
    assigned: Milliunits,
    unit: Milliunits,
) -> Goal {
    let months = if m <= due {
        months_between(m, due) + 1
    } else {
        0
    };
    let missing = target - carried;
    let need = if missing <= 0 {
        0
    } else if months == 0 {
        missing
    } else {
        share_rounded_up(missing, months, unit)
    };
    let funded = (carried + assigned).max(0);
    Goal {
        under_funded: (need - assigned).max(0),
        overall_funded: funded,
        overall_left: (target - funded).max(0),
        percentage_complete: percent(funded, target),
        months_to_budget: Some(i32::try_from(months).unwrap_or(i32::MAX)),
    }
}

fn percent(funded: Milliunits, target: Milliunits) -> i32 {
    if target <= 0 {
        return 100;
    }
    i32::try_from((funded.saturating_mul(100) / target).clamp(0, 100)).unwrap_or(100)
}
