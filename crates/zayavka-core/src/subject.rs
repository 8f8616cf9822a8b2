//! The kinds of common property a request can be about.
//!
//! The list is closed: a subject kind is what selects a legal module, so a kind that the
//! catalogue does not know cannot exist as a value.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A kind of common property of an apartment building that has its own legal module.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubjectKind {
    /// The building's entrance door, or a door of a common-use room serving several premises.
    CommonAreaEntranceDoor,
    /// Lighting installations inside common-use premises (stairwells, hallways).
    CommonAreaPremisesLighting,
    /// Cleaning of common-use premises.
    CommonAreaPremisesCleaning,
    /// The building's roof.
    CommonAreaRoof,
    /// Ventilation serving more than one premises.
    CommonAreaVentilation,
    /// An elevator, its shaft or its equipment.
    CommonAreaElevator,
}

impl SubjectKind {
    /// Every kind, in the order the user interface lists them.
    pub const ALL: [SubjectKind; 6] = [
        SubjectKind::CommonAreaEntranceDoor,
        SubjectKind::CommonAreaPremisesLighting,
        SubjectKind::CommonAreaPremisesCleaning,
        SubjectKind::CommonAreaRoof,
        SubjectKind::CommonAreaVentilation,
        SubjectKind::CommonAreaElevator,
    ];

    /// The stable machine name, as it appears in JSON and in file names.
    pub const fn as_str(self) -> &'static str {
        match self {
            SubjectKind::CommonAreaEntranceDoor => "common_area_entrance_door",
            SubjectKind::CommonAreaPremisesLighting => "common_area_premises_lighting",
            SubjectKind::CommonAreaPremisesCleaning => "common_area_premises_cleaning",
            SubjectKind::CommonAreaRoof => "common_area_roof",
            SubjectKind::CommonAreaVentilation => "common_area_ventilation",
            SubjectKind::CommonAreaElevator => "common_area_elevator",
        }
    }

    /// A short Russian name for the resident.
    pub const fn title_ru(self) -> &'static str {
        match self {
            SubjectKind::CommonAreaEntranceDoor => {
                "Входная дверь подъезда или дверь общего помещения"
            }
            SubjectKind::CommonAreaPremisesLighting => {
                "Освещение в подъезде и других общих помещениях"
            }
            SubjectKind::CommonAreaPremisesCleaning => "Уборка подъезда и других общих помещений",
            SubjectKind::CommonAreaRoof => "Крыша дома",
            SubjectKind::CommonAreaVentilation => "Общая вентиляция дома",
            SubjectKind::CommonAreaElevator => "Лифт",
        }
    }
}

impl fmt::Display for SubjectKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing an unknown subject kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown subject kind `{0}`")]
pub struct UnknownSubjectKind(pub String);

impl FromStr for SubjectKind {
    type Err = UnknownSubjectKind;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SubjectKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == s)
            .ok_or_else(|| UnknownSubjectKind(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machine_names_round_trip_through_str_and_serde() {
        for kind in SubjectKind::ALL {
            assert_eq!(kind.as_str().parse::<SubjectKind>(), Ok(kind));
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.as_str()));
        }
    }

    #[test]
    fn unknown_kind_is_refused() {
        assert!("common_area_yard".parse::<SubjectKind>().is_err());
    }
}
