//! Why a statement could not be read, one variant per failure, each message a sentence saying what
//! is wrong and what to do. The file is untrusted: a message quotes only the short field it
//! refuses, cleaned of control and format characters and cut to [`SHOWN_CHARS`].

use super::{DateOrder, Format};
use std::fmt;
use std::sync::Arc;

/// Longest piece of the file a message quotes, in characters (a longer one keeps 39 and `…`).
pub const SHOWN_CHARS: usize = 40;

/// A short piece of the file, safe to put in a message: controls and format characters gone,
/// white space collapsed, cut to [`SHOWN_CHARS`]; shown in double quotes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown(String);

impl Shown {
    pub fn new(text: &str) -> Shown {
        let clean = crate::text::uncut(text);
        if clean.chars().count() > SHOWN_CHARS {
            let mut cut: String = clean.chars().take(SHOWN_CHARS - 1).collect();
            cut.push('…');
            Shown(cut)
        } else {
            Shown(clean)
        }
    }

    /// The cleaned, cut text, without quotes.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\"", self.0.replace('"', "\\\""))
    }
}

/// Where in the file: a line and the field of it (`column "Amount"`, `<TRNAMT>`, `field T`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub line: usize,
    pub field: Arc<str>,
}

impl Place {
    /// The field of a CSV column, made once for all its lines: `column "Amount"` under its header
    /// text, else its 0-based index.
    pub fn column_label(names: &[String], index: usize) -> Arc<str> {
        match names.get(index).map(|n| n.trim()) {
            Some(name) if !name.is_empty() => format!("column {}", Shown::new(name)).into(),
            _ => format!("column {index}").into(),
        }
    }

    /// The field `label` on `line`.
    pub fn at(line: usize, label: &Arc<str>) -> Place {
        Place {
            line,
            field: Arc::clone(label),
        }
    }

    /// An OFX or camt.053 element.
    pub fn element(line: usize, name: &str) -> Place {
        Place {
            line,
            field: format!("<{}>", Shown::new(name).as_str()).into(),
        }
    }

    /// A QIF field (its letter).
    pub fn qif(line: usize, letter: char) -> Place {
        Place {
            line,
            field: format!("field {letter}").into(),
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, {}", self.line, self.field)
    }
}

/// What a binary file looks like, for the advice its refusal gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryKind {
    Pdf,
    Spreadsheet,
    Other,
}

/// A statement that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StatementError {
    #[error(
        "the file has {bytes} bytes, more than the {cap} a statement may have; export a shorter period"
    )]
    TooLarge { bytes: usize, cap: usize },
    #[error("{}", binary(*kind))]
    Binary { kind: BinaryKind },
    #[error(
        "the {} file has no transaction lines; check that it is the statement and that its period has movements",
        format.name()
    )]
    Empty { format: Format },
    #[error("{at}: {text} is not an amount")]
    NotAnAmount { at: Place, text: Shown },
    #[error("{at}: {text} has more than 3 decimal places")]
    TooPrecise { at: Place, text: Shown },
    #[error("{at}: {text} is over 1,000,000,000, more than any statement amount")]
    AmountTooLarge { at: Place, text: Shown },
    #[error("line {line}: neither {debit} nor {credit} has an amount")]
    NoAmount {
        line: usize,
        /// The debit field, as a [`Place`] names it (`column "Soll"`).
        debit: String,
        credit: String,
    },
    #[error("{at}: {text} says neither money in nor money out")]
    BadDirection { at: Place, text: Shown },
    #[error("{at}: {text} is not a date (expected {expected})")]
    BadDate {
        at: Place,
        text: Shown,
        expected: &'static str,
    },
    #[error(
        "the dates disagree on their order: {day_first} has {day_first_text}, day first, but {month_first} has {month_first_text}, month first; correct the file's dates"
    )]
    DateOrderConflict {
        day_first: Place,
        day_first_text: Shown,
        month_first: Place,
        month_first_text: Shown,
    },
    #[error(
        "date_order is \"{}\", but {at} has {text}, which can only be {}; leave date_order out to let the file decide",
        asked.arg(),
        order_words(*asked)
    )]
    DateOrderContradicted {
        asked: DateOrder,
        at: Place,
        text: Shown,
    },
    #[error(
        "the amounts disagree on their decimal mark: {comma} has {comma_text}, a decimal comma, but {point} has {point_text}, a decimal point; correct the file, or pass decimal \"comma\" or \"point\""
    )]
    DecimalConflict {
        comma: Place,
        comma_text: Shown,
        point: Place,
        point_text: Shown,
    },
    #[error(
        "no header with a date column and an amount column was recognised; the columns found are {}; pass columns to say which is the date, the amount (or debit and credit), the payee and the memo, by header text or 0-based index",
        list(found)
    )]
    NoHeader { found: Vec<Shown> },
    #[error(
        "columns names {column}, which the file does not have; its columns are {}; name them as the header writes them, or by 0-based index",
        list(found)
    )]
    UnknownColumn { column: String, found: Vec<Shown> },
    #[error(
        "line {line} has {found} fields where the table has {expected}; check that the line is not cut short and that its quotes are paired"
    )]
    ShortRow {
        line: usize,
        found: usize,
        expected: usize,
    },
    #[error(
        "the {} entry at line {line} has no {element}; the file may be cut short or not be a statement",
        format.name()
    )]
    Missing {
        format: Format,
        /// What is missing, as the format names it (`<TRNAMT>`, `D line (the date)`).
        element: &'static str,
        line: usize,
    },
    #[error(
        "the {} file is not well formed near line {line}; download it again from the bank",
        format.name()
    )]
    Malformed { format: Format, line: usize },
    #[error(
        "the file holds statements of several accounts ({first} and {second}); download one account's statement at a time"
    )]
    SeveralAccounts { first: Shown, second: Shown },
    #[error(
        "the QIF file holds {kind} records, not a bank or card account's; export the bank or card account instead"
    )]
    UnsupportedQif { kind: Shown },
    #[error(
        "this XML file is neither OFX nor an ISO 20022 camt.053 statement; download the statement as camt.053, OFX, QIF or CSV"
    )]
    UnknownXml,
}

fn binary(kind: BinaryKind) -> &'static str {
    match kind {
        BinaryKind::Pdf => {
            "this is a PDF, whose lines cannot be read reliably; download the statement from the bank as CSV, OFX, QIF or camt.053"
        }
        BinaryKind::Spreadsheet => {
            "this is a spreadsheet file (Excel or OpenDocument); save it as CSV, or download the statement as CSV, OFX, QIF or camt.053"
        }
        BinaryKind::Other => {
            "this is not a text file; download the statement from the bank as CSV, OFX, QIF or camt.053"
        }
    }
}

fn order_words(asked: DateOrder) -> &'static str {
    match asked {
        DateOrder::DayFirst => "month first",
        DateOrder::MonthFirst => "day first",
    }
}

/// `"A", "B", "C"` (at most 12, then `…`); `none` for an empty list.
fn list(names: &[Shown]) -> String {
    if names.is_empty() {
        return "none".into();
    }
    let mut shown: Vec<String> = names.iter().take(12).map(Shown::to_string).collect();
    if names.len() > 12 {
        shown.push("…".into());
    }
    shown.join(", ")
}
