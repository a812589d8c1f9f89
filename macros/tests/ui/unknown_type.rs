// The schema names a type it never declares: the error points into the schema.
mod codec {
    skelcodec_macros::codec!("../../../../macros/tests/ui/unknown_type.ksy");
}

fn main() {}
