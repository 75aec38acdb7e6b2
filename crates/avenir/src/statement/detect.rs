//! Which format a statement is in, from its content: an OFX header or `<OFX>`, an XML document in
//! a camt.053 namespace (or with `BkToCstmrStmt`), a QIF `!Type:` line, else CSV. The caller's
//! `format` argument overrides this.

use super::Format;
use super::error::StatementError;

/// How far into the text the markers are looked for.
const HEAD_CHARS: usize = 4096;

pub fn format(text: &str) -> Result<Format, StatementError> {
    let head = head(text.trim_start());
    let upper = head.to_ascii_uppercase();
    if upper.starts_with("OFXHEADER") || upper.contains("<OFX>") || upper.contains("<?OFX") {
        return Ok(Format::Ofx);
    }
    if head.starts_with("<?xml") || head.starts_with('<') {
        if head.contains("urn:iso:std:iso:20022:tech:xsd:camt.053")
            || head.contains("BkToCstmrStmt")
        {
            return Ok(Format::Camt053);
        }
        return Err(StatementError::UnknownXml);
    }
    let qif = head
        .lines()
        .take(5)
        .any(|line| line.trim_start().to_ascii_uppercase().starts_with("!TYPE:"));
    if qif || head.trim_start().starts_with("!Account") || head.starts_with("!Option") {
        return Ok(Format::Qif);
    }
    Ok(Format::Csv)
}

/// The first [`HEAD_CHARS`] bytes of `text`, cut at a character boundary.
fn head(text: &str) -> &str {
    let mut end = text.len().min(HEAD_CHARS);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        let f = |t: &str| format(t).ok();
        assert_eq!(f("OFXHEADER:100\nDATA:OFXSGML\n<OFX>"), Some(Format::Ofx));
        assert_eq!(
            f("<?xml version=\"1.0\"?>\n<?OFX OFXHEADER=\"200\"?><OFX>"),
            Some(Format::Ofx)
        );
        let camt = "<?xml version=\"1.0\"?><Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\">";
        assert_eq!(f(camt), Some(Format::Camt053));
        assert_eq!(f("!Type:Bank\nD09/19/2026\n^"), Some(Format::Qif));
        assert_eq!(f("Date,Amount\n2026-09-19,1"), Some(Format::Csv));
        assert_eq!(
            format("<?xml version=\"1.0\"?><html/>"),
            Err(StatementError::UnknownXml)
        );
    }
}
