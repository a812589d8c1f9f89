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

/// A `skelcodec` left running (`explain --watch`), what it prints collected as it comes;
/// killed when dropped, so that a failing test leaves no process behind.
pub struct Running {
    child: std::process::Child,
    chunks: std::sync::mpsc::Receiver<Vec<u8>>,
    output: String,
}

impl Running {
    /// Starts `skelcodec` with `args`.
    pub fn start(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Self {
        use std::io::Read as _;
        let mut child = Command::new(env!("CARGO_BIN_EXE_skelcodec"))
            .args(args.iter().map(|a| a.as_ref()))
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("run skelcodec");
        let mut stdout = child.stdout.take().expect("a pipe");
        let (sender, chunks) = std::sync::mpsc::channel();
        // Read on a thread of its own, so that waiting can time out.
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 || sender.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Running {
            child,
            chunks,
            output: String::new(),
        }
    }

    /// Waits until what it printed contains `text`, 60 s at most; whether it does.
    pub fn wait_for(&mut self, text: &str) -> bool {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !self.output.contains(text) && std::time::Instant::now() < deadline {
            let chunk = self
                .chunks
                .recv_timeout(std::time::Duration::from_millis(100));
            match chunk {
                Ok(chunk) => self.output.push_str(&String::from_utf8_lossy(&chunk)),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                // It ended: nothing more will come.
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        self.output.contains(text)
    }

    /// What it printed so far.
    pub fn output(&self) -> &str {
        &self.output
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
