//! Merchant normalisation (`docs/contract/reads.md` §1.6): a bank label reduced to the shop it
//! names, so that `CB MARKET FRESH FACT 050926 525130******1` and its siblings read as `MARKET
//! FRESH`.

use regex::Regex;
use std::sync::LazyLock;

struct Patterns {
    iban: Regex,
    prefix: Regex,
    invoice: Regex,
    card: Regex,
    date: Regex,
    reference: Regex,
}

impl Patterns {
    /// The rules; `b` is the word boundary they are written with.
    fn with_boundary(b: &str) -> Self {
        let compile = |pattern: &str| {
            let pattern = pattern.replace("\\b", b);
            Regex::new(&pattern).unwrap_or_else(|e| panic!("constant pattern {pattern}: {e}"))
        };
        Patterns {
            iban: compile(r"\s*-?\s*IBAN\s*:.*$"),
            prefix: compile(r"^(?:CB|CARTE|PRLV(?: SEPA)?|VIR(?:EMENT)?(?: INST| SEPA)?)\s+"),
            invoice: compile(r"\s+FACT\s+\d{6}\b.*$"),
            card: compile(r"\b\d{4,}\*+\d*"),
            date: compile(r"\b\d{2}/\d{2}(?:/\d{2,4})?\b"),
            reference: compile(r"\b\d{5,}\b"),
        }
    }
}

/// The rules with Unicode word boundaries, as the reference's (Python's) `\b` is.
static PATTERNS: LazyLock<Patterns> = LazyLock::new(|| Patterns::with_boundary(r"\b"));

/// The same rules with ASCII word boundaries, for an ASCII label: on ASCII text the two
/// boundaries are the same, and the ASCII one lets the regex engine use its fast automaton
/// (a Unicode boundary forces the slow one), which is most of a plan's load time.
static ASCII_PATTERNS: LazyLock<Patterns> = LazyLock::new(|| Patterns::with_boundary(r"(?-u:\b)"));

/// Whitespace runs collapsed to one space, trimmed.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The merchant a bank label names: upper-cased, whitespace collapsed, then the IBAN tail, the
/// card or transfer prefix, the invoice tail, card numbers, dates and long references removed.
pub fn merchant(label: &str) -> String {
    let text = collapse(&label.to_uppercase());
    if text.is_ascii() {
        reduce(&ASCII_PATTERNS, &text)
    } else {
        reduce(&PATTERNS, &text)
    }
}

fn reduce(p: &Patterns, text: &str) -> String {
    let text = p.iban.replace(text, "");
    let text = p.prefix.replace(&text, "");
    let text = p.invoice.replace(&text, "");
    let text = p.card.replace_all(&text, "");
    let text = p.date.replace_all(&text, "");
    let text = p.reference.replace_all(&text, "");
    collapse(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// On ASCII text the ASCII word boundary is the Unicode one: both sets of rules agree.
        #[test]
        fn ascii_rules_agree_with_the_unicode_ones(label in "[A-Z0-9 /*:_.-]{0,40}|(CB|VIR INST|PRLV SEPA) [A-Z ]{1,12} FACT [0-9]{6} [0-9]{4,8}[*]{0,6}[0-9]?") {
            let text = collapse(&label.to_uppercase());
            prop_assert_eq!(reduce(&ASCII_PATTERNS, &text), reduce(&PATTERNS, &text));
        }
    }

    #[test]
    fn reference_examples() {
        for (label, expected) in [
            ("CB ACME OUTDOOR FACT 110126 525130******2", "ACME OUTDOOR"),
            ("VIR INST GARAGE MARTIN", "GARAGE MARTIN"),
            ("PRLV SEPA MOBILE TELECOM", "MOBILE TELECOM"),
            ("CARTE 12/01 BAKERY ROSE", "BAKERY ROSE"),
            ("  corner   shop ", "CORNER SHOP"),
            ("ONLINE STORE 1234567890", "ONLINE STORE"),
            ("INSURER - PRELEV - IBAN: FR00 1234", "INSURER - PRELEV"),
            ("TAX OFFICE - REF 123 - IBAN: FR76", "TAX OFFICE - REF 123"),
            ("", ""),
            ("ACME PAYROLL - REF 12345678", "ACME PAYROLL - REF"),
            ("CB MARKET FRESH FACT 050926 525130******1", "MARKET FRESH"),
            ("straße", "STRASSE"),
        ] {
            assert_eq!(merchant(label), expected, "{label:?}");
        }
    }
}
