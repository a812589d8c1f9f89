//! The public gallery's schemas on real files: one test binary, a module per concern.

mod edit_property;
mod refusals;
