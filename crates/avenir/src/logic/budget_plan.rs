//! A month's budget plan (`apply_budget_plan`, `docs/writes/apply_budget_plan.md`): the lines
//! checked against the month's categories, the amounts that change, and Ready to Assign after.
//!
//! Pure: the tool reads the month and passes its categories, groups and Ready to Assign in.

use crate::logic::assignable::{CategoryIndex, Role};
use crate::text::safe;
use std::collections::BTreeSet;
use ynab::models::{Category, CategoryGroup, Milliunits};

/// The most lines one plan may hold: each changed line is one YNAB request (YNAB has no bulk
/// assignment), and the hourly budget is 200 requests.
pub const MAX_LINES: usize = 50;

/// One line as asked: a category and the amount to assign it (milliunits).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asked {
    pub category_id: String,
    pub amount: Milliunits,
}

/// One category whose assigned amount changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub category_id: String,
    /// Safe text.
    pub name: String,
    pub from: Milliunits,
    pub to: Milliunits,
    pub available_before: Milliunits,
}

impl Line {
    /// What is available once `to` is assigned.
    pub fn available_after(&self) -> Milliunits {
        self.available_before + self.to - self.from
    }
}

/// What the plan changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetPlan {
    /// The lines whose amount changes, in the order asked.
    pub changes: Vec<Line>,
    /// The names (safe text) of the lines already assigned as asked: left out of the writes.
    pub unchanged: Vec<String>,
    pub ready_before: Milliunits,
    pub ready_after: Milliunits,
}

/// Why a plan is refused: the tool words each (the messages are in the spec).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    Empty,
    TooMany(usize),
    /// Ids named more than once, sorted.
    Twice(Vec<String>),
    /// Line index, and the plan's decimal digits.
    TooPrecise {
        index: usize,
        digits: u32,
    },
    Unknown(String),
    /// An internal category: its id and name (safe text).
    Internal {
        id: String,
        name: String,
    },
    /// Ready to Assign would end below zero: what it would be.
    Negative {
        ready_after: Milliunits,
    },
}

/// Whether `amount` has no more than `digits` decimals (of YNAB's three).
pub fn fits_decimals(amount: Milliunits, digits: u32) -> bool {
    match 3u32.checked_sub(digits) {
        Some(extra) => amount % 10i64.pow(extra) == 0,
        None => true,
    }
}

/// Check `asked` against the month's `categories` (hidden included) and compute the change.
pub fn plan(
    asked: &[Asked],
    categories: &[Category],
    groups: &[CategoryGroup],
    ready_before: Milliunits,
    digits: u32,
    allow_negative: bool,
) -> Result<BudgetPlan, Refusal> {
    if asked.is_empty() {
        return Err(Refusal::Empty);
    }
    if asked.len() > MAX_LINES {
        return Err(Refusal::TooMany(asked.len()));
    }
    let mut seen = BTreeSet::new();
    let twice: BTreeSet<String> = asked
        .iter()
        .filter(|a| !seen.insert(a.category_id.as_str()))
        .map(|a| a.category_id.clone())
        .collect();
    if !twice.is_empty() {
        return Err(Refusal::Twice(twice.into_iter().collect()));
    }
    if let Some(index) = asked.iter().position(|a| !fits_decimals(a.amount, digits)) {
        return Err(Refusal::TooPrecise { index, digits });
    }
    let index = CategoryIndex::new(groups, categories);
    let (mut changes, mut unchanged) = (Vec::new(), Vec::new());
    for a in asked {
        let Some(category) = categories
            .iter()
            .find(|c| c.id == a.category_id && !c.deleted)
        else {
            return Err(Refusal::Unknown(a.category_id.clone()));
        };
        if matches!(
            index.role(&category.id),
            Some(Role::ReadyToAssign | Role::Uncategorized | Role::Internal)
        ) {
            return Err(Refusal::Internal {
                id: category.id.clone(),
                name: safe(&category.name),
            });
        }
        if category.budgeted == a.amount {
            unchanged.push(safe(&category.name));
            continue;
        }
        changes.push(Line {
            category_id: category.id.clone(),
            name: safe(&category.name),
            from: category.budgeted,
            to: a.amount,
            available_before: category.balance,
        });
    }
    let ready_after = ready_before - changes.iter().map(|l| l.to - l.from).sum::<Milliunits>();
    if ready_after < 0 && ready_after < ready_before && !allow_negative {
        return Err(Refusal::Negative { ready_after });
    }
    Ok(BudgetPlan {
        changes,
        unchanged,
        ready_before,
        ready_after,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fixtures::Fixture;

    fn month() -> (Vec<Category>, Vec<CategoryGroup>) {
        let mut f = Fixture::new();
        f.group("g-int", "Internal Master Category");
        f.category("c-inflow", "g-int", "Inflow: Ready to Assign");
        f.group("g", "Everyday");
        f.category("c-food", "g", "Groceries");
        f.category("c-fun", "g", "Fun\u{202e}");
        let mut categories = f.plan.categories.clone();
        categories[1].budgeted = 100_000;
        categories[1].balance = 40_000;
        (categories, f.plan.category_groups.clone())
    }

    fn ask(id: &str, amount: Milliunits) -> Asked {
        Asked {
            category_id: id.into(),
            amount,
        }
    }

    #[test]
    fn changes_unchanged_and_ready_to_assign_after() {
        let (c, g) = month();
        let p = plan(
            &[ask("c-fun", 30_000), ask("c-food", 100_000)],
            &c,
            &g,
            50_000,
            2,
            false,
        )
        .expect("plan");
        assert_eq!(p.changes.len(), 1);
        assert_eq!(p.changes[0].name, "Fun", "bank-safe name");
        assert_eq!((p.changes[0].from, p.changes[0].to), (0, 30_000));
        assert_eq!(p.unchanged, vec!["Groceries".to_string()]);
        assert_eq!((p.ready_before, p.ready_after), (50_000, 20_000));
        let lower = plan(&[ask("c-food", 60_000)], &c, &g, 50_000, 2, false).expect("plan");
        assert_eq!(lower.ready_after, 90_000);
        assert_eq!(lower.changes[0].available_after(), 0);
    }

    #[test]
    fn every_refusal() {
        let (c, g) = month();
        let p = |asked: &[Asked], allow| plan(asked, &c, &g, 50_000, 2, allow);
        assert_eq!(p(&[], false), Err(Refusal::Empty));
        let many: Vec<Asked> = (0..51).map(|i| ask(&format!("c{i}"), 0)).collect();
        assert_eq!(p(&many, false), Err(Refusal::TooMany(51)));
        assert_eq!(
            p(&[ask("c-fun", 1), ask("c-fun", 2), ask("c-food", 0)], false),
            Err(Refusal::Twice(vec!["c-fun".into()]))
        );
        assert_eq!(
            p(&[ask("c-fun", 10), ask("c-food", 1_005)], false),
            Err(Refusal::TooPrecise {
                index: 1,
                digits: 2
            })
        );
        assert_eq!(
            p(&[ask("nope", 0)], false),
            Err(Refusal::Unknown("nope".into()))
        );
        assert_eq!(
            p(&[ask("c-inflow", 0)], false),
            Err(Refusal::Internal {
                id: "c-inflow".into(),
                name: "Inflow: Ready to Assign".into()
            })
        );
        assert_eq!(
            p(&[ask("c-fun", 80_000)], false),
            Err(Refusal::Negative {
                ready_after: -30_000
            })
        );
        assert_eq!(
            p(&[ask("c-fun", 80_000)], true).map(|p| p.ready_after),
            Ok(-30_000)
        );
    }

    #[test]
    fn decimals_of_the_currency() {
        assert!(fits_decimals(1_230, 2));
        assert!(!fits_decimals(1_235, 2));
        assert!(fits_decimals(5_000, 0));
        assert!(!fits_decimals(5_500, 0));
        assert!(fits_decimals(1_235, 3));
    }
}
