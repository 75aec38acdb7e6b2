//! The ledger's rows: transactions, transfers and scheduled transactions added to a
//! [`PlanBuilder`], then numbered and stored in readable-id order when the plan is built.

use super::{Line, PlanBuilder, Scheduled, Transfer, Tx};
use crate::ids;
use crate::state::PlanState;
use std::collections::BTreeSet;
use ynab::models::{ScheduledTransaction, SubTransaction, Transaction};

/// A transaction row waiting for its id; names kept for the numbering order.
pub(super) struct Row {
    series: String,
    readable_id: Option<String>,
    payee_name: String,
    category_name: String,
    account_name: String,
    /// Index of the other side of a transfer.
    partner: Option<usize>,
    tx: Transaction,
    lines: Vec<Line>,
}

impl PlanBuilder {
    /// Adds an ordinary transaction.
    pub fn transaction(&mut self, tx: Tx) -> &mut Self {
        let account = self.account_index(tx.account.as_str());
        let payee_id = tx.payee.as_deref().map(|name| self.payee(name));
        let category_id = tx
            .category
            .as_deref()
            .map(|c| self.plan.categories[self.category_index(c)].id.to_string());
        let category_name = tx
            .category
            .as_deref()
            .map(|c| {
                self.plan.categories[self.category_index(c)]
                    .name
                    .to_string()
            })
            .unwrap_or_default();
        let row = Row {
            series: tx.series,
            readable_id: tx.readable_id,
            payee_name: tx.payee.unwrap_or_default(),
            category_name,
            account_name: self.plan.accounts[account].name.clone(),
            partner: None,
            tx: Transaction {
                id: String::new(),
                date: tx.date.format("%Y-%m-%d").to_string(),
                amount: tx.amount,
                memo: tx.memo,
                cleared: tx.cleared,
                approved: tx.approved,
                flag_color: tx.flag_color,
                flag_name: None,
                account_id: self.plan.accounts[account].id.clone(),
                payee_id,
                category_id,
                transfer_account_id: None,
                transfer_transaction_id: None,
                matched_transaction_id: None,
                import_id: tx.import_id,
                import_payee_name: None,
                import_payee_name_original: None,
                debt_transaction_type: tx.debt_transaction_type,
                deleted: false,
                account_name: None,
                payee_name: None,
                category_name: None,
                subtransactions: Vec::new(),
            },
            lines: tx.lines,
        };
        self.rows.push(row);
        self
    }

    /// Adds a transfer: two rows, linked, each paid to the other account's transfer payee.
    pub fn transfer(&mut self, t: Transfer) -> &mut Self {
        let from = self.account_index(t.from.as_str());
        let to = self.account_index(t.to.as_str());
        let (from_on, to_on) = (
            self.plan.accounts[from].on_budget,
            self.plan.accounts[to].on_budget,
        );
        let sides = [
            (from, to, -t.amount, from_on && !to_on, None),
            (
                to,
                from,
                t.amount,
                to_on && !from_on,
                t.debt_transaction_type.clone(),
            ),
        ];
        let first = self.rows.len();
        for (k, (own, other, amount, takes_category, debt)) in sides.into_iter().enumerate() {
            let mut tx = Tx::new(t.date, "", "", amount).series(&t.series);
            tx.payee = None;
            tx.memo = t.memo.clone();
            tx.cleared = t.cleared.clone();
            tx.approved = t.approved;
            tx.debt_transaction_type = debt;
            if takes_category {
                tx.category = t.category.clone();
            }
            let own_readable = self.readable_account(own);
            tx.account = own_readable;
            self.transaction(tx);
            let other_account = &self.plan.accounts[other];
            let row = &mut self.rows[first + k];
            row.payee_name = format!("Transfer : {}", other_account.name);
            row.tx.payee_id = other_account.transfer_payee_id.clone();
            row.tx.transfer_account_id = Some(other_account.id.clone());
            row.partner = Some(first + 1 - k);
        }
        self
    }

    /// Adds a scheduled transaction (its payee created on first use, as for transactions).
    pub fn scheduled(&mut self, s: Scheduled) -> &mut Self {
        let account = self.account_index(s.account.as_str());
        let (payee_id, transfer_account_id) = match &s.transfer_to {
            Some(to) => {
                let other = &self.plan.accounts[self.account_index(to)];
                (other.transfer_payee_id.clone(), Some(other.id.clone()))
            }
            None => (s.payee.as_deref().map(|name| self.payee(name)), None),
        };
        let category_id = s
            .category
            .as_deref()
            .map(|c| self.plan.categories[self.category_index(c)].id.to_string());
        self.plan.scheduled.push(ScheduledTransaction {
            id: self.uuid(&s.readable_id),
            date_first: s.first.format("%Y-%m-%d").to_string(),
            date_next: s.next.format("%Y-%m-%d").to_string(),
            frequency: s.frequency,
            amount: s.amount,
            memo: s.memo,
            flag_color: None,
            flag_name: None,
            account_id: self.plan.accounts[account].id.clone(),
            payee_id,
            category_id,
            transfer_account_id,
            deleted: false,
            account_name: None,
            payee_name: None,
            category_name: None,
            subtransactions: Vec::new(),
        });
        self
    }

    /// The plan, transactions numbered (see the module doc) and stored in readable-id order.
    pub fn build(mut self) -> PlanState {
        let readable = self.number_rows();
        let ids: Vec<String> = readable.iter().map(|r| self.uuid(r)).collect();
        let mut order: Vec<usize> = (0..self.rows.len()).collect();
        order.sort_by(|&a, &b| natural_key(&readable[a]).cmp(&natural_key(&readable[b])));
        let mut rows: Vec<Option<Row>> = self.rows.into_iter().map(Some).collect();
        for i in order {
            let Some(mut row) = rows[i].take() else {
                continue;
            };
            row.tx.id = ids[i].clone();
            row.tx.transfer_transaction_id = row.partner.map(|p| ids[p].clone());
            row.tx.subtransactions =
                row.lines
                    .iter()
                    .enumerate()
                    .map(|(k, line)| SubTransaction {
                        id: ids::id(&format!("{}{}/{k}", self.id_prefix, readable[i])),
                        transaction_id: ids[i].clone(),
                        amount: line.amount,
                        memo: line.memo.clone(),
                        payee_id: row.tx.payee_id.clone(),
                        payee_name: None,
                        category_id: line.category.as_deref().map(|c| {
                            let index = self.categories.get(c).copied().unwrap_or_else(|| {
                                panic!("unknown category {c:?} in a split line")
                            });
                            self.plan.categories[index].id.to_string()
                        }),
                        category_name: None,
                        transfer_account_id: None,
                        transfer_transaction_id: None,
                        deleted: false,
                    })
                    .collect();
            if !row.lines.is_empty() {
                row.tx.category_id = None;
            }
            self.plan.transactions.push(row.tx);
        }
        self.plan
    }

    /// The readable id of every row: explicit ones kept, the others numbered per series.
    fn number_rows(&self) -> Vec<String> {
        let taken: BTreeSet<&str> = self
            .rows
            .iter()
            .filter_map(|r| r.readable_id.as_deref())
            .collect();
        let mut readable: Vec<String> = self
            .rows
            .iter()
            .map(|r| r.readable_id.clone().unwrap_or_default())
            .collect();
        let series: BTreeSet<&str> = self.rows.iter().map(|r| r.series.as_str()).collect();
        for s in series {
            let mut members: Vec<usize> = (0..self.rows.len())
                .filter(|&i| self.rows[i].series == s && self.rows[i].readable_id.is_none())
                .collect();
            members.sort_by(|&a, &b| {
                let (x, y) = (&self.rows[a], &self.rows[b]);
                (
                    &x.tx.date,
                    &x.payee_name,
                    x.tx.amount,
                    &x.category_name,
                    &x.account_name,
                )
                    .cmp(&(
                        &y.tx.date,
                        &y.payee_name,
                        y.tx.amount,
                        &y.category_name,
                        &y.account_name,
                    ))
            });
            let mut n = 0usize;
            for i in members {
                let mut candidate = format!("{s}-{n:03}");
                while taken.contains(candidate.as_str()) {
                    n += 1;
                    candidate = format!("{s}-{n:03}");
                }
                readable[i] = candidate;
                n += 1;
            }
        }
        readable
    }
}

/// Sorts `tx-2` before `tx-10`: the text before the last `-`, then the number after it.
fn natural_key(readable: &str) -> (String, u64, String) {
    match readable.rsplit_once('-') {
        Some((head, tail)) => match tail.parse::<u64>() {
            Ok(n) => (head.to_owned(), n, String::new()),
            Err(_) => (head.to_owned(), u64::MAX, tail.to_owned()),
        },
        None => (readable.to_owned(), u64::MAX, String::new()),
    }
}
