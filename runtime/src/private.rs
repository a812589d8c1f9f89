//! Not public API, and it may change in any release: the plumbing only generated code and
//! skelcodec's own crates (the generator's checker, the interpreter) call. Generated code
//! reaches the runtime through this module (`use …::__private as rt;`), so it also holds the
//! public API.

pub use crate::*;

#[path = "arith.rs"]
pub mod arith;
#[path = "bits.rs"]
pub mod bits;
#[path = "enums.rs"]
pub mod enums;
#[path = "fields.rs"]
pub mod fields;
#[path = "layout.rs"]
pub mod layout;
#[path = "messages.rs"]
pub mod messages;
#[path = "on_demand.rs"]
pub mod on_demand;
#[path = "passes.rs"]
pub mod passes;
#[path = "present.rs"]
pub mod present;
#[path = "relocation.rs"]
pub mod relocation;
#[path = "settle.rs"]
pub mod settle;
