//! Undoing the three scheduled-transaction kinds (`docs/writes/scheduled_transactions.md`):
//! `schedule_update` puts back each field still as the operation set it (one `PUT` of the whole
//! schedule), `schedule_create` deletes the schedule it made, `schedule_delete` recreates the
//! deleted one from YNAB's record of it (its tombstone), with a new id.

use super::details::{Refusal, damaged};
use super::fields::{FieldEdit, FieldRecord, Standing, edits, payee_name};
use super::per_kind::{Entry, Planned, Reads, UndoKind};
use super::record::from_details;
use super::{Applied, UndoPlan};
use crate::logic::names::PlanNames;
use crate::logic::schedules::{
    SField, describe, made_by, payee_name_digest, recreation, save_of, set_field, shown,
    value_digest, value_of,
};
use crate::money::MoneyFormat;
use crate::text::safe;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use ynab::models::{PlanDetail, ScheduledTransaction, ScheduledTransactionSummary};
use ynab::writes::ScheduleSave;

/// One field of a schedule as a `schedule_update` changed it.
pub type ScheduleFieldEdit = FieldEdit<SField>;

/// A `schedule_update`'s record: the schedule, its fields by key, the salt of any digest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScheduleUpdated {
    pub scheduled_transaction_id: String,
    pub fields: BTreeMap<SField, FieldRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest_salt: Option<String>,
}

/// A `schedule_delete`'s record: the schedule, and the plan's knowledge before (its tombstone is
/// in the delta since).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduleDeleted {
    pub scheduled_transaction_id: String,
    pub server_knowledge: i64,
}

/// A `schedule_create`'s record: the id YNAB gave (a journal line), or, in an intent, the salted
/// digest of what was sent and the knowledge before, to recognise it among the schedules since.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduleCreated {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheduled_transaction_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_digest: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest_salt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_knowledge: Option<i64>,
}

/// A `schedule_update`, as undo reads it: the schedule and each field's edit.
#[derive(Debug, Clone, PartialEq)]
pub struct ScheduleEdit {
    pub scheduled_transaction_id: String,
    pub fields: Vec<ScheduleFieldEdit>,
    pub digest_salt: Option<String>,
}

/// The writes an undo of a schedule operation sends.
#[derive(Debug, Clone, PartialEq)]
pub enum ScheduleRevert {
    /// `PUT` the schedule whole with its fields put back.
    Put { id: String, save: ScheduleSave },
    /// `DELETE` the schedule a creation made.
    Delete { id: String },
    /// `POST` the deleted schedule again (a new id); `knowledge`: the plan's when read.
    Recreate {
        old_id: String,
        save: ScheduleSave,
        knowledge: i64,
    },
}

impl UndoKind for ScheduleEdit {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "The schedule's previous values are back.";

    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        let record: ScheduleUpdated = from_details(entry.details)?;
        Ok(ScheduleEdit {
            scheduled_transaction_id: record.scheduled_transaction_id,
            fields: edits(record.fields, "fields")?,
            digest_salt: record.digest_salt,
        })
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let (id, salt) = (&self.scheduled_transaction_id, self.digest_salt.as_deref());
        let (plan, fmt, applied) = (reads.plan(), reads.fmt(), reads.applied());
        Ok(update(id, &self.fields, salt, plan, fmt, applied).into())
    }
}

impl UndoKind for ScheduleDeleted {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "The deleted schedule is recreated, with a new id.";

    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        from_details(entry.details)
    }

    /// The deleted schedule's tombstone, in the delta since the delete (one request).
    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let changed = reads.schedules_since(self.server_knowledge).await?;
        let id = &self.scheduled_transaction_id;
        let tombstone = changed.iter().find(|s| &s.id == id);
        let current = (reads.plan(), reads.server_knowledge());
        let (fmt, applied) = (reads.fmt(), reads.applied());
        let today = reads.today();
        Ok(delete(id, (tombstone, &changed), current, today, fmt, applied).into())
    }
}

impl UndoKind for ScheduleCreated {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "The created schedule is deleted.";

    /// A journal line names the schedule; an intent may know it only by digest.
    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        let record: ScheduleCreated = from_details(entry.details)?;
        let by_digest = entry.from_intent && record.item_digest.is_some();
        if record.scheduled_transaction_id.is_none() && !by_digest {
            return Err(damaged("scheduled_transaction_id", "a string"));
        }
        Ok(record)
    }

    /// An intent's schedule is recognised among those changed since (one request).
    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let id = match (
            self.scheduled_transaction_id,
            self.item_digest,
            self.digest_salt,
        ) {
            (Some(id), _, _) => Some(id),
            (None, Some(digest), Some(salt)) => reads
                .schedules_since(self.server_knowledge.unwrap_or(0))
                .await?
                .into_iter()
                .find(|s| made_by(&salt, &digest, s))
                .map(|s| s.id),
            _ => None,
        };
        let (plan, fmt, applied) = (reads.plan(), reads.fmt(), reads.applied());
        Ok(create(id.as_deref(), plan, fmt, applied).into())
    }
}

fn live<'p>(plan: &'p PlanDetail, id: &str) -> Option<&'p ScheduledTransactionSummary> {
    plan.scheduled_transactions
        .iter()
        .find(|s| s.id == id && !s.deleted)
}

/// Each field put back as the question shows it: `{field} {now} → {back}`.
fn shown_fields(
    back: &[(crate::logic::schedules::SField, Value, Value)],
    plan: &PlanDetail,
    fmt: &MoneyFormat,
) -> Vec<String> {
    back.iter()
        .map(|(f, now, to)| {
            format!(
                "{} {} → {}",
                f.label(),
                shown(plan, fmt, *f, now),
                shown(plan, fmt, *f, to)
            )
        })
        .collect()
}

/// `schedule_update`: put back each field still as the operation set it; one changed since is
/// left alone and named (`{id} {field}`). Read from an intent, a date, amount or memo is known
/// by digest only (D31): found as the operation set it, it cannot be put back from there and is
/// a conflict too.
pub fn update(
    id: &str,
    edits: &[ScheduleFieldEdit],
    salt: Option<&str>,
    plan: &PlanDetail,
    fmt: &MoneyFormat,
    applied: Applied,
) -> UndoPlan {
    let nothing = |conflicts: Vec<String>, untouched: Vec<String>| {
        let revert = super::Revert::Schedule(ScheduleRevert::Put {
            id: id.to_string(),
            save: ScheduleSave::default(),
        });
        UndoPlan::new(revert, conflicts, Vec::new(), String::new())
            .nothing_when(true, "Every value changed since: left alone.")
            .untouched(untouched)
    };
    let Some(s) = live(plan, id) else {
        return nothing(vec![id.to_string()], Vec::new());
    };
    let (mut back, mut conflicts) = (Vec::new(), Vec::new());
    let mut before = false;
    for e in edits {
        let current = value_of(s, e.field);
        let payee = || payee_name(plan, s.payee_id.as_deref()).map(|n| payee_name_digest(salt, n));
        match e.standing(&current, |v| value_digest(salt, e.field, v), payee, applied) {
            Standing::Back(from) => back.push((e.field, current, from)),
            Standing::Before => before = true,
            Standing::Changed => conflicts.push(format!("{id} {}", e.field.label())),
        }
    }
    if back.is_empty() {
        let untouched = if before {
            vec![id.to_string()]
        } else {
            Vec::new()
        };
        return nothing(conflicts, untouched);
    }
    let mut save = save_of(s);
    for (field, _, to) in &back {
        set_field(&mut save, *field, to, None);
    }
    let shown_fields = shown_fields(&back, plan, fmt);
    let reverts = vec![json!({"scheduled_transaction_id": id, "fields": back
        .iter()
        .map(|(f, now, to)| (f.key().to_string(), json!([now, to])))
        .collect::<serde_json::Map<String, Value>>()})];
    let question = format!(
        "Undo: put back {} value(s) of the schedule {}?",
        back.len(),
        describe(plan, fmt, s)
    );
    let revert = super::Revert::Schedule(ScheduleRevert::Put {
        id: id.to_string(),
        save,
    });
    let mut planned = UndoPlan::new(revert, conflicts, reverts, question);
    planned.lines = vec![format!("- {}", shown_fields.join("; "))];
    planned
}

/// `schedule_create`: delete the schedule it made, if still there (`id` `None`: an interrupted
/// creation found nothing made).
pub fn create(
    id: Option<&str>,
    plan: &PlanDetail,
    fmt: &MoneyFormat,
    applied: Applied,
) -> UndoPlan {
    let found = id.and_then(|id| live(plan, id));
    let revert = super::Revert::Schedule(ScheduleRevert::Delete {
        id: id.unwrap_or_default().to_string(),
    });
    match found {
        Some(s) => {
            let question = format!(
                "Undo: delete the scheduled transaction {} on {} that was created?",
                describe(plan, fmt, s),
                safe(PlanNames::new(plan).account(&s.account_id))
            );
            UndoPlan::new(revert, Vec::new(), vec![json!({"delete": s.id})], question)
        }
        None => {
            let (conflicts, untouched) = match (id, applied) {
                (Some(id), Applied::Fully) => (vec![id.to_string()], Vec::new()),
                (Some(id), Applied::Partly) => (Vec::new(), vec![id.to_string()]),
                (None, _) => (Vec::new(), Vec::new()),
            };
            UndoPlan::new(revert, conflicts, Vec::new(), String::new())
                .nothing_when(
                    true,
                    "The created schedule is gone already: nothing to delete.",
                )
                .untouched(untouched)
        }
    }
}

/// The question of a deleted schedule's recreation: its date, payee, amount, frequency and account.
fn recreate_question(
    t: &ScheduledTransaction,
    save: &ScheduleSave,
    plan: &PlanDetail,
    fmt: &MoneyFormat,
) -> String {
    let names = PlanNames::new(plan);
    let payee = match t.payee_id.as_deref() {
        Some(p) => safe(names.payee(Some(p))),
        None => safe(t.payee_name.as_deref().unwrap_or_default()),
    };
    format!(
        "Undo: recreate the deleted scheduled transaction {} {payee} {} {} on {}? It comes back with a new id.",
        save.date,
        fmt.plain(save.amount),
        save.frequency,
        safe(names.account(&save.account_id))
    )
}

/// `schedule_delete`: recreate the schedule from YNAB's record of it (`tombstone`: the
/// schedule as the delta since the delete shows it). Still live: never deleted (a conflict on a
/// journal line, untouched when partly applied). Not shown deleted: a conflict. A date that has
/// passed since cannot be scheduled again: a conflict, named. Partly applied (an interrupted
/// undo, D14), a live schedule among `changed` (those changed since the delete) that is the
/// tombstone's recreation means that undo's POST landed: nothing is recreated twice.
pub fn delete(
    id: &str,
    (tombstone, changed): (Option<&ScheduledTransaction>, &[ScheduledTransaction]),
    (plan, knowledge): (&PlanDetail, i64),
    today: chrono::NaiveDate,
    fmt: &MoneyFormat,
    applied: Applied,
) -> UndoPlan {
    let nothing = |conflicts: Vec<String>, untouched: Vec<String>, message: &str| {
        let revert = super::Revert::Schedule(ScheduleRevert::Recreate {
            old_id: id.to_string(),
            save: ScheduleSave::default(),
            knowledge,
        });
        UndoPlan::new(revert, conflicts, Vec::new(), String::new())
            .nothing_when(true, message)
            .untouched(untouched)
    };
    if live(plan, id).is_some() {
        return if applied == Applied::Partly {
            nothing(
                Vec::new(),
                vec![id.to_string()],
                "The schedule was never deleted: nothing to recreate.",
            )
        } else {
            nothing(
                vec![id.to_string()],
                Vec::new(),
                "The schedule is in the plan: nothing to recreate.",
            )
        };
    }
    let Some(t) = tombstone.filter(|t| t.deleted && t.id == id) else {
        return nothing(
            vec![id.to_string()],
            Vec::new(),
            "Nothing to recreate: YNAB no longer shows the schedule deleted; left alone.",
        );
    };
    let save = recreation(t);
    let made = changed
        .iter()
        .any(|s| !s.deleted && s.id != id && recreation(s) == save);
    if applied == Applied::Partly && made {
        return nothing(
            Vec::new(),
            vec![id.to_string()],
            "Already recreated by its interrupted undo: nothing to undo.",
        );
    }
    let date_ok = chrono::NaiveDate::parse_from_str(&save.date, "%Y-%m-%d")
        .is_ok_and(|d| d > today && d <= crate::logic::schedules::latest_date(today));
    if !date_ok {
        return nothing(
            vec![id.to_string()],
            Vec::new(),
            &format!(
                "The deleted schedule's next date {} has passed, and YNAB schedules only future dates: create it again with create_scheduled_transaction and a new date.",
                save.date
            ),
        );
    }
    let question = recreate_question(t, &save, plan, fmt);
    let revert = super::Revert::Schedule(ScheduleRevert::Recreate {
        old_id: id.to_string(),
        save,
        knowledge,
    });
    UndoPlan::new(revert, Vec::new(), vec![json!({"recreate": id})], question)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fixtures::Fixture;
    use crate::logic::undo::Kind;

    fn fmt() -> MoneyFormat {
        MoneyFormat::default()
    }

    /// Checking with a monthly rent of −950.00 next on 2026-10-03, category Rent.
    fn plan() -> Fixture {
        let mut f = Fixture::new();
        f.account("a", "Checking", true);
        f.group("g", "Bills");
        f.category("c-rent", "g", "Rent");
        f.category("c-fun", "g", "Fun");
        f.schedule(
            "s",
            "2026-06-03",
            "2026-10-03",
            "monthly",
            -950_000,
            "a",
            "LANDLORD",
            Some("c-rent"),
        );
        f
    }

    fn parsed(details: Value, from_intent: bool) -> ScheduleEdit {
        let entry = Entry {
            details: &details,
            moves: Vec::new(),
            from_intent,
        };
        match ScheduleEdit::parse(entry) {
            Ok(d) => d,
            Err(e) => panic!("{e:?}"),
        }
    }

    #[test]
    fn an_update_puts_back_what_is_still_as_set_and_names_the_rest() {
        let mut f = plan();
        f.plan.scheduled_transactions[0].amount = -975_000;
        f.plan.scheduled_transactions[0].category_id = Some("c-rent".into());
        let ScheduleEdit {
            scheduled_transaction_id,
            fields,
            digest_salt,
        } = parsed(
            json!({"scheduled_transaction_id": "s", "digest_salt": "x", "fields": {
                "amount": {"from": -950_000, "to": -975_000},
                "category_id": {"from": "c-fun", "to": "c-food"}}}),
            false,
        );
        let undo = update(
            &scheduled_transaction_id,
            &fields,
            digest_salt.as_deref(),
            &f.plan,
            &fmt(),
            Applied::Fully,
        );
        assert_eq!(undo.conflicts, ["s category"], "the category changed since");
        assert_eq!(
            undo.question,
            "Undo: put back 1 value(s) of the schedule 2026-10-03 LANDLORD -975.00 monthly?"
        );
        assert_eq!(undo.lines, ["- amount -975.00 → -950.00"]);
        let super::super::Revert::Schedule(ScheduleRevert::Put { id, save }) = undo.revert else {
            panic!("a PUT")
        };
        assert_eq!(
            (id.as_str(), save.amount, save.category_id.as_deref()),
            ("s", -950_000, Some("c-rent"))
        );
        assert_eq!(save.date, "2026-10-03", "the whole schedule is sent");
    }

    #[test]
    fn an_intent_knows_an_amount_by_digest_only() {
        let mut f = plan();
        f.plan.scheduled_transactions[0].amount = -975_000;
        let salt = "salt";
        let digest =
            |v: Value| crate::logic::schedules::value_digest(Some(salt), SField::Amount, &v);
        let details = json!({"scheduled_transaction_id": "s", "digest_salt": salt, "fields": {
            "amount": {"from_digest": digest(json!(-950_000)), "to_digest": digest(json!(-975_000))}}});
        let ScheduleEdit { fields, .. } = parsed(details, true);
        let undo = update("s", &fields, Some(salt), &f.plan, &fmt(), Applied::Partly);
        assert_eq!(
            undo.conflicts,
            ["s amount"],
            "landed, but only its digest is known"
        );
        assert!(undo.nothing.is_some());
        f.plan.scheduled_transactions[0].amount = -950_000;
        let undo = update("s", &fields, Some(salt), &f.plan, &fmt(), Applied::Partly);
        assert_eq!(undo.untouched, ["s"], "never written");
        assert!(undo.conflicts.is_empty());
    }

    #[test]
    fn a_created_schedule_is_deleted_unless_gone() {
        let f = plan();
        let undo = create(Some("s"), &f.plan, &fmt(), Applied::Fully);
        assert_eq!(
            undo.revert,
            super::super::Revert::Schedule(ScheduleRevert::Delete { id: "s".into() })
        );
        assert_eq!(
            undo.question,
            "Undo: delete the scheduled transaction 2026-10-03 LANDLORD -950.00 monthly on Checking that was created?"
        );
        let gone = create(Some("gone"), &f.plan, &fmt(), Applied::Fully);
        assert_eq!(gone.conflicts, ["gone"]);
        assert!(gone.nothing.is_some());
        let never = create(None, &f.plan, &fmt(), Applied::Partly);
        assert!(never.nothing.is_some() && never.conflicts.is_empty());
    }

    fn tombstone(f: &Fixture, next: &str) -> ScheduledTransaction {
        let s = &f.plan.scheduled_transactions[0];
        ScheduledTransaction {
            id: s.id.clone().into(),
            date_first: s.date_first.clone().into(),
            date_next: next.into(),
            frequency: s.frequency.clone().into(),
            amount: s.amount,
            memo: Some("lease".into()),
            flag_color: Some("red".into()),
            flag_name: None,
            account_id: s.account_id.clone().into(),
            payee_id: s.payee_id.clone().map(Into::into),
            category_id: s.category_id.clone().map(Into::into),
            transfer_account_id: None,
            deleted: true,
            account_name: None,
            payee_name: None,
            category_name: None,
            subtransactions: Vec::new(),
        }
    }

    #[test]
    fn a_deleted_schedule_is_recreated_from_its_tombstone() {
        let f = plan();
        let today = chrono::NaiveDate::from_ymd_opt(2026, 9, 25).unwrap_or_default();
        let dead = tombstone(&f, "2026-10-03");
        let mut gone = plan();
        gone.plan.scheduled_transactions.clear();
        let undo = delete(
            "s",
            (Some(&dead), &[]),
            (&gone.plan, 7),
            today,
            &fmt(),
            Applied::Fully,
        );
        assert_eq!(undo.nothing, None);
        let super::super::Revert::Schedule(ScheduleRevert::Recreate {
            old_id,
            save,
            knowledge,
        }) = &undo.revert
        else {
            panic!("a recreation")
        };
        assert_eq!((old_id.as_str(), *knowledge), ("s", 7));
        assert_eq!(
            (
                save.date.as_str(),
                save.amount,
                save.memo.as_deref(),
                save.flag_color.as_deref(),
                save.frequency.as_str()
            ),
            (
                "2026-10-03",
                -950_000,
                Some("lease"),
                Some("red"),
                "monthly"
            )
        );
        assert!(
            undo.question.ends_with("It comes back with a new id."),
            "{}",
            undo.question
        );
        // still live: never deleted
        let live = delete(
            "s",
            (Some(&dead), &[]),
            (&f.plan, 7),
            today,
            &fmt(),
            Applied::Fully,
        );
        assert_eq!(live.conflicts, ["s"]);
        // its date passed since
        let late = delete(
            "s",
            (Some(&tombstone(&f, "2026-09-20")), &[]),
            (&gone.plan, 7),
            today,
            &fmt(),
            Applied::Fully,
        );
        assert!(
            late.nothing
                .as_deref()
                .is_some_and(|m| m.contains("has passed"))
        );
        // YNAB no longer shows it deleted
        let unknown = delete(
            "s",
            (None, &[]),
            (&gone.plan, 7),
            today,
            &fmt(),
            Applied::Fully,
        );
        assert_eq!(unknown.conflicts, ["s"]);
        // an interrupted undo's POST landed: not recreated twice
        let mut again = dead.clone();
        again.id = "s2".into();
        again.deleted = false;
        let twice = delete(
            "s",
            (Some(&dead), &[dead.clone(), again]),
            (&gone.plan, 7),
            today,
            &fmt(),
            Applied::Partly,
        );
        assert_eq!(twice.untouched, ["s"]);
        assert_eq!(
            twice.nothing.as_deref(),
            Some("Already recreated by its interrupted undo: nothing to undo.")
        );
    }

    #[test]
    fn damaged_details_are_refused() {
        let parse = |kind: Kind, details: Value, from_intent| {
            super::super::parse_kind(kind, &details, Vec::new(), from_intent)
        };
        assert!(parse(Kind::ScheduleUpdate, json!({"fields": {}}), false).is_err());
        let unknown_field =
            json!({"scheduled_transaction_id": "s", "fields": {"nope": {"from": 1, "to": 2}}});
        assert!(parse(Kind::ScheduleUpdate, unknown_field, false).is_err());
        let no_knowledge = json!({"scheduled_transaction_id": "s"});
        assert!(parse(Kind::ScheduleDelete, no_knowledge, false).is_err());
        assert!(parse(Kind::ScheduleCreate, json!({}), false).is_err());
        let by_digest = json!({"item_digest": "d", "digest_salt": "s"});
        assert!(parse(Kind::ScheduleCreate, by_digest.clone(), true).is_ok());
        assert!(
            parse(Kind::ScheduleCreate, by_digest, false).is_err(),
            "a journal line names the schedule"
        );
    }
}
