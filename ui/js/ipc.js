// The one seam between the page and the Rust side. Every command the page uses is a function
// here, named after the command in docs/desktop-ipc.md, so the contract can be read in one place
// and the browser tests can replace `window.__TAURI_INTERNALS__` underneath without the page
// noticing.

import { Channel, invoke } from '../vendor/tauri-api/core.js';

/** A failed command, always with a stable `kind` and a Russian `message` for the resident. */
export class IpcError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = 'IpcError';
    this.kind = kind;
  }
}

// Tauri itself may reject with a bare English string (an unknown command, a broken argument).
// Those are the app's own bugs, so the resident gets a calm Russian sentence instead of them.
const UNEXPECTED_MESSAGE =
  'Приложение не смогло выполнить действие. Ваш текст сохранён. Перезапустите приложение и попробуйте снова.';

function toIpcError(error) {
  if (error && typeof error === 'object' && typeof error.kind === 'string' && typeof error.message === 'string') {
    return new IpcError(error.kind, error.message);
  }
  return new IpcError('unexpected', UNEXPECTED_MESSAGE);
}

async function call(name, args) {
  if (!window.__TAURI_INTERNALS__) {
    throw new IpcError('no_backend', 'Эта страница работает только внутри приложения «Заявка».');
  }
  try {
    return await invoke(name, args);
  } catch (error) {
    throw toIpcError(error);
  }
}

let taskCounter = 0;

/** A task id unique within this page's life: long work is cancelled by it. */
export function newTaskId() {
  taskCounter += 1;
  return `task-${Date.now().toString(36)}-${taskCounter}`;
}

function channel(onProgress) {
  const progress = new Channel();
  progress.onmessage = onProgress;
  return progress;
}

export const draftRun = (input, taskId, onProgress) =>
  call('draft_run', { input, taskId, onProgress: channel(onProgress) });
export const draftCancel = (taskId) => call('draft_cancel', { taskId });
export const draftOffline = (input) => call('draft_offline', { input });
export const draftReassemble = (draftId, subject) => call('draft_reassemble', { draftId, subject });
export const inputAutosave = (input) => call('input_autosave', { input });
export const inputRestore = () => call('input_restore', {});

export const draftsList = (filter) => call('drafts_list', { filter });
export const draftsSearch = (text) => call('drafts_search', { text });
export const draftOpen = (id) => call('draft_open', { id });
export const draftEdit = (id, title, body) => call('draft_edit', { id, title, body });
export const draftDelete = (id) => call('draft_delete', { id });
export const draftSaveAs = (id, format, collective) => call('draft_save_as', { id, format, collective });
export const draftDocument = (id, collective) => call('draft_document', { id, collective });
export const printPage = () => call('print_page', {});
export const draftPhotos = (id) => call('draft_photos', { id });
export const draftAttachChosen = (id) => call('draft_attach_chosen', { id });
export const draftAttachDropped = (id) => call('draft_attach_dropped', { id });
export const draftDetach = (id, number) => call('draft_detach', { id, number });
export const photosDropWatch = (onDrop) => call('photos_drop_watch', { onDrop: channel(onDrop) });
export const clipboardWrite = (text) => call('clipboard_write', { text });

export const settingsGet = () => call('settings_get', {});
export const settingsSet = (key, value) => call('settings_set', { key, value });
export const keyStatus = () => call('key_status', {});
export const keySet = (secret) => call('key_set', { secret });
export const keyDelete = () => call('key_delete', {});
export const connectionCheck = () => call('connection_check', {});
// The first-run setup (issue 15): the provider's checks only, and «Пока без модели» remembered.
export const setupCheck = () => call('setup_check', {});
export const setupSkip = () => call('setup_skip', {});

export const batchChooseFile = () => call('batch_choose_file', {});
// `options`: `{new_batch, max_rows}` — a new batch even for a file run before, a higher row limit.
export const batchCheck = (path, options = null) => call('batch_check', { path, options });
export const batchList = () => call('batch_list', {});
export const batchContinue = (number) => call('batch_continue', { number });
export const batchRows = (number) => call('batch_rows', { number });
export const batchRun = (checkToken, offline, confirmed, taskId, onProgress) =>
  call('batch_run', { checkToken, offline, confirmed, taskId, onProgress: channel(onProgress) });
export const batchCancel = (taskId) => call('batch_cancel', { taskId });
export const batchExport = (number, format, collective) => call('batch_export', { number, format, collective });

// After the request is filed (issue 30).
export const caseGet = (id) => call('case_get', { id });
export const caseFile = (id, filing) => call('case_file', { id, filing });
/** A request filed before Zayavka (issue 38): its text as filed and its filing; a `CaseDetail`. */
export const caseBringIn = (text, filing) => call('case_bring_in', { text, filing });
export const caseUnfile = (id) => call('case_unfile', { id });
export const caseAnswer = (id, answer) => call('case_answer', { id, answer });
export const caseClose = (id, close) => call('case_close', { id, close });
export const caseAttachChosen = (id, role) => call('case_attach_chosen', { id, role });
export const draftCorrect = (id) => call('draft_correct', { id });
export const followUpWrite = (id, kind, addressee) => call('follow_up_write', { id, kind, addressee });
export const casesDue = () => call('cases_due', {});
export const caseCalendar = (id) => call('case_calendar', { id });
export const batchFile = (number, rows, filing) => call('batch_file', { number, rows, filing });
export const batchCases = (number) => call('batch_cases', { number });
export const batchFollowUp = (number, kind, addressee, format) => call('batch_follow_up', { number, kind, addressee, format });

export const profileGet = () => call('profile_get', {});
export const profileSet = (field, value) => call('profile_set', { field, value });
export const profileClear = () => call('profile_clear', {});

// «Статистика» in «Настройки»: `request` is `{days: number|null}`.
export const statsGet = (request) => call('stats_get', { request });

// «Данные» in «Настройки» (issue 31): the drafts database backed up, put back, recovered.
export const dataBackup = () => call('data_backup', {});
export const dataRestoreChoose = () => call('data_restore_choose', {});
export const dataRestore = (path) => call('data_restore', { path });
export const dataRecover = () => call('data_recover', {});

// Closing the window with unsaved changes: Rust keeps the window open and says so on the channel.
export const windowCloseWatch = (onClose) => call('window_close_watch', { onClose: channel(onClose) });
export const windowUnsaved = (unsaved) => call('window_unsaved', { unsaved });
export const windowClose = () => call('window_close', {});
