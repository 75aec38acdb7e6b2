//! OFX and QFX statements, bank (`STMTRS`) or card (`CCSTMTRS`). Version 2 is XML and read with
//! `quick-xml`; version 1 is SGML and read by the scanner of `ofx/sgml.rs`. Both give the same
//! element list, walked here: each `STMTTRN` is a line (`DTPOSTED`, else `DTUSER`; `TRNAMT`;
//! `FITID`; `NAME` or `PAYEE/NAME`, else `MEMO`, as the payee), `BANKACCTFROM`/`CCACCTFROM`'s
//! `ACCTID` the account, `CURDEF` the currency, `LEDGERBAL` the closing balance. Statements of
//! two accounts in one file are refused.

mod sgml;

use super::account::AccountRef;
use super::error::{Place, Shown, StatementError};
use super::markup::{self, Node};
use super::{ClosingBalance, Format, Statement, StatementLine, amount, collapse, date, non_empty};

const EXPECTED_DATE: &str = "YYYYMMDD";

/// A leaf's text and line.
type Text = Option<(String, usize)>;

pub fn read(text: &str) -> Result<Statement, StatementError> {
    let nodes = if text.trim_start().starts_with("<?xml") {
        markup::xml_nodes(text)
    } else {
        sgml::nodes(text)
    }
    .map_err(|line| StatementError::Malformed {
        format: Format::Ofx,
        line,
    })?;
    let mut walk = Walk::default();
    for node in &nodes {
        walk.step(node)?;
    }
    Ok(Statement {
        format: Format::Ofx,
        lines: walk.lines,
        account: walk.account,
        currency: walk.currency,
        closing: walk.closing,
        assumptions: Vec::new(),
    })
}

/// A `STMTTRN` being read: each field's text and line.
#[derive(Default)]
struct Draft {
    line: usize,
    posted: Text,
    user: Text,
    amount: Text,
    fitid: Option<String>,
    name: Option<String>,
    payee_name: Option<String>,
    memo: Option<String>,
}

#[derive(Default)]
struct Walk {
    stack: Vec<String>,
    draft: Option<Draft>,
    /// A `LEDGERBAL` being read: its `BALAMT` and `DTASOF`.
    balance: Option<(Text, Text)>,
    lines: Vec<StatementLine>,
    account: Option<AccountRef>,
    currency: Option<String>,
    closing: Option<ClosingBalance>,
}

impl Walk {
    fn step(&mut self, node: &Node) -> Result<(), StatementError> {
        match node {
            Node::Open { name, line } => {
                match name.as_str() {
                    "STMTTRN" => {
                        self.draft = Some(Draft {
                            line: *line,
                            ..Draft::default()
                        })
                    }
                    "LEDGERBAL" => self.balance = Some((None, None)),
                    _ => {}
                }
                self.stack.push(name.clone());
            }
            Node::Close { name } => {
                self.stack.pop();
                match name.as_str() {
                    "STMTTRN" => self.finish_line()?,
                    "LEDGERBAL" => self.finish_balance()?,
                    _ => {}
                }
            }
            Node::Leaf {
                name, text, line, ..
            } => self.leaf(name, text, *line)?,
        }
        Ok(())
    }

    fn within(&self, name: &str) -> bool {
        self.stack.iter().any(|open| open == name)
    }

    fn leaf(&mut self, name: &str, text: &str, line: usize) -> Result<(), StatementError> {
        let at = |t: &str| Some((t.to_string(), line));
        if let Some(d) = self.draft.as_mut() {
            let in_payee = self.stack.last().is_some_and(|p| p == "PAYEE");
            match name {
                "DTPOSTED" => d.posted = at(text),
                "DTUSER" => d.user = at(text),
                "TRNAMT" => d.amount = at(text),
                "FITID" => d.fitid = non_empty(text),
                "NAME" if in_payee => d.payee_name = non_empty(text),
                "NAME" => d.name = non_empty(text),
                "MEMO" => d.memo = non_empty(text),
                _ => {}
            }
            return Ok(());
        }
        match name {
            "ACCTID" if self.within("BANKACCTFROM") || self.within("CCACCTFROM") => {
                self.account_id(text)?;
            }
            "CURDEF" => self.currency = non_empty(text).map(|c| c.to_ascii_uppercase()),
            "BALAMT" | "DTASOF" => {
                if let Some(balance) = self.balance.as_mut() {
                    match name {
                        "BALAMT" => balance.0 = at(text),
                        _ => balance.1 = at(text),
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn account_id(&mut self, text: &str) -> Result<(), StatementError> {
        let Some(found) = AccountRef::from_identifier(text) else {
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

    fn finish_line(&mut self) -> Result<(), StatementError> {
        let Some(d) = self.draft.take() else {
            return Ok(());
        };
        let missing = |element| StatementError::Missing {
            format: Format::Ofx,
            element,
            line: d.line,
        };
        let (date_text, date_line) = d.posted.or(d.user).ok_or_else(|| missing("<DTPOSTED>"))?;
        let date = date::ofx(&date_text).ok_or_else(|| StatementError::BadDate {
            at: Place::element(date_line, "DTPOSTED"),
            text: Shown::new(&date_text),
            expected: EXPECTED_DATE,
        })?;
        let (amount_text, amount_line) = d.amount.ok_or_else(|| missing("<TRNAMT>"))?;
        let decimal = amount::lone_decimal(&amount_text);
        let amount = amount::read(&amount_text, decimal, || {
            Place::element(amount_line, "TRNAMT")
        })?;
        let named = d.name.or(d.payee_name);
        let (payee, memo) = match named {
            Some(name) => (name, d.memo),
            None => (d.memo.unwrap_or_default(), None),
        };
        self.lines.push(StatementLine {
            date,
            amount,
            payee: collapse(&payee),
            memo,
            bank_id: d.fitid,
            source_line: d.line,
        });
        Ok(())
    }

    fn finish_balance(&mut self) -> Result<(), StatementError> {
        let Some((Some((amount_text, amount_line)), Some((date_text, date_line)))) =
            self.balance.take()
        else {
            return Ok(());
        };
        let decimal = amount::lone_decimal(&amount_text);
        let amount = amount::read(&amount_text, decimal, || {
            Place::element(amount_line, "BALAMT")
        })?;
        let date = date::ofx(&date_text).ok_or_else(|| StatementError::BadDate {
            at: Place::element(date_line, "DTASOF"),
            text: Shown::new(&date_text),
            expected: EXPECTED_DATE,
        })?;
        if self.closing.is_none_or(|known| known.date <= date) {
            self.closing = Some(ClosingBalance { amount, date });
        }
        Ok(())
    }
}
