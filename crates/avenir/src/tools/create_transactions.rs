//! `create_transactions` (`docs/contract/writes.md` §9.2): record on one account the transactions
//! the bank did not bring, in one confirmed step that `undo_operation` reverts by deleting them.
//!
//! The journal keeps only the ids YNAB gave them, and the intent a digest of each item (D31): no
//! payee, memo or amount reaches the disk in clear.

use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::{Date, Flag, MemberText, Money};
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written,
};
use crate::context::Context;
use crate::digest::order_free;
use crate::logic::assignable::{CategoryIndex, Role};
use crate::logic::created::{digest, item};
use crate::logic::undo::details::{CreateIntended, CreatedIds};
use crate::logic::undo::{Recognition, record::to_details};
use crate::money::{Amount, MoneyFormat};
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::models::Milliunits;
use ynab::writes::NewTransaction;

/// Longest payee name YNAB takes on a transaction, in code points (`docs/contract/server.md` §6.4).
const MAX_PAYEE: usize = 200;
/// Longest memo YNAB takes, in code points.
const MAX_MEMO: usize = 500;

/// One transaction to create, as the agent gave it (an empty memo or category is absent).
#[derive(Debug, Clone)]
pub struct NewItem {
    pub date: NaiveDate,
    pub amount: Milliunits,
    pub payee_name: String,
    pub memo: Option<String>,
    pub category_id: Option<String>,
    /// The id YNAB's own imports recognise (`import_statement`'s lines); none for an entry by
    /// hand.
    pub import_id: Option<String>,
}

impl NewItem {
    fn date_label(&self) -> String {
        self.date.format("%Y-%m-%d").to_string()
    }

    /// Its part of the subject (D15).
    fn subject_item(&self) -> Value {
        item(
            &self.date_label(),
            self.amount,
            &self.payee_name,
            self.memo.as_deref(),
            self.category_id.as_deref(),
        )
    }
}

/// `create_transactions`, its arguments validated.
#[derive(Debug)]
pub struct CreateTransactions {
    account_id: String,
    items: Vec<NewItem>,
    approved: bool,
}

/// What `create_transactions` proposes.
#[derive(Debug, Clone)]
pub struct Creation {
    account_id: String,
    account: String,
    approved: bool,
    items: Vec<NewItem>,
    /// The preview items, names safe.
    preview: Vec<PreviewItem>,
    /// The plan's `server_knowledge` when it was read: a recovery reads what changed since.
    knowledge: i64,
    /// What YNAB answered, once applied: the ids created.
    created_ids: Vec<String>,
    /// The import ids YNAB found already used, once applied.
    duplicate_import_ids: Vec<String>,
}

impl CreateTransactions {
    /// This tool with nothing of its own to create, for a write whose change is a creation too
    /// (`import_statement`): its `ConfirmedWrite::write` writes any proposed creation.
    pub(super) fn writer(account_id: &str) -> Self {
        CreateTransactions {
            account_id: account_id.to_string(),
            items: Vec::new(),
            approved: false,
        }
    }
}

impl Creation {
    /// How many transactions it creates.
    pub fn count(&self) -> usize {
        self.items.len()
    }

    /// The ids YNAB gave, once applied.
    pub fn created_ids(&self) -> &[String] {
        &self.created_ids
    }

    /// The import ids YNAB found already used, once applied: those lines were not created.
    pub fn duplicate_import_ids(&self) -> &[String] {
        &self.duplicate_import_ids
    }
}

crate::tool_args! {
    // One transaction to create. (A plain comment: a doc comment would become the description
    // of the list's items.)
    pub struct NewItemArgs {
        /// Today or earlier.
        #[give = "the date, YYYY-MM-DD"]
        pub date: Date,
        #[give = "the amount in currency units, negative for money out"]
        pub amount: Money,
        #[give = "the payee's name"]
        pub payee_name: MemberText<1, MAX_PAYEE>,
        pub memo: Option<MemberText<0, MAX_MEMO>>,
        /// From get_category_balances.
        pub category_id: Option<String>,
    }
}

crate::tool_args! {
    /// The arguments of `create_transactions`.
    pub struct CreateTransactionsArgs {
        pub plan_id: Option<PlanId>,
        /// From list_accounts.
        #[give = "an account id from list_accounts"]
        pub account_id: String,
        #[give = "the transactions to create"]
        pub transactions: Vec<NewItemArgs>,
        /// true skips YNAB's review.
        pub approved: Flag<false>,
    }
}

// One transaction of the preview. (A plain comment: a doc comment would become the description
// of the list's items.)
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PreviewItem {
    pub date: String,
    pub amount: Amount,
    pub payee: String,
    pub category: Option<String>,
    pub memo: Option<String>,
}

// The fields of `create_transactions`' answer, whatever its status. (A plain comment: the struct
// is flattened into the answer, whose schema has no description.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct CreationDetails {
    pub account: String,
    pub transactions: Vec<PreviewItem>,
    /// Ids YNAB gave them (once applied).
    pub created_ids: Vec<String>,
    pub duplicate_import_ids: Vec<String>,
}

impl CreateTransactions {
    /// Each item happened (not in the future) and names a category a transaction can have.
    fn check_items(&self, today: NaiveDate, index: &CategoryIndex) -> Result<(), ToolError> {
        for item in &self.items {
            if item.date > today {
                return Err(format!(
                    "{} is in the future: YNAB only records transactions that happened.",
                    item.date_label()
                )
                .into());
            }
            if let Some(cat) = &item.category_id {
                if !index.is_visible(cat) {
                    return Err(format!(
                        "Category {cat} is not in this plan: use a category_id from get_category_balances."
                    ).into());
                }
                if index.role(cat) == Some(Role::CreditCardPayment) {
                    return Err(format!(
                        "Category {cat} pays a credit card: YNAB ignores it on a transaction. Choose the category of what was paid for."
                    ).into());
                }
            }
        }
        Ok(())
    }
}

impl ConfirmedTool for CreateTransactions {
    const TITLE: &'static str = "Create transactions";
    const DESTRUCTIVE: bool = false;
    type Args = CreateTransactionsArgs;
    type Details = CreationDetails;

    fn description(_writes: bool) -> String {
        "Record transactions the bank did not bring (cash, a missed import) on one account; if \
imports stopped, check list_accounts for a broken bank link first. The user sees each one and \
confirms. undo_operation deletes them."
            .to_string()
    }

    /// An empty memo or category is absent.
    fn from_args(args: CreateTransactionsArgs, _today: NaiveDate) -> Result<Self, ToolError> {
        let items = args
            .transactions
            .into_iter()
            .map(|item| NewItem {
                date: item.date.0,
                amount: item.amount.0,
                payee_name: item.payee_name.0,
                memo: item.memo.map(|m| m.0).filter(|m| !m.is_empty()),
                category_id: item.category_id.filter(|c| !c.is_empty()),
                import_id: None,
            })
            .collect();
        Ok(CreateTransactions {
            account_id: args.account_id,
            items,
            approved: args.approved.0,
        })
    }
}

impl ConfirmedWrite for CreateTransactions {
    type Change = Creation;
    const TOOL: &'static str = "create_transactions";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::Create;
    const APPLIED: &'static str = "Created.";
    const UNDO: Undoable = Undoable::Yes("deletes them");

    fn items(&self, change: &Creation) -> usize {
        change.items.len()
    }

    async fn prepare(
        &self,
        context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<Creation>, ToolError> {
        let plan = &snapshot.plan;
        let account = plan
            .accounts
            .iter()
            .find(|a| a.id == self.account_id && !a.deleted)
            .ok_or_else(|| {
                format!(
                    "Account {} is not in this plan: use an id from list_accounts.",
                    self.account_id
                )
            })?;
        if self.items.is_empty() {
            return Err("Give at least one transaction to create.".into());
        }
        let today = context.settings.today();
        let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
        self.check_items(today, &index)?;
        let title = format!(
            "Create {} transaction(s) on {}?",
            self.items.len(),
            safe(&account.name)
        );
        Ok(propose(
            &snapshot,
            account,
            &self.items,
            self.approved,
            title,
        ))
    }

    fn intent_details(&self, change: &Creation) -> Value {
        intent(change)
    }

    /// The creation, with the ids YNAB gave and the duplicate import ids it found.
    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<Creation>,
    ) -> Result<Written<Creation>, WriteFailure> {
        let change = &proposal.change;
        let transactions: Vec<NewTransaction> = change
            .items
            .iter()
            .map(|i| NewTransaction {
                account_id: change.account_id.clone(),
                date: i.date_label(),
                amount: i.amount,
                payee_name: Some(i.payee_name.clone()),
                memo: i.memo.clone(),
                category_id: i.category_id.clone(),
                cleared: Some("cleared".into()),
                approved: Some(change.approved),
                import_id: i.import_id.clone(),
                ..NewTransaction::default()
            })
            .collect();
        let client = context.plans.client();
        let mut saved = client
            .create_transactions(&proposal.plan_id, &transactions)
            .await?;
        if !saved.duplicate_import_ids.is_empty() {
            let again = without_refused_import_ids(&transactions, &saved.duplicate_import_ids);
            let more = client
                .create_transactions(&proposal.plan_id, &again)
                .await
                .map_err(|e| second_create_failed(saved.transaction_ids.len(), again.len(), e))?;
            saved.transaction_ids = in_item_order(
                &transactions,
                &saved.duplicate_import_ids,
                saved.transaction_ids,
                more.transaction_ids,
            );
            saved.duplicate_import_ids = more.duplicate_import_ids;
        }
        let draft = JournalDraft {
            details: to_details(&CreatedIds {
                transaction_ids: saved.transaction_ids.clone(),
            }),
            ..JournalDraft::default()
        };
        let created = Creation {
            created_ids: saved.transaction_ids,
            duplicate_import_ids: saved.duplicate_import_ids,
            ..change.clone()
        };
        Ok(Written {
            draft,
            applied: Some(created),
        })
    }

    fn details(&self, change: &Creation) -> CreationDetails {
        details(change)
    }
}

/// The proposal of `items` on `account`, its question opening with `title` (checked already).
/// The lines whose import id YNAB refused, to create once more without it. Only a deleted
/// transaction can hold such an id here — a live one would have matched the line, and the plan
/// is read again before every write — and YNAB keeps a deleted transaction's import id (a
/// statement imported, undone, then imported again). Without it, YNAB's own import later
/// matches the line by amount and date, as it matches a transaction entered by hand.
fn without_refused_import_ids(all: &[NewTransaction], refused: &[String]) -> Vec<NewTransaction> {
    all.iter()
        .filter(|t| t.import_id.as_ref().is_some_and(|i| refused.contains(i)))
        .map(|t| NewTransaction {
            import_id: None,
            ..t.clone()
        })
        .collect()
}

/// The ids of both requests in the order of the items, as the answer lists them: each refused
/// item's id comes from the second request, the others' from the first, each in turn.
fn in_item_order(
    all: &[NewTransaction],
    refused: &[String],
    first: Vec<String>,
    second: Vec<String>,
) -> Vec<String> {
    let (mut first, mut second) = (first.into_iter(), second.into_iter());
    all.iter()
        .filter_map(
            |t| match t.import_id.as_ref().is_some_and(|i| refused.contains(i)) {
                true => second.next(),
                false => first.next(),
            },
        )
        .collect()
}

/// The second request of [`without_refused_import_ids`] failed: the first one's lines are in.
fn second_create_failed(created: usize, left: usize, error: ynab::Error) -> WriteFailure {
    let (WriteFailure::NothingChanged(text) | WriteFailure::Unknown(text)) = error.into();
    WriteFailure::Unknown(format!(
        "Half done: {created} transaction(s) were created; {left} whose import ids a deleted transaction still holds were sent again without one, and that failed ({text}). undo_operation deletes what was created; or call again to create the rest."
    ))
}

pub(super) fn propose(
    snapshot: &PlanSnapshot,
    account: &ynab::models::Account,
    items: &[NewItem],
    approved: bool,
    title: String,
) -> Prepared<Creation> {
    let plan = &snapshot.plan;
    let index = CategoryIndex::new(&plan.category_groups, &plan.categories);
    let category = |id: Option<&str>| id.and_then(|id| index.visible_name(id)).map(safe);
    let preview: Vec<PreviewItem> = items
        .iter()
        .map(|i| PreviewItem {
            date: i.date_label(),
            amount: Amount(i.amount),
            payee: safe(&i.payee_name),
            category: category(i.category_id.as_deref()),
            memo: i.memo.as_deref().map(safe),
        })
        .collect();
    let fmt = MoneyFormat::of(plan.currency_format.as_ref());
    let lines = items
        .iter()
        .map(|i| {
            format!(
                "- {} {} {} ({})",
                i.date_label(),
                safe(&i.payee_name),
                fmt.plain(i.amount),
                category(i.category_id.as_deref()).unwrap_or_else(|| "no category".to_string())
            )
        })
        .collect();
    let subject = json!({
        "account": account.id, "approved": approved,
        "items": order_free(items.iter().map(NewItem::subject_item).collect())
    });
    Prepared::Change(Proposal {
        plan_id: snapshot.id().to_string(),
        subject,
        question: crate::confirm::question(title, lines),
        change: Creation {
            account_id: account.id.clone(),
            account: safe(&account.name),
            approved,
            items: items.to_vec(),
            preview,
            knowledge: snapshot.server_knowledge,
            created_ids: Vec::new(),
            duplicate_import_ids: Vec::new(),
        },
    })
}

/// D31: the account, and a digest of each item salted at random, never the item itself; with the
/// knowledge the plan had, so a recovery reads only what changed since.
pub(super) fn intent(change: &Creation) -> Value {
    to_details(&CreateIntended {
        approved: change.approved,
        recognition: recognition(change),
    })
}

/// How a recovery recognises what `change` creates: a salted digest of each item (D31).
pub(super) fn recognition(change: &Creation) -> Recognition {
    let salt = crate::random::hex::<16>();
    let digests: Vec<String> = change
        .items
        .iter()
        .map(|i| digest(Some(&salt), &i.subject_item()))
        .collect();
    Recognition {
        account_id: change.account_id.clone(),
        item_digests: digests,
        digest_salt: Some(salt),
        server_knowledge: Some(change.knowledge),
    }
}

/// The answer's fields for `change`.
pub(super) fn details(change: &Creation) -> CreationDetails {
    CreationDetails {
        account: change.account.clone(),
        transactions: change.preview.clone(),
        created_ids: change.created_ids.clone(),
        duplicate_import_ids: change.duplicate_import_ids.clone(),
    }
}
