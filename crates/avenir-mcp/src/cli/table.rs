//! Tables sized to the terminal: columns as wide as their longest cell, and when the whole is
//! wider than the terminal, text columns narrowed down to their longest word, their cells
//! wrapped onto more lines (a name or an amount is never cut); a table still too wide is shown
//! in several blocks of columns, each repeating the first. Numbers are right-aligned. Widths
//! count characters (code points). Pure functions.

/// One cell: its text (one line) and whether it is a number (right-aligned, never wrapped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    pub text: String,
    pub number: bool,
}

impl Cell {
    pub fn text(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            number: false,
        }
    }

    pub fn number(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            number: true,
        }
    }
}

/// Gap between two columns.
const GAP: usize = 2;

fn chars(text: &str) -> usize {
    text.chars().count()
}

/// `text` wrapped at spaces to lines of at most `width` characters; a word longer than `width`
/// is split (never cut).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let mut word: Vec<char> = word.chars().collect();
        while word.len() > width {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            lines.push(word.drain(..width).collect());
        }
        let word: String = word.into_iter().collect();
        let needed = chars(&line) + usize::from(!line.is_empty()) + chars(&word);
        if !line.is_empty() && needed > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

pub fn pad(text: &str, width: usize, right: bool) -> String {
    let fill = " ".repeat(width.saturating_sub(chars(text)));
    if right {
        format!("{fill}{text}")
    } else {
        format!("{text}{fill}")
    }
}

fn total(widths: &[usize]) -> usize {
    widths.iter().sum::<usize>() + GAP * widths.len().saturating_sub(1)
}

/// Each column's width: its longest cell, then text columns narrowed (the widest first, down
/// to their longest word) until the table fits `limit`.
fn widths(headers: &[String], rows: &[Vec<Cell>], numeric: &[bool], limit: usize) -> Vec<usize> {
    let longest = |i: usize, measure: &dyn Fn(&str) -> usize| {
        rows.iter()
            .map(|row| row.get(i).map_or(0, |c| measure(&c.text)))
            .chain([chars(&headers[i])])
            .max()
            .unwrap_or(0)
    };
    let mut widths: Vec<usize> = (0..headers.len()).map(|i| longest(i, &chars)).collect();
    let word = |text: &str| text.split(' ').map(chars).max().unwrap_or(0);
    let least: Vec<usize> = (0..headers.len())
        .map(|i| {
            if numeric[i] {
                widths[i]
            } else {
                longest(i, &word)
            }
        })
        .collect();
    while total(&widths) > limit {
        let widest = (0..widths.len())
            .filter(|&i| widths[i] > least[i])
            .max_by_key(|&i| widths[i]);
        match widest {
            Some(i) => widths[i] -= 1,
            None => break,
        }
    }
    widths
}

/// The columns of each block: all in one when they fit, else the first column and as many more
/// as fit, block after block.
fn blocks(widths: &[usize], limit: usize) -> Vec<Vec<usize>> {
    if widths.len() < 2 {
        return vec![(0..widths.len()).collect()];
    }
    let mut out = Vec::new();
    let mut block = vec![0];
    for i in 1..widths.len() {
        let used: Vec<usize> = block.iter().map(|&c| widths[c]).collect();
        if block.len() > 1 && total(&used) + GAP + widths[i] > limit {
            out.push(std::mem::replace(&mut block, vec![0]));
        }
        block.push(i);
    }
    out.push(block);
    out
}

/// The table's lines: a header, a rule, then each row (as many lines as its tallest cell),
/// within `limit` characters when the cells' words allow it (`None`: no limit). A table whose
/// columns do not fit even narrowed is cut into blocks of columns at their full widths first,
/// each block then narrowed on its own.
pub fn grid(headers: &[String], rows: &[Vec<Cell>], limit: Option<usize>) -> Vec<String> {
    let limit = limit.unwrap_or(usize::MAX);
    let numeric: Vec<bool> = (0..headers.len())
        .map(|i| rows.iter().any(|r| r.get(i).is_some_and(|c| c.number)))
        .collect();
    let narrowed = widths(headers, rows, &numeric, limit);
    let parts = if total(&narrowed) <= limit {
        vec![(0..headers.len()).collect()]
    } else {
        blocks(&widths(headers, rows, &numeric, usize::MAX), limit)
    };
    let mut out = Vec::new();
    for (n, block) in parts.into_iter().enumerate() {
        if n > 0 {
            out.push(String::new());
        }
        let pick = |cells: &[Cell]| -> Vec<Cell> {
            block
                .iter()
                .map(|&i| cells.get(i).cloned().unwrap_or_else(|| Cell::text("")))
                .collect()
        };
        let names: Vec<String> = block.iter().map(|&i| headers[i].clone()).collect();
        let cells: Vec<Vec<Cell>> = rows.iter().map(|r| pick(r)).collect();
        let numbers: Vec<bool> = block.iter().map(|&i| numeric[i]).collect();
        let sized = widths(&names, &cells, &numbers, limit);
        out.extend(block_lines(&names, &cells, &numbers, &sized));
    }
    out
}

/// One block's lines, its columns `widths` wide.
fn block_lines(
    headers: &[String],
    rows: &[Vec<Cell>],
    numeric: &[bool],
    widths: &[usize],
) -> Vec<String> {
    let line = |cells: Vec<String>| {
        cells
            .iter()
            .enumerate()
            .map(|(i, text)| pad(text, widths[i], numeric[i]))
            .collect::<Vec<_>>()
            .join(&" ".repeat(GAP))
            .trim_end()
            .to_string()
    };
    let mut out = vec![line(headers.to_vec())];
    out.push(
        widths
            .iter()
            .map(|w| "-".repeat(*w))
            .collect::<Vec<_>>()
            .join(&" ".repeat(GAP)),
    );
    for row in rows {
        let wrapped: Vec<Vec<String>> = row
            .iter()
            .enumerate()
            .map(|(i, cell)| {
                if numeric[i] {
                    vec![cell.text.clone()]
                } else {
                    wrap(&cell.text, widths[i])
                }
            })
            .collect();
        let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
        for k in 0..height {
            out.push(line(
                wrapped
                    .iter()
                    .map(|cell| cell.get(k).cloned().unwrap_or_default())
                    .collect(),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn words_wrap_and_a_word_too_long_is_split_not_cut() {
        assert_eq!(wrap("aa bb cc", 5), vec!["aa bb", "cc"]);
        assert_eq!(wrap("", 5), vec![""]);
        assert_eq!(wrap("abcdefgh ij", 5), vec!["abcde", "fgh", "ij"]);
    }

    #[test]
    fn a_table_that_fits_is_one_line_a_row() {
        let rows = vec![
            vec![Cell::text("Groceries"), Cell::number("-22.50 €")],
            vec![Cell::text("Rent"), Cell::number("1,200.00 €")],
        ];
        let lines = grid(&headers(&["name", "balance"]), &rows, Some(80));
        assert_eq!(
            lines,
            vec![
                "name          balance",
                "---------  ----------",
                "Groceries    -22.50 €",
                "Rent       1,200.00 €",
            ]
        );
    }

    #[test]
    fn a_wide_text_column_wraps_within_the_limit() {
        let payee = "CB MARKET FRESH FACT 190926 525130******1";
        let rows = vec![vec![Cell::text(payee), Cell::number("-71.86 €")]];
        let lines = grid(&headers(&["payee", "amount"]), &rows, Some(30));
        assert!(lines.iter().all(|l| chars(l) <= 30), "{lines:#?}");
        let joined: Vec<&str> = lines[2..]
            .iter()
            .flat_map(|l| l.split_whitespace())
            .collect();
        for word in payee.split(' ') {
            assert!(joined.contains(&word), "{word} kept whole: {lines:#?}");
        }
        assert!(lines[2].ends_with("-71.86 €"), "{lines:#?}");
    }

    #[test]
    fn too_many_number_columns_make_blocks_that_repeat_the_first() {
        let months: Vec<String> = (1..=12).map(|m| format!("2026-{m:02}")).collect();
        let mut names = vec!["category".to_string()];
        names.extend(months.iter().cloned());
        let mut row = vec![Cell::text("Groceries")];
        row.extend((1..=12).map(|_| Cell::number("1,052.02 €")));
        let lines = grid(&names, &[row], Some(80));
        assert!(lines.iter().all(|l| chars(l) <= 80), "{lines:#?}");
        assert!(
            lines.iter().filter(|l| l.starts_with("Groceries")).count() >= 2,
            "{lines:#?}"
        );
        for month in &months {
            assert!(lines.iter().any(|l| l.contains(month.as_str())), "{month}");
        }
    }
}
