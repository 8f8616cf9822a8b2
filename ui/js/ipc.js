// The one seam between the page and the Rust side. Every command the page uses is a function
// here, named after the command in docs/desktop-ipc.md, so the contract can be read in one place
// and the browser tests can replace `window.__TAURI_INTERNALS__` underneath without the page
// noticing. What each command takes and answers is declared in ipc-contract.d.ts, generated from
// the Rust types (ADR 39): the type checker (tests/ui/typecheck.sh) holds every call here to it,
// so a command renamed or removed on the Rust side, or an argument changed, is a type error.

import { Channel, invoke } from '../vendor/tauri-api/core.js';

/**
 * @import { BatchProgressView, CheckOptions, CloseEvent, CommandName, Commands, DraftProgress,
 *   DropEvent, ErrorKind, FilingForm, FollowUpKind, AnswerForm, ListFilter, ProfileField,
 *   RawInput, SaveFormat, StatsRequest, SubjectKind } from './ipc-contract.js'
 */

/**
 * Why a command failed: one of the Rust side's kinds, or one of the page's own two —
 * `unexpected` (Tauri refused the call itself) and `no_backend` (the page is not in the app).
 * @typedef {ErrorKind | 'unexpected' | 'no_backend'} IpcErrorKind
 */

/** A failed command, always with a stable `kind` and a Russian `message` for the resident. */
export class IpcError extends Error {
  /**
   * @param {IpcErrorKind} kind
   * @param {string} message
   */
  constructor(kind, message) {
    super(message);
    this.name = 'IpcError';
    /** @type {IpcErrorKind} */
    this.kind = kind;
  }
}

/**
 * What a failure says to the resident: every command rejects with an `IpcError`, whose message
 * is the resident's sentence; anything else is the page's own bug, said as it is.
 * @param {unknown} failure
 * @returns {string}
 */
export function messageOf(failure) {
  return failure instanceof Error ? failure.message : String(failure);
}

// Tauri itself may reject with a bare English string (an unknown command, a broken argument).
// Those are the app's own bugs, so the resident gets a calm Russian sentence instead of them.
const UNEXPECTED_MESSAGE =
  'Приложение не смогло выполнить действие. Ваш текст сохранён. Перезапустите приложение и попробуйте снова.';

/**
 * The Rust side's `{kind, message}`, or the page's own `unexpected` for anything else.
 * @param {unknown} error
 * @returns {IpcError}
 */
function toIpcError(error) {
  if (error && typeof error === 'object' && 'kind' in error && 'message' in error
    && typeof error.kind === 'string' && typeof error.message === 'string') {
    // The Rust side rejects with `CommandError` alone, whose `kind` is an `ErrorKind`.
    return new IpcError(/** @type {ErrorKind} */ (error.kind), error.message);
  }
  return new IpcError('unexpected', UNEXPECTED_MESSAGE);
}

/**
 * Calls a command with exactly the arguments its Rust definition takes.
 * @template {CommandName} K
 * @param {K} name
 * @param {Commands[K]['args']} args
 * @returns {Promise<Commands[K]['answer']>}
 */
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

/**
 * A channel on which a long command talks while it runs.
 * @template T
 * @param {(message: T) => void} onMessage
 * @returns {Channel<T>}
 */
function channel(onMessage) {
  /** @type {Channel<T>} */
  const messages = new Channel();
  messages.onmessage = onMessage;
  return messages;
}

/**
 * @param {RawInput} input
 * @param {string} taskId
 * @param {(progress: DraftProgress) => void} onProgress
 * @returns {Promise<Commands['draft_run']['answer']>}
 */
export const draftRun = (input, taskId, onProgress) =>
  call('draft_run', { input, taskId, onProgress: channel(onProgress) });
/**
 * @param {string} taskId
 * @returns {Promise<Commands['draft_cancel']['answer']>}
 */
export const draftCancel = (taskId) => call('draft_cancel', { taskId });
/**
 * @param {RawInput} input
 * @returns {Promise<Commands['draft_offline']['answer']>}
 */
export const draftOffline = (input) => call('draft_offline', { input });
/**
 * @param {number} draftId
 * @param {SubjectKind} subject
 * @returns {Promise<Commands['draft_reassemble']['answer']>}
 */
export const draftReassemble = (draftId, subject) => call('draft_reassemble', { draftId, subject });
/**
 * @param {RawInput} input
 * @returns {Promise<Commands['input_autosave']['answer']>}
 */
export const inputAutosave = (input) => call('input_autosave', { input });
/** @returns {Promise<Commands['input_restore']['answer']>} */
export const inputRestore = () => call('input_restore', {});

/**
 * @param {ListFilter} filter
 * @returns {Promise<Commands['drafts_list']['answer']>}
 */
export const draftsList = (filter) => call('drafts_list', { filter });
/**
 * @param {string} text
 * @returns {Promise<Commands['drafts_search']['answer']>}
 */
export const draftsSearch = (text) => call('drafts_search', { text });
/**
 * @param {number} id
 * @returns {Promise<Commands['draft_open']['answer']>}
 */
export const draftOpen = (id) => call('draft_open', { id });
/**
 * @param {number} id
 * @param {string} title
 * @param {string} body
 * @returns {Promise<Commands['draft_edit']['answer']>}
 */
export const draftEdit = (id, title, body) => call('draft_edit', { id, title, body });
/**
 * @param {number} id
 * @returns {Promise<Commands['draft_delete']['answer']>}
 */
export const draftDelete = (id) => call('draft_delete', { id });
/**
 * @param {number} id
 * @param {SaveFormat} format
 * @param {boolean} collective
 * @returns {Promise<Commands['draft_save_as']['answer']>}
 */
export const draftSaveAs = (id, format, collective) => call('draft_save_as', { id, format, collective });
/**
 * @param {number} id
 * @param {boolean} collective
 * @returns {Promise<Commands['draft_document']['answer']>}
 */
export const draftDocument = (id, collective) => call('draft_document', { id, collective });
/** @returns {Promise<Commands['print_page']['answer']>} */
export const printPage = () => call('print_page', {});
/**
 * @param {number} id
 * @returns {Promise<Commands['draft_photos']['answer']>}
 */
export const draftPhotos = (id) => call('draft_photos', { id });
/**
 * @param {number} id
 * @returns {Promise<Commands['draft_attach_chosen']['answer']>}
 */
export const draftAttachChosen = (id) => call('draft_attach_chosen', { id });
/**
 * @param {number} id
 * @returns {Promise<Commands['draft_attach_dropped']['answer']>}
 */
export const draftAttachDropped = (id) => call('draft_attach_dropped', { id });
/**
 * @param {number} id
 * @param {number} number
 * @returns {Promise<Commands['draft_detach']['answer']>}
 */
export const draftDetach = (id, number) => call('draft_detach', { id, number });
/**
 * @param {(event: DropEvent) => void} onDrop
 * @returns {Promise<Commands['photos_drop_watch']['answer']>}
 */
export const photosDropWatch = (onDrop) => call('photos_drop_watch', { onDrop: channel(onDrop) });
/**
 * @param {string} text
 * @returns {Promise<Commands['clipboard_write']['answer']>}
 */
export const clipboardWrite = (text) => call('clipboard_write', { text });

/** @returns {Promise<Commands['settings_get']['answer']>} */
export const settingsGet = () => call('settings_get', {});
/**
 * @param {string} key
 * @param {string} value
 * @returns {Promise<Commands['settings_set']['answer']>}
 */
export const settingsSet = (key, value) => call('settings_set', { key, value });
/** @returns {Promise<Commands['key_status']['answer']>} */
export const keyStatus = () => call('key_status', {});
/**
 * @param {string} secret
 * @returns {Promise<Commands['key_set']['answer']>}
 */
export const keySet = (secret) => call('key_set', { secret });
/** @returns {Promise<Commands['key_delete']['answer']>} */
export const keyDelete = () => call('key_delete', {});
/** @returns {Promise<Commands['connection_check']['answer']>} */
export const connectionCheck = () => call('connection_check', {});
// The first-run setup (issue 15): the provider's checks only, and «Пока без модели» remembered.
/** @returns {Promise<Commands['setup_check']['answer']>} */
export const setupCheck = () => call('setup_check', {});
/** @returns {Promise<Commands['setup_skip']['answer']>} */
export const setupSkip = () => call('setup_skip', {});

/** @returns {Promise<Commands['batch_choose_file']['answer']>} */
export const batchChooseFile = () => call('batch_choose_file', {});
// `options`: `{new_batch, max_rows}` — a new batch even for a file run before, a higher row limit.
/**
 * @param {string} path
 * @param {CheckOptions | null} [options]
 * @returns {Promise<Commands['batch_check']['answer']>}
 */
export const batchCheck = (path, options = null) => call('batch_check', { path, options });
/** @returns {Promise<Commands['batch_list']['answer']>} */
export const batchList = () => call('batch_list', {});
/**
 * @param {number} number
 * @returns {Promise<Commands['batch_continue']['answer']>}
 */
export const batchContinue = (number) => call('batch_continue', { number });
/**
 * @param {number} number
 * @returns {Promise<Commands['batch_rows']['answer']>}
 */
export const batchRows = (number) => call('batch_rows', { number });
/**
 * @param {string} checkToken
 * @param {boolean} offline
 * @param {boolean} confirmed
 * @param {string} taskId
 * @param {(progress: BatchProgressView) => void} onProgress
 * @returns {Promise<Commands['batch_run']['answer']>}
 */
export const batchRun = (checkToken, offline, confirmed, taskId, onProgress) =>
  call('batch_run', { checkToken, offline, confirmed, taskId, onProgress: channel(onProgress) });
/**
 * @param {string} taskId
 * @returns {Promise<Commands['batch_cancel']['answer']>}
 */
export const batchCancel = (taskId) => call('batch_cancel', { taskId });
/**
 * @param {number} number
 * @param {string} format
 * @param {boolean} collective
 * @returns {Promise<Commands['batch_export']['answer']>}
 */
export const batchExport = (number, format, collective) => call('batch_export', { number, format, collective });

// After the request is filed (issue 30).
/**
 * @param {number} id
 * @returns {Promise<Commands['case_get']['answer']>}
 */
export const caseGet = (id) => call('case_get', { id });
/**
 * @param {number} id
 * @param {FilingForm} filing
 * @returns {Promise<Commands['case_file']['answer']>}
 */
export const caseFile = (id, filing) => call('case_file', { id, filing });
/**
 * A request filed before Zayavka (issue 38): its text as filed and its filing.
 * @param {string} text
 * @param {FilingForm} filing
 * @returns {Promise<Commands['case_bring_in']['answer']>}
 */
export const caseBringIn = (text, filing) => call('case_bring_in', { text, filing });
/**
 * @param {number} id
 * @returns {Promise<Commands['case_unfile']['answer']>}
 */
export const caseUnfile = (id) => call('case_unfile', { id });
/**
 * @param {number} id
 * @param {AnswerForm} answer
 * @returns {Promise<Commands['case_answer']['answer']>}
 */
export const caseAnswer = (id, answer) => call('case_answer', { id, answer });
/**
 * @param {number} id
 * @param {boolean} close
 * @returns {Promise<Commands['case_close']['answer']>}
 */
export const caseClose = (id, close) => call('case_close', { id, close });
/**
 * @param {number} id
 * @param {string} role
 * @returns {Promise<Commands['case_attach_chosen']['answer']>}
 */
export const caseAttachChosen = (id, role) => call('case_attach_chosen', { id, role });
/**
 * @param {number} id
 * @returns {Promise<Commands['draft_correct']['answer']>}
 */
export const draftCorrect = (id) => call('draft_correct', { id });
/**
 * @param {number} id
 * @param {FollowUpKind} kind
 * @param {string | null} addressee
 * @returns {Promise<Commands['follow_up_write']['answer']>}
 */
export const followUpWrite = (id, kind, addressee) => call('follow_up_write', { id, kind, addressee });
/** @returns {Promise<Commands['cases_due']['answer']>} */
export const casesDue = () => call('cases_due', {});
/**
 * @param {number} id
 * @returns {Promise<Commands['case_calendar']['answer']>}
 */
export const caseCalendar = (id) => call('case_calendar', { id });
/**
 * @param {number} number
 * @param {number[]} rows
 * @param {FilingForm} filing
 * @returns {Promise<Commands['batch_file']['answer']>}
 */
export const batchFile = (number, rows, filing) => call('batch_file', { number, rows, filing });
/**
 * @param {number} number
 * @returns {Promise<Commands['batch_cases']['answer']>}
 */
export const batchCases = (number) => call('batch_cases', { number });
/**
 * @param {number} number
 * @param {FollowUpKind} kind
 * @param {string | null} addressee
 * @param {SaveFormat} format
 * @returns {Promise<Commands['batch_follow_up']['answer']>}
 */
export const batchFollowUp = (number, kind, addressee, format) => call('batch_follow_up', { number, kind, addressee, format });

/** @returns {Promise<Commands['profile_get']['answer']>} */
export const profileGet = () => call('profile_get', {});
/**
 * @param {ProfileField} field
 * @param {string} value
 * @returns {Promise<Commands['profile_set']['answer']>}
 */
export const profileSet = (field, value) => call('profile_set', { field, value });
/** @returns {Promise<Commands['profile_clear']['answer']>} */
export const profileClear = () => call('profile_clear', {});

// «Статистика» in «Настройки»: `request` is `{days: number|null}`.
/**
 * @param {StatsRequest} request
 * @returns {Promise<Commands['stats_get']['answer']>}
 */
export const statsGet = (request) => call('stats_get', { request });

// «Данные» in «Настройки» (issue 31): the drafts database backed up, put back, recovered.
/** @returns {Promise<Commands['data_backup']['answer']>} */
export const dataBackup = () => call('data_backup', {});
/** @returns {Promise<Commands['data_restore_choose']['answer']>} */
export const dataRestoreChoose = () => call('data_restore_choose', {});
/**
 * @param {string} path
 * @returns {Promise<Commands['data_restore']['answer']>}
 */
export const dataRestore = (path) => call('data_restore', { path });
/** @returns {Promise<Commands['data_recover']['answer']>} */
export const dataRecover = () => call('data_recover', {});

// Closing the window with unsaved changes: Rust keeps the window open and says so on the channel.
/**
 * @param {(event: CloseEvent) => void} onClose
 * @returns {Promise<Commands['window_close_watch']['answer']>}
 */
export const windowCloseWatch = (onClose) => call('window_close_watch', { onClose: channel(onClose) });
/**
 * @param {boolean} unsaved
 * @returns {Promise<Commands['window_unsaved']['answer']>}
 */
export const windowUnsaved = (unsaved) => call('window_unsaved', { unsaved });
/** @returns {Promise<Commands['window_close']['answer']>} */
export const windowClose = () => call('window_close', {});
