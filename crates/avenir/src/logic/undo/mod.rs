//! What undoing a journaled operation would do now (`docs/contract/writes.md` §10.2): one function
//! per kind compares the plan's current state with what the operation set. Each returns an
//! [`UndoPlan`] — the reverting changes, the question, what changed since and is left alone —
//! and the undo tool only reads the plan and the journal, then shapes the plan it gets.
//!
//! An operation interrupted by a crash (an unfinished intent, or one whose undo was interrupted,
//! D14) is read as [`Applied::Partly`]: what still holds its before value was never changed, or
//! was already put back, and is neither reverted nor a conflict. The kinds YNAB's API cannot
//! revert are only told apart as landed or not ([`Landing`]).

pub mod account_create;
pub mod budget_plan;
pub mod category_merge;
pub mod details;
pub mod fields;
pub mod irreversible;
pub mod kind;
pub mod link;
pub mod merge;
pub mod per_kind;
mod plain;
pub mod record;
pub mod reverting;
pub mod schedules;
pub mod split;
pub mod split_edit;
pub mod update;

pub use details::{
    Approved, AssignedChange, Budgeted, CategoryEdit, CategoryMove, Created, Deleted, FlagChange,
    Flagged, Known, Moved, PayeeRenamed, Recognition, Reconciliation, Refusal, TargetDetails,
    parse, parse_kind,
};

pub use super::recategorised::Recategorised;
use crate::logic::assignable::CategoryIndex;
pub use crate::logic::assigned_side::AssignedSide;
use crate::logic::category_edits::changed_since;
use crate::logic::names::PlanNames;
use crate::money::MoneyFormat;
use crate::months::CalendarMonth;
use crate::text::safe;
pub use kind::{Details, Kind};
use serde_json::{Value, json};
pub use update::{TransactionEdit, UpdateBack, update};
use ynab::models::{Category, Milliunits, PlanDetail, Transaction};
use ynab::writes::{NewSubTransaction, NewTransaction};

/// How much of an operation may have reached YNAB.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applied {
    /// A journal line: every write of it was applied.
    Fully,
    /// An unfinished intent, or an operation whose undo was interrupted (D14): any part of it
    /// may hold its before value — never written, or already put back.
    Partly,
}

impl Applied {
    fn partly(self) -> bool {
        self == Applied::Partly
    }
}

/// What an item of an operation holds now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Now {
    /// As the operation set it: to revert.
    After,
    /// Its before value, in an operation read as [`Applied::Partly`]: nothing to do.
    Before,
    /// Anything else, or gone: changed since, left alone.
    Changed,
}

fn now(is_after: bool, is_before: bool, applied: Applied) -> Now {
    if is_after {
        Now::After
    } else if applied.partly() && is_before {
        Now::Before
    } else {
        Now::Changed
    }
}

/// Whether a write of a kind YNAB's API cannot revert landed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Landing {
    /// The plan holds its before state.
    NotApplied,
    /// The plan holds what it wrote.
    Applied,
    /// Neither: changed since, or the intent says too little to tell.
    Unknown,
}

/// A transaction's flag put back: (transaction, flag now, flag put back).
pub type FlagBack = (String, Option<String>, Option<String>);

/// The writes an undo sends.
#[derive(Debug, Clone, PartialEq)]
pub enum Revert {
    Categorize {
        changes: Vec<Recategorised>,
    },
    Budget {
        month: CalendarMonth,
        side: AssignedSide,
    },
    Move {
        month: CalendarMonth,
        source: AssignedSide,
        target: AssignedSide,
    },
    Approve {
        transaction_ids: Vec<String>,
    },
    /// Delete the created transactions still there.
    Create {
        ids: Vec<String>,
    },
    Flags {
        back: Vec<FlagBack>,
    },
    /// Put fields of transactions back (`update`).
    Update {
        back: Vec<UpdateBack>,
    },
    /// Rename the payee back to `name`.
    Payee {
        payee_id: String,
        name: String,
    },
    /// Mark reconciled transactions cleared (or uncleared) again; delete what it created.
    Reconcile {
        to_clear: Vec<String>,
        to_unclear: Vec<String>,
        adjustment: Option<String>,
        imported: Vec<String>,
    },
    /// Save the category's target with the fields that restore the previous one.
    Target {
        category_id: String,
        fields: Value,
    },
    /// Put a category's name and group back (D25): `now` is what it holds, `back` what returns.
    Category {
        category_id: String,
        name_now: String,
        group_now: String,
        name_back: String,
        group_back: String,
    },
    /// Recreate deleted transactions from YNAB's record of them (one side of a transfer: YNAB
    /// makes the other). `ids` are the old ids that come back, transfers' other sides included.
    Recreate {
        items: Vec<NewTransaction>,
        ids: Vec<String>,
        /// The plan's knowledge when the undo read it: a recovery of the undo reads since.
        knowledge: i64,
    },
    /// Put back, delete or recreate a scheduled transaction (`schedule_*` kinds).
    Schedule(schedules::ScheduleRevert),
    /// `split_edit`: create the old transaction again with its old lines (when not already
    /// back), then delete the one the edit created (when still there).
    SplitEdit {
        recreate: Option<NewTransaction>,
        delete: Option<String>,
        old_id: String,
    },
    /// Move merged transactions (id, payee put back) and schedules (id, the full object to PUT)
    /// back to their former payees; the payee they were merged into stays (`merge`).
    Merge {
        transactions: Vec<(String, String)>,
        scheduled: Vec<(String, ynab::writes::ScheduleSave)>,
        target_name: String,
    },
    /// Separate a linked transfer again (`link`): the kept side's payee and category put back
    /// (id, payee, category), then the deleted side recreated.
    Link {
        patch: Option<(String, Option<String>, Option<String>)>,
        recreate: Option<NewTransaction>,
    },
    /// Set several categories' assigned amounts of one month back (`budget_plan`), in order.
    /// Then each target still as set is saved with the fields that restore it.
    BudgetPlan {
        month: CalendarMonth,
        sides: Vec<AssignedSide>,
        targets: Vec<budget_plan::TargetBack>,
    },
    /// Move a merged category's assigned amounts, transactions, splits and schedules back
    /// (`category_merge`).
    CategoryMerge {
        back: category_merge::CategoryMergeBack,
        /// Safe text.
        source_name: String,
    },
}

impl Revert {
    /// The sentence an applied undo answers with: the operation's kind's (`op`), except where
    /// what was reverted is narrower or wider than it — a partly applied move whose undo sets
    /// one amount back says so of one amount, and a month's plan that had targets names them.
    pub fn undone(&self, op: Kind) -> &'static str {
        match self {
            Revert::BudgetPlan { targets, .. } if !targets.is_empty() => {
                "Assigned amounts and targets restored."
            }
            Revert::Budget { .. } => Kind::Budget.undone(),
            _ => op.undone(),
        }
    }
}

/// What undoing an operation would do now.
#[derive(Debug, Clone, PartialEq)]
pub struct UndoPlan {
    pub revert: Revert,
    /// Ids changed since, left alone.
    pub conflicts: Vec<String>,
    /// The reverting changes with the current values they overwrite (the subject's `reverts`).
    pub reverts: Vec<Value>,
    /// The question's first line, and the lines under it (capped by the confirmation path).
    pub question: String,
    pub lines: Vec<String>,
    /// Set when nothing can be reverted: the `nothing_to_do` message.
    pub nothing: Option<String>,
    /// Ids found holding their before value ([`Applied::Partly`]): not written, or put back.
    pub untouched: Vec<String>,
}

impl UndoPlan {
    fn new(revert: Revert, conflicts: Vec<String>, reverts: Vec<Value>, question: String) -> Self {
        UndoPlan {
            revert,
            conflicts,
            reverts,
            question,
            lines: Vec::new(),
            nothing: None,
            untouched: Vec::new(),
        }
    }

    fn untouched(mut self, untouched: Vec<String>) -> Self {
        self.untouched = untouched;
        self
    }

    fn nothing_when(mut self, empty: bool, message: &str) -> Self {
        self.nothing = empty.then(|| message.to_string());
        self
    }
}

fn live_transaction<'a>(
    plan: &'a PlanDetail,
    id: &str,
) -> Option<&'a ynab::models::TransactionSummary> {
    plan.transactions.iter().find(|t| t.id == id && !t.deleted)
}

/// `categorize`: a transaction whose category is still the one the move set goes back.
pub fn categorize(
    moves: &[CategoryMove],
    plan: &PlanDetail,
    fmt: &MoneyFormat,
    applied: Applied,
) -> UndoPlan {
    let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
    let names = PlanNames::new(plan);
    let name = |id: Option<&str>| id.and_then(|id| index.visible_name(id)).map(safe);
    let (mut changes, mut conflicts, mut untouched) = (Vec::new(), Vec::new(), Vec::new());
    for m in moves {
        let t = live_transaction(plan, &m.transaction_id);
        let holds = |category: &Option<String>| {
            t.is_some_and(|t| t.category_id.as_deref() == category.as_deref())
        };
        match (
            t,
            now(
                holds(&m.to_category_id),
                holds(&m.from_category_id),
                applied,
            ),
        ) {
            (_, Now::Before) => untouched.push(m.transaction_id.clone()),
            (Some(t), Now::After) => changes.push(Recategorised {
                transaction_id: t.id.clone().into(),
                date: t.date.clone().into(),
                amount: t.amount,
                payee: safe(names.payee(t.payee_id.as_deref())),
                from_category_id: t.category_id.clone().map(Into::into),
                from_category: name(t.category_id.as_deref()),
                to_category_id: m.from_category_id.clone(),
                to_category: name(m.from_category_id.as_deref()),
            }),
            _ => conflicts.push(m.transaction_id.clone()),
        }
    }
    let reverts = changes
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
    let question = format!("Undo: recategorise {} transaction(s)?", changes.len());
    let lines = changes.iter().map(|c| c.line(fmt)).collect();
    let empty = changes.is_empty();
    let mut plan = UndoPlan::new(Revert::Categorize { changes }, conflicts, reverts, question)
        .nothing_when(empty, &nothing)
        .untouched(untouched);
    plan.lines = lines;
    plan
}

/// The amount of `change` set back, and what the category holds now (gone, or an assigned
/// amount other than the operation's `to` — or its `from`, when partly applied — is changed).
fn assigned_back(
    change: &AssignedChange,
    categories: &[Category],
    applied: Applied,
) -> (AssignedSide, Now) {
    let current = categories
        .iter()
        .find(|c| c.id == change.category_id && !c.deleted);
    let back = AssignedSide {
        category_id: change.category_id.clone(),
        name: current.map(|c| safe(&c.name)).unwrap_or_default(),
        from: change.to,
        to: change.from,
        available_before: current.map_or(0, |c| c.balance),
    };
    let holds = |amount: Milliunits| current.is_some_and(|c| c.budgeted == amount);
    (back, now(holds(change.to), holds(change.from), applied))
}

fn assigned_revert(month: CalendarMonth, side: &AssignedSide) -> Value {
    json!({"category": side.category_id, "month": month.label(), "from": side.from, "to": side.to})
}

/// `budget`: set the assigned amount back, unless it changed since. `categories` are the
/// month's (hidden included).
pub fn budget(
    month: CalendarMonth,
    change: &AssignedChange,
    categories: &[Category],
    fmt: &MoneyFormat,
    applied: Applied,
) -> UndoPlan {
    let (side, now) = assigned_back(change, categories, applied);
    let (conflicts, untouched) = split_ids(&change.category_id, now);
    let question = format!(
        "Undo: set {} for {} back to {}?",
        side.name,
        month,
        fmt.plain(change.from)
    );
    let reverts = vec![assigned_revert(month, &side)];
    UndoPlan::new(Revert::Budget { month, side }, conflicts, reverts, question)
        .nothing_when(now != Now::After, "The amount changed since: left alone.")
        .untouched(untouched)
}

/// `move`: both amounts set back, or both left alone when either changed since. Partly applied
/// (D14), each half is read alone: the half found as the move set it is set back, one holding
/// its before value is left as it is, and only a half changed otherwise is a conflict.
pub fn move_money(
    month: CalendarMonth,
    source: &AssignedChange,
    target: &AssignedChange,
    categories: &[Category],
    applied: Applied,
    fmt: &MoneyFormat,
) -> UndoPlan {
    let (source, source_now) = assigned_back(source, categories, applied);
    let (target, target_now) = assigned_back(target, categories, applied);
    let conflicts: Vec<String> = [(&source, source_now), (&target, target_now)]
        .into_iter()
        .filter(|(_, now)| *now == Now::Changed)
        .map(|(side, _)| side.category_id.clone())
        .collect();
    let untouched: Vec<String> = [(&source, source_now), (&target, target_now)]
        .into_iter()
        .filter(|(_, now)| *now == Now::Before)
        .map(|(side, _)| side.category_id.clone())
        .collect();
    if applied.partly() && (source_now == Now::After) != (target_now == Now::After) {
        let half = if source_now == Now::After {
            source
        } else {
            target
        };
        let question = format!(
            "Undo: set {} for {} back to {}?",
            half.name,
            month,
            fmt.plain(half.to)
        );
        let reverts = vec![assigned_revert(month, &half)];
        let revert = Revert::Budget { month, side: half };
        return UndoPlan::new(revert, conflicts, reverts, question).untouched(untouched);
    }
    let reverts = vec![
        assigned_revert(month, &target),
        assigned_revert(month, &source),
    ];
    let question = format!(
        "Undo: move {} back from {} to {} for {}?",
        fmt.plain(source.to - source.from),
        target.name,
        source.name,
        month
    );
    let nothing = source_now != Now::After || target_now != Now::After;
    let revert = Revert::Move {
        month,
        source,
        target,
    };
    UndoPlan::new(revert, conflicts, reverts, question)
        .nothing_when(nothing, "An amount changed since: both left alone.")
        .untouched(untouched)
}

/// `create`: delete the created transactions still there. Partly applied, one that is gone was
/// never created or already deleted: not a conflict.
pub fn create(ids: Vec<String>, plan: &PlanDetail, applied: Applied) -> UndoPlan {
    let (present, gone): (Vec<String>, Vec<String>) = ids
        .into_iter()
        .partition(|id| live_transaction(plan, id).is_some());
    let (conflicts, untouched) = if applied.partly() {
        (Vec::new(), gone)
    } else {
        (gone, Vec::new())
    };
    let reverts = present.iter().map(|id| json!({"delete": id})).collect();
    let question = format!(
        "Undo: delete the {} transaction(s) this operation created?",
        present.len()
    );
    let empty = present.is_empty();
    UndoPlan::new(
        Revert::Create { ids: present },
        conflicts,
        reverts,
        question,
    )
    .nothing_when(empty, "Already deleted: nothing to undo.")
    .untouched(untouched)
}

/// `import`: delete what it brought in and is still there, each named in the question (an import
/// is transactions the person did not type).
pub fn imported(
    ids: Vec<String>,
    plan: &PlanDetail,
    fmt: &MoneyFormat,
    applied: Applied,
) -> UndoPlan {
    let names = PlanNames::new(plan);
    let mut planned = create(ids, plan, applied);
    let Revert::Create { ids: present } = &planned.revert else {
        return planned;
    };
    planned.lines = present
        .iter()
        .filter_map(|id| live_transaction(plan, id))
        .map(|t| {
            format!(
                "- {} {} {} on {}",
                t.date,
                safe(names.payee(t.payee_id.as_deref())),
                fmt.plain(t.amount),
                safe(names.account(&t.account_id))
            )
        })
        .collect();
    planned.question = format!(
        "Undo: delete the {} transaction(s) this import brought in?",
        present.len()
    );
    if planned.nothing.is_some() {
        planned.nothing = Some(
            "Nothing to delete: the import brought nothing in, or it is already deleted.".into(),
        );
    }
    planned
}

/// `flag`: put back the flags still as the operation set them.
pub fn flag(changes: &[FlagChange], plan: &PlanDetail, applied: Applied) -> UndoPlan {
    let (mut back, mut conflicts, mut untouched) = (Vec::new(), Vec::new(), Vec::new());
    for change in changes {
        let flag = live_transaction(plan, &change.transaction_id)
            .map(|t| t.flag_color.as_deref().filter(|c| !c.is_empty()));
        let id = change.transaction_id.clone();
        match now(
            flag == Some(change.to.as_deref()),
            flag == Some(change.from.as_deref()),
            applied,
        ) {
            Now::After => back.push((id, change.to.clone(), change.from.clone())),
            Now::Before => untouched.push(id),
            Now::Changed => conflicts.push(id),
        }
    }
    let reverts = back
        .iter()
        .map(|(id, now, to)| json!({"transaction_id": id, "flag_before": now, "flag_after": to}))
        .collect();
    let question = format!("Undo: put back the flag of {} transaction(s)?", back.len());
    let empty = back.is_empty();
    UndoPlan::new(Revert::Flags { back }, conflicts, reverts, question)
        .nothing_when(empty, "Every flag changed since: left alone.")
        .untouched(untouched)
}

/// `payee`: name the payee `from` again, unless its name is no longer exactly `to`.
pub fn payee(
    payee_id: &str,
    from: &str,
    to: &str,
    plan: &PlanDetail,
    applied: Applied,
) -> UndoPlan {
    let current = plan.payees.iter().find(|p| p.id == payee_id && !p.deleted);
    let named = |name: &str| current.is_some_and(|p| p.name == name);
    let now = now(named(to), named(from), applied);
    let (conflicts, untouched) = split_ids(payee_id, now);
    let reverts = vec![json!({"payee_id": payee_id, "name_before": to, "name_after": from})];
    let question = format!("Undo: name the payee ‘{}’ again?", safe(from));
    let revert = Revert::Payee {
        payee_id: payee_id.to_string(),
        name: from.to_string(),
    };
    UndoPlan::new(revert, conflicts, reverts, question)
        .nothing_when(
            now != Now::After,
            "The payee was renamed since: left alone.",
        )
        .untouched(untouched)
}

/// The conflicts and the untouched ids of a one-item operation on `id`.
fn split_ids(id: &str, now: Now) -> (Vec<String>, Vec<String>) {
    match now {
        Now::After => (Vec::new(), Vec::new()),
        Now::Before => (Vec::new(), vec![id.to_string()]),
        Now::Changed => (vec![id.to_string()], Vec::new()),
    }
}

/// What a reconciliation did besides marking transactions reconciled: undo deletes what it
/// created and puts the ones it cleared on the way back to uncleared.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Made {
    /// `reconcile_account`'s balance adjustment.
    pub adjustment: Option<String>,
    /// `import_statement`'s lines, created before the account was reconciled.
    pub imported: Vec<String>,
    /// Reconciled transactions that were uncleared before (a statement showed them).
    pub uncleared: Vec<String>,
}

/// `reconcile`: mark the still-reconciled transactions cleared again (uncleared, for the ones
/// that were) and delete what the reconciliation created, if still there.
pub fn reconcile(ids: Vec<String>, made: Made, plan: &PlanDetail, applied: Applied) -> UndoPlan {
    let (mut back, mut conflicts, mut untouched) = (Vec::new(), Vec::new(), Vec::new());
    for id in ids {
        let status = live_transaction(plan, &id).map(|t| t.cleared.as_str());
        let gone_adjustment = made.adjustment.as_ref() == Some(&id) && status.is_none();
        let before = match made.uncleared.contains(&id) {
            true => "uncleared",
            false => "cleared",
        };
        match now(
            status == Some("reconciled"),
            status == Some(before) || gone_adjustment,
            applied,
        ) {
            Now::After => back.push((id, before)),
            Now::Before => untouched.push(id),
            Now::Changed => conflicts.push(id),
        }
    }
    let live = |id: &String| live_transaction(plan, id).is_some();
    let adjustment = made.adjustment.filter(live);
    let imported: Vec<String> = made.imported.into_iter().filter(live).collect();
    // The count of the question keeps the adjustment among the marked, as the reference does.
    let question = reconcile_question(&back, adjustment.is_some(), imported.len());
    let reverts = back
        .iter()
        .map(|(id, before)| json!({"transaction_id": id, "cleared_before": "reconciled", "cleared_after": before}))
        .chain(adjustment.iter().chain(&imported).map(|a| json!({"delete": a})))
        .collect();
    back.retain(|(id, _)| Some(id) != adjustment.as_ref() && !imported.contains(id));
    let empty = back.is_empty() && adjustment.is_none() && imported.is_empty();
    let (to_unclear, to_clear) = back
        .into_iter()
        .partition::<Vec<_>, _>(|(_, b)| *b == "uncleared");
    let revert = Revert::Reconcile {
        to_clear: to_clear.into_iter().map(|(id, _)| id).collect(),
        to_unclear: to_unclear.into_iter().map(|(id, _)| id).collect(),
        adjustment,
        imported,
    };
    UndoPlan::new(revert, conflicts, reverts, question)
        .nothing_when(empty, "Every transaction changed since: left alone.")
        .untouched(untouched)
}

/// The question of a reconciliation's undo: what goes back to which status, what is deleted.
fn reconcile_question(back: &[(String, &str)], adjustment: bool, imported: usize) -> String {
    let unclear = back.iter().filter(|(_, b)| *b == "uncleared").count();
    let mut question = format!(
        "Undo reconciliation: mark {} transaction(s) back to cleared",
        back.len() - unclear
    );
    if unclear > 0 {
        question.push_str(&format!(" and {unclear} back to uncleared"));
    }
    if imported > 0 {
        question.push_str(&format!(
            " and delete the {imported} imported transaction(s)"
        ));
    }
    if adjustment {
        question.push_str(" and delete the balance adjustment");
    }
    question + "?"
}

/// `category` (D25): put the name and group back, unless either changed since.
pub fn category(edit: &CategoryEdit, plan: &PlanDetail, applied: Applied) -> UndoPlan {
    let current = plan.categories.iter().find(|c| c.id == edit.category_id);
    let now = now(
        !changed_since(current, &edit.name_after, &edit.group_after),
        !changed_since(current, &edit.name_before, &edit.group_before),
        applied,
    );
    let (conflicts, untouched) = split_ids(&edit.category_id, now);
    let group_name = plan
        .category_groups
        .iter()
        .find(|g| g.id == edit.group_before)
        .map(|g| safe(&g.name))
        .unwrap_or_default();
    let question = format!(
        "Undo: name the category ‘{}’ ‘{}’ in {group_name} again?",
        safe(&edit.name_after),
        safe(&edit.name_before)
    );
    let reverts = vec![json!({"category_id": edit.category_id,
        "name_before": edit.name_after, "group_before": edit.group_after,
        "name_after": edit.name_before, "group_after": edit.group_before})];
    let revert = Revert::Category {
        category_id: edit.category_id.clone(),
        name_now: edit.name_after.clone(),
        group_now: edit.group_after.clone(),
        name_back: edit.name_before.clone(),
        group_back: edit.group_before.clone(),
    };
    UndoPlan::new(revert, conflicts, reverts, question)
        .nothing_when(now != Now::After, "The category changed since: left alone.")
        .untouched(untouched)
}

/// `target`: save `fields`, unless the visible category's target no longer reads `after`.
/// `before` is how it read before the change (an intent notes it; a journal line does not).
pub fn target(
    category_id: &str,
    (before, after): (Option<&str>, &str),
    fields: &Value,
    plan: &PlanDetail,
    fmt: &MoneyFormat,
    applied: Applied,
) -> UndoPlan {
    let current = target_now(category_id, plan, fmt);
    let reads = current.as_ref().map(|(_, text)| text.as_str());
    let state = now(
        reads == Some(after),
        before.is_some() && reads == before,
        applied,
    );
    let (conflicts, untouched) = split_ids(category_id, state);
    let name = current
        .as_ref()
        .map(|(name, _)| name.as_str())
        .unwrap_or_default();
    let question = format!("Undo: set the target of {name} back?");
    let reverts =
        vec![json!({"category_id": category_id, "target_before": reads, "fields": fields})];
    let revert = Revert::Target {
        category_id: category_id.to_string(),
        fields: fields.clone(),
    };
    UndoPlan::new(revert, conflicts, reverts, question)
        .nothing_when(state != Now::After, "The target changed since: left alone.")
        .untouched(untouched)
}

/// The visible category's name (safe text) and how its target reads now.
fn target_now(category_id: &str, plan: &PlanDetail, fmt: &MoneyFormat) -> Option<(String, String)> {
    let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
    plan.categories
        .iter()
        .find(|c| c.id == category_id && index.is_visible(&c.id))
        .map(|c| (safe(&c.name), crate::logic::targets::describe(c, fmt)))
}

/// A `target` change the API cannot restore, interrupted (D14): whether it landed.
pub fn target_landing(
    category_id: &str,
    (before, after): (Option<&str>, &str),
    plan: &PlanDetail,
    fmt: &MoneyFormat,
) -> Landing {
    let now = target_now(category_id, plan, fmt).map(|(_, text)| text);
    if now.as_deref() == Some(after) {
        Landing::Applied
    } else if before.is_some() && now.as_deref() == before {
        Landing::NotApplied
    } else {
        Landing::Unknown
    }
}

/// A `split` interrupted (D14): applied when the transaction's lines have the intent's digests
/// (in any order), not applied when it is still one line in its category as before.
pub fn split_landing(split: &irreversible::SplitIntended, plan: &PlanDetail) -> Landing {
    let id = split.transaction_id.as_str();
    let Some(t) = live_transaction(plan, id) else {
        return Landing::Unknown;
    };
    let lines = split::line_digests(plan, id, split.digest_salt.as_deref());
    let mut wanted = split.line_digests.clone();
    wanted.sort();
    if !lines.is_empty() && lines == wanted {
        Landing::Applied
    } else if lines.is_empty() && t.category_id.as_deref() == split.category_before.as_deref() {
        Landing::NotApplied
    } else {
        Landing::Unknown
    }
}

/// A `category_create` interrupted (D14): applied when the group holds a category whose name
/// has the intent's digest — its id, then.
pub fn category_create_landing(
    intended: &irreversible::CategoryIntended,
    plan: &PlanDetail,
) -> (Landing, Option<String>) {
    let Some(digest) = intended.name_digest.as_deref() else {
        return (Landing::Unknown, None);
    };
    let salt = intended.digest_salt.as_deref();
    let found = plan.categories.iter().find(|c| {
        !c.deleted
            && c.category_group_id == intended.category_group_id
            && crate::logic::created::name_digest(salt, &c.name) == digest
    });
    match found {
        Some(c) => (Landing::Applied, Some(c.id.to_string())),
        None => (Landing::NotApplied, None),
    }
}

/// `approve` (D25): mark the transactions still approved unapproved again.
pub fn approve(ids: Vec<String>, plan: &PlanDetail, applied: Applied) -> UndoPlan {
    let (mut still, mut conflicts, mut untouched) = (Vec::new(), Vec::new(), Vec::new());
    for id in ids {
        let approved = live_transaction(plan, &id).map(|t| t.approved);
        match now(approved == Some(true), approved == Some(false), applied) {
            Now::After => still.push(id),
            Now::Before => untouched.push(id),
            Now::Changed => conflicts.push(id),
        }
    }
    let reverts = still
        .iter()
        .map(|id| json!({"transaction_id": id, "approved_before": true, "approved_after": false}))
        .collect();
    let question = format!(
        "Undo: mark {} transaction(s) unapproved again?",
        still.len()
    );
    let empty = still.is_empty();
    let revert = Revert::Approve {
        transaction_ids: still,
    };
    UndoPlan::new(revert, conflicts, reverts, question)
        .nothing_when(empty, "Every transaction changed since: left alone.")
        .untouched(untouched)
}

/// A deleted transaction as YNAB recreates it: every field but its id and its import id (the
/// bank-import link cannot come back). A transfer keeps its transfer payee, so YNAB makes its
/// other side again; a split keeps its lines.
pub fn recreation(t: &Transaction) -> NewTransaction {
    NewTransaction {
        account_id: t.account_id.clone(),
        date: t.date.clone(),
        amount: t.amount,
        payee_id: t.payee_id.clone(),
        payee_name: None,
        category_id: if t.subtransactions.is_empty() {
            t.category_id.clone()
        } else {
            None
        },
        memo: t.memo.clone(),
        cleared: Some(t.cleared.clone()),
        approved: Some(t.approved),
        flag_color: t.flag_color.clone().filter(|c| !c.is_empty()),
        import_id: None,
        subtransactions: t
            .subtransactions
            .iter()
            .map(|s| NewSubTransaction {
                amount: s.amount,
                payee_id: s.payee_id.clone(),
                payee_name: None,
                category_id: s.category_id.clone(),
                memo: s.memo.clone(),
            })
            .collect(),
    }
}

/// The digest (salted, D31) of a transaction as a recreation makes it: what recognises an
/// interrupted undo's recreations, which the tombstones cannot tell (they stay deleted).
pub fn recreation_digest(salt: &str, t: &NewTransaction) -> String {
    crate::logic::created::digest(
        Some(salt),
        &json!([
            t.account_id,
            t.date,
            t.amount,
            t.payee_id,
            t.category_id,
            t.memo
        ]),
    )
}

/// Whether a live transaction among `changed` is one of an interrupted undo's recreations.
pub fn recreated(digests: &[String], salt: &str, changed: &[Transaction]) -> bool {
    changed.iter().filter(|t| !t.deleted).any(|t| {
        let made = recreation(t);
        digests.contains(&recreation_digest(salt, &made))
    })
}

/// `delete` whose interrupted undo's recreation landed (one POST: all of it): nothing is left
/// to recreate, and the operation is put back.
pub fn delete_recreated(ids: &[String], knowledge: i64) -> UndoPlan {
    let revert = Revert::Recreate {
        items: Vec::new(),
        ids: Vec::new(),
        knowledge,
    };
    UndoPlan::new(revert, Vec::new(), Vec::new(), String::new())
        .nothing_when(
            true,
            "Already recreated by its interrupted undo: nothing to undo.",
        )
        .untouched(ids.to_vec())
}

/// A recreated transaction as the question shows it: `- {date} {payee} {amount} on {account}`,
/// and a transfer's other side that comes back with it.
fn deleted_line(t: &Transaction, names: &PlanNames, fmt: &MoneyFormat) -> String {
    let payee = match t.payee_id.as_deref() {
        Some(id) => safe(names.payee(Some(id))),
        None => safe(t.payee_name.as_deref().unwrap_or_default()),
    };
    let mut line = format!(
        "- {} {payee} {} on {}",
        t.date,
        fmt.plain(t.amount),
        safe(names.account(&t.account_id))
    );
    if let Some(other) = t.transfer_account_id.as_deref() {
        line.push_str(&format!(
            " (a transfer: its other side on {} comes back too)",
            safe(names.account(other))
        ));
    }
    line
}

/// `delete`: recreate the deleted transactions from YNAB's record of them (`deleted` holds the
/// transactions changed since the delete's knowledge, tombstones included). One still live was
/// never deleted: a conflict on a journal line, untouched when partly applied (D14). One YNAB no
/// longer shows deleted is a conflict. Of a transfer whose two sides were deleted, one is
/// recreated and YNAB makes the other.
pub fn delete(
    ids: &[String],
    deleted: &[Transaction],
    (plan, knowledge): (&PlanDetail, i64),
    fmt: &MoneyFormat,
    applied: Applied,
) -> UndoPlan {
    let names = PlanNames::new(plan);
    let (mut chosen, mut back, mut conflicts, mut untouched) = (
        Vec::<&Transaction>::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    for id in ids {
        if live_transaction(plan, id).is_some() {
            if applied.partly() {
                untouched.push(id.clone());
            } else {
                conflicts.push(id.clone());
            }
            continue;
        }
        match deleted.iter().find(|t| &t.id == id && t.deleted) {
            None => conflicts.push(id.clone()),
            Some(t) => {
                back.push(id.clone());
                let pair_chosen = chosen
                    .iter()
                    .any(|c| c.transfer_transaction_id.as_deref() == Some(id.as_str()));
                if !pair_chosen {
                    chosen.push(t);
                }
            }
        }
    }
    let lines = chosen
        .iter()
        .map(|t| deleted_line(t, &names, fmt))
        .collect();
    let reverts = back.iter().map(|id| json!({"recreate": id})).collect();
    let question = format!(
        "Undo: recreate {} deleted transaction(s)? They come back with new ids and without their bank-import link.",
        chosen.len()
    );
    let items = chosen.iter().map(|t| recreation(t)).collect();
    let empty = back.is_empty();
    let nothing = if conflicts.is_empty() {
        "Nothing to recreate: YNAB shows none of them deleted.".to_string()
    } else {
        format!(
            "Nothing to recreate: YNAB no longer shows {} of them deleted; left alone.",
            conflicts.len()
        )
    };
    let mut planned = UndoPlan::new(
        Revert::Recreate {
            items,
            ids: back,
            knowledge,
        },
        conflicts,
        reverts,
        question,
    )
    .nothing_when(empty, &nothing)
    .untouched(untouched);
    planned.lines = lines;
    planned
}

#[cfg(test)]
mod tests;
