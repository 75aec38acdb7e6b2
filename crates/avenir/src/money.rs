//! Amounts leave the server here: integer milliunits become currency units for structured answers.
//! The conversion goes through the exact decimal text, never through arithmetic on floats.

use ynab::models::Milliunits;

/// `milliunits / 1000` as a JSON number.
///
/// JSON numbers are doubles on the wire; this writes the exact decimal (`-22.5`, `3328.5`,
/// `1666.667`) and lets `serde_json` parse it, so the number printed is that decimal, digit for
/// digit (every amount below 2^53 milliunits round-trips).
pub fn units(milliunits: Milliunits) -> serde_json::Value {
    let sign = if milliunits < 0 { "-" } else { "" };
    let abs = milliunits.unsigned_abs();
    let text = format!("{sign}{}.{:03}", abs / 1000, abs % 1000);
    match serde_json::from_str::<serde_json::Number>(&text) {
        Ok(number) => serde_json::Value::Number(number),
        Err(_) => serde_json::Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::units;

    #[test]
    fn exact_units() {
        assert_eq!(units(3_328_500).to_string(), "3328.5");
        assert_eq!(units(-22_500).to_string(), "-22.5");
        assert_eq!(units(1_666_667).to_string(), "1666.667");
        assert_eq!(units(0).to_string(), "0.0");
        assert_eq!(units(-10).to_string(), "-0.01");
        assert_eq!(units(1_200_000).as_f64(), Some(1200.0));
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
