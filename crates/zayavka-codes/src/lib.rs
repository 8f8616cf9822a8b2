//! Stable string codes for closed sets of values, for the whole workspace (ADR 32).
//!
//! Reason codes, error codes, stored outcomes and the configuration file's spellings become
//! database columns, JSON fields, file contents and test expectations. Each such set is an enum
//! declared with [`stable_codes!`], which writes every code once, beside its variant, and derives
//! the rest from it: `ALL`, `code()`, `from_code()`, `Display`, `FromStr` and serde as the code.
//! [`check_stable_codes`] is the one generic test every set passes.
//!
//! The crate has no behaviour of its own and depends on serde alone, so every other Zayavka
//! crate may use it — including those that may depend on no other Zayavka crate. With the `ts`
//! feature (the desktop app's build), each set also declares itself to ts-rs as the union of
//! its codes, for the page's generated types (ADR 39).

#![forbid(unsafe_code)]

#[doc(hidden)]
pub use serde as __serde;
#[cfg(feature = "ts")]
#[doc(hidden)]
pub use ts_rs as __ts;

/// With the `ts` feature, a set's TypeScript declaration for the desktop page (ADR 39): the
/// union of its codes, or of the joined sets. Not for use outside the macros below.
#[cfg(feature = "ts")]
#[doc(hidden)]
#[macro_export]
macro_rules! __codes_as_ts {
    ($name:ident, codes [$($code:literal),*]) => {
        $crate::__codes_as_ts!(@impl $name, {
            let codes: &[&str] = &[$(::core::concat!("\"", $code, "\"")),*];
            if codes.is_empty() { "never".to_owned() } else { codes.join(" | ") }
        }, |_visitor| {});
    };
    ($name:ident, joined [$($inner:ty),+]) => {
        $crate::__codes_as_ts!(@impl $name, {
            let names: &[::std::string::String] =
                &[$(<$inner as $crate::__ts::TS>::name(&$crate::__ts::Config::new())),+];
            names.join(" | ")
        }, |visitor| { $(visitor.visit::<$inner>();)+ });
    };
    (@impl $name:ident, $inline:block, |$visitor:ident| $visit:block) => {
        impl $crate::__ts::TS for $name {
            type WithoutGenerics = $name;
            type OptionInnerType = $name;

            fn name(_: &$crate::__ts::Config) -> ::std::string::String {
                ::core::stringify!($name).to_owned()
            }

            fn inline(_: &$crate::__ts::Config) -> ::std::string::String $inline

            fn decl(cfg: &$crate::__ts::Config) -> ::std::string::String {
                ::std::format!("type {} = {};", ::core::stringify!($name), Self::inline(cfg))
            }

            fn decl_concrete(cfg: &$crate::__ts::Config) -> ::std::string::String {
                Self::decl(cfg)
            }

            fn visit_dependencies($visitor: &mut impl $crate::__ts::TypeVisitor) $visit

            fn output_path() -> ::core::option::Option<::std::path::PathBuf> {
                ::core::option::Option::Some(::std::path::PathBuf::from(::core::concat!(
                    ::core::stringify!($name),
                    ".ts"
                )))
            }
        }
    };
}

/// Without the `ts` feature, nothing.
#[cfg(not(feature = "ts"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __codes_as_ts {
    ($($anything:tt)*) => {};
}

/// What both macros give a set: serde, `Display` and comparison with a string, all as the
/// code. Not for use outside them.
#[doc(hidden)]
#[macro_export]
macro_rules! __code_as_text {
    ($name:ident) => {
        impl $crate::__serde::Serialize for $name {
            fn serialize<S: $crate::__serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.code())
            }
        }

        /// A code compares equal to its string, so that a test can pin the string itself.
        impl ::core::cmp::PartialEq<&str> for $name {
            fn eq(&self, code: &&str) -> bool {
                self.code() == *code
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.code())
            }
        }
    };
}

/// Declares a fieldless enum with a stable code per variant: `ALL`, `code()`, `from_code()`,
/// `Display`, `FromStr` (with [`UnknownCode`]), [`StableCode`], and serde as the code.
///
/// The enum derives `Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord`; further
/// attributes (`#[derive(Default)]` with a `#[default]` variant, docs) pass through.
///
/// ```
/// zayavka_codes::stable_codes! {
///     /// How a light fails.
///     pub enum Lamp {
///         /// It does not light at all.
///         Dark => "dark",
///         /// It flickers.
///         Flickers => "flickers",
///     }
/// }
///
/// assert_eq!(Lamp::Flickers.code(), "flickers");
/// assert_eq!("dark".parse::<Lamp>(), Ok(Lamp::Dark));
/// assert_eq!(zayavka_codes::check_stable_codes::<Lamp>(), Ok(()));
/// ```
#[macro_export]
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

            /// The stable code.
            pub const fn code(self) -> &'static str {
                match self {
                    $($name::$variant => $code,)*
                }
            }

            /// The value with this code, if any.
            pub fn from_code(code: &str) -> ::core::option::Option<$name> {
                match code {
                    $($code => ::core::option::Option::Some($name::$variant),)*
                    _ => ::core::option::Option::None,
                }
            }
        }

        $crate::__code_as_text!($name);
        $crate::__codes_as_ts!($name, codes [$($code),*]);

        impl<'de> $crate::__serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::__serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let code = <::std::borrow::Cow<'de, str> as $crate::__serde::Deserialize>::deserialize(
                    deserializer,
                )?;
                $name::from_code(&code).ok_or_else(|| {
                    <D::Error as $crate::__serde::de::Error>::unknown_variant(&code, &[$($code,)*])
                })
            }
        }

        impl ::core::cmp::PartialEq<$name> for &str {
            fn eq(&self, value: &$name) -> bool {
                *self == value.code()
            }
        }

        impl ::core::str::FromStr for $name {
            type Err = $crate::UnknownCode;

            fn from_str(code: &str) -> ::core::result::Result<Self, Self::Err> {
                $name::from_code(code).ok_or_else(|| $crate::UnknownCode(code.to_owned()))
            }
        }

        impl $crate::StableCode for $name {
            fn all() -> &'static [Self] {
                $name::ALL
            }

            fn stable_code(self) -> &'static str {
                self.code()
            }
        }
    };
}

/// Declares the code of an error that wraps another error: either one of the wrapped error's
/// codes or one of its own, with `code()`, `Display`, comparison with a string and serde as the
/// code. Both sets are declared with [`stable_codes!`]; this only joins them, so that no code is
/// written twice.
///
/// ```
/// zayavka_codes::stable_codes! {
///     /// Why a file could not be read.
///     pub enum ReadCode { Missing => "not_found", }
/// }
/// zayavka_codes::stable_codes! {
///     /// Why a photo was refused.
///     pub enum PhotoCode { NotAnImage => "not_an_image", }
/// }
/// zayavka_codes::joined_codes! {
///     /// Why a photo could not be attached.
///     pub enum AttachCode { Read(ReadCode), Photo(PhotoCode) }
/// }
///
/// assert_eq!(AttachCode::Read(ReadCode::Missing).code(), "not_found");
/// assert_eq!(
///     zayavka_codes::check_joined_codes(AttachCode::all().into_iter().map(AttachCode::code)),
///     Ok(())
/// );
/// assert!(AttachCode::Photo(PhotoCode::NotAnImage) == "not_an_image");
/// ```
#[macro_export]
macro_rules! joined_codes {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($(#[$vmeta:meta])* $variant:ident($inner:ty)),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($(#[$vmeta])* $variant($inner),)+
        }

        impl $name {
            /// The stable code.
            pub const fn code(self) -> &'static str {
                match self {
                    $($name::$variant(code) => code.code(),)+
                }
            }

            /// Every value: each joined set's, in order.
            pub fn all() -> ::std::vec::Vec<$name> {
                let mut all = ::std::vec::Vec::new();
                $(all.extend(<$inner>::ALL.iter().map(|code| $name::$variant(*code)));)+
                all
            }
        }

        $crate::__code_as_text!($name);
        $crate::__codes_as_ts!($name, joined [$($inner),+]);

        $(
            impl ::core::convert::From<$inner> for $name {
                fn from(code: $inner) -> $name {
                    $name::$variant(code)
                }
            }
        )+

    };
}

/// Checks that the codes of a [`joined_codes!`] set are unique across the sets it joins;
/// returns the first code that is not.
pub fn check_joined_codes(codes: impl IntoIterator<Item = &'static str>) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for code in codes {
        if !seen.insert(code) {
            return Err(format!("duplicate code `{code}`"));
        }
    }
    Ok(())
}

/// A code that names no value of the set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownCode(pub String);

impl std::fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown code `{}`", self.0)
    }
}

impl std::error::Error for UnknownCode {}

/// A closed set of values with stable codes, for generic checks.
pub trait StableCode: Copy + Eq + std::fmt::Debug + 'static {
    /// Every value.
    fn all() -> &'static [Self];
    /// The value's code.
    fn stable_code(self) -> &'static str;
}

/// Checks that every code of `T` is unique, in one case of snake_case, and parses back to its
/// value; returns what is wrong, for the tests of every crate that declares codes.
///
/// Our own codes are lowercase (`needs_user`), optionally under a dotted prefix that names
/// their area (`config.read`); a set that spells a service's own codes may be uppercase
/// throughout (GigaChat's `GIGACHAT_API_PERS`), never mixed.
pub fn check_stable_codes<T: StableCode + std::str::FromStr>() -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for &value in T::all() {
        let code = value.stable_code();
        if !seen.insert(code) {
            return Err(format!("duplicate code `{code}`"));
        }
        let snake = |upper: bool| {
            code.split('.').all(|segment| {
                !segment.is_empty()
                    && segment.chars().all(|c| {
                        c.is_ascii_digit()
                            || c == '_'
                            || (upper && c.is_ascii_uppercase())
                            || (!upper && c.is_ascii_lowercase())
                    })
            })
        };
        if !(snake(false) || snake(true)) {
            return Err(format!("`{code}` is not snake_case"));
        }
        match code.parse::<T>() {
            Ok(parsed) if parsed == value => {}
            _ => return Err(format!("`{code}` does not parse back to {value:?}")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    stable_codes! {
        /// A set for the tests.
        #[derive(Default)]
        enum Sample {
            /// The first.
            #[default]
            First => "first",
            /// The second.
            SecondOne => "second_one",
        }
    }

    stable_codes! {
        /// A service's own spelling.
        enum Shouting {
            /// One.
            One => "SERVICE_ONE",
        }
    }

    /// Two values, one code: written by hand, because the macro's `from_code` makes a duplicate
    /// an unreachable pattern, which the workspace's lints already refuse at compile time.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Twice {
        One,
        Two,
    }

    impl StableCode for Twice {
        fn all() -> &'static [Self] {
            &[Twice::One, Twice::Two]
        }

        fn stable_code(self) -> &'static str {
            "same"
        }
    }

    impl std::str::FromStr for Twice {
        type Err = UnknownCode;

        fn from_str(code: &str) -> Result<Self, Self::Err> {
            match code {
                "same" => Ok(Twice::One),
                _ => Err(UnknownCode(code.to_owned())),
            }
        }
    }

    stable_codes! {
        /// Codes under an area's prefix.
        enum Dotted {
            /// One.
            One => "area.one_thing",
        }
    }

    stable_codes! {
        /// An empty segment.
        enum Hollow {
            /// One.
            One => "area..one",
        }
    }

    stable_codes! {
        /// Mixed case.
        enum Mixed {
            /// One.
            One => "Mixed_case",
        }
    }

    #[test]
    fn a_set_round_trips_through_every_form() {
        assert_eq!(check_stable_codes::<Sample>(), Ok(()));
        assert_eq!(check_stable_codes::<Shouting>(), Ok(()));
        assert_eq!(check_stable_codes::<Dotted>(), Ok(()));
        assert!(Sample::SecondOne == "second_one" && "first" == Sample::First);
        assert!(Sample::First != "second_one");
        assert_eq!(Sample::default(), Sample::First);
        assert_eq!(Sample::SecondOne.to_string(), "second_one");
        assert_eq!(
            serde_json::to_string(&Sample::SecondOne).expect("a code serialises"),
            r#""second_one""#
        );
        assert_eq!(
            serde_json::from_str::<Sample>(r#""first""#).expect("a code reads back"),
            Sample::First
        );
        let unknown = serde_json::from_str::<Sample>(r#""third""#).expect_err("no such code");
        assert!(
            unknown
                .to_string()
                .contains("expected `first` or `second_one`"),
            "{unknown}"
        );
        assert_eq!(
            "third".parse::<Sample>(),
            Err(UnknownCode("third".to_owned()))
        );
        assert_eq!(
            UnknownCode("third".to_owned()).to_string(),
            "unknown code `third`"
        );
    }

    #[test]
    fn the_check_names_what_is_wrong() {
        assert_eq!(
            check_stable_codes::<Twice>(),
            Err("duplicate code `same`".to_owned())
        );
        assert_eq!(
            check_stable_codes::<Mixed>(),
            Err("`Mixed_case` is not snake_case".to_owned())
        );
        assert_eq!(
            check_stable_codes::<Hollow>(),
            Err("`area..one` is not snake_case".to_owned())
        );
    }
}
