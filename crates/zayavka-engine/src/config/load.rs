//! Loading the configuration file: from bytes to a checked [`Config`], refusing secret-looking
//! and unknown fields on the way, and the `impl Config` methods that list profiles and fill in a
//! profile's complete settings from its preset. The lower-level steps (`read_config_text`,
//! `parse_document`, `config_from_document`) are shared with `config set`, which refuses to edit
//! a file that would not load.

use std::path::Path;

use toml_edit::{DocumentMut, TableLike};

use super::error::{ConfigError, SettingSource};
use super::file::{Config, FieldValue, ProfileConfig, apply_field};
use super::resolve::{Pricing, ProviderOverrides, ProviderSettings, ServiceAccess};
use super::values::{
    BaseUrl, EXPECTED_PROFILE_NAME, GIGACHAT_AUTH_URL, ProfileField, ProfileName, Protocol,
    ProviderKind, YANDEX_RESPONSES_MODEL, yandex_model_folder, yandex_model_uri,
};

const TOP_LEVEL_FIELDS: [&str; 2] = ["active_profile", "profiles"];

impl Config {
    /// Reads the configuration file at `path`; a missing file means [`Config::default`].
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        match read_config_text(path)? {
            Some(text) => Config::parse(&text, path),
            None => Ok(Config::default()),
        }
    }

    /// Parses and checks configuration text; `path` is only used in error messages.
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let document = parse_document(text, path)?;
        config_from_document(&document, path)
    }

    /// The built-in profiles in the order every front end lists the services
    /// ([`ProviderKind::ALL`]), then the file's other profiles by name.
    pub fn profile_names(&self) -> Vec<ProfileName> {
        let mut names: Vec<ProfileName> = builtin_profile_names().collect();
        let own: Vec<ProfileName> = self
            .profiles
            .keys()
            .filter(|name| !names.contains(name))
            .cloned()
            .collect();
        names.extend(own);
        names
    }

    /// Whether `name` is a built-in profile or a `[profiles.NAME]` table.
    pub fn has_profile(&self, name: &ProfileName) -> bool {
        self.profiles.contains_key(name) || builtin_kind(name).is_some()
    }

    /// The profile whose API key `zayavka key` manages when none is named: the active profile, or
    /// `default` when none is active.
    pub fn key_profile(&self) -> ProfileName {
        self.active_profile
            .clone()
            .unwrap_or_else(ProfileName::default_profile)
    }

    /// The kind of profile `name`: the one written in its table, else the built-in profile's
    /// own (a profile named `custom` is of that kind even before its table says so).
    pub fn profile_kind(&self, name: &ProfileName) -> Option<ProviderKind> {
        self.profiles
            .get(name)
            .and_then(|written| written.kind)
            .or_else(|| ProviderKind::parse(name.as_str()))
    }

    /// The complete settings of one profile, without overrides.
    pub fn profile_settings(&self, name: &ProfileName) -> Result<ProviderSettings, ConfigError> {
        self.settings_with(name, &ProviderOverrides::default())
    }

    pub(super) fn settings_with(
        &self,
        name: &ProfileName,
        overrides: &ProviderOverrides,
    ) -> Result<ProviderSettings, ConfigError> {
        let written = self.profiles.get(name);
        let is_ad_hoc = written.is_none()
            && builtin_kind(name).is_none()
            && name.as_str() == ProfileName::DEFAULT
            && overrides.base_url.is_some();
        if written.is_none() && builtin_kind(name).is_none() && !is_ad_hoc {
            return Err(ConfigError::UnknownProfile {
                name: name.clone(),
                known: self.profile_names(),
            });
        }
        let empty = ProfileConfig::default();
        let written = written.unwrap_or(&empty);
        let incomplete = |field: ProfileField| ConfigError::IncompleteProfile {
            profile: name.clone(),
            field,
        };

        let kind = written
            .kind
            .or_else(|| builtin_kind(name))
            .or(is_ad_hoc.then_some(ProviderKind::Custom))
            .ok_or_else(|| incomplete(ProfileField::Kind))?;
        let preset = kind.preset();
        if let Some(field) = written
            .fields_set()
            .into_iter()
            .find(|field| !kind.accepts(*field))
        {
            return Err(ConfigError::FieldNotForKind {
                profile: name.clone(),
                field,
                kind,
            });
        }
        let base_url = match (&overrides.base_url, &written.base_url, preset.base_url) {
            (Some(url), _, _) | (None, Some(url), _) => url.clone(),
            (None, None, Some(url)) => BaseUrl::check(url).ok_or_else(|| {
                // The presets are constants checked by a unit test, so this is unreachable.
                incomplete(ProfileField::BaseUrl)
            })?,
            (None, None, None) => return Err(incomplete(ProfileField::BaseUrl)),
        };
        let protocol = written.protocol.unwrap_or_default();
        let access = match kind {
            ProviderKind::Yandex => ServiceAccess::Yandex {
                folder_id: written
                    .folder_id
                    .clone()
                    .ok_or_else(|| incomplete(ProfileField::FolderId))?,
                auth_scheme: written.auth_scheme.unwrap_or_default(),
            },
            ProviderKind::GigaChat => ServiceAccess::GigaChat {
                scope: written.scope.unwrap_or_default(),
                auth_url: match &written.auth_url {
                    Some(url) => url.clone(),
                    None => BaseUrl::check(GIGACHAT_AUTH_URL)
                        .ok_or_else(|| incomplete(ProfileField::AuthUrl))?,
                },
            },
            _ => ServiceAccess::Standard,
        };
        let preset_model = match (kind, protocol) {
            (ProviderKind::Yandex, Protocol::Responses) => Some(YANDEX_RESPONSES_MODEL),
            _ => preset.model,
        };
        let model = overrides
            .model
            .clone()
            .or_else(|| written.model.clone())
            .or_else(|| preset_model.map(str::to_owned))
            .ok_or_else(|| incomplete(ProfileField::Model))?;
        let model = match &access {
            ServiceAccess::Yandex { folder_id, .. } => {
                let uri = yandex_model_uri(folder_id, &model);
                // A model copied from another folder would be refused by the service with a
                // message about permissions; saying which two values disagree is kinder.
                if yandex_model_folder(&uri) != Some(folder_id.as_str()) {
                    return Err(ConfigError::ModelFolderMismatch {
                        profile: name.clone(),
                    });
                }
                uri
            }
            _ => model,
        };
        let currency = written
            .currency
            .clone()
            .or_else(|| preset.currency.map(str::to_owned));
        let pricing = match (
            written.price_input_per_million,
            written.price_output_per_million,
        ) {
            (Some(input_per_million), Some(output_per_million)) => Some(Pricing {
                input_per_million,
                output_per_million,
                currency,
                defaults_as_of: None,
            }),
            // The preset's prices hold only for the preset's own model.
            (None, None) => preset
                .pricing
                .filter(|_| written.model.is_none() && overrides.model.is_none())
                .filter(|_| !(kind == ProviderKind::Yandex && protocol == Protocol::Responses))
                .map(|prices| Pricing {
                    input_per_million: prices.input_per_million,
                    output_per_million: prices.output_per_million,
                    currency: currency.clone(),
                    defaults_as_of: Some(prices.as_of.to_owned()),
                }),
            (Some(_), None) => return Err(incomplete(ProfileField::PriceOutputPerMillion)),
            (None, Some(_)) => return Err(incomplete(ProfileField::PriceInputPerMillion)),
        };
        Ok(ProviderSettings {
            profile: name.clone(),
            kind,
            base_url,
            model,
            protocol,
            access,
            schema_mode: overrides
                .schema_mode
                .or(written.schema_mode)
                .unwrap_or(preset.schema_mode),
            needs_api_key: written.needs_api_key.unwrap_or(preset.needs_api_key),
            pricing,
            timeout_secs: overrides.timeout_secs.or(written.timeout_secs),
            attempts: overrides.attempts.or(written.attempts),
        })
    }
}

fn builtin_kind(name: &ProfileName) -> Option<ProviderKind> {
    ProviderKind::parse(name.as_str()).filter(|kind| *kind != ProviderKind::Custom)
}

fn builtin_profile_names() -> impl Iterator<Item = ProfileName> {
    ProviderKind::ALL
        .into_iter()
        .filter(|kind| *kind != ProviderKind::Custom)
        .map(|kind| ProfileName(kind.as_str().to_owned()))
}

pub(super) fn read_config_text(path: &Path) -> Result<Option<String>, ConfigError> {
    match std::fs::read(path) {
        Ok(bytes) => {
            let text = String::from_utf8(bytes).map_err(|_| ConfigError::Syntax {
                path: path.to_path_buf(),
                line: None,
                column: None,
                detail: "файл не в кодировке UTF-8".to_owned(),
            })?;
            Ok(Some(text))
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(ConfigError::Read {
            path: path.to_path_buf(),
            detail: error.to_string(),
        }),
    }
}

pub(super) fn parse_document(text: &str, path: &Path) -> Result<DocumentMut, ConfigError> {
    // Windows editors like to start UTF-8 files with a byte-order mark, which TOML does not allow.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.parse::<DocumentMut>().map_err(|error| {
        // The parser's own rendering quotes the offending line, which might be a line holding a
        // key, so only the position and the bare message are kept.
        let (line, column) = match error.span() {
            Some(span) => line_and_column(text, span.start),
            None => (None, None),
        };
        ConfigError::Syntax {
            path: path.to_path_buf(),
            line,
            column,
            detail: error.message().trim().to_owned(),
        }
    })
}

fn line_and_column(text: &str, offset: usize) -> (Option<usize>, Option<usize>) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (Some(line), Some(column))
}

pub(super) fn config_from_document(
    document: &DocumentMut,
    path: &Path,
) -> Result<Config, ConfigError> {
    // Secrets are looked for first and everywhere, so a key in a misspelt table is reported as a
    // key, which is the more urgent thing for the resident to fix.
    find_secret_fields(document.as_table(), "", path)?;

    let unknown = |field: String, allowed: &[&str]| ConfigError::UnknownField {
        path: path.to_path_buf(),
        field,
        allowed: allowed.join(", "),
    };
    let invalid = |field: String, expected: &'static str| ConfigError::InvalidValue {
        origin: SettingSource::File(path.to_path_buf()),
        field,
        expected,
    };

    let mut config = Config::default();
    for (name, item) in document.iter() {
        match name {
            "active_profile" => {
                let profile = item
                    .as_str()
                    .and_then(ProfileName::check)
                    .ok_or_else(|| invalid(name.to_owned(), EXPECTED_PROFILE_NAME))?;
                config.active_profile = Some(profile);
            }
            "profiles" => {
                let profiles = item.as_table_like().ok_or_else(|| {
                    invalid(
                        name.to_owned(),
                        "таблица профилей: [profiles.ИМЯ] с полями профиля",
                    )
                })?;
                for (profile_name, profile_item) in profiles.iter() {
                    let dotted = format!("profiles.{profile_name}");
                    let profile_name = ProfileName::check(profile_name)
                        .ok_or_else(|| invalid(dotted.clone(), EXPECTED_PROFILE_NAME))?;
                    let table = profile_item.as_table_like().ok_or_else(|| {
                        invalid(dotted.clone(), "таблица [profiles.ИМЯ] с полями профиля")
                    })?;
                    let profile = profile_from_table(table, &dotted, path)?;
                    config.profiles.insert(profile_name, profile);
                }
            }
            other => return Err(unknown(other.to_owned(), &TOP_LEVEL_FIELDS)),
        }
    }
    Ok(config)
}

fn profile_from_table(
    table: &dyn TableLike,
    dotted: &str,
    path: &Path,
) -> Result<ProfileConfig, ConfigError> {
    let mut profile = ProfileConfig::default();
    for (field_name, item) in table.iter() {
        let field_path = format!("{dotted}.{field_name}");
        let field = ProfileField::parse(field_name).ok_or_else(|| ConfigError::UnknownField {
            path: path.to_path_buf(),
            field: field_path.clone(),
            allowed: ProfileField::ALL.map(ProfileField::as_str).join(", "),
        })?;
        let value =
            FieldValue::from_item(field, item).ok_or_else(|| ConfigError::InvalidValue {
                origin: SettingSource::File(path.to_path_buf()),
                field: field_path,
                expected: field.expected(),
            })?;
        apply_field(&mut profile, field, value);
    }
    Ok(profile)
}

/// Whether a field name suggests that it holds a secret.
///
/// Exact names and common suffixes are matched after lower-casing and turning `-` into `_`;
/// `needs_api_key`, a legitimate flag, is the one exception.
pub fn looks_like_secret_field(name: &str) -> bool {
    let normalised = name.trim().to_lowercase().replace('-', "_");
    if normalised == ProfileField::NeedsApiKey.as_str() {
        return false;
    }
    const EXACT: [&str; 12] = [
        "api_key",
        "apikey",
        "key",
        "token",
        "authorization",
        "auth",
        "bearer",
        "secret",
        "password",
        "passwd",
        "credential",
        "credentials",
    ];
    const SUFFIXES: [&str; 5] = ["_key", "_token", "_secret", "_password", "_authorization"];
    EXACT.contains(&normalised.as_str())
        || SUFFIXES.iter().any(|suffix| normalised.ends_with(suffix))
}

fn find_secret_fields(table: &dyn TableLike, prefix: &str, path: &Path) -> Result<(), ConfigError> {
    for (name, item) in table.iter() {
        let dotted = if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}.{name}")
        };
        if looks_like_secret_field(name) {
            return Err(ConfigError::SecretInConfig {
                path: path.to_path_buf(),
                field: dotted.clone(),
                profile: profile_of(&dotted),
            });
        }
        if let Some(inner) = item.as_table_like() {
            find_secret_fields(inner, &dotted, path)?;
        } else if let Some(tables) = item.as_array_of_tables() {
            for inner in tables.iter() {
                find_secret_fields(inner, &dotted, path)?;
            }
        }
    }
    Ok(())
}

/// The profile a dotted field belongs to, when it is `profiles.NAME.…` with a valid name.
pub(super) fn profile_of(dotted: &str) -> Option<ProfileName> {
    let mut parts = dotted.split('.');
    (parts.next() == Some("profiles"))
        .then(|| parts.next())
        .flatten()
        .and_then(ProfileName::check)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ServiceAccess;
    use crate::config::test_support::{name, parse, path};
    use crate::config::values::Protocol;
    use crate::config::{SchemaMode, resolve_provider};

    #[test]
    fn a_missing_file_means_no_active_profile_and_no_provider() {
        let home = tempfile::tempdir().unwrap();
        let config = Config::load(&home.path().join("config.toml")).unwrap();
        assert_eq!(config, Config::default());
        assert_eq!(config.active_profile, None);
        let provider = resolve_provider(&config, &ProviderOverrides::default()).unwrap();
        assert_eq!(provider, None);
        assert_eq!(config.key_profile().as_str(), "default");
    }

    #[test]
    fn an_empty_file_is_the_same_as_no_file() {
        assert_eq!(parse("").unwrap(), Config::default());
        assert_eq!(parse("# только комментарий\n").unwrap(), Config::default());
    }

    #[test]
    fn a_full_profile_parses() {
        let config = parse(
            r#"
            active_profile = "work"

            [profiles.work]
            kind = "openrouter"
            base_url = "https://openrouter.ai/api/v1/"
            model = "anthropic/claude-3.5-haiku"
            schema_mode = "json_object"
            needs_api_key = true
            price_input_per_million = 1
            price_output_per_million = 4.5
            currency = "USD"
            timeout_secs = 90
            attempts = 2
            "#,
        )
        .unwrap();
        assert_eq!(config.active_profile, Some(name("work")));
        let settings = resolve_provider(&config, &ProviderOverrides::default())
            .unwrap()
            .unwrap();
        assert_eq!(settings.kind, ProviderKind::OpenRouter);
        assert_eq!(settings.base_url.as_str(), "https://openrouter.ai/api/v1");
        assert_eq!(settings.model, "anthropic/claude-3.5-haiku");
        assert_eq!(settings.schema_mode, SchemaMode::JsonObject);
        assert!(settings.needs_api_key);
        assert_eq!(
            settings.pricing,
            Some(Pricing {
                input_per_million: 1.0,
                output_per_million: 4.5,
                currency: Some("USD".to_owned()),
                defaults_as_of: None,
            })
        );
        assert_eq!(settings.timeout_secs, Some(90));
        assert_eq!(settings.attempts, Some(2));
    }

    #[test]
    fn a_builtin_profile_needs_no_table_and_a_table_overrides_it() {
        let config = parse("active_profile = \"ollama\"\n").unwrap();
        let settings = resolve_provider(&config, &ProviderOverrides::default())
            .unwrap()
            .unwrap();
        assert_eq!(settings.kind, ProviderKind::Ollama);
        assert_eq!(settings.model, "qwen2.5:7b-instruct");
        assert_eq!(settings.base_url.as_str(), "http://127.0.0.1:11434/v1");
        assert!(settings.base_url.is_loopback());
        assert_eq!(settings.timeout_secs, None);

        let config =
            parse("active_profile = \"openai\"\n[profiles.openai]\nmodel = \"gpt-4.1\"\n").unwrap();
        let settings = resolve_provider(&config, &ProviderOverrides::default())
            .unwrap()
            .unwrap();
        assert_eq!(settings.kind, ProviderKind::OpenAi);
        assert_eq!(settings.model, "gpt-4.1");
        assert_eq!(settings.base_url.as_str(), "https://api.openai.com/v1");
        assert!(!settings.base_url.is_loopback());
    }

    #[test]
    fn a_custom_profile_must_name_its_url_and_model_when_used() {
        let config = parse("[profiles.mine]\nkind = \"custom\"\n").unwrap();
        let error = config.profile_settings(&name("mine")).unwrap_err();
        assert_eq!(error.code(), "config.incomplete_profile");
        assert!(error.message_ru().contains("«base_url»"), "{error}");
        assert_eq!(
            error.next_step(),
            Some(zayavka_core::NextStep::ConfigureProvider)
        );

        let config =
            parse("[profiles.mine]\nkind = \"custom\"\nbase_url = \"http://10.0.0.5:8000/v1\"\n")
                .unwrap();
        let error = config.profile_settings(&name("mine")).unwrap_err();
        assert!(matches!(
            error,
            ConfigError::IncompleteProfile {
                field: ProfileField::Model,
                ..
            }
        ));
    }

    #[test]
    fn a_profile_with_an_unknown_name_needs_a_kind() {
        let config = parse("[profiles.work]\nmodel = \"x\"\n").unwrap();
        let error = config.profile_settings(&name("work")).unwrap_err();
        assert!(matches!(
            error,
            ConfigError::IncompleteProfile {
                field: ProfileField::Kind,
                ..
            }
        ));
    }

    #[test]
    fn one_price_without_the_other_is_reported_when_used() {
        let config = parse("[profiles.openai]\nprice_input_per_million = 0.15\n").unwrap();
        let error = config.profile_settings(&name("openai")).unwrap_err();
        assert!(matches!(
            error,
            ConfigError::IncompleteProfile {
                field: ProfileField::PriceOutputPerMillion,
                ..
            }
        ));
    }

    #[test]
    fn key_like_fields_are_refused_with_a_pointer_to_key_set() {
        for field in [
            "api_key",
            "key",
            "token",
            "authorization",
            "API-Key",
            "openai_api_key",
        ] {
            let text = format!(
                "[profiles.work]\nkind = \"openai\"\n\"{field}\" = \"sk-fake-0123456789abcdef\"\n"
            );
            let error = parse(&text).unwrap_err();
            assert_eq!(error.code(), "config.secret_in_config", "{field}");
            let message = error.message_ru();
            assert!(message.contains("для профиля «work»"), "{message}");
            assert!(!message.contains("key set"), "{message}");
            assert!(message.contains(&path().display().to_string()), "{message}");
            assert!(!message.contains("sk-fake"), "{message}");
        }
    }

    #[test]
    fn a_key_at_the_top_level_or_in_an_unknown_table_is_still_reported_as_a_key() {
        let error = parse("api_key = \"sk-top-secret\"\n").unwrap_err();
        assert_eq!(error.code(), "config.secret_in_config");
        assert!(error.message_ru().contains("хранилище ключей"));
        let error = parse("[auth_settings]\ntoken = \"sk-top-secret\"\n").unwrap_err();
        assert_eq!(error.code(), "config.secret_in_config");
        assert!(error.message_ru().contains("«auth_settings.token»"));
        assert!(!error.message_ru().contains("sk-top-secret"));
    }

    #[test]
    fn needs_api_key_is_not_mistaken_for_a_key() {
        assert!(!looks_like_secret_field("needs_api_key"));
        assert!(looks_like_secret_field("api_key"));
        assert!(looks_like_secret_field("Authorization"));
        assert!(!looks_like_secret_field("model"));
        assert!(!looks_like_secret_field("kind"));
        parse("[profiles.openai]\nneeds_api_key = false\n").unwrap();
    }

    #[test]
    fn unknown_fields_are_refused_naming_the_file_and_the_field() {
        let error = parse("activ_profile = \"openai\"\n").unwrap_err();
        assert_eq!(error.code(), "config.unknown_field");
        let message = error.message_ru();
        assert!(message.contains("«activ_profile»"), "{message}");
        assert!(message.contains(&path().display().to_string()), "{message}");
        assert!(message.contains("active_profile, profiles"), "{message}");

        let error = parse("[profiles.work]\nkind = \"openai\"\nmodle = \"x\"\n").unwrap_err();
        assert_eq!(error.code(), "config.unknown_field");
        assert!(error.message_ru().contains("«profiles.work.modle»"));
        assert!(error.message_ru().contains("base_url"));
    }

    #[test]
    fn wrong_values_in_the_file_are_refused_without_quoting_them() {
        let cases = [
            ("[profiles.w]\nkind = \"openia\"\n", "profiles.w.kind"),
            (
                "[profiles.w]\nbase_url = \"ftp://x/v1\"\n",
                "profiles.w.base_url",
            ),
            (
                "[profiles.w]\nbase_url = \"https://user:sk-secret@x/v1\"\n",
                "profiles.w.base_url",
            ),
            (
                "[profiles.w]\nbase_url = \"https://x/v1?key=sk-secret\"\n",
                "profiles.w.base_url",
            ),
            (
                "[profiles.w]\nschema_mode = \"strict\"\n",
                "profiles.w.schema_mode",
            ),
            (
                "[profiles.w]\nneeds_api_key = \"yes\"\n",
                "profiles.w.needs_api_key",
            ),
            (
                "[profiles.w]\ntimeout_secs = 0\n",
                "profiles.w.timeout_secs",
            ),
            ("[profiles.w]\nattempts = 11\n", "profiles.w.attempts"),
            (
                "[profiles.w]\nprice_input_per_million = -1\n",
                "profiles.w.price_input_per_million",
            ),
            (
                "[profiles.w]\ncurrency = \"рубли\"\n",
                "profiles.w.currency",
            ),
            ("[profiles.w]\nmodel = \"\"\n", "profiles.w.model"),
            (
                "[profiles.\"bad name\"]\nkind = \"openai\"\n",
                "profiles.bad name",
            ),
            ("active_profile = 3\n", "active_profile"),
            ("profiles = 3\n", "profiles"),
        ];
        for (text, field) in cases {
            let error = parse(text).unwrap_err();
            assert_eq!(error.code(), "config.invalid_value", "{text}");
            let message = error.message_ru();
            assert!(message.contains(&format!("«{field}»")), "{message}");
            assert!(!message.contains("sk-secret"), "{message}");
        }
    }

    #[test]
    fn syntax_errors_give_the_position_but_not_the_line() {
        let error = parse("active_profile = \"openai\"\nmodel = sk-unquoted-secret\n").unwrap_err();
        let ConfigError::Syntax { line, .. } = &error else {
            panic!("expected a syntax error, got {error:?}");
        };
        assert_eq!(*line, Some(2));
        assert!(error.message_ru().contains("строка 2"));
        assert!(!error.message_ru().contains("sk-unquoted-secret"));
    }

    #[test]
    fn a_byte_order_mark_is_accepted() {
        let config = parse("\u{feff}active_profile = \"ollama\"\n").unwrap();
        assert_eq!(config.active_profile, Some(name("ollama")));
    }

    #[test]
    fn profile_names_list_builtins_and_file_profiles() {
        let config = parse("[profiles.work]\nkind = \"custom\"\n[profiles.openai]\n").unwrap();
        let names: Vec<String> = config
            .profile_names()
            .iter()
            .map(|name| name.to_string())
            .collect();
        assert_eq!(
            names,
            [
                "gigachat",
                "yandex",
                "ollama",
                "lmstudio",
                "llamacpp",
                "openai",
                "openrouter",
                "work"
            ]
        );
        assert!(config.has_profile(&name("work")));
        assert!(config.has_profile(&name("ollama")));
        assert!(!config.has_profile(&name("custom")));
    }

    const FOLDER: &str = "b1gaaaaaaaaaaaaaaaaa";

    fn settings_of(text: &str) -> Result<ProviderSettings, ConfigError> {
        resolve_provider(&parse(text)?, &ProviderOverrides::default()).map(Option::unwrap)
    }

    #[test]
    fn issue_15_a_yandex_profile_needs_its_folder_and_says_where_to_find_it() {
        let error = settings_of("active_profile = \"yandex\"\n").unwrap_err();
        assert!(matches!(
            error,
            ConfigError::IncompleteProfile {
                field: ProfileField::FolderId,
                ..
            }
        ));
        let message = error.message_ru();
        assert!(message.contains("«folder_id»"), "{message}");
        assert!(message.contains("console.yandex.cloud"), "{message}");
        assert_eq!(
            error.next_step(),
            Some(zayavka_core::NextStep::ConfigureProvider)
        );
    }

    #[test]
    fn issue_15_yandex_defaults_for_chat_completions_and_responses() {
        let text =
            format!("active_profile = \"yandex\"\n[profiles.yandex]\nfolder_id = \"{FOLDER}\"\n");
        let settings = settings_of(&text).unwrap();
        assert_eq!(settings.kind, ProviderKind::Yandex);
        assert_eq!(
            settings.base_url.as_str(),
            "https://ai.api.cloud.yandex.net/v1"
        );
        assert_eq!(settings.model, format!("gpt://{FOLDER}/yandexgpt/latest"));
        assert_eq!(settings.protocol, Protocol::ChatCompletions);
        assert_eq!(
            settings.access,
            ServiceAccess::Yandex {
                folder_id: crate::config::FolderId::parse(FOLDER).unwrap(),
                auth_scheme: crate::config::YandexAuth::ApiKey,
            }
        );
        assert!(settings.needs_api_key);
        let pricing = settings.pricing.unwrap();
        assert_eq!(pricing.currency.as_deref(), Some("RUB"));
        assert!(pricing.defaults_as_of.is_some());

        let settings = settings_of(&format!(
            "{text}protocol = \"responses\"\nauth_scheme = \"iam_token\"\n"
        ))
        .unwrap();
        assert_eq!(settings.protocol, Protocol::Responses);
        assert_eq!(
            settings.model,
            format!("gpt://{FOLDER}/aliceai-llm-flash/latest")
        );
        assert!(matches!(
            settings.access,
            ServiceAccess::Yandex {
                auth_scheme: crate::config::YandexAuth::IamToken,
                ..
            }
        ));
        // No default price is claimed for a model the defaults were not read for.
        assert_eq!(settings.pricing, None);
    }

    #[test]
    fn issue_15_a_yandex_model_is_expanded_and_its_folder_checked() {
        let text =
            format!("active_profile = \"yandex\"\n[profiles.yandex]\nfolder_id = \"{FOLDER}\"\n");
        let settings = settings_of(&format!("{text}model = \"yandexgpt-lite/latest\"\n")).unwrap();
        assert_eq!(
            settings.model,
            format!("gpt://{FOLDER}/yandexgpt-lite/latest")
        );
        assert_eq!(settings.pricing, None);
        let overrides = ProviderOverrides {
            model: Some("yandexgpt/rc".to_owned()),
            ..ProviderOverrides::default()
        };
        let settings = resolve_provider(&parse(&text).unwrap(), &overrides)
            .unwrap()
            .unwrap();
        assert_eq!(settings.model, format!("gpt://{FOLDER}/yandexgpt/rc"));
        let error = settings_of(&format!(
            "{text}model = \"gpt://b1gbbbbbbbbbbbbbbbbb/yandexgpt/latest\"\n"
        ))
        .unwrap_err();
        assert_eq!(error.code(), "config.model_folder_mismatch");
        assert!(error.message_ru().contains("«folder_id»"), "{error}");
    }

    #[test]
    fn issue_15_gigachat_defaults_by_scope() {
        let settings = settings_of("active_profile = \"gigachat\"\n").unwrap();
        assert_eq!(settings.kind, ProviderKind::GigaChat);
        assert_eq!(
            settings.base_url.as_str(),
            "https://gigachat.devices.sberbank.ru/api/v1"
        );
        assert_eq!(settings.model, "GigaChat-2");
        assert_eq!(settings.protocol, Protocol::ChatCompletions);
        let ServiceAccess::GigaChat { scope, auth_url } = &settings.access else {
            panic!("{:?}", settings.access);
        };
        assert_eq!(scope.code(), "GIGACHAT_API_PERS");
        assert_eq!(
            auth_url.as_str(),
            "https://ngw.devices.sberbank.ru:9443/api/v2/oauth"
        );
        assert!(settings.needs_api_key);
        // No official price for individuals was found, so the cost is unknown, not guessed.
        assert_eq!(settings.pricing, None);

        let settings = settings_of(
            "active_profile = \"gigachat\"\n[profiles.gigachat]\nscope = \"GIGACHAT_API_B2B\"\n\
             auth_url = \"http://127.0.0.1:4011/api/v2/oauth\"\n",
        )
        .unwrap();
        let ServiceAccess::GigaChat { scope, auth_url } = &settings.access else {
            panic!("{:?}", settings.access);
        };
        assert_eq!(scope.code(), "GIGACHAT_API_B2B");
        assert_eq!(auth_url.as_str(), "http://127.0.0.1:4011/api/v2/oauth");
    }

    #[test]
    fn issue_15_a_field_of_another_service_is_refused_when_used() {
        for (text, field) in [
            (
                format!(
                    "active_profile = \"openai\"\n[profiles.openai]\nfolder_id = \"{FOLDER}\"\n"
                ),
                "folder_id",
            ),
            (
                "active_profile = \"ollama\"\n[profiles.ollama]\nprotocol = \"responses\"\n"
                    .to_owned(),
                "protocol",
            ),
            (
                "active_profile = \"gigachat\"\n[profiles.gigachat]\nprotocol = \"responses\"\n"
                    .to_owned(),
                "protocol",
            ),
            (
                "active_profile = \"openai\"\n[profiles.openai]\nscope = \"GIGACHAT_API_PERS\"\n"
                    .to_owned(),
                "scope",
            ),
        ] {
            let error = settings_of(&text).unwrap_err();
            assert_eq!(error.code(), "config.field_not_for_kind", "{text}");
            assert!(
                error.message_ru().contains(&format!("«{field}»")),
                "{error}"
            );
        }
        // The Responses API is a protocol, not a Yandex feature.
        for kind in ["openai", "custom"] {
            let text = format!(
                "active_profile = \"mine\"\n[profiles.mine]\nkind = \"{kind}\"\n\
                 base_url = \"http://127.0.0.1:4010/v1\"\nmodel = \"m\"\nprotocol = \"responses\"\n"
            );
            assert_eq!(settings_of(&text).unwrap().protocol, Protocol::Responses);
        }
    }

    #[test]
    fn issue_15_new_fields_with_wrong_values_are_refused_in_russian() {
        for (text, field, expected) in [
            (
                "[profiles.yandex]\nfolder_id = \"my-folder\"\n",
                "profiles.yandex.folder_id",
                "идентификатор каталога Yandex Cloud",
            ),
            (
                "[profiles.yandex]\nprotocol = \"grpc\"\n",
                "profiles.yandex.protocol",
                "chat_completions или responses",
            ),
            (
                "[profiles.yandex]\nauth_scheme = \"bearer\"\n",
                "profiles.yandex.auth_scheme",
                "api_key",
            ),
            (
                "[profiles.gigachat]\nscope = \"PERS\"\n",
                "profiles.gigachat.scope",
                "GIGACHAT_API_PERS",
            ),
            (
                "[profiles.gigachat]\nauth_url = \"https://u:p@ngw.example/oauth\"\n",
                "profiles.gigachat.auth_url",
                "без имени пользователя",
            ),
        ] {
            let error = parse(text).unwrap_err();
            assert_eq!(error.code(), "config.invalid_value", "{text}");
            let message = error.message_ru();
            assert!(message.contains(&format!("«{field}»")), "{message}");
            assert!(message.contains(expected), "{message}");
        }
    }

    #[test]
    fn issue_15_prices_carry_the_currency_and_the_resident_s_own_are_not_marked() {
        let settings = settings_of(
            "active_profile = \"gigachat\"\n[profiles.gigachat]\n\
             price_input_per_million = 150\nprice_output_per_million = 150\n",
        )
        .unwrap();
        assert_eq!(
            settings.pricing,
            Some(Pricing {
                input_per_million: 150.0,
                output_per_million: 150.0,
                currency: Some("RUB".to_owned()),
                defaults_as_of: None,
            })
        );
        let settings = settings_of("active_profile = \"openai\"\n").unwrap();
        assert_eq!(settings.pricing, None);
    }
}
