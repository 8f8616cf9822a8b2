//! Effective settings for one run: [`ProviderOverrides`] from command-line flags and the
//! environment, and [`resolve_provider`], which picks the profile and returns the
//! [`ProviderSettings`] (with optional [`Pricing`]) that the adapter uses. Merging a profile's
//! preset, file values and overrides is `Config::settings_with`, next to the other profile
//! look-ups in `load.rs`.

use super::error::{ConfigError, SettingSource};
use super::file::{Config, FieldValue};
use super::values::{
    BaseUrl, FolderId, GigaChatScope, ProfileField, ProfileName, Protocol, ProviderKind, YandexAuth,
};
use super::{
    ENV_ATTEMPTS, ENV_BASE_URL, ENV_MODEL, ENV_SCHEMA_MODE, ENV_TIMEOUT_SECS, OVERRIDE_VARIABLES,
    SchemaMode,
};

/// Settings given for one run, above the configuration file: command-line flags or environment
/// variables.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProviderOverrides {
    /// Use this profile instead of the active one.
    pub profile: Option<ProfileName>,
    /// Use this server address.
    pub base_url: Option<BaseUrl>,
    /// Use this model.
    pub model: Option<String>,
    /// Use this schema mode.
    pub schema_mode: Option<SchemaMode>,
    /// Use this per-attempt timeout, in seconds.
    pub timeout_secs: Option<u64>,
    /// Use this number of attempts.
    pub attempts: Option<u32>,
}

impl ProviderOverrides {
    /// Reads `ZAYAVKA_BASE_URL`, `ZAYAVKA_MODEL`, `ZAYAVKA_SCHEMA_MODE`, `ZAYAVKA_TIMEOUT_SECS` and
    /// `ZAYAVKA_ATTEMPTS` from the process environment; unset or empty variables are ignored.
    pub fn from_env() -> Result<ProviderOverrides, ConfigError> {
        for variable in OVERRIDE_VARIABLES {
            if let Err(std::env::VarError::NotUnicode(_)) = std::env::var(variable) {
                return Err(ConfigError::InvalidValue {
                    origin: SettingSource::Environment,
                    field: variable.to_owned(),
                    expected: "текст в кодировке UTF-8",
                });
            }
        }
        ProviderOverrides::from_lookup(|variable| std::env::var(variable).ok())
    }

    /// Reads the same variables through `lookup`; the testable half of
    /// [`ProviderOverrides::from_env`].
    pub fn from_lookup(
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<ProviderOverrides, ConfigError> {
        let read =
            |variable: &str, field: ProfileField| -> Result<Option<FieldValue>, ConfigError> {
                match lookup(variable) {
                    Some(text) if !text.trim().is_empty() => FieldValue::from_text(field, &text)
                        .map(Some)
                        .ok_or_else(|| ConfigError::InvalidValue {
                            origin: SettingSource::Environment,
                            field: variable.to_owned(),
                            expected: field.expected(),
                        }),
                    _ => Ok(None),
                }
            };
        let mut overrides = ProviderOverrides::default();
        if let Some(FieldValue::BaseUrl(url)) = read(ENV_BASE_URL, ProfileField::BaseUrl)? {
            overrides.base_url = Some(url);
        }
        if let Some(FieldValue::Model(model)) = read(ENV_MODEL, ProfileField::Model)? {
            overrides.model = Some(model);
        }
        if let Some(FieldValue::SchemaMode(mode)) = read(ENV_SCHEMA_MODE, ProfileField::SchemaMode)?
        {
            overrides.schema_mode = Some(mode);
        }
        if let Some(FieldValue::TimeoutSecs(secs)) =
            read(ENV_TIMEOUT_SECS, ProfileField::TimeoutSecs)?
        {
            overrides.timeout_secs = Some(secs);
        }
        if let Some(FieldValue::Attempts(attempts)) = read(ENV_ATTEMPTS, ProfileField::Attempts)? {
            overrides.attempts = Some(attempts);
        }
        Ok(overrides)
    }

    /// Takes each setting from `self` when given, else from `fallback`; command-line flags call
    /// this with the environment's overrides as the fallback.
    pub fn or(self, fallback: ProviderOverrides) -> ProviderOverrides {
        ProviderOverrides {
            profile: self.profile.or(fallback.profile),
            base_url: self.base_url.or(fallback.base_url),
            model: self.model.or(fallback.model),
            schema_mode: self.schema_mode.or(fallback.schema_mode),
            timeout_secs: self.timeout_secs.or(fallback.timeout_secs),
            attempts: self.attempts.or(fallback.attempts),
        }
    }

    /// Whether no override is given at all.
    pub fn is_empty(&self) -> bool {
        *self == ProviderOverrides::default()
    }
}

/// Token prices of a profile, for the optional cost estimate.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Pricing {
    /// The price of a million input tokens.
    pub input_per_million: f64,
    /// The price of a million output tokens.
    pub output_per_million: f64,
    /// The currency of both prices: the one the resident named, else the preset's (`RUB` for
    /// `yandex` and `gigachat`).
    pub currency: Option<String>,
    /// When these are the preset's default prices rather than the resident's, the day they
    /// were read from the service's price list (`YYYY-MM-DD`): a front end shows them as
    /// defaults to check.
    pub defaults_as_of: Option<String>,
}

/// What a service needs beyond an address and a key.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "service", rename_all = "snake_case")]
pub enum ServiceAccess {
    /// An OpenAI-compatible service: the key, if any, as a bearer token.
    Standard,
    /// Yandex AI Studio: the folder in `x-folder-id` and the model URI, and the secret as an
    /// `Api-Key` or an IAM token.
    Yandex {
        /// The Yandex Cloud folder.
        folder_id: FolderId,
        /// How the secret is presented.
        auth_scheme: YandexAuth,
    },
    /// GigaChat: the stored authorization key is exchanged at `auth_url` for an access token.
    #[serde(rename = "gigachat")]
    GigaChat {
        /// Whose access the key opens.
        scope: GigaChatScope,
        /// The token endpoint.
        auth_url: BaseUrl,
    },
}

/// Everything the adapter needs to know about the provider for one run, with presets and overrides
/// applied. It holds no API key.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ProviderSettings {
    /// The profile these settings come from.
    pub profile: ProfileName,
    /// The kind of server.
    pub kind: ProviderKind,
    /// The server address that `/chat/completions` is appended to.
    pub base_url: BaseUrl,
    /// The model name; for `yandex`, the full `gpt://<folder>/…` URI.
    pub model: String,
    /// Chat completions or the Responses API.
    pub protocol: Protocol,
    /// What the service needs beyond the address and the key.
    pub access: ServiceAccess,
    /// How the response schema is enforced.
    pub schema_mode: SchemaMode,
    /// Whether a call without an API key should be refused before it is made.
    pub needs_api_key: bool,
    /// Token prices, when both are configured.
    pub pricing: Option<Pricing>,
    /// The per-attempt timeout in seconds; `None` leaves the adapter's default.
    pub timeout_secs: Option<u64>,
    /// The number of attempts; `None` leaves the adapter's default.
    pub attempts: Option<u32>,
}

/// Chooses the provider for one run and fills in its settings.
///
/// The profile is `overrides.profile`, else the configuration's active profile. With neither, a
/// base URL override defines an ad-hoc `custom` profile named `default`; otherwise the answer is
/// `Ok(None)`: no provider is configured and the run goes without a model.
pub fn resolve_provider(
    config: &Config,
    overrides: &ProviderOverrides,
) -> Result<Option<ProviderSettings>, ConfigError> {
    let name = match (&overrides.profile, &config.active_profile) {
        (Some(name), _) | (None, Some(name)) => name.clone(),
        (None, None) if overrides.base_url.is_some() => ProfileName::default_profile(),
        (None, None) => return Ok(None),
    };
    config.settings_with(&name, overrides).map(Some)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::config::test_support::{name, parse};

    #[test]
    fn an_active_profile_that_does_not_exist_is_reported_with_the_known_ones() {
        let config =
            parse("active_profile = \"wrok\"\n[profiles.work]\nkind = \"openai\"\n").unwrap();
        let error = resolve_provider(&config, &ProviderOverrides::default()).unwrap_err();
        assert_eq!(error.code(), "config.unknown_profile");
        let message = error.message_ru();
        assert!(message.contains("«wrok»"), "{message}");
        assert!(message.contains("work"), "{message}");
        assert!(message.contains("ollama"), "{message}");
    }

    #[test]
    fn overrides_win_over_the_profile() {
        let config =
            parse("active_profile = \"openai\"\n[profiles.openai]\ntimeout_secs = 30\n").unwrap();
        let overrides = ProviderOverrides {
            base_url: Some(BaseUrl::parse("http://127.0.0.1:9999/v1").unwrap()),
            model: Some("stand-in".to_owned()),
            schema_mode: Some(SchemaMode::JsonObject),
            timeout_secs: Some(5),
            attempts: Some(1),
            ..ProviderOverrides::default()
        };
        let settings = resolve_provider(&config, &overrides).unwrap().unwrap();
        assert_eq!(settings.profile.as_str(), "openai");
        assert_eq!(settings.base_url.as_str(), "http://127.0.0.1:9999/v1");
        assert_eq!(settings.model, "stand-in");
        assert_eq!(settings.schema_mode, SchemaMode::JsonObject);
        assert_eq!(settings.timeout_secs, Some(5));
        assert_eq!(settings.attempts, Some(1));
        // A key requirement is a property of the profile, not something an override changes.
        assert!(settings.needs_api_key);
    }

    #[test]
    fn an_override_profile_wins_over_the_active_one() {
        let config = parse("active_profile = \"openai\"\n").unwrap();
        let overrides = ProviderOverrides {
            profile: Some(name("lmstudio")),
            ..ProviderOverrides::default()
        };
        let settings = resolve_provider(&config, &overrides).unwrap().unwrap();
        assert_eq!(settings.kind, ProviderKind::LmStudio);
    }

    #[test]
    fn overrides_alone_define_an_ad_hoc_default_profile() {
        let overrides = ProviderOverrides {
            base_url: Some(BaseUrl::parse("http://127.0.0.1:4010/v1").unwrap()),
            model: Some("stand-in".to_owned()),
            ..ProviderOverrides::default()
        };
        let settings = resolve_provider(&Config::default(), &overrides)
            .unwrap()
            .unwrap();
        assert_eq!(settings.profile.as_str(), "default");
        assert_eq!(settings.kind, ProviderKind::Custom);
        assert_eq!(settings.schema_mode, SchemaMode::JsonObject);
        assert!(!settings.needs_api_key);

        let without_model = ProviderOverrides {
            model: None,
            ..overrides
        };
        let error = resolve_provider(&Config::default(), &without_model).unwrap_err();
        assert!(error.message_ru().contains(ENV_MODEL), "{error}");
    }

    #[test]
    fn a_model_override_alone_does_not_configure_a_provider() {
        let overrides = ProviderOverrides {
            model: Some("gpt-4o".to_owned()),
            ..ProviderOverrides::default()
        };
        assert_eq!(
            resolve_provider(&Config::default(), &overrides).unwrap(),
            None
        );
    }

    #[test]
    fn environment_overrides_are_read_through_a_lookup() {
        let environment: BTreeMap<&str, &str> = BTreeMap::from([
            (ENV_BASE_URL, "http://127.0.0.1:4010/v1/"),
            (ENV_MODEL, " stand-in "),
            (ENV_SCHEMA_MODE, "json_schema"),
            (ENV_TIMEOUT_SECS, "7"),
            (ENV_ATTEMPTS, ""),
        ]);
        let overrides = ProviderOverrides::from_lookup(|variable| {
            environment.get(variable).map(|value| value.to_string())
        })
        .unwrap();
        assert_eq!(
            overrides.base_url.as_ref().map(BaseUrl::as_str),
            Some("http://127.0.0.1:4010/v1")
        );
        assert_eq!(overrides.model.as_deref(), Some("stand-in"));
        assert_eq!(overrides.schema_mode, Some(SchemaMode::JsonSchema));
        assert_eq!(overrides.timeout_secs, Some(7));
        // An empty variable counts as unset.
        assert_eq!(overrides.attempts, None);
        assert_eq!(overrides.profile, None);
    }

    #[test]
    fn a_bad_environment_override_names_the_variable() {
        let error = ProviderOverrides::from_lookup(|variable| {
            (variable == ENV_TIMEOUT_SECS).then(|| "soon".to_owned())
        })
        .unwrap_err();
        assert_eq!(error.code(), "config.invalid_value");
        assert!(error.message_ru().contains(ENV_TIMEOUT_SECS));
        assert!(!error.message_ru().contains("soon"));
    }

    #[test]
    fn command_line_overrides_fall_back_to_the_environment() {
        let flags = ProviderOverrides {
            model: Some("from-flag".to_owned()),
            ..ProviderOverrides::default()
        };
        let environment = ProviderOverrides {
            model: Some("from-env".to_owned()),
            attempts: Some(4),
            ..ProviderOverrides::default()
        };
        let merged = flags.or(environment);
        assert_eq!(merged.model.as_deref(), Some("from-flag"));
        assert_eq!(merged.attempts, Some(4));
        assert!(ProviderOverrides::default().is_empty());
        assert!(!merged.is_empty());
    }

    #[test]
    fn settings_serialise_without_surprises() {
        let config = parse("active_profile = \"ollama\"\n").unwrap();
        let settings = resolve_provider(&config, &ProviderOverrides::default())
            .unwrap()
            .unwrap();
        let json = serde_json::to_value(&settings).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "profile": "ollama",
                "kind": "ollama",
                "base_url": "http://127.0.0.1:11434/v1",
                "model": "qwen2.5:7b-instruct",
                "protocol": "chat_completions",
                "access": { "service": "standard" },
                "schema_mode": "json_object",
                "needs_api_key": false,
                "pricing": null,
                "timeout_secs": null,
                "attempts": null,
            })
        );
    }
}
