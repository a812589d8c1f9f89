//! The interpreter behind `--schema`, tested through its public API: one test binary, a module
//! per concern.

mod common;
mod explaining;
mod explaining_unclaimed;
mod explaining_values;
mod loading;
mod messages;
mod packed;
mod processors;
mod reading;
mod real_files;
mod root_arguments;
mod trees;
mod writing;
