//! The program's own notes on the resident's text (issue 36, WRITING_RULES 15): relative time
//! words and a missing place, dated by the day the draft was made. The core finds them; the
//! engine knows that day and words dates as the documents do.

use jiff::civil::Date;
use zayavka_core::{ResidentInput, ResidentNote};
use zayavka_store::StoredDraft;

/// The notes on `input` for a draft made on `drafted_on`.
pub fn resident_notes_on(input: &ResidentInput, drafted_on: Date) -> Vec<ResidentNote> {
    zayavka_core::resident_notes(input, drafted_on, zayavka_document::date_ru)
}

/// The notes on a new draft made now: today's date on this computer, the day its record gets.
pub fn notes_today(input: &ResidentInput) -> Vec<ResidentNote> {
    resident_notes_on(input, jiff::Zoned::now().date())
}

/// The notes on a stored draft, dated by the day it was first stored (in this computer's time
/// zone), so that opening it later says what «вчера» meant then. A draft whose input the
/// contract refuses has none.
pub fn stored_notes(draft: &StoredDraft) -> Vec<ResidentNote> {
    // The input as checked when it was stored; a draft whose input the contract refused has
    // none, and no notes.
    let Some(Ok(input)) = draft
        .summary
        .checked_input_json
        .as_deref()
        .map(ResidentInput::from_json_str)
    else {
        return Vec::new();
    };
    let drafted_on = draft
        .summary
        .created_at
        .to_zoned(jiff::tz::TimeZone::system())
        .date();
    resident_notes_on(&input, drafted_on)
}
