//! Schema mutants for the targets that fuzz the compiler and the interpreter: the project's
//! schemas, mutated as the input's first bytes say.

use std::path::PathBuf;
use std::sync::OnceLock;

use skelcodec_mutants::rng::Rng;
use skelcodec_mutants::{Source, mutate, sources};

static SCHEMAS: OnceLock<Vec<Source>> = OnceLock::new();

/// The project's schemas and the feature schemas of its tests, read once.
fn schemas() -> &'static [Source] {
    SCHEMAS.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        sources(&[
            root.join("schemas"),
            root.join("generated-tests/tests/schemas"),
        ])
    })
}

/// The mutant the first ten bytes of `data` make (8 seed the mutator, the next picks a
/// schema, the next is given to `mutations`, which says how many mutations to stack), as
/// text, with the schema it comes from and the bytes after those ten.
pub fn mutant(
    data: &[u8],
    mutations: impl Fn(u8) -> u8,
) -> Option<(String, &'static Source, &[u8])> {
    let (seed, &[pick, stack], rest) = (data.get(..8)?, data.get(8..10)?, data.get(10..)?) else {
        return None;
    };
    let schemas = schemas();
    let source = schemas.get(usize::from(pick) % schemas.len().max(1))?;
    let mut rng = Rng::new(u64::from_le_bytes(seed.try_into().ok()?));
    let mut document = source.document.clone();
    for _ in 0..mutations(stack) {
        mutate::mutate(&mut document, &mut rng);
    }
    let text = serde_yaml::to_string(&document).ok()?;
    Some((text, source, rest))
}
