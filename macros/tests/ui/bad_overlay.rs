// An overlay that names a field its schema does not have is a compile error at the macro
// call, naming the overlay as written, with its line and column.
mod codec {
    skelcodec_macros::codec!(
        "../../../../macros/tests/ui/schema_warning.ksy",
        overlays = ["../../../../macros/tests/ui/bad_overlay.yaml"],
    );
}

fn main() {}
