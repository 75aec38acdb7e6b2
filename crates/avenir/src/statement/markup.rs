//! The element tree of an XML statement as a flat list of [`Node`]s, each with its line: the shape
//! both the OFX and the camt.053 readers walk, whether the tags came from `quick-xml` (OFX 2,
//! camt.053) or from the tolerant SGML scanner of OFX 1 (`ofx/sgml.rs`).

use quick_xml::events::{BytesRef, BytesStart, Event};
use quick_xml::{Reader, XmlVersion};

/// One step through the tree. Elements with text and no child are leaves; namespace prefixes are
/// dropped from names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    Open {
        name: String,
        line: usize,
    },
    Leaf {
        name: String,
        text: String,
        /// The element's attributes that matter here (camt.053's `Ccy`), unprefixed.
        attrs: Vec<(String, String)>,
        line: usize,
    },
    Close {
        name: String,
    },
}

/// The 1-based line of each byte offset of a text.
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub fn of(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { starts }
    }

    pub fn at(&self, offset: usize) -> usize {
        self.starts.partition_point(|start| *start <= offset).max(1)
    }
}

/// An element opened and not yet closed, while its children or text are read.
struct Pending {
    name: String,
    attrs: Vec<(String, String)>,
    line: usize,
    text: String,
    announced: bool,
}

/// The nodes of a well-formed XML text, or the line near which it is not well formed.
pub fn xml_nodes(text: &str) -> Result<Vec<Node>, usize> {
    let lines = Lines::of(text);
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    let mut nodes = Vec::new();
    let mut open: Vec<Pending> = Vec::new();
    loop {
        let offset = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
        let event = reader
            .read_event()
            .map_err(|_| lines.at(usize::try_from(reader.error_position()).unwrap_or(offset)))?;
        match event {
            Event::Start(e) => {
                announce(&mut open, &mut nodes);
                open.push(pending(&e, lines.at(offset)));
            }
            Event::Empty(e) => {
                announce(&mut open, &mut nodes);
                let p = pending(&e, lines.at(offset));
                nodes.push(leaf(p));
            }
            Event::End(_) => match open.pop() {
                Some(p) if p.announced => nodes.push(Node::Close { name: p.name }),
                Some(p) => nodes.push(leaf(p)),
                None => return Err(lines.at(offset)),
            },
            Event::Text(t) => push_text(&mut open, &t.xml10_content()),
            Event::CData(t) => push_text(&mut open, &t.xml10_content()),
            Event::GeneralRef(r) => push_text(&mut open, &reference(&r)),
            Event::Eof if open.is_empty() => return Ok(nodes),
            Event::Eof => return Err(lines.at(offset)),
            _ => {}
        }
    }
}

/// The open element gets a child: it is an aggregate, opened in the output now.
fn announce(open: &mut [Pending], nodes: &mut Vec<Node>) {
    if let Some(parent) = open.last_mut()
        && !parent.announced
    {
        parent.announced = true;
        nodes.push(Node::Open {
            name: parent.name.clone(),
            line: parent.line,
        });
    }
}

fn pending(e: &BytesStart<'_>, line: usize) -> Pending {
    let attrs = e
        .attributes()
        .flatten()
        .filter_map(|a| {
            let value = a.normalized_value(XmlVersion::default()).ok()?.into_owned();
            Some((a.key.local_name().as_ref().to_string(), value))
        })
        .collect();
    Pending {
        name: e.local_name().as_ref().to_string(),
        attrs,
        line,
        text: String::new(),
        announced: false,
    }
}

fn leaf(p: Pending) -> Node {
    Node::Leaf {
        name: p.name,
        text: p.text.trim().to_string(),
        attrs: p.attrs,
        line: p.line,
    }
}

fn push_text(open: &mut [Pending], text: &str) {
    if let Some(p) = open.last_mut()
        && !p.announced
    {
        p.text.push_str(text);
    }
}

/// `&amp;` and the other four predefined entities, and character references; an unknown entity
/// is kept as written.
fn reference(r: &BytesRef<'_>) -> String {
    if let Ok(Some(c)) = r.resolve_char_ref() {
        return c.to_string();
    }
    let name: &str = r;
    match name {
        "amp" => "&".into(),
        "lt" => "<".into(),
        "gt" => ">".into(),
        "quot" => "\"".into(),
        "apos" => "'".into(),
        other => format!("&{other};"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_and_aggregates() {
        let xml = "<?xml version=\"1.0\"?>\n<a:Doc xmlns:a=\"x\">\n  <Amt Ccy=\"EUR\">1.50</Amt>\n  <Nm>A &amp; B</Nm><E/>\n</a:Doc>";
        let nodes = xml_nodes(xml);
        let leaf = |name: &str, text: &str, attrs: Vec<(String, String)>, line| Node::Leaf {
            name: name.into(),
            text: text.into(),
            attrs,
            line,
        };
        assert_eq!(
            nodes,
            Ok(vec![
                Node::Open {
                    name: "Doc".into(),
                    line: 2
                },
                leaf("Amt", "1.50", vec![("Ccy".into(), "EUR".into())], 3),
                leaf("Nm", "A & B", vec![], 4),
                leaf("E", "", vec![], 4),
                Node::Close { name: "Doc".into() },
            ])
        );
        assert_eq!(xml_nodes("<a>\n<b>\n</a>"), Err(3));
    }
}
