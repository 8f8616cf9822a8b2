//! The program's own notes on the resident's text (WRITING_RULES 15, issue 36): what code can
//! see, said by code, the same every time, apart from the model's warnings.
//!
//! - A relative time word («вчера», «сегодня», «на прошлой неделе») reads wrong on the day the
//!   request is filed: the note names the word, the day the draft was made and, where the word
//!   fixes one, the date it meant.
//! - A request with no place at all — no `location`, and no entrance, floor, flat, yard or
//!   other place in the text — is hard for the company to act on.
//!
//! Notes never block a request and never change its text; they are not part of the request
//! either, so a stored request replays byte for byte whatever day it is opened on.

use jiff::ToSpan;
use jiff::civil::Date;
use serde::Serialize;
use zayavka_codes::stable_codes;

use crate::faithfulness::{fold, shown_words, words};
use crate::input::ResidentInput;

stable_codes! {
    /// What a note is about.
    #[non_exhaustive]
    pub enum NoteKind {
        /// A relative time word that reads wrong on the day the request is filed.
        RelativeDate => "relative_date",
        /// No place at all.
        NoPlace => "no_place",
    }
}

/// One note of the program's on the resident's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ResidentNote {
    kind: NoteKind,
    words: Vec<String>,
    message: String,
}

impl ResidentNote {
    /// What the note is about.
    pub fn kind(&self) -> NoteKind {
        self.kind
    }

    /// The resident's words it is about, as typed (empty for a missing place).
    pub fn words(&self) -> &[String] {
        &self.words
    }

    /// The note in Russian: what the program saw and what to do.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// A relative time expression: its words (folded) and what it meant on the day of the draft.
struct Relative {
    words: &'static [&'static str],
    meant: Meant,
}

/// What a relative expression meant on the day the draft was made.
#[derive(Clone, Copy)]
enum Meant {
    /// That many days before.
    DaysBefore(i64),
    /// The week before the draft's week, Monday to Sunday.
    LastWeek,
    /// The draft's own week, Monday to Sunday.
    ThisWeek,
    /// The month before the draft's.
    LastMonth,
    /// The draft's own month.
    ThisMonth,
    /// No one date («на днях»): only the draft's day is named.
    Unknown,
}

/// The relative expressions looked for, longest first within a start word, each matched as
/// whole folded words.
const RELATIVE: &[Relative] = &[
    Relative {
        words: &["позавчера"],
        meant: Meant::DaysBefore(2),
    },
    Relative {
        words: &["позавчерашнего"],
        meant: Meant::DaysBefore(2),
    },
    Relative {
        words: &["вчера"],
        meant: Meant::DaysBefore(1),
    },
    Relative {
        words: &["вчерашнего"],
        meant: Meant::DaysBefore(1),
    },
    Relative {
        words: &["вчерашний"],
        meant: Meant::DaysBefore(1),
    },
    Relative {
        words: &["вчерашнему"],
        meant: Meant::DaysBefore(1),
    },
    Relative {
        words: &["вчерашней"],
        meant: Meant::DaysBefore(1),
    },
    Relative {
        words: &["позавчерашней"],
        meant: Meant::DaysBefore(2),
    },
    Relative {
        words: &["сегодняшней"],
        meant: Meant::DaysBefore(0),
    },
    Relative {
        words: &["сегодня"],
        meant: Meant::DaysBefore(0),
    },
    Relative {
        words: &["сегодняшнего"],
        meant: Meant::DaysBefore(0),
    },
    Relative {
        words: &["сегодняшний"],
        meant: Meant::DaysBefore(0),
    },
    Relative {
        words: &["на", "прошлой", "неделе"],
        meant: Meant::LastWeek,
    },
    Relative {
        words: &["с", "прошлой", "недели"],
        meant: Meant::LastWeek,
    },
    Relative {
        words: &["на", "этой", "неделе"],
        meant: Meant::ThisWeek,
    },
    Relative {
        words: &["с", "этой", "недели"],
        meant: Meant::ThisWeek,
    },
    Relative {
        words: &["в", "прошлом", "месяце"],
        meant: Meant::LastMonth,
    },
    Relative {
        words: &["с", "прошлого", "месяца"],
        meant: Meant::LastMonth,
    },
    Relative {
        words: &["в", "этом", "месяце"],
        meant: Meant::ThisMonth,
    },
    Relative {
        words: &["с", "этого", "месяца"],
        meant: Meant::ThisMonth,
    },
    Relative {
        words: &["на", "днях"],
        meant: Meant::Unknown,
    },
    Relative {
        words: &["в", "прошлые", "выходные"],
        meant: Meant::Unknown,
    },
    Relative {
        words: &["в", "эти", "выходные"],
        meant: Meant::Unknown,
    },
];

/// Word starts that name a place a company can find: an entrance, a floor, a flat, the yard,
/// a common room. A text with none of them and no `location` has no place at all.
const PLACE_STARTS: &[&str] = &[
    "подъезд",
    "парадн",
    "этаж",
    "квартир",
    "двор",
    "лестниц",
    "площадк",
    "холл",
    "подвал",
    "чердак",
    "крыш",
    "кровл",
    "тамбур",
    "крыльц",
    "колясочн",
    "коридор",
    "корпус",
    "секци",
    "мусоропровод",
    "козыр",
    "фасад",
    "техэтаж",
    "улиц",
    "парковк",
    "детск",
    "контейнерн",
];

/// Whole words that name a place: the building itself («дом 12», «у дома») and a flat's
/// abbreviation («кв. 5»). A lift alone is no place: a building may have several.
const PLACE_WORDS: &[&str] = &[
    "дом",
    "дома",
    "доме",
    "дому",
    "домом",
    "здание",
    "здании",
    "кв",
];

/// The notes on `input` for a draft made on `drafted_on`. `date_ru` words a date as the
/// documents do («7 декабря 2026 г.»; the document crate's, which this crate may not name).
pub fn resident_notes(
    input: &ResidentInput,
    drafted_on: Date,
    date_ru: fn(Date) -> String,
) -> Vec<ResidentNote> {
    let mut notes = Vec::new();
    let fields = [
        Some(input.description()),
        input.location(),
        input.consequences(),
        input.desired_actions(),
    ];
    let mut seen: Vec<&'static [&'static str]> = Vec::new();
    for text in fields.into_iter().flatten() {
        let shown = shown_words(text);
        let folded: Vec<String> = shown.iter().map(|word| fold(word)).collect();
        let mut at = 0;
        while at < folded.len() {
            let found = RELATIVE.iter().find(|relative| {
                folded.len() - at >= relative.words.len()
                    && relative
                        .words
                        .iter()
                        .zip(&folded[at..])
                        .all(|(want, have)| *want == have)
            });
            let Some(relative) = found else {
                at += 1;
                continue;
            };
            let typed = shown[at..at + relative.words.len()].join(" ");
            at += relative.words.len();
            if seen.contains(&relative.words) {
                continue;
            }
            seen.push(relative.words);
            notes.push(relative_note(&typed, relative.meant, drafted_on, date_ru));
        }
    }
    if input.location().is_none() && !names_a_place(input) {
        notes.push(ResidentNote {
            kind: NoteKind::NoPlace,
            words: Vec::new(),
            message: "Не указано, где проблема. Добавьте место — подъезд, этаж, квартиру или \
                      двор: так управляющей организации будет проще её найти."
                .to_owned(),
        });
    }
    notes
}

fn relative_note(
    typed: &str,
    meant: Meant,
    drafted_on: Date,
    date_ru: fn(Date) -> String,
) -> ResidentNote {
    let drafted = date_ru(drafted_on);
    let instead = match meant {
        Meant::DaysBefore(days) => {
            let day = drafted_on.checked_sub(days.days()).unwrap_or(drafted_on);
            // The plain word, whatever form was typed: «со вчерашнего дня» meant yesterday.
            let when = match days {
                0 => "сегодня",
                1 => "вчера",
                _ => "позавчера",
            };
            format!("если это было {when}, напишите «{}»", date_ru(day))
        }
        Meant::LastWeek | Meant::ThisWeek => {
            let monday = drafted_on
                .checked_sub(i64::from(drafted_on.weekday().to_monday_zero_offset()).days())
                .unwrap_or(drafted_on);
            let monday = match meant {
                Meant::LastWeek => monday.checked_sub(7.days()).unwrap_or(monday),
                _ => monday,
            };
            let sunday = monday.checked_add(6.days()).unwrap_or(monday);
            format!(
                "напишите даты, например «с {} по {}»",
                date_ru(monday),
                date_ru(sunday)
            )
        }
        Meant::LastMonth | Meant::ThisMonth => {
            let first = drafted_on.first_of_month();
            let month = match meant {
                Meant::LastMonth => first.checked_sub(1.month()).unwrap_or(first),
                _ => first,
            };
            format!("напишите месяц, например «{}»", month_ru(month))
        }
        Meant::Unknown => "напишите дату".to_owned(),
    };
    ResidentNote {
        kind: NoteKind::RelativeDate,
        words: vec![typed.to_owned()],
        message: format!(
            "В тексте есть «{typed}»: в день подачи это будет означать другое время. Черновик \
             составлен {drafted}; {instead}."
        ),
    }
}

/// «в декабре 2026 г.»: a month in the prepositional case, which a date's wording («1
/// декабря») does not give.
fn month_ru(first: Date) -> String {
    const MONTHS: [&str; 12] = [
        "январе",
        "феврале",
        "марте",
        "апреле",
        "мае",
        "июне",
        "июле",
        "августе",
        "сентябре",
        "октябре",
        "ноябре",
        "декабре",
    ];
    format!(
        "в {} {} г.",
        MONTHS[usize::from(first.month().unsigned_abs()) - 1],
        first.year()
    )
}

/// Whether the resident's text names a place anywhere.
fn names_a_place(input: &ResidentInput) -> bool {
    let fields = [
        Some(input.description()),
        input.consequences(),
        input.desired_actions(),
    ];
    fields.into_iter().flatten().any(|text| {
        words(text).iter().map(|word| fold(word)).any(|word| {
            PLACE_WORDS.contains(&word.as_str())
                || PLACE_STARTS.iter().any(|start| word.starts_with(start))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::RawInput;
    use jiff::civil::date;

    use crate::date_ru_for_tests as date_ru;

    fn notes(description: &str, location: Option<&str>) -> Vec<ResidentNote> {
        let input = ResidentInput::parse(&RawInput {
            description: Some(description.to_owned()),
            location: location.map(str::to_owned),
            ..RawInput::default()
        })
        .unwrap();
        // A Monday: 7 December 2026.
        resident_notes(&input, date(2026, 12, 7), date_ru)
    }

    fn codes(notes: &[ResidentNote]) -> Vec<(&'static str, Vec<String>)> {
        notes
            .iter()
            .map(|note| (note.kind().code(), note.words().to_vec()))
            .collect()
    }

    /// A description, its location, and the notes expected: each a kind and its words.
    type Row = (
        &'static str,
        Option<&'static str>,
        &'static [(&'static str, &'static [&'static str])],
    );

    /// The table of issue 36: relative dates and places, with and without.
    #[test]
    fn relative_dates_and_a_missing_place_are_noted_and_nothing_else() {
        let table: [Row; 14] = [
            ("В подъезде неделю не горит свет на лестнице.", None, &[]),
            ("Не горит свет на лестнице.", Some("Подъезд 2"), &[]),
            (
                "Вчера вечером на 3 этаже погас свет.",
                None,
                &[("relative_date", &["Вчера"])],
            ),
            (
                "Со вчерашнего дня в подъезде разбито окно.",
                None,
                &[("relative_date", &["вчерашнего"])],
            ),
            (
                "Сегодня с утра капает с потолка на площадке.",
                None,
                &[("relative_date", &["Сегодня"])],
            ),
            (
                "Позавчера и вчера не работал лифт в подъезде 1.",
                None,
                &[
                    ("relative_date", &["Позавчера"]),
                    ("relative_date", &["вчера"]),
                ],
            ),
            (
                "На прошлой неделе перегорели лампы, сегодня темно на этаже.",
                None,
                &[
                    ("relative_date", &["На прошлой неделе"]),
                    ("relative_date", &["сегодня"]),
                ],
            ),
            (
                "В прошлом месяце во дворе сломали качели.",
                None,
                &[("relative_date", &["В прошлом месяце"])],
            ),
            (
                "На днях у мусоропровода рассыпали мусор.",
                None,
                &[("relative_date", &["На днях"])],
            ),
            (
                "Опять застревает лифт, вчера ждали диспетчера полчаса.",
                None,
                &[("relative_date", &["вчера"]), ("no_place", &[])],
            ),
            (
                "Не горит свет, темно, ничего не видно вечером.",
                None,
                &[("no_place", &[])],
            ),
            ("Возле дома 12 не убран снег.", None, &[]),
            ("Течёт батарея в кв. 5.", None, &[]),
            // Words that only look like the listed ones are no relative dates.
            (
                "Сегодняшнее состояние двери: петли сломаны, дверь подъезда не закрывается.",
                None,
                &[],
            ),
        ];
        for (description, location, expected) in table {
            let found = notes(description, location);
            let expected: Vec<(&str, Vec<String>)> = expected
                .iter()
                .map(|(code, words)| (*code, words.iter().map(|w| (*w).to_owned()).collect()))
                .collect();
            assert_eq!(codes(&found), expected, "{description}");
        }
    }

    #[test]
    fn a_relative_date_note_offers_the_date_it_meant() {
        let yesterday = notes("Вчера вечером на 3 этаже погас свет.", None);
        assert_eq!(
            yesterday[0].message(),
            "В тексте есть «Вчера»: в день подачи это будет означать другое время. Черновик \
             составлен 7 декабря 2026 г.; если это было вчера, напишите «6 декабря 2026 г.»."
        );
        let since = notes("Со вчерашнего дня в подъезде разбито окно.", None);
        assert!(
            since[0]
                .message()
                .ends_with("если это было вчера, напишите «6 декабря 2026 г.»."),
            "{}",
            since[0].message()
        );
        let week = notes("На прошлой неделе перегорели лампы на этаже.", None);
        assert!(
            week[0]
                .message()
                .ends_with("напишите даты, например «с 30 ноября 2026 г. по 6 декабря 2026 г.»."),
            "{}",
            week[0].message()
        );
        let month = notes("В прошлом месяце во дворе сломали качели.", None);
        assert!(
            month[0]
                .message()
                .ends_with("напишите месяц, например «в ноябре 2026 г.»."),
            "{}",
            month[0].message()
        );
        let place = notes("Не горит свет, темно, ничего не видно вечером.", None);
        assert!(place[0].message().starts_with("Не указано, где проблема."));
    }

    #[test]
    fn codes_are_unique_and_round_trip() {
        zayavka_codes::check_stable_codes::<NoteKind>().unwrap();
    }
}
