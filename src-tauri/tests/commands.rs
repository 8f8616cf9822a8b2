//! Every command of the desktop app against a temporary `ZAYAVKA_HOME` and the stand-in
//! provider on 127.0.0.1: what the page receives, as docs/desktop-ipc.md describes it.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use zayavka_desktop::commands::{self, CheckOptions, ListFilter, SaveFormat};
use zayavka_desktop::error::ErrorKind;
use zayavka_desktop::state::{AppState, Environment};
use zayavka_desktop::view::ProgressState;
use zayavka_engine::{EnvironmentOverrides, MemoryStore, Paths, RawInput, set_config_value};

use zayavka_standin::{Reply, Script, Service, StandIn};

const LIGHTING: &str = "common_area_premises_lighting";
const DESCRIPTION: &str = "В подъезде неделю не горит свет на лестнице между третьим и \
                           четвёртым этажами.";
const CANARY_KEY: &str = "sk-canary-desktop-0123456789abcdefghijklmnop";

fn valid_draft() -> Value {
    json!({
        "outcome": "draft",
        "title": "Не работает освещение на лестнице",
        "problem": "На лестнице между третьим и четвёртым этажами неделю не горит свет",
        "circumstances": null,
        "impact": "В темноте на лестнице плохо видно ступени",
        "verification": "Причину нужно установить при осмотре",
        "subject": {"kind": LIGHTING, "evidence": [
            {"source_field": "description", "quote": "неделю не горит свет на лестнице"}
        ]},
        "warnings": []
    })
}

fn ok() -> Reply {
    Reply::completion(&valid_draft().to_string())
}

/// An installation in a temporary folder whose provider is the stand-in.
struct App {
    home: tempfile::TempDir,
    state: AppState,
    stand_in: Option<StandIn>,
}

impl App {
    fn with(script: Script) -> App {
        let stand_in = StandIn::start(script);
        let app = App::without_provider();
        app.set("profiles.custom.kind", "custom");
        app.set("profiles.custom.base_url", &stand_in.base_url());
        app.set("profiles.custom.model", "stand-in-model");
        app.set("profiles.custom.attempts", "1");
        app.set("active_profile", "custom");
        App {
            stand_in: Some(stand_in),
            ..app
        }
    }

    fn without_provider() -> App {
        App::with_secrets(MemoryStore::new())
    }

    fn with_secrets(secrets: MemoryStore) -> App {
        let home = tempfile::tempdir().unwrap();
        let state = AppState::new(
            Paths::under(home.path()),
            Arc::new(secrets),
            Environment::Fixed(EnvironmentOverrides::default()),
        );
        App {
            home,
            state,
            stand_in: None,
        }
    }

    fn set(&self, key: &str, value: &str) {
        set_config_value(&self.state.engine.paths().config_file(), key, value).unwrap();
    }

    fn requests(&self) -> usize {
        self.stand_in.as_ref().map_or(0, StandIn::request_count)
    }

    fn draft(&self, input: RawInput) -> Value {
        let result = commands::draft_run(&self.state, input, "task-1", false, &|_| {}).unwrap();
        serde_json::to_value(result).unwrap()
    }
}

fn typed(subject: Option<&str>) -> RawInput {
    RawInput {
        description: Some(DESCRIPTION.to_owned()),
        location: None,
        consequences: None,
        desired_actions: Some("Прошу: заменить лампы на лестнице".to_owned()),
        confirmed_subject: subject.map(str::to_owned),
    }
}

fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

fn error_json(error: zayavka_desktop::error::CommandError) -> Value {
    serde_json::to_value(error).unwrap()
}

#[test]
fn a_confirmed_subject_gives_a_request_with_its_legal_module() {
    let app = App::with(Script::always(ok()));
    let progress = Mutex::new(Vec::new());
    let result = commands::draft_run(&app.state, typed(Some(LIGHTING)), "t", false, &|p| {
        progress.lock().unwrap().push(p);
    })
    .unwrap();
    let result = serde_json::to_value(result).unwrap();
    assert_eq!(
        keys(&result),
        [
            "attempts",
            "draft_id",
            "errors",
            "hints",
            "message",
            "model_used",
            "next_steps",
            "outcome",
            "reason",
            "request",
            "retryable"
        ]
    );
    assert_eq!(result["outcome"], "ready");
    assert_eq!(result["model_used"], true);
    assert_eq!(result["next_steps"], json!([]));
    let request = &result["request"];
    assert_eq!(request["subject_module"], LIGHTING);
    assert_eq!(request["legal_omission"], Value::Null);
    assert_eq!(request["edited"], Value::Null);
    assert_eq!(request["item"]["source"], "resident_request");
    assert!(
        request["sections"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["module"] == LIGHTING && s["source"] == "legal_catalogue")
    );
    assert_eq!(progress.lock().unwrap()[0].state, ProgressState::Sending);
    // The draft is stored and found again.
    let id = result["draft_id"].as_i64().unwrap();
    let listed = commands::drafts_list(&app.state, ListFilter::default()).unwrap();
    assert_eq!(listed[0].id, id);
}

#[test]
fn an_unconfirmed_subject_is_confirmed_later_without_a_new_model_call() {
    let app = App::with(Script::always(ok()));
    let first = app.draft(typed(None));
    assert_eq!(first["request"]["legal_omission"], "not_confirmed");
    assert_eq!(first["next_steps"], json!(["confirm_subject"]));
    let id = first["draft_id"].as_i64().unwrap();
    assert_eq!(app.requests(), 1);

    let again = commands::draft_reassemble(&app.state, id, LIGHTING).unwrap();
    let again = serde_json::to_value(again).unwrap();
    assert_eq!(again["draft_id"], id);
    assert_eq!(again["request"]["subject_module"], LIGHTING);
    assert_eq!(again["next_steps"], json!([]));
    assert_eq!(app.requests(), 1, "no new model call");
    // The stored draft now holds the confirmation, and replays identically by id.
    let detail = serde_json::to_value(commands::draft_open(&app.state, id).unwrap()).unwrap();
    assert_eq!(detail["summary"]["input"]["confirmed_subject"], LIGHTING);
    assert_eq!(detail["summary"]["subject_module"], LIGHTING);
    let replay = app
        .state
        .engine
        .replay_draft(zayavka_engine::DraftId::new(id).unwrap())
        .unwrap();
    assert!(replay.identical);

    let wrong = commands::draft_reassemble(&app.state, id, "no_such_subject").unwrap_err();
    assert_eq!(wrong.kind, ErrorKind::InvalidArgument);
}

#[test]
fn an_offline_draft_cannot_be_reassembled() {
    let app = App::without_provider();
    let result = commands::draft_run(&app.state, typed(None), "t", true, &|_| {}).unwrap();
    assert_eq!(result.outcome, "ready");
    assert!(!result.model_used);
    let error =
        commands::draft_reassemble(&app.state, result.draft_id.unwrap(), LIGHTING).unwrap_err();
    assert_eq!(error.kind, ErrorKind::NotReassemblable);
}

/// Regression (issue 14): every listed or found draft carries the first words of the resident's
/// description, and a draft made without a model is titled with them, marked as theirs.
#[test]
fn issue_14_drafts_list_and_search_carry_the_residents_first_words() {
    let app = App::with(Script::always(ok()));
    app.draft(typed(Some(LIGHTING)));
    let descriptions = [
        "В подъезде 2 в подвале стоит вода, пахнет сыростью.",
        "В подъезде 2 на лестнице между третьим и четвёртым этажами неделю не горит свет,\n\
         вечером ничего не видно.",
    ];
    for description in descriptions {
        let input = RawInput {
            description: Some(description.to_owned()),
            ..RawInput::default()
        };
        let result = commands::draft_run(&app.state, input, "o", true, &|_| {}).unwrap();
        let request = serde_json::to_value(&result).unwrap()["request"].clone();
        assert_eq!(request["title_source"], "resident", "{request}");
    }

    let listed =
        serde_json::to_value(commands::drafts_list(&app.state, ListFilter::default()).unwrap())
            .unwrap();
    let shown: Vec<(&str, &str)> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["title"].as_str().unwrap(), d["preview"].as_str().unwrap()))
        .collect();
    assert_eq!(
        shown,
        [
            (
                "В подъезде 2 на лестнице между третьим и четвёртым этажами…",
                "В подъезде 2 на лестнице между третьим и четвёртым этажами неделю не горит…",
            ),
            (
                "В подъезде 2 в подвале стоит вода, пахнет сыростью",
                "В подъезде 2 в подвале стоит вода, пахнет сыростью.",
            ),
            // The model's title, with the resident's words under it, never the model's.
            (
                "Не работает освещение на лестнице",
                "В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами.",
            ),
        ]
    );
    let found =
        serde_json::to_value(commands::drafts_search(&app.state, "подвале").unwrap()).unwrap();
    assert_eq!(
        found[0]["preview"],
        "В подъезде 2 в подвале стоит вода, пахнет сыростью."
    );
}

#[test]
fn an_input_error_names_its_field() {
    let app = App::with(Script::always(ok()));
    let mut input = typed(None);
    input.description = Some("Свет".to_owned());
    let result = app.draft(input);
    assert_eq!(result["outcome"], "invalid_input");
    assert_eq!(result["errors"][0]["field"], "description");
    assert_eq!(result["errors"][0]["code"], "too_short");
    assert!(
        result["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("слишком короткое")
    );
    assert_eq!(app.requests(), 0, "nothing is sent");
}

#[test]
fn a_provider_failure_is_technical_and_retryable() {
    let app = App::with(Script::always(Reply::status(503, "overloaded")));
    let result = app.draft(typed(None));
    assert_eq!(result["outcome"], "failed");
    assert_eq!(result["retryable"], true);
    let message = result["message"].as_str().unwrap();
    assert!(message.contains("техническая неудача"), "{message}");
    assert!(!message.contains("zayavka "), "{message}");
    assert!(
        result["next_steps"]
            .as_array()
            .unwrap()
            .contains(&json!("retry"))
    );
    // The failed draft is kept, with its input.
    let detail = commands::draft_open(&app.state, result["draft_id"].as_i64().unwrap()).unwrap();
    let detail = serde_json::to_value(detail).unwrap();
    assert_eq!(detail["result"]["outcome"], "failed");
    assert_eq!(detail["summary"]["input"]["description"], DESCRIPTION);
}

#[test]
fn a_slow_call_is_cancelled() {
    let app = Arc::new(App::with(Script::always(
        ok().delayed(Duration::from_secs(20)),
    )));
    let runner = {
        let app = Arc::clone(&app);
        std::thread::spawn(move || {
            commands::draft_run(&app.state, typed(None), "slow", false, &|_| {}).unwrap()
        })
    };
    let started = std::time::Instant::now();
    while app.requests() == 0 && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    app.state.cancel_task("slow");
    let result = runner.join().unwrap();
    assert_eq!(result.outcome, "failed");
    assert_eq!(result.reason.as_deref(), Some("cancelled"));
    // Cancelling a task that has ended is not an error.
    app.state.cancel_task("slow");
}

#[test]
fn the_form_is_kept_and_restored() {
    let app = App::without_provider();
    assert_eq!(commands::input_restore(&app.state).unwrap(), None);
    let mut input = typed(Some(LIGHTING));
    input.location = Some("Подъезд 2\u{200b}".to_owned());
    commands::input_autosave(&app.state, &input).unwrap();
    assert_eq!(commands::input_restore(&app.state).unwrap(), Some(input));
}

#[test]
fn drafts_are_listed_searched_opened_edited_and_deleted() {
    let app = App::with(Script::always(ok()));
    let id = app.draft(typed(Some(LIGHTING)))["draft_id"]
        .as_i64()
        .unwrap();
    let offline = commands::draft_run(&app.state, typed(None), "o", true, &|_| {}).unwrap();

    let ready = commands::drafts_list(
        &app.state,
        ListFilter {
            outcome: Some("ready".to_owned()),
            subject: Some(LIGHTING.to_owned()),
            ..ListFilter::default()
        },
    )
    .unwrap();
    assert_eq!(ready.iter().map(|d| d.id).collect::<Vec<_>>(), [id]);
    let bad = commands::drafts_list(
        &app.state,
        ListFilter {
            outcome: Some("sideways".to_owned()),
            ..ListFilter::default()
        },
    )
    .unwrap_err();
    assert_eq!(error_json(bad)["kind"], "invalid_argument");

    let found = commands::drafts_search(&app.state, "лестниц").unwrap();
    assert_eq!(found.len(), 2);
    assert!(
        commands::drafts_search(&app.state, "флюгер")
            .unwrap()
            .is_empty()
    );

    let detail = serde_json::to_value(commands::draft_open(&app.state, id).unwrap()).unwrap();
    assert_eq!(keys(&detail), ["explain", "result", "summary", "versions"]);
    let explain = &detail["explain"];
    assert_eq!(explain["model"], "stand-in-model");
    assert_eq!(explain["provider_host"], "127.0.0.1");
    assert_eq!(explain["attempts"][0]["status"], 200);
    assert_eq!(explain["messages"][0]["role"], "system");
    // One sentence for the legal paragraph: the result card's and «Как получен результат»'s.
    assert!(
        explain["legal_decision"]
            .as_str()
            .unwrap()
            .contains("нормативный абзац")
    );
    assert_eq!(
        explain["legal_decision"],
        detail["result"]["request"]["legal_status"]
    );
    let offline_detail = commands::draft_open(&app.state, offline.draft_id.unwrap()).unwrap();
    assert!(offline_detail.explain.is_none());

    let edited = commands::draft_edit(&app.state, id, "Мой заголовок", "Мой текст.").unwrap();
    let edited = serde_json::to_value(edited).unwrap();
    assert_eq!(
        edited["result"]["request"]["edited"],
        json!({"title": "Мой заголовок", "body": "Мой текст.", "brought_in": false})
    );
    assert_eq!(edited["versions"][0]["author"], "resident");
    let empty = commands::draft_edit(&app.state, id, " ", "").unwrap_err();
    assert_eq!(empty.kind, ErrorKind::EmptyEdit);

    commands::draft_delete(&app.state, id).unwrap();
    let gone = commands::draft_open(&app.state, id).unwrap_err();
    assert_eq!(gone.kind, ErrorKind::NotFound);
    assert_eq!(
        gone.message,
        format!("Черновика с номером {id} нет: проверьте номер в списке черновиков.")
    );
}

#[test]
fn a_draft_is_saved_as_a_document_whole() {
    let app = App::with(Script::always(ok()));
    let id = app.draft(typed(Some(LIGHTING)))["draft_id"]
        .as_i64()
        .unwrap();
    let (name, bytes) =
        commands::draft_save_prepare(&app.state, id, SaveFormat::Txt, false).unwrap();
    assert_eq!(name, format!("Заявка-{id}.txt"));
    let text = String::from_utf8(bytes.clone()).unwrap();
    // The document: the header with marked blanks (no profile yet), the title, the date.
    assert!(text.contains("Не работает освещение на лестнице"), "{text}");
    assert!(text.contains("Кому"), "{text}");
    assert!(text.contains("________"), "{text}");
    app.state
        .engine
        .set_profile_field(
            zayavka_engine::ProfileField::FullName,
            "Иванова Анна Петровна",
        )
        .unwrap();
    let (_, with_name) =
        commands::draft_save_prepare(&app.state, id, SaveFormat::Txt, false).unwrap();
    assert!(
        String::from_utf8(with_name)
            .unwrap()
            .contains("Иванова Анна Петровна")
    );
    let path = app.home.path().join("out.txt");
    commands::write_document(&path, &bytes).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), bytes);

    let (pdf_name, pdf) =
        commands::draft_save_prepare(&app.state, id, SaveFormat::Pdf, false).unwrap();
    assert_eq!(pdf_name, format!("Заявка-{id}.pdf"));
    assert!(pdf.starts_with(b"%PDF-"), "a PDF file");

    let (_, docx) = commands::draft_save_prepare(&app.state, id, SaveFormat::Docx, false).unwrap();
    assert!(docx.starts_with(b"PK"), "a DOCX package (a zip file)");

    let missing = app.home.path().join("no/such/folder/out.txt");
    let error = commands::write_document(&missing, &bytes).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Write);
    assert!(
        error.message.starts_with("Не удалось сохранить файл"),
        "{}",
        error.message
    );
}

#[test]
fn the_printed_document_is_the_saved_one_line_for_line() {
    let app = App::with(Script::always(ok()));
    let id = app.draft(typed(Some(LIGHTING)))["draft_id"]
        .as_i64()
        .unwrap();
    app.state
        .engine
        .set_profile_field(
            zayavka_engine::ProfileField::FullName,
            "Иванова Анна Петровна",
        )
        .unwrap();
    let printed =
        serde_json::to_value(commands::draft_document(&app.state, id, false).unwrap()).unwrap();
    let (_, saved) = commands::draft_save_prepare(&app.state, id, SaveFormat::Txt, false).unwrap();
    let saved = String::from_utf8(saved).unwrap();
    // Every printed line is a line of the saved text, in the same order.
    let mut lines = Vec::new();
    for block in ["recipient", "sender"] {
        for line in printed[block].as_array().unwrap() {
            lines.push(format!(
                "{}: {}",
                line["label"].as_str().unwrap(),
                line["value"].as_str().unwrap()
            ));
        }
    }
    lines.push(printed["title"].as_str().unwrap().to_owned());
    for paragraph in printed["paragraphs"].as_array().unwrap() {
        lines.push(paragraph.as_str().unwrap().to_owned());
    }
    lines.push(printed["date"].as_str().unwrap().to_owned());
    lines.push(printed["signature"].as_str().unwrap().to_owned());
    let mut rest = saved.as_str();
    for line in &lines {
        let at = rest
            .find(line.as_str())
            .unwrap_or_else(|| panic!("{line:?} in {saved}"));
        rest = &rest[at + line.len()..];
    }
    assert_eq!(printed["sender"][0]["value"], "Иванова Анна Петровна");
    assert_eq!(printed["sender"][0]["blank"], false);
    assert_eq!(printed["recipient"][0]["blank"], true);
    assert_eq!(printed["co_signers"], Value::Null);
    let collective =
        serde_json::to_value(commands::draft_document(&app.state, id, true).unwrap()).unwrap();
    assert_eq!(collective["co_signers"]["heading"], "Подписи жителей");
    assert_eq!(collective["co_signers"]["columns"][1], "ФИО");
    assert_eq!(collective["co_signers"]["rows"], 20);
    let (_, collective_text) =
        commands::draft_save_prepare(&app.state, id, SaveFormat::Txt, true).unwrap();
    assert!(
        String::from_utf8(collective_text)
            .unwrap()
            .contains("Подписи жителей")
    );
    assert_eq!(
        error_json(commands::draft_document(&app.state, 999, false).unwrap_err())["kind"],
        "not_found"
    );
}

#[test]
fn photos_are_attached_stripped_listed_printed_and_removed() {
    let app = App::with(Script::always(ok()));
    let id = app.draft(typed(Some(LIGHTING)))["draft_id"]
        .as_i64()
        .unwrap();
    let fixtures =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/photos");
    let photos = commands::draft_attach(
        &app.state,
        id,
        &[fixtures.join("gps.jpg"), fixtures.join("sideways6.jpg")],
    )
    .unwrap();
    let photos = serde_json::to_value(photos).unwrap();
    assert_eq!(photos.as_array().unwrap().len(), 2);
    assert_eq!(photos[0]["number"], 1);
    assert_eq!(photos[0]["name"], "Фото 1");
    assert!(
        photos[0]["label"]
            .as_str()
            .unwrap()
            .starts_with("Фото 1 (JPEG"),
        "{photos}"
    );
    // Upright: the sideways photo is stored turned.
    assert_eq!(
        (photos[1]["width"].as_u64(), photos[1]["height"].as_u64()),
        (Some(48), Some(64))
    );

    // A file that is not a photo changes nothing, and says so in Russian.
    let text = app.home.path().join("not-a-photo.jpg");
    std::fs::write(&text, "Это не фотография").unwrap();
    let refused =
        commands::draft_attach(&app.state, id, &[fixtures.join("gps.png"), text]).unwrap_err();
    assert_eq!(refused.kind, ErrorKind::Photo);
    assert!(
        refused.message.contains("not-a-photo.jpg"),
        "{}",
        refused.message
    );
    assert_eq!(commands::draft_photos(&app.state, id).unwrap().len(), 2);

    // The document lists them; the PDF has a page per photo after the request.
    let printed =
        serde_json::to_value(commands::draft_document(&app.state, id, false).unwrap()).unwrap();
    assert_eq!(printed["appendix"][0], "Приложения:");
    assert!(
        printed["appendix"][2].as_str().unwrap().contains("Фото 2"),
        "{printed}"
    );
    let (_, pdf) = commands::draft_save_prepare(&app.state, id, SaveFormat::Pdf, false).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    let (_, without) = {
        let other = app.draft(typed(Some(LIGHTING)))["draft_id"]
            .as_i64()
            .unwrap();
        commands::draft_save_prepare(&app.state, other, SaveFormat::Pdf, false).unwrap()
    };
    assert!(
        pdf.len() > without.len() + 2_000,
        "the photos are in the PDF"
    );
    assert!(
        !pdf.windows(b"ZAYAVKA".len())
            .any(|window| window == b"ZAYAVKA"),
        "no metadata marker of the fixtures in the PDF"
    );

    let left = commands::draft_detach(&app.state, id, 1).unwrap();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].photo.number, 1, "the photos after it move up");
    assert_eq!(left[0].name, "Фото 1");
    assert_eq!(
        commands::draft_detach(&app.state, id, 5).unwrap_err().kind,
        ErrorKind::NotFound
    );
    assert_eq!(
        commands::draft_photos(&app.state, 999).unwrap_err().kind,
        ErrorKind::NotFound
    );
    assert_eq!(
        app.requests(),
        2,
        "one request per draft: photos never go to the model"
    );
}

#[test]
fn settings_choose_a_preset_and_refuse_bad_values() {
    let app = App::without_provider();
    let fresh = serde_json::to_value(commands::settings_get(&app.state).unwrap()).unwrap();
    assert_eq!(fresh["active_profile"], Value::Null);
    assert_eq!(fresh["effective"], Value::Null);
    // The engine's order (issue 15): GigaChat and Yandex AI Studio first, OpenAI and
    // OpenRouter last.
    let names: Vec<&str> = fresh["presets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|preset| preset["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "gigachat",
            "yandex",
            "ollama",
            "lmstudio",
            "llamacpp",
            "custom",
            "openai",
            "openrouter"
        ]
    );
    for preset in fresh["presets"].as_array().unwrap() {
        assert!(!preset["privacy_note"].as_str().unwrap().is_empty());
        assert!(!preset["cost_note"].as_str().unwrap().is_empty());
    }

    let refused = commands::settings_set(&app.state, "model", "x").unwrap_err();
    assert_eq!(refused.kind, ErrorKind::InvalidSetting);
    let unknown = commands::settings_set(&app.state, "api_key", "x").unwrap_err();
    assert_eq!(unknown.kind, ErrorKind::InvalidArgument);

    let ollama = commands::settings_set(&app.state, "active_profile", "ollama").unwrap();
    let ollama = serde_json::to_value(ollama).unwrap();
    assert_eq!(ollama["active_profile"], "ollama");
    assert_eq!(ollama["effective"]["base_url"], "http://127.0.0.1:11434/v1");
    assert_eq!(ollama["effective"]["schema_mode"], "json_object");

    let model = commands::settings_set(&app.state, "model", "llama3.1:8b").unwrap();
    assert_eq!(model.effective.unwrap().model, "llama3.1:8b");
    let url = commands::settings_set(&app.state, "base_url", "not a url").unwrap_err();
    assert_eq!(url.kind, ErrorKind::InvalidSetting);
    assert!(!url.message.is_empty());

    let custom = commands::settings_set(&app.state, "active_profile", "custom").unwrap();
    assert!(custom.effective.is_none());
    assert!(custom.problem.is_some(), "a custom server needs an address");
}

/// Issue 15: the service settings a GigaChat or Yandex AI Studio profile needs are set from the
/// screen through the engine's checked `config set`, and read back.
#[test]
fn issue_15_folder_id_scope_and_protocol_are_set_checked_and_read_back() {
    let app = App::without_provider();
    let none = commands::settings_set(&app.state, "folder_id", FOLDER).unwrap_err();
    assert_eq!(
        none.kind,
        ErrorKind::InvalidSetting,
        "no profile chosen yet"
    );

    let yandex = commands::settings_set(&app.state, "active_profile", "yandex").unwrap();
    assert_eq!(yandex.service.kind, Some("yandex"));
    assert_eq!(yandex.service.folder_id, None);
    assert!(
        yandex.effective.is_none(),
        "a Yandex profile needs a folder"
    );
    assert!(yandex.problem.unwrap().contains("folder_id"));

    let bad = commands::settings_set(&app.state, "folder_id", "B1G-not-a-folder").unwrap_err();
    let bad = error_json(bad);
    assert_eq!(bad["kind"], "invalid_setting");
    let message = bad["message"].as_str().unwrap();
    // Shown beside the field it is about: what a right value looks like, in the engine's own
    // words, and no configuration path («profiles.yandex.folder_id»).
    assert!(
        message.starts_with("Ожидается идентификатор каталога Yandex Cloud: 20 строчных"),
        "{message}"
    );
    assert!(!message.contains("profiles."), "{message}");
    assert!(
        message.chars().any(|c| ('а'..='я').contains(&c)),
        "{message}"
    );
    assert_eq!(
        commands::settings_get(&app.state)
            .unwrap()
            .service
            .folder_id,
        None,
        "a refused value changes nothing"
    );

    let good = commands::settings_set(&app.state, "folder_id", FOLDER).unwrap();
    assert_eq!(good.service.folder_id.as_deref(), Some(FOLDER));
    let effective = good.effective.expect("complete with a folder");
    assert_eq!(effective.model, format!("gpt://{FOLDER}/yandexgpt/latest"));
    let protocol = commands::settings_set(&app.state, "protocol", "responses").unwrap();
    assert_eq!(protocol.service.protocol, Some("responses"));
    let bad_protocol = commands::settings_set(&app.state, "protocol", "grpc").unwrap_err();
    assert_eq!(bad_protocol.kind, ErrorKind::InvalidSetting);
    let scope_on_yandex =
        commands::settings_set(&app.state, "scope", "GIGACHAT_API_B2B").unwrap_err();
    assert_eq!(scope_on_yandex.kind, ErrorKind::InvalidSetting);

    let gigachat = commands::settings_set(&app.state, "active_profile", "gigachat").unwrap();
    assert_eq!(gigachat.service.kind, Some("gigachat"));
    assert_eq!(
        gigachat.service.scope, None,
        "the default, personal, is not written"
    );
    let scope = commands::settings_set(&app.state, "scope", "GIGACHAT_API_CORP").unwrap();
    assert_eq!(scope.service.scope, Some("GIGACHAT_API_CORP"));
    let bad_scope = commands::settings_set(&app.state, "scope", "corp").unwrap_err();
    assert_eq!(bad_scope.kind, ErrorKind::InvalidSetting);
    assert!(
        bad_scope
            .message
            .starts_with("Ожидается GIGACHAT_API_PERS (физическое лицо)"),
        "{}",
        bad_scope.message
    );
    for (key, value) in [("folder_id", FOLDER), ("protocol", "responses")] {
        let refused = commands::settings_set(&app.state, key, value).unwrap_err();
        assert_eq!(refused.kind, ErrorKind::InvalidSetting, "{key} on gigachat");
    }
    let view = serde_json::to_value(commands::settings_get(&app.state).unwrap()).unwrap();
    assert_eq!(
        view["service"],
        json!({"kind": "gigachat", "folder_id": null, "scope": "GIGACHAT_API_CORP",
               "protocol": null})
    );
    // Nothing else loosened.
    for key in [
        "auth_url",
        "auth_scheme",
        "kind",
        "needs_api_key",
        "profiles.gigachat.scope",
    ] {
        let refused = commands::settings_set(&app.state, key, "x").unwrap_err();
        assert_eq!(refused.kind, ErrorKind::InvalidArgument, "{key}");
    }
}

const FOLDER: &str = "b1gexamplefolder0a1b";
const AUTHORIZATION_KEY: &str = "Y2FuYXJ5LWNsaWVudDpjYW5hcnktc2VjcmV0LWRlc2t0b3A=";

#[test]
fn issue_15_a_gigachat_profile_set_up_on_the_screen_drafts_with_one_token_exchange() {
    let schema_name = zayavka_core::request_draft_schema().name;
    let stand_in = StandIn::start_as(
        Service::GigaChat {
            authorization_key: AUTHORIZATION_KEY.to_owned(),
            scope: "GIGACHAT_API_B2B".to_owned(),
            token_lifetime: Duration::from_secs(1800),
        },
        Script::always(Reply::function_call(schema_name, valid_draft())),
    );
    let app = App::without_provider();
    commands::settings_set(&app.state, "active_profile", "gigachat").unwrap();
    commands::settings_set(&app.state, "scope", "GIGACHAT_API_B2B").unwrap();
    commands::settings_set(&app.state, "base_url", &stand_in.base_url()).unwrap();
    // The token endpoint is not on the screen; the test points it at the stand-in.
    app.set("profiles.gigachat.auth_url", &stand_in.auth_url());
    commands::key_set(&app.state, AUTHORIZATION_KEY).unwrap();
    let app = App {
        stand_in: Some(stand_in),
        ..app
    };
    assert_eq!(app.draft(typed(Some(LIGHTING)))["outcome"], "ready");
    let stand_in = app.stand_in.as_ref().unwrap();
    assert_eq!(stand_in.token_exchanges(), 1);

    // The session keeps the token: more drafts and a batch of three rows exchange none.
    assert_eq!(app.draft(typed(Some(LIGHTING)))["outcome"], "ready");
    assert_eq!(app.draft(typed(Some(LIGHTING)))["outcome"], "ready");
    let rows = [1, 2, 3].map(|flat| resident_row("Иванова", flat, "Подъезд."));
    let file = batch_file(&app, "дом.csv", &[&rows[0], &rows[1], &rows[2]]);
    let plan = commands::batch_check(&app.state, &file, CheckOptions::default()).unwrap();
    let summary = commands::batch_run(&app.state, &plan.check_token, false, true, "b", &|_| {});
    assert_eq!(serde_json::to_value(summary.unwrap()).unwrap()["ready"], 3);
    let chats = |stand_in: &StandIn| {
        stand_in
            .requests()
            .iter()
            .filter(|request| request.path.ends_with("/chat/completions"))
            .count()
    };
    assert_eq!(chats(stand_in), 6, "three drafts and three rows");
    assert_eq!(stand_in.token_exchanges(), 1, "one token for the session");

    // A token that ran out is exchanged again, once, and the next draft uses the new one.
    stand_in.expire_tokens();
    assert_eq!(app.draft(typed(Some(LIGHTING)))["outcome"], "ready");
    assert_eq!(app.draft(typed(Some(LIGHTING)))["outcome"], "ready");
    assert_eq!(stand_in.token_exchanges(), 2);

    // Another key is another client, with a token of its own; the old key's is not sent.
    let other = "b3RoZXItY2xpZW50Om90aGVyLXNlY3JldC1kZXNrdG9w";
    commands::key_set(&app.state, other).unwrap();
    assert_eq!(app.draft(typed(Some(LIGHTING)))["outcome"], "failed");
    assert_eq!(
        stand_in.token_exchanges(),
        2,
        "the refused exchange issued no token"
    );
}

#[test]
fn issue_15_a_yandex_profile_set_up_on_the_screen_sends_the_api_key_and_the_folder() {
    let stand_in = StandIn::start_as(
        Service::Yandex {
            api_key: CANARY_KEY.to_owned(),
            folder_id: FOLDER.to_owned(),
        },
        Script::always(ok()),
    );
    let app = App::without_provider();
    commands::settings_set(&app.state, "active_profile", "yandex").unwrap();
    commands::settings_set(&app.state, "folder_id", FOLDER).unwrap();
    commands::settings_set(&app.state, "base_url", &stand_in.base_url()).unwrap();
    commands::key_set(&app.state, CANARY_KEY).unwrap();
    let app = App {
        stand_in: Some(stand_in),
        ..app
    };
    assert_eq!(app.draft(typed(Some(LIGHTING)))["outcome"], "ready");
    let request = app.stand_in.as_ref().unwrap().requests().pop().unwrap();
    assert_eq!(
        request.header("authorization"),
        Some(format!("Api-Key {CANARY_KEY}").as_str())
    );
    assert_eq!(request.header("x-folder-id"), Some(FOLDER));
    assert_eq!(
        request.json()["model"],
        format!("gpt://{FOLDER}/yandexgpt/latest")
    );
}

#[test]
fn the_key_is_set_replaced_and_deleted_and_never_comes_back() {
    let app = App::without_provider();
    commands::settings_set(&app.state, "active_profile", "openai").unwrap();
    let none = commands::key_status(&app.state).unwrap();
    assert!(!none.stored);
    let set = commands::key_set(&app.state, CANARY_KEY).unwrap();
    let json = serde_json::to_string(&set).unwrap();
    assert_eq!(
        json,
        r#"{"profile":"openai","stored":true,"source":"keyring","keyring_available":true}"#
    );
    let settings = serde_json::to_string(&commands::settings_get(&app.state).unwrap()).unwrap();
    assert!(!settings.contains(CANARY_KEY));
    assert!(settings.contains(r#""stored":true"#));
    let bad = commands::key_set(&app.state, "sk key with spaces").unwrap_err();
    assert_eq!(bad.kind, ErrorKind::Key);
    assert!(!bad.message.contains("sk key"), "{}", bad.message);
    let deleted = commands::key_delete(&app.state).unwrap();
    assert!(!deleted.stored);
    assert_eq!(deleted.source, None);
}

/// Regression (issue 14): a server that does not require a key got a stored key while the
/// settings said nothing of it; the rule is «sent when stored, and only then».
#[test]
fn issue_14_a_key_for_a_server_that_does_not_require_one_is_sent_exactly_when_stored() {
    let app = App::with(Script::always(ok()));
    app.set("profiles.custom.needs_api_key", "false");
    let rule = "Ключ не обязателен: если он сохранён, он отправляется серверу.";
    let none = commands::key_status(&app.state).unwrap();
    assert_eq!(
        none.optional_note.as_deref(),
        Some(format!("{rule} Сейчас ключа нет, и запросы идут без него.").as_str())
    );
    assert_eq!(app.draft(typed(None))["outcome"], "ready");
    let sent = app.stand_in.as_ref().unwrap().requests();
    assert_eq!(sent[0].header("authorization"), None);

    let stored = commands::key_set(&app.state, CANARY_KEY).unwrap();
    assert_eq!(
        stored.optional_note.as_deref(),
        Some(
            format!(
                "{rule} Сейчас ключ сохранён и отправляется с каждым запросом; чтобы запросы шли \
                 без ключа, удалите его."
            )
            .as_str()
        )
    );
    let settings = commands::settings_get(&app.state).unwrap();
    assert_eq!(settings.key.optional_note, stored.optional_note);
    assert_eq!(app.draft(typed(None))["outcome"], "ready");
    let sent = app.stand_in.as_ref().unwrap().requests();
    assert_eq!(
        sent.last().unwrap().header("authorization"),
        Some(format!("Bearer {CANARY_KEY}").as_str())
    );
}

#[test]
fn an_unreachable_keyring_is_said_plainly() {
    let app = App::with_secrets(MemoryStore::unavailable());
    let status = commands::key_status(&app.state).unwrap();
    assert!(!status.keyring_available);
    let error = commands::key_set(&app.state, CANARY_KEY).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Key);
}

#[test]
fn the_connection_check_speaks_in_titles() {
    let app = App::with(Script::always(ok()));
    let report = serde_json::to_value(commands::connection_check(&app.state).unwrap()).unwrap();
    let checks = report["checks"].as_array().unwrap();
    assert!(checks.len() >= 4);
    for check in checks {
        assert_eq!(
            keys(check),
            ["id", "message", "next_step", "status", "title"]
        );
        assert_ne!(check["title"], "Проверка", "{check}");
    }
    assert!(
        checks
            .iter()
            .any(|c| c["id"] == "provider" && c["status"] == "ok")
    );
}

#[test]
fn a_batch_is_checked_run_resumed_and_exported() {
    let app = App::with(Script::always(ok()));
    let file = app.home.path().join("заявки.csv");
    std::fs::write(
        &file,
        format!(
            "Описание;Место\n{DESCRIPTION};Подъезд 1\nСвет;Подъезд 2\n{DESCRIPTION} Второй раз.;Подъезд 3\n"
        ),
    )
    .unwrap();
    let not_checked =
        commands::batch_run(&app.state, "check-404", false, true, "b", &|_| {}).unwrap_err();
    assert_eq!(not_checked.kind, ErrorKind::BatchNotChecked);

    let check = serde_json::to_value(
        commands::batch_check(&app.state, &file, CheckOptions::default()).unwrap(),
    )
    .unwrap();
    assert_eq!(
        keys(&check),
        [
            "batch_number",
            "changed",
            "check_token",
            "cost",
            "done_before",
            "file_name",
            "invalid",
            "model_problem",
            "new",
            "no_longer_in_file",
            "offline",
            "rows",
            "to_draft",
            "to_send",
            "unfinished"
        ]
    );
    assert_eq!(check["rows"], 3);
    assert_eq!(check["new"], json!([2, 4]));
    assert_eq!(check["to_send"], 2);
    assert_eq!(check["batch_number"], Value::Null, "a new batch");
    assert_eq!(
        check["invalid"][0]["row"], 3,
        "numbered as the spreadsheet shows it"
    );
    assert_eq!(check["invalid"][0]["errors"][0]["field"], "description");
    let token = check["check_token"].as_str().unwrap().to_owned();

    let seen = Mutex::new(Vec::new());
    let summary = commands::batch_run(&app.state, &token, false, true, "b", &|p| {
        seen.lock().unwrap().push(p)
    })
    .unwrap();
    let summary = serde_json::to_value(summary).unwrap();
    assert_eq!(summary["done"], 2);
    assert_eq!(summary["total"], 2);
    assert_eq!(summary["ready"], 2);
    assert_eq!(summary["failed"], 0);
    assert_eq!(summary["batch_number"], 1);
    assert_eq!(summary["complete"], true);
    assert_eq!(summary["stopped"], Value::Null);
    assert!(summary.get("batch_id").is_none(), "the hash stays inside");
    assert_eq!(seen.lock().unwrap().last().unwrap().done, 2);
    assert_eq!(app.requests(), 2);

    let again = commands::batch_check(&app.state, &file, CheckOptions::default()).unwrap();
    assert_eq!(again.batch_number, Some(1));
    assert_eq!(again.done_before, [2, 4]);
    // Issue 31: «Начать новый пакет» plans the same file as a batch of its own.
    let fresh = CheckOptions {
        new_batch: true,
        ..CheckOptions::default()
    };
    let fresh = commands::batch_check(&app.state, &file, fresh).unwrap();
    assert_eq!(fresh.batch_number, None);
    assert!(fresh.done_before.is_empty());
    assert_eq!(fresh.new, [2, 4]);
    assert_eq!(again.to_send, 0);
    let resumed =
        commands::batch_run(&app.state, &again.check_token, false, false, "b2", &|_| {}).unwrap();
    assert_eq!(resumed.progress.total, 0);
    assert_eq!(app.requests(), 2, "nothing is sent twice");

    let rows = commands::batch_rows(&app.state, 1).unwrap();
    assert_eq!(rows.len(), 3);

    let out = app.home.path().join("выгрузка");
    std::fs::create_dir(&out).unwrap();
    let format = commands::export_format("csv").unwrap();
    let csv = commands::batch_export(&app.state, 1, format, false, false, &out).unwrap();
    assert_eq!(csv.written, 1);
    assert!(out.join("batch-1.csv").is_file());
    assert_eq!(
        commands::export_format("xlsx").unwrap_err().kind,
        ErrorKind::InvalidArgument
    );
    assert_eq!(
        commands::batch_export(&app.state, 7, format, false, false, &out)
            .unwrap_err()
            .kind,
        ErrorKind::NotFound
    );

    // One document per row with a request, under the profile's header, collective on demand;
    // the invalid row is said, not dropped.
    app.state
        .engine
        .set_profile_field(zayavka_engine::ProfileField::CompanyName, "ООО «Дом»")
        .unwrap();
    let documents = app.home.path().join("документы");
    let pdf = commands::export_format("pdf").unwrap();
    let report = commands::batch_export(&app.state, 1, pdf, true, false, &documents).unwrap();
    assert_eq!(report.written, 2);
    assert_eq!(report.skipped.len(), 1, "{report:?}");
    assert_eq!(report.skipped[0].row, 3);
    let mut names: Vec<String> = std::fs::read_dir(&documents)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["row-0002.pdf", "row-0004.pdf"]);
    // Another document under the same name is replaced only when the resident agreed.
    std::fs::write(documents.join("row-0002.pdf"), "чужой файл").unwrap();
    let clash = commands::batch_export(&app.state, 1, pdf, true, false, &documents).unwrap_err();
    assert_eq!(clash.kind, ErrorKind::FilesExist);
    assert!(clash.message.contains("row-0002.pdf"), "{}", clash.message);
    assert_eq!(
        std::fs::read(documents.join("row-0002.pdf")).unwrap(),
        "чужой файл".as_bytes()
    );
    commands::batch_export(&app.state, 1, pdf, true, true, &documents).unwrap();
    assert!(
        std::fs::read(documents.join("row-0002.pdf"))
            .unwrap()
            .starts_with(b"%PDF-")
    );

    // A file changed after its plan was shown is planned again before anything is sent.
    std::fs::write(&file, format!("Описание\n{DESCRIPTION} Изменено.\n")).unwrap();
    let changed = commands::batch_run(&app.state, &token, false, true, "b3", &|_| {}).unwrap_err();
    assert_eq!(changed.kind, ErrorKind::BatchNotChecked);
    assert!(changed.message.contains("изменился"), "{}", changed.message);
    assert_eq!(app.requests(), 2);
}

#[test]
fn the_key_never_reaches_a_file_of_the_data_folder() {
    let secrets = MemoryStore::new();
    let app = {
        let stand_in = StandIn::start(Script::always(ok()));
        let app = App::with_secrets(secrets);
        app.set("active_profile", "openrouter");
        app.set("profiles.openrouter.base_url", &stand_in.base_url());
        App {
            stand_in: Some(stand_in),
            ..app
        }
    };
    commands::key_set(&app.state, CANARY_KEY).unwrap();
    let result = app.draft(typed(Some(LIGHTING)));
    assert_eq!(result["outcome"], "ready", "{result}");
    let sent = app.stand_in.as_ref().unwrap().requests();
    assert_eq!(
        sent[0].header("authorization"),
        Some(format!("Bearer {CANARY_KEY}").as_str())
    );
    let detail = commands::draft_open(&app.state, result["draft_id"].as_i64().unwrap()).unwrap();
    assert!(!serde_json::to_string(&detail).unwrap().contains(CANARY_KEY));
    for entry in walk(app.home.path()) {
        let bytes = std::fs::read(&entry).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(CANARY_KEY), "{}", entry.display());
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
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

#[test]
fn a_cancelled_batch_returns_what_it_has_and_resumes_later() {
    let app = Arc::new(App::with(Script::always(
        ok().delayed(Duration::from_millis(300)),
    )));
    let file = app.home.path().join("много.csv");
    let rows: String = (1..=12)
        .map(|n| format!("{DESCRIPTION} Подъезд {n}.\n"))
        .collect();
    std::fs::write(&file, format!("Описание\n{rows}")).unwrap();
    let check = commands::batch_check(&app.state, &file, CheckOptions::default()).unwrap();
    assert_eq!(check.to_send, 12);
    let runner = {
        let app = Arc::clone(&app);
        let token = check.check_token.clone();
        std::thread::spawn(move || {
            commands::batch_run(&app.state, &token, false, true, "batch", &|progress| {
                // The engine counts each finished row's outcome as it reports it.
                assert_eq!(
                    progress.ready + progress.needs_user + progress.rejected + progress.failed,
                    progress.done,
                    "{progress:?}"
                );
                if progress.done >= 1 {
                    app.state.cancel_task("batch");
                }
            })
            .unwrap()
        })
    };
    let stopped = runner.join().unwrap();
    assert_eq!(stopped.progress.total, 12);
    assert!(stopped.progress.done < 12, "{:?}", stopped.progress);
    assert!(stopped.progress.done >= 1);
    assert_eq!(stopped.progress.ready, stopped.progress.done);
    assert!(!stopped.complete);
    assert_eq!(
        serde_json::to_value(&stopped).unwrap()["stopped"],
        "cancelled"
    );

    let resumed = commands::batch_run(
        &app.state,
        &check.check_token,
        false,
        true,
        "again",
        &|_| {},
    )
    .unwrap();
    assert_eq!(resumed.progress.total, 12 - stopped.progress.done);
    assert_eq!(resumed.progress.done, resumed.progress.total);
    assert!(resumed.complete);
    // A call cancelled under way is sent again by the resume; every row has one draft, ready.
    let rows = commands::batch_rows(&app.state, resumed.batch_number).unwrap();
    assert_eq!(rows.len(), 12);
    assert!(rows.iter().all(|row| row.status_label == "готова"));
    let mut drafts: Vec<i64> = rows
        .iter()
        .filter_map(|row| row.report.draft_id.map(zayavka_engine::DraftId::get))
        .collect();
    drafts.sort_unstable();
    drafts.dedup();
    assert_eq!(drafts.len(), 12, "one draft per row");
}

fn batch_file(app: &App, name: &str, rows: &[&str]) -> std::path::PathBuf {
    let file = app.home.path().join(name);
    let mut text = String::from("ФИО;Квартира;Описание\n");
    for row in rows {
        text.push_str(row);
        text.push('\n');
    }
    std::fs::write(&file, text).unwrap();
    file
}

fn resident_row(name: &str, flat: u32, what: &str) -> String {
    format!("{name};{flat};{DESCRIPTION} {what}")
}

#[test]
fn issue_14_a_fixed_row_is_the_only_request_on_the_next_run() {
    let app = App::with(Script::always(ok()));
    let first = resident_row("Иванова А. П.", 12, "Подъезд 1.");
    let second = resident_row("Петров И. С.", 14, "Подъезд 2.");
    let file = batch_file(&app, "подъезд.csv", &[&first, "Сидоров;15;Свет", &second]);
    let plan = commands::batch_check(&app.state, &file, CheckOptions::default()).unwrap();
    assert_eq!(plan.invalid.len(), 1);
    commands::batch_run(&app.state, &plan.check_token, false, true, "b", &|_| {}).unwrap();
    assert_eq!(app.requests(), 2);

    // The resident fills in the description the check pointed at and runs the file again.
    let fixed = resident_row("Сидоров", 15, "Подъезд 3.");
    std::fs::write(
        &file,
        format!("ФИО;Квартира;Описание\r\n{first}\r\n{fixed}\r\n{second}\r\n"),
    )
    .unwrap();
    let plan = commands::batch_check(&app.state, &file, CheckOptions::default()).unwrap();
    assert_eq!(plan.batch_number, Some(1), "the same batch continues");
    assert_eq!(plan.done_before, [2, 4]);
    assert_eq!([plan.new.clone(), plan.changed.clone()].concat(), [3]);
    assert_eq!(plan.to_send, 1);
    assert!(plan.invalid.is_empty());
    let summary =
        commands::batch_run(&app.state, &plan.check_token, false, true, "b2", &|_| {}).unwrap();
    assert_eq!(app.requests(), 3, "exactly one request: the fixed row");
    assert_eq!(summary.batch_number, 1);
    assert!(summary.complete);
    assert_eq!(commands::batch_list(&app.state).unwrap().len(), 1);
}

#[test]
fn issue_14_the_plan_is_shown_and_confirmed_before_anything_is_sent() {
    let app = App::with(Script::always(ok()));
    let file = batch_file(
        &app,
        "дом.csv",
        &[
            &resident_row("Иванова", 1, "Один."),
            &resident_row("Петров", 2, "Два."),
        ],
    );
    // No prices in the profile: the plan says that it cannot estimate the cost.
    let plan = serde_json::to_value(
        commands::batch_check(&app.state, &file, CheckOptions::default()).unwrap(),
    )
    .unwrap();
    assert_eq!(plan["cost"], json!({"kind": "unknown"}));
    assert_eq!(plan["offline"], false);
    assert_eq!(plan["model_problem"], Value::Null);
    let token = plan["check_token"].as_str().unwrap();
    let unconfirmed =
        commands::batch_run(&app.state, token, false, false, "b", &|_| {}).unwrap_err();
    assert_eq!(unconfirmed.kind, ErrorKind::BatchNotConfirmed);
    assert_eq!(
        app.requests(),
        0,
        "nothing is sent without the resident's yes"
    );
    assert!(
        commands::batch_list(&app.state).unwrap().is_empty(),
        "nothing is stored either"
    );

    // With prices, the worst case.
    app.set("profiles.custom.price_input_per_million", "1");
    app.set("profiles.custom.price_output_per_million", "2");
    app.set("profiles.custom.currency", "USD");
    let plan = serde_json::to_value(
        commands::batch_check(&app.state, &file, CheckOptions::default()).unwrap(),
    )
    .unwrap();
    assert_eq!(plan["cost"]["kind"], "at_most");
    assert_eq!(plan["cost"]["currency"], "USD");
    assert!(plan["cost"]["amount"].as_f64().unwrap() > 0.0, "{plan}");

    // A file over the row limit is refused with the engine's message before any plan.
    let many: Vec<String> = (0..5_001)
        .map(|n| resident_row("Жилец", n, "Строка."))
        .collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let big = batch_file(&app, "реестр.csv", &many);
    let refused = commands::batch_check(&app.state, &big, CheckOptions::default()).unwrap_err();
    assert_eq!(refused.kind, ErrorKind::BatchTooLarge);
    assert!(refused.message.contains("5001"), "{}", refused.message);
    assert!(refused.message.contains("5000"), "{}", refused.message);
    // Issue 31: the resident who confirms the file is the right one raises the limit on the
    // screen, as `--max-rows` does; nothing is sent by the check either way.
    let raised = CheckOptions {
        max_rows: Some(5_001),
        ..CheckOptions::default()
    };
    let plan = commands::batch_check(&app.state, &big, raised).unwrap();
    assert_eq!(plan.rows, 5_001);
    let beyond = CheckOptions {
        max_rows: Some(200_000),
        ..CheckOptions::default()
    };
    let refused = commands::batch_check(&app.state, &big, beyond).unwrap_err();
    assert_eq!(refused.kind, ErrorKind::InvalidArgument);
    assert_eq!(app.requests(), 0);
}

#[test]
fn issue_14_earlier_batches_are_listed_and_continued_after_a_restart() {
    // The first session: the service fails every row for a passing reason.
    let failing = App::with(Script::always(Reply::status(500, "занято")));
    let file = batch_file(
        &failing,
        "подъезд-2.csv",
        &[
            &resident_row("Иванова", 1, "Один."),
            &resident_row("Петров", 2, "Два."),
        ],
    );
    let plan = commands::batch_check(&failing.state, &file, CheckOptions::default()).unwrap();
    let first =
        commands::batch_run(&failing.state, &plan.check_token, false, true, "b", &|_| {}).unwrap();
    assert!(!first.complete);
    assert_eq!(first.progress.failed, 2);

    // A restart: a new state over the same data folder, the provider working again.
    let stand_in = StandIn::start(Script::always(ok()));
    failing.set("profiles.custom.base_url", &stand_in.base_url());
    let state = AppState::new(
        Paths::under(failing.home.path()),
        Arc::new(MemoryStore::new()),
        Environment::Fixed(EnvironmentOverrides::default()),
    );
    let listed = serde_json::to_value(commands::batch_list(&state).unwrap()).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 1);
    let earlier = &listed[0];
    assert_eq!(earlier["number"], 1);
    assert_eq!(earlier["file_name"], "подъезд-2.csv");
    assert_eq!(earlier["file_found"], true);
    assert_eq!(earlier["failed"], 2);
    assert_eq!(earlier["complete"], false);
    assert!(earlier.get("batch_id").is_none(), "the hash stays inside");

    // Continued without choosing the file again: the plan names what is left.
    let plan = commands::batch_continue(&state, 1).unwrap();
    assert_eq!(plan.batch_number, Some(1));
    assert_eq!(plan.unfinished, [2, 3]);
    assert_eq!(plan.to_send, 2);
    let summary =
        commands::batch_run(&state, &plan.check_token, false, true, "b2", &|_| {}).unwrap();
    assert!(summary.complete);
    assert_eq!(stand_in.request_count(), 2);
    let listed = commands::batch_list(&state).unwrap();
    assert!(listed[0].complete);
    assert_eq!(listed[0].ready, 2);

    // A file that is gone is said calmly; the resident may choose it again.
    std::fs::remove_file(&file).unwrap();
    assert!(!commands::batch_list(&state).unwrap()[0].file_found);
    let missing = commands::batch_continue(&state, 1).unwrap_err();
    assert_eq!(missing.kind, ErrorKind::BatchFileMissing);
    assert!(
        missing.message.contains("подъезд-2.csv"),
        "{}",
        missing.message
    );
    assert!(
        missing.message.contains("Выбрать файл"),
        "{}",
        missing.message
    );
    assert_eq!(
        commands::batch_continue(&state, 9).unwrap_err().kind,
        ErrorKind::NotFound
    );
}

#[test]
fn issue_14_a_batch_is_drafted_without_a_model() {
    // No service set up: the plan is the one without a model, and says why.
    let app = App::without_provider();
    let file = batch_file(
        &app,
        "дом.csv",
        &[
            &resident_row("Иванова", 1, "Один."),
            &resident_row("Петров", 2, "Два."),
        ],
    );
    let plan = serde_json::to_value(
        commands::batch_check(&app.state, &file, CheckOptions::default()).unwrap(),
    )
    .unwrap();
    assert_eq!(plan["offline"], true);
    assert!(plan["model_problem"].is_string(), "{plan}");
    assert_eq!(plan["cost"], json!({"kind": "nothing"}));
    assert_eq!(plan["to_send"], 0);
    assert_eq!(plan["to_draft"], 2);
    let token = plan["check_token"].as_str().unwrap();
    let with_model = commands::batch_run(&app.state, token, false, true, "b", &|_| {}).unwrap_err();
    assert_eq!(with_model.kind, ErrorKind::BatchNotChecked);
    let summary = commands::batch_run(&app.state, token, true, false, "b", &|_| {}).unwrap();
    assert_eq!(summary.progress.done, 2);
    assert_eq!(summary.progress.ready, 2);
    assert!(summary.complete);

    // With a service set up, «Составить без модели» sends nothing either.
    let app = App::with(Script::always(ok()));
    let file = batch_file(&app, "дом.csv", &[&resident_row("Иванова", 1, "Один.")]);
    let plan = commands::batch_check(&app.state, &file, CheckOptions::default()).unwrap();
    assert!(!plan.offline);
    let summary =
        commands::batch_run(&app.state, &plan.check_token, true, false, "b", &|_| {}).unwrap();
    assert_eq!(summary.progress.ready, 1);
    assert_eq!(app.requests(), 0);
}

#[test]
fn issue_14_the_rows_table_names_each_row_and_why() {
    let unclear = json!({
        "outcome": "insufficient_information", "title": null, "problem": null,
        "circumstances": null, "impact": null, "verification": null, "subject": null,
        "warnings": ["Напишите, что именно случилось."]
    });
    let app = App::with(Script::always(Reply::completion(&unclear.to_string())));
    let file = batch_file(
        &app,
        "дом.csv",
        &[
            &resident_row("Иванова А. П.", 12, "Один."),
            "Петров И. С.;14;Свет",
        ],
    );
    let plan = commands::batch_check(&app.state, &file, CheckOptions::default()).unwrap();
    commands::batch_run(&app.state, &plan.check_token, false, true, "b", &|_| {}).unwrap();
    let rows = serde_json::to_value(commands::batch_rows(&app.state, 1).unwrap()).unwrap();
    assert_eq!(
        keys(&rows[0]),
        [
            "apartment",
            "draft_id",
            "full_name",
            "reason",
            "reason_ru",
            "retryable",
            "row",
            "status",
            "status_label",
            "title"
        ]
    );
    assert_eq!(rows[0]["row"], 2);
    assert_eq!(rows[0]["full_name"], "Иванова А. П.");
    assert_eq!(rows[0]["apartment"], "12");
    assert_eq!(rows[0]["status"], "needs_user");
    assert_eq!(rows[0]["status_label"], "нужно уточнить описание");
    assert!(
        rows[0]["reason_ru"].as_str().unwrap().contains("допишите"),
        "{rows}"
    );
    assert!(rows[0]["draft_id"].is_i64());
    assert_eq!(rows[1]["row"], 3);
    assert_eq!(rows[1]["full_name"], "Петров И. С.");
    assert_eq!(rows[1]["apartment"], "14");
    assert_eq!(rows[1]["status"], "invalid");
    assert!(
        rows[1]["reason_ru"]
            .as_str()
            .unwrap()
            .contains("слишком короткое"),
        "{rows}"
    );
    assert_eq!(
        commands::batch_rows(&app.state, 2).unwrap_err().kind,
        ErrorKind::NotFound
    );
}

#[test]
fn the_profile_is_kept_refused_values_change_nothing_and_it_clears() {
    let app = App::without_provider();
    let empty = serde_json::to_value(commands::profile_get(&app.state).unwrap()).unwrap();
    assert_eq!(
        keys(&empty),
        [
            "address",
            "apartment",
            "company_address",
            "company_name",
            "email",
            "full_name",
            "phone"
        ]
    );
    assert!(empty.as_object().unwrap().values().all(Value::is_null));
    let set = commands::profile_set(&app.state, "full_name", "Иванова Анна Петровна").unwrap();
    assert_eq!(
        serde_json::to_value(&set).unwrap()["full_name"],
        "Иванова Анна Петровна"
    );
    let refused = commands::profile_set(&app.state, "email", "не почта").unwrap_err();
    assert_eq!(refused.kind, ErrorKind::InvalidSetting);
    assert!(!refused.message.is_empty());
    let unknown = commands::profile_set(&app.state, "api_key", "x").unwrap_err();
    assert_eq!(unknown.kind, ErrorKind::InvalidArgument);
    let kept = serde_json::to_value(commands::profile_get(&app.state).unwrap()).unwrap();
    assert_eq!(kept["full_name"], "Иванова Анна Петровна");
    assert_eq!(kept["email"], Value::Null);
    let cleared = serde_json::to_value(commands::profile_clear(&app.state).unwrap()).unwrap();
    assert!(cleared.as_object().unwrap().values().all(Value::is_null));
    assert_eq!(
        serde_json::to_value(commands::profile_get(&app.state).unwrap()).unwrap(),
        cleared
    );
}

#[test]
fn a_busy_service_and_a_reask_are_reported_as_they_happen() {
    let app = App::with(
        Script::new()
            .then(Reply::status(503, "busy").with_header("Retry-After", "0"))
            .then(Reply::completion("это не JSON"))
            .then(ok()),
    );
    app.set("profiles.custom.attempts", "2");
    let progress = Mutex::new(Vec::new());
    let result = commands::draft_run(&app.state, typed(Some(LIGHTING)), "t", false, &|p| {
        progress.lock().unwrap().push(p);
    })
    .unwrap();
    assert_eq!(result.outcome, "ready");
    let steps: Vec<(u32, ProgressState, Option<u64>)> = progress
        .lock()
        .unwrap()
        .iter()
        .map(|p| (p.attempt, p.state, p.wait_ms))
        .collect();
    assert_eq!(
        steps,
        [
            (1, ProgressState::Sending, None),
            (2, ProgressState::WaitingRetry, Some(0)),
            (2, ProgressState::Sending, None),
            (3, ProgressState::Reasking, None),
        ]
    );
    // As the page receives them.
    let first = serde_json::to_value(&progress.lock().unwrap()[1]).unwrap();
    assert_eq!(first["state"], "waiting_retry");
    let elapsed: Vec<u64> = progress
        .lock()
        .unwrap()
        .iter()
        .map(|p| p.elapsed_ms)
        .collect();
    assert!(elapsed.is_sorted(), "{elapsed:?}");
    assert_eq!(app.requests(), 3);
}

/// Issue 14: «Продолжить» on batch 1 continues batch 1, even when a later batch was started
/// from the same file on purpose (the CLI's `--new`), which a file chosen again would continue.
#[test]
fn issue_14_continuing_a_batch_from_the_list_continues_that_very_batch() {
    let app = App::without_provider();
    let file = batch_file(&app, "дом.csv", &[&resident_row("Иванова", 1, "Один.")]);
    let plan = commands::batch_check(&app.state, &file, CheckOptions::default()).unwrap();
    commands::batch_run(&app.state, &plan.check_token, true, false, "b", &|_| {}).unwrap();
    // A second batch from the same file, started on purpose.
    let fresh = zayavka_engine::BatchSettings {
        new_batch: true,
        ..zayavka_engine::BatchSettings::new(true)
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let second = runtime
        .block_on(app.state.engine.run_batch(
            &zayavka_engine::BatchFile::read(&file).unwrap(),
            &fresh,
            EnvironmentOverrides::default(),
            &zayavka_engine::CancellationToken::new(),
            &|_| {},
        ))
        .unwrap();
    assert_eq!(second.batch_number, 2);
    // The file chosen again continues the later batch; batch 1 from the list is batch 1.
    assert_eq!(
        commands::batch_check(&app.state, &file, CheckOptions::default())
            .unwrap()
            .batch_number,
        Some(2)
    );
    let plan = commands::batch_continue(&app.state, 1).unwrap();
    assert_eq!(plan.batch_number, Some(1));
    assert_eq!(plan.done_before, [2]);
    let summary =
        commands::batch_run(&app.state, &plan.check_token, true, false, "c", &|_| {}).unwrap();
    assert_eq!(summary.batch_number, 1);
}

#[test]
fn issue_14_closing_the_window_with_unsaved_settings_asks_the_page_first() {
    use zayavka_desktop::state::{CloseDecision, close_decision};
    // Unsaved changes and a page that listens: the window stays open and the page asks.
    assert_eq!(close_decision(true, true), CloseDecision::AskPage);
    // Nothing unsaved: the window closes as before, with no question.
    assert_eq!(close_decision(false, true), CloseDecision::Close);
    // A page that never started listening cannot answer: the window still closes.
    assert_eq!(close_decision(true, false), CloseDecision::Close);
    assert_eq!(close_decision(false, false), CloseDecision::Close);

    // The page says when it holds unsaved changes and when it no longer does.
    let app = App::without_provider();
    assert!(
        !app.state.has_unsaved(),
        "a fresh start holds nothing unsaved"
    );
    commands::window_unsaved(&app.state, true).unwrap();
    assert!(app.state.has_unsaved());
    assert_eq!(
        close_decision(app.state.has_unsaved(), true),
        CloseDecision::AskPage
    );
    commands::window_unsaved(&app.state, false).unwrap();
    assert!(!app.state.has_unsaved());
    // Closing for real after «Закрыть без сохранения» leaves nothing to ask about.
    commands::window_unsaved(&app.state, true).unwrap();
    commands::window_close(&app.state).unwrap();
    assert!(!app.state.has_unsaved());
}

/// Issue 19: a database another program holds is waited for a bounded time, then named plainly
/// as busy — a store error, not a verdict and not «internal» — and nothing is lost; the same
/// command goes through once the other program lets go.
#[test]
fn issue_19_a_database_held_by_another_program_is_waited_for_then_named() {
    let app = App::without_provider();
    let offline = commands::draft_run(&app.state, typed(None), "o", true, &|_| {}).unwrap();
    let id = serde_json::to_value(offline).unwrap()["draft_id"]
        .as_i64()
        .unwrap();

    let holder = rusqlite::Connection::open(app.state.engine.paths().database_file()).unwrap();
    holder.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let started = std::time::Instant::now();
    let error = error_json(commands::draft_delete(&app.state, id).unwrap_err());
    let waited = started.elapsed();
    assert_eq!(error["kind"], "store", "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("занята другой программой"), "{message}");
    assert!(message.contains("ничего не изменено"), "{message}");
    assert!(
        (Duration::from_secs(4)..Duration::from_secs(30)).contains(&waited),
        "waited {waited:?}"
    );

    holder.execute_batch("ROLLBACK").unwrap();
    let listed = commands::drafts_list(&app.state, ListFilter::default()).unwrap();
    assert_eq!(listed.iter().map(|d| d.id).collect::<Vec<_>>(), [id]);
    commands::draft_delete(&app.state, id).unwrap();
}

/// Issue 19: a file that is not a database in the database's place is named as such, and the
/// app never writes over it.
#[test]
fn issue_19_a_foreign_file_in_the_databases_place_is_named_and_left_alone() {
    let app = App::without_provider();
    let file = app.state.engine.paths().database_file();
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let foreign = "Это не база данных, а чья-то заметка.\n".repeat(200);
    std::fs::write(&file, &foreign).unwrap();

    let listed = error_json(commands::drafts_list(&app.state, ListFilter::default()).unwrap_err());
    assert_eq!(listed["kind"], "store", "{listed}");
    let message = listed["message"].as_str().unwrap();
    assert!(message.contains("не является базой данных"), "{message}");
    // Issue 31: the app's own way back, not the command line's.
    assert!(message.contains("«Настройки» → «Данные»"), "{message}");
    assert!(!message.contains("zayavka drafts"), "{message}");
    let drafted = commands::draft_run(&app.state, typed(None), "o", true, &|_| {});
    // Drafting still gives the request, unsaved, and says why.
    let drafted = serde_json::to_value(drafted.unwrap()).unwrap();
    assert_eq!(drafted["outcome"], "ready");
    assert!(drafted["draft_id"].is_null(), "{drafted}");
    let message = drafted["message"].as_str().unwrap();
    assert!(
        message.contains("Черновик не попал в список черновиков"),
        "{message}"
    );
    assert!(message.contains("не является базой данных"), "{message}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), foreign);
}

mod after_filing {
    //! Issue 30: a draft filed, past its deadline, answered by a complaint; a batch filed and
    //! its repeat requests written.

    use super::*;
    use zayavka_desktop::cases::{self, AnswerForm, FilingForm};

    fn filing(date: jiff::civil::Date, method: &str) -> FilingForm {
        FilingForm {
            filed_on: date.to_string(),
            method: method.to_owned(),
            // As a resident types it from the stamp, sign and all.
            number: Some("№ 15-к".to_owned()),
            addressee: Some("ООО «УК Восход»".to_owned()),
            delivered_on: None,
        }
    }

    fn day(date: jiff::civil::Date, days: i64) -> jiff::civil::Date {
        date.checked_add(jiff::Span::new().days(days)).unwrap()
    }

    fn offline_draft(app: &App) -> i64 {
        commands::draft_run(&app.state, typed(None), "t", true, &|_| {})
            .unwrap()
            .draft_id
            .unwrap()
    }

    #[test]
    fn a_draft_is_filed_passes_its_deadline_and_gets_a_complaint_an_answer_and_a_closing() {
        let app = App::without_provider();
        let id = offline_draft(&app);
        let today = jiff::Zoned::now().date();
        app.state.fix_today(today);

        let fresh = serde_json::to_value(cases::case_get(&app.state, id).unwrap()).unwrap();
        assert_eq!(fresh["can_file"], true);
        assert_eq!(fresh["case"], Value::Null);
        assert_eq!(fresh["today"], today.to_string());

        // Refused, and nothing recorded: a date to come, a blank date, a delivery for a visit.
        let future = cases::case_file(&app.state, id, &filing(day(today, 1), "in_person"));
        let future = future.unwrap_err();
        assert_eq!(future.kind, ErrorKind::InvalidSetting);
        assert!(
            future.message.contains("ещё не наступила"),
            "{}",
            future.message
        );
        let mut no_date = filing(today, "in_person");
        no_date.filed_on = " ".to_owned();
        let refused = cases::case_file(&app.state, id, &no_date).unwrap_err();
        assert_eq!(refused.message, "Укажите дату подачи. Ничего не изменено.");
        let mut visit = filing(today, "in_person");
        visit.delivered_on = Some(today.to_string());
        let refused = cases::case_file(&app.state, id, &visit).unwrap_err();
        assert!(
            refused.message.contains("Дата вручения нужна только"),
            "{}",
            refused.message
        );
        assert!(
            cases::case_get(&app.state, id).unwrap().case.is_none(),
            "nothing recorded"
        );

        let filed = serde_json::to_value(
            cases::case_file(&app.state, id, &filing(today, "in_person")).unwrap(),
        )
        .unwrap();
        assert_eq!(filed["can_file"], false);
        assert!(
            filed["facts"][0]
                .as_str()
                .unwrap()
                .contains("входящий №\u{a0}15-к, адресат: ООО «УК Восход»"),
            "the stamp's sign once, not «№ № 15-к»: {}",
            filed["facts"]
        );
        assert_eq!(
            filed["case"]["case"]["filing"]["number"], "№ 15-к",
            "kept as typed"
        );
        let deadline = filed["deadline_line"].as_str().unwrap();
        assert!(
            deadline.starts_with("Ответ должен прийти не позднее"),
            "{deadline}"
        );
        assert_eq!(filed["case"]["state"]["state"], "waiting");
        assert_eq!(filed["can_follow_up"], false);

        // The text no longer changes; a letter after it waits for the deadline.
        let edit = commands::draft_edit(&app.state, id, "Другой", "Другой текст").unwrap_err();
        assert!(
            edit.message.contains("отмечен как поданный"),
            "{}",
            edit.message
        );
        let early = cases::follow_up_write(&app.state, id, "repeat", None).unwrap_err();
        assert!(early.message.contains("ещё не истёк"), "{}", early.message);
        let due = serde_json::to_value(cases::cases_due(&app.state).unwrap()).unwrap();
        assert_eq!(due["overdue"], 0);
        assert_eq!(due["cases"][0]["draft_id"], id);
        let (file_name, event) = cases::case_calendar(&app.state, id).unwrap();
        assert_eq!(file_name, format!("Срок-ответа-{id}.ics"));
        assert!(event.starts_with("BEGIN:VCALENDAR"), "{event}");

        // Forty days on, the answer is overdue: «Сроки» puts it first, the complaint is written.
        let later = day(today, 40);
        app.state.fix_today(later);
        let due = serde_json::to_value(cases::cases_due(&app.state).unwrap()).unwrap();
        assert_eq!(due["overdue"], 1);
        assert_eq!(due["cases"][0]["state"]["state"], "overdue");
        assert!(
            due["cases"][0]["state_ru"]
                .as_str()
                .unwrap()
                .starts_with("срок ответа истёк"),
            "{}",
            due["cases"][0]["state_ru"]
        );
        assert!(cases::case_get(&app.state, id).unwrap().can_follow_up);
        let nameless = cases::follow_up_write(&app.state, id, "complaint", Some("  ")).unwrap_err();
        assert_eq!(nameless.kind, ErrorKind::InvalidSetting);
        let complaint = cases::follow_up_write(
            &app.state,
            id,
            "complaint",
            Some("Государственная жилищная инспекция Московской области"),
        )
        .unwrap();
        let letter = cases::case_get(&app.state, complaint).unwrap();
        assert_eq!(letter.follows.as_ref().unwrap().kind, "complaint");
        assert_eq!(letter.follows.as_ref().unwrap().draft_id, Some(id));
        assert!(letter.can_file, "the complaint is a ready draft to file");
        let printed = commands::draft_document(&app.state, complaint, false).unwrap();
        let printed = serde_json::to_string(&printed).unwrap();
        assert!(printed.contains("Государственная жилищная инспекция Московской области"));
        assert!(
            printed.contains("15-к"),
            "the first request's number is cited"
        );
        assert_eq!(
            cases::case_get(&app.state, id).unwrap().follow_ups[0].draft_id,
            Some(complaint)
        );

        // The answer, late and a refusal; closing and opening again.
        let answered = cases::case_answer(
            &app.state,
            id,
            &AnswerForm {
                answered_on: later.to_string(),
                result: "refused".to_owned(),
            },
        )
        .unwrap();
        assert!(answered.facts.iter().any(|line| line.ends_with(": отказ.")));
        assert!(
            answered
                .facts
                .iter()
                .any(|line| line.starts_with("Ответ пришёл позже срока"))
        );
        assert_eq!(answered.deadline_line, None);
        assert!(answered.can_follow_up, "a refusal may be taken further");
        let closed = cases::case_close(&app.state, id, true).unwrap();
        assert!(closed.facts.last().unwrap().starts_with("Дело закрыто"));
        assert!(!closed.can_follow_up);
        let open = cases::case_close(&app.state, id, false).unwrap();
        assert!(!open.facts.last().unwrap().starts_with("Дело закрыто"));

        // A filing marked by mistake is taken back: the text can change again.
        let unfiled = cases::case_unfile(&app.state, id).unwrap();
        assert!(unfiled.case.is_none() && unfiled.can_file);
        commands::draft_edit(&app.state, id, "Свет на лестнице", "Текст заявки.").unwrap();

        // A correction is a new draft.
        cases::case_file(&app.state, id, &filing(later, "email")).unwrap();
        let copy = cases::draft_correct(&app.state, id).unwrap();
        assert_ne!(copy, id);
        assert_eq!(
            cases::case_get(&app.state, copy)
                .unwrap()
                .follows
                .unwrap()
                .kind,
            "correction"
        );
    }

    #[test]
    fn a_batch_is_filed_in_one_step_and_its_repeat_requests_are_written_as_documents() {
        let app = App::without_provider();
        let file = app.home.path().join("подъезд.csv");
        std::fs::write(
            &file,
            format!("Описание\n{DESCRIPTION}\nСвет\n{DESCRIPTION} Второй подъезд.\n"),
        )
        .unwrap();
        let check = commands::batch_check(&app.state, &file, CheckOptions::default()).unwrap();
        commands::batch_run(&app.state, &check.check_token, true, false, "b", &|_| {}).unwrap();
        let today = jiff::Zoned::now().date();
        app.state.fix_today(today);

        let none = serde_json::to_value(cases::batch_cases(&app.state, 1).unwrap()).unwrap();
        assert_eq!(none["filed"], 0);
        let filed = cases::batch_file(&app.state, 1, &[], &filing(today, "in_person")).unwrap();
        assert_eq!(filed.filed, 2);
        assert!(
            filed.message.starts_with("Отмечено поданными"),
            "{}",
            filed.message
        );
        assert_eq!(filed.cases.filed, 2);
        let again =
            cases::batch_file(&app.state, 1, &[2, 3, 9], &filing(today, "in_person")).unwrap();
        assert_eq!(again.filed, 0);
        assert!(
            again.message.contains("Строки 2: уже были отмечены")
                && again.message.contains("Строки 3: без готовой заявки")
                && again.message.contains("Строки 9: таких строк в пакете нет"),
            "{}",
            again.message
        );

        let folder = app.home.path().join("письма");
        std::fs::create_dir(&folder).unwrap();
        let repeats = || {
            cases::batch_follow_up(
                &app.state,
                1,
                "repeat",
                None,
                zayavka_engine::DocumentFormat::Txt,
                &folder,
            )
            .unwrap()
        };
        let early = repeats();
        assert_eq!(early.written, 0);
        assert!(
            early.message.contains("срок ответа ещё не истёк"),
            "{}",
            early.message
        );

        app.state.fix_today(day(today, 40));
        let counts = cases::batch_cases(&app.state, 1).unwrap();
        assert_eq!(counts.counts.overdue, 2);
        let letters = repeats();
        assert_eq!(letters.written, 2);
        let repeat = std::fs::read_to_string(folder.join("row-0002-repeat.txt")).unwrap();
        assert!(repeat.contains("15-к"), "{repeat}");
        assert!(folder.join("row-0004-repeat.txt").is_file());
    }

    /// Issue 38: filed on 24 December 2027, the deadline runs into 2028, which the data hold no
    /// calendar for: the app shows a date all the same, marked provisional in the state and in
    /// the deadline line.
    #[test]
    fn issue_38_a_deadline_into_a_year_without_a_calendar_is_shown_provisional() {
        let app = App::without_provider();
        let id = offline_draft(&app);
        app.state.fix_today(jiff::civil::date(2027, 12, 27));
        let filed = cases::case_file(
            &app.state,
            id,
            &filing(jiff::civil::date(2027, 12, 24), "in_person"),
        )
        .unwrap();
        let detail = serde_json::to_value(filed).unwrap();
        assert_eq!(detail["case"]["deadline"]["due"], "2028-01-17", "{detail}");
        assert_eq!(
            detail["case"]["state_ru"], "ждём ответа до 17 января 2028 г. (срок предварительный)",
            "{detail}"
        );
        let line = detail["deadline_line"].as_str().unwrap();
        assert!(
            line.starts_with("Ответ должен прийти не позднее 17 января 2028 г.:")
                && line.ends_with(
                    "Срок предварительный: постановление о переносе выходных дней на 2028 год в \
                     программе ещё не учтено."
                ),
            "{line}"
        );
        let due = serde_json::to_value(cases::cases_due(&app.state).unwrap()).unwrap();
        assert_eq!(
            due["cases"][0]["state_ru"], "ждём ответа до 17 января 2028 г. (срок предварительный)",
            "{due}"
        );
    }

    /// Issue 38: a request filed before Zayavka, recorded in the app with its text as filed:
    /// filed already, its deadline counted from a day before the draft existed, opened with
    /// its text marked as filed; a date to come or before 2000 records nothing.
    #[test]
    fn issue_38_a_request_filed_before_zayavka_is_recorded_in_the_app() {
        let app = App::without_provider();
        app.state.fix_today(jiff::civil::date(2026, 12, 7));
        let text = "Прошу заменить перегоревшую лампу на площадке 3 этажа подъезда 2.";
        let detail = cases::case_bring_in(
            &app.state,
            text,
            &filing(jiff::civil::date(2026, 11, 20), "in_person"),
        )
        .unwrap();
        let detail = serde_json::to_value(detail).unwrap();
        assert_eq!(detail["case"]["deadline"]["due"], "2026-12-04", "{detail}");
        assert_eq!(detail["case"]["state"]["state"], "overdue", "{detail}");
        assert_eq!(detail["can_follow_up"], true, "{detail}");
        let id = detail["draft_id"].as_i64().unwrap();
        let opened = serde_json::to_value(commands::draft_open(&app.state, id).unwrap()).unwrap();
        let edited = &opened["result"]["request"]["edited"];
        assert_eq!(edited["body"], text, "{opened}");
        assert_eq!(edited["brought_in"], true, "{opened}");
        for (day, word) in [
            (jiff::civil::date(2026, 12, 20), "ещё не наступила"),
            (jiff::civil::date(1999, 12, 31), "с 2000 года"),
        ] {
            let refused =
                cases::case_bring_in(&app.state, text, &filing(day, "email")).unwrap_err();
            assert!(refused.message.contains(word), "{}", refused.message);
        }
        let refused = cases::case_bring_in(
            &app.state,
            "Свет",
            &filing(jiff::civil::date(2026, 11, 20), "email"),
        )
        .unwrap_err();
        assert!(
            refused.message.starts_with("Текст заявки не записан"),
            "{}",
            refused.message
        );
        assert_eq!(
            commands::drafts_list(&app.state, ListFilter::default())
                .unwrap()
                .len(),
            1,
            "nothing else was recorded"
        );
    }
}
