//! Provider profiles: which OpenAI-compatible server to call, with which model and how.
//!
//! The configuration file is TOML:
//!
//! ```toml
//! active_profile = "work"
//!
//! [profiles.work]
//! kind = "openrouter"              # gigachat | yandex | ollama | lmstudio | llamacpp | custom
//!                                  # | openai | openrouter
//! model = "openai/gpt-4o-mini"     # every field but `kind` falls back to the kind's preset
//! schema_mode = "json_schema"      # json_schema | json_object
//! needs_api_key = true
//! price_input_per_million = 0.15
//! price_output_per_million = 0.6
//! currency = "USD"
//! timeout_secs = 60
//! attempts = 3
//!
//! [profiles.yandex]                # a built-in profile; only its folder has no default
//! folder_id = "b1g2abcdefghijklmnop"
//! protocol = "chat_completions"    # chat_completions | responses (also openai and custom)
//! auth_scheme = "api_key"          # api_key | iam_token
//! model = "yandexgpt-lite/latest"  # expands to gpt://<folder_id>/yandexgpt-lite/latest
//!
//! [profiles.gigachat]
//! scope = "GIGACHAT_API_PERS"      # GIGACHAT_API_PERS | GIGACHAT_API_B2B | GIGACHAT_API_CORP
//! auth_url = "https://ngw.devices.sberbank.ru:9443/api/v2/oauth"
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
//! - **Prices carry their currency.** `yandex` and `gigachat` start with dated ruble prices
//!   (the services publish them per 1,000 tokens; the profile keeps one unit, per million, for
//!   every kind), shown as defaults to check until the resident sets both prices.
//! - **A field of one service is refused on another** (`folder_id` on `openai`, `protocol` on
//!   `ollama`) when the profile is used, rather than silently ignored.
//! - **Completeness is checked when a profile is used**, not when the file is loaded, so
//!   `zayavka config set` can build a `custom` profile one field at a time.
//! - **Environment and command-line overrides** (`ZAYAVKA_BASE_URL`, `ZAYAVKA_MODEL`,
//!   `ZAYAVKA_SCHEMA_MODE`, `ZAYAVKA_TIMEOUT_SECS`, `ZAYAVKA_ATTEMPTS`) apply on top of the selected
//!   profile. With no profile selected, a base URL override alone defines an ad-hoc `custom`
//!   profile named `default`, which is how servers and CI run without a configuration file.

mod endpoint;
mod error;
mod file;
mod load;
mod resolve;
mod set;
#[cfg(test)]
mod test_support;
mod values;

pub use error::{ConfigError, ConfigErrorCode, SettingSource};
pub use file::Config;
pub use resolve::{Pricing, ProviderOverrides, ProviderSettings, ServiceAccess, resolve_provider};
pub use set::{SettingKey, set_value};
pub use values::{
    BaseUrl, FolderId, GigaChatScope, ProfileField, ProfileName, ProviderKind, YandexAuth,
    parse_attempts, parse_model, parse_timeout_secs,
};

/// How the server is asked for JSON that follows the response schema; the core owns the type
/// because it decides what the prompt carries in each mode.
pub use zayavka_core::SchemaMode;

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
