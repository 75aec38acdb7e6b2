//! The few Unicode general categories that the rules on untrusted text need (Cf, Cc, Zl, Zp).
//! Kept as small tables so no Unicode database crate is needed.

/// Unicode general category Cf (format characters: zero-width, bidi controls, soft hyphen, BOM…).
pub fn is_format(c: char) -> bool {
    matches!(c as u32,
        0x00AD
        | 0x0600..=0x0605
        | 0x061C
        | 0x06DD
        | 0x070F
        | 0x0890..=0x0891
        | 0x08E2
        | 0x180E
        | 0x200B..=0x200F
        | 0x202A..=0x202E
        | 0x2060..=0x2064
        | 0x2066..=0x206F
        | 0xFEFF
        | 0xFFF9..=0xFFFB
        | 0x110BD
        | 0x110CD
        | 0x13430..=0x1343F
        | 0x1BCA0..=0x1BCA3
        | 0x1D173..=0x1D17A
        | 0xE0001
        | 0xE0020..=0xE007F)
}

/// Unicode general category Cc (C0 and C1 controls, DEL).
pub fn is_control(c: char) -> bool {
    c.is_control()
}

/// Unicode general categories Zl and Zp (U+2028, U+2029).
pub fn is_line_or_paragraph_separator(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}')
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
}
