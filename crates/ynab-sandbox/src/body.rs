//! Reading request bodies as YNAB reads them: typed fields that tell "absent" from `null`, and a
//! 400 whose detail names the field and the rule it broke (`amount must be an integer …`).
//!
//! Bodies are parsed as JSON whatever their `Content-Type`. Unknown fields are ignored, as YNAB
//! ignores them. In a bulk request each message ends with ` (index: N)`, the item's position,
//! the way YNAB words bulk errors; a split line's fields are named `subtransactions[N].field`.

use crate::error::{ApiError, ApiResult};
use chrono::NaiveDate;
use serde_json::{Map, Value};

/// `memo` of a transaction, split line or scheduled transaction (`docs/contract/server.md` §10.11).
pub const MEMO_MAX: usize = 500;
/// `payee_name` on transactions, split lines and scheduled transactions.
pub const PAYEE_NAME_MAX: usize = 200;
/// A payee's `name` on create/update payee.
pub const PAYEE_MAX: usize = 500;
/// A category group's `name`.
pub const GROUP_NAME_MAX: usize = 50;
/// `import_id`.
pub const IMPORT_ID_MAX: usize = 36;
/// No documented limit (category names and notes, account names).
pub const NO_LIMIT: usize = usize::MAX;

/// A field of a PATCH/PUT body: absent (leave alone), `null` (clear), or a value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Patch<T> {
    #[default]
    Absent,
    Null,
    Set(T),
}

impl<T> Patch<T> {
    pub fn is_absent(&self) -> bool {
        matches!(self, Patch::Absent)
    }
    /// The value, when one was sent.
    pub fn set(self) -> Option<T> {
        match self {
            Patch::Set(value) => Some(value),
            _ => None,
        }
    }
    pub fn as_ref(&self) -> Patch<&T> {
        match self {
            Patch::Absent => Patch::Absent,
            Patch::Null => Patch::Null,
            Patch::Set(value) => Patch::Set(value),
        }
    }
    /// The new value of an optional field: absent keeps `current`, `null` clears it.
    pub fn apply(self, current: Option<T>) -> Option<T> {
        match self {
            Patch::Absent => current,
            Patch::Null => None,
            Patch::Set(value) => Some(value),
        }
    }
}

/// The body as JSON.
pub fn parse_json(bytes: &[u8]) -> ApiResult<Value> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::bad(
            "The request body is empty: a JSON object is required",
        ));
    }
    serde_json::from_slice(bytes)
        .map_err(|e| ApiError::bad(format!("The request body is not valid JSON: {e}")))
}

/// The fields of one JSON object of a request body.
#[derive(Debug, Clone)]
pub struct Fields<'a> {
    map: &'a Map<String, Value>,
    prefix: String,
    suffix: String,
}

impl<'a> Fields<'a> {
    /// The object under `key` of a body such as `{"transaction": {…}}`.
    pub fn wrapped(body: &'a Value, key: &str) -> ApiResult<Fields<'a>> {
        match body.get(key) {
            None | Some(Value::Null) => Err(ApiError::bad(format!("{key} is required"))),
            Some(value) => Fields::object(value, key, String::new(), String::new()),
        }
    }

    /// `value` as an object whose fields are named `prefix` + field, messages ending in `suffix`;
    /// `what` names it when it is not an object.
    pub fn object(value: &'a Value, what: &str, prefix: String, suffix: String) -> ApiResult<Self> {
        match value {
            Value::Object(map) => Ok(Fields {
                map,
                prefix,
                suffix,
            }),
            _ => Err(ApiError::bad(format!("{what} must be an object{suffix}"))),
        }
    }

    /// An item of a bulk request: messages end with ` (index: N)`.
    pub fn item(value: &'a Value, what: &str, index: usize) -> ApiResult<Self> {
        let suffix = format!(" (index: {index})");
        Fields::object(value, what, String::new(), suffix)
    }

    /// A nested object (a split line): its fields are named `prefix` + field, same suffix.
    pub fn nested(&self, value: &'a Value, prefix: String) -> ApiResult<Fields<'a>> {
        let what = prefix.trim_end_matches('.').to_owned();
        Fields::object(value, &what, prefix, self.suffix.clone())
    }

    /// What ends every message about this object (` (index: N)` in bulk requests).
    pub fn suffix(&self) -> &str {
        &self.suffix
    }

    /// A 400 saying `field` breaks `rule`.
    pub fn fail(&self, field: &str, rule: &str) -> ApiError {
        ApiError::bad(format!("{}{field} {rule}{}", self.prefix, self.suffix))
    }

    fn raw(&self, field: &str) -> Patch<&'a Value> {
        match self.map.get(field) {
            None => Patch::Absent,
            Some(Value::Null) => Patch::Null,
            Some(value) => Patch::Set(value),
        }
    }

    /// Whether the body carries `field` at all (even as `null`).
    pub fn has(&self, field: &str) -> bool {
        self.map.contains_key(field)
    }

    /// A string of at most `max` characters.
    pub fn string(&self, field: &str, max: usize) -> ApiResult<Patch<String>> {
        Ok(match self.raw(field) {
            Patch::Set(Value::String(text)) => {
                if text.chars().count() > max {
                    return Err(self.fail(field, &format!("must be at most {max} characters")));
                }
                Patch::Set(text.clone())
            }
            Patch::Set(_) => return Err(self.fail(field, "must be a string")),
            Patch::Null => Patch::Null,
            Patch::Absent => Patch::Absent,
        })
    }

    /// An integer amount of milliunits (a float such as `1.5` is refused).
    pub fn int(&self, field: &str) -> ApiResult<Patch<i64>> {
        Ok(match self.raw(field) {
            Patch::Set(Value::Number(n)) => match n.as_i64() {
                Some(value) => Patch::Set(value),
                None => return Err(self.fail(field, "must be an integer number of milliunits")),
            },
            Patch::Set(_) => {
                return Err(self.fail(field, "must be an integer number of milliunits"));
            }
            Patch::Null => Patch::Null,
            Patch::Absent => Patch::Absent,
        })
    }

    pub fn boolean(&self, field: &str) -> ApiResult<Patch<bool>> {
        Ok(match self.raw(field) {
            Patch::Set(Value::Bool(value)) => Patch::Set(*value),
            Patch::Set(_) => return Err(self.fail(field, "must be true or false")),
            Patch::Null => Patch::Null,
            Patch::Absent => Patch::Absent,
        })
    }

    /// A date written `YYYY-MM-DD`.
    pub fn date(&self, field: &str) -> ApiResult<Patch<NaiveDate>> {
        Ok(match self.raw(field) {
            Patch::Set(Value::String(text)) => match parse_date(text) {
                Some(date) => Patch::Set(date),
                None => return Err(self.fail(field, "must be a date formatted as YYYY-MM-DD")),
            },
            Patch::Set(_) => return Err(self.fail(field, "must be a date formatted as YYYY-MM-DD")),
            Patch::Null => Patch::Null,
            Patch::Absent => Patch::Absent,
        })
    }

    /// One of `allowed` (exact, case-sensitive).
    pub fn choice(&self, field: &str, allowed: &[&str]) -> ApiResult<Patch<String>> {
        let value = self.string(field, NO_LIMIT);
        match value {
            Ok(Patch::Set(text)) if !allowed.contains(&text.as_str()) => {
                Err(self.fail(field, &format!("must be one of: {}", quoted_list(allowed))))
            }
            Err(_) => Err(self.fail(field, &format!("must be one of: {}", quoted_list(allowed)))),
            other => other,
        }
    }

    pub fn array(&self, field: &str) -> ApiResult<Patch<&'a Vec<Value>>> {
        Ok(match self.raw(field) {
            Patch::Set(Value::Array(items)) => Patch::Set(items),
            Patch::Set(_) => return Err(self.fail(field, "must be an array")),
            Patch::Null => Patch::Null,
            Patch::Absent => Patch::Absent,
        })
    }

    /// The value of a field that must be present and not `null`.
    pub fn required<T>(&self, field: &str, value: Patch<T>) -> ApiResult<T> {
        value.set().ok_or_else(|| self.fail(field, "is required"))
    }

    /// A field that may be absent but not `null`.
    pub fn not_null<T>(&self, field: &str, value: Patch<T>) -> ApiResult<Option<T>> {
        match value {
            Patch::Null => Err(self.fail(field, "must not be null")),
            other => Ok(other.set()),
        }
    }
}

/// `YYYY-MM-DD`, strictly (ten characters).
pub fn parse_date(text: &str) -> Option<NaiveDate> {
    if text.len() != 10 {
        return None;
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
}

fn quoted_list(allowed: &[&str]) -> String {
    allowed
        .iter()
        .map(|a| format!("'{a}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn message(e: ApiError) -> String {
        match e {
            ApiError::BadRequest(detail) => detail,
            other => panic!("expected a 400, got {other:?}"),
        }
    }

    #[test]
    fn fields_tell_absent_from_null_and_name_the_field() {
        let body = json!({"transaction": {"amount": 1.5, "memo": null, "date": "2026-9-1"}});
        let f = Fields::wrapped(&body, "transaction").expect("object");
        assert_eq!(
            message(f.int("amount").unwrap_err()),
            "amount must be an integer number of milliunits"
        );
        assert_eq!(f.string("memo", MEMO_MAX), Ok(Patch::Null));
        assert_eq!(f.string("payee_name", 5), Ok(Patch::Absent));
        assert_eq!(
            message(f.date("date").unwrap_err()),
            "date must be a date formatted as YYYY-MM-DD"
        );
        assert_eq!(
            message(
                f.required("account_id", Patch::<String>::Absent)
                    .unwrap_err()
            ),
            "account_id is required"
        );
    }

    #[test]
    fn bulk_items_and_lines_carry_their_index() {
        let item = json!({"memo": "x".repeat(501), "subtransactions": [{"amount": "1"}]});
        let f = Fields::item(&item, "transactions[2]", 2).expect("object");
        assert_eq!(
            message(f.string("memo", MEMO_MAX).unwrap_err()),
            "memo must be at most 500 characters (index: 2)"
        );
        let line = &item["subtransactions"][0];
        let l = f.nested(line, "subtransactions[0].".into()).expect("line");
        assert_eq!(
            message(l.int("amount").unwrap_err()),
            "subtransactions[0].amount must be an integer number of milliunits (index: 2)"
        );
    }

    #[test]
    fn choices_and_bodies() {
        let body = json!({"t": {"cleared": "maybe"}});
        let f = Fields::wrapped(&body, "t").expect("object");
        assert_eq!(
            message(f.choice("cleared", &["cleared", "uncleared"]).unwrap_err()),
            "cleared must be one of: 'cleared', 'uncleared'"
        );
        assert_eq!(
            message(Fields::wrapped(&body, "x").unwrap_err()),
            "x is required"
        );
        assert!(parse_json(b"{").is_err());
        assert!(parse_json(b"  ").is_err());
        assert_eq!(Patch::Set(1).apply(Some(2)), Some(1));
        assert_eq!(Patch::<i32>::Null.apply(Some(2)), None);
        assert_eq!(Patch::<i32>::Absent.apply(Some(2)), Some(2));
    }
}
