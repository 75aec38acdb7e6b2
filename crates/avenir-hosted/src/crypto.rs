//! YNAB tokens sealed at rest: AES-GCM under the server key.
//!
//! Every instance of one deployment is given the same 32-byte key, in `AVENIR_MCP_SECRET_KEY`
//! (64 hex digits, or 43 characters of unpadded base64url) or in a file named by
//! `AVENIR_MCP_SECRET_KEY_FILE` (same encoding, readable by its owner only). Sealed values are
//! `nonce (12 bytes) ‖ ciphertext ‖ tag (16 bytes)`, the nonce random for every seal. Keys that
//! instances must share for other purposes (the signing key of answer states, …) are derived from
//! it with HKDF-SHA256 ([`SecretKey::derive`]), one per purpose.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::aead::{AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
use ring::hkdf::{HKDF_SHA256, KeyType, Salt};
use ring::rand::{SecureRandom, SystemRandom};
use std::path::Path;

/// The environment variable holding the key itself.
pub const KEY_VAR: &str = "AVENIR_MCP_SECRET_KEY";
/// The environment variable naming a file that holds the key.
pub const KEY_FILE_VAR: &str = "AVENIR_MCP_SECRET_KEY_FILE";

const NONCE_LEN: usize = 12;
const TAG_LEN: usize = 16;
const HOW_TO_MAKE: &str = "make one with `openssl rand -hex 32`";

/// Why a key could not be had, or a sealed value not opened (never the key in it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CryptoError(pub String);

/// The server key: 32 bytes. Its `Debug` shows a mask, never the bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretKey([u8; 32]);

impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretKey(********)")
    }
}

impl SecretKey {
    /// A key from these 32 bytes.
    pub fn from_bytes(bytes: [u8; 32]) -> SecretKey {
        SecretKey(bytes)
    }

    /// A new random key (from the operating system's generator).
    ///
    /// Panics only when the operating system cannot give random bytes, where no key or nonce
    /// could be made safely anyway.
    pub fn generate() -> SecretKey {
        let mut bytes = [0u8; 32];
        random_fill(&mut bytes);
        SecretKey(bytes)
    }

    /// The key from `AVENIR_MCP_SECRET_KEY`, else from the file named by
    /// `AVENIR_MCP_SECRET_KEY_FILE`.
    pub fn from_env() -> Result<SecretKey, CryptoError> {
        Self::from_vars(
            std::env::var(KEY_VAR).ok().as_deref(),
            std::env::var_os(KEY_FILE_VAR).as_deref().map(Path::new),
        )
    }

    /// [`SecretKey::from_env`] on given values (for tests and callers with their own settings).
    pub fn from_vars(key: Option<&str>, key_file: Option<&Path>) -> Result<SecretKey, CryptoError> {
        if let Some(text) = key.filter(|t| !t.trim().is_empty()) {
            return Self::parse(text).map_err(|why| CryptoError(format!("{KEY_VAR} {why}")));
        }
        let Some(path) = key_file else {
            return Err(CryptoError(format!(
                "The hosted mode needs a secret key to seal YNAB's tokens: set {KEY_VAR} to 64 hex \
                 digits, or {KEY_FILE_VAR} to a file holding them (readable by its owner only); \
                 {HOW_TO_MAKE}, and give every instance the same key."
            )));
        };
        let shown = path.display();
        let metadata = std::fs::metadata(path).map_err(|e| {
            CryptoError(format!(
                "{KEY_FILE_VAR} names {shown}, which cannot be read ({e}): point it at the key's \
                 file ({HOW_TO_MAKE})."
            ))
        })?;
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = metadata.permissions().mode();
            if mode & 0o077 != 0 {
                return Err(CryptoError(format!(
                    "The key file {shown} can be read by others (mode {:o}): run `chmod 600 {shown}` \
                     and, since others could read it, make a new key ({HOW_TO_MAKE}); YNAB's tokens \
                     sealed with the old one are then lost and people sign in again.",
                    mode & 0o777
                )));
            }
        }
        let text = std::fs::read_to_string(path).map_err(|e| {
            CryptoError(format!(
                "The key file {shown} cannot be read ({e}): it should hold 64 hex digits \
                 ({HOW_TO_MAKE})."
            ))
        })?;
        Self::parse(&text).map_err(|why| CryptoError(format!("The key file {shown} {why}")))
    }

    /// 64 hex digits or 43 characters of unpadded base64url; the error completes a sentence
    /// beginning with where the text came from.
    fn parse(text: &str) -> Result<SecretKey, String> {
        let text = text.trim();
        let bytes = if text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
            hex::decode(text).ok()
        } else if text.len() == 43 {
            URL_SAFE_NO_PAD.decode(text).ok()
        } else {
            None
        };
        match bytes.and_then(|b| <[u8; 32]>::try_from(b).ok()) {
            Some(bytes) => Ok(SecretKey(bytes)),
            None => Err(format!(
                "is not a key of 32 bytes: it must be 64 hex digits or 43 characters of unpadded \
                 base64url ({} characters were given); {HOW_TO_MAKE}.",
                text.len()
            )),
        }
    }

    fn cipher(&self) -> LessSafeKey {
        // A 32-byte key is the length AES-256-GCM takes, so this never fails.
        let key = UnboundKey::new(&AES_256_GCM, &self.0)
            .unwrap_or_else(|_| unreachable!("a 32-byte key is an AES-256 key"));
        LessSafeKey::new(key)
    }

    /// Seal `plaintext`, bound to `aad` (which must be given again to open it): a random 96-bit
    /// nonce, then the ciphertext and its tag.
    ///
    /// Panics only when the operating system cannot give random bytes (see
    /// [`SecretKey::try_seal`] for the same as an error).
    pub fn seal(&self, plaintext: &[u8], aad: &[u8]) -> Vec<u8> {
        match self.try_seal(plaintext, aad) {
            Ok(sealed) => sealed,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`SecretKey::seal`], its failures as errors.
    pub fn try_seal(&self, plaintext: &[u8], aad: &[u8]) -> Result<Vec<u8>, CryptoError> {
        let mut nonce = [0u8; NONCE_LEN];
        SystemRandom::new().fill(&mut nonce).map_err(|_| {
            CryptoError("The system's random generator failed: nothing was sealed.".into())
        })?;
        let mut out = Vec::with_capacity(NONCE_LEN + plaintext.len() + TAG_LEN);
        out.extend_from_slice(&nonce);
        out.extend_from_slice(plaintext);
        let tag = self
            .cipher()
            .seal_in_place_separate_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(aad),
                &mut out[NONCE_LEN..],
            )
            .map_err(|_| CryptoError("Sealing failed: the value is too long.".into()))?;
        out.extend_from_slice(tag.as_ref());
        Ok(out)
    }

    /// Open what [`SecretKey::seal`] made with this key and this `aad`.
    pub fn open(&self, sealed: &[u8], aad: &[u8]) -> Result<Vec<u8>, CryptoError> {
        if sealed.len() < NONCE_LEN + TAG_LEN {
            return Err(CryptoError(
                "A sealed value is too short to be one: it was damaged or never sealed.".into(),
            ));
        }
        let (nonce, rest) = sealed.split_at(NONCE_LEN);
        let refused = || {
            CryptoError(
                "A sealed value does not open with this key: it was sealed with another key \
                 (was AVENIR_MCP_SECRET_KEY changed?), for another purpose, or damaged."
                    .into(),
            )
        };
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| refused())?;
        let mut in_out = rest.to_vec();
        let opened = self
            .cipher()
            .open_in_place(nonce, Aad::from(aad), &mut in_out)
            .map_err(|_| refused())?;
        let len = opened.len();
        in_out.truncate(len);
        Ok(in_out)
    }

    /// A key for `purpose` (HKDF-SHA256 of this key, the purpose as its info): the same on every
    /// instance that has the same server key, and independent of the key used for sealing.
    pub fn derive(&self, purpose: &str) -> [u8; 32] {
        let info = [purpose.as_bytes()];
        let mut out = [0u8; 32];
        // 32 bytes is far below HKDF-SHA256's limit of 255 * 32, so expand cannot fail.
        let expanded = Salt::new(HKDF_SHA256, b"avenir-mcp hosted v1")
            .extract(&self.0)
            .expand(&info, Len32)
            .and_then(|okm| okm.fill(&mut out));
        if expanded.is_err() {
            out = [0u8; 32];
        }
        out
    }
}

/// The length HKDF is asked for: 32 bytes.
struct Len32;

impl KeyType for Len32 {
    fn len(&self) -> usize {
        32
    }
}

/// Random bytes from the operating system; panics when it has none to give.
fn random_fill(bytes: &mut [u8]) {
    if SystemRandom::new().fill(bytes).is_err() {
        panic!("The operating system's random generator failed: no secret can be made.");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;

    fn key() -> SecretKey {
        SecretKey::generate()
    }

    #[test]
    fn seal_then_open_round_trips() {
        let key = key();
        let sealed = key.seal(b"{\"access_token\":\"a\"}", b"person-1");
        assert_eq!(sealed.len(), 12 + 20 + 16);
        assert_eq!(
            key.open(&sealed, b"person-1").unwrap(),
            b"{\"access_token\":\"a\"}"
        );
        // a fresh nonce every time
        assert_ne!(sealed, key.seal(b"{\"access_token\":\"a\"}", b"person-1"));
    }

    #[test]
    fn wrong_aad_tampering_and_another_key_are_refused() {
        let key = key();
        let sealed = key.seal(b"secret", b"person-1");
        assert!(key.open(&sealed, b"person-2").is_err());
        let mut tampered = sealed.clone();
        let last = tampered.len() - 1;
        tampered[last] ^= 1;
        assert!(key.open(&tampered, b"person-1").is_err());
        let mut tampered = sealed.clone();
        tampered[0] ^= 1;
        assert!(key.open(&tampered, b"person-1").is_err());
        assert!(self::key().open(&sealed, b"person-1").is_err());
        assert!(key.open(&sealed[..20], b"person-1").is_err());
    }

    /// A value sealed by the code this module had before ring (the `aes-gcm` 0.10.3 crate, key
    /// [7; 32], nonce 0..12; OpenSSL seals the same bytes): grants stored then must still open.
    #[test]
    fn a_value_sealed_by_the_earlier_implementation_opens() {
        let key = SecretKey::from_bytes([7; 32]);
        let sealed = hex::decode(
            "000102030405060708090a0b63a388137e6caa3a28c68af787364ec0c35d94f3142628c66152306092dd4a9e5b8afbe4",
        )
        .unwrap();
        assert_eq!(
            key.open(&sealed, b"person-1").unwrap(),
            b"{\"access_token\":\"a\"}"
        );
        assert!(key.open(&sealed, b"person-2").is_err());
    }

    /// HKDF-SHA256 as before (salt "avenir-mcp hosted v1", the purpose as info; the value the
    /// `hkdf` 0.12.4 crate gave): every instance, old or new, derives the same answer-state key.
    #[test]
    fn derive_gives_the_earlier_keys() {
        assert_eq!(
            hex::encode(SecretKey::from_bytes([7; 32]).derive("answer-state")),
            "bc3002a7c328783fec870cc82420c37d17216f0e0ae9dd781b289162db5b8787"
        );
    }

    #[test]
    fn derive_is_stable_per_purpose_and_key() {
        let key = SecretKey::from_bytes([7; 32]);
        assert_eq!(key.derive("answer-state"), key.derive("answer-state"));
        assert_ne!(key.derive("answer-state"), key.derive("other"));
        assert_ne!(
            key.derive("answer-state"),
            SecretKey::from_bytes([8; 32]).derive("answer-state")
        );
        assert_ne!(key.derive("answer-state"), [7; 32]);
    }

    #[test]
    fn debug_masks_the_key() {
        let shown = format!("{:?}", SecretKey::from_bytes([0xab; 32]));
        assert!(!shown.contains("ab"), "{shown}");
        assert!(!shown.contains("171"), "{shown}");
    }

    #[test]
    fn from_vars_reads_hex_and_base64url() {
        let hex_text = "00".repeat(31) + "ff";
        let key = SecretKey::from_vars(Some(&hex_text), None).unwrap();
        let mut expected = [0u8; 32];
        expected[31] = 0xff;
        assert_eq!(key, SecretKey::from_bytes(expected));
        let b64 = URL_SAFE_NO_PAD.encode(expected);
        assert_eq!(b64.len(), 43);
        assert_eq!(SecretKey::from_vars(Some(&b64), None).unwrap(), key);
    }

    #[test]
    fn from_vars_errors_say_what_to_do() {
        let none = SecretKey::from_vars(None, None).unwrap_err().0;
        assert!(none.contains("AVENIR_MCP_SECRET_KEY"), "{none}");
        assert!(none.contains("openssl rand -hex 32"), "{none}");

        let short = SecretKey::from_vars(Some("abcd"), None).unwrap_err().0;
        assert!(short.contains("64 hex digits"), "{short}");
        assert!(!short.contains("abcd"), "the value is never shown: {short}");

        let dir = std::env::temp_dir().join(format!("avenir-key-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("key");
        let mut file = std::fs::File::create(&path).unwrap();
        writeln!(file, "{}", "11".repeat(32)).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let open = SecretKey::from_vars(None, Some(&path)).unwrap_err().0;
        assert!(open.contains("chmod 600"), "{open}");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(
            SecretKey::from_vars(None, Some(&path)).unwrap(),
            SecretKey::from_bytes([0x11; 32])
        );
        let missing = SecretKey::from_vars(None, Some(&dir.join("none")))
            .unwrap_err()
            .0;
        assert!(missing.contains("cannot be read"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
