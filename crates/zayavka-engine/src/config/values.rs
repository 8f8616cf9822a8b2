//! The checked value types a configuration is built from: [`ProfileName`], [`ProviderKind`] with
//! its [`ProviderPreset`], and [`BaseUrl`], plus the command-line parsers for the model, timeout
//! and attempts. Each value is checked once, on the way in, so the rest of the module can trust
//! it; the `check_*` helpers are shared with `file.rs`, so a value is held to the same rules
//! whether it comes from the file, the command line or the environment.

use std::fmt;
use std::str::FromStr;

use zayavka_core::SchemaMode;

/// The longest per-attempt timeout a profile may set, in seconds.
pub const MAX_TIMEOUT_SECS: u64 = 3600;
/// The most attempts a profile may set.
pub const MAX_ATTEMPTS: u32 = 10;
/// The longest model name.
pub const MAX_MODEL_CHARS: usize = 200;
/// The longest profile name.
pub const MAX_PROFILE_NAME_CHARS: usize = 64;

/// A value given on the command line or in a form that is not what its field takes. The
/// configuration's own error wraps it ([`super::ConfigError::InvalidValue`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Неверное значение для «{field}»: ожидается {expected}.")]
pub struct InvalidValue {
    /// The field, as the front end names it.
    pub field: String,
    /// What it takes, in Russian.
    pub expected: &'static str,
}

fn invalid(field: impl Into<String>, expected: &'static str) -> InvalidValue {
    InvalidValue {
        field: field.into(),
        expected,
    }
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
    pub(crate) fn expected(self) -> &'static str {
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

pub(crate) const EXPECTED_PROFILE_NAME: &str =
    "имя профиля из латинских букв, цифр, «-» и «_», не длиннее 64 знаков";

/// A profile name: 1–64 ASCII letters, digits, `-` or `_`.
///
/// The name is a TOML table key, the keyring user name and the middle part of a dotted `config set`
/// key, so dots, spaces and anything that would need quoting are excluded.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProfileName(pub(super) String);

impl ProfileName {
    /// The profile used for the API key when no profile is active, and the name of the ad-hoc
    /// profile defined by overrides alone.
    pub const DEFAULT: &'static str = "default";

    /// Checks `name` and wraps it.
    pub fn parse(name: &str) -> Result<ProfileName, InvalidValue> {
        ProfileName::check(name).ok_or_else(|| invalid("profile".to_owned(), EXPECTED_PROFILE_NAME))
    }

    pub(super) fn check(name: &str) -> Option<ProfileName> {
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
    type Err = InvalidValue;

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
            // A single-model `llama-server` ignores the model name, so any name works there. It
            // accepts the strict transport schema and enforces it with a grammar built from it,
            // so the stronger `json_schema` mode holds there (issue 6).
            ProviderKind::LlamaCpp => (
                Some("http://127.0.0.1:8080/v1"),
                Some("qwen2.5-7b-instruct"),
                SchemaMode::JsonSchema,
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
    type Err = InvalidValue;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        ProviderKind::parse(text)
            .ok_or_else(|| invalid("kind".to_owned(), ProfileField::Kind.expected()))
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

/// A server address that `/chat/completions` is appended to.
///
/// Only `http` and `https` are accepted, and a user name, password, query or fragment is refused:
/// URLs end up in logs and context records, and credentials or `?key=` parameters in them would leak
/// the very secret the keyring protects. A trailing slash is dropped so joining is uniform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseUrl(url::Url);

impl BaseUrl {
    /// Checks `text` and wraps it.
    pub fn parse(text: &str) -> Result<BaseUrl, InvalidValue> {
        BaseUrl::check(text)
            .ok_or_else(|| invalid("base_url".to_owned(), ProfileField::BaseUrl.expected()))
    }

    pub(super) fn check(text: &str) -> Option<BaseUrl> {
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
    type Err = InvalidValue;

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
pub fn parse_model(text: &str) -> Result<String, InvalidValue> {
    check_model(text).ok_or_else(|| invalid("model".to_owned(), ProfileField::Model.expected()))
}

/// Checks a per-attempt timeout in seconds given on the command line; usable as a clap value
/// parser.
pub fn parse_timeout_secs(text: &str) -> Result<u64, InvalidValue> {
    text.trim()
        .parse::<u64>()
        .ok()
        .and_then(check_timeout_secs)
        .ok_or_else(|| {
            invalid(
                "timeout_secs".to_owned(),
                ProfileField::TimeoutSecs.expected(),
            )
        })
}

/// Checks a number of attempts given on the command line; usable as a clap value parser.
pub fn parse_attempts(text: &str) -> Result<u32, InvalidValue> {
    text.trim()
        .parse::<u64>()
        .ok()
        .and_then(check_attempts)
        .ok_or_else(|| invalid("attempts".to_owned(), ProfileField::Attempts.expected()))
}

pub(super) fn check_model(text: &str) -> Option<String> {
    let model = text.trim();
    let valid = !model.is_empty()
        && model.chars().count() <= MAX_MODEL_CHARS
        && !model.chars().any(char::is_control);
    valid.then(|| model.to_owned())
}

pub(super) fn check_timeout_secs(value: u64) -> Option<u64> {
    (1..=MAX_TIMEOUT_SECS).contains(&value).then_some(value)
}

pub(super) fn check_attempts(value: u64) -> Option<u32> {
    u32::try_from(value)
        .ok()
        .filter(|attempts| (1..=MAX_ATTEMPTS).contains(attempts))
}

pub(super) fn check_price(value: f64) -> Option<f64> {
    (value.is_finite() && value >= 0.0).then_some(value)
}

pub(super) fn check_currency(text: &str) -> Option<String> {
    let currency = text.trim();
    let valid = currency.len() == 3 && currency.chars().all(|c| c.is_ascii_uppercase());
    valid.then(|| currency.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(llamacpp.schema_mode, SchemaMode::JsonSchema);
        assert!(!llamacpp.needs_api_key);
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
}
