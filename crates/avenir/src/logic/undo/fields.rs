//! The journal record of an edit of fields, shared by `update` (a transaction's fields) and
//! `schedule_update` (a schedule's): per field, by YNAB's key, the value before and after — or,
//! in an intent, only their salted digests for what is private (D31) — and, for a payee YNAB
//! creates by name, that name's digest, since its id is not known before the write.

use super::details::{Known, Refusal, damaged};
use super::{Applied, Now, now};
use crate::logic::field_key::FieldKey;
use serde::de::Deserializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use ynab::models::PlanDetail;

/// One field of a transaction or schedule as an edit changed it, read back from its record.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldEdit<F> {
    pub field: F,
    pub from: Known,
    pub to: Known,
    /// A payee YNAB created by name: its name's digest (an intent knows no id).
    pub to_name_digest: Option<String>,
}

/// Where a field an edit changed stands now.
#[derive(Debug, Clone, PartialEq)]
pub enum Standing {
    /// Still as the edit set it: this value (what it held before) goes back.
    Back(Value),
    /// Holding its before value (a partly applied edit, D14): left alone, untouched.
    Before,
    /// Changed since, or known by digest only: left alone, a conflict.
    Changed,
}

impl<F> FieldEdit<F> {
    /// Where the field stands now. `current` is its value now, `digest` the salted digest of a
    /// value of it, `payee_name` the salted digest of the name of the payee it names now (for a
    /// payee YNAB created by name, whose id the edit's intent did not know).
    pub fn standing(
        &self,
        current: &Value,
        digest: impl Fn(&Value) -> String,
        payee_name: impl FnOnce() -> Option<String>,
        applied: Applied,
    ) -> Standing {
        let holds = |known: &Known| match known {
            Known::Value(v) => current == v,
            Known::Digest(d) => &digest(current) == d,
        };
        let is_after = match (&self.to, &self.to_name_digest) {
            (Known::Value(Value::Null), Some(name)) => payee_name().as_ref() == Some(name),
            (to, _) => holds(to),
        };
        match (now(is_after, holds(&self.from), applied), &self.from) {
            (Now::After, Known::Value(from)) => Standing::Back(from.clone()),
            (Now::Before, _) => Standing::Before,
            _ => Standing::Changed,
        }
    }
}

/// The name of the payee `payee_id` names, while it is in the plan.
pub fn payee_name<'p>(plan: &'p PlanDetail, payee_id: Option<&str>) -> Option<&'p str> {
    let id = payee_id?;
    plan.payees
        .iter()
        .find(|p| p.id == id && !p.deleted)
        .map(|p| p.name.as_ref())
}

/// One field's entry in the record: `from` and `to` in clear, or `from_digest` and `to_digest`.
/// A value may be `null` (no memo, no payee yet): present and null is not missing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FieldRecord {
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    from: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    from_digest: Option<String>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    to: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    to_digest: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    to_name_digest: Option<String>,
}

/// A key that is there holds a value, `null` included.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

impl FieldRecord {
    /// Both values in clear.
    pub fn clear(from: &Value, to: &Value) -> Self {
        FieldRecord {
            from: Some(from.clone()),
            to: Some(to.clone()),
            from_digest: None,
            to_digest: None,
            to_name_digest: None,
        }
    }

    /// Both values as salted digests only (an intent's private fields).
    pub fn digests(from: String, to: String) -> Self {
        FieldRecord {
            from: None,
            to: None,
            from_digest: Some(from),
            to_digest: Some(to),
            to_name_digest: None,
        }
    }

    /// A payee YNAB creates by name: the id it gave (`null` while unknown) and the name's digest.
    pub fn new_payee(from: &Value, created: Option<String>, name_digest: String) -> Self {
        FieldRecord {
            from: Some(from.clone()),
            to: Some(created.map_or(Value::Null, Value::String)),
            from_digest: None,
            to_digest: None,
            to_name_digest: Some(name_digest),
        }
    }

    fn known(value: Option<Value>, digest: Option<String>, path: &str) -> Result<Known, Refusal> {
        match (digest, value) {
            (Some(digest), _) => Ok(Known::Digest(digest)),
            (None, Some(value)) => Ok(Known::Value(value)),
            (None, None) => Err(damaged(path, "a value")),
        }
    }

    fn edit<F>(self, field: F, path: &str) -> Result<FieldEdit<F>, Refusal> {
        Ok(FieldEdit {
            field,
            from: Self::known(self.from, self.from_digest, &format!("{path}.from"))?,
            to: Self::known(self.to, self.to_digest, &format!("{path}.to"))?,
            to_name_digest: self.to_name_digest,
        })
    }
}

/// A record's fields read back, in the order of `F` (the order questions list them). `path` is
/// where the fields sit in the record, for a refusal.
pub fn edits<F: FieldKey + Ord>(
    fields: BTreeMap<F, FieldRecord>,
    path: &str,
) -> Result<Vec<FieldEdit<F>>, Refusal> {
    fields
        .into_iter()
        .map(|(field, record)| record.edit(field, &format!("{path}.{}", field.key())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::undo::record::{from_details, to_details};
    use crate::logic::updates::Field;
    use serde_json::json;

    #[derive(Debug, Serialize, Deserialize)]
    struct Fields {
        fields: BTreeMap<Field, FieldRecord>,
    }

    #[test]
    fn a_null_value_is_kept_and_a_digest_wins() {
        let record = Fields {
            fields: BTreeMap::from([
                (
                    Field::Memo,
                    FieldRecord::clear(&Value::Null, &json!("Lunch")),
                ),
                (
                    Field::Amount,
                    FieldRecord::digests("d1".into(), "d2".into()),
                ),
            ]),
        };
        let written = to_details(&record);
        assert_eq!(
            written,
            json!({"fields": {"memo": {"from": null, "to": "Lunch"},
                              "amount": {"from_digest": "d1", "to_digest": "d2"}}})
        );
        let read: Fields = from_details(&written).expect("reads back");
        let edits = edits(read.fields, "fields").expect("complete");
        assert_eq!(edits[0].field, Field::Amount);
        assert_eq!(edits[0].from, Known::Digest("d1".into()));
        assert_eq!(edits[1].from, Known::Value(Value::Null));
        assert_eq!(edits[1].to, Known::Value(json!("Lunch")));
    }

    #[test]
    fn a_missing_value_or_an_unknown_field_is_refused_by_its_path() {
        let read: Fields = from_details(&json!({"fields": {"memo": {"to": "x"}}})).expect("shape");
        assert_eq!(
            edits(read.fields, "fields"),
            Err(damaged("fields.memo.from", "a value"))
        );
        let unknown = from_details::<Fields>(&json!({"fields": {"colour": {"from": 1, "to": 2}}}));
        assert_eq!(
            unknown.map(|_| ()),
            Err(Refusal::Damaged {
                field: "fields.colour".into(),
                problem: "is not a field update_transactions changes".into()
            })
        );
    }
}
