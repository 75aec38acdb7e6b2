//! Amounts leave the server here: integer milliunits become currency units for structured answers,
//! and text in the plan's own format for sentences (D16). Both go through exact integers, never floats.

use ynab::models::{CurrencyFormat, Milliunits};

/// `milliunits / 1000` as a JSON number.
///
/// JSON numbers are doubles on the wire; this writes the exact decimal (`-22.5`, `3328.5`,
/// `1666.667`) and lets `serde_json` parse it, so the number printed is that decimal, digit for
/// digit (every amount below 2^53 milliunits round-trips).
pub fn units(milliunits: Milliunits) -> serde_json::Value {
    decimal(milliunits, 3)
}

/// `value / 10^scale` as a JSON number written from its exact decimal text (`decimal(1131, 1)` is
/// `113.1`), for figures kept as integers such as tenths of a percent.
pub fn decimal(value: i64, scale: u32) -> serde_json::Value {
    let sign = if value < 0 { "-" } else { "" };
    let abs = u128::from(value.unsigned_abs());
    let text = match 10u128.checked_pow(scale) {
        Some(unit) if scale > 0 => format!(
            "{sign}{}.{:0width$}",
            abs / unit,
            abs % unit,
            width = scale as usize
        ),
        _ => format!("{sign}{abs}"),
    };
    match serde_json::from_str::<serde_json::Number>(&text) {
        Ok(number) => serde_json::Value::Number(number),
        Err(_) => serde_json::Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::{decimal, units};

    #[test]
    fn exact_units() {
        assert_eq!(units(3_328_500).to_string(), "3328.5");
        assert_eq!(units(-22_500).to_string(), "-22.5");
        assert_eq!(units(1_666_667).to_string(), "1666.667");
        assert_eq!(units(0).to_string(), "0.0");
        assert_eq!(units(-10).to_string(), "-0.01");
        assert_eq!(units(1_200_000).as_f64(), Some(1200.0));
        assert_eq!(decimal(1131, 1).to_string(), "113.1");
        assert_eq!(decimal(-250, 1).to_string(), "-25.0");
        assert_eq!(decimal(0, 1).to_string(), "0.0");
        assert_eq!(decimal(42, 0).to_string(), "42");
    }
}

/// An amount in an answer: held in milliunits, written in currency units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Amount(pub Milliunits);

impl serde::Serialize for Amount {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        units(self.0).serialize(serializer)
    }
}

impl schemars::JsonSchema for Amount {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Amount".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "number",
            "description": "In currency units (not milliunits); negative for money out."
        })
    }
}

/// How amounts are written in sentences (D16): the plan's decimal digits and decimal separator, no
/// thousands separator, no currency symbol, a leading `-` for negatives, never `-0.00`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoneyFormat {
    digits: u32,
    separator: String,
}

impl Default for MoneyFormat {
    /// Two digits and `.`, for a plan that states no format.
    fn default() -> Self {
        MoneyFormat {
            digits: 2,
            separator: ".".into(),
        }
    }
}

impl MoneyFormat {
    /// Most decimal digits written (YNAB's currencies use 0 to 3).
    pub const MAX_DIGITS: u32 = 9;

    /// `digits` decimals (at most [`Self::MAX_DIGITS`]) after `separator` (`.` when it has nothing
    /// visible once the display rule has cleaned it).
    pub fn new(digits: u32, separator: &str) -> Self {
        let separator = crate::text::safe(separator);
        MoneyFormat {
            digits: digits.min(Self::MAX_DIGITS),
            separator: if separator.is_empty() {
                ".".into()
            } else {
                separator
            },
        }
    }

    /// The format of a plan's `currency_format` (the default when YNAB sent none).
    pub fn of(format: Option<&CurrencyFormat>) -> Self {
        format.map_or_else(MoneyFormat::default, |f| {
            MoneyFormat::new(f.decimal_digits, &f.decimal_separator)
        })
    }

    /// `fmt(x)`: `-22.50`, `3328.50`, `0.00` (half-to-even on the exact value; never `-0.00`).
    pub fn plain(&self, milliunits: Milliunits) -> String {
        let (negative, text) = self.magnitude(milliunits);
        if negative { format!("-{text}") } else { text }
    }

    /// `signed(x)`: `+7.50`, `-22.50`, and `0.00` when the amount rounds to zero.
    pub fn signed(&self, milliunits: Milliunits) -> String {
        let (negative, text) = self.magnitude(milliunits);
        if negative {
            format!("-{text}")
        } else if milliunits > 0 && !self.rounds_to_zero(milliunits) {
            format!("+{text}")
        } else {
            text
        }
    }

    fn rounds_to_zero(&self, milliunits: Milliunits) -> bool {
        self.scaled(milliunits.unsigned_abs()) == 0
    }

    /// The magnitude rounded to the plan's digits, in units of its smallest written digit.
    fn scaled(&self, abs: u64) -> u128 {
        let abs = u128::from(abs);
        if self.digits >= 3 {
            abs * 10u128.pow(self.digits - 3)
        } else {
            let step = 10u128.pow(3 - self.digits);
            let (quotient, remainder) = (abs / step, abs % step);
            let twice = remainder * 2;
            if twice > step || (twice == step && quotient % 2 == 1) {
                quotient + 1
            } else {
                quotient
            }
        }
    }

    /// Whether a `-` is written, and the unsigned text.
    fn magnitude(&self, milliunits: Milliunits) -> (bool, String) {
        let scaled = self.scaled(milliunits.unsigned_abs());
        let text = if self.digits == 0 {
            scaled.to_string()
        } else {
            let unit = 10u128.pow(self.digits);
            format!(
                "{}{}{:0width$}",
                scaled / unit,
                self.separator,
                scaled % unit,
                width = self.digits as usize
            )
        };
        (milliunits < 0 && scaled != 0, text)
    }
}

#[cfg(test)]
mod sentence_tests {
    use super::MoneyFormat;
    use proptest::prelude::*;
    use ynab::models::CurrencyFormat;

    fn euro() -> CurrencyFormat {
        CurrencyFormat {
            iso_code: "EUR".into(),
            example_format: "123,456.78".into(),
            decimal_digits: 2,
            decimal_separator: ".".into(),
            symbol_first: false,
            group_separator: ",".into(),
            currency_symbol: "€".into(),
            display_symbol: true,
        }
    }

    #[test]
    fn the_demo_format() {
        let f = MoneyFormat::of(Some(&euro()));
        assert_eq!(f, MoneyFormat::default());
        assert_eq!(f.plain(120_000), "120.00");
        assert_eq!(f.plain(-22_500), "-22.50");
        assert_eq!(f.plain(3_328_500), "3328.50");
        assert_eq!(f.plain(1_234_567_890), "1234567.89");
        assert_eq!(f.plain(-86_400), "-86.40");
        assert_eq!(f.plain(0), "0.00");
        assert_eq!(f.signed(7_500), "+7.50");
        assert_eq!(f.signed(-22_500), "-22.50");
        assert_eq!(f.signed(0), "0.00");
        assert_eq!(f.signed(30_000), "+30.00");
    }

    #[test]
    fn never_minus_zero() {
        let f = MoneyFormat::default();
        assert_eq!(f.plain(-4), "0.00");
        assert_eq!(f.plain(-5), "0.00", "a tie goes to the even 0");
        assert_eq!(f.signed(-5), "0.00");
        assert_eq!(f.signed(5), "0.00");
        assert_eq!(f.plain(-6), "-0.01");
        assert_eq!(f.signed(6), "+0.01");
    }

    #[test]
    fn half_to_even_on_the_exact_value() {
        let f = MoneyFormat::default();
        assert_eq!(f.plain(1_005), "1.00");
        assert_eq!(f.plain(1_015), "1.02");
        assert_eq!(f.plain(1_025), "1.02");
        assert_eq!(f.plain(-1_035), "-1.04");
        assert_eq!(f.plain(1_666_667), "1666.67");
        let whole = MoneyFormat::new(0, ".");
        assert_eq!(whole.plain(2_500), "2");
        assert_eq!(whole.plain(3_500), "4");
        assert_eq!(whole.plain(-500), "0");
        assert_eq!(whole.signed(1_500), "+2");
    }

    #[test]
    fn other_digits_and_separators() {
        let comma = MoneyFormat::new(2, ",");
        assert_eq!(comma.plain(-22_500), "-22,50");
        let three = MoneyFormat::new(3, ".");
        assert_eq!(three.plain(1_234), "1.234");
        assert_eq!(three.plain(-1), "-0.001");
        let one = MoneyFormat::new(1, ".");
        assert_eq!(one.plain(1_250), "1.2");
        assert_eq!(one.plain(1_350), "1.4");
        let four = MoneyFormat::new(4, ".");
        assert_eq!(four.plain(1_234), "1.2340");
        let forged = MoneyFormat::new(2, "\n\u{200b}");
        assert_eq!(forged.plain(1_000), "1.00");
        assert_eq!(MoneyFormat::new(99, ".").plain(1), "0.001000000");
    }

    proptest! {
        #[test]
        fn sentences_read_back_within_half_a_digit(m in -1_000_000_000_000i64..1_000_000_000_000, digits in 0u32..=3) {
            let f = MoneyFormat::new(digits, ".");
            let text = f.plain(m);
            // the text, read as an exact decimal, is within half a written digit of the amount
            let written: rust_decimal::Decimal = text.parse().map_err(|_| TestCaseError::fail(text.clone()))?;
            let exact = rust_decimal::Decimal::new(m, 3);
            let half = rust_decimal::Decimal::new(5, digits + 1);
            prop_assert!((written - exact).abs() <= half, "{} vs {}", text, exact);
            // a `-` exactly when what is written is below zero: never `-0.00`
            prop_assert_eq!(text.starts_with('-'), written < rust_decimal::Decimal::ZERO);
            let signed = f.signed(m);
            prop_assert_eq!(signed.trim_start_matches('+'), text.as_str());
            prop_assert_eq!(signed.starts_with('+'), written > rust_decimal::Decimal::ZERO);
        }
    }
}
