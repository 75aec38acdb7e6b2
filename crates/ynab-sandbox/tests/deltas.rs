//! `server_knowledge` and deltas: one counter per plan, every write raises it once and stamps
//! what it changed (derived figures included); `last_knowledge_of_server=k` returns exactly the
//! entities changed after `k`, deleted ones included. Examples first, then a property over
//! random sequences of writes.

use crate::common;

use common::*;
use proptest::prelude::*;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};

fn delta_ids(list: &Value) -> BTreeSet<String> {
    ids_of(list).into_iter().collect()
}

fn set(ids: &[String]) -> BTreeSet<String> {
    ids.iter().cloned().collect()
}

#[tokio::test]
async fn a_recategorisation_returns_the_transaction_its_category_and_its_months() {
    let api = Api::demo();
    let put = api
        .call(
            "PUT",
            &plan(&format!("/transactions/{}", id("tx-054"))),
            Some(json!({"transaction": {"category_id": id("cat-transport")}})),
        )
        .await;
    assert_eq!(put.data()["server_knowledge"], 2);
    let export = api.get(&plan("?last_knowledge_of_server=1")).await;
    assert_eq!(export["server_knowledge"], 2);
    let p = &export["plan"];
    assert_eq!(delta_ids(&p["transactions"]), set(&[id("tx-054")]));
    assert_eq!(p["accounts"], json!([]), "the balance did not move");
    assert_eq!(delta_ids(&p["categories"]), set(&[id("cat-transport")]));
    assert_eq!(p["payees"], json!([]));
    assert_eq!(p["scheduled_transactions"], json!([]));
    let months: Vec<&str> = p["months"]
        .as_array()
        .expect("months")
        .iter()
        .filter_map(|m| m["month"].as_str())
        .collect();
    assert_eq!(
        months.first(),
        Some(&"2026-09-01"),
        "earlier months did not change"
    );
    assert_eq!(
        months.len(),
        13,
        "September and every later month (carry-over, Ready to Assign)"
    );
    assert_eq!(
        delta_ids(&p["months"][0]["categories"]),
        set(&[id("cat-transport")])
    );
    // The same through the per-kind lists.
    let k = "?last_knowledge_of_server=1";
    assert_eq!(
        delta_ids(&api.get(&plan(&format!("/transactions{k}"))).await["transactions"]),
        set(&[id("tx-054")])
    );
    let groups = api.get(&plan(&format!("/categories{k}"))).await;
    assert_eq!(ids_of(&groups["category_groups"]), vec![id("grp-everyday")]);
    assert_eq!(
        ids_of(&groups["category_groups"][0]["categories"]),
        vec![id("cat-transport")]
    );
    assert_eq!(
        api.get(&plan(&format!("/months{k}"))).await["months"]
            .as_array()
            .map(Vec::len),
        Some(13)
    );
    // Nothing changed after 2.
    let later = api.get(&plan("?last_knowledge_of_server=2")).await;
    for list in [
        "accounts",
        "payees",
        "category_groups",
        "categories",
        "months",
        "transactions",
        "scheduled_transactions",
    ] {
        assert_eq!(later["plan"][list], json!([]), "{list}");
    }
}

#[tokio::test]
async fn deletions_come_back_as_tombstones_and_balances_as_changed_accounts() {
    let api = Api::demo();
    let transfer = api
        .call(
            "POST",
            &plan("/transactions"),
            Some(json!({"transaction": {"account_id": id("acc-checking"), "date": "2026-09-24", "amount": -50_000, "payee_id": id("pay-transfer-savings")}})),
        )
        .await;
    let t = transfer.data()["transaction"].clone();
    let (a, b) = (
        t["id"].as_str().expect("id").to_owned(),
        t["transfer_transaction_id"]
            .as_str()
            .expect("mirror")
            .to_owned(),
    );
    let after_create = transfer.data()["server_knowledge"].as_i64().expect("k");
    assert_eq!(after_create, 2);
    let accounts = api.get(&plan("/accounts?last_knowledge_of_server=1")).await;
    assert_eq!(
        delta_ids(&accounts["accounts"]),
        set(&[id("acc-checking"), id("acc-savings")])
    );
    assert_eq!(
        find(&accounts["accounts"], &id("acc-savings"))["balance"],
        650_000
    );

    let deleted = api
        .call("DELETE", &plan(&format!("/transactions/{b}")), None)
        .await;
    assert_eq!(deleted.data()["server_knowledge"], 3);
    let delta = api
        .get(&plan(&format!(
            "/transactions?last_knowledge_of_server={after_create}"
        )))
        .await;
    let rows = delta["transactions"].as_array().expect("rows");
    assert_eq!(
        delta_ids(&delta["transactions"]),
        set(&[a.clone(), b.clone()])
    );
    assert!(rows.iter().all(|r| r["deleted"] == true));
    let full = api.get(&plan("/transactions")).await;
    assert!(
        !delta_ids(&full["transactions"]).contains(&a),
        "a full read leaves deleted ones out"
    );
    // From 0: the whole plan, tombstones included.
    let everything = api
        .get(&plan("/transactions?last_knowledge_of_server=0"))
        .await;
    assert_eq!(
        everything["transactions"].as_array().map(Vec::len),
        Some(228)
    );

    let schedule = api
        .call(
            "DELETE",
            &plan(&format!("/scheduled_transactions/{}", id("sch-phone"))),
            None,
        )
        .await;
    assert_eq!(schedule.data()["scheduled_transaction"]["deleted"], true);
    assert_eq!(
        api.get(&plan("/scheduled_transactions")).await["server_knowledge"],
        4
    );
    let delta = api
        .get(&plan("/scheduled_transactions?last_knowledge_of_server=3"))
        .await;
    assert_eq!(
        delta_ids(&delta["scheduled_transactions"]),
        set(&[id("sch-phone")])
    );
    assert_eq!(delta["scheduled_transactions"][0]["deleted"], true);
    let export = api.get(&plan("?last_knowledge_of_server=3")).await;
    assert_eq!(
        delta_ids(&export["plan"]["scheduled_transactions"]),
        set(&[id("sch-phone")])
    );
}

#[tokio::test]
async fn a_payee_rename_returns_the_payee_and_the_transactions_naming_it() {
    let api = Api::demo();
    api.call(
        "PATCH",
        &plan(&format!("/payees/{}", id("pay-rail-co"))),
        Some(json!({"payee": {"name": "SNCF"}})),
    )
    .await
    .data();
    assert_eq!(
        delta_ids(&api.get(&plan("/payees?last_knowledge_of_server=1")).await["payees"]),
        set(&[id("pay-rail-co")])
    );
    let transactions = api
        .get(&plan("/transactions?last_knowledge_of_server=1"))
        .await;
    let rows = transactions["transactions"].as_array().expect("rows");
    assert_eq!(rows.len(), 4, "RAIL CO's four transactions now read SNCF");
    assert!(rows.iter().all(|r| r["payee_name"] == "SNCF"));
    // A budget change in October touches October onwards only, and no current-month category.
    api.call(
        "PATCH",
        &plan(&format!(
            "/months/2026-10-01/categories/{}",
            id("cat-holidays")
        )),
        Some(json!({"category": {"budgeted": 10_000}})),
    )
    .await
    .data();
    let months = api.get(&plan("/months?last_knowledge_of_server=2")).await;
    assert_eq!(months["months"][0]["month"], "2026-10-01");
    assert_eq!(months["months"].as_array().map(Vec::len), Some(12));
    assert_eq!(
        api.get(&plan("/categories?last_knowledge_of_server=2"))
            .await["category_groups"],
        json!([])
    );
}

// ---------------------------------------------------------------------------------------------
// The property.

#[derive(Debug, Clone)]
enum PayeeChoice {
    Existing(u16),
    Named(u8),
    Transfer(u8),
}

#[derive(Debug, Clone)]
enum Change {
    Amount(i64),
    Category(Option<u8>),
    Approved(bool),
    Memo(u8),
    PayeeName(u8),
}

#[derive(Debug, Clone)]
enum Op {
    Budget {
        month: u8,
        category: u8,
        amount: i64,
    },
    RenameCategory {
        category: u8,
        name: u8,
    },
    Target {
        category: u8,
        target: Option<i64>,
    },
    MoveCategory {
        category: u8,
        group: u8,
    },
    Create {
        account: u8,
        month: u8,
        day: u8,
        amount: i64,
        category: Option<u8>,
        payee: PayeeChoice,
    },
    Update {
        pick: u16,
        change: Change,
    },
    Delete {
        pick: u16,
    },
    RenamePayee {
        pick: u16,
        name: u8,
    },
    Schedule {
        days: u8,
        amount: i64,
    },
    Unschedule {
        pick: u8,
    },
}

fn op() -> impl Strategy<Value = Op> {
    let amount = (-20_000i64..20_000).prop_map(|a| a * 10);
    let payee = prop_oneof![
        any::<u16>().prop_map(PayeeChoice::Existing),
        (0u8..4).prop_map(PayeeChoice::Named),
        (0u8..4).prop_map(PayeeChoice::Transfer),
    ];
    let change = prop_oneof![
        amount.clone().prop_map(Change::Amount),
        proptest::option::of(any::<u8>()).prop_map(Change::Category),
        any::<bool>().prop_map(Change::Approved),
        (0u8..3).prop_map(Change::Memo),
        (0u8..4).prop_map(Change::PayeeName),
    ];
    prop_oneof![
        (0u8..16, any::<u8>(), (0i64..5_000).prop_map(|a| a * 100)).prop_map(
            |(month, category, amount)| Op::Budget {
                month,
                category,
                amount
            }
        ),
        (any::<u8>(), 0u8..3).prop_map(|(category, name)| Op::RenameCategory { category, name }),
        (
            any::<u8>(),
            proptest::option::of((1i64..5_000).prop_map(|a| a * 100))
        )
            .prop_map(|(category, target)| Op::Target { category, target }),
        (any::<u8>(), any::<u8>())
            .prop_map(|(category, group)| Op::MoveCategory { category, group }),
        (
            0u8..3,
            6u8..10,
            1u8..29,
            amount.clone(),
            proptest::option::of(any::<u8>()),
            payee
        )
            .prop_map(
                |(account, month, day, amount, category, payee)| Op::Create {
                    account,
                    month,
                    day,
                    amount,
                    category,
                    payee
                }
            ),
        (any::<u16>(), change).prop_map(|(pick, change)| Op::Update { pick, change }),
        any::<u16>().prop_map(|pick| Op::Delete { pick }),
        (any::<u16>(), 0u8..3).prop_map(|(pick, name)| Op::RenamePayee { pick, name }),
        (1u8..200, amount).prop_map(|(days, amount)| Op::Schedule { days, amount }),
        any::<u8>().prop_map(|pick| Op::Unschedule { pick }),
    ]
}

/// What the API serves, per list, entity by entity (full reads: no deleted entities).
#[derive(Debug, Clone, Default, PartialEq)]
struct Served {
    lists: BTreeMap<&'static str, BTreeMap<String, Value>>,
}

/// The lists the property checks: name, path, and how to get `(id, entity)` pairs.
const LISTS: [&str; 6] = [
    "transactions",
    "categories",
    "payees",
    "accounts",
    "scheduled_transactions",
    "months",
];

fn path_of(list: &str) -> String {
    plan(&format!("/{list}"))
}

fn entities(list: &str, data: &Value) -> Vec<(String, Value)> {
    let pairs = |items: &Value, key: &str| -> Vec<(String, Value)> {
        items
            .as_array()
            .map(|v| {
                v.iter()
                    .map(|e| (e[key].as_str().unwrap_or_default().to_owned(), e.clone()))
                    .collect()
            })
            .unwrap_or_default()
    };
    match list {
        "categories" => data["category_groups"]
            .as_array()
            .map(|groups| {
                groups
                    .iter()
                    .flat_map(|g| pairs(&g["categories"], "id"))
                    .collect()
            })
            .unwrap_or_default(),
        "months" => pairs(&data["months"], "month"),
        other => pairs(&data[other], "id"),
    }
}

async fn served(api: &Api) -> Served {
    let mut lists = BTreeMap::new();
    for list in LISTS {
        let mut map: BTreeMap<String, Value> = BTreeMap::new();
        if list == "months" {
            // A month's detail: its totals and its category rows.
            for (month, _) in entities(list, &api.get(&path_of(list)).await) {
                map.insert(
                    month.clone(),
                    api.get(&plan(&format!("/months/{month}"))).await["month"].clone(),
                );
            }
        } else {
            map.extend(entities(list, &api.get(&path_of(list)).await));
        }
        lists.insert(list, map);
    }
    Served { lists }
}

async fn knowledge(api: &Api) -> i64 {
    api.get(&plan("/payees")).await["server_knowledge"]
        .as_i64()
        .unwrap_or(-1)
}

fn pick(items: &[String], n: usize) -> Option<&String> {
    (!items.is_empty()).then(|| &items[n % items.len()])
}

/// Runs `op`; returns the entities it wrote, per list, when it succeeded.
async fn run(api: &Api, op: &Op, now: &Served) -> Option<Vec<(&'static str, String)>> {
    let ids = |list: &str| -> Vec<String> {
        now.lists
            .get(list)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    };
    let categories: Vec<String> = now.lists["categories"]
        .iter()
        .filter(|(_, c)| c["internal"] == false)
        .map(|(id, _)| id.clone())
        .collect();
    let all_categories = ids("categories");
    let accounts = [
        id("acc-checking"),
        id("acc-savings"),
        id("acc-joint-savings"),
    ];
    let transfer_payees = [
        "pay-transfer-checking",
        "pay-transfer-savings",
        "pay-transfer-joint-savings",
        "pay-transfer-car-loan",
    ];
    let names = ["ALPHA", "BETA", "GAMMA", "DELTA"];
    let months = ids("months");
    let (method, path, body, written): (&str, String, Option<Value>, Vec<(&'static str, String)>) =
        match op {
            Op::Budget {
                month,
                category,
                amount,
            } => {
                let (m, c) = (
                    pick(&months, *month as usize)?,
                    pick(&categories, *category as usize)?,
                );
                (
                    "PATCH",
                    plan(&format!("/months/{m}/categories/{c}")),
                    Some(json!({"category": {"budgeted": amount}})),
                    vec![],
                )
            }
            Op::RenameCategory { category, name } => {
                let c = pick(&categories, *category as usize)?;
                (
                    "PATCH",
                    plan(&format!("/categories/{c}")),
                    Some(json!({"category": {"name": names[*name as usize]}})),
                    vec![("categories", c.clone())],
                )
            }
            Op::Target { category, target } => {
                let c = pick(&categories, *category as usize)?;
                (
                    "PATCH",
                    plan(&format!("/categories/{c}")),
                    Some(json!({"category": {"goal_target": target}})),
                    vec![("categories", c.clone())],
                )
            }
            Op::MoveCategory { category, group } => {
                let c = pick(&categories, *category as usize)?;
                let groups = [
                    id("grp-bills"),
                    id("grp-everyday"),
                    id("grp-fun"),
                    id("grp-savings-goals"),
                ];
                let g = &groups[*group as usize % groups.len()];
                (
                    "PATCH",
                    plan(&format!("/categories/{c}")),
                    Some(json!({"category": {"category_group_id": g}})),
                    vec![("categories", c.clone())],
                )
            }
            Op::Create {
                account,
                month,
                day,
                amount,
                category,
                payee,
            } => {
                let account_id = &accounts[*account as usize % accounts.len()];
                let day = if *month == 9 { (*day).min(25) } else { *day };
                let mut t = json!({"account_id": account_id, "date": format!("2026-{month:02}-{day:02}"), "amount": amount});
                match payee {
                    PayeeChoice::Existing(n) => {
                        let payees: Vec<String> = now.lists["payees"]
                            .iter()
                            .filter(|(_, p)| p["transfer_account_id"].is_null())
                            .map(|(id, _)| id.clone())
                            .collect();
                        t["payee_id"] = json!(pick(&payees, *n as usize)?);
                    }
                    PayeeChoice::Named(n) => t["payee_name"] = json!(names[*n as usize]),
                    PayeeChoice::Transfer(n) => {
                        let p = id(transfer_payees[*n as usize % transfer_payees.len()]);
                        if Some(&p)
                            == now.lists["accounts"]
                                .get(account_id)
                                .and_then(|a| a["transfer_payee_id"].as_str().map(str::to_owned))
                                .as_ref()
                        {
                            return None;
                        }
                        t["payee_id"] = json!(p);
                    }
                }
                if let Some(c) = category {
                    t["category_id"] = json!(pick(&all_categories, *c as usize)?);
                }
                (
                    "POST",
                    plan("/transactions"),
                    Some(json!({"transaction": t})),
                    vec![],
                )
            }
            Op::Update { pick: n, change } => {
                let t = pick(&ids("transactions"), *n as usize)?.clone();
                let body = match change {
                    Change::Amount(a) => json!({"amount": a}),
                    Change::Category(c) => {
                        json!({"category_id": c.and_then(|c| pick(&all_categories, c as usize).cloned())})
                    }
                    Change::Approved(a) => json!({"approved": a}),
                    Change::Memo(m) => {
                        let memo = ["", "note", "other"][*m as usize];
                        json!({ "memo": memo })
                    }
                    Change::PayeeName(p) => json!({"payee_name": names[*p as usize]}),
                };
                (
                    "PATCH",
                    plan("/transactions"),
                    Some(patch_item(&t, body)),
                    vec![("transactions", t)],
                )
            }
            Op::Delete { pick: n } => {
                let t = pick(&ids("transactions"), *n as usize)?.clone();
                (
                    "DELETE",
                    plan(&format!("/transactions/{t}")),
                    None,
                    vec![("transactions", t)],
                )
            }
            Op::RenamePayee { pick: n, name } => {
                let payees: Vec<String> = now.lists["payees"]
                    .iter()
                    .filter(|(_, p)| p["transfer_account_id"].is_null())
                    .map(|(id, _)| id.clone())
                    .collect();
                let p = pick(&payees, *n as usize)?.clone();
                (
                    "PATCH",
                    plan(&format!("/payees/{p}")),
                    Some(json!({"payee": {"name": names[*name as usize]}})),
                    vec![("payees", p)],
                )
            }
            Op::Schedule { days, amount } => {
                let date = chrono::NaiveDate::from_ymd_opt(2026, 9, 25)?
                    .checked_add_days(chrono::Days::new(u64::from(*days)))?;
                let s = json!({"account_id": id("acc-checking"), "date": date.format("%Y-%m-%d").to_string(), "amount": amount, "payee_name": "SCHEDULED", "frequency": "monthly"});
                (
                    "POST",
                    plan("/scheduled_transactions"),
                    Some(json!({"scheduled_transaction": s})),
                    vec![],
                )
            }
            Op::Unschedule { pick: n } => {
                let s = pick(&ids("scheduled_transactions"), *n as usize)?.clone();
                (
                    "DELETE",
                    plan(&format!("/scheduled_transactions/{s}")),
                    None,
                    vec![("scheduled_transactions", s)],
                )
            }
        };
    let answer = api.call(method, &path, body).await;
    assert!(answer.status < 300, "{op:?} failed: {}", answer.body);
    let mut written = written;
    let data = answer.data();
    for new_id in data["transaction_ids"].as_array().into_iter().flatten() {
        written.push((
            "transactions",
            new_id.as_str().unwrap_or_default().to_owned(),
        ));
    }
    if method == "POST"
        && let Some(s) = data["scheduled_transaction"]["id"].as_str()
    {
        written.push(("scheduled_transactions", s.to_owned()));
    }
    Some(written)
}

/// `{"transactions": [{"id": id, ...fields}]}`.
fn patch_item(id: &str, fields: Value) -> Value {
    let mut item = json!({ "id": id });
    if let (Value::Object(i), Value::Object(f)) = (&mut item, fields) {
        i.extend(f);
    }
    json!({ "transactions": [item] })
}

/// Entities whose served form differs between two reads (added, removed or changed).
fn differing(before: &Served, after: &Served) -> BTreeSet<(&'static str, String)> {
    let mut out = BTreeSet::new();
    for list in LISTS {
        let (b, a) = (&before.lists[list], &after.lists[list]);
        for (id, v) in a {
            if b.get(id) != Some(v) {
                out.insert((list, id.clone()));
            }
        }
        for id in b.keys() {
            if !a.contains_key(id) {
                out.insert((list, id.clone()));
            }
        }
    }
    out
}

async fn check(ops: Vec<Op>) {
    let api = Api::demo();
    let mut now = served(&api).await;
    let mut points: Vec<(i64, BTreeSet<(&'static str, String)>)> =
        vec![(knowledge(&api).await, BTreeSet::new())];
    for op in &ops {
        let Some(written) = run(&api, op, &now).await else {
            continue;
        };
        let next = served(&api).await;
        let mut changed = differing(&now, &next);
        changed.extend(written);
        let k = knowledge(&api).await;
        let last = points.last().map(|p| p.0).unwrap_or(0);
        assert_eq!(k, last + 1, "every write is one change: {op:?}");
        points.push((k, changed));
        now = next;
    }
    // For every knowledge a client could hold, each delta is exactly what changed after it.
    for (i, (k, _)) in points.iter().enumerate() {
        let expected: BTreeSet<(&'static str, String)> = points[i + 1..]
            .iter()
            .flat_map(|(_, c)| c.iter().cloned())
            .collect();
        let export = api
            .get(&plan(&format!("?last_knowledge_of_server={k}")))
            .await;
        for list in LISTS {
            let want: BTreeSet<String> = expected
                .iter()
                .filter(|(l, _)| *l == list)
                .map(|(_, id)| id.clone())
                .collect();
            let data = api
                .get(&format!("{}?last_knowledge_of_server={k}", path_of(list)))
                .await;
            let got = entities(list, &data);
            let got_ids: BTreeSet<String> = got.iter().map(|(id, _)| id.clone()).collect();
            assert_eq!(got_ids, want, "{list} after knowledge {k} (ops {ops:?})");
            for (id, entity) in &got {
                match now.lists[list].get(id) {
                    Some(current) if list != "months" => assert_eq!(
                        entity, current,
                        "{list} {id}: the delta serves the current entity"
                    ),
                    Some(_) => {}
                    None => {
                        assert_eq!(entity["deleted"], true, "{list} {id}: gone, so a tombstone")
                    }
                }
            }
            let exported: BTreeSet<String> = match list {
                "categories" => ids_of(&export["plan"]["categories"]).into_iter().collect(),
                "months" => export["plan"]["months"]
                    .as_array()
                    .map(|m| {
                        m.iter()
                            .filter_map(|x| x["month"].as_str().map(str::to_owned))
                            .collect()
                    })
                    .unwrap_or_default(),
                other => ids_of(&export["plan"][other]).into_iter().collect(),
            };
            assert_eq!(exported, want, "export's {list} after knowledge {k}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, max_shrink_iters: 64, ..ProptestConfig::default() })]

    /// After any sequence of writes, the delta of every list (and of the export) from any
    /// knowledge a client could hold is exactly the set of entities changed after it.
    #[test]
    fn deltas_return_exactly_what_changed(ops in proptest::collection::vec(op(), 1..9)) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().expect("a runtime");
        runtime.block_on(check(ops));
    }
}
