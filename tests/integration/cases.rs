//! Data-driven assembly cases: one JSON file per scenario in `tests/cases/assemble/`.
//!
//! A case file holds the resident input, the model response and what must come of them:
//!
//! ```json
//! {
//!   "about": "what the case checks",
//!   "input": { "description": "…" },          // or "input_raw": "text that is not JSON"
//!   "response": { "outcome": "draft", … },     // the model's object, or a chat-completions body;
//!                                              // or "response_raw": "any text"
//!   "expect": {
//!     "outcome": "ready", "reason": null,
//!     "subject_module": null, "legal_omission": "not_confirmed",
//!     "items": ["…"], "error_codes": ["…"],
//!     "body_contains": ["…"], "body_excludes": ["…"]
//!   }
//! }
//! ```
//!
//! Every key of `expect` but `outcome` is optional. Each case is also a golden snapshot of its
//! whole `--json` report under `tests/cases/assemble/snapshots/`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;
use zayavka_core::Outcome;
use zayavka_engine::assemble_from_texts;

use crate::support::{run, tests_dir, zayavka};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    about: String,
    input: Option<Value>,
    input_raw: Option<String>,
    response: Option<Value>,
    response_raw: Option<String>,
    expect: Expect,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    outcome: String,
    #[serde(default, deserialize_with = "present")]
    reason: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    subject_module: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    legal_omission: Option<Option<String>>,
    items: Option<Vec<String>>,
    error_codes: Option<Vec<String>>,
    #[serde(default)]
    body_contains: Vec<String>,
    #[serde(default)]
    body_excludes: Vec<String>,
}

/// Tells an explicit `null` (expect no value) from an absent key (do not check).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

impl Case {
    fn input_text(&self) -> String {
        match (&self.input, &self.input_raw) {
            (Some(value), None) => value.to_string(),
            (None, Some(raw)) => raw.clone(),
            _ => panic!("a case has exactly one of input and input_raw"),
        }
    }

    fn response_text(&self) -> String {
        match (&self.response, &self.response_raw) {
            (Some(value), None) => value.to_string(),
            (None, Some(raw)) => raw.clone(),
            _ => panic!("a case has exactly one of response and response_raw"),
        }
    }
}

fn case_files() -> Vec<PathBuf> {
    let dir = tests_dir().join("cases/assemble");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/cases/assemble exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

fn load(path: &Path) -> Case {
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn case_name(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

/// What is wrong with an outcome against its expectation (empty when it matches).
fn mismatches(expect: &Expect, outcome: &Outcome) -> Vec<String> {
    let report = serde_json::to_value(outcome.report()).unwrap();
    let mut wrong = Vec::new();
    let mut check = |what: &str, expected: &Value, actual: &Value| {
        if expected != actual {
            wrong.push(format!("{what}: expected {expected}, got {actual}"));
        }
    };
    check(
        "outcome",
        &Value::from(expect.outcome.clone()),
        &report["outcome"],
    );
    if let Some(reason) = &expect.reason {
        check(
            "reason",
            &serde_json::to_value(reason).unwrap(),
            &report["reason"],
        );
    }
    let request = &report["request"];
    if let Some(subject) = &expect.subject_module {
        let expected = serde_json::to_value(subject).unwrap();
        check("subject_module", &expected, &request["subject_module"]);
    }
    if let Some(omission) = &expect.legal_omission {
        let expected = serde_json::to_value(omission).unwrap();
        check("legal_omission", &expected, &request["legal_omission"]);
    }
    if let Some(items) = &expect.items {
        check(
            "items",
            &serde_json::to_value(items).unwrap(),
            &request["items"],
        );
    }
    if let Some(codes) = &expect.error_codes {
        let expected: BTreeSet<&str> = codes.iter().map(String::as_str).collect();
        let actual: BTreeSet<&str> = report["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["code"].as_str().unwrap())
            .collect();
        if expected != actual {
            wrong.push(format!(
                "error codes: expected {expected:?}, got {actual:?}"
            ));
        }
    }
    let body = request["body"].as_str().unwrap_or("");
    for needle in &expect.body_contains {
        if !body.contains(needle.as_str()) {
            wrong.push(format!("body lacks «{needle}»"));
        }
    }
    for needle in &expect.body_excludes {
        if body.contains(needle.as_str()) {
            wrong.push(format!("body contains «{needle}»"));
        }
    }
    wrong
}

#[test]
fn every_case_meets_its_expectation() {
    let files = case_files();
    assert!(files.len() >= 60, "only {} case files", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let case = load(path);
        let outcome = assemble_from_texts(&case.input_text(), &case.response_text());
        let wrong = mismatches(&case.expect, &outcome);
        if !wrong.is_empty() {
            failures.push(format!(
                "{} ({}):\n  {}",
                case_name(path),
                case.about,
                wrong.join("\n  ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_case_matches_its_golden_snapshot() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(tests_dir().join("cases/assemble/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| {
        for path in case_files() {
            let case = load(&path);
            let outcome = assemble_from_texts(&case.input_text(), &case.response_text());
            insta::assert_json_snapshot!(case_name(&path), outcome.report());
        }
    });
}

#[test]
fn assembly_is_deterministic() {
    for path in case_files() {
        let case = load(&path);
        let (input, response) = (case.input_text(), case.response_text());
        let first = serde_json::to_vec(&assemble_from_texts(&input, &response).report()).unwrap();
        let second = serde_json::to_vec(&assemble_from_texts(&input, &response).report()).unwrap();
        assert_eq!(first, second, "{}", case_name(&path));
    }
}

#[test]
fn the_binary_gives_the_same_report_and_exit_code_as_the_library() {
    let scratch = tempfile::tempdir().unwrap();
    for path in case_files() {
        let case = load(&path);
        let input_file = scratch.path().join("input.json");
        let response_file = scratch.path().join("response.json");
        std::fs::write(&input_file, case.input_text()).unwrap();
        std::fs::write(&response_file, case.response_text()).unwrap();
        let expected = assemble_from_texts(&case.input_text(), &case.response_text());
        let (output, stdout, stderr) = run(zayavka()
            .arg("assemble")
            .arg("--input")
            .arg(&input_file)
            .arg("--response")
            .arg(&response_file)
            .arg("--json"));
        let name = case_name(&path);
        assert_eq!(
            output.status.code(),
            Some(expected_exit_code(&expected)),
            "{name}: {stderr}"
        );
        let printed: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(
            printed,
            serde_json::to_value(expected.report()).unwrap(),
            "{name}"
        );
    }
}

/// The exit codes the command-line tool promises for each outcome.
fn expected_exit_code(outcome: &Outcome) -> i32 {
    match outcome.kind() {
        zayavka_engine::OutcomeKind::Ready => 0,
        zayavka_engine::OutcomeKind::InvalidInput => 2,
        zayavka_engine::OutcomeKind::NeedsUser => 3,
        zayavka_engine::OutcomeKind::Rejected => 4,
        zayavka_engine::OutcomeKind::Failed => 5,
    }
}
