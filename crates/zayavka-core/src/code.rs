//! Stable string codes for closed sets of values.
//!
//! Reason codes, finding codes and the like become database columns, JSON fields and test
//! expectations, so each set is an enum whose string form is written once, here, and checked
//! for uniqueness and round trips by one generic test.

/// Declares a fieldless enum with a stable snake_case code per variant: `ALL`, `code()`,
/// `from_code()`, `Display`, `FromStr`, and serde as the code.
macro_rules! stable_codes {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($(#[$vmeta:meta])* $variant:ident => $code:literal,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $name {
            $($(#[$vmeta])* $variant,)*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The stable snake_case code.
            pub const fn code(self) -> &'static str {
                match self {
                    $($name::$variant => $code,)*
                }
            }

            /// The value with this code, if any.
            pub fn from_code(code: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|value| value.code() == code)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.code())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let code = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
                $name::from_code(&code).ok_or_else(|| {
                    serde::de::Error::unknown_variant(&code, &[$($code,)*])
                })
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.code())
            }
        }

        impl std::str::FromStr for $name {
            type Err = crate::code::UnknownCode;

            fn from_str(code: &str) -> Result<Self, Self::Err> {
                $name::from_code(code).ok_or_else(|| crate::code::UnknownCode(code.to_owned()))
            }
        }

        impl crate::code::StableCode for $name {
            fn all() -> &'static [Self] {
                $name::ALL
            }

            fn stable_code(self) -> &'static str {
                self.code()
            }
        }
    };
}

pub(crate) use stable_codes;

/// A code that names no value of the set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown code `{0}`")]
pub struct UnknownCode(pub String);

/// A closed set of values with stable codes, for generic checks.
pub trait StableCode: Copy + Eq + std::fmt::Debug + 'static {
    /// Every value.
    fn all() -> &'static [Self];
    /// The value's code.
    fn stable_code(self) -> &'static str;
}

/// Checks that every code of `T` is unique, snake_case, and parses back to its value; returns
/// what is wrong, for tests in this crate and in the crates that build on it.
pub fn check_stable_codes<T: StableCode + std::str::FromStr>() -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for &value in T::all() {
        let code = value.stable_code();
        if !seen.insert(code) {
            return Err(format!("duplicate code `{code}`"));
        }
        if code.is_empty()
            || !code
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        {
            return Err(format!("`{code}` is not snake_case"));
        }
        match code.parse::<T>() {
            Ok(parsed) if parsed == value => {}
            _ => return Err(format!("`{code}` does not parse back to {value:?}")),
        }
    }
    Ok(())
}
