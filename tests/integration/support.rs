//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The freshly built `zayavka` binary.
pub fn zayavka() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_zayavka"));
    // Nothing from the developer's own environment may leak into a test run.
    for variable in [
        "ZAYAVKA_HOME",
        "ZAYAVKA_API_KEY",
        "ZAYAVKA_BASE_URL",
        "ZAYAVKA_MODEL",
    ] {
        command.env_remove(variable);
    }
    command
}

/// The repository's `tests/` folder.
pub fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests")
}

/// Runs a command and returns its output, with stdout and stderr as text.
pub fn run(command: &mut Command) -> (Output, String, String) {
    let output = command.output().expect("the binary runs");
    let stdout = String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8");
    let stderr = String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8");
    (output, stdout, stderr)
}

/// Every file under `dir`, recursively.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("the folder is readable") {
        let path = entry.expect("the entry is readable").path();
        if path.is_dir() {
            files.extend(files_under(&path));
        } else {
            files.push(path);
        }
    }
    files
}
