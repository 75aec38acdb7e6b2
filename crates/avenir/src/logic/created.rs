//! The transactions `create_transactions` sends, as data: each item's canonical form (its part
//! of the subject, D15) and its SHA-256 digest, which is all an intent keeps of it (D31).
//!
//! Recovery of an interrupted create recognises its own items by digest among the transactions
//! that changed since the intent: payees, memos and amounts never reach the disk in clear.

use crate::digest::sha256_hex;
use serde_json::{Value, json};
use std::collections::HashMap;
use ynab::models::{Milliunits, Transaction};

/// One transaction to create, as the subject holds it: `{"date","amount","payee_name","memo",
/// "category_id"}`, amount in milliunits, an empty memo or category as `null`
/// (`docs/contract/writes.md` §9.2).
pub fn item(
    date: &str,
    amount: Milliunits,
    payee_name: &str,
    memo: Option<&str>,
    category_id: Option<&str>,
) -> Value {
    let memo = memo.filter(|m| !m.is_empty());
    let category_id = category_id.filter(|c| !c.is_empty());
    json!({"date": date, "amount": amount, "payee_name": payee_name, "memo": memo,
           "category_id": category_id})
}

/// Lower-case hex SHA-256 of the canonical JSON of `{"salt", "item"}`. The salt is random per
/// intent and stored with it, so a digest cannot be matched against digests of likely items
/// (a rent of 950.00 on the 1st) computed in advance (D31). `None`: an intent written before
/// salts, whose digests are of the item alone.
pub fn digest(salt: Option<&str>, item: &Value) -> String {
    match salt {
        Some(salt) => sha256_hex(&json!({"salt": salt, "item": item})),
        None => sha256_hex(item),
    }
}

/// The digest of one line of a split (D31): `{"amount","category_id","memo"}`, the memo as
/// sent (`null` for none), salted as [`digest`].
pub fn line_digest(
    salt: Option<&str>,
    amount: Milliunits,
    category_id: Option<&str>,
    memo: Option<&str>,
) -> String {
    digest(
        salt,
        &json!({"amount": amount, "category_id": category_id, "memo": memo}),
    )
}

/// The digest of a new category's name (D31), salted as [`digest`]: an intent keeps no
/// category name in clear except for a `category` operation.
pub fn name_digest(salt: Option<&str>, name: &str) -> String {
    digest(salt, &json!({"name": name}))
}

/// The item a transaction of YNAB's answers would have been created from.
fn item_of(transaction: &Transaction) -> Value {
    item(
        &transaction.date,
        transaction.amount,
        transaction.payee_name.as_deref().unwrap_or_default(),
        transaction.memo.as_deref(),
        transaction.category_id.as_deref(),
    )
}

/// The ids of the live transactions of `account_id` among `changed` (the transactions that
/// changed since the intent) whose item has one of `digests` (made with `salt`), each digest
/// matched at most as many times as it is listed, in `changed`'s order.
pub fn recognise(
    digests: &[String],
    salt: Option<&str>,
    account_id: &str,
    changed: &[Transaction],
) -> Vec<String> {
    let mut wanted: HashMap<&str, usize> = HashMap::new();
    for d in digests {
        *wanted.entry(d.as_str()).or_default() += 1;
    }
    let mut found = Vec::new();
    for transaction in changed {
        if transaction.deleted || transaction.account_id != account_id {
            continue;
        }
        let key = digest(salt, &item_of(transaction));
        if let Some(left) = wanted.get_mut(key.as_str())
            && *left > 0
        {
            *left -= 1;
            found.push(transaction.id.clone());
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digest::canon;

    fn transaction(id: &str, account: &str, payee: &str, memo: Option<&str>) -> Transaction {
        Transaction {
            id: id.into(),
            date: "2026-09-21".into(),
            amount: -32_400,
            memo: memo.map(str::to_string),
            cleared: "cleared".into(),
            approved: false,
            flag_color: None,
            flag_name: None,
            account_id: account.into(),
            payee_id: Some("p".into()),
            category_id: None,
            transfer_account_id: None,
            transfer_transaction_id: None,
            matched_transaction_id: None,
            import_id: None,
            import_payee_name: None,
            import_payee_name_original: None,
            debt_transaction_type: None,
            deleted: false,
            account_name: None,
            payee_name: Some(payee.into()),
            category_name: None,
            subtransactions: Vec::new(),
        }
    }

    #[test]
    fn an_item_is_canonical_and_its_digest_hides_it() {
        let a = item("2026-09-21", -32_400, "Pharmacie", Some(""), Some(""));
        assert_eq!(
            canon(&a),
            r#"{"amount":-32400,"category_id":null,"date":"2026-09-21","memo":null,"payee_name":"Pharmacie"}"#
        );
        let d = digest(Some("s1"), &a);
        assert_eq!(d.len(), 64);
        assert!(!d.contains("Pharmacie"));
        assert_eq!(
            d,
            digest(
                Some("s1"),
                &item("2026-09-21", -32_400, "Pharmacie", None, None)
            )
        );
        assert_ne!(
            d,
            digest(
                Some("s1"),
                &item("2026-09-21", -32_410, "Pharmacie", None, None)
            )
        );
        // Another salt, another digest: a table of likely items made in advance matches nothing.
        assert_ne!(d, digest(Some("s2"), &a));
        assert_ne!(d, digest(None, &a));
        assert_eq!(
            digest(None, &a),
            sha256_hex(&a),
            "an unsalted intent's digest"
        );
    }

    #[test]
    fn recognised_by_digest_once_each_on_the_account_only() {
        let salt = Some("0123abcd");
        let mine = digest(
            salt,
            &item("2026-09-21", -32_400, "Pharmacie", Some("cash"), None),
        );
        let changed = vec![
            transaction("other-account", "acc-2", "Pharmacie", Some("cash")),
            transaction("t1", "acc-1", "Pharmacie", Some("cash")),
            transaction("t2", "acc-1", "Pharmacie", Some("cash")),
            transaction("t3", "acc-1", "Pharmacie", None),
        ];
        assert_eq!(
            recognise(std::slice::from_ref(&mine), salt, "acc-1", &changed),
            ["t1"]
        );
        assert_eq!(
            recognise(&[mine.clone(), mine.clone()], salt, "acc-1", &changed),
            ["t1", "t2"]
        );
        assert!(
            recognise(
                std::slice::from_ref(&mine),
                Some("other"),
                "acc-1",
                &changed
            )
            .is_empty(),
            "only with the intent's own salt"
        );
        let mut gone = changed[1].clone();
        gone.deleted = true;
        assert!(recognise(&[mine], salt, "acc-1", &[gone]).is_empty());
    }
}
