//! Codecs generated at build time from the schemas in `schemas/`, and a registry that lets
//! tools pick one by magic, extension or id.

pub mod battleforge;
pub mod gta;
pub mod img_archive;
pub mod interpreted;
pub mod qfs;
mod registry;
pub mod rw;
mod schemas;
pub mod sims2;
pub mod swat;

pub use registry::{
    DocumentError, DocumentSink, DocumentSyntax, EncodeError, FORMAT_KEY, Format, Registered,
    SCHEMA_KEY, SchemaSource, VALUE_KEY, by_id, detect, formats, write_serialized,
};
pub use schemas::{BuiltInSchema, built_in_schema};

/// RenderWare DFF models: UV animation dictionaries, clumps, frames with their names and HAnim
/// data, geometries with their materials and plugins (Skin PLG, Bin Mesh…), atomics.
#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
pub mod dff {
    skelcodec_macros::codec!("../schemas/dff.ksy");
    /// The schema the codec is generated from, as text: `explain` reads with it.
    pub const KSY: &str = include_str!("../../schemas/dff.ksy");
}

/// SWAT 3 skeletal animations, versions 4.1 and 4.2.
pub mod gsa {
    skelcodec_macros::codec!("../schemas/gsa.ksy");
    /// The schema the codec is generated from, as text: `explain` reads with it.
    pub const KSY: &str = include_str!("../../schemas/gsa.ksy");
}

/// BattleForge DRS containers and their AnimationSet.
#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
pub mod drs {
    skelcodec_macros::codec!("../schemas/drs.ksy");
    /// The schema the codec is generated from, as text: `explain` reads with it.
    pub const KSY: &str = include_str!("../../schemas/drs.ksy");
}

/// The Sims 2 ANIM resources (RCOL with a cAnimResourceConst block).
pub mod sims2_anim {
    skelcodec_macros::codec!("../schemas/sims2_anim.ksy");
    /// The schema the codec is generated from, as text: `explain` reads with it.
    pub const KSY: &str = include_str!("../../schemas/sims2_anim.ksy");
}

/// The Sims 2 packages (DBPF 1.1, index 7.1 and 7.2).
#[allow(deprecated)] // the schema's style warnings, which `schema check` lists
pub mod dbpf {
    skelcodec_macros::codec!("../schemas/dbpf.ksy");
    /// The schema the codec is generated from, as text: `explain` reads with it.
    pub const KSY: &str = include_str!("../../schemas/dbpf.ksy");
}

/// GTA IMG archives, version 2 (San Andreas); see [`img_archive`].
pub mod img {
    skelcodec_macros::codec!("../schemas/img.ksy");
    /// The schema the codec is generated from, as text: `explain` reads with it.
    pub const KSY: &str = include_str!("../../schemas/img.ksy");
}

/// The `.dir` of GTA IMG archives, version 1 (III, Vice City); see [`img_archive`].
pub mod img_dir {
    skelcodec_macros::codec!("../schemas/img_dir.ksy");
    /// The schema the codec is generated from, as text: `explain` reads with it.
    pub const KSY: &str = include_str!("../../schemas/img_dir.ksy");
}

/// GTA animation packages: `ANPK` (III, Vice City) and `ANP3` (San Andreas).
pub mod ifp {
    skelcodec_macros::codec!("../schemas/ifp.ksy");
    /// The schema the codec is generated from, as text: `explain` reads with it.
    pub const KSY: &str = include_str!("../../schemas/ifp.ksy");
}
