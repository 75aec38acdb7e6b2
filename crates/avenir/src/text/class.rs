//! The Unicode general categories the rules on untrusted text need: Cf, Cc, Zl and Zp.
//! Answered by the `unicode-general-category` crate's tables (Unicode 16.0), not by a table of
//! our own.

use unicode_general_category::{GeneralCategory, get_general_category};

/// Unicode general category Cf (format characters: zero-width, bidi controls, soft hyphen, BOM…).
pub fn is_format(c: char) -> bool {
    get_general_category(c) == GeneralCategory::Format
}

/// Unicode general category Cc (C0 and C1 controls, DEL).
pub fn is_control(c: char) -> bool {
    get_general_category(c) == GeneralCategory::Control
}

/// Unicode general categories Zl and Zp (U+2028, U+2029).
pub fn is_line_or_paragraph_separator(c: char) -> bool {
    matches!(
        get_general_category(c),
        GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        assert!(is_format('\u{202e}'));
        assert!(is_format('\u{200b}'));
        assert!(is_format('\u{feff}'));
        assert!(!is_format('a'));
        assert!(is_control('\n'));
        assert!(is_control('\u{85}'));
        assert!(!is_control(' '));
        assert!(is_line_or_paragraph_separator('\u{2029}'));
    }

    /// The characters the display rule exists for: marks that reorder or hide text.
    #[test]
    fn bidi_marks_isolates_bom_and_soft_hyphen_are_format_characters() {
        for c in ['\u{200E}', '\u{202E}', '\u{2066}', '\u{FEFF}', '\u{00AD}'] {
            assert!(is_format(c), "U+{:04X} is Cf", c as u32);
            assert!(!is_control(c), "U+{:04X} is not Cc", c as u32);
            assert!(!is_line_or_paragraph_separator(c));
        }
        assert!(is_line_or_paragraph_separator('\u{2028}'));
        assert!(!is_format('\u{2028}'));
    }
}
