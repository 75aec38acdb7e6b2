//! Names where a person would type an id: `call set_category_budget category_id=Restaurants …`.
//! Before a call, every argument named for a category, an account, a payee or a scheduled
//! payment (`category_id`, `from_category_id`, `account_ids`, `source_payee_ids`,
//! `scheduled_transaction_id`…, nested ones too) whose value is not an id of the plan is looked
//! up by name in the plan the call reads, and replaced by the id it names. The MCP tools keep
//! taking ids: this is the command line's own step, on the plan the server has loaded anyway.
//!
//! Names match whatever their case and accents (`cafe` finds `Café`); a category also answers
//! to `Group: Name`, and a scheduled payment to its payee's name. A name that two entities carry
//! is refused with both listed with their ids; a value that names nothing is left for the tool
//! to judge (it may be a word the tool knows), unless it cannot be an id either.

use serde_json::{Map, Value};
use unicode_normalization::UnicodeNormalization as _;
use ynab::models::PlanDetail;

/// What an argument names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Category,
    Group,
    Account,
    Payee,
    Scheduled,
}

impl Kind {
    /// The kind an argument's key stands for, from its ending (`…category_id`, `…account_ids`).
    pub fn of(key: &str) -> Option<Kind> {
        let stem = key
            .strip_suffix("_ids")
            .or_else(|| key.strip_suffix("_id"))?;
        if stem.ends_with("scheduled_transaction") {
            Some(Kind::Scheduled)
        } else if stem.ends_with("category_group") {
            Some(Kind::Group)
        } else if stem.ends_with("category") {
            Some(Kind::Category)
        } else if stem.ends_with("account") {
            Some(Kind::Account)
        } else if stem.ends_with("payee") {
            Some(Kind::Payee)
        } else {
            None
        }
    }

    fn words(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Kind::Category => ("category", "categories", "get_category_balances"),
            Kind::Group => ("category group", "category groups", "list_category_groups"),
            Kind::Account => ("account", "accounts", "list_accounts"),
            Kind::Payee => ("payee", "payees", "list_payees"),
            Kind::Scheduled => (
                "scheduled payment",
                "scheduled payments",
                "list_scheduled_transactions",
            ),
        }
    }
}

/// One entity a name may stand for: its id, the names it answers to, how it is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub id: String,
    pub names: Vec<String>,
    pub shown: String,
}

/// Why a name could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("{key}={name} names {count} {plural}: {listed}. Give the id (or a longer name).", count = .candidates.len(), listed = .candidates.join("; "))]
    Ambiguous {
        key: String,
        name: String,
        plural: &'static str,
        candidates: Vec<String>,
    },
    #[error(
        "{key}={name}: no {singular} of this plan is named so. `avenir-mcp call {lister}` lists them."
    )]
    Unknown {
        key: String,
        name: String,
        singular: &'static str,
        lister: &'static str,
    },
}

/// A name as names are compared: accents removed, case folded, white space collapsed.
pub fn folded(text: &str) -> String {
    let plain: String = text
        .nfd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .collect();
    avenir::text::fold(&plain)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the plan's entities of `kind` answer to (deleted ones left out).
pub fn entries(plan: &PlanDetail, kind: Kind) -> Vec<Entry> {
    match kind {
        Kind::Category => plan
            .categories
            .iter()
            .filter(|c| !c.deleted)
            .map(|c| {
                let group = plan
                    .category_groups
                    .iter()
                    .find(|g| *g.id == *c.category_group_id)
                    .map(|g| g.name.to_string())
                    .or_else(|| c.category_group_name.as_ref().map(|g| g.to_string()))
                    .unwrap_or_default();
                Entry {
                    id: c.id.to_string(),
                    names: vec![c.name.to_string(), format!("{group}: {}", c.name)],
                    shown: format!("{} (in {group}) {}", c.name, c.id),
                }
            })
            .collect(),
        Kind::Group => plan
            .category_groups
            .iter()
            .filter(|g| !g.deleted)
            .map(|g| Entry {
                id: g.id.clone(),
                names: vec![g.name.clone()],
                shown: format!("{} {}", g.name, g.id),
            })
            .collect(),
        Kind::Account => plan
            .accounts
            .iter()
            .filter(|a| !a.deleted)
            .map(|a| Entry {
                id: a.id.clone(),
                names: vec![a.name.clone()],
                shown: format!("{} {}", a.name, a.id),
            })
            .collect(),
        Kind::Payee => plan
            .payees
            .iter()
            .filter(|p| !p.deleted)
            .map(|p| Entry {
                id: p.id.to_string(),
                names: vec![p.name.to_string()],
                shown: format!("{} {}", p.name, p.id),
            })
            .collect(),
        Kind::Scheduled => scheduled_entries(plan),
    }
}

fn scheduled_entries(plan: &PlanDetail) -> Vec<Entry> {
    plan.scheduled_transactions
        .iter()
        .filter(|s| !s.deleted)
        .map(|s| {
            let payee = s
                .payee_id
                .as_ref()
                .and_then(|id| plan.payees.iter().find(|p| *p.id == **id))
                .map(|p| p.name.to_string())
                .unwrap_or_default();
            Entry {
                id: s.id.to_string(),
                names: vec![payee.clone()],
                shown: format!("{payee} ({}, next {}) {}", s.frequency, s.date_next, s.id),
            }
        })
        .collect()
}

/// Whether `text` could be an id (YNAB's are UUIDs): hexadecimal digits and dashes.
fn could_be_id(text: &str) -> bool {
    text.len() >= 8 && text.contains('-') && text.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
}

/// The id `given` stands for among `entries`: itself when it is an id, else the one entity it
/// names; `None` when it is left for the tool: an id, or a word the tool knows (`words`, such
/// as `none`).
pub fn resolve_one(
    key: &str,
    given: &str,
    kind: Kind,
    entries: &[Entry],
    words: &Words,
) -> Result<Option<String>, NameError> {
    if entries.iter().any(|e| e.id == given) || words.knows(given) {
        return Ok(None);
    }
    let wanted = folded(given);
    let matches: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.names.iter().any(|n| !n.is_empty() && folded(n) == wanted))
        .collect();
    let (singular, plural, lister) = kind.words();
    match matches.as_slice() {
        [one] => Ok(Some(one.id.clone())),
        [] if could_be_id(given) || wanted.is_empty() => Ok(None),
        [] => Err(NameError::Unknown {
            key: key.into(),
            name: given.into(),
            singular,
            lister,
        }),
        many => Err(NameError::Ambiguous {
            key: key.into(),
            name: given.into(),
            plural,
            candidates: many.iter().map(|e| e.shown.clone()).collect(),
        }),
    }
}

/// The words a tool's input schema quotes (`"none" removes it`): values it takes besides ids.
#[derive(Debug, Clone, Default)]
pub struct Words(String);

impl Words {
    /// The quoted words of `schema`'s descriptions.
    pub fn of(schema: &Map<String, Value>) -> Words {
        Words(Value::Object(schema.clone()).to_string())
    }

    fn knows(&self, given: &str) -> bool {
        !given.is_empty() && self.0.contains(&format!("\\\"{given}\\\""))
    }
}

/// Whether any argument (nested ones too) is one a name may stand in for.
pub fn any_named(arguments: &Map<String, Value>) -> bool {
    arguments.iter().any(|(key, value)| {
        Kind::of(key).is_some()
            || match value {
                Value::Object(map) => any_named(map),
                Value::Array(items) => items.iter().any(|i| i.as_object().is_some_and(any_named)),
                _ => false,
            }
    })
}

/// Replace, in `arguments` and the objects nested in them, every name by the id it stands for.
pub fn resolve(
    plan: &PlanDetail,
    arguments: &mut Map<String, Value>,
    words: &Words,
) -> Result<(), NameError> {
    for (key, value) in arguments.iter_mut() {
        match (Kind::of(key), value) {
            (Some(kind), Value::String(given)) => {
                if let Some(id) = resolve_one(key, given, kind, &entries(plan, kind), words)? {
                    *given = id;
                }
            }
            (Some(kind), Value::Array(items)) => {
                let known = entries(plan, kind);
                for item in items.iter_mut() {
                    if let Value::String(given) = item
                        && let Some(id) = resolve_one(key, given, kind, &known, words)?
                    {
                        *given = id;
                    }
                }
            }
            (_, Value::Object(map)) => resolve(plan, map, words)?,
            (_, Value::Array(items)) => {
                for map in items.iter_mut().filter_map(Value::as_object_mut) {
                    resolve(plan, map, words)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, names: &[&str]) -> Entry {
        Entry {
            id: id.into(),
            names: names.iter().map(|n| n.to_string()).collect(),
            shown: format!("{} {id}", names[0]),
        }
    }

    #[test]
    fn keys_name_their_kind_by_their_ending() {
        assert_eq!(Kind::of("category_id"), Some(Kind::Category));
        assert_eq!(Kind::of("from_category_id"), Some(Kind::Category));
        assert_eq!(Kind::of("account_ids"), Some(Kind::Account));
        assert_eq!(Kind::of("transfer_account_id"), Some(Kind::Account));
        assert_eq!(Kind::of("source_payee_ids"), Some(Kind::Payee));
        assert_eq!(Kind::of("scheduled_transaction_id"), Some(Kind::Scheduled));
        assert_eq!(Kind::of("transaction_id"), None);
        assert_eq!(Kind::of("plan_id"), None);
        assert_eq!(Kind::of("category_group_id"), Some(Kind::Group));
        assert_eq!(Kind::of("category"), None);
    }

    #[test]
    fn names_match_whatever_their_case_and_accents() {
        let known = [
            entry("c-1", &["Café", "Wants: Café"]),
            entry("c-2", &["Rent", "Bills: Rent"]),
        ];
        let words = Words::of(&serde_json::Map::from_iter([(
            "description".to_string(),
            Value::String("\"none\" removes it".into()),
        )]));
        let found = |given: &str| resolve_one("category_id", given, Kind::Category, &known, &words);
        assert_eq!(found("none"), Ok(None), "a word the tool knows");
        assert_eq!(found("cafe"), Ok(Some("c-1".into())));
        assert_eq!(found("  CAFÉ "), Ok(Some("c-1".into())));
        assert_eq!(found("bills:   rent"), Ok(Some("c-2".into())));
        assert_eq!(found("c-2"), Ok(None), "an id stays");
        assert_eq!(
            found("0a1b2c3d-0000"),
            Ok(None),
            "what may be an id is the tool's to judge"
        );
        assert_eq!(
            found("Groceries"),
            Err(NameError::Unknown {
                key: "category_id".into(),
                name: "Groceries".into(),
                singular: "category",
                lister: "get_category_balances",
            })
        );
    }

    #[test]
    fn two_entities_of_one_name_are_listed_with_their_ids() {
        let known = [entry("p-1", &["Shop"]), entry("p-2", &["shop"])];
        let error = resolve_one("payee_id", "SHOP", Kind::Payee, &known, &Words::default());
        assert_eq!(
            error.map_err(|e| e.to_string()),
            Err(
                "payee_id=SHOP names 2 payees: Shop p-1; shop p-2. Give the id (or a longer name)."
                    .to_string()
            )
        );
    }
}
