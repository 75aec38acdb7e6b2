//! What undoing each kind of operation would do now (`docs/contract/writes.md` §10.2): the I/O
//! around `logic::undo`, which parses the details and decides. This file reads what each kind
//! compares (the plan, a month's categories, items recognised by digest) and shapes the plan it
//! returns.
//!
//! An operation a crash interrupted (D14) — an unfinished intent, or one whose undo was
//! interrupted — is read as partly applied; when nothing of it is left to revert, its intents
//! are settled here, and the kinds YNAB's API cannot revert are journaled as they landed.

use super::assigned_amounts::month_categories;
use super::undo_operation::{UndoChange, undo_result};
use crate::confirm::Prepared;
use crate::confirm::Proposal;
use crate::confirm::WriteStatus;
use crate::context::Context;
use crate::digest::order_free;
use crate::logic::undo::Kind;
use crate::logic::undo::record::{from_details, to_details};
use crate::logic::undo::reverting::Recreating;
use crate::logic::undo::{
    self, Applied, CategoryMove, Created, Details, Irreversible, Landing, Recognition, Refusal,
    UndoPlan,
};
use crate::money::MoneyFormat;
use crate::store::journal::{JournalError, Operation, applied_at_now};
use crate::tool_error::ToolError;
use serde_json::json;
use std::sync::Arc;

/// How the operation to undo is read (D14).
#[derive(Debug, Clone, Default)]
pub(crate) struct Recovery {
    /// It is an unfinished intent, not a journal line.
    pub from_intent: bool,
    /// The unfinished intents of undos of it that were interrupted: this undo finishes them.
    pub interrupted: Vec<String>,
}

impl Recovery {
    /// Partly applied: an intent, or an operation an interrupted undo may have put back.
    fn applied(&self) -> Applied {
        if self.from_intent || !self.interrupted.is_empty() {
            Applied::Partly
        } else {
            Applied::Fully
        }
    }

    /// The intents settled once the undo is done: the operation's own, and the interrupted undos.
    fn intents(&self, operation_id: &str) -> Vec<String> {
        let own = self.from_intent.then(|| operation_id.to_string());
        own.into_iter().chain(self.interrupted.clone()).collect()
    }
}

/// What undoing `op` would do now, read from the current plan (`docs/contract/writes.md` §10.2):
/// the details are parsed (a damaged one refuses), the state each kind compares is read, and
/// `logic::undo` decides. An interrupted operation with nothing left to revert is settled here.
pub(crate) async fn plan_undo(
    context: &Context,
    snapshot: &Arc<crate::plan_store::PlanSnapshot>,
    op: Operation,
    recovery: &Recovery,
    unfinished: Vec<super::undo_operation::UnfinishedEntry>,
) -> Result<Prepared<UndoChange>, ToolError> {
    let from_intent = recovery.from_intent;
    let Some(kind) = Kind::from_name(&op.kind) else {
        let refusal = Refusal::Kind(op.kind.clone());
        return Err(refused(context, &op, from_intent, &refusal).into());
    };
    let moves = op.moves.iter().map(|m| CategoryMove {
        transaction_id: m.transaction_id.clone(),
        from_category_id: m.from_category_id.clone(),
        to_category_id: m.to_category_id.clone(),
    });
    let details = match undo::parse_kind(kind, &op.details, moves.collect(), from_intent) {
        Ok(details) => details,
        Err(refusal) => return Err(refused(context, &op, from_intent, &refusal).into()),
    };
    let planned = match undo_of(context, snapshot, recovery, details).await? {
        Planned::Undo(planned) => *planned,
        Planned::Irreversible(what) => {
            return irreversible(context, snapshot, &op, what, unfinished).await;
        }
    };
    if recovery.applied() == Applied::Partly && planned.nothing.is_some() {
        return nothing_left(context, (op, kind), planned, recovery, unfinished, snapshot).await;
    }
    Ok(finish((op, kind), planned, unfinished, recovery, snapshot))
}

/// What [`undo_of`] found: the undo to ask about, or a kind whose intent only says whether it
/// landed.
enum Planned {
    Undo(Box<UndoPlan>),
    Irreversible(Irreversible),
}

/// What undoing an operation of these `details` would do now: each kind reads the state it
/// compares (the plan, a month's categories, what changed since) and `logic::undo` decides.
async fn undo_of(
    context: &Context,
    snapshot: &Arc<crate::plan_store::PlanSnapshot>,
    recovery: &Recovery,
    details: Details,
) -> Result<Planned, ToolError> {
    let applied = recovery.applied();
    let plan_id = snapshot.id();
    let fmt = MoneyFormat::of(snapshot.plan.currency_format.as_ref());
    let plan = &snapshot.plan;
    let month_of = |month| month_categories(context, snapshot.clone(), month);
    Ok(Planned::Undo(Box::new(match details {
        Details::Irreversible(what) => return Ok(Planned::Irreversible(what)),
        Details::Categorize { moves } => undo::categorize(&moves, plan, &fmt, applied),
        Details::Budget(budgeted) => {
            let (month, change) = (budgeted.month, budgeted.change());
            let (_, cats) = month_of(month).await?;
            undo::budget(month, &change, &cats, &fmt, applied)
        }
        Details::Move(undo::Moved {
            month,
            changes: [source, target],
        }) => {
            let (_, categories) = month_of(month).await?;
            undo::move_money(month, &source, &target, &categories, applied, &fmt)
        }
        Details::Create(created) => {
            undo::create(created_ids(context, plan_id, created).await?, plan, applied)
        }
        Details::Flag(flagged) => undo::flag(&flagged.changes, plan, applied),
        Details::Update { edits, digest_salt } => {
            undo::update(&edits, digest_salt.as_deref(), plan, &fmt, applied)
        }
        Details::Payee(undo::PayeeRenamed { payee_id, from, to }) => {
            undo::payee(&payee_id, &from, &to, plan, applied)
        }
        Details::Reconcile {
            reconciled_ids,
            adjustment_id,
            recognition,
        } => {
            let adjustment = adjustment_of(context, plan_id, adjustment_id, recognition).await?;
            undo::reconcile(reconciled_ids, adjustment, plan, applied)
        }
        Details::Category(edit) => undo::category(&edit, plan, applied),
        Details::Target {
            category_id,
            before,
            after,
            fields,
        } => undo::target(
            &category_id,
            (before.as_deref(), &after),
            &fields,
            plan,
            &fmt,
            applied,
        ),
        Details::Approve(approved) => undo::approve(approved.transaction_ids, plan, applied),
        Details::Delete(deleted) => undo_delete(context, snapshot, recovery, deleted).await?,
        Details::Schedule(d) => {
            super::scheduled_writes::undo_plan(context, snapshot, d, applied, &fmt).await?
        }
        Details::SplitEdit(done) => {
            let changed = changed_since(context, plan_id, done.server_knowledge).await?;
            undo::split_edit::split_edit(&done, &changed, plan, &fmt, applied)
        }
        Details::Merge(merged) => undo::merge::merge(merged.done(), plan, applied),
        Details::Split(done) => undo::split::split(&done, plan, &fmt, applied),
        Details::Import(imported) => undo::imported(imported.transaction_ids, plan, &fmt, applied),
        Details::Link(linked) => {
            let changed = changed_since(context, plan_id, linked.server_knowledge).await?;
            undo::link::link(linked.done(), &changed, plan, applied)
        }
        Details::BudgetPlan(done) => undo_budget_plan(context, snapshot, &done, applied).await?,
        Details::CategoryMerge(done) => {
            undo_category_merge(context, snapshot, &done, applied).await?
        }
    })))
}

/// The ids a `create` made: listed by its journal line, or recognised by digest for an
/// interrupted one (D31).
async fn created_ids(
    context: &Context,
    plan_id: &str,
    created: Created,
) -> Result<Vec<String>, ToolError> {
    match created {
        Created::Ids(ids) => Ok(ids),
        Created::ByDigest(recognition) => recognise(context, plan_id, &recognition).await,
    }
}

/// A reconciliation's adjustment: named by its line, or recognised by digest for one interrupted
/// after it (D31).
async fn adjustment_of(
    context: &Context,
    plan_id: &str,
    known: Option<String>,
    recognition: Option<Recognition>,
) -> Result<Option<String>, ToolError> {
    Ok(match (known, recognition) {
        (Some(known), _) => Some(known),
        (None, Some(recognition)) => recognise(context, plan_id, &recognition)
            .await?
            .into_iter()
            .next(),
        (None, None) => None,
    })
}

/// A `delete`'s undo: nothing left when an interrupted undo already recreated them, else the
/// deleted transactions from YNAB's record of them.
async fn undo_delete(
    context: &Context,
    snapshot: &Arc<crate::plan_store::PlanSnapshot>,
    recovery: &Recovery,
    deleted: undo::Deleted,
) -> Result<UndoPlan, ToolError> {
    let plan_id = snapshot.id();
    let ids = &deleted.transaction_ids;
    if recreated_by_interrupted_undo(context, plan_id, recovery).await? {
        return Ok(undo::delete_recreated(ids, snapshot.server_knowledge));
    }
    let records = changed_since(context, plan_id, deleted.server_knowledge).await?;
    let current = (&snapshot.plan, snapshot.server_knowledge);
    let fmt = MoneyFormat::of(snapshot.plan.currency_format.as_ref());
    Ok(undo::delete(
        ids,
        &records,
        current,
        &fmt,
        recovery.applied(),
    ))
}

/// A `budget_plan`'s undo: the month's categories, and the plan's for its targets.
async fn undo_budget_plan(
    context: &Context,
    snapshot: &Arc<crate::plan_store::PlanSnapshot>,
    done: &undo::budget_plan::PlanApplied,
    applied: Applied,
) -> Result<UndoPlan, ToolError> {
    let (_, categories) = month_categories(context, snapshot.clone(), done.month).await?;
    let parts = (&done.changes[..], &done.targets[..]);
    let fmt = MoneyFormat::of(snapshot.plan.currency_format.as_ref());
    let all = &snapshot.plan.categories;
    Ok(undo::budget_plan::budget_plan(
        done.month,
        parts,
        &categories,
        all,
        &fmt,
        applied,
    ))
}

/// A `category_merge`'s undo: each month's categories, and what changed since for its splits.
async fn undo_category_merge(
    context: &Context,
    snapshot: &Arc<crate::plan_store::PlanSnapshot>,
    done: &undo::category_merge::CategoryMergeDone,
    applied: Applied,
) -> Result<UndoPlan, ToolError> {
    let mut months = Vec::new();
    for m in &done.months {
        if let Some(month) = crate::months::CalendarMonth::from_ynab(&m.month) {
            let (_, categories) = month_categories(context, snapshot.clone(), month).await?;
            months.push((month, categories));
        }
    }
    let changed = match done.splits.first() {
        None => Vec::new(),
        Some(split) => changed_since(context, snapshot.id(), split.server_knowledge).await?,
    };
    let fmt = MoneyFormat::of(snapshot.plan.currency_format.as_ref());
    let plan = &snapshot.plan;
    Ok(undo::category_merge::category_merge(
        done, plan, &months, &changed, &fmt, applied,
    ))
}

/// An interrupted operation with nothing left to revert (D14): its intents are settled. What
/// was never applied, or was already put back, is said so; what changed since is left alone. A
/// journal line its interrupted undo put back entirely is marked undone.
async fn nothing_left(
    context: &Context,
    (op, kind): (Operation, Kind),
    planned: UndoPlan,
    recovery: &Recovery,
    unfinished: Vec<super::undo_operation::UnfinishedEntry>,
    snapshot: &crate::plan_store::PlanSnapshot,
) -> Result<Prepared<UndoChange>, ToolError> {
    let settled = recovery.intents(&op.operation_id);
    let all_back = planned.conflicts.is_empty();
    let message = match (recovery.from_intent, all_back) {
        (_, false) => planned.nothing.clone().unwrap_or_default(),
        (true, true) if recovery.interrupted.is_empty() => format!(
            "Operation {} ({}) was not applied in YNAB: nothing to undo. It is no longer listed as unfinished.",
            op.operation_id, op.kind
        ),
        (true, true) => format!(
            "Operation {} ({}) was not applied in YNAB, or its interrupted undo put it back: nothing to undo. It is no longer listed as unfinished.",
            op.operation_id, op.kind
        ),
        (false, true) => {
            let marker = crate::store::journal::undone_line(&op.operation_id);
            context
                .journal
                .blocking(move |journal| journal.append_all(&[marker]))
                .await?;
            format!(
                "Operation {} ({}) was already put back in YNAB by its interrupted undo {}: the journal now records it undone, and the undo is no longer listed as unfinished. Nothing left to undo.",
                op.operation_id,
                op.kind,
                recovery.interrupted.join(", ")
            )
        }
    };
    for id in &settled {
        crate::confirm::settle(context, id, "recovered").await?;
    }
    let unfinished = unfinished
        .into_iter()
        .filter(|u| !settled.contains(&u.operation_id))
        .collect();
    let mut prepared = finish((op, kind), planned, unfinished, recovery, snapshot);
    if let Prepared::NothingToDo { value, .. } = &mut prepared {
        value["message"] = serde_json::Value::String(message);
    }
    Ok(prepared)
}

/// Whether an interrupted write of a kind undo cannot revert landed, the journal line it would
/// have written (the tool's own record), and why it cannot be undone.
async fn landing_of(
    context: &Context,
    snapshot: &Arc<crate::plan_store::PlanSnapshot>,
    what: Irreversible,
) -> Result<(Landing, serde_json::Value, Option<String>), ToolError> {
    use crate::logic::undo::irreversible::{AccountCreated, CategoryCreated, Imported};
    use crate::logic::undo::split::SplitDone;
    let plan = &snapshot.plan;
    Ok(match what {
        Irreversible::Split(split) => {
            let landing = undo::split_landing(&split, plan);
            let line = SplitDone {
                transaction_id: split.transaction_id,
                category_before: split.category_before,
                line_digests: Some(split.line_digests),
                digest_salt: split.digest_salt,
            };
            (landing, to_details(&line), None)
        }
        Irreversible::CategoryCreate(intended) => {
            let (landing, category_id) = undo::category_create_landing(&intended, plan);
            let line = CategoryCreated {
                category_id,
                category_group_id: intended.category_group_id,
            };
            let reason = super::create_category::CREATE_NOT_UNDOABLE.to_string();
            (landing, to_details(&line), Some(reason))
        }
        Irreversible::Import(intended) => {
            let imported = match intended.server_knowledge {
                None => None,
                Some(knowledge) => Some(imported_since(context, snapshot.id(), knowledge).await?),
            };
            let landing = match &imported {
                None => Landing::Unknown,
                Some(ids) if ids.is_empty() => Landing::NotApplied,
                Some(_) => Landing::Applied,
            };
            let line = Imported {
                transaction_ids: imported.unwrap_or_default(),
            };
            (landing, to_details(&line), None)
        }
        Irreversible::Target {
            category_id,
            before,
            after,
        } => {
            let fmt = MoneyFormat::of(plan.currency_format.as_ref());
            let landing =
                undo::target_landing(&category_id, (before.as_deref(), &after), plan, &fmt);
            let reason = format!(
                "YNAB's API cannot recreate the previous target ({}); only YNAB can bring it back",
                before.as_deref().unwrap_or("as it was")
            );
            let line = undo::details::TargetSet {
                category_id,
                before: None,
                after,
                undo: None,
            };
            (landing, to_details(&line), Some(reason))
        }
        Irreversible::AccountCreate(intended) => {
            let digest = &intended.name_digest;
            let (landing, account_id) =
                undo::account_create::landing(digest, intended.digest_salt.as_deref(), plan);
            let line = AccountCreated {
                account_id,
                kind: intended.kind,
                on_budget: intended.on_budget,
            };
            let reason = super::create_account::NOT_UNDOABLE.to_string();
            (landing, to_details(&line), Some(reason))
        }
    })
}

/// An unfinished intent of a kind YNAB's API cannot revert (D14, D25): read whether it landed.
/// Not applied, it is settled; applied, it is journaled as it would have been, not undoable,
/// with its reason. Either way nothing is written to YNAB and nothing is asked.
async fn irreversible(
    context: &Context,
    snapshot: &Arc<crate::plan_store::PlanSnapshot>,
    op: &Operation,
    what: Irreversible,
    unfinished: Vec<super::undo_operation::UnfinishedEntry>,
) -> Result<Prepared<UndoChange>, ToolError> {
    let (landing, details, reason) = landing_of(context, snapshot, what).await?;
    let (id, kind) = (&op.operation_id, &op.kind);
    let message = match landing {
        Landing::NotApplied if kind == "import" => format!(
            "Operation {id} (import) brought nothing into the plan: it was not applied in YNAB, or found nothing new. Nothing to undo; it is no longer listed as unfinished."
        ),
        Landing::NotApplied => format!(
            "Operation {id} ({kind}) was not applied in YNAB: nothing to undo. It is no longer listed as unfinished."
        ),
        Landing::Applied => {
            let operation = Operation {
                operation_id: id.clone(),
                plan_id: snapshot.id().to_string(),
                kind: kind.clone(),
                applied_at: applied_at_now(),
                moves: Vec::new(),
                details,
                undoable: reason.as_ref().map(|_| false),
                reason: reason.clone(),
            };
            context
                .journal
                .blocking(move |journal| journal.append(&operation))
                .await?;
            match &reason {
                Some(reason) => format!(
                    "Operation {id} ({kind}) was applied in YNAB before the interruption, and cannot be undone here: {reason}. The journal now records it."
                ),
                None => format!(
                    "Operation {id} ({kind}) was applied in YNAB before the interruption. The journal now records it: call undo_operation with operation_id {id} to revert it."
                ),
            }
        }
        Landing::Unknown => match &reason {
            Some(reason) => format!(
                "Operation {id} ({kind}) was interrupted, and the plan shows neither what it was to write nor what was there before: it cannot be undone here ({reason}). It is no longer listed as unfinished."
            ),
            None => format!(
                "Operation {id} ({kind}) was interrupted, and the plan shows neither what it was to write nor what was there before: it is left as it is. It is no longer listed as unfinished."
            ),
        },
    };
    let outcome = if landing == Landing::Applied {
        "applied"
    } else {
        "recovered"
    };
    crate::confirm::settle(context, id, outcome).await?;
    let value = crate::confirm::WriteResult {
        status: WriteStatus::NothingToDo,
        message,
        confirmation: None,
        operation_id: None,
        details: super::undo_operation::UndoDetails {
            recategorisation: super::apply_categories::RecategorisationDetails {
                changes: Vec::new(),
                unchanged_count: 0,
                conflicts: Vec::new(),
            },
            undone_operation_id: id.clone(),
            unfinished: unfinished
                .into_iter()
                .filter(|u| &u.operation_id != id)
                .collect(),
        },
    }
    .into_value();
    Ok(Prepared::NothingToDo {
        value,
        plan_id: snapshot.id().to_string(),
    })
}

/// The live transactions with an import id among those changed since `knowledge`: what an
/// interrupted import may have brought (one delta request).
async fn imported_since(
    context: &Context,
    plan_id: &str,
    knowledge: i64,
) -> Result<Vec<String>, ToolError> {
    let filter = ynab::TransactionFilter {
        last_knowledge: Some(knowledge),
        ..ynab::TransactionFilter::default()
    };
    let (changed, _) = context
        .plans
        .client()
        .transactions(plan_id, &filter)
        .await?;
    Ok(changed
        .into_iter()
        .filter(|t| !t.deleted && t.import_id.is_some())
        .map(|t| t.id)
        .collect())
}

/// Whether an interrupted undo of a `delete` recreated its transactions: its intent holds the
/// digests of what it was to create and the knowledge before, and one live transaction among those
/// changed since with such a digest means its one POST landed. A tombstone cannot tell: it stays
/// deleted after a recreation, so without this a second undo would recreate them twice.
async fn recreated_by_interrupted_undo(
    context: &Context,
    plan_id: &str,
    recovery: &Recovery,
) -> Result<bool, ToolError> {
    if recovery.interrupted.is_empty() {
        return Ok(false);
    }
    let unfinished = context
        .journal
        .blocking(|journal| journal.unfinished())
        .await?;
    for intent in unfinished
        .iter()
        .filter(|i| recovery.interrupted.contains(&i.id))
    {
        // Only an undo of a delete recreates: another undo's intent is of another shape.
        let Ok(Recreating {
            item_digests,
            digest_salt,
            server_knowledge,
            ..
        }) = from_details(&intent.details["reverting"])
        else {
            continue;
        };
        let changed = changed_since(context, plan_id, server_knowledge).await?;
        if undo::recreated(&item_digests, &digest_salt, &changed) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The transactions changed since `knowledge`, deleted ones included with their fields: YNAB's
/// record of what a `delete` removed (one delta request).
async fn changed_since(
    context: &Context,
    plan_id: &str,
    knowledge: i64,
) -> Result<Vec<ynab::models::Transaction>, ToolError> {
    let filter = ynab::TransactionFilter {
        last_knowledge: Some(knowledge),
        ..ynab::TransactionFilter::default()
    };
    let (changed, _) = context
        .plans
        .client()
        .transactions(plan_id, &filter)
        .await?;
    Ok(changed)
}

/// The transactions an interrupted write created, recognised by digest among the account's
/// transactions changed since the intent's knowledge (D31). One delta request, none without
/// digests.
async fn recognise(
    context: &Context,
    plan_id: &str,
    recognition: &Recognition,
) -> Result<Vec<String>, ToolError> {
    if recognition.item_digests.is_empty() {
        return Ok(Vec::new());
    }
    let filter = ynab::TransactionFilter {
        last_knowledge: recognition.server_knowledge,
        ..ynab::TransactionFilter::default()
    };
    let (changed, _) = context
        .plans
        .client()
        .transactions(plan_id, &filter)
        .await?;
    Ok(crate::logic::created::recognise(
        &recognition.item_digests,
        recognition.digest_salt.as_deref(),
        &recognition.account_id,
        &changed,
    ))
}

/// The sentence for an operation whose details cannot be undone. A journal line with a damaged
/// detail is not a journal entry: E-U3 names the file and the line (an intent, or a journal
/// that cannot be read again, gets the refusal's own sentence).
fn refused(context: &Context, op: &Operation, from_intent: bool, refusal: &Refusal) -> String {
    if matches!(refusal, Refusal::Damaged { .. })
        && !from_intent
        && let Ok(path) = context.journal.path()
        && let Ok(view) = context.journal.read()
        && let Some(line) = view.line_of(&op.operation_id)
    {
        return JournalError::Damaged {
            path: path.display().to_string(),
            line,
        }
        .to_string();
    }
    refusal.message(&op.operation_id, &op.kind)
}

/// The undo's result for a computed revert: `nothing_to_do`, or the change to confirm.
fn finish(
    (op, kind): (Operation, Kind),
    planned: UndoPlan,
    unfinished: Vec<super::undo_operation::UnfinishedEntry>,
    recovery: &Recovery,
    snapshot: &crate::plan_store::PlanSnapshot,
) -> Prepared<UndoChange> {
    let plan_id = snapshot.id().to_string();
    let fmt = MoneyFormat::of(snapshot.plan.currency_format.as_ref());
    let UndoPlan {
        revert,
        conflicts,
        reverts,
        question,
        lines,
        nothing,
        untouched: _,
    } = planned;
    let change = UndoChange {
        operation_id: op.operation_id.clone(),
        kind,
        revert,
        fmt,
        conflicts,
        unfinished,
        from_intent: recovery.from_intent,
        settle: recovery.intents(&op.operation_id),
    };
    if let Some(message) = nothing {
        let value = undo_result(&change, WriteStatus::NothingToDo, message, None);
        return Prepared::NothingToDo { value, plan_id };
    }
    let subject = json!({"undo": op.operation_id, "reverts": order_free(reverts)});
    Prepared::Change(Proposal {
        plan_id,
        subject,
        question: crate::confirm::question(question, lines),
        change,
    })
}
