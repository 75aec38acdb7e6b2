//! `merge_categories` (`docs/writes/merge_categories.md`): move everything of one category into
//! another in one confirmed, undoable step — its assigned amount month by month, its
//! transactions, the split lines in it (by recreating those splits) and its schedules. The
//! emptied category stays in YNAB (its API can neither hide nor delete one).
//!
//! Writes, in this order: per month, `PATCH` the source to 0 then the target to the sum (in
//! between, the money is in Ready to Assign: never counted twice); `PATCH /transactions` in
//! chunks of at most 100; each split created again with the moved lines, then the old one
//! deleted (edit_split's order); one `PUT /scheduled_transactions/{id}` per schedule. A failure
//! after the first write says what was written, what was not and what is unknown, and leaves
//! the intent unfinished so `undo_operation` moves back what landed.

use super::{ConfirmedTool, PlanId, ToolError};
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written, applied,
};
use crate::context::Context;
use crate::digest::order_free;
use crate::logic::category_merge::{CategoryMerge, MonthMove, plan_category_merge, scheduled_save};
use crate::logic::merges::PATCH_CHUNK;
use crate::logic::split_edit::new_digest;
use crate::logic::undo::category_merge::{CategoryMerged, MonthRecord, SplitRecord};
use crate::logic::undo::record::to_details;
use crate::money::{Amount, MoneyFormat};
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::models::Category;
use ynab::writes::{NewTransaction, ScheduleSave, TransactionUpdate};

/// What every question and answer says is left to do in YNAB's app.
pub const HIDE: &str = "hide it in YNAB's app if you no longer want it (YNAB's API can neither hide nor delete a category)";

/// `merge_categories`, its arguments read.
#[derive(Debug)]
pub struct MergeCategories {
    source: String,
    target: String,
    today: String,
}

crate::tool_args! {
    /// The arguments of `merge_categories`.
    pub struct MergeCategoriesArgs {
        pub plan_id: Option<PlanId>,
        /// From get_category_balances.
        #[give = "the category_id to merge, from get_category_balances"]
        pub source_category_id: String,
        /// From get_category_balances.
        #[give = "the category_id to merge into, from get_category_balances"]
        pub target_category_id: String,
    }
}

// One month's assigned amounts, as the answer shows them. (A plain comment: a doc comment would
// become the description of the list's items.)
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MergedMonth {
    /// `YYYY-MM-01`.
    pub month: String,
    /// The source's assigned amount before (0 after).
    pub source_before: Amount,
    pub target_before: Amount,
    pub target_after: Amount,
}

/// One split recreated: its old id, the transaction created again, its salted digest (D31).
#[derive(Debug, Clone)]
struct SplitRecreation {
    old_id: String,
    new: NewTransaction,
    digest: String,
}

/// What `merge_categories` proposes.
#[derive(Debug, Clone)]
pub struct CategoryMerging {
    source_id: String,
    source_name: String,
    target_id: String,
    target_name: String,
    months: Vec<MonthMove>,
    transactions: Vec<String>,
    splits: Vec<SplitRecreation>,
    lines_moved: usize,
    scheduled: Vec<(String, ScheduleSave)>,
    not_moved: usize,
    /// The plan's knowledge when read: undo reads the old splits' tombstones since.
    knowledge: i64,
    salt: String,
    /// The recreated splits' new ids, once applied.
    new_split_ids: Vec<String>,
    applied: bool,
}

// The fields of `merge_categories`' answer, whatever its status. (A plain comment: the struct
// is flattened into the answer, whose schema has no description.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct MergeCategoriesDetails {
    /// The category emptied: it stays in YNAB, with its target (the API cannot hide or delete
    /// a category); tell the user to hide it in YNAB's app.
    pub source_category_id: String,
    pub source_name: String,
    pub target_category_id: String,
    pub target_name: String,
    /// Transactions that move (the ones on the category itself, not split).
    pub transactions: usize,
    /// Split lines that move, by recreating their transactions (new ids, bank-import link lost).
    pub split_lines: usize,
    /// Schedules that move.
    pub scheduled: usize,
    /// Each month where the source has an assigned amount: it goes to the target.
    pub months: Vec<MergedMonth>,
    /// The assigned amount moved, all months together.
    pub assigned_moved: Amount,
    /// Split lines and schedules in the category that YNAB's API cannot move: left as they are.
    pub not_moved: usize,
    /// The recreated splits' new ids (empty until applied).
    pub new_split_ids: Vec<String>,
    /// Whether it was applied.
    pub applied: bool,
}

impl ConfirmedTool for MergeCategories {
    const TITLE: &'static str = "Merge categories";
    const DESTRUCTIVE: bool = true;
    type Args = MergeCategoriesArgs;
    type Details = MergeCategoriesDetails;

    fn description(_writes: bool) -> String {
        "Move everything of one category into another: transactions, split lines, schedules, \
each month's assigned amount. Its splits are recreated: new id, bank-import link lost. The user sees \
what moves and confirms. Can be undone. Costs 2 requests a month, plus per split and schedule."
            .to_string()
    }

    fn from_args(args: MergeCategoriesArgs, today: NaiveDate) -> Result<Self, ToolError> {
        Ok(MergeCategories {
            source: args.source_category_id,
            target: args.target_category_id,
            today: today.format("%Y-%m-%d").to_string(),
        })
    }
}

impl CategoryMerging {
    fn details(&self) -> MergeCategoriesDetails {
        MergeCategoriesDetails {
            source_category_id: self.source_id.clone(),
            source_name: self.source_name.clone(),
            target_category_id: self.target_id.clone(),
            target_name: self.target_name.clone(),
            transactions: self.transactions.len(),
            split_lines: self.lines_moved,
            scheduled: self.scheduled.len(),
            months: self
                .months
                .iter()
                .map(|m| MergedMonth {
                    month: m.month.clone(),
                    source_before: Amount(m.source_before),
                    target_before: Amount(m.target_before),
                    target_after: Amount(m.target_after()),
                })
                .collect(),
            assigned_moved: Amount(self.months.iter().map(|m| m.source_before).sum()),
            not_moved: self.not_moved,
            new_split_ids: self.new_split_ids.clone(),
            applied: self.applied,
        }
    }

    /// The journal's details (D31: ids, assigned amounts as `budget_plan` keeps them, the
    /// recreated splits by salted digest), `new_ids` once known.
    fn journal(&self, new_ids: &[String]) -> Value {
        let splits = self
            .splits
            .iter()
            .enumerate()
            .map(|(i, s)| SplitRecord {
                old_id: s.old_id.clone(),
                new_digest: s.digest.clone(),
                new_id: new_ids.get(i).cloned(),
            })
            .collect();
        let months = self
            .months
            .iter()
            .map(|m| MonthRecord {
                month: m.month.clone(),
                source: m.source_before,
                target: m.target_before,
            })
            .collect();
        to_details(&CategoryMerged {
            source_category_id: self.source_id.clone(),
            target_category_id: self.target_id.clone(),
            months,
            transactions: self.transactions.clone(),
            scheduled: self.scheduled.iter().map(|(id, _)| id.clone()).collect(),
            splits,
            digest_salt: self.salt.clone(),
            server_knowledge: self.knowledge,
        })
    }
}

/// The question: the months' amounts, the splits recreated, what cannot move.
fn question(merge: &CategoryMerge<'_>, fmt: &MoneyFormat) -> String {
    let source_name = safe(&merge.source.name);
    let target_name = safe(&merge.target.name);
    let not_moved = merge.lines_not_moved + merge.scheduled_not_moved;
    let mut lines: Vec<String> = merge
        .months
        .iter()
        .map(|m| {
            format!(
                "- {}: assigned {source_name} {} → {}, {target_name} {} → {}",
                m.month,
                fmt.plain(m.source_before),
                fmt.plain(0),
                fmt.plain(m.target_before),
                fmt.plain(m.target_after())
            )
        })
        .collect();
    if !merge.splits.is_empty() {
        lines.push(format!(
        "- {} split transaction(s) are created again with the line(s) in {target_name}: their ids change and their bank-import link is lost",
        merge.splits.len()
        ));
    }
    if not_moved > 0 {
        lines.push(format!(
        "- not moved: {not_moved} split line(s) or schedule(s) YNAB's API cannot save as they are (a transfer split, a split schedule, or a schedule due today or earlier)"
        ));
    }
    let head = format!(
        "Merge the category {source_name} into {target_name}? Moving: {} transaction(s), {} split line(s), {} schedule(s), and the assigned amounts of {} month(s) ({} in all; Ready to Assign unchanged). {source_name} stays in YNAB, empty, its target as it is: {HIDE}.",
        merge.transactions.len(),
        merge.lines_moved(),
        merge.scheduled.len(),
        merge.months.len(),
        fmt.plain(merge.assigned_total())
    );
    crate::confirm::question(head, lines)
}

/// The subject: every value the question shows or the writes keep, so a change in between is
/// stale.
fn subject(merge: &CategoryMerge<'_>) -> Value {
    let mut items: Vec<Value> = merge
        .months
        .iter()
        .map(|m| json!(["month", m.month, m.source_before, m.target_before]))
        .collect();
    items.extend(
        merge
            .transactions
            .iter()
            .map(|t| json!(["transaction", t.id, t.category_id, t.amount])),
    );
    for s in &merge.splits {
        let t = s.transaction;
        let split_lines: Vec<Value> = s
            .lines
            .iter()
            .map(|l| json!([l.amount, l.category_id, l.memo, l.payee_id]))
            .collect();
        items.push(json!([
            "split",
            t.id,
            t.date,
            t.amount,
            t.account_id,
            t.payee_id,
            t.memo,
            t.cleared,
            t.approved,
            t.flag_color,
            order_free(split_lines)
        ]));
    }
    for x in &merge.scheduled {
        // A PUT sends the whole schedule: every field it sends is a before value (D4).
        items.push(json!([
            "scheduled",
            x.id,
            x.account_id,
            x.date_next,
            x.amount,
            x.payee_id,
            x.category_id,
            x.memo,
            x.flag_color,
            x.frequency
        ]));
    }
    items.push(json!([
        "not_moved",
        merge.lines_not_moved,
        merge.scheduled_not_moved
    ]));
    json!({"merge_categories": {"source": [merge.source.id, merge.source.name],
        "target": [merge.target.id, merge.target.name], "items": order_free(items)}})
}

impl CategoryMerging {
    /// The change proposed: ids, amounts, each split's recreation by salted digest (D31).
    fn of(merge: &CategoryMerge<'_>, knowledge: i64) -> Self {
        let salt = crate::random::hex::<16>();
        let splits = merge
            .splits
            .iter()
            .map(|s| {
                let new = s.recreation(&merge.source.id, &merge.target.id);
                SplitRecreation {
                    old_id: s.transaction.id.clone().into(),
                    digest: new_digest(&salt, &new),
                    new,
                }
            })
            .collect();
        CategoryMerging {
            source_id: merge.source.id.to_string(),
            source_name: safe(&merge.source.name),
            target_id: merge.target.id.to_string(),
            target_name: safe(&merge.target.name),
            months: merge.months.clone(),
            transactions: merge
                .transactions
                .iter()
                .map(|t| t.id.to_string())
                .collect(),
            splits,
            lines_moved: merge.lines_moved(),
            scheduled: merge
                .scheduled
                .iter()
                .map(|s| (s.id.to_string(), scheduled_save(s, &merge.target.id)))
                .collect(),
            not_moved: merge.lines_not_moved + merge.scheduled_not_moved,
            knowledge,
            salt,
            new_split_ids: Vec::new(),
            applied: false,
        }
    }
}

/// The plan's months with their categories (one request per month not yet loaded).
async fn all_months(
    context: &Context,
    snapshot: Arc<PlanSnapshot>,
) -> Result<(Arc<PlanSnapshot>, Vec<(String, Vec<Category>)>), ToolError> {
    let snapshot = context.plans.with_months(snapshot, |_| true).await?;
    let months = snapshot
        .plan
        .months
        .iter()
        .filter(|m| !m.deleted)
        .map(|m| (m.month.clone(), m.categories.clone().unwrap_or_default()))
        .collect();
    Ok((snapshot, months))
}

impl ConfirmedWrite for MergeCategories {
    type Change = CategoryMerging;
    const TOOL: &'static str = "merge_categories";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::CategoryMerge;
    const UNDO: Undoable = Undoable::Yes("moves everything back");

    async fn prepare(
        &self,
        context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<CategoryMerging>, ToolError> {
        let (snapshot, months) = all_months(context, snapshot).await?;
        let plan = &snapshot.plan;
        let fmt = MoneyFormat::of(plan.currency_format.as_ref());
        let merge = plan_category_merge(plan, &months, &self.source, &self.target, &self.today)
            .map_err(ToolError::Refused)?;
        let question = question(&merge, &fmt);
        let subject = subject(&merge);
        let change = CategoryMerging::of(&merge, snapshot.server_knowledge);
        Ok(Prepared::change(snapshot.id(), subject, question, change))
    }

    /// D31: ids, the months' amounts, the knowledge undo reads the old splits' tombstones since,
    /// and each recreation's salted digest (its id is not known before it is created).
    fn intent_details(&self, change: &CategoryMerging) -> Value {
        change.journal(&[])
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<CategoryMerging>,
    ) -> Result<Written<CategoryMerging>, WriteFailure> {
        let change = &proposal.change;
        let to = (context.plans.client().as_ref(), proposal.plan_id.as_str());
        let mut progress = Progress::new(change);
        send_months(to, change, &mut progress).await?;
        send_transactions(to, change, &mut progress).await?;
        let new_ids = send_splits(to, change, &mut progress).await?;
        send_schedules(to, change, &mut progress).await?;
        let draft = JournalDraft {
            details: change.journal(&new_ids),
            ..JournalDraft::default()
        };
        Ok(Written {
            draft,
            applied: Some(CategoryMerging {
                new_split_ids: new_ids,
                applied: true,
                ..change.clone()
            }),
        })
    }

    fn details(&self, change: &CategoryMerging) -> MergeCategoriesDetails {
        change.details()
    }

    fn applied_message(&self, change: &CategoryMerging, operation_id: Option<&str>) -> String {
        let done = format!(
            "Merged {} into {}: {} transaction(s), {} split line(s), {} schedule(s) and the assigned amounts of {} month(s) moved. One step is left, in YNAB's app: {} is empty — {HIDE}.",
            change.source_name,
            change.target_name,
            change.transactions.len(),
            change.lines_moved,
            change.scheduled.len(),
            change.months.len(),
            change.source_name
        );
        applied(&done, Self::UNDO, operation_id)
    }
}

/// Each month's amounts: the source first (in between, its amount is in Ready to Assign, never
/// assigned twice), then the target.
async fn send_months(
    (client, plan): (&ynab::Client, &str),
    change: &CategoryMerging,
    progress: &mut Progress,
) -> Result<(), WriteFailure> {
    for m in &change.months {
        // The source first: in between, its amount is in Ready to Assign, never assigned twice.
        if let Err(error) = client
            .set_assigned(plan, &m.month, &change.source_id, 0)
            .await
        {
            return Err(progress.failed(
                error,
                &format!("{} for {} (set to 0)", change.source_name, m.month),
            ));
        }
        progress.half_month = Some(m.month.clone());
        if let Err(error) = client
            .set_assigned(plan, &m.month, &change.target_id, m.target_after())
            .await
        {
            return Err(progress.failed(
                error,
                &format!(
                    "{} for {} (its amount is in Ready to Assign meanwhile)",
                    change.target_name, m.month
                ),
            ));
        }
        progress.half_month = None;
        progress.months += 1;
    }
    Ok(())
}

/// The transactions into the target, in PATCHes of [`PATCH_CHUNK`].
async fn send_transactions(
    (client, plan): (&ynab::Client, &str),
    change: &CategoryMerging,
    progress: &mut Progress,
) -> Result<(), WriteFailure> {
    let updates: Vec<TransactionUpdate> = change
        .transactions
        .iter()
        .map(|id| TransactionUpdate {
            id: id.clone(),
            category_id: Some(Some(change.target_id.clone())),
            ..TransactionUpdate::default()
        })
        .collect();
    for chunk in updates.chunks(PATCH_CHUNK) {
        if let Err(error) = client.update_transactions(plan, chunk).await {
            return Err(progress.failed(error, &format!("{} transaction(s)", chunk.len())));
        }
        progress.transactions += chunk.len();
    }
    Ok(())
}

/// Each split created again with its lines in the target, then the old one deleted
/// (`edit_split`'s order: a failure in between leaves a visible duplicate, never a transaction
/// missing). The new ids, in order.
async fn send_splits(
    (client, plan): (&ynab::Client, &str),
    change: &CategoryMerging,
    progress: &mut Progress,
) -> Result<Vec<String>, WriteFailure> {
    let mut new_ids = Vec::new();
    for s in &change.splits {
        // Created first, deleted second (edit_split's order): a failure in between leaves a
        // visible duplicate, never a transaction missing.
        let saved = match client
            .create_transactions(plan, std::slice::from_ref(&s.new))
            .await
        {
            Ok(saved) => saved,
            Err(error) => {
                return Err(progress.failed(error, &format!("the split {}", s.old_id)));
            }
        };
        let new_id = saved
            .transaction_ids
            .first()
            .cloned()
            .or_else(|| saved.transactions.first().map(|t| t.id.clone()))
            .or_else(|| saved.transaction.as_ref().map(|t| t.id.clone()));
        let Some(new_id) = new_id else {
            return Err(progress.unknown(&format!(
                "the split {} was created again but YNAB named no id for it, so the old one was not deleted: the plan may show it twice",
                s.old_id
            )));
        };
        if let Err(error) = client.delete_transaction(plan, &s.old_id).await {
            return Err(progress.failed(
                error,
                &format!(
                    "the old split {} (created again as {new_id}; the plan may show it twice)",
                    s.old_id
                ),
            ));
        }
        progress.splits += 1;
        new_ids.push(new_id);
    }
    Ok(new_ids)
}

/// Each schedule saved whole with the target.
async fn send_schedules(
    (client, plan): (&ynab::Client, &str),
    change: &CategoryMerging,
    progress: &mut Progress,
) -> Result<(), WriteFailure> {
    for (id, save) in &change.scheduled {
        if let Err(error) = client.update_scheduled_transaction(plan, id, save).await {
            return Err(progress.failed(error, &format!("schedule {id}")));
        }
        progress.scheduled += 1;
    }
    Ok(())
}

/// What a merge's writes have done so far.
#[derive(Debug)]
struct Progress {
    months: usize,
    /// A month whose source is at 0 but whose target is not yet raised.
    half_month: Option<String>,
    transactions: usize,
    splits: usize,
    scheduled: usize,
    total: (usize, usize, usize, usize),
}

impl Progress {
    fn new(change: &CategoryMerging) -> Self {
        Progress {
            months: 0,
            half_month: None,
            transactions: 0,
            splits: 0,
            scheduled: 0,
            total: (
                change.months.len(),
                change.transactions.len(),
                change.splits.len(),
                change.scheduled.len(),
            ),
        }
    }

    fn nothing_yet(&self) -> bool {
        self.months == 0
            && self.half_month.is_none()
            && self.transactions == 0
            && self.splits == 0
            && self.scheduled == 0
    }

    /// What was written and what was not sent (the item `this` failing aside).
    fn account(&self, this: &str, state: &str) -> String {
        let (months, transactions, splits, scheduled) = self.total;
        let mut written = format!(
            "written before it: the assigned amounts of {} month(s), {} transaction(s), {} split(s), {} schedule(s)",
            self.months, self.transactions, self.splits, self.scheduled
        );
        if let Some(month) = &self.half_month {
            written.push_str(&format!(", and the source's amount for {month} set to 0"));
        }
        let in_this = |done: usize, total: usize| total.saturating_sub(done);
        format!(
            "{written}; {this} {state}; the rest not sent (at most {} month(s), {} transaction(s), {} split(s), {} schedule(s)). undo_operation moves back what was moved.",
            in_this(self.months, months),
            in_this(self.transactions, transactions),
            in_this(self.splits, splits),
            in_this(self.scheduled, scheduled)
        )
    }

    /// The failure of the write `this`: nothing written yet and a refusal is nothing changed;
    /// anything else says what is written, what is not and what is unknown, and leaves the
    /// intent unfinished.
    fn failed(&self, error: ynab::Error, this: &str) -> WriteFailure {
        let failure = WriteFailure::from(error);
        if self.nothing_yet() && matches!(failure, WriteFailure::NothingChanged(_)) {
            return failure;
        }
        let state = match failure {
            WriteFailure::NothingChanged(_) => "not written",
            WriteFailure::Unknown(_) => "may or may not be written",
        };
        WriteFailure::Unknown(format!(
            "{} ({})",
            failure.text(),
            self.account(this, state)
        ))
    }

    fn unknown(&self, what: &str) -> WriteFailure {
        WriteFailure::Unknown(format!(
            "YNAB did not confirm it all: {what} ({})",
            self.account("the old split", "not deleted")
        ))
    }
}

/// The failure of a `category_merge` undo's write after `done` of `total` items were put back.
pub(crate) fn move_back_failed(error: ynab::Error, done: usize, total: usize) -> WriteFailure {
    super::merge_payees::move_back_failed(error, done, total)
}
