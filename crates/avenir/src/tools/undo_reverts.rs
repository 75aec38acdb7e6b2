//! What undoing each kind of operation would do now (`tools-write.md` §10.2): the I/O around
//! `logic::undo`, which parses the details and decides. This file reads what each kind compares
//! (the plan, a month's categories, items recognised by digest) and shapes the plan it returns.

use super::apply_categories::Recategorisation;
use super::assigned_amounts::{Side, month_categories};
use super::undo_operation::{Revert, UndoChange, undo_result};
use crate::confirm::Prepared;
use crate::confirm::Proposal;
use crate::confirm::WriteStatus;
use crate::context::Context;
use crate::digest::order_free;
use crate::logic::undo::{
    self, AssignedBack, CategoryMove, Created, Details, Recognition, Refusal, UndoPlan,
};
use crate::money::MoneyFormat;
use crate::store::journal::{JournalError, Operation};
use crate::tool_error::ToolError;
use serde_json::json;
use std::sync::Arc;

/// What undoing `op` would do now, read from the current plan (`tools-write.md` §10.2): the
/// details are parsed (a damaged one refuses), the state each kind compares is read, and
/// `logic::undo` decides.
pub(crate) async fn plan_undo(
    context: &Context,
    snapshot: &Arc<crate::plan_store::PlanSnapshot>,
    op: Operation,
    from_intent: bool,
    unfinished: Vec<super::undo_operation::UnfinishedEntry>,
) -> Result<Prepared<UndoChange>, ToolError> {
    let plan_id = snapshot.id().to_string();
    let fmt = MoneyFormat::of(snapshot.plan.currency_format.as_ref());
    let plan = &snapshot.plan;
    let moves = op
        .moves
        .iter()
        .map(|m| CategoryMove {
            transaction_id: m.transaction_id.clone(),
            from_category_id: m.from_category_id.clone(),
            to_category_id: m.to_category_id.clone(),
        })
        .collect();
    let details = match undo::parse(&op.kind, &op.details, moves, from_intent) {
        Ok(details) => details,
        Err(refusal) => return Err(refused(context, &op, from_intent, &refusal).into()),
    };
    let planned = match details {
        Details::Categorize { moves } => undo::categorize(&moves, plan, &fmt),
        Details::Budget { month, change } => {
            let (_, categories) = month_categories(context, snapshot.clone(), month).await?;
            undo::budget(month, &change, &categories, &fmt)
        }
        Details::Move {
            month,
            source,
            target,
        } => {
            let (_, categories) = month_categories(context, snapshot.clone(), month).await?;
            undo::move_money(month, &source, &target, &categories, from_intent, &fmt)
        }
        Details::Create(created) => {
            let ids = match created {
                Created::Ids(ids) => ids,
                // An interrupted create_transactions: its items, recognised by digest (D31).
                Created::ByDigest(recognition) => {
                    recognise(context, &plan_id, &recognition).await?
                }
            };
            undo::create(ids, plan)
        }
        Details::Flag { changes } => undo::flag(&changes, plan),
        Details::Payee { payee_id, from, to } => undo::payee(&payee_id, &from, &to, plan),
        Details::Reconcile {
            reconciled_ids,
            adjustment_id,
            recognition,
        } => {
            let adjustment = match (adjustment_id, recognition) {
                (Some(known), _) => Some(known),
                // A reconciliation interrupted after its adjustment: recognised by digest (D31).
                (None, Some(recognition)) => recognise(context, &plan_id, &recognition)
                    .await?
                    .into_iter()
                    .next(),
                (None, None) => None,
            };
            undo::reconcile(reconciled_ids, adjustment, plan)
        }
        Details::Category(edit) => undo::category(&edit, plan),
        Details::Target {
            category_id,
            after,
            fields,
        } => undo::target(&category_id, &after, &fields, plan, &fmt),
        Details::Approve { transaction_ids } => undo::approve(transaction_ids, plan),
    };
    Ok(finish(op, planned, unfinished, from_intent, plan_id, &fmt))
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

fn side(back: AssignedBack) -> Side {
    Side {
        category_id: back.category_id,
        name: back.name,
        from: back.from,
        to: back.to,
        available_before: back.available_before,
    }
}

/// The logic's revert as the tool writes it.
fn revert_of(revert: undo::Revert, conflicts: &[String], fmt: &MoneyFormat) -> Revert {
    match revert {
        undo::Revert::Categorize { changes } => Revert::Categorize(Recategorisation {
            changes,
            unchanged_count: 0,
            conflicts: conflicts.to_vec(),
        }),
        undo::Revert::Budget { month, side: back } => Revert::Budget {
            month: month.label(),
            side: side(back),
        },
        undo::Revert::Move {
            month,
            source,
            target,
        } => Revert::Move {
            month: month.label(),
            source: side(source),
            target: side(target),
            fmt: fmt.clone(),
        },
        undo::Revert::Approve { transaction_ids } => Revert::Approve { transaction_ids },
        undo::Revert::Create { ids } => Revert::Create { ids },
        undo::Revert::Flags { back } => Revert::Flags { back },
        undo::Revert::Payee { payee_id, name } => Revert::Payee { payee_id, name },
        undo::Revert::Reconcile {
            to_clear,
            adjustment,
        } => Revert::Reconcile {
            to_clear,
            adjustment,
        },
        undo::Revert::Target {
            category_id,
            fields,
        } => Revert::Target {
            category_id,
            fields,
        },
        undo::Revert::Category {
            category_id,
            name_now,
            group_now,
            name_back,
            group_back,
        } => Revert::Category {
            category_id,
            name_now,
            group_now,
            name_back,
            group_back,
        },
    }
}

/// The undo's result for a computed revert: `nothing_to_do`, or the change to confirm.
fn finish(
    op: Operation,
    planned: UndoPlan,
    unfinished: Vec<super::undo_operation::UnfinishedEntry>,
    from_intent: bool,
    plan_id: String,
    fmt: &MoneyFormat,
) -> Prepared<UndoChange> {
    let UndoPlan {
        revert,
        conflicts,
        reverts,
        question,
        lines,
        nothing,
    } = planned;
    let change = UndoChange {
        operation_id: op.operation_id.clone(),
        kind: op.kind.clone(),
        revert: revert_of(revert, &conflicts, fmt),
        conflicts,
        unfinished,
        from_intent,
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
