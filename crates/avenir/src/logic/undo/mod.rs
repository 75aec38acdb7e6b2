//! What undoing a journaled operation would do now (`tools-write.md` §10.2): one function per
//! kind compares the plan's current state with what the operation set. Each returns an
//! [`UndoPlan`] — the reverting changes, the question, what changed since and is left alone —
//! and the undo tool only reads the plan and the journal, then shapes the plan it gets.

pub mod details;

pub use details::{
    AssignedChange, CategoryEdit, CategoryMove, Created, Details, FlagChange, Recognition, Refusal,
    parse,
};

pub use super::recategorised::Recategorised;
use crate::logic::assignable::CategoryIndex;
use crate::logic::category_edits::changed_since;
use crate::logic::names::PlanNames;
use crate::money::MoneyFormat;
use crate::months::CalendarMonth;
use crate::text::safe;
use serde_json::{Value, json};
use ynab::models::{Category, Milliunits, PlanDetail};

/// A category's assigned amount set back: from what it holds to what it held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssignedBack {
    pub category_id: String,
    /// Safe text; empty when the category is gone (then it is a conflict and nothing is sent).
    pub name: String,
    /// The amount now (the operation's `to`).
    pub from: Milliunits,
    /// The amount put back (the operation's `from`).
    pub to: Milliunits,
    /// Available now; 0 when the category is gone.
    pub available_before: Milliunits,
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
        side: AssignedBack,
    },
    Move {
        month: CalendarMonth,
        source: AssignedBack,
        target: AssignedBack,
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
    /// Rename the payee back to `name`.
    Payee {
        payee_id: String,
        name: String,
    },
    /// Mark reconciled transactions cleared again; delete the adjustment if still there.
    Reconcile {
        to_clear: Vec<String>,
        adjustment: Option<String>,
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
        }
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
pub fn categorize(moves: &[CategoryMove], plan: &PlanDetail, fmt: &MoneyFormat) -> UndoPlan {
    let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
    let names = PlanNames::new(plan);
    let name = |id: Option<&str>| id.and_then(|id| index.visible_name(id)).map(safe);
    let (mut changes, mut conflicts) = (Vec::new(), Vec::new());
    for m in moves {
        match live_transaction(plan, &m.transaction_id) {
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
        .nothing_when(empty, &nothing);
    plan.lines = lines;
    plan
}

/// The amount of `change` set back, and whether the category changed since (gone, or its
/// assigned amount is no longer the operation's `to`).
fn assigned_back(change: &AssignedChange, categories: &[Category]) -> (AssignedBack, bool) {
    let current = categories
        .iter()
        .find(|c| c.id == change.category_id && !c.deleted);
    let back = AssignedBack {
        category_id: change.category_id.clone(),
        name: current.map(|c| safe(&c.name)).unwrap_or_default(),
        from: change.to,
        to: change.from,
        available_before: current.map_or(0, |c| c.balance),
    };
    (back, current.is_none_or(|c| c.budgeted != change.to))
}

fn assigned_revert(month: CalendarMonth, side: &AssignedBack) -> Value {
    json!({"category": side.category_id, "month": month.label(), "from": side.from, "to": side.to})
}

/// `budget`: set the assigned amount back, unless it changed since. `categories` are the
/// month's (hidden included).
pub fn budget(
    month: CalendarMonth,
    change: &AssignedChange,
    categories: &[Category],
    fmt: &MoneyFormat,
) -> UndoPlan {
    let (side, changed) = assigned_back(change, categories);
    let conflicts = if changed {
        vec![change.category_id.clone()]
    } else {
        Vec::new()
    };
    let question = format!(
        "Undo: set {} for {} back to {}?",
        side.name,
        month,
        fmt.plain(change.from)
    );
    let reverts = vec![assigned_revert(month, &side)];
    UndoPlan::new(Revert::Budget { month, side }, conflicts, reverts, question)
        .nothing_when(changed, "The amount changed since: left alone.")
}

/// `move`: both amounts set back, or both left alone when either changed since — except for an
/// unfinished move (`from_intent`) that applied one half: that half is set back (D14).
pub fn move_money(
    month: CalendarMonth,
    source: &AssignedChange,
    target: &AssignedChange,
    categories: &[Category],
    from_intent: bool,
    fmt: &MoneyFormat,
) -> UndoPlan {
    let (source, source_changed) = assigned_back(source, categories);
    let (target, target_changed) = assigned_back(target, categories);
    let conflicts: Vec<String> = [(&source, source_changed), (&target, target_changed)]
        .into_iter()
        .filter(|(_, changed)| *changed)
        .map(|(side, _)| side.category_id.clone())
        .collect();
    if from_intent && conflicts.len() == 1 {
        let applied = if source_changed { target } else { source };
        let question = format!(
            "Undo: set {} for {} back to {}?",
            applied.name,
            month,
            fmt.plain(applied.to)
        );
        let reverts = vec![assigned_revert(month, &applied)];
        let revert = Revert::Budget {
            month,
            side: applied,
        };
        return UndoPlan::new(revert, conflicts, reverts, question);
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
    let changed = !conflicts.is_empty();
    let revert = Revert::Move {
        month,
        source,
        target,
    };
    UndoPlan::new(revert, conflicts, reverts, question)
        .nothing_when(changed, "An amount changed since: both left alone.")
}

/// `create`: delete the created transactions still there.
pub fn create(ids: Vec<String>, plan: &PlanDetail) -> UndoPlan {
    let (present, conflicts): (Vec<String>, Vec<String>) = ids
        .into_iter()
        .partition(|id| live_transaction(plan, id).is_some());
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
}

/// `flag`: put back the flags still as the operation set them.
pub fn flag(changes: &[FlagChange], plan: &PlanDetail) -> UndoPlan {
    let (mut back, mut conflicts) = (Vec::new(), Vec::new());
    for change in changes {
        let now = live_transaction(plan, &change.transaction_id)
            .map(|t| t.flag_color.clone().filter(|c| !c.is_empty()));
        if now.as_ref() == Some(&change.to) {
            back.push((
                change.transaction_id.clone(),
                change.to.clone(),
                change.from.clone(),
            ));
        } else {
            conflicts.push(change.transaction_id.clone());
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
}

/// `payee`: name the payee `from` again, unless its name is no longer exactly `to`.
pub fn payee(payee_id: &str, from: &str, to: &str, plan: &PlanDetail) -> UndoPlan {
    let current = plan.payees.iter().find(|p| p.id == payee_id && !p.deleted);
    let changed = current.is_none_or(|p| p.name != to);
    let conflicts = if changed {
        vec![payee_id.to_string()]
    } else {
        Vec::new()
    };
    let reverts = vec![json!({"payee_id": payee_id, "name_before": to, "name_after": from})];
    let question = format!("Undo: name the payee ‘{}’ again?", safe(from));
    let revert = Revert::Payee {
        payee_id: payee_id.to_string(),
        name: from.to_string(),
    };
    UndoPlan::new(revert, conflicts, reverts, question)
        .nothing_when(changed, "The payee was renamed since: left alone.")
}

/// `reconcile`: mark the still-reconciled transactions cleared again and delete the adjustment
/// if it is still there.
pub fn reconcile(ids: Vec<String>, adjustment: Option<String>, plan: &PlanDetail) -> UndoPlan {
    let (to_clear, conflicts): (Vec<String>, Vec<String>) = ids
        .into_iter()
        .partition(|id| live_transaction(plan, id).is_some_and(|t| t.cleared == "reconciled"));
    let adjustment = adjustment.filter(|a| live_transaction(plan, a).is_some());
    let reverts = to_clear
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
    let empty = to_clear.is_empty() && adjustment.is_none();
    let revert = Revert::Reconcile {
        to_clear: to_clear
            .into_iter()
            .filter(|id| Some(id) != adjustment.as_ref())
            .collect(),
        adjustment,
    };
    UndoPlan::new(revert, conflicts, reverts, question)
        .nothing_when(empty, "Every transaction changed since: left alone.")
}

/// `category` (D25): put the name and group back, unless either changed since.
pub fn category(edit: &CategoryEdit, plan: &PlanDetail) -> UndoPlan {
    let current = plan.categories.iter().find(|c| c.id == edit.category_id);
    let changed = changed_since(current, &edit.name_after, &edit.group_after);
    let conflicts = if changed {
        vec![edit.category_id.clone()]
    } else {
        Vec::new()
    };
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
        .nothing_when(changed, "The category changed since: left alone.")
}

/// `target`: save `fields`, unless the visible category's target no longer reads `after`.
pub fn target(
    category_id: &str,
    after: &str,
    fields: &Value,
    plan: &PlanDetail,
    fmt: &MoneyFormat,
) -> UndoPlan {
    let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
    let current = plan
        .categories
        .iter()
        .find(|c| c.id == category_id && index.is_visible(&c.id));
    let now = current.map(|c| crate::logic::targets::describe(c, fmt));
    let changed = now.as_deref() != Some(after);
    let conflicts = if changed {
        vec![category_id.to_string()]
    } else {
        Vec::new()
    };
    let name = current.map(|c| safe(&c.name)).unwrap_or_default();
    let question = format!("Undo: set the target of {name} back?");
    let reverts = vec![json!({"category_id": category_id, "target_before": now, "fields": fields})];
    let revert = Revert::Target {
        category_id: category_id.to_string(),
        fields: fields.clone(),
    };
    UndoPlan::new(revert, conflicts, reverts, question)
        .nothing_when(changed, "The target changed since: left alone.")
}

/// `approve` (D25): mark the transactions still approved unapproved again.
pub fn approve(ids: Vec<String>, plan: &PlanDetail) -> UndoPlan {
    let (still, conflicts): (Vec<String>, Vec<String>) = ids
        .into_iter()
        .partition(|id| live_transaction(plan, id).is_some_and(|t| t.approved));
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
}

#[cfg(test)]
mod tests;
