// A Kaitai feature skelcodec does not implement yet is refused by name, never ignored.
mod codec {
    skelcodec_macros::codec!("../../../../macros/tests/ui/not_implemented.ksy");
}

fn main() {}
