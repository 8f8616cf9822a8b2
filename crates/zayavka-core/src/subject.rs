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
    /// The short name every screen shows: the form's choice, a draft's chip, the legal
    /// paragraph's status.
    pub const fn label_ru(self) -> &'static str {
        match self {
            SubjectKind::CommonAreaEntranceDoor => "Входная дверь или дверь общего помещения",
            SubjectKind::CommonAreaPremisesLighting => "Освещение в подъезде",
            SubjectKind::CommonAreaPremisesCleaning => "Уборка подъезда",
            SubjectKind::CommonAreaRoof => "Крыша",
            SubjectKind::CommonAreaVentilation => "Общая вентиляция",
            SubjectKind::CommonAreaElevator => "Лифт",
        }
    }

    /// What the kind covers and what it does not, in one line for the resident choosing it
    /// (LEGAL_FACTS.md's scope of the kind's module).
    pub const fn scope_ru(self) -> &'static str {
        match self {
            SubjectKind::CommonAreaEntranceDoor => {
                "Дверь подъезда или общего помещения, которым пользуются несколько квартир \
                 (подвал, колясочная, тамбур); не дверь квартиры."
            }
            SubjectKind::CommonAreaPremisesLighting => {
                "Свет на лестницах, в коридорах и холлах дома; не в квартире, не во дворе и не \
                 на фасаде."
            }
            SubjectKind::CommonAreaPremisesCleaning => {
                "Уборка лестниц, коридоров и других общих помещений; не двор, не контейнерная \
                 площадка и не вывоз мусора."
            }
            SubjectKind::CommonAreaRoof => {
                "Неисправность крыши, о которой вы знаете точно; мокрый потолок или пятно без \
                 известной причины сюда не относятся."
            }
            SubjectKind::CommonAreaVentilation => {
                "Вентиляция дома, общая для нескольких квартир, с решётками на кухне, в ванной \
                 и туалете; не вентилятор, поставленный вами, не дымоходы и не газ. Одной \
                 духоты или запаха мало."
            }
            SubjectKind::CommonAreaElevator => {
                "Лифт, его шахта или оборудование — и когда лифт ездит, но дёргается или \
                 скрежещет; не лифтовый холл, не подъёмная платформа и не эскалатор."
            }
        }
    }

    /// The kind's full Russian name, as a batch file's «Вид» column may also write it.
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
