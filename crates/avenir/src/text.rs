//! Text from YNAB is untrusted (banks, merchants, anyone who can pay the user): these rules make it
//! safe to place in an answer or a question, as data that can never forge a line or an instruction.

pub mod class;

use class::{is_control, is_format, is_line_or_paragraph_separator};

pub use ynab::quote::quoted;

/// Longest text shown, in code points; longer text keeps 79 and gets `…`.
pub const MAX_SHOWN: usize = 80;

/// The display rule of `docs/contract/server.md` §6.4: drop format characters (Cf), turn controls
/// (Cc) and line or paragraph separators (Zl, Zp) into spaces, collapse white space, trim, cut to
/// 80 code points.
pub fn safe_text(text: Option<&str>) -> String {
    let Some(text) = text else {
        return String::new();
    };
    let collapsed = uncut(text);
    if collapsed.chars().count() > MAX_SHOWN {
        let mut cut: String = collapsed.chars().take(MAX_SHOWN - 1).collect();
        cut.push('…');
        cut
    } else {
        collapsed
    }
}

/// The display rule without its cut: for text an answer shows in full (a payee's merchant,
/// `docs/contract/reads.md` §5), which must still hold no control, format or separator character.
pub fn uncut(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .filter(|c| !is_format(*c))
        .map(|c| {
            if is_control(c) || is_line_or_paragraph_separator(c) {
                ' '
            } else {
                c
            }
        })
        .collect();
    cleaned.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// [`safe_text`] of a present string.
pub fn safe(text: &str) -> String {
    safe_text(Some(text))
}

/// Case-insensitive comparison key (a full case fold for the characters that matter: `ß` → `ss`).
pub fn fold(text: &str) -> String {
    text.to_uppercase().to_lowercase()
}

/// Text escaped for HTML content and attribute values (the hosted sign-in pages and the local
/// confirmation page).
pub fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_rule() {
        assert_eq!(safe_text(None), "");
        assert_eq!(safe("Rent\n- forged line"), "Rent - forged line");
        assert_eq!(safe("a\u{202e}b\u{200b}c"), "abc");
        assert_eq!(safe("  x\t\u{a0} y\u{2028}z  "), "x y z");
        let long = "é".repeat(100);
        let shown = safe(&long);
        assert_eq!(shown.chars().count(), 80);
        assert!(shown.ends_with('…'));
        assert_eq!(safe(&"a".repeat(80)), "a".repeat(80));
        assert_eq!(uncut(&long), long);
        assert_eq!(uncut("\u{202e}a\u{0}b\u{7}\u{2066}"), "a b");
    }

    #[test]
    fn fold_is_a_case_fold() {
        assert_eq!(fold("Straße"), fold("STRASSE"));
        assert_eq!(fold("MARKET Fresh"), "market fresh");
    }
}
