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

use serde_json::{Value, json};
use zayavka_standin::{ECHO_AUTHORIZATION, ECHO_KEY, Reply, Script, Service, StandIn};

use crate::support::{run, zayavka};

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

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    needle.is_empty()
        || haystack
            .windows(needle.len())
            .any(|window| window.eq_ignore_ascii_case(needle))
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
            for (canary, form, needle) in &every_form {
                if contains(bytes, needle) {
                    found.push(format!("{source}: {canary} ({form})"));
                }
            }
        };
        for file in &files {
            // A file another process still writes or removes is read as it is now.
            if let Ok(bytes) = std::fs::read(file) {
                check(file.display().to_string(), &bytes);
            }
        }
        for (name, bytes) in &self.outputs {
            check(name.clone(), bytes);
        }
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
                .any(|(_, form)| contains(encoded.as_bytes(), form)),
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
