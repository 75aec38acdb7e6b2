//! Spending per category, month by month (`docs/contract/reads.md` §11): YNAB's activity with the
//! sign flipped, so refunds reduce it, keyed by category id with the category's group and name
//! (D22).

use super::budget_month::{GroupNames, usable_categories};
use crate::months::CalendarMonth;
use std::collections::HashMap;
use ynab::models::{Milliunits, Month};

/// One category's spending in each month it appears in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trend<'a> {
    pub category_id: &'a str,
    /// Group and name as the latest month read shows them.
    pub group: &'a str,
    pub name: &'a str,
    /// (month, spending), in the order the months were given.
    pub months: Vec<(CalendarMonth, Milliunits)>,
}

/// The trends over `months` (oldest first, as `held_months` gives them): for each usable category
/// with a name, its spending (−activity) in every month it appears in. Categories come in the
/// order they are first met.
pub fn spending_trends<'a>(
    months: &[(CalendarMonth, &'a Month)],
    groups: &GroupNames<'a>,
) -> Vec<Trend<'a>> {
    let mut trends: Vec<Trend<'a>> = Vec::new();
    let mut index: HashMap<&'a str, usize> = HashMap::new();
    for (label, month) in months {
        for c in usable_categories(month, groups) {
            if c.category.name.is_empty() {
                continue;
            }
            let spending = c.category.activity.saturating_neg();
            let id = c.category.id.as_str();
            let position = *index.entry(id).or_insert_with(|| {
                trends.push(Trend {
                    category_id: id,
                    group: c.group,
                    name: &c.category.name,
                    months: Vec::new(),
                });
                trends.len() - 1
            });
            if let Some(trend) = trends.get_mut(position) {
                trend.group = c.group;
                trend.name = &c.category.name;
                trend.months.push((*label, spending));
            }
        }
    }
    trends
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::assignable::INTERNAL_GROUP;
    use crate::logic::budget_month::is_usable;
    use proptest::prelude::*;
    use ynab::models::Category;

    fn category(id: &str, name: &str, group: &str, activity: Milliunits, hidden: bool) -> Category {
        Category {
            id: id.into(),
            category_group_id: format!("g-{group}").into(),
            category_group_name: Some(group.into()),
            name: name.into(),
            hidden,
            internal: false,
            original_category_group_id: None,
            note: None,
            budgeted: 0,
            activity,
            balance: 0,
            deleted: false,
            ..Category::default()
        }
    }

    fn month(label: &str, categories: Vec<Category>) -> Month {
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

    fn labelled(months: &[Month]) -> Vec<(CalendarMonth, &Month)> {
        months
            .iter()
            .filter_map(|m| CalendarMonth::from_ynab(&m.month).map(|l| (l, m)))
            .collect()
    }

    type Row = (String, String, String, Vec<(String, Milliunits)>);

    fn rows(trends: &[Trend<'_>]) -> Vec<Row> {
        trends
            .iter()
            .map(|t| {
                (
                    t.category_id.to_string(),
                    t.group.to_string(),
                    t.name.to_string(),
                    t.months.iter().map(|(m, a)| (m.label(), *a)).collect(),
                )
            })
            .collect()
    }

    /// Worked example 2 of `docs/contract/reads.md` §11, with D22's keys.
    #[test]
    fn keyed_by_id_with_refunds_reducing_spending() {
        let months = vec![
            month(
                "2026-06-01",
                vec![
                    category("c-gro", "Groceries", "Everyday", -172_890, false),
                    category("c-ref", "Refunds", "Everyday", 50_000, false),
                    category("c-old", "Old", "Everyday", -1_000, true),
                ],
            ),
            month(
                "2026-08-01",
                vec![
                    category("c-gro", "Groceries", "Everyday", -192_510, false),
                    category("c-ref", "Refunds", "Everyday", 0, false),
                    category("c-gro2", "Groceries", "Other", -10_000, false),
                ],
            ),
            month(
                "2026-09-01",
                vec![
                    category("c-gro", "Groceries", "Everyday", 0, false),
                    category("c-ref", "Refunds", "Everyday", 0, false),
                    category(
                        "c-rta",
                        "Inflow: Ready to Assign",
                        INTERNAL_GROUP,
                        3_000_000,
                        false,
                    ),
                ],
            ),
        ];
        let trends = spending_trends(&labelled(&months), &GroupNames::default());
        let m = |l: &str, a| (l.to_string(), a);
        assert_eq!(
            rows(&trends),
            vec![
                (
                    "c-gro".into(),
                    "Everyday".into(),
                    "Groceries".into(),
                    vec![
                        m("2026-06-01", 172_890),
                        m("2026-08-01", 192_510),
                        m("2026-09-01", 0)
                    ]
                ),
                (
                    "c-ref".into(),
                    "Everyday".into(),
                    "Refunds".into(),
                    vec![
                        m("2026-06-01", -50_000),
                        m("2026-08-01", 0),
                        m("2026-09-01", 0)
                    ]
                ),
                (
                    "c-gro2".into(),
                    "Other".into(),
                    "Groceries".into(),
                    vec![m("2026-08-01", 10_000)]
                ),
            ]
        );
    }

    /// Worked example 3 of `docs/contract/reads.md` §11 (the reference's documented one).
    #[test]
    fn one_month_one_category() {
        let months = vec![month(
            "2026-01-01",
            vec![category("c-aws", "AWS", "Bills", -100_000, false)],
        )];
        let trends = spending_trends(&labelled(&months), &GroupNames::default());
        assert_eq!(
            rows(&trends)[0].3,
            vec![("2026-01-01".to_string(), 100_000)]
        );
        assert!(spending_trends(&[], &GroupNames::default()).is_empty());
    }

    #[test]
    fn a_renamed_category_carries_its_latest_name() {
        let months = vec![
            month(
                "2026-06-01",
                vec![category("c1", "Food", "Everyday", -1, false)],
            ),
            month(
                "2026-07-01",
                vec![category("c1", "Groceries", "Everyday", -2, false)],
            ),
            month(
                "2026-07-01",
                vec![category("c2", "", "Everyday", -2, false)],
            ),
        ];
        let trends = spending_trends(&labelled(&months), &GroupNames::default());
        assert_eq!(trends.len(), 1, "a category with no name is left out");
        assert_eq!(trends[0].name, "Groceries");
    }

    fn arb_months() -> impl Strategy<Value = Vec<Month>> {
        let one = (
            0usize..6,
            -5_000_000i64..5_000_000,
            any::<bool>(),
            prop_oneof![Just("Bills"), Just("Fun"), Just(INTERNAL_GROUP)],
            prop_oneof![Just(""), Just("Name")],
        )
            .prop_map(|(id, activity, hidden, group, name)| {
                category(&format!("c{id}"), name, group, activity, hidden)
            });
        proptest::collection::vec(proptest::collection::vec(one, 0..8), 0..6).prop_map(|months| {
            months
                .into_iter()
                .enumerate()
                .map(|(i, mut cs)| {
                    // one row per category id in a month, as YNAB sends them
                    let mut seen = std::collections::HashSet::new();
                    cs.retain(|c| seen.insert(c.id.clone()));
                    month(&format!("2026-{:02}-01", i + 1), cs)
                })
                .collect()
        })
    }

    proptest! {
        /// The trends of a month add up to the activity they cover, sign flipped.
        #[test]
        fn trends_add_up_to_the_activity_they_cover(months in arb_months()) {
            let groups = GroupNames::default();
            let input = labelled(&months);
            let trends = spending_trends(&input, &groups);
            for (label, m) in &input {
                let covered: Milliunits = m
                    .categories
                    .iter()
                    .flatten()
                    .filter(|c| is_usable(c, groups.of(c)) && !c.name.is_empty())
                    .map(|c| c.activity)
                    .sum();
                let in_trends: Milliunits = trends
                    .iter()
                    .flat_map(|t| t.months.iter())
                    .filter(|(l, _)| l == label)
                    .map(|(_, a)| a)
                    .sum();
                prop_assert_eq!(in_trends, -covered);
            }
            let mut ids: Vec<_> = trends.iter().map(|t| t.category_id).collect();
            let n = ids.len();
            ids.sort_unstable();
            ids.dedup();
            prop_assert_eq!(ids.len(), n, "one entry per category id");
            for t in &trends {
                prop_assert!(t.months.windows(2).all(|w| w[0].0 < w[1].0), "months in order");
            }
        }
    }
}
