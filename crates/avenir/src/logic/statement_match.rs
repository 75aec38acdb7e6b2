//! A bank statement's lines matched with an account's transactions, one to one: which lines YNAB
//! has, which it lacks, which transactions the bank does not show, and which pairs disagree.
//!
//! Matching follows YNAB's own rule for imports (same account, same amount, dates at most
//! [`WINDOW_DAYS`] apart) and goes from the surest to the least sure pairing, each pass taking
//! only what the ones before left:
//!
//! 1. the import id: a transaction created from this statement before carries the id
//!    `import_statement` gives the line (`YNAB:<milliunits>:<date>:<occurrence>`);
//! 2. the same amount within the window, the nearest dates first, payee likeness breaking ties
//!    (two 71.86 charges at the same shop on the same day pair in file order);
//! 3. what is left pairs as a *mismatch* when the payees look alike and either the amount differs
//!    within the window or the amount is equal but the dates are up to [`DATE_MISMATCH_DAYS`]
//!    apart.
//!
//! Every pass sorts all its candidate pairs once and takes them greedily, so the result does not
//! depend on the order of the file. Amounts are compared exactly (milliunits).

use chrono::NaiveDate;
use std::collections::HashMap;
use ynab::models::Milliunits;

/// Days between a statement line's date and its transaction's that still match (YNAB's window for
/// matching an import with an entered transaction).
pub const WINDOW_DAYS: i64 = 10;
/// Days apart beyond the window that a pair with the same amount and a like payee is still shown
/// as the same payment with a wrong date, rather than as one missing and one extra.
pub const DATE_MISMATCH_DAYS: i64 = 31;
/// Payee likeness (0–100) from which an unmatched line and transaction are taken for the same
/// payment in pass 3.
const ALIKE: u32 = 50;

/// What matching looks at, of a statement line or of a transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'a> {
    pub date: NaiveDate,
    pub amount: Milliunits,
    pub payee: &'a str,
    /// A transaction's import id; for a statement line, the one `import_statement` would give it.
    pub import_id: Option<&'a str>,
}

/// How a matched pair disagrees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disagreement {
    /// The amounts differ (the dates are within the window).
    Amount,
    /// The dates are further apart than the window (the amounts are equal).
    Date,
}

/// The outcome: indexes into the statement's lines and the transactions given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comparison {
    /// (line, transaction) pairs that agree: amount equal, dates within the window.
    pub matched: Vec<(usize, usize)>,
    /// (line, transaction, how) pairs taken for the same payment that disagree.
    pub mismatched: Vec<(usize, usize, Disagreement)>,
    /// Lines on the statement with no transaction.
    pub missing_in_ynab: Vec<usize>,
    /// Transactions dated within the statement's period that no line matches.
    pub extra_in_ynab: Vec<usize>,
}

/// Lines and transactions matched as the module doc says. `period`: the first and last day the
/// statement covers; a transaction outside it is never extra (the bank did not list that day).
pub fn compare(lines: &[Entry], ledger: &[Entry], period: (NaiveDate, NaiveDate)) -> Comparison {
    let words = Words::of(lines, ledger);
    let mut taken = Taken::new(lines.len(), ledger.len());
    let mut comparison = Comparison::default();
    by_import_id(lines, ledger, &mut taken, &mut comparison.matched);
    for (line, transaction, _) in taken.greedy(same_amount(lines, ledger, &taken, &words)) {
        comparison.matched.push((line, transaction));
    }
    for (line, transaction, rank) in taken.greedy(alike(lines, ledger, &taken, &words)) {
        let how = if rank == 0 {
            Disagreement::Amount
        } else {
            Disagreement::Date
        };
        comparison.mismatched.push((line, transaction, how));
    }
    comparison.missing_in_ynab = (0..lines.len()).filter(|&l| !taken.line(l)).collect();
    comparison.extra_in_ynab = (0..ledger.len())
        .filter(|&t| !taken.transaction(t))
        .filter(|&t| (period.0..=period.1).contains(&ledger[t].date))
        .collect();
    comparison.matched.sort_unstable();
    comparison
        .mismatched
        .sort_unstable_by_key(|&(l, t, _)| (l, t));
    comparison
}

/// Pass 1: a line whose import id a transaction carries is that transaction.
fn by_import_id(
    lines: &[Entry],
    ledger: &[Entry],
    taken: &mut Taken,
    matched: &mut Vec<(usize, usize)>,
) {
    let by_id: HashMap<&str, usize> = ledger
        .iter()
        .enumerate()
        .filter_map(|(i, e)| e.import_id.map(|id| (id, i)))
        .collect();
    for (l, line) in lines.iter().enumerate() {
        let Some(&t) = line.import_id.and_then(|id| by_id.get(id)) else {
            continue;
        };
        if !taken.transaction(t) && ledger[t].amount == line.amount {
            taken.take(l, t);
            matched.push((l, t));
        }
    }
}

/// A candidate pair: its rank (lower first), days apart, unlikeness (100 − likeness), line,
/// transaction.
type Candidate = (u8, i64, u32, usize, usize);

/// Pass 2's candidates: a free line and a free transaction of the same amount within the window.
fn same_amount(lines: &[Entry], ledger: &[Entry], taken: &Taken, words: &Words) -> Vec<Candidate> {
    let mut by_amount: HashMap<Milliunits, Vec<usize>> = HashMap::new();
    for (t, entry) in ledger.iter().enumerate() {
        if !taken.transaction(t) {
            by_amount.entry(entry.amount).or_default().push(t);
        }
    }
    let mut pairs = Vec::new();
    for (l, line) in lines.iter().enumerate() {
        if taken.line(l) {
            continue;
        }
        for &t in by_amount.get(&line.amount).map_or(&[][..], Vec::as_slice) {
            let apart = days(line, &ledger[t]);
            if apart <= WINDOW_DAYS {
                pairs.push((0, apart, 100 - words.likeness(l, t), l, t));
            }
        }
    }
    pairs
}

/// Pass 3's candidates: a free line and a free transaction whose payees look alike, with a
/// different amount within the window (rank 0) or the same amount further apart (rank 1). Alike
/// payees share a word, so only the transactions sharing one of the line's words are looked at.
fn alike(lines: &[Entry], ledger: &[Entry], taken: &Taken, words: &Words) -> Vec<Candidate> {
    let mut by_word: HashMap<&str, Vec<usize>> = HashMap::new();
    for (t, set) in words.1.iter().enumerate() {
        if !taken.transaction(t) {
            for word in set {
                by_word.entry(word.as_str()).or_default().push(t);
            }
        }
    }
    let mut pairs = Vec::new();
    for (l, line) in lines.iter().enumerate() {
        if taken.line(l) {
            continue;
        }
        let mut near: Vec<usize> = words
            .0
            .get(l)
            .into_iter()
            .flatten()
            .filter_map(|w| by_word.get(w.as_str()))
            .flatten()
            .copied()
            .collect();
        near.sort_unstable();
        near.dedup();
        for t in near {
            let entry = &ledger[t];
            let apart = days(line, entry);
            let rank = match (line.amount == entry.amount, apart) {
                (false, a) if a <= WINDOW_DAYS => 0,
                (true, a) if a > WINDOW_DAYS && a <= DATE_MISMATCH_DAYS => 1,
                _ => continue,
            };
            let like = words.likeness(l, t);
            if like >= ALIKE {
                pairs.push((rank, apart, 100 - like, l, t));
            }
        }
    }
    pairs
}

/// The lines and transactions already paired, one flag each.
#[derive(Debug)]
struct Taken {
    lines: Vec<bool>,
    ledger: Vec<bool>,
}

impl Taken {
    fn new(lines: usize, ledger: usize) -> Self {
        Taken {
            lines: vec![false; lines],
            ledger: vec![false; ledger],
        }
    }

    fn line(&self, line: usize) -> bool {
        self.lines.get(line).copied().unwrap_or(false)
    }

    fn transaction(&self, transaction: usize) -> bool {
        self.ledger.get(transaction).copied().unwrap_or(false)
    }

    fn take(&mut self, line: usize, transaction: usize) {
        if let Some(l) = self.lines.get_mut(line) {
            *l = true;
        }
        if let Some(t) = self.ledger.get_mut(transaction) {
            *t = true;
        }
    }

    /// The candidates sorted (best first) and taken while both sides are free: (line,
    /// transaction, rank) for each pair taken.
    fn greedy(&mut self, mut pairs: Vec<Candidate>) -> Vec<(usize, usize, u8)> {
        pairs.sort_unstable();
        let mut chosen = Vec::new();
        for (rank, _, _, line, transaction) in pairs {
            if !self.line(line) && !self.transaction(transaction) {
                self.take(line, transaction);
                chosen.push((line, transaction, rank));
            }
        }
        chosen
    }
}

fn days(a: &Entry, b: &Entry) -> i64 {
    (a.date - b.date).num_days().abs()
}

/// The words of each payee, normalised once: (lines', transactions').
struct Words(Vec<Vec<String>>, Vec<Vec<String>>);

impl Words {
    fn of(lines: &[Entry], ledger: &[Entry]) -> Self {
        let of = |entries: &[Entry]| entries.iter().map(|e| words(e.payee)).collect();
        Words(of(lines), of(ledger))
    }

    fn likeness(&self, line: usize, transaction: usize) -> u32 {
        match (self.0.get(line), self.1.get(transaction)) {
            (Some(a), Some(b)) => overlap(a, b),
            _ => 0,
        }
    }
}

/// A payee's words, sorted and each once: upper-cased, of three characters or more and not all
/// digits — what is left of a bank label once card numbers, dates and references (runs of digits)
/// are set aside. Simpler than the merchant rules (`logic::merchant`), and enough to tell two
/// labels of one shop: it runs on every line of a statement of thousands.
fn words(payee: &str) -> Vec<String> {
    let mut words: Vec<String> = payee
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 3 && !w.chars().all(|c| c.is_numeric()))
        .map(str::to_uppercase)
        .collect();
    words.sort_unstable();
    words.dedup();
    words
}

/// How alike two payees read, 0–100: the share of the shorter one's words that the other has
/// too.
pub fn likeness(a: &str, b: &str) -> u32 {
    overlap(&words(a), &words(b))
}

/// [`likeness`] of two payees' sorted words.
fn overlap(a: &[String], b: &[String]) -> u32 {
    let shorter = a.len().min(b.len());
    if shorter == 0 {
        return 0;
    }
    let common = a.iter().filter(|w| b.binary_search(w).is_ok()).count();
    u32::try_from(common * 100 / shorter).unwrap_or(100)
}

#[cfg(test)]
mod tests;
