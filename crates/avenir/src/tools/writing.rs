//! The write tools' entry: parse the arguments, then hand the change to `confirm::run` (or, for
//! `approve_transactions`, apply it at once). Listed only when `AVENIR_MCP_WRITE=1`.

use super::{Outcome, ToolSpec};
use crate::args::Args;
use crate::confirm::{AskContext, ConfirmedWrite, Finished, run};
use crate::context::Context;
use serde_json::{Map, Value};

/// The write tools of this build.
pub fn specs() -> Vec<ToolSpec> {
    vec![
        super::categorize::spec(),
        super::budget::set_budget_spec(),
        super::budget::move_money_spec(),
        super::approve::spec(),
        super::category_writes::create_spec(),
        super::category_writes::update_spec(),
        super::create::spec(),
        super::import::spec(),
        super::flags::spec(),
        super::payee_rename::spec(),
        super::reconcile::spec(),
        super::split::spec(),
        super::target::spec(),
        super::undo::spec(),
    ]
}

/// Run the write tool `name`. `arguments` are the call's; `ask` says how this request can ask.
pub async fn call(
    context: &Context,
    name: &str,
    arguments: Map<String, Value>,
    mut ask: AskContext,
) -> Finished {
    if name == "approve_transactions" {
        return match super::approve::run(context, Args::new(arguments)).await {
            Outcome::Answer { value, plan_id } => Finished::Result { value, plan_id },
            Outcome::Error(message) => Finished::Error(message),
        };
    }
    let mut bound = arguments.clone();
    bound.remove("confirmation");
    ask.arguments = bound;
    let mut args = Args::new(arguments);
    let confirmation = match args.optional_string("confirmation", 0, 200) {
        Ok(code) => code,
        Err(error) => return Finished::Error(error.to_string()),
    };
    ask.confirmation = confirmation;
    let today = context.settings.today();
    match name {
        "apply_categories" => {
            drive(
                context,
                &ask,
                args,
                name,
                super::categorize::ApplyCategories::parse,
            )
            .await
        }
        "set_category_budget" => {
            drive(context, &ask, args, name, |a| {
                super::budget::SetBudget::parse(a, today)
            })
            .await
        }
        "move_money" => {
            drive(context, &ask, args, name, |a| {
                super::budget::MoveMoney::parse(a, today)
            })
            .await
        }
        "undo_operation" => drive(context, &ask, args, name, super::undo::Undo::parse).await,
        "reconcile_account" => {
            drive(context, &ask, args, name, |a| {
                super::reconcile::ReconcileAccount::parse(a, today)
            })
            .await
        }
        "split_transaction" => {
            drive(
                context,
                &ask,
                args,
                name,
                super::split::SplitTransaction::parse,
            )
            .await
        }
        "set_category_target" => {
            drive(context, &ask, args, name, super::target::SetTarget::parse).await
        }
        "flag_transactions" => {
            drive(
                context,
                &ask,
                args,
                name,
                super::flags::FlagTransactions::parse,
            )
            .await
        }
        "rename_payee" => {
            drive(
                context,
                &ask,
                args,
                name,
                super::payee_rename::RenamePayee::parse,
            )
            .await
        }
        "create_transactions" => {
            drive(
                context,
                &ask,
                args,
                name,
                super::create::CreateTransactions::parse,
            )
            .await
        }
        "import_transactions" => {
            drive(
                context,
                &ask,
                args,
                name,
                super::import::ImportTransactions::parse,
            )
            .await
        }
        "create_category" => {
            drive(
                context,
                &ask,
                args,
                name,
                super::category_writes::CreateCategory::parse,
            )
            .await
        }
        "update_category" => {
            drive(
                context,
                &ask,
                args,
                name,
                super::category_writes::UpdateCategory::parse,
            )
            .await
        }
        other => Finished::Error(format!("Unknown tool {other}.")),
    }
}

async fn drive<W: ConfirmedWrite + Sync>(
    context: &Context,
    ask: &AskContext,
    mut args: Args,
    name: &str,
    parse: impl FnOnce(&mut Args) -> Result<W, String>,
) -> Finished {
    let write = match parse(&mut args) {
        Ok(write) => write,
        Err(message) => return Finished::Error(message),
    };
    if let Err(error) = args.finish(name) {
        return Finished::Error(error.to_string());
    }
    run(context, ask, &write).await
}
