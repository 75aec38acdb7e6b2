//! What undoing each kind of operation would do now (`tools-write.md` §10.2): the current state
//! compared with what the operation set, the reverts, the conflicts left alone, the question.

use super::assigned_amounts::{Side, month_categories};
use super::categorize::{Recategorisation, Recategorised};
use super::undo::{Revert, UndoChange, undo_result};
use crate::confirm::Prepared;
use crate::confirm::Proposal;
use crate::confirm::WriteStatus;
use crate::confirm::fingerprint::order_free;
use crate::context::Context;
use crate::logic::assignable::CategoryIndex;
use crate::logic::category_edits::changed_since;
use crate::logic::names::PlanNames;
use crate::money::MoneyFormat;
use crate::months::CalendarMonth;
use crate::plans::Freshness;
use crate::store::journal::Operation;
use crate::text::safe;
use serde_json::{Value, json};
use ynab::models::Milliunits;

/// A list of strings in an operation's details (`transaction_ids`, `reconciled_ids`).
fn string_list(details: &Value, key: &str) -> Vec<String> {
    details
        .get(key)
        .and_then(|v| serde_json::from_value(v.clone()).ok())
        .unwrap_or_default()
}

/// A flag colour as the journal writes it: `null` or `""` mean none.
fn flag_of(value: Option<&Value>) -> Option<String> {
    flag_of_str(value.and_then(Value::as_str))
}

fn flag_of_str(value: Option<&str>) -> Option<String> {
    value.filter(|c| !c.is_empty()).map(str::to_string)
}

fn milli(value: &Value, key: &str) -> Option<Milliunits> {
    value.get(key).and_then(Value::as_i64)
}

/// What undoing `op` would do now, read from the current plan (`tools-write.md` §10.2).
pub(crate) async fn plan_undo(
    context: &Context,
    snapshot: &crate::plans::PlanSnapshot,
    op: Operation,
    from_intent: bool,
    unfinished: Vec<Value>,
) -> Result<Prepared<UndoChange>, String> {
    let plan_id = snapshot.id().to_string();
    let fmt = MoneyFormat::of(snapshot.plan.currency_format.as_ref());
    let plan = &snapshot.plan;
    let mut conflicts = Vec::new();
    let (revert, reverts, question, nothing) = match op.kind.as_str() {
        "categorize" => {
            let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
            let names = PlanNames::new(plan);
            let name = |id: Option<&str>| id.and_then(|id| index.visible_name(id)).map(safe);
            let mut changes = Vec::new();
            for m in &op.moves {
                let current = plan
                    .transactions
                    .iter()
                    .find(|t| t.id == m.transaction_id && !t.deleted);
                match current {
                    Some(t) if t.category_id == m.to_category_id => changes.push(Recategorised {
                        transaction_id: t.id.clone(),
                        date: t.date.clone(),
                        amount: t.amount,
                        payee: safe(names.payee(t.payee_id.as_deref())),
                        from_category_id: t.category_id.clone(),
                        from_category: name(t.category_id.as_deref()),
                        to_category_id: m.from_category_id.clone(),
                        to_category: name(m.from_category_id.as_deref()),
                    }),
                    _ => conflicts.push(m.transaction_id.clone()),
                }
            }
            let reverts: Vec<Value> = changes
                .iter()
                .map(|c| {
                    json!({"transaction_id": c.transaction_id, "category_before": c.from_category_id,
                           "category_after": c.to_category_id})
                })
                .collect();
            let nothing = if conflicts.is_empty() {
                "Nothing to change.".to_string()
            } else {
                format!(
                    "Nothing to change. {} transaction(s) changed since and were left alone.",
                    conflicts.len()
                )
            };
            let question = crate::confirm::question(
                format!("Undo: recategorise {} transaction(s)?", changes.len()),
                changes.iter().map(|c| c.line(&fmt)).collect(),
            );
            let empty = changes.is_empty();
            let revert = Revert::Categorize(Recategorisation {
                changes,
                unchanged_count: 0,
                conflicts: conflicts.clone(),
            });
            (revert, reverts, question, empty.then_some(nothing))
        }
        "budget" => {
            let d = &op.details;
            let month_text = d.get("month").and_then(Value::as_str).unwrap_or_default();
            let month = CalendarMonth::from_ynab(month_text)
                .ok_or_else(|| format!("Operation {} names no month.", op.operation_id))?;
            let category_id = d
                .get("category_id")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let (from, to) = (milli(d, "from").unwrap_or(0), milli(d, "to").unwrap_or(0));
            let (_, categories) =
                month_categories(context, &plan_id, month, Freshness::AllowCached).await?;
            let current = categories
                .iter()
                .find(|c| c.id == category_id && !c.deleted);
            let side = match current {
                Some(c) if c.budgeted == to => Side {
                    category_id: c.id.clone(),
                    name: safe(&c.name),
                    from: to,
                    to: from,
                    available_before: c.balance,
                },
                _ => {
                    conflicts.push(category_id.to_string());
                    Side {
                        category_id: category_id.to_string(),
                        name: String::new(),
                        from: to,
                        to: from,
                        available_before: 0,
                    }
                }
            };
            let reverts = vec![json!({"category": side.category_id, "month": month.label(),
                                      "from": side.from, "to": side.to})];
            let question = format!(
                "Undo: set {} for {} back to {}?",
                side.name,
                month,
                fmt.plain(from)
            );
            let nothing = (!conflicts.is_empty())
                .then(|| "The amount changed since: left alone.".to_string());
            (
                Revert::Budget {
                    month: month.label(),
                    side,
                },
                reverts,
                question,
                nothing,
            )
        }
        "move" => {
            let d = &op.details;
            let month_text = d.get("month").and_then(Value::as_str).unwrap_or_default();
            let month = CalendarMonth::from_ynab(month_text)
                .ok_or_else(|| format!("Operation {} names no month.", op.operation_id))?;
            let changes = d
                .get("changes")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let (_, categories) =
                month_categories(context, &plan_id, month, Freshness::AllowCached).await?;
            let mut sides = Vec::new();
            for change in changes.iter().take(2) {
                let id = change
                    .get("category_id")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let (from, to) = (
                    milli(change, "from").unwrap_or(0),
                    milli(change, "to").unwrap_or(0),
                );
                let current = categories.iter().find(|c| c.id == id && !c.deleted);
                if current.is_none_or(|c| c.budgeted != to) {
                    conflicts.push(id.to_string());
                }
                sides.push(Side {
                    category_id: id.to_string(),
                    name: current.map(|c| safe(&c.name)).unwrap_or_default(),
                    from: to,
                    to: from,
                    available_before: current.map(|c| c.balance).unwrap_or(0),
                });
            }
            let Ok([source, target]) = <[Side; 2]>::try_from(sides) else {
                return Err(format!(
                    "Operation {} does not hold its two sides.",
                    op.operation_id
                ));
            };
            if from_intent && conflicts.len() == 1 {
                // An interrupted move applied one half: revert what is applied, leave the
                // rest alone (D14).
                let applied = if conflicts[0] == source.category_id {
                    target
                } else {
                    source
                };
                let reverts = vec![
                    json!({"category": applied.category_id, "month": month.label(),
                                          "from": applied.from, "to": applied.to}),
                ];
                let question = format!(
                    "Undo: set {} for {} back to {}?",
                    applied.name,
                    month,
                    fmt.plain(applied.to)
                );
                return finish(
                    op,
                    Revert::Budget {
                        month: month.label(),
                        side: applied,
                    },
                    conflicts,
                    unfinished,
                    from_intent,
                    reverts,
                    question,
                    None,
                    plan_id,
                );
            }
            let reverts: Vec<Value> = [&target, &source]
                .iter()
                .map(|s| json!({"category": s.category_id, "month": month.label(), "from": s.from, "to": s.to}))
                .collect();
            let question = format!(
                "Undo: move {} back from {} to {} for {}?",
                fmt.plain(source.to - source.from),
                target.name,
                source.name,
                month
            );
            let nothing = (!conflicts.is_empty())
                .then(|| "An amount changed since: both left alone.".to_string());
            (
                Revert::Move {
                    month: month.label(),
                    source,
                    target,
                    fmt: fmt.clone(),
                },
                reverts,
                question,
                nothing,
            )
        }
        "create" => {
            let mut ids = string_list(&op.details, "transaction_ids");
            if from_intent && ids.is_empty() {
                // An interrupted create_transactions: its items, recognised by digest (D31).
                ids = super::create::recover(context, &plan_id, &op.details).await?;
            }
            let mut present = Vec::new();
            for id in ids {
                if plan.transactions.iter().any(|t| t.id == id && !t.deleted) {
                    present.push(id);
                } else {
                    conflicts.push(id);
                }
            }
            let reverts: Vec<Value> = present.iter().map(|id| json!({"delete": id})).collect();
            let question = format!(
                "Undo: delete the {} transaction(s) this operation created?",
                present.len()
            );
            let nothing = present
                .is_empty()
                .then(|| "Already deleted: nothing to undo.".to_string());
            (Revert::Create { ids: present }, reverts, question, nothing)
        }
        "flag" => {
            let changes = op
                .details
                .get("changes")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let mut back = Vec::new();
            for change in &changes {
                let id = change
                    .get("transaction_id")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let to = flag_of(change.get("to"));
                let from = flag_of(change.get("from"));
                let current = plan.transactions.iter().find(|t| t.id == id && !t.deleted);
                match current {
                    Some(t) if flag_of_str(t.flag_color.as_deref()) == to => {
                        back.push((id.to_string(), to, from));
                    }
                    _ => conflicts.push(id.to_string()),
                }
            }
            let reverts: Vec<Value> = back
                .iter()
                .map(|(id, now, to)| json!({"transaction_id": id, "flag_before": now, "flag_after": to}))
                .collect();
            let question = format!("Undo: put back the flag of {} transaction(s)?", back.len());
            let nothing = back
                .is_empty()
                .then(|| "Every flag changed since: left alone.".to_string());
            (Revert::Flags { back }, reverts, question, nothing)
        }
        "payee" => {
            let d = &op.details;
            let payee_id = d
                .get("payee_id")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let from = d.get("from").and_then(Value::as_str).unwrap_or_default();
            let to = d.get("to").and_then(Value::as_str).unwrap_or_default();
            let current = plan.payees.iter().find(|p| p.id == payee_id && !p.deleted);
            if current.is_none_or(|p| p.name != to) {
                conflicts.push(payee_id.to_string());
            }
            let reverts =
                vec![json!({"payee_id": payee_id, "name_before": to, "name_after": from})];
            let question = format!("Undo: name the payee ‘{}’ again?", safe(from));
            let nothing = (!conflicts.is_empty())
                .then(|| "The payee was renamed since: left alone.".to_string());
            (
                Revert::Payee {
                    payee_id: payee_id.to_string(),
                    name: from.to_string(),
                },
                reverts,
                question,
                nothing,
            )
        }
        "reconcile" => {
            let ids = string_list(&op.details, "reconciled_ids");
            let adjustment = op
                .details
                .get("adjustment_id")
                .and_then(Value::as_str)
                .map(str::to_string);
            let mut to_clear = Vec::new();
            for id in ids {
                let reconciled = plan
                    .transactions
                    .iter()
                    .any(|t| t.id == id && !t.deleted && t.cleared == "reconciled");
                if reconciled {
                    to_clear.push(id);
                } else {
                    conflicts.push(id);
                }
            }
            let adjustment = match adjustment {
                // A reconciliation interrupted after its adjustment: recognised by digest (D31).
                None if from_intent => super::create::recover(context, &plan_id, &op.details)
                    .await?
                    .into_iter()
                    .next(),
                known => known,
            };
            let adjustment =
                adjustment.filter(|a| plan.transactions.iter().any(|t| &t.id == a && !t.deleted));
            let reverts: Vec<Value> = to_clear
                .iter()
                .map(|id| json!({"transaction_id": id, "cleared_before": "reconciled", "cleared_after": "cleared"}))
                .chain(adjustment.iter().map(|a| json!({"delete": a})))
                .collect();
            let n = to_clear.len();
            let question = if adjustment.is_some() {
                format!(
                    "Undo reconciliation: mark {n} transaction(s) back to cleared and delete the balance adjustment?"
                )
            } else {
                format!("Undo reconciliation: mark {n} transaction(s) back to cleared?")
            };
            let nothing = (to_clear.is_empty() && adjustment.is_none())
                .then(|| "Every transaction changed since: left alone.".to_string());
            (
                Revert::Reconcile {
                    to_clear: to_clear
                        .into_iter()
                        .filter(|id| Some(id) != adjustment.as_ref())
                        .collect(),
                    adjustment,
                },
                reverts,
                question,
                nothing,
            )
        }
        "category" => {
            let d = &op.details;
            let text = |key: &str| {
                d.get(key)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            let category_id = text("category_id");
            let (name_before, group_before) = (text("name_before"), text("group_before"));
            let (name_after, group_after) = (text("name_after"), text("group_after"));
            let current = plan.categories.iter().find(|c| c.id == category_id);
            if changed_since(current, &name_after, &group_after) {
                conflicts.push(category_id.clone());
            }
            let group_name = plan
                .category_groups
                .iter()
                .find(|g| g.id == group_before)
                .map(|g| safe(&g.name))
                .unwrap_or_default();
            let question = format!(
                "Undo: name the category ‘{}’ ‘{}’ in {group_name} again?",
                safe(&name_after),
                safe(&name_before)
            );
            let reverts = vec![json!({"category_id": category_id,
                "name_before": name_after, "group_before": group_after,
                "name_after": name_before, "group_after": group_before})];
            let nothing = (!conflicts.is_empty())
                .then(|| "The category changed since: left alone.".to_string());
            (
                Revert::Category {
                    category_id,
                    name_now: name_after,
                    group_now: group_after,
                    name_back: name_before,
                    group_back: group_before,
                },
                reverts,
                question,
                nothing,
            )
        }
        "target" => {
            let d = &op.details;
            let category_id = d
                .get("category_id")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let after = d.get("after").and_then(Value::as_str).unwrap_or_default();
            let Some(fields) = d.get("undo").filter(|u| u.is_object()).cloned() else {
                return Err(format!(
                    "Operation {} (target) cannot be undone here: the journal holds no way to bring the previous target back; set it in YNAB.",
                    op.operation_id
                ));
            };
            let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
            let current = plan
                .categories
                .iter()
                .find(|c| c.id == category_id && index.is_visible(&c.id));
            let now = current.map(|c| crate::logic::targets::describe(c, &fmt));
            if now.as_deref() != Some(after) {
                conflicts.push(category_id.clone());
            }
            let name = current.map(|c| safe(&c.name)).unwrap_or_default();
            let question = format!("Undo: set the target of {name} back?");
            let reverts = vec![json!({"category_id": category_id, "target_before": now,
                                      "fields": fields})];
            let nothing = (!conflicts.is_empty())
                .then(|| "The target changed since: left alone.".to_string());
            (
                Revert::Target {
                    category_id,
                    fields,
                },
                reverts,
                question,
                nothing,
            )
        }
        _ => {
            // "approve"
            let ids: Vec<String> = op
                .details
                .get("transaction_ids")
                .and_then(|v| serde_json::from_value(v.clone()).ok())
                .unwrap_or_default();
            let mut still = Vec::new();
            for id in ids {
                if plan
                    .transactions
                    .iter()
                    .any(|t| t.id == id && !t.deleted && t.approved)
                {
                    still.push(id);
                } else {
                    conflicts.push(id);
                }
            }
            let reverts: Vec<Value> = still
                .iter()
                .map(|id| json!({"transaction_id": id, "approved_before": true, "approved_after": false}))
                .collect();
            let question = format!(
                "Undo: mark {} transaction(s) unapproved again?",
                still.len()
            );
            let nothing = still
                .is_empty()
                .then(|| "Every transaction changed since: left alone.".to_string());
            (
                Revert::Approve {
                    transaction_ids: still,
                },
                reverts,
                question,
                nothing,
            )
        }
    };
    finish(
        op,
        revert,
        conflicts,
        unfinished,
        from_intent,
        reverts,
        question,
        nothing,
        plan_id,
    )
}

/// The undo's result for a computed revert: `nothing_to_do`, or the change to confirm.
#[allow(clippy::too_many_arguments)]
fn finish(
    op: Operation,
    revert: Revert,
    conflicts: Vec<String>,
    unfinished: Vec<Value>,
    from_intent: bool,
    reverts: Vec<Value>,
    question: String,
    nothing: Option<String>,
    plan_id: String,
) -> Result<Prepared<UndoChange>, String> {
    let change = UndoChange {
        operation_id: op.operation_id.clone(),
        kind: op.kind.clone(),
        revert,
        conflicts,
        unfinished,
        from_intent,
    };
    if let Some(message) = nothing {
        let value = undo_result(&change, WriteStatus::NothingToDo, message, None);
        return Ok(Prepared::NothingToDo { value, plan_id });
    }
    let subject = json!({"undo": op.operation_id, "reverts": order_free(reverts)});
    Ok(Prepared::Change(Proposal {
        plan_id,
        subject,
        question,
        change,
    }))
}
