//! Merging payees (`docs/writes/merge_payees.md`): which payees may be merged into which, what
//! moves (each source payee's transactions and schedules), and what cannot move through YNAB's
//! API and is named instead of skipped (split lines, split schedules, schedules whose next date
//! is not in the future).
//!
//! The undo of a `merge` is read here too ([`undo_merge`]): each moved item still on the target
//! goes back to its former payee; one moved elsewhere since is a conflict, left alone.

use super::category_edits::breaks_one_line;
use crate::text::fold;
use ynab::models::{Payee, PlanDetail, ScheduledTransactionSummary, TransactionSummary};
use ynab::writes::ScheduleSave;

/// Most source payees one request merges.
pub const MAX_SOURCES: usize = 100;
/// The longest payee name YNAB takes, in code points.
pub const MAX_NAME: usize = 500;
/// Most transactions YNAB is sent in one `PATCH /transactions` (`docs/contract/server.md` §10.11:
/// chunk ≤ 100).
pub const PATCH_CHUNK: usize = 100;

/// The payee the sources merge into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetAsked {
    /// An existing payee, by id.
    Existing(String),
    /// A new payee, by name (created through `POST /payees`).
    New(String),
}

/// Why a merge is refused, nothing sent. The order is the order the checks run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MergeRefusal {
    Empty,
    TooMany(usize),
    Twice(Vec<String>),
    UnknownSources(Vec<String>),
    TransferSources(Vec<String>),
    UnknownTarget(String),
    TransferTarget(String),
    TargetAmongSources(String),
    NameEmpty,
    NameTooLong(usize),
    NameNotOneLine,
    /// The new name is an existing payee's (case-folded): (name, that payee's id).
    NameTaken(String, String),
}

impl MergeRefusal {
    /// The sentence the tool answers (`name` is the new name as made safe for display).
    pub fn message(&self, shown_name: &str) -> String {
        match self {
            MergeRefusal::Empty => {
                "Give at least one payee to merge: source_payee_ids from list_payees.".to_string()
            }
            MergeRefusal::TooMany(n) => {
                format!("{n} payees asked: merge at most {MAX_SOURCES} at a time, then the rest.")
            }
            MergeRefusal::Twice(ids) => format!(
                "Payee {} is named twice in source_payee_ids: name each once.",
                ids.join(", ")
            ),
            MergeRefusal::UnknownSources(ids) => format!(
                "Payee {} is not in this plan: use a payee_id from list_payees.",
                ids.join(", ")
            ),
            MergeRefusal::TransferSources(ids) => format!(
                "Payee {} is a transfer's: its transactions move money between accounts and cannot be given another payee this way. Leave it out of source_payee_ids.",
                ids.join(", ")
            ),
            MergeRefusal::UnknownTarget(id) => format!(
                "Payee {id} (target_payee_id) is not in this plan: use a payee_id from list_payees, or give target_name to create a new payee."
            ),
            MergeRefusal::TransferTarget(id) => format!(
                "Payee {id} (target_payee_id) is a transfer's: merging into it would turn purchases into transfers. Choose an ordinary payee, or give target_name."
            ),
            MergeRefusal::TargetAmongSources(id) => format!(
                "Payee {id} is both the target and a source: leave it out of source_payee_ids."
            ),
            MergeRefusal::NameEmpty => {
                "target_name is empty: give the merchant's name.".to_string()
            }
            MergeRefusal::NameTooLong(n) => format!(
                "target_name is {n} characters: YNAB refuses a payee name longer than {MAX_NAME}."
            ),
            MergeRefusal::NameNotOneLine => format!(
                "{shown_name} contains a line break, control or format character (such as a zero-width or direction mark): give the name on one line, with visible characters only."
            ),
            MergeRefusal::NameTaken(_, id) => format!(
                "{shown_name} is already the name of payee {id}: pass target_payee_id {id} to merge into it."
            ),
        }
    }
}

/// What moves from one source payee, and what of it cannot.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceMove<'p> {
    pub payee_id: &'p str,
    pub name: &'p str,
    pub transactions: Vec<&'p TransactionSummary>,
    pub scheduled: Vec<&'p ScheduledTransactionSummary>,
    /// Split lines (of transactions) naming the payee: the API cannot update them.
    pub lines_not_moved: usize,
    /// Schedules naming the payee that a `PUT` cannot save as they are: split schedules (their
    /// lines would be lost), their lines, and schedules whose next date is not in the future.
    pub scheduled_not_moved: usize,
}

/// A merge that passed every check.
#[derive(Debug, Clone, PartialEq)]
pub struct Merge<'p> {
    pub sources: Vec<SourceMove<'p>>,
    /// The target's id, `None` for a new payee (created when applied).
    pub target_id: Option<String>,
    /// The target's name: the existing payee's, or the new one trimmed.
    pub target_name: String,
}

impl Merge<'_> {
    pub fn transactions(&self) -> usize {
        self.sources.iter().map(|s| s.transactions.len()).sum()
    }
    pub fn scheduled(&self) -> usize {
        self.sources.iter().map(|s| s.scheduled.len()).sum()
    }
    pub fn not_moved(&self) -> usize {
        self.sources
            .iter()
            .map(|s| s.lines_not_moved + s.scheduled_not_moved)
            .sum()
    }
}

/// Check merging `sources` into `target` against the plan; `today` (`YYYY-MM-DD`) tells which
/// schedules YNAB would still save.
pub fn plan_merge<'p>(
    plan: &'p PlanDetail,
    sources: &[String],
    target: &TargetAsked,
    today: &str,
) -> Result<Merge<'p>, MergeRefusal> {
    if sources.is_empty() {
        return Err(MergeRefusal::Empty);
    }
    if sources.len() > MAX_SOURCES {
        return Err(MergeRefusal::TooMany(sources.len()));
    }
    let twice = super::named_twice(sources.iter().map(String::as_str));
    if !twice.is_empty() {
        return Err(MergeRefusal::Twice(twice));
    }
    let payee = |id: &str| plan.payees.iter().find(|p| p.id == id && !p.deleted);
    let unknown: Vec<String> = sources
        .iter()
        .filter(|id| payee(id).is_none())
        .cloned()
        .collect();
    if !unknown.is_empty() {
        return Err(MergeRefusal::UnknownSources(unknown));
    }
    let transfer: Vec<String> = sources
        .iter()
        .filter(|id| payee(id).is_some_and(|p| p.transfer_account_id.is_some()))
        .cloned()
        .collect();
    if !transfer.is_empty() {
        return Err(MergeRefusal::TransferSources(transfer));
    }
    let (target_id, target_name) = match target {
        TargetAsked::Existing(id) => {
            let p = payee(id).ok_or_else(|| MergeRefusal::UnknownTarget(id.clone()))?;
            if p.transfer_account_id.is_some() {
                return Err(MergeRefusal::TransferTarget(id.clone()));
            }
            if sources.contains(id) {
                return Err(MergeRefusal::TargetAmongSources(id.clone()));
            }
            (Some(id.clone()), p.name.to_string())
        }
        TargetAsked::New(name) => (None, new_name(plan, name)?),
    };
    let mut moves = Vec::new();
    for id in sources {
        let Some(p) = payee(id) else { continue };
        moves.push(source_move(plan, p, id, today));
    }
    Ok(Merge {
        sources: moves,
        target_id,
        target_name,
    })
}

/// What moves from the source payee `p` (`id`): its transactions and the schedules the API can
/// save, with the split lines and schedules that stay.
fn source_move<'p>(plan: &'p PlanDetail, p: &'p Payee, id: &str, today: &str) -> SourceMove<'p> {
    let transactions = plan
        .transactions
        .iter()
        .filter(|t| !t.deleted && t.payee_id.as_deref() == Some(id))
        .collect();
    let lines_not_moved = plan
        .subtransactions
        .iter()
        .filter(|s| !s.deleted && s.payee_id.as_deref() == Some(id))
        .count();
    let is_split = |s: &ScheduledTransactionSummary| {
        plan.scheduled_subtransactions
            .iter()
            .any(|l| !l.deleted && l.scheduled_transaction_id == s.id)
    };
    let (scheduled, unsaveable): (Vec<_>, Vec<_>) = plan
        .scheduled_transactions
        .iter()
        .filter(|s| !s.deleted && s.payee_id.as_deref() == Some(id))
        .partition(|s| !is_split(s) && s.date_next.as_str() > today);
    let scheduled_lines = plan
        .scheduled_subtransactions
        .iter()
        .filter(|l| !l.deleted && l.payee_id.as_deref() == Some(id))
        .count();
    SourceMove {
        payee_id: &p.id,
        name: &p.name,
        transactions,
        scheduled,
        lines_not_moved,
        scheduled_not_moved: unsaveable.len() + scheduled_lines,
    }
}

/// The new payee's name, trimmed and checked as YNAB and `rename_payee` check one.
fn new_name(plan: &PlanDetail, name: &str) -> Result<String, MergeRefusal> {
    let name = name.trim();
    if name.is_empty() {
        return Err(MergeRefusal::NameEmpty);
    }
    let length = name.chars().count();
    if length > MAX_NAME {
        return Err(MergeRefusal::NameTooLong(length));
    }
    if breaks_one_line(name) {
        return Err(MergeRefusal::NameNotOneLine);
    }
    let folded = fold(name);
    if let Some(p) = plan
        .payees
        .iter()
        .find(|p| !p.deleted && fold(&p.name) == folded)
    {
        return Err(MergeRefusal::NameTaken(
            name.to_string(),
            p.id.clone().into(),
        ));
    }
    Ok(name.to_string())
}

/// A schedule as a `PUT` saves it again with `payee_id` (the full object, `docs/contract/server.md`
/// §10.8).
pub fn scheduled_save(s: &ScheduledTransactionSummary, payee_id: &str) -> ScheduleSave {
    ScheduleSave {
        payee_id: Some(payee_id.to_string()),
        ..crate::logic::schedules::save_of(s)
    }
}

/// One item a `merge` moved: its id and the payee it had.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Moved {
    pub id: String,
    pub from: String,
}

/// What undoing a merge would do now.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MergeBack {
    /// (transaction, payee put back).
    pub transactions: Vec<(String, String)>,
    /// (schedule, the full object to PUT, its former payee).
    pub scheduled: Vec<(String, ScheduleSave)>,
    /// Ids moved elsewhere since (or gone): left alone.
    pub conflicts: Vec<String>,
    /// Ids still on their former payee in a partly applied merge: never moved, nothing to do.
    pub untouched: Vec<String>,
}

/// `merge`: each moved transaction or schedule still on `target` goes back to its former payee.
/// One on another payee (or gone) is a conflict; one back on its former payee is untouched when
/// `partly` (an unfinished intent: it was never moved), a conflict otherwise. `target` is `None`
/// when an unfinished merge's new payee cannot be found: nothing is then known to be on it.
pub fn undo_merge(
    plan: &PlanDetail,
    transactions: &[Moved],
    scheduled: &[Moved],
    target: Option<&str>,
    partly: bool,
) -> MergeBack {
    let mut back = MergeBack::default();
    let mut sort = |id: &str, now: Option<&str>, from: &str| -> bool {
        if now.is_some() && now == target {
            return true;
        }
        if partly && now == Some(from) {
            back.untouched.push(id.to_string());
        } else {
            back.conflicts.push(id.to_string());
        }
        false
    };
    let mut moving_transactions = Vec::new();
    for m in transactions {
        let t = plan
            .transactions
            .iter()
            .find(|t| t.id == m.id && !t.deleted);
        if sort(&m.id, t.and_then(|t| t.payee_id.as_deref()), &m.from) {
            moving_transactions.push((m.id.clone(), m.from.clone()));
        }
    }
    let mut moving_scheduled = Vec::new();
    for m in scheduled {
        let s = plan
            .scheduled_transactions
            .iter()
            .find(|s| s.id == m.id && !s.deleted);
        if sort(&m.id, s.and_then(|s| s.payee_id.as_deref()), &m.from)
            && let Some(s) = s
        {
            moving_scheduled.push((m.id.clone(), scheduled_save(s, &m.from)));
        }
    }
    back.transactions = moving_transactions;
    back.scheduled = moving_scheduled;
    back
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plan() -> PlanDetail {
        serde_json::from_value(json!({
            "id": "p", "name": "Plan",
            "payees": [
                {"id": "raw1", "name": "CB SHOP 1", "deleted": false},
                {"id": "raw2", "name": "CB SHOP 2", "deleted": false},
                {"id": "shop", "name": "Shop", "deleted": false},
                {"id": "gone", "name": "Old", "deleted": true},
                {"id": "tr", "name": "Transfer : Savings", "transfer_account_id": "sav", "deleted": false}
            ],
            "transactions": [
                {"id": "t1", "date": "2026-09-01", "amount": -1000, "cleared": "cleared", "approved": true, "account_id": "a", "payee_id": "raw1", "deleted": false},
                {"id": "t2", "date": "2026-09-02", "amount": -2000, "cleared": "cleared", "approved": true, "account_id": "a", "payee_id": "raw2", "deleted": false},
                {"id": "t3", "date": "2026-09-03", "amount": -3000, "cleared": "cleared", "approved": true, "account_id": "a", "payee_id": "raw2", "deleted": true},
                {"id": "t4", "date": "2026-09-04", "amount": -4000, "cleared": "cleared", "approved": true, "account_id": "a", "payee_id": "other", "deleted": false}
            ],
            "subtransactions": [
                {"id": "s1", "transaction_id": "t4", "amount": -4000, "payee_id": "raw1", "deleted": false}
            ],
            "scheduled_transactions": [
                {"id": "sc1", "date_first": "2026-06-05", "date_next": "2026-10-05", "frequency": "monthly", "amount": -500, "account_id": "a", "payee_id": "raw1", "category_id": "c", "memo": "m", "deleted": false},
                {"id": "sc2", "date_first": "2026-06-05", "date_next": "2026-09-05", "frequency": "never", "amount": -500, "account_id": "a", "payee_id": "raw2", "deleted": false}
            ]
        }))
        .expect("a plan")
    }

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn what_moves_and_what_cannot_is_counted_per_payee() {
        let p = plan();
        let merge = plan_merge(
            &p,
            &ids(&["raw1", "raw2"]),
            &TargetAsked::Existing("shop".into()),
            "2026-09-20",
        )
        .expect("valid");
        assert_eq!(merge.target_id.as_deref(), Some("shop"));
        assert_eq!(merge.target_name, "Shop");
        let raw1 = &merge.sources[0];
        assert_eq!(raw1.transactions.len(), 1);
        assert_eq!(raw1.scheduled.len(), 1);
        assert_eq!(raw1.lines_not_moved, 1);
        let raw2 = &merge.sources[1];
        // the deleted one does not move; the schedule due in the past cannot be saved
        assert_eq!(raw2.transactions.len(), 1);
        assert_eq!(raw2.scheduled.len(), 0);
        assert_eq!(raw2.scheduled_not_moved, 1);
        assert_eq!(
            (merge.transactions(), merge.scheduled(), merge.not_moved()),
            (2, 1, 2)
        );
    }

    #[test]
    fn refusals_run_in_order() {
        let p = plan();
        let shop = TargetAsked::Existing("shop".into());
        let t = "2026-09-20";
        assert_eq!(plan_merge(&p, &[], &shop, t), Err(MergeRefusal::Empty));
        assert_eq!(
            plan_merge(&p, &ids(&["raw1", "raw1"]), &shop, t),
            Err(MergeRefusal::Twice(ids(&["raw1"])))
        );
        assert_eq!(
            plan_merge(&p, &ids(&["gone", "nope", "raw1"]), &shop, t),
            Err(MergeRefusal::UnknownSources(ids(&["gone", "nope"])))
        );
        assert_eq!(
            plan_merge(&p, &ids(&["tr"]), &shop, t),
            Err(MergeRefusal::TransferSources(ids(&["tr"])))
        );
        assert_eq!(
            plan_merge(&p, &ids(&["raw1"]), &TargetAsked::Existing("x".into()), t),
            Err(MergeRefusal::UnknownTarget("x".into()))
        );
        assert_eq!(
            plan_merge(&p, &ids(&["raw1"]), &TargetAsked::Existing("tr".into()), t),
            Err(MergeRefusal::TransferTarget("tr".into()))
        );
        assert_eq!(
            plan_merge(
                &p,
                &ids(&["raw1"]),
                &TargetAsked::Existing("raw1".into()),
                t
            ),
            Err(MergeRefusal::TargetAmongSources("raw1".into()))
        );
        let new = |n: &str| TargetAsked::New(n.into());
        assert_eq!(
            plan_merge(&p, &ids(&["raw1"]), &new("  "), t),
            Err(MergeRefusal::NameEmpty)
        );
        assert_eq!(
            plan_merge(&p, &ids(&["raw1"]), &new(&"é".repeat(501)), t),
            Err(MergeRefusal::NameTooLong(501))
        );
        assert_eq!(
            plan_merge(&p, &ids(&["raw1"]), &new("a\nb"), t),
            Err(MergeRefusal::NameNotOneLine)
        );
        assert_eq!(
            plan_merge(&p, &ids(&["raw1"]), &new(" SHOP "), t),
            Err(MergeRefusal::NameTaken("SHOP".into(), "shop".into()))
        );
        let merge =
            plan_merge(&p, &ids(&["raw1"]), &new(" Old "), t).expect("a deleted name is free");
        assert_eq!((merge.target_id, merge.target_name.as_str()), (None, "Old"));
    }

    #[test]
    fn a_schedule_is_saved_whole_with_its_new_payee() {
        // Whole: a field it has not (no flag) is sent as null, as YNAB's PUT replaces them all.
        let p = plan();
        let save = scheduled_save(&p.scheduled_transactions[0], "shop");
        assert_eq!(
            serde_json::to_value(save).expect("json"),
            json!({"account_id": "a", "date": "2026-10-05", "amount": -500, "payee_id": "shop",
                   "category_id": "c", "memo": "m", "flag_color": null, "frequency": "monthly"})
        );
    }

    #[test]
    fn undo_moves_back_what_is_still_on_the_target() {
        let mut p = plan();
        p.transactions[0].payee_id = Some("shop".into());
        p.transactions[1].payee_id = Some("raw1".into()); // moved elsewhere since
        p.scheduled_transactions[0].payee_id = Some("shop".into());
        let moved = |id: &str, from: &str| Moved {
            id: id.into(),
            from: from.into(),
        };
        let back = undo_merge(
            &p,
            &[
                moved("t1", "raw1"),
                moved("t2", "raw2"),
                moved("t9", "raw2"),
            ],
            &[moved("sc1", "raw1")],
            Some("shop"),
            false,
        );
        assert_eq!(
            back.transactions,
            vec![("t1".to_string(), "raw1".to_string())]
        );
        assert_eq!(back.conflicts, ids(&["t2", "t9"]));
        assert_eq!(back.scheduled.len(), 1);
        assert_eq!(back.scheduled[0].1.payee_id.as_deref(), Some("raw1"));
        // partly applied: one still on its source was never moved
        p.transactions[1].payee_id = Some("raw2".into());
        let back = undo_merge(&p, &[moved("t2", "raw2")], &[], Some("shop"), true);
        assert_eq!(back.untouched, ids(&["t2"]));
        assert!(back.conflicts.is_empty());
        // the target unknown: nothing is known to be on it
        let back = undo_merge(&p, &[moved("t1", "raw1")], &[], None, true);
        assert_eq!(back.conflicts, ids(&["t1"]));
    }
}
