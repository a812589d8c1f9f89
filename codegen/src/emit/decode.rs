//! Fields decoded from the bytes they are stored in (`process`, or a user type framed by
//! `pad-right` or a terminator within its size): reading decodes each value's bytes and reads
//! the value from the result; writing stores the bytes as read while they still decode to the
//! value, else encodes and frames the value anew (`rt::process::stored_bytes`).

use proc_macro2::TokenStream;
use quote::quote;

use crate::repr::{frame_tokens, option_tokens};
use crate::typeck::ir::{self, Reading, Writing};

/// A `Result` expression reading one decoded value: `stored` reads the stored bytes (an
/// `rt::RawBytes` result), `one` reads the value from the decoded bytes (with `r` the reader
/// over them).
pub fn read_decoded(
    decode: &ir::Decode<Reading>,
    stored: TokenStream,
    one: TokenStream,
) -> TokenStream {
    // Arguments may use `_io.pos`: they see the stream after the stored bytes, as in Kaitai.
    let processor = &decode.processor;
    let frame = frame_tokens(&decode.spec, option_tokens(None::<i64>));
    quote! {
        #stored.and_then(|stored| {
            let processor = #processor;
            rt::process::read_decoded(r, stored, &processor, #frame, |r| #one)
        })
    }
}

/// Statements writing one decoded value at `access` (an `rt::Decoded`): `one` writes the value
/// to `w`, `check` checks the stored bytes (`stored`, a `&[u8]`) against the field's size.
pub fn write_decoded(
    decode: &ir::Decode<Writing>,
    access: &TokenStream,
    one: TokenStream,
    check: TokenStream,
    wrap: &TokenStream,
) -> TokenStream {
    let size = match &decode.size {
        ir::Size::Const(n) => Some({
            let n = *n as i64;
            quote!(#n)
        }),
        ir::Size::Computed { len, .. } => len.computed().cloned(),
        ir::Size::Eos | ir::Size::Terminator { .. } => None,
    };
    let frame = frame_tokens(&decode.spec, option_tokens(size));
    let Some(processor) = decode.processor.computed() else {
        // Arguments computed from the stream: the bytes as read are written, and the codec reads
        // its output back, refusing an edit it cannot encode.
        return quote! {
            let stored = #access.stored.0.as_slice();
            #check
            w.bytes(stored);
        };
    };
    quote! {
        let data = {
            let mut decoded = rt::Writer::decoded();
            {
                let w = &mut decoded;
                #one
            }
            // The bytes after the value, where values placed in its stream may lie too.
            decoded.end_with(&#access.rest.0);
            w.adopt_placed(&mut decoded)#wrap?;
            decoded.into_bytes()#wrap?
        };
        let processor = #processor;
        let stored = rt::process::stored_bytes(w, &processor, &data, &#access.stored.0, #frame)#wrap?;
        let stored: &[u8] = &stored;
        #check
        w.bytes(stored);
    }
}
