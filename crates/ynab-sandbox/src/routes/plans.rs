//! Plans: the user, the plan list (`include_accounts`), the full plan export `GET /plans/{id}`
//! with its delta form, and the plan's settings.
//!
//! The export uses YNAB's flat `*Base` shapes. In a delta (`last_knowledge_of_server=k`) every
//! list holds the entities changed after `k`, deleted ones included; a month appears when its
//! totals or any of its category rows changed, carrying only the changed rows; split lines come
//! with their changed transaction. Without `k`, deleted entities are left out.
//!
//! `default_plan` is null (default plan selection is an OAuth feature), although `default` is
//! accepted as a plan id. `last_modified_on` stays as loaded: the sandbox has no clock, and its
//! "today" is fixed (D21), so writes do not move it (*chosen*).

use super::{Naming, Params, ok, read, read_figures, to_json};
use crate::compute;
use crate::derived::Derived;
use crate::error::ApiResult;
use crate::knowledge::{Kind, Since, month_category};
use crate::server::AppState;
use crate::state::PlanState;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::cell::OnceCell;
use std::collections::HashSet;
use ynab::models::{
    Month, Payee, PlanDetail, PlanSummary, ScheduledSubTransaction, ScheduledTransactionSummary,
    SubTransaction, TransactionSummary,
};

/// `GET /user`: the OAuth user the token acts as, or the sandbox's one user for any other token.
pub(crate) async fn user() -> Response {
    let id = match crate::oauth::current_user() {
        Some(user) => user.id.clone(),
        None => crate::ids::id("sandbox-user"),
    };
    ok(json!({"user": {"id": id}}))
}

/// `GET /plans` (`/budgets`): the token's plans, the last used first, each with its accounts when
/// `include_accounts=true`. An OAuth user's token lists their plans, in the order they were given.
pub(crate) async fn list(
    State(state): State<AppState>,
    params: Params,
    naming: Naming,
) -> ApiResult<Response> {
    let include_accounts = params.flag("include_accounts")?;
    let shared = crate::server::lock(&state);
    let all: Vec<&PlanState> = std::iter::once(&shared.plan)
        .chain(shared.others.iter())
        .collect();
    let plans: Vec<&PlanState> = match crate::oauth::current_user() {
        None => all,
        Some(user) => user
            .plan_ids
            .iter()
            .filter_map(|id| all.iter().find(|plan| &plan.id == id).copied())
            .collect(),
    };
    let entries: Vec<Value> = plans
        .into_iter()
        .map(|plan| {
            let mut entry = to_json(&summary(plan));
            if include_accounts && let Value::Object(map) = &mut entry {
                let accounts: Vec<_> = compute::accounts(plan)
                    .into_iter()
                    .filter(|a| !a.deleted)
                    .collect();
                map.insert("accounts".into(), to_json(&accounts));
            }
            entry
        })
        .collect();
    Ok(ok(match naming {
        Naming::Plans => json!({"plans": entries, "default_plan": null}),
        Naming::Budgets => json!({"budgets": entries, "default_budget": null}),
    }))
}

/// `GET /plans/{plan_id}` (`/budgets/{budget_id}`): the full export, or its delta.
///
/// The full export's JSON is computed once per knowledge (`Derived::export_json`) and written
/// around here as `serde_json` would write `{"data": {"plan": …, "server_knowledge": k}}`
/// (members in order, no spaces); a delta is built from the cached figures, entity by entity.
pub(crate) async fn export_route(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
    params: Params,
    naming: Naming,
) -> ApiResult<Response> {
    let since = params.since()?;
    read_figures(&state, &plan_id, |plan, derived| {
        let k = plan.server_knowledge;
        if !since.is_delta() {
            let detail = derived.export_json(plan);
            let member = match naming {
                Naming::Plans => "plan",
                Naming::Budgets => "budget",
            };
            let mut body = Vec::with_capacity(detail.len() + 64);
            body.extend_from_slice(b"{\"data\":{\"");
            body.extend_from_slice(member.as_bytes());
            body.extend_from_slice(b"\":");
            body.extend_from_slice(detail.as_bytes());
            body.extend_from_slice(format!(",\"server_knowledge\":{k}}}}}").as_bytes());
            return Ok((
                [(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                )],
                body,
            )
                .into_response());
        }
        let detail = to_json(&export_from(plan, derived, since));
        Ok(ok(match naming {
            Naming::Plans => json!({"plan": detail, "server_knowledge": k}),
            Naming::Budgets => json!({"budget": detail, "server_knowledge": k}),
        }))
    })
}

pub(crate) async fn settings(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
) -> ApiResult<Response> {
    read(&state, &plan_id, |plan| {
        Ok(ok(json!({"settings": {
            "date_format": plan.date_format,
            "currency_format": plan.currency_format,
        }})))
    })
}

/// The plan as `GET /plans` lists it.
pub fn summary(plan: &PlanState) -> PlanSummary {
    PlanSummary {
        id: plan.id.clone(),
        name: plan.name.clone(),
        last_modified_on: Some(plan.last_modified_on.clone()),
        first_month: Some(plan.first_month.format("%Y-%m-01").to_string()),
        last_month: Some(plan.last_month.format("%Y-%m-01").to_string()),
        date_format: Some(plan.date_format.clone()),
        currency_format: Some(plan.currency_format.clone()),
    }
}

/// The whole plan in the flat shape of YNAB's `PlanDetail` (deleted entities left out).
pub fn export(plan: &PlanState) -> PlanDetail {
    export_since(plan, Since(None))
}

/// The export, or with `since` its delta (see the module doc).
pub fn export_since(plan: &PlanState, since: Since) -> PlanDetail {
    export_from(plan, &Derived::compute(plan), since)
}

/// [`export_since`] from figures already computed for `plan` (`derived` must be `plan`'s). A
/// delta costs what it holds: transactions are looked at only when stamped after `since`.
pub fn export_from(plan: &PlanState, derived: &Derived, since: Since) -> PlanDetail {
    // With a knowledge sent, only stamped transactions can be in the delta.
    let changed = since
        .0
        .and_then(|k| plan.stamps.changed_after(Kind::Transaction, k));
    // Names are looked up only when a transaction or a schedule is served; searched for a
    // delta of a few transactions (building the maps of thousands of payees costs more).
    let names = OnceCell::new();
    let names = || {
        names.get_or_init(|| match &changed {
            Some(changed) if changed.len() <= 32 => compute::Names::few(plan),
            _ => compute::Names::of(plan),
        })
    };
    let mut subtransactions: Vec<SubTransaction> = Vec::new();
    // The rows to look at, in stored order: every one, or those of the changed ids.
    let rows = stored_order(&plan.transactions, changed.as_ref(), |id| {
        derived.position(plan, id)
    });
    let transactions: Vec<TransactionSummary> = rows
        .into_iter()
        .filter(|t| since.keeps(plan, Kind::Transaction, &t.id, t.deleted))
        .map(|t| {
            subtransactions.extend(
                t.subtransactions
                    .iter()
                    .filter(|s| since.is_delta() || !s.deleted)
                    .map(|s| names().line(s)),
            );
            TransactionSummary::from(t.clone())
        })
        .collect();
    let (scheduled, scheduled_subtransactions) = served_scheduled(plan, since, names);
    let months = served_months(plan, derived, since);
    let summary = summary(plan);
    PlanDetail {
        id: summary.id,
        name: summary.name,
        last_modified_on: summary.last_modified_on,
        first_month: summary.first_month,
        last_month: summary.last_month,
        date_format: summary.date_format,
        currency_format: summary.currency_format,
        accounts: derived
            .accounts
            .iter()
            .filter(|a| since.keeps(plan, Kind::Account, &a.id, a.deleted))
            .cloned()
            .collect(),
        // A plan may hold a payee per payment: a delta looks only at the stamped ones.
        payees: served_payees(plan, derived, since),
        payee_locations: Vec::new(),
        category_groups: plan
            .groups
            .iter()
            .filter(|g| since.keeps(plan, Kind::Group, &g.id, g.deleted))
            .cloned()
            .collect(),
        categories: derived
            .current_categories
            .iter()
            .filter(|c| since.keeps(plan, Kind::Category, &c.id, c.deleted))
            .cloned()
            .collect(),
        months,
        transactions,
        subtransactions,
        scheduled_transactions: scheduled,
        scheduled_subtransactions,
    }
}

/// The schedules served, named, and their lines.
fn served_scheduled<'p, 'n>(
    plan: &'p PlanState,
    since: Since,
    names: impl Fn() -> &'n compute::Names<'p>,
) -> (
    Vec<ScheduledTransactionSummary>,
    Vec<ScheduledSubTransaction>,
)
where
    'p: 'n,
{
    let mut scheduled_subtransactions = Vec::new();
    let scheduled: Vec<ScheduledTransactionSummary> = plan
        .scheduled
        .iter()
        .filter(|s| since.keeps(plan, Kind::Scheduled, &s.id, s.deleted))
        .map(|s| names().scheduled(s))
        .map(|s| {
            scheduled_subtransactions.extend(
                s.subtransactions
                    .iter()
                    .filter(|l| since.is_delta() || !l.deleted)
                    .cloned(),
            );
            ScheduledTransactionSummary::from(s)
        })
        .collect();
    (scheduled, scheduled_subtransactions)
}

/// The months served, each with the categories a delta includes.
fn served_months(plan: &PlanState, derived: &Derived, since: Since) -> Vec<Month> {
    derived
        .served
        .iter()
        .zip(&derived.months)
        .filter(|(m, _)| since.0.is_none_or(|k| plan.stamps.of(Kind::Month, m) > k))
        .map(|(m, month)| Month {
            categories: month.categories.as_ref().map(|categories| {
                categories
                    .iter()
                    .filter(|c| {
                        since.keeps(
                            plan,
                            Kind::MonthCategory,
                            &month_category(m, &c.id),
                            c.deleted,
                        )
                    })
                    .cloned()
                    .collect()
            }),
            ..month.clone()
        })
        .collect()
}

/// The payees served, in stored order: every one, or a delta's stamped ones.
fn served_payees(plan: &PlanState, derived: &Derived, since: Since) -> Vec<Payee> {
    stored_order(
        &plan.payees,
        since
            .0
            .and_then(|k| plan.stamps.changed_after(Kind::Payee, k))
            .as_ref(),
        |id| derived.payee_position(plan, id),
    )
    .into_iter()
    .filter(|p| since.keeps(plan, Kind::Payee, &p.id, p.deleted))
    .cloned()
    .collect()
}

/// The entities of `list` in stored order: all of them, or with `ids` those ids name
/// (`position` says where each is).
fn stored_order<'a, T>(
    list: &'a [T],
    ids: Option<&HashSet<&str>>,
    position: impl Fn(&str) -> Option<usize>,
) -> Vec<&'a T> {
    let Some(ids) = ids else {
        return list.iter().collect();
    };
    let mut at: Vec<usize> = ids.iter().filter_map(|id| position(id)).collect();
    at.sort_unstable();
    at.dedup();
    at.into_iter().filter_map(|i| list.get(i)).collect()
}

/// A transaction in the export's flat `TransactionSummaryBase` shape.
pub fn summary_of(t: ynab::models::Transaction) -> TransactionSummary {
    t.into()
}
