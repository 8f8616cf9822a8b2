//! Provider profiles: which OpenAI-compatible server to call, with which model and how.
//!
//! The configuration file is TOML:
//!
//! ```toml
//! active_profile = "work"
//!
//! [profiles.work]
//! kind = "openrouter"              # openai | openrouter | ollama | lmstudio | llamacpp | custom
//! model = "openai/gpt-4o-mini"     # every field but `kind` falls back to the kind's preset
//! schema_mode = "json_schema"      # json_schema | json_object
//! needs_api_key = true
//! price_input_per_million = 0.15
//! price_output_per_million = 0.6
//! currency = "USD"
//! timeout_secs = 60
//! attempts = 3
//! ```
//!
//! Decisions this module makes:
//!
//! - **A fresh install has no file and no active profile.** [`Config::load`] then returns
//!   [`Config::default`], and [`resolve_provider`] returns `Ok(None)`: no provider is configured, so
//!   the application offers to draft without a model. Nothing is chosen for the resident, because
//!   every preset either sends the description to a cloud service or needs a local server.
//! - **The built-in kinds are also built-in profiles.** `active_profile = "ollama"` works without a
//!   `[profiles.ollama]` table, and such a table only overrides the preset's fields (its `kind` may be
//!   left out). Any other profile name needs `kind`; `custom` has no preset URL or model.
//! - **The file never holds a secret.** A field that looks like a key (`api_key`, `key`, `token`,
//!   `authorization`, …) anywhere in the file is refused on load, and `config set` refuses to write
//!   one; the key lives in the OS keyring (`zayavka key set`) or in `ZAYAVKA_API_KEY`.
//! - **Unknown fields are refused** rather than ignored, so a typo never silently falls back to a
//!   default. Error messages name the file and the dotted field, never the value, because a value
//!   in the wrong place may still be a secret.
//! - **Completeness is checked when a profile is used**, not when the file is loaded, so
//!   `zayavka config set` can build a `custom` profile one field at a time.
//! - **Environment and command-line overrides** (`ZAYAVKA_BASE_URL`, `ZAYAVKA_MODEL`,
//!   `ZAYAVKA_SCHEMA_MODE`, `ZAYAVKA_TIMEOUT_SECS`, `ZAYAVKA_ATTEMPTS`) apply on top of the selected
//!   profile. With no profile selected, a base URL override alone defines an ad-hoc `custom`
//!   profile named `default`, which is how servers and CI run without a configuration file.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use toml_edit::{DocumentMut, Item, TableLike};

/// Overrides the selected profile's `base_url`.
pub const ENV_BASE_URL: &str = "ZAYAVKA_BASE_URL";
/// Overrides the selected profile's `model`.
pub const ENV_MODEL: &str = "ZAYAVKA_MODEL";
/// Overrides the selected profile's `schema_mode`.
pub const ENV_SCHEMA_MODE: &str = "ZAYAVKA_SCHEMA_MODE";
/// Overrides the selected profile's `timeout_secs`.
pub const ENV_TIMEOUT_SECS: &str = "ZAYAVKA_TIMEOUT_SECS";
/// Overrides the selected profile's `attempts`.
pub const ENV_ATTEMPTS: &str = "ZAYAVKA_ATTEMPTS";

/// Every environment variable [`ProviderOverrides::from_env`] reads.
pub const OVERRIDE_VARIABLES: [&str; 5] = [
    ENV_BASE_URL,
    ENV_MODEL,
    ENV_SCHEMA_MODE,
    ENV_TIMEOUT_SECS,
    ENV_ATTEMPTS,
];

/// The largest per-attempt timeout a profile may ask for, in seconds.
pub const MAX_TIMEOUT_SECS: u64 = 3600;
/// The largest number of attempts a profile may ask for.
pub const MAX_ATTEMPTS: u32 = 10;
/// The longest model name accepted.
pub const MAX_MODEL_CHARS: usize = 200;
/// The longest profile name accepted.
pub const MAX_PROFILE_NAME_CHARS: usize = 64;

// ---------------------------------------------------------------------------------------------
// Value types.
// ---------------------------------------------------------------------------------------------

/// A profile name: 1–64 ASCII letters, digits, `-` or `_`.
///
/// The name is a TOML table key, the keyring user name and the middle part of a dotted `config set`
/// key, so dots, spaces and anything that would need quoting are excluded.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProfileName(String);

impl ProfileName {
    /// The profile used for the API key when no profile is active, and the name of the ad-hoc
    /// profile defined by overrides alone.
    pub const DEFAULT: &'static str = "default";

    /// Checks `name` and wraps it.
    pub fn parse(name: &str) -> Result<ProfileName, ConfigError> {
        ProfileName::check(name).ok_or_else(|| ConfigError::InvalidValue {
            origin: SettingSource::CommandLine,
            field: "profile".to_owned(),
            expected: EXPECTED_PROFILE_NAME,
        })
    }

    fn check(name: &str) -> Option<ProfileName> {
        let valid = !name.is_empty()
            && name.chars().count() <= MAX_PROFILE_NAME_CHARS
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        valid.then(|| ProfileName(name.to_owned()))
    }

    /// The name `default`.
    pub fn default_profile() -> ProfileName {
        ProfileName(ProfileName::DEFAULT.to_owned())
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ProfileName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for ProfileName {
    type Err = ConfigError;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        ProfileName::parse(name)
    }
}

impl serde::Serialize for ProfileName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

/// Which kind of OpenAI-compatible server a profile talks to; each kind but `custom` has a preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProviderKind {
    /// The OpenAI API.
    OpenAi,
    /// OpenRouter, a cloud router in front of many model providers.
    OpenRouter,
    /// A local Ollama server.
    Ollama,
    /// A local LM Studio server.
    LmStudio,
    /// A local llama.cpp server (`llama-server`).
    LlamaCpp,
    /// Any other OpenAI-compatible server; `base_url` and `model` must be given.
    Custom,
}

impl ProviderKind {
    /// Every kind, in the order the settings screen lists them.
    pub const ALL: [ProviderKind; 6] = [
        ProviderKind::OpenAi,
        ProviderKind::OpenRouter,
        ProviderKind::Ollama,
        ProviderKind::LmStudio,
        ProviderKind::LlamaCpp,
        ProviderKind::Custom,
    ];

    /// The spelling used in the configuration file.
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "openai",
            ProviderKind::OpenRouter => "openrouter",
            ProviderKind::Ollama => "ollama",
            ProviderKind::LmStudio => "lmstudio",
            ProviderKind::LlamaCpp => "llamacpp",
            ProviderKind::Custom => "custom",
        }
    }

    /// Reads the configuration file's spelling.
    pub fn parse(text: &str) -> Option<ProviderKind> {
        ProviderKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == text)
    }

    /// The product's own name, for people.
    pub fn title(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "OpenAI",
            ProviderKind::OpenRouter => "OpenRouter",
            ProviderKind::Ollama => "Ollama",
            ProviderKind::LmStudio => "LM Studio",
            ProviderKind::LlamaCpp => "llama.cpp",
            ProviderKind::Custom => "Свой сервер",
        }
    }

    /// One Russian line about privacy and cost, for the settings screen.
    pub fn summary_ru(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => {
                "Облачный сервис: описание проблемы уходит на серверы OpenAI, оплата за токены, нужен API-ключ."
            }
            ProviderKind::OpenRouter => {
                "Облачный посредник: описание уходит OpenRouter и владельцу выбранной модели, оплата за токены, нужен API-ключ."
            }
            ProviderKind::Ollama => {
                "Локальная модель в Ollama: данные не покидают компьютер, бесплатно, ключ не нужен."
            }
            ProviderKind::LmStudio => {
                "Локальная модель в LM Studio: данные не покидают компьютер, бесплатно, ключ не нужен."
            }
            ProviderKind::LlamaCpp => {
                "Локальная модель на сервере llama.cpp: данные не покидают компьютер, бесплатно, ключ не нужен."
            }
            ProviderKind::Custom => {
                "Свой сервер, совместимый с OpenAI: куда уходят данные и сколько это стоит, зависит от сервера."
            }
        }
    }

    /// The defaults a profile of this kind starts from.
    pub fn preset(self) -> ProviderPreset {
        let (base_url, model, schema_mode, needs_api_key) = match self {
            ProviderKind::OpenAi => (
                Some("https://api.openai.com/v1"),
                Some("gpt-4o-mini"),
                SchemaMode::JsonSchema,
                true,
            ),
            ProviderKind::OpenRouter => (
                Some("https://openrouter.ai/api/v1"),
                Some("openai/gpt-4o-mini"),
                SchemaMode::JsonSchema,
                true,
            ),
            ProviderKind::Ollama => (
                Some("http://127.0.0.1:11434/v1"),
                Some("qwen2.5:7b-instruct"),
                SchemaMode::JsonObject,
                false,
            ),
            // LM Studio enforces `json_schema` through its own grammar engine.
            ProviderKind::LmStudio => (
                Some("http://127.0.0.1:1234/v1"),
                Some("qwen2.5-7b-instruct"),
                SchemaMode::JsonSchema,
                false,
            ),
            // A single-model `llama-server` ignores the model name, so any name works there.
            ProviderKind::LlamaCpp => (
                Some("http://127.0.0.1:8080/v1"),
                Some("qwen2.5-7b-instruct"),
                SchemaMode::JsonObject,
                false,
            ),
            // An unknown server is only trusted with the mode every compatible server accepts.
            ProviderKind::Custom => (None, None, SchemaMode::JsonObject, false),
        };
        ProviderPreset {
            kind: self,
            base_url,
            model,
            schema_mode,
            needs_api_key,
        }
    }
}

impl fmt::Display for ProviderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ProviderKind {
    type Err = ConfigError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        ProviderKind::parse(text).ok_or_else(|| ConfigError::InvalidValue {
            origin: SettingSource::CommandLine,
            field: "kind".to_owned(),
            expected: ProfileField::Kind.expected(),
        })
    }
}

impl serde::Serialize for ProviderKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// The built-in defaults of one provider kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProviderPreset {
    /// The kind these defaults belong to.
    pub kind: ProviderKind,
    /// The default server address; `None` for `custom`.
    pub base_url: Option<&'static str>,
    /// The default model; `None` for `custom`.
    pub model: Option<&'static str>,
    /// How the response schema is enforced.
    pub schema_mode: SchemaMode,
    /// Whether the server wants a bearer token.
    pub needs_api_key: bool,
}

/// How the server is asked for JSON that follows the response schema; the core owns the type
/// because it decides what the prompt carries in each mode.
pub use zayavka_core::prompt::SchemaMode;

/// A server address that `/chat/completions` is appended to.
///
/// Only `http` and `https` are accepted, and a user name, password, query or fragment is refused:
/// URLs end up in logs and context records, and credentials or `?key=` parameters in them would leak
/// the very secret the keyring protects. A trailing slash is dropped so joining is uniform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseUrl(url::Url);

impl BaseUrl {
    /// Checks `text` and wraps it.
    pub fn parse(text: &str) -> Result<BaseUrl, ConfigError> {
        BaseUrl::check(text).ok_or_else(|| ConfigError::InvalidValue {
            origin: SettingSource::CommandLine,
            field: "base_url".to_owned(),
            expected: ProfileField::BaseUrl.expected(),
        })
    }

    fn check(text: &str) -> Option<BaseUrl> {
        let mut url = url::Url::parse(text.trim()).ok()?;
        let acceptable = matches!(url.scheme(), "http" | "https")
            && url.host_str().is_some_and(|host| !host.is_empty())
            && url.username().is_empty()
            && url.password().is_none()
            && url.query().is_none()
            && url.fragment().is_none();
        if !acceptable {
            return None;
        }
        let trimmed = url.path().trim_end_matches('/').to_owned();
        url.set_path(&trimmed);
        Some(BaseUrl(url))
    }

    /// The address without a trailing slash, e.g. `https://api.openai.com/v1`.
    pub fn as_str(&self) -> &str {
        self.0.as_str().trim_end_matches('/')
    }

    /// The parsed address.
    pub fn as_url(&self) -> &url::Url {
        &self.0
    }

    /// The host name or address, which is what a context record keeps about the server.
    pub fn host(&self) -> &str {
        self.0.host_str().unwrap_or_default()
    }

    /// Whether the server runs on this computer, so the resident's text does not leave it.
    pub fn is_loopback(&self) -> bool {
        match self.0.host() {
            Some(url::Host::Domain(domain)) => domain.eq_ignore_ascii_case("localhost"),
            Some(url::Host::Ipv4(address)) => address.is_loopback(),
            Some(url::Host::Ipv6(address)) => address.is_loopback(),
            None => false,
        }
    }
}

impl fmt::Display for BaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for BaseUrl {
    type Err = ConfigError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        BaseUrl::parse(text)
    }
}

impl serde::Serialize for BaseUrl {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Checks a model name given on the command line; usable as a clap value parser.
pub fn parse_model(text: &str) -> Result<String, ConfigError> {
    check_model(text).ok_or_else(|| ConfigError::InvalidValue {
        origin: SettingSource::CommandLine,
        field: "model".to_owned(),
        expected: ProfileField::Model.expected(),
    })
}

/// Checks a per-attempt timeout in seconds given on the command line; usable as a clap value
/// parser.
pub fn parse_timeout_secs(text: &str) -> Result<u64, ConfigError> {
    text.trim()
        .parse::<u64>()
        .ok()
        .and_then(check_timeout_secs)
        .ok_or_else(|| ConfigError::InvalidValue {
            origin: SettingSource::CommandLine,
            field: "timeout_secs".to_owned(),
            expected: ProfileField::TimeoutSecs.expected(),
        })
}

/// Checks a number of attempts given on the command line; usable as a clap value parser.
pub fn parse_attempts(text: &str) -> Result<u32, ConfigError> {
    text.trim()
        .parse::<u64>()
        .ok()
        .and_then(check_attempts)
        .ok_or_else(|| ConfigError::InvalidValue {
            origin: SettingSource::CommandLine,
            field: "attempts".to_owned(),
            expected: ProfileField::Attempts.expected(),
        })
}

fn check_model(text: &str) -> Option<String> {
    let model = text.trim();
    let valid = !model.is_empty()
        && model.chars().count() <= MAX_MODEL_CHARS
        && !model.chars().any(char::is_control);
    valid.then(|| model.to_owned())
}

fn check_timeout_secs(value: u64) -> Option<u64> {
    (1..=MAX_TIMEOUT_SECS).contains(&value).then_some(value)
}

fn check_attempts(value: u64) -> Option<u32> {
    u32::try_from(value)
        .ok()
        .filter(|attempts| (1..=MAX_ATTEMPTS).contains(attempts))
}

fn check_price(value: f64) -> Option<f64> {
    (value.is_finite() && value >= 0.0).then_some(value)
}

fn check_currency(text: &str) -> Option<String> {
    let currency = text.trim();
    let valid = currency.len() == 3 && currency.chars().all(|c| c.is_ascii_uppercase());
    valid.then(|| currency.to_owned())
}

// ---------------------------------------------------------------------------------------------
// The configuration as written in the file.
// ---------------------------------------------------------------------------------------------

/// One `[profiles.NAME]` table as written: every field is optional and falls back to the preset.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct ProfileConfig {
    /// The kind of server; may be left out when the profile is named after a kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<ProviderKind>,
    /// The server address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_url: Option<BaseUrl>,
    /// The model name the server knows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// How the response schema is enforced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema_mode: Option<SchemaMode>,
    /// Whether the server wants an API key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub needs_api_key: Option<bool>,
    /// The price of a million input tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price_input_per_million: Option<f64>,
    /// The price of a million output tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price_output_per_million: Option<f64>,
    /// The currency of both prices, e.g. `USD`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// The per-attempt timeout in seconds; `None` leaves the adapter's default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_secs: Option<u64>,
    /// How many attempts a call may make; `None` leaves the adapter's default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempts: Option<u32>,
}

/// The configuration file's content.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Config {
    /// The profile used when none is named; `None` on a fresh install.
    pub active_profile: Option<ProfileName>,
    /// The `[profiles.NAME]` tables.
    pub profiles: BTreeMap<ProfileName, ProfileConfig>,
}

/// The fields of a `[profiles.NAME]` table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfileField {
    /// `kind`.
    Kind,
    /// `base_url`.
    BaseUrl,
    /// `model`.
    Model,
    /// `schema_mode`.
    SchemaMode,
    /// `needs_api_key`.
    NeedsApiKey,
    /// `price_input_per_million`.
    PriceInputPerMillion,
    /// `price_output_per_million`.
    PriceOutputPerMillion,
    /// `currency`.
    Currency,
    /// `timeout_secs`.
    TimeoutSecs,
    /// `attempts`.
    Attempts,
}

impl ProfileField {
    /// Every field, in the order they are documented.
    pub const ALL: [ProfileField; 10] = [
        ProfileField::Kind,
        ProfileField::BaseUrl,
        ProfileField::Model,
        ProfileField::SchemaMode,
        ProfileField::NeedsApiKey,
        ProfileField::PriceInputPerMillion,
        ProfileField::PriceOutputPerMillion,
        ProfileField::Currency,
        ProfileField::TimeoutSecs,
        ProfileField::Attempts,
    ];

    /// The field's name in the file.
    pub fn as_str(self) -> &'static str {
        match self {
            ProfileField::Kind => "kind",
            ProfileField::BaseUrl => "base_url",
            ProfileField::Model => "model",
            ProfileField::SchemaMode => "schema_mode",
            ProfileField::NeedsApiKey => "needs_api_key",
            ProfileField::PriceInputPerMillion => "price_input_per_million",
            ProfileField::PriceOutputPerMillion => "price_output_per_million",
            ProfileField::Currency => "currency",
            ProfileField::TimeoutSecs => "timeout_secs",
            ProfileField::Attempts => "attempts",
        }
    }

    /// Finds a field by its name in the file.
    pub fn parse(name: &str) -> Option<ProfileField> {
        ProfileField::ALL
            .into_iter()
            .find(|field| field.as_str() == name)
    }

    /// What a valid value looks like, in Russian.
    fn expected(self) -> &'static str {
        match self {
            ProfileField::Kind => "одно из: openai, openrouter, ollama, lmstudio, llamacpp, custom",
            ProfileField::BaseUrl => {
                "адрес вида https://example.com/v1: схема http или https, без имени пользователя, \
                 пароля, параметров запроса и #фрагмента"
            }
            ProfileField::Model => {
                "непустое имя модели без управляющих символов, не длиннее 200 знаков"
            }
            ProfileField::SchemaMode => "json_schema или json_object",
            ProfileField::NeedsApiKey => "true или false",
            ProfileField::PriceInputPerMillion | ProfileField::PriceOutputPerMillion => {
                "неотрицательное число — цена миллиона токенов"
            }
            ProfileField::Currency => "трёхбуквенный код валюты заглавными буквами, например USD",
            ProfileField::TimeoutSecs => "целое число секунд от 1 до 3600",
            ProfileField::Attempts => "целое число от 1 до 10",
        }
    }
}

const EXPECTED_PROFILE_NAME: &str =
    "имя профиля из латинских букв, цифр, «-» и «_», не длиннее 64 знаков";

/// A checked value for one profile field.
#[derive(Debug, Clone, PartialEq)]
enum FieldValue {
    Kind(ProviderKind),
    BaseUrl(BaseUrl),
    Model(String),
    SchemaMode(SchemaMode),
    NeedsApiKey(bool),
    Price(f64),
    Currency(String),
    TimeoutSecs(u64),
    Attempts(u32),
}

impl FieldValue {
    /// Checks a value typed by the resident on the command line.
    fn from_text(field: ProfileField, text: &str) -> Option<FieldValue> {
        let text = text.trim();
        match field {
            ProfileField::Kind => ProviderKind::parse(text).map(FieldValue::Kind),
            ProfileField::BaseUrl => BaseUrl::check(text).map(FieldValue::BaseUrl),
            ProfileField::Model => check_model(text).map(FieldValue::Model),
            ProfileField::SchemaMode => SchemaMode::parse(text).map(FieldValue::SchemaMode),
            ProfileField::NeedsApiKey => match text {
                "true" => Some(FieldValue::NeedsApiKey(true)),
                "false" => Some(FieldValue::NeedsApiKey(false)),
                _ => None,
            },
            ProfileField::PriceInputPerMillion | ProfileField::PriceOutputPerMillion => text
                .parse::<f64>()
                .ok()
                .and_then(check_price)
                .map(FieldValue::Price),
            ProfileField::Currency => check_currency(text).map(FieldValue::Currency),
            ProfileField::TimeoutSecs => text
                .parse::<u64>()
                .ok()
                .and_then(check_timeout_secs)
                .map(FieldValue::TimeoutSecs),
            ProfileField::Attempts => text
                .parse::<u64>()
                .ok()
                .and_then(check_attempts)
                .map(FieldValue::Attempts),
        }
    }

    /// Checks a value read from the file, where the TOML type must match too.
    fn from_item(field: ProfileField, item: &Item) -> Option<FieldValue> {
        match field {
            ProfileField::NeedsApiKey => item.as_bool().map(FieldValue::NeedsApiKey),
            ProfileField::PriceInputPerMillion | ProfileField::PriceOutputPerMillion => item
                .as_float()
                // Whole prices are natural to write without a decimal point.
                .or_else(|| item.as_integer().map(|whole| whole as f64))
                .and_then(check_price)
                .map(FieldValue::Price),
            ProfileField::TimeoutSecs => item
                .as_integer()
                .and_then(|value| u64::try_from(value).ok())
                .and_then(check_timeout_secs)
                .map(FieldValue::TimeoutSecs),
            ProfileField::Attempts => item
                .as_integer()
                .and_then(|value| u64::try_from(value).ok())
                .and_then(check_attempts)
                .map(FieldValue::Attempts),
            ProfileField::Kind
            | ProfileField::BaseUrl
            | ProfileField::Model
            | ProfileField::SchemaMode
            | ProfileField::Currency => item
                .as_str()
                .and_then(|text| FieldValue::from_text(field, text)),
        }
    }

    fn to_toml(&self) -> toml_edit::Value {
        match self {
            FieldValue::Kind(kind) => kind.as_str().into(),
            FieldValue::BaseUrl(url) => url.as_str().into(),
            FieldValue::Model(model) => model.as_str().into(),
            FieldValue::SchemaMode(mode) => mode.as_str().into(),
            FieldValue::NeedsApiKey(flag) => (*flag).into(),
            FieldValue::Price(price) => (*price).into(),
            FieldValue::Currency(currency) => currency.as_str().into(),
            FieldValue::TimeoutSecs(secs) => i64::try_from(*secs).unwrap_or(i64::MAX).into(),
            FieldValue::Attempts(attempts) => i64::from(*attempts).into(),
        }
    }

    fn apply_to(self, profile: &mut ProfileConfig) {
        match self {
            FieldValue::Kind(kind) => profile.kind = Some(kind),
            FieldValue::BaseUrl(url) => profile.base_url = Some(url),
            FieldValue::Model(model) => profile.model = Some(model),
            FieldValue::SchemaMode(mode) => profile.schema_mode = Some(mode),
            FieldValue::NeedsApiKey(flag) => profile.needs_api_key = Some(flag),
            FieldValue::Price(_) => {}
            FieldValue::Currency(currency) => profile.currency = Some(currency),
            FieldValue::TimeoutSecs(secs) => profile.timeout_secs = Some(secs),
            FieldValue::Attempts(attempts) => profile.attempts = Some(attempts),
        }
    }
}

fn apply_field(profile: &mut ProfileConfig, field: ProfileField, value: FieldValue) {
    // Both prices share one value variant, so the field decides which slot it fills.
    match (field, value) {
        (ProfileField::PriceInputPerMillion, FieldValue::Price(price)) => {
            profile.price_input_per_million = Some(price);
        }
        (ProfileField::PriceOutputPerMillion, FieldValue::Price(price)) => {
            profile.price_output_per_million = Some(price);
        }
        (_, value) => value.apply_to(profile),
    }
}

// ---------------------------------------------------------------------------------------------
// Loading.
// ---------------------------------------------------------------------------------------------

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

    /// The names of the built-in profiles and of the file's profiles, sorted and without repeats.
    pub fn profile_names(&self) -> Vec<ProfileName> {
        let mut names: Vec<ProfileName> = builtin_profile_names()
            .chain(self.profiles.keys().cloned())
            .collect();
        names.sort();
        names.dedup();
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

    /// The complete settings of one profile, without overrides.
    pub fn profile_settings(&self, name: &ProfileName) -> Result<ProviderSettings, ConfigError> {
        self.settings_with(name, &ProviderOverrides::default())
    }

    fn settings_with(
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
        let base_url = match (&overrides.base_url, &written.base_url, preset.base_url) {
            (Some(url), _, _) | (None, Some(url), _) => url.clone(),
            (None, None, Some(url)) => BaseUrl::check(url).ok_or_else(|| {
                // The presets are constants checked by a unit test, so this is unreachable.
                incomplete(ProfileField::BaseUrl)
            })?,
            (None, None, None) => return Err(incomplete(ProfileField::BaseUrl)),
        };
        let model = overrides
            .model
            .clone()
            .or_else(|| written.model.clone())
            .or_else(|| preset.model.map(str::to_owned))
            .ok_or_else(|| incomplete(ProfileField::Model))?;
        let pricing = match (
            written.price_input_per_million,
            written.price_output_per_million,
        ) {
            (Some(input_per_million), Some(output_per_million)) => Some(Pricing {
                input_per_million,
                output_per_million,
                currency: written.currency.clone(),
            }),
            (None, None) => None,
            (Some(_), None) => return Err(incomplete(ProfileField::PriceOutputPerMillion)),
            (None, Some(_)) => return Err(incomplete(ProfileField::PriceInputPerMillion)),
        };
        Ok(ProviderSettings {
            profile: name.clone(),
            kind,
            base_url,
            model,
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

fn read_config_text(path: &Path) -> Result<Option<String>, ConfigError> {
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

fn parse_document(text: &str, path: &Path) -> Result<DocumentMut, ConfigError> {
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

fn config_from_document(document: &DocumentMut, path: &Path) -> Result<Config, ConfigError> {
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
fn profile_of(dotted: &str) -> Option<ProfileName> {
    let mut parts = dotted.split('.');
    (parts.next() == Some("profiles"))
        .then(|| parts.next())
        .flatten()
        .and_then(ProfileName::check)
}

// ---------------------------------------------------------------------------------------------
// `config set`.
// ---------------------------------------------------------------------------------------------

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
        std::iter::once("active_profile".to_owned())
            .chain(
                ProfileField::ALL
                    .iter()
                    .map(|field| format!("profiles.NAME.{}", field.as_str())),
            )
            .collect()
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
        detail: error.to_string(),
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(write_error)?;
    // The temporary file must sit in the same folder: a rename is only atomic within one file
    // system.
    let mut temporary = tempfile::Builder::new()
        .prefix(".config.toml.")
        .suffix(".tmp")
        .tempfile_in(&dir)
        .map_err(write_error)?;
    temporary.write_all(contents).map_err(write_error)?;
    // A resident who loosened or tightened the file's permissions keeps them.
    if let Ok(metadata) = std::fs::metadata(path) {
        std::fs::set_permissions(temporary.path(), metadata.permissions()).map_err(write_error)?;
    }
    temporary.as_file().sync_all().map_err(write_error)?;
    temporary
        .persist(path)
        .map_err(|error| write_error(error.error))?;
    // Flushing the folder makes the rename itself survive a power cut; Windows has no equivalent
    // call, and the rename there is already durable through `MoveFileEx`.
    #[cfg(unix)]
    if let Ok(folder) = std::fs::File::open(&dir) {
        let _ = folder.sync_all();
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Effective settings.
// ---------------------------------------------------------------------------------------------

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
    /// The currency of both prices, when the resident named it.
    pub currency: Option<String>,
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
    /// The model name.
    pub model: String,
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

// ---------------------------------------------------------------------------------------------
// Errors.
// ---------------------------------------------------------------------------------------------

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
    /// The new file could not be written.
    #[error("{}", self.message_ru())]
    Write {
        /// The configuration file.
        path: PathBuf,
        /// The operating system's explanation.
        detail: String,
    },
}

impl ConfigError {
    /// A stable machine-readable code for this error.
    pub fn code(&self) -> &'static str {
        match self {
            ConfigError::Read { .. } => "config.read",
            ConfigError::Syntax { .. } => "config.syntax",
            ConfigError::SecretInConfig { .. } => "config.secret_in_config",
            ConfigError::SecretInSetting { .. } => "config.secret_in_setting",
            ConfigError::UnknownField { .. } => "config.unknown_field",
            ConfigError::InvalidValue { .. } => "config.invalid_value",
            ConfigError::UnknownSettingKey { .. } => "config.unknown_setting_key",
            ConfigError::UnknownProfile { .. } => "config.unknown_profile",
            ConfigError::IncompleteProfile { .. } => "config.incomplete_profile",
            ConfigError::Write { .. } => "config.write",
        }
    }

    /// A Russian message for the resident that says what to do. It never quotes a value.
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
                 в файле настроек: удалите это поле из файла и сохраните ключ командой \
                 `zayavka key set{}`.",
                path.display(),
                profile_flag(profile.as_ref())
            ),
            ConfigError::SecretInSetting { key, profile } => format!(
                "Настройка «{key}» похожа на API-ключ, а ключи не хранятся в файле настроек. \
                 Сохраните ключ командой `zayavka key set{}`: она спросит ключ, не показывая его.",
                profile_flag(profile.as_ref())
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
                    "В файле настроек «{}» неверное значение поля «{field}»: нужно {expected}. \
                     Исправьте его командой `zayavka config set {field} ЗНАЧЕНИЕ` или в \
                     текстовом редакторе.",
                    path.display()
                ),
                SettingSource::Environment => format!(
                    "Неверное значение переменной окружения {field}: нужно {expected}. Исправьте \
                     значение или удалите переменную."
                ),
                SettingSource::CommandLine => {
                    format!("Неверное значение для «{field}»: нужно {expected}.")
                }
            },
            ConfigError::UnknownSettingKey { key } => format!(
                "Неизвестная настройка «{key}». Доступны: {}.",
                SettingKey::all_patterns().join(", ")
            ),
            ConfigError::UnknownProfile { name, known } => format!(
                "Профиль «{name}» не найден. Выберите один из: {}, или создайте его командой \
                 `zayavka config set profiles.{name}.kind ВИД` (ВИД — openai, openrouter, \
                 ollama, lmstudio, llamacpp или custom).",
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
                    _ => String::new(),
                };
                format!(
                    "В профиле «{profile}» не задано поле «{}», а готового значения для него нет. \
                     Задайте его командой `zayavka config set profiles.{profile}.{} ЗНАЧЕНИЕ`{environment_hint}.",
                    field.as_str(),
                    field.as_str()
                )
            }
            ConfigError::Write { path, detail } => format!(
                "Не удалось записать файл настроек «{}» ({detail}). Прежний файл не изменён; \
                 проверьте права доступа к папке.",
                path.display()
            ),
        }
    }
}

fn profile_flag(profile: Option<&ProfileName>) -> String {
    match profile {
        Some(name) => format!(" --profile {name}"),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path() -> PathBuf {
        PathBuf::from("/home/resident/.config/zayavka/config.toml")
    }

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse(text, &path())
    }

    fn name(text: &str) -> ProfileName {
        ProfileName::parse(text).unwrap()
    }

    #[test]
    fn every_preset_url_is_a_valid_base_url() {
        for kind in ProviderKind::ALL {
            let preset = kind.preset();
            if let Some(url) = preset.base_url {
                assert_eq!(BaseUrl::parse(url).unwrap().as_str(), url, "{kind}");
            }
            assert_eq!(preset.base_url.is_none(), kind == ProviderKind::Custom);
            assert_eq!(ProviderKind::parse(kind.as_str()), Some(kind));
        }
    }

    #[test]
    fn presets_match_the_product_defaults() {
        let openai = ProviderKind::OpenAi.preset();
        assert_eq!(openai.base_url, Some("https://api.openai.com/v1"));
        assert_eq!(openai.model, Some("gpt-4o-mini"));
        assert_eq!(openai.schema_mode, SchemaMode::JsonSchema);
        assert!(openai.needs_api_key);
        let openrouter = ProviderKind::OpenRouter.preset();
        assert_eq!(openrouter.base_url, Some("https://openrouter.ai/api/v1"));
        assert_eq!(openrouter.model, Some("openai/gpt-4o-mini"));
        assert!(openrouter.needs_api_key);
        let ollama = ProviderKind::Ollama.preset();
        assert_eq!(ollama.base_url, Some("http://127.0.0.1:11434/v1"));
        assert_eq!(ollama.schema_mode, SchemaMode::JsonObject);
        assert!(!ollama.needs_api_key);
        let lmstudio = ProviderKind::LmStudio.preset();
        assert_eq!(lmstudio.base_url, Some("http://127.0.0.1:1234/v1"));
        assert_eq!(lmstudio.schema_mode, SchemaMode::JsonSchema);
        assert!(!lmstudio.needs_api_key);
        let llamacpp = ProviderKind::LlamaCpp.preset();
        assert_eq!(llamacpp.base_url, Some("http://127.0.0.1:8080/v1"));
        assert_eq!(llamacpp.schema_mode, SchemaMode::JsonObject);
        assert!(!llamacpp.needs_api_key);
    }

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
        assert!(
            error
                .message_ru()
                .contains("zayavka config set profiles.mine.base_url"),
            "{error}"
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
                "[profiles.work]\nkind = \"openai\"\n\"{field}\" = \"sk-live-0123456789abcdef\"\n"
            );
            let error = parse(&text).unwrap_err();
            assert_eq!(error.code(), "config.secret_in_config", "{field}");
            let message = error.message_ru();
            assert!(
                message.contains("zayavka key set --profile work"),
                "{message}"
            );
            assert!(message.contains(&path().display().to_string()), "{message}");
            assert!(!message.contains("sk-live"), "{message}");
        }
    }

    #[test]
    fn a_key_at_the_top_level_or_in_an_unknown_table_is_still_reported_as_a_key() {
        let error = parse("api_key = \"sk-top-secret\"\n").unwrap_err();
        assert_eq!(error.code(), "config.secret_in_config");
        assert!(error.message_ru().contains("`zayavka key set`"));
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
    fn base_urls_are_checked() {
        assert!(BaseUrl::parse("https://api.openai.com/v1").is_ok());
        assert!(
            BaseUrl::parse("http://[::1]:8080/v1")
                .unwrap()
                .is_loopback()
        );
        assert!(
            BaseUrl::parse("http://localhost:8080")
                .unwrap()
                .is_loopback()
        );
        assert_eq!(
            BaseUrl::parse("http://localhost:8080").unwrap().as_str(),
            "http://localhost:8080"
        );
        for bad in [
            "api.openai.com/v1",
            "file:///etc/passwd",
            "https://user@host/v1",
            "https://host/v1#x",
            "https://host/v1?api-version=1",
            "",
        ] {
            assert!(BaseUrl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn profile_names_are_checked() {
        assert!(ProfileName::parse("work-2_b").is_ok());
        for bad in ["", "a.b", "with space", "профиль", &"x".repeat(65)] {
            assert!(ProfileName::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn command_line_parsers_check_ranges() {
        assert_eq!(parse_timeout_secs("30").unwrap(), 30);
        assert!(parse_timeout_secs("0").is_err());
        assert!(parse_timeout_secs("3601").is_err());
        assert_eq!(parse_attempts("3").unwrap(), 3);
        assert!(parse_attempts("0").is_err());
        assert_eq!(parse_model(" gpt-4o ").unwrap(), "gpt-4o");
        assert!(parse_model("a\nb").is_err());
        assert_eq!(
            SchemaMode::parse("json_object").unwrap(),
            SchemaMode::JsonObject
        );
        assert_eq!(
            "ollama".parse::<ProviderKind>().unwrap(),
            ProviderKind::Ollama
        );
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
                "llamacpp",
                "lmstudio",
                "ollama",
                "openai",
                "openrouter",
                "work"
            ]
        );
        assert!(config.has_profile(&name("work")));
        assert!(config.has_profile(&name("ollama")));
        assert!(!config.has_profile(&name("custom")));
    }

    // `config set`.

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
                    "config.invalid_value" | "config.unknown_setting_key"
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
            let error = set_value(&file, key, "sk-live-0123456789").unwrap_err();
            assert_eq!(error.code(), "config.secret_in_setting", "{key}");
            assert!(error.message_ru().contains("zayavka key set"));
            assert!(!error.message_ru().contains("sk-live"));
        }
        let error = set_value(&file, "profiles.openai.api_key", "x").unwrap_err();
        assert!(error.message_ru().contains("--profile openai"));
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
        std::fs::write(&file, "[profiles.openai]\napi_key = \"sk-live\"\n").unwrap();
        let error = set_value(&file, "profiles.openai.model", "gpt-4.1").unwrap_err();
        assert_eq!(error.code(), "config.secret_in_config");
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            "[profiles.openai]\napi_key = \"sk-live\"\n"
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
            matches!(error.code(), "config.read" | "config.write"),
            "{error}"
        );
    }

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
            ConfigError::Write {
                path: path(),
                detail: String::new(),
            },
        ];
        let mut codes: Vec<&str> = errors.iter().map(ConfigError::code).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), errors.len());
        for error in &errors {
            assert!(error.code().starts_with("config."));
            assert_eq!(error.to_string(), error.message_ru());
        }
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
                "schema_mode": "json_object",
                "needs_api_key": false,
                "pricing": null,
                "timeout_secs": null,
                "attempts": null,
            })
        );
    }
}
