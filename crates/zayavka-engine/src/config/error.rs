//! Why the configuration could not be read, changed or used: [`ConfigError`] with its stable codes
//! and Russian messages, and [`SettingSource`], which lets a message say where to fix a value.
//! Messages name the file and the field but never quote a value, because a value in the wrong
//! place may still be a secret.

use std::path::PathBuf;

use super::values::{ProfileField, ProfileName, ProviderKind, setting_patterns};
use super::{ENV_BASE_URL, ENV_MODEL};
use zayavka_codes::stable_codes;

/// Where a rejected setting came from, so the message can say where to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingSource {
    /// The configuration file at this path.
    File(PathBuf),
    /// An environment variable; the error's `field` names it.
    Environment,
    /// A command-line argument; the error's `field` names it.
    CommandLine,
}

/// Why the configuration could not be read, changed or used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The file exists but could not be read.
    #[error("{}", self.message_ru())]
    Read {
        /// The configuration file.
        path: PathBuf,
        /// The operating system's explanation.
        detail: String,
    },
    /// The file is not valid TOML.
    #[error("{}", self.message_ru())]
    Syntax {
        /// The configuration file.
        path: PathBuf,
        /// The line of the error, counting from 1.
        line: Option<usize>,
        /// The column of the error, counting from 1.
        column: Option<usize>,
        /// The parser's message, without the quoted line.
        detail: String,
    },
    /// The file has a field that looks like an API key.
    #[error("{}", self.message_ru())]
    SecretInConfig {
        /// The configuration file.
        path: PathBuf,
        /// The dotted field, e.g. `profiles.work.api_key`.
        field: String,
        /// The profile the field sits in, for the hint.
        profile: Option<ProfileName>,
    },
    /// `config set` was asked to write a field that looks like an API key.
    #[error("{}", self.message_ru())]
    SecretInSetting {
        /// The key as given.
        key: String,
        /// The profile the key names, for the hint.
        profile: Option<ProfileName>,
    },
    /// The file has a field Zayavka does not know.
    #[error("{}", self.message_ru())]
    UnknownField {
        /// The configuration file.
        path: PathBuf,
        /// The dotted field.
        field: String,
        /// The fields allowed at that place, comma-separated.
        allowed: String,
    },
    /// A value is of the wrong type or out of range.
    #[error("{}", self.message_ru())]
    InvalidValue {
        /// Where the value came from.
        origin: SettingSource,
        /// The dotted field, variable or argument.
        field: String,
        /// What a valid value looks like, in Russian.
        expected: &'static str,
    },
    /// `config set` was given a key it does not know.
    #[error("{}", self.message_ru())]
    UnknownSettingKey {
        /// The key as given.
        key: String,
    },
    /// A profile was named that is neither built in nor in the file.
    #[error("{}", self.message_ru())]
    UnknownProfile {
        /// The name asked for.
        name: ProfileName,
        /// The profiles that exist.
        known: Vec<ProfileName>,
    },
    /// A profile lacks a field that has no preset.
    #[error("{}", self.message_ru())]
    IncompleteProfile {
        /// The profile.
        profile: ProfileName,
        /// The missing field.
        field: ProfileField,
    },
    /// A profile sets a field its kind does not use (`folder_id` on `openai`).
    #[error("{}", self.message_ru())]
    FieldNotForKind {
        /// The profile.
        profile: ProfileName,
        /// The field.
        field: ProfileField,
        /// The profile's kind.
        kind: ProviderKind,
    },
    /// A Yandex profile's model names another folder than its `folder_id`.
    #[error("{}", self.message_ru())]
    ModelFolderMismatch {
        /// The profile.
        profile: ProfileName,
    },
    /// The new file could not be written.
    #[error("{}", self.message_ru())]
    Write {
        /// The configuration file.
        path: PathBuf,
        /// The operating system's explanation.
        detail: String,
    },
}

stable_codes! {
    /// The stable code of a [`ConfigError`], under the `config.` prefix.
    pub enum ConfigErrorCode {
        /// `config.read`.
        Read => "config.read",
        /// `config.syntax`.
        Syntax => "config.syntax",
        /// `config.secret_in_config`.
        SecretInConfig => "config.secret_in_config",
        /// `config.secret_in_setting`.
        SecretInSetting => "config.secret_in_setting",
        /// `config.unknown_field`.
        UnknownField => "config.unknown_field",
        /// `config.invalid_value`.
        InvalidValue => "config.invalid_value",
        /// `config.unknown_setting_key`.
        UnknownSettingKey => "config.unknown_setting_key",
        /// `config.unknown_profile`.
        UnknownProfile => "config.unknown_profile",
        /// `config.incomplete_profile`.
        IncompleteProfile => "config.incomplete_profile",
        /// `config.field_not_for_kind`.
        FieldNotForKind => "config.field_not_for_kind",
        /// `config.model_folder_mismatch`.
        ModelFolderMismatch => "config.model_folder_mismatch",
        /// `config.write`.
        Write => "config.write",
    }
}

impl ConfigError {
    /// A stable machine-readable code for this error.
    pub fn code(&self) -> ConfigErrorCode {
        match self {
            ConfigError::Read { .. } => ConfigErrorCode::Read,
            ConfigError::Syntax { .. } => ConfigErrorCode::Syntax,
            ConfigError::SecretInConfig { .. } => ConfigErrorCode::SecretInConfig,
            ConfigError::SecretInSetting { .. } => ConfigErrorCode::SecretInSetting,
            ConfigError::UnknownField { .. } => ConfigErrorCode::UnknownField,
            ConfigError::InvalidValue { .. } => ConfigErrorCode::InvalidValue,
            ConfigError::UnknownSettingKey { .. } => ConfigErrorCode::UnknownSettingKey,
            ConfigError::UnknownProfile { .. } => ConfigErrorCode::UnknownProfile,
            ConfigError::IncompleteProfile { .. } => ConfigErrorCode::IncompleteProfile,
            ConfigError::FieldNotForKind { .. } => ConfigErrorCode::FieldNotForKind,
            ConfigError::ModelFolderMismatch { .. } => ConfigErrorCode::ModelFolderMismatch,
            ConfigError::Write { .. } => ConfigErrorCode::Write,
        }
    }

    /// What the resident can do about it; each front end words it (a command, a button).
    pub fn next_step(&self) -> Option<zayavka_core::NextStep> {
        use zayavka_core::NextStep;
        match self {
            ConfigError::SecretInConfig { .. } | ConfigError::SecretInSetting { .. } => {
                Some(NextStep::StoreApiKey)
            }
            ConfigError::InvalidValue { .. }
            | ConfigError::UnknownProfile { .. }
            | ConfigError::IncompleteProfile { .. }
            | ConfigError::FieldNotForKind { .. }
            | ConfigError::ModelFolderMismatch { .. } => Some(NextStep::ConfigureProvider),
            ConfigError::Read { .. }
            | ConfigError::Syntax { .. }
            | ConfigError::UnknownField { .. }
            | ConfigError::UnknownSettingKey { .. }
            | ConfigError::Write { .. } => None,
        }
    }

    /// A Russian message for the resident that says what to do. It never quotes a value and
    /// names no command: the front end adds its own wording of [`ConfigError::next_step`].
    pub fn message_ru(&self) -> String {
        match self {
            ConfigError::Read { path, detail } => format!(
                "Не удалось прочитать файл настроек «{}» ({detail}). Проверьте права доступа к файлу.",
                path.display()
            ),
            ConfigError::Syntax {
                path,
                line,
                column,
                detail,
            } => {
                let place = match (line, column) {
                    (Some(line), Some(column)) => format!(", строка {line}, позиция {column}"),
                    (Some(line), None) => format!(", строка {line}"),
                    _ => String::new(),
                };
                format!(
                    "Файл настроек «{}» не читается как TOML{place}: {detail}. Исправьте файл \
                     в текстовом редакторе или удалите его, чтобы начать с настроек по умолчанию.",
                    path.display()
                )
            }
            ConfigError::SecretInConfig {
                path,
                field,
                profile,
            } => format!(
                "В файле настроек «{}» есть поле «{field}», похожее на API-ключ. Ключи не хранятся \
                 в файле настроек: удалите это поле из файла, а ключ сохраните в хранилище ключей операционной \
                 системы{}.",
                path.display(),
                profile_note(profile.as_ref())
            ),
            ConfigError::SecretInSetting { key, profile } => format!(
                "Настройка «{key}» похожа на API-ключ, а ключи не хранятся в файле настроек. \
                 Сохраните ключ в хранилище ключей операционной системы{}.",
                profile_note(profile.as_ref())
            ),
            ConfigError::UnknownField {
                path,
                field,
                allowed,
            } => format!(
                "В файле настроек «{}» неизвестное поле «{field}». Исправьте опечатку или удалите \
                 поле; здесь допустимы: {allowed}.",
                path.display()
            ),
            ConfigError::InvalidValue {
                origin,
                field,
                expected,
            } => match origin {
                SettingSource::File(path) => format!(
                    "В файле настроек «{}» неверное значение поля «{field}»: ожидается {expected}. \
                     Исправьте его в настройках или в текстовом редакторе.",
                    path.display()
                ),
                SettingSource::Environment => format!(
                    "Неверное значение переменной окружения {field}: ожидается {expected}. Исправьте \
                     значение или удалите переменную."
                ),
                SettingSource::CommandLine => {
                    format!("Неверное значение для «{field}»: ожидается {expected}.")
                }
            },
            ConfigError::UnknownSettingKey { key } => format!(
                "Неизвестная настройка «{key}». Доступны: {}.",
                setting_patterns().join(", ")
            ),
            ConfigError::UnknownProfile { name, known } => format!(
                "Профиль «{name}» не найден. Выберите один из: {}, или создайте его в \
                 настройках, выбрав вид: gigachat, yandex, ollama, lmstudio, llamacpp, custom, \
                 openai или openrouter.",
                known
                    .iter()
                    .map(ProfileName::as_str)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            ConfigError::IncompleteProfile { profile, field } => {
                let environment_hint = match field {
                    ProfileField::BaseUrl => format!(" или переменной окружения {ENV_BASE_URL}"),
                    ProfileField::Model => format!(" или переменной окружения {ENV_MODEL}"),
                    ProfileField::FolderId => {
                        format!(". Ожидается {}", ProfileField::FolderId.expected())
                    }
                    _ => String::new(),
                };
                format!(
                    "В профиле «{profile}» не задано поле «{}», а готового значения для него нет. \
                     Задайте его в настройках профиля{environment_hint}.",
                    field.as_str()
                )
            }
            ConfigError::FieldNotForKind {
                profile,
                field,
                kind,
            } => format!(
                "В профиле «{profile}» задано поле «{}», а сервис {} его не использует. Удалите \
                 это поле из профиля или выберите другой вид сервиса.",
                field.as_str(),
                kind.title()
            ),
            ConfigError::ModelFolderMismatch { profile } => format!(
                "В профиле «{profile}» модель указана в другом каталоге Yandex Cloud, чем \
                 «folder_id». Укажите модель коротким именем, например yandexgpt/latest, или \
                 исправьте каталог в её адресе gpt://…"
            ),
            ConfigError::Write { path, detail } => format!(
                "Не удалось записать файл настроек «{}»: {detail}. Прежний файл не изменён. \
                 Освободите место на диске или дайте права на запись в папку настроек и \
                 повторите.",
                path.display()
            ),
        }
    }
}

impl From<super::values::InvalidValue> for ConfigError {
    fn from(error: super::values::InvalidValue) -> ConfigError {
        ConfigError::InvalidValue {
            origin: SettingSource::CommandLine,
            field: error.field,
            expected: error.expected,
        }
    }
}

fn profile_note(profile: Option<&ProfileName>) -> String {
    match profile {
        Some(name) => format!(" для профиля «{name}»"),
        None => String::new(),
    }
}

impl crate::error::EngineError for ConfigError {
    fn kind(&self) -> crate::error::ErrorKind {
        crate::error::ErrorKind::Config
    }

    fn message_ru(&self) -> String {
        ConfigError::message_ru(self)
    }

    fn next_step(&self) -> Option<zayavka_core::NextStep> {
        ConfigError::next_step(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::test_support::{name, path};

    #[test]
    fn every_error_has_a_distinct_code() {
        let errors = [
            ConfigError::Read {
                path: path(),
                detail: String::new(),
            },
            ConfigError::Syntax {
                path: path(),
                line: None,
                column: None,
                detail: String::new(),
            },
            ConfigError::SecretInConfig {
                path: path(),
                field: String::new(),
                profile: None,
            },
            ConfigError::SecretInSetting {
                key: String::new(),
                profile: None,
            },
            ConfigError::UnknownField {
                path: path(),
                field: String::new(),
                allowed: String::new(),
            },
            ConfigError::InvalidValue {
                origin: SettingSource::Environment,
                field: String::new(),
                expected: "",
            },
            ConfigError::UnknownSettingKey { key: String::new() },
            ConfigError::UnknownProfile {
                name: name("x"),
                known: Vec::new(),
            },
            ConfigError::IncompleteProfile {
                profile: name("x"),
                field: ProfileField::Model,
            },
            ConfigError::FieldNotForKind {
                profile: name("x"),
                field: ProfileField::FolderId,
                kind: ProviderKind::OpenAi,
            },
            ConfigError::ModelFolderMismatch { profile: name("x") },
            ConfigError::Write {
                path: path(),
                detail: String::new(),
            },
        ];
        let mut codes: Vec<&str> = errors.iter().map(|error| error.code().code()).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), errors.len());
        for error in &errors {
            assert!(error.code().code().starts_with("config."));
            assert_eq!(error.to_string(), error.message_ru());
        }
    }
}
