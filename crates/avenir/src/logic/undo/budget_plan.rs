//! Undoing a `budget_plan` (`apply_budget_plan`): each category's assigned amount still as the
//! plan set it goes back; one changed since is a conflict, left alone and named.

use super::Applied;
use super::{AssignedBack, AssignedChange, Now, Revert, UndoPlan, assigned_back, assigned_revert};
use crate::money::MoneyFormat;
use crate::months::CalendarMonth;
use ynab::models::Category;

/// `budget_plan`: the amounts still as the plan set them go back to what they held, in the
/// plan's order. Partly applied (D14), one holding its before value was never written (or was
/// already put back) and is left alone, not a conflict. `categories` are the month's.
pub fn budget_plan(
    month: CalendarMonth,
    changes: &[AssignedChange],
    categories: &[Category],
    fmt: &MoneyFormat,
    applied: Applied,
) -> UndoPlan {
    let (mut sides, mut conflicts, mut untouched): (Vec<AssignedBack>, Vec<String>, Vec<String>) =
        (Vec::new(), Vec::new(), Vec::new());
    for change in changes {
        let (side, now) = assigned_back(change, categories, applied);
        match now {
            Now::After => sides.push(side),
            Now::Before => untouched.push(change.category_id.clone()),
            Now::Changed => conflicts.push(change.category_id.clone()),
        }
    }
    let reverts = sides.iter().map(|s| assigned_revert(month, s)).collect();
    let lines = sides
        .iter()
        .map(|s| format!("- {}: {} → {}", s.name, fmt.plain(s.from), fmt.plain(s.to)))
        .collect();
    let question = format!(
        "Undo: set {} assigned amount(s) for {month} back?",
        sides.len()
    );
    let empty = sides.is_empty();
    let mut plan = UndoPlan::new(
        Revert::BudgetPlan { month, sides },
        conflicts,
        reverts,
        question,
    )
    .nothing_when(empty, "Every amount changed since: left alone.")
    .untouched(untouched);
    plan.lines = lines;
    plan
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fixtures::Fixture;

    fn categories() -> Vec<Category> {
        let mut f = Fixture::new();
        f.group("g", "Everyday");
        f.category("a", "g", "Groceries");
        f.category("b", "g", "Fun");
        f.category("c", "g", "Rent");
        let mut c = f.plan.categories.clone();
        c[0].budgeted = 450_000; // as the plan set it
        c[1].budgeted = 99_000; // changed since
        c[2].budgeted = 0; // its before value
        c
    }

    fn change(id: &str, from: i64, to: i64) -> AssignedChange {
        AssignedChange {
            category_id: id.into(),
            from,
            to,
        }
    }

    fn month() -> CalendarMonth {
        CalendarMonth::from_ynab("2026-10-01").expect("month")
    }

    #[test]
    fn still_as_set_goes_back_changed_since_is_a_conflict() {
        let changes = [
            change("a", 0, 450_000),
            change("b", 0, 60_000),
            change("c", 0, 950_000),
        ];
        let fmt = MoneyFormat::default();
        let plan = budget_plan(month(), &changes, &categories(), &fmt, Applied::Fully);
        assert_eq!(
            plan.question,
            "Undo: set 1 assigned amount(s) for 2026-10-01 back?"
        );
        assert_eq!(plan.lines, vec!["- Groceries: 450.00 → 0.00".to_string()]);
        assert_eq!(plan.conflicts, vec!["b".to_string(), "c".to_string()]);
        let Revert::BudgetPlan { sides, .. } = &plan.revert else {
            panic!("{:?}", plan.revert)
        };
        assert_eq!((sides[0].from, sides[0].to), (450_000, 0));
        assert!(plan.nothing.is_none());
        // Partly applied: Rent holds its before value, never written: untouched, not a conflict.
        let partly = budget_plan(month(), &changes, &categories(), &fmt, Applied::Partly);
        assert_eq!(partly.conflicts, vec!["b".to_string()]);
        assert_eq!(partly.untouched, vec!["c".to_string()]);
        // Nothing still as set: nothing to do.
        let none = budget_plan(month(), &changes[1..], &categories(), &fmt, Applied::Fully);
        assert_eq!(
            none.nothing.as_deref(),
            Some("Every amount changed since: left alone.")
        );
    }

    #[test]
    fn details_parsed_and_damaged_ones_refused() {
        use super::super::{Details, Refusal, parse};
        let details = serde_json::json!({"month": "2026-10-01", "changes": [
            {"category_id": "a", "from": 0, "to": 450_000},
            {"category_id": "b", "from": 10, "to": 20}]});
        assert_eq!(
            parse("budget_plan", &details, Vec::new(), false),
            Ok(Details::BudgetPlan {
                month: month(),
                changes: vec![change("a", 0, 450_000), change("b", 10, 20)]
            })
        );
        let damaged = serde_json::json!({"month": "2026-10-01", "changes": [{"category_id": "a", "from": 0}]});
        assert_eq!(
            parse("budget_plan", &damaged, Vec::new(), true),
            Err(Refusal::Damaged {
                field: "changes.0.to".into(),
                expected: "an amount in milliunits"
            })
        );
        assert_eq!(
            parse(
                "budget_plan",
                &serde_json::json!({"changes": []}),
                Vec::new(),
                false
            ),
            Err(Refusal::NoMonth)
        );
    }
}
