//! Payees: the list (with its delta), one payee, creating one and renaming one; and payee
//! locations, which the sandbox never has (the lists are empty, a location id is a 404).
//!
//! # Rules
//!
//! Names are 1–500 characters and need not be unique (YNAB allows duplicates). A transfer payee
//! (`Transfer : {account}`) belongs to its account and cannot be renamed: 400 (*chosen*).

use super::{Params, created, ok, read, write};
use crate::body::{self, Fields, PAYEE_MAX};
use crate::error::{ApiError, ApiResult};
use crate::knowledge::Kind;
use crate::server::AppState;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use serde_json::json;
use ynab::models::Payee;

pub(crate) async fn list(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
    params: Params,
) -> ApiResult<Response> {
    let since = params.since()?;
    read(&state, &plan_id, |plan| {
        let payees: Vec<&Payee> = plan
            .payees
            .iter()
            .filter(|p| since.keeps(plan, Kind::Payee, &p.id, p.deleted))
            .collect();
        Ok(ok(
            json!({"payees": payees, "server_knowledge": plan.server_knowledge}),
        ))
    })
}

pub(crate) async fn get_one(
    State(state): State<AppState>,
    Path((plan_id, payee_id)): Path<(String, String)>,
) -> ApiResult<Response> {
    read(&state, &plan_id, |plan| {
        let payee = plan
            .payees
            .iter()
            .find(|p| p.id == payee_id && !p.deleted)
            .ok_or(ApiError::NotFound)?;
        Ok(ok(json!({"payee": payee})))
    })
}

fn payee_name(value: &serde_json::Value) -> ApiResult<String> {
    let f = Fields::wrapped(value, "payee")?;
    let name = f.required("name", f.string("name", PAYEE_MAX)?)?;
    if name.trim().is_empty() {
        return Err(f.fail("name", "must not be blank"));
    }
    Ok(name)
}

/// `POST /payees`.
pub(crate) async fn create(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
    bytes: Bytes,
) -> ApiResult<Response> {
    let name = payee_name(&body::parse_json(&bytes)?)?;
    write(
        &state,
        &plan_id,
        |plan| {
            let payee = Payee {
                id: plan.new_id("payee").into(),
                name: name.into(),
                transfer_account_id: None,
                deleted: false,
            };
            plan.payees.push(payee.clone());
            let written = vec![(Kind::Payee, payee.id.to_string())];
            Ok((payee, written))
        },
        |plan, payee| created(json!({"payee": payee, "server_knowledge": plan.server_knowledge})),
    )
}

/// `PATCH /payees/{payee_id}`: a rename.
pub(crate) async fn update(
    State(state): State<AppState>,
    Path((plan_id, payee_id)): Path<(String, String)>,
    bytes: Bytes,
) -> ApiResult<Response> {
    let name = payee_name(&body::parse_json(&bytes)?)?;
    write(
        &state,
        &plan_id,
        |plan| {
            let payee = plan
                .payees
                .iter_mut()
                .find(|p| p.id == payee_id && !p.deleted)
                .ok_or(ApiError::NotFound)?;
            if payee.transfer_account_id.is_some() {
                return Err(ApiError::bad(format!(
                    "payee '{payee_id}' is an account's transfer payee and cannot be renamed"
                )));
            }
            payee.name = name.into();
            Ok((payee.clone(), vec![(Kind::Payee, payee_id.clone())]))
        },
        |plan, payee| ok(json!({"payee": payee, "server_knowledge": plan.server_knowledge})),
    )
}

/// `GET /payee_locations`: none.
pub(crate) async fn locations(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
) -> ApiResult<Response> {
    read(&state, &plan_id, |_| Ok(ok(json!({"payee_locations": []}))))
}

/// `GET /payee_locations/{id}`: there are none, so 404.
pub(crate) async fn location(
    State(state): State<AppState>,
    Path((plan_id, _location_id)): Path<(String, String)>,
) -> ApiResult<Response> {
    read(&state, &plan_id, |_| Err(ApiError::NotFound))
}

/// `GET /payees/{payee_id}/payee_locations`: none (404 for an unknown payee).
pub(crate) async fn locations_of_payee(
    State(state): State<AppState>,
    Path((plan_id, payee_id)): Path<(String, String)>,
) -> ApiResult<Response> {
    read(&state, &plan_id, |plan| {
        if !plan.payees.iter().any(|p| p.id == payee_id && !p.deleted) {
            return Err(ApiError::NotFound);
        }
        Ok(ok(json!({"payee_locations": []})))
    })
}
