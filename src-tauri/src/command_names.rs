// The commands the page may call, one per entry of docs/desktop-ipc.md. `build.rs` includes this
// file to generate one `allow-…` permission per command, the capability file grants exactly
// these, and a test checks that the three agree.
#[allow(missing_docs)]
pub const COMMANDS: &[&str] = &[
    "draft_run",
    "draft_cancel",
    "draft_offline",
    "draft_reassemble",
    "input_autosave",
    "input_restore",
    "drafts_list",
    "drafts_search",
    "draft_open",
    "draft_edit",
    "draft_delete",
    "draft_save_as",
    "clipboard_write",
    "settings_get",
    "settings_set",
    "key_status",
    "key_set",
    "key_delete",
    "connection_check",
    "batch_choose_file",
    "batch_check",
    "batch_run",
    "batch_cancel",
    "batch_export",
    "profile_get",
    "profile_set",
    "profile_clear",
];
