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
