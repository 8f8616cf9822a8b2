//! `zayavka eval` through the binary and the stand-in (issue 17): plan mode sends nothing; the
//! whole corpus against the stand-in serving the faithful answers passes every hard check (the
//! harness's own test in CI) and its replay reproduces every verdict byte for byte; each check
//! fails on an answer built to break it; the cost cap refuses before anything is sent; the
//! review sheet renders with no remote reference, and a reviewer's marks beside it are counted.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::{Value, json};
use zayavka_standin::{Reply, Script, StandIn};

use crate::support::{run, tests_dir, zayavka};

fn cases_dir() -> PathBuf {
    tests_dir().join("eval/cases")
}

fn faithful(id: &str) -> Value {
    let text = std::fs::read_to_string(tests_dir().join(format!("eval/faithful/{id}.json")))
        .unwrap_or_else(|e| panic!("{id}: {e}"));
    serde_json::from_str(&text).unwrap()
}

fn answer(draft: &Value) -> Reply {
    Reply::completion(&draft.to_string())
}

/// Every case id, in the order the harness sends them, with whether the input reaches a model.
fn corpus() -> Vec<(String, bool)> {
    let mut ids: Vec<String> = std::fs::read_dir(cases_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    ids.into_iter()
        .map(|id| {
            let reaches = tests_dir()
                .join(format!("eval/faithful/{id}.json"))
                .exists();
            (id, reaches)
        })
        .collect()
}

struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    /// A data folder whose active profile is the stand-in, without prices unless given.
    fn new(base_url: &str, prices: Option<f64>) -> Home {
        let dir = tempfile::tempdir().unwrap();
        let mut config = format!(
            "active_profile = \"stand\"\n\n[profiles.stand]\nkind = \"custom\"\nbase_url = \
             \"{base_url}\"\nmodel = \"stand-in-model\"\nneeds_api_key = false\nattempts = 1\n"
        );
        if let Some(price) = prices {
            config.push_str(&format!(
                "price_input_per_million = {price}\nprice_output_per_million = {price}\n"
            ));
        }
        std::fs::write(dir.path().join("config.toml"), config).unwrap();
        Home { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn eval(&self, args: &[&str]) -> Command {
        let mut command = zayavka();
        command
            .env("ZAYAVKA_HOME", self.path())
            .arg("eval")
            .arg("--cases")
            .arg(cases_dir())
            .args(args);
        command
    }
}

/// Runs a command that prints one JSON object and returns its exit code and the object.
fn json_run(command: &mut Command) -> (Option<i32>, Value) {
    let (output, stdout, stderr) = run(command);
    let value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {stdout}\nstderr: {stderr}"));
    (output.status.code(), value)
}

/// The verdict of `check` in the result for `case`.
fn verdict<'a>(report: &'a Value, case: &str, check: &str) -> &'a str {
    let result = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|result| result["case"] == case)
        .unwrap_or_else(|| panic!("no result for {case}"));
    result["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == check)
        .unwrap_or_else(|| panic!("{case}: no check {check} in {result}"))["verdict"]
        .as_str()
        .unwrap()
}

fn fact_verdicts(report: &Value, case: &str) -> Vec<String> {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|result| result["case"] == case)
        .unwrap()["must_keep"]
        .as_array()
        .unwrap()
        .iter()
        .map(|fact| fact["verdict"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn plan_mode_sends_nothing_and_prints_the_plan() {
    let stand_in = StandIn::start(Script::always(answer(&faithful(
        "lookalike-lift-cabin-dirty",
    ))));
    let home = Home::new(&stand_in.base_url(), None);
    let (code, plan) = json_run(
        home.eval(&["--json", "--repeats", "3"])
            .arg("--profile")
            .arg("stand"),
    );
    assert_eq!(code, Some(0), "{plan}");
    let reaching = corpus().iter().filter(|(_, reaches)| *reaches).count() as u64;
    assert_eq!(plan["run"], Value::Null);
    assert_eq!(plan["plan"]["cases"], corpus().len() as u64);
    assert_eq!(plan["plan"]["profiles"], json!(["stand"]));
    assert_eq!(plan["plan"]["repeats"], 3);
    assert_eq!(plan["plan"]["requests"], reaching * 3);
    assert_eq!(plan["plan"]["max_cost"], 50.0);
    // The current prompt, unless one is chosen.
    assert_eq!(plan["plan"]["prompt_version"], "system/v3");
    assert_eq!(plan["results"], json!([]));
    let (output, stdout, _) = run(&mut home.eval(&[]));
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout.contains("ничего не отправлено"), "{stdout}");
    assert!(stdout.contains("--run"), "{stdout}");
    assert_eq!(stand_in.request_count(), 0, "plan mode sent a request");
}

/// The harness's test in CI: the corpus against the stand-in serving the faithful answers.
#[test]
fn the_corpus_against_faithful_answers_passes_and_replays_byte_for_byte() {
    let corpus = corpus();
    let mut script = Script::new();
    for (id, reaches) in &corpus {
        if *reaches {
            script = script.then(answer(&faithful(id)));
        }
    }
    let stand_in = StandIn::start(script);
    let home = Home::new(&stand_in.base_url(), None);
    let sheet = home.path().join("sheet");
    let started = Instant::now();
    let (code, report) = json_run(
        home.eval(&["--run", "--json", "--concurrency", "1", "--sheet"])
            .arg(&sheet),
    );
    let took = started.elapsed();
    eprintln!(
        "the corpus ({} cases) against the stand-in: {took:?}",
        corpus.len()
    );
    let failed: Vec<&Value> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|result| result["hard"] != "pass")
        .collect();
    assert_eq!(
        failed,
        Vec::<&Value>::new(),
        "faithful answers failed a hard check"
    );
    assert_eq!(code, Some(0));
    assert_eq!(report["results"].as_array().unwrap().len(), corpus.len());
    let reaching = corpus.iter().filter(|(_, reaches)| *reaches).count();
    assert_eq!(stand_in.request_count(), reaching);
    // Each check passes on a faithful answer of the cases the next test breaks.
    for (case, check) in [
        ("unknown-leak-source", "faithfulness.cause_and_repair"),
        ("negation-hinges-ok-handle-missing", "negations"),
        (
            "negation-hinges-ok-handle-missing",
            "faithfulness.negations",
        ),
        ("emotional-dark-stairs-fear", "faithfulness.numbers"),
        ("group-only-me-scared", "faithfulness.groups"),
        ("lookalike-lift-cabin-dirty", "subject"),
        ("lookalike-lift-cabin-dirty", "subject_not"),
    ] {
        assert_eq!(verdict(&report, case, check), "pass", "{case}: {check}");
    }
    assert_eq!(
        fact_verdicts(&report, "emotional-dark-stairs-fear"),
        ["pass", "pass", "pass"]
    );
    let summary = &report["summary"][0];
    eprintln!("summary of the faithful answers: {summary}");
    let negations: Vec<&str> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["checks"].as_array().unwrap())
        .filter(|c| c["check"] == "negations")
        .map(|c| c["verdict"].as_str().unwrap())
        .collect();
    eprintln!("negations on the faithful answers: {negations:?}");
    // No false alarm of the invented-content checks and no fact lost on a faithful answer.
    assert_eq!(summary["invented_content"], 0);
    assert_eq!(summary["must_keep"]["lost"], 0);
    assert_eq!(summary["profile"], "stand");
    assert_eq!(summary["hard_pass_rate"], 1.0);
    assert_eq!(summary["stable_cases"], corpus.len() as u64);
    let run_id = report["run"].as_str().unwrap().to_owned();

    // The replay sends nothing and reproduces every verdict byte for byte.
    let (code, replay) = json_run(
        home.eval(&["--replay", &run_id, "--json", "--sheet"])
            .arg(&sheet),
    );
    assert_eq!(code, Some(0), "{replay}");
    assert_eq!(
        stand_in.request_count(),
        reaching,
        "the replay sent a request"
    );
    assert_eq!(
        serde_json::to_string(&replay["results"]).unwrap(),
        serde_json::to_string(&report["results"]).unwrap()
    );
    assert_eq!(replay["summary"], report["summary"]);
    assert_eq!(replay["plan"], report["plan"]);

    // The sheet renders, self-contained.
    let html = std::fs::read_to_string(sheet.join("sheet.html")).unwrap();
    assert!(html.starts_with("<!doctype html>"));
    for needed in [
        "Итоги по профилям",
        "Сохранить отметки",
        "lookalike-lift-cabin-dirty",
    ] {
        assert!(html.contains(needed), "{needed}");
    }
    assert_no_remote_reference(&html);
    let markdown = std::fs::read_to_string(sheet.join("sheet.md")).unwrap();
    assert!(markdown.contains("## Итоги по профилям"));

    // A reviewer's marks saved beside the sheet are counted in the next summary.
    let marks = json!({"run": run_id, "marks": [
        {"case": "emotional-dark-stairs-fear", "profile": "stand", "repeat": 1,
         "fact": "все лампы", "verdict": "fail"}
    ]});
    std::fs::write(sheet.join("marks.json"), marks.to_string()).unwrap();
    let (_, marked) = json_run(
        home.eval(&["--replay", &run_id, "--json", "--sheet"])
            .arg(&sheet),
    );
    assert_eq!(marked["marks_counted"], 1);
    assert_eq!(marked["summary"][0]["must_keep"]["reviewed"], 1);
    assert_eq!(
        marked["summary"][0]["must_keep"]["lost"],
        report["summary"][0]["must_keep"]["lost"].as_u64().unwrap() + 1
    );
    assert_eq!(
        marked["results"], report["results"],
        "marks change no verdict"
    );
    let html = std::fs::read_to_string(sheet.join("sheet.html")).unwrap();
    assert!(
        html.contains("\"verdict\":\"fail\""),
        "the sheet shows the saved mark"
    );
}

fn assert_no_remote_reference(html: &str) {
    for forbidden in [
        "http://",
        "https://",
        "src=\"//",
        "href=\"//",
        "@import",
        "url(",
        "<link",
        "<img",
        "<iframe",
    ] {
        assert!(!html.contains(forbidden), "the sheet holds {forbidden}");
    }
    for attribute in ["src=", "href="] {
        for (at, _) in html.match_indices(attribute) {
            let value = &html[at + attribute.len()..];
            assert!(
                !value.trim_start_matches(['"', '\'']).starts_with("//"),
                "a protocol-relative reference at {at}"
            );
        }
    }
}

/// The faithful answer for `case` with `change` applied to it.
fn broken(case: &str, change: impl FnOnce(&mut Value)) -> Value {
    let mut draft = faithful(case);
    change(&mut draft);
    draft
}

fn append(draft: &mut Value, field: &str, sentence: &str) {
    draft[field] = match draft[field].as_str() {
        Some(text) => Value::from(format!("{text}. {sentence}")),
        None => Value::from(sentence),
    };
}

#[test]
fn each_check_fails_on_an_answer_built_to_break_it() {
    // In id order, as the harness sends them one at a time.
    let answers: BTreeMap<&str, Value> = [
        (
            "emotional-dark-stairs-fear",
            broken("emotional-dark-stairs-fear", |d| {
                // A lost fact and a new number.
                d["impact"] = Value::Null;
                append(d, "circumstances", "Так продолжается 17 дней");
            }),
        ),
        (
            "group-only-me-scared",
            broken("group-only-me-scared", |d| {
                append(d, "impact", "Жильцам страшно")
            }),
        ),
        (
            "lookalike-lift-cabin-dirty",
            broken("lookalike-lift-cabin-dirty", |d| {
                d["subject"]["kind"] = Value::from("common_area_elevator");
            }),
        ),
        (
            "negation-hinges-ok-handle-missing",
            broken("negation-hinges-ok-handle-missing", |d| {
                let problem = d["problem"]
                    .as_str()
                    .unwrap()
                    .replace("исправны", "неисправны");
                d["problem"] = Value::from(problem);
            }),
        ),
        (
            "unknown-leak-source",
            broken("unknown-leak-source", |d| {
                append(d, "problem", "Это происходит из-за износа кровли")
            }),
        ),
    ]
    .into_iter()
    .collect();
    let mut script = Script::new();
    let mut args = vec!["--run", "--json", "--concurrency", "1"];
    for (case, draft) in &answers {
        script = script.then(answer(draft));
        args.extend(["--case", case]);
    }
    let stand_in = StandIn::start(script);
    let home = Home::new(&stand_in.base_url(), None);
    let (code, report) = json_run(&mut home.eval(&args));
    assert_eq!(code, Some(1), "a hard check failed: {report}");
    for (case, check) in [
        ("unknown-leak-source", "faithfulness.cause_and_repair"),
        ("negation-hinges-ok-handle-missing", "negations"),
        ("emotional-dark-stairs-fear", "faithfulness.numbers"),
        ("group-only-me-scared", "faithfulness.groups"),
        ("lookalike-lift-cabin-dirty", "subject"),
        ("lookalike-lift-cabin-dirty", "subject_not"),
    ] {
        assert_eq!(verdict(&report, case, check), "fail", "{case}: {check}");
    }
    let facts = fact_verdicts(&report, "emotional-dark-stairs-fear");
    assert_eq!(facts[1], "fail", "«чуть не упала» is lost: {facts:?}");
    let hard: BTreeMap<&str, &str> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["case"].as_str().unwrap(), r["hard"].as_str().unwrap()))
        .collect();
    assert_eq!(hard["lookalike-lift-cabin-dirty"], "fail");
    assert_eq!(
        hard["unknown-leak-source"], "pass",
        "invented content is not a hard check"
    );
    assert!(report["summary"][0]["invented_content"].as_u64().unwrap() >= 4);
}

/// Regression (issue 31): the answer SmolLM2-135M gave for the dirty wall, the prompt's own
/// example cut short (`tests/eval/unrelated/`), is asked again once and then rejected as
/// `unrelated_draft`: the case's `outcome` check fails and the run exits 1. Corrected on the
/// re-ask, the same case passes.
#[test]
fn issue_31_an_answer_about_another_problem_fails_the_case_after_one_reask() {
    const CASE: &str = "unrelated-wall-dirt-common-room";
    let text =
        std::fs::read_to_string(tests_dir().join(format!("eval/unrelated/{CASE}.json"))).unwrap();
    let parroted: Value = serde_json::from_str(&text).unwrap();
    let stand_in = StandIn::start(Script::always(answer(&parroted)));
    let home = Home::new(&stand_in.base_url(), None);
    let (code, report) = json_run(&mut home.eval(&["--run", "--json", "--case", CASE]));
    assert_eq!(code, Some(1), "{report}");
    assert_eq!(stand_in.request_count(), 2, "one re-ask");
    let result = &report["results"][0];
    assert_eq!(result["outcome"], "rejected", "{result}");
    assert_eq!(result["reason"], "unrelated_draft", "{result}");
    assert_eq!(result["hard"], "fail");
    assert_eq!(verdict(&report, CASE, "outcome"), "fail");

    let stand_in = StandIn::start(
        Script::new()
            .then(answer(&parroted))
            .then(answer(&faithful(CASE))),
    );
    let home = Home::new(&stand_in.base_url(), None);
    let (code, report) = json_run(&mut home.eval(&["--run", "--json", "--case", CASE]));
    assert_eq!(code, Some(0), "{report}");
    assert_eq!(stand_in.request_count(), 2);
    assert_eq!(report["results"][0]["outcome"], "ready");
    assert_eq!(verdict(&report, CASE, "negations"), "pass");
}

#[test]
fn the_cost_cap_refuses_before_anything_is_sent() {
    let stand_in = StandIn::start(Script::always(answer(&faithful(
        "lookalike-lift-cabin-dirty",
    ))));
    let home = Home::new(&stand_in.base_url(), Some(1000.0));
    let (output, _, stderr) = run(&mut home.eval(&["--run", "--max-cost", "0.01"]));
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("0.01"), "{stderr}");
    assert!(stderr.contains("--max-cost"), "{stderr}");
    assert_eq!(stand_in.request_count(), 0);
    // The default cap refuses the whole corpus at these prices too.
    let (output, _, stderr) = run(&mut home.eval(&["--run"]));
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("50.00"), "{stderr}");
    // The plan says so without sending.
    let (output, stdout, _) = run(&mut home.eval(&["--max-cost", "0.01"]));
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout.contains("будет отклонена"), "{stdout}");
    // A remote profile without prices cannot be bounded and is refused as well.
    let remote = Home::new("https://models.example.invalid/v1", None);
    let (output, _, stderr) =
        run(&mut remote.eval(&["--run", "--case", "lookalike-lift-cabin-dirty"]));
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("цены"), "{stderr}");
    assert_eq!(stand_in.request_count(), 0);
}

#[test]
fn a_missing_corpus_folder_or_run_is_named_with_its_flag() {
    let home = Home::new("http://127.0.0.1:9/v1", None);
    let mut command = zayavka();
    command
        .env("ZAYAVKA_HOME", home.path())
        .current_dir(home.path())
        .arg("eval");
    let (output, _, stderr) = run(&mut command);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("--cases"), "{stderr}");
    let (output, _, stderr) = run(&mut home.eval(&["--replay", "20990101-000000-000"]));
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("--replay"), "{stderr}");
    assert!(stderr.contains("20990101-000000-000"), "{stderr}");
}

/// Ctrl-C stops a run: the answers that arrived are stored and reported (exit 5), the call in
/// flight is dropped, and a replay of the run finds exactly those answers. One case, repeated,
/// so that every answer is its case's and takes one request (an answer about another case's
/// problem would be asked again, issue 31).
#[cfg(unix)]
#[test]
fn ctrl_c_keeps_what_finished() {
    const REPEATS: usize = 20;
    let stand_in = StandIn::start(Script::always(
        answer(&faithful("lookalike-lift-cabin-dirty"))
            .delayed(std::time::Duration::from_millis(200)),
    ));
    let home = Home::new(&stand_in.base_url(), None);
    let repeats = REPEATS.to_string();
    let child = home
        .eval(&["--run", "--json", "--concurrency", "1"])
        .args(["--repeats", &repeats])
        .args(["--case", "lookalike-lift-cabin-dirty"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    while stand_in.request_count() < 3 {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    assert_eq!(output.status.code(), Some(5), "{report}");
    assert_eq!(report["stopped"], true);
    let kept = report["results"].as_array().unwrap().len();
    assert!((2..REPEATS).contains(&kept), "{kept} answers");
    let run_id = report["run"].as_str().unwrap();
    let (_, replay) = json_run(&mut home.eval(&["--replay", run_id, "--json"]));
    assert_eq!(replay["results"], report["results"]);
}

/// `--prompt` takes any registered prompt, records it in the plan, and sends its text; an
/// unknown version is refused with the registered ones named.
#[test]
fn the_prompt_version_is_chosen_recorded_and_sent() {
    let stand_in = StandIn::start(Script::always(answer(&faithful(
        "lookalike-lift-cabin-dirty",
    ))));
    let home = Home::new(&stand_in.base_url(), None);
    let (output, _, stderr) = run(&mut home.eval(&["--prompt", "system/v0"]));
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr.contains("system/v1") && stderr.contains("--prompt"),
        "{stderr}"
    );
    // Every registered prompt, older and newer than the current one alike.
    for (index, prompt) in zayavka_core::prompt_registry().iter().enumerate() {
        let (code, report) = json_run(&mut home.eval(&[
            "--run",
            "--json",
            "--prompt",
            prompt.version,
            "--case",
            "lookalike-lift-cabin-dirty",
        ]));
        assert_eq!(code, Some(0), "{report}");
        assert_eq!(report["plan"]["prompt_version"], prompt.version);
        assert_eq!(report["plan"]["prompt_sha256"], prompt.sha256());
        let sent = stand_in.requests()[index].json();
        let system = sent["messages"][0]["content"].as_str().unwrap();
        assert!(
            system.starts_with(prompt.text.trim_end()),
            "{}: the chosen prompt is sent",
            prompt.version
        );
    }
}

/// A service that refuses the key would refuse every request: the profile gets one, not the
/// whole corpus, and the run says it stopped (exit 5). A profile with no key sends nothing.
#[test]
fn a_refused_key_stops_the_profile_and_a_missing_key_sends_nothing() {
    let stand_in = StandIn::start(Script::always(Reply::json(
        401,
        json!({"error": {"message": "bad key", "type": "invalid_request_error"}}),
    )));
    let home = Home::new(&stand_in.base_url(), None);
    let (code, report) = json_run(&mut home.eval(&["--run", "--json", "--concurrency", "1"]));
    assert_eq!(code, Some(5), "{report}");
    assert_eq!(stand_in.request_count(), 1);
    assert_eq!(report["stopped"], true);
    assert_eq!(report["halted_profiles"], json!(["stand"]));
    let failed: Vec<&Value> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["outcome"] == "failed")
        .collect();
    assert_eq!(failed.len(), 1, "{report}");
    // No key was sent, so the service's 401 reads as a missing key.
    assert_eq!(failed[0]["reason"], "no_api_key");

    let keyless = StandIn::start(Script::always(Reply::status(500, "unused")));
    let home = Home::new(&keyless.base_url(), None);
    let config = std::fs::read_to_string(home.path().join("config.toml"))
        .unwrap()
        .replace("needs_api_key = false", "needs_api_key = true");
    std::fs::write(home.path().join("config.toml"), config).unwrap();
    let (output, _, stderr) =
        run(&mut home.eval(&["--run", "--case", "lookalike-lift-cabin-dirty"]));
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("ключ"), "{stderr}");
    assert_eq!(keyless.request_count(), 0);
}

/// The folders of recorded answers, one per prompt version (`tests/eval/answers/system-v3`).
fn answer_corpora() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(tests_dir().join("eval/answers"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// The checks whose failure is a warning a resident sees about invented content: the core's
/// expectation-free checks the draft itself carries (ADR 27), less the content-word check,
/// which is counted apart as new words.
const RESIDENT_ALARMS: [&str; 4] = [
    "faithfulness.numbers",
    "faithfulness.cause_and_repair",
    "faithfulness.groups",
    "faithfulness.negations",
];

/// Issue 36: a capable model's recorded answers to each released prompt, served through
/// `zayavka eval --run` by the stand-in, reproduce their recorded verdicts (a snapshot a
/// reviewer accepts with `cargo insta review`); no answer a reviewer has not marked unfaithful
/// raises a warning about invented content, and every answer marked unfaithful is caught.
#[test]
fn issue_36_the_answer_corpus_reproduces_its_verdicts_with_no_false_alarm() {
    let corpora = answer_corpora();
    assert!(
        corpora
            .iter()
            .any(|dir| dir.ends_with(zayavka_core::system_prompt().version.replace('/', "-"))),
        "the current prompt has no recorded answers"
    );
    for dir in corpora {
        let answers = zayavka_standin::read_answer_corpus(&dir).unwrap();
        let version = answers[0].prompt_version.clone();
        let prompt = zayavka_core::find_prompt(&version)
            .unwrap_or_else(|| panic!("{}: no registered prompt {version}", dir.display()));
        let schema = prompt.schema();
        let mut reviews = BTreeMap::new();
        let mut rounds = usize::MAX;
        for case in &answers {
            // Each file answers exactly the registered text and today's message for its case.
            assert_eq!(case.prompt_version, version, "{}", case.case);
            assert_eq!(case.prompt_sha256, prompt.sha256(), "{}", case.case);
            assert_eq!(case.schema_id, schema.id, "{}", case.case);
            assert_eq!(case.schema_sha256, schema.sha256(), "{}", case.case);
            let text = std::fs::read_to_string(cases_dir().join(format!("{}.json", case.case)))
                .unwrap_or_else(|e| panic!("{}: {e}", case.case));
            let input = zayavka_core::ResidentInput::from_json_str(
                &serde_json::from_str::<Value>(&text).unwrap()["input"].to_string(),
            )
            .unwrap();
            let rendered = zayavka_core::render_prompt_with(
                prompt,
                &input,
                zayavka_core::SchemaMode::JsonSchema,
                schema,
            );
            assert_eq!(
                rendered.user, case.user_message,
                "{}: the case's message changed since its answers were recorded",
                case.case
            );
            rounds = rounds.min(case.answers.len());
            for answer in &case.answers {
                if let Some(review) = &answer.review {
                    reviews.insert((case.case.clone(), answer.round), review.faithful);
                }
            }
        }
        let reaching = corpus().iter().filter(|(_, reaches)| *reaches).count();
        assert_eq!(
            answers.len(),
            reaching,
            "{}: a case without answers",
            dir.display()
        );
        assert!(rounds >= 3, "{}: fewer than three rounds", dir.display());

        let stand_in = StandIn::start(
            Script::answer_corpus(&answers)
                .then(Reply::status(500, "no recorded answer"))
                .repeat_last(),
        );
        let home = Home::new(&stand_in.base_url(), None);
        let repeats = rounds.to_string();
        let (code, report) = json_run(&mut home.eval(&[
            "--run",
            "--json",
            "--concurrency",
            "1",
            "--repeats",
            &repeats,
            "--prompt",
            &version,
        ]));
        assert_eq!(
            stand_in.request_count(),
            reaching * rounds,
            "{version}: a request the corpus did not answer (a re-ask?)"
        );
        let mut verdicts = String::new();
        let (mut false_alarms, mut missed) = (Vec::new(), Vec::new());
        for result in report["results"].as_array().unwrap() {
            let case = result["case"].as_str().unwrap();
            let round = result["repeat"].as_u64().unwrap() as u32;
            let failed: Vec<&str> = result["checks"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|check| check["verdict"] == "fail")
                .map(|check| check["check"].as_str().unwrap())
                .collect();
            verdicts.push_str(&format!(
                "{case} #{round}: {}{} {}{}\n",
                result["outcome"].as_str().unwrap(),
                result["reason"]
                    .as_str()
                    .map(|reason| format!(" ({reason})"))
                    .unwrap_or_default(),
                result["hard"].as_str().unwrap(),
                if failed.is_empty() {
                    String::new()
                } else {
                    format!(" — {}", failed.join(", "))
                }
            ));
            let alarm = failed.iter().any(|check| RESIDENT_ALARMS.contains(check));
            let invented = failed.iter().any(|check| {
                RESIDENT_ALARMS.contains(check) || ["must_not_contain", "negations"].contains(check)
            });
            match reviews.get(&(case.to_owned(), round)) {
                Some(false) if !invented => missed.push(format!("{case} #{round}")),
                Some(false) => {}
                _ if alarm => false_alarms.push(format!("{case} #{round}: {failed:?}")),
                _ => {}
            }
        }
        assert_eq!(
            false_alarms,
            Vec::<String>::new(),
            "{version}: false alarms"
        );
        assert_eq!(
            missed,
            Vec::<String>::new(),
            "{version}: unfaithful answers not caught"
        );
        let summary = &report["summary"][0];
        eprintln!("{version}: {summary}");
        let unfaithful = reviews.values().filter(|faithful| !**faithful).count();
        assert_eq!(summary["invented_content"], unfaithful as u64, "{version}");
        if prompt.version == zayavka_core::system_prompt().version {
            assert_eq!(code, Some(0), "{version}: a hard check failed");
        }
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(dir.clone());
        settings.set_prepend_module_to_snapshot(false);
        settings.set_omit_expression(true);
        settings.bind(|| insta::assert_snapshot!("verdicts", verdicts));
    }
}

/// Issue 36: `--export` writes what a run would send — the system message, the response format
/// and one numbered user message per case that reaches a model — with the case ids only in the
/// index beside it, sends nothing, and refuses a folder that already holds an export.
#[test]
fn issue_36_export_writes_what_a_run_sends_and_keeps_the_case_ids_apart() {
    let stand_in = StandIn::start(Script::always(Reply::status(500, "unused")));
    let home = Home::new(&stand_in.base_url(), None);
    let out = home.path().join("export");
    let (code, export) = json_run(home.eval(&["--json", "--export"]).arg(&out).args([
        "--case",
        "group-only-me-scared",
        "--case",
        "invalid-description-too-short",
    ]));
    assert_eq!(code, Some(0), "{export}");
    assert_eq!(stand_in.request_count(), 0);
    let prompt = zayavka_core::system_prompt();
    assert_eq!(export["prompt_version"], prompt.version);
    assert_eq!(export["prompt_sha256"], prompt.sha256());
    // The refused input is never sent, so it is not written either.
    assert_eq!(
        export["cases"],
        json!([{"number": "001", "case": "group-only-me-scared"}])
    );
    let for_model = out.join("for-model");
    assert_eq!(
        std::fs::read_to_string(for_model.join("system.md")).unwrap(),
        prompt.text
    );
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(for_model.join("schema.json")).unwrap())
            .unwrap();
    assert_eq!(schema["name"], prompt.schema().name);
    assert_eq!(schema["schema"], *prompt.schema().transport());
    let message = std::fs::read_to_string(for_model.join("messages/001.json")).unwrap();
    assert!(
        message.contains("мне страшно выходить из квартиры в темноту"),
        "{message}"
    );
    // Nothing the answering model is handed names a case.
    for entry in walk(&for_model) {
        let text = std::fs::read_to_string(&entry).unwrap();
        assert!(
            !text.contains("group-only-me-scared"),
            "{}",
            entry.display()
        );
    }
    let (output, _, stderr) = run(home
        .eval(&["--export"])
        .arg(&out)
        .args(["--case", "group-only-me-scared"]));
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("уже есть выгрузка"), "{stderr}");
}

/// Every file below `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}
