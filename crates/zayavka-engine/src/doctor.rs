//! The checks behind `zayavka doctor` and the desktop app's «Проверить подключение»: what works,
//! what does not, and — as a typed next step each front end words itself — what to do about it.

use serde::Serialize;
use zayavka_core::{NextStep, legal_catalogue, request_draft_schema, schema_registry};
use zayavka_llm::{Budget, CancellationToken, Client, LlmError, ModeSupport};

use crate::config::{Config, ProviderOverrides, ServiceAccess, resolve_provider};
use crate::draft::advice::failure_for;
use crate::draft::{EnvironmentOverrides, failure_from};
use crate::paths::Paths;
use crate::secrets::{ApiKeySource, SecretStore};

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum CheckStatus {
    /// Works.
    Ok,
    /// Works, with something worth knowing.
    Warning,
    /// Does not work; the message says how to fix it.
    Problem,
}

/// What a check is about, serialised as the stable code `doctor --json` and the app's checks
/// have always carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum CheckName {
    /// The data folder can be written.
    DataFolder,
    /// The settings file reads.
    Config,
    /// The model service answers.
    Provider,
    /// The key is there and accepted.
    ApiKey,
    /// GigaChat's key is exchanged for an access token.
    TokenExchange,
    /// Which response formats the server takes.
    SchemaMode,
    /// The released schemas are intact.
    Schemas,
    /// The legal modules read and validate.
    LegalModulesValid,
    /// The legal modules are within their review dates.
    LegalModulesReview,
    /// The answer terms and the production calendar: current, covering this year (and next
    /// year from October), and how far they are checked (issue 30).
    Deadlines,
}

impl CheckName {
    /// What the check is about, in Russian, as a short heading.
    pub fn title_ru(self) -> &'static str {
        match self {
            CheckName::DataFolder => "Папка с данными",
            CheckName::Config => "Файл настроек",
            CheckName::Provider => "Сервис модели",
            CheckName::ApiKey => "Ключ доступа",
            CheckName::TokenExchange => "Обмен ключа на токен GigaChat",
            CheckName::SchemaMode => "Формат ответа модели",
            CheckName::Schemas => "Проверка ответов модели",
            CheckName::LegalModulesValid => "Нормативные абзацы",
            CheckName::LegalModulesReview => "Сверка нормативных абзацев",
            CheckName::Deadlines => "Сроки ответа и производственный календарь",
        }
    }
}

/// One check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// What was checked, serialised as a stable code.
    pub name: CheckName,
    /// The result.
    pub status: CheckStatus,
    /// What was found, in Russian, naming no command or button: plain words for a resident,
    /// which the app's «Проверить подключение» shows as they are.
    pub message: String,
    /// For maintainers: the internal details behind the message (module ids, dates, schema
    /// hashes, HTTP statuses), which `zayavka doctor` prints and the app leaves out.
    pub detail: Option<String>,
    /// What the resident can do about it, the most useful first; empty when nothing is needed.
    pub next_steps: Vec<NextStep>,
}

impl Check {
    /// What the check is about, in Russian, as a short heading.
    pub fn title_ru(&self) -> &'static str {
        self.name.title_ru()
    }

    fn new(name: CheckName, status: CheckStatus, message: impl Into<String>) -> Check {
        Check {
            name,
            status,
            message: message.into(),
            detail: None,
            next_steps: Vec::new(),
        }
    }

    fn detail(mut self, detail: impl Into<String>) -> Check {
        self.detail = Some(detail.into());
        self
    }

    fn then(mut self, steps: &[NextStep]) -> Check {
        self.next_steps = steps.to_vec();
        self
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
                CheckName::Config,
                CheckStatus::Ok,
                format!("Настройки читаются: {}.", paths.config_file().display()),
            ));
            config
        }
        Err(error) => {
            let steps: Vec<NextStep> = error.next_step().into_iter().collect();
            checks.push(
                Check::new(CheckName::Config, CheckStatus::Problem, error.message_ru())
                    .then(&steps),
            );
            Config::default()
        }
    };
    checks.extend(provider_checks(&config, store, environment, cancel).await);
    checks.push(schemas());
    checks.extend(legal_modules(today));
    checks.push(deadline_data(today));
    checks
}

/// The check of the deadline data on `today`: a term past its review date or a year the
/// calendar lacks is a problem (deadlines that need it are not counted); data not yet checked
/// against the official texts are a warning, listed in the detail.
pub fn deadline_data(today: jiff::civil::Date) -> Check {
    deadline_data_of(zayavka_core::deadlines(), today)
}

fn deadline_data_of(data: &zayavka_core::Deadlines, today: jiff::civil::Date) -> Check {
    let mut check = deadline_check(data, today);
    // Which years are the data's and which provisional, where a resident reads it (the app
    // shows the message, not the detail; issue 38).
    let years: Vec<i16> = data.calendar_years().map(|year| year.year).collect();
    if let (Some(first), Some(last)) = (years.first(), years.last()) {
        check.message = format!(
            "{} Производственный календарь в программе — на {first}–{last} гг.; сроки в другие \
             годы считаются предварительно, по Трудовому кодексу.",
            check.message
        );
    }
    check
}

fn deadline_check(data: &zayavka_core::Deadlines, today: jiff::civil::Date) -> Check {
    let years: Vec<i16> = data.calendar_years().map(|year| year.year).collect();
    let covered = match (years.first(), years.last()) {
        (Some(first), Some(last)) => format!("{first}–{last}"),
        _ => "нет".to_owned(),
    };
    let expired: Vec<String> = data
        .terms_past_valid_through(today)
        .iter()
        .map(|term| {
            format!(
                "срок ответа {} (до {})",
                term.id.name_ru(),
                term.valid_through
            )
        })
        .collect();
    // The government sets next year's transfers in the autumn.
    let needed: Vec<i16> = if today.month() >= 10 {
        vec![today.year(), today.year() + 1]
    } else {
        vec![today.year()]
    };
    let missing: Vec<String> = needed
        .into_iter()
        .filter(|year| data.calendar_year(*year).is_none())
        .map(|year| year.to_string())
        .collect();
    let awaiting = data.awaiting_verification();
    let detail = format!(
        "производственный календарь: {covered} — по данным программы, другие годы — \
         предварительно, по ТК РФ, ст. 112, без постановления о переносе выходных; {}ещё не \
         сверены с официальным текстом: {}; см. docs/legal-maintenance.md",
        if expired.is_empty() {
            String::new()
        } else {
            format!("истёк срок сверки: {}; ", expired.join(", "))
        },
        if awaiting.is_empty() {
            "ничего".to_owned()
        } else {
            awaiting.join(", ")
        }
    );
    if !expired.is_empty() {
        return Check::new(
            CheckName::Deadlines,
            CheckStatus::Problem,
            "Срок сверки сроков ответа с законами истёк. Обновите программу; до тех пор \
             проверяйте сроки по документам.",
        )
        .detail(detail);
    }
    // A year with no reviewed calendar still gets deadlines, counted by the Labour Code alone
    // and marked provisional (issue 38): a warning, not a problem.
    if !missing.is_empty() {
        return Check::new(
            CheckName::Deadlines,
            CheckStatus::Warning,
            format!(
                "На {} г. в программе ещё нет постановления о переносе выходных дней: сроки, \
                 которые заходят в этот год, считаются предварительно, по Трудовому кодексу, и \
                 помечены «срок предварительный». Обновите программу, когда выйдет новая \
                 версия.",
                missing.join(" и ")
            ),
        )
        .detail(detail);
    }
    if awaiting.is_empty() {
        Check::new(
            CheckName::Deadlines,
            CheckStatus::Ok,
            format!("Сроки ответа считаются по производственному календарю {covered} гг."),
        )
        .detail(detail)
    } else {
        Check::new(
            CheckName::Deadlines,
            CheckStatus::Warning,
            crate::case::DEADLINE_REVIEW_NOTICE,
        )
        .detail(detail)
    }
}

/// Only the provider's checks of [`run_doctor`] — the key, the connection (with GigaChat's token
/// exchange), one tiny structured call — for a first-run setup that has just chosen a service.
/// A configuration that cannot be read is one problem check.
pub async fn run_provider_checks(
    paths: &Paths,
    store: &dyn SecretStore,
    environment: EnvironmentOverrides,
    cancel: &CancellationToken,
) -> Vec<Check> {
    match Config::load(&paths.config_file()) {
        Ok(config) => provider_checks(&config, store, environment, cancel).await,
        Err(error) => {
            let steps: Vec<NextStep> = error.next_step().into_iter().collect();
            vec![
                Check::new(CheckName::Config, CheckStatus::Problem, error.message_ru())
                    .then(&steps),
            ]
        }
    }
}

fn data_folder(paths: &Paths) -> Check {
    match paths.ensure_dirs() {
        Ok(()) => Check::new(
            CheckName::DataFolder,
            CheckStatus::Ok,
            format!("Папка данных доступна: {}.", paths.data_dir().display()),
        ),
        Err(error) => Check::new(
            CheckName::DataFolder,
            CheckStatus::Problem,
            error.message_ru(),
        ),
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
            return vec![
                Check::new(
                    CheckName::Provider,
                    CheckStatus::Warning,
                    "Сервис модели не выбран: заявки составляются только без модели, из ваших \
                     слов. Чтобы описание составляла модель, выберите сервис модели.",
                )
                .detail(format!(
                    "виды профилей: {}",
                    crate::config::ProviderKind::names_ru(true)
                ))
                .then(&[NextStep::ConfigureProvider, NextStep::DraftWithoutModel]),
            ];
        }
        Err(error) => {
            return vec![
                Check::new(
                    CheckName::Provider,
                    CheckStatus::Problem,
                    error.message_ru(),
                )
                .then(&[NextStep::ConfigureProvider, NextStep::DraftWithoutModel]),
            ];
        }
    };
    // The keyring is asked once: for the check and for the key the probe sends. An
    // environment key makes the keyring irrelevant, so it is not asked at all.
    let stored = match &environment.api_key {
        Some(_) => Ok(None),
        None => store.get(&provider.profile),
    };
    let key_check = match (&environment.api_key, &stored) {
        // A key is sent when one is stored or given, and only then (issue 14): say which.
        (environment_key, stored) if !provider.needs_api_key => {
            let source = match (environment_key, stored) {
                (Some(_), _) => Some(ApiKeySource::Environment),
                (None, Ok(Some(_))) => Some(ApiKeySource::Keyring),
                (None, _) => None,
            };
            Check::new(
                CheckName::ApiKey,
                CheckStatus::Ok,
                crate::secrets::optional_key_ru(source, stored.is_err()),
            )
        }
        (Some(_), _) => Check::new(
            CheckName::ApiKey,
            CheckStatus::Ok,
            format!(
                "Ключ доступа берётся из переменной окружения {}.",
                crate::secrets::ENV_API_KEY
            ),
        ),
        (None, Ok(Some(_))) => Check::new(
            CheckName::ApiKey,
            CheckStatus::Ok,
            format!(
                "Ключ доступа сохранён в хранилище ключей ({}).",
                store.backend_name()
            ),
        ),
        (None, Ok(None)) => Check::new(
            CheckName::ApiKey,
            CheckStatus::Problem,
            format!(
                "Для профиля «{}» не сохранён ключ доступа.",
                provider.profile.as_str()
            ),
        )
        .then(&[NextStep::StoreApiKey]),
        (None, Err(error)) => {
            Check::new(CheckName::ApiKey, CheckStatus::Problem, error.message_ru())
                .then(&[NextStep::StoreApiKey])
        }
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
    let has_key = api_key.is_some() || !provider.needs_api_key;
    let endpoint = provider.endpoint(api_key);
    let client = match Client::new(endpoint, budget) {
        Ok(client) => client,
        Err(error) => {
            let failure = failure_from(&error);
            return vec![
                Check::new(
                    CheckName::Provider,
                    CheckStatus::Problem,
                    failure.reason.message_ru(),
                )
                .then(&failure.reason.next_steps()),
                key_check,
            ];
        }
    };
    let failure_of = |error: &LlmError| failure_for(error, provider.kind, &[], None);
    let mut checks = vec![key_check];
    if !has_key && provider.access != ServiceAccess::Standard {
        // Nothing of these services can be checked without the key they need.
        checks.insert(0, unchecked_provider(&provider));
        return checks;
    }
    // GigaChat: the authorization key is exchanged for an access token before anything else,
    // and that exchange is its own line, so that a refused key is told apart from a service
    // that does not answer.
    if let ServiceAccess::GigaChat { scope, auth_url } = &provider.access {
        let exchange = match client.ensure_credentials(cancel).await {
            Ok(_) => Check::new(
                CheckName::TokenExchange,
                CheckStatus::Ok,
                "GigaChat принял ключ авторизации и выдал токен доступа.",
            )
            .detail(format!("{}, {}", scope.code(), auth_url.host())),
            Err(error) => problem_from(failure_of(&error), CheckName::TokenExchange),
        };
        let refused = exchange.status == CheckStatus::Problem;
        checks.push(exchange);
        if refused {
            checks.insert(0, unchecked_provider(&provider));
            return checks;
        }
    }
    // Yandex AI Studio: no model list is documented for its OpenAI-compatible API, so one tiny
    // structured call to the folder's model is the whole check: it proves the key, the folder
    // and the model together.
    if let ServiceAccess::Yandex { folder_id, .. } = &provider.access {
        let report = schema_mode_report(&client, &provider, cancel).await;
        let configured = provider.response_format_kind();
        let reach = match report.support(configured) {
            Some(ModeSupport::Failed(error)) => {
                let mut check = problem_from(failure_of(error), CheckName::Provider);
                check.detail = Some(format!(
                    "каталог {}, модель {}; {}",
                    folder_id.as_str(),
                    provider.model,
                    check.detail.take().unwrap_or_default()
                ));
                check
            }
            None => Check::new(
                CheckName::Provider,
                CheckStatus::Warning,
                "Проверка подключения к Yandex AI Studio прервана.",
            ),
            Some(_) => Check::new(
                CheckName::Provider,
                CheckStatus::Ok,
                format!(
                    "Yandex AI Studio отвечает: каталог {} и модель подходят к ключу.",
                    folder_id.as_str()
                ),
            )
            .detail(format!("модель {}", provider.model)),
        };
        let answered = reach.status == CheckStatus::Ok;
        checks.insert(0, reach);
        if answered {
            checks.push(judge_schema_modes(&report, &provider));
        }
        return checks;
    }
    let host = provider.base_url.host();
    let reach = match client.probe(cancel).await {
        Ok(401 | 403) => Check::new(
            CheckName::Provider,
            CheckStatus::Problem,
            format!("Сервис модели {host} отвечает, но не принимает ключ доступа."),
        )
        .then(&[NextStep::StoreApiKey]),
        Ok(status) => Check::new(
            CheckName::Provider,
            CheckStatus::Ok,
            format!("Сервис модели {host} отвечает."),
        )
        .detail(format!(
            "{}, модель {}, HTTP {status}",
            provider.kind.title(),
            provider.model
        )),
        Err(error) => {
            let failure = failure_of(&error);
            Check::new(
                CheckName::Provider,
                CheckStatus::Problem,
                format!(
                    "Сервис модели {host} не отвечает как нужно. {}",
                    failure.message_ru()
                ),
            )
            .detail(failure_detail(&failure))
            .then(&failure.reason.next_steps())
        }
    };
    let answered = reach.status == CheckStatus::Ok;
    checks.insert(0, reach);
    // Only a server that answered is asked about schema modes: each probe is a tiny chat
    // request.
    if answered {
        let report = schema_mode_report(&client, &provider, cancel).await;
        checks.push(judge_schema_modes(&report, &provider));
    }
    checks
}

/// The service's line when it could not be reached because the key is missing or refused.
fn unchecked_provider(provider: &crate::config::ProviderSettings) -> Check {
    Check::new(
        CheckName::Provider,
        CheckStatus::Warning,
        format!(
            "{}: подключение не проверено — сначала нужен ключ, который сервис примет.",
            provider.kind.title()
        ),
    )
}

/// A problem check with a failure's message, detail and next steps.
fn problem_from(failure: zayavka_core::Failure, name: CheckName) -> Check {
    Check::new(name, CheckStatus::Problem, failure.message_ru())
        .detail(failure_detail(&failure))
        .then(&failure.reason.next_steps())
}

/// The failure's technical detail with the server's own reason, when it gave one.
fn failure_detail(failure: &zayavka_core::Failure) -> String {
    match &failure.advice.server_reason {
        Some(reason) => format!("{}; ответ сервера: {reason}", failure.detail),
        None => failure.detail.clone(),
    }
}

/// Asks the server which ways of requesting structured output it takes: one tiny structured
/// call per mode.
async fn schema_mode_report(
    client: &Client,
    provider: &crate::config::ProviderSettings,
    cancel: &CancellationToken,
) -> zayavka_llm::SchemaModeReport {
    let schema = request_draft_schema();
    client
        .probe_schema_modes(&provider.model, schema.name, schema.transport(), cancel)
        .await
}

/// Compares the modes the server took with the profile's.
fn judge_schema_modes(
    report: &zayavka_llm::SchemaModeReport,
    provider: &crate::config::ProviderSettings,
) -> Check {
    let configured = provider.response_format_kind();
    // GigaChat's pair is json_schema and function calling, everyone else's the two formats.
    let other = provider.llm_protocol().alternative_mode(configured);
    match (report.support(configured), report.support(other)) {
        (Some(ModeSupport::Accepted), _) => Check::new(
            CheckName::SchemaMode,
            CheckStatus::Ok,
            "Сервис принимает выбранный формат ответа.",
        )
        .detail(format!("режим {configured}")),
        (Some(ModeSupport::Refused(_)), Some(ModeSupport::Accepted)) => Check::new(
            CheckName::SchemaMode,
            CheckStatus::Problem,
            format!(
                "Сервер не принимает режим ответа по схеме {configured}, но принимает {other}. \
                 Выберите для этого профиля режим {other}."
            ),
        )
        .then(&[NextStep::SwitchSchemaMode]),
        (Some(ModeSupport::Refused(_)), _) => Check::new(
            CheckName::SchemaMode,
            CheckStatus::Problem,
            format!(
                "Сервер не принимает режим ответа по схеме {configured}, а режим {other} \
                 проверить не удалось. Попробуйте режим {other}."
            ),
        )
        .then(&[NextStep::SwitchSchemaMode]),
        (support, _) => {
            let detail = support
                .and_then(ModeSupport::error)
                .map(|error| failure_from(error).detail)
                .unwrap_or_else(|| "сервер не ответил".to_owned());
            Check::new(
                CheckName::SchemaMode,
                CheckStatus::Warning,
                format!("Не удалось проверить режим ответа по схеме {configured}: {detail}."),
            )
        }
    }
}

fn schemas() -> Check {
    let names: Vec<String> = schema_registry()
        .iter()
        .map(|s| format!("{} v{} ({}…)", s.key, s.version, &s.sha256()[..12]))
        .collect();
    Check::new(
        CheckName::Schemas,
        CheckStatus::Ok,
        "Приложение готово проверять ответы модели.",
    )
    .detail(format!("схемы ответа модели: {}", names.join(", ")))
}

/// What a resident is told while some legal paragraphs still await a maintainer's check against
/// the official text: one plain line, with no module ids (issue 14). The ids and review states
/// are the check's [`Check::detail`], which `zayavka doctor` prints.
pub const LEGAL_REVIEW_NOTICE: &str = "Не все нормативные абзацы приложения пока сверены с \
     официальным текстом законов: перед отправкой перечитайте абзац с пометкой «нормативный текст».";

/// The checks of the legal catalogue on `today`: whether every module is still current, and
/// (when some are) that some await a maintainer's review.
pub fn legal_module_checks(today: jiff::civil::Date) -> Vec<Check> {
    legal_modules(today)
}

fn legal_modules(today: jiff::civil::Date) -> Vec<Check> {
    let catalogue = legal_catalogue();
    let expired: Vec<String> = catalogue
        .past_valid_through(today)
        .iter()
        .map(|m| format!("«{}» (до {})", m.title, m.valid_through))
        .collect();
    let awaiting: Vec<String> = catalogue
        .awaiting_verification()
        .iter()
        .map(|m| format!("«{}» ({})", m.title, m.review.status.label_ru()))
        .collect();
    let mut checks = Vec::new();
    checks.push(if expired.is_empty() {
        Check::new(
            CheckName::LegalModulesValid,
            CheckStatus::Ok,
            "Нормативные абзацы действуют на сегодня.",
        )
        .detail(format!("каталог правовых модулей {}", catalogue.version()))
    } else {
        Check::new(
            CheckName::LegalModulesValid,
            CheckStatus::Problem,
            "Срок сверки нормативных абзацев с законами истёк: обновите программу. До обновления \
             перечитывайте абзацы с пометкой «нормативный текст» перед отправкой.",
        )
        .detail(format!(
            "правовые модули с истёкшим сроком проверки: {}; см. docs/legal-maintenance.md",
            expired.join(", ")
        ))
    });
    if !awaiting.is_empty() {
        checks.push(
            Check::new(
                CheckName::LegalModulesReview,
                CheckStatus::Warning,
                LEGAL_REVIEW_NOTICE,
            )
            .detail(format!(
                "ещё не полностью сверены с официальным текстом: {}; см. docs/legal-maintenance.md",
                awaiting.join(", ")
            )),
        );
    }
    checks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deadline_data_are_checked_for_dates_years_and_review() {
        // The shipped data await their check: a warning that lists them.
        let check = deadline_data(jiff::civil::date(2026, 6, 1));
        assert_eq!(check.status, CheckStatus::Warning, "{check:?}");
        let detail = check.detail.clone().unwrap_or_default();
        assert!(detail.contains("2023–2027"), "{detail}");
        assert!(
            detail.contains("производственный календарь 2027"),
            "{detail}"
        );
        // In October 2027 the calendar of 2028 is missing: deadlines into 2028 are provisional
        // (issue 38), a warning in plain words — with terms still under review then (the
        // shipped ones need another review by then, which is a problem of its own, below).
        let terms = include_str!("../../../legal_modules/deadlines/terms.toml")
            .replace("valid_through = 2027-05-31", "valid_through = 2028-05-31");
        let years: Vec<(String, String)> = (2023..=2027)
            .map(|year| {
                (
                    format!("calendar-{year}.toml"),
                    std::fs::read_to_string(format!(
                        "{}/../../legal_modules/deadlines/calendar-{year}.toml",
                        env!("CARGO_MANIFEST_DIR")
                    ))
                    .unwrap(),
                )
            })
            .collect();
        let calendars: Vec<(&str, &str)> = years
            .iter()
            .map(|(name, text)| (name.as_str(), text.as_str()))
            .collect();
        let reviewed_later = zayavka_core::parse_deadlines(&terms, &calendars).unwrap();
        let check = deadline_data_of(&reviewed_later, jiff::civil::date(2027, 10, 1));
        assert_eq!(check.status, CheckStatus::Warning);
        assert!(check.message.contains("На 2028 г."), "{}", check.message);
        assert!(
            check.message.contains("«срок предварительный»"),
            "{}",
            check.message
        );
        assert!(
            check
                .detail
                .as_deref()
                .unwrap()
                .contains("2023–2027 — по данным программы, другие годы — предварительно"),
            "{check:?}"
        );
        // Past the terms' review date: a problem too.
        let check = deadline_data(jiff::civil::date(2027, 6, 1));
        assert_eq!(check.status, CheckStatus::Problem);
        assert!(
            check.message.contains("рок сверки сроков ответа"),
            "{}",
            check.message
        );
        assert!(
            !check.message.contains("management_company"),
            "{}",
            check.message
        );
        assert!(
            check
                .detail
                .unwrap()
                .contains("срок ответа управляющей организации")
        );
    }

    #[test]
    fn every_check_name_keeps_the_code_doctor_json_printed_and_has_a_russian_title() {
        for (name, code) in [
            (CheckName::DataFolder, "data_folder"),
            (CheckName::Config, "config"),
            (CheckName::Provider, "provider"),
            (CheckName::ApiKey, "api_key"),
            (CheckName::TokenExchange, "token_exchange"),
            (CheckName::SchemaMode, "schema_mode"),
            (CheckName::Schemas, "schemas"),
            (CheckName::LegalModulesValid, "legal_modules_valid"),
            (CheckName::LegalModulesReview, "legal_modules_review"),
            (CheckName::Deadlines, "deadlines"),
        ] {
            assert_eq!(serde_json::to_value(name).unwrap(), code);
            assert!(!name.title_ru().is_empty() && !name.title_ru().contains('_'));
        }
    }

    fn today() -> jiff::civil::Date {
        jiff::civil::date(2026, 12, 1)
    }

    /// Regression (issue 14): «Проверить подключение» showed residents «Ещё не полностью сверены
    /// с официальным текстом сопровождающими: common, common_area_roof, …». A resident now reads
    /// one plain line; the ids stay in the detail that `zayavka doctor` prints.
    #[test]
    fn issue_14_the_legal_review_notice_is_one_plain_line_with_the_ids_for_maintainers() {
        let checks = legal_module_checks(today());
        let review = checks
            .iter()
            .find(|check| check.name == CheckName::LegalModulesReview)
            .expect("the catalogue has modules awaiting review");
        assert_eq!(review.status, CheckStatus::Warning);
        assert_eq!(
            review.message,
            "Не все нормативные абзацы приложения пока сверены с официальным текстом законов: \
             перед отправкой перечитайте абзац с пометкой «нормативный текст»."
        );
        assert_eq!(review.title_ru(), "Сверка нормативных абзацев");
        let detail = review.detail.as_deref().unwrap();
        for module in legal_catalogue().awaiting_verification() {
            assert!(detail.contains(&module.title), "{detail}");
            assert!(!review.message.contains(&module.title));
        }
        // Issue 38: no internal name or code in a line a resident reads.
        assert!(!has_code(detail), "{detail}");
        assert!(detail.contains("docs/legal-maintenance.md"), "{detail}");
    }

    /// Whether `text` holds a snake_case code such as `management_company` or
    /// `awaiting_verification` (a path such as `docs/legal-maintenance.md` has none).
    fn has_code(text: &str) -> bool {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|word| word.contains('_') && word.chars().any(|c| c.is_ascii_lowercase()))
    }

    /// Issue 38: the deadline data's line names whose term it is in Russian, never its code.
    #[test]
    fn issue_38_the_deadline_line_uses_russian_names() {
        let check = deadline_data(jiff::civil::date(2026, 12, 7));
        let detail = check.detail.as_deref().unwrap();
        assert!(
            detail.contains("срок ответа управляющей организации"),
            "{detail}"
        );
        assert!(!has_code(detail) && !has_code(&check.message), "{detail}");
        let expired = deadline_data(jiff::civil::date(2027, 6, 1));
        let detail = expired.detail.as_deref().unwrap();
        assert!(
            detail
                .contains("истёк срок сверки: срок ответа управляющей организации (до 2027-05-31)"),
            "{detail}"
        );
        assert!(!has_code(detail), "{detail}");
        for check in legal_modules(jiff::civil::date(2027, 6, 1)) {
            let detail = check.detail.as_deref().unwrap_or_default();
            assert!(!has_code(detail) && !has_code(&check.message), "{detail}");
        }
    }

    /// What a resident reads of the catalogue and of the schemas names no module, catalogue
    /// version, schema or hash (issue 14); the maintainer's detail does.
    #[test]
    fn issue_14_resident_messages_name_no_internal_ids() {
        let mut checks = legal_module_checks(today());
        checks.push(schemas());
        for check in &checks {
            assert!(
                !check.message.contains('_')
                    && !check.message.contains("каталог")
                    && !check.message.contains("схем"),
                "{:?}: {}",
                check.name,
                check.message
            );
            assert!(check.detail.is_some(), "{:?}", check.name);
        }
        let schemas = schemas();
        assert!(schemas.detail.unwrap().contains("request_draft"));
        let expired = legal_module_checks(jiff::civil::date(2999, 1, 1));
        let valid = expired
            .iter()
            .find(|c| c.name == CheckName::LegalModulesValid)
            .unwrap();
        assert_eq!(valid.status, CheckStatus::Problem);
        assert!(!valid.message.contains("common"), "{}", valid.message);
        assert!(
            valid
                .detail
                .as_deref()
                .unwrap()
                .contains("«Общий блок: управление многоквартирным домом")
        );
    }
}
