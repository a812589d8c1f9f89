//! The custom processors the suite's schemas name (`process: my_custom_fx(…)`), as Kaitai's
//! own test runners define them, with the inverse each needs for writing. Every spec module
//! sees them, as a crate that expands a codec sees its own processors.

use std::borrow::Cow;

use skelcodec_runtime::process::Process;

/// `my_custom_fx(key, flag, bytes)`: adds `key` to every byte (subtracts it when `flag` is
/// false); the bytes are unused.
pub struct MyCustomFx {
    key: i64,
}

impl MyCustomFx {
    /// The processor of `my_custom_fx(key, flag, bytes)`.
    pub fn new(key: i64, flag: bool, _bytes: &[u8]) -> Self {
        let key = key & 0xff;
        MyCustomFx {
            key: if flag { key } else { -key },
        }
    }

    fn shifted(data: &[u8], by: i64) -> Vec<u8> {
        data.iter().map(|&b| (i64::from(b) + by) as u8).collect()
    }
}

impl Process for MyCustomFx {
    fn decode<'d>(&self, stored: &'d [u8]) -> Result<Cow<'d, [u8]>, String> {
        Ok(Cow::Owned(Self::shifted(stored, self.key)))
    }
    fn encode<'d>(&self, data: &'d [u8]) -> Result<Cow<'d, [u8]>, String> {
        Ok(Cow::Owned(Self::shifted(data, -self.key)))
    }
}

/// Decoding wraps the bytes in underscores; encoding takes them off again.
fn wrap_in_underscores(stored: &[u8]) -> Vec<u8> {
    [b"_".as_slice(), stored, b"_"].concat()
}

fn unwrap_underscores(data: &[u8]) -> Result<Cow<'_, [u8]>, String> {
    data.strip_prefix(b"_")
        .and_then(|d| d.strip_suffix(b"_"))
        .map(Cow::Borrowed)
        .ok_or_else(|| "the value must start and end with `_`".to_owned())
}

/// `custom_fx_no_args`: wraps the bytes in underscores.
#[derive(Default)]
pub struct CustomFxNoArgs;

impl CustomFxNoArgs {
    /// The processor of `custom_fx_no_args`.
    pub fn new() -> Self {
        CustomFxNoArgs
    }
}

impl Process for CustomFxNoArgs {
    fn decode<'d>(&self, stored: &'d [u8]) -> Result<Cow<'d, [u8]>, String> {
        Ok(Cow::Owned(wrap_in_underscores(stored)))
    }
    fn encode<'d>(&self, data: &'d [u8]) -> Result<Cow<'d, [u8]>, String> {
        unwrap_underscores(data)
    }
}

/// `nested.deeply.custom_fx(key)`.
pub mod nested {
    /// The module path Kaitai's name gives.
    pub mod deeply {
        use std::borrow::Cow;

        use skelcodec_runtime::process::Process;

        /// `nested.deeply.custom_fx(key)`: wraps the bytes in underscores; the key is unused.
        pub struct CustomFx;

        impl CustomFx {
            /// The processor of `nested.deeply.custom_fx(key)`.
            pub fn new(_key: i64) -> Self {
                CustomFx
            }
        }

        impl Process for CustomFx {
            fn decode<'d>(&self, stored: &'d [u8]) -> Result<Cow<'d, [u8]>, String> {
                Ok(Cow::Owned(super::super::wrap_in_underscores(stored)))
            }
            fn encode<'d>(&self, data: &'d [u8]) -> Result<Cow<'d, [u8]>, String> {
                super::super::unwrap_underscores(data)
            }
        }
    }
}
