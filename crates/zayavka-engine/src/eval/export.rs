//! What a run would send, written to files for a model that cannot be reached through a profile
//! (issue 36): a capable general-purpose model answers in a separate session, from exactly what
//! the program sends and from nothing else.
//!
//! The folder it writes holds two parts, kept apart on purpose:
//!
//! - `for-model/`: the system message, the response schema as the provider receives it, and
//!   one user message per case, numbered (`001.json`, …). The numbers hide the case ids, whose
//!   words («negation-…», «lookalike-lift-…») would tell the answering model what is checked.
//!   This is the only part to hand over.
//! - `index.json`: which number is which case, with the prompt's version and SHA-256 and the
//!   schema's id and SHA-256, to file the answers under their cases afterwards.

use std::path::{Path, PathBuf};

use serde::Serialize;
use zayavka_core::{SchemaMode, render_prompt_with};

use super::EvalError;
use super::case::load_cases;
use super::plan::chosen_prompt;

/// What was written, for the front end to print.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EvalExport {
    /// The folder to hand to the answering model.
    pub for_model: PathBuf,
    /// The number-to-case index, kept away from the answering model.
    pub index: PathBuf,
    /// The prompt's version.
    pub prompt_version: String,
    /// The prompt's SHA-256.
    pub prompt_sha256: String,
    /// The schema's id.
    pub schema_id: String,
    /// The schema's SHA-256.
    pub schema_sha256: String,
    /// The cases written, in number order: `(number, case id)`.
    pub cases: Vec<ExportedCase>,
}

/// One numbered message and its case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExportedCase {
    /// The file's number, three digits.
    pub number: String,
    /// The case.
    pub case: String,
}

/// Writes what a run with `prompt_version` (the current prompt when `None`) sends for every
/// case of `cases_dir` (or the chosen ones) whose input reaches a model, in `json_schema` mode:
/// the system message, the transport schema and each user message. An input the contract
/// refuses is never sent and is not written.
pub fn export_eval_requests(
    cases_dir: &Path,
    case_ids: &[String],
    prompt_version: Option<&str>,
    out_dir: &Path,
) -> Result<EvalExport, EvalError> {
    let prompt = chosen_prompt(prompt_version)?;
    let schema = prompt.schema();
    let cases = load_cases(cases_dir, case_ids)?;
    let for_model = out_dir.join("for-model");
    let messages = for_model.join("messages");
    let write_error = |path: &Path, error: std::io::Error| EvalError::Export {
        path: path.to_owned(),
        message: crate::paths::io_error_ru(&error),
    };
    // A folder written before would keep its messages beside the new ones, and an answering
    // model would answer both: an export goes to a folder of its own.
    if for_model.exists() || out_dir.join("index.json").exists() {
        return Err(EvalError::Export {
            path: out_dir.to_owned(),
            message: "здесь уже есть выгрузка; чтобы старые сообщения не смешались с новыми, \
                      выберите новую папку"
                .to_owned(),
        });
    }
    std::fs::create_dir_all(&messages).map_err(|e| write_error(&messages, e))?;
    let mut exported = Vec::new();
    let mut system = None;
    for case in &cases {
        let Ok(input) = case.checked_input() else {
            continue;
        };
        let rendered = render_prompt_with(prompt, &input, SchemaMode::JsonSchema, schema);
        system.get_or_insert(rendered.system);
        let number = format!("{:03}", exported.len() + 1);
        let path = messages.join(format!("{number}.json"));
        std::fs::write(&path, rendered.user).map_err(|e| write_error(&path, e))?;
        exported.push(ExportedCase {
            number,
            case: case.id.clone(),
        });
    }
    let system_path = for_model.join("system.md");
    std::fs::write(&system_path, system.unwrap_or_default())
        .map_err(|e| write_error(&system_path, e))?;
    let schema_path = for_model.join("schema.json");
    let response_format = serde_json::json!({
        "name": schema.name,
        "strict": true,
        "schema": schema.transport(),
    });
    let schema_text =
        serde_json::to_string_pretty(&response_format).expect("a JSON value serialises");
    std::fs::write(&schema_path, schema_text).map_err(|e| write_error(&schema_path, e))?;
    let export = EvalExport {
        for_model,
        index: out_dir.join("index.json"),
        prompt_version: prompt.version.to_owned(),
        prompt_sha256: prompt.sha256().to_owned(),
        schema_id: schema.id.to_owned(),
        schema_sha256: schema.sha256().to_owned(),
        cases: exported,
    };
    let index_text = serde_json::to_string_pretty(&export).expect("the index serialises");
    std::fs::write(&export.index, index_text).map_err(|e| write_error(&export.index, e))?;
    Ok(export)
}
