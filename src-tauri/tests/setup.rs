//! The first-run setup's commands (issue 15) against a temporary `ZAYAVKA_HOME` and the stand-in
//! playing GigaChat and Yandex AI Studio: when the page opens on the setup, «Пока без модели»
//! remembered durably, and «Проверить подключение» saying plainly whether drafting will work.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use zayavka_desktop::commands;
use zayavka_desktop::error::ErrorKind;
use zayavka_desktop::setup::{self, SKIP_MARKER};
use zayavka_desktop::state::{AppState, Environment};
use zayavka_engine::{
    EnvironmentOverrides, MemoryStore, Paths, ProviderKind, ProviderOverrides, set_config_value,
};
use zayavka_standin::{Reply, Script, Service, StandIn};

const FOLDER: &str = "b1gexamplefolder0a1b";
const AUTHORIZATION_KEY: &str = "Y2FuYXJ5LWNsaWVudDpjYW5hcnktc2V0dXAtY2hlY2s=";
const YANDEX_KEY: &str = "AQVN-canary-setup-0123456789abcdefghij";

fn valid_draft() -> Value {
    zayavka_standin::lighting_draft()
}

struct App {
    home: tempfile::TempDir,
    state: AppState,
}

impl App {
    fn fresh() -> App {
        App::with_environment(EnvironmentOverrides::default())
    }

    fn with_environment(environment: EnvironmentOverrides) -> App {
        let home = tempfile::tempdir().unwrap();
        let state = AppState::new(
            Paths::under(home.path()),
            Arc::new(MemoryStore::new()),
            Environment::Fixed(environment),
        );
        App { home, state }
    }

    fn first_run(&self) -> bool {
        commands::settings_get(&self.state).unwrap().first_run
    }

    fn check(&self) -> Value {
        serde_json::to_value(setup::setup_check(&self.state).unwrap()).unwrap()
    }
}

fn gigachat_stand_in() -> StandIn {
    let schema_name = zayavka_core::request_draft_schema().name;
    StandIn::start_as(
        Service::GigaChat {
            authorization_key: AUTHORIZATION_KEY.to_owned(),
            scope: "GIGACHAT_API_PERS".to_owned(),
            token_lifetime: Duration::from_secs(1800),
        },
        Script::always(Reply::function_call(schema_name, valid_draft())),
    )
}

/// GigaChat chosen as the setup screen chooses it: the profile, the address (here the
/// stand-in's), the key; the token endpoint is not on the screen, so the test points it.
fn choose_gigachat(app: &App, stand_in: &StandIn, key: &str) {
    commands::settings_set(&app.state, "active_profile", "gigachat").unwrap();
    commands::settings_set(&app.state, "scope", "GIGACHAT_API_PERS").unwrap();
    commands::settings_set(&app.state, "base_url", &stand_in.base_url()).unwrap();
    set_config_value(
        &app.state.engine.paths().config_file(),
        "profiles.gigachat.auth_url",
        &stand_in.auth_url(),
    )
    .unwrap();
    commands::key_set(&app.state, key).unwrap();
}

fn statuses(report: &Value) -> Vec<(String, String)> {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|check| {
            (
                check["id"].as_str().unwrap().to_owned(),
                check["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn is_russian(text: &str) -> bool {
    text.chars().any(|c| ('а'..='я').contains(&c))
}

#[test]
fn a_fresh_installation_opens_on_the_setup_until_it_is_skipped() {
    let app = App::fresh();
    let view = serde_json::to_value(commands::settings_get(&app.state).unwrap()).unwrap();
    assert_eq!(view["first_run"], true);

    setup::setup_skip(&app.state).unwrap();
    let marker = app.home.path().join(SKIP_MARKER);
    assert!(
        marker.is_file(),
        "the marker is in the configuration folder"
    );
    assert!(!app.first_run(), "skipped: the setup does not come back");
    // A second skip (from «Пропустить» on a setup opened from «Настройки») is harmless.
    setup::setup_skip(&app.state).unwrap();
    assert!(!app.first_run());
    // The marker is the only file written: no configuration, no temporary file left behind.
    let names: Vec<String> = std::fs::read_dir(app.home.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, [SKIP_MARKER]);

    // A new start over the same folder (a new state) still finds it.
    let again = AppState::new(
        Paths::under(app.home.path()),
        Arc::new(MemoryStore::new()),
        Environment::Fixed(EnvironmentOverrides::default()),
    );
    assert!(!commands::settings_get(&again).unwrap().first_run);
}

#[test]
fn a_chosen_service_or_an_environment_override_is_not_a_first_run() {
    let chosen = App::fresh();
    commands::settings_set(&chosen.state, "active_profile", "ollama").unwrap();
    assert!(!chosen.first_run());

    // Chosen, even when incomplete: the resident has been to the settings already.
    let incomplete = App::fresh();
    commands::settings_set(&incomplete.state, "active_profile", "yandex").unwrap();
    assert!(!incomplete.first_run());

    let overridden = App::with_environment(EnvironmentOverrides {
        provider: ProviderOverrides::from_lookup(|variable| {
            (variable == "ZAYAVKA_BASE_URL").then(|| "http://127.0.0.1:9/v1".to_owned())
        })
        .unwrap(),
        api_key: None,
    });
    assert!(!overridden.first_run(), "ZAYAVKA_BASE_URL sets a provider");

    // The number of attempts or a timeout tunes a service but chooses none.
    let tuned = App::with_environment(EnvironmentOverrides {
        provider: ProviderOverrides::from_lookup(|variable| match variable {
            "ZAYAVKA_ATTEMPTS" => Some("1".to_owned()),
            "ZAYAVKA_TIMEOUT_SECS" => Some("120".to_owned()),
            _ => None,
        })
        .unwrap(),
        api_key: None,
    });
    assert!(tuned.first_run());
}

#[test]
fn a_skip_that_cannot_be_written_says_so_in_russian() {
    let app = App::fresh();
    // A folder where the marker should be: the rename over it fails.
    std::fs::create_dir(app.home.path().join(SKIP_MARKER)).unwrap();
    let error = setup::setup_skip(&app.state).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Write);
    assert!(
        error
            .message
            .starts_with("Не удалось запомнить выбор «Пока без модели»"),
        "{}",
        error.message
    );
}

#[test]
fn the_check_with_no_service_chosen_is_not_ready() {
    let app = App::fresh();
    let report = app.check();
    assert_eq!(report["ready"], false);
    assert_eq!(
        statuses(&report),
        [("provider".to_owned(), "warning".to_owned())]
    );
    let check = &report["checks"][0];
    let mut keys: Vec<&str> = check
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(keys, ["id", "message", "next_step", "status", "title"]);
    assert_eq!(check["title"], "Сервис модели");
    assert!(is_russian(check["message"].as_str().unwrap()));
    assert_eq!(check["next_step"], "configure_provider");
}

#[test]
fn gigachat_chosen_on_the_setup_is_checked_with_one_real_call_and_is_ready() {
    let stand_in = gigachat_stand_in();
    let app = App::fresh();
    choose_gigachat(&app, &stand_in, AUTHORIZATION_KEY);
    let report = app.check();
    assert_eq!(report["ready"], true, "{report}");
    assert_eq!(
        statuses(&report),
        [
            ("provider".to_owned(), "ok".to_owned()),
            ("api_key".to_owned(), "ok".to_owned()),
            // GigaChat's key is exchanged for a token on a line of its own.
            ("token_exchange".to_owned(), "ok".to_owned()),
            ("schema_mode".to_owned(), "ok".to_owned()),
        ]
    );
    assert!(
        stand_in.token_exchanges() >= 1,
        "the key was exchanged for a token"
    );
    assert!(
        stand_in.request_count() >= 1,
        "one small real call was made"
    );
    assert!(!report.to_string().contains(AUTHORIZATION_KEY));
    assert!(!app.first_run());
}

#[test]
fn a_wrong_gigachat_key_is_not_ready_and_says_what_to_change() {
    let stand_in = gigachat_stand_in();
    let app = App::fresh();
    let wrong = "d3JvbmctY2xpZW50Ondyb25nLXNlY3JldC1zZXR1cA==";
    choose_gigachat(&app, &stand_in, wrong);
    let report = app.check();
    assert_eq!(report["ready"], false, "{report}");
    let problems: Vec<&Value> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|check| check["status"] == "problem")
        .collect();
    assert!(!problems.is_empty(), "{report}");
    for problem in &problems {
        let message = problem["message"].as_str().unwrap();
        assert!(is_russian(message), "{message}");
        // A plain sentence for a resident: no HTTP status, no dotted configuration path.
        assert!(!message.contains("401"), "{message}");
        assert!(!message.contains("profiles."), "{message}");
    }
    assert_eq!(stand_in.token_exchanges(), 0, "the wrong key got no token");
    let text = report.to_string();
    assert!(!text.contains(wrong) && !text.contains(AUTHORIZATION_KEY));
}

#[test]
fn yandex_chosen_on_the_setup_is_checked_with_the_api_key_and_the_folder() {
    let stand_in = StandIn::start_as(
        Service::Yandex {
            api_key: YANDEX_KEY.to_owned(),
            folder_id: FOLDER.to_owned(),
        },
        Script::always(Reply::completion(&valid_draft().to_string())),
    );
    let app = App::fresh();
    commands::settings_set(&app.state, "active_profile", "yandex").unwrap();
    commands::settings_set(&app.state, "folder_id", FOLDER).unwrap();
    commands::settings_set(&app.state, "base_url", &stand_in.base_url()).unwrap();
    commands::key_set(&app.state, YANDEX_KEY).unwrap();
    let report = app.check();
    assert_eq!(report["ready"], true, "{report}");
    let request = stand_in.requests().pop().unwrap();
    assert_eq!(request.header("x-folder-id"), Some(FOLDER));
    assert!(!report.to_string().contains(YANDEX_KEY));
}

#[test]
fn a_local_server_that_is_not_running_is_not_ready() {
    // A port nothing listens on: the resident has not started Ollama yet.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = format!("http://{}/v1", listener.local_addr().unwrap());
    drop(listener);
    let app = App::fresh();
    commands::settings_set(&app.state, "active_profile", "ollama").unwrap();
    commands::settings_set(&app.state, "base_url", &address).unwrap();
    let report = app.check();
    assert_eq!(report["ready"], false, "{report}");
    let provider = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|check| check["id"] == "provider")
        .unwrap();
    assert_eq!(provider["status"], "problem");
    assert!(is_russian(provider["message"].as_str().unwrap()));
}

/// The browser tests' fake IPC (tests/ui/fake-tauri.js) answers `settings_get` with the presets
/// in the engine's order and words, so the setup screen tested there is the one the app shows.
#[test]
fn the_fake_ipc_lists_the_presets_as_settings_get_does() {
    let fake = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/ui/fake-tauri.js"),
    )
    .unwrap();
    let mut last = 0;
    for kind in ProviderKind::ALL {
        let entry = format!("{{ name: '{}', label: '{}'", kind.as_str(), kind.title());
        let at = fake
            .find(&entry)
            .unwrap_or_else(|| panic!("the fake has no preset «{entry}»"));
        assert!(at > last, "{} is out of the engine's order", kind.as_str());
        last = at;
        let line = &fake[at..fake[at..].find('\n').map_or(fake.len(), |end| at + end)];
        for note in [kind.privacy_note_ru(), kind.cost_note_ru()] {
            assert!(
                line.contains(&format!("'{note}'")),
                "{}: {note}",
                kind.as_str()
            );
        }
    }
}
