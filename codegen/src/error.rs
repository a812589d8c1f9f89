//! Schema errors: every mistake in a `.ksy` file is reported with the file, the place in it and a
//! plain explanation, because a schema error is a user error, not a compiler bug.

use std::fmt;
use std::path::PathBuf;

/// Where a node sits in the YAML document, as the keys and indices leading to it
/// (`types`, `animation`, `seq`, `2`, `type`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct YamlPath(Vec<YamlKey>);

/// One step of a [`YamlPath`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum YamlKey {
    /// A mapping key.
    Key(String),
    /// A sequence index.
    Index(usize),
}

impl YamlPath {
    /// The document root.
    pub fn root() -> Self {
        Self::default()
    }

    /// This path extended by a mapping key.
    pub fn key(&self, key: &str) -> Self {
        let mut steps = self.0.clone();
        steps.push(YamlKey::Key(key.to_owned()));
        Self(steps)
    }

    /// This path extended by a sequence index.
    pub fn index(&self, index: usize) -> Self {
        let mut steps = self.0.clone();
        steps.push(YamlKey::Index(index));
        Self(steps)
    }

    /// The steps, outermost first.
    pub fn steps(&self) -> &[YamlKey] {
        &self.0
    }

    /// The path without its last step (the root stays the root).
    pub fn parent(&self) -> Self {
        let mut steps = self.0.clone();
        steps.pop();
        Self(steps)
    }
}

impl fmt::Display for YamlPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(document)");
        }
        for (i, step) in self.0.iter().enumerate() {
            match step {
                YamlKey::Key(k) if i == 0 => write!(f, "{k}")?,
                YamlKey::Key(k) => write!(f, ".{k}")?,
                YamlKey::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// A mistake in a schema, with its location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// The schema file, as given to the compiler.
    pub file: PathBuf,
    /// 1-based line and column of the offending node, when known.
    pub line_col: Option<(usize, usize)>,
    /// The node's path in the YAML document.
    pub path: YamlPath,
    /// What is wrong, in plain words.
    pub message: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some((line, col)) = self.line_col {
            write!(f, ":{line}:{col}")?;
        }
        write!(f, ": {} (at {})", self.message, self.path)
    }
}

impl std::error::Error for SchemaError {}

/// An error before it is given its file and line: the lowering passes produce these, and the
/// driver attaches the location once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// Where in the document.
    pub path: YamlPath,
    /// What is wrong.
    pub message: String,
}

impl Located {
    /// An error at `path`.
    pub fn new(path: &YamlPath, message: impl Into<String>) -> Self {
        Self {
            path: path.clone(),
            message: message.into(),
        }
    }
}
