//! A CSV header recognised from its words, in English, French, German, Dutch and Spanish (with a
//! few Italian and Portuguese ones): which column is the booking date, the amount (one signed
//! column, debit and credit columns, or an amount and a direction), the payee, the memo and the
//! running balance. Also the `Account: …` and `Currency: …` lines some banks write above the table.
//!
//! Words are compared folded: lower case, accents dropped, punctuation as spaces, so that
//! `Libellé`, `LIBELLE` and `libellé ` are one word and `Betrag (EUR)` holds the word `betrag`.

use super::super::{AmountColumns, ColumnRef, Columns};

const DATE: &[&str] = &[
    "date",
    "datum",
    "fecha",
    "data",
    "buchungstag",
    "wertstellung",
    "valuta",
    "posted",
];
/// Words of a value date (`Date de valeur`, `Valutadatum`), taken only when no booking date is.
const VALUE: &[&str] = &[
    "valeur",
    "valuta",
    "valutadatum",
    "wertstellung",
    "value",
    "valor",
    "rentedatum",
];
const AMOUNT: &[&str] = &[
    "amount", "montant", "betrag", "bedrag", "importe", "importo", "umsatz", "sum", "summe",
];
const DEBIT: &[&str] = &[
    "debit",
    "debits",
    "debet",
    "soll",
    "af",
    "withdrawal",
    "withdrawals",
    "cargo",
    "cargos",
    "sortie",
    "sorties",
    "belastung",
    "money out",
    "paid out",
];
const CREDIT: &[&str] = &[
    "credit",
    "credits",
    "haben",
    "bij",
    "deposit",
    "deposits",
    "abono",
    "abonos",
    "entree",
    "entrees",
    "gutschrift",
    "money in",
    "paid in",
];
const BALANCE: &[&str] = &["balance", "bal", "solde", "saldo", "kontostand", "running"];
/// Who was paid or paid: preferred as the payee.
const PARTY: &[&str] = &[
    "payee",
    "beneficiary",
    "begunstigde",
    "begunstigter",
    "beguenstigter",
    "zahlungspflichtiger",
    "empfanger",
    "empfaenger",
    "auftraggeber",
    "naam",
    "name",
    "merchant",
    "counterparty",
    "tiers",
    "beneficiaire",
    "nom",
    "destinatario",
    "ordenante",
    "tegenpartij",
];
/// The bank's label of the movement: the payee when no party column is, else the memo.
const LABEL: &[&str] = &[
    "description",
    "libelle",
    "omschrijving",
    "concepto",
    "descripcion",
    "narrative",
    "details",
    "detail",
    "verwendungszweck",
    "buchungstext",
    "particulars",
    "designation",
    "text",
    "bezeichnung",
    "descrizione",
    "transaction",
];
const MEMO: &[&str] = &[
    "memo",
    "note",
    "notes",
    "reference",
    "referenz",
    "mededelingen",
    "communication",
    "remarque",
    "observaciones",
    "purpose",
    "referencia",
];
const ACCOUNT: &[&str] = &[
    "account",
    "konto",
    "kontonummer",
    "iban",
    "compte",
    "rekening",
    "rekeningnummer",
    "cuenta",
    "auftragskonto",
];
const CURRENCY: &[&str] = &[
    "currency", "wahrung", "waehrung", "devise", "moneda", "munt",
];

/// Lower case, common Latin accents dropped (`ß` as `ss`).
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => out.push('a'),
            'ç' => out.push('c'),
            'è' | 'é' | 'ê' | 'ë' => out.push('e'),
            'ì' | 'í' | 'î' | 'ï' => out.push('i'),
            'ñ' => out.push('n'),
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' => out.push('o'),
            'ù' | 'ú' | 'û' | 'ü' => out.push('u'),
            'ý' | 'ÿ' => out.push('y'),
            'ß' => out.push_str("ss"),
            c => out.push(c),
        }
    }
    out
}

/// ` word word ` — folded words between spaces, for matching whole words and word pairs.
fn words(cell: &str) -> String {
    let folded: String = fold(cell)
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    format!(
        " {} ",
        folded.split_whitespace().collect::<Vec<_>>().join(" ")
    )
}

/// Whether ` word word ` text holds one of `list` as whole words.
fn has(words: &str, list: &[&str]) -> bool {
    list.iter().any(|w| {
        words
            .match_indices(w)
            .any(|(i, _)| words[..i].ends_with(' ') && words[i + w.len()..].starts_with(' '))
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Date { value: bool },
    Amount,
    Debit,
    Credit,
    Direction,
    Balance,
    Party,
    Label,
    Memo,
    Other,
}

fn role(cell: &str) -> Role {
    // A cell that opens with a digit or a sign is a value (a date, an amount), never a column's
    // name: the data rows go by without the word lists.
    if cell
        .trim_start()
        .starts_with(|c: char| c.is_ascii_digit() || "+-−(".contains(c))
    {
        return Role::Other;
    }
    let w = words(cell);
    let compound_date = w.split_whitespace().any(|word| word.ends_with("datum"));
    let (debit, credit) = (has(&w, DEBIT), has(&w, CREDIT));
    if has(&w, BALANCE) {
        Role::Balance
    } else if debit && credit {
        Role::Direction
    } else if debit {
        Role::Debit
    } else if credit {
        Role::Credit
    } else if has(&w, DATE) || has(&w, VALUE) || compound_date {
        Role::Date {
            value: has(&w, VALUE),
        }
    } else if has(&w, AMOUNT) {
        Role::Amount
    } else if has(&w, PARTY) {
        Role::Party
    } else if has(&w, LABEL) {
        Role::Label
    } else if has(&w, MEMO) {
        Role::Memo
    } else {
        Role::Other
    }
}

/// The columns a header row names, by 0-based index; `None` when it has no date column or no
/// amount (a signed amount, debit and credit, or an amount and its direction).
pub fn recognise(cells: &[String]) -> Option<Columns> {
    let roles: Vec<Role> = cells.iter().map(|c| role(c)).collect();
    let first = |wanted: &dyn Fn(Role) -> bool| roles.iter().position(|r| wanted(*r));
    let date = first(&|r| r == Role::Date { value: false })
        .or_else(|| first(&|r| r == Role::Date { value: true }))?;
    let index = ColumnRef::Index;
    let amount = match (
        first(&|r| r == Role::Amount),
        first(&|r| r == Role::Debit),
        first(&|r| r == Role::Credit),
        first(&|r| r == Role::Direction),
    ) {
        (_, Some(debit), Some(credit), _) => AmountColumns::DebitCredit {
            debit: index(debit),
            credit: index(credit),
        },
        (Some(amount), _, _, Some(direction)) => AmountColumns::Directed {
            amount: index(amount),
            direction: index(direction),
        },
        (Some(amount), _, _, None) => AmountColumns::Signed(index(amount)),
        _ => return None,
    };
    let party = first(&|r| r == Role::Party);
    let label = first(&|r| r == Role::Label);
    let payee = party.or(label);
    let memo = first(&|r| r == Role::Memo).or(if party.is_some() { label } else { None });
    Some(Columns {
        date: index(date),
        amount,
        payee: payee.map(index),
        memo: memo.map(index),
        balance: first(&|r| r == Role::Balance).map(index),
    })
}

/// What a line above the table says, as `(key, value)`: `Account: FR76…` or `Konto;DE12…`.
fn preamble(cells: &[String]) -> Option<(String, String)> {
    let first = cells.first()?;
    let (key, inline) = match first.split_once(':') {
        Some((key, value)) => (key, value.trim()),
        None => (first.as_str(), ""),
    };
    let value = if inline.is_empty() {
        cells[1..]
            .iter()
            .map(|c| c.trim())
            .find(|c| !c.is_empty())?
    } else {
        inline
    };
    Some((words(key), value.to_string()))
}

/// The account a preamble line names.
pub fn preamble_account(cells: &[String]) -> Option<String> {
    let (key, value) = preamble(cells)?;
    has(&key, ACCOUNT).then_some(value)
}

/// The currency a preamble line names (three letters).
pub fn preamble_currency(cells: &[String]) -> Option<String> {
    let (key, value) = preamble(cells)?;
    let code = value.trim().to_ascii_uppercase();
    (has(&key, CURRENCY) && code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase()))
        .then_some(code)
}

/// A currency code written in an amount column's header: `Betrag (EUR)`, `Amount EUR`.
pub fn header_currency(name: &str) -> Option<String> {
    name.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() == 3 && w.bytes().all(|b| b.is_ascii_uppercase()))
        .find(|w| !matches!(*w, "SUM"))
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(row: &[&str]) -> Vec<String> {
        row.iter().map(|c| c.to_string()).collect()
    }

    fn at(i: usize) -> ColumnRef {
        ColumnRef::Index(i)
    }

    #[test]
    fn headers_of_several_banks() {
        let german = cells(&[
            "Buchungstag",
            "Valutadatum",
            "Beguenstigter/Zahlungspflichtiger",
            "Verwendungszweck",
            "Betrag (EUR)",
            "Saldo",
        ]);
        assert_eq!(
            recognise(&german),
            Some(Columns {
                date: at(0),
                amount: AmountColumns::Signed(at(4)),
                payee: Some(at(2)),
                memo: Some(at(3)),
                balance: Some(at(5)),
            })
        );
        let french = cells(&[
            "Date opération",
            "Date valeur",
            "Libellé",
            "Débit euros",
            "Crédit euros",
        ]);
        let read = recognise(&french);
        assert_eq!(read.as_ref().map(|c| &c.date), Some(&at(0)));
        assert_eq!(
            read.map(|c| c.amount),
            Some(AmountColumns::DebitCredit {
                debit: at(3),
                credit: at(4)
            })
        );
        let dutch = cells(&[
            "Datum",
            "Naam / Omschrijving",
            "Rekening",
            "Af Bij",
            "Bedrag (EUR)",
            "Mededelingen",
        ]);
        let read = recognise(&dutch);
        assert_eq!(
            read.as_ref().map(|c| &c.amount),
            Some(&AmountColumns::Directed {
                amount: at(4),
                direction: at(3)
            })
        );
        assert_eq!(read.and_then(|c| c.memo), Some(at(5)));
        let spanish = cells(&["Fecha", "Fecha valor", "Concepto", "Importe", "Saldo"]);
        assert_eq!(recognise(&spanish).map(|c| c.payee), Some(Some(at(2))));
        assert_eq!(recognise(&cells(&["Name", "Street", "City"])), None);
    }

    #[test]
    fn lines_above_the_table() {
        assert_eq!(
            preamble_account(&cells(&["Account: FR76 3000 6000 0112 3456 7890 189"])),
            Some("FR76 3000 6000 0112 3456 7890 189".into())
        );
        assert_eq!(
            preamble_account(&cells(&["Kontonummer", "", "12345678"])),
            Some("12345678".into())
        );
        assert_eq!(
            preamble_currency(&cells(&["Währung", "eur"])),
            Some("EUR".into())
        );
        assert_eq!(header_currency("Betrag (EUR)"), Some("EUR".into()));
        assert_eq!(header_currency("Amount"), None);
    }
}
