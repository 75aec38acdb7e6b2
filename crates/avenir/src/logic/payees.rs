//! Payees by use (`tools-read.md` §5): how often each bank label was used and when last, the
//! merchant it normalises to, a search over label and merchant, most used first.

use super::merchant::merchant;
use crate::text::{fold, safe, uncut};
use std::collections::HashMap;
use ynab::models::{Payee, TransactionSummary};

/// One payee as `list_payees` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayeeUse {
    pub payee_id: String,
    /// Safe to show (display rule applied).
    pub name: String,
    /// `merchant(name)`, in full, with the display rule's characters made safe (`uncut`): the
    /// normalisation collapses line breaks but keeps bidi marks, zero-width and control
    /// characters, which no answer may carry (`server.md` §6.4).
    pub merchant: String,
    pub transactions: u64,
    pub last_date: Option<String>,
}

/// Payees matching `search`, sorted, with the total before `limit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayeeList {
    pub payees: Vec<PayeeUse>,
    pub total: usize,
}

/// Count each payee's use over top-level, non-deleted transactions; keep payees that are neither
/// deleted nor a transfer's; filter by `search` (case-insensitive, on shown name or merchant);
/// sort by use descending then name; cut to `limit`.
pub fn payees_by_use(
    payees: &[Payee],
    transactions: &[TransactionSummary],
    search: Option<&str>,
    limit: usize,
) -> PayeeList {
    let mut usage: HashMap<&str, (u64, &str)> = HashMap::new();
    for t in transactions.iter().filter(|t| !t.deleted) {
        if let Some(payee_id) = t.payee_id.as_deref() {
            let entry = usage.entry(payee_id).or_insert((0, ""));
            entry.0 += 1;
            if t.date.as_str() > entry.1 {
                entry.1 = &t.date;
            }
        }
    }
    let needle = search.map(fold);
    let mut rows: Vec<(String, PayeeUse)> = payees
        .iter()
        .filter(|p| !p.deleted && p.transfer_account_id.is_none())
        .map(|p| {
            let (count, last) = usage.get(p.id.as_str()).copied().unwrap_or((0, ""));
            let name = safe(&p.name);
            let row = PayeeUse {
                payee_id: p.id.clone().into(),
                merchant: uncut(&merchant(&p.name)),
                name,
                transactions: count,
                last_date: (!last.is_empty()).then(|| last.to_string()),
            };
            (fold(&row.name), row)
        })
        .filter(|(folded_name, row)| match &needle {
            None => true,
            Some(needle) => folded_name.contains(needle) || fold(&row.merchant).contains(needle),
        })
        .collect();
    rows.sort_by(|(a_name, a), (b_name, b)| {
        b.transactions
            .cmp(&a.transactions)
            .then_with(|| a_name.cmp(b_name))
    });
    let total = rows.len();
    PayeeList {
        payees: rows.into_iter().take(limit).map(|(_, row)| row).collect(),
        total,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payee(id: &str, name: &str) -> Payee {
        Payee {
            id: id.into(),
            name: name.into(),
            transfer_account_id: None,
            deleted: false,
        }
    }

    fn tx(payee_id: Option<&str>, date: &str, deleted: bool) -> TransactionSummary {
        TransactionSummary {
            id: format!("t-{date}-{payee_id:?}").into(),
            date: date.into(),
            amount: -1000,
            memo: None,
            cleared: "cleared".into(),
            approved: true,
            flag_color: None,
            flag_name: None,
            account_id: "acc".into(),
            payee_id: payee_id.map(str::to_string).map(Into::into),
            category_id: None,
            transfer_account_id: None,
            transfer_transaction_id: None,
            matched_transaction_id: None,
            import_id: None,
            import_payee_name: None,
            import_payee_name_original: None,
            debt_transaction_type: None,
            deleted,
        }
    }

    /// The worked examples of `tools-read.md` §5.
    fn fixture() -> (Vec<Payee>, Vec<TransactionSummary>) {
        let mut gone = payee("p-gone", "OLD SHOP");
        gone.deleted = true;
        let mut transfer = payee("p-transfer", "Transfer : Savings");
        transfer.transfer_account_id = Some("acc-savings".into());
        let payees = vec![
            payee("p-fresh-05", "CB MARKET FRESH FACT 050926 525130******1"),
            payee("p-fresh-19", "CB MARKET FRESH FACT 190926 525130******1"),
            payee("p-rail", "RAIL CO"),
            gone,
            transfer,
        ];
        let transactions = vec![
            tx(Some("p-fresh-05"), "2026-09-05", false),
            tx(Some("p-rail"), "2026-07-18", false),
            tx(Some("p-rail"), "2026-09-18", false),
            tx(Some("p-rail"), "2026-08-18", false),
            tx(Some("p-rail"), "2026-09-30", true),
            tx(Some("p-gone"), "2026-01-02", false),
            tx(None, "2026-09-01", false),
        ];
        (payees, transactions)
    }

    fn ids(list: &PayeeList) -> Vec<&str> {
        list.payees.iter().map(|p| p.payee_id.as_str()).collect()
    }

    #[test]
    fn most_used_first_with_merchants() {
        let (payees, transactions) = fixture();
        let list = payees_by_use(&payees, &transactions, None, 50);
        assert_eq!(ids(&list), ["p-rail", "p-fresh-05", "p-fresh-19"]);
        assert_eq!(list.total, 3);
        assert_eq!(list.payees[0].transactions, 3);
        assert_eq!(list.payees[0].last_date.as_deref(), Some("2026-09-18"));
        assert_eq!(list.payees[1].transactions, 1);
        assert_eq!(list.payees[1].last_date.as_deref(), Some("2026-09-05"));
        assert_eq!(list.payees[2].transactions, 0);
        assert_eq!(list.payees[2].last_date, None);
        assert_eq!(list.payees[1].merchant, "MARKET FRESH");
        assert_eq!(list.payees[2].merchant, "MARKET FRESH");
    }

    #[test]
    fn search_matches_label_or_merchant() {
        let (payees, transactions) = fixture();
        for search in ["market fresh", "fact"] {
            let list = payees_by_use(&payees, &transactions, Some(search), 50);
            assert_eq!(ids(&list), ["p-fresh-05", "p-fresh-19"], "{search}");
            assert_eq!(list.total, 2);
        }
        let list = payees_by_use(&payees, &transactions, Some("bakery"), 50);
        assert!(list.payees.is_empty());
        assert_eq!(list.total, 0);
    }

    #[test]
    fn limit_and_unsafe_names() {
        let (mut payees, transactions) = fixture();
        let list = payees_by_use(&payees, &transactions, None, 1);
        assert_eq!(ids(&list), ["p-rail"]);
        assert_eq!(list.total, 3);
        payees.push(payee("p-forged", "Rent\n- forged line"));
        let list = payees_by_use(&payees, &transactions, Some("forged"), 50);
        assert_eq!(list.payees[0].name, "Rent - forged line");
        // The merchant is shown in full, without bidi, zero-width or control characters.
        payees.push(payee("p-bidi", "\u{202e}EICUL\u{0} ZEHC\u{200b}\u{7}"));
        let list = payees_by_use(&payees, &transactions, Some("zehc"), 50);
        assert_eq!(list.payees[0].merchant, "EICUL ZEHC");
    }
}
