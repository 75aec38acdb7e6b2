//! What a plan's ledger is built from, as values with chained setters: an ordinary transaction
//! ([`Tx`], with its split [`Line`]s), a transfer between two accounts ([`Transfer`]) and a
//! scheduled transaction ([`Scheduled`]); all named by readable ids.

use super::SERIES_TX;
use chrono::NaiveDate;
use ynab::models::Milliunits;

/// One line of a split transaction.
#[derive(Debug, Clone)]
pub struct Line {
    pub amount: Milliunits,
    /// Readable category id.
    pub category: Option<String>,
    pub memo: Option<String>,
}

/// An ordinary transaction to add (amounts signed as YNAB stores them: spending negative).
#[derive(Debug, Clone)]
pub struct Tx {
    pub(super) series: String,
    pub(super) readable_id: Option<String>,
    pub(super) date: NaiveDate,
    pub(super) account: String,
    pub(super) payee: Option<String>,
    pub(super) amount: Milliunits,
    pub(super) category: Option<String>,
    pub(super) memo: Option<String>,
    pub(super) cleared: String,
    pub(super) approved: bool,
    pub(super) flag_color: Option<String>,
    pub(super) import_id: Option<String>,
    pub(super) debt_transaction_type: Option<String>,
    pub(super) lines: Vec<Line>,
}

impl Tx {
    /// A cleared, approved transaction of series `tx` on `account` (readable id) paid to the payee
    /// named `payee`, with no category.
    pub fn new(date: NaiveDate, account: &str, payee: &str, amount: Milliunits) -> Self {
        Tx {
            series: SERIES_TX.into(),
            readable_id: None,
            date,
            account: account.into(),
            payee: Some(payee.into()),
            amount,
            category: None,
            memo: None,
            cleared: "cleared".into(),
            approved: true,
            flag_color: None,
            import_id: None,
            debt_transaction_type: None,
            lines: Vec::new(),
        }
    }
    /// Numbered in another series (`nw` for the demo's history).
    pub fn series(mut self, series: &str) -> Self {
        self.series = series.into();
        self
    }
    /// Takes this readable id instead of a number of its series.
    pub fn readable_id(mut self, readable: &str) -> Self {
        self.readable_id = Some(readable.into());
        self
    }
    /// Its category (readable id).
    pub fn category(mut self, category: &str) -> Self {
        self.category = Some(category.into());
        self
    }
    pub fn memo(mut self, memo: &str) -> Self {
        self.memo = Some(memo.into());
        self
    }
    /// `cleared`, `uncleared` or `reconciled`.
    pub fn cleared(mut self, state: &str) -> Self {
        self.cleared = state.into();
        self
    }
    pub fn unapproved(mut self) -> Self {
        self.approved = false;
        self
    }
    pub fn flag(mut self, color: &str) -> Self {
        self.flag_color = Some(color.into());
        self
    }
    pub fn import_id(mut self, import_id: &str) -> Self {
        self.import_id = Some(import_id.into());
        self
    }
    /// YNAB's `debt_transaction_type` (`interest`, `payment`, …) on a debt account.
    pub fn debt(mut self, kind: &str) -> Self {
        self.debt_transaction_type = Some(kind.into());
        self
    }
    /// Adds a split line; a transaction with lines has no category of its own.
    pub fn line(mut self, amount: Milliunits, category: Option<&str>, memo: Option<&str>) -> Self {
        self.lines.push(Line {
            amount,
            category: category.map(str::to_owned),
            memo: memo.map(str::to_owned),
        });
        self
    }
}

/// Money moved from one account to another: two rows, `-amount` on `from`, `+amount` on `to`.
#[derive(Debug, Clone)]
pub struct Transfer {
    pub(super) series: String,
    pub(super) date: NaiveDate,
    pub(super) from: String,
    pub(super) to: String,
    pub(super) amount: Milliunits,
    pub(super) memo: Option<String>,
    pub(super) cleared: String,
    pub(super) approved: bool,
    pub(super) category: Option<String>,
    pub(super) debt_transaction_type: Option<String>,
}

impl Transfer {
    /// A cleared, approved transfer of `amount` (positive) from `from` to `to` (readable ids).
    pub fn new(date: NaiveDate, from: &str, to: &str, amount: Milliunits) -> Self {
        Transfer {
            series: SERIES_TX.into(),
            date,
            from: from.into(),
            to: to.into(),
            amount,
            memo: None,
            cleared: "cleared".into(),
            approved: true,
            category: None,
            debt_transaction_type: None,
        }
    }
    pub fn series(mut self, series: &str) -> Self {
        self.series = series.into();
        self
    }
    pub fn memo(mut self, memo: &str) -> Self {
        self.memo = Some(memo.into());
        self
    }
    /// The category of the side on a budget account when the other side is off budget (YNAB asks
    /// for one there); never given to a side whose counterpart is also on budget.
    pub fn category(mut self, category: &str) -> Self {
        self.category = Some(category.into());
        self
    }
    /// `debt_transaction_type` of the receiving side (`payment` into a loan).
    pub fn debt(mut self, kind: &str) -> Self {
        self.debt_transaction_type = Some(kind.into());
        self
    }
}

/// A scheduled transaction to add.
#[derive(Debug, Clone)]
pub struct Scheduled {
    pub(super) readable_id: String,
    pub(super) account: String,
    pub(super) payee: Option<String>,
    pub(super) transfer_to: Option<String>,
    pub(super) amount: Milliunits,
    pub(super) frequency: String,
    pub(super) first: NaiveDate,
    pub(super) next: NaiveDate,
    pub(super) category: Option<String>,
    pub(super) memo: Option<String>,
}

impl Scheduled {
    /// A schedule on `account` paying the payee named `payee`.
    pub fn new(
        readable_id: &str,
        account: &str,
        payee: &str,
        amount: Milliunits,
        frequency: &str,
        first: NaiveDate,
        next: NaiveDate,
    ) -> Self {
        Scheduled {
            readable_id: readable_id.into(),
            account: account.into(),
            payee: Some(payee.into()),
            transfer_to: None,
            amount,
            frequency: frequency.into(),
            first,
            next,
            category: None,
            memo: None,
        }
    }
    /// A scheduled transfer from `account` to `to` (amount signed as on `account`).
    pub fn transfer(
        readable_id: &str,
        account: &str,
        to: &str,
        amount: Milliunits,
        frequency: &str,
        first: NaiveDate,
        next: NaiveDate,
    ) -> Self {
        let mut s = Scheduled::new(readable_id, account, "", amount, frequency, first, next);
        s.payee = None;
        s.transfer_to = Some(to.into());
        s
    }
    pub fn category(mut self, category: &str) -> Self {
        self.category = Some(category.into());
        self
    }
    pub fn memo(mut self, memo: &str) -> Self {
        self.memo = Some(memo.into());
        self
    }
}
