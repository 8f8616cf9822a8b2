//! The evaluation corpus of issue 17, checked as data: `tests/eval/cases/` (one case per file,
//! in the format `tests/eval/README.md` gives as a contract) and `tests/eval/faithful/` (a
//! faithful model answer for every case that reaches the model).
//!
//! Three things are held here: the case files follow the format strictly and their inputs keep
//! the input contract; each faithful answer, run through the real pipeline, meets its case's
//! hard expectations; and the expectation-free faithfulness checks raise few false alarms on
//! those faithful answers — the rate is printed, and held under a threshold.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;
use zayavka_core::{
    FaithfulnessCheck, GENERIC_ITEM, ModelDraft, ModelOutcome, ModelReply, Outcome, ResidentInput,
    SubjectKind, Verdict, check_faithfulness, evaluate_reply, legal_catalogue, prompt_registry,
    request_draft_schema, request_item, semantic_findings,
};

/// The fewest cases the corpus may hold (issue 17).
const MIN_CASES: usize = 60;

/// The outcome kinds of the core's `Outcome::kind`.
const OUTCOME_KINDS: [&str; 5] = ["ready", "needs_user", "rejected", "failed", "invalid_input"];

/// The most faithful answers, in percent, that may raise a certain finding. A warning the
/// resident learns to ignore protects nobody: with one false alarm in twenty drafts a resident
/// who sees a warning still has good reason to read it.
const MAX_FALSE_ALARM_PERCENT: f64 = 5.0;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    id: String,
    input: Value,
    expect: Expect,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    outcome: Option<String>,
    #[serde(default, deserialize_with = "present")]
    subject: Option<Option<String>>,
    subject_not: Option<Vec<String>>,
    module_included: Option<bool>,
    warning_expected: Option<bool>,
    #[serde(default, deserialize_with = "present")]
    item: Option<Option<String>>,
    must_keep: Option<Vec<String>>,
    must_not_contain: Option<Vec<String>>,
    negations: Option<Vec<String>>,
    notes: Option<String>,
}

/// Tells an explicit `null` (expect no value) from an absent key (do not check).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

fn eval_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/eval")
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    for file in &files {
        assert_eq!(
            file.extension().and_then(|e| e.to_str()),
            Some("json"),
            "{}: only .json files belong here",
            file.display()
        );
    }
    files
}

fn stem_of(path: &Path) -> String {
    path.file_stem().unwrap().to_str().unwrap().to_owned()
}

/// Every case, by id, checked against the format.
fn cases() -> BTreeMap<String, Case> {
    let mut cases = BTreeMap::new();
    for path in json_files(&eval_dir().join("cases")) {
        let text = std::fs::read_to_string(&path).unwrap();
        let case: Case = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not a case: {e}", path.display()));
        assert_eq!(
            case.id,
            stem_of(&path),
            "{}: the id is the file name",
            path.display()
        );
        assert!(
            case.id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{}: an id is lower-case ASCII words joined by hyphens",
            case.id
        );
        let previous = cases.insert(case.id.clone(), case);
        assert!(previous.is_none(), "{}: id given twice", stem_of(&path));
    }
    cases
}

fn subject(id: &str, name: &str) -> SubjectKind {
    name.parse()
        .unwrap_or_else(|_| panic!("{id}: `{name}` is not a subject kind of the core"))
}

#[test]
fn every_case_follows_the_format_and_its_input_keeps_the_contract() {
    let cases = cases();
    assert!(
        cases.len() >= MIN_CASES,
        "the corpus holds {} cases, fewer than {MIN_CASES}",
        cases.len()
    );
    for (id, case) in &cases {
        let expect = &case.expect;
        let object = case
            .input
            .as_object()
            .unwrap_or_else(|| panic!("{id}: input is an object"));
        for key in object.keys() {
            assert!(
                [
                    "description",
                    "location",
                    "consequences",
                    "desired_actions",
                    "confirmed_subject"
                ]
                .contains(&key.as_str()),
                "{id}: unknown input key `{key}`"
            );
        }
        if let Some(outcome) = &expect.outcome {
            assert!(
                OUTCOME_KINDS.contains(&outcome.as_str()),
                "{id}: outcome `{outcome}`"
            );
        }
        if let Some(Some(name)) = &expect.subject {
            subject(id, name);
        }
        for name in expect.subject_not.iter().flatten() {
            subject(id, name);
        }
        if let (Some(Some(name)), Some(not)) = (&expect.subject, &expect.subject_not) {
            assert!(!not.contains(name), "{id}: subject and subject_not agree");
        }
        for phrase in [
            &expect.must_keep,
            &expect.must_not_contain,
            &expect.negations,
        ]
        .into_iter()
        .flatten()
        .flatten()
        {
            assert!(!phrase.trim().is_empty(), "{id}: an empty phrase");
        }
        if let Some(notes) = &expect.notes {
            assert!(!notes.trim().is_empty(), "{id}: empty notes");
        }
        let parsed = ResidentInput::from_json_str(&case.input.to_string());
        if expect.outcome.as_deref() == Some("invalid_input") {
            assert!(parsed.is_err(), "{id}: the input was meant to be refused");
            continue;
        }
        let input = parsed.unwrap_or_else(|e| panic!("{id}: input refused: {e:?}"));
        if expect.module_included == Some(true) {
            assert_eq!(
                expect.subject.clone().flatten(),
                input.confirmed_subject().map(|k| k.code().to_owned()),
                "{id}: a module is included only for the subject the resident confirmed"
            );
        }
        if let Some(Some(item)) = &expect.item {
            match input.desired_actions() {
                None => assert_eq!(item, GENERIC_ITEM, "{id}: no request, the generic item"),
                Some(desired) => {
                    assert_eq!(item, &request_item(Some(desired)), "{id}: the item")
                }
            }
        }
    }
}

/// Every case that reaches a model has a faithful answer, and every faithful answer a case.
#[test]
fn every_case_has_a_faithful_answer_that_meets_its_expectations() {
    let cases = cases();
    let answers = faithful_answers();
    let reaching: BTreeSet<&String> = cases
        .iter()
        .filter(|(_, c)| c.expect.outcome.as_deref() != Some("invalid_input"))
        .map(|(id, _)| id)
        .collect();
    let answered: BTreeSet<&String> = answers.keys().collect();
    assert_eq!(reaching, answered, "faithful answers and cases differ");

    for (id, (text, draft)) in &answers {
        let case = &cases[id];
        let expect = &case.expect;
        let input = ResidentInput::from_json_str(&case.input.to_string()).unwrap();
        assert_eq!(
            semantic_findings(draft),
            [],
            "{id}: the faithful answer breaks a rule"
        );
        let reply = ModelReply {
            content: Some(text.clone()),
            refusal: None,
            finish_reason: Some("stop".to_owned()),
        };
        let outcome = evaluate_reply(&input, &reply, request_draft_schema(), legal_catalogue());
        if let Some(kind) = &expect.outcome {
            assert_eq!(outcome.kind().code(), kind, "{id}: {outcome:?}");
        }
        let model_subject = draft.subject.as_ref().map(|s| s.kind.code().to_owned());
        if let Some(subject) = &expect.subject {
            assert_eq!(&model_subject, subject, "{id}: the answer's subject");
        }
        if let Some(not) = &expect.subject_not {
            assert!(
                model_subject.as_ref().is_none_or(|s| !not.contains(s)),
                "{id}: a look-alike subject"
            );
        }
        let Outcome::Ready(request) = &outcome else {
            continue;
        };
        if let Some(included) = expect.module_included {
            assert_eq!(
                request.subject_module().is_some(),
                included,
                "{id}: the module"
            );
        }
        if let Some(warned) = expect.warning_expected {
            assert_eq!(!request.warnings().is_empty(), warned, "{id}: warnings");
        }
        // The «Прошу» decision of tests/eval/README.md, which the core follows.
        if let Some(Some(item)) = &expect.item {
            assert_eq!(request.item().text(), item, "{id}: the «Прошу:» item");
        }
        let described: String = request
            .sections()
            .iter()
            .filter(|s| s.module().is_none())
            .map(|s| s.text().to_lowercase())
            .collect::<Vec<_>>()
            .join("\n");
        for phrase in expect.must_not_contain.iter().flatten() {
            assert!(
                !described.contains(&phrase.to_lowercase()),
                "{id}: the description holds «{phrase}»"
            );
        }
    }
}

fn faithful_answers() -> BTreeMap<String, (String, ModelDraft)> {
    answers_in("faithful")
}

/// The answers of one folder of `tests/eval/`, by the id of the case each answers.
fn answers_in(folder: &str) -> BTreeMap<String, (String, ModelDraft)> {
    json_files(&eval_dir().join(folder))
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let draft: ModelDraft = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{}: not a draft: {e}", path.display()));
            (stem_of(&path), (text, draft))
        })
        .collect()
}

/// The false-alarm rate of the expectation-free checks on the corpus's faithful answers.
#[test]
fn faithful_answers_raise_few_false_alarms() {
    let cases = cases();
    let mut drafts = 0;
    let mut flagged = Vec::new();
    let mut unsure = Vec::new();
    let mut per_check: BTreeMap<&str, usize> = BTreeMap::new();
    for (id, (_, draft)) in faithful_answers() {
        if draft.outcome != ModelOutcome::Draft {
            continue;
        }
        drafts += 1;
        let input = ResidentInput::from_json_str(&cases[&id].input.to_string()).unwrap();
        let report = check_faithfulness(&input, &draft);
        for check in FaithfulnessCheck::ALL {
            if report.verdict(*check) == Verdict::Fail {
                *per_check.entry(check.code()).or_default() += 1;
            }
        }
        let failed = FaithfulnessCheck::ALL
            .iter()
            .any(|check| report.verdict(*check) == Verdict::Fail);
        if failed {
            let found: Vec<String> = report
                .findings()
                .iter()
                .map(|f| format!("{} {:?} in {}", f.kind(), f.words(), f.field()))
                .collect();
            flagged.push(format!("{id}: {}", found.join("; ")));
        } else if !report.is_clean() {
            unsure.push(id);
        }
    }
    let rate = 100.0 * flagged.len() as f64 / drafts as f64;
    // The `heldout-` cases were written after the lists were tuned on the others; their rate
    // is the better guess for answers nobody has seen (tests/eval/README.md).
    let heldout_drafts = faithful_answers()
        .iter()
        .filter(|(id, (_, d))| id.starts_with("heldout-") && d.outcome == ModelOutcome::Draft)
        .count();
    let heldout_flagged = flagged.iter().filter(|l| l.starts_with("heldout-")).count();
    eprintln!("held-out cases: {heldout_flagged} of {heldout_drafts} faithful drafts flagged");
    eprintln!(
        "faithfulness false alarms: {} of {drafts} faithful drafts ({rate:.1} %), \
         {} unsure only; by check: {per_check:?}",
        flagged.len(),
        unsure.len()
    );
    for line in &flagged {
        eprintln!("  {line}");
    }
    assert!(
        rate <= MAX_FALSE_ALARM_PERCENT,
        "false-alarm rate {rate:.1} % is over {MAX_FALSE_ALARM_PERCENT} %:\n{}",
        flagged.join("\n")
    );
}

/// Each faithful draft, broken on purpose in the ways issue 17 names, is caught every time:
/// the false-alarm rate above means little unless the same checks still find what is invented.
#[test]
fn faithful_answers_broken_on_purpose_are_caught() {
    type Field = fn(&mut ModelDraft) -> &mut Option<String>;
    let mutations: [(&str, &str, Field, FaithfulnessCheck, &[&str]); 6] = [
        (
            "invented fact",
            "Соседка упала на лестнице.",
            |d| &mut d.problem,
            FaithfulnessCheck::Groups,
            &["соседк"],
        ),
        (
            "widened group",
            "Жильцам страшно.",
            |d| &mut d.impact,
            FaithfulnessCheck::Groups,
            &["жильц", "жител"],
        ),
        (
            "new number",
            "Так продолжается 17 дней.",
            |d| &mut d.circumstances,
            FaithfulnessCheck::Numbers,
            &["17"],
        ),
        (
            "invented cause",
            "Это происходит из-за протечки кровли.",
            |d| &mut d.problem,
            FaithfulnessCheck::CauseAndRepair,
            &["протеч", "протека", "теч"],
        ),
        (
            "repair method",
            "Нужно заварить раму.",
            |d| &mut d.verification,
            FaithfulnessCheck::CauseAndRepair,
            &["завар", "сварк"],
        ),
        (
            "invented event",
            "Вчера там упал ребёнок.",
            |d| &mut d.impact,
            FaithfulnessCheck::Groups,
            &["ребён", "ребен", "вчера"],
        ),
    ];
    let cases = cases();
    let (mut tried, mut missed) = (0, Vec::new());
    for (id, (_, faithful)) in faithful_answers() {
        if faithful.outcome != ModelOutcome::Draft {
            continue;
        }
        let input = ResidentInput::from_json_str(&cases[&id].input.to_string()).unwrap();
        let resident = resident_text(&input);
        for (name, sentence, field, check, already) in &mutations {
            if already.iter().any(|word| resident.contains(word)) {
                continue;
            }
            let mut broken = faithful.clone();
            let slot = field(&mut broken);
            *slot = Some(match slot.take() {
                Some(text) => format!("{text}. {sentence}"),
                None => sentence.to_string(),
            });
            tried += 1;
            if check_faithfulness(&input, &broken).verdict(*check) != Verdict::Fail {
                missed.push(format!("{id}: {name}"));
            }
        }
    }
    eprintln!(
        "broken on purpose: {tried} answers, {} missed",
        missed.len()
    );
    assert!(tried > 300, "only {tried} broken answers were tried");
    assert_eq!(missed, Vec::<String>::new());
}

/// The outcome of `answer` (a model's JSON text) for `input`, through the real pipeline.
fn outcome_of(input: &ResidentInput, answer: &str) -> Outcome {
    let reply = ModelReply {
        content: Some(answer.to_owned()),
        refusal: None,
        finish_reason: Some("stop".to_owned()),
    };
    evaluate_reply(input, &reply, request_draft_schema(), legal_catalogue())
}

/// Issue 31: a draft about another problem is refused as `unrelated_draft`, and a faithful
/// one never is. Three numbers are printed and held: the faithful answers refused (none may
/// be), the released prompts' worked example given back for every case (each must be caught),
/// and the answers about another problem recorded in `tests/eval/unrelated/` (each refused for
/// its own case). The example is also given back as a model that starts right and then copies
/// would: the faithful title over the example's sentences.
#[test]
fn answers_about_another_problem_are_refused_and_faithful_answers_never() {
    const UNRELATED: &str = "unrelated_draft";
    let cases = cases();
    let inputs: BTreeMap<String, ResidentInput> = faithful_answers()
        .keys()
        .map(|id| {
            let input = ResidentInput::from_json_str(&cases[id].input.to_string()).unwrap();
            (id.clone(), input)
        })
        .collect();

    let (mut drafts, mut refused) = (0, Vec::new());
    for (id, (text, draft)) in faithful_answers() {
        if draft.outcome != ModelOutcome::Draft {
            continue;
        }
        drafts += 1;
        let outcome = outcome_of(&inputs[&id], &text);
        if outcome.reason() == Some(UNRELATED) {
            refused.push(format!("{id}: {:?}", outcome.report().errors));
        }
    }
    eprintln!(
        "faithful answers refused as {UNRELATED}: {} of {drafts}",
        refused.len()
    );
    assert_eq!(refused, Vec::<String>::new());

    let (mut tried, mut missed) = (0, Vec::new());
    for prompt in prompt_registry() {
        let example: serde_json::Value =
            serde_json::from_str(prompt.example_answer().expect("a worked example")).unwrap();
        for (id, input) in &inputs {
            let mut mixed = example.clone();
            let (_, faithful) = &faithful_answers()[id];
            if let Some(title) = &faithful.title {
                mixed["title"] = Value::from(title.as_str());
            }
            for (variant, answer) in [("verbatim", &example), ("faithful title", &mixed)] {
                tried += 1;
                let outcome = outcome_of(input, &answer.to_string());
                if outcome.reason() != Some(UNRELATED) {
                    missed.push(format!("{}, {variant}, {id}: {outcome:?}", prompt.version));
                }
            }
        }
    }
    eprintln!(
        "the prompts' example given back: {} of {tried} caught",
        tried - missed.len()
    );
    assert_eq!(missed, Vec::<String>::new());

    let recorded = answers_in("unrelated");
    assert!(
        !recorded.is_empty(),
        "tests/eval/unrelated/ holds no answer"
    );
    let mut caught = 0;
    for (id, (text, _)) in &recorded {
        let input = inputs
            .get(id)
            .unwrap_or_else(|| panic!("unrelated/{id}.json answers no case that reaches a model"));
        let outcome = outcome_of(input, text);
        assert_eq!(outcome.reason(), Some(UNRELATED), "{id}: {outcome:?}");
        caught += 1;
    }
    eprintln!(
        "recorded answers about another problem: {caught} of {} refused",
        recorded.len()
    );
    // What a small model gave back is about its own problem, whatever the resident wrote: it
    // is caught as the answer to every case, the ceiling stain like it included.
    let mut missed = Vec::new();
    for (recorded_for, (text, _)) in &recorded {
        for (id, input) in &inputs {
            if outcome_of(input, text).reason() != Some(UNRELATED) {
                missed.push(format!("unrelated/{recorded_for} for {id}"));
            }
        }
    }
    eprintln!(
        "recorded answers given for every case: {} of {} caught",
        recorded.len() * inputs.len() - missed.len(),
        recorded.len() * inputs.len()
    );
    assert_eq!(missed, Vec::<String>::new());
}

/// Everything the resident typed, in its four fields, in lower case: what a planted fault must
/// not already say.
fn resident_text(input: &ResidentInput) -> String {
    [
        Some(input.description()),
        input.location(),
        input.consequences(),
        input.desired_actions(),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" ")
    .to_lowercase()
}

/// Every recorded answer of a capable model (`tests/eval/answers/*/`, issue 36) that the checks
/// pass, each with its round and the resident's input.
fn recorded_drafts() -> Vec<(String, ResidentInput, ModelDraft)> {
    let cases = cases();
    let mut drafts = Vec::new();
    let answers = eval_dir().join("answers");
    let mut prompts: Vec<PathBuf> = std::fs::read_dir(&answers)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .collect();
    prompts.sort();
    for folder in prompts {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
            .collect();
        files.sort();
        for file in files {
            let record: Value =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let id = record["case"].as_str().unwrap().to_owned();
            let input = ResidentInput::from_json_str(&cases[&id].input.to_string()).unwrap();
            for answer in record["answers"].as_array().unwrap() {
                let Ok(draft) = serde_json::from_value::<ModelDraft>(answer["answer"].clone())
                else {
                    continue;
                };
                if draft.outcome != ModelOutcome::Draft {
                    continue;
                }
                let name = format!(
                    "{}/{id} #{}",
                    folder.file_name().unwrap().to_string_lossy(),
                    answer["round"]
                );
                drafts.push((name, input.clone(), draft));
            }
        }
    }
    drafts
}

/// Issue 36: the recorded answers of a capable model, broken on purpose in the three ways the
/// issue names — an invented group, a flipped negation, an invented cause — are caught every
/// time, so the fixes that silenced the false alarms did not silence a check.
#[test]
fn issue_36_recorded_answers_broken_on_purpose_are_caught() {
    let drafts = recorded_drafts();
    assert!(drafts.len() >= 500, "only {} recorded drafts", drafts.len());
    let (mut tried, mut missed) = (BTreeMap::<&str, usize>::new(), Vec::new());
    let mut caught =
        |name: &str, kind: &'static str, input: &ResidentInput, broken: &ModelDraft, check| {
            *tried.entry(kind).or_default() += 1;
            if check_faithfulness(input, broken).verdict(check) != Verdict::Fail {
                missed.push(format!("{name}: {kind}"));
            }
        };
    for (name, input, draft) in &drafts {
        let resident = resident_text(input);
        // A group where the resident named none: the plural of the word a model uses for the
        // resident, which the singular fix must not let through.
        if !["жител", "жильц", "сосед"]
            .iter()
            .any(|word| resident.contains(word))
        {
            let mut broken = draft.clone();
            broken.impact = Some("Жителям подъезда страшно.".to_owned());
            caught(
                name,
                "invented group",
                input,
                &broken,
                FaithfulnessCheck::Groups,
            );
        }
        // A cause stated with «из-за» and a word the resident never used.
        if !resident.contains("износ") {
            let mut broken = draft.clone();
            let problem = broken.problem.take().unwrap_or_default();
            broken.problem = Some(format!("{problem} Это из-за износа оборудования."));
            caught(
                name,
                "invented cause",
                input,
                &broken,
                FaithfulnessCheck::CauseAndRepair,
            );
        }
        // A negation the answer kept, turned around: «не X» → «X» where the resident wrote «не X».
        let words: Vec<String> = resident
            .split(|c: char| !c.is_alphanumeric())
            .filter(|word| !word.is_empty())
            .map(str::to_owned)
            .collect();
        // «не было» is left out: «было» is an auxiliary the check cannot tell a fact by, so a
        // turned-around «раньше её не было» is a limit of the check (docs/eval.md), not a
        // regression of it.
        let negated: BTreeSet<&str> = words
            .windows(2)
            .filter(|pair| pair[0] == "не" && pair[1].chars().count() >= 4)
            .filter(|pair| !["было", "была", "были", "будет"].contains(&pair[1].as_str()))
            .map(|pair| pair[1].as_str())
            .collect();
        let plain: BTreeSet<&str> = words
            .windows(2)
            .filter(|pair| pair[0] != "не")
            .map(|pair| pair[1].as_str())
            .collect();
        let problem = draft.problem.clone().unwrap_or_default();
        let lower = problem.to_lowercase();
        if let Some(word) = negated
            .iter()
            .find(|word| !plain.contains(**word) && lower.contains(&format!("не {word}")))
        {
            let at = lower.find(&format!("не {word}")).unwrap();
            // «не » is three bytes of Cyrillic and a space in either case.
            let flipped = format!("{}{}", &problem[..at], &problem[at + "не ".len()..]);
            let mut broken = draft.clone();
            broken.problem = Some(flipped);
            caught(
                name,
                "flipped negation",
                input,
                &broken,
                FaithfulnessCheck::Negations,
            );
        }
    }
    eprintln!(
        "recorded answers broken on purpose: {tried:?}, missed {}",
        missed.len()
    );
    assert!(tried.values().all(|count| *count >= 50), "{tried:?}");
    assert_eq!(missed, Vec::<String>::new());
}
