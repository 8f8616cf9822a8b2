//! An empty Tauri app: one window with one line of text and no commands, built the same way as
//! Zayavka's desktop app so that `scripts/bench-desktop.sh` can measure what Zayavka adds.

// No console window next to the app on Windows in a release build, as in src-tauri.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    tauri::Builder::default()
        .run(tauri::generate_context!())
        .expect("the empty app runs");
}
