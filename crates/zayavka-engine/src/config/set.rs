//! `zayavka config set`: parsing a dotted [`SettingKey`] and [`set_value`], which checks one value,
//! edits it into the TOML document while keeping the resident's comments and ordering, re-checks
//! the whole result and replaces the file atomically.

use std::fmt;
use std::path::Path;

use toml_edit::{DocumentMut, Item, TableLike};

use super::error::{ConfigError, SettingSource};
use super::file::{Config, FieldValue};
use super::load::{
    config_from_document, looks_like_secret_field, parse_document, profile_of, read_config_text,
};
use super::values::{EXPECTED_PROFILE_NAME, ProfileField, ProfileName, setting_patterns};

/// A key that `zayavka config set` accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingKey {
    /// `active_profile`.
    ActiveProfile,
    /// `profiles.NAME.FIELD`.
    Profile {
        /// The profile's name.
        name: ProfileName,
        /// The field within the profile.
        field: ProfileField,
    },
}

impl SettingKey {
    /// Parses a dotted key such as `profiles.work.model`.
    pub fn parse(key: &str) -> Result<SettingKey, ConfigError> {
        let key = key.trim();
        if key == "active_profile" {
            return Ok(SettingKey::ActiveProfile);
        }
        let parts: Vec<&str> = key.split('.').collect();
        // A secret-looking last segment gets the secret message even in an otherwise odd key.
        if parts
            .last()
            .is_some_and(|last| looks_like_secret_field(last))
        {
            return Err(ConfigError::SecretInSetting {
                key: key.to_owned(),
                profile: profile_of(key),
            });
        }
        let unknown = || ConfigError::UnknownSettingKey {
            key: key.to_owned(),
        };
        match parts.as_slice() {
            ["profiles", name, field] => {
                let name = ProfileName::check(name).ok_or_else(|| ConfigError::InvalidValue {
                    origin: SettingSource::CommandLine,
                    field: key.to_owned(),
                    expected: EXPECTED_PROFILE_NAME,
                })?;
                let field = ProfileField::parse(field).ok_or_else(unknown)?;
                Ok(SettingKey::Profile { name, field })
            }
            _ => Err(unknown()),
        }
    }

    /// Every settable key, with `NAME` standing for a profile name.
    pub fn all_patterns() -> Vec<String> {
        setting_patterns()
    }
}

impl fmt::Display for SettingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingKey::ActiveProfile => f.write_str("active_profile"),
            SettingKey::Profile { name, field } => {
                write!(f, "profiles.{name}.{}", field.as_str())
            }
        }
    }
}

/// Sets one value in the configuration file at `path` and returns the new configuration.
///
/// The value is checked before anything is written; an empty value removes the setting, so the
/// preset applies again. The existing file must itself be valid, and its comments, ordering and
/// other settings are preserved. The new file replaces the old one atomically (a temporary file in
/// the same folder, flushed, then renamed), so a crash leaves either the old or the new file.
pub fn set_value(path: &Path, key: &str, value: &str) -> Result<Config, ConfigError> {
    let key = SettingKey::parse(key)?;
    let text = read_config_text(path)?.unwrap_or_default();
    let mut document = parse_document(&text, path)?;
    let current = config_from_document(&document, path)?;

    let value = value.trim();
    let invalid = |expected: &'static str| ConfigError::InvalidValue {
        origin: SettingSource::CommandLine,
        field: key.to_string(),
        expected,
    };
    match &key {
        SettingKey::ActiveProfile if value.is_empty() => {
            document.as_table_mut().remove("active_profile");
        }
        SettingKey::ActiveProfile => {
            let name = ProfileName::check(value).ok_or_else(|| invalid(EXPECTED_PROFILE_NAME))?;
            // Pointing at a profile that does not exist would only fail later, far from the typo.
            if !current.has_profile(&name) {
                return Err(ConfigError::UnknownProfile {
                    name,
                    known: current.profile_names(),
                });
            }
            replace_value(
                document.as_table_mut(),
                "active_profile",
                name.as_str().into(),
            );
        }
        SettingKey::Profile { name, field } if value.is_empty() => {
            if let Some(table) = profile_table_mut(&mut document, name, false) {
                table.remove(field.as_str());
            }
        }
        SettingKey::Profile { name, field } => {
            let checked =
                FieldValue::from_text(*field, value).ok_or_else(|| invalid(field.expected()))?;
            if let Some(table) = profile_table_mut(&mut document, name, true) {
                replace_value(table, field.as_str(), checked.to_toml());
            }
        }
    }

    let new_text = document.to_string();
    // The edited document is checked as a whole before it replaces the file.
    let config = Config::parse(&new_text, path)?;
    write_atomically(path, new_text.as_bytes())?;
    Ok(config)
}

fn profile_table_mut<'d>(
    document: &'d mut DocumentMut,
    name: &ProfileName,
    create: bool,
) -> Option<&'d mut dyn TableLike> {
    let root = document.as_table_mut();
    if !root.contains_key("profiles") {
        if !create {
            return None;
        }
        // An implicit parent keeps the file to `[profiles.NAME]` headers, with no empty
        // `[profiles]` table above them.
        let mut profiles = toml_edit::Table::new();
        profiles.set_implicit(true);
        root.insert("profiles", Item::Table(profiles));
    }
    let profiles = root.get_mut("profiles")?.as_table_like_mut()?;
    if !profiles.contains_key(name.as_str()) {
        if !create {
            return None;
        }
        profiles.insert(name.as_str(), Item::Table(toml_edit::Table::new()));
    }
    profiles.get_mut(name.as_str())?.as_table_like_mut()
}

/// Sets `key` to `value`, keeping the comments around an existing entry: `insert` would replace the
/// key together with the comment lines above it.
fn replace_value(table: &mut dyn TableLike, key: &str, mut value: toml_edit::Value) {
    match table.get_mut(key) {
        Some(Item::Value(existing)) => {
            *value.decor_mut() = existing.decor().clone();
            *existing = value;
        }
        _ => {
            table.insert(key, Item::Value(value));
        }
    }
}

fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), ConfigError> {
    let write_error = |error: std::io::Error| ConfigError::Write {
        path: path.to_path_buf(),
        detail: crate::paths::io_error_ru(&error),
    };
    if let Some(dir) = path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(write_error)?;
    }
    crate::paths::replace_file(path, contents).map_err(write_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::test_support::name;
    use crate::config::{ConfigErrorCode, ProviderKind, ProviderOverrides, resolve_provider};
    use std::path::PathBuf;

    fn config_file() -> (tempfile::TempDir, PathBuf) {
        let home = tempfile::tempdir().unwrap();
        let file = home.path().join("config.toml");
        (home, file)
    }

    #[test]
    fn set_creates_the_file_with_dotted_keys() {
        let (_home, file) = config_file();
        set_value(&file, "profiles.mine.kind", "custom").unwrap();
        set_value(&file, "profiles.mine.base_url", "http://10.0.0.5:8000/v1/").unwrap();
        set_value(&file, "profiles.mine.model", "local-llm").unwrap();
        set_value(&file, "profiles.mine.needs_api_key", "true").unwrap();
        set_value(&file, "profiles.mine.price_input_per_million", "0.5").unwrap();
        set_value(&file, "profiles.mine.price_output_per_million", "2").unwrap();
        set_value(&file, "profiles.mine.timeout_secs", "120").unwrap();
        let config = set_value(&file, "active_profile", "mine").unwrap();

        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(
            text,
            "active_profile = \"mine\"\n[profiles.mine]\nkind = \"custom\"\n\
             base_url = \"http://10.0.0.5:8000/v1\"\nmodel = \"local-llm\"\n\
             needs_api_key = true\nprice_input_per_million = 0.5\n\
             price_output_per_million = 2.0\ntimeout_secs = 120\n"
        );
        assert_eq!(Config::load(&file).unwrap(), config);
        let settings = resolve_provider(&config, &ProviderOverrides::default())
            .unwrap()
            .unwrap();
        assert_eq!(settings.base_url.as_str(), "http://10.0.0.5:8000/v1");
        assert_eq!(settings.timeout_secs, Some(120));
    }

    #[test]
    fn set_preserves_comments_and_other_settings() {
        let (_home, file) = config_file();
        let original = "# Мои настройки.\nactive_profile = \"openai\" # рабочий\n\n\
                        [profiles.openai]\n# Модель подешевле.\nmodel = \"gpt-4o-mini\"\n";
        std::fs::write(&file, original).unwrap();
        set_value(&file, "profiles.openai.model", "gpt-4.1-mini").unwrap();
        set_value(&file, "profiles.ollama.model", "llama3.1:8b").unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.starts_with("# Мои настройки.\nactive_profile = \"openai\" # рабочий\n"));
        assert!(
            text.contains("# Модель подешевле.\nmodel = \"gpt-4.1-mini\"\n"),
            "{text}"
        );
        assert!(text.contains("[profiles.ollama]\nmodel = \"llama3.1:8b\"\n"));
        // A comment after a replaced value stays too.
        set_value(&file, "active_profile", "ollama").unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            text.contains("active_profile = \"ollama\" # рабочий\n"),
            "{text}"
        );
    }

    #[test]
    fn set_with_an_empty_value_removes_the_setting() {
        let (_home, file) = config_file();
        set_value(&file, "profiles.openai.model", "gpt-4.1").unwrap();
        set_value(&file, "active_profile", "openai").unwrap();
        let config = set_value(&file, "profiles.openai.model", "").unwrap();
        assert_eq!(config.profiles[&name("openai")].model, None);
        let config = set_value(&file, "active_profile", "").unwrap();
        assert_eq!(config.active_profile, None);
        // Removing what is not there is not an error.
        set_value(&file, "profiles.nowhere.model", "").unwrap();
    }

    #[test]
    fn set_refuses_invalid_values_without_touching_the_file() {
        let (_home, file) = config_file();
        set_value(&file, "profiles.openai.model", "gpt-4.1").unwrap();
        let before = std::fs::read(&file).unwrap();
        let cases = [
            ("profiles.openai.base_url", "not a url"),
            ("profiles.openai.base_url", "ftp://example.com/v1"),
            ("profiles.openai.kind", "anthropic"),
            ("profiles.openai.schema_mode", "strict"),
            ("profiles.openai.needs_api_key", "yes"),
            ("profiles.openai.attempts", "100"),
            ("profiles.openai.price_output_per_million", "NaN"),
            ("profiles.bad.name.model", "x"),
        ];
        for (key, value) in cases {
            let error = set_value(&file, key, value).unwrap_err();
            assert!(
                matches!(
                    error.code(),
                    ConfigErrorCode::InvalidValue | ConfigErrorCode::UnknownSettingKey
                ),
                "{key}: {error}"
            );
        }
        assert_eq!(std::fs::read(&file).unwrap(), before);
        // No temporary file is left behind.
        let leftovers: Vec<_> = std::fs::read_dir(file.parent().unwrap())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(leftovers, [std::ffi::OsString::from("config.toml")]);
    }

    #[test]
    fn set_refuses_an_unknown_active_profile() {
        let (_home, file) = config_file();
        let error = set_value(&file, "active_profile", "wrok").unwrap_err();
        assert_eq!(error.code(), "config.unknown_profile");
        assert!(!file.exists());
        set_value(&file, "active_profile", "lmstudio").unwrap();
    }

    #[test]
    fn set_refuses_key_like_settings_without_echoing_the_value() {
        let (_home, file) = config_file();
        for key in [
            "profiles.openai.api_key",
            "profiles.openai.token",
            "api_key",
            "authorization",
        ] {
            let error = set_value(&file, key, "sk-fake-0123456789").unwrap_err();
            assert_eq!(error.code(), "config.secret_in_setting", "{key}");
            assert!(error.message_ru().contains("хранилище ключей"));
            assert_eq!(error.next_step(), Some(zayavka_core::NextStep::StoreApiKey));
            assert!(!error.message_ru().contains("sk-fake"));
        }
        let error = set_value(&file, "profiles.openai.api_key", "x").unwrap_err();
        assert!(error.message_ru().contains("для профиля «openai»"));
        assert!(!file.exists());
    }

    #[test]
    fn set_refuses_unknown_keys_listing_the_known_ones() {
        let (_home, file) = config_file();
        let error = set_value(&file, "profiles.openai.temperature", "0.2").unwrap_err();
        assert_eq!(error.code(), "config.unknown_setting_key");
        assert!(error.message_ru().contains("profiles.NAME.model"));
    }

    #[test]
    fn set_refuses_to_edit_an_invalid_file() {
        let (_home, file) = config_file();
        std::fs::write(&file, "[profiles.openai]\napi_key = \"sk-fake\"\n").unwrap();
        let error = set_value(&file, "profiles.openai.model", "gpt-4.1").unwrap_err();
        assert_eq!(error.code(), "config.secret_in_config");
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "[profiles.openai]\napi_key = \"sk-fake\"\n"
        );
    }

    #[test]
    fn set_handles_inline_profile_tables() {
        let (_home, file) = config_file();
        std::fs::write(&file, "profiles = { work = { kind = \"openai\" } }\n").unwrap();
        let config = set_value(&file, "profiles.work.model", "gpt-4.1").unwrap();
        assert_eq!(
            config.profiles[&name("work")].model.as_deref(),
            Some("gpt-4.1")
        );
        let config = set_value(&file, "profiles.other.kind", "ollama").unwrap();
        assert_eq!(
            config.profiles[&name("other")].kind,
            Some(ProviderKind::Ollama)
        );
    }

    #[cfg(unix)]
    #[test]
    fn set_keeps_the_file_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let (_home, file) = config_file();
        std::fs::write(&file, "").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
        set_value(&file, "profiles.openai.model", "gpt-4.1").unwrap();
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }

    #[test]
    fn a_write_failure_is_reported_and_leaves_no_file() {
        let (home, _) = config_file();
        let blocker = home.path().join("not-a-folder");
        std::fs::write(&blocker, "").unwrap();
        let error =
            set_value(&blocker.join("config.toml"), "profiles.openai.model", "x").unwrap_err();
        // Reading through a file as if it were a folder fails before writing does.
        assert!(
            matches!(error.code(), ConfigErrorCode::Read | ConfigErrorCode::Write),
            "{error}"
        );
    }
}
