//! Small text rules shared by the input contract, validation and assembly.
//!
//! Lengths are always counted in Unicode scalar values (`char`s), the unit the product brief
//! uses for every limit, never in bytes.

/// The number of characters (Unicode scalar values) in `text`.
pub fn char_count(text: &str) -> usize {
    text.chars().count()
}

/// Characters that end a sentence: a section or an item that ends with one is left as it is.
const TERMINAL_PUNCTUATION: [char; 4] = ['.', '!', '?', '…'];

/// Characters that may end a fragment but not a sentence: they become a period.
const NON_TERMINAL_PUNCTUATION: [char; 3] = [',', ';', ':'];

/// Whether `c` breaks a line: the usual ASCII breaks plus the Unicode separators, which render
/// as a break in most editors and must not sneak a second line into a one-line field.
pub fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// Joins the lines of `text` into one line: every line is trimmed, empty lines are dropped and
/// the rest are joined with single spaces. Nothing inside a line changes.
pub fn join_lines(text: &str) -> String {
    let mut joined = String::with_capacity(text.len());
    for line in text.split(is_line_break) {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if !joined.is_empty() {
            joined.push(' ');
        }
        joined.push_str(line);
    }
    joined
}

/// Ends `text` as a sentence: a trailing `,` `;` or `:` becomes `.`, and a period is added
/// unless the text already ends with `.`, `!`, `?` or `…`.
pub fn end_as_sentence(mut text: String) -> String {
    match text.chars().next_back() {
        Some(last) if TERMINAL_PUNCTUATION.contains(&last) => {}
        Some(last) if NON_TERMINAL_PUNCTUATION.contains(&last) => {
            text.pop();
            text.push('.');
        }
        Some(_) => text.push('.'),
        None => {}
    }
    text
}

/// Upper-cases the first letter of `text`, but only where the upper case is exactly one
/// character (so «ß» or a ligature is left alone rather than changed into something longer).
pub fn capitalise_first(text: &str) -> String {
    let mut chars = text.chars();
    let Some(first) = chars.next() else {
        return String::new();
    };
    let mut upper = first.to_uppercase();
    match (upper.next(), upper.next()) {
        (Some(single), None) => {
            let mut result = String::with_capacity(text.len());
            result.push(single);
            result.push_str(chars.as_str());
            result
        }
        _ => text.to_owned(),
    }
}

/// Whether `text` contains something that reads as a web address.
///
/// Addresses in a request body are the resident's or the code's business, never the model's:
/// a scheme (`http://`), a `www.` prefix, or a bare domain with a common top-level domain.
pub fn contains_url(text: &str) -> bool {
    let lower = text.to_lowercase();
    if lower.contains("://") || lower.contains("www.") {
        return true;
    }
    const TOP_LEVEL_DOMAINS: [&str; 9] = [
        ".ru", ".рф", ".com", ".org", ".net", ".su", ".info", ".io", ".рус",
    ];
    lower
        .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '«' | '»' | '"' | ','))
        .any(|word| {
            let word = word.trim_end_matches(['.', '!', '?', ';', ':']);
            TOP_LEVEL_DOMAINS.iter().any(|tld| {
                word.find(tld).is_some_and(|at| {
                    let before = &word[..at];
                    let after = &word[at + tld.len()..];
                    let label_ok = before
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '-');
                    label_ok && (after.is_empty() || after.starts_with('/'))
                })
            })
        })
}

/// Whether `text` contains the word «прошу» in any case: the start of a request block, which
/// belongs to the code's «Прошу:» section and nowhere else.
pub fn contains_request_word(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|word| word.to_lowercase() == "прошу")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_lines_trims_each_line_and_drops_empty_ones() {
        assert_eq!(join_lines("  a\r\n\n  b \n c"), "a b c");
        assert_eq!(join_lines("a\u{2028}b"), "a b");
        assert_eq!(join_lines("a\tb"), "a\tb");
    }

    #[test]
    fn sentences_end_with_exactly_one_terminal_mark() {
        assert_eq!(end_as_sentence("Свет не горит".into()), "Свет не горит.");
        assert_eq!(end_as_sentence("Свет не горит,".into()), "Свет не горит.");
        assert_eq!(end_as_sentence("Свет не горит;".into()), "Свет не горит.");
        assert_eq!(end_as_sentence("Свет не горит:".into()), "Свет не горит.");
        assert_eq!(end_as_sentence("Свет не горит!".into()), "Свет не горит!");
        assert_eq!(end_as_sentence("Свет не горит?".into()), "Свет не горит?");
        assert_eq!(end_as_sentence("Свет не горит…".into()), "Свет не горит…");
        assert_eq!(end_as_sentence(String::new()), "");
    }

    #[test]
    fn first_letter_is_capitalised_only_when_it_maps_to_one_character() {
        assert_eq!(capitalise_first("заменить лампы"), "Заменить лампы");
        assert_eq!(capitalise_first("ёлка"), "Ёлка");
        assert_eq!(capitalise_first("ßtraße"), "ßtraße");
        assert_eq!(capitalise_first("1. починить"), "1. починить");
        assert_eq!(capitalise_first(""), "");
    }

    #[test]
    fn urls_are_recognised_in_their_usual_forms() {
        for text in [
            "см. https://example.org",
            "сайт www.uk-dom.ru",
            "пишите на uk-dom.ru",
            "портал госуслуги.рф/дом",
            "(dom.gosuslugi.ru)",
        ] {
            assert!(contains_url(text), "{text}");
        }
        for text in [
            "Свет не горит. Руслан видел.",
            "кв. 5, эт. 3",
            "т.е. неделю",
            "в 10.00 утра",
        ] {
            assert!(!contains_url(text), "{text}");
        }
    }

    #[test]
    fn request_word_is_found_as_a_whole_word_in_any_case() {
        assert!(contains_request_word("Прошу: заменить"));
        assert!(contains_request_word("очень ПРОШУ починить"));
        assert!(!contains_request_word("жильцы просят"));
        assert!(!contains_request_word("упрошу"));
    }
}
