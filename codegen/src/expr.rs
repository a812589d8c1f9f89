//! The Kaitai Struct expression language: `num_frames * 10`,
//! `_parent.version >= 0x34000 and flag == 0`, `_io.size - _io.pos`, `frame_type::kr00`,
//! `objects.sum(_.frames._sizeof)`.
//!
//! This module only parses; what a name means is decided when the expression is lowered in
//! the context of a type.

use std::fmt;

/// A parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// An integer literal.
    Int(i128),
    /// A float literal.
    Float(f64),
    /// `true` or `false`.
    Bool(bool),
    /// A string literal.
    Str(String),
    /// A name: a field, parameter, instance, or one of `_root`, `_parent`, `_io`, `_index`, `_`.
    Name(String),
    /// `enum_name::variant`, the enum possibly reached through types (`a::b::enum::variant`).
    EnumLit {
        /// The enum, as written (`animal` or `container::animal`).
        enum_name: String,
        /// The variant.
        variant: String,
    },
    /// A unary operation.
    Unary(UnaryOp, Box<Expr>),
    /// A binary operation.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `cond ? then : otherwise`.
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `value.name`: a field of a user type, or a property such as `size` or `_sizeof`.
    Attr(Box<Expr>, String),
    /// `value.name(args)`: a method such as `sum`.
    Method(Box<Expr>, String, Vec<Expr>),
    /// `value[index]`.
    Index(Box<Expr>, Box<Expr>),
    /// `value.as<type>`: a switch value taken as one of its case types, or a number converted.
    Cast(Box<Expr>, String),
    /// `sizeof<type>` (bytes) or `bitsizeof<type>` (bits): the size of every value of a type.
    SizeOf {
        /// The type, as written.
        ty: String,
        /// `bitsizeof`.
        bits: bool,
    },
    /// A list literal `[0x50, 0x4b]` (a byte array when every element is a byte) or
    /// `["foo", "bar"]`.
    List(Vec<Expr>),
    /// An f-string `f"len={len}"`: its text (string literals) and the values put in it, in
    /// order.
    FString(Vec<Expr>),
    /// Whether a value that may be absent (a field with `if`) is present. No Kaitai syntax:
    /// only inferred derivations (a flag that follows its field's presence) hold it.
    Present(Box<Expr>),
    /// Whether a switch value holds the case of this name (as documents name it). No Kaitai
    /// syntax: only inferred derivations (a selector that follows the case held) hold it.
    Holds(Box<Expr>, String),
    /// `name(args)`: a function of `-derived` expressions, which Kaitai's language has none
    /// of (`crc32(_parent.body)`, `inflated(body)`); the checker refuses it elsewhere.
    Call(String, Vec<Expr>),
}

impl Expr {
    /// True for a list literal of integer literals that are all bytes (`[0x50, 0x4b]`): Kaitai
    /// takes it as a byte array, and any other list of integers as a list.
    pub fn is_byte_literal(&self) -> bool {
        matches!(self, Expr::List(items)
            if items.iter().all(|i| matches!(i, Expr::Int(n) if (0..=255).contains(n))))
    }

    /// `base.a.b…`: the attributes `attrs` taken one after another from `base`.
    pub fn attr_chain(base: Expr, attrs: &[&str]) -> Expr {
        attrs
            .iter()
            .fold(base, |e, attr| Expr::Attr(Box::new(e), (*attr).to_owned()))
    }

    /// The expressions directly inside this one.
    pub fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Unary(_, a)
            | Expr::Attr(a, _)
            | Expr::Cast(a, _)
            | Expr::Present(a)
            | Expr::Holds(a, _) => vec![a],
            Expr::Binary(_, a, b) | Expr::Index(a, b) => vec![a, b],
            Expr::Ternary(a, b, c) => vec![a, b, c],
            Expr::Method(a, _, args) => std::iter::once(a.as_ref()).chain(args).collect(),
            Expr::List(items) | Expr::FString(items) | Expr::Call(_, items) => {
                items.iter().collect()
            }
            _ => Vec::new(),
        }
    }

    /// This expression with each expression directly inside it replaced by `f` of it.
    pub fn map_children(&self, f: &mut impl FnMut(&Expr) -> Expr) -> Expr {
        let mut boxed = |e: &Expr| Box::new(f(e));
        match self {
            Expr::Unary(op, a) => Expr::Unary(*op, boxed(a)),
            Expr::Attr(a, name) => Expr::Attr(boxed(a), name.clone()),
            Expr::Cast(a, ty) => Expr::Cast(boxed(a), ty.clone()),
            Expr::Present(a) => Expr::Present(boxed(a)),
            Expr::Holds(a, case) => Expr::Holds(boxed(a), case.clone()),
            Expr::Binary(op, a, b) => Expr::Binary(*op, boxed(a), boxed(b)),
            Expr::Index(a, b) => Expr::Index(boxed(a), boxed(b)),
            Expr::Ternary(a, b, c) => Expr::Ternary(boxed(a), boxed(b), boxed(c)),
            Expr::Method(a, name, args) => {
                let recv = boxed(a);
                Expr::Method(recv, name.clone(), args.iter().map(&mut *f).collect())
            }
            Expr::List(items) => Expr::List(items.iter().map(f).collect()),
            Expr::FString(items) => Expr::FString(items.iter().map(f).collect()),
            Expr::Call(name, args) => Expr::Call(name.clone(), args.iter().map(f).collect()),
            leaf => leaf.clone(),
        }
    }

    /// The names `_parent` and `_root` reach, as a path of attribute names from one of them
    /// (`["_parent", "_parent", "len"]`, `["_root", "header", "len"]`): what one implicit
    /// parameter holds. `_parent` is followed by `_parent`s and one name, `_root` by names.
    /// `None` for any other expression.
    ///
    /// A `_root` path is passed down whole (`_root_header_len`) only into the types read inside
    /// `_root.header` (see [`crate::model::RootPlace`]); elsewhere its first name is (`_root_header`).
    pub fn context_path(&self) -> Option<Vec<&str>> {
        let path = self.names()?;
        let [start, middle @ .., last] = path.as_slice() else {
            return None;
        };
        let named = |a: &str| !a.starts_with('_');
        // `_parent._io` is the holder's stream, passed down like its fields.
        let ends_well = named(last) || *last == "_io";
        // `_parent.strings._io`: the stream of a value of the holder, passed down as a stream.
        let parents = middle.iter().take_while(|a| **a == "_parent").count();
        let middle_ok = match *start {
            "_root" => middle.iter().all(|a| named(a)),
            "_parent" if *last == "_io" => middle[parents..].iter().all(|a| named(a)),
            "_parent" => parents == middle.len(),
            _ => false,
        };
        (ends_well && middle_ok).then_some(path)
    }

    /// True when the stream `_io` itself is a value here (passed as an argument), not only
    /// one of its properties (`_io.pos`); in the root, `_root._io` is its own.
    pub fn uses_stream_value(&self) -> bool {
        match self {
            Expr::Name(n) => n == "_io",
            Expr::Attr(base, attr) if attr == "_io" => {
                matches!(base.as_ref(), Expr::Name(n) if n == "_root")
            }
            Expr::Attr(base, _) if matches!(base.as_ref(), Expr::Name(n) if n == "_io") => false,
            _ => self.children().iter().any(|c| c.uses_stream_value()),
        }
    }

    /// True when the expression inflates bytes (`inflated(…)`), which may be no deflate
    /// stream: a derivation that does can have no value.
    pub fn inflates(&self) -> bool {
        matches!(self, Expr::Call(name, _) if name == "inflated")
            || self.children().iter().any(|c| c.inflates())
    }

    /// True when the expression uses no name at all (`0x1f`, `3 * 512`): its value is the same
    /// wherever it is computed.
    pub fn is_constant(&self) -> bool {
        !matches!(self, Expr::Name(_)) && self.children().iter().all(|c| c.is_constant())
    }

    /// True when the name `name` appears anywhere in the expression.
    pub fn mentions(&self, name: &str) -> bool {
        matches!(self, Expr::Name(n) if n == name)
            || self.children().iter().any(|c| c.mentions(name))
    }

    /// The names of a path of attributes (`a.b.c`: `a`, `b`, `c`); `None` for anything else.
    pub fn names(&self) -> Option<Vec<&str>> {
        let mut names = Vec::new();
        let mut base = self;
        while let Expr::Attr(inner, attr) = base {
            names.push(attr.as_str());
            base = inner;
        }
        let Expr::Name(start) = base else {
            return None;
        };
        names.push(start);
        names.reverse();
        Some(names)
    }

    /// A `_root.a.b` path as the root type itself names it (`a.b`).
    pub fn strip_root(&self) -> Option<Expr> {
        self.strip_start("_root")
    }

    /// A `_parent.a.b` path as the holder names it (`a.b`).
    pub fn strip_parent(&self) -> Option<Expr> {
        self.strip_start("_parent")
    }

    /// A `start.a.b` path without its first name (`a.b`).
    fn strip_start(&self, start: &str) -> Option<Expr> {
        match self {
            Expr::Attr(base, attr) => match base.as_ref() {
                Expr::Name(n) if n == start => Some(Expr::Name(attr.clone())),
                base => Some(Expr::Attr(Box::new(base.strip_start(start)?), attr.clone())),
            },
            _ => None,
        }
    }

    /// True when the expression reads the property `name` of a value other than `_root`,
    /// `_parent` and `_io` (`given.has_alpha`).
    pub fn reads_property(&self, name: &str) -> bool {
        match self {
            Expr::Attr(base, attr) if attr == name => {
                !matches!(base.as_ref(), Expr::Name(n) if n.starts_with('_'))
                    || base.reads_property(name)
            }
            _ => self.children().iter().any(|c| c.reads_property(name)),
        }
    }

    /// True for `_parent`, `_root` and chains of `_parent` (`_parent._parent`).
    pub fn is_context_chain(&self) -> bool {
        match self {
            Expr::Name(n) => n == "_parent" || n == "_root",
            Expr::Attr(base, attr) => attr == "_parent" && base.is_context_chain(),
            _ => false,
        }
    }

    /// True when the expression is its own stream's position (`_io.pos`), which changes as
    /// the stream is read, or that position plus or minus a literal.
    pub fn is_stream_position(&self) -> bool {
        match self {
            Expr::Attr(base, attr) if attr == "pos" => {
                matches!(base.as_ref(), Expr::Name(n) if n == "_io")
            }
            Expr::Binary(BinOp::Add | BinOp::Sub, a, b) => {
                a.is_stream_position() && matches!(b.as_ref(), Expr::Int(_))
            }
            _ => false,
        }
    }

    /// True when the name `name` appears anywhere in the expression, or, in the file's root
    /// type (`in_root`), `_root.name`.
    pub fn mentions_own(&self, name: &str, in_root: bool) -> bool {
        match self {
            Expr::Name(n) => n == name,
            Expr::Attr(base, attr) if in_root && attr == name => {
                matches!(base.as_ref(), Expr::Name(n) if n == "_root")
            }
            _ => self
                .children()
                .iter()
                .any(|c| c.mentions_own(name, in_root)),
        }
    }
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `~x`
    BitNot,
    /// `not x`
    Not,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%` (modulo: the result has the sign of the divisor, as in Kaitai)
    Mod,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `&`
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `and`
    And,
    /// `or`
    Or,
}

impl BinOp {
    /// The operator with its operands swapped: `a < b` is `b > a`.
    pub fn mirrored(self) -> BinOp {
        match self {
            BinOp::Lt => BinOp::Gt,
            BinOp::Le => BinOp::Ge,
            BinOp::Gt => BinOp::Lt,
            BinOp::Ge => BinOp::Le,
            other => other,
        }
    }

    /// Binding strength: higher binds tighter (Kaitai follows Python's order).
    fn precedence(self) -> u8 {
        use BinOp::*;
        match self {
            Or => 1,
            And => 2,
            Eq | Ne | Lt | Le | Gt | Ge => 4,
            BitOr => 5,
            BitXor => 6,
            BitAnd => 7,
            Shl | Shr => 8,
            Add | Sub => 9,
            Mul | Div | Mod => 10,
        }
    }

    /// The operator as written in schemas.
    pub fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Mod => "%",
            Shl => "<<",
            Shr => ">>",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            And => "and",
            Or => "or",
        }
    }

    /// True for the operators that yield a boolean from two comparable values.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}

/// An expression that does not parse, with the character offset of the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 0-based character offset in the expression text.
    pub at: usize,
    /// What was expected.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at character {})", self.message, self.at + 1)
    }
}

/// Writes an expression back as schema text (for generated docs and messages).
pub fn to_source(e: &Expr) -> String {
    match e {
        Expr::Int(n) => n.to_string(),
        Expr::Float(f) => f.to_string(),
        Expr::Bool(b) => b.to_string(),
        Expr::Str(s) => format!("{s:?}"),
        Expr::Name(n) => n.clone(),
        Expr::EnumLit { enum_name, variant } => format!("{enum_name}::{variant}"),
        Expr::Unary(op, inner) => {
            let op = match op {
                UnaryOp::Neg => "-",
                UnaryOp::BitNot => "~",
                UnaryOp::Not => "not ",
            };
            format!("{op}{}", to_source(inner))
        }
        Expr::Binary(op, a, b) => format!("({} {} {})", to_source(a), op.symbol(), to_source(b)),
        Expr::Ternary(c, a, b) => {
            format!("({} ? {} : {})", to_source(c), to_source(a), to_source(b))
        }
        Expr::Attr(base, name) => format!("{}.{name}", to_source(base)),
        Expr::Method(base, name, args) => {
            let args: Vec<_> = args.iter().map(to_source).collect();
            format!("{}.{name}({})", to_source(base), args.join(", "))
        }
        Expr::Index(base, index) => format!("{}[{}]", to_source(base), to_source(index)),
        Expr::Cast(base, ty) => format!("{}.as<{ty}>", to_source(base)),
        Expr::SizeOf { ty, bits } => format!("{}sizeof<{ty}>", if *bits { "bit" } else { "" }),
        Expr::List(items) => format!(
            "[{}]",
            items.iter().map(to_source).collect::<Vec<_>>().join(", ")
        ),
        Expr::FString(parts) => {
            let parts: String = parts
                .iter()
                .map(|part| match part {
                    Expr::Str(text) => format!("{text:?}").trim_matches('"').to_owned(),
                    value => format!("{{{}}}", to_source(value)),
                })
                .collect();
            format!("f\"{parts}\"")
        }
        Expr::Present(value) => format!("present({})", to_source(value)),
        Expr::Holds(value, case) => format!("({} is {case})", to_source(value)),
        Expr::Call(name, args) => {
            let args: Vec<_> = args.iter().map(to_source).collect();
            format!("{name}({})", args.join(", "))
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Int(i128),
    Float(f64),
    Str(String),
    FString(Vec<Expr>),
    Ident(String),
    Punct(&'static str),
}

const PUNCTUATION: [&str; 25] = [
    "::", "<<", ">>", "<=", ">=", "==", "!=", "+", "-", "*", "/", "%", "<", ">", "&", "|", "^",
    "~", "?", ":", ".", ",", "(", ")", "[",
];

fn tokenize(src: &str) -> Result<Vec<(usize, Token)>, ParseError> {
    let chars: Vec<char> = src.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            // `1.5`, and `24000.` as Kaitai writes it; `1.to_s` is a method call.
            let after_dot = chars.get(i + 1);
            let is_float = chars.get(i) == Some(&'.')
                && after_dot.is_none_or(|c| !(c.is_alphabetic() || *c == '_' || *c == '.'));
            if is_float {
                i += 1;
                while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '_') {
                    i += 1;
                }
            }
            // An exponent: `2.5e-121`, `1e+5` (`1e5` is one word, taken whole above).
            let decimal = chars[start..i]
                .iter()
                .all(|c| c.is_ascii_digit() || *c == '.');
            let exponent_sign = (is_float || decimal) && matches!(chars.get(i), Some('e' | 'E'))
                || chars[start..i]
                    .last()
                    .is_some_and(|c| *c == 'e' || *c == 'E')
                    && chars[start..i - 1].iter().all(char::is_ascii_digit);
            if exponent_sign {
                let mut j = i + usize::from(matches!(chars.get(i), Some('e' | 'E')));
                if matches!(chars.get(j), Some('+' | '-')) {
                    j += 1;
                }
                if chars.get(j).is_some_and(char::is_ascii_digit) {
                    i = j;
                    while chars.get(i).is_some_and(char::is_ascii_digit) {
                        i += 1;
                    }
                }
            }
            let text: String = chars[start..i].iter().filter(|&&c| c != '_').collect();
            let is_float = is_float
                || !text.starts_with("0x") && !text.starts_with("0X") && text.contains(['e', 'E']);
            tokens.push((start, number(&text, is_float, start)?));
        } else if c == 'f' && chars.get(i + 1) == Some(&'"') {
            tokens.push((start, Token::FString(fstring(&chars, &mut i)?)));
        } else if c.is_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push((start, Token::Ident(chars[start..i].iter().collect())));
        } else if c == '"' || c == '\'' {
            i += 1;
            let mut text = String::new();
            while i < chars.len() && chars[i] != c {
                if chars[i] == '\\' && c == '"' && i + 1 < chars.len() {
                    i += 1;
                    text.push(escaped_char(&chars, &mut i)?);
                } else {
                    text.push(chars[i]);
                }
                i += 1;
            }
            if i == chars.len() {
                return Err(ParseError {
                    at: start,
                    message: "unterminated string literal".into(),
                });
            }
            i += 1;
            tokens.push((start, Token::Str(text)));
        } else if c == ']' {
            tokens.push((start, Token::Punct("]")));
            i += 1;
        } else {
            let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
            let Some(p) = PUNCTUATION.iter().find(|p| rest.starts_with(**p)) else {
                return Err(ParseError {
                    at: start,
                    message: format!("unexpected character `{c}`"),
                });
            };
            i += p.chars().count();
            tokens.push((start, Token::Punct(p)));
        }
    }
    Ok(tokens)
}

/// The parts of the f-string starting at `i` (at its `f`), which is left after its closing
/// quote: text with escapes as in double-quoted strings, and `{expression}`s.
fn fstring(chars: &[char], i: &mut usize) -> Result<Vec<Expr>, ParseError> {
    let start = *i;
    *i += 2;
    let mut parts = Vec::new();
    let mut text = String::new();
    loop {
        match chars.get(*i) {
            None => {
                return Err(ParseError {
                    at: start,
                    message: "unterminated f-string".into(),
                });
            }
            Some('"') => break,
            Some('\\') if *i + 1 < chars.len() => {
                *i += 1;
                text.push(escaped_char(chars, i)?);
            }
            Some('{') => {
                let open = *i + 1;
                let mut depth = 1;
                let mut quote = None;
                while depth > 0 {
                    *i += 1;
                    match (chars.get(*i), quote) {
                        (None, _) => {
                            return Err(ParseError {
                                at: open - 1,
                                message: "`{` in an f-string without its `}`".into(),
                            });
                        }
                        (Some(&q), None) if q == '"' || q == '\'' => quote = Some(q),
                        (Some(&q), Some(open_quote)) if q == open_quote => quote = None,
                        (Some('{'), None) => depth += 1,
                        (Some('}'), None) => depth -= 1,
                        _ => {}
                    }
                }
                let code: String = chars[open..*i].iter().collect();
                let value = parse(&code).map_err(|e| ParseError {
                    at: open + e.at,
                    message: e.message,
                })?;
                if !text.is_empty() {
                    parts.push(Expr::Str(std::mem::take(&mut text)));
                }
                parts.push(value);
            }
            Some(&c) => text.push(c),
        }
        *i += 1;
    }
    *i += 1;
    if !text.is_empty() {
        parts.push(Expr::Str(text));
    }
    Ok(parts)
}

/// The character an escape in a double-quoted string stands for, as Kaitai reads it: `\n`,
/// `\t`, `\r`, `\a`, `\b`, `\v`, `\f`, `\e`, octal `\0`…`\377`, `\uXXXX`, or the
/// character itself (`\"`, `\\`). `i` is at the character after the backslash and is left
/// on the escape's last character.
fn escaped_char(chars: &[char], i: &mut usize) -> Result<char, ParseError> {
    let at = *i;
    let digits = |i: &mut usize, radix: u32, max: usize| {
        let mut value = 0u32;
        let mut n = 0;
        while n < max
            && let Some(d) = chars.get(*i + n).and_then(|c| c.to_digit(radix))
        {
            value = value * radix + d;
            n += 1;
        }
        *i += n.saturating_sub(1);
        (value, n)
    };
    Ok(match chars[at] {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        'a' => '\u{7}',
        'b' => '\u{8}',
        'v' => '\u{b}',
        'f' => '\u{c}',
        'e' => '\u{1b}',
        '0'..='7' => {
            let (value, _) = digits(i, 8, 3);
            char::from_u32(value).unwrap_or('\u{fffd}')
        }
        'u' => {
            *i += 1;
            let (value, n) = digits(i, 16, 4);
            match char::from_u32(value) {
                Some(c) if n == 4 => c,
                _ => {
                    return Err(ParseError {
                        at,
                        message: "`\\u` needs four hex digits of a character".into(),
                    });
                }
            }
        }
        other => other,
    })
}

fn number(text: &str, is_float: bool, at: usize) -> Result<Token, ParseError> {
    let bad = || ParseError {
        at,
        message: format!("`{text}` is not a number"),
    };
    if is_float {
        return text.parse().map(Token::Float).map_err(|_| bad());
    }
    let (digits, radix) = match text.get(..2) {
        Some("0x" | "0X") => (&text[2..], 16),
        Some("0b" | "0B") => (&text[2..], 2),
        Some("0o" | "0O") => (&text[2..], 8),
        _ => (text, 10),
    };
    i128::from_str_radix(digits, radix)
        .map(Token::Int)
        .map_err(|_| bad())
}

/// Parses an expression.
pub fn parse(src: &str) -> Result<Expr, ParseError> {
    let tokens = tokenize(src)?;
    let mut parser = ExprParser {
        tokens,
        pos: 0,
        end: src.chars().count(),
    };
    let expr = parser.ternary()?;
    match parser.tokens.get(parser.pos) {
        None => Ok(expr),
        Some((at, _)) => Err(ParseError {
            at: *at,
            message: "unexpected text after the end of the expression".into(),
        }),
    }
}

struct ExprParser {
    tokens: Vec<(usize, Token)>,
    pos: usize,
    end: usize,
}

impl ExprParser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos).map(|(_, t)| t)
    }

    fn at(&self) -> usize {
        self.tokens.get(self.pos).map_or(self.end, |(at, _)| *at)
    }

    fn error<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            at: self.at(),
            message: message.into(),
        })
    }

    fn eat_punct(&mut self, p: &str) -> bool {
        if matches!(self.peek(), Some(Token::Punct(q)) if *q == p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, p: &str) -> Result<(), ParseError> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            self.error(format!("expected `{p}`"))
        }
    }

    fn eat_keyword(&mut self, word: &str) -> bool {
        if matches!(self.peek(), Some(Token::Ident(w)) if w == word) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn ternary(&mut self) -> Result<Expr, ParseError> {
        let cond = self.binary(1)?;
        if !self.eat_punct("?") {
            return Ok(cond);
        }
        let then = self.ternary()?;
        self.expect_punct(":")?;
        let otherwise = self.ternary()?;
        Ok(Expr::Ternary(
            Box::new(cond),
            Box::new(then),
            Box::new(otherwise),
        ))
    }

    fn binary_op(&self) -> Option<BinOp> {
        Some(match self.peek()? {
            Token::Ident(w) if w == "and" => BinOp::And,
            Token::Ident(w) if w == "or" => BinOp::Or,
            Token::Punct(p) => match *p {
                "+" => BinOp::Add,
                "-" => BinOp::Sub,
                "*" => BinOp::Mul,
                "/" => BinOp::Div,
                "%" => BinOp::Mod,
                "<<" => BinOp::Shl,
                ">>" => BinOp::Shr,
                "&" => BinOp::BitAnd,
                "|" => BinOp::BitOr,
                "^" => BinOp::BitXor,
                "==" => BinOp::Eq,
                "!=" => BinOp::Ne,
                "<" => BinOp::Lt,
                "<=" => BinOp::Le,
                ">" => BinOp::Gt,
                ">=" => BinOp::Ge,
                _ => return None,
            },
            _ => return None,
        })
    }

    /// Precedence climbing over left-associative binary operators.
    fn binary(&mut self, min_precedence: u8) -> Result<Expr, ParseError> {
        let mut lhs = self.unary()?;
        while let Some(op) = self.binary_op() {
            let precedence = op.precedence();
            if precedence < min_precedence {
                break;
            }
            self.pos += 1;
            let rhs = self.binary(precedence + 1)?;
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Expr, ParseError> {
        if self.eat_punct("+") {
            // Unary plus changes nothing.
            return self.unary();
        }
        let op = if self.eat_punct("-") {
            UnaryOp::Neg
        } else if self.eat_punct("~") {
            UnaryOp::BitNot
        } else if self.eat_keyword("not") {
            // `not` binds looser than comparisons: `not a == b` is `not (a == b)`.
            let operand = self.binary(3)?;
            return Ok(Expr::Unary(UnaryOp::Not, Box::new(operand)));
        } else {
            return self.postfix();
        };
        let operand = self.unary()?;
        Ok(match (op, operand) {
            (UnaryOp::Neg, Expr::Int(n)) => Expr::Int(-n),
            (UnaryOp::Neg, Expr::Float(f)) => Expr::Float(-f),
            (op, operand) => Expr::Unary(op, Box::new(operand)),
        })
    }

    fn postfix(&mut self) -> Result<Expr, ParseError> {
        let mut expr = self.primary()?;
        loop {
            if self.eat_punct(".") {
                let Some(Token::Ident(name)) = self.peek().cloned() else {
                    return self.error("expected a name after `.`");
                };
                self.pos += 1;
                if name == "as" && self.eat_punct("<") {
                    let ty = self.type_name()?;
                    self.expect_punct(">")?;
                    // `_parent.as<foo>` names the holder as its own type, which it is for
                    // skelcodec: its fields are what the path reaches. A holder of another
                    // type has no such field, an error where the path is checked.
                    if !expr.is_context_chain() {
                        expr = Expr::Cast(Box::new(expr), ty);
                    }
                } else if self.eat_punct("(") {
                    let args = self.arguments()?;
                    expr = Expr::Method(Box::new(expr), name, args);
                } else {
                    expr = Expr::Attr(Box::new(expr), name);
                }
            } else if self.eat_punct("[") {
                let index = self.ternary()?;
                self.expect_punct("]")?;
                expr = Expr::Index(Box::new(expr), Box::new(index));
            } else {
                return Ok(expr);
            }
        }
    }

    /// A type as written in `.as<…>`: `u4`, `bytes`, `opcode::strval`, `block[]`.
    fn type_name(&mut self) -> Result<String, ParseError> {
        let mut name = String::new();
        loop {
            let Some(Token::Ident(segment)) = self.peek().cloned() else {
                return self.error("expected a type name");
            };
            self.pos += 1;
            name.push_str(&segment);
            if !self.eat_punct("::") {
                break;
            }
            name.push_str("::");
        }
        if self.eat_punct("[") {
            self.expect_punct("]")?;
            name.push_str("[]");
        }
        Ok(name)
    }

    fn arguments(&mut self) -> Result<Vec<Expr>, ParseError> {
        let mut args = Vec::new();
        if self.eat_punct(")") {
            return Ok(args);
        }
        loop {
            args.push(self.ternary()?);
            if self.eat_punct(")") {
                return Ok(args);
            }
            self.expect_punct(",")?;
        }
    }

    fn primary(&mut self) -> Result<Expr, ParseError> {
        let Some(token) = self.peek().cloned() else {
            return self.error("expected a value");
        };
        self.pos += 1;
        match token {
            Token::Int(n) => Ok(Expr::Int(n)),
            Token::Float(f) => Ok(Expr::Float(f)),
            Token::Str(s) => Ok(Expr::Str(s)),
            Token::FString(parts) => Ok(Expr::FString(parts)),
            Token::Ident(w) if w == "true" => Ok(Expr::Bool(true)),
            Token::Ident(w) if w == "false" => Ok(Expr::Bool(false)),
            Token::Ident(w) if (w == "sizeof" || w == "bitsizeof") && self.eat_punct("<") => {
                let ty = self.type_name()?;
                self.expect_punct(">")?;
                Ok(Expr::SizeOf {
                    ty,
                    bits: w == "bitsizeof",
                })
            }
            // A function of `-derived` (`crc32(body)`); Kaitai has no free functions.
            Token::Ident(name) if self.eat_punct("(") => {
                let args = self.arguments()?;
                Ok(Expr::Call(name, args))
            }
            Token::Ident(name) => {
                // `enum::value`, or with the types that hold the enum: `a::b::enum::value`.
                let mut path = vec![name];
                while self.eat_punct("::") {
                    let Some(Token::Ident(segment)) = self.peek().cloned() else {
                        return self.error("expected a name after `::`");
                    };
                    self.pos += 1;
                    path.push(segment);
                }
                match path.pop() {
                    Some(name) if path.is_empty() => Ok(Expr::Name(name)),
                    Some(variant) => Ok(Expr::EnumLit {
                        enum_name: path.join("::"),
                        variant,
                    }),
                    None => self.error("expected a value"),
                }
            }
            Token::Punct("(") => {
                let inner = self.ternary()?;
                self.expect_punct(")")?;
                Ok(inner)
            }
            Token::Punct("[") => {
                let mut items = Vec::new();
                if self.eat_punct("]") {
                    return Ok(Expr::List(items));
                }
                // A comma may follow the last element, as in long tables.
                loop {
                    items.push(self.ternary()?);
                    if self.eat_punct("]") {
                        return Ok(Expr::List(items));
                    }
                    self.expect_punct(",")?;
                    if self.eat_punct("]") {
                        return Ok(Expr::List(items));
                    }
                }
            }
            Token::Punct(p) => {
                self.pos -= 1;
                self.error(format!("unexpected `{p}`"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_escapes_are_read_as_kaitai_reads_them() {
        let text = |src: &str| match parse(src) {
            Ok(Expr::Str(s)) => s,
            other => panic!("{src}: {other:?}"),
        };
        assert_eq!(text(r#""\u00a3""#), "£");
        assert_eq!(text(r#""c\u0000""#), "c\0");
        assert_eq!(text(r#""\101\0""#), "A\0", "octal");
        assert_eq!(text(r#""\e\a\"\\""#), "\u{1b}\u{7}\"\\");
        assert!(parse(r#""\u12""#).is_err(), "four hex digits");
        assert_eq!(text("'\\n'"), "\\n", "single quotes keep backslashes");
    }

    fn name(n: &str) -> Box<Expr> {
        Box::new(Expr::Name(n.into()))
    }

    #[test]
    fn precedence_follows_kaitai() {
        assert_eq!(
            parse("a + b * 2").unwrap(),
            Expr::Binary(
                BinOp::Add,
                name("a"),
                Box::new(Expr::Binary(BinOp::Mul, name("b"), Box::new(Expr::Int(2))))
            )
        );
        let e = parse("_parent.version >= 0x34000 and flag == 0").unwrap();
        let Expr::Binary(BinOp::And, lhs, rhs) = e else {
            panic!("expected `and` at the top, got {e:?}")
        };
        assert_eq!(
            *lhs,
            Expr::Binary(
                BinOp::Ge,
                Box::new(Expr::Attr(name("_parent"), "version".into())),
                Box::new(Expr::Int(0x34000))
            )
        );
        assert_eq!(
            *rhs,
            Expr::Binary(BinOp::Eq, name("flag"), Box::new(Expr::Int(0)))
        );
    }

    #[test]
    fn postfix_forms() {
        assert_eq!(
            parse("ops[0].body.as<top::op::strval>.value").unwrap(),
            Expr::Attr(
                Box::new(Expr::Cast(
                    Box::new(Expr::Attr(
                        Box::new(Expr::Index(name("ops"), Box::new(Expr::Int(0)))),
                        "body".into()
                    )),
                    "top::op::strval".into()
                )),
                "value".into()
            )
        );
        assert_eq!(
            parse("0.5.as<f4> < x").unwrap(),
            Expr::Binary(
                BinOp::Lt,
                Box::new(Expr::Cast(Box::new(Expr::Float(0.5)), "f4".into())),
                name("x")
            )
        );
        assert_eq!(
            parse("sizeof<a::b> + bitsizeof<u4>").unwrap(),
            Expr::Binary(
                BinOp::Add,
                Box::new(Expr::SizeOf {
                    ty: "a::b".into(),
                    bits: false
                }),
                Box::new(Expr::SizeOf {
                    ty: "u4".into(),
                    bits: true
                })
            )
        );
        assert_eq!(
            parse("[].as<bytes>").unwrap(),
            Expr::Cast(Box::new(Expr::List(vec![])), "bytes".into())
        );
        assert_eq!(
            parse("_io.size - _io.pos").unwrap(),
            Expr::Binary(
                BinOp::Sub,
                Box::new(Expr::Attr(name("_io"), "size".into())),
                Box::new(Expr::Attr(name("_io"), "pos".into()))
            )
        );
        assert_eq!(
            parse("objects.sum(_.frames._sizeof)").unwrap(),
            Expr::Method(
                name("objects"),
                "sum".into(),
                vec![Expr::Attr(
                    Box::new(Expr::Attr(name("_"), "frames".into())),
                    "_sizeof".into()
                )]
            )
        );
        assert_eq!(
            parse("crc32(inflated(_parent.body)) + inflated(b).size").unwrap(),
            Expr::Binary(
                BinOp::Add,
                Box::new(Expr::Call(
                    "crc32".into(),
                    vec![Expr::Call(
                        "inflated".into(),
                        vec![Expr::Attr(name("_parent"), "body".into())]
                    )]
                )),
                Box::new(Expr::Attr(
                    Box::new(Expr::Call("inflated".into(), vec![Expr::Name("b".into())])),
                    "size".into()
                ))
            )
        );
        assert_eq!(
            to_source(&parse("crc32(inflated(body))").unwrap()),
            "crc32(inflated(body))"
        );
        assert_eq!(
            parse("frame_type::kr00").unwrap(),
            Expr::EnumLit {
                enum_name: "frame_type".into(),
                variant: "kr00".into()
            }
        );
        assert_eq!(
            parse("a[1]").unwrap(),
            Expr::Index(name("a"), Box::new(Expr::Int(1)))
        );
        assert_eq!(
            parse("outer::inner::animal::cat").unwrap(),
            Expr::EnumLit {
                enum_name: "outer::inner::animal".into(),
                variant: "cat".into()
            }
        );
        assert_eq!(
            parse("[0x50, 0x4b]").unwrap(),
            Expr::List(vec![Expr::Int(0x50), Expr::Int(0x4b)])
        );
        assert_eq!(parse("[]").unwrap(), Expr::List(Vec::new()));
        assert_eq!(
            parse("[1, 2,]").unwrap(),
            Expr::List(vec![Expr::Int(1), Expr::Int(2)])
        );
        assert!(parse("[,]").is_err());
    }

    #[test]
    fn literals() {
        assert_eq!(parse("0b1010").unwrap(), Expr::Int(10));
        assert_eq!(parse("1_000").unwrap(), Expr::Int(1000));
        assert_eq!(parse("-3").unwrap(), Expr::Int(-3));
        assert_eq!(parse("1.5").unwrap(), Expr::Float(1.5));
        assert_eq!(parse("24000.").unwrap(), Expr::Float(24000.0));
        assert_eq!(parse("2.5e-3").unwrap(), Expr::Float(0.0025));
        assert_eq!(parse("1e+2").unwrap(), Expr::Float(100.0));
        assert_eq!(parse("1e2").unwrap(), Expr::Float(100.0));
        assert_eq!(parse("-8.75e+288").unwrap(), Expr::Float(-8.75e288));
        assert_eq!(parse("0xe5").unwrap(), Expr::Int(0xe5));
        assert_eq!(
            parse("1.e").unwrap(),
            Expr::Attr(Box::new(Expr::Int(1)), "e".into())
        );
        assert_eq!(
            parse(r#"f"a={n + 1}\t{'x'}""#).unwrap(),
            Expr::FString(vec![
                Expr::Str("a=".into()),
                Expr::Binary(BinOp::Add, name("n"), Box::new(Expr::Int(1))),
                Expr::Str("\t".into()),
                Expr::Str("x".into()),
            ])
        );
        assert_eq!(parse(r#"f"""#).unwrap(), Expr::FString(Vec::new()));
        assert_eq!(parse("+1").unwrap(), Expr::Int(1));
        assert_eq!(
            parse("7.to_s").unwrap(),
            Expr::Attr(Box::new(Expr::Int(7)), "to_s".into())
        );
        assert_eq!(parse("\"ANP3\"").unwrap(), Expr::Str("ANP3".into()));
        assert_eq!(
            parse("a ? 1 : 2").unwrap(),
            Expr::Ternary(name("a"), Box::new(Expr::Int(1)), Box::new(Expr::Int(2)))
        );
    }

    #[test]
    fn errors_name_the_place() {
        let err = parse("a + ").unwrap_err();
        assert_eq!(err.at, 4);
        let err = parse("a $ b").unwrap_err();
        assert_eq!(err.at, 2);
        assert!(parse("(a").unwrap_err().message.contains("`)`"));
        assert!(parse("0xZZ").is_err());
    }
}
