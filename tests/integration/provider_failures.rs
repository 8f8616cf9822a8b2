//! Issue 15, section 3, through the binary: a failed draft with GigaChat, Yandex AI Studio or a
//! local server prints the service's advice, «Подробности» and «Ответ сервера: …», keeps the
//! server's reason in the context record, exits 5, and shows the key nowhere.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};
use zayavka_standin::{Reply, Script, Service, StandIn};

use crate::support::{files_under, run, zayavka};

const CANARY_KEY: &str = "canary-issue15-0123456789abcdefghij";
const FOLDER: &str = "b1gaaaaaaaaaaaaaaaaa";

fn in_home(home: &Path) -> Command {
    let mut command = zayavka();
    command.env("ZAYAVKA_HOME", home);
    command
}

fn set(home: &Path, key: &str, value: &str) {
    let (output, _, stderr) = run(in_home(home).args(["config", "set", key, value]));
    assert!(output.status.success(), "config set {key}: {stderr}");
}

/// What one failed `zayavka draft` printed and kept.
struct Printed {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    record: Value,
}

fn draft(home: &Path, key: &str, json: bool) -> Printed {
    let record_path = home.join("record.json");
    let mut command = in_home(home);
    if !key.is_empty() {
        command.env("ZAYAVKA_API_KEY", key);
    }
    let (output, stdout, stderr) = run(command
        .env("ZAYAVKA_LOG", "trace")
        .arg("draft")
        .args(json.then_some("--json"))
        .arg("--record")
        .arg(&record_path)
        .args([
            "--description",
            "В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами.",
        ]));
    let record = std::fs::read_to_string(&record_path)
        .map(|text| serde_json::from_str(&text).unwrap())
        .unwrap_or(Value::Null);
    Printed {
        code: output.status.code(),
        stdout,
        stderr,
        record,
    }
}

impl Printed {
    fn attempts(&self) -> &Vec<Value> {
        self.record["attempts"].as_array().expect("attempts")
    }

    fn assert_no_secret(&self, home: &Path, secret: &str) {
        for text in [&self.stdout, &self.stderr] {
            assert!(!text.contains(secret), "{text}");
        }
        for file in files_under(home) {
            let bytes = std::fs::read(&file).unwrap();
            assert!(
                !bytes
                    .windows(secret.len())
                    .any(|window| window == secret.as_bytes()),
                "{}",
                file.display()
            );
        }
    }
}

#[test]
fn issue_15_gigachat_out_of_tokens_prints_the_advice_and_the_server_s_answer() {
    let stand_in = StandIn::start_as(
        Service::GigaChat {
            authorization_key: CANARY_KEY.to_owned(),
            scope: "GIGACHAT_API_PERS".to_owned(),
            token_lifetime: Duration::from_secs(1800),
        },
        Script::always(Reply::gigachat_error(402, "Payment Required")),
    );
    let home = tempfile::tempdir().unwrap();
    set(
        home.path(),
        "profiles.gigachat.base_url",
        &stand_in.base_url(),
    );
    set(
        home.path(),
        "profiles.gigachat.auth_url",
        &stand_in.auth_url(),
    );
    set(home.path(), "active_profile", "gigachat");
    let printed = draft(home.path(), CANARY_KEY, false);
    assert_eq!(printed.code, Some(5), "{}", printed.stderr);
    for words in [
        "В GigaChat закончились токены:",
        "Купите пакет токенов в личном кабинете developers.sber.ru",
        "Это техническая неудача, а не оценка вашей проблемы.",
        "Подробности: На счёте у провайдера закончилась квота (HTTP 402).",
        "Ответ сервера: Payment Required\n",
    ] {
        assert!(
            printed.stderr.contains(words),
            "{words}:\n{}",
            printed.stderr
        );
    }
    assert_eq!(
        printed.attempts().len(),
        1,
        "an empty allowance is not retried"
    );
    assert_eq!(printed.attempts()[0]["error_kind"], "insufficient_quota");
    assert!(
        printed.attempts()[0]["error_body"]
            .as_str()
            .unwrap()
            .contains("Payment Required")
    );
    printed.assert_no_secret(home.path(), CANARY_KEY);
    // The access token the stand-in issued is nowhere either.
    printed.assert_no_secret(home.path(), "standin-gigachat-token");
}

#[test]
fn issue_15_a_wrong_yandex_key_reports_auth_with_the_server_s_reason_in_json() {
    let stand_in = StandIn::start_as(
        Service::Yandex {
            api_key: "the-right-yandex-key-0123456789".to_owned(),
            folder_id: FOLDER.to_owned(),
        },
        Script::new(),
    );
    let home = tempfile::tempdir().unwrap();
    set(home.path(), "profiles.yandex.folder_id", FOLDER);
    set(
        home.path(),
        "profiles.yandex.base_url",
        &stand_in.base_url(),
    );
    set(home.path(), "active_profile", "yandex");
    let printed = draft(home.path(), CANARY_KEY, true);
    assert_eq!(printed.code, Some(5), "{}", printed.stderr);
    let report: Value = serde_json::from_str(&printed.stdout).unwrap();
    assert_eq!(report["outcome"], "failed");
    assert_eq!(report["reason"], "auth");
    assert_eq!(report["retryable"], false);
    assert_eq!(report["attempts"], 1);
    assert_eq!(report["server_reason"], "Unknown api key");
    assert_eq!(report["next_steps"][0], "store_api_key");
    assert!(
        printed.stderr.contains("Ответ сервера: Unknown api key"),
        "{}",
        printed.stderr
    );
    assert_eq!(stand_in.request_count(), 1);
    printed.assert_no_secret(home.path(), CANARY_KEY);
}

#[test]
fn issue_15_a_llama_cpp_context_too_small_says_which_flag_and_size() {
    let stand_in = StandIn::start(Script::always(Reply::json(
        400,
        json!({"error": {
            "code": 400,
            "message": "request (6834 tokens) exceeds the available context size (4096 tokens), try increasing it",
            "type": "exceed_context_size_error",
            "n_prompt_tokens": 6834,
            "n_ctx": 4096
        }}),
    )));
    let home = tempfile::tempdir().unwrap();
    set(
        home.path(),
        "profiles.llamacpp.base_url",
        &stand_in.base_url(),
    );
    set(home.path(), "active_profile", "llamacpp");
    let printed = draft(home.path(), "", false);
    assert_eq!(printed.code, Some(5), "{}", printed.stderr);
    for words in [
        "нужно 6834 токена, а сервер даёт 4096",
        "--ctx-size (коротко -c), например llama-server -m модель.gguf -c 8192",
        "Ответ сервера: request (6834 tokens) exceeds the available context size (4096 tokens)",
    ] {
        assert!(
            printed.stderr.contains(words),
            "{words}:\n{}",
            printed.stderr
        );
    }
    assert_eq!(printed.attempts().len(), 1);
    assert_eq!(printed.attempts()[0]["error_kind"], "context_too_small");
}
