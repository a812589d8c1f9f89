//! The processor of a decoded field, built from its schema at run time: the runtime's own
//! built-in processors, so that bytes decode as they do in generated code. Custom processors
//! (`process: my_fx(…)`) are Rust types of the crate that expands a codec: the interpreter has
//! none, and refuses schemas that name one.

use std::borrow::Cow;

use skelcodec_codegen::model::{Decode, Process};
use skelcodec_runtime::process as rt_process;
use skelcodec_runtime::{self as rt, encoding::Encoding};

use crate::value::Val;
use skelcodec_codegen::expr::Expr;

/// One of the runtime's processors.
pub(crate) enum Processor {
    Unchanged,
    Zlib,
    Encoding(Encoding),
    UnknownEncoding(String),
    Xor(rt_process::Xor),
    Rotate(rt_process::Rotate),
}

/// The processor of `decode`, its arguments evaluated by `eval` (a scope's).
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
            Val::List(items) => {
                let ints: Vec<i64> = items
                    .iter()
                    .map(|v| match v {
                        Val::Int(n) => Ok(*n),
                        other => Err(format!("an `xor` key of {other}")),
                    })
                    .collect::<Result<_, _>>()?;
                rt_process::Xor::new(rt::bytes::from_ints(&ints))
            }
            other => return Err(format!("an `xor` key of {other}")),
        }),
        Process::Rol(n) => Processor::Rotate(rt_process::Rotate::left(int(n)?)),
        Process::Ror(n) => Processor::Rotate(rt_process::Rotate::right(int(n)?)),
        Process::Custom { name, .. } => {
            return Err(format!("the custom processor `{name}` is not interpreted"));
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
        }
    }
}
