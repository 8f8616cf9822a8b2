//! The canaries: an API key, a GigaChat authorization key with its client secret, and GigaChat
//! access tokens, each a string no other text could hold, looked for in every file a session
//! leaves — the data folder, exports, backups, records — and in everything it printed, in the
//! forms a careless log line or a file would carry them: as they are, in Base64 (standard and
//! URL-safe, at each of the three byte alignments inside a longer encoded text), percent-encoded,
//! in hexadecimal and in UTF-16.
//!
//! The suite-wide sweep is in two parts. [`a_realistic_session_leaves_no_canary_anywhere`] runs a
//! session through every surface that touches the key or the token: drafts, a batch, photos,
//! edits, a backup, exports in every format, a provider that echoes the key and the token back in
//! its error bodies and headers, and `ZAYAVKA_LOG=debug`. And every test of `network` and
//! `bad_files` drives the binary with [`CANARY_KEY`] and ends with [`Leftovers::assert_clean`]
//! over its own data folder, files and captured output, so the network faults (resets, stalls,
//! timeouts with their error messages) and the refused bad files are swept with the same canary
//! by the same scanner.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;
use zayavka_standin::{ECHO_AUTHORIZATION, ECHO_KEY, Reply, Script, Service, StandIn};

use crate::support::{run, tests_dir, zayavka};

/// The API key every reliability test gives the binary.
pub(crate) const CANARY_KEY: &str = "sk-reliability-canary-7f3a9c1e5b2d40868a1e";

/// The GigaChat authorization key: Base64 of
/// `reliability-canary-client:reliability-canary-secret-31415926`.
pub(crate) const CANARY_GIGACHAT_KEY: &str =
    "cmVsaWFiaWxpdHktY2FuYXJ5LWNsaWVudDpyZWxpYWJpbGl0eS1jYW5hcnktc2VjcmV0LTMxNDE1OTI2";

/// The client secret inside [`CANARY_GIGACHAT_KEY`].
pub(crate) const CANARY_GIGACHAT_SECRET: &str = "reliability-canary-secret-31415926";

/// What every access token the GigaChat stand-in issues starts with in these tests.
pub(crate) const CANARY_TOKEN_PREFIX: &str = "reliability-canary-access-token-";

/// Every canary, in the order they are reported.
pub(crate) const CANARIES: [&str; 4] = [
    CANARY_KEY,
    CANARY_GIGACHAT_KEY,
    CANARY_GIGACHAT_SECRET,
    CANARY_TOKEN_PREFIX,
];

const BASE64_STANDARD: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn base64(bytes: &[u8], alphabet: &[u8; 64]) -> String {
    let mut text = String::new();
    for group in bytes.chunks(3) {
        let value = group.iter().enumerate().fold(0u32, |value, (index, byte)| {
            value | u32::from(*byte) << (16 - 8 * index)
        });
        for index in 0..=group.len() {
            text.push(char::from(
                alphabet[(value >> (18 - 6 * index) & 63) as usize],
            ));
        }
        for _ in group.len()..3 {
            text.push('=');
        }
    }
    text
}

/// The forms in which `secret` could hide in a file: the text itself, its Base64 (standard and
/// URL-safe) as it appears at each of the three alignments inside a longer Base64 text (only the
/// groups made of the secret's bytes alone), percent-encoded, hexadecimal, and UTF-16.
pub(crate) fn forms(secret: &str) -> Vec<(String, Vec<u8>)> {
    let bytes = secret.as_bytes();
    let mut forms = vec![("as is".to_owned(), bytes.to_vec())];
    let mut url_safe = *BASE64_STANDARD;
    url_safe[62] = b'-';
    url_safe[63] = b'_';
    for (name, alphabet) in [("base64", BASE64_STANDARD), ("base64url", &url_safe)] {
        for offset in 0..3 {
            let mut shifted = vec![b'.'; offset];
            shifted.extend_from_slice(bytes);
            let encoded = base64(&shifted, alphabet);
            let first_group = offset.div_ceil(3);
            let last_group = (offset + bytes.len()) / 3;
            let inner = &encoded[4 * first_group..4 * last_group];
            forms.push((
                format!("{name} at offset {offset}"),
                inner.as_bytes().to_vec(),
            ));
        }
    }
    forms.push((
        "percent-encoded".to_owned(),
        bytes
            .iter()
            .map(|byte| format!("%{byte:02X}"))
            .collect::<String>()
            .into_bytes(),
    ));
    forms.push((
        "percent-encoded, lower case".to_owned(),
        bytes
            .iter()
            .map(|byte| format!("%{byte:02x}"))
            .collect::<String>()
            .into_bytes(),
    ));
    forms.push((
        "hexadecimal".to_owned(),
        bytes
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect::<String>()
            .into_bytes(),
    ));
    forms.push((
        "UTF-16".to_owned(),
        secret.encode_utf16().flat_map(u16::to_le_bytes).collect(),
    ));
    forms
}

/// Whether `haystack` (already in ASCII lower case) holds `needle` in any letter case.
fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    let needle = needle.to_ascii_lowercase();
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    haystack
        .iter()
        .enumerate()
        .filter(|(_, byte)| **byte == first)
        .any(|(at, _)| haystack[at + 1..].starts_with(rest))
}

/// Every regular file under `path` (or `path` itself), never following a symbolic link, so a
/// symbolic-link loop left by a bad-file test is skipped rather than walked for ever.
fn regular_files(path: &Path, found: &mut Vec<PathBuf>) {
    let Ok(metadata) = std::fs::symlink_metadata(path) else {
        return;
    };
    if metadata.is_file() {
        found.push(path.to_path_buf());
    } else if metadata.is_dir()
        && let Ok(entries) = std::fs::read_dir(path)
    {
        for entry in entries.flatten() {
            regular_files(&entry.path(), found);
        }
    }
}

/// What a test leaves behind: folders and files, and the text it captured from the binary.
#[derive(Default)]
pub(crate) struct Leftovers {
    paths: Vec<PathBuf>,
    outputs: Vec<(String, Vec<u8>)>,
}

impl Leftovers {
    pub(crate) fn new() -> Leftovers {
        Leftovers::default()
    }

    /// A folder (walked) or a file to scan.
    pub(crate) fn path(&mut self, path: &Path) -> &mut Leftovers {
        self.paths.push(path.to_path_buf());
        self
    }

    /// Captured output, named for the report.
    pub(crate) fn output(&mut self, name: &str, text: impl AsRef<[u8]>) -> &mut Leftovers {
        self.outputs.push((name.to_owned(), text.as_ref().to_vec()));
        self
    }

    /// How many files the sweep reads, so a test can show that it looked at something.
    pub(crate) fn file_count(&self) -> usize {
        let mut files = Vec::new();
        for path in &self.paths {
            regular_files(path, &mut files);
        }
        files.len()
    }

    /// Fails naming every file or output that holds a canary in any of its [`forms`].
    pub(crate) fn assert_clean(&self) {
        let mut files = Vec::new();
        for path in &self.paths {
            regular_files(path, &mut files);
        }
        let every_form: Vec<(&str, String, Vec<u8>)> = CANARIES
            .iter()
            .flat_map(|canary| {
                forms(canary)
                    .into_iter()
                    .map(move |(name, bytes)| (*canary, name, bytes))
            })
            .collect();
        let mut found = Vec::new();
        let mut check = |source: String, bytes: &[u8]| {
            let bytes = bytes.to_ascii_lowercase();
            for (canary, form, needle) in &every_form {
                if contains(&bytes, needle) {
                    found.push(format!("{source}: {canary} ({form})"));
                }
            }
        };
        // Files are read in pieces that overlap by the longest form, so a large file costs no
        // more memory than a piece and a form across two pieces is still found.
        let overlap = every_form
            .iter()
            .map(|(_, _, needle)| needle.len())
            .max()
            .unwrap_or(0);
        for file in &files {
            // A file another process still writes or removes is read as it is now.
            let Ok(mut reader) = std::fs::File::open(file) else {
                continue;
            };
            let mut window: Vec<u8> = Vec::new();
            let mut piece = vec![0u8; 8 * 1024 * 1024];
            loop {
                let read = std::io::Read::read(&mut reader, &mut piece).unwrap_or(0);
                if read == 0 {
                    break;
                }
                window.extend_from_slice(&piece[..read]);
                check(file.display().to_string(), &window);
                let keep = window.len().saturating_sub(overlap);
                window.drain(..keep);
            }
        }
        for (name, bytes) in &self.outputs {
            check(name.clone(), bytes);
        }
        found.sort();
        found.dedup();
        assert!(
            found.is_empty(),
            "a canary was found:\n{}",
            found.join("\n")
        );
    }
}

#[test]
fn the_forms_find_a_canary_inside_a_longer_encoded_text() {
    // The scanner is only as good as its forms: each must catch the canary inside a longer text
    // encoded the same way, at every alignment.
    let secret = CANARY_KEY;
    for prefix in ["", "a", "ab", "abc"] {
        let text = format!("{prefix}Bearer {secret} and more");
        let encoded = base64(text.as_bytes(), BASE64_STANDARD);
        assert!(
            forms(secret)
                .iter()
                .any(|(_, form)| contains(&encoded.to_ascii_lowercase().into_bytes(), form)),
            "{encoded}"
        );
    }
    assert_eq!(base64(b"Man", BASE64_STANDARD), "TWFu");
    assert_eq!(base64(b"Ma", BASE64_STANDARD), "TWE=");
    assert_eq!(
        base64(
            b"reliability-canary-client:reliability-canary-secret-31415926",
            BASE64_STANDARD
        ),
        CANARY_GIGACHAT_KEY
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("log.txt"),
        format!(
            "key=%{}",
            CANARY_KEY
                .bytes()
                .map(|b| format!("{b:02X}"))
                .collect::<Vec<_>>()
                .join("%")
        ),
    )
    .unwrap();
    let caught = std::panic::catch_unwind(|| Leftovers::new().path(dir.path()).assert_clean());
    assert!(caught.is_err(), "a percent-encoded key must be found");
}

const DESCRIPTION: &str = "В подъезде № 3 неделю не горит свет на лестнице между третьим и \
                           четвёртым этажами.";

/// A data folder and a scratch folder for one session, with everything printed kept.
struct Session {
    home: tempfile::TempDir,
    scratch: tempfile::TempDir,
    leftovers: Leftovers,
    key: &'static str,
}

impl Session {
    fn new(key: &'static str) -> Session {
        let home = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let mut leftovers = Leftovers::new();
        leftovers.path(home.path()).path(scratch.path());
        Session {
            home,
            scratch,
            leftovers,
            key,
        }
    }

    fn command(&self) -> Command {
        let mut command = zayavka();
        command
            .env("ZAYAVKA_HOME", self.home.path())
            .env("ZAYAVKA_API_KEY", self.key)
            .env("ZAYAVKA_LOG", "debug");
        command
    }

    /// Runs `zayavka args…` and keeps both outputs; returns the exit code and stdout.
    fn run(&mut self, args: &[&str]) -> (Option<i32>, String) {
        let (output, stdout, stderr) = run(self.command().args(args));
        self.leftovers
            .output(&format!("stdout of {args:?}"), &stdout)
            .output(&format!("stderr of {args:?}"), &stderr);
        (output.status.code(), stdout)
    }

    fn ok(&mut self, args: &[&str]) -> String {
        let (code, stdout) = self.run(args);
        assert_eq!(code, Some(0), "{args:?}: {stdout}");
        stdout
    }

    fn json(&mut self, args: &[&str]) -> Value {
        let (code, stdout) = self.run(args);
        serde_json::from_str(&stdout)
            .unwrap_or_else(|error| panic!("{args:?} (exit {code:?}): {error}: {stdout}"))
    }

    fn scratch(&self, name: &str) -> String {
        self.scratch.path().join(name).to_str().unwrap().to_owned()
    }

    fn batch_file(&self, rows: u32) -> String {
        let mut text = String::from("ФИО;Квартира;Описание\n");
        for row in 1..=rows {
            text.push_str(&format!(
                "Жилец {row};{row};Квартира {row:02}: в подъезде неделю не горит свет на \
                 лестнице.\n"
            ));
        }
        let path = self.scratch("дом.csv");
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Everything a resident does with saved drafts and batches that writes a file or prints
    /// one: photos, an edit, every export, a backup and its restore into another folder, the
    /// explanations, the statistics and the doctor.
    fn use_everything(&mut self, draft: &str, batch: &str) {
        let photo = tests_dir().join("fixtures/photos/gps.jpg");
        self.ok(&["drafts", "attach", draft, photo.to_str().unwrap()]);
        let body = self.scratch("правка.txt");
        std::fs::write(
            &body,
            "Не горит свет на лестнице\n\nНа лестнице между третьим и четвёртым этажами \
             неделю не горит свет. Прошу заменить лампы.\n",
        )
        .unwrap();
        self.ok(&["drafts", "edit", draft, "--body-file", &body]);
        for format in ["txt", "pdf", "docx", "json"] {
            let out = self.scratch(&format!("заявка.{format}"));
            self.ok(&["drafts", "export", draft, "--format", format, "--out", &out]);
        }
        for format in ["txt", "jsonl", "csv"] {
            let out = self.scratch(&format!("пакет-{format}"));
            self.ok(&["batch", "export", batch, "--format", format, "--out", &out]);
        }
        let backup = self.scratch("копия.sqlite3");
        self.ok(&["drafts", "backup", &backup]);
        let restored_home = self.scratch("восстановлено");
        let (output, _, stderr) = run(zayavka()
            .env("ZAYAVKA_HOME", &restored_home)
            .args(["drafts", "restore", &backup]));
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        for args in [
            &["drafts", "show", draft, "--explain"][..],
            &["drafts", "show", draft, "--json"],
            &["drafts", "list", "--json"],
            &["batch", "status", batch, "--json"],
            &["stats", "--json"],
            &["config", "show"],
            &["key", "status"],
        ] {
            self.run(args);
        }
        self.run(&["doctor"]);
    }
}

fn completion() -> Reply {
    Reply::completion(&zayavka_standin::lighting_draft().to_string())
}

/// An error answer that carries back every credential the request had, in the body and in
/// headers, as a careless gateway would.
fn echo(status: u16) -> Reply {
    Reply::echo_credentials(
        status,
        format!(
            "{{\"error\": {{\"message\": \"bad credentials: {ECHO_AUTHORIZATION} (key {ECHO_KEY})\", \
             \"type\": \"server_error\", \"code\": \"echo\"}}}}"
        ),
    )
    .with_header("x-echo-key", ECHO_KEY)
    .with_header("www-authenticate", &format!("Bearer realm=\"{ECHO_KEY}\""))
}

#[test]
fn a_realistic_session_leaves_no_canary_anywhere() {
    // An OpenAI-compatible service: a draft that succeeds, one whose first answers echo the key
    // back (a 500 retried, then a 401), and a batch of three rows.
    let stand_in = StandIn::start(
        Script::new()
            .then(completion())
            .then(echo(500))
            .then(echo(401))
            .then(completion())
            .repeat_last(),
    );
    let mut session = Session::new(CANARY_KEY);
    let base_url = stand_in.base_url();
    session.ok(&["config", "set", "profiles.openai.base_url", &base_url]);
    session.ok(&["config", "set", "profiles.openai.model", "stand-in-model"]);
    session.ok(&["config", "set", "active_profile", "openai"]);
    let record = session.scratch("запись.json");
    let ready = session.json(&[
        "draft",
        "--json",
        "--record",
        &record,
        "--description",
        DESCRIPTION,
        "--subject",
        "common_area_premises_lighting",
    ]);
    assert_eq!(ready["outcome"], "ready", "{ready}");
    let failed = session.json(&[
        "draft",
        "--json",
        "--attempts",
        "3",
        "--record",
        &session.scratch("запись-сбой.json"),
        "--description",
        DESCRIPTION,
    ]);
    assert_eq!(failed["outcome"], "failed", "{failed}");
    assert_eq!(failed["reason"], "auth", "{failed}");
    let batch_file = session.batch_file(3);
    let summary = session.json(&["batch", "run", &batch_file, "--yes", "--json"]);
    assert_eq!(summary["ready"], 3, "{summary}");
    let draft = ready["draft_id"].to_string();
    // The first batch of this data folder.
    let batch = "1";
    session.use_everything(&draft, batch);
    // The key did travel, so its absence from the files means something.
    let sent = stand_in.requests();
    assert!(
        sent.iter().any(|request| request.header("authorization")
            == Some(format!("Bearer {CANARY_KEY}").as_str()))
    );
    assert!(
        session.leftovers.file_count() >= 15,
        "the session left its files"
    );
    session.leftovers.assert_clean();
}

#[test]
fn a_gigachat_session_leaves_neither_the_authorization_key_nor_an_access_token() {
    let schema = zayavka_core::request_draft_schema().name;
    let function_call = || {
        let mut draft = zayavka_standin::lighting_draft();
        draft["subject"] = Value::Null;
        Reply::function_call(schema, draft)
    };
    let stand_in = StandIn::start_as(
        Service::GigaChat {
            authorization_key: CANARY_GIGACHAT_KEY.to_owned(),
            scope: "GIGACHAT_API_PERS".to_owned(),
            token_lifetime: Duration::from_secs(1800),
        },
        Script::new()
            .then(function_call())
            // The token endpoint's token echoed back by the API, then refused.
            .then(echo(500))
            .then(echo(401))
            .then(function_call())
            .repeat_last(),
    );
    stand_in.set_token_prefix(CANARY_TOKEN_PREFIX);
    let mut session = Session::new(CANARY_GIGACHAT_KEY);
    for (key, value) in [
        ("profiles.gigachat.base_url", stand_in.base_url()),
        ("profiles.gigachat.auth_url", stand_in.auth_url()),
        ("active_profile", "gigachat".to_owned()),
    ] {
        session.ok(&["config", "set", key, &value]);
    }
    let ready = session.json(&[
        "draft",
        "--json",
        "--record",
        &session.scratch("запись.json"),
        "--description",
        DESCRIPTION,
    ]);
    assert_eq!(ready["outcome"], "ready", "{ready}");
    let second = session.json(&[
        "draft",
        "--json",
        "--attempts",
        "3",
        "--record",
        &session.scratch("запись-2.json"),
        "--description",
        DESCRIPTION,
    ]);
    assert!(second["outcome"].is_string(), "{second}");
    let batch_file = session.batch_file(2);
    let summary = session.json(&["batch", "run", &batch_file, "--yes", "--json"]);
    assert_eq!(summary["ready"], 2, "{summary}");
    let draft = ready["draft_id"].to_string();
    // The first batch of this data folder.
    let batch = "1";
    session.use_everything(&draft, batch);
    assert!(stand_in.token_exchanges() >= 1);
    let bearer = format!("Bearer {CANARY_TOKEN_PREFIX}1");
    assert!(
        stand_in
            .requests()
            .iter()
            .any(|request| request.header("authorization") == Some(bearer.as_str())),
        "the canary access token was issued and used"
    );
    assert!(
        session.leftovers.file_count() >= 15,
        "the session left its files"
    );
    session.leftovers.assert_clean();
}
