//! The evaluation's answer corpus served as an answer book (issue 36): recorded answers of a
//! capable model, each filed under the user message it answered.
//!
//! A folder such as `tests/eval/answers/system-v3/` holds one JSON file per case:
//! `{"case", "prompt_version", "prompt_sha256", "schema_id", "schema_sha256", "user_message",
//! "answers": [{"round", "source", "answer"}, …]}` (written by `scripts/eval-answers.py`). The
//! n-th request carrying a case's user message gets its n-th answer, in round order, as a chat
//! completion; a request with no answer left gets the script's `500`, so a run that asks more
//! than was recorded fails loudly instead of hearing an answer to another question.

use std::path::Path;

use serde::Deserialize;

use crate::reply::Reply;
use crate::script::Script;

/// One case's recorded answers.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedAnswers {
    /// The case's id.
    pub case: String,
    /// The system prompt's version the answers were given to.
    pub prompt_version: String,
    /// That prompt's SHA-256.
    pub prompt_sha256: String,
    /// The schema's id.
    pub schema_id: String,
    /// The schema's SHA-256.
    pub schema_sha256: String,
    /// The user message exactly as it was sent.
    pub user_message: String,
    /// The answers, one per round.
    pub answers: Vec<RecordedAnswer>,
}

/// One recorded answer.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedAnswer {
    /// Which independent round gave it, from 1.
    pub round: u32,
    /// Who answered, for the record.
    pub source: String,
    /// The model's JSON object as it answered.
    pub answer: serde_json::Value,
    /// A reviewer's verdict, where one looked: whether the answer keeps the resident's facts
    /// and adds none (and names the resident as WRITING_RULES says), and why not.
    #[serde(default)]
    pub review: Option<Review>,
}

/// A reviewer's verdict on one recorded answer.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Review {
    /// Whether the answer is faithful.
    pub faithful: bool,
    /// What the reviewer saw, in a sentence.
    pub note: String,
}

/// Reads every `*.json` file of `dir` as a case's recorded answers, in file-name order.
pub fn read_answer_corpus(dir: &Path) -> Result<Vec<RecordedAnswers>, String> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map_err(|error| format!("cannot read {}: {error}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(format!(
            "{} holds no recorded answers (*.json)",
            dir.display()
        ));
    }
    paths
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path)
                .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
            serde_json::from_str(&text).map_err(|error| format!("{}: {error}", path.display()))
        })
        .collect()
}

impl Script {
    /// A script that serves every case's recorded answers to the requests that carry its user
    /// message, in round order, each as a chat completion with the answer's JSON as content.
    pub fn answer_corpus(corpus: &[RecordedAnswers]) -> Script {
        let mut script = Script::new();
        for case in corpus {
            let mut answers: Vec<&RecordedAnswer> = case.answers.iter().collect();
            answers.sort_by_key(|answer| answer.round);
            for answer in answers {
                script = script.answer(
                    &case.user_message,
                    Reply::completion(&answer.answer.to_string()),
                );
            }
        }
        script
    }
}
