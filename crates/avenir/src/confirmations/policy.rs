//! Who may confirm a write (`AVENIR_MCP_CONFIRM`, D41). A confirmation code proves that a
//! preview was produced, not that the person read it: an agent can pass it back by itself. The
//! person's own answer — in the client's form, or at the terminal's question — cannot come from
//! the agent. The policy says, per risk, whether a code is enough; by default it is for a small
//! change that undo fully restores, and not for a delete, a merge, many items at once, or a
//! change undo cannot fully restore.

use crate::logic::undo::Kind;

/// How many items one write may change before it counts as a bulk change.
pub const BULK_ITEMS: usize = 10;

/// What may confirm a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ConfirmPolicy {
    /// `answer`: only the person's own answer, for every write; no code is issued or accepted
    /// (what `AVENIR_MCP_REQUIRE_ELICITATION=1` also selects).
    Answer,
    /// `by-risk`, the default: a code confirms a low-risk write; any other needs the person's
    /// own answer.
    #[default]
    ByRisk,
    /// `codes`: a code confirms any write. The person trusts their agent to pass a code back only
    /// after they said yes to its preview.
    Codes,
}

/// What a write puts at stake, as far as its confirmation is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Risk {
    /// One or a few items, fully restored by undo.
    Low,
    /// Transactions or a schedule deleted.
    Delete,
    /// Payees or categories merged into one.
    Merge,
    /// More than [`BULK_ITEMS`] items in one write.
    Bulk(usize),
    /// Undo cannot bring back exactly what was there (new ids, no bank-import link, or no way
    /// back at all).
    NotFullyUndone,
}

impl Risk {
    /// The risk of a write of `kind` changing `items` items.
    pub fn of(kind: Kind, items: usize) -> Risk {
        match kind {
            Kind::Delete | Kind::ScheduleDelete => Risk::Delete,
            Kind::Merge | Kind::CategoryMerge => Risk::Merge,
            Kind::Split
            | Kind::SplitEdit
            | Kind::Link
            | Kind::CategoryCreate
            | Kind::AccountCreate => Risk::NotFullyUndone,
            _ if items > BULK_ITEMS => Risk::Bulk(items),
            _ => Risk::Low,
        }
    }

    /// The change, as the refusal names it ("a delete").
    pub fn name(self) -> String {
        match self {
            Risk::Low => "this change".to_string(),
            Risk::Delete => "a delete".to_string(),
            Risk::Merge => "a merge".to_string(),
            Risk::Bulk(n) => format!("a change of {n} items at once"),
            Risk::NotFullyUndone => "a change undo cannot fully restore".to_string(),
        }
    }
}

impl ConfirmPolicy {
    /// Whether a confirmation code may confirm a write at this risk.
    pub fn codes_allowed(self, risk: Risk) -> bool {
        match self {
            ConfirmPolicy::Answer => false,
            ConfirmPolicy::ByRisk => risk == Risk::Low,
            ConfirmPolicy::Codes => true,
        }
    }

    /// The policy from `AVENIR_MCP_CONFIRM` (unset or empty: the default) and
    /// `AVENIR_MCP_REQUIRE_ELICITATION=1` (which means `answer`, and contradicts `codes` or
    /// `by-risk` named together with it).
    pub fn from_env(confirm: Option<&str>, require_elicitation: bool) -> Result<Self, PolicyError> {
        let named = match confirm.map(str::trim) {
            None | Some("") => None,
            Some("answer") => Some(ConfirmPolicy::Answer),
            Some("by-risk") => Some(ConfirmPolicy::ByRisk),
            Some("codes") => Some(ConfirmPolicy::Codes),
            Some(other) => return Err(PolicyError::Unknown(other.to_string())),
        };
        match (named, require_elicitation) {
            (Some(ConfirmPolicy::Answer) | None, true) => Ok(ConfirmPolicy::Answer),
            (Some(_), true) => Err(PolicyError::Contradicts),
            (named, false) => Ok(named.unwrap_or_default()),
        }
    }
}

/// An `AVENIR_MCP_CONFIRM` the server cannot start with.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    #[error(
        "AVENIR_MCP_CONFIRM must be answer, by-risk or codes, got {}.",
        crate::text::quoted(.0)
    )]
    Unknown(String),
    #[error(
        "AVENIR_MCP_REQUIRE_ELICITATION=1 allows only the user's own answer, which contradicts AVENIR_MCP_CONFIRM: unset one of them, or set AVENIR_MCP_CONFIRM=answer."
    )]
    Contradicts,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_default_a_code_confirms_only_a_low_risk_write() {
        let policy = ConfirmPolicy::from_env(None, false);
        assert_eq!(policy, Ok(ConfirmPolicy::ByRisk));
        let by_risk = ConfirmPolicy::ByRisk;
        assert!(by_risk.codes_allowed(Risk::of(Kind::Move, 1)));
        assert!(by_risk.codes_allowed(Risk::of(Kind::Categorize, BULK_ITEMS)));
        for risky in [
            Risk::of(Kind::Delete, 1),
            Risk::of(Kind::Merge, 2),
            Risk::of(Kind::CategoryMerge, 1),
            Risk::of(Kind::Categorize, BULK_ITEMS + 1),
            Risk::of(Kind::Split, 1),
            Risk::of(Kind::AccountCreate, 1),
        ] {
            assert!(!by_risk.codes_allowed(risky), "{risky:?}");
            assert!(ConfirmPolicy::Codes.codes_allowed(risky));
        }
        assert!(!ConfirmPolicy::Answer.codes_allowed(Risk::Low));
    }

    #[test]
    fn the_variables_are_read_strictly() {
        let read = ConfirmPolicy::from_env;
        assert_eq!(read(Some("codes"), false), Ok(ConfirmPolicy::Codes));
        assert_eq!(read(Some(" answer "), false), Ok(ConfirmPolicy::Answer));
        assert_eq!(read(None, true), Ok(ConfirmPolicy::Answer));
        assert_eq!(read(Some("answer"), true), Ok(ConfirmPolicy::Answer));
        assert_eq!(read(Some("codes"), true), Err(PolicyError::Contradicts));
        assert_eq!(
            read(Some("yes"), false),
            Err(PolicyError::Unknown("yes".into()))
        );
    }
}
