//! The records of the kinds undo cannot revert, because YNAB's API offers no way back
//! (`docs/contract/writes.md` §10.3): a new category (the API cannot delete or hide one), a new
//! account (it cannot delete or close one). Their journal line only says what was done; their
//! intent says how a restart tells whether an interrupted write landed (D14), which is then
//! journaled with the same record the tool writes.

use super::per_kind::{Entry, Landed, Planned, Reads, UndoKind};
use super::record::{from_details, to_details};
use super::{Kind, Landing, Refusal};
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

/// Why undo cannot revert a `category_create` operation (D25).
pub const CATEGORY_CREATE_NOT_UNDOABLE: &str =
    "YNAB's API cannot delete or hide a category; the user hides it in YNAB itself";

/// Why undo cannot revert an `account_create` operation (D25).
pub const ACCOUNT_CREATE_NOT_UNDOABLE: &str = "YNAB's API cannot delete or close an account; the user closes it in YNAB's app (the account's settings, Close Account), or deletes it there if nothing was recorded on it";

/// `import`, as undo reads it: a journal line lists what came in; an intent only knows the
/// knowledge before, and is read for whether anything came in since.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportDetails {
    Intended(ImportIntended),
    Done(Imported),
}

impl UndoKind for ImportDetails {
    const REVERTED: bool = true;
    const UNDONE: &'static str = "Imported transactions deleted.";

    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        match entry.from_intent {
            true => from_details(entry.details).map(ImportDetails::Intended),
            false => from_details(entry.details).map(ImportDetails::Done),
        }
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let intended = match self {
            ImportDetails::Done(done) => {
                let (plan, fmt) = (reads.plan(), reads.fmt());
                let planned = super::imported(done.transaction_ids, plan, fmt, reads.applied());
                return Ok(planned.into());
            }
            ImportDetails::Intended(intended) => intended,
        };
        // What came in since: the live transactions with an import id among those changed.
        let imported = match intended.server_knowledge {
            None => None,
            Some(knowledge) => Some(
                reads
                    .transactions_since(Some(knowledge))
                    .await?
                    .into_iter()
                    .filter(|t| !t.deleted && t.import_id.is_some())
                    .map(|t| t.id)
                    .collect::<Vec<_>>(),
            ),
        };
        let landing = match &imported {
            None => Landing::Unknown,
            Some(ids) if ids.is_empty() => Landing::NotApplied,
            Some(_) => Landing::Applied,
        };
        let line = Imported {
            transaction_ids: imported.unwrap_or_default(),
        };
        let line = to_details(&line);
        Ok(Planned::Landed(Landed {
            landing,
            line,
            reason: None,
        }))
    }
}

impl UndoKind for CategoryIntended {
    const REVERTED: bool = false;
    const UNDONE: &'static str = "Nothing was reverted.";

    /// Only an intent is read (whether it landed); a journal line is refused by its kind.
    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        match entry.from_intent {
            true => from_details(entry.details),
            false => Err(Refusal::Kind(Kind::CategoryCreate.name().to_string())),
        }
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let (landing, category_id) = super::category_create_landing(&self, reads.plan());
        let line = CategoryCreated {
            category_id,
            category_group_id: self.category_group_id,
        };
        Ok(Planned::Landed(Landed {
            landing,
            line: to_details(&line),
            reason: Some(CATEGORY_CREATE_NOT_UNDOABLE.to_string()),
        }))
    }
}

impl UndoKind for AccountIntended {
    const REVERTED: bool = false;
    const UNDONE: &'static str = "Nothing was reverted.";

    /// Only an intent is read (whether it landed); a journal line is refused by its kind.
    fn parse(entry: Entry<'_>) -> Result<Self, Refusal> {
        match entry.from_intent {
            true => from_details(entry.details),
            false => Err(Refusal::Kind(Kind::AccountCreate.name().to_string())),
        }
    }

    async fn now<R: Reads>(self, reads: &R) -> Result<Planned, R::Error> {
        let salt = self.digest_salt.as_deref();
        let (landing, account_id) =
            super::account_create::landing(&self.name_digest, salt, reads.plan());
        let line = AccountCreated {
            account_id,
            kind: self.kind,
            on_budget: self.on_budget,
        };
        Ok(Planned::Landed(Landed {
            landing,
            line: to_details(&line),
            reason: Some(ACCOUNT_CREATE_NOT_UNDOABLE.to_string()),
        }))
    }
}

/// The conformance suite's fixture writes: they change nothing, and nothing undoes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixtureWrite {}

impl UndoKind for FixtureWrite {
    const REVERTED: bool = false;
    const UNDONE: &'static str = "Nothing was reverted.";

    fn parse(_: Entry<'_>) -> Result<Self, Refusal> {
        Err(Refusal::Kind(Kind::ConformanceFixture.name().to_string()))
    }

    async fn now<R: Reads>(self, _: &R) -> Result<Planned, R::Error> {
        match self {}
    }
}
