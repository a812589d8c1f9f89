// A misspelt option after the schema path is named, not ignored.
mod codec {
    skelcodec_macros::codec!("../../../../macros/tests/ui/bad_expression.ksy", import_path = ["x"]);
}

fn main() {}
