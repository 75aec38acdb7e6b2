//! Quoting a value the way the reference's messages do (Python's `repr` of a string).
//! Messages that say `{x!r}` in the spec use [`quoted`] so they stay byte-identical.
//!
//! Why it lives in the YNAB layer, not with the server's text rules (`avenir::text`): this
//! crate's own error messages quote what they refuse (a bad path segment, an unreadable
//! `AVENIR_MCP_RATE_LIMIT`), and `ynab` cannot depend on `avenir`. It is the one piece of
//! message formatting kept here; `avenir::text` re-exports it so both crates quote alike.

use unicode_general_category::{GeneralCategory, get_general_category};

/// Quote `text` like Python's `repr(str)`: single quotes, or double quotes when the text holds a
/// `'` and no `"`; `\\`, the chosen quote, `\n`, `\r`, `\t` escaped; other non-printable
/// characters as `\xhh`, `\uhhhh` or `\Uhhhhhhhh`.
pub fn quoted(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if is_printable(c) => out.push(c),
            c => {
                let code = c as u32;
                if code <= 0xff {
                    out.push_str(&format!("\\x{code:02x}"));
                } else if code <= 0xffff {
                    out.push_str(&format!("\\u{code:04x}"));
                } else {
                    out.push_str(&format!("\\U{code:08x}"));
                }
            }
        }
    }
    out.push(quote);
    out
}

/// Python's `str.isprintable` for one character, closely enough for messages: controls, format
/// characters, separators other than the plain space, and private-use or unassigned ranges that
/// matter here are escaped.
fn is_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    get_general_category(c) != GeneralCategory::Format
}

#[cfg(test)]
mod tests {
    use super::quoted;

    #[test]
    fn plain_text_gets_single_quotes() {
        assert_eq!(quoted("a/b"), "'a/b'");
        assert_eq!(quoted(""), "''");
    }

    #[test]
    fn a_single_quote_switches_to_double_quotes() {
        assert_eq!(quoted("it's"), "\"it's\"");
        assert_eq!(quoted("it's \"x\""), "'it\\'s \"x\"'");
    }

    #[test]
    fn controls_are_escaped() {
        assert_eq!(quoted("a\nb\tc\\"), "'a\\nb\\tc\\\\'");
        assert_eq!(quoted("\u{202e}x"), "'\\u202ex'");
        assert_eq!(quoted("\u{7}"), "'\\x07'");
        assert_eq!(quoted("\u{a0}"), "'\\xa0'");
        assert_eq!(quoted("é€"), "'é€'");
    }
}
