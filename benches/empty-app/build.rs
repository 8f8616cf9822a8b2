//! Tauri's build step: embeds the config and the one-line page.

fn main() {
    tauri_build::build();
}
