//! The case format of `tests/eval/README.md`, read strictly: unknown keys anywhere are refused,
//! the id is the file name, and every subject kind and outcome is one the core knows.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer};
use zayavka_core::{RawInput, ResidentInput, SubjectKind};

use super::EvalError;

/// The outcome kinds a case may expect: the core's `Outcome::kind`.
pub const OUTCOME_KINDS: [&str; 5] = ["ready", "needs_user", "rejected", "failed", "invalid_input"];

/// The largest case file read: a case is a resident's input and a few phrases.
const CASE_FILE_MAX_BYTES: u64 = 64 * 1024;

/// One evaluation case: a resident's input and what a good request does with it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Lower-case ASCII words joined by hyphens, the file name without `.json`.
    pub id: String,
    /// The resident input as typed, in the input contract's shape.
    #[serde(deserialize_with = "strict_input")]
    pub input: RawInput,
    /// What to check; every key optional.
    pub expect: Expect,
}

/// What a case expects. An absent key is not checked; `subject` and `item` tell an explicit
/// `null` (expect none) from an absent key.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The outcome kind.
    pub outcome: Option<String>,
    /// The subject kind the model should classify; `Some(None)` expects none.
    #[serde(default, deserialize_with = "present")]
    pub subject: Option<Option<SubjectKind>>,
    /// Kinds the model must not choose.
    pub subject_not: Option<Vec<SubjectKind>>,
    /// Whether the subject's legal paragraph is in the request.
    pub module_included: Option<bool>,
    /// Whether the request carries at least one warning.
    pub warning_expected: Option<bool>,
    /// The exact «Прошу:» item.
    #[serde(default, deserialize_with = "present")]
    pub item: Option<Option<String>>,
    /// Facts the request must keep, each a short phrase.
    pub must_keep: Option<Vec<String>>,
    /// Phrases that must not occur in the model's text (a lower-case substring test).
    pub must_not_contain: Option<Vec<String>>,
    /// Negated facts that must stay negated.
    pub negations: Option<Vec<String>>,
    /// What a reviewer should look at.
    pub notes: Option<String>,
}

/// The input contract's five fields and no other: a case with a misspelt field would otherwise
/// be evaluated without it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseInput {
    description: Option<String>,
    #[serde(default)]
    location: Option<String>,
    #[serde(default)]
    consequences: Option<String>,
    #[serde(default)]
    desired_actions: Option<String>,
    #[serde(default)]
    confirmed_subject: Option<String>,
}

fn strict_input<'de, D: Deserializer<'de>>(deserializer: D) -> Result<RawInput, D::Error> {
    let input = CaseInput::deserialize(deserializer)?;
    Ok(RawInput {
        description: input.description,
        location: input.location,
        consequences: input.consequences,
        desired_actions: input.desired_actions,
        confirmed_subject: input.confirmed_subject,
    })
}

fn present<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

impl Case {
    /// Reads and checks a case's text; `name` is the file's name without `.json`.
    pub fn parse(text: &str, name: &str) -> Result<Case, String> {
        let case: Case = serde_json::from_str(text).map_err(|error| {
            format!(
                "не случай в формате tests/eval/README.md ({})",
                zayavka_core::json_error_ru(&error)
            )
        })?;
        if case.id != name {
            return Err(format!(
                "id «{}» не совпадает с именем файла «{name}.json»",
                case.id
            ));
        }
        let valid_id = !case.id.is_empty()
            && case
                .id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !valid_id {
            return Err(format!(
                "id «{}» должен состоять из строчных латинских букв, цифр и дефисов",
                case.id
            ));
        }
        if let Some(outcome) = &case.expect.outcome
            && !OUTCOME_KINDS.contains(&outcome.as_str())
        {
            return Err(format!(
                "исход «{outcome}» неизвестен; допустимы {}",
                OUTCOME_KINDS.join(", ")
            ));
        }
        Ok(case)
    }

    /// The checked input, or why it was refused.
    pub fn checked_input(&self) -> Result<ResidentInput, zayavka_core::InputErrors> {
        ResidentInput::parse(&self.input)
    }

    /// Whether the case reaches a model: its input passes the contract.
    pub fn reaches_model(&self) -> bool {
        self.checked_input().is_ok()
    }
}

/// Every case file of `dir` (`*.json`, by name), or only those whose ids are in `only`, in id
/// order. An id in `only` with no file is an error, so a typo is not an empty run.
pub fn load_cases(dir: &Path, only: &[String]) -> Result<Vec<Case>, EvalError> {
    let entries = std::fs::read_dir(dir).map_err(|_| EvalError::CasesNotFound {
        path: dir.to_owned(),
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json") && path.is_file())
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let name = path
            .file_stem()
            .and_then(|stem| stem.to_str())
            .unwrap_or_default()
            .to_owned();
        if !only.is_empty() && !only.contains(&name) {
            continue;
        }
        let invalid = |message: String| EvalError::InvalidCase {
            path: path.clone(),
            message,
        };
        let size = std::fs::metadata(&path)
            .map_err(|error| invalid(error.to_string()))?
            .len();
        if size > CASE_FILE_MAX_BYTES {
            return Err(invalid(format!(
                "файл больше {} КБ — это не случай",
                CASE_FILE_MAX_BYTES / 1024
            )));
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|error| invalid(format!("файл не прочитан ({error}); нужен текст в UTF-8")))?;
        cases.push(Case::parse(text.trim_start_matches('\u{feff}'), &name).map_err(invalid)?);
    }
    cases.sort_by(|a, b| a.id.cmp(&b.id));
    for id in only {
        if !cases.iter().any(|case| &case.id == id) {
            return Err(EvalError::UnknownCase {
                id: id.clone(),
                dir: dir.to_owned(),
            });
        }
    }
    if cases.is_empty() {
        return Err(EvalError::NoCases {
            path: dir.to_owned(),
        });
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/eval/cases")
    }

    #[test]
    fn the_corpus_reads_with_every_case_in_id_order() {
        let cases = load_cases(&corpus(), &[]).unwrap();
        assert!(cases.len() >= 60, "{}", cases.len());
        assert!(cases.windows(2).all(|pair| pair[0].id < pair[1].id));
        let invalid = cases.iter().filter(|case| !case.reaches_model()).count();
        assert!(invalid >= 1, "the corpus has inputs refused before a call");
    }

    #[test]
    fn an_unknown_key_a_wrong_id_or_an_unknown_subject_is_refused_in_russian() {
        let base =
            r#"{"id": "a", "input": {"description": "В подъезде не горит свет"}, "expect": {}}"#;
        assert!(Case::parse(base, "a").is_ok());
        let cases = [
            (
                base.replace("\"expect\": {}", "\"expect\": {\"colour\": 1}"),
                "a",
            ),
            (
                base.replace("\"input\": {", "\"input\": {\"flat\": \"5\", "),
                "a",
            ),
            (base.to_owned(), "b"),
            (
                base.replace("{}", "{\"subject\": \"common_area_garden\"}"),
                "a",
            ),
            (base.replace("{}", "{\"outcome\": \"great\"}"), "a"),
            (base.replace("\"id\": \"a\"", "\"id\": \"A\""), "A"),
        ];
        for (text, name) in cases {
            let message = Case::parse(&text, name).unwrap_err();
            assert!(message.chars().any(|c| matches!(c, 'а'..='я')), "{message}");
        }
    }

    #[test]
    fn an_explicit_null_subject_differs_from_an_absent_one() {
        let with_null = Case::parse(
            r#"{"id": "a", "input": {"description": "В подъезде не горит свет"},
                "expect": {"subject": null}}"#,
            "a",
        )
        .unwrap();
        assert_eq!(with_null.expect.subject, Some(None));
        let absent = Case::parse(
            r#"{"id": "a", "input": {"description": "В подъезде не горит свет"}, "expect": {}}"#,
            "a",
        )
        .unwrap();
        assert_eq!(absent.expect.subject, None);
    }

    #[test]
    fn a_missing_folder_or_case_id_is_named() {
        let missing = load_cases(Path::new("/nonexistent/eval"), &[]).unwrap_err();
        assert!(matches!(missing, EvalError::CasesNotFound { .. }));
        let unknown = load_cases(&corpus(), &["no-such-case".to_owned()]).unwrap_err();
        assert!(unknown.to_string().contains("no-such-case"), "{unknown}");
    }
}
