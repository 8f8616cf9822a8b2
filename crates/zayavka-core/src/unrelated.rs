//! Whether a model's draft is about the resident's problem at all (issue 31, ADR 35).
//!
//! The faithfulness checks (ADR 27) warn about what a draft adds and never withhold it: the
//! resident reads the warnings and decides. A draft that keeps none of the resident's facts is
//! not a request with a few words to check, it is a request about someone else's problem. A
//! small model on the resident's own computer does this: asked about a dirty wall, it gave back
//! the system prompt's worked example, a wet stain on a bathroom ceiling. Whether a result may
//! be shown is the program's decision, not the model's, so such a draft is rejected
//! (`unrelated_draft`), asked again once like malformed output (ADR 7), and then treated as
//! every other rejected answer.
//!
//! Two signs, each compared by Snowball stem as the faithfulness checks compare (ADR 27):
//!
//! - the problem field shares no word with anything the resident typed in the four fields —
//!   not a stem, not a related stem, not a plain-Russian synonym, not a number;
//! - the draft holds at least [`EXAMPLE_WORDS_MIN`] words of a released prompt's worked example
//!   (its message and its answer) that the resident did not use.
//!
//! Both are decided only for a resident's text mostly in Cyrillic letters: Russian stems say
//! nothing about a text in other letters, and a draft that cannot be judged is never refused.
//! The rule was measured on the corpus's faithful answers, none of which it refuses
//! (`crates/zayavka-core/tests/eval_corpus.rs`).

use std::collections::BTreeSet;
use std::sync::OnceLock;

use crate::faithfulness::{
    ResidentText, fold, is_formal, is_function_word, numbers_in, shown_words, stem, words,
};
use crate::finding::{Finding, FindingCode};
use crate::input::ResidentInput;
use crate::prompt::prompt_registry;
use crate::reply::ModelDraft;
use crate::text::is_cyrillic;

/// How many words of the prompt's example, absent from the resident's text, make a draft a
/// copy of the example. A faithful answer uses the resident's words and the request's formal
/// vocabulary: on the corpus none holds a single one, while the example given back holds at
/// least six even for a resident who wrote about a leaking roof over the top floor (the test
/// `the_example_threshold_has_a_margin_on_both_sides_of_the_corpus` holds both margins).
pub(crate) const EXAMPLE_WORDS_MIN: usize = 4;

/// The most example words a finding quotes.
const QUOTED_MAX: usize = 6;

/// What makes this draft a draft about another problem: nothing for a draft that is about the
/// resident's, or one that cannot be judged.
pub(crate) fn unrelated_findings(input: &ResidentInput, draft: &ModelDraft) -> Vec<Finding> {
    let resident = ResidentText::new(input);
    if !resident.russian {
        return Vec::new();
    }
    let mut findings = Vec::new();
    if let Some(problem) = draft.problem.as_deref()
        && shares_no_word(&resident, problem)
    {
        findings.push(Finding::new(
            "/problem",
            FindingCode::NoResidentWord,
            "В сути проблемы нет ни одного слова из текста жителя: описана другая проблема.",
        ));
    }
    let copied = example_words(&resident, draft);
    if copied.len() >= EXAMPLE_WORDS_MIN {
        let mut quoted: Vec<String> = copied
            .iter()
            .take(QUOTED_MAX)
            .map(|word| format!("«{word}»"))
            .collect();
        if copied.len() > QUOTED_MAX {
            quoted.push("…".to_owned());
        }
        findings.push(Finding::new(
            "",
            FindingCode::PromptExample,
            format!(
                "Ответ повторяет пример из инструкции модели, а не текст жителя: {} — у жителя \
                 этих слов нет.",
                quoted.join(", ")
            ),
        ));
    }
    findings
}

/// Whether the problem field has content words and none of them is the resident's.
fn shares_no_word(resident: &ResidentText, problem: &str) -> bool {
    let (content, kept) = problem_words(resident, problem);
    content > 0 && kept == 0
}

/// How many content words the problem field has, and how many of them are the resident's: a
/// stem the resident used or one related to it, a synonym of the resident's words, a number
/// the resident gave. Formal words («подъезд», «этаж», «помещение») count: a place the
/// resident named is a fact kept, and a draft that keeps only that is left to the warnings.
fn problem_words(resident: &ResidentText, problem: &str) -> (usize, usize) {
    let words = words(problem);
    let mut in_number = vec![false; words.len()];
    let (mut content, mut kept) = (0, 0);
    for number in numbers_in(&words) {
        for at in number.span.clone() {
            in_number[at] = true;
        }
        let known = if number.month {
            &resident.months
        } else {
            &resident.numbers
        };
        if let Some(value) = number.value {
            content += 1;
            kept += usize::from(known.contains(&value));
        }
    }
    for (at, word) in words.iter().enumerate() {
        if in_number[at] || is_function_word(word) {
            continue;
        }
        let word_stem = stem(word);
        if word_stem.chars().count() < 3 {
            continue;
        }
        content += 1;
        let residents = resident.words.contains(word)
            || resident.has_related(&word_stem)
            || resident.has_synonym(&word_stem);
        kept += usize::from(residents);
    }
    (content, kept)
}

/// The draft's words, as the model wrote them, whose stems are content words of a released
/// prompt's worked example and which the resident did not use (by stem, related stem or
/// synonym): one per stem, in the order of the draft's fields.
fn example_words(resident: &ResidentText, draft: &ModelDraft) -> Vec<String> {
    let fields = [
        &draft.title,
        &draft.problem,
        &draft.circumstances,
        &draft.impact,
        &draft.verification,
    ];
    let mut seen = BTreeSet::new();
    let mut copied = Vec::new();
    for text in fields.into_iter().flatten() {
        for shown in shown_words(text) {
            let word = fold(&shown);
            let Some(word_stem) = content_stem(&word) else {
                continue;
            };
            if example_stems().contains(&word_stem)
                && !resident.has_related(&word_stem)
                && !resident.has_synonym(&word_stem)
                && seen.insert(word_stem)
            {
                copied.push(shown);
            }
        }
    }
    copied
}

/// The stem of a folded word that carries content: Cyrillic letters only, not a function word,
/// not the request's formal vocabulary, and a stem of three letters or more.
fn content_stem(word: &str) -> Option<String> {
    if !word.chars().all(is_cyrillic) || is_function_word(word) {
        return None;
    }
    let word_stem = stem(word);
    (word_stem.chars().count() >= 3 && !is_formal(&word_stem)).then_some(word_stem)
}

/// The content stems of every released prompt's worked example, its message and its answer:
/// what a model that copies the example writes. Every prompt ever released counts, since a
/// draft may be made with any registered one.
fn example_stems() -> &'static BTreeSet<String> {
    static STEMS: OnceLock<BTreeSet<String>> = OnceLock::new();
    STEMS.get_or_init(|| {
        let mut stems = BTreeSet::new();
        for prompt in prompt_registry() {
            for block in [prompt.example_message(), prompt.example_answer()]
                .into_iter()
                .flatten()
            {
                let value: serde_json::Value =
                    serde_json::from_str(block).expect("a released prompt's example is JSON");
                let mut texts = Vec::new();
                strings_in(&value, &mut texts);
                for text in texts {
                    stems.extend(words(text).iter().filter_map(|w| content_stem(w)));
                }
            }
        }
        stems
    })
}

/// Every string value in a JSON value, depth first.
fn strings_in<'a>(value: &'a serde_json::Value, out: &mut Vec<&'a str>) {
    match value {
        serde_json::Value::String(text) => out.push(text),
        serde_json::Value::Array(items) => items.iter().for_each(|item| strings_in(item, out)),
        serde_json::Value::Object(fields) => fields.values().for_each(|item| strings_in(item, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::RawInput;
    use crate::reply::ModelOutcome;

    /// The resident's text of issue 31.
    const WALL: &str =
        "На стене в помещении общего пользования загрязнение. Повреждений стены не указано.";

    fn input(description: &str) -> ResidentInput {
        ResidentInput::parse(&RawInput {
            description: Some(description.to_owned()),
            ..RawInput::default()
        })
        .unwrap()
    }

    fn draft(title: &str, problem: &str, circumstances: Option<&str>) -> ModelDraft {
        ModelDraft {
            outcome: ModelOutcome::Draft,
            title: Some(title.to_owned()),
            problem: Some(problem.to_owned()),
            circumstances: circumstances.map(str::to_owned),
            impact: None,
            verification: None,
            subject: None,
            warnings: Vec::new(),
        }
    }

    /// The worked example's answer of the current prompt, as a draft.
    fn example() -> ModelDraft {
        serde_json::from_str(crate::prompt::system_prompt().example_answer().unwrap()).unwrap()
    }

    fn codes(findings: &[Finding]) -> Vec<FindingCode> {
        findings.iter().map(Finding::code).collect()
    }

    #[test]
    fn every_released_prompt_has_a_worked_example_the_check_knows() {
        for prompt in prompt_registry() {
            let message = prompt.example_message().expect(prompt.version);
            let answer = prompt.example_answer().expect(prompt.version);
            let message: serde_json::Value = serde_json::from_str(message).unwrap();
            assert!(message["description"].is_string(), "{}", prompt.version);
            let answer: ModelDraft = serde_json::from_str(answer).unwrap();
            assert_eq!(answer.outcome, ModelOutcome::Draft, "{}", prompt.version);
        }
        assert!(example_stems().len() >= 15, "{:?}", example_stems());
        for formal in ["этаж", "квартир", "источник"] {
            assert!(!example_stems().contains(formal), "{formal}");
        }
    }

    /// Regression (issue 31): the case that came back ready with the prompt's example.
    #[test]
    fn issue_31_the_prompts_example_given_back_for_a_dirty_wall_is_another_problem() {
        let findings = unrelated_findings(&input(WALL), &example());
        assert_eq!(
            codes(&findings),
            [FindingCode::NoResidentWord, FindingCode::PromptExample]
        );
        assert_eq!(findings[0].field(), "/problem");
        assert_eq!(
            findings[1].message(),
            "Ответ повторяет пример из инструкции модели, а не текст жителя: «Мокрое», «пятно», \
             «потолке», «ванной», «комнате», «держится», … — у жителя этих слов нет."
        );
    }

    #[test]
    fn the_example_cut_short_by_a_small_model_is_caught_too() {
        let parrot = ModelDraft {
            verification: Some("Источник протечки не установлен.".to_owned()),
            ..draft(
                "Мокрое пятно на потолке в ванной",
                "На потолке в ванной мокрое пятно.",
                Some("Пятно держится третью неделю."),
            )
        };
        assert_eq!(
            codes(&unrelated_findings(&input(WALL), &parrot)),
            [FindingCode::NoResidentWord, FindingCode::PromptExample]
        );
    }

    #[test]
    fn the_example_given_back_for_a_stain_like_it_is_caught_by_its_own_words() {
        // The resident's stain shares the problem's words with the example, so only the words
        // the resident never wrote (the bathroom, the third week, the roof) give it away.
        let stain = input(
            "На потолке в моей комнате появилось мокрое пятно, я живу на 5 этаже из 9. \
             Источник протечки неизвестен.",
        );
        assert_eq!(
            codes(&unrelated_findings(&stain, &example())),
            [FindingCode::PromptExample]
        );
        let faithful = ModelDraft {
            verification: Some("Источник протечки неизвестен, его нужно установить".to_owned()),
            ..draft(
                "Мокрое пятно на потолке в квартире 34",
                "На потолке в комнате появилось мокрое пятно",
                Some("Кв. 34, 5 этаж из 9"),
            )
        };
        assert_eq!(unrelated_findings(&stain, &faithful), []);
    }

    #[test]
    fn a_faithful_restatement_in_other_words_is_not_another_problem() {
        let dirty = input(WALL);
        for problem in [
            "На стене в помещении общего пользования загрязнение.",
            "Стена в общем помещении грязная.",
            "В помещении общего пользования грязь на стене.",
        ] {
            let faithful = draft("Загрязнение стены", problem, None);
            assert_eq!(unrelated_findings(&dirty, &faithful), [], "{problem}");
        }
        // A number the resident gave is a fact kept, whatever the words around it.
        let lift = input("Лифт в подъезде 2 стоит с 12 марта.");
        let faithful = draft("Лифт", "С 12 марта не работает", None);
        assert_eq!(unrelated_findings(&lift, &faithful), []);
    }

    #[test]
    fn a_problem_about_something_else_is_found_whatever_its_source() {
        let lift = input("Лифт в подъезде 2 не работает третью неделю.");
        let other = draft("Свет", "На лестнице не горит лампа.", None);
        let findings = unrelated_findings(&lift, &other);
        assert_eq!(codes(&findings), [FindingCode::NoResidentWord]);
        assert_eq!(
            findings[0].message(),
            "В сути проблемы нет ни одного слова из текста жителя: описана другая проблема."
        );
    }

    /// The corpus's cases that reach a model, each with its input and faithful answer.
    fn corpus() -> Vec<(String, ResidentInput, ModelDraft)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/eval");
        let mut files: Vec<_> = std::fs::read_dir(root.join("faithful"))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .collect();
        files.sort();
        files
            .into_iter()
            .map(|path| {
                let id = path.file_stem().unwrap().to_str().unwrap().to_owned();
                let case: serde_json::Value = serde_json::from_str(
                    &std::fs::read_to_string(root.join("cases").join(format!("{id}.json")))
                        .unwrap(),
                )
                .unwrap();
                let input = ResidentInput::from_json_str(&case["input"].to_string()).unwrap();
                let draft = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                (id, input, draft)
            })
            .collect()
    }

    /// The margin of [`EXAMPLE_WORDS_MIN`] on the corpus: the most example words a faithful
    /// answer holds by chance, and the fewest the example given back for any case holds.
    #[test]
    fn the_example_threshold_has_a_margin_on_both_sides_of_the_corpus() {
        let mut faithful_most = (0, String::new());
        let mut copied_fewest = (usize::MAX, String::new());
        let mut kept_fewest = (usize::MAX, String::new());
        for (id, input, draft) in corpus() {
            let resident = ResidentText::new(&input);
            if draft.outcome == ModelOutcome::Draft {
                let words = example_words(&resident, &draft);
                if words.len() > faithful_most.0 {
                    faithful_most = (words.len(), format!("{id}: {words:?}"));
                }
                let problem = draft.problem.as_deref().unwrap();
                let (content, kept) = problem_words(&resident, problem);
                if kept < kept_fewest.0 {
                    kept_fewest = (kept, format!("{id}: {kept} of {content} in «{problem}»"));
                }
            }
            for prompt in prompt_registry() {
                let example: ModelDraft =
                    serde_json::from_str(prompt.example_answer().unwrap()).unwrap();
                let words = example_words(&resident, &example);
                if words.len() < copied_fewest.0 {
                    copied_fewest = (words.len(), format!("{id}: {words:?}"));
                }
            }
        }
        eprintln!(
            "example words: at most {} in a faithful answer ({}), at least {} in the example \
             given back ({}); the threshold is {EXAMPLE_WORDS_MIN}",
            faithful_most.0, faithful_most.1, copied_fewest.0, copied_fewest.1
        );
        eprintln!(
            "the resident's words in a faithful problem field: at fewest {}",
            kept_fewest.1
        );
        assert!(kept_fewest.0 >= 1, "{kept_fewest:?}");
        assert!(
            faithful_most.0 + 2 <= EXAMPLE_WORDS_MIN,
            "{faithful_most:?}"
        );
        assert!(
            copied_fewest.0 >= EXAMPLE_WORDS_MIN + 2,
            "{copied_fewest:?}"
        );
    }

    #[test]
    fn a_text_in_other_letters_is_never_judged() {
        let english = input("The light on the stairs between floors 3 and 4 is broken.");
        assert_eq!(unrelated_findings(&english, &example()), []);
    }
}
