//! Categories and groups: the grouped list (with its delta), one category (current month or a
//! given month), creating and updating categories (name, group, note, target) and groups, and
//! setting a month's assigned amount.
//!
//! # Rules
//!
//! - A delta of `/categories` lists each group that changed or holds a changed category, with
//!   only its changed categories (deleted ones included).
//! - New categories go at the end of their group, new groups at the end; a moved category goes
//!   to the end of its new group. Names must not be blank; a group name is at most 50 characters.
//! - Internal groups and categories (`Internal Master Category`, `Inflow: Ready to Assign`) cannot
//!   be renamed, moved, given a target or assigned money, and an internal group cannot receive
//!   categories: 400 (*chosen*; the spec forbids internal groups as `category_group_id`).
//! - `PATCH /categories/{id}` ignores `budgeted` (as YNAB does); `name: null` leaves the name;
//!   `note: null` clears the note. Targets follow `crate::targets`.
//! - `PATCH /months/{month}/categories/{id}` sets the month's assigned amount (absolute) and
//!   ignores every other field; `current` and any date of a served month name that month.

use super::{Params, created, ok, read_figures, served_month, write};
use crate::body::{self, Fields, GROUP_NAME_MAX, NO_LIMIT, Patch};
use crate::compute;
use crate::derived::Derived;
use crate::error::{ApiError, ApiResult};
use crate::knowledge::{Kind, month_category};
use crate::server::AppState;
use crate::state::PlanState;
use crate::targets::TargetSave;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use serde_json::json;
use ynab::models::{Category, CategoryGroup, CategoryGroupWithCategories};

pub(crate) async fn list(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
    params: Params,
) -> ApiResult<Response> {
    let since = params.since()?;
    read_figures(&state, &plan_id, |plan, derived| {
        let categories = &derived.current_categories;
        let groups: Vec<CategoryGroupWithCategories> = plan
            .groups
            .iter()
            .filter_map(|group| {
                let inside: Vec<Category> = categories
                    .iter()
                    .filter(|c| c.category_group_id == group.id)
                    .filter(|c| since.keeps(plan, Kind::Category, &c.id, c.deleted))
                    .cloned()
                    .collect();
                let listed = match since.0 {
                    None => !group.deleted,
                    Some(k) => plan.stamps.of(Kind::Group, &group.id) > k || !inside.is_empty(),
                };
                listed.then(|| CategoryGroupWithCategories {
                    group: group.clone(),
                    categories: inside,
                })
            })
            .collect();
        Ok(ok(
            json!({"category_groups": groups, "server_knowledge": plan.server_knowledge}),
        ))
    })
}

/// A live category's figures for `month`.
fn category_in(plan: &PlanState, month: &str, id: &str) -> ApiResult<Category> {
    compute::month_categories(plan, month)
        .into_iter()
        .find(|c| c.id == id && !c.deleted)
        .ok_or(ApiError::NotFound)
}

fn current_category(plan: &PlanState, id: &str) -> ApiResult<Category> {
    category_in(plan, &compute::current_month(plan), id)
}

/// A live category's figures for the served `month`, from the cached figures.
fn cached_category<'a>(derived: &'a Derived, month: &str, id: &str) -> ApiResult<&'a Category> {
    let categories = match derived.month(month) {
        Some(m) => m.categories.as_deref().unwrap_or_default(),
        None if month == derived.current_month => &derived.current_categories,
        None => &[],
    };
    categories
        .iter()
        .find(|c| c.id == id && !c.deleted)
        .ok_or(ApiError::NotFound)
}

pub(crate) async fn get_one(
    State(state): State<AppState>,
    Path((plan_id, category_id)): Path<(String, String)>,
) -> ApiResult<Response> {
    read_figures(&state, &plan_id, |_, derived| {
        let category = cached_category(derived, &derived.current_month, &category_id)?;
        Ok(ok(json!({ "category": category })))
    })
}

pub(crate) async fn get_month(
    State(state): State<AppState>,
    Path((plan_id, month, category_id)): Path<(String, String, String)>,
) -> ApiResult<Response> {
    read_figures(&state, &plan_id, |plan, derived| {
        let month = served_month(plan, &month)?;
        let category = cached_category(derived, &month, &category_id)?;
        Ok(ok(json!({ "category": category })))
    })
}

/// The index of a live group that may hold categories (`field` names it in errors).
fn open_group(plan: &PlanState, f: &Fields<'_>, field: &str, id: &str) -> ApiResult<usize> {
    let index = plan
        .groups
        .iter()
        .position(|g| g.id == id && !g.deleted)
        .ok_or_else(|| f.fail(field, &format!("'{id}' does not exist")))?;
    if plan.groups[index].internal {
        return Err(f.fail(
            field,
            "names an internal category group, which cannot be used",
        ));
    }
    Ok(index)
}

/// Puts `category` at the end of its group in display order.
fn place(plan: &mut PlanState, category: Category) {
    let at = plan
        .categories
        .iter()
        .rposition(|c| c.category_group_id == category.category_group_id)
        .map(|i| i + 1)
        .unwrap_or(plan.categories.len());
    plan.categories.insert(at, category);
}

fn non_blank(f: &Fields<'_>, field: &str, value: Patch<String>) -> ApiResult<Patch<String>> {
    match &value {
        Patch::Set(text) if text.trim().is_empty() => Err(f.fail(field, "must not be blank")),
        _ => Ok(value),
    }
}

/// `POST /categories`.
pub(crate) async fn create(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
    bytes: Bytes,
) -> ApiResult<Response> {
    let value = body::parse_json(&bytes)?;
    let f = Fields::wrapped(&value, "category")?;
    let name = f.required("name", non_blank(&f, "name", f.string("name", NO_LIMIT)?)?)?;
    let group_id = f.required(
        "category_group_id",
        f.string("category_group_id", NO_LIMIT)?,
    )?;
    let note = f.string("note", NO_LIMIT)?.set();
    let target = TargetSave::read(&f)?;
    write(
        &state,
        &plan_id,
        |plan| {
            let group = open_group(plan, &f, "category_group_id", &group_id)?;
            let id = plan.new_id("category");
            let mut category = Category {
                id: id.clone().into(),
                category_group_id: group_id.clone().into(),
                category_group_name: Some(plan.groups[group].name.clone().into()),
                name: name.clone().into(),
                hidden: false,
                internal: false,
                original_category_group_id: None,
                note: note.clone().map(Into::into),
                budgeted: 0,
                activity: 0,
                balance: 0,
                deleted: false,
                ..Category::default()
            };
            target.apply(&mut category, &compute::current_month(plan))?;
            place(plan, category);
            Ok((id.clone(), vec![(Kind::Category, id)]))
        },
        |plan, id| {
            let category = current_category(plan, &id).ok();
            created(json!({"category": category, "server_knowledge": plan.server_knowledge}))
        },
    )
}

/// `PATCH /categories/{category_id}`.
pub(crate) async fn update(
    State(state): State<AppState>,
    Path((plan_id, category_id)): Path<(String, String)>,
    bytes: Bytes,
) -> ApiResult<Response> {
    let value = body::parse_json(&bytes)?;
    let f = Fields::wrapped(&value, "category")?;
    let name = non_blank(&f, "name", f.string("name", NO_LIMIT)?)?;
    let note = f.string("note", NO_LIMIT)?;
    let group_id = f.not_null(
        "category_group_id",
        f.string("category_group_id", NO_LIMIT)?,
    )?;
    let target = TargetSave::read(&f)?;
    write(
        &state,
        &plan_id,
        |plan| {
            let index = plan
                .categories
                .iter()
                .position(|c| c.id == category_id && !c.deleted)
                .ok_or(ApiError::NotFound)?;
            if plan.categories[index].internal {
                return Err(ApiError::bad(format!(
                    "category '{category_id}' is internal (managed by YNAB) and cannot be changed"
                )));
            }
            let current = compute::current_month(plan);
            let mut category = plan.categories.remove(index);
            if let Patch::Set(name) = name.clone() {
                category.name = name.into();
            }
            category.note = note
                .clone()
                .apply(category.note.take().map(String::from))
                .map(Into::into);
            target.apply(&mut category, &current)?;
            match &group_id {
                Some(group_id) if *group_id != category.category_group_id => {
                    let group = open_group(plan, &f, "category_group_id", group_id)?;
                    category.category_group_id = group_id.clone().into();
                    category.category_group_name = Some(plan.groups[group].name.clone().into());
                    place(plan, category);
                }
                _ => plan.categories.insert(index, category),
            }
            Ok(((), vec![(Kind::Category, category_id.clone())]))
        },
        |plan, ()| {
            let category = current_category(plan, &category_id).ok();
            ok(json!({"category": category, "server_knowledge": plan.server_knowledge}))
        },
    )
}

/// `PATCH /months/{month}/categories/{category_id}`: the month's assigned amount.
pub(crate) async fn update_month(
    State(state): State<AppState>,
    Path((plan_id, month, category_id)): Path<(String, String, String)>,
    bytes: Bytes,
) -> ApiResult<Response> {
    let value = body::parse_json(&bytes)?;
    let f = Fields::wrapped(&value, "category")?;
    let budgeted = f.required("budgeted", f.int("budgeted")?)?;
    write(
        &state,
        &plan_id,
        |plan| {
            let month = served_month(plan, &month)?;
            let category = plan
                .categories
                .iter()
                .find(|c| c.id == category_id && !c.deleted)
                .ok_or(ApiError::NotFound)?;
            if category.internal {
                return Err(ApiError::bad(format!(
                    "category '{category_id}' is internal (managed by YNAB): nothing can be assigned to it"
                )));
            }
            let key = (month.clone(), category_id.clone());
            if budgeted == 0 {
                plan.assigned.remove(&key);
            } else {
                plan.assigned.insert(key, budgeted);
            }
            let written = vec![
                (Kind::MonthCategory, month_category(&month, &category_id)),
                (Kind::Month, month.clone()),
            ];
            Ok((month, written))
        },
        |plan, month| {
            let category = category_in(plan, &month, &category_id).ok();
            ok(json!({"category": category, "server_knowledge": plan.server_knowledge}))
        },
    )
}

fn group_name(f: &Fields<'_>) -> ApiResult<String> {
    let name = f.string("name", GROUP_NAME_MAX)?;
    f.required("name", non_blank(f, "name", name)?)
}

/// `POST /category_groups`.
pub(crate) async fn create_group(
    State(state): State<AppState>,
    Path(plan_id): Path<String>,
    bytes: Bytes,
) -> ApiResult<Response> {
    let value = body::parse_json(&bytes)?;
    let f = Fields::wrapped(&value, "category_group")?;
    let name = group_name(&f)?;
    write(
        &state,
        &plan_id,
        |plan| {
            let id = plan.new_id("category_group");
            let group = CategoryGroup {
                id: id.clone(),
                name,
                hidden: false,
                internal: false,
                deleted: false,
            };
            plan.groups.push(group.clone());
            Ok((group, vec![(Kind::Group, id)]))
        },
        |plan, group| {
            created(json!({"category_group": group, "server_knowledge": plan.server_knowledge}))
        },
    )
}

/// `PATCH /category_groups/{category_group_id}`: a rename.
pub(crate) async fn update_group(
    State(state): State<AppState>,
    Path((plan_id, group_id)): Path<(String, String)>,
    bytes: Bytes,
) -> ApiResult<Response> {
    let value = body::parse_json(&bytes)?;
    let f = Fields::wrapped(&value, "category_group")?;
    let name = group_name(&f)?;
    write(
        &state,
        &plan_id,
        |plan| {
            let group = plan
                .groups
                .iter_mut()
                .find(|g| g.id == group_id && !g.deleted)
                .ok_or(ApiError::NotFound)?;
            if group.internal {
                return Err(ApiError::bad(format!(
                    "category group '{group_id}' is internal (managed by YNAB) and cannot be renamed"
                )));
            }
            group.name = name;
            Ok((group.clone(), vec![(Kind::Group, group_id.clone())]))
        },
        |plan, group| {
            ok(json!({"category_group": group, "server_knowledge": plan.server_knowledge}))
        },
    )
}
