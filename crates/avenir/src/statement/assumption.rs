//! What the reader decided because the file did not say it, each with one plain sentence an agent
//! can pass on to the person: what was assumed, and which argument reads the file otherwise.

use super::error::Shown;
use super::{AmountColumns, ColumnRef, Columns, DateOrder, Decimal};
use std::fmt;

/// The text encoding a file that is not UTF-8 was read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextEncoding {
    /// Western European, a superset of ISO-8859-1 for printable text.
    Windows1252,
}

/// One decision the file left to the reader.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Assumption {
    /// No date of the file has a day over 12, so the order of day and month was chosen.
    DateOrder(DateOrder),
    /// No amount shows its decimal mark unambiguously (`1.250`), so one was chosen.
    Decimal(Decimal),
    /// The CSV columns were recognised from the header's words.
    Columns(Columns),
    /// The bytes are not UTF-8 and declare no charset.
    Encoding(TextEncoding),
}

impl fmt::Display for Assumption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Assumption::DateOrder(order) => {
                let (read, other) = match order {
                    DateOrder::DayFirst => {
                        ("day first (05/09/2026 is 5 September 2026)", "month_first")
                    }
                    DateOrder::MonthFirst => {
                        ("month first (05/09/2026 is 9 May 2026)", "day_first")
                    }
                };
                write!(
                    f,
                    "No date in the file shows which comes first, day or month, so dates were read {read}; if that is wrong, read it again with date_order \"{other}\"."
                )
            }
            Assumption::Decimal(decimal) => {
                let (mark, example, other) = match decimal {
                    Decimal::Comma => (
                        "a comma",
                        "1.250 is one thousand two hundred and fifty",
                        "point",
                    ),
                    Decimal::Point => ("a point", "1.250 is one and a quarter", "comma"),
                };
                write!(
                    f,
                    "No amount in the file shows its decimal mark, so it was taken to be {mark} ({example}); if that is wrong, read it again with decimal \"{other}\"."
                )
            }
            Assumption::Columns(columns) => write!(
                f,
                "The columns were recognised from the header: {}; if any is wrong, read it again with columns naming the date, the amount (or debit and credit), the payee and the memo by header text or 0-based index.",
                describe(columns)
            ),
            Assumption::Encoding(TextEncoding::Windows1252) => write!(
                f,
                "The file is not UTF-8 and names no character set, so it was read as Windows-1252 (Western European); if accented letters look wrong, export it from the bank as UTF-8."
            ),
        }
    }
}

/// `date "Datum", amount "Betrag", payee "Naam", no memo`.
fn describe(columns: &Columns) -> String {
    let mut parts = vec![format!("date {}", column(&columns.date))];
    match &columns.amount {
        AmountColumns::Signed(amount) => parts.push(format!("amount {}", column(amount))),
        AmountColumns::DebitCredit { debit, credit } => {
            parts.push(format!("debit {}", column(debit)));
            parts.push(format!("credit {}", column(credit)));
        }
        AmountColumns::Directed { amount, direction } => {
            parts.push(format!("amount {}", column(amount)));
            parts.push(format!("money in or out {}", column(direction)));
        }
    }
    for (what, which) in [("payee", &columns.payee), ("memo", &columns.memo)] {
        parts.push(match which {
            Some(which) => format!("{what} {}", column(which)),
            None => format!("no {what}"),
        });
    }
    parts.join(", ")
}

fn column(which: &ColumnRef) -> String {
    match which {
        ColumnRef::Name(name) => Shown::new(name).to_string(),
        ColumnRef::Index(index) => format!("column {index}"),
    }
}
