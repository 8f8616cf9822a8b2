//! A closed pipe is not a crash (issue 14, item 6): every command that prints, with its output
//! going into a pipe whose reader has gone (`zayavka drafts list | head -1`,
//! `zayavka draft … 2>&1 | head -5`), stops quietly with status 141 — no panic, no «Broken
//! pipe» message (ADR 19).
//!
//! The pipe's reader is dropped before the command starts, so every write it makes is certain
//! to come after the close; a second test reads a few bytes first, as `head` does, from an
//! output far larger than a pipe holds.

use std::io::Read as _;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};

use serde_json::Value;
use zayavka_store::{NewDraft, Store};

use crate::support::{run, zayavka};

/// The status `docs/user-guide.md` and ADR 19 promise for a closed pipe.
const CLOSED_PIPE: i32 = 141;

const DESCRIPTION: &str =
    "В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами";

/// A data folder with one ready draft, one offline batch and `extra_drafts` more drafts.
struct Home {
    dir: tempfile::TempDir,
    draft_id: String,
    batch_id: String,
}

impl Home {
    fn new(extra_drafts: usize) -> Home {
        let dir = tempfile::tempdir().unwrap();
        let command = |home: &Path| {
            let mut command = zayavka();
            command.env("ZAYAVKA_HOME", home).stdin(Stdio::null());
            command
        };
        let (output, stdout, stderr) = run(command(dir.path()).args([
            "draft",
            "--offline",
            "--json",
            "--description",
            DESCRIPTION,
        ]));
        assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
        let report: Value = serde_json::from_str(&stdout).unwrap();
        let draft_id = report["draft_id"].to_string();

        let file = dir.path().join("пакет.csv");
        std::fs::write(
            &file,
            format!("Описание;Место\n{DESCRIPTION};Подъезд 1\n{DESCRIPTION};Подъезд 2\n"),
        )
        .unwrap();
        let (output, stdout, stderr) = run(command(dir.path())
            .arg("batch")
            .arg(&file)
            .args(["--offline", "--json"]));
        assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
        let (output, stdout, stderr) = run(command(dir.path()).args(["batch", "list", "--json"]));
        assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
        let batches: Value = serde_json::from_str(&stdout).unwrap();
        let batch_id = match &batches[0]["batch_id"] {
            Value::String(id) => id.clone(),
            other => other.to_string(),
        };

        if extra_drafts > 0 {
            let store = Store::open(&dir.path().join("data").join("zayavka.sqlite3")).unwrap();
            for number in 0..extra_drafts {
                let raw = serde_json::json!({
                    "description": format!("{DESCRIPTION}, заявка номер {number}"),
                    "location": "Подъезд 3, между третьим и четвёртым этажами",
                });
                store
                    .create_draft(&NewDraft {
                        raw_input_json: raw.to_string(),
                        checked_input_json: None,
                    })
                    .unwrap();
            }
        }
        Home {
            dir,
            draft_id,
            batch_id,
        }
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = zayavka();
        command
            .env("ZAYAVKA_HOME", self.dir.path())
            .stdin(Stdio::null())
            .args(args);
        command
    }

    /// A saved input for `zayavka assemble`.
    fn input_file(&self) -> String {
        let path = self.dir.path().join("input.json");
        std::fs::write(
            &path,
            serde_json::json!({ "description": DESCRIPTION }).to_string(),
        )
        .unwrap();
        path.to_string_lossy().into_owned()
    }

    /// Every command that prints to standard output, as the user guide shows them.
    fn printing_commands(&self) -> Vec<Vec<String>> {
        let owned = |args: &[&str]| args.iter().map(|arg| (*arg).to_owned()).collect();
        vec![
            owned(&["draft", "--offline", "--description", DESCRIPTION]),
            owned(&["draft", "--offline", "--json", "--description", DESCRIPTION]),
            owned(&["drafts", "list"]),
            owned(&["drafts", "list", "--json"]),
            owned(&["drafts", "search", "подъезд"]),
            owned(&["drafts", "show", &self.draft_id]),
            owned(&["drafts", "show", &self.draft_id, "--explain"]),
            owned(&["drafts", "export", &self.draft_id, "--format", "txt"]),
            owned(&["drafts", "export", &self.draft_id, "--format", "json"]),
            owned(&["drafts", "attachments", &self.draft_id]),
            vec![
                "assemble".to_owned(),
                "--input".to_owned(),
                self.input_file(),
                "--response".to_owned(),
                response_file(),
            ],
            owned(&["batch", "list"]),
            owned(&["batch", "status", &self.batch_id]),
            owned(&["batch", "status", &self.batch_id, "--json"]),
            owned(&["config", "show"]),
            owned(&["config", "path"]),
            owned(&["profile", "show"]),
            owned(&["doctor"]),
            owned(&["doctor", "--json"]),
            owned(&["key", "status"]),
            owned(&["--help"]),
            owned(&["drafts", "--help"]),
            owned(&["--version"]),
        ]
    }
}

/// A saved model response for `zayavka assemble`.
fn response_file() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../benches/draft-response.json")
        .to_string_lossy()
        .into_owned()
}

/// A pipe whose reader has already gone: every write into it fails with `EPIPE`.
fn closed_pipe() -> std::io::PipeWriter {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    writer
}

/// Checks that a run ended quietly with the documented status.
fn assert_quiet_stop(status: ExitStatus, stderr: &str, what: &str) {
    assert_eq!(
        status.code(),
        Some(CLOSED_PIPE),
        "`zayavka {what}` with a closed pipe: {status}; stderr: {stderr}"
    );
    for noise in ["panicked", "Broken pipe", "os error", "zayavka:"] {
        assert!(
            !stderr.contains(noise),
            "`zayavka {what}` said «{noise}»: {stderr}"
        );
    }
}

#[test]
fn issue_14_closed_pipe_on_stdout_stops_every_command_quietly_with_141() {
    let home = Home::new(0);
    for args in home.printing_commands() {
        let what = args.join(" ");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = home
            .command(&args)
            .stdout(closed_pipe())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_quiet_stop(output.status, &stderr, &what);
    }
}

#[test]
fn issue_14_closed_pipe_on_stdout_and_stderr_is_no_panic() {
    // `zayavka draft … 2>&1 | head -5`: the error report itself has nowhere to go, which used to
    // panic in `eprintln!` (exit 101).
    let home = Home::new(0);
    for args in home.printing_commands() {
        let what = args.join(" ");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let pipe = closed_pipe();
        let mut command = home.command(&args);
        command.stderr(pipe.try_clone().unwrap()).stdout(pipe);
        let status = crate::support::start_retrying(|| command.status()).unwrap();
        assert_eq!(
            status.code(),
            Some(CLOSED_PIPE),
            "`zayavka {what}` with stdout and stderr closed: {status}"
        );
    }
}

#[test]
fn issue_14_closed_pipe_after_the_reader_took_the_first_bytes() {
    // As `head -c 100` does: the reader takes the start of an output far larger than a pipe
    // holds (64 KiB on Linux), then goes away while the command is still writing.
    let home = Home::new(400);
    for args in [
        &["drafts", "list"][..],
        &["drafts", "list", "--json"][..],
        &["drafts", "search", "подъезд", "--limit", "1000"][..],
    ] {
        let what = args.join(" ");
        let mut child = home
            .command(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0_u8; 100];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_quiet_stop(output.status, &stderr, &what);
    }
}

#[test]
fn issue_14_the_command_line_tool_never_prints_with_a_panicking_macro() {
    // `println!` and `eprintln!` panic when the stream is closed; every write in the binary is
    // `writeln!(…)?`, so that `main` can end a closed pipe quietly (ADR 19).
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&sources).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            if ["println!(", "print!(", "eprintln!(", "eprint!(", "dbg!("]
                .iter()
                .any(|pattern| code.contains(pattern))
            {
                found.push(format!(
                    "{}:{}: {}",
                    path.display(),
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
