//! Canonical JSON and its SHA-256 digest, the one way the server turns a value into stable
//! text and a hash. Used by confirmation fingerprints, the digests of created items and request
//! binding; it knows nothing of any of them.

use serde_json::Value;

/// Canonical JSON: keys sorted by code point, no whitespace, minimal escapes, raw UTF-8.
///
/// `serde_json`'s maps are sorted (no `preserve_order`), and its writer escapes exactly `"`,
/// `\` and the controls (short forms, else `\u00xx` lower-case), as canon asks.
pub fn canon(value: &Value) -> String {
    value.to_string()
}

/// An order-free list in canonical order: each element canonicalised, sorted by that text.
pub fn order_free(items: Vec<Value>) -> Value {
    let mut keyed: Vec<(String, Value)> = items.into_iter().map(|v| (canon(&v), v)).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    Value::Array(keyed.into_iter().map(|(_, v)| v).collect())
}

/// Lower-case hex SHA-256 of `value`'s canonical JSON.
pub fn sha256_hex(value: &Value) -> String {
    hex::encode(sha256(canon(value).as_bytes()))
}

/// Lower-case hex SHA-256 of `text` (a call's tool and canonical arguments, say).
pub fn text_sha256_hex(text: &str) -> String {
    hex::encode(sha256(text.as_bytes()))
}

/// SHA-256 of `bytes` (ring's, the server's one crypto library).
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    let digest = ring::digest::digest(&ring::digest::SHA256, bytes);
    let mut out = [0u8; 32];
    out.copy_from_slice(digest.as_ref());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canon_sorts_keys_and_escapes_minimally() {
        assert_eq!(
            canon(&json!({"b": 1, "a": "é\n\u{1}", "c": [true, null]})),
            "{\"a\":\"é\\n\\u0001\",\"b\":1,\"c\":[true,null]}"
        );
    }

    #[test]
    fn order_free_lists_sort_by_canonical_text() {
        assert_eq!(
            order_free(vec![json!({"t": "2"}), json!({"t": "1"})]),
            json!([{"t": "1"}, {"t": "2"}])
        );
    }

    #[test]
    fn sha256_hex_of_canonical_json() {
        // SHA-256 of the four bytes `null`.
        assert_eq!(
            sha256_hex(&Value::Null),
            "74234e98afe7498fb5daf1f36ac2d78acc339464f950703b8c019892f982b90b"
        );
        // FIPS 180-2's example.
        assert_eq!(
            hex::encode(sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
