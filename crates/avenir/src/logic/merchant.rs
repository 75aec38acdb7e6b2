//! Merchant normalisation (`docs/contract/reads.md` §1.6): a bank label reduced to the shop it
//! names, so that `CB MARKET FRESH FACT 050926 525130******1` and its siblings read as `MARKET
//! FRESH`.
//!
//! The rules are six patterns (an IBAN tail, a card or transfer prefix, an invoice tail, card
//! numbers, dates, long references), scanned by hand rather than with a regular-expression
//! engine: they are simple enough to read as code, run on every transaction of a plan as it
//! loads, and an engine with Unicode tables was a twentieth of the server's code. A test checks
//! them against the regular expressions they were first written as.
//!
//! Characters, as the rules see them: a *word* character is a letter or digit of any script, or
//! `_` (what Python's `\w`, the reference's, matches); a *digit* is any character Unicode calls
//! numeric. A word boundary lies between a word character and anything else (or an end). After
//! the label is collapsed, the only space is `' '`.

/// Whitespace runs collapsed to one space, trimmed.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn is_digit(c: char) -> bool {
    c.is_numeric()
}

/// The merchant a bank label names: upper-cased, whitespace collapsed, then the IBAN tail, the
/// card or transfer prefix, the invoice tail, card numbers, dates and long references removed.
pub fn merchant(label: &str) -> String {
    let text = collapse(&label.to_uppercase());
    let text = without_prefix(without_iban(&text));
    let text = without_invoice(text);
    let text = remove_all(text, card_at);
    let text = remove_all(&text, date_at);
    let text = remove_all(&text, reference_at);
    collapse(&text)
}

/// Is there a word boundary before byte `at`?
fn boundary_before(text: &str, at: usize) -> bool {
    let before = text[..at].chars().next_back().is_some_and(is_word);
    let after = text[at..].chars().next().is_some_and(is_word);
    before != after
}

/// The length in bytes of the run at the start of `text` whose characters satisfy `keep`, and
/// how many characters it has.
fn run(text: &str, keep: impl Fn(char) -> bool) -> (usize, usize) {
    let mut bytes = 0;
    let mut count = 0;
    for c in text.chars().take_while(|&c| keep(c)) {
        bytes += c.len_utf8();
        count += 1;
    }
    (bytes, count)
}

/// `at` moved left over the spaces that end `text[..at]`.
fn back_over_spaces(text: &str, at: usize) -> usize {
    text[..at].trim_end_matches(' ').len()
}

/// The label cut before its IBAN tail: `IBAN`, then `:` after any spaces, and the rest of the
/// label; the cut takes the spaces and the one dash that lead to it (`… - IBAN: FR76 …`).
fn without_iban(text: &str) -> &str {
    for (at, _) in text.match_indices("IBAN") {
        if text[at + 4..].trim_start_matches(' ').starts_with(':') {
            let mut start = back_over_spaces(text, at);
            if text[..start].ends_with('-') {
                start = back_over_spaces(text, start - 1);
            }
            return &text[..start];
        }
    }
    text
}

/// The card or transfer words a label may open with, in the order they are tried (the longer
/// reading of `PRLV`, `VIR` and `VIREMENT` first).
const PREFIXES: [&str; 10] = [
    "CB",
    "CARTE",
    "PRLV SEPA",
    "PRLV",
    "VIREMENT INST",
    "VIREMENT SEPA",
    "VIREMENT",
    "VIR INST",
    "VIR SEPA",
    "VIR",
];

/// The label without its opening card or transfer words, when a space follows them.
fn without_prefix(text: &str) -> &str {
    for prefix in PREFIXES {
        if let Some(rest) = text.strip_prefix(prefix)
            && rest.starts_with(' ')
        {
            return rest.trim_start_matches(' ');
        }
    }
    text
}

/// The label cut before its invoice tail: spaces, `FACT`, spaces, six digits ending a word, and
/// the rest of the label.
fn without_invoice(text: &str) -> &str {
    for (at, _) in text.match_indices("FACT") {
        if !text[..at].ends_with(' ') {
            continue;
        }
        let after = &text[at + 4..];
        let spaces = after.len() - after.trim_start_matches(' ').len();
        if spaces == 0 {
            continue;
        }
        let digits = at + 4 + spaces;
        let (bytes, count) = run(&text[digits..], is_digit);
        if count == 6 && word_ends(text, digits + bytes) {
            return &text[..back_over_spaces(text, at)];
        }
    }
    text
}

/// `text` without every match of `found`, tried from each position left to right (a match is
/// skipped whole, as a regular expression's replace-all does).
fn remove_all(text: &str, found: fn(&str, usize) -> Option<usize>) -> String {
    let mut kept = String::with_capacity(text.len());
    let mut at = 0;
    while let Some(c) = text[at..].chars().next() {
        match found(text, at) {
            Some(end) if end > at => at = end,
            _ => {
                kept.push(c);
                at += c.len_utf8();
            }
        }
    }
    kept
}

/// A card number starting at `at`: four digits or more at a word start, stars, and any digits.
fn card_at(text: &str, at: usize) -> Option<usize> {
    if !boundary_before(text, at) {
        return None;
    }
    let (digits, count) = run(&text[at..], is_digit);
    if count < 4 {
        return None;
    }
    let (stars, _) = run(&text[at + digits..], |c| c == '*');
    if stars == 0 {
        return None;
    }
    let end = at + digits + stars;
    Some(end + run(&text[end..], is_digit).0)
}

/// Exactly two digits at `at`: where they end.
fn pair(text: &str, at: usize) -> Option<usize> {
    let (bytes, count) = run(&text[at..], is_digit);
    (count == 2).then_some(at + bytes)
}

/// Is `at` the end of a word (nothing, or no word character, follows)?
fn word_ends(text: &str, at: usize) -> bool {
    !text[at..].chars().next().is_some_and(is_word)
}

/// A date starting at `at`: `dd/dd` or `dd/dd/yy` to `dd/dd/yyyy`, a whole word.
fn date_at(text: &str, at: usize) -> Option<usize> {
    if !boundary_before(text, at) {
        return None;
    }
    let day = pair(text, at)?;
    if !text[day..].starts_with('/') {
        return None;
    }
    let month = pair(text, day + 1)?;
    if text[month..].starts_with('/') {
        let (bytes, count) = run(&text[month + 1..], is_digit);
        let year = month + 1 + bytes;
        if (2..=4).contains(&count) && word_ends(text, year) {
            return Some(year);
        }
    }
    word_ends(text, month).then_some(month)
}

/// A reference starting at `at`: five digits or more, a whole word.
fn reference_at(text: &str, at: usize) -> Option<usize> {
    if !boundary_before(text, at) {
        return None;
    }
    let (bytes, count) = run(&text[at..], is_digit);
    (count >= 5 && word_ends(text, at + bytes)).then_some(at + bytes)
}

#[cfg(test)]
mod tests;
