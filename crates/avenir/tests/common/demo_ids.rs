//! The demo plan's ids as a client reads them through the read tools, and the arguments of each
//! write tool on them: shared by the output-schema table and the fault matrix.

#![allow(dead_code)]

use super::Harness;
use serde_json::{Value, json};
use std::collections::HashMap;

/// Ids of the demo plan, read through the read tools.
#[derive(Debug, Clone, Default)]
pub struct Ids {
    pub checking: String,
    pub checking_cleared: f64,
    pub groups: HashMap<String, String>,
    pub categories: HashMap<String, String>,
    pub budgeted: HashMap<String, f64>,
    pub rail_payee: String,
    pub rail_tx: String,
    /// A categorized, unsplit purchase on Checking, and its amount.
    pub to_split: (String, f64),
    /// A transaction to approve.
    pub to_approve: String,
    /// Pending transactions and the category suggested for each.
    pub suggested: Vec<(String, String)>,
    /// Two old categorized purchases on Checking no other case names: to delete.
    pub to_delete: Vec<String>,
    /// The raw SUSHI GO card labels (one payee each): to merge.
    pub sushi_payees: Vec<String>,
    /// TELCO MOBILE - PRELEV: four transactions and a schedule.
    pub phone_payee: String,
}

impl Ids {
    pub fn group(&self, name: &str) -> String {
        self.groups.get(name).cloned().unwrap_or_default()
    }
    pub fn category(&self, name: &str) -> String {
        self.categories.get(name).cloned().unwrap_or_default()
    }
}

pub fn plan() -> Value {
    json!("last-used")
}

pub fn budget(ids: &Ids) -> Value {
    json!({"plan_id": plan(), "month": "2026-09", "category_id": ids.category("Restaurants"), "amount": 150})
}
pub fn move_money(ids: &Ids) -> Value {
    json!({"plan_id": plan(), "month": "2026-09-01", "from_category_id": ids.category("Tennis"),
           "to_category_id": ids.category("Restaurants"), "amount": 30})
}
pub fn create_category(ids: &Ids) -> Value {
    json!({"plan_id": plan(), "category_group_id": ids.group("Everyday"), "name": "Pets"})
}
pub fn update_category(ids: &Ids) -> Value {
    json!({"plan_id": plan(), "category_id": ids.category("Tennis"), "name": "Sport"})
}
pub fn apply_categories(ids: &Ids) -> Value {
    let assignments: Vec<Value> = ids
        .suggested
        .iter()
        .take(2)
        .map(|(tx, cat)| json!({"transaction_id": tx, "category_id": cat}))
        .collect();
    json!({"plan_id": plan(), "assignments": assignments})
}
pub fn flag(ids: &Ids) -> Value {
    json!({"plan_id": plan(), "flags": [{"transaction_id": ids.rail_tx, "color": "red"}]})
}
pub fn rename(ids: &Ids) -> Value {
    json!({"plan_id": plan(), "payee_id": ids.rail_payee, "name": "Rail company"})
}
pub fn create_transactions(ids: &Ids) -> Value {
    json!({"plan_id": plan(), "account_id": ids.checking, "transactions": [
        {"date": "2026-09-21", "amount": -32.4, "payee_name": "Pharmacie Centrale"},
        {"date": "2026-09-23", "amount": -12.5, "payee_name": "Corner Shop", "category_id": ids.category("Groceries")}
    ]})
}
pub fn merge(ids: &Ids) -> Value {
    json!({"plan_id": plan(), "source_payee_ids": ids.sushi_payees, "target_name": "Sushi Go"})
}
/// `merge_categories`: Tennis (three charges, four months assigned) into Transport.
pub fn merge_categories(ids: &Ids) -> Value {
    json!({"plan_id": plan(), "source_category_id": ids.category("Tennis"),
           "target_category_id": ids.category("Transport")})
}
pub fn delete(ids: &Ids) -> Value {
    json!({"plan_id": plan(), "transaction_ids": ids.to_delete})
}
pub fn reconcile(ids: &Ids, bank: f64) -> Value {
    json!({"plan_id": plan(), "account_id": ids.checking, "bank_balance": bank})
}
pub fn target(ids: &Ids) -> Value {
    json!({"plan_id": plan(), "category_id": ids.category("Groceries"), "amount": 475})
}
pub fn split(ids: &Ids) -> Value {
    let (tx, amount) = &ids.to_split;
    let first = (amount * 50.0).round() / 100.0;
    let second = ((amount - first) * 100.0).round() / 100.0;
    json!({"plan_id": plan(), "transaction_id": tx, "lines": [
        {"amount": first, "category_id": ids.category("Groceries")},
        {"amount": second, "category_id": ids.category("Restaurants"), "memo": "half"}
    ]})
}
/// Read the demo plan's ids through the read tools.
pub async fn ids_of(h: &Harness) -> Ids {
    let mut ids = Ids::default();
    let accounts = h.ok("list_accounts", json!({"plan_id": plan()})).await;
    for account in list(&accounts["result"]) {
        if account["name"] == "Checking" {
            ids.checking = text(&account["id"]);
            ids.checking_cleared = account["cleared_balance"].as_f64().unwrap_or(0.0);
        }
    }
    let groups = h
        .ok("list_category_groups", json!({"plan_id": plan()}))
        .await;
    for group in list(&groups["result"]) {
        ids.groups.insert(text(&group["name"]), text(&group["id"]));
    }
    let balances = h
        .ok(
            "get_category_balances",
            json!({"plan_id": plan(), "month": "2026-09", "include_empty": true}),
        )
        .await;
    for category in list(&balances["result"]) {
        let name = text(&category["name"]);
        ids.budgeted.insert(
            name.clone(),
            category["budgeted"].as_f64().unwrap_or_default(),
        );
        ids.categories.insert(name, text(&category["category_id"]));
    }
    let payees = h
        .ok("list_payees", json!({"plan_id": plan(), "search": "rail"}))
        .await;
    ids.rail_payee = text(&payees["payees"][0]["payee_id"]);
    let found = h
        .ok(
            "find_transactions",
            json!({"plan_id": plan(), "since_date": "2026-06-01", "limit": 200}),
        )
        .await;
    let transactions = list(&found["transactions"]);
    let first = |keep: &dyn Fn(&Value) -> bool| {
        transactions
            .iter()
            .find(|t| keep(t))
            .cloned()
            .unwrap_or(Value::Null)
    };
    ids.rail_tx = text(&first(&|t| t["payee"] == "RAIL CO")["transaction_id"]);
    let to_split = first(&|t| {
        t["account"] == "Checking"
            && !t["category"].is_null()
            && t["split"] == false
            && t["amount"].as_f64().is_some_and(|a| a < -1.0)
            && !t["payee"].as_str().unwrap_or("").starts_with("Transfer")
    });
    ids.to_split = (
        text(&to_split["transaction_id"]),
        to_split["amount"].as_f64().unwrap_or_default(),
    );
    let unapproved = first(&|t| t["approved"] == false);
    ids.to_approve = if unapproved.is_null() {
        ids.rail_tx.clone()
    } else {
        text(&unapproved["transaction_id"])
    };
    let suggestions = h.ok("suggest_categories", json!({"plan_id": plan()})).await;
    ids.suggested = list(&suggestions["items"])
        .iter()
        .filter(|item| item["suggestion"].is_object())
        .map(|item| {
            (
                text(&item["transaction_id"]),
                text(&item["suggestion"]["category_id"]),
            )
        })
        .collect();
    let named = [&ids.rail_tx, &ids.to_split.0, &ids.to_approve];
    ids.to_delete = transactions
        .iter()
        .rev()
        .filter(|t| {
            t["account"] == "Checking"
                && !t["category"].is_null()
                && t["split"] == false
                && t["amount"].as_f64().is_some_and(|a| a < -1.0)
                && !t["payee"].as_str().unwrap_or("").starts_with("Transfer")
        })
        .map(|t| text(&t["transaction_id"]))
        .filter(|id| !named.contains(&id) && !ids.suggested.iter().any(|(s, _)| s == id))
        .take(2)
        .collect();
    let sushi = h
        .ok(
            "list_payees",
            json!({"plan_id": plan(), "search": "SUSHI GO"}),
        )
        .await;
    ids.sushi_payees = list(&sushi["payees"])
        .iter()
        .map(|p| text(&p["payee_id"]))
        .collect();
    let phone = h
        .ok(
            "list_payees",
            json!({"plan_id": plan(), "search": "TELCO MOBILE"}),
        )
        .await;
    ids.phone_payee = text(&phone["payees"][0]["payee_id"]);
    ids
}

pub fn list(value: &Value) -> Vec<Value> {
    value.as_array().cloned().unwrap_or_default()
}

pub fn text(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_string()
}

/// `apply_budget_plan`: October 2026 (nothing assigned on the demo), Groceries and Rent.
pub fn budget_plan(ids: &Ids) -> Value {
    json!({"plan_id": plan(), "month": "2026-10", "lines": [
        {"category_id": ids.category("Groceries"), "amount": 450},
        {"category_id": ids.category("Rent"), "amount": 950}
    ]})
}

/// `create_account`: a new credit card owing 500.00.
pub fn create_account() -> Value {
    json!({"plan_id": plan(), "name": "Visa", "account_type": "creditCard", "balance": -500})
}
