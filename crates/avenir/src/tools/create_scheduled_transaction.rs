//! `create_scheduled_transaction` (`docs/writes/scheduled_transactions.md`): create one
//! scheduled transaction in one confirmed step; `undo_operation` deletes it.

use super::scheduled_writes::{FieldArgs, asked_of};
use super::{ConfirmedTool, PlanId, ToolError};
use crate::args::{Date, MemberText, Money};
use crate::confirm::{
    ConfirmedWrite, JournalDraft, Prepared, Proposal, Undoable, WriteFailure, Written,
};
use crate::context::Context;
use crate::logic::names::PlanNames;
use crate::logic::schedules::{ScheduleAsked, plan_create, save_digest};
use crate::logic::undo::record::to_details;
use crate::logic::undo::schedules::ScheduleCreated;
use crate::money::{Amount, MoneyFormat};
use crate::plan_store::PlanSnapshot;
use crate::text::safe;
use chrono::NaiveDate;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use std::sync::Arc;
use ynab::writes::ScheduleSave;

/// `create_scheduled_transaction`, its arguments read.
#[derive(Debug, Clone)]
pub struct CreateScheduledTransaction {
    today: NaiveDate,
    asked: ScheduleAsked,
}

crate::tool_args! {
    /// The arguments of `create_scheduled_transaction`.
    pub struct CreateScheduledArgs {
        pub plan_id: Option<PlanId>,
        /// From list_accounts.
        #[give = "an account_id from list_accounts"]
        pub account_id: String,
        /// The first one: after today, within five years.
        #[give = "the first occurrence, YYYY-MM-DD, after today"]
        pub date: Date,
        /// YNAB's: never (once), weekly, everyOtherWeek, monthly, yearly, etc.
        #[give = "one of YNAB's frequencies, e.g. monthly"]
        pub frequency: String,
        #[give = "the amount in currency units, negative for money out"]
        pub amount: Money,
        /// From list_payees.
        pub payee_id: Option<String>,
        /// Exact name; a new one is created.
        pub payee_name: Option<MemberText<1, 200>>,
        /// Makes it a transfer to this account.
        pub transfer_account_id: Option<String>,
        /// From get_category_balances.
        pub category_id: Option<String>,
        pub memo: Option<MemberText<0, 500>>,
        /// red, orange, yellow, green, blue or purple.
        pub flag: Option<String>,
    }
}

// The fields of `create_scheduled_transaction`'s answer, whatever its status.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ScheduleCreateDetails {
    /// The new schedule's id, once created.
    pub scheduled_transaction_id: Option<String>,
    pub date_next: String,
    pub frequency: String,
    pub payee: String,
    pub amount: Amount,
    pub account: String,
    /// The category's name, or null for none.
    pub category: Option<String>,
}

/// What `create_scheduled_transaction` proposes.
#[derive(Debug, Clone)]
pub struct ScheduleCreation {
    save: ScheduleSave,
    details: ScheduleCreateDetails,
    knowledge: i64,
}

impl ConfirmedTool for CreateScheduledTransaction {
    const TITLE: &'static str = "Create a scheduled transaction";
    const DESTRUCTIVE: bool = false;
    type Args = CreateScheduledArgs;
    type Details = ScheduleCreateDetails;

    fn description(_writes: bool) -> String {
        "Create a scheduled transaction (a bill, salary or transfer to come). Refused: a credit-card \
payment category, or a category on a transfer between budget accounts. The user sees it \
and confirms. undo_operation deletes it."
            .to_string()
    }

    fn from_args(args: CreateScheduledArgs, today: NaiveDate) -> Result<Self, ToolError> {
        let asked = asked_of(FieldArgs {
            date: Some(args.date.0.format("%Y-%m-%d").to_string()),
            frequency: Some(args.frequency),
            amount: Some(args.amount.0),
            payee_id: args.payee_id,
            payee_name: args.payee_name.map(|n| n.0),
            transfer_account_id: args.transfer_account_id,
            category_id: args.category_id,
            memo: args.memo.map(|m| m.0),
            account_id: Some(args.account_id),
            flag: args.flag,
        })?;
        Ok(CreateScheduledTransaction { today, asked })
    }
}

impl ConfirmedWrite for CreateScheduledTransaction {
    type Change = ScheduleCreation;
    const TOOL: &'static str = "create_scheduled_transaction";
    const KIND: crate::logic::undo::Kind = crate::logic::undo::Kind::ScheduleCreate;
    const APPLIED: &'static str = "Created.";
    const UNDO: Undoable = Undoable::Yes("deletes it");

    async fn prepare(
        &self,
        _context: &Context,
        snapshot: Arc<PlanSnapshot>,
    ) -> Result<Prepared<ScheduleCreation>, ToolError> {
        let plan = &snapshot.plan;
        let fmt = MoneyFormat::of(plan.currency_format.as_ref());
        let save = plan_create(&self.asked, plan, self.today)?;
        let names = PlanNames::new(plan);
        let payee = match (&save.payee_id, &save.payee_name) {
            (Some(id), _) => format!("‘{}’", safe(names.payee(Some(id)))),
            (None, Some(name)) => format!("‘{}’ (a new payee)", safe(name)),
            (None, None) => "no payee".to_string(),
        };
        let category = save.category_id.as_deref().map(|id| {
            safe(
                plan.categories
                    .iter()
                    .find(|c| c.id == id)
                    .map_or(id, |c| c.name.as_str()),
            )
        });
        let account = safe(names.account(&save.account_id));
        let mut line = format!(
            "- from {}, {}, {payee}, {}, {}",
            save.date,
            save.frequency,
            fmt.plain(save.amount),
            match &category {
                Some(c) => format!("category {c}"),
                None => "no category".to_string(),
            }
        );
        if let Some(memo) = &save.memo {
            line.push_str(&format!(", memo ‘{}’", safe(memo)));
        }
        if let Some(flag) = &save.flag_color {
            line.push_str(&format!(", flag {flag}"));
        }
        let question = crate::confirm::question(
            format!("Create a scheduled transaction on {account}? (undo_operation deletes it.)"),
            vec![line],
        );
        let details = ScheduleCreateDetails {
            scheduled_transaction_id: None,
            date_next: save.date.clone(),
            frequency: save.frequency.clone(),
            payee,
            amount: Amount(save.amount),
            account,
            category,
        };
        let subject = json!({"create_schedule": save});
        let change = ScheduleCreation {
            save,
            details,
            knowledge: snapshot.server_knowledge,
        };
        Ok(Prepared::change(snapshot.id(), subject, question, change))
    }

    /// D31: what is sent only as a salted digest, with the knowledge before: an interrupted
    /// creation is recognised among the schedules changed since.
    fn intent_details(&self, change: &ScheduleCreation) -> Value {
        let salt = crate::random::hex::<16>();
        to_details(&ScheduleCreated {
            scheduled_transaction_id: None,
            item_digest: Some(save_digest(&salt, &change.save)),
            digest_salt: Some(salt),
            server_knowledge: Some(change.knowledge),
        })
    }

    async fn write(
        &self,
        context: &Context,
        proposal: &Proposal<ScheduleCreation>,
    ) -> Result<Written<ScheduleCreation>, WriteFailure> {
        let change = &proposal.change;
        let saved = context
            .plans
            .client()
            .create_scheduled_transaction(&proposal.plan_id, &change.save)
            .await?;
        let id = saved.scheduled_transaction.id;
        let draft = JournalDraft {
            details: to_details(&ScheduleCreated {
                scheduled_transaction_id: Some(id.clone()),
                item_digest: None,
                digest_salt: None,
                server_knowledge: None,
            }),
            ..JournalDraft::default()
        };
        let mut applied = change.clone();
        applied.details.scheduled_transaction_id = Some(id);
        Ok(Written {
            draft,
            applied: Some(applied),
        })
    }

    fn details(&self, change: &ScheduleCreation) -> ScheduleCreateDetails {
        change.details.clone()
    }
}
