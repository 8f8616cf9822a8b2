//! The checks of one answer against its case: the hard expectations (outcome, subject,
//! subject_not, module, warning, item), the phrases that must not occur, each negated fact, the
//! core's expectation-free faithfulness checks, and each `must_keep` fact.
//!
//! A check that cannot decide says «unsure», never «pass»: a fact phrased differently, a negation
//! whose object the model did not name, a text the checks could not read.

use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};
use serde::Serialize;
use zayavka_core::{
    FaithfulnessCheck, ModelDraft, Outcome, ResidentInput, SubjectKind, Verdict, check_faithfulness,
};

use super::case::Expect;

/// The checks whose failure fails the answer's hard verdict and the command's exit code.
pub const HARD_CHECKS: [&str; 6] = [
    "outcome",
    "subject",
    "subject_not",
    "module_included",
    "warning_expected",
    "item",
];

/// The checks that flag content the resident did not give (counted as invented-content flags
/// in the summary). The content-word check is counted on its own: it is the noisiest.
pub const INVENTED_CONTENT_CHECKS: [&str; 6] = [
    "must_not_contain",
    "negations",
    "faithfulness.numbers",
    "faithfulness.cause_and_repair",
    "faithfulness.groups",
    "faithfulness.negations",
];

/// The check of new content words (by stem).
pub const CONTENT_WORDS_CHECK: &str = "faithfulness.content_words";

/// One check's verdict on one answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckResult {
    /// The check's stable name.
    pub check: &'static str,
    /// Pass, fail or unsure.
    pub verdict: Verdict,
    /// What it found, in Russian; `None` when there is nothing to say.
    pub detail: Option<String>,
}

/// One `must_keep` fact's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FactResult {
    /// The fact as the case gives it.
    pub fact: String,
    /// Pass only when the words are there; fail when none is; unsure otherwise, for a reviewer.
    pub verdict: Verdict,
    /// Why, in Russian.
    pub detail: String,
}

/// Everything the checks say about one answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// Every check that applies, in a fixed order.
    pub checks: Vec<CheckResult>,
    /// The `must_keep` facts.
    pub must_keep: Vec<FactResult>,
}

impl Checked {
    /// Whether every hard check held.
    pub fn hard_passed(&self) -> bool {
        self.checks
            .iter()
            .filter(|check| HARD_CHECKS.contains(&check.check))
            .all(|check| check.verdict != Verdict::Fail)
    }
}

fn result(check: &'static str, passed: bool, detail: Option<String>) -> CheckResult {
    CheckResult {
        check,
        verdict: if passed { Verdict::Pass } else { Verdict::Fail },
        detail: if passed { None } else { detail },
    }
}

fn subject_name(subject: Option<SubjectKind>) -> String {
    subject.map_or_else(|| "без предмета".to_owned(), |kind| kind.code().to_owned())
}

/// The model's own text: its title and descriptive fields, each a line.
pub fn model_text(draft: &ModelDraft) -> String {
    [
        &draft.title,
        &draft.problem,
        &draft.circumstances,
        &draft.impact,
        &draft.verification,
    ]
    .into_iter()
    .flatten()
    .map(String::as_str)
    .collect::<Vec<_>>()
    .join("\n")
}

/// Runs every check that applies. `draft` is the model's decoded answer, when it could be
/// decoded; `outcome` is what the pipeline made of it.
pub fn check_answer(
    expect: &Expect,
    input: Option<&ResidentInput>,
    draft: Option<&ModelDraft>,
    outcome: &Outcome,
) -> Checked {
    let mut checks = Vec::new();
    let request = outcome.request();
    let no_request = || {
        Some(format!(
            "заявка не составлена (исход {})",
            outcome_text(outcome)
        ))
    };
    if let Some(expected) = &expect.outcome {
        checks.push(result(
            "outcome",
            outcome.kind().code() == expected,
            Some(format!(
                "ожидался исход {expected}, получен {}",
                outcome_text(outcome)
            )),
        ));
    }
    let model_subject = draft.and_then(|d| d.subject.as_ref()).map(|s| s.kind);
    if let Some(expected) = expect.subject {
        checks.push(result(
            "subject",
            model_subject == expected,
            Some(format!(
                "ожидалось: {}, модель выбрала: {}",
                subject_name(expected),
                subject_name(model_subject)
            )),
        ));
    }
    if let Some(not) = &expect.subject_not {
        checks.push(result(
            "subject_not",
            model_subject.is_none_or(|kind| !not.contains(&kind)),
            Some(format!(
                "модель выбрала похожий предмет {}",
                subject_name(model_subject)
            )),
        ));
    }
    if let Some(included) = expect.module_included {
        checks.push(match request {
            Some(request) => result(
                "module_included",
                request.subject_module().is_some() == included,
                Some(if included {
                    "правовой абзац предмета не добавлен".to_owned()
                } else {
                    "правовой абзац предмета добавлен, хотя не должен".to_owned()
                }),
            ),
            None => result("module_included", false, no_request()),
        });
    }
    if let Some(warned) = expect.warning_expected {
        checks.push(match request {
            Some(request) => result(
                "warning_expected",
                request.warnings().is_empty() != warned,
                Some(if warned {
                    "предупреждения нет, а оно ожидалось".to_owned()
                } else {
                    format!(
                        "неожиданное предупреждение: {}",
                        request.warnings().join(" / ")
                    )
                }),
            ),
            None => result("warning_expected", false, no_request()),
        });
    }
    if let Some(Some(item)) = &expect.item {
        checks.push(match request {
            Some(request) => result(
                "item",
                request.item().text() == item,
                Some(format!(
                    "пункт «Прошу:» — «{}», а ожидался «{item}»",
                    request.item().text()
                )),
            ),
            None => result("item", false, no_request()),
        });
    }
    let text = draft.map(model_text);
    if let Some(phrases) = &expect.must_not_contain {
        checks.push(match &text {
            Some(text) => {
                let folded = fold(text);
                let found: Vec<String> = phrases
                    .iter()
                    .filter(|phrase| folded.contains(&fold(phrase)))
                    .map(|phrase| format!("«{phrase}»"))
                    .collect();
                result(
                    "must_not_contain",
                    found.is_empty(),
                    Some(format!("в тексте модели есть {}", found.join(", "))),
                )
            }
            None => no_text("must_not_contain"),
        });
    }
    if let Some(negations) = &expect.negations {
        checks.push(match &text {
            Some(text) => negations_check(negations, text),
            None => no_text("negations"),
        });
    }
    let report = match (input, draft) {
        (Some(input), Some(draft)) => Some(check_faithfulness(input, draft)),
        _ => None,
    };
    for check in FaithfulnessCheck::ALL.iter().copied() {
        let name = faithfulness_name(check);
        checks.push(match &report {
            Some(report) => {
                let messages: Vec<&str> = report
                    .findings()
                    .iter()
                    .filter(|finding| finding.kind().check() == check)
                    .map(|finding| finding.message())
                    .collect();
                CheckResult {
                    check: name,
                    verdict: report.verdict(check),
                    detail: (!messages.is_empty()).then(|| messages.join(" ")),
                }
            }
            None => no_text(name),
        });
    }
    let must_keep = expect
        .must_keep
        .iter()
        .flatten()
        .map(|fact| match &text {
            Some(text) => fact_check(fact, text),
            None => FactResult {
                fact: fact.clone(),
                verdict: Verdict::Fail,
                detail: "модель не написала описания".to_owned(),
            },
        })
        .collect();
    Checked { checks, must_keep }
}

fn outcome_text(outcome: &Outcome) -> String {
    match outcome.reason() {
        Some(reason) => format!("{} ({reason})", outcome.kind().code()),
        None => outcome.kind().code().to_owned(),
    }
}

/// A check of the model's text when there is none (a failure, a refused input, an answer that
/// could not be read): nothing to judge, so the check cannot say it passed.
fn no_text(check: &'static str) -> CheckResult {
    CheckResult {
        check,
        verdict: Verdict::Unsure,
        detail: Some("нет текста модели, проверять нечего".to_owned()),
    }
}

fn faithfulness_name(check: FaithfulnessCheck) -> &'static str {
    match check {
        FaithfulnessCheck::Numbers => "faithfulness.numbers",
        FaithfulnessCheck::CauseAndRepair => "faithfulness.cause_and_repair",
        FaithfulnessCheck::Groups => "faithfulness.groups",
        FaithfulnessCheck::Negations => "faithfulness.negations",
        FaithfulnessCheck::ContentWords => CONTENT_WORDS_CHECK,
    }
}

/// Lower case with «ё» as «е», so that a phrase matches however it was capitalised or spelled.
pub fn fold(text: &str) -> String {
    text.to_lowercase().replace('ё', "е")
}

fn stemmer() -> &'static Stemmer {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    STEMMER.get_or_init(|| Stemmer::create(Algorithm::Russian))
}

/// The words of a text, folded.
fn words(text: &str) -> Vec<String> {
    fold(text)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_owned)
        .collect()
}

fn stem(word: &str) -> String {
    stemmer().stem(word).into_owned()
}

/// Whether two words are forms of one word: the same stem, or one stem the start of the
/// other's of at least four letters («неизвестен» and «неизвестно»).
fn same_word(a: &str, b: &str) -> bool {
    if a.chars().all(|c| c.is_ascii_digit()) || b.chars().all(|c| c.is_ascii_digit()) {
        return a == b;
    }
    let (sa, sb) = (stem(a), stem(b));
    if sa == sb {
        return true;
    }
    let shorter = sa.chars().count().min(sb.chars().count());
    shorter >= 4 && (sa.starts_with(&sb) || sb.starts_with(&sa))
}

/// Whether `a` is `b` with the negating prefix «не» added or taken away («исправны» and
/// «неисправны»).
fn prefix_flipped(a: &str, b: &str) -> bool {
    let without = |word: &str| {
        word.strip_prefix("не")
            .filter(|rest| rest.chars().count() >= 4)
            .map(str::to_owned)
    };
    without(a).is_some_and(|rest| same_word(&rest, b))
        || without(b).is_some_and(|rest| same_word(a, &rest))
}

/// Words that negate what stands near them.
fn is_negation(word: &str) -> bool {
    matches!(word, "не" | "нет" | "ни" | "без" | "нету") || word.starts_with("отсутств")
}

/// Words too common to tell a fact by.
fn is_filler(word: &str) -> bool {
    const FILLERS: [&str; 24] = [
        "пока",
        "уже",
        "еще",
        "сам",
        "сама",
        "само",
        "сами",
        "очень",
        "тоже",
        "было",
        "была",
        "был",
        "были",
        "есть",
        "это",
        "его",
        "ее",
        "их",
        "так",
        "как",
        "там",
        "тут",
        "все",
        "для",
    ];
    FILLERS.contains(&word)
}

/// The words of a phrase that tell its fact: numbers, and words of three letters or more that
/// are neither negations nor fillers.
fn content_words(phrase: &str) -> Vec<String> {
    words(phrase)
        .into_iter()
        .filter(|word| {
            word.chars().all(|c| c.is_ascii_digit())
                || (word.chars().count() >= 3 && !is_negation(word) && !is_filler(word))
        })
        .collect()
}

/// The sentences of the model's text: each field is a line, and a line splits at `.`, `!`,
/// `?` and `;`.
fn sentences(text: &str) -> Vec<&str> {
    text.split(['\n', '.', '!', '?', ';'])
        .map(str::trim)
        .filter(|sentence| !sentence.is_empty())
        .collect()
}

/// A fact is kept when its phrase is in the model's text, or all its content words are in one
/// sentence; it is lost when none of them is anywhere; anything between is for a reviewer.
fn fact_check(fact: &str, text: &str) -> FactResult {
    let folded_fact = fold(fact.trim());
    let verdict = |verdict, detail: &str| FactResult {
        fact: fact.to_owned(),
        verdict,
        detail: detail.to_owned(),
    };
    if fold(text).contains(&folded_fact) {
        return verdict(Verdict::Pass, "есть дословно");
    }
    let wanted = content_words(fact);
    if wanted.is_empty() {
        return verdict(
            Verdict::Unsure,
            "дословно нет, а по словам проверка судить не может",
        );
    }
    let in_sentence = sentences(text).into_iter().any(|sentence| {
        let have = words(sentence);
        wanted
            .iter()
            .all(|word| have.iter().any(|h| same_word(word, h)))
    });
    if in_sentence {
        return verdict(Verdict::Pass, "все слова факта есть в одном предложении");
    }
    let all_words = words(text);
    let present: Vec<&String> = wanted
        .iter()
        .filter(|word| all_words.iter().any(|h| same_word(word, h)))
        .collect();
    if present.is_empty() {
        verdict(Verdict::Fail, "ни одного слова факта нет в тексте модели")
    } else {
        let missing: Vec<String> = wanted
            .iter()
            .filter(|word| !present.contains(word))
            .map(|word| format!("«{word}»"))
            .collect();
        FactResult {
            fact: fact.to_owned(),
            verdict: Verdict::Unsure,
            detail: format!(
                "нет слов {} — возможно, сказано иначе; решает проверяющий",
                missing.join(", ")
            ),
        }
    }
}

/// How a sentence states a negated fact: with the same polarity, with the opposite one, or not
/// at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mention {
    Same,
    Opposite,
}

/// The words either side of a fact's words that a negation may stand in.
const NEGATION_WINDOW: usize = 3;

fn mention(phrase: &str, sentence: &str) -> Option<Mention> {
    let phrase_words = words(phrase);
    let negated = phrase_words.iter().any(|word| is_negation(word));
    let wanted = content_words(phrase);
    if wanted.is_empty() {
        return None;
    }
    let have = words(sentence);
    let mut positions = Vec::new();
    let mut flips = 0;
    for word in &wanted {
        if let Some(at) = have.iter().position(|h| same_word(word, h)) {
            positions.push(at);
        } else if let Some(at) = have.iter().position(|h| prefix_flipped(word, h)) {
            positions.push(at);
            flips += 1;
        }
    }
    // A long phrase may lose a word in a restatement («лифт работает нормально» → «лифт
    // работает»); a short one must keep every word to count as a mention.
    let needed = if wanted.len() <= 2 {
        wanted.len()
    } else {
        wanted.len() - 1
    };
    if positions.len() < needed {
        return None;
    }
    let first = positions.iter().min().copied().unwrap_or(0);
    let last = positions.iter().max().copied().unwrap_or(0);
    let window = first.saturating_sub(NEGATION_WINDOW)..=(last + NEGATION_WINDOW);
    let sentence_negated = have
        .iter()
        .enumerate()
        .any(|(at, word)| window.contains(&at) && is_negation(word));
    let stated_negated = sentence_negated != (flips % 2 == 1);
    if stated_negated == negated {
        Some(Mention::Same)
    } else if positions.len() < wanted.len() {
        // A clause that names only part of the fact may be about something else: «не
        // открывает входную дверь» does not gainsay «входная дверь в порядке» (issue 36).
        None
    } else {
        Some(Mention::Opposite)
    }
}

/// Each negated fact of the case stays negated: the negation and its object in one sentence.
fn negations_check(negations: &[String], text: &str) -> CheckResult {
    // A negation belongs to its clause: «давно не убирали, лифт работает» does not negate the
    // lift.
    let sentences: Vec<&str> = sentences(text)
        .into_iter()
        .flat_map(|sentence| sentence.split([',', ':', '—', '–']))
        .map(str::trim)
        .filter(|clause| !clause.is_empty())
        .collect();
    let mut flipped = Vec::new();
    let mut unseen = Vec::new();
    for phrase in negations {
        let mentions: Vec<(Mention, &str)> = sentences
            .iter()
            .filter_map(|sentence| mention(phrase, sentence).map(|m| (m, *sentence)))
            .collect();
        if let Some((_, sentence)) = mentions.iter().find(|(m, _)| *m == Mention::Opposite) {
            flipped.push(format!("«{phrase}» сказано наоборот: «{sentence}»"));
        } else if mentions.is_empty() {
            unseen.push(format!("«{phrase}»"));
        }
    }
    if !flipped.is_empty() {
        return CheckResult {
            check: "negations",
            verdict: Verdict::Fail,
            detail: Some(flipped.join("; ")),
        };
    }
    if !unseen.is_empty() {
        return CheckResult {
            check: "negations",
            verdict: Verdict::Unsure,
            detail: Some(format!(
                "в тексте модели не найдено {} — проверьте, сохранено ли отрицание",
                unseen.join(", ")
            )),
        };
    }
    CheckResult {
        check: "negations",
        verdict: Verdict::Pass,
        detail: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 36: a clause that shares only some of a fact's words with a negation near them is
    /// not the fact said the other way; the whole fact negated still is.
    #[test]
    fn issue_36_a_partial_mention_never_flips_a_fact() {
        let facts = vec!["входная дверь в порядке".to_owned()];
        let kept = negations_check(
            &facts,
            "Домофон в квартире 5 не открывает входную дверь подъезда 1. Сама входная дверь в \
             порядке.",
        );
        assert_eq!(kept.verdict, Verdict::Pass, "{kept:?}");
        let flipped = negations_check(&facts, "Входная дверь не в порядке.");
        assert_eq!(flipped.verdict, Verdict::Fail, "{flipped:?}");
    }

    #[test]
    fn a_kept_negation_passes_and_a_flipped_one_fails() {
        let negations = vec!["петли исправны".to_owned(), "лифт не сломан".to_owned()];
        let kept = negations_check(
            &negations,
            "Петли двери исправны, ручка отсутствует\nЛифт при этом не сломан",
        );
        assert_eq!(kept.verdict, Verdict::Pass, "{kept:?}");
        let flipped = negations_check(&negations, "Петли двери неисправны\nЛифт не сломан");
        assert_eq!(flipped.verdict, Verdict::Fail, "{flipped:?}");
        let lost_not = negations_check(&negations, "Петли исправны\nЛифт сломан");
        assert_eq!(lost_not.verdict, Verdict::Fail, "{lost_not:?}");
        let unseen = negations_check(&negations, "Ручка двери отсутствует");
        assert_eq!(unseen.verdict, Verdict::Unsure, "{unseen:?}");
    }

    #[test]
    fn a_negation_in_another_clause_far_away_does_not_flip_a_fact() {
        let check = negations_check(
            &["лифт работает нормально".to_owned()],
            "На площадке первого этажа грязно и давно не убирали, лифт работает нормально",
        );
        assert_eq!(check.verdict, Verdict::Pass, "{check:?}");
        let unknown = negations_check(
            &["источник протечки неизвестен".to_owned()],
            "Источник протечки неизвестен",
        );
        assert_eq!(unknown.verdict, Verdict::Pass, "{unknown:?}");
        let known = negations_check(
            &["источник протечки неизвестен".to_owned()],
            "Источник протечки известен: крыша",
        );
        assert_eq!(known.verdict, Verdict::Fail, "{known:?}");
    }

    #[test]
    fn a_fact_passes_only_when_its_words_are_there_and_fails_only_when_none_is() {
        let text = "На лестнице не горят все лампы\nВчера вечером заявитель чуть не упала";
        assert_eq!(fact_check("все лампы", text).verdict, Verdict::Pass);
        assert_eq!(fact_check("вчера вечером", text).verdict, Verdict::Pass);
        assert_eq!(fact_check("лампы на лестнице", text).verdict, Verdict::Pass);
        assert_eq!(fact_check("третью неделю", text).verdict, Verdict::Fail);
        let partial = fact_check("лампы в лифте", text);
        assert_eq!(partial.verdict, Verdict::Unsure, "{partial:?}");
        assert_eq!(fact_check("ещё", text).verdict, Verdict::Unsure);
    }

    /// A corpus case's checks on its faithful answer, changed by `change`.
    fn checked(case: &str, change: impl FnOnce(&mut serde_json::Value)) -> Checked {
        let eval = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/eval");
        let case = super::super::case::load_cases(&eval.join("cases"), &[case.to_owned()])
            .unwrap()
            .remove(0);
        let text =
            std::fs::read_to_string(eval.join(format!("faithful/{}.json", case.id))).unwrap();
        let mut answer: serde_json::Value = serde_json::from_str(&text).unwrap();
        change(&mut answer);
        let reply = zayavka_core::ModelReply {
            content: Some(answer.to_string()),
            refusal: None,
            finish_reason: Some("stop".to_owned()),
        };
        let input = case.checked_input().unwrap();
        let schema = zayavka_core::request_draft_schema();
        let outcome =
            zayavka_core::evaluate_reply(&input, &reply, schema, zayavka_core::legal_catalogue());
        let draft = zayavka_core::decode_reply(&reply, schema).ok();
        check_answer(&case.expect, Some(&input), draft.as_ref(), &outcome)
    }

    fn verdict_of(checked: &Checked, name: &str) -> Verdict {
        checked
            .checks
            .iter()
            .find(|check| check.check == name)
            .unwrap_or_else(|| panic!("no {name} in {checked:?}"))
            .verdict
    }

    fn append(answer: &mut serde_json::Value, field: &str, sentence: &str) {
        answer[field] = match answer[field].as_str() {
            Some(text) => format!("{text}. {sentence}").into(),
            None => sentence.into(),
        };
    }

    #[test]
    fn each_check_passes_on_a_faithful_answer_and_fails_on_one_built_to_break_it() {
        type Change = fn(&mut serde_json::Value);
        let broken: [(&str, &str, Change); 7] = [
            (
                "unknown-leak-source",
                "faithfulness.cause_and_repair",
                |a| append(a, "problem", "Это происходит из-за износа кровли"),
            ),
            ("negation-hinges-ok-handle-missing", "negations", |a| {
                let problem = a["problem"]
                    .as_str()
                    .unwrap()
                    .replace("исправны", "неисправны");
                a["problem"] = problem.into();
            }),
            ("emotional-dark-stairs-fear", "faithfulness.numbers", |a| {
                append(a, "circumstances", "Так продолжается 17 дней")
            }),
            ("group-only-me-scared", "faithfulness.groups", |a| {
                append(a, "impact", "Жильцам страшно")
            }),
            ("lookalike-lift-cabin-dirty", "subject", |a| {
                a["subject"]["kind"] = "common_area_elevator".into()
            }),
            ("lookalike-lift-cabin-dirty", "subject_not", |a| {
                a["subject"]["kind"] = "common_area_elevator".into()
            }),
            ("emotional-dark-stairs-fear", "must_not_contain", |a| {
                append(a, "impact", "Это просто ужас")
            }),
        ];
        for (case, check, change) in broken {
            let faithful = checked(case, |_| {});
            assert_eq!(
                verdict_of(&faithful, check),
                Verdict::Pass,
                "{case}: {check}"
            );
            assert!(faithful.hard_passed(), "{case}: {faithful:?}");
            let broken = checked(case, change);
            assert_eq!(verdict_of(&broken, check), Verdict::Fail, "{case}: {check}");
        }
        let wrong_subject = checked("lookalike-lift-cabin-dirty", |a| {
            a["subject"]["kind"] = "common_area_elevator".into()
        });
        assert!(!wrong_subject.hard_passed());
        // A lost fact: the impact that held «чуть не упала» and «вчера вечером» is gone.
        let faithful = checked("emotional-dark-stairs-fear", |_| {});
        assert!(
            faithful
                .must_keep
                .iter()
                .all(|f| f.verdict == Verdict::Pass)
        );
        let lost = checked("emotional-dark-stairs-fear", |a| {
            a["impact"] = serde_json::Value::Null
        });
        let verdicts: Vec<Verdict> = lost.must_keep.iter().map(|f| f.verdict).collect();
        assert_eq!(verdicts, [Verdict::Pass, Verdict::Fail, Verdict::Fail]);
    }

    #[test]
    fn without_model_text_the_text_checks_are_unsure_never_pass() {
        let checked = checked("lookalike-lift-cabin-dirty", |a| {
            *a = serde_json::Value::String("не JSON".to_owned())
        });
        for check in &checked.checks {
            if !HARD_CHECKS.contains(&check.check) {
                assert_eq!(check.verdict, Verdict::Unsure, "{check:?}");
            }
        }
        assert!(
            !checked.hard_passed(),
            "a rejected answer fails the outcome"
        );
    }
}
