//! Page cursors of `suggest_categories` (`docs/contract/reads.md` §12): URL-safe Base64, with `=`
//! padding, of the ASCII text `offset:<n>`. Anything else is refused with one sentence
//! (`docs/contract/server.md` §7.2).

/// The message for a cursor the server did not produce.
pub const INVALID_CURSOR: &str = "Invalid cursor: pass the next_cursor value from the previous page unchanged, or omit it to start from the first page.";

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The cursor of the page starting at `offset`.
pub fn encode(offset: usize) -> String {
    let bytes = format!("offset:{offset}").into_bytes();
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18u32, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> shift) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn sextet(c: u8) -> Option<u32> {
    ALPHABET.iter().position(|&a| a == c).map(|p| p as u32)
}

/// Padded URL-safe Base64 to bytes; `None` when it is not that.
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    if bytes.is_empty() || !bytes.len().is_multiple_of(4) {
        return None;
    }
    let padding = bytes.iter().rev().take_while(|&&b| b == b'=').count();
    if padding > 2 || bytes[..bytes.len() - padding].contains(&b'=') {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for (k, quad) in bytes.chunks(4).enumerate() {
        let last = k == bytes.len() / 4 - 1;
        let kept = if last { 4 - padding } else { 4 };
        let mut n = 0u32;
        for (i, &c) in quad.iter().enumerate() {
            let value = if i < kept { sextet(c)? } else { 0 };
            n |= value << (18 - 6 * i as u32);
        }
        let produced = kept - 1;
        for i in 0..produced {
            out.push(((n >> (16 - 8 * i as u32)) & 0xff) as u8);
        }
    }
    Some(out)
}

/// The offset a cursor names, or [`INVALID_CURSOR`]. An offset too large to hold is taken as
/// past the end (an empty page).
pub fn decode(cursor: &str) -> Result<usize, &'static str> {
    let text = decode_base64(cursor)
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .ok_or(INVALID_CURSOR)?;
    let digits = text.strip_prefix("offset:").ok_or(INVALID_CURSOR)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(INVALID_CURSOR);
    }
    Ok(digits.parse::<usize>().unwrap_or(usize::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn worked_examples() {
        assert_eq!(encode(3), "b2Zmc2V0OjM=");
        assert_eq!(decode("b2Zmc2V0OjM="), Ok(3));
        assert_eq!(decode("b2Zmc2V0OjEwMA=="), Ok(100));
        assert_eq!(encode(100), "b2Zmc2V0OjEwMA==");
        for bad in [
            "banana",
            "b2Zmc2V0OjM",    // no padding
            "cGFnZTozAA==",   // page:3 and a NUL
            "cGFnZToz",       // page:3
            "b2Zmc2V0Og==",   // offset: with no digit
            "b2Zmc2V0Oi0x",   // offset:-1
            "b2Zmc2V0OjM=\n", // a character outside the alphabet
            "b2Zm+2V0OjM=",   // standard Base64, not URL-safe
            "b2Zm=2V0OjM=",   // padding inside
            "",
            "_w==", // not UTF-8
        ] {
            assert_eq!(decode(bad), Err(INVALID_CURSOR), "{bad:?}");
        }
        assert_eq!(decode(&encode(usize::MAX)), Ok(usize::MAX));
    }

    proptest! {
        #[test]
        fn round_trip(offset in any::<usize>()) {
            prop_assert_eq!(decode(&encode(offset)), Ok(offset));
        }

        #[test]
        fn never_panics(text in "[A-Za-z0-9_=-]{0,24}") {
            let _ = decode(&text);
        }
    }
}
