//! `update_transactions` (`docs/writes/update_transactions.md`): change the date, amount, payee,
//! category, memo, account, cleared, approved or flag of up to 100 transactions in one confirmed,
//! undoable step.

use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::{Date, MemberText, Money};
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written,
};
use crate::context::Context;
use crate::digest::order_free;
use crate::logic::flags::COLOURS;
use crate::logic::names::PlanNames;
use crate::logic::undo::fields::FieldRecord;
use crate::logic::undo::record::to_details;
use crate::logic::undo::update::{TransactionFields, Updated as UpdatedRecord};
use crate::logic::updates::{
    Field, FieldChange, PayeeAsked, UpdateAsked, payee_name_digest, plan_updates, shown,
    value_digest,
};
use crate::money::{Amount, MoneyFormat};
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::models::Milliunits;
use ynab::writes::TransactionUpdate;

const MAX_PAYEE: usize = 200;
const MAX_MEMO: usize = 500;

/// The arguments of `update_transactions`.
#[derive(Debug, Clone)]
pub struct UpdateTransactions {
    today: String,
    updates: Vec<UpdateAsked>,
}

crate::tool_args! {
    /// The arguments of `update_transactions`.
    pub struct UpdateTransactionsArgs {
        pub plan_id: Option<PlanId>,
        #[give = "a list of {transaction_id, and the fields to change}"]
        pub updates: Vec<UpdateEntry>,
    }
}

crate::tool_args! {
    // One entry of `updates`. (A plain comment: a doc comment would become its schema's description.)
    pub struct UpdateEntry {
        /// From find_transactions.
        #[give = "a transaction id from find_transactions"]
        pub transaction_id: String,
        /// Today or earlier.
        pub date: Option<Date>,
        pub amount: Option<Money>,
        /// From list_payees.
        pub payee_id: Option<String>,
        /// Exact name; a new one is created.
        pub payee_name: Option<MemberText<1, MAX_PAYEE>>,
        /// From get_category_balances.
        pub category_id: Option<String>,
        /// "" removes it.
        pub memo: Option<MemberText<0, MAX_MEMO>>,
        /// Moves it there.
        pub account_id: Option<String>,
        /// cleared or uncleared.
        pub cleared: Option<String>,
        pub approved: Option<bool>,
        /// red, orange, yellow, green, blue, purple, or none.
        pub flag: Option<String>,
    }
}

// One field of a transaction that changes, as the answer shows it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FieldChangeEntry {
    pub field: &'static str,
    pub from: String,
    pub to: String,
}

// One transaction that changes, as the answer shows it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct UpdateChangeEntry {
    pub transaction_id: String,
    pub date: String,
    pub payee: String,
    pub amount: Amount,
    pub account: String,
    pub fields: Vec<FieldChangeEntry>,
}

// The fields of `update_transactions`' answer, whatever its status.
#[derive(Debug, Serialize, JsonSchema)]
pub struct UpdateDetails {
    pub changes: Vec<UpdateChangeEntry>,
    /// Transactions that were already as asked.
    pub unchanged_count: usize,
}

/// One field that changes, with both values as the question shows them (safe text).
#[derive(Debug, Clone)]
pub struct ShownField {
    pub change: FieldChange,
    pub from: String,
    pub to: String,
}

/// One transaction that changes.
#[derive(Debug, Clone)]
pub struct Updated {
    pub transaction_id: String,
    pub date: String,
    pub amount: Milliunits,
    pub payee: String,
    pub account: String,
    pub fields: Vec<ShownField>,
}

impl Updated {
    fn record(&self) -> UpdateChangeEntry {
        UpdateChangeEntry {
            transaction_id: self.transaction_id.clone(),
            date: self.date.clone(),
            payee: self.payee.clone(),
            amount: Amount(self.amount),
            account: self.account.clone(),
            fields: self
                .fields
                .iter()
                .map(|f| FieldChangeEntry {
                    field: f.change.field.label(),
                    from: f.from.clone(),
                    to: f.to.clone(),
                })
                .collect(),
        }
    }

    /// `- {date} {payee} {amount} ({account}): {field} {from} → {to}; …` — one line, bank text
    /// inside it, never a line of its own.
    fn line(&self, fmt: &MoneyFormat) -> String {
        let fields: Vec<String> = self
            .fields
            .iter()
            .map(|f| format!("{} {} → {}", f.change.field.label(), f.from, f.to))
            .collect();
        format!(
            "- {} {} {} ({}): {}",
            self.date,
            self.payee,
            fmt.plain(self.amount),
            self.account,
            fields.join("; ")
        )
    }
}

/// What `update_transactions` proposes.
#[derive(Debug, Clone)]
pub struct Updating {
    pub changes: Vec<Updated>,
    pub unchanged_count: usize,
}

impl ConfirmedTool for UpdateTransactions {
    const TITLE: &'static str = "Update transactions";
    const IDEMPOTENT: bool = true;
    const DESTRUCTIVE: bool = true;
    type Args = UpdateTransactionsArgs;
    type Details = UpdateDetails;

    fn description(_writes: bool) -> String {
        "Change up to 100 transactions, giving only the fields to change. Refused: a split's \
amount, date or category; a category on a transfer between budget accounts. The user sees each \
change and confirms. undo_operation reverts it."
            .to_string()
    }

    fn from_args(args: UpdateTransactionsArgs, today: NaiveDate) -> Result<Self, ToolError> {
        let mut updates = Vec::with_capacity(args.updates.len());
        for (i, entry) in args.updates.into_iter().enumerate() {
            let id = entry.transaction_id;
            let payee = match (entry.payee_id, entry.payee_name) {
                (Some(_), Some(_)) => {
                    return Err(format!(
                        "updates.{i}: give payee_id or payee_name for transaction {id}, not both."
                    )
                    .into());
                }
                (Some(payee_id), None) => Some(PayeeAsked::Id(payee_id)),
                (None, Some(name)) => Some(PayeeAsked::Name(name.0)),
                (None, None) => None,
            };
            let cleared = match entry.cleared.as_deref() {
                None => None,
                Some(c @ ("cleared" | "uncleared")) => Some(c.to_string()),
                Some("reconciled") => {
                    return Err(format!(
                        "updates.{i}.cleared: reconciled is set by reconcile_account, against the bank's balance; give 'cleared' or 'uncleared'."
                    )
                    .into());
                }
                Some(other) => {
                    return Err(format!(
                        "updates.{i}.cleared must be 'cleared' or 'uncleared', got {}.",
                        crate::text::quoted(other)
                    )
                    .into());
                }
            };
            let flag = match entry.flag.as_deref() {
                None => None,
                Some("none") => Some(None),
                Some(colour) => match COLOURS.iter().copied().find(|c| *c == colour) {
                    Some(c) => Some(Some(c)),
                    None => {
                        return Err(format!(
                            "updates.{i}.flag must be 'red', 'orange', 'yellow', 'green', 'blue', 'purple' or 'none', got {}.",
                            crate::text::quoted(colour)
                        )
                        .into());
                    }
                },
            };
            updates.push(UpdateAsked {
                transaction_id: id,
                date: entry.date.map(|d| d.0.format("%Y-%m-%d").to_string()),
                amount: entry.amount.map(|m| m.0),
                payee,
                category_id: entry.category_id,
                memo: entry.memo.map(|m| Some(m.0).filter(|m| !m.is_empty())),
                account_id: entry.account_id,
                cleared,
                approved: entry.approved,
                flag,
            });
        }
        let today = today.format("%Y-%m-%d").to_string();
        crate::logic::updates::check_request(&updates, &today)?;
        Ok(UpdateTransactions { today, updates })
    }
}

impl ConfirmedWrite for UpdateTransactions {
    type Change = Updating;
    const TOOL: &'static str = "update_transactions";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::Update;
    const APPLIED: &'static str = "Updated.";
    const UNDO: Undoable = Undoable::Yes("puts back every value not changed since");

    fn items(&self, change: &Updating) -> usize {
        change.changes.len()
    }

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<Updating>, ToolError> {
        let plan = &snapshot.plan;
        let fmt = MoneyFormat::of(plan.currency_format.as_ref());
        let names = PlanNames::new(plan);
        let describe = |t: &ynab::models::TransactionSummary| {
            format!(
                "{} {} {}",
                t.date,
                safe(names.payee(t.payee_id.as_deref())),
                fmt.plain(t.amount)
            )
        };
        let planned = plan_updates(&self.updates, plan, &self.today, &describe)?;
        let change = Updating {
            changes: planned
                .changes
                .iter()
                .map(|c| Updated {
                    transaction_id: c.transaction.id.clone().into(),
                    date: c.transaction.date.clone().into(),
                    amount: c.transaction.amount,
                    payee: safe(names.payee(c.transaction.payee_id.as_deref())),
                    account: safe(names.account(&c.transaction.account_id)),
                    fields: c
                        .fields
                        .iter()
                        .map(|f| ShownField {
                            change: f.clone(),
                            from: shown(plan, &fmt, f.field, &f.from),
                            to: match &f.new_payee {
                                Some(name) => format!("‘{}’ (a new payee)", safe(name)),
                                None => shown(plan, &fmt, f.field, &f.to),
                            },
                        })
                        .collect(),
                })
                .collect(),
            unchanged_count: planned.unchanged_count,
        };
        if change.changes.is_empty() {
            return Ok(self.nothing_to_do(
                &change,
                "Every transaction is already as asked.",
                snapshot.id(),
            ));
        }
        let question = crate::confirm::question(
            format!("Change {} transaction(s)?", change.changes.len()),
            change.changes.iter().map(|c| c.line(&fmt)).collect(),
        );
        Ok(Prepared::change(
            snapshot.id(),
            subject(&change.changes),
            question,
            change,
        ))
    }

    /// D31: ids, flags, statuses in clear; a transaction's date, amount and memo, and a new
    /// payee's name, only as digests salted at random.
    fn intent_details(&self, change: &Updating) -> Value {
        let salt = crate::random::hex::<16>();
        let record = |c: &Updated| TransactionFields {
            transaction_id: c.transaction_id.clone(),
            fields: c
                .fields
                .iter()
                .map(|f| {
                    let f = &f.change;
                    let entry = if f.field.is_private() {
                        FieldRecord::digests(
                            value_digest(Some(&salt), f.field, &f.from),
                            value_digest(Some(&salt), f.field, &f.to),
                        )
                    } else {
                        field_entry(f, &salt, None)
                    };
                    (f.field, entry)
                })
                .collect(),
        };
        to_details(&UpdatedRecord {
            changes: change.changes.iter().map(record).collect(),
            digest_salt: Some(salt.clone()),
        })
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<Updating>,
    ) -> Result<Written<Updating>, WriteFailure> {
        let updates: Vec<TransactionUpdate> = proposal
            .change
            .changes
            .iter()
            .map(|c| update_of(&c.transaction_id, c.fields.iter().map(|f| &f.change)))
            .collect();
        let saved = context
            .plans
            .client()
            .update_transactions(&proposal.plan_id, &updates)
            .await?;
        let salt = crate::random::hex::<16>();
        let payee_of = |id: &str| {
            saved
                .transactions
                .iter()
                .find(|t| t.id == id)
                .and_then(|t| t.payee_id.clone())
        };
        let changes = proposal
            .change
            .changes
            .iter()
            .map(|c| TransactionFields {
                transaction_id: c.transaction_id.clone(),
                fields: c
                    .fields
                    .iter()
                    .map(|f| {
                        let created = payee_of(&c.transaction_id);
                        (f.change.field, field_entry(&f.change, &salt, created))
                    })
                    .collect(),
            })
            .collect();
        let details = to_details(&UpdatedRecord {
            changes,
            digest_salt: Some(salt),
        });
        Ok(JournalDraft {
            details,
            ..JournalDraft::default()
        }
        .into())
    }

    fn details(&self, change: &Updating) -> UpdateDetails {
        UpdateDetails {
            changes: change.changes.iter().map(Updated::record).collect(),
            unchanged_count: change.unchanged_count,
        }
    }
}

/// A field's journal entry: `{"from", "to"}`; a new payee's `to` is the id YNAB gave it
/// (`created`, null when unknown yet), with the digest of its name to recognise it (D31).
fn field_entry(f: &FieldChange, salt: &str, created: Option<String>) -> FieldRecord {
    match &f.new_payee {
        Some(name) => FieldRecord::new_payee(&f.from, created, payee_name_digest(Some(salt), name)),
        None => FieldRecord::clear(&f.from, &f.to),
    }
}

/// The PATCH item that sets `fields` of transaction `id` to their `to` values (a new payee by
/// name); only what changes is sent.
pub fn update_of<'a>(id: &str, fields: impl Iterator<Item = &'a FieldChange>) -> TransactionUpdate {
    let mut update = TransactionUpdate {
        id: id.to_string(),
        ..TransactionUpdate::default()
    };
    for f in fields {
        set_field(&mut update, f.field, &f.to, f.new_payee.as_deref());
    }
    update
}

/// Sets one field of a PATCH item to `value` (as the journal writes it).
pub fn set_field(
    update: &mut TransactionUpdate,
    field: Field,
    value: &Value,
    new_payee: Option<&str>,
) {
    let text = value.as_str().map(str::to_string);
    match field {
        Field::Date => update.date = text,
        Field::Amount => update.amount = value.as_i64(),
        Field::Payee => match new_payee {
            Some(name) => update.payee_name = Some(name.to_string()),
            None => update.payee_id = Some(text),
        },
        Field::Category => update.category_id = Some(text),
        Field::Memo => update.memo = Some(text),
        Field::Account => update.account_id = text,
        Field::Cleared => update.cleared = text,
        Field::Approved => update.approved = value.as_bool(),
        Field::Flag => update.flag_color = Some(text),
    }
}

/// D15: `{"updates": [[transaction_id, {field: [before, after]}], …]}`, an order-free list; a new
/// payee's after value is `{"new_payee": name}`.
fn subject(changes: &[Updated]) -> Value {
    json!({"updates": order_free(changes.iter().map(|c| json!([
        c.transaction_id,
        c.fields.iter().map(|f| {
            let to = match &f.change.new_payee {
                Some(name) => json!({"new_payee": name}),
                None => f.change.to.clone(),
            };
            (f.change.field.key().to_string(), json!([f.change.from, to]))
        }).collect::<serde_json::Map<String, Value>>()
    ])).collect())})
}
