//! What a front end shows about the installation's settings: the paths, the effective provider
//! and where each of its values came from, every profile, and the key — never the key itself.
//! The command-line tool's `config show` and `key status` and the desktop settings screen read
//! the same typed values from here.

use std::path::PathBuf;

use serde::{Serialize, Serializer};

use crate::config::{
    self, Config, ConfigError, ConfigErrorCode, Pricing, ProfileName, ProviderOverrides,
    ProviderSettings,
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
pub fn skip_setup(paths: &Paths) -> std::io::Result<()> {
    let dir = paths.config_dir();
    std::fs::create_dir_all(dir)?;
    crate::paths::replace_file(
        &dir.join(SETUP_SKIPPED_MARKER),
        SETUP_SKIPPED_TEXT.as_bytes(),
    )
}

/// Whether the desktop app opens on its first-run setup: no service chosen in the file, none
/// given through a `ZAYAVKA_*` variable (`ZAYAVKA_BASE_URL` names a server; `ZAYAVKA_ATTEMPTS`
/// or `ZAYAVKA_TIMEOUT_SECS` alone tune a service but choose none), and the setup not skipped.
pub fn first_run(paths: &Paths, has_active_profile: bool, overrides: &ProviderOverrides) -> bool {
    let environment_names_a_service = overrides.profile.is_some() || overrides.base_url.is_some();
    !has_active_profile && !environment_names_a_service && !setup_skipped(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
