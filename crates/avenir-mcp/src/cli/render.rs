//! `avenir-mcp call`'s readable output: a generic rendering of any tool's structured answer.
//! Objects become `key  value` lines, arrays of objects tables with column headers; amounts are
//! right-aligned in the plan's currency format; text is made safe for a terminal. Pure functions.
//!
//! Rules:
//! - **Amounts.** Answers write amounts as exact decimals in currency units (`avenir::money`:
//!   always with a fraction, `150.0`), counts and days as integers. So a number written with a
//!   fraction is an amount, unless its key names a ratio ([`RATIO_KEYS`], `*_pct`, `*_rate`,
//!   `*_months`, `confidence`): those are printed as they came. Amounts are converted to
//!   milliunits from their decimal text (never through a float) and written with the plan's
//!   digits, separators and symbol; with no format known (no plan was read) they are printed as
//!   they came.
//! - **Text.** Terminal escape sequences (CSI, OSC and two-character ones) are removed, then the
//!   server's display rule (`avenir::text`) turns other controls into spaces. Nothing is cut:
//!   text wraps at spaces within the terminal's width ([`Layout`]), in `key  value` lines and in
//!   table cells (`table`); lists of sentences (notes, assumptions) are bullet lines.
//! - **Ids.** Ids come last; those a name stands for at the command line (categories, accounts,
//!   payees, scheduled payments: `names`) are left out unless `--ids` asks for them.
//! - **Order.** Fields come in the order the tool's output schema declares them (its `required`
//!   list, `$ref`s followed), so a write answer starts with its status; fields the schema does not
//!   name come last, in the answer's order.
//! - Widths count characters (code points): a wide character may shift a column.

use super::table::{Cell, grid, pad, wrap};
use avenir::money::MoneyFormat;
use serde_json::{Map, Number, Value};
use ynab::models::CurrencyFormat;

/// Most lines one value of a `key  value` block shows; more end with `…`.
pub const MAX_LINES: usize = 60;
/// The narrowest a value column of a `key  value` block gets, whatever the terminal.
const MIN_VALUE_WIDTH: usize = 20;
/// Keys of numbers written with a fraction that are not amounts.
pub const RATIO_KEYS: [&str; 3] = ["confidence", "rate", "share"];

/// How amounts are written: the plan's currency format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Money {
    digits: MoneyFormat,
    /// Digits after the decimal separator, and that separator, as the server writes amounts in
    /// its sentences (`avenir::money::MoneyFormat::plain`).
    decimals: usize,
    decimal: char,
    group: String,
    /// The symbol and whether it comes first; `None` when the plan hides it.
    symbol: Option<(String, bool)>,
}

impl Money {
    pub fn of(format: &CurrencyFormat) -> Money {
        let symbol = avenir::text::safe(&format.currency_symbol);
        Money {
            digits: MoneyFormat::of(Some(format)),
            decimals: usize::try_from(format.decimal_digits).unwrap_or(2),
            decimal: avenir::text::safe(&format.decimal_separator)
                .chars()
                .next()
                .unwrap_or('.'),
            group: avenir::text::safe(&format.group_separator),
            symbol: (format.display_symbol && !symbol.is_empty())
                .then_some((symbol, format.symbol_first)),
        }
    }

    /// `milliunits` in the plan's format: `-€1,234.50`, `1.234,50 €`, `0.00`.
    pub fn format(&self, milliunits: i64) -> String {
        let plain = self.digits.plain(milliunits);
        let (negative, magnitude) = match plain.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, plain.as_str()),
        };
        let split = magnitude
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(magnitude.len());
        let (whole, fraction) = magnitude.split_at(split);
        let mut grouped = String::new();
        for (i, digit) in whole.chars().enumerate() {
            if i > 0 && (whole.len() - i) % 3 == 0 {
                grouped.push_str(&self.group);
            }
            grouped.push(digit);
        }
        let number = format!("{grouped}{fraction}");
        let sign = if negative { "-" } else { "" };
        match &self.symbol {
            Some((symbol, true)) => format!("{sign}{symbol}{number}"),
            Some((symbol, false)) => format!("{sign}{number} {symbol}"),
            None => format!("{sign}{number}"),
        }
    }
}

/// The amounts of a sentence (`120.00 → 150.00`, `+7.50`: a number with the plan's decimal
/// digits) written in the plan's format (`120.00 € → 150.00 €`, `+7.50 €`); other numbers
/// (dates, counts, rates) as they came.
pub fn amounts_in(text: &str, money: &Money) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let starts = |k: usize| {
            k == 0 || !(chars[k - 1].is_alphanumeric() || ".-+_/:".contains(chars[k - 1]))
        };
        let signed =
            matches!(chars[i], '+' | '-') && chars.get(i + 1).is_some_and(char::is_ascii_digit);
        if (chars[i].is_ascii_digit() || signed) && starts(i) {
            let mut end = i + usize::from(signed);
            while end < chars.len() && chars[end].is_ascii_digit() {
                end += 1;
            }
            let mut fraction = 0;
            if chars.get(end) == Some(&money.decimal) {
                while chars
                    .get(end + 1 + fraction)
                    .is_some_and(char::is_ascii_digit)
                {
                    fraction += 1;
                }
            }
            let after = end + 1 + fraction;
            let ends = chars
                .get(after)
                .is_none_or(|c| !(c.is_alphanumeric() || *c == '-' || *c == '%'))
                && !(chars.get(after) == Some(&money.decimal)
                    && chars.get(after + 1).is_some_and(char::is_ascii_digit));
            if fraction == money.decimals && fraction > 0 && ends {
                let token: String = chars[i..after].iter().collect();
                let decimal = token.trim_start_matches('+').replace(money.decimal, ".");
                if let Ok(number) = decimal.parse::<Number>()
                    && let Some(milliunits) = milliunits_of(&number)
                {
                    if token.starts_with('+') {
                        out.push('+');
                    }
                    out.push_str(&money.format(milliunits));
                    i = after;
                    continue;
                }
            }
            out.extend(&chars[i..end.max(i + 1)]);
            i = end.max(i + 1);
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// How an answer is laid out: the width it fits in (`None`: no limit, in a pipe) and whether
/// ids a name stands for are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub width: Option<usize>,
    pub ids: bool,
}

impl Layout {
    /// The same, `by` characters narrower (a nested block's indent).
    fn indented(self, by: usize) -> Layout {
        Layout {
            width: self
                .width
                .map(|w| w.saturating_sub(by).max(MIN_VALUE_WIDTH)),
            ..self
        }
    }

    fn limit(self) -> usize {
        self.width.unwrap_or(usize::MAX)
    }
}

/// Whether `key` holds an id.
pub fn is_id(key: &str) -> bool {
    key == "id" || key.ends_with("_id") || key.ends_with("_ids")
}

/// Whether `key` is shown: ids a name stands for only with `--ids`.
fn shown(key: &str, layout: Layout) -> bool {
    let named = key == "id" || key == "scheduled_id" || super::names::Kind::of(key).is_some();
    layout.ids || !named
}

/// The exact milliunits of a decimal written in currency units (`-22.5` → -22 500); `None` for
/// anything that is not such a decimal (an exponent, more than three decimals, too large).
pub fn milliunits_of(number: &Number) -> Option<i64> {
    let text = number.to_string();
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.as_str()),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    if whole.is_empty()
        || fraction.len() > 3
        || !whole
            .chars()
            .chain(fraction.chars())
            .all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let padded = format!("{fraction:0<3}");
    let value = whole
        .parse::<i64>()
        .ok()?
        .checked_mul(1000)?
        .checked_add(padded.parse::<i64>().ok()?)?;
    Some(if negative { -value } else { value })
}

/// Whether the number under `key` is an amount (see the module's rules).
pub fn is_amount(key: &str, number: &Number) -> bool {
    let ratio = RATIO_KEYS.contains(&key)
        || key.ends_with("_pct")
        || key.ends_with("_rate")
        || key.ends_with("_months");
    number.is_f64() && !ratio
}

/// Text made safe for a terminal: escape sequences removed, other controls and separators turned
/// into spaces, white space collapsed (`avenir::text::uncut`). Not cut.
pub fn clean(text: &str) -> String {
    avenir::text::uncut(&strip_escapes(text))
}

/// Remove terminal escape sequences: `ESC [ … final`, `ESC ] … (BEL | ESC \)`, the C1 `CSI`
/// (U+009B) form, and any other `ESC X` pair.
pub fn strip_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let csi = match c {
            '\u{1b}' => match chars.next() {
                Some('[') => true,
                Some(']') => {
                    // OSC: up to BEL or ESC \.
                    while let Some(o) = chars.next() {
                        if o == '\u{7}' {
                            break;
                        }
                        if o == '\u{1b}' {
                            chars.next();
                            break;
                        }
                    }
                    continue;
                }
                _ => continue,
            },
            '\u{9b}' => true,
            _ => {
                out.push(c);
                continue;
            }
        };
        if csi {
            // Parameters and intermediates, then one final byte in @..~.
            for p in chars.by_ref() {
                if ('@'..='~').contains(&p) {
                    break;
                }
            }
        }
    }
    out
}

/// Where a value sits in the tool's output schema: ordering hints only (a value the schema does
/// not describe renders the same, in the answer's own order).
#[derive(Debug, Clone, Copy)]
pub struct Shape<'a> {
    root: Option<&'a Value>,
    node: Option<&'a Value>,
}

impl<'a> Shape<'a> {
    /// The top of an output schema (`None`: no hints).
    pub fn of(schema: Option<&'a Value>) -> Shape<'a> {
        Shape {
            root: schema,
            node: schema,
        }
        .resolved()
    }

    /// Follow `$ref`s (`#/$defs/…`) and take the first alternative of an `anyOf`/`oneOf` that
    /// describes an object or an array.
    fn resolved(self) -> Shape<'a> {
        let mut node = self.node;
        for _ in 0..8 {
            let Some(current) = node else { break };
            if let Some(reference) = current.get("$ref").and_then(Value::as_str) {
                node = reference
                    .strip_prefix('#')
                    .and_then(|pointer| self.root.and_then(|r| r.pointer(pointer)));
                continue;
            }
            let alternative = ["anyOf", "oneOf"].iter().find_map(|k| {
                current.get(*k).and_then(Value::as_array).and_then(|alts| {
                    alts.iter().find(|a| {
                        a.get("$ref").is_some()
                            || a.get("properties").is_some()
                            || a.get("items").is_some()
                    })
                })
            });
            match alternative {
                Some(next) => node = Some(next),
                None => break,
            }
        }
        Shape {
            root: self.root,
            node,
        }
    }

    fn field(self, key: &str) -> Shape<'a> {
        Shape {
            root: self.root,
            node: self
                .node
                .and_then(|n| n.get("properties"))
                .and_then(|p| p.get(key)),
        }
        .resolved()
    }

    fn items(self) -> Shape<'a> {
        Shape {
            root: self.root,
            node: self.node.and_then(|n| n.get("items")),
        }
        .resolved()
    }

    /// Where `key` comes: its place in `required`, else after them.
    fn rank(self, key: &str) -> usize {
        self.node
            .and_then(|n| n.get("required"))
            .and_then(Value::as_array)
            .and_then(|required| required.iter().position(|k| k == key))
            .unwrap_or(usize::MAX)
    }

    /// `keys` in the schema's order (stable: unnamed keys keep their order, after them), ids
    /// last.
    fn order<'k>(self, keys: impl Iterator<Item = &'k String>) -> Vec<&'k String> {
        let mut keys: Vec<&String> = keys.collect();
        keys.sort_by_key(|k| (is_id(k), self.rank(k)));
        keys
    }
}

/// A scalar as text: amounts formatted, `null` as `—`, booleans as `yes`/`no`, text cleaned.
fn scalar(key: &str, value: &Value, money: Option<&Money>) -> String {
    match value {
        Value::Null => "—".into(),
        Value::Bool(true) => "yes".into(),
        Value::Bool(false) => "no".into(),
        Value::Number(n) => match (money, is_amount(key, n), milliunits_of(n)) {
            (Some(money), true, Some(milliunits)) => money.format(milliunits),
            _ => n.to_string(),
        },
        Value::String(s) => clean(s),
        Value::Array(items) if items.is_empty() => "(none)".into(),
        Value::Array(items) if items.iter().all(is_scalar) => items
            .iter()
            .map(|v| scalar(key, v, money))
            .collect::<Vec<_>>()
            .join(", "),
        Value::Array(items) => format!("({} items)", items.len()),
        Value::Object(map) => named_object(map, money),
    }
}

/// An object in one line: its name first, what else it says in parentheses, ids left out
/// (`Groceries (confidence 0.9)`).
fn named_object(map: &Map<String, Value>, money: Option<&Money>) -> String {
    let is_name = |k: &str| k == "name" || k.ends_with("_name");
    let name = map
        .iter()
        .find(|(k, v)| is_name(k) && v.is_string())
        .map(|(k, v)| scalar(k, v, money));
    let rest: Vec<String> = map
        .iter()
        .filter(|(k, v)| !(is_id(k) || (is_name(k) && v.is_string())))
        .map(|(k, v)| format!("{k} {}", scalar(k, v, money)))
        .collect();
    match (name, rest.is_empty()) {
        (Some(name), true) => name,
        (Some(name), false) => format!("{name} ({})", rest.join(", ")),
        (None, _) => rest.join(", "),
    }
}

fn is_scalar(value: &Value) -> bool {
    !matches!(value, Value::Array(_) | Value::Object(_))
}

fn is_table(items: &[Value]) -> bool {
    !items.is_empty() && items.iter().all(Value::is_object)
}

/// A table of `rows` (objects): a header of their keys in the schema's order (`shape`, the
/// rows' own), ids last, numbers right-aligned, long text wrapped within the layout's width.
pub fn table(rows: &[Value], money: Option<&Money>, shape: Shape, layout: Layout) -> Vec<String> {
    let mut seen: Vec<&String> = Vec::new();
    for row in rows.iter().filter_map(Value::as_object) {
        for key in row.keys() {
            if !seen.contains(&key) && shown(key, layout) {
                seen.push(key);
            }
        }
    }
    let columns: Vec<String> = shape.order(seen.into_iter()).into_iter().cloned().collect();
    let cells: Vec<Vec<Cell>> = rows
        .iter()
        .map(|row| {
            columns
                .iter()
                .map(|key| {
                    let value = row.get(key).unwrap_or(&Value::Null);
                    Cell {
                        text: scalar(key, value, money),
                        number: value.is_number(),
                    }
                })
                .collect()
        })
        .collect();
    grid(&columns, &cells, layout.width)
}

/// An object as `key  value` lines (keys aligned), nested arrays of objects as indented tables
/// and nested objects as indented blocks, after the plain fields.
pub fn object(
    map: &Map<String, Value>,
    money: Option<&Money>,
    shape: Shape,
    layout: Layout,
) -> Vec<String> {
    let ordered: Vec<(&String, &Value)> = shape
        .order(map.keys().filter(|k| shown(k, layout)))
        .into_iter()
        .filter_map(|k| map.get(k).map(|v| (k, v)))
        .collect();
    let plain: Vec<(&String, &Value)> = ordered
        .iter()
        .copied()
        .filter(|(_, v)| !is_nested(v))
        .collect();
    let width = plain
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    // Numbers are right-aligned together.
    let numbers = plain
        .iter()
        .filter(|(_, v)| v.is_number())
        .map(|(k, v)| scalar(k, v, money).chars().count())
        .max()
        .unwrap_or(0);
    let room = layout
        .limit()
        .saturating_sub(width + 2)
        .max(MIN_VALUE_WIDTH);
    let mut out = Vec::new();
    for (key, value) in &plain {
        let mut text = match value {
            Value::String(s) => s
                .lines()
                .flat_map(|line| wrap(&clean(line), room))
                .collect::<Vec<_>>(),
            Value::Number(_) => vec![scalar(key, value, money)],
            other => wrap(&scalar(key, other, money), room),
        };
        if text.len() > MAX_LINES {
            text.truncate(MAX_LINES);
            text.push("…".into());
        }
        for (i, line) in text.iter().enumerate() {
            let line = pad(line, numbers, value.is_number());
            let head = if i == 0 {
                pad(key, width, false)
            } else {
                " ".repeat(width)
            };
            out.push(format!("{head}  {line}").trim_end().to_string());
        }
    }
    for (key, value) in ordered.into_iter().filter(|(_, v)| is_nested(v)) {
        out.push(String::new());
        out.push(format!("{key}:"));
        out.extend(
            render_lines(value, money, shape.field(key), layout.indented(2))
                .into_iter()
                .map(|l| if l.is_empty() { l } else { format!("  {l}") }),
        );
    }
    out
}

/// Arrays that are not lists of scalars, lists of sentences (notes, assumptions), and objects
/// get a block of their own.
fn is_nested(value: &Value) -> bool {
    match value {
        Value::Object(_) => true,
        Value::Array(items) => !items.iter().all(is_scalar) || is_sentences(items),
        _ => false,
    }
}

/// A list of sentences: text items, one of them with a space in it.
fn is_sentences(items: &[Value]) -> bool {
    items.iter().all(Value::is_string)
        && items
            .iter()
            .filter_map(Value::as_str)
            .any(|s| s.trim().contains(' '))
}

/// `- item` lines, each wrapped within `layout`, its next lines indented under its text.
fn bullets(items: &[Value], money: Option<&Money>, layout: Layout) -> Vec<String> {
    let room = layout.limit().saturating_sub(2).max(MIN_VALUE_WIDTH);
    items
        .iter()
        .flat_map(|item| {
            wrap(&scalar("", item, money), room)
                .into_iter()
                .enumerate()
                .map(|(i, line)| {
                    if i == 0 {
                        format!("- {line}")
                    } else {
                        format!("  {line}")
                    }
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

fn render_lines(value: &Value, money: Option<&Money>, shape: Shape, layout: Layout) -> Vec<String> {
    match value {
        Value::Object(map) => match (map.len(), map.get("result")) {
            // A list answer (`{"result": [...]}`): its table alone.
            (1, Some(inner @ Value::Array(_))) => {
                render_lines(inner, money, shape.field("result"), layout)
            }
            _ => object(map, money, shape, layout),
        },
        Value::Array(items) if items.is_empty() => vec!["(none)".into()],
        Value::Array(items) if is_table(items) => table(items, money, shape.items(), layout),
        Value::Array(items) if items.iter().all(is_scalar) => bullets(items, money, layout),
        Value::Array(items) => items
            .iter()
            .flat_map(|item| match item {
                Value::Array(_) | Value::Object(_) => {
                    let mut lines = render_lines(item, money, shape.items(), layout);
                    lines.push(String::new());
                    lines
                }
                other => vec![format!("- {}", scalar("", other, money))],
            })
            .collect(),
        other => vec![scalar("", other, money)],
    }
}

/// The whole answer, one string ending in a newline; `schema` is the tool's output schema.
pub fn render(
    value: &Value,
    money: Option<&Money>,
    schema: Option<&Value>,
    layout: Layout,
) -> String {
    let mut text = render_lines(value, money, Shape::of(schema), layout).join("\n");
    text.push('\n');
    text
}

/// The first `image` content item of a `CallToolResult` (as JSON), decoded from base64: what
/// `--chart FILE` writes.
pub fn first_image(result: &Value) -> Result<Vec<u8>, String> {
    use base64::Engine as _;
    let image = result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|item| item.get("type").and_then(Value::as_str) == Some("image"))
        .ok_or_else(|| {
            "the answer carries no image: nothing was written (the tool may draw no chart for these arguments)."
                .to_string()
        })?;
    let data = image
        .get("data")
        .and_then(Value::as_str)
        .ok_or_else(|| "the answer's image has no data: nothing was written.".to_string())?;
    base64::engine::general_purpose::STANDARD
        .decode(data.trim())
        .map_err(|e| format!("the answer's image is not base64 ({e}): nothing was written."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const PIPE: Layout = Layout {
        width: None,
        ids: true,
    };

    fn euro() -> CurrencyFormat {
        CurrencyFormat {
            iso_code: "EUR".into(),
            example_format: "123.456,78".into(),
            decimal_digits: 2,
            decimal_separator: ",".into(),
            symbol_first: false,
            group_separator: ".".into(),
            currency_symbol: "€".into(),
            display_symbol: true,
        }
    }

    fn usd() -> CurrencyFormat {
        CurrencyFormat {
            iso_code: "USD".into(),
            example_format: "123,456.78".into(),
            decimal_digits: 2,
            decimal_separator: ".".into(),
            symbol_first: true,
            group_separator: ",".into(),
            currency_symbol: "$".into(),
            display_symbol: true,
        }
    }

    fn number(text: &str) -> Number {
        serde_json::from_str(text).unwrap_or_else(|_| Number::from(0))
    }

    #[test]
    fn amounts_are_read_exactly_from_their_decimal_text() {
        assert_eq!(milliunits_of(&number("3328.5")), Some(3_328_500));
        assert_eq!(milliunits_of(&number("-22.5")), Some(-22_500));
        assert_eq!(milliunits_of(&number("1666.667")), Some(1_666_667));
        assert_eq!(milliunits_of(&number("0.0")), Some(0));
        assert_eq!(milliunits_of(&number("-0.01")), Some(-10));
        assert_eq!(milliunits_of(&number("150")), Some(150_000));
        assert_eq!(milliunits_of(&number("1e300")), None);
        assert_eq!(milliunits_of(&number("0.0001")), None);
    }

    #[test]
    fn amounts_take_the_plans_format() {
        let euro = Money::of(&euro());
        assert_eq!(euro.format(1_234_500), "1.234,50 €");
        assert_eq!(euro.format(-22_500), "-22,50 €");
        assert_eq!(euro.format(0), "0,00 €");
        assert_eq!(euro.format(-1), "0,00 €", "never -0");
        let dollar = Money::of(&usd());
        assert_eq!(dollar.format(-1_234_567_890), "-$1,234,567.89");
        assert_eq!(dollar.format(999_000), "$999.00");
        let mut hidden = usd();
        hidden.display_symbol = false;
        hidden.decimal_digits = 0;
        assert_eq!(Money::of(&hidden).format(1_234_500), "1,234");
    }

    #[test]
    fn the_amounts_of_a_sentence_take_the_plans_format() {
        let euro = Money::of(&euro());
        assert_eq!(
            amounts_in(
                "Budget Restaurants for 2026-09-01: 1052,02 → 150,00 (available -22,50 → +7,50)?",
                &euro
            ),
            "Budget Restaurants for 2026-09-01: 1.052,02 € → 150,00 € (available -22,50 € → +7,50 €)?"
        );
        assert_eq!(
            amounts_in("4,5 % over 53 months, 3 items, a, b, v1.86.0", &euro),
            "4,5 % over 53 months, 3 items, a, b, v1.86.0"
        );
        let dollar = Money::of(&usd());
        assert_eq!(
            amounts_in("Move 1052.02 from A to B: -22.50 → +7.50.", &dollar),
            "Move $1,052.02 from A to B: -$22.50 → +$7.50."
        );
    }

    #[test]
    fn fractions_are_amounts_unless_the_key_names_a_ratio() {
        assert!(is_amount("balance", &number("12.0")));
        assert!(
            !is_amount("balance", &number("12")),
            "an integer is a count"
        );
        for ratio in [
            "confidence",
            "rate",
            "utilization_pct",
            "interest_rate",
            "runway_months",
        ] {
            assert!(!is_amount(ratio, &number("0.9")), "{ratio}");
        }
    }

    #[test]
    fn escape_sequences_and_controls_never_reach_the_terminal() {
        assert_eq!(clean("\u{1b}[31mRED\u{1b}[0m shop"), "RED shop");
        assert_eq!(
            clean("a\u{1b}]0;evil title\u{7}b \u{1b}]8;;http://x\u{1b}\\link"),
            "ab link"
        );
        assert_eq!(clean("x\u{9b}2Jy"), "xy");
        assert_eq!(
            clean("two\nlines\rand\u{7}bell\u{202e}"),
            "two lines and bell"
        );
    }

    #[test]
    fn an_object_is_key_value_lines_with_amounts_right_aligned() {
        let answer = json!({
            "month": "2026-09-01", "income": 3328.5, "budgeted": 150.0,
            "age_of_money": 47, "overspent": []
        });
        let text = render(&answer, Some(&Money::of(&usd())), None, PIPE);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.contains(&"age_of_money         47"), "{text}");
        assert!(lines.contains(&"budgeted        $150.00"), "{text}");
        assert!(lines.contains(&"income        $3,328.50"), "{text}");
        assert!(lines.contains(&"month         2026-09-01"), "{text}");
        assert!(lines.contains(&"overspent     (none)"), "{text}");
    }

    #[test]
    fn an_array_of_objects_is_a_table() {
        let answer = json!({"result": [
            {"name": "Groceries", "balance": -22.5, "note": "\u{1b}[2Jwipe"},
            {"name": "Rent", "balance": 1200.0, "note": null}
        ]});
        let text = render(&answer, Some(&Money::of(&usd())), None, PIPE);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        let header: Vec<&str> = lines[0].split_whitespace().collect();
        // Without a schema: the answer's own order (serde_json's map: sorted).
        assert_eq!(header, ["balance", "name", "note"]);
        // Amounts right-aligned under their header.
        let end = lines[0].find("balance").map(|i| i + "balance".len());
        let groceries = lines[2].find("-$22.50").map(|i| i + "-$22.50".len());
        let rent = lines[3].find("$1,200.00").map(|i| i + "$1,200.00".len());
        assert_eq!(groceries, rent, "{text}");
        assert!(end <= groceries, "{text}");
        assert!(lines[2].ends_with("wipe"), "{text}");
        assert!(!text.contains('\u{1b}'));
        assert!(lines[3].ends_with('—'), "{text}");
    }

    #[test]
    fn long_cells_wrap_and_messages_keep_their_lines() {
        let long = "word ".repeat(20);
        let narrow = Layout {
            width: Some(30),
            ids: false,
        };
        let rows = table(&[json!({"payee": long})], None, Shape::of(None), narrow);
        assert!(rows.len() > 3, "{rows:#?}");
        assert!(rows.iter().all(|r| r.chars().count() <= 30), "{rows:#?}");
        assert!(!rows.concat().contains('…'));
        let text = render(
            &json!({"message": "Budget X?\n- a\n- b", "status": "declined"}),
            None,
            None,
            PIPE,
        );
        assert_eq!(
            text,
            "message  Budget X?\n         - a\n         - b\nstatus   declined\n"
        );
    }

    #[test]
    fn ids_come_last_and_those_a_name_stands_for_only_with_ids() {
        let rows = [json!({"category_id": "c-1", "name": "Rent", "transaction_id": "t-1"})];
        let people = Layout {
            width: Some(80),
            ids: false,
        };
        let header = |layout| table(&rows, None, Shape::of(None), layout)[0].clone();
        let shown = header(people);
        assert_eq!(
            shown.split_whitespace().collect::<Vec<_>>(),
            ["name", "transaction_id"]
        );
        assert_eq!(
            header(PIPE).split_whitespace().collect::<Vec<_>>(),
            ["name", "category_id", "transaction_id"]
        );
        let suggestion =
            json!({"category_id": "c-1", "category_name": "Groceries", "confidence": 0.9});
        assert_eq!(
            scalar("suggestion", &suggestion, None),
            "Groceries (confidence 0.9)"
        );
    }

    #[test]
    fn notes_are_bullet_lines() {
        let text = render(
            &json!({"days": 47, "notes": ["First thing said.", "Second thing said."]}),
            None,
            None,
            PIPE,
        );
        assert_eq!(
            text,
            "days  47\n\nnotes:\n  - First thing said.\n  - Second thing said.\n"
        );
    }

    #[test]
    fn fields_and_columns_follow_the_schemas_order() {
        let schema = json!({
            "$defs": {"Row": {"properties": {}, "required": ["name", "balance", "id"]}},
            "properties": {
                "rows": {"items": {"$ref": "#/$defs/Row"}, "type": "array"}
            },
            "required": ["status", "message", "rows"]
        });
        let answer = json!({
            "message": "m", "status": "applied", "extra": 1,
            "rows": [{"id": "x", "balance": 1.5, "name": "N"}]
        });
        let text = render(&answer, None, Some(&schema), PIPE);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("status"), "{text}");
        assert!(lines[1].starts_with("message"), "{text}");
        assert!(lines[2].starts_with("extra"), "not in the schema: last");
        let header: Vec<&str> = lines[5].split_whitespace().collect();
        assert_eq!(header, ["name", "balance", "id"], "{text}");
    }

    #[test]
    fn long_text_wraps_at_spaces_within_the_width() {
        let long = "word ".repeat(50);
        let layout = Layout {
            width: Some(40),
            ids: false,
        };
        let text = render(&json!({"message": long}), None, None, layout);
        assert!(text.lines().count() > 2, "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= 40), "{text}");
    }

    #[test]
    fn without_a_currency_format_amounts_are_printed_as_they_came() {
        assert_eq!(
            render(&json!({"balance": 12.5}), None, None, PIPE),
            "balance  12.5\n"
        );
    }

    #[test]
    fn the_first_image_item_is_decoded() {
        let result = json!({"content": [
            {"type": "text", "text": "{}"},
            {"type": "image", "data": "iVBORw0K", "mimeType": "image/png"},
            {"type": "image", "data": "AAAA", "mimeType": "image/png"}
        ]});
        assert_eq!(
            first_image(&result),
            Ok(vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a])
        );
        let none = first_image(&json!({"content": [{"type": "text", "text": "{}"}]}));
        assert!(none.is_err_and(|e| e.starts_with("the answer carries no image")));
        let bad = first_image(&json!({"content": [{"type": "image", "data": "!!"}]}));
        assert!(bad.is_err_and(|e| e.contains("not base64")));
    }
}
