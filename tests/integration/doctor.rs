//! `zayavka doctor`: what it checks and how it says so.

use serde_json::{Value, json};
use zayavka_standin::{Reply, Script, StandIn};

use crate::support::{run, zayavka};

fn doctor(home: &std::path::Path, base_url: Option<&str>) -> (Option<i32>, Vec<Value>) {
    let mut command = zayavka();
    command.env("ZAYAVKA_HOME", home).args(["doctor", "--json"]);
    if let Some(base_url) = base_url {
        command
            .env("ZAYAVKA_BASE_URL", base_url)
            .env("ZAYAVKA_MODEL", "stand-in-model")
            .env("ZAYAVKA_API_KEY", "sk-test-doctor-key");
    }
    let (output, stdout, stderr) = run(&mut command);
    let checks: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    (output.status.code(), checks.as_array().unwrap().clone())
}

fn status_of<'a>(checks: &'a [Value], name: &str) -> &'a str {
    checks
        .iter()
        .find(|check| check["name"] == name)
        .unwrap_or_else(|| panic!("no check {name}: {checks:?}"))["status"]
        .as_str()
        .unwrap()
}

#[test]
fn a_fresh_install_is_healthy_and_points_to_offline_drafting() {
    let home = tempfile::tempdir().unwrap();
    let (code, checks) = doctor(home.path(), None);
    assert_eq!(code, Some(0));
    assert_eq!(status_of(&checks, "data_folder"), "ok");
    assert_eq!(status_of(&checks, "config"), "ok");
    assert_eq!(status_of(&checks, "provider"), "warning");
    assert_eq!(status_of(&checks, "legal_modules_valid"), "ok");
    let provider = checks.iter().find(|c| c["name"] == "provider").unwrap();
    assert_eq!(
        provider["next_steps"],
        json!(["configure_provider", "draft_without_model"])
    );
    assert!(!provider["message"].as_str().unwrap().contains("zayavka"));
    // The text output words the next steps as commands to run.
    let mut command = zayavka();
    command.env("ZAYAVKA_HOME", home.path()).arg("doctor");
    let (_, stdout, _) = run(&mut command);
    assert!(
        stdout.contains("zayavka config set active_profile"),
        "{stdout}"
    );
    assert!(stdout.contains("zayavka draft --offline"), "{stdout}");
}

#[test]
fn a_reachable_provider_is_reported_with_its_status_and_sends_the_key() {
    let stand_in = StandIn::start(Script::always(Reply::json(200, json!({"data": []}))));
    let home = tempfile::tempdir().unwrap();
    let (code, checks) = doctor(home.path(), Some(&stand_in.base_url()));
    assert_eq!(code, Some(0), "{checks:?}");
    assert_eq!(status_of(&checks, "provider"), "ok");
    assert_eq!(status_of(&checks, "api_key"), "ok");
    let request = &stand_in.requests()[0];
    assert_eq!(request.method, "GET");
    assert_eq!(request.path, "/v1/models");
    assert_eq!(
        request.header("authorization"),
        Some("Bearer sk-test-doctor-key")
    );
}

#[test]
fn an_unreachable_provider_is_a_problem_with_advice() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let home = tempfile::tempdir().unwrap();
    let (code, checks) = doctor(home.path(), Some(&format!("http://127.0.0.1:{port}/v1")));
    assert_eq!(code, Some(1));
    assert_eq!(status_of(&checks, "provider"), "problem");
    let provider = checks.iter().find(|c| c["name"] == "provider").unwrap();
    let message = provider["message"].as_str().unwrap();
    assert!(message.contains("не отвечает"), "{message}");
    assert!(
        provider["next_steps"]
            .as_array()
            .unwrap()
            .contains(&json!("draft_without_model"))
    );
}

#[test]
fn a_model_list_answered_with_404_or_400_is_a_problem() {
    for status in [404, 400] {
        let stand_in = StandIn::start(Script::always(Reply::json(
            status,
            json!({"error": {"message": "not found"}}),
        )));
        let home = tempfile::tempdir().unwrap();
        let (code, checks) = doctor(home.path(), Some(&stand_in.base_url()));
        assert_eq!(code, Some(1), "{status}: {checks:?}");
        assert_eq!(status_of(&checks, "provider"), "problem", "{status}");
    }
}

#[test]
fn doctor_recommends_the_schema_mode_the_server_takes() {
    // The model list answers, the strict schema is refused the way llama-cpp-python refuses
    // it, and the plain JSON mode is taken.
    let models = Reply::json(200, json!({"data": []}));
    let accepted = Reply::json(
        200,
        json!({"choices": [{"message": {"role": "assistant", "content": "{}"},
                            "finish_reason": "stop"}]}),
    );
    let stand_in = StandIn::start(
        Script::new()
            .then(models)
            .then(Reply::llama_cpp_python_format_refusal())
            .then(accepted),
    );
    let home = tempfile::tempdir().unwrap();
    let mut command = zayavka();
    command
        .env("ZAYAVKA_HOME", home.path())
        .env("ZAYAVKA_BASE_URL", stand_in.base_url())
        .env("ZAYAVKA_MODEL", "stand-in-model")
        .env("ZAYAVKA_SCHEMA_MODE", "json_schema")
        .env("ZAYAVKA_API_KEY", "sk-test-doctor-key")
        .args(["doctor", "--json"]);
    let (output, stdout, stderr) = run(&mut command);
    let checks: Vec<Value> =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    assert_eq!(output.status.code(), Some(1), "{checks:?}");
    let check = checks.iter().find(|c| c["name"] == "schema_mode").unwrap();
    assert_eq!(check["status"], "problem");
    assert_eq!(check["next_steps"], json!(["switch_schema_mode"]));
    let message = check["message"].as_str().unwrap();
    assert!(message.contains("json_object"), "{message}");
    let requests = stand_in.requests();
    assert_eq!(requests.len(), 3);
    assert!(requests[1].body.contains("json_schema"));
}

#[test]
fn a_provider_that_refuses_the_key_is_a_problem() {
    let stand_in = StandIn::start(Script::always(Reply::json(
        401,
        json!({"error": {"message": "bad key", "code": "invalid_api_key"}}),
    )));
    let home = tempfile::tempdir().unwrap();
    let (code, checks) = doctor(home.path(), Some(&stand_in.base_url()));
    assert_eq!(code, Some(1));
    assert_eq!(status_of(&checks, "provider"), "problem");
}

mod services {
    //! Issue 15: `doctor` checks GigaChat and Yandex AI Studio end to end — the key, GigaChat's
    //! token exchange, Yandex's folder, one tiny structured call — and says what to change.

    use std::path::Path;

    use serde_json::Value;
    use zayavka_standin::{Reply, Script, Service, StandIn};

    use super::status_of;
    use crate::support::{run, zayavka};

    const AUTHORIZATION_KEY: &str = "ZG9jdG9yLWNsaWVudDpkb2N0b3Itc2VjcmV0LTAwMQ==";
    const YANDEX_KEY: &str = "AQVN-doctor-yandex-key-0123456789abcdef";
    const FOLDER: &str = "b1gdoctorfolder00001";
    const OTHER_FOLDER: &str = "b1gdoctorfolder00002";

    fn set(home: &Path, key: &str, value: &str) {
        let (output, _, stderr) = run(zayavka()
            .env("ZAYAVKA_HOME", home)
            .args(["config", "set", key, value]));
        assert!(output.status.success(), "config set {key}: {stderr}");
    }

    fn doctor(home: &Path, key: &str) -> (Vec<Value>, String) {
        let (_, stdout, stderr) = run(zayavka()
            .env("ZAYAVKA_HOME", home)
            .env("ZAYAVKA_API_KEY", key)
            .args(["doctor", "--json"]));
        let checks: Value =
            serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
        let (_, text, _) = run(zayavka()
            .env("ZAYAVKA_HOME", home)
            .env("ZAYAVKA_API_KEY", key)
            .arg("doctor"));
        assert!(!stdout.contains(key) && !text.contains(key) && !stderr.contains(key));
        (checks.as_array().unwrap().clone(), text)
    }

    fn message<'a>(checks: &'a [Value], name: &str) -> &'a str {
        checks.iter().find(|check| check["name"] == name).unwrap()["message"]
            .as_str()
            .unwrap()
    }

    fn gigachat_home(stand_in: &StandIn) -> tempfile::TempDir {
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
        home
    }

    fn gigachat() -> StandIn {
        let schema = zayavka_core::request_draft_schema().name;
        StandIn::start_as(
            Service::GigaChat {
                authorization_key: AUTHORIZATION_KEY.to_owned(),
                scope: "GIGACHAT_API_PERS".to_owned(),
                token_lifetime: std::time::Duration::from_secs(1800),
            },
            Script::always(Reply::function_call(
                schema,
                serde_json::json!({"ok": true}),
            )),
        )
    }

    #[test]
    fn gigachat_exchanges_the_key_once_and_takes_the_function_call() {
        let stand_in = gigachat();
        let home = gigachat_home(&stand_in);
        let (checks, text) = doctor(home.path(), AUTHORIZATION_KEY);
        for name in ["provider", "api_key", "token_exchange", "schema_mode"] {
            assert_eq!(status_of(&checks, name), "ok", "{name}: {checks:?}");
        }
        assert_eq!(
            stand_in.token_exchanges(),
            2,
            "one token for each whole check: doctor ran as JSON and as text"
        );
        assert!(text.contains("GigaChat принял ключ авторизации"), "{text}");
    }

    #[test]
    fn a_refused_gigachat_key_says_where_to_get_a_new_one_and_goes_no_further() {
        let stand_in = gigachat();
        let home = gigachat_home(&stand_in);
        let wrong = "d3JvbmctZG9jdG9yOndyb25nLXNlY3JldA==";
        let (checks, text) = doctor(home.path(), wrong);
        assert_eq!(status_of(&checks, "token_exchange"), "problem");
        assert!(
            message(&checks, "token_exchange").contains("developers.sber.ru"),
            "{checks:?}"
        );
        assert_eq!(status_of(&checks, "provider"), "warning");
        assert!(checks.iter().all(|check| check["name"] != "schema_mode"));
        let chats = stand_in
            .requests()
            .iter()
            .filter(|request| !request.path.contains("oauth"))
            .count();
        assert_eq!(chats, 0, "nothing is sent to the API without a token");
        assert!(text.contains("zayavka key set"), "{text}");
    }

    fn yandex() -> StandIn {
        StandIn::start_as(
            Service::Yandex {
                api_key: YANDEX_KEY.to_owned(),
                folder_id: FOLDER.to_owned(),
            },
            Script::always(Reply::completion("{\"ok\": true}")),
        )
    }

    fn yandex_home(stand_in: &StandIn, folder: &str) -> tempfile::TempDir {
        let home = tempfile::tempdir().unwrap();
        set(
            home.path(),
            "profiles.yandex.base_url",
            &stand_in.base_url(),
        );
        set(home.path(), "profiles.yandex.folder_id", folder);
        set(home.path(), "active_profile", "yandex");
        home
    }

    #[test]
    fn yandex_is_checked_by_one_structured_call_to_the_folders_model() {
        let stand_in = yandex();
        let home = yandex_home(&stand_in, FOLDER);
        let (checks, _) = doctor(home.path(), YANDEX_KEY);
        for name in ["provider", "api_key", "schema_mode"] {
            assert_eq!(status_of(&checks, name), "ok", "{name}: {checks:?}");
        }
        assert!(message(&checks, "provider").contains(FOLDER), "{checks:?}");
        let requests = stand_in.requests();
        assert!(
            requests.iter().all(|request| request.method == "POST"),
            "no model list"
        );
        assert_eq!(
            requests[0].json()["model"],
            format!("gpt://{FOLDER}/yandexgpt/latest")
        );
        assert_eq!(
            requests[0].header("authorization"),
            Some(&*format!("Api-Key {YANDEX_KEY}"))
        );
        assert_eq!(requests[0].header("x-folder-id"), Some(FOLDER));
    }

    #[test]
    fn a_wrong_yandex_folder_names_the_folder_field() {
        let stand_in = yandex();
        let home = yandex_home(&stand_in, OTHER_FOLDER);
        let (checks, _) = doctor(home.path(), YANDEX_KEY);
        assert_eq!(status_of(&checks, "provider"), "problem", "{checks:?}");
        let said = message(&checks, "provider");
        assert!(
            said.contains("folder_id") || said.contains("каталог"),
            "{said}"
        );
        assert!(checks.iter().all(|check| check["name"] != "schema_mode"));
    }

    #[test]
    fn a_wrong_yandex_key_is_a_problem_with_where_to_get_one() {
        let stand_in = yandex();
        let home = yandex_home(&stand_in, FOLDER);
        let (checks, _) = doctor(home.path(), "AQVN-not-the-right-key-000000000000000");
        assert_eq!(status_of(&checks, "provider"), "problem", "{checks:?}");
        assert!(
            message(&checks, "provider").contains("console.yandex.cloud"),
            "{checks:?}"
        );
    }
}
