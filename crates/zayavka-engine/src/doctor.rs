//! `zayavka doctor`: what works, what does not, and what to do about it.

use serde::Serialize;
use zayavka_core::{legal_catalogue, schema_registry};
use zayavka_llm::{Budget, CancellationToken, Client, Endpoint};

use crate::config::{Config, ProviderOverrides, resolve_provider};
use crate::draft::{EnvironmentOverrides, failure_from};
use crate::paths::Paths;
use crate::secrets::SecretStore;

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckStatus {
    /// Works.
    Ok,
    /// Works, with something worth knowing.
    Warning,
    /// Does not work; the message says how to fix it.
    Problem,
}

/// One check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// A stable name.
    pub name: &'static str,
    /// The result.
    pub status: CheckStatus,
    /// What was found and what to do, in Russian.
    pub message: String,
}

impl Check {
    fn new(name: &'static str, status: CheckStatus, message: impl Into<String>) -> Check {
        Check {
            name,
            status,
            message: message.into(),
        }
    }
}

/// Runs every check. `today` decides which legal modules are past `valid_through`.
pub async fn run_doctor(
    paths: &Paths,
    store: &dyn SecretStore,
    environment: EnvironmentOverrides,
    today: jiff::civil::Date,
    cancel: &CancellationToken,
) -> Vec<Check> {
    let mut checks = vec![data_folder(paths)];
    let config = match Config::load(&paths.config_file()) {
        Ok(config) => {
            checks.push(Check::new(
                "config",
                CheckStatus::Ok,
                format!("Настройки читаются: {}.", paths.config_file().display()),
            ));
            config
        }
        Err(error) => {
            checks.push(Check::new(
                "config",
                CheckStatus::Problem,
                error.message_ru(),
            ));
            Config::default()
        }
    };
    checks.extend(provider_checks(&config, store, environment, cancel).await);
    checks.push(schemas());
    checks.extend(legal_modules(today));
    checks
}

fn data_folder(paths: &Paths) -> Check {
    match paths.ensure_dirs() {
        Ok(()) => Check::new(
            "data_folder",
            CheckStatus::Ok,
            format!("Папка данных доступна: {}.", paths.data_dir().display()),
        ),
        Err(error) => Check::new("data_folder", CheckStatus::Problem, error.message_ru()),
    }
}

async fn provider_checks(
    config: &Config,
    store: &dyn SecretStore,
    environment: EnvironmentOverrides,
    cancel: &CancellationToken,
) -> Vec<Check> {
    let overrides: ProviderOverrides = environment.provider;
    let provider = match resolve_provider(config, &overrides) {
        Ok(Some(provider)) => provider,
        Ok(None) => {
            return vec![Check::new(
                "provider",
                CheckStatus::Warning,
                "Провайдер модели не выбран: заявки составляются только без модели (--offline). \
                 Выбрать провайдера: zayavka config set active_profile openai (или ollama, \
                 lmstudio, llamacpp, openrouter).",
            )];
        }
        Err(error) => {
            return vec![Check::new(
                "provider",
                CheckStatus::Problem,
                error.message_ru(),
            )];
        }
    };
    // The keyring is asked once: for the check and for the key the probe sends. An
    // environment key makes the keyring irrelevant, so it is not asked at all.
    let stored = match &environment.api_key {
        Some(_) => Ok(None),
        None => store.get(&provider.profile),
    };
    let key_check = match (&environment.api_key, &stored) {
        (Some(_), _) => Check::new(
            "api_key",
            CheckStatus::Ok,
            "Ключ доступа берётся из переменной ZAYAVKA_API_KEY.",
        ),
        (None, Ok(Some(_))) => Check::new(
            "api_key",
            CheckStatus::Ok,
            format!(
                "Ключ доступа сохранён в хранилище ключей ({}).",
                store.backend_name()
            ),
        ),
        (None, Ok(None)) if provider.needs_api_key => Check::new(
            "api_key",
            CheckStatus::Problem,
            format!(
                "Для профиля «{}» не сохранён ключ доступа. Сохраните его: zayavka key set.",
                provider.profile.as_str()
            ),
        ),
        (None, Err(error)) if provider.needs_api_key => {
            Check::new("api_key", CheckStatus::Problem, error.message_ru())
        }
        _ => Check::new(
            "api_key",
            CheckStatus::Ok,
            "Этому провайдеру ключ доступа не нужен.",
        ),
    };
    let api_key = environment
        .api_key
        .as_ref()
        .or(stored.as_ref().ok().and_then(Option::as_ref))
        .map(|key| key.to_transport());
    let budget = Budget {
        max_attempts: 1,
        ..Budget::default()
    };
    let endpoint = Endpoint::new(provider.base_url.as_url().clone(), api_key);
    let reach = match Client::new(endpoint, budget) {
        Err(error) => Check::new(
            "provider",
            CheckStatus::Problem,
            failure_from(&error).reason.message_ru(),
        ),
        Ok(client) => match client.probe(cancel).await {
            Ok(401 | 403) => Check::new(
                "provider",
                CheckStatus::Problem,
                format!(
                    "Провайдер {} отвечает, но не принимает ключ доступа. Проверьте ключ: \
                     zayavka key set.",
                    provider.base_url.host()
                ),
            ),
            Ok(status) => Check::new(
                "provider",
                CheckStatus::Ok,
                format!(
                    "Провайдер {} ({}, модель {}) отвечает (HTTP {status}).",
                    provider.base_url.host(),
                    provider.kind.title(),
                    provider.model
                ),
            ),
            Err(error) => Check::new(
                "provider",
                CheckStatus::Problem,
                format!(
                    "Провайдер {} не отвечает: {} Без модели заявку можно составить с --offline.",
                    provider.base_url.host(),
                    failure_from(&error).reason.message_ru()
                ),
            ),
        },
    };
    vec![reach, key_check]
}

fn schemas() -> Check {
    let names: Vec<String> = schema_registry()
        .iter()
        .map(|s| format!("{} v{} ({}…)", s.key, s.version, &s.sha256()[..12]))
        .collect();
    Check::new(
        "schemas",
        CheckStatus::Ok,
        format!("Схемы ответа модели: {}.", names.join(", ")),
    )
}

fn legal_modules(today: jiff::civil::Date) -> Vec<Check> {
    let catalogue = legal_catalogue();
    let expired: Vec<String> = catalogue
        .past_valid_through(today)
        .iter()
        .map(|m| format!("{} (до {})", m.id, m.valid_through))
        .collect();
    let awaiting: Vec<&str> = catalogue
        .awaiting_verification()
        .iter()
        .map(|m| m.id.as_str())
        .collect();
    let mut checks = Vec::new();
    checks.push(if expired.is_empty() {
        Check::new(
            "legal_modules_valid",
            CheckStatus::Ok,
            format!(
                "Правовые модули (каталог {}) действуют на сегодня.",
                catalogue.version()
            ),
        )
    } else {
        Check::new(
            "legal_modules_valid",
            CheckStatus::Problem,
            format!(
                "Правовые модули нужно заново сверить с официальным текстом: срок их проверки \
                 истёк — {}. Обновите программу или см. docs/legal-maintenance.md.",
                expired.join(", ")
            ),
        )
    });
    if !awaiting.is_empty() {
        checks.push(Check::new(
            "legal_modules_review",
            CheckStatus::Warning,
            format!(
                "Ещё не полностью сверены с официальным текстом сопровождающими: {}.",
                awaiting.join(", ")
            ),
        ));
    }
    checks
}
