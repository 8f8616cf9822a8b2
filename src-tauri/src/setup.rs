//! The first-run setup (issue 15): whether the app opens on it, its «Проверить подключение»,
//! and «Пока без модели», which must not bring the setup back on every start.
//!
//! The setup saves the resident's choices through the ordinary settings commands
//! ([`crate::commands::settings_set`], [`crate::commands::key_set`]); what it adds is only what
//! those do not do: a check of the provider alone (the doctor's other checks — the data folder,
//! the legal catalogue — say nothing about whether drafting with the chosen service will work),
//! and a durable record that the resident chose to go on without a model.

use serde::Serialize;
use zayavka_engine::{CheckName, CheckStatus};

use crate::error::CommandError;
use crate::state::AppState;
use crate::view::CheckView;

/// The marker «Пока без модели» leaves in the configuration folder (the engine's).
pub use zayavka_engine::SETUP_SKIPPED_MARKER as SKIP_MARKER;

/// Remembers «Пока без модели» durably: the marker is written whole, in the configuration
/// folder, so that the setup does not come back on the next start. Writing it again is harmless.
pub fn setup_skip(state: &AppState) -> Result<(), CommandError> {
    Ok(state.engine.skip_setup()?)
}

/// What «Проверить подключение» on the setup screen receives.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct SetupCheckView {
    /// Whether drafting with the model will work: the service answered, the key (when one is
    /// needed) was accepted, and no check found a problem.
    pub ready: bool,
    /// The provider's checks in the order they ran, each with its Russian message.
    pub checks: Vec<CheckView>,
}

/// The provider's checks only — the key, the connection (with GigaChat's token exchange) and
/// one tiny structured call — over what is saved now.
pub fn setup_check(state: &AppState) -> Result<SetupCheckView, CommandError> {
    let environment = state.environment(false)?;
    let cancel = zayavka_engine::CancellationToken::new();
    let checks = tauri::async_runtime::block_on(state.engine.provider_checks(environment, &cancel));
    // A provider that is not chosen is only a warning for the doctor (drafting without a model
    // works); for the setup it means the model will not be used, so it is not ready.
    let reached = checks
        .iter()
        .any(|check| check.name == CheckName::Provider && check.status == CheckStatus::Ok);
    let ready = reached
        && checks
            .iter()
            .all(|check| check.status != CheckStatus::Problem);
    Ok(SetupCheckView {
        ready,
        checks: checks.into_iter().map(Into::into).collect(),
    })
}
