//! What an undo's own intent records before it sends anything (D31: ids and amounts, digests for
//! the rest): the operation it undoes and, per kind of [`Revert`], what it is about to write —
//! enough for a recovery to tell what landed. Each shape is a record of its own; a recovery reads
//! back the one it needs ([`Recreating`]) with the type that wrote it.

use super::details::{
    AssignedChange, Categorized, CategoryEdit, CategoryMove, FlagChange, Flagged,
};
use super::fields::FieldRecord;
use super::per_kind::{Entry, Planned, Reads, UndoKind};
use super::schedules::ScheduleRevert;
use super::{Kind, Refusal};
use super::{Revert, UpdateBack, recreation_digest};
use crate::logic::assigned_side::AssignedSide;
use crate::logic::updates::Field;
use crate::months::CalendarMonth;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use ynab::models::Milliunits;

/// An undo's own operation: it writes no line of its kind, and an undo is not undone (its
/// intent is finished by naming the operation it reverts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UndoItself {}

impl UndoKind for UndoItself {
    const REVERTED: bool = false;
    const UNDONE: &'static str = "Nothing was reverted.";

    fn parse(_: Entry<'_>) -> Result<Self, Refusal> {
        Err(Refusal::Kind(Kind::Undo.name().to_string()))
    }

    async fn now<R: Reads>(self, _: &R) -> Result<Planned, R::Error> {
        match self {}
    }
}

/// An undo's intent.
#[derive(Debug, Clone, Serialize)]
pub struct UndoIntent {
    /// The operation undone.
    pub undo: String,
    pub reverting: Reverting,
}

/// What an undo is about to write, one shape per kind of revert (written as the shape alone).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Reverting {
    Moves(Categorized),
    Assigned(AssignedIn),
    Amounts(AmountsIn),
    Approve {
        transaction_ids: Vec<String>,
    },
    /// Created transactions deleted.
    Delete {
        delete: Vec<String>,
    },
    Flags(Flagged),
    Fields {
        changes: Vec<FieldsBack>,
    },
    Payee {
        payee_id: String,
    },
    Reconcile {
        cleared_ids: Vec<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        uncleared_ids: Vec<String>,
        adjustment_id: Option<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        imported_ids: Vec<String>,
    },
    Target(TargetFields),
    Category(CategoryEdit),
    Recreate(Recreating),
    Schedule(ScheduleReverting),
    /// A split's old transaction recreated (its old id), the new one deleted.
    SplitEdit {
        recreate: Option<String>,
        delete: Option<String>,
    },
    Merge {
        transactions: Vec<PayeeBack>,
        scheduled: Vec<PayeeBack>,
    },
    /// Ids only: the deleted side's fields stay in YNAB's record.
    Link {
        kept_id: Option<String>,
        recreate: bool,
    },
    CategoryMerge(CategoryMergeReverting),
}

/// One category's amount in one month set back (`budget`).
#[derive(Debug, Clone, Serialize)]
pub struct AssignedIn {
    pub month: CalendarMonth,
    pub category_id: String,
    pub from: Milliunits,
    pub to: Milliunits,
}

/// Several amounts of one month set back, in order (`move`, `budget_plan`), and the targets a
/// budget plan restores (left out when none).
#[derive(Debug, Clone, Serialize)]
pub struct AmountsIn {
    pub month: CalendarMonth,
    pub changes: Vec<AssignedChange>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<TargetFields>,
}

/// A category's target saved with the fields that restore it.
#[derive(Debug, Clone, Serialize)]
pub struct TargetFields {
    pub category_id: String,
    pub fields: Value,
}

/// One transaction's fields put back (`update`), each with the value it overwrites.
#[derive(Debug, Clone, Serialize)]
pub struct FieldsBack {
    pub transaction_id: String,
    pub fields: BTreeMap<Field, FieldRecord>,
}

/// Deleted transactions recreated: the old ids, and a salted digest of each recreation, so a
/// recovery recognises what the one POST made (a tombstone stays deleted after a recreation).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recreating {
    pub recreate: Vec<String>,
    pub item_digests: Vec<String>,
    pub digest_salt: String,
    pub server_knowledge: i64,
}

/// A schedule put back, deleted or recreated (a recreation by the salted digest of what it sends).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum ScheduleReverting {
    Put {
        scheduled_transaction_id: String,
    },
    Delete {
        delete: String,
    },
    Recreate {
        recreate: String,
        item_digest: String,
        digest_salt: String,
        server_knowledge: i64,
    },
}

/// An item moved back to the payee it had (`null`: none).
#[derive(Debug, Clone, Serialize)]
pub struct PayeeBack {
    pub id: String,
    pub to: Option<String>,
}

/// What a category merge's undo moves back: each month's amounts, the transactions, the splits
/// recreated and the schedules.
#[derive(Debug, Clone, Serialize)]
pub struct CategoryMergeReverting {
    pub months: Vec<AmountsIn>,
    pub transactions: Vec<String>,
    pub splits: Vec<SplitReverting>,
    pub scheduled: Vec<String>,
}

/// One split of a category merge put back.
#[derive(Debug, Clone, Serialize)]
pub struct SplitReverting {
    pub recreate: Option<String>,
    pub delete: Option<String>,
}

fn changes(sides: &[AssignedSide]) -> Vec<AssignedChange> {
    sides
        .iter()
        .map(|s| AssignedChange {
            category_id: s.category_id.clone(),
            from: s.from,
            to: s.to,
        })
        .collect()
}

fn amounts(month: CalendarMonth, sides: &[AssignedSide]) -> AmountsIn {
    AmountsIn {
        month,
        changes: changes(sides),
        targets: Vec::new(),
    }
}

impl Revert {
    /// What this revert's intent records; `salt` salts the digests of what it recreates. One arm
    /// per kind of revert, each a record of its own.
    pub fn reverting(&self, salt: &str) -> Reverting {
        match self {
            Revert::Categorize { changes } => Reverting::Moves(Categorized {
                moves: changes.iter().map(CategoryMove::from).collect(),
            }),
            Revert::Budget { month, side } => Reverting::Assigned(AssignedIn {
                month: *month,
                category_id: side.category_id.clone(),
                from: side.from,
                to: side.to,
            }),
            Revert::Move {
                month,
                source,
                target,
            } => Reverting::Amounts(amounts(*month, &[target.clone(), source.clone()])),
            Revert::Approve { transaction_ids } => Reverting::Approve {
                transaction_ids: transaction_ids.clone(),
            },
            Revert::Create { ids } => Reverting::Delete {
                delete: ids.clone(),
            },
            Revert::Flags { back } => Reverting::Flags(flags(back)),
            Revert::Update { back } => Reverting::Fields {
                changes: back.iter().map(fields_back).collect(),
            },
            Revert::Payee { payee_id, .. } => Reverting::Payee {
                payee_id: payee_id.clone(),
            },
            Revert::Reconcile {
                to_clear,
                to_unclear,
                adjustment,
                imported,
            } => Reverting::Reconcile {
                cleared_ids: to_clear.clone(),
                uncleared_ids: to_unclear.clone(),
                adjustment_id: adjustment.clone(),
                imported_ids: imported.clone(),
            },
            Revert::Target {
                category_id,
                fields,
            } => Reverting::Target(TargetFields {
                category_id: category_id.clone(),
                fields: fields.clone(),
            }),
            Revert::Category {
                category_id,
                name_now,
                group_now,
                name_back,
                group_back,
            } => Reverting::Category(CategoryEdit {
                category_id: category_id.clone(),
                name_before: name_now.clone(),
                group_before: group_now.clone(),
                name_after: name_back.clone(),
                group_after: group_back.clone(),
            }),
            Revert::Recreate {
                items,
                ids,
                knowledge,
            } => Reverting::Recreate(Recreating {
                recreate: ids.clone(),
                item_digests: items.iter().map(|t| recreation_digest(salt, t)).collect(),
                digest_salt: salt.to_string(),
                server_knowledge: *knowledge,
            }),
            Revert::Schedule(r) => Reverting::Schedule(schedule(r, salt)),
            Revert::SplitEdit {
                recreate,
                delete,
                old_id,
            } => Reverting::SplitEdit {
                recreate: recreate.as_ref().map(|_| old_id.clone()),
                delete: delete.clone(),
            },
            Revert::Merge {
                transactions,
                scheduled,
                ..
            } => merge(transactions, scheduled),
            Revert::Link { patch, recreate } => Reverting::Link {
                kept_id: patch.as_ref().map(|(id, ..)| id.clone()),
                recreate: recreate.is_some(),
            },
            Revert::BudgetPlan {
                month,
                sides,
                targets,
            } => Reverting::Amounts(budget_plan(*month, sides, targets)),
            Revert::CategoryMerge { back, .. } => Reverting::CategoryMerge(category_merge(back)),
        }
    }
}

fn flags(back: &[(String, Option<String>, Option<String>)]) -> Flagged {
    Flagged {
        changes: back
            .iter()
            .map(|(id, now, to)| FlagChange {
                transaction_id: id.clone(),
                from: now.clone(),
                to: to.clone(),
            })
            .collect(),
    }
}

fn merge(
    transactions: &[(String, String)],
    scheduled: &[(String, ynab::writes::ScheduleSave)],
) -> Reverting {
    let back = |id: &String, to: Option<String>| PayeeBack { id: id.clone(), to };
    Reverting::Merge {
        transactions: transactions
            .iter()
            .map(|(id, to)| back(id, Some(to.clone())))
            .collect(),
        scheduled: scheduled
            .iter()
            .map(|(id, save)| back(id, save.payee_id.clone()))
            .collect(),
    }
}

fn budget_plan(
    month: CalendarMonth,
    sides: &[AssignedSide],
    targets: &[super::budget_plan::TargetBack],
) -> AmountsIn {
    AmountsIn {
        targets: targets
            .iter()
            .map(|t| TargetFields {
                category_id: t.category_id.clone(),
                fields: t.fields.clone(),
            })
            .collect(),
        ..amounts(month, sides)
    }
}

fn fields_back(back: &UpdateBack) -> FieldsBack {
    FieldsBack {
        transaction_id: back.transaction_id.clone(),
        fields: back
            .fields
            .iter()
            .map(|(field, now, to)| (*field, FieldRecord::clear(now, to)))
            .collect(),
    }
}

fn schedule(revert: &ScheduleRevert, salt: &str) -> ScheduleReverting {
    match revert {
        ScheduleRevert::Put { id, .. } => ScheduleReverting::Put {
            scheduled_transaction_id: id.clone(),
        },
        ScheduleRevert::Delete { id } => ScheduleReverting::Delete { delete: id.clone() },
        ScheduleRevert::Recreate {
            old_id,
            save,
            knowledge,
        } => ScheduleReverting::Recreate {
            recreate: old_id.clone(),
            item_digest: crate::logic::schedules::save_digest(salt, save),
            digest_salt: salt.to_string(),
            server_knowledge: *knowledge,
        },
    }
}

fn category_merge(back: &super::category_merge::CategoryMergeBack) -> CategoryMergeReverting {
    CategoryMergeReverting {
        months: back
            .months
            .iter()
            .map(|(month, sides)| amounts(*month, sides))
            .collect(),
        transactions: back
            .transactions
            .iter()
            .map(|c| c.transaction_id.clone())
            .collect(),
        splits: back
            .splits
            .iter()
            .map(|(recreate, delete, old_id)| SplitReverting {
                recreate: recreate.as_ref().map(|_| old_id.clone()),
                delete: delete.clone(),
            })
            .collect(),
        scheduled: back.scheduled.iter().map(|(id, _)| id.clone()).collect(),
    }
}
