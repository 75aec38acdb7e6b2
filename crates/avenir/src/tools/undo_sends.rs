//! The YNAB writes of an undo, one function per kind of revert (`docs/contract/writes.md` §10):
//! what `undo_operation`'s `write` sends once the operation is confirmed still to undo. Each says,
//! on a failure after its first write, what was put back and that naming the operation again
//! finishes it (§10.3).

use super::assigned_amounts::second_half_failed;
use crate::confirm::{JournalDraft, WriteFailure};
use crate::context::Context;
use crate::logic::assigned_side::AssignedSide;
use crate::logic::undo::{Kind, Recategorised, Revert};
use crate::money::MoneyFormat;
use serde_json::json;
use ynab::writes::{NewTransaction, TransactionUpdate};

/// Send the YNAB writes of `revert`, and note in `draft` what the journal records beyond the
/// undo marker.
pub(super) async fn send(
    context: &Context,
    plan: &str,
    (revert, fmt): (&Revert, &MoneyFormat),
    draft: &mut JournalDraft,
) -> Result<(), WriteFailure> {
    let client = context.plans.client();
    match revert {
        Revert::Categorize { changes } => send_categorize(client, plan, changes, draft).await,
        Revert::Budget { month, side } => {
            client
                .set_assigned(plan, &month.label(), &side.category_id, side.to)
                .await?;
            Ok(())
        }
        Revert::Move {
            month,
            source,
            target,
        } => send_move(context, client, plan, (&month.label(), source, target), fmt).await,
        Revert::Approve { transaction_ids } => send_approve(client, plan, transaction_ids).await,
        Revert::Create { ids } => send_delete_created(client, plan, ids).await,
        Revert::Flags { back } => send_flags(client, plan, back).await,
        Revert::Update { back } => send_update(client, plan, back).await,
        Revert::Payee { payee_id, name } => {
            client.rename_payee(plan, payee_id, name).await?;
            Ok(())
        }
        Revert::Reconcile {
            to_clear,
            to_unclear,
            adjustment,
            imported,
        } => {
            let back = [(to_clear, "cleared"), (to_unclear, "uncleared")];
            send_reconcile(client, plan, back, adjustment.iter().chain(imported)).await
        }
        Revert::Category {
            category_id,
            name_now,
            group_now,
            name_back,
            group_back,
        } => {
            send_category(
                client,
                plan,
                category_id,
                (name_now, group_now),
                (name_back, group_back),
            )
            .await
        }
        Revert::Target {
            category_id,
            fields,
        } => send_target(client, plan, category_id, fields).await,
        Revert::Recreate { items, .. } => send_recreate(client, plan, items).await,
        Revert::Schedule(r) => super::scheduled_writes::undo_write(context, plan, r).await,
        Revert::SplitEdit {
            recreate, delete, ..
        } => send_split_edit(client, plan, recreate.as_ref(), delete.as_ref()).await,
        Revert::Merge {
            transactions,
            scheduled,
            ..
        } => send_merge(client, plan, transactions, scheduled).await,
        Revert::Link { patch, recreate } => {
            send_link(client, plan, patch.as_ref(), recreate.as_ref()).await
        }
        Revert::BudgetPlan {
            month,
            sides,
            targets,
        } => send_budget_plan(client, plan, &month.label(), (sides, targets), fmt).await,
        Revert::CategoryMerge { back, .. } => category_merge_back(client, plan, back).await,
    }
}

/// Put the categories back, and journal the reverse as a `categorize` operation marked undone with it (an undo is never itself in effect, D25).
async fn send_categorize(
    client: &ynab::Client,
    plan: &str,
    changes: &[Recategorised],
    draft: &mut JournalDraft,
) -> Result<(), WriteFailure> {
    let updates: Vec<TransactionUpdate> = changes
        .iter()
        .map(|c| TransactionUpdate {
            id: c.transaction_id.clone(),
            category_id: Some(c.to_category_id.clone()),
            ..TransactionUpdate::default()
        })
        .collect();
    client.update_transactions(plan, &updates).await?;
    // The reverse is journaled as a categorize operation, and both marked undone, so
    // an undo is never itself "in effect" (D25).
    draft.markers_only = false;
    draft.mark_self_undone = true;
    draft.operation_kind = Some(Kind::Categorize);
    draft.moves = super::apply_categories::moves(changes);
    draft.details = json!({});
    Ok(())
}

/// Both amounts of a `move` back, the target first; a refused second half puts the first back.
async fn send_move(
    context: &Context,
    client: &ynab::Client,
    plan: &str,
    (month, source, target): (&str, &AssignedSide, &AssignedSide),
    fmt: &MoneyFormat,
) -> Result<(), WriteFailure> {
    client
        .set_assigned(plan, month, &target.category_id, target.to)
        .await?;
    if let Err(error) = client
        .set_assigned(plan, month, &source.category_id, source.to)
        .await
    {
        return Err(second_half_failed(
            context,
            plan,
            month,
            target,
            &source.name,
            error,
            fmt,
            "undone",
        )
        .await);
    }
    Ok(())
}

/// Mark the transactions unapproved again.
async fn send_approve(
    client: &ynab::Client,
    plan: &str,
    transaction_ids: &[String],
) -> Result<(), WriteFailure> {
    let updates: Vec<TransactionUpdate> = transaction_ids
        .iter()
        .map(|id| TransactionUpdate {
            id: id.clone(),
            approved: Some(false),
            ..TransactionUpdate::default()
        })
        .collect();
    client.update_transactions(plan, &updates).await?;
    Ok(())
}

/// Delete what a `create` (or an import) made, one DELETE each, saying how far a failure got.
async fn send_delete_created(
    client: &ynab::Client,
    plan: &str,
    ids: &[String],
) -> Result<(), WriteFailure> {
    // One DELETE each, in journal order: a failure reports what was done, and a
    // retry sees the deleted ones as gone and finishes the job (§10.3).
    for (done, id) in ids.iter().enumerate() {
        if let Err(error) = client.delete_transaction(plan, id).await {
            let failure = crate::confirm::WriteFailure::from(error);
            return Err(if done == 0 {
                failure
            } else {
                let (crate::confirm::WriteFailure::NothingChanged(text)
                | crate::confirm::WriteFailure::Unknown(text)) = failure;
                crate::confirm::WriteFailure::Unknown(format!(
                    "{text} ({done} of {} created transaction(s) were deleted before it; call undo_operation again to delete the rest.)",
                    ids.len()
                ))
            });
        }
    }
    Ok(())
}

/// Save a category's target with the fields that restore the previous one.
async fn send_target(
    client: &ynab::Client,
    plan: &str,
    category_id: &str,
    fields: &serde_json::Value,
) -> Result<(), WriteFailure> {
    let save = crate::logic::target_change::category_change(fields);
    client.update_category(plan, category_id, &save).await?;
    Ok(())
}

/// Recreate deleted transactions in one POST: either every one comes back or none (or YNAB's
/// answer is lost: the undo stays unfinished, and the person checks before undoing again).
async fn send_recreate(
    client: &ynab::Client,
    plan: &str,
    items: &[NewTransaction],
) -> Result<(), WriteFailure> {
    client.create_transactions(plan, items).await?;
    Ok(())
}

/// Put the flags back.
async fn send_flags(
    client: &ynab::Client,
    plan: &str,
    back: &[(String, Option<String>, Option<String>)],
) -> Result<(), WriteFailure> {
    let updates: Vec<TransactionUpdate> = back
        .iter()
        .map(|(id, _, to)| TransactionUpdate {
            id: id.clone(),
            flag_color: Some(to.clone()),
            ..TransactionUpdate::default()
        })
        .collect();
    client.update_transactions(plan, &updates).await?;
    Ok(())
}

/// Put the fields an `update` changed back.
async fn send_update(
    client: &ynab::Client,
    plan: &str,
    back: &[crate::logic::undo::UpdateBack],
) -> Result<(), WriteFailure> {
    let updates: Vec<TransactionUpdate> = back
        .iter()
        .map(|b| {
            let mut update = TransactionUpdate {
                id: b.transaction_id.clone(),
                ..TransactionUpdate::default()
            };
            for (field, _, to) in &b.fields {
                super::update_transactions::set_field(&mut update, *field, to, None);
            }
            update
        })
        .collect();
    client.update_transactions(plan, &updates).await?;
    Ok(())
}

/// Mark reconciled transactions cleared again, then delete the adjustment.
async fn send_reconcile<'a>(
    client: &ynab::Client,
    plan: &str,
    back: [(&Vec<String>, &str); 2],
    created: impl Iterator<Item = &'a String>,
) -> Result<(), WriteFailure> {
    let updates: Vec<TransactionUpdate> = back
        .iter()
        .flat_map(|(ids, status)| ids.iter().map(move |id| (id, *status)))
        .map(|(id, status)| TransactionUpdate {
            id: id.clone(),
            cleared: Some(status.into()),
            ..TransactionUpdate::default()
        })
        .collect();
    if !updates.is_empty() {
        client.update_transactions(plan, &updates).await?;
    }
    let created: Vec<&String> = created.collect();
    for (done, id) in created.iter().enumerate() {
        if let Err(error) = client.delete_transaction(plan, id).await {
            let (WriteFailure::NothingChanged(text) | WriteFailure::Unknown(text)) =
                WriteFailure::from(error);
            let left = created.len() - done;
            return Err(WriteFailure::Unknown(format!(
                "{text} (the transactions are back to their status before; {left} transaction(s) the reconciliation created are still there; call undo_operation again to delete them.)"
            )));
        }
    }
    Ok(())
}

/// Put a category's name and group back in one PATCH of what differs (D25).
async fn send_category(
    client: &ynab::Client,
    plan: &str,
    category_id: &str,
    (name_now, group_now): (&String, &String),
    (name_back, group_back): (&String, &String),
) -> Result<(), WriteFailure> {
    // One PATCH with what differs from now (D25).
    let body = ynab::writes::CategoryChange {
        name: (name_back != name_now).then(|| name_back.clone()),
        category_group_id: (group_back != group_now).then(|| group_back.clone()),
        ..ynab::writes::CategoryChange::default()
    };
    client.update_category(plan, category_id, &body).await?;
    Ok(())
}

/// Create the transaction again (unless already back), then delete the one it replaces.
async fn send_split_edit(
    client: &ynab::Client,
    plan: &str,
    recreate: Option<&NewTransaction>,
    delete: Option<&String>,
) -> Result<(), WriteFailure> {
    // Created first, deleted second, as the edit itself: a failure in between
    // leaves both visible, and undo_operation again deletes the rest.
    if let Some(old) = recreate {
        client
            .create_transactions(plan, std::slice::from_ref(old))
            .await?;
    }
    if let Some(id) = delete
        && let Err(error) = client.delete_transaction(plan, id).await
    {
        let failure = WriteFailure::from(error);
        if recreate.is_none() {
            return Err(failure);
        }
        return Err(WriteFailure::Unknown(format!(
            "{} (the old lines are back as a new transaction; {id}, the edited one, may still be there: call undo_operation again to delete it.)",
            failure.text()
        )));
    }
    Ok(())
}

/// Move merged transactions (PATCH, chunks of 100) and schedules (PUT) back to their payees.
async fn send_merge(
    client: &ynab::Client,
    plan: &str,
    transactions: &[(String, String)],
    scheduled: &[(String, ynab::writes::ScheduleSave)],
) -> Result<(), WriteFailure> {
    // The transactions back (PATCH, chunks of 100), then each schedule (PUT).
    let total = transactions.len() + scheduled.len();
    let updates: Vec<TransactionUpdate> = transactions
        .iter()
        .map(|(id, back)| TransactionUpdate {
            id: id.clone(),
            payee_id: Some(Some(back.clone())),
            ..TransactionUpdate::default()
        })
        .collect();
    let mut done = 0;
    for chunk in updates.chunks(crate::logic::merges::PATCH_CHUNK) {
        if let Err(error) = client.update_transactions(plan, chunk).await {
            return Err(super::merge_payees::move_back_failed(error, done, total));
        }
        done += chunk.len();
    }
    for (id, save) in scheduled {
        if let Err(error) = client.update_scheduled_transaction(plan, id, save).await {
            return Err(super::merge_payees::move_back_failed(error, done, total));
        }
        done += 1;
    }
    Ok(())
}

/// Make a linked transfer two transactions again: the kept side first, then the deleted one.
async fn send_link(
    client: &ynab::Client,
    plan: &str,
    patch: Option<&(String, Option<String>, Option<String>)>,
    recreate: Option<&NewTransaction>,
) -> Result<(), WriteFailure> {
    // The kept side first (YNAB removes the mirror), then the deleted side again.
    if let Some((id, payee, category)) = patch {
        let update = TransactionUpdate {
            id: id.clone(),
            payee_id: Some(payee.clone()),
            category_id: Some(category.clone()),
            ..TransactionUpdate::default()
        };
        client.update_transactions(plan, &[update]).await?;
    }
    if let Some(item) = recreate
        && let Err(error) = client
            .create_transactions(plan, std::slice::from_ref(item))
            .await
    {
        let failure = WriteFailure::from(error);
        return Err(WriteFailure::Unknown(format!(
            "{} (the kept transaction is ordinary again; the deleted one is not recreated yet: call undo_operation again.)",
            failure.text()
        )));
    }
    Ok(())
}

/// Set a plan's amounts back in order, then its targets, saying how far a failure got.
async fn send_budget_plan(
    client: &ynab::Client,
    plan: &str,
    month: &str,
    (sides, targets): (
        &[AssignedSide],
        &[crate::logic::undo::budget_plan::TargetBack],
    ),
    fmt: &MoneyFormat,
) -> Result<(), WriteFailure> {
    for (done, s) in sides.iter().enumerate() {
        if let Err(error) = client.set_assigned(plan, month, &s.category_id, s.to).await {
            return Err(super::apply_budget_plan::put_back_failed(
                (done, 0),
                (sides, targets),
                error,
                fmt,
            ));
        }
    }
    for (done, t) in targets.iter().enumerate() {
        let save = crate::logic::target_change::category_change(&t.fields);
        if let Err(error) = client.update_category(plan, &t.category_id, &save).await {
            return Err(super::apply_budget_plan::put_back_failed(
                (sides.len(), done),
                (sides, targets),
                error,
                fmt,
            ));
        }
    }
    Ok(())
}

/// The undo of a `category_merge`, in order: per month the target lowered then the source raised
/// (in between, the money is in Ready to Assign), the transactions (PATCH, chunks of 100), each
/// split created again with its old lines then the recreation deleted, each schedule (PUT). A
/// failure after the first write counts what was put back; naming the operation again finishes.
async fn category_merge_back(
    client: &ynab::Client,
    plan: &str,
    back: &crate::logic::undo::category_merge::CategoryMergeBack,
) -> Result<(), WriteFailure> {
    use super::merge_categories::move_back_failed;
    let total = back.months.iter().map(|(_, s)| s.len()).sum::<usize>()
        + back.transactions.len()
        + back.splits.len()
        + back.scheduled.len();
    let mut done = 0;
    for (month, sides) in &back.months {
        for s in sides {
            if let Err(error) = client
                .set_assigned(plan, &month.label(), &s.category_id, s.to)
                .await
            {
                return Err(move_back_failed(error, done, total));
            }
            done += 1;
        }
    }
    let updates: Vec<TransactionUpdate> = back
        .transactions
        .iter()
        .map(|c| TransactionUpdate {
            id: c.transaction_id.clone(),
            category_id: Some(c.to_category_id.clone()),
            ..TransactionUpdate::default()
        })
        .collect();
    for chunk in updates.chunks(crate::logic::merges::PATCH_CHUNK) {
        if let Err(error) = client.update_transactions(plan, chunk).await {
            return Err(move_back_failed(error, done, total));
        }
        done += chunk.len();
    }
    for (recreate, delete, _) in &back.splits {
        if let Some(old) = recreate
            && let Err(error) = client
                .create_transactions(plan, std::slice::from_ref(old))
                .await
        {
            return Err(move_back_failed(error, done, total));
        }
        if let Some(id) = delete
            && let Err(error) = client.delete_transaction(plan, id).await
        {
            let failure = WriteFailure::from(error);
            return Err(WriteFailure::Unknown(format!(
                "{} ({done} of {total} moved back before it; the old lines of a split are back as a new transaction, and {id}, the merged one, may still be there: call undo_operation again to finish.)",
                failure.text()
            )));
        }
        done += 1;
    }
    for (id, save) in &back.scheduled {
        if let Err(error) = client.update_scheduled_transaction(plan, id, save).await {
            return Err(move_back_failed(error, done, total));
        }
        done += 1;
    }
    Ok(())
}
