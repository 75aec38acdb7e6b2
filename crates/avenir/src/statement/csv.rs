//! CSV exports as banks write them: `,`, `;` or tab between fields (the `csv` crate splits records
//! and handles quotes), lines of preamble above the header, the header in one of several
//! languages (`csv/header.rs`), one signed amount column or debit and credit columns, and
//! sometimes a footer.
//!
//! The delimiter is the one under which a header is found whose table has the most rows of the
//! header's width. Rows after the last one with a date are a footer and are skipped; a shorter row
//! inside the table is an error, never silently dropped. Dates and amounts are decided for the
//! whole file in `raw.rs`.

pub mod header;

use std::collections::HashMap;
use std::sync::Arc;

use super::account::AccountRef;
use super::assumption::Assumption;
use super::error::{Place, Shown, StatementError};
use super::raw::{self, Field, RawAmount, RawLine};
use super::{
    AmountColumns, ColumnRef, Columns, Decimal, Format, ReadOptions, Statement, collapse, non_empty,
};

/// How many rows from the top a header (or, with columns given by index, the first row of data)
/// is looked for in: preambles are a few lines, and a file of rows that all look like headers
/// must not cost a comparison of every row with every other.
const HEADER_ROWS: usize = 100;

/// A record of the file: the line it starts on and its cells.
struct Record {
    line: usize,
    cells: Vec<String>,
}

/// Where the table is under one delimiter.
struct Table {
    delimiter: u8,
    records: Vec<Record>,
    /// The header row, an index into `records`.
    header: Option<usize>,
    /// The first row of data.
    start: usize,
    /// Every column as an index.
    columns: Columns,
    /// Whether the columns were recognised from the header rather than given.
    guessed: bool,
}

pub fn read(text: &str, options: &ReadOptions) -> Result<Statement, StatementError> {
    let table = choose(text, options)?;
    let names = table.names();
    let raw = table.raw_lines(&names)?;
    let fallback = if table.delimiter == b';' {
        Decimal::Comma
    } else {
        Decimal::Point
    };
    let resolved = raw::resolve(raw, options, fallback)?;
    let mut assumptions = Vec::new();
    if table.guessed {
        assumptions.push(Assumption::Columns(named(&table.columns, &names)));
    }
    assumptions.extend(resolved.assumptions);
    let (account, currency) = table.preamble(&names);
    Ok(Statement {
        format: Format::Csv,
        lines: resolved.lines,
        account,
        currency,
        closing: resolved.closing,
        assumptions,
    })
}

fn records(text: &str, delimiter: u8) -> Result<Vec<Record>, StatementError> {
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(text.as_bytes());
    let mut out = Vec::new();
    for record in reader.records() {
        let line = out.last().map_or(1, |r: &Record| r.line + 1);
        let record = record.map_err(|e| StatementError::Malformed {
            format: Format::Csv,
            line: e
                .position()
                .map_or(line, |p| usize::try_from(p.line()).unwrap_or(line)),
        })?;
        let line = record
            .position()
            .map_or(line, |p| usize::try_from(p.line()).unwrap_or(line));
        out.push(Record {
            line,
            cells: record.iter().map(str::to_string).collect(),
        });
    }
    Ok(out)
}

/// The table under the delimiter that reads best; when none has a header (or the columns the
/// caller named), the error says what the most regular delimiter's table holds.
fn choose(text: &str, options: &ReadOptions) -> Result<Table, StatementError> {
    let mut best: Option<(usize, usize, Table)> = None;
    let mut fallback: Option<(usize, usize, Vec<Record>)> = None;
    let head = head(text);
    for delimiter in [b';', b'\t', b','] {
        let records = records(head, delimiter)?;
        match locate(&records, options.columns.as_ref()) {
            Some((header, start, columns, guessed)) => {
                let width = records
                    .get(header.unwrap_or(start))
                    .map_or(0, |r| r.cells.len());
                let rows = records
                    .get(start..)
                    .unwrap_or_default()
                    .iter()
                    .filter(|r| r.cells.len() == width)
                    .count();
                if best
                    .as_ref()
                    .is_none_or(|(r, w, _)| (rows, width) > (*r, *w))
                {
                    let table = Table {
                        delimiter,
                        records,
                        header,
                        start,
                        columns,
                        guessed,
                    };
                    best = Some((rows, width, table));
                }
            }
            None => {
                let (rows, width) = regularity(&records);
                if fallback
                    .as_ref()
                    .is_none_or(|(r, w, _)| (rows, width) > (*r, *w))
                {
                    fallback = Some((rows, width, records));
                }
            }
        }
    }
    match best {
        Some((_, _, table)) if head.len() == text.len() => Ok(table),
        Some((_, _, table)) => whole(text, table.delimiter, options),
        None => Err(not_found(fallback.map(|(_, w, r)| (w, r)), options)),
    }
}

/// Lines the delimiter is chosen on: the header is within the first [`HEADER_ROWS`] rows, and
/// the table's shape shows long before the end of a large file, which is then read once.
const SNIFF_LINES: usize = 2 * HEADER_ROWS;

/// The first [`SNIFF_LINES`] lines of `text`.
fn head(text: &str) -> &str {
    match text.match_indices('\n').nth(SNIFF_LINES) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

/// The whole of `text` read with the delimiter its first lines chose.
fn whole(text: &str, delimiter: u8, options: &ReadOptions) -> Result<Table, StatementError> {
    let records = records(text, delimiter)?;
    match locate(&records, options.columns.as_ref()) {
        Some((header, start, columns, guessed)) => Ok(Table {
            delimiter,
            records,
            header,
            start,
            columns,
            guessed,
        }),
        None => {
            let (_, width) = regularity(&records);
            Err(not_found(Some((width, records)), options))
        }
    }
}

/// Why no table was found: the columns of the most regular table, and the first column the caller
/// named that it lacks (or that no header was recognised).
fn not_found(regular: Option<(usize, Vec<Record>)>, options: &ReadOptions) -> StatementError {
    let (width, records) = regular.unwrap_or_default();
    let row = records.iter().find(|r| r.cells.len() == width);
    let cells = row.map_or(&[][..], |r| r.cells.as_slice());
    let found: Vec<Shown> = cells.iter().map(|c| Shown::new(c)).collect();
    match &options.columns {
        Some(columns) => StatementError::UnknownColumn {
            column: missing(columns, cells),
            found,
        },
        None => StatementError::NoHeader { found },
    }
}

/// The most frequent width of rows of two cells or more, and how many rows have it.
fn regularity(records: &[Record]) -> (usize, usize) {
    let mut counts = std::collections::BTreeMap::new();
    for r in records.iter().filter(|r| r.cells.len() >= 2) {
        *counts.entry(r.cells.len()).or_insert(0usize) += 1;
    }
    counts
        .into_iter()
        .map(|(width, rows)| (rows, width))
        .max()
        .unwrap_or((0, 0))
}

/// The header row (if any), the first data row, the columns as indexes and whether they were
/// recognised from the header.
fn locate(
    records: &[Record],
    given: Option<&Columns>,
) -> Option<(Option<usize>, usize, Columns, bool)> {
    let top = &records[..records.len().min(HEADER_ROWS)];
    let Some(given) = given else {
        return recognised(records).map(|(i, columns)| (Some(i), i + 1, columns, true));
    };
    if refs(given).any(|c| matches!(c, ColumnRef::Name(_))) {
        return top.iter().enumerate().find_map(|(i, r)| {
            by_name(given, &r.cells).map(|columns| (Some(i), i + 1, columns, false))
        });
    }
    let needed = needed(given);
    let header = top
        .iter()
        .position(|r| header::recognise(&r.cells).is_some());
    let from = header.map_or(0, |h| h + 1);
    let ColumnRef::Index(date) = given.date else {
        return None;
    };
    let start = (from..top.len().max(from)).find(|&i| {
        records.get(i).is_some_and(|r| {
            let dated = r.cells.get(date).is_some_and(|c| super::date::is_date(c));
            r.cells.len() >= needed && dated
        })
    })?;
    Some((header, start, given.clone(), false))
}

/// The row recognised as the header and its columns, among the first [`HEADER_ROWS`]. A preamble
/// line can look like a header (`Date de début;01/09/2026;Montant initial;1000,00`): of several,
/// the one followed by the most rows of its width is taken, the first on a tie.
fn recognised(records: &[Record]) -> Option<(usize, Columns)> {
    let mut after: HashMap<usize, usize> = HashMap::new();
    let mut following = vec![0; records.len()];
    for (i, r) in records.iter().enumerate().rev() {
        following[i] = after.get(&r.cells.len()).copied().unwrap_or(0);
        *after.entry(r.cells.len()).or_insert(0) += 1;
    }
    let mut best: Option<(usize, usize, Columns)> = None;
    for (i, r) in records.iter().enumerate().take(HEADER_ROWS) {
        let Some(columns) = header::recognise(&r.cells) else {
            continue;
        };
        let rows = following[i];
        if best.as_ref().is_none_or(|(most, _, _)| rows > *most) {
            best = Some((rows, i, columns));
        }
    }
    best.map(|(_, i, columns)| (i, columns))
}

/// Every column reference of `columns`.
fn refs(columns: &Columns) -> impl Iterator<Item = &ColumnRef> {
    let amount: Vec<&ColumnRef> = match &columns.amount {
        AmountColumns::Signed(a) => vec![a],
        AmountColumns::DebitCredit { debit, credit } => vec![debit, credit],
        AmountColumns::Directed { amount, direction } => vec![amount, direction],
    };
    std::iter::once(&columns.date)
        .chain(amount)
        .chain(columns.payee.as_ref())
        .chain(columns.memo.as_ref())
        .chain(columns.balance.as_ref())
}

/// Cells a row needs to hold every indexed column.
fn needed(columns: &Columns) -> usize {
    refs(columns)
        .map(|c| match c {
            ColumnRef::Index(i) => i + 1,
            ColumnRef::Name(_) => 0,
        })
        .max()
        .unwrap_or(0)
}

/// Where the header cell named `name` is (trimmed, case folded).
fn position(cells: &[String], name: &str) -> Option<usize> {
    let wanted = header::fold(name.trim());
    cells.iter().position(|c| header::fold(c.trim()) == wanted)
}

/// `given` with every name turned into the index of its cell in `cells`; `None` if one is missing.
fn by_name(given: &Columns, cells: &[String]) -> Option<Columns> {
    let index = |c: &ColumnRef| match c {
        ColumnRef::Name(name) => position(cells, name).map(ColumnRef::Index),
        ColumnRef::Index(i) => (*i < cells.len()).then_some(ColumnRef::Index(*i)),
    };
    let optional = |c: &Option<ColumnRef>| match c {
        Some(c) => index(c).map(Some),
        None => Some(None),
    };
    Some(Columns {
        date: index(&given.date)?,
        amount: match &given.amount {
            AmountColumns::Signed(a) => AmountColumns::Signed(index(a)?),
            AmountColumns::DebitCredit { debit, credit } => AmountColumns::DebitCredit {
                debit: index(debit)?,
                credit: index(credit)?,
            },
            AmountColumns::Directed { amount, direction } => AmountColumns::Directed {
                amount: index(amount)?,
                direction: index(direction)?,
            },
        },
        payee: optional(&given.payee)?,
        memo: optional(&given.memo)?,
        balance: optional(&given.balance)?,
    })
}

/// The first column of `given` that `cells` does not have, as the error names it.
fn missing(given: &Columns, cells: &[String]) -> String {
    refs(given)
        .find_map(|c| match c {
            ColumnRef::Name(name) if position(cells, name).is_none() => {
                Some(Shown::new(name).to_string())
            }
            ColumnRef::Index(i) if *i >= cells.len() => Some(format!("index {i}")),
            _ => None,
        })
        .unwrap_or_else(|| "a column".into())
}

/// The header's cells as names for `columns` (an index where the header has no text).
fn named(columns: &Columns, names: &[String]) -> Columns {
    let name = |c: &ColumnRef| match c {
        ColumnRef::Index(i) => match names.get(*i).map(|n| n.trim()) {
            Some(n) if !n.is_empty() => ColumnRef::Name(n.to_string()),
            _ => c.clone(),
        },
        ColumnRef::Name(_) => c.clone(),
    };
    Columns {
        date: name(&columns.date),
        amount: match &columns.amount {
            AmountColumns::Signed(a) => AmountColumns::Signed(name(a)),
            AmountColumns::DebitCredit { debit, credit } => AmountColumns::DebitCredit {
                debit: name(debit),
                credit: name(credit),
            },
            AmountColumns::Directed { amount, direction } => AmountColumns::Directed {
                amount: name(amount),
                direction: name(direction),
            },
        },
        payee: columns.payee.as_ref().map(name),
        memo: columns.memo.as_ref().map(name),
        balance: columns.balance.as_ref().map(name),
    }
}

impl Table {
    /// The header's cells, or none.
    fn names(&self) -> Vec<String> {
        self.header
            .and_then(|h| self.records.get(h))
            .map_or(Vec::new(), |r| r.cells.clone())
    }

    fn index(c: &ColumnRef) -> usize {
        match c {
            ColumnRef::Index(i) => *i,
            ColumnRef::Name(_) => usize::MAX,
        }
    }

    /// The data rows as raw lines: blank rows and repeated headers skipped, the footer (rows after
    /// the last dated one) dropped, a row too short for the columns refused.
    fn raw_lines(&self, names: &[String]) -> Result<Vec<RawLine>, StatementError> {
        let needed = needed(&self.columns);
        let date = Table::index(&self.columns.date);
        let dated = |r: &Record| {
            r.cells.len() >= needed && r.cells.get(date).is_some_and(|c| !c.trim().is_empty())
        };
        let end = self.records.iter().rposition(dated).map_or(0, |i| i + 1);
        let expected = if names.is_empty() {
            needed
        } else {
            names.len()
        };
        let width = self
            .records
            .iter()
            .map(|r| r.cells.len())
            .max()
            .unwrap_or(0);
        let labels: Vec<Arc<str>> = (0..width.max(names.len()))
            .map(|i| Place::column_label(names, i))
            .collect();
        let mut out = Vec::new();
        for r in self.records.get(self.start..end).unwrap_or_default() {
            if r.cells.iter().all(|c| c.trim().is_empty()) || r.cells == names {
                continue;
            }
            if r.cells.len() < needed {
                return Err(StatementError::ShortRow {
                    line: r.line,
                    found: r.cells.len(),
                    expected,
                });
            }
            out.push(self.raw_line(r, &labels));
        }
        Ok(out)
    }

    /// A row as a raw line; `labels`: each column's field, as errors name it.
    fn raw_line(&self, r: &Record, labels: &[Arc<str>]) -> RawLine {
        let field = |c: &ColumnRef| {
            let i = Table::index(c);
            let at = match labels.get(i) {
                Some(label) => Place::at(r.line, label),
                None => Place::at(r.line, &Place::column_label(&[], i)),
            };
            let text = r.cells.get(i).map_or("", |c| c.trim()).to_string();
            Field { text, at }
        };
        let cell = |c: &Option<ColumnRef>| c.as_ref().map(|c| field(c).text);
        let amount = match &self.columns.amount {
            AmountColumns::Signed(a) => RawAmount::Signed(field(a)),
            AmountColumns::DebitCredit { debit, credit } => RawAmount::DebitCredit {
                debit: field(debit),
                credit: field(credit),
            },
            AmountColumns::Directed { amount, direction } => RawAmount::Directed {
                amount: field(amount),
                direction: field(direction),
            },
        };
        let payee = collapse(&cell(&self.columns.payee).unwrap_or_default());
        let memo = cell(&self.columns.memo).and_then(|m| non_empty(&m));
        let (payee, memo) = match (payee.is_empty(), memo) {
            (true, Some(memo)) => (memo, None),
            (_, memo) => (payee, memo),
        };
        RawLine {
            line: r.line,
            date: field(&self.columns.date),
            amount,
            payee,
            memo,
            bank_id: None,
            balance: self.columns.balance.as_ref().map(field),
        }
    }

    /// The account and currency the lines above the header name, the currency also from the
    /// amount column's header (`Betrag (EUR)`).
    fn preamble(&self, names: &[String]) -> (Option<AccountRef>, Option<String>) {
        let above = self.records.get(..self.header.unwrap_or(self.start));
        let above = above.unwrap_or_default();
        let account = above
            .iter()
            .find_map(|r| header::preamble_account(&r.cells))
            .and_then(|a| AccountRef::from_identifier(&a));
        let amount_column = match &self.columns.amount {
            AmountColumns::Signed(a) | AmountColumns::Directed { amount: a, .. } => a,
            AmountColumns::DebitCredit { debit, .. } => debit,
        };
        let currency = above
            .iter()
            .find_map(|r| header::preamble_currency(&r.cells))
            .or_else(|| {
                let name = names.get(Table::index(amount_column))?;
                header::header_currency(name)
            });
        (account, currency)
    }
}
