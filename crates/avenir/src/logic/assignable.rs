//! Which categories a transaction can be given, and which names an answer may show: YNAB's
//! internal categories, credit-card payment categories, hidden and deleted ones told apart.
//!
//! One [`CategoryIndex`] per plan read answers every such question, so a suggestion, the list of
//! categories offered and the names in answers all follow the same rules (D22, D34).

use crate::text::safe;
use std::collections::HashMap;
use ynab::models::{Category, CategoryGroup};

/// YNAB's group of internal categories (`Inflow: Ready to Assign`, `Uncategorized`).
pub const INTERNAL_GROUP: &str = "Internal Master Category";
/// YNAB's group of credit-card payment categories.
pub const CREDIT_CARD_GROUP: &str = "Credit Card Payments";

/// What a category is to YNAB.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A category of the person's own.
    Ordinary,
    /// `Inflow: Ready to Assign`: internal, yet what income is given (D34).
    ReadyToAssign,
    /// The internal `Uncategorized`: what a transaction without a category carries.
    Uncategorized,
    /// Any other internal category (never offered).
    Internal,
    /// A credit-card payment category: YNAB ignores it on a transaction.
    CreditCardPayment,
}

/// A category a transaction can be given, as `suggest_categories` offers it (names shown safe).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offered {
    pub category_id: String,
    pub name: String,
    pub group: String,
}

#[derive(Debug)]
struct Entry<'a> {
    category: &'a Category,
    group: Option<&'a CategoryGroup>,
    role: Role,
}

/// The plan's categories by id, in YNAB's order, each with its group and role.
#[derive(Debug)]
pub struct CategoryIndex<'a> {
    by_id: HashMap<&'a str, Entry<'a>>,
    order: Vec<&'a str>,
}

impl<'a> CategoryIndex<'a> {
    pub fn new(groups: &'a [CategoryGroup], categories: &'a [Category]) -> Self {
        let groups_by_id: HashMap<&str, &CategoryGroup> =
            groups.iter().map(|g| (g.id.as_str(), g)).collect();
        let mut by_id = HashMap::new();
        let mut order = Vec::new();
        for category in categories {
            let group = groups_by_id
                .get(category.category_group_id.as_str())
                .copied();
            let entry = Entry {
                category,
                group,
                role: role_of(category, group),
            };
            if by_id.insert(category.id.as_str(), entry).is_none() {
                order.push(category.id.as_str());
            }
        }
        CategoryIndex { by_id, order }
    }

    /// The role of a category of the plan; `None` for an id the plan does not hold.
    pub fn role(&self, id: &str) -> Option<Role> {
        self.by_id.get(id).map(|e| e.role)
    }

    /// Whether `id` is a visible category (neither hidden nor deleted), whatever its role.
    pub fn is_visible(&self, id: &str) -> bool {
        self.by_id
            .get(id)
            .is_some_and(|e| !e.category.hidden && !e.category.deleted)
    }

    /// The name of a visible category, as stored (apply the display rule before showing it).
    pub fn visible_name(&self, id: &str) -> Option<&'a str> {
        self.by_id
            .get(id)
            .filter(|e| !e.category.hidden && !e.category.deleted)
            .map(|e| e.category.name.as_str())
    }

    /// YNAB's internal `Uncategorized`.
    pub fn is_uncategorized(&self, id: &str) -> bool {
        self.role(id) == Some(Role::Uncategorized)
    }

    /// Whether a transaction in this category teaches the classifier anything: not
    /// `Uncategorized`, not a credit-card payment (D22, D34). Unknown ids are learnt and then
    /// filtered out by [`CategoryIndex::is_assignable`].
    pub fn is_learnable(&self, id: &str) -> bool {
        !matches!(
            self.role(id),
            Some(Role::Uncategorized | Role::CreditCardPayment)
        )
    }

    /// Whether a transaction can be given this category: a category of the plan, visible, in a
    /// group neither hidden nor deleted, and either ordinary or `Inflow: Ready to Assign` (D34).
    pub fn is_assignable(&self, id: &str) -> bool {
        self.by_id.get(id).is_some_and(assignable)
    }

    /// Every category a transaction can be given, in YNAB's order.
    pub fn offered(&self) -> Vec<Offered> {
        self.order
            .iter()
            .filter_map(|id| self.by_id.get(id))
            .filter(|e| assignable(e))
            .map(|e| Offered {
                category_id: e.category.id.to_string(),
                name: safe(&e.category.name),
                group: safe(&group_name(e.category, e.group)),
            })
            .collect()
    }
}

fn assignable(e: &Entry<'_>) -> bool {
    !e.category.hidden
        && !e.category.deleted
        && e.group.is_none_or(|g| !g.hidden && !g.deleted)
        && matches!(e.role, Role::Ordinary | Role::ReadyToAssign)
}

fn group_name(category: &Category, group: Option<&CategoryGroup>) -> String {
    group
        .map(|g| g.name.clone())
        .or_else(|| category.category_group_name.as_ref().map(String::from))
        .unwrap_or_default()
}

fn role_of(category: &Category, group: Option<&CategoryGroup>) -> Role {
    let group_name = group_name(category, group);
    if group_name == CREDIT_CARD_GROUP {
        return Role::CreditCardPayment;
    }
    let internal = group_name == INTERNAL_GROUP || group.is_some_and(|g| g.internal);
    if !internal {
        Role::Ordinary
    } else if category.name == "Uncategorized" {
        Role::Uncategorized
    } else if category.name.starts_with("Inflow:") {
        Role::ReadyToAssign
    } else {
        Role::Internal
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fixtures::Fixture;

    fn fixture() -> Fixture {
        let mut f = Fixture::new();
        f.group("g-int", INTERNAL_GROUP);
        f.category("c-inflow", "g-int", "Inflow: Ready to Assign");
        f.category("c-unc", "g-int", "Uncategorized");
        f.category("c-split", "g-int", "Split (Multiple Categories)");
        f.group("g-cc", CREDIT_CARD_GROUP);
        f.category("c-visa", "g-cc", "Visa");
        f.group("g-day", "Everyday");
        f.category("c-food", "g-day", "Groceries");
        f.category("c-old", "g-day", "Old").hidden = true;
        f.category("c-gone", "g-day", "Gone").deleted = true;
        f.group("g-arch", "Archive").hidden = true;
        f.category("c-arch", "g-arch", "Archived");
        f
    }

    #[test]
    fn roles() {
        let f = fixture();
        let index = CategoryIndex::new(&f.plan.category_groups, &f.plan.categories);
        assert_eq!(index.role("c-inflow"), Some(Role::ReadyToAssign));
        assert_eq!(index.role("c-unc"), Some(Role::Uncategorized));
        assert_eq!(index.role("c-split"), Some(Role::Internal));
        assert_eq!(index.role("c-visa"), Some(Role::CreditCardPayment));
        assert_eq!(index.role("c-food"), Some(Role::Ordinary));
        assert_eq!(index.role("nope"), None);
        assert!(index.is_uncategorized("c-unc"));
        assert!(index.is_learnable("c-inflow") && index.is_learnable("nope"));
        assert!(!index.is_learnable("c-unc") && !index.is_learnable("c-visa"));
    }

    #[test]
    fn what_a_transaction_can_be_given() {
        let f = fixture();
        let index = CategoryIndex::new(&f.plan.category_groups, &f.plan.categories);
        let offered: Vec<_> = index
            .offered()
            .into_iter()
            .map(|o| (o.category_id, o.group))
            .collect();
        assert_eq!(
            offered,
            [
                ("c-inflow".to_string(), INTERNAL_GROUP.to_string()),
                ("c-food".to_string(), "Everyday".to_string())
            ]
        );
        for id in [
            "c-unc", "c-split", "c-visa", "c-old", "c-gone", "c-arch", "nope",
        ] {
            assert!(!index.is_assignable(id), "{id}");
        }
        assert_eq!(index.visible_name("c-food"), Some("Groceries"));
        assert_eq!(index.visible_name("c-old"), None);
        assert_eq!(index.visible_name("c-visa"), Some("Visa"));
        assert!(index.is_visible("c-unc") && !index.is_visible("c-gone"));
    }
}
