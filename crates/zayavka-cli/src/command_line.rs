//! Command lines as the resident's shell reads them: the commands the tool prints for the
//! resident to run again, and the editor named in `VISUAL` or `EDITOR`.
//!
//! Unix shells take POSIX quoting (`shell-words`). Windows has no shell-wide rule; programs
//! split their command line as the Microsoft C runtime does, and both cmd.exe and PowerShell
//! pass a double-quoted word through whole. So on Windows a word with a space is put in double
//! quotes, and a backslash is an ordinary character (`C:\Windows\notepad.exe`), not an escape.

/// The words as one command line for this platform's shell.
pub fn join<S: AsRef<str>>(words: impl IntoIterator<Item = S>) -> String {
    if cfg!(windows) {
        join_windows(words)
    } else {
        shell_words::join(words)
    }
}

/// A command line from an environment variable such as `EDITOR`, split into words by this
/// platform's rules; `None` when its quotes do not close.
pub fn split(line: &str) -> Option<Vec<String>> {
    if cfg!(windows) {
        split_windows(line)
    } else {
        shell_words::split(line).ok()
    }
}

/// Double quotes around a word that needs them, with an inner quote written `\"` and the
/// backslashes before a quote doubled, as the C runtime reads them back.
fn join_windows<S: AsRef<str>>(words: impl IntoIterator<Item = S>) -> String {
    let quote = |word: &str| -> String {
        if !word.is_empty() && !word.contains([' ', '\t', '"', '&', '|', '<', '>', '^', '(', ')']) {
            return word.to_owned();
        }
        let mut quoted = String::from("\"");
        let mut backslashes = 0;
        for c in word.chars() {
            match c {
                '\\' => backslashes += 1,
                '"' => {
                    quoted.extend(std::iter::repeat_n('\\', backslashes * 2 + 1));
                    backslashes = 0;
                }
                _ => backslashes = 0,
            }
            if c != '\\' {
                quoted.push(c);
            } else {
                quoted.push('\\');
            }
        }
        quoted.extend(std::iter::repeat_n('\\', backslashes));
        quoted.push('"');
        quoted
    };
    words
        .into_iter()
        .map(|word| quote(word.as_ref()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Words separated by spaces or tabs outside double quotes; the quotes are removed and
/// backslashes kept (an editor's path such as `"C:\Program Files\Notepad++\notepad++.exe"`).
fn split_windows(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            ' ' | '\t' if !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            _ => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quoted {
        return None;
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_words_with_spaces_are_double_quoted_and_backslashes_kept() {
        assert_eq!(
            join_windows([
                "zayavka",
                "draft",
                "--description",
                "В подъезде не горит свет",
                "--input",
                r"C:\Мои заявки\заявка.json",
            ]),
            r#"zayavka draft --description "В подъезде не горит свет" --input "C:\Мои заявки\заявка.json""#
        );
        assert_eq!(join_windows(["a", ""]), r#"a """#);
        assert_eq!(join_windows([r#"say "hi""#]), r#""say \"hi\"""#);
        assert_eq!(
            join_windows([r"C:\dir with space\"]),
            r#""C:\dir with space\\""#
        );
    }

    #[test]
    fn windows_splitting_keeps_backslashes_and_quoted_spaces() {
        assert_eq!(
            split_windows(r#""C:\Program Files\Notepad++\notepad++.exe" -multiInst"#),
            Some(vec![
                r"C:\Program Files\Notepad++\notepad++.exe".to_owned(),
                "-multiInst".to_owned()
            ])
        );
        assert_eq!(
            split_windows(r"C:\Windows\notepad.exe"),
            Some(vec![r"C:\Windows\notepad.exe".to_owned()])
        );
        assert_eq!(split_windows(r#""unclosed"#), None);
        assert_eq!(split_windows("  "), Some(vec![]));
    }

    /// What a resident copies from the tool's advice runs in this platform's shell.
    #[test]
    fn the_platform_s_rules_are_used() {
        let line = join(["zayavka", "draft", "--description", "свет не горит"]);
        if cfg!(windows) {
            assert_eq!(line, r#"zayavka draft --description "свет не горит""#);
        } else {
            assert_eq!(line, "zayavka draft --description 'свет не горит'");
        }
        let editor = split(r"C:\Windows\notepad.exe").unwrap();
        if cfg!(windows) {
            assert_eq!(editor, [r"C:\Windows\notepad.exe"]);
        } else {
            assert_eq!(editor, ["C:Windowsnotepad.exe"]);
        }
    }
}
