//! A bank statement, as a person downloads it from their bank or pastes it, read into typed lines:
//! date, exact amount, payee, memo and the bank's own id, with the account, currency and closing
//! balance when the file says them. Pure: bytes or text in, a [`Statement`] or a
//! [`StatementError`] out, no I/O.
//!
//! Four families are read: CSV exports (`csv.rs`, records split by the `csv` crate, the header
//! recognised in several languages), OFX and QFX (`ofx.rs`: version 1 is SGML whose leaf tags are
//! rarely closed, read by a small tolerant tag scanner written here in `ofx/sgml.rs`, because the
//! crates for it are either unmaintained or bring a second date library; version 2 is XML, read
//! with `quick-xml`), QIF (`qif.rs`) and ISO 20022 camt.053 (`camt.rs`, `quick-xml`).
//!
//! Whatever the reader had to decide without the file saying it (the order of day and month, the
//! decimal mark, which column is which, the text encoding) comes back as an [`Assumption`] whose
//! sentence tells the person what was assumed and which argument changes it. Bank text is
//! untrusted: an error quotes at most the one short field it refuses, cut to 40 characters.

mod account;
mod amount;
mod assumption;
mod camt;
mod csv;
mod date;
mod decode;
mod detect;
mod error;
mod markup;
mod ofx;
mod qif;
mod raw;

#[cfg(test)]
mod tests;

pub use account::AccountRef;
pub use assumption::{Assumption, TextEncoding};
pub use error::{BinaryKind, Place, SHOWN_CHARS, Shown, StatementError};

use chrono::NaiveDate;
use ynab::models::Milliunits;

/// The largest file read, in bytes (5 MiB): a year of a busy account is well under 1 MiB.
pub const MAX_BYTES: usize = 5 * 1024 * 1024;

/// The family of file a statement came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Comma-, semicolon- or tab-separated values with a header row.
    Csv,
    /// OFX 1.x (SGML), OFX 2.x (XML) and Quicken's QFX, which is OFX.
    Ofx,
    /// Quicken Interchange Format.
    Qif,
    /// ISO 20022 `camt.053` (bank-to-customer statement), any version.
    Camt053,
}

impl Format {
    /// The name people know the format by.
    pub fn name(self) -> &'static str {
        match self {
            Format::Csv => "CSV",
            Format::Ofx => "OFX",
            Format::Qif => "QIF",
            Format::Camt053 => "camt.053",
        }
    }
}

/// What a statement holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub format: Format,
    /// In the order of the file.
    pub lines: Vec<StatementLine>,
    /// The account the file names, if it names one.
    pub account: Option<AccountRef>,
    /// The ISO 4217 code the file gives (`EUR`), as written, upper case.
    pub currency: Option<String>,
    /// The balance the bank states at the end of the statement.
    pub closing: Option<ClosingBalance>,
    /// What the reader decided without the file saying it.
    pub assumptions: Vec<Assumption>,
}

/// One movement on the statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatementLine {
    /// The booking date (CAMT's `BookgDt`, OFX's `DTPOSTED`).
    pub date: NaiveDate,
    /// Thousandths of the currency unit; negative is money out.
    pub amount: Milliunits,
    /// The counterparty or the bank's label, white space collapsed ("" when the file has none).
    pub payee: String,
    pub memo: Option<String>,
    /// The bank's id of the movement: OFX `FITID`, CAMT `AcctSvcrRef` or `NtryRef`, QIF `N`.
    pub bank_id: Option<String>,
    /// 1-based line of the file where the record starts (for camt.053 and OFX, the line of the
    /// entry's opening tag).
    pub source_line: usize,
}

/// The balance the bank states, and the day it is stated for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClosingBalance {
    pub amount: Milliunits,
    pub date: NaiveDate,
}

/// Which number of a slashed date is the day. The caller's argument `date_order` spells them
/// `day_first` and `month_first` ([`DateOrder::from_arg`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DateOrder {
    /// `05/09/2026` is 5 September.
    DayFirst,
    /// `05/09/2026` is 9 May.
    MonthFirst,
}

impl DateOrder {
    /// The caller's spelling: `day_first` or `month_first`.
    pub fn arg(self) -> &'static str {
        match self {
            DateOrder::DayFirst => "day_first",
            DateOrder::MonthFirst => "month_first",
        }
    }

    /// `day_first` or `month_first`, as the caller writes it.
    pub fn from_arg(text: &str) -> Option<DateOrder> {
        match text {
            "day_first" => Some(DateOrder::DayFirst),
            "month_first" => Some(DateOrder::MonthFirst),
            _ => None,
        }
    }
}

/// The mark before the decimals. The caller's argument `decimal` spells them `comma` and `point`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decimal {
    /// `1.234,56`
    Comma,
    /// `1,234.56`
    Point,
}

impl Decimal {
    /// The caller's spelling: `comma` or `point`.
    pub fn arg(self) -> &'static str {
        match self {
            Decimal::Comma => "comma",
            Decimal::Point => "point",
        }
    }

    /// `comma` or `point`, as the caller writes it.
    pub fn from_arg(text: &str) -> Option<Decimal> {
        match text {
            "comma" => Some(Decimal::Comma),
            "point" => Some(Decimal::Point),
            _ => None,
        }
    }
}

/// A CSV column: its header text (compared trimmed, case-insensitively) or its 0-based index.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ColumnRef {
    Name(String),
    Index(usize),
}

/// Where a CSV row's amount is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AmountColumns {
    /// One column, negative for money out.
    Signed(ColumnRef),
    /// Money out in one column (written with or without a minus), money in in another.
    DebitCredit { debit: ColumnRef, credit: ColumnRef },
    /// An unsigned amount and a column saying its direction (`Af`/`Bij`, `S`/`H`, `Debit`/`Credit`).
    Directed {
        amount: ColumnRef,
        direction: ColumnRef,
    },
}

/// Which CSV column holds what (the caller's `columns` argument, or what the header said).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Columns {
    pub date: ColumnRef,
    pub amount: AmountColumns,
    pub payee: Option<ColumnRef>,
    pub memo: Option<ColumnRef>,
    /// A running balance, whose last value gives the closing balance.
    pub balance: Option<ColumnRef>,
}

/// What the caller knows better than the file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// How to read a slashed date no date of the file decides (`day_first` when not given).
    pub date_order: Option<DateOrder>,
    /// The decimal mark, when no amount of the file shows it.
    pub decimal: Option<Decimal>,
    /// The CSV columns, when the header is not recognised or was misread.
    pub columns: Option<Columns>,
    /// The format, when the content alone is not enough.
    pub format: Option<Format>,
}

/// Reads a statement given as text (pasted, or already decoded).
pub fn read_text(text: &str, options: &ReadOptions) -> Result<Statement, StatementError> {
    if text.len() > MAX_BYTES {
        return Err(StatementError::TooLarge {
            bytes: text.len(),
            cap: MAX_BYTES,
        });
    }
    decode::refuse_binary_text(text)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    read_decoded(text, options, Vec::new())
}

/// Reads a statement given as the bytes of a file: a UTF-8 byte order mark is dropped, UTF-8 is
/// read as such, a declared charset is honoured, anything else is read as Windows-1252 (with an
/// [`Assumption`]); a binary file (a PDF, a spreadsheet) is refused.
pub fn read_bytes(bytes: &[u8], options: &ReadOptions) -> Result<Statement, StatementError> {
    if bytes.len() > MAX_BYTES {
        return Err(StatementError::TooLarge {
            bytes: bytes.len(),
            cap: MAX_BYTES,
        });
    }
    let decoded = decode::decode(bytes)?;
    let assumptions = decoded.assumption.into_iter().collect();
    read_decoded(&decoded.text, options, assumptions)
}

fn read_decoded(
    text: &str,
    options: &ReadOptions,
    mut assumptions: Vec<Assumption>,
) -> Result<Statement, StatementError> {
    let format = match options.format {
        Some(format) => format,
        None => detect::format(text)?,
    };
    let mut statement = match format {
        Format::Csv => csv::read(text, options)?,
        Format::Ofx => ofx::read(text)?,
        Format::Qif => qif::read(text, options)?,
        Format::Camt053 => camt::read(text)?,
    };
    if statement.lines.is_empty() {
        return Err(StatementError::Empty { format });
    }
    assumptions.append(&mut statement.assumptions);
    statement.assumptions = assumptions;
    Ok(statement)
}

/// A payee or memo as kept: white space collapsed to single spaces, trimmed.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// [`collapse`], `None` when nothing is left.
fn non_empty(text: &str) -> Option<String> {
    Some(collapse(text)).filter(|t| !t.is_empty())
}
