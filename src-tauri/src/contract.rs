//! The page's contract, from one list (`command_names.rs`, issue 39, ADR 39): every command with
//! what the page sends and what it gets back. From that list this module
//! - checks at compile time that each [`crate::ipc`] command takes exactly those arguments, in
//!   that order, and answers with that type, so the list cannot drift from the code;
//! - gives [`COMMANDS`](crate::COMMANDS), the names `build.rs` turns into permissions, and
//!   [`invoke_handler`], which registers exactly those commands with Tauri;
//! - writes [`typescript`]: the TypeScript declaration of every command and of every type that
//!   crosses to the page, derived with `ts-rs` from the Rust definitions (their serde attributes
//!   included) and committed as `ui/js/ipc-contract.d.ts`, which the type checker holds the page
//!   and the browser tests' fake backend to.

use std::any::TypeId;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use tauri::ipc::Channel;
use ts_rs::{Config, TS, TypeVisitor};
use zayavka_engine::{
    DraftListItem, FollowUpKind, Profile, ProfileField, RawInput, Stats, SubjectKind,
};

use crate::backup::{BackupView, RestoredView};
use crate::cases::{
    AnswerForm, BatchCasesView, BatchFilingView, BatchFollowUpView, CaseDetail, DueView, FilingForm,
};
use crate::commands::{CheckOptions, ListFilter, SaveFormat};
use crate::error::CommandError;
use crate::ipc::{CloseEvent, DropEvent};
use crate::setup::SetupCheckView;
use crate::stats::StatsRequest;
use crate::view::{
    BatchExportView, BatchListView, BatchPlanView, BatchProgressView, BatchRowView,
    BatchSummaryView, DoctorReport, DocumentView, DraftDetail, DraftProgress, DraftResult,
    KeyStatusView, PhotoView, SettingsView,
};

/// The path of the generated file, from the crate's folder.
pub const TYPESCRIPT_PATH: &str = "../ui/js/ipc-contract.d.ts";

/// What Tauri hands a command itself, by the name the list gives it.
macro_rules! injected {
    (app) => {
        tauri::AppHandle
    };
    (window) => {
        tauri::WebviewWindow
    };
}

/// An argument's type as the page sees it: the Rust type, or the narrower one the list names
/// after `as` for an argument Rust takes as a string and checks itself (`kind: String as
/// FollowUpKind`), so the page may send only the codes Rust accepts.
macro_rules! page_type {
    ($rust:ty) => {
        $rust
    };
    ($rust:ty, $page:ty) => {
        $page
    };
}

/// One command's page-facing signature, for the TypeScript file.
struct Signature {
    name: &'static str,
    /// Each argument's name as the page sends it (camelCase, as Tauri reads it) and its type.
    arguments: Vec<(String, String)>,
    answer: String,
}

macro_rules! commands {
    ($(
        $name:ident [$($injected:ident),*]
        ($($argument:ident : $type:ty $(as $page_type:ty)?),*
         $(; $($channel:ident : Channel<$message:ty>),+)?)
        -> $answer:ty;
    )*) => {
        /// The commands the page may call, in the list's order.
        #[allow(missing_docs)]
        pub const COMMANDS: &[&str] = &[$(stringify!($name)),*];

        /// Each command as `ipc` defines it, called with the list's arguments and held to the
        /// list's answer: a command whose arguments or answer differ from the list does not
        /// compile. Never called.
        #[allow(dead_code, clippy::too_many_arguments)]
        mod held_to_ipc {
            use super::*;
            $(
                pub(super) fn $name(
                    $($injected: injected!($injected),)*
                    $($argument: $type,)*
                    $($($channel: Channel<$message>,)+)?
                ) -> impl std::future::Future<Output = Result<$answer, CommandError>> {
                    crate::ipc::$name($($injected,)* $($argument,)* $($($channel,)+)?)
                }
            )*
        }

        /// Registers exactly the listed commands with Tauri.
        pub fn invoke_handler()
        -> impl Fn(tauri::ipc::Invoke<tauri::Wry>) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$(crate::ipc::$name),*]
        }

        /// Every command's page-facing signature, in the list's order.
        fn signatures(cfg: &Config) -> Vec<Signature> {
            vec![$(Signature {
                name: stringify!($name),
                arguments: vec![
                    $((
                        camel_case(stringify!($argument)),
                        <page_type!($type $(, $page_type)?) as TS>::name(cfg),
                    ),)*
                    $($((
                        camel_case(stringify!($channel)),
                        format!("Channel<{}>", <$message as TS>::name(cfg)),
                    ),)+)?
                ],
                answer: <$answer as TS>::name(cfg),
            }),*]
        }

        /// Visits every type a command sends or answers with.
        fn visit_all(visitor: &mut impl TypeVisitor) {
            $(
                $(visit::<page_type!($type $(, $page_type)?)>(visitor);)*
                $($(visit::<$message>(visitor);)+)?
                visit::<$answer>(visitor);
            )*
        }
    };
}

include!("command_names.rs");

/// A Rust argument's name as the page sends it: Tauri reads command arguments in camelCase.
fn camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Visits `T` and, as ts-rs does for `Option` and `Vec`, the types it is made of.
fn visit<T: TS + 'static + ?Sized>(visitor: &mut impl TypeVisitor) {
    visitor.visit::<T>();
    T::visit_generics(visitor);
}

/// Gathers the declaration of every named type reachable from the commands.
struct Declarations<'a> {
    cfg: &'a Config,
    seen: HashSet<TypeId>,
    /// By TypeScript name, so the file's order does not depend on the visit's.
    by_name: BTreeMap<String, String>,
}

impl TypeVisitor for Declarations<'_> {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        // A type without a path of its own (a number, a string, an array) is written inline.
        if T::output_path().is_none() || !self.seen.insert(TypeId::of::<T>()) {
            return;
        }
        let mut declaration = String::new();
        if let Some(docs) = T::docs() {
            declaration.push_str(&docs);
        }
        let _ = write!(declaration, "export {}", T::decl(self.cfg));
        let name = T::ident(self.cfg);
        if let Some(earlier) = self.by_name.insert(name.clone(), declaration.clone()) {
            // Two Rust types with one TypeScript name would silently shadow each other (ts-rs
            // declares some of its own, such as `JsonValue`, once per use: those agree).
            assert_eq!(
                earlier, declaration,
                "two types are named {name} in the page's contract"
            );
        }
        T::visit_dependencies(self);
        T::visit_generics(self);
    }
}

/// The page's contract as TypeScript: every type that crosses the IPC, the error every command
/// rejects with, and `Commands`, each command's arguments and answer.
pub fn typescript() -> String {
    let cfg = Config::new().with_large_int("number");
    let mut declarations = Declarations {
        cfg: &cfg,
        seen: HashSet::new(),
        by_name: BTreeMap::new(),
    };
    visit_all(&mut declarations);
    visit::<CommandError>(&mut declarations);

    let mut out = String::from(
        "// GENERATED from the Rust types (src-tauri/src/contract.rs, ADR 39): do not edit.\n\
         // `cargo test -p zayavka-desktop --test contract` writes it again when a type that\n\
         // crosses to the page changed, and fails until the new file is committed.\n\
         \n\
         import type { Channel } from '../vendor/tauri-api/core.js';\n",
    );
    for declaration in declarations.by_name.values() {
        out.push('\n');
        out.push_str(declaration);
        out.push('\n');
    }
    out.push_str(
        "\n/** Every command the page may call: what it sends (`args`) and what it gets back \
         (`answer`). */\nexport interface Commands {\n",
    );
    for signature in signatures(&cfg) {
        let arguments: Vec<String> = signature
            .arguments
            .iter()
            .map(|(name, ty)| format!("{name}: {ty}"))
            .collect();
        let arguments = if arguments.is_empty() {
            "{}".to_owned()
        } else {
            format!("{{ {} }}", arguments.join("; "))
        };
        let _ = writeln!(
            out,
            "  {}: {{ args: {arguments}; answer: {} }};",
            signature.name, signature.answer
        );
    }
    out.push_str("}\n\n/** A command's name. */\nexport type CommandName = keyof Commands;\n");
    out
}

#[cfg(test)]
mod tests {
    use super::camel_case;

    #[test]
    fn argument_names_are_camel_case_as_tauri_reads_them() {
        assert_eq!(camel_case("task_id"), "taskId");
        assert_eq!(camel_case("on_progress"), "onProgress");
        assert_eq!(camel_case("id"), "id");
    }
}
