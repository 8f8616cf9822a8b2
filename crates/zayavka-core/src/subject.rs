//! The kinds of common property a request can be about.
//!
//! The list is closed: a subject kind is what selects a legal module, so a kind that the
//! catalogue does not know cannot exist as a value.

use zayavka_codes::stable_codes;

stable_codes! {
    /// A kind of common property of an apartment building that has its own legal module.
    pub enum SubjectKind {
        /// The building's entrance door, or a door of a common-use room serving several premises.
        CommonAreaEntranceDoor => "common_area_entrance_door",
        /// Lighting installations inside common-use premises (stairwells, hallways).
        CommonAreaPremisesLighting => "common_area_premises_lighting",
        /// Cleaning of common-use premises.
        CommonAreaPremisesCleaning => "common_area_premises_cleaning",
        /// The building's roof.
        CommonAreaRoof => "common_area_roof",
        /// Ventilation serving more than one premises.
        CommonAreaVentilation => "common_area_ventilation",
        /// An elevator, its shaft or its equipment.
        CommonAreaElevator => "common_area_elevator",
    }
}

impl SubjectKind {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machine_names_round_trip_through_str_and_serde() {
        for &kind in SubjectKind::ALL {
            assert_eq!(kind.code().parse::<SubjectKind>(), Ok(kind));
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.code()));
        }
    }

    #[test]
    fn the_codes_pass_the_shared_check() {
        zayavka_codes::check_stable_codes::<SubjectKind>().unwrap();
    }

    #[test]
    fn unknown_kind_is_refused() {
        assert!("common_area_yard".parse::<SubjectKind>().is_err());
    }
}
