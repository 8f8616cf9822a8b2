//! The one part of the window that Windows must provide: the Microsoft Edge WebView2 Runtime
//! (ADR 33). Windows 10 and 11 ship it, but it can be missing (removed, a trimmed system, or
//! Wine). Tauri then shows its own English dialog; a resident reads this Russian one instead,
//! which says what to install and where, and can open the download page in the browser.
//!
//! The words are plain data, so that every platform's tests hold them; only the check and the
//! dialog are Windows code.

/// Microsoft's page for the WebView2 Runtime, in Russian. The installer names the same page
/// (`packaging/windows/installer.nsi`), which a test holds.
pub const DOWNLOAD_PAGE: &str = "https://developer.microsoft.com/ru-ru/microsoft-edge/webview2/";

/// The dialog's title.
pub const TITLE: &str = "Заявка: нужен компонент Windows";

/// The button that opens [`DOWNLOAD_PAGE`] in the browser: short, so that it fits the button
/// Wine's task dialog sizes by a fixed width (a longer label was cut there).
pub const OPEN_PAGE: &str = "Открыть сайт";

/// The button that only closes the dialog.
pub const CLOSE: &str = "Закрыть";

/// What the resident reads when the WebView2 Runtime is missing.
pub fn missing_message() -> String {
    format!(
        "Для окна «Заявки» нужен компонент Windows «Microsoft Edge WebView2 Runtime», а на этом \
         компьютере его нет. В Windows 10 и 11 он обычно уже установлен, но его могли удалить.\n\n\
         Скачайте его бесплатно с сайта Microsoft: {DOWNLOAD_PAGE} — раздел «Evergreen \
         Bootstrapper», кнопка «Download». Установите его и откройте «Заявку» снова: черновики \
         и настройки никуда не делись.\n\n\
         Программа командной строки zayavka (ярлык «Заявка — командная строка» в меню «Пуск») \
         работает и без этого компонента."
    )
}

/// Whether the window can be shown: on Windows, asks the WebView2 loader for the Runtime's
/// version and, when there is none, shows [`missing_message`] and returns `false`.
#[cfg(windows)]
pub fn runtime_ready() -> bool {
    let error = match tauri::webview_version() {
        Ok(_) => return true,
        Err(error) => error,
    };
    tracing::warn!(%error, "the WebView2 Runtime was not found");
    let answer = rfd::MessageDialog::new()
        .set_title(TITLE)
        .set_description(missing_message())
        .set_level(rfd::MessageLevel::Warning)
        .set_buttons(rfd::MessageButtons::OkCancelCustom(
            OPEN_PAGE.to_owned(),
            CLOSE.to_owned(),
        ))
        .show();
    if answer == rfd::MessageDialogResult::Custom(OPEN_PAGE.to_owned()) {
        // Explorer hands an address to the resident's default browser.
        if let Err(error) = std::process::Command::new("explorer.exe")
            .arg(DOWNLOAD_PAGE)
            .spawn()
        {
            tracing::warn!(%error, "the browser could not be started");
        }
    }
    false
}

/// Elsewhere the window's engine is part of the system (WebKitGTK, WKWebView).
#[cfg(not(windows))]
pub fn runtime_ready() -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_says_what_to_install_and_where_in_russian() {
        let message = missing_message();
        assert!(message.contains("WebView2 Runtime"), "{message}");
        assert!(message.contains(DOWNLOAD_PAGE), "{message}");
        assert!(message.contains("откройте «Заявку» снова"), "{message}");
        assert!(!message.contains("Could not find"), "{message}");
    }

    #[test]
    fn the_installer_names_the_same_download_page() {
        let script = include_str!("../../packaging/windows/installer.nsi");
        assert!(
            script.contains(&format!("!define WEBVIEW2_URL \"{DOWNLOAD_PAGE}\"")),
            "packaging/windows/installer.nsi must point residents to {DOWNLOAD_PAGE}"
        );
    }
}
