//! Undo, kind by kind. Each journaled kind has a record type that implements [`UndoKind`], beside
//! the rest of that kind's undo logic: how its details are read back from a journal line or an
//! intent, what undoing it would do now, and the first sentence of its applied undo. `kind.rs`
//! names every kind once, with its record type; the enum of kinds, the enum of parsed details and
//! the one `match` that reaches each kind's [`UndoKind::now`] are generated from that list, so a
//! kind is added by its own files and one line there, and a record that does not implement the
//! trait does not compile.
//!
//! What a kind compares beyond the loaded plan (a month's categories, what changed since a
//! knowledge) it asks through [`Reads`], which the undo tool implements with YNAB requests:
//! logic decides and does no I/O of its own.

use super::{Applied, CategoryMove, Landing, Recognition, Refusal, UndoPlan};
use crate::money::MoneyFormat;
use crate::months::CalendarMonth;
use chrono::NaiveDate;
use serde_json::Value;
use std::future::Future;
use ynab::models::{Category, PlanDetail, ScheduledTransaction, Transaction};

/// What an undo reads besides its details: the plan as loaded, and what a kind asks for on
/// demand (each ask is one YNAB request, made only by the kinds that need it).
pub trait Reads: Sync {
    type Error: Send;
    fn plan(&self) -> &PlanDetail;
    /// The plan's knowledge when it was read.
    fn server_knowledge(&self) -> i64;
    fn fmt(&self) -> &MoneyFormat;
    /// Whether the operation may be only partly applied (an intent, or an interrupted undo).
    fn applied(&self) -> Applied;
    fn today(&self) -> NaiveDate;
    /// The categories of one month, with their assigned amounts.
    fn month(
        &self,
        month: CalendarMonth,
    ) -> impl Future<Output = Result<Vec<Category>, Self::Error>> + Send;
    /// The transactions changed since `knowledge` (all of them for `None`), deleted ones with
    /// their fields.
    fn transactions_since(
        &self,
        knowledge: Option<i64>,
    ) -> impl Future<Output = Result<Vec<Transaction>, Self::Error>> + Send;
    /// The scheduled transactions changed since `knowledge`, deleted ones with their fields.
    fn schedules_since(
        &self,
        knowledge: i64,
    ) -> impl Future<Output = Result<Vec<ScheduledTransaction>, Self::Error>> + Send;
    /// Whether an interrupted undo of this operation already recreated what it deleted.
    fn recreated_by_interrupted_undo(
        &self,
    ) -> impl Future<Output = Result<bool, Self::Error>> + Send;
}

/// One journal line or intent, as a kind's record is read from it.
pub struct Entry<'a> {
    pub details: &'a Value,
    /// A journal line's `moves`, kept beside its details (only `categorize` has them).
    pub moves: Vec<CategoryMove>,
    /// It is an unfinished intent, not a journal line.
    pub from_intent: bool,
}

/// What undoing an operation would do now.
#[derive(Debug)]
pub enum Planned {
    /// The undo to ask about (or `nothing`, when there is nothing to revert).
    Undo(Box<UndoPlan>),
    /// An interrupted write of a kind YNAB's API cannot revert, or whose intent only tells
    /// whether it landed: that, the journal line it would have written, and why it cannot be
    /// undone (`None` when a later undo can revert it).
    Landed(Landed),
}

impl From<UndoPlan> for Planned {
    fn from(plan: UndoPlan) -> Self {
        Planned::Undo(Box::new(plan))
    }
}

/// An interrupted write read as landed or not.
#[derive(Debug)]
pub struct Landed {
    pub landing: Landing,
    /// The tool's own journal record of it, as it would have written it.
    pub line: Value,
    pub reason: Option<String>,
}

/// A journaled kind's record, as undo reads and reverts it.
pub trait UndoKind: Sized + Send {
    /// Whether undo reverts an operation of this kind (a line journaled `undoable: false` is
    /// refused with its own reason all the same).
    const REVERTED: bool;
    /// The first sentence of an applied undo (`docs/contract/writes.md` §10.2).
    const UNDONE: &'static str;
    /// The record, read from a line or an intent; a missing or mistyped detail is a
    /// [`Refusal`], never a default.
    fn parse(entry: Entry<'_>) -> Result<Self, Refusal>;
    /// What undoing it would do now.
    fn now<R: Reads>(self, reads: &R) -> impl Future<Output = Result<Planned, R::Error>> + Send;
}

/// The transactions an interrupted write created, recognised by their salted digests among the
/// account's transactions changed since the intent's knowledge (D31): one request, none without
/// digests.
pub async fn recognise<R: Reads>(
    reads: &R,
    recognition: &Recognition,
) -> Result<Vec<String>, R::Error> {
    if recognition.item_digests.is_empty() {
        return Ok(Vec::new());
    }
    let changed = reads
        .transactions_since(recognition.server_knowledge)
        .await?;
    Ok(crate::logic::created::recognise(
        &recognition.item_digests,
        recognition.digest_salt.as_deref(),
        &recognition.account_id,
        &changed,
    ))
}
