//! The kinds of journaled operation, each named once below with its name in the journal and
//! the record type its details are read into. From that one list come the enum of kinds, the
//! enum of parsed details, and the matches that reach each record's [`UndoKind`]: whether undo
//! reverts the kind, the sentence of its applied undo, how its details parse and what undoing it
//! would do now. Every `match` on a kind is exhaustive, and a record without the trait does not
//! compile; adding a kind is its own files and one line here.

use super::Refusal;
use super::per_kind::{Entry, Planned, Reads, UndoKind};

/// The one list of kinds: `Variant = "journal name" => record type,` (a path from `logic::undo`).
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
    Categorize = "categorize" => super::details::Categorized,
    Budget = "budget" => super::details::Budgeted,
    Move = "move" => super::details::Moved,
    Create = "create" => super::details::Created,
    Flag = "flag" => super::details::Flagged,
    Payee = "payee" => super::details::PayeeRenamed,
    Reconcile = "reconcile" => super::details::Reconciliation,
    Category = "category" => super::details::CategoryEdit,
    Target = "target" => super::details::TargetDetails,
    Approve = "approve" => super::details::Approved,
    Delete = "delete" => super::details::Deleted,
    Update = "update" => super::update::UpdateDetails,
    Split = "split" => super::split::SplitDetails,
    CategoryCreate = "category_create" => super::irreversible::CategoryIntended,
    Import = "import" => super::irreversible::ImportDetails,
    AccountCreate = "account_create" => super::irreversible::AccountIntended,
    ScheduleUpdate = "schedule_update" => super::schedules::ScheduleEdit,
    ScheduleDelete = "schedule_delete" => super::schedules::ScheduleDeleted,
    ScheduleCreate = "schedule_create" => super::schedules::ScheduleCreated,
    SplitEdit = "split_edit" => super::split_edit::SplitEditDone,
    Merge = "merge" => super::merge::Merged,
    Link = "link" => super::link::Linked,
    BudgetPlan = "budget_plan" => super::budget_plan::PlanApplied,
    CategoryMerge = "category_merge" => super::category_merge::CategoryMergeDone,
    /// An undo's own intent (it writes no operation line of this kind).
    Undo = "undo" => super::reverting::UndoItself,
    /// The conformance suite's fixture writes, which change nothing.
    ConformanceFixture = "conformance_fixture" => super::irreversible::FixtureWrite,
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
