//! Undoing a `budget_plan` (`apply_budget_plan`): each category's assigned amount still as the
//! plan set it goes back, then each target still as set; one changed since is a conflict, left
//! alone and named.

use super::Applied;
use super::Refusal;
use super::per_kind::{Entry, Planned, Reads, UndoKind};
use super::record::from_details;
use super::{
    AssignedChange, AssignedSide, Now, Revert, UndoPlan, assigned_back, assigned_revert, now,
};
use crate::logic::targets::describe;
use crate::money::MoneyFormat;
use crate::months::CalendarMonth;
use crate::text::safe;
use serde_json::{Value, json};
use ynab::models::Category;

/// A target the plan changed, as journaled: the target before and after in words, and the fields
/// that restore it (`target_change`'s; a target amount alone is always restorable).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TargetDone {
    pub category_id: String,
    pub before: String,
    pub after: String,
    #[serde(rename = "undo", deserialize_with = "restoring_fields")]
    pub fields: Value,
}

/// A `budget_plan`'s record: the month, each category's assigned amount as the plan changed it,
/// and each target it changed (the key is left out when none did, as in every line written
/// before targets).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PlanApplied {
    pub month: crate::months::CalendarMonth,
    pub changes: Vec<super::AssignedChange>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<TargetDone>,
}

/// The fields that restore a target: an object of YNAB's target fields.
fn restoring_fields<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
    use serde::Deserialize;
    match Value::deserialize(d)? {
        fields @ Value::Object(_) => Ok(fields),
        _ => Err(serde::de::Error::invalid_type(
            serde::de::Unexpected::Other("a value"),
            &"the fields that restore the target",
        )),
    }
}

/// A target put back: the category (its name, safe text), how the target reads now and once
/// back, and the fields saved.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetBack {
    pub category_id: String,
    pub name: String,
    pub now: String,
    pub back: String,
    pub fields: Value,
}

/// The targets still as the plan set them, to put back; one holding its before value is
/// untouched, one changed since a conflict.
fn targets_back(
    targets: &[TargetDone],
    targets_now: &[Category],
    fmt: &MoneyFormat,
    applied: Applied,
    (conflicts, untouched): (&mut Vec<String>, &mut Vec<String>),
) -> Vec<TargetBack> {
    let mut backs = Vec::new();
    for t in targets {
        let category = targets_now
            .iter()
            .find(|c| c.id == t.category_id && !c.deleted);
        let reads = category.map(|c| describe(c, fmt));
        match now(
            reads.as_deref() == Some(t.after.as_str()),
            reads.as_deref() == Some(t.before.as_str()),
            applied,
        ) {
            Now::After => backs.push(TargetBack {
                category_id: t.category_id.clone(),
                name: category.map(|c| safe(&c.name)).unwrap_or_default(),
                now: t.after.clone(),
                back: t.before.clone(),
                fields: t.fields.clone(),
            }),
            Now::Before => untouched.push(t.category_id.clone()),
            Now::Changed => conflicts.push(t.category_id.clone()),
        }
    }
    backs
}

/// `budget_plan`: the amounts still as the plan set them go back to what they held, in the
/// plan's order, then the targets still as set. Partly applied (D14), one holding its before
/// value was never written (or was already put back) and is left alone, not a conflict.
/// `categories` are the month's; `targets_now` the plan's (their goal fields).
pub fn budget_plan(
    month: CalendarMonth,
    (changes, targets): (&[AssignedChange], &[TargetDone]),
    categories: &[Category],
    targets_now: &[Category],
    fmt: &MoneyFormat,
    applied: Applied,
) -> UndoPlan {
    let (mut sides, mut conflicts, mut untouched): (Vec<AssignedSide>, Vec<String>, Vec<String>) =
        (Vec::new(), Vec::new(), Vec::new());
    for change in changes {
        let (side, now) = assigned_back(change, categories, applied);
        match now {
            Now::After => sides.push(side),
            Now::Before => untouched.push(change.category_id.clone()),
            Now::Changed => conflicts.push(change.category_id.clone()),
        }
    }
    let backs = targets_back(
        targets,
        targets_now,
        fmt,
        applied,
        (&mut conflicts, &mut untouched),
    );
    let mut reverts: Vec<Value> = sides.iter().map(|s| assigned_revert(month, s)).collect();
    reverts.extend(backs.iter().map(
        |b| json!({"category_id": b.category_id, "target_before": b.now, "fields": b.fields}),
    ));
    let mut lines: Vec<String> = sides
        .iter()
        .map(|s| format!("- {}: {} → {}", s.name, fmt.plain(s.from), fmt.plain(s.to)))
        .collect();
    lines.extend(
        backs
            .iter()
            .map(|b| format!("- {}: target {} → {}", b.name, b.now, b.back)),
    );
    let (question, nothing) = if targets.is_empty() {
        (
            format!(
                "Undo: set {} assigned amount(s) for {month} back?",
                sides.len()
            ),
            "Every amount changed since: left alone.",
        )
    } else {
        (
            format!(
                "Undo: set {} assigned amount(s) and {} target(s) for {month} back?",
                sides.len(),
                backs.len()
            ),
            "Every amount and target changed since: left alone.",
        )
    };
    let empty = sides.is_empty() && backs.is_empty();
    let mut plan = UndoPlan::new(
        Revert::BudgetPlan {
            month,
            sides,
            targets: backs,
        },
        conflicts,
        reverts,
        question,
    )
    .nothing_when(empty, nothing)
    .untouched(untouched);
    plan.lines = lines;
    plan
}

impl UndoKind for PlanApplied {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "Assigned amounts restored.";

    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        from_details(entry.details)
    }

    /// The month's categories, and the plan's for its targets.
    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let categories = reads.month(self.month).await?;
        let parts = (&self.changes[..], &self.targets[..]);
        let all = &reads.plan().categories;
        let (fmt, applied) = (reads.fmt(), reads.applied());
        Ok(budget_plan(self.month, parts, &categories, all, fmt, applied).into())
    }
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
        let plan = budget_plan(
            month(),
            (&changes, &[]),
            &categories(),
            &[],
            &fmt,
            Applied::Fully,
        );
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
        let partly = budget_plan(
            month(),
            (&changes, &[]),
            &categories(),
            &[],
            &fmt,
            Applied::Partly,
        );
        assert_eq!(partly.conflicts, vec!["b".to_string()]);
        assert_eq!(partly.untouched, vec!["c".to_string()]);
        // Nothing still as set: nothing to do.
        let none = budget_plan(
            month(),
            (&changes[1..], &[]),
            &categories(),
            &[],
            &fmt,
            Applied::Fully,
        );
        assert_eq!(
            none.nothing.as_deref(),
            Some("Every amount changed since: left alone.")
        );
    }

    fn target_done(id: &str, before: &str, after: &str, back: Option<i64>) -> TargetDone {
        TargetDone {
            category_id: id.into(),
            before: before.into(),
            after: after.into(),
            fields: json!({ "goal_target": back }),
        }
    }

    /// The plan's categories: Groceries' target reads as the plan set it, Fun's changed since,
    /// Rent's as before the plan.
    fn with_targets() -> Vec<Category> {
        let mut c = categories();
        for (category, amount) in c.iter_mut().zip([500_000, 70_000, 950_000]) {
            category.goal_type = Some("NEED".into());
            category.goal_target = Some(amount);
            category.goal_cadence = Some(1);
            category.goal_cadence_frequency = Some(1);
        }
        c
    }

    #[test]
    fn targets_still_as_set_go_back_after_the_amounts() {
        let fmt = MoneyFormat::default();
        let changes = [change("a", 0, 450_000)];
        let targets = [
            target_done("a", "450.00 each month", "500.00 each month", Some(450_000)),
            target_done("b", "no target", "60.00 each month", None),
            target_done(
                "c",
                "950.00 each month",
                "1000.00 each month",
                Some(950_000),
            ),
        ];
        let plan = budget_plan(
            month(),
            (&changes, &targets),
            &categories(),
            &with_targets(),
            &fmt,
            Applied::Fully,
        );
        assert_eq!(
            plan.question,
            "Undo: set 1 assigned amount(s) and 1 target(s) for 2026-10-01 back?"
        );
        assert_eq!(
            plan.lines,
            vec![
                "- Groceries: 450.00 → 0.00".to_string(),
                "- Groceries: target 500.00 each month → 450.00 each month".to_string()
            ]
        );
        assert_eq!(plan.conflicts, vec!["b".to_string(), "c".to_string()]);
        let Revert::BudgetPlan { targets: backs, .. } = &plan.revert else {
            panic!("{:?}", plan.revert)
        };
        assert_eq!(backs.len(), 1);
        assert_eq!(backs[0].fields, json!({"goal_target": 450_000}));
        assert_eq!(plan.reverts.len(), 2);
        // Partly applied: Rent's target still reads as before, never written: untouched.
        let partly = budget_plan(
            month(),
            (&changes, &targets),
            &categories(),
            &with_targets(),
            &fmt,
            Applied::Partly,
        );
        assert_eq!(partly.conflicts, vec!["b".to_string()]);
        assert_eq!(partly.untouched, vec!["c".to_string()]);
        // Nothing still as set.
        let none = budget_plan(
            month(),
            (&[], &targets[1..]),
            &categories(),
            &with_targets(),
            &fmt,
            Applied::Fully,
        );
        assert_eq!(
            none.nothing.as_deref(),
            Some("Every amount and target changed since: left alone.")
        );
    }

    #[test]
    fn details_with_targets_parsed_and_damaged_ones_refused() {
        use super::super::{Details, Refusal, parse};
        let details = serde_json::json!({"month": "2026-10-01", "changes": [], "targets": [
            {"category_id": "b", "before": "no target", "after": "60.00 each month",
             "undo": {"goal_target": null}}]});
        assert_eq!(
            parse("budget_plan", &details, Vec::new(), false),
            Ok(Details::BudgetPlan(PlanApplied {
                month: month(),
                changes: Vec::new(),
                targets: vec![target_done("b", "no target", "60.00 each month", None)]
            }))
        );
        let damaged = serde_json::json!({"month": "2026-10-01", "changes": [], "targets": [
            {"category_id": "b", "before": "no target", "after": "60.00 each month"}]});
        assert_eq!(
            parse("budget_plan", &damaged, Vec::new(), false),
            Err(Refusal::Damaged {
                field: "targets.0.undo".into(),
                problem: "is missing".into()
            })
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
            Ok(Details::BudgetPlan(PlanApplied {
                month: month(),
                changes: vec![change("a", 0, 450_000), change("b", 10, 20)],
                targets: Vec::new()
            }))
        );
        let damaged = serde_json::json!({"month": "2026-10-01", "changes": [{"category_id": "a", "from": 0}]});
        assert_eq!(
            parse("budget_plan", &damaged, Vec::new(), true),
            Err(Refusal::Damaged {
                field: "changes.0.to".into(),
                problem: "is missing".into()
            })
        );
        assert_eq!(
            parse(
                "budget_plan",
                &serde_json::json!({"changes": []}),
                Vec::new(),
                false
            ),
            Err(Refusal::Damaged {
                field: "month".into(),
                problem: "is missing".into()
            })
        );
    }
}
