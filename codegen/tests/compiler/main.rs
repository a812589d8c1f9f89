//! The compiler, tested through its public API: one test binary, a module per concern.

mod expansion;
mod gallery;
mod imports;
mod neutral_stages;
mod overlays;
mod schema_errors;
