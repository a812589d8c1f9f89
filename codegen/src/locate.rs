//! Maps YAML paths to line and column, so semantic errors (an unknown type, a bad expression)
//! point at the place in the schema file, not just at a path.
//!
//! serde_yaml reports positions only for syntax and shape errors; this index is built from the
//! event stream of a second, marker-aware parse.

use std::collections::HashMap;

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

use crate::error::YamlPath;

/// Line and column (both 1-based) of every key and sequence item in a document.
#[derive(Debug, Default)]
pub struct LocationIndex {
    positions: HashMap<YamlPath, (usize, usize)>,
}

impl LocationIndex {
    /// Indexes `source`. A document that does not parse gives an empty index: serde_yaml reports
    /// that error with its own position.
    pub fn build(source: &str) -> Self {
        let mut builder = Builder::default();
        let mut parser = Parser::new_from_str(source);
        if parser.load(&mut builder, false).is_err() {
            return Self::default();
        }
        Self {
            positions: builder.positions,
        }
    }

    /// The position of `path`, or of its nearest ancestor that has one.
    pub fn find(&self, path: &YamlPath) -> Option<(usize, usize)> {
        let mut path = path.in_own_file();
        loop {
            if let Some(&pos) = self.positions.get(&path) {
                return Some(pos);
            }
            if path.steps().is_empty() {
                return None;
            }
            path = path.parent();
        }
    }
}

/// What the parse is inside of.
enum Frame {
    /// A mapping; `pending_key` is set after a key was read and before its value.
    Mapping { pending_key: Option<String> },
    /// A sequence and the index of its next item.
    Sequence { next: usize },
}

#[derive(Default)]
struct Builder {
    stack: Vec<(Frame, YamlPath)>,
    positions: HashMap<YamlPath, (usize, usize)>,
}

impl Builder {
    /// The path of the node that starts now, recording its position; `None` when the event is a
    /// mapping key rather than a node.
    fn node_path(&mut self, mark: Marker, scalar: Option<&str>) -> Option<YamlPath> {
        let pos = (mark.line(), mark.col() + 1);
        let Some((frame, path)) = self.stack.last_mut() else {
            return Some(YamlPath::root());
        };
        match frame {
            Frame::Sequence { next } => {
                let child = path.index(*next);
                *next += 1;
                self.positions.insert(child.clone(), pos);
                Some(child)
            }
            Frame::Mapping { pending_key } => match pending_key.take() {
                Some(key) => Some(path.key(&key)),
                None => {
                    // A key: remember it and point its path at the key itself.
                    let key = scalar.unwrap_or_default().to_owned();
                    self.positions.insert(path.key(&key), pos);
                    // The document is where its first key is: errors about the root type.
                    if path.steps().is_empty() {
                        self.positions.entry(YamlPath::root()).or_insert(pos);
                    }
                    *pending_key = Some(key);
                    None
                }
            },
        }
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, event: Event, mark: Marker) {
        match event {
            Event::Scalar(value, ..) => {
                self.node_path(mark, Some(&value));
            }
            Event::Alias(_) => {
                self.node_path(mark, Some(""));
            }
            Event::MappingStart(..) => {
                if let Some(path) = self.node_path(mark, None) {
                    self.stack
                        .push((Frame::Mapping { pending_key: None }, path));
                }
            }
            Event::SequenceStart(..) => {
                if let Some(path) = self.node_path(mark, None) {
                    self.stack.push((Frame::Sequence { next: 0 }, path));
                }
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.stack.pop();
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_keys_and_sequence_items() {
        let src = "meta:\n  id: x\nseq:\n  - id: a\n    type: u4\n  - id: b\n    type: foo\n";
        let index = LocationIndex::build(src);
        let b_type = YamlPath::root().key("seq").index(1).key("type");
        assert_eq!(index.find(&b_type), Some((7, 5)));
        let item = index.find(&YamlPath::root().key("seq").index(0));
        assert_eq!(item.map(|(line, _)| line), Some(4));
        // An unknown child falls back to its nearest located ancestor.
        assert_eq!(index.find(&b_type.key("nothing")), Some((7, 5)));
        // The document starts at its first key.
        assert_eq!(index.find(&YamlPath::root()), Some((1, 1)));
    }

    #[test]
    fn flow_mappings_are_indexed_too() {
        let src = "seq:\n  - { id: a, type: u4 }\n";
        let index = LocationIndex::build(src);
        let a_type = YamlPath::root().key("seq").index(0).key("type");
        assert_eq!(index.find(&a_type), Some((2, 14)));
    }
}
