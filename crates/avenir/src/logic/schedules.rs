//! Scheduled transactions changed, created and deleted (`docs/writes/scheduled_transactions.md`):
//! the checks YNAB would make (docs/contract/server.md §10.8: a date after today and at most five
//! years ahead, one of the 13 frequencies, no split schedule, no credit-card payment category, a
//! transfer's category), the fields that really change, the whole object a `PUT` sends (YNAB's
//! update is a replacement: the schedule as it is, its changes merged in), and each field's value
//! as the journal and the undo compare it.

use crate::logic::created::digest;
use crate::logic::flags::current_flag;
use crate::logic::names::{PlanNames, split_schedules};
use crate::money::MoneyFormat;
use crate::text::safe;
use chrono::{Months, NaiveDate};
use serde_json::{Value, json};
use ynab::models::{Milliunits, PlanDetail, ScheduledTransaction, ScheduledTransactionSummary};
use ynab::writes::ScheduleSave;

mod after;

use after::resolve;

/// YNAB's `ScheduledTransactionFrequency` values.
pub const FREQUENCIES: [&str; 13] = [
    "never",
    "daily",
    "weekly",
    "everyOtherWeek",
    "twiceAMonth",
    "every4Weeks",
    "monthly",
    "everyOtherMonth",
    "every3Months",
    "every4Months",
    "twiceAYear",
    "yearly",
    "everyOtherYear",
];

/// How far ahead YNAB takes a schedule's date.
const MONTHS_AHEAD: u32 = 60;

/// A field of a schedule these tools change, by the name YNAB's save gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SField {
    /// The next occurrence (`date_next`; the save's `date`).
    Date,
    Frequency,
    Amount,
    Payee,
    Category,
    Memo,
    Account,
    Flag,
}

/// Every field, in the order questions and journals list them.
pub const FIELDS: [SField; 8] = [
    SField::Date,
    SField::Frequency,
    SField::Amount,
    SField::Payee,
    SField::Category,
    SField::Memo,
    SField::Account,
    SField::Flag,
];

crate::logic::field_key::field_key!(SField, "a field of a schedule");

impl SField {
    /// The save's name of the field (the journal's key).
    pub fn key(self) -> &'static str {
        match self {
            SField::Date => "date",
            SField::Frequency => "frequency",
            SField::Amount => "amount",
            SField::Payee => "payee_id",
            SField::Category => "category_id",
            SField::Memo => "memo",
            SField::Account => "account_id",
            SField::Flag => "flag_color",
        }
    }

    /// The field read back from its journal key.
    pub fn from_key(key: &str) -> Option<SField> {
        FIELDS.into_iter().find(|f| f.key() == key)
    }

    /// The field as questions and answers name it (the argument's name).
    pub fn label(self) -> &'static str {
        match self {
            SField::Date => "date",
            SField::Frequency => "frequency",
            SField::Amount => "amount",
            SField::Payee => "payee",
            SField::Category => "category",
            SField::Memo => "memo",
            SField::Account => "account",
            SField::Flag => "flag",
        }
    }

    /// A date, amount or memo: an intent keeps it only as a salted digest (D31).
    pub fn is_private(self) -> bool {
        matches!(self, SField::Date | SField::Amount | SField::Memo)
    }
}

/// A field's value on a schedule, as the journal and the undo compare it (`null` for none).
pub fn value_of(s: &ScheduledTransactionSummary, field: SField) -> Value {
    match field {
        SField::Date => json!(s.date_next),
        SField::Frequency => json!(s.frequency),
        SField::Amount => json!(s.amount),
        SField::Payee => json!(s.payee_id),
        SField::Category => json!(s.category_id),
        SField::Memo => json!(s.memo.as_deref().filter(|m| !m.is_empty())),
        SField::Account => json!(s.account_id),
        SField::Flag => json!(current_flag(s.flag_color.as_deref())),
    }
}

/// The salted digest of a field's value (D31).
pub fn value_digest(salt: Option<&str>, field: SField, value: &Value) -> String {
    digest(salt, &json!([field.key(), value]))
}

/// The salted digest of a new payee's name.
pub fn payee_name_digest(salt: Option<&str>, name: &str) -> String {
    digest(salt, &json!(["payee_name", name]))
}

/// The payee asked for: an existing payee, one by name (found, or new), or the transfer payee
/// of an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayeeAsked {
    Id(String),
    Name(String),
    TransferTo(String),
}

/// The fields asked for: `None` leaves a field as it is (an update) or empty (a creation).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScheduleAsked {
    pub date: Option<String>,
    pub frequency: Option<String>,
    pub amount: Option<Milliunits>,
    pub payee: Option<PayeeAsked>,
    /// `Some(None)`: no category.
    pub category_id: Option<Option<String>>,
    /// `Some(None)`: no memo.
    pub memo: Option<Option<String>>,
    pub account_id: Option<String>,
    /// `Some(None)`: no flag.
    pub flag: Option<Option<&'static str>>,
}

impl ScheduleAsked {
    /// Whether nothing is asked.
    pub fn asks_nothing(&self) -> bool {
        *self == ScheduleAsked::default()
    }
}

/// One field that changes: its value before and after (as `value_of` gives them). `new_payee`
/// is set for a payee YNAB creates by name (its id is unknown: `to` is null).
#[derive(Debug, Clone, PartialEq)]
pub struct FieldChange {
    pub field: SField,
    pub from: Value,
    pub to: Value,
    pub new_payee: Option<String>,
}

/// The last date YNAB takes for a schedule.
pub fn latest_date(today: NaiveDate) -> NaiveDate {
    today
        .checked_add_months(Months::new(MONTHS_AHEAD))
        .unwrap_or(today)
}

/// A schedule's date as YNAB takes it: after today, at most five years ahead. `who` names the
/// schedule in the message.
pub fn check_date(who: &str, date: NaiveDate, today: NaiveDate) -> Result<(), String> {
    let latest = latest_date(today);
    if date <= today {
        return Err(format!(
            "{who}: the date {date} is not in the future, and YNAB schedules only future dates: give a date after today ({today}), at most {latest}."
        ));
    }
    if date > latest {
        return Err(format!(
            "{who}: the date {date} is more than five years ahead, which YNAB refuses: give a date no later than {latest}."
        ));
    }
    Ok(())
}

/// The frequency as YNAB names it, or the message listing the 13 values.
pub fn check_frequency(path: &str, frequency: &str) -> Result<(), String> {
    if FREQUENCIES.contains(&frequency) {
        return Ok(());
    }
    Err(format!(
        "{path} must be one of {}, got {}.",
        FREQUENCIES
            .iter()
            .map(|f| format!("'{f}'"))
            .collect::<Vec<_>>()
            .join(", "),
        crate::text::quoted(frequency)
    ))
}

/// A schedule as the question names it: `{date_next} {payee} {amount} {frequency}`.
pub fn describe(plan: &PlanDetail, fmt: &MoneyFormat, s: &ScheduledTransactionSummary) -> String {
    let names = PlanNames::new(plan);
    format!(
        "{} {} {} {}",
        s.date_next,
        safe(names.payee(s.payee_id.as_deref())),
        fmt.plain(s.amount),
        s.frequency
    )
}

/// The live schedule `id`, or the message pointing to `list_scheduled_transactions`.
pub fn live_schedule<'p>(
    plan: &'p PlanDetail,
    id: &str,
) -> Result<&'p ScheduledTransactionSummary, String> {
    plan.scheduled_transactions
        .iter()
        .find(|s| s.id == id && !s.deleted)
        .ok_or_else(|| {
            format!(
                "Scheduled transaction {id} is not in this plan: use a scheduled_transaction_id from list_scheduled_transactions."
            )
        })
}

/// Whether a schedule has live split lines (YNAB's API saves no split schedule).
pub fn is_split(plan: &PlanDetail, id: &str) -> bool {
    split_schedules(plan).contains(id)
}

/// The fields of schedule `s` an update changes (in [`FIELDS`] order), checked as YNAB would.
/// Empty: it is already as asked.
pub fn plan_update(
    asked: &ScheduleAsked,
    s: &ScheduledTransactionSummary,
    plan: &PlanDetail,
    today: NaiveDate,
    who: &str,
) -> Result<Vec<FieldChange>, String> {
    if is_split(plan, &s.id) {
        return Err(format!(
            "{who} is split: YNAB's API cannot save a split schedule, and a PUT would drop its lines; change it in YNAB."
        ));
    }
    let after = resolve(who, asked, Some(s), plan, today)?;
    let mut changes = Vec::new();
    for field in FIELDS {
        let from = value_of(s, field);
        let (to, new_payee) = match field {
            SField::Date => (json!(after.date), None),
            SField::Frequency => (json!(after.frequency), None),
            SField::Amount => (json!(after.amount), None),
            SField::Payee => (json!(after.payee_id), after.new_payee.clone()),
            SField::Category => (json!(after.category_id), None),
            SField::Memo => (json!(after.memo), None),
            SField::Account => (json!(after.account_id), None),
            SField::Flag => (json!(after.flag), None),
        };
        if from != to || new_payee.is_some() {
            changes.push(FieldChange {
                field,
                from,
                to,
                new_payee,
            });
        }
    }
    Ok(changes)
}

/// A new schedule, checked as YNAB would: the save to send.
pub fn plan_create(
    asked: &ScheduleAsked,
    plan: &PlanDetail,
    today: NaiveDate,
) -> Result<ScheduleSave, String> {
    let after = resolve("The new schedule", asked, None, plan, today)?;
    Ok(ScheduleSave {
        account_id: after.account_id,
        date: after.date,
        amount: after.amount,
        payee_id: after.payee_id,
        payee_name: after.new_payee,
        category_id: after.category_id,
        memo: after.memo,
        flag_color: after.flag,
        frequency: after.frequency,
    })
}

/// The whole schedule as it is (YNAB's save fields): what a `PUT` starts from.
pub fn save_of(s: &ScheduledTransactionSummary) -> ScheduleSave {
    ScheduleSave {
        account_id: s.account_id.clone().into(),
        date: s.date_next.clone().into(),
        amount: s.amount,
        payee_id: s.payee_id.clone().map(Into::into),
        payee_name: None,
        category_id: s.category_id.clone().map(Into::into),
        memo: (s.memo.clone().filter(|m| !m.is_empty())).map(Into::into),
        flag_color: current_flag(s.flag_color.as_deref()).map(str::to_string),
        frequency: s.frequency.clone().into(),
    }
}

/// A deleted schedule as a creation brings it back (YNAB's record of it: its tombstone).
pub fn recreation(s: &ScheduledTransaction) -> ScheduleSave {
    ScheduleSave {
        account_id: s.account_id.clone(),
        date: s.date_next.clone(),
        amount: s.amount,
        payee_id: s.payee_id.clone(),
        payee_name: None,
        category_id: s.category_id.clone(),
        memo: s.memo.clone().filter(|m| !m.is_empty()),
        flag_color: current_flag(s.flag_color.as_deref()).map(str::to_string),
        frequency: s.frequency.clone(),
    }
}

/// Sets one field of a save to `value` (as the journal writes it); a new payee by name.
pub fn set_field(save: &mut ScheduleSave, field: SField, value: &Value, new_payee: Option<&str>) {
    let text = value.as_str().map(str::to_string);
    match field {
        SField::Date => save.date = text.unwrap_or_default(),
        SField::Frequency => save.frequency = text.unwrap_or_default(),
        SField::Amount => save.amount = value.as_i64().unwrap_or_default(),
        SField::Payee => match new_payee {
            Some(name) => {
                save.payee_id = None;
                save.payee_name = Some(name.to_string());
            }
            None => {
                save.payee_id = text;
                save.payee_name = None;
            }
        },
        SField::Category => save.category_id = text,
        SField::Memo => save.memo = text,
        SField::Account => save.account_id = text.unwrap_or_default(),
        SField::Flag => save.flag_color = text,
    }
}

/// The salted digest (D31) of a save: what recognises an interrupted creation's schedule, or
/// an interrupted undo's recreation, among those changed since.
pub fn save_digest(salt: &str, save: &ScheduleSave) -> String {
    digest(
        Some(salt),
        &json!([
            save.account_id,
            save.date,
            save.amount,
            save.frequency,
            save.memo
        ]),
    )
}

/// Whether a live schedule is the one `save` made (its digest matches).
pub fn made_by(salt: &str, expected: &str, s: &ScheduledTransaction) -> bool {
    !s.deleted && save_digest(salt, &recreation(s)) == expected
}

/// How a field's value reads in a question: names for ids, quoted memos and payees, `none` for
/// nothing; every name made safe.
pub fn shown(plan: &PlanDetail, fmt: &MoneyFormat, field: SField, value: &Value) -> String {
    let names = PlanNames::new(plan);
    let text = value.as_str().unwrap_or_default();
    match (field, value) {
        (_, Value::Null) => "none".to_string(),
        (SField::Amount, v) => fmt.plain(v.as_i64().unwrap_or_default()),
        (SField::Payee, _) => format!("‘{}’", safe(names.payee(Some(text)))),
        (SField::Memo, _) => format!("‘{}’", safe(text)),
        (SField::Account, _) => safe(names.account(text)),
        (SField::Category, _) => match plan.categories.iter().find(|c| c.id == text) {
            Some(c) => safe(&c.name),
            None => safe(text),
        },
        _ => safe(text),
    }
}

#[cfg(test)]
mod tests;
