//! Schema errors: every mistake in a `.ksy` file is reported with the file, the place in it and a
//! plain explanation, because a schema error is a user error, not a compiler bug.

use std::fmt;
use std::path::PathBuf;

/// Where a node sits in a schema, as the keys and indices leading to it (`types`, `animation`,
/// `seq`, `2`, `type`), and in which file: 0 is the schema compiled, the others the files it
/// imports, in the order they were loaded.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct YamlPath {
    file: usize,
    steps: Vec<YamlKey>,
}

/// One step of a [`YamlPath`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum YamlKey {
    /// A mapping key.
    Key(String),
    /// A sequence index.
    Index(usize),
}

impl YamlPath {
    /// The root of the schema compiled.
    pub fn root() -> Self {
        Self::default()
    }

    /// The root of loaded file `file` (0: the schema compiled).
    pub fn root_of(file: usize) -> Self {
        Self {
            file,
            steps: Vec::new(),
        }
    }

    /// The file the path is in.
    pub fn file(&self) -> usize {
        self.file
    }

    /// This path extended by a mapping key.
    pub fn key(&self, key: &str) -> Self {
        self.with(YamlKey::Key(key.to_owned()))
    }

    /// This path extended by a sequence index.
    pub fn index(&self, index: usize) -> Self {
        self.with(YamlKey::Index(index))
    }

    fn with(&self, step: YamlKey) -> Self {
        let mut steps = self.steps.clone();
        steps.push(step);
        Self {
            file: self.file,
            steps,
        }
    }

    /// The steps, outermost first.
    pub fn steps(&self) -> &[YamlKey] {
        &self.steps
    }

    /// The path without its last step (the root stays the root).
    pub fn parent(&self) -> Self {
        let mut steps = self.steps.clone();
        steps.pop();
        Self {
            file: self.file,
            steps,
        }
    }

    /// The same steps in file 0, where a file's own location index keeps them.
    pub fn in_own_file(&self) -> Self {
        Self::root_of(0).join(&self.steps)
    }

    fn join(mut self, steps: &[YamlKey]) -> Self {
        self.steps.extend_from_slice(steps);
        self
    }
}

impl fmt::Display for YamlPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.steps.is_empty() {
            return f.write_str("(document)");
        }
        for (i, step) in self.steps.iter().enumerate() {
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
    /// The schema's other errors, each with its own location: the checker reports every
    /// mistake it finds at once (the first of each field, instance and type).
    pub others: Box<[SchemaError]>,
}

impl SchemaError {
    /// The errors as one: the first, holding the others; `None` when there are none.
    pub fn gathered(errors: Vec<SchemaError>) -> Option<SchemaError> {
        let mut errors = errors.into_iter();
        let first = errors.next()?;
        let others: Vec<SchemaError> = first.all().skip(1).cloned().chain(errors).collect();
        Some(SchemaError {
            others: others.into(),
            ..first
        })
    }

    /// This error and the others, in the order of the schema's text (its own file first).
    pub fn all(&self) -> impl Iterator<Item = &SchemaError> {
        std::iter::once(self).chain(&self.others)
    }
}

impl fmt::Display for SchemaError {
    /// One line an error: `file:line:col: message (at path)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.all().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}", e.file.display())?;
            if let Some((line, col)) = e.line_col {
                write!(f, ":{line}:{col}")?;
            }
            write!(f, ": {} (at {})", e.message, e.path)?;
        }
        Ok(())
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
