// Two types that would become the same Rust item are refused where the second is declared.
mod codec {
    skelcodec_macros::codec!("../../../../macros/tests/ui/name_collision.ksy");
}

fn main() {}
