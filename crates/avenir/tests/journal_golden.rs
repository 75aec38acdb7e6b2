//! The journal's format, kept as golden data: every write tool, applied once on a fresh demo plan
//! (and undone, where it can be), writes exactly the journal lines and intents recorded in
//! `tests/data/journal_golden.json`. The file was recorded from the server before the journal's
//! details became typed values, so this test is what shows the typed writers write the very lines
//! the untyped ones did, and that every recorded line is still read back (journals written before
//! the change keep undoing after it).
//!
//! Values that differ from run to run (operation and intent ids, timestamps, random salts and the
//! digests they salt) are replaced by `<varies>`; everything else is compared as it is.
//! `AVENIR_UPDATE_GOLDEN=1 cargo test -p avenir --test suite journal_golden` records the file
//! again, for a change of format that is meant.

use crate::common::demo_ids::ids_of;
use crate::common::{intents_path, lines_of};
use crate::fault_matrix::{TOOLS, args_of, confirmed, harness, setup};
use serde_json::{Map, Value, json};

const GOLDEN: &str = "tests/data/journal_golden.json";

/// Keys whose values change on every run (timestamps, and random salts and the digests they
/// salt).
fn varies(key: &str) -> bool {
    key == "applied_at"
        || key == "digest_salt"
        || key.ends_with("_digest")
        || key.ends_with("_digests")
}

/// `value` with what varies replaced: the ids of operations by `<operation N>`, N the order of
/// their intents (so an undo marker or a settle line still shows which operation it names).
fn masked(value: &Value, ids: &[String]) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let v = if varies(k) && !v.is_null() {
                        json!("<varies>")
                    } else {
                        masked(v, ids)
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| masked(v, ids)).collect()),
        Value::String(s) => match ids.iter().position(|id| id == s) {
            Some(n) => json!(format!("<operation {}>", n + 1)),
            None => value.clone(),
        },
        other => other.clone(),
    }
}

/// The journal lines and intents `tool` writes on a fresh demo plan, applied and then undone.
async fn lines_of_tool(tool: &'static str) -> Result<Value, String> {
    let h = harness().await;
    let ids = ids_of(&h).await;
    let setup = setup(&h, &ids, tool).await?;
    let journal_before = lines_of(&h.journal).len();
    let intents_before = lines_of(&intents_path(&h)).len();
    let args = args_of(tool, &ids, &setup);
    let done = if tool == "approve_transactions" {
        h.ok(tool, args).await
    } else {
        confirmed(&h, tool, args).await?
    };
    // An approval answers without a status: its operation id says it was written.
    if done["status"] != "applied" && done["operation_id"].is_null() {
        return Err(format!("{tool}: {done}"));
    }
    // Undone at once, where it can be: a kind undo cannot revert answers without a preview, and
    // the golden lines then show that nothing more was written.
    if let (Some(operation_id), false) = (done["operation_id"].as_str(), tool == "undo_operation") {
        let undo = json!({"plan_id": "last-used", "operation_id": operation_id});
        if let Ok(undone) = confirmed(&h, "undo_operation", undo).await
            && undone["status"] != "applied"
        {
            return Err(format!("undo of {tool}: {undone}"));
        }
    }
    // Numbered from the file's first intent: a setup's operation (the move an undo reverts) too.
    let mut intents = lines_of(&intents_path(&h));
    let ids: Vec<String> = intents
        .iter()
        .filter_map(|line| line["intent"]["id"].as_str().map(str::to_string))
        .collect();
    let journal: Vec<Value> = lines_of(&h.journal)[journal_before..]
        .iter()
        .map(|line| masked(line, &ids))
        .collect();
    let intents: Vec<Value> = intents
        .split_off(intents_before)
        .iter()
        .map(|line| masked(line, &ids))
        .collect();
    Ok(json!({"journal": journal, "intents": intents}))
}

#[tokio::test]
async fn every_write_writes_its_golden_lines() {
    let mut found = Map::new();
    for tool in TOOLS.iter() {
        let lines = lines_of_tool(tool.name)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        found.insert(tool.name.to_string(), lines);
    }
    let found = Value::Object(found);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    if std::env::var_os("AVENIR_UPDATE_GOLDEN").is_some() {
        let text = serde_json::to_string_pretty(&found).expect("golden lines serialise");
        std::fs::write(&path, text + "\n").expect("write the golden lines");
        return;
    }
    let golden: Value = serde_json::from_str(
        &std::fs::read_to_string(&path).expect("the golden journal lines are in the repository"),
    )
    .expect("the golden file is JSON");
    let differ: Vec<&str> = TOOLS
        .iter()
        .map(|tool| tool.name)
        .filter(|name| found[*name] != golden[*name])
        .collect();
    assert!(
        differ.is_empty(),
        "the lines these tools wrote differ from the recorded ones: {differ:?}"
    );
}
