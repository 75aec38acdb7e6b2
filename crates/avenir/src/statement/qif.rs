//! QIF, Quicken's line format: a `!Type:Bank` (or `CCard`, `Cash`, `Oth A`, `Oth L`) line, then
//! records of one-letter fields ending with `^` — `D` date, `T` (or `U`) amount, `P` payee, `M`
//! memo, `N` number (kept as the bank's id). Categories, splits, addresses and cleared marks are
//! the bookkeeping of whoever exported the file and are not read. QIF says nothing of the account
//! number, currency or balance. `!Account` blocks name accounts: two different names mean two
//! accounts in one file, which is refused.

use super::error::{Place, Shown, StatementError};
use super::raw::{self, Field, RawAmount, RawLine};
use super::{Decimal, Format, ReadOptions, Statement, collapse, non_empty};

/// What the lines being read belong to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    /// After an `!Account` block, until the `!Type:` line of its transactions.
    Outside,
    /// An `!Account` block: its `N` is the account's name.
    Account,
    /// Transactions of a bank or card account.
    Transactions,
}

/// A record being read.
#[derive(Default)]
struct Draft {
    /// Whether a field of the record was seen, and on which line the first was.
    started: bool,
    line: usize,
    date: Option<Field>,
    amount: Option<Field>,
    payee: Option<String>,
    memo: Option<String>,
    number: Option<String>,
}

impl Draft {
    fn is_empty(&self) -> bool {
        self.date.is_none() && self.amount.is_none() && self.payee.is_none() && self.memo.is_none()
    }
}

pub fn read(text: &str, options: &ReadOptions) -> Result<Statement, StatementError> {
    // a file without a `!Type:` line (pasted records) is read as a bank account's
    let mut section = Section::Transactions;
    let mut draft = Draft::default();
    let mut raw = Vec::new();
    let mut account: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        if let Some(header) = line.trim().strip_prefix('!') {
            section = enter(header, section)?;
            continue;
        }
        match section {
            Section::Transactions => field(line, n, &mut draft, &mut raw)?,
            Section::Account => account_line(line, &mut account, &mut section)?,
            Section::Outside => {}
        }
    }
    finish(std::mem::take(&mut draft), &mut raw)?;
    let resolved = raw::resolve(raw, options, Decimal::Point)?;
    Ok(Statement {
        format: Format::Qif,
        lines: resolved.lines,
        account: None,
        currency: None,
        closing: None,
        assumptions: resolved.assumptions,
    })
}

/// The section a `!` line opens.
fn enter(header: &str, current: Section) -> Result<Section, StatementError> {
    let header = header.trim();
    if header.eq_ignore_ascii_case("Account") {
        return Ok(Section::Account);
    }
    let Some(kind) = header
        .get(..5)
        .filter(|t| t.eq_ignore_ascii_case("Type:"))
        .and_then(|_| header.get(5..))
    else {
        return Ok(if current == Section::Account {
            Section::Outside
        } else {
            current
        });
    };
    let kind = kind.trim();
    let read = ["Bank", "CCard", "Cash", "Oth A", "Oth L"];
    if read.iter().any(|k| k.eq_ignore_ascii_case(kind)) {
        Ok(Section::Transactions)
    } else {
        Err(StatementError::UnsupportedQif {
            kind: Shown::new(kind),
        })
    }
}

/// A line of an `!Account` block; its end (`^`) leaves the block.
fn account_line(
    line: &str,
    account: &mut Option<String>,
    section: &mut Section,
) -> Result<(), StatementError> {
    if line.starts_with('^') {
        *section = Section::Outside;
    } else if let Some(name) = line.strip_prefix('N').and_then(non_empty) {
        match account {
            Some(known) if *known != name => {
                return Err(StatementError::SeveralAccounts {
                    first: Shown::new(known),
                    second: Shown::new(&name),
                });
            }
            _ => *account = Some(name),
        }
    }
    Ok(())
}

/// One field line of a transaction record.
fn field(
    line: &str,
    n: usize,
    draft: &mut Draft,
    raw: &mut Vec<RawLine>,
) -> Result<(), StatementError> {
    let mut chars = line.chars();
    let Some(letter) = chars.next() else {
        return Ok(());
    };
    let value = chars.as_str().trim();
    if letter == '^' {
        return finish(std::mem::take(draft), raw);
    }
    if !draft.started {
        draft.started = true;
        draft.line = n;
    }
    let at = |letter| Field {
        text: value.to_string(),
        at: Place::qif(n, letter),
    };
    match letter {
        'D' => draft.date = Some(at('D')),
        'T' => draft.amount = Some(at('T')),
        'U' if draft.amount.is_none() => draft.amount = Some(at('U')),
        'P' => draft.payee = non_empty(value),
        'M' => draft.memo = non_empty(value),
        'N' => draft.number = non_empty(value),
        _ => {}
    }
    Ok(())
}

/// A record ended: a raw line, or nothing for an empty record.
fn finish(draft: Draft, raw: &mut Vec<RawLine>) -> Result<(), StatementError> {
    if draft.is_empty() {
        return Ok(());
    }
    let missing = |element| StatementError::Missing {
        format: Format::Qif,
        element,
        line: draft.line,
    };
    let mut date = draft.date.ok_or_else(|| missing("D line (the date)"))?;
    date.text.retain(|c| c != ' ');
    let amount = draft.amount.ok_or_else(|| missing("T line (the amount)"))?;
    let (payee, memo) = match draft.payee {
        Some(payee) => (payee, draft.memo),
        None => (draft.memo.unwrap_or_default(), None),
    };
    raw.push(RawLine {
        line: draft.line,
        date,
        amount: RawAmount::Signed(amount),
        payee: collapse(&payee),
        memo,
        bank_id: draft.number,
        balance: None,
    });
    Ok(())
}
