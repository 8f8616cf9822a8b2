//! `zayavka stats` through the binary (issue 17, item 7): drafts made against the stand-in —
//! one after a 503, one with a fact the resident never gave, three whose answers are never
//! usable — and one without a model, counted from the database with no network: outcomes,
//! re-asks, retries and their causes, faithfulness findings, waiting time and tokens, the
//! warning when most answers are rejected, the `--json` shape, the filters, an empty store and
//! a bad date.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};
use zayavka_standin::{Reply, Script, StandIn};

use crate::support::{run, zayavka};

const DESCRIPTION: &str = zayavka_standin::LIGHTING_DESCRIPTION;

fn zayavka_in(home: &Path) -> Command {
    let mut command = zayavka();
    command.env("ZAYAVKA_HOME", home).env("TZ", "UTC0");
    command
}

/// One draft against the stand-in; its exit code is the outcome's.
fn model_draft(home: &Path, base_url: &str) -> Value {
    let (_, stdout, stderr) = run(zayavka_in(home)
        .env("ZAYAVKA_API_KEY", "sk-stats-test-key")
        .args(["draft", "--json", "--base-url", base_url])
        .args(["--model", "stand-in-model", "--description", DESCRIPTION])
        .args(["--subject", "common_area_premises_lighting"]));
    serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {stdout}\nstderr: {stderr}"))
}

fn stats(home: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let (output, stdout, stderr) = run(zayavka_in(home).arg("stats").args(args));
    (output.status.code(), stdout, stderr)
}

fn stats_json(home: &Path, args: &[&str]) -> Value {
    let (code, stdout, stderr) = stats(home, &[args, &["--json"]].concat());
    assert_eq!(code, Some(0), "{stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

/// Five drafts through the stand-in and one without a model, in a fresh home, with the reports
/// of the two ready ones.
fn filled_home() -> (tempfile::TempDir, Vec<Value>) {
    let home = tempfile::tempdir().unwrap();
    let ok = || Reply::completion(&zayavka_standin::lighting_draft().to_string());
    let after_503 = StandIn::start(Script::new().then(Reply::status(503, "down")).then(ok()));
    let first = model_draft(home.path(), &after_503.base_url());
    assert_eq!(first["outcome"], "ready");

    let mut invented = zayavka_standin::lighting_draft();
    invented["impact"] = json!("Соседка упала на лестнице");
    let inventing = StandIn::start(Script::always(Reply::completion(&invented.to_string())));
    let report = model_draft(home.path(), &inventing.base_url());
    assert_eq!(report["outcome"], "ready");

    let broken = StandIn::start(Script::always(Reply::completion("{не JSON")).repeat_last());
    for _ in 0..3 {
        assert_eq!(
            model_draft(home.path(), &broken.base_url())["outcome"],
            "rejected"
        );
    }
    let (output, _, stderr) =
        run(zayavka_in(home.path()).args(["draft", "--offline", "--description", DESCRIPTION]));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    (home, vec![first, report])
}

#[test]
fn stats_count_outcomes_retries_reasks_findings_and_waiting_and_flag_the_rejections() {
    let (home, ready_reports) = filled_home();
    let shown = stats_json(home.path(), &["--period", "all"]);

    // The shape scripts rely on (docs/user-guide.md).
    for key in ["since", "until", "profile", "period", "total", "groups"] {
        assert!(shown.get(key).is_some(), "{key}: {shown:#}");
    }
    assert_eq!(shown["period"], "all");
    let total = &shown["total"];
    assert_eq!(total["drafts"], 6);
    assert_eq!(
        total["outcomes"],
        json!({"pending": 0, "ready": 3, "needs_user": 0, "rejected": 3, "failed": 0,
               "invalid_input": 0})
    );
    assert_eq!(total["ready_without_model"], 1);
    assert_eq!(total["sent_to_model"], 5);
    assert_eq!(total["rejected_share"], 0.6);
    assert_eq!(total["attention"], json!(["many_rejected"]));

    // The stand-in's drafts went through the ad-hoc profile; the offline one has none.
    let groups = shown["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2, "{shown:#}");
    let (served, offline) = (&groups[0], &groups[1]);
    assert_eq!(served["profile"], "default");
    assert_eq!(served["period"], Value::Null);
    assert_eq!(offline["profile"], Value::Null);
    assert_eq!(offline["drafts"], 1);
    assert_eq!(offline["latency"], Value::Null);

    assert_eq!(served["drafts"], 5);
    assert_eq!(
        served["reasons"]["rejected"]["invalid_json"], 3,
        "{served:#}"
    );
    assert!(
        served["reasks"]["total"].as_u64().unwrap() >= 3,
        "{served:#}"
    );
    assert_eq!(served["reasks"]["drafts"], 3);
    assert_eq!(served["attempts"]["retries"], 1);
    assert_eq!(served["attempts"]["retry_causes"], json!({"http_503": 1}));
    let latency = &served["latency"];
    assert_eq!(latency["drafts"], 5);
    assert!(latency["median_ms"].as_u64().unwrap() <= latency["p90_ms"].as_u64().unwrap());
    for key in ["prompt", "completion", "total"] {
        assert!(served["tokens"][key].is_u64(), "{key}");
    }

    // The findings are those stored with the requests: the draft that invented a fall has at
    // least one.
    let found = |report: &Value| {
        report["request"]["faithfulness"]
            .as_array()
            .map_or(0, |findings| {
                findings
                    .iter()
                    .filter(|finding| finding["certainty"] == "found")
                    .count()
            })
    };
    let faithfulness = &served["faithfulness"];
    let with_found = ready_reports.iter().filter(|r| found(r) > 0).count();
    assert_eq!(
        faithfulness["found"],
        ready_reports.iter().map(found).sum::<usize>(),
        "{faithfulness:#}"
    );
    assert_eq!(faithfulness["drafts_with_found"], with_found);
    assert!(found(&ready_reports[1]) > 0, "{:#}", ready_reports[1]);

    // The text output calls the rejections out above the table.
    let (code, text, stderr) = stats(home.path(), &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let warning = text
        .lines()
        .find(|line| line.starts_with("Внимание:"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        warning.contains("ответ модели не принят — 3 из 5 черновиков, отправленных модели (60 %)"),
        "{warning}"
    );
    let table = text.find("Период").unwrap();
    assert!(text.find("Внимание:").unwrap() < table, "{text}");
    assert!(text.contains("invalid_json 3"), "{text}");
    assert!(text.contains("http_503 1"), "{text}");
    assert!(text.contains("Ожидание ответа: медиана"), "{text}");
    assert!(!text.contains("sk-stats-test-key"));
}

#[test]
fn stats_filter_by_day_and_profile_and_group_by_day() {
    let (home, _) = filled_home();
    let today = jiff::Timestamp::now()
        .to_zoned(jiff::tz::TimeZone::UTC)
        .date();
    let tomorrow = today.tomorrow().unwrap().to_string();
    let today = today.to_string();

    let shown = stats_json(home.path(), &["--since", &today, "--until", &today]);
    assert_eq!(shown["since"], today.as_str());
    assert_eq!(shown["total"]["drafts"], 6);
    assert_eq!(shown["period"], "month", "the default");

    let shown = stats_json(home.path(), &["--profile", "default", "--period", "day"]);
    assert_eq!(shown["total"]["drafts"], 5);
    let groups = shown["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0]["period"]["label"], today.as_str());
    assert_eq!(groups[0]["period"]["start"], today.as_str());

    let shown = stats_json(home.path(), &["--since", &tomorrow]);
    assert_eq!(shown["total"]["drafts"], 0);
    let (code, text, _) = stats(home.path(), &["--since", &tomorrow]);
    assert_eq!(code, Some(0));
    assert!(
        text.contains("За выбранный период и профиль черновиков нет"),
        "{text}"
    );
}

#[test]
fn stats_on_an_empty_store_say_how_to_begin() {
    let home = tempfile::tempdir().unwrap();
    let (code, text, stderr) = stats(home.path(), &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(text.contains("Черновиков пока нет"), "{text}");
    assert!(text.contains("zayavka draft --offline"), "{text}");
    let shown = stats_json(home.path(), &[]);
    assert_eq!(shown["total"]["drafts"], 0);
    assert_eq!(shown["total"]["latency"], Value::Null);
    assert_eq!(shown["groups"], json!([]));
}

#[test]
fn a_bad_date_or_a_backwards_period_is_refused_naming_the_flag() {
    let home = tempfile::tempdir().unwrap();
    for (flag, value) in [("--since", "2026-13-01"), ("--until", "вчера")] {
        let (code, stdout, stderr) = stats(home.path(), &[flag, value]);
        assert_eq!(code, Some(2), "{flag}");
        assert!(stdout.is_empty());
        assert!(stderr.contains(flag), "{stderr}");
        assert!(stderr.contains("ГГГГ-ММ-ДД"), "{stderr}");
    }
    let (code, _, stderr) = stats(
        home.path(),
        &["--since", "2026-12-05", "--until", "2026-12-01"],
    );
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("--since 2026-12-05 позже --until 2026-12-01"),
        "{stderr}"
    );
}

#[test]
fn stats_into_a_pipe_whose_reader_has_gone_stop_quietly_with_141() {
    // `zayavka stats | head -1` (ADR 19), on an empty store and a filled one, text and JSON.
    let home = tempfile::tempdir().unwrap();
    let closed = || {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        writer
    };
    for fill in [false, true] {
        if fill {
            let (output, _, stderr) = run(zayavka_in(home.path()).args([
                "draft",
                "--offline",
                "--description",
                DESCRIPTION,
            ]));
            assert_eq!(output.status.code(), Some(0), "{stderr}");
        }
        for args in [
            &["stats"][..],
            &["stats", "--json"],
            &["stats", "--period", "day"],
        ] {
            let output = zayavka_in(home.path())
                .args(args)
                .stdout(closed())
                .stderr(std::process::Stdio::piped())
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(141), "{args:?}: {stderr}");
            assert!(stderr.is_empty(), "{args:?}: {stderr}");
        }
    }
}
