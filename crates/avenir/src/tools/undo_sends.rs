//! The YNAB writes of an undo, one function per kind of revert (`docs/contract/writes.md` §10):
//! what `undo_operation`'s `write` sends once the operation is confirmed still to undo. Each says,
//! on a failure after its first write, what was put back and that naming the operation again
//! finishes it (§10.3).

use super::apply_categories::Recategorisation;
use super::assigned_amounts::{Side, second_half_failed};
use super::undo_operation::Revert;
use crate::confirm::{JournalDraft, WriteFailure};
use crate::context::Context;
use crate::logic::undo::Kind;
use crate::money::MoneyFormat;
use serde_json::{Value, json};
use ynab::writes::{NewTransaction, TransactionUpdate};

/// Send the YNAB writes of `revert`, and note in `draft` what the journal records beyond the
/// undo marker.
pub(super) async fn send(
    context: &Context,
    plan: &str,
    revert: &Revert,
    draft: &mut JournalDraft,
) -> Result<(), WriteFailure> {
    let client = context.plans.client();
    match revert {
        Revert::Categorize(r) => send_categorize(client, plan, r, draft).await,
        Revert::Budget { month, side } => {
            client
                .set_assigned(plan, month, &side.category_id, side.to)
                .await?;
            Ok(())
        }
        Revert::Move {
            month,
            source,
            target,
            fmt,
        } => send_move(context, client, plan, (month, source, target), fmt).await,
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
            adjustment,
        } => send_reconcile(client, plan, to_clear, adjustment.as_ref()).await,
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
            fmt,
        } => send_budget_plan(client, plan, month, (sides, targets), fmt).await,
        Revert::CategoryMerge { back, .. } => category_merge_back(client, plan, back).await,
    }
}

/// What an undo's intent records of `revert` before anything is sent: ids and amounts only
/// (D31), enough for a recovery to tell what landed.
pub(super) fn reverting(revert: &Revert) -> Value {
    match revert {
        Revert::Categorize(r) => json!({"moves": super::apply_categories::moves(&r.changes)}),
        Revert::Budget { month, side } => {
            json!({"month": month, "category_id": side.category_id,
                                                 "from": side.from, "to": side.to})
        }
        Revert::Move {
            month,
            source,
            target,
            ..
        } => json!({"month": month, "changes": [
            {"category_id": target.category_id, "from": target.from, "to": target.to},
            {"category_id": source.category_id, "from": source.from, "to": source.to}]}),
        Revert::Approve { transaction_ids } => json!({"transaction_ids": transaction_ids}),
        Revert::Create { ids } => json!({"delete": ids}),
        Revert::Flags { back } => json!({"changes": back
            .iter()
            .map(|(id, now, to)| json!({"transaction_id": id, "from": now, "to": to}))
            .collect::<Vec<_>>()}),
        Revert::Update { back } => update_reverting(back),
        Revert::Payee { payee_id, .. } => json!({"payee_id": payee_id}),
        Revert::Reconcile {
            to_clear,
            adjustment,
        } => json!({"cleared_ids": to_clear, "adjustment_id": adjustment}),
        Revert::Target {
            category_id,
            fields,
        } => json!({"category_id": category_id, "fields": fields}),
        Revert::Category {
            category_id,
            name_now,
            group_now,
            name_back,
            group_back,
        } => json!({"category_id": category_id, "name_before": name_now,
                    "group_before": group_now, "name_after": name_back,
                    "group_after": group_back}),
        Revert::Recreate {
            items,
            ids,
            knowledge,
        } => recreate_reverting(items, ids, *knowledge),
        Revert::Schedule(r) => super::scheduled_writes::undo_intent(r),
        Revert::SplitEdit {
            recreate,
            delete,
            old_id,
        } => json!({"recreate": recreate.as_ref().map(|_| old_id), "delete": delete}),
        Revert::Merge {
            transactions,
            scheduled,
            ..
        } => merge_reverting(transactions, scheduled),
        // Ids only (D31): the deleted side's fields stay in YNAB's record.
        Revert::Link { patch, recreate } => json!({
            "kept_id": patch.as_ref().map(|(id, ..)| id),
            "recreate": recreate.is_some()}),
        Revert::BudgetPlan {
            month,
            sides,
            targets,
            ..
        } => budget_plan_reverting(month, sides, targets),
        Revert::CategoryMerge { back, .. } => category_merge_reverting(back),
    }
}

/// The fields an `update`'s undo puts back, each with the value it overwrites.
fn update_reverting(back: &[crate::logic::undo::UpdateBack]) -> Value {
    let changes: Vec<Value> = back
        .iter()
        .map(|b| {
            let fields: serde_json::Map<String, Value> = b
                .fields
                .iter()
                .map(|(field, now, to)| (field.key().to_string(), json!({"from": now, "to": to})))
                .collect();
            json!({"transaction_id": b.transaction_id, "fields": fields})
        })
        .collect();
    json!({ "changes": changes })
}

/// A recreation's ids, and a salted digest of each recreated transaction (D31): a recovery of
/// this undo recognises what its one POST made, which the tombstones cannot tell.
fn recreate_reverting(items: &[NewTransaction], ids: &[String], knowledge: i64) -> Value {
    let salt = crate::random::hex::<16>();
    let digests: Vec<String> = items
        .iter()
        .map(|t| crate::logic::undo::recreation_digest(&salt, t))
        .collect();
    json!({"recreate": ids, "item_digests": digests, "digest_salt": salt,
           "server_knowledge": knowledge})
}

/// The items a merge's undo moves back, by id, and the payee each goes back to (D31: ids only).
fn merge_reverting(
    transactions: &[(String, String)],
    scheduled: &[(String, ynab::writes::ScheduleSave)],
) -> Value {
    let transactions: Vec<Value> = transactions
        .iter()
        .map(|(id, to)| json!({"id": id, "to": to}))
        .collect();
    let scheduled: Vec<Value> = scheduled
        .iter()
        .map(|(id, save)| json!({"id": id, "to": save.payee_id}))
        .collect();
    json!({"transactions": transactions, "scheduled": scheduled})
}

/// The amounts (and targets) a budget plan's undo sets back; `targets` left out when none.
fn budget_plan_reverting(
    month: &str,
    sides: &[Side],
    targets: &[crate::logic::undo::budget_plan::TargetBack],
) -> Value {
    let changes: Vec<Value> = sides
        .iter()
        .map(|s| json!({"category_id": s.category_id, "from": s.from, "to": s.to}))
        .collect();
    let mut intent = json!({"month": month, "changes": changes});
    if !targets.is_empty() {
        let targets: Vec<Value> = targets
            .iter()
            .map(|t| json!({"category_id": t.category_id, "fields": t.fields}))
            .collect();
        intent["targets"] = json!(targets);
    }
    intent
}

/// What a category merge's undo moves back: each month's amounts, the transactions, the splits
/// recreated and the schedules (D31: ids and amounts only).
fn category_merge_reverting(back: &crate::logic::undo::category_merge::CategoryMergeBack) -> Value {
    let months: Vec<Value> = back
        .months
        .iter()
        .map(|(month, sides)| {
            let changes: Vec<Value> = sides
                .iter()
                .map(|s| json!({"category_id": s.category_id, "from": s.from, "to": s.to}))
                .collect();
            json!({"month": month.label(), "changes": changes})
        })
        .collect();
    let transactions: Vec<&String> = back
        .transactions
        .iter()
        .map(|c| &c.transaction_id)
        .collect();
    let splits: Vec<Value> = back
        .splits
        .iter()
        .map(|(recreate, delete, old_id)| {
            json!({"recreate": recreate.as_ref().map(|_| old_id), "delete": delete})
        })
        .collect();
    let scheduled: Vec<&String> = back.scheduled.iter().map(|(id, _)| id).collect();
    json!({"months": months, "transactions": transactions, "splits": splits,
           "scheduled": scheduled})
}

/// Put the categories back, and journal the reverse as a `categorize` operation marked undone with it (an undo is never itself in effect, D25).
async fn send_categorize(
    client: &ynab::Client,
    plan: &str,
    r: &Recategorisation,
    draft: &mut JournalDraft,
) -> Result<(), WriteFailure> {
    let updates: Vec<TransactionUpdate> = r
        .changes
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
    draft.moves = super::apply_categories::moves(&r.changes);
    draft.details = json!({});
    Ok(())
}

/// Both amounts of a `move` back, the target first; a refused second half puts the first back.
async fn send_move(
    context: &Context,
    client: &ynab::Client,
    plan: &str,
    (month, source, target): (&str, &Side, &Side),
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
async fn send_reconcile(
    client: &ynab::Client,
    plan: &str,
    to_clear: &[String],
    adjustment: Option<&String>,
) -> Result<(), WriteFailure> {
    if !to_clear.is_empty() {
        let updates: Vec<TransactionUpdate> = to_clear
            .iter()
            .map(|id| TransactionUpdate {
                id: id.clone(),
                cleared: Some("cleared".into()),
                ..TransactionUpdate::default()
            })
            .collect();
        client.update_transactions(plan, &updates).await?;
    }
    if let Some(adjustment) = adjustment
        && let Err(error) = client.delete_transaction(plan, adjustment).await
    {
        let text = crate::confirm::WriteFailure::from(error);
        let (crate::confirm::WriteFailure::NothingChanged(text)
        | crate::confirm::WriteFailure::Unknown(text)) = text;
        return Err(crate::confirm::WriteFailure::Unknown(format!(
            "{text} (the transactions are cleared again, the balance adjustment is still there; call undo_operation again to delete it.)"
        )));
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
    (sides, targets): (&[Side], &[crate::logic::undo::budget_plan::TargetBack]),
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
