//! «Настройки» as the page receives it (`SettingsView`): the presets in the
//! engine's order and words, the provider in use, the chosen profile's service settings as the
//! file holds them, and the key's state — never the key itself.

use serde::Serialize;
use zayavka_engine::{
    ApiKeySource, Budget, Config, ConfigError, Engine, EnvironmentOverrides, ProfileName,
    ProviderKind, ProviderSettings, StoredKeyState, full_sentence, optional_key_ru,
};

/// A provider preset, with one line about privacy and cost, in the engine's order and words.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct PresetView {
    /// The profile name.
    pub name: &'static str,
    /// The product's name.
    pub label: &'static str,
    /// The default server.
    pub base_url: &'static str,
    /// The default model.
    pub model: &'static str,
    /// Whether a key is needed.
    pub needs_api_key: bool,
    /// Whether the model runs on this computer.
    pub local: bool,
    /// Where the description goes.
    pub privacy_note: &'static str,
    /// What it costs.
    pub cost_note: &'static str,
}

impl From<ProviderKind> for PresetView {
    fn from(kind: ProviderKind) -> PresetView {
        let preset = kind.preset();
        PresetView {
            name: kind.as_str(),
            label: kind.title(),
            base_url: preset.base_url.unwrap_or(""),
            model: preset.model.unwrap_or(""),
            needs_api_key: preset.needs_api_key,
            local: kind.runs_locally(),
            privacy_note: kind.privacy_note_ru(),
            cost_note: kind.cost_note_ru(),
        }
    }
}

/// The provider in use.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct EffectiveView {
    /// The profile.
    pub profile: String,
    /// The server.
    pub base_url: String,
    /// The model.
    pub model: String,
    /// `json_schema`, `json_object` or `function_call`.
    #[ts(as = "zayavka_engine::SchemaMode")]
    pub schema_mode: &'static str,
    /// Per attempt.
    pub timeout_secs: u64,
    /// Attempts per call.
    pub attempts: u32,
}

impl From<&ProviderSettings> for EffectiveView {
    /// The provider's settings, with the engine's defaults where the profile leaves them.
    fn from(provider: &ProviderSettings) -> EffectiveView {
        let budget = Budget::default();
        EffectiveView {
            profile: provider.profile.as_str().to_owned(),
            base_url: provider.base_url.as_str().to_owned(),
            model: provider.model.clone(),
            schema_mode: provider.schema_mode.code(),
            timeout_secs: provider
                .timeout_secs
                .unwrap_or(budget.attempt_timeout.as_secs()),
            attempts: provider.attempts.unwrap_or(budget.max_attempts),
        }
    }
}

/// The key, never the key itself.
#[derive(Debug, Serialize, PartialEq, Eq, ts_rs::TS)]
pub struct KeyStatusView {
    /// The profile the key belongs to.
    pub profile: Option<String>,
    /// Whether a key is usable.
    pub stored: bool,
    /// `keyring` or `environment`.
    #[ts(as = "Option<zayavka_engine::ApiKeySource>")]
    pub source: Option<&'static str>,
    /// Whether the keyring answers.
    pub keyring_available: bool,
    /// For a profile that does not require a key (a local or custom server), what happens to
    /// one: sent when stored or given, and only then (issue 14), in the engine's words. Absent
    /// when the profile requires a key.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub optional_note: Option<String>,
}

impl KeyStatusView {
    /// The key of `profile` (of no profile: only the environment's key counts), with
    /// `environment_key` saying whether `ZAYAVKA_API_KEY` gives one.
    pub fn read(
        engine: &Engine,
        profile: Option<&ProfileName>,
        environment_key: bool,
    ) -> KeyStatusView {
        let Some(profile) = profile else {
            return KeyStatusView {
                profile: None,
                stored: environment_key,
                source: environment_key.then_some("environment"),
                keyring_available: true,
                optional_note: None,
            };
        };
        let status = engine.key_status(profile, environment_key);
        let unreachable = matches!(status.stored, StoredKeyState::Unreachable { .. });
        // A complete profile that does not require a key.
        let optional = engine
            .config()
            .ok()
            .and_then(|config| config.profile_settings(profile).ok())
            .is_some_and(|settings| !settings.needs_api_key);
        KeyStatusView {
            profile: Some(profile.as_str().to_owned()),
            stored: status.usable_source().is_some(),
            source: status.usable_source().map(|source| match source {
                ApiKeySource::Environment => "environment",
                ApiKeySource::Keyring => "keyring",
            }),
            keyring_available: !unreachable,
            optional_note: optional.then(|| optional_key_ru(status.usable_source(), unreachable)),
        }
    }
}

/// Everything the settings screen shows.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct SettingsView {
    /// The chosen profile.
    pub active_profile: Option<String>,
    /// Every preset.
    pub presets: Vec<PresetView>,
    /// The provider in use, when it is complete.
    pub effective: Option<EffectiveView>,
    /// Why the chosen provider is not complete.
    pub problem: Option<String>,
    /// The key.
    pub key: KeyStatusView,
    /// The service settings written in the chosen profile (issue 15), `null` where the file
    /// leaves the preset's default: the page shows the default and sends only what changed.
    pub service: ServiceFieldsView,
    /// Whether the page opens on the first-run setup (issue 15): no service chosen, none given
    /// by a `ZAYAVKA_*` variable, and «Пока без модели» not chosen before
    /// ([`crate::setup::first_run`]).
    pub first_run: bool,
}

impl SettingsView {
    /// The settings as they are now, with the environment's overrides and key.
    pub fn read(
        engine: &Engine,
        environment: &EnvironmentOverrides,
    ) -> Result<SettingsView, ConfigError> {
        let environment_key = environment.api_key.is_some();
        let overview = engine.settings_overview(&environment.provider, environment_key)?;
        // The key of the provider in use, else of the chosen profile.
        let key_profile = overview
            .provider
            .as_ref()
            .map(|provider| provider.profile.clone())
            .or_else(|| overview.active_profile.clone());
        let service = match (&overview.active_profile, engine.config()) {
            (Some(profile), Ok(config)) => ServiceFieldsView::of(&config, profile),
            _ => ServiceFieldsView::default(),
        };
        Ok(SettingsView {
            active_profile: overview
                .active_profile
                .as_ref()
                .map(|profile| profile.as_str().to_owned()),
            presets: ProviderKind::ALL
                .into_iter()
                .map(PresetView::from)
                .collect(),
            effective: overview.provider.as_ref().map(EffectiveView::from),
            problem: overview
                .provider_error
                .as_ref()
                .map(|error| full_sentence(&error.message_ru())),
            key: KeyStatusView::read(engine, key_profile.as_ref(), environment_key),
            service,
            first_run: engine.first_run(overview.active_profile.is_some(), &environment.provider),
        })
    }
}

/// The service settings of the chosen profile as written in the file.
#[derive(Debug, Serialize, Default, PartialEq, Eq, ts_rs::TS)]
pub struct ServiceFieldsView {
    /// The kind of the chosen profile (`gigachat`, `yandex`, …), when known.
    pub kind: Option<&'static str>,
    /// The Yandex Cloud folder (yandex).
    pub folder_id: Option<String>,
    /// Whose GigaChat access the key opens (gigachat).
    pub scope: Option<&'static str>,
    /// `chat_completions` or `responses` (yandex, openai, custom).
    pub protocol: Option<&'static str>,
}

impl ServiceFieldsView {
    /// What `config` writes for `profile`.
    pub fn of(config: &Config, profile: &ProfileName) -> ServiceFieldsView {
        let written = config.profiles.get(profile);
        ServiceFieldsView {
            kind: config.profile_kind(profile).map(ProviderKind::as_str),
            folder_id: written
                .and_then(|w| w.folder_id.as_ref())
                .map(|folder| folder.as_str().to_owned()),
            scope: written.and_then(|w| w.scope).map(|scope| scope.code()),
            protocol: written
                .and_then(|w| w.protocol)
                .map(|protocol| protocol.code()),
        }
    }
}
