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

/// Whether `c` is an invisible formatting character (Unicode general category `Cf`): zero-width
/// spaces and joiners, the soft hyphen, the byte order mark, direction marks and the like.
pub fn is_invisible_format(c: char) -> bool {
    use unicode_general_category::{GeneralCategory, get_general_category};
    get_general_category(c) == GeneralCategory::Format
}

/// Whether `c` may not appear in text the model wrote: any control character (escape
/// sequences included) other than a line break, which has a finding of its own, and any
/// invisible formatting character. Such text could hide words or steer a terminal.
pub fn is_unsafe_in_model_text(c: char) -> bool {
    (c.is_control() && !is_line_break(c)) || is_invisible_format(c)
}

/// `text` with every control character other than a line break or tab, every invisible
/// formatting character and the Unicode line separators written as `\u{..}`, so that a message
/// quoting untrusted text shows what is there instead of obeying it.
pub fn escape_invisible(text: &str) -> String {
    let needs_escape = |c: char| {
        (c.is_control() && !matches!(c, '\n' | '\t'))
            || is_invisible_format(c)
            || matches!(c, '\u{2028}' | '\u{2029}')
    };
    if !text.chars().any(needs_escape) {
        return text.to_owned();
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if needs_escape(c) {
            escaped.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            escaped.push(c);
        }
    }
    escaped
}

/// The JSON pointer of the first member name given twice within one object, anywhere in
/// `json` (nested objects and arrays included), or `None` when there is none or the text is not
/// JSON. A parser keeps one of the two values silently, and which one differs between parsers,
/// so text with a repeated name is refused rather than read one way.
pub fn first_duplicate_key(json: &str) -> Option<String> {
    use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
    use std::cell::RefCell;

    struct Walk<'a> {
        path: String,
        found: &'a RefCell<Option<String>>,
    }

    impl<'de> DeserializeSeed<'de> for Walk<'_> {
        type Value = ();
        fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
            deserializer.deserialize_any(self)
        }
    }

    impl<'de> Visitor<'de> for Walk<'_> {
        type Value = ();
        fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            formatter.write_str("any JSON value")
        }
        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E>(self) -> Result<(), E> {
            Ok(())
        }
        fn visit_none<E>(self) -> Result<(), E> {
            Ok(())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            let mut index = 0usize;
            while seq
                .next_element_seed(Walk {
                    path: format!("{}/{index}", self.path),
                    found: self.found,
                })?
                .is_some()
            {
                index += 1;
            }
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut seen = std::collections::HashSet::new();
            while let Some(name) = map.next_key::<String>()? {
                let path = format!(
                    "{}/{}",
                    self.path,
                    name.replace('~', "~0").replace('/', "~1")
                );
                if !seen.insert(name) && self.found.borrow().is_none() {
                    *self.found.borrow_mut() = Some(path.clone());
                }
                map.next_value_seed(Walk {
                    path,
                    found: self.found,
                })?;
            }
            Ok(())
        }
    }

    let found = RefCell::new(None);
    let mut deserializer = serde_json::Deserializer::from_str(json);
    Walk {
        path: String::new(),
        found: &found,
    }
    .deserialize(&mut deserializer)
    .ok()?;
    found.into_inner()
}

/// What a JSON parser error means, in Russian, with the line and column: what kind of mistake
/// it is and where to look, never the parser's English.
pub fn json_error_ru(error: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let what = match error.classify() {
        Category::Eof => {
            "текст обрывается раньше времени: не хватает закрывающей кавычки или скобки"
        }
        Category::Syntax if is_number_out_of_range(error) => "число слишком большое",
        Category::Syntax => {
            "ошибка в записи: проверьте кавычки, запятые и скобки рядом с этим местом"
        }
        Category::Data => "значение не того вида, что ожидалось",
        Category::Io => "текст не удалось прочитать",
    };
    format!(
        "в строке {}, позиции {} — {what}",
        error.line(),
        error.column()
    )
}

/// Whether the parser refused a number it cannot represent (such as `1e400`). The text is
/// valid JSON; only its value is out of range.
pub fn is_number_out_of_range(error: &serde_json::Error) -> bool {
    // serde_json exposes no error code, but its message for this case is fixed.
    error.to_string().starts_with("number out of range")
}

/// Whether `text` holds at least one letter.
pub fn has_letter(text: &str) -> bool {
    text.chars().any(char::is_alphabetic)
}

/// Whether `c` is a letter of the Cyrillic script (the Cyrillic blocks of Unicode, with their
/// supplement and extensions): what «русские буквы» means to a resident.
pub fn is_cyrillic(c: char) -> bool {
    matches!(
        c,
        '\u{0400}'..='\u{052F}'
            | '\u{1C80}'..='\u{1C8F}'
            | '\u{2DE0}'..='\u{2DFF}'
            | '\u{A640}'..='\u{A69F}'
    ) && c.is_alphabetic()
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

/// A whole number as a Russian text writes it (issue 31): from five digits on, the digits in
/// groups of three separated by a no-break space («14 692», «100 000»), so that a line break
/// never splits the number; four digits and fewer stay as they are («2500»), as Russian
/// typography has them.
pub fn group_digits(number: impl Into<u64>) -> String {
    let digits = number.into().to_string();
    if digits.len() < 5 {
        return digits;
    }
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 * 2);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index) % 3 == 0 {
            out.push('\u{a0}');
        }
        out.push(digit);
    }
    out
}

/// `text` as a sentence that can stand on its own: trimmed, its first letter upper-cased
/// ([`capitalise_first`]) and one closing mark ([`end_as_sentence`]; several full stops become
/// one). The engine's inner messages and a service's details are clauses, lower case and
/// unpunctuated, so that they can be joined; both front ends show them with this.
pub fn full_sentence(text: &str) -> String {
    end_as_sentence(capitalise_first(text.trim().trim_end_matches('.')))
}

/// Upper-cases the first letter of `text`, but only where the upper case is exactly one
/// character (so «ß» or a ligature is left alone rather than changed into something longer).
///
/// Leading quotation marks, brackets and dashes are looked through («срочно» → «Срочно»), but
/// a text that starts with a number is left as it is: «5 ламп» must not become «5 Ламп».
pub fn capitalise_first(text: &str) -> String {
    let Some((at, first)) = text.char_indices().find(|(_, c)| c.is_alphanumeric()) else {
        return text.to_owned();
    };
    if !first.is_alphabetic() {
        return text.to_owned();
    }
    let mut upper = first.to_uppercase();
    match (upper.next(), upper.next()) {
        (Some(single), None) => {
            let mut result = String::with_capacity(text.len());
            result.push_str(&text[..at]);
            result.push(single);
            result.push_str(&text[at + first.len_utf8()..]);
            result
        }
        _ => text.to_owned(),
    }
}

/// Whether `text` contains something that reads as a web address or an e-mail address.
///
/// Addresses in a request body are the resident's or the code's business, never the model's:
/// a scheme (`http://`), a `www.` prefix, or a host name — dot-separated labels ending in a
/// Latin top-level domain of two or more letters (`t.me`, `lk.rusdom.ru`), or in `рф` / `рус`
/// for Cyrillic names. Russian abbreviations («т.е.», «ул.Ленина», «п.2») are not host names.
pub fn contains_url(text: &str) -> bool {
    let lower = text.to_lowercase();
    if lower.contains("://") || lower.contains("www.") {
        return true;
    }
    lower
        .split(|c: char| c.is_whitespace() || "()[]{}<>«»\"'`,;@".contains(c))
        .any(is_host_like)
}

/// Whether a word (possibly followed by a path) is a host name.
fn is_host_like(word: &str) -> bool {
    let host = word.split('/').next().unwrap_or("");
    let host = host.trim_end_matches(['.', '!', '?', ':', '…']);
    let labels: Vec<&str> = host.split('.').collect();
    let Some((top, rest)) = labels.split_last() else {
        return false;
    };
    if rest.is_empty() || labels.iter().any(|label| label.is_empty()) {
        return false;
    }
    let label_ok = |label: &&str, ascii: bool| {
        label.chars().all(|c| {
            c == '-'
                || if ascii {
                    c.is_ascii_alphanumeric()
                } else {
                    c.is_alphanumeric()
                }
        })
    };
    if top.len() >= 2 && top.chars().all(|c| c.is_ascii_alphabetic()) {
        rest.iter().all(|label| label_ok(label, true))
    } else if matches!(*top, "рф" | "рус") {
        rest.iter().all(|label| label_ok(label, false))
    } else {
        false
    }
}

/// Whether `text` contains a word that opens a request or a demand («прошу», «просим»,
/// «требую», «требуем») in any case. What is requested belongs to the code's «Прошу:» section
/// and nowhere else.
pub fn contains_request_word(text: &str) -> bool {
    const REQUEST_WORDS: [&str; 4] = ["прошу", "просим", "требую", "требуем"];
    text.split(|c: char| !c.is_alphanumeric())
        .any(|word| REQUEST_WORDS.contains(&word.to_lowercase().as_str()))
}

/// Whether `text` cites or invokes law: an article («статья 161», «ст. 161»), a code, a
/// resolution, a law or a numbered act («№ 491»). Legal text in a request is the maintainers'
/// curated catalogue, never the model's words.
pub fn contains_legal_reference(text: &str) -> bool {
    // «стать» alone is also the verb «to become», so the noun is matched by its forms.
    const ARTICLE: [&str; 10] = [
        "статья",
        "статьи",
        "статье",
        "статью",
        "статьей",
        "статьёй",
        "статей",
        "статьям",
        "статьями",
        "статьях",
    ];
    const STEMS: [&str; 3] = ["кодекс", "постановлени", "закон"];
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).collect();
    if words.iter().any(|word| {
        ARTICLE.contains(word) || *word == "фз" || STEMS.iter().any(|stem| word.starts_with(stem))
    }) {
        return true;
    }
    // «ст. 161», «ст.161», «№ 491», «№491».
    let abbreviation_with_number = |marker: &str| {
        lower.match_indices(marker).any(|(at, _)| {
            let before_ok = lower[..at]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric());
            let after = lower[at + marker.len()..].trim_start();
            before_ok && after.starts_with(|c: char| c.is_ascii_digit())
        })
    };
    abbreviation_with_number("ст.") || legal_number_sign(&lower)
}

/// Whether a «№» followed by a number reads as an act's number («№ 491»): not when it numbers
/// a place or a request the resident named («квартира № 15», «подъезд № 2», «заявка № 7»),
/// which capable models write (issue 36).
fn legal_number_sign(lower: &str) -> bool {
    const NUMBERED_PLACES: [&str; 15] = [
        "квартир",
        "кв",
        "подъезд",
        "дом",
        "помещени",
        "комнат",
        "корпус",
        "строени",
        "секци",
        "этаж",
        "лифт",
        "заявк",
        "обращени",
        "участ",
        "офис",
    ];
    lower.match_indices('№').any(|(at, _)| {
        let after = lower[at + '№'.len_utf8()..].trim_start();
        if !after.starts_with(|c: char| c.is_ascii_digit()) {
            return false;
        }
        let before = lower[..at].trim_end();
        let previous = before
            .rsplit(|c: char| !c.is_alphanumeric())
            .find(|word| !word.is_empty())
            .unwrap_or("");
        !NUMBERED_PLACES
            .iter()
            .any(|place| previous.starts_with(place))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_errors_are_explained_in_russian_with_their_place() {
        let error = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap_err();
        assert_eq!(
            json_error_ru(&error("{\"a\": 1,,}")),
            "в строке 1, позиции 9 — ошибка в записи: проверьте кавычки, запятые и скобки рядом с этим местом"
        );
        assert!(json_error_ru(&error("{\"a\": \"b")).contains("обрывается"));
        assert!(json_error_ru(&error("[1e400]")).ends_with("число слишком большое"));
        assert!(is_number_out_of_range(&error("[1e400]")));
        assert!(!is_number_out_of_range(&error("[1,,]")));
    }

    #[test]
    fn invisible_and_control_characters_are_escaped_for_display() {
        assert_eq!(
            escape_invisible("обычный текст\nвторая"),
            "обычный текст\nвторая"
        );
        assert_eq!(escape_invisible("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(
            escape_invisible("x\u{200b}y\u{feff}\u{202e}"),
            "x\\u{200b}y\\u{feff}\\u{202e}"
        );
        assert_eq!(escape_invisible("a\u{2028}b"), "a\\u{2028}b");
    }

    #[test]
    fn model_text_may_not_hold_controls_or_invisible_formatting() {
        for c in [
            '\u{1b}', '\u{0}', '\u{7f}', '\u{9b}', '\u{200b}', '\u{200d}', '\u{2060}', '\u{feff}',
            '\u{ad}', '\u{202e}', '\u{2066}', '\t',
        ] {
            assert!(is_unsafe_in_model_text(c), "{c:?}");
        }
        for c in ['а', 'ё', ' ', '\u{a0}', '«', '—', '\n'] {
            assert!(!is_unsafe_in_model_text(c), "{c:?}");
        }
    }

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
    fn a_clause_becomes_one_sentence() {
        assert_eq!(full_sentence(" файл не найден "), "Файл не найден.");
        assert_eq!(full_sentence("сервис ответил..."), "Сервис ответил.");
        assert_eq!(full_sentence("Готово!"), "Готово!");
        assert_eq!(full_sentence("ждём…"), "Ждём…");
        assert_eq!(full_sentence("«срочно»: заменить"), "«Срочно»: заменить.");
        assert_eq!(full_sentence(" . "), "");
    }

    #[test]
    fn first_letter_is_capitalised_only_when_it_maps_to_one_character() {
        assert_eq!(capitalise_first("заменить лампы"), "Заменить лампы");
        assert_eq!(capitalise_first("ёлка"), "Ёлка");
        assert_eq!(capitalise_first("ßtraße"), "ßtraße");
        assert_eq!(capitalise_first("1. починить"), "1. починить");
        assert_eq!(capitalise_first("5 ламп заменить"), "5 ламп заменить");
        assert_eq!(capitalise_first("«срочно» заменить"), "«Срочно» заменить");
        assert_eq!(capitalise_first("— заменить"), "— Заменить");
        assert_eq!(capitalise_first(""), "");
        assert_eq!(capitalise_first("..."), "...");
    }

    #[test]
    fn urls_are_recognised_in_their_usual_forms() {
        for text in [
            "см. https://example.org",
            "сайт www.uk-dom.ru",
            "пишите на uk-dom.ru",
            "портал госуслуги.рф/дом",
            "(dom.gosuslugi.ru)",
            "чат t.me/lesnaya7_dom",
            "кабинет lk.rusdom.ru",
            "bit.ly/abc",
            "пишите на uk@mail.ru",
        ] {
            assert!(contains_url(text), "{text}");
        }
        for text in [
            "Свет не горит. Руслан видел.",
            "кв. 5, эт. 3",
            "т.е. неделю",
            "в 10.00 утра",
            "ул.Ленина, д.5, кв.45",
            "т.к. неделю, т.д.",
            "п. 2 пп. «а», ст.161",
            "в 3.5 раза",
            "г.Москва",
        ] {
            assert!(!contains_url(text), "{text}");
        }
    }

    #[test]
    fn legal_references_are_recognised_and_ordinary_words_are_not() {
        for text in [
            "согласно статье 161 ЖК",
            "по ст. 161",
            "по ст.161",
            "Жилищного кодекса",
            "постановлением № 491",
            "нарушение закона",
            "по закону должны",
            "по 59-ФЗ",
            "приказ №170",
        ] {
            assert!(contains_legal_reference(text), "{text}");
        }
        for text in [
            "стало темно",
            "может стать причиной падения",
            "стоит лужа",
            "кв. 45, ст. м. Сокол",
            "на лестнице пост охраны",
            "с 10 утра",
            "подъезд 2",
            // Issue 36: a capable model numbers the resident's flat with «№».
            "Дверь моей квартиры № 15 перекосило",
            "в подъезде № 2 на этаже № 5",
            "по моей заявке №7 ответа нет",
            "кв. №34",
        ] {
            assert!(!contains_legal_reference(text), "{text}");
        }
    }

    #[test]
    fn request_word_is_found_as_a_whole_word_in_any_case() {
        assert!(contains_request_word("Прошу: заменить"));
        assert!(contains_request_word("очень ПРОШУ починить"));
        assert!(contains_request_word("Требую компенсацию"));
        assert!(contains_request_word("просим починить"));
        assert!(!contains_request_word("жильцы просят"));
        assert!(!contains_request_word("требуется ремонт"));
        assert!(!contains_request_word("упрошу"));
    }

    #[test]
    fn a_name_given_twice_is_found_at_any_depth() {
        assert_eq!(
            first_duplicate_key(r#"{"a": 1, "b": [1, 1], "c": {"a": 2}}"#),
            None
        );
        assert_eq!(
            first_duplicate_key(r#"{"title": "А", "title": "Б"}"#).as_deref(),
            Some("/title")
        );
        assert_eq!(
            first_duplicate_key(
                r#"{"subject": {"evidence": [{"quote": "x", "quote": "y", "a/b": 1}]}}"#
            )
            .as_deref(),
            Some("/subject/evidence/0/quote")
        );
        assert_eq!(first_duplicate_key("не JSON"), None);
    }

    #[test]
    fn numbers_of_five_digits_and_more_are_grouped_by_three() {
        for (number, text) in [
            (0_u64, "0"),
            (2500, "2500"),
            (9999, "9999"),
            (14692, "14\u{a0}692"),
            (100_000, "100\u{a0}000"),
            (800_008, "800\u{a0}008"),
            (1_234_567, "1\u{a0}234\u{a0}567"),
        ] {
            assert_eq!(group_digits(number), text, "{number}");
        }
    }
}
