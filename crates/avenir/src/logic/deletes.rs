//! What a `delete_transactions` request removes: its checks, and which DELETEs to send — a
//! transfer's other side goes with it (YNAB deletes both), so it is never sent twice.

use std::collections::HashSet;
use ynab::models::TransactionSummary;

/// Most transactions one request deletes.
pub const MAX_DELETES: usize = 100;

/// Why a request is refused, nothing sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeleteRefusal {
    Empty,
    TooMany(usize),
    Twice(Vec<String>),
    Unknown(Vec<String>),
}

impl DeleteRefusal {
    /// The sentence the tool answers.
    pub fn message(&self) -> String {
        match self {
            DeleteRefusal::Empty => "Give at least one transaction to delete.".to_string(),
            DeleteRefusal::TooMany(n) => format!(
                "{n} transactions asked: delete at most {MAX_DELETES} at a time, then the rest."
            ),
            DeleteRefusal::Twice(ids) => format!(
                "Transaction {} is named twice: name each once.",
                ids.join(", ")
            ),
            DeleteRefusal::Unknown(ids) => format!(
                "Transaction {} is not in this plan: use a transaction_id from find_transactions.",
                ids.join(", ")
            ),
        }
    }
}

/// One transaction a request deletes.
#[derive(Debug, Clone, PartialEq)]
pub struct Deletion<'a> {
    pub transaction: &'a TransactionSummary,
    /// Its transfer's other side, which YNAB deletes with it (`None`: not a transfer).
    pub mirror: Option<&'a TransactionSummary>,
    /// Whether a DELETE is sent for it: not when it is the other side of one already sent.
    pub sent: bool,
}

/// The deletions `ids` ask for, in request order; refused when empty, over
/// [`MAX_DELETES`], naming an id twice, or naming one that is not a live transaction.
pub fn plan_deletes<'a>(
    ids: &[String],
    transactions: &'a [TransactionSummary],
) -> Result<Vec<Deletion<'a>>, DeleteRefusal> {
    if ids.is_empty() {
        return Err(DeleteRefusal::Empty);
    }
    if ids.len() > MAX_DELETES {
        return Err(DeleteRefusal::TooMany(ids.len()));
    }
    let twice = super::named_twice(ids.iter().map(String::as_str));
    if !twice.is_empty() {
        return Err(DeleteRefusal::Twice(twice));
    }
    let live = |id: &str| transactions.iter().find(|t| t.id == id && !t.deleted);
    let unknown: Vec<String> = ids
        .iter()
        .filter(|id| live(id).is_none())
        .cloned()
        .collect();
    if !unknown.is_empty() {
        return Err(DeleteRefusal::Unknown(unknown));
    }
    let mut sent_with: HashSet<&str> = HashSet::new();
    Ok(ids
        .iter()
        .filter_map(|id| live(id))
        .map(|t| {
            let mirror = t.transfer_transaction_id.as_deref().and_then(live);
            let sent = !sent_with.contains(t.id.as_str());
            if sent && let Some(m) = mirror {
                sent_with.insert(m.id.as_str());
            }
            Deletion {
                transaction: t,
                mirror,
                sent,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tx(id: &str, mirror: Option<&str>) -> TransactionSummary {
        serde_json::from_value(serde_json::json!({
            "id": id, "date": "2026-09-19", "amount": -71860, "cleared": "cleared",
            "approved": true, "account_id": "a", "deleted": false,
            "transfer_transaction_id": mirror,
        }))
        .expect("a transaction")
    }

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn refusals_in_order() {
        let plan = vec![tx("a", None), tx("b", None)];
        assert_eq!(plan_deletes(&[], &plan), Err(DeleteRefusal::Empty));
        let many: Vec<String> = (0..101).map(|i| i.to_string()).collect();
        assert_eq!(plan_deletes(&many, &plan), Err(DeleteRefusal::TooMany(101)));
        assert_eq!(
            plan_deletes(&ids(&["a", "b", "a"]), &plan),
            Err(DeleteRefusal::Twice(ids(&["a"])))
        );
        assert_eq!(
            plan_deletes(&ids(&["a", "x", "y"]), &plan),
            Err(DeleteRefusal::Unknown(ids(&["x", "y"])))
        );
    }

    #[test]
    fn a_transfer_named_by_both_sides_is_sent_once() {
        let plan = vec![tx("a", Some("b")), tx("b", Some("a")), tx("c", None)];
        let planned = plan_deletes(&ids(&["a", "c", "b"]), &plan).expect("planned");
        let sent: Vec<&str> = planned
            .iter()
            .filter(|d| d.sent)
            .map(|d| d.transaction.id.as_str())
            .collect();
        assert_eq!(sent, vec!["a", "c"]);
        assert_eq!(planned[0].mirror.map(|m| m.id.as_str()), Some("b"));
    }
}
