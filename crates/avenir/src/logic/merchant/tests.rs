//! The merchant rules checked against the regular expressions they were first written as, on
//! generated labels and on edge cases, and the reference's own examples.

use super::*;
use proptest::prelude::*;
use regex::Regex;

/// The rules as the regular expressions they were first written as (Unicode `\b`, `\d`, `\s`):
/// the hand-written scan must agree with them.
fn by_regex(label: &str) -> String {
    let patterns = [
        (r"\s*-?\s*IBAN\s*:.*$", false),
        (
            r"^(?:CB|CARTE|PRLV(?: SEPA)?|VIR(?:EMENT)?(?: INST| SEPA)?)\s+",
            false,
        ),
        (r"\s+FACT\s+\d{6}\b.*$", false),
        (r"\b\d{4,}\*+\d*", true),
        (r"\b\d{2}/\d{2}(?:/\d{2,4})?\b", true),
        (r"\b\d{5,}\b", true),
    ];
    let mut text = collapse(&label.to_uppercase());
    for (pattern, all) in patterns {
        let regex = Regex::new(pattern).expect("a constant pattern");
        text = match all {
            true => regex.replace_all(&text, "").into_owned(),
            false => regex.replace(&text, "").into_owned(),
        };
    }
    collapse(&text)
}

proptest! {
    /// Labels shaped like bank labels, and runs of the characters the rules look at (digits of
    /// two scripts, letters with and without accents, stars, slashes, dashes, colons).
    #[test]
    fn the_scan_agrees_with_the_regular_expressions(
        label in "[A-Za-z0-9 /*:_.-]{0,40}|(CB|CARTE|VIR|VIREMENT|PRLV|VIR INST|PRLV SEPA|VIREMENT SEPA)[ A-Z]{0,12}( FACT)? [0-9]{4,8}[*]{0,6}[0-9]?( - IBAN ?: FR76)?|[0-9éßÉ٣٤ /*:IBANFACT-]{0,30}"
    ) {
        prop_assert_eq!(merchant(&label), by_regex(&label));
    }
}

#[test]
fn edge_cases_agree_with_the_regular_expressions() {
    for label in [
        "PRLV SEPAX SHOP",
        "CBX SHOP",
        "VIREMENT SEPA",
        "A -- IBAN: X",
        "A - - IBAN : X",
        "IBANK: 1 IBAN: 2",
        "SHOP FACT 1234567 X",
        "SHOP FACT 123456A X",
        "SHOP FACT 123456/X",
        "SHOP  FACT  123456",
        "12/34/5 X",
        "12/34/56789 X",
        "12/345 X",
        "A12/34 X",
        "12/34/56A",
        "1234** 5678**9",
        "X1234**",
        "12345_",
        "١٢٣٤٥ SHOP",
        "café 12345",
    ] {
        assert_eq!(merchant(label), by_regex(label), "{label:?}");
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
