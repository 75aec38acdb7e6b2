//! `Str`: an immutable string shared by reference count, for the fields of YNAB's entities that
//! repeat (ids on every transaction, dates, names). While a body is parsed with [`interning`]
//! on, equal strings are stored once, so a plan of thousands of transactions holds each account,
//! payee and category id, each date and each flag once.

use arcstr::ArcStr;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;
use std::ops::Deref;

/// An immutable, cheaply cloned string (one pointer wide: `arcstr::ArcStr`, its count and text
/// in one allocation, so an `Option<Str>` field costs 8 bytes): reads like a `&str` (`Deref`, `as_str`, comparisons with
/// `str`, `&str` and `String`) and serialises as a JSON string.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Str(ArcStr);

impl Str {
    /// The string.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for Str {
    fn default() -> Self {
        Str(ArcStr::new())
    }
}

impl Deref for Str {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Str {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Str {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl fmt::Debug for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl From<&str> for Str {
    fn from(s: &str) -> Self {
        Str(ArcStr::from(s))
    }
}

impl From<&String> for Str {
    fn from(s: &String) -> Self {
        Str(ArcStr::from(s.as_str()))
    }
}

impl From<String> for Str {
    fn from(s: String) -> Self {
        Str(ArcStr::from(s))
    }
}

impl From<&Str> for Str {
    fn from(s: &Str) -> Self {
        s.clone()
    }
}

impl From<Str> for String {
    fn from(s: Str) -> Self {
        s.0.to_string()
    }
}

impl From<&Str> for String {
    fn from(s: &Str) -> Self {
        s.0.to_string()
    }
}

impl PartialEq<str> for Str {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Str {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for Str {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Str> for str {
    fn eq(&self, other: &Str) -> bool {
        self == &*other.0
    }
}

impl PartialEq<Str> for &str {
    fn eq(&self, other: &Str) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<Str> for String {
    fn eq(&self, other: &Str) -> bool {
        **self == *other.0
    }
}

impl Serialize for Str {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Str {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Str;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Str, E> {
                Ok(intern(s))
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

thread_local! {
    /// The strings met by the parse running on this thread, when [`interning`] is on.
    static SEEN: RefCell<Option<HashSet<Str>>> = const { RefCell::new(None) };
}

/// `s` as a `Str`: the one already met by this thread's parse, if any.
fn intern(s: &str) -> Str {
    SEEN.with(|seen| match seen.borrow_mut().as_mut() {
        Some(seen) => match seen.get(s) {
            Some(known) => known.clone(),
            None => {
                let new = Str::from(s);
                seen.insert(new.clone());
                new
            }
        },
        None => Str::from(s),
    })
}

/// Run `parse` with every `Str` it deserialises on this thread stored once per distinct value;
/// the table is dropped when it returns (the strings live on in what was parsed).
pub fn interning<R>(parse: impl FnOnce() -> R) -> R {
    struct Off(Option<HashSet<Str>>);
    impl Drop for Off {
        fn drop(&mut self) {
            let before = self.0.take();
            SEEN.with(|seen| *seen.borrow_mut() = before);
        }
    }
    let before = SEEN.with(|seen| seen.borrow_mut().replace(HashSet::new()));
    let _off = Off(before);
    parse()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_strings_are_stored_once_while_interning() {
        let (a, b): (Vec<Str>, Vec<Str>) = interning(|| {
            (
                serde_json::from_str(r#"["x-1", "x-2"]"#).expect("a list"),
                serde_json::from_str(r#"["x-1"]"#).expect("a list"),
            )
        });
        assert!(ArcStr::ptr_eq(&a[0].0, &b[0].0));
        assert_eq!(a, ["x-1", "x-2"]);
        let c: Vec<Str> = serde_json::from_str(r#"["x-1"]"#).expect("a list");
        assert!(!ArcStr::ptr_eq(&a[0].0, &c[0].0));
        assert_eq!(c[0], a[0]);
    }

    #[test]
    fn a_field_costs_one_pointer() {
        assert_eq!(std::mem::size_of::<Str>(), 8);
        assert_eq!(std::mem::size_of::<Option<Str>>(), 8);
    }

    #[test]
    fn reads_and_writes_like_a_string() {
        let s = Str::from("caf\u{e9} \"q\"");
        assert_eq!(serde_json::to_string(&s).expect("json"), r#""café \"q\"""#);
        assert_eq!(format!("{s}|{s:?}"), "café \"q\"|\"café \\\"q\\\"\"");
        assert_eq!(s, "café \"q\"");
        assert_eq!(s.as_str(), String::from("café \"q\""));
        assert_eq!(s.len(), 9);
        assert_eq!(Str::default(), "");
    }
}
