//! Subjects and their fingerprints (`docs/contract/writes.md` §4.2, D2, D15): the exact change as
//! JSON, hashed with the resolved plan id so that an answer confirms that change and no other.
//! Canonical JSON and SHA-256 themselves live in [`crate::digest`].

use crate::digest::sha256_hex;
use serde_json::Value;

/// Lower-case hex SHA-256 of `canon([plan_id, subject])`. `subject`'s order-free lists must
/// already be in canonical order ([`crate::digest::order_free`]).
pub fn fingerprint(plan_id: &str, subject: &Value) -> String {
    sha256_hex(&Value::Array(vec![
        Value::String(plan_id.to_string()),
        subject.clone(),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digest::order_free;
    use serde_json::json;

    /// The seed's minimal subjects of `docs/contract/writes.md` §14, whose digests are printed
    /// there: the same canonical JSON gives the same SHA-256.
    #[test]
    fn printed_vectors_of_the_minimal_subjects() {
        assert_eq!(
            fingerprint(
                "demo-plan",
                &json!({"amount": 150000, "category": "cat-restaurants", "month": "2026-09-01"})
            ),
            "12bee3b8161bc0209ecd5ed0c15d281a26e8c25d7000a32ea216f2829bf40d3b"
        );
        assert_eq!(
            fingerprint(
                "demo-plan",
                &json!({"amount": 30000, "from": "cat-tennis", "month": "2026-09-01", "to": "cat-restaurants"})
            ),
            "8d5b47992afa8bd73d2f8b8900d16d13c7b75683375074c0e6328406b75ab5fc"
        );
        assert_eq!(
            fingerprint("demo-plan", &json!({"undo": "5f2c9a1e7b30"})),
            "dae3339158e8b1e57bf3a984d1a4a43b6e8aece98b47d46b0d8d806e5a3564cb"
        );
    }

    #[test]
    fn order_free_lists_ignore_order() {
        let a = order_free(vec![json!({"t": "2"}), json!({"t": "1"})]);
        let b = order_free(vec![json!({"t": "1"}), json!({"t": "2"})]);
        assert_eq!(fingerprint("p", &a), fingerprint("p", &b));
        assert_ne!(fingerprint("p", &a), fingerprint("q", &a));
    }
}
