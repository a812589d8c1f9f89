// A path that names no file.
mod codec {
    skelcodec_macros::codec!("../../../../macros/tests/ui/no_such_schema.ksy");
}

fn main() {}
