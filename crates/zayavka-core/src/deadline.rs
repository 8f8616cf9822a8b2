//! Answer deadlines: by when the addressee of a filed request must answer it (issue 30, ADR 34).
//!
//! A deadline is data and arithmetic, never a guess. The terms (how many days, counted how, from
//! which day) and the Russian production calendar (which weekdays are not working days, which
//! weekend days are) are maintainers' data in `legal_modules/deadlines/`, embedded at compile
//! time and reviewed like the legal modules: each file carries its sources, `verified_at` and a
//! review status. A date the calendar does not cover gives no deadline, with the reason
//! ([`NoDeadline`]), rather than a date counted as if every weekday were a working day.
//!
//! Counting follows the Civil Code: a term starts on the day after the event (ст. 191), and a
//! calendar-day term whose last day is not a working day ends on the next working day
//! (ст. 193). A working-day term counts working days from the day after receipt. This module
//! reads no clock: the caller passes every date.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use jiff::ToSpan;
use jiff::civil::{Date, Weekday};
use serde::{Deserialize, Serialize};
use zayavka_codes::stable_codes;

use crate::legal::{
    LegalCatalogueError, LegalSource, Review, ReviewStatus, check_review, civil_date, parse_toml,
    require_text,
};

/// The terms file's name, for errors.
const TERMS_FILE: &str = "terms.toml";

/// The terms, embedded so that the binary counts with exactly the data it was tested with.
const EMBEDDED_TERMS: &str = include_str!("../../../legal_modules/deadlines/terms.toml");

/// The calendar years, embedded by name. `include_str!` needs literal paths, so this list repeats
/// the folder's files; the test `embedded_calendar_is_every_file_in_the_folder` holds them
/// equal.
const EMBEDDED_CALENDARS: [(&str, &str); 5] = [
    (
        "calendar-2023.toml",
        include_str!("../../../legal_modules/deadlines/calendar-2023.toml"),
    ),
    (
        "calendar-2024.toml",
        include_str!("../../../legal_modules/deadlines/calendar-2024.toml"),
    ),
    (
        "calendar-2025.toml",
        include_str!("../../../legal_modules/deadlines/calendar-2025.toml"),
    ),
    (
        "calendar-2026.toml",
        include_str!("../../../legal_modules/deadlines/calendar-2026.toml"),
    ),
    (
        "calendar-2027.toml",
        include_str!("../../../legal_modules/deadlines/calendar-2027.toml"),
    ),
];

/// The embedded data, parsed on first use. Parsing cannot fail at run time because the test
/// `embedded_data_parses` parses the very same bytes.
static EMBEDDED: LazyLock<Deadlines> =
    LazyLock::new(
        || match parse_deadlines(EMBEDDED_TERMS, &EMBEDDED_CALENDARS) {
            Ok(deadlines) => deadlines,
            Err(error) => panic!("the embedded deadline data is invalid: {error}"),
        },
    );

/// The answer terms and the production calendar embedded in this build.
///
/// # Panics
///
/// Only if the embedded data is invalid, which the unit tests of this module rule out for every
/// build that passed them.
pub fn deadlines() -> &'static Deadlines {
    &EMBEDDED
}

stable_codes! {
    /// Whose answer a term is for: the addressee of a filed request.
    pub enum TermId {
        /// The management company (or the ТСЖ, ЖСК), answering a resident's request.
        ManagementCompany => "management_company",
        /// The regional state housing inspectorate, answering a complaint.
        Inspectorate => "inspectorate",
    }
}

impl TermId {
    /// Whose answer it is, in Russian, after «срок ответа» (issue 38): never the code.
    pub fn name_ru(self) -> &'static str {
        match self {
            TermId::ManagementCompany => "управляющей организации",
            TermId::Inspectorate => "жилищной инспекции",
        }
    }
}

stable_codes! {
    /// How a term's days are counted.
    pub enum TermCount {
        /// Working days by the production calendar, from the day after receipt.
        WorkingDays => "working_days",
        /// Calendar days, from the day after the last day allowed for registration; a last day
        /// that is not a working day moves to the next working day.
        CalendarDays => "calendar_days",
    }
}

/// One answer term, as the maintainers recorded it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AnswerTerm {
    /// Whose answer the term is for.
    pub id: TermId,
    /// A Russian title for maintainers and for the provenance of a deadline.
    pub title: String,
    /// How the term is put to a resident, e.g. «10 рабочих дней со дня получения обращения».
    pub summary: String,
    /// The number of days.
    pub days: u16,
    /// How they are counted.
    pub count: TermCount,
    /// Days the addressee has to register the request before the term runs (0: it runs from
    /// receipt).
    pub registration_days: u16,
    /// The acts the term rests on; never empty.
    pub sources: Vec<LegalSource>,
    /// The day the term was last reviewed.
    pub verified_at: Date,
    /// The last day the term counts as current; after it, it needs another review.
    pub valid_through: Date,
    /// What has been checked against the official text and what is still waiting.
    pub review: Review,
}

/// One year of the production calendar: its exceptions to «Monday to Friday».
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CalendarYear {
    /// The year.
    pub year: i16,
    /// The weekdays that are not working days, each with why.
    pub days_off: BTreeMap<Date, String>,
    /// The Saturdays and Sundays that are working days, each with why.
    pub working_days: BTreeMap<Date, String>,
    /// The acts the year rests on; never empty.
    pub sources: Vec<LegalSource>,
    /// The day the year was last reviewed.
    pub verified_at: Date,
    /// What has been checked against the official text and what is still waiting.
    pub review: Review,
}

impl CalendarYear {
    /// Whether `date`, which lies in this year, is a working day.
    fn is_working_day(&self, date: Date) -> bool {
        if is_weekend(date) {
            self.working_days.contains_key(&date)
        } else {
            !self.days_off.contains_key(&date)
        }
    }
}

/// The validated terms and calendar years. The only way to obtain one is [`parse_deadlines`]
/// (or [`deadlines`]), so holding a value means every rule of the data holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deadlines {
    /// One term per [`TermId`], in [`TermId::ALL`] order.
    terms: Vec<AnswerTerm>,
    /// The calendar years, by year.
    years: BTreeMap<i16, CalendarYear>,
}

/// Why a deadline cannot be given. [`NoDeadline::message_ru`] says it to a resident.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NoDeadline {
    /// The count reaches a year the production calendar does not cover.
    #[error("the production calendar does not cover {year}")]
    CalendarMissing {
        /// The first year the count needed and the calendar lacks.
        year: i16,
    },
}

impl NoDeadline {
    /// The reason in Russian, for the resident: what is missing and what to do.
    pub fn message_ru(&self) -> String {
        match self {
            NoDeadline::CalendarMissing { year } => format!(
                "срок ответа не рассчитан: в программе нет производственного календаря на {year} \
                 год, а без него не узнать, какие дни рабочие. Календарь появится в обновлении \
                 программы; до тех пор срок можно посчитать по календарю на сайте Минтруда"
            ),
        }
    }
}

/// A deadline and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Deadline {
    /// The term it was counted by.
    pub term: TermId,
    /// The day the addressee received the request; the count starts the day after.
    pub received: Date,
    /// The last day for the answer.
    pub due: Date,
    /// The calendar years the count consulted, in order.
    pub calendar_years: Vec<i16>,
    /// Whether the term and every consulted calendar year are verified against the official
    /// texts; when not, the deadline is shown with a notice.
    pub verified: bool,
    /// The consulted years the data hold no calendar for yet, counted by the provisional
    /// calendar of the Labour Code alone ([`provisional_days_off`], issue 38): the deadline is
    /// then provisional, and said so wherever it appears.
    pub provisional_years: Vec<i16>,
}

impl Deadline {
    /// Why the date is provisional, in Russian, when it is: «срок предварительный:
    /// постановление о переносе выходных дней на 2028 год в программе ещё не учтено».
    pub fn provisional_ru(&self) -> Option<String> {
        let (first, rest) = self.provisional_years.split_first()?;
        let years = if rest.is_empty() {
            format!("{first} год")
        } else {
            let all: Vec<String> = self
                .provisional_years
                .iter()
                .map(ToString::to_string)
                .collect();
            format!("{} годы", all.join(" и "))
        };
        Some(format!(
            "срок предварительный: постановление о переносе выходных дней на {years} в \
             программе ещё не учтено"
        ))
    }
}

/// The non-working holidays of the Labour Code, art. 112, part 1: (month, day, name).
const HOLIDAYS: [(i8, i8, &str); 14] = [
    (1, 1, "Новогодние каникулы"),
    (1, 2, "Новогодние каникулы"),
    (1, 3, "Новогодние каникулы"),
    (1, 4, "Новогодние каникулы"),
    (1, 5, "Новогодние каникулы"),
    (1, 6, "Новогодние каникулы"),
    (1, 7, "Рождество Христово"),
    (1, 8, "Новогодние каникулы"),
    (2, 23, "День защитника Отечества"),
    (3, 8, "Международный женский день"),
    (5, 1, "Праздник Весны и Труда"),
    (5, 9, "День Победы"),
    (6, 12, "День России"),
    (11, 4, "День народного единства"),
];

/// The weekdays off of `year` that follow from the Labour Code alone (art. 112, issue 38): every
/// non-working holiday on a weekday, and for a holiday on a Saturday or a Sunday the next
/// working day after it — except the January holidays, whose weekend days the Government's
/// yearly decree moves to dates nobody knows in advance. The decree's transfers are the only
/// difference from a reviewed year (a test lists them for every year the data hold).
pub fn provisional_days_off(year: i16) -> BTreeMap<Date, String> {
    let mut days_off = BTreeMap::new();
    let holidays: Vec<(Date, &str)> = HOLIDAYS
        .iter()
        .filter_map(|(month, day, name)| Date::new(year, *month, *day).ok().map(|d| (d, *name)))
        .collect();
    let is_holiday = |date: Date| holidays.iter().any(|(holiday, _)| *holiday == date);
    for (date, name) in &holidays {
        if !is_weekend(*date) {
            days_off.insert(
                *date,
                format!("нерабочий праздничный день: {name} (ТК РФ, ст. 112, ч. 1)"),
            );
        }
    }
    for (date, name) in &holidays {
        if !is_weekend(*date) || date.month() == 1 {
            continue;
        }
        let mut moved = *date;
        loop {
            let Ok(next) = moved.tomorrow() else { break };
            moved = next;
            if !is_weekend(moved) && !is_holiday(moved) && !days_off.contains_key(&moved) {
                days_off.insert(
                    moved,
                    format!(
                        "выходной за праздник «{name}», пришедшийся на выходной день (ТК РФ, ст. \
                         112, ч. 2)"
                    ),
                );
                break;
            }
        }
    }
    days_off
}

impl Deadlines {
    /// The term for an addressee.
    pub fn term(&self, id: TermId) -> &AnswerTerm {
        self.terms
            .iter()
            .find(|term| term.id == id)
            .expect("parse_deadlines admits only data with a term for every TermId")
    }

    /// Every term, in [`TermId::ALL`] order.
    pub fn terms(&self) -> impl Iterator<Item = &AnswerTerm> {
        self.terms.iter()
    }

    /// Every calendar year, in order.
    pub fn calendar_years(&self) -> impl Iterator<Item = &CalendarYear> {
        self.years.values()
    }

    /// The calendar of `year`, if the data cover it.
    pub fn calendar_year(&self, year: i16) -> Option<&CalendarYear> {
        self.years.get(&year)
    }

    /// Whether `date` is a working day: by the reviewed calendar of its year, or, for a year
    /// the data do not hold yet, by the Labour Code's provisional one (issue 38).
    pub fn is_working_day(&self, date: Date) -> Result<bool, NoDeadline> {
        Ok(match self.years.get(&date.year()) {
            Some(calendar) => calendar.is_working_day(date),
            None => !is_weekend(date) && !provisional_days_off(date.year()).contains_key(&date),
        })
    }

    /// The last day for the answer to a request the addressee received on `received`.
    pub fn answer_due(&self, id: TermId, received: Date) -> Result<Deadline, NoDeadline> {
        let term = self.term(id);
        let mut years = Vec::new();
        let mut consult = |date: Date| -> Result<bool, NoDeadline> {
            let working = self.is_working_day(date)?;
            if years.last() != Some(&date.year()) {
                years.push(date.year());
            }
            Ok(working)
        };
        let due = match term.count {
            TermCount::WorkingDays => {
                let mut day = received;
                let mut counted = 0;
                while counted < term.days {
                    day = next_day(day)?;
                    if consult(day)? {
                        counted += 1;
                    }
                }
                day
            }
            TermCount::CalendarDays => {
                let days = i32::from(term.registration_days) + i32::from(term.days);
                let mut day =
                    received
                        .checked_add(days.days())
                        .map_err(|_| NoDeadline::CalendarMissing {
                            year: Date::MAX.year(),
                        })?;
                while !consult(day)? {
                    day = next_day(day)?;
                }
                day
            }
        };
        let verified = term.review.status == ReviewStatus::Verified
            && years.iter().all(|year| {
                self.years
                    .get(year)
                    .is_some_and(|calendar| calendar.review.status == ReviewStatus::Verified)
            });
        let provisional_years = years
            .iter()
            .copied()
            .filter(|year| !self.years.contains_key(year))
            .collect();
        Ok(Deadline {
            term: id,
            received,
            due,
            calendar_years: years,
            verified,
            provisional_years,
        })
    }

    /// The terms whose `valid_through` is before `today`: they need another review. A term is
    /// still valid on its `valid_through` date.
    pub fn terms_past_valid_through(&self, today: Date) -> Vec<&AnswerTerm> {
        self.terms
            .iter()
            .filter(|term| term.valid_through < today)
            .collect()
    }

    /// What a maintainer has not yet fully checked: the terms, then the calendar years, whose
    /// review status is not [`ReviewStatus::Verified`], each by a short Russian name.
    pub fn awaiting_verification(&self) -> Vec<String> {
        let terms = self
            .terms
            .iter()
            .filter(|term| term.review.status != ReviewStatus::Verified)
            .map(|term| format!("срок ответа {}", term.id.name_ru()));
        let years = self
            .years
            .values()
            .filter(|calendar| calendar.review.status != ReviewStatus::Verified)
            .map(|calendar| format!("производственный календарь {}", calendar.year));
        terms.chain(years).collect()
    }
}

/// The day after `date`, or the calendar's end.
fn next_day(date: Date) -> Result<Date, NoDeadline> {
    date.tomorrow()
        .map_err(|_| NoDeadline::CalendarMissing { year: date.year() })
}

/// Saturday or Sunday.
fn is_weekend(date: Date) -> bool {
    matches!(date.weekday(), Weekday::Saturday | Weekday::Sunday)
}

/// Why the deadline data were refused. Every variant names the file at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DeadlineDataError {
    /// A rule shared with the legal modules: TOML, an empty field, a date, the sources or the
    /// review.
    #[error(transparent)]
    Data(#[from] LegalCatalogueError),
    /// A term's `days` is zero.
    #[error("{TERMS_FILE}: the term `{id}` has no days")]
    ZeroDays {
        /// The term.
        id: TermId,
    },
    /// Two terms have the same id.
    #[error("{TERMS_FILE}: the term `{id}` is given twice")]
    DuplicateTerm {
        /// The repeated id.
        id: TermId,
    },
    /// A [`TermId`] has no term.
    #[error("{TERMS_FILE}: no term for `{id}`")]
    MissingTerm {
        /// The id without a term.
        id: TermId,
    },
    /// A calendar file is not named `calendar-YEAR.toml` after the year it holds.
    #[error("{file}: a calendar file must be named calendar-{year}.toml after its `year`")]
    CalendarFileName {
        /// The file.
        file: String,
        /// The year it holds.
        year: i16,
    },
    /// Two calendar files hold the same year.
    #[error("{file}: the year {year} is given twice")]
    DuplicateYear {
        /// The second file.
        file: String,
        /// The year.
        year: i16,
    },
    /// A date lies outside the file's year.
    #[error("{file}: {date} is not in the year {year}")]
    DateOutsideYear {
        /// The file.
        file: String,
        /// The date.
        date: Date,
        /// The file's year.
        year: i16,
    },
    /// A day off is a Saturday or a Sunday, which are days off anyway.
    #[error("{file}: {date} is listed as a day off but is a {weekday:?}")]
    DayOffOnWeekend {
        /// The file.
        file: String,
        /// The date.
        date: Date,
        /// Its weekday.
        weekday: Weekday,
    },
    /// A working day is a weekday, which is a working day anyway.
    #[error("{file}: {date} is listed as a working day but is a {weekday:?}")]
    WorkingDayOnWeekday {
        /// The file.
        file: String,
        /// The date.
        date: Date,
        /// Its weekday.
        weekday: Weekday,
    },
    /// A date is listed twice.
    #[error("{file}: {date} is listed twice")]
    DuplicateDate {
        /// The file.
        file: String,
        /// The date.
        date: Date,
    },
}

/// The terms file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTerms {
    terms: Vec<RawTerm>,
}

/// One term as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTerm {
    id: TermId,
    title: String,
    summary: String,
    days: u16,
    count: TermCount,
    registration_days: u16,
    sources: Vec<LegalSource>,
    verified_at: toml::value::Datetime,
    valid_through: toml::value::Datetime,
    review: Review,
}

/// A calendar year as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawYear {
    year: i16,
    days_off: Vec<RawDay>,
    working_days: Vec<RawDay>,
    verified_at: toml::value::Datetime,
    sources: Vec<LegalSource>,
    review: Review,
}

/// One listed day and why.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDay {
    date: toml::value::Datetime,
    why: String,
}

/// Parses and validates the deadline data: `terms` is `terms.toml`, `calendars` the calendar
/// files as `(file name, contents)`. The first rule that fails is returned; see
/// [`DeadlineDataError`] for the rules.
pub fn parse_deadlines(
    terms: &str,
    calendars: &[(&str, &str)],
) -> Result<Deadlines, DeadlineDataError> {
    let raw: RawTerms = parse_toml(TERMS_FILE, terms)?;
    let mut by_id = BTreeMap::new();
    for raw in raw.terms {
        let term = parse_term(raw)?;
        let id = term.id;
        if by_id.insert(id, term).is_some() {
            return Err(DeadlineDataError::DuplicateTerm { id });
        }
    }
    let mut terms = Vec::with_capacity(TermId::ALL.len());
    for &id in TermId::ALL {
        terms.push(
            by_id
                .remove(&id)
                .ok_or(DeadlineDataError::MissingTerm { id })?,
        );
    }

    let mut years = BTreeMap::new();
    for &(file, contents) in calendars {
        let calendar = parse_year(file, contents)?;
        let year = calendar.year;
        if years.insert(year, calendar).is_some() {
            return Err(DeadlineDataError::DuplicateYear {
                file: file.to_owned(),
                year,
            });
        }
    }
    Ok(Deadlines { terms, years })
}

/// Checks one term on its own.
fn parse_term(raw: RawTerm) -> Result<AnswerTerm, DeadlineDataError> {
    let file = TERMS_FILE;
    let field = |name: &str| format!("terms.{}.{name}", raw.id);
    require_text(file, &field("title"), &raw.title)?;
    require_text(file, &field("summary"), &raw.summary)?;
    if raw.days == 0 {
        return Err(DeadlineDataError::ZeroDays { id: raw.id });
    }
    let verified_at = civil_date(file, &field("verified_at"), &raw.verified_at)?;
    let valid_through = civil_date(file, &field("valid_through"), &raw.valid_through)?;
    if valid_through <= verified_at {
        return Err(LegalCatalogueError::ValidThroughNotAfterVerifiedAt {
            file: file.to_owned(),
            verified_at,
            valid_through,
        }
        .into());
    }
    check_review(file, &raw.review, &raw.sources)?;
    Ok(AnswerTerm {
        id: raw.id,
        title: raw.title,
        summary: raw.summary,
        days: raw.days,
        count: raw.count,
        registration_days: raw.registration_days,
        sources: raw.sources,
        verified_at,
        valid_through,
        review: raw.review,
    })
}

/// Checks one calendar file on its own.
fn parse_year(file: &str, contents: &str) -> Result<CalendarYear, DeadlineDataError> {
    let raw: RawYear = parse_toml(file, contents)?;
    let year = raw.year;
    if file != format!("calendar-{year}.toml") {
        return Err(DeadlineDataError::CalendarFileName {
            file: file.to_owned(),
            year,
        });
    }
    let days = |list: Vec<RawDay>, name: &str, weekend: bool| {
        let mut days = BTreeMap::new();
        for (index, day) in list.into_iter().enumerate() {
            let date = civil_date(file, &format!("{name}[{index}].date"), &day.date)?;
            require_text(file, &format!("{name}[{index}].why"), &day.why)?;
            if date.year() != year {
                return Err(DeadlineDataError::DateOutsideYear {
                    file: file.to_owned(),
                    date,
                    year,
                });
            }
            if is_weekend(date) != weekend {
                let (file, weekday) = (file.to_owned(), date.weekday());
                return Err(if weekend {
                    DeadlineDataError::WorkingDayOnWeekday {
                        file,
                        date,
                        weekday,
                    }
                } else {
                    DeadlineDataError::DayOffOnWeekend {
                        file,
                        date,
                        weekday,
                    }
                });
            }
            if days.insert(date, day.why).is_some() {
                return Err(DeadlineDataError::DuplicateDate {
                    file: file.to_owned(),
                    date,
                });
            }
        }
        Ok(days)
    };
    let days_off = days(raw.days_off, "days_off", false)?;
    let working_days = days(raw.working_days, "working_days", true)?;
    let verified_at = civil_date(file, "verified_at", &raw.verified_at)?;
    check_review(file, &raw.review, &raw.sources)?;
    Ok(CalendarYear {
        year,
        days_off,
        working_days,
        sources: raw.sources,
        verified_at,
        review: raw.review,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn embedded_data_parses() {
        if let Err(error) = parse_deadlines(EMBEDDED_TERMS, &EMBEDDED_CALENDARS) {
            panic!("the embedded deadline data is invalid: {error}");
        }
        assert_eq!(deadlines().terms().count(), TermId::ALL.len());
    }

    #[test]
    fn embedded_calendar_is_every_file_in_the_folder() {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/../../legal_modules/deadlines");
        let mut on_disk: Vec<String> = std::fs::read_dir(folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.starts_with("calendar-"))
            .collect();
        on_disk.sort();
        let embedded: Vec<&str> = EMBEDDED_CALENDARS.iter().map(|(name, _)| *name).collect();
        assert_eq!(
            on_disk, embedded,
            "list every calendar file in EMBEDDED_CALENDARS"
        );
    }

    #[test]
    fn the_calendar_covers_consecutive_years_through_next_year() {
        let years: Vec<i16> = deadlines().calendar_years().map(|c| c.year).collect();
        let consecutive: Vec<i16> = (years[0]..=*years.last().unwrap()).collect();
        assert_eq!(
            years, consecutive,
            "a year is missing between the first and the last"
        );
        // The government sets next year's transfers in the autumn; from October on, the data
        // must already hold next year's calendar.
        let today = jiff::Zoned::now().date();
        let needed = if today.month() >= 10 {
            today.year() + 1
        } else {
            today.year()
        };
        assert!(
            years.contains(&needed),
            "add the production calendar of {needed} (docs/legal-maintenance.md)"
        );
    }

    #[test]
    fn no_term_is_past_valid_through() {
        let today = jiff::Zoned::now().date();
        let expired: Vec<String> = deadlines()
            .terms_past_valid_through(today)
            .iter()
            .map(|term| format!("{} (valid through {})", term.id, term.valid_through))
            .collect();
        assert!(
            expired.is_empty(),
            "re-verify these terms: {}",
            expired.join(", ")
        );
    }

    /// The deadlines a maintainer can count by hand from the calendar files, each with why.
    #[test]
    fn answer_due_counts_by_the_calendar_files() {
        use TermId::{Inspectorate as Gzhi, ManagementCompany as Company};
        let cases = [
            // An ordinary fortnight: ten weekdays from the Tuesday.
            (Company, date(2026, 12, 7), Ok(date(2026, 12, 21))),
            // Across the New Year holidays: 31 December 2026 and 1–8 January 2027 are off.
            (Company, date(2026, 12, 24), Ok(date(2027, 1, 18))),
            (Company, date(2026, 12, 30), Ok(date(2027, 1, 22))),
            // Received on a holiday; 11 May 2026 is the day off for Victory Day on a Saturday.
            (Company, date(2026, 5, 1), Ok(date(2026, 5, 18))),
            // A working Saturday (1 November 2025) counts; 3 and 4 November do not.
            (Company, date(2025, 10, 31), Ok(date(2025, 11, 17))),
            // The count runs into 2028, which the data do not hold: counted by the Labour
            // Code's provisional calendar (issue 38) — 3 to 7 January off, 8 January a Saturday.
            (Company, date(2027, 12, 24), Ok(date(2028, 1, 17))),
            // A request received before the first calendar year: the same for 2022.
            (Company, date(2022, 12, 20), Ok(date(2023, 1, 10))),
            // 3 + 30 days ends on a working Tuesday.
            (Gzhi, date(2026, 10, 1), Ok(date(2026, 11, 3))),
            // … on a Saturday: the next working day.
            (Gzhi, date(2026, 11, 2), Ok(date(2026, 12, 7))),
            // … on 3 January 2027: past the whole holiday and the weekend after it.
            (Gzhi, date(2026, 12, 1), Ok(date(2027, 1, 11))),
            // … on 3 January 2028, a holiday of a year the data do not hold: provisionally
            // past 4–7 January and the weekend, Monday 10 January.
            (Gzhi, date(2027, 12, 1), Ok(date(2028, 1, 10))),
        ];
        for (term, received, expected) in cases {
            let got = deadlines()
                .answer_due(term, received)
                .map(|deadline| deadline.due);
            assert_eq!(got, expected, "{term}, received {received}");
        }
    }

    #[test]
    fn a_deadline_names_the_years_it_consulted_and_is_unverified_while_they_are() {
        let deadline = deadlines()
            .answer_due(TermId::ManagementCompany, date(2026, 12, 24))
            .unwrap();
        assert_eq!(deadline.calendar_years, [2026, 2027]);
        assert_eq!(deadline.received, date(2026, 12, 24));
        // The shipped term still awaits its check against the official text.
        assert!(!deadline.verified);
    }

    #[test]
    fn a_verified_term_and_calendar_give_a_verified_deadline() {
        let verified = |text: &str| {
            text.replace("\"awaiting_verification\"", "\"verified\"")
                .replace("edition_verified = false", "edition_verified = true")
        };
        let terms = verified(&strip_awaiting(EMBEDDED_TERMS));
        let calendars: Vec<(&str, String)> = EMBEDDED_CALENDARS
            .iter()
            .map(|(name, text)| (*name, verified(&strip_awaiting(text))))
            .collect();
        let borrowed: Vec<(&str, &str)> = calendars
            .iter()
            .map(|(name, text)| (*name, text.as_str()))
            .collect();
        let data = parse_deadlines(&terms, &borrowed).unwrap();
        let deadline = data
            .answer_due(TermId::ManagementCompany, date(2026, 12, 7))
            .unwrap();
        assert!(deadline.verified);
        assert!(data.awaiting_verification().is_empty());
    }

    /// The data with every `awaiting_check` list emptied.
    fn strip_awaiting(text: &str) -> String {
        let mut out = String::new();
        let mut skipping = false;
        for line in text.lines() {
            if line.starts_with("awaiting_check = [") {
                out.push_str("awaiting_check = []\n");
                skipping = !line.ends_with(']');
                continue;
            }
            if skipping {
                skipping = line != "]";
                continue;
            }
            out.push_str(line);
            out.push('\n');
        }
        out
    }

    #[test]
    fn every_term_and_year_awaiting_a_check_is_listed() {
        let listed = deadlines().awaiting_verification();
        assert!(listed.contains(&"срок ответа управляющей организации".to_owned()));
        assert!(listed.contains(&"срок ответа жилищной инспекции".to_owned()));
        assert!(listed.contains(&"производственный календарь 2027".to_owned()));
    }

    /// Issue 38: the provisional calendar of the Labour Code against every year the data hold.
    /// The days where it differs are exactly the Government's decree's transfers — the measure
    /// of how wrong a provisional date can be (docs/legal-maintenance.md).
    #[test]
    fn issue_38_the_provisional_calendar_differs_from_every_reviewed_year_only_by_the_decree() {
        let mut differences = Vec::new();
        for calendar in deadlines().calendar_years() {
            let provisional = provisional_days_off(calendar.year);
            let mut day = Date::new(calendar.year, 1, 1).unwrap();
            while day.year() == calendar.year {
                let reviewed = calendar.is_working_day(day);
                let counted = !is_weekend(day) && !provisional.contains_key(&day);
                if reviewed != counted {
                    // A day the reviewed year lists is a transfer by the decree; the other kind
                    // (2025-02-24, 2025-03-10) is a holiday's Monday the decree moved elsewhere.
                    if let Some(why) = calendar
                        .days_off
                        .get(&day)
                        .or_else(|| calendar.working_days.get(&day))
                    {
                        assert!(why.contains("перен"), "{day}: {why}");
                    }
                    differences.push(format!(
                        "{day} {}",
                        if reviewed {
                            "рабочий"
                        } else {
                            "выходной"
                        }
                    ));
                }
                day = day.tomorrow().unwrap();
            }
        }
        eprintln!("{differences:#?}");
        assert_eq!(differences, PINNED_DIFFERENCES);
    }

    /// Where the reviewed years differ from the provisional calendar, as the reviewed year has
    /// it: every one a transfer by the yearly decree (docs/legal-maintenance.md lists them).
    const PINNED_DIFFERENCES: &[&str] = &[
        "2023-02-24 выходной",
        "2023-05-08 выходной",
        "2024-04-27 рабочий",
        "2024-04-29 выходной",
        "2024-04-30 выходной",
        "2024-05-10 выходной",
        "2024-11-02 рабочий",
        "2024-12-28 рабочий",
        "2024-12-30 выходной",
        "2024-12-31 выходной",
        "2025-02-24 рабочий",
        "2025-03-10 рабочий",
        "2025-05-02 выходной",
        "2025-05-08 выходной",
        "2025-06-13 выходной",
        "2025-11-01 рабочий",
        "2025-11-03 выходной",
        "2025-12-31 выходной",
        "2026-01-09 выходной",
        "2026-12-31 выходной",
        "2027-02-20 рабочий",
        "2027-02-22 выходной",
        "2027-11-05 выходной",
        "2027-12-31 выходной",
    ];

    #[test]
    fn issue_38_a_deadline_across_the_2028_new_year_is_counted_and_marked_provisional() {
        let deadline = deadlines()
            .answer_due(TermId::ManagementCompany, date(2027, 12, 24))
            .unwrap();
        assert_eq!(deadline.due, date(2028, 1, 17));
        assert_eq!(deadline.calendar_years, [2027, 2028]);
        assert_eq!(deadline.provisional_years, [2028]);
        assert!(!deadline.verified);
        assert_eq!(
            deadline.provisional_ru().unwrap(),
            "срок предварительный: постановление о переносе выходных дней на 2028 год в \
             программе ещё не учтено"
        );
        let reviewed = deadlines()
            .answer_due(TermId::ManagementCompany, date(2026, 12, 7))
            .unwrap();
        assert_eq!(reviewed.provisional_years, Vec::<i16>::new());
        assert_eq!(reviewed.provisional_ru(), None);
        // Far ahead, every year still gets a date.
        for year in 2028..=2040 {
            let deadline = deadlines()
                .answer_due(TermId::ManagementCompany, date(year, 3, 1))
                .unwrap();
            assert_eq!(deadline.provisional_years, [year]);
        }
    }

    #[test]
    fn a_missing_calendar_is_explained_in_russian() {
        let message = NoDeadline::CalendarMissing { year: 2028 }.message_ru();
        assert!(message.contains("2028"), "{message}");
        assert!(message.contains("производственного календаря"), "{message}");
    }

    /// A calendar file of 2026 with `days_off` and `working_days` replaced.
    fn calendar_2026(days_off: &str, working_days: &str) -> String {
        let original = EMBEDDED_CALENDARS[3].1;
        let start = original.find("days_off = [").unwrap();
        let end = original.find("verified_at").unwrap();
        format!(
            "{}days_off = [{days_off}]\nworking_days = [{working_days}]\n\n{}",
            &original[..start],
            &original[end..]
        )
    }

    fn parse_2026(days_off: &str, working_days: &str) -> Result<Deadlines, DeadlineDataError> {
        let text = calendar_2026(days_off, working_days);
        parse_deadlines(EMBEDDED_TERMS, &[("calendar-2026.toml", &text)])
    }

    #[test]
    fn calendar_files_are_refused_with_the_rule_they_break() {
        let day = |date: &str| format!("{{ date = {date}, why = \"праздник\" }}");
        assert!(parse_2026(&day("2026-01-01"), "").is_ok());
        assert!(matches!(
            parse_2026(&day("2026-01-03"), ""),
            Err(DeadlineDataError::DayOffOnWeekend { .. })
        ));
        assert!(matches!(
            parse_2026("", &day("2026-01-05")),
            Err(DeadlineDataError::WorkingDayOnWeekday { .. })
        ));
        assert!(matches!(
            parse_2026(&day("2027-01-01"), ""),
            Err(DeadlineDataError::DateOutsideYear { .. })
        ));
        assert!(matches!(
            parse_2026(&format!("{}, {}", day("2026-01-01"), day("2026-01-01")), ""),
            Err(DeadlineDataError::DuplicateDate { .. })
        ));
        assert!(matches!(
            parse_2026("{ date = 2026-01-01, why = \" \" }", ""),
            Err(DeadlineDataError::Data(
                LegalCatalogueError::EmptyField { .. }
            ))
        ));
        assert!(matches!(
            parse_2026("{ date = 2026-01-01T10:00:00, why = \"праздник\" }", ""),
            Err(DeadlineDataError::Data(
                LegalCatalogueError::InvalidDate { .. }
            ))
        ));
        let text = calendar_2026("", "");
        assert!(matches!(
            parse_deadlines(EMBEDDED_TERMS, &[("calendar-2025.toml", &text)]),
            Err(DeadlineDataError::CalendarFileName { year: 2026, .. })
        ));
        assert!(matches!(
            parse_deadlines(
                EMBEDDED_TERMS,
                &[("calendar-2026.toml", &text), ("calendar-2026.toml", &text)]
            ),
            Err(DeadlineDataError::DuplicateYear { year: 2026, .. })
        ));
        assert!(matches!(
            parse_deadlines(
                EMBEDDED_TERMS,
                &[("calendar-2026.toml", &text.replace("[review]", "[rev]"))]
            ),
            Err(DeadlineDataError::Data(LegalCatalogueError::Toml { .. }))
        ));
    }

    #[test]
    fn terms_files_are_refused_with_the_rule_they_break() {
        let parse = |terms: &str| parse_deadlines(terms, &[]);
        assert!(parse(EMBEDDED_TERMS).is_ok());
        assert!(matches!(
            parse(&EMBEDDED_TERMS.replacen("days = 10", "days = 0", 1)),
            Err(DeadlineDataError::ZeroDays {
                id: TermId::ManagementCompany
            })
        ));
        assert!(matches!(
            parse(&EMBEDDED_TERMS.replace("id = \"inspectorate\"", "id = \"management_company\"")),
            Err(DeadlineDataError::DuplicateTerm {
                id: TermId::ManagementCompany
            })
        ));
        let only_first = &EMBEDDED_TERMS[..EMBEDDED_TERMS.rfind("[[terms]]").unwrap()];
        assert!(matches!(
            parse(only_first),
            Err(DeadlineDataError::MissingTerm {
                id: TermId::Inspectorate
            })
        ));
        assert!(matches!(
            parse(&EMBEDDED_TERMS.replacen("count = \"working_days\"", "count = \"weeks\"", 1)),
            Err(DeadlineDataError::Data(LegalCatalogueError::Toml { .. }))
        ));
        assert!(matches!(
            parse(&EMBEDDED_TERMS.replacen(
                "valid_through = 2027-05-31",
                "valid_through = 2026-01-01",
                1
            )),
            Err(DeadlineDataError::Data(
                LegalCatalogueError::ValidThroughNotAfterVerifiedAt { .. }
            ))
        ));
        assert!(matches!(
            parse(&EMBEDDED_TERMS.replacen(
                "status = \"awaiting_verification\"",
                "status = \"verified\"",
                1
            )),
            Err(DeadlineDataError::Data(
                LegalCatalogueError::VerifiedWithPendingChecks { .. }
            ))
        ));
    }
}
