//! The rules behind creating, renaming and moving a category (`docs/contract/writes.md` §9.1,
//! §9.10, §10.2): names the person will read on one line, no twin name in a group, what an edit
//! changes, and whether a category still looks as an edit left it.

use crate::text::class::{is_control, is_format, is_line_or_paragraph_separator};
use crate::text::fold;
use ynab::models::Category;

/// The one-line rule of `docs/contract/server.md` §6.4: a name holding a control (Cc), format (Cf),
/// line or paragraph separator (Zl, Zp) character could add a line to a question, or hide what it
/// says.
pub fn breaks_one_line(name: &str) -> bool {
    name.chars()
        .any(|c| is_control(c) || is_format(c) || is_line_or_paragraph_separator(c))
}

/// A non-hidden, non-deleted category of `group_id` whose name equals `name` once both are
/// case-folded (§9.1's duplicate check).
pub fn namesake<'a>(
    categories: &'a [Category],
    group_id: &str,
    name: &str,
) -> Option<&'a Category> {
    let wanted = fold(name);
    categories.iter().find(|c| {
        c.category_group_id == group_id && !c.hidden && !c.deleted && fold(c.name.trim()) == wanted
    })
}

/// What an edit of one category asks for, against what it is now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategoryEdit {
    pub name_before: String,
    pub group_before: String,
    pub name_after: String,
    pub group_after: String,
}

impl CategoryEdit {
    /// The edit of `current` to `name` (already trimmed) and `group`; `None` keeps what it is.
    pub fn of(current: &Category, name: Option<&str>, group: Option<&str>) -> Self {
        CategoryEdit {
            name_before: current.name.to_string(),
            group_before: current.category_group_id.to_string(),
            name_after: name.unwrap_or(&current.name).to_string(),
            group_after: group.unwrap_or(&current.category_group_id).to_string(),
        }
    }

    /// The name changes (compared exactly: a change of case is a change).
    pub fn renames(&self) -> bool {
        self.name_after != self.name_before
    }

    /// The category moves to another group.
    pub fn moves(&self) -> bool {
        self.group_after != self.group_before
    }

    /// Neither name nor group changes.
    pub fn is_empty(&self) -> bool {
        !self.renames() && !self.moves()
    }
}

/// The undo of an edit finds the category changed since: gone, or its name or group is no longer
/// what the edit set (§10.2, D25).
pub fn changed_since(current: Option<&Category>, name_after: &str, group_after: &str) -> bool {
    current.is_none_or(|c| c.deleted || c.name != name_after || c.category_group_id != group_after)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn category(id: &str, group: &str, name: &str) -> Category {
        Category {
            id: id.into(),
            category_group_id: group.into(),
            name: name.into(),
            ..Category::default()
        }
    }

    #[test]
    fn one_line_refuses_breaks_controls_and_marks() {
        assert!(!breaks_one_line("Pets & vet"));
        assert!(!breaks_one_line("Épargne  2026"));
        for bad in [
            "a\nb",
            "a\tb",
            "a\u{202e}b",
            "a\u{200b}b",
            "a\u{2028}b",
            "a\u{0}b",
        ] {
            assert!(breaks_one_line(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_namesake_is_case_folded_and_visible_in_the_group() {
        let mut hidden = category("3", "g1", "Pets");
        hidden.hidden = true;
        let mut deleted = category("4", "g1", "Pets");
        deleted.deleted = true;
        let list = vec![
            category("1", "g1", "STRASSE"),
            category("2", "g2", "Pets"),
            hidden,
            deleted,
        ];
        assert_eq!(
            namesake(&list, "g1", "Straße").map(|c| c.id.as_str()),
            Some("1")
        );
        assert!(namesake(&list, "g1", "pets").is_none());
        assert!(namesake(&list, "g2", "PETS").is_some());
    }

    #[test]
    fn an_edit_knows_what_it_changes() {
        let tennis = category("t", "fun", "Tennis");
        let same = CategoryEdit::of(&tennis, Some("Tennis"), Some("fun"));
        assert!(same.is_empty());
        let case = CategoryEdit::of(&tennis, Some("tennis"), None);
        assert!(case.renames() && !case.moves());
        let moved = CategoryEdit::of(&tennis, None, Some("everyday"));
        assert_eq!(moved.name_after, "Tennis");
        assert!(moved.moves() && !moved.renames());
    }

    #[test]
    fn changed_since_compares_name_and_group() {
        let sport = category("t", "fun", "Sport");
        assert!(!changed_since(Some(&sport), "Sport", "fun"));
        assert!(changed_since(Some(&sport), "Tennis", "fun"));
        assert!(changed_since(Some(&sport), "Sport", "everyday"));
        assert!(changed_since(None, "Sport", "fun"));
        let mut gone = sport.clone();
        gone.deleted = true;
        assert!(changed_since(Some(&gone), "Sport", "fun"));
    }
}
