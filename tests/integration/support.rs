//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Every environment variable the `zayavka` binary reads, each cleared before a test runs it.
///
/// `architecture::every_zayavka_variable_in_the_sources_is_cleared` greps the sources for
/// `"ZAYAVKA_` so that a variable added to the engine or the CLI cannot be forgotten here.
pub const ZAYAVKA_VARIABLES: &[&str] = &[
    // The data folder (`zayavka-engine/src/paths.rs`).
    "ZAYAVKA_HOME",
    // The API key override (`zayavka-engine/src/secrets.rs`).
    "ZAYAVKA_API_KEY",
    // The provider overrides (`zayavka-engine/src/config/`).
    "ZAYAVKA_BASE_URL",
    "ZAYAVKA_MODEL",
    "ZAYAVKA_SCHEMA_MODE",
    "ZAYAVKA_TIMEOUT_SECS",
    "ZAYAVKA_ATTEMPTS",
    // The log filter (`zayavka-cli/src/main.rs`).
    "ZAYAVKA_LOG",
    // The debug-build-only write-point hooks (`zayavka-store/src/faults.rs`).
    "ZAYAVKA_CRASH_AT",
    "ZAYAVKA_PAUSE_AT",
    // The debug-build-only fixed moment of the store's writes (`zayavka-store/src/columns.rs`).
    "ZAYAVKA_STORE_NOW",
    // The date taken as today for cases and deadlines (`zayavka-engine/src/case.rs`).
    "ZAYAVKA_TODAY",
];

/// The freshly built `zayavka` binary, with none of the developer's own `ZAYAVKA_*` settings.
///
/// A test that needs a variable sets it on the returned command; `Command::env` after
/// `Command::env_remove` wins, so the test's own value is the only one the binary sees.
pub fn zayavka() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_zayavka"));
    clear_zayavka_variables(&mut command);
    command
}

/// Removes every `ZAYAVKA_*` variable from what `command` passes to its child.
///
/// The named list covers what the binary reads; every other `ZAYAVKA_*` name set in this
/// process's environment is removed too, so a variable the list does not know yet still cannot
/// leak from a developer's shell into a result.
pub fn clear_zayavka_variables(command: &mut Command) -> &mut Command {
    for variable in ZAYAVKA_VARIABLES {
        command.env_remove(variable);
    }
    for (variable, _) in std::env::vars_os() {
        if variable.to_string_lossy().starts_with("ZAYAVKA_") {
            command.env_remove(variable);
        }
    }
    command
}

/// The repository's `tests/` folder.
pub fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests")
}

/// Starts a program through `start`, once more if Wine's `CreateProcess` failed with
/// `ERROR_INTERNAL_ERROR` (1359): Wine does that now and then when several threads start
/// programs at once (seen twice under load, never on Windows itself). What the tests check
/// happens after the start, so starting again is no weaker a test.
pub fn start_retrying<T>(mut start: impl FnMut() -> std::io::Result<T>) -> std::io::Result<T> {
    match start() {
        Err(error) if cfg!(windows) && error.raw_os_error() == Some(1359) => start(),
        other => other,
    }
}

/// Runs a command and returns its output, with stdout and stderr as text.
pub fn run(command: &mut Command) -> (Output, String, String) {
    let output = start_retrying(|| command.output()).expect("the binary runs");
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
