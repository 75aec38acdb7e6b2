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

    #[test]
    fn the_reference_s_33_tools_19_read_14_write() {
        assert_eq!(READ_TOOLS.len(), 19);
        // The reference's 14 writes, and those issue 11 adds.
        let issue_11 = ["update_transactions"];
        assert_eq!(WRITE_TOOLS.len(), 14 + issue_11.len());
        assert!(issue_11.iter().all(|t| WRITE_TOOLS.contains(t)));
        assert!(READ_TOOLS.contains(&"list_plans"));
        assert!(WRITE_TOOLS.contains(&"undo_operation"));
    }
}
