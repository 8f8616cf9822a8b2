//! The checked value types a configuration is built from: [`ProfileName`], [`ProviderKind`] with
//! its [`ProviderPreset`], and [`BaseUrl`], plus the command-line parsers for the model, timeout
//! and attempts. Each value is checked once, on the way in, so the rest of the module can trust
//! it; the `check_*` helpers are shared with `file.rs`, so a value is held to the same rules
//! whether it comes from the file, the command line or the environment.

use std::fmt;
use std::str::FromStr;

use zayavka_codes::stable_codes;
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
    /// `protocol`: `chat_completions` or `responses` (yandex, openai, custom).
    Protocol,
    /// `folder_id`: the Yandex Cloud folder (yandex).
    FolderId,
    /// `auth_scheme`: `api_key` or `iam_token` (yandex). Not `auth`, which the loader refuses
    /// as a name that may hold a secret.
    AuthScheme,
    /// `scope`: whose GigaChat access the key opens (gigachat).
    Scope,
    /// `auth_url`: GigaChat's token endpoint (gigachat).
    AuthUrl,
}

impl ProfileField {
    /// Every field, in the order they are documented.
    pub const ALL: [ProfileField; 15] = [
        ProfileField::Kind,
        ProfileField::FolderId,
        ProfileField::Scope,
        ProfileField::Protocol,
        ProfileField::AuthScheme,
        ProfileField::BaseUrl,
        ProfileField::AuthUrl,
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
            ProfileField::Protocol => "protocol",
            ProfileField::FolderId => "folder_id",
            ProfileField::AuthScheme => "auth_scheme",
            ProfileField::Scope => "scope",
            ProfileField::AuthUrl => "auth_url",
        }
    }

    /// Finds a field by its name in the file.
    pub fn parse(name: &str) -> Option<ProfileField> {
        ProfileField::ALL
            .iter()
            .copied()
            .find(|field| field.as_str() == name)
    }

    /// What a valid value looks like, in Russian.
    pub(crate) fn expected(self) -> &'static str {
        match self {
            ProfileField::Kind => {
                "одно из: gigachat, yandex, ollama, lmstudio, llamacpp, custom, openai, openrouter"
            }
            ProfileField::BaseUrl | ProfileField::AuthUrl => {
                "адрес вида https://example.com/v1: схема http или https, без имени пользователя, \
                 пароля, параметров запроса и #фрагмента"
            }
            ProfileField::Model => {
                "непустое имя модели без управляющих символов, не длиннее 200 знаков"
            }
            ProfileField::SchemaMode => "json_schema, json_object или function_call",
            ProfileField::NeedsApiKey => "true или false",
            ProfileField::PriceInputPerMillion | ProfileField::PriceOutputPerMillion => {
                "неотрицательное число — цена миллиона токенов"
            }
            ProfileField::Currency => {
                "трёхбуквенный код валюты заглавными буквами, например RUB или USD"
            }
            ProfileField::TimeoutSecs => "целое число секунд от 1 до 3600",
            ProfileField::Attempts => "целое число от 1 до 10",
            ProfileField::Protocol => "chat_completions или responses",
            ProfileField::FolderId => {
                "идентификатор каталога Yandex Cloud: 20 строчных латинских букв и цифр, обычно \
                 начинается с b1g. Его видно в консоли Yandex Cloud (console.yandex.cloud) рядом \
                 с именем каталога, где создан сервисный аккаунт"
            }
            ProfileField::AuthScheme => {
                "api_key (API-ключ сервисного аккаунта) или iam_token (IAM-токен)"
            }
            ProfileField::Scope => {
                "GIGACHAT_API_PERS (физическое лицо), GIGACHAT_API_B2B или GIGACHAT_API_CORP \
                 (юридическое лицо или ИП) — как указано в личном кабинете GigaChat API"
            }
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

/// Which kind of server a profile talks to; each kind but `custom` has a preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProviderKind {
    /// Sber's GigaChat: an authorization key exchanged for short-lived access tokens.
    GigaChat,
    /// Yandex AI Studio (YandexGPT, Alice AI): an `Api-Key` and a folder id.
    Yandex,
    /// A local Ollama server.
    Ollama,
    /// A local LM Studio server.
    LmStudio,
    /// A local llama.cpp server (`llama-server`).
    LlamaCpp,
    /// Any other OpenAI-compatible server; `base_url` and `model` must be given.
    Custom,
    /// The OpenAI API.
    OpenAi,
    /// OpenRouter, a cloud router in front of many model providers.
    OpenRouter,
}

impl ProviderKind {
    /// The kinds' names in the setup's order, for a message: «gigachat, yandex, …, openai или
    /// openrouter» (issue 31: every message lists the services a resident in Russia can use
    /// first, as the setup does). `custom` only when `with_custom`.
    pub fn names_ru(with_custom: bool) -> String {
        let names: Vec<&str> = ProviderKind::ALL
            .iter()
            .filter(|kind| with_custom || **kind != ProviderKind::Custom)
            .map(|kind| kind.as_str())
            .collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} или {last}", rest.join(", ")),
            _ => names.join(""),
        }
    }

    /// Every kind, in the order every front end lists them (issue 15): the services a resident
    /// in Russia can use and pay for first, then a model on this computer, then any other
    /// compatible service, then OpenAI and OpenRouter.
    pub const ALL: [ProviderKind; 8] = [
        ProviderKind::GigaChat,
        ProviderKind::Yandex,
        ProviderKind::Ollama,
        ProviderKind::LmStudio,
        ProviderKind::LlamaCpp,
        ProviderKind::Custom,
        ProviderKind::OpenAi,
        ProviderKind::OpenRouter,
    ];

    /// The spelling used in the configuration file.
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::GigaChat => "gigachat",
            ProviderKind::Yandex => "yandex",
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
            ProviderKind::GigaChat => "GigaChat",
            ProviderKind::Yandex => "Yandex AI Studio",
            ProviderKind::OpenAi => "OpenAI",
            ProviderKind::OpenRouter => "OpenRouter",
            ProviderKind::Ollama => "Ollama",
            ProviderKind::LmStudio => "LM Studio",
            ProviderKind::LlamaCpp => "llama.cpp",
            ProviderKind::Custom => "Свой сервер",
        }
    }

    /// Whether the preset's server runs on this computer, so the text does not leave it.
    pub fn runs_locally(self) -> bool {
        matches!(
            self,
            ProviderKind::Ollama | ProviderKind::LmStudio | ProviderKind::LlamaCpp
        )
    }

    /// One Russian sentence on where the resident's description goes.
    pub fn privacy_note_ru(self) -> &'static str {
        match self {
            ProviderKind::GigaChat => {
                "Описание проблемы уходит на серверы Сбера (GigaChat) в России."
            }
            ProviderKind::Yandex => {
                "Описание проблемы уходит на серверы Яндекса (Yandex Cloud) в России."
            }
            ProviderKind::OpenAi => "Описание проблемы уходит на серверы OpenAI в США.",
            ProviderKind::OpenRouter => {
                "Описание уходит OpenRouter и владельцу выбранной модели, за пределы России."
            }
            ProviderKind::Ollama | ProviderKind::LmStudio | ProviderKind::LlamaCpp => {
                "Модель работает на этом компьютере: текст никуда не уходит."
            }
            ProviderKind::Custom => {
                "Свой сервер, совместимый с OpenAI: текст уходит туда, куда укажете."
            }
        }
    }

    /// One Russian sentence on what it costs and what it needs.
    pub fn cost_note_ru(self) -> &'static str {
        match self {
            ProviderKind::GigaChat => {
                "Для физических лиц есть бесплатный объём токенов, сверх него — оплата в рублях; \
                 нужен ключ авторизации из личного кабинета."
            }
            ProviderKind::Yandex => {
                "Платно, в рублях за объём текста (новым аккаунтам Yandex Cloud даётся стартовый \
                 грант); нужны API-ключ сервисного аккаунта и идентификатор каталога."
            }
            ProviderKind::OpenAi | ProviderKind::OpenRouter => {
                "Платно, в долларах за объём текста, картой не из России обычно не оплатить; \
                 нужен API-ключ."
            }
            ProviderKind::Ollama | ProviderKind::LmStudio | ProviderKind::LlamaCpp => {
                "Бесплатно, ключ не нужен; модель нужно установить самим, и нужен мощный компьютер."
            }
            ProviderKind::Custom => "Стоимость и нужен ли ключ, зависит от сервера.",
        }
    }

    /// One Russian line about privacy and cost, for `config show` and the settings screen.
    pub fn summary_ru(self) -> String {
        format!("{} {}", self.privacy_note_ru(), self.cost_note_ru())
    }

    /// The defaults a profile of this kind starts from.
    pub fn preset(self) -> ProviderPreset {
        let (base_url, model, schema_mode, needs_api_key) = match self {
            // Forced function calling for every scope and model: Sber documents it for every
            // model, and `json_schema` only at api.giga.chat for business clients (ADR 21).
            ProviderKind::GigaChat => (
                Some(GIGACHAT_BASE_URL),
                Some(GIGACHAT_MODEL),
                SchemaMode::FunctionCall,
                true,
            ),
            // The model is a short name under the profile's folder: see `yandex_model_uri`.
            ProviderKind::Yandex => (
                Some(YANDEX_BASE_URL),
                Some(YANDEX_CHAT_MODEL),
                SchemaMode::JsonSchema,
                true,
            ),
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
            currency: match self {
                ProviderKind::GigaChat | ProviderKind::Yandex => Some("RUB"),
                ProviderKind::OpenAi | ProviderKind::OpenRouter => Some("USD"),
                _ => None,
            },
            pricing: match self {
                ProviderKind::Yandex => Some(YANDEX_CHAT_PRICES),
                _ => None,
            },
        }
    }

    /// Whether a profile of this kind may set `field`: the fields of one service mean nothing
    /// to another, and a value that would be silently ignored is refused instead.
    pub fn accepts(self, field: ProfileField) -> bool {
        match field {
            ProfileField::FolderId | ProfileField::AuthScheme => self == ProviderKind::Yandex,
            ProfileField::Scope | ProfileField::AuthUrl => self == ProviderKind::GigaChat,
            ProfileField::Protocol => matches!(
                self,
                ProviderKind::Yandex | ProviderKind::OpenAi | ProviderKind::Custom
            ),
            _ => true,
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

/// GigaChat's API root.
pub const GIGACHAT_BASE_URL: &str = "https://gigachat.devices.sberbank.ru/api/v1";
/// GigaChat's token endpoint.
pub const GIGACHAT_AUTH_URL: &str = "https://ngw.devices.sberbank.ru:9443/api/v2/oauth";
/// GigaChat's default model, the lightest of the current generation (docs/provider-facts.toml:
/// which model the free allowance covers today is not confirmed).
pub const GIGACHAT_MODEL: &str = "GigaChat-2";
/// Yandex AI Studio's OpenAI-compatible API root.
pub const YANDEX_BASE_URL: &str = "https://ai.api.cloud.yandex.net/v1";
/// Yandex's default model for chat completions, under the profile's folder.
pub const YANDEX_CHAT_MODEL: &str = "yandexgpt/latest";
/// Yandex's default model for the Responses API, under the profile's folder.
pub const YANDEX_RESPONSES_MODEL: &str = "aliceai-llm-flash/latest";

// Default prices, in rubles per million tokens: the services publish them per 1,000 tokens, and
// the profile keeps one unit for every kind, so they are multiplied by 1,000 here. They are
// defaults to check, never facts: `config show` prints them with their date and asks the resident
// to look at the service's current prices. Source: docs/provider-facts.toml.
//
// YandexGPT Pro (`yandexgpt/latest`), synchronous mode, region Russia, VAT included: 1.20 ₽ per
// 1,000 tokens, input and output alike (https://yandex.cloud/ru/docs/ai-studio/pricing, read on
// 2026-12-02). GigaChat's prices for individuals were not found in an official source, so its
// preset names the currency and no price (the cost is shown as unknown rather than guessed).
const YANDEX_CHAT_PRICES: PresetPricing = PresetPricing {
    input_per_million: 1200.0,
    output_per_million: 1200.0,
    as_of: "2026-12-02",
};

/// Prices a preset starts with: per million tokens like the profile's own fields, in the
/// preset's currency, and dated, because a service changes its prices without telling us.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PresetPricing {
    /// The price of a million input tokens.
    pub input_per_million: f64,
    /// The price of a million output tokens.
    pub output_per_million: f64,
    /// The day the prices were read from the service's price list (`YYYY-MM-DD`).
    pub as_of: &'static str,
}

/// The built-in defaults of one provider kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProviderPreset {
    /// The kind these defaults belong to.
    pub kind: ProviderKind,
    /// The default server address; `None` for `custom`.
    pub base_url: Option<&'static str>,
    /// The default model; `None` for `custom`. For `yandex`, a short name under the folder.
    pub model: Option<&'static str>,
    /// How the response schema is enforced.
    pub schema_mode: SchemaMode,
    /// Whether the server wants a key.
    pub needs_api_key: bool,
    /// The currency a price of this kind is in, e.g. `RUB`; `None` where it depends on what the
    /// resident runs.
    pub currency: Option<&'static str>,
    /// Default prices, to check, for the default model; `None` where none is known.
    pub pricing: Option<PresetPricing>,
}

stable_codes! {
    /// The wire protocol of an OpenAI-compatible service: chat completions, or the Responses
    /// API. The code is the spelling in the configuration file.
    #[derive(Default)]
    pub enum Protocol {
        /// `POST {base_url}/chat/completions`.
        #[default]
        ChatCompletions => "chat_completions",
        /// `POST {base_url}/responses`.
        Responses => "responses",
    }
}

stable_codes! {
    /// How a Yandex AI Studio profile presents its secret. The code is the spelling in the
    /// configuration file.
    #[derive(Default)]
    pub enum YandexAuth {
        /// `Authorization: Api-Key …`: a service account's API key, which does not expire.
        #[default]
        ApiKey => "api_key",
        /// `Authorization: Bearer …`: an IAM token, which lives at most 12 hours.
        IamToken => "iam_token",
    }
}

stable_codes! {
    /// Whose GigaChat access a key opens: individuals, or a business's prepaid or pay-as-you-go
    /// contract. The code is the service's own spelling, sent in the token exchange and written
    /// in the configuration file.
    #[derive(Default)]
    pub enum GigaChatScope {
        /// `GIGACHAT_API_PERS`: an individual, with the free allowance.
        #[default]
        Personal => "GIGACHAT_API_PERS",
        /// `GIGACHAT_API_B2B`: a business, prepaid packages.
        Business => "GIGACHAT_API_B2B",
        /// `GIGACHAT_API_CORP`: a business, pay as you go.
        Corporate => "GIGACHAT_API_CORP",
    }
}

impl GigaChatScope {
    /// For people.
    pub fn title_ru(self) -> &'static str {
        match self {
            GigaChatScope::Personal => "физическое лицо",
            GigaChatScope::Business => "юридическое лицо или ИП, пакеты токенов",
            GigaChatScope::Corporate => "юридическое лицо или ИП, оплата по факту",
        }
    }
}

impl fmt::Display for FolderId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for FolderId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// The length of a Yandex Cloud resource id.
const FOLDER_ID_CHARS: usize = 20;

/// A Yandex Cloud folder («каталог») id: 20 lowercase Latin letters and digits, such as
/// `b1g2abcdefghijklmnop` (folder ids usually start with `b1g`, but the form is what is checked,
/// because the prefix is not documented as fixed).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FolderId(String);

impl FolderId {
    /// Checks `text` and wraps it.
    pub fn parse(text: &str) -> Result<FolderId, InvalidValue> {
        FolderId::check(text)
            .ok_or_else(|| invalid("folder_id".to_owned(), ProfileField::FolderId.expected()))
    }

    pub(super) fn check(text: &str) -> Option<FolderId> {
        let id = text.trim();
        let valid = id.len() == FOLDER_ID_CHARS
            && id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
        valid.then(|| FolderId(id.to_owned()))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The model URI Yandex AI Studio expects: a short name such as `yandexgpt-lite/latest` becomes
/// `gpt://<folder>/yandexgpt-lite/latest`; a name that already has a scheme (`gpt://…`) is kept.
pub fn yandex_model_uri(folder: &FolderId, model: &str) -> String {
    let model = model.trim();
    if model.contains("://") {
        model.to_owned()
    } else {
        format!(
            "gpt://{}/{}",
            folder.as_str(),
            model.trim_start_matches('/')
        )
    }
}

/// The folder a full Yandex model URI names, e.g. `b1g…` in `gpt://b1g…/yandexgpt/latest`.
pub fn yandex_model_folder(model: &str) -> Option<&str> {
    let (_, rest) = model.split_once("://")?;
    rest.split('/').next().filter(|folder| !folder.is_empty())
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

/// Every key `zayavka config set` accepts, with `NAME` standing for a profile name:
/// `active_profile` and each profile field.
pub(crate) fn setting_patterns() -> Vec<String> {
    std::iter::once("active_profile".to_owned())
        .chain(
            ProfileField::ALL
                .iter()
                .map(|field| format!("profiles.NAME.{}", field.as_str())),
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_spellings_pass_the_shared_check() {
        use zayavka_codes::check_stable_codes;
        check_stable_codes::<Protocol>().unwrap();
        check_stable_codes::<YandexAuth>().unwrap();
        check_stable_codes::<GigaChatScope>().unwrap();
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

    #[test]
    fn issue_15_services_residents_in_russia_can_use_come_first() {
        let order: Vec<&str> = ProviderKind::ALL.map(ProviderKind::as_str).to_vec();
        assert_eq!(
            order,
            [
                "gigachat",
                "yandex",
                "ollama",
                "lmstudio",
                "llamacpp",
                "custom",
                "openai",
                "openrouter"
            ]
        );
        for kind in ProviderKind::ALL {
            assert!(kind.privacy_note_ru().ends_with('.'), "{kind}");
            assert!(kind.cost_note_ru().ends_with('.'), "{kind}");
            assert_eq!(
                kind.runs_locally(),
                kind.preset()
                    .base_url
                    .is_some_and(|url| BaseUrl::parse(url).unwrap().is_loopback()),
                "{kind}"
            );
        }
        assert!(ProviderKind::GigaChat.cost_note_ru().contains("бесплатный"));
        assert!(ProviderKind::Yandex.cost_note_ru().contains("в рублях"));
    }

    #[test]
    fn issue_15_presets_of_the_new_kinds() {
        let gigachat = ProviderKind::GigaChat.preset();
        assert_eq!(
            gigachat.base_url,
            Some("https://gigachat.devices.sberbank.ru/api/v1")
        );
        assert_eq!(gigachat.model, Some("GigaChat-2"));
        assert_eq!(gigachat.schema_mode, SchemaMode::FunctionCall);
        assert!(gigachat.needs_api_key);
        assert_eq!(gigachat.currency, Some("RUB"));
        // No official price for individuals was found: none is guessed.
        assert_eq!(gigachat.pricing, None);
        let yandex = ProviderKind::Yandex.preset();
        assert_eq!(yandex.base_url, Some("https://ai.api.cloud.yandex.net/v1"));
        assert_eq!(yandex.model, Some("yandexgpt/latest"));
        assert!(yandex.needs_api_key);
        let prices = yandex.pricing.unwrap();
        assert_eq!(yandex.currency, Some("RUB"));
        // Per million tokens: the service's 1.20 ₽ per 1,000 tokens times 1,000.
        assert_eq!(prices.input_per_million, 1200.0);
        assert_eq!(prices.output_per_million, 1200.0);
        assert!(jiff::civil::Date::strptime("%Y-%m-%d", prices.as_of).is_ok());
        assert_eq!(
            BaseUrl::parse(GIGACHAT_AUTH_URL).unwrap().as_str(),
            GIGACHAT_AUTH_URL
        );
        for kind in [
            ProviderKind::OpenAi,
            ProviderKind::Ollama,
            ProviderKind::Custom,
        ] {
            assert_eq!(kind.preset().pricing, None, "{kind}");
        }
    }

    #[test]
    fn issue_15_folder_ids_are_checked_by_form() {
        assert_eq!(
            FolderId::parse(" b1g2abcdefghijklmn34 ").unwrap().as_str(),
            "b1g2abcdefghijklmn34"
        );
        for bad in [
            "",
            "b1g2abcdefghijklmn3",
            "b1g2abcdefghijklmn345",
            "B1G2ABCDEFGHIJKLMN34",
            "b1g2abcdefghijklmn3-",
            "b1g2abcdefghijklmnЖ4",
            "AQVN-not-a-folder-id-but-a-key",
        ] {
            let error = FolderId::parse(bad).unwrap_err();
            assert_eq!(error.field, "folder_id", "{bad}");
            let message = error.to_string();
            assert!(message.contains("«folder_id»"), "{message}");
            assert!(
                message.contains("идентификатор каталога Yandex Cloud"),
                "{message}"
            );
            assert!(message.contains("console.yandex.cloud"), "{message}");
            assert!(!message.contains(bad) || bad.is_empty(), "{message}");
        }
    }

    #[test]
    fn issue_15_a_short_yandex_model_name_expands_under_the_folder() {
        let folder = FolderId::parse("b1gaaaaaaaaaaaaaaaaa").unwrap();
        assert_eq!(
            yandex_model_uri(&folder, "yandexgpt-lite/latest"),
            "gpt://b1gaaaaaaaaaaaaaaaaa/yandexgpt-lite/latest"
        );
        assert_eq!(
            yandex_model_uri(&folder, YANDEX_RESPONSES_MODEL),
            "gpt://b1gaaaaaaaaaaaaaaaaa/aliceai-llm-flash/latest"
        );
        assert_eq!(
            yandex_model_uri(&folder, "gpt://b1gbbbbbbbbbbbbbbbbb/yandexgpt/rc"),
            "gpt://b1gbbbbbbbbbbbbbbbbb/yandexgpt/rc"
        );
        assert_eq!(
            yandex_model_folder("gpt://b1gbbbbbbbbbbbbbbbbb/yandexgpt/rc"),
            Some("b1gbbbbbbbbbbbbbbbbb")
        );
        assert_eq!(yandex_model_folder("yandexgpt/latest"), None);
    }

    #[test]
    fn issue_15_protocol_auth_scheme_and_scope_spellings() {
        assert_eq!(Protocol::from_code("responses"), Some(Protocol::Responses));
        assert_eq!(Protocol::default(), Protocol::ChatCompletions);
        assert_eq!(Protocol::from_code("Responses"), None);
        assert_eq!(
            YandexAuth::from_code("iam_token"),
            Some(YandexAuth::IamToken)
        );
        assert_eq!(YandexAuth::default(), YandexAuth::ApiKey);
        assert_eq!(
            GigaChatScope::from_code("GIGACHAT_API_CORP"),
            Some(GigaChatScope::Corporate)
        );
        assert_eq!(GigaChatScope::default().code(), "GIGACHAT_API_PERS");
        assert_eq!(GigaChatScope::from_code("gigachat_api_pers"), None);
        // None of the new field names is mistaken for a secret by the loader.
        for field in ProfileField::ALL {
            assert!(
                !crate::config::load::looks_like_secret_field(field.as_str()),
                "{}",
                field.as_str()
            );
            assert_eq!(ProfileField::parse(field.as_str()), Some(field));
        }
    }

    #[test]
    fn issue_15_service_fields_belong_to_their_kinds() {
        assert!(ProviderKind::Yandex.accepts(ProfileField::FolderId));
        assert!(!ProviderKind::OpenAi.accepts(ProfileField::FolderId));
        assert!(ProviderKind::GigaChat.accepts(ProfileField::Scope));
        assert!(!ProviderKind::Yandex.accepts(ProfileField::AuthUrl));
        for kind in [
            ProviderKind::Yandex,
            ProviderKind::OpenAi,
            ProviderKind::Custom,
        ] {
            assert!(kind.accepts(ProfileField::Protocol), "{kind}");
        }
        for kind in [
            ProviderKind::GigaChat,
            ProviderKind::Ollama,
            ProviderKind::OpenRouter,
        ] {
            assert!(!kind.accepts(ProfileField::Protocol), "{kind}");
        }
    }
}
