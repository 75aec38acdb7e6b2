//! The records of the kinds undo cannot revert, because YNAB's API offers no way back
//! (`docs/contract/writes.md` §10.3): a new category (the API cannot delete or hide one), a new
//! account (it cannot delete or close one). Their journal line only says what was done; their
//! intent says how a restart tells whether an interrupted write landed (D14), which is then
//! journaled with the same record the tool writes.

use serde::{Deserialize, Serialize};

/// `split`'s intent: the transaction, its category before (present, `null` for none), and its
/// new lines by salted digest (D31).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitIntended {
    pub transaction_id: String,
    #[serde(deserialize_with = "Option::deserialize")]
    pub category_before: Option<String>,
    pub line_digests: Vec<String>,
    /// `None`: an intent written before salts.
    #[serde(default)]
    pub digest_salt: Option<String>,
}

/// `category_create`'s intent: the group, and the name by its salted digest (`None` in an intent
/// that did not note it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryIntended {
    pub category_group_id: String,
    #[serde(default)]
    pub name_digest: Option<String>,
    #[serde(default)]
    pub digest_salt: Option<String>,
}

/// `category_create`'s journal line: the category YNAB made, in its group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryCreated {
    pub category_id: Option<String>,
    pub category_group_id: String,
}

/// `account_create`'s intent: the account's type and budget side, and its name by salted digest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountIntended {
    #[serde(rename = "type", default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub on_budget: Option<bool>,
    pub name_digest: String,
    #[serde(default)]
    pub digest_salt: Option<String>,
}

/// `account_create`'s journal line: the account YNAB made, its type and budget side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountCreated {
    pub account_id: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub on_budget: Option<bool>,
}

/// `import`'s intent: the plan's knowledge before, since which what came in is read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportIntended {
    #[serde(default)]
    pub server_knowledge: Option<i64>,
}

/// `import`'s journal line: the transactions YNAB imported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Imported {
    pub transaction_ids: Vec<String>,
}
