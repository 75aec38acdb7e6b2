//! Parsing a JSON document as it arrives, fast and in little memory.
//!
//! `serde_json::from_reader` reads one byte at a time and tracks lines and columns as it goes:
//! on a large plan's export (7 MB) it is about three times slower than `serde_json::from_slice`.
//! Holding the whole body to parse it as a slice costs its size in memory. Here the document's
//! outer structure (the objects down to the arrays) is walked as it streams in, and every element
//! of an array is cut out whole (a transaction, a payee: hundreds of bytes) and parsed with
//! `from_slice`. Memory stays at one element; speed is the slice parser's plus a byte scan.
//!
//! Any `DeserializeOwned` type works: an element's slice lives shorter than the deserialiser's
//! `'de`, so the values handed to the caller's visitors are re-typed by a thin layer ([`erase`])
//! that turns borrowed strings into transient ones (the caller owns everything it keeps anyway).

use serde::de::{self, DeserializeOwned, DeserializeSeed, Visitor};
use std::io::BufRead;

/// Parse one JSON document from `reader` into `T`; only whitespace may follow it.
pub fn from_reader<T: DeserializeOwned, R: BufRead>(reader: R) -> Result<T, serde_json::Error> {
    let mut source = Source {
        reader,
        scratch: Vec::new(),
    };
    let value = T::deserialize(&mut Streaming {
        source: &mut source,
    })?;
    match source.peek()? {
        None => Ok(value),
        Some(byte) => Err(syntax(format!(
            "trailing characters after the document (`{}`)",
            byte.escape_ascii()
        ))),
    }
}

fn syntax(message: impl std::fmt::Display) -> serde_json::Error {
    de::Error::custom(message)
}

/// The bytes still to read, and a buffer for the value being cut out.
struct Source<R> {
    reader: R,
    scratch: Vec<u8>,
}

/// Where a byte scan stands inside the value it is cutting out.
#[derive(Clone, Copy)]
enum Scan {
    /// Inside an object or array, this deep (≥ 1).
    Nested(u32),
    /// Inside a string, at this depth (0: the value is the string); `escaped` after a backslash.
    Text { depth: u32, escaped: bool },
    /// A number or a literal (`true`, `false`, `null`).
    Bare,
}

impl<R: BufRead> Source<R> {
    /// The next byte that is not whitespace, left unread; `None` at the end of the input.
    fn peek(&mut self) -> Result<Option<u8>, serde_json::Error> {
        loop {
            let buffer = self.reader.fill_buf().map_err(serde_json::Error::io)?;
            if buffer.is_empty() {
                return Ok(None);
            }
            match buffer.iter().position(|b| !b.is_ascii_whitespace()) {
                Some(at) => {
                    let byte = buffer[at];
                    self.reader.consume(at);
                    return Ok(Some(byte));
                }
                None => {
                    let all = buffer.len();
                    self.reader.consume(all);
                }
            }
        }
    }

    /// The next byte that is not whitespace, read.
    fn next(&mut self) -> Result<u8, serde_json::Error> {
        let byte = self.peek()?.ok_or_else(|| syntax("EOF while parsing"))?;
        self.reader.consume(1);
        Ok(byte)
    }

    /// Read `expected` (after whitespace), or say what came instead.
    fn expect(&mut self, expected: u8) -> Result<(), serde_json::Error> {
        match self.next()? {
            byte if byte == expected => Ok(()),
            other => Err(syntax(format!(
                "expected `{}`, found `{}`",
                expected.escape_ascii(),
                other.escape_ascii()
            ))),
        }
    }

    /// Read the next value whole (its bytes into `scratch` when `keep`); its syntax inside is
    /// left to the parser that reads `scratch`.
    fn cut(&mut self, keep: bool) -> Result<(), serde_json::Error> {
        self.scratch.clear();
        let first = self
            .peek()?
            .ok_or_else(|| syntax("EOF while parsing a value"))?;
        let mut scan = match first {
            b'{' | b'[' => Scan::Nested(0),
            b'"' => Scan::Text {
                depth: 0,
                escaped: false,
            },
            b',' | b':' | b'}' | b']' => {
                return Err(syntax(format!(
                    "expected a value, found `{}`",
                    first.escape_ascii()
                )));
            }
            _ => Scan::Bare,
        };
        // The opening byte of a string or container is taken here, so that the scan below sees
        // only what follows it.
        if !matches!(scan, Scan::Bare) {
            if keep {
                self.scratch.push(first);
            }
            self.reader.consume(1);
            if let Scan::Nested(_) = scan {
                scan = Scan::Nested(1);
            }
        }
        loop {
            let buffer = self.reader.fill_buf().map_err(serde_json::Error::io)?;
            if buffer.is_empty() {
                return match scan {
                    Scan::Bare => Ok(()),
                    _ => Err(syntax("EOF while parsing a value")),
                };
            }
            let (end, done) = scan_chunk(buffer, &mut scan);
            if keep {
                self.scratch.extend_from_slice(&buffer[..end]);
            }
            self.reader.consume(end);
            if done {
                return Ok(());
            }
        }
    }

    /// Parse the value just cut out with `serde_json`'s slice parser, all of it.
    fn parse_scratch<T>(
        &mut self,
        parse: impl FnOnce(
            &mut serde_json::Deserializer<serde_json::de::SliceRead<'_>>,
        ) -> Result<T, serde_json::Error>,
    ) -> Result<T, serde_json::Error> {
        let mut parser = serde_json::Deserializer::from_slice(&self.scratch);
        let value = parse(&mut parser)?;
        parser.end()?;
        Ok(value)
    }
}

/// Scan `buffer` from `scan`'s state: how many bytes belong to the value, and whether it ended.
fn scan_chunk(buffer: &[u8], scan: &mut Scan) -> (usize, bool) {
    let mut at = 0;
    while at < buffer.len() {
        let byte = buffer[at];
        match *scan {
            Scan::Bare => {
                if matches!(byte, b',' | b'}' | b']' | b':') || byte.is_ascii_whitespace() {
                    return (at, true);
                }
            }
            Scan::Text { depth, escaped } => {
                if escaped {
                    *scan = Scan::Text {
                        depth,
                        escaped: false,
                    };
                } else if byte == b'\\' {
                    *scan = Scan::Text {
                        depth,
                        escaped: true,
                    };
                } else if byte == b'"' {
                    if depth == 0 {
                        return (at + 1, true);
                    }
                    *scan = Scan::Nested(depth);
                } else {
                    // Most of a document is text: jump to its next quote or backslash.
                    match memchr::memchr2(b'"', b'\\', &buffer[at..]) {
                        Some(skip) => {
                            at += skip;
                            continue;
                        }
                        None => return (buffer.len(), false),
                    }
                }
            }
            Scan::Nested(depth) => match byte {
                b'"' => {
                    *scan = Scan::Text {
                        depth,
                        escaped: false,
                    }
                }
                b'{' | b'[' => *scan = Scan::Nested(depth + 1),
                b'}' | b']' => {
                    if depth == 1 {
                        return (at + 1, true);
                    }
                    *scan = Scan::Nested(depth - 1);
                }
                _ => {}
            },
        }
        at += 1;
    }
    (at, false)
}

/// The deserialiser over a [`Source`]: objects are walked as they stream; arrays' elements and
/// every scalar are cut out and parsed as slices.
struct Streaming<'a, R> {
    source: &'a mut Source<R>,
}

impl<R: BufRead> Streaming<'_, R> {
    /// Cut the next value out and let `serde_json` read it with `parse`.
    fn whole<'de, V: Visitor<'de>>(
        &mut self,
        visitor: V,
        parse: impl FnOnce(
            &mut serde_json::Deserializer<serde_json::de::SliceRead<'_>>,
            erase::Visitor<'de, V>,
        ) -> Result<V::Value, serde_json::Error>,
    ) -> Result<V::Value, serde_json::Error> {
        self.source.cut(true)?;
        self.source
            .parse_scratch(|parser| parse(parser, erase::Visitor::new(visitor)))
    }
}

macro_rules! whole {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, serde_json::Error> {
                self.whole(visitor, |parser, visitor| de::Deserializer::$method(parser, visitor))
            }
        )*
    };
}

impl<'de, R: BufRead> de::Deserializer<'de> for &mut Streaming<'_, R> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.source.peek()? {
            Some(b'{') => {
                self.source.next()?;
                visitor.visit_map(Entries {
                    de: self,
                    first: true,
                })
            }
            Some(b'[') => {
                self.source.next()?;
                visitor.visit_seq(Elements {
                    de: self,
                    first: true,
                })
            }
            _ => self.whole(visitor, |parser, visitor| {
                de::Deserializer::deserialize_any(parser, visitor)
            }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.source.peek()? {
            Some(b'n') => self.whole(visitor, |parser, visitor| {
                de::Deserializer::deserialize_option(parser, visitor)
            }),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_any(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.deserialize_any(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.deserialize_any(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_any(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.deserialize_any(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.whole(visitor, |parser, visitor| {
            de::Deserializer::deserialize_enum(parser, name, variants, visitor)
        })
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.whole(visitor, |parser, visitor| {
            de::Deserializer::deserialize_unit_struct(parser, name, visitor)
        })
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.source.cut(false)?;
        visitor.visit_unit()
    }

    whole! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string deserialize_bytes deserialize_byte_buf deserialize_unit
        deserialize_identifier
    }
}

/// The elements of an array being streamed: each one cut out and parsed as a slice.
struct Elements<'a, 'b, R> {
    de: &'a mut Streaming<'b, R>,
    first: bool,
}

impl<'de, R: BufRead> de::SeqAccess<'de> for Elements<'_, '_, R> {
    type Error = serde_json::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Self::Error> {
        let source = &mut *self.de.source;
        if source.peek()? == Some(b']') {
            source.next()?;
            return Ok(None);
        }
        if !std::mem::replace(&mut self.first, false) {
            source.expect(b',')?;
        }
        source.cut(true)?;
        source
            .parse_scratch(|parser| seed.deserialize(erase::Deserializer::new(parser)))
            .map(Some)
    }
}

/// The entries of an object being streamed: keys parsed as slices, values streamed in turn.
struct Entries<'a, 'b, R> {
    de: &'a mut Streaming<'b, R>,
    first: bool,
}

impl<'de, R: BufRead> de::MapAccess<'de> for Entries<'_, '_, R> {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        let source = &mut *self.de.source;
        if source.peek()? == Some(b'}') {
            source.next()?;
            return Ok(None);
        }
        if !std::mem::replace(&mut self.first, false) {
            source.expect(b',')?;
        }
        if source.peek()? != Some(b'"') {
            return Err(syntax("expected an object's key, a string"));
        }
        source.cut(true)?;
        let key =
            source.parse_scratch(|parser| seed.deserialize(erase::Deserializer::new(parser)))?;
        source.expect(b':')?;
        Ok(Some(key))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        seed.deserialize(&mut *self.de)
    }
}

/// Wrappers that pass serde's calls from a deserialiser of one lifetime to visitors and seeds of
/// another. Nothing borrowed crosses: a borrowed string or byte string is handed on as a
/// transient one, which owned types copy (as they would from any reader).
mod erase;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;

    /// A reader that hands its bytes over in the chunk sizes given, in turn.
    struct Chunked {
        bytes: Vec<u8>,
        at: usize,
        sizes: Vec<usize>,
        turn: usize,
    }

    impl std::io::Read for Chunked {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let size = self.sizes[self.turn % self.sizes.len()].max(1);
            self.turn += 1;
            let n = size.min(buf.len()).min(self.bytes.len() - self.at);
            buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    fn streamed<T: DeserializeOwned>(
        text: &str,
        sizes: Vec<usize>,
    ) -> Result<T, serde_json::Error> {
        let reader = Chunked {
            bytes: text.as_bytes().to_vec(),
            at: 0,
            sizes,
            turn: 0,
        };
        // A small buffer, so that values straddle the chunks handed to the scanner.
        from_reader(std::io::BufReader::with_capacity(7, reader))
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            (-1.0e9f64..1.0e9).prop_map(Value::from),
            "[ -~\\\\\"\u{e9}\u{1F600}\t\n]{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map("[a-z\"\\\\ ]{0,6}", inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Any document, in any chunking, compact or pretty, reads as the slice parser reads it.
        #[test]
        fn reads_what_the_slice_parser_reads(
            value in json_value(),
            sizes in prop::collection::vec(1usize..20, 1..5),
            pretty in any::<bool>(),
        ) {
            let text = if pretty {
                serde_json::to_string_pretty(&value).expect("serialises")
            } else {
                serde_json::to_string(&value).expect("serialises")
            };
            let read: Value = streamed(&text, sizes).expect("parses");
            let sliced: Value = serde_json::from_str(&text).expect("the slice parser reads it");
            prop_assert_eq!(read, sliced);
        }

        /// A document cut anywhere is an error, never a value (a truncated body is not a plan).
        #[test]
        fn a_document_cut_short_is_an_error(
            value in json_value().prop_filter("a container", |v| v.is_array() || v.is_object()),
            cut in any::<prop::sample::Index>(),
        ) {
            let text = serde_json::to_string(&value).expect("serialises");
            let mut end = cut.index(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            prop_assume!(end > 0);
            let short = &text[..end];
            prop_assume!(serde_json::from_str::<Value>(short).is_err());
            prop_assert!(streamed::<Value>(short, vec![3]).is_err());
        }
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Typed {
        id: String,
        amount: i64,
        note: Option<String>,
        kind: Kind,
        #[serde(default)]
        lines: Vec<Line>,
        #[serde(flatten)]
        rest: std::collections::BTreeMap<String, Value>,
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Outflow,
        Transfer { to: String },
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Line(i64, String);

    #[test]
    fn typed_documents_read_as_from_slice_reads_them() {
        let text = r#" {"data": {"items": [
            {"id": "a\"1", "amount": -12340, "note": null, "kind": "outflow", "extra": [1, {"x": "}"}]},
            {"id": "b", "amount": 5, "note": "caf\u00e9 \\ ok", "kind": {"transfer": {"to": "c"}},
             "lines": [[1, "one"], [2, "two"]]}
        ], "unknown": {"deep": [[[]]]}, "knowledge": 42}} "#;
        #[derive(Debug, PartialEq, serde::Deserialize)]
        struct Envelope {
            data: Data,
        }
        #[derive(Debug, PartialEq, serde::Deserialize)]
        struct Data {
            items: Vec<Typed>,
            knowledge: i64,
        }
        let expected: Envelope = serde_json::from_str(text).expect("slice parse");
        for size in [1, 2, 5, 64] {
            let read: Envelope = streamed(text, vec![size]).expect("streamed parse");
            assert_eq!(read, expected);
        }
        assert_eq!(
            expected.data.items[1].lines,
            vec![Line(1, "one".into()), Line(2, "two".into())]
        );
    }

    #[test]
    fn bad_documents_are_errors_that_say_why() {
        for (text, why) in [
            (r#"{"a": 1} x"#, "trailing characters"),
            (r#"{"a": 1 "b": 2}"#, "expected `,`"),
            (r#"{"a" 1}"#, "expected `:`"),
            (r#"{1: 2}"#, "key"),
            (r#"[1, 2"#, "EOF"),
            (r#"{"a": [1, 2,]}"#, ""),
            (r#"{"a": tru}"#, ""),
            ("", "EOF"),
        ] {
            let error = streamed::<Value>(text, vec![4])
                .expect_err(text)
                .to_string();
            assert!(error.contains(why), "{text}: {error}");
        }
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Needs {
            id: String,
        }
        let error = streamed::<Needs>(r#"{"id": 5}"#, vec![2]).expect_err("a number is no id");
        assert!(error.to_string().contains("invalid type"), "{error}");
        let error = streamed::<Needs>(r#"{}"#, vec![2]).expect_err("no id");
        assert!(error.to_string().contains("missing field `id`"), "{error}");
    }
}
