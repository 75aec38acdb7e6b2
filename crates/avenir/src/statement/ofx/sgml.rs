//! A tolerant scanner for OFX 1 (SGML), written here: its leaf elements usually have no end tag
//! (`<TRNAMT>-12.50` then a new line), which an XML parser refuses. A start tag followed by text
//! is a leaf that ends at the next tag (its end tag, if written, is skipped); a start tag followed
//! by another tag opens an aggregate, closed by its end tag — which also closes whatever was left
//! open inside it — or by the end of the file. A few leaf names are known, so that an empty one
//! (`<MEMO>` with nothing after it) does not swallow its siblings.

use super::super::markup::Node;

/// Leaves that may be written empty.
const LEAVES: [&str; 14] = [
    "NAME", "MEMO", "FITID", "TRNAMT", "DTPOSTED", "DTUSER", "ACCTID", "BANKID", "ACCTTYPE",
    "CURDEF", "BALAMT", "DTASOF", "CHECKNUM", "TRNTYPE",
];

#[derive(Debug, PartialEq, Eq)]
enum Token<'a> {
    Start { name: String, empty: bool },
    End(String),
    Text(&'a str),
}

/// The nodes of an OFX 1 body (the `KEY:VALUE` header before the first `<` is skipped), or the
/// line of a tag that never ends.
pub fn nodes(text: &str) -> Result<Vec<Node>, usize> {
    let tokens = tokens(text)?;
    let mut nodes = Vec::new();
    let mut stack: Vec<String> = Vec::new();
    let mut i = 0;
    while let Some((token, line)) = tokens.get(i) {
        match token {
            Token::Start { name, empty } => {
                let text = match tokens.get(i + 1) {
                    Some((Token::Text(t), _)) if !empty => Some(*t),
                    _ => None,
                };
                if text.is_some() {
                    i += 1;
                }
                if text.is_some() || *empty || LEAVES.contains(&name.as_str()) {
                    if matches!(tokens.get(i + 1), Some((Token::End(end), _)) if end == name) {
                        i += 1;
                    }
                    nodes.push(Node::Leaf {
                        name: name.clone(),
                        text: unescape(text.unwrap_or_default()),
                        attrs: Vec::new(),
                        line: *line,
                    });
                } else {
                    nodes.push(Node::Open {
                        name: name.clone(),
                        line: *line,
                    });
                    stack.push(name.clone());
                }
            }
            Token::End(name) => close(&mut stack, &mut nodes, Some(name)),
            Token::Text(_) => {}
        }
        i += 1;
    }
    close(&mut stack, &mut nodes, None);
    Ok(nodes)
}

/// Closes the open elements down to `name` (all of them for `None`); an end tag of nothing open
/// is ignored.
fn close(stack: &mut Vec<String>, nodes: &mut Vec<Node>, name: Option<&String>) {
    if let Some(name) = name
        && !stack.contains(name)
    {
        return;
    }
    while let Some(open) = stack.pop() {
        let done = Some(&open) == name;
        nodes.push(Node::Close { name: open });
        if done {
            return;
        }
    }
}

/// Tags and non-blank texts, each with the line it starts on.
fn tokens(text: &str) -> Result<Vec<(Token<'_>, usize)>, usize> {
    let Some(start) = text.find('<') else {
        return Ok(Vec::new());
    };
    let mut line = 1 + text[..start].matches('\n').count();
    let mut rest = &text[start..];
    let mut out = Vec::new();
    while !rest.is_empty() {
        let (token, used) = match rest.strip_prefix('<') {
            Some(tag) => markup(tag).ok_or(line)?,
            None => {
                let end = rest.find('<').unwrap_or(rest.len());
                let t = rest[..end].trim();
                (Some(Token::Text(t)).filter(|_| !t.is_empty()), end)
            }
        };
        if let Some(token) = token {
            out.push((token, line));
        }
        line += rest[..used].matches('\n').count();
        rest = &rest[used..];
    }
    Ok(out)
}

/// The tag at the start of `tag` (just after its `<`) and the bytes it takes with the `<`;
/// comments and declarations give no token. `None` when it never ends.
fn markup(tag: &str) -> Option<(Option<Token<'_>>, usize)> {
    if let Some(comment) = tag.strip_prefix("!--") {
        let end = comment.find("-->")?;
        return Some((None, 1 + 3 + end + 3));
    }
    let end = tag.find('>')?;
    let inner = &tag[..end];
    let used = 1 + end + 1;
    if inner.starts_with(['!', '?']) {
        return Some((None, used));
    }
    if let Some(name) = inner.strip_prefix('/') {
        return Some((Some(Token::End(name.trim().to_ascii_uppercase())), used));
    }
    let empty = inner.ends_with('/');
    let name = inner.trim_end_matches('/');
    let name = name.split_whitespace().next().unwrap_or_default();
    Some((
        Some(Token::Start {
            name: name.to_ascii_uppercase(),
            empty,
        }),
        used,
    ))
}

/// SGML's character entities as OFX files use them; an unknown one is kept as written.
pub fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let entity = rest.find(';').map(|semi| (&rest[1..semi], semi + 1));
        match entity.and_then(|(name, len)| Some((entity_char(name)?, len))) {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn entity_char(name: &str) -> Option<char> {
    let code = |digits: &str, radix| {
        u32::from_str_radix(digits, radix)
            .ok()
            .and_then(char::from_u32)
    };
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "nbsp" => Some('\u{a0}'),
        n => match n.strip_prefix("#x").or_else(|| n.strip_prefix("#X")) {
            Some(hex) => code(hex, 16),
            None => code(n.strip_prefix('#')?, 10),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(name: &str, line: usize) -> Node {
        Node::Open {
            name: name.into(),
            line,
        }
    }

    fn leaf(name: &str, text: &str, line: usize) -> Node {
        Node::Leaf {
            name: name.into(),
            text: text.into(),
            attrs: Vec::new(),
            line,
        }
    }

    fn close(name: &str) -> Node {
        Node::Close { name: name.into() }
    }

    #[test]
    fn unclosed_leaves_and_forgotten_ends() {
        let text = "OFXHEADER:100\n\n<OFX>\n<STMTTRN>\n<TRNAMT>-12.50\n<MEMO>\n<NAME>A &amp; B</NAME>\n</STMTTRN>\n<BANKTRANLIST>\n<STMTTRN>\n<FITID>2";
        assert_eq!(
            nodes(text),
            Ok(vec![
                open("OFX", 3),
                open("STMTTRN", 4),
                leaf("TRNAMT", "-12.50", 5),
                leaf("MEMO", "", 6),
                leaf("NAME", "A & B", 7),
                close("STMTTRN"),
                open("BANKTRANLIST", 9),
                open("STMTTRN", 10),
                leaf("FITID", "2", 11),
                close("STMTTRN"),
                close("BANKTRANLIST"),
                close("OFX"),
            ])
        );
        assert_eq!(nodes("<OFX>\n<NAME"), Err(2));
    }

    #[test]
    fn entities() {
        assert_eq!(
            unescape("A&#38;B &#x41; &nbsp;&unknown; &"),
            "A&B A \u{a0}&unknown; &"
        );
    }
}
