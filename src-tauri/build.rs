//! Generates the app's permissions: one `allow-<command>` per command the page may call, so that
//! a command is reachable only when the capability file grants it.

include!("src/command_names.rs");

fn main() {
    let manifest = tauri_build::AppManifest::new().commands(COMMANDS);
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(manifest))
        .expect("the Tauri build step runs");
}
