//! What an evaluation would send, and what it may cost at most, before anything is sent.
//!
//! Planning is the default of `zayavka eval`: it reads the cases, resolves each profile, and
//! prices every request as the batch does (ADR 14: every re-ask, the whole request counted byte
//! for byte, the longest answer allowed). A run is refused before its first request when one
//! profile's worst case passes the cap, or when a profile on another computer has no prices.

use std::num::{NonZeroU32, NonZeroUsize};
use std::path::PathBuf;

use serde::Serialize;
use zayavka_core::{SystemPrompt, find_prompt, prompt_registry, system_prompt};

use super::EvalError;
use super::case::{Case, load_cases};
use crate::batch::run::row_cost_estimate;
use crate::config::{ProfileName, ProviderOverrides};
use crate::draft::{EnvironmentOverrides, ModelSettings, SessionClients};
use crate::paths::Paths;
use crate::secrets::SecretStore;

/// The cost cap of a run unless it is raised on purpose, in each profile's own currency: a few
/// runs of the whole corpus with repeats on a paid service, and far below a surprise bill.
pub const DEFAULT_MAX_COST: f64 = 50.0;

/// How an evaluation is asked for.
#[derive(Debug, Clone)]
pub struct EvalSettings {
    /// The folder of case files.
    pub cases_dir: PathBuf,
    /// Only these cases, by id; empty for every case of the folder.
    pub case_ids: Vec<String>,
    /// How many times each case is sent to each profile.
    pub repeats: NonZeroU32,
    /// The profiles to compare; empty for the active one.
    pub profiles: Vec<ProfileName>,
    /// How many requests are in flight at once; `None` for the first profile's own default
    /// (one for a server on this computer and GigaChat's individuals, four otherwise).
    pub concurrency: Option<NonZeroUsize>,
    /// The registered system prompt to use; `None` for the current one.
    pub prompt_version: Option<String>,
    /// The cap on each profile's worst-case cost, in its currency.
    pub max_cost: f64,
    /// The front end's model clients.
    pub session: SessionClients,
}

/// What one profile's requests may cost.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EvalCost {
    /// A server on this computer with no prices: nothing to pay.
    Free,
    /// A service elsewhere with no prices: the cost cannot be bounded, so a run is refused.
    Unknown,
    /// At most this much, at the profile's prices.
    AtMost {
        /// The amount.
        amount: f64,
        /// The currency, when the profile names one.
        currency: Option<String>,
    },
}

/// One profile's line of the plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProfileCost {
    /// The profile.
    pub profile: String,
    /// The model it would ask.
    pub model: String,
    /// Its requests' worst-case cost.
    pub cost: EvalCost,
}

/// The plan as printed and as `--json` gives it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalPlan {
    /// How many cases.
    pub cases: u32,
    /// The profiles, in the order given.
    pub profiles: Vec<String>,
    /// Repeats of each case on each profile.
    pub repeats: u32,
    /// The requests a run sends at first (cases whose input passes, × profiles × repeats);
    /// a re-ask of a malformed answer adds one.
    pub requests: u32,
    /// The cap on each profile's worst-case cost, in its currency.
    pub max_cost: f64,
    /// The system prompt's version.
    pub prompt_version: String,
    /// The system prompt's SHA-256.
    pub prompt_sha256: String,
    /// Each profile's model and worst-case cost.
    pub cost: Vec<ProfileCost>,
    /// How many requests are in flight at once.
    pub concurrency: usize,
}

/// A plan with what a run needs to carry it out.
#[derive(Debug, Clone)]
pub struct PreparedEval {
    /// The plan.
    pub plan: EvalPlan,
    /// The cases, in id order.
    pub cases: Vec<Case>,
    /// Each profile's settings and key, in the order given.
    pub profiles: Vec<ModelSettings>,
    /// The system prompt.
    pub prompt: &'static SystemPrompt,
    /// The front end's model clients.
    pub session: SessionClients,
}

impl PreparedEval {
    /// Refuses a run whose worst case passes the cap, or whose cost cannot be bounded.
    pub fn check_cost_cap(&self) -> Result<(), EvalError> {
        for line in &self.plan.cost {
            match &line.cost {
                EvalCost::Free => {}
                EvalCost::Unknown => {
                    return Err(EvalError::NoPrices {
                        profile: line.profile.clone(),
                    });
                }
                EvalCost::AtMost { amount, currency } => {
                    if *amount > self.plan.max_cost {
                        let money =
                            |value: f64| crate::settings::money_text(value, currency.as_deref(), 2);
                        return Err(EvalError::OverCostCap {
                            profile: line.profile.clone(),
                            amount: money(*amount),
                            cap: money(self.plan.max_cost),
                        });
                    }
                }
            }
        }
        Ok(())
    }
}

/// The registered prompt of this version, or the current one.
pub(super) fn chosen_prompt(version: Option<&str>) -> Result<&'static SystemPrompt, EvalError> {
    match version {
        None => Ok(system_prompt()),
        Some(version) => find_prompt(version).ok_or_else(|| EvalError::UnknownPrompt {
            version: version.to_owned(),
            known: prompt_registry()
                .iter()
                .map(|prompt| prompt.version.to_owned())
                .collect(),
        }),
    }
}

/// Reads the cases, resolves the profiles and prices the run. Nothing is stored or sent.
pub fn prepare_eval(
    settings: &EvalSettings,
    paths: &Paths,
    secrets: &dyn SecretStore,
    environment: EnvironmentOverrides,
) -> Result<PreparedEval, EvalError> {
    let prompt = chosen_prompt(settings.prompt_version.as_deref())?;
    let cases = load_cases(&settings.cases_dir, &settings.case_ids)?;
    let names: Vec<Option<ProfileName>> = if settings.profiles.is_empty() {
        vec![None]
    } else {
        // A profile named twice is evaluated once.
        let mut unique: Vec<ProfileName> = Vec::new();
        for name in &settings.profiles {
            if !unique.contains(name) {
                unique.push(name.clone());
            }
        }
        unique.into_iter().map(Some).collect()
    };
    let mut profiles = Vec::new();
    for name in names {
        let overrides = ProviderOverrides {
            profile: name.clone(),
            ..ProviderOverrides::default()
        };
        let model = crate::draft::model_settings(&overrides, paths, secrets, environment.clone())
            .map_err(|failure| match name {
            None if failure.reason == zayavka_core::FailureReason::BadConfig
                && crate::config::Config::load(&paths.config_file())
                    .is_ok_and(|config| config.active_profile.is_none()) =>
            {
                EvalError::NoProfile
            }
            _ => EvalError::Settings {
                profile: name.map_or_else(
                    || "по умолчанию".to_owned(),
                    |name| name.as_str().to_owned(),
                ),
                message: failure.detail,
            },
        })?;
        profiles.push(model);
    }
    let reaching: Vec<zayavka_core::ResidentInput> = cases
        .iter()
        .filter_map(|case| case.checked_input().ok())
        .collect();
    let repeats = settings.repeats.get();
    let requests = reaching.len() as u32 * profiles.len() as u32 * repeats;
    let extra_prompt_bytes = prompt.text.len().saturating_sub(system_prompt().text.len()) as f64;
    let cost = profiles
        .iter()
        .map(|model| {
            let provider = &model.provider;
            let cost = match &provider.pricing {
                Some(pricing) => {
                    // The estimate renders the current prompt; a longer prompt chosen for
                    // this run adds its extra bytes to every call.
                    let calls = f64::from(model.max_reasks + 1);
                    let per_case: f64 = reaching
                        .iter()
                        .map(|input| {
                            row_cost_estimate(input, model, pricing)
                                + calls * extra_prompt_bytes * pricing.input_per_million / 1e6
                        })
                        .sum();
                    EvalCost::AtMost {
                        amount: per_case * f64::from(repeats),
                        currency: pricing.currency.clone(),
                    }
                }
                None if provider.kind.runs_locally() || provider.base_url.is_loopback() => {
                    EvalCost::Free
                }
                None => EvalCost::Unknown,
            };
            ProfileCost {
                profile: provider.profile.as_str().to_owned(),
                model: provider.model.clone(),
                cost,
            }
        })
        .collect();
    let concurrency = settings
        .concurrency
        .or_else(|| {
            profiles
                .first()
                .map(|model| model.provider.default_concurrency())
        })
        .unwrap_or(NonZeroUsize::MIN);
    let plan = EvalPlan {
        cases: cases.len() as u32,
        profiles: profiles
            .iter()
            .map(|model| model.provider.profile.as_str().to_owned())
            .collect(),
        repeats,
        requests,
        max_cost: settings.max_cost,
        prompt_version: prompt.version.to_owned(),
        prompt_sha256: prompt.sha256().to_owned(),
        cost,
        concurrency: concurrency.get(),
    };
    Ok(PreparedEval {
        plan,
        cases,
        profiles,
        prompt,
        session: settings.session.clone(),
    })
}
