// The page's entry point: the navigation between the screens and their start-up. Screens
// are sections of one document, switched by the address's fragment, so the browser's own back
// and forward keys work and every screen is reachable by a link.

import { byId } from './dom.js';
import * as ipc from './ipc.js';
import { setUpNewRequest } from './new-request.js';
import { setUpDrafts } from './drafts.js';
import { setUpDue } from './due.js';
import { setUpBatch } from './batch.js';
import { setUpSettings } from './settings.js';
import { setUpSetup } from './setup.js';
import { watchPhotoDrops } from './photos.js';

/** @import { JsonValue } from './ipc-contract.js' */

/**
 * A screen, named as its section (`screen-…`), its heading (`…-heading`) and its address (`#…`).
 * @typedef {'new' | 'drafts' | 'due' | 'batch' | 'settings' | 'setup'} ScreenName
 */

/**
 * What main.js asks of every screen: `enter` when it is shown; a screen that can hold unsaved
 * changes also names them (`unsavedParts`), puts them back as saved (`discard`) and focuses its
 * «Сохранить» (`focusSave`).
 * @typedef {object} Screen
 * @property {() => unknown} enter
 * @property {() => string[]} [unsavedParts]
 * @property {() => void} [discard]
 * @property {() => void} [focusSave]
 */

// «setup» is the first-run setup (issue 15): no link of its own, reached from «Настройки».
/** @type {readonly ScreenName[]} */
const SCREENS = ['new', 'drafts', 'due', 'batch', 'settings', 'setup'];

// Where focus goes after a screen switch asked for a particular control (e.g. «Задать ключ»).
/** @type {string | null} */
let pendingFocus = null;

const navigation = {
  /**
   * Shows `screen` and focuses the control `focusId` on it.
   * @param {ScreenName} screen
   * @param {string | null} [focusId]
   */
  show(screen, focusId = null) {
    pendingFocus = focusId;
    if (location.hash === `#${screen}`) route();
    else location.hash = screen;
  },
  /** @param {JsonValue} input a stored draft's input as typed, back in the form */
  editInForm(input) {
    newRequest.load(input);
    navigation.show('new', 'description');
  },
  /**
   * A draft opened in «Черновики» from another screen («Сроки»).
   * @param {number} id
   */
  openDraft(id) {
    navigation.show('drafts');
    void drafts.open(id);
  },
  // A screen's unsaved changes may have changed (saved, put back, refused): Rust is told.
  unsavedChanged() {
    syncUnsaved();
  },
};

const newRequest = setUpNewRequest(navigation);
const drafts = setUpDrafts(navigation);
const due = setUpDue(navigation);
/** @type {Record<ScreenName, Screen>} */
const screens = {
  new: newRequest,
  drafts,
  due,
  batch: setUpBatch(navigation),
  settings: setUpSettings(navigation),
  setup: setUpSetup(navigation),
};

/** @type {ScreenName | null} */
let current = null;

/** @param {string} hash */
const screenOf = (hash) => SCREENS.find((screen) => screen === hash.slice(1)) ?? 'new';

/**
 * Leaving a screen with unsaved changes («Настройки») asks first, in a dialog of the page: the
 * address goes back to the screen at once, and only «Уйти без сохранения» goes on, with the
 * changes put back as they are saved (issue 14).
 */
function guardedRoute() {
  const screen = screenOf(location.hash);
  const leaving = current;
  const parts = leaving !== null && leaving !== screen ? (screens[leaving].unsavedParts?.() ?? []) : [];
  if (leaving === null || parts.length === 0) {
    route();
    return;
  }
  const target = location.hash;
  const focus = pendingFocus;
  pendingFocus = null;
  history.replaceState(null, '', `#${leaving}`);
  askToLeave(parts, (leave) => {
    if (!leave) {
      screens[leaving].focusSave?.();
      return;
    }
    screens[leaving].discard?.();
    syncUnsaved();
    pendingFocus = focus;
    location.hash = target;
  });
}

// The one dialog asks before leaving a screen or closing the window, worded for each.
const LEAVE_WORDS = {
  screen: { title: 'Уйти без сохранения?', leave: 'Уйти без сохранения', loss: 'Если уйти, изменения пропадут.' },
  window: { title: 'Закрыть приложение без сохранения?', leave: 'Закрыть без сохранения', loss: 'Если закрыть приложение, изменения пропадут.' },
};

/**
 * @param {string[]} parts what was changed, as the screen names it
 * @param {(leave: boolean) => void} answer
 * @param {keyof typeof LEAVE_WORDS} [what]
 */
function askToLeave(parts, answer, what = 'screen') {
  const dialog = byId('leave-dialog', HTMLDialogElement);
  const words = LEAVE_WORDS[what];
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} и ${parts.at(-1)}`;
  byId('leave-dialog-title').textContent = words.title;
  byId('leave-dialog-text').textContent = `Вы изменили ${list}, но не сохранили. ${words.loss}`;
  const leaveButton = dialog.querySelector('button[value="leave"]');
  if (!leaveButton) throw new Error('missing the leave button of #leave-dialog');
  leaveButton.textContent = words.leave;
  dialog.returnValue = '';
  dialog.addEventListener('close', () => answer(dialog.returnValue === 'leave'), { once: true });
  dialog.showModal();
}

const unsavedNow = () => (current !== null ? (screens[current].unsavedParts?.() ?? []) : []);

// Closing or reloading the window with unsaved changes: the webview's own question, where it has one.
window.addEventListener('beforeunload', (event) => {
  if (unsavedNow().length > 0) event.preventDefault();
});

/*
 * Closing the native window (its close button, Alt+F4, Cmd+W) is not stopped by `beforeunload`.
 * So Rust is told whenever the page starts or stops holding unsaved changes, and while it does,
 * it keeps the window open on a close request and tells the page, which asks in the same dialog
 * worded for closing; only «Закрыть без сохранения» closes the window (issue 14).
 */
let reportedUnsaved = false;
function syncUnsaved() {
  const unsaved = unsavedNow().length > 0;
  if (unsaved === reportedUnsaved) return;
  reportedUnsaved = unsaved;
  ipc.windowUnsaved(unsaved).catch(() => {
    // Without the Rust side there is no window to keep open; next time it is tried again.
    reportedUnsaved = !unsaved;
  });
}
document.addEventListener('input', syncUnsaved);
document.addEventListener('change', syncUnsaved);

function closeWindow() {
  ipc.windowClose().catch((/** @type {unknown} */ failure) => {
    appAlert.textContent = ipc.messageOf(failure);
    appAlert.hidden = false;
  });
}

let askingToClose = false;
async function closeRequested() {
  const parts = unsavedNow();
  // Rust asks only while the page said it holds changes; they may have been saved meanwhile.
  if (parts.length === 0) {
    closeWindow();
    return;
  }
  if (askingToClose) return;
  askingToClose = true;
  const dialog = byId('leave-dialog', HTMLDialogElement);
  if (dialog.open) {
    // A question about leaving the screen is open: «Остаться» for it, and the question is now
    // about closing.
    const closed = new Promise((resolve) => dialog.addEventListener('close', resolve, { once: true }));
    dialog.close('stay');
    await closed;
  }
  const screen = current;
  askToLeave(
    parts,
    (close) => {
      askingToClose = false;
      if (close) closeWindow();
      else if (screen !== null) screens[screen].focusSave?.();
    },
    'window',
  );
}

function route() {
  const screen = screenOf(location.hash);
  for (const name of SCREENS) {
    byId(`screen-${name}`).hidden = name !== screen;
  }
  for (const link of document.querySelectorAll('.app-nav a')) {
    if (link.getAttribute('data-screen') === screen) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const switched = current !== null && current !== screen;
  current = screen;
  document.title = `${byId(`${screen}-heading`).textContent} — Заявка`;
  screens[screen].enter();
  if (pendingFocus) {
    const target = document.getElementById(pendingFocus);
    pendingFocus = null;
    target?.focus();
  } else if (switched) {
    // After a switch, focus lands on the new screen's heading so a screen reader announces it.
    byId(`${screen}-heading`).focus();
  }
}

// A message for the whole window (a drop with no draft on screen); it goes with the next screen.
const appAlert = byId('app-alert');
window.addEventListener('hashchange', () => {
  appAlert.hidden = true;
});
watchPhotoDrops((message) => {
  appAlert.textContent = message;
  appAlert.hidden = false;
}).catch(() => {
  // Without the Rust side (the page opened in a browser) there is nothing to drop onto.
});

ipc.windowCloseWatch(() => void closeRequested()).catch(() => {
  // Without the Rust side (the page opened in a browser) there is no window to close.
});

/**
 * With no model service set up (settings_get's `first_run`: none chosen, none from the
 * environment, the setup not skipped), the app opens on the setup instead of the form (issue 15).
 * Rust decides; the page keeps nothing of its own about it.
 */
async function firstScreen() {
  try {
    const overview = await ipc.settingsGet();
    if (overview.first_run) history.replaceState(null, '', '#setup');
  } catch {
    // Without the Rust side (or with settings unreadable) the form opens, as it always may.
  }
}

window.addEventListener('hashchange', guardedRoute);
await firstScreen();
route();
void newRequest.restore();
// What is overdue is said when the app opens; nothing runs in the background (issue 30).
if (current !== 'setup' && current !== 'due') void due.announce();
document.documentElement.dataset.ready = 'yes';
