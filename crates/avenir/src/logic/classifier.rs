//! The category classifier of `suggest_categories` (`docs/contract/reads.md` §12): learnt from the
//! plan's own history, one table for money out and one for money in, keyed by merchant (§1.6).
//!
//! It never learns from nor proposes `Uncategorized` or a credit-card payment category, and only
//! proposes a category a transaction can be given (`Inflow: Ready to Assign` included, D22, D34).

use super::assignable::CategoryIndex;
use super::index::PlanIndex;
use super::merchant::merchant;
use crate::text::safe;
use std::collections::HashMap;
use ynab::models::{Milliunits, PlanDetail};

/// Which way the money went: out below zero, in from zero up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    Out,
    In,
}

impl Direction {
    pub fn of(amount: Milliunits) -> Self {
        if amount < 0 {
            Direction::Out
        } else {
            Direction::In
        }
    }
}

/// A suggested category (name made safe) and the share of the payee's history behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct Suggestion {
    pub category_id: String,
    pub category_name: String,
    /// From 0 to 1, rounded to 2 decimals.
    pub confidence: f64,
}

/// How often each merchant was given each category, per direction, categories in the order
/// history first gave them (that order breaks ties).
#[derive(Debug, Clone, Default)]
pub struct Classifier {
    tables: HashMap<(Direction, String), Vec<(String, u32)>>,
}

impl Classifier {
    /// Learn from every transaction not deleted and not a transfer whose payee names a merchant
    /// and whose category is learnable.
    pub fn learn(plan: &PlanDetail, categories: &CategoryIndex) -> Self {
        Classifier::learn_indexed(plan, &PlanIndex::build(plan), categories)
    }

    /// [`Classifier::learn`] with the plan's index as the plan store keeps it: each payee's
    /// merchant is looked up, not normalised again.
    pub fn learn_indexed(plan: &PlanDetail, index: &PlanIndex, categories: &CategoryIndex) -> Self {
        let mut classifier = Classifier::default();
        for t in plan
            .transactions
            .iter()
            .filter(|t| !t.deleted && t.transfer_account_id.is_none())
        {
            let Some(category) = t.category_id.as_deref().filter(|c| !c.is_empty()) else {
                continue;
            };
            if !categories.is_learnable(category) {
                continue;
            }
            let shop = index.merchant(t.payee_id.as_deref());
            if !shop.is_empty() {
                classifier.count(Direction::of(t.amount), shop.to_string(), category);
            }
        }
        classifier
    }

    /// Record one transaction of `direction` at `shop` in `category`.
    pub fn count(&mut self, direction: Direction, shop: String, category: &str) {
        let counts = self.tables.entry((direction, shop)).or_default();
        match counts.iter_mut().find(|(c, _)| c == category) {
            Some((_, n)) => *n += 1,
            None => counts.push((category.to_string(), 1)),
        }
    }

    /// The category history gives a transaction paid to `payee_label` of `amount`: the most
    /// frequent assignable one, when its share reaches `threshold`.
    pub fn suggest(
        &self,
        payee_label: &str,
        amount: Milliunits,
        categories: &CategoryIndex,
        threshold: f64,
    ) -> Option<Suggestion> {
        self.suggest_for_merchant(&merchant(payee_label), amount, categories, threshold)
    }

    /// [`Classifier::suggest`] for a label already normalised to its merchant.
    pub fn suggest_for_merchant(
        &self,
        shop: &str,
        amount: Milliunits,
        categories: &CategoryIndex,
        threshold: f64,
    ) -> Option<Suggestion> {
        let counts = self
            .tables
            .get(&(Direction::of(amount), shop.to_string()))?;
        let usable: Vec<&(String, u32)> = counts
            .iter()
            .filter(|(c, _)| categories.is_assignable(c))
            .collect();
        let total: u32 = usable.iter().map(|(_, n)| n).sum();
        let mut top: Option<&(String, u32)> = None;
        for entry in usable {
            if top.is_none_or(|best| entry.1 > best.1) {
                top = Some(entry);
            }
        }
        let (category_id, count) = top?;
        let confidence = f64::from(*count) / f64::from(total);
        if confidence < threshold {
            return None;
        }
        Some(Suggestion {
            category_id: category_id.clone(),
            category_name: safe(categories.visible_name(category_id).unwrap_or("")),
            confidence: format!("{confidence:.2}").parse().unwrap_or(confidence),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::assignable::{CREDIT_CARD_GROUP, INTERNAL_GROUP};
    use crate::logic::fixtures::Fixture;
    use proptest::prelude::*;

    fn base() -> Fixture {
        let mut f = Fixture::new();
        f.account("a", "Checking", true);
        f.group("g-int", INTERNAL_GROUP);
        f.category("c-inflow", "g-int", "Inflow: Ready to Assign");
        f.category("c-unc", "g-int", "Uncategorized");
        f.group("g-cc", CREDIT_CARD_GROUP);
        f.category("c-visa", "g-cc", "Visa");
        f.group("g", "Everyday");
        for (id, name) in [("c1", "One"), ("c2", "Two"), ("c3", "Three")] {
            f.category(id, "g", name);
        }
        f.category("c-hidden", "g", "Old").hidden = true;
        f
    }

    fn history(f: &mut Fixture, label: &str, amount: Milliunits, counts: &[(&str, usize)]) {
        for (category, n) in counts {
            for _ in 0..*n {
                let id = format!("h{}", f.plan.transactions.len());
                f.tx(&id, "2026-08-01", amount, "a", label, Some(category));
            }
        }
    }

    fn suggest(f: &Fixture, label: &str, amount: Milliunits) -> Option<(String, f64)> {
        let categories = CategoryIndex::new(&f.plan.category_groups, &f.plan.categories);
        Classifier::learn(&f.plan, &categories)
            .suggest(label, amount, &categories, 0.90)
            .map(|s| (s.category_id, s.confidence))
    }

    /// The threshold boundary examples of §12.
    #[test]
    fn threshold_boundary() {
        let mut f = base();
        history(&mut f, "NINE", -1_000, &[("c2", 9), ("c1", 1)]);
        assert_eq!(suggest(&f, "NINE", -5_000), Some(("c2".into(), 0.9)));
        history(&mut f, "HALF", -1_000, &[("c2", 2), ("c1", 1), ("c3", 1)]);
        assert_eq!(suggest(&f, "HALF", -5_000), None);
        history(&mut f, "HIDDEN", -1_000, &[("c-hidden", 9), ("c2", 3)]);
        assert_eq!(suggest(&f, "HIDDEN", -5_000), Some(("c2".into(), 1.0)));
    }

    #[test]
    fn directions_are_learnt_apart() {
        let mut f = base();
        history(&mut f, "ACME PAYROLL", 3_000_000, &[("c-inflow", 3)]);
        assert_eq!(
            suggest(&f, "ACME PAYROLL", 3_200_000),
            Some(("c-inflow".into(), 1.0))
        );
        assert_eq!(suggest(&f, "ACME PAYROLL", -10_000), None);
        history(&mut f, "ZERO", 0, &[("c1", 1)]);
        assert_eq!(suggest(&f, "ZERO", 1), Some(("c1".into(), 1.0)));
    }

    /// Appendix B #1 (D22): Uncategorized and credit-card payment categories teach nothing.
    #[test]
    fn uncategorized_and_card_payments_are_never_learnt() {
        let mut f = base();
        history(&mut f, "NEWSHOP", -1_000, &[("c-unc", 2)]);
        assert_eq!(suggest(&f, "NEWSHOP", -1_000), None);
        history(&mut f, "CARD", -1_000, &[("c-visa", 5), ("c1", 1)]);
        assert_eq!(suggest(&f, "CARD", -1_000), Some(("c1".into(), 1.0)));
    }

    #[test]
    fn ties_go_to_the_first_seen_and_labels_are_normalised() {
        let mut f = base();
        history(
            &mut f,
            "CB RAIL CO FACT 010926 525130******1",
            -1_000,
            &[("c3", 1), ("c1", 1)],
        );
        let categories = CategoryIndex::new(&f.plan.category_groups, &f.plan.categories);
        let learnt = Classifier::learn(&f.plan, &categories);
        let half = learnt.suggest("RAIL CO", -1_000, &categories, 0.5);
        assert_eq!(
            half.map(|s| (s.category_id, s.category_name)),
            Some(("c3".into(), "Three".into()))
        );
        // transfers and deleted transactions teach nothing
        f.tx("t-x", "2026-08-02", -1_000, "a", "MOVED", Some("c1"))
            .transfer_account_id = Some("b".into());
        f.tx("t-y", "2026-08-02", -1_000, "a", "GONE", Some("c1"))
            .deleted = true;
        assert_eq!(suggest(&f, "MOVED", -1_000), None);
        assert_eq!(suggest(&f, "GONE", -1_000), None);
    }

    proptest! {
        /// Whatever the history and the threshold, a suggestion names a category a transaction
        /// can be given.
        #[test]
        fn a_suggestion_always_names_an_assignable_category(
            roles in proptest::collection::vec((0usize..5, any::<bool>(), any::<bool>()), 1..8),
            history_rows in proptest::collection::vec((0usize..3, 0usize..10, any::<bool>()), 0..40),
            threshold in 0.0f64..=1.0,
        ) {
            let mut f = Fixture::new();
            f.account("a", "A", true);
            f.group("g-int", INTERNAL_GROUP);
            f.group("g-cc", CREDIT_CARD_GROUP);
            f.group("g", "Everyday");
            f.group("g-hidden", "Archive").hidden = true;
            for (i, (role, hidden, deleted)) in roles.iter().enumerate() {
                let (group, name) = match role {
                    0 => ("g-int", "Uncategorized".to_string()),
                    1 => ("g-int", "Inflow: Ready to Assign".to_string()),
                    2 => ("g-cc", format!("Card {i}")),
                    3 => ("g-hidden", format!("Archived {i}")),
                    _ => ("g", format!("Ordinary {i}")),
                };
                let c = f.category(&format!("c{i}"), group, &name);
                c.hidden = *hidden;
                c.deleted = *deleted;
            }
            for (k, (shop, category, inflow)) in history_rows.iter().enumerate() {
                let amount = if *inflow { 1_000 } else { -1_000 };
                f.tx(&format!("t{k}"), "2026-08-01", amount, "a", &format!("SHOP {shop}"), Some(&format!("c{category}")));
            }
            let categories = CategoryIndex::new(&f.plan.category_groups, &f.plan.categories);
            let learnt = Classifier::learn(&f.plan, &categories);
            for shop in 0..3 {
                for amount in [-1_000, 1_000] {
                    if let Some(s) = learnt.suggest(&format!("SHOP {shop}"), amount, &categories, threshold) {
                        prop_assert!(categories.is_assignable(&s.category_id), "{s:?}");
                        prop_assert!(s.confidence >= 0.0 && s.confidence <= 1.0);
                        prop_assert!(!s.category_name.is_empty());
                    }
                }
            }
        }
    }
}
