//! Bytes of a file to text: a byte order mark (UTF-8, or UTF-16 from a spreadsheet's "Unicode
//! text") is followed; valid UTF-8 is read as such, even under a header declaring another charset
//! (headers copied from a template often say `CHARSET:1252` over UTF-8 bytes, and text in a legacy
//! charset is almost never valid UTF-8 by accident); otherwise the charset the file declares (OFX
//! 1's `CHARSET:1252`, XML's `encoding="ISO-8859-1"`) is used, and without one Windows-1252, the
//! encoding of older Western European exports, with an assumption saying so.
//! A binary file — a NUL byte, or mostly control characters — is refused, PDFs and spreadsheets
//! by name.

use super::assumption::{Assumption, TextEncoding};
use super::error::{BinaryKind, StatementError};
use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

/// The text of a file, and the assumption made about its encoding if one was.
pub struct Decoded {
    pub text: String,
    pub assumption: Option<Assumption>,
}

/// How far into the file a charset declaration is looked for.
const HEADER_BYTES: usize = 1024;

pub fn decode(bytes: &[u8]) -> Result<Decoded, StatementError> {
    refuse_known_binary(bytes)?;
    if let Some((encoding, bom)) = Encoding::for_bom(bytes) {
        let (text, _) = encoding.decode_without_bom_handling(&bytes[bom..]);
        return checked(text.into_owned(), None);
    }
    if bytes.contains(&0) {
        return Err(StatementError::Binary {
            kind: BinaryKind::Other,
        });
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return checked(text.to_owned(), None);
    }
    if let Some(declared) = declared(bytes) {
        let (text, _) = declared.decode_without_bom_handling(bytes);
        return checked(text.into_owned(), None);
    }
    let (text, _) = WINDOWS_1252.decode_without_bom_handling(bytes);
    let assumption = Assumption::Encoding(TextEncoding::Windows1252);
    checked(text.into_owned(), Some(assumption))
}

/// Text given as text: refused when it holds what no statement holds (NUL, mostly controls).
pub fn refuse_binary_text(text: &str) -> Result<(), StatementError> {
    if text.contains('\0') || mostly_control(text) {
        return Err(StatementError::Binary {
            kind: BinaryKind::Other,
        });
    }
    Ok(())
}

fn checked(text: String, assumption: Option<Assumption>) -> Result<Decoded, StatementError> {
    refuse_binary_text(&text)?;
    Ok(Decoded { text, assumption })
}

/// More than one character in ten is a control other than tab, line feed, carriage return or
/// form feed.
fn mostly_control(text: &str) -> bool {
    let (mut total, mut control) = (0usize, 0usize);
    for c in text.chars() {
        total += 1;
        if c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c') {
            control += 1;
        }
    }
    control * 10 > total
}

/// PDFs, zip containers (xlsx, ods) and old Office files, by their first bytes.
fn refuse_known_binary(bytes: &[u8]) -> Result<(), StatementError> {
    let kind = if bytes.starts_with(b"%PDF-") {
        BinaryKind::Pdf
    } else if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"\xd0\xcf\x11\xe0") {
        BinaryKind::Spreadsheet
    } else {
        return Ok(());
    };
    Err(StatementError::Binary { kind })
}

/// The encoding the file's header declares, when it is one read byte by byte over ASCII (a
/// declared UTF-16 in an ASCII header contradicts itself and is ignored; UTF-8 is the default).
fn declared(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(HEADER_BYTES)];
    let head: String = head.iter().map(|&b| char::from(b)).collect();
    let label = ofx_charset(&head).or_else(|| xml_encoding(&head))?;
    let encoding = Encoding::for_label(label.as_bytes())?;
    (encoding != UTF_8 && encoding != UTF_16LE && encoding != UTF_16BE).then_some(encoding)
}

/// OFX 1's `CHARSET:1252` (or `ISO-8859-1`); `NONE` is no declaration.
fn ofx_charset(head: &str) -> Option<String> {
    if !head.trim_start().starts_with("OFXHEADER:") {
        return None;
    }
    let value = head
        .lines()
        .find_map(|line| line.trim().strip_prefix("CHARSET:"))?
        .trim();
    match value {
        "" | "NONE" => None,
        v if v.bytes().all(|b| b.is_ascii_digit()) => Some(format!("windows-{v}")),
        v => Some(v.to_string()),
    }
}

/// The `encoding` of an XML declaration.
fn xml_encoding(head: &str) -> Option<String> {
    let decl = head.trim_start().strip_prefix("<?xml")?;
    let decl = &decl[..decl.find("?>")?];
    let rest = &decl[decl.find("encoding")? + "encoding".len()..];
    let rest = rest.trim_start().strip_prefix('=')?.trim_start();
    let quote = rest.chars().next().filter(|q| *q == '"' || *q == '\'')?;
    let value = &rest[1..];
    Some(value[..value.find(quote)?].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_charsets() {
        let ofx = b"OFXHEADER:100\r\nDATA:OFXSGML\r\nCHARSET:1252\r\n\r\n<OFX>";
        assert_eq!(declared(ofx), Some(WINDOWS_1252));
        let none = b"OFXHEADER:100\nCHARSET:NONE\n<OFX>";
        assert_eq!(declared(none), None);
        let xml = b"<?xml version=\"1.0\" encoding='ISO-8859-1'?><Document/>";
        assert_eq!(declared(xml), Some(WINDOWS_1252));
        let utf8 = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><Document/>";
        assert_eq!(declared(utf8), None);
    }

    #[test]
    fn valid_utf8_wins_over_a_declared_charset() {
        let bytes = "OFXHEADER:100\nCHARSET:1252\n<OFX><NAME>é</OFX>".as_bytes();
        let decoded = decode(bytes).map(|d| (d.text.contains('é'), d.assumption));
        assert!(matches!(decoded, Ok((true, None))));
    }

    #[test]
    fn a_declared_charset_reads_what_is_not_utf8() {
        // 0xE9 is "й" in Windows-1251, "é" in Windows-1252
        let bytes = b"OFXHEADER:100\nCHARSET:1251\n<OFX><NAME>\xe9</OFX>";
        let decoded = decode(bytes).map(|d| (d.text.contains('й'), d.assumption));
        assert!(matches!(decoded, Ok((true, None))));
    }

    #[test]
    fn utf16_with_its_bom() {
        let mut bytes = vec![0xff, 0xfe];
        for unit in "Date;Montant".encode_utf16() {
            bytes.extend(unit.to_le_bytes());
        }
        let decoded = decode(&bytes).map(|d| d.text);
        assert_eq!(decoded.ok().as_deref(), Some("Date;Montant"));
    }
}
