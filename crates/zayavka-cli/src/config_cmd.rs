//! `zayavka config`: shows the effective settings and paths, changes one setting, prints the
//! configuration file's path. No API key is ever printed; only whether one is available.

use std::io::Write;
use std::process::ExitCode;

use zayavka_engine::{
    ApiKeySource, ENV_API_KEY, Engine, KeyStatus, PathsOrigin, ProviderKind, ProviderOverrides,
    ProviderSettings, ServiceAccess, SettingKey, SettingsOverview, StoredKeyState, YandexAuth,
    api_key_from_env, optional_key_ru, pricing_text_ru, resolve_provider,
};

/// `zayavka config …`
#[derive(Debug, clap::Args)]
pub struct ConfigArgs {
    /// Что сделать с настройками.
    #[command(subcommand)]
    pub command: ConfigCommand,
}

/// The `zayavka config` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum ConfigCommand {
    /// Показать действующие настройки, профили и пути. API-ключ не выводится.
    Show(ConfigShowArgs),
    /// Изменить одну настройку, например `zayavka config set profiles.openai.model gpt-4o`.
    /// Пустое значение удаляет настройку, и снова действует значение по умолчанию.
    Set(ConfigSetArgs),
    /// Напечатать путь к файлу настроек.
    Path,
    /// Настроить сервис модели по шагам, как при первом запуске приложения: выбрать сервис,
    /// ввести нужные поля и ключ (он сохраняется в хранилище ключей ОС), проверить подключение.
    /// Нужен терминал; в сценариях используйте `config set` и `key set --stdin`.
    Init,
}

/// Arguments of `zayavka config show`.
#[derive(Debug, clap::Args)]
pub struct ConfigShowArgs {
    /// Вывести ответ в JSON.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `zayavka config set`.
#[derive(Debug, clap::Args)]
pub struct ConfigSetArgs {
    /// Настройка: active_profile или profiles.ИМЯ.ПОЛЕ (kind, folder_id, scope, protocol,
    /// auth_scheme, base_url, auth_url, model, schema_mode, needs_api_key,
    /// price_input_per_million, price_output_per_million, currency, timeout_secs, attempts).
    #[arg(value_name = "НАСТРОЙКА")]
    pub key: String,
    /// Новое значение; пустая строка удаляет настройку.
    #[arg(value_name = "ЗНАЧЕНИЕ", allow_hyphen_values = true)]
    pub value: String,
}

/// Runs `zayavka config` against the real environment and standard output.
pub fn run(args: ConfigArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    if matches!(args.command, ConfigCommand::Init) {
        return crate::config_init::run(engine);
    }
    let mut output = std::io::stdout().lock();
    // Only `show` depends on the environment; a broken variable must not block `set` or `path`.
    let (overrides, environment_key_present) = if matches!(args.command, ConfigCommand::Show(_)) {
        (
            ProviderOverrides::from_env()?,
            api_key_from_env()?.is_some(),
        )
    } else {
        (ProviderOverrides::default(), false)
    };
    run_with(
        args,
        engine,
        &overrides,
        environment_key_present,
        &mut output,
    )
}

/// Runs `zayavka config` with the given overrides (from flags and environment), the presence of
/// `ZAYAVKA_API_KEY`, and output.
pub fn run_with(
    args: ConfigArgs,
    engine: &Engine,
    overrides: &ProviderOverrides,
    environment_key_present: bool,
    output: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    match args.command {
        ConfigCommand::Show(show) => {
            let report = engine.settings_overview(overrides, environment_key_present)?;
            if show.json {
                writeln!(output, "{}", serde_json::to_string_pretty(&report)?)?;
            } else {
                write_text(&report, output)?;
            }
        }
        ConfigCommand::Set(set) => {
            let file = engine.paths().config_file();
            let new_config = engine.set_setting(&set.key, &set.value)?;
            // The key is re-parsed only to print it in its canonical spelling.
            let key = SettingKey::parse(&set.key)?;
            let value = set.value.trim();
            if value.is_empty() {
                writeln!(
                    output,
                    "Настройка {key} удалена из «{}»; действует значение по умолчанию.",
                    file.display()
                )?;
            } else {
                writeln!(output, "Сохранено в «{}»: {key} = {value}", file.display())?;
            }
            // A change can leave the active profile unusable (a `custom` profile built one field
            // at a time); saying so now is kinder than failing at the next draft.
            if let Err(error) = resolve_provider(&new_config, &ProviderOverrides::default()) {
                writeln!(output, "Внимание: {}", error.message_ru())?;
                if let Some(hint) = crate::output::config_error_hint(&error) {
                    writeln!(output, "Что можно сделать: {hint}.")?;
                }
            }
        }
        ConfigCommand::Path => {
            writeln!(output, "{}", engine.paths().config_file().display())?;
        }
        // The questions need the terminal's own input and a hidden prompt: `run` sends this
        // command to `config_init::run` before output is chosen.
        ConfigCommand::Init => anyhow::bail!("config init needs the terminal: use config_init"),
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints the settings overview as text.
fn write_text(report: &SettingsOverview, out: &mut dyn Write) -> std::io::Result<()> {
    let paths = &report.paths;
    let origin = match paths.origin {
        PathsOrigin::Environment => "из переменной окружения ZAYAVKA_HOME",
        PathsOrigin::Explicit => "заданы явно",
        PathsOrigin::OperatingSystem => "по правилам операционной системы",
    };
    let file_note = if paths.config_file_exists {
        ""
    } else {
        " (файла нет — действуют настройки по умолчанию)"
    };
    writeln!(
        out,
        "Файл настроек: {}{file_note}",
        paths.config_file.display()
    )?;
    writeln!(out, "Папка данных: {}", paths.data_dir.display())?;
    writeln!(out, "База данных: {}", paths.database_file.display())?;
    writeln!(
        out,
        "Неотправленные описания: {}",
        paths.pending_dir.display()
    )?;
    writeln!(out, "Журналы: {}", paths.log_dir.display())?;
    writeln!(out, "Папки выбраны {origin}.")?;
    writeln!(out)?;

    if !report.overridden.is_empty() {
        writeln!(
            out,
            "Переопределено для этого запуска: {}.",
            report.overridden.join(", ")
        )?;
    }
    match (&report.provider, &report.provider_error) {
        (_, Some(error)) => writeln!(out, "Активный профиль не работает: {}", error.message_ru())?,
        (None, None) => writeln!(
            out,
            "Активный профиль не выбран: заявки составляются без модели. Выберите профиль, \
             например `zayavka config set active_profile ollama`."
        )?,
        (Some(settings), None) => {
            writeln!(out, "Действующий профиль: {}", settings.profile)?;
            write_settings(out, settings, "  ")?;
            if let Some(key) = &report.api_key {
                let label = match settings.kind {
                    ProviderKind::GigaChat => "Ключ авторизации",
                    _ => "API-ключ",
                };
                writeln!(out, "  {label}: {}", describe_key(&key.status, settings))?;
            }
        }
    }
    writeln!(out)?;
    writeln!(out, "Профили:")?;
    for profile in &report.profiles {
        let name = &profile.name;
        let origin = if profile.in_file {
            ""
        } else {
            " (встроенный)"
        };
        match (&profile.settings, &profile.error) {
            (Some(settings), _) => writeln!(
                out,
                "  {name}{origin} — {}, {}, модель {}",
                settings.kind.title(),
                settings.base_url,
                settings.model
            )?,
            (None, Some(error)) => {
                writeln!(out, "  {name}{origin} — не готов: {}", error.message_ru())?
            }
            (None, None) => writeln!(out, "  {name}{origin}")?,
        }
    }
    Ok(())
}

fn write_settings(
    out: &mut dyn Write,
    settings: &ProviderSettings,
    indent: &str,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{indent}вид: {} ({})",
        settings.kind.title(),
        settings.kind
    )?;
    writeln!(out, "{indent}{}", settings.kind.summary_ru())?;
    writeln!(out, "{indent}адрес: {}", settings.base_url)?;
    writeln!(out, "{indent}модель: {}", settings.model)?;
    writeln!(out, "{indent}протокол: {}", settings.protocol)?;
    match &settings.access {
        ServiceAccess::Standard => {}
        ServiceAccess::Yandex {
            folder_id,
            auth_scheme,
        } => {
            writeln!(out, "{indent}каталог (folder_id): {folder_id}")?;
            let scheme = match auth_scheme {
                YandexAuth::ApiKey => "API-ключ сервисного аккаунта (Api-Key)",
                YandexAuth::IamToken => "IAM-токен (Bearer)",
            };
            writeln!(out, "{indent}ключ передаётся как: {scheme} [{auth_scheme}]")?;
        }
        ServiceAccess::GigaChat { scope, auth_url } => {
            writeln!(
                out,
                "{indent}доступ (scope): {scope} — {}",
                scope.title_ru()
            )?;
            writeln!(out, "{indent}адрес получения токена: {auth_url}")?;
        }
    }
    writeln!(out, "{indent}режим схемы: {}", settings.schema_mode)?;
    if settings.needs_api_key {
        writeln!(out, "{indent}нужен ключ: да")?;
    } else {
        writeln!(
            out,
            "{indent}нужен ключ: нет (если ключ сохранён, он отправляется серверу)"
        )?;
    }
    match &settings.pricing {
        Some(pricing) => writeln!(out, "{indent}цены: {}", pricing_text_ru(pricing))?,
        None => writeln!(
            out,
            "{indent}цены: не указаны, стоимость не рассчитывается (profiles.{}.price_input_per_million \
             и price_output_per_million)",
            settings.profile
        )?,
    }
    match settings.timeout_secs {
        Some(secs) => writeln!(out, "{indent}тайм-аут попытки: {secs} с")?,
        None => writeln!(out, "{indent}тайм-аут попытки: по умолчанию")?,
    }
    match settings.attempts {
        Some(attempts) => writeln!(out, "{indent}попыток: {attempts}")?,
        None => writeln!(out, "{indent}попыток: по умолчанию")?,
    }
    Ok(())
}

fn describe_key(status: &KeyStatus, settings: &ProviderSettings) -> String {
    let keyring_unavailable = matches!(status.stored, StoredKeyState::Unreachable { .. });
    match (status.usable_source(), &status.stored) {
        // A key is sent when one is stored or given, and only then (issue 14).
        (source, _) if !settings.needs_api_key => optional_key_ru(source, keyring_unavailable),
        (Some(ApiKeySource::Environment), _) => {
            format!("из переменной окружения {ENV_API_KEY}")
        }
        (Some(ApiKeySource::Keyring), _) => format!("сохранён в хранилище ({})", status.backend),
        (None, StoredKeyState::Unreachable { message, .. }) => {
            format!("хранилище недоступно. {message}")
        }
        (None, _) => format!(
            "не найден. Сохраните его командой `zayavka key set --profile {}`.",
            settings.profile
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser as _;
    use zayavka_engine::{
        ApiKey, BaseUrl, MemoryStore, Paths, ProfileName, SecretStore, set_config_value,
    };

    use std::sync::Arc;

    const SECRET: &str = "sk-test-0123456789abcdef";

    fn run_line(
        line: &[&str],
        paths: &Paths,
        store: &Arc<MemoryStore>,
        overrides: &ProviderOverrides,
        environment_key_present: bool,
    ) -> anyhow::Result<String> {
        // The binary's real argument parser, so the tests also cover the wiring in main.rs.
        let crate::Command::Config(args) =
            crate::Cli::try_parse_from(["zayavka", "config"].iter().chain(line))
                .unwrap()
                .command
        else {
            panic!("not parsed as `zayavka config`");
        };
        let mut output = Vec::new();
        let engine = Engine::new(
            paths.clone(),
            Arc::clone(store) as Arc<dyn SecretStore + Send + Sync>,
        );
        let code = run_with(
            args,
            &engine,
            overrides,
            environment_key_present,
            &mut output,
        )?;
        assert_eq!(code, ExitCode::SUCCESS);
        Ok(String::from_utf8(output).unwrap())
    }

    /// Runs a line with no overrides and no `ZAYAVKA_API_KEY`, the common case.
    fn run_plain(line: &[&str], paths: &Paths, store: &Arc<MemoryStore>) -> String {
        run_line(line, paths, store, &ProviderOverrides::default(), false).unwrap()
    }

    #[test]
    fn path_prints_the_config_file() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        let output = run_plain(&["path"], &paths, &Arc::new(MemoryStore::new()));
        assert_eq!(
            output,
            format!("{}\n", home.path().join("config.toml").display())
        );
    }

    #[test]
    fn show_on_a_fresh_install_offers_drafting_without_a_model() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        let output = run_plain(&["show"], &paths, &Arc::new(MemoryStore::unavailable()));
        assert!(output.contains("файла нет"), "{output}");
        assert!(output.contains("без модели"), "{output}");
        assert!(output.contains("ollama (встроенный)"), "{output}");

        let json: serde_json::Value = serde_json::from_str(&run_plain(
            &["show", "--json"],
            &paths,
            &Arc::new(MemoryStore::new()),
        ))
        .unwrap();
        assert_eq!(json["active_profile"], serde_json::Value::Null);
        assert_eq!(json["provider"], serde_json::Value::Null);
        assert_eq!(json["paths"]["config_file_exists"], false);
        assert_eq!(json["profiles"].as_array().unwrap().len(), 7);
    }

    #[test]
    fn set_then_show_reports_the_active_profile_and_key_without_the_key() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        let store = Arc::new(MemoryStore::new());
        let none = ProviderOverrides::default();
        let output = run_plain(&["set", "active_profile", "openai"], &paths, &store);
        assert!(output.contains("active_profile = openai"), "{output}");
        run_plain(
            &["set", "profiles.openai.model", "gpt-4.1-mini"],
            &paths,
            &store,
        );

        let output = run_plain(&["show"], &paths, &store);
        assert!(output.contains("Действующий профиль: openai"), "{output}");
        assert!(output.contains("модель: gpt-4.1-mini"), "{output}");
        assert!(
            output.contains("zayavka key set --profile openai"),
            "{output}"
        );

        let openai = ProfileName::parse("openai").unwrap();
        store.set(&openai, &ApiKey::new(SECRET).unwrap()).unwrap();
        let output = run_line(&["show"], &paths, &store, &none, true).unwrap();
        assert!(output.contains("из переменной окружения ZAYAVKA_API_KEY"));
        assert!(!output.contains(SECRET));
        let json = run_plain(&["show", "--json"], &paths, &store);
        assert!(!json.contains(SECRET));
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(json["provider"]["model"], "gpt-4.1-mini");
        assert_eq!(json["api_key"]["usable_source"], "keyring");
    }

    #[test]
    fn show_applies_overrides_and_names_them() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        let overrides = ProviderOverrides {
            base_url: Some(BaseUrl::parse("http://127.0.0.1:4010/v1").unwrap()),
            model: Some("stand-in".to_owned()),
            ..ProviderOverrides::default()
        };
        let output = run_line(
            &["show"],
            &paths,
            &Arc::new(MemoryStore::new()),
            &overrides,
            false,
        )
        .unwrap();
        assert!(
            output.contains("Переопределено для этого запуска: base_url, model."),
            "{output}"
        );
        assert!(output.contains("Действующий профиль: default"), "{output}");
        assert!(
            output.contains(
                "API-ключ: Ключ не обязателен: если он сохранён, он отправляется серверу. Сейчас \
                 ключа нет, и запросы идут без него."
            ),
            "{output}"
        );
    }

    /// Regression (issue 14): «API-ключ: не нужен» while a stored key was sent to the server.
    #[test]
    fn issue_14_show_says_a_stored_key_is_sent_to_a_server_that_does_not_require_one() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        for (key, value) in [
            ("profiles.local.kind", "custom"),
            ("profiles.local.base_url", "http://127.0.0.1:8000/v1"),
            ("profiles.local.model", "local-model"),
            ("profiles.local.needs_api_key", "false"),
            ("active_profile", "local"),
        ] {
            set_config_value(&paths.config_file(), key, value).unwrap();
        }
        let store = Arc::new(MemoryStore::new());
        store
            .set(
                &ProfileName::parse("local").unwrap(),
                &ApiKey::new(SECRET).unwrap(),
            )
            .unwrap();
        let overrides = ProviderOverrides::default();
        let output = run_line(&["show"], &paths, &store, &overrides, false).unwrap();
        assert!(
            output.contains(
                "  API-ключ: Ключ не обязателен: если он сохранён, он отправляется серверу. \
                 Сейчас ключ сохранён и отправляется с каждым запросом; чтобы запросы шли без \
                 ключа, удалите его."
            ),
            "{output}"
        );
        assert!(
            output.contains("нужен ключ: нет (если ключ сохранён, он отправляется серверу)"),
            "{output}"
        );
        assert!(!output.contains("не нужен"), "{output}");
        assert!(!output.contains(SECRET), "{output}");
    }

    #[test]
    fn set_warns_when_the_active_profile_is_not_ready() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        let store = Arc::new(MemoryStore::new());
        run_plain(&["set", "profiles.mine.kind", "custom"], &paths, &store);
        let output = run_plain(&["set", "active_profile", "mine"], &paths, &store);
        assert!(output.contains("Внимание"), "{output}");
        assert!(output.contains("profiles.mine.base_url"), "{output}");
        let output = run_plain(&["show"], &paths, &store);
        assert!(output.contains("Активный профиль не работает"), "{output}");
    }

    #[test]
    fn set_with_an_empty_value_removes_the_setting() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        let store = Arc::new(MemoryStore::new());
        run_plain(&["set", "profiles.openai.attempts", "2"], &paths, &store);
        let output = run_plain(&["set", "profiles.openai.attempts", ""], &paths, &store);
        assert!(output.contains("удалена"), "{output}");
    }

    #[test]
    fn set_refuses_a_key_like_setting() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        let error = run_line(
            &["set", "profiles.openai.api_key", SECRET],
            &paths,
            &Arc::new(MemoryStore::new()),
            &ProviderOverrides::default(),
            false,
        )
        .unwrap_err();
        let message = format!("{error:#}");
        assert!(message.contains("хранилище ключей"), "{message}");
        let hint = error
            .downcast_ref::<zayavka_engine::ConfigError>()
            .and_then(crate::output::config_error_hint)
            .unwrap();
        assert!(hint.contains("zayavka key set --profile openai"), "{hint}");
        assert!(!message.contains(SECRET));
        assert!(!paths.config_file().exists());
    }

    #[test]
    fn a_broken_file_is_reported_by_show() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        std::fs::write(paths.config_file(), "[profiles.openai]\ntoken = \"x\"\n").unwrap();
        let error = run_line(
            &["show"],
            &paths,
            &Arc::new(MemoryStore::new()),
            &ProviderOverrides::default(),
            false,
        )
        .unwrap_err();
        assert!(format!("{error:#}").contains("profiles.openai.token"));
    }

    #[test]
    fn issue_15_show_prints_the_service_fields_and_dated_ruble_prices() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        let store = Arc::new(MemoryStore::new());
        run_plain(
            &["set", "profiles.yandex.folder_id", "b1gaaaaaaaaaaaaaaaaa"],
            &paths,
            &store,
        );
        run_plain(&["set", "active_profile", "yandex"], &paths, &store);
        let output = run_plain(&["show"], &paths, &store);
        assert!(output.contains("Действующий профиль: yandex"), "{output}");
        assert!(
            output.contains("модель: gpt://b1gaaaaaaaaaaaaaaaaa/yandexgpt/latest"),
            "{output}"
        );
        assert!(
            output.contains("каталог (folder_id): b1gaaaaaaaaaaaaaaaaa"),
            "{output}"
        );
        assert!(output.contains("протокол: chat_completions"), "{output}");
        assert!(
            output.contains("цены: ввод 1200.00 ₽, вывод 1200.00 ₽ за миллион токенов"),
            "{output}"
        );
        assert!(
            output.contains("цены по умолчанию на 2 декабря 2026 г. — проверьте актуальные"),
            "{output}"
        );
        // Services residents in Russia can use come first in the profile list.
        let gigachat = output.find("  gigachat (встроенный)").unwrap();
        let openai = output.find("  openai (встроенный)").unwrap();
        assert!(gigachat < openai, "{output}");

        run_plain(&["set", "active_profile", "gigachat"], &paths, &store);
        let output = run_plain(&["show"], &paths, &store);
        assert!(
            output.contains("доступ (scope): GIGACHAT_API_PERS — физическое лицо"),
            "{output}"
        );
        assert!(output.contains("режим схемы: function_call"), "{output}");
        assert!(output.contains("Ключ авторизации: не найден"), "{output}");
        assert!(output.contains("цены: не указаны"), "{output}");
    }

    #[test]
    fn issue_15_set_refuses_a_malformed_folder_id_in_russian() {
        let home = tempfile::tempdir().unwrap();
        let paths = Paths::under(home.path());
        let error = run_line(
            &["set", "profiles.yandex.folder_id", "my-folder"],
            &paths,
            &Arc::new(MemoryStore::new()),
            &ProviderOverrides::default(),
            false,
        )
        .unwrap_err();
        let message = format!("{error:#}");
        assert!(message.contains("«profiles.yandex.folder_id»"), "{message}");
        assert!(message.contains("console.yandex.cloud"), "{message}");
        assert!(!paths.config_file().exists());
    }
}
