// An expression that does not parse: the error names the character.
mod codec {
    skelcodec_macros::codec!("../../../../macros/tests/ui/bad_expression.ksy");
}

fn main() {}
