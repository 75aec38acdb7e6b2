//! `update_scheduled_transaction` (`docs/writes/scheduled_transactions.md`): change the next
//! date, frequency, amount, payee, category, memo, account or flag of one scheduled transaction
//! in one confirmed, undoable step. YNAB's update is a `PUT` of the whole schedule: the schedule
//! as read, its changes merged in.

use super::scheduled_writes::{FieldArgs, asked_of};
use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::{Date, MemberText, Money};
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written,
};
use crate::context::Context;
use crate::logic::names::PlanNames;
use crate::logic::schedules::{
    FieldChange, ScheduleAsked, describe, live_schedule, payee_name_digest, plan_update, save_of,
    set_field, shown, value_digest,
};
use crate::logic::undo::fields::FieldRecord;
use crate::logic::undo::record::to_details;
use crate::logic::undo::schedules::ScheduleUpdated;
use crate::money::MoneyFormat;
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::writes::ScheduleSave;

/// `update_scheduled_transaction`, its arguments read.
#[derive(Debug, Clone)]
pub struct UpdateScheduledTransaction {
    today: NaiveDate,
    id: String,
    asked: ScheduleAsked,
}

crate::tool_args! {
    /// The arguments of `update_scheduled_transaction`.
    pub struct UpdateScheduledArgs {
        pub plan_id: Option<PlanId>,
        /// From list_scheduled_transactions.
        #[give = "a scheduled_transaction_id from list_scheduled_transactions"]
        pub scheduled_transaction_id: String,
        /// The next one: after today, within five years.
        pub date: Option<Date>,
        /// YNAB's: never (once), weekly, everyOtherWeek, monthly, yearly, etc.
        pub frequency: Option<String>,
        pub amount: Option<Money>,
        /// From list_payees.
        pub payee_id: Option<String>,
        /// Exact name; a new one is created.
        pub payee_name: Option<MemberText<1, 200>>,
        /// Makes it a transfer to this account.
        pub transfer_account_id: Option<String>,
        /// From get_category_balances; "none" removes it.
        pub category_id: Option<String>,
        /// "" removes it.
        pub memo: Option<MemberText<0, 500>>,
        /// Moves it there.
        pub account_id: Option<String>,
        /// red, orange, yellow, green, blue, purple, or none.
        pub flag: Option<String>,
    }
}

// One field that changes, as the answer shows it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ScheduleFieldEntry {
    pub field: &'static str,
    pub from: String,
    pub to: String,
}

// The fields of `update_scheduled_transaction`'s answer, whatever its status.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ScheduleUpdateDetails {
    pub scheduled_transaction_id: String,
    /// The schedule as it was: next date, payee, amount, frequency.
    pub schedule: String,
    pub account: String,
    pub changes: Vec<ScheduleFieldEntry>,
}

/// What `update_scheduled_transaction` proposes.
#[derive(Debug, Clone)]
pub struct ScheduleUpdating {
    id: String,
    schedule: String,
    account: String,
    fields: Vec<(FieldChange, ScheduleFieldEntry)>,
    /// The whole schedule as it is: what the `PUT` starts from.
    before: ScheduleSave,
}

impl ConfirmedTool for UpdateScheduledTransaction {
    const TITLE: &'static str = "Update a scheduled transaction";
    const IDEMPOTENT: bool = true;
    const DESTRUCTIVE: bool = true;
    type Args = UpdateScheduledArgs;
    type Details = ScheduleUpdateDetails;

    fn description(_writes: bool) -> String {
        "Change one scheduled transaction, giving only the fields to change. Refused: a split \
schedule, a credit-card payment category, a category on a transfer between budget accounts. The \
user sees each field before → after and confirms. undo_operation reverts it."
            .to_string()
    }

    fn from_args(args: UpdateScheduledArgs, today: NaiveDate) -> Result<Self, ToolError> {
        let asked = asked_of(FieldArgs {
            date: args.date.map(|d| d.0.format("%Y-%m-%d").to_string()),
            frequency: args.frequency,
            amount: args.amount.map(|m| m.0),
            payee_id: args.payee_id,
            payee_name: args.payee_name.map(|n| n.0),
            transfer_account_id: args.transfer_account_id,
            category_id: args.category_id,
            memo: args.memo.map(|m| m.0),
            account_id: args.account_id,
            flag: args.flag,
        })?;
        if asked.asks_nothing() {
            return Err(format!(
                "The update of scheduled transaction {} changes nothing: give at least one of date, frequency, amount, payee_id, payee_name, transfer_account_id, category_id, memo, account_id or flag.",
                args.scheduled_transaction_id
            )
            .into());
        }
        Ok(UpdateScheduledTransaction {
            today,
            id: args.scheduled_transaction_id,
            asked,
        })
    }
}

impl ConfirmedWrite for UpdateScheduledTransaction {
    type Change = ScheduleUpdating;
    const TOOL: &'static str = "update_scheduled_transaction";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::ScheduleUpdate;
    const APPLIED: &'static str = "Updated.";
    const UNDO: Undoable = Undoable::Yes("puts back every value not changed since");

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<ScheduleUpdating>, ToolError> {
        let plan = &snapshot.plan;
        let fmt = MoneyFormat::of(plan.currency_format.as_ref());
        let s = live_schedule(plan, &self.id)?;
        let schedule = describe(plan, &fmt, s);
        let who = format!("Scheduled transaction {} ({schedule})", s.id);
        let changes = plan_update(&self.asked, s, plan, self.today, &who)?;
        let names = PlanNames::new(plan);
        let change = ScheduleUpdating {
            id: s.id.clone().into(),
            schedule,
            account: safe(names.account(&s.account_id)),
            fields: changes
                .into_iter()
                .map(|c| {
                    let entry = ScheduleFieldEntry {
                        field: c.field.label(),
                        from: shown(plan, &fmt, c.field, &c.from),
                        to: match &c.new_payee {
                            Some(name) => format!("‘{}’ (a new payee)", safe(name)),
                            None => shown(plan, &fmt, c.field, &c.to),
                        },
                    };
                    (c, entry)
                })
                .collect(),
            before: save_of(s),
        };
        if change.fields.is_empty() {
            return Ok(self.nothing_to_do(
                &change,
                "The scheduled transaction is already as asked.",
                snapshot.id(),
            ));
        }
        let question = crate::confirm::question(
            format!(
                "Change the scheduled transaction {} ({})?",
                change.schedule, change.account
            ),
            change
                .fields
                .iter()
                .map(|(_, e)| format!("- {} {} → {}", e.field, e.from, e.to))
                .collect(),
        );
        // The whole schedule as read (a PUT replaces every field: a change to any of them in
        // between is stale, D4), and the changes.
        let subject = json!({"update_schedule": change.id, "before": change.before,
            "changes": change.fields.iter().map(|(c, _)| {
                let to = match &c.new_payee {
                    Some(name) => json!({"new_payee": name}),
                    None => c.to.clone(),
                };
                (c.field.key().to_string(), json!([c.from, to]))
            }).collect::<serde_json::Map<String, Value>>()});
        Ok(Prepared::change(snapshot.id(), subject, question, change))
    }

    /// D31: ids, frequency, flag in clear; the date, amount and memo, and a new payee's name,
    /// only as digests salted at random.
    fn intent_details(&self, change: &ScheduleUpdating) -> Value {
        let salt = crate::random::hex::<16>();
        let fields = change
            .fields
            .iter()
            .map(|(c, _)| {
                let entry = if c.field.is_private() {
                    FieldRecord::digests(
                        value_digest(Some(&salt), c.field, &c.from),
                        value_digest(Some(&salt), c.field, &c.to),
                    )
                } else {
                    field_entry(c, &salt, None)
                };
                (c.field, entry)
            })
            .collect();
        to_details(&ScheduleUpdated {
            scheduled_transaction_id: change.id.clone(),
            fields,
            digest_salt: Some(salt),
        })
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<ScheduleUpdating>,
    ) -> Result<Written<ScheduleUpdating>, WriteFailure> {
        let change = &proposal.change;
        let mut save = change.before.clone();
        for (c, _) in &change.fields {
            set_field(&mut save, c.field, &c.to, c.new_payee.as_deref());
        }
        let saved = context
            .plans
            .client()
            .update_scheduled_transaction(&proposal.plan_id, &change.id, &save)
            .await?;
        let salt = crate::random::hex::<16>();
        let created = saved.scheduled_transaction.payee_id.clone();
        let fields = change
            .fields
            .iter()
            .map(|(c, _)| (c.field, field_entry(c, &salt, created.clone())))
            .collect();
        let details = to_details(&ScheduleUpdated {
            scheduled_transaction_id: change.id.clone(),
            fields,
            digest_salt: Some(salt),
        });
        Ok(JournalDraft {
            details,
            ..JournalDraft::default()
        }
        .into())
    }

    fn details(&self, change: &ScheduleUpdating) -> ScheduleUpdateDetails {
        ScheduleUpdateDetails {
            scheduled_transaction_id: change.id.clone(),
            schedule: change.schedule.clone(),
            account: change.account.clone(),
            changes: change.fields.iter().map(|(_, e)| e.clone()).collect(),
        }
    }
}

/// A field's journal entry `{"from", "to"}`; a new payee's `to` is the id YNAB gave it
/// (`created`, null when unknown yet), with the salted digest of its name (D31).
fn field_entry(c: &FieldChange, salt: &str, created: Option<String>) -> FieldRecord {
    match &c.new_payee {
        Some(name) => FieldRecord::new_payee(&c.from, created, payee_name_digest(Some(salt), name)),
        None => FieldRecord::clear(&c.from, &c.to),
    }
}
