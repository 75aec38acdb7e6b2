//! ISO 20022 camt.053 (bank-to-customer statement), any version, read with `quick-xml` through
//! the element list of `markup.rs`; namespace prefixes are ignored.
//!
//! Each `Ntry` is a line: `Amt` signed by `CdtDbtInd` (`DBIT` is money out), `BookgDt` (else
//! `ValDt`) as the date, `AcctSvcrRef` (else `NtryRef`, else the transaction's `Refs/AcctSvcrRef`)
//! as the bank's id; from the entry's first `TxDtls`, the creditor's name for money out or the
//! debtor's for money in as the payee, the unstructured remittance text as the memo; an entry
//! without them falls back on `AddtlNtryInf`. The statement's `Acct` gives the account (IBAN or
//! other id) and currency, its `CLBD` balance the closing balance. Several `Stmt` elements of one
//! account are read as one statement; of different accounts, they are refused.

use super::account::AccountRef;
use super::error::{Place, Shown, StatementError};
use super::markup::{self, Node};
use super::{ClosingBalance, Format, Statement, StatementLine, amount, collapse, date, non_empty};

const EXPECTED_DATE: &str = "YYYY-MM-DD";

/// A leaf's text and line.
type Text = Option<(String, usize)>;

#[derive(Default)]
struct Entry {
    line: usize,
    amount: Text,
    currency: Option<String>,
    direction: Text,
    booked: Text,
    valued: Text,
    ntry_ref: Option<String>,
    servicer_ref: Option<String>,
    tx_ref: Option<String>,
    creditor: Option<String>,
    debtor: Option<String>,
    remittance: Vec<String>,
    additional: Option<String>,
    transactions: usize,
}

#[derive(Default)]
struct Balance {
    code: Option<String>,
    amount: Text,
    direction: Text,
    date: Text,
}

#[derive(Default)]
struct Walk {
    stack: Vec<String>,
    entry: Option<Entry>,
    balance: Option<Balance>,
    statement_account: Option<AccountRef>,
    lines: Vec<StatementLine>,
    account: Option<AccountRef>,
    currency: Option<String>,
    amount_currency: Option<String>,
    closing: Option<ClosingBalance>,
}

pub fn read(text: &str) -> Result<Statement, StatementError> {
    let nodes = markup::xml_nodes(text).map_err(|line| StatementError::Malformed {
        format: Format::Camt053,
        line,
    })?;
    let mut walk = Walk::default();
    for node in &nodes {
        walk.step(node)?;
    }
    Ok(Statement {
        format: Format::Camt053,
        lines: walk.lines,
        account: walk.account,
        currency: walk.currency.or(walk.amount_currency),
        closing: walk.closing,
        assumptions: Vec::new(),
    })
}

impl Walk {
    fn step(&mut self, node: &Node) -> Result<(), StatementError> {
        match node {
            Node::Open { name, line } => {
                match name.as_str() {
                    "Ntry" => {
                        self.entry = Some(Entry {
                            line: *line,
                            ..Entry::default()
                        })
                    }
                    "Bal" if self.entry.is_none() => self.balance = Some(Balance::default()),
                    "TxDtls" => self.entry.iter_mut().for_each(|e| e.transactions += 1),
                    _ => {}
                }
                self.stack.push(name.clone());
            }
            Node::Close { name } => {
                self.stack.pop();
                match name.as_str() {
                    "Ntry" => self.finish_entry()?,
                    "Bal" => self.finish_balance()?,
                    "Stmt" => self.finish_statement()?,
                    _ => {}
                }
            }
            Node::Leaf {
                name,
                text,
                attrs,
                line,
            } => {
                let ccy = attrs
                    .iter()
                    .find(|(k, _)| k == "Ccy")
                    .map(|(_, v)| v.clone());
                self.leaf(name, text, ccy, *line);
            }
        }
        Ok(())
    }

    /// Whether the open elements end with `path`.
    fn at(&self, path: &[&str]) -> bool {
        self.stack.len() >= path.len()
            && self.stack[self.stack.len() - path.len()..]
                .iter()
                .zip(path)
                .all(|(open, want)| open == want)
    }

    fn within(&self, name: &str) -> bool {
        self.stack.iter().any(|open| open == name)
    }

    fn leaf(&mut self, name: &str, text: &str, ccy: Option<String>, line: usize) {
        let value = Some((text.to_string(), line));
        let balance_code = self.at(&["Tp", "CdOrPrtry"]);
        if self.entry.is_some() {
            self.entry_leaf(name, text, ccy, line);
        } else if let Some(b) = self.balance.as_mut() {
            match name {
                "Cd" if balance_code => b.code = non_empty(text),
                "Amt" => b.amount = value,
                "CdtDbtInd" => b.direction = value,
                "Dt" | "DtTm" => b.date = value,
                _ => {}
            }
        } else if (name == "IBAN" && self.at(&["Acct", "Id"]))
            || (name == "Id" && self.at(&["Acct", "Id", "Othr"]))
        {
            self.statement_identifier(text);
        } else if name == "Ccy" && self.at(&["Acct"]) {
            self.currency = non_empty(text).map(|c| c.to_ascii_uppercase());
        }
    }

    fn statement_identifier(&mut self, text: &str) {
        if let Some(found) = AccountRef::from_identifier(text) {
            self.statement_account = Some(match self.statement_account.take() {
                Some(known) => known.merge(found),
                None => found,
            });
        }
    }

    fn entry_leaf(&mut self, name: &str, text: &str, ccy: Option<String>, line: usize) {
        let first_tx = self.entry.as_ref().is_some_and(|e| e.transactions <= 1);
        let parties = first_tx && self.within("RltdPties");
        let (creditor, debtor) = (self.within("Cdtr"), self.within("Dbtr"));
        let remittance = first_tx && self.at(&["RmtInf"]);
        let tx_ref = first_tx && self.at(&["TxDtls", "Refs"]);
        let direct = self.at(&["Ntry"]);
        let (booked, valued) = (self.at(&["BookgDt"]), self.at(&["ValDt"]));
        let Some(e) = self.entry.as_mut() else {
            return;
        };
        let value = Some((text.to_string(), line));
        match name {
            "Amt" if direct => {
                e.amount = value;
                e.currency = ccy;
            }
            "CdtDbtInd" if direct => e.direction = value,
            "NtryRef" if direct => e.ntry_ref = non_empty(text),
            "AcctSvcrRef" if direct => e.servicer_ref = non_empty(text),
            "AddtlNtryInf" if direct => e.additional = non_empty(text),
            "AcctSvcrRef" if tx_ref => e.tx_ref = non_empty(text),
            "Dt" | "DtTm" if booked => e.booked = value,
            "Dt" | "DtTm" if valued => e.valued = value,
            "Nm" if parties && creditor => e.creditor = non_empty(text),
            "Nm" if parties && debtor => e.debtor = non_empty(text),
            "Ustrd" if remittance => e.remittance.extend(non_empty(text)),
            _ => {}
        }
    }

    fn finish_entry(&mut self) -> Result<(), StatementError> {
        let Some(e) = self.entry.take() else {
            return Ok(());
        };
        let missing = |element| StatementError::Missing {
            format: Format::Camt053,
            element,
            line: e.line,
        };
        let amount_text = e.amount.as_ref().ok_or_else(|| missing("<Amt>"))?;
        let direction = e.direction.as_ref().ok_or_else(|| missing("<CdtDbtInd>"))?;
        let money_in = credit(direction)?;
        let magnitude = read_amount(amount_text)?.abs();
        let day = e.booked.as_ref().or(e.valued.as_ref());
        let date = read_date(day.ok_or_else(|| missing("<BookgDt>"))?, "BookgDt")?;
        if self.amount_currency.is_none() {
            self.amount_currency = e.currency.clone();
        }
        let party = if money_in { &e.debtor } else { &e.creditor };
        let remittance = non_empty(&e.remittance.join(" "));
        let (payee, memo) = match (party, remittance, &e.additional) {
            (Some(party), remittance, additional) => {
                (party.clone(), remittance.or(additional.clone()))
            }
            (None, remittance, Some(additional)) => (additional.clone(), remittance),
            (None, remittance, None) => (remittance.unwrap_or_default(), None),
        };
        self.lines.push(StatementLine {
            date,
            amount: if money_in { magnitude } else { -magnitude },
            payee: collapse(&payee),
            memo,
            bank_id: e.servicer_ref.or(e.ntry_ref).or(e.tx_ref),
            source_line: e.line,
        });
        Ok(())
    }

    fn finish_balance(&mut self) -> Result<(), StatementError> {
        let Some(b) = self.balance.take() else {
            return Ok(());
        };
        if b.code.as_deref() != Some("CLBD") {
            return Ok(());
        }
        let (Some(amount_text), Some(direction), Some(day)) = (&b.amount, &b.direction, &b.date)
        else {
            return Ok(());
        };
        let magnitude = read_amount(amount_text)?.abs();
        let amount = if credit(direction)? {
            magnitude
        } else {
            -magnitude
        };
        let date = read_date(day, "Dt")?;
        if self.closing.is_none_or(|known| known.date <= date) {
            self.closing = Some(ClosingBalance { amount, date });
        }
        Ok(())
    }

    fn finish_statement(&mut self) -> Result<(), StatementError> {
        let Some(found) = self.statement_account.take() else {
            return Ok(());
        };
        match &self.account {
            Some(known) if known.key() != found.key() => Err(StatementError::SeveralAccounts {
                first: Shown::new(known.key()),
                second: Shown::new(found.key()),
            }),
            Some(_) => Ok(()),
            None => {
                self.account = Some(found);
                Ok(())
            }
        }
    }
}

/// `CRDT` is money in, `DBIT` money out.
fn credit((text, line): &(String, usize)) -> Result<bool, StatementError> {
    match text.as_str() {
        "CRDT" => Ok(true),
        "DBIT" => Ok(false),
        other => Err(StatementError::BadDirection {
            at: Place::element(*line, "CdtDbtInd"),
            text: Shown::new(other),
        }),
    }
}

fn read_amount((text, line): &(String, usize)) -> Result<ynab::models::Milliunits, StatementError> {
    amount::read(text, amount::lone_decimal(text), || {
        Place::element(*line, "Amt")
    })
}

fn read_date(
    (text, line): &(String, usize),
    element: &str,
) -> Result<chrono::NaiveDate, StatementError> {
    date::iso(text).ok_or_else(|| StatementError::BadDate {
        at: Place::element(*line, element),
        text: Shown::new(text),
        expected: EXPECTED_DATE,
    })
}
