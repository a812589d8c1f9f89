//! The implementations under test, a module per peer. Each has an `Ifp` codec (ANPK and ANP3
//! files) and a `Skin` codec (a Skin PLG payload, PC layout, read with its geometry's vertex
//! count and version).

pub mod binrw_peer;
pub mod deku_peer;
pub mod hand;
pub mod memcpy;
pub mod skelcodec;
