//! Which category groups and categories a person can use: YNAB's system groups and hidden or
//! deleted entries are left out of what is offered.

use ynab::models::{Category, CategoryGroup};

/// The groups YNAB keeps for itself.
pub const SYSTEM_GROUPS: [&str; 3] = [
    "Internal Master Category",
    "Credit Card Payments",
    "Hidden Categories",
];

/// Groups a category can be created in or moved to: not hidden, not deleted, not a system group.
pub fn assignable_groups(groups: &[CategoryGroup]) -> Vec<&CategoryGroup> {
    groups
        .iter()
        .filter(|g| !g.hidden && !g.deleted && !SYSTEM_GROUPS.contains(&g.name.as_str()))
        .collect()
}

/// Visible categories by group, groups in order of first appearance, the internal group and
/// deleted categories left out.
pub fn visible_by_group<'a>(
    groups: &'a [CategoryGroup],
    categories: &'a [Category],
) -> Vec<(&'a CategoryGroup, Vec<&'a Category>)> {
    groups
        .iter()
        .filter(|g| !g.deleted && g.name != "Internal Master Category")
        .map(|g| {
            let members = categories
                .iter()
                .filter(|c| c.category_group_id == g.id && !c.hidden && !c.deleted)
                .collect::<Vec<_>>();
            (g, members)
        })
        .filter(|(_, members)| !members.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(id: &str, name: &str, hidden: bool, deleted: bool) -> CategoryGroup {
        CategoryGroup {
            id: id.into(),
            name: name.into(),
            hidden,
            internal: false,
            deleted,
        }
    }

    #[test]
    fn system_hidden_and_deleted_groups_are_not_offered() {
        let groups = vec![
            group("1", "Internal Master Category", false, false),
            group("2", "Credit Card Payments", false, false),
            group("3", "Bills", false, false),
            group("4", "Archive", true, false),
            group("5", "Old", false, true),
            group("6", "Everyday", false, false),
        ];
        let names: Vec<_> = assignable_groups(&groups)
            .iter()
            .map(|g| g.name.as_str())
            .collect();
        assert_eq!(names, ["Bills", "Everyday"]);
    }
}
