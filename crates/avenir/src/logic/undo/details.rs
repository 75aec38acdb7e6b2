//! The details of a journaled operation, parsed into one typed value per kind
//! (`docs/contract/writes.md` §5.3, §10.2). A detail that is missing or of the wrong type is a
//! [`Refusal`], never a default.

use super::per_kind::Entry;
use super::{Details, Kind};
use crate::months::CalendarMonth;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ynab::models::Milliunits;

/// `budget`: one category's assigned amount in one month.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budgeted {
    pub month: CalendarMonth,
    pub category_id: String,
    pub from: Milliunits,
    pub to: Milliunits,
}

impl Budgeted {
    /// The amount as the operation changed it.
    pub fn change(&self) -> AssignedChange {
        AssignedChange {
            category_id: self.category_id.clone(),
            from: self.from,
            to: self.to,
        }
    }
}

/// `move`: the two amounts of one month, the source (the money came from) first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moved {
    pub month: CalendarMonth,
    pub changes: [AssignedChange; 2],
}

/// `payee`: the payee renamed, its name exactly as YNAB held it and as it was sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PayeeRenamed {
    pub payee_id: String,
    pub from: String,
    pub to: String,
}

/// `approve`: the transactions the operation approved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Approved {
    pub transaction_ids: Vec<String>,
}

/// `delete`: the ids deleted (a transfer's both sides), and the plan's knowledge before the
/// delete, since which YNAB's delta shows each one deleted, with its fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deleted {
    pub transaction_ids: Vec<String>,
    pub server_knowledge: i64,
}

/// One move of a `categorize` operation: the transaction went from one category to another
/// (both present, `null` for none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryMove {
    pub transaction_id: String,
    #[serde(deserialize_with = "Option::deserialize")]
    pub from_category_id: Option<String>,
    #[serde(deserialize_with = "Option::deserialize")]
    pub to_category_id: Option<String>,
}

impl From<&super::Recategorised> for CategoryMove {
    fn from(change: &super::Recategorised) -> Self {
        CategoryMove {
            transaction_id: change.transaction_id.clone(),
            from_category_id: change.from_category_id.clone(),
            to_category_id: change.to_category_id.clone(),
        }
    }
}

/// `categorize`'s intent: its moves (a journal line keeps them beside its details, in `moves`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Categorized {
    pub moves: Vec<CategoryMove>,
}

/// A category's assigned amount, as the operation changed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssignedChange {
    pub category_id: String,
    pub from: Milliunits,
    pub to: Milliunits,
}

/// A transaction's flag, as the operation changed it (`None`: no flag; present in the record,
/// `null` or `""` when there is none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlagChange {
    pub transaction_id: String,
    #[serde(deserialize_with = "flag_colour")]
    pub from: Option<String>,
    #[serde(deserialize_with = "flag_colour")]
    pub to: Option<String>,
}

/// `flag`: each transaction's flag, in request order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flagged {
    pub changes: Vec<FlagChange>,
}

/// A flag colour as journaled: present, `null` or `""` for none.
fn flag_colour<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(Option::<String>::deserialize(d)?.filter(|c| !c.is_empty()))
}

/// `target`: the category, how its target read before (an intent notes it, a journal line does
/// not) and after, and the fields that restore the previous one (`null` when the API cannot).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetSet {
    pub category_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    pub after: String,
    /// An object of YNAB's target fields (anything else: not restorable).
    #[serde(default)]
    pub undo: Option<Value>,
}

/// `category`: a category's name and group before and after an `update_category` (D25).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryEdit {
    pub category_id: String,
    pub name_before: String,
    pub group_before: String,
    pub name_after: String,
    pub group_after: String,
}

/// What an `update` operation knows of one value of a field: the value, or (an intent, D31) only
/// its salted digest.
#[derive(Debug, Clone, PartialEq)]
pub enum Known {
    Value(Value),
    Digest(String),
}

/// How an unfinished intent's new transactions are found again (D31): the digests of its items
/// among the account's transactions changed since the plan's knowledge when it was written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recognition {
    pub account_id: String,
    pub item_digests: Vec<String>,
    /// The intent's random salt of those digests; `None` for an intent written before salts.
    #[serde(default)]
    pub digest_salt: Option<String>,
    /// `None`: the intent did not note it, and every transaction is looked at.
    #[serde(default)]
    pub server_knowledge: Option<i64>,
}

/// `create`, as a journal line records it: the ids YNAB gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreatedIds {
    pub transaction_ids: Vec<String>,
}

/// `create`, as its intent records it: whether the items were approved, and how to recognise
/// them (their ids are YNAB's to give).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CreateIntended {
    pub approved: bool,
    #[serde(flatten)]
    pub recognition: Recognition,
}

/// `reconcile`: the account, the transactions marked reconciled, the balance adjustment's id
/// (`null` until YNAB gave it, or with none) and, in an intent that creates transactions (an
/// adjustment, or a statement's lines), how to recognise them. The Python server's lines have
/// the same keys; `import_statement` adds the three it alone writes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reconciled {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account_id: Option<String>,
    pub reconciled_ids: Vec<String>,
    #[serde(default)]
    pub adjustment_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_digests: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest_salt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_knowledge: Option<i64>,
    /// The statement lines `import_statement` created before reconciling (a journal line).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub imported_ids: Vec<String>,
    /// The reconciled transactions that were uncleared before: the statement showed them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uncleared_ids: Vec<String>,
    /// Whether `item_digests` recognise imported lines (else, one balance adjustment).
    #[serde(default, skip_serializing_if = "is_false")]
    pub imports: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Reconciled {
    /// How an intent's adjustment is recognised, when it made one.
    pub(super) fn recognition(&self) -> Result<Option<Recognition>, Refusal> {
        let Some(digests) = &self.item_digests else {
            return Ok(None);
        };
        let account_id = self
            .account_id
            .clone()
            .ok_or_else(|| damaged("account_id", "a string"))?;
        Ok(Some(Recognition {
            account_id,
            item_digests: digests.clone(),
            digest_salt: self.digest_salt.clone(),
            server_knowledge: self.server_knowledge,
        }))
    }
}

/// How a `create` operation names the transactions it created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Created {
    /// A journal line lists their ids.
    Ids(Vec<String>),
    /// An unfinished intent knows them only by digest (D31).
    ByDigest(Recognition),
}

/// `reconcile`, as undo reads it: `recognition` is set for an unfinished intent that was to
/// create an adjustment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reconciliation {
    pub reconciled_ids: Vec<String>,
    /// What it created and cleared on the way, as far as the record names them.
    pub made: super::Made,
    pub recognition: Option<Recognition>,
    /// Whether `recognition` finds imported lines (else, the adjustment).
    pub imports: bool,
}

/// `target`, as undo reads it: `after` is how the target read once set, `before` how it read
/// before (an intent notes it, a journal line does not).
#[derive(Debug, Clone, PartialEq)]
pub enum TargetDetails {
    /// `fields` restore the previous target.
    Restorable {
        category_id: String,
        before: Option<String>,
        after: String,
        fields: Value,
    },
    /// An intent without them: undo only tells whether it landed.
    Unrestorable {
        category_id: String,
        before: Option<String>,
        after: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// A `target` change journaled without the fields that restore the previous target.
    TargetNotRestorable,
    /// A kind this build cannot revert.
    Kind(String),
    /// A detail missing or of the wrong type: `field` names it (`changes.1.from`), `problem`
    /// says what is wrong with it (`is missing`, `is not an integer`).
    Damaged { field: String, problem: String },
}

impl Refusal {
    /// The sentence the undo tool answers for operation `operation_id` of kind `kind`.
    pub fn message(&self, operation_id: &str, kind: &str) -> String {
        match self {
            Refusal::TargetNotRestorable => format!(
                "Operation {operation_id} (target) cannot be undone here: the journal holds no way to bring the previous target back; set it in YNAB."
            ),
            Refusal::Kind(kind) => format!(
                "Operation {operation_id} ({kind}) cannot be undone here: this version of avenir-mcp cannot revert a {kind} operation yet; change it back in YNAB."
            ),
            Refusal::Damaged { field, problem } => format!(
                "Operation {operation_id} ({kind}) cannot be undone here: its journal entry is damaged ({field} {problem}); fix that line of the journal or change it back in YNAB."
            ),
        }
    }
}

/// A damaged journal line's refusal: `field` is not `expected`.
pub(super) fn damaged(field: &str, expected: &'static str) -> Refusal {
    Refusal::Damaged {
        field: field.to_string(),
        problem: format!("is missing or is not {expected}"),
    }
}

/// The details of an operation of `kind`. `moves` are a `categorize` journal line's moves;
/// `from_intent` is set for an unfinished intent: its moves are in its details, and a creation
/// has no ids yet.
pub fn parse(
    kind: &str,
    details: &Value,
    moves: Vec<CategoryMove>,
    from_intent: bool,
) -> Result<Details, Refusal> {
    let known = Kind::from_name(kind).ok_or_else(|| Refusal::Kind(kind.to_string()))?;
    parse_kind(known, details, moves, from_intent)
}

/// [`parse`] of a kind this build knows: its record's own reading.
pub fn parse_kind(
    kind: Kind,
    details: &Value,
    moves: Vec<CategoryMove>,
    from_intent: bool,
) -> Result<Details, Refusal> {
    kind.parse(Entry {
        details,
        moves,
        from_intent,
    })
}
