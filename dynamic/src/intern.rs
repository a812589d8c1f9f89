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

/// `names`, as a list that lives as long as the process: what serde's errors name as the
/// fields or variants expected (`unknown_field`, `unknown_variant`), made once per distinct
/// list (a type's keys, an enum's or a switch's names), a bounded set as the names are.
pub(crate) fn interned_list(names: &[&str]) -> &'static [&'static str] {
    static LISTS: OnceLock<Mutex<HashSet<&'static [&'static str]>>> = OnceLock::new();
    let names: Vec<&'static str> = names.iter().map(|name| interned(name)).collect();
    let mut lists = LISTS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match lists.get(names.as_slice()) {
        Some(kept) => kept,
        None => {
            let kept: &'static [&'static str] = Box::leak(names.into_boxed_slice());
            lists.insert(kept);
            kept
        }
    }
}
