//! Generates the app's permissions: one `allow-<command>` per command the page may call, so that
//! a command is reachable only when the capability file grants it.

/// Keeps only the names of `src/command_names.rs`'s list; the crate's `contract` module reads
/// the rest.
macro_rules! commands {
    ($($name:ident [$($injected:ident),*] ($($arguments:tt)*) -> $answer:ty;)*) => {
        const COMMANDS: &[&str] = &[$(stringify!($name)),*];
    };
}

include!("src/command_names.rs");

fn main() {
    let manifest = tauri_build::AppManifest::new().commands(COMMANDS);
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(manifest))
        .expect("the Tauri build step runs");
}
