//! The kinds of journaled operation, each named once below with its name in the journal and
//! the record type its details are read into. From that one list come the enum of kinds, the
//! enum of parsed details, and the matches that reach each record's [`UndoKind`]: whether undo
//! reverts the kind, the sentence of its applied undo, how its details parse and what undoing it
//! would do now. Every `match` on a kind is exhaustive, and a record without the trait does not
//! compile; adding a kind is its own files and one line here.

use super::per_kind::{Entry, Planned, Reads, UndoKind};
use super::{Refusal, schedules, split, split_edit, update};
use super::{budget_plan, category_merge, details, irreversible, link, merge, reverting};

/// The one list of kinds: `Variant = "journal name" => record type,`.
macro_rules! kinds {
    ($($(#[$doc:meta])* $kind:ident = $name:literal => $record:ty,)*) => {
        /// A kind of journaled operation, as its journal line and intent name it (`kind`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Kind {
            $($(#[$doc])* $kind,)*
        }

        /// An operation's details, read into its kind's record.
        #[derive(Debug, Clone, PartialEq)]
        pub enum Details {
            $($kind($record),)*
        }

        impl Kind {
            pub const ALL: &[Kind] = &[$(Kind::$kind,)*];

            /// The name the journal writes (the Python reference's names for the kinds it has).
            pub const fn name(self) -> &'static str {
                match self {
                    $(Kind::$kind => $name,)*
                }
            }

            /// Whether undo reverts an operation of this kind (one journaled `undoable: false`
            /// is named with its own reason all the same).
            pub const fn reverted(self) -> bool {
                match self {
                    $(Kind::$kind => <$record as UndoKind>::REVERTED,)*
                }
            }

            /// The first sentence of an applied undo of this kind (`docs/contract/writes.md`
            /// §10.2).
            pub const fn undone(self) -> &'static str {
                match self {
                    $(Kind::$kind => <$record as UndoKind>::UNDONE,)*
                }
            }

            /// The details of an operation of this kind, read into its record.
            pub fn parse(self, entry: Entry<'_>) -> Result<Details, Refusal> {
                match self {
                    $(Kind::$kind => <$record as UndoKind>::parse(entry).map(Details::$kind),)*
                }
            }
        }

        impl Details {
            /// What undoing the operation would do now.
            pub async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
                match self {
                    $(Details::$kind(record) => record.now(reads).await,)*
                }
            }
        }
    };
}

kinds! {
    Categorize = "categorize" => details::Categorized,
    Budget = "budget" => details::Budgeted,
    Move = "move" => details::Moved,
    Create = "create" => details::Created,
    Flag = "flag" => details::Flagged,
    Payee = "payee" => details::PayeeRenamed,
    Reconcile = "reconcile" => details::Reconciliation,
    Category = "category" => details::CategoryEdit,
    Target = "target" => details::TargetDetails,
    Approve = "approve" => details::Approved,
    Delete = "delete" => details::Deleted,
    Update = "update" => update::UpdateDetails,
    Split = "split" => split::SplitDetails,
    CategoryCreate = "category_create" => irreversible::CategoryIntended,
    Import = "import" => irreversible::ImportDetails,
    AccountCreate = "account_create" => irreversible::AccountIntended,
    ScheduleUpdate = "schedule_update" => schedules::ScheduleEdit,
    ScheduleDelete = "schedule_delete" => schedules::ScheduleDeleted,
    ScheduleCreate = "schedule_create" => schedules::ScheduleCreated,
    SplitEdit = "split_edit" => split_edit::SplitEditDone,
    Merge = "merge" => merge::Merged,
    Link = "link" => link::Linked,
    BudgetPlan = "budget_plan" => budget_plan::PlanApplied,
    CategoryMerge = "category_merge" => category_merge::CategoryMergeDone,
    /// An undo's own intent (it writes no operation line of this kind).
    Undo = "undo" => reverting::UndoItself,
    /// The conformance suite's fixture writes, which change nothing.
    ConformanceFixture = "conformance_fixture" => irreversible::FixtureWrite,
}

impl Kind {
    /// The kind a journal names `name`; `None` for a name this build does not know.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.iter().copied().find(|kind| kind.name() == name)
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::Kind;

    #[test]
    fn every_name_reads_back_as_its_kind() {
        for kind in Kind::ALL {
            assert_eq!(Kind::from_name(kind.name()), Some(*kind));
        }
        assert_eq!(Kind::from_name("teleport"), None);
    }
}
