//! What an expression computes on a value read, for callers outside the interpreter: a tool
//! showing an instance, a test holding the interpreter to a spec's asserts.

use skelcodec_codegen::model::Schema;

use crate::eval::Scope;
use crate::value::{Link, Val, Value};

/// A value an expression computes (see [`crate::Interpreter::evaluate`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Computed {
    /// An integer (every integer computes in `i64`, as in Kaitai).
    Int(i64),
    /// A floating-point number.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// Text, by its bytes.
    Text(Vec<u8>),
    /// Raw bytes.
    Bytes(Vec<u8>),
    /// A value of an enum: its integer, and its name when the enum has one for it.
    Enum {
        /// The integer.
        value: i64,
        /// The enum's name for it.
        name: Option<String>,
    },
    /// A list.
    List(Vec<Computed>),
    /// A structure: its parts are reached with further expressions.
    Struct,
    /// A stream (`_io`): its parts are reached with `.pos`, `.size`, `.eof`.
    Stream,
    /// An absent value (a field whose `if` does not hold, an element past the end).
    Absent,
}

/// Evaluates `expression` in the scope of the root value `value` read from `file`.
pub(crate) fn evaluate(
    schema: &Schema,
    value: &Value,
    file: &[u8],
    expression: &str,
) -> Result<Computed, String> {
    let parsed = skelcodec_codegen::expr::parse(expression).map_err(|e| e.to_string())?;
    let Value::Struct(root) = value else {
        return Err("expressions are evaluated in a structure".into());
    };
    let scope = Scope::of(schema, Link::new(root.clone(), None), file);
    scope.eval(&parsed).map(|val| computed(schema, val))
}

fn computed(schema: &Schema, val: Val) -> Computed {
    match val {
        Val::Int(n) => Computed::Int(n),
        Val::Float(f) => Computed::Float(f),
        Val::Bool(b) => Computed::Bool(b),
        Val::Str(s) => Computed::Text(s),
        Val::Bytes(b) => Computed::Bytes(b),
        Val::Enum(idx, value) => Computed::Enum {
            value,
            name: (schema.enums.get(idx))
                .and_then(|def| def.variants.iter().find(|v| v.value == value))
                .map(|v| v.id.clone()),
        },
        Val::List(items) => {
            Computed::List(items.into_iter().map(|v| computed(schema, v)).collect())
        }
        Val::Struct(_) => Computed::Struct,
        Val::Io(..) => Computed::Stream,
        Val::Null => Computed::Absent,
    }
}
