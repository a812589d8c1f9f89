//! skelcodec's side of the differential test: the gallery schemas listed in `formats.tsv`,
//! compiled when the crate is built with `SKELCODEC_DIFFERENTIAL=1` (see `build.rs`), each seen
//! through JSON documents as the gallery crate sees its own.

pub use skelcodec_gallery::{
    Codec, EditReport, Format, Normalize, document, edit_property, encode, read, read_owned,
};

include!(concat!(env!("OUT_DIR"), "/formats.rs"));

/// The format whose schema's id is `id` (`png`).
pub fn format(id: &str) -> Option<&'static Format> {
    FORMATS.iter().find(|format| format.id == id)
}
