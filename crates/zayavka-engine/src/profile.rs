//! The resident's profile: who files the request and to whom, for the document's header only.
//!
//! Seven one-line fields, kept in `profile.toml` in the configuration folder, replaced
//! atomically and private to the user (mode 0600 on Unix). Every value is checked before
//! anything is written: control, direction and invisible characters are refused with their
//! position, each field has a length limit and the e-mail must look like one. A refused value
//! changes nothing.
//!
//! The profile never enters the model's context: nothing in the draft path reads this module,
//! and `tests/integration/profile.rs` proves it on the request the provider receives and on the
//! context record.

use std::path::{Path, PathBuf};

use toml_edit::DocumentMut;

use crate::paths::{Paths, io_error_ru};

pub use zayavka_document::{Profile, ProfileField};

/// The profile file's name inside the configuration folder.
pub const PROFILE_FILE_NAME: &str = "profile.toml";

/// The largest profile file read back: far above seven filled fields, small enough that a
/// stray huge file is refused at once.
pub const PROFILE_MAX_BYTES: u64 = 64 * 1024;

/// The field called `name` (`full_name`, `address`, …), as `profile set` and the page name it.
pub fn field_named(name: &str) -> Result<ProfileField, ProfileError> {
    ProfileField::from_code(name).ok_or_else(|| ProfileError::UnknownField {
        name: zayavka_core::escape_invisible(name),
    })
}

/// What is wrong with one value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValueProblem {
    /// A control character (a line break or a tab among them: every field is one line).
    ControlCharacter {
        /// The character.
        character: char,
        /// Its position, counted in characters from 1.
        position: usize,
    },
    /// An invisible formatting or direction character, which could hide part of the text.
    InvisibleCharacter {
        /// The character.
        character: char,
        /// Its position, counted in characters from 1.
        position: usize,
    },
    /// Longer than the field takes.
    TooLong {
        /// The limit.
        max: usize,
        /// The value's length.
        actual: usize,
    },
    /// Not an e-mail address.
    MalformedEmail,
    /// A phone number with no digit in it.
    NoDigits,
}

/// Why the profile could not be read, checked or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProfileError {
    /// A value that may not be kept; nothing was changed.
    #[error("{}", invalid_message(*.field, .problem))]
    Invalid {
        /// The field.
        field: ProfileField,
        /// What is wrong.
        problem: ValueProblem,
    },
    /// A field name the profile does not have.
    #[error(
        "в профиле нет поля «{name}»; есть full_name, address, apartment, phone, email, \
         company_name и company_address"
    )]
    UnknownField {
        /// The name as given, with invisible characters shown.
        name: String,
    },
    /// The file could not be read.
    #[error("не удалось прочитать профиль {}: {}", .path.display(), io_error_ru(.source))]
    Read {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// The file is there but does not hold a profile (changed by hand, or damaged).
    #[error(
        "файл профиля {} не читается: {detail}. Исправьте его или очистите профиль и \
         заполните заново",
        .path.display()
    )]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong, in Russian.
        detail: String,
    },
    /// The file could not be written; the profile kept before is unchanged.
    #[error(
        "не удалось сохранить профиль в {}: {}; прежний профиль не изменён. Освободите место на \
         диске или дайте права на запись в эту папку и сохраните профиль ещё раз",
        .path.display(),
        io_error_ru(.source)
    )]
    Write {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
}

impl ProfileError {
    /// What happened and what to do, in Russian.
    pub fn message_ru(&self) -> String {
        self.to_string()
    }
}

fn invalid_message(field: ProfileField, problem: &ValueProblem) -> String {
    let label = field.label_ru();
    match problem {
        ValueProblem::ControlCharacter {
            character,
            position,
        } => format!(
            "в поле «{label}» на позиции {position} стоит служебный символ (U+{:04X}) — \
             например перенос строки или табуляция. Поле пишется одной строкой: удалите этот \
             символ",
            u32::from(*character)
        ),
        ValueProblem::InvisibleCharacter {
            character,
            position,
        } => format!(
            "в поле «{label}» на позиции {position} стоит невидимый символ (U+{:04X}), который \
             может скрыть или перевернуть часть текста. Удалите его, например перепечатав этот \
             фрагмент",
            u32::from(*character)
        ),
        ValueProblem::TooLong { max, actual } => format!(
            "поле «{label}» слишком длинное: можно не больше {max} символов, сейчас {actual}. \
             Сократите его — текст не будет обрезан автоматически"
        ),
        ValueProblem::MalformedEmail => format!(
            "в поле «{label}» не адрес электронной почты: нужен вид имя@домен.ru, без пробелов \
             и с одним знаком @"
        ),
        ValueProblem::NoDigits => {
            format!("в поле «{label}» нет ни одной цифры: впишите номер телефона цифрами")
        }
    }
}

/// `profile` with `field` set to `value` (trimmed; an empty value removes the field), or why
/// the value may not be kept. `profile` is unchanged either way.
pub fn with_field(
    profile: &Profile,
    field: ProfileField,
    value: &str,
) -> Result<Profile, ProfileError> {
    let checked = check_value(field, value)?;
    Ok(profile.clone().with_value(field, checked))
}

/// The profile as TOML, fields in their fixed order.
fn to_toml(profile: &Profile) -> String {
    let mut document = DocumentMut::new();
    for &field in ProfileField::ALL {
        if let Some(value) = profile.get(field) {
            document[field.code()] = toml_edit::value(value);
        }
    }
    document.to_string()
}

/// Reads a profile file's text, checking every value as `profile set` would.
fn from_toml(text: &str) -> Result<Profile, String> {
    let document: DocumentMut = text
        .parse()
        .map_err(|error: toml_edit::TomlError| format!("это не TOML ({})", error.message()))?;
    let mut profile = Profile::default();
    for (key, item) in document.iter() {
        let field = ProfileField::from_code(key).ok_or_else(|| {
            format!(
                "поле «{}» не предусмотрено",
                zayavka_core::escape_invisible(key)
            )
        })?;
        let value = item
            .as_str()
            .ok_or_else(|| format!("поле «{key}» должно быть строкой"))?;
        profile = with_field(&profile, field, value).map_err(|error| error.message_ru())?;
    }
    Ok(profile)
}

/// Checks one value: trimmed, one line, no invisible characters, within the field's limit, and
/// for the e-mail and the phone, of their form. An empty value means «no value».
pub fn check_value(field: ProfileField, value: &str) -> Result<Option<String>, ProfileError> {
    let invalid = |problem| ProfileError::Invalid { field, problem };
    // Characters are checked before trimming so that a trailing line break is named, not
    // silently dropped.
    for (index, character) in value.chars().enumerate() {
        let position = index + 1;
        if character.is_control() {
            return Err(invalid(ValueProblem::ControlCharacter {
                character,
                position,
            }));
        }
        let mut buffer = [0; 4];
        let text = character.encode_utf8(&mut buffer);
        // `escape_invisible` is the core's one definition of what hides text: formatting
        // characters (zero-width, direction marks and overrides) and the line separators.
        if zayavka_core::escape_invisible(text) != *text {
            return Err(invalid(ValueProblem::InvisibleCharacter {
                character,
                position,
            }));
        }
    }
    let value = value.trim();
    if value.is_empty() {
        return Ok(None);
    }
    let actual = zayavka_core::char_count(value);
    if actual > field.max_chars() {
        return Err(invalid(ValueProblem::TooLong {
            max: field.max_chars(),
            actual,
        }));
    }
    match field {
        ProfileField::Email if !looks_like_email(value) => {
            return Err(invalid(ValueProblem::MalformedEmail));
        }
        ProfileField::Phone if !value.chars().any(|c| c.is_ascii_digit()) => {
            return Err(invalid(ValueProblem::NoDigits));
        }
        _ => {}
    }
    Ok(Some(value.to_owned()))
}

/// `local@domain.tld`: one `@`, no spaces, a domain of non-empty dot-separated labels with at
/// least one dot. Deliberately loose: the address is printed, never sent to.
fn looks_like_email(value: &str) -> bool {
    let Some((local, domain)) = value.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.contains('@')
        && !value.chars().any(char::is_whitespace)
        && domain.contains('.')
        && domain.split('.').all(|label| !label.is_empty())
}

/// The profile file of an installation.
pub fn profile_file(paths: &Paths) -> PathBuf {
    paths.config_dir().join(PROFILE_FILE_NAME)
}

/// The stored profile; an empty one when none was stored.
pub fn load(paths: &Paths) -> Result<Profile, ProfileError> {
    let path = profile_file(paths);
    let read_error = |source| ProfileError::Read {
        path: path.clone(),
        source,
    };
    let metadata = match std::fs::metadata(&path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Profile::default());
        }
        Err(error) => return Err(read_error(error)),
    };
    if !metadata.is_file() {
        return Err(ProfileError::Damaged {
            path,
            detail: "это не обычный файл".to_owned(),
        });
    }
    if metadata.len() > PROFILE_MAX_BYTES {
        return Err(ProfileError::Damaged {
            path,
            detail: format!(
                "он больше {} КБ, а профиль занимает несколько строк",
                PROFILE_MAX_BYTES / 1024
            ),
        });
    }
    let bytes = std::fs::read(&path).map_err(read_error)?;
    let text = String::from_utf8(bytes).map_err(|_| ProfileError::Damaged {
        path: path.clone(),
        detail: "он не в кодировке UTF-8".to_owned(),
    })?;
    from_toml(&text).map_err(|detail| ProfileError::Damaged { path, detail })
}

/// Sets one field (an empty value removes it) and stores the profile; returns it. A refused
/// value, or a failed write, leaves the stored profile as it was.
pub fn set(paths: &Paths, field: ProfileField, value: &str) -> Result<Profile, ProfileError> {
    let profile = with_field(&load(paths)?, field, value)?;
    save(paths, &profile)?;
    Ok(profile)
}

/// Stores a whole profile, replacing the one kept before.
pub fn save(paths: &Paths, profile: &Profile) -> Result<(), ProfileError> {
    write_private(&profile_file(paths), to_toml(profile).as_bytes())
}

/// Removes the stored profile; a profile never stored is already clear.
pub fn clear(paths: &Paths) -> Result<(), ProfileError> {
    let path = profile_file(paths);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(ProfileError::Write { path, source }),
    }
}

/// Writes `contents` to `path` atomically, readable by the user only: the file holds a name, an
/// address and a phone number.
fn write_private(path: &Path, contents: &[u8]) -> Result<(), ProfileError> {
    let fail = |source| ProfileError::Write {
        path: path.to_owned(),
        source,
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(fail)?;
    crate::paths::replace_file(path, contents).map_err(fail)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).map_err(fail)?;
    }
    Ok(())
}

impl crate::error::EngineError for ProfileError {
    fn kind(&self) -> crate::error::ErrorKind {
        match self {
            ProfileError::Write { .. } => crate::error::ErrorKind::Write,
            // The profile lives beside the settings, in the configuration folder.
            ProfileError::Read { .. } | ProfileError::Damaged { .. } => {
                crate::error::ErrorKind::Config
            }
            ProfileError::Invalid { .. } | ProfileError::UnknownField { .. } => {
                crate::error::ErrorKind::InvalidValue
            }
        }
    }

    fn message_ru(&self) -> String {
        ProfileError::message_ru(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn home() -> (tempfile::TempDir, Paths) {
        let dir = tempfile::tempdir().unwrap();
        let paths = Paths::under(dir.path());
        (dir, paths)
    }

    fn problem(result: Result<Option<String>, ProfileError>) -> ValueProblem {
        match result {
            Err(ProfileError::Invalid { problem, .. }) => problem,
            other => panic!("expected an invalid value, got {other:?}"),
        }
    }

    #[test]
    fn a_value_is_trimmed_and_an_empty_one_means_none() {
        assert_eq!(
            check_value(ProfileField::FullName, "  Иванова Мария Петровна ").unwrap(),
            Some("Иванова Мария Петровна".to_owned())
        );
        assert_eq!(check_value(ProfileField::Apartment, "   ").unwrap(), None);
    }

    #[test]
    fn control_and_invisible_characters_are_refused_with_their_position() {
        assert_eq!(
            problem(check_value(ProfileField::Address, "ул. Ленина\nд. 5")),
            ValueProblem::ControlCharacter {
                character: '\n',
                position: 11
            }
        );
        assert_eq!(
            problem(check_value(ProfileField::FullName, "Иван\tов")),
            ValueProblem::ControlCharacter {
                character: '\t',
                position: 5
            }
        );
        for hidden in ['\u{202E}', '\u{200B}', '\u{2066}', '\u{FEFF}', '\u{2028}'] {
            assert_eq!(
                problem(check_value(
                    ProfileField::CompanyName,
                    &format!("УК{hidden}Дом")
                )),
                ValueProblem::InvisibleCharacter {
                    character: hidden,
                    position: 3
                },
                "U+{:04X}",
                u32::from(hidden)
            );
        }
    }

    #[test]
    fn every_field_has_a_limit_counted_in_characters() {
        for &field in ProfileField::ALL {
            let at_limit = if field == ProfileField::Email {
                format!("{}@d.ru", "ё".repeat(field.max_chars() - 5))
            } else {
                format!("1{}", "ё".repeat(field.max_chars() - 1))
            };
            assert!(check_value(field, &at_limit).is_ok(), "{field}");
            assert_eq!(
                problem(check_value(field, &format!("{at_limit}ё"))),
                ValueProblem::TooLong {
                    max: field.max_chars(),
                    actual: field.max_chars() + 1
                },
                "{field}"
            );
        }
    }

    #[test]
    fn a_malformed_email_is_refused() {
        for good in ["m@example.ru", "мария@почта.рф", "a.b+c@sub.domain.org"] {
            assert!(check_value(ProfileField::Email, good).is_ok(), "{good}");
        }
        for bad in [
            "m.example.ru",
            "@example.ru",
            "m@",
            "m@example",
            "m@@example.ru",
            "m@exa mple.ru",
            "m@example..ru",
            "m@.ru",
        ] {
            assert_eq!(
                problem(check_value(ProfileField::Email, bad)),
                ValueProblem::MalformedEmail,
                "{bad}"
            );
        }
        assert_eq!(
            problem(check_value(ProfileField::Phone, "нет")),
            ValueProblem::NoDigits
        );
    }

    #[test]
    fn every_message_is_russian_and_names_the_field() {
        let error = check_value(ProfileField::Email, "нет").unwrap_err();
        assert_eq!(
            error.message_ru(),
            "в поле «Эл. почта» не адрес электронной почты: нужен вид имя@домен.ru, без \
             пробелов и с одним знаком @"
        );
        let error = check_value(ProfileField::Apartment, &"1".repeat(21)).unwrap_err();
        assert_eq!(
            error.message_ru(),
            "поле «Квартира» слишком длинное: можно не больше 20 символов, сейчас 21. \
             Сократите его — текст не будет обрезан автоматически"
        );
        assert!(
            field_named("zzz")
                .unwrap_err()
                .message_ru()
                .contains("«zzz»")
        );
    }

    #[test]
    fn set_stores_and_a_refused_value_changes_nothing() {
        let (_dir, paths) = home();
        assert_eq!(load(&paths).unwrap(), Profile::default());
        set(&paths, ProfileField::FullName, "Иванова Мария Петровна").unwrap();
        set(&paths, ProfileField::Email, "m@example.ru").unwrap();
        let before = std::fs::read(profile_file(&paths)).unwrap();
        assert!(set(&paths, ProfileField::Email, "не почта").is_err());
        assert!(set(&paths, ProfileField::FullName, "А\u{202E}Б").is_err());
        assert_eq!(std::fs::read(profile_file(&paths)).unwrap(), before);
        let profile = load(&paths).unwrap();
        assert_eq!(
            profile.get(ProfileField::FullName),
            Some("Иванова Мария Петровна")
        );
        assert_eq!(profile.get(ProfileField::Email), Some("m@example.ru"));
        assert_eq!(profile.get(ProfileField::Phone), None);
        // An empty value removes the field.
        let profile = set(&paths, ProfileField::Email, "").unwrap();
        assert_eq!(profile.get(ProfileField::Email), None);
        assert_eq!(load(&paths).unwrap(), profile);
        clear(&paths).unwrap();
        assert!(load(&paths).unwrap().is_empty());
        clear(&paths).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn the_file_is_private_to_the_user() {
        use std::os::unix::fs::PermissionsExt as _;
        let (_dir, paths) = home();
        set(&paths, ProfileField::Phone, "+7 900 000-00-00").unwrap();
        let mode = std::fs::metadata(profile_file(&paths))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn a_hand_edited_file_is_checked_like_set() {
        let (_dir, paths) = home();
        let write = |text: &str| std::fs::write(profile_file(&paths), text).unwrap();
        write("full_name = \"Иванова\"\ncompany_name = \"УК «Дом»\"\n");
        let profile = load(&paths).unwrap();
        assert_eq!(profile.get(ProfileField::CompanyName), Some("УК «Дом»"));
        for (text, detail) in [
            ("name = \"x\"\n", "поле «name» не предусмотрено"),
            ("phone = 5\n", "поле «phone» должно быть строкой"),
            ("email = \"x\"\n", "не адрес электронной почты"),
            ("email = \n", "это не TOML"),
        ] {
            write(text);
            let message = load(&paths).unwrap_err().message_ru();
            assert!(message.contains(detail), "{text}: {message}");
        }
    }
}
