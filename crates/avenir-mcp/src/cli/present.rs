//! What a person reads where the generic rendering (`render`) is not it: spending trends as one
//! table of categories × months, instead of a block per category keyed by its id; an undo
//! without its empty lists; and a page of results that says how to see the next one. Pure
//! functions.

use super::render::{Layout, Money, milliunits_of};
use super::table::{Cell, grid};
use serde_json::{Map, Value};

/// The answer of `tool` as a person reads it, when it has a presentation of its own.
/// `schema`: the tool's output schema (the order of fields).
pub fn special(
    tool: &str,
    answer: &Value,
    money: Option<&Money>,
    schema: Option<&Value>,
    layout: Layout,
) -> Option<String> {
    match tool {
        "get_spending_trends" => spending_trends(answer, money, layout),
        "undo_operation" => Some(super::render::render(&undo(answer), money, schema, layout)),
        _ => None,
    }
}

/// `undo_operation`: its lists of transactions changed, conflicts and unfinished steps only when
/// they hold something (an amount restored is said in the message, not in `changes`, which
/// would read `(none)`), and no zero count beside them.
fn undo(answer: &Value) -> Value {
    let Some(map) = answer.as_object() else {
        return answer.clone();
    };
    let kept = map
        .iter()
        .filter(|(key, value)| {
            let empty = value.as_array().is_some_and(Vec::is_empty);
            let zero = key.ends_with("_count") && value.as_u64() == Some(0);
            !(empty || zero || value.is_null())
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Value::Object(kept)
}

/// One category's line of the trends: name, group, amount by month.
struct Trend<'a> {
    name: &'a str,
    group: &'a str,
    months: Vec<(&'a str, &'a Value)>,
    total: i64,
}

fn trend(category: &Value) -> Option<Trend<'_>> {
    let months: Vec<(&str, &Value)> = category
        .get("months")?
        .as_array()?
        .iter()
        .filter_map(|m| Some((m.get("month")?.as_str()?, m.get("amount")?)))
        .collect();
    let total = months
        .iter()
        .filter_map(|(_, v)| v.as_number().and_then(milliunits_of))
        .sum();
    Some(Trend {
        name: category.get("name")?.as_str()?,
        group: category.get("group").and_then(Value::as_str).unwrap_or(""),
        months,
        total,
    })
}

fn amount(value: &Value, money: Option<&Money>) -> String {
    match (money, value.as_number().and_then(milliunits_of)) {
        (Some(money), Some(milliunits)) => money.format(milliunits),
        _ => value.to_string(),
    }
}

/// `get_spending_trends`: a row per category (most spent first), a column per month
/// (`2026-07`), then the answer's other fields.
fn spending_trends(answer: &Value, money: Option<&Money>, layout: Layout) -> Option<String> {
    let categories: &Map<String, Value> = answer.get("categories")?.as_object()?;
    let mut trends: Vec<Trend> = categories.values().filter_map(trend).collect();
    if trends.len() != categories.len() {
        return None;
    }
    trends.sort_by(|a, b| b.total.cmp(&a.total).then(a.name.cmp(b.name)));
    let mut months: Vec<&str> = trends
        .iter()
        .flat_map(|t| t.months.iter().map(|(m, _)| *m))
        .collect();
    months.sort_unstable();
    months.dedup();
    let mut headers = vec!["category".to_string(), "group".to_string()];
    headers.extend(months.iter().map(|m| m.get(..7).unwrap_or(m).to_string()));
    let rows: Vec<Vec<Cell>> = trends
        .iter()
        .map(|t| {
            let mut row = vec![
                Cell::text(super::render::clean(t.name)),
                Cell::text(super::render::clean(t.group)),
            ];
            row.extend(months.iter().map(|month| {
                t.months
                    .iter()
                    .find(|(m, _)| m == month)
                    .map_or_else(|| Cell::text("—"), |(_, v)| Cell::number(amount(v, money)))
            }));
            row
        })
        .collect();
    let mut lines = vec!["Spending by category and month:".to_string(), String::new()];
    lines.extend(grid(&headers, &rows, layout.width));
    let rest: Map<String, Value> = answer
        .as_object()?
        .iter()
        .filter(|(k, _)| *k != "categories")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut text = lines.join("\n");
    text.push('\n');
    if !rest.is_empty() {
        text.push('\n');
        text.push_str(&super::render::render(
            &Value::Object(rest),
            money,
            None,
            layout,
        ));
    }
    Some(text)
}

/// A page of a longer answer (`truncated` with a `next_cursor`): how to see the next one.
pub fn more(answer: &Value) -> Option<String> {
    let cursor = answer.get("next_cursor").and_then(Value::as_str)?;
    let truncated = answer
        .get("truncated")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    truncated.then(|| {
        format!(
            "There is more: add cursor={} to the same command for the next page (limit=… sets how many a page shows).",
            super::render::clean(cursor)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn spending_trends_are_one_table_of_categories_by_month() {
        let answer = json!({
            "currency": "EUR",
            "categories": {
                "id-b": {"name": "Transport", "group": "Everyday", "months": [
                    {"month": "2026-07-01", "amount": 45.0}, {"month": "2026-08-01", "amount": 0.0}]},
                "id-a": {"name": "Groceries", "group": "Everyday", "months": [
                    {"month": "2026-07-01", "amount": 300.5}, {"month": "2026-08-01", "amount": 280.0}]}
            }
        });
        let layout = Layout {
            width: Some(80),
            ids: false,
        };
        let text = special("get_spending_trends", &answer, None, None, layout).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[2].split_whitespace().collect::<Vec<_>>(),
            ["category", "group", "2026-07", "2026-08"],
            "{text}"
        );
        assert!(
            lines[4].starts_with("Groceries"),
            "most spent first: {text}"
        );
        assert!(lines[5].starts_with("Transport"), "{text}");
        assert!(!text.contains("id-a"), "{text}");
        assert!(text.contains("currency  EUR"), "{text}");
    }

    #[test]
    fn an_undo_shows_no_empty_list() {
        let answer = json!({"status": "applied", "message": "Undone: Groceries back to 400.00.",
            "changes": [], "conflicts": [], "unchanged_count": 0, "operation_id": null});
        let layout = Layout {
            width: Some(80),
            ids: false,
        };
        let text = special("undo_operation", &answer, None, None, layout).unwrap_or_default();
        assert!(!text.contains("(none)"), "{text}");
        assert!(!text.contains("unchanged_count"), "{text}");
        assert!(text.contains("Undone: Groceries back to 400.00."), "{text}");
    }

    #[test]
    fn a_page_says_how_to_see_the_next() {
        assert_eq!(
            more(&json!({"truncated": true, "next_cursor": "b2Zm"})),
            Some("There is more: add cursor=b2Zm to the same command for the next page (limit=… sets how many a page shows).".into())
        );
        assert_eq!(
            more(&json!({"truncated": false, "next_cursor": null})),
            None
        );
    }
}
