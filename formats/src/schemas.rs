//! The schemas the built-in formats are generated from, built into the program as text, so
//! that a tool can read a file of a built-in format with the interpreter too (`explain`
//! without `--schema`): its map is then that of the codec's own schema.

use std::path::{Path, PathBuf};

use skelcodec_dynamic::{Interpreter, LoadError};
use skelcodec_runtime::Codec;

/// The schema a built-in format is generated from.
#[derive(Debug, Clone, Copy)]
pub struct BuiltInSchema {
    /// Its file in the project's `schemas/` folder (`ifp.ksy`).
    pub file: &'static str,
    /// Its text.
    pub text: &'static str,
}

impl BuiltInSchema {
    /// Where it is in the project (`schemas/ifp.ksy`): the file its errors name.
    pub fn path(&self) -> PathBuf {
        Path::new("schemas").join(self.file)
    }

    /// The interpreter of the schema. The built-in schemas import nothing: a schema read from
    /// text finds its relative imports beside `schemas/`, which a program run elsewhere lacks.
    pub fn interpreter(&self) -> Result<Interpreter, LoadError> {
        Interpreter::from_source(self.text, &self.path())
    }
}

/// Each built-in schema, with the id of the format its codec reads.
const SCHEMAS: [(&str, BuiltInSchema); 8] = [
    (crate::ifp::Ifp::FORMAT, schema("ifp.ksy", crate::ifp::KSY)),
    (crate::dff::Dff::FORMAT, schema("dff.ksy", crate::dff::KSY)),
    (crate::gsa::Gsa::FORMAT, schema("gsa.ksy", crate::gsa::KSY)),
    (crate::drs::Drs::FORMAT, schema("drs.ksy", crate::drs::KSY)),
    (
        crate::sims2_anim::Sims2Anim::FORMAT,
        schema("sims2_anim.ksy", crate::sims2_anim::KSY),
    ),
    (
        crate::dbpf::Dbpf::FORMAT,
        schema("dbpf.ksy", crate::dbpf::KSY),
    ),
    (crate::img::Img::FORMAT, schema("img.ksy", crate::img::KSY)),
    (
        crate::img_dir::ImgDir::FORMAT,
        schema("img_dir.ksy", crate::img_dir::KSY),
    ),
];

const fn schema(file: &'static str, text: &'static str) -> BuiltInSchema {
    BuiltInSchema { file, text }
}

/// The schema of the built-in format `id`, when it has one of its own: `animation_set` is a
/// type of `drs.ksy` read by code of its own.
pub fn built_in_schema(id: &str) -> Option<BuiltInSchema> {
    (SCHEMAS.iter())
        .find(|(format, _)| *format == id)
        .map(|(_, schema)| *schema)
}
