// An absolute import found in none of the import paths names the directories searched.
mod codec {
    skelcodec_macros::codec!(
        "../../../../macros/tests/ui/missing_import.ksy",
        import_paths = ["../../../../macros/tests/ui"],
    );
}

fn main() {}
