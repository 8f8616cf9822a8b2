//! The letters after a filed request (issue 30): a repeat request to the same company and a
//! complaint to the regional housing inspectorate, written by code from facts already recorded
//! — no model call, so the same facts always give the same bytes.
//!
//! Each letter is a [`Request`] like the first one, with every part's provenance: the first
//! request's facts and the answer as the program words them ([`Provenance::RecordedFacts`]),
//! the problem in the resident's own words ([`Provenance::Resident`]), and the catalogue's
//! paragraphs as the first request had them. A repeat request keeps the first one's single
//! «Прошу:» item; a complaint asks for an inspection and measures ([`INSPECTION_ITEM`]). A
//! term is cited only when it is verified; otherwise the letter says, as a fact, that no answer
//! came.

use jiff::civil::Date;
use zayavka_codes::stable_codes;

use crate::assemble::{
    BodyTooLong, ItemSource, Provenance, Request, RequestItem, SectionKind, TitleSource,
    legal_sections, program_lead, program_section,
};
use crate::legal::LegalCatalogue;
use crate::policy::LegalDecision;
use crate::text::join_lines;

/// The single item of a complaint to the housing inspectorate.
pub const INSPECTION_ITEM: &str =
    "Провести проверку по изложенным фактам и принять меры, чтобы проблема была устранена.";

/// Why a complaint carries no paragraph on state housing supervision, as its warning says.
pub const NO_SUPERVISION_PARAGRAPH: &str = "Абзац с нормой о государственном жилищном надзоре \
     не добавлен: в программе пока нет сверенного с законом текста. Общие нормы о содержании \
     дома в обращении есть.";

stable_codes! {
    /// The letter written after a filed request.
    pub enum FollowUpKind {
        /// A repeat request to the same management company.
        Repeat => "repeat",
        /// A complaint to the regional state housing inspectorate.
        Complaint => "complaint",
    }
}

stable_codes! {
    /// What the answer to the first request did, when one came and did not solve the problem.
    pub enum FirstAnswer {
        /// The problem was solved only in part.
        Partly => "partly",
        /// The company refused.
        Refused => "refused",
        /// The answer did not address the problem.
        Unaddressed => "unaddressed",
    }
}

stable_codes! {
    /// How the first request was filed, as the letter says it (issue 38).
    pub enum FilingWay {
        /// Handed in, with the second copy stamped.
        InPerson => "in_person",
        /// A letter with notice of delivery.
        Letter => "letter",
        /// E-mail.
        Email => "email",
        /// ГИС ЖКХ or Госуслуги.Дом.
        Gis => "gis",
        /// The company's site or app.
        Site => "site",
        /// Some other way.
        Other => "other",
    }
}

impl FilingWay {
    /// «лично подана», «направлена письмом»…: how the lead sentence says it.
    fn phrase(self) -> &'static str {
        match self {
            FilingWay::InPerson => "лично подана",
            FilingWay::Letter => "направлена письмом",
            FilingWay::Email => "направлена по электронной почте",
            FilingWay::Gis => "направлена через ГИС ЖКХ",
            FilingWay::Site => "направлена через сайт или приложение управляющей организации",
            FilingWay::Other => "подана",
        }
    }
}

/// The first request's deadline, as the letter states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstDeadline {
    /// The last day for the answer.
    pub due: Date,
    /// The term in words («10 рабочих дней со дня получения обращения»). It names no provision,
    /// so a letter states it as a fact whether or not the norm is verified yet (issue 38).
    pub term: String,
    /// Whether the term and the calendar it was counted by are verified.
    pub verified: bool,
    /// Why the date is provisional, when a year's calendar was computed from the Labour Code
    /// rather than read from the reviewed data (issue 38); said beside the date.
    pub provisional: Option<String>,
}

/// What is recorded about the first request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstRequest {
    /// Its title.
    pub title: String,
    /// The resident's own description of the problem, as typed.
    pub description: String,
    /// The day it was filed.
    pub filed_on: Date,
    /// How.
    pub way: FilingWay,
    /// For a letter, the day it was delivered.
    pub delivered_on: Option<Date>,
    /// The incoming number, as written on the stamp.
    pub number: Option<String>,
    /// The management company it was filed with, as the resident wrote it.
    pub company: Option<String>,
    /// Its deadline, when one was counted.
    pub deadline: Option<FirstDeadline>,
    /// The answer and its day, when one came.
    pub answer: Option<(Date, FirstAnswer)>,
    /// Its single «Прошу:» item.
    pub item: RequestItem,
    /// Its legal decision: the letter cites the same paragraphs.
    pub legal: LegalDecision,
}

/// The photos the resident keeps with the case, for a complaint's list of attachments.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CasePhotos {
    /// Photos of the problem.
    pub evidence: usize,
    /// Photos of the filing (the stamped copy, the postal receipt).
    pub filing: usize,
    /// Pages of the answer.
    pub answer: usize,
}

/// Writes the letter of `kind` after `first`, on `today`. `date_ru` words a date as the
/// documents do («7 декабря 2026 г.»; the document crate's, which this crate may not name).
pub fn follow_up(
    kind: FollowUpKind,
    first: &FirstRequest,
    photos: CasePhotos,
    today: Date,
    catalogue: &LegalCatalogue,
    date_ru: fn(Date) -> String,
) -> Result<Request, BodyTooLong> {
    let facts =
        |kind: SectionKind, text: &str| program_section(kind, Provenance::RecordedFacts, text);
    let filed = date_ru(first.filed_on);
    let mut sections = Vec::new();
    let to = match (kind, &first.company) {
        (_, Some(company)) => join_lines(company),
        (FollowUpKind::Repeat, None) => "управляющую организацию".to_owned(),
        (FollowUpKind::Complaint, None) => "управляющую организацию дома".to_owned(),
    };
    let number = first
        .number
        .as_deref()
        .map(|number| format!(" (входящий номер: {})", join_lines(number)))
        .unwrap_or_default();
    sections.push(program_lead(
        SectionKind::Circumstances,
        Provenance::RecordedFacts,
        &format!(
            "{filed} в {to} {} заявка{number} о следующей проблеме:",
            first.way.phrase()
        ),
    ));
    sections.push(program_section(
        SectionKind::Problem,
        Provenance::Resident,
        &first.description,
    ));
    sections.push(facts(
        SectionKind::Circumstances,
        &answer_sentence(first, today, date_ru),
    ));
    if kind == FollowUpKind::Complaint {
        sections.push(facts(
            SectionKind::Circumstances,
            "Проблема до сих пор не устранена.",
        ));
    }
    sections.extend(legal_sections(catalogue, first.legal));
    if kind == FollowUpKind::Complaint {
        sections.push(facts(
            SectionKind::Circumstances,
            &attachments_sentence(first, photos, date_ru),
        ));
    }
    let (title, item, warnings) = match kind {
        FollowUpKind::Repeat => (
            format!("Повторная заявка: {}", join_lines(&first.title)),
            first.item.clone(),
            Vec::new(),
        ),
        FollowUpKind::Complaint => (
            format!(
                "Обращение о проверке по заявке от {}",
                date_ru(first.filed_on)
            ),
            RequestItem::fixed(INSPECTION_ITEM, ItemSource::Inspection),
            vec![NO_SUPERVISION_PARAGRAPH.to_owned()],
        ),
    };
    Request::new(
        title,
        TitleSource::RecordedFacts,
        sections,
        item,
        first.legal,
        warnings,
    )
}

/// What became of the first request, as facts (issue 38): the letter's delivery, the day the
/// answer was due and the term it was counted by, then the answer and what it did — and whether
/// it came late — or that none came by `today`. The term is a length of time, never a
/// provision, so it is stated whether or not its norm is verified yet.
fn answer_sentence(first: &FirstRequest, today: Date, date_ru: fn(Date) -> String) -> String {
    let mut sentences = Vec::new();
    if let Some(delivered) = first.delivered_on {
        sentences.push(end_sentence(&format!(
            "Письмо с заявкой получено {}",
            date_ru(delivered)
        )));
    }
    if let Some(deadline) = &first.deadline {
        let provisional = deadline
            .provisional
            .as_deref()
            .map(|why| format!("; {why}"))
            .unwrap_or_default();
        sentences.push(format!(
            "Ответ должен был прийти не позднее {} (срок — {}{provisional}).",
            date_ru(deadline.due),
            deadline.term
        ));
    }
    sentences.push(match first.answer {
        Some((answered_on, result)) => {
            let what = match result {
                FirstAnswer::Partly => "проблема устранена лишь частично",
                FirstAnswer::Refused => "в устранении проблемы отказано",
                FirstAnswer::Unaddressed => "ответа по существу заявки в нём нет",
            };
            let late = match &first.deadline {
                Some(deadline) if answered_on > deadline.due => ", позже срока",
                _ => "",
            };
            format!("Ответ получен {}{late}: {what}.", date_ru(answered_on))
        }
        None => format!("На {} ответ на заявку не получен.", date_ru(today)),
    });
    sentences.join(" ")
}

/// A complaint's list of what the resident attaches.
fn attachments_sentence(
    first: &FirstRequest,
    photos: CasePhotos,
    date_ru: fn(Date) -> String,
) -> String {
    let mut items = vec![format!("копия заявки от {}", date_ru(first.filed_on))];
    if photos.filing > 0 {
        items.push(format!(
            "подтверждение подачи (фотографий: {})",
            photos.filing
        ));
    }
    if let Some((answered_on, _)) = first.answer {
        let pages = if photos.answer > 0 {
            format!(" (фотографий: {})", photos.answer)
        } else {
            String::new()
        };
        items.push(format!(
            "ответ управляющей организации от {}{pages}",
            date_ru(answered_on)
        ));
    }
    if photos.evidence > 0 {
        items.push(format!("фотографии проблемы ({})", photos.evidence));
    }
    let numbered: Vec<String> = items
        .iter()
        .enumerate()
        .map(|(index, item)| format!("{}) {item}", index + 1))
        .collect();
    end_sentence(&format!("Приложения: {}", numbered.join("; ")))
}

/// `text` with a full stop at its end, unless it already ends with one («… 2026 г.»): a letter
/// never carries «г..» (issue 38).
fn end_sentence(text: &str) -> String {
    if text.ends_with('.') {
        text.to_owned()
    } else {
        format!("{text}.")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::legal::catalogue;
    use crate::policy::OmissionReason;
    use crate::subject::SubjectKind;
    use jiff::civil::date;

    use crate::date_ru_for_tests as date_ru;

    fn first(number: Option<&str>, answer: Option<(Date, FirstAnswer)>) -> FirstRequest {
        FirstRequest {
            title: "Не горит свет на лестнице".to_owned(),
            description: "в подъезде неделю не горит свет на лестнице между третьим и \
                          четвёртым этажами"
                .to_owned(),
            filed_on: date(2026, 12, 7),
            way: FilingWay::InPerson,
            delivered_on: None,
            number: number.map(str::to_owned),
            company: Some("ООО «УК Восход»".to_owned()),
            deadline: Some(FirstDeadline {
                due: date(2026, 12, 21),
                term: "10 рабочих дней со дня получения обращения".to_owned(),
                verified: false,
                provisional: None,
            }),
            answer,
            item: RequestItem::for_desired_actions(Some("заменить лампы на лестнице")),
            legal: LegalDecision::Included(SubjectKind::CommonAreaPremisesLighting),
        }
    }

    fn letter(kind: FollowUpKind, first: &FirstRequest) -> Request {
        let photos = CasePhotos {
            evidence: 2,
            filing: 1,
            answer: usize::from(first.answer.is_some()),
        };
        follow_up(
            kind,
            first,
            photos,
            date(2026, 12, 28),
            catalogue(),
            date_ru,
        )
        .unwrap()
    }

    #[test]
    fn the_letters_are_pinned_with_and_without_a_number_and_an_answer() {
        let refused = Some((date(2026, 12, 18), FirstAnswer::Refused));
        for (name, first) in [
            ("number_no_answer", first(Some("Вх. № 17/А"), None)),
            ("no_number_no_answer", first(None, None)),
            ("number_refused", first(Some("Вх. № 17/А"), refused)),
            ("no_number_refused", first(None, refused)),
        ] {
            for kind in FollowUpKind::ALL {
                let request = letter(*kind, &first);
                insta::assert_snapshot!(format!("follow_up_{kind}_{name}"), request.plain_text());
            }
        }
    }

    #[test]
    fn a_repeat_keeps_the_item_and_the_paragraphs_and_every_part_says_who_wrote_it() {
        let first = first(Some("17/А"), None);
        let repeat = letter(FollowUpKind::Repeat, &first);
        assert_eq!(repeat.item(), &first.item);
        assert_eq!(
            repeat.subject_module(),
            Some(SubjectKind::CommonAreaPremisesLighting)
        );
        assert_eq!(repeat.title_source(), TitleSource::RecordedFacts);
        let sources: Vec<Provenance> = repeat.sections().iter().map(|s| s.source()).collect();
        assert_eq!(
            sources[..3],
            [
                Provenance::RecordedFacts,
                Provenance::Resident,
                Provenance::RecordedFacts
            ]
        );
        assert!(
            sources[3..]
                .iter()
                .all(|s| *s == Provenance::LegalCatalogue)
        );
        // The resident's words, as typed, only made a sentence.
        assert_eq!(
            repeat.sections()[1].text(),
            "В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами."
        );
        assert_eq!(repeat.body().matches("Прошу:").count(), 1);
        // The term is stated as a length of time, never as a provision awaiting a check.
        assert!(
            repeat.body().contains(
                "Ответ должен был прийти не позднее 21 декабря 2026 г. (срок — 10 рабочих дней"
            ),
            "{}",
            repeat.body()
        );
        assert!(
            repeat
                .body()
                .contains("На 28 декабря 2026 г. ответ на заявку не получен.")
        );
    }

    #[test]
    fn a_letter_never_offers_to_confirm_the_subject_it_cannot_assemble_again() {
        let mut first = first(None, None);
        first.legal = LegalDecision::Omitted(OmissionReason::NotConfirmed);
        for kind in [FollowUpKind::Repeat, FollowUpKind::Complaint] {
            let outcome = crate::Outcome::Ready(letter(kind, &first));
            assert!(outcome.next_steps().is_empty(), "{kind:?}");
        }
    }

    #[test]
    fn issue_38_the_due_date_and_its_term_are_stated_verified_or_not() {
        for verified in [false, true] {
            let mut first = first(None, None);
            if let Some(deadline) = &mut first.deadline {
                deadline.verified = verified;
            }
            for kind in FollowUpKind::ALL {
                let body = letter(*kind, &first).body().to_owned();
                assert!(
                    body.contains(
                        "Ответ должен был прийти не позднее 21 декабря 2026 г. (срок — 10 рабочих \
                         дней со дня получения обращения). На 28 декабря 2026 г. ответ на заявку \
                         не получен."
                    ),
                    "{body}"
                );
                assert!(!body.contains("г.."), "{body}");
            }
        }
    }

    /// Issue 38: a letter's delivery, an answer that came late or solved only part, the way
    /// the request was filed, and a provisional date, each stated as a fact.
    #[test]
    fn issue_38_delivery_a_late_or_partial_answer_and_a_provisional_date_are_stated() {
        let mut first = first(
            Some("17/А"),
            Some((date(2026, 12, 24), FirstAnswer::Partly)),
        );
        first.way = FilingWay::Letter;
        first.delivered_on = Some(date(2026, 12, 9));
        if let Some(deadline) = &mut first.deadline {
            deadline.due = date(2026, 12, 23);
            deadline.provisional = Some("срок предварительный".to_owned());
        }
        let body = letter(FollowUpKind::Repeat, &first).body().to_owned();
        for fact in [
            "7 декабря 2026 г. в ООО «УК Восход» направлена письмом заявка (входящий номер: 17/А) \
             о следующей проблеме:",
            "Письмо с заявкой получено 9 декабря 2026 г.",
            "Ответ должен был прийти не позднее 23 декабря 2026 г. (срок — 10 рабочих дней со дня \
             получения обращения; срок предварительный).",
            "Ответ получен 24 декабря 2026 г., позже срока: проблема устранена лишь частично.",
        ] {
            assert!(body.contains(fact), "{fact}\n{body}");
        }
        first.answer = Some((date(2026, 12, 22), FirstAnswer::Refused));
        let body = letter(FollowUpKind::Complaint, &first).body().to_owned();
        assert!(
            body.contains("Ответ получен 22 декабря 2026 г.: в устранении проблемы отказано."),
            "{body}"
        );
        assert!(!body.contains("г.."), "{body}");
    }

    #[test]
    fn a_complaint_asks_for_an_inspection_lists_its_attachments_and_says_what_it_lacks() {
        let mut first = first(None, Some((date(2026, 12, 18), FirstAnswer::Partly)));
        first.legal = LegalDecision::Omitted(OmissionReason::NoModelSubject);
        let complaint = letter(FollowUpKind::Complaint, &first);
        assert_eq!(complaint.item().text(), INSPECTION_ITEM);
        assert_eq!(complaint.item().source(), ItemSource::Inspection);
        assert_eq!(complaint.warnings(), [NO_SUPERVISION_PARAGRAPH]);
        assert!(complaint.body().contains(
            "Приложения: 1) копия заявки от 7 декабря 2026 г.; 2) подтверждение подачи \
             (фотографий: 1); 3) ответ управляющей организации от 18 декабря 2026 г. \
             (фотографий: 1); 4) фотографии проблемы (2)."
        ));
        assert!(
            complaint
                .body()
                .contains("проблема устранена лишь частично")
        );
        assert_eq!(complaint.subject_module(), None);
        assert!(
            complaint
                .title()
                .starts_with("Обращение о проверке по заявке от 7 декабря")
        );
    }

    #[test]
    fn a_letter_is_stored_and_read_back_through_the_request_s_own_checks() {
        let first = first(
            Some("17/А"),
            Some((date(2026, 12, 18), FirstAnswer::Unaddressed)),
        );
        for kind in FollowUpKind::ALL {
            let letter = letter(*kind, &first);
            let stored = serde_json::to_string(&letter).unwrap();
            let read: Request = serde_json::from_str(&stored).unwrap();
            assert_eq!(read, letter);
        }
    }

    #[test]
    fn the_same_facts_give_the_same_bytes() {
        let first = first(Some("17/А"), None);
        for kind in FollowUpKind::ALL {
            assert_eq!(letter(*kind, &first), letter(*kind, &first));
        }
    }
}
