//! Running the `skelcodec` binary from the command-line tests, and reading what it printed.

use std::process::{Command, Output};

/// Runs `skelcodec` with `args` and waits for it.
pub fn skelcodec(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skelcodec"))
        .args(args.iter().map(|a| a.as_ref()))
        .output()
        .expect("run skelcodec")
}

/// What it printed on standard output.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// What it printed on standard error.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Fails, showing both outputs, unless the command exited with `code`.
#[track_caller]
pub fn assert_exit(output: &Output, code: i32) {
    assert_eq!(
        output.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        stdout(output),
        stderr(output)
    );
}
