//! Ids of the sandbox: every entity is served under the UUID v5 of a readable name (decisions D11, D26).
//! Tests and documents keep using the readable names (`acc-checking`, `tx-012`); only UUIDs go on the wire.

use uuid::Uuid;

/// The namespace of every sandbox id (`docs/contract/server.md` §8.1, D26).
pub const NAMESPACE: &str = "b8498266-6a15-4db1-b7cb-8e7d804711e2";

/// The namespace as a [`Uuid`]; the constant above is a literal, so parsing it cannot fail.
const NAMESPACE_UUID: Uuid = Uuid::from_u128(0xb849_8266_6a15_4db1_b7cb_8e7d_8047_11e2);

/// The UUID served for a readable id: UUID v5 of `readable` in [`NAMESPACE`], lower-case and
/// hyphenated (`acc-checking` → always the same 36-character string).
pub fn id(readable: &str) -> String {
    Uuid::new_v5(&NAMESPACE_UUID, readable.as_bytes())
        .hyphenated()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespace_constant_matches_the_string() {
        assert_eq!(NAMESPACE_UUID.hyphenated().to_string(), NAMESPACE);
    }

    #[test]
    fn ids_are_deterministic_version_5_uuids() {
        let a = id("acc-checking");
        assert_eq!(a, id("acc-checking"));
        assert_eq!(a.len(), 36);
        assert_eq!(a, a.to_lowercase());
        let parsed = Uuid::parse_str(&a).expect("a valid UUID");
        assert_eq!(parsed.get_version_num(), 5);
        assert_eq!(
            parsed,
            Uuid::new_v5(
                &Uuid::parse_str(NAMESPACE).expect("namespace"),
                b"acc-checking"
            )
        );
    }

    #[test]
    fn different_readable_ids_differ() {
        assert_ne!(id("tx-000"), id("tx-001"));
        assert_ne!(id("acc-checking"), id("acc-savings"));
        assert_ne!(id("tx-000"), id("tx-000/0"));
    }
}
