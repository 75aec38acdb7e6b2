//! `list_accounts` (`tools-read.md` §3): accounts with today's balances, bank-link health and the
//! date of the last reconciliation.

use super::{Outcome, ToolSpec, list_answer, list_schema, plan_id_schema, take_plan_id};
use crate::args::Args;
use crate::context::Context;
use crate::logic::accounts::{BankLink, bank_link, last_reconciled};
use crate::money::Amount;
use crate::text::safe;
use schemars::JsonSchema;
use serde::Serialize;

/// One account.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AccountEntry {
    /// Account id (the account_ids other tools take).
    pub id: String,
    /// Account name (bank-safe text).
    pub name: String,
    /// YNAB type: checking, savings, cash, creditCard, lineOfCredit, otherAsset, otherLiability,
    /// mortgage, autoLoan, studentLoan, personalLoan, medicalDebt, otherDebt.
    #[serde(rename = "type")]
    pub kind: String,
    /// False for a tracking account (its transactions take no category).
    pub on_budget: bool,
    /// Closed in YNAB.
    pub closed: bool,
    /// Balance of all its transactions.
    pub balance: Amount,
    /// The part the bank has shown.
    pub cleared_balance: Amount,
    /// The part the bank has not shown yet.
    pub uncleared_balance: Amount,
    /// healthy, broken (linked but in error: nothing new comes in until fixed in YNAB) or none.
    pub bank_link: BankLink,
    /// YYYY-MM-DD of the last reconciliation; null if never.
    pub last_reconciled: Option<String>,
}

pub fn spec() -> ToolSpec {
    ToolSpec {
        name: "list_accounts",
        title: "List accounts",
        description: |writes| {
            let reconcile = if writes {
                "reconcile_account compares one account with the balance the bank shows."
            } else {
                "Comparing an account with the bank is done in YNAB itself."
            };
            format!(
                "List a plan's accounts, closed ones included, with today's balances in currency units \
(cleared = what the bank has shown), the health of each bank link and the date of the last \
reconciliation: use it to tell the user about a broken bank link or an account not reconciled for \
months. The ids are the account_ids other tools take. {reconcile} Pass the plan id when there are \
several plans. Cost: ≤ 1 YNAB request once the plan is loaded (loading it the first time is 1 request). Changes nothing."
            )
        },
        input_schema: plan_id_schema,
        output_schema: list_schema::<AccountEntry>,
        read_only: true,
        idempotent: true,
        destructive: None,
    }
}

pub async fn run(context: &Context, mut args: Args) -> Outcome {
    let plan_id =
        match take_plan_id(&mut args).and_then(|p| args.finish("list_accounts").map(|_| p)) {
            Ok(plan_id) => plan_id,
            Err(error) => return error.into(),
        };
    let snapshot = match context.plans.read(&plan_id).await {
        Ok(snapshot) => snapshot,
        Err(error) => return error.into(),
    };
    let entries = snapshot
        .plan
        .accounts
        .iter()
        .filter(|a| !a.deleted)
        .map(|a| AccountEntry {
            id: a.id.clone(),
            name: safe(&a.name),
            kind: a.kind.clone(),
            on_budget: a.on_budget,
            closed: a.closed,
            balance: Amount(a.balance),
            cleared_balance: Amount(a.cleared_balance),
            uncleared_balance: Amount(a.uncleared_balance),
            bank_link: bank_link(a),
            last_reconciled: last_reconciled(a),
        })
        .collect();
    list_answer::<AccountEntry>(entries, Some(snapshot.id().to_string()))
}
