//! Linking two transactions into one transfer (`docs/writes/link_transfer.md`): the checks (an
//! outflow and an inflow of the same amount on two accounts, at most 10 days apart, neither a
//! transfer nor a split), which side is kept (the bank-imported one; else the outflow) and which
//! is deleted, and whether the kept side keeps its category (only on a transfer that leaves the
//! budget).

use chrono::NaiveDate;
use ynab::models::{PlanDetail, TransactionSummary};

/// Most days between the two sides.
pub const MAX_DAYS_APART: i64 = 10;

/// Why a link is refused, nothing sent. The order is the order the checks run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkRefusal {
    NotTwo(usize),
    Twice(String),
    Unknown(String),
    AlreadyTransfer(String),
    Split(String),
    SameAccount(String, String),
    /// (id, amount, id, amount), amounts in milliunits.
    Amounts(String, i64, String, i64),
    /// (id, date, id, date, days).
    TooFar(String, String, String, String, i64),
}

/// A link that passed every check.
#[derive(Debug, Clone, PartialEq)]
pub struct Link<'p> {
    /// The side kept: it becomes the transfer, YNAB makes its mirror.
    pub kept: &'p TransactionSummary,
    /// The side deleted: the mirror replaces it.
    pub other: &'p TransactionSummary,
    /// The transfer payee of `other`'s account, the kept side's new payee.
    pub transfer_payee_id: String,
    /// Both accounts on budget: the kept side's category is cleared.
    pub clears_category: bool,
}

fn date(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
}

/// Check linking the two transactions `ids` against the plan.
pub fn plan_link<'p>(plan: &'p PlanDetail, ids: &[String]) -> Result<Link<'p>, LinkRefusal> {
    let [a, b] = ids else {
        return Err(LinkRefusal::NotTwo(ids.len()));
    };
    if a == b {
        return Err(LinkRefusal::Twice(a.clone()));
    }
    let find = |id: &String| {
        plan.transactions
            .iter()
            .find(|t| &t.id == id && !t.deleted)
            .ok_or_else(|| LinkRefusal::Unknown(id.clone()))
    };
    let (ta, tb) = (find(a)?, find(b)?);
    for t in [ta, tb] {
        if t.transfer_account_id.is_some() {
            return Err(LinkRefusal::AlreadyTransfer(t.id.clone().into()));
        }
        let split = plan
            .subtransactions
            .iter()
            .any(|s| s.transaction_id == t.id && !s.deleted);
        if split {
            return Err(LinkRefusal::Split(t.id.clone().into()));
        }
    }
    if ta.account_id == tb.account_id {
        return Err(LinkRefusal::SameAccount(a.clone(), b.clone()));
    }
    if ta.amount == 0 || ta.amount != -tb.amount {
        return Err(LinkRefusal::Amounts(
            a.clone(),
            ta.amount,
            b.clone(),
            tb.amount,
        ));
    }
    let days = match (date(&ta.date), date(&tb.date)) {
        (Some(x), Some(y)) => (x - y).num_days().abs(),
        _ => i64::MAX,
    };
    if days > MAX_DAYS_APART {
        return Err(LinkRefusal::TooFar(
            a.clone(),
            ta.date.to_string(),
            b.clone(),
            tb.date.to_string(),
            days,
        ));
    }
    let outflow_first = if ta.amount < 0 { (ta, tb) } else { (tb, ta) };
    let (kept, other) = match (ta.import_id.is_some(), tb.import_id.is_some()) {
        (true, false) => (ta, tb),
        (false, true) => (tb, ta),
        _ => outflow_first,
    };
    let account = |id: &str| plan.accounts.iter().find(|x| x.id == id && !x.deleted);
    let other_account =
        account(&other.account_id).ok_or_else(|| LinkRefusal::Unknown(other.id.clone().into()))?;
    let transfer_payee_id = other_account
        .transfer_payee_id
        .clone()
        .ok_or_else(|| LinkRefusal::Unknown(other.id.clone().into()))?;
    let on_budget = |id: &str| account(id).is_some_and(|x| x.on_budget);
    Ok(Link {
        kept,
        other,
        transfer_payee_id,
        clears_category: on_budget(&kept.account_id) && on_budget(&other.account_id),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plan() -> PlanDetail {
        let tx = |id: &str, account: &str, date: &str, amount: i64, import: Option<&str>| {
            json!({"id": id, "date": date, "amount": amount, "cleared": "cleared", "approved": true,
                   "account_id": account, "payee_id": "p", "category_id": "c",
                   "import_id": import, "deleted": false})
        };
        serde_json::from_value(json!({
            "id": "p", "name": "Plan",
            "accounts": [
                {"id": "chk", "name": "Checking", "type": "checking", "on_budget": true, "closed": false, "balance": 0, "cleared_balance": 0, "uncleared_balance": 0, "transfer_payee_id": "to-chk", "deleted": false},
                {"id": "sav", "name": "Savings", "type": "savings", "on_budget": true, "closed": false, "balance": 0, "cleared_balance": 0, "uncleared_balance": 0, "transfer_payee_id": "to-sav", "deleted": false},
                {"id": "inv", "name": "Broker", "type": "otherAsset", "on_budget": false, "closed": false, "balance": 0, "cleared_balance": 0, "uncleared_balance": 0, "transfer_payee_id": "to-inv", "deleted": false}
            ],
            "transactions": [
                tx("out", "chk", "2026-09-10", -250000, Some("YNAB:-250000:2026-09-10:1")),
                tx("in", "sav", "2026-09-12", 250000, None),
                tx("in2", "sav", "2026-09-25", 250000, None),
                tx("in3", "sav", "2026-09-11", 250001, None),
                tx("same", "chk", "2026-09-11", 250000, None),
                tx("inv", "inv", "2026-09-11", 250000, Some("bank")),
                {"id": "tr", "date": "2026-09-10", "amount": 250000, "cleared": "cleared", "approved": true, "account_id": "sav", "transfer_account_id": "chk", "transfer_transaction_id": "x", "deleted": false},
                tx("split", "sav", "2026-09-10", 250000, None)
            ],
            "subtransactions": [
                {"id": "s1", "transaction_id": "split", "amount": 250000, "deleted": false}
            ]
        }))
        .expect("a plan")
    }

    fn ids(a: &str, b: &str) -> Vec<String> {
        vec![a.to_string(), b.to_string()]
    }

    #[test]
    fn the_imported_side_is_kept_and_the_category_cleared_between_budget_accounts() {
        let p = plan();
        for order in [ids("out", "in"), ids("in", "out")] {
            let link = plan_link(&p, &order).expect("valid");
            assert_eq!(
                (link.kept.id.as_str(), link.other.id.as_str()),
                ("out", "in")
            );
            assert_eq!(link.transfer_payee_id, "to-sav");
            assert!(link.clears_category);
        }
        // Both imported: the outflow is kept; to a tracking account the category stays.
        let link = plan_link(&p, &ids("inv", "out")).expect("valid");
        assert_eq!(link.kept.id, "out");
        assert_eq!(link.transfer_payee_id, "to-inv");
        assert!(!link.clears_category);
    }

    #[test]
    fn each_refusal_names_what_is_wrong() {
        let p = plan();
        assert_eq!(plan_link(&p, &["out".into()]), Err(LinkRefusal::NotTwo(1)));
        assert_eq!(
            plan_link(&p, &ids("out", "out")),
            Err(LinkRefusal::Twice("out".into()))
        );
        assert_eq!(
            plan_link(&p, &ids("out", "x")),
            Err(LinkRefusal::Unknown("x".into()))
        );
        assert_eq!(
            plan_link(&p, &ids("out", "tr")),
            Err(LinkRefusal::AlreadyTransfer("tr".into()))
        );
        assert_eq!(
            plan_link(&p, &ids("out", "split")),
            Err(LinkRefusal::Split("split".into()))
        );
        assert_eq!(
            plan_link(&p, &ids("out", "same")),
            Err(LinkRefusal::SameAccount("out".into(), "same".into()))
        );
        assert_eq!(
            plan_link(&p, &ids("out", "in3")),
            Err(LinkRefusal::Amounts(
                "out".into(),
                -250000,
                "in3".into(),
                250001
            ))
        );
        assert_eq!(
            plan_link(&p, &ids("out", "in2")),
            Err(LinkRefusal::TooFar(
                "out".into(),
                "2026-09-10".into(),
                "in2".into(),
                "2026-09-25".into(),
                15
            ))
        );
    }
}
