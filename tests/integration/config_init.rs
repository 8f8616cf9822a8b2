//! Issue 15's configuration through the real binary: `config set` and `config show` of the
//! Yandex AI Studio and GigaChat fields, `config init` refusing without a terminal and setting
//! up a service in a pseudo-terminal, and a draft through each new kind against the stand-in
//! playing that service (the settings reach the wire: `Api-Key`, `x-folder-id`, the model's
//! folder, GigaChat's token exchange and forced function calling). The key never shows.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use zayavka_standin::{Reply, Script, Service, StandIn};

use crate::support::{run, zayavka};

const FOLDER: &str = "b1gaaaaaaaaaaaaaaaaa";
const CANARY_KEY: &str = "AQVN-canary-yandex-0123456789abcdefghij";
const CANARY_AUTHORIZATION_KEY: &str = "Y2FuYXJ5LWNsaWVudDpjYW5hcnktc2VjcmV0LTAxMjM0NTY3ODk=";

fn in_home(home: &Path) -> Command {
    let mut command = zayavka();
    command.env("ZAYAVKA_HOME", home);
    command
}

fn set(home: &Path, key: &str, value: &str) {
    let (output, _, stderr) = run(in_home(home).args(["config", "set", key, value]));
    assert!(output.status.success(), "config set {key}: {stderr}");
}

fn show_json(home: &Path) -> Value {
    let (output, stdout, stderr) = run(in_home(home).args(["config", "show", "--json"]));
    assert!(output.status.success(), "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

fn valid_draft() -> Value {
    zayavka_standin::lighting_draft()
}

fn draft(home: &Path, key: &str) -> (Option<i32>, String, String) {
    let (output, stdout, stderr) = run(in_home(home)
        .env("ZAYAVKA_API_KEY", key)
        .env("ZAYAVKA_LOG", "trace")
        .args(["draft", "--json"])
        .args([
            "--description",
            "В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами.",
        ])
        .args(["--subject", "common_area_premises_lighting"])
        .args(["--desired-actions", "Прошу: заменить лампы на лестнице"]));
    (output.status.code(), stdout, stderr)
}

fn assert_no_secret_anywhere(home: &Path, texts: &[&str], secret: &str) {
    for text in texts {
        assert!(!text.contains(secret), "{text}");
    }
    for file in crate::support::files_under(home) {
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

#[test]
fn issue_15_config_set_and_show_the_yandex_fields() {
    let home = tempfile::tempdir().unwrap();
    set(home.path(), "profiles.yandex.folder_id", FOLDER);
    set(home.path(), "active_profile", "yandex");
    let json = show_json(home.path());
    assert_eq!(json["provider"]["kind"], "yandex");
    assert_eq!(
        json["provider"]["model"],
        format!("gpt://{FOLDER}/yandexgpt/latest")
    );
    assert_eq!(json["provider"]["protocol"], "chat_completions");
    assert_eq!(
        json["provider"]["access"],
        json!({"service": "yandex", "folder_id": FOLDER, "auth_scheme": "api_key"})
    );
    assert_eq!(json["provider"]["pricing"]["currency"], "RUB");
    assert_eq!(json["provider"]["pricing"]["defaults_as_of"], "2026-12-02");
    let names: Vec<&str> = json["profiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|profile| profile["name"].as_str().unwrap())
        .collect();
    assert_eq!(&names[..2], ["gigachat", "yandex"]);

    let (_, text, _) = run(in_home(home.path()).args(["config", "show"]));
    assert!(text.contains("₽"), "{text}");
    assert!(
        text.contains("цены по умолчанию на 2 декабря 2026 г. — проверьте актуальные"),
        "{text}"
    );

    set(home.path(), "profiles.yandex.protocol", "responses");
    set(home.path(), "profiles.yandex.auth_scheme", "iam_token");
    set(
        home.path(),
        "profiles.yandex.model",
        "yandexgpt-lite/latest",
    );
    let json = show_json(home.path());
    assert_eq!(json["provider"]["protocol"], "responses");
    assert_eq!(json["provider"]["access"]["auth_scheme"], "iam_token");
    assert_eq!(
        json["provider"]["model"],
        format!("gpt://{FOLDER}/yandexgpt-lite/latest")
    );
    // A price read for another model is not claimed for this one.
    assert_eq!(json["provider"]["pricing"], Value::Null);

    let before = std::fs::read(home.path().join("config.toml")).unwrap();
    for (key, value, expected) in [
        (
            "profiles.yandex.folder_id",
            "b1g-short",
            "console.yandex.cloud",
        ),
        (
            "profiles.yandex.protocol",
            "grpc",
            "chat_completions или responses",
        ),
        ("profiles.yandex.auth_scheme", "bearer", "iam_token"),
    ] {
        let (output, _, stderr) = run(in_home(home.path()).args(["config", "set", key, value]));
        assert!(!output.status.success(), "{key}");
        assert!(stderr.contains(&format!("«{key}»")), "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
    }
    assert_eq!(
        std::fs::read(home.path().join("config.toml")).unwrap(),
        before
    );
}

#[test]
fn issue_15_config_set_and_show_the_gigachat_fields() {
    let home = tempfile::tempdir().unwrap();
    set(home.path(), "profiles.gigachat.scope", "GIGACHAT_API_B2B");
    set(home.path(), "active_profile", "gigachat");
    let json = show_json(home.path());
    assert_eq!(json["provider"]["model"], "GigaChat-2");
    assert_eq!(json["provider"]["schema_mode"], "function_call");
    assert_eq!(
        json["provider"]["access"],
        json!({
            "service": "gigachat",
            "scope": "GIGACHAT_API_B2B",
            "auth_url": "https://ngw.devices.sberbank.ru:9443/api/v2/oauth",
        })
    );
    let (_, text, _) = run(in_home(home.path()).args(["config", "show"]));
    assert!(text.contains("  Ключ авторизации: "), "{text}");

    // A field of another service is saved (profiles are built one field at a time) but the
    // profile then says plainly why it does not work.
    let (output, stdout, _) =
        run(in_home(home.path()).args(["config", "set", "profiles.gigachat.folder_id", FOLDER]));
    assert!(output.status.success());
    assert!(stdout.contains("Внимание"), "{stdout}");
    assert!(stdout.contains("«folder_id»"), "{stdout}");
    assert!(stdout.contains("GigaChat его не использует"), "{stdout}");
}

#[test]
fn issue_15_config_init_without_a_terminal_points_to_config_set() {
    let home = tempfile::tempdir().unwrap();
    let (output, stdout, stderr) = run(in_home(home.path())
        .args(["config", "init"])
        .stdin(Stdio::piped()));
    assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stderr.contains("zayavka config set"), "{stderr}");
    assert!(stderr.contains("key set --stdin"), "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(!home.path().join("config.toml").exists());
}

#[test]
#[cfg_attr(
    windows,
    ignore = "on Windows: types into a Unix pseudo-terminal (util-linux's `script`); tests/windows drives `config init` in the Windows console instead"
)]
fn issue_15_config_init_in_a_terminal_sets_up_a_local_server_and_checks_it() {
    let stand_in = StandIn::start(
        Script::new()
            .then(Reply::json(
                200,
                json!({"data": [{"id": "stand-in-model"}]}),
            ))
            .then(Reply::completion(&valid_draft().to_string()))
            .repeat_last(),
    );
    let home = tempfile::tempdir().unwrap();
    let command = format!("{} config init", env!("CARGO_BIN_EXE_zayavka"));
    // «Модель на этом компьютере», then llama.cpp, the stand-in's address, its model.
    let answers = format!("3\n3\n{}\nstand-in-model\n", stand_in.base_url());
    let mut child = crate::support::clear_zayavka_variables(&mut Command::new("script"))
        .args(["-qec", &command, "/dev/null"])
        .env("ZAYAVKA_HOME", home.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script (util-linux) runs the command in a pseudo-terminal");
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(answers.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let screen = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{screen}");
    for line in [
        "  1. GigaChat — ",
        "  2. Yandex AI Studio — ",
        "  3. Модель на этом компьютере (Ollama, LM Studio, llama.cpp)",
        "  7. Пока без модели",
        "Какая программа запускает модель?",
        "Готово: заявки можно составлять с моделью (llama.cpp).",
    ] {
        assert!(screen.contains(line), "{line}\n{screen}");
    }
    let json = show_json(home.path());
    assert_eq!(json["provider"]["kind"], "llamacpp");
    assert_eq!(json["provider"]["base_url"], stand_in.base_url());
    assert!(stand_in.request_count() >= 1);
}

#[test]
fn issue_15_a_yandex_draft_sends_the_api_key_the_folder_and_the_folder_s_model() {
    let stand_in = StandIn::start_as(
        Service::Yandex {
            api_key: CANARY_KEY.to_owned(),
            folder_id: FOLDER.to_owned(),
        },
        Script::always(Reply::completion(&valid_draft().to_string())),
    );
    let home = tempfile::tempdir().unwrap();
    set(home.path(), "profiles.yandex.folder_id", FOLDER);
    set(
        home.path(),
        "profiles.yandex.base_url",
        &stand_in.base_url(),
    );
    set(home.path(), "active_profile", "yandex");
    let (code, stdout, stderr) = draft(home.path(), CANARY_KEY);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["outcome"], "ready", "{stdout}");
    let request = stand_in.requests().pop().unwrap();
    assert_eq!(
        request.header("authorization"),
        Some(format!("Api-Key {CANARY_KEY}").as_str())
    );
    assert_eq!(request.header("x-folder-id"), Some(FOLDER));
    assert_eq!(
        request.json()["model"],
        format!("gpt://{FOLDER}/yandexgpt/latest")
    );
    assert_no_secret_anywhere(home.path(), &[&stdout, &stderr], CANARY_KEY);
}

#[test]
fn issue_15_a_gigachat_draft_exchanges_the_authorization_key_and_calls_the_function() {
    let schema_name = zayavka_core::request_draft_schema().name;
    let stand_in = StandIn::start_as(
        Service::GigaChat {
            authorization_key: CANARY_AUTHORIZATION_KEY.to_owned(),
            scope: "GIGACHAT_API_PERS".to_owned(),
            token_lifetime: std::time::Duration::from_secs(1800),
        },
        Script::always(Reply::function_call(schema_name, valid_draft())),
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
    let (code, stdout, stderr) = draft(home.path(), CANARY_AUTHORIZATION_KEY);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["outcome"], "ready", "{stdout}");
    assert_eq!(stand_in.token_exchanges(), 1);
    let chat = stand_in
        .requests()
        .into_iter()
        .find(|request| request.json().get("function_call").is_some())
        .expect("a chat request with forced function calling");
    assert_eq!(chat.json()["function_call"], json!({"name": schema_name}));
    assert_eq!(chat.json()["model"], "GigaChat-2");
    assert_no_secret_anywhere(home.path(), &[&stdout, &stderr], CANARY_AUTHORIZATION_KEY);
}
