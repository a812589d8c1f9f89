//! The floor: copy the bytes, decode nothing. Its "decode" and "encode" are both one `to_vec`.

use crate::{Checksum, Codec, Input};

/// Copies the input.
pub struct Memcpy;

impl Codec for Memcpy {
    type Value = Vec<u8>;

    fn decode(input: &Input) -> Result<Vec<u8>, String> {
        Ok(input.bytes.to_vec())
    }

    fn encode(value: &Vec<u8>) -> Result<Vec<u8>, String> {
        Ok(value.to_vec())
    }

    fn checksum(_: &Vec<u8>) -> Option<Checksum> {
        None
    }
}
