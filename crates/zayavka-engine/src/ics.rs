//! A case's deadline as an iCalendar event (RFC 5545) for the resident's own calendar
//! (issue 30): one all-day event on the last day for the answer, with a reminder the day
//! before.
//!
//! Written here rather than with a crate: one event of six properties needs only the format's
//! escaping and line folding, both tested below, and the iCalendar crates bring `chrono` beside
//! the `jiff` the workspace uses (ADR 34).

use jiff::Timestamp;

use crate::case::{CaseView, DeadlineState};

/// The calendar file for `view`'s deadline, or `None` when there is no date to put in it.
/// `title` is the draft's title; `stamp` the moment the file is made (`DTSTAMP`).
pub fn deadline_event(view: &CaseView, title: Option<&str>, stamp: Timestamp) -> Option<String> {
    let DeadlineState::Known(deadline) = &view.deadline else {
        return None;
    };
    let id = view.case.draft_id;
    let due = deadline.due;
    let day = |date: jiff::civil::Date| date.strftime("%Y%m%d").to_string();
    let next = due.tomorrow().ok()?;
    let mut description = format!(
        "Заявка № {id} подана {}. Срок ответа: {}.",
        zayavka_document::date_ru(view.case.filing.filed_on),
        view.term_ru
    );
    if let Some(number) = &view.case.filing.number {
        description.push_str(&format!(" Входящий номер: {number}."));
    }
    if let Some(provisional) = &view.provisional_ru {
        description.push(' ');
        description.push_str(&zayavka_core::full_sentence(provisional));
    }
    if let Some(notice) = &view.notice_ru {
        description.push(' ');
        description.push_str(notice);
    }
    let summary = match title {
        Some(title) => format!("Срок ответа по заявке № {id}: {title}"),
        None => format!("Срок ответа по заявке № {id}"),
    };
    let lines = [
        "BEGIN:VCALENDAR".to_owned(),
        "VERSION:2.0".to_owned(),
        "PRODID:-//Zayavka//Zayavka//RU".to_owned(),
        "CALSCALE:GREGORIAN".to_owned(),
        "BEGIN:VEVENT".to_owned(),
        format!("UID:zayavka-case-{id}-{}@zayavka.local", day(due)),
        format!("DTSTAMP:{}", stamp.strftime("%Y%m%dT%H%M%SZ")),
        format!("DTSTART;VALUE=DATE:{}", day(due)),
        format!("DTEND;VALUE=DATE:{}", day(next)),
        format!("SUMMARY:{}", escape(&summary)),
        format!("DESCRIPTION:{}", escape(&description)),
        "TRANSP:TRANSPARENT".to_owned(),
        "BEGIN:VALARM".to_owned(),
        "ACTION:DISPLAY".to_owned(),
        "TRIGGER:-P1D".to_owned(),
        format!("DESCRIPTION:{}", escape(&summary)),
        "END:VALARM".to_owned(),
        "END:VEVENT".to_owned(),
        "END:VCALENDAR".to_owned(),
    ];
    Some(lines.iter().map(|line| fold(line)).collect())
}

/// A text value escaped as RFC 5545 §3.3.11 says: backslash, semicolon, comma and line breaks.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// One content line folded at 75 octets, never inside a UTF-8 character (§3.1), ending in CRLF.
fn fold(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + line.len() / 70 * 3 + 2);
    let mut width = 0;
    for c in line.chars() {
        let size = c.len_utf8();
        // A continuation line starts with a space, which counts towards its 75 octets.
        if width + size > 75 {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += size;
    }
    out.push_str("\r\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;
    use zayavka_store::{Case, DraftId, Filing, FilingMethod};

    fn view(method: FilingMethod, delivered_on: Option<jiff::civil::Date>) -> CaseView {
        let case = Case {
            draft_id: DraftId::new(12).unwrap(),
            filing: Filing {
                filed_on: date(2026, 12, 7),
                method,
                number: Some("17/А; к. 2, \\ кв.".to_owned()),
                addressee: None,
                delivered_on,
            },
            answer: None,
            closed_on: None,
            follows: None,
            created_at: Timestamp::UNIX_EPOCH,
            updated_at: Timestamp::UNIX_EPOCH,
        };
        CaseView::new(case, date(2026, 12, 8))
    }

    #[test]
    fn the_event_is_an_all_day_deadline_with_a_reminder_and_folded_lines() {
        let stamp: Timestamp = "2026-12-08T10:00:00Z".parse().unwrap();
        let title = "Не горит свет на лестнице между третьим и четвёртым этажами, неделю";
        let text = deadline_event(&view(FilingMethod::InPerson, None), Some(title), stamp).unwrap();
        assert!(
            text.starts_with("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"),
            "{text}"
        );
        assert!(text.ends_with("END:VCALENDAR\r\n"));
        assert!(text.contains("DTSTART;VALUE=DATE:20261221\r\n"), "{text}");
        assert!(text.contains("DTEND;VALUE=DATE:20261222\r\n"));
        assert!(text.contains("DTSTAMP:20261208T100000Z\r\n"));
        assert!(text.contains("UID:zayavka-case-12-20261221@zayavka.local\r\n"));
        assert!(text.contains("TRIGGER:-P1D\r\n"));
        // Every line is at most 75 octets, and unfolding gives the escaped values back.
        for line in text.split("\r\n") {
            assert!(line.len() <= 75, "{line:?} is {} octets", line.len());
        }
        let unfolded = text.replace("\r\n ", "");
        assert!(unfolded.contains(&format!(
            "SUMMARY:Срок ответа по заявке № 12: {}",
            escape(title)
        )));
        assert!(
            unfolded.contains("Входящий номер: 17/А\\; к. 2\\, \\\\ кв."),
            "{unfolded}"
        );
        assert!(
            unfolded.contains("ещё не сверены"),
            "the notice travels along"
        );
        assert!(!text.contains('\n') || text.matches('\n').count() == text.matches("\r\n").count());
    }

    #[test]
    fn no_date_no_event() {
        let stamp = Timestamp::UNIX_EPOCH;
        assert_eq!(
            deadline_event(&view(FilingMethod::Letter, None), None, stamp),
            None
        );
        let delivered = view(FilingMethod::Letter, Some(date(2026, 12, 8)));
        let text = deadline_event(&delivered, None, stamp).unwrap();
        assert!(text.contains("DTSTART;VALUE=DATE:20261222"), "{text}");
        assert!(text.contains("SUMMARY:Срок ответа по заявке № 12\r\n"));
    }

    #[test]
    fn folding_never_splits_a_character() {
        let line = format!("DESCRIPTION:{}", "ж".repeat(200));
        let folded = fold(&line);
        for part in folded.split("\r\n") {
            assert!(part.len() <= 75);
            assert!(std::str::from_utf8(part.as_bytes()).is_ok());
        }
        assert_eq!(folded.replace("\r\n ", "").trim_end(), line);
    }
}
