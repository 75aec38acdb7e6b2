//! A month's budget plan (`apply_budget_plan`, `docs/writes/apply_budget_plan.md`): the lines
//! checked against the month's categories, the amounts that change, and Ready to Assign after.
//!
//! A line may also set the category's target (its amount alone, as `set_category_target` with
//! an amount and neither date nor frequency): `logic::target_change` checks and computes it.
//!
//! Pure: the tool reads the month and passes its categories, groups and Ready to Assign in.

use crate::logic::assignable::{CategoryIndex, Role};
use crate::logic::target_change::{self, TargetAsked, TargetChange};
use crate::money::MoneyFormat;
use crate::text::safe;
use ynab::models::{Category, CategoryGroup, Milliunits};

/// The most lines one plan may hold: each changed line is one YNAB request (YNAB has no bulk
/// assignment), and the hourly budget is 200 requests.
pub const MAX_LINES: usize = 50;

/// One line as asked: a category, the amount to assign it and its target amount (milliunits;
/// at least one of the two).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asked {
    pub category_id: String,
    pub amount: Option<Milliunits>,
    pub target: Option<Milliunits>,
}

/// One category whose target changes.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetLine {
    pub category_id: String,
    /// Safe text.
    pub name: String,
    /// Before and after in words, the fields sent, the fields that restore it.
    pub change: TargetChange,
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
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetPlan {
    /// The lines whose amount changes, in the order asked.
    pub changes: Vec<Line>,
    /// The lines whose target changes, in the order asked (written after every amount).
    pub targets: Vec<TargetLine>,
    /// The names (safe text) of the lines already as asked: left out of the writes.
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
    /// A line with neither an amount nor a target: its index.
    NeitherAmountNorTarget(usize),
    /// Line index, the plan's decimal digits, and whether it is the target amount.
    TooPrecise {
        index: usize,
        digits: u32,
        target: bool,
    },
    /// A line's target refused by `target_change` (its index and sentence).
    Target {
        index: usize,
        message: &'static str,
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

/// The month and the plan around it: the month's `categories` (hidden included, for the
/// assigned amounts), the plan's `groups` and its `targets` (the plan's categories, whose goal
/// fields the targets compare), Ready to Assign, the currency's decimal digits and format.
#[derive(Debug, Clone, Copy)]
pub struct MonthData<'a> {
    pub categories: &'a [Category],
    pub groups: &'a [CategoryGroup],
    pub targets: &'a [Category],
    pub ready_before: Milliunits,
    pub digits: u32,
    pub money: &'a MoneyFormat,
}

/// The target amount alone, as `set_category_target` takes it.
fn target_asked(amount: Milliunits) -> TargetAsked {
    TargetAsked {
        amount: Some(amount),
        ..TargetAsked::default()
    }
}

/// Check `asked` against the month (hidden categories included) and compute the change.
pub fn plan(
    asked: &[Asked],
    month: MonthData<'_>,
    allow_negative: bool,
) -> Result<BudgetPlan, Refusal> {
    let MonthData {
        categories,
        groups,
        targets: plan_categories,
        ready_before,
        digits,
        money,
    } = month;
    check_asked(asked, digits)?;
    let index = CategoryIndex::new(groups, categories);
    let (mut changes, mut targets, mut unchanged) = (Vec::new(), Vec::new(), Vec::new());
    for (i, a) in asked.iter().enumerate() {
        let category = known_category(categories, &index, &a.category_id)?;
        let mut changed = false;
        if let Some(amount) = a.amount.filter(|m| *m != category.budgeted) {
            changed = true;
            changes.push(Line {
                category_id: category.id.to_string(),
                name: safe(&category.name),
                from: category.budgeted,
                to: amount,
                available_before: category.balance,
            });
        }
        if let Some(target) = a.target {
            // The goal fields are the plan's (a month's copy may lag a target change).
            let Some(goal) = plan_categories.iter().find(|c| c.id == category.id) else {
                return Err(Refusal::Unknown(a.category_id.clone()));
            };
            let card = index.role(&category.id) == Some(Role::CreditCardPayment);
            let change = target_change::plan(
                goal,
                target_change::pairing(goal, card),
                &target_asked(target),
                money,
            )
            .map_err(|message| Refusal::Target { index: i, message })?;
            if !change.is_nothing() {
                changed = true;
                targets.push(TargetLine {
                    category_id: category.id.to_string(),
                    name: safe(&category.name),
                    change,
                });
            }
        }
        if !changed {
            unchanged.push(safe(&category.name));
        }
    }
    let ready_after = ready_before - changes.iter().map(|l| l.to - l.from).sum::<Milliunits>();
    if ready_after < 0 && ready_after < ready_before && !allow_negative {
        return Err(Refusal::Negative { ready_after });
    }
    Ok(BudgetPlan {
        changes,
        targets,
        unchanged,
        ready_before,
        ready_after,
    })
}

/// The request's own checks, before the month is read: lines to change, none named twice,
/// each with an amount or a target, in the currency's decimals, each target's arguments valid.
fn check_asked(asked: &[Asked], digits: u32) -> Result<(), Refusal> {
    if asked.is_empty() {
        return Err(Refusal::Empty);
    }
    if asked.len() > MAX_LINES {
        return Err(Refusal::TooMany(asked.len()));
    }
    let twice = super::named_twice(asked.iter().map(|a| a.category_id.as_str()));
    if !twice.is_empty() {
        return Err(Refusal::Twice(twice));
    }
    if let Some(index) = asked
        .iter()
        .position(|a| a.amount.is_none() && a.target.is_none())
    {
        return Err(Refusal::NeitherAmountNorTarget(index));
    }
    for (index, a) in asked.iter().enumerate() {
        if a.amount.is_some_and(|m| !fits_decimals(m, digits)) {
            return Err(Refusal::TooPrecise {
                index,
                digits,
                target: false,
            });
        }
        if let Some(target) = a.target {
            if !fits_decimals(target, digits) {
                return Err(Refusal::TooPrecise {
                    index,
                    digits,
                    target: true,
                });
            }
            target_change::check_arguments(&target_asked(target))
                .map_err(|message| Refusal::Target { index, message })?;
        }
    }
    Ok(())
}

/// The live category `category_id`, one a person assigns to (not an internal one).
fn known_category<'c>(
    categories: &'c [Category],
    index: &CategoryIndex<'_>,
    category_id: &str,
) -> Result<&'c Category, Refusal> {
    let Some(category) = categories
        .iter()
        .find(|c| c.id == category_id && !c.deleted)
    else {
        return Err(Refusal::Unknown(category_id.to_string()));
    };
    if matches!(
        index.role(&category.id),
        Some(Role::ReadyToAssign | Role::Uncategorized | Role::Internal)
    ) {
        return Err(Refusal::Internal {
            id: category.id.to_string(),
            name: safe(&category.name),
        });
    }
    Ok(category)
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
            amount: Some(amount),
            target: None,
        }
    }

    fn data<'a>(
        c: &'a [Category],
        g: &'a [CategoryGroup],
        money: &'a MoneyFormat,
    ) -> MonthData<'a> {
        MonthData {
            categories: c,
            groups: g,
            targets: c,
            ready_before: 50_000,
            digits: 2,
            money,
        }
    }

    #[test]
    fn changes_unchanged_and_ready_to_assign_after() {
        let (c, g) = month();
        let money = MoneyFormat::default();
        let p = plan(
            &[ask("c-fun", 30_000), ask("c-food", 100_000)],
            data(&c, &g, &money),
            false,
        )
        .expect("plan");
        assert_eq!(p.changes.len(), 1);
        assert_eq!(p.changes[0].name, "Fun", "bank-safe name");
        assert_eq!((p.changes[0].from, p.changes[0].to), (0, 30_000));
        assert_eq!(p.unchanged, vec!["Groceries".to_string()]);
        assert_eq!((p.ready_before, p.ready_after), (50_000, 20_000));
        let lower = plan(&[ask("c-food", 60_000)], data(&c, &g, &money), false).expect("plan");
        assert_eq!(lower.ready_after, 90_000);
        assert_eq!(lower.changes[0].available_after(), 0);
    }

    #[test]
    fn targets_changed_unchanged_and_alongside_amounts() {
        let (mut c, g) = month();
        // Groceries has a monthly target of 400.00.
        c[1].goal_type = Some("NEED".into());
        c[1].goal_target = Some(400_000);
        c[1].goal_cadence = Some(1);
        c[1].goal_cadence_frequency = Some(1);
        let money = MoneyFormat::default();
        let asked = [
            Asked {
                category_id: "c-food".into(),
                amount: Some(120_000),
                target: Some(450_000),
            },
            Asked {
                category_id: "c-fun".into(),
                amount: None,
                target: Some(60_000),
            },
        ];
        let p = plan(&asked, data(&c, &g, &money), false).expect("plan");
        assert_eq!(p.changes.len(), 1, "Fun's amount is not asked");
        assert_eq!((p.changes[0].from, p.changes[0].to), (100_000, 120_000));
        assert_eq!(p.targets.len(), 2);
        let t = &p.targets[0].change;
        assert_eq!(
            (t.before.as_str(), t.after.as_str()),
            ("400.00 each month", "450.00 each month")
        );
        assert_eq!(t.fields, serde_json::json!({"goal_target": 450_000}));
        assert_eq!(t.undo, Some(serde_json::json!({"goal_target": 400_000})));
        let t = &p.targets[1];
        assert_eq!(t.name, "Fun");
        assert_eq!(
            (t.change.before.as_str(), t.change.after.as_str()),
            ("no target", "60.00 each month")
        );
        assert_eq!(
            t.change.undo,
            Some(serde_json::json!({"goal_target": null}))
        );
        assert_eq!(p.ready_after, 30_000);
        // A target already as asked is left out; a line with nothing left is unchanged.
        let same = [Asked {
            category_id: "c-food".into(),
            amount: Some(100_000),
            target: Some(400_000),
        }];
        let p = plan(&same, data(&c, &g, &money), false).expect("plan");
        assert!(p.changes.is_empty() && p.targets.is_empty());
        assert_eq!(p.unchanged, vec!["Groceries".to_string()]);
        let amount_only = [Asked {
            category_id: "c-food".into(),
            amount: Some(90_000),
            target: Some(400_000),
        }];
        let p = plan(&amount_only, data(&c, &g, &money), false).expect("plan");
        assert_eq!((p.changes.len(), p.targets.len()), (1, 0));
        assert!(p.unchanged.is_empty());
    }

    #[test]
    fn every_refusal() {
        let (c, g) = month();
        let money = MoneyFormat::default();
        let p = |asked: &[Asked], allow| plan(asked, data(&c, &g, &money), allow);
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
                digits: 2,
                target: false
            })
        );
        let neither = Asked {
            category_id: "c-fun".into(),
            amount: None,
            target: None,
        };
        assert_eq!(
            p(&[ask("c-food", 1), neither], false),
            Err(Refusal::NeitherAmountNorTarget(1))
        );
        let target = |amount| Asked {
            category_id: "c-fun".into(),
            amount: None,
            target: Some(amount),
        };
        assert_eq!(
            p(&[target(1_005)], false),
            Err(Refusal::TooPrecise {
                index: 0,
                digits: 2,
                target: true
            })
        );
        assert_eq!(
            p(&[target(0)], false),
            Err(Refusal::Target {
                index: 0,
                message: "The amount must be greater than 0; to remove the target, give none."
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
