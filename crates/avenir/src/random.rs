//! Randomness from the operating system's CSPRNG, for confirmation codes, nonces, operation ids,
//! sealing keys and the HTTP transport's token. Nothing here is ever derived from time or
//! counters.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// `N` bytes from the OS CSPRNG.
pub fn bytes<const N: usize>() -> [u8; N] {
    let mut buf = [0u8; N];
    // ring's generator reads the operating system's (getrandom(2) on Linux).
    if ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut buf).is_err() {
        // Without an OS random source nothing secret can be made: stop rather than guess.
        panic!("the operating system's random source failed");
    }
    buf
}

/// `N` random bytes as base64url without padding (RFC 4648 §5): `ceil(4N/3)` characters from
/// `A–Z a–z 0–9 - _`.
pub fn base64url<const N: usize>() -> String {
    URL_SAFE_NO_PAD.encode(bytes::<N>())
}

/// `N` random bytes as `2N` lower-case hex digits.
pub fn hex<const N: usize>() -> String {
    ::hex::encode(bytes::<N>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_is_unpadded_and_url_safe() {
        assert_eq!(URL_SAFE_NO_PAD.encode([0xfb, 0xff]), "-_8");
        let code = base64url::<8>();
        assert_eq!(code.len(), 11);
        assert!(
            code.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        );
        assert_eq!(base64url::<32>().len(), 43);
    }

    #[test]
    fn hex_is_two_lower_case_digits_per_byte() {
        let id = hex::<6>();
        assert_eq!(id.len(), 12);
        assert!(id.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')));
        assert_ne!(hex::<16>(), hex::<16>());
    }
}
