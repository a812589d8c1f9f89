// A schema the compiler accepts with a warning (Kaitai's naming advice): the warning appears
// in the build at the macro call, beside the error this case makes on purpose so that its
// output is compared.
mod codec {
    skelcodec_macros::codec!("../../../../macros/tests/ui/schema_warning.ksy");
}

fn main() {
    let _: u8 = "not a number";
}
