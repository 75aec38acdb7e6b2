//! The names of this build's tools, read from the one registry: the read tools (listed whatever
//! the write gate says) and the write tools (listed only with `AVENIR_MCP_WRITE=1`). Tests and
//! texts check against them that nothing names a tool the build does not list.

use std::sync::LazyLock;

/// The write tools of this build, in registry order.
pub static WRITE_TOOLS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    super::registry()
        .into_iter()
        .filter(|t| !t.read_only)
        .map(|t| t.name)
        .collect()
});

/// The read tools of this build, in registry order.
pub static READ_TOOLS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    super::registry()
        .into_iter()
        .filter(|t| t.read_only)
        .map(|t| t.name)
        .collect()
});

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference's 14 write tools are all here; issue 11 adds more, and issue 25 a read.
    #[test]
    fn the_reference_s_33_tools_19_read_14_write() {
        assert_eq!(READ_TOOLS.len(), 20);
        for name in [
            "apply_categories",
            "split_transaction",
            "set_category_budget",
            "move_money",
            "set_category_target",
            "create_category",
            "update_category",
            "create_transactions",
            "import_transactions",
            "reconcile_account",
            "flag_transactions",
            "rename_payee",
            "approve_transactions",
            "undo_operation",
            // issue 11
            "delete_transactions",
            "update_transactions",
            "update_scheduled_transaction",
            "delete_scheduled_transaction",
            "create_scheduled_transaction",
            "edit_split",
            "merge_payees",
            "link_transfer",
            "apply_budget_plan",
            "create_account",
            "merge_categories",
        ] {
            assert!(WRITE_TOOLS.contains(&name), "{name}");
        }
        assert_eq!(
            WRITE_TOOLS.len(),
            26,
            "the reference's 14, issue 11's 11 and issue 25's import_statement"
        );
        assert!(READ_TOOLS.contains(&"list_plans"));
        assert!(WRITE_TOOLS.contains(&"delete_transactions"), "issue 11");
    }
}
