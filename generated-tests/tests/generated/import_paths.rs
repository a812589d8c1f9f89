//! `codec!` with `import_paths`: absolute imports (`/common/pair`) are looked up there.

mod uses_shared {
    skelcodec_macros::codec!(
        "tests/schemas/import_paths/uses_shared.ksy",
        import_paths = ["tests/schemas/import_paths/shared"],
    );
}

#[test]
fn a_type_imported_by_absolute_path_reads_and_writes() {
    let file = [1, 2, 3, 4];
    let value = uses_shared::UsesShared::read(&file).unwrap();
    let pairs: Vec<_> = value.pairs.iter().map(|p| (p.a, p.b)).collect();
    assert_eq!(pairs, [(1, 2), (3, 4)]);
    assert_eq!(value.to_bytes().unwrap(), file);
}
