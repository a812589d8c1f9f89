//! The built-in formats' schemas read at run time: one test binary, a module per concern.

mod explaining_built_in;
mod schema_at_run_time;
