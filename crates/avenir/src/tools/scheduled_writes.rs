//! What the three scheduled-transaction writes share (`docs/writes/scheduled_transactions.md`):
//! the field arguments read into `logic::schedules::ScheduleAsked`, a schedule's description,
//! and the I/O around `logic::undo::schedules` — the tombstone a `schedule_delete`'s undo reads,
//! the schedule an interrupted `schedule_create` made, and the undo's writes.

use crate::confirm::WriteFailure;
use crate::context::Context;
use crate::logic::flags::COLOURS;
use crate::logic::names::PlanNames;
use crate::logic::schedules::{PayeeAsked, ScheduleAsked, check_frequency};
use crate::logic::undo::schedules::ScheduleRevert;
use crate::money::MoneyFormat;
use crate::text::safe;
use crate::tool_error::ToolError;
use ynab::models::{PlanDetail, ScheduledTransactionSummary};

/// The field arguments as given (already typed), before their rules.
#[derive(Debug, Default)]
pub struct FieldArgs {
    pub date: Option<String>,
    pub frequency: Option<String>,
    pub amount: Option<i64>,
    pub payee_id: Option<String>,
    pub payee_name: Option<String>,
    pub transfer_account_id: Option<String>,
    pub category_id: Option<String>,
    pub memo: Option<String>,
    pub account_id: Option<String>,
    pub flag: Option<String>,
}

/// The field arguments read with their rules (one payee at most, the 13 frequencies, the six
/// colours or none, `category_id: "none"` removes the category, `memo: ""` removes the memo).
pub fn asked_of(args: FieldArgs) -> Result<ScheduleAsked, ToolError> {
    let payee = match (args.payee_id, args.payee_name, args.transfer_account_id) {
        (Some(id), None, None) => Some(PayeeAsked::Id(id)),
        (None, Some(name), None) => Some(PayeeAsked::Name(name)),
        (None, None, Some(account)) => Some(PayeeAsked::TransferTo(account)),
        (None, None, None) => None,
        _ => {
            return Err(
                "Give one of payee_id, payee_name or transfer_account_id, not several."
                    .to_string()
                    .into(),
            );
        }
    };
    if let Some(f) = &args.frequency {
        check_frequency("frequency", f)?;
    }
    let flag = match args.flag.as_deref() {
        None => None,
        Some("none") => Some(None),
        Some(colour) => match COLOURS.iter().copied().find(|c| *c == colour) {
            Some(c) => Some(Some(c)),
            None => {
                return Err(format!(
                    "flag must be 'red', 'orange', 'yellow', 'green', 'blue', 'purple' or 'none', got {}.",
                    crate::text::quoted(colour)
                )
                .into());
            }
        },
    };
    Ok(ScheduleAsked {
        date: args.date,
        frequency: args.frequency,
        amount: args.amount,
        payee,
        category_id: args.category_id.map(|c| Some(c).filter(|c| c != "none")),
        memo: args.memo.map(|m| Some(m).filter(|m| !m.is_empty())),
        account_id: args.account_id,
        flag,
    })
}

/// A schedule as a question's line lists it: next date, frequency, payee, amount, account,
/// category (every name safe).
pub fn listed(plan: &PlanDetail, fmt: &MoneyFormat, s: &ScheduledTransactionSummary) -> String {
    let names = PlanNames::new(plan);
    let category = match s.category_id.as_deref() {
        None => "no category".to_string(),
        Some(id) => match plan.categories.iter().find(|c| c.id == id) {
            Some(c) => format!("category {}", safe(&c.name)),
            None => format!("category {}", safe(id)),
        },
    };
    format!(
        "- next {}, {}, ‘{}’, {}, on {}, {category}",
        s.date_next,
        s.frequency,
        safe(names.payee(s.payee_id.as_deref())),
        fmt.plain(s.amount),
        safe(names.account(&s.account_id)),
    )
}

/// The undo's one write.
pub async fn undo_write(
    context: &Context,
    plan: &str,
    revert: &ScheduleRevert,
) -> Result<(), WriteFailure> {
    let client = context.plans.client();
    match revert {
        ScheduleRevert::Put { id, save } => {
            client.update_scheduled_transaction(plan, id, save).await?;
        }
        ScheduleRevert::Delete { id } => {
            client.delete_scheduled_transaction(plan, id).await?;
        }
        ScheduleRevert::Recreate { save, .. } => {
            client.create_scheduled_transaction(plan, save).await?;
        }
    }
    Ok(())
}
