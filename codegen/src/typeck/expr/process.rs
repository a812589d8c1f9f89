//! Processors (`process: xor(key)`, `rol(n)`, custom ones): their arguments are expressions.

use proc_macro2::TokenStream;
use quote::quote;

use super::{ExprError, Scope};
use crate::expr::Expr;
use crate::model::{Decode, Process};
use crate::repr::constant_processor;
use crate::sanitization::{module_ident, type_ident};
use crate::typeck::resolve::uses::{self, ProcessorArgument};
use crate::typeck::typed::Typed;

impl Scope<'_> {
    /// The processor of `decode`, built from its arguments in `scope`: an `impl rt::process::Process`
    /// expression.
    pub fn processor(&self, decode: &Decode) -> Result<TokenStream, ExprError> {
        let Some(process) = &decode.process else {
            return Ok(quote!(rt::process::Unchanged));
        };
        Ok(match process {
            Process::Zlib | Process::Encoding(_) | Process::UnknownEncoding(_) => {
                // No arguments: the same processor everywhere.
                constant_processor(decode).unwrap_or_else(|| quote!(rt::process::Unchanged))
            }
            Process::Xor(key) => {
                let key = self.passed(uses::xor_key(&self.cx, key)?);
                quote!(rt::process::Xor::new(#key))
            }
            Process::Rol(n) => {
                let n = self.int(n)?;
                quote!(rt::process::Rotate::left(#n))
            }
            Process::Ror(n) => {
                let n = self.int(n)?;
                quote!(rt::process::Rotate::right(#n))
            }
            Process::Custom {
                modules,
                name,
                args,
            } => {
                let modules = modules.iter().map(|m| module_ident(m));
                let ty = type_ident(name);
                let args = args
                    .iter()
                    .map(|a| self.processor_argument(a))
                    .collect::<Result<Vec<_>, _>>()?;
                quote!(#(#modules::)* #ty::new(#(#args),*))
            }
        })
    }

    /// An argument of a processor: an integer (`i64`), a boolean, or bytes (`&[u8]`; a list of
    /// integers is its bytes).
    fn processor_argument(&self, arg: &Expr) -> Result<TokenStream, ExprError> {
        Ok(self.passed(uses::processor_argument(&self.cx, arg)?))
    }

    /// The Rust of an argument of a processor, passed as `passing` says.
    fn passed(&self, (value, passing): (Typed, ProcessorArgument)) -> TokenStream {
        let tokens = self.render(value);
        match passing {
            ProcessorArgument::Value => tokens,
            ProcessorArgument::Bytes => quote!(rt::bytes::view(&#tokens)),
            ProcessorArgument::IntsAsBytes => quote!(rt::bytes::from_ints(&#tokens).as_slice()),
        }
    }
}
