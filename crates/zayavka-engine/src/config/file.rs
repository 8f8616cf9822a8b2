//! The configuration as written in the file: [`Config`] with its [`ProfileConfig`] tables, the
//! [`ProfileField`] names a table may hold, and `FieldValue`, the checked value of one field. The
//! loader, `config set` and the environment overrides all go through `FieldValue`, so a value is
//! validated by the same code wherever it was written.

use std::collections::BTreeMap;

use toml_edit::Item;

use super::SchemaMode;
use super::values::{
    BaseUrl, FolderId, GigaChatScope, ProfileField, ProfileName, Protocol, ProviderKind,
    YandexAuth, check_attempts, check_currency, check_model, check_price, check_timeout_secs,
};

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
    /// Chat completions or the Responses API (yandex, openai, custom).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol: Option<Protocol>,
    /// The Yandex Cloud folder (yandex).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub folder_id: Option<FolderId>,
    /// How the Yandex secret is presented (yandex).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auth_scheme: Option<YandexAuth>,
    /// Whose GigaChat access the key opens (gigachat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<GigaChatScope>,
    /// GigaChat's token endpoint (gigachat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auth_url: Option<BaseUrl>,
}

impl ProfileConfig {
    /// The fields this table sets, so that a field another kind would ignore can be refused.
    pub(super) fn fields_set(&self) -> Vec<ProfileField> {
        [
            (ProfileField::Protocol, self.protocol.is_some()),
            (ProfileField::FolderId, self.folder_id.is_some()),
            (ProfileField::AuthScheme, self.auth_scheme.is_some()),
            (ProfileField::Scope, self.scope.is_some()),
            (ProfileField::AuthUrl, self.auth_url.is_some()),
        ]
        .into_iter()
        .filter_map(|(field, set)| set.then_some(field))
        .collect()
    }
}

/// The configuration file's content.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Config {
    /// The profile used when none is named; `None` on a fresh install.
    pub active_profile: Option<ProfileName>,
    /// The `[profiles.NAME]` tables.
    pub profiles: BTreeMap<ProfileName, ProfileConfig>,
}

/// A checked value for one profile field.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum FieldValue {
    Kind(ProviderKind),
    BaseUrl(BaseUrl),
    Model(String),
    SchemaMode(SchemaMode),
    NeedsApiKey(bool),
    Price(f64),
    Currency(String),
    TimeoutSecs(u64),
    Attempts(u32),
    Protocol(Protocol),
    FolderId(FolderId),
    AuthScheme(YandexAuth),
    Scope(GigaChatScope),
    AuthUrl(BaseUrl),
}

impl FieldValue {
    /// Checks a value typed by the resident on the command line.
    pub(super) fn from_text(field: ProfileField, text: &str) -> Option<FieldValue> {
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
            ProfileField::Protocol => Protocol::from_code(text).map(FieldValue::Protocol),
            ProfileField::FolderId => FolderId::check(text).map(FieldValue::FolderId),
            ProfileField::AuthScheme => YandexAuth::from_code(text).map(FieldValue::AuthScheme),
            ProfileField::Scope => GigaChatScope::from_code(text).map(FieldValue::Scope),
            ProfileField::AuthUrl => BaseUrl::check(text).map(FieldValue::AuthUrl),
        }
    }

    /// Checks a value read from the file, where the TOML type must match too.
    pub(super) fn from_item(field: ProfileField, item: &Item) -> Option<FieldValue> {
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
            | ProfileField::Currency
            | ProfileField::Protocol
            | ProfileField::FolderId
            | ProfileField::AuthScheme
            | ProfileField::Scope
            | ProfileField::AuthUrl => item
                .as_str()
                .and_then(|text| FieldValue::from_text(field, text)),
        }
    }

    pub(super) fn to_toml(&self) -> toml_edit::Value {
        match self {
            FieldValue::Kind(kind) => kind.as_str().into(),
            FieldValue::BaseUrl(url) => url.as_str().into(),
            FieldValue::Model(model) => model.as_str().into(),
            FieldValue::SchemaMode(mode) => mode.code().into(),
            FieldValue::NeedsApiKey(flag) => (*flag).into(),
            FieldValue::Price(price) => (*price).into(),
            FieldValue::Currency(currency) => currency.as_str().into(),
            FieldValue::TimeoutSecs(secs) => i64::try_from(*secs).unwrap_or(i64::MAX).into(),
            FieldValue::Attempts(attempts) => i64::from(*attempts).into(),
            FieldValue::Protocol(protocol) => protocol.code().into(),
            FieldValue::FolderId(folder) => folder.as_str().into(),
            FieldValue::AuthScheme(auth) => auth.code().into(),
            FieldValue::Scope(scope) => scope.code().into(),
            FieldValue::AuthUrl(url) => url.as_str().into(),
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
            FieldValue::Protocol(protocol) => profile.protocol = Some(protocol),
            FieldValue::FolderId(folder) => profile.folder_id = Some(folder),
            FieldValue::AuthScheme(auth) => profile.auth_scheme = Some(auth),
            FieldValue::Scope(scope) => profile.scope = Some(scope),
            FieldValue::AuthUrl(url) => profile.auth_url = Some(url),
        }
    }
}

pub(super) fn apply_field(profile: &mut ProfileConfig, field: ProfileField, value: FieldValue) {
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
