//! The Zayavka desktop app. Everything is in the library, so that its commands can be tested.

// No console window next to the app on Windows in a release build.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    zayavka_desktop::run();
}
