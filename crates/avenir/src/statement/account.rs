//! The account a statement names (an IBAN, an account number or both), kept in a normalised form
//! so that it can later be looked for, loosely, in a YNAB account's name or note.

/// What the file says the account is. Both strings are normalised: upper case, letters and digits
/// only (`FR76 3000 …` becomes `FR763000…`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AccountRef {
    iban: Option<String>,
    number: Option<String>,
}

impl AccountRef {
    /// From one identifier the file gives: an IBAN when it has an IBAN's shape (two letters, two
    /// check digits, 11 to 30 letters or digits), else an account number. `None` when nothing of
    /// it is a letter or digit.
    pub fn from_identifier(text: &str) -> Option<AccountRef> {
        let normal = AccountRef::normalise(text);
        if normal.is_empty() {
            return None;
        }
        Some(if looks_like_iban(&normal) {
            AccountRef {
                iban: Some(normal),
                number: None,
            }
        } else {
            AccountRef {
                iban: None,
                number: Some(normal),
            }
        })
    }

    /// The IBAN, normalised.
    pub fn iban(&self) -> Option<&str> {
        self.iban.as_deref()
    }

    /// The account number, normalised.
    pub fn number(&self) -> Option<&str> {
        self.number.as_deref()
    }

    /// The last four digits of the number (or of the IBAN), which people often put in an
    /// account's name ("Checking …1234").
    pub fn last_four(&self) -> Option<String> {
        let source = self.number.as_deref().or(self.iban.as_deref())?;
        let digits: Vec<char> = source.chars().filter(char::is_ascii_digit).collect();
        (digits.len() >= 4).then(|| digits[digits.len() - 4..].iter().collect())
    }

    /// Every normalised string to look for in [`AccountRef::normalise`]d text: the IBAN, the
    /// number, the last four digits; longest first.
    pub fn needles(&self) -> Vec<String> {
        let mut needles: Vec<String> = self.iban.iter().chain(&self.number).cloned().collect();
        needles.extend(self.last_four());
        needles.dedup();
        needles
    }

    /// Text as the needles are: upper case, letters and digits only. Apply it to a YNAB account's
    /// name or note before looking for a needle in it.
    pub fn normalise(text: &str) -> String {
        text.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_uppercase())
            .collect()
    }

    /// The one key two references of the same file are compared by (IBAN, else number).
    pub(super) fn key(&self) -> &str {
        self.iban
            .as_deref()
            .or(self.number.as_deref())
            .unwrap_or_default()
    }

    /// Joins an IBAN and a number given separately (camt.053's `IBAN` or `Othr/Id`).
    pub(super) fn merge(self, other: AccountRef) -> AccountRef {
        AccountRef {
            iban: self.iban.or(other.iban),
            number: self.number.or(other.number),
        }
    }
}

fn looks_like_iban(normal: &str) -> bool {
    let bytes = normal.as_bytes();
    (15..=34).contains(&bytes.len())
        && bytes[..2].iter().all(u8::is_ascii_uppercase)
        && bytes[2..4].iter().all(u8::is_ascii_digit)
}
