//! The first words of a resident's description: the preview under each title in a list of
//! drafts, and the title of a request drafted without a model (issue 14).
//!
//! Both are the resident's own words, shortened at a word boundary and marked with «…» where
//! they were cut; neither is ever the model's text. Same text, same result.

use crate::text::{capitalise_first, char_count, is_invisible_format};

/// The longest preview, in characters, «…» included.
pub const PREVIEW_MAX: usize = 80;

/// The longest title of a request drafted without a model, in characters, «…» included: well
/// under the title limit of 120, so that a list shows it on one line.
pub const OFFLINE_TITLE_MAX: usize = 60;

/// What marks a shortened text.
const ELLIPSIS: char = '…';

/// Characters that read badly right before «…» and are dropped there: a cut after «свет,» or
/// «лампы —» ends «свет…» and «лампы…».
const DANGLING: [char; 14] = [
    ',', ';', ':', '.', '-', '–', '—', '(', '[', '«', '„', '“', '"', '\'',
];

/// The start of `text` as one line of at most `max` characters: whitespace of any kind (line
/// breaks included) becomes single spaces, control and invisible formatting characters are
/// dropped, and a text longer than `max` is cut after its last whole word that fits, with «…».
/// A first word longer than `max` is cut inside, never between a letter and its accent or an
/// emoji and its modifier.
pub fn first_words(text: &str, max: usize) -> String {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|word| word.chars().filter(|&c| is_shown(c)).collect::<String>())
        .filter(|word| !word.is_empty())
        .collect();
    let whole = words.join(" ");
    if char_count(&whole) <= max {
        return whole;
    }
    let room = max.saturating_sub(1);
    let mut kept = String::new();
    let mut length = 0;
    for word in &words {
        let separator = usize::from(!kept.is_empty());
        let word_length = char_count(word);
        if length + separator + word_length > room {
            break;
        }
        if separator == 1 {
            kept.push(' ');
        }
        kept.push_str(word);
        length += separator + word_length;
    }
    let mut kept = kept.trim_end_matches(DANGLING).trim_end().to_owned();
    if kept.is_empty() {
        // No whole word fits (or only punctuation did): the text is cut inside its first word.
        kept = cut_inside(&whole, room)
            .trim_end_matches(DANGLING)
            .trim_end()
            .to_owned();
    }
    kept.push(ELLIPSIS);
    kept
}

/// The title of a request drafted without a model: the first words of the resident's
/// description, at most [`OFFLINE_TITLE_MAX`] characters, the first letter upper-cased, without
/// a closing period (a title is not a sentence).
pub fn offline_title(description: &str) -> String {
    let words = first_words(description, OFFLINE_TITLE_MAX);
    capitalise_first(words.strip_suffix('.').unwrap_or(&words))
}

/// Whether `c` may be shown in a one-line preview.
fn is_shown(c: char) -> bool {
    !c.is_control() && !is_invisible_format(c)
}

/// The first `room` characters of `text` or fewer: the cut moves back so that it never
/// separates a character from the marks, variation selectors or emoji modifiers that follow
/// it, nor the two halves of a flag.
fn cut_inside(text: &str, room: usize) -> &str {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    if chars.len() <= room {
        return text;
    }
    let mut cut = room;
    while cut > 0 && continues_previous(chars[cut].1) {
        cut -= 1;
    }
    let flags_before = chars[..cut]
        .iter()
        .rev()
        .take_while(|(_, c)| is_regional_indicator(*c))
        .count();
    if flags_before % 2 == 1 && is_regional_indicator(chars[cut].1) {
        cut -= 1;
    }
    &text[..chars[cut].0]
}

/// Whether `c` belongs to the character before it: a combining mark, a variation selector
/// (both marks) or an emoji skin-tone modifier.
fn continues_previous(c: char) -> bool {
    use unicode_general_category::{GeneralCategory, get_general_category};
    matches!(
        get_general_category(c),
        GeneralCategory::NonspacingMark
            | GeneralCategory::SpacingMark
            | GeneralCategory::EnclosingMark
    ) || ('\u{1F3FB}'..='\u{1F3FF}').contains(&c)
}

fn is_regional_indicator(c: char) -> bool {
    ('\u{1F1E6}'..='\u{1F1FF}').contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_14_a_short_text_is_kept_whole_on_one_line() {
        assert_eq!(
            first_words("  На крыльце\r\n\n третий\tдень лужа  ", 80),
            "На крыльце третий день лужа"
        );
        assert_eq!(first_words("", 80), "");
    }

    #[test]
    fn issue_14_a_long_text_is_cut_after_the_last_whole_word_with_an_ellipsis() {
        let text = "В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами.";
        let cut = first_words(text, 40);
        assert_eq!(cut, "В подъезде неделю не горит свет на…");
        assert!(char_count(&cut) <= 40);
        // Exactly at the limit the text stays whole; one character over, it is cut.
        let fits = "а".repeat(39) + " б";
        assert_eq!(first_words(&fits, 41), fits);
        assert_eq!(first_words(&fits, 40), format!("{}…", "а".repeat(39)));
    }

    #[test]
    fn issue_14_punctuation_before_the_cut_is_dropped() {
        assert_eq!(
            first_words("Свет не горит, лампы разбиты — все до одной", 22),
            "Свет не горит, лампы…"
        );
        assert_eq!(
            first_words("Свет не горит — лампы разбиты", 15),
            "Свет не горит…"
        );
        assert_eq!(
            first_words("Не горит свет. Лампы разбиты", 18),
            "Не горит свет…"
        );
    }

    #[test]
    fn issue_14_a_very_long_first_word_is_cut_inside() {
        let word = "ы".repeat(200);
        let cut = first_words(&word, 60);
        assert_eq!(cut, format!("{}…", "ы".repeat(59)));
        assert_eq!(char_count(&cut), 60);
        let title = offline_title(&format!("{word} течёт"));
        assert_eq!(title, format!("Ы{}…", "ы".repeat(58)));
        assert_eq!(char_count(&title), OFFLINE_TITLE_MAX);
    }

    #[test]
    fn issue_14_line_breaks_control_and_invisible_characters_never_reach_the_line() {
        let text = "Течёт\u{2028}крыша\u{202e}\u{200b}\u{7}\n\nнад\u{85}кухней";
        assert_eq!(first_words(text, 80), "Течёт крыша над кухней");
        assert!(!first_words(text, 12).contains(['\n', '\u{202e}']));
    }

    #[test]
    fn issue_14_emoji_and_accents_are_never_split() {
        // Each word is whole or absent.
        assert_eq!(
            first_words("Лифт 🚫🛗 не работает 😡😡 третий день", 20),
            "Лифт 🚫🛗 не работает…"
        );
        // Inside an over-long word, a skin-tone modifier stays with its emoji, an accent with
        // its letter and the two halves of a flag together.
        let thumbs = "👍🏽".repeat(10);
        let cut = first_words(&thumbs, 6);
        assert_eq!(cut, format!("{}…", "👍🏽".repeat(2)));
        let accented = "е\u{308}".repeat(10);
        assert_eq!(
            first_words(&accented, 6),
            format!("{}…", "е\u{308}".repeat(2))
        );
        let flags = "🇷🇺".repeat(10);
        assert_eq!(first_words(&flags, 6), format!("{}…", "🇷🇺".repeat(2)));
    }

    #[test]
    fn issue_14_the_offline_title_is_the_residents_first_words_capitalised() {
        assert_eq!(
            offline_title("на крыльце третий день лужа."),
            "На крыльце третий день лужа"
        );
        assert_eq!(
            offline_title("ёлку у подъезда сломали!"),
            "Ёлку у подъезда сломали!"
        );
        assert_eq!(
            offline_title("«срочно»\nтечёт крыша"),
            "«Срочно» течёт крыша"
        );
        let long = "в подъезде номер два уже неделю не горит свет на лестнице между третьим и \
                    четвёртым этажами, жильцы спотыкаются";
        let title = offline_title(long);
        assert_eq!(
            title,
            "В подъезде номер два уже неделю не горит свет на лестнице…"
        );
        assert!(char_count(&title) <= OFFLINE_TITLE_MAX);
        // The same words give the same title, every time.
        assert_eq!(offline_title(long), title);
    }
}
