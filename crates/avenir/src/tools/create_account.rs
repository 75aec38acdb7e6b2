//! `create_account` (issue 11, `docs/writes/create_account.md`): an unlinked account with a
//! name, a type and a starting balance, confirmed and journaled as not undoable (D25).

use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::Money;
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written, applied,
};
use crate::context::Context;
use crate::logic::new_account::{self, APP_ONLY_TYPES, MAX_NAME, NewAccount, Refusal, TYPES};
use crate::logic::undo::irreversible::{AccountCreated, AccountIntended};
use crate::logic::undo::record::to_details;
use crate::money::{Amount, MoneyFormat};
use crate::plan_store::PlanSnapshot;
use crate::text::{quoted, safe};
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;

use crate::logic::undo::irreversible::ACCOUNT_CREATE_NOT_UNDOABLE as NOT_UNDOABLE;

/// `create_account`, its arguments read.
#[derive(Debug, Clone)]
pub struct CreateAccount {
    name: String,
    kind: String,
    balance: ynab::models::Milliunits,
}

/// The account proposed, and (once applied) its id.
#[derive(Debug, Clone)]
pub struct AccountChange {
    account: NewAccount,
    /// Safe text.
    shown_name: String,
    account_id: Option<String>,
}

crate::tool_args! {
    /// The arguments of `create_account`.
    pub struct CreateAccountArgs {
        pub plan_id: Option<PlanId>,
        /// Not an open account's name.
        #[give = "the account's name"]
        pub name: String,
        /// checking, savings, cash, creditCard; tracking: otherAsset, otherLiability.
        #[give = "one of checking, savings, cash, creditCard, otherAsset, otherLiability"]
        pub account_type: String,
        /// What is in it today; owed (credit card, liability) is negative.
        #[give = "the starting balance in currency units"]
        pub balance: Money,
    }
}

// The fields of `create_account`'s answer, whatever its status. (A plain comment: the struct is
// flattened into the answer, whose schema has no description.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct AccountDetails {
    /// The new account's id (applied only).
    pub account_id: Option<String>,
    /// Its name (bank-safe text).
    pub name: String,
    /// YNAB's account type.
    pub account_type: String,
    /// Whether its transactions are in the budget (false: a tracking account).
    pub on_budget: bool,
    /// The starting balance, recorded as a cleared Starting Balance transaction dated today.
    pub balance: Amount,
}

impl ConfirmedTool for CreateAccount {
    const TITLE: &'static str = "Create an account";
    const DESTRUCTIVE: bool = false;
    type Args = CreateAccountArgs;
    type Details = AccountDetails;

    fn description(_writes: bool) -> String {
        "Create an account not linked to a bank, with its balance today. The user sees it and \
confirms. It cannot be undone: YNAB's API cannot delete or close an account."
            .to_string()
    }

    fn from_args(args: CreateAccountArgs, _today: NaiveDate) -> Result<Self, ToolError> {
        Ok(CreateAccount {
            name: args.name,
            kind: args.account_type,
            balance: args.balance.0,
        })
    }
}

/// The sentence of each refusal (`docs/writes/create_account.md`).
fn refusal_message(refusal: Refusal) -> String {
    let valid = TYPES.map(|(t, _)| t).join(", ");
    match refusal {
        Refusal::EmptyName => "Give the account a name: it cannot be empty.".to_string(),
        Refusal::LongName(n) => {
            format!("The name has {n} characters: give at most {MAX_NAME}.")
        }
        Refusal::AppOnly(kind) => format!(
            "account_type {}: YNAB's API cannot create a {kind} account ({} are made in YNAB's app); give one of {valid}.",
            quoted(&kind),
            APP_ONLY_TYPES.join(", ")
        ),
        Refusal::UnknownType(kind) => {
            format!(
                "account_type must be one of {valid}, got {}.",
                quoted(&kind)
            )
        }
        Refusal::TooPrecise(digits) => format!(
            "balance has more decimals than this plan's currency uses ({digits}): round it to {digits} decimal(s)."
        ),
        Refusal::Duplicate { id, name } => format!(
            "An open account is already named ‘{}’ ({id}): choose another name, or use that account (list_accounts).",
            safe(&name)
        ),
    }
}

impl ConfirmedWrite for CreateAccount {
    type Change = AccountChange;
    const TOOL: &'static str = "create_account";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::AccountCreate;
    const UNDO: Undoable = Undoable::No(Some(
        "It cannot be undone here: to remove it, close it in YNAB's app.",
    ));

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<AccountChange>, ToolError> {
        let plan = &snapshot.plan;
        let digits = plan
            .currency_format
            .as_ref()
            .map_or(2, |f| f.decimal_digits);
        let account =
            new_account::check(&self.name, &self.kind, self.balance, digits, &plan.accounts)
                .map_err(refusal_message)?;
        let fmt = MoneyFormat::of(plan.currency_format.as_ref());
        let shown_name = safe(&account.name);
        let budget = if account.on_budget {
            "on budget"
        } else {
            "a tracking account, off budget"
        };
        let question = crate::confirm::question(
            format!(
                "Create the account ‘{shown_name}’ ({}, {budget}) with a starting balance of {}?",
                account.kind,
                fmt.plain(account.balance)
            ),
            vec![
                format!("- The sign: {}.", new_account::sign_meaning(account.kind)),
                "- This cannot be undone here: YNAB's API cannot delete or close an account; to remove it, close it in YNAB's app.".to_string(),
            ],
        );
        let subject = json!({"account": {"name": account.name, "type": account.kind,
            "balance": account.balance, "on_budget": account.on_budget}});
        let change = AccountChange {
            account,
            shown_name,
            account_id: None,
        };
        Ok(Prepared::change(snapshot.id(), subject, question, change))
    }

    fn intent_details(&self, change: &AccountChange) -> Value {
        // The type, and the name as a salted digest only (D31): an interrupted creation is
        // recognised by it among the plan's accounts.
        let salt = crate::random::hex::<16>();
        let account = &change.account;
        to_details(&AccountIntended {
            kind: Some(account.kind.to_string()),
            on_budget: Some(account.on_budget),
            name_digest: crate::logic::created::name_digest(Some(&salt), &account.name),
            digest_salt: Some(salt),
        })
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<AccountChange>,
    ) -> Result<Written<AccountChange>, WriteFailure> {
        let change = &proposal.change;
        let a = &change.account;
        let saved = context
            .plans
            .client()
            .create_account(&proposal.plan_id, &a.name, a.kind, a.balance)
            .await?;
        let id = saved.account.id;
        Ok(Written {
            draft: JournalDraft {
                details: to_details(&AccountCreated {
                    account_id: Some(id.to_string()),
                    kind: Some(a.kind.to_string()),
                    on_budget: Some(a.on_budget),
                }),
                undoable: Some(false),
                reason: Some(NOT_UNDOABLE.to_string()),
                ..JournalDraft::default()
            },
            applied: Some(AccountChange {
                account_id: Some(id),
                ..change.clone()
            }),
        })
    }

    fn details(&self, change: &AccountChange) -> AccountDetails {
        AccountDetails {
            account_id: change.account_id.clone(),
            name: change.shown_name.clone(),
            account_type: change.account.kind.to_string(),
            on_budget: change.account.on_budget,
            balance: Amount(change.account.balance),
        }
    }

    fn applied_message(&self, change: &AccountChange, operation_id: Option<&str>) -> String {
        let id = change.account_id.as_deref().map(|id| format!(" ({id})"));
        let done = format!(
            "Account ‘{}’ created{}.",
            change.shown_name,
            id.unwrap_or_default()
        );
        applied(&done, Self::UNDO, operation_id)
    }
}
