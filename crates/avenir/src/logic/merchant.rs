//! Merchant normalisation (`tools-read.md` §1.6): a bank label reduced to the shop it names, so
//! that `CB MARKET FRESH FACT 050926 525130******1` and its siblings read as `MARKET FRESH`.

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

static PATTERNS: LazyLock<Patterns> = LazyLock::new(|| {
    let compile = |pattern: &str| {
        Regex::new(pattern).unwrap_or_else(|e| panic!("constant pattern {pattern}: {e}"))
    };
    Patterns {
        iban: compile(r"\s*-?\s*IBAN\s*:.*$"),
        prefix: compile(r"^(?:CB|CARTE|PRLV(?: SEPA)?|VIR(?:EMENT)?(?: INST| SEPA)?)\s+"),
        invoice: compile(r"\s+FACT\s+\d{6}\b.*$"),
        card: compile(r"\b\d{4,}\*+\d*"),
        date: compile(r"\b\d{2}/\d{2}(?:/\d{2,4})?\b"),
        reference: compile(r"\b\d{5,}\b"),
    }
});

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The merchant a bank label names: upper-cased, with payment prefixes, invoice and account
/// suffixes, card numbers, dates and long references removed.
pub fn merchant(label: &str) -> String {
    let p = &*PATTERNS;
    let text = collapse(&label.to_uppercase());
    let text = p.iban.replace(&text, "");
    let text = p.prefix.replace(&text, "");
    let text = p.invoice.replace(&text, "");
    let text = p.card.replace_all(&text, "");
    let text = p.date.replace_all(&text, "");
    let text = p.reference.replace_all(&text, "");
    collapse(&text)
}

#[cfg(test)]
mod tests {
    use super::merchant;

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
