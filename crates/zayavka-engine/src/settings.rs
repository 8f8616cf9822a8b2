//! What a front end shows about the installation's settings: the paths, the effective provider
//! and where each of its values came from, every profile, and the key — never the key itself.
//! The command-line tool's `config show` and `key status` and the desktop settings screen read
//! the same typed values from here.

use std::path::PathBuf;

use serde::{Serialize, Serializer};

use crate::config::{
    self, Config, ConfigError, ConfigErrorCode, Pricing, ProfileField, ProfileName, ProviderKind,
    ProviderOverrides, ProviderSettings,
};
use crate::paths::{Paths, PathsOrigin};
use crate::secrets::{
    self, ApiKey, ApiKeySource, KeyStatus, SecretError, SecretErrorCode, SecretStore,
};

/// An error that front ends receive as a stable code and a Russian message.
trait ShownError {
    type Code: Serialize;
    fn code(&self) -> Self::Code;
    fn message_ru(&self) -> String;
}

impl ShownError for ConfigError {
    type Code = ConfigErrorCode;

    fn code(&self) -> ConfigErrorCode {
        ConfigError::code(self)
    }

    fn message_ru(&self) -> String {
        ConfigError::message_ru(self)
    }
}

impl ShownError for SecretError {
    type Code = SecretErrorCode;

    fn code(&self) -> SecretErrorCode {
        SecretError::code(self)
    }

    fn message_ru(&self) -> String {
        SecretError::message_ru(self)
    }
}

/// Serialises an optional error as `{code, message}` or null.
fn serialize_error<S: Serializer, E: ShownError>(
    error: &Option<E>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Shown<C> {
        code: C,
        message: String,
    }
    error
        .as_ref()
        .map(|error| Shown {
            code: error.code(),
            message: error.message_ru(),
        })
        .serialize(serializer)
}

/// The folders and files Zayavka uses.
#[derive(Debug, Clone, Serialize)]
pub struct PathsOverview {
    /// How they were chosen.
    pub origin: PathsOrigin,
    /// The configuration file.
    pub config_file: PathBuf,
    /// Whether it exists (otherwise the defaults apply).
    pub config_file_exists: bool,
    /// The data folder.
    pub data_dir: PathBuf,
    /// The database.
    pub database_file: PathBuf,
    /// Typed input kept when a draft did not end ready.
    pub pending_dir: PathBuf,
    /// Log files.
    pub log_dir: PathBuf,
}

/// The key of the provider in use, without the key.
#[derive(Debug, Clone, Serialize)]
pub struct KeyOverview {
    /// What the keyring and the environment say.
    pub status: KeyStatus,
    /// Where the key will be taken from, if anywhere.
    pub usable_source: Option<ApiKeySource>,
}

/// One profile: built in or from the file, ready or not.
#[derive(Debug, Serialize)]
pub struct ProfileOverview {
    /// Its name.
    pub name: ProfileName,
    /// Whether the configuration file defines it (otherwise it is a built-in preset).
    pub in_file: bool,
    /// Its settings, when they are complete.
    pub settings: Option<ProviderSettings>,
    /// Why it is not ready.
    #[serde(serialize_with = "serialize_error")]
    pub error: Option<ConfigError>,
}

/// Everything the settings view shows.
#[derive(Debug, Serialize)]
pub struct SettingsOverview {
    /// The folders and files.
    pub paths: PathsOverview,
    /// The profile the file chooses.
    pub active_profile: Option<ProfileName>,
    /// The fields that the command line or the environment override for this run.
    pub overridden: Vec<&'static str>,
    /// The effective provider, when one is chosen and complete.
    pub provider: Option<ProviderSettings>,
    /// Why the chosen provider does not work.
    #[serde(serialize_with = "serialize_error")]
    pub provider_error: Option<ConfigError>,
    /// The key of the provider in use.
    pub api_key: Option<KeyOverview>,
    /// Every profile.
    pub profiles: Vec<ProfileOverview>,
}

impl SettingsOverview {
    /// Reads the configuration and asks the keyring once, about the provider in use.
    pub fn gather(
        paths: &Paths,
        store: &dyn SecretStore,
        overrides: &ProviderOverrides,
        environment_key_present: bool,
    ) -> Result<SettingsOverview, ConfigError> {
        let file = paths.config_file();
        let config = Config::load(&file)?;
        let (provider, provider_error) = match config::resolve_provider(&config, overrides) {
            Ok(provider) => (provider, None),
            Err(error) => (None, Some(error)),
        };
        let api_key = provider.as_ref().map(|settings| {
            let status = secrets::key_status(store, &settings.profile, environment_key_present);
            KeyOverview {
                usable_source: status.usable_source(),
                status,
            }
        });
        let profiles = config
            .profile_names()
            .into_iter()
            .map(|name| {
                let (settings, error) = match config.profile_settings(&name) {
                    Ok(settings) => (Some(settings), None),
                    Err(error) => (None, Some(error)),
                };
                ProfileOverview {
                    in_file: config.profiles.contains_key(&name),
                    name,
                    settings,
                    error,
                }
            })
            .collect();
        Ok(SettingsOverview {
            paths: PathsOverview {
                origin: paths.origin(),
                config_file_exists: file.is_file(),
                config_file: file,
                data_dir: paths.data_dir().to_owned(),
                database_file: paths.database_file(),
                pending_dir: paths.pending_dir(),
                log_dir: paths.log_dir().to_owned(),
            },
            active_profile: config.active_profile.clone(),
            overridden: overridden_fields(overrides),
            provider,
            provider_error,
            api_key,
            profiles,
        })
    }
}

fn overridden_fields(overrides: &ProviderOverrides) -> Vec<&'static str> {
    [
        ("profile", overrides.profile.is_some()),
        ("base_url", overrides.base_url.is_some()),
        ("model", overrides.model.is_some()),
        ("schema_mode", overrides.schema_mode.is_some()),
        ("timeout_secs", overrides.timeout_secs.is_some()),
        ("attempts", overrides.attempts.is_some()),
    ]
    .into_iter()
    .filter_map(|(name, given)| given.then_some(name))
    .collect()
}

/// The profile whose key a key operation concerns: the one named, else the configuration's key
/// profile. The configuration is read only when needed, so a broken file does not stop an
/// operation on a named profile; the configuration comes back when it could be read.
pub fn choose_key_profile(
    named: Option<ProfileName>,
    paths: &Paths,
) -> Result<(ProfileName, Option<Config>), ConfigError> {
    let config = Config::load(&paths.config_file());
    match (named, config) {
        (Some(name), config) => Ok((name, config.ok())),
        (None, Ok(config)) => Ok((config.key_profile(), Some(config))),
        (None, Err(error)) => Err(error),
    }
}

/// The name of the profile a draft uses by default, if the configuration can be read.
pub fn active_profile_name(paths: &Paths) -> Option<String> {
    Config::load(&paths.config_file())
        .ok()
        .map(|config| config.key_profile().as_str().to_owned())
}

/// What the key of one profile looks like from here, for `key status` and the settings view.
#[derive(Debug, Serialize)]
pub struct KeyStatusReport {
    /// The keyring and environment state.
    pub status: KeyStatus,
    /// Where the key will be taken from, if anywhere.
    pub usable_source: Option<ApiKeySource>,
    /// Why `ZAYAVKA_API_KEY` cannot be used, when it is set but invalid.
    #[serde(serialize_with = "serialize_error")]
    pub environment_error: Option<SecretError>,
}

/// The key status of a profile, given what the environment holds.
pub fn key_status_report(
    store: &dyn SecretStore,
    profile: &ProfileName,
    environment_key: Result<Option<ApiKey>, SecretError>,
) -> KeyStatusReport {
    let status = secrets::key_status(store, profile, matches!(environment_key, Ok(Some(_))));
    KeyStatusReport {
        usable_source: status.usable_source(),
        status,
        environment_error: environment_key.err(),
    }
}

/// An amount of money as every front end prints it, in the profile's currency: `0.42 ₽`,
/// `0.42 USD`, or with a plain word when the profile names no currency.
pub fn money_text(amount: f64, currency: Option<&str>, decimals: usize) -> String {
    let amount = format!("{amount:.decimals$}");
    match currency {
        Some("RUB") => format!("{amount} ₽"),
        Some(code) => format!("{amount} {code}"),
        None => format!("{amount} (в валюте цен профиля)"),
    }
}

/// A profile's prices in one Russian line: per million tokens, as the profile keeps them, and
/// per 1,000 tokens, as the services publish them; a preset's prices are marked as defaults to
/// check, with their date (issue 15).
pub fn pricing_text_ru(pricing: &Pricing) -> String {
    let currency = pricing.currency.as_deref();
    let per_million = |amount: f64| money_text(amount, currency, 2);
    let per_thousand = |amount: f64| money_text(amount / 1000.0, currency, 4);
    let mut text = format!(
        "ввод {}, вывод {} за миллион токенов (за 1000 токенов: {} и {})",
        per_million(pricing.input_per_million),
        per_million(pricing.output_per_million),
        per_thousand(pricing.input_per_million),
        per_thousand(pricing.output_per_million),
    );
    if let Some(as_of) = &pricing.defaults_as_of {
        let date = jiff::civil::Date::strptime("%Y-%m-%d", as_of)
            .map(crate::document::date_ru)
            .unwrap_or_else(|_| as_of.clone());
        text.push_str(&format!(
            "; цены по умолчанию на {date} — проверьте актуальные на сайте сервиса"
        ));
    }
    text
}

/// The marker the desktop's «Пока без модели» leaves in the configuration folder. A file of its
/// own rather than a field of `config.toml`: the configuration stays the resident's and the
/// command-line tool's, and a marker is written whole or not at all, with nothing to merge.
pub const SETUP_SKIPPED_MARKER: &str = "setup-skipped";

const SETUP_SKIPPED_TEXT: &str = "The resident chose «Пока без модели» in the first-run setup of \
     the desktop app; delete this file to see the setup again at the next start.\n";

/// Whether the resident chose «Пока без модели» (or «Пропустить») on this installation.
pub fn setup_skipped(paths: &Paths) -> bool {
    paths.config_dir().join(SETUP_SKIPPED_MARKER).is_file()
}

/// Remembers «Пока без модели» durably, whole, in the configuration folder, so that the setup
/// does not come back on the next start. Writing it again is harmless.
pub fn skip_setup(paths: &Paths) -> Result<(), SetupError> {
    let dir = paths.config_dir();
    std::fs::create_dir_all(dir).map_err(SetupError)?;
    crate::paths::replace_file(
        &dir.join(SETUP_SKIPPED_MARKER),
        SETUP_SKIPPED_TEXT.as_bytes(),
    )
    .map_err(SetupError)
}

/// «Пока без модели» could not be remembered (a full or read-only disk): drafting works all
/// the same, and the setup comes back at the next start.
#[derive(Debug, thiserror::Error)]
#[error("the first-run choice could not be written: {0}")]
pub struct SetupError(std::io::Error);

impl crate::error::EngineError for SetupError {
    fn kind(&self) -> crate::error::ErrorKind {
        crate::error::ErrorKind::Write
    }

    fn message_ru(&self) -> String {
        format!(
            "Не удалось запомнить выбор «Пока без модели»: {}. Заявку можно составлять и так; \
             при следующем запуске приложение снова предложит подключить модель.",
            crate::paths::io_error_ru(&self.0)
        )
    }
}

/// Whether the desktop app opens on its first-run setup: no service chosen in the file, none
/// given through a `ZAYAVKA_*` variable (`ZAYAVKA_BASE_URL` names a server; `ZAYAVKA_ATTEMPTS`
/// or `ZAYAVKA_TIMEOUT_SECS` alone tune a service but choose none), and the setup not skipped.
pub fn first_run(paths: &Paths, has_active_profile: bool, overrides: &ProviderOverrides) -> bool {
    let environment_names_a_service = overrides.profile.is_some() || overrides.base_url.is_some();
    !has_active_profile && !environment_names_a_service && !setup_skipped(paths)
}

zayavka_codes::stable_codes! {
    /// A setting the desktop settings screen changes: the chosen service, or one field of it
    /// (`profiles.<chosen>.<field>` in the file).
    pub enum ScreenSetting {
        /// Which profile is in use.
        ActiveProfile => "active_profile",
        /// The chosen profile's server.
        BaseUrl => "base_url",
        /// The chosen profile's model.
        Model => "model",
        /// `json_schema` or `json_object`.
        SchemaMode => "schema_mode",
        /// The Yandex Cloud folder (yandex only).
        FolderId => "folder_id",
        /// Whose GigaChat access the key opens (gigachat only).
        Scope => "scope",
        /// The OpenAI-compatible protocol (yandex, openai, custom).
        Protocol => "protocol",
    }
}

impl ScreenSetting {
    /// The profile field this setting writes, for a setting only some services use.
    fn service_field(self) -> Option<ProfileField> {
        match self {
            ScreenSetting::FolderId => Some(ProfileField::FolderId),
            ScreenSetting::Scope => Some(ProfileField::Scope),
            ScreenSetting::Protocol => Some(ProfileField::Protocol),
            ScreenSetting::ActiveProfile
            | ScreenSetting::BaseUrl
            | ScreenSetting::Model
            | ScreenSetting::SchemaMode => None,
        }
    }
}

/// A setting the settings screen could not change; nothing changed. Its message goes beside
/// the field, so a wrong value says only what a right one looks like, never the file's dotted
/// path.
#[derive(Debug, thiserror::Error)]
pub enum SettingError {
    /// A service's own setting was given before any service was chosen.
    #[error("no service is chosen")]
    NoServiceChosen,
    /// The setting belongs to services of another kind than the chosen one.
    #[error("{0} does not apply to the chosen service")]
    NotForService(ScreenSetting),
    /// The settings file could not be read.
    #[error(transparent)]
    Unreadable(ConfigError),
    /// The value was refused, or the file could not be written.
    #[error(transparent)]
    Refused(ConfigError),
}

impl crate::error::EngineError for SettingError {
    fn kind(&self) -> crate::error::ErrorKind {
        match self {
            SettingError::Unreadable(error) => error.kind(),
            SettingError::NoServiceChosen
            | SettingError::NotForService(_)
            | SettingError::Refused(_) => crate::error::ErrorKind::InvalidValue,
        }
    }

    fn message_ru(&self) -> String {
        match self {
            SettingError::NoServiceChosen => {
                "Сначала выберите сервис модели в списке выше.".to_owned()
            }
            SettingError::NotForService(_) => {
                "Эта настройка не относится к выбранному сервису модели.".to_owned()
            }
            SettingError::Refused(ConfigError::InvalidValue { expected, .. }) => {
                format!("Ожидается {expected}.")
            }
            SettingError::Unreadable(error) | SettingError::Refused(error) => error.message_ru(),
        }
    }
}

/// Changes one setting as the settings screen does: choosing «Свой сервер», which is a preset
/// on the screen but not a built-in profile, first makes a profile of that kind (whose address
/// the resident then gives); a service's own setting is refused for a profile whose kind does
/// not use it, as the profile would be refused when used. Gives the settings as stored.
pub fn change_setting(
    paths: &Paths,
    setting: ScreenSetting,
    value: &str,
) -> Result<Config, SettingError> {
    let file = paths.config_file();
    let load = || Config::load(&file).map_err(SettingError::Unreadable);
    let key = match setting {
        ScreenSetting::ActiveProfile => {
            let custom = ProviderKind::Custom.as_str();
            if value == custom && !load()?.profiles.keys().any(|p| p.as_str() == custom) {
                config::set_value(&file, &format!("profiles.{custom}.kind"), custom)
                    .map_err(SettingError::Refused)?;
            }
            setting.code().to_owned()
        }
        _ => {
            let config = load()?;
            let Some(profile) = config.active_profile.clone() else {
                return Err(SettingError::NoServiceChosen);
            };
            if let Some(field) = setting.service_field()
                && !config
                    .profile_kind(&profile)
                    .is_some_and(|kind| kind.accepts(field))
            {
                return Err(SettingError::NotForService(setting));
            }
            format!("profiles.{profile}.{}", setting.code())
        }
    };
    config::set_value(&file, &key, value).map_err(SettingError::Refused)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::EngineError;

    #[test]
    fn issue_15_money_is_printed_in_the_profile_s_currency() {
        assert_eq!(money_text(1.5, Some("RUB"), 2), "1.50 ₽");
        assert_eq!(money_text(0.004, Some("USD"), 4), "0.0040 USD");
        assert_eq!(money_text(2.0, None, 2), "2.00 (в валюте цен профиля)");
    }

    #[test]
    fn issue_15_preset_prices_are_marked_as_defaults_to_check() {
        let mut pricing = Pricing {
            input_per_million: 1200.0,
            output_per_million: 1200.0,
            currency: Some("RUB".to_owned()),
            defaults_as_of: Some("2026-12-02".to_owned()),
        };
        assert_eq!(
            pricing_text_ru(&pricing),
            "ввод 1200.00 ₽, вывод 1200.00 ₽ за миллион токенов (за 1000 токенов: 1.2000 ₽ и \
             1.2000 ₽); цены по умолчанию на 2 декабря 2026 г. — проверьте актуальные на сайте \
             сервиса"
        );
        pricing.defaults_as_of = None;
        assert!(!pricing_text_ru(&pricing).contains("по умолчанию"));
    }

    fn home() -> (tempfile::TempDir, Paths) {
        let dir = tempfile::tempdir().unwrap();
        let paths = Paths::under(dir.path());
        (dir, paths)
    }

    #[test]
    fn the_screen_s_settings_are_the_file_s_field_names() {
        zayavka_codes::check_stable_codes::<ScreenSetting>().unwrap();
        for &setting in ScreenSetting::ALL {
            let dotted = format!("profiles.p.{}", setting.code());
            let key = if setting == ScreenSetting::ActiveProfile {
                setting.code()
            } else {
                &dotted
            };
            assert!(config::SettingKey::parse(key).is_ok(), "{key}");
        }
    }

    #[test]
    fn choosing_custom_makes_a_profile_of_that_kind_once() {
        let (_dir, paths) = home();
        let config = change_setting(&paths, ScreenSetting::ActiveProfile, "custom").unwrap();
        let custom = ProfileName::parse("custom").unwrap();
        assert_eq!(config.active_profile.as_ref(), Some(&custom));
        assert_eq!(
            config.profiles.get(&custom).and_then(|p| p.kind),
            Some(ProviderKind::Custom)
        );
        // Its address is then the resident's to give, under the chosen profile.
        let config =
            change_setting(&paths, ScreenSetting::BaseUrl, "https://example.com/v1").unwrap();
        assert!(config.profiles.get(&custom).unwrap().base_url.is_some());
        // Choosing it again keeps what was given.
        let config = change_setting(&paths, ScreenSetting::ActiveProfile, "custom").unwrap();
        assert!(config.profiles.get(&custom).unwrap().base_url.is_some());
    }

    #[test]
    fn a_service_s_own_setting_needs_a_chosen_service_of_its_kind() {
        let (_dir, paths) = home();
        let refused = change_setting(&paths, ScreenSetting::Model, "m").unwrap_err();
        assert!(matches!(refused, SettingError::NoServiceChosen));
        assert_eq!(refused.kind(), crate::error::ErrorKind::InvalidValue);

        change_setting(&paths, ScreenSetting::ActiveProfile, "gigachat").unwrap();
        let refused =
            change_setting(&paths, ScreenSetting::FolderId, "b1g2345678901234abcd").unwrap_err();
        assert!(matches!(
            refused,
            SettingError::NotForService(ScreenSetting::FolderId)
        ));
        assert_eq!(
            refused.message_ru(),
            "Эта настройка не относится к выбранному сервису модели."
        );
        let config = change_setting(&paths, ScreenSetting::Scope, "GIGACHAT_API_CORP").unwrap();
        let gigachat = ProfileName::parse("gigachat").unwrap();
        assert_eq!(
            config.profiles.get(&gigachat).and_then(|p| p.scope),
            Some(config::GigaChatScope::Corporate)
        );
    }

    #[test]
    fn a_refused_value_says_what_a_right_one_looks_like_without_the_dotted_path() {
        let (_dir, paths) = home();
        change_setting(&paths, ScreenSetting::ActiveProfile, "ollama").unwrap();
        let refused = change_setting(&paths, ScreenSetting::BaseUrl, "not a url").unwrap_err();
        let message = refused.message_ru();
        assert!(message.starts_with("Ожидается "), "{message}");
        assert!(!message.contains("profiles."), "{message}");
        assert_eq!(refused.kind(), crate::error::ErrorKind::InvalidValue);
    }

    #[test]
    fn an_unreadable_file_is_a_settings_failure_not_a_refused_value() {
        let (_dir, paths) = home();
        std::fs::create_dir_all(paths.config_dir()).unwrap();
        std::fs::write(paths.config_file(), "active_profile = [").unwrap();
        let error = change_setting(&paths, ScreenSetting::Model, "m").unwrap_err();
        assert!(matches!(error, SettingError::Unreadable(_)));
        assert_eq!(error.kind(), crate::error::ErrorKind::Config);
    }
}
