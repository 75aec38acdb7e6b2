//! The kinds of journaled operation: one enum, so that a kind's name, whether this build reverts
//! it, and what its undo says once applied live in one place, and a kind added without its arm is
//! a compile error wherever kinds are matched.

/// A kind of journaled operation, as its journal line and intent name it (`kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Categorize,
    Budget,
    Move,
    Create,
    Flag,
    Payee,
    Reconcile,
    Category,
    Target,
    Approve,
    Delete,
    Update,
    Split,
    CategoryCreate,
    Import,
    AccountCreate,
    ScheduleUpdate,
    ScheduleDelete,
    ScheduleCreate,
    SplitEdit,
    Merge,
    Link,
    BudgetPlan,
    CategoryMerge,
    /// An undo's own intent (it writes no operation line of this kind).
    Undo,
    /// The conformance suite's fixture writes, which change nothing.
    ConformanceFixture,
}

impl Kind {
    pub const ALL: [Kind; 26] = [
        Kind::Categorize,
        Kind::Budget,
        Kind::Move,
        Kind::Create,
        Kind::Flag,
        Kind::Payee,
        Kind::Reconcile,
        Kind::Category,
        Kind::Target,
        Kind::Approve,
        Kind::Delete,
        Kind::Update,
        Kind::Split,
        Kind::CategoryCreate,
        Kind::Import,
        Kind::AccountCreate,
        Kind::ScheduleUpdate,
        Kind::ScheduleDelete,
        Kind::ScheduleCreate,
        Kind::SplitEdit,
        Kind::Merge,
        Kind::Link,
        Kind::BudgetPlan,
        Kind::CategoryMerge,
        Kind::Undo,
        Kind::ConformanceFixture,
    ];

    /// The name the journal writes (the Python reference's names for the kinds it has).
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Categorize => "categorize",
            Kind::Budget => "budget",
            Kind::Move => "move",
            Kind::Create => "create",
            Kind::Flag => "flag",
            Kind::Payee => "payee",
            Kind::Reconcile => "reconcile",
            Kind::Category => "category",
            Kind::Target => "target",
            Kind::Approve => "approve",
            Kind::Delete => "delete",
            Kind::Update => "update",
            Kind::Split => "split",
            Kind::CategoryCreate => "category_create",
            Kind::Import => "import",
            Kind::AccountCreate => "account_create",
            Kind::ScheduleUpdate => "schedule_update",
            Kind::ScheduleDelete => "schedule_delete",
            Kind::ScheduleCreate => "schedule_create",
            Kind::SplitEdit => "split_edit",
            Kind::Merge => "merge",
            Kind::Link => "link",
            Kind::BudgetPlan => "budget_plan",
            Kind::CategoryMerge => "category_merge",
            Kind::Undo => "undo",
            Kind::ConformanceFixture => "conformance_fixture",
        }
    }

    /// The kind a journal names `name`; `None` for a name this build does not know.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// Whether undo reverts an operation of this kind (one journaled `undoable: false` is named
    /// with its own reason all the same).
    pub const fn reverted(self) -> bool {
        match self {
            Kind::Categorize
            | Kind::Budget
            | Kind::Move
            | Kind::Create
            | Kind::Flag
            | Kind::Payee
            | Kind::Reconcile
            | Kind::Category
            | Kind::Target
            | Kind::Approve
            | Kind::Delete
            | Kind::Update
            | Kind::ScheduleUpdate
            | Kind::ScheduleDelete
            | Kind::ScheduleCreate
            | Kind::SplitEdit
            | Kind::Merge
            | Kind::Link
            | Kind::BudgetPlan
            | Kind::CategoryMerge
            | Kind::Split
            | Kind::Import => true,
            Kind::CategoryCreate | Kind::AccountCreate | Kind::Undo | Kind::ConformanceFixture => {
                false
            }
        }
    }

    /// The first sentence of an applied undo of this kind (`docs/contract/writes.md` §10.2).
    pub const fn undone(self) -> &'static str {
        match self {
            Kind::Categorize => "Previous categories restored.",
            Kind::Budget => "Budgeted amount restored.",
            Kind::Move => "Both amounts restored.",
            Kind::Create => "Created transactions deleted.",
            Kind::Flag => "Flags restored.",
            Kind::Update => "Previous values restored.",
            Kind::Payee => "The payee's previous name is back.",
            Kind::Reconcile => "Reconciliation undone.",
            Kind::Target => "Target restored.",
            Kind::Category => "Previous name and group restored.",
            Kind::Approve => "Approval undone.",
            Kind::Delete => {
                "Deleted transactions recreated, with new ids and without their bank-import link."
            }
            Kind::ScheduleUpdate => "The schedule's previous values are back.",
            Kind::ScheduleCreate => "The created schedule is deleted.",
            Kind::ScheduleDelete => "The deleted schedule is recreated, with a new id.",
            Kind::SplitEdit => {
                "The old lines are back, on the transaction created again (a new id, no bank-import link)."
            }
            Kind::Merge => {
                "Transactions and schedules moved back to their former payees. The payee they were merged into stays in YNAB (its API cannot delete a payee)."
            }
            Kind::Link => {
                "The transfer is two separate transactions again; the deleted one came back with a new id and without its bank-import link."
            }
            Kind::BudgetPlan => "Assigned amounts restored.",
            Kind::CategoryMerge => {
                "Assigned amounts, transactions, splits and schedules moved back to the category they were merged from; the splits were created again with their old lines (new ids, no bank-import link)."
            }
            Kind::Split => {
                "The transaction is back on one line, in its category before: created again (a new id, no bank-import link), the split one deleted."
            }
            Kind::Import => "Imported transactions deleted.",
            Kind::CategoryCreate | Kind::AccountCreate | Kind::Undo | Kind::ConformanceFixture => {
                "Nothing was reverted."
            }
        }
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
            assert_eq!(Kind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(Kind::from_name("teleport"), None);
    }
}
