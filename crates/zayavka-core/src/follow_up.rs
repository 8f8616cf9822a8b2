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

/// The first request's deadline, as the letter may cite it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstDeadline {
    /// The last day for the answer.
    pub due: Date,
    /// The term in words («10 рабочих дней со дня получения обращения»).
    pub term: String,
    /// Whether the term and the calendar it was counted by are verified: only then is the term
    /// printed in a letter.
    pub verified: bool,
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
        &format!("{filed} в {to} подана заявка{number} о следующей проблеме:"),
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

/// What became of the first request, as a fact: the answer and what it did, or that none came
/// (by the deadline, when the term is verified and has passed; on `today` otherwise).
fn answer_sentence(first: &FirstRequest, today: Date, date_ru: fn(Date) -> String) -> String {
    match first.answer {
        Some((answered_on, result)) => {
            let what = match result {
                FirstAnswer::Partly => "проблема устранена лишь частично",
                FirstAnswer::Refused => "в устранении проблемы отказано",
                FirstAnswer::Unaddressed => "ответа по существу заявки в нём нет",
            };
            format!("{} получен ответ: {what}.", date_ru(answered_on))
        }
        None => match &first.deadline {
            Some(deadline) if deadline.verified && deadline.due < today => format!(
                "Срок ответа на заявку — {} — истёк {}, ответ не получен.",
                deadline.term,
                date_ru(deadline.due)
            ),
            _ => format!("На {} ответ на заявку не получен.", date_ru(today)),
        },
    }
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
    format!("Приложения: {}.", numbered.join("; "))
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
            number: number.map(str::to_owned),
            company: Some("ООО «УК Восход»".to_owned()),
            deadline: Some(FirstDeadline {
                due: date(2026, 12, 21),
                term: "10 рабочих дней со дня получения обращения".to_owned(),
                verified: false,
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
        // The unverified term is not cited: the letter says only that no answer came.
        assert!(
            !repeat.body().contains("10 рабочих дней"),
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
    fn a_verified_term_is_cited_once_it_has_passed() {
        let mut first = first(None, None);
        if let Some(deadline) = &mut first.deadline {
            deadline.verified = true;
        }
        let repeat = letter(FollowUpKind::Repeat, &first);
        assert!(
            repeat.body().contains(
                "Срок ответа на заявку — 10 рабочих дней со дня получения обращения — истёк 21 \
                 декабря 2026 г., ответ не получен."
            ),
            "{}",
            repeat.body()
        );
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
