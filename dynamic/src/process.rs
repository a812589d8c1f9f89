//! The processor of a decoded field, built from its schema at run time: the runtime's own
//! built-in processors, so that bytes decode as they do in generated code, and the custom
//! processors (`process: my_fx(…)`) a caller registered by name
//! ([`crate::Interpreter::with_processor`]), as a crate that expands a codec defines its own.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use skelcodec_codegen::model::{Decode, Process};
use skelcodec_runtime::process as rt_process;
use skelcodec_runtime::{self as rt, encoding::Encoding};

use crate::value::Val;
use skelcodec_codegen::expr::Expr;

/// An argument of a custom processor, evaluated: what generated code passes to the
/// processor's `new` (an `i64`, a `bool`, or `&[u8]`; text and a list of integers are bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProcessArg {
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// Bytes: a byte array, text's bytes, or a list of integers' low bytes.
    Bytes(Vec<u8>),
}

/// Builds a custom processor from its arguments, or says why it cannot take them.
pub(crate) type ProcessorFactory = dyn Fn(&[ProcessArg]) -> Result<Box<dyn rt_process::Process>, String>
    + Send
    + Sync
    + std::panic::RefUnwindSafe;

/// The custom processors registered, by their name as a schema writes it (`my_fx`,
/// `a.b.my_fx`).
#[derive(Clone, Default)]
pub(crate) struct Registry(BTreeMap<String, Arc<ProcessorFactory>>);

impl Registry {
    /// Registers `factory` as the processor `name`, in place of one registered before.
    pub(crate) fn insert(&mut self, name: &str, factory: Arc<ProcessorFactory>) {
        self.0.insert(name.to_owned(), factory);
    }

    /// Whether a processor `name` is registered.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    /// Makes these the processors built on this thread until the guard returned is dropped
    /// (also when unwinding), which restores those in use before.
    pub(crate) fn in_use(self: &Arc<Self>) -> InUse {
        InUse(IN_USE.with(|in_use| in_use.borrow_mut().replace(Arc::clone(self))))
    }
}

/// Puts back the processors in use before [`Registry::in_use`].
pub(crate) struct InUse(Option<Arc<Registry>>);

impl Drop for InUse {
    fn drop(&mut self) {
        IN_USE.with(|in_use| *in_use.borrow_mut() = self.0.take());
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.0.keys()).finish()
    }
}

thread_local! {
    /// The processors of the interpreter at work on this thread (see [`Registry::in_use`]):
    /// processors are built deep in reading, writing and measuring, where only the schema is
    /// at hand.
    static IN_USE: RefCell<Option<Arc<Registry>>> = const { RefCell::new(None) };
}

/// The name a schema gives a custom processor: its modules and its name, joined by dots.
pub(crate) fn custom_name(modules: &[String], name: &str) -> String {
    modules
        .iter()
        .map(String::as_str)
        .chain([name])
        .collect::<Vec<_>>()
        .join(".")
}

/// The custom processor `name` built from `args`, by the processors in use.
fn custom(name: &str, args: &[ProcessArg]) -> Result<Box<dyn rt_process::Process>, String> {
    let factory = IN_USE.with(|in_use| {
        let in_use = in_use.borrow();
        in_use.as_ref().and_then(|r| r.0.get(name)).map(Arc::clone)
    });
    let factory = factory.ok_or_else(|| {
        format!("the custom processor `{name}` is not registered (`Interpreter::with_processor`)")
    })?;
    factory(args).map_err(|why| format!("the custom processor `{name}`: {why}"))
}

/// A value as a custom processor's argument.
fn process_arg(value: Val) -> Result<ProcessArg, String> {
    Ok(match value {
        Val::Int(n) => ProcessArg::Int(n),
        Val::Bool(b) => ProcessArg::Bool(b),
        Val::Bytes(b) | Val::Str(b) => ProcessArg::Bytes(b),
        Val::List(items) => ProcessArg::Bytes(rt::bytes::from_ints(
            &ints(&items).map_err(|v| not_an_argument(format_args!("a list holding {v}")))?,
        )),
        other => return Err(not_an_argument(other)),
    })
}

/// Why `value` cannot be a custom processor's argument (the checker refuses such schemas).
fn not_an_argument(value: impl std::fmt::Display) -> String {
    format!("a custom processor's argument cannot be {value}")
}

/// The integers of a list, or its first item that is not one.
fn ints(items: &[Val]) -> Result<Vec<i64>, &Val> {
    items
        .iter()
        .map(|v| match v {
            Val::Int(n) => Ok(*n),
            other => Err(other),
        })
        .collect()
}

/// One of the runtime's processors, or a custom one.
pub(crate) enum Processor {
    Unchanged,
    Zlib,
    Encoding(Encoding),
    UnknownEncoding(String),
    Xor(rt_process::Xor),
    Rotate(rt_process::Rotate),
    Custom(Box<dyn rt_process::Process>),
}

/// The processor of `decode`, its arguments evaluated by `eval` (a scope's); a custom one
/// from the processors in use (see [`Registry::in_use`]).
pub(crate) fn processor(
    decode: &Decode,
    eval: &dyn Fn(&Expr) -> Result<Val, String>,
) -> Result<Processor, String> {
    let int = |e: &Expr| eval(e)?.into_int();
    let Some(process) = &decode.process else {
        return Ok(Processor::Unchanged);
    };
    Ok(match process {
        Process::Zlib => Processor::Zlib,
        Process::Encoding(encoding) => Processor::Encoding(*encoding),
        Process::UnknownEncoding(label) => Processor::UnknownEncoding(label.clone()),
        Process::Xor(key) => Processor::Xor(match eval(key)? {
            Val::Int(n) => rt_process::Xor::new(n),
            Val::Bytes(b) | Val::Str(b) => rt_process::Xor::new(b),
            Val::List(items) => rt_process::Xor::new(rt::bytes::from_ints(
                &ints(&items).map_err(|v| format!("an `xor` key of {v}"))?,
            )),
            other => return Err(format!("an `xor` key of {other}")),
        }),
        Process::Rol(n) => Processor::Rotate(rt_process::Rotate::left(int(n)?)),
        Process::Ror(n) => Processor::Rotate(rt_process::Rotate::right(int(n)?)),
        Process::Custom {
            modules,
            name,
            args,
        } => {
            let args = (args.iter())
                .map(|a| eval(a).and_then(process_arg))
                .collect::<Result<Vec<_>, _>>()?;
            Processor::Custom(custom(&custom_name(modules, name), &args)?)
        }
    })
}

impl rt_process::Process for Processor {
    fn decode<'d>(&self, stored: &'d [u8]) -> Result<Cow<'d, [u8]>, String> {
        match self {
            Processor::Unchanged => rt_process::Unchanged.decode(stored),
            Processor::Zlib => rt_process::Zlib.decode(stored),
            Processor::Encoding(e) => e.decode(stored),
            Processor::UnknownEncoding(label) => {
                Err(rt::__private::messages::unknown_encoding(label))
            }
            Processor::Xor(x) => x.decode(stored),
            Processor::Rotate(r) => r.decode(stored),
            Processor::Custom(p) => p.decode(stored),
        }
    }

    fn encode<'d>(&self, data: &'d [u8]) -> Result<Cow<'d, [u8]>, String> {
        match self {
            Processor::Unchanged => rt_process::Unchanged.encode(data),
            Processor::Zlib => rt_process::Zlib.encode(data),
            Processor::Encoding(e) => e.encode(data),
            Processor::UnknownEncoding(label) => {
                Err(rt::__private::messages::unknown_encoding(label))
            }
            Processor::Xor(x) => x.encode(data),
            Processor::Rotate(r) => r.encode(data),
            Processor::Custom(p) => p.encode(data),
        }
    }
}
