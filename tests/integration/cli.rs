//! The command-line contract: usage errors, unreadable files, and the two output forms.

use serde_json::{Value, json};

use crate::support::{run, zayavka};

/// Runs `zayavka assemble` on an input and a response written to scratch files.
fn assemble(input: &Value, response: &Value, json: bool) -> (std::process::Output, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let input_file = dir.path().join("input.json");
    let response_file = dir.path().join("response.json");
    std::fs::write(&input_file, input.to_string()).unwrap();
    std::fs::write(&response_file, response.to_string()).unwrap();
    let mut command = zayavka();
    command.arg("assemble").args(json.then_some("--json"));
    run(command
        .arg("--input")
        .arg(&input_file)
        .arg("--response")
        .arg(&response_file))
}

fn lighting() -> (Value, Value) {
    let input = json!({
        "description": "В подъезде неделю не горит свет на лестнице.",
        "desired_actions": "заменить лампы",
    });
    let response = json!({
        "outcome": "draft",
        "title": "Не горит свет на лестнице",
        "problem": "На лестнице в подъезде неделю не горит свет",
        "circumstances": null, "impact": null, "verification": null,
        "subject": {"kind": "common_area_premises_lighting", "evidence": [
            {"source_field": "description", "quote": "неделю не горит свет"}]},
        "warnings": ["Уточните номер подъезда."]
    });
    (input, response)
}

#[test]
fn text_output_puts_the_request_on_stdout_and_notes_on_stderr() {
    let (input, response) = lighting();
    let (output, stdout, stderr) = assemble(&input, &response, false);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stdout.starts_with(
        "Не горит свет на лестнице\n\nНа лестнице в подъезде неделю не горит свет.\n\n"
    ));
    assert!(stdout.ends_with("Прошу:\n1. Заменить лампы.\n"), "{stdout}");
    assert!(stderr.contains("Уточните номер подъезда."));
    assert!(stderr.contains("вы не выбрали, к чему относится проблема"));
}

#[test]
fn json_output_has_exactly_the_documented_keys() {
    let (input, response) = lighting();
    let (output, stdout, _) = assemble(&input, &response, true);
    assert_eq!(output.status.code(), Some(0));
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let keys: Vec<&str> = report
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        ["outcome", "reason", "request", "errors", "next_steps"]
    );
    let request_keys: Vec<&str> = report["request"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        request_keys,
        [
            "title",
            "title_source",
            "body",
            "items",
            "subject_module",
            "legal_omission",
            "warnings",
            "sections",
            "item",
            "faithfulness"
        ]
    );
    assert_eq!(report["request"]["legal_omission"], "not_confirmed");
    assert_eq!(report["next_steps"], json!(["confirm_subject"]));
    // The body is exactly its sections, then the request block: the front ends read the
    // sections for provenance and never parse the body.
    let request = &report["request"];
    let sections = request["sections"].as_array().unwrap();
    assert_eq!(sections[0]["kind"], "problem");
    assert_eq!(sections[0]["source"], "model");
    assert_eq!(sections[0]["module"], Value::Null);
    let legal: Vec<&Value> = sections.iter().filter(|s| s["kind"] == "legal").collect();
    assert_eq!(legal.len(), 2);
    assert!(
        legal
            .iter()
            .all(|s| s["source"] == "legal_catalogue" && s["module"] == "common")
    );
    assert_eq!(
        request["item"],
        json!({"text": "Заменить лампы.", "source": "resident_request"})
    );
    let mut rendered: Vec<String> = sections
        .iter()
        .map(|s| s["text"].as_str().unwrap().to_owned())
        .collect();
    rendered.push("Прошу:\n1. Заменить лампы.".to_owned());
    assert_eq!(request["body"].as_str().unwrap(), rendered.join("\n\n"));
}

#[test]
fn invalid_input_names_each_field_in_russian_and_exits_2() {
    let (_, response) = lighting();
    let input = json!({"description": "          ", "location": "л".repeat(121), "extra": 1});
    let (output, stdout, stderr) = assemble(&input, &response, false);
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("«Описание проблемы» слишком короткое"),
        "{stderr}"
    );
    assert!(stderr.contains("«Место» слишком длинное"), "{stderr}");
    assert!(stderr.contains("Поле «extra» не предусмотрено"), "{stderr}");
}

#[test]
fn a_missing_file_is_a_usage_error_with_a_russian_message() {
    let (output, stdout, stderr) = run(zayavka()
        .arg("assemble")
        .arg("--input")
        .arg("/nonexistent/input.json")
        .arg("--response")
        .arg("/nonexistent/response.json"));
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("не удалось прочитать файл с данными заявки"),
        "{stderr}"
    );
}

#[test]
fn missing_arguments_are_a_usage_error() {
    let (output, _, stderr) = run(zayavka().arg("assemble"));
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr.contains("--input"), "{stderr}");
}

/// Regression (issue 14): an input with a name given twice was drafted from whichever value
/// came last. `draft --input` and `assemble --input` refuse it, naming the field.
#[test]
fn issue_14_an_input_with_a_name_given_twice_is_refused_naming_it() {
    let home = tempfile::tempdir().unwrap();
    let input = home.path().join("input.json");
    std::fs::write(
        &input,
        r#"{"description": "В подъезде неделю не горит свет на лестнице",
            "description": "Течёт крыша над пятым этажом, вода в подъезде"}"#,
    )
    .unwrap();
    let message = "Поле «Описание проблемы» (description) указано в данных несколько раз, и \
                   неясно, какое значение верное. Оставьте его один раз — с тем текстом, \
                   который нужен.";
    let (output, stdout, stderr) = run(zayavka()
        .env("ZAYAVKA_HOME", home.path())
        .args(["draft", "--offline", "--input"])
        .arg(&input));
    assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stderr.contains(message), "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");

    let response = home.path().join("response.json");
    std::fs::write(&response, lighting().1.to_string()).unwrap();
    let (output, stdout, stderr) = run(zayavka()
        .args(["assemble", "--json", "--input"])
        .arg(&input)
        .arg("--response")
        .arg(&response));
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["outcome"], "invalid_input");
    assert_eq!(report["errors"][0]["field"], "description");
    assert_eq!(report["errors"][0]["code"], "duplicate_field");
    assert_eq!(report["errors"][0]["message"], message);
}

/// Regression (issue 14): a request typed in Latin letters passed silently. It is drafted, with
/// a warning beside the result.
#[test]
fn issue_14_a_request_in_latin_letters_is_drafted_with_a_warning() {
    let home = tempfile::tempdir().unwrap();
    let warning = "Поле «Описание проблемы» написано не русскими буквами. Заявку в управляющую \
                   организацию подают на русском языке: перепишите его кириллицей (например, \
                   «Заменить лампы», а не «Zamenit lampy») и составьте заявку заново.";
    let draft = |json: bool| {
        let mut command = zayavka();
        command.env("ZAYAVKA_HOME", home.path()).args([
            "draft",
            "--offline",
            "--description",
            "Zamenit lampy na lestnice mezhdu tretim i chetvertym etazhami",
        ]);
        if json {
            command.arg("--json");
        }
        run(&mut command)
    };
    let (output, stdout, stderr) = draft(false);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("Zamenit lampy"), "{stdout}");
    assert!(
        stderr.contains(&format!("Обратите внимание: {warning}")),
        "{stderr}"
    );
    let (output, stdout, _) = draft(true);
    assert_eq!(output.status.code(), Some(0));
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let warnings = report["request"]["warnings"].as_array().unwrap();
    assert_eq!(warnings.last().unwrap(), warning);
}
