//! «Статистика» in «Настройки» (issue 17, item 7): how the model behaved on this computer's
//! drafts — the same engine call as `zayavka stats`, over the whole time or the last days, with
//! one group per service profile. Computed from the drafts database alone: no network, nothing
//! sent anywhere.

use serde::Deserialize;
use zayavka_engine::{Period, Stats, StatsQuery};

use crate::error::CommandError;
use crate::state::AppState;

/// The longest period the panel asks for, in days: a year and a bit.
pub const MAX_DAYS: u32 = 400;

/// What the panel asks for.
#[derive(Debug, Clone, Copy, Default, Deserialize, ts_rs::TS)]
pub struct StatsRequest {
    /// Only the drafts of the last this many days, today included; all drafts when `None`.
    pub days: Option<u32>,
}

/// The statistics of the drafts on this computer, one group per profile.
pub fn stats_get(state: &AppState, request: StatsRequest) -> Result<Stats, CommandError> {
    let since = match request.days {
        None => None,
        Some(days @ 1..=MAX_DAYS) => {
            let today = state.today()?;
            today
                .checked_sub(jiff::Span::new().days(i64::from(days - 1)))
                .ok()
        }
        Some(_) => return Err(CommandError::invalid_argument("период")),
    };
    let query = StatsQuery {
        since,
        until: None,
        profile: None,
        period: Period::All,
        today: Some(state.today()?),
    };
    Ok(state.engine.stats(&query)?)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use zayavka_engine::{EnvironmentOverrides, MemoryStore, Paths, RawInput};

    use super::*;
    use crate::state::Environment;

    fn state(home: &std::path::Path) -> AppState {
        AppState::new(
            Paths::under(home),
            Arc::new(MemoryStore::new()),
            Environment::Fixed(EnvironmentOverrides::default()),
        )
    }

    #[test]
    fn the_panel_counts_this_computers_drafts_by_profile_over_the_asked_days() {
        let home = tempfile::tempdir().unwrap();
        let state = state(home.path());
        let empty = stats_get(&state, StatsRequest::default()).unwrap();
        assert_eq!(empty.total.drafts, 0);
        assert!(empty.groups.is_empty());

        let input = RawInput {
            description: Some(
                "В подъезде неделю не горит свет на лестнице между этажами.".to_owned(),
            ),
            ..RawInput::default()
        };
        crate::commands::draft_run(&state, input, "offline", true, &|_| {}).unwrap();
        for days in [None, Some(1), Some(30)] {
            let stats = stats_get(&state, StatsRequest { days }).unwrap();
            assert_eq!(stats.total.drafts, 1, "{days:?}");
            assert_eq!(stats.total.ready_without_model, 1);
            assert_eq!(stats.period, Period::All);
            assert_eq!(stats.groups.len(), 1);
            assert_eq!(stats.groups[0].profile, None);
        }
        let json =
            serde_json::to_value(stats_get(&state, StatsRequest::default()).unwrap()).unwrap();
        for key in ["total", "groups", "since", "period"] {
            assert!(json.get(key).is_some(), "{key}");
        }
    }

    #[test]
    fn a_period_the_panel_never_offers_is_refused() {
        let home = tempfile::tempdir().unwrap();
        let state = state(home.path());
        for days in [0, MAX_DAYS + 1] {
            let error = stats_get(&state, StatsRequest { days: Some(days) }).unwrap_err();
            let json = serde_json::to_value(&error).unwrap();
            assert_eq!(json["kind"], "invalid_argument", "{days}");
        }
    }
}
