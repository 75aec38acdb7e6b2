//! Payees by use (`docs/contract/reads.md` §5): how often each bank label was used and when last,
//! the merchant it normalises to, a search over label and merchant, most used first.

use super::merchant::merchant;
use crate::text::{fold, safe, uncut};
use std::borrow::Cow;
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
    /// characters, which no answer may carry (`docs/contract/server.md` §6.4).
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
    let keys = |p: &Payee| PayeeKeys::of(&p.name);
    PayeeRanking::build(payees, transactions, keys).list(payees, transactions, search, limit, keys)
}

/// What ranks and finds a payee: the merchant its label normalises to, that merchant as a search
/// reads it (shown, then case-folded), and its shown name case-folded (the sort key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayeeKeys<'a> {
    pub merchant: Cow<'a, str>,
    pub folded_merchant: Cow<'a, str>,
    pub folded_name: Cow<'a, str>,
}

impl PayeeKeys<'static> {
    /// The keys of a label, computed.
    pub fn of(label: &str) -> Self {
        let shop = merchant(label);
        PayeeKeys {
            folded_merchant: Cow::Owned(fold(&uncut(&shop))),
            merchant: Cow::Owned(shop),
            folded_name: Cow::Owned(fold(&safe(label))),
        }
    }
}

/// The payees of one version of a plan in list order (uses descending, then folded name, then
/// plan order), with each one's uses: built once per version of the plan, then every listing is
/// a walk from its top.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PayeeRanking {
    /// Positions in the plan's payee list, listed ones only (not deleted, not a transfer's).
    order: Vec<u32>,
    /// Per position in the payee list: (transactions naming it, position of its latest one).
    uses: Vec<(u64, Option<u32>)>,
}

impl PayeeRanking {
    /// The ranking of `payees` by their use in `transactions`; `keys_of` gives each one's keys.
    pub fn build<'k>(
        payees: &[Payee],
        transactions: &[TransactionSummary],
        keys_of: impl Fn(&Payee) -> PayeeKeys<'k>,
    ) -> Self {
        let position: HashMap<&str, usize> = payees
            .iter()
            .enumerate()
            .map(|(i, p)| (&*p.id, i))
            .collect();
        let mut uses: Vec<(u64, Option<u32>)> = vec![(0, None); payees.len()];
        for (i, t) in transactions.iter().enumerate().filter(|(_, t)| !t.deleted) {
            let Some(&at) = t.payee_id.as_deref().and_then(|id| position.get(id)) else {
                continue;
            };
            let entry = &mut uses[at];
            entry.0 += 1;
            let later = entry
                .1
                .and_then(|j| transactions.get(j as usize))
                .is_none_or(|latest| *t.date > *latest.date);
            if later {
                entry.1 = u32::try_from(i).ok();
            }
        }
        let mut keyed: Vec<(u64, Cow<'k, str>, u32)> = payees
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.deleted && p.transfer_account_id.is_none())
            .filter_map(|(i, p)| Some((uses[i].0, keys_of(p).folded_name, u32::try_from(i).ok()?)))
            .collect();
        keyed.sort_unstable_by(|a, b| {
            b.0.cmp(&a.0)
                .then_with(|| a.1.cmp(&b.1))
                .then_with(|| a.2.cmp(&b.2))
        });
        PayeeRanking {
            order: keyed.into_iter().map(|(_, _, i)| i).collect(),
            uses,
        }
    }

    /// The listing: the payees matching `search` in rank order, the first `limit` written out.
    /// `payees` and `transactions` are the ones the ranking was built from.
    pub fn list<'k>(
        &self,
        payees: &[Payee],
        transactions: &[TransactionSummary],
        search: Option<&str>,
        limit: usize,
        keys_of: impl Fn(&Payee) -> PayeeKeys<'k>,
    ) -> PayeeList {
        let needle = search.map(fold);
        let mut shown = Vec::new();
        let mut total = 0;
        for &i in &self.order {
            let Some(p) = payees.get(i as usize) else {
                continue;
            };
            if let Some(needle) = &needle {
                let keys = keys_of(p);
                if !keys.folded_name.contains(needle.as_str())
                    && !keys.folded_merchant.contains(needle.as_str())
                {
                    continue;
                }
            } else if shown.len() >= limit {
                // No search: every listed payee matches, the total is known.
                total = self.order.len();
                break;
            }
            total += 1;
            if shown.len() < limit {
                let (uses, latest) = self.uses.get(i as usize).copied().unwrap_or((0, None));
                let last_date = latest
                    .and_then(|j| transactions.get(j as usize))
                    .map(|t| t.date.to_string());
                shown.push(PayeeUse {
                    payee_id: p.id.to_string(),
                    name: safe(&p.name),
                    merchant: uncut(&keys_of(p).merchant),
                    transactions: uses,
                    last_date,
                });
            }
        }
        PayeeList {
            payees: shown,
            total,
        }
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

    /// The worked examples of `docs/contract/reads.md` §5.
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
