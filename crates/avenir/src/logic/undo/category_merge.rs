//! Undoing a `category_merge` (`docs/writes/merge_categories.md`): each month's assigned
//! amounts, the transactions, the recreated splits and the schedules go back to the source
//! category, each read as its own kind's undo reads it (`budget_plan`'s for the months,
//! `categorize`'s for the transactions, `split_edit`'s for the splits). Anything changed since
//! is a conflict, left alone and named; partly applied (D14), what holds its before value is
//! untouched.

use super::Refusal;
use super::per_kind::{Entry, Planned, Reads, UndoKind};
use super::record::from_details;
use super::split_edit::{SplitEditDone, split_edit};
use super::{Applied, AssignedChange, AssignedSide, CategoryMove, Recategorised, Revert, UndoPlan};
use crate::logic::category_merge::{MonthMove, scheduled_save};
use crate::money::MoneyFormat;
use crate::months::CalendarMonth;
use crate::text::safe;
use serde_json::{Value, json};
use ynab::models::{Category, PlanDetail, Transaction};
use ynab::writes::{NewTransaction, ScheduleSave};

/// What a `category_merge` journaled (or its intent noted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategoryMergeDone {
    pub source: String,
    pub target: String,
    pub months: Vec<MonthMove>,
    pub transactions: Vec<String>,
    pub scheduled: Vec<String>,
    /// Each recreated split, as `split_edit` journals one.
    pub splits: Vec<SplitEditDone>,
}

/// A `category_merge`'s journal record, as the tool writes it and undo reads it: the two
/// categories, each month's assigned amounts before, the transactions and schedules moved (ids),
/// and each split recreated by its salted digest, with its new id once known (an intent has none).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CategoryMerged {
    pub source_category_id: String,
    pub target_category_id: String,
    pub months: Vec<MonthRecord>,
    pub transactions: Vec<String>,
    pub scheduled: Vec<String>,
    pub splits: Vec<SplitRecord>,
    pub digest_salt: String,
    /// The plan's knowledge when the merge read it: undo reads the old splits' tombstones since.
    pub server_knowledge: i64,
}

/// One month of a [`CategoryMerged`]: both categories' assigned amounts before the merge.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MonthRecord {
    /// `YYYY-MM-01`.
    pub month: String,
    pub source: i64,
    pub target: i64,
}

/// One split of a [`CategoryMerged`] recreated in the target category.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SplitRecord {
    pub old_id: String,
    pub new_digest: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_id: Option<String>,
}

impl CategoryMerged {
    /// What undo compares: each split read as `split_edit` journals one.
    pub fn done(self) -> CategoryMergeDone {
        let splits = self
            .splits
            .into_iter()
            .map(|split| SplitEditDone {
                old_id: split.old_id,
                new_id: split.new_id,
                server_knowledge: self.server_knowledge,
                digest_salt: self.digest_salt.clone(),
                new_digest: split.new_digest,
            })
            .collect();
        let months = self
            .months
            .into_iter()
            .map(|m| MonthMove {
                month: m.month,
                source_before: m.source,
                target_before: m.target,
            })
            .collect();
        CategoryMergeDone {
            source: self.source_category_id,
            target: self.target_category_id,
            months,
            transactions: self.transactions,
            scheduled: self.scheduled,
            splits,
        }
    }
}

/// One split put back: (the old transaction to create again, the recreation to delete, the old
/// id).
pub type SplitBack = (Option<NewTransaction>, Option<String>, String);

/// What the undo of a `category_merge` sends, in this order.
#[derive(Debug, Clone, PartialEq)]
pub struct CategoryMergeBack {
    /// Per month, the target lowered first, then the source raised.
    pub months: Vec<(CalendarMonth, Vec<AssignedSide>)>,
    pub transactions: Vec<Recategorised>,
    pub splits: Vec<SplitBack>,
    pub scheduled: Vec<(String, ScheduleSave)>,
}

/// What the undo of a merge gathers, part by part: each part's conflicts, untouched ids,
/// reverts and question lines, and what it sends back.
struct Gathered {
    conflicts: Vec<String>,
    untouched: Vec<String>,
    reverts: Vec<Value>,
    lines: Vec<String>,
    back: CategoryMergeBack,
}

impl Gathered {
    /// A part's conflicts, untouched ids and reverts.
    fn absorb(&mut self, planned: &UndoPlan) {
        self.conflicts.extend(planned.conflicts.iter().cloned());
        self.untouched.extend(planned.untouched.iter().cloned());
        if planned.nothing.is_none() {
            self.reverts.extend(planned.reverts.iter().cloned());
        }
    }

    /// Each month's two amounts, read as a `budget_plan` of that month; a month's conflict names
    /// the month, since the same category recurs in every month.
    fn month(&mut self, done: &CategoryMergeDone, m: &MonthMove, ctx: &Ctx<'_>) {
        let Some(month) = CalendarMonth::from_ynab(&m.month) else {
            self.conflicts.push(format!("{} {}", done.source, m.month));
            return;
        };
        let categories = ctx
            .months
            .iter()
            .find(|(c, _)| *c == month)
            .map(|(_, c)| c.as_slice())
            .unwrap_or_default();
        let changes = [
            AssignedChange {
                category_id: done.target.clone(),
                from: m.target_before,
                to: m.target_after(),
            },
            AssignedChange {
                category_id: done.source.clone(),
                from: m.source_before,
                to: 0,
            },
        ];
        let (fmt, applied) = (ctx.fmt, ctx.applied);
        let planned =
            super::budget_plan::budget_plan(month, (&changes, &[]), categories, &[], fmt, applied);
        let of_month = |ids: &[String]| ids.iter().map(|c| format!("{c} {}", m.month)).collect();
        let planned = UndoPlan {
            conflicts: of_month(&planned.conflicts),
            untouched: of_month(&planned.untouched),
            ..planned
        };
        self.absorb(&planned);
        if let Revert::BudgetPlan { sides, .. } = planned.revert
            && !sides.is_empty()
        {
            let shown: Vec<String> = sides
                .iter()
                .map(|s| format!("{} {} → {}", s.name, fmt.plain(s.from), fmt.plain(s.to)))
                .collect();
            self.lines.push(format!("- {month}: {}", shown.join(", ")));
            self.back.months.push((month, sides));
        }
    }

    /// The transactions moved, read as a `categorize` from the source to the target.
    fn transactions(&mut self, done: &CategoryMergeDone, ctx: &Ctx<'_>) {
        let moves: Vec<CategoryMove> = done
            .transactions
            .iter()
            .map(|id| CategoryMove {
                transaction_id: id.clone(),
                from_category_id: Some(done.source.clone()),
                to_category_id: Some(done.target.clone()),
            })
            .collect();
        if moves.is_empty() {
            return;
        }
        let planned = super::categorize(&moves, ctx.plan, ctx.fmt, ctx.applied);
        self.absorb(&planned);
        if let Revert::Categorize { changes } = planned.revert {
            self.back.transactions = changes;
        }
    }

    /// Each split recreated, read as a `split_edit`.
    fn split(&mut self, split: &SplitEditDone, ctx: &Ctx<'_>) {
        let planned = split_edit(split, ctx.changed, ctx.plan, ctx.fmt, ctx.applied);
        self.absorb(&planned);
        if let Revert::SplitEdit {
            recreate,
            delete,
            old_id,
        } = planned.revert
            && (recreate.is_some() || delete.is_some())
        {
            self.back.splits.push((recreate, delete, old_id));
        }
    }

    /// A schedule moved: back to the source while it is still in the target.
    fn schedule(&mut self, done: &CategoryMergeDone, id: &str, ctx: &Ctx<'_>) {
        let s = ctx
            .plan
            .scheduled_transactions
            .iter()
            .find(|s| s.id == id && !s.deleted);
        let category = s.and_then(|s| s.category_id.as_deref());
        match s {
            Some(s) if category == Some(done.target.as_str()) => {
                self.reverts.push(json!({"scheduled_transaction_id": id,
                    "category_before": done.target, "category_after": done.source}));
                self.back
                    .scheduled
                    .push((id.to_string(), scheduled_save(s, &done.source)));
            }
            _ if ctx.applied == Applied::Partly && category == Some(done.source.as_str()) => {
                self.untouched.push(id.to_string());
            }
            _ => self.conflicts.push(id.to_string()),
        }
    }

    /// The undo asked: what goes back into the source, or why nothing does.
    fn finish(self, source_name: String, fmt: &MoneyFormat) -> UndoPlan {
        let Gathered {
            conflicts,
            untouched,
            reverts,
            mut lines,
            back,
        } = self;
        let question = format!(
            "Undo: move back into {source_name} {} month(s) of assigned amounts, {} transaction(s), {} split(s) and {} schedule(s)? Each split is created again with its old lines (a new id, no bank-import link).",
            back.months.len(),
            back.transactions.len(),
            back.splits.len(),
            back.scheduled.len()
        );
        lines.extend(back.transactions.iter().map(|c| c.line(fmt)));
        let empty = back.months.is_empty()
            && back.transactions.is_empty()
            && back.splits.is_empty()
            && back.scheduled.is_empty();
        let nothing = if conflicts.is_empty() {
            "Nothing to move back: everything is in its former category.".to_string()
        } else {
            format!(
                "Nothing to move back: {} item(s) changed since; left alone.",
                conflicts.len()
            )
        };
        let revert = Revert::CategoryMerge { back, source_name };
        let mut planned = UndoPlan::new(revert, conflicts, reverts, question)
            .nothing_when(empty, &nothing)
            .untouched(untouched);
        planned.lines = lines;
        planned
    }
}

/// What every part of a merge's undo reads.
struct Ctx<'a> {
    plan: &'a PlanDetail,
    months: &'a [(CalendarMonth, Vec<Category>)],
    changed: &'a [Transaction],
    fmt: &'a MoneyFormat,
    applied: Applied,
}

/// `category_merge`: put back what is still as the merge left it. `months` are the months'
/// categories (those the journal names); `changed` the transactions changed since the merge's
/// knowledge, tombstones included (YNAB's record of the recreated splits' old transactions).
pub fn category_merge(
    done: &CategoryMergeDone,
    plan: &PlanDetail,
    months: &[(CalendarMonth, Vec<Category>)],
    changed: &[Transaction],
    fmt: &MoneyFormat,
    applied: Applied,
) -> UndoPlan {
    let ctx = Ctx {
        plan,
        months,
        changed,
        fmt,
        applied,
    };
    let mut gathered = Gathered {
        conflicts: Vec::new(),
        untouched: Vec::new(),
        reverts: Vec::new(),
        lines: Vec::new(),
        back: CategoryMergeBack {
            months: Vec::new(),
            transactions: Vec::new(),
            splits: Vec::new(),
            scheduled: Vec::new(),
        },
    };
    for m in &done.months {
        gathered.month(done, m, &ctx);
    }
    gathered.transactions(done, &ctx);
    for split in &done.splits {
        gathered.split(split, &ctx);
    }
    for id in &done.scheduled {
        gathered.schedule(done, id, &ctx);
    }
    let source_name = plan
        .categories
        .iter()
        .find(|c| c.id == done.source)
        .map(|c| safe(&c.name))
        .unwrap_or_default();
    gathered.finish(source_name, fmt)
}

impl UndoKind for CategoryMergeDone {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "Assigned amounts, transactions, splits and schedules moved back to the category they were merged from; the splits were created again with their old lines (new ids, no bank-import link).";

    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        from_details::<CategoryMerged>(entry.details).map(CategoryMerged::done)
    }

    /// Each month's categories, and what changed since for its splits.
    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let mut months = Vec::new();
        for m in &self.months {
            if let Some(month) = CalendarMonth::from_ynab(&m.month) {
                months.push((month, reads.month(month).await?));
            }
        }
        let changed = match self.splits.first() {
            None => Vec::new(),
            Some(split) => {
                reads
                    .transactions_since(Some(split.server_knowledge))
                    .await?
            }
        };
        let (plan, fmt, applied) = (reads.plan(), reads.fmt(), reads.applied());
        Ok(category_merge(&self, plan, &months, &changed, fmt, applied).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::fixtures::Fixture;

    /// The plan after Tennis was merged into Sport: t1 and t2 moved (t2 moved on since), the
    /// schedule moved.
    fn merged() -> Fixture {
        let mut f = Fixture::new();
        f.account("acc", "Checking", true);
        f.group("g", "Fun");
        f.category("c-tennis", "g", "Tennis");
        f.category("c-sport", "g", "Sport");
        f.category("c-food", "g", "Groceries");
        f.tx("t1", "2026-06-20", -22_000, "acc", "Club", Some("c-sport"));
        f.tx("t2", "2026-07-20", -22_000, "acc", "Club", Some("c-food"));
        f.schedule(
            "sc",
            "2026-10-20",
            "2026-10-20",
            "monthly",
            -22_000,
            "acc",
            "Club",
            Some("c-sport"),
        );
        f
    }

    fn month(f: &Fixture, label: &str, tennis: i64, sport: i64) -> (CalendarMonth, Vec<Category>) {
        let mut categories = f.plan.categories.clone();
        for c in &mut categories {
            c.budgeted = match c.id.as_str() {
                "c-tennis" => tennis,
                "c-sport" => sport,
                _ => 0,
            };
        }
        (CalendarMonth::from_ynab(label).expect("month"), categories)
    }

    fn done() -> CategoryMergeDone {
        CategoryMergeDone {
            source: "c-tennis".into(),
            target: "c-sport".into(),
            months: vec![
                MonthMove {
                    month: "2026-06-01".into(),
                    source_before: 22_000,
                    target_before: 45_000,
                },
                MonthMove {
                    month: "2026-07-01".into(),
                    source_before: 22_000,
                    target_before: 45_000,
                },
            ],
            transactions: vec!["t1".into(), "t2".into()],
            scheduled: vec!["sc".into()],
            splits: Vec::new(),
        }
    }

    #[test]
    fn what_is_as_merged_goes_back_and_what_changed_since_is_left_alone() {
        let f = merged();
        // June as merged; July's Sport changed since.
        let months = [
            month(&f, "2026-06-01", 0, 67_000),
            month(&f, "2026-07-01", 0, 70_000),
        ];
        let fmt = MoneyFormat::default();
        let planned = category_merge(&done(), &f.plan, &months, &[], &fmt, Applied::Fully);
        assert_eq!(planned.nothing, None);
        let Revert::CategoryMerge { back, .. } = &planned.revert else {
            panic!("{:?}", planned.revert);
        };
        assert_eq!(back.months.len(), 2);
        // June: Sport lowered first, then Tennis raised.
        let june: Vec<_> = back.months[0]
            .1
            .iter()
            .map(|s| (s.category_id.as_str(), s.from, s.to))
            .collect();
        assert_eq!(
            june,
            vec![("c-sport", 67_000, 45_000), ("c-tennis", 0, 22_000)]
        );
        // July: Tennis still at 0 goes back; Sport changed since is a conflict.
        assert_eq!(back.months[1].1.len(), 1);
        assert_eq!(back.transactions.len(), 1);
        assert_eq!(back.transactions[0].transaction_id, "t1");
        assert_eq!(back.scheduled.len(), 1);
        assert_eq!(back.scheduled[0].1.category_id.as_deref(), Some("c-tennis"));
        assert_eq!(
            planned.conflicts,
            vec!["c-sport 2026-07-01".to_string(), "t2".to_string()]
        );
        assert!(planned.question.starts_with(
            "Undo: move back into Tennis 2 month(s) of assigned amounts, 1 transaction(s), 0 split(s) and 1 schedule(s)?"
        ));
        assert_eq!(
            planned.lines[0],
            "- 2026-06-01: Sport 67.00 → 45.00, Tennis 0.00 → 22.00"
        );
    }

    #[test]
    fn partly_applied_what_holds_its_before_value_is_untouched() {
        let mut f = merged();
        // Interrupted after June's source PATCH: June's Tennis at 0, Sport as before; July, the
        // transactions and the schedule never written.
        f.plan.transactions[1].category_id = Some("c-tennis".into());
        f.plan.transactions[0].category_id = Some("c-tennis".into());
        f.plan.scheduled_transactions[0].category_id = Some("c-tennis".into());
        let months = [
            month(&f, "2026-06-01", 0, 45_000),
            month(&f, "2026-07-01", 22_000, 45_000),
        ];
        let fmt = MoneyFormat::default();
        let planned = category_merge(&done(), &f.plan, &months, &[], &fmt, Applied::Partly);
        assert!(planned.conflicts.is_empty(), "{:?}", planned.conflicts);
        let Revert::CategoryMerge { back, .. } = &planned.revert else {
            panic!("{:?}", planned.revert);
        };
        assert_eq!(back.months.len(), 1);
        assert_eq!(
            back.months[0]
                .1
                .iter()
                .map(|s| (s.category_id.as_str(), s.to))
                .collect::<Vec<_>>(),
            vec![("c-tennis", 22_000)]
        );
        assert!(back.transactions.is_empty() && back.scheduled.is_empty());
        assert_eq!(planned.untouched.len(), 6, "{:?}", planned.untouched);
        // Nothing at all written: nothing to do.
        let months = [
            month(&f, "2026-06-01", 22_000, 45_000),
            month(&f, "2026-07-01", 22_000, 45_000),
        ];
        let planned = category_merge(&done(), &f.plan, &months, &[], &fmt, Applied::Partly);
        assert!(planned.nothing.is_some());
        assert!(planned.conflicts.is_empty());
    }

    #[test]
    fn details_parsed_and_damaged_ones_refused() {
        use super::super::{Details, Refusal, parse};
        let details = serde_json::json!({"source_category_id": "c-tennis",
            "target_category_id": "c-sport",
            "months": [{"month": "2026-06-01", "source": 22_000, "target": 45_000},
                       {"month": "2026-07-01", "source": 22_000, "target": 45_000}],
            "transactions": ["t1", "t2"], "scheduled": ["sc"], "splits": [],
            "digest_salt": "s", "server_knowledge": 7});
        assert_eq!(
            parse("category_merge", &details, Vec::new(), false),
            Ok(Details::CategoryMerge(done()))
        );
        let mut damaged = details.clone();
        damaged["months"][1]["target"] = serde_json::json!("x");
        assert_eq!(
            parse("category_merge", &damaged, Vec::new(), false),
            Err(Refusal::Damaged {
                field: "months.1.target".into(),
                problem: "is not an integer".into()
            })
        );
    }
}
