//! `link_transfer` (`docs/writes/link_transfer.md`): make two existing transactions — an outflow
//! on one account and the inflow of the same amount on another — one YNAB transfer, keeping the
//! bank-imported side (else the outflow), its date and cleared state.
//!
//! YNAB has no endpoint to link two transactions (`docs/contract/server.md` §10.6): the kept side's
//! payee becomes the other account's transfer payee (YNAB makes the mirror), the mirror gets the
//! deleted side's cleared state, and the other, now redundant, transaction is deleted. The
//! journal keeps ids and the plan's knowledge only (D31): undo recreates the deleted side from
//! YNAB's record of it.

use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::Ids;
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written,
};
use crate::context::Context;
use crate::logic::links::{Link, LinkRefusal, MAX_DAYS_APART, plan_link};
use crate::logic::names::PlanNames;
use crate::logic::undo::{link::Linked, record::to_details};
use crate::money::{Amount, MoneyFormat};
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::writes::TransactionUpdate;

/// `link_transfer`, its arguments read.
#[derive(Debug)]
pub struct LinkTransfer {
    ids: Vec<String>,
}

crate::tool_args! {
    /// The arguments of `link_transfer`.
    pub struct LinkTransferArgs {
        pub plan_id: Option<PlanId>,
        /// Two, from find_transactions.
        #[give = "two transaction ids from find_transactions"]
        pub transaction_ids: Ids,
    }
}

// One side of the transfer, as the question shows it. (A plain comment: a doc comment would
// become the description of the field's schema.)
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LinkSide {
    pub transaction_id: String,
    pub date: String,
    pub payee: String,
    pub amount: Amount,
    pub account: String,
    pub cleared: String,
    /// Whether it came from the bank (it has an import id).
    pub imported: bool,
}

/// What `link_transfer` proposes.
#[derive(Debug, Clone)]
pub struct Linking {
    kept: LinkSide,
    deleted: LinkSide,
    transfer_payee_id: String,
    clears_category: bool,
    payee_before: Option<String>,
    category_before: Option<String>,
    knowledge: i64,
    /// The mirror YNAB made (once applied).
    mirror_id: Option<String>,
}

// The fields of `link_transfer`'s answer, whatever its status. (A plain comment: the struct is
// flattened into the answer, whose schema has no description.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct LinkDetails {
    /// The side kept, with its date and cleared state: it becomes the transfer (the
    /// bank-imported side, else the outflow); between two budget accounts it loses its category.
    pub kept: LinkSide,
    /// The side deleted: YNAB's mirror replaces it, with this side's cleared state.
    pub deleted: LinkSide,
    /// The transfer's other side YNAB made (once applied).
    pub mirror_id: Option<String>,
}

/// The question: the side kept, the side deleted and what each becomes.
fn question(link: &Link<'_>, (kept, deleted): (&LinkSide, &LinkSide), fmt: &MoneyFormat) -> String {
    let line = |s: &LinkSide, t: &ynab::models::TransactionSummary| {
        format!(
            "{} {} {} on {}, {}{}",
            s.date,
            s.payee,
            fmt.plain(t.amount),
            s.account,
            s.cleared,
            if s.imported { ", from the bank" } else { "" }
        )
    };
    let (from, to) = if link.kept.amount < 0 {
        (&kept.account, &deleted.account)
    } else {
        (&deleted.account, &kept.account)
    };
    let mut lines = vec![
        format!(
            "- kept: {}: it becomes the transfer, with its date and cleared state",
            line(kept, link.kept)
        ),
        format!(
            "- deleted: {}: YNAB's transfer makes its other side on {} instead ({} copied); its id{} is gone",
            line(deleted, link.other),
            deleted.account,
            deleted.cleared,
            if deleted.imported {
                " and its bank-import link"
            } else {
                ""
            }
        ),
    ];
    if link.clears_category && link.kept.category_id.is_some() {
        lines.push(
            "- the kept one's category is removed: a transfer between two budget accounts takes none"
                .to_string(),
        );
    }
    crate::confirm::question(
        format!(
            "Link 2 transactions as one transfer of {} from {from} to {to}? (undo_operation separates them again; the deleted one comes back with a new id and no bank-import link.)",
            fmt.plain(link.kept.amount.abs())
        ),
        lines,
    )
}

/// The subject: both sides' every field, and the transfer payee.
fn subject(link: &Link<'_>) -> Value {
    let fields = |t: &ynab::models::TransactionSummary| {
        json!([
            t.id,
            t.date,
            t.amount,
            t.account_id,
            t.payee_id,
            t.category_id,
            t.memo,
            t.cleared,
            t.approved,
            t.flag_color,
            t.import_id
        ])
    };
    json!({"link": {"kept": fields(link.kept), "deleted": fields(link.other),
                                  "transfer_payee_id": link.transfer_payee_id}})
}

impl ConfirmedTool for LinkTransfer {
    const TITLE: &'static str = "Link two transactions as a transfer";
    const DESTRUCTIVE: bool = true;
    type Args = LinkTransferArgs;
    type Details = LinkDetails;

    fn description(_writes: bool) -> String {
        "Link an outflow and the same amount's inflow on another account, ≤10 days apart, as one \
transfer: the bank-imported side stays, the other is deleted for YNAB's mirror. The user sees \
both and confirms. undo_operation separates them (new id, no bank-import link). Costs 4 requests."
            .to_string()
    }

    fn from_args(args: LinkTransferArgs, _today: NaiveDate) -> Result<Self, ToolError> {
        Ok(LinkTransfer {
            ids: args.transaction_ids.0,
        })
    }
}

/// The sentence of a refused link, amounts in the plan's format.
fn refusal(refused: LinkRefusal, fmt: &MoneyFormat) -> String {
    match refused {
        LinkRefusal::NotTwo(n) => format!(
            "{n} transaction(s) given: name exactly two, the outflow on one account and the inflow on the other."
        ),
        LinkRefusal::Twice(id) => {
            format!("Transaction {id} is named twice: name the two sides of the transfer.")
        }
        LinkRefusal::Unknown(id) => format!(
            "Transaction {id} is not in this plan: use a transaction_id from find_transactions."
        ),
        LinkRefusal::AlreadyTransfer(id) => format!(
            "Transaction {id} is already a transfer: only two ordinary transactions can be linked."
        ),
        LinkRefusal::Split(id) => format!(
            "Transaction {id} is a split: YNAB cannot make a split one side of a transfer between these accounts. Name an unsplit transaction."
        ),
        LinkRefusal::SameAccount(a, b) => format!(
            "Transactions {a} and {b} are on the same account: a transfer links two accounts."
        ),
        LinkRefusal::Amounts(a, x, b, y) => format!(
            "Transaction {a} is {} and {b} is {}: a transfer needs an outflow and an inflow of exactly the same amount.",
            fmt.plain(x),
            fmt.plain(y)
        ),
        LinkRefusal::TooFar(a, da, b, db, days) => format!(
            "Transaction {a} ({da}) and {b} ({db}) are {days} days apart: link only transactions at most {MAX_DAYS_APART} days apart."
        ),
    }
}

impl ConfirmedWrite for LinkTransfer {
    type Change = Linking;
    const TOOL: &'static str = "link_transfer";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::Link;
    const APPLIED: &'static str = "Linked as one transfer.";
    const UNDO: Undoable = Undoable::Yes(
        "separates them again; the deleted one comes back with a new id and without its bank-import link",
    );

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<Linking>, ToolError> {
        let plan = &snapshot.plan;
        let fmt = MoneyFormat::of(plan.currency_format.as_ref());
        let link = plan_link(plan, &self.ids).map_err(|r| ToolError::Refused(refusal(r, &fmt)))?;
        let names = PlanNames::new(plan);
        let side = |t: &ynab::models::TransactionSummary| LinkSide {
            transaction_id: t.id.clone().into(),
            date: t.date.clone().into(),
            payee: safe(names.payee(t.payee_id.as_deref())),
            amount: Amount(t.amount),
            account: safe(names.account(&t.account_id)),
            cleared: t.cleared.clone().into(),
            imported: t.import_id.is_some(),
        };
        let (kept, deleted) = (side(link.kept), side(link.other));
        let question = question(&link, (&kept, &deleted), &fmt);
        let subject = subject(&link);
        let change = Linking {
            kept,
            deleted,
            transfer_payee_id: link.transfer_payee_id.clone(),
            clears_category: link.clears_category,
            payee_before: link.kept.payee_id.clone().map(Into::into),
            category_before: link.kept.category_id.clone().map(Into::into),
            knowledge: snapshot.server_knowledge,
            mirror_id: None,
        };
        Ok(Prepared::change(snapshot.id(), subject, question, change))
    }

    /// D31: ids and the plan's knowledge (YNAB's record of the deleted side is read since).
    fn intent_details(&self, change: &Linking) -> Value {
        details(change)
    }

    /// The kept side's payee (and category), the mirror's cleared state, then the DELETE. A
    /// failure after the first says what is done and leaves the intent unfinished.
    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<Linking>,
    ) -> Result<Written<Linking>, WriteFailure> {
        let change = &proposal.change;
        let plan = proposal.plan_id.as_str();
        let client = context.plans.client();
        let kept_id = &change.kept.transaction_id;
        let deleted_id = &change.deleted.transaction_id;
        let update = TransactionUpdate {
            id: kept_id.clone(),
            payee_id: Some(Some(change.transfer_payee_id.clone())),
            category_id: change.clears_category.then_some(None),
            ..TransactionUpdate::default()
        };
        let saved = client.update_transactions(plan, &[update]).await?;
        let later = |failure: WriteFailure, done: &str, this: &str, rest: &str| {
            let state = match failure {
                WriteFailure::NothingChanged(_) => format!("{this} not done"),
                WriteFailure::Unknown(_) => format!("{this} may or may not be done"),
            };
            WriteFailure::Unknown(format!(
                "{} ({done}; {state}{rest}. undo_operation separates what was linked.)",
                failure.text()
            ))
        };
        let mirror = saved
            .transactions
            .iter()
            .chain(saved.transaction.iter())
            .find(|t| &t.id == kept_id)
            .and_then(|t| t.transfer_transaction_id.clone());
        let Some(mirror) = mirror else {
            return Err(WriteFailure::Unknown(format!(
                "YNAB's answer names no transfer made of {kept_id} (it is linked to the other account, or may be; {deleted_id} was not deleted. undo_operation separates what was linked.)"
            )));
        };
        let cleared = TransactionUpdate {
            id: mirror.clone(),
            cleared: Some(change.deleted.cleared.clone()),
            ..TransactionUpdate::default()
        };
        if let Err(error) = client.update_transactions(plan, &[cleared]).await {
            return Err(later(
                WriteFailure::from(error),
                &format!("{kept_id} is a transfer, its other side {mirror} made"),
                "the other side's cleared state",
                &format!("; not sent: the delete of {deleted_id}"),
            ));
        }
        if let Err(error) = client.delete_transaction(plan, deleted_id).await {
            return Err(later(
                WriteFailure::from(error),
                &format!(
                    "{kept_id} is a transfer, its other side {mirror} made and its cleared state copied"
                ),
                &format!("the delete of {deleted_id}"),
                "",
            ));
        }
        let applied = Linking {
            mirror_id: Some(mirror),
            ..change.clone()
        };
        Ok(Written {
            draft: JournalDraft {
                details: details(&applied),
                ..JournalDraft::default()
            },
            applied: Some(applied),
        })
    }

    fn details(&self, change: &Linking) -> LinkDetails {
        LinkDetails {
            kept: change.kept.clone(),
            deleted: change.deleted.clone(),
            mirror_id: change.mirror_id.clone(),
        }
    }
}

/// The journal's (and the intent's) details: ids, the kept side's payee and category before,
/// and the plan's knowledge (D31).
fn details(change: &Linking) -> Value {
    to_details(&Linked {
        kept_id: change.kept.transaction_id.clone(),
        payee_before: change.payee_before.clone(),
        category_before: change.category_before.clone(),
        transfer_payee_id: change.transfer_payee_id.clone(),
        deleted_id: change.deleted.transaction_id.clone(),
        mirror_id: change.mirror_id.clone(),
        server_knowledge: change.knowledge,
    })
}
