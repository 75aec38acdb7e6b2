//! `merge_payees` (`docs/writes/merge_payees.md`): move every transaction and schedule of one or
//! more source payees (raw bank labels) to one target payee — an existing one, or a new one
//! created by name — in one confirmed, undoable step. The emptied payees remain (YNAB's API
//! neither deletes nor merges payees); split lines are named as not moved.
//!
//! Writes: `POST /payees` for a new target, then `PATCH /transactions` in chunks of at most 100,
//! then one `PUT /scheduled_transactions/{id}` per schedule (the full object). A failure after
//! the first write says what was written, what was not and what is unknown, and leaves the intent
//! unfinished so `undo_operation` moves back what landed.

use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::{Ids, Text};
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written, applied,
};
use crate::context::Context;
use crate::digest::order_free;
use crate::logic::merges::Moved;
use crate::logic::merges::{MAX_NAME, PATCH_CHUNK, TargetAsked, plan_merge, scheduled_save};
use crate::logic::undo::{merge::Merged, record::to_details};
use crate::logic::updates::payee_name_digest;
use crate::plan_store::PlanSnapshot;
use crate::text::{quoted, safe};
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::models::ScheduledTransactionSummary;
use ynab::writes::{ScheduleSave, TransactionUpdate};

/// What every question says of the emptied payees.
pub const REMAIN: &str =
    "the emptied payees remain in YNAB (its API can neither delete nor merge payees)";

/// `merge_payees`, its arguments read.
#[derive(Debug)]
pub struct MergePayees {
    sources: Vec<String>,
    target: TargetAsked,
    today: String,
}

crate::tool_args! {
    /// The arguments of `merge_payees`.
    pub struct MergePayeesArgs {
        pub plan_id: Option<PlanId>,
        /// At most 100, from list_payees.
        #[give = "a list of payee ids from list_payees"]
        pub source_payee_ids: Ids,
        /// From list_payees; or give target_name.
        pub target_payee_id: Option<String>,
        /// A new payee to create, on one line; or give target_payee_id.
        pub target_name: Option<Text<1, MAX_NAME>>,
    }
}

// One source payee and what moves from it. (A plain comment: a doc comment would become the
// description of the list's items.)
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MergedSource {
    pub payee_id: String,
    pub name: String,
    /// Transactions that move.
    pub transactions: usize,
    /// Schedules that move.
    pub scheduled: usize,
    /// Split lines and schedules naming the payee that YNAB's API cannot move: left as they are.
    pub not_moved: usize,
}

/// What `merge_payees` proposes.
#[derive(Debug, Clone)]
pub struct Merging {
    sources: Vec<MergedSource>,
    /// `None` until a new payee is created.
    target_payee_id: Option<String>,
    /// As sent for a new payee; as YNAB holds it for an existing one.
    target_name: String,
    new_payee: bool,
    /// (transaction, its payee now).
    transactions: Vec<(String, String)>,
    /// (schedule, its payee now, the schedule as read).
    scheduled: Vec<(String, String, ScheduledTransactionSummary)>,
    applied: bool,
}

// The fields of `merge_payees`' answer, whatever its status. (A plain comment: the struct is
// flattened into the answer, whose schema has no description.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct MergeDetails {
    /// The payee merged into (null for a new one until it is created).
    pub target_payee_id: Option<String>,
    pub target_name: String,
    /// Whether the target is a new payee.
    pub new_payee: bool,
    /// The payees emptied: they stay in YNAB, whose API cannot delete or merge payees.
    pub sources: Vec<MergedSource>,
    /// Transactions moved (0 until applied).
    pub moved_transactions: usize,
    /// Schedules moved (0 until applied).
    pub moved_scheduled: usize,
}

impl ConfirmedTool for MergePayees {
    const TITLE: &'static str = "Merge payees";
    const DESTRUCTIVE: bool = true;
    type Args = MergePayeesArgs;
    type Details = MergeDetails;

    fn description(_writes: bool) -> String {
        "Move every transaction and schedule of some payees (e.g. one shop's bank labels) onto \
one payee, existing or new. The user sees what moves and confirms. Can be undone. Costs 1 \
request per 100 transactions and per schedule."
            .to_string()
    }

    fn from_args(args: MergePayeesArgs, today: NaiveDate) -> Result<Self, ToolError> {
        let target = match (args.target_payee_id, args.target_name) {
            (Some(id), None) => TargetAsked::Existing(id),
            (None, Some(name)) => TargetAsked::New(name.0),
            (Some(_), Some(_)) => {
                return Err(ToolError::Refused(
                    "Give target_payee_id or target_name, not both: an existing payee, or a new one to create.".into(),
                ));
            }
            (None, None) => {
                return Err(ToolError::Refused(
                    "Give the payee to merge into: target_payee_id from list_payees, or target_name for a new payee.".into(),
                ));
            }
        };
        Ok(MergePayees {
            sources: args.source_payee_ids.0,
            target,
            today: today.format("%Y-%m-%d").to_string(),
        })
    }
}

impl Merging {
    fn details(&self) -> MergeDetails {
        MergeDetails {
            target_payee_id: self.target_payee_id.clone(),
            target_name: safe(&self.target_name),
            new_payee: self.new_payee,
            sources: self.sources.clone(),
            moved_transactions: if self.applied {
                self.transactions.len()
            } else {
                0
            },
            moved_scheduled: if self.applied {
                self.scheduled.len()
            } else {
                0
            },
        }
    }

    /// The journal's details (ids and payee ids only, D31), once the target is known.
    fn journal(&self, target: &str) -> Value {
        to_details(&Merged {
            target_payee_id: Some(target.to_string()),
            new_payee: Some(self.new_payee),
            transactions: self.moved_transactions(),
            scheduled: self.moved_scheduled(),
            target_name_digest: None,
            digest_salt: None,
        })
    }

    fn moved_transactions(&self) -> Vec<Moved> {
        self.transactions
            .iter()
            .map(|(id, from)| Moved {
                id: id.clone(),
                from: from.clone(),
            })
            .collect()
    }

    fn moved_scheduled(&self) -> Vec<Moved> {
        self.scheduled
            .iter()
            .map(|(id, from, _)| Moved {
                id: id.clone(),
                from: from.clone(),
            })
            .collect()
    }
}

/// A source's items in the subject: its transactions, its schedules (a PUT sends the whole
/// schedule: every field it sends is a before value, D4) and what cannot move.
fn subject_items_of(s: &crate::logic::merges::SourceMove<'_>) -> Vec<Value> {
    let mut items: Vec<Value> = s
        .transactions
        .iter()
        .map(|t| json!(["transaction", t.id, s.payee_id]))
        .collect();
    items.extend(s.scheduled.iter().map(|x| {
        json!([
            "scheduled",
            x.id,
            s.payee_id,
            x.account_id,
            x.date_next,
            x.amount,
            x.category_id,
            x.memo,
            x.flag_color,
            x.frequency
        ])
    }));
    items.push(json!([
        "not_moved",
        s.payee_id,
        s.lines_not_moved,
        s.scheduled_not_moved
    ]));
    items
}

/// "1 transaction(s), 2 schedule(s)" and what is not moved, for one source payee's line.
fn source_line(s: &crate::logic::merges::SourceMove<'_>) -> String {
    let mut line = format!(
        "- {}: {} transaction(s), {} schedule(s)",
        safe(s.name),
        s.transactions.len(),
        s.scheduled.len()
    );
    if s.lines_not_moved > 0 {
        line.push_str(&format!(
            "; not moved: {} split line(s) (YNAB's API cannot change a split's lines)",
            s.lines_not_moved
        ));
    }
    if s.scheduled_not_moved > 0 {
        line.push_str(&format!(
            "; not moved: {} schedule(s) (a split, or due today or earlier: YNAB's API cannot save it as it is)",
            s.scheduled_not_moved
        ));
    }
    line
}

impl ConfirmedWrite for MergePayees {
    type Change = Merging;
    const TOOL: &'static str = "merge_payees";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::Merge;
    const UNDO: Undoable = Undoable::Yes("moves each one back (the payee merged into stays)");

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<Merging>, ToolError> {
        let plan = &snapshot.plan;
        let merge = plan_merge(plan, &self.sources, &self.target, &self.today).map_err(|r| {
            let shown = match &self.target {
                TargetAsked::New(name) => quoted(&safe(name.trim())),
                TargetAsked::Existing(_) => String::new(),
            };
            ToolError::Refused(r.message(&shown))
        })?;
        let new_payee = merge.target_id.is_none();
        let target_shown = if new_payee {
            format!("a new payee ‘{}’", safe(&merge.target_name))
        } else {
            format!("‘{}’", safe(&merge.target_name))
        };
        let mut lines = Vec::new();
        let mut sources = Vec::new();
        let mut transactions = Vec::new();
        let mut scheduled = Vec::new();
        let mut subject_items = Vec::new();
        for s in &merge.sources {
            lines.push(source_line(s));
            sources.push(MergedSource {
                payee_id: s.payee_id.to_string(),
                name: safe(s.name),
                transactions: s.transactions.len(),
                scheduled: s.scheduled.len(),
                not_moved: s.lines_not_moved + s.scheduled_not_moved,
            });
            for t in &s.transactions {
                transactions.push((t.id.to_string(), s.payee_id.to_string()));
            }
            for x in &s.scheduled {
                scheduled.push((x.id.to_string(), s.payee_id.to_string(), (*x).clone()));
            }
            subject_items.extend(subject_items_of(s));
        }
        let question = crate::confirm::question(
            format!(
                "Merge {} payee(s) into {target_shown}? {} transaction(s) and {} schedule(s) move; {REMAIN}.",
                merge.sources.len(),
                merge.transactions(),
                merge.scheduled()
            ),
            lines,
        );
        let subject = json!({"merge": {"target_payee_id": merge.target_id,
            "target_name": merge.target_name, "items": order_free(subject_items)}});
        let change = Merging {
            sources,
            target_payee_id: merge.target_id.clone(),
            target_name: merge.target_name.clone(),
            new_payee,
            transactions,
            scheduled,
            applied: false,
        };
        if change.transactions.is_empty() && change.scheduled.is_empty() {
            let message =
                "Nothing to move: no transaction or schedule the API can move names these payees.";
            return Ok(self.nothing_to_do(&change, message, snapshot.id()));
        }
        Ok(Prepared::change(snapshot.id(), subject, question, change))
    }

    /// D31: ids and payee ids; a new payee's name only as a salted digest (its id is not known
    /// until it is created).
    fn intent_details(&self, change: &Merging) -> Value {
        let mut record = Merged {
            target_payee_id: change.target_payee_id.clone(),
            new_payee: None,
            transactions: change.moved_transactions(),
            scheduled: change.moved_scheduled(),
            target_name_digest: None,
            digest_salt: None,
        };
        if change.new_payee {
            let salt = crate::random::hex::<16>();
            record.target_name_digest = Some(payee_name_digest(Some(&salt), &change.target_name));
            record.digest_salt = Some(salt);
        }
        to_details(&record)
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<Merging>,
    ) -> Result<Written<Merging>, WriteFailure> {
        let change = &proposal.change;
        let plan = proposal.plan_id.as_str();
        let client = context.plans.client();
        let mut progress = Progress::default();
        let target = match &change.target_payee_id {
            Some(id) => id.clone(),
            None => {
                let saved = client.create_payee(plan, &change.target_name).await?;
                progress.created = Some(saved.payee.id.clone().into());
                saved.payee.id.into()
            }
        };
        let updates: Vec<TransactionUpdate> = change
            .transactions
            .iter()
            .map(|(id, _)| TransactionUpdate {
                id: id.clone(),
                payee_id: Some(Some(target.clone())),
                ..TransactionUpdate::default()
            })
            .collect();
        let chunks: Vec<&[TransactionUpdate]> = updates.chunks(PATCH_CHUNK).collect();
        for (i, chunk) in chunks.iter().enumerate() {
            if let Err(error) = client.update_transactions(plan, chunk).await {
                let unsent = chunks[i + 1..].iter().map(|c| c.len()).sum::<usize>();
                return Err(progress.failed(
                    error,
                    &format!("{} transaction(s)", chunk.len()),
                    unsent,
                    change.scheduled.len(),
                ));
            }
            progress.transactions += chunk.len();
        }
        for (i, (id, _, schedule)) in change.scheduled.iter().enumerate() {
            let save: ScheduleSave = scheduled_save(schedule, &target);
            if let Err(error) = client.update_scheduled_transaction(plan, id, &save).await {
                return Err(progress.failed(
                    error,
                    &format!("schedule {id}"),
                    0,
                    change.scheduled.len() - i - 1,
                ));
            }
            progress.scheduled += 1;
        }
        let draft = JournalDraft {
            details: change.journal(&target),
            ..JournalDraft::default()
        };
        Ok(Written {
            draft,
            applied: Some(Merging {
                target_payee_id: Some(target),
                applied: true,
                ..change.clone()
            }),
        })
    }

    fn details(&self, change: &Merging) -> MergeDetails {
        change.details()
    }

    fn applied_message(&self, change: &Merging, operation_id: Option<&str>) -> String {
        let done = format!(
            "Merged: {} transaction(s) and {} schedule(s) now on ‘{}’; {REMAIN}.",
            change.transactions.len(),
            change.scheduled.len(),
            safe(&change.target_name)
        );
        applied(&done, Self::UNDO, operation_id)
    }
}

/// What a merge's writes have done so far.
#[derive(Debug, Default)]
struct Progress {
    created: Option<String>,
    transactions: usize,
    scheduled: usize,
}

impl Progress {
    /// The failure of the write `this`, with `unsent_transactions` and `unsent_scheduled` not
    /// sent after it. Nothing written yet and a refusal: nothing changed. Anything else says what
    /// is written, what is not and what is unknown, and leaves the intent unfinished.
    fn failed(
        &self,
        error: ynab::Error,
        this: &str,
        unsent_transactions: usize,
        unsent_scheduled: usize,
    ) -> WriteFailure {
        let failure = WriteFailure::from(error);
        let nothing_yet = self.created.is_none() && self.transactions == 0 && self.scheduled == 0;
        if nothing_yet && matches!(failure, WriteFailure::NothingChanged(_)) {
            return failure;
        }
        let mut written = Vec::new();
        if let Some(id) = &self.created {
            written.push(format!("the new payee {id} was created (it stays)"));
        }
        written.push(format!(
            "moved before it: {} transaction(s), {} schedule(s)",
            self.transactions, self.scheduled
        ));
        let state = match failure {
            WriteFailure::NothingChanged(_) => format!("{this} not moved"),
            WriteFailure::Unknown(_) => format!("{this} may or may not be moved"),
        };
        let mut unsent = String::new();
        if unsent_transactions + unsent_scheduled > 0 {
            unsent = format!(
                "; not sent: {unsent_transactions} transaction(s), {unsent_scheduled} schedule(s)"
            );
        }
        WriteFailure::Unknown(format!(
            "{} ({}; {state}{unsent}. undo_operation moves back what was moved.)",
            failure.text(),
            written.join("; ")
        ))
    }
}

/// The failure of a `merge` undo's write after `done` of `total` items were moved back: nothing
/// written yet keeps YNAB's own verdict; later, what is left is unknown, and naming the
/// operation again finishes it.
pub(crate) fn move_back_failed(error: ynab::Error, done: usize, total: usize) -> WriteFailure {
    let failure = WriteFailure::from(error);
    if done == 0 {
        return failure;
    }
    WriteFailure::Unknown(format!(
        "{} ({done} of {total} moved back before it; call undo_operation again to move back the rest.)",
        failure.text()
    ))
}
