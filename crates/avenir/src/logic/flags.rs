//! Flags asked for on transactions (`docs/contract/writes.md` §9.3): the flag a transaction has
//! now, the ids a request cannot name (twice, or not in the plan), and the flags that would change.
//!
//! A flag is one of YNAB's six colours or none; `null`, `""` and any legacy value mean none.

use std::collections::HashMap;
use ynab::models::TransactionSummary;

/// The colours YNAB flags with, in its order.
pub const COLOURS: [&str; 6] = ["red", "orange", "yellow", "green", "blue", "purple"];

/// The flag a transaction has: its colour when it is one of [`COLOURS`], else none.
pub fn current_flag(flag_color: Option<&str>) -> Option<&'static str> {
    flag_color.and_then(|c| COLOURS.iter().copied().find(|known| *known == c))
}

/// One flag asked for: a transaction and the colour to give it (`None` removes the flag).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlagAsked {
    pub transaction_id: String,
    pub color: Option<&'static str>,
}

/// Why a request of flags is refused, in the order the checks run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlagRefusal {
    /// No flag at all.
    Empty,
    /// Ids named more than once, each once, sorted.
    NamedTwice(Vec<String>),
    /// Ids among no non-deleted transaction, in request order.
    NotInPlan(Vec<String>),
}

/// A flag that changes.
#[derive(Debug, Clone, PartialEq)]
pub struct FlagChange<'t> {
    pub transaction: &'t TransactionSummary,
    pub from: Option<&'static str>,
    pub to: Option<&'static str>,
}

/// What a request would change: the changes in request order, and how many were already so.
#[derive(Debug, Clone, PartialEq)]
pub struct FlagPlan<'t> {
    pub changes: Vec<FlagChange<'t>>,
    pub unchanged_count: usize,
}

/// The checks that need no plan data: a flag at least, each transaction named once.
pub fn check_request(asked: &[FlagAsked]) -> Result<(), FlagRefusal> {
    if asked.is_empty() {
        return Err(FlagRefusal::Empty);
    }
    let twice = super::named_twice(asked.iter().map(|a| a.transaction_id.as_str()));
    if twice.is_empty() {
        return Ok(());
    }
    Err(FlagRefusal::NamedTwice(twice))
}

/// Check `asked` against the plan's `transactions` and compute the flags that change.
pub fn plan_flags<'t>(
    asked: &[FlagAsked],
    transactions: &'t [TransactionSummary],
) -> Result<FlagPlan<'t>, FlagRefusal> {
    check_request(asked)?;
    let live: HashMap<&str, &TransactionSummary> = transactions
        .iter()
        .filter(|t| !t.deleted)
        .map(|t| (t.id.as_str(), t))
        .collect();
    let missing: Vec<String> = asked
        .iter()
        .filter(|a| !live.contains_key(a.transaction_id.as_str()))
        .map(|a| a.transaction_id.clone())
        .collect();
    if !missing.is_empty() {
        return Err(FlagRefusal::NotInPlan(missing));
    }
    let mut changes = Vec::new();
    for a in asked {
        let Some(transaction) = live.get(a.transaction_id.as_str()).copied() else {
            continue;
        };
        let from = current_flag(transaction.flag_color.as_deref());
        if from != a.color {
            changes.push(FlagChange {
                transaction,
                from,
                to: a.color,
            });
        }
    }
    Ok(FlagPlan {
        unchanged_count: asked.len() - changes.len(),
        changes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tx(id: &str, flag: Option<&str>, deleted: bool) -> TransactionSummary {
        serde_json::from_value(serde_json::json!({
            "id": id, "date": "2026-09-18", "amount": -45000, "cleared": "cleared",
            "approved": true, "flag_color": flag, "account_id": "acc", "deleted": deleted
        }))
        .expect("a transaction")
    }

    fn ask(id: &str, color: Option<&'static str>) -> FlagAsked {
        FlagAsked {
            transaction_id: id.into(),
            color,
        }
    }

    #[test]
    fn only_the_six_colours_are_flags() {
        assert_eq!(current_flag(Some("red")), Some("red"));
        assert_eq!(current_flag(Some("purple")), Some("purple"));
        assert_eq!(current_flag(Some("")), None);
        assert_eq!(current_flag(Some("pink")), None);
        assert_eq!(current_flag(Some("Red")), None);
        assert_eq!(current_flag(None), None);
    }

    #[test]
    fn a_request_names_each_transaction_once() {
        assert_eq!(check_request(&[]), Err(FlagRefusal::Empty));
        let asked = [
            ask("b", None),
            ask("a", Some("red")),
            ask("b", Some("blue")),
            ask("c", None),
            ask("a", None),
            ask("b", None),
        ];
        assert_eq!(
            check_request(&asked),
            Err(FlagRefusal::NamedTwice(vec!["a".into(), "b".into()]))
        );
        assert_eq!(check_request(&[ask("a", None), ask("b", None)]), Ok(()));
    }

    #[test]
    fn unknown_and_deleted_transactions_are_named_in_request_order() {
        let plan = [tx("t1", None, false), tx("gone", None, true)];
        let asked = [ask("zz", None), ask("t1", None), ask("gone", Some("red"))];
        assert_eq!(
            plan_flags(&asked, &plan),
            Err(FlagRefusal::NotInPlan(vec!["zz".into(), "gone".into()]))
        );
    }

    #[test]
    fn changes_keep_request_order_and_count_what_is_already_so() {
        let plan = [
            tx("t1", Some("red"), false),
            tx("t2", Some(""), false),
            tx("t3", Some("pink"), false),
            tx("t4", None, false),
        ];
        let asked = [
            ask("t4", Some("blue")),
            ask("t3", None),
            ask("t1", None),
            ask("t2", None),
        ];
        let planned = plan_flags(&asked, &plan).expect("valid");
        assert_eq!(planned.unchanged_count, 2);
        let shown: Vec<(&str, Option<&str>, Option<&str>)> = planned
            .changes
            .iter()
            .map(|c| (c.transaction.id.as_str(), c.from, c.to))
            .collect();
        assert_eq!(
            shown,
            [("t4", None, Some("blue")), ("t1", Some("red"), None)]
        );
        let same = plan_flags(&[ask("t1", Some("red"))], &plan).expect("valid");
        assert!(same.changes.is_empty());
        assert_eq!(same.unchanged_count, 1);
    }
}
