//! One budget month's figures as the month tools read them (`docs/contract/reads.md` §8–10): its
//! totals, the overspent categories, each category's balance and the share of its budget spent.
//!
//! Everything is read from the month YNAB sent (its `categories` carry that month's assigned,
//! activity and available); amounts stay integer milliunits and percentages integer tenths.

use super::assignable::INTERNAL_GROUP;
use crate::months::CalendarMonth;
use std::collections::HashMap;
use ynab::models::{Category, CategoryGroup, Milliunits, Month};

/// Group names by group id, for categories that arrive without `category_group_name`.
#[derive(Debug, Clone, Default)]
pub struct GroupNames<'a> {
    names: HashMap<&'a str, &'a str>,
}

impl<'a> GroupNames<'a> {
    pub fn new(groups: &'a [CategoryGroup]) -> Self {
        GroupNames {
            names: groups
                .iter()
                .map(|g| (g.id.as_str(), g.name.as_str()))
                .collect(),
        }
    }

    /// The category's group name: YNAB's `category_group_name`, else its group's name, else `""`.
    pub fn of(&self, category: &'a Category) -> &'a str {
        category
            .category_group_name
            .as_deref()
            .or_else(|| self.names.get(category.category_group_id.as_str()).copied())
            .unwrap_or("")
    }
}

/// A category of a month, with its group name.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CategoryMonth<'a> {
    pub category: &'a Category,
    pub group: &'a str,
}

/// A "usable" category (§1.9): not hidden, not deleted, not in the internal group. Credit Card
/// Payments categories are usable.
pub fn is_usable(category: &Category, group: &str) -> bool {
    !category.hidden && !category.deleted && group != INTERNAL_GROUP
}

/// The month's usable categories, in YNAB's order.
pub fn usable_categories<'a>(month: &'a Month, groups: &GroupNames<'a>) -> Vec<CategoryMonth<'a>> {
    month
        .categories
        .as_deref()
        .unwrap_or_default()
        .iter()
        .map(|category| CategoryMonth {
            category,
            group: groups.of(category),
        })
        .filter(|c| is_usable(c.category, c.group))
        .collect()
}

/// The month YNAB holds for `wanted` (deleted months are not held).
pub fn find_month(months: &[Month], wanted: CalendarMonth) -> Option<&Month> {
    months
        .iter()
        .filter(|m| !m.deleted)
        .find(|m| CalendarMonth::from_ynab(&m.month) == Some(wanted))
}

/// The first and last months the plan holds, for a message about a month it does not.
pub fn held_range(months: &[Month]) -> Option<(CalendarMonth, CalendarMonth)> {
    let mut held = months
        .iter()
        .filter(|m| !m.deleted)
        .filter_map(|m| CalendarMonth::from_ynab(&m.month));
    let first = held.next()?;
    Some(held.fold((first, first), |(lo, hi), m| (lo.min(m), hi.max(m))))
}

/// `get_monthly_summary`'s figures (§8).
#[derive(Debug, Clone, PartialEq)]
pub struct MonthSummary<'a> {
    pub income: Milliunits,
    pub budgeted: Milliunits,
    pub activity: Milliunits,
    pub ready_to_assign: Milliunits,
    pub age_of_money: Option<i32>,
    /// Usable categories whose available balance is below zero, in YNAB's order.
    pub overspent: Vec<CategoryMonth<'a>>,
}

/// A month at a glance: YNAB's totals and the overspent categories.
pub fn month_summary<'a>(month: &'a Month, groups: &GroupNames<'a>) -> MonthSummary<'a> {
    MonthSummary {
        income: month.income,
        budgeted: month.budgeted,
        activity: month.activity,
        ready_to_assign: month.to_be_budgeted,
        age_of_money: month.age_of_money,
        overspent: usable_categories(month, groups)
            .into_iter()
            .filter(|c| c.category.balance < 0)
            .collect(),
    }
}

/// `get_category_balances`' rows (§9): usable categories, and unless `include_empty` only those
/// with a non-zero assigned, activity or available amount.
pub fn category_balances<'a>(
    month: &'a Month,
    groups: &GroupNames<'a>,
    include_empty: bool,
) -> Vec<CategoryMonth<'a>> {
    usable_categories(month, groups)
        .into_iter()
        .filter(|c| {
            include_empty
                || c.category.budgeted != 0
                || c.category.activity != 0
                || c.category.balance != 0
        })
        .collect()
}

/// One row of `get_budget_vs_actual` (§10).
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetLine<'a> {
    pub category: CategoryMonth<'a>,
    pub budgeted: Milliunits,
    /// What the months before left available at the start: balance − budgeted − activity.
    pub carried_over: Milliunits,
    /// Spending: activity with the sign flipped, so refunds reduce it (D22).
    pub actual: Milliunits,
    pub balance: Milliunits,
    /// actual ÷ budgeted in tenths of a percent, rounded half to even; 0 when nothing is budgeted.
    pub utilization_tenths: i64,
}

/// Every usable category of the month with what it had, spent and has left.
pub fn budget_vs_actual<'a>(month: &'a Month, groups: &GroupNames<'a>) -> Vec<BudgetLine<'a>> {
    usable_categories(month, groups)
        .into_iter()
        .map(|c| {
            let Category {
                budgeted,
                activity,
                balance,
                ..
            } = *c.category;
            let actual = activity.saturating_neg();
            BudgetLine {
                category: c,
                budgeted,
                carried_over: balance.saturating_sub(budgeted).saturating_sub(activity),
                actual,
                balance,
                utilization_tenths: utilization_tenths(actual, budgeted),
            }
        })
        .collect()
}

/// `actual / budgeted × 100` in tenths of a percent, computed exactly and rounded half to even;
/// 0 when `budgeted` is 0. (The reference rounds a float quotient; the two agree except on exact
/// ties, where the float's binary error decided.)
pub fn utilization_tenths(actual: Milliunits, budgeted: Milliunits) -> i64 {
    if budgeted == 0 {
        return 0;
    }
    let quotient = div_half_even(i128::from(actual) * 1000, i128::from(budgeted));
    i64::try_from(quotient).unwrap_or(if quotient < 0 { i64::MIN } else { i64::MAX })
}

/// `n / d` rounded to the nearest integer, ties to even (`d` ≠ 0).
fn div_half_even(n: i128, d: i128) -> i128 {
    let (n, d) = if d < 0 { (-n, -d) } else { (n, d) };
    let quotient = n.div_euclid(d);
    let twice = n.rem_euclid(d) * 2;
    if twice > d || (twice == d && quotient.rem_euclid(2) == 1) {
        quotient + 1
    } else {
        quotient
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    pub(crate) fn category(
        id: &str,
        name: &str,
        group: &str,
        figures: (Milliunits, Milliunits, Milliunits),
        hidden: bool,
    ) -> Category {
        Category {
            id: id.into(),
            category_group_id: format!("g-{group}").into(),
            category_group_name: Some(group.into()),
            name: name.into(),
            hidden,
            internal: false,
            original_category_group_id: None,
            note: None,
            budgeted: figures.0,
            activity: figures.1,
            balance: figures.2,
            deleted: false,
            ..Category::default()
        }
    }

    pub(crate) fn month(label: &str, categories: Vec<Category>) -> Month {
        Month {
            month: label.into(),
            note: None,
            income: 0,
            budgeted: 0,
            activity: 0,
            to_be_budgeted: 0,
            age_of_money: None,
            deleted: false,
            categories: Some(categories),
        }
    }

    /// The month of the worked examples of `docs/contract/reads.md` §8–10.
    fn september() -> Month {
        let mut m = month(
            "2026-09-01",
            vec![
                category("c-rent", "Rent", "Bills", (950_000, -950_000, 0), false),
                category(
                    "c-food",
                    "Groceries",
                    "Everyday",
                    (400_000, -452_500, -22_500),
                    false,
                ),
                category("c-fun", "Tennis", "Fun", (0, 0, 0), false),
                category("c-hol", "Holidays", "Fun", (100_000, 0, 350_000), false),
                category("c-old", "Old", "Fun", (0, -5_000, -5_000), true),
                category(
                    "c-rta",
                    "Inflow: Ready to Assign",
                    INTERNAL_GROUP,
                    (0, 3_200_000, 0),
                    false,
                ),
            ],
        );
        m.income = 3_200_000;
        m.budgeted = 1_450_000;
        m.activity = -1_402_500;
        m.to_be_budgeted = 1_729_320;
        m.age_of_money = Some(18);
        m
    }

    fn ids(rows: &[CategoryMonth<'_>]) -> Vec<String> {
        rows.iter().map(|c| c.category.id.to_string()).collect()
    }

    #[test]
    fn summary_lists_only_usable_overspent_categories() {
        let m = september();
        let groups = GroupNames::default();
        let s = month_summary(&m, &groups);
        assert_eq!(
            (s.income, s.budgeted, s.activity, s.ready_to_assign),
            (3_200_000, 1_450_000, -1_402_500, 1_729_320)
        );
        assert_eq!(s.age_of_money, Some(18));
        assert_eq!(ids(&s.overspent), ["c-food"]);
        assert_eq!(s.overspent[0].group, "Everyday");
    }

    #[test]
    fn balances_leave_out_empty_hidden_and_internal_categories() {
        let m = september();
        let groups = GroupNames::default();
        assert_eq!(
            ids(&category_balances(&m, &groups, false)),
            ["c-rent", "c-food", "c-hol"]
        );
        assert_eq!(
            ids(&category_balances(&m, &groups, true)),
            ["c-rent", "c-food", "c-fun", "c-hol"]
        );
        assert!(category_balances(&month("2026-09-01", vec![]), &groups, true).is_empty());
    }

    #[test]
    fn budget_vs_actual_worked_example() {
        let m = september();
        let groups = GroupNames::default();
        let rows: Vec<_> = budget_vs_actual(&m, &groups)
            .into_iter()
            .map(|l| {
                (
                    l.category.category.name.clone(),
                    l.budgeted,
                    l.carried_over,
                    l.actual,
                    l.balance,
                    l.utilization_tenths,
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                ("Rent".into(), 950_000, 0, 950_000, 0, 1000),
                ("Groceries".into(), 400_000, 30_000, 452_500, -22_500, 1131),
                ("Tennis".into(), 0, 0, 0, 0, 0),
                ("Holidays".into(), 100_000, 250_000, 0, 350_000, 0),
            ]
        );
        // the reference's documented example
        assert_eq!(utilization_tenths(400_000, 500_000), 800);
    }

    #[test]
    fn refunds_reduce_spending() {
        let m = month(
            "2026-09-01",
            vec![category(
                "c-r",
                "Refunds",
                "Fun",
                (10_000, 5_000, 15_000),
                false,
            )],
        );
        let line = &budget_vs_actual(&m, &GroupNames::default())[0];
        assert_eq!(line.actual, -5_000);
        assert_eq!(line.utilization_tenths, -500);
    }

    #[test]
    fn group_names_fall_back_to_the_plan_groups() {
        let mut c = category("c1", "Rent", "Bills", (1, 0, 1), false);
        c.category_group_name = None;
        c.category_group_id = "g-1".into();
        let groups = vec![CategoryGroup {
            id: "g-1".into(),
            name: INTERNAL_GROUP.into(),
            hidden: false,
            internal: true,
            deleted: false,
        }];
        let names = GroupNames::new(&groups);
        assert_eq!(names.of(&c), INTERNAL_GROUP);
        assert_eq!(GroupNames::default().of(&c), "");
        let m = month("2026-09-01", vec![c.clone()]);
        assert!(usable_categories(&m, &names).is_empty());
    }

    #[test]
    fn months_held() {
        let mut gone = month("2026-05-01", vec![]);
        gone.deleted = true;
        let months = vec![
            month("2026-07-01", vec![]),
            month("2026-06-01", vec![]),
            gone,
        ];
        let july = CalendarMonth::new(2026, 7);
        let may = CalendarMonth::new(2026, 5);
        assert!(july.is_some_and(|m| find_month(&months, m).is_some()));
        assert!(may.is_some_and(|m| find_month(&months, m).is_none()));
        let range = held_range(&months).map(|(a, b)| (a.label(), b.label()));
        assert_eq!(range, Some(("2026-06-01".into(), "2026-07-01".into())));
        assert_eq!(held_range(&[]), None);
    }

    #[test]
    fn half_even_division() {
        assert_eq!(div_half_even(5, 2), 2);
        assert_eq!(div_half_even(7, 2), 4);
        assert_eq!(div_half_even(-5, 2), -2);
        assert_eq!(div_half_even(-7, 2), -4);
        assert_eq!(div_half_even(5, -2), -2);
        assert_eq!(div_half_even(1, 3), 0);
        assert_eq!(div_half_even(2, 3), 1);
        assert_eq!(div_half_even(-2, 3), -1);
    }

    fn arb_category(index: usize) -> impl Strategy<Value = Category> {
        (
            -2_000_000i64..2_000_000,
            -2_000_000i64..2_000_000,
            -2_000_000i64..2_000_000,
            any::<bool>(),
            prop_oneof![Just("Bills"), Just("Fun"), Just(INTERNAL_GROUP)],
            0u8..4,
        )
            .prop_map(move |(b, a, bal, hidden, group, zero)| {
                let figures = if zero == 0 { (0, 0, 0) } else { (b, a, bal) };
                category(&format!("c{index}"), "C", group, figures, hidden)
            })
    }

    fn arb_month() -> impl Strategy<Value = Month> {
        (0usize..12).prop_flat_map(|n| {
            (0..n)
                .map(arb_category)
                .collect::<Vec<_>>()
                .prop_map(|cs| month("2026-09-01", cs))
        })
    }

    proptest! {
        #[test]
        fn carried_over_budgeted_and_spending_make_the_balance(m in arb_month()) {
            let groups = GroupNames::default();
            for line in budget_vs_actual(&m, &groups) {
                prop_assert_eq!(line.carried_over + line.budgeted - line.actual, line.balance);
                prop_assert!(is_usable(line.category.category, line.category.group));
                if line.budgeted == 0 {
                    prop_assert_eq!(line.utilization_tenths, 0);
                } else {
                    // within half a tenth of the exact share
                    let exact = i128::from(line.actual) * 1000;
                    let approx = i128::from(line.utilization_tenths) * i128::from(line.budgeted);
                    prop_assert!((exact - approx).abs() * 2 <= i128::from(line.budgeted).abs());
                }
            }
        }

        #[test]
        fn balances_are_the_usable_categories_minus_empty_ones(m in arb_month()) {
            let groups = GroupNames::default();
            let all = category_balances(&m, &groups, true);
            let some = category_balances(&m, &groups, false);
            prop_assert_eq!(all.len(), budget_vs_actual(&m, &groups).len());
            let empty = all.iter().filter(|c| {
                c.category.budgeted == 0 && c.category.activity == 0 && c.category.balance == 0
            }).count();
            prop_assert_eq!(some.len() + empty, all.len());
            let overspent = month_summary(&m, &groups).overspent;
            prop_assert_eq!(
                overspent.len(),
                all.iter().filter(|c| c.category.balance < 0).count()
            );
            prop_assert!(overspent.iter().all(|c| some.contains(c)));
        }
    }
}
