//! Undoing an `update` (`update_transactions`): each field still as the operation set it is put
//! back; one changed since is a conflict, left alone and named. The record keeps each
//! transaction's fields by YNAB's key ([`super::fields`]).

use super::fields::{FieldEdit, FieldRecord, Standing, edits, payee_name};
use super::per_kind::{Entry, Planned, Reads, UndoKind};
use super::record::from_details;
use super::{Applied, Refusal, Revert, UndoPlan, live_transaction};
use crate::logic::names::PlanNames;
use crate::logic::updates::Field;
use crate::money::MoneyFormat;
use crate::text::safe;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use ynab::models::PlanDetail;

/// An `update`'s record: each transaction's fields, and the salt of any digest in them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Updated {
    pub changes: Vec<TransactionFields>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest_salt: Option<String>,
}

/// One transaction of an [`Updated`]: its fields by key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TransactionFields {
    pub transaction_id: String,
    pub fields: BTreeMap<Field, FieldRecord>,
}

/// The fields of one transaction an `update` operation changed, in the order questions list them.
#[derive(Debug, Clone, PartialEq)]
pub struct TransactionEdit {
    pub transaction_id: String,
    pub fields: Vec<FieldEdit<Field>>,
}

impl Updated {
    /// The edits recorded, and the salt; a field holding neither value nor digest is refused.
    pub fn edits(self) -> Result<(Vec<TransactionEdit>, Option<String>), Refusal> {
        let changes = self
            .changes
            .into_iter()
            .enumerate()
            .map(|(i, change)| {
                Ok(TransactionEdit {
                    transaction_id: change.transaction_id,
                    fields: edits(change.fields, &format!("changes.{i}.fields"))?,
                })
            })
            .collect::<Result<_, Refusal>>()?;
        Ok((changes, self.digest_salt))
    }
}

/// An `update`, as undo reads it: each transaction's field edits, and the salt of any digest.
#[derive(Debug, Clone, PartialEq)]
pub struct UpdateDetails {
    pub edits: Vec<TransactionEdit>,
    pub digest_salt: Option<String>,
}

impl UndoKind for UpdateDetails {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "Previous values restored.";

    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        let (edits, digest_salt) = from_details::<Updated>(entry.details)?.edits()?;
        Ok(UpdateDetails { edits, digest_salt })
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let (plan, fmt, applied) = (reads.plan(), reads.fmt(), reads.applied());
        let salt = self.digest_salt.as_deref();
        Ok(update(&self.edits, salt, plan, fmt, applied).into())
    }
}

/// A transaction's fields put back by the undo of an `update`: (field, value now, value put
/// back), with the transaction as the question shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct UpdateBack {
    pub transaction_id: String,
    pub fields: Vec<(crate::logic::updates::Field, Value, Value)>,
    /// `- {date} {payee} {amount}: {field} {now} → {back}; …`
    pub line: String,
}

/// An `update` undo's line for one transaction: `- {date} {payee} {amount}: {field} {now} → {back}; …`.
fn update_line(
    t: &ynab::models::TransactionSummary,
    fields: &[(crate::logic::updates::Field, Value, Value)],
    plan: &PlanDetail,
    fmt: &MoneyFormat,
    names: &PlanNames,
) -> String {
    use crate::logic::updates::shown;
    let shown_fields: Vec<String> = fields
        .iter()
        .map(|(field, now, to)| {
            format!(
                "{} {} → {}",
                field.label(),
                shown(plan, fmt, *field, now),
                shown(plan, fmt, *field, to)
            )
        })
        .collect();
    format!(
        "- {} {} {}: {}",
        t.date,
        safe(names.payee(t.payee_id.as_deref())),
        fmt.plain(t.amount),
        shown_fields.join("; ")
    )
}

/// `update`: put back each field still as the operation set it; a field changed since is left
/// alone and named in the conflicts (`{transaction_id} {field}`). Read from an intent, a date,
/// amount or memo is known by digest only (D31): found as the operation set it, it cannot be put
/// back from there and is a conflict too.
pub fn update(
    edits: &[TransactionEdit],
    salt: Option<&str>,
    plan: &PlanDetail,
    fmt: &MoneyFormat,
    applied: Applied,
) -> UndoPlan {
    use crate::logic::updates::{payee_name_digest, value_digest, value_of};
    let names = PlanNames::new(plan);
    let (mut back, mut conflicts, mut untouched) = (Vec::new(), Vec::new(), Vec::new());
    for edit in edits {
        let id = &edit.transaction_id;
        let Some(t) = live_transaction(plan, id) else {
            conflicts.push(id.clone());
            continue;
        };
        let mut fields = Vec::new();
        let mut before = false;
        for f in &edit.fields {
            let current = value_of(t, f.field);
            let payee =
                || payee_name(plan, t.payee_id.as_deref()).map(|n| payee_name_digest(salt, n));
            match f.standing(&current, |v| value_digest(salt, f.field, v), payee, applied) {
                Standing::Back(from) => fields.push((f.field, current, from)),
                Standing::Before => before = true,
                Standing::Changed => conflicts.push(format!("{id} {}", f.field.label())),
            }
        }
        if before && fields.is_empty() {
            untouched.push(id.clone());
        }
        if fields.is_empty() {
            continue;
        }
        let line = update_line(t, &fields, plan, fmt, &names);
        back.push(UpdateBack {
            transaction_id: id.clone(),
            fields,
            line,
        });
    }
    let reverts = back
        .iter()
        .map(|b| {
            json!({"transaction_id": b.transaction_id, "fields": b.fields.iter()
                .map(|(field, now, to)| (field.key().to_string(), json!([now, to])))
                .collect::<serde_json::Map<String, Value>>()})
        })
        .collect();
    let count: usize = back.iter().map(|b| b.fields.len()).sum();
    let question = format!(
        "Undo: put back {count} value(s) of {} transaction(s)?",
        back.len()
    );
    let lines = back.iter().map(|b| b.line.clone()).collect();
    let empty = back.is_empty();
    let mut plan = UndoPlan::new(Revert::Update { back }, conflicts, reverts, question)
        .nothing_when(empty, "Every value changed since: left alone.")
        .untouched(untouched);
    plan.lines = lines;
    plan
}
