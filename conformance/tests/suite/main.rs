//! Kaitai's conformance suite against both back ends: one test binary, a module per concern.

mod interpreter;
mod pass_list;
