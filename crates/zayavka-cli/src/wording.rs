//! Small pieces of Russian wording that several command files share: a stored moment on the
//! resident's clock, a list of row numbers, a sentence's period and capital letter. It sits
//! below the command files (`drafts_cmd.rs`, `case_cmd.rs`, `batch_cmd.rs`) and calls none of
//! them.

use zayavka_engine::date_ru;

/// A stored moment (RFC 3339, UTC) as the resident's clock shows it, in Russian form:
/// «2 декабря 2026 г., 14:05», in `zone`: the system's time zone (`TZ` when set), looked up
/// once per command.
pub(crate) fn local_time_ru(rfc3339: &str, zone: &jiff::tz::TimeZone) -> String {
    let Ok(timestamp) = rfc3339.parse::<jiff::Timestamp>() else {
        return rfc3339.to_owned();
    };
    let local = timestamp.to_zoned(zone.clone());
    format!(
        "{}, {:02}:{:02}",
        date_ru(local.date()),
        local.hour(),
        local.minute()
    )
}

/// Row numbers as a message lists them: «2, 5, 7–40» — a run of three or more in a row as a
/// range, so that a file of 500 rows is one line, not 500 numbers.
pub(crate) fn row_list(rows: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut index = 0;
    while index < rows.len() {
        let first = rows[index];
        let mut last = index;
        while last + 1 < rows.len() && rows[last + 1] == rows[last] + 1 {
            last += 1;
        }
        match last - index {
            0 => parts.push(first.to_string()),
            1 => parts.extend([first.to_string(), rows[last].to_string()]),
            _ => parts.push(format!("{first}–{}", rows[last])),
        }
        index = last + 1;
    }
    parts.join(", ")
}

/// `text` ending with one period, also when it ends with «г.» already.
pub(crate) fn sentence(text: &str) -> String {
    if text.ends_with('.') {
        text.to_owned()
    } else {
        format!("{text}.")
    }
}

/// `text` with its first letter made a capital, for a phrase that starts a sentence.
pub(crate) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn row_numbers_in_a_row_are_listed_as_a_range() {
        assert_eq!(super::row_list(&[]), "");
        assert_eq!(super::row_list(&[4]), "4");
        assert_eq!(super::row_list(&[2, 3]), "2, 3");
        assert_eq!(
            super::row_list(&[2, 3, 4, 9, 11, 12, 13, 14]),
            "2–4, 9, 11–14"
        );
    }
}
