//! Russian everywhere a resident reads on the command line, regression tests for issue 6
//! (item 7): clap's own help and errors, and files read with a size cap, a byte order mark
//! and a clear refusal of folders and devices.

use crate::support::{run, zayavka};

/// clap's own English that must never reach a resident.
const CLAP_ENGLISH: [&str; 10] = [
    "Usage:",
    "Options:",
    "Commands:",
    "Arguments:",
    "error:",
    "Print help",
    "Print version",
    "unexpected argument",
    "For more information",
    "[OPTIONS]",
];

fn assert_no_clap_english(text: &str) {
    for word in CLAP_ENGLISH {
        assert!(!text.contains(word), "«{word}» in:\n{text}");
    }
    assert!(!text.contains(".."), "a doubled full stop in:\n{text}");
}

/// Runs `zayavka` with the arguments and checks that help went to stdout with exit code 0.
fn help(args: &[&str]) -> String {
    let (output, stdout, stderr) = run(zayavka().args(args));
    assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
    assert!(stderr.is_empty(), "{args:?}: {stderr}");
    assert_no_clap_english(&stdout);
    assert!(stdout.contains("Использование: zayavka"), "{stdout}");
    assert!(stdout.contains("-h, --help  "), "{stdout}");
    assert!(stdout.contains("Показать эту справку"), "{stdout}");
    stdout
}

/// Runs `zayavka` with the arguments and checks that a Russian usage error went to stderr with
/// exit code 2 and a pointer to the help (or the help itself).
fn usage_error(args: &[&str]) -> String {
    let (output, stdout, stderr) = run(zayavka().args(args));
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stdout.is_empty(), "{args:?}: {stdout}");
    assert_no_clap_english(&stderr);
    assert!(stderr.starts_with("zayavka: "), "{stderr}");
    assert!(
        stderr.contains("Справка: zayavka") || stderr.contains("Использование: zayavka"),
        "{stderr}"
    );
    stderr
}

#[test]
fn issue_6_top_level_help_is_in_russian() {
    let text = help(&["--help"]);
    assert!(text.contains("Команды:\n  draft"), "{text}");
    assert!(text.contains("Параметры:"), "{text}");
    assert!(text.contains("Показать версию программы"), "{text}");
    assert!(text.contains("help      Показать справку"), "{text}");
    assert_eq!(help(&["-h"]), text);
    assert_eq!(help(&["help"]), text);
}

#[test]
fn issue_6_draft_help_is_in_russian_with_the_real_limits() {
    let text = help(&["draft", "--help"]);
    assert!(
        text.contains("Использование: zayavka draft [ПАРАМЕТРЫ]"),
        "{text}"
    );
    assert!(text.contains("(10–2000 символов)"), "{text}");
    assert!(text.contains("до 120 символов"), "{text}");
    assert!(
        text.contains("К чему это приводит, до 500 символов"),
        "{text}"
    );
    assert!(
        text.contains("Что вы просите сделать, до 500 символов"),
        "{text}"
    );
    assert!(text.contains("не длиннее 2500 символов"), "{text}");
    assert_eq!(help(&["help", "draft"]), text);
}

#[test]
fn issue_6_key_help_is_in_russian() {
    let text = help(&["key", "--help"]);
    assert!(
        text.contains("Использование: zayavka key <КОМАНДА>"),
        "{text}"
    );
    assert!(text.contains("Команды:\n  set"), "{text}");
    let text = help(&["key", "set", "--help"]);
    assert!(text.contains("--stdin"), "{text}");
    let text = help(&["config", "set", "--help"]);
    assert!(text.contains("Аргументы:"), "{text}");
    assert!(text.contains("<НАСТРОЙКА>"), "{text}");
}

#[test]
fn issue_6_version_is_printed_on_stdout() {
    let (output, stdout, stderr) = run(zayavka().arg("--version"));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stdout.starts_with("zayavka "), "{stdout}");
}

#[test]
fn issue_6_a_wrong_flag_is_explained_with_a_suggestion() {
    let text = usage_error(&["draft", "--offline", "--description", "Течёт кран", "--jsn"]);
    assert!(
        text.starts_with("zayavka: неизвестный параметр «--jsn».\n"),
        "{text}"
    );
    assert!(text.contains("Возможно, вы имели в виду --json?"), "{text}");
    assert!(
        text.contains("\nИспользование: zayavka draft [ПАРАМЕТРЫ]"),
        "{text}"
    );
    assert!(text.ends_with("Справка: zayavka draft --help\n"), "{text}");
}

#[test]
fn issue_6_a_missing_required_argument_is_named() {
    let text = usage_error(&["assemble", "--input", "a.json"]);
    assert!(
        text.starts_with(
            "zayavka: не хватает обязательного параметра --response <RESPONSE.json>.\n\
             Добавьте его в команду.\n"
        ),
        "{text}"
    );
    let text = usage_error(&["replay"]);
    assert!(text.contains("аргумента <ЧЕРНОВИК>"), "{text}");
}

#[test]
fn issue_6_an_invalid_value_carries_the_reason_once() {
    let text = usage_error(&[
        "draft",
        "--offline",
        "--description",
        "Течёт кран",
        "--attempts",
        "0",
    ]);
    assert!(
        text.starts_with("zayavka: недопустимое значение «0» для --attempts.\n"),
        "{text}"
    );
    let text = usage_error(&["draft", "--description", "Течёт кран", "--subject", "roof"]);
    assert!(
        text.contains("\nНеизвестный вид проблемы; допустимы: "),
        "{text}"
    );
    assert!(text.contains("common_area_roof, "), "{text}");
}

#[test]
fn issue_6_an_unknown_command_suggests_the_right_one() {
    let text = usage_error(&["asemble"]);
    assert!(
        text.starts_with("zayavka: неизвестная команда «asemble».\n"),
        "{text}"
    );
    assert!(
        text.contains("Возможно, вы имели в виду assemble?"),
        "{text}"
    );
    assert!(text.ends_with("Справка: zayavka --help\n"), "{text}");
}

#[test]
fn issue_6_no_command_shows_the_help_on_stderr() {
    let text = usage_error(&[]);
    assert!(text.starts_with("zayavka: не указана команда."), "{text}");
    assert!(text.contains("Команды:\n  draft"), "{text}");
}

#[test]
fn issue_6_words_of_an_unquoted_text_are_explained() {
    let text = usage_error(&[
        "draft",
        "--offline",
        "--description",
        "Течёт",
        "кран",
        "на",
        "кухне",
    ]);
    assert!(
        text.starts_with("zayavka: лишний аргумент «кран».\n"),
        "{text}"
    );
    assert!(text.contains("заключите весь текст в кавычки"), "{text}");
}

#[test]
fn issue_6_a_rejected_base_url_never_echoes_a_key() {
    let text = usage_error(&[
        "draft",
        "--description",
        "Течёт кран",
        "--base-url",
        "https://user:sk-canary-123@example.com/v1?api_key=sk-canary-456",
    ]);
    assert!(!text.contains("sk-canary"), "{text}");
    assert!(text.contains("https://***@example.com/v1?***"), "{text}");
}

#[test]
fn issue_6_a_notepad_input_file_with_a_bom_is_read() {
    use zayavka_engine::{FileRole, read_text_file};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("input.json");
    let json = "{\"description\": \"В подъезде неделю не горит свет на лестнице.\"}";
    std::fs::write(&path, [&[0xEF, 0xBB, 0xBF][..], json.as_bytes()].concat()).unwrap();
    let text = read_text_file(&path, FileRole::Input, FileRole::Input.max_bytes()).unwrap();
    let raw: zayavka_core::RawInput = serde_json::from_str(&text).unwrap();
    assert!(zayavka_core::ResidentInput::parse(&raw).is_ok());
}

#[cfg(unix)]
#[test]
fn issue_6_a_device_as_input_is_refused_at_once() {
    use zayavka_engine::{FileRole, read_text_file};
    let error = read_text_file(
        std::path::Path::new("/dev/zero"),
        FileRole::Input,
        FileRole::Input.max_bytes(),
    )
    .unwrap_err();
    assert_eq!(error.code(), "not_regular_file");
    assert!(error.message_ru().contains("это устройство"), "{error}");
}

/// Every Russian message that lists model services lists them in the setup's order — the ones a
/// resident in Russia can pay for first — and the advice for a draft with no service starts
/// with the setup itself (issue 31).
#[test]
fn issue_31_messages_list_services_in_the_setup_s_order_and_offer_the_setup_first() {
    // The setup's order is the engine's list of kinds (its own test pins it).
    let order: Vec<&str> = zayavka_engine::ProviderKind::ALL
        .iter()
        .map(|kind| kind.as_str())
        .collect();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    let mut folders = vec![
        root.join("crates"),
        root.join("src-tauri/src"),
        root.join("ui/js"),
    ];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path
                .extension()
                .is_some_and(|ext| ext == "rs" || ext == "js")
            {
                files.push(path);
            }
        }
    }
    let mut checked = 0;
    let mut wrong = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        // A Rust string continued with `\` at the end of a line is one message.
        let joined = text.replace("\\\n", " ");
        for line in joined.lines() {
            if !line
                .chars()
                .any(|c| ('а'..='я').contains(&c.to_lowercase().next().unwrap()))
            {
                continue;
            }
            let words: Vec<&str> = line
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .collect();
            let mut seen: Vec<usize> = Vec::new();
            for word in words {
                if let Some(index) = order.iter().position(|name| *name == word)
                    && !seen.contains(&index)
                {
                    seen.push(index);
                }
            }
            if seen.len() >= 2 {
                checked += 1;
                if !seen.is_sorted() {
                    wrong.push(format!("{}: {}", path.display(), line.trim()));
                }
            }
        }
    }
    assert!(checked >= 3, "the check found only {checked} such messages");
    assert!(
        wrong.is_empty(),
        "services out of the setup's order:\n{}",
        wrong.join("\n")
    );

    // A draft with no service set up: the first advice is the setup.
    let home = tempfile::tempdir().unwrap();
    let (output, stdout, stderr) = run(zayavka().env("ZAYAVKA_HOME", home.path()).args([
        "draft",
        "--description",
        "В подъезде неделю не горит свет на лестнице.",
    ]));
    assert_eq!(output.status.code(), Some(5), "{stdout}{stderr}");
    let all = format!("{stdout}{stderr}");
    let setup = all.find("zayavka config init").expect(&all);
    let by_hand = all.find("active_profile").expect(&all);
    assert!(setup < by_hand, "{all}");
    assert!(all.contains("gigachat, yandex, ollama"), "{all}");
    assert!(!all.contains("openai, openrouter, ollama"), "{all}");
}
