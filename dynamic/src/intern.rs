//! Names the runtime keeps as `&'static str` (the type of a value read by position, for
//! cycles; the field a placed block belongs to, for messages), made once per distinct name:
//! the names of the schemas a process loads, a bounded set.

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

/// `name`, as a string that lives as long as the process.
pub(crate) fn interned(name: &str) -> &'static str {
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match names.get(name) {
        Some(kept) => kept,
        None => {
            let kept: &'static str = Box::leak(name.to_owned().into_boxed_str());
            names.insert(kept);
            kept
        }
    }
}
