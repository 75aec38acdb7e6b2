//! A field of a transaction or a schedule named by YNAB's key for it (`payee_id`, `memo`…): how
//! an edit's journal record writes and reads the field, so that the key is spelt in one place,
//! the field's own `key()`.

use serde::Deserialize;
use serde::de::{Deserializer, Error as _};

/// A field with a key of its own.
pub trait FieldKey: Copy + Sized {
    fn key(self) -> &'static str;
    fn from_key(key: &str) -> Option<Self>;
    /// What a key must be, in words (a refusal says it, never the key found).
    const WHAT: &'static str;
}

/// Reads a field from its key; an unknown key is refused in words, without repeating it.
pub fn deserialize<'de, D: Deserializer<'de>, F: FieldKey>(deserializer: D) -> Result<F, D::Error> {
    let key = String::deserialize(deserializer)?;
    F::from_key(&key).ok_or_else(|| D::Error::custom(format!("unknown key, expected {}", F::WHAT)))
}

/// Implements `FieldKey`, `Serialize` (the key) and `Deserialize` (by the key) for a field type
/// with inherent `key` and `from_key`.
macro_rules! field_key {
    ($field:ty, $what:literal) => {
        impl $crate::logic::field_key::FieldKey for $field {
            const WHAT: &'static str = $what;
            fn key(self) -> &'static str {
                <$field>::key(self)
            }
            fn from_key(key: &str) -> Option<Self> {
                <$field>::from_key(key)
            }
        }
        impl serde::Serialize for $field {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(<$field>::key(*self))
            }
        }
        impl<'de> serde::Deserialize<'de> for $field {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                $crate::logic::field_key::deserialize(deserializer)
            }
        }
    };
}
pub(crate) use field_key;
