//! Lines of the text formats (CSV, QIF) as their cells were read, and the decisions made for the
//! whole file before any of them is a [`StatementLine`]: the order of day and month, the decimal
//! mark, and, from a running balance, the closing balance.

use super::assumption::Assumption;
use super::error::{Place, Shown, StatementError};
use super::{ClosingBalance, Decimal, ReadOptions, StatementLine, amount, date};
use ynab::models::Milliunits;

/// A cell and where it is.
#[derive(Debug, Clone)]
pub struct Field {
    pub text: String,
    pub at: Place,
}

/// Where a line's amount was written.
#[derive(Debug, Clone)]
pub enum RawAmount {
    Signed(Field),
    DebitCredit { debit: Field, credit: Field },
    Directed { amount: Field, direction: Field },
}

impl RawAmount {
    fn texts(&self) -> Vec<&Field> {
        match self {
            RawAmount::Signed(f) => vec![f],
            RawAmount::DebitCredit { debit, credit } => vec![debit, credit],
            RawAmount::Directed { amount, .. } => vec![amount],
        }
    }
}

/// A line as read, nothing decided yet.
#[derive(Debug, Clone)]
pub struct RawLine {
    pub line: usize,
    pub date: Field,
    pub amount: RawAmount,
    pub payee: String,
    pub memo: Option<String>,
    pub bank_id: Option<String>,
    pub balance: Option<Field>,
}

/// What the raw lines become.
pub struct Resolved {
    pub lines: Vec<StatementLine>,
    pub closing: Option<ClosingBalance>,
    pub assumptions: Vec<Assumption>,
}

/// Decides the file's date order and decimal mark (`fallback` when nothing shows it), then reads
/// every line.
pub fn resolve(
    raw: Vec<RawLine>,
    options: &ReadOptions,
    fallback: Decimal,
) -> Result<Resolved, StatementError> {
    let cells: Vec<date::Cell<'_>> = raw
        .iter()
        .map(|r| date::Cell {
            text: &r.date.text,
            at: r.date.at.clone(),
        })
        .collect();
    let (dates, date_assumption) = date::read_all(&cells, options.date_order)?;
    let (decimal, decimal_assumption) = match options.decimal {
        Some(decimal) => (decimal, None),
        None => decide_decimal(&raw, fallback)?,
    };
    let closing = closing(&raw, &dates, decimal);
    let mut lines = Vec::with_capacity(raw.len());
    for (r, date) in raw.into_iter().zip(dates) {
        lines.push(StatementLine {
            date,
            amount: line_amount(&r, decimal)?,
            payee: r.payee,
            memo: r.memo,
            bank_id: r.bank_id,
            source_line: r.line,
        });
    }
    let assumptions = date_assumption
        .into_iter()
        .chain(decimal_assumption)
        .collect();
    Ok(Resolved {
        lines,
        closing,
        assumptions,
    })
}

/// The decimal mark the amounts show; a conflict is an error; `fallback` (with an assumption
/// when some amount could be read either way) when none shows it.
fn decide_decimal(
    raw: &[RawLine],
    fallback: Decimal,
) -> Result<(Decimal, Option<Assumption>), StatementError> {
    let fields = || {
        raw.iter()
            .flat_map(|r| r.amount.texts().into_iter().chain(&r.balance))
    };
    let first = |decimal| fields().find(|f| amount::evidence(&f.text) == Some(decimal));
    match (first(Decimal::Comma), first(Decimal::Point)) {
        (Some(comma), Some(point)) => Err(StatementError::DecimalConflict {
            comma: comma.at.clone(),
            comma_text: Shown::new(&comma.text),
            point: point.at.clone(),
            point_text: Shown::new(&point.text),
        }),
        (Some(_), None) => Ok((Decimal::Comma, None)),
        (None, Some(_)) => Ok((Decimal::Point, None)),
        (None, None) if fields().any(|f| amount::ambiguous(&f.text)) => {
            Ok((fallback, Some(Assumption::Decimal(fallback))))
        }
        (None, None) => Ok((fallback, None)),
    }
}

fn line_amount(r: &RawLine, decimal: Decimal) -> Result<Milliunits, StatementError> {
    let read = |f: &Field| amount::read(&f.text, decimal, || f.at.clone());
    match &r.amount {
        RawAmount::Signed(f) => read(f),
        RawAmount::DebitCredit { debit, credit } => {
            let given = |f: &Field| !f.text.trim().is_empty();
            if !given(debit) && !given(credit) {
                return Err(StatementError::NoAmount {
                    line: r.line,
                    debit: debit.at.field.to_string(),
                    credit: credit.at.field.to_string(),
                });
            }
            let out = if given(debit) { read(debit)?.abs() } else { 0 };
            let into = if given(credit) {
                read(credit)?.abs()
            } else {
                0
            };
            Ok(into - out)
        }
        RawAmount::Directed { amount, direction } => {
            let magnitude = read(amount)?.abs();
            match money_in(&direction.text) {
                Some(true) => Ok(magnitude),
                Some(false) => Ok(-magnitude),
                None => Err(StatementError::BadDirection {
                    at: direction.at.clone(),
                    text: Shown::new(&direction.text),
                }),
            }
        }
    }
}

/// Whether a direction cell says money in (`Bij`, `H`, `Credit`) or out (`Af`, `S`, `Debit`).
fn money_in(text: &str) -> Option<bool> {
    let word = super::csv::header::fold(text);
    const IN: [&str; 14] = [
        "bij",
        "credit",
        "c",
        "cr",
        "crdt",
        "h",
        "haben",
        "+",
        "in",
        "deposit",
        "abono",
        "entree",
        "ingaand",
        "gutschrift",
    ];
    const OUT: [&str; 14] = [
        "af",
        "debit",
        "debet",
        "d",
        "dr",
        "dbit",
        "s",
        "soll",
        "-",
        "out",
        "withdrawal",
        "cargo",
        "sortie",
        "lastschrift",
    ];
    let word = word.trim();
    if IN.contains(&word) {
        Some(true)
    } else if OUT.contains(&word) {
        Some(false)
    } else {
        None
    }
}

/// The running balance of the latest line: the first of the latest day when the file runs newest
/// first, else the last. `None` when there is no balance or it does not read.
fn closing(
    raw: &[RawLine],
    dates: &[chrono::NaiveDate],
    decimal: Decimal,
) -> Option<ClosingBalance> {
    let latest = *dates.iter().max()?;
    let newest_first = dates.first() > dates.last();
    let mut on_latest = raw.iter().zip(dates).filter(|(_, d)| **d == latest);
    let (line, _) = if newest_first {
        on_latest.next()?
    } else {
        on_latest.next_back()?
    };
    let text = &line.balance.as_ref()?.text;
    let amount = amount::parse(text, decimal).ok()?;
    Some(ClosingBalance {
        amount,
        date: latest,
    })
}
