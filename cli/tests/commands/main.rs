//! The `skelcodec` command, run as a user runs it: one test binary, a module per concern.

mod book;
mod cli;
mod explaining;
mod gallery_checksums;
mod package_edits;
mod quiet;
mod root_params;
mod support;
