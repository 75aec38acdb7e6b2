//! What `create_category` and `update_category` both check: the plan read fresh when an answer
//! came, the group named, and a name on one line.

use crate::text::{quoted, safe};

/// The one-line rule's refusal (`docs/contract/server.md` §6.4, `docs/contract/writes.md` §11.3),
/// for a name the agent gives that a question would show.
pub fn one_line_error(name: &str) -> String {
    format!(
        "{} contains a line break, control or format character (such as a zero-width or direction mark): give the name on one line, with visible characters only.",
        quoted(&safe(name))
    )
}

/// The refusal for a group id that is not an assignable group of the plan.
pub(crate) fn unknown_group(id: &str) -> String {
    format!("Group {id} is not in this plan: use an id from list_category_groups.")
}
