//! The results of a run, one per answer, and the summary per profile: the hard-check pass rate
//! over repeats, stability (a case is stable only when every repeat passes its hard checks),
//! invented-content flags, the `must_keep` facts with a reviewer's marks counted, cost and
//! latency.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use zayavka_core::{ModelDraft, RawInput, Verdict};

use super::EvalError;
use super::checks::{CONTENT_WORDS_CHECK, CheckResult, Checked, FactResult};

/// The name of the reviewer's marks file beside the sheet.
pub const MARKS_FILE: &str = "marks.json";

/// Whether every hard check of an answer held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HardVerdict {
    /// Every hard check held.
    Pass,
    /// At least one failed.
    Fail,
}

/// What a sheet shows beside an answer's verdicts; not part of the JSON results.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResultView {
    /// The input as sent.
    pub input: RawInput,
    /// The model's decoded answer, when it could be decoded.
    pub draft: Option<ModelDraft>,
    /// The assembled request's text, when there is one.
    pub request_text: Option<String>,
    /// Why there is no request, in Russian, when there is none.
    pub why_not: Option<String>,
    /// The case's notes for a reviewer.
    pub notes: Option<String>,
}

/// One answer: a case, a profile, a repeat, and every check's verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseResult {
    /// The case's id.
    pub case: String,
    /// The profile.
    pub profile: String,
    /// The repeat, from 1.
    pub repeat: u32,
    /// The outcome's kind.
    pub outcome: String,
    /// The outcome's reason code, when it has one.
    pub reason: Option<String>,
    /// Whether every hard check held.
    pub hard: HardVerdict,
    /// Every check that applies.
    pub checks: Vec<CheckResult>,
    /// The `must_keep` facts.
    pub must_keep: Vec<FactResult>,
    /// From the first request to the last answer, in milliseconds.
    pub latency_ms: u64,
    /// The priced cost, when the profile has prices.
    pub cost: Option<f64>,
    /// Its currency.
    pub currency: Option<String>,
    /// Tokens over every attempt, when the service counted them.
    pub tokens: Option<u64>,
    /// What the sheet shows.
    #[serde(skip)]
    pub view: ResultView,
}

impl CaseResult {
    pub(super) fn new(
        key: (&str, &str, u32),
        outcome: &zayavka_core::Outcome,
        checked: Checked,
        cassette: &zayavka_store::EvalCassette,
        view: ResultView,
    ) -> CaseResult {
        let (case, profile, repeat) = key;
        CaseResult {
            case: case.to_owned(),
            profile: profile.to_owned(),
            repeat,
            outcome: outcome.kind().code().to_owned(),
            reason: outcome.reason().map(str::to_owned),
            hard: if checked.hard_passed() {
                HardVerdict::Pass
            } else {
                HardVerdict::Fail
            },
            checks: checked.checks,
            must_keep: checked.must_keep,
            latency_ms: cassette.latency_ms,
            cost: cassette.cost,
            currency: cassette.currency.clone(),
            tokens: match (cassette.prompt_tokens, cassette.completion_tokens) {
                (None, None) => None,
                (prompt, completion) => Some(prompt.unwrap_or(0) + completion.unwrap_or(0)),
            },
            view,
        }
    }

    fn failed(&self, names: &[&str]) -> bool {
        self.checks
            .iter()
            .any(|check| names.contains(&check.check) && check.verdict == Verdict::Fail)
    }
}

/// A reviewer's verdict on one `must_keep` fact of one answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mark {
    /// The case.
    pub case: String,
    /// The profile.
    pub profile: String,
    /// The repeat.
    pub repeat: u32,
    /// The fact as the case gives it.
    pub fact: String,
    /// `pass` (kept) or `fail` (lost).
    pub verdict: MarkVerdict,
}

/// A reviewer decides; there is no «unsure» for a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkVerdict {
    /// The fact is kept.
    Pass,
    /// The fact is lost.
    Fail,
}

/// The reviewer's marks of one run, as the sheet saves them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Marks {
    /// The run they belong to.
    pub run: String,
    /// The marks.
    pub marks: Vec<Mark>,
}

impl Marks {
    fn find(&self, result: &CaseResult, fact: &str) -> Option<MarkVerdict> {
        self.marks
            .iter()
            .rev()
            .find(|mark| {
                mark.case == result.case
                    && mark.profile == result.profile
                    && mark.repeat == result.repeat
                    && mark.fact == fact
            })
            .map(|mark| mark.verdict)
    }
}

/// Reads `marks.json` from the sheet's folder, if a reviewer saved one there. Marks of another
/// run are refused, so that a file copied to the wrong folder is not counted.
pub fn read_marks(dir: &Path, run: &str) -> Result<Option<Marks>, EvalError> {
    let path = dir.join(MARKS_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => {
            return Err(EvalError::Sheet {
                path,
                message: format!("отметки проверяющего не прочитаны ({error})"),
            });
        }
    };
    let marks: Marks =
        serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|error| {
            EvalError::Sheet {
                path: path.clone(),
                message: format!(
                    "это не файл отметок, сохранённый листом проверки ({}); сохраните его заново \
                 кнопкой «Сохранить отметки»",
                    zayavka_core::json_error_ru(&error)
                ),
            }
        })?;
    if marks.run != run {
        return Err(EvalError::Sheet {
            path,
            message: format!(
                "отметки сделаны для прогона «{}», а не «{run}»; положите их в папку листа \
                 того прогона",
                marks.run
            ),
        });
    }
    Ok(Some(marks))
}

/// How the `must_keep` facts of a profile's answers came out, a reviewer's marks included.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FactCounts {
    /// Kept: the checks could tell, or a reviewer said so.
    pub kept: u32,
    /// Lost: the checks could tell, or a reviewer said so.
    pub lost: u32,
    /// Left for a reviewer.
    pub unsure: u32,
    /// Of all of these, how many a reviewer marked.
    pub reviewed: u32,
}

/// Latency over a profile's answers, in milliseconds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LatencySummary {
    /// The median.
    pub median: u64,
    /// The slowest.
    pub max: u64,
}

/// One profile's line of the summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProfileSummary {
    /// The profile.
    pub profile: String,
    /// Answers evaluated.
    pub answers: u32,
    /// Answers whose hard checks all held.
    pub hard_passed: u32,
    /// `hard_passed / answers`, from 0 to 1.
    pub hard_pass_rate: f64,
    /// Cases evaluated.
    pub cases: u32,
    /// Cases whose every repeat passed its hard checks.
    pub stable_cases: u32,
    /// `stable_cases / cases`, from 0 to 1.
    pub stability: f64,
    /// Answers with an invented-content flag (a failed invented-content check).
    pub invented_content: u32,
    /// Answers with content words the resident's text does not hold.
    pub new_words: u32,
    /// The `must_keep` facts.
    pub must_keep: FactCounts,
    /// The priced cost of the answers, when the profile has prices.
    pub cost: Option<f64>,
    /// Its currency.
    pub currency: Option<String>,
    /// Tokens over every answer.
    pub tokens: u64,
    /// Latency.
    pub latency_ms: LatencySummary,
}

fn ratio(part: u32, whole: u32) -> f64 {
    if whole == 0 {
        0.0
    } else {
        // Rounded to four places, so that the JSON reads the same on every platform.
        (f64::from(part) / f64::from(whole) * 10_000.0).round() / 10_000.0
    }
}

/// The summary of each profile, in the order given.
pub fn summarise(
    profiles: &[String],
    results: &[CaseResult],
    marks: Option<&Marks>,
) -> Vec<ProfileSummary> {
    profiles
        .iter()
        .map(|profile| {
            let mine: Vec<&CaseResult> = results.iter().filter(|r| &r.profile == profile).collect();
            let answers = mine.len() as u32;
            let hard_passed = mine.iter().filter(|r| r.hard == HardVerdict::Pass).count() as u32;
            let mut by_case: BTreeMap<&str, bool> = BTreeMap::new();
            for result in &mine {
                let stable = by_case.entry(result.case.as_str()).or_insert(true);
                *stable &= result.hard == HardVerdict::Pass;
            }
            let stable_cases = by_case.values().filter(|stable| **stable).count() as u32;
            let invented_content = mine
                .iter()
                .filter(|r| r.failed(&super::checks::INVENTED_CONTENT_CHECKS))
                .count() as u32;
            let new_words = mine
                .iter()
                .filter(|r| r.failed(&[CONTENT_WORDS_CHECK]))
                .count() as u32;
            let mut facts = FactCounts::default();
            for result in &mine {
                for fact in &result.must_keep {
                    let marked = marks.and_then(|marks| marks.find(result, &fact.fact));
                    if marked.is_some() {
                        facts.reviewed += 1;
                    }
                    match (marked, fact.verdict) {
                        (Some(MarkVerdict::Pass), _) | (None, Verdict::Pass) => facts.kept += 1,
                        (Some(MarkVerdict::Fail), _) | (None, Verdict::Fail) => facts.lost += 1,
                        (None, Verdict::Unsure) => facts.unsure += 1,
                    }
                }
            }
            let priced: Vec<f64> = mine.iter().filter_map(|r| r.cost).collect();
            let cost = (!priced.is_empty()).then(|| priced.iter().sum());
            let currency = mine.iter().find_map(|r| r.currency.clone());
            let mut latencies: Vec<u64> = mine.iter().map(|r| r.latency_ms).collect();
            latencies.sort_unstable();
            let latency_ms = LatencySummary {
                median: latencies.get(latencies.len() / 2).copied().unwrap_or(0),
                max: latencies.last().copied().unwrap_or(0),
            };
            ProfileSummary {
                profile: profile.clone(),
                answers,
                hard_passed,
                hard_pass_rate: ratio(hard_passed, answers),
                cases: by_case.len() as u32,
                stable_cases,
                stability: ratio(stable_cases, by_case.len() as u32),
                invented_content,
                new_words,
                must_keep: facts,
                cost,
                currency,
                tokens: mine.iter().filter_map(|r| r.tokens).sum(),
                latency_ms,
            }
        })
        .collect()
}

/// Everything a plan, a run or a replay reports, as `--json` prints it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalReport {
    /// The run's id; `None` in plan mode, which stores nothing.
    pub run: Option<String>,
    /// The plan, as printed before the run.
    pub plan: serde_json::Value,
    /// One result per answer, by case, profile (in the plan's order) and repeat; empty in plan
    /// mode.
    pub results: Vec<CaseResult>,
    /// One line per profile.
    pub summary: Vec<ProfileSummary>,
    /// Whether the run stopped before every request was answered (Ctrl-C).
    pub stopped: bool,
    /// Cassettes of a replayed run whose case file is no longer there.
    pub missing_cases: Vec<String>,
    /// Profiles whose service refused in a way every further request would meet too (the key,
    /// the quota, the schema mode, the settings), so that nothing more was sent to them.
    pub halted_profiles: Vec<String>,
    /// Whether a reviewer's marks were counted in the summary.
    pub marks_counted: u32,
}

impl EvalReport {
    /// Whether every hard check of every answer held.
    pub fn hard_passed(&self) -> bool {
        self.results.iter().all(|r| r.hard == HardVerdict::Pass)
    }

    /// Counts a reviewer's marks in the summary.
    pub fn count_marks(&mut self, marks: &Marks) {
        let profiles: Vec<String> = self.summary.iter().map(|s| s.profile.clone()).collect();
        self.summary = summarise(&profiles, &self.results, Some(marks));
        self.marks_counted = self.summary.iter().map(|s| s.must_keep.reviewed).sum();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(case: &str, repeat: u32, hard: HardVerdict, fact: Verdict) -> CaseResult {
        CaseResult {
            case: case.to_owned(),
            profile: "p".to_owned(),
            repeat,
            outcome: "ready".to_owned(),
            reason: None,
            hard,
            checks: vec![CheckResult {
                check: "faithfulness.groups",
                verdict: Verdict::Fail,
                detail: None,
            }],
            must_keep: vec![FactResult {
                fact: "все лампы".to_owned(),
                verdict: fact,
                detail: String::new(),
            }],
            latency_ms: u64::from(repeat) * 10,
            cost: Some(0.5),
            currency: Some("RUB".to_owned()),
            tokens: Some(150),
            view: ResultView::default(),
        }
    }

    #[test]
    fn a_case_is_stable_only_when_every_repeat_passes_and_marks_settle_unsure_facts() {
        let results = [
            result("a", 1, HardVerdict::Pass, Verdict::Pass),
            result("a", 2, HardVerdict::Fail, Verdict::Unsure),
            result("b", 1, HardVerdict::Pass, Verdict::Unsure),
            result("b", 2, HardVerdict::Pass, Verdict::Fail),
        ];
        let summary = &summarise(&["p".to_owned()], &results, None)[0];
        assert_eq!(summary.answers, 4);
        assert_eq!(summary.hard_passed, 3);
        assert_eq!(summary.hard_pass_rate, 0.75);
        assert_eq!((summary.cases, summary.stable_cases), (2, 1));
        assert_eq!(summary.invented_content, 4);
        assert_eq!(
            summary.must_keep,
            FactCounts {
                kept: 1,
                lost: 1,
                unsure: 2,
                reviewed: 0
            }
        );
        assert_eq!(summary.cost, Some(2.0));
        assert_eq!(summary.latency_ms.max, 20);
        let marks = Marks {
            run: "r".to_owned(),
            marks: vec![Mark {
                case: "b".to_owned(),
                profile: "p".to_owned(),
                repeat: 1,
                fact: "все лампы".to_owned(),
                verdict: MarkVerdict::Fail,
            }],
        };
        let marked = &summarise(&["p".to_owned()], &results, Some(&marks))[0];
        assert_eq!(
            marked.must_keep,
            FactCounts {
                kept: 1,
                lost: 2,
                unsure: 1,
                reviewed: 1
            }
        );
    }

    #[test]
    fn marks_of_another_run_or_in_another_shape_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_marks(dir.path(), "r").unwrap(), None);
        std::fs::write(dir.path().join(MARKS_FILE), r#"{"run":"x","marks":[]}"#).unwrap();
        assert!(read_marks(dir.path(), "r").is_err());
        std::fs::write(dir.path().join(MARKS_FILE), r#"{"run":"r","marks":[{}]}"#).unwrap();
        assert!(read_marks(dir.path(), "r").is_err());
        std::fs::write(dir.path().join(MARKS_FILE), r#"{"run":"r","marks":[]}"#).unwrap();
        assert_eq!(read_marks(dir.path(), "r").unwrap().unwrap().marks, []);
    }
}
