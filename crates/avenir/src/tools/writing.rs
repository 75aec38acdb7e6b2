//! The write tools not yet on typed arguments: their calls go through [`drive`], which reads the
//! `confirmation` code, parses the rest and hands the change to `confirm::run`.

use crate::args::Args;
use crate::confirm::{AskContext, ConfirmedWrite, Finished, run};
use crate::context::Context;
use chrono::NaiveDate;
use serde_json::{Map, Value};

/// Run the write `name` parsed by `parse` ("today" given) through the confirmation path.
pub async fn drive<W: ConfirmedWrite + Sync>(
    context: &Context,
    arguments: Map<String, Value>,
    mut ask: AskContext,
    name: &'static str,
    parse: impl FnOnce(&mut Args, NaiveDate) -> Result<W, String>,
) -> Finished {
    let mut bound = arguments.clone();
    bound.remove("confirmation");
    ask.arguments = bound;
    let check_plan = super::plan_left_out(&["plan_id"], &arguments);
    let mut args = Args::new(arguments);
    let confirmation = match args.optional_string("confirmation", 0, 200) {
        Ok(code) => code,
        Err(error) => return Finished::Error(error.to_string()),
    };
    ask.confirmation = confirmation;
    let write = match parse(&mut args, context.settings.today()) {
        Ok(write) => write,
        Err(message) => return Finished::Error(message),
    };
    if let Err(error) = args.finish(name) {
        return Finished::Error(error.to_string());
    }
    if check_plan && let Err(error) = super::require_one_plan(context).await {
        return Finished::Error(error.to_string());
    }
    run(context, &ask, &write).await
}
