//! The Zayavka desktop shell: a Tauri v2 window over the same engine the command-line tool
//! uses (ADR 15). The page in `ui/` is built into the binary; it calls the commands of
//! [`ipc`] and nothing else.
//!
//! - [`cases`]: after the request is filed — the filing, deadlines («Сроки»), the answer and
//!   the next letter (issue 30);
//! - [`commands`]: one plain function per command, over [`state::AppState`], tested against a
//!   temporary data folder and the stand-in provider;
//! - [`contract`]: the list of commands with their arguments and answers, held to [`ipc`] at
//!   compile time, and the page's TypeScript declarations generated from it;
//! - [`ipc`]: the Tauri commands, which run those off the window's thread and open the native
//!   dialogs and the clipboard;
//! - [`setup`]: the first-run setup's own commands (its check and «Пока без модели»);
//! - [`stats`]: «Статистика» in «Настройки», the same engine call as `zayavka stats`;
//! - [`view`]: the values the page receives, whose TypeScript [`contract`] generates;
//! - [`error`]: the one `{kind, message}` error;
//! - [`webview`]: what a resident reads when Windows lacks the WebView2 Runtime.

pub mod backup;
pub mod cases;
pub mod commands;
pub mod contract;
pub mod error;
// Each command is listed with its arguments and answer in `command_names.rs` and described in
// docs/desktop-ipc.md.
#[allow(missing_docs)]
pub mod ipc;
pub mod setup;
pub mod state;
pub mod stats;
pub mod view;
pub mod webview;

pub use contract::COMMANDS;

use std::sync::Arc;

use tauri::{DragDropEvent, Manager, WindowEvent};
use tauri_plugin_dialog::{DialogExt, MessageDialogKind};
use zayavka_engine::{KeyringStore, Paths};

use crate::state::{AppState, CloseDecision, Environment, close_decision};

/// Starts the app: one instance at a time (a second launch brings the first window forward).
pub fn run() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    if !webview::runtime_ready() {
        std::process::exit(3);
    }
    let paths = Paths::resolve();
    let result = tauri::Builder::default()
        .plugin(tauri_plugin_single_instance::init(|app, _args, _cwd| {
            if let Some(window) = app.get_webview_window("main") {
                let _ = window.unminimize();
                let _ = window.show();
                let _ = window.set_focus();
            }
        }))
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_clipboard_manager::init())
        .manage(ipc::DropWatch::default())
        .manage(ipc::CloseWatch::default())
        .on_window_event(|window, event| {
            // Closing the window with unsaved settings asks in the page first (issue 14): the
            // window stays open, and only the page's `window_close` closes it.
            if let WindowEvent::CloseRequested { api, .. } = event {
                let unsaved = window
                    .try_state::<AppState>()
                    .is_some_and(|state| state.has_unsaved());
                let watch = window.state::<ipc::CloseWatch>();
                if close_decision(unsaved, watch.listens()) == CloseDecision::AskPage
                    && watch.send(ipc::CloseEvent::Requested)
                {
                    api.prevent_close();
                }
            }
            if let WindowEvent::DragDrop(drop) = event {
                let watch = window.state::<ipc::DropWatch>();
                match drop {
                    DragDropEvent::Enter { .. } | DragDropEvent::Over { .. } => {
                        watch.send(ipc::DropEvent::Over);
                    }
                    DragDropEvent::Leave => watch.send(ipc::DropEvent::Left),
                    DragDropEvent::Drop { paths, .. } => {
                        let files = paths.len();
                        if let Some(state) = window.try_state::<AppState>() {
                            state.remember_dropped(paths.clone());
                        }
                        watch.send(ipc::DropEvent::Dropped { files });
                    }
                    _ => {}
                }
            }
        })
        .setup(move |app| {
            match paths {
                Ok(paths) => {
                    app.manage(AppState::new(
                        paths,
                        Arc::new(KeyringStore::new()),
                        Environment::Process,
                    ));
                }
                Err(error) => {
                    app.dialog()
                        .message(error.message_ru())
                        .title("Заявка не может запуститься")
                        .kind(MessageDialogKind::Error)
                        .blocking_show();
                    app.handle().exit(2);
                }
            }
            Ok(())
        })
        .invoke_handler(contract::invoke_handler())
        .run(tauri::generate_context!());
    if let Err(error) = result {
        eprintln!("Заявка не смогла открыть окно: {error}");
        std::process::exit(1);
    }
}
